#!/usr/bin/env python3
"""Label positions with Fairy-Stockfish's search score, for `lab tune-fit` (positions from `lab tune-gen`).

Reads lines `FEN` (one variant per run) and writes `FEN;score;bestmove`, the score in centipawns from the
side to move after a search of NODES nodes (mate scores become +-3000). Needs tools/fsf/setup.sh.
Usage: tools/tune/label.py VARIANT NODES < positions.txt > labelled.txt
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fsf"))
from engine import Engine  # noqa: E402


def main():
    variant, nodes = sys.argv[1], int(sys.argv[2])
    engine = Engine(variant)
    for raw in sys.stdin:
        fen = raw.strip()
        if not fen:
            continue
        score, best = engine.evaluate(f"fen {fen}", nodes)
        if score is None or best == "(none)":
            continue
        print(f"{fen};{score};{best}", flush=True)
    engine.quit()


if __name__ == "__main__":
    main()

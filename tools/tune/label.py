#!/usr/bin/env python3
"""Label positions with Fairy-Stockfish's search score, for `capabot tune`.

Reads lines `FEN` (one variant per run) and writes `FEN;score;bestmove`, the score in centipawns from the
side to move after a search of NODES nodes (mate scores become +-3000). Needs tools/fsf/setup.sh.
Usage: tools/tune/label.py VARIANT NODES < positions.txt > labelled.txt
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
UCI = os.path.join(HERE, "..", "fsf", "uci.js")


def main():
    variant, nodes = sys.argv[1], int(sys.argv[2])
    engine = subprocess.Popen(["node", UCI], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read_until(prefix):
        lines = []
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("engine exited")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    send("uci")
    read_until("uciok")
    send(f"setoption name UCI_Variant value {variant}")
    send("isready")
    read_until("readyok")
    score_re = re.compile(r"score (cp|mate) (-?\d+)")
    for raw in sys.stdin:
        fen = raw.strip()
        if not fen:
            continue
        send(f"position fen {fen}")
        send(f"go nodes {nodes}")
        lines = read_until("bestmove")
        score = None
        for line in lines:
            m = score_re.search(line)
            if m:
                value = int(m.group(2))
                score = value if m.group(1) == "cp" else (3000 if value > 0 else -3000)
        best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"
        if score is None or best == "(none)":
            continue
        print(f"{fen};{score};{best}", flush=True)
    send("quit")


if __name__ == "__main__":
    main()

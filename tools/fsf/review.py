#!/usr/bin/env python3
"""Find capabot's costly moves in its lost games, with Fairy-Stockfish as the judge.

Reads the output of `capabot match --verbose` (lines `game N: A white|black SCORE (...) from FEN`
followed by `  moves ...`, where A is the capabot player), has Fairy-Stockfish (tools/fsf, run setup.sh
first) evaluate every position of each game A lost with a search of NODES nodes, and prints each of A's
moves (other than Fairy-Stockfish's own choice) after which the evaluation fell by THRESHOLD centipawns or
more from A's side, with the move Fairy-Stockfish preferred and a UCI `position` command to replay the
position before the move.

Usage: tools/fsf/review.py MATCH_LOG VARIANT [NODES [THRESHOLD [MAX_GAMES]]]
"""
import re
import sys

from engine import Engine

GAME = re.compile(r"game\s+(\d+): A (white|black) ([\d.]+) \((.*)\) from (.*)$")


def games(path):
    lines = open(path).read().splitlines()
    for i, line in enumerate(lines[:-1]):
        m = GAME.match(line)
        if m and lines[i + 1].strip().startswith("moves"):
            yield int(m.group(1)), m.group(2), float(m.group(3)), m.group(4), m.group(5), lines[i + 1].split()[1:]


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    log, variant = sys.argv[1], sys.argv[2]
    nodes = int(sys.argv[3]) if len(sys.argv) > 3 else 60000
    threshold = int(sys.argv[4]) if len(sys.argv) > 4 else 150
    max_games = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    engine = Engine(variant)
    reviewed = 0
    for number, colour, score, reason, fen, moves in games(log):
        if score != 0 or reviewed >= max_games:
            continue
        reviewed += 1
        print(f"game {number}: capabot {colour}, lost ({reason})", flush=True)
        white_first = fen.split()[1] == "w"
        before = None
        for k in range(len(moves) + 1):
            position = f"fen {fen}" + (f" moves {' '.join(moves[:k])}" if k else "")
            cp, best = engine.evaluate(position, nodes)
            if cp is None:
                break
            white_to_move = white_first == (k % 2 == 0)
            ours = cp if white_to_move == (colour == "white") else -cp
            mover_was_capabot = white_to_move != (colour == "white")
            if (
                before is not None
                and mover_was_capabot
                and before[0] - ours >= threshold
                and moves[k - 1] != before[1]  # the judge's own choice is its search noise, not a mistake
            ):
                prev = f"fen {fen}" + (f" moves {' '.join(moves[:k - 1])}" if k > 1 else "")
                print(f"  ply {k}: {moves[k - 1]} ({before[0]} -> {ours}), Fairy-Stockfish prefers {before[1]}")
                print(f"    position {prev}", flush=True)
            before = (ours, best)
            if abs(ours) >= 1500:
                break
    engine.quit()


if __name__ == "__main__":
    main()

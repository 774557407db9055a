#!/usr/bin/env python3
"""Writes tests/data/perft/{atomic-nocheck,atomic-deathmatch,atomic-pawnsafe,bomb}.perft with node counts
from the independent reference `atomic_family_naive.py` (never from the Rust engine).

Positions: the start position, hand-made positions that show each variant's difference (named in their
ids), and positions from Fairy-Stockfish's atomic and chess test vectors (tests/data/vectors) where the
variant's counts differ from lichess atomic's (for bomb: with a bomb given to each side).

Usage (from the repository root): python3 tests/oracle/atomic_family_data.py [--out DIR]
About ten minutes on one idle core. Then `cargo test --profile ci --no-default-features --test engine perft::`.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import atomic_family_naive as ref  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

HAND = {
    "atomic-nocheck": [
        ("king-walks-into-attack", "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", None),
        ("king-left-attacked-may-be-taken", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1", None),
        ("pawn-takes-king", "4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", None),
        ("castle-through-attack", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", None),
        ("castle-out-of-attack", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", None),
        ("capture-next-to-own-king-illegal", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", None),
        ("kings-apart-attacked", "8/8/3k4/8/3Q4/8/8/4K3 b - - 0 1", None),
        ("no-checkmate", "k7/8/1Q6/8/8/8/8/4K3 b - - 0 1", None),
    ],
    "atomic-deathmatch": [
        ("double-king-explosion", "8/p7/8/4n3/3K1k2/8/P7/4R3 w - - 0 1", None),
        ("double-king-explosion-in-check", "3r4/p7/8/4n3/3K1k2/8/P7/4R3 w - - 0 1", None),
        ("own-king-only-stays-illegal", "8/8/8/4n3/3K4/8/7k/4R3 w - - 0 1", None),
        ("kingless-play", "8/p7/8/4n3/8/8/P7/4R3 w - - 0 1", None),
        ("kingless-last-piece", "8/8/8/4n3/8/8/8/R3R3 w - - 0 1", None),
        ("kingless-board-empties", "8/8/8/4n3/8/8/8/4R3 w - - 0 1", None),
        ("kingless-black-to-move", "8/pp6/8/8/8/2N5/P7/8 b - - 0 1", None),
        ("kingless-promotion", "8/P7/8/8/8/8/7p/8 w - - 0 1", None),
        ("pawn-captures-both-kings", "8/8/8/3k4/4q3/3P1K2/8/8 w - - 0 1", None),
    ],
    "atomic-pawnsafe": [
        ("pawn-takes-next-to-pieces", "4k3/8/8/2nbr3/3P4/8/8/4K3 w - - 0 1", None),
        ("piece-takes-among-pawns", "4k3/8/8/2ppp3/2pnp3/2ppp3/8/3QK3 w - - 0 1", None),
        ("en-passant-no-blast", "4k3/2n1b3/8/3pP3/8/8/8/4K3 w - d6 0 1", None),
        ("pawn-promotes-with-capture", "1n2k3/P1q5/8/8/8/8/8/4K3 w - - 0 1", None),
        ("blast-kills-pawns-by-king", "4k3/3ppp2/3pnp2/8/8/8/8/4KQ2 w - - 0 1", None),
        ("pawn-check", "8/8/8/4k3/3P4/8/8/4K3 b - - 0 1", None),
        ("pawn-takes-beside-enemy-king", "8/8/8/3k4/3nb3/4P3/8/4K3 w - - 0 1", None),
        ("pawn-takes-checking-knight", "4k3/8/8/8/8/3n4/2PPP3/3QK3 w - - 0 1", None),
        ("en-passant-beside-enemy-king", "8/8/8/2kpP3/8/8/8/4K3 w - d6 0 1", None),
    ],
    "bomb": [
        ("start-with-bombs", START, ("b1", "g8")),
        ("start-pawn-bombs", START, ("e2", "d7")),
        ("detonation-answers-check", "4k3/8/8/8/8/5N2/4q3/4K3 w - - 0 1", ("f3", None)),
        ("detonation-in-check-kills-own-king", "4k3/8/8/8/8/8/3Nq3/4K3 w - - 0 1", ("d2", None)),
        ("detonation-in-check-leaves-check", "4k3/8/8/8/8/5N2/4q3/r3K3 w - - 0 1", ("f3", None)),
        ("detonation-kills-enemy-king", "8/8/8/8/8/2k5/3N4/6K1 w - - 0 1", ("d2", None)),
        ("detonation-kills-own-king", "8/8/8/8/8/8/3N4/3K2k1 w - - 0 1", ("d2", None)),
        ("detonation-kills-both-kings", "8/8/8/8/8/2k5/3N4/3K4 w - - 0 1", ("d2", None)),
        ("detonation-discovers-own-king", "4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1", ("e2", None)),
        ("bomb-captured", "4k3/8/8/3n4/8/4B3/8/4K3 b - - 0 1", ("e3", "d5")),
        ("bomb-pawn-promotes", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", ("b7", None)),
        ("bomb-rook-castles", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ("h1", "a8")),
        ("bomb-taken-en-passant", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", ("e5", "d5")),
        ("detonation-removes-other-bomb", "4k3/8/8/3nB3/8/8/8/4K3 w - - 0 1", ("e5", "d5")),
        ("stalemated-but-for-the-bomb", "k7/2Q5/8/8/8/8/7p/7K b - - 0 1", (None, "h2")),
    ],
}


def vectors(name):
    path = os.path.join(os.path.dirname(__file__), "..", "data", "vectors", f"{name}.tsv")
    for line in open(path):
        if line.startswith("#"):
            continue
        fields = line.split("\t")
        if fields[1] != "0":
            yield fields[0]


def normalise(fen):
    """Merges runs of empty-square digits in a FEN board (after pieces were lifted off)."""
    board, rest = fen.split(" ", 1)
    rows = []
    for row in board.split("/"):
        out, run = "", 0
        for ch in row:
            if ch.isdigit():
                run += int(ch)
            else:
                out += (str(run) if run else "") + ch
                run = 0
        rows.append(out + (str(run) if run else ""))
    return "/".join(rows) + " " + rest


def bombs_for(fen, ply_seed):
    """A deterministic bomb for each side: its n-th non-king piece in board order."""
    st = ref.read_fen(fen)
    out = []
    for c in "wb":
        squares = sorted(s for s, p in st.board.items() if p[0] == c and p[1] != "K")
        out.append(ref.name(squares[ply_seed % len(squares)]) if squares else None)
    return tuple(out)


def count(variant, fen, bombs, depth):
    rules = ref.Rules(variant)
    st = ref.read_fen(fen, tuple(b or "-" for b in bombs) if bombs else ("-", "-"))
    return ref.perft(st, depth, rules)


def record(variant, rid, fen, bombs, depths):
    lines = [f"id {variant}-{rid}", f"variant {variant}", f"fen {fen}"]
    if bombs:
        lines.append("bombs " + " ".join(b or "-" for b in bombs))
    for d in depths:
        lines.append(f"perft {d} {count(variant, fen, bombs, d)}")
    return "\n".join(lines)


def main():
    out_dir = sys.argv[sys.argv.index("--out") + 1] if "--out" in sys.argv else os.path.join(
        os.path.dirname(__file__), "..", "data", "perft")
    atomic = ref.Rules("atomic")
    for variant, hand in HAND.items():
        recs = []
        if variant != "bomb":
            recs.append(record(variant, "start", START, None, [1, 2, 3, 4]))
        for rid, fen, bombs in hand:
            recs.append(record(variant, rid, fen, bombs, [1, 2, 3]))
        # Vector positions whose counts differ from atomic's (bomb: chess positions with bombs).
        picked = 0
        source = "chess" if variant == "bomb" else "atomic"
        rules = ref.Rules(variant)
        for i, fen in enumerate(vectors(source)):
            if picked >= 12:
                break
            if variant == "atomic-deathmatch":
                # The same position with both kings lifted off: play without kings.
                if i % 5:
                    continue
                bombs = None
                board, rest = fen.split(" ", 1)
                fen = board.replace("K", "1").replace("k", "1") + " " + rest.split(" ")[0] + " - - 0 1"
                fen = normalise(fen)
            elif variant == "bomb":
                bombs = bombs_for(fen, i)
                if i % 7:
                    continue
            else:
                bombs = None
                st = ref.read_fen(fen)
                if ref.perft(st, 2, rules) == ref.perft(st, 2, atomic):
                    continue
            picked += 1
            recs.append(record(variant, f"vector-{i}", fen, bombs, [1, 2, 3]))
        header = (f"# {variant}: node counts from tests/oracle/atomic_family_naive.py (the independent reference),\n"
                  f"# written by tests/oracle/atomic_family_data.py. Rulings: docs/rules/atomic-family.md.\n\n")
        with open(os.path.join(out_dir, f"{variant}.perft"), "w") as f:
            f.write(header + "\n\n".join(recs) + "\n")
        print(variant, len(recs), "records")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Oracle test-vector generator for capabot, backed by Fairy-Stockfish (pyffish).

How to run (from the repository root):

    pip install -r tests/oracle/requirements.txt
    python3 tests/oracle/generate.py            # full run, ~35 min on 2 idle cores
    python3 tests/oracle/generate.py --quick    # small smoke run (few records)
    python3 tests/oracle/generate.py --only chess,atomic

What it produces:

    tests/data/vectors/<variant>.tsv  for variant in
        chess, capablanca, caparandom, caparelocation, stones, atomic
    tests/data/vectors/SUMMARY.md     per-variant counts and the pyffish version

Each .tsv has a '#' header line, then one TAB-separated record per position:

    1 fen        FEN exactly as pyffish.get_fen writes it
    2 perft1     number of legal moves
    3 perft2
    4 perft3     or '-' (computed for roughly one record in ten)
    5 moves      legal moves in pyffish UCI form, Python-sorted, space-separated
    6 san        pyffish.get_san of each move of field 5, same order
    7 result     '-' if the position has legal moves, else pyffish.game_result
    8 insuff     pyffish.has_insufficient_material as "w,b" with 0/1
    9 fen_after  get_fen after playing the first move of field 5, or '-'

Positions come from seeded random games (pawn-push / capture biased in some
games so that promotions and endings are reached), played to their end, plus
terminal positions (mate / stalemate / king explosion) found one ply below
sampled positions.  Everything is deterministic for a given pyffish version:
the random generators are seeded per variant and the work is split over two
processes with results collected in submission order.

Variant notes:
  * stones is loaded with pyffish.load_variant_config (see STONES_INI).
  * caparandom starts from random setups chosen among all 21,836 legal
    Capablanca-random back ranks (enumerated below), with Shredder castling.
  * caparelocation is not a pyffish variant: its 144 start positions
    (Capablanca array with an optional king or queen relocation per side)
    are played with pyffish's 'caparandom' (chess960-style castling).
perft is computed by recursion from the record's FEN: perft(2) as the sum
over moves m of len(legal_moves(fen, [m])) and perft(3) likewise with
two-move lists, so every count is relative to the FEN itself.
"""

import argparse
import multiprocessing as mp
import os
import random
import sys
import time

import pyffish as sf

SEED = 20240611

VARIANTS = ["chess", "capablanca", "caparandom", "caparelocation", "stones", "atomic"]

# Name of the pyffish variant used to play each of our variants.
ENGINE = {
    "chess": "chess",
    "capablanca": "capablanca",
    "caparandom": "caparandom",
    "caparelocation": "caparandom",
    "stones": "stones",
    "atomic": "atomic",
}

# Stone's chess: Capablanca board without the chancellor; archbishops on c/h.
STONES_INI = """
[stones:capablanca]
chancellor = -
startFen = rnabqkbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBANR w KQkq - 0 1
promotionPieceTypes = qarbn
castlingKingsideFile = i
castlingQueensideFile = c
"""

# Per-variant sizing.  games: random games played; target: records taken
# from those games (finals, near-end and "interesting" positions first,
# then random fill); terminal_extra: extra terminal positions harvested
# one ply below sampled records.
PLAN = {
    "chess": dict(games=50, target=1000, terminal_extra=150, p3_every=10, p3_cap=2000),
    "capablanca": dict(games=35, target=1000, terminal_extra=150, p3_every=20, p3_cap=1200),
    "caparandom": dict(games=35, target=1000, terminal_extra=150, p3_every=20, p3_cap=1200),
    "caparelocation": dict(games=35, target=1000, terminal_extra=150, p3_every=20, p3_cap=1200),
    "stones": dict(games=35, target=1000, terminal_extra=150, p3_every=20, p3_cap=1200),
    "atomic": dict(games=110, target=1000, terminal_extra=150, p3_every=20, p3_cap=1200),
}
QUICK_PLAN = {v: dict(games=4, target=40, terminal_extra=10, p3_every=10, p3_cap=2000)
              for v in VARIANTS}
# perft(3) is asked for on every p3_every-th record (and on harvested
# terminal positions), and skipped when perft(2) > p3_cap (cost bound).
MAX_PLIES = 500
NEAR_END = 4               # positions before a game's end kept as "near-end"

HEADER = ("#fen\tperft1\tperft2\tperft3_or_dash\tmoves_sorted_uci\tsan_same_order"
          "\tgame_result_or_dash\tinsufficient_material_w,b\tfen_after_first_move")


# ---------------------------------------------------------------- helpers

def is960(variant):
    return ENGINE[variant] == "caparandom"


def parse_board(fen):
    """Board part of a FEN -> (dict square->piece char, files, ranks)."""
    rows = fen.split()[0].split("/")
    nranks = len(rows)
    board = {}
    nfiles = 0
    for i, row in enumerate(rows):
        rank = nranks - i
        f = 0
        num = ""
        for ch in row:
            if ch.isdigit():
                num += ch
                continue
            if num:
                f += int(num)
                num = ""
            if ch in "+~":
                continue
            board[chr(ord("a") + f) + str(rank)] = ch
            f += 1
        if num:
            f += int(num)
        nfiles = max(nfiles, f)
    return board, nfiles, nranks


def split_move(m):
    """'e7e8q' -> ('e7', 'e8', 'q'); works for files a-j and ranks 1-9 or 10."""
    i = 1
    while m[i].isdigit():
        i += 1
    j = i + 1
    while j < len(m) and m[j].isdigit():
        j += 1
    return m[:i], m[i:j], m[j:]


def classify_moves(fen, moves):
    """Return (castling, en_passant, promotion, capture-set) flags for moves."""
    board, _, _ = parse_board(fen)
    white = fen.split()[1] == "w"
    ep_field = fen.split()[3]
    castle = ep = promo = False
    captures = set()
    for m in moves:
        fr, to, pr = split_move(m)
        pc = board.get(fr, "")
        tgt = board.get(to)
        own = lambda c: c is not None and (c.isupper() == white)
        if pr:
            promo = True
        if pc.lower() == "k":
            if own(tgt) and tgt.lower() == "r":
                castle = True
            elif abs(ord(fr[0]) - ord(to[0])) >= 2:
                castle = True
        if pc.lower() == "p" and fr[0] != to[0] and tgt is None:
            ep = True
            captures.add(m)
        elif tgt is not None and not own(tgt):
            captures.add(m)
    if ep:
        assert ep_field != "-", (fen, moves)
    return castle, ep, promo, captures


def kings_present(fen):
    board = fen.split()[0]
    return "K" in board, "k" in board


def only_kings_and_minor(fen):
    """Cheap dead-draw test used to stop random games."""
    pieces = [c for c in fen.split()[0] if c.isalpha()]
    rest = [c for c in pieces if c.lower() != "k"]
    return len(rest) == 0 or (len(rest) == 1 and rest[0].lower() in "nb")


# ------------------------------------------------------ start positions

def caparandom_setups():
    """All Capablanca-random back ranks (white, files a..j).

    Pieces R,R,N,N,B,B,A,Q,K,C; bishops on opposite colours, queen and
    archbishop on opposite colours, king between the rooks, and each
    second-rank pawn defended by at least one first-rank piece.  a1 is dark,
    so file index i (0 = a) is dark iff i is even.
    """
    # Files (offsets) from which a first-rank piece defends the pawn on
    # the file offset+0 of rank 2.
    defends = {
        "R": {0}, "N": {-2, 2}, "B": {-1, 1}, "Q": {-1, 0, 1},
        "K": {-1, 0, 1}, "A": {-2, -1, 1, 2}, "C": {-2, 0, 2},
    }
    counts = {"R": 2, "N": 2, "B": 2, "A": 1, "Q": 1, "K": 1, "C": 1}
    order = sorted(counts)
    out = []
    arr = [None] * 10

    def ok(a):
        bs = [i for i, p in enumerate(a) if p == "B"]
        if bs[0] % 2 == bs[1] % 2:
            return False
        if a.index("Q") % 2 == a.index("A") % 2:
            return False
        rs = [i for i, p in enumerate(a) if p == "R"]
        if not rs[0] < a.index("K") < rs[1]:
            return False
        for f in range(10):
            if not any(0 <= f - d < 10 and d in defends[a[f - d]]
                       for d in range(-2, 3)):
                return False
        return True

    def rec(i):
        if i == 10:
            if ok(arr):
                out.append("".join(arr))
            return
        for p in order:
            if counts[p]:
                counts[p] -= 1
                arr[i] = p
                rec(i + 1)
                counts[p] += 1

    rec(0)
    return out


def shredder_rights(white_back, black_back):
    w = [chr(ord("a") + i) for i, p in enumerate(white_back) if p == "R"]
    b = [chr(ord("a") + i) for i, p in enumerate(black_back.upper()) if p == "R"]
    return w[1].upper() + w[0].upper() + b[1] + b[0]


def setup_fen(white_back, black_back):
    return "%s/pppppppppp/10/10/10/10/PPPPPPPPPP/%s w %s - 0 1" % (
        black_back.lower(), white_back.upper(), shredder_rights(white_back, black_back))


RELOCATIONS = [
    # (name, file a, file b) swaps applied to RNABQKBCNR; '' = no swap.
    ("none", None, None),
    ("K-b", "f", "b"), ("K-c", "f", "c"), ("K-d", "f", "d"), ("K-e", "f", "e"),
    ("K-h", "f", "h"), ("K-i", "f", "i"),
    ("Q-b", "e", "b"), ("Q-c", "e", "c"), ("Q-g", "e", "g"), ("Q-h", "e", "h"),
    ("Q-i", "e", "i"),
]


def relocated(name_a, name_b):
    base = list("RNABQKBCNR")
    if name_a is not None:
        i, j = ord(name_a) - 97, ord(name_b) - 97
        base[i], base[j] = base[j], base[i]
    bs = [i for i, p in enumerate(base) if p == "B"]
    assert bs[0] % 2 != bs[1] % 2
    return "".join(base)


def caparelocation_setups():
    out = []
    for _, wa, wb in RELOCATIONS:
        for _, ba, bb in RELOCATIONS:
            out.append(setup_fen(relocated(wa, wb), relocated(ba, bb)))
    assert len(out) == 144 and len(set(out)) == 144
    return out


# ------------------------------------------------------------ workers

def init_worker():
    if "stones" not in sf.variants():
        sf.load_variant_config(STONES_INI)


def play_games(args):
    """Play the random games of one variant; return candidate positions.

    Returns list of (fen, tags) with tags a frozenset of strings among
    start, final, near_end, castle, ep, promo, after_capture.
    """
    variant, ngames, starts = args
    ev, c960 = ENGINE[variant], is960(variant)
    rng = random.Random("%d:games:%s" % (SEED, variant))
    out = []
    for g in range(ngames):
        start = starts[g % len(starts)] if variant == "caparelocation" else rng.choice(starts)
        fen = sf.get_fen(ev, start, [], c960)
        style = rng.choice(["uniform", "pawny", "pawny", "capture"])
        game = []  # (fen, tags)
        last_capture = False
        ply = 0
        while True:
            moves = sorted(sf.legal_moves(ev, fen, [], c960))
            castle, ep, promo, caps = classify_moves(fen, moves)
            tags = set()
            if ply == 0:
                tags.add("start")
            if castle:
                tags.add("castle")
            if ep:
                tags.add("ep")
            if promo:
                tags.add("promo")
            if last_capture:
                tags.add("after_capture")
            game.append((fen, tags))
            if not moves:
                break
            if (ply >= MAX_PLIES or int(fen.split()[-2]) >= 100
                    or only_kings_and_minor(fen)):
                break
            pick = moves
            r = rng.random()
            promos = [m for m in moves if split_move(m)[2]]
            if promos and r < 0.7:
                pick = promos
            elif style == "pawny" and r < 0.6:
                board, _, _ = parse_board(fen)
                pawnish = [m for m in moves
                           if board.get(split_move(m)[0], "").lower() == "p" or m in caps]
                pick = pawnish or moves
            elif style == "capture" and r < 0.5 and caps:
                pick = sorted(caps)
            m = rng.choice(pick)
            last_capture = m in caps
            fen = sf.get_fen(ev, fen, [m], c960)
            ply += 1
        game[-1][1].add("final")
        for fen_, tags in game[-1 - NEAR_END:-1]:
            tags.add("near_end")
        out.extend((f, frozenset(t)) for f, t in game)
    return variant, out


def compute_record(args):
    """Compute one record.  Returns (line, info dict, terminal child FENs)."""
    variant, fen, p3_cap = args
    want_p3 = p3_cap > 0
    ev, c960 = ENGINE[variant], is960(variant)
    fen = sf.get_fen(ev, fen, [], c960)
    moves = sorted(sf.legal_moves(ev, fen, [], c960))
    sans = [sf.get_san(ev, fen, m, c960) for m in moves]
    children = [sf.legal_moves(ev, fen, [m], c960) for m in moves]
    p1 = len(moves)
    p2 = sum(len(c) for c in children)
    p3 = "-"
    if want_p3 and p2 <= p3_cap:
        if p1 == 0:
            p3 = 0
        else:
            p3 = sum(len(sf.legal_moves(ev, fen, [m, m2], c960))
                     for m, ch in zip(moves, children) for m2 in ch)
    terminal = [sf.get_fen(ev, fen, [m], c960)
                for m, ch in zip(moves, children) if not ch][:2]
    result = "-" if moves else str(sf.game_result(ev, fen, [], c960))
    ins = sf.has_insufficient_material(ev, fen, [], c960)
    check = sf.gives_check(ev, fen, [], c960)
    after = sf.get_fen(ev, fen, [moves[0]], c960) if moves else "-"
    line = "\t".join([
        fen, str(p1), str(p2), str(p3), " ".join(moves), " ".join(sans), result,
        "%d,%d" % (int(ins[0]), int(ins[1])), after])
    castle, ep, promo, _ = classify_moves(fen, moves)
    wk, bk = kings_present(fen)
    info = dict(castle=castle, ep=ep, promo=promo, check=bool(check),
                mate=(not moves and bool(check)),
                stalemate=(not moves and not check and wk and bk),
                explosion=(not (wk and bk)),
                p3=(p3 != "-"), insufficient=bool(ins[0] or ins[1]))
    return line, info, terminal


# ------------------------------------------------------------ selection

def select_positions(variant, cands, target, rng):
    """Pick about `target` distinct positions, interesting ones first."""
    seen = set()
    chosen = []

    def take(lst, limit=None):
        n = 0
        for f in lst:
            if limit is not None and n >= limit:
                break
            if f not in seen:
                seen.add(f)
                chosen.append(f)
                n += 1

    by_tag = {}
    for f, tags in cands:
        for t in tags:
            by_tag.setdefault(t, []).append(f)
    for t in by_tag.values():
        rng.shuffle(t)
    take(by_tag.get("final", ()))
    if variant == "caparelocation":
        take(by_tag.get("start", ()))
    take(by_tag.get("near_end", ()), 200)
    take(by_tag.get("ep", ()), 100)
    take(by_tag.get("promo", ()), 120)
    take(by_tag.get("castle", ()), 100)
    if variant == "atomic":
        take(by_tag.get("after_capture", ()), 250)
    rest = [f for f, _ in cands]
    rng.shuffle(rest)
    take(rest, max(0, target - len(chosen)))
    return chosen


# ------------------------------------------------------------------ main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny smoke run")
    ap.add_argument("--only", default="", help="comma-separated variant subset")
    ap.add_argument("--out", default=os.path.join("tests", "data", "vectors"))
    ap.add_argument("--procs", type=int, default=2)
    opts = ap.parse_args()

    init_worker()
    variants = [v for v in opts.only.split(",") if v] or VARIANTS
    for v in variants:
        if v not in VARIANTS:
            sys.exit("unknown variant %r" % v)
    plan = QUICK_PLAN if opts.quick else PLAN
    os.makedirs(opts.out, exist_ok=True)
    t0 = time.time()

    # Sanity checks of the engine set-up (start-position perft).
    for v, want in [("chess", [20, 400, 8902]), ("capablanca", [28, 784, 25228]),
                    ("atomic", [20, 400, 8902]), ("stones", [28, 784, 25142])]:
        line, _, _ = compute_record((v, sf.start_fen(v), 10 ** 9))
        got = [int(x) for x in line.split("\t")[1:4]]
        print("start perft %-10s %s %s" % (v, got, "ok" if got == want else "MISMATCH"))
        if got != want:
            sys.exit("start-position perft mismatch for %s" % v)

    setups = caparandom_setups()
    print("caparandom setups: %d" % len(setups))
    assert len(setups) == 21836, len(setups)
    # Note: the standard Capablanca array is NOT among them (archbishop c1
    # and queen e1 are both on dark squares).
    assert "RNABQKBCNR" not in setups
    starts = {
        "caparandom": [setup_fen(s, s) for s in setups],
        "caparelocation": caparelocation_setups(),
    }

    pool = mp.Pool(opts.procs, initializer=init_worker)
    jobs = []
    for v in variants:
        st = starts.get(v, [sf.start_fen(ENGINE[v])])
        jobs.append((v, plan[v]["games"], st))
    cands = dict(pool.map(play_games, jobs, chunksize=1))
    if "caparelocation" in cands:
        # every one of the 144 set-ups is recorded at least at its start
        cands["caparelocation"] += [(f, frozenset(["start"]))
                                    for f in starts["caparelocation"]]
    print("games played in %.0fs" % (time.time() - t0))

    summary = []
    for v in variants:
        tv = time.time()
        rng = random.Random("%d:select:%s" % (SEED, v))
        fens = select_positions(v, cands[v], plan[v]["target"], rng)
        rng.shuffle(fens)
        pe, pc = plan[v]["p3_every"], plan[v]["p3_cap"]
        tasks = [(v, f, pc if i % pe == 0 else 0) for i, f in enumerate(fens)]
        res = pool.map(compute_record, tasks, chunksize=4)
        # Second pass: terminal positions found one ply below the records.
        seen = set(l.split("\t")[0] for l, _, _ in res)
        extra = []
        for _, _, term in res:
            for f in term:
                if f not in seen and len(extra) < plan[v]["terminal_extra"]:
                    seen.add(f)
                    extra.append(f)
        res += pool.map(compute_record, [(v, f, pc) for f in extra], chunksize=8)
        path = os.path.join(opts.out, v + ".tsv")
        with open(path, "w") as fh:
            fh.write(HEADER + "\n")
            for line, _, _ in res:
                fh.write(line + "\n")
        keys = ["castle", "ep", "promo", "check", "mate", "stalemate",
                "explosion", "insufficient", "p3"]
        c = {k: sum(1 for _, i, _ in res if i[k]) for k in keys}
        c["records"] = len(res)
        c["bytes"] = os.path.getsize(path)
        summary.append((v, c))
        print("%-15s records=%d castling=%d ep=%d promo=%d check=%d mate=%d "
              "stalemate=%d explosion=%d insufficient=%d perft3=%d size=%dKB (%.0fs)"
              % (v, c["records"], c["castle"], c["ep"], c["promo"], c["check"],
                 c["mate"], c["stalemate"], c["explosion"], c["insufficient"],
                 c["p3"], c["bytes"] // 1024, time.time() - tv))
    pool.close()
    pool.join()

    # SUMMARY.md is rebuilt from all six files on disk, so a partial run
    # (--only) still leaves a consistent summary.
    paths = [os.path.join(opts.out, v + ".tsv") for v in VARIANTS]
    if all(os.path.exists(p) for p in paths):
        write_summary(opts.out, [(v, stats_from_file(v, p)) for v, p in zip(VARIANTS, paths)],
                      len(setups))
    print("total %.0fs" % (time.time() - t0))


def stats_from_file(variant, path):
    ev, c960 = ENGINE[variant], is960(variant)
    c = dict.fromkeys(["castle", "ep", "promo", "check", "mate", "stalemate",
                       "explosion", "insufficient", "p3", "records"], 0)
    with open(path) as fh:
        for line in fh:
            if line.startswith("#"):
                continue
            r = line.rstrip("\n").split("\t")
            fen, moves = r[0], r[4].split()
            castle, ep, promo, _ = classify_moves(fen, moves)
            wk, bk = kings_present(fen)
            check = (wk and bk) and bool(sf.gives_check(ev, fen, [], c960))
            c["records"] += 1
            c["castle"] += castle
            c["ep"] += ep
            c["promo"] += promo
            c["check"] += check
            c["mate"] += (not moves) and check
            c["stalemate"] += (not moves) and not check and wk and bk
            c["explosion"] += not (wk and bk)
            c["insufficient"] += r[7] != "0,0"
            c["p3"] += r[3] != "-"
    c["bytes"] = os.path.getsize(path)
    return c


def write_summary(out, summary, nsetups):
    ver = ".".join(str(x) for x in sf.version())
    lines = [
        "# Oracle test vectors",
        "",
        "Generated by `python3 tests/oracle/generate.py` with pyffish %s" % ver,
        "(Fairy-Stockfish Python binding), seed %d. Format: see the header line of" % SEED,
        "each `.tsv` and the docstring of `tests/oracle/generate.py`.",
        "",
        "Counts are of records whose legal moves include at least one move of the",
        "kind (castling, en passant, promotion); `check` = side to move in check;",
        "`mate`/`stalemate` = no legal moves with/without check; `explosion` = a",
        "king is missing (atomic); `insuff` = has_insufficient_material true for",
        "either side; `perft3` = records with perft(3) filled in.",
        "",
        "caparandom start setups enumerated: %d." % nsetups,
        "",
        "| variant | records | castling | en passant | promotion | check | mate | stalemate | explosion | insuff | perft3 | KB |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v, c in summary:
        lines.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
            v, c["records"], c["castle"], c["ep"], c["promo"], c["check"], c["mate"],
            c["stalemate"], c["explosion"], c["insufficient"], c["p3"], c["bytes"] // 1024))
    with open(os.path.join(out, "SUMMARY.md"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

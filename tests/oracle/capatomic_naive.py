#!/usr/bin/env python3
"""A deliberately naive, independent Capatomic move generator (rulings C3-C12), written from the rulings
only, to cross-check the Rust engine's perft numbers. Slow on purpose: mailbox board, legality by
playing the move and asking whether the own king is attacked.

Usage: capatomic_naive.py FILE.perft [MAX_DEPTH]   -- checks every `perft N count` line of every record
       capatomic_naive.py --fen "FEN" DEPTH          -- prints perft(DEPTH)
"""
import sys

W, H = 10, 10
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KING = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ORTHO = KING[:4]
DIAG = KING[4:]
PROMOS = "QRBNACM"


def on(f, r):
    return 0 <= f < W and 0 <= r < H


def sqname(s):
    return "abcdefghij"[s[0]] + str(s[1] + 1)


def parse_sq(t):
    return ("abcdefghij".index(t[0]), int(t[1:]) - 1)


class Pos:
    pass


def parse_fen(fen):
    parts = fen.split()
    p = Pos()
    p.board, p.rad = {}, set()
    for i, row in enumerate(parts[0].split("/")):
        r, f, j = H - 1 - i, 0, 0
        while j < len(row):
            c = row[j]
            if c.isdigit():
                k = j
                while k < len(row) and row[k].isdigit():
                    k += 1
                f += int(row[j:k])
                j = k
                continue
            if c == "*":
                p.rad.add((f, r))
            else:
                p.board[(f, r)] = ("w" if c.isupper() else "b", c.upper())
            f += 1
            j += 1
    p.turn = parts[1]
    p.castling = set()
    for c in parts[2] if parts[2] != "-" else "":
        color = "w" if c.isupper() else "b"
        p.castling.add(("abcdefghij".index(c.lower()), 1 if color == "w" else 8))
    p.ep = None if parts[3] == "-" else parse_sq(parts[3])
    p.mrights = set()
    if len(parts) > 6 and parts[6] != "-":
        p.mrights = {parse_sq(t) for t in parts[6].split(",")}
    p.armed = len(parts) > 7 and parts[7] == "+"
    return p


def copy(p):
    q = Pos()
    q.board, q.rad, q.turn = dict(p.board), set(p.rad), p.turn
    q.castling, q.ep, q.mrights, q.armed = set(p.castling), p.ep, set(p.mrights), p.armed
    return q


def other(c):
    return "b" if c == "w" else "w"


def king_sq(p, c):
    for s, (col, role) in p.board.items():
        if col == c and role == "K":
            return s
    return None


def attacked(p, s, by):
    f, r = s
    for df, dr in KNIGHT:
        t = (f + df, r + dr)
        if p.board.get(t) in [(by, "N"), (by, "A"), (by, "C")]:
            return True
    for df, dr in KING:
        t = (f + df, r + dr)
        if p.board.get(t) in [(by, "K"), (by, "M")]:
            return True
    pr = -1 if by == "w" else 1  # a white pawn attacks from one rank below
    for df in (-1, 1):
        if p.board.get((f + df, r + pr)) == (by, "P"):
            return True
    for dirs, roles in ((ORTHO, "RQC"), (DIAG, "BQA")):
        for df, dr in dirs:
            t = (f + df, r + dr)
            while on(*t) and t not in p.rad and t not in p.board:
                t = (t[0] + df, t[1] + dr)
            if on(*t) and t in p.board and p.board[t][0] == by and p.board[t][1] in roles:
                return True
    return False


def shields(p):
    out = set()
    for s, (_, role) in p.board.items():
        if role == "K":
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    if on(s[0] + df, s[1] + dr):
                        out.add((s[0] + df, s[1] + dr))
    return out


def pseudo(p):
    us, them = p.turn, other(p.turn)
    moves = []

    def target_ok(t):
        if not on(*t) or t in p.rad:
            return False
        pc = p.board.get(t)
        return pc is None or (pc[0] == them and pc[1] != "K")

    for s, (col, role) in list(p.board.items()):
        if col != us:
            continue
        f, r = s
        if role == "P":
            d = 1 if us == "w" else -1
            promo_rank = 8 if us == "w" else 1
            start_rank = 2 if us == "w" else 7

            def add(t):
                if t[1] == promo_rank:
                    for x in PROMOS:
                        moves.append(("n", s, t, x))
                else:
                    moves.append(("n", s, t, None))

            one = (f, r + d)
            if on(*one) and one not in p.board and one not in p.rad:
                add(one)
                two = (f, r + 2 * d)
                if r == start_rank and two not in p.board and two not in p.rad:
                    moves.append(("n", s, two, None))
            for df in (-1, 1):
                t = (f + df, r + d)
                pc = p.board.get(t)
                if pc and pc[0] == them and pc[1] != "K":
                    add(t)
                if p.ep == t and t not in p.board:
                    if p.board.get((f + df, r)) == (them, "P"):
                        moves.append(("ep", s, t, None))
            continue
        targets = []
        if role in "NAC":
            targets += [(f + df, r + dr) for df, dr in KNIGHT]
        if role in "KM":
            targets += [(f + df, r + dr) for df, dr in KING]
        dirs = (ORTHO if role in "RQC" else []) + (DIAG if role in "BQA" else [])
        for df, dr in dirs:
            t = (f + df, r + dr)
            while on(*t) and t not in p.rad:
                targets.append(t)
                if t in p.board:
                    break
                t = (t[0] + df, t[1] + dr)
        for t in targets:
            if target_ok(t):
                moves.append(("n", s, t, None))
    # Castling (C11, C12).
    rank = 1 if us == "w" else 8
    mrank = 0 if us == "w" else 9
    k = king_sq(p, us)
    if k and k[1] == rank and not attacked(p, k, them):
        for rs in sorted(p.castling):
            if rs[1] != rank or p.board.get(rs) != (us, "R"):
                continue
            kside = rs[0] > k[0]
            kd, rd = (8, 7) if kside else (2, 3)
            files = [k[0], kd, rs[0], rd]
            ok = all(
                (f, rank) in (k, rs) or ((f, rank) not in p.board and (f, rank) not in p.rad)
                for f in range(min(files), max(files) + 1)
            )
            step = 1 if kd >= k[0] else -1
            if ok:
                f = k[0]
                while f != kd:
                    f += step
                    if attacked(p, (f, rank), them):
                        ok = False
                        break
            if not ok:
                continue
            moves.append(("castle", k, rs, ()))
            if kd == k[0]:
                continue
            off = kd - k[0]
            cands = [(k[0] - 1, mrank), (k[0] + 1, mrank)]
            have = [c for c in cands if c in p.mrights and p.board.get(c) == (us, "M")]
            for subset in ([have[0]], [have[1]], have) if len(have) == 2 else ([have[0]],) if have else ():
                good = True
                for m in subset:
                    f = m[0]
                    dest = m[0] + off
                    if not on(dest, mrank):
                        good = False
                        break
                    st = 1 if off > 0 else -1
                    while f != dest:
                        f += st
                        sq = (f, mrank)
                        if sq in p.rad or (sq in p.board and not (sq in subset and sq != m)):
                            good = False
                            break
                    if not good:
                        break
                if good:
                    moves.append(("castle", k, rs, tuple(sorted(subset))))
    # Launches (C8).
    if p.armed:
        sh = shields(p)
        for s, (col, role) in list(p.board.items()):
            if col == us and role == "M" and not attacked(p, s, them):
                for f in range(W):
                    for r in range(H):
                        if (f, r) not in sh:
                            moves.append(("launch", s, (f, r), None))
    return moves


def make(p, m):
    kind, s, t, x = m
    q = copy(p)
    us = p.turn
    q.ep = None
    touched = {s, t}
    if kind == "n":
        pc = q.board.pop(s)
        cap = q.board.pop(t, None)
        if cap and cap[1] != "P":
            q.armed = True
        q.board[t] = (us, x) if x else pc
        if pc[1] == "K":
            q.castling = {c for c in q.castling if c[1] != s[1]}
        if pc[1] == "P" and abs(t[1] - s[1]) == 2:
            q.ep = (s[0], (s[1] + t[1]) // 2)
    elif kind == "ep":
        pc = q.board.pop(s)
        q.board.pop((t[0], s[1]))
        q.board[t] = pc
    elif kind == "castle":
        rank = s[1]
        kside = t[0] > s[0]
        kd, rd = (8, 7) if kside else (2, 3)
        off = kd - s[0]
        king, rook = q.board.pop(s), q.board.pop(t)
        ms = [(mm, q.board.pop(mm)) for mm in x]
        q.board[(kd, rank)] = king
        q.board[(rd, rank)] = rook
        for mm, pc in ms:
            q.board[(mm[0] + off, mm[1])] = pc
        q.castling = {c for c in q.castling if c[1] != rank}
    else:
        sh = shields(p)
        q.board.pop(s)
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                b = (t[0] + df, t[1] + dr)
                if on(*b) and b not in sh and b in q.board:
                    q.board.pop(b)
                    touched.add(b)
        q.rad.add(t)
    q.castling -= touched
    q.mrights -= touched
    for c, rank, mrank in (("w", 1, 0), ("b", 8, 9)):
        if not any(cs[1] == rank for cs in q.castling):
            q.mrights = {mm for mm in q.mrights if mm[1] != mrank}
    q.turn = other(us)
    return q


def legal(p):
    out = []
    for m in pseudo(p):
        q = make(p, m)
        k = king_sq(q, p.turn)
        if k is not None and not attacked(q, k, q.turn):
            out.append((m, q))
    return out


def perft(p, d):
    if d == 0:
        return 1
    ms = legal(p)
    if d == 1:
        return len(ms)
    return sum(perft(q, d - 1) for _, q in ms)


def main():
    if sys.argv[1] == "--fen":
        print(perft(parse_fen(sys.argv[2]), int(sys.argv[3])))
        return
    max_depth = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    bad = 0
    n = 0
    for rec in open(sys.argv[1]).read().split("\n\n"):
        lines = [l for l in rec.strip().splitlines()]
        if not lines:
            continue
        fen = next(l[4:] for l in lines if l.startswith("fen "))
        rid = next(l[3:] for l in lines if l.startswith("id "))
        p = parse_fen(fen)
        for l in lines:
            if l.startswith("perft "):
                _, d, want = l.split()
                if int(d) > max_depth:
                    continue
                got = perft(p, int(d))
                n += 1
                if got != int(want):
                    bad += 1
                    print(f"MISMATCH {rid} depth {d}: file {want}, naive {got}  {fen}")
    print(f"{n} perft values checked, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

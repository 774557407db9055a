#!/usr/bin/env python3
"""An independent, deliberately naive move generator for the atomic family and secret-bomb chess on 8x8,
written from the atomic rule page (shared seed 003) and the rulings in docs/rules/atomic-family.md only,
to cross-check the Rust engine's perft numbers. Slow on purpose: a dict board, every move played on a
copy, legality decided afterwards by asking the rules' questions directly (is my king still there? is it
attacked? did the enemy king explode?).

Variants: atomic, atomic-nocheck, atomic-deathmatch, atomic-pawnsafe, bomb (and chess, as a sanity check).

Usage: atomic_family_naive.py FILE.perft [MAX_DEPTH]    -- checks every `perft N count` line
       atomic_family_naive.py --fen VARIANT "FEN" DEPTH [WHITE_BOMB BLACK_BOMB]   -- prints perft(DEPTH)

Perft counts stop at positions where the game is over because a king is gone (or, in a death match
without kings, a side has no material left); draws by rule (fifty moves, repetition, material) are not
perft's business. Bombs are given per record by a `bombs WHITE BLACK` line (`-` for none).
"""
import sys

FILES = "abcdefgh"
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
AROUND = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
ROOK_DIRS = AROUND[:4]
BISHOP_DIRS = AROUND[4:]

RULES = {
    #                  explode  check  deathmatch pawn_sets_off blast_kills_pawns bombs
    "chess":             (False, True,  False,     False,        False,           False),
    "atomic":            (True,  True,  False,     True,         False,           False),
    "atomic-nocheck":    (True,  False, False,     True,         False,           False),
    "atomic-deathmatch": (True,  True,  True,      True,         False,           False),
    "atomic-pawnsafe":   (True,  True,  False,     False,        True,            False),
    "bomb":              (False, True,  False,     False,        False,           True),
}


class Rules:
    def __init__(self, name):
        (self.explode, self.check, self.deathmatch, self.pawn_sets_off, self.blast_kills_pawns,
         self.bombs) = RULES[name]


def inside(s):
    return 0 <= s[0] < 8 and 0 <= s[1] < 8


def name(s):
    return FILES[s[0]] + str(s[1] + 1)


def square(t):
    return (FILES.index(t[0]), int(t[1]) - 1)


def enemy(c):
    return "b" if c == "w" else "w"


class State:
    def copy(self):
        o = State()
        o.board = dict(self.board)
        o.turn = self.turn
        o.rights = set(self.rights)
        o.ep = self.ep
        o.bombs = dict(self.bombs)
        return o


def read_fen(fen, bombs=("-", "-")):
    fields = fen.split()
    st = State()
    st.board = {}
    for i, row in enumerate(fields[0].split("/")):
        r = 7 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                st.board[(f, r)] = ("w" if ch.isupper() else "b", ch.upper())
                f += 1
    st.turn = fields[1]
    # Castling rights as the rook squares that may castle (KQkq only: these are standard arrays).
    st.rights = set()
    for ch in fields[2].replace("-", ""):
        st.rights.add({"K": (7, 0), "Q": (0, 0), "k": (7, 7), "q": (0, 7)}[ch])
    st.ep = None if fields[3] == "-" else square(fields[3])
    st.bombs = {"w": None if bombs[0] == "-" else square(bombs[0]),
                "b": None if bombs[1] == "-" else square(bombs[1])}
    return st


def find_king(st, c):
    for s, p in st.board.items():
        if p == (c, "K"):
            return s
    return None


def attacks(st, s, by):
    """Whether a piece of `by` attacks square s (pattern only: nothing about kings touching)."""
    for df, dr in KNIGHT:
        if st.board.get((s[0] + df, s[1] + dr)) == (by, "N"):
            return True
    for df, dr in AROUND:
        if st.board.get((s[0] + df, s[1] + dr)) == (by, "K"):
            return True
    back = -1 if by == "w" else 1
    for df in (-1, 1):
        if st.board.get((s[0] + df, s[1] + back)) == (by, "P"):
            return True
    for dirs, sliders in ((ROOK_DIRS, "RQ"), (BISHOP_DIRS, "BQ")):
        for df, dr in dirs:
            t = (s[0] + df, s[1] + dr)
            while inside(t) and t not in st.board:
                t = (t[0] + df, t[1] + dr)
            if inside(t) and st.board[t][0] == by and st.board[t][1] in sliders:
                return True
    return False


def in_check(st, c, rules):
    """The rule page's check: the king attacked, except that touching kings never give check (atomic),
    and nothing is check where check is not enforced."""
    if not rules.check:
        return False
    k = find_king(st, c)
    if k is None:
        return False
    other = find_king(st, enemy(c))
    if rules.explode and other is not None and max(abs(k[0] - other[0]), abs(k[1] - other[1])) == 1:
        return False
    return attacks(st, k, enemy(c))


def candidate_moves(st, rules):
    us, them = st.turn, enemy(st.turn)
    out = []

    def may_take(t):
        p = st.board.get(t)
        if p is None or p[0] != them:
            return False
        # Kings are taken only where check does not exist (no-check atomic: the capture blows it up).
        return p[1] != "K" or not rules.check

    for s, (c, role) in list(st.board.items()):
        if c != us:
            continue
        if role == "P":
            fwd = 1 if us == "w" else -1
            last = 7 if us == "w" else 0
            home = 1 if us == "w" else 6
            dests = []
            one = (s[0], s[1] + fwd)
            if inside(one) and one not in st.board:
                dests.append(one)
                two = (s[0], s[1] + 2 * fwd)
                if s[1] == home and two not in st.board:
                    out.append(("move", s, two, None))
            for df in (-1, 1):
                t = (s[0] + df, s[1] + fwd)
                if inside(t) and may_take(t):
                    dests.append(t)
                if st.ep == t and st.board.get((t[0], s[1])) == (them, "P") and t not in st.board:
                    out.append(("ep", s, t, None))
            for t in dests:
                if t[1] == last:
                    for promo in "QRBN":
                        out.append(("move", s, t, promo))
                else:
                    out.append(("move", s, t, None))
            continue
        dests = []
        if role == "N":
            dests = [(s[0] + df, s[1] + dr) for df, dr in KNIGHT]
        elif role == "K":
            dests = [(s[0] + df, s[1] + dr) for df, dr in AROUND]
        else:
            dirs = (ROOK_DIRS if role in "RQ" else []) + (BISHOP_DIRS if role in "BQ" else [])
            for df, dr in dirs:
                t = (s[0] + df, s[1] + dr)
                while inside(t):
                    dests.append(t)
                    if t in st.board:
                        break
                    t = (t[0] + df, t[1] + dr)
        for t in dests:
            if not inside(t):
                continue
            if t not in st.board:
                out.append(("move", s, t, None))
            elif may_take(t) and not (role == "K" and rules.explode):
                # An atomic king never captures.
                out.append(("move", s, t, None))
    # Castling: king e-file to g/c, squares between king and rook empty; with check, the king may not
    # be in check nor cross or land on a square where it would be in check.
    rank = 0 if us == "w" else 7
    k = find_king(st, us)
    if k == (4, rank):
        for rook in ((7, rank), (0, rank)):
            if rook not in st.rights or st.board.get(rook) != (us, "R"):
                continue
            lo, hi = min(4, rook[0]), max(4, rook[0])
            if any((f, rank) in st.board for f in range(lo + 1, hi)):
                continue
            path = [4, 5, 6] if rook[0] == 7 else [4, 3, 2]
            safe = True
            if rules.check:
                for f in path:
                    trial = st.copy()
                    del trial.board[k]
                    trial.board[(f, rank)] = (us, "K")
                    if in_check(trial, us, rules):
                        safe = False
            if safe:
                out.append(("castle", k, rook, None))
    if rules.bombs and st.bombs[us] is not None:
        out.append(("boom", st.bombs[us], st.bombs[us], None))
    return out


def blow(st, centre, rules, everything):
    """Removes the piece on `centre` and its neighbours (pawns only if `everything` or the variant's
    blasts kill pawns); returns the squares emptied."""
    gone = set()
    if centre in st.board:
        del st.board[centre]
        gone.add(centre)
    for df, dr in AROUND:
        t = (centre[0] + df, centre[1] + dr)
        p = st.board.get(t)
        if p and (everything or p[1] != "P" or rules.blast_kills_pawns):
            del st.board[t]
            gone.add(t)
    return gone


def play(st, mv, rules):
    kind, s, t, promo = mv
    us = st.turn
    nx = st.copy()
    nx.ep = None
    emptied = {s, t}
    if kind == "move":
        piece = nx.board.pop(s)
        victim = nx.board.pop(t, None)
        nx.board[t] = (us, promo) if promo else piece
        if piece[1] == "P" and abs(t[1] - s[1]) == 2:
            nx.ep = (s[0], (s[1] + t[1]) // 2)
        if nx.bombs[us] == s:
            nx.bombs[us] = t
        if victim is not None and nx.bombs[enemy(us)] == t:
            nx.bombs[enemy(us)] = None
        if piece[1] == "K":
            nx.rights = {r for r in nx.rights if r[1] != s[1]}
        if victim is not None and rules.explode and (piece[1] != "P" or rules.pawn_sets_off):
            emptied |= blow(nx, t, rules, False)
    elif kind == "ep":
        piece = nx.board.pop(s)
        taken = (t[0], s[1])
        del nx.board[taken]
        nx.board[t] = piece
        if nx.bombs[us] == s:
            nx.bombs[us] = t
        if nx.bombs[enemy(us)] == taken:
            nx.bombs[enemy(us)] = None
        if rules.explode and rules.pawn_sets_off:
            emptied |= blow(nx, t, rules, False)
    elif kind == "castle":
        rank = s[1]
        king = nx.board.pop(s)
        rook = nx.board.pop(t)
        kf, rf = (6, 5) if t[0] == 7 else (2, 3)
        nx.board[(kf, rank)] = king
        nx.board[(rf, rank)] = rook
        if nx.bombs[us] == t:
            nx.bombs[us] = (rf, rank)
        nx.rights = {r for r in nx.rights if r[1] != rank}
    else:  # boom: the bomb and everything around it, both colours, no chain reaction
        emptied |= blow(nx, s, rules, True)
        for c in "wb":
            if nx.bombs[c] in emptied:
                nx.bombs[c] = None
    nx.rights -= emptied
    nx.turn = enemy(us)
    return nx


def game_over(st, rules):
    kw, kb = find_king(st, "w"), find_king(st, "b")
    if kw is not None and kb is not None:
        return False
    if rules.deathmatch and kw is None and kb is None:
        sides = {p[0] for p in st.board.values()}
        return len(sides) < 2
    return True


def allowed(before, mv, after, rules):
    us = before.turn
    mine_before = find_king(before, us)
    mine, theirs = find_king(after, us), find_king(after, enemy(us))
    if mv[0] == "boom":
        checked = in_check(before, us, rules)
        if mine is None:
            return not checked  # a losing (or drawing) blast, never an answer to check
        if theirs is None:
            return not checked or not attacks(after, mine, enemy(us))
        return not attacks(after, mine, enemy(us))
    if mine_before is None:
        return True  # a death match without kings: nothing royal to protect
    if mine is None:
        return rules.deathmatch and theirs is None
    if theirs is None:
        return True
    return not in_check(after, us, rules)


def children(st, rules):
    if game_over(st, rules):
        return []
    out = []
    for mv in candidate_moves(st, rules):
        nx = play(st, mv, rules)
        if allowed(st, mv, nx, rules):
            out.append(nx)
    return out


def perft(st, depth, rules):
    if depth == 0:
        return 1
    kids = children(st, rules)
    if depth == 1:
        return len(kids)
    return sum(perft(k, depth - 1, rules) for k in kids)


def main():
    if sys.argv[1] == "--fen":
        rules = Rules(sys.argv[2])
        bombs = tuple(sys.argv[5:7]) if len(sys.argv) > 6 else ("-", "-")
        print(perft(read_fen(sys.argv[3], bombs), int(sys.argv[4]), rules))
        return
    max_depth = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    checked = bad = 0
    for block in open(sys.argv[1]).read().split("\n\n"):
        fields = {}
        counts = []
        for line in block.strip().splitlines():
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "perft":
                d, n = value.split()
                counts.append((int(d), int(n)))
            else:
                fields[key] = value
        if "id" not in fields:
            continue
        rules = Rules(fields["variant"])
        bombs = tuple(fields.get("bombs", "- -").split())
        st = read_fen(fields["fen"], bombs)
        for d, want in counts:
            if d > max_depth:
                continue
            got = perft(st, d, rules)
            checked += 1
            if got != want:
                bad += 1
                print(f"MISMATCH {fields['id']} depth {d}: file {want}, naive {got}")
    print(f"{checked} perft values checked, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

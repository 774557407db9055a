//! One test (or a few) per Capatomic ruling C1–C16 (`docs/rules/capatomic.md`, `shared/rules/capatomic.md`).
//!
//! Every position is built by hand and every expected move list or outcome was worked out from the
//! rulings on paper, not read back from the engine. Move lists are compared as sorted coordinate strings
//! (`notation::uci::write`).

use capabot::notation::{self, fen, san, uci};
use capabot::rules::setups;
use capabot::rules::variant::CAPATOMIC;
use capabot::rules::{Color, DrawReason, Game, Move, MoveKind, Outcome, Piece, Position, Role, Square, WinReason};

// ----- helpers -----

/// Builds a Capatomic FEN from `"Ka1 Me5 kj10"` (upper case White, lower case Black), the irradiated
/// squares `"e5 d4"` and the fields after the board (`"w - - 0 1 - +"`).
fn fen_of(pieces: &str, radiation: &str, tail: &str) -> String {
    let mut board = [['.'; 10]; 10];
    for tok in pieces.split_whitespace() {
        let mut chars = tok.chars();
        let letter = chars.next().unwrap();
        let sq = Square::parse(chars.as_str()).unwrap_or_else(|| panic!("bad square in {tok}"));
        assert_eq!(board[sq.rank() as usize][sq.file() as usize], '.', "{tok} twice");
        board[sq.rank() as usize][sq.file() as usize] = letter;
    }
    for tok in radiation.split_whitespace() {
        let sq = Square::parse(tok).unwrap();
        board[sq.rank() as usize][sq.file() as usize] = '*';
    }
    let mut ranks = Vec::new();
    for rank in (0..10).rev() {
        let mut s = String::new();
        let mut empty = 0;
        for &c in &board[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push(c);
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        ranks.push(s);
    }
    format!("{} {}", ranks.join("/"), tail)
}

fn pos(pieces: &str, radiation: &str, tail: &str) -> Position {
    let f = fen_of(pieces, radiation, tail);
    fen::parse_position(&CAPATOMIC, &f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn strs(list: &str) -> Vec<String> {
    sorted(list.split_whitespace().map(str::to_string).collect())
}

/// All legal moves, as sorted coordinate strings.
fn all_moves(p: &Position) -> Vec<String> {
    sorted(p.legal_moves().iter().map(|&m| uci::write(p, m)).collect())
}

/// Legal moves (launches included) of the piece on `from`.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    sorted(p.legal_moves().iter().filter(|m| m.from == from).map(|&m| uci::write(p, m)).collect())
}

/// Legal launches of the missile on `from`: the target squares only.
fn launch_targets(p: &Position, from: &str) -> Vec<String> {
    let from = sq(from);
    sorted(p.legal_moves().iter().filter(|m| m.from == from && m.is_launch()).map(|m| m.to.to_string()).collect())
}

fn castles(p: &Position) -> Vec<String> {
    sorted(p.legal_moves().iter().filter(|m| m.is_castle()).map(|&m| uci::write(p, m)).collect())
}

/// Every square of the board except the listed ones, sorted as strings.
fn all_squares_except(except: &str) -> Vec<String> {
    let ex: Vec<Square> = except.split_whitespace().map(sq).collect();
    let mut v = Vec::new();
    for rank in 0..10 {
        for file in 0..10 {
            let s = Square::new(file, rank);
            if !ex.contains(&s) {
                v.push(s.to_string());
            }
        }
    }
    sorted(v)
}

fn play(p: &Position, text: &str) -> Position {
    let m = notation::parse_move(p, text).unwrap_or_else(|e| panic!("{text} in {}: {e}", fen::write(p)));
    p.play(m)
}

// ----- C1 board -----

#[test]
fn c01_board_is_ten_by_ten_with_missiles_behind_pieces_and_pawns() {
    let v = &CAPATOMIC;
    assert_eq!((v.width, v.height), (10, 10));
    assert_eq!(v.name, "capatomic");
    assert_eq!(v.display_name, "Capatomic Random Chess");
    assert!(sq("a1").is_dark());
    assert!(!sq("b1").is_dark());
    assert!(!sq("j1").is_dark());
    assert!(!sq("a10").is_dark());
    assert_eq!(Square::parse("a11"), None);
    assert_eq!(Square::parse("k1"), None);
    let p = Position::start(&CAPATOMIC);
    for file in 0..10u8 {
        assert_eq!(p.piece_at(Square::new(file, 2)), Some(Piece::new(Color::White, Role::Pawn)));
        assert_eq!(p.piece_at(Square::new(file, 7)), Some(Piece::new(Color::Black, Role::Pawn)));
        let w = p.piece_at(Square::new(file, 1)).unwrap();
        let b = p.piece_at(Square::new(file, 8)).unwrap();
        assert_eq!((w.color, b.color, w.role), (Color::White, Color::Black, b.role));
    }
    // Missiles on rank 1 / rank 10 only, diagonally behind the kings (f2, f9).
    let wm: Vec<String> = p.pieces(Color::White, Role::Missile).map(|s| s.to_string()).collect();
    let bm: Vec<String> = p.pieces(Color::Black, Role::Missile).map(|s| s.to_string()).collect();
    assert_eq!(wm, ["e1", "g1"]);
    assert_eq!(bm, ["e10", "g10"]);
    assert_eq!(p.king(Color::White), Some(sq("f2")));
    assert_eq!(p.king(Color::Black), Some(sq("f9")));
}

// ----- C2 setups -----

#[test]
fn c02_exactly_21836_setups_all_valid_and_distinct() {
    assert_eq!(setups::count(&CAPATOMIC), 21_836);
    let mut seen = std::collections::HashSet::new();
    for i in 0..setups::count(&CAPATOMIC) {
        let p = setups::position(&CAPATOMIC, i).unwrap_or_else(|| panic!("setup {i}"));
        let rank2: Vec<Role> = (0..10).map(|f| p.piece_at(Square::new(f, 1)).unwrap().role).collect();
        let letters: String = rank2.iter().map(|r| r.upper_char()).collect();
        assert!(seen.insert(letters.clone()), "setup {i} repeats {letters}");
        let files = |role: Role| -> Vec<u8> { (0..10u8).filter(|&f| rank2[f as usize] == role).collect() };
        let mut count = letters.chars().collect::<Vec<_>>();
        count.sort();
        assert_eq!(count.iter().collect::<String>(), "ABBCKNNQRR", "{letters}");
        let dark = |f: u8| Square::new(f, 1).is_dark();
        let b = files(Role::Bishop);
        assert_ne!(dark(b[0]), dark(b[1]), "{letters}: bishops on one colour");
        assert_ne!(dark(files(Role::Queen)[0]), dark(files(Role::Archbishop)[0]), "{letters}: Q and A");
        let k = files(Role::King)[0];
        let r = files(Role::Rook);
        assert!(r[0] < k && k < r[1], "{letters}: king not between rooks");
        // Every rank-3 pawn defended by a rank-2 piece.
        for f in 0..10u8 {
            let pawn = Square::new(f, 2);
            let defended = (0..10u8).any(|g| {
                let from = Square::new(g, 1);
                p.attacks_from(from, p.piece_at(from).unwrap()).contains(pawn)
            });
            assert!(defended, "{letters}: pawn {pawn} undefended");
        }
        // Missiles diagonally behind the king, Black mirrors White, nothing else on ranks 1/10.
        let missiles: Vec<Square> = p.pieces(Color::White, Role::Missile).collect();
        assert_eq!(missiles, [Square::new(k - 1, 0), Square::new(k + 1, 0)], "{letters}");
        for f in 0..10u8 {
            let w = p.piece_at(Square::new(f, 1)).unwrap();
            let bl = p.piece_at(Square::new(f, 8)).unwrap();
            assert_eq!((bl.color, bl.role), (Color::Black, w.role));
        }
        assert_eq!(p.occupied().count(), 44);
        assert_eq!(p.missile_rights().count(), 4);
        assert!(!p.armed());
    }
    // The default start position is one of them, and Capablanca's own array is not (i-pawn undefended).
    let start = fen::write(&Position::start(&CAPATOMIC));
    let i = (0..setups::count(&CAPATOMIC))
        .find(|&i| fen::write(&setups::position(&CAPATOMIC, i).unwrap()) == start)
        .expect("start position is a numbered setup");
    assert!(i < 21_836);
    assert!(!seen.contains("RNABQKBCNR"));
    assert!(seen.contains("RNBQCKABNR"));
    assert!(setups::position(&CAPATOMIC, 21_836).is_none());
}

// ----- C3 pieces -----

#[test]
fn c03_missile_steps_one_square_and_captures() {
    // Missile e5 with an own pawn on f4 and a black knight on d6 to take.
    let p = pos("Ka1 Me5 Pf4 kj10 nd6", "", "w - - 0 1");
    assert_eq!(moves_from(&p, "e5"), strs("e5d4 e5d5 e5d6 e5e4 e5e6 e5f5 e5f6"));
    assert_eq!(all_moves(&p), strs("a1a2 a1b1 a1b2 e5d4 e5d5 e5d6 e5e4 e5e6 e5f5 e5f6 f4f5"));
    // A missile attacks its neighbours, so next to the black king it gives check.
    let p = pos("Ka1 Me8 kf9", "", "b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(sq("e8")));
}

#[test]
fn c03_archbishop_and_chancellor() {
    let p = pos("Ka1 Ae5 kj2", "", "w - - 0 1");
    let want = "f6 g7 h8 i9 j10 d6 c7 b8 a9 f4 g3 h2 i1 d4 c3 b2 c4 c6 d3 d7 f3 f7 g4 g6";
    let want: Vec<String> = want.split_whitespace().map(|t| format!("e5{t}")).collect();
    assert_eq!(moves_from(&p, "e5"), sorted(want));
    let p = pos("Ka1 Ce5 kj2", "", "w - - 0 1");
    let want = "e6 e7 e8 e9 e10 e4 e3 e2 e1 d5 c5 b5 a5 f5 g5 h5 i5 j5 c4 c6 d3 d7 f3 f7 g4 g6";
    let want: Vec<String> = want.split_whitespace().map(|t| format!("e5{t}")).collect();
    assert_eq!(moves_from(&p, "e5"), sorted(want));
}

// ----- C4 pawns -----

#[test]
fn c04_pawn_steps_and_promotion_on_rank_9_to_all_seven_pieces() {
    let p = pos("Ka1 Pc3 Pf4 Pd8 kj1 re9", "", "w - - 0 1");
    let promos: Vec<String> =
        "q r b n a c m".split_whitespace().flat_map(|r| [format!("d8d9{r}"), format!("d8e9{r}")]).collect();
    let mut want = strs("a1a2 a1b1 a1b2 c3c4 c3c5 f4f5");
    want.extend(promos);
    assert_eq!(all_moves(&p), sorted(want));
    // SAN and the promoted missile.
    let m = notation::parse_move(&p, "d9=M").unwrap();
    assert_eq!(m.kind, MoveKind::Promotion(Role::Missile));
    let after = p.play(m);
    assert_eq!(after.piece_at(sq("d9")), Some(Piece::new(Color::White, Role::Missile)));
    assert_eq!(san::write(&p, Move::promotion(sq("d8"), sq("e9"), Role::Chancellor)), "dxe9=C");
    for typed in ["d9=C", "d9c", "d8d9c", "d8d9C"] {
        assert_eq!(notation::parse_move(&p, typed).unwrap().kind, MoveKind::Promotion(Role::Chancellor), "{typed}");
    }
    let e = notation::parse_move(&p, "d9").unwrap_err().to_string();
    assert!(e.contains("=M"), "{e}");
    // Black promotes on rank 2.
    let p = pos("Ka10 kj10 pc3", "", "b - - 0 1");
    assert_eq!(moves_from(&p, "c3"), strs("c3c2q c3c2r c3c2b c3c2n c3c2a c3c2c c3c2m"));
}

#[test]
fn c04_en_passant() {
    // White e3-e5 beside a black pawn on d5: d5xe4 en passant, written in the FEN.
    let p = pos("Ka1 Pe3 kj10 pd5", "", "w - - 0 1");
    let after = play(&p, "e3e5");
    assert!(fen::write(&after).contains(" b - e4 0 1"), "{}", fen::write(&after));
    assert_eq!(moves_from(&after, "d5"), strs("d5d4 d5e4"));
    let ep = after.legal_moves().into_iter().find(|m| m.from == sq("d5") && m.to == sq("e4")).unwrap();
    assert_eq!(ep.kind, MoveKind::EnPassant);
    let done = after.play(ep);
    assert_eq!(done.piece_at(sq("e5")), None);
    assert_eq!(done.piece_at(sq("e4")), Some(Piece::new(Color::Black, Role::Pawn)));
}

#[test]
fn c04_c16_en_passant_square_kept_only_while_the_capture_is_legal() {
    // e3-e5 beside the d5 pawn, but that pawn is pinned on the d-file (rook d1, king d10): no en passant,
    // so no square in the FEN and none in the position.
    let p = pos("Kj1 Rd1 Pe3 kd10 pd5", "", "w - - 0 1");
    let after = play(&p, "e3e5");
    assert!(fen::write(&after).contains(" b - - 0 1"), "{}", fen::write(&after));
    assert_eq!(after.ep_square(), None);
    // The same position read from a FEN with or without the (accepted) square is one position, with one
    // hash, so repetition counting and the hash table treat them alike.
    let with_square = fen::parse_position(&CAPATOMIC, &fen::write(&after).replace(" b - - ", " b - e4 ")).unwrap();
    assert_eq!(with_square.hash(), after.hash());
    assert!(with_square == after);
    assert_eq!(after.hash(), after.recomputed_hash());
}

// ----- C5 irradiated squares -----

#[test]
fn c05_rook_stopped_by_radiation() {
    let p = pos("Ka1 Rc5 kj10", "c7 e5", "w - - 0 1");
    assert_eq!(moves_from(&p, "c5"), strs("c5c6 c5c4 c5c3 c5c2 c5c1 c5b5 c5a5 c5d5"));
    // Bishop and queen alike.
    let p = pos("Ka1 Qe5 kj10", "f6 d4 c7", "w - - 0 1");
    let want = "e6 e7 e8 e9 e10 e4 e3 e2 e1 d5 c5 b5 a5 f5 g5 h5 i5 j5 d6 f4 g3 h2 i1";
    let want: Vec<String> = want.split_whitespace().map(|t| format!("e5{t}")).collect();
    assert_eq!(moves_from(&p, "e5"), sorted(want));
}

#[test]
fn c05_knight_over_radiation_but_not_onto_it() {
    // Knight boxed in by radiation on all four sides; one landing square (f7) irradiated.
    let p = pos("Ka1 Ne5 kj10", "d5 e6 f5 e4 f7", "w - - 0 1");
    assert_eq!(moves_from(&p, "e5"), strs("e5c4 e5c6 e5d3 e5d7 e5f3 e5g4 e5g6"));
}

#[test]
fn c05_pawn_double_step_cannot_cross_radiation() {
    let p = pos("Ka1 Pd3 Pe3 Pf3 kj10 pg8 ph8", "d4 e5 g6", "w - - 0 1");
    assert_eq!(moves_from(&p, "d3"), Vec::<String>::new());
    assert_eq!(moves_from(&p, "e3"), strs("e3e4"));
    assert_eq!(moves_from(&p, "f3"), strs("f3f4 f3f5"));
    let p = pos("Ka1 Pd3 Pe3 Pf3 kj10 pg8 ph8", "d4 e5 g6", "b - - 0 1");
    assert_eq!(moves_from(&p, "g8"), strs("g8g7"));
    assert_eq!(moves_from(&p, "h8"), strs("h8h7 h8h6"));
}

#[test]
fn c05_king_and_missile_cannot_step_onto_radiation() {
    let p = pos("Ka1 Mf5 kj10", "a2 e5 e6 f6 g4", "w - - 0 1");
    assert_eq!(moves_from(&p, "a1"), strs("a1b1 a1b2"));
    assert_eq!(moves_from(&p, "f5"), strs("f5e4 f5f4 f5g5 f5g6"));
}

// ----- C6 attacks -----

#[test]
fn c06_check_not_through_radiation_but_through_a_knight_leap_over_it() {
    // The rook's file is cut by radiation on e5: no check, and e1/e3 are safe for the king.
    let p = pos("Ke2 re9 kj10", "e5", "w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(moves_from(&p, "e2"), strs("e2d1 e2d2 e2d3 e2e1 e2e3 e2f1 e2f2 e2f3"));
    // A knight leaping over irradiated e3 and f3 does give check.
    let p = pos("Ke2 re9 nf4 kj10", "e5 e3 f3", "w - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers().first(), Some(sq("f4")));
    assert_eq!(p.checkers().count(), 1);
    // d3 is covered by the knight, e3/f3 irradiated; e1 is safe since the rook stops at e6.
    assert_eq!(all_moves(&p), strs("e2d1 e2d2 e2e1 e2f1 e2f2"));
}

#[test]
fn c06_pinned_piece_still_attacks() {
    // The black knight on e8 is pinned by the rook on e2, but still covers d6.
    let p = pos("Kc5 Re2 ke10 ne8", "", "w - - 0 1");
    assert_eq!(moves_from(&p, "c5"), strs("c5b4 c5b5 c5b6 c5c4 c5c6 c5d4 c5d5"));
    assert!(p.is_attacked(sq("d6"), Color::Black));
    // ...and so stops a missile on d6 from launching (C8.2).
    let p = pos("Kc5 Re2 Md6 Mj5 ke10 ne8", "", "w - - 0 1 - +");
    assert_eq!(launch_targets(&p, "d6"), Vec::<String>::new());
    assert_eq!(launch_targets(&p, "j5").len(), 100 - 9 - 6);
}

#[test]
fn c06_missile_attacks_neighbours_but_launches_are_not_attacks() {
    // The black missile on d4 attacks c3..e5; it could launch at e2's neighbourhood, which does not count.
    let p = pos("Ke2 kj10 md4", "", "w - - 0 1 - +");
    assert!(!p.is_check());
    assert_eq!(moves_from(&p, "e2"), strs("e2d1 e2d2 e2e1 e2f1 e2f2 e2f3"));
    let p = pos("Ke2 kj10 mj4", "", "w - - 0 1 - +");
    assert_eq!(moves_from(&p, "e2"), strs("e2d1 e2d2 e2d3 e2e1 e2e3 e2f1 e2f2 e2f3"));
}

// ----- C7 shields -----

#[test]
fn c07_target_in_either_kings_shield_refused() {
    let p = pos("Kc3 Me5 kh8", "", "w - - 0 1 - +");
    let shields = "b2 b3 b4 c2 c3 c4 d2 d3 d4 g7 g8 g9 h7 h8 h9 i7 i8 i9";
    assert_eq!(launch_targets(&p, "e5"), all_squares_except(shields));
    assert_eq!(p.shields().count(), 18);
    for t in shields.split_whitespace() {
        let e = notation::parse_move(&p, &format!("Me5^{t}")).unwrap_err().to_string();
        assert!(e.contains("shielded"), "{t}: {e}");
    }
    // Shields are clipped at the edge: a king in the corner shields four squares.
    let p = pos("Ka1 Me5 kj10", "", "w - - 0 1 - +");
    assert_eq!(p.shields().count(), 8);
    assert_eq!(launch_targets(&p, "e5"), all_squares_except("a1 a2 b1 b2 i9 i10 j9 j10"));
}

#[test]
fn c07_c09_explosion_spares_shielded_squares() {
    // Blast around f5: e4 and e5 lie in the white king's (d4) shield and survive; f5, f6, g4, g6 go.
    let p = pos("Kd4 Pe4 Ma9 Rh5 Bg4 kj10 ne5 qf5 rf6 pg6", "", "w - - 7 30 - +");
    assert!(!p.is_check());
    let after = play(&p, "Ma9^f5");
    assert_eq!(fen::write(&after), "9k/10/10/10/10/4n*1R2/3KP5/10/10/10 b - - 0 30 - +");
    assert_eq!(after.hash(), after.recomputed_hash());
}

// ----- C8 launch conditions -----

#[test]
fn c08_launch_forbidden_before_any_non_pawn_capture_allowed_after() {
    let p = pos("Ka1 Mj1 Pd4 Rb5 kj10 pe5 nb8", "", "w - - 0 1");
    assert!(!p.armed());
    assert_eq!(launch_targets(&p, "j1"), Vec::<String>::new());
    let e = notation::parse_move(&p, "Mj1^e5").unwrap_err().to_string();
    assert!(e.contains("no piece other than a pawn has been captured yet"), "{e}");
    // A pawn capture does not arm.
    let p = play(&p, "dxe5");
    assert!(!p.armed());
    let p = play(&p, "Ki10");
    assert!(launch_targets(&p, "j1").is_empty());
    // Capturing the knight arms the game (FEN field flips to +).
    let p = play(&p, "Rxb8");
    assert!(p.armed());
    assert!(fen::write(&p).ends_with(" - +"), "{}", fen::write(&p));
    let p = play(&p, "Kj10");
    assert_eq!(launch_targets(&p, "j1"), all_squares_except("a1 a2 b1 b2 i9 i10 j9 j10"));
    // Black capturing a white piece arms the game for both sides too.
    let p = pos("Ka1 Mj1 Nc5 kj10 pd6", "", "b - - 0 1");
    let p = play(&p, "dxc5");
    assert!(p.armed());
    assert_eq!(launch_targets(&p, "j1").len(), 92);
}

#[test]
fn c08_launch_forbidden_while_missile_attacked() {
    // d5 is attacked by the bishop on g8; h2 is not.
    let p = pos("Ka1 Md5 Mh2 kj10 bg8", "", "w - - 0 1 - +");
    assert_eq!(launch_targets(&p, "d5"), Vec::<String>::new());
    assert_eq!(launch_targets(&p, "h2"), all_squares_except("a1 a2 b1 b2 i9 i10 j9 j10"));
    let e = notation::parse_move(&p, "Md5^d6").unwrap_err().to_string();
    assert!(e.contains("attacked"), "{e}");
    // An attack blocked by radiation does not count (C6).
    let p = pos("Ka1 Md5 kj10 rd9", "d7", "w - - 0 1 - +");
    assert_eq!(launch_targets(&p, "d5"), all_squares_except("a1 a2 b1 b2 i9 i10 j9 j10"));
    let p = pos("Ka1 Md5 kj10 rd9", "", "w - - 0 1 - +");
    assert!(launch_targets(&p, "d5").is_empty());
}

#[test]
fn c08_launch_at_own_square_and_irradiated_square() {
    let p = pos("Ka1 Me5 kj10", "c7", "w - - 0 1 - +");
    let after = play(&p, "e5^e5");
    assert_eq!(fen::write(&after), "9k/10/10/2*7/10/4*5/10/10/10/K9 b - - 0 1 - +");
    let after = play(&p, "Me5^c7");
    assert_eq!(fen::write(&after), "9k/10/10/2*7/10/10/10/10/10/K9 b - - 0 1 - +");
    assert_eq!(after.irradiated().count(), 1);
    assert_eq!(after.hash(), after.recomputed_hash());
}

#[test]
fn c08_launch_that_would_expose_own_king_refused() {
    // The knight on a3 shields the king from the rook on a9. Blasts at b3 or b4 remove it without
    // irradiating the a-file, so they are refused; a3 and a4 irradiate the file and are fine.
    let p = pos("Ka1 Na3 Mh5 kj10 ra9", "", "w - - 0 1 - +");
    assert_eq!(launch_targets(&p, "h5"), all_squares_except("a1 a2 b1 b2 i9 i10 j9 j10 b3 b4"));
    let e = notation::parse_move(&p, "Mh5^b4").unwrap_err().to_string();
    assert!(e.contains("check"), "{e}");
}

// ----- C9 effect -----

#[test]
fn c09_castling_rights_of_removed_rooks_and_missiles_end() {
    let p = pos("Kc1 Md5 Me5 kf9 ra9 rj9 me10 mg10 ph8 pb8", "", "w aj - 0 20 e10,g10 +");
    // Blast at i9 takes the rook j9 and the pawn h8.
    let p = play(&p, "Md5^i9");
    assert_eq!(fen::write(&p), "4m1m3/r4k2*1/1p8/10/10/4M5/10/10/10/2K7 b a - 0 20 e10,g10 +");
    // Black may still castle queen side, with e10 alone or both missiles, but not g10 alone (C12).
    assert_eq!(castles(&p), strs("f9a9 f9a9[e10] f9a9[e10,g10]"));
    let p = play(&p, "b7");
    let p = play(&p, "Me5^b9");
    // Rook a9 gone: no castling is left, so the missile rights end too.
    assert_eq!(fen::write(&p), "4m1m3/1*3k2*1/10/1p8/10/10/10/10/10/2K7 b - - 0 21 - +");
    assert_eq!(p.hash(), p.recomputed_hash());
}

// ----- C10 launches and check -----

#[test]
fn c10_launch_answers_check_by_irradiating_the_line_or_removing_the_checker() {
    // Rook e9 checks the king on e2. e3 is in the king's own shield, so e4..e8 block; e9's
    // neighbourhood removes the rook.
    let p = pos("Ke2 Mj5 ka10 re9", "", "w - - 0 1 - +");
    assert!(p.is_check());
    assert_eq!(launch_targets(&p, "j5"), strs("d8 d9 d10 e4 e5 e6 e7 e8 e9 e10 f8 f9 f10"));
    let after = play(&p, "Mj5^e6");
    assert!(!after.is_check());
    assert_eq!(fen::write(&after), "k9/4r5/10/10/4*5/10/10/10/4K5/10 b - - 0 1 - +");
}

#[test]
fn c10_launch_blocks_what_would_be_mate() {
    // King a1 with a2 and b2 irradiated, checked by the rook on j1: only launches help.
    let p = pos("Ka1 Me5 kj10 rj1", "a2 b2", "w - - 0 1 - +");
    assert!(p.is_check());
    let want: Vec<String> = "c1 d1 e1 f1 g1 h1 i1 j1 i2 j2".split_whitespace().map(|t| format!("e5^{t}")).collect();
    assert_eq!(all_moves(&p), sorted(want));
    assert_eq!(p.outcome(), None);
    // The same position before anything was captured is mate.
    let p = pos("Ka1 Me5 kj10 rj1", "a2 b2", "w - - 0 1 - -");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate }));
}

#[test]
fn c10_launch_gives_check_by_clearing_a_line() {
    // The pawn e8 blocks the rook e1; a blast at d8 removes it (e9/e10 are shielded, e8 is not).
    let p = pos("Ka1 Re1 Mj5 ke10 pe8", "", "w - - 0 1 - +");
    let m = notation::parse_move(&p, "Mj5^d8").unwrap();
    assert_eq!(san::write(&p, m), "Mj5^d8+");
    assert!(p.play(m).is_check());
}

// ----- C11 / C12 castling -----

const CASTLE_BASE: &str = "Kf2 Ra2 Rj2 Me1 Mg1 kf9";

#[test]
fn c11_c12_castling_with_zero_one_and_two_missiles() {
    let p = pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p), strs("f2a2 f2a2[e1] f2a2[e1,g1] f2j2 f2j2[g1] f2j2[e1,g1]"));
    // Missile squares need not be unattacked: a black bishop on a3 eyes b2 and c1.
    let p2 = pos(&format!("{CASTLE_BASE} ba3"), "", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p2), castles(&p));
    // The effect: O-O with both missiles puts K i2, R h2, M h1 and j1.
    let after = play(&p, "O-O[e1,g1]");
    assert_eq!(fen::write(&after), "10/5k4/10/10/10/10/10/10/R6RK1/7M1M b - - 1 1 - -");
    let after = play(&p, "O-O-O[e1]");
    assert_eq!(fen::write(&after), "10/5k4/10/10/10/10/10/10/2KR5R/1M4M3 b - - 1 1 - -");
    let after = play(&p, "O-O");
    assert_eq!(fen::write(&after), "10/5k4/10/10/10/10/10/10/R6RK1/4M1M3 b - - 1 1 - -");
}

#[test]
fn c12_blocked_missile_path_removes_only_that_option() {
    // A knight on c1 blocks e1's way to b1: only the O-O-O options with e1 go.
    let p = pos(&format!("{CASTLE_BASE} Nc1"), "", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p), strs("f2a2 f2j2 f2j2[g1] f2j2[e1,g1]"));
    // Radiation on j1 blocks g1's way to j1: only the O-O options with g1 go.
    let p = pos(CASTLE_BASE, "j1", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p), strs("f2a2 f2a2[e1] f2a2[e1,g1] f2j2"));
}

#[test]
fn c12_missile_option_gone_after_that_missile_moved_and_came_back() {
    let p = pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 -");
    let p = play(&p, "Me1d1");
    let p = play(&p, "Kf10");
    let p = play(&p, "Md1e1");
    let p = play(&p, "Kf9");
    assert_eq!(fen::write(&p), "10/5k4/10/10/10/10/10/10/R4K3R/4M1M3 w AJ - 4 3 g1 -");
    assert_eq!(castles(&p), strs("f2a2 f2j2 f2j2[g1]"));
}

#[test]
fn c12_no_missile_option_when_the_king_does_not_change_file() {
    // King already on i2: O-O only moves the rook, and the missiles stay.
    let p = pos("Ki2 Rj2 Ra2 Mh1 Mj1 kf9", "", "w AJ - 0 1 h1,j1 -");
    assert_eq!(castles(&p), strs("i2a2 i2a2[h1] i2a2[h1,j1] i2j2"));
    let after = play(&p, "O-O");
    assert_eq!(fen::write(&after), "10/5k4/10/10/10/10/10/10/R6RK1/7M1M b - - 1 1 - -");
    // King on h2: O-O puts the rook where the king stood; both missiles may come (offset 1).
    let p = pos("Kh2 Rj2 Mg1 Mi1 kf9", "", "w J - 0 1 g1,i1 -");
    assert_eq!(castles(&p), strs("h2j2 h2j2[g1] h2j2[i1] h2j2[g1,i1]"));
    // h2i2 is the ordinary king step, not castling (C16).
    assert!(!notation::parse_move(&p, "h2i2").unwrap().is_castle());
}

#[test]
fn c11_castling_conditions() {
    // In check: no castling.
    let p = pos(&format!("{CASTLE_BASE} rf7"), "", "w AJ - 0 1 e1,g1 -");
    assert!(p.is_check());
    assert!(castles(&p).is_empty());
    // A square the king crosses (h2) attacked: no O-O; O-O-O unaffected.
    let p = pos(&format!("{CASTLE_BASE} rh7"), "", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p), strs("f2a2 f2a2[e1] f2a2[e1,g1]"));
    // The attack on h2 blocked by radiation on h5: O-O allowed again.
    let p = pos(&format!("{CASTLE_BASE} rh7"), "h5", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p).len(), 6);
    // An irradiated square between king and rook (b2), or on the king's path (g2).
    let p = pos(CASTLE_BASE, "b2 g2", "w AJ - 0 1 e1,g1 -");
    assert!(castles(&p).is_empty());
    // O-O-O crosses d2: attacked by a rook on d7, so only O-O is left.
    let p = pos(&format!("{CASTLE_BASE} rd7"), "", "w AJ - 0 1 e1,g1 -");
    assert_eq!(castles(&p), strs("f2j2 f2j2[g1] f2j2[e1,g1]"));
    // King b2 to c2: the rook's destination d2 is attacked, but the king never crosses it.
    let p = pos("Kb2 Ra2 kf9 rd7", "", "w A - 0 1");
    assert_eq!(castles(&p), strs("b2a2"));
}

// ----- C13 -----

#[test]
fn c13_checkmate_wins_stalemate_draws() {
    let p = pos("Ka1 kc3 qb2", "", "w - - 0 1");
    assert_eq!(p.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::Checkmate }));
    // Stalemate by radiation around the king.
    let p = pos("Ka1 kj10 rj9", "a2 b1 b2", "w - - 0 1");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome(), Some(Outcome::Draw(DrawReason::Stalemate)));
}

// ----- C14 -----

#[test]
fn c14_fifty_move_counter_reset_by_launches_pawn_moves_and_captures() {
    let p = pos("Ka1 Me5 Mf5 Ng3 Pc3 kj10 nh5 pg6", "", "w - - 37 40 - +");
    assert_eq!(play(&p, "Me5^e8").halfmoves(), 0);
    assert_eq!(play(&p, "Me5e6").halfmoves(), 38);
    assert_eq!(play(&p, "Nxh5").halfmoves(), 0);
    assert_eq!(play(&p, "Mxg6").halfmoves(), 0);
    assert_eq!(play(&p, "c4").halfmoves(), 0);
    assert_eq!(play(&p, "Ne4").halfmoves(), 38);
    // Castling does not reset.
    let c = pos(CASTLE_BASE, "", "w AJ - 12 30 e1,g1 -");
    assert_eq!(play(&c, "O-O[g1]").halfmoves(), 13);
    // At 100 half-moves the game is drawn.
    let p = pos("Ka1 Nc3 kj10 nh5", "", "w - - 99 90 - +");
    let after = play(&p, "Ne4");
    assert_eq!(after.outcome(), Some(Outcome::Draw(DrawReason::FiftyMoves)));
}

#[test]
fn c14_threefold_repetition() {
    let start = pos("Ka1 Nc3 kj10 nh5", "", "w - - 0 1 - +");
    let mut g = Game::new(start.clone());
    for _ in 0..2 {
        for t in ["Nd5", "Ng7", "Nc3", "Nh5"] {
            let m = notation::parse_move(g.position(), t).unwrap();
            assert!(g.play(m));
        }
    }
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::Draw(DrawReason::Repetition)));
}

#[test]
fn c14_missile_rights_are_part_of_the_repetition_key() {
    // Missile e1 steps away and back: the board repeats, but its castling right is gone.
    let mut g = Game::new(pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 -"));
    for _ in 0..3 {
        for t in ["Me1d1", "Kf10", "Md1e1", "Kf9"] {
            let m = notation::parse_move(g.position(), t).unwrap();
            assert!(g.play(m));
        }
    }
    // Positions after moves 4, 8, 12 repeat; the start (with the e1 right) does not.
    assert_eq!(g.repetitions(), 3);
    assert_ne!(g.positions()[0].hash(), g.position().hash());
    let mut g2 = Game::new(pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 -"));
    for _ in 0..2 {
        for t in ["Me1d1", "Kf10", "Md1e1", "Kf9"] {
            assert!(g2.play(notation::parse_move(g2.position(), t).unwrap()));
        }
    }
    assert_eq!(g2.repetitions(), 2);
    assert_eq!(g2.outcome(), None);
}

#[test]
fn c14_repetition_that_differs_only_in_radiation_is_not_a_repetition() {
    let clean = pos("Ka1 Nc3 kj10 nh5", "", "w - - 0 1 - +");
    let hot = pos("Ka1 Nc3 kj10 nh5", "e5", "w - - 0 1 - +");
    assert_ne!(clean.hash(), hot.hash());
    assert_eq!(hot.hash(), hot.recomputed_hash());
    // The armed flag and missile rights are part of the key too.
    let unarmed = pos("Ka1 Nc3 kj10 nh5", "", "w - - 0 1 - -");
    assert_ne!(clean.hash(), unarmed.hash());
    // In a game the two can never be confused: shuffling in the hot position reaches threefold only
    // with its own positions.
    let mut g = Game::new(hot.clone());
    for t in ["Nd5", "Ng7", "Nc3", "Nh5", "Nd5", "Ng7", "Nc3", "Nh5"] {
        assert!(g.play(notation::parse_move(g.position(), t).unwrap()));
    }
    assert_eq!(g.repetitions(), 3);
    assert!(g.positions().iter().all(|p| p.hash() != clean.hash()));
}

// ----- C15 -----

#[test]
fn c15_dead_positions() {
    let dead = Some(Outcome::Draw(DrawReason::InsufficientMaterial));
    for (pieces, want) in [
        ("Ka1 kj10", dead),
        ("Ka1 Nc3 kj10", dead),
        ("Ka1 kj10 be6", dead),
        // Bishops on one colour (d2 and h6 are dark).
        ("Ka1 Bd2 kj10 bh6", dead),
        // Opposite colours (d2 dark, h7 light): not dead.
        ("Ka1 Bd2 kj10 bh7", None),
        ("Ka1 Mc3 kj10", None),
        ("Ka1 Pc3 kj10", None),
        ("Ka1 Nc3 Nd3 kj10", None),
        ("Ka1 Nc3 kj10 nh5", None),
        // Only the listed cases are dead: two bishops of one colour against a bare king are not in C15.
        ("Ka1 Bd2 Bf4 kj10", None),
    ] {
        let p = pos(pieces, "", "w - - 0 1");
        assert_eq!(p.outcome(), want, "{pieces}");
    }
}

// ----- C16 notation -----

#[test]
fn c16_san_and_coordinates_out() {
    let p = pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 +");
    let by_uci = |s: &str| p.legal_moves().into_iter().find(|&m| uci::write(&p, m) == s).unwrap();
    assert_eq!(san::write(&p, by_uci("f2j2[e1,g1]")), "O-O[e1,g1]");
    assert_eq!(san::write(&p, by_uci("f2j2")), "O-O");
    assert_eq!(san::write(&p, by_uci("f2a2[e1]")), "O-O-O[e1]");
    let launch = Move { from: sq("e1"), to: sq("e5"), kind: MoveKind::Launch };
    assert_eq!(uci::write(&p, launch), "e1^e5");
    assert_eq!(san::write(&p, launch), "Me1^e5");
    // Black's missiles in the brackets, and a ten-rank square.
    let b = pos("Kj1 kf9 ra9 me10 mg10", "", "b a - 0 1 e10,g10 -");
    let bm = b.legal_moves().into_iter().find(|m| m.is_castle() && m.kind == MoveKind::Castle { missiles: 3 });
    assert_eq!(uci::write(&b, bm.unwrap()), "f9a9[e10,g10]");
    assert_eq!(san::write(&b, bm.unwrap()), "O-O-O[e10,g10]");
}

#[test]
fn c16_lenient_input() {
    let p = pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 +");
    let u = |t: &str| uci::write(&p, notation::parse_move(&p, t).unwrap_or_else(|e| panic!("{t}: {e}")));
    for (typed, want) in [
        ("Me1^e5", "e1^e5"),
        ("e1^e5", "e1^e5"),
        ("launch e1 e5", "e1^e5"),
        ("M e1^e5", "e1^e5"),
        ("LAUNCH e1 e5", "e1^e5"),
        ("me1^e5", "e1^e5"),
        ("Me1^e5+", "e1^e5"),
        ("Me1^a10", "e1^a10"),
        ("launch e1 a10", "e1^a10"),
        ("O-O[e1,g1]", "f2j2[e1,g1]"),
        ("o-o [e1, g1]", "f2j2[e1,g1]"),
        ("0-0[g1,e1]", "f2j2[e1,g1]"),
        ("O-O", "f2j2"),
        ("O-O-O[e1]", "f2a2[e1]"),
        ("f2j2[e1,g1]", "f2j2[e1,g1]"),
        ("f2j2", "f2j2"),
        // King to destination, where no ordinary king move has that shape.
        ("f2i2[g1]", "f2j2[g1]"),
        ("f2c2", "f2a2"),
        ("f2i2", "f2j2"),
        // The missile by its file or rank where that names one (before: not a move at all).
        ("Me^e5", "e1^e5"),
        ("Mg^a10", "g1^a10"),
        ("mg^e5", "g1^e5"),
        ("launch g e5", "g1^e5"),
    ] {
        assert_eq!(u(typed), want, "{typed}");
    }
    // Two missiles may launch at e5: which one is asked, as for any ambiguous move.
    for typed in ["M^e5", "M1^e5", "^e5", "launch e5"] {
        match notation::parse_move(&p, typed) {
            Err(notation::MoveError::Ambiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["Me1^e5".to_string(), "Mg1^e5".to_string()], "{typed}")
            }
            other => panic!("{typed}: {other:?}"),
        }
    }
    // No missile on that file; a shielded target; before any capture (C8).
    let e = notation::parse_move(&p, "Mh^e5").unwrap_err().to_string();
    assert!(e.contains("missile") && e.contains("e5"), "{e}");
    let e = notation::parse_move(&p, "M^f3").unwrap_err().to_string();
    assert!(e.contains("shielded"), "{e}");
    let unarmed = pos(CASTLE_BASE, "", "w AJ - 0 1 e1,g1 -");
    let e = notation::parse_move(&unarmed, "M^e5").unwrap_err().to_string();
    assert!(e.contains("no piece other than a pawn has been captured yet"), "{e}");
    // Refusals with reasons.
    let e = notation::parse_move(&p, "O-O[e1]").unwrap_err().to_string();
    assert!(e.contains("the missile on e1 cannot come along"), "{e}");
    let e = notation::parse_move(&p, "Me1^f3").unwrap_err().to_string();
    assert!(e.contains("shielded"), "{e}");
    assert!(notation::parse_move(&p, "launch e1").is_err());
    assert!(notation::parse_move(&p, "Me1^k5").is_err());
}

#[test]
fn c16_fen_with_radiation_and_extra_fields() {
    let fen = "4m1m3/rnbqckabnr/ppp1pppppp/10/3*6/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 5 e1,g1,g10 +";
    let p = fen::parse_position(&CAPATOMIC, fen).unwrap();
    assert_eq!(fen::write(&p), fen);
    assert!(p.irradiated().contains(sq("d6")));
    assert!(p.armed());
    assert_eq!(p.missile_rights().count(), 3);
    // Omitted extra fields read as "- -".
    let short = "4m1m3/rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 1";
    let p = fen::parse_position(&CAPATOMIC, short).unwrap();
    assert_eq!(fen::write(&p), format!("{short} - -"));
    // The default start position.
    assert_eq!(
        fen::write(&Position::start(&CAPATOMIC)),
        "4m1m3/rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -"
    );
    // Bad extra fields are refused with a message.
    assert!(fen::parse_position(&CAPATOMIC, &format!("{short} e1,x9 -")).is_err());
    assert!(fen::parse_position(&CAPATOMIC, &format!("{short} - armed")).is_err());
    assert!(fen::parse_position(&CAPATOMIC, &format!("{short} f1 -")).is_err());
}

#[test]
fn c16_lower_case_file_and_x_is_a_pawn_capture() {
    // Both the c3 pawn and the chancellor on e2 can take on d4; SAN writes the pawn capture `cxd4`,
    // which must read back as the pawn, while `Cxd4` is the chancellor.
    let p = pos("Kf1 Pc3 Ce2 kj10 ad4", "", "w - - 0 1");
    let pawn = Move::normal(sq("c3"), sq("d4"));
    let chancellor = Move::normal(sq("e2"), sq("d4"));
    assert_eq!(san::write(&p, pawn), "cxd4");
    assert_eq!(san::write(&p, chancellor), "Cxd4");
    assert_eq!(notation::parse_move(&p, "cxd4").unwrap(), pawn);
    assert_eq!(notation::parse_move(&p, "Cxd4").unwrap(), chancellor);
    // The same for b (bishop) and a (archbishop) files.
    let p = pos("Kf1 Pb3 Be2 kj10 nc4", "", "w - - 0 1");
    assert_eq!(notation::parse_move(&p, "bxc4").unwrap(), Move::normal(sq("b3"), sq("c4")));
    assert_eq!(notation::parse_move(&p, "Bxc4").unwrap(), Move::normal(sq("e2"), sq("c4")));
}

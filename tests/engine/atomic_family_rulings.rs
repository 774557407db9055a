//! The atomic family's and secret-bomb chess's rulings that perft cannot see (docs/rules/atomic-family.md):
//! outcomes, notation, and the AI's blindness to the other side's bomb.

use capabot::ai::{Limits, best_move};
use capabot::notation::{fen, parse_move, pgn, san, uci};
use capabot::rules::variant::{ATOMIC, ATOMIC_DEATHMATCH, ATOMIC_NOCHECK, ATOMIC_PAWNSAFE, BOMB};
use capabot::rules::{Color, DrawReason, Move, Outcome, Position, Square, Variant, WinReason};

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn pos(v: &'static Variant, text: &str) -> Position {
    fen::parse_position(v, text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn bombed(text: &str, white: Option<&str>, black: Option<&str>) -> Position {
    pos(&BOMB, text).with_bombs([white.map(sq), black.map(sq)]).unwrap()
}

fn play(p: &Position, typed: &str) -> Position {
    let m = parse_move(p, typed).unwrap_or_else(|e| panic!("{typed}: {e}"));
    p.play(m)
}

#[test]
fn n_no_check_kings_walk_into_attack_and_may_be_taken() {
    let p = pos(&ATOMIC_NOCHECK, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    assert!(!p.is_check());
    // Kd1 walks next to the rook; in lichess atomic it may not.
    assert!(parse_move(&p, "Kd1").is_ok());
    assert!(parse_move(&pos(&ATOMIC, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1"), "Kd1").is_err());
    let after = play(&p, "Kf1");
    // The rook takes the king, which explodes: Black wins, and SAN shows no check sign anywhere.
    let taken = play(&play(&after, "Rd1"), "Kg2");
    assert_eq!(san::write(&taken, parse_move(&taken, "Rd2").unwrap()), "Rd2");
    let p = pos(&ATOMIC_NOCHECK, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    let m = parse_move(&p, "Rxe1").unwrap();
    assert_eq!(p.play(m).outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::KingExploded }));
}

#[test]
fn d_death_match_goes_on_without_kings_until_material_runs_out() {
    let p = pos(&ATOMIC_DEATHMATCH, "8/p7/8/4n3/3K1k2/8/P7/4R3 w - - 0 1");
    let kingless = play(&p, "Rxe5");
    assert!(kingless.king(Color::White).is_none() && kingless.king(Color::Black).is_none());
    assert_eq!(kingless.outcome(), None);
    assert!(!kingless.legal_moves().is_empty());
    // In lichess atomic the same capture is illegal.
    assert!(parse_move(&pos(&ATOMIC, "8/p7/8/4n3/3K1k2/8/P7/4R3 w - - 0 1"), "Rxe5").is_err());
    let last = play(&pos(&ATOMIC_DEATHMATCH, "8/8/8/4n3/8/8/8/R3R3 w - - 0 1"), "Rxe5");
    assert_eq!(last.outcome(), Some(Outcome::Decisive { winner: Color::White, reason: WinReason::NoMaterial }));
    assert!(last.legal_moves().is_empty());
    let empty = play(&pos(&ATOMIC_DEATHMATCH, "8/8/8/4n3/8/8/8/4R3 w - - 0 1"), "Rxe5");
    assert_eq!(empty.outcome(), Some(Outcome::Draw(DrawReason::InsufficientMaterial)));
    // Only the own king: still illegal.
    assert!(parse_move(&pos(&ATOMIC_DEATHMATCH, "8/8/8/4n3/3K4/8/7k/4R3 w - - 0 1"), "Rxe5").is_err());
}

#[test]
fn p_pawn_captures_do_not_explode_but_blasts_kill_pawns() {
    let p = pos(&ATOMIC_PAWNSAFE, "4k3/8/8/2nbr3/3P4/8/8/4K3 w - - 0 1");
    let after = play(&p, "dxe5");
    assert_eq!(fen::write(&after), "4k3/8/8/2nbP3/8/8/8/4K3 b - - 0 1");
    let p = pos(&ATOMIC_PAWNSAFE, "4k3/8/8/2ppp3/2pnp3/2ppp3/8/3QK3 w - - 0 1");
    let after = play(&p, "Qxd3");
    // The queen, the d3 pawn and all pawns around d3 are gone; the d4 knight too.
    assert_eq!(fen::write(&after), "4k3/8/8/2ppp3/8/8/8/4K3 b - - 0 1");
}

#[test]
fn b_detonation_outcomes_and_notation() {
    let p = bombed("8/8/8/8/8/2k5/3N4/6K1 w - - 0 1", Some("d2"), None);
    let m = parse_move(&p, "boom d2").unwrap();
    assert_eq!(m, Move::detonate(sq("d2")));
    assert_eq!(san::write(&p, m), "@d2");
    assert_eq!(uci::write(&p, m), "d2d2");
    for typed in ["@d2", "boom", "boom@d2", "d2d2", "BOOM D2"] {
        assert_eq!(parse_move(&p, typed).unwrap(), m, "{typed}");
    }
    assert_eq!(p.play(m).outcome(), Some(Outcome::Decisive { winner: Color::White, reason: WinReason::KingExploded }));
    let both = bombed("8/8/8/8/8/2k5/3N4/3K4 w - - 0 1", Some("d2"), None);
    let after = play(&both, "@d2");
    assert_eq!(after.outcome(), Some(Outcome::Draw(DrawReason::BothKingsExploded)));
    let own = bombed("8/8/8/8/8/8/3N4/3K2k1 w - - 0 1", Some("d2"), None);
    let after = play(&own, "@d2");
    assert_eq!(after.outcome(), Some(Outcome::Decisive { winner: Color::Black, reason: WinReason::KingExploded }));
    assert!(after.legal_moves().is_empty());
}

#[test]
fn b_refusals_do_not_tell_where_the_bomb_is() {
    let p = bombed("4k3/8/8/8/8/5N2/4q3/r3K3 w - - 0 1", Some("f3"), None);
    // In double check the detonation does not help: refused with the one message used for every reason.
    let wrong_square = parse_move(&p, "@c3").unwrap_err().to_string();
    let right_square = parse_move(&p, "@f3").unwrap_err().to_string();
    assert_eq!(wrong_square.replace("c3", "XX"), right_square.replace("f3", "XX"));
    // Hints for an illegal knight move never list the detonation.
    let e = parse_move(&p, "Nh8").unwrap_err().to_string();
    assert!(!e.contains('@') && !e.contains("f3f3"), "{e}");
    let e = parse_move(&p, "f3h8").unwrap_err().to_string();
    assert!(!e.contains('@'), "{e}");
}

#[test]
fn b_bombs_follow_their_pieces() {
    let p = bombed("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", Some("b7"), None);
    let q = play(&p, "b8=Q+");
    assert_eq!(q.bomb(Color::White), Some(sq("b8")));
    let p = bombed("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", Some("h1"), Some("a8"));
    let castled = play(&p, "O-O");
    assert_eq!(castled.bomb(Color::White), Some(sq("f1")));
    let castled = play(&castled, "O-O-O");
    assert_eq!(castled.bomb(Color::Black), Some(sq("d8")));
    let p = bombed("4k3/8/8/3n4/8/4B3/8/4K3 b - - 0 1", Some("e3"), Some("d5"));
    let taken = play(&p, "Nxe3");
    assert_eq!((taken.bomb(Color::White), taken.bomb(Color::Black)), (None, Some(sq("e3"))));
    // Not a bomb's own piece: refused.
    assert!(pos(&BOMB, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").with_bombs([Some(sq("e1")), None]).is_err());
    assert!(Position::start(&ATOMIC).with_bombs([Some(sq("b1")), None]).is_err());
}

#[test]
fn b_fen_and_unfinished_pgn_never_carry_a_bomb() {
    let p = bombed("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Some("b1"), Some("g8"));
    assert_eq!(fen::write(&p), BOMB.start_fen);
    let mut game = capabot::rules::Game::new(p);
    assert!(game.play(Move::normal(sq("e2"), sq("e4"))));
    let text = pgn::write(&game, &pgn::PgnHeaders::default(), None);
    assert!(!text.contains("b1") && !text.contains("g8"), "{text}");
}

#[test]
fn b_timeouts_and_dead_positions_reveal_nothing() {
    // King and knight against king: the knight may be a bomb, so it is not a dead position.
    let p = pos(&BOMB, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1");
    assert!(!p.is_insufficient_material() && !p.has_insufficient_material(Color::White));
    assert!(pos(&BOMB, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_insufficient_material());
}

#[test]
fn b_the_ai_never_reads_the_other_side_s_bomb() {
    // Black's rook on h2, guarded by the bishop, would take White's king if it were Black's bomb; the AI
    // plays as if Black had no bomb, so the secret changes nothing in its answer (same seed,
    // depth-limited: deterministic). Were the bomb read, White would see a lost position.
    let text = "3k4/8/8/4b3/8/8/7r/R5K1 w - - 0 1";
    let limits = Limits { depth: Some(4), movetime: None, nodes: None, ..Limits::for_level(8).with_seed(7) };
    let plain = best_move(&bombed(text, None, None), &limits);
    let secret = best_move(&bombed(text, None, Some("h2")), &limits);
    assert_eq!(secret.best, plain.best);
    assert_eq!(secret.score, plain.score);
    // Its own bomb it does use: a detonation that takes the enemy king.
    let own = bombed("8/8/8/8/8/2k5/3N4/6K1 w - - 0 1", Some("d2"), None);
    assert_eq!(best_move(&own, &limits).best, Some(Move::detonate(sq("d2"))));
}

//! The AI finds short mates in every variant (checked against an exhaustive solver), never returns an
//! illegal move, and speaks UCI.

use capabot::ai::{self, Limits, best_move, best_move_in_game};
use capabot::notation::{fen, uci};
use capabot::rules::{Color, Game, MoveKind, Outcome, Position, Variant, setups};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::io::Write;
use std::sync::{Arc, Mutex};

fn pos(variant: &str, text: &str) -> Position {
    let v = Variant::by_name(variant).expect("variant");
    fen::parse_position(v, text).unwrap_or_else(|e| panic!("{variant} {text}: {e}"))
}

/// Whether the side to move wins (mate or king explosion) within `n` of its moves, by brute force.
fn forced_win(p: &Position, n: u32) -> bool {
    let me = p.turn();
    p.legal_moves().into_iter().any(|m| {
        let c = p.play_unchecked(m);
        match c.outcome() {
            Some(Outcome::Decisive { winner, .. }) => winner == me,
            Some(_) => false,
            None => n > 1 && c.legal_moves().into_iter().all(|r| forced_win(&c.play_unchecked(r), n - 1)),
        }
    })
}

/// The puzzle is a mate in exactly `n`, and the AI finds it by depth 2n + 2 (score and a winning first move;
/// the two extra plies leave room for the pruning of a quiet first move's line: a late-move reduction, or a
/// null move that fails high on material before the mate is seen, as in the capablanca mate in two below).
fn check_mate_in(variant: &str, text: &str, n: u32) -> capabot::rules::Move {
    let p = pos(variant, text);
    assert!(forced_win(&p, n), "{variant} {text}: no forced win in {n}");
    if n > 1 {
        assert!(!forced_win(&p, n - 1), "{variant} {text}: already a win in {}", n - 1);
    }
    let r = best_move(&p, &Limits::depth(2 * n + 2));
    let m = r.best.expect("a move");
    assert_eq!(r.mate_in(), Some(n as i32), "{variant} {text}: score {} pv {:?}", r.score, r.pv);
    let after = p.play_unchecked(m);
    let wins = match after.outcome() {
        Some(Outcome::Decisive { winner, .. }) => winner == p.turn(),
        _ => n > 1 && after.legal_moves().into_iter().all(|r| forced_win(&after.play_unchecked(r), n - 1)),
    };
    assert!(wins, "{variant} {text}: {} does not keep the forced win", uci::write(&p, m));
    m
}

#[test]
fn mate_in_one_per_variant() {
    check_mate_in("chess", "6k1/8/6K1/8/8/8/8/R7 w - - 0 1", 1);
    for v in ["capablanca", "caparandom", "caparelocation"] {
        check_mate_in(v, "9k/10/8K1/10/10/10/10/C9 w - - 0 1", 1);
    }
    check_mate_in("stones", "9k/10/8K1/10/10/10/10/R9 w - - 0 1", 1);
    check_mate_in("capatomic", "9k/10/8K1/10/10/10/10/10/10/R9 w - - 0 1 - -", 1);
}

#[test]
fn atomic_explosion_win() {
    // Rxe7 blows up the black king next to the pawn.
    let m = check_mate_in("atomic", "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1", 1);
    assert_eq!(m.to.to_string(), "e7");
}

#[test]
fn capatomic_launch_clears_the_line() {
    // The black rook on e10 (defended by the knight) blocks the a10 rook; a launch at e9 or d9 removes
    // rook and knight without irradiating rank 10, and Ra10 mates at once.
    let m = check_mate_in("capatomic", "R3r4k/8pp/3n6/10/10/M9/10/10/10/K9 w - - 0 1 - +", 1);
    assert_eq!(m.kind, MoveKind::Launch);
}

#[test]
fn mate_in_two_per_variant() {
    check_mate_in("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2);
    check_mate_in("atomic", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 2);
    for v in ["capablanca", "caparandom", "caparelocation"] {
        check_mate_in(v, "9k/10/10/10/10/10/C9/1R6K1 w - - 0 1", 2);
    }
    check_mate_in("stones", "9k/10/10/10/10/10/R9/1R6K1 w - - 0 1", 2);
    check_mate_in("capatomic", "9k/10/10/10/10/10/10/10/R9/1R7K w - - 0 1 - -", 2);
}

#[test]
fn node_limited_search_is_deterministic() {
    for v in ["chess", "capatomic", "atomic"] {
        let p = Position::start(Variant::by_name(v).unwrap());
        let limits = Limits { nodes: Some(3_000), ..Limits::default() };
        let a = best_move(&p, &limits);
        let b = best_move(&p, &limits);
        assert_eq!(a, b, "{v}");
        let weak = Limits::for_level(2).with_seed(7);
        let weak = Limits { movetime: None, ..weak };
        assert_eq!(best_move(&p, &weak), best_move(&p, &weak), "{v} level 2");
    }
}

#[test]
fn game_history_avoids_losing_nothing() {
    // With the history known, the search still returns a legal move.
    let mut g = Game::new(Position::start(&capabot::rules::variant::CHESS));
    for text in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6"] {
        let m = uci::parse(g.position(), text).unwrap();
        assert!(g.play(m));
    }
    let r = best_move_in_game(&g, &Limits::depth(3));
    assert!(g.position().legal_moves().contains(&r.best.unwrap()));
}

fn random_position(variant: &'static Variant, seed: u64, plies: usize) -> Position {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut p = setups::random_start(variant, &mut rng);
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() || p.outcome().is_some() {
            break;
        }
        let next = p.play_unchecked(moves[rng.random_range(0..moves.len())]);
        if next.outcome().is_some() {
            break;
        }
        p = next;
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    #[test]
    fn search_returns_legal_moves(vi in 0usize..capabot::rules::VARIANTS.len(), seed in any::<u64>(), plies in 0usize..60, level in 1u8..=8) {
        let v = capabot::rules::VARIANTS[vi];
        let p = random_position(v, seed, plies);
        let limits = Limits { nodes: Some(1_500), movetime: None, ..Limits::for_level(level).with_seed(seed) };
        let r = best_move(&p, &limits);
        let legal = p.legal_moves();
        match r.best {
            Some(m) => prop_assert!(legal.contains(&m), "{} {:?}", v.name, p),
            None => prop_assert!(legal.is_empty() || p.king(Color::White).is_none() || p.king(Color::Black).is_none()),
        }
    }
}

#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn uci_session(input: &str) -> String {
    let buf = Buffer::default();
    let out: ai::uci::Output = Arc::new(Mutex::new(buf.clone()));
    ai::uci::run(std::io::Cursor::new(input.to_string()), out);
    String::from_utf8(buf.0.lock().unwrap().clone()).unwrap()
}

#[test]
fn uci_transcript() {
    let text = uci_session(
        "uci\nisready\nposition startpos moves e2e4\ngo perft 2\nsetoption name UCI_Variant value capablanca\n\
         position startpos\ngo depth 3\nsetoption name UCI_Variant value nonsense\nposition fen garbage\n\
         setoption name UCI_Variant value capatomic\nposition startpos\ngo perft 1\nquit\n",
    );
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"uciok"));
    assert!(lines.contains(&"readyok"));
    assert!(text.contains("var capatomic"));
    // After 1.e4 there are 20 replies; Fairy-Stockfish counts 600 at depth 2, 29 after 1...e5.
    assert!(lines.contains(&"Nodes searched: 600"), "{text}");
    assert!(lines.contains(&"e7e5: 29"), "{text}");
    let best = lines.iter().find(|l| l.starts_with("bestmove")).expect("bestmove");
    let mv = best.split_whitespace().nth(1).unwrap();
    let capa = Position::start(&capabot::rules::variant::CAPABLANCA);
    assert!(uci::parse(&capa, mv).is_ok(), "{best}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" pv ") && l.contains(" nps ")));
    assert!(text.contains("info string unknown variant 'nonsense'"));
    assert!(text.contains("info string bad FEN"));
    let capatomic_start = Position::start(&capabot::rules::variant::CAPATOMIC).perft(1);
    assert!(lines.contains(&format!("Nodes searched: {capatomic_start}").as_str()), "{text}");
}

#[test]
fn uci_stop_ends_infinite_search() {
    let text = uci_session("position startpos\ngo infinite\nisready\nstop\n");
    assert!(text.lines().any(|l| l == "readyok"));
    assert_eq!(text.lines().filter(|l| l.starts_with("bestmove ")).count(), 1, "{text}");
}

#[test]
fn uci_binary_speaks_protocol() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_capabot"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("start capabot uci");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"uci\nsetoption name UCI_Variant value atomic\nposition startpos\ngo perft 3\ngo nodes 2000\nquit\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nodes searched: 8902"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}

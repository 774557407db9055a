//! Property tests for Capatomic on random playouts from random numbered setups: FEN, SAN and coordinate
//! round trips, incremental hash against a from-scratch hash, and undo. Move choice is biased so that
//! launches and missile castling happen often.

use capabot::notation::{self, fen, san, uci};
use capabot::rules::variant::CAPATOMIC;
use capabot::rules::{Game, Move, Position, setups};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A numbered setup, optionally armed, optionally with the rank-2/rank-9 pieces other than king and
/// rooks removed so castling (with missiles) is available at once.
fn start(setup: usize, armed: bool, open: bool) -> Position {
    let f = fen::write(&setups::position(&CAPATOMIC, setup).expect("numbered setup"));
    let mut fields: Vec<String> = f.split(' ').map(str::to_string).collect();
    if armed {
        fields[7] = "+".into();
    }
    if open {
        let ranks: Vec<String> = fields[0]
            .split('/')
            .enumerate()
            .map(|(i, r)| {
                if i == 1 || i == 8 {
                    // Back ranks have no digits; replace removed pieces by runs of empty squares.
                    let mut out = String::new();
                    let mut empty = 0;
                    for c in r.chars() {
                        if "KkRr".contains(c) {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(c);
                        } else {
                            empty += 1;
                        }
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                    }
                    out
                } else {
                    r.to_string()
                }
            })
            .collect();
        fields[0] = ranks.join("/");
    }
    fen::parse_position(&CAPATOMIC, &fields.join(" ")).expect("modified start")
}

/// Picks a move: castling with missiles first when possible, then launches, then captures, else any.
fn pick(pos: &Position, moves: &[Move], rng: &mut StdRng) -> Move {
    let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
    if !castles.is_empty() && rng.random_range(0..10) < 6 {
        return castles[rng.random_range(0..castles.len())];
    }
    let launches: Vec<Move> = moves.iter().copied().filter(|m| m.is_launch()).collect();
    if !launches.is_empty() && rng.random_range(0..10) < 2 {
        return launches[rng.random_range(0..launches.len())];
    }
    let captures: Vec<Move> = moves.iter().copied().filter(|&m| !m.is_launch() && pos.is_capture(m)).collect();
    if !captures.is_empty() && rng.random_range(0..10) < 4 {
        return captures[rng.random_range(0..captures.len())];
    }
    let quiet: Vec<Move> = moves.iter().copied().filter(|m| !m.is_launch()).collect();
    if quiet.is_empty() { moves[rng.random_range(0..moves.len())] } else { quiet[rng.random_range(0..quiet.len())] }
}

/// Every non-launch move plus a sample of launches (there can be hundreds).
fn sample_moves(moves: &[Move], rng: &mut StdRng) -> Vec<Move> {
    let mut out: Vec<Move> = moves.iter().copied().filter(|m| !m.is_launch()).collect();
    let launches: Vec<Move> = moves.iter().copied().filter(|m| m.is_launch()).collect();
    for _ in 0..launches.len().min(6) {
        out.push(launches[rng.random_range(0..launches.len())]);
    }
    out
}

fn check_position(pos: &Position, rng: &mut StdRng) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.hash(), pos.recomputed_hash(), "hash of {}", fen::write(pos));
    let text = fen::write(pos);
    let back = fen::parse_position(&CAPATOMIC, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(fen::write(&back), text.clone());
    prop_assert_eq!(back.hash(), pos.hash(), "hash after FEN round trip of {}", text);
    prop_assert!(back == *pos, "FEN round trip changed {}", text);
    let moves = pos.legal_moves();
    for m in sample_moves(&moves, rng) {
        let s = san::write(pos, m);
        let parsed = notation::parse_move(pos, &s).map_err(|e| TestCaseError::fail(format!("{text}: SAN {s}: {e}")))?;
        prop_assert_eq!(parsed, m, "SAN {} in {}", s, text);
        let c = uci::write(pos, m);
        let parsed =
            notation::parse_move(pos, &c).map_err(|e| TestCaseError::fail(format!("{text}: coords {c}: {e}")))?;
        prop_assert_eq!(parsed, m, "coordinates {} in {}", c, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

    #[test]
    fn capatomic_playouts_round_trip(
        setup in 0usize..21_836, seed in any::<u64>(), armed in any::<bool>(), open in any::<bool>()
    ) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(start(setup, armed, open));
        for _ in 0..40 {
            let pos = game.position().clone();
            check_position(&pos, &mut rng)?;
            if pos.outcome().is_some() {
                break;
            }
            let moves = pos.legal_moves();
            let m = pick(&pos, &moves, &mut rng);
            prop_assert!(game.play(m));
            // Undo restores the position exactly.
            let after = game.position().clone();
            prop_assert_eq!(game.undo(), Some(m));
            prop_assert!(*game.position() == pos);
            prop_assert!(game.play(m));
            prop_assert!(*game.position() == after);
        }
    }
}

/// The playouts above really do launch and castle with missiles (guards the bias against rule changes).
#[test]
fn playouts_include_launches_and_missile_castling() {
    let mut launches = 0;
    let mut missile_castles = 0;
    let mut rng = StdRng::seed_from_u64(7);
    for setup in [0usize, 5000, 12345, 21835] {
        let mut pos = start(setup, true, setup % 2 == 0);
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = pick(&pos, &moves, &mut rng);
            launches += usize::from(m.is_launch());
            missile_castles += usize::from(m.is_castle() && !pos.castling_missiles(m).is_empty());
            pos = pos.play(m);
        }
    }
    assert!(launches > 0 && missile_castles > 0, "launches {launches}, missile castles {missile_castles}");
}

//! Property tests for the atomic family and secret-bomb chess (docs/rules/atomic-family.md): random games
//! never panic, round-trip through FEN, SAN and coordinates, never leave both kings exploded except in a
//! death match (or by a detonation), never show check without check, and keep bombs on their own pieces.

use capabot::notation::{self, fen, san, uci};
use capabot::rules::variant::{ATOMIC_DEATHMATCH, ATOMIC_NOCHECK, ATOMIC_PAWNSAFE, BOMB};
use capabot::rules::{Color, Move, Position, Role, Square, Variant};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

const FAMILY: [&Variant; 4] = [&ATOMIC_NOCHECK, &ATOMIC_DEATHMATCH, &ATOMIC_PAWNSAFE, &BOMB];

fn random_bomb(pos: &Position, color: Color, rng: &mut StdRng) -> Option<Square> {
    let pieces: Vec<Square> = (pos.by_color(color) & !pos.by_role(Role::King)).into_iter().collect();
    (!pieces.is_empty()).then(|| pieces[rng.random_range(0..pieces.len())])
}

fn check_invariants(before: &Position, m: Move, pos: &Position) -> Result<(), TestCaseError> {
    let v = pos.variant();
    let text = fen::write(pos);
    let back = fen::parse_position(v, &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(fen::write(&back), text.clone());
    prop_assert!(!text.contains('@'), "FEN carries no bomb: {}", text);
    prop_assert_eq!(pos.hash(), pos.recomputed_hash(), "{}", text);
    let kings = pos.by_role(Role::King).count();
    if kings == 0 {
        prop_assert!(v.death_match || (v.bombs && m.is_detonation()), "both kings gone in {}: {}", v.name, text);
    }
    if !v.check {
        prop_assert!(!pos.is_check(), "check without check: {}", text);
    }
    if v.atomic && !v.pawn_captures_explode && before.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn) {
        // A pawn's capture removes at most its victim.
        prop_assert!(before.occupied().count() - pos.occupied().count() <= 1, "pawn blast: {:?}", m);
    }
    for color in Color::ALL {
        if let Some(b) = pos.bomb(color) {
            let p = pos.piece_at(b);
            prop_assert!(p.is_some_and(|p| p.color == color && p.role != Role::King), "bomb on {} in {}", b, text);
        }
    }
    Ok(())
}

fn check_notation(pos: &Position) -> Result<(), TestCaseError> {
    let text = fen::write(pos);
    for m in pos.legal_moves() {
        let s = san::write(pos, m);
        let parsed = notation::parse_move(pos, &s).map_err(|e| TestCaseError::fail(format!("{text}: {s}: {e}")))?;
        prop_assert_eq!(parsed, m, "SAN {} in {}", s, text);
        let u = uci::write(pos, m);
        let parsed = uci::parse(pos, &u).map_err(|e| TestCaseError::fail(format!("{text}: {u}: {e}")))?;
        prop_assert_eq!(parsed, m, "UCI {} in {}", u, text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_the_rules(vi in 0usize..FAMILY.len(), seed in any::<u64>(), plies in 1usize..160) {
        let variant = FAMILY[vi];
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::start(variant);
        if variant.bombs {
            let bombs = [random_bomb(&pos, Color::White, &mut rng), random_bomb(&pos, Color::Black, &mut rng)];
            pos = pos.with_bombs(bombs).expect("own pieces");
        }
        for ply in 0..plies {
            if ply % 8 == 0 {
                check_notation(&pos)?;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            // Captures and detonations often, so the playouts reach explosions and kingless play.
            let special: Vec<Move> =
                moves.iter().copied().filter(|m| pos.is_capture(*m) || m.is_detonation()).collect();
            let m = if !special.is_empty() && rng.random_range(0..2) == 0 {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let next = pos.play(m);
            check_invariants(&pos, m, &next)?;
            pos = next;
        }
    }
}

/// The playouts above do reach what they test: kingless death-match play, detonations, pawn captures
/// beside pieces in pawn-safe atomic, and kings walking into attack without check.
#[test]
fn playouts_reach_the_special_rules() {
    let mut kingless_moves = 0;
    let mut detonations = 0;
    let mut quiet_pawn_captures = 0;
    let mut kings_captured = 0;
    for seed in 0..400u64 {
        let variant = FAMILY[(seed % 4) as usize];
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = Position::start(variant);
        if variant.bombs {
            let bombs = [random_bomb(&pos, Color::White, &mut rng), random_bomb(&pos, Color::Black, &mut rng)];
            pos = pos.with_bombs(bombs).expect("own pieces");
        }
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let special: Vec<Move> =
                moves.iter().copied().filter(|m| pos.is_capture(*m) || m.is_detonation()).collect();
            let m = if !special.is_empty() && rng.random_range(0..2) == 0 {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let next = pos.play(m);
            kingless_moves += usize::from(pos.by_role(Role::King).is_empty());
            detonations += usize::from(m.is_detonation());
            let pawn = pos.piece_at(m.from).is_some_and(|p| p.role == Role::Pawn);
            quiet_pawn_captures += usize::from(!variant.pawn_captures_explode && pawn && pos.is_capture(m));
            kings_captured += usize::from(!variant.check && pos.piece_at(m.to).is_some_and(|p| p.role == Role::King));
            pos = next;
        }
    }
    assert!(kingless_moves > 0, "no kingless death-match play");
    assert!(detonations > 0, "no detonation");
    assert!(quiet_pawn_captures > 0, "no pawn capture in pawn-safe atomic");
    assert!(kings_captured > 0, "no king captured without check");
}

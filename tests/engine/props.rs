//! Property tests over random playouts in every variant: FEN, SAN and coordinate round trips, incremental
//! hash equal to the recomputed one, and copy-make leaving the original position untouched.

use capabot::notation::{self, fen, san, uci};
use capabot::rules::{Position, VARIANTS, setups};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let text = fen::write(pos);
    let back = fen::parse_position(pos.variant(), &text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
    prop_assert_eq!(fen::write(&back), text.clone());
    prop_assert_eq!(back.legal_moves().len(), pos.legal_moves().len(), "{}", text);
    prop_assert_eq!(pos.hash(), pos.recomputed_hash(), "{}", text);
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
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn playouts_round_trip(variant_index in 0usize..VARIANTS.len(), seed in any::<u64>(), plies in 1usize..90) {
        let variant = VARIANTS[variant_index];
        let mut rng = StdRng::seed_from_u64(seed);
        let index = setups::random_index(variant, &mut rng);
        let mut pos = setups::position(variant, index).expect("setup exists");
        for _ in 0..plies {
            check_position(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            // Prefer captures, launches and castles now and then, so the playouts reach those rules.
            let special: Vec<_> = moves.iter().copied().filter(|m| pos.is_capture(*m) || m.is_castle()).collect();
            let m = if !special.is_empty() && rng.random_range(0..3) == 0 {
                special[rng.random_range(0..special.len())]
            } else {
                moves[rng.random_range(0..moves.len())]
            };
            let before = pos.clone();
            let next = pos.play(m);
            prop_assert_eq!(&before, &pos, "copy-make changed the original");
            prop_assert_eq!(next.hash(), next.recomputed_hash());
            pos = next;
        }
    }
}

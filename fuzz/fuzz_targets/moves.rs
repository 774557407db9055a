//! Any text as a move (SAN, coordinates, launches) in a few positions of every variant: never panics, and
//! anything accepted is a legal move whose SAN and coordinates read back to the same move.
#![no_main]

use capabot::notation::{self, san, uci};
use capabot::rules::{Position, VARIANTS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for variant in VARIANTS {
        let start = Position::start(variant);
        let mut positions = vec![start.clone()];
        // A second position a few plies in, so castling rights, captures and checks differ.
        let mut p = start;
        for i in 0..6 {
            let moves = p.legal_moves();
            let Some(&m) = moves.get((i * 7) % moves.len().max(1)) else { break };
            p = p.play(m);
        }
        positions.push(p);
        for pos in &positions {
            if let Ok(m) = notation::parse_move(pos, text) {
                assert!(pos.legal_moves().contains(&m));
                assert_eq!(notation::parse_move(pos, &san::write(pos, m)).ok(), Some(m));
                assert_eq!(uci::parse(pos, &uci::write(pos, m)).ok(), Some(m));
            }
        }
    }
});

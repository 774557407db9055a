//! Any text as a FEN in every variant: never panics; whatever parses writes back to a FEN that parses
//! to the same position, and every generated move plays without panicking.
#![no_main]

use capabot::notation::fen;
use capabot::rules::VARIANTS;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for variant in VARIANTS {
        let Ok(pos) = fen::parse_position(variant, text) else { continue };
        let written = fen::write(&pos);
        let again = fen::parse_position(variant, &written).expect("written FEN parses");
        assert_eq!(fen::write(&again), written);
        assert_eq!(again.hash(), pos.hash());
        for m in pos.legal_moves() {
            let after = pos.play(m);
            assert_eq!(after.hash(), after.recomputed_hash());
        }
        let _ = pos.outcome();
    }
});

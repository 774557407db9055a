//! The work behind capabot's command-line sub-commands (perft, think, bench-ai, match...), kept out
//! of `main` so that it only parses arguments, wires configuration and prints. Everything here
//! returns data or finished report lines; nothing prints. Layer: next to the front ends, on top of
//! [`crate::rules`], [`crate::notation`], [`crate::ai`] and [`crate::render`].

pub mod engine;
pub mod perft;
pub mod tune;

use crate::notation::{self, fen};
use crate::render::Theme;
use crate::rules::{Move, Position, VARIANTS, Variant, setups};

/// The variant called `name`, or a message listing the known ones.
pub fn variant(name: &str) -> Result<&'static Variant, String> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        format!("unknown variant '{name}'; known: {}", names.join(", "))
    })
}

/// The variants called `names`, or every variant when `names` is empty.
pub fn variants_or_all(names: &[String]) -> Result<Vec<&'static Variant>, String> {
    if names.is_empty() { Ok(VARIANTS.to_vec()) } else { names.iter().map(|n| variant(n)).collect() }
}

/// The board theme called `name`, or a message listing the known ones.
pub fn theme(name: &str) -> Result<Theme, String> {
    Theme::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        format!("unknown theme '{name}'; known: {}", names.join(", "))
    })
}

/// Numbered setup `index` of `v`, or a message giving the valid range.
pub fn setup(v: &'static Variant, index: usize) -> Result<Position, String> {
    setups::position(v, index)
        .ok_or_else(|| format!("{} has setups 0…{}, not {index}", v.name, setups::count(v).saturating_sub(1)))
}

/// The position a sub-command works on: `fen` if given, else setup `setup`, else the start position;
/// then `moves` played from it. Returns the position and the last move played.
pub fn position(
    v: &'static Variant,
    fen_text: Option<&str>,
    setup_index: Option<usize>,
    moves: &[String],
) -> Result<(Position, Option<Move>), String> {
    let mut pos = match (fen_text, setup_index) {
        (Some(f), _) => fen::parse_position(v, f).map_err(|e| format!("bad FEN: {e}"))?,
        (None, Some(i)) => setup(v, i)?,
        (None, None) => Position::start(v),
    };
    let mut last = None;
    for m in moves {
        let mv = notation::parse_move(&pos, m).map_err(|e| e.to_string())?;
        pos = pos.play(mv);
        last = Some(mv);
    }
    Ok((pos, last))
}

/// The median of some durations in seconds (0 for none); sorts `times`.
pub fn median_secs(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_plays_moves_and_reports_the_last() {
        let v = variant("chess").unwrap();
        let (pos, last) = position(v, None, None, &["e4".into(), "e5".into()]).unwrap();
        assert_eq!(fen::write(&pos), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert_eq!(last.map(|m| m.to.to_string()).as_deref(), Some("e5"));
        assert!(position(v, None, None, &["e5".into()]).unwrap_err().contains("not legal"));
    }

    #[test]
    fn bad_names_and_indices_are_explained() {
        assert!(variant("nope").unwrap_err().contains("capatomic"));
        assert!(theme("nope").unwrap_err().contains("wood"));
        let chess = variant("chess").unwrap();
        assert_eq!(setup(chess, 3).unwrap_err(), "chess has setups 0…0, not 3");
        assert!(position(chess, Some("bad"), None, &[]).unwrap_err().starts_with("bad FEN"));
        assert_eq!(variants_or_all(&[]).unwrap().len(), VARIANTS.len());
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_secs(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_secs(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert_eq!(median_secs(&mut []), 0.0);
    }
}

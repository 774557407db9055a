//! PGN export of a game with the Seven Tag Roster plus `Variant`, `SetUp`/`FEN` and `Termination`; a finished
//! secret-bomb game also names where the bombs started (`WhiteBomb`, `BlackBomb`), a game in progress never.

use super::{fen, san};
use crate::rules::{Game, Outcome};

/// Header values of a PGN record.
#[derive(Clone, Debug, Default)]
pub struct PgnHeaders {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    pub white: String,
    pub black: String,
    pub round: String,
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").chars().filter(|c| !c.is_control()).collect()
}

/// Writes a game as PGN. `outcome` is the final result (or `None` while the game goes on).
pub fn write(game: &Game, headers: &PgnHeaders, outcome: Option<Outcome>) -> String {
    let start = game.start();
    let v = start.variant();
    let result = outcome.map_or("*", |o| o.result_str());
    let mut out = String::new();
    let round = if headers.round.is_empty() { "-" } else { headers.round.as_str() };
    for (k, val) in [
        ("Event", headers.event.as_str()),
        ("Site", headers.site.as_str()),
        ("Date", headers.date.as_str()),
        ("Round", round),
        ("White", headers.white.as_str()),
        ("Black", headers.black.as_str()),
        ("Result", result),
    ] {
        out.push_str(&format!("[{k} \"{}\"]\n", quote(val)));
    }
    if let Some(tag) = v.pgn_variant {
        out.push_str(&format!("[Variant \"{}\"]\n", quote(tag)));
    }
    // Variants with numbered setups always name their start, even the default one.
    let start_fen = fen::write(start);
    if start_fen != v.start_fen || v.has_setups() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", quote(&start_fen)));
    }
    if let Some(o) = outcome {
        out.push_str(&format!("[Termination \"{}\"]\n", quote(o.reason_str())));
        if v.bombs {
            for (tag, color) in [("WhiteBomb", crate::rules::Color::White), ("BlackBomb", crate::rules::Color::Black)] {
                let sq = start.bomb(color).map_or("-".to_string(), |s| s.to_string());
                out.push_str(&format!("[{tag} \"{sq}\"]\n"));
            }
        }
    }
    out.push('\n');
    let mut line = String::new();
    let mut tokens: Vec<String> = Vec::new();
    for (i, (pos, m)) in game.positions().iter().zip(game.moves()).enumerate() {
        if i == 0 || pos.turn() == crate::rules::Color::White {
            let dots = if pos.turn() == crate::rules::Color::White { "." } else { "..." };
            tokens.push(format!("{}{}", pos.fullmoves(), dots));
        }
        tokens.push(san::write(pos, *m));
    }
    tokens.push(result.to_string());
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::BOMB;
    use crate::rules::{Color, DrawReason, Move, Position, Square};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn bombs_are_named_only_when_the_game_is_over() {
        let start = Position::start(&BOMB).with_bombs([Some(sq("b1")), Some(sq("g8"))]).unwrap();
        let mut game = Game::new(start);
        assert!(game.play(Move::normal(sq("g1"), sq("f3"))));
        assert!(game.play(Move::detonate(sq("g8"))));
        let going = write(&game, &PgnHeaders::default(), None);
        assert!(!going.contains("WhiteBomb") && !going.contains("BlackBomb") && !going.contains("b1"), "{going}");
        // The detonation itself is public once played.
        assert!(going.contains("@g8"), "{going}");
        let over = write(&game, &PgnHeaders::default(), Some(Outcome::Draw(DrawReason::Agreement)));
        assert!(over.contains("[WhiteBomb \"b1\"]") && over.contains("[BlackBomb \"g8\"]"), "{over}");
        assert_eq!(game.position().bomb(Color::Black), None);
    }
}

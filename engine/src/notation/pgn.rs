//! PGN export of a game with the Seven Tag Roster plus `Variant`, `SetUp`/`FEN` (with `SetupNumber`, the number
//! of a numbered setup) and `Termination`; a finished secret-bomb game also names where the bombs started
//! (`WhiteBomb`, `BlackBomb`), a game in progress never.

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
    /// The number of the game's numbered setup (Capablanca Random, Capatomic, Capablanca
    /// Relocation), written as `SetupNumber` beside `FEN`.
    pub setup: Option<u32>,
}

fn quote(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"").chars().filter(|c| !c.is_control()).collect()
}

/// What an analysis says about one move, for [`write_annotated`]: the evaluation of the position
/// after it, a mark, and the better move (written as a variation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// The value of a `[%eval …]` comment (`0.35`, `-1.20`, `#3`), as the analysis writes it.
    pub eval: Option<String>,
    /// `?!`, `?` or `??`, written right after the move.
    pub mark: Option<&'static str>,
    /// The move that should have been played instead, from the same position.
    pub better: Option<crate::rules::Move>,
}

/// Writes a game as PGN. `outcome` is the final result (or `None` while the game goes on).
pub fn write(game: &Game, headers: &PgnHeaders, outcome: Option<Outcome>) -> String {
    write_annotated(game, headers, outcome, &[])
}

/// Writes a game as PGN with an analysis: `notes[i]` belongs to the game's move `i` (missing notes
/// write nothing). A move's mark follows it, its evaluation comes as `{ [%eval …] }` and the better
/// move as a one-move variation.
pub fn write_annotated(game: &Game, headers: &PgnHeaders, outcome: Option<Outcome>, notes: &[MoveNote]) -> String {
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
        // PGN has no standard tag for a numbered start position (`SetUp` is only the flag that
        // `FEN` follows): a tag of our own, named for what it holds, as the game's start text
        // says it ("setup 42").
        if let Some(number) = headers.setup.filter(|_| v.has_setups()) {
            out.push_str(&format!("[SetupNumber \"{number}\"]\n"));
        }
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
    let mut tokens: Vec<String> = Vec::new();
    // A black move needs its number after anything that interrupts the moves (a comment, a variation).
    let mut interrupted = true;
    for (i, (pos, m)) in game.positions().iter().zip(game.moves()).enumerate() {
        let white = pos.turn() == crate::rules::Color::White;
        let number = |pos: &crate::rules::Position| {
            let dots = if pos.turn() == crate::rules::Color::White { "." } else { "..." };
            format!("{}{}", pos.fullmoves(), dots)
        };
        // A move with its number, a comment and a variation are each kept on one line.
        let note = notes.get(i);
        let mark = note.and_then(|n| n.mark).unwrap_or("");
        let san = san::write(pos, *m);
        tokens.push(if white || interrupted { format!("{} {san}{mark}", number(pos)) } else { format!("{san}{mark}") });
        interrupted = false;
        if let Some(eval) = note.and_then(|n| n.eval.as_deref()) {
            tokens.push(format!("{{ [%eval {}] }}", quote_comment(eval)));
            interrupted = true;
        }
        if let Some(better) = note.and_then(|n| n.better).filter(|b| b != m && pos.is_legal(*b)) {
            tokens.push(format!("({} {})", number(pos), san::write(pos, better)));
            interrupted = true;
        }
    }
    tokens.push(result.to_string());
    let mut line = String::new();
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

/// Text inside a `{ }` comment: no closing brace, no control characters.
fn quote_comment(s: &str) -> String {
    s.chars().filter(|c| *c != '}' && !c.is_control()).collect()
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

    /// The `Variant` tag names a variant as the programs that know it read it: lichess "Atomic",
    /// Fairy-Stockfish's names (as PyChess and XBoard write them) for Capablanca's; the full name
    /// where no program knows the variant; none for chess (before: "Atomic Chess", which lichess
    /// does not import, and "Capablanca Chess").
    #[test]
    fn the_variant_tag_uses_the_names_other_programs_read() {
        use crate::rules::VARIANTS;
        let tag = |name: &str| {
            let v = VARIANTS.iter().find(|v| v.name == name).unwrap();
            let pgn = write(&Game::new(Position::start(v)), &PgnHeaders::default(), None);
            pgn.lines().find_map(|l| l.strip_prefix("[Variant \"")?.strip_suffix("\"]").map(str::to_string))
        };
        assert_eq!(tag("chess"), None);
        for (name, expected) in [
            ("atomic", "Atomic"),
            ("capablanca", "Capablanca"),
            ("caparandom", "Caparandom"),
            ("atomic-nocheck", "Nocheckatomic"),
            ("caparelocation", "Capablanca Relocation Chess"),
            ("stones", "Stone's Chess"),
            ("capatomic", "Capatomic Random Chess"),
            ("atomic-deathmatch", "Death-Match Atomic Chess"),
            ("atomic-pawnsafe", "Pawn-Safe Atomic Chess"),
            ("bomb", "Secret-Bomb Chess"),
        ] {
            assert_eq!(tag(name).as_deref(), Some(expected), "{name}");
        }
    }

    #[test]
    fn annotations_write_evals_marks_and_variations() {
        let mut game = Game::new(Position::start(&crate::rules::variant::CHESS));
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let mv = crate::notation::uci::parse(game.position(), m).unwrap();
            assert!(game.play(mv));
        }
        let note = |eval: &str| MoveNote { eval: Some(eval.into()), ..MoveNote::default() };
        let better = crate::notation::uci::parse(&game.positions()[2], "e2e4").unwrap();
        let notes = [
            note("-0.40"),
            note("-0.60"),
            MoveNote { eval: Some("#-1".into()), mark: Some("??"), better: Some(better) },
            // A stray brace cannot end the comment early.
            note("x}y"),
        ];
        let pgn = write_annotated(
            &game,
            &PgnHeaders::default(),
            Some(Outcome::Decisive { winner: Color::Black, reason: crate::rules::WinReason::Checkmate }),
            &notes,
        );
        let moves = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            moves.trim(),
            "1. f3 { [%eval -0.40] } 1... e5 { [%eval -0.60] } 2. g4?? { [%eval #-1] } (2. e4) 2... Qh4# { [%eval xy] } 0-1"
        );
        // Without notes, the plain record.
        assert_eq!(
            write_annotated(&game, &PgnHeaders::default(), None, &[]),
            write(&game, &PgnHeaders::default(), None)
        );
        assert!(write(&game, &PgnHeaders::default(), None).contains("1. f3 e5 2. g4 Qh4# *"));
    }

    /// Lines are cut between a move and what follows it, never inside: a move keeps its number,
    /// a comment its braces and a variation its brackets (before: `(2.` at a line's end, `d4)`
    /// on the next).
    #[test]
    fn an_annotated_record_is_cut_between_moves_only() {
        let mut game = Game::new(Position::start(&crate::rules::variant::CHESS));
        let mut notes = Vec::new();
        for _ in 0..40 {
            let pos = game.position().clone();
            let legal = pos.legal_moves();
            let (Some(&m), Some(&better)) = (legal.first(), legal.last()) else { break };
            notes.push(MoveNote { eval: Some("-12.34".into()), mark: Some("?!"), better: Some(better) });
            assert!(game.play(m));
        }
        let pgn = write_annotated(&game, &PgnHeaders::default(), None, &notes);
        let moves = pgn.split("\n\n").nth(1).unwrap();
        assert!(moves.lines().count() > 20, "{moves}");
        for line in moves.lines() {
            assert!(line.len() <= 79, "{line}");
            let count = |c: char| line.matches(c).count();
            assert_eq!((count('('), count('{')), (count(')'), count('}')), "{line}");
            assert!(!line.ends_with('.'), "a move number without its move: {line}");
        }
    }
}

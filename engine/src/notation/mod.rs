//! Notation beside the rules: FEN, coordinate (UCI) moves, SAN and PGN. Uses only the public API of
//! [`crate::rules::Position`].
//!
//! Errors come in two layers: syntax errors (the text is not a move at all) and meaning errors (a
//! well-formed move that is illegal or ambiguous here), each with a message a chat user can act on.

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;

use crate::rules::variant::{VARIANTS, Variant};
use crate::rules::{Color, Move, Position, Role, Square};
use std::fmt;
use std::sync::{Arc, LazyLock};

/// Why a typed move was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Nothing was typed.
    Empty,
    /// Longer than any move can be.
    TooLong,
    /// Not a move in any notation capabot reads; `examples` are moves of the shapes it reads, on
    /// this variant's board (one copy a variant, shared by all its errors: see [`Examples::of`]).
    Syntax { input: String, examples: Arc<Examples> },
    /// A well-formed move that is not legal here; `reason` says why, `hints` lists close legal moves.
    Illegal { input: String, reason: Refusal, hints: Vec<Hint> },
    /// More than one legal move matches.
    Ambiguous { input: String, candidates: Vec<String> },
}

/// Moves of each shape capabot reads, drawn on one variant's board (its size, pawn and promotion
/// ranks, Capatomic's launches and missiles along), for telling someone how to write a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Examples {
    /// In SAN: `Nf3, exd5, O-O, e8=Q` in chess; `Nf4, exd6, O-O, e9=Q, O-O[e1,g1], Me1^e5` in Capatomic.
    pub san: Vec<String>,
    /// In coordinates: `e2e4` in chess, `e3e5` in Capatomic.
    pub coordinates: Vec<String>,
}

/// Each variant's [`Examples`], in the order of [`VARIANTS`]: a chat line that is no move is the
/// commonest input there is, so its refusal shares these instead of writing them anew.
static EXAMPLES: LazyLock<Vec<Arc<Examples>>> =
    LazyLock::new(|| VARIANTS.iter().map(|v| Arc::new(Examples::drawn(v))).collect());

impl Examples {
    /// The examples for `variant`'s board: the one copy of a listed variant's, shared.
    pub fn of(variant: &Variant) -> Arc<Examples> {
        match VARIANTS.iter().position(|v| std::ptr::eq(*v, variant)) {
            Some(i) => Arc::clone(&EXAMPLES[i]),
            None => Arc::new(Examples::drawn(variant)),
        }
    }

    /// The examples drawn on `variant`'s board.
    fn drawn(variant: &Variant) -> Examples {
        let rank = |r: u8| r + 1;
        // White's pieces stand on the castling rank, its pawns on the pawn rank.
        let (pieces, pawns, promotion) =
            (rank(variant.castling_rank), rank(variant.pawn_rank), rank(variant.promotion_rank));
        let mut san = vec![
            format!("Nf{}", pieces + 2),
            format!("exd{}", pawns + 3),
            "O-O".to_string(),
            format!("e{promotion}=Q"),
        ];
        let mut coordinates = vec![format!("e{pawns}e{}", pawns + 2)];
        if let Some(missiles) = variant.missile_rank_of(Color::White).map(rank) {
            san.push(format!("O-O[e{missiles},g{missiles}]"));
            san.push(format!("Me{missiles}^e{}", pawns + 2));
            coordinates.push(format!("e{missiles}^e{}", pawns + 2));
        }
        Examples { san, coordinates }
    }
}

impl MoveError {
    /// Not a move at all, with examples for `pos`'s variant.
    pub fn syntax(pos: &Position, input: &str) -> MoveError {
        MoveError::Syntax { input: input.to_string(), examples: Examples::of(pos.variant()) }
    }
}

/// Why a missile named in castling (`O-O[e1]`) cannot come along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MissileHold {
    /// No missile of the mover's stands there, or not diagonally behind the king.
    NoMissile,
    /// The missile has moved (or its right to come along ended otherwise).
    Moved,
    /// The king keeps its file, so nothing comes along.
    KingStays,
    /// A piece stands on that square of its path.
    Blocked(Square),
    /// That square of its path is irradiated.
    Irradiated(Square),
}

/// Why a well-formed move is not legal here, as data: the chat layers put it in words in the
/// reader's language; [`fmt::Display`] gives the English words for tools and logs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `@e4` in a variant without bombs.
    NoBombs,
    /// A detonation that is not possible: one reason whatever the cause, so that a refusal read by
    /// others never tells where a secret bomb is or is not.
    Detonation,
    /// A launch in a variant without missiles.
    NoMissiles,
    /// A launch from a square holding another of the mover's pieces.
    NotAMissile { from: Square, role: Role },
    /// A launch from a square without a missile of the mover's.
    NoMissileOn { from: Square },
    /// A square outside the board.
    OffBoard { square: Square },
    /// Missiles cannot launch before a piece other than a pawn is captured (C8).
    Unarmed,
    /// An attacked missile cannot launch (C8); `role` on `by` is one attacker.
    MissileAttacked { from: Square, by: Square, role: Role },
    /// A king's shield protects the target (C7).
    Shielded { square: Square },
    /// The launch would leave the mover's king in check.
    LaunchIntoCheck,
    /// The named missiles cannot castle along (C12): each one that cannot, with why.
    CastleMissiles { held: Vec<(Square, MissileHold)> },
    /// Castling out of check.
    CastleInCheck,
    /// Castling that way is not possible now.
    CastleImpossible,
    /// Castling that way is kept out by an irradiated square it would cross or end on (C11).
    CastleIrradiated { square: Square },
    /// A pawn reaching the last rank without a promotion piece named (SAN); `roles` are the choices,
    /// `example` the move with the first of them (`e8=Q`).
    Promotion { roles: Vec<Role>, example: String },
    /// The same in coordinates; `example` is the move with a queen (`e7e8q`).
    PromotionCoordinates { example: String },
    /// A promotion to a piece a pawn may not become here (`=K`); `roles` are the choices.
    PromotionTo { role: Role, roles: Vec<Role> },
    /// A piece letter of a piece the variant does not have.
    NoSuchRole { role: Role },
    /// The mover has no piece of that kind left.
    NoPieceOfRole { role: Role },
    /// No piece may stand on an irradiated square (C5).
    Irradiated { square: Square },
    /// No piece may move through an irradiated square (C5): `square` lies on the way to `to` (a
    /// slider's line, a pawn's double step).
    IrradiatedOnTheWay { square: Square, to: Square },
    /// The mover's own piece stands on the target.
    OwnPiece { square: Square },
    /// In check, and the move does not answer it.
    CheckNotAnswered { role: Role },
    /// The move would leave the mover's king in check.
    IntoCheck { role: Role },
    /// Atomic: the capture's explosion would take the mover's own king.
    ExplodesOwnKing { role: Role },
    /// No piece of that kind can reach the square.
    CannotReach { role: Role, square: Square },
    /// A piece of that kind can reach the square, but none from the file or rank (or square)
    /// typed: `Nbd2` with no knight on the b-file, `1e4` (a pawn from rank 1).
    NotFrom { role: Role, square: Square, file: Option<u8>, rank: Option<u8> },
    /// Coordinates from an empty square.
    NoPieceOn { square: Square },
    /// Coordinates from the other side's piece; `owner` is that side (the other is to move).
    NotYours { role: Role, square: Square, owner: Color },
    /// The piece on the square has no legal move at all.
    NoLegalMove { role: Role, from: Square },
    /// The piece has legal moves, but not to that square.
    CannotGo { role: Role, from: Square, to: Square },
}

/// A legal alternative shown beside a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// The legal moves of the pieces of one kind (in SAN).
    Moves { role: Role, moves: Vec<String> },
    /// The legal castling moves (in SAN).
    Castling(Vec<String>),
    /// The mover is in check (and the named piece has no move).
    InCheck,
    /// The legal missile launches (in SAN, Capatomic).
    Launches(Vec<String>),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal as R;
        match self {
            R::NoBombs => write!(f, "there are no bombs in this variant"),
            R::Detonation => write!(
                f,
                "no detonation there now: name your own bomb's square, and in check the blast must leave your king \
                 alive and out of check"
            ),
            R::NoMissiles => write!(f, "there are no missile launches in this variant"),
            R::NotAMissile { from, role } => write!(f, "the piece on {from} is a {}, not a missile", role.name()),
            R::NoMissileOn { from } => write!(f, "you have no missile on {from}"),
            R::OffBoard { square } => write!(f, "{square} is not on this board"),
            R::Unarmed => {
                write!(f, "no piece other than a pawn has been captured yet, so missiles cannot launch")
            }
            R::MissileAttacked { from, by, role } => write!(
                f,
                "your missile on {from} is attacked by the {} on {by}, and an attacked missile cannot launch",
                role.name()
            ),
            R::Shielded { square } => {
                write!(f, "{square} is shielded by a king: no launch may hit a king's square or a square next to it")
            }
            R::LaunchIntoCheck => write!(f, "the launch would leave your king in check"),
            R::CastleMissiles { held } => {
                let why: Vec<String> = held.iter().map(|(sq, hold)| missile_hold_text(*sq, *hold)).collect();
                if why.is_empty() {
                    write!(f, "those missiles cannot come along")
                } else {
                    write!(f, "{}", why.join("; "))
                }
            }
            R::CastleInCheck => write!(f, "you cannot castle out of check"),
            R::CastleIrradiated { square } => write!(
                f,
                "castling that way is not possible: {square} is irradiated, and castling may not cross an irradiated \
                 square or end on one"
            ),
            R::CastleImpossible => write!(
                f,
                "castling that way is not possible now (moved king or rook, pieces in the way, or an attacked square)"
            ),
            R::Promotion { roles, example } => {
                let letters: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
                write!(f, "say which piece to promote to, for example {example}: {}", letters.join(", "))
            }
            R::PromotionCoordinates { example } => write!(f, "say which piece to promote to, for example {example}"),
            R::PromotionTo { role, roles } => {
                let letters: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
                write!(f, "a pawn cannot promote to a {}: choose {}", role.name(), letters.join(", "))
            }
            R::NoSuchRole { role } => write!(f, "there is no {} in this variant", role.name()),
            R::NoPieceOfRole { role } => write!(f, "you have no {}", role.name()),
            R::Irradiated { square } => write!(f, "{square} is irradiated: no piece may stand there"),
            R::IrradiatedOnTheWay { square, to } => {
                write!(f, "{square} on the way to {to} is irradiated: no piece may move through it")
            }
            R::OwnPiece { square } => write!(f, "your own piece stands on {square}"),
            R::CheckNotAnswered { role } => {
                write!(f, "you are in check, and that {} move does not answer it", role.name())
            }
            R::IntoCheck { role } => write!(f, "that {} move would leave your king in check", role.name()),
            R::ExplodesOwnKing { role } => {
                write!(f, "that {} capture would blow up your own king", role.name())
            }
            R::CannotReach { role, square } => write!(f, "no {} of yours can reach {square}", role.name()),
            R::NotFrom { role, square, file, rank } => {
                let file = file.map(|f| char::from(b'a' + f));
                let place = match (file, rank) {
                    (Some(file), Some(rank)) => format!("{file}{}", rank + 1),
                    (Some(file), None) => format!("the {file}-file"),
                    (None, Some(rank)) => format!("rank {}", rank + 1),
                    (None, None) => "there".to_string(),
                };
                write!(f, "no {} of yours on {place} can reach {square}", role.name())
            }
            R::NoPieceOn { square } => write!(f, "there is no piece on {square}"),
            R::NotYours { role, square, owner } => {
                write!(f, "the {} on {square} belongs to {owner}, and it is {}'s turn", role.name(), owner.other())
            }
            R::NoLegalMove { role, from } => write!(f, "your {} on {from} has no legal move", role.name()),
            R::CannotGo { role, from, to } => write!(f, "your {} on {from} cannot go to {to}", role.name()),
        }
    }
}

impl Hint {
    /// The moves a hint lists (none for [`Hint::InCheck`]).
    pub fn moves(&self) -> &[String] {
        match self {
            Hint::Moves { moves, .. } | Hint::Castling(moves) | Hint::Launches(moves) => moves,
            Hint::InCheck => &[],
        }
    }
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::Moves { role, moves } => write!(f, "{} moves: {}", role.name(), moves.join(", ")),
            Hint::Castling(moves) => write!(f, "castling moves: {}", moves.join(", ")),
            Hint::InCheck => write!(f, "you are in check"),
            Hint::Launches(moves) => write!(f, "launches: {}", moves.join(", ")),
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "no move given"),
            MoveError::TooLong => write!(f, "that is too long to be a move"),
            MoveError::Syntax { input, examples } => write!(
                f,
                "'{input}' is not a move I can read; try SAN like {} or coordinates like {}",
                examples.san.join(", "),
                examples.coordinates.join(", ")
            ),
            MoveError::Illegal { input, reason, hints } => {
                write!(f, "{input} is not legal: {reason}")?;
                for h in hints {
                    write!(f, "; {h}")?;
                }
                Ok(())
            }
            MoveError::Ambiguous { input, candidates } => {
                write!(f, "{input} is ambiguous: did you mean {}?", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// Why a missile cannot come along, in English (for tools and logs).
fn missile_hold_text(missile: Square, hold: MissileHold) -> String {
    match hold {
        MissileHold::NoMissile => format!("you have no missile on {missile} that could come along"),
        MissileHold::Moved => format!("the missile on {missile} has moved, so it cannot come along"),
        MissileHold::KingStays => "the king keeps its file, so no missile comes along".to_string(),
        MissileHold::Blocked(sq) => {
            format!("the missile on {missile} cannot come along: a piece on {sq} blocks its path")
        }
        MissileHold::Irradiated(sq) => {
            format!("the missile on {missile} cannot come along: {sq} on its path is irradiated")
        }
    }
}

/// Whether `text` has the shape of a move only a chess-variant player would type, though it may
/// not read as one: a Capatomic launch (`Mj1^k4`, `M j1^e5`, `launch j1 e5`) or castling with missiles in brackets
/// (`O-O[e1 g1]`). Chat about anything else never has these shapes, so an answer to such a text
/// is welcome where other unreadable text is left alone.
pub fn looks_like_move(text: &str) -> bool {
    let t = text.trim();
    if t.len() > 40 || !t.is_ascii() {
        return false;
    }
    // A launch in words: `launch e1 e5` (as `move` reads it).
    if let Some(rest) = t.get(..7).filter(|w| w.eq_ignore_ascii_case("launch ")).map(|_| &t[7..]) {
        let mut squares = rest.split_whitespace();
        let square = |s: Option<&str>| {
            s.and_then(|s| s.get(1..).map(|n| (s, n))).is_some_and(|(s, n)| {
                s.as_bytes()[0].is_ascii_alphabetic()
                    && (1..=2).contains(&n.len())
                    && n.bytes().all(|b| b.is_ascii_digit())
            })
        };
        return square(squares.next()) && square(squares.next()) && squares.next().is_none();
    }
    // The other shapes need a `[` or a `^`: most chat lines are told apart here, with no copy made.
    if !t.contains(['[', '^']) {
        return false;
    }
    let lower = t.to_ascii_lowercase();
    // Castling with brackets: `O-O[…]`, `0-0-0 [ … ]`.
    if let Some(rest) = ["o-o-o", "0-0-0", "o-o", "0-0"].iter().find_map(|c| lower.strip_prefix(c)) {
        return rest.trim_start().starts_with('[');
    }
    // A launch: an optional `M` (`M g10^b3` spaced too), a square or part of one, `^`, a file letter
    // and a number; no other spaces.
    let Some((head, target)) = lower.split_once('^') else { return false };
    let head = head.strip_prefix('m').map_or(head, str::trim_start);
    if head.contains(char::is_whitespace) || target.contains(char::is_whitespace) {
        return false;
    }
    let head = head.strip_prefix(|c: char| c.is_ascii_lowercase()).unwrap_or(head);
    let target = target.trim_end_matches(['+', '#', '!', '?']);
    let Some(number) = target.strip_prefix(|c: char| c.is_ascii_lowercase()) else { return false };
    let digits = |s: &str, most: usize| s.len() <= most && s.chars().all(|c| c.is_ascii_digit());
    digits(head, 2) && !number.is_empty() && digits(number, 3)
}

/// `text` with figurines (`♘f3`, `♞f6`: the piece's letter; a pawn's dropped, as SAN names no pawn)
/// and full-width forms (`Ｎｆ３`, as East Asian keyboards type them) as the ASCII that SAN and
/// coordinates are written in; ASCII text as it is.
fn plain_letters(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    let plain = text.chars().filter_map(|c| match c {
        '♔' | '♚' => Some('K'),
        '♕' | '♛' => Some('Q'),
        '♖' | '♜' => Some('R'),
        '♗' | '♝' => Some('B'),
        '♘' | '♞' => Some('N'),
        // The emoji form of a figurine (`♞️`) adds a variation selector.
        '♙' | '♟' | '\u{FE0E}' | '\u{FE0F}' => None,
        // Full-width `！` to `～` are ASCII `!` to `~` moved up by 0xFEE0.
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0),
        c => Some(c),
    });
    std::borrow::Cow::Owned(plain.collect())
}

/// `text` without a move number in front (`1. e4`, `1.e4`, `12... Nf6`, `3…O-O`, `5. 0-0`), as
/// moves are copied from a game's record; other text as it is. What follows the number must start
/// as a move does, with a letter or castling's `0-`: `12.00` (a time) or `1.000` (a thousand, in
/// German) are no castling.
pub fn without_move_number(text: &str) -> &str {
    let t = text.trim_start();
    let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == t.len() || t.len() - rest.len() > 4 {
        return text;
    }
    let after = rest.trim_start_matches(['.', '…']);
    let after_trimmed = after.trim_start();
    let starts_a_move = after_trimmed.starts_with(|c: char| c.is_ascii_alphabetic()) || after_trimmed.starts_with("0-");
    if after.len() == rest.len() || !starts_a_move {
        return text;
    }
    after_trimmed
}

thread_local! {
    /// Typed moves read on this thread ([`moves_read`]).
    static MOVES_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many typed moves this thread has read with [`parse_move`] so far: tests count what
/// answering a line costs with it (each read of a line that is no legal move makes its refusal).
pub fn moves_read() -> u64 {
    MOVES_READ.with(std::cell::Cell::get)
}

/// Reads a move typed in chat: SAN (lenient), coordinate notation, or Capatomic launch forms; a
/// move number in front is left out.
pub fn parse_move(pos: &Position, input: &str) -> Result<Move, MoveError> {
    MOVES_READ.with(|n| n.set(n.get() + 1));
    let plain = plain_letters(input.trim());
    let text = without_move_number(plain.as_ref());
    if text.is_empty() {
        return Err(MoveError::Empty);
    }
    if text.chars().count() > 40 {
        return Err(MoveError::TooLong);
    }
    // An upper-case piece letter first means SAN (`A5c6`: archbishop from rank 5), even where the text
    // also reads as coordinates (`a5c6`); otherwise coordinates are tried first.
    let san_first = text.chars().next().is_some_and(|c| c.is_ascii_uppercase() && Role::from_char(c).is_some());
    // SAN is read once: a refusal from the first try is kept for the answer.
    let mut san_err = None;
    if san_first {
        match san::parse(pos, text) {
            Ok(m) => return Ok(m),
            Err(e) => san_err = Some(e),
        }
    }
    let coord_err = match uci::parse(pos, text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let san_err = match san_err {
        Some(e) => e,
        None => match san::parse(pos, text) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        },
    };
    // A coordinate-shaped input gets the coordinate explanation.
    Err(if uci::looks_like_coordinates(text) { coord_err } else { san_err })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen::parse_position;
    use crate::rules::variant::{ATOMIC, CAPATOMIC, CHESS, VARIANTS};

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    fn refusal(pos: &Position, typed: &str) -> Refusal {
        match parse_move(pos, typed) {
            Err(MoveError::Illegal { reason, .. }) => reason,
            other => panic!("{typed}: {other:?}"),
        }
    }

    /// The examples of an unreadable move fit each variant's board: each reads as a move there
    /// (legal or not), and promotes on its promotion rank (before: `e8=Q` on Capatomic's 10×10
    /// board, where rank 8 promotes nothing).
    #[test]
    fn syntax_examples_fit_the_variant() {
        for v in VARIANTS {
            let pos = Position::start(v);
            let MoveError::Syntax { examples, .. } = parse_move(&pos, "zz").unwrap_err() else { panic!() };
            for typed in examples.san.iter().chain(&examples.coordinates) {
                assert!(!matches!(parse_move(&pos, typed), Err(MoveError::Syntax { .. })), "{}: {typed}", v.name);
            }
            let promotion = examples.san.iter().find(|s| s.contains('=')).unwrap();
            assert_eq!(promotion, &format!("e{}=Q", v.promotion_rank + 1), "{}", v.name);
            assert_eq!(examples.san.iter().any(|s| s.contains('^')), v.missiles, "{}", v.name);
        }
        let e = parse_move(&Position::start(&CHESS), "zz").unwrap_err().to_string();
        assert!(e.ends_with("try SAN like Nf3, exd5, O-O, e8=Q or coordinates like e2e4"), "{e}");
        let e = parse_move(&Position::start(&CAPATOMIC), "Mj1^k4").unwrap_err().to_string();
        assert!(e.contains("Nf4, exd6, O-O, e9=Q, O-O[e1,g1], Me1^e5 or coordinates like e3e5, e1^e5"), "{e}");
    }

    /// A pawn on the last rank without its piece is given an example in the notation used, on
    /// that board (before: `e8q` whatever was typed, which does not even read on 10×10).
    #[test]
    fn promotion_examples_are_moves_here() {
        let pos = parse_position(&CAPATOMIC, "k9/10/4P5/10/10/10/10/10/10/K9 w - - 0 1 - -").unwrap();
        assert_eq!(refusal(&pos, "e8e9"), Refusal::PromotionCoordinates { example: "e8e9q".into() });
        let Refusal::Promotion { example, .. } = refusal(&pos, "e9") else { panic!() };
        assert_eq!(example, "e9=Q");
        for typed in ["e8e9q", "e9=Q"] {
            assert!(parse_move(&pos, typed).is_ok(), "{typed}");
        }
        let pos = parse_position(&CHESS, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(refusal(&pos, "a7a8"), Refusal::PromotionCoordinates { example: "a7a8q".into() });
    }

    /// A piece that could make the move but for its king is told so, pawns and en passant
    /// included, in SAN and coordinates (before: "no pawn of yours can reach e4").
    #[test]
    fn pinned_pieces_are_told_about_the_king() {
        let into_check = Refusal::IntoCheck { role: Role::Pawn };
        // Chess: an en passant that would open the rank, a pawn pinned on a diagonal.
        let pos = parse_position(&CHESS, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").unwrap();
        assert_eq!(refusal(&pos, "exd6"), into_check);
        assert_eq!(refusal(&pos, "e5d6"), into_check);
        let pos = parse_position(&CHESS, "4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1").unwrap();
        for typed in ["d3", "d4", "d2d3"] {
            assert_eq!(refusal(&pos, typed), into_check, "{typed}");
        }
        assert_eq!(refusal(&pos, "d5"), Refusal::CannotReach { role: Role::Pawn, square: sq("d5") });
        // Capatomic drops an en passant that a pin forbids from its position (C16): still explained.
        let pos = parse_position(&CAPATOMIC, "10/10/10/10/10/k2p5R/10/4P5/10/K9 w - - 0 1 - -").unwrap();
        let pos = pos.play(parse_move(&pos, "e5").unwrap());
        assert_eq!(pos.ep_square(), None);
        assert_eq!(refusal(&pos, "dxe4"), into_check);
        assert_eq!(refusal(&pos, "d5e4"), into_check);
        // Atomic: a capture whose blast takes the own king.
        let pos = parse_position(&ATOMIC, "8/8/8/8/8/8/3p4/3RK2k w - - 0 1").unwrap();
        assert_eq!(refusal(&pos, "Rxd2"), Refusal::ExplodesOwnKing { role: Role::Rook });
    }

    /// Missiles named in castling are refused with the hindrance of each (before: one sentence
    /// for every cause, with a ruling id players never see).
    #[test]
    fn castling_missiles_say_what_holds_them() {
        let base = "4m1m3/r4k3r/10/10/10/10/10/10/R4K3R/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -";
        let pos = parse_position(&CAPATOMIC, base).unwrap();
        let held = |typed: &str| match refusal(&pos, typed) {
            Refusal::CastleMissiles { held } => held,
            other => panic!("{typed}: {other:?}"),
        };
        assert_eq!(held("O-O[e1]"), vec![(sq("e1"), MissileHold::Blocked(sq("g1")))]);
        assert_eq!(held("f2j2[e1]"), vec![(sq("e1"), MissileHold::Blocked(sq("g1")))]);
        assert_eq!(held("O-O-O[g1]"), vec![(sq("g1"), MissileHold::Blocked(sq("e1")))]);
        assert_eq!(held("O-O[d1]"), vec![(sq("d1"), MissileHold::NoMissile)]);
        let MoveError::Illegal { hints, .. } = parse_move(&pos, "O-O[e1]").unwrap_err() else { panic!() };
        let e = parse_move(&pos, "O-O[e1]").unwrap_err().to_string();
        assert!(e.contains("a piece on g1 blocks its path; castling moves: O-O-O, O-O-O[e1], "), "{e}");
        assert!(!hints.is_empty());
        let pos = parse_position(&CAPATOMIC, &base.replace("4M1M3 w", "4M1M*2 w")).unwrap();
        let held = |typed: &str| match refusal(&pos, typed) {
            Refusal::CastleMissiles { held } => held,
            other => panic!("{typed}: {other:?}"),
        };
        let h1 = MissileHold::Irradiated(sq("h1"));
        assert_eq!(held("O-O[e1,g1]"), vec![(sq("e1"), h1), (sq("g1"), h1)]);
        let pos = parse_position(&CAPATOMIC, &base.replace("e1,g1,", "g1,")).unwrap();
        assert_eq!(refusal(&pos, "O-O-O[e1]"), Refusal::CastleMissiles { held: vec![(sq("e1"), MissileHold::Moved)] });
        let stays = "4m1m3/r4k3r/10/10/10/10/10/10/R7KR/7M1M w AJaj - 0 1 h1,j1,e10,g10 -";
        let pos = parse_position(&CAPATOMIC, stays).unwrap();
        assert_eq!(
            refusal(&pos, "O-O[h1]"),
            Refusal::CastleMissiles { held: vec![(sq("h1"), MissileHold::KingStays)] }
        );
    }

    /// An attacked missile's refusal names an attacker; a missile's hints list its launches in
    /// the board's order, as `!moves` does (before: a1, a10, a2 …); no refusal shows a ruling id.
    #[test]
    fn launch_refusals_in_plain_words() {
        let pos = parse_position(&CAPATOMIC, "k9/10/10/10/4b5/10/10/10/10/K8M w - - 0 1 - +").unwrap();
        let want = Refusal::MissileAttacked { from: sq("j1"), by: sq("e6"), role: Role::Bishop };
        assert_eq!(refusal(&pos, "Mj1^e5"), want);
        assert!(want.to_string().contains("attacked by the bishop on e6"), "{want}");
        let pos = parse_position(&CAPATOMIC, "k9/10/10/10/10/10/10/10/10/K8M w - - 0 1 - +").unwrap();
        let MoveError::Illegal { hints, .. } = parse_move(&pos, "j1j5").unwrap_err() else { panic!() };
        assert_eq!(hints, san::listed_moves(&pos, Some(sq("j1"))));
        assert!(matches!(hints.last(), Some(Hint::Launches(l)) if l[0] == "Mj1^c1" && l.last().unwrap() == "Mj1^j10"));
        let unarmed = parse_position(&CAPATOMIC, "k9/10/10/10/10/10/10/10/10/K8M w - - 0 1 - -").unwrap();
        for (pos, typed) in [(&unarmed, "Mj1^e5"), (&pos, "Mj1^a1")] {
            let e = parse_move(pos, typed).unwrap_err().to_string();
            assert!(!e.contains("(C"), "{e}");
        }
    }

    /// An unreadable line's examples are drawn once a variant and shared by every refusal that
    /// shows them (before: written anew, several `format!`s, for each of them, two or three a line).
    #[test]
    fn syntax_examples_are_shared() {
        for v in VARIANTS {
            let pos = Position::start(v);
            let (first, second) = (parse_move(&pos, "hello").unwrap_err(), parse_move(&pos, "Nice").unwrap_err());
            let examples = |e: &MoveError| -> *const Examples {
                let MoveError::Syntax { examples, .. } = e else { panic!("{}: {e:?}", v.name) };
                let examples: &Examples = examples;
                examples
            };
            assert!(std::ptr::eq(examples(&first), examples(&second)), "{}", v.name);
            assert!(std::ptr::eq(examples(&first), examples(&MoveError::syntax(&pos, "gg"))), "{}", v.name);
        }
    }

    /// Text only a player types is move-shaped; chat is not.
    #[test]
    fn move_shaped_text() {
        for text in [
            "Mj1^k4",
            "j1^e5",
            "M^e5",
            "Mj^a10+",
            "O-O[e1 g1]",
            "o-o [e1, g1]",
            "0-0-0[x]",
            "M g10^b3",
            "m g10^b3",
            "launch e1 e5",
            "Launch g10  b3",
        ] {
            assert!(looks_like_move(text), "{text}");
        }
        for text in [
            "^^",
            "^^ nice",
            "x^2",
            "2^10",
            "hello",
            "O-O",
            "lol ^ this",
            "a^b",
            "M g10 ^ b3",
            "launch the rocket",
            "launch e1 e5 now",
            "launch e1",
            "launching e1 e5",
        ] {
            assert!(!looks_like_move(text), "{text}");
        }
    }
}

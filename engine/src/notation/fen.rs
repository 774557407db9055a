//! FEN in and out for every board size: multi-digit empty runs (`10`), `*` for irradiated squares,
//! X-FEN (`KQkq`) and Shredder (`AJaj`) castling, and Capatomic's two extra fields (C16).

use crate::rules::variant::FenCastling;
use crate::rules::{Bitboard, Color, Piece, Position, PositionError, Role, Setup, Square, Variant};
use std::fmt;

/// Why a FEN could not be read. One variant per field, as a chat user would fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    Empty,
    TooLong,
    RankCount { expected: u8, found: usize },
    RankWidth { rank: u8, expected: u8, found: usize },
    BadBoardChar { rank: u8, ch: char },
    Turn(String),
    Castling(String),
    EnPassant(String),
    Halfmoves(String),
    Fullmoves(String),
    MissileRights(String),
    Armed(String),
    ExtraFields,
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty"),
            FenError::TooLong => write!(f, "the FEN is too long"),
            FenError::RankCount { expected, found } => {
                write!(f, "the board needs {expected} ranks separated by '/', found {found}")
            }
            FenError::RankWidth { rank, expected, found } => {
                write!(f, "rank {rank} has {found} squares, but this board is {expected} files wide")
            }
            FenError::BadBoardChar { rank, ch } => write!(f, "rank {rank}: '{ch}' is not a piece letter"),
            FenError::Turn(s) => write!(f, "the side to move must be 'w' or 'b', not '{s}'"),
            FenError::Castling(s) => write!(f, "cannot read the castling field '{s}'"),
            FenError::EnPassant(s) => write!(f, "the en-passant field must be '-' or a square, not '{s}'"),
            FenError::Halfmoves(s) => write!(f, "the halfmove clock must be a number, not '{s}'"),
            FenError::Fullmoves(s) => write!(f, "the move number must be a number from 1, not '{s}'"),
            FenError::MissileRights(s) => {
                write!(f, "the missile field must be '-' or squares joined by commas, not '{s}'")
            }
            FenError::Armed(s) => write!(f, "the armed field must be '+' or '-', not '{s}'"),
            FenError::ExtraFields => write!(f, "the FEN has too many fields"),
            FenError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Reads a FEN into a plain setup (checks the syntax and the board shape only).
pub fn parse(variant: &Variant, fen: &str) -> Result<Setup, FenError> {
    let fen = fen.trim();
    if fen.is_empty() {
        return Err(FenError::Empty);
    }
    if fen.len() > 300 {
        return Err(FenError::TooLong);
    }
    let mut fields = fen.split_whitespace();
    let board_field = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    parse_board(variant, board_field, &mut setup)?;

    if let Some(t) = fields.next() {
        setup.turn = match t {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(FenError::Turn(t.into())),
        };
    }
    if let Some(c) = fields.next() {
        setup.castling_rooks = parse_castling(variant, c, &setup)?;
    }
    if let Some(ep) = fields.next()
        && ep != "-"
    {
        setup.ep_square =
            Some(Square::parse(ep).filter(|s| variant.contains(*s)).ok_or_else(|| FenError::EnPassant(ep.into()))?);
    }
    if let Some(h) = fields.next() {
        setup.halfmoves = h.parse().map_err(|_| FenError::Halfmoves(h.into()))?;
    }
    if let Some(n) = fields.next() {
        setup.fullmoves = n.parse().ok().filter(|&n| n >= 1).ok_or_else(|| FenError::Fullmoves(n.into()))?;
    }
    if variant.missiles {
        if let Some(m) = fields.next()
            && m != "-"
        {
            for part in m.split(',') {
                let sq = Square::parse(part.trim())
                    .filter(|s| variant.contains(*s))
                    .ok_or_else(|| FenError::MissileRights(m.into()))?;
                setup.missile_rights.set(sq);
            }
        }
        if let Some(a) = fields.next() {
            setup.armed = match a {
                "+" => true,
                "-" => false,
                _ => return Err(FenError::Armed(a.into())),
            };
        }
    }
    if fields.next().is_some() {
        return Err(FenError::ExtraFields);
    }
    Ok(setup)
}

fn parse_board(variant: &Variant, field: &str, setup: &mut Setup) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != variant.height as usize {
        return Err(FenError::RankCount { expected: variant.height, found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = variant.height - 1 - i as u8;
        let mut file = 0usize;
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            if let Some(d) = ch.to_digit(10) {
                let mut n = d as usize;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d2 as usize;
                    chars.next();
                    if n > 10 {
                        break;
                    }
                }
                if n == 0 {
                    return Err(FenError::BadBoardChar { rank: rank + 1, ch });
                }
                file += n;
            } else if ch == '*' {
                if file < variant.width as usize {
                    setup.irradiated.set(Square::new(file as u8, rank));
                }
                file += 1;
            } else if ch == '~' {
                // Promoted-piece marker of some FEN writers: carries no rule here.
            } else {
                let piece = Piece::from_fen_char(ch).ok_or(FenError::BadBoardChar { rank: rank + 1, ch })?;
                if file < variant.width as usize {
                    setup.board[Square::new(file as u8, rank).index()] = Some(piece);
                }
                file += 1;
            }
            if file > variant.width as usize {
                break;
            }
        }
        if file != variant.width as usize {
            return Err(FenError::RankWidth { rank: rank + 1, expected: variant.width, found: file });
        }
    }
    Ok(())
}

fn parse_castling(variant: &Variant, field: &str, setup: &Setup) -> Result<Bitboard, FenError> {
    let mut rooks = Bitboard::EMPTY;
    if field == "-" {
        return Ok(rooks);
    }
    let err = || FenError::Castling(field.into());
    if field.len() > 8 {
        return Err(err());
    }
    for ch in field.chars() {
        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = variant.castling_rank_of(color);
        let own_rook = Some(Piece::new(color, Role::Rook));
        let king_file = (0..variant.width)
            .find(|&f| setup.board[Square::new(f, rank).index()] == Some(Piece::new(color, Role::King)))
            .ok_or_else(err)?;
        let rook_at = |f: u8| setup.board[Square::new(f, rank).index()] == own_rook;
        let file = match ch.to_ascii_lowercase() {
            'k' => (king_file + 1..variant.width).rev().find(|&f| rook_at(f)),
            'q' => (0..king_file).find(|&f| rook_at(f)),
            c @ 'a'..='j' => Some(c as u8 - b'a').filter(|&f| f < variant.width && rook_at(f)),
            _ => None,
        }
        .ok_or_else(err)?;
        rooks.set(Square::new(file, rank));
    }
    Ok(rooks)
}

/// Reads and checks a FEN.
pub fn parse_position(variant: &'static Variant, fen: &str) -> Result<Position, FenError> {
    let setup = parse(variant, fen)?;
    Ok(Position::from_setup(variant, &setup)?)
}

/// The board field only.
pub fn write_board(pos: &Position) -> String {
    let v = pos.variant();
    let mut out = String::with_capacity(120);
    for rank in (0..v.height).rev() {
        let mut empty = 0;
        for file in 0..v.width {
            let sq = Square::new(file, rank);
            let ch = if let Some(p) = pos.piece_at(sq) {
                Some(p.fen_char())
            } else if pos.irradiated().contains(sq) {
                Some('*')
            } else {
                None
            };
            match ch {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// The castling field.
pub fn write_castling(pos: &Position) -> String {
    let v = pos.variant();
    let mut out = String::new();
    for color in Color::ALL {
        let rank = v.castling_rank_of(color);
        let rooks = pos.castling_rooks() & Bitboard::rank(rank);
        let Some(king) = pos.king(color) else { continue };
        let mut letters: Vec<char> = Vec::new();
        let own_rooks = pos.pieces(color, Role::Rook) & Bitboard::rank(rank);
        match v.fen_castling {
            FenCastling::ShredderFileOrder => {
                for r in rooks {
                    letters.push(r.file_char());
                }
            }
            FenCastling::Shredder => {
                let mut sorted: Vec<Square> = rooks.collect();
                sorted.sort_by_key(|s| std::cmp::Reverse(s.file()));
                letters.extend(sorted.iter().map(|s| s.file_char()));
            }
            FenCastling::Standard => {
                // King side first, then queen side; a file letter where an outer rook would be meant.
                let mut sorted: Vec<Square> = rooks.collect();
                sorted.sort_by_key(|s| std::cmp::Reverse(s.file()));
                for r in sorted {
                    let kingside = r.file() > king.file();
                    let outermost = if kingside {
                        own_rooks.filter(|s| s.file() > r.file()).count() == 0
                    } else {
                        own_rooks.filter(|s| s.file() < r.file()).count() == 0
                    };
                    letters.push(match (kingside, outermost) {
                        (true, true) => 'k',
                        (false, true) => 'q',
                        _ => r.file_char(),
                    });
                }
            }
        }
        for c in letters {
            out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
        }
    }
    if out.is_empty() { "-".into() } else { out }
}

/// Writes the FEN of a position.
pub fn write(pos: &Position) -> String {
    let mut out = write_board(pos);
    out.push(' ');
    out.push(pos.turn().fen_char());
    out.push(' ');
    out.push_str(&write_castling(pos));
    out.push(' ');
    // Fairy-Stockfish writes the square whenever an enemy pawn stands ready to take; Capatomic writes
    // it only when the capture is legal (C16), and its positions keep it only then.
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(" {} {}", pos.halfmoves(), pos.fullmoves()));
    if pos.variant().missiles {
        out.push(' ');
        let squares: Vec<String> = pos.missile_rights().map(|s| s.to_string()).collect();
        out.push_str(if squares.is_empty() { "-" } else { "" });
        out.push_str(&squares.join(","));
        out.push_str(if pos.armed() { " +" } else { " -" });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{CAPATOMIC, CHESS, VARIANTS};

    #[test]
    fn start_positions_round_trip() {
        for v in VARIANTS {
            let pos = Position::start(v);
            assert_eq!(write(&pos), v.start_fen, "{}", v.name);
        }
    }

    #[test]
    fn capatomic_fields() {
        let fen = "4m1m3/rnbqckabnr/pppppppppp/10/4*5/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 1 e1,g1 +";
        let pos = parse_position(&CAPATOMIC, fen).unwrap();
        assert!(pos.armed());
        assert_eq!(pos.irradiated().count(), 1);
        assert_eq!(write(&pos), fen);
        // The two extra fields may be omitted.
        let short = "4m1m3/rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 1";
        let pos = parse_position(&CAPATOMIC, short).unwrap();
        assert!(!pos.armed() && pos.missile_rights().is_empty());
    }

    #[test]
    fn errors_name_the_field() {
        let bad = [
            ("", FenError::Empty),
            ("8/8/8/8/8/8/8 w - - 0 1", FenError::RankCount { expected: 8, found: 7 }),
            ("9/8/8/8/8/8/8/8 w - - 0 1", FenError::RankWidth { rank: 8, expected: 8, found: 9 }),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", FenError::Turn("x".into())),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", FenError::Fullmoves("0".into())),
        ];
        for (fen, err) in bad {
            assert_eq!(parse_position(&CHESS, fen).unwrap_err(), err, "{fen}");
        }
        assert!(matches!(
            parse_position(&CHESS, "8/8/8/8/8/8/8/8 w - - 0 1"),
            Err(FenError::Position(PositionError::KingCount { .. }))
        ));
        assert!(parse_position(&CHESS, "4k3/8/8/8/8/8/8/4K2R w Q - 0 1").is_err());
    }
}

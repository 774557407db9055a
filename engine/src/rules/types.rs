//! Basic value types of the rules engine: colours, piece roles, pieces and squares.
//!
//! Squares use one fixed layout for every board size: `index = rank * 10 + file`, so a square means the
//! same thing on an 8×8, 10×8 or 10×10 board and notation never needs to know the board to name one.

use std::fmt;

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"white"` or `"black"`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `'w'` or `'b'`, as in FEN.
    pub fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a piece is, independent of its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
    /// Bishop + knight.
    Archbishop = 6,
    /// Rook + knight.
    Chancellor = 7,
    /// Capatomic's missile: steps like a king, may be launched.
    Missile = 8,
}

impl Role {
    pub const COUNT: usize = 9;
    pub const ALL: [Role; 9] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
        Role::Archbishop,
        Role::Chancellor,
        Role::Missile,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Upper-case letter used in SAN and (for White) in FEN.
    pub fn upper_char(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
            Role::Archbishop => 'A',
            Role::Chancellor => 'C',
            Role::Missile => 'M',
        }
    }

    /// Lower-case letter, as in coordinate promotions (`e7e8q`).
    pub fn lower_char(self) -> char {
        self.upper_char().to_ascii_lowercase()
    }

    /// Role from a letter of either case.
    pub fn from_char(c: char) -> Option<Role> {
        Some(match c.to_ascii_uppercase() {
            'P' => Role::Pawn,
            'N' => Role::Knight,
            'B' => Role::Bishop,
            'R' => Role::Rook,
            'Q' => Role::Queen,
            'K' => Role::King,
            'A' => Role::Archbishop,
            'C' => Role::Chancellor,
            'M' => Role::Missile,
            _ => return None,
        })
    }

    /// English name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
            Role::Archbishop => "archbishop",
            Role::Chancellor => "chancellor",
            Role::Missile => "missile",
        }
    }
}

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// FEN letter: upper case for White, lower case for Black.
    pub fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.lower_char(),
        }
    }

    /// Piece from a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece { color, role })
    }
}

/// A square on a board of at most 10×10. Index `rank * 10 + file`, both counted from 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of square indices (10×10).
    pub const COUNT: usize = 100;
    /// Files and ranks never exceed this.
    pub const MAX_SIDE: u8 = 10;

    /// Square from file and rank (0-based). Panics in debug builds on out-of-range input; use
    /// [`Square::try_new`] for untrusted values.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 10 && rank < 10);
        Square(rank * 10 + file)
    }

    pub fn try_new(file: i32, rank: i32) -> Option<Square> {
        if (0..10).contains(&file) && (0..10).contains(&rank) { Some(Square((rank * 10 + file) as u8)) } else { None }
    }

    /// Square from its index `0..100`.
    #[inline]
    pub const fn from_index(i: usize) -> Square {
        debug_assert!(i < 100);
        Square(i as u8)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 10
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 10
    }

    /// The square `df` files and `dr` ranks away, if it exists on a 10×10 grid.
    pub fn offset(self, df: i32, dr: i32) -> Option<Square> {
        Square::try_new(self.file() as i32 + df, self.rank() as i32 + dr)
    }

    /// The same file on another rank.
    pub fn with_rank(self, rank: u8) -> Square {
        Square::new(self.file(), rank)
    }

    /// The same rank on another file.
    pub fn with_file(self, file: u8) -> Square {
        Square::new(file, self.rank())
    }

    /// Whether the square is dark (`a1` is dark).
    pub fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// Chebyshev distance (king steps).
    pub fn distance(self, other: Square) -> u8 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        df.max(dr) as u8
    }

    /// Parses `a1` … `j10` (lower or upper case file letter).
    pub fn parse(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?.to_ascii_lowercase();
        if !('a'..='j').contains(&f) {
            return None;
        }
        let rest = chars.as_str();
        if rest.is_empty() || rest.len() > 2 || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.starts_with('0') {
            return None;
        }
        let r: u8 = rest.parse().ok()?;
        if !(1..=10).contains(&r) {
            return None;
        }
        Some(Square::new(f as u8 - b'a', r - 1))
    }

    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for i in 0..100 {
            let sq = Square::from_index(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("j10"), Some(Square::new(9, 9)));
        for bad in ["", "a", "a0", "a11", "k1", "a01", "a1x", "1a", "a-1"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
        assert!(Square::parse("a1").unwrap().is_dark());
        assert!(!Square::parse("b1").unwrap().is_dark());
    }
}

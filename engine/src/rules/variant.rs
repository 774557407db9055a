//! Variants as data: one record of rule fields per variant, read by the one generic move generator.
//!
//! Each built-in variant is a short override of a parent record (`CHESS`, `CAPABLANCA`), the way
//! Fairy-Stockfish describes its variants.

use super::bitboard::Bitboard;
use super::types::{Color, Role, Square};

/// Where the start positions of a variant come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupKind {
    /// One fixed array.
    Fixed,
    /// Capablanca Random Chess: 21,836 shuffled back ranks.
    CapaRandom,
    /// Capablanca Relocation Chess: Capablanca's array with a pre-game king/queen swap, 12 per side.
    Relocation,
    /// Capatomic Random Chess: the Capablanca Random ranks on rank 2, missiles behind the king.
    CapatomicRandom,
}

/// Which of the AI's evaluation tables plays a variant: variants that play alike share one table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalFamily {
    /// 8×8 chess.
    Standard,
    /// The 10×8 boards with archbishops and chancellors (Capablanca, its random and relocation forms,
    /// Stone's chess).
    Capablanca,
    /// Atomic chess: captures explode.
    Atomic,
    /// Capatomic: 10×10 with missiles.
    Capatomic,
}

/// How castling is written as a coordinate move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingNotation {
    /// `e1g1`: king to its destination (fixed arrays).
    KingToDestination,
    /// `f1j1`: king onto its own rook (random setups).
    KingOntoRook,
}

/// How the FEN castling field is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenCastling {
    /// `KQkq` (X-FEN: a file letter only where the outermost rook is not the one meant).
    Standard,
    /// `JAja`: rook files, king side first for each colour (as Fairy-Stockfish writes them).
    Shredder,
    /// `AJaj`: rook files in file order (Capatomic, C16).
    ShredderFileOrder,
}

/// One variant's rules.
#[derive(Debug)]
pub struct Variant {
    /// UCI_Variant name, as Fairy-Stockfish spells it.
    pub name: &'static str,
    pub display_name: &'static str,
    pub width: u8,
    pub height: u8,
    /// The default start position (Fairy-Stockfish's `startpos`), as notation writes it.
    pub start_fen: &'static str,
    /// White's back rank in the default start position, from file a, one role per file; Black mirrors it.
    /// The rules build the start position from it ([`super::setups::setup_from_ranks`]: pawns on the pawn
    /// ranks, every rook may castle, missiles behind the king); it agrees with `start_fen`.
    pub start_rank: &'static [Role],
    /// Where the start positions come from (one fixed array or a numbered list).
    pub setups: SetupKind,
    /// The AI's evaluation table for this variant.
    pub eval_family: EvalFamily,
    /// The value of PGN's `Variant` tag; `None` for standard chess, which has no such tag. Where
    /// other programs know the variant, their name (lichess's `Atomic`; Fairy-Stockfish's, as
    /// PyChess and XBoard write them: `Capablanca`, `Caparandom`, `Nocheckatomic`), so that they
    /// import the record; else the full name.
    pub pgn_variant: Option<&'static str>,
    /// Pieces that exist in the variant (promotion, parsing, rendering).
    pub roles: &'static [Role],
    pub promotion_roles: &'static [Role],
    /// White's promotion rank (0-based); Black's is mirrored.
    pub promotion_rank: u8,
    /// White's pawn start rank (0-based), from which the double step is allowed.
    pub pawn_rank: u8,
    /// White's castling rank (0-based).
    pub castling_rank: u8,
    /// King destination files for (king side, queen side) castling.
    pub castle_king_files: [u8; 2],
    /// Rook destination files for (king side, queen side) castling.
    pub castle_rook_files: [u8; 2],
    pub castling_notation: CastlingNotation,
    pub fen_castling: FenCastling,
    /// Atomic: captures explode.
    pub atomic: bool,
    /// Capatomic: missiles can launch, radiation, shields, the armed flag.
    pub missiles: bool,
    /// Whether check exists. `false` (no-check atomic): no move is refused for leaving the king attacked,
    /// castling ignores attacked squares, a king may be captured (the capture explodes it) and there is
    /// no checkmate; a king still never captures.
    pub check: bool,
    /// Atomic death match: a capture that explodes both kings is legal, and the game goes on without
    /// kings until one side has no material left.
    pub death_match: bool,
    /// Atomic: a capture made by a pawn explodes (`false`: it is an ordinary capture).
    pub pawn_captures_explode: bool,
    /// Atomic: pawns around an explosion are destroyed too (lichess atomic: they survive).
    pub blast_kills_pawns: bool,
    /// Secret-bomb chess: each side may have one bomb piece (not the king) that it may detonate instead
    /// of moving; captures do not explode.
    pub bombs: bool,
}

// Back-rank letters for the start ranks below.
const R: Role = Role::Rook;
const N: Role = Role::Knight;
const B: Role = Role::Bishop;
const Q: Role = Role::Queen;
const K: Role = Role::King;
const A: Role = Role::Archbishop;
const C: Role = Role::Chancellor;

const CHESS_ROLES: &[Role] = &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];
const CAPA_ROLES: &[Role] =
    &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King, Role::Archbishop, Role::Chancellor];
const STONES_ROLES: &[Role] =
    &[Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King, Role::Archbishop];
const CAPATOMIC_ROLES: &[Role] = &Role::ALL;

pub static CHESS: Variant = Variant {
    name: "chess",
    display_name: "Chess",
    width: 8,
    height: 8,
    start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    start_rank: &[R, N, B, Q, K, B, N, R],
    setups: SetupKind::Fixed,
    eval_family: EvalFamily::Standard,
    pgn_variant: None,
    roles: CHESS_ROLES,
    promotion_roles: &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight],
    promotion_rank: 7,
    pawn_rank: 1,
    castling_rank: 0,
    castle_king_files: [6, 2],
    castle_rook_files: [5, 3],
    castling_notation: CastlingNotation::KingToDestination,
    fen_castling: FenCastling::Standard,
    atomic: false,
    missiles: false,
    check: true,
    death_match: false,
    pawn_captures_explode: true,
    blast_kills_pawns: false,
    bombs: false,
};

pub static CAPABLANCA: Variant = Variant {
    name: "capablanca",
    display_name: "Capablanca Chess",
    width: 10,
    height: 8,
    start_fen: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    start_rank: &[R, N, A, B, Q, K, B, C, N, R],
    eval_family: EvalFamily::Capablanca,
    pgn_variant: Some("Capablanca"),
    roles: CAPA_ROLES,
    promotion_roles: &[Role::Queen, Role::Chancellor, Role::Archbishop, Role::Rook, Role::Bishop, Role::Knight],
    castle_king_files: [8, 2],
    castle_rook_files: [7, 3],
    ..CHESS
};

pub static CAPARANDOM: Variant = Variant {
    name: "caparandom",
    display_name: "Capablanca Random Chess",
    start_fen: "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w JAja - 0 1",
    setups: SetupKind::CapaRandom,
    pgn_variant: Some("Caparandom"),
    castling_notation: CastlingNotation::KingOntoRook,
    fen_castling: FenCastling::Shredder,
    ..CAPABLANCA
};

pub static CAPARELOCATION: Variant = Variant {
    name: "caparelocation",
    display_name: "Capablanca Relocation Chess",
    setups: SetupKind::Relocation,
    pgn_variant: Some("Capablanca Relocation Chess"),
    ..CAPARANDOM
};

pub static STONES: Variant = Variant {
    name: "stones",
    display_name: "Stone's Chess",
    start_fen: "rnabqkbanr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBANR w KQkq - 0 1",
    start_rank: &[R, N, A, B, Q, K, B, A, N, R],
    pgn_variant: Some("Stone's Chess"),
    roles: STONES_ROLES,
    promotion_roles: &[Role::Queen, Role::Archbishop, Role::Rook, Role::Bishop, Role::Knight],
    ..CAPABLANCA
};

pub static ATOMIC: Variant = Variant {
    name: "atomic",
    display_name: "Atomic Chess",
    eval_family: EvalFamily::Atomic,
    pgn_variant: Some("Atomic"),
    atomic: true,
    ..CHESS
};

pub static CAPATOMIC: Variant = Variant {
    name: "capatomic",
    display_name: "Capatomic Random Chess",
    width: 10,
    height: 10,
    start_fen: "4m1m3/rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -",
    start_rank: &[R, N, B, Q, C, K, A, B, N, R],
    setups: SetupKind::CapatomicRandom,
    eval_family: EvalFamily::Capatomic,
    pgn_variant: Some("Capatomic Random Chess"),
    roles: CAPATOMIC_ROLES,
    promotion_roles: &[
        Role::Queen,
        Role::Chancellor,
        Role::Archbishop,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Missile,
    ],
    promotion_rank: 8,
    pawn_rank: 2,
    castling_rank: 1,
    castling_notation: CastlingNotation::KingOntoRook,
    fen_castling: FenCastling::ShredderFileOrder,
    missiles: true,
    ..CAPABLANCA
};

pub static ATOMIC_NOCHECK: Variant = Variant {
    name: "atomic-nocheck",
    display_name: "No-Check Atomic Chess",
    pgn_variant: Some("Nocheckatomic"),
    check: false,
    ..ATOMIC
};

pub static ATOMIC_DEATHMATCH: Variant = Variant {
    name: "atomic-deathmatch",
    display_name: "Death-Match Atomic Chess",
    pgn_variant: Some("Death-Match Atomic Chess"),
    death_match: true,
    ..ATOMIC
};

pub static ATOMIC_PAWNSAFE: Variant = Variant {
    name: "atomic-pawnsafe",
    display_name: "Pawn-Safe Atomic Chess",
    pgn_variant: Some("Pawn-Safe Atomic Chess"),
    pawn_captures_explode: false,
    blast_kills_pawns: true,
    ..ATOMIC
};

pub static BOMB: Variant = Variant {
    name: "bomb",
    display_name: "Secret-Bomb Chess",
    pgn_variant: Some("Secret-Bomb Chess"),
    bombs: true,
    ..CHESS
};

/// Every variant, in display order.
pub static VARIANTS: [&Variant; 11] = [
    &CHESS,
    &CAPABLANCA,
    &CAPARANDOM,
    &CAPARELOCATION,
    &STONES,
    &ATOMIC,
    &ATOMIC_NOCHECK,
    &ATOMIC_DEATHMATCH,
    &ATOMIC_PAWNSAFE,
    &BOMB,
    &CAPATOMIC,
];

impl Variant {
    /// Looks a variant up by its name (case-insensitive; a few common aliases accepted).
    pub fn by_name(name: &str) -> Option<&'static Variant> {
        let n = name.trim().to_ascii_lowercase();
        let n = match n.as_str() {
            "standard" | "std" | "classical" | "normal" => "chess",
            "capa" => "capablanca",
            "crc" | "capablancarandom" | "capablanca-random" | "capablanca_random" => "caparandom",
            "relocation" | "capablancarelocation" | "capablanca-relocation" => "caparelocation",
            "stone" | "stone's" | "stoneschess" | "stones-chess" => "stones",
            "capatomicrandom" | "capatomic-random" | "capatomic_random" => "capatomic",
            "nocheck" | "atomicnocheck" | "atomic_nocheck" | "nocheckatomic" | "icc-atomic" => "atomic-nocheck",
            "deathmatch" | "atomicdeathmatch" | "atomic_deathmatch" | "death-match" => "atomic-deathmatch",
            "pawnsafe" | "atomicpawnsafe" | "atomic_pawnsafe" | "pawn-safe" => "atomic-pawnsafe",
            "secretbomb" | "secret-bomb" | "bombchess" | "bomb-chess" => "bomb",
            other => other,
        };
        VARIANTS.iter().copied().find(|v| v.name == n)
    }

    /// All squares on this board.
    #[inline]
    pub fn board(&self) -> Bitboard {
        const B8X8: Bitboard = board_mask(8, 8);
        const B10X8: Bitboard = board_mask(10, 8);
        const B10X10: Bitboard = board_mask(10, 10);
        match (self.width, self.height) {
            (8, 8) => B8X8,
            (10, 8) => B10X8,
            (10, 10) => B10X10,
            (w, h) => board_mask(w, h),
        }
    }

    pub fn contains(&self, sq: Square) -> bool {
        sq.file() < self.width && sq.rank() < self.height
    }

    /// Rank index seen from `color`'s side (`rank` given from White's side).
    pub fn relative_rank(&self, color: Color, rank: u8) -> u8 {
        match color {
            Color::White => rank,
            Color::Black => self.height - 1 - rank,
        }
    }

    pub fn promotion_rank_of(&self, color: Color) -> u8 {
        self.relative_rank(color, self.promotion_rank)
    }

    pub fn pawn_rank_of(&self, color: Color) -> u8 {
        self.relative_rank(color, self.pawn_rank)
    }

    pub fn castling_rank_of(&self, color: Color) -> u8 {
        self.relative_rank(color, self.castling_rank)
    }

    /// The rank behind the castling rank, where Capatomic's missiles start.
    pub fn missile_rank_of(&self, color: Color) -> Option<u8> {
        if !self.missiles {
            return None;
        }
        match color {
            Color::White => self.castling_rank.checked_sub(1),
            Color::Black => Some(self.height - self.castling_rank),
        }
    }

    pub fn has_role(&self, role: Role) -> bool {
        self.roles.contains(&role)
    }

    /// Whether this variant's start positions are chosen from a numbered list.
    pub fn has_setups(&self) -> bool {
        self.setups != SetupKind::Fixed
    }
}

/// The squares of a `width` × `height` board on the 10×10 grid.
pub const fn board_mask(width: u8, height: u8) -> Bitboard {
    let mut bb = 0u128;
    let mut r = 0;
    while r < height {
        let mut f = 0;
        while f < width {
            bb |= 1u128 << (r as u32 * 10 + f as u32);
            f += 1;
        }
        r += 1;
    }
    Bitboard(bb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for v in VARIANTS {
            assert_eq!(Variant::by_name(v.name).map(|x| x.name), Some(v.name));
            assert_eq!(VARIANTS.iter().filter(|w| w.name == v.name).count(), 1);
        }
        assert!(Variant::by_name("nope").is_none());
        assert_eq!(Variant::by_name("CRC").unwrap().name, "caparandom");
    }

    #[test]
    fn start_ranks_fill_the_board_with_the_variant_s_pieces() {
        for v in VARIANTS {
            assert_eq!(v.start_rank.len(), v.width as usize, "{}", v.name);
            assert!(v.start_rank.iter().all(|&r| v.has_role(r)), "{}", v.name);
            assert_eq!(v.start_rank.iter().filter(|&&r| r == Role::King).count(), 1, "{}", v.name);
        }
    }

    #[test]
    fn derived_ranks() {
        assert_eq!(CAPATOMIC.promotion_rank_of(Color::Black), 1);
        assert_eq!(CAPATOMIC.pawn_rank_of(Color::Black), 7);
        assert_eq!(CAPATOMIC.castling_rank_of(Color::Black), 8);
        assert_eq!(CAPATOMIC.missile_rank_of(Color::Black), Some(9));
        assert_eq!(CAPATOMIC.missile_rank_of(Color::White), Some(0));
        assert_eq!(CHESS.missile_rank_of(Color::White), None);
        assert_eq!(CAPABLANCA.board().count(), 80);
    }
}

//! Numbered start positions: Capablanca Random Chess (21,836 back ranks), Capablanca Relocation Chess
//! (12 × 12 swaps) and Capatomic Random Chess (the Capablanca Random ranks on rank 2, C2).
//!
//! **Order.** Random setups are numbered by the alphabetical order of their back rank written from file
//! a to file j with the letters A B C K N Q R (so setup 0 is `ABNRKQBCNR`-like and the order never
//! changes). Relocation setup `N` is Black's swap `N / 12` followed by White's swap `N % 12`, with the
//! swaps numbered as in [`RELOCATION_SWAPS`].

use super::bitboard::Bitboard;
use super::position::{Position, Setup};
use super::types::{Color, Piece, Role, Square};
use super::variant::{SetupKind, Variant};
use rand::{Rng, RngExt};
use std::sync::OnceLock;

/// A back rank, file a to file j.
pub type BackRank = [Role; 10];

const CAPA_ARRAY: BackRank = [
    Role::Rook,
    Role::Knight,
    Role::Archbishop,
    Role::Bishop,
    Role::Queen,
    Role::King,
    Role::Bishop,
    Role::Chancellor,
    Role::Knight,
    Role::Rook,
];

/// Whether a back rank follows the Capablanca Random rules: bishops on opposite colours, queen and
/// archbishop on opposite colours, king between the rooks, every pawn in front defended by a piece.
pub fn is_valid_random_rank(rank: &BackRank) -> bool {
    let files_of = |role: Role| (0..10u8).filter(move |&f| rank[f as usize] == role);
    // File f on the first rank is dark when f is even (a1 dark).
    let bishops: Vec<u8> = files_of(Role::Bishop).collect();
    let queen: Vec<u8> = files_of(Role::Queen).collect();
    let archbishop: Vec<u8> = files_of(Role::Archbishop).collect();
    match (bishops.as_slice(), queen.as_slice(), archbishop.as_slice()) {
        ([b1, b2], [q], [a]) if b1 % 2 != b2 % 2 && q % 2 != a % 2 => {}
        _ => return false,
    }
    let rooks: Vec<u8> = files_of(Role::Rook).collect();
    let Some(king) = files_of(Role::King).next() else { return false };
    if rooks.len() != 2 || !(rooks[0] < king && king < rooks[1]) {
        return false;
    }
    (0..10i32).all(|pawn| {
        (0..10i32).any(|f| {
            let d = (pawn - f).abs();
            match rank[f as usize] {
                Role::Rook => d == 0,
                Role::Bishop => d == 1,
                Role::Knight => d == 2,
                Role::Queen | Role::King => d <= 1,
                Role::Archbishop => d == 1 || d == 2,
                Role::Chancellor => d == 0 || d == 2,
                _ => false,
            }
        })
    })
}

/// Every valid random back rank, in the documented order.
pub fn random_ranks() -> &'static [BackRank] {
    static RANKS: OnceLock<Vec<BackRank>> = OnceLock::new();
    RANKS.get_or_init(|| {
        let mut pieces = CAPA_ARRAY;
        pieces.sort_by_key(|r| r.upper_char());
        let mut out = Vec::new();
        // Distinct permutations in lexicographic order of the letters.
        loop {
            if is_valid_random_rank(&pieces) {
                out.push(pieces);
            }
            if !next_permutation(&mut pieces) {
                break;
            }
        }
        out
    })
}

fn next_permutation(a: &mut BackRank) -> bool {
    let key = |r: &Role| r.upper_char();
    let n = a.len();
    let Some(i) = (0..n - 1).rev().find(|&i| key(&a[i]) < key(&a[i + 1])) else { return false };
    let j = (i + 1..n).rev().find(|&j| key(&a[j]) > key(&a[i])).unwrap_or(i + 1);
    a.swap(i, j);
    a[i + 1..].reverse();
    true
}

/// The relocation swaps: `(moved piece's file, other piece's file)`, first entry = no swap.
pub const RELOCATION_SWAPS: [(u8, u8); 12] =
    [(5, 5), (5, 1), (5, 2), (5, 3), (5, 4), (5, 7), (5, 8), (4, 1), (4, 2), (4, 6), (4, 7), (4, 8)];

/// A readable name for a relocation swap, such as `K<->N (b)` or `no swap`.
pub fn relocation_swap_name(index: usize) -> String {
    let Some(&(a, b)) = RELOCATION_SWAPS.get(index) else { return "?".into() };
    if a == b {
        return "no swap".into();
    }
    format!(
        "{}<->{} ({})",
        CAPA_ARRAY[a as usize].upper_char(),
        CAPA_ARRAY[b as usize].upper_char(),
        (b'a' + b) as char
    )
}

/// Parses a swap as typed in chat: `none`, `K b` / `Kb1` / `king b` (the piece on file b), `KQ`, `Q-C`
/// (upper case: a piece letter, when unambiguous), `q<->h`.
pub fn parse_relocation_swap(input: &str) -> Option<usize> {
    read_relocation_swap(input).ok()
}

/// Why a swap as typed is not one of the twelve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SwapRefusal {
    /// Not a swap's shape: no king or queen first, or no single file or piece letter after it.
    Unreadable,
    /// A rook (file a or j, or `R`): the rules swap any other piece, never a rook.
    Rook,
    /// The king's or queen's own file (`K f`, `QQ`): nothing to swap with.
    OwnFile { king: bool },
    /// The bishop whose move would put both bishops on one colour (`K g`, `Q d`).
    BishopsOneColour { king: bool, file: u8 },
    /// Two pieces of the kind named (`KN`: the knights on b and i): name the file.
    Ambiguous { king: bool, files: [u8; 2] },
}

/// Reads a swap as [`parse_relocation_swap`] does, saying why one is refused: the rules' reason for
/// a swap they forbid, apart from text that is no swap at all.
pub fn read_relocation_swap(input: &str) -> Result<usize, SwapRefusal> {
    let s: String = input.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    let lower = s.to_ascii_lowercase();
    if matches!(lower.as_str(), "none" | "no" | "noswap" | "pass" | "0") {
        return Ok(0);
    }
    // Upper case after the king/queen letter names a piece (KB = king and bishop); lower case names a
    // file (K b = king and the piece on b).
    let s = s.replace("king", "K").replace("King", "K").replace("queen", "Q").replace("Queen", "Q");
    let mut chars = s.chars();
    let who = match chars.next().map(|c| c.to_ascii_lowercase()) {
        Some('k') => 5u8,
        Some('q') => 4u8,
        _ => return Err(SwapRefusal::Unreadable),
    };
    let king = who == 5;
    let rest: String = chars.collect();
    let rest = rest.strip_suffix('1').unwrap_or(&rest);
    let mut rc = rest.chars();
    let (Some(c), None) = (rc.next(), rc.next()) else { return Err(SwapRefusal::Unreadable) };
    let by_file = c.is_ascii_lowercase() && ('a'..='j').contains(&c);
    // The files the text names (one by its file; by a piece letter, every file with that piece).
    let named: Vec<u8> = (0..10u8)
        .filter(|&f| {
            if by_file { f == c as u8 - b'a' } else { CAPA_ARRAY[f as usize].upper_char() == c.to_ascii_uppercase() }
        })
        .collect();
    let swap_with = |other: u8| {
        (1..12).find(|&i| {
            let (a, b) = RELOCATION_SWAPS[i];
            (a == who && b == other) || (b == who && a == other)
        })
    };
    let allowed: Vec<usize> = named.iter().filter_map(|&f| swap_with(f)).collect();
    match (allowed.as_slice(), named.as_slice()) {
        ([one], _) => Ok(*one),
        ([_, _], &[a, b]) => Err(SwapRefusal::Ambiguous { king, files: [a, b] }),
        (_, []) => Err(SwapRefusal::Unreadable),
        _ if named.iter().all(|&f| CAPA_ARRAY[f as usize] == Role::Rook) => Err(SwapRefusal::Rook),
        _ if named.contains(&who) => Err(SwapRefusal::OwnFile { king }),
        // What is left of the array's pieces is the bishop that would share its partner's colour.
        _ => Err(SwapRefusal::BishopsOneColour { king, file: named[0] }),
    }
}

/// The relocated back rank for one swap.
pub fn relocated_rank(swap: usize) -> Option<BackRank> {
    let &(a, b) = RELOCATION_SWAPS.get(swap)?;
    let mut rank = CAPA_ARRAY;
    rank.swap(a as usize, b as usize);
    Some(rank)
}

/// How many numbered setups a variant has (1 for a fixed array).
pub fn count(variant: &Variant) -> usize {
    match variant.setups {
        SetupKind::Fixed => 1,
        SetupKind::CapaRandom | SetupKind::CapatomicRandom => random_ranks().len(),
        SetupKind::Relocation => 144,
    }
}

/// The start position of setup `index`.
pub fn position(variant: &'static Variant, index: usize) -> Option<Position> {
    let (white, black) = match variant.setups {
        SetupKind::Fixed => {
            return (index == 0).then(|| Position::start(variant));
        }
        SetupKind::CapaRandom | SetupKind::CapatomicRandom => {
            let r = *random_ranks().get(index)?;
            (r, r)
        }
        SetupKind::Relocation => {
            if index >= 144 {
                return None;
            }
            (relocated_rank(index % 12)?, relocated_rank(index / 12)?)
        }
    };
    Position::from_setup(variant, &setup_from_ranks(variant, &white, &black)).ok()
}

/// The index of the standard Capablanca array among relocation setups (0) or, for random variants,
/// the setup whose back rank equals `rank`.
pub fn index_of_rank(variant: &Variant, rank: &BackRank) -> Option<usize> {
    match variant.setups {
        SetupKind::CapaRandom | SetupKind::CapatomicRandom => random_ranks()
            .binary_search_by(|r| r.iter().map(|x| x.upper_char()).cmp(rank.iter().map(|x| x.upper_char())))
            .ok(),
        _ => None,
    }
}

/// A random setup index drawn from `rng`.
pub fn random_index<R: Rng + ?Sized>(variant: &Variant, rng: &mut R) -> usize {
    rng.random_range(0..count(variant))
}

/// A start of `variant`: one of its setups drawn from `rng` where it has several, its one start where
/// it has not (drawing nothing then, so a seeded sequence of games stays as it was).
pub fn random_start<R: Rng + ?Sized>(variant: &'static Variant, rng: &mut R) -> Position {
    match variant.has_setups() {
        true => position(variant, random_index(variant, rng)).expect("an index below the count is a setup"),
        false => Position::start(variant),
    }
}

/// Builds the start setup from White's and Black's back ranks (Black's given from file a too, one role per
/// file of the board): pawns fill the pawn ranks, every rook may castle, and where the variant has
/// missiles they stand behind the king on both sides of its file.
pub fn setup_from_ranks(variant: &Variant, white: &[Role], black: &[Role]) -> Setup {
    let mut s = Setup::empty();
    for color in Color::ALL {
        let back = if color == Color::White { white } else { black };
        let rank = variant.castling_rank_of(color);
        let pawn_rank = variant.pawn_rank_of(color);
        for f in 0..variant.width {
            let sq = Square::new(f, rank);
            s.board[sq.index()] = Some(Piece::new(color, back[f as usize]));
            if back[f as usize] == Role::Rook {
                s.castling_rooks.set(sq);
            }
            s.board[Square::new(f, pawn_rank).index()] = Some(Piece::new(color, Role::Pawn));
        }
        if let (Some(mrank), Some(kf)) = (variant.missile_rank_of(color), back.iter().position(|&r| r == Role::King)) {
            for df in [-1i32, 1] {
                let sq = Square::new((kf as i32 + df) as u8, mrank);
                s.board[sq.index()] = Some(Piece::new(color, Role::Missile));
                s.missile_rights.set(sq);
            }
        }
    }
    s.irradiated = Bitboard::EMPTY;
    s
}

/// Back rank as letters, e.g. `RNBQCKABNR`.
pub fn rank_string(rank: &BackRank) -> String {
    rank.iter().map(|r| r.upper_char()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{CAPARANDOM, CAPARELOCATION, CAPATOMIC};

    #[test]
    fn crc_has_21836_setups() {
        assert_eq!(random_ranks().len(), 21_836);
        assert_eq!(count(&CAPARANDOM), 21_836);
        assert_eq!(count(&CAPATOMIC), 21_836);
        // Sorted and distinct: the numbering is stable.
        let strings: Vec<String> = random_ranks().iter().map(rank_string).collect();
        assert!(strings.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn capablanca_array_is_not_valid_but_capatomic_default_is() {
        // Capablanca's own array leaves the i-pawn undefended (C16).
        assert!(!is_valid_random_rank(&CAPA_ARRAY));
        let r = "RNBQCKABNR".chars().map(|c| Role::from_char(c).unwrap()).collect::<Vec<_>>();
        let r: BackRank = r.try_into().unwrap();
        assert!(is_valid_random_rank(&r));
        assert!(index_of_rank(&CAPATOMIC, &r).is_some());
    }

    #[test]
    fn relocation_has_144_distinct_setups() {
        assert_eq!(count(&CAPARELOCATION), 144);
        let mut fens = std::collections::HashSet::new();
        for i in 0..144 {
            let p = position(&CAPARELOCATION, i).expect("valid");
            fens.insert(format!("{p:?}"));
        }
        assert_eq!(fens.len(), 144);
        assert!(position(&CAPARELOCATION, 144).is_none());
        // Bishops stay on opposite colours in every swap.
        for i in 0..12 {
            let r = relocated_rank(i).unwrap();
            let b: Vec<usize> = (0..10).filter(|&f| r[f] == Role::Bishop).collect();
            assert_ne!(b[0] % 2, b[1] % 2, "swap {i}");
        }
    }

    #[test]
    fn swaps_parse() {
        assert_eq!(parse_relocation_swap("none"), Some(0));
        assert_eq!(parse_relocation_swap("K b"), Some(1));
        assert_eq!(parse_relocation_swap("Kb1"), Some(1));
        assert_eq!(parse_relocation_swap("king c"), Some(2));
        assert_eq!(parse_relocation_swap("KQ"), Some(4));
        assert_eq!(parse_relocation_swap("QK"), Some(4));
        assert_eq!(parse_relocation_swap("Q-C"), Some(10));
        assert_eq!(parse_relocation_swap("KN"), None, "two knights: ambiguous");
        assert_eq!(parse_relocation_swap("Kg"), None, "bishops would share a colour");
        assert_eq!(parse_relocation_swap("zz"), None);
    }

    #[test]
    fn forbidden_swaps_say_why() {
        use SwapRefusal as R;
        for typed in ["K a", "K j", "Q a", "Qj1", "KR", "q-r"] {
            assert_eq!(read_relocation_swap(typed), Err(R::Rook), "{typed}");
        }
        assert_eq!(read_relocation_swap("K f"), Err(R::OwnFile { king: true }));
        assert_eq!(read_relocation_swap("KK"), Err(R::OwnFile { king: true }));
        assert_eq!(read_relocation_swap("Q e"), Err(R::OwnFile { king: false }));
        assert_eq!(read_relocation_swap("K g"), Err(R::BishopsOneColour { king: true, file: 6 }));
        assert_eq!(read_relocation_swap("Q d"), Err(R::BishopsOneColour { king: false, file: 3 }));
        assert_eq!(read_relocation_swap("KN"), Err(R::Ambiguous { king: true, files: [1, 8] }));
        for typed in ["X c", "K", "K b extra", "zz", "", "K z", "K P"] {
            assert_eq!(read_relocation_swap(typed), Err(R::Unreadable), "{typed}");
        }
        // The twelve allowed choices are read as before.
        for (i, &(who, other)) in RELOCATION_SWAPS.iter().enumerate().skip(1) {
            let typed = format!("{} {}", if who == 5 { 'K' } else { 'Q' }, (b'a' + other) as char);
            assert_eq!(read_relocation_swap(&typed), Ok(i), "{typed}");
        }
    }

    #[test]
    fn capatomic_setups_put_missiles_behind_the_king() {
        for i in [0, 1, 777, 21_835] {
            let p = position(&CAPATOMIC, i).unwrap();
            let k = p.king(Color::White).unwrap();
            assert_eq!(k.rank(), 1);
            let m: Vec<Square> = p.pieces(Color::White, Role::Missile).collect();
            assert_eq!(m, vec![Square::new(k.file() - 1, 0), Square::new(k.file() + 1, 0)]);
            assert_eq!(p.missile_rights().count(), 4);
        }
        assert!(position(&CAPATOMIC, 21_836).is_none());
    }
}

//! Zobrist keys for the position hash, generated at compile time from a fixed seed.

use super::types::{Color, Role, Square};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

const fn table<const N: usize>(salt: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        out[i] = splitmix(salt.wrapping_mul(0x1_0000_0001).wrapping_add(i as u64 * 7919));
        i += 1;
    }
    out
}

static PIECES: [u64; 2 * 9 * 100] = table(1);
static CASTLING: [u64; 100] = table(2);
static EP_FILE: [u64; 10] = table(3);
static RADIATION: [u64; 100] = table(4);
static MISSILE_RIGHTS: [u64; 100] = table(5);
/// Keys for the side to move and the armed flag.
pub const BLACK_TO_MOVE: u64 = splitmix(0xDEAD_BEEF);
pub const ARMED: u64 = splitmix(0xA57A_7011C);

#[inline]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECES[(color.index() * 9 + role.index()) * 100 + sq.index()]
}

#[inline]
pub fn castling(sq: Square) -> u64 {
    CASTLING[sq.index()]
}

#[inline]
pub fn ep_file(file: u8) -> u64 {
    EP_FILE[file as usize]
}

#[inline]
pub fn radiation(sq: Square) -> u64 {
    RADIATION[sq.index()]
}

#[inline]
pub fn missile_right(sq: Square) -> u64 {
    MISSILE_RIGHTS[sq.index()]
}

//! A small deflate coder for board pictures, written for [`super::bands`]: PNG filtering of one band of
//! rows (the first row with Sub, the others with Paeth) and the filtered bytes coded as literals and runs
//! of zeros in one dynamic Huffman block, ended by an empty stored block so that the band's bytes end on a
//! byte boundary (what zlib's `Z_SYNC_FLUSH` does). A zlib stream is then any sequence of such bands
//! followed by [`FINAL_BLOCK`] and the Adler-32 of everything, which [`adler32_combine`] computes from the
//! bands' own checksums.
//!
//! Why runs of zeros only: after the Paeth filter a board's flat squares and repeated rows are zeros, and
//! what is left (the pieces' anti-aliased edges) rarely repeats at a distance worth a search. fdeflate's
//! fast mode, which `png` uses with `Compression::Fast`, codes the same two kinds of symbols, with one
//! fixed table for any PNG. Here a band is coded either with a Huffman code built from its own counts
//! ([`deflate_band`]: a count, a tree and a header of about 60 bytes per band) or, once
//! [`super::bands`] has seen enough bands of a setting, with one code built from their counts and kept
//! ([`KeptCode`], [`deflate_band_with`]: one pass, no tree), as fdeflate's one table but fitted to the
//! boards of one theme and size. The block still carries its header, so every band stays a valid block on
//! its own.

/// The end of a zlib stream's data: an empty final block with the fixed codes (BFINAL = 1, BTYPE = 01,
/// then the end-of-block code, seven zero bits), padded to a byte.
pub const FINAL_BLOCK: [u8; 2] = [0x03, 0x00];

/// A zlib header: deflate with a 32 KB window, no preset dictionary, "fastest" level (the check bits
/// make the 16-bit value a multiple of 31).
pub const ZLIB_HEADER: [u8; 2] = [0x78, 0x01];

/// PNG filter types (the byte at the start of each filtered row).
const FILTER_SUB: u8 = 1;
const FILTER_PAETH: u8 = 4;

/// A run of zeros is coded as a literal zero and a copy of the byte before it when it is at least this
/// long; shorter runs as literal zeros, which cost a bit or two each once zero has the shortest code.
const MIN_RUN: usize = 6;

/// Longest code for the literal/length alphabet and for the code-length alphabet (RFC 1951).
const MAX_CODE_BITS: u8 = 15;
const MAX_CODE_LENGTH_BITS: u8 = 7;

/// Symbols of the literal/length alphabet: 256 literals, the end of block and 29 lengths.
pub const LITLEN_SYMBOLS: usize = 286;
const END_OF_BLOCK: usize = 256;

/// The order in which the code-length alphabet's lengths are written (RFC 1951, 3.2.7).
const CODE_LENGTH_ORDER: [usize; 19] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/// [`length_code`] of every length, worked out once: the symbol, the extra bits' count and their value,
/// packed as `symbol | bits << 9 | value << 12`.
static LENGTH_CODES: [u32; 259] = {
    let mut table = [0u32; 259];
    let mut len = 3;
    while len <= 258 {
        let (symbol, bits, value) = length_code(len);
        table[len] = symbol as u32 | (bits as u32) << 9 | value << 12;
        len += 1;
    }
    table
};

/// For a copy of `len` bytes (3..=258): its symbol, the number of extra bits and their value.
const fn length_code(len: usize) -> (usize, u8, u32) {
    if len == 258 {
        return (285, 0, 0);
    }
    if len <= 10 {
        return (254 + len, 0, 0);
    }
    // Lengths 11..=257 come in groups of four symbols; group `g` (from 1) has `g` extra bits and starts at
    // 3 + 4 * 2^g ... : 11, 19, 35, 67, 131.
    let mut extra = 1u8;
    let mut base = 11usize;
    let mut symbol = 265usize;
    loop {
        let span = 4usize << extra;
        if len < base + span {
            let step = 1usize << extra;
            let k = (len - base) / step;
            return (symbol + k, extra, ((len - base) % step) as u32);
        }
        base += span;
        symbol += 4;
        extra += 1;
    }
}

/// Filters one band of `rows` rows, each `width` bytes, for PNG (one filter-type byte before each row):
/// the first row with Sub, so that the band does not depend on the rows above it, the others with Paeth.
/// `out` is cleared and filled with `rows * (width + 1)` bytes.
pub fn filter_band(pixels: &[u8], width: usize, out: &mut Vec<u8>) {
    if width == 0 {
        out.clear();
        return;
    }
    let rows = pixels.len() / width;
    // Every byte is written below: the buffer is only resized, not cleared and zeroed first.
    out.resize(rows * (width + 1), 0);
    let mut previous: Option<&[u8]> = None;
    for (row, dst) in pixels.chunks_exact(width).zip(out.chunks_exact_mut(width + 1)) {
        let (kind, dst) = dst.split_at_mut(1);
        match previous {
            None => {
                kind[0] = FILTER_SUB;
                sub_row(row, dst);
            }
            Some(above) => {
                kind[0] = FILTER_PAETH;
                // A row equal to the one above filters to zeros (Paeth then predicts every byte from
                // above); comparing is much cheaper than predicting, and boards repeat rows a lot.
                if row == above {
                    dst.fill(0);
                } else {
                    paeth_row(above, row, dst);
                }
            }
        }
        previous = Some(row);
    }
}

/// Sub: each byte minus the one to its left (zero left of the first).
fn sub_row(row: &[u8], out: &mut [u8]) {
    if let (Some(&first), Some(o)) = (row.first(), out.first_mut()) {
        *o = first;
    }
    for ((o, &x), &left) in out.iter_mut().skip(1).zip(row.iter().skip(1)).zip(row.iter()) {
        *o = x.wrapping_sub(left);
    }
}

/// Paeth (PNG specification, 9.4): each byte minus whichever of left (a), above (b) and upper left (c)
/// is closest to p = a + b - c, ties going to a, then b. The distances are worked out in bytes, so that
/// the compiler can do sixteen at a time: |p - a| = |b - c| and |p - b| = |a - c| (a larger byte less a
/// smaller); |p - c| = |(a - c) + (b - c)| is their sum when a - c and b - c have the same sign and their
/// difference's size when not. The sum may pass 255: saturated, it is still no smaller than either, which
/// is all the choice asks of it.
fn paeth_row(above: &[u8], row: &[u8], out: &mut [u8]) {
    let n = row.len().min(above.len()).min(out.len());
    if n == 0 {
        return;
    }
    // The first byte has no left neighbour: a = c = 0, so the prediction is b.
    out[0] = row[0].wrapping_sub(above[0]);
    let (lefts, corners) = (&row[..n - 1], &above[..n - 1]);
    for ((((o, &x), &a), &b), &c) in out[1..n].iter_mut().zip(&row[1..n]).zip(lefts).zip(&above[1..n]).zip(corners) {
        let pa = b.max(c) - b.min(c);
        let pb = a.max(c) - a.min(c);
        let same_sign = (a >= c) == (b >= c);
        let pc = if same_sign { pa.saturating_add(pb) } else { pa.max(pb) - pa.min(pb) };
        let b_or_c = if pb <= pc { b } else { c };
        let prediction = if pa <= pb && pa <= pc { a } else { b_or_c };
        *o = x.wrapping_sub(prediction);
    }
}

/// The Adler-32 (zlib's checksum) of `a` followed by `b`, from the checksum of each and `b`'s length.
/// The low half is 1 plus the sum of the bytes; the high half the sum of the low half after each byte.
/// Appending `b` adds `b`'s byte sum to the low half and, to the high half, `b`'s own high half plus
/// `len_b` times `a`'s low half less the 1 that `b`'s own sums started from.
pub fn adler32_combine(a: u32, b: u32, len_b: usize) -> u32 {
    const MOD: u64 = 65521;
    let (a_lo, a_hi) = (u64::from(a & 0xffff), u64::from(a >> 16));
    let (b_lo, b_hi) = (u64::from(b & 0xffff), u64::from(b >> 16));
    let n = len_b as u64 % MOD;
    let lo = (a_lo + b_lo + MOD - 1) % MOD;
    let hi = (a_hi + b_hi + n * ((a_lo + MOD - 1) % MOD)) % MOD;
    ((hi as u32) << 16) | lo as u32
}

/// Bits written least significant first, as deflate packs them.
struct BitWriter<'o> {
    out: &'o mut Vec<u8>,
    bits: u64,
    count: u32,
}

impl<'o> BitWriter<'o> {
    fn new(out: &'o mut Vec<u8>) -> Self {
        BitWriter { out, bits: 0, count: 0 }
    }

    /// Appends the `n` low bits of `value` (`n` ≤ 32).
    #[inline]
    fn put(&mut self, value: u32, n: u8) {
        self.bits |= u64::from(value) << self.count;
        self.count += u32::from(n);
        if self.count >= 32 {
            self.out.extend_from_slice(&(self.bits as u32).to_le_bytes());
            self.bits >>= 32;
            self.count -= 32;
        }
    }

    /// Writes out the bits left, the last byte padded with zeros.
    fn align(&mut self) {
        while self.count > 0 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count = self.count.saturating_sub(8);
        }
        self.bits = 0;
    }
}

/// A Huffman code: each symbol's length and its code, bit-reversed for [`BitWriter`].
struct Code {
    lengths: Vec<u8>,
    codes: Vec<u16>,
}

impl Code {
    /// The canonical code (RFC 1951, 3.2.2) with these lengths.
    fn canonical(lengths: Vec<u8>) -> Code {
        let mut count = [0u16; 16];
        for &l in &lengths {
            count[usize::from(l)] += 1;
        }
        count[0] = 0;
        let mut next = [0u16; 16];
        let mut code = 0u16;
        for bits in 1..16 {
            code = (code + count[bits - 1]) << 1;
            next[bits] = code;
        }
        let codes = lengths
            .iter()
            .map(|&l| {
                if l == 0 {
                    return 0;
                }
                let c = next[usize::from(l)];
                next[usize::from(l)] += 1;
                c.reverse_bits() >> (16 - l)
            })
            .collect();
        Code { lengths, codes }
    }
}

/// Huffman code lengths for these symbol counts (at most [`LITLEN_SYMBOLS`] symbols), none longer than
/// `limit` bits. The code is always complete (decoders such as zlib refuse an incomplete one): if fewer
/// than two symbols occur, the first unused ones are given a length too. When the tree is too deep the
/// counts are flattened (halved, kept at least 1: their order does not change, so they are sorted once)
/// and the tree built again. Works in arrays on the stack: it runs twice for every band.
fn code_lengths(counts: &[u32], limit: u8) -> Vec<u8> {
    const MAX: usize = LITLEN_SYMBOLS;
    let symbols = counts.len().min(MAX);
    let mut leaves = [(0u32, 0u16); MAX];
    let mut n = 0;
    for (symbol, &c) in counts[..symbols].iter().enumerate() {
        if c > 0 {
            leaves[n] = (c, symbol as u16);
            n += 1;
        }
    }
    for (symbol, _) in counts[..symbols].iter().enumerate().filter(|&(_, &c)| c == 0) {
        if n >= 2 {
            break;
        }
        leaves[n] = (1, symbol as u16);
        n += 1;
    }
    let mut lengths = vec![0u8; counts.len()];
    if n < 2 {
        // Fewer than two symbols in the whole alphabet: nothing a band ever asks for.
        if n == 1 {
            lengths[usize::from(leaves[0].1)] = 1;
        }
        return lengths;
    }
    let leaves = &mut leaves[..n];
    leaves.sort_unstable();
    let mut weight = [0u64; 2 * MAX];
    let mut parent = [0u16; 2 * MAX];
    let mut depth = [0u8; 2 * MAX];
    for (w, &(c, _)) in weight.iter_mut().zip(leaves.iter()) {
        *w = u64::from(c);
    }
    loop {
        // Nodes 0..n are the leaves in increasing weight; nodes n.. the merged ones, made in increasing
        // weight too, so the two lightest are always at the front of one of the two queues.
        let (mut next_leaf, mut next_node) = (0usize, n);
        for node in n..2 * n - 1 {
            let mut pick = [0usize; 2];
            for p in &mut pick {
                let from_leaf = next_leaf < n && (next_node >= node || weight[next_leaf] <= weight[next_node]);
                if from_leaf {
                    *p = next_leaf;
                    next_leaf += 1;
                } else {
                    *p = next_node;
                    next_node += 1;
                }
            }
            weight[node] = weight[pick[0]] + weight[pick[1]];
            parent[pick[0]] = node as u16;
            parent[pick[1]] = node as u16;
        }
        // Depths from the root (the last node) down: a parent always comes after its children.
        depth[2 * n - 2] = 0;
        for node in (0..2 * n - 2).rev() {
            depth[node] = depth[usize::from(parent[node])].saturating_add(1);
        }
        if depth[..n].iter().all(|&d| d <= limit) {
            for (&d, &(_, symbol)) in depth[..n].iter().zip(leaves.iter()) {
                lengths[usize::from(symbol)] = d;
            }
            return lengths;
        }
        for w in &mut weight[..n] {
            *w = (*w >> 1) | 1;
        }
    }
}

/// What a band's filtered bytes are coded as, handed to `emit` in order: a literal byte, or a copy of
/// `len` (3..=258) bytes from one byte back (the zero just written). A token is a `u16`: below 256 a
/// literal, else 256 + the length.
#[inline(always)]
fn tokenize(data: &[u8], mut emit: impl FnMut(u16)) {
    /// Bytes looked at at once when skipping zeros (a few vector registers' worth).
    const STRIDE: usize = 32;
    let n = data.len();
    let mut i = 0;
    while i < n {
        let byte = data[i];
        if byte != 0 {
            emit(u16::from(byte));
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        while let Some(block) = data.get(i..i + STRIDE) {
            if block.iter().fold(0, |acc, &b| acc | b) != 0 {
                break;
            }
            i += STRIDE;
        }
        while i < n && data[i] == 0 {
            i += 1;
        }
        let run = i - start;
        if run < MIN_RUN {
            for _ in 0..run {
                emit(0);
            }
            continue;
        }
        emit(0);
        let mut rest = run - 1;
        while rest >= 3 {
            // At most 258 at a time, and never fewer than 3 left behind (a copy is 3 bytes or more).
            let take = if rest <= 258 {
                rest
            } else if rest - 258 >= 3 {
                258
            } else {
                rest - 3
            };
            emit((256 + take) as u16);
            rest -= take;
        }
        for _ in 0..rest {
            emit(0);
        }
    }
}

/// The literal/length symbol of a token of [`tokenize`].
#[inline(always)]
fn symbol_of(token: u16) -> usize {
    if token < 256 { usize::from(token) } else { (LENGTH_CODES[usize::from(token - 256)] & 0x1ff) as usize }
}

/// Each token's whole code for a literal/length code (its lengths and codes) and distance 1 coded with
/// one bit: the bits and their count (`bits | count << 32`). A copy's code is its length symbol's, then
/// the extra bits, then distance 1's code (0).
fn token_table(litlen: &Code) -> Box<[u64; TOKENS]> {
    let mut table = Box::new([0u64; TOKENS]);
    for (symbol, entry) in table[..256].iter_mut().enumerate() {
        *entry = u64::from(litlen.codes[symbol]) | u64::from(litlen.lengths[symbol]) << 32;
    }
    for len in 3..=258 {
        let packed = LENGTH_CODES[len];
        let (symbol, extra_bits, extra) = ((packed & 0x1ff) as usize, (packed >> 9) & 7, u64::from(packed >> 12));
        let symbol_bits = u32::from(litlen.lengths[symbol]);
        let bits = u64::from(litlen.codes[symbol]) | extra << symbol_bits;
        table[256 + len] = bits | u64::from(symbol_bits + extra_bits + DISTANCE_BITS) << 32;
    }
    table
}

/// Tokens of [`tokenize`]: 256 literals and 256 + each copy length up to 258.
const TOKENS: usize = 256 + 259;
/// Distance 1 is the only one used; two codes of one bit (0 for distance 1) keep the tree complete.
const DISTANCE_LENGTHS: [u8; 2] = [1, 1];
const DISTANCE_BITS: u32 = 1;

/// Scratch space kept between bands (by each drawing thread), so that coding a band allocates nothing.
#[derive(Default)]
pub struct Scratch {
    tokens: Vec<u16>,
}

/// Appends `data` (a band's filtered bytes) to `out` as deflate blocks that are not the last: one dynamic
/// Huffman block with a code built from the band's own counts, or stored blocks if that would be larger,
/// then an empty stored block, so that `out` ends on a byte boundary and another band (or
/// [`FINAL_BLOCK`]) can follow. Adds each literal/length symbol's count to `seen`.
pub fn deflate_band(data: &[u8], out: &mut Vec<u8>, scratch: &mut Scratch, seen: &mut [u32; LITLEN_SYMBOLS]) {
    let start = out.len();
    let mut counts = [0u32; LITLEN_SYMBOLS];
    scratch.tokens.clear();
    tokenize(data, |t| {
        scratch.tokens.push(t);
        counts[symbol_of(t)] += 1;
    });
    counts[END_OF_BLOCK] = 1;
    for (s, &c) in seen.iter_mut().zip(&counts) {
        *s = s.saturating_add(c);
    }
    let code = KeptCode::new(&counts);
    let mut w = BitWriter::new(out);
    code.begin(&mut w);
    for &t in &scratch.tokens {
        code.put(&mut w, t);
    }
    code.end(&mut w);
    store_if_smaller(data, out, start);
}

/// Appends `data` to `out` as [`deflate_band`] does, but coded with `code` (built before, from other
/// bands' counts) in one pass: no counting, no tree, no header to work out.
pub fn deflate_band_with(data: &[u8], out: &mut Vec<u8>, code: &KeptCode) {
    let start = out.len();
    let mut w = BitWriter::new(out);
    code.begin(&mut w);
    tokenize(data, |t| code.put(&mut w, t));
    code.end(&mut w);
    store_if_smaller(data, out, start);
}

/// Data that does not compress (never a board, but the bytes are not ours to trust) goes stored: if
/// what was written from `start` is larger than the stored blocks would be, they replace it.
fn store_if_smaller(data: &[u8], out: &mut Vec<u8>, start: usize) {
    if out.len() - start > stored_size(data.len()) {
        out.truncate(start);
        store(data, out);
    }
}

/// A dynamic Huffman block's code made ready to write many blocks with: each token's bits
/// ([`token_table`]), the end of block's, and the block's header (BFINAL, BTYPE and the code lengths) as
/// the bits to put.
pub struct KeptCode {
    table: Box<[u64; TOKENS]>,
    end_of_block: (u32, u8),
    header: Vec<(u32, u8)>,
}

impl KeptCode {
    /// The code for these literal/length counts; a symbol counted 0 gets no code, so a block coded with
    /// it may hold only the symbols counted (and the end of block, always given one).
    fn new(counts: &[u32; LITLEN_SYMBOLS]) -> KeptCode {
        let mut counts = *counts;
        counts[END_OF_BLOCK] = counts[END_OF_BLOCK].max(1);
        let litlen = Code::canonical(code_lengths(&counts, MAX_CODE_BITS));
        let mut header = Vec::with_capacity(96);
        header.push((0, 1)); // not the last block
        header.push((2, 2)); // dynamic Huffman codes
        write_code_lengths(&mut header, &litlen.lengths, &DISTANCE_LENGTHS);
        let end_of_block = (u32::from(litlen.codes[END_OF_BLOCK]), litlen.lengths[END_OF_BLOCK]);
        KeptCode { table: token_table(&litlen), end_of_block, header }
    }

    /// A code for many bands of one picture setting, from the counts `seen` of bands already coded: every
    /// symbol gets a code (a count of at least 1), so that any band can be coded with it, however
    /// unlike those it was built from.
    pub fn for_any_band(seen: &[u32; LITLEN_SYMBOLS]) -> KeptCode {
        KeptCode::new(&seen.map(|c| c.saturating_add(1)))
    }

    fn begin(&self, w: &mut BitWriter) {
        for &(bits, n) in &self.header {
            w.put(bits, n);
        }
    }

    #[inline(always)]
    fn put(&self, w: &mut BitWriter, token: u16) {
        let entry = self.table[usize::from(token)];
        w.put(entry as u32, (entry >> 32) as u8);
    }

    /// The end of block, then the sync flush: an empty stored block (3 header bits, padding, LEN 0,
    /// NLEN 0xffff).
    fn end(&self, w: &mut BitWriter) {
        w.put(self.end_of_block.0, self.end_of_block.1);
        w.put(0, 3);
        w.align();
        w.out.extend_from_slice(&[0, 0, 0xff, 0xff]);
    }
}

/// Bytes [`store`] takes for `n` bytes of data: 5 bytes of header per block of at most 65,535 bytes.
fn stored_size(n: usize) -> usize {
    n + 5 * n.div_ceil(65535)
}

/// `data` as stored (uncompressed) blocks that are not the last; ends on a byte boundary by construction.
fn store(data: &[u8], out: &mut Vec<u8>) {
    for block in data.chunks(65535) {
        let len = block.len() as u16;
        out.push(0); // BFINAL 0, BTYPE 00, padding
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
}

/// The dynamic block's header after BFINAL and BTYPE: the numbers of codes, then both alphabets' code
/// lengths, themselves coded with the code-length alphabet (16: repeat the previous length 3–6 times,
/// 17: 3–10 zeros, 18: 11–138 zeros).
fn write_code_lengths(w: &mut Vec<(u32, u8)>, litlen: &[u8], distance: &[u8]) {
    let hlit = litlen.iter().rposition(|&l| l > 0).map_or(257, |i| (i + 1).max(257));
    let hdist = distance.iter().rposition(|&l| l > 0).map_or(1, |i| i + 1);
    let all: Vec<u8> = litlen[..hlit].iter().chain(&distance[..hdist]).copied().collect();

    // (symbol, extra value) pairs.
    let mut symbols: Vec<(u8, u8)> = Vec::with_capacity(all.len());
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        let mut run = 1;
        while i + run < all.len() && all[i + run] == l {
            run += 1;
        }
        i += run;
        if l == 0 {
            let mut left = run;
            while left >= 11 {
                let n = left.min(138);
                symbols.push((18, (n - 11) as u8));
                left -= n;
            }
            if left >= 3 {
                symbols.push((17, (left - 3) as u8));
                left = 0;
            }
            symbols.extend(std::iter::repeat_n((0, 0), left));
        } else {
            symbols.push((l, 0));
            let mut left = run - 1;
            while left >= 3 {
                let n = left.min(6);
                symbols.push((16, (n - 3) as u8));
                left -= n;
            }
            symbols.extend(std::iter::repeat_n((l, 0), left));
        }
    }
    let mut counts = [0u32; 19];
    for &(s, _) in &symbols {
        counts[usize::from(s)] += 1;
    }
    let code = Code::canonical(code_lengths(&counts, MAX_CODE_LENGTH_BITS));
    let hclen = CODE_LENGTH_ORDER.iter().rposition(|&s| code.lengths[s] > 0).map_or(4, |i| (i + 1).max(4));

    w.push(((hlit - 257) as u32, 5));
    w.push(((hdist - 1) as u32, 5));
    w.push(((hclen - 4) as u32, 4));
    for &s in &CODE_LENGTH_ORDER[..hclen] {
        w.push((u32::from(code.lengths[s]), 3));
    }
    for (s, extra) in symbols {
        w.push((u32::from(code.codes[usize::from(s)]), code.lengths[usize::from(s)]));
        match s {
            16 => w.push((u32::from(extra), 2)),
            17 => w.push((u32::from(extra), 3)),
            18 => w.push((u32::from(extra), 7)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A zlib stream of the bands, read back by `png`'s decoder with its Adler-32 check on.
    fn round_trip(bands: &[&[u8]]) -> Vec<u8> {
        round_trip_with(bands, None)
    }

    /// [`round_trip`], the bands coded with `code` when given, else each with its own code.
    fn round_trip_with(bands: &[&[u8]], code: Option<&KeptCode>) -> Vec<u8> {
        let mut z = ZLIB_HEADER.to_vec();
        let mut adler = 1u32;
        let mut scratch = Scratch::default();
        for band in bands {
            match code {
                Some(code) => deflate_band_with(band, &mut z, code),
                None => deflate_band(band, &mut z, &mut scratch, &mut [0; LITLEN_SYMBOLS]),
            }
            adler = adler32_combine(adler, simd_adler32::adler32(band), band.len());
        }
        z.extend_from_slice(&FINAL_BLOCK);
        z.extend_from_slice(&adler.to_be_bytes());
        let mut options = png::DecodeOptions::default();
        options.set_ignore_adler32(false);
        let png = png_of(&z, bands.iter().map(|b| b.len()).sum());
        let mut r = png::Decoder::new_with_options(std::io::Cursor::new(png), options).read_info().expect("header");
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        r.next_frame(&mut buf).expect("data");
        buf
    }

    /// A PNG of one column, `n` rows of grey pixels, whose IDAT is `z`: lets `png`'s own inflater (and its
    /// Adler-32 check) read a stream built from arbitrary bytes. Each band must then hold whole rows
    /// `[0, value]` (filter None, one pixel).
    fn png_of(z: &[u8], n: usize) -> Vec<u8> {
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&1u32.to_be_bytes());
        ihdr.extend_from_slice(&((n / 2) as u32).to_be_bytes());
        ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
        super::super::bands::chunk(&mut out, b"IHDR", &ihdr);
        super::super::bands::chunk(&mut out, b"IDAT", z);
        super::super::bands::chunk(&mut out, b"IEND", &[]);
        out
    }

    fn rows(values: &[u8]) -> Vec<u8> {
        values.iter().flat_map(|&v| [0, v]).collect()
    }

    #[test]
    fn bands_of_runs_and_literals_inflate_to_themselves() {
        let zeros = rows(&[0; 5000]);
        let mixed: Vec<u8> =
            rows(&(0..3000u32).map(|i| if i % 7 < 3 { 0 } else { (i * 31 % 251) as u8 }).collect::<Vec<_>>());
        let one = rows(&[9]);
        let random: Vec<u8> =
            rows(&(0..4000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect::<Vec<_>>());
        for bands in [vec![&zeros[..]], vec![&mixed[..], &one[..], &zeros[..]], vec![&random[..], &mixed[..]]] {
            let expected: Vec<u8> = bands.iter().flat_map(|b| b.chunks(2).map(|r| r[1])).collect();
            assert_eq!(round_trip(&bands), expected);
        }
    }

    #[test]
    fn a_kept_code_codes_bands_unlike_those_it_was_built_from() {
        // Built from bands of zeros and a few small values only: every other byte and most lengths
        // were never counted, and must still be coded.
        let (mut seen, mut scratch, mut sink) = ([0; LITLEN_SYMBOLS], Scratch::default(), Vec::new());
        for band in [rows(&[0; 3000]), rows(&(0..900u32).map(|i| (i % 3) as u8).collect::<Vec<_>>())] {
            deflate_band(&band, &mut sink, &mut scratch, &mut seen);
        }
        assert!(seen[200] == 0 && seen[END_OF_BLOCK] == 2, "{:?}", &seen[..8]);
        let code = KeptCode::for_any_band(&seen);
        let every_byte: Vec<u8> = rows(&(0..=255u8).cycle().take(2000).collect::<Vec<_>>());
        let runs: Vec<u8> =
            rows(&(0..6000u32).map(|i| if (i / 37) % 2 == 0 { 0 } else { (i * 7 % 256) as u8 }).collect::<Vec<_>>());
        let zeros = rows(&[0; 5000]);
        let bands = [&every_byte[..], &runs[..], &zeros[..], &rows(&[1])[..]];
        let expected: Vec<u8> = bands.iter().flat_map(|b| b.chunks(2).map(|r| r[1])).collect();
        assert_eq!(round_trip_with(&bands, Some(&code)), expected);
        // Coded in one pass with the kept code, a band the code fits is about as small as with its own.
        let (mut own, mut kept) = (Vec::new(), Vec::new());
        deflate_band(&zeros, &mut own, &mut scratch, &mut [0; LITLEN_SYMBOLS]);
        deflate_band_with(&zeros, &mut kept, &code);
        assert!(kept.len() <= own.len() + 64, "kept {} bytes, own {}", kept.len(), own.len());
    }

    #[test]
    fn every_run_length_splits_into_valid_copies() {
        for run in [0, 1, 5, 6, 7, 8, 9, 258, 259, 260, 261, 262, 516, 517, 518, 1000] {
            let mut data = vec![7u8];
            data.extend(std::iter::repeat_n(0, run));
            data.push(7);
            let mut tokens = Vec::new();
            tokenize(&data, |t| tokens.push(t));
            let mut rebuilt = Vec::new();
            for t in tokens {
                if t < 256 {
                    rebuilt.push(t as u8);
                } else {
                    let len = usize::from(t - 256);
                    assert!((3..=258).contains(&len), "{run}: copy of {len}");
                    let last = *rebuilt.last().expect("a byte before a copy");
                    assert_eq!(last, 0);
                    rebuilt.extend(std::iter::repeat_n(0, len));
                }
            }
            assert_eq!(rebuilt, data, "{run}");
        }
    }

    #[test]
    fn length_codes_follow_rfc_1951() {
        assert_eq!(length_code(3), (257, 0, 0));
        assert_eq!(length_code(10), (264, 0, 0));
        assert_eq!(length_code(11), (265, 1, 0));
        assert_eq!(length_code(12), (265, 1, 1));
        assert_eq!(length_code(18), (268, 1, 1));
        assert_eq!(length_code(19), (269, 2, 0));
        assert_eq!(length_code(34), (272, 2, 3));
        assert_eq!(length_code(35), (273, 3, 0));
        assert_eq!(length_code(67), (277, 4, 0));
        assert_eq!(length_code(131), (281, 5, 0));
        assert_eq!(length_code(257), (284, 5, 30));
        assert_eq!(length_code(258), (285, 0, 0));
    }

    #[test]
    fn code_lengths_are_limited_and_complete() {
        // Fibonacci counts make the deepest possible tree.
        let mut counts = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for c in counts.iter_mut() {
            *c = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for limit in [7, 15] {
            let lengths = code_lengths(&counts, limit);
            assert!(lengths.iter().all(|&l| (1..=limit).contains(&l)), "{lengths:?}");
            let kraft: u64 = lengths.iter().map(|&l| 1u64 << (limit - l)).sum();
            assert_eq!(kraft, 1 << limit, "complete at {limit} bits");
        }
        assert_eq!(code_lengths(&[0, 5, 0], 15), vec![1, 1, 0]);
    }

    #[test]
    fn adler32_of_parts_combines_to_the_whole() {
        let data: Vec<u8> = (0..200_000u32).map(|i| (i * 7 + i / 3) as u8).collect();
        for cut in [0, 1, 5552, 65521, 100_000, 200_000] {
            let (a, b) = data.split_at(cut);
            let combined = adler32_combine(simd_adler32::adler32(&a), simd_adler32::adler32(&b), b.len());
            assert_eq!(combined, simd_adler32::adler32(&data.as_slice()), "cut at {cut}");
        }
    }

    #[test]
    fn paeth_matches_the_specification_for_every_three_bytes() {
        // The specification's predictor, written as it states it.
        fn predictor(a: u8, b: u8, c: u8) -> u8 {
            let p = i16::from(a) + i16::from(b) - i16::from(c);
            let (pa, pb, pc) = ((p - i16::from(a)).abs(), (p - i16::from(b)).abs(), (p - i16::from(c)).abs());
            if pa <= pb && pa <= pc {
                a
            } else if pb <= pc {
                b
            } else {
                c
            }
        }
        // Rows of two bytes: the second byte's left is `a`, above it `b`, its upper left `c`; x = 0, so
        // the filtered byte is minus the prediction. Every (a, b, c).
        let mut out = [0u8; 2];
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for c in 0..=255u8 {
                    let (above, row) = ([c, b], [a, 0]);
                    paeth_row(&above, &row, &mut out);
                    assert_eq!(out[1], 0u8.wrapping_sub(predictor(a, b, c)), "a {a}, b {b}, c {c}");
                    assert_eq!(out[0], a.wrapping_sub(c), "the first byte is predicted from above");
                }
            }
        }
    }
}

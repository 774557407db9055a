//! Board pictures encoded a band at a time, with the compressed bands kept from one picture to the next.
//!
//! A board picture is a title strip (if any) and one band of pixel rows per rank of squares, each band
//! made of tiles ([`super::cache`]). Between two pictures of a game only the ranks a move touched change
//! (its squares, the last move's tint of the move before, a check, shields, markers): two to four of eight
//! or ten. So each band is filtered and compressed on its own ([`super::deflate`]: its first row with Sub,
//! so it does not depend on the band above; it ends on a byte boundary; after the first bands of a
//! theme and size, with a Huffman code kept for them, [`Setting`]) and kept, keyed by the numbers of
//! the tiles it is made of; a picture then only filters and compresses the bands not already kept, and
//! joins the bands' bytes into one zlib stream, its Adler-32 combined from theirs.
//!
//! Why our own PNG writer for boards and not `png`'s: `png`'s encoder takes a whole image and
//! compresses it in one stream, where each band's bytes would depend on what came before; reusing a
//! band's compressed bytes needs control of the deflate blocks and of the checksum, which its API does
//! not give. What is written here is only the container (signature, IHDR, PLTE, one IDAT, IEND); `png`
//! still decodes every picture and encodes the other ones ([`super::encode`]).
//!
//! The cache is bounded: [`SHARDS`] shards of at most [`SHARD_BYTES`] of compressed bands each (8 MB in
//! all, about 2,600 bands of a 640 px Capatomic board, 3 KB each), the least recently used band dropped first. A
//! band is found only if the numbers of all its tiles are equal to the ones it was made from; a tile's
//! number is never given to another tile, so a band found is a band whose pixels are the same. Each shard
//! has its own lock, taken only to look up or to store (never while filtering or compressing), so two
//! drawing threads rarely wait for each other.

use super::Layout;
use super::cache::Tile;
use super::deflate::{self, FINAL_BLOCK, ZLIB_HEADER};
use std::cell::RefCell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The number of shards of the band cache (a band goes to the one its key's hash picks).
pub const SHARDS: usize = 16;
/// Compressed bytes kept per shard (each band counted with its tile numbers and a fixed overhead).
pub const SHARD_BYTES: usize = 512 * 1024;
/// What a kept band costs besides its compressed bytes and tile numbers (its record, the vectors).
const ENTRY_OVERHEAD: usize = 64;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// One kept band.
struct Entry {
    hash: u64,
    /// The numbers of its tiles, left to right.
    ids: Box<[u64]>,
    /// Its filtered bytes' length and Adler-32 (for the whole stream's checksum).
    raw_len: usize,
    adler: u32,
    /// Its deflate blocks, none final, ending on a byte boundary.
    deflate: Box<[u8]>,
    /// When it was last used, by the shard's clock.
    used: u64,
}

impl Entry {
    fn cost(&self) -> usize {
        self.deflate.len() + self.ids.len() * 8 + ENTRY_OVERHEAD
    }
}

struct Shard {
    entries: Vec<Entry>,
    bytes: usize,
    clock: u64,
}

impl Shard {
    const fn new() -> Shard {
        Shard { entries: Vec::new(), bytes: 0, clock: 0 }
    }

    /// The band made of exactly these tiles, marked as used.
    fn find(&mut self, hash: u64, ids: &[u64]) -> Option<&Entry> {
        self.clock += 1;
        let clock = self.clock;
        let e = self.entries.iter_mut().find(|e| e.hash == hash && *e.ids == *ids)?;
        e.used = clock;
        Some(e)
    }

    /// Keeps `entry`, dropping the least recently used bands while the shard is over its bound.
    fn keep(&mut self, mut entry: Entry) {
        self.clock += 1;
        entry.used = self.clock;
        if entry.cost() > SHARD_BYTES {
            return;
        }
        self.bytes += entry.cost();
        self.entries.push(entry);
        while self.bytes > SHARD_BYTES {
            let Some(oldest) = self.entries.iter().enumerate().min_by_key(|(_, e)| e.used).map(|(i, _)| i) else {
                break;
            };
            let gone = self.entries.swap_remove(oldest);
            self.bytes -= gone.cost();
        }
    }
}

static BANDS: [Mutex<Shard>; SHARDS] = [const { Mutex::new(Shard::new()) }; SHARDS];

/// Bands found kept and bands compressed, since the process started.
static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);

/// How many bands board pictures found already compressed and how many they compressed, since the
/// process started (for the laboratory's benchmarks).
pub fn band_counts() -> (u64, u64) {
    (HITS.load(Ordering::Relaxed), MISSES.load(Ordering::Relaxed))
}

thread_local! {
    /// The same counts, for this thread's pictures only.
    static THREAD_COUNTS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// [`band_counts`] for the pictures drawn on this thread.
pub fn thread_band_counts() -> (u64, u64) {
    THREAD_COUNTS.with(std::cell::Cell::get)
}

fn count(hit: bool) {
    let counter = if hit { &HITS } else { &MISSES };
    counter.fetch_add(1, Ordering::Relaxed);
    THREAD_COUNTS.with(|c| {
        let (h, m) = c.get();
        c.set(if hit { (h + 1, m) } else { (h, m + 1) });
    });
}

/// The key of a band made of these tiles: only picks the shard and speeds the look-up up; a band found
/// is checked against all its tile numbers.
fn band_hash(ids: &[u64]) -> u64 {
    #[cfg(test)]
    if ALL_KEYS_COLLIDE.with(std::cell::Cell::get) {
        return 0;
    }
    let mut h = 0x243f_6a88_85a3_08d3u64 ^ ids.len() as u64;
    for &id in ids {
        h = (h ^ id).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 29;
    }
    h
}

fn shard(hash: u64) -> &'static Mutex<Shard> {
    &BANDS[(hash >> 32) as usize % SHARDS]
}

/// Appends the PNG chunk `kind` holding `data`, with its length and CRC-32.
pub(crate) fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// Bands a drawing thread codes with codes of their own before it keeps one code for their setting.
const LEARNING_BANDS: u32 = 12;
/// Settings (palette and width) a drawing thread keeps a code for; the oldest is dropped beyond.
const SETTINGS: usize = 8;

/// The Huffman code a drawing thread keeps for one picture setting: the bands of a board of one
/// theme and size are alike, so after [`LEARNING_BANDS`] of them coded each with its own code (and
/// its own block header), the rest are coded with one code built from their counts, in one pass.
struct Setting {
    width: usize,
    palette: Box<[u8]>,
    seen: [u32; deflate::LITLEN_SYMBOLS],
    bands: u32,
    code: Option<deflate::KeptCode>,
}

impl Setting {
    /// Appends `filtered` (a band of this setting) to `out` as deflate blocks, with the kept code once
    /// there is one.
    fn deflate(&mut self, filtered: &[u8], out: &mut Vec<u8>, scratch: &mut deflate::Scratch) {
        if let Some(code) = &self.code {
            deflate::deflate_band_with(filtered, out, code);
            return;
        }
        deflate::deflate_band(filtered, out, scratch, &mut self.seen);
        self.bands += 1;
        if self.bands >= LEARNING_BANDS {
            self.code = Some(deflate::KeptCode::for_any_band(&self.seen));
        }
    }
}

/// Buffers each drawing thread keeps between pictures.
#[derive(Default)]
struct Scratch {
    pixels: Vec<u8>,
    filtered: Vec<u8>,
    ids: Vec<u64>,
    deflate: deflate::Scratch,
    settings: Vec<Setting>,
}

impl Scratch {
    /// The index of the kept setting of bands `width` bytes wide drawn with `palette`, made if new.
    fn setting(&mut self, width: usize, palette: &[u8]) -> usize {
        if let Some(i) = self.settings.iter().position(|s| s.width == width && *s.palette == *palette) {
            return i;
        }
        if self.settings.len() >= SETTINGS {
            self.settings.remove(0);
        }
        self.settings.push(Setting {
            width,
            palette: palette.into(),
            seen: [0; deflate::LITLEN_SYMBOLS],
            bands: 0,
            code: None,
        });
        self.settings.len() - 1
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

#[cfg(test)]
thread_local! {
    /// In tests: every band's key is the same, so that a look-up can only be right by checking the tiles.
    static ALL_KEYS_COLLIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every band key equal on this thread (tests of what a wrong key cannot do).
#[cfg(test)]
pub(crate) fn with_colliding_keys<R>(f: impl FnOnce() -> R) -> R {
    ALL_KEYS_COLLIDE.with(|c| c.set(true));
    let r = f();
    ALL_KEYS_COLLIDE.with(|c| c.set(false));
    r
}

/// In tests: keeps `deflate` (with its checksum and length) as the band of tiles `ids` under `hash`,
/// whatever they are, as a corrupted cache would.
#[cfg(test)]
pub(crate) fn plant(hash: u64, ids: &[u64], raw_len: usize, adler: u32, deflate: &[u8]) {
    let entry = Entry { hash, ids: ids.into(), raw_len, adler, deflate: deflate.into(), used: 0 };
    shard(hash).lock().unwrap_or_else(|e| e.into_inner()).keep(entry);
}

/// The hash a band of these tiles is kept under (tests).
#[cfg(test)]
pub(crate) fn hash_of(ids: &[u64]) -> u64 {
    band_hash(ids)
}

/// The board picture as an 8-bit indexed PNG: the title strip `strip` (if any, `layout.title_height`
/// rows) above the tiles, `layout.files` a rank, in screen order. `None` if the tiles do not fit the
/// layout (never for [`super::render`]'s), so that the caller can fall back on the plain encoder.
pub(crate) fn board_png(layout: &Layout, palette: &[u8], strip: Option<&[u8]>, tiles: &[Tile]) -> Option<Vec<u8>> {
    let (files, ranks, square) = (layout.files as usize, layout.ranks as usize, layout.square as usize);
    let width = files * square;
    let strip_len = layout.title_height as usize * width;
    let fits = files > 0
        && square > 0
        && tiles.len() == files * ranks
        && tiles.iter().all(|t| t.pixels.len() == square * square)
        && strip.is_none_or(|s| s.len() == strip_len);
    if !fits {
        return None;
    }

    // A 640 px board compresses to about a tenth of its indices.
    let mut out = Vec::with_capacity(width * layout.height() as usize / 8 + 1024);
    out.extend_from_slice(&PNG_SIGNATURE);
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&layout.width().to_be_bytes());
    ihdr[4..8].copy_from_slice(&layout.height().to_be_bytes());
    ihdr[8] = 8; // bits per index
    ihdr[9] = 3; // indexed colour; compression, filter and interlace methods 0
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", palette);

    let idat = out.len();
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(b"IDAT");
    out.extend_from_slice(&ZLIB_HEADER);
    let mut adler = 1u32;

    SCRATCH.with_borrow_mut(|s| {
        if let Some(strip) = strip.filter(|s| !s.is_empty()) {
            // Titles change from picture to picture: compressed every time, not kept.
            deflate::filter_band(strip, width, &mut s.filtered);
            adler = deflate::adler32_combine(adler, simd_adler32::adler32(&s.filtered.as_slice()), s.filtered.len());
            deflate::deflate_band(&s.filtered, &mut out, &mut s.deflate, &mut [0; deflate::LITLEN_SYMBOLS]);
        }
        let setting = s.setting(width, palette);
        for rank in tiles.chunks_exact(files) {
            s.ids.clear();
            s.ids.extend(rank.iter().map(|t| t.id));
            let hash = band_hash(&s.ids);
            let found = {
                let mut shard = shard(hash).lock().unwrap_or_else(|e| e.into_inner());
                shard.find(hash, &s.ids).map(|e| {
                    out.extend_from_slice(&e.deflate);
                    (e.adler, e.raw_len)
                })
            };
            if let Some((band_adler, raw_len)) = found {
                count(true);
                adler = deflate::adler32_combine(adler, band_adler, raw_len);
                continue;
            }
            count(false);
            // Row by row, each tile's part of it: every byte written once, nothing zeroed first.
            s.pixels.clear();
            for y in 0..square {
                for tile in rank {
                    s.pixels.extend_from_slice(&tile.pixels[y * square..(y + 1) * square]);
                }
            }
            deflate::filter_band(&s.pixels, width, &mut s.filtered);
            let band_adler = simd_adler32::adler32(&s.filtered.as_slice());
            adler = deflate::adler32_combine(adler, band_adler, s.filtered.len());
            let start = out.len();
            s.settings[setting].deflate(&s.filtered, &mut out, &mut s.deflate);
            let entry = Entry {
                hash,
                ids: s.ids.as_slice().into(),
                raw_len: s.filtered.len(),
                adler: band_adler,
                deflate: out[start..].into(),
                used: 0,
            };
            shard(hash).lock().unwrap_or_else(|e| e.into_inner()).keep(entry);
        }
    });

    out.extend_from_slice(&FINAL_BLOCK);
    out.extend_from_slice(&adler.to_be_bytes());
    let len = (out.len() - idat - 8) as u32;
    out[idat..idat + 4].copy_from_slice(&len.to_be_bytes());
    let crc = crc32fast::hash(&out[idat + 4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    chunk(&mut out, b"IEND", &[]);
    Some(out)
}

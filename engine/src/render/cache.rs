//! Process-wide caches, one per theme: the theme's palette (built once from sample tiles), piece sprites per
//! square size, and finished square tiles as palette indices per (square size, tile key). After warm-up a
//! render only looks tiles up here and copies them.

use super::palette::{Histogram, MAX_COLORS, Palette};
use super::raster::{self, EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT, EDGE_TOP, IN_SHIELD, TileKey, Tint};
use super::theme::{Theme, ThemeData};
use crate::rules::{Color, Piece, Role};
use resvg::tiny_skia::Pixmap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Square size of the sample tiles the palette is chosen from.
const SAMPLE_SQUARE: u32 = 48;
/// Square sizes kept per theme; the oldest is dropped beyond this.
const MAX_SIZES: usize = 6;
/// Tiles kept per square size; the map is emptied beyond this.
const MAX_TILES: usize = 2000;

/// Sprites and tiles for one square size.
struct SizeCache {
    square: u32,
    /// Indexed by `color * 9 + role`.
    sprites: Vec<Option<Pixmap>>,
    tiles: HashMap<TileKey, Tile>,
}

/// A finished tile: its palette indices and a number no other tile of the process has had or will
/// have, so that the same number means the same pixels (what the board pictures' band cache keys on,
/// [`super::bands`]).
#[derive(Clone)]
pub struct Tile {
    pub id: u64,
    pub pixels: Arc<[u8]>,
}

/// The next tile's number.
static NEXT_TILE_ID: AtomicU64 = AtomicU64::new(1);

/// Everything cached for one theme.
pub struct ThemeCache {
    theme: &'static ThemeData,
    palette: Palette,
    palette_bytes: Arc<[u8]>,
    sizes: Vec<SizeCache>,
}

static CACHES: [Mutex<Option<ThemeCache>>; 3] = [const { Mutex::new(None) }; 3];

/// Runs `f` on the theme's cache (created on first use), holding its lock.
pub fn with_theme<R>(theme: Theme, f: impl FnOnce(&mut ThemeCache) -> R) -> R {
    let mut guard = CACHES[theme as usize].lock().unwrap_or_else(|e| e.into_inner());
    let cache = guard.get_or_insert_with(|| ThemeCache::new(theme.data()));
    f(cache)
}

fn sprite_index(p: Piece) -> usize {
    p.color.index() * Role::COUNT + p.role.index()
}

/// Every piece, both colours.
fn all_pieces() -> impl Iterator<Item = Piece> {
    Color::ALL.into_iter().flat_map(|c| Role::ALL.into_iter().map(move |r| Piece::new(c, r)))
}

impl ThemeCache {
    fn new(theme: &'static ThemeData) -> ThemeCache {
        let palette = sample_palette(theme);
        let palette_bytes = palette.rgb_bytes().into();
        ThemeCache { theme, palette, palette_bytes, sizes: Vec::new() }
    }

    /// The PNG palette (r, g, b per entry).
    pub fn palette_bytes(&self) -> Arc<[u8]> {
        self.palette_bytes.clone()
    }

    fn size_slot(&mut self, square: u32) -> usize {
        if let Some(i) = self.sizes.iter().position(|s| s.square == square) {
            return i;
        }
        if self.sizes.len() >= MAX_SIZES {
            self.sizes.remove(0);
        }
        self.sizes.push(SizeCache { square, sprites: vec![None; 2 * Role::COUNT], tiles: HashMap::new() });
        self.sizes.len() - 1
    }

    /// The tile for `key` at `square` pixels, as palette indices (`square * square` bytes, row by row).
    pub fn tile(&mut self, square: u32, key: &TileKey) -> Arc<[u8]> {
        self.numbered_tile(square, key).pixels
    }

    /// The tile for `key` at `square` pixels with its number.
    pub fn numbered_tile(&mut self, square: u32, key: &TileKey) -> Tile {
        let slot = self.size_slot(square);
        if let Some(t) = self.sizes[slot].tiles.get(key) {
            return t.clone();
        }
        let theme = self.theme;
        let size = &mut self.sizes[slot];
        if let Some(p) = key.piece {
            let i = sprite_index(p);
            if size.sprites[i].is_none() {
                size.sprites[i] = Some(raster::piece_sprite(p, theme, square));
            }
        }
        let sprite = key.piece.and_then(|p| size.sprites[sprite_index(p)].as_ref());
        let pixmap = raster::tile(key, theme, square, sprite);
        let pixels: Arc<[u8]> = self.palette.quantize(&pixmap).into();
        let tile = Tile { id: NEXT_TILE_ID.fetch_add(1, Ordering::Relaxed), pixels };
        let size = &mut self.sizes[slot];
        if size.tiles.len() >= MAX_TILES {
            size.tiles.clear();
        }
        size.tiles.insert(*key, tile.clone());
        tile
    }

    /// An opaque RGB picture (r, g, b per pixel, row by row) as palette indices: each colour to its
    /// nearest entry, as tiles are.
    pub fn quantize_rgb(&mut self, rgb: &[u8]) -> Vec<u8> {
        rgb.chunks_exact(3).map(|c| self.palette.index_of([c[0], c[1], c[2]])).collect()
    }

    /// The palette colour a true colour is drawn with (for measuring what the palette loses).
    pub fn nearest(&mut self, c: [u8; 3]) -> [u8; 3] {
        let i = self.palette.index_of(c);
        self.palette.color(i)
    }

    /// A title strip as palette indices (not cached: titles change every move).
    pub fn title(&mut self, text: &str, width: u32, height: u32) -> Vec<u8> {
        let p = raster::title_strip(text, self.theme, width, height);
        self.palette.quantize(&p)
    }
}

/// Renders one of each kind of square the board can show and chooses the palette from their colours.
fn sample_palette(theme: &'static ThemeData) -> Palette {
    let mut hist = Histogram::default();
    let s = SAMPLE_SQUARE;
    let shield_all = IN_SHIELD | EDGE_TOP | EDGE_LEFT;
    let shield_other = IN_SHIELD | EDGE_BOTTOM | EDGE_RIGHT;
    for dark in [false, true] {
        let base = TileKey::plain(dark);
        let variants = [
            base,
            TileKey { tint: Tint::LastMove, ..base },
            TileKey { tint: Tint::Blast, ..base },
            TileKey { shield: [shield_all, 0], ..base },
            TileKey { shield: [0, shield_other], ..base },
        ];
        // Tints inside a king's shield blend into flat colours of their own: sample them too, or
        // a shielded last-move square is drawn in a visibly different colour (found by `lab bench-gif`).
        for tint in [Tint::LastMove, Tint::Blast] {
            for shield in [[shield_all, 0], [0, shield_other]] {
                hist.add(&raster::tile(&TileKey { tint, shield, ..base }, theme, s, None));
            }
        }
        for v in variants {
            hist.add(&raster::tile(&v, theme, s, None));
            for p in all_pieces() {
                let sprite = raster::piece_sprite(p, theme, s);
                hist.add(&raster::tile(&TileKey { piece: Some(p), ..v }, theme, s, Some(&sprite)));
            }
        }
        for c in Color::ALL {
            let king = Piece::new(c, Role::King);
            let sprite = raster::piece_sprite(king, theme, s);
            hist.add(&raster::tile(&TileKey { piece: Some(king), check: true, ..base }, theme, s, Some(&sprite)));
            let shielded = TileKey { piece: Some(king), check: true, shield: [shield_all, shield_other], ..base };
            hist.add(&raster::tile(&shielded, theme, s, Some(&sprite)));
            let missile = Piece::new(c, Role::Missile);
            let sprite = raster::piece_sprite(missile, theme, s);
            let key = TileKey { piece: Some(missile), launch_ready: true, ..base };
            hist.add(&raster::tile(&key, theme, s, Some(&sprite)));
        }
        for tint in [Tint::None, Tint::Blast] {
            hist.add(&raster::tile(&TileKey { irradiated: true, tint, ..base }, theme, s, None));
        }
        for i in 0..10u8 {
            hist.add(&raster::tile(&TileKey { file_label: Some(i), rank_label: Some(i), ..base }, theme, s, None));
        }
    }
    hist.add(&raster::title_strip("Capatomic 0123456789", theme, 8 * s, s / 2));
    Palette::build(&hist, MAX_COLORS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_are_cached_and_sized() {
        let key = TileKey { piece: Some(Piece::new(Color::Black, Role::Queen)), ..TileKey::plain(true) };
        let a = with_theme(Theme::Wood, |c| c.tile(37, &key));
        let b = with_theme(Theme::Wood, |c| c.tile(37, &key));
        assert_eq!(a.len(), 37 * 37);
        assert!(Arc::ptr_eq(&a, &b), "second lookup must come from the cache");
    }

    #[test]
    fn palette_fits_png() {
        let n = with_theme(Theme::Contrast, |c| c.palette_bytes().len());
        assert!((3 * 16..=3 * 256).contains(&n) && n.is_multiple_of(3), "{n}");
    }
}

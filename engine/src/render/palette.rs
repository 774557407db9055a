//! Indexed colour: a 256-colour palette chosen once per theme from sample tiles, and the mapping of tile pixels
//! to palette indices (memoised, done when a tile is cached, never per render).

use resvg::tiny_skia::Pixmap;
use std::collections::HashMap;

/// Most palette entries (8-bit indexed PNG).
pub const MAX_COLORS: usize = 256;

/// A palette plus a memo of the nearest entry for each colour seen so far.
#[derive(Debug, Clone)]
pub struct Palette {
    colors: Vec<[u8; 3]>,
    /// Colours seen, by packed value, hashed by rustc-hash: the keys are colours of our own pictures,
    /// not anyone's input, so a hash that resists chosen keys (the standard library's SipHash, 40 % of
    /// drawing a tile) buys nothing here.
    memo: HashMap<u32, u8, rustc_hash::FxBuildHasher>,
}

fn pack(c: [u8; 3]) -> u32 {
    (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2])
}

fn unpack(v: u32) -> [u8; 3] {
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// Perceptually weighted squared distance.
fn dist(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |i: usize| (i32::from(a[i]) - i32::from(b[i])).unsigned_abs();
    3 * d(0) * d(0) + 4 * d(1) * d(1) + 2 * d(2) * d(2)
}

/// Counts colours of opaque pixmaps.
#[derive(Debug, Default)]
pub struct Histogram(HashMap<u32, u32>);

impl Histogram {
    /// Adds every pixel of `p` (alpha ignored: tiles are opaque).
    pub fn add(&mut self, p: &Pixmap) {
        for c in p.pixels() {
            *self.0.entry(pack([c.red(), c.green(), c.blue()])).or_insert(0) += 1;
        }
    }
}

impl Palette {
    /// Chooses up to `max` colours: the most frequent colour first, then repeatedly the colour that is
    /// farthest from the chosen ones, weighted by how often it occurs. Deterministic.
    pub fn build(hist: &Histogram, max: usize) -> Palette {
        let mut entries: Vec<(u32, u32)> = hist.0.iter().map(|(&c, &n)| (c, n)).collect();
        entries.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut colors: Vec<[u8; 3]> = Vec::new();
        let mut nearest = vec![u32::MAX; entries.len()];
        let weights: Vec<f64> = entries.iter().map(|e| f64::from(e.1).sqrt()).collect();
        let mut pick = 0;
        while colors.len() < max.min(entries.len()) {
            let c = unpack(entries[pick].0);
            colors.push(c);
            let mut best = (0.0, usize::MAX);
            for (i, e) in entries.iter().enumerate() {
                nearest[i] = nearest[i].min(dist(unpack(e.0), c));
                let score = weights[i] * f64::from(nearest[i]);
                if score > best.0 {
                    best = (score, i);
                }
            }
            if best.1 == usize::MAX {
                break;
            }
            pick = best.1;
        }
        if colors.is_empty() {
            colors.push([0, 0, 0]);
        }
        Palette { colors, memo: HashMap::default() }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.colors.len()
    }

    /// True if the palette has no entries (never, once built).
    pub fn is_empty(&self) -> bool {
        self.colors.is_empty()
    }

    /// The PNG `PLTE` bytes: r, g, b per entry.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colors.iter().flatten().copied().collect()
    }

    /// The colour of entry `i` (black past the end).
    pub fn color(&self, i: u8) -> [u8; 3] {
        self.colors.get(usize::from(i)).copied().unwrap_or([0, 0, 0])
    }

    /// Index of the entry nearest to `c`.
    pub fn index_of(&mut self, c: [u8; 3]) -> u8 {
        let key = pack(c);
        if let Some(&i) = self.memo.get(&key) {
            return i;
        }
        let mut best = (u32::MAX, 0usize);
        for (i, &p) in self.colors.iter().enumerate() {
            let d = dist(p, c);
            if d < best.0 {
                best = (d, i);
            }
        }
        let i = best.1 as u8;
        self.memo.insert(key, i);
        i
    }

    /// An opaque pixmap as palette indices, row by row. A tile is mostly runs of one colour (the
    /// square's), so the last colour's index is kept at hand.
    pub fn quantize(&mut self, p: &Pixmap) -> Vec<u8> {
        let mut last: Option<([u8; 3], u8)> = None;
        p.pixels()
            .iter()
            .map(|c| {
                let rgb = [c.red(), c.green(), c.blue()];
                match last {
                    Some((seen, i)) if seen == rgb => i,
                    _ => {
                        let i = self.index_of(rgb);
                        last = Some((rgb, i));
                        i
                    }
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::Color;

    fn solid(r: u8, g: u8, b: u8, n: u32) -> Pixmap {
        let mut p = Pixmap::new(n, n).unwrap();
        p.fill(Color::from_rgba8(r, g, b, 255));
        p
    }

    #[test]
    fn flat_colours_are_exact() {
        let mut h = Histogram::default();
        h.add(&solid(240, 217, 181, 10));
        h.add(&solid(181, 136, 99, 8));
        h.add(&solid(0, 0, 0, 2));
        let mut pal = Palette::build(&h, 256);
        assert_eq!(pal.len(), 3);
        let i = pal.index_of([181, 136, 99]) as usize;
        assert_eq!(&pal.rgb_bytes()[i * 3..i * 3 + 3], &[181, 136, 99]);
    }

    #[test]
    fn limited_palette_maps_to_nearest() {
        let mut h = Histogram::default();
        h.add(&solid(255, 255, 255, 10));
        h.add(&solid(0, 0, 0, 10));
        h.add(&solid(250, 250, 250, 1));
        let mut pal = Palette::build(&h, 2);
        assert_eq!(pal.len(), 2);
        let near_white = pal.index_of([250, 250, 250]);
        assert_eq!(near_white, pal.index_of([255, 255, 255]));
        assert_ne!(near_white, pal.index_of([0, 0, 0]));
    }

    #[test]
    fn quantizing_gives_each_pixel_its_nearest_entry() {
        let mut h = Histogram::default();
        for (r, g, b) in [(240, 217, 181), (181, 136, 99), (10, 10, 10), (200, 30, 30)] {
            h.add(&solid(r, g, b, 4));
        }
        let mut pal = Palette::build(&h, 3);
        // Runs of one colour and colours changing at every pixel, some not in the palette.
        let mut p = Pixmap::new(16, 4).unwrap();
        let colours = [[240, 217, 181], [181, 136, 99], [12, 9, 10], [200, 30, 30], [128, 128, 128]];
        for (k, px) in p.pixels_mut().iter_mut().enumerate() {
            let c: [u8; 3] = colours[if k < 20 { k / 7 % 5 } else { k % 5 }];
            *px = Color::from_rgba8(c[0], c[1], c[2], 255).premultiply().to_color_u8();
        }
        let expected: Vec<u8> = {
            let mut fresh = Palette::build(&h, 3);
            p.pixels().iter().map(|c| fresh.index_of([c.red(), c.green(), c.blue()])).collect()
        };
        assert_eq!(pal.quantize(&p), expected);
        assert!(expected.windows(2).any(|w| w[0] != w[1]));
    }
}

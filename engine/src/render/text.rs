//! Text and simple shapes for the community pictures (rating charts, leaderboard cards).
//!
//! Fonts are loaded once, lazily, from crates that ship them (see `docs/fonts.md`): DejaVu Sans
//! (regular and bold; Latin, Greek, Cyrillic and more) first, then GNU Unifont's bitmaps for what
//! DejaVu lacks (CJK above all), then a hollow replacement box. The choice is made per character.
//! User text is cleaned and bounded by [`clean`] before it is laid out.
//!
//! [`Canvas`] is an opaque RGB picture with anti-aliased drawing in straight alpha.

use super::theme::Rgba;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use std::sync::LazyLock;

/// Most characters of user text laid out; longer text is cut before measuring.
pub const MAX_TEXT_CHARS: usize = 200;

/// The typefaces on offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    Regular,
    Bold,
}

struct Fonts {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
}

static FONTS: LazyLock<Fonts> = LazyLock::new(|| Fonts {
    // The bytes are DejaVu 2.37 as shipped by the `dejavu` crate; parsing them cannot fail.
    regular: FontRef::try_from_slice(dejavu::sans::regular()).expect("DejaVu Sans parses"),
    bold: FontRef::try_from_slice(dejavu::sans::bold()).expect("DejaVu Sans Bold parses"),
});

fn font(face: Face) -> &'static FontRef<'static> {
    match face {
        Face::Regular => &FONTS.regular,
        Face::Bold => &FONTS.bold,
    }
}

/// Where a character's glyph comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// DejaVu Sans.
    Primary,
    /// GNU Unifont (bitmap).
    Fallback,
    /// Neither has it: a replacement box.
    Missing,
}

/// The font that draws `c`.
pub fn source_of(c: char) -> Source {
    if FONTS.regular.glyph_id(c).0 != 0 {
        Source::Primary
    } else if unifont::get_glyph(c).is_some() {
        Source::Fallback
    } else {
        Source::Missing
    }
}

/// User text made safe to draw: control and bidi-formatting characters dropped, whitespace runs
/// collapsed, trimmed, at most [`MAX_TEXT_CHARS`] characters.
pub fn clean(text: &str) -> String {
    let invisible = |c: char| {
        c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    text.split_whitespace()
        .map(|w| w.chars().filter(|&c| !invisible(c)).collect::<String>())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_TEXT_CHARS)
        .collect()
}

/// Size of one Unifont bitmap cell at text size `px`: its 16 rows span a little more than DejaVu's em.
fn cell(px: f32) -> f32 {
    // DejaVu's ascent minus descent is 1.164 em; Unifont's 16 rows are one em plus a little.
    px / 1.164 * 1.05 / 16.0
}

/// One laid-out character.
struct Placed {
    c: char,
    x: f32,
    source: Source,
}

/// Lays out `text` from x = 0; returns the characters and the total advance.
fn layout(text: &str, px: f32, face: Face) -> (Vec<Placed>, f32) {
    let f = font(face);
    let scaled = f.as_scaled(PxScale::from(px));
    let mut x = 0.0;
    let mut prev: Option<ab_glyph::GlyphId> = None;
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        let source = source_of(c);
        match source {
            Source::Primary => {
                let id = f.glyph_id(c);
                if let Some(p) = prev {
                    x += scaled.kern(p, id);
                }
                out.push(Placed { c, x, source });
                x += scaled.h_advance(id);
                prev = Some(id);
            }
            Source::Fallback => {
                let w = unifont::get_glyph(c).map_or(8, |g| g.get_width()) as f32;
                out.push(Placed { c, x, source });
                x += w * cell(px) + px * 0.04;
                prev = None;
            }
            Source::Missing => {
                out.push(Placed { c, x, source });
                x += px * 0.62;
                prev = None;
            }
        }
    }
    (out, x)
}

/// Width of `text` in pixels at size `px`.
pub fn measure(text: &str, px: f32, face: Face) -> f32 {
    layout(text, px, face).1
}

/// Ascent of the primary font at size `px` (baseline to the top of tall letters, roughly).
pub fn ascent(px: f32) -> f32 {
    FONTS.regular.as_scaled(PxScale::from(px)).ascent()
}

/// `text` shortened with an ellipsis so that it is at most `max_width` pixels wide.
pub fn fit(text: &str, px: f32, face: Face, max_width: f32) -> String {
    if measure(text, px, face) <= max_width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut n = chars.len();
    while n > 0 {
        n -= 1;
        let candidate: String = chars[..n].iter().collect::<String>().trim_end().to_string() + "…";
        if measure(&candidate, px, face) <= max_width {
            return candidate;
        }
    }
    "…".to_string()
}

/// An opaque RGB picture with anti-aliased drawing.
pub struct Canvas {
    width: u32,
    height: u32,
    /// Three bytes a pixel, row by row.
    rgb: Vec<u8>,
}

impl Canvas {
    /// A `width` × `height` picture filled with `bg`.
    pub fn new(width: u32, height: u32, bg: Rgba) -> Canvas {
        let rgb = [bg.0, bg.1, bg.2].repeat(width as usize * height as usize);
        Canvas { width, height, rgb }
    }

    /// The picture of a PNG (any colour type; alpha dropped), or `None` if it cannot be read.
    pub fn from_png(bytes: &[u8]) -> Option<Canvas> {
        let (width, height, rgb) = super::encode::decode_rgb(bytes)?;
        Some(Canvas { width, height, rgb })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// The pixels: three bytes each, row by row.
    pub fn rgb(&self) -> &[u8] {
        &self.rgb
    }

    /// The colour of pixel (x, y), which must be inside the picture.
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// Blends `color` (with its own alpha) into pixel (x, y) with extra coverage 0–1.
    pub fn blend(&mut self, x: i32, y: i32, color: Rgba, coverage: f32) {
        if x < 0 || y < 0 || x >= self.width() as i32 || y >= self.height() as i32 {
            return;
        }
        let a = (coverage.clamp(0.0, 1.0) * f32::from(color.3) / 255.0).clamp(0.0, 1.0);
        if a <= 0.0 {
            return;
        }
        let i = (y as usize * self.width as usize + x as usize) * 3;
        for (p, c) in self.rgb[i..i + 3].iter_mut().zip([color.0, color.1, color.2]) {
            *p = (f32::from(*p) * (1.0 - a) + f32::from(c) * a).round() as u8;
        }
    }

    /// Fills the rectangle [x0, x1) × [y0, y1) (fractional edges are anti-aliased).
    pub fn fill_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, color: Rgba) {
        self.fill_rounded_rect(x0, y0, x1, y1, 0.0, color);
    }

    /// Fills a rectangle with corners rounded to `radius`.
    pub fn fill_rounded_rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, radius: f32, color: Rgba) {
        let r = radius.max(0.0).min((x1 - x0) / 2.0).min((y1 - y0) / 2.0);
        for y in y0.floor() as i32..y1.ceil() as i32 {
            for x in x0.floor() as i32..x1.ceil() as i32 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                // Coverage from the signed distance to the rounded rectangle.
                let qx = (x0 + r - px).max(px - (x1 - r)).max(0.0);
                let qy = (y0 + r - py).max(py - (y1 - r)).max(0.0);
                let outside = if r > 0.0 && qx > 0.0 && qy > 0.0 {
                    qx.hypot(qy) - r
                } else {
                    (x0 - px).max(px - x1).max(y0 - py).max(py - y1)
                };
                self.blend(x, y, color, 0.5 - outside);
            }
        }
    }

    /// A line from (x0, y0) to (x1, y1), `width` pixels wide, with round ends.
    pub fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgba) {
        let h = width / 2.0;
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len2 = (dx * dx + dy * dy).max(1e-6);
        let (bx0, bx1) = ((x0.min(x1) - h - 1.0).floor() as i32, (x0.max(x1) + h + 1.0).ceil() as i32);
        let (by0, by1) = ((y0.min(y1) - h - 1.0).floor() as i32, (y0.max(y1) + h + 1.0).ceil() as i32);
        for y in by0..by1 {
            for x in bx0..bx1 {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let t = (((px - x0) * dx + (py - y0) * dy) / len2).clamp(0.0, 1.0);
                let d = (px - (x0 + t * dx)).hypot(py - (y0 + t * dy));
                self.blend(x, y, color, h + 0.5 - d);
            }
        }
    }

    /// A dashed line: dashes `dash` pixels long with gaps of the same length.
    pub fn dashed_line(&mut self, (x0, y0): (f32, f32), (x1, y1): (f32, f32), width: f32, dash: f32, color: Rgba) {
        let len = (x1 - x0).hypot(y1 - y0);
        let steps = (len / (2.0 * dash)).ceil().max(1.0) as usize;
        for i in 0..steps {
            let (t0, t1) = ((2 * i) as f32 * dash / len, (((2 * i) as f32 + 1.0) * dash / len).min(1.0));
            if t0 >= 1.0 {
                break;
            }
            let at = |t: f32| (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
            let ((ax, ay), (bx, by)) = (at(t0), at(t1));
            self.line(ax, ay, bx, by, width, color);
        }
    }

    /// A filled disc.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, color: Rgba) {
        for y in (cy - r - 1.0).floor() as i32..(cy + r + 1.0).ceil() as i32 {
            for x in (cx - r - 1.0).floor() as i32..(cx + r + 1.0).ceil() as i32 {
                let d = (x as f32 + 0.5 - cx).hypot(y as f32 + 0.5 - cy);
                self.blend(x, y, color, r + 0.5 - d);
            }
        }
    }

    /// Fills the area between two curves given column by column: for each whole x from `x0`,
    /// `spans[i]` is (top, bottom) of column `x0 + i`. Fractional ends are anti-aliased.
    pub fn fill_columns(&mut self, x0: i32, spans: &[(f32, f32)], color: Rgba) {
        for (i, &(top, bottom)) in spans.iter().enumerate() {
            let x = x0 + i as i32;
            for y in top.floor() as i32..bottom.ceil() as i32 {
                let cover = ((y + 1) as f32).min(bottom) - (y as f32).max(top);
                self.blend(x, y, color, cover);
            }
        }
    }

    /// Draws `text` with its baseline at y = `baseline`, starting at x; returns the advance.
    pub fn text(&mut self, text: &str, x: f32, baseline: f32, px: f32, face: Face, color: Rgba) -> f32 {
        let f = font(face);
        let (placed, width) = layout(text, px, face);
        for p in placed {
            let gx = x + p.x;
            match p.source {
                Source::Primary => {
                    let glyph = f.glyph_id(p.c).with_scale_and_position(PxScale::from(px), point(gx, baseline));
                    if let Some(outlined) = f.outline_glyph(glyph) {
                        let b = outlined.px_bounds();
                        outlined.draw(|dx, dy, cov| {
                            self.blend(b.min.x as i32 + dx as i32, b.min.y as i32 + dy as i32, color, cov);
                        });
                    }
                }
                Source::Fallback => {
                    if let Some(g) = unifont::get_glyph(p.c) {
                        self.bitmap_glyph(g, gx, baseline, px, color);
                        if face == Face::Bold {
                            // Unifont has one weight: a second pass half a cell across thickens it.
                            self.bitmap_glyph(g, gx + cell(px) * 0.5, baseline, px, color);
                        }
                    }
                }
                Source::Missing => {
                    let (w, h) = (px * 0.5, px * 0.68);
                    let (l, t) = (gx + px * 0.06, baseline - h);
                    let s = (px / 16.0).max(1.0);
                    self.fill_rect(l, t, l + w, t + s, color);
                    self.fill_rect(l, baseline - s, l + w, baseline, color);
                    self.fill_rect(l, t, l + s, baseline, color);
                    self.fill_rect(l + w - s, t, l + w, baseline, color);
                }
            }
        }
        width
    }

    /// A Unifont bitmap scaled to text size `px` with box-filtered (anti-aliased) edges.
    fn bitmap_glyph(&mut self, g: &unifont::Glyph, x: f32, baseline: f32, px: f32, color: Rgba) {
        let s = cell(px);
        // Unifont's baseline is below row 13: two rows hang below it.
        let top = baseline - 14.0 * s;
        let (w, h) = (g.get_width() as f32 * s, 16.0 * s);
        const SUB: usize = 4;
        for oy in top.floor() as i32..(top + h).ceil() as i32 {
            for ox in x.floor() as i32..(x + w).ceil() as i32 {
                let mut hits = 0;
                for sy in 0..SUB {
                    for sx in 0..SUB {
                        let bx = (ox as f32 + (sx as f32 + 0.5) / SUB as f32 - x) / s;
                        let by = (oy as f32 + (sy as f32 + 0.5) / SUB as f32 - top) / s;
                        if bx >= 0.0 && by >= 0.0 && g.get_pixel(bx as usize, by as usize) {
                            hits += 1;
                        }
                    }
                }
                if hits > 0 {
                    self.blend(ox, oy, color, hits as f32 / (SUB * SUB) as f32);
                }
            }
        }
    }

    /// The picture as PNG bytes.
    pub fn png(&self) -> Vec<u8> {
        super::encode::rgb_png(self.width, self.height, &self.rgb)
    }
}

/// A colour between `a` (t = 0) and `b` (t = 1), opaque.
pub fn mix(a: Rgba, b: Rgba, t: f32) -> Rgba {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t.clamp(0.0, 1.0)).round() as u8;
    Rgba(m(a.0, b.0), m(a.1, b.1), m(a.2, b.2), 255)
}

/// `c` with alpha `a`.
pub fn with_alpha(c: Rgba, a: u8) -> Rgba {
    Rgba(c.0, c.1, c.2, a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_chain_per_character() {
        for c in "Işıl Çağlar Дмитрий Αθήνα".chars().filter(|c| !c.is_whitespace()) {
            assert_eq!(source_of(c), Source::Primary, "{c}");
        }
        for c in "王小明".chars() {
            assert_eq!(source_of(c), Source::Fallback, "{c}");
        }
        assert_eq!(source_of('\u{10ffff}'), Source::Missing);
    }

    #[test]
    fn clean_drops_controls_and_bounds_length() {
        assert_eq!(clean("  a\u{202e}b\t\nc\u{0}  "), "ab c");
        assert_eq!(clean(&"x".repeat(1000)).chars().count(), MAX_TEXT_CHARS);
    }

    #[test]
    fn measuring_and_fitting() {
        let w = measure("Hello", 20.0, Face::Regular);
        assert!(w > 30.0 && w < 80.0, "{w}");
        assert!(measure("Hello", 20.0, Face::Bold) > w);
        assert!(measure("王小明", 20.0, Face::Regular) > 40.0);
        let long = "Bartholomew Montgomery-Fitzwilliam the Third";
        let short = fit(long, 20.0, Face::Regular, 150.0);
        assert!(short.ends_with('…') && measure(&short, 20.0, Face::Regular) <= 150.0, "{short}");
        assert_eq!(fit("Bob", 20.0, Face::Regular, 150.0), "Bob");
    }

    #[test]
    fn drawing_marks_pixels_and_encodes() {
        let mut c = Canvas::new(120, 40, Rgba(255, 255, 255, 255));
        c.text("Aж王\u{10ffff}", 4.0, 28.0, 20.0, Face::Regular, Rgba(0, 0, 0, 255));
        let dark = c.rgb().chunks_exact(3).filter(|p| p[0] < 128).count();
        assert!(dark > 50, "{dark}");
        let png = c.png();
        assert_eq!(&png[1..4], b"PNG");
    }
}

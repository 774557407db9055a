//! Pixel work done once per cache entry: rasterising SVG with resvg, piece sprites, and composing one square
//! ("tile") from its background, markers, piece and labels.

use super::assets;
use super::glyphs;
use super::theme::ThemeData;
use crate::rules::Piece;
use resvg::tiny_skia::{Pixmap, PixmapPaint, Transform};
use resvg::usvg;

/// The tint laid over a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tint {
    None,
    /// From/to square of the last move (or a launch's origin).
    LastMove,
    /// Inside a launch's 3×3 blast area.
    Blast,
}

/// Screen-side edges of a square, as bits: which sides of a square border the outside of a shield.
pub const EDGE_TOP: u8 = 1;
pub const EDGE_RIGHT: u8 = 2;
pub const EDGE_BOTTOM: u8 = 4;
pub const EDGE_LEFT: u8 = 8;
/// The square is inside the shield (edge bits say where its outline runs).
pub const IN_SHIELD: u8 = 16;

/// Everything that decides how one square looks. Equal keys give identical tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileKey {
    pub dark: bool,
    pub tint: Tint,
    pub check: bool,
    pub irradiated: bool,
    /// Per king colour: `IN_SHIELD` plus `EDGE_*` bits, or 0.
    pub shield: [u8; 2],
    pub launch_ready: bool,
    /// Secret-bomb chess: this piece is the viewer's own bomb (only in pictures for that player).
    pub bomb: bool,
    pub piece: Option<Piece>,
    /// File letter (0 = a) drawn bottom right, rank number (0 = 1) drawn top left.
    pub file_label: Option<u8>,
    pub rank_label: Option<u8>,
}

impl TileKey {
    /// A plain square.
    pub fn plain(dark: bool) -> TileKey {
        TileKey {
            dark,
            tint: Tint::None,
            check: false,
            irradiated: false,
            shield: [0, 0],
            launch_ready: false,
            bomb: false,
            piece: None,
            file_label: None,
            rank_label: None,
        }
    }
}

/// Rasterises an SVG document (viewBox 0 0 100 100 unless `w`, `h` say otherwise) to `width`×`height` pixels,
/// scaled uniformly by `scale` pixels per unit, onto `pixmap`.
pub fn draw_svg(doc: &str, pixmap: &mut Pixmap, scale: f32) {
    match usvg::Tree::from_str(doc, &usvg::Options::default()) {
        Ok(tree) => resvg::render(&tree, Transform::from_scale(scale, scale), &mut pixmap.as_mut()),
        Err(e) => debug_assert!(false, "built-in SVG does not parse: {e}"),
    }
}

/// A fresh transparent pixmap (sizes here are always at least 1×1).
pub fn pixmap(width: u32, height: u32) -> Pixmap {
    Pixmap::new(width.max(1), height.max(1)).unwrap_or_else(|| Pixmap::new(1, 1).expect("1×1 pixmap"))
}

/// One piece rasterised at `size`×`size` pixels (transparent background).
pub fn piece_sprite(piece: Piece, theme: &ThemeData, size: u32) -> Pixmap {
    let mut p = pixmap(size, size);
    draw_svg(&assets::piece_svg(piece, theme), &mut p, size as f32 / 100.0);
    p
}

fn doc(body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" viewBox=\"0 0 100 100\">{body}</svg>"
    )
}

fn rect(color: super::theme::Rgba) -> String {
    format!("<rect width=\"100\" height=\"100\" fill=\"{}\" fill-opacity=\"{}\"/>", color.hex(), color.opacity())
}

/// Label size: font units to square units, raised on small squares so digits stay at least
/// `LABEL_MIN_CAP_PX` pixels tall.
const LABEL_SCALE: f32 = 2.3;
const LABEL_MAX_SCALE: f32 = 3.1;
const LABEL_MIN_CAP_PX: f32 = 8.0;
const LABEL_PEN: f32 = 1.3;

fn label_scale(size: u32) -> f32 {
    let min_for_pixels = LABEL_MIN_CAP_PX * 100.0 / (glyphs::CAP_HEIGHT * size.max(1) as f32);
    LABEL_SCALE.max(min_for_pixels).min(LABEL_MAX_SCALE)
}

/// The SVG markup under the piece: square colour, tints, shields, radiation, check glow, coordinates.
fn under_layer(key: &TileKey, t: &ThemeData, size: u32) -> String {
    let mut s = rect(if key.dark { t.dark } else { t.light });
    match key.tint {
        Tint::None => {}
        Tint::LastMove => s.push_str(&rect(t.last_move)),
        Tint::Blast => s.push_str(&rect(t.blast)),
    }
    for c in 0..2 {
        if key.shield[c] & IN_SHIELD != 0 {
            s.push_str(&rect(t.shield_tint[c]));
        }
    }
    if key.irradiated {
        s.push_str(&format!(
            "<g stroke=\"{}\" stroke-opacity=\"{}\" stroke-width=\"5\">",
            t.hatch.hex(),
            t.hatch.opacity()
        ));
        for k in -5..=5 {
            let x = k * 20;
            s.push_str(&format!("<path d=\"M {x} 100 L {} 0\"/>", x + 100));
        }
        s.push_str("</g>");
        s.push_str(&format!("<g transform=\"translate(16 16) scale(0.68)\">{}</g>", assets::radiation_svg(t)));
    }
    if key.check {
        s.push_str(&format!(
            "<defs><radialGradient id=\"chk\" cx=\"50\" cy=\"50\" r=\"62\" gradientUnits=\"userSpaceOnUse\">\
             <stop offset=\"0\" stop-color=\"{c}\" stop-opacity=\"1\"/>\
             <stop offset=\"0.4\" stop-color=\"{c}\" stop-opacity=\"0.85\"/>\
             <stop offset=\"1\" stop-color=\"{c}\" stop-opacity=\"0\"/></radialGradient></defs>\
             <rect width=\"100\" height=\"100\" fill=\"url(#chk)\"/>",
            c = t.check.hex()
        ));
    }
    for c in 0..2 {
        let bits = key.shield[c];
        if bits & IN_SHIELD == 0 || bits & 15 == 0 {
            continue;
        }
        let mut d = String::new();
        let lines = [
            (EDGE_TOP, "M 0 3 L 100 3 "),
            (EDGE_RIGHT, "M 97 0 L 97 100 "),
            (EDGE_BOTTOM, "M 0 97 L 100 97 "),
            (EDGE_LEFT, "M 3 0 L 3 100 "),
        ];
        for (bit, seg) in lines {
            if bits & bit != 0 {
                d.push_str(seg);
            }
        }
        s.push_str(&format!(
            "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-opacity=\"{}\" stroke-width=\"9\"/>\
             <path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"5\"/>",
            t.shield_halo[c].hex(),
            t.shield_halo[c].opacity(),
            t.shield_line[c].hex()
        ));
    }
    let scale = label_scale(size);
    let label_color = if key.dark { t.coord_on_dark } else { t.coord_on_light };
    if let Some(r) = key.rank_label {
        let text = (u32::from(r) + 1).to_string();
        let baseline = 4.0 + (glyphs::BASELINE - 1.0) * scale;
        s.push_str(&glyphs::text_svg(&text, 4.0, baseline, scale, &label_color.hex(), LABEL_PEN));
    }
    if let Some(f) = key.file_label {
        let text = char::from(b'a' + f.min(25)).to_string();
        let x = 96.0 - glyphs::text_width(&text) * scale;
        let baseline = 100.0 - 4.0 - 2.4 * scale;
        s.push_str(&glyphs::text_svg(&text, x, baseline.max(88.0), scale, &label_color.hex(), LABEL_PEN));
    }
    doc(&s)
}

/// The SVG markup over the piece: the launch-ready mark (top right) and the own-bomb mark (bottom left: a
/// round bomb with a lit fuse).
fn over_layer(key: &TileKey, t: &ThemeData) -> Option<String> {
    if !key.launch_ready && !key.bomb {
        return None;
    }
    let mut s = String::new();
    if key.launch_ready {
        s.push_str(&format!(
            "<circle cx=\"86\" cy=\"14\" r=\"8\" fill=\"{}\" stroke=\"{}\" stroke-width=\"2.5\"/>",
            t.launch_mark.hex(),
            t.launch_mark_edge.hex()
        ));
    }
    if key.bomb {
        s.push_str(&format!(
            "<path d=\"M 18 80 Q 20 72 27 71\" fill=\"none\" stroke=\"{edge}\" stroke-width=\"2.5\"/>\
             <circle cx=\"14\" cy=\"86\" r=\"9\" fill=\"{edge}\" stroke=\"{spark}\" stroke-width=\"2\"/>\
             <circle cx=\"28\" cy=\"70\" r=\"4\" fill=\"{spark}\"/>",
            edge = t.launch_mark_edge.hex(),
            spark = t.launch_mark.hex()
        ));
    }
    Some(doc(&s))
}

/// Composes one square at `size` pixels. `sprite` is the cached piece sprite for `key.piece`, if any.
pub fn tile(key: &TileKey, t: &ThemeData, size: u32, sprite: Option<&Pixmap>) -> Pixmap {
    let mut p = pixmap(size, size);
    let scale = size as f32 / 100.0;
    draw_svg(&under_layer(key, t, size), &mut p, scale);
    if let Some(sp) = sprite {
        p.draw_pixmap(0, 0, sp.as_ref(), &PixmapPaint::default(), Transform::identity(), None);
    }
    if let Some(over) = over_layer(key, t) {
        draw_svg(&over, &mut p, scale);
    }
    p
}

/// Composes a title strip `width`×`height` pixels with `text` left-aligned, shrunk to fit.
pub fn title_strip(text: &str, t: &ThemeData, width: u32, height: u32) -> Pixmap {
    let mut p = pixmap(width, height);
    p.fill(resvg::tiny_skia::Color::from_rgba8(t.title_bg.0, t.title_bg.1, t.title_bg.2, 255));
    let h = height as f32;
    let pad = h * 0.35;
    let mut scale = h * 0.42 / glyphs::CAP_HEIGHT;
    let w = glyphs::text_width(text) * scale;
    if w > width as f32 - 2.0 * pad {
        scale *= (width as f32 - 2.0 * pad) / w.max(1.0);
    }
    let baseline = h * 0.5 + glyphs::CAP_HEIGHT * scale * 0.5;
    let body = glyphs::text_svg(text, pad, baseline, scale, &t.title_text.hex(), 1.1);
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">{body}</svg>"
    );
    draw_svg(&svg, &mut p, 1.0);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_grow_on_small_squares() {
        assert_eq!(label_scale(100), LABEL_SCALE);
        assert!(label_scale(40) > LABEL_SCALE);
        assert_eq!(label_scale(1), LABEL_MAX_SCALE);
    }
    use crate::render::theme::Theme;
    use crate::rules::{Color, Role};

    fn px(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        let c = p.pixel(x, y).expect("inside").demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    }

    #[test]
    fn plain_tile_is_the_square_colour() {
        let t = Theme::Wood.data();
        let p = tile(&TileKey::plain(true), t, 40, None);
        assert_eq!(px(&p, 20, 20), [t.dark.0, t.dark.1, t.dark.2, 255]);
        let p = tile(&TileKey::plain(false), t, 40, None);
        assert_eq!(px(&p, 3, 37), [t.light.0, t.light.1, t.light.2, 255]);
    }

    #[test]
    fn sprite_covers_the_middle_and_not_the_corner() {
        let t = Theme::Wood.data();
        for role in Role::ALL {
            let sp = piece_sprite(Piece::new(Color::White, role), t, 60);
            assert_eq!(px(&sp, 0, 0)[3], 0, "{role:?} corner");
            let covered = sp.pixels().iter().filter(|c| c.alpha() > 128).count();
            assert!(covered > 60 * 60 / 6, "{role:?} covers only {covered} px");
        }
    }

    #[test]
    fn markers_change_the_tile() {
        let t = Theme::Green.data();
        let plain = tile(&TileKey::plain(false), t, 32, None);
        for key in [
            TileKey { irradiated: true, ..TileKey::plain(false) },
            TileKey { check: true, ..TileKey::plain(false) },
            TileKey { tint: Tint::LastMove, ..TileKey::plain(false) },
            TileKey { shield: [IN_SHIELD | EDGE_TOP, 0], ..TileKey::plain(false) },
            TileKey { launch_ready: true, ..TileKey::plain(false) },
            TileKey { rank_label: Some(9), ..TileKey::plain(false) },
        ] {
            assert_ne!(tile(&key, t, 32, None).data(), plain.data(), "{key:?}");
        }
    }
}

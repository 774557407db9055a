//! A board picture with arrows on it (an analysis's turning point: the move played and the better
//! one). The board is drawn as [`super::render`] draws it; the arrows are painted over it, anti-aliased
//! and half transparent so the pieces under them stay visible.

use super::text::Canvas;
use super::theme::Rgba;
use super::{Layout, RenderOptions, Theme, render};
use crate::rules::{Color, Position, Square};

/// What an arrow shows, which decides its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ArrowKind {
    /// The move played (red; orange on the high-contrast theme).
    Played,
    /// The move the analysis prefers (green; blue on the high-contrast theme).
    Better,
}

/// An arrow from the centre of one square to the centre of another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    pub kind: ArrowKind,
}

/// Most arrows drawn on one picture.
pub const MAX_ARROWS: usize = 8;

fn arrow_color(kind: ArrowKind, theme: Theme) -> Rgba {
    match (kind, theme) {
        (ArrowKind::Played, Theme::Contrast) => Rgba(236, 120, 0, 200),
        (ArrowKind::Better, Theme::Contrast) => Rgba(20, 84, 200, 200),
        (ArrowKind::Played, _) => Rgba(204, 44, 36, 190),
        (ArrowKind::Better, _) => Rgba(24, 136, 60, 190),
    }
}

/// The centre of a square in picture pixels.
fn centre(layout: &Layout, orientation: Color, sq: Square) -> (f32, f32) {
    let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
    let (col, row) = match orientation {
        Color::White => (f, layout.ranks.saturating_sub(1 + r)),
        Color::Black => (layout.files.saturating_sub(1 + f), r),
    };
    let s = layout.square as f32;
    (col as f32 * s + s / 2.0, layout.title_height as f32 + row as f32 * s + s / 2.0)
}

/// The board of `pos` as [`render`] draws it, with `arrows` painted over it (PNG, true colour). An
/// arrow whose squares are not on the board is left out; so are arrows beyond [`MAX_ARROWS`].
pub fn render_with_arrows(pos: &Position, opts: &RenderOptions, arrows: &[Arrow]) -> Vec<u8> {
    let board = render(pos, opts);
    let Some(mut cv) = Canvas::from_png(&board) else { return board };
    let layout = Layout::new(pos, opts);
    let v = pos.variant();
    let s = layout.square as f32;
    for a in arrows.iter().take(MAX_ARROWS) {
        if !v.contains(a.from) || !v.contains(a.to) || a.from == a.to {
            continue;
        }
        let (x0, y0) = centre(&layout, opts.orientation, a.from);
        let (x1, y1) = centre(&layout, opts.orientation, a.to);
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = dx.hypot(dy);
        let (ux, uy) = (dx / len, dy / len);
        let head = (s * 0.42).min(len * 0.6);
        let half = s * 0.24;
        // The shaft stops where the head begins, so the two never blend twice.
        let (bx, by) = (x1 - ux * head, y1 - uy * head);
        let color = arrow_color(a.kind, opts.theme);
        cv.arrow_shaft(x0 + ux * s * 0.12, y0 + uy * s * 0.12, bx, by, s * 0.16, color);
        cv.fill_triangle([(x1, y1), (bx - uy * half, by + ux * half), (bx + uy * half, by - ux * half)], color);
    }
    cv.png()
}

impl Canvas {
    /// A straight bar from (x0, y0) to (x1, y1), `width` wide, with square ends: each pixel blended
    /// once, so a half-transparent bar has an even tint.
    fn arrow_shaft(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, width: f32, color: Rgba) {
        let (dx, dy) = (x1 - x0, y1 - y0);
        let len = dx.hypot(dy);
        if len < 0.5 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let h = width / 2.0;
        let (nx, ny) = (-uy * h, ux * h);
        self.fill_quad([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], color);
    }

    /// A filled triangle, anti-aliased by 4×4 samples per pixel.
    fn fill_triangle(&mut self, pts: [(f32, f32); 3], color: Rgba) {
        self.fill_convex(&pts, color);
    }

    fn fill_quad(&mut self, pts: [(f32, f32); 4], color: Rgba) {
        self.fill_convex(&pts, color);
    }

    /// A filled convex polygon (points in either winding), anti-aliased by 4×4 samples per pixel.
    fn fill_convex(&mut self, pts: &[(f32, f32)], color: Rgba) {
        let xs = pts.iter().map(|p| p.0);
        let ys = pts.iter().map(|p| p.1);
        let (x0, x1) = (xs.clone().fold(f32::INFINITY, f32::min), xs.fold(f32::NEG_INFINITY, f32::max));
        let (y0, y1) = (ys.clone().fold(f32::INFINITY, f32::min), ys.fold(f32::NEG_INFINITY, f32::max));
        let (w, h) = (self.width() as f32, self.height() as f32);
        let inside = |px: f32, py: f32| {
            let mut sign = 0.0f32;
            for i in 0..pts.len() {
                let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
                let cross = (b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0);
                if cross != 0.0 {
                    if sign != 0.0 && cross.signum() != sign {
                        return false;
                    }
                    sign = cross.signum();
                }
            }
            true
        };
        const SUB: usize = 4;
        for y in y0.max(0.0).floor() as i32..y1.min(h).ceil() as i32 {
            for x in x0.max(0.0).floor() as i32..x1.min(w).ceil() as i32 {
                let mut hits = 0;
                for sy in 0..SUB {
                    for sx in 0..SUB {
                        let px = x as f32 + (sx as f32 + 0.5) / SUB as f32;
                        let py = y as f32 + (sy as f32 + 0.5) / SUB as f32;
                        if inside(px, py) {
                            hits += 1;
                        }
                    }
                }
                if hits > 0 {
                    self.blend(x, y, color, hits as f32 / (SUB * SUB) as f32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant;

    fn rgb(png: &[u8]) -> Canvas {
        Canvas::from_png(png).expect("a PNG")
    }

    #[test]
    fn arrows_tint_the_squares_they_cross_and_nothing_else() {
        let pos = Position::start(&variant::CHESS);
        let opts = RenderOptions { size: 320, ..Default::default() };
        let sq = |s: &str| Square::parse(s).expect("square");
        let plain = rgb(&render_with_arrows(&pos, &opts, &[]));
        let arrows = [
            Arrow { from: sq("e2"), to: sq("e4"), kind: ArrowKind::Played },
            Arrow { from: sq("g1"), to: sq("f3"), kind: ArrowKind::Better },
            // Off the board: left out, no panic.
            Arrow { from: sq("a1"), to: Square::new(9, 9), kind: ArrowKind::Better },
        ];
        let drawn = rgb(&render_with_arrows(&pos, &opts, &arrows));
        assert_eq!((plain.width(), plain.height()), (drawn.width(), drawn.height()));
        // e3 (between e2 and e4) is reddened; a8 is untouched.
        let (e3, a8) = ((4 * 40 + 20, 5 * 40 + 20), (20, 20));
        let (p, d) = (plain.pixel(e3.0, e3.1), drawn.pixel(e3.0, e3.1));
        assert!(d[0] > d[1] + 60 && p != d, "{p:?} → {d:?}");
        assert_eq!(plain.pixel(a8.0, a8.1), drawn.pixel(a8.0, a8.1));
        // Seen from Black the same arrow crosses the mirrored square.
        let flipped = RenderOptions { orientation: Color::Black, ..opts.clone() };
        let d = rgb(&render_with_arrows(&pos, &flipped, &arrows[..1]));
        let px = d.pixel(3 * 40 + 20, 2 * 40 + 20);
        assert!(px[0] > px[1] + 60, "{px:?}");
    }
}

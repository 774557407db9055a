//! A whole game as an animated GIF: one frame per ply from the start position to the end, each frame
//! the same squares the still picture of that position shows (the last move tinted, Capatomic's
//! radiation, shields and launch blasts, atomic captures' empty squares), the players' names in a
//! strip above and below the board, the result written on the last frame, and longer pauses on the
//! first and last frames.
//!
//! The approach is lila-gif's: one global palette (the theme's, the very palette of the still PNGs,
//! so a frame's palette indices are the still picture's), no per-frame quantization, and every frame
//! after the first stored as the rectangle that changed, its unchanged pixels transparent. Squares
//! come from the tile cache, so a frame costs a comparison of tile keys, a few tile copies and the
//! LZW coding of a small rectangle. Launch-ready marks are left out: they are a hint for the player
//! to move, not part of the record, and they would flip sides on every ply.

use super::cache::{self, ThemeCache};
use super::options::{MIN_SIZE, RenderOptions};
use super::raster::TileKey;
use super::text::{self, Canvas, Face};
use super::theme::Theme;
use super::{Layout, blit_square, tile_keys};
use crate::rules::{Color, Game};
use std::borrow::Cow;
use std::fmt;

/// Most plies animated; longer games are refused (a frame per ply keeps the file and the work bounded).
pub const MAX_PLIES: usize = 600;
/// Largest board side of an animation in pixels (stills go larger); larger requests are clamped.
pub const MAX_GIF_SIZE: u32 = 800;
/// Frame delays in hundredths of a second: the start, each ply, the end.
pub const FIRST_DELAY_CS: u16 = 150;
pub const PLY_DELAY_CS: u16 = 80;
pub const LAST_DELAY_CS: u16 = 400;

/// What to animate.
#[derive(Clone, Copy, Debug)]
pub struct GifRequest<'a> {
    /// The game from its start position (after any relocation swaps) to now.
    pub game: &'a Game,
    /// The players' names as shown (cleaned and shortened to fit here).
    pub white: &'a str,
    pub black: &'a str,
    /// Written on the last frame, e.g. `1-0 · checkmate`; `None` while the game goes on.
    pub result: Option<&'a str>,
    /// Whose side is at the bottom.
    pub orientation: Color,
    /// Board size in pixels along its longer side, clamped to [`MIN_SIZE`]..=[`MAX_GIF_SIZE`].
    pub size: u32,
    pub theme: Theme,
}

/// How frames after the first are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameMode {
    /// The changed rectangle only, unchanged pixels transparent (what [`render_gif`] writes).
    Changed,
    /// Every frame whole (for measuring what the other mode saves).
    Full,
}

/// Why no animation was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GifError {
    /// The game has more plies than [`MAX_PLIES`].
    TooLong { plies: usize },
    /// The encoder failed (writing into memory; not expected).
    Encoding(String),
}

impl fmt::Display for GifError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GifError::TooLong { plies } => {
                write!(f, "the game has {plies} plies; animations stop at {MAX_PLIES}")
            }
            GifError::Encoding(e) => write!(f, "GIF encoding failed: {e}"),
        }
    }
}

impl std::error::Error for GifError {}

/// Pixel geometry of an animation: a name strip, the board, a name strip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GifLayout {
    pub board: Layout,
    /// Height of each name strip.
    pub strip: u32,
}

impl GifLayout {
    pub fn width(&self) -> u32 {
        self.board.width()
    }

    pub fn height(&self) -> u32 {
        self.board.ranks * self.board.square + 2 * self.strip
    }
}

/// The still-picture options a frame of `req` is drawn with (no title strip, no launch-ready marks).
pub fn frame_options(req: &GifRequest<'_>, ply: usize) -> RenderOptions {
    RenderOptions {
        size: req.size.clamp(MIN_SIZE, MAX_GIF_SIZE),
        orientation: req.orientation,
        theme: req.theme,
        last_move: ply.checked_sub(1).and_then(|i| req.game.moves().get(i).copied()),
        show_launch_ready: false,
        title: None,
        coordinates: true,
        // The animation is for everyone: no secret bomb is ever marked in it.
        show_bomb_of: None,
    }
}

/// The geometry of `req`'s animation.
pub fn gif_layout(req: &GifRequest<'_>) -> GifLayout {
    let board = Layout::new(req.game.start(), &frame_options(req, 0));
    GifLayout { board, strip: (board.square * 3 / 5).max(24) }
}

/// The game as an animated GIF, frames after the first stored as changed rectangles.
pub fn render_gif(req: &GifRequest<'_>) -> Result<Vec<u8>, GifError> {
    render_gif_frames(req, FrameMode::Changed)
}

/// The game as an animated GIF with frames stored as `mode` says.
pub fn render_gif_frames(req: &GifRequest<'_>, mode: FrameMode) -> Result<Vec<u8>, GifError> {
    let positions = req.game.positions();
    let plies = positions.len().saturating_sub(1);
    if plies > MAX_PLIES {
        return Err(GifError::TooLong { plies });
    }
    let gl = gif_layout(req);
    let (width, height) = (gl.width() as usize, gl.height() as usize);
    let board_top = gl.strip as usize;
    let strip_len = width * gl.strip as usize;
    let (top_color, bottom_color) = (req.orientation.other(), req.orientation);
    let name = |c: Color| if c == Color::White { req.white } else { req.black };

    let (palette, strips) = cache::with_theme(req.theme, |c| {
        let mut strip = |color: Color, result: Option<&str>| {
            let canvas = name_strip(name(color), color, result, req.theme, gl.width(), gl.strip);
            c.quantize_rgb(canvas.rgb())
        };
        // Above, below, and above on the last frame with the result.
        let strips = [strip(top_color, None), strip(bottom_color, None), strip(top_color, req.result)];
        (c.palette_bytes(), strips)
    });

    let mut out = Vec::new();
    let mut enc = gif::Encoder::new(&mut out, gl.width() as u16, gl.height() as u16, &palette)
        .map_err(|e| GifError::Encoding(e.to_string()))?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(|e| GifError::Encoding(e.to_string()))?;

    let mut canvas = vec![0u8; width * height];
    let mut next = vec![0u8; width * height];
    let mut keys: Vec<TileKey> = Vec::new();
    let bottom_start = (board_top + (gl.board.ranks * gl.board.square) as usize) * width;
    for (ply, pos) in positions.iter().enumerate() {
        let last = ply == plies;
        let delay = if ply == 0 {
            FIRST_DELAY_CS
        } else if last {
            LAST_DELAY_CS
        } else {
            PLY_DELAY_CS
        };
        let new_keys = tile_keys(pos, &frame_options(req, ply), &gl.board);
        // The changed region, in whole squares and strips: rows [y0, y1), columns [x0, x1).
        let mut region: Option<(usize, usize, usize, usize)> = None;
        let mut grow = |x0: usize, y0: usize, x1: usize, y1: usize| {
            region = Some(match region {
                None => (x0, y0, x1, y1),
                Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
            });
        };
        let changed: Vec<usize> = (0..new_keys.len()).filter(|&i| keys.get(i) != Some(&new_keys[i])).collect();
        let tiles = cache::with_theme(req.theme, |c| tiles_for(c, &gl.board, &new_keys, &changed));
        let sq = gl.board.square as usize;
        for (&i, tile) in changed.iter().zip(&tiles) {
            blit_square(&gl.board, i, tile, &mut next, width, board_top);
            let (col, row) = (i % gl.board.files as usize, i / gl.board.files as usize);
            grow(col * sq, board_top + row * sq, (col + 1) * sq, board_top + (row + 1) * sq);
        }
        let top = if last && req.result.is_some() { &strips[2] } else { &strips[0] };
        if ply == 0 {
            next[..strip_len].copy_from_slice(top);
            next[bottom_start..bottom_start + strip_len].copy_from_slice(&strips[1]);
            grow(0, 0, width, height);
        } else if last && req.result.is_some() {
            next[..strip_len].copy_from_slice(top);
            grow(0, 0, width, board_top);
        }
        keys = new_keys;
        let frame = if ply == 0 || mode == FrameMode::Full {
            whole_frame(&next, gl.width() as u16, gl.height() as u16)
        } else {
            changed_frame(&canvas, &next, width, region)
        };
        enc.write_frame(&gif::Frame { delay, dispose: gif::DisposalMethod::Keep, ..frame })
            .map_err(|e| GifError::Encoding(e.to_string()))?;
        if let Some((x0, y0, x1, y1)) = region {
            for y in y0..y1 {
                canvas[y * width + x0..y * width + x1].copy_from_slice(&next[y * width + x0..y * width + x1]);
            }
        }
    }
    enc.into_inner().map_err(|e| GifError::Encoding(e.to_string()))?;
    Ok(out)
}

fn tiles_for(c: &mut ThemeCache, layout: &Layout, keys: &[TileKey], which: &[usize]) -> Vec<std::sync::Arc<[u8]>> {
    which.iter().map(|&i| c.tile(layout.square, &keys[i])).collect()
}

fn whole_frame(pixels: &[u8], width: u16, height: u16) -> gif::Frame<'_> {
    gif::Frame { width, height, buffer: Cow::Borrowed(pixels), ..gif::Frame::default() }
}

/// The part of `next` that differs from `shown` inside `region`, cropped to the pixels that changed,
/// with the unchanged pixels inside the crop set to a transparent index that no changed pixel uses.
fn changed_frame(
    shown: &[u8],
    next: &[u8],
    width: usize,
    region: Option<(usize, usize, usize, usize)>,
) -> gif::Frame<'static> {
    // Tighten the region to the pixels that really differ (a tile key may change where the pixels
    // do not, e.g. a label on both looks).
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    if let Some((x0, y0, x1, y1)) = region {
        for y in y0..y1 {
            let row = y * width;
            let (a, b) = (&shown[row + x0..row + x1], &next[row + x0..row + x1]);
            if a == b {
                continue;
            }
            let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0) + x0;
            let end = x1 - a.iter().zip(b).rev().position(|(p, q)| p != q).unwrap_or(0);
            bounds = Some(match bounds {
                None => (first, y, end, y + 1),
                Some((l, t, r, _)) => (l.min(first), t, r.max(end), y + 1),
            });
        }
    }
    let Some((x0, y0, x1, y1)) = bounds else {
        // Nothing changed: one transparent pixel carries the frame's delay.
        let keep = shown.first().copied().unwrap_or(0);
        return gif::Frame {
            width: 1,
            height: 1,
            transparent: Some(keep),
            buffer: Cow::Owned(vec![keep]),
            ..Default::default()
        };
    };
    let mut used = [false; 256];
    for y in y0..y1 {
        for x in x0..x1 {
            let (p, q) = (shown[y * width + x], next[y * width + x]);
            if p != q {
                used[usize::from(q)] = true;
            }
        }
    }
    let transparent = used.iter().position(|u| !u).map(|i| i as u8);
    let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
    for y in y0..y1 {
        for x in x0..x1 {
            let (p, q) = (shown[y * width + x], next[y * width + x]);
            buffer.push(match transparent {
                Some(t) if p == q => t,
                _ => q,
            });
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        transparent,
        buffer: Cow::Owned(buffer),
        ..gif::Frame::default()
    }
}

/// A name strip: a disc in the player's colour, the name, and `result` right-aligned when given.
fn name_strip(name: &str, color: Color, result: Option<&str>, theme: Theme, width: u32, height: u32) -> Canvas {
    let t = theme.data();
    let mut c = Canvas::new(width, height, t.title_bg);
    let h = height as f32;
    let px = h * 0.5;
    let baseline = h * 0.5 + text::ascent(px) * 0.38;
    let pad = h * 0.35;
    let r = h * 0.2;
    let i = color.index();
    // A ring in the strip's text colour keeps the black disc visible on the dark strip.
    c.disc(pad + r, h * 0.5, r + 1.2, t.title_text);
    c.disc(pad + r, h * 0.5, r, t.piece_fill[i]);
    let mut right = width as f32 - pad;
    if let Some(res) = result {
        let res = text::fit(&text::clean(res), px, Face::Bold, width as f32 * 0.5);
        let w = text::measure(&res, px, Face::Bold);
        right -= w;
        c.text(&res, right, baseline, px, Face::Bold, t.title_text);
        right -= pad;
    }
    let x = pad + 2.0 * r + pad * 0.8;
    let shown = text::fit(&text::clean(name), px, Face::Regular, (right - x).max(0.0));
    c.text(&shown, x, baseline, px, Face::Regular, t.title_text);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Position, variant};

    fn game(v: &'static crate::rules::Variant, plies: usize) -> Game {
        let mut g = Game::new(Position::start(v));
        for ply in 0..plies {
            let moves = g.position().legal_moves();
            let Some(&m) = moves.get((ply * 7 + 3) % moves.len().max(1)) else { break };
            g.play(m);
        }
        g
    }

    fn request(g: &Game) -> GifRequest<'_> {
        GifRequest {
            game: g,
            white: "alice",
            black: "bob",
            result: Some("1-0 · checkmate"),
            orientation: Color::White,
            size: 320,
            theme: Theme::Wood,
        }
    }

    /// A decoded frame: left, top, width, height, delay, transparent index.
    type FrameInfo = (u16, u16, u16, u16, u16, Option<u8>);

    fn frames(bytes: &[u8]) -> (u16, u16, Vec<FrameInfo>) {
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut d = opts.read_info(bytes).unwrap();
        let (w, h) = (d.width(), d.height());
        let mut out = Vec::new();
        while let Some(f) = d.read_next_frame().unwrap() {
            out.push((f.left, f.top, f.width, f.height, f.delay, f.transparent));
        }
        (w, h, out)
    }

    #[test]
    fn one_frame_per_ply_and_the_start_with_long_first_and_last_pauses() {
        let g = game(&variant::CAPATOMIC, 12);
        let bytes = render_gif(&request(&g)).unwrap();
        let (w, h, f) = frames(&bytes);
        let gl = gif_layout(&request(&g));
        assert_eq!((u32::from(w), u32::from(h)), (gl.width(), gl.height()));
        assert_eq!(f.len(), g.moves().len() + 1);
        assert_eq!(f[0], (0, 0, w, h, FIRST_DELAY_CS, None));
        assert!(f[1..f.len() - 1].iter().all(|x| x.4 == PLY_DELAY_CS));
        assert_eq!(f.last().unwrap().4, LAST_DELAY_CS);
        // A middle frame is a small rectangle with transparency.
        let mid = f[5];
        assert!(u32::from(mid.2) * u32::from(mid.3) < u32::from(w) * u32::from(h) / 2, "{mid:?}");
        assert!(mid.5.is_some());
    }

    #[test]
    fn full_frames_are_bigger() {
        let g = game(&variant::CHESS, 20);
        let changed = render_gif(&request(&g)).unwrap();
        let full = render_gif_frames(&request(&g), FrameMode::Full).unwrap();
        let (_, _, f) = frames(&full);
        assert!(f.iter().all(|x| (x.0, x.1, x.5) == (0, 0, None)));
        assert!(full.len() > 2 * changed.len(), "{} vs {}", full.len(), changed.len());
    }

    #[test]
    fn long_games_are_refused_and_sizes_clamped() {
        // Knights back and forth: `Game::play` goes on past a repetition.
        let mut g = game(&variant::CHESS, 0);
        for _ in 0..=MAX_PLIES {
            let pos = g.position().clone();
            let knight =
                |m: &crate::rules::Move| pos.piece_at(m.from).is_some_and(|p| p.role == crate::rules::Role::Knight);
            let m = pos.legal_moves().into_iter().find(knight).unwrap();
            assert!(g.play(m));
        }
        assert_eq!(render_gif(&request(&g)), Err(GifError::TooLong { plies: MAX_PLIES + 1 }));
        let short = game(&variant::CHESS, 2);
        let big = GifRequest { size: 100_000, ..request(&short) };
        assert_eq!(gif_layout(&big).width(), MAX_GIF_SIZE);
    }
}

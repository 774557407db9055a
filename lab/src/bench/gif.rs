//! Animated games (not a test): how long a whole game takes to become a GIF, how big it is, how much
//! storing changed rectangles saves over whole frames, and what the theme's one palette loses against
//! true colour.
//!
//! The game is a seeded random playout of the variant that launches, captures and moves the king
//! like a lively game does, and never ends early: moves that would end it are avoided until its last
//! ply. The figures and the method are in `docs/gif.md`.

use super::median_secs;
use capabot::render::gif::{FrameMode, GifRequest, gif_layout, render_gif_frames};
use capabot::render::{Layout, Theme, cache, raster, tile_keys};
use capabot::rules::{Color, Game, Move, MoveKind, Position, Variant};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashSet;
use std::fmt;
use std::time::Instant;

/// What to measure.
#[derive(Clone, Debug)]
pub struct GifBenchOptions {
    pub variant: &'static Variant,
    pub plies: usize,
    pub size: u32,
    pub runs: usize,
    pub theme: Theme,
}

/// The colour error of the palette over every square the animation shows, in true colour against
/// the palette colour each pixel is drawn with (Euclidean distance in RGB, 0–441).
#[derive(Clone, Debug, Default)]
pub struct PaletteError {
    pub pixels: usize,
    /// Share of pixels whose true colour is in the palette.
    pub exact: f64,
    pub mean: f64,
    /// Mean over the pixels that are not exact (anti-aliased edges, tint blends).
    pub mean_inexact: f64,
    pub p999: f64,
    pub max: f64,
    /// Peak signal-to-noise ratio over all channels, dB.
    pub psnr: f64,
}

/// One run's figures.
#[derive(Clone, Debug)]
pub struct GifBench {
    pub variant: &'static str,
    pub plies: usize,
    pub launches: usize,
    pub captures: usize,
    pub width: u32,
    pub height: u32,
    /// Median seconds to make the animation (tiles cached), and the first run (palette built,
    /// tiles not yet cached at this size).
    pub median: f64,
    pub cold: f64,
    pub bytes: usize,
    /// Frames after the first: mean and largest stored rectangle, as a share of the picture.
    pub mean_area: f64,
    pub max_area: f64,
    /// The same frames written whole.
    pub full_median: f64,
    pub full_bytes: usize,
    pub palette: PaletteError,
}

impl fmt::Display for GifBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.palette;
        write!(
            f,
            "gif {} {} plies ({} launches, {} captures), {}x{}, {} frames:\n  \
             changed rectangles: median {:.1} ms (cold {:.1} ms), {:.1} KB; rectangles {:.0}% of the picture on average, {:.0}% at most\n  \
             whole frames:       median {:.1} ms, {:.1} KB\n  \
             size ratio whole/changed {:.1}x, time ratio {:.1}x\n  \
             palette vs true colour over {} px: {:.1}% exact, mean error {:.2} ({:.1} on inexact pixels), \
             99.9th percentile {:.1}, max {:.1}, PSNR {:.1} dB",
            self.variant,
            self.plies,
            self.launches,
            self.captures,
            self.width,
            self.height,
            self.plies + 1,
            self.median * 1e3,
            self.cold * 1e3,
            self.bytes as f64 / 1024.0,
            self.mean_area * 100.0,
            self.max_area * 100.0,
            self.full_median * 1e3,
            self.full_bytes as f64 / 1024.0,
            self.full_bytes as f64 / self.bytes.max(1) as f64,
            self.full_median / self.median.max(1e-9),
            p.pixels,
            p.exact * 100.0,
            p.mean,
            p.mean_inexact,
            p.p999,
            p.max,
            p.psnr,
        )
    }
}

/// Those of `moves` after which `game` is not over.
pub fn going_on(game: &Game, moves: &[Move]) -> Vec<Move> {
    moves
        .iter()
        .copied()
        .filter(|&m| {
            let mut g = game.clone();
            g.play(m) && g.outcome().is_none()
        })
        .collect()
}

/// A seeded playout of `plies` plies that does not end before its last ply (when the variant
/// allows): launches when a coin says so, captures more often than not, otherwise any move.
pub fn playout(variant: &'static Variant, plies: usize, seed: u64) -> Game {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = Game::new(Position::start(variant));
    for ply in 0..plies {
        let pos = game.position().clone();
        let mut moves: Vec<_> = pos.legal_moves().into_iter().collect();
        if moves.is_empty() {
            break;
        }
        // Moves that would end the game wait for the last ply.
        if ply + 1 < plies {
            let go_on = going_on(&game, &moves);
            if !go_on.is_empty() {
                moves = go_on;
            }
        }
        let launches: Vec<_> = moves.iter().copied().filter(|m| m.kind == MoveKind::Launch).collect();
        let captures: Vec<_> = moves.iter().copied().filter(|&m| pos.is_capture(m)).collect();
        let pool = if !launches.is_empty() && rng.random_range(0..6) == 0 {
            launches
        } else if !captures.is_empty() && rng.random_range(0..3) > 0 {
            captures
        } else {
            moves
        };
        let m = pool[rng.random_range(0..pool.len())];
        game.play(m);
    }
    game
}

/// The palette's error over every distinct square of the animation at its square size.
pub fn palette_error(game: &Game, req: &GifRequest<'_>, layout: &Layout) -> PaletteError {
    let mut seen = HashSet::new();
    for (ply, pos) in game.positions().iter().enumerate() {
        let opts = capabot::render::gif::frame_options(req, ply);
        seen.extend(tile_keys(pos, &opts, layout));
    }
    let t = req.theme.data();
    let sq = layout.square;
    let mut errors = Vec::new();
    let mut sum_sq = 0.0f64;
    cache::with_theme(req.theme, |c| {
        for key in &seen {
            let sprite = key.piece.map(|p| raster::piece_sprite(p, t, sq));
            let tile = raster::tile(key, t, sq, sprite.as_ref());
            for px in tile.pixels() {
                let truth = [px.red(), px.green(), px.blue()];
                let drawn = c.nearest(truth);
                let d2: f64 = (0..3).map(|i| (f64::from(truth[i]) - f64::from(drawn[i])).powi(2)).sum();
                sum_sq += d2;
                errors.push(d2.sqrt());
            }
        }
    });
    let n = errors.len().max(1);
    let inexact: Vec<f64> = errors.iter().copied().filter(|&e| e > 0.0).collect();
    let mean = errors.iter().sum::<f64>() / n as f64;
    let mean_inexact = inexact.iter().sum::<f64>() / inexact.len().max(1) as f64;
    errors.sort_by(f64::total_cmp);
    let mse = sum_sq / (3 * n) as f64;
    PaletteError {
        pixels: errors.len(),
        exact: 1.0 - inexact.len() as f64 / n as f64,
        mean,
        mean_inexact,
        p999: errors.get(n * 999 / 1000).copied().unwrap_or(0.0),
        max: errors.last().copied().unwrap_or(0.0),
        psnr: if mse > 0.0 { 10.0 * (255.0f64 * 255.0 / mse).log10() } else { f64::INFINITY },
    }
}

/// Times `runs` animations (after one cold run) in each frame mode; returns the figures and the
/// animation's bytes.
pub fn bench(opts: &GifBenchOptions) -> Result<(GifBench, Vec<u8>), String> {
    let game = playout(opts.variant, opts.plies, 1);
    let req = GifRequest {
        game: &game,
        white: "alice",
        black: "bob",
        result: Some("1-0 · king exploded"),
        orientation: Color::White,
        size: opts.size,
        theme: opts.theme,
    };
    let time = |mode: FrameMode| -> Result<(f64, Vec<u8>), String> {
        let t = Instant::now();
        let bytes = render_gif_frames(&req, mode).map_err(|e| e.to_string())?;
        Ok((t.elapsed().as_secs_f64(), bytes))
    };
    // A bot has drawn boards of the theme long before a game ends, so its palette exists; the cold
    // run still rasterises every square look of this game at this size.
    capabot::render::warm_up(opts.theme);
    let (cold, mut bytes) = time(FrameMode::Changed)?;
    let (mut times, mut full_times, mut full_bytes) = (Vec::new(), Vec::new(), 0);
    for _ in 0..opts.runs.max(1) {
        let (t, b) = time(FrameMode::Changed)?;
        times.push(t);
        bytes = b;
        let (t, b) = time(FrameMode::Full)?;
        full_times.push(t);
        full_bytes = b.len();
    }
    let gl = gif_layout(&req);
    let (mean_area, max_area) = rectangle_shares(&bytes)?;
    let moves = game.moves();
    let positions = game.positions();
    let report = GifBench {
        variant: opts.variant.name,
        plies: moves.len(),
        launches: moves.iter().filter(|m| m.kind == MoveKind::Launch).count(),
        captures: moves.iter().zip(positions).filter(|(m, p)| p.is_capture(**m)).count(),
        width: gl.width(),
        height: gl.height(),
        median: median_secs(&mut times),
        cold,
        bytes: bytes.len(),
        mean_area,
        max_area,
        full_median: median_secs(&mut full_times),
        full_bytes,
        palette: palette_error(&game, &req, &gl.board),
    };
    Ok((report, bytes))
}

/// The mean and largest area of the frames after the first, as shares of the picture.
pub fn rectangle_shares(bytes: &[u8]) -> Result<(f64, f64), String> {
    let mut d = gif::DecodeOptions::new().read_info(bytes).map_err(|e| e.to_string())?;
    let whole = f64::from(d.width()) * f64::from(d.height());
    let mut areas = Vec::new();
    while let Some(f) = d.next_frame_info().map_err(|e| e.to_string())? {
        areas.push(f64::from(f.width) * f64::from(f.height) / whole);
    }
    let rest = areas.get(1..).unwrap_or_default();
    let mean = rest.iter().sum::<f64>() / rest.len().max(1) as f64;
    Ok((mean, rest.iter().copied().fold(0.0, f64::max)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant::CAPATOMIC;

    #[test]
    fn the_playout_lasts_and_the_report_adds_up() {
        let g = playout(&CAPATOMIC, 30, 7);
        assert_eq!(g.moves().len(), 30);
        assert!((0..30).all(|i| {
            let mut prefix = Game::new(g.start().clone());
            g.moves()[..i].iter().all(|&m| prefix.play(m)) && prefix.outcome().is_none()
        }));
        let opts = GifBenchOptions { variant: &CAPATOMIC, plies: 16, size: 240, runs: 1, theme: Theme::Wood };
        let (b, bytes) = bench(&opts).unwrap();
        assert_eq!(bytes.len(), b.bytes);
        assert!(b.full_bytes > b.bytes, "{b}");
        assert!(b.mean_area > 0.0 && b.mean_area < 1.0 && b.max_area <= 1.0, "{b}");
        assert!(b.palette.pixels > 0 && b.palette.exact > 0.5 && b.palette.psnr > 30.0, "{b}");
        assert!(b.to_string().starts_with("gif capatomic 16 plies"), "{b}");
    }
}

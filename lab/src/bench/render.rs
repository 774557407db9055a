//! Renderer speed and picture size (not a test): the median time to render and encode a position.

use super::median_secs;
use capabot::render::{Layout, RenderOptions, bands, render, render_whole};
use capabot::rules::{Position, Variant};
use std::fmt;
use std::time::Instant;

/// One result: picture geometry, median render time and PNG size.
#[derive(Clone, Debug)]
pub struct RenderBench {
    pub variant: &'static str,
    pub width: u32,
    pub height: u32,
    /// Median seconds per render.
    pub median: f64,
    /// PNG bytes.
    pub bytes: usize,
}

impl fmt::Display for RenderBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "render {:<15} {}x{}: median {:.3} ms, {:.1} KB",
            self.variant,
            self.width,
            self.height,
            self.median * 1e3,
            self.bytes as f64 / 1024.0
        )
    }
}

/// Renders `pos` once to warm the caches, then `runs` more times (at least once), timing each.
pub fn bench(pos: &Position, opts: &RenderOptions, runs: usize) -> RenderBench {
    let mut bytes = render(pos, opts).len();
    let mut times = Vec::with_capacity(runs.max(1));
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let png = render(pos, opts);
        times.push(t.elapsed().as_secs_f64());
        bytes = png.len();
    }
    let l = Layout::new(pos, opts);
    RenderBench {
        variant: pos.variant().name,
        width: l.width(),
        height: l.height(),
        median: median_secs(&mut times),
        bytes,
    }
}

/// Pictures of games as a chat sees them: each position after its move, the move tinted, seen from the
/// side to move, rendered by
/// [`render`] (a rank at a time, ranks kept from the game's earlier pictures) and by [`render_whole`]
/// (the whole frame through `png`'s encoder), the two alternated picture by picture in one process.
#[derive(Clone, Debug)]
pub struct GameRenderBench {
    pub variant: &'static str,
    pub pictures: usize,
    /// Median seconds a picture, banded and whole.
    pub banded: f64,
    pub whole: f64,
    /// Mean PNG bytes a picture, banded and whole.
    pub banded_bytes: f64,
    pub whole_bytes: f64,
    /// The share of bands found already compressed.
    pub hit_rate: f64,
}

impl fmt::Display for GameRenderBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "render-game {:<15} {} pictures: banded median {:.3} ms, {:.1} KB ({:.0} % of bands kept); \
             whole median {:.3} ms, {:.1} KB; banded ÷ whole: time × {:.2}, bytes × {:.3}",
            self.variant,
            self.pictures,
            self.banded * 1e3,
            self.banded_bytes / 1024.0,
            self.hit_rate * 100.0,
            self.whole * 1e3,
            self.whole_bytes / 1024.0,
            self.banded / self.whole.max(f64::MIN_POSITIVE),
            self.banded_bytes / self.whole_bytes.max(1.0)
        )
    }
}

/// `games` seeded games of `plies` plies of `v` (the animated games' playouts, [`super::gif::playout`],
/// game `g` seeded by `g`), each position drawn with `opts`, its last move and the side to move at the
/// bottom, by both encoders in turn
/// (which goes first alternates). The tiles are warmed first on the start position, so neither encoder
/// pays for rasterising.
pub fn bench_games(v: &'static Variant, opts: &RenderOptions, games: usize, plies: usize) -> GameRenderBench {
    let _ = render_whole(&Position::start(v), opts);
    let (hits0, misses0) = bands::thread_band_counts();
    let (mut banded, mut whole) = (Vec::new(), Vec::new());
    let (mut banded_bytes, mut whole_bytes) = (0usize, 0usize);
    for g in 0..games {
        let game = super::gif::playout(v, plies, g as u64);
        let mut pos = game.start().clone();
        for (ply, &m) in game.moves().iter().enumerate() {
            pos = pos.play(m);
            // Seen by the side to move, as the bot draws a move's answer: the board turns every ply,
            // so a picture can reuse bands of the one two plies before it, not of the one before.
            let o = RenderOptions { last_move: Some(m), orientation: pos.turn(), ..opts.clone() };
            for first in [ply % 2 == 0, ply % 2 == 1] {
                let t = Instant::now();
                if first {
                    banded_bytes += render(&pos, &o).len();
                    banded.push(t.elapsed().as_secs_f64());
                } else {
                    whole_bytes += render_whole(&pos, &o).len();
                    whole.push(t.elapsed().as_secs_f64());
                }
            }
        }
    }
    let (hits, misses) = bands::thread_band_counts();
    let (hits, misses) = (hits - hits0, misses - misses0);
    let pictures = banded.len();
    GameRenderBench {
        variant: v.name,
        pictures,
        banded: median_secs(&mut banded),
        whole: median_secs(&mut whole),
        banded_bytes: banded_bytes as f64 / pictures.max(1) as f64,
        whole_bytes: whole_bytes as f64 / pictures.max(1) as f64,
        hit_rate: hits as f64 / (hits + misses).max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant::CAPABLANCA;

    #[test]
    fn reports_geometry_and_size() {
        let opts = RenderOptions { size: 200, ..RenderOptions::default() };
        let b = bench(&Position::start(&CAPABLANCA), &opts, 1);
        assert_eq!((b.width, b.height), (200, 160));
        assert!(b.bytes > 1000);
        assert!(b.to_string().starts_with("render capablanca      200x160: median "), "{b}");
    }

    #[test]
    fn games_are_drawn_by_both_encoders_and_later_pictures_reuse_bands() {
        let opts = RenderOptions { size: 200, ..RenderOptions::default() };
        let b = bench_games(&CAPABLANCA, &opts, 2, 6);
        assert_eq!(b.pictures, 12);
        assert!(b.hit_rate > 0.0 && b.banded > 0.0 && b.whole > 0.0, "{b}");
        assert!(b.banded_bytes > 1000.0 && b.whole_bytes > 1000.0, "{b}");
    }
}

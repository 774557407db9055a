//! Renderer speed and picture size (not a test): the median time to render and encode a position.

use super::median_secs;
use capabot::render::{Layout, RenderOptions, render};
use capabot::rules::Position;
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
}

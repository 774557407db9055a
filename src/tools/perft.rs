//! Perft for the command line: the per-move breakdown (`--divide`), a timed count, and the
//! move-generator speed benchmark from the start positions.

use super::median_secs;
use crate::notation::uci;
use crate::rules::{Position, Variant};
use std::fmt;
use std::time::Instant;

/// The leaf counts below each root move (in coordinate notation, sorted by it), then their total.
pub fn divide(pos: &Position, depth: u32) -> (Vec<(String, u64)>, u64) {
    let mut lines: Vec<(String, u64)> = pos.divide(depth).into_iter().map(|(m, n)| (uci::write(pos, m), n)).collect();
    lines.sort();
    let total = lines.iter().map(|(_, n)| n).sum();
    (lines, total)
}

/// A perft count and the seconds it took.
pub fn timed(pos: &Position, depth: u32) -> (u64, f64) {
    let t = Instant::now();
    let n = pos.perft(depth);
    (n, t.elapsed().as_secs_f64())
}

/// The speed line for one count: time and millions of nodes per second.
pub fn speed_line(nodes: u64, secs: f64) -> String {
    format!("time {:.3} s, {:.1} M nodes/s", secs, nodes as f64 / secs.max(1e-9) / 1e6)
}

/// The variants and depths `bench` measures: by default chess, capablanca and atomic at depth 5 and
/// capatomic at depth 4; named variants at depth 5; `depth` overrides either.
pub fn bench_list(names: &[String], depth: Option<u32>) -> Result<Vec<(&'static Variant, u32)>, String> {
    let list: Vec<(&'static Variant, u32)> = if names.is_empty() {
        ["chess", "capablanca", "atomic", "capatomic"]
            .iter()
            .map(|n| super::variant(n).map(|v| (v, if *n == "capatomic" { 4 } else { 5 })))
            .collect::<Result<_, _>>()?
    } else {
        names.iter().map(|n| super::variant(n).map(|v| (v, 5))).collect::<Result<_, _>>()?
    };
    Ok(list.into_iter().map(|(v, d)| (v, depth.unwrap_or(d))).collect())
}

/// One benchmark result: perft from a variant's start position, the median of several runs.
#[derive(Clone, Debug)]
pub struct PerftBench {
    pub variant: &'static Variant,
    pub depth: u32,
    pub nodes: u64,
    /// Median seconds per run.
    pub median: f64,
}

impl fmt::Display for PerftBench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "perft {:<12} depth {}: {:>11} nodes, median {:.3} s, {:.1} M nodes/s",
            self.variant.name,
            self.depth,
            self.nodes,
            self.median,
            self.nodes as f64 / self.median / 1e6
        )
    }
}

/// Runs perft `depth` from the start position of `v` `runs` times (at least once).
pub fn bench(v: &'static Variant, depth: u32, runs: usize) -> PerftBench {
    let pos = Position::start(v);
    let mut times = Vec::new();
    let mut nodes = 0;
    for _ in 0..runs.max(1) {
        let (n, secs) = timed(&pos, depth);
        nodes = n;
        times.push(secs);
    }
    PerftBench { variant: v, depth, nodes, median: median_secs(&mut times) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::CHESS;

    #[test]
    fn divide_sums_to_perft_and_is_sorted() {
        let pos = Position::start(&CHESS);
        let (lines, total) = divide(&pos, 2);
        assert_eq!(total, 400);
        assert_eq!(lines.len(), 20);
        assert_eq!(lines[0], ("a2a3".to_string(), 20));
        assert!(lines.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn bench_counts_and_lists() {
        let b = bench(&CHESS, 3, 1);
        assert_eq!(b.nodes, 8902);
        assert!(b.to_string().starts_with("perft chess        depth 3:        8902 nodes"), "{b}");
        let list = bench_list(&[], None).unwrap();
        let names: Vec<(&str, u32)> = list.iter().map(|(v, d)| (v.name, *d)).collect();
        assert_eq!(names, [("chess", 5), ("capablanca", 5), ("atomic", 5), ("capatomic", 4)]);
        assert_eq!(bench_list(&["stones".into()], Some(2)).unwrap()[0].1, 2);
        assert!(bench_list(&["nope".into()], None).is_err());
    }
}

//! Move-generator speed (`lab bench`): perft from the start positions, the median of several runs.

use super::median_secs;
use capabot::rules::{Position, Variant};
use capabot::tools::{self, perft::timed};
use std::fmt;

/// The variants and depths `bench` measures: by default chess, capablanca and atomic at depth 5 and
/// capatomic at depth 4; named variants at depth 5; `depth` overrides either.
pub fn bench_list(names: &[String], depth: Option<u32>) -> Result<Vec<(&'static Variant, u32)>, String> {
    let list: Vec<(&'static Variant, u32)> = if names.is_empty() {
        ["chess", "capablanca", "atomic", "capatomic"]
            .iter()
            .map(|n| tools::variant(n).map(|v| (v, if *n == "capatomic" { 4 } else { 5 })))
            .collect::<Result<_, _>>()?
    } else {
        names.iter().map(|n| tools::variant(n).map(|v| (v, 5))).collect::<Result<_, _>>()?
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
    use capabot::rules::variant::CHESS;

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

//! Perft for the command line: the per-move breakdown (`--divide`) and a timed count.

use crate::notation::uci;
use crate::rules::Position;
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
}

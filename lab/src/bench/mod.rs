//! Speed runs, not tests: perft (`bench`), the renderer (`bench-render`), animated games
//! (`bench-gif`), the bot core under load (`bench-bot`) and the same through Discord, faked on
//! 127.0.0.1 (`bench-discord`, with the `discord` feature), and over several processes on one database
//! (`bench-shards`, with the `postgres` feature). The AI's speed runs (`bench-ai`, `bench-deadline`) sit with the rest of the AI tooling
//! in [`crate::engine`].

pub mod bot;
#[cfg(feature = "discord")]
pub mod discord;
pub mod gif;
pub mod perft;
pub mod render;
#[cfg(feature = "postgres")]
pub mod shards;

/// The median of some durations in seconds (0 for none); sorts `times`.
pub fn median_secs(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times.get(times.len() / 2).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median_secs(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median_secs(&mut [4.0, 1.0, 3.0, 2.0]), 3.0);
        assert_eq!(median_secs(&mut []), 0.0);
    }
}

//! Speed runs, not tests: perft (`bench`), the renderer (`bench-render`), animated games
//! (`bench-gif`), the bot core under load (`bench-bot`) and the same through Discord, faked on
//! 127.0.0.1 (`bench-discord`, with the `discord` feature), over several processes on one database
//! (`bench-shards`, with the `discord` and `postgres` features), the Matrix front end in many rooms
//! of a real Synapse (`bench-matrix-rooms`, with the `matrix` feature), and the web pages
//! (`bench-web`, with the `web` feature; `--pg` with `postgres`); chat lines that are no moves
//! (`bench-chatter`). The AI's speed runs (`bench-ai`,
//! `bench-deadline`) sit with the rest of the AI tooling in [`crate::engine`].

pub mod bot;
pub mod chatter;
#[cfg(feature = "discord")]
pub mod discord;
pub mod gif;
#[cfg(feature = "discord")]
pub mod guilds;
pub mod log_pages;
#[cfg(feature = "matrix")]
pub mod matrix_rooms;
pub mod perft;
pub mod render;
pub mod scale;
#[cfg(all(feature = "discord", feature = "postgres"))]
pub mod shards;
#[cfg(feature = "discord")]
pub mod threads;
#[cfg(feature = "web")]
pub mod web;

#[cfg(any(feature = "discord", feature = "matrix"))]
pub use processes::{Processes, capabot_binary, keeping_logs_on_failure};

/// The real `capabot` binary run as child processes (`bench-shards`, `bench-guilds`,
/// `bench-matrix-rooms`).
#[cfg(any(feature = "discord", feature = "matrix"))]
mod processes {
    use std::path::PathBuf;
    use std::process::Child;

    /// The `capabot` binary to run: `path`, else the one built beside this laboratory (same profile).
    pub fn capabot_binary(path: Option<PathBuf>) -> Result<PathBuf, String> {
        let capabot = match path {
            Some(path) => path,
            None => std::env::current_exe().map_err(|e| e.to_string())?.with_file_name("capabot"),
        };
        if !capabot.exists() {
            return Err(format!("no capabot binary at {} (build it, or pass --capabot)", capabot.display()));
        }
        Ok(capabot)
    }

    /// Runs `f` with the folder `dir` (created) for the processes' data and logs: removed after, or
    /// kept, saying where, when `f` fails.
    pub fn keeping_logs_on_failure<T>(
        dir: &std::path::Path,
        f: impl FnOnce() -> Result<T, String>,
    ) -> Result<T, String> {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        let result = f();
        if result.is_err() {
            eprintln!("the processes' logs are kept in {}", dir.display());
        } else {
            let _ = std::fs::remove_dir_all(dir);
        }
        result
    }

    /// `capabot` processes, killed when dropped (a run that fails leaves none behind).
    pub struct Processes(pub Vec<Child>);

    impl Drop for Processes {
        fn drop(&mut self) {
            for child in &mut self.0 {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }
}

/// The nanoseconds on the processor that a `schedstat` file of `/proc` gives (its first field), of a
/// thread (`/proc/self/task/ID/schedstat`, `/proc/thread-self/schedstat`); `None` where there is none.
pub fn schedstat_ns(path: &std::path::Path) -> Option<u64> {
    std::fs::read_to_string(path).ok().and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
}

/// Numbers of `/proc/PID/status` (`VmRSS:` and the like in KiB, `Threads:`), in the order asked;
/// `pid` may be `self`.
pub fn proc_status(pid: impl std::fmt::Display, names: &[&str]) -> Result<Vec<u64>, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| e.to_string())?;
    names
        .iter()
        .map(|name| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|n| n.parse().ok())
                .ok_or(format!("no {name} in /proc/{pid}/status"))
        })
        .collect()
}

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

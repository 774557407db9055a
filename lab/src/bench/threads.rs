//! Processor time of this process's threads, summed by thread name, over a stretch of a run: where
//! a load run's two cores went when the bot, the fake Discord and the players share one process.
//! Linux only (`/proc/self/task/*/schedstat`, nanoseconds on the processor); elsewhere it says nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the threads are looked at: a thread that ends between two looks loses at most this
/// much of its time (the runtimes' threads live for the whole run).
const EVERY: Duration = Duration::from_millis(50);

/// A thread's time on the processor when first and last seen.
struct Seen {
    name: String,
    first: u64,
    last: u64,
}

/// Watches the threads from [`ThreadCpu::start`] until [`ThreadCpu::stop`].
pub struct ThreadCpu {
    stop: Arc<AtomicBool>,
    sampler: std::thread::JoinHandle<HashMap<u32, Seen>>,
}

/// Each thread of this process: its id, name and nanoseconds on the processor so far.
fn threads() -> Vec<(u32, String, u64)> {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(tid) = entry.file_name().to_str().and_then(|t| t.parse().ok()) else { continue };
        let path = entry.path();
        let ran = super::schedstat_ns(&path.join("schedstat"));
        let name = std::fs::read_to_string(path.join("comm")).map(|n| n.trim().to_string());
        if let (Some(ran), Ok(name)) = (ran, name) {
            out.push((tid, name, ran));
        }
    }
    out
}

impl ThreadCpu {
    /// Starts watching: time counts from now (a thread started later, from its start).
    pub fn start() -> ThreadCpu {
        let stop = Arc::new(AtomicBool::new(false));
        let mut seen: HashMap<u32, Seen> = HashMap::new();
        for (tid, name, ran) in threads() {
            seen.insert(tid, Seen { name, first: ran, last: ran });
        }
        let flag = stop.clone();
        let sampler = std::thread::Builder::new()
            .name("lab-threads".into())
            .spawn(move || {
                loop {
                    let last_look = flag.load(Ordering::SeqCst);
                    for (tid, name, ran) in threads() {
                        let s = seen.entry(tid).or_insert(Seen { name: name.clone(), first: 0, last: 0 });
                        s.name = name;
                        s.last = s.last.max(ran);
                    }
                    if last_look {
                        return seen;
                    }
                    std::thread::sleep(EVERY);
                }
            })
            .expect("a thread for the lab");
        ThreadCpu { stop, sampler }
    }

    /// Stops watching: seconds on the processor by thread name, most first.
    pub fn stop(self) -> Vec<(String, f64)> {
        self.stop.store(true, Ordering::SeqCst);
        let seen = self.sampler.join().unwrap_or_default();
        let mut by_name: HashMap<String, u64> = HashMap::new();
        for s in seen.into_values() {
            *by_name.entry(s.name).or_default() += s.last.saturating_sub(s.first);
        }
        let mut out: Vec<(String, f64)> = by_name.into_iter().map(|(n, ns)| (n, ns as f64 / 1e9)).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
}

/// `name 1.23 s (0.45 ms a move), …` for `moves` moves.
pub fn describe(cpu: &[(String, f64)], moves: usize) -> String {
    let per = |s: f64| s * 1e3 / moves.max(1) as f64;
    let total: f64 = cpu.iter().map(|(_, s)| s).sum();
    let mut parts = vec![format!("all {total:.2} s ({:.2} ms a move)", per(total))];
    parts.extend(cpu.iter().filter(|(_, s)| *s >= 0.005).map(|(n, s)| format!("{n} {s:.2} s ({:.2} ms)", per(*s))));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_thread_is_counted_under_its_name() {
        let watch = ThreadCpu::start();
        std::thread::Builder::new()
            .name("busy-one".into())
            .spawn(|| {
                let t = std::time::Instant::now();
                let mut x = 0u64;
                while t.elapsed() < Duration::from_millis(120) {
                    x = x.wrapping_add(std::hint::black_box(1));
                }
                // Alive until the sampler has seen it once more.
                std::thread::sleep(EVERY * 3);
                x
            })
            .unwrap()
            .join()
            .unwrap();
        let cpu = watch.stop();
        if std::path::Path::new("/proc/self/task").exists() {
            let busy = cpu.iter().find(|(n, _)| n == "busy-one").map(|(_, s)| *s).unwrap_or(0.0);
            assert!(busy > 0.0, "{cpu:?}");
            assert!(describe(&cpu, 10).contains("busy-one"));
        }
    }
}

//! Work that nobody is waiting on move by move — a game's analysis — on threads of the lowest OS
//! priority (nice 19 on Linux), so that when the cores are busy the operating system runs people's
//! inputs, the AI's moves in games and the delivery of answers first, and the analysis in the time
//! they leave. Yielding between positions (the host's `in_core` wait) cannot help a move that arrives
//! while a position is being searched (about a tenth of a second); the scheduler can, at once.
//!
//! The threads are started on the first job, and end when the host that owns them is dropped. A job
//! that panics loses its own answer only ([`Background::run`] gives `None`); the thread goes on.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

/// A few threads at the lowest OS priority, taking jobs in the order they come.
pub(crate) struct Background {
    name: &'static str,
    threads: usize,
    queue: OnceLock<Sender<Job>>,
}

impl Background {
    pub(crate) fn new(threads: usize) -> Background {
        Background::named("capabot-background", threads)
    }

    /// `threads` threads named `name-0`, `name-1`, …
    pub(crate) fn named(name: &'static str, threads: usize) -> Background {
        Background { name, threads: threads.max(1), queue: OnceLock::new() }
    }

    /// Runs `f` on one of the threads and gives its result; `None` when it panicked or the
    /// threads could not be started.
    pub(crate) async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            // The caller may have gone (a shutdown); then the answer is simply not wanted.
            let _ = tx.send(f());
        });
        self.queue.get_or_init(|| self.start()).send(job).ok()?;
        rx.await.ok()
    }

    fn start(&self) -> Sender<Job> {
        let (tx, rx) = channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..self.threads {
            let rx = rx.clone();
            let started = std::thread::Builder::new().name(format!("{}-{i}", self.name)).spawn(move || work(&rx));
            if let Err(e) = started {
                tracing::error!("cannot start a background thread: {e}");
            }
        }
        tx
    }
}

fn work(rx: &Mutex<Receiver<Job>>) {
    if let Err(e) = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min) {
        // Still correct, only no longer kind to the moves when the cores are busy.
        tracing::warn!("cannot lower a background thread's priority: {e:?}");
    }
    loop {
        // The lock is held only while waiting: the next thread waits for the next job.
        let job = match rx.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok(job) = job else { return };
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            tracing::error!("a background job panicked");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The nice value of the calling thread, from `/proc/thread-self/stat` (its 19th field).
    fn own_nice() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The second field, the name in parentheses, may hold spaces: count from after it.
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        after.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[tokio::test]
    async fn jobs_run_at_the_lowest_priority_and_a_panic_loses_only_its_own_answer() {
        let background = Background::new(1);
        let caller = own_nice();
        assert_eq!(background.run(own_nice).await, Some(19));
        let panicked: Option<()> = background.run(|| panic!("a job that fails")).await;
        assert_eq!(panicked, None);
        assert_eq!(background.run(|| 6 * 7).await, Some(42), "the thread goes on after a panic");
        // The caller's thread is untouched.
        assert_eq!(own_nice(), caller);
    }

    #[tokio::test]
    async fn several_threads_take_jobs_at_once() {
        let background = Arc::new(Background::new(2));
        let barrier = Arc::new(std::sync::Barrier::new(2));
        // Two jobs that each wait for the other: they finish only if both run at once.
        let (a, b) = (barrier.clone(), barrier.clone());
        let both = async {
            tokio::join!(background.run(move || a.wait().is_leader()), background.run(move || b.wait().is_leader()))
        };
        let (x, y) =
            tokio::time::timeout(std::time::Duration::from_secs(30), both).await.expect("both jobs ran at once");
        assert_eq!([x, y].iter().filter(|l| **l == Some(true)).count(), 1);
    }
}

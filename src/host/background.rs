//! Work that nobody is waiting on move by move — a game's analysis, a game's animation — on threads
//! behind every other, so that when the cores are busy the operating system runs people's inputs,
//! the AI's moves in games and the delivery of answers first, and the background work in the time
//! they leave. On Linux the threads run under the idle scheduling policy (`SCHED_IDLE`): a thread of
//! the normal policy that wakes takes the core from them at once. Where that policy cannot be set,
//! they run at the lowest priority of their own policy (nice 19).
//!
//! Even so, a search sharing the cores with people's moves slows them (it fills the caches they come
//! back to): on a quiet 2-core machine two analyses raised the other players' move p99 about × 1.3
//! to × 1.5. So a background search also waits while there is [`Foreground`] work — an input in the
//! core, a board being drawn, an answer's delivery being written down —, checking every 128 nodes
//! (about 0.15 ms) of its own work ([`crate::ai::Limits::pause`]) and waiting at most
//! [`PAUSE_AT_MOST`] at a time, so that a bot busy without a break still finishes its analyses,
//! slowly. Only the two together kept the moves' p99 as it was without analyses (docs/analysis.md:
//! either alone made no difference; checking every 1,024 nodes, about 1.2 ms, left × 1.38).
//!
//! The price: beside other programs that keep the cores busy, background work gets only what they
//! leave, which is nearly nothing (a scheduling weight of 3, against nice 19's 15 and a normal
//! thread's 1,024).
//!
//! The same pools, at the normal policy and as many nice steps behind the runtime's threads as the
//! operator chooses ([`Priority::Behind`], `[host] input_nice`, default 0: beside them), run the work
//! that decides something new: people's inputs in the core and the AI's searches in games. Behind,
//! when the cores are busy, the work that finishes answers already decided (drawing, sending, writing
//! the delivery down, the platforms' connections) runs first and the inputs wait their turn in order:
//! through the fake Discord at its limit, ten steps gave a p99 about a twelfth lower for about 4 % of
//! the rate (`docs/load.md`, "People's inputs behind the answers on their way (stop 118)"). Both
//! kinds of deciding work take the same step: an AI's search at the normal priority beside inputs
//! behind it would take a core from them.
//!
//! The threads are started on the first job, and end when the host that owns them is dropped. A job
//! that panics loses its own answer only ([`Background::run`] gives `None`); the thread goes on.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The longest a background search waits at once for the foreground work to end.
pub(crate) const PAUSE_AT_MOST: Duration = Duration::from_millis(50);

/// Work people are waiting for, counted while it runs: a background search gives way to it.
#[derive(Clone, Default)]
pub(crate) struct Foreground(Arc<AtomicUsize>);

/// One piece of [`Foreground`] work, counted until dropped.
pub(crate) struct Running(Arc<AtomicUsize>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Foreground {
    /// Counts a piece of work until the returned guard is dropped.
    pub(crate) fn running(&self) -> Running {
        self.0.fetch_add(1, Ordering::SeqCst);
        Running(self.0.clone())
    }

    pub(crate) fn is_busy(&self) -> bool {
        self.count() > 0
    }

    /// How many pieces of work are counted now.
    pub(crate) fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Blocks the calling thread while there is foreground work, a millisecond at a time, at most
    /// `at_most`.
    pub(crate) fn wait_quiet(&self, at_most: Duration) {
        // Called every 128 nodes of a search: nearly always with nothing to wait for.
        if !self.is_busy() {
            return;
        }
        let since = Instant::now();
        while self.is_busy() && since.elapsed() < at_most {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The pause a background search calls now and then ([`crate::ai::Limits::pause`]).
    pub(crate) fn pause(&self) -> crate::ai::Pause {
        let me = self.clone();
        crate::ai::Pause(Arc::new(move || me.wait_quiet(PAUSE_AT_MOST)))
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// How a pool's threads are scheduled by the operating system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Priority {
    /// Behind every other thread: the idle policy where there is one, else nice 19.
    Idle,
    /// The normal policy, this many nice steps behind the thread that started the pool (0: beside
    /// it), at most nice 19.
    Behind(i32),
}

/// A few threads scheduled as their [`Priority`] says (idle, or some nice steps behind the runtime's),
/// taking jobs in the order they come.
pub(crate) struct Background {
    name: &'static str,
    threads: usize,
    priority: Priority,
    queue: OnceLock<Sender<Job>>,
}

impl Background {
    pub(crate) fn new(threads: usize) -> Background {
        Background::named("capabot-background", threads)
    }

    /// `threads` threads named `name-0`, `name-1`, …, at the idle policy.
    pub(crate) fn named(name: &'static str, threads: usize) -> Background {
        Background::with_priority(name, threads, Priority::Idle)
    }

    /// `threads` threads named `name-0`, `name-1`, …, scheduled as `priority` says.
    pub(crate) fn with_priority(name: &'static str, threads: usize, priority: Priority) -> Background {
        Background { name, threads: threads.max(1), priority, queue: OnceLock::new() }
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
            let (rx, priority) = (rx.clone(), self.priority);
            let started =
                std::thread::Builder::new().name(format!("{}-{i}", self.name)).spawn(move || work(&rx, priority));
            if let Err(e) = started {
                tracing::error!("cannot start a background thread: {e}");
            }
        }
        tx
    }
}

/// Puts the calling thread behind every other: the idle policy where there is one, else the
/// lowest priority of its own policy.
fn lower_own_priority() {
    #[cfg(target_os = "linux")]
    {
        use thread_priority::unix::{
            NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy, thread_native_id,
        };
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        match set_thread_priority_and_policy(thread_native_id(), thread_priority::ThreadPriority::Min, idle) {
            Ok(()) => return,
            Err(e) => tracing::debug!("no idle scheduling policy for a background thread: {e:?}"),
        }
    }
    if let Err(e) = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min) {
        // Still correct, only no longer kind to the moves when the cores are busy.
        tracing::warn!("cannot lower a background thread's priority: {e:?}");
    }
}

/// Puts the calling thread `steps` nice steps behind where it is (the kernel stops at 19). On Linux
/// a nice value is the thread's own, so the process's other threads keep theirs.
fn step_back(steps: i32) {
    if steps <= 0 {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        // `nice` may return -1 as a new value: only the error number tells a failure.
        // SAFETY: errno is the calling thread's own; `nice` changes the calling thread alone.
        let failed = unsafe {
            *libc::__errno_location() = 0;
            libc::nice(steps) == -1 && *libc::__errno_location() != 0
        };
        if failed {
            // Still correct, only no longer ordered behind the answers when the cores are busy.
            tracing::warn!("cannot lower a thread's priority: {}", std::io::Error::last_os_error());
        }
    }
}

fn work(rx: &Mutex<Receiver<Job>>, priority: Priority) {
    match priority {
        Priority::Idle => lower_own_priority(),
        Priority::Behind(steps) => step_back(steps),
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
pub(crate) mod tests {
    use super::*;

    /// Linux's number of the idle scheduling policy, `SCHED_IDLE`.
    const SCHED_IDLE: i32 = 5;

    /// The calling thread's scheduling policy (`/proc/thread-self/stat`'s 41st field) and nice
    /// value (its 19th).
    pub(crate) fn own_policy_and_nice() -> (i32, i32) {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        // The second field, the name in parentheses, may hold spaces: count from after it.
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        (fields[38].parse().unwrap(), fields[16].parse().unwrap())
    }

    #[tokio::test]
    async fn jobs_run_at_the_lowest_priority_and_a_panic_loses_only_its_own_answer() {
        let background = Background::new(1);
        let caller = own_policy_and_nice();
        let (policy, _) = background.run(own_policy_and_nice).await.unwrap();
        assert_eq!(policy, SCHED_IDLE, "jobs run under the idle scheduling policy");
        let panicked: Option<()> = background.run(|| panic!("a job that fails")).await;
        assert_eq!(panicked, None);
        assert_eq!(background.run(|| 6 * 7).await, Some(42), "the thread goes on after a panic");
        // The caller's thread is untouched.
        assert_eq!(own_policy_and_nice(), caller);
    }

    #[test]
    fn a_background_search_waits_while_foreground_work_runs_and_not_for_ever() {
        let foreground = Foreground::default();
        let pause = foreground.pause();
        let t = Instant::now();
        (pause.0)();
        assert!(t.elapsed() < PAUSE_AT_MOST, "nothing to wait for");
        // Work running: the pause lasts until it ends.
        let running = foreground.running();
        let ends = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            drop(running);
        });
        let t = Instant::now();
        (pause.0)();
        assert!(t.elapsed() >= Duration::from_millis(20), "waited for the work");
        ends.join().unwrap();
        assert!(!foreground.is_busy());
        // Work that does not end: the pause gives up after PAUSE_AT_MOST.
        let _stuck = foreground.running();
        let t = Instant::now();
        (pause.0)();
        assert!(t.elapsed() >= PAUSE_AT_MOST && foreground.is_busy());
    }

    #[tokio::test]
    async fn jobs_behind_run_at_the_normal_policy_so_many_steps_behind() {
        let (policy, nice) = own_policy_and_nice();
        for steps in [0, 3] {
            let behind = Background::with_priority("capabot-test", 1, Priority::Behind(steps));
            assert_eq!(behind.run(own_policy_and_nice).await, Some((policy, (nice + steps).min(19))), "{steps}");
        }
        assert_eq!(own_policy_and_nice(), (policy, nice), "the caller's thread is untouched");
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

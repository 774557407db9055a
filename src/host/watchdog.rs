//! A bound on how long the process takes to stop once it has been asked to.
//!
//! Shutting down waits on the front ends' libraries: serenity's shard runners close their gateway
//! connections, matrix-sdk ends its sync. One of them stuck (serenity 0.12.5's runner spins for ever in
//! `checked_shutdown` on a connection Discord has already closed, holding a runtime worker) would keep
//! the process alive after SIGTERM until a supervisor kills it, and a process that no longer answers
//! anything looks alive to one that does not. Every unit of work is committed or rolled back by the
//! store, and replies wait in the outbox until they are delivered, so leaving without the libraries'
//! goodbyes loses nothing: the next start delivers what is waiting.
//!
//! [`Deadline`] is armed when the process is asked to stop (a signal, or a front end failing) and
//! runs on a thread of its own, outside the async runtime, so a worker that never yields cannot hold
//! it back. If the process has not stopped by then, it says so and exits with status 1.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// The time a stopping process is given beyond its shutdown grace (the host's own bound on
/// in-flight work): enough for the platforms' goodbyes, which take well under a second.
pub const BEYOND_GRACE: Duration = Duration::from_secs(30);

/// A deadline for stopping: [`Deadline::start`] arms it (once; later calls do nothing), and dropping
/// it, once the process has stopped its work, disarms it.
pub struct Deadline {
    after: Duration,
    expire: Mutex<Option<Box<dyn FnOnce() + Send>>>,
    armed: Mutex<Option<Armed>>,
}

/// The watching thread and the sender whose drop tells it the process stopped in time.
struct Armed {
    stopped: Sender<()>,
    thread: JoinHandle<()>,
}

impl Deadline {
    /// The process's deadline: `after` the stop was asked for, a log line and `exit(1)`.
    pub fn for_process(after: Duration) -> Arc<Deadline> {
        Deadline::new(after, move || {
            let secs = after.as_secs();
            tracing::error!(seconds = secs, "the process did not stop in time after it was asked to; exiting");
            eprintln!("capabot: still not stopped {secs} s after the stop was asked for; exiting");
            std::process::exit(1);
        })
    }

    /// A deadline that calls `expire` (on its own thread) if it is not dropped within `after` of
    /// [`Deadline::start`].
    pub fn new(after: Duration, expire: impl FnOnce() + Send + 'static) -> Arc<Deadline> {
        Arc::new(Deadline { after, expire: Mutex::new(Some(Box::new(expire))), armed: Mutex::new(None) })
    }

    /// Starts the clock, if it has not started yet.
    pub fn start(&self) {
        let Some(expire) = self.expire.lock().unwrap_or_else(PoisonError::into_inner).take() else {
            return;
        };
        let (stopped, watch) = mpsc::channel::<()>();
        let after = self.after;
        let spawned = std::thread::Builder::new().name("stop-deadline".into()).spawn(move || {
            // Nothing is ever sent: the sender's drop (disconnection) is the "stopped in time".
            if let Err(RecvTimeoutError::Timeout) = watch.recv_timeout(after) {
                expire();
            }
        });
        match spawned {
            Ok(thread) => *self.armed.lock().unwrap_or_else(PoisonError::into_inner) = Some(Armed { stopped, thread }),
            // Without a thread there is no deadline: the stop goes on as it would have without one.
            Err(e) => tracing::warn!("cannot start the stop deadline's thread: {e}"),
        }
    }
}

impl Drop for Deadline {
    fn drop(&mut self) {
        if let Some(Armed { stopped, thread }) = self.armed.get_mut().unwrap_or_else(PoisonError::into_inner).take() {
            drop(stopped);
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn counting(after: Duration) -> (Arc<Deadline>, Arc<AtomicUsize>) {
        let fired = Arc::new(AtomicUsize::new(0));
        let f = fired.clone();
        (Deadline::new(after, move || _ = f.fetch_add(1, Ordering::SeqCst)), fired)
    }

    #[test]
    fn a_started_deadline_fires_once_when_the_process_has_not_stopped() {
        let (deadline, fired) = counting(Duration::from_millis(20));
        deadline.start();
        deadline.start();
        let waited = std::time::Instant::now();
        while fired.load(Ordering::SeqCst) == 0 && waited.elapsed() < Duration::from_secs(20) {
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(deadline);
        assert_eq!(fired.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_deadline_dropped_in_time_or_never_started_does_not_fire() {
        let (deadline, fired) = counting(Duration::from_millis(300));
        deadline.start();
        drop(deadline);
        let (unstarted, fired_unstarted) = counting(Duration::from_millis(1));
        std::thread::sleep(Duration::from_millis(600));
        drop(unstarted);
        assert_eq!(fired.load(Ordering::SeqCst), 0);
        assert_eq!(fired_unstarted.load(Ordering::SeqCst), 0);
    }
}

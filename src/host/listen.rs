//! Other processes' changes, heard on PostgreSQL: a thread that keeps one connection listening
//! for the change notices other processes sharing the database commit
//! ([`crate::store::changes`]; the SQL and the payload are the core's) and tells them on the
//! host's feed ([`super::changes::Changes`]) as if they were this process's own. So a live game
//! page follows a move made by another process (Discord shards, a Matrix process) at once, not at
//! its watcher's next poll.
//!
//! When the connection is lost the thread connects again, waiting a little longer each time
//! ([`BACKOFF_FIRST`] doubling up to [`BACKOFF_MAX`]). While it listens the live pages look at
//! their games without a word only every minute (`web::LISTENING_POLL`); when it loses the
//! connection every follower is told to look again, and the pages poll every 5 s
//! (`web::FALLBACK_POLL`) until it listens again, when they are told to look once more (a notice
//! sent while nobody listened is lost). SQLite has no such notices: no
//! thread is started there.

use super::changes::Changes;
use crate::bot::Bot;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The first wait before connecting again after the listening connection was lost.
pub const BACKOFF_FIRST: Duration = Duration::from_millis(250);
/// The longest wait between two attempts to connect.
pub const BACKOFF_MAX: Duration = Duration::from_secs(10);
/// How long one wait for notices lasts: the thread notices a shutdown within it.
#[cfg(feature = "postgres")]
const WAIT: Duration = Duration::from_millis(500);

/// The listener's state, for the operator and the tests.
#[derive(Debug, Default)]
pub struct Listening {
    up: AtomicBool,
    connects: AtomicU64,
}

impl Listening {
    /// Whether the connection listens now.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::SeqCst)
    }

    /// How many times it connected and listened since the start.
    pub fn connects(&self) -> u64 {
        self.connects.load(Ordering::SeqCst)
    }

    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    pub(crate) fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
    }
}

/// Starts the listening thread for `bot`'s store and returns its state; `None` on SQLite. The
/// thread ends within [`WAIT`] of `stop`.
#[cfg(feature = "postgres")]
pub fn start(bot: Arc<Bot>, changes: Changes, stop: CancellationToken) -> Option<Arc<Listening>> {
    if bot.store().dialect() != crate::store::sql::Dialect::Postgres {
        return None;
    }
    let state = Arc::new(Listening::default());
    let shared = state.clone();
    let spawned =
        std::thread::Builder::new().name("capabot-listen".into()).spawn(move || run(&bot, &changes, &stop, &shared));
    if let Err(e) = spawned {
        tracing::error!("the listener for other processes' changes did not start: {e}");
        return None;
    }
    Some(state)
}

/// Without PostgreSQL, there is nothing to listen to.
#[cfg(not(feature = "postgres"))]
pub fn start(_: Arc<Bot>, _: Changes, _: CancellationToken) -> Option<Arc<Listening>> {
    None
}

#[cfg(feature = "postgres")]
fn run(bot: &Bot, changes: &Changes, stop: &CancellationToken, state: &Listening) {
    let mut backoff = BACKOFF_FIRST;
    let mut first = true;
    while !stop.is_cancelled() {
        match bot.store().listener() {
            None => return,
            Some(Ok(mut listener)) => {
                backoff = BACKOFF_FIRST;
                state.set_up(true);
                state.connects.fetch_add(1, Ordering::SeqCst);
                if !first {
                    // Listening again: what was committed while nobody listened was not heard.
                    changes.tell_missed();
                }
                while !stop.is_cancelled() {
                    match listener.wait(WAIT) {
                        Ok(heard) => {
                            for c in heard {
                                changes.tell_in(&c.platform, c.community.as_deref(), &c.chat);
                            }
                        }
                        Err(e) => {
                            tracing::warn!("the listener for other processes' changes lost its connection: {e}");
                            break;
                        }
                    }
                }
                state.set_up(false);
                // The pages wait for a word a minute at a time while the listener is up: they
                // look now, and then at the fast pace until it listens again.
                changes.tell_missed();
            }
            Some(Err(e)) => tracing::warn!("the listener for other processes' changes cannot connect: {e}"),
        }
        first = false;
        // Waiting in short steps, so that a shutdown is not held up.
        let until = std::time::Instant::now() + backoff;
        while !stop.is_cancelled() && std::time::Instant::now() < until {
            std::thread::sleep(WAIT.min(until.saturating_duration_since(std::time::Instant::now())));
        }
        backoff = (backoff * 2).min(BACKOFF_MAX);
    }
}

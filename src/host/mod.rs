//! The host: one async home (tokio) for the core and every front end plugged into it.
//!
//! It runs the core's blocking work (SQLite, pictures) off the async threads, runs AI jobs on a
//! bounded pool so a long search never stalls other games, ticks the scheduler on an interval, and
//! delivers each reply through the front end that owns its platform — direct messages where the
//! front end has them, the reply's fallback chat where it has not. Front ends translate events into
//! [`Input`]s and call [`Host::handle`]; they hold no game logic.
//!
//! Shutdown: [`Host::shutdown`] stops taking input, lets in-flight work finish and be announced, and
//! abandons AI searches still running — their moves are not stored, and [`Host::resume_ai`] plays
//! them after the restart, so an AI move is either stored and announced or not stored at all.

pub mod recent;

use crate::bot::{AiJob, Bot, Input, Receipt, Reply, Response, Target};
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Why a reply could not be delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryError {
    /// The person does not accept direct messages (from the bot): use the fallback chat.
    DirectMessagesClosed,
    /// Anything else (network, permissions); the text says what, without secrets.
    Failed(String),
}

impl std::fmt::Display for DeliveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeliveryError::DirectMessagesClosed => f.write_str("direct messages are closed"),
            DeliveryError::Failed(s) => f.write_str(s),
        }
    }
}

/// A chat platform as the host sees it: it shows replies. Input goes the other way, through
/// [`Host::handle`].
#[async_trait]
pub trait FrontEnd: Send + Sync {
    /// The platform name in [`crate::bot::Scope::platform`] that this front end owns.
    fn platform(&self) -> &str;
    /// Whether it can send direct messages to a person.
    fn has_direct_messages(&self) -> bool;
    /// Shows one reply (edits the message named by its slot where the platform can).
    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError>;
}

/// Host settings.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// AI searches at once.
    pub ai_threads: usize,
    /// The core's blocking work (SQLite, pictures) at once. More than the cores only adds contention:
    /// inputs beyond it wait their turn in arrival order, each holding no database connection.
    pub core_threads: usize,
    /// How often the scheduler runs.
    pub tick_every: Duration,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            ai_threads: default_ai_threads(),
            core_threads: default_core_threads(),
            tick_every: Duration::from_secs(30),
        }
    }
}

/// As many as the cores, at least two (so that one slow input never holds up all others).
pub fn default_core_threads() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get()).max(2)
}

/// One fewer than the cores, at least one.
pub fn default_ai_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1)).max(1)
}

/// Why the host refused an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostError {
    ShuttingDown,
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("capabot is shutting down")
    }
}

/// The shared host. Hold it in an `Arc`.
pub struct Host {
    bot: Arc<Bot>,
    front_ends: RwLock<HashMap<String, Arc<dyn FrontEnd>>>,
    ai_pool: Arc<Semaphore>,
    core_pool: Arc<Semaphore>,
    tracker: TaskTracker,
    stop: CancellationToken,
    config: HostConfig,
}

impl Host {
    pub fn new(bot: Arc<Bot>, config: HostConfig) -> Arc<Host> {
        Arc::new(Host {
            bot,
            front_ends: RwLock::new(HashMap::new()),
            ai_pool: Arc::new(Semaphore::new(config.ai_threads.max(1))),
            core_pool: Arc::new(Semaphore::new(config.core_threads.max(1))),
            tracker: TaskTracker::new(),
            stop: CancellationToken::new(),
            config,
        })
    }

    /// Plugs in a front end for its platform (replacing an earlier one).
    pub fn register(&self, fe: Arc<dyn FrontEnd>) {
        if let Ok(mut map) = self.front_ends.write() {
            map.insert(fe.platform().to_string(), fe);
        }
    }

    pub fn bot(&self) -> &Arc<Bot> {
        &self.bot
    }

    /// Cancelled when shutdown begins (front ends stop reading input).
    pub fn stopping(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Handles one input: the core's work on the blocking pool, then every reply delivered and every
    /// AI move it caused played and delivered. Completes when all of it is done.
    pub async fn handle(self: &Arc<Self>, input: Input) -> Result<(), HostError> {
        if self.stop.is_cancelled() {
            return Err(HostError::ShuttingDown);
        }
        let me = self.clone();
        self.tracker
            .track_future(async move {
                let bot = me.bot.clone();
                let origin = input.event_id.clone();
                let response = me.blocking(move || bot.handle(&input)).await.unwrap_or_default();
                me.settle(response, origin).await;
            })
            .await;
        Ok(())
    }

    /// Runs the scheduler once and delivers what it says.
    pub async fn tick(self: &Arc<Self>) {
        let me = self.clone();
        self.tracker
            .track_future(async move {
                let bot = me.bot.clone();
                let response = me.blocking(move || bot.tick()).await.unwrap_or_default();
                me.settle(response, None).await;
            })
            .await;
    }

    /// Ticks the scheduler every [`HostConfig::tick_every`] until shutdown.
    pub fn start_scheduler(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(me.config.tick_every);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = me.stop.cancelled() => break,
                    _ = every.tick() => me.tick().await,
                }
            }
        })
    }

    /// Plays the AI's moves in games where it was to move when the bot stopped.
    pub async fn resume_ai(self: &Arc<Self>) {
        let bot = self.bot.clone();
        let jobs = self.blocking(move || bot.pending_ai_jobs()).await.unwrap_or_default();
        self.settle(Response { replies: vec![], ai_jobs: jobs }, None).await;
    }

    /// Delivers replies (in order), then runs the AI jobs, each on the bounded pool, feeding their
    /// moves back and settling what follows. `origin` is the event that caused it all: the AI's
    /// replies answer it too (a Discord interaction gets the AI's move as its follow-up while it
    /// is still open).
    async fn settle(self: &Arc<Self>, mut response: Response, origin: Option<String>) {
        for r in &mut response.replies {
            if r.in_reply_to.is_none() {
                r.in_reply_to.clone_from(&origin);
            }
            self.deliver(r).await;
        }
        let mut running = Vec::new();
        for job in response.ai_jobs {
            let (me, origin) = (self.clone(), origin.clone());
            running.push(self.tracker.spawn(async move { me.run_ai(job, origin).await }));
        }
        for r in running {
            let _ = r.await;
        }
    }

    /// Boxed with `Send` spelled out: the AI's move may start another AI job (recursion).
    fn run_ai(
        self: Arc<Self>,
        job: AiJob,
        origin: Option<String>,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>> {
        Box::pin(self.run_ai_inner(job, origin))
    }

    async fn run_ai_inner(self: Arc<Self>, job: AiJob, origin: Option<String>) {
        let Ok(permit) = self.ai_pool.clone().acquire_owned().await else { return };
        if self.stop.is_cancelled() {
            return;
        }
        let bot = self.bot.clone();
        let search = {
            let job = job.clone();
            tokio::task::spawn_blocking(move || bot.run_ai_job(&job))
        };
        let mv = tokio::select! {
            // Shutdown abandons the search: nothing is stored, and the move is played after the restart.
            _ = self.stop.cancelled() => {
                tracing::info!(game = job.game_id, "AI search abandoned by shutdown");
                return;
            }
            mv = search => match mv {
                Ok(mv) => mv,
                Err(e) => {
                    tracing::error!(game = job.game_id, "AI search failed: {e}");
                    return;
                }
            },
        };
        // The pool bounds searches only: the moves that follow may need a place of their own.
        drop(permit);
        let bot = self.bot.clone();
        let response = self.blocking(move || bot.finish_ai_job(&job, mv)).await.unwrap_or_default();
        self.settle(response, origin).await;
    }

    fn front_end(&self, platform: &str) -> Option<Arc<dyn FrontEnd>> {
        self.front_ends.read().ok().and_then(|m| m.get(platform).cloned())
    }

    /// Delivers one reply through its platform's front end; a direct message goes to its fallback
    /// chat where the front end has no direct messages or the person's are closed.
    pub async fn deliver(&self, reply: &Reply) {
        let Some(fe) = self.front_end(reply.target.platform()) else {
            tracing::warn!(platform = reply.target.platform(), "no front end for a reply; dropped");
            return;
        };
        let result = match &reply.target {
            Target::Direct { fallback, .. } if !fe.has_direct_messages() => match fallback {
                Some(chat) => {
                    let mut r = reply.clone();
                    r.target = Target::Chat(chat.clone());
                    fe.deliver(&r).await
                }
                None => return,
            },
            _ => match fe.deliver(reply).await {
                Err(e) if matches!(reply.target, Target::Direct { fallback: Some(_), .. }) => {
                    tracing::info!("direct message not delivered ({e}); sent to the game's chat");
                    let mut r = reply.clone();
                    if let Target::Direct { fallback: Some(chat), .. } = &reply.target {
                        r.target = Target::Chat(chat.clone());
                    }
                    fe.deliver(&r).await
                }
                other => other,
            },
        };
        match result {
            Ok(receipt) => {
                if reply.slot.is_some() || reply.new_thread.is_some() {
                    let (bot, reply) = (self.bot.clone(), reply.clone());
                    let _ = self.blocking(move || bot.delivered(&reply, &receipt)).await;
                }
            }
            Err(e) => tracing::warn!(platform = reply.target.platform(), "reply not delivered: {e}"),
        }
    }

    /// Runs the core's blocking work (SQLite, pictures) on the blocking pool, at most
    /// [`HostConfig::core_threads`] at once, in arrival order.
    async fn blocking<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _permit = self.core_pool.acquire().await.ok()?;
        match tokio::task::spawn_blocking(f).await {
            Ok(v) => Some(v),
            Err(e) => {
                tracing::error!("blocking work failed: {e}");
                None
            }
        }
    }

    /// Stops taking input, lets in-flight inputs finish and be announced (AI searches still running
    /// are abandoned, see the module doc), and waits at most `grace` for them.
    pub async fn shutdown(&self, grace: Duration) {
        self.stop.cancel();
        self.tracker.close();
        if tokio::time::timeout(grace, self.tracker.wait()).await.is_err() {
            tracing::warn!("shutdown: work still running after {grace:?}; leaving it");
        }
    }
}

/// Resolves on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = match signal(SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{BotConfig, NoAi, SystemClock};
    use crate::store::Store;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_cores_work_runs_at_most_core_threads_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let bot = Bot::new(
            Store::open(dir.path().join("h.db")).unwrap(),
            Arc::new(SystemClock),
            Arc::new(NoAi),
            BotConfig::default(),
        );
        let host = Host::new(Arc::new(bot), HostConfig { core_threads: 2, ..HostConfig::default() });
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let jobs: Vec<_> = (0..10)
            .map(|_| {
                let (host, now, most) = (host.clone(), now.clone(), most.clone());
                tokio::spawn(async move {
                    host.blocking(move || {
                        let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(n, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        now.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                })
            })
            .collect();
        for j in jobs {
            assert_eq!(j.await.unwrap(), Some(()));
        }
        assert_eq!(most.load(Ordering::SeqCst), 2, "ten 20 ms jobs overlap, two at a time");
    }
}

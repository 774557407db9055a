//! The host: one async home (tokio) for the core and every front end plugged into it.
//!
//! It runs the core's blocking work (SQLite) off the async threads, runs AI jobs on a
//! bounded pool so a long search never stalls other games, ticks the scheduler on an interval, and
//! delivers each reply through the front end that owns its platform — direct messages where the
//! front end has them, the reply's fallback chat where it has not. Front ends translate events into
//! [`Input`]s and call [`Host::handle`]; they hold no game logic.
//!
//! Delivery goes through the core's outbox ([`crate::bot::outbox`]): the core commits a change and
//! its replies together; the host then drains the chats it touched, one chat at a time and in
//! order, through the front end that owns the platform. A passing failure (429, 5xx, a timeout) is
//! retried after the platform's retry-after or with back-off, inline when short and otherwise by
//! the drainer ([`Host::start_drainer`]), which also delivers what a crash or restart left behind;
//! a permanent one is classified and reported back to the core. A process drains only the
//! platforms it has front ends for.
//!
//! A reply's picture travels as a description ([`crate::bot::Drawing`]) and is drawn just before the
//! reply is handed to its front end, on the blocking pool in a lane of its own ([`Host::drawn`]):
//! never inside the core's unit of work, so writers do not queue behind picture work, and front ends
//! receive the bytes. A whole game's animation (a quarter of a second of one core for 300 plies)
//! is drawn apart, one at a time on a thread of the lowest OS priority, so that people asking for
//! GIFs at their rate limit neither hold the board pictures' lane nor take the cores from the moves.
//!
//! Shutdown: [`Host::shutdown`] stops taking input, lets in-flight work finish and be announced, and
//! abandons AI searches still running — their moves are not stored, and [`Host::resume_ai`] plays
//! them after the restart, so an AI move is either stored and announced or not stored at all.

mod background;
pub mod changes;
pub mod limits;
pub mod listen;
pub mod metrics;
pub mod openings;
pub mod turns;
pub mod watchdog;

use crate::bot::outbox::{self as core_outbox, Failure, Outgoing};
use crate::bot::{AiJob, Bot, CommandStyle, Input, Receipt, Reply, Response, Target};
use crate::store::outbox::WhenEmpty;
use async_trait::async_trait;
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// Why a reply could not be delivered. The texts say what, without secrets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryError {
    /// The person does not accept direct messages (from the bot): use the fallback chat.
    DirectMessagesClosed,
    /// A passing failure (rate limit, server error, timeout): try again, after `retry_after` when
    /// the platform said how long.
    Transient { retry_after: Option<Duration>, detail: String },
    /// The chat is gone or closed to the bot: deleted, the bot removed or kicked, a room left or
    /// upgraded.
    ChatGone(String),
    /// The bot may not post there (a missing permission, a locked thread).
    Forbidden(String),
    /// The platform refused the message itself; anything else that trying again will not fix.
    Failed(String),
    /// The chat is reached only through interactions (`Scope::interaction_only`) and none is
    /// open there now: the reply waits for the next one ([`Bot::outbox_hold`]).
    NeedsInteraction,
}

impl DeliveryError {
    /// A passing failure without a retry-after.
    pub fn transient(detail: impl Into<String>) -> DeliveryError {
        DeliveryError::Transient { retry_after: None, detail: detail.into() }
    }

    /// The `kind` label of a failed delivery in the metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            DeliveryError::DirectMessagesClosed => "direct_closed",
            DeliveryError::Transient { .. } => "transient",
            DeliveryError::ChatGone(_) => "chat_gone",
            DeliveryError::Forbidden(_) => "forbidden",
            DeliveryError::Failed(_) => "failed",
            DeliveryError::NeedsInteraction => "needs_interaction",
        }
    }

    fn failure(&self) -> Failure {
        match self {
            DeliveryError::DirectMessagesClosed => Failure::DirectClosed,
            DeliveryError::ChatGone(_) => Failure::ChatGone,
            DeliveryError::Forbidden(_) => Failure::Forbidden,
            DeliveryError::Transient { .. } | DeliveryError::Failed(_) | DeliveryError::NeedsInteraction => {
                Failure::Refused
            }
        }
    }
}

impl std::fmt::Display for DeliveryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeliveryError::DirectMessagesClosed => f.write_str("direct messages are closed"),
            DeliveryError::Transient { retry_after: Some(d), detail } => {
                write!(f, "{detail} (retry after {} ms)", d.as_millis())
            }
            DeliveryError::Transient { retry_after: None, detail } => f.write_str(detail),
            DeliveryError::ChatGone(s) | DeliveryError::Forbidden(s) | DeliveryError::Failed(s) => f.write_str(s),
            DeliveryError::NeedsInteraction => f.write_str("the chat is reached only through interactions"),
        }
    }
}

/// Passing failures retried inline (waiting at most [`INLINE_WAIT`] each) before a row is left to
/// the drainer.
const INLINE_TRIES: u32 = 3;
const INLINE_WAIT: Duration = Duration::from_secs(5);
/// After this many attempts a row is given up ("nothing retries forever"): with the back-off below
/// that is about a day.
const MAX_ATTEMPTS: u32 = 16;

/// Seconds to wait after the `attempts`-th passing failure without a retry-after: 2, 4, 8, ...
/// up to an hour.
fn backoff_secs(attempts: u32) -> i64 {
    (1i64 << attempts.clamp(1, 12)).min(3600)
}

/// The future of [`Host::settle`].
type Settling = std::pin::Pin<Box<dyn std::future::Future<Output = Delivery> + Send>>;

/// Whether everything an input caused went out by the time [`Host::handle`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Every reply was delivered (or failed for good and was reported).
    Done,
    /// The input was not handled: its author is flooding, and was told so already.
    Ignored,
    /// Some reply is waiting in the outbox for a retry (a rate limit, a server error): it will
    /// follow, in order, but the person has not seen it yet.
    Delayed,
}

/// Why the host turns an input away before the core sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// Too many inputs wait already (for the core, or in the chat's queue of its front end).
    Busy,
    /// The author or the chat is flooding (told once a minute).
    SlowDown,
}

/// How long a refusal waits at most for its author's language to be read (then their client's, or
/// the configuration's).
const REFUSAL_LANG_WITHIN: Duration = Duration::from_millis(500);

/// How long an analysis's next position waits at most for the inputs in the core to be handled.
const ANALYSIS_YIELD_AT_MOST: Duration = Duration::from_millis(250);

/// How often an analysis's progress message is edited at most, by default: within Discord's and
/// Synapse's rate limits for one message, however fast the positions go.
pub const ANALYSIS_PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// How many bytes of animations the host keeps once drawn (a 300-ply Capatomic game is about
/// 0.4 MB, the longest animated 2.4 MB: `docs/gif.md`).
const ANIMATION_MEMO_BYTES: u64 = 32 << 20;

/// Animations drawn, by the JSON of their description.
type AnimationMemo = mini_moka::sync::Cache<String, Arc<Vec<u8>>>;

/// The receipt of a reply settled without showing anything (nowhere to show it on its platform):
/// settled again, it shows nothing again.
const NOTHING_SHOWN: Receipt = Receipt { message_id: None, thread_id: None, shows_once_if_repeated: true };

/// Rows of a chat read at once by its drain.
const DRAIN_BATCH: usize = 16;

/// The rows a drain read, without those delivered and not yet written down (`unwritten`: their
/// ids, listed before the read, so that a delivery written down meanwhile reads as sent or is
/// listed; [`KeptLease::unwritten`]), and whether they filled a batch (read [`DRAIN_BATCH`] or
/// more: more may wait behind them).
fn batch_of(mut rows: Vec<Outgoing>, unwritten: &[i64]) -> (Vec<Outgoing>, bool) {
    let full = rows.len() >= DRAIN_BATCH;
    if !unwritten.is_empty() {
        rows.retain(|r| !unwritten.contains(&r.id));
    }
    (rows, full)
}

/// The rows `response`'s unit of work queued in the chat (`platform`, `key`), as [`Written`], when
/// each reply there carries its row's id and the rows beside them are known.
fn written_in(response: &Response, platform: &str, key: &str, since: u64) -> Option<Box<Written>> {
    let beside = response.waiting_beside.as_ref()?;
    let mut rows = Vec::new();
    for r in response.replies.iter().filter(|r| r.target.platform() == platform && core_outbox::lane_key(r) == key) {
        // Not tried yet: due at once for its writer (`Host::deliver_row`).
        rows.push(Outgoing { id: r.outbox_id?, reply: r.clone(), attempts: 0, not_before: 0 });
    }
    let beside = beside.iter().filter(|(p, k, _)| p == platform && k == key).map(|(.., id)| *id).collect();
    Some(Box::new(Written { rows, beside, since }))
}

/// Who drains a chat, and so which rows it delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drain {
    /// The process that just wrote rows (an input's answers): every waiting row, and while
    /// another process holds the chat's lease it waits for it, up to [`LEASE_WAIT`].
    Writer,
    /// The drainer: the rows that are due, stopping at the first that is not (a row just written,
    /// which its writer delivers).
    Due,
    /// [`Host::drain_chat`]: every waiting row, without waiting for another process's lease.
    Now,
}

/// How long the process that wrote a chat's rows waits for another process's lease on the chat
/// (that process delivering older rows there, a retry or the backlog of a restart) before it
/// leaves its rows to the drainer. Without the wait, a move answered while another process held
/// the lease was told "Discord is busy" and posted later by the drainer (`lab bench-shards`,
/// several processes on PostgreSQL: `docs/load.md`).
const LEASE_WAIT: Duration = Duration::from_secs(2);

/// How often the writer looks whether the lease is free while it waits.
const LEASE_LOOK_EVERY: Duration = Duration::from_millis(25);

/// A chat's delivery lease is renewed before a row once this much of it has gone by (it lasts
/// `store::outbox::LEASE_SECS` by the database's clock, counted from after the request that took it;
/// this process counts from before sending that request, so it renews early, never late).
const LEASE_RENEW_AFTER: Duration = Duration::from_secs(crate::store::outbox::LEASE_SECS as u64 / 2);

/// How long a chat stays quiet before this process gives up the delivery lease its writer's drain
/// kept there ([`KeptLease`]). A game's next move comes seconds later in the same chat: its answer
/// is then delivered under the kept lease, without writing a lease again. Another process that
/// writes to the chat meanwhile waits for it (its writer up to [`LEASE_WAIT`]).
const LEASE_KEPT_QUIET: Duration = Duration::from_millis(250);

/// How often the deliveries not yet written down are written and the kept leases of quiet chats
/// looked at (both together, one unit of work).
const LEASE_KEEPER_EVERY: Duration = Duration::from_millis(100);

/// Deliveries of one chat left to be written down at most ([`KeptLease::unwritten`]); the next is
/// written at once. Bounds what a look at the chat reads beyond its batch.
const UNWRITTEN_PER_CHAT: usize = 16;

/// A chat's delivery lease this process holds in the database, kept after its writer's drain there
/// ([`core_outbox`]'s `WhenEmpty::Keep`), with the deliveries made under it and not yet written
/// down. Changed by whoever holds the chat's turn, and by the keeper ([`Host::keep_leases`]), which
/// writes the deliveries down.
#[derive(Clone, Debug)]
struct KeptLease {
    /// When the lease was taken or last renewed (counted from before the statement, as
    /// [`LEASE_RENEW_AFTER`] says): used without writing it again until that has gone by.
    renewed: std::time::Instant,
    /// Since when no drain has run in the chat (`None` while one runs).
    quiet_since: Option<std::time::Instant>,
    /// False once the lease was given up or lost while deliveries still wait to be written down.
    held: bool,
    /// Rows of the chat delivered under the lease and not yet written down as sent, oldest first:
    /// the writer's drain writes a delivery that shows once if made again
    /// ([`Receipt::shows_once_if_repeated`]) and has nothing else to remember down a moment later,
    /// with the others of that moment, in the keeper's unit of work (a move's answer: one unit of
    /// work fewer for each of its chats). Until then this process's looks at the chat leave them
    /// out, and its lease there is not given up. A crash in between delivers them again after the
    /// restart, which the platform shows once.
    unwritten: Vec<core_outbox::Delivered>,
    /// When this record of the lease began, and when a drain of the chat last ended, as stamps of
    /// [`Host::drains`]: a unit of work that began after both knows its rows are not delivered yet
    /// ([`Written`]).
    since: u64,
    drained: u64,
}

/// The rows a unit of work of this process queued in one chat, as it wrote them, with the rows that
/// waited there beside them as it did ([`crate::bot::Response::waiting_beside`]) and the stamp of
/// [`Host::drains`] taken before the unit began. The writer's drain under its kept lease delivers
/// them without reading them back when nothing else can be waiting or delivered there since
/// ([`Host::written_rows_current`]): every row beside them is among the deliveries it left to write
/// down, no drain of the chat has ended since the unit began, and the lease has been kept all along
/// (no other process delivers there meanwhile). Otherwise it looks, as before.
#[derive(Debug)]
struct Written {
    rows: Vec<Outgoing>,
    beside: Vec<i64>,
    since: u64,
}

/// The outbox's bookkeeping at once at most (see `Host::outbox_lane`): short statements, each a
/// connection of the store's pool.
const OUTBOX_LANE: usize = 2;

/// A chat platform as the host sees it: it shows replies. Input goes the other way, through
/// [`Host::handle`].
#[async_trait]
pub trait FrontEnd: Send + Sync {
    /// The platform name in [`crate::bot::Scope::platform`] that this front end owns.
    fn platform(&self) -> &str;
    /// Whether it can send direct messages to a person.
    fn has_direct_messages(&self) -> bool;
    /// How people give commands on the platform (the core's texts name what works there).
    fn command_style(&self) -> CommandStyle {
        CommandStyle::TYPED
    }
    /// Shows one reply (edits the message named by its slot where the platform can).
    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError>;
    /// How many chats the host delivers to at once at most on this platform (`None`: as many as
    /// have rows). A front end that sends only so many messages at once anyway (Matrix) says so:
    /// the chats beyond wait for a place before their drain is under way, each a small future
    /// rather than a whole drain waiting inside [`FrontEnd::deliver`].
    fn chats_at_once(&self) -> Option<usize> {
        None
    }
}

/// What became of one outbox row in a drain ([`Host::deliver_row`]).
enum RowOutcome {
    /// Delivered: its id, the reply as delivered and the receipt, to record as sent.
    Sent(Box<(i64, Reply, Receipt)>),
    /// Failed for good, and recorded: the chat goes on.
    Settled,
    /// Left waiting (a retry later, the lease lost, held for an interaction): the chat stops here.
    Left,
}

/// Host settings.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// AI searches at once.
    pub ai_threads: usize,
    /// The core's blocking work at once: the scheduler's ticks, the AI's moves and analyses written
    /// down, the outbox's failures. More than the cores only adds contention: work beyond it waits
    /// its turn in arrival order, holding no database connection.
    pub core_threads: usize,
    /// People's inputs the core works on at once (default: the cores, at least two), in a lane of
    /// their own beside [`HostConfig::core_threads`]' work, so that a scheduler tick or an AI's move
    /// being written down never takes an input's place (on SQLite they still take turns at the one
    /// writing connection). Inputs beyond it wait their turn in arrival order. One on SQLite trades a
    /// little throughput for a tighter tail when the bot is saturated: through the fake Discord at
    /// its limit the p99 66 against 78 ms, 951 against 1,007 moves/s; at half that rate the median
    /// 2.9 against 2.4 ms (`docs/load.md`, "Where the slowest moves through the fake Discord come
    /// from (stop 117)").
    pub input_threads: usize,
    /// How many nice steps behind the host's other threads people's inputs and the AI's searches
    /// in games run (0 to 19; default [`DEFAULT_INPUT_NICE`], beside them). Behind, when the cores
    /// are busy, the answers already decided are drawn, sent and written down first and the inputs
    /// wait their turn in order ([`background`]): a tighter tail at saturation for a little of the
    /// rate, as one input thread gives. It orders threads within the process's scheduling group
    /// (its session or control group); a program sharing that group gets ahead of them too.
    pub input_nice: i32,
    /// Pictures drawn at once for delivery, outside any transaction (default: the cores, at least
    /// two). Apart from [`HostConfig::input_threads`]: drawing holds no database connection, so one
    /// input thread (no contention for SQLite's write lock) can feed as many drawing threads as there
    /// are cores.
    pub draw_threads: usize,
    /// How often the scheduler runs.
    pub tick_every: Duration,
    /// Rate limits and the bound on waiting inputs (`None`: none, as in the console).
    pub limits: Option<limits::LimitConfig>,
    /// This process's name among those sharing the database (what it serves: its platforms and
    /// Discord shards; see `Config::instance`), for the operator: the owner of the chats' delivery
    /// leases is this name and a part drawn for the process instance, so that two processes given
    /// one name (a rolling restart, a copied configuration) never both hold a chat's lease. A
    /// process restarted after a crash takes its predecessor's leases over at once where it can
    /// tell that the predecessor has ended (the same machine and process id namespace:
    /// `lease_holder_is_gone`), and otherwise waits them out (at most `store::outbox::LEASE_SECS`).
    /// `None`: "host".
    pub instance: Option<String>,
    /// How often an analysis's progress message is edited at most
    /// ([`ANALYSIS_PROGRESS_EVERY`]; tests shorten it to see every step).
    pub analysis_progress_every: Duration,
    /// How long a chat stays quiet before the delivery lease its writer's drain kept there is given
    /// up ([`LEASE_KEPT_QUIET`]; tests lengthen it to see the lease kept).
    pub lease_kept_quiet: Duration,
    /// How often deliveries left unwritten are written down and quiet chats' leases given up
    /// ([`LEASE_KEEPER_EVERY`]; tests lengthen it to see them unwritten).
    pub lease_keeper_every: Duration,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            ai_threads: default_ai_threads(),
            core_threads: default_core_threads(),
            input_threads: default_core_threads(),
            input_nice: DEFAULT_INPUT_NICE,
            draw_threads: default_core_threads(),
            tick_every: Duration::from_secs(30),
            limits: None,
            instance: None,
            analysis_progress_every: ANALYSIS_PROGRESS_EVERY,
            lease_kept_quiet: LEASE_KEPT_QUIET,
            lease_keeper_every: LEASE_KEEPER_EVERY,
        }
    }
}

/// The owner of this process instance's delivery leases: its name, its process id and a random
/// part (several hosts in one process, as in tests, are each an instance of their own), and where
/// the system says, the process ids' realm (`@`: this boot of this machine's kernel and this process
/// id namespace), so that a process of the same realm can tell that the holder is gone
/// ([`lease_holder_is_gone`]).
fn lease_owner(instance: Option<&str>) -> String {
    let owner = format!("{}/{}-{:016x}", instance.unwrap_or("host"), std::process::id(), rand::random::<u64>());
    match pid_realm() {
        Some(realm) => format!("{owner}@{realm:016x}"),
        None => owner,
    }
}

/// Where process ids name the same processes: this boot of the kernel and this process's process
/// id namespace (two containers on one machine each count their own), hashed; read once. `None`
/// where the system does not say (not Linux).
fn pid_realm() -> Option<u64> {
    static REALM: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *REALM.get_or_init(|| {
        use std::hash::{Hash, Hasher};
        let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
        let namespace = std::fs::read_link("/proc/self/ns/pid").ok()?;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (boot.trim(), namespace).hash(&mut h);
        Some(h.finish())
    })
}

/// Whether the holder of a lease, as [`lease_owner`] named it, is a process that has ended: one of
/// this process's realm ([`pid_realm`]) whose process id no longer runs. A process restarted after
/// a crash then takes its predecessor's chats back at once instead of waiting for their leases to
/// run out (a writer keeps a chat's lease for a moment after its drain, `HostConfig::lease_kept_quiet`).
/// Never true of a holder elsewhere (another machine, another container) or of a name it cannot
/// read: those leases run out by themselves.
fn lease_holder_is_gone(holder: &str) -> bool {
    let Some((rest, realm)) = holder.rsplit_once('@') else { return false };
    let Some(mine) = pid_realm() else { return false };
    if u64::from_str_radix(realm, 16).ok() != Some(mine) {
        return false;
    }
    let pid = rest.rsplit_once('/').and_then(|(_, p)| p.split_once('-')).and_then(|(pid, _)| pid.parse::<u32>().ok());
    match pid {
        Some(pid) if pid != std::process::id() => !std::path::Path::new(&format!("/proc/{pid}")).exists(),
        _ => false,
    }
}

/// The nice steps people's inputs and the AI's searches run behind the rest by default
/// ([`HostConfig::input_nice`]): none. Through the fake Discord at its limit (`bench-discord
/// --games 50`, thirteen alternated pairs on one host) ten steps gave the p99 lower in ten pairs
/// (50.6 → 46.6 ms by the medians) and the rate lower in ten (1,510 → 1,456 moves/s): a trade, not a
/// gain (docs/load.md).
pub const DEFAULT_INPUT_NICE: i32 = 0;

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
    /// The analyses' searches, on threads of the lowest OS priority (as many as the AI's places).
    background: background::Background,
    core_pool: Arc<Semaphore>,
    /// People's inputs in the core ([`HostConfig::input_threads`] at once, in arrival order).
    input_lane: Arc<Semaphore>,
    /// The threads people's inputs run on, [`HostConfig::input_nice`] steps behind the rest.
    inputs: background::Background,
    /// The threads the AI's searches in games run on, as far behind as the inputs.
    ai_searches: background::Background,
    /// The outbox's bookkeeping (leases, rows read, sent and retried), a lane of its own: a row
    /// delivered is recorded at once, not behind a burst of moves waiting for the core. Until it
    /// is, a crash would make the row be delivered again.
    outbox_lane: Arc<Semaphore>,
    /// Pictures being drawn for delivery ([`HostConfig::draw_threads`] at once).
    draw_lane: Arc<Semaphore>,
    /// Whole games' animations being drawn for delivery: one at a time, at the lowest OS priority.
    animations: background::Background,
    /// The last animations drawn ([`ANIMATION_MEMO_BYTES`] of them at most), by what they show.
    animations_drawn: AnimationMemo,
    /// How many animations this host has drawn (not given from the memo).
    animation_drawings: Arc<std::sync::atomic::AtomicU64>,
    tracker: TaskTracker,
    stop: CancellationToken,
    config: HostConfig,
    /// Each chat's delivery turn: one drain per chat at a time, keeping its deliveries in order
    /// (a drain keeps its turn while it finds more rows of its chat; no other chat waits for it).
    turns: turns::ChatTurns,
    /// The places of the platforms whose front end bounds the chats delivered at once
    /// ([`FrontEnd::chats_at_once`]).
    chat_places: RwLock<HashMap<String, Arc<Semaphore>>>,
    /// The chats where a thread is being opened: their inputs wait until its id is recorded.
    openings: Arc<openings::Openings>,
    /// Woken when a row is left for later, so the drainer recomputes its sleep.
    drain_wake: tokio::sync::Notify,
    limits: Option<limits::Limits>,
    /// Inputs in the core or waiting for it, counted by a guard (an input whose future is dropped
    /// while it waits gives its place back).
    in_core: background::Foreground,
    /// Inputs in the core and boards being drawn: an analysis's search waits while there are any.
    foreground: background::Foreground,
    /// What was started once per process, however many front ends ask: the scheduler, the
    /// drainer; and the platforms whose AI moves pending at start were resumed.
    started_scheduler: std::sync::atomic::AtomicBool,
    started_drainer: std::sync::atomic::AtomicBool,
    resumed_ai: std::sync::Mutex<Vec<String>>,
    /// Whether each front end's gateway or sync is connected, as it last said.
    connected: RwLock<HashMap<String, bool>>,
    /// This process among those sharing the database: the owner of the chats' delivery leases.
    owner: String,
    /// The chats whose delivery lease this process holds, by platform and chat key ([`KeptLease`]).
    leases: std::sync::Mutex<HashMap<(String, String), KeptLease>>,
    /// Whether the task that gives up the leases of quiet chats runs ([`Host::keep_leases`]).
    started_lease_keeper: std::sync::atomic::AtomicBool,
    /// A count of the chats' drains ended and leases recorded ([`Host::stamp`]), and the stamp of the
    /// last change to the outbox's rows made outside a drain (a chat gone or moved): what tells a
    /// unit's own rows from rows another drain may have read meanwhile ([`Written`]).
    drains: std::sync::atomic::AtomicU64,
    changed_apart: std::sync::atomic::AtomicU64,
    /// The chats where a game may just have changed, told as each unit of work is settled.
    changes: changes::Changes,
    /// The listener for other processes' changes ([`Host::hear_other_processes`]), once started.
    listening: std::sync::OnceLock<Option<Arc<listen::Listening>>>,
}

impl Host {
    pub fn new(bot: Arc<Bot>, config: HostConfig) -> Arc<Host> {
        Arc::new(Host {
            bot,
            front_ends: RwLock::new(HashMap::new()),
            ai_pool: Arc::new(Semaphore::new(config.ai_threads.max(1))),
            background: background::Background::new(config.ai_threads),
            core_pool: Arc::new(Semaphore::new(config.core_threads.max(1))),
            input_lane: Arc::new(Semaphore::new(config.input_threads.max(1))),
            inputs: background::Background::with_priority(
                "capabot-input",
                config.input_threads,
                background::Priority::Behind(config.input_nice),
            ),
            ai_searches: background::Background::with_priority(
                "capabot-ai",
                config.ai_threads,
                background::Priority::Behind(config.input_nice),
            ),
            outbox_lane: Arc::new(Semaphore::new(OUTBOX_LANE)),
            draw_lane: Arc::new(Semaphore::new(config.draw_threads.max(1))),
            animations: background::Background::named("capabot-animation", 1),
            animation_drawings: Arc::default(),
            animations_drawn: mini_moka::sync::Cache::builder()
                .weigher(|key: &String, gif: &Arc<Vec<u8>>| u32::try_from(key.len() + gif.len()).unwrap_or(u32::MAX))
                .max_capacity(ANIMATION_MEMO_BYTES)
                .build(),
            tracker: TaskTracker::new(),
            stop: CancellationToken::new(),
            config: config.clone(),
            turns: turns::ChatTurns::default(),
            chat_places: RwLock::default(),
            openings: Arc::default(),
            drain_wake: tokio::sync::Notify::new(),
            limits: config.limits.clone().map(limits::Limits::new),
            in_core: Default::default(),
            foreground: Default::default(),
            started_scheduler: Default::default(),
            started_drainer: Default::default(),
            resumed_ai: Default::default(),
            connected: Default::default(),
            owner: lease_owner(config.instance.as_deref()),
            leases: Default::default(),
            started_lease_keeper: Default::default(),
            drains: Default::default(),
            changed_apart: Default::default(),
            changes: changes::Changes::default(),
            listening: std::sync::OnceLock::new(),
        })
    }

    /// Plugs in a front end for its platform (replacing an earlier one).
    pub fn register(&self, fe: Arc<dyn FrontEnd>) {
        self.bot.set_command_style(fe.platform(), fe.command_style());
        if let Ok(mut places) = self.chat_places.write() {
            match fe.chats_at_once() {
                Some(n) => places.insert(fe.platform().to_string(), Arc::new(Semaphore::new(n.max(1)))),
                None => places.remove(fe.platform()),
            };
        }
        if let Ok(mut map) = self.front_ends.write() {
            map.insert(fe.platform().to_string(), fe);
        }
    }

    /// A front end says its gateway or sync went up or down (for `/healthz` and the metrics).
    pub fn set_connected(&self, platform: &str, up: bool) {
        if let Ok(mut map) = self.connected.write() {
            map.insert(platform.to_string(), up);
        }
        metrics::connected(platform, up);
    }

    /// Whether `platform`'s front end said it is connected (not until it says so).
    pub fn is_connected(&self, platform: &str) -> bool {
        self.connected.read().ok().and_then(|m| m.get(platform).copied()).unwrap_or(false)
    }

    /// Each front end plugged in, connected or not, and whether the database answers a query.
    pub async fn health(&self) -> metrics::Health {
        let mut platforms: Vec<(String, bool)> =
            self.platforms().into_iter().map(|p| (p.clone(), self.is_connected(&p))).collect();
        platforms.sort();
        let bot = self.bot.clone();
        // Not through the core's queue: a busy bot is still a healthy one.
        let database = tokio::task::spawn_blocking(move || {
            let conn = bot.store().conn().map_err(|e| e.to_string())?;
            conn.query_row("SELECT 1", (), |r| r.get::<i64>(0)).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| e.to_string())
        .and_then(|r| r);
        if let Err(e) = &database {
            tracing::warn!("health check: the database does not answer: {e}");
        }
        metrics::Health { platforms, database: database.is_ok() }
    }

    /// Sets the outbox gauge of every platform (plugged in here or with rows waiting) from the
    /// database.
    pub async fn refresh_outbox_gauges(&self) {
        let bot = self.bot.clone();
        let counts = tokio::task::spawn_blocking(move || {
            let conn = bot.store().conn().ok()?;
            crate::store::outbox::counts(&conn).ok()
        })
        .await
        .ok()
        .flatten();
        let Some(counts) = counts else { return };
        let mut pending: HashMap<String, i64> = self.platforms().into_iter().map(|p| (p, 0)).collect();
        for (platform, state, n) in counts {
            if state == "pending" {
                *pending.entry(platform).or_default() += n;
            }
        }
        for (platform, n) in pending {
            ::metrics::gauge!(metrics::OUTBOX_PENDING, "platform" => platform).set(n as f64);
        }
    }

    pub fn bot(&self) -> &Arc<Bot> {
        &self.bot
    }

    /// The feed of chats where a game may just have changed (what the web pages' live streams
    /// follow): told for every response this host settles, once its unit of work is committed.
    pub fn changes(&self) -> changes::Changes {
        self.changes.clone()
    }

    /// Starts (once per host) telling on [`Host::changes`] the changes other processes sharing a
    /// PostgreSQL database commit ([`listen`]); its state, `None` on SQLite. The listening thread
    /// ends at shutdown.
    pub fn hear_other_processes(&self) -> Option<Arc<listen::Listening>> {
        self.listening.get_or_init(|| listen::start(self.bot.clone(), self.changes.clone(), self.stop.clone())).clone()
    }

    /// Cancelled when shutdown begins (front ends stop reading input).
    pub fn stopping(&self) -> CancellationToken {
        self.stop.clone()
    }

    /// Handles one input: the core's work on the blocking pool, then every reply delivered and every
    /// AI move it caused played and delivered. Completes when all of it is done.
    pub async fn handle(self: &Arc<Self>, input: Input) -> Result<Delivery, HostError> {
        if self.stop.is_cancelled() {
            return Err(HostError::ShuttingDown);
        }
        if let Some(refused) = self.screen(&input).await {
            return Ok(refused);
        }
        self.handle_admitted(input).await
    }

    /// The limits' verdict on `input`, taken once and acted on: `Some` when it is turned away (its
    /// refusal delivered, or nothing said to a flood told already), `None` when it may go to the
    /// core through [`Host::handle_admitted`]. For front ends that must know before they show
    /// anything (a Discord slash command's public "thinking…" would stay for ever over an input
    /// that never reaches the core); the others call [`Host::handle`], which screens itself.
    pub async fn screen(self: &Arc<Self>, input: &Input) -> Option<Delivery> {
        Some(match self.refuse(input)? {
            Some(refusal) => {
                self.say_refusal(input, refusal).await;
                Delivery::Done
            }
            None => Delivery::Ignored,
        })
    }

    /// Turns `input` away as "busy" (a front end's own queue for its chat is full), answering its
    /// author in their language.
    pub async fn refuse_busy(self: &Arc<Self>, input: &Input) {
        self.say_refusal(input, Refusal::Busy).await;
    }

    /// Answers `input`'s author, and only them, with `refusal` in the language the core answers them in: theirs, else their client's, else the chat's (read
    /// off the core's queue, which may be the very thing that is full, and not waited for long).
    async fn say_refusal(self: &Arc<Self>, input: &Input, refusal: Refusal) {
        let bot = self.bot.clone();
        let read = tokio::task::spawn_blocking({
            let input = input.clone();
            move || bot.author_lang(&input)
        });
        let lang = match tokio::time::timeout(REFUSAL_LANG_WITHIN, read).await {
            Ok(Ok(lang)) => lang,
            _ => input.locale.as_deref().and_then(crate::i18n::Lang::parse).unwrap_or(self.bot.config().lang),
        };
        let text = match refusal {
            Refusal::Busy => crate::tl!(lang, "host-busy"),
            Refusal::SlowDown => crate::tl!(lang, "host-slow-down"),
        };
        let mut reply = Reply::new(Target::Chat(input.scope.clone()), text);
        reply.lang = lang;
        reply.audience = crate::bot::Audience::Author;
        reply.in_reply_to.clone_from(&input.event_id);
        if let Err(e) = self.deliver(&reply).await {
            tracing::info!("a refusal was not delivered: {e}");
        }
    }

    /// [`Host::handle`] for an input already screened ([`Host::screen`]).
    pub async fn handle_admitted(self: &Arc<Self>, input: Input) -> Result<Delivery, HostError> {
        if self.stop.is_cancelled() {
            return Err(HostError::ShuttingDown);
        }
        let (started, platform) = (std::time::Instant::now(), input.scope.platform.clone());
        let me = self.clone();
        let delivery = self
            .tracker
            .track_future(async move {
                let origin = input.event_id.clone();
                let (response, since) = me.in_core(input).await;
                me.settle_written(response, origin, Some(since)).await
            })
            .await;
        metrics::input_handled(&platform, started.elapsed());
        Ok(delivery)
    }

    /// [`Host::handle`] for a front end that hands each chat's inputs over one at a time, in order
    /// (Matrix's room workers): returns as soon as the core has handled the input (its change
    /// committed, its replies in the outbox behind the chat's earlier ones), and leaves their
    /// delivery and the AI searches they start to go on by themselves, so that the chat's next
    /// input waits for neither. The handle returned ends with what [`Host::handle`] would have
    /// returned.
    pub async fn handle_in_order(
        self: &Arc<Self>,
        input: Input,
    ) -> Result<tokio::task::JoinHandle<Delivery>, HostError> {
        if self.stop.is_cancelled() {
            return Err(HostError::ShuttingDown);
        }
        // Boxed: a refusal's delivery (about 9 KB of future) would otherwise be carried by every
        // input waiting for the core (thousands at once after a Matrix restart: issue 45).
        if let Some(refused) = Box::pin(self.screen(&input)).await {
            return Ok(tokio::spawn(std::future::ready(refused)));
        }
        let (started, platform, origin) =
            (std::time::Instant::now(), input.scope.platform.clone(), input.event_id.clone());
        let me = self.clone();
        let (response, since) = self.tracker.track_future(async move { me.in_core(input).await }).await;
        let me = self.clone();
        Ok(self.tracker.spawn(async move {
            let delivery = me.settle_written(response, origin, Some(since)).await;
            metrics::input_handled(&platform, started.elapsed());
            delivery
        }))
    }

    /// The core's work on one input, on the blocking pool in the inputs' lane (counted while it waits
    /// or runs), with the stamp of [`Host::drains`] taken before it began ([`Written`]).
    async fn in_core(&self, input: Input) -> (Response, u64) {
        let bot = self.bot.clone();
        let (_running, _waiting) = (self.foreground.running(), self.in_core.running());
        // After the threads being opened in its chat are recorded: a move made in a game's thread
        // as soon as it appears is then handled by a core that knows the thread.
        let scope = &input.scope;
        self.openings.wait(&scope.platform, &scope.chat, openings::OPENING_WAIT).await;
        let since = self.drains.load(std::sync::atomic::Ordering::SeqCst);
        (self.on_inputs_lane(move || bot.handle(&input)).await.unwrap_or_default(), since)
    }

    /// Runs `f` in the inputs' lane: once a place is free (in arrival order; given up while waiting,
    /// nothing runs), on one of the input threads.
    async fn on_inputs_lane<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _permit = self.input_lane.acquire().await.ok()?;
        self.inputs.run(f).await
    }

    /// Whether the limits turn `input` away: `Some(Some(refusal))` answers it with that refusal
    /// (to its author only), `Some(None)` ignores it, `None` lets it through.
    fn refuse(&self, input: &Input) -> Option<Option<Refusal>> {
        let limits = self.limits.as_ref()?;
        if self.in_core.count() >= limits.config.max_waiting {
            return Some(Some(Refusal::Busy));
        }
        let p = &input.scope.platform;
        let user = format!("{p}:{}", input.author.id);
        let chat = format!("{p}:{}", input.scope.chat);
        match limits.check(&user, &chat) {
            limits::Verdict::Go => None,
            limits::Verdict::SlowDown => Some(Some(Refusal::SlowDown)),
            limits::Verdict::Ignore => Some(None),
        }
    }

    /// Runs the scheduler once for the platforms this host has front ends for (and only those: what
    /// is due elsewhere is left to a process that can deliver it), and delivers what it says.
    pub async fn tick(self: &Arc<Self>) {
        let me = self.clone();
        self.tracker
            .track_future(async move {
                let bot = me.bot.clone();
                let served = crate::bot::Served::new(me.owner.clone(), me.platforms());
                let response = me.blocking(move || bot.tick(&served)).await.unwrap_or_default();
                let _ = me.settle(response, None).await;
            })
            .await;
    }

    /// Ticks the scheduler every [`HostConfig::tick_every`] until shutdown (once per host: a second
    /// call starts nothing).
    pub fn start_scheduler(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        let first = !self.started_scheduler.swap(true, std::sync::atomic::Ordering::SeqCst);
        tokio::spawn(async move {
            if !first {
                return;
            }
            let mut every = tokio::time::interval(me.config.tick_every);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = me.stop.cancelled() => break,
                    _ = every.tick() => {
                        if let Some(l) = &me.limits {
                            l.prune();
                        }
                        me.tick().await
                    }
                }
            }
        })
    }

    /// Plays the AI's moves in games where it was to move when the bot stopped, on the platforms
    /// with a front end here (once per platform: each front end calls this once it is registered).
    /// It returns once the games are listed — before any new input can start another search for
    /// them — and plays the moves in the background; their replies wait in the outbox until a
    /// front end delivers them.
    pub async fn resume_ai(self: &Arc<Self>) {
        if let Some(settling) = self.resume_ai_listed().await {
            self.tracker.spawn(settling);
        }
    }

    /// [`Host::resume_ai`], returning only once the moves are played and announced (the console,
    /// whose script goes on after it).
    pub async fn resume_ai_and_wait(self: &Arc<Self>) {
        if let Some(settling) = self.resume_ai_listed().await {
            settling.await;
        }
    }

    async fn resume_ai_listed(self: &Arc<Self>) -> Option<Settling> {
        let fresh: Vec<String> = {
            let mut resumed = self.resumed_ai.lock().unwrap_or_else(|e| e.into_inner());
            let fresh: Vec<String> = self.platforms().into_iter().filter(|p| !resumed.contains(p)).collect();
            resumed.extend(fresh.iter().cloned());
            fresh
        };
        if fresh.is_empty() {
            return None;
        }
        let (bot, served) = (self.bot.clone(), crate::bot::Served::new(self.owner.clone(), fresh.clone()));
        let jobs = match self.blocking(move || bot.pending_ai_jobs(&served)).await {
            Some(Ok(jobs)) => jobs,
            failed => {
                if let Some(Err(e)) = failed {
                    tracing::error!("could not list the games where capabot is to move: {e}");
                }
                // Not marked as taken up: a later call (another front end's) lists them again.
                let mut resumed = self.resumed_ai.lock().unwrap_or_else(|e| e.into_inner());
                resumed.retain(|p| !fresh.contains(p));
                return None;
            }
        };
        (!jobs.is_empty()).then(|| self.settle(Response { ai_jobs: jobs, ..Response::default() }, None))
    }

    /// Delivers replies (in order, from the outbox when they are queued there), then runs the AI
    /// jobs, each on the bounded pool, feeding their moves back and settling what follows. `origin`
    /// is the event that caused it all: the AI's replies answer it too (a Discord interaction gets
    /// the AI's move as its follow-up while it is still open).
    fn settle(self: &Arc<Self>, response: Response, origin: Option<String>) -> Settling {
        self.settle_written(response, origin, None)
    }

    /// [`Host::settle`] for a response whose unit of work began at stamp `since` of
    /// [`Host::drains`] ([`Written`]).
    fn settle_written(self: &Arc<Self>, response: Response, origin: Option<String>, since: Option<u64>) -> Settling {
        // Boxed with `Send` spelled out: settling may lead to settling again (failure notices).
        let me = self.clone();
        Box::pin(async move { me.settle_now(response, origin, since).await })
    }

    async fn settle_now(
        self: &Arc<Self>,
        mut response: Response,
        origin: Option<String>,
        since: Option<u64>,
    ) -> Delivery {
        metrics::moves_announced(&response.replies);
        // Committed already: followers may read the change now, before the platform shows it.
        self.changes.tell_response(&response);
        let mut delivery = Delivery::Done;
        if response.queued {
            let mut chats: Vec<(String, String)> = Vec::new();
            for r in &response.replies {
                let chat = (r.target.platform().to_string(), core_outbox::lane_key(r));
                if !chats.contains(&chat) {
                    chats.push(chat);
                }
            }
            // The chats at once: each keeps its own order, and one that waits for a retry (Discord
            // busy in the channel) does not hold back the others (the players' direct messages).
            let drains: Vec<_> = chats
                .into_iter()
                .map(|(platform, key)| {
                    let me = self.clone();
                    let written = since.and_then(|since| written_in(&response, &platform, &key, since));
                    self.tracker.spawn(async move { me.drain(&platform, &key, Drain::Writer, written).await })
                })
                .collect();
            for drain in drains {
                if !drain.await.unwrap_or(false) {
                    delivery = Delivery::Delayed;
                }
            }
        } else {
            for r in &mut response.replies {
                if r.in_reply_to.is_none() {
                    r.in_reply_to.clone_from(&origin);
                }
                // Boxed: carried inline, the delivery (about 7 KB of future) made every settling
                // that large, also the outbox's, which wait for their chats' drains (issue 45).
                if let Err(e) = Box::pin(self.deliver(r)).await {
                    metrics::delivery_failed(r.target.platform(), e.kind());
                    tracing::warn!(platform = r.target.platform(), "reply not delivered: {e}");
                }
            }
        }
        let mut running = Vec::new();
        for job in response.ai_jobs {
            let (me, origin) = (self.clone(), origin.clone());
            running.push(self.tracker.spawn(async move { me.run_ai(job, origin).await }));
        }
        for job in response.analyses {
            let (me, origin) = (self.clone(), origin.clone());
            running.push(self.tracker.spawn(async move { me.run_analysis(job, origin).await }));
        }
        for r in running {
            if r.await.unwrap_or(Delivery::Done) == Delivery::Delayed {
                delivery = Delivery::Delayed;
            }
        }
        delivery
    }

    fn platforms(&self) -> Vec<String> {
        self.front_ends.read().map(|m| m.keys().cloned().collect()).unwrap_or_default()
    }

    /// Delivers the waiting rows of one chat, oldest first, while they go through. A passing
    /// failure is retried inline when the wait is short, else left (with the rows behind it) for
    /// the drainer; a permanent one is reported to the core, whose notices are delivered in turn.
    /// Rows of a platform without a front end here stay for a process that has one, and a chat
    /// is delivered by one process at a time (the one holding its lease in the database).
    /// `false` when rows are left waiting.
    pub async fn drain_chat(self: &Arc<Self>, platform: &str, key: &str) -> bool {
        self.drain(platform, key, Drain::Now, None).await
    }

    /// Waits for the chat's turn, then for a place of its platform's (when its front end bounds
    /// the chats delivered at once), and drains it. Small while it waits: the drain's own future
    /// (about 10 KB) is boxed, made once the place is taken. After a restart with a command waiting
    /// in each of thousands of Matrix rooms, every chat's drain waited at once inside the front
    /// end's `deliver` for one of its few places to send (issue 45). The turn is taken first: a
    /// drain waiting for a place counts as the chat's (the drainer starts no second one).
    async fn drain(self: &Arc<Self>, platform: &str, key: &str, how: Drain, written: Option<Box<Written>>) -> bool {
        if self.front_end(platform).is_none() {
            return false;
        }
        let _turn = self.turns.take(platform, key).await;
        let places = self.chat_places.read().ok().and_then(|p| p.get(platform).cloned());
        let _place = match places {
            Some(places) => match places.acquire_owned().await {
                Ok(place) => Some(place),
                Err(_) => return false,
            },
            None => None,
        };
        let drained = Box::pin(self.drain_in_turn(platform, key, how, written)).await;
        // Still in the chat's turn: a unit that began before this knows another drain may have
        // read its rows.
        let stamp = self.stamp();
        if let Some(lease) = self.kept_leases().get_mut(&(platform.to_string(), key.to_string())) {
            lease.drained = stamp;
        }
        drained
    }

    /// The next stamp of [`Host::drains`]: later than any a unit of work took before.
    fn stamp(&self) -> u64 {
        self.drains.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }

    /// Whether `written`'s rows are all the chat's waiting rows not yet delivered ([`Written`]).
    /// The caller holds the chat's turn and its kept lease.
    fn written_rows_current(&self, platform: &str, key: &str, written: &Written) -> bool {
        if self.changed_apart.load(std::sync::atomic::Ordering::SeqCst) > written.since {
            return false;
        }
        let leases = self.kept_leases();
        let Some(lease) = leases.get(&(platform.to_string(), key.to_string())) else { return false };
        lease.held
            && lease.since <= written.since
            && lease.drained <= written.since
            && written.beside.iter().all(|id| lease.unwritten.iter().any(|d| d.id == *id))
    }

    /// [`Host::drain`] once the chat's turn (and place) is held.
    async fn drain_in_turn(
        self: &Arc<Self>,
        platform: &str,
        key: &str,
        how: Drain,
        written: Option<Box<Written>>,
    ) -> bool {
        // Across processes on one database: the chat's lease, taken with the first rows in one unit
        // of work, renewed before a row once half of it has gone by. The writer's drain keeps it
        // after its last look at the chat, and its next drain there (the game's next move) reads
        // the rows without writing the lease again; it is given up once the chat has been quiet
        // for `LEASE_KEPT_QUIET` (`Host::keep_leases`). Other drains give it up with their last
        // look (two short units for a drain of one row, one for the writer's next drains). Under a
        // kept lease the writer leaves the deliveries it may to the keeper to write down
        // (`KeptLease::unwritten`); any other drain writes them down first.
        if how != Drain::Writer && !self.write_down(platform, key).await {
            return false;
        }
        let mut renewed = std::time::Instant::now();
        // Whether the last read filled its batch (more rows may wait behind it).
        let mut full = true;
        let (mut rows, mut released_by_look) = match self.kept_lease(platform, key) {
            Some(at) => {
                renewed = at;
                let written = written.filter(|w| self.written_rows_current(platform, key, w));
                let looked = match written {
                    // All that waits, as the unit wrote it: no look (nor decoding its rows again).
                    Some(written) => Some((written.rows, false)),
                    None => self.look(platform, key).await,
                };
                match looked {
                    Some((rows, filled)) => {
                        full = filled;
                        (rows, false)
                    }
                    // The database is silent: the lease stays kept, given up once the chat is quiet.
                    None => {
                        self.lease_quiet(platform, key);
                        return false;
                    }
                }
            }
            // Taken with rows, the lease is held: rows left out as unwritten leave it to the rules
            // below (a lease renewed in a busy chat).
            None => {
                let unwritten = self.unwritten_ids(platform, key);
                match self.take_chat(platform, key, how, renewed).await {
                    Some(rows) if rows.is_empty() => (rows, true),
                    Some(rows) => {
                        let (rows, filled) = batch_of(rows, &unwritten);
                        full = filled;
                        (rows, false)
                    }
                    None => return false,
                }
            }
        };
        'drain: loop {
            if rows.is_empty() {
                if released_by_look {
                    self.forget_lease(platform, key);
                } else if how == Drain::Writer && !self.stop.is_cancelled() {
                    self.lease_quiet(platform, key);
                    self.start_lease_keeper();
                    if self.stop.is_cancelled() {
                        // The keeper may have given up the quiet leases for the last time.
                        self.give_up_lease(platform, key).await;
                    }
                } else {
                    self.give_up_lease(platform, key).await;
                }
                return true;
            }
            let last = rows.len() - 1;
            let mut sent_last = None;
            // The threads these rows open, held until their ids are recorded (below).
            let mut opening = Vec::new();
            for (i, row) in rows.into_iter().enumerate() {
                if renewed.elapsed() >= LEASE_RENEW_AFTER {
                    let now = std::time::Instant::now();
                    if !self.lease_chat(platform, key).await {
                        break 'drain;
                    }
                    renewed = now;
                    self.lease_renewed(platform, key, now);
                }
                if row.reply.new_thread.is_some()
                    && let Target::Chat(scope) = &row.reply.target
                {
                    opening.push(self.openings.begin(platform, &scope.chat));
                }
                match self.deliver_row(row, how).await {
                    RowOutcome::Sent(sent) if how == Drain::Writer && self.leave_unwritten(platform, key, &sent) => {}
                    RowOutcome::Sent(sent) if i == last => sent_last = Some(sent),
                    RowOutcome::Sent(sent) => {
                        let (id, reply, receipt) = *sent;
                        let bot = self.bot.clone();
                        let _ = self.bookkeeping(move || bot.outbox_sent(id, &reply, &receipt)).await;
                    }
                    RowOutcome::Settled => {}
                    RowOutcome::Left => break 'drain,
                }
            }
            // The writer keeps the lease when the chat is empty (see above); the others give it up,
            // once what was left unwritten is written down.
            let keep = how == Drain::Writer && !self.stop.is_cancelled();
            if !keep && !self.write_down(platform, key).await {
                break 'drain;
            }
            let next = match sent_last {
                // The last row's delivery is recorded with the next look at the chat, in one unit.
                Some(sent) => {
                    let (bot, p, k, owner) =
                        (self.bot.clone(), platform.to_string(), key.to_string(), self.owner.clone());
                    let when_empty = if keep { WhenEmpty::Keep } else { WhenEmpty::GiveUp };
                    let unwritten = self.unwritten_ids(platform, key);
                    let limit = DRAIN_BATCH + unwritten.len();
                    let (id, reply, receipt) = *sent;
                    let next = self
                        .bookkeeping(move || {
                            bot.outbox_sent_and_next(id, &reply, &receipt, (&p, &k, &owner), limit, when_empty)
                        })
                        .await
                        .flatten();
                    next.map(|rows| batch_of(rows, &unwritten))
                }
                // Every row of the batch delivered and left unwritten, and the batch not full: no
                // look. A row written since the batch was read has its writer's own drain coming
                // (every unit's answers are drained by the process that wrote them, after this
                // drain, in the chat's turn), and another process's waits for this lease.
                None if keep && !full => Some((Vec::new(), false)),
                None if keep => self.look(platform, key).await,
                None => {
                    let (bot, p, k, owner) =
                        (self.bot.clone(), platform.to_string(), key.to_string(), self.owner.clone());
                    let next = self.bookkeeping(move || bot.outbox_next_or_release(&p, &k, &owner, DRAIN_BATCH)).await;
                    next.flatten().map(|rows| batch_of(rows, &[]))
                }
            };
            drop(opening);
            match next {
                Some((next, filled)) => (rows, released_by_look, full) = (next, !keep, filled),
                None => break 'drain,
            }
        }
        // Rows are left waiting (a retry later, another process's lease, the database silent).
        self.give_up_lease(platform, key).await;
        false
    }

    /// The chat's waiting rows for a drain under this process's kept lease: a plain read
    /// ([`Bot::outbox_look`]), leaving out the rows delivered and not yet written down.
    /// With whether the read filled its batch ([`Host::batch_of`]).
    async fn look(&self, platform: &str, key: &str) -> Option<(Vec<Outgoing>, bool)> {
        let unwritten = self.unwritten_ids(platform, key);
        let limit = DRAIN_BATCH + unwritten.len();
        let (bot, p, k) = (self.bot.clone(), platform.to_string(), key.to_string());
        let rows = self.bookkeeping(move || bot.outbox_look(&p, &k, limit)).await.flatten()?;
        Some(batch_of(rows, &unwritten))
    }

    /// The ids of the chat's rows delivered and not yet written down.
    fn unwritten_ids(&self, platform: &str, key: &str) -> Vec<i64> {
        let leases = self.kept_leases();
        let lease = leases.get(&(platform.to_string(), key.to_string()));
        lease.map(|l| l.unwritten.iter().map(|d| d.id).collect()).unwrap_or_default()
    }

    /// Leaves the writer's delivery of a row to be written down by the keeper, when it may
    /// ([`KeptLease::unwritten`]): the process holds the chat's lease and is not stopping, the
    /// delivery would show once if made again and has nothing else to remember, and the chat has
    /// fewer than [`UNWRITTEN_PER_CHAT`] waiting. True when it did.
    fn leave_unwritten(self: &Arc<Self>, platform: &str, key: &str, sent: &(i64, Reply, Receipt)) -> bool {
        let (id, reply, receipt) = sent;
        if !receipt.shows_once_if_repeated || self.bot.delivery_to_remember(reply, receipt) || self.stop.is_cancelled()
        {
            return false;
        }
        let at = self.bot.now();
        {
            let mut leases = self.kept_leases();
            let Some(lease) = leases.get_mut(&(platform.to_string(), key.to_string())) else { return false };
            if !lease.held || lease.unwritten.len() >= UNWRITTEN_PER_CHAT {
                return false;
            }
            lease.unwritten.push(core_outbox::Delivered { id: *id, message_id: receipt.message_id.clone(), at });
        }
        self.start_lease_keeper();
        true
    }

    /// Writes down now the chat's deliveries left unwritten ([`KeptLease::unwritten`]), before a
    /// drain that may give the lease up. True when there were none, or they are written.
    async fn write_down(&self, platform: &str, key: &str) -> bool {
        let chat = (platform.to_string(), key.to_string());
        let unwritten = match self.kept_leases().get(&chat) {
            Some(lease) if !lease.unwritten.is_empty() => lease.unwritten.clone(),
            _ => return true,
        };
        let (bot, owner, marks) = (self.bot.clone(), self.owner.clone(), unwritten.clone());
        let written = self.bookkeeping(move || bot.outbox_write_down(&marks, &[], &owner)).await == Some(true);
        if written {
            self.written_down(&unwritten);
        }
        written
    }

    /// These deliveries are written down: no longer left out of the looks, and a lease given up
    /// with nothing left to write is forgotten.
    fn written_down(&self, written: &[core_outbox::Delivered]) {
        let ids: std::collections::HashSet<i64> = written.iter().map(|w| w.id).collect();
        let mut leases = self.kept_leases();
        for lease in leases.values_mut() {
            lease.unwritten.retain(|d| !ids.contains(&d.id));
        }
        leases.retain(|_, l| l.held || !l.unwritten.is_empty());
    }

    /// Gives up this process's lease on the chat now, with its deliveries still to write down in
    /// the same unit of work.
    async fn give_up_lease(&self, platform: &str, key: &str) {
        let chat = (platform.to_string(), key.to_string());
        let unwritten = self.kept_leases().get(&chat).map(|l| l.unwritten.clone()).unwrap_or_default();
        let (bot, owner) = (self.bot.clone(), self.owner.clone());
        if unwritten.is_empty() {
            self.forget_lease(platform, key);
            let _ = self.bookkeeping(move || bot.outbox_release(&chat.0, &chat.1, &owner)).await;
            return;
        }
        let (marks, release) = (unwritten.clone(), vec![chat.clone()]);
        if self.bookkeeping(move || bot.outbox_write_down(&marks, &release, &owner)).await == Some(true) {
            self.written_down(&unwritten);
        }
        // Written down or not, the lease is no longer used (it runs out by itself when the unit
        // failed, and the keeper tries the deliveries again).
        self.forget_lease(platform, key);
    }

    /// The start of a drain without a kept lease: takes the chat's lease with its first rows
    /// ([`Bot::outbox_take`]); the writer waits for another process's lease up to [`LEASE_WAIT`].
    /// `None` when the chat is another process's (or the database silent). A lease taken with
    /// rows is recorded as held since `asked` (the instant before the request).
    async fn take_chat(
        self: &Arc<Self>,
        platform: &str,
        key: &str,
        how: Drain,
        asked: std::time::Instant,
    ) -> Option<Vec<Outgoing>> {
        let wait_until = asked + if how == Drain::Writer { LEASE_WAIT } else { Duration::ZERO };
        let mut holder_looked_at = false;
        let limit = DRAIN_BATCH + self.unwritten_ids(platform, key).len();
        loop {
            let (bot, p, k, owner) = (self.bot.clone(), platform.to_string(), key.to_string(), self.owner.clone());
            match self.bookkeeping(move || bot.outbox_take(&p, &k, &owner, limit)).await {
                Some(Some(rows)) => {
                    if !rows.is_empty() {
                        self.lease_renewed(platform, key, asked);
                    }
                    return Some(rows);
                }
                // Held by a process that has ended (this one's predecessor, restarted after a
                // crash): taken over at once.
                Some(None) if !holder_looked_at && self.took_over_from_gone(platform, key).await => {
                    holder_looked_at = true;
                }
                // Another process delivers this chat: its drain gives the lease up once it has
                // delivered the rows that were due (it leaves this process's new ones to it).
                Some(None) if std::time::Instant::now() < wait_until && !self.stop.is_cancelled() => {
                    holder_looked_at = true;
                    tokio::time::sleep(LEASE_LOOK_EVERY).await;
                }
                _ => {
                    // The drainer looks again later.
                    tracing::debug!(platform, chat = key, "the chat's delivery is leased to another process");
                    return None;
                }
            }
        }
    }

    /// Takes the chat's lease over from its holder if that is a process that has ended
    /// ([`lease_holder_is_gone`]); true when it did.
    async fn took_over_from_gone(&self, platform: &str, key: &str) -> bool {
        let (bot, p, k) = (self.bot.clone(), platform.to_string(), key.to_string());
        let Some(Some(holder)) = self.bookkeeping(move || bot.outbox_lease_holder(&p, &k)).await else {
            return false;
        };
        if !lease_holder_is_gone(&holder) {
            return false;
        }
        let (bot, p, k, owner) = (self.bot.clone(), platform.to_string(), key.to_string(), self.owner.clone());
        let gone = holder.clone();
        let took = self.bookkeeping(move || bot.outbox_take_over(&p, &k, &gone, &owner)).await == Some(true);
        if took {
            tracing::info!(platform, chat = key, holder, "took over the delivery lease of a process that has ended");
        }
        took
    }

    fn kept_leases(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), KeptLease>> {
        self.leases.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// When this process's lease on the chat was taken or renewed, if it holds one it may use
    /// without writing it again (renewed less than [`LEASE_RENEW_AFTER`] ago). The caller holds the
    /// chat's turn.
    fn kept_lease(&self, platform: &str, key: &str) -> Option<std::time::Instant> {
        let mut leases = self.kept_leases();
        let chat = (platform.to_string(), key.to_string());
        let lease = leases.get_mut(&chat)?;
        lease.quiet_since = None;
        Some(lease.renewed).filter(|at| lease.held && at.elapsed() < LEASE_RENEW_AFTER)
    }

    /// This process took or renewed its lease on the chat at `at`.
    fn lease_renewed(&self, platform: &str, key: &str, at: std::time::Instant) {
        let mut leases = self.kept_leases();
        let since = self.stamp();
        let lease = leases.entry((platform.to_string(), key.to_string())).or_insert_with(|| KeptLease {
            renewed: at,
            quiet_since: None,
            held: true,
            unwritten: Vec::new(),
            since,
            drained: since,
        });
        (lease.renewed, lease.quiet_since, lease.held) = (at, None, true);
    }

    /// The chat's drain is over and its lease kept: quiet from now on.
    fn lease_quiet(&self, platform: &str, key: &str) {
        if let Some(lease) = self.kept_leases().get_mut(&(platform.to_string(), key.to_string())) {
            lease.quiet_since = Some(std::time::Instant::now());
        }
    }

    /// The lease on the chat was given up (or lost). Deliveries still to write down stay for the
    /// keeper.
    fn forget_lease(&self, platform: &str, key: &str) {
        let mut leases = self.kept_leases();
        let chat = (platform.to_string(), key.to_string());
        match leases.get_mut(&chat) {
            Some(lease) if !lease.unwritten.is_empty() => lease.held = false,
            Some(_) => {
                leases.remove(&chat);
            }
            None => {}
        }
    }

    /// Starts the task that gives up the leases of quiet chats ([`Host::keep_leases`]), once.
    fn start_lease_keeper(self: &Arc<Self>) {
        if self.started_lease_keeper.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let me = self.clone();
        self.tracker.spawn(async move { me.keep_leases().await });
    }

    /// Every [`HostConfig::lease_keeper_every`], writes down the deliveries left unwritten and gives up the
    /// leases of the chats quiet for [`HostConfig::lease_kept_quiet`]; at shutdown, every quiet
    /// chat's (a drain still running gives its own up).
    async fn keep_leases(self: Arc<Self>) {
        loop {
            let stopping = tokio::select! {
                _ = self.stop.cancelled() => true,
                _ = tokio::time::sleep(self.config.lease_keeper_every) => false,
            };
            self.write_down_and_give_up_quiet(stopping).await;
            if stopping {
                return;
            }
        }
    }

    /// In one unit of work: writes down every delivery left unwritten, and gives up the kept
    /// leases of the chats quiet for [`HostConfig::lease_kept_quiet`] (`all`: of every quiet chat)
    /// whose turn is free; a chat being drained is left to its drain. A lease that has run out
    /// meanwhile (the database silent) is only forgotten, once its deliveries are written down.
    async fn write_down_and_give_up_quiet(&self, all: bool) {
        let quiet: Vec<(String, String)> = {
            let mut leases = self.kept_leases();
            let expired = Duration::from_secs(crate::store::outbox::LEASE_SECS as u64);
            for lease in leases.values_mut() {
                lease.held &= lease.renewed.elapsed() < expired;
            }
            leases.retain(|_, l| l.held || !l.unwritten.is_empty());
            leases
                .iter()
                .filter(|(_, l)| {
                    l.held && l.quiet_since.is_some_and(|q| all || q.elapsed() >= self.config.lease_kept_quiet)
                })
                .map(|(chat, _)| chat.clone())
                .collect()
        };
        let mut turns = Vec::new();
        let mut release = Vec::new();
        for (platform, key) in quiet {
            // Under the chat's turn, nobody starts a drain there meanwhile.
            if let Some(turn) = self.turns.try_take(&platform, &key) {
                let chat = (platform, key);
                let still_quiet = self.kept_leases().get(&chat).is_some_and(|l| l.held && l.quiet_since.is_some());
                if still_quiet {
                    turns.push(turn);
                    release.push(chat);
                }
            }
        }
        // Read once the turns are held: a chat given up has every delivery of its lease here.
        let unwritten: Vec<core_outbox::Delivered> =
            self.kept_leases().values().flat_map(|l| l.unwritten.iter().cloned()).collect();
        if release.is_empty() && unwritten.is_empty() {
            return;
        }
        let (bot, owner, marks, chats) = (self.bot.clone(), self.owner.clone(), unwritten.clone(), release.clone());
        if self.bookkeeping(move || bot.outbox_write_down(&marks, &chats, &owner)).await == Some(true) {
            {
                let mut leases = self.kept_leases();
                for chat in &release {
                    if let Some(lease) = leases.get_mut(chat) {
                        lease.held = false;
                    }
                }
            }
            self.written_down(&unwritten);
        }
        drop(turns);
    }

    /// Takes or renews this process's lease on delivering a chat.
    async fn lease_chat(self: &Arc<Self>, platform: &str, key: &str) -> bool {
        let (bot, p, k, owner) = (self.bot.clone(), platform.to_string(), key.to_string(), self.owner.clone());
        self.bookkeeping(move || bot.outbox_lease(&p, &k, &owner)).await.unwrap_or(false)
    }

    /// One row: sent (its delivery for the caller to record), failed for good (recorded), or left
    /// waiting. The chat goes on unless it is left.
    async fn deliver_row(self: &Arc<Self>, row: Outgoing, how: Drain) -> RowOutcome {
        // A row not tried yet goes now, except in the drainer's drain: its due time holds the
        // drainers back (`outbox::WRITER_GRACE_SECS`), so that the process that wrote it delivers
        // it (as the answer to its interaction) rather than another process that was delivering
        // older rows of the chat. A retry waits for its time.
        if (row.attempts > 0 || how == Drain::Due) && row.not_before > self.bot.now() {
            return RowOutcome::Left;
        }
        // Drawn once, however often it is tried.
        let row = Outgoing { reply: self.drawn(row.reply).await, ..row };
        let mut tries = 0;
        loop {
            tries += 1;
            // A retry renews the chat's lease first (a short lease: see `outbox::LEASE_SECS`).
            if tries > 1 {
                let key = core_outbox::lane_key(&row.reply);
                if !self.lease_chat(row.reply.target.platform(), &key).await {
                    return RowOutcome::Left;
                }
            }
            match self.deliver(&row.reply).await {
                Ok(receipt) => return RowOutcome::Sent(Box::new((row.id, row.reply, receipt))),
                Err(DeliveryError::Transient { retry_after, detail }) => {
                    metrics::delivery_failed(row.reply.target.platform(), "transient");
                    let attempts = row.attempts + tries;
                    let wait = retry_after.unwrap_or(Duration::from_secs(backoff_secs(attempts) as u64));
                    if attempts >= MAX_ATTEMPTS {
                        tracing::warn!(row = row.id, "reply given up after {attempts} attempts: {detail}");
                        metrics::delivery_failed(row.reply.target.platform(), "gave_up");
                        self.fail_row(row, Failure::Refused, format!("gave up: {detail}")).await;
                        return RowOutcome::Settled;
                    }
                    if tries < INLINE_TRIES && wait <= INLINE_WAIT {
                        tracing::info!(row = row.id, "delivery failed for now ({detail}); again in {wait:?}");
                        tokio::select! {
                            _ = tokio::time::sleep(wait) => continue,
                            _ = self.stop.cancelled() => {}
                        }
                    }
                    let secs = wait.as_secs_f64().ceil().max(1.0) as i64;
                    tracing::info!(row = row.id, "delivery failed for now ({detail}); left for {secs} s");
                    let bot = self.bot.clone();
                    let _ = self.bookkeeping(move || bot.outbox_retry(row.id, tries, secs, &detail)).await;
                    self.drain_wake.notify_one();
                    return RowOutcome::Left;
                }
                Err(DeliveryError::NeedsInteraction) => {
                    // Not a failure: it goes with the next interaction in its chat; the chat's
                    // later rows wait behind it, in order. A direct message moved to its fallback
                    // chat (or given up) has left this chat: the next row goes on.
                    tracing::debug!(row = row.id, "reply held for the next interaction in its chat");
                    let bot = self.bot.clone();
                    let left = self.bookkeeping(move || bot.outbox_hold(row.id, &row.reply)).await.unwrap_or(false);
                    if left {
                        self.drain_wake.notify_one();
                        return RowOutcome::Settled;
                    }
                    return RowOutcome::Left;
                }
                Err(e) => {
                    metrics::delivery_failed(row.reply.target.platform(), e.kind());
                    tracing::warn!(row = row.id, platform = row.reply.target.platform(), "reply not delivered: {e}");
                    self.fail_row(row, e.failure(), e.to_string()).await;
                    return RowOutcome::Settled;
                }
            }
        }
    }

    async fn fail_row(self: &Arc<Self>, row: Outgoing, failure: Failure, detail: String) {
        let bot = self.bot.clone();
        let notices = self.blocking(move || bot.outbox_failed(row.id, &row.reply, failure, &detail)).await;
        if let Some(notices) = notices.filter(|n| !n.replies.is_empty()) {
            // Other chats (the players' direct messages): drained on their own, not under this
            // chat's turn.
            self.tracker.spawn(self.settle(notices, None));
        }
    }

    /// A front end learnt that the bot can no longer post in `chat` of `platform` (kicked from a
    /// room, the room left): the games there are paused and their players told, once.
    pub async fn chat_gone(self: &Arc<Self>, platform: &str, chat: &str) {
        let (bot, p, c) = (self.bot.clone(), platform.to_string(), chat.to_string());
        self.settle_closed(move || bot.chat_gone(&p, &c)).await;
    }

    /// A front end learnt that `old` was replaced by `new` (a Matrix room upgrade the bot followed):
    /// the old chat's games and the rest go on in the new one ([`Bot::chat_moved`]).
    pub async fn chat_moved(self: &Arc<Self>, platform: &str, old: &str, new: &str) {
        let (bot, p, o, n) = (self.bot.clone(), platform.to_string(), old.to_string(), new.to_string());
        self.settle_closed(move || bot.chat_moved(&p, &o, &n)).await;
    }

    /// The bot was removed from a whole community (a Discord server): see [`Self::chat_gone`].
    pub async fn community_gone(self: &Arc<Self>, platform: &str, community: &str) {
        let (bot, p, c) = (self.bot.clone(), platform.to_string(), community.to_string());
        self.settle_closed(move || bot.community_gone(&p, &c)).await;
    }

    async fn settle_closed(self: &Arc<Self>, work: impl FnOnce() -> Response + Send + 'static) {
        // Rows may be marked failed or moved to another chat: no unit's rows are known as written.
        let stamp = self.stamp();
        self.changed_apart.fetch_max(stamp, std::sync::atomic::Ordering::SeqCst);
        if let Some(notices) = self.blocking(work).await.filter(|n| !n.replies.is_empty()) {
            self.settle(notices, None).await;
        }
    }

    /// Delivers, every few seconds and at once when started, the rows a crash, a restart or a
    /// passing failure left behind, for the platforms this process has front ends for. Start it
    /// after the front ends are connected.
    pub fn start_drainer(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let me = self.clone();
        let first = !self.started_drainer.swap(true, std::sync::atomic::Ordering::SeqCst);
        tokio::spawn(async move {
            if !first {
                return;
            }
            loop {
                let platforms = me.platforms();
                let bot = me.bot.clone();
                let due = me
                    .bookkeeping(move || {
                        let names: Vec<&str> = platforms.iter().map(String::as_str).collect();
                        (bot.outbox_due(&names), bot.outbox_next_due_in(&names))
                    })
                    .await;
                let next = match due {
                    Some((chats, next)) => {
                        for (platform, key) in me.not_being_drained(chats) {
                            let me2 = me.clone();
                            me.tracker.spawn(async move { me2.drain(&platform, &key, Drain::Due, None).await });
                        }
                        next
                    }
                    None => None,
                };
                let sleep = Duration::from_secs(next.map_or(5, |s| s.clamp(1, 5) as u64));
                tokio::select! {
                    _ = me.stop.cancelled() => break,
                    _ = tokio::time::sleep(sleep) => {}
                    _ = me.drain_wake.notified() => {}
                }
            }
        })
    }

    /// The chats of `due` with no drain running or waiting: the drainer starts none beside one
    /// (that one finds the chat's rows). Without this, a catch-up whose deliveries took longer
    /// than the drainer's tick (a second while rows are due) stacked a waiting drain task on every
    /// busy chat at every tick: after a Matrix restart with a command waiting in 2,000 rooms, tens of
    /// thousands of tasks and about 1 GB resident (issue 45).
    fn not_being_drained(&self, due: Vec<(String, String)>) -> Vec<(String, String)> {
        due.into_iter().filter(|(platform, key)| !self.turns.is_busy(platform, key)).collect()
    }

    /// Boxed with `Send` spelled out: the AI's move may start another AI job (recursion).
    fn run_ai(self: Arc<Self>, job: AiJob, origin: Option<String>) -> Settling {
        Box::pin(self.run_ai_inner(job, origin))
    }

    async fn run_ai_inner(self: Arc<Self>, job: AiJob, origin: Option<String>) -> Delivery {
        let mut gauge = metrics::AiSearch::queued();
        let Ok(permit) = self.ai_pool.clone().acquire_owned().await else { return Delivery::Done };
        gauge.start();
        if self.stop.is_cancelled() {
            return Delivery::Done;
        }
        let bot = self.bot.clone();
        let search = {
            let job = job.clone();
            self.ai_searches.run(move || bot.run_ai_job(&job))
        };
        let mv = tokio::select! {
            // Shutdown abandons the search: nothing is stored, and the move is played after the restart.
            _ = self.stop.cancelled() => {
                tracing::info!(game = job.game_id, "AI search abandoned by shutdown");
                return Delivery::Done;
            }
            mv = search => match mv {
                Some(mv) => mv,
                None => {
                    tracing::error!(game = job.game_id, "AI search failed: it panicked");
                    return Delivery::Done;
                }
            },
        };
        // The pool bounds searches only: the moves that follow may need a place of their own.
        drop(permit);
        drop(gauge);
        let bot = self.bot.clone();
        let o = origin.clone();
        let response = self.blocking(move || bot.finish_ai_job_for(&job, mv, o.as_deref())).await.unwrap_or_default();
        self.settle(response, origin).await
    }

    fn run_analysis(self: Arc<Self>, job: crate::bot::AnalysisJob, origin: Option<String>) -> Settling {
        Box::pin(self.run_analysis_inner(job, origin))
    }

    /// Runs an analysis on the AI pool one position at a time: each position takes a place of the
    /// pool and gives it back, so the AI's moves in games (waiting for a place in turn) go between
    /// an analysis's positions instead of after all of them; a position, and its search every
    /// [`crate::ai::PAUSE_EVERY`] nodes, waits while people's inputs are in the core, their boards
    /// drawn or their answers' delivery written down ([`background::Foreground`]); and it is
    /// searched on a thread of the lowest OS priority ([`background`]), so that what arrives
    /// meanwhile takes the core. The progress message is replaced every few seconds; the result is
    /// stored and announced through the core's unit of work.
    async fn run_analysis_inner(self: Arc<Self>, job: crate::bot::AnalysisJob, origin: Option<String>) -> Delivery {
        let mut analyser = match job.analyser() {
            Ok(a) => a,
            Err(e) => {
                let bot = self.bot.clone();
                let response = self.blocking(move || bot.finish_analysis(&job, Err(e))).await.unwrap_or_default();
                return self.settle(response, origin).await;
            }
        };
        // Within a position too, the search waits while people's inputs or boards are handled.
        analyser.pause_with(self.foreground.pause());
        let total = analyser.total();
        let mut last_shown = std::time::Instant::now();
        // The positions shown last (the command's first message shows none done): the message is
        // edited only when the count has moved, not again with the same words while the second
        // looks run (each edit a REST call against the platform's rate limits).
        let mut shown_done = 0;
        loop {
            // People first: while inputs are in the core or waiting for it, the next position waits
            // (a little at a time, at most a quarter of a second, so a busy bot still finishes).
            let yielding = std::time::Instant::now();
            while self.foreground.is_busy() && yielding.elapsed() < ANALYSIS_YIELD_AT_MOST && !self.stop.is_cancelled()
            {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            let Ok(permit) = self.ai_pool.clone().acquire_owned().await else { return Delivery::Done };
            if self.stop.is_cancelled() {
                // Nothing is stored: the person asks again after the restart.
                tracing::info!(game = job.game_id, "analysis abandoned by shutdown");
                return Delivery::Done;
            }
            // At the lowest OS priority: a move arriving while this position is searched goes first.
            let step = self.background.run(move || {
                let more = analyser.step();
                (analyser, more)
            });
            let Some((back, more)) = step.await else {
                tracing::error!(game = job.game_id, "analysis failed: its search panicked");
                return Delivery::Done;
            };
            drop(permit);
            analyser = back;
            if !more {
                break;
            }
            let done = analyser.done();
            if last_shown.elapsed() >= self.config.analysis_progress_every && done < total && done != shown_done {
                last_shown = std::time::Instant::now();
                shown_done = done;
                let (bot, j) = (self.bot.clone(), job.clone());
                if let Some(reply) = self.blocking(move || bot.analysis_progress_reply(&j, done, total)).await {
                    match self.deliver(&reply).await {
                        Ok(receipt) => {
                            let bot = self.bot.clone();
                            self.bookkeeping(move || bot.delivered(&reply, &receipt)).await;
                        }
                        Err(e) => tracing::info!(game = job.game_id, "analysis progress not shown: {e}"),
                    }
                }
            }
        }
        let result = analyser.finish().ok_or_else(|| {
            crate::ai::analysis::AnalysisError::Mismatch("the search stopped before the end".into()) // i18n: operator
        });
        let bot = self.bot.clone();
        let response = self.blocking(move || bot.finish_analysis(&job, result)).await.unwrap_or_default();
        self.settle(response, origin).await
    }

    fn front_end(&self, platform: &str) -> Option<Arc<dyn FrontEnd>> {
        self.front_ends.read().ok().and_then(|m| m.get(platform).cloned())
    }

    /// Delivers one reply through its platform's front end, its picture drawn first
    /// ([`Host::drawn`]); a direct message goes to its fallback chat where the front end has no
    /// direct messages, or the person's are closed, or the direct chat cannot be reached for good.
    pub async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        if reply.needs_drawing() {
            return self.deliver_drawn(&self.drawn(reply.clone()).await).await;
        }
        self.deliver_drawn(reply).await
    }

    /// The reply with its described picture drawn ([`Reply::draw`]), on the blocking pool at most
    /// [`HostConfig::draw_threads`] at once, outside any transaction; an animation one at a time on
    /// its own thread of the lowest OS priority. A reply without a description, or drawn already,
    /// comes back as it is.
    pub async fn drawn(&self, reply: Reply) -> Reply {
        if !reply.needs_drawing() {
            return reply;
        }
        let copy = reply.clone();
        let animated = reply.drawing.as_ref().is_some_and(|d| d.format() == crate::bot::PictureFormat::Gif);
        let drawn = if animated {
            // Drawn once for as long as it is remembered: the description is the key (what the
            // frames show, their size and theme, the names and result written on them).
            // Looked up at once, and again on the animations' thread just before drawing: a burst
            // of requests for one GIF waits for one drawing, and the others find it done.
            let key = reply.drawing.as_ref().and_then(|d| serde_json::to_string(d).ok());
            let remembered = |memo: &AnimationMemo, key: &Option<String>, reply: &Reply| {
                let gif = key.as_ref().and_then(|k| memo.get(k))?;
                metrics::animation("remembered");
                Some(Reply { animation: Some(gif.as_ref().clone()), ..reply.clone() })
            };
            if let Some(done) = remembered(&self.animations_drawn, &key, &reply) {
                return done;
            }
            let (memo, drawings) = (self.animations_drawn.clone(), self.animation_drawings.clone());
            self.animations
                .run(move || {
                    if let Some(done) = remembered(&memo, &key, &copy) {
                        return done;
                    }
                    metrics::animation("drawn");
                    drawings.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let drawn = copy.drawn();
                    if let (Some(key), Some(gif)) = (key, &drawn.animation) {
                        memo.insert(key, Arc::new(gif.clone()));
                    }
                    drawn
                })
                .await
        } else {
            let _running = self.foreground.running();
            Self::on_lane(&self.draw_lane, move || copy.drawn()).await
        };
        match drawn {
            Some(drawn) => drawn,
            // The drawing panicked (logged): the reply goes out without its picture.
            None => Reply { drawing: None, ..reply },
        }
    }

    async fn deliver_drawn(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        let Some(fe) = self.front_end(reply.target.platform()) else {
            return Err(DeliveryError::transient(format!("no front end for {} here", reply.target.platform())));
        };
        let to_fallback = |chat: &crate::bot::Scope| {
            let mut r = reply.clone();
            r.target = Target::Chat(chat.clone());
            r
        };
        if let crate::bot::Audience::Only(person) = &reply.audience {
            // One person's only: their direct messages (or their own open interaction, the front
            // end's choice), never a chat, never a fallback. The core gives such replies that
            // target already; this is the last guard, whatever made the reply.
            let mut private = reply.clone();
            private.keep_private();
            if !fe.has_direct_messages() {
                tracing::info!(platform = fe.platform(), user = %person.id, "a private reply dropped: no direct messages here");
                return Ok(NOTHING_SHOWN);
            }
            return fe.deliver(&private).await;
        }
        match &reply.target {
            Target::Direct { fallback, .. } if !fe.has_direct_messages() => match fallback {
                Some(chat) => fe.deliver(&to_fallback(chat)).await,
                // Nowhere to say it on this platform: settled, nothing shown.
                None => Ok(NOTHING_SHOWN),
            },
            Target::Direct { fallback: Some(chat), .. } => match fe.deliver(reply).await {
                Err(e) if !matches!(e, DeliveryError::Transient { .. }) => {
                    tracing::info!("direct message not delivered ({e}); sent to the game's chat");
                    fe.deliver(&to_fallback(chat)).await
                }
                other => other,
            },
            _ => fe.deliver(reply).await,
        }
    }

    /// Runs the core's blocking work (SQLite, pictures) on the blocking pool, at most
    /// [`HostConfig::core_threads`] at once, in arrival order.
    async fn blocking<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        Self::on_lane(&self.core_pool, f).await
    }

    /// Runs the outbox's bookkeeping on the blocking pool in its own lane ([`OUTBOX_LANE`] at once),
    /// counted as foreground work: an answer's delivery is part of the move people wait for.
    async fn bookkeeping<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _running = self.foreground.running();
        Self::on_lane(&self.outbox_lane, f).await
    }

    async fn on_lane<T: Send + 'static>(lane: &Semaphore, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _permit = lane.acquire().await.ok()?;
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

    /// A host with `config` on a new store in `dir`, its AI none.
    fn host_in(dir: &std::path::Path, config: HostConfig) -> Arc<Host> {
        let bot = Bot::new(
            Store::open(dir.join("h.db")).unwrap(),
            Arc::new(SystemClock),
            Arc::new(NoAi),
            BotConfig::default(),
        );
        Host::new(Arc::new(bot), config)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn two_processes_given_one_name_never_both_hold_a_chats_lease() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.db");
        let host = || {
            let bot =
                Bot::new(Store::open(&path).unwrap(), Arc::new(SystemClock), Arc::new(NoAi), BotConfig::default());
            Host::new(Arc::new(bot), HostConfig { instance: Some("discord".into()), ..HostConfig::default() })
        };
        let (first, second) = (host(), host());
        assert!(first.lease_chat("discord", "c:1").await);
        assert!(!second.lease_chat("discord", "c:1").await, "the name is shared, the lease is not");
        assert!(first.lease_chat("discord", "c:1").await, "renewed by its holder");
        assert!(second.lease_chat("discord", "c:2").await, "another chat is free");
    }

    /// A lease's holder is known gone only when it is a process of this realm (this boot, this
    /// process id namespace) that has ended; then a drain takes the chat over at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lease_held_by_a_process_that_has_ended_is_taken_over_at_once() {
        let Some(realm) = pid_realm() else { return };
        let mut child = std::process::Command::new("true").spawn().expect("a short process");
        child.wait().unwrap();
        let ended = child.id();
        let gone = format!("discord/{ended}-00000000000000aa@{realm:016x}");
        assert!(lease_holder_is_gone(&gone));
        let me = lease_owner(Some("discord"));
        assert!(!lease_holder_is_gone(&me), "this process runs");
        assert!(!lease_holder_is_gone(&format!("discord/{ended}-00000000000000aa@{:016x}", realm ^ 1)), "elsewhere");
        assert!(!lease_holder_is_gone(&format!("discord/{ended}-00000000000000aa")), "no realm said");
        assert!(!lease_holder_is_gone("discord/x-1@zz"), "unreadable");

        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig::default());
        let mut keys = Vec::new();
        for (chat, holder) in [("one", &gone), ("two", &me)] {
            let scope = crate::bot::Scope::chat("chatnet", chat);
            let key = core_outbox::chat_key(&Target::Chat(scope.clone()));
            assert!(host.bot.outbox_lease("chatnet", &key, holder));
            let who = crate::bot::UserRef::new("alice", "alice");
            assert!(host.bot.handle(&Input::text(scope, who, "!help")).queued, "an answer waits in {chat}");
            keys.push(key);
        }
        let now = std::time::Instant::now();
        let taken = host.take_chat("chatnet", &keys[0], Drain::Due, now).await;
        assert_eq!(taken.map(|rows| rows.len()), Some(1), "the ended process's chat is taken over");
        assert_eq!(host.bot.outbox_lease_holder("chatnet", &keys[0]).as_deref(), Some(host.owner.as_str()));
        assert!(host.take_chat("chatnet", &keys[1], Drain::Due, now).await.is_none(), "a running process's is not");
        assert_eq!(host.bot.outbox_lease_holder("chatnet", &keys[1]), Some(me), "left to its holder");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_drainer_starts_no_second_drain_of_a_chat_being_drained() {
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig::default());
        let due = || vec![("matrix".to_string(), "!a".to_string()), ("matrix".to_string(), "!b".to_string())];
        assert_eq!(host.not_being_drained(due()), due(), "nobody drains: both");
        let turn = host.turns.take("matrix", "!a").await;
        assert_eq!(host.not_being_drained(due()), vec![("matrix".to_string(), "!b".to_string())]);
        drop(turn);
        assert_eq!(host.not_being_drained(due()), due(), "the turns given back: both again");
    }

    /// A front end that holds every delivery until the test lets it go, counting those held.
    struct Held {
        places: Option<usize>,
        now: AtomicUsize,
        most: AtomicUsize,
        go: Semaphore,
        seen: std::sync::Mutex<Vec<String>>,
    }

    #[async_trait]
    impl FrontEnd for Held {
        fn platform(&self) -> &str {
            "held"
        }
        fn has_direct_messages(&self) -> bool {
            false
        }
        fn chats_at_once(&self) -> Option<usize> {
            self.places
        }
        async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
            let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.most.fetch_max(n, Ordering::SeqCst);
            self.go.acquire().await.unwrap().forget();
            self.now.fetch_sub(1, Ordering::SeqCst);
            if let Target::Chat(scope) = &reply.target {
                self.seen.lock().unwrap().push(scope.chat.clone());
            }
            Ok(Receipt { message_id: Some("m".into()), thread_id: None, ..Receipt::default() })
        }
    }

    /// A front end that bounds the chats delivered at once (Matrix) gets no more drains than that
    /// in its `deliver` at once, the others waiting for a place (small: see below), and every
    /// chat's reply goes out once (issue 45: a catch-up's thousands of rooms each had a whole
    /// drain waiting inside the front end).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_front_end_bounding_its_chats_at_once_gets_no_more_drains_than_that() {
        use crate::bot::{Scope, UserRef};
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig::default());
        let front = Arc::new(Held {
            places: Some(2),
            now: AtomicUsize::new(0),
            most: AtomicUsize::new(0),
            go: Semaphore::new(0),
            seen: Default::default(),
        });
        host.register(front.clone());
        let chats: Vec<String> = (0..6).map(|i| format!("!room{i}")).collect();
        let handled: Vec<_> = chats
            .iter()
            .map(|chat| {
                let (host, input) =
                    (host.clone(), Input::text(Scope::chat("held", chat), UserRef::new("u", "u"), "!variants"));
                tokio::spawn(async move { host.handle(input).await })
            })
            .collect();
        for _ in 0..500 {
            if host.turns.busy_chats() == 6 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(host.turns.busy_chats(), 6, "every chat's drain runs or waits");
        assert_eq!(front.now.load(Ordering::SeqCst), 2, "two in the front end, the others waiting for a place");
        front.go.add_permits(6);
        for h in handled {
            h.await.unwrap().unwrap();
        }
        assert_eq!(front.most.load(Ordering::SeqCst), 2);
        let mut seen = front.seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(seen, chats, "each chat's reply once");
    }

    /// What waits per chat in a burst is small: a drain waiting for its chat's turn or a place (its
    /// body, about 15 KB in the `ci` build, is boxed once it may go on), an input waiting for the
    /// core (its refusal's delivery boxed) and a settling waiting for its chats' drains (a reply
    /// delivered without the outbox boxed). After a Matrix restart with a command waiting in each
    /// of thousands of rooms there is one of each a room at once (issue 45): before, 15.5, 9.7 and
    /// 7.7 KB.
    #[tokio::test]
    async fn what_waits_per_chat_is_small() {
        use crate::bot::{Scope, UserRef};
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig::default());
        let input = Input::text(Scope::chat("held", "!room"), UserRef::new("u", "u"), "!variants");
        let drain = std::mem::size_of_val(&host.drain("held", "!room", Drain::Due, None));
        let handling = std::mem::size_of_val(&host.handle_in_order(input));
        let settling = std::mem::size_of_val(&host.settle_now(Response::default(), None, None));
        eprintln!("a drain {drain} bytes, an input's handling {handling}, a settling {settling}");
        assert!(drain <= 1024, "a drain waiting takes {drain} bytes");
        assert!(handling <= 4096, "an input waiting for the core takes {handling} bytes");
        assert!(settling <= 4096, "a settling takes {settling} bytes");
    }

    /// A job for [`most_at_once`]: it runs for 20 ms on a blocking thread.
    type Job = Box<dyn FnOnce() + Send>;

    /// Ten 20 ms jobs started together, each through `run` (which runs the job and says whether it
    /// ran): how many ran at once at most.
    async fn most_at_once<F>(run: impl Fn(Job) -> F) -> usize
    where
        F: std::future::Future<Output = Option<()>> + Send + 'static,
    {
        let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let jobs: Vec<_> = (0..10)
            .map(|_| {
                let (now, most) = (now.clone(), most.clone());
                tokio::spawn(run(Box::new(move || {
                    let n = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    now.fetch_sub(1, Ordering::SeqCst);
                })))
            })
            .collect();
        for j in jobs {
            assert_eq!(j.await.unwrap(), Some(()));
        }
        most.load(Ordering::SeqCst)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_cores_work_runs_at_most_core_threads_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig { core_threads: 2, ..HostConfig::default() });
        let most = most_at_once(|job| {
            let host = host.clone();
            async move { host.blocking(job).await }
        })
        .await;
        assert_eq!(most, 2, "ten 20 ms jobs overlap, two at a time");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pictures_are_drawn_draw_threads_at_once_whatever_the_core_threads() {
        let dir = tempfile::tempdir().unwrap();
        for (core_threads, draw_threads) in [(1, 2), (2, 1)] {
            let host = host_in(dir.path(), HostConfig { core_threads, draw_threads, ..HostConfig::default() });
            let most = most_at_once(|job| {
                let host = host.clone();
                async move { Host::on_lane(&host.draw_lane, job).await }
            })
            .await;
            assert_eq!(most, draw_threads, "core {core_threads}, draw {draw_threads}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_cores_other_work_never_takes_an_inputs_place() {
        use crate::bot::{Scope, UserRef};
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig { core_threads: 1, input_threads: 1, ..HostConfig::default() });
        // The core's other lane held (a long scheduler tick, an AI's move being written down).
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holding = {
            let host = host.clone();
            tokio::spawn(async move { host.blocking(move || held.recv().ok()).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        // A person's input goes on at once in its own lane ...
        let input = Input::text(Scope::chat("console", "c"), UserRef::new("u", "U"), "!help");
        let (answer, _) =
            tokio::time::timeout(Duration::from_secs(10), host.in_core(input)).await.expect("not held up by the tick");
        assert!(answer.queued || !answer.replies.is_empty(), "answered");
        release.send(()).unwrap();
        assert_eq!(holding.await.unwrap(), Some(Some(())));
        // ... and the inputs' lane holds as many as `input_threads`, whatever the core's other lane.
        for input_threads in [1, 2] {
            let host = host_in(dir.path(), HostConfig { core_threads: 1, input_threads, ..HostConfig::default() });
            let most = most_at_once(|job| {
                let host = host.clone();
                async move { host.on_inputs_lane(job).await }
            })
            .await;
            assert_eq!(most, input_threads, "inputs at a time");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn inputs_and_the_ais_searches_run_as_far_behind_as_configured() {
        use background::tests::own_policy_and_nice;
        let dir = tempfile::tempdir().unwrap();
        // The runtime's threads (which draw, send and write deliveries down) keep their priority.
        let (policy, nice) = own_policy_and_nice();
        for (input_nice, behind) in [(None, 0), (Some(4), 4), (Some(10), 10)] {
            let config = HostConfig { input_nice: input_nice.unwrap_or(DEFAULT_INPUT_NICE), ..HostConfig::default() };
            let host = host_in(dir.path(), config);
            let expected = Some((policy, (nice + behind).min(19)));
            assert_eq!(host.on_inputs_lane(own_policy_and_nice).await, expected, "inputs, {input_nice:?}");
            assert_eq!(host.ai_searches.run(own_policy_and_nice).await, expected, "AI searches, {input_nice:?}");
            assert_eq!(host.blocking(own_policy_and_nice).await, Some((policy, nice)), "the core's other work");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_input_given_up_while_it_waits_for_the_core_is_no_longer_counted() {
        use crate::bot::{Scope, UserRef};
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig { input_threads: 1, ..HostConfig::default() });
        // The inputs' one thread held: an input waits for it, and is given up (a front end's
        // timeout, a closed connection) before its turn.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let holding = {
            let host = host.clone();
            tokio::spawn(async move { host.on_inputs_lane(move || held.recv().ok()).await })
        };
        tokio::time::sleep(Duration::from_millis(50)).await;
        let input = Input::text(Scope::chat("console", "c"), UserRef::new("u", "U"), "help");
        let waited = tokio::time::timeout(Duration::from_millis(100), host.in_core(input)).await;
        assert!(waited.is_err(), "still waiting for the held thread");
        assert_eq!(host.in_core.count(), 0, "its place in the count is given back");
        assert!(!host.foreground.is_busy(), "and the analyses no longer wait for it");
        release.send(()).unwrap();
        assert_eq!(holding.await.unwrap(), Some(Some(())));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_outboxs_bookkeeping_counts_as_foreground_work_while_it_runs() {
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig::default());
        assert!(!host.foreground.is_busy());
        // A delivery's statements (the lease, the rows taken, the row marked sent) are part of
        // the move people wait for: an analysis's search gives way to them as to the core.
        let seen = {
            let foreground = host.foreground.clone();
            host.bookkeeping(move || foreground.count()).await
        };
        assert_eq!(seen, Some(1), "counted while it ran");
        assert!(!host.foreground.is_busy(), "and no longer afterwards");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_animation_is_drawn_apart_and_a_board_never_waits_for_it() {
        use crate::bot::{BoardDrawing, Drawing, GameDrawing, Scope, Target};
        use crate::render::Theme;
        use crate::rules::{Color, Game, Position};
        let dir = tempfile::tempdir().unwrap();
        let host = host_in(dir.path(), HostConfig { core_threads: 1, ..HostConfig::default() });
        let target = Target::Chat(Scope::chat("console", "c"));
        let game = {
            let mut g = Game::new(Position::start(crate::rules::Variant::by_name("chess").unwrap()));
            for _ in 0..4 {
                let m = g.position().legal_moves()[0];
                g.play(m);
            }
            g
        };
        let reply = |drawing: Drawing| Reply { drawing: Some(drawing), ..Reply::new(target.clone(), "") };
        let gif_drawing = Drawing::Game(GameDrawing::new(&game, "w", "b", None, Color::White, 320, Theme::default()));
        let gif = reply(gif_drawing.clone());
        let board =
            reply(Drawing::Board(BoardDrawing::new(game.position(), None, Color::White, None, 320, Theme::default())));

        // Holds the animations' one thread with a job that waits for `release`; returns once that
        // job runs (a job asked for later then waits behind it, whatever the tasks' order).
        let hold = |host: Arc<Host>| async move {
            let (release, held) = std::sync::mpsc::channel::<()>();
            let (started, running) = tokio::sync::oneshot::channel::<()>();
            let holding = tokio::spawn(async move {
                host.animations
                    .run(move || {
                        let _ = started.send(());
                        held.recv().ok()
                    })
                    .await
            });
            tokio::time::timeout(Duration::from_secs(30), running).await.expect("the holding job ran").unwrap();
            (release, holding)
        };

        // The animations' one thread held by another job: the board is drawn all the same, the
        // animation waits for that thread, and is then drawn at the lowest priority.
        let (release, holding) = hold(host.clone()).await;
        let waiting = {
            let host = host.clone();
            tokio::spawn(async move { host.drawn(gif).await })
        };
        let drawn_board = tokio::time::timeout(Duration::from_secs(10), host.drawn(board)).await.expect("not held up");
        assert!(drawn_board.png.is_some(), "the board was drawn beside the animations' thread");
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "the animation waits for its own thread");
        release.send(()).unwrap();
        assert_eq!(holding.await.unwrap(), Some(Some(())));
        let drawn_gif = tokio::time::timeout(Duration::from_secs(30), waiting).await.unwrap().unwrap();
        assert!(drawn_gif.animation.as_ref().is_some_and(|a| a.starts_with(b"GIF")), "drawn once its turn came");

        // Asked for again (the same game, size and names): given at once from what was drawn,
        // though the animations' thread is held again.
        let (release, holding) = hold(host.clone()).await;
        let again = tokio::time::timeout(Duration::from_secs(10), host.drawn(reply(gif_drawing.clone())))
            .await
            .expect("not drawn again");
        assert_eq!(again.animation, drawn_gif.animation);
        // Another viewer's animation is another picture: it waits for the thread. Asked for three
        // times at once, it is drawn once.
        let other = Drawing::Game(GameDrawing::new(&game, "w", "b", None, Color::Black, 320, Theme::default()));
        let waiting: Vec<_> = (0..3)
            .map(|_| {
                let (host, other) = (host.clone(), reply(other.clone()));
                tokio::spawn(async move { host.drawn(other).await })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(waiting.iter().all(|w| !w.is_finished()), "not remembered: drawn when the thread is free");
        release.send(()).unwrap();
        holding.await.unwrap();
        let mut others = Vec::new();
        for w in waiting {
            others.push(tokio::time::timeout(Duration::from_secs(30), w).await.unwrap().unwrap().animation.unwrap());
        }
        assert_ne!(others[0], drawn_gif.animation.clone().unwrap());
        assert!(others.iter().all(|a| *a == others[0]));
        assert_eq!(host.animation_drawings.load(Ordering::SeqCst), 2, "the first GIF once, the other once");
    }
}

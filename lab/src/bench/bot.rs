//! A load run (not a test): many simulated games played at once with a real database file, reporting
//! accepted moves per second and latency percentiles — through the bare core ([`Bot::handle`]) and
//! through the [`Host`] (blocking pool, delivery to a front end), so the host's cost shows beside the
//! core's in one run.

use async_trait::async_trait;
use capabot::bot::{Bot, BotConfig, Input, NoAi, Receipt, Reply, Scope, SystemClock, UserRef};
use capabot::host::{DeliveryError, FrontEnd, Host, HostConfig};
use capabot::notation::{fen, san};
use capabot::rules::{Color, Game, Position, Variant, setups};
use capabot::store::{Store, games};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    pub games: usize,
    pub threads: usize,
    /// Plies per game at most (games that end sooner stop sooner).
    pub plies: usize,
    pub variant: &'static Variant,
    pub pictures: bool,
    pub seed: u64,
    /// The host's [`HostConfig::core_threads`] (its default when `None`).
    pub core_threads: Option<usize>,
    /// The host's [`HostConfig::input_threads`] (its default when `None`).
    pub input_threads: Option<usize>,
    /// The host's [`HostConfig::input_nice`] (its default when `None`).
    pub input_nice: Option<i32>,
    /// The host's [`HostConfig::draw_threads`] (its default when `None`).
    pub draw_threads: Option<usize>,
    /// `bench-discord`: the fake Discord and the players on a runtime of their own (one thread,
    /// `fake-discord`) instead of the bot's, so that the bot's own processor time shows apart.
    pub fake_apart: bool,
    /// On SQLite, what the run's write-ahead log holds, by table and index, and what its checkpoints
    /// copy ([`super::log_pages`]): the report's [`BenchReport::log_pages`].
    pub log_pages: bool,
    /// The event ids the host's moves carry (their claims' keys).
    pub event_ids: EventIds,
    /// The bot's clock runs this many times faster than the wall clock ([`Lapse`]); 1: the system's.
    pub time_lapse: u32,
}

/// A clock that runs `factor` times faster than the wall clock from when it was made: a game's
/// moves in a run of a few seconds then fall seconds apart, as moves in play do, and each changes
/// the game's `updated_at` (stored in whole seconds).
struct Lapse {
    start: std::time::Instant,
    at_start: i64,
    factor: u32,
}

impl capabot::bot::Clock for Lapse {
    fn now(&self) -> i64 {
        self.at_start + (self.start.elapsed().as_secs_f64() * f64::from(self.factor)) as i64
    }
}

impl BenchOptions {
    /// The bot's clock: the system's, or one [`BenchOptions::time_lapse`] times faster.
    fn clock(&self) -> Arc<dyn capabot::bot::Clock> {
        use capabot::bot::Clock;
        if self.time_lapse > 1 {
            Arc::new(Lapse { start: std::time::Instant::now(), at_start: SystemClock.now(), factor: self.time_lapse })
        } else {
            Arc::new(SystemClock)
        }
    }
}

/// The ids of the events the host's moves come as: each is claimed in `processed_events` under its
/// id, and where a new claim's key falls in that b-tree decides how many of its pages a move writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EventIds {
    /// As Discord's: snowflakes, numbers that grow with time (each a new largest key).
    Snowflake,
    /// As Matrix's (rooms of version 4 on): `$` and 43 characters of a hash, in no order.
    Hashed,
    /// `e0`, `e1`, … (the benchmark's ids before stop 105): rising one by one as text, but back
    /// before the earlier ones each time the counter gains a digit (`e10` sorts before `e2`).
    Counter,
}

impl EventIds {
    /// The id of the `seq`-th event; `last` is the largest snowflake handed out so far.
    fn id(self, seq: u64, last: &std::sync::atomic::AtomicU64) -> String {
        match self {
            EventIds::Snowflake => {
                // Milliseconds since Discord's epoch (2015) above 22 bits of worker, process and
                // increment; never below the last one handed out.
                let ms = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis() as u64)
                    .saturating_sub(1_420_070_400_000);
                let next = |l: u64| (ms << 22).max(l + 1);
                let ordering = std::sync::atomic::Ordering::Relaxed;
                let prev = last.fetch_update(ordering, ordering, |l| Some(next(l))).unwrap_or_else(|l| l);
                next(prev).to_string()
            }
            EventIds::Hashed => {
                const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
                // splitmix64's steps: five words of a hash-like spread, 6 bits a character.
                let mut state = seq.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                let mut word = || {
                    state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
                    let mut z = state;
                    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                    z ^ (z >> 31)
                };
                let words = [word(), word(), word(), word(), word()];
                let mut id = String::with_capacity(44);
                id.push('$');
                for i in 0..43 {
                    let bits = (words[i / 10] >> (6 * (i % 10))) & 63;
                    id.push(ALPHABET[bits as usize] as char);
                }
                id
            }
            EventIds::Counter => format!("e{seq}"),
        }
    }
}

impl BenchOptions {
    /// Games with pictures and the host's default core threads.
    pub fn with_pictures(games: usize, threads: usize, plies: usize, variant: &'static Variant, seed: u64) -> Self {
        BenchOptions {
            games,
            threads,
            plies,
            variant,
            pictures: true,
            seed,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            fake_apart: false,
            log_pages: false,
            event_ids: EventIds::Snowflake,
            time_lapse: 1,
        }
    }

    /// The host's settings for a load run: no scheduler ticks, one AI thread.
    pub fn host_config(&self) -> HostConfig {
        let mut config = HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600), ..HostConfig::default() };
        if let Some(n) = self.core_threads {
            config.core_threads = n;
        }
        if let Some(n) = self.input_threads {
            config.input_threads = n;
        }
        if let Some(n) = self.input_nice {
            config.input_nice = n;
        }
        if let Some(n) = self.draw_threads {
            config.draw_threads = n;
        }
        config
    }
}

/// What came out.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    pub accepted: usize,
    pub refused: usize,
    pub pictures: usize,
    pub elapsed: Duration,
    pub p50: Duration,
    pub p99: Duration,
    pub max: Duration,
    /// Bytes written while the moves were played: on SQLite, by the process (`wchar` of
    /// `/proc/self/io`: the database's write-ahead log and its checkpoints), on PostgreSQL the
    /// server's write-ahead log (`pg_current_wal_lsn()`); `None` where the system does not say.
    pub written: Option<u64>,
    /// Bytes of outbox rows as stored (the reply's JSON, deflated on SQLite when shorter, and any
    /// picture beside it) the moves added.
    pub outbox_bytes: u64,
    /// On PostgreSQL, the write-ahead log's positions before and after the moves (for
    /// `pg_waldump`: [`run_both_on_postgres`]).
    pub wal: Option<(u64, u64)>,
    /// On SQLite, the commits made while the moves were played and the units of work they
    /// committed (several units share a commit when they come together: `store::Writer`).
    pub commits: Option<(u64, u64)>,
    /// On SQLite, the part of [`BenchReport::written`] the store's checkpointer threads wrote
    /// (copies of the log's pages into the database file); the rest is the log.
    pub checkpoints: Option<u64>,
    /// With [`BenchOptions::log_pages`], the log's frames and the checkpoints' copies by b-tree.
    pub log_pages: Option<String>,
    /// On PostgreSQL, the processor time the server's processes (the postmaster, its backends and
    /// helpers) spent while the moves were played, from `/proc` (the harness's server runs nothing
    /// else meanwhile): the server's share of a move, whatever the machine's load.
    pub server_cpu: Option<Duration>,
}

impl BenchReport {
    /// The report of a run: the accepted moves' latencies (in any order), the moves refused, the
    /// pictures received and the run's wall time.
    pub fn of(mut latencies: Vec<Duration>, refused: usize, pictures: usize, elapsed: Duration) -> BenchReport {
        latencies.sort();
        let pct =
            |p: f64| latencies.get(((latencies.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or_default();
        BenchReport {
            accepted: latencies.len(),
            refused,
            pictures,
            elapsed,
            p50: pct(0.50),
            p99: pct(0.99),
            max: latencies.last().copied().unwrap_or_default(),
            written: None,
            outbox_bytes: 0,
            wal: None,
            commits: None,
            checkpoints: None,
            log_pages: None,
            server_cpu: None,
        }
    }

    /// Bytes written a move (see [`BenchReport::written`]).
    pub fn written_per_move(&self) -> Option<f64> {
        self.written.map(|w| w as f64 / self.accepted.max(1) as f64)
    }

    /// Outbox bytes a move (see [`BenchReport::outbox_bytes`]).
    pub fn outbox_per_move(&self) -> f64 {
        self.outbox_bytes as f64 / self.accepted.max(1) as f64
    }

    pub fn moves_per_sec(&self) -> f64 {
        self.accepted as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The one-line summary `lab bench-bot` prints for a run with `opts`.
    pub fn summary(&self, opts: &BenchOptions) -> String {
        format!(
            "bench-bot {} games on {} threads ({}): {} accepted moves in {:.2} s = {:.0} moves/s; \
             latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} pictures; {} refused; written {} a move{}, \
             outbox rows {:.1} KB a move{}{}",
            opts.games,
            opts.threads,
            opts.variant.name,
            self.accepted,
            self.elapsed.as_secs_f64(),
            self.moves_per_sec(),
            self.p50.as_secs_f64() * 1e3,
            self.p99.as_secs_f64() * 1e3,
            self.max.as_secs_f64() * 1e3,
            self.pictures,
            self.refused,
            self.written_per_move().map_or_else(|| "?".to_string(), |b| format!("{:.1} KB", b / 1024.0)),
            self.checkpoints.map_or_else(String::new, |c| format!(
                " ({:.1} KB of it by the checkpoints)",
                c as f64 / self.accepted.max(1) as f64 / 1024.0
            )),
            self.outbox_per_move() / 1024.0,
            self.commits.map_or_else(String::new, |(commits, units)| format!(
                "; {units} units in {commits} commits ({:.2} a commit)",
                units as f64 / commits.max(1) as f64
            )),
            self.server_cpu.map_or_else(String::new, |cpu| format!(
                "; the server's processor time {:.3} ms a move",
                cpu.as_secs_f64() * 1e3 / self.accepted.max(1) as f64
            ))
        )
    }
}

fn msg(chat: &str, who: &str, text: String) -> Input {
    Input::text(Scope::chat("bench", chat), UserRef::new(who, who), text)
}

/// Like [`run`], with the database at `db` or, when `None`, in a fresh temporary folder removed afterwards.
pub fn run_with_db(db: Option<&Path>, opts: &BenchOptions) -> Result<BenchReport, String> {
    Ok(run_both(db, opts)?.0)
}

/// The same games (same seed) through the bare core and then through the host, each on its own fresh
/// database (`db`, and `db` with `.host` added, when given).
pub fn run_both(db: Option<&Path>, opts: &BenchOptions) -> Result<(BenchReport, BenchReport), String> {
    let tmp = std::env::temp_dir().join(format!("capabot-bench-{}", std::process::id()));
    let path = db.map_or_else(|| tmp.join("bench.db"), Path::to_path_buf);
    let host_path = path.with_extension("host.db");
    let core = run_through(&path, opts, Through::Core);
    let host = core.is_ok().then(|| run_through(&host_path, opts, Through::Host));
    let _ = std::fs::remove_dir_all(&tmp);
    let core = core?;
    Ok((core, host.ok_or("host run skipped")??))
}

/// How the bot's stores reach the harness's PostgreSQL server in [`run_both_on_postgres`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgLink {
    /// Through its Unix socket, as a process on the server's own machine is best connected.
    Socket,
    /// Over TCP to 127.0.0.1, as to a server on another machine (without the network's delay).
    Tcp,
}

impl PgLink {
    #[cfg_attr(not(feature = "postgres"), allow(dead_code))]
    fn describe(self) -> &'static str {
        match self {
            PgLink::Socket => "through its Unix socket",
            PgLink::Tcp => "over TCP (127.0.0.1)",
        }
    }
}

/// [`run_both`] on two new databases of the harness's PostgreSQL server (dropped at the end). With
/// `statements_log`, the server logs every statement from the start with the time it took
/// (`log_min_duration_statement = 0`, for the whole server: a statement sent as parse, bind and
/// execute is logged at each step that ran) and its log is copied there at the end; with `wal_stats`, what each run wrote
/// to the write-ahead log, by kind of record (`pg_waldump --stats=record`), is written there.
#[cfg(feature = "postgres")]
pub fn run_both_on_postgres(
    opts: &BenchOptions,
    link: PgLink,
    statements_log: Option<&Path>,
    wal_stats: Option<&Path>,
) -> Result<(BenchReport, BenchReport), String> {
    let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
    let (core_db, host_db) =
        (server.create_database().map_err(|e| e.to_string())?, server.create_database().map_err(|e| e.to_string())?);
    // The bot's stores connect as `link` says; the harness's own statements (statistics) over TCP.
    let bot_url = |db: &pg_harness::TestDatabase<'_>| match link {
        PgLink::Socket => {
            db.socket_url().ok_or("the harness's server has no Unix socket (its directory's path is too long)")
        }
        PgLink::Tcp => Ok(db.url()),
    };
    eprintln!("PostgreSQL reached {}", link.describe());
    if statements_log.is_some() {
        let store = Store::open_setting(&core_db.url()).map_err(|e| e.to_string())?;
        let conn = store.conn().map_err(|e| e.to_string())?;
        conn.execute_batch("ALTER SYSTEM SET log_min_duration_statement = 0").map_err(|e| e.to_string())?;
        let _: bool = conn.query_row("SELECT pg_reload_conf()", (), |r| r.get(0)).map_err(|e| e.to_string())?;
    }
    let core = run_through(Path::new(&bot_url(&core_db)?), opts, Through::Core)?;
    let host = run_through(Path::new(&bot_url(&host_db)?), opts, Through::Host)?;
    for (run, db) in [("core", &core_db), ("host", &host_db)] {
        let [sessions, commits, rollbacks] = database_stats(&db.url())?;
        eprintln!(
            "{run}: {sessions} sessions opened on the database during the run; {commits} transactions committed, \
             {rollbacks} rolled back (serialization failures run again among them)"
        );
    }
    if let Some(to) = statements_log {
        std::fs::copy(server.log_path(), to).map_err(|e| format!("cannot copy the server's log: {e}"))?;
    }
    if let Some(to) = wal_stats {
        let mut out = String::new();
        for (run, report) in [("core", &core), ("host", &host)] {
            let (from, until) = report.wal.ok_or("the write-ahead log's position could not be read")?;
            let data = server.log_path().parent().ok_or("the server's directory")?.join("data");
            let lsn = |at: u64| format!("{:X}/{:X}", at >> 32, at & 0xffff_ffff);
            let bin = pg_harness::ensure_installed().map_err(|e| e.to_string())?;
            let dump = std::process::Command::new(bin.join("pg_waldump"))
                .arg("--stats=record")
                .arg("--path")
                .arg(data.join("pg_wal"))
                .args(["--start", &lsn(from), "--end", &lsn(until)])
                .output()
                .map_err(|e| format!("pg_waldump: {e}"))?;
            out.push_str(&format!(
                "# {run}: {} moves, {} bytes of write-ahead log from {} to {}\n{}{}\n",
                report.accepted,
                until - from,
                lsn(from),
                lsn(until),
                String::from_utf8_lossy(&dump.stdout),
                String::from_utf8_lossy(&dump.stderr)
            ));
        }
        std::fs::write(to, out).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    }
    Ok((core, host))
}

/// What PostgreSQL has counted on the database at `url` (`pg_stat_database`): sessions opened (a
/// pool that keeps its connections opens a few), transactions committed and rolled back. The
/// counts reach the view within a second of a transaction's end (`stats_fetch_consistency` aside).
#[cfg(feature = "postgres")]
fn database_stats(url: &str) -> Result<[i64; 3], String> {
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let store = Store::open_setting(url).map_err(|e| e.to_string())?;
    let conn = store.conn().map_err(|e| e.to_string())?;
    conn.query_row(
        "SELECT sessions, xact_commit, xact_rollback FROM pg_stat_database WHERE datname = current_database()",
        (),
        |r| Ok([r.get(0)?, r.get(1)?, r.get(2)?]),
    )
    .map_err(|e| e.to_string())
}

/// Without the `postgres` feature: an error that says so.
#[cfg(not(feature = "postgres"))]
pub fn run_both_on_postgres(
    _: &BenchOptions,
    _: PgLink,
    _: Option<&Path>,
    _: Option<&Path>,
) -> Result<(BenchReport, BenchReport), String> {
    Err("this laboratory was built without the `postgres` feature".into())
}

/// The two-line summary of [`run_both`]: core, host, and the host's share of the core's throughput.
pub fn summary_both(core: &BenchReport, host: &BenchReport, opts: &BenchOptions) -> String {
    format!(
        "core: {}\nhost: {}\nhost/core throughput {:.1} %{}",
        core.summary(opts),
        host.summary(opts),
        100.0 * host.moves_per_sec() / core.moves_per_sec().max(1e-9),
        [("core", core), ("host", host)]
            .iter()
            .filter_map(|(name, r)| r.log_pages.as_ref().map(|l| format!("\n{name}'s {l}")))
            .collect::<String>()
    )
}

/// Through what the moves go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Through {
    /// `Bot::handle` called on the load threads.
    Core,
    /// `Host::handle` on a tokio runtime, replies delivered to a front end that records them.
    Host,
}

/// The front end of the host run: remembers, per input, whether a move was announced and how many
/// pictures came with it. A row delivered again is counted once (as a platform's idempotency key
/// shows it once), so its receipts say so.
#[derive(Default)]
struct Tally {
    seen: Mutex<HashMap<String, (bool, usize)>>,
    rows: Mutex<std::collections::HashSet<i64>>,
}

#[async_trait]
impl FrontEnd for Tally {
    fn platform(&self) -> &str {
        "bench"
    }
    fn has_direct_messages(&self) -> bool {
        false
    }
    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        let again = match (reply.outbox_id, self.rows.lock()) {
            (Some(row), Ok(mut rows)) => !rows.insert(row),
            _ => false,
        };
        if !again
            && let Some(id) = &reply.in_reply_to
            && let Ok(mut seen) = self.seen.lock()
        {
            let e = seen.entry(id.clone()).or_default();
            e.0 |= reply.text.contains("played by");
            e.1 += usize::from(reply.png.is_some());
        }
        Ok(Receipt { shows_once_if_repeated: reply.outbox_id.is_some(), ..Receipt::default() })
    }
}

/// Plays `opts.games` games concurrently on `opts.threads` threads against a fresh database at `db`.
pub fn run(db: &Path, opts: &BenchOptions) -> Result<BenchReport, String> {
    run_through(db, opts, Through::Core)
}

/// [`run`] through the bare core or the host.
pub fn run_through(db: &Path, opts: &BenchOptions, through: Through) -> Result<BenchReport, String> {
    run_loaded(db, opts, through, 0)
}

/// A finished game of about 60 plies in chat `analysis-K` (random legal moves, then a resignation if
/// it is not over by then), for analyses to load the host with; its number.
fn finished_game(bot: &Bot, k: usize, variant: &'static Variant, seed: u64) -> Result<i64, String> {
    let chat = format!("analysis-{k}");
    let (a, b) = (format!("aw{k}"), format!("ab{k}"));
    let setup = if variant.has_setups() { " setup:0" } else { "" };
    let mut m = msg(&chat, &a, format!("!challenge @{b} {} color:white{setup}", variant.name));
    m.mentions = vec![UserRef { id: b.clone(), name: b.clone() }];
    bot.handle(&m);
    bot.handle(&msg(&chat, &b, "!accept".into()));
    let id = {
        let conn = bot.store().conn().map_err(|e| e.to_string())?;
        let p = capabot::store::players::find(&conn, "bench", &a).map_err(|e| e.to_string())?.ok_or("no player")?;
        games::latest_in_chat(&conn, "bench", &chat, p.id).map_err(|e| e.to_string())?.ok_or("no game")?
    };
    let mut game = Game::new(fen::parse_position(variant, &id.start_fen).map_err(|e| e.to_string())?);
    let mut rng = StdRng::seed_from_u64(seed ^ k as u64);
    while game.moves().len() < 60 && game.outcome().is_none() {
        let pos = game.position().clone();
        let moves = pos.legal_moves();
        let mv = moves[rng.random_range(0..moves.len())];
        let who = if pos.turn() == Color::White { &a } else { &b };
        bot.handle(&msg(&chat, who, format!("!move {}", san::write_plain(&pos, mv))));
        game.play(mv);
    }
    if game.outcome().is_none() {
        bot.handle(&msg(&chat, &a, "!resign".into()));
    }
    Ok(id.id)
}

/// On PostgreSQL, gathers the new database's statistics after a benchmark's set-up, as autovacuum
/// gathers them in a deployment that has run for a minute: on a new database never analysed,
/// PostgreSQL found a chat's games through another index led by the platform, read every active
/// game, and SERIALIZABLE then failed two moves of different games as if they had read each
/// other's rows (`docs/load.md`). Nothing on SQLite.
pub(super) fn analyze_if_postgres(bot: &Bot) -> Result<(), String> {
    if bot.store().dialect() == capabot::store::sql::Dialect::Postgres {
        let conn = bot.store().conn().map_err(|e| e.to_string())?;
        conn.execute_batch("ANALYZE").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// [`run_through`] with `analyses` analyses kept running through the same host while the moves are
/// timed: each asks for the analysis of a finished game of its own, and asks again (the stored
/// result removed) as soon as it ends.
pub fn run_loaded(db: &Path, opts: &BenchOptions, through: Through, analyses: usize) -> Result<BenchReport, String> {
    // A file, or a PostgreSQL URL ([`run_both_on_postgres`]).
    let store = Store::open_setting(&db.to_string_lossy()).map_err(|e| e.to_string())?;
    let config = BotConfig { pictures: opts.pictures, ..BotConfig::default() };
    let bot = Arc::new(Bot::new(store, opts.clock(), Arc::new(NoAi), config));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let host = Host::new(bot.clone(), opts.host_config());
    let tally = Arc::new(Tally::default());
    host.register(tally.clone());
    let seq = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let last_snowflake = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let event_ids = opts.event_ids;
    // One move through the chosen path: (announced, pictures).
    let drive = {
        let (bot, host, tally, handle) = (bot.clone(), host.clone(), tally.clone(), rt.handle().clone());
        let last_snowflake = last_snowflake.clone();
        move |input: Input| -> (bool, usize) {
            match through {
                Through::Core => {
                    // Pictures drawn after the unit of work, as the host draws them for delivery.
                    let mut r = bot.handle(&input);
                    r.draw();
                    (r.text().contains("played by"), r.replies.iter().filter(|r| r.png.is_some()).count())
                }
                Through::Host => {
                    let id = event_ids.id(seq.fetch_add(1, std::sync::atomic::Ordering::Relaxed), &last_snowflake);
                    let _ = handle.block_on(host.handle(input.with_event_id(id.clone())));
                    tally.seen.lock().ok().and_then(|mut s| s.remove(&id)).unwrap_or((false, 0))
                }
            }
        }
    };
    let drive = Arc::new(drive);
    // Set-up (not timed): one chat, challenge and acceptance per game.
    let mut tables = Vec::new();
    for i in 0..opts.games {
        let chat = format!("table-{i}");
        let (a, b) = (format!("w{i}"), format!("b{i}"));
        let setup = if opts.variant.has_setups() {
            format!(" setup:{}", i % setups::count(opts.variant))
        } else {
            String::new()
        };
        let mut m = msg(&chat, &a, format!("!challenge @{b} {} color:white days:7{setup}", opts.variant.name));
        m.mentions = vec![UserRef { id: b.clone(), name: b.clone() }];
        let r = bot.handle(&m);
        if !r.text().contains("Challenge #") {
            return Err(format!("set-up failed: {}", r.text()));
        }
        let r = bot.handle(&msg(&chat, &b, "!accept".into()));
        if !r.text().contains("starts") {
            return Err(format!("set-up failed: {}", r.text()));
        }
        tables.push((chat, a, b));
    }
    analyze_if_postgres(&bot)?;
    let start_fens: Vec<String> = {
        let conn = bot.store().conn().map_err(|e| e.to_string())?;
        let mut v = Vec::new();
        // By chat, not by id: the database may hold other games (`bench-scale` plays on a seeded one).
        for (chat, _, _) in &tables {
            let g = games::active_in_chat(&conn, "bench", chat).map_err(|e| e.to_string())?;
            v.push(g.last().ok_or("game missing")?.start_fen.clone());
        }
        v
    };
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut load = Vec::new();
    for k in 0..analyses {
        let id = finished_game(&bot, k, opts.variant, opts.seed)?;
        let (host, bot, stop) = (host.clone(), bot.clone(), stop.clone());
        load.push(rt.spawn(async move {
            let mut rounds = 0u32;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                let ask = msg(&format!("analysis-{k}"), &format!("viewer{k}"), format!("!analyse #{id}"));
                let _ = host.handle(ask.with_event_id(format!("analyse-{k}-{rounds}"))).await;
                rounds += 1;
                let bot = bot.clone();
                let forget =
                    move || bot.store().conn().map(|c| c.execute("DELETE FROM analyses WHERE game_id = ?1", [id]));
                let _ = tokio::task::spawn_blocking(forget).await;
            }
            rounds
        }));
    }
    let postgres = capabot::store::is_postgres_url(&db.to_string_lossy());
    let tap = if opts.log_pages && !postgres { Some(super::log_pages::Tap::start(db)?) } else { None };
    let checkpoints0 = super::log_pages::checkpointer_writes();
    let (written0, outbox0) = (if postgres { wal_position(&bot) } else { bytes_written() }, outbox_bytes(&bot)?);
    let commits0 = bot.store().sqlite_commits();
    let server0 = if postgres { server_cpu_ticks(&bot) } else { None };
    let t0 = Instant::now();
    let mut handles = Vec::new();
    for t in 0..opts.threads.max(1) {
        let drive = Arc::clone(&drive);
        let mine: Vec<(String, String, String, String)> = tables
            .iter()
            .zip(&start_fens)
            .enumerate()
            .filter(|(i, _)| i % opts.threads.max(1) == t)
            .map(|(_, ((c, a, b), f))| (c.clone(), a.clone(), b.clone(), f.clone()))
            .collect();
        let variant = opts.variant;
        let plies = opts.plies;
        let seed = opts.seed ^ (t as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        handles.push(std::thread::spawn(move || {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut games: Vec<(String, String, String, Game, bool)> = mine
                .into_iter()
                .map(|(c, a, b, f)| {
                    let pos = fen::parse_position(variant, &f).unwrap_or_else(|_| Position::start(variant));
                    (c, a, b, Game::new(pos), false)
                })
                .collect();
            let (mut lat, mut refused, mut pics) = (Vec::new(), 0usize, 0usize);
            for _ in 0..plies {
                let mut any = false;
                for (chat, a, b, game, done) in games.iter_mut() {
                    if *done || game.outcome().is_some() {
                        continue;
                    }
                    let pos = game.position().clone();
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        continue;
                    }
                    let mv = moves[rng.random_range(0..moves.len())];
                    let who = if pos.turn() == Color::White { a.as_str() } else { b.as_str() };
                    let text = format!("!move {}", san::write_plain(&pos, mv));
                    let t = Instant::now();
                    let (played, pictures) = drive(msg(chat, who, text));
                    let dt = t.elapsed();
                    if played {
                        lat.push(dt);
                        pics += pictures;
                        game.play(mv);
                        any = true;
                    } else {
                        // Out of step with the bot (should not happen): stop this game.
                        refused += 1;
                        *done = true;
                    }
                }
                if !any {
                    break;
                }
            }
            (lat, refused, pics)
        }));
    }
    let mut all = Vec::new();
    let (mut refused, mut pictures) = (0, 0);
    for h in handles {
        let (l, r, p) = h.join().map_err(|_| "a bench thread panicked")?;
        all.extend(l);
        refused += r;
        pictures += p;
    }
    let elapsed = t0.elapsed();
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    for l in load {
        let _ = rt.block_on(l);
    }
    let mut report = BenchReport::of(all, refused, pictures, elapsed);
    let server1 = if postgres { server_cpu_ticks(&bot) } else { None };
    report.server_cpu = server1.zip(server0).map(|(b, a)| Duration::from_millis(10 * b.saturating_sub(a)));
    let written1 = if postgres { wal_position(&bot) } else { bytes_written() };
    report.written = written1.zip(written0).map(|(b, a)| b.saturating_sub(a));
    if !postgres {
        report.checkpoints =
            Some(super::log_pages::checkpointer_written(&checkpoints0, &super::log_pages::checkpointer_writes()));
    }
    if let Some(tap) = tap {
        report.log_pages = Some(tap.finish(report.accepted)?);
    }
    report.commits = bot.store().sqlite_commits().zip(commits0).map(|(b, a)| (b.0 - a.0, b.1 - a.1));
    report.wal = if postgres { written0.zip(written1) } else { None };
    report.outbox_bytes = outbox_bytes(&bot)?.saturating_sub(outbox0);
    Ok(report)
}

/// `bench-analysis-load`: the same games through the host without and with `analyses` analyses
/// running, `runs` rounds each on fresh databases; the medians of the move latencies and the ratio
/// of the p99s (the goal: at most 1.3).
pub fn analysis_load_rounds(opts: &BenchOptions, analyses: usize, runs: usize) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("capabot-bench-analysis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut out = String::new();
    let (mut p50, mut p99) = ([Vec::new(), Vec::new()], [Vec::new(), Vec::new()]);
    let result = (|| -> Result<(), String> {
        for round in 0..runs.max(1) {
            for (i, n) in [0, analyses].into_iter().enumerate() {
                let r = run_loaded(&dir.join(format!("a-{round}-{i}.db")), opts, Through::Host, n)?;
                out.push_str(&format!("round {} with {n} analyses: {}\n", round + 1, r.summary(opts)));
                p50[i].push(r.p50.as_secs_f64() * 1e3);
                p99[i].push(r.p99.as_secs_f64() * 1e3);
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    let (q50, q99): (Vec<f64>, Vec<f64>) =
        (0..2).map(|i| (super::median_secs(&mut p50[i]), super::median_secs(&mut p99[i]))).unzip();
    out.push_str(&format!(
        "medians of {} rounds: p50 {:.2} → {:.2} ms, p99 {:.2} → {:.2} ms with {analyses} analyses: p99 × {:.2} \
         (goal ≤ 1.3)",
        runs.max(1),
        q50[0],
        q50[1],
        q99[0],
        q99[1],
        q99[1] / q99[0].max(1e-9)
    ));
    Ok(out)
}

/// Bytes this process has written so far (`wchar` of `/proc/self/io`), where the system says.
fn bytes_written() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/self/io").ok()?;
    io.lines().find_map(|l| l.strip_prefix("wchar:")).and_then(|v| v.trim().parse().ok())
}

/// PostgreSQL's write-ahead log position in bytes (`pg_current_wal_lsn()`, of the whole server:
/// the harness's, where nothing else runs during a bench), `None` where it cannot be read. What
/// the server writes for the moves: their records, the full pages written after a checkpoint, and
/// the rest (the tables' files are written from the log, at checkpoints, about as much again).
fn wal_position(bot: &Bot) -> Option<u64> {
    let conn = bot.store().conn().ok()?;
    let lsn: i64 =
        conn.query_row("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint", (), |r| r.get(0)).ok()?;
    u64::try_from(lsn).ok()
}

/// The processor time, in clock ticks (USER_HZ, 100 a second on Linux), that the PostgreSQL server
/// of the bot's store has used so far: its postmaster (found as the parent of this connection's
/// backend) with the children it has reaped, and every process it runs now. `None` where `/proc`
/// does not say.
pub(super) fn server_cpu_ticks(bot: &Bot) -> Option<u64> {
    let conn = bot.store().conn().ok()?;
    let backend: i32 = conn.query_row("SELECT pg_backend_pid()", (), |r| r.get(0)).ok()?;
    // The fields after the command's name (which may hold spaces) in /proc/PID/stat, from field 3.
    let fields = |pid: &str| -> Option<Vec<u64>> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = &stat[stat.rfind(')')? + 2..];
        Some(rest.split(' ').skip(1).map(|f| f.parse().unwrap_or(0)).collect())
    };
    // From field 4: ppid is [0]; utime, stime, cutime, cstime are fields 14–17, [10..14].
    let postmaster = fields(&backend.to_string())?.first()?.to_string();
    let own = fields(&postmaster)?;
    let mut ticks: u64 = own.get(10..14)?.iter().sum();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if pid.bytes().all(|b| b.is_ascii_digit())
            && let Some(f) = fields(&pid)
            && f.first().map(u64::to_string) == Some(postmaster.clone())
        {
            ticks += f.get(10..12).map_or(0, |t| t.iter().sum::<u64>());
        }
    }
    Some(ticks)
}

/// Bytes held in the outbox's rows: the replies' JSON and the pictures beside them.
fn outbox_bytes(bot: &Bot) -> Result<u64, String> {
    let conn = bot.store().conn().map_err(|e| e.to_string())?;
    conn.query_row("SELECT coalesce(sum(length(reply) + coalesce(length(picture), 0)), 0) FROM outbox", (), |r| {
        r.get::<i64>(0)
    })
    .map(|n| n.max(0) as u64)
    .map_err(|e| e.to_string())
}

/// What one write transaction per input costs, and the picture beside it: the bare core on 1 and on
/// 2 threads, without and with pictures (described in the transaction, drawn after it as delivery
/// draws them), `runs` rounds each on fresh databases in a temporary folder; the medians, each
/// mode's speed-up from a second thread (the transaction serialises writers: what runs inside it
/// cannot run in parallel), and the picture's share of a move.
pub fn unit_rounds(opts: &BenchOptions, runs: usize) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("capabot-bench-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut out = String::new();
    let modes = [(false, 1), (false, 2), (true, 1), (true, 2)];
    let mut rates = [const { Vec::<f64>::new() }; 4];
    let mut p50s = [const { Vec::<f64>::new() }; 4];
    let mut written = [const { Vec::<f64>::new() }; 4];
    let mut outbox = [const { Vec::<f64>::new() }; 4];
    let result = (|| -> Result<(), String> {
        for round in 0..runs.max(1) {
            for (m, (pictures, threads)) in modes.iter().enumerate() {
                let o = BenchOptions { pictures: *pictures, threads: *threads, ..opts.clone() };
                let r = run_through(&dir.join(format!("u-{round}-{m}.db")), &o, Through::Core)?;
                out.push_str(&format!("round {}: {}\n", round + 1, r.summary(&o)));
                rates[m].push(r.moves_per_sec());
                p50s[m].push(r.p50.as_secs_f64() * 1e3);
                written[m].extend(r.written_per_move());
                outbox[m].push(r.outbox_per_move());
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    let med: Vec<(f64, f64)> =
        (0..4).map(|m| (super::median_secs(&mut rates[m]), super::median_secs(&mut p50s[m]))).collect();
    out.push_str(&format!(
        "medians of {} rounds, {} games of {}, {} plies:\n",
        runs.max(1),
        opts.games,
        opts.variant.name,
        opts.plies
    ));
    for (m, (pictures, threads)) in modes.iter().enumerate() {
        out.push_str(&format!(
            "  {} pictures, {threads} thread{}: {:.0} moves/s, p50 {:.2} ms; written {:.1} KB a move, outbox {:.1} KB \
             a move\n",
            if *pictures { "with" } else { "no  " },
            if *threads == 1 { " " } else { "s" },
            med[m].0,
            med[m].1,
            super::median_secs(&mut written[m]) / 1024.0,
            super::median_secs(&mut outbox[m]) / 1024.0
        ));
    }
    let per_move = |m: usize| 1e3 / med[m].0.max(1e-9);
    out.push_str(&format!(
        "  a second thread: × {:.2} without pictures, × {:.2} with them; the picture adds {:.2} ms to a move \
         ({:.2} → {:.2} ms on one thread)",
        med[1].0 / med[0].0.max(1e-9),
        med[3].0 / med[2].0.max(1e-9),
        per_move(2) - per_move(0),
        per_move(0),
        per_move(2)
    ));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant::CHESS;

    #[test]
    fn small_run_plays_every_ply_and_summarises() {
        let opts = BenchOptions {
            games: 2,
            threads: 1,
            plies: 4,
            variant: &CHESS,
            pictures: false,
            seed: 1,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            fake_apart: false,
            log_pages: false,
            event_ids: EventIds::Snowflake,
            time_lapse: 1,
        };
        let dir = tempfile::tempdir().unwrap();
        let r = run_with_db(Some(&dir.path().join("b.db")), &opts).unwrap();
        assert_eq!((r.accepted, r.refused, r.pictures), (8, 0, 0));
        let (core, host) = run_both(Some(&dir.path().join("c.db")), &opts).unwrap();
        assert_eq!((core.accepted, host.accepted, host.refused), (8, 8, 0), "the host plays the same moves");
        assert!(summary_both(&core, &host, &opts).contains("host/core throughput"));
        let line = r.summary(&opts);
        assert!(line.starts_with("bench-bot 2 games on 1 threads (chess): 8 accepted moves in "), "{line}");
    }

    /// Snowflakes come in key order (each a new largest text of the same length), as Discord's;
    /// hashed ids (Matrix's) in none; the old counter's not when it gains a digit.
    #[test]
    fn event_ids_come_in_the_order_of_their_platform() {
        let ids = |kind: EventIds| {
            let last = std::sync::atomic::AtomicU64::new(0);
            (0..2_000).map(|seq| kind.id(seq, &last)).collect::<Vec<_>>()
        };
        let in_order = |ids: &[String]| ids.windows(2).all(|w| w[0] < w[1]);
        let snowflakes = ids(EventIds::Snowflake);
        assert!(in_order(&snowflakes) && snowflakes.iter().all(|id| id.len() == 19), "{snowflakes:?}");
        let hashed = ids(EventIds::Hashed);
        assert!(hashed.iter().all(|id| id.len() == 44 && id.starts_with('$')), "{hashed:?}");
        assert_eq!(hashed.iter().collect::<std::collections::BTreeSet<_>>().len(), hashed.len(), "all distinct");
        let rises = hashed.windows(2).filter(|w| w[0] < w[1]).count();
        assert!((800..1_200).contains(&rises), "about every other one rises: {rises}");
        assert!(!in_order(&ids(EventIds::Counter)), "e10 comes before e2");
    }

    #[test]
    fn the_unit_comparison_runs_every_mode() {
        let opts = BenchOptions {
            games: 2,
            threads: 1,
            plies: 2,
            variant: &CHESS,
            pictures: true,
            seed: 2,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            fake_apart: false,
            log_pages: false,
            event_ids: EventIds::Snowflake,
            time_lapse: 1,
        };
        let out = unit_rounds(&opts, 1).unwrap();
        assert_eq!(out.matches("4 accepted moves").count(), 4, "{out}");
        assert!(out.contains("4 pictures") && out.contains("a second thread"), "{out}");
    }
}

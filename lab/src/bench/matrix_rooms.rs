//! A load run through Matrix (not a test): the real `capabot matrix` binary against a real Synapse
//! (the harness's, on 127.0.0.1) in many rooms. A watcher user creates the rooms, inviting the bot
//! and one person per room, and reads every room's messages through one sync of its own; each
//! room's person sends the commands. Measured: how long the bot takes to join and greet the rooms,
//! its memory (`VmRSS`, `VmHWM`) and the size of its Matrix store and database with one room and
//! with all of them, the latency of one command answered in every room at once, and a restart with
//! a command waiting in every room.

use super::bot::BenchReport;
use super::{Processes, capabot_binary, median_secs};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use synapse_harness::{Database, RegisteredUser, Settings, Synapse};

/// The command every room's person sends; its answer is one text message.
const COMMAND: &str = "!variants";
/// The limit on one client-server request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the bot may take to join and greet the rooms, or to answer a round of commands.
const ROUND_TIMEOUT: Duration = Duration::from_secs(600);
/// How long SIGTERM may take before the bot is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(30);
/// The pause between the last answer and reading memory and disk, for the bot's sync to settle.
const SETTLE: Duration = Duration::from_secs(2);
/// Threads creating rooms, registering people and sending commands.
const SENDERS: usize = 4;
/// Threads sending for Synapse's own pace (one message in every room with the bot stopped): as
/// many requests at once as keep Synapse busy, like the bot's sends in a catch-up.
const PACE_SENDERS: usize = 64;
/// The watcher's long-poll, short so that it notices when to stop.
const WATCH_POLL_MS: u64 = 1000;
/// The most rooms a run may ask for: the bot's `max_rooms` is set above it, and each room is a
/// person registered and a `createRoom` (about 0.23 s of Synapse's time here).
pub const MAX_ROOMS: usize = 5000;

/// A process's memory as `/proc/PID/status` says it, in KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// Resident now (`VmRSS`).
    pub rss_kib: u64,
    /// The most it was resident (`VmHWM`).
    pub hwm_kib: u64,
}

/// `VmRSS` and `VmHWM` out of the text of `/proc/PID/status`; `None` when either is missing.
pub fn parse_status(status: &str) -> Option<Memory> {
    let field = |name: &str| {
        status.lines().find_map(|line| {
            let rest = line.strip_prefix(name)?.strip_prefix(':')?;
            let mut words = rest.split_whitespace();
            let value = words.next()?.parse::<u64>().ok()?;
            (words.next() == Some("kB")).then_some(value)
        })
    };
    Some(Memory { rss_kib: field("VmRSS")?, hwm_kib: field("VmHWM")? })
}

/// The time a process has spent on the CPU, user and system together, out of the text of
/// `/proc/PID/stat` (fields 14 and 15, in clock ticks of `ticks_per_second`); `None` if malformed.
pub fn parse_cpu(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may hold spaces: count from the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    (ticks_per_second > 0).then(|| Duration::from_millis((user + system) * 1000 / ticks_per_second))
}

fn cpu_of(pid: u32) -> Result<Duration, String> {
    let path = format!("/proc/{pid}/stat");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    // SAFETY: `sysconf` reads a constant of the system and has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    parse_cpu(&text, u64::try_from(ticks).unwrap_or(0)).ok_or_else(|| format!("cannot read the CPU time in {path}"))
}

fn memory_of(pid: u32) -> Result<Memory, String> {
    let path = format!("/proc/{pid}/status");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))?;
    parse_status(&text).ok_or_else(|| format!("no VmRSS or VmHWM in {path}"))
}

/// The bytes of the files under `path` (a file, or a directory walked whole); 0 if it is missing.
pub fn size_on_disk(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else { return 0 };
    if !meta.is_dir() {
        return meta.len();
    }
    let Ok(entries) = std::fs::read_dir(path) else { return 0 };
    entries.flatten().map(|entry| size_on_disk(&entry.path())).sum()
}

/// What the bot holds at one moment: its memory, its Matrix store (matrix-sdk's SQLite files, their
/// write-ahead logs included) and its database, the file apart from its write-ahead log and index.
#[derive(Clone, Copy, Debug, Default)]
struct Footprint {
    memory: Memory,
    /// The bot's time on the CPU since it started (user and system).
    cpu: Duration,
    store_bytes: u64,
    db_bytes: u64,
    db_wal_bytes: u64,
}

impl Footprint {
    /// The table's rows, in the order of [`bytes`](Self::bytes).
    const NAMES: [&str; 5] = ["RSS (VmRSS)", "peak RSS (VmHWM)", "Matrix store", "database", "database -wal, -shm"];

    fn bytes(&self) -> [u64; 5] {
        let Footprint { memory, store_bytes, db_bytes, db_wal_bytes, .. } = *self;
        [memory.rss_kib * 1024, memory.hwm_kib * 1024, store_bytes, db_bytes, db_wal_bytes]
    }
}

/// One round's figures.
#[derive(Clone, Debug, Default)]
struct RoomsReport {
    /// From starting the bot to its greeting in the first room (created once it started).
    first_greeting: Duration,
    one_room: Footprint,
    /// From the first invitation of the other rooms to the last greeting, and from the moment the
    /// last room was made (its person joined) to that greeting, in seconds (negative: before).
    greet_all: Duration,
    greet_after_last_room: f64,
    all_rooms: Footprint,
    /// One command in every room at once: latency by Synapse's timestamps (command to answer),
    /// and the wall time until every room had its answer.
    commands: BenchReport,
    after_commands: Footprint,
    /// After SIGTERM and a start with a command waiting in every room: how long the stop took,
    /// from the start to the first and the last answer, and the footprint after the catch-up.
    stop: Duration,
    restart_first: Duration,
    restart_all: Duration,
    after_restart: Footprint,
    /// The Matrix store's files and their sizes with all the rooms joined, and after the restart.
    store_files_all: Vec<(String, u64)>,
    store_files_restart: Vec<(String, u64)>,
    /// The restarts with the binaries of `--restart-with`, in turn on the same homeserver and
    /// rooms: each binary's path, from its start to its first and last answer, and its footprint
    /// after the catch-up.
    more_restarts: Vec<(PathBuf, Duration, Duration, Footprint)>,
    /// How long the people took to send the commands waiting for the restart ([`SENDERS`] at
    /// once), and, with the bot stopped at the end, to send one message in every room
    /// [`PACE_SENDERS`] at once: Synapse's own pace for as many events as a catch-up answers.
    waiting_sent: Duration,
    pace: Duration,
    /// Synapse's processor time (all its threads) from the restart to the last answer, and while
    /// it took the messages of `pace`.
    synapse_cpu_restart: Duration,
    synapse_cpu_pace: Duration,
    /// The rows of Synapse's table of notifications (`event_push_actions`) after the restart's
    /// answers: the bot's, and everyone's.
    push_actions_bot: u64,
    push_actions_all: u64,
}

/// A Matrix user of the run, speaking the client-server API.
#[derive(Clone)]
struct Account {
    agent: ureq::Agent,
    base: String,
    token: String,
    user_id: String,
}

impl Account {
    fn log_in(base: &str, user: &RegisteredUser) -> Result<Account, String> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(REQUEST_TIMEOUT))
            .http_status_as_error(false)
            .build()
            .into();
        let body = json!({
            "type": "m.login.password",
            "identifier": { "type": "m.id.user", "user": user.localpart },
            "password": user.password,
        });
        let url = format!("{base}/_matrix/client/v3/login");
        let answer = answer_json(agent.post(&url).send_json(&body), &format!("logging in {}", user.localpart))?;
        let token = answer["access_token"].as_str().ok_or("a login answer without access_token")?.to_string();
        Ok(Account { agent, base: base.to_string(), token, user_id: user.user_id.clone() })
    }

    fn url(&self, path: &str) -> String {
        format!("{}/_matrix/client/v3/{path}", self.base)
    }

    fn auth(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// A private room with `invite` invited; its id.
    fn create_room(&self, invite: &[&str]) -> Result<String, String> {
        let body = json!({ "preset": "private_chat", "invite": invite });
        let request = self.agent.post(&self.url("createRoom")).header("Authorization", &self.auth());
        let answer = answer_json(request.send_json(&body), "creating a room")?;
        answer["room_id"].as_str().map(str::to_string).ok_or_else(|| format!("no room_id in {answer}"))
    }

    fn join(&self, room: &str) -> Result<(), String> {
        let url = self.url(&format!("join/{}", path_segment(room)));
        let request = self.agent.post(&url).header("Authorization", &self.auth());
        answer_json(request.send_json(json!({})), &format!("{} joining {room}", self.user_id)).map(|_| ())
    }

    fn say(&self, room: &str, txn: &str, text: &str) -> Result<(), String> {
        let url = self.url(&format!("rooms/{}/send/m.room.message/{txn}", path_segment(room)));
        let request = self.agent.put(&url).header("Authorization", &self.auth());
        let body = json!({ "msgtype": "m.text", "body": text });
        answer_json(request.send_json(&body), &format!("{} speaking in {room}", self.user_id)).map(|_| ())
    }

    /// One sync with the watcher's filter (room messages only, members lazy-loaded).
    fn sync(&self, since: Option<&str>, timeout_ms: u64) -> Result<Value, String> {
        let filter = json!({
            "presence": { "types": [] },
            "account_data": { "types": [] },
            "room": {
                "state": { "types": [], "lazy_load_members": true },
                "timeline": { "types": ["m.room.message"], "limit": 100 },
                "ephemeral": { "types": [] },
                "account_data": { "types": [] },
            },
        });
        let mut request = self
            .agent
            .get(&self.url("sync"))
            .header("Authorization", &self.auth())
            .query("filter", filter.to_string())
            .query("timeout", timeout_ms.to_string());
        if let Some(since) = since {
            request = request.query("since", since);
        }
        answer_json(request.call(), "syncing")
    }
}

/// The JSON of a successful answer, or what went wrong.
fn answer_json(answer: Result<ureq::http::Response<ureq::Body>, ureq::Error>, what: &str) -> Result<Value, String> {
    let mut answer = answer.map_err(|e| format!("{what}: {e}"))?;
    let status = answer.status();
    let body = answer.body_mut().read_to_string().map_err(|e| format!("{what}: reading the answer: {e}"))?;
    if !status.is_success() {
        return Err(format!("{what}: HTTP {status}: {body}"));
    }
    serde_json::from_str(&body).map_err(|e| format!("{what}: {e} in {body}"))
}

/// A room or user id as one URL path segment: everything but unreserved characters percent-encoded.
pub fn path_segment(id: &str) -> String {
    id.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A message the watcher saw: in which room, from whom, and Synapse's timestamp (ms since 1970).
#[derive(Clone, Debug)]
struct Seen {
    room: String,
    sender: String,
    body: String,
    ts: u64,
}

/// The watcher's sync loop on a thread of its own, passing on every room message until stopped.
struct Watcher {
    events: mpsc::Receiver<Result<Seen, String>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watcher {
    fn start(account: Account) -> Result<Watcher, String> {
        // The first sync only fetches the token: what came before is not news.
        let first = account.sync(None, 0)?;
        let mut since = first["next_batch"].as_str().ok_or("a sync without next_batch")?.to_string();
        let (tx, events) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut failures = 0;
            while !stopping.load(Ordering::Relaxed) {
                match account.sync(Some(&since), WATCH_POLL_MS) {
                    Ok(answer) => {
                        failures = 0;
                        for seen in messages_in(&answer) {
                            let _ = tx.send(Ok(seen));
                        }
                        if let Some(next) = answer["next_batch"].as_str() {
                            since = next.to_string();
                        }
                    }
                    Err(e) if failures >= 5 => {
                        let _ = tx.send(Err(format!("the watcher's sync keeps failing: {e}")));
                        return;
                    }
                    Err(_) => {
                        failures += 1;
                        std::thread::sleep(Duration::from_millis(200));
                    }
                }
            }
        });
        Ok(Watcher { events, stop, thread: Some(thread) })
    }

    /// The next message, or `None` once `deadline` passed.
    fn next(&self, deadline: Instant) -> Result<Option<Seen>, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(seen) => seen.map(Some),
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err("the watcher stopped".into()),
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The room messages of a sync answer, room by room in timeline order.
fn messages_in(answer: &Value) -> Vec<Seen> {
    let mut out = Vec::new();
    let Some(rooms) = answer["rooms"]["join"].as_object() else { return out };
    for (room, state) in rooms {
        for event in state["timeline"]["events"].as_array().into_iter().flatten() {
            if event["type"] != "m.room.message" {
                continue;
            }
            out.push(Seen {
                room: room.clone(),
                sender: event["sender"].as_str().unwrap_or_default().to_string(),
                body: event["content"]["body"].as_str().unwrap_or_default().to_string(),
                ts: event["origin_server_ts"].as_u64().unwrap_or_default(),
            });
        }
    }
    out
}

/// Milliseconds since 1970 on this machine's clock (Synapse's, here).
fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or_default()
}

fn ms_between(from: u64, to: u64) -> Duration {
    Duration::from_millis(to.saturating_sub(from))
}

/// The bot as a child process, with its data in `dir`.
struct BotProcess {
    capabot: PathBuf,
    dir: PathBuf,
    homeserver: String,
    user: RegisteredUser,
    process: Processes,
    /// `[matrix] mute_notifications` (the bot's default: on).
    mute_notifications: bool,
}

impl BotProcess {
    fn new(capabot: &Path, dir: &Path, homeserver: String, user: RegisteredUser) -> BotProcess {
        BotProcess {
            capabot: capabot.to_path_buf(),
            dir: dir.to_path_buf(),
            homeserver,
            user,
            process: Processes(Vec::new()),
            mute_notifications: true,
        }
    }

    fn store(&self) -> PathBuf {
        self.dir.join("matrix-store")
    }

    fn start(&mut self, max_rooms: usize) -> Result<(), String> {
        // The default `max_rooms` (500) would decline invitations beyond it.
        let mut config = format!("[matrix]\nmax_rooms = {max_rooms}\n");
        // Written only when off, so that builds from before the setting read the file too.
        if !self.mute_notifications {
            config.push_str("mute_notifications = false\n");
        }
        std::fs::write(self.dir.join("capabot.toml"), config).map_err(|e| format!("cannot write capabot.toml: {e}"))?;
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join("capabot.log"))
            .map_err(|e| format!("cannot open the bot's log: {e}"))?;
        let child = Command::new(&self.capabot)
            .arg("matrix")
            .current_dir(&self.dir)
            .env_clear()
            .env("CAPABOT_DB", self.dir.join("capabot.db"))
            .env("CAPABOT_MATRIX_STORE", self.store())
            .env("MATRIX_HOMESERVER", &self.homeserver)
            .env("MATRIX_USER", &self.user.localpart)
            .env("MATRIX_PASSWORD", &self.user.password)
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.capabot.display()))?;
        self.process.0.push(child);
        Ok(())
    }

    fn child(&mut self) -> Result<&mut Child, String> {
        self.process.0.last_mut().ok_or_else(|| "the bot is not running".to_string())
    }

    /// SIGTERM, then SIGKILL if it has not exited within [`STOP_TIMEOUT`]; how long it took.
    fn stop(&mut self) -> Result<Duration, String> {
        let child = self.child()?;
        let started = Instant::now();
        let pid = libc::pid_t::try_from(child.id()).map_err(|e| e.to_string())?;
        // SAFETY: `kill` only sends a signal; the pid is our own child's, not yet reaped.
        if unsafe { libc::kill(pid, libc::SIGTERM) } != 0 {
            return Err(format!("cannot signal the bot: {}", std::io::Error::last_os_error()));
        }
        let mut exited = false;
        while started.elapsed() < STOP_TIMEOUT {
            if child.try_wait().map_err(|e| e.to_string())?.is_some() {
                exited = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let took = started.elapsed();
        let mut child = self.process.0.pop().ok_or("the bot is not running")?;
        if !exited {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("the bot did not stop within {STOP_TIMEOUT:?} of SIGTERM"));
        }
        Ok(took)
    }

    /// Each file of the Matrix store (its name and size), largest first.
    fn store_files(&self) -> Vec<(String, u64)> {
        let Ok(entries) = std::fs::read_dir(self.store()) else { return Vec::new() };
        let mut files: Vec<(String, u64)> = entries
            .flatten()
            .map(|entry| (entry.file_name().to_string_lossy().into_owned(), size_on_disk(&entry.path())))
            .collect();
        files.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        files
    }

    fn footprint(&mut self) -> Result<Footprint, String> {
        let dir = self.dir.clone();
        let child = self.child()?;
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            return Err(format!("the bot exited ({status})"));
        }
        let memory = memory_of(child.id())?;
        let cpu = cpu_of(child.id())?;
        let db_bytes = size_on_disk(&dir.join("capabot.db"));
        let db_wal_bytes = size_on_disk(&dir.join("capabot.db-wal")) + size_on_disk(&dir.join("capabot.db-shm"));
        Ok(Footprint { memory, cpu, store_bytes: size_on_disk(&self.store()), db_bytes, db_wal_bytes })
    }
}

/// The run's people: the watcher (who creates the rooms and reads them) and one person per room.
struct People {
    watcher: Account,
    persons: Vec<Account>,
}

fn register_people(synapse: &Synapse, rooms: usize) -> Result<People, String> {
    let base = synapse.homeserver_url();
    let watcher = synapse.register_user("watcher", false).map_err(|e| e.to_string())?;
    let watcher = Account::log_in(&base, &watcher)?;
    let persons = in_parallel(rooms, |i| {
        let user = synapse.register_user(&format!("person-{i}"), false).map_err(|e| e.to_string())?;
        Account::log_in(&base, &user)
    })?;
    Ok(People { watcher, persons })
}

/// `f(0)`, …, `f(n - 1)` on [`SENDERS`] threads, in order of `i`; the first error if any.
fn in_parallel<T: Send>(n: usize, f: impl Fn(usize) -> Result<T, String> + Sync) -> Result<Vec<T>, String> {
    in_parallel_on(SENDERS, n, f)
}

/// [`in_parallel`] on `threads` threads.
fn in_parallel_on<T: Send>(
    threads: usize,
    n: usize,
    f: impl Fn(usize) -> Result<T, String> + Sync,
) -> Result<Vec<T>, String> {
    let mut slots: Vec<Option<Result<T, String>>> = (0..n).map(|_| None).collect();
    let per_thread = n.div_ceil(threads.max(1)).max(1);
    std::thread::scope(|scope| {
        for (t, chunk) in slots.chunks_mut(per_thread).enumerate() {
            let f = &f;
            let first = t * per_thread;
            scope.spawn(move || {
                for (k, slot) in chunk.iter_mut().enumerate() {
                    *slot = Some(f(first + k));
                }
            });
        }
    });
    slots.into_iter().map(|slot| slot.unwrap_or_else(|| Err("a worker did not finish".into()))).collect()
}

/// Room `i`: created by the watcher with the bot and person `i` invited, then joined by the person.
fn make_room(people: &People, bot: &str, i: usize) -> Result<String, String> {
    let person = &people.persons[i];
    let room = people.watcher.create_room(&[bot, &person.user_id])?;
    person.join(&room)?;
    if (i + 1).is_multiple_of(250) {
        progress(&format!("{} rooms made", i + 1));
    }
    Ok(room)
}

/// Waits until the bot has said something in each of `rooms`; the timestamp of the last of those
/// first messages.
fn wait_for_greetings(watcher: &Watcher, bot: &str, rooms: &[String]) -> Result<u64, String> {
    let mut waiting: HashSet<&str> = rooms.iter().map(String::as_str).collect();
    let deadline = Instant::now() + ROUND_TIMEOUT;
    let mut last = 0;
    while !waiting.is_empty() {
        let Some(seen) = watcher.next(deadline)? else {
            return Err(format!("{} of {} rooms not greeted within {ROUND_TIMEOUT:?}", waiting.len(), rooms.len()));
        };
        if seen.sender == bot && waiting.remove(seen.room.as_str()) {
            last = last.max(seen.ts);
        }
    }
    Ok(last)
}

/// Each room's person sends [`COMMAND`] (`tag` makes the transaction ids unique).
fn send_commands(people: &People, rooms: &[String], tag: &str) -> Result<(), String> {
    in_parallel(rooms.len(), |i| people.persons[i].say(&rooms[i], &format!("{tag}-{i}"), COMMAND)).map(|_| ())
}

/// Waits until the bot has answered the command in every room: each room's latency, from the
/// command's timestamp to the answer's (both Synapse's), and the first and last answers' timestamps.
fn wait_for_answers(watcher: &Watcher, bot: &str, rooms: &[String]) -> Result<(Vec<Duration>, u64, u64), String> {
    let mut asked: HashMap<&str, Option<u64>> = rooms.iter().map(|r| (r.as_str(), None)).collect();
    let mut latencies = Vec::with_capacity(rooms.len());
    let (mut first, mut last) = (u64::MAX, 0);
    let deadline = Instant::now() + ROUND_TIMEOUT;
    while !asked.is_empty() {
        let Some(seen) = watcher.next(deadline)? else {
            return Err(format!("{} of {} rooms not answered within {ROUND_TIMEOUT:?}", asked.len(), rooms.len()));
        };
        let Some(command) = asked.get_mut(seen.room.as_str()) else { continue };
        if seen.sender != bot && seen.body == COMMAND {
            *command = Some(seen.ts);
        } else if seen.sender == bot
            && let Some(at) = *command
        {
            latencies.push(ms_between(at, seen.ts));
            (first, last) = (first.min(seen.ts), last.max(seen.ts));
            asked.remove(seen.room.as_str());
        }
    }
    Ok((latencies, first, last))
}

/// A line on stderr with the time, to follow a long run.
fn progress(what: &str) {
    let secs = now_ms() / 1000;
    eprintln!("[{:02}:{:02}:{:02} UTC] {what}", secs / 3600 % 24, secs / 60 % 60, secs % 60);
}

/// One round on a fresh Synapse: the bot in one room, then in `rooms`, a command in each, a restart.
fn run_once(
    capabot: &Path,
    dir: &Path,
    rooms: usize,
    restart_with: &[PathBuf],
    (settings, setup): (Settings, &RoomsSetup),
) -> Result<RoomsReport, String> {
    let mut report = RoomsReport::default();
    let synapse = Synapse::start_with(settings).map_err(|e| e.to_string())?;
    let synapse_cpu = || synapse.pid().ok_or_else(|| "Synapse is not running".to_string()).and_then(cpu_of);
    let bot_user = synapse.register_user("capabot", false).map_err(|e| e.to_string())?;
    progress("Synapse started");
    let people = register_people(&synapse, rooms)?;
    progress(&format!("{rooms} people registered"));
    let watcher = Watcher::start(people.watcher.clone())?;
    let bot_id = bot_user.user_id.clone();
    let mut bot = BotProcess::new(capabot, dir, synapse.homeserver_url(), bot_user);
    bot.mute_notifications = !setup.bot_unmuted;

    // One room: the bot's start-up, and its footprint with a single room.
    let started = now_ms();
    bot.start(rooms + 10)?;
    let first = vec![make_room(&people, &bot_id, 0)?];
    report.first_greeting = ms_between(started, wait_for_greetings(&watcher, &bot_id, &first)?);
    std::thread::sleep(SETTLE);
    report.one_room = bot.footprint()?;

    // The others, created on several threads while the bot joins them.
    let invited = now_ms();
    let others = in_parallel(rooms - 1, |i| make_room(&people, &bot_id, i + 1))?;
    let last_room = now_ms();
    let last_greeting = wait_for_greetings(&watcher, &bot_id, &others)?;
    report.greet_all = ms_between(invited, last_greeting);
    report.greet_after_last_room = (last_greeting as f64 - last_room as f64) / 1e3;
    std::thread::sleep(SETTLE);
    report.all_rooms = bot.footprint()?;
    report.store_files_all = bot.store_files();
    progress(&format!("all {rooms} rooms greeted"));
    let all: Vec<String> = first.into_iter().chain(others).collect();

    // A command in every room at once.
    let asked = Instant::now();
    send_commands(&people, &all, "live")?;
    let (latencies, _, _) = wait_for_answers(&watcher, &bot_id, &all)?;
    report.commands = BenchReport::of(latencies, 0, 0, asked.elapsed());
    std::thread::sleep(SETTLE);
    report.after_commands = bot.footprint()?;
    progress("a command answered in every room");

    // A restart with a command waiting in every room.
    report.stop = bot.stop()?;
    let sending = Instant::now();
    send_commands(&people, &all, "waiting")?;
    report.waiting_sent = sending.elapsed();
    let restarted = now_ms();
    let synapse_before = synapse_cpu()?;
    bot.start(rooms + 10)?;
    let (_, first_answer, last_answer) = wait_for_answers(&watcher, &bot_id, &all)?;
    report.synapse_cpu_restart = synapse_cpu()?.saturating_sub(synapse_before);
    report.restart_first = ms_between(restarted, first_answer);
    report.restart_all = ms_between(restarted, last_answer);
    let rows = |whose: &str| synapse.query_number(&format!("SELECT count(*) FROM event_push_actions{whose}"));
    report.push_actions_bot = rows(&format!(" WHERE user_id = '{bot_id}'")).map_err(|e| e.to_string())?;
    report.push_actions_all = rows("").map_err(|e| e.to_string())?;
    std::thread::sleep(SETTLE);
    report.after_restart = bot.footprint()?;
    report.store_files_restart = bot.store_files();
    progress("the restart's commands answered");
    // The same again with each binary of `restart_with` in turn (the same homeserver, rooms and
    // stores: two builds compared without the room making between them).
    for (k, binary) in restart_with.iter().enumerate() {
        bot.stop()?;
        send_commands(&people, &all, &format!("again-{k}"))?;
        bot.capabot = binary.clone();
        let restarted = now_ms();
        bot.start(rooms + 10)?;
        let (_, first_answer, last_answer) = wait_for_answers(&watcher, &bot_id, &all)?;
        std::thread::sleep(SETTLE);
        let after = bot.footprint()?;
        let line =
            restart_line(binary, ms_between(restarted, first_answer), ms_between(restarted, last_answer), &after);
        progress(&line);
        report.more_restarts.push((
            binary.clone(),
            ms_between(restarted, first_answer),
            ms_between(restarted, last_answer),
            after,
        ));
    }
    bot.stop()?;
    // Synapse's own pace, the bot stopped: one message in every room, many at once.
    let sending = Instant::now();
    let synapse_before = synapse_cpu()?;
    in_parallel_on(PACE_SENDERS, all.len(), |i| people.persons[i].say(&all[i], &format!("pace-{i}"), "pace"))?;
    report.pace = sending.elapsed();
    report.synapse_cpu_pace = synapse_cpu()?.saturating_sub(synapse_before);
    progress(&format!("Synapse alone took {rooms} messages, {PACE_SENDERS} at once, in {:.2} s", secs(report.pace)));
    Ok(report)
}

/// How each round's Synapse and bot are set up (`lab bench-matrix-rooms`'s flags).
#[derive(Clone, Copy, Debug, Default)]
pub struct RoomsSetup {
    /// Synapse on a database of the PostgreSQL harness's server instead of its SQLite file.
    pub synapse_postgres: bool,
    /// Synapse with push rules and notification counts on ([`Settings::push`]).
    pub synapse_push: bool,
    /// The bot with `[matrix] mute_notifications = false`.
    pub bot_unmuted: bool,
}

/// Where each round's Synapse keeps its data: a SQLite file, or (`synapse_postgres`) a new
/// database of the PostgreSQL harness's server, reached through its Unix socket.
struct SynapseData {
    #[cfg(feature = "postgres")]
    server: Option<pg_harness::PgServer>,
}

impl SynapseData {
    fn new(synapse_postgres: bool) -> Result<SynapseData, String> {
        #[cfg(feature = "postgres")]
        {
            let server = synapse_postgres.then(pg_harness::PgServer::start).transpose().map_err(|e| e.to_string())?;
            Ok(SynapseData { server })
        }
        #[cfg(not(feature = "postgres"))]
        match synapse_postgres {
            true => {
                Err("--synapse-postgres needs the laboratory built with its `postgres` feature (the default)".into())
            }
            false => Ok(SynapseData {}),
        }
    }

    /// Runs `round` with the database of a fresh Synapse, dropped afterwards.
    fn with_database<T>(&self, round: impl FnOnce(Database) -> T) -> Result<T, String> {
        #[cfg(feature = "postgres")]
        if let Some(server) = &self.server {
            let database = server.create_database().map_err(|e| e.to_string())?;
            let config = database.config();
            let given = synapse_harness::PostgresDatabase {
                host: server.socket_dir().map_or("127.0.0.1".into(), |dir| dir.to_string_lossy().into_owned()),
                port: server.port(),
                user: config.get_user().unwrap_or_default().to_string(),
                password: String::from_utf8_lossy(config.get_password().unwrap_or_default()).into_owned(),
                dbname: database.name().to_string(),
            };
            return Ok(round(Database::Postgres(given)));
        }
        Ok(round(Database::Sqlite))
    }
}

/// `runs` rounds with `rooms` rooms, each on a fresh Synapse and a fresh bot: every round's line,
/// then a table of the medians.
pub fn rooms_rounds(
    capabot: Option<PathBuf>,
    rooms: usize,
    runs: usize,
    restart_with: &[PathBuf],
    setup: RoomsSetup,
) -> Result<String, String> {
    let RoomsSetup { synapse_postgres, synapse_push, bot_unmuted } = setup;
    let capabot = capabot_binary(capabot)?;
    if !(2..=MAX_ROOMS).contains(&rooms) {
        return Err(format!("--rooms wants 2 to {MAX_ROOMS}"));
    }
    let data = SynapseData::new(synapse_postgres)?;
    let kept_in = if synapse_postgres { "PostgreSQL, through its Unix socket" } else { "SQLite" };
    let push = match (synapse_push, bot_unmuted) {
        (false, _) => "off (the harness's)",
        (true, false) => "on, the bot's own notifications muted",
        (true, true) => "on, the bot's own notifications not muted",
    };
    let kept_in = format!("{kept_in}; push {push}");
    progress(&format!("Synapse's database: {kept_in}"));
    let base = std::env::temp_dir().join(format!("capabot-bench-matrix-rooms-{}", std::process::id()));
    let mut reports = Vec::new();
    let mut out = String::new();
    for round in 1..=runs.max(1) {
        let dir = base.join(format!("round-{round}"));
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let settings = |database| Settings { database, push: synapse_push };
        match data
            .with_database(|database| run_once(&capabot, &dir, rooms, restart_with, (settings(database), &setup)))?
        {
            Ok(r) => {
                for (binary, first, all, after) in &r.more_restarts {
                    out.push_str(&format!("round {round}: {}\n", restart_line(binary, *first, *all, after)));
                }
                progress(&format!("round {round}: {}", round_line(&r, rooms)));
                out.push_str(&format!("round {round}: {}\n", round_line(&r, rooms)));
                out.push_str(&format!("  store with all rooms: {}\n", files_line(&r.store_files_all)));
                out.push_str(&format!("  store after the restart: {}\n", files_line(&r.store_files_restart)));
                reports.push(r);
            }
            Err(e) => {
                eprintln!("the bot's data and log are kept in {}", dir.display());
                return Err(e);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    out.push_str(&format!("Synapse's database: {kept_in}\n"));
    out.push_str(&median_table(&reports, rooms));
    Ok(out)
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn round_line(r: &RoomsReport, rooms: usize) -> String {
    format!(
        "greeted 1 room in {:.2} s, {} more in {:.2} s; RSS {} → {} MiB; p50 {:.0} ms, p99 {:.0} ms; \
         restart: all answered after {:.2} s, Synapse's processor time {:.2} s; Synapse alone {:.2} s, its \
         processor time {:.2} s; push actions: the bot's {}, everyone's {}",
        secs(r.first_greeting),
        rooms - 1,
        secs(r.greet_all),
        mib(r.one_room.memory.rss_kib * 1024),
        mib(r.all_rooms.memory.rss_kib * 1024),
        ms(r.commands.p50),
        ms(r.commands.p99),
        secs(r.restart_all),
        secs(r.synapse_cpu_restart),
        secs(r.pace),
        secs(r.synapse_cpu_pace),
        r.push_actions_bot,
        r.push_actions_all,
    )
}

/// A restart of `--restart-with`: the binary, its first and last answers, and its footprint after.
fn restart_line(binary: &Path, first: Duration, all: Duration, after: &Footprint) -> String {
    format!(
        "restart with {}: first answer after {:.2} s, all after {:.2} s; RSS {} MiB, the bot's time on the CPU {:.2} s",
        binary.display(),
        secs(first),
        secs(all),
        mib(after.memory.rss_kib * 1024),
        secs(after.cpu),
    )
}

/// The store's files as `name size`, comma-separated.
fn files_line(files: &[(String, u64)]) -> String {
    let parts: Vec<String> = files.iter().map(|(name, bytes)| format!("{name} {} MiB", mib(*bytes))).collect();
    parts.join(", ")
}

fn mib(bytes: u64) -> String {
    format!("{:.1}", bytes as f64 / (1024.0 * 1024.0))
}

/// The median over the rounds of one figure.
fn median_of(reports: &[RoomsReport], figure: impl Fn(&RoomsReport) -> f64) -> f64 {
    let mut values: Vec<f64> = reports.iter().map(figure).collect();
    median_secs(&mut values)
}

fn median_table(reports: &[RoomsReport], rooms: usize) -> String {
    let m = |figure: &dyn Fn(&RoomsReport) -> f64| median_of(reports, figure);
    let per_room = (rooms - 1) as f64;
    let mut out = format!("medians of {} rounds, {rooms} rooms, one person and the watcher in each:\n", reports.len());
    out.push_str(&format!(
        "| figure | 1 room | {rooms} rooms | per added room | after a command in each | after a restart |\n"
    ));
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for (k, name) in Footprint::NAMES.iter().enumerate() {
        let one = m(&|r| r.one_room.bytes()[k] as f64);
        let all = m(&|r| r.all_rooms.bytes()[k] as f64);
        let commands = m(&|r| r.after_commands.bytes()[k] as f64);
        let after = m(&|r| r.after_restart.bytes()[k] as f64);
        out.push_str(&format!(
            "| {name} | {} MiB | {} MiB | {:.1} KiB | {} MiB | {} MiB |\n",
            mib(one as u64),
            mib(all as u64),
            (all - one) / per_room / 1024.0,
            mib(commands as u64),
            mib(after as u64),
        ));
    }
    out.push_str(&format!(
        "| the bot's time on the CPU since its start | {:.2} s | {:.2} s | {:.1} ms | {:.2} s | {:.2} s (since the restart) |\n",
        m(&|r| secs(r.one_room.cpu)),
        m(&|r| secs(r.all_rooms.cpu)),
        m(&|r| ms(r.all_rooms.cpu.saturating_sub(r.one_room.cpu))) / per_room,
        m(&|r| secs(r.after_commands.cpu)),
        m(&|r| secs(r.after_restart.cpu)),
    ));
    out.push_str(&format!(
        "joining and greeting: the first room {:.2} s after the bot's start; the other {} in {:.2} s from \
         the first invitation (the last greeting {:+.2} s from when the last room was made)\n",
        m(&|r| secs(r.first_greeting)),
        rooms - 1,
        m(&|r| secs(r.greet_all)),
        m(&|r| r.greet_after_last_room),
    ));
    out.push_str(&format!(
        "`{COMMAND}` in all {rooms} rooms at once: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms; all answered in \
         {:.2} s\n",
        m(&|r| ms(r.commands.p50)),
        m(&|r| ms(r.commands.p99)),
        m(&|r| ms(r.commands.max)),
        m(&|r| secs(r.commands.elapsed)),
    ));
    out.push_str(&format!(
        "restart: SIGTERM took {:.2} s; with `{COMMAND}` waiting in every room, the first answer {:.2} s and \
         the last {:.2} s after the new start\n",
        m(&|r| secs(r.stop)),
        m(&|r| secs(r.restart_first)),
        m(&|r| secs(r.restart_all)),
    ));
    out.push_str(&format!(
        "Synapse's own pace, the bot stopped: the waiting commands sent in {:.2} s ({SENDERS} at once); one message \
         in every room sent in {:.2} s ({PACE_SENDERS} at once)\n",
        m(&|r| secs(r.waiting_sent)),
        m(&|r| secs(r.pace)),
    ));
    out.push_str(&format!(
        "Synapse's processor time: the restart {:.2} s ({:.1} ms an answer); one message in every room {:.2} s \
         ({:.1} ms an event); rows of `event_push_actions` after the restart: the bot's {:.0}, everyone's {:.0}\n",
        m(&|r| secs(r.synapse_cpu_restart)),
        m(&|r| ms(r.synapse_cpu_restart)) / rooms as f64,
        m(&|r| secs(r.synapse_cpu_pace)),
        m(&|r| ms(r.synapse_cpu_pace)) / rooms as f64,
        m(&|r| r.push_actions_bot as f64),
        m(&|r| r.push_actions_all as f64),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_comes_out_of_proc_stat() {
        // A command name with a space and a parenthesis; utime 250 and stime 50 ticks at 100 a second.
        let stat = "4242 (capa bot) x) S 1 4242 4242 0 -1 4194560 1200 0 0 0 250 50 0 0 20 0 9 0 100 0 0";
        assert_eq!(parse_cpu(stat, 100), Some(Duration::from_millis(3000)));
        assert_eq!(parse_cpu(stat, 1000), Some(Duration::from_millis(300)));
        assert_eq!(parse_cpu("4242 (capabot) S 1 2", 100), None, "too few fields");
        assert_eq!(parse_cpu(stat, 0), None);
    }

    #[test]
    fn memory_comes_out_of_proc_status() {
        let status = "Name:\tcapabot\nVmPeak:\t  900000 kB\nVmHWM:\t   61234 kB\nVmRSS:\t   50321 kB\nThreads:\t9\n";
        assert_eq!(parse_status(status), Some(Memory { rss_kib: 50321, hwm_kib: 61234 }));
        assert_eq!(parse_status("Name:\tkthreadd\nVmRSS:\t12 kB\n"), None, "no VmHWM");
        assert_eq!(parse_status("VmRSSx:\t1 kB\nVmHWM:\t2 kB\n"), None, "a longer field name is not VmRSS");
        let own = memory_of(std::process::id()).unwrap();
        assert!(own.rss_kib > 0 && own.hwm_kib >= own.rss_kib, "{own:?}");
    }

    #[test]
    fn ids_become_one_path_segment() {
        assert_eq!(path_segment("!AbC-9_x:localhost"), "%21AbC-9_x%3Alocalhost");
        assert_eq!(path_segment("@a/b c:x"), "%40a%2Fb%20c%3Ax");
    }

    #[test]
    fn sizes_on_disk_add_up_a_tree() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.sqlite3"), [0u8; 100]).unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub").join("b"), [0u8; 23]).unwrap();
        assert_eq!(size_on_disk(dir.path()), 123);
        assert_eq!(size_on_disk(&dir.path().join("a.sqlite3")), 100);
        assert_eq!(size_on_disk(&dir.path().join("missing")), 0);
    }

    #[test]
    fn a_sync_answer_gives_its_messages_in_order() {
        let answer = json!({ "rooms": { "join": { "!r:x": { "timeline": { "events": [
            { "type": "m.room.message", "sender": "@p:x", "content": { "body": "!variants" }, "origin_server_ts": 5 },
            { "type": "m.room.member", "sender": "@p:x", "content": {}, "origin_server_ts": 6 },
            { "type": "m.room.message", "sender": "@bot:x", "content": { "body": "…" }, "origin_server_ts": 9 },
        ] } } } } });
        let seen = messages_in(&answer);
        assert_eq!(seen.len(), 2);
        assert_eq!((seen[0].sender.as_str(), seen[0].body.as_str(), seen[0].ts), ("@p:x", "!variants", 5));
        assert_eq!((seen[1].room.as_str(), seen[1].sender.as_str(), seen[1].ts), ("!r:x", "@bot:x", 9));
        assert!(messages_in(&json!({})).is_empty());
    }
}

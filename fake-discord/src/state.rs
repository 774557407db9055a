//! The fake's memory: the world (users, channels, messages, interactions, commands), what the
//! bot sent, every REST request, and the gateway session with its replay log.
//!
//! One `std::sync::Mutex` guards it all; it is never held across an `.await`.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Mutex, MutexGuard};

use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};

use crate::config::FakeConfig;
use crate::payloads::{self, InteractionBase, snowflake};

/// First id the fake hands out; below it, ids belong to the test's configuration.
const FIRST_ID: u64 = 1_200_000_000_000_000_000;

/// The state and the signals around it, shared by the server tasks and the test handle.
pub struct Shared {
    state: Mutex<State>,
    /// Bumped after every REST request and gateway message, to wake waiting tests.
    pub changes: watch::Sender<u64>,
    /// Whether gateway connections may proceed (false between drop and reopen).
    pub gateway_open: watch::Sender<bool>,
    addr: SocketAddr,
}

impl Shared {
    pub fn new(config: FakeConfig, addr: SocketAddr) -> Shared {
        Shared {
            state: Mutex::new(State::new(config)),
            changes: watch::channel(0).0,
            gateway_open: watch::channel(true).0,
            addr,
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking test thread must not hide the state from the others.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn notify(&self) {
        self.changes.send_modify(|count| *count += 1);
    }

    pub fn gateway_url(&self) -> String {
        format!("ws://{}/gateway", self.addr)
    }

    pub fn set_gateway_open(&self, open: bool) {
        self.gateway_open.send_replace(open);
    }
}

/// A REST request as received.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    pub method: String,
    /// The path, e.g. `/api/v10/channels/11/messages`.
    pub path: String,
    pub query: Option<String>,
    /// The JSON body (`payload_json` for multipart); `Null` when there was none.
    pub body: Value,
    /// The HTTP status the fake answered.
    pub status: u16,
    /// True when no route matched (answered 404).
    pub unexpected: bool,
    /// The `X-RateLimit-Scope` of a 429 (`user`, `global`): which limit refused it.
    pub limit_scope: Option<String>,
    /// When the request arrived.
    pub at: std::time::Instant,
}

/// A file the bot uploaded, checked to be a PNG image.
#[derive(Clone)]
pub struct ReceivedFile {
    /// The multipart field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
    /// Width and height when the bytes decode as the picture their file name says (`.png`, `.gif`),
    /// else why they do not; `Ok((0, 0))` for a file that is not a picture (a `.pgn`).
    pub image: Result<(u32, u32), String>,
    /// The frames of a picture: 1 for a PNG, one per frame for a GIF, 0 for other files.
    pub frames: usize,
}

/// Without the bytes, which would drown a failing test's message.
impl std::fmt::Debug for ReceivedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceivedFile")
            .field("field", &self.field)
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .field("image", &self.image)
            .field("frames", &self.frames)
            .finish()
    }
}

/// What kind of thing the bot sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SentKind {
    /// `POST /channels/{id}/messages`.
    Message,
    /// `PATCH` of a message, an interaction's original response or a follow-up.
    Edit,
    /// `DELETE` of a message, an original response or a follow-up.
    Delete,
    /// `POST /interactions/{id}/{token}/callback` with this callback type.
    InteractionResponse { callback_type: u64 },
    /// `POST /webhooks/{app}/{token}`.
    FollowUp,
    /// A thread the bot started.
    Thread,
}

/// One thing the bot sent (or did) through REST.
#[derive(Clone, Debug)]
pub struct Sent {
    pub kind: SentKind,
    pub channel_id: Option<u64>,
    /// The message created, edited or deleted (for a thread: the thread's id).
    pub message_id: Option<u64>,
    /// The interaction answered, for responses, follow-ups and their edits.
    pub interaction_id: Option<u64>,
    /// The JSON the bot sent (for callbacks: their `data`).
    pub payload: Value,
    pub files: Vec<ReceivedFile>,
    /// The `allowed_mentions` the bot sent with it, if any.
    pub allowed_mentions: Option<Value>,
    /// When the fake received it (for latency measurements).
    pub at: std::time::Instant,
}

impl Sent {
    /// Whether this is the bot's answer to `interaction`: its response with a message, the edit of
    /// a deferred one, or a follow-up.
    pub fn answers(&self, interaction: u64) -> bool {
        self.interaction_id == Some(interaction)
            && matches!(
                self.kind,
                SentKind::InteractionResponse { callback_type: 4 } | SentKind::Edit | SentKind::FollowUp
            )
    }

    /// Whether only the user who acted sees it (flag 64, EPHEMERAL).
    pub fn is_ephemeral(&self) -> bool {
        self.payload["flags"].as_u64().is_some_and(|f| f & 64 != 0)
    }

    /// The text content, if the payload has one.
    pub fn content(&self) -> Option<&str> {
        self.payload["content"].as_str()
    }

    /// The `custom_id`s of the buttons and menus in the payload's components.
    pub fn custom_ids(&self) -> Vec<String> {
        let rows = self.payload["components"].as_array().cloned().unwrap_or_default();
        let components = rows.iter().flat_map(|row| row["components"].as_array().cloned().unwrap_or_default());
        components.filter_map(|component| component["custom_id"].as_str().map(str::to_owned)).collect()
    }

    /// The autocomplete choices' values (callback type 8).
    pub fn choices(&self) -> Vec<Value> {
        let choices = self.payload["choices"].as_array().cloned().unwrap_or_default();
        choices.into_iter().map(|choice| choice["value"].clone()).collect()
    }
}

/// An interaction the test created, to correlate the bot's answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    pub id: u64,
    pub token: String,
}

/// How [`crate::FakeDiscord::drop_gateway_with`] ends the connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GatewayDrop {
    /// Close the TCP connection without a WebSocket close frame.
    Abort,
    /// Send a close frame with this code (4000–4009 are Discord's; serenity warns on most).
    Close(u16),
    /// Send op 7 Reconnect and stop dispatching on this connection.
    Reconnect,
}

/// What a gateway connection task must write next.
#[derive(Clone, Debug)]
pub enum Outgoing {
    Text(String),
    Close(u16),
    Abort,
}

/// An interaction's progress, keyed by token.
pub struct InteractionRecord {
    pub id: u64,
    /// The interaction type: 2 command, 3 component, 4 autocomplete.
    pub kind: u8,
    pub channel: u64,
    pub acknowledged: bool,
    /// The message of the original response, once there is one.
    pub original: Option<u64>,
    /// For component interactions: the message whose component was used.
    pub source_message: Option<u64>,
    /// When it was created: its token answers for [`crate::FakeConfig::interaction_lifetime`].
    pub created: std::time::Instant,
    /// Who acted.
    pub user: u64,
    /// The messages its token made (the original response and follow-ups): the only ones it may
    /// edit or delete by id.
    pub made: Vec<u64>,
    /// Authorized by people's own installations only (the app is not installed where it was
    /// used): Discord then takes at most [`crate::USER_INSTALL_FOLLOW_UPS`] follow-ups.
    pub user_installed_only: bool,
    /// The follow-ups made with its token.
    pub follow_ups: usize,
}

pub struct Connection {
    pub tx: mpsc::UnboundedSender<Outgoing>,
    /// The shard it identified or resumed as; `None` until then.
    pub shard: Option<u32>,
    /// Identified or resumed: dispatches go out on it.
    pub live: bool,
}

pub struct Session {
    pub id: String,
    /// The shard this session serves: `[id, total]` as IDENTIFY named it.
    pub shard: [u32; 2],
    pub seq: u64,
    /// Every dispatch of the session as sent: (seq, frame text), for RESUME replays.
    pub log: Vec<(u64, String)>,
}

/// The gateway as Discord runs it for one bot: one session per shard, each guild's events on the
/// shard `(guild_id >> 22) % shard_total` and direct messages on shard 0.
#[derive(Default)]
pub struct GatewayState {
    pub ops_received: Vec<u64>,
    pub identifies: Vec<Value>,
    pub queries: Vec<String>,
    /// The sessions by shard id.
    pub sessions: BTreeMap<u32, Session>,
    /// The shard count the sessions identified with (1 before the first IDENTIFY).
    pub shard_total: u32,
    /// Events dispatched before their shard had a session, sent after its READY.
    pub before_session: Vec<(String, Value)>,
    /// The open WebSocket connections by id.
    pub connections: BTreeMap<u64, Connection>,
    pub sessions_started: u64,
    pub connections_opened: u64,
    /// When each identify bucket (shard id modulo `max_concurrency`) last identified.
    pub last_identify: HashMap<u32, std::time::Instant>,
}

impl GatewayState {
    fn total(&self) -> u32 {
        self.shard_total.max(1)
    }

    /// Every shard of the identified total has a live connection.
    pub fn is_live(&self) -> bool {
        (0..self.total()).all(|shard| self.live_connection(shard).is_some())
    }

    /// The shards with a live session: `[id, total]` each, in shard order.
    pub fn live_shards(&self) -> Vec<[u32; 2]> {
        let sessions = self.sessions.iter();
        sessions.filter(|(shard, _)| self.live_connection(**shard).is_some()).map(|(_, s)| s.shard).collect()
    }

    fn live_connection(&self, shard: u32) -> Option<&Connection> {
        self.connections.values().find(|connection| connection.live && connection.shard == Some(shard))
    }

    /// The shard whose session receives an event: its guild's (from `guild_id`, or `id` in the
    /// guild events themselves), shard 0 for everything else (direct messages).
    pub fn shard_of(&self, event: &str, data: &Value) -> u32 {
        let guild_event = matches!(event, "GUILD_CREATE" | "GUILD_UPDATE" | "GUILD_DELETE");
        let guild = if guild_event { &data["id"] } else { &data["guild_id"] };
        snowflake(guild).map_or(0, |id| self.shard_of_guild(id))
    }

    /// The shard of a guild's events: `(guild_id >> 22) % total`.
    pub fn shard_of_guild(&self, guild: u64) -> u32 {
        ((guild >> 22) % u64::from(self.total())) as u32
    }

    /// Writes to one connection (a closed receiver means its task already ended).
    pub fn send_to(&self, connection: u64, outgoing: Outgoing) {
        if let Some(connection) = self.connections.get(&connection) {
            let _ = connection.tx.send(outgoing);
        }
    }

    /// Sends one dispatch in its shard's session (or keeps it for that shard's first session).
    pub fn dispatch(&mut self, event: &str, data: Value) {
        let shard = self.shard_of(event, &data);
        self.dispatch_on(shard, event, data);
    }

    /// Sends one dispatch in `shard`'s session (or keeps it for that shard's first session).
    pub fn dispatch_on(&mut self, shard: u32, event: &str, data: Value) {
        let Some(session) = self.sessions.get_mut(&shard) else {
            self.before_session.push((event.to_owned(), data));
            return;
        };
        session.seq += 1;
        let frame = json!({ "op": 0, "s": session.seq, "t": event, "d": data }).to_string();
        session.log.push((session.seq, frame.clone()));
        if let Some(connection) = self.live_connection(shard) {
            let _ = connection.tx.send(Outgoing::Text(frame));
        }
    }

    /// Ends every connection in the given way.
    pub fn disconnect(&mut self, how: GatewayDrop) {
        let outgoing = match how {
            GatewayDrop::Abort => Outgoing::Abort,
            GatewayDrop::Close(code) => Outgoing::Close(code),
            GatewayDrop::Reconnect => Outgoing::Text(json!({ "op": 7, "d": null }).to_string()),
        };
        for connection in self.connections.values_mut() {
            let _ = connection.tx.send(outgoing.clone());
            connection.live = false;
        }
    }

    /// Makes `connection` the one serving `shard`, ending any other connection that served it.
    pub fn claim_shard(&mut self, connection: u64, shard: u32) {
        for (id, other) in &mut self.connections {
            if *id != connection && other.shard == Some(shard) {
                let _ = other.tx.send(Outgoing::Abort);
                other.live = false;
                other.shard = None;
            }
        }
        if let Some(mine) = self.connections.get_mut(&connection) {
            mine.shard = Some(shard);
            mine.live = true;
        }
    }

    /// Dispatches again, under a new sequence number, the latest event (in any shard's session)
    /// for which `matches` (given the event name and data) is true. A new number keeps the
    /// client's sequence tracking happy; the client sees the same event twice, as after an
    /// at-least-once replay.
    pub fn redeliver_where(&mut self, matches: impl Fn(&str, &Value) -> bool) {
        let mut frames: Vec<(u64, Value)> = Vec::new();
        for session in self.sessions.values() {
            for (seq, frame) in session.log.iter().rev() {
                if let Ok(frame) = serde_json::from_str::<Value>(frame)
                    && matches(frame["t"].as_str().unwrap_or_default(), &frame["d"])
                {
                    frames.push((*seq, frame));
                    break;
                }
            }
        }
        // With several sessions, the one written last: sequence numbers are per session, so the
        // order of writing is not known across them; tests that redeliver use one shard.
        let frame = frames.into_iter().max_by_key(|(seq, _)| *seq).map(|(_, frame)| frame);
        let frame = frame.expect("fake Discord: no dispatched event matches, nothing to redeliver");
        self.dispatch(frame["t"].as_str().unwrap_or_default(), frame["d"].clone());
    }
}

/// A command's options as Discord sends them: each with the type the command registered for it,
/// a string option's value as text; in an autocomplete request (`autocomplete`) every value is the
/// text the user typed, unvalidated, so a number arrives as a string. A subcommand (type 1) or
/// group (2) carries its own options, sent the same way. Discord's client offers only what was
/// registered: one subcommand where the command has them, and no option of another name.
/// (Bounds and choices are the client's business too; a test may send any value, as a modified
/// client could, to see the bot refuse it.)
///
/// # Panics
/// If the options are not what the client could send for `command`.
fn as_sent(command: &Value, options: Value, autocomplete: bool) -> Value {
    let Value::Array(mut options) = options else { return options };
    let registered = command["options"].as_array().map_or(&[][..], Vec::as_slice);
    let name = command["name"].as_str().unwrap_or_default();
    let nested = |o: &Value| matches!(o["type"].as_u64(), Some(1 | 2));
    if registered.iter().any(nested) {
        assert_eq!(options.len(), 1, "fake Discord: /{name} is run as one of its subcommands, not {options:?}");
    }
    for option in &mut options {
        let Some(spec) = registered.iter().find(|spec| spec["name"] == option["name"]) else {
            panic!("fake Discord: /{name} has no option {}", option["name"]);
        };
        option["type"] = spec["type"].clone();
        if option["focused"] == json!(true) {
            assert!(
                autocomplete && spec["autocomplete"] == json!(true),
                "fake Discord: /{name}'s option {} has no autocomplete, so no client focuses it",
                option["name"]
            );
        }
        if nested(spec) {
            let inner = option.get_mut("options").map(Value::take).unwrap_or_else(|| json!([]));
            option["options"] = as_sent(spec, inner, autocomplete);
            continue;
        }
        // A string option holds the text typed, whatever it looks like.
        let text = autocomplete || option["type"] == 3;
        if text && let Some(value) = option.get_mut("value") {
            *value = match value.take() {
                Value::String(text) => Value::String(text),
                other => Value::String(other.to_string()),
            };
        }
    }
    Value::Array(options)
}

/// The values of a command's user options (type 6), in its subcommands too.
fn user_options(options: &Value, out: &mut Vec<u64>) {
    for option in options.as_array().map_or(&[][..], Vec::as_slice) {
        match option["type"].as_u64() {
            Some(6) => out.extend(snowflake(&option["value"])),
            Some(1 | 2) => user_options(&option["options"], out),
            _ => {}
        }
    }
}

/// Where a request stands against the rate limits ([`State::rate_limit`]).
pub struct RateLimitState {
    pub bucket: String,
    pub limit: u32,
    pub remaining: u32,
    pub reset_after: std::time::Duration,
    /// The request is over a limit: it gets 429.
    pub over: bool,
    /// The limit it is over is the global one.
    pub global: bool,
}

/// A route's bucket path: the major parameter (the id after `channels`, `guilds`, `webhooks`
/// and `applications`, and a webhook's token) kept, other ids as `:id`.
fn bucket_path(route: &str) -> String {
    let mut previous = "";
    let mut parts = Vec::new();
    for segment in route.split('/') {
        let major = ["channels", "guilds", "webhooks", "applications"].contains(&previous);
        let token = parts.len() >= 2 && parts[parts.len() - 2] == "webhooks";
        let id = !segment.is_empty() && segment.bytes().all(|b| b.is_ascii_digit());
        parts.push(if id && !major && !token { ":id".to_owned() } else { segment.to_owned() });
        previous = segment;
    }
    parts.join("/")
}

/// The user ids a message's content mentions (`<@id>` or `<@!id>`), in the order typed.
fn mentioned_ids(content: &str) -> Vec<u64> {
    let mut ids = Vec::new();
    for (at, _) in content.match_indices("<@") {
        let rest = content[at + 2..].trim_start_matches('!');
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if rest[digits.len()..].starts_with('>')
            && let Ok(id) = digits.parse::<u64>()
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    ids
}

/// A failure the fake answers instead of (or after) doing what a request asks, as Discord does
/// under load: switched on by the tests, for the requests whose method and path match.
#[derive(Clone, Debug)]
pub struct Fault {
    pub method: String,
    /// A part of the path (`/messages`, `/callback`, `/webhooks/`).
    pub path_contains: String,
    pub kind: FaultKind,
    /// How many matching requests get it.
    pub times: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum FaultKind {
    /// 429 with Discord's headers and body (`retry_after` in seconds; `global` for the global
    /// limit, whose answer also carries `X-RateLimit-Global` and `X-RateLimit-Scope: global`).
    RateLimited { retry_after: f64, global: bool },
    /// A 5xx status with a plain-text body, as Discord's edge answers when a backend fails.
    ServerError(u16),
    /// The request is carried out, but its answer is lost: the client sees a 503.
    AnswerLost,
    /// The request is carried out at once (what it makes is seen, its events dispatched) and
    /// answered only after this long: a slow backend, or a client far away.
    Late(std::time::Duration),
    /// The connection is accepted and the request read, and no answer ever comes (a stalled
    /// backend): only the client's own timeout ends the wait.
    Hang,
}

/// Everything the fake knows and recorded.
pub struct State {
    pub config: FakeConfig,
    /// Failures to answer, in order ([`Fault`]).
    pub faults: Vec<Fault>,
    next_id: u64,
    pub requests: Vec<RecordedRequest>,
    pub sent: Vec<Sent>,
    pub users: HashMap<u64, Value>,
    /// Channel id → channel object (guild channels, threads, DMs).
    pub channels: HashMap<u64, Value>,
    pub messages: HashMap<u64, Value>,
    /// When each message made with a nonce was made (message id → instant): its nonce is
    /// remembered for [`crate::FakeConfig::nonce_lifetime`].
    pub nonces_made: HashMap<u64, std::time::Instant>,
    /// User id → their DM channel with the bot.
    pub dm_channels: HashMap<u64, u64>,
    pub closed_dms: HashSet<u64>,
    /// Users with whom even opening a DM channel fails with 50007 (as for a user who shares no
    /// server with the bot).
    pub refused_dm_channels: HashSet<u64>,
    /// Guilds the bot was removed from ([`crate::FakeDiscord::remove_bot_from_guild`]).
    pub left_guilds: HashSet<u64>,
    /// Users who installed the app to their own account ([`crate::FakeDiscord::install_for_user`]).
    pub user_installs: HashSet<u64>,
    /// Group DMs (channel type 3): the bot is no member, so every channel route answers 403 Missing
    /// Access there; only interactions reach them.
    pub group_dms: HashSet<u64>,
    /// The person whose interaction made each message answering one (message id → user id).
    pub interaction_message_users: HashMap<u64, u64>,
    pub interactions: HashMap<String, InteractionRecord>,
    /// Where each [`Sent`] is also sent as it happens ([`crate::FakeDiscord::sent_stream`]).
    pub sent_stream: Option<mpsc::UnboundedSender<Sent>>,
    /// Registered commands: `None` for global, `Some(guild)` per guild.
    pub commands: HashMap<Option<u64>, Vec<Value>>,
    /// The bot's permissions that interactions in a channel report (`app_permissions`); every
    /// permission where a channel is not listed.
    pub app_permissions: HashMap<u64, u64>,
    /// Users' client languages, sent as interactions' `locale` (`en-US` where a user is not listed).
    pub locales: HashMap<u64, String>,
    /// Servers' preferred languages, sent as interactions' `guild_locale` (`en-US` where not listed).
    pub guild_locales: HashMap<u64, String>,
    pub gateway: GatewayState,
    /// Requests counted per rate-limit bucket (`""` for the global one) in the current window.
    pub rate_windows: HashMap<String, (std::time::Instant, u32)>,
    /// Session starts counted against [`crate::config::SessionStartLimit`]: when its window
    /// began (the first `GET /gateway/bot` or IDENTIFY), and the starts before and after it reset.
    pub session_starts: Option<(std::time::Instant, u32, u32)>,
    /// What went wrong on the gateway that the bot should have avoided (an IDENTIFY with no
    /// session start left).
    pub gateway_problems: Vec<String>,
}

impl State {
    fn new(config: FakeConfig) -> State {
        let mut users = HashMap::new();
        users.insert(config.bot_id, payloads::user(config.bot_id, &config.bot_name, true));
        let mut channels = HashMap::new();
        for guild in &config.guilds {
            for member in &guild.members {
                users.insert(member.id, payloads::user(member.id, &member.name, false));
            }
            for channel in payloads::guild_channels(guild) {
                channels.insert(payloads::id_of(&channel), channel);
            }
        }
        State {
            config,
            faults: Vec::new(),
            next_id: FIRST_ID,
            requests: Vec::new(),
            sent: Vec::new(),
            users,
            channels,
            messages: HashMap::new(),
            nonces_made: HashMap::new(),
            dm_channels: HashMap::new(),
            closed_dms: HashSet::new(),
            refused_dm_channels: HashSet::new(),
            left_guilds: HashSet::new(),
            user_installs: HashSet::new(),
            group_dms: HashSet::new(),
            interaction_message_users: HashMap::new(),
            interactions: HashMap::new(),
            sent_stream: None,
            commands: HashMap::new(),
            app_permissions: HashMap::new(),
            locales: HashMap::new(),
            guild_locales: HashMap::new(),
            gateway: GatewayState::default(),
            rate_windows: HashMap::new(),
            session_starts: None,
            gateway_problems: Vec::new(),
        }
    }

    /// `session_start_limit` as `GET /gateway/bot` reports it now: the configured `remaining`
    /// less the starts made, until `reset_after` from the first look; then `total` less the starts
    /// made since, for a day.
    pub fn session_start_limit(&mut self) -> Value {
        let limit = self.config.session_start_limit;
        let now = std::time::Instant::now();
        let (since, before, after) = *self.session_starts.get_or_insert((now, 0, 0));
        let reset_at = since + limit.reset_after;
        let (remaining, reset_after) = if now < reset_at {
            (limit.remaining.saturating_sub(before), reset_at - now)
        } else {
            (limit.total.saturating_sub(after), std::time::Duration::from_secs(86_400))
        };
        json!({
            "total": limit.total,
            "remaining": remaining,
            "reset_after": reset_after.as_millis() as u64,
            "max_concurrency": limit.max_concurrency,
        })
    }

    /// Counts a session start (an IDENTIFY answered with READY); one with none left is a problem.
    pub fn count_session_start(&mut self) {
        if self.session_start_limit()["remaining"] == 0 {
            self.gateway_problems.push("IDENTIFY with no session start left (session_start_limit.remaining 0)".into());
        }
        let reset_after = self.config.session_start_limit.reset_after;
        if let Some((since, before, after)) = self.session_starts.as_mut() {
            if since.elapsed() < reset_after {
                *before += 1;
            } else {
                *after += 1;
            }
        }
    }

    /// The fault a request gets, if one matches (counting it down).
    pub fn take_fault(&mut self, method: &str, path: &str) -> Option<FaultKind> {
        let i =
            self.faults.iter().position(|f| f.method == method && path.contains(&f.path_contains) && f.times > 0)?;
        self.faults[i].times -= 1;
        let kind = self.faults[i].kind;
        if self.faults[i].times == 0 {
            self.faults.remove(i);
        }
        Some(kind)
    }

    /// Counts a request against the rate limits, when they are on: `None` when they are off or
    /// the route is not limited, else the bucket's state — whether the request is over the route's
    /// or the global limit, what remains and when the window resets. A request refused by the
    /// global limit never reached its route, so it does not count there.
    pub fn rate_limit(&mut self, method: &str, path: &str) -> Option<RateLimitState> {
        let limits = self.config.rate_limits?;
        let route = path.strip_prefix("/api/v10")?;
        if route.starts_with("/gateway") || route.starts_with("/interactions/") {
            return None;
        }
        // Follow-ups and edits of interaction answers use the application's id as webhook id.
        let interaction_webhook = route.starts_with(&format!("/webhooks/{}/", self.config.bot_id));
        let bucket = format!("{method} {}", bucket_path(route));
        let now = std::time::Instant::now();
        let windows = &mut self.rate_windows;
        let mut count = |key: &str, max: u32, window: std::time::Duration| {
            let (start, n) = windows.entry(key.to_owned()).or_insert((now, 0));
            if now.duration_since(*start) >= window {
                *start = now;
                *n = 0;
            }
            let over = *n >= max;
            if !over {
                *n += 1;
            }
            (over, max - *n, window.saturating_sub(now.duration_since(*start)))
        };
        if !interaction_webhook {
            let (over, _, reset_after) = count("", limits.global, limits.global_window);
            if over {
                let limit = limits.global;
                return Some(RateLimitState { bucket, limit, remaining: 0, reset_after, over, global: true });
            }
        }
        let (over, remaining, reset_after) = count(&bucket, limits.per_route, limits.window);
        Some(RateLimitState { bucket, limit: limits.per_route, remaining, reset_after, over, global: false })
    }

    /// The state a scripted 429 ([`FaultKind::RateLimited`]) announces: the request's bucket,
    /// empty until `retry_after` seconds from now.
    pub fn scripted_limit(&self, method: &str, path: &str, retry_after: f64, global: bool) -> RateLimitState {
        let route = path.strip_prefix("/api/v10").unwrap_or(path);
        let limit = self.config.rate_limits.map_or(5, |limits| if global { limits.global } else { limits.per_route });
        RateLimitState {
            bucket: format!("{method} {}", bucket_path(route)),
            limit,
            remaining: 0,
            reset_after: std::time::Duration::from_secs_f64(retry_after.max(0.0)),
            over: true,
            global,
        }
    }

    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn bot_user(&self) -> Value {
        self.users[&self.config.bot_id].clone()
    }

    /// Dispatches an event as the bot's session receives it: messages only with the intents
    /// that let them through, and their content only where Discord gives it (see
    /// [`Self::as_received`]).
    pub fn dispatch(&mut self, event: &str, data: Value) {
        let data = match event {
            "MESSAGE_CREATE" | "MESSAGE_UPDATE" => match self.as_received(data) {
                Some(data) => data,
                None => return,
            },
            _ => data,
        };
        self.gateway.dispatch(event, data);
    }

    /// A message as the bot's intents let it see it (the last IDENTIFY's; every intent before
    /// the first): guild messages need GUILD_MESSAGES and DMs DIRECT_MESSAGES, or the event is not
    /// sent; without MESSAGE_CONTENT a guild message arrives with empty content, embeds,
    /// attachments and components, unless it is the bot's own or mentions the bot. DMs always
    /// carry their content.
    fn as_received(&self, mut message: Value) -> Option<Value> {
        const GUILD_MESSAGES: u64 = 1 << 9;
        const DIRECT_MESSAGES: u64 = 1 << 12;
        const MESSAGE_CONTENT: u64 = 1 << 15;
        let Some(intents) = self.gateway.identifies.last().map(|identify| identify["intents"].as_u64().unwrap_or(0))
        else {
            return Some(message);
        };
        let in_guild = !message["guild_id"].is_null();
        let needed = if in_guild { GUILD_MESSAGES } else { DIRECT_MESSAGES };
        if intents & needed == 0 {
            return None;
        }
        let bot = self.config.bot_id.to_string();
        let own = message["author"]["id"] == bot.as_str();
        let mentions_bot =
            message["mentions"].as_array().is_some_and(|users| users.iter().any(|user| user["id"] == bot.as_str()));
        if in_guild && intents & MESSAGE_CONTENT == 0 && !own && !mentions_bot {
            message["content"] = json!("");
            for field in ["embeds", "attachments", "components"] {
                message[field] = json!([]);
            }
        }
        Some(message)
    }

    /// Sets a thread's `archived` and `locked`; returns the thread as THREAD_UPDATE carries it.
    pub fn set_thread_archived(&mut self, thread: u64, archived: bool, locked: bool) -> Value {
        let channel = self.channels.get_mut(&thread).filter(|channel| channel["type"] == 11);
        let channel = channel.unwrap_or_else(|| panic!("fake Discord: {thread} is not a thread"));
        channel["thread_metadata"]["archived"] = json!(archived);
        channel["thread_metadata"]["locked"] = json!(locked);
        channel.clone()
    }

    /// A thread's `(archived, locked)`; `None` for a channel that is not a thread.
    pub fn thread_archived(&self, channel: u64) -> Option<(bool, bool)> {
        let metadata = &self.channels.get(&channel)?.get("thread_metadata")?;
        Some((metadata["archived"] == true, metadata["locked"] == true))
    }

    /// A server's language (`preferred_locale`; `en-US` unless set).
    pub fn guild_locale(&self, guild: u64) -> &str {
        self.guild_locales.get(&guild).map_or("en-US", String::as_str)
    }

    /// The guild a channel belongs to, `None` for DMs.
    pub fn guild_of(&self, channel: u64) -> Option<u64> {
        self.channels.get(&channel).and_then(|channel| payloads::snowflake(&channel["guild_id"]))
    }

    /// The guild members (as gateway and REST show them), the bot included.
    pub fn guild_members(&self, guild: u64) -> Vec<Value> {
        let Some(spec) = self.config.guilds.iter().find(|spec| spec.id == guild) else {
            return Vec::new();
        };
        let mut members = vec![payloads::member(self.bot_user(), &[])];
        for member in &spec.members {
            members.push(payloads::member(self.users[&member.id].clone(), &member.roles));
        }
        members
    }

    /// A member object with its total `permissions`, as interactions carry it.
    fn member_with_permissions(&self, guild: u64, user: u64) -> Value {
        let spec = self.config.guilds.iter().find(|spec| spec.id == guild).expect("known guild");
        let roles = spec.members.iter().find(|member| member.id == user).map(|member| member.roles.clone());
        let roles = roles.unwrap_or_else(|| panic!("fake Discord: user {user} is not in guild {guild}"));
        let permissions = spec
            .roles
            .iter()
            .filter(|role| role.id == guild || roles.contains(&role.id))
            .fold(0, |bits, role| bits | role.permissions);
        let mut member = payloads::member(self.users[&user].clone(), &roles);
        member["permissions"] = json!(permissions.to_string());
        member
    }

    fn channel(&self, channel: u64) -> Value {
        let found = self.channels.get(&channel).cloned();
        found.unwrap_or_else(|| panic!("fake Discord: unknown channel {channel}"))
    }

    fn user(&self, user: u64) -> Value {
        let found = self.users.get(&user).cloned();
        found.unwrap_or_else(|| panic!("fake Discord: unknown user {user}"))
    }

    /// A message by a user, stored so that the bot may reply to or fetch it. Its `mentions` are
    /// the known users its content names (`<@id>`, `<@!id>`), each with its partial `member` in a
    /// guild. Discord does not promise they come in the order typed: the fake lists them by
    /// descending id, so that a bot which takes the list's order for the typed one is caught.
    pub fn user_message(&mut self, channel: u64, author: u64, content: &str) -> Value {
        self.user_reply(channel, author, content, None)
    }

    /// A message by a user; with `reply_to` (a message, and whether the reply pings its author)
    /// a reply as Discord sends it: `type` 19, `message_reference`, the whole
    /// `referenced_message`, and the replied author among the `mentions` when pinged although
    /// the text does not name them.
    pub fn user_reply(&mut self, channel: u64, author: u64, content: &str, reply_to: Option<(u64, bool)>) -> Value {
        let guild = payloads::snowflake(&self.channel(channel)["guild_id"]);
        let id = self.new_id();
        let mut message = payloads::message(id, channel, guild, self.user(author), content);
        if let Some(guild) = guild {
            message["member"] = self.partial_member(guild, author, &["user", "permissions"]);
        }
        let mut named = mentioned_ids(content);
        if let Some((replied, ping)) = reply_to {
            let found = self.messages.get(&replied).cloned();
            let referenced = found.unwrap_or_else(|| panic!("fake Discord: unknown message {replied}"));
            let replied_author = snowflake(&referenced["author"]["id"]).unwrap_or(0);
            if ping && !named.contains(&replied_author) {
                named.push(replied_author);
            }
            let mut reference = json!({ "message_id": replied.to_string(), "channel_id": channel.to_string() });
            if let Some(guild) = guild {
                reference["guild_id"] = json!(guild.to_string());
            }
            message["message_reference"] = reference;
            message["referenced_message"] = referenced;
            message["type"] = json!(19);
        }
        named.retain(|user| self.users.contains_key(user));
        named.sort_unstable_by(|a, b| b.cmp(a));
        named.dedup();
        let mentions: Vec<Value> = named
            .iter()
            .map(|&user| {
                let mut object = self.user(user);
                if let Some(guild) = guild.filter(|&guild| self.is_member(guild, user)) {
                    object["member"] = self.partial_member(guild, user, &["user", "permissions"]);
                }
                object
            })
            .collect();
        message["mentions"] = Value::Array(mentions);
        self.messages.insert(id, message.clone());
        message
    }

    /// The guilds the bot is in (all configured ones but those it was removed from).
    pub fn bot_guilds(&self) -> impl Iterator<Item = &crate::GuildSpec> {
        self.config.guilds.iter().filter(|spec| !self.left_guilds.contains(&spec.id))
    }

    /// Whether `user` shares a guild with the bot. Discord lets a bot message only users it shares
    /// a server with; a user the fake knows from no guild at all is let through.
    pub fn shares_guild_with_bot(&self, user: u64) -> bool {
        let known = self.config.guilds.iter().any(|spec| spec.members.iter().any(|m| m.id == user));
        !known || self.bot_guilds().any(|spec| spec.members.iter().any(|m| m.id == user))
    }

    fn is_member(&self, guild: u64, user: u64) -> bool {
        user == self.config.bot_id
            || self.config.guilds.iter().any(|spec| spec.id == guild && spec.members.iter().any(|m| m.id == user))
    }

    /// A member object without the given fields (messages carry members without `user`).
    fn partial_member(&self, guild: u64, user: u64, without: &[&str]) -> Value {
        let mut member = if user == self.config.bot_id {
            payloads::member(self.bot_user(), &[])
        } else {
            self.member_with_permissions(guild, user)
        };
        if let Value::Object(fields) = &mut member {
            for field in without {
                fields.remove(*field);
            }
        }
        member
    }

    pub fn dm_channel(&mut self, user: u64) -> u64 {
        if let Some(channel) = self.dm_channels.get(&user) {
            return *channel;
        }
        let id = self.new_id();
        let channel = payloads::dm_channel(id, self.user(user));
        self.channels.insert(id, channel);
        self.dm_channels.insert(user, id);
        id
    }

    /// A group DM among `users` (the first owns it); returns its id.
    pub fn group_dm(&mut self, users: &[u64]) -> u64 {
        let id = self.new_id();
        let recipients = users.iter().map(|&u| self.user(u)).collect();
        let channel = payloads::group_dm(id, users.first().copied().unwrap_or_default(), recipients);
        self.channels.insert(id, channel);
        self.group_dms.insert(id);
        id
    }

    /// Records a new interaction and dispatches INTERACTION_CREATE.
    fn interaction(&mut self, kind: u8, channel: u64, user: u64, data: Value, source: Option<u64>) -> Interaction {
        let id = self.new_id();
        let token = format!("interaction-token-{id}");
        let channel_object = self.channel(channel);
        let guild = self.guild_of(channel);
        let base = InteractionBase {
            id,
            application_id: self.config.bot_id,
            token: &token,
            channel: &channel_object,
            guild,
            member: guild.map(|guild| self.member_with_permissions(guild, user)).unwrap_or(Value::Null),
            user: self.user(user),
        };
        let mut interaction = payloads::interaction(base, kind, data);
        if let Some(g) = guild.filter(|g| self.left_guilds.contains(g)) {
            // In a server that has not installed the app, through the acting person's installation
            // only (context 0 still), with the permissions Discord reports where the bot is no
            // member; the server's own id is not among the owners.
            debug_assert!(!self.bot_guilds().any(|spec| spec.id == g));
            interaction["authorizing_integration_owners"] = json!({ "1": user.to_string() });
            interaction["app_permissions"] = Value::String(payloads::PRIVATE_CHANNEL_APP_PERMISSIONS.to_string());
        }
        if let Some(message) = source.filter(|_| self.group_dms.contains(&channel)) {
            // A button on an app's message in a group DM: authorized by the installation of
            // whoever used the command that made the message (anyone there may press it).
            let by = self.interaction_message_users.get(&message).copied().unwrap_or(user);
            interaction["authorizing_integration_owners"] = json!({ "1": by.to_string() });
        }
        if let Some(permissions) = self.app_permissions.get(&channel) {
            // An interaction's answer may always embed and attach, so Discord always reports those two.
            let answerable = permissions | (1 << 14) | (1 << 15);
            interaction["app_permissions"] = Value::String(answerable.to_string());
        }
        if let Some(locale) = self.locales.get(&user) {
            interaction["locale"] = Value::String(locale.clone());
        }
        if let Some(locale) = guild.and_then(|g| self.guild_locales.get(&g)) {
            interaction["guild_locale"] = Value::String(locale.clone());
        }
        if let Some(message) = source {
            let found = self.messages.get(&message).cloned();
            interaction["message"] = found.unwrap_or_else(|| panic!("fake Discord: unknown message {message}"));
        }
        let record = InteractionRecord {
            id,
            kind,
            channel,
            acknowledged: false,
            original: None,
            source_message: source,
            created: std::time::Instant::now(),
            user,
            made: Vec::new(),
            user_installed_only: interaction["authorizing_integration_owners"].get("0").is_none(),
            follow_ups: 0,
        };
        self.interactions.insert(token.clone(), record);
        self.dispatch("INTERACTION_CREATE", interaction);
        Interaction { id, token }
    }

    /// A slash command (`kind` 2) or an autocomplete request (`kind` 4) for a registered command.
    pub fn command_interaction(
        &mut self,
        kind: u8,
        channel: u64,
        user: u64,
        name: &str,
        options: Value,
    ) -> Interaction {
        let guild = self.guild_of(channel);
        // The global commands, then the guild's; only the one found is copied (the whole list,
        // every command with its options and translations, was copied for every interaction).
        let global = self.commands.get(&None).into_iter().flatten();
        let in_guild = guild.and_then(|_| self.commands.get(&guild)).into_iter().flatten();
        let command = global.chain(in_guild).find(|command| command["name"] == name).cloned();
        let command = command.unwrap_or_else(|| panic!("fake Discord: the bot has not registered /{name}"));
        // Discord offers a command only in the contexts it names (0 servers, 1 the bot's DMs, 2
        // group DMs and DMs among people), and in a group DM only to those who installed the app
        // to their account, for a command installable so.
        // A server without the bot (it was removed, or never added): only people who installed the
        // app to their account can use it there, and only its user-installable commands.
        let private_channel =
            self.group_dms.contains(&channel) || self.guild_of(channel).is_some_and(|g| self.left_guilds.contains(&g));
        if private_channel {
            assert!(self.user_installs.contains(&user), "fake Discord: user {user} has not installed the app");
            let installs = command["integration_types"].as_array().cloned().unwrap_or_default();
            assert!(installs.contains(&json!(1)), "fake Discord: /{name} cannot be installed to a user");
        }
        if let Some(contexts) = command["contexts"].as_array() {
            let here = if guild.is_some() {
                0
            } else if private_channel {
                2
            } else {
                1
            };
            assert!(
                contexts.contains(&json!(here)),
                "fake Discord: /{name} is not offered here (contexts {contexts:?})"
            );
        }
        let options = as_sent(&command, options, kind == 4);
        let resolved = self.resolved_users(guild, &options);
        let mut data = json!({ "id": command["id"], "name": name, "type": 1, "options": options });
        if let Some(resolved) = resolved {
            data["resolved"] = resolved;
        }
        if let Some(guild) = guild {
            data["guild_id"] = json!(guild.to_string());
        }
        self.interaction(kind, channel, user, data, None)
    }

    /// The `resolved` object of a command's data: the users its user options (type 6, in
    /// subcommands too) name and,
    /// in a guild, their partial members (without `user`, `deaf` and `mute`), as Discord sends.
    fn resolved_users(&self, guild: Option<u64>, options: &Value) -> Option<Value> {
        let mut ids = Vec::new();
        user_options(options, &mut ids);
        if ids.is_empty() {
            return None;
        }
        let (mut users, mut members) = (serde_json::Map::new(), serde_json::Map::new());
        for id in ids {
            users.insert(id.to_string(), self.user(id));
            if let Some(guild) = guild {
                members.insert(id.to_string(), self.partial_member(guild, id, &["user", "deaf", "mute"]));
            }
        }
        let mut resolved = json!({ "users": users });
        if guild.is_some() {
            resolved["members"] = Value::Object(members);
        }
        Some(resolved)
    }

    pub fn component_interaction(&mut self, channel: u64, user: u64, message: u64, data: Value) -> Interaction {
        self.interaction(3, channel, user, data, Some(message))
    }

    /// What went wrong on the fake's side: unexpected requests and non-PNG uploads.
    pub fn problems(&self) -> Vec<String> {
        let unexpected = self.requests.iter().filter(|request| request.unexpected);
        let mut problems: Vec<String> =
            unexpected.map(|request| format!("unexpected request {} {}", request.method, request.path)).collect();
        problems.extend(self.gateway_problems.iter().cloned());
        for file in self.sent.iter().flat_map(|sent| &sent.files) {
            if let Err(error) = &file.image {
                problems.push(format!("upload {} is not a valid picture: {error}", file.filename));
            }
        }
        problems
    }

    /// A readable account of requests, sends and gateway ops, for timeout messages.
    pub fn summary(&self) -> String {
        let mut text = String::from("REST requests:\n");
        for request in &self.requests {
            text.push_str(&format!("  {} {} -> {} {}\n", request.method, request.path, request.status, request.body));
        }
        text += "Sent by the bot:\n";
        for sent in &self.sent {
            text.push_str(&format!("  {:?} channel {:?}: {}\n", sent.kind, sent.channel_id, sent.payload));
        }
        text.push_str(&format!("Gateway ops received: {:?}\n", self.gateway.ops_received));
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RateLimits;
    use std::time::Duration;

    fn limited(limits: RateLimits) -> State {
        State::new(FakeConfig::new("t").rate_limits(limits))
    }

    /// (over, global, remaining) of one request.
    fn ask(state: &mut State, method: &str, path: &str) -> (bool, bool, u32) {
        let limit = state.rate_limit(method, path).expect("limited route");
        (limit.over, limit.global, limit.remaining)
    }

    #[test]
    fn each_channel_has_its_own_bucket_and_other_ids_share_it() {
        let mut state = limited(RateLimits::per_route(2, Duration::from_secs(60)));
        assert_eq!(ask(&mut state, "POST", "/api/v10/channels/1/messages"), (false, false, 1));
        assert_eq!(ask(&mut state, "POST", "/api/v10/channels/1/messages"), (false, false, 0));
        assert_eq!(ask(&mut state, "POST", "/api/v10/channels/1/messages"), (true, false, 0));
        // Another channel, another bucket; another message of the same channel, the same one.
        assert_eq!(ask(&mut state, "POST", "/api/v10/channels/2/messages"), (false, false, 1));
        assert_eq!(ask(&mut state, "PATCH", "/api/v10/channels/2/messages/7"), (false, false, 1));
        assert_eq!(ask(&mut state, "PATCH", "/api/v10/channels/2/messages/8"), (false, false, 0));
        assert_eq!(ask(&mut state, "PATCH", "/api/v10/channels/2/messages/9"), (true, false, 0));
        // A webhook's bucket is its id and token.
        assert_eq!(ask(&mut state, "POST", "/api/v10/webhooks/5/abc"), (false, false, 1));
        assert_eq!(ask(&mut state, "POST", "/api/v10/webhooks/5/abd"), (false, false, 1));
        assert!(state.rate_limit("POST", "/api/v10/interactions/1/abc/callback").is_none());
    }

    #[test]
    fn the_global_limit_spares_interactions_and_is_not_counted_twice() {
        let limits = RateLimits::per_route(10, Duration::from_secs(60)).global(2, Duration::from_secs(60));
        let mut state = limited(limits);
        assert!(!ask(&mut state, "GET", "/api/v10/channels/1").0);
        assert!(!ask(&mut state, "GET", "/api/v10/channels/2").0);
        assert_eq!(ask(&mut state, "GET", "/api/v10/channels/3"), (true, true, 0));
        // Interaction follow-ups (the application's webhook) are not bound by the global limit.
        let bot = state.config.bot_id;
        assert_eq!(ask(&mut state, "POST", &format!("/api/v10/webhooks/{bot}/tok")), (false, false, 9));
        // The refused request never reached its route: channel 3's bucket is untouched.
        state.rate_windows.remove("");
        assert_eq!(ask(&mut state, "GET", "/api/v10/channels/3"), (false, false, 9));
    }
}

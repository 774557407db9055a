//! The fake's memory: the world (users, channels, messages, interactions, commands), what the
//! bot sent, every REST request, and the gateway session with its replay log.
//!
//! One `std::sync::Mutex` guards it all; it is never held across an `.await`.

use std::collections::{HashMap, HashSet};
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
}

/// A file the bot uploaded, checked to be a PNG image.
#[derive(Clone)]
pub struct ReceivedFile {
    /// The multipart field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub bytes: Vec<u8>,
    /// Width and height when the bytes decode as a PNG, else why they do not.
    pub png: Result<(u32, u32), String>,
}

/// Without the bytes, which would drown a failing test's message.
impl std::fmt::Debug for ReceivedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceivedFile")
            .field("field", &self.field)
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .field("png", &self.png)
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
#[derive(Debug)]
pub enum Outgoing {
    Text(String),
    Close(u16),
    Abort,
}

/// An interaction's progress, keyed by token.
pub struct InteractionRecord {
    pub id: u64,
    pub channel: u64,
    pub acknowledged: bool,
    /// The message of the original response, once there is one.
    pub original: Option<u64>,
    /// For component interactions: the message whose component was used.
    pub source_message: Option<u64>,
}

pub struct Connection {
    pub id: u64,
    pub tx: mpsc::UnboundedSender<Outgoing>,
    /// Identified or resumed: dispatches go out on it.
    pub live: bool,
}

pub struct Session {
    pub id: String,
    pub seq: u64,
    /// Every dispatch of the session as sent: (seq, frame text), for RESUME replays.
    pub log: Vec<(u64, String)>,
}

#[derive(Default)]
pub struct GatewayState {
    pub ops_received: Vec<u64>,
    pub identifies: Vec<Value>,
    pub queries: Vec<String>,
    pub session: Option<Session>,
    /// Events dispatched before any session existed, sent after the first READY.
    pub before_session: Vec<(String, Value)>,
    pub connection: Option<Connection>,
    pub sessions_started: u64,
    pub connections_opened: u64,
}

impl GatewayState {
    pub fn is_live(&self) -> bool {
        self.connection.as_ref().is_some_and(|connection| connection.live)
    }

    pub fn send(&self, outgoing: Outgoing) {
        if let Some(connection) = &self.connection {
            // A closed receiver means the connection task already ended; nothing to do.
            let _ = connection.tx.send(outgoing);
        }
    }

    /// Sends one dispatch in the current session (or keeps it for the first session).
    pub fn dispatch(&mut self, event: &str, data: Value) {
        let live = self.is_live();
        let Some(session) = &mut self.session else {
            self.before_session.push((event.to_owned(), data));
            return;
        };
        session.seq += 1;
        let frame = json!({ "op": 0, "s": session.seq, "t": event, "d": data }).to_string();
        session.log.push((session.seq, frame.clone()));
        if live {
            self.send(Outgoing::Text(frame));
        }
    }

    pub fn disconnect(&mut self, how: GatewayDrop) {
        let outgoing = match how {
            GatewayDrop::Abort => Outgoing::Abort,
            GatewayDrop::Close(code) => Outgoing::Close(code),
            GatewayDrop::Reconnect => Outgoing::Text(json!({ "op": 7, "d": null }).to_string()),
        };
        self.send(outgoing);
        if let Some(connection) = &mut self.connection {
            connection.live = false;
        }
    }

    /// Dispatches again, under a new sequence number, the latest event for which `matches`
    /// (given the event name and data) is true. A new number keeps the client's sequence
    /// tracking happy; the client sees the same event twice, as after an at-least-once replay.
    pub fn redeliver_where(&mut self, matches: impl Fn(&str, &Value) -> bool) {
        let log = self.session.as_ref().map(|session| session.log.as_slice()).unwrap_or_default();
        let mut frames = log.iter().rev().filter_map(|(_, frame)| serde_json::from_str::<Value>(frame).ok());
        let found = frames.find(|frame| matches(frame["t"].as_str().unwrap_or_default(), &frame["d"]));
        let frame = found.expect("fake Discord: no dispatched event matches, nothing to redeliver");
        self.dispatch(frame["t"].as_str().unwrap_or_default(), frame["d"].clone());
    }
}

/// Everything the fake knows and recorded.
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
}

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
    /// User id → their DM channel with the bot.
    pub dm_channels: HashMap<u64, u64>,
    pub closed_dms: HashSet<u64>,
    /// Users with whom even opening a DM channel fails with 50007 (as for a user who shares no
    /// server with the bot).
    pub refused_dm_channels: HashSet<u64>,
    pub interactions: HashMap<String, InteractionRecord>,
    /// Where each [`Sent`] is also sent as it happens ([`crate::FakeDiscord::sent_stream`]).
    pub sent_stream: Option<mpsc::UnboundedSender<Sent>>,
    /// Registered commands: `None` for global, `Some(guild)` per guild.
    pub commands: HashMap<Option<u64>, Vec<Value>>,
    /// The bot's permissions that interactions in a channel report (`app_permissions`); every
    /// permission where a channel is not listed.
    pub app_permissions: HashMap<u64, u64>,
    pub gateway: GatewayState,
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
            dm_channels: HashMap::new(),
            closed_dms: HashSet::new(),
            refused_dm_channels: HashSet::new(),
            interactions: HashMap::new(),
            sent_stream: None,
            commands: HashMap::new(),
            app_permissions: HashMap::new(),
            gateway: GatewayState::default(),
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

    pub fn new_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    pub fn bot_user(&self) -> Value {
        self.users[&self.config.bot_id].clone()
    }

    pub fn dispatch(&mut self, event: &str, data: Value) {
        self.gateway.dispatch(event, data);
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

    /// A message by a user, stored so that the bot may reply to or fetch it.
    pub fn user_message(&mut self, channel: u64, author: u64, content: &str) -> Value {
        let guild = payloads::snowflake(&self.channel(channel)["guild_id"]);
        let id = self.new_id();
        let mut message = payloads::message(id, channel, guild, self.user(author), content);
        if let Some(guild) = guild {
            let mut member = self.member_with_permissions(guild, author);
            if let Value::Object(fields) = &mut member {
                fields.remove("user");
                fields.remove("permissions");
            }
            message["member"] = member;
        }
        self.messages.insert(id, message.clone());
        message
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
        if let Some(permissions) = self.app_permissions.get(&channel) {
            interaction["app_permissions"] = Value::String(permissions.to_string());
        }
        if let Some(message) = source {
            let found = self.messages.get(&message).cloned();
            interaction["message"] = found.unwrap_or_else(|| panic!("fake Discord: unknown message {message}"));
        }
        let record = InteractionRecord { id, channel, acknowledged: false, original: None, source_message: source };
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
        let mut registered = self.commands.get(&None).cloned().unwrap_or_default();
        if guild.is_some() {
            registered.extend(self.commands.get(&guild).cloned().unwrap_or_default());
        }
        let command = registered.into_iter().find(|command| command["name"] == name);
        let command = command.unwrap_or_else(|| panic!("fake Discord: the bot has not registered /{name}"));
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

    /// The `resolved` object of a command's data: the users its user options (type 6) name and,
    /// in a guild, their partial members (without `user`, `deaf` and `mute`), as Discord sends.
    fn resolved_users(&self, guild: Option<u64>, options: &Value) -> Option<Value> {
        let named = options.as_array()?.iter().filter(|option| option["type"] == 6);
        let ids: Vec<u64> = named.filter_map(|option| snowflake(&option["value"])).collect();
        if ids.is_empty() {
            return None;
        }
        let (mut users, mut members) = (serde_json::Map::new(), serde_json::Map::new());
        for id in ids {
            users.insert(id.to_string(), self.user(id));
            if let Some(guild) = guild {
                let mut member = self.member_with_permissions(guild, id);
                if let Value::Object(fields) = &mut member {
                    for field in ["user", "deaf", "mute"] {
                        fields.remove(field);
                    }
                }
                members.insert(id.to_string(), member);
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
        for file in self.sent.iter().flat_map(|sent| &sent.files) {
            if let Err(error) = &file.png {
                problems.push(format!("upload {} is not a valid PNG: {error}", file.filename));
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

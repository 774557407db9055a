//! The gateway: one WebSocket task per connection, speaking Discord's opcodes in plain JSON text
//! frames (serenity asks for no compression in the URL; its `compress: true` in IDENTIFY only
//! allows compressed payloads, so text is always fine).
//!
//! Every frame to the client goes through the connection's channel while the state is locked,
//! so dispatches from the test and replays on RESUME can never overtake each other.

use std::sync::Arc;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State as AxumState};
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::payloads;
use crate::state::{Connection, Outgoing, Session, Shared, State};

/// Discord's close code for a bad token in IDENTIFY or RESUME.
const AUTHENTICATION_FAILED: u16 = 4004;
/// Discord's close code for an opcode it does not know.
const UNKNOWN_OPCODE: u16 = 4001;
/// Discord's close code for a frame that is not JSON.
const DECODE_ERROR: u16 = 4002;
/// Discord's close code for a `shard` in IDENTIFY that is not `[id, total]` with `id < total`.
const INVALID_SHARD: u16 = 4010;
/// Discord's close code for an IDENTIFY with fewer shards than the bot's guilds need.
const SHARDING_REQUIRED: u16 = 4011;
/// Discord's close code for a privileged intent the application has not been granted.
const DISALLOWED_INTENTS: u16 = 4014;
/// The privileged Message Content intent's bit.
const MESSAGE_CONTENT: u64 = 1 << 15;

/// How much sooner than the identify interval an IDENTIFY may arrive: a client times its wait
/// from its own side (serenity 0.12.5 from the previous shard's connection, not its IDENTIFY),
/// and the fake's clock sees both after their trip; serenity's IDENTIFYs arrive up to a
/// millisecond early here.
const IDENTIFY_JITTER: std::time::Duration = std::time::Duration::from_millis(100);

/// How long a connection closed by the client may take to finish the close handshake.
const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// `GET /gateway`: upgrades to a WebSocket connection.
pub async fn upgrade(
    AxumState(shared): AxumState<Arc<Shared>>,
    RawQuery(query): RawQuery,
    ws: WebSocketUpgrade,
) -> Response {
    ws.on_upgrade(move |socket| run(shared, socket, query.unwrap_or_default()))
}

async fn run(shared: Arc<Shared>, mut socket: WebSocket, query: String) {
    // While the test holds the gateway down, the client's first frames wait in the socket.
    let mut open = shared.gateway_open.subscribe();
    if open.wait_for(|open| *open).await.is_err() {
        return;
    }
    let (tx, mut rx) = mpsc::unbounded_channel();
    let id = register(&shared, tx, query);
    shared.notify();
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    handle_frame(&shared, id, &text);
                    shared.notify();
                }
                // The close reply is queued by the WebSocket library and written by the next
                // read; reading to the end completes the client's clean shutdown.
                Some(Ok(Message::Close(_))) => {
                    let drain = async { while let Some(Ok(_)) = socket.recv().await {} };
                    let _ = tokio::time::timeout(CLOSE_GRACE, drain).await;
                    break;
                }
                Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            outgoing = rx.recv() => match outgoing {
                Some(Outgoing::Text(text)) => {
                    if socket.send(Message::Text(text.into())).await.is_err() {
                        break;
                    }
                }
                Some(Outgoing::Close(code)) => {
                    let frame = CloseFrame { code, reason: "".into() };
                    // The client may already be gone; the connection ends either way.
                    let _ = socket.send(Message::Close(Some(frame))).await;
                    break;
                }
                // Dropping the socket closes TCP without a close frame.
                Some(Outgoing::Abort) | None => break,
            }
        }
    }
    shared.lock().gateway.connections.remove(&id);
    shared.notify();
}

/// Opens a connection (no shard yet: IDENTIFY or RESUME says which) and says HELLO.
fn register(shared: &Shared, tx: mpsc::UnboundedSender<Outgoing>, query: String) -> u64 {
    let mut state = shared.lock();
    let interval = state.config.heartbeat_interval_ms;
    let gateway = &mut state.gateway;
    gateway.connections_opened += 1;
    let id = gateway.connections_opened;
    gateway.queries.push(query);
    gateway.connections.insert(id, Connection { tx, shard: None, live: false });
    gateway.send_to(id, Outgoing::Text(json!({ "op": 10, "d": { "heartbeat_interval": interval } }).to_string()));
    id
}

fn handle_frame(shared: &Shared, connection: u64, text: &str) {
    let mut state = shared.lock();
    // A connection replaced by another for its shard is ended; its last frames do nothing.
    if !state.gateway.connections.contains_key(&connection) {
        return;
    }
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        state.gateway.send_to(connection, Outgoing::Close(DECODE_ERROR));
        return;
    };
    let op = frame["op"].as_u64().unwrap_or(u64::MAX);
    state.gateway.ops_received.push(op);
    let data = &frame["d"];
    match op {
        1 => state.gateway.send_to(connection, Outgoing::Text(json!({ "op": 11 }).to_string())),
        2 => identify(&mut state, connection, data, &shared.gateway_url()),
        6 => resume(&mut state, connection, data),
        // Presence updates, voice state and member requests are accepted and ignored.
        3 | 4 | 8 => {}
        _ => state.gateway.send_to(connection, Outgoing::Close(UNKNOWN_OPCODE)),
    }
}

fn token_matches(state: &State, data: &Value) -> bool {
    let token = data["token"].as_str().unwrap_or_default();
    token.strip_prefix("Bot ").unwrap_or(token) == state.config.token
}

/// The `shard` of an IDENTIFY: `[id, total]` with `id < total`; `[0, 1]` when left out.
fn shard_of_identify(data: &Value) -> Option<[u32; 2]> {
    let Some(shard) = data.get("shard") else { return Some([0, 1]) };
    let number = |i: usize| shard.get(i).and_then(Value::as_u64).and_then(|n| u32::try_from(n).ok());
    match (shard.as_array().map(Vec::len), number(0), number(1)) {
        (Some(2), Some(id), Some(total)) if id < total => Some([id, total]),
        _ => None,
    }
}

/// IDENTIFY: a new session for the shard named, READY with the shard's guilds, one GUILD_CREATE
/// per guild of the shard, then that shard's events queued before it.
fn identify(state: &mut State, connection: u64, data: &Value, gateway_url: &str) {
    if !token_matches(state, data) {
        state.gateway.send_to(connection, Outgoing::Close(AUTHENTICATION_FAILED));
        return;
    }
    let Some(shard) = shard_of_identify(data) else {
        state.gateway.send_to(connection, Outgoing::Close(INVALID_SHARD));
        return;
    };
    state.gateway.identifies.push(data.clone());
    if !state.config.message_content_allowed && data["intents"].as_u64().unwrap_or(0) & MESSAGE_CONTENT != 0 {
        state.gateway.send_to(connection, Outgoing::Close(DISALLOWED_INTENTS));
        return;
    }
    if shard[1] < state.config.sharding_required {
        state.gateway.send_to(connection, Outgoing::Close(SHARDING_REQUIRED));
        return;
    }
    // Discord's identify rate limit: one IDENTIFY per bucket (shard id modulo max_concurrency)
    // per interval; a sooner one is refused with op 9 Invalid Session (not resumable).
    let interval = state.config.identify_interval;
    let bucket = shard[0] % state.config.session_start_limit.max_concurrency.max(1);
    let now = std::time::Instant::now();
    if let Some(last) = state.gateway.last_identify.get(&bucket)
        && now.duration_since(*last) + IDENTIFY_JITTER < interval
    {
        let problem = format!(
            "IDENTIFY of shard {} {:.3} s after the last one of its bucket {bucket} (max_concurrency {}): \
             Discord allows one every {:.1} s",
            shard[0],
            now.duration_since(*last).as_secs_f64(),
            state.config.session_start_limit.max_concurrency,
            interval.as_secs_f64(),
        );
        state.gateway_problems.push(problem);
        state.gateway.send_to(connection, Outgoing::Text(json!({ "op": 9, "d": false }).to_string()));
        return;
    }
    state.gateway.last_identify.insert(bucket, now);
    state.count_session_start();
    if state.gateway.shard_total != shard[1] {
        // Sharded anew: the sessions of the old count end.
        state.gateway.shard_total = shard[1];
        state.gateway.sessions.clear();
    }
    state.gateway.sessions_started += 1;
    let session_id = format!("fake-session-{}", state.gateway.sessions_started);
    state.gateway.sessions.insert(shard[0], Session { id: session_id.clone(), shard, seq: 0, log: Vec::new() });
    state.gateway.claim_shard(connection, shard[0]);
    let shard_guilds: Vec<_> =
        state.bot_guilds().filter(|guild| state.gateway.shard_of_guild(guild.id) == shard[0]).cloned().collect();
    let guilds: Vec<Value> =
        shard_guilds.iter().map(|guild| json!({ "id": guild.id.to_string(), "unavailable": true })).collect();
    let mut user = state.bot_user();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    let ready = json!({
        "v": 10,
        "user": user,
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": gateway_url,
        "shard": shard,
        "application": { "id": state.config.bot_id.to_string(), "flags": 0 },
    });
    // READY goes to the session just made (it carries no guild to route by).
    state.gateway.dispatch_on(shard[0], "READY", ready);
    // serenity sends 250 (Discord's default is 50, its most 250).
    let large_threshold = data["large_threshold"].as_u64().unwrap_or(50);
    for guild in shard_guilds {
        // Without the privileged GUILD_MEMBERS intent Discord sends only a few members (the bot
        // itself, and those in voice): the bot must not learn who administers from this list.
        let me = payloads::member(state.bot_user(), &[]);
        // The listed members, the bot and the unlisted ones.
        let count = guild.members.len() as u64 + 1 + guild.unlisted_members;
        let locale = state.guild_locale(guild.id);
        let owner = guild.owner.unwrap_or(state.config.bot_id);
        let create = payloads::guild_create(&guild, owner, locale, vec![me], (count, large_threshold));
        state.dispatch("GUILD_CREATE", create);
    }
    let queued = std::mem::take(&mut state.gateway.before_session);
    for (event, data) in queued {
        // Events for shards still without a session wait again.
        state.dispatch(&event, data);
    }
}

/// RESUME: replays the session's dispatches after the client's seq, then RESUMED; an unknown
/// session gets op 9 Invalid Session (not resumable), so the client identifies anew.
fn resume(state: &mut State, connection: u64, data: &Value) {
    if !token_matches(state, data) {
        state.gateway.send_to(connection, Outgoing::Close(AUTHENTICATION_FAILED));
        return;
    }
    let after = data["seq"].as_u64().unwrap_or(0);
    let gateway = &mut state.gateway;
    let Some(session) = gateway.sessions.values().find(|session| data["session_id"] == session.id.as_str()) else {
        gateway.send_to(connection, Outgoing::Text(json!({ "op": 9, "d": false }).to_string()));
        return;
    };
    let shard = session.shard[0];
    let missed: Vec<String> =
        session.log.iter().filter(|(seq, _)| *seq > after).map(|(_, frame)| frame.clone()).collect();
    for frame in missed {
        gateway.send_to(connection, Outgoing::Text(frame));
    }
    gateway.claim_shard(connection, shard);
    gateway.dispatch_on(shard, "RESUMED", json!({}));
}

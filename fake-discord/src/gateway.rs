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
    let mut state = shared.lock();
    if state.gateway.connection.as_ref().is_some_and(|connection| connection.id == id) {
        state.gateway.connection = None;
    }
    drop(state);
    shared.notify();
}

/// Makes this connection the current one (ending any other) and says HELLO.
fn register(shared: &Shared, tx: mpsc::UnboundedSender<Outgoing>, query: String) -> u64 {
    let mut state = shared.lock();
    let interval = state.config.heartbeat_interval_ms;
    let gateway = &mut state.gateway;
    gateway.connections_opened += 1;
    let id = gateway.connections_opened;
    gateway.queries.push(query);
    if let Some(old) = gateway.connection.replace(Connection { id, tx, live: false }) {
        let _ = old.tx.send(Outgoing::Abort);
    }
    gateway.send(Outgoing::Text(json!({ "op": 10, "d": { "heartbeat_interval": interval } }).to_string()));
    id
}

fn handle_frame(shared: &Shared, connection: u64, text: &str) {
    let mut state = shared.lock();
    if state.gateway.connection.as_ref().is_none_or(|current| current.id != connection) {
        return;
    }
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        state.gateway.send(Outgoing::Close(DECODE_ERROR));
        return;
    };
    let op = frame["op"].as_u64().unwrap_or(u64::MAX);
    state.gateway.ops_received.push(op);
    let data = &frame["d"];
    match op {
        1 => state.gateway.send(Outgoing::Text(json!({ "op": 11 }).to_string())),
        2 => identify(&mut state, data, &shared.gateway_url()),
        6 => resume(&mut state, data),
        // Presence updates, voice state and member requests are accepted and ignored.
        3 | 4 | 8 => {}
        _ => state.gateway.send(Outgoing::Close(UNKNOWN_OPCODE)),
    }
}

fn token_matches(state: &State, data: &Value) -> bool {
    let token = data["token"].as_str().unwrap_or_default();
    token.strip_prefix("Bot ").unwrap_or(token) == state.config.token
}

/// IDENTIFY: a new session, READY, one GUILD_CREATE per guild, then events queued before it.
fn identify(state: &mut State, data: &Value, gateway_url: &str) {
    if !token_matches(state, data) {
        state.gateway.send(Outgoing::Close(AUTHENTICATION_FAILED));
        return;
    }
    state.gateway.identifies.push(data.clone());
    state.gateway.sessions_started += 1;
    let session_id = format!("fake-session-{}", state.gateway.sessions_started);
    state.gateway.session = Some(Session { id: session_id.clone(), seq: 0, log: Vec::new() });
    if let Some(connection) = &mut state.gateway.connection {
        connection.live = true;
    }
    let guilds: Vec<Value> =
        state.bot_guilds().map(|guild| json!({ "id": guild.id.to_string(), "unavailable": true })).collect();
    let mut user = state.bot_user();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    let ready = json!({
        "v": 10,
        "user": user,
        "guilds": guilds,
        "session_id": session_id,
        "resume_gateway_url": gateway_url,
        "shard": data.get("shard").cloned().unwrap_or(json!([0, 1])),
        "application": { "id": state.config.bot_id.to_string(), "flags": 0 },
    });
    state.dispatch("READY", ready);
    let guilds: Vec<crate::GuildSpec> = state.bot_guilds().cloned().collect();
    for guild in guilds {
        // Without the privileged GUILD_MEMBERS intent Discord sends only a few members (the bot
        // itself, and those in voice): the bot must not learn who administers from this list.
        let me = payloads::member(state.bot_user(), &[]);
        let count = state.guild_members(guild.id).len();
        state.dispatch("GUILD_CREATE", payloads::guild_create(&guild, state.config.bot_id, vec![me], count));
    }
    for (event, data) in std::mem::take(&mut state.gateway.before_session) {
        state.dispatch(&event, data);
    }
}

/// RESUME: replays the session's dispatches after the client's seq, then RESUMED; an unknown
/// session gets op 9 Invalid Session (not resumable), so the client identifies anew.
fn resume(state: &mut State, data: &Value) {
    if !token_matches(state, data) {
        state.gateway.send(Outgoing::Close(AUTHENTICATION_FAILED));
        return;
    }
    let after = data["seq"].as_u64().unwrap_or(0);
    let gateway = &mut state.gateway;
    let Some(session) = gateway.session.as_ref().filter(|session| data["session_id"] == session.id.as_str()) else {
        gateway.send(Outgoing::Text(json!({ "op": 9, "d": false }).to_string()));
        return;
    };
    let missed: Vec<String> =
        session.log.iter().filter(|(seq, _)| *seq > after).map(|(_, frame)| frame.clone()).collect();
    for frame in missed {
        gateway.send(Outgoing::Text(frame));
    }
    if let Some(connection) = &mut gateway.connection {
        connection.live = true;
    }
    gateway.dispatch("RESUMED", json!({}));
}

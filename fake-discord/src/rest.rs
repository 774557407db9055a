//! The REST API v10 under `/api/v10`, plus the gateway's WebSocket at `/gateway`.
//!
//! Every request passes [`record`], which stores it, checks the `Authorization: Bot <token>`
//! header and bumps the change counter. A route the fake does not know answers 404 with
//! Discord's error shape and is marked unexpected. To fake another endpoint, add a route in
//! [`router`] and a handler that takes [`Payload`] for its body.

use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Path, Request, State as AxumState};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde_json::{Value, json};

use crate::payloads::{self, snowflake};
use crate::state::{FaultKind, RateLimitState, ReceivedFile, RecordedRequest, Sent, SentKind, Shared, State};
use crate::{commands, gateway};

/// The state every handler extracts.
type SharedState = AxumState<Arc<Shared>>;

/// The largest body the fake reads (Discord's own limit is lower).
const BODY_LIMIT: usize = 64 * 1024 * 1024;
/// Message content above this many characters is refused, as Discord does.
const CONTENT_LIMIT: usize = 2000;

pub fn router(shared: Arc<Shared>) -> Router {
    let api = Router::new()
        .route("/gateway", get(gateway_info))
        .route("/gateway/bot", get(gateway_bot))
        .route("/users/@me", get(current_user))
        .route("/users/@me/channels", post(create_dm))
        .route("/oauth2/applications/@me", get(application))
        .route("/applications/{app}/commands", put(set_global_commands).get(global_commands))
        .route("/applications/{app}/guilds/{guild}/commands", put(set_guild_commands).get(guild_commands))
        .route("/channels/{channel}", get(get_channel))
        .route("/channels/{channel}/messages", post(create_message))
        .route("/channels/{channel}/messages/{message}", get(get_message).patch(edit_message).delete(delete_message))
        .route("/channels/{channel}/messages/{message}/threads", post(thread_from_message))
        .route("/channels/{channel}/threads", post(thread_without_message))
        .route("/interactions/{id}/{token}/callback", post(interaction_callback))
        .route("/webhooks/{app}/{token}", post(create_followup))
        .route(
            "/webhooks/{app}/{token}/messages/{message}",
            get(get_webhook_message).patch(edit_webhook_message).delete(delete_webhook_message),
        )
        .route("/guilds/{guild}", get(get_guild))
        .route("/guilds/{guild}/members/{user}", get(get_member))
        .route("/guilds/{guild}/channels", get(get_guild_channels))
        .route("/guilds/{guild}/roles", get(get_guild_roles))
        .fallback(unexpected);
    Router::new()
        .nest("/api/v10", api)
        .route("/gateway", get(gateway::upgrade))
        .fallback(unexpected)
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), record))
        .with_state(shared)
}

/// The channel of a `/api/v10/channels/{id}…` path.
fn channel_of(path: &str) -> Option<u64> {
    path.strip_prefix("/api/v10/channels/")?.split('/').next()?.parse().ok()
}

/// Marks a response as coming from the fallback, for [`record`].
#[derive(Clone, Copy)]
struct Unexpected;

/// The index of the current request in [`State::requests`], for [`Payload`].
#[derive(Clone, Copy)]
struct RequestIndex(usize);

async fn record(AxumState(shared): SharedState, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, BODY_LIMIT).await else {
        return error(StatusCode::PAYLOAD_TOO_LARGE, 40005, "Request entity too large");
    };
    let path = parts.uri.path().to_owned();
    let is_json = content_type(&parts.headers).is_some_and(|kind| kind.starts_with("application/json"));
    let body_json = if is_json { serde_json::from_slice(&bytes).unwrap_or(Value::Null) } else { Value::Null };
    let index = {
        let mut state = shared.lock();
        state.config.keep_history.then(|| {
            state.requests.push(RecordedRequest {
                method: parts.method.to_string(),
                path: path.clone(),
                query: parts.uri.query().map(str::to_owned),
                body: body_json,
                status: 0,
                unexpected: false,
                limit_scope: None,
                at: std::time::Instant::now(),
            });
            state.requests.len() - 1
        })
    };
    if let Some(index) = index {
        parts.extensions.insert(RequestIndex(index));
    }
    // The bot is no member of a group DM: every channel route there answers Missing Access.
    let no_access = channel_of(&path).is_some_and(|channel| shared.lock().group_dms.contains(&channel));
    let fault = shared.lock().take_fault(parts.method.as_str(), &path);
    let limit = shared.lock().rate_limit(parts.method.as_str(), &path);
    let mut response = if needs_token(&path) && !authorized(&shared, &parts.headers) {
        error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized")
    } else if let Some(limit) = limit.as_ref().filter(|limit| limit.over) {
        rate_limited(limit)
    } else if no_access {
        ApiError::MISSING_ACCESS.into_response()
    } else {
        match fault {
            Some(FaultKind::RateLimited { retry_after, global }) => {
                rate_limited(&shared.lock().scripted_limit(parts.method.as_str(), &path, retry_after, global))
            }
            Some(FaultKind::ServerError(status)) => server_error(status),
            Some(FaultKind::AnswerLost) => {
                let _ = next.run(Request::from_parts(parts, Body::from(bytes))).await;
                server_error(503)
            }
            Some(FaultKind::Late(after)) => {
                let response = next.run(Request::from_parts(parts, Body::from(bytes))).await;
                // What it made is seen by whoever waits for it before the answer leaves.
                shared.notify();
                tokio::time::sleep(after).await;
                response
            }
            Some(FaultKind::Hang) => {
                shared.notify();
                std::future::pending::<Response>().await
            }
            None => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        }
    };
    if let Some(limit) = limit.filter(|limit| !limit.over) {
        rate_limit_headers(&mut response, &limit);
    }
    if let Some(index) = index {
        let mut state = shared.lock();
        let recorded = &mut state.requests[index];
        recorded.status = response.status().as_u16();
        recorded.unexpected = response.extensions().get::<Unexpected>().is_some();
        let scope = response.headers().get("x-ratelimit-scope").and_then(|scope| scope.to_str().ok());
        recorded.limit_scope = scope.map(str::to_owned);
    }
    shared.notify();
    response
}

/// Discord's 429: `Retry-After` (whole seconds, rounded up), `X-RateLimit-Scope`, and a JSON
/// body with `message`, `retry_after` (seconds, fractional) and `global` — and no `code`. Over a
/// route's limit it carries that bucket's `X-RateLimit-*` headers; over the global limit
/// `X-RateLimit-Global: true` instead (the global limit is no bucket).
fn rate_limited(limit: &RateLimitState) -> Response {
    let retry_after = (limit.reset_after.as_secs_f64() * 1000.0).ceil() / 1000.0;
    let body = json!({ "message": "You are being rate limited.", "retry_after": retry_after, "global": limit.global });
    let mut response = (StatusCode::TOO_MANY_REQUESTS, axum::Json(body)).into_response();
    let secs = retry_after.ceil().max(1.0).to_string();
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, secs.parse().expect("a number is a header value"));
    if limit.global {
        headers.insert("x-ratelimit-global", "true".parse().expect("header"));
        headers.insert("x-ratelimit-scope", "global".parse().expect("header"));
    } else {
        rate_limit_headers(&mut response, limit);
        response.headers_mut().insert("x-ratelimit-scope", "user".parse().expect("header"));
    }
    response
}

/// The `X-RateLimit-*` headers of a bucket: its limit, what remains, when it resets (as Unix
/// seconds and as seconds from now, both with milliseconds) and its opaque id.
fn rate_limit_headers(response: &mut Response, limit: &RateLimitState) {
    let reset_at = std::time::SystemTime::now() + limit.reset_after;
    let reset_at = reset_at.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let headers = response.headers_mut();
    let pairs = [
        ("x-ratelimit-limit", limit.limit.to_string()),
        ("x-ratelimit-remaining", limit.remaining.to_string()),
        ("x-ratelimit-reset", format!("{:.3}", reset_at.as_secs_f64())),
        ("x-ratelimit-reset-after", format!("{:.3}", limit.reset_after.as_secs_f64())),
        ("x-ratelimit-bucket", format!("{:x}", fnv(&limit.bucket))),
    ];
    for (name, value) in pairs {
        if let Ok(value) = value.parse() {
            headers.insert(name, value);
        }
    }
}

/// A stable hash of a bucket's key for `X-RateLimit-Bucket` (Discord's are opaque too).
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}

fn server_error(status: u16) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
    (status, [(header::CONTENT_TYPE, "text/plain")], "upstream connect error or disconnect/reset before headers")
        .into_response()
}

/// Discord does not check tokens on the gateway lookup, interaction callbacks and webhooks (the
/// interaction token is the credential); the WebSocket checks its own in IDENTIFY.
fn needs_token(path: &str) -> bool {
    let Some(route) = path.strip_prefix("/api/v10") else { return false };
    !(route == "/gateway" || route.starts_with("/interactions/") || route.starts_with("/webhooks/"))
}

fn authorized(shared: &Shared, headers: &HeaderMap) -> bool {
    let token = shared.lock().config.token.clone();
    let given = headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
    given == Some(format!("Bot {token}").as_str())
}

fn content_type(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok())
}

async fn unexpected() -> Response {
    let mut response = error(StatusCode::NOT_FOUND, 0, "404: Not Found");
    response.extensions_mut().insert(Unexpected);
    response
}

fn error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, axum::Json(payloads::error(code, message))).into_response()
}

fn ok(value: Value) -> Response {
    axum::Json(value).into_response()
}

fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

/// A Discord error answer: HTTP status, Discord's error code and message.
#[derive(Clone, Copy, Debug)]
struct ApiError(StatusCode, u32, &'static str);

impl ApiError {
    const UNKNOWN_CHANNEL: ApiError = ApiError(StatusCode::NOT_FOUND, 10003, "Unknown Channel");
    const UNKNOWN_MESSAGE: ApiError = ApiError(StatusCode::NOT_FOUND, 10008, "Unknown Message");
    const CANNOT_MESSAGE_USER: ApiError = ApiError(StatusCode::FORBIDDEN, 50007, "Cannot send messages to this user");
    const MISSING_ACCESS: ApiError = ApiError(StatusCode::FORBIDDEN, 50001, "Missing Access");
    const THREAD_ARCHIVED: ApiError =
        ApiError(StatusCode::BAD_REQUEST, 50083, "Operation was attempted on an archived thread");
    const MISSING_PERMISSIONS: ApiError = ApiError(StatusCode::FORBIDDEN, 50013, "Missing Permissions");
}

const SEND_MESSAGES: u64 = 1 << 11;
const EMBED_LINKS: u64 = 1 << 14;
const ATTACH_FILES: u64 = 1 << 15;
const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;

/// The bot's own post or edit in a channel where it lacks permissions (set by
/// `FakeDiscord::set_app_permissions`), as Discord answers it: without Send Messages (Send
/// Messages in Threads inside a thread) or with files but without Attach Files, 403 Missing
/// Permissions; with embeds but without Embed Links, the embeds are dropped silently, or 403 when
/// nothing else is left to post. `creating` is false for an edit (no Send Messages needed).
fn check_bot_permissions(state: &State, channel: u64, body: &mut Payload, creating: bool) -> Result<(), ApiError> {
    let Some(&have) = state.app_permissions.get(&channel) else { return Ok(()) };
    let send = if state.thread_archived(channel).is_some() { SEND_MESSAGES_IN_THREADS } else { SEND_MESSAGES };
    if creating && have & send == 0 {
        return Err(ApiError::MISSING_PERMISSIONS);
    }
    let attachments = body.json["attachments"].as_array().is_some_and(|a| !a.is_empty());
    if (!body.files.is_empty() || (creating && attachments)) && have & ATTACH_FILES == 0 {
        return Err(ApiError::MISSING_PERMISSIONS);
    }
    let embeds = body.json["embeds"].as_array().is_some_and(|e| !e.is_empty());
    if embeds && have & EMBED_LINKS == 0 {
        let content = body.json["content"].as_str().is_some_and(|c| !c.trim().is_empty());
        if creating && !content {
            return Err(ApiError::MISSING_PERMISSIONS);
        }
        body.json["embeds"] = json!([]);
    }
    Ok(())
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.0, self.1, self.2)
    }
}

fn unknown_channel() -> Response {
    ApiError::UNKNOWN_CHANNEL.into_response()
}

fn unknown_message() -> Response {
    ApiError::UNKNOWN_MESSAGE.into_response()
}

/// A request body: JSON, or multipart with `payload_json` and `files[n]` parts.
pub struct Payload {
    pub json: Value,
    pub files: Vec<ReceivedFile>,
}

impl FromRequest<Arc<Shared>> for Payload {
    type Rejection = Response;

    async fn from_request(request: Request, shared: &Arc<Shared>) -> Result<Payload, Response> {
        let index = request.extensions().get::<RequestIndex>().copied();
        let is_multipart = content_type(request.headers()).is_some_and(|kind| kind.starts_with("multipart/"));
        if !is_multipart {
            let bytes = Bytes::from_request(request, shared).await.map_err(IntoResponse::into_response)?;
            if bytes.is_empty() {
                return Ok(Payload { json: Value::Null, files: Vec::new() });
            }
            let json = serde_json::from_slice(&bytes)
                .map_err(|_| error(StatusCode::BAD_REQUEST, 50109, "The request body contains invalid JSON."))?;
            return Ok(Payload { json, files: Vec::new() });
        }
        let mut multipart = Multipart::from_request(request, shared).await.map_err(IntoResponse::into_response)?;
        let mut payload = Payload { json: Value::Null, files: Vec::new() };
        // A load run measures the bot, not the fake: uploads are then taken as they come.
        let check_uploads = shared.lock().config.keep_history;
        let bad_form = || error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
        while let Some(field) = multipart.next_field().await.map_err(|_| bad_form())? {
            let name = field.name().unwrap_or_default().to_owned();
            let filename = field.file_name().map(str::to_owned);
            let content_type = field.content_type().map(str::to_owned);
            let bytes = field.bytes().await.map_err(|_| bad_form())?;
            if name == "payload_json" {
                payload.json = serde_json::from_slice(&bytes).map_err(|_| bad_form())?;
            } else {
                let filename = filename.unwrap_or_default();
                let (image, frames) = if check_uploads {
                    decode_picture(&filename, &bytes)
                } else {
                    (Err("not decoded (no history kept)".into()), 0)
                };
                payload.files.push(ReceivedFile {
                    field: name,
                    filename,
                    content_type,
                    bytes: bytes.to_vec(),
                    image,
                    frames,
                });
            }
        }
        if let Some(RequestIndex(index)) = index {
            shared.lock().requests[index].body = payload.json.clone();
        }
        Ok(payload)
    }
}

/// Decodes a whole upload as the picture its file name says: its size and frames. Discord itself
/// stores any file; decoding catches a bot that sends broken pictures.
fn decode_picture(filename: &str, bytes: &[u8]) -> (Result<(u32, u32), String>, usize) {
    let lower = filename.to_ascii_lowercase();
    if lower.ends_with(".png") {
        (decode_png(bytes), 1)
    } else if lower.ends_with(".gif") {
        match decode_gif(bytes) {
            Ok((size, frames)) => (Ok(size), frames),
            Err(error) => (Err(error), 0),
        }
    } else {
        (Ok((0, 0)), 0)
    }
}

/// Decodes every frame of a GIF, returning its logical screen size and its number of frames.
fn decode_gif(bytes: &[u8]) -> Result<((u32, u32), usize), String> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::io::Cursor::new(bytes)).map_err(|error| error.to_string())?;
    let size = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut frames = 0;
    while decoder.read_next_frame().map_err(|error| error.to_string())?.is_some() {
        frames += 1;
    }
    if frames == 0 { Err("a GIF without frames".into()) } else { Ok((size, frames)) }
}

/// Decodes a whole PNG image, returning its size.
fn decode_png(bytes: &[u8]) -> Result<(u32, u32), String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().map_err(|error| error.to_string())?;
    let size = reader.output_buffer_size().ok_or("image too large")?;
    let mut buffer = vec![0; size];
    let info = reader.next_frame(&mut buffer).map_err(|error| error.to_string())?;
    Ok((info.width, info.height))
}

async fn gateway_info(AxumState(shared): SharedState) -> Response {
    ok(json!({ "url": shared.gateway_url() }))
}

async fn gateway_bot(AxumState(shared): SharedState) -> Response {
    let mut state = shared.lock();
    let limit = state.session_start_limit();
    let shards = state.config.recommended_shards;
    drop(state);
    ok(json!({ "url": shared.gateway_url(), "shards": shards, "session_start_limit": limit }))
}

async fn current_user(AxumState(shared): SharedState) -> Response {
    let mut user = shared.lock().bot_user();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    ok(user)
}

/// The application; its owner is the first member of the first guild (or the bot itself).
async fn application(AxumState(shared): SharedState) -> Response {
    let state = shared.lock();
    let owner = state.config.guilds.iter().flat_map(|guild| &guild.members).next();
    let owner = owner.map_or_else(|| state.bot_user(), |member| state.users[&member.id].clone());
    ok(json!({
        "id": state.config.bot_id.to_string(),
        "name": state.config.bot_name,
        "icon": null,
        "description": "",
        "bot_public": false,
        "bot_require_code_grant": false,
        "owner": owner,
        "verify_key": "0".repeat(64),
        "team": null,
        "flags": 0,
        "role_connections_verification_url": null,
        "redirect_uris": [],
        "interactions_endpoint_url": null,
    }))
}

async fn set_global_commands(AxumState(shared): SharedState, Path(app): Path<u64>, body: Payload) -> Response {
    set_commands(&shared, app, None, body.json)
}

async fn set_guild_commands(
    AxumState(shared): SharedState,
    Path((app, guild)): Path<(u64, u64)>,
    body: Payload,
) -> Response {
    set_commands(&shared, app, Some(guild), body.json)
}

/// Bulk overwrite, refused as a whole where Discord would refuse a command ([`commands::check`]);
/// keeps the id of a command that already existed under the same name.
fn set_commands(shared: &Shared, app: u64, guild: Option<u64>, body: Value) -> Response {
    let mut state = shared.lock();
    if app != state.config.bot_id {
        return error(StatusCode::FORBIDDEN, 50001, "Missing Access");
    }
    let Value::Array(new_commands) = body else {
        return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
    };
    if let Err(errors) = commands::check(&new_commands) {
        let body = json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors });
        return (StatusCode::BAD_REQUEST, axum::Json(body)).into_response();
    }
    let old = state.commands.get(&guild).cloned().unwrap_or_default();
    let mut commands = Vec::new();
    for mut command in new_commands {
        let existing = old.iter().find(|old| old["name"] == command["name"]).map(payloads::id_of);
        let id = existing.unwrap_or_else(|| state.new_id());
        let version = state.new_id();
        let kind = command.get("type").cloned().unwrap_or(json!(1));
        let fields = json!({
            "id": id.to_string(),
            "application_id": app.to_string(),
            "version": version.to_string(),
            "type": kind,
            "default_member_permissions": command.get("default_member_permissions").cloned().unwrap_or(Value::Null),
            "nsfw": false,
        });
        payloads::merge(&mut command, fields);
        if command.get("description").is_none() {
            command["description"] = json!("");
        }
        if let Some(guild) = guild {
            command["guild_id"] = json!(guild.to_string());
        }
        commands.push(command);
    }
    state.commands.insert(guild, commands.clone());
    ok(Value::Array(commands))
}

async fn global_commands(AxumState(shared): SharedState) -> Response {
    ok(Value::Array(shared.lock().commands.get(&None).cloned().unwrap_or_default()))
}

async fn guild_commands(AxumState(shared): SharedState, Path((_, guild)): Path<(u64, u64)>) -> Response {
    ok(Value::Array(shared.lock().commands.get(&Some(guild)).cloned().unwrap_or_default()))
}

async fn get_channel(AxumState(shared): SharedState, Path(channel): Path<u64>) -> Response {
    shared.lock().channels.get(&channel).cloned().map_or_else(unknown_channel, ok)
}

async fn create_dm(AxumState(shared): SharedState, body: Payload) -> Response {
    let mut state = shared.lock();
    let Some(user) = snowflake(&body.json["recipient_id"]).filter(|user| state.users.contains_key(user)) else {
        return error(StatusCode::NOT_FOUND, 10013, "Unknown User");
    };
    if state.refused_dm_channels.contains(&user) {
        return ApiError::CANNOT_MESSAGE_USER.into_response();
    }
    let channel = state.dm_channel(user);
    ok(state.channels[&channel].clone())
}

/// Whether the bot may post in `channel`: it exists, it is not in a guild the bot was removed
/// from (Missing Access, 50001), and it is not the DM of a user whose DMs are closed or who shares
/// no guild with the bot any more (50007).
fn check_postable(state: &State, channel: u64) -> Result<(), ApiError> {
    if !state.channels.contains_key(&channel) {
        return Err(ApiError::UNKNOWN_CHANNEL);
    }
    check_access(state, channel)?;
    let closed = state
        .dm_channels
        .iter()
        .any(|(user, dm)| *dm == channel && (state.closed_dms.contains(user) || !state.shares_guild_with_bot(*user)));
    if closed {
        return Err(ApiError::CANNOT_MESSAGE_USER);
    }
    Ok(())
}

/// A channel of a guild the bot was removed from answers Missing Access to everything.
fn check_access(state: &State, channel: u64) -> Result<(), ApiError> {
    match state.guild_of(channel) {
        Some(guild) if state.left_guilds.contains(&guild) => Err(ApiError::MISSING_ACCESS),
        _ => Ok(()),
    }
}

/// Checks a message body as Discord does: something to show, within Discord's limits.
fn check_message_body(payload: &Payload) -> Result<(), Box<Response>> {
    check_limits(&payload.json)?;
    let json = &payload.json;
    let content = json["content"].as_str().unwrap_or_default();
    let has = |field: &str| json[field].as_array().is_some_and(|items| !items.is_empty());
    if content.is_empty() && payload.files.is_empty() && !has("embeds") && !has("components") && !has("poll") {
        return Err(Box::new(ApiError(StatusCode::BAD_REQUEST, 50006, "Cannot send an empty message").into_response()));
    }
    Ok(())
}

/// Embed limits (Discord's "Embed Limits"): characters per part and in all, and fields per embed.
const EMBED_TITLE: usize = 256;
const EMBED_DESCRIPTION: usize = 4096;
const EMBED_FIELDS: usize = 25;
const EMBED_FIELD_NAME: usize = 256;
const EMBED_FIELD_VALUE: usize = 1024;
const EMBED_FOOTER: usize = 2048;
const EMBED_AUTHOR: usize = 256;
const EMBED_TOTAL: usize = 6000;
const EMBEDS_PER_MESSAGE: usize = 10;

/// Checks content and embeds against Discord's limits (on creates and edits alike); a breach is
/// answered as Discord does: 400, code 50035 "Invalid Form Body" with the tree of what failed.
fn check_limits(json: &Value) -> Result<(), Box<Response>> {
    let mut errors = serde_json::Map::new();
    let chars = |value: &Value| value.as_str().map_or(0, |text| text.chars().count());
    if chars(&json["content"]) > CONTENT_LIMIT {
        errors.insert("content".into(), too_long(CONTENT_LIMIT));
    }
    let embeds = json["embeds"].as_array().cloned().unwrap_or_default();
    if embeds.len() > EMBEDS_PER_MESSAGE {
        errors.insert("embeds".into(), too_long(EMBEDS_PER_MESSAGE));
    }
    let mut total = 0;
    let mut per_embed = Value::Object(serde_json::Map::new());
    for (i, embed) in embeds.iter().enumerate() {
        let i = i.to_string();
        let mut check = |path: &[&str], limit: usize, failed: &mut Value| {
            // (A pointer, so that a field's number indexes the array of fields.)
            let value = embed.pointer(&format!("/{}", path.join("/"))).unwrap_or(&Value::Null);
            total += chars(value);
            if chars(value) > limit {
                let at = path.iter().fold(&mut *failed, |tree, key| &mut tree[key]);
                *at = too_long(limit);
            }
        };
        check(&["title"], EMBED_TITLE, &mut per_embed[&i]);
        check(&["description"], EMBED_DESCRIPTION, &mut per_embed[&i]);
        check(&["footer", "text"], EMBED_FOOTER, &mut per_embed[&i]);
        check(&["author", "name"], EMBED_AUTHOR, &mut per_embed[&i]);
        let fields = embed["fields"].as_array().map_or(&[][..], Vec::as_slice);
        if fields.len() > EMBED_FIELDS {
            per_embed[&i]["fields"] = too_long(EMBED_FIELDS);
        }
        for j in 0..fields.len() {
            let j = j.to_string();
            check(&["fields", &j, "name"], EMBED_FIELD_NAME, &mut per_embed[&i]);
            check(&["fields", &j, "value"], EMBED_FIELD_VALUE, &mut per_embed[&i]);
        }
    }
    if let Value::Object(per_embed) = &mut per_embed {
        per_embed.retain(|_, failed| !failed.is_null());
    }
    if total > EMBED_TOTAL {
        let error = json!({ "code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000" });
        per_embed["_errors"] = json!([error]);
    }
    if per_embed.as_object().is_some_and(|failed| !failed.is_empty()) {
        errors.insert("embeds".into(), per_embed);
    }
    if let Some(failed) = check_components(&json["components"]) {
        errors.insert("components".into(), failed);
    }
    if errors.is_empty() {
        return Ok(());
    }
    let body = json!({ "message": "Invalid Form Body", "code": 50035, "errors": errors });
    Err(Box::new((StatusCode::BAD_REQUEST, axum::Json(body)).into_response()))
}

/// Message components (Discord's "Message Components"): at most five action rows of at most five
/// buttons; a button of styles 1-4 has a `custom_id` (at most 100 characters) and no `url`, a link
/// button (style 5) has an `http(s)` or `discord` `url` (at most 512 characters) and no
/// `custom_id`; a label has at most 80 characters. The tree of what failed, or `None`.
fn check_components(components: &Value) -> Option<Value> {
    let rows = components.as_array().map_or(&[][..], Vec::as_slice);
    let mut failed = Value::Object(serde_json::Map::new());
    if rows.len() > 5 {
        failed["_errors"] = too_long(5)["_errors"].clone();
    }
    let invalid = |message: &str| json!({ "_errors": [{ "code": "COMPONENT_INVALID", "message": message }] });
    for (i, row) in rows.iter().enumerate() {
        let i = i.to_string();
        let buttons = row["components"].as_array().map_or(&[][..], Vec::as_slice);
        if row["type"] != 1 {
            failed[&i]["type"] = invalid("Must be an action row (1)");
        }
        if buttons.is_empty() || buttons.len() > 5 {
            failed[&i]["components"]["_errors"] = too_long(5)["_errors"].clone();
        }
        for (j, button) in buttons.iter().enumerate() {
            let j = j.to_string();
            let at = &mut failed[&i]["components"][&j];
            if button["type"] != 2 {
                continue; // Select menus and others: not checked here.
            }
            let text = |field: &str| button[field].as_str();
            if text("label").is_some_and(|l| l.chars().count() > 80) {
                at["label"] = too_long(80);
            }
            match button["style"].as_u64() {
                Some(5) => {
                    let url = text("url").unwrap_or_default();
                    let scheme = ["https://", "http://", "discord://"].iter().any(|s| url.starts_with(s));
                    if !scheme || url.chars().count() > 512 {
                        at["url"] = invalid("Scheme must be one of ['http', 'https', 'discord'], at most 512 long");
                    }
                    if !button["custom_id"].is_null() {
                        at["custom_id"] = invalid("A link button cannot have a custom id");
                    }
                }
                Some(1..=4) => {
                    if text("custom_id").is_none_or(|c| c.is_empty() || c.chars().count() > 100) {
                        at["custom_id"] = invalid("A custom id is required (at most 100 long)");
                    }
                    if !button["url"].is_null() {
                        at["url"] = invalid("Only a link button has a url");
                    }
                }
                _ => at["style"] = invalid("Value must be one of {1, 2, 3, 4, 5, 6}"),
            }
        }
    }
    prune(&mut failed);
    failed.as_object().is_some_and(|f| !f.is_empty()).then_some(failed)
}

/// Removes the empty branches (and nulls) of an error tree.
fn prune(tree: &mut Value) {
    if let Value::Object(map) = tree {
        for child in map.values_mut() {
            prune(child);
        }
        map.retain(|_, child| !child.is_null() && !child.as_object().is_some_and(|c| c.is_empty()));
    }
}

/// One `_errors` leaf of a 50035 answer for a value over `limit`.
fn too_long(limit: usize) -> Value {
    json!({ "_errors": [{ "code": "BASE_TYPE_MAX_LENGTH", "message": format!("Must be {limit} or fewer in length.") }] })
}

/// Creates and stores a message from the bot, with attachments for the uploaded files.
fn bot_message(state: &mut State, channel: u64, payload: &Payload) -> Value {
    let id = state.new_id();
    let guild = state.guild_of(channel);
    let content = payload.json["content"].as_str().unwrap_or_default();
    let mut message = payloads::message(id, channel, guild, state.bot_user(), content);
    apply_edit(state, &mut message, payload);
    if let Some(reference) = payload.json.get("message_reference") {
        message["message_reference"] = reference.clone();
        message["type"] = json!(19);
    }
    state.messages.insert(id, message.clone());
    message
}

/// Applies the fields of a create or edit body to a message. Its files as Discord keeps them: a
/// body's `attachments` list names the files to keep (the message's by id, the new uploads by
/// their index), so that a message keeps only the files listed there, an empty list removing them
/// all; a body without the field leaves the message's files as they were. Uploads are added.
fn apply_edit(state: &mut State, message: &mut Value, payload: &Payload) {
    for field in ["content", "embeds", "components", "flags"] {
        if let Some(value) = payload.json.get(field) {
            message[field] = value.clone();
        }
    }
    let mut attachments = message["attachments"].as_array().cloned().unwrap_or_default();
    if let Some(listed) = payload.json.get("attachments").and_then(Value::as_array) {
        let keep: Vec<u64> = listed.iter().filter_map(|a| snowflake(&a["id"])).collect();
        attachments.retain(|a| keep.contains(&payloads::id_of(a)));
    }
    let channel = snowflake(&message["channel_id"]).unwrap_or(0);
    for file in &payload.files {
        let id = state.new_id();
        let kind = file.content_type.as_deref().unwrap_or("application/octet-stream");
        attachments.push(payloads::attachment(id, channel, &file.filename, kind, file.bytes.len()));
    }
    message["attachments"] = Value::Array(attachments);
}

fn push_sent(
    state: &mut State,
    kind: SentKind,
    channel: Option<u64>,
    message: Option<u64>,
    interaction: Option<u64>,
    payload: Payload,
) {
    let allowed_mentions = payload.json.get("allowed_mentions").cloned();
    let sent = Sent {
        kind,
        channel_id: channel,
        message_id: message,
        interaction_id: interaction,
        payload: payload.json,
        files: payload.files,
        allowed_mentions,
        at: std::time::Instant::now(),
    };
    if let Some(stream) = &state.sent_stream
        && stream.send(sent.clone()).is_err()
    {
        state.sent_stream = None;
    }
    if state.config.keep_history {
        state.sent.push(sent);
    }
}

async fn create_message(AxumState(shared): SharedState, Path(channel): Path<u64>, body: Payload) -> Response {
    let mut body = body;
    let mut state = shared.lock();
    if let Err(response) = check_postable(&state, channel) {
        return response.into_response();
    }
    if let Err(response) = check_message_body(&body) {
        return *response;
    }
    if let Err(refused) = check_bot_permissions(&state, channel, &mut body, true) {
        return refused.into_response();
    }
    // A message un-archives an archived thread, unless it is locked.
    match state.thread_archived(channel) {
        Some((_, true)) => return ApiError::THREAD_ARCHIVED.into_response(),
        Some((true, false)) => {
            let update = state.set_thread_archived(channel, false, false);
            state.dispatch("THREAD_UPDATE", update);
        }
        _ => {}
    }
    // `enforce_nonce`: a message the bot made with this nonce (Discord keeps them a few minutes)
    // is returned instead of a second one; after that window the nonce is forgotten.
    let nonce = body.json.get("nonce").filter(|n| !n.is_null()).cloned();
    let remembered = |id: u64| state.nonces_made.get(&id).is_some_and(|t| t.elapsed() <= state.config.nonce_lifetime);
    if let Some(nonce) = &nonce
        && body.json["enforce_nonce"].as_bool() == Some(true)
        && let Some(existing) = state.messages.values().find(|m| {
            snowflake(&m["channel_id"]) == Some(channel)
                && m.get("nonce") == Some(nonce)
                && m["author"]["bot"] == json!(true)
                && remembered(payloads::id_of(m))
        })
    {
        return ok(existing.clone());
    }
    let mut message = bot_message(&mut state, channel, &body);
    if let Some(nonce) = nonce {
        message["nonce"] = nonce;
        let id = payloads::id_of(&message);
        state.messages.insert(id, message.clone());
        state.nonces_made.insert(id, std::time::Instant::now());
    }
    let id = payloads::id_of(&message);
    push_sent(&mut state, SentKind::Message, Some(channel), Some(id), None, body);
    state.dispatch("MESSAGE_CREATE", message.clone());
    ok(message)
}

async fn get_message(AxumState(shared): SharedState, Path((_, message)): Path<(u64, u64)>) -> Response {
    shared.lock().messages.get(&message).cloned().map_or_else(unknown_message, ok)
}

async fn edit_message(
    AxumState(shared): SharedState,
    Path((channel, message)): Path<(u64, u64)>,
    body: Payload,
) -> Response {
    let mut body = body;
    let mut state = shared.lock();
    if let Err(refused) = check_bot_permissions(&state, channel, &mut body, false) {
        return refused.into_response();
    }
    edit_stored(&mut state, channel, message, None, body)
}

fn edit_stored(state: &mut State, channel: u64, message: u64, interaction: Option<u64>, body: Payload) -> Response {
    let Some(mut stored) = state.messages.get(&message).cloned() else {
        return unknown_message();
    };
    if let Err(response) = check_limits(&body.json) {
        return *response;
    }
    if let Err(refused) = check_access(state, channel) {
        return refused.into_response();
    }
    if state.thread_archived(channel).is_some_and(|(archived, _)| archived) {
        return ApiError::THREAD_ARCHIVED.into_response();
    }
    apply_edit(state, &mut stored, &body);
    stored["edited_timestamp"] = json!(payloads::TIMESTAMP);
    state.messages.insert(message, stored.clone());
    push_sent(state, SentKind::Edit, Some(channel), Some(message), interaction, body);
    ok(stored)
}

async fn delete_message(AxumState(shared): SharedState, Path((channel, message)): Path<(u64, u64)>) -> Response {
    let mut state = shared.lock();
    delete_stored(&mut state, channel, message, None)
}

fn delete_stored(state: &mut State, channel: u64, message: u64, interaction: Option<u64>) -> Response {
    if state.messages.remove(&message).is_none() {
        return unknown_message();
    }
    let payload = Payload { json: Value::Null, files: Vec::new() };
    push_sent(state, SentKind::Delete, Some(channel), Some(message), interaction, payload);
    no_content()
}

async fn thread_from_message(
    AxumState(shared): SharedState,
    Path((channel, message)): Path<(u64, u64)>,
    body: Payload,
) -> Response {
    let mut state = shared.lock();
    if !state.messages.contains_key(&message) {
        return unknown_message();
    }
    // A thread started from a message has the message's id.
    start_thread(&mut state, channel, message, body)
}

async fn thread_without_message(AxumState(shared): SharedState, Path(channel): Path<u64>, body: Payload) -> Response {
    let mut state = shared.lock();
    let id = state.new_id();
    start_thread(&mut state, channel, id, body)
}

fn start_thread(state: &mut State, channel: u64, id: u64, body: Payload) -> Response {
    let Some(guild) = state.guild_of(channel) else {
        return unknown_channel();
    };
    if let Err(refused) = check_access(state, channel) {
        return refused.into_response();
    }
    let name = body.json["name"].as_str().unwrap_or("thread").to_owned();
    let mut thread = payloads::thread(guild, channel, id, &name, state.config.bot_id);
    if let Some(minutes) = body.json["auto_archive_duration"].as_u64() {
        if ![60, 1440, 4320, 10080].contains(&minutes) {
            return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body");
        }
        thread["thread_metadata"]["auto_archive_duration"] = json!(minutes);
    }
    state.channels.insert(id, thread.clone());
    push_sent(state, SentKind::Thread, Some(channel), Some(id), None, body);
    let mut event = thread.clone();
    event["newly_created"] = json!(true);
    state.dispatch("THREAD_CREATE", event);
    (StatusCode::CREATED, axum::Json(thread)).into_response()
}

/// The interaction a token belongs to, or Discord's "Unknown interaction".
fn interaction_for(state: &State, token: &str) -> Result<(u64, u64), ApiError> {
    let record = state.interactions.get(token);
    let unknown = || ApiError(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    record.map(|record| (record.id, record.channel)).ok_or_else(unknown)
}

/// `POST /interactions/{id}/{token}/callback`: the first answer to an interaction.
async fn interaction_callback(
    AxumState(shared): SharedState,
    Path((id, token)): Path<(u64, String)>,
    body: Payload,
) -> Response {
    let mut state = shared.lock();
    let (interaction, channel) = match interaction_for(&state, &token) {
        Ok(found) if found.0 == id => found,
        Ok(_) => return error(StatusCode::NOT_FOUND, 10062, "Unknown interaction"),
        Err(response) => return response.into_response(),
    };
    if expired(&state, &token) {
        return error(StatusCode::NOT_FOUND, 10062, "Unknown interaction");
    }
    if state.interactions[&token].acknowledged {
        return error(StatusCode::BAD_REQUEST, 40060, "Interaction has already been acknowledged.");
    }
    let callback_type = body.json["type"].as_u64().unwrap_or(0);
    // An autocomplete request takes only an autocomplete result, and nothing else takes one.
    if (state.interactions[&token].kind == 4) != (callback_type == 8) {
        return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body: interaction response type");
    }
    if callback_type == 8
        && let Err(response) = check_choices(&body.json["data"])
    {
        return *response;
    }
    let data = Payload { json: body.json["data"].clone(), files: body.files };
    let mut message_id = None;
    match callback_type {
        // PONG, deferred update, autocomplete result, modal: no message.
        1 | 6 | 8 | 9 => {}
        // Reply with a message.
        4 => {
            if let Err(response) = check_message_body(&data) {
                return *response;
            }
            let message = bot_message(&mut state, channel, &data);
            message_id = Some(payloads::id_of(&message));
        }
        // Deferred reply: a "thinking…" message, edited later through @original.
        5 => {
            let mut message = bot_message(&mut state, channel, &data);
            message["flags"] = json!(message["flags"].as_u64().unwrap_or(0) | 128);
            let id = payloads::id_of(&message);
            state.messages.insert(id, message);
            message_id = Some(id);
        }
        // Update the message whose component was used.
        7 => {
            let Some(source) = state.interactions[&token].source_message else {
                return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body: not a component interaction");
            };
            let Some(mut stored) = state.messages.get(&source).cloned() else {
                return unknown_message();
            };
            apply_edit(&mut state, &mut stored, &data);
            state.messages.insert(source, stored);
            message_id = Some(source);
        }
        _ => return error(StatusCode::BAD_REQUEST, 50035, "Invalid Form Body: unknown callback type"),
    }
    let record = state.interactions.get_mut(&token).expect("looked up above");
    record.acknowledged = true;
    if matches!(callback_type, 4 | 5) {
        record.original = message_id;
        record.made.extend(message_id);
    }
    // After a component's (deferred) update, `@original` is the message the component is on.
    if matches!(callback_type, 6 | 7) {
        record.original = record.source_message;
    }
    let user = record.user;
    if let Some(id) = message_id.filter(|_| matches!(callback_type, 4 | 5)) {
        state.interaction_message_users.insert(id, user);
    }
    let kind = SentKind::InteractionResponse { callback_type };
    push_sent(&mut state, kind, Some(channel), message_id, Some(interaction), data);
    no_content()
}

/// An autocomplete result as Discord validates it: at most 25 choices, each with a name of 1 to
/// 100 characters and a value that is a number or a string of 1 to 100 characters.
fn check_choices(data: &Value) -> Result<(), Box<Response>> {
    let invalid =
        |why: &str| Err(Box::new(error(StatusCode::BAD_REQUEST, 50035, &format!("Invalid Form Body: {why}"))));
    let Some(choices) = data["choices"].as_array() else { return invalid("choices is required") };
    if choices.len() > 25 {
        return invalid("choices: must be 25 or fewer in length");
    }
    let within = |text: &str| (1..=100).contains(&text.chars().count());
    for choice in choices {
        if !choice["name"].as_str().is_some_and(within) {
            return invalid("choices.name: must be between 1 and 100 in length");
        }
        let value_ok = match &choice["value"] {
            Value::String(text) => within(text),
            value => value.is_number(),
        };
        if !value_ok {
            return invalid("choices.value: must be a number or between 1 and 100 in length");
        }
    }
    Ok(())
}

/// Whether the interaction's token has outlived [`crate::FakeConfig::interaction_lifetime`].
fn expired(state: &State, token: &str) -> bool {
    state.interactions.get(token).is_some_and(|i| i.created.elapsed() > state.config.interaction_lifetime)
}

/// The interaction of a webhook (follow-up) request, checking the application id.
fn webhook_interaction(state: &State, app: u64, token: &str) -> Result<(u64, u64), ApiError> {
    let unknown = || ApiError(StatusCode::NOT_FOUND, 10015, "Unknown Webhook");
    if app != state.config.bot_id {
        return Err(unknown());
    }
    let found = interaction_for(state, token).map_err(|_| unknown())?;
    if expired(state, token) {
        return Err(ApiError(StatusCode::UNAUTHORIZED, 50027, "Invalid Webhook Token"));
    }
    // Follow-ups need an acknowledged interaction.
    if !state.interactions[token].acknowledged {
        return Err(unknown());
    }
    Ok(found)
}

/// `@original` or a message id, as a stored message id.
fn webhook_message(state: &State, token: &str, message: &str) -> Result<u64, ApiError> {
    let record = &state.interactions[token];
    let id = if message == "@original" {
        record.original
    } else {
        // Only a message this interaction's webhook made.
        message.parse().ok().filter(|id| record.made.contains(id) || record.original == Some(*id))
    };
    id.filter(|id| state.messages.contains_key(id)).ok_or(ApiError::UNKNOWN_MESSAGE)
}

/// How many follow-ups Discord takes for an interaction authorized only by people's own
/// installations of the app (used where the app itself is not installed).
pub const USER_INSTALL_FOLLOW_UPS: usize = 5;

async fn create_followup(
    AxumState(shared): SharedState,
    Path((app, token)): Path<(u64, String)>,
    body: Payload,
) -> Response {
    let mut state = shared.lock();
    let (interaction, channel) = match webhook_interaction(&state, app, &token) {
        Ok(found) => found,
        Err(response) => return response.into_response(),
    };
    if let Err(response) = check_message_body(&body) {
        return *response;
    }
    let record = &state.interactions[&token];
    if record.user_installed_only && record.follow_ups >= USER_INSTALL_FOLLOW_UPS {
        let why = "This interaction has hit the maximum number of follow up messages";
        return error(StatusCode::BAD_REQUEST, 40094, why);
    }
    let message = bot_message(&mut state, channel, &body);
    let id = payloads::id_of(&message);
    let record = state.interactions.get_mut(&token).expect("looked up above");
    record.made.push(id);
    record.follow_ups += 1;
    let user = record.user;
    state.interaction_message_users.insert(id, user);
    push_sent(&mut state, SentKind::FollowUp, Some(channel), Some(id), Some(interaction), body);
    ok(message)
}

async fn get_webhook_message(
    AxumState(shared): SharedState,
    Path((app, token, message)): Path<(u64, String, String)>,
) -> Response {
    let state = shared.lock();
    let found = webhook_interaction(&state, app, &token).and_then(|_| webhook_message(&state, &token, &message));
    match found {
        Ok(id) => ok(state.messages[&id].clone()),
        Err(response) => response.into_response(),
    }
}

async fn edit_webhook_message(
    AxumState(shared): SharedState,
    Path((app, token, message)): Path<(u64, String, String)>,
    body: Payload,
) -> Response {
    let mut state = shared.lock();
    let found = webhook_interaction(&state, app, &token)
        .and_then(|found| webhook_message(&state, &token, &message).map(|id| (found, id)));
    match found {
        Ok(((interaction, channel), id)) => edit_stored(&mut state, channel, id, Some(interaction), body),
        Err(response) => response.into_response(),
    }
}

async fn delete_webhook_message(
    AxumState(shared): SharedState,
    Path((app, token, message)): Path<(u64, String, String)>,
) -> Response {
    let mut state = shared.lock();
    let found = webhook_interaction(&state, app, &token)
        .and_then(|found| webhook_message(&state, &token, &message).map(|id| (found, id)));
    match found {
        Ok(((interaction, channel), id)) => delete_stored(&mut state, channel, id, Some(interaction)),
        Err(response) => response.into_response(),
    }
}

fn unknown_guild() -> Response {
    error(StatusCode::NOT_FOUND, 10004, "Unknown Guild")
}

/// Runs `answer` on the configured guild `guild`, or answers "Unknown Guild".
fn with_guild(shared: &Shared, guild: u64, answer: impl FnOnce(&State, &crate::GuildSpec) -> Response) -> Response {
    let state = shared.lock();
    if state.left_guilds.contains(&guild) {
        return ApiError::MISSING_ACCESS.into_response();
    }
    match state.config.guilds.iter().find(|spec| spec.id == guild) {
        Some(spec) => answer(&state, spec),
        None => unknown_guild(),
    }
}

async fn get_guild(AxumState(shared): SharedState, Path(guild): Path<u64>) -> Response {
    with_guild(&shared, guild, |state, spec| {
        ok(payloads::guild(spec, spec.owner.unwrap_or(state.config.bot_id), state.guild_locale(spec.id)))
    })
}

async fn get_member(AxumState(shared): SharedState, Path((guild, user)): Path<(u64, u64)>) -> Response {
    with_guild(&shared, guild, |state, _| {
        let members = state.guild_members(guild);
        let member = members.into_iter().find(|member| snowflake(&member["user"]["id"]) == Some(user));
        member.map_or_else(|| error(StatusCode::NOT_FOUND, 10007, "Unknown Member"), ok)
    })
}

async fn get_guild_channels(AxumState(shared): SharedState, Path(guild): Path<u64>) -> Response {
    with_guild(&shared, guild, |_, spec| ok(Value::Array(payloads::guild_channels(spec))))
}

async fn get_guild_roles(AxumState(shared): SharedState, Path(guild): Path<u64>) -> Response {
    with_guild(&shared, guild, |_, spec| ok(Value::Array(payloads::guild_roles(spec))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn button(style: u64, custom_id: Option<&str>, url: Option<&str>) -> Value {
        let mut b = json!({ "type": 2, "style": style, "label": "View" });
        if let Some(c) = custom_id {
            b["custom_id"] = json!(c);
        }
        if let Some(u) = url {
            b["url"] = json!(u);
        }
        b
    }

    fn rows(buttons: Vec<Value>) -> Value {
        json!([{ "type": 1, "components": buttons }])
    }

    /// A message's files as Discord keeps them through edits (UPDATE_MESSAGE's too): a body
    /// without `attachments` keeps them, a list keeps those it names (new uploads added), an
    /// empty list removes them all.
    #[test]
    fn an_edit_keeps_the_files_unless_its_attachments_list_leaves_them_out() {
        let shared = crate::state::Shared::new(crate::FakeConfig::new("t"), ([127, 0, 0, 1], 0).into());
        let mut state = shared.lock();
        let upload = |name: &str| crate::ReceivedFile {
            field: "files[0]".into(),
            filename: name.into(),
            content_type: Some("image/png".into()),
            bytes: vec![1, 2, 3],
            image: Ok((0, 0)),
            frames: 1,
        };
        let files = |m: &Value| -> Vec<String> {
            m["attachments"].as_array().unwrap().iter().map(|a| a["filename"].as_str().unwrap().to_owned()).collect()
        };
        let bot = state.bot_user();
        let mut message = payloads::message(1, 10, None, bot, "e4");
        let edit = |state: &mut State, m: &mut Value, json: Value, uploads: Vec<crate::ReceivedFile>| {
            apply_edit(state, m, &Payload { json, files: uploads });
        };
        edit(&mut state, &mut message, json!({ "attachments": [{ "id": 0 }] }), vec![upload("board.png")]);
        assert_eq!(files(&message), ["board.png"]);
        edit(&mut state, &mut message, json!({ "content": "e4, a draw offered", "components": [] }), vec![]);
        assert_eq!(files(&message), ["board.png"], "no attachments field: the picture stays");
        let board = message["attachments"][0]["id"].clone();
        let both = json!({ "attachments": [{ "id": board }, { "id": 0, "filename": "game.pgn" }] });
        edit(&mut state, &mut message, both, vec![upload("game.pgn")]);
        assert_eq!(files(&message), ["board.png", "game.pgn"], "the listed one kept, the upload added");
        edit(&mut state, &mut message, json!({ "attachments": [{ "id": 0 }] }), vec![upload("next.png")]);
        assert_eq!(files(&message), ["next.png"], "files left out of the list are removed");
        edit(&mut state, &mut message, json!({ "components": [], "attachments": [] }), vec![]);
        assert!(files(&message).is_empty(), "an empty list removes every file");
    }

    #[test]
    fn components_are_checked_as_discord_checks_them() {
        let ok =
            rows(vec![button(1, Some("cb::accept"), None), button(5, None, Some("https://chess.example.org/g/ab"))]);
        assert_eq!(check_components(&ok), None);
        assert_eq!(check_components(&Value::Null), None, "no components at all");
        let link_with_id = rows(vec![button(5, Some("cb::x"), Some("https://x"))]);
        let failed = check_components(&link_with_id).expect("refused");
        assert!(failed["0"]["components"]["0"]["custom_id"].is_object(), "{failed}");
        let link_without_url = rows(vec![button(5, None, None)]);
        assert!(check_components(&link_without_url).expect("refused")["0"]["components"]["0"]["url"].is_object());
        let link_to_javascript = rows(vec![button(5, None, Some("javascript:alert(1)"))]);
        assert!(check_components(&link_to_javascript).is_some());
        let plain_with_url = rows(vec![button(2, Some("cb::x"), Some("https://x"))]);
        assert!(check_components(&plain_with_url).expect("refused")["0"]["components"]["0"]["url"].is_object());
        let plain_without_id = rows(vec![button(1, None, None)]);
        assert!(check_components(&plain_without_id).is_some());
        let six = rows((0..6).map(|i| button(1, Some(&format!("cb::{i}")), None)).collect());
        assert!(check_components(&six).is_some(), "six buttons in a row");
        let six_rows: Vec<Value> = (0..6).map(|_| rows(vec![button(1, Some("cb::x"), None)])[0].clone()).collect();
        assert!(check_components(&Value::Array(six_rows)).expect("refused")["_errors"].is_array());
        let long = json!([{ "type": 1, "components": [{ "type": 2, "style": 5, "label": "x".repeat(81), "url": "https://x" }] }]);
        assert!(check_components(&long).expect("refused")["0"]["components"]["0"]["label"].is_object());
    }
}

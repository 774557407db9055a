//! The Discord front end (serenity): slash commands from the command table, buttons, plain
//! messages, and replies as embeds with the board inside. It translates events and replies only;
//! the game is the core's, reached through the [`Host`].
//!
//! - [`commands`]: the table as slash commands; options back to [`crate::bot::Command`].
//! - [`events`]: interactions and messages to [`crate::bot::Input`].
//! - [`gateway`]: starting the gateway within Discord's session limit; closes that end the process.
//! - [`deliver`]: [`crate::bot::Reply`] to messages, interaction answers, threads and DMs.
//! - [`guilds`]: what the bot knows of its servers (permissions, threads, languages), kept small.
//! - [`permissions`]: what the bot needs in a channel and which of it is missing.
//! - [`split`]: Discord's size limits; long answers as several messages.
//! - [`redact`]: errors as text without interaction or webhook tokens.

pub mod commands;
pub mod deliver;
pub mod events;
pub mod gateway;
pub mod guilds;
pub mod mentions;
pub mod permissions;
pub mod redact;
pub mod split;

use crate::host::Host;
use serenity::all::{ClientBuilder, Command as AppCommand, GatewayIntents, GuildId, Http, HttpBuilder};
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// How to connect.
#[derive(Clone, Debug, Default)]
pub struct DiscordOptions {
    /// Register the slash commands in this guild only (instant) instead of globally.
    pub guild: Option<u64>,
    /// Send every REST call through this base URL (a rate-limit proxy, or a fake Discord in tests).
    pub proxy: Option<String>,
    /// Read plain messages (needs the privileged message-content intent).
    pub message_content: bool,
    /// The shards this process runs; `None`: as many as Discord recommends (`GET /gateway/bot`).
    pub shards: Option<Shards>,
    /// How long in-flight work may take to finish at shutdown.
    pub grace: Duration,
    /// The HTTP client for Discord's REST API ([`rest_client`]'s when `None`): one with its own
    /// roots, resolver, outbound proxy or timeouts. Tests give one that finds the fake Discord at
    /// `discord.com`, to run with serenity's rate limiter on. Start from [`rest_client`] to keep
    /// its timeouts.
    pub http_client: Option<reqwest::Client>,
}

/// The shards one process runs: `first..=last` of `total` over every process. Discord sends a
/// guild's events on shard `(guild_id >> 22) % total` and direct messages on shard 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shards {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

/// A bot token that never shows itself in logs or errors.
pub struct Token(String);

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(…)")
    }
}

impl Token {
    /// From `DISCORD_TOKEN`, or the file named by `DISCORD_TOKEN_FILE`.
    pub fn from_env() -> Result<Token, String> {
        if let Ok(t) = std::env::var("DISCORD_TOKEN")
            && !t.trim().is_empty()
        {
            return Ok(Token(t.trim().to_string()));
        }
        if let Ok(path) = std::env::var("DISCORD_TOKEN_FILE") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("cannot read DISCORD_TOKEN_FILE {path}: {e}"))?;
            if !text.trim().is_empty() {
                return Ok(Token(text.trim().to_string()));
            }
            return Err(format!("DISCORD_TOKEN_FILE {path} is empty"));
        }
        Err("no Discord token: set DISCORD_TOKEN or DISCORD_TOKEN_FILE".into())
    }

    pub fn new(token: impl Into<String>) -> Token {
        Token(token.into())
    }
}

/// The gateway intents: guilds (channels, permissions), DMs, and server messages; their content
/// only with the privileged intent, but without it Discord still gives the content of messages
/// that mention the bot (`@capabot challenge @bob`).
pub fn intents(message_content: bool) -> GatewayIntents {
    let mut i = GatewayIntents::GUILDS | GatewayIntents::DIRECT_MESSAGES | GatewayIntents::GUILD_MESSAGES;
    if message_content {
        i |= GatewayIntents::MESSAGE_CONTENT;
    }
    i
}

/// How long opening a connection to Discord's REST API may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one REST request may take from sending to the end of its answer (a board GIF's
/// upload included). serenity builds its own client without any: one connection that never
/// answered held its chat's deliveries, and every chat sharing that chat's lock, for ever.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// The HTTP client settings for Discord's REST API: [`CONNECT_TIMEOUT`] and [`REQUEST_TIMEOUT`].
/// A request that times out is a passing failure, retried by the outbox
/// ([`deliver::classify`]).
pub fn rest_client() -> reqwest::ClientBuilder {
    reqwest::Client::builder().use_rustls_tls().connect_timeout(CONNECT_TIMEOUT).timeout(REQUEST_TIMEOUT)
}

fn make_http(token: &Token, opts: &DiscordOptions) -> Result<Http, String> {
    let client = match &opts.http_client {
        Some(client) => client.clone(),
        None => rest_client().build().map_err(|e| format!("cannot make the HTTP client: {e}"))?,
    };
    let mut http = HttpBuilder::new(&token.0).client(client);
    if let Some(proxy) = opts.proxy.as_deref() {
        // serenity sends REST through the proxy only with its own ratelimiter off.
        http = http.proxy(proxy).ratelimiter_disabled(true);
    }
    Ok(http.build())
}

/// Connects, registers the slash commands, plugs the front end into the host and runs until
/// `stop` resolves (then the host shuts down, and the gateway after it). A rejected token is an
/// error before anything else happens.
///
/// Only this wrapper is generic over `stop`: the front end's body (and all of serenity it
/// reaches) is compiled once, in this crate, instead of once more in every binary that passes
/// a future of its own type (the product, each test binary, the laboratory).
pub async fn run(
    host: Arc<Host>,
    token: Token,
    opts: DiscordOptions,
    stop: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    run_until(host, token, opts, Box::pin(stop)).await
}

async fn run_until(
    host: Arc<Host>,
    token: Token,
    opts: DiscordOptions,
    stop: std::pin::Pin<Box<dyn Future<Output = ()> + Send>>,
) -> Result<(), String> {
    let http = make_http(&token, &opts)?;
    let app = http.get_current_application_info().await.map_err(|e| match &e {
        serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 401 => {
            "Discord rejected the token (401 Unauthorized)".to_string()
        }
        _ => format!("cannot reach Discord: {}", redact::describe(&e)),
    })?;
    let pending = Arc::new(deliver::PendingMap::default());
    let guilds = Arc::new(guilds::Guilds::default());
    let mentions = mentions::Shared::default();
    let handler = events::Handler {
        host: host.clone(),
        guilds: guilds.clone(),
        pending: pending.clone(),
        message_content: opts.message_content,
        mentions: mentions.clone(),
        seen: events::RecentIds::default(),
        shards: events::ShardHealth::new(opts.shards.map_or(0, |s| s.last - s.first + 1)),
    };
    let mut client = ClientBuilder::new_with_http(make_http(&token, &opts)?, intents(opts.message_content))
        .event_handler(handler)
        .cache_settings(guilds::cache_settings())
        .await
        .map_err(|e| format!("cannot start the Discord client: {e}"))?;
    drop(token);
    let http = client.http.clone();
    http.set_application_id(app.id);
    let commands = commands::slash_commands(opts.guild.is_none());
    let registered = match opts.guild {
        Some(g) => GuildId::new(g).set_commands(http.clone(), commands).await,
        None => AppCommand::set_global_commands(http.clone(), commands).await,
    }
    .map_err(|e| format!("cannot register the slash commands: {}", redact::describe(&e)))?;
    // Set before any event is handled: the gateway connects below.
    let _ = mentions.set(mentions::Mentions::from_registered(&registered));
    let message_content = opts.message_content;
    let front_end = deliver::DiscordFrontEnd {
        http: http.clone(),
        cache: client.cache.clone(),
        guilds,
        pending,
        message_content,
        mentions,
    };
    host.register(Arc::new(front_end));
    let scheduler = host.start_scheduler();
    // The games where the AI owes a move are listed before the gateway connects (so no new input
    // can race the listing); the searches run in the background while Discord connects, and their
    // answers wait in the outbox.
    host.resume_ai().await;
    let shards = client.shard_manager.clone();
    // Listening for a close that does not end `start` (4011) before any shard starts.
    let closed = gateway::closed_for_good();
    let (result, connection_closed) = tokio::select! {
        // serenity's `start_shard_range` takes the last shard included: `first..last` runs `last` too.
        r = async {
            let starting = opts.shards.map(|s| u64::from(s.last - s.first + 1));
            gateway::wait_for_session_starts(&http, starting).await?;
            match opts.shards {
                Some(s) => client.start_shard_range(s.first..s.last, s.total).await,
                None => client.start_autosharded().await,
            }
            .map_err(|e| gateway::ended(&e))
        } => (r, false),
        // serenity runs on without the shard after a close it does not end `start` for (4011).
        fatal = closed => (Err(fatal), true),
        _ = stop => (Ok(()), false),
    };
    host.shutdown(opts.grace).await;
    scheduler.abort();
    // After a 4011 the shard's runner lives on with its connection closed by Discord. Asked to shut
    // down, serenity 0.12.5's runner sends its close and then waits for Discord's in a loop that
    // never yields on a closed connection: it holds a runtime worker for good, and with it the
    // runtime's timers. The process stops without asking it.
    if !connection_closed {
        shards.shutdown_all().await;
    }
    result
}

//! Start-up of the long-running sub-commands: the console, and the chat front ends on one host, one
//! scheduler and one database until SIGINT or SIGTERM. `main` parses the command line and calls
//! these.
//!
//! They live in the library, not in `main`, for the build: a release build instantiates generic code
//! again in every crate that uses it, so the async start-up (tasks holding the front ends' futures,
//! whose drop glue and task harnesses reach deep into serenity, matrix-sdk and tokio) compiled in
//! the binary cost as much again as it does here. Here it is compiled once, with the rest.

use crate::bot::{Bot, CapabotAi, FirstLegalMove, MoveOracle, NoAi, SystemClock};
use crate::config::Config;
use crate::console::{self, ConsoleOptions, ConsoleOutput};
use crate::host::{self, Host};
use std::sync::Arc;

/// `capabot console`: the terminal chat on a host of its own until the input ends, `/quit`, or
/// SIGINT/SIGTERM.
pub fn run_console(cfg: &Config, opts: ConsoleOptions, input: Box<dyn std::io::BufRead + Send>) -> Result<(), String> {
    no_web_without_the_feature(cfg)?;
    let (host, rt) = start_host(cfg)?;
    let output = Arc::new(ConsoleOutput::new(Box::new(std::io::stdout()), opts));
    let grace = std::time::Duration::from_secs(cfg.host.shutdown_grace_seconds);
    let res = rt.block_on(async {
        // The web pages beside the console (`[web] listen`): the live pages of its games, tried
        // without a chat platform.
        #[cfg(feature = "web")]
        start_web(cfg, &host).await?;
        let console = tokio::spawn(console::run(host.clone(), output, input));
        host.start_drainer();
        tokio::select! {
            r = console => r.map_err(|e| format!("console: {e}"))?.map_err(|e| format!("console: {e}")),
            _ = host::shutdown_signal() => Ok(()),
        }
    });
    rt.block_on(host.shutdown(grace));
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    res
}

/// `[web] listen` set in a build without the web pages: said before anything starts.
fn no_web_without_the_feature(cfg: &Config) -> Result<(), String> {
    if cfg!(not(feature = "web")) && cfg.web.listen.is_some() {
        return Err("web.listen is set, but this build has no web pages (cargo feature web)".into());
    }
    Ok(())
}

/// Serves the web pages on `[web] listen`, when set, until the host stops; live moves from this
/// process, and on PostgreSQL from the others too.
#[cfg(feature = "web")]
async fn start_web(cfg: &Config, host: &Arc<Host>) -> Result<(), String> {
    if let Some(addr) = cfg.web.listen {
        let listening = host.hear_other_processes();
        let options = crate::web::WebOptions { listening, ..crate::web::WebOptions::live(host.changes()) };
        let bound = crate::web::serve(host.bot().clone(), addr, options, host.stopping()).await?;
        match &cfg.web.public_url {
            Some(public) => eprintln!("capabot: web pages on http://{bound}/, linked in the chats as {public}"),
            None => eprintln!(
                "capabot: web pages on http://{bound}/; no [web] public_url is set, so the chats are given no links"
            ),
        }
    }
    Ok(())
}

/// The AI behind capabot's own side.
fn oracle() -> Arc<dyn MoveOracle> {
    match std::env::var("CAPABOT_AI").as_deref() {
        Ok("first-legal") => Arc::new(FirstLegalMove),
        Ok("none") => Arc::new(NoAi),
        _ => Arc::new(CapabotAi),
    }
}

/// Opens the database and starts the host on a tokio runtime.
fn start_host(cfg: &Config) -> Result<(Arc<Host>, tokio::runtime::Runtime), String> {
    start_host_with(cfg, cfg.host_config())
}

/// A host for the chat platforms (with rate limits).
#[cfg(any(feature = "discord", feature = "matrix"))]
fn start_chat_host(cfg: &Config, discord: bool, matrix: bool) -> Result<(Arc<Host>, tokio::runtime::Runtime), String> {
    start_host_with(cfg, cfg.chat_host_config(discord, matrix))
}

fn start_host_with(
    cfg: &Config,
    host_config: crate::host::HostConfig,
) -> Result<(Arc<Host>, tokio::runtime::Runtime), String> {
    let store = cfg.open_store()?;
    let bot = Arc::new(Bot::new(store, Arc::new(SystemClock), oracle(), cfg.bot_config()));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let host = Host::new(bot, host_config);
    Ok((host, rt))
}

/// Whether any of these environment variables is set and not empty.
#[cfg(any(feature = "discord", feature = "matrix"))]
fn has_env(names: &[&str]) -> bool {
    names.iter().any(|n| std::env::var(n).is_ok_and(|v| !v.trim().is_empty()))
}

/// `capabot run`: the front ends with credentials in the environment.
#[cfg(any(feature = "discord", feature = "matrix"))]
pub fn run_with_credentials(cfg: Config) -> Result<(), String> {
    let discord = cfg!(feature = "discord") && has_env(&["DISCORD_TOKEN", "DISCORD_TOKEN_FILE"]);
    let matrix = cfg!(feature = "matrix") && has_env(&["MATRIX_HOMESERVER", "MATRIX_USER"]);
    if !discord && !matrix {
        return Err("no chat front end has credentials: set DISCORD_TOKEN (or DISCORD_TOKEN_FILE) for Discord, \
                    MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD (or MATRIX_ACCESS_TOKEN) for Matrix"
            .into());
    }
    run_front_ends(cfg, discord, matrix)
}

/// Runs the chosen front ends on one host, one scheduler and one database until SIGINT/SIGTERM;
/// the first front end that ends with an error stops the others. Credentials are read (and a
/// missing one reported) before anything starts.
#[cfg(any(feature = "discord", feature = "matrix"))]
#[allow(unused_variables)]
pub fn run_front_ends(cfg: Config, discord: bool, matrix: bool) -> Result<(), String> {
    use tokio_util::sync::CancellationToken;
    #[cfg(feature = "discord")]
    let token = if discord { Some(crate::discord::Token::from_env()?) } else { None };
    #[cfg(feature = "matrix")]
    let creds = if matrix { Some(crate::matrix::Credentials::from_env().map_err(|e| e.to_string())?) } else { None };
    no_web_without_the_feature(&cfg)?;
    #[cfg(not(feature = "metrics-http"))]
    if cfg.host.metrics.is_some() {
        return Err("host.metrics is set, but this build has no metrics endpoint (cargo feature metrics-http)".into());
    }
    let grace = std::time::Duration::from_secs(cfg.host.shutdown_grace_seconds);
    let (host, rt) = start_chat_host(&cfg, discord, matrix)?;
    let stop = CancellationToken::new();
    // Started with the stop, on a thread of its own: the process ends even if a front end's library
    // never finishes its goodbyes (`host::watchdog`).
    let deadline = host::watchdog::Deadline::for_process(grace + host::watchdog::BEYOND_GRACE);
    let res = rt.block_on(async {
        #[cfg(feature = "metrics-http")]
        if let Some(addr) = cfg.host.metrics {
            let bound = host::metrics::endpoint::serve(host.clone(), addr).await?;
            eprintln!("capabot: health and metrics on http://{bound}/healthz and http://{bound}/metrics");
        }
        #[cfg(feature = "web")]
        start_web(&cfg, &host).await?;
        let (signal, stopping) = (stop.clone(), deadline.clone());
        tokio::spawn(async move {
            host::shutdown_signal().await;
            stopping.start();
            signal.cancel();
        });
        let mut tasks: tokio::task::JoinSet<Result<(), String>> = tokio::task::JoinSet::new();
        #[cfg(feature = "discord")]
        if let Some(token) = token {
            let opts = crate::discord::DiscordOptions {
                guild: cfg.discord.guild,
                proxy: cfg.discord.proxy.clone(),
                message_content: cfg.discord.message_content,
                shards: cfg.discord.shard_range()?.map(|r| crate::discord::Shards {
                    first: r.first,
                    last: r.last,
                    total: r.total,
                }),
                grace,
                http_client: None,
            };
            let (h, s) = (host.clone(), stop.clone());
            tasks.spawn(async move { crate::discord::run(h, token, opts, s.cancelled_owned()).await });
        }
        #[cfg(feature = "matrix")]
        if let Some(creds) = creds {
            let (h, s, store) = (host.clone(), stop.clone(), cfg.matrix.store.clone());
            let options = crate::matrix::Options {
                allow: cfg.matrix.allow.clone(),
                max_rooms: cfg.matrix.max_rooms,
                room_queue: cfg.matrix.room_queue,
                mute_notifications: cfg.matrix.mute_notifications,
                ..Default::default()
            };
            tasks.spawn(async move {
                let client = crate::matrix::session::connect(&creds, &store).await.map_err(|e| e.to_string())?;
                let front = crate::matrix::serve_with(h.clone(), client, options).await;
                h.start_scheduler();
                let resuming = h.clone();
                tokio::spawn(async move { resuming.resume_ai().await });
                tokio::select! {
                    _ = crate::matrix::sync_until_stopped(&h, &front.client) => {}
                    _ = s.cancelled() => {}
                }
                h.shutdown(grace).await;
                Ok(())
            });
        }
        let mut first_error = None;
        while let Some(done) = tasks.join_next().await {
            if let Err(e) = done.map_err(|e| format!("a front end failed: {e}")).and_then(|r| r) {
                first_error.get_or_insert(e);
                deadline.start();
                stop.cancel();
            }
        }
        host.shutdown(grace).await;
        first_error.map_or(Ok(()), Err)
    });
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    drop(deadline);
    res
}

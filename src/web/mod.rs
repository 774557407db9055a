//! The web front end (cargo feature `web`, `[web] listen`): read-only pages of the communities
//! that opted in (`settings community web:on`) — a game (live), a community (leaderboards,
//! ladders, tournaments, recent games) and a player — served by axum from the same process.
//!
//! What may be shown is the core's decision ([`crate::bot::Bot::web_game`] and its siblings): this
//! module only turns it into HTML ([`pages`], maud templates that escape every value), pictures
//! (the renderer's, through the same [`crate::bot::Drawing`]s the chat gets) and downloads. It has
//! no way to change anything: every route is a `GET`.
//!
//! Safety: a strict Content-Security-Policy (scripts, styles and pictures from this site only, no
//! inline script; no user text ever reaches the script, which reads the page's attributes), a
//! per-address rate limit (GCRA from `governor`), 404 for what does not exist or is not public,
//! 400 for an address capabot never makes, and no panic reaches a person: a failure is logged and
//! answered with a plain 500 page.

mod kept;
pub mod pages;
mod places;
mod stall;

pub use kept::PAGES_FRESH;
pub use stall::{MIN_WRITE_RATE, WAITING_PER_CLIENT, WRITE_GRACE, WRITE_STALL_LIMIT};

use crate::bot::{Bot, BotError, Drawing, WebFollow};
use crate::host::changes::{Changes, Follower, Heard};
use crate::host::listen::Listening;
use crate::i18n::{Lang, with_lang};
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Extension, Router};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// The Content-Security-Policy of every answer: nothing from elsewhere, no inline script or style,
/// no frames, no forms.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// How often a live game page's event stream looks at the game's version (one indexed row) when
/// nothing told it of a change: the fallback for moves made by another process sharing the
/// database (Discord shards, a Matrix process), which the host's feed of changes
/// ([`crate::host::changes`]) never hears of. Moves made in this process are on the page at once.
pub const FALLBACK_POLL: Duration = Duration::from_secs(5);

/// How often a live page looks at its game without being told while the host hears the other
/// processes' changes (PostgreSQL, its listener up: [`crate::host::listen`]): their moves come as
/// notices then, and the poll only covers what nothing told. While the listener reconnects the
/// pages poll every [`FALLBACK_POLL`] again (the listener tells them to look when it loses its
/// connection, and again once it listens anew).
pub const LISTENING_POLL: Duration = Duration::from_secs(60);

/// How long one event stream lasts; the browser's `EventSource` then reconnects by itself (a
/// stream never outlives a page by much, and a shutdown does not wait on it: see [`serve`]).
const STREAM_FOR: Duration = Duration::from_secs(30 * 60);

/// The web server's settings.
#[derive(Clone, Debug)]
pub struct WebOptions {
    /// Requests one address may make per minute, after a burst of `burst`.
    pub per_minute: u32,
    pub burst: u32,
    /// Whether `X-Forwarded-For` names the client when the peer is a loopback address (a reverse
    /// proxy on the same machine); otherwise the peer's own address is the key.
    pub trust_loopback_proxy: bool,
    /// The host's feed of changed chats ([`crate::host::Host::changes`]): live pages hear of a
    /// move as soon as it is committed. Without it they only poll.
    pub live: Option<Changes>,
    /// How often a live page looks at its game without being told ([`FALLBACK_POLL`]).
    pub poll_every: Duration,
    /// The host's listener for other processes' changes ([`crate::host::Host::hear_other_processes`],
    /// PostgreSQL; `None` on SQLite): while it listens, the pages look every `poll_listening`
    /// instead of every `poll_every`.
    pub listening: Option<Arc<Listening>>,
    /// How often a live page looks at its game while `listening` is up ([`LISTENING_POLL`]).
    pub poll_listening: Duration,
    /// Bytes of drawn pictures kept for the next reader ([`PICTURES_KEPT`]; 0: every picture is
    /// drawn for each request, as the benchmark's comparison does).
    pub pictures_kept: usize,
    /// Readings of the store (and drawings) at once, on the blocking pool; requests beyond them
    /// wait their turn holding no thread and no connection. By default as many as the cores, at
    /// least two (the host's [`crate::host::default_core_threads`]).
    pub readers: usize,
    /// How long a community's or a player's page is kept once made ([`PAGES_FRESH`]; zero: each
    /// is read and made for its request). A change told on `live` in a chat of the community
    /// drops its pages at once; the community's setting is read for every request all the same.
    pub pages_fresh: Duration,
    /// How long a connection may wait for a request's headers, a new one or a kept-alive one
    /// between requests, before it is closed ([`HEADER_READ_TIMEOUT`]).
    pub header_read_timeout: Duration,
    /// Live-update streams open at once, all clients together ([`STREAMS_AT_ONCE`]).
    pub streams_at_once: usize,
    /// How long an answer's write may wait for the client to read before the connection is
    /// closed ([`WRITE_STALL_LIMIT`]).
    pub write_stall_limit: Duration,
    /// The least average pace, in bytes a second, at which a client must read while an answer
    /// waits for it ([`MIN_WRITE_RATE`]; 0: none), with at most `write_grace` of waiting in hand
    /// ([`WRITE_GRACE`]).
    pub min_write_rate: u32,
    pub write_grace: Duration,
    /// Connections of one client whose answers may wait for it to read at once
    /// ([`WAITING_PER_CLIENT`]).
    pub waiting_per_client: usize,
    /// Connections open at once from one peer (an IPv4 address, an IPv6 /64), but for the local
    /// reverse proxy when it is trusted ([`CONNECTIONS_PER_PEER`]).
    pub connections_per_peer: usize,
}

impl Default for WebOptions {
    fn default() -> Self {
        WebOptions {
            per_minute: 600,
            burst: 60,
            trust_loopback_proxy: true,
            live: None,
            poll_every: FALLBACK_POLL,
            listening: None,
            poll_listening: LISTENING_POLL,
            pictures_kept: PICTURES_KEPT,
            readers: crate::host::default_core_threads(),
            pages_fresh: PAGES_FRESH,
            header_read_timeout: HEADER_READ_TIMEOUT,
            streams_at_once: STREAMS_AT_ONCE,
            write_stall_limit: WRITE_STALL_LIMIT,
            min_write_rate: MIN_WRITE_RATE,
            write_grace: WRITE_GRACE,
            waiting_per_client: WAITING_PER_CLIENT,
            connections_per_peer: CONNECTIONS_PER_PEER,
        }
    }
}

impl WebOptions {
    /// The defaults, with live pages fed by `changes`.
    pub fn live(changes: Changes) -> WebOptions {
        WebOptions { live: Some(changes), ..WebOptions::default() }
    }

    /// How long a live page's watcher waits for a word before it looks at its game anyway: long
    /// while the listener for other processes' changes is up, short otherwise.
    fn poll_now(&self) -> Duration {
        if self.listening.as_ref().is_some_and(|l| l.is_up()) { self.poll_listening } else { self.poll_every }
    }
}

#[derive(Clone)]
struct Web {
    bot: Arc<Bot>,
    limiter: Arc<DefaultKeyedRateLimiter<IpAddr>>,
    /// Requests checked by `limiter`: every [`FORGET_CLIENTS_EVERY`]th forgets the clients whose
    /// allowance is whole again, so its memory follows the clients of the moment, not every
    /// address ever seen.
    checked: Arc<std::sync::atomic::AtomicU64>,
    /// Live-update streams open, by client ([`STREAMS_PER_CLIENT`] at most each) and in all.
    streams: Arc<places::Places>,
    options: WebOptions,
    stop: CancellationToken,
    pictures: Arc<Mutex<Pictures>>,
    watched: Arc<Mutex<Watched>>,
    /// The places on the blocking pool ([`WebOptions::readers`]).
    readers: Arc<tokio::sync::Semaphore>,
    /// Community and player pages kept for a moment ([`WebOptions::pages_fresh`]).
    kept: Arc<Mutex<kept::Kept>>,
}

impl Web {
    /// Runs `work` on the blocking pool once one of the web's places there is free. Unbounded,
    /// a burst of requests (or of live pages opening) took a thread each, up to tokio's 512, and
    /// each thread a database connection of its own: opening them slowed every reading, which
    /// took more threads still (`lab bench-web --live`, `docs/load.md`).
    async fn blocking<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let _place = self.readers.acquire().await.ok()?;
        match tokio::task::spawn_blocking(work).await {
            Ok(done) => Some(done),
            Err(e) => {
                tracing::error!("a web page's work panicked: {e}");
                None
            }
        }
    }
}

/// A game's version as its live pages see it: `None` once it may no longer be shown.
type Version = Option<(u32, i64)>;

/// The games that open live pages follow, each with its watcher's channel ([`watch_game`]): one
/// reading of a game's version per change, however many pages are open on it. A page subscribes
/// under this lock, and a watcher whose last page went away leaves under it, so a page never
/// subscribes to a watcher that has ended.
type Watched = HashMap<i64, Arc<watch::Sender<Version>>>;

/// Bytes of pictures kept at most by default ([`Pictures`]): several hundred boards.
pub const PICTURES_KEPT: usize = 32 << 20;

/// The pictures drawn lately, by what they show (the drawing's description as JSON, so the same
/// position, last move, side and size is drawn once however many readers ask for it, and a
/// changed game never gets an old picture). The oldest go first once `limit` bytes are passed.
struct Pictures {
    by_drawing: HashMap<String, Bytes>,
    order: VecDeque<String>,
    bytes: usize,
    limit: usize,
}

impl Pictures {
    fn get(&self, key: &str) -> Option<Bytes> {
        self.by_drawing.get(key).cloned()
    }

    fn keep(&mut self, key: String, bytes: Bytes) {
        if bytes.len() > self.limit / 4 || self.by_drawing.contains_key(&key) {
            return;
        }
        self.bytes += bytes.len();
        self.order.push_back(key.clone());
        self.by_drawing.insert(key, bytes);
        while self.bytes > self.limit {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(b) = self.by_drawing.remove(&old) {
                self.bytes -= b.len();
            }
        }
    }
}

/// The pages' router (without a listener), for [`serve`] and the tests. Requests need a
/// [`ConnectInfo<SocketAddr>`] (as `into_make_service_with_connect_info` gives) for the rate limit;
/// without one they all share one key.
pub fn router(bot: Arc<Bot>, options: WebOptions, stop: CancellationToken) -> Router {
    let quota = Quota::per_minute(NonZeroU32::new(options.per_minute.max(1)).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(options.burst.max(1)).unwrap_or(NonZeroU32::MIN));
    let pictures =
        Pictures { by_drawing: HashMap::new(), order: VecDeque::new(), bytes: 0, limit: options.pictures_kept };
    let readers = Arc::new(tokio::sync::Semaphore::new(options.readers.max(1)));
    let kept = Arc::new(Mutex::new(kept::Kept::new(options.pages_fresh, options.live.as_ref())));
    let state = Web {
        bot,
        limiter: Arc::new(RateLimiter::keyed(quota)),
        checked: Arc::default(),
        streams: places::Places::new(STREAMS_PER_CLIENT, options.streams_at_once),
        options,
        stop,
        pictures: Arc::new(Mutex::new(pictures)),
        watched: Arc::new(Mutex::new(HashMap::new())),
        readers,
        kept,
    };
    Router::new()
        .route("/", get(home_page))
        .route("/g/{slug}", get(game_page))
        .route("/g/{slug}/board/{ply}", get(game_board))
        .route("/g/{slug}/pgn", get(game_pgn))
        .route("/g/{slug}/pgn/analysed", get(game_pgn_analysed))
        .route("/g/{slug}/course", get(game_course))
        .route("/g/{slug}/gif", get(game_gif))
        .route("/g/{slug}/events", get(game_events))
        .route("/c/{platform}/{community}", get(community_page))
        .route("/c/{platform}/{community}/p/{player}", get(player_page))
        .route("/c/{platform}/{community}/p/{player}/chart", get(player_chart))
        .route("/static/app.js", get(script))
        .route("/static/style.css", get(style))
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Serves the pages on `addr` until `stop` is cancelled. Returns the address bound (port 0 picks a
/// free one).
pub async fn serve(
    bot: Arc<Bot>,
    addr: SocketAddr,
    options: WebOptions,
    stop: CancellationToken,
) -> Result<SocketAddr, String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr} for the web pages: {e}"))?;
    let bound = listener.local_addr().map_err(|e| format!("web listener: {e}"))?;
    let bounds = stall::Bounds {
        stall: options.write_stall_limit,
        pace: stall::Pace { rate: options.min_write_rate, grace: options.write_grace },
        waiting: places::Places::new(options.waiting_per_client, usize::MAX),
    };
    // The local reverse proxy, trusted to name its clients, opens connections for all of them.
    let peers = Peers {
        places: places::Places::new(options.connections_per_peer, usize::MAX),
        proxy_exempt: options.trust_loopback_proxy,
    };
    let limits = (options.header_read_timeout, bounds);
    let app = router(bot, options, stop.clone());
    tokio::spawn(accept(listener, app, limits, peers, stop));
    Ok(bound)
}

/// Connections open at once from one peer that is not the trusted local proxy. A peer opening
/// sockets and sending nothing holds each until the header-read limit, and opening them again
/// held all [`MAX_CONNECTIONS`] from one host; now it holds at most this many, and a connection
/// beyond them is closed as it is accepted. Sixteen times what a browser opens to a site, for a
/// household or an office behind one address.
pub const CONNECTIONS_PER_PEER: usize = 96;

/// The connections open by peer ([`CONNECTIONS_PER_PEER`]).
struct Peers {
    places: Arc<places::Places>,
    /// The loopback peer is the reverse proxy (`trust_loopback_proxy`), not counted.
    proxy_exempt: bool,
}

impl Peers {
    /// A place for a connection from `peer`: `Some(None)` for the trusted proxy, `None` when the
    /// peer holds its share.
    fn take(&self, peer: IpAddr) -> Option<Option<places::Place>> {
        if self.proxy_exempt && peer.to_canonical().is_loopback() {
            return Some(None);
        }
        self.places.take(client_key(peer)).map(Some)
    }
}

/// Connections served at once; more wait in the listener's backlog until one ends.
pub const MAX_CONNECTIONS: usize = 1_024;
/// A request's headers must have arrived this long after the connection began waiting for them
/// (a new connection, or a kept-alive one between requests), else the connection is closed: a
/// client that opens connections and sends nothing, or half a request, holds none for long.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Serves each connection of `listener` with `app`, at most [`MAX_CONNECTIONS`] at once and
/// [`CONNECTIONS_PER_PEER`] of one peer (but the trusted local proxy), each
/// request's headers within the first of `limits` ([`HEADER_READ_TIMEOUT`]) and its answers'
/// waits for the client to read within the second ([`stall`]: [`WRITE_STALL_LIMIT`] without
/// progress, [`MIN_WRITE_RATE`], [`WAITING_PER_CLIENT`]), until `stop` is cancelled (connections
/// then finish their requests and close).
async fn accept(
    listener: tokio::net::TcpListener,
    app: Router,
    (header_read_timeout, bounds): (Duration, stall::Bounds),
    peers: Peers,
    stop: CancellationToken,
) {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let slot = tokio::select! {
            () = stop.cancelled() => return,
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => return,
            },
        };
        let (stream, peer) = tokio::select! {
            () = stop.cancelled() => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::debug!("web: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(peer_place) = peers.take(peer.ip()) else {
            // Closed at once: the peer holds its share of the connections.
            tracing::debug!(peer = %client_key(peer.ip()), "web: a peer holds its share of connections; closed");
            continue;
        };
        // Who the connection's answers wait for: the peer, until a request names its client.
        let client = stall::ConnClient::new(client_key(peer.ip()));
        let service = hyper_util::service::TowerToHyperService::new(
            app.clone().layer(Extension(ConnectInfo(peer))).layer(Extension(client.clone())),
        );
        let (stop, bounds) = (stop.clone(), bounds.clone());
        tokio::spawn(async move {
            let _slots = (slot, peer_place);
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_read_timeout);
            let io = TokioIo::new(stall::StallBound::new(stream, bounds, client));
            let conn = builder.serve_connection(io, service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = stop.cancelled() => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
        });
    }
}

/// The address a request counts against: the peer's, or the client a local reverse proxy names.
fn client_of(req: &Request, options: &WebOptions) -> IpAddr {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let forwarded = || {
        let v = req.headers().get("x-forwarded-for")?.to_str().ok()?;
        v.rsplit(',').next()?.trim().parse::<IpAddr>().ok()
    };
    let ip = match peer {
        // `::ffff:127.0.0.1` on a dual-stack listener is the proxy too, as the connections' cap counts it.
        Some(ip) if ip.to_canonical().is_loopback() && options.trust_loopback_proxy => forwarded().unwrap_or(ip),
        Some(ip) => ip,
        None => IpAddr::from([0, 0, 0, 0]),
    };
    client_key(ip)
}

/// What a client counts under (its rate and its live streams): an IPv4 address, or the /64 network
/// of an IPv6 one. A host or a household is given a whole /64: counted by each address, one client
/// had 2⁶⁴ allowances and as many times [`STREAMS_PER_CLIENT`] streams, all the server's
/// connections.
fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & !(u128::from(u64::MAX)))),
        v4 => v4,
    }
}

/// How often (in requests) the rate limiter forgets the clients whose allowance is whole again.
pub const FORGET_CLIENTS_EVERY: u64 = 4_096;

/// Counts a request checked by `limiter`, and every [`FORGET_CLIENTS_EVERY`]th forgets the
/// clients whose allowance is whole again.
fn forget_clients_if_due(limiter: &DefaultKeyedRateLimiter<IpAddr>, checked: &std::sync::atomic::AtomicU64) {
    if checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % FORGET_CLIENTS_EVERY == FORGET_CLIENTS_EVERY - 1 {
        limiter.retain_recent();
        limiter.shrink_to_fit();
    }
}

/// Rate limit, then the security headers on every answer. The connection's answer waits for
/// the request's client from here on ([`stall`]).
async fn guard(State(web): State<Web>, req: Request, next: Next) -> Response {
    let client = client_of(&req, &web.options);
    if let Some(conn) = req.extensions().get::<stall::ConnClient>() {
        conn.set(client);
    }
    forget_clients_if_due(&web.limiter, &web.checked);
    let lang = request_lang(req.headers());
    let mut res = if web.limiter.check_key(&client).is_err() {
        let mut r = error_page(StatusCode::TOO_MANY_REQUESTS, lang);
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
        r
    } else {
        next.run(req).await
    };
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// The reader's language from `Accept-Language` (the first capabot speaks), else English.
fn request_lang(headers: &HeaderMap) -> Option<Lang> {
    let v = headers.get(header::ACCEPT_LANGUAGE)?.to_str().ok()?;
    let mut tags: Vec<(f32, &str)> = v
        .split(',')
        .filter_map(|part| {
            let mut it = part.split(';');
            let tag = it.next()?.trim();
            let q = it.find_map(|p| p.trim().strip_prefix("q=")).and_then(|q| q.parse().ok()).unwrap_or(1.0);
            Some((q, tag))
        })
        .collect();
    tags.sort_by(|a, b| b.0.total_cmp(&a.0));
    tags.into_iter().find_map(|(_, t)| Lang::parse(t))
}

/// What a page's handler ends in.
enum Outcome {
    Page(String),
    NotFound,
    Failed(BotError),
}

/// A community's page or a player's (`player`), made off the async threads in the community's
/// language (else the reader's, else the configuration's): the community's setting first (one
/// statement, for every request: `web:off` takes the pages down at once), then the page kept from
/// a moment ago ([`kept`]) or, without one, the page read and made by `work`, and kept.
async fn render_kept(
    web: &Web,
    headers: &HeaderMap,
    (platform, community, player): (String, String, Option<i64>),
    work: impl FnOnce(&Bot) -> Result<Option<String>, BotError> + Send + 'static,
) -> Response {
    let (bot, kept) = (web.bot.clone(), web.kept.clone());
    let reader = request_lang(headers);
    let fallback = reader.unwrap_or(bot.config().lang);
    fn lock(k: &Mutex<kept::Kept>) -> std::sync::MutexGuard<'_, kept::Kept> {
        k.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    let done = web
        .blocking(move || {
            let (shown, own) = match bot.web_shown(&platform, &community) {
                Ok(s) => s,
                Err(e) => return (fallback, Outcome::Failed(e)),
            };
            let lang = own.unwrap_or(fallback);
            if !shown {
                lock(&kept).drop_community(&platform, &community);
                return (lang, Outcome::NotFound);
            }
            let key = kept::PageKey { platform, community, player, lang };
            if let Some(html) = lock(&kept).get(&key) {
                return (lang, Outcome::Page(html));
            }
            let began = lock(&kept).begin();
            let outcome = with_lang(lang, || match work(&bot) {
                Ok(Some(html)) => Outcome::Page(html),
                Ok(None) => Outcome::NotFound,
                Err(e) => Outcome::Failed(e),
            });
            if let Outcome::Page(html) = &outcome {
                lock(&kept).keep(key, html, began);
            }
            (lang, outcome)
        })
        .await;
    answer(done, reader)
}

/// The answer to a page's work done in a language (`None`: it never ran; the reader's language).
fn answer(done: Option<(Lang, Outcome)>, reader: Option<Lang>) -> Response {
    match done {
        Some((_, Outcome::Page(html))) => html_response(StatusCode::OK, html),
        Some((lang, Outcome::NotFound)) => error_page(StatusCode::NOT_FOUND, Some(lang)),
        Some((lang, Outcome::Failed(e))) => {
            tracing::warn!("a web page failed: {e:?}");
            error_page(StatusCode::INTERNAL_SERVER_ERROR, Some(lang))
        }
        None => error_page(StatusCode::INTERNAL_SERVER_ERROR, reader),
    }
}

fn html_response(status: StatusCode, html: String) -> Response {
    let mut r = (status, html).into_response();
    r.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    r
}

fn error_page(status: StatusCode, lang: Option<Lang>) -> Response {
    let html = with_lang(lang.unwrap_or_default(), || pages::error(status.as_u16()));
    html_response(status, html)
}

fn bad_request() -> Response {
    error_page(StatusCode::BAD_REQUEST, None)
}

async fn home_page(headers: HeaderMap) -> Response {
    html_response(StatusCode::OK, with_lang(request_lang(&headers).unwrap_or_default(), pages::home))
}

async fn not_found(headers: HeaderMap) -> Response {
    error_page(StatusCode::NOT_FOUND, request_lang(&headers))
}

/// A community id as capabot's platforms write them (Discord's numbers, Matrix's `!room:server`):
/// letters, digits and `!:._-@`, at most 255 characters; a platform name in lowercase letters.
fn well_formed(platform: &str, community: &str) -> bool {
    !platform.is_empty()
        && platform.len() <= 20
        && platform.bytes().all(|b| b.is_ascii_lowercase())
        && !community.is_empty()
        && community.len() <= 255
        && community.bytes().all(|b| b.is_ascii_alphanumeric() || b"!:._-@".contains(&b))
}

/// `?ply=N`: which ply to show (`None`: the latest); `Err` when the query is not one capabot makes.
fn ply_query(query: Option<&str>) -> Result<Option<usize>, ()> {
    let Some(q) = query.filter(|q| !q.is_empty()) else { return Ok(None) };
    match q.strip_prefix("ply=") {
        Some(n) if !n.is_empty() && n.len() <= 6 && n.bytes().all(|b| b.is_ascii_digit()) => {
            n.parse().map(Some).map_err(|_| ())
        }
        _ => Err(()),
    }
}

/// A game's page, in its community's language (else the reader's): the game and the language in
/// one reading ([`Bot::web_game_in`], one statement).
async fn game_page(State(web): State<Web>, Path(slug): Path<String>, headers: HeaderMap, req: Request) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let Ok(ply) = ply_query(req.uri().query()) else { return bad_request() };
    let bot = web.bot.clone();
    let reader = request_lang(&headers);
    let fallback = reader.unwrap_or(bot.config().lang);
    let done = web
        .blocking(move || {
            let (lang, game) = match bot.web_game_in(&slug, fallback) {
                Ok(found) => found,
                Err(e) => return (fallback, Outcome::Failed(e)),
            };
            let outcome = match game {
                Some(g) if ply.is_none_or(|p| p <= g.moves.len()) => {
                    let public = bot.config().web_url.clone();
                    Outcome::Page(with_lang(lang, || pages::game(&g, ply, bot.now(), public.as_deref())))
                }
                _ => Outcome::NotFound,
            };
            (lang, outcome)
        })
        .await;
    answer(done, reader)
}

/// A picture drawn off the async threads; `None` inside means 404.
async fn picture(
    web: &Web,
    cache: &'static str,
    work: impl FnOnce(&Bot) -> Result<Option<Drawing>, BotError> + Send + 'static,
) -> Response {
    let (bot, pictures) = (web.bot.clone(), web.pictures.clone());
    let done = web.blocking(move || work(&bot).map(|d| d.map(|d| (d.format(), drawn(&pictures, &d))))).await;
    match done {
        Some(Ok(Some((format, Ok(bytes))))) => {
            let mime = match format {
                crate::bot::PictureFormat::Gif => "image/gif",
                crate::bot::PictureFormat::Png => "image/png",
            };
            ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, cache)], bytes).into_response()
        }
        Some(Ok(None)) => error_page(StatusCode::NOT_FOUND, None),
        Some(Ok(Some((_, Err(e))))) => {
            tracing::warn!("a web picture failed: {e}");
            error_page(StatusCode::INTERNAL_SERVER_ERROR, None)
        }
        Some(Err(e)) => {
            tracing::warn!("a web picture failed: {e:?}");
            error_page(StatusCode::INTERNAL_SERVER_ERROR, None)
        }
        None => error_page(StatusCode::INTERNAL_SERVER_ERROR, None),
    }
}

/// A drawing's bytes, from the pictures drawn lately or drawn now (and kept).
fn drawn(pictures: &Mutex<Pictures>, d: &Drawing) -> Result<Bytes, crate::bot::drawing::DrawError> {
    let key = serde_json::to_string(d).ok();
    let known = key.as_deref().and_then(|k| pictures.lock().ok()?.get(k));
    if let Some(bytes) = known {
        return Ok(bytes);
    }
    let bytes = Bytes::from(d.draw()?);
    if let (Some(key), Ok(mut p)) = (key, pictures.lock()) {
        p.keep(key, bytes.clone());
    }
    Ok(bytes)
}

async fn game_board(State(web): State<Web>, Path((slug, ply)): Path<(String, String)>) -> Response {
    let Ok(Some(ply)) = ply_query(Some(&format!("ply={ply}"))) else { return bad_request() };
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    // A takeback may change what a ply shows: cached briefly.
    picture(&web, "public, max-age=60", move |bot| {
        Ok(bot.web_game(&slug)?.and_then(|g| g.boards.into_iter().nth(ply)).map(Drawing::Board))
    })
    .await
}

async fn game_gif(State(web): State<Web>, Path(slug): Path<String>) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let mut r = picture(&web, "public, max-age=60", move |bot| bot.web_gif(&slug)).await;
    if r.status() == StatusCode::OK {
        r.headers_mut()
            .insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"game.gif\""));
    }
    r
}

/// The course chart of a finished game's analysis (404 without one), in its page's language.
async fn game_course(State(web): State<Web>, Path(slug): Path<String>, headers: HeaderMap) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let fallback = request_lang(&headers).unwrap_or(web.bot.config().lang);
    picture(&web, "public, max-age=60", move |bot| {
        Ok(bot.web_game_in(&slug, fallback)?.1.and_then(|g| g.analysis).map(|a| a.course))
    })
    .await
}

async fn game_pgn(State(web): State<Web>, Path(slug): Path<String>) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let bot = web.bot.clone();
    pgn_download(&web, "game.pgn", move || bot.web_pgn(&slug)).await
}

/// The PGN of a finished game with its analysis in it (404 without one).
async fn game_pgn_analysed(State(web): State<Web>, Path(slug): Path<String>) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let bot = web.bot.clone();
    pgn_download(&web, "game-analysed.pgn", move || bot.web_pgn_analysed(&slug)).await
}

/// A PGN read by `read` off the async threads, as a download named `file`.
async fn pgn_download(
    web: &Web,
    file: &'static str,
    read: impl FnOnce() -> Result<Option<String>, BotError> + Send + 'static,
) -> Response {
    match web.blocking(read).await {
        Some(Ok(Some(pgn))) => (
            [
                (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{file}\"")),
            ],
            pgn,
        )
            .into_response(),
        Some(Ok(None)) => error_page(StatusCode::NOT_FOUND, None),
        Some(Err(e)) => {
            tracing::warn!("a PGN for the web failed: {e:?}");
            error_page(StatusCode::INTERNAL_SERVER_ERROR, None)
        }
        None => error_page(StatusCode::INTERNAL_SERVER_ERROR, None),
    }
}

/// Server-Sent Events for a live game page: a `move` event (its data the new ply) whenever the
/// game's version changes; the page's script then fetches the page again. `?ply=N` is the ply
/// the page shows as the latest: when the game moved on already, the first event comes at once.
///
/// The stream listens to its game's watcher ([`watch_game`]), which the first page of a game
/// starts and the last one's leaving ends: the game's version is read once per change for all of
/// its pages, not once per page.
async fn game_events(State(web): State<Web>, Path(slug): Path<String>, req: Request) -> Response {
    if !crate::store::games::is_slug(&slug) {
        return bad_request();
    }
    let Ok(page_ply) = ply_query(req.uri().query()) else { return bad_request() };
    let client = client_of(&req, &web.options);
    let Some(slot) = web.streams.take(client) else {
        let mut r = error_page(StatusCode::TOO_MANY_REQUESTS, None);
        r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        return r;
    };
    // Following before looking: a change committed between the look and the first wait is heard
    // (by the watcher this starts; one that runs already follows since before).
    let follower = web.options.live.as_ref().map(Changes::follow);
    let bot = web.bot.clone();
    let look = slug.clone();
    let found = web.blocking(move || bot.web_game_follow(&look).ok().flatten()).await.flatten();
    let Some(game) = found else { return error_page(StatusCode::NOT_FOUND, None) };
    let behind = page_ply.is_some_and(|p| p != game.version.0 as usize);
    let live = Live {
        stop: web.stop.clone(),
        until: tokio::time::Instant::now() + STREAM_FOR,
        seen: if behind { (u32::MAX, i64::MIN) } else { game.version },
        versions: subscribe(&web, slug, game, follower),
        _slot: slot,
    };
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        let ply = live.next_change().await?;
        let event = Event::default().event("move").data(ply.to_string());
        Some((Ok::<_, std::convert::Infallible>(event), live))
    });
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

/// The game's versions as its watcher tells them, starting the watcher (with `follower`, and the
/// version just read) when none runs, or the one there has ended (the game was hidden, and shown
/// again since this page's look).
fn subscribe(web: &Web, slug: String, game: WebFollow, follower: Option<Follower>) -> watch::Receiver<Version> {
    let mut watched = web.watched.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(tx) = watched.get(&game.id).filter(|tx| tx.borrow().is_some()) {
        return tx.subscribe();
    }
    let (tx, rx) = watch::channel(Some(game.version));
    let tx = Arc::new(tx);
    watched.insert(game.id, tx.clone());
    tokio::spawn(watch_game(web.clone(), slug, game, follower, tx));
    rx
}

/// One game's watcher: hears of its game's chat from the host's feed, or looks every
/// [`WebOptions::poll_every`] (or `poll_listening`, [`WebOptions::poll_now`]) without a word (moves made by another process sharing the database),
/// then looks at the game as a page's stream does when it opens (whether it may be shown, where
/// it is played, its version) and tells every page of the game when its version changed. Ends
/// when the last page is gone, at shutdown, or when the game may no longer be shown (`web:off`:
/// its pages' streams end with it).
async fn watch_game(
    web: Web,
    slug: String,
    mut game: WebFollow,
    mut follower: Option<Follower>,
    tx: Arc<watch::Sender<Version>>,
) {
    let mut seen = game.version;
    let mut next_poll = tokio::time::Instant::now() + web.options.poll_now();
    loop {
        tokio::select! {
            _ = web.stop.cancelled() => break,
            () = tx.closed() => {
                let mut watched = web.watched.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if tx.receiver_count() == 0 {
                    watched.remove(&game.id);
                    return;
                }
                continue;
            }
            _ = tokio::time::sleep_until(next_poll) => {}
            heard = hear(&mut follower) => match heard {
                Heard::Chat(c) if c.platform == game.platform && c.chat == game.chat => {}
                Heard::Chat(_) => continue,
                Heard::Missed => {}
                Heard::Closed => {
                    follower = None;
                    continue;
                }
            },
        }
        next_poll = tokio::time::Instant::now() + web.options.poll_now();
        let (bot, look) = (web.bot.clone(), slug.clone());
        let now = web.blocking(move || bot.web_game_follow(&look)).await.and_then(Result::ok);
        let Some(now) = now.flatten() else { break };
        if now.version != seen {
            seen = now.version;
            tx.send_replace(Some(seen));
        }
        game = now;
    }
    tx.send_replace(None);
    let mut watched = web.watched.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if watched.get(&game.id).is_some_and(|t| Arc::ptr_eq(t, &tx)) {
        watched.remove(&game.id);
    }
}

/// One live page's stream: its game's versions and the last one it told.
struct Live {
    stop: CancellationToken,
    until: tokio::time::Instant,
    seen: (u32, i64),
    versions: watch::Receiver<Version>,
    /// The client's place among its open streams, given back when the stream ends or is left.
    _slot: places::Place,
}

/// Live-update streams one client may hold open at once (a person's tabs of a tournament's games);
/// more are answered 429. Each stream lasts up to [`STREAM_FOR`]: without a bound, a client could
/// open hundreds a minute and keep them all.
pub const STREAMS_PER_CLIENT: usize = 16;

/// Live-update streams open at once, all clients together: a quarter of the server's
/// [`MAX_CONNECTIONS`] stays for pages and pictures whoever holds streams (64 addresses with
/// [`STREAMS_PER_CLIENT`] each would otherwise hold every connection for up to [`STREAM_FOR`]).
/// More are answered 429; a page whose stream is refused still shows, without live updates.
pub const STREAMS_AT_ONCE: usize = MAX_CONNECTIONS * 3 / 4;

impl Live {
    /// Waits until the game's version differs from the last one told and returns its ply; `None`
    /// when the stream ends (shutdown, its time is up, the game is gone or no longer public).
    ///
    /// The page's own look at the game may differ from its watcher's latest when a change is
    /// being read as the page opens: at worst the page is told once of what it shows already.
    async fn next_change(&mut self) -> Option<u32> {
        loop {
            let now = (*self.versions.borrow_and_update())?;
            if now != self.seen {
                self.seen = now;
                return Some(now.0);
            }
            tokio::select! {
                _ = self.stop.cancelled() => return None,
                _ = tokio::time::sleep_until(self.until) => return None,
                changed = self.versions.changed() => changed.ok()?,
            }
        }
    }
}

/// The next word of a feed; never, without one.
async fn hear(follower: &mut Option<Follower>) -> Heard {
    match follower {
        Some(f) => f.next().await,
        None => std::future::pending().await,
    }
}

async fn community_page(
    State(web): State<Web>,
    Path((platform, community)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if !well_formed(&platform, &community) {
        return bad_request();
    }
    let key = (platform.clone(), community.clone(), None);
    render_kept(&web, &headers, key, move |bot| {
        Ok(bot.web_community(&platform, &community)?.map(|c| pages::community(&c)))
    })
    .await
}

fn player_id(s: &str) -> Option<i64> {
    (!s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok()).flatten()
}

async fn player_page(
    State(web): State<Web>,
    Path((platform, community, player)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let Some(id) = player_id(&player).filter(|_| well_formed(&platform, &community)) else { return bad_request() };
    let key = (platform.clone(), community.clone(), Some(id));
    render_kept(&web, &headers, key, move |bot| {
        Ok(bot.web_player(&platform, &community, id)?.map(|p| pages::player(&platform, &community, &p)))
    })
    .await
}

async fn player_chart(
    State(web): State<Web>,
    Path((platform, community, player)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let Some(id) = player_id(&player).filter(|_| well_formed(&platform, &community)) else { return bad_request() };
    let fallback = request_lang(&headers).unwrap_or(web.bot.config().lang);
    picture(&web, "public, max-age=300", move |bot| {
        let lang = bot.web_lang(&platform, &community)?.unwrap_or(fallback);
        with_lang(lang, || Ok(bot.web_player(&platform, &community, id)?.and_then(|p| p.chart)))
    })
    .await
}

async fn script() -> Response {
    static_file("text/javascript; charset=utf-8", pages::SCRIPT)
}

async fn style() -> Response {
    static_file("text/css; charset=utf-8", pages::STYLE)
}

fn static_file(mime: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, mime), (header::CACHE_CONTROL, "public, max-age=3600")], Body::from(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rate limiter's memory follows the clients of the moment: every
    /// `FORGET_CLIENTS_EVERY`th request forgets those whose allowance is whole again. (Before: every
    /// address ever seen stayed, 6.4 MB more for 60,000 addresses, never given back.)
    #[test]
    fn the_rate_limiter_forgets_clients_whose_allowance_is_whole_again() {
        let limiter = RateLimiter::keyed(Quota::per_second(NonZeroU32::new(1_000).expect("1000")));
        let checked = std::sync::atomic::AtomicU64::new(0);
        let client = |i: u64| IpAddr::from([10, 0, (i >> 8) as u8, i as u8]);
        for i in 0..FORGET_CLIENTS_EVERY - 1 {
            assert!(limiter.check_key(&client(i)).is_ok());
            forget_clients_if_due(&limiter, &checked);
        }
        assert_eq!(limiter.len(), (FORGET_CLIENTS_EVERY - 1) as usize, "each client kept while its allowance refills");
        // A millisecond refills one; after a while every allowance is whole again.
        std::thread::sleep(Duration::from_millis(100));
        assert!(limiter.check_key(&client(FORGET_CLIENTS_EVERY)).is_ok());
        forget_clients_if_due(&limiter, &checked);
        assert!(limiter.len() <= 1, "{} clients kept", limiter.len());
    }

    #[test]
    fn an_ipv6_client_counts_by_its_64_network() {
        let key = |s: &str| client_key(s.parse().expect("an address"));
        assert_eq!(key("2001:db8:1:2::1"), key("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        assert_eq!(key("2001:db8:1:2:abcd::9"), "2001:db8:1:2::".parse::<IpAddr>().expect("a network"));
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("203.0.113.9"), "203.0.113.9".parse::<IpAddr>().expect("an address"));
        assert_ne!(key("203.0.113.9"), key("203.0.113.10"));
        assert_eq!(key("::ffff:203.0.113.9"), key("203.0.113.9"), "an IPv4 address written as IPv6");
    }

    /// The local proxy names its client whichever way the listener writes its address: as an
    /// IPv4-mapped IPv6 one on a dual-stack listener too (before: not trusted there, so every
    /// proxied visitor shared one rate and one share of waiting answers).
    #[test]
    fn the_local_proxy_names_its_client_on_a_dual_stack_listener() {
        let options = WebOptions::default();
        let asked = |peer: &str| {
            let mut req = Request::new(axum::body::Body::empty());
            req.headers_mut().insert("x-forwarded-for", "203.0.113.9".parse().expect("a header"));
            req.extensions_mut().insert(ConnectInfo(SocketAddr::new(peer.parse().expect("an address"), 4000)));
            client_of(&req, &options)
        };
        let client: IpAddr = "203.0.113.9".parse().expect("an address");
        assert_eq!(asked("127.0.0.1"), client);
        assert_eq!(asked("::ffff:127.0.0.1"), client);
        assert_eq!(asked("::1"), client);
        assert_eq!(
            asked("198.51.100.7"),
            "198.51.100.7".parse::<IpAddr>().expect("an address"),
            "a peer afar is itself"
        );
    }

    #[test]
    fn pages_poll_slowly_only_while_the_listener_is_up() {
        let listening = Arc::new(Listening::default());
        let on_postgres = WebOptions { listening: Some(listening.clone()), ..WebOptions::default() };
        assert_eq!(on_postgres.poll_now(), FALLBACK_POLL, "not listening yet");
        listening.set_up(true);
        assert_eq!(on_postgres.poll_now(), LISTENING_POLL);
        listening.set_up(false);
        assert_eq!(on_postgres.poll_now(), FALLBACK_POLL, "reconnecting");
        assert_eq!(WebOptions::default().poll_now(), FALLBACK_POLL, "SQLite: no listener");
        assert!(LISTENING_POLL > FALLBACK_POLL);
    }

    #[test]
    fn addresses_capabot_never_makes_are_told_apart() {
        assert_eq!(ply_query(None), Ok(None));
        assert_eq!(ply_query(Some("ply=12")), Ok(Some(12)));
        for bad in ["ply=", "ply=-1", "ply=1e3", "x=1", "ply=12&x=1", "ply=99999999999"] {
            assert_eq!(ply_query(Some(bad)), Err(()), "{bad}");
        }
        assert!(well_formed("discord", "123456789"));
        assert!(well_formed("matrix", "!abc:example.org"));
        assert!(!well_formed("discord", "<script>"));
        assert!(!well_formed("Discord", "1"));
        assert_eq!(player_id("42"), Some(42));
        assert_eq!(player_id("4x2"), None);
        assert_eq!(player_id("99999999999999999999"), None);
    }

    #[test]
    fn the_readers_language_is_the_first_capabot_speaks() {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fr-FR,tr;q=0.8,en;q=0.5"));
        assert_eq!(request_lang(&h), Some(Lang::Tr));
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("de-DE,tr;q=0.8,en;q=0.5"));
        assert_eq!(request_lang(&h), Some(Lang::De));
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("en-GB;q=0.4, tr-TR;q=0.9"));
        assert_eq!(request_lang(&h), Some(Lang::Tr));
        h.insert(header::ACCEPT_LANGUAGE, HeaderValue::from_static("fr"));
        assert_eq!(request_lang(&h), None);
    }
}

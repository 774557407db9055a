//! The web pages at the router (issue 47): a real loopback server on the core, driven with an HTTP
//! client. What may be shown (opt-in, direct games, secret bombs), what a hostile name becomes,
//! the headers, the rate limit and the leaderboard's order against the chat's answer.

use crate::common::{self, T0};
use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, LeftOut, ManualClock, Response, Scope, UserRef};
use capabot::community::rating::Rating;
use capabot::host::changes::Changes;
use capabot::store::players;
use capabot::store::ratings::{self, PlayerRating, Scope as RatingScope};
use capabot::web::{self, CSP, WebOptions};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The core on a fresh database, the pages served from it on a free loopback port.
pub struct Site {
    pub bot: Arc<Bot>,
    pub addr: SocketAddr,
    pub stop: CancellationToken,
    _dir: tempfile::TempDir,
}

impl Drop for Site {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

pub fn web_config() -> BotConfig {
    BotConfig { pictures: true, web_url: Some("https://chess.example.org".into()), ..BotConfig::default() }
}

impl Site {
    pub async fn start(options: WebOptions) -> Site {
        let dir = tempfile::tempdir().expect("tempdir");
        let clock = Arc::new(ManualClock::new(T0));
        let store = common::open_store(&common::db_path(dir.path()));
        let bot = Arc::new(Bot::new(store, clock, Arc::new(FirstLegalMove), web_config()));
        let stop = CancellationToken::new();
        let addr = web::serve(bot.clone(), "127.0.0.1:0".parse().unwrap(), options, stop.clone()).await.expect("serve");
        Site { bot, addr, stop, _dir: dir }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `text` said by `who` (an administrator when `admin`) in chat `main` of community `g`.
    pub fn say(&self, who: &str, text: &str, admin: bool) -> Response {
        let r = self.bot.handle(&common::cin(who, text, admin));
        self.bot.run_ai_jobs_inline(r.ai_jobs.clone());
        r
    }

    /// `text` said by `who` in their direct chat with capabot.
    pub fn dm(&self, who: &str, text: &str) -> Response {
        let scope = Scope { direct: true, ..Scope::chat("test", format!("dm-{who}")) };
        self.bot.handle(&Input::text(scope, UserRef::new(who, who), text))
    }

    /// The latest game's web address.
    pub fn latest_slug(&self) -> String {
        let conn = self.bot.store().conn().unwrap();
        let id: i64 = conn.query_row("SELECT max(id) FROM games", (), |r| r.get(0)).unwrap();
        capabot::store::games::slug(&conn, id).unwrap().expect("a web address")
    }

    pub fn web_on(&self, on: bool) {
        let out = self.say("Admin", &format!("!settings community web:{}", if on { "on" } else { "off" }), true).text();
        assert!(out.contains("saved"), "{out}");
    }

    /// A game of chess in community `g` between alice (white) and bob, with `moves` played.
    pub fn chess_game(&self, moves: &[&str]) -> String {
        self.say("alice", "!challenge @bob chess color:white", false);
        assert!(self.say("bob", "!accept", false).text().contains("starts"));
        let mut who = ["alice", "bob"].iter().cycle();
        for m in moves {
            let out = self.say(who.next().unwrap(), m, false).text();
            assert!(!out.contains("illegal"), "{m}: {out}");
        }
        self.latest_slug()
    }
}

pub async fn get(url: &str) -> reqwest::Response {
    reqwest::Client::new().get(url).send().await.expect("the server answers")
}

async fn status(url: &str) -> u16 {
    get(url).await.status().as_u16()
}

async fn text(url: &str) -> String {
    let r = get(url).await;
    assert_eq!(r.status(), 200, "{url}");
    r.text().await.unwrap()
}

/// A connection that sends nothing, or half a request, is closed once its headers are
/// `HEADER_READ_TIMEOUT` late, while whole requests are answered beside it: one client cannot hold
/// the server's connections (and the process's files) by opening many and saying nothing. (Before:
/// `axum::serve` kept them open for ever; 19,995 of them left the process without files.)
#[tokio::test]
async fn a_connection_that_says_nothing_is_closed_and_others_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let site = Site::start(WebOptions::default()).await;
    let mut silent = tokio::net::TcpStream::connect(site.addr).await.expect("connect");
    let mut half = tokio::net::TcpStream::connect(site.addr).await.expect("connect");
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.expect("half a request");
    assert_eq!(status(&site.url("/")).await, 200, "a whole request is answered meanwhile");
    let limit = web::HEADER_READ_TIMEOUT + Duration::from_secs(10);
    for (what, conn) in [("silent", &mut silent), ("half", &mut half)] {
        let mut buf = [0u8; 1024];
        let mut read = 0;
        let closed = tokio::time::timeout(limit, async {
            loop {
                match conn.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => read += n,
                }
            }
        })
        .await;
        assert!(closed.is_ok(), "the {what} connection is still open after {limit:?}");
        assert!(read == 0 || what == "half", "{what}: answered {read} bytes");
    }
}

/// One whole answer read off a kept-alive connection (its headers, then `Content-Length` bytes of
/// body): its status.
async fn read_answer(conn: &mut tokio::net::TcpStream) -> u16 {
    use tokio::io::AsyncReadExt;
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = conn.read(&mut buf).await.expect("read");
        assert!(n > 0, "closed before an answer: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&got[..head_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no content-length: {head}"));
    while got.len() < head_end + length {
        let n = conn.read(&mut buf).await.expect("read");
        assert!(n > 0, "closed in the middle of an answer");
        got.extend_from_slice(&buf[..n]);
    }
    assert_eq!(got.len(), head_end + length, "more than one answer");
    head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status")
}

/// A kept-alive connection that was answered and then says nothing is closed once the next
/// request's headers are late, as a new connection is; one that asks again in time is served on
/// the same connection, however long it lives in all. (hyper 1.x starts `header_read_timeout`
/// anew whenever a kept-alive connection waits for its next request; checked here, not trusted.)
#[tokio::test]
async fn a_kept_alive_connection_that_falls_silent_is_closed_and_one_that_asks_again_is_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let limit = Duration::from_secs(2);
    let site = Site::start(WebOptions { header_read_timeout: limit, ..WebOptions::default() }).await;
    let request = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    // Three requests half the limit apart: longer than the limit in all, each in time.
    let mut asking = tokio::net::TcpStream::connect(site.addr).await.expect("connect");
    for i in 0..3 {
        if i > 0 {
            tokio::time::sleep(limit / 2).await;
        }
        asking.write_all(request).await.expect("a request");
        assert_eq!(read_answer(&mut asking).await, 200, "request {i} on the same connection");
    }

    let mut silent = tokio::net::TcpStream::connect(site.addr).await.expect("connect");
    silent.write_all(request).await.expect("a request");
    assert_eq!(read_answer(&mut silent).await, 200);
    let answered = std::time::Instant::now();
    let mut buf = [0u8; 1024];
    let closed = tokio::time::timeout(limit + Duration::from_secs(5), silent.read(&mut buf)).await;
    let waited = answered.elapsed();
    assert!(closed.is_ok(), "a silent kept-alive connection is still open after {waited:?}");
    assert!(matches!(closed, Ok(Ok(0) | Err(_))), "said something after its answer: {closed:?}");
    assert!(waited >= limit / 2, "closed after {waited:?}: not kept alive at all");
}

/// One peer holds at most its share of the connections (before: a host opening sockets and saying
/// nothing held all 1,024 of them, each until the header-read limit, again and again): one more
/// is closed as it is accepted, another host is served meanwhile, and a place given back is taken
/// again. The trusted local proxy, which connects for every client, is not counted.
#[tokio::test]
async fn a_peer_holds_its_share_of_connections_and_others_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
    for proxied in [false, true] {
        let options = WebOptions { connections_per_peer: 3, trust_loopback_proxy: proxied, ..WebOptions::default() };
        let site = Site::start(options).await;
        let from = |ip: [u8; 4]| async move {
            let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
            socket.bind(SocketAddr::new(ip.into(), 0)).expect("bind");
            socket.connect(site.addr).await.expect("connect")
        };
        let mut silent = Vec::new();
        for _ in 0..3 {
            silent.push(from([127, 0, 0, 1]).await);
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut extra = from([127, 0, 0, 1]).await;
        if proxied {
            extra.write_all(request).await.expect("a request");
            assert_eq!(read_answer(&mut extra).await, 200, "the proxy's connections are not counted");
            continue;
        }
        let mut buf = [0u8; 64];
        let closed = tokio::time::timeout(Duration::from_secs(5), extra.read(&mut buf)).await;
        assert!(matches!(closed, Ok(Ok(0) | Err(_))), "one more than the peer's share is closed at once: {closed:?}");
        let mut other = from([127, 0, 0, 2]).await;
        other.write_all(request).await.expect("a request");
        assert_eq!(read_answer(&mut other).await, 200, "another peer is served");
        drop(silent.pop());
        tokio::time::sleep(Duration::from_millis(300)).await;
        let mut again = from([127, 0, 0, 1]).await;
        again.write_all(request).await.expect("a request");
        assert_eq!(read_answer(&mut again).await, 200, "a place given back is taken again");
    }
}

/// The moves of a game whose animation is about 93 KB.
const LONG_GAME: [&str; 22] = [
    "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d4", "exd4", "cxd4", "Bb4+", "Nc3", "Nxe4", "O-O", "Bxc3",
    "d5", "Bf6", "Re1", "Ne7", "Rxe4", "d6",
];

/// Answers asked for at once on one connection by the tests of slow readers: about 14 MB of
/// animations, more than the server's send buffer (4 MB at most) and the client's receive buffer
/// (64 KB here) hold.
const ASKED: usize = 150;

/// A connection from `from` (a loopback address; any when `None`) with a 64 KB receive buffer
/// that asks for `slug`'s animation [`ASKED`] times at once, each request with the header lines
/// `headers`, and reads nothing yet.
async fn ask_gifs(site: &Site, slug: &str, headers: &str, from: Option<std::net::IpAddr>) -> tokio::net::TcpStream {
    use tokio::io::AsyncWriteExt;
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(64 << 10).expect("a receive buffer");
    if let Some(ip) = from {
        socket.bind(SocketAddr::new(ip, 0)).expect("bind");
    }
    let mut conn = socket.connect(site.addr).await.expect("connect");
    let request = format!("GET /g/{slug}/gif HTTP/1.1\r\nHost: x\r\n{headers}\r\n").repeat(ASKED);
    conn.write_all(request.as_bytes()).await.expect("the requests");
    conn
}

/// What `conn` gives, read in `chunk`s a `pause` apart, until the server closes or `enough` bytes
/// came.
async fn read_from(mut conn: tokio::net::TcpStream, enough: usize, chunk: usize, pause: Duration) -> usize {
    use tokio::io::AsyncReadExt;
    let mut buf = vec![0u8; chunk];
    let mut total = 0;
    while total < enough {
        tokio::time::sleep(pause).await;
        match conn.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => total += n,
        }
    }
    total
}

/// A site whose pages are served with `options` (the rate limit out of the way), the long game
/// played there, and the bytes of [`ASKED`] animations of it.
async fn gif_site(options: WebOptions) -> (Site, String, usize) {
    let site = Site::start(WebOptions { per_minute: 60_000, burst: 10_000, ..options }).await;
    site.web_on(true);
    let slug = site.chess_game(&LONG_GAME);
    let gif = get(&site.url(&format!("/g/{slug}/gif"))).await.bytes().await.unwrap().len();
    (site, slug, ASKED * gif)
}

/// A client that asks for more than the sockets hold (pictures asked for at once on one
/// connection) and then reads nothing loses its connection once an answer's write has waited
/// `write_stall_limit`; one that reads gets every answer. (Before, hyper having no write timeout,
/// the silent reader kept its connection, one of the 1,024 places, for as long as it liked: all
/// its answers were still there to read after 20 s.)
#[tokio::test]
async fn a_client_that_stops_reading_its_answers_loses_the_connection() {
    let limit = Duration::from_secs(1);
    let (site, slug, whole) = gif_site(WebOptions { write_stall_limit: limit, ..WebOptions::default() }).await;
    let read = |conn| read_from(conn, whole, 1 << 16, Duration::ZERO);
    let reading = tokio::time::timeout(Duration::from_secs(60), read(ask_gifs(&site, &slug, "", None).await)).await;
    assert!(reading.as_ref().is_ok_and(|&n| n >= whole), "a reader gets every answer: {reading:?} of {whole} bytes");

    let silent = ask_gifs(&site, &slug, "", None).await;
    tokio::time::sleep(limit * 4).await;
    let read_late = tokio::time::timeout(Duration::from_secs(60), read(silent)).await;
    assert!(read_late.is_ok(), "the connection was neither closed nor read to the end");
    let got = read_late.unwrap_or_default();
    assert!(got < whole / 2, "the silent reader's connection was kept: {got} of {whole} bytes read after it");
}

/// A client that reads, but slower than the least pace (`min_write_rate`), loses its connection
/// once its allowance of waiting (`write_grace`) is spent, though each write progresses well
/// within the stall limit; one reading at full speed gets every answer. (Before, a trickle of a
/// byte every 29 s kept its connection and its answers as long as it liked: a few hundred such
/// clients held all 1,024 connections.)
#[tokio::test]
async fn a_client_that_reads_too_slowly_loses_the_connection_and_a_reader_is_served() {
    // 256 KB/s with 4 s in hand: the trickle below, 80 KB/s, is cut after about 6 s of waiting.
    let options =
        WebOptions { min_write_rate: 256 << 10, write_grace: Duration::from_secs(4), ..WebOptions::default() };
    assert_eq!(options.write_stall_limit, web::WRITE_STALL_LIMIT, "30 s: never reached by the trickle");
    let (site, slug, whole) = gif_site(options).await;
    let reading = tokio::time::timeout(
        Duration::from_secs(60),
        read_from(ask_gifs(&site, &slug, "", None).await, whole, 1 << 16, Duration::ZERO),
    )
    .await;
    assert!(reading.as_ref().is_ok_and(|&n| n >= whole), "a reader gets every answer: {reading:?} of {whole} bytes");

    let trickle = ask_gifs(&site, &slug, "", None).await;
    let bound = Duration::from_secs(20);
    let read = tokio::time::timeout(bound, read_from(trickle, whole, 8 << 10, Duration::from_millis(100))).await;
    let got = read.expect("the trickle still had its connection after 20 s");
    assert!(got < whole / 2, "the trickle read {got} of {whole} bytes");
}

/// One client has at most `waiting_per_client` connections whose answers wait for it to read:
/// one more that waits is closed at once, while another client's waits as long as the limits
/// allow. The client is the one the rate limiter counts: behind the reverse proxy (the peer on
/// loopback) each request's `X-Forwarded-For`, and a direct peer's own address, whatever
/// `X-Forwarded-For` it sends. (Before, any number: one client that trickled could hold every
/// connection.)
#[tokio::test]
async fn a_client_holds_its_share_of_connections_waiting_for_it_directly_and_behind_the_proxy() {
    for proxied in [true, false] {
        let options = WebOptions { waiting_per_client: 2, trust_loopback_proxy: proxied, ..WebOptions::default() };
        let (site, slug, whole) = gif_site(options).await;
        let mut conns = Vec::new();
        for i in 1..=3 {
            // Behind the proxy the forwarded address names the client; directly, it is ignored.
            let forwarded = if proxied { "192.0.2.1".to_string() } else { format!("192.0.2.{i}") };
            conns.push(ask_gifs(&site, &slug, &format!("X-Forwarded-For: {forwarded}\r\n"), None).await);
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let other = if proxied {
            ask_gifs(&site, &slug, "X-Forwarded-For: 192.0.2.2\r\n", None).await
        } else {
            ask_gifs(&site, &slug, "", Some([127, 0, 0, 2].into())).await
        };
        // Longer than it takes to fill the buffers, well within the stall limit and the grace.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let read =
            |conn| tokio::time::timeout(Duration::from_secs(60), read_from(conn, whole, 1 << 16, Duration::ZERO));
        let mut served = 0;
        for conn in conns {
            let got = read(conn).await.expect("read to the end or closed");
            if got >= whole {
                served += 1;
            } else {
                assert!(got < whole / 2, "a connection closed late: {got} of {whole} bytes");
            }
        }
        assert_eq!(served, 2, "the client's connections served whole (proxied: {proxied})");
        let got = read(other).await.expect("read to the end");
        assert!(got >= whole, "another client is served (proxied: {proxied}): {got} of {whole} bytes");
    }
}

#[tokio::test]
async fn nothing_of_a_community_is_served_before_it_opts_in_nor_after_it_opts_out() {
    let site = Site::start(WebOptions::default()).await;
    let slug = site.chess_game(&["e4", "e5"]);
    let (game, community) = (site.url(&format!("/g/{slug}")), site.url("/c/test/g"));
    let board = site.url(&format!("/g/{slug}/board/1"));
    for u in [&game, &community, &board, &site.url(&format!("/g/{slug}/pgn"))] {
        assert_eq!(status(u).await, 404, "{u} before opting in");
    }
    // Only an administrator turns it on.
    let refused = site.say("bob", "!settings community web:on", false).text();
    assert!(!refused.contains("saved"), "{refused}");
    assert_eq!(status(&game).await, 404);
    site.web_on(true);
    assert_eq!(status(&game).await, 200);
    assert_eq!(status(&community).await, 200);
    let png = get(&board).await;
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG"));
    assert!(text(&site.url(&format!("/g/{slug}/pgn"))).await.contains("1. e4 e5"));
    site.web_on(false);
    for u in [&game, &community, &board] {
        assert_eq!(status(u).await, 404, "{u} after opting out");
    }
}

#[tokio::test]
async fn a_game_in_direct_messages_is_never_served() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    // A game against capabot in alice's direct chat: no community.
    let out = site.dm("alice", "!play chess").text();
    assert!(out.contains("starts") || out.contains("#"), "{out}");
    let slug = site.latest_slug();
    assert_eq!(slug.len(), 32);
    assert_eq!(status(&site.url(&format!("/g/{slug}"))).await, 404);
    assert_eq!(status(&site.url(&format!("/g/{slug}/board/0"))).await, 404);
    assert_eq!(status(&site.url(&format!("/g/{slug}/events"))).await, 404);
}

#[tokio::test]
async fn addresses_capabot_never_makes_give_400_and_unknown_ones_404() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4"]);
    for bad in [
        "/g/1".to_string(),
        "/g/<script>".into(),
        format!("/g/{}", slug.to_uppercase()),
        format!("/g/{slug}?ply=x"),
        format!("/g/{slug}?ply=-1"),
        format!("/g/{slug}/board/abc"),
        "/c/test/%3Cscript%3E".into(),
        "/c/TEST/g".into(),
        "/c/test/g/p/12x".into(),
    ] {
        assert_eq!(status(&site.url(&bad)).await, 400, "{bad}");
    }
    for unknown in [
        "/nothing".to_string(),
        format!("/g/{}", "0".repeat(32)),
        format!("/g/{slug}?ply=2"),
        format!("/g/{slug}/board/9"),
        "/c/test/other".into(),
        "/c/test/g/p/999".into(),
    ] {
        assert_eq!(status(&site.url(&unknown)).await, 404, "{unknown}");
    }
}

#[tokio::test]
async fn the_web_changes_nothing_and_its_pages_stay_small() {
    // More requests than the default burst admits from one address.
    let site = Site::start(WebOptions { per_minute: 6000, burst: 1000, ..WebOptions::default() }).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]);
    let alice = {
        let conn = site.bot.store().conn().unwrap();
        players::find(&conn, "test", "alice").unwrap().unwrap().id
    };
    let pages = [
        format!("/g/{slug}"),
        format!("/g/{slug}/board/3"),
        format!("/g/{slug}/pgn"),
        format!("/g/{slug}/gif"),
        format!("/g/{slug}/events"),
        "/c/test/g".into(),
        format!("/c/test/g/p/{alice}"),
        format!("/c/test/g/p/{alice}/chart"),
        "/static/app.js".into(),
        "/static/style.css".into(),
    ];
    let before = text(&site.url(&format!("/g/{slug}/pgn"))).await;
    // No address takes anything but a reading: every other method is refused and changes nothing.
    let client = reqwest::Client::new();
    for path in &pages {
        for method in [reqwest::Method::POST, reqwest::Method::PUT, reqwest::Method::DELETE, reqwest::Method::PATCH] {
            let r = client.request(method.clone(), site.url(path)).body("ply=0").send().await.unwrap();
            assert_eq!(r.status(), 405, "{method} {path}");
        }
    }
    assert_eq!(text(&site.url(&format!("/g/{slug}/pgn"))).await, before, "the game is as it was");
    let out = site.say("alice", "d3", false).text();
    assert!(!out.contains("illegal"), "{out}");
    assert!(text(&site.url(&format!("/g/{slug}/pgn"))).await.contains("6. d3"), "and goes on in the chat");
    // A page is at most 100 KB besides its pictures.
    for path in [format!("/g/{slug}"), "/c/test/g".into(), format!("/c/test/g/p/{alice}")] {
        let page = text(&site.url(&path)).await;
        assert!(page.len() <= 100_000, "{path}: {} bytes", page.len());
    }
}

#[tokio::test]
async fn every_answer_carries_a_strict_content_security_policy() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4"]);
    for path in [format!("/g/{slug}"), "/c/test/g".into(), "/nothing".into(), "/g/1".into(), "/static/app.js".into()] {
        let r = get(&site.url(&path)).await;
        assert_eq!(r.headers()["content-security-policy"], CSP, "{path}");
        assert_eq!(r.headers()["x-content-type-options"], "nosniff", "{path}");
    }
    assert!(!CSP.contains("unsafe"), "no inline script or style: {CSP}");
    let page = text(&site.url(&format!("/g/{slug}"))).await;
    assert!(!page.contains("<script>"), "no inline script");
    assert!(!page.contains("style="), "no inline style");
}

#[tokio::test]
async fn hostile_names_render_as_text() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let hostile = format!("<script>alert(1)</script>\u{202E}\"onmouseover='x' {}", "W".repeat(300));
    let mut challenge = common::cin("mallory", "!challenge @bob chess color:white", false);
    challenge.author = UserRef::new("mallory", &hostile);
    site.bot.handle(&challenge);
    assert!(site.say("bob", "!accept", false).text().contains("starts"));
    let slug = site.latest_slug();
    let mallory = {
        let conn = site.bot.store().conn().unwrap();
        players::find(&conn, "test", "mallory").unwrap().unwrap().id
    };
    for path in [format!("/g/{slug}"), "/c/test/g".into(), format!("/c/test/g/p/{mallory}")] {
        let page = text(&site.url(&path)).await;
        assert!(!page.contains("<script>alert"), "{path}: {page}");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{path}");
        assert!(!page.contains("\"onmouseover"), "{path}: an attribute broken out of");
        assert!(page.contains("&quot;onmouseover"), "{path}");
    }
}

#[tokio::test]
async fn one_address_is_slowed_down_by_the_rate_limit() {
    let site = Site::start(WebOptions { per_minute: 1, burst: 3, ..WebOptions::default() }).await;
    let url = site.url("/nothing");
    let statuses: Vec<u16> = futures::future::join_all((0..4).map(|_| status(&url))).await;
    let mut sorted = statuses.clone();
    sorted.sort();
    assert_eq!(sorted, vec![404, 404, 404, 429], "{statuses:?}");
    // Another client behind the same local reverse proxy has its own allowance.
    let other =
        reqwest::Client::new().get(site.url("/nothing")).header("x-forwarded-for", "203.0.113.9").send().await.unwrap();
    assert_eq!(other.status(), 404);
}

/// An IPv6 client is counted by its /64 network, not by each of its addresses: four addresses of
/// one /64 share an allowance of three, another /64 has its own. (Before, each address had its own,
/// and one host its 2⁶⁴ allowances and as many times 16 live streams.)
#[tokio::test]
async fn an_ipv6_client_is_counted_by_its_network() {
    let site = Site::start(WebOptions { per_minute: 1, burst: 3, ..WebOptions::default() }).await;
    let from = |address: &'static str| {
        let url = site.url("/nothing");
        async move {
            let r = reqwest::Client::new().get(url).header("x-forwarded-for", address).send().await.unwrap();
            r.status().as_u16()
        }
    };
    let mut statuses = Vec::new();
    for address in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ab::3", "2001:db8:1:2:cd::4"] {
        statuses.push(from(address).await);
    }
    assert_eq!(statuses, [404, 404, 404, 429]);
    assert_eq!(from("2001:db8:1:3::1").await, 404, "another network");
}

#[tokio::test]
async fn a_bomb_games_page_does_not_depend_on_where_the_bombs_are() {
    // Two games with the same moves and Black's bomb on different squares: every page, picture
    // and download must be the same (but for the address and the game's number) until the end.
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let mut shown = Vec::new();
    for black_bomb in ["h7", "g8"] {
        site.say("alice", "!challenge @bob bomb color:white casual", false);
        site.say("bob", "!accept", false);
        assert!(site.dm("alice", "bomb b1").text().contains("your bomb"));
        assert!(site.dm("bob", &format!("bomb {black_bomb}")).text().contains("your bomb"));
        for (who, m) in [("alice", "e4"), ("bob", "e5"), ("alice", "Nf3")] {
            let out = site.say(who, m, false).text();
            assert!(!out.contains("illegal"), "{out}");
        }
        let slug = site.latest_slug();
        let page = text(&site.url(&format!("/g/{slug}"))).await;
        assert!(!page.to_lowercase().contains("bomb is"), "{page}");
        let mut pictures = Vec::new();
        for ply in 0..=3 {
            pictures.push(get(&site.url(&format!("/g/{slug}/board/{ply}"))).await.bytes().await.unwrap());
        }
        let pgn = text(&site.url(&format!("/g/{slug}/pgn"))).await;
        assert!(!pgn.contains("WhiteBomb") && !pgn.contains("BlackBomb"), "{pgn}");
        let gif = get(&site.url(&format!("/g/{slug}/gif"))).await.bytes().await.unwrap();
        shown.push((page.replace(&slug, "SLUG"), pictures, pgn.replace("game #2", "game #1"), gif));
        // Over: the bombs may be told now (and the next game is alice's only one).
        site.say("alice", "!resign", false);
        let over = text(&site.url(&format!("/g/{slug}"))).await;
        assert!(over.contains("b1"), "the bombs are named once the game is over");
    }
    assert!(shown[0].0 == shown[1].0, "the pages differ:\n{}\n---\n{}", shown[0].0, shown[1].0);
    assert!(shown[0].1 == shown[1].1, "a board picture differs");
    assert!(shown[0].2 == shown[1].2, "the PGNs differ");
    assert!(shown[0].3 == shown[1].3, "the animations differ");
}

/// The names in the chat's `leaderboard` answer, in order: the ranked ones, then the
/// provisional ones.
fn chat_order(answer: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in answer.lines() {
        if let Some((place, rest)) = line.split_once(". ")
            && place.bytes().all(|b| b.is_ascii_digit())
        {
            names.push(rest.split(' ').next().unwrap().to_string());
        }
        if let Some(list) = line.strip_prefix("Provisional: ") {
            for entry in list.trim_end_matches('.').split(", ") {
                names.push(entry.split(' ').next().unwrap().to_string());
            }
        }
    }
    names
}

/// The player names of a page's leaderboard tables, in order.
fn page_order(page: &str) -> Vec<String> {
    let table = &page[page.find("<table class=\"leaderboard\"").expect("a leaderboard")..];
    let table = &table[..table.find("</table>").unwrap()];
    table
        .split("<a href=\"/c/test/g/p/")
        .skip(1)
        .map(|cell| {
            let name = &cell[cell.find('>').unwrap() + 1..];
            name[..name.find('<').unwrap()].to_string()
        })
        .collect()
}

#[tokio::test]
async fn the_leaderboard_page_has_the_chats_order() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    {
        let conn = site.bot.store().conn().unwrap();
        let scope = RatingScope::community("test", "g");
        // Twelve established players (two tied on rating: more games first, then by name), and
        // two provisional ones.
        let table = [
            ("p01", 1500.0, 60.0, 30),
            ("p02", 1720.0, 55.0, 40),
            ("p03", 1720.0, 55.0, 44),
            ("p04", 1610.0, 70.0, 25),
            ("p05", 1490.0, 60.0, 33),
            ("p06", 1880.0, 62.0, 51),
            ("p07", 1300.0, 65.0, 20),
            ("p08", 1655.0, 58.0, 38),
            ("p09", 1402.0, 61.0, 29),
            ("p10", 1555.0, 63.0, 27),
            ("p11", 1777.0, 60.0, 31),
            ("p12", 1250.0, 66.0, 22),
            ("p13", 1900.0, 250.0, 3),
            ("p14", 1450.0, 200.0, 5),
        ];
        for (name, rating, deviation, games) in table {
            let id = players::ensure(&conn, "test", name, name, T0).unwrap().id;
            let record = PlayerRating {
                player_id: id,
                rating: Rating { rating, deviation, volatility: 0.06 },
                games,
                wins: games / 2,
                draws: 0,
                losses: games - games / 2,
                last_game_at: Some(T0),
            };
            ratings::upsert(&conn, &scope, "chess", &record).unwrap();
        }
    }
    let answer = site.say("nobody", "!leaderboard chess", false).text();
    let chat = chat_order(&answer);
    assert_eq!(chat.len(), 12, "ten ranked and two provisional: {answer}");
    let page = text(&site.url("/c/test/g")).await;
    assert_eq!(page_order(&page), chat, "{answer}");
}

#[tokio::test]
async fn the_web_command_gives_the_communitys_address_once_it_opted_in() {
    let site = Site::start(WebOptions::default()).await;
    let before = site.say("bob", "!web", false).text();
    assert!(before.contains("settings community web:on"), "{before}");
    site.web_on(true);
    let after = site.say("bob", "!web", false).text();
    assert!(after.contains("https://chess.example.org/c/test/g"), "{after}");
    assert_eq!(status(&site.url("/c/test/g")).await, 200);
    // Turkish: the community's language.
    site.say("Admin", "!settings community lang:tr", true);
    let page = text(&site.url("/c/test/g")).await;
    assert!(page.contains("<html lang=\"tr\">") && page.contains("Sıralamalar"), "{page}");
}

/// A page's text asked for with `Accept-Language: accept`.
async fn text_in(url: &str, accept: &str) -> String {
    let r = reqwest::Client::new().get(url).header("accept-language", accept).send().await.expect("an answer");
    r.text().await.unwrap()
}

#[tokio::test]
async fn a_page_is_in_the_communitys_language_else_the_readers() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let url = site.url("/c/test/g");
    // No language of its own: the first the reader's browser asks for that capabot speaks.
    let page = text_in(&url, "fr-FR, tr;q=0.9, en;q=0.5").await;
    assert!(page.contains("<html lang=\"tr\">") && page.contains("Sıralamalar"), "{page}");
    assert!(text_in(&url, "fr, en;q=0.4").await.contains("<html lang=\"en\">"));
    let page = text_in(&url, "de-AT, en;q=0.4").await;
    assert!(page.contains("<html lang=\"de\">") && page.contains("Bestenlisten"), "{page}");
    let missing = text_in(&site.url("/c/test/nobody"), "tr").await;
    assert!(missing.contains("Bulunamadı"), "an unknown community, in the reader's language: {missing}");
    // The community's own language comes first.
    site.say("Admin", "!settings community lang:en", true);
    let page = text_in(&url, "tr").await;
    assert!(page.contains("<html lang=\"en\">") && page.contains("Leaderboards"), "{page}");
}

/// Opens a live page's event stream (its headers come once it follows the game).
async fn open_stream(url: &str) -> reqwest::Response {
    let r = get(url).await;
    assert_eq!(r.status(), 200, "{url}");
    assert_eq!(r.headers()["content-type"], "text/event-stream");
    r
}

/// The ply of the stream's next `move` event, waiting at most ten seconds (a bound, not a
/// measurement); `None` when none came.
async fn next_move(stream: &mut reqwest::Response) -> Option<String> {
    common::next_sse(stream, "move", Duration::from_secs(10)).await
}

/// A site fed by a feed of changes the test tells, its fallback poll an hour away, and a game of
/// one move there.
async fn fed_site() -> (Site, Changes, String) {
    let changes = Changes::default();
    let site =
        Site::start(WebOptions { poll_every: Duration::from_secs(3600), ..WebOptions::live(changes.clone()) }).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4"]);
    (site, changes, slug)
}

/// One client holds at most `STREAMS_PER_CLIENT` live streams at once; one more is answered 429,
/// and a place comes back when a stream is left. (Before: any number, each kept up to 30 minutes.)
#[tokio::test]
async fn a_client_holds_a_bounded_number_of_live_streams() {
    let (site, _changes, slug) = fed_site().await;
    let url = site.url(&format!("/g/{slug}/events?ply=1"));
    let mut open = Vec::new();
    for _ in 0..web::STREAMS_PER_CLIENT {
        open.push(open_stream(&url).await);
    }
    assert_eq!(status(&url).await, 429, "one stream too many");
    drop(open.pop());
    // The server sees the stream left at its next write or keep-alive; wait for the place (bounded).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let r = get(&url).await;
        if r.status() == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the place did not come back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(status(&site.url(&format!("/g/{slug}"))).await, 200, "pages are served all along");
}

/// All clients together hold at most `streams_at_once` live streams (`STREAMS_AT_ONCE`, three
/// quarters of the server's connections): one more, from a client holding none, is answered 429
/// while pages are served, and a place comes back when a stream is left. (Before: 64 addresses
/// with 16 streams each held every connection the server takes.)
#[tokio::test]
async fn the_live_streams_of_all_clients_leave_room_for_pages() {
    let changes = Changes::default();
    let options = WebOptions { poll_every: Duration::from_secs(3600), streams_at_once: 3, ..WebOptions::live(changes) };
    let site = Site::start(options).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4"]);
    let url = site.url(&format!("/g/{slug}/events?ply=1"));
    let from = |address: &'static str| {
        let url = url.clone();
        async move { reqwest::Client::new().get(url).header("x-forwarded-for", address).send().await.unwrap() }
    };
    let mut open = Vec::new();
    for address in ["192.0.2.1", "192.0.2.1", "192.0.2.2"] {
        let r = from(address).await;
        assert_eq!(r.status(), 200, "{address}");
        open.push(r);
    }
    assert_eq!(from("192.0.2.3").await.status(), 429, "a fourth stream, from a client holding none");
    assert_eq!(status(&site.url(&format!("/g/{slug}"))).await, 200, "the page is served");
    drop(open.pop());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let r = from("192.0.2.3").await;
        if r.status() == 200 {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "the place did not come back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn a_live_page_hears_of_a_move_from_the_hosts_feed_not_by_polling() {
    // The fallback poll is an hour away: only the feed can wake the stream in time.
    let (site, changes, slug) = fed_site().await;
    let mut stream = open_stream(&site.url(&format!("/g/{slug}/events?ply=1"))).await;
    assert!(site.say("bob", "e5", false).text().contains("e5"));
    // Another chat's news wakes the stream, which finds its game unchanged there and waits on.
    changes.tell("test", "elsewhere");
    changes.tell("test", "main");
    assert_eq!(next_move(&mut stream).await.as_deref(), Some("2"), "the move, heard from the feed");
    assert!(site.say("alice", "Nf3", false).text().contains("Nf3"));
    changes.tell("test", "main");
    assert_eq!(next_move(&mut stream).await.as_deref(), Some("3"), "and the next one");
}

/// Whether the server ends the stream within ten seconds (a bound, not a measurement).
async fn ended(stream: &mut reqwest::Response) -> bool {
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match tokio::time::timeout_at(until, stream.chunk()).await {
            Ok(Ok(Some(_))) => {}
            Ok(_) => return true,
            Err(_) => return false,
        }
    }
}

#[tokio::test]
async fn the_pages_of_a_game_hear_each_move_together_and_web_off_ends_their_streams() {
    let (site, changes, slug) = fed_site().await;
    let url = |ply: u32| site.url(&format!("/g/{slug}/events?ply={ply}"));
    let mut pages = Vec::new();
    for _ in 0..5 {
        pages.push(open_stream(&url(1)).await);
    }
    assert!(site.say("bob", "e5", false).text().contains("e5"));
    changes.tell("test", "main");
    for page in &mut pages {
        assert_eq!(next_move(page).await.as_deref(), Some("2"));
    }
    // A page opened after that move joins the others and hears the next one with them.
    pages.push(open_stream(&url(2)).await);
    assert!(site.say("alice", "Nf3", false).text().contains("Nf3"));
    changes.tell("test", "main");
    for page in &mut pages {
        assert_eq!(next_move(page).await.as_deref(), Some("3"));
    }
    // `web:off` takes down the pages already open too, at the next word of the game's chat.
    site.web_on(false);
    changes.tell("test", "main");
    for page in &mut pages {
        assert!(ended(page).await, "an open page's stream ends once the community opted out");
    }
    // Shown again: a new page follows the game again.
    site.web_on(true);
    let mut again = open_stream(&url(3)).await;
    assert!(site.say("bob", "Nc6", false).text().contains("Nc6"));
    changes.tell("test", "main");
    assert_eq!(next_move(&mut again).await.as_deref(), Some("4"));
}

#[tokio::test]
async fn a_live_page_that_is_behind_is_told_at_once_and_a_quiet_one_polls() {
    let site = Site::start(WebOptions { poll_every: Duration::from_secs(3600), ..WebOptions::default() }).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4", "e5"]);
    // The page was made at ply 1 and the game moved on before its stream started.
    let mut behind = open_stream(&site.url(&format!("/g/{slug}/events?ply=1"))).await;
    assert_eq!(next_move(&mut behind).await.as_deref(), Some("2"));
    assert_eq!(status(&site.url(&format!("/g/{slug}/events?ply=x"))).await, 400);
    // Without the host's feed (another process made the move), the slow poll finds it: on SQLite
    // there is no listener, so never the listening pace (an hour here).
    let polling = WebOptions {
        poll_every: Duration::from_millis(100),
        poll_listening: Duration::from_secs(3600),
        ..WebOptions::default()
    };
    let polling = Site::start(polling).await;
    polling.web_on(true);
    let slug = polling.chess_game(&["e4"]);
    let mut stream = open_stream(&polling.url(&format!("/g/{slug}/events?ply=1"))).await;
    assert!(polling.say("bob", "e5", false).text().contains("e5"));
    assert_eq!(next_move(&mut stream).await.as_deref(), Some("2"));
}

/// The community's page as it was read before it was read in a few statements: one row at a time
/// (each game's address, each name), every variant's leaderboard. The page must say the same.
#[tokio::test]
async fn the_community_and_player_pages_say_what_reading_row_by_row_says() {
    use capabot::rules::VARIANTS;
    use capabot::store::{games, ladders, tournaments};
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    site.chess_game(&["e4", "e5"]);
    assert!(site.say("alice", "!resign", false).text().contains("resign"));
    site.chess_game(&["d4"]);
    for line in [
        ("alice", "!ladder create chess"),
        ("alice", "!ladder join"),
        ("bob", "!ladder join"),
        ("carol", "!ladder join"),
        ("carol", "!ladder challenge @alice"),
        ("alice", "!tournament create roundrobin chess days:7 signup:0 Mini Cup"),
        ("alice", "!tournament join"),
        ("bob", "!tournament join"),
        ("carol", "!tournament join"),
        ("alice", "!tournament start"),
    ] {
        site.say(line.0, line.1, true);
    }
    // Ratings in a second variant too: the page's leaderboards are those of the rated variants.
    let other = VARIANTS.iter().find(|v| v.name != "chess").unwrap();
    {
        let conn = site.bot.store().conn().unwrap();
        let scope = RatingScope::community("test", "g");
        for (name, rating) in [("alice", 1610.0), ("bob", 1490.0), ("dave", 1550.0)] {
            let id = players::ensure(&conn, "test", name, name, T0).unwrap().id;
            let record = PlayerRating {
                player_id: id,
                rating: Rating { rating, deviation: 60.0, volatility: 0.06 },
                games: 30,
                wins: 15,
                draws: 0,
                losses: 15,
                last_game_at: Some(T0),
            };
            ratings::upsert(&conn, &scope, other.name, &record).unwrap();
        }
    }

    let page = site.bot.web_community("test", "g").unwrap().expect("opted in");
    let conn = site.bot.store().conn().unwrap();
    let name = |id| players::get(&conn, id).unwrap().expect("a player").name;
    let slug = |id| games::slug(&conn, id).unwrap().expect("an address");

    let boards: Vec<(&str, ratings::Leaderboard)> = VARIANTS
        .iter()
        .map(|v| {
            let scope = RatingScope::community("test", "g");
            (v.display_name, ratings::leaderboard(&conn, &scope, v.name, 10, None, T0).unwrap())
        })
        .filter(|(_, b)| !b.top.is_empty() || !b.provisional.is_empty())
        .collect();
    assert!(boards.len() >= 2, "chess (the decided game) and {}: {boards:?}", other.name);
    let shown: Vec<(&str, &ratings::Leaderboard)> =
        page.boards.iter().map(|b| (b.variant.as_str(), &b.board)).collect();
    assert_eq!(shown, boards.iter().map(|(v, b)| (*v, b)).collect::<Vec<_>>());

    let rows = games::recent_in_community(&conn, "test", "g", None, 20).unwrap();
    assert!(rows.len() >= 5, "two games and the tournament's three: {rows:?}");
    let recent: Vec<(String, String, String)> =
        rows.iter().map(|r| (slug(r.id), name(r.white), name(r.black))).collect();
    let shown: Vec<(String, String, String)> =
        page.recent.iter().map(|(s, w, b, _, _)| (s.clone(), w.clone(), b.clone())).collect();
    assert_eq!(shown, recent);
    assert_eq!(page.recent[rows.len() - 1].4, "0-1", "the resigned game, the oldest: {:?}", page.recent);

    let infos = ladders::list(&conn, "test", "g").unwrap();
    assert_eq!((infos.len(), page.ladders.len()), (1, 1));
    let ladder = ladders::load(&conn, infos[0].id).unwrap().unwrap();
    let standings: Vec<_> = ladder.standings().iter().map(|&p| (p, name(p))).collect();
    assert_eq!(standings.len(), 3);
    assert_eq!(page.ladders[0].standings, standings);
    let challenges: Vec<_> = ladder
        .parts()
        .challenges
        .iter()
        .filter(|c| c.status.is_open())
        .map(|c| (name(c.challenger), name(c.challenged), c.accepted_at.is_some()))
        .collect();
    assert_eq!(challenges, vec![("carol".to_string(), "alice".to_string(), false)]);
    assert_eq!(page.ladders[0].challenges, challenges);

    let infos = tournaments::list(&conn, "test", "g").unwrap();
    assert_eq!((infos.len(), page.tournaments.len()), (1, 1));
    let t = tournaments::load(&conn, infos[0].id).unwrap().unwrap();
    let standings: Vec<String> = t.standings().iter().map(|s| name(s.player)).collect();
    assert_eq!(page.tournaments[0].standings.iter().map(|s| s.2.clone()).collect::<Vec<_>>(), standings);
    let mut pairings = Vec::new();
    for (i, r) in t.rounds.iter().enumerate() {
        let boards = tournaments::round_games(&conn, t.info.id, i + 1).unwrap();
        let games: Vec<_> = r
            .games
            .iter()
            .enumerate()
            .map(|(b, g)| {
                let game = boards.iter().find(|(board, _)| *board == b + 1).and_then(|(_, id)| *id);
                (name(g.white), name(g.black), game.map(slug))
            })
            .collect();
        pairings.push((games, r.bye.map(name)));
    }
    assert!(pairings.iter().flat_map(|(g, _)| g).any(|(_, _, s)| s.is_some()), "a round was paired: {pairings:?}");
    let shown: Vec<_> = page.tournaments[0]
        .rounds
        .iter()
        .map(|(games, bye)| {
            (games.iter().map(|(w, b, _, s)| (w.clone(), b.clone(), s.clone())).collect::<Vec<_>>(), bye.clone())
        })
        .collect();
    assert_eq!(shown, pairings);

    // bob's page: each recent game's address and opponent.
    let bob = players::find(&conn, "test", "bob").unwrap().unwrap().id;
    let player = site.bot.web_player("test", "g", bob).unwrap().expect("bob played here");
    let mine = games::recent_in_community(&conn, "test", "g", Some(bob), 20).unwrap();
    assert!(mine.len() >= 4, "{mine:?}");
    let expected: Vec<(String, String)> =
        mine.iter().map(|r| (slug(r.id), name(if r.white == bob { r.black } else { r.white }))).collect();
    assert_eq!(player.recent.iter().map(|(s, o, _, _)| (s.clone(), o.clone())).collect::<Vec<_>>(), expected);
    assert_eq!(player.ratings.len(), 2, "chess and {}: {:?}", other.name, player.ratings);
}

/// A community with a long history: its page shows what goes on (the ladders' current seasons,
/// the tournaments under way, the newest first) and only the last `FINISHED_SHOWN` closed
/// seasons and finished tournaments, the last first, saying how many older ones it leaves out;
/// past `OPEN_SHOWN` tournaments under way, the newest of them. (Before, the page read and showed
/// every tournament and every season the community ever had.)
#[tokio::test]
async fn a_community_page_shows_what_goes_on_and_only_the_last_finished() {
    use capabot::bot::{FINISHED_SHOWN, OPEN_SHOWN};
    use capabot::store::{ladders, tournaments};
    let site = Site::start(WebOptions { pages_fresh: Duration::ZERO, ..WebOptions::default() }).await;
    site.web_on(true);
    for line in ["!ladder create chess", "!ladder join", "!ladder create atomic"] {
        site.say("alice", line, true);
    }
    site.say("bob", "!ladder join chess", false);
    let created = |name: &str| {
        let out =
            site.say("Admin", &format!("!tournament create roundrobin chess days:7 signup:0 {name}"), true).text();
        assert!(out.contains(name), "{out}");
    };
    for i in 1..=14 {
        created(&format!("Cup {i}"));
    }
    {
        let conn = site.bot.store().conn().unwrap();
        // Cups 1 to 12 are over, 13 runs, 14 takes players.
        for (id, status) in (1..=12).map(|i| (i, "finished")).chain([(13, "running")]) {
            conn.execute("UPDATE tournaments SET status = ?2 WHERE id = ?1", capabot::store_params![id, status])
                .unwrap();
        }
        let chess = ladders::find(&conn, "test", "g", "chess").unwrap().unwrap().id;
        for _ in 0..13 {
            ladders::close_season(&conn, chess, T0).unwrap();
        }
    }
    assert_eq!((FINISHED_SHOWN, OPEN_SHOWN), (10, 20), "the numbers docs/web.md gives");

    let page = site.bot.web_community("test", "g").unwrap().expect("opted in");
    let shown: Vec<(&str, &str)> = page.tournaments.iter().map(|t| (t.name.as_str(), t.status)).collect();
    let mut want = vec![("Cup 14", "registration"), ("Cup 13", "running")];
    let finished: Vec<String> = (3..=12).rev().map(|i| format!("Cup {i}")).collect();
    want.extend(finished.iter().map(|n| (n.as_str(), "finished")));
    assert_eq!(shown, want);
    assert_eq!((page.more_open_tournaments, page.older_tournaments), (LeftOut::Counted(0), LeftOut::Counted(2)));
    let ladders: Vec<(&str, u32)> = page.ladders.iter().map(|l| (l.variant.as_str(), l.season)).collect();
    assert_eq!(ladders, [("Atomic Chess", 1), ("Chess", 14)]);
    let seasons: Vec<(&str, u32)> = page.seasons.iter().map(|s| (s.variant.as_str(), s.season)).collect();
    assert_eq!(seasons, (4..=13).rev().map(|n| ("Chess", n)).collect::<Vec<_>>());
    let podium: Vec<&str> = page.seasons[0].podium.iter().map(|(_, n)| n.as_str()).collect();
    assert_eq!(podium, ["alice", "bob"]);
    assert_eq!(page.older_seasons, 3);

    let html = text(&site.url("/c/test/g")).await;
    let at = |what: &str| html.find(what).unwrap_or_else(|| panic!("{what} is not on the page"));
    let mut last = 0;
    for name in ["Cup 14", "Cup 13"].iter().copied().chain(finished.iter().map(String::as_str)) {
        let here = at(&format!("<h3>{name} ("));
        assert!(here > last, "{name} out of order");
        last = here;
    }
    for gone in ["Cup 1 (", "Cup 2 ("] {
        assert!(!html.contains(gone), "{gone}");
    }
    assert!(at("2 older finished tournaments are not shown.") > last);
    assert!(at("Chess, season 13: 1. <a") < at("Chess, season 4: "));
    assert!(!html.contains("Chess, season 3:"));
    at("3 older seasons are not shown.");
    assert!(!html.contains("more tournaments under way"));

    // Past `OPEN_SHOWN` tournaments under way: the newest of them, and how many more there are.
    for i in 15..=36 {
        created(&format!("Cup {i}"));
    }
    let page = site.bot.web_community("test", "g").unwrap().expect("opted in");
    let open: Vec<&str> = page.tournaments.iter().filter(|t| t.status != "finished").map(|t| t.name.as_str()).collect();
    let newest: Vec<String> = (17..=36).rev().map(|i| format!("Cup {i}")).collect();
    assert_eq!(open, newest.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(
        (page.tournaments.len(), page.more_open_tournaments, page.older_tournaments),
        (30, LeftOut::Counted(4), LeftOut::Counted(2))
    );
    let html = text(&site.url("/c/test/g")).await;
    assert!(html.contains("4 more tournaments under way are not shown here"), "{html}");
    let conn = site.bot.store().conn().unwrap();
    assert_eq!(tournaments::counted_in(&conn, "test", "g", 1_000).unwrap(), (24, 12));
}

/// A tournament's board in round `round`: board number, White's and Black's names, its game.
fn tournament_boards(site: &Site, round: usize) -> Vec<(i64, String, String, i64)> {
    let conn = site.bot.store().conn().unwrap();
    let mut st = conn
        .prepare(
            "SELECT g.board, w.name, b.name, g.game_id FROM tournament_games g
             JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
             WHERE g.round = ?1 AND g.board > 0 ORDER BY g.board",
        )
        .unwrap();
    st.query_map(capabot::store_params![round as i64], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// A standings line: place, name, score, and each tie-break's name and value.
type StandingLine = (String, String, String, Vec<(String, String)>);

/// The chat's standings (`!tournament standings`): each line's place, name, score and tie-breaks
/// by name, as in "2. P3 2½ (SB 3¾)".
fn chat_standings(answer: &str) -> Vec<StandingLine> {
    let start = answer.rfind("tandings:").unwrap_or_else(|| panic!("no standings in {answer}"));
    answer[start..]
        .lines()
        .skip(1)
        .map_while(|line| {
            let (place, rest) = line.split_once(". ")?;
            place.parse::<u32>().ok()?;
            let (head, tbs) = rest.split_once(" (")?;
            let (name, score) = head.rsplit_once(' ')?;
            let tbs = tbs.strip_suffix(')')?.split(", ").filter_map(|tb| tb.rsplit_once(' '));
            let tbs = tbs.map(|(n, v)| (n.to_string(), v.to_string())).collect();
            Some((place.to_string(), name.to_string(), score.to_string(), tbs))
        })
        .collect()
}

/// The text of each cell of `table`'s rows (the header row first), tags left out.
fn table_cells(table: &str) -> Vec<Vec<String>> {
    let strip = |html: &str| {
        let mut out = String::new();
        let mut in_tag = false;
        for c in html.chars() {
            match c {
                '<' => in_tag = true,
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        out.trim().to_string()
    };
    let cells = |mut row: &str| {
        let mut out = Vec::new();
        while let Some(at) = ["<td", "<th"].iter().filter_map(|t| row.find(t)).min() {
            let tag = &row[at + 1..at + 3];
            let after = &row[at + 3..];
            if !after.starts_with(['>', ' ']) {
                row = after;
                continue;
            }
            let body = &after[after.find('>').unwrap() + 1..];
            let close = format!("</{tag}>");
            let end = body.find(&close).unwrap();
            out.push(strip(&body[..end]));
            row = &body[end + close.len()..];
        }
        out
    };
    table.split("<tr>").skip(1).map(|row| cells(row.split("</tr>").next().unwrap_or_default())).collect()
}

/// The community page's standings of its only tournament, as the chat's lines are read.
fn page_standings(page: &str) -> Vec<StandingLine> {
    let start = page.find("<table class=\"standings\">").unwrap_or_else(|| panic!("no standings in {page}"));
    let table = &page[start..start + page[start..].find("</table>").unwrap()];
    let rows = table_cells(table);
    let (head, rows) = rows.split_first().expect("a header row");
    rows.iter()
        .map(|r| {
            let tbs = head[3..].iter().cloned().zip(r[3..].iter().cloned()).collect();
            (r[0].clone(), r[1].clone(), r[2].clone(), tbs)
        })
        .collect()
}

/// The community page's tournament tie-breaks are the chat's, round after round, in a round
/// robin of five (a bye each round) with draws (Sonneborn–Berger counts half a drawn opponent's
/// score: quarters) and in a Swiss of five (Buchholz and Buchholz cut-1).
#[tokio::test]
async fn the_tournament_pages_tie_breaks_are_the_chats() {
    for system in ["roundrobin", "swiss rounds:3"] {
        let site = Site::start(WebOptions { pages_fresh: Duration::ZERO, ..WebOptions::default() }).await;
        site.web_on(true);
        site.say("Admin", &format!("!tournament create {system} chess days:7 signup:0 Tie Cup"), true);
        let players = ["P1", "P2", "P3", "P4", "P5"];
        for p in players {
            assert!(site.say(p, "!tournament join", false).text().contains(p), "{p} joins");
        }
        assert!(site.say("Admin", "!tournament start", true).text().contains("Round 1"));
        let (mut round, mut quarters, mut draws) = (1, false, 0);
        loop {
            let boards = tournament_boards(&site, round);
            if boards.is_empty() {
                break;
            }
            assert_eq!(boards.len(), 2, "five players: two boards and a bye in round {round}");
            for (board, white, black, game) in boards {
                match (round as i64 + board) % 3 {
                    0 => {
                        assert!(site.say(&white, &format!("!draw #{game}"), false).text().contains("offers a draw"));
                        site.say(&black, &format!("!draw #{game}"), false);
                        draws += 1;
                    }
                    1 => drop(site.say(&black, &format!("!resign #{game}"), false)),
                    _ => drop(site.say(&white, &format!("!resign #{game}"), false)),
                }
            }
            let chat = chat_standings(&site.say("P1", "!tournament #1 standings", false).text());
            assert_eq!(chat.len(), players.len(), "{chat:?}");
            quarters |= chat.iter().flat_map(|(.., tbs)| tbs).any(|(_, v)| v.contains(['¼', '¾']));
            let page = text(&site.url("/c/test/g")).await;
            assert_eq!(page_standings(&page), chat, "{system}, after round {round}");
            round += 1;
        }
        assert!(round > 3 && draws > 0, "{system}: several rounds with a draw");
        if system == "roundrobin" {
            assert!(quarters, "a Sonneborn–Berger value of quarters was compared");
        }
    }
}

/// The community and player pages are kept a moment: a change the feed does not tell (another
/// process sharing the database) is not on them yet, a change told in a chat of another community
/// leaves them, and one told in a chat of theirs drops them at once. `web:off` takes them down at
/// once without a word on the feed (the setting is read for every request), and a page shown
/// again is read anew.
#[tokio::test]
async fn kept_pages_are_dropped_by_a_change_in_their_community_and_web_off_takes_them_down_at_once() {
    let changes = Changes::default();
    // Kept for a minute: only the feed and the setting can make them change in this test.
    let options = WebOptions { pages_fresh: Duration::from_secs(60), ..WebOptions::live(changes.clone()) };
    let site = Site::start(options).await;
    site.web_on(true);
    site.chess_game(&["e4", "e5"]);
    let bob = {
        let conn = site.bot.store().conn().unwrap();
        players::find(&conn, "test", "bob").unwrap().unwrap().id
    };
    let (community, player) = (site.url("/c/test/g"), site.url(&format!("/c/test/g/p/{bob}")));
    let (first, first_bob) = (text(&community).await, text(&player).await);
    assert_eq!(first.matches("<tr><td><a href=\"/g/").count(), 1, "one game listed: {first}");

    // bob resigns and a second game starts: not told, so the kept pages are served.
    assert!(site.say("bob", "!resign", false).text().contains("resign"));
    site.chess_game(&["d4", "d5"]);
    assert_eq!(text(&community).await, first, "kept");
    assert_eq!(text(&player).await, first_bob, "kept");
    changes.tell_in("test", Some("elsewhere"), "main");
    changes.tell("test", "dm-bob");
    assert_eq!(text(&community).await, first, "another community's change leaves it");
    // Told in a chat of the community: both pages are read anew.
    changes.tell_in("test", Some("g"), "main");
    let now = text(&community).await;
    assert_eq!(now.matches("<tr><td><a href=\"/g/").count(), 2, "both games listed: {now}");
    assert!(now.contains("Leaderboards") && now.contains("bob"), "{now}");
    let now_bob = text(&player).await;
    assert_ne!(now_bob, first_bob, "bob's page shows his resignation and new game");

    // web:off, not told on the feed: both pages are 404 at once.
    site.web_on(false);
    assert_eq!(status(&community).await, 404);
    assert_eq!(status(&player).await, 404);
    // Shown again after a change nobody told: the pages are read anew, not the ones kept before.
    assert!(site.say("alice", "!resign", false).text().contains("resign"));
    site.web_on(true);
    let again = text(&community).await;
    assert_ne!(again, now, "read anew after web:off");
    assert!(again.contains("1-0") && again.contains("0-1"), "both results: {again}");
}

/// A kept page is served for [`WebOptions::pages_fresh`] at most, then read anew.
#[tokio::test]
async fn a_kept_page_is_read_anew_once_stale() {
    let fresh = Duration::from_millis(300);
    let site = Site::start(WebOptions { pages_fresh: fresh, ..WebOptions::default() }).await;
    site.web_on(true);
    let community = site.url("/c/test/g");
    let read_at = tokio::time::Instant::now();
    let before = text(&community).await;
    site.chess_game(&["e4"]);
    let kept = text(&community).await;
    // (On a machine slow enough to take 300 ms over the game, the page may be stale already.)
    if read_at.elapsed() < fresh {
        assert_eq!(kept, before, "kept while fresh");
    }
    tokio::time::sleep(fresh).await;
    let after = text(&community).await;
    assert_ne!(after, before, "read anew once stale");
    assert!(after.contains("<tr><td><a href=\"/g/"), "the game is listed: {after}");
    // Nothing kept: every request reads the store.
    let site = Site::start(WebOptions { pages_fresh: Duration::ZERO, ..WebOptions::default() }).await;
    site.web_on(true);
    let community = site.url("/c/test/g");
    let before = text(&community).await;
    site.chess_game(&["e4"]);
    assert_ne!(text(&community).await, before);
}

/// The site's root is a home page, not "Not found": what capabot is and the rules of every
/// variant, in the reader's language, and no community or game listed (each is found by its link
/// from its chat). (Before: 404.)
#[tokio::test]
async fn the_home_page_says_what_capabot_is_and_lists_no_community() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    site.chess_game(&["e4"]);
    let page = text_in(&site.url("/"), "en").await;
    assert!(page.contains("<h1>capabot: chess variants in your chat</h1>"), "{page}");
    for v in capabot::rules::VARIANTS {
        assert!(page.contains(&format!("<code>{}</code>", v.name)), "{}: {page}", v.name);
    }
    assert!(page.contains("Capatomic Random Chess") && page.contains("irradiated"), "{page}");
    assert!(!page.contains("/c/") && !page.contains("/g/"), "nothing listed: {page}");
    let turkish = text_in(&site.url("/"), "tr").await;
    assert!(turkish.contains("<html lang=\"tr\">") && turkish.contains("<h2>Varyantlar</h2>"), "{turkish}");
    // The variants by their names in the reader's language (before: the English ones).
    assert!(turkish.contains("<dt>Capatomic Rastgele Satranç (<code>capatomic</code>)</dt>"), "{turkish}");
}

#[tokio::test]
async fn a_finished_games_page_shows_its_analysis_once_one_is_made_in_its_chat() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]);
    let (page, course, analysed) = (
        site.url(&format!("/g/{slug}")),
        site.url(&format!("/g/{slug}/course")),
        site.url(&format!("/g/{slug}/pgn/analysed")),
    );
    // Before anyone asked: no analysis, no chart, no annotated PGN.
    let before = text(&page).await;
    assert!(!before.contains("id=\"analysis\"") && !before.contains("/pgn/analysed"), "{before}");
    // Who may ask, where, and the command as typed there (before: "anyone who watched the game can
    // ask for one in its chat (analyse)").
    assert!(before.contains("id=\"analysis-ask\""), "{before}");
    assert!(
        before.contains("anyone in the chat where this game was played can ask for one there: !analyse #"),
        "how to get one: {before}"
    );
    assert_eq!(status(&course).await, 404);
    assert_eq!(status(&analysed).await, 404);

    let asked = site.say("bob", "!analyse", false);
    assert_eq!(asked.analyses.len(), 1, "{}", asked.text());
    let replies = site.bot.run_analyses_inline(asked.analyses);
    // The chat's answer links to the analysis on the game's page.
    let linked = format!("https://chess.example.org/g/{slug}#analysis");
    assert_eq!(replies[0].web_url(), Some(linked.as_str()), "{:?}", replies[0]);
    let chat: Vec<String> = replies.into_iter().map(|r| r.text).collect();
    let shown = text(&page).await;
    assert!(shown.contains("id=\"analysis\"") && !shown.contains("analysis-ask"), "{shown}");
    assert!(shown.contains(" nodes per position."), "as the chat says it (before: 'nodes a position'): {shown}");
    // What the chat was told is what the page says: each side's accuracy and mistakes, and every
    // turning point (the chat's replies after its summary) with what was better.
    let sides: Vec<&str> = chat[0].lines().filter(|l| l.contains("accuracy")).collect();
    assert_eq!(sides.len(), 2, "{chat:?}");
    for line in sides.iter().copied().chain(chat[1..].iter().map(String::as_str)) {
        assert!(shown.contains(line), "{line:?} is not on the page:\n{shown}");
    }
    // Black's 3... Nf6 let the mate in: a blunder, marked in the moves and linked to the board
    // before it (ply 5).
    assert!(chat.iter().any(|t| t.contains("Nf6??")), "{chat:?}");
    assert!(shown.contains("<span class=\"mark blunder\""), "{shown}");
    assert!(shown.contains("<span class=\"hidden\"> (blunder)</span>"), "the kind in words too: {shown}");
    assert!(shown.contains(&format!("<a class=\"blunder\" href=\"/g/{slug}?ply=5\">3... Nf6??")), "{shown}");
    assert!(shown.contains("/pgn/analysed"), "{shown}");
    let png = get(&course).await;
    assert_eq!(png.status(), 200);
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG"));
    let pgn = text(&analysed).await;
    assert!(pgn.contains("[%eval") && pgn.contains("Nf6??"), "{pgn}");
    // A community that leaves the web takes them down with its pages.
    site.web_on(false);
    for u in [&page, &course, &analysed] {
        assert_eq!(status(u).await, 404, "{u}");
    }
}

#[tokio::test]
async fn a_games_link_shows_as_a_card_with_its_latest_board_where_it_is_shared() {
    let site = Site::start(WebOptions::default()).await;
    site.web_on(true);
    let slug = site.chess_game(&["e4", "e5", "Nf3"]);
    let page = text(&site.url(&format!("/g/{slug}"))).await;
    // The addresses are the public ones (the configuration's `public_url`), the board the latest.
    let public = format!("https://chess.example.org/g/{slug}");
    for tag in [
        format!("<meta property=\"og:url\" content=\"{public}\">"),
        format!("<meta property=\"og:image\" content=\"{public}/board/3\">"),
        "<meta property=\"og:title\" content=\"alice vs bob, Chess\">".to_string(),
        "<meta property=\"og:description\" content=\"Chess · rated · bob (black) to move\">".to_string(),
    ] {
        assert!(page.contains(&tag), "no {tag} in {page}");
    }
    assert!(!page.contains("analysis"), "no analysis of a game in progress: {page}");
    // The picture it names is served.
    let board = get(&site.url(&format!("/g/{slug}/board/3"))).await;
    assert_eq!(board.headers()["content-type"], "image/png");
}

//! `bench-web`: the web pages under a steady load. A community that opted in, with games, ratings
//! and a player's history made through the core, served by `capabot::web` on 127.0.0.1; then each
//! page is asked for at a fixed rate (open loop: a request leaves at its time whether or not the
//! previous one came back, and its latency counts from that time, so a stall is not hidden) for a
//! while, each request on a connection of its own. Reported per page: median, 99th percentile and
//! slowest latency, failures, and the page's size; the board picture also from a server that keeps
//! no pictures (each drawn for its request), to show what keeping them buys.
//!
//! The pages are asked for one after another, or all at once (`all_at_once`). With `live`, event
//! streams are opened on the live game first, as many browsers' `EventSource`s would, and moves
//! are made in its chat at a steady rate while the pages are asked for: reported beside the pages
//! are the move-to-page latency each stream saw (from the move's commit to the event's arrival),
//! and what the open streams cost (memory, tasks, threads). The store is a SQLite file, or
//! (`postgres`) a database on the PostgreSQL server of `pg-harness`.
//!
//! The server runs on a runtime of its own (as many workers as cores, as the product's); the
//! requests and the streams are made from another, of one thread.

use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, ManualClock, Scope, UserRef};
use capabot::host::changes::Changes;
use capabot::notation::{fen, san};
use capabot::rules::{Color, Game};
use capabot::store::{Store, games};
use capabot::web::{WebOptions, serve};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

/// What to run.
#[derive(Clone, Debug)]
pub struct WebBenchOptions {
    /// Requests per second, per page.
    pub rate: u32,
    /// How long each page is asked for.
    pub seconds: u64,
    /// Games in the community (each a few moves long); the first has `plies` moves.
    pub games: usize,
    pub plies: usize,
    /// Every page asked for at the same time (each at `rate`), not one after another.
    pub all_at_once: bool,
    /// Live pages open on the live game while moves are made in its chat.
    pub live: Option<LiveLoad>,
    /// The store on PostgreSQL (the harness's server on 127.0.0.1) rather than a SQLite file.
    pub postgres: bool,
    /// How long community and player pages are kept ([`WebOptions::pages_fresh`]; zero: each is
    /// made for its request). The live game's moves, in the community's chat, drop them.
    pub pages_fresh: Duration,
}

/// Open live pages and the moves they watch.
#[derive(Clone, Copy, Debug)]
pub struct LiveLoad {
    /// Event streams open on the live game.
    pub streams: usize,
    /// Moves made in the game's chat per second.
    pub moves_per_sec: f64,
}

/// One page's figures.
#[derive(Clone, Debug)]
pub struct PageFigures {
    pub page: String,
    pub requests: usize,
    pub failures: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub bytes: usize,
}

/// The 50th and 99th percentiles and the largest of some latencies (0 for none); sorts `times`.
fn percentiles(times: &mut [f64]) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1))).copied();
    (at(0.5).unwrap_or(0.0), at(0.99).unwrap_or(0.0), times.last().copied().unwrap_or(0.0))
}

/// An input in the community's chat, where every game of the benchmark is played.
fn chat_input(who: &str, text: &str) -> Input {
    let mut scope = Scope::chat("bench", "main");
    scope.community = Some("club".into());
    Input::text(scope, UserRef::new(who, who), text)
}

fn say(bot: &Bot, who: &str, text: &str, admin: bool) -> String {
    let inp = chat_input(who, text).as_admin(admin).with_mentions(
        text.split_whitespace().filter_map(|w| w.strip_prefix('@')).map(|n| UserRef::new(n, n)).collect(),
    );
    let r = bot.handle(&inp);
    let mut out = r.text();
    for m in bot.run_ai_jobs_inline(r.ai_jobs) {
        out.push_str(&m.text);
    }
    out
}

/// The community: `games` decided chess games between eight players (ratings, a history), the
/// last one left going with `plies` moves, between ann (White) and ben.
fn community(bot: &Bot, games: usize, plies: usize) -> Result<String, String> {
    let out = say(bot, "admin", "!settings community web:on", true);
    if !out.contains("saved") {
        return Err(format!("web:on refused: {out}"));
    }
    let names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"];
    for i in 0..games {
        let (w, b) = (names[i % names.len()], names[(i * 3 + 1) % names.len()]);
        let (w, b) = if w == b { (w, names[(i + 1) % names.len()]) } else { (w, b) };
        say(bot, w, &format!("!challenge @{b} chess color:white"), false);
        say(bot, b, "!accept", false);
        // Fool's mate for the decided games (Black wins).
        for (who, m) in [(w, "f3"), (b, "e5"), (w, "g4"), (b, "Qh4#")] {
            say(bot, who, m, false);
        }
    }
    say(bot, "ann", "!challenge @ben chess color:white", false);
    say(bot, "ben", "!accept", false);
    let moves =
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O"];
    for (i, m) in moves.iter().cycle().take(plies.min(moves.len())).enumerate() {
        say(bot, if i % 2 == 0 { "ann" } else { "ben" }, m, false);
    }
    let conn = bot.store().conn().map_err(|e| e.to_string())?;
    let id: i64 = conn.query_row("SELECT max(id) FROM games", (), |r| r.get(0)).map_err(|e| e.to_string())?;
    games::slug(&conn, id).map_err(|e| e.to_string())?.ok_or_else(|| format!("game {id} has no web address"))
}

/// One GET on a fresh connection: the status and the body's length.
async fn get(addr: SocketAddr, path: &str) -> Result<(u16, usize), String> {
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    s.set_nodelay(true).map_err(|e| e.to_string())?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\nAccept-Language: en\r\n\r\n");
    s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let mut buf = Vec::with_capacity(32 * 1024);
    s.read_to_end(&mut buf).await.map_err(|e| e.to_string())?;
    let head_end = buf.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no header end")? + 4;
    let status = std::str::from_utf8(&buf[9..12]).ok().and_then(|s| s.parse().ok()).ok_or("no status")?;
    Ok((status, buf.len() - head_end))
}

/// Asks for `path` `rate` times a second for `seconds`.
async fn load(addr: SocketAddr, page: String, path: String, rate: u32, seconds: u64) -> PageFigures {
    let every = Duration::from_secs_f64(1.0 / f64::from(rate.max(1)));
    let count = (u64::from(rate) * seconds) as usize;
    let start = Instant::now() + Duration::from_millis(50);
    let mut running = Vec::with_capacity(count);
    for i in 0..count {
        let due = start + every * i as u32;
        tokio::time::sleep_until(due.into()).await;
        let path = path.clone();
        running.push(tokio::spawn(async move {
            let r = get(addr, &path).await;
            (due.elapsed().as_secs_f64() * 1000.0, r)
        }));
    }
    let (mut times, mut failures, mut bytes) = (Vec::with_capacity(count), 0, 0);
    for t in running {
        match t.await {
            Ok((ms, Ok((200, n)))) => {
                times.push(ms);
                bytes = n;
            }
            _ => failures += 1,
        }
    }
    let (p50_ms, p99_ms, max_ms) = percentiles(&mut times);
    PageFigures { page, requests: count, failures, p50_ms, p99_ms, max_ms, bytes }
}

/// The pages, one after another or all at once.
async fn load_pages(pages: Vec<(&'static str, SocketAddr, String)>, opts: &WebBenchOptions) -> Vec<PageFigures> {
    let (rate, seconds) = (opts.rate, opts.seconds);
    if !opts.all_at_once {
        let mut figures = Vec::new();
        for (page, addr, path) in pages {
            figures.push(load(addr, page.into(), path, rate, seconds).await);
        }
        return figures;
    }
    let running: Vec<_> = pages
        .into_iter()
        .map(|(page, addr, path)| tokio::spawn(load(addr, page.into(), path, rate, seconds)))
        .collect();
    let mut figures = Vec::new();
    for r in running {
        if let Ok(f) = r.await {
            figures.push(f);
        }
    }
    figures
}

/// A move made in the live game: its ply, when its unit of work had committed, and how long the
/// core took over it.
#[derive(Clone, Copy, Debug)]
struct Made {
    ply: u32,
    committed: Instant,
    core: Duration,
}

/// Makes moves in the live game's chat, `per_sec` a second, until `stop` (at most `max` moves):
/// each through the core on the blocking pool as the host runs an input, its commit taken when
/// the core returns, then the feed told from the async side, as the host tells it once the unit
/// is settled (before any delivery). Random legal moves that do not end the game.
async fn make_moves(
    bot: Arc<Bot>,
    changes: Changes,
    (mut game, first_ply): (Game, u32),
    (per_sec, max): (f64, usize),
    stop: CancellationToken,
) -> Result<Vec<Made>, String> {
    let every = Duration::from_secs_f64(1.0 / per_sec.max(0.01));
    let mut rng = StdRng::seed_from_u64(47);
    let start = Instant::now();
    let mut made = Vec::new();
    for i in 0..max {
        tokio::select! {
            _ = stop.cancelled() => break,
            _ = tokio::time::sleep_until((start + every.mul_f64(i as f64)).into()) => {}
        }
        let pos = game.position().clone();
        let going = super::gif::going_on(&game, &pos.legal_moves());
        if going.is_empty() {
            break;
        }
        let mv = going[rng.random_range(0..going.len())];
        let text = format!("!move {}", san::write_plain(&pos, mv));
        let who = if pos.turn() == Color::White { "ann" } else { "ben" };
        let b = bot.clone();
        let (response, began, committed) = tokio::task::spawn_blocking(move || {
            let began = Instant::now();
            let r = b.handle(&chat_input(who, &text));
            (r, began, Instant::now())
        })
        .await
        .map_err(|e| e.to_string())?;
        if !response.text().contains("played by") {
            return Err(format!("a move of the live game was refused: {}", response.text()));
        }
        changes.tell_response(&response);
        game.play(mv);
        made.push(Made { ply: first_ply + game.moves().len() as u32, committed, core: committed - began });
    }
    Ok(made)
}

/// One live page's event stream, as a browser's `EventSource` holds it: counted in `opened` once
/// its headers came (the server follows the game from then on), then the plies it was told and
/// when, until `stop` or the server ends it.
async fn follow(
    addr: SocketAddr,
    path: String,
    opened: Arc<AtomicUsize>,
    stop: CancellationToken,
) -> Result<Vec<(u32, Instant)>, String> {
    let mut s = tokio::net::TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    s.set_nodelay(true).map_err(|e| e.to_string())?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n");
    s.write_all(req.as_bytes()).await.map_err(|e| e.to_string())?;
    let (mut buf, mut chunk) = (Vec::with_capacity(512), [0u8; 512]);
    let mut head = true;
    let mut heard = Vec::new();
    loop {
        let n = tokio::select! {
            _ = stop.cancelled() => break,
            n = s.read(&mut chunk) => n.map_err(|e| e.to_string())?,
        };
        if n == 0 {
            break;
        }
        let at = Instant::now();
        buf.extend_from_slice(&chunk[..n]);
        if head {
            let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
            if !buf.starts_with(b"HTTP/1.1 200") {
                return Err(format!("{path}: {}", String::from_utf8_lossy(&buf[..end])));
            }
            buf.drain(..end + 4);
            head = false;
            opened.fetch_add(1, Ordering::SeqCst);
        }
        // Whole lines only (the body is chunked; the chunks' sizes are lines of their own).
        while let Some(nl) = buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = buf.drain(..=nl).collect();
            if let Some(ply) = line.strip_prefix(b"data: ").and_then(|d| std::str::from_utf8(d).ok()) {
                heard.push((ply.trim().parse::<u32>().map_err(|_| format!("event data {ply:?}"))?, at));
            }
        }
    }
    Ok(heard)
}

/// The process's `VmRSS` (KiB) and threads, from `/proc/self/status`.
fn footprint() -> (u64, u64) {
    let v = super::proc_status("self", &["VmRSS:", "Threads:"]).unwrap_or_default();
    (v.first().copied().unwrap_or(0), v.get(1).copied().unwrap_or(0))
}

/// The open streams' figures.
#[derive(Clone, Debug, Default)]
struct LiveFigures {
    streams: usize,
    opened_in: Duration,
    /// (RSS KiB, server tasks, threads) before the streams, with them open, and the most during
    /// the moves.
    before: (u64, usize, u64),
    open: (u64, usize, u64),
    peak: (u64, u64),
    moves: Vec<Made>,
    /// Move-to-page latencies (ms), one per stream and move; the (stream, move) pairs never told.
    latencies: Vec<f64>,
    missed: usize,
    failed_streams: usize,
    /// Bytes of the benchmark's own end of a stream (its task's state; a 512-byte buffer beside).
    client_task: usize,
}

/// For each stream and move: the first event telling of that ply or a later one (a page told of a
/// later ply shows that move too), from the move's commit.
fn move_to_page(moves: &[Made], heard: &[Vec<(u32, Instant)>]) -> (Vec<f64>, usize) {
    let (mut latencies, mut missed) = (Vec::with_capacity(moves.len() * heard.len()), 0);
    for events in heard {
        for m in moves {
            match events.iter().find(|(ply, _)| *ply >= m.ply) {
                Some((_, at)) => latencies.push(at.saturating_duration_since(m.committed).as_secs_f64() * 1000.0),
                None => missed += 1,
            }
        }
    }
    (latencies, missed)
}

/// How long after the last move the streams are kept open: an event later than that is counted
/// as never told.
const TOLD_WITHIN: Duration = Duration::from_secs(5);

/// The store and what must outlive it (the PostgreSQL database, dropped after the store).
type Opened = (Store, Option<Box<dyn std::any::Any>>);

/// The store: a SQLite file in `dir`, or a new database on the harness's PostgreSQL server.
fn open_store(dir: &std::path::Path, postgres: bool) -> Result<Opened, String> {
    if postgres {
        return open_postgres();
    }
    Ok((Store::open(dir.join("bench.db")).map_err(|e| e.to_string())?, None))
}

#[cfg(feature = "postgres")]
fn open_postgres() -> Result<Opened, String> {
    let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
    let database = server.create_database().map_err(|e| e.to_string())?;
    let store = Store::open_setting(&database.url()).map_err(|e| e.to_string())?;
    Ok((store, Some(Box::new(database))))
}

#[cfg(not(feature = "postgres"))]
fn open_postgres() -> Result<Opened, String> {
    Err("--pg needs the laboratory built with its `postgres` feature".into())
}

/// Runs the benchmark; returns the report.
pub fn bench(opts: &WebBenchOptions) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("capabot-bench-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (store, database) = open_store(&dir, opts.postgres)?;
    let clock = Arc::new(ManualClock::new(1_763_683_200));
    let bot = Arc::new(Bot::new(store, clock, Arc::new(FirstLegalMove), BotConfig::default()));
    let slug = community(&bot, opts.games, opts.plies)?;
    let server = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let client = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let stop = CancellationToken::new();
    let changes = Changes::default();
    let no_limit = WebOptions {
        per_minute: 100_000_000,
        burst: 1_000_000,
        trust_loopback_proxy: false,
        live: Some(changes.clone()),
        pages_fresh: opts.pages_fresh,
        ..WebOptions::default()
    };
    let addr = server.block_on(serve(bot.clone(), "127.0.0.1:0".parse().unwrap(), no_limit.clone(), stop.clone()))?;
    // The same pages without the pictures kept: every board drawn for its request.
    let drawing = WebOptions { pictures_kept: 0, ..no_limit };
    let drawn = server.block_on(serve(bot.clone(), "127.0.0.1:0".parse().unwrap(), drawing, stop.clone()))?;
    let board = format!("/g/{slug}/board/{}", opts.plies.min(16));
    let mut pages = vec![
        ("game", addr, format!("/g/{slug}")),
        ("community", addr, "/c/bench/club".to_string()),
        ("player", addr, "/c/bench/club/p/1".to_string()),
        ("board picture", addr, board.clone()),
    ];
    if !opts.all_at_once && opts.live.is_none() {
        pages.push(("board, drawn", drawn, board));
    }
    let live_game = {
        let conn = bot.store().conn().map_err(|e| e.to_string())?;
        let row = games::by_slug(&conn, &slug).map_err(|e| e.to_string())?.ok_or("no live game")?;
        let pos = fen::parse_position(capabot::tools::variant(&row.variant)?, &row.fen).map_err(|e| e.to_string())?;
        (Game::new(pos), row.ply)
    };
    let server_tasks = || server.metrics().num_alive_tasks();
    let result = client.block_on(async {
        for (_, addr, path) in &pages {
            let (status, _) = get(*addr, path).await?;
            if status != 200 {
                return Err(format!("{path}: {status}"));
            }
        }
        let Some(live) = opts.live else {
            return Ok((load_pages(pages, opts).await, None));
        };
        let mut fig = LiveFigures { streams: live.streams, ..LiveFigures::default() };
        let (rss, threads) = footprint();
        fig.before = (rss, server_tasks(), threads);
        let (opened, closing) = (Arc::new(AtomicUsize::new(0)), CancellationToken::new());
        let began = Instant::now();
        let path = format!("/g/{slug}/events?ply={}", live_game.1);
        let streams: Vec<_> = (0..live.streams)
            .map(|_| {
                let stream = follow(addr, path.clone(), opened.clone(), closing.clone());
                fig.client_task = std::mem::size_of_val(&stream);
                tokio::spawn(stream)
            })
            .collect();
        let open_by = began + Duration::from_secs(60);
        while opened.load(Ordering::SeqCst) < live.streams && Instant::now() < open_by {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        fig.opened_in = began.elapsed();
        if opened.load(Ordering::SeqCst) < live.streams {
            closing.cancel();
            return Err(format!("{} of {} streams opened in 60 s", opened.load(Ordering::SeqCst), live.streams));
        }
        let (rss, threads) = footprint();
        fig.open = (rss, server_tasks(), threads);
        // The moves, on the server's runtime (the core's blocking pool is the server's), while the
        // pages are asked for; the process's footprint sampled meanwhile.
        let moving = CancellationToken::new();
        let pages_for = if opts.all_at_once { opts.seconds } else { opts.seconds * pages.len() as u64 };
        let max_moves = (live.moves_per_sec * (pages_for + 30) as f64).ceil() as usize;
        let mover = server.spawn(make_moves(
            bot.clone(),
            changes.clone(),
            live_game,
            (live.moves_per_sec, max_moves),
            moving.clone(),
        ));
        let sampler = tokio::spawn({
            let moving = moving.clone();
            async move {
                let mut peak = footprint();
                while !moving.is_cancelled() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    let (rss, threads) = footprint();
                    peak = (peak.0.max(rss), peak.1.max(threads));
                }
                peak
            }
        });
        let figures = load_pages(pages, opts).await;
        moving.cancel();
        fig.moves = mover.await.map_err(|e| e.to_string())??;
        fig.peak = sampler.await.map_err(|e| e.to_string())?;
        // The last move's events: a little time to arrive, then the streams are closed.
        tokio::time::sleep(TOLD_WITHIN).await;
        closing.cancel();
        let mut heard = Vec::new();
        for s in streams {
            match s.await {
                Ok(Ok(events)) => heard.push(events),
                _ => fig.failed_streams += 1,
            }
        }
        (fig.latencies, fig.missed) = move_to_page(&fig.moves, &heard);
        Ok((figures, Some(fig)))
    });
    stop.cancel();
    server.shutdown_timeout(Duration::from_secs(5));
    drop(bot);
    drop(database);
    let _ = std::fs::remove_dir_all(&dir);
    let (figures, live) = result?;
    Ok(report(opts, &figures, live))
}

fn report(opts: &WebBenchOptions, figures: &[PageFigures], live: Option<LiveFigures>) -> String {
    let mut out = format!(
        "bench-web ({}, {}): {} requests/s per page for {} s, a connection per request; pages kept {} ms; load \
         average {}\n",
        if opts.postgres { "PostgreSQL" } else { "SQLite" },
        if opts.all_at_once { "all pages at once" } else { "one page at a time" },
        opts.rate,
        opts.seconds,
        opts.pages_fresh.as_millis(),
        std::fs::read_to_string("/proc/loadavg").unwrap_or_default().split(' ').take(3).collect::<Vec<_>>().join(" ")
    );
    let _ = writeln!(
        out,
        "{:<14} {:>8} {:>8} {:>9} {:>9} {:>9} {:>9}",
        "page", "requests", "failed", "p50 ms", "p99 ms", "max ms", "bytes"
    );
    for f in figures {
        let _ = writeln!(
            out,
            "{:<14} {:>8} {:>8} {:>9.2} {:>9.2} {:>9.2} {:>9}",
            f.page, f.requests, f.failures, f.p50_ms, f.p99_ms, f.max_ms, f.bytes
        );
    }
    let Some(mut live) = live else { return out };
    let n = live.streams.max(1) as f64;
    let mib = |kib: u64| kib as f64 / 1024.0;
    let _ = writeln!(
        out,
        "live: {} streams open in {:.2} s; RSS {:.1} -> {:.1} MiB ({:.1} KiB a stream), {:.1} MiB at most during the \
         moves; server tasks {} -> {}; threads {} -> {}, {} at most; the client's end of a stream: a task of {} \
         bytes and a buffer of 512",
        live.streams,
        live.opened_in.as_secs_f64(),
        mib(live.before.0),
        mib(live.open.0),
        live.open.0.saturating_sub(live.before.0) as f64 / n,
        mib(live.peak.0),
        live.before.1,
        live.open.1,
        live.before.2,
        live.open.2,
        live.peak.1,
        live.client_task,
    );
    let mut core: Vec<f64> = live.moves.iter().map(|m| m.core.as_secs_f64() * 1000.0).collect();
    let (core_p50, _, core_max) = percentiles(&mut core);
    let (p50, p99, max) = percentiles(&mut live.latencies);
    let _ = writeln!(
        out,
        "live: {} moves (the core: p50 {:.2} ms, slowest {:.2} ms); move to page, from the commit, over {} \
         (stream, move) pairs: p50 {:.2} ms, p99 {:.2} ms, slowest {:.2} ms; never told (within {} s of the last) {}; streams failed {}",
        live.moves.len(),
        core_p50,
        core_max,
        live.latencies.len(),
        p50,
        p99,
        max,
        TOLD_WITHIN.as_secs(),
        live.missed,
        live.failed_streams,
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_told_of_a_later_ply_shows_the_earlier_move_and_one_never_told_is_counted() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let moves = [
            Made { ply: 17, committed: ms(0), core: Duration::ZERO },
            Made { ply: 18, committed: ms(100), core: Duration::ZERO },
        ];
        // One stream heard both; one only the second (the first's event coalesced into it); one
        // heard nothing.
        let heard = vec![vec![(17, ms(3)), (18, ms(104))], vec![(18, ms(105))], vec![]];
        let (mut latencies, missed) = move_to_page(&moves, &heard);
        latencies.sort_by(f64::total_cmp);
        assert_eq!(latencies, [3.0, 4.0, 5.0, 105.0]);
        assert_eq!(missed, 2);
    }

    #[test]
    fn percentiles_of_a_hundred_latencies() {
        let mut times: Vec<f64> = (1..=100).rev().map(f64::from).collect();
        assert_eq!(percentiles(&mut times), (51.0, 100.0, 100.0));
        assert_eq!(percentiles(&mut []), (0.0, 0.0, 0.0));
    }
}

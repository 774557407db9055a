//! `bench-web`: the web pages under a steady load. A community that opted in, with games, ratings
//! and a player's history made through the core, served by `capabot::web` on 127.0.0.1; then each
//! page is asked for at a fixed rate (open loop: a request leaves at its time whether or not the
//! previous one came back, and its latency counts from that time, so a stall is not hidden) for a
//! while, each request on a connection of its own. Reported per page: median, 99th percentile and
//! slowest latency, failures, and the page's size; the board picture also from a server that keeps
//! no pictures (each drawn for its request), to show what keeping them buys.

use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, ManualClock, Scope, UserRef};
use capabot::store::Store;
use capabot::web::{WebOptions, serve};
use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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

fn say(bot: &Bot, who: &str, text: &str, admin: bool) -> String {
    let mut scope = Scope::chat("bench", "main");
    scope.community = Some("club".into());
    let inp = Input::text(scope, UserRef::new(who, who), text).as_admin(admin).with_mentions(
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
/// last one left going with `plies` moves.
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
    conn.query_row("SELECT web_slug FROM games ORDER BY id DESC LIMIT 1", (), |r| r.get::<String>(0))
        .map_err(|e| e.to_string())
}

/// One GET on a fresh connection: the status and the body's length.
async fn get(addr: std::net::SocketAddr, path: &str) -> Result<(u16, usize), String> {
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
async fn load(addr: std::net::SocketAddr, page: &str, path: &str, rate: u32, seconds: u64) -> PageFigures {
    let every = Duration::from_secs_f64(1.0 / f64::from(rate.max(1)));
    let count = (u64::from(rate) * seconds) as usize;
    let start = Instant::now() + Duration::from_millis(50);
    let mut running = Vec::with_capacity(count);
    for i in 0..count {
        let due = start + every * i as u32;
        tokio::time::sleep_until(due.into()).await;
        let path = path.to_string();
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
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times.get(((times.len() as f64 * q) as usize).min(times.len().saturating_sub(1))).copied();
    PageFigures {
        page: page.to_string(),
        requests: count,
        failures,
        p50_ms: at(0.5).unwrap_or(0.0),
        p99_ms: at(0.99).unwrap_or(0.0),
        max_ms: times.last().copied().unwrap_or(0.0),
        bytes,
    }
}

/// Runs the benchmark; returns the report.
pub fn bench(opts: &WebBenchOptions) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("capabot-bench-web-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let store = Store::open(dir.join("bench.db")).map_err(|e| e.to_string())?;
    let clock = Arc::new(ManualClock::new(1_763_683_200));
    let bot = Arc::new(Bot::new(store, clock, Arc::new(FirstLegalMove), BotConfig::default()));
    let slug = community(&bot, opts.games, opts.plies)?;
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let figures = rt.block_on(async {
        let stop = tokio_util::sync::CancellationToken::new();
        let no_limit = WebOptions {
            per_minute: 100_000_000,
            burst: 1_000_000,
            trust_loopback_proxy: false,
            ..WebOptions::default()
        };
        let addr = serve(bot.clone(), "127.0.0.1:0".parse().unwrap(), no_limit.clone(), stop.clone()).await?;
        // The same pages without the pictures kept: every board drawn for its request.
        let drawing = WebOptions { pictures_kept: 0, ..no_limit };
        let drawn = serve(bot.clone(), "127.0.0.1:0".parse().unwrap(), drawing, stop.clone()).await?;
        let board = format!("/g/{slug}/board/{}", opts.plies.min(16));
        let pages = [
            ("game", addr, format!("/g/{slug}")),
            ("community", addr, "/c/bench/club".to_string()),
            ("player", addr, "/c/bench/club/p/1".to_string()),
            ("board picture", addr, board.clone()),
            ("board, drawn", drawn, board),
        ];
        let mut figures = Vec::new();
        for (page, addr, path) in &pages {
            let (status, _) = get(*addr, path).await?;
            if status != 200 {
                return Err(format!("{path}: {status}"));
            }
            figures.push(load(*addr, page, path, opts.rate, opts.seconds).await);
        }
        stop.cancel();
        Ok::<_, String>(figures)
    })?;
    let _ = std::fs::remove_dir_all(&dir);
    let mut out = format!(
        "bench-web: {} requests/s per page for {} s, a connection per request; load average {}\n",
        opts.rate,
        opts.seconds,
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
    Ok(out)
}

//! The web pages in a real browser (issue 47): Debian's Chromium driven through its chromedriver
//! (WebDriver, `fantoccini`), the pages served by `capabot::web` from the host that runs the real
//! Discord front end against the fake Discord. A move made on the fake Discord appears on an open
//! game page; the arrow keys step through the moves; a direct game's and an opted-out
//! community's addresses give 404; a secret bomb is not on its game's page; each page passes a
//! basic accessibility check. The screenshots in `docs/web/` (shown in `docs/web.md`) are taken
//! here.
//!
//! Chromium and chromedriver are installed from Debian's packages when missing (as root, like the
//! PostgreSQL and Synapse harnesses); an installation that fails says why.

use super::*;
use capabot::web::{self, WebOptions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;
use tokio_util::sync::CancellationToken;

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long installing the browser may take at most.
const INSTALL_WAIT: Duration = Duration::from_secs(900);
/// How long a page may take to show what it should (a bounded wait, not a measurement).
const PAGE_WAIT: Duration = Duration::from_secs(10);
/// How soon a move made in the chat must be on the open page (the issue's two seconds).
const LIVE_WAIT: Duration = Duration::from_secs(2);

/// Runs `program args` to its end within what is left of `until`; the error says what failed.
fn run_bounded(program: &str, args: &[&str], until: Instant) -> Result<(), String> {
    let mut child = Command::new(program)
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            if status.success() {
                return Ok(());
            }
            let mut err = String::new();
            if let Some(mut e) = child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut e, &mut err);
            }
            return Err(format!("{program} {} failed ({status}): {err}", args.join(" ")));
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{program} {} did not finish in time", args.join(" ")));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Chromium and its driver from Debian's packages, installed once when missing.
fn ensure_browser() {
    static INSTALLED: std::sync::Mutex<Option<Result<(), String>>> = std::sync::Mutex::new(None);
    let mut done = INSTALLED.lock().unwrap_or_else(|e| e.into_inner());
    let result = done.get_or_insert_with(|| {
        if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
            return Ok(());
        }
        let until = Instant::now() + INSTALL_WAIT;
        run_bounded("apt-get", &["update", "-qq"], until)?;
        run_bounded("apt-get", &["install", "-y", "-qq", "chromium", "chromium-driver"], until)?;
        if Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists() {
            Ok(())
        } else {
            Err(format!("apt-get installed chromium and chromium-driver, but {CHROMIUM} or {CHROMEDRIVER} is missing"))
        }
    });
    if let Err(e) = result {
        panic!("the browser tests need Debian's chromium and chromium-driver (as root): {e}");
    }
}

/// A headless Chromium with a fresh profile, driven through its own chromedriver.
struct Browser {
    client: Option<Client>,
    driver: Child,
    _profile: tempfile::TempDir,
}

impl Browser {
    async fn start() -> Browser {
        ensure_browser();
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        // A process group of its own: the Chromium it starts is killed with it, even when a failing
        // test never closes the session.
        let mut driver = Command::new(CHROMEDRIVER)
            .process_group(0)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let until = Instant::now() + PAGE_WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > until {
                let _ = driver.kill();
                panic!("chromedriver did not listen on port {port} within {PAGE_WAIT:?}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let profile = tempfile::tempdir().expect("a profile folder");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1000,1300",
            "--lang=en-US",
        ]
        .iter()
        .map(|a| a.to_string())
        .chain([format!("--user-data-dir={}", profile.path().display())])
        .collect::<Vec<_>>();
        let mut caps = serde_json::Map::new();
        caps.insert("goog:chromeOptions".into(), json!({ "binary": CHROMIUM, "args": args }));
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a browser session");
        Browser { client: Some(client), driver, _profile: profile }
    }

    fn client(&self) -> &Client {
        self.client.as_ref().expect("open")
    }

    async fn open(&self, url: &str) {
        self.client().goto(url).await.expect("the page opens");
    }

    async fn h1(&self) -> String {
        self.client().find(Locator::Css("h1")).await.expect("a heading").text().await.unwrap()
    }

    /// The board's picture address as the page has it now.
    async fn board_src(&self) -> String {
        self.client().find(Locator::Css("#board")).await.expect("the board").attr("src").await.unwrap().unwrap()
    }

    /// Waits (at most `wait`) until `check` holds of the page's text.
    async fn wait_for_text(&self, wait: Duration, check: impl Fn(&str) -> bool) -> bool {
        let until = Instant::now() + wait;
        loop {
            let body = self.client().find(Locator::Css("body")).await.unwrap().text().await.unwrap_or_default();
            if check(&body) {
                return true;
            }
            if Instant::now() > until {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn key(&self, key: Key) {
        self.client().find(Locator::Css("body")).await.unwrap().send_keys(&key).await.expect("a key press");
    }

    /// The accessibility check of the page open: one `h1` first and no heading level skipped on
    /// the way down; a language and a title; every picture with an alt text; every link, button
    /// and field with a name (its text, `aria-label` or label); every table header with a scope;
    /// and every piece of text at a contrast of at least 4.5:1 against what is behind it (WCAG
    /// 2's relative luminance, from the computed colours, backgrounds composed up the tree).
    async fn check_accessibility(&self, page: &str) {
        let report = self.accessibility().await;
        assert_eq!(report["h1"], 1, "{page}: one h1: {report}");
        assert_eq!(report["first"], 1, "{page}: the h1 comes first: {report}");
        assert_eq!(report["skips"], json!([]), "{page}: heading levels skipped: {report}");
        assert!(report["lang"].as_str().is_some_and(|l| !l.is_empty()), "{page}: a language: {report}");
        assert!(report["title"].as_str().is_some_and(|t| !t.is_empty()), "{page}: a title: {report}");
        assert_eq!(report["imgs"], 0, "{page}: pictures without alt text: {report}");
        assert_eq!(report["controls"], 0, "{page}: controls without a name: {report}");
        assert_eq!(report["headers"], 0, "{page}: table headers without scope: {report}");
        assert!(report["texts"].as_u64().is_some_and(|n| n > 0), "{page}: the contrast check saw no text: {report}");
        assert_eq!(report["low"], json!([]), "{page}: text below 4.5:1: {report}");
    }

    /// What [`Browser::check_accessibility`] checks, as the page reports it.
    async fn accessibility(&self) -> Value {
        self.client()
            .execute(
                r#"const named = e => (e.textContent || '').trim() || (e.getAttribute('aria-label') || '').trim()
                     || [...(e.labels || [])].map(l => l.textContent.trim()).join('') || (e.alt || '').trim();
                 const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map(h => Number(h.tagName[1]));
                 const skips = [];
                 levels.forEach((l, i) => { const before = i ? levels[i - 1] : 0; if (l > before + 1) skips.push('h' + before + ' then h' + l); });
                 const rgba = s => { const m = /rgba?\(([^)]*)\)/.exec(s); if (!m) return null;
                     const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
                 const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3]));
                 const behind = e => { const layers = [];
                     for (let n = e; n; n = n.parentElement) { const c = rgba(getComputedStyle(n).backgroundColor);
                         if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
                     return layers.reverse().reduce((under, c) => over(c, under), [255, 255, 255]); };
                 const lum = rgb => { const f = c => { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
                     return 0.2126 * f(rgb[0]) + 0.7152 * f(rgb[1]) + 0.0722 * f(rgb[2]); };
                 const low = []; let texts = 0;
                 for (const e of document.body.querySelectorAll('*')) {
                     if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
                     const cs = getComputedStyle(e);
                     if (cs.display === 'none' || cs.visibility === 'hidden' || !e.getClientRects().length) continue;
                     texts++;
                     const bg = behind(e), fg = over(rgba(cs.color), bg);
                     const [a, b] = [lum(fg), lum(bg)];
                     const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
                     if (ratio < 4.5) low.push(e.tagName + ' ' + ratio.toFixed(2) + ': ' + e.textContent.trim().slice(0, 40));
                 }
                 return {
                   h1: document.querySelectorAll('h1').length,
                   first: levels[0] || 0,
                   skips: skips,
                   lang: document.documentElement.lang,
                   title: document.title,
                   imgs: [...document.querySelectorAll('img')].filter(i => !(i.alt || '').trim()).length,
                   controls: [...document.querySelectorAll('a, button, input, select, textarea')].filter(e => !named(e)).length,
                   headers: [...document.querySelectorAll('thead th')].filter(t => !t.scope).length,
                   texts: texts,
                   low: low,
                 };"#,
                vec![],
            )
            .await
            .expect("the check runs")
    }

    /// The texts of the elements `css` finds, in order.
    async fn texts(&self, css: &str) -> Vec<String> {
        let mut out = Vec::new();
        for e in self.client().find_all(Locator::Css(css)).await.expect("a search") {
            out.push(e.text().await.unwrap_or_default().trim().to_string());
        }
        out
    }

    /// Saves a screenshot of the page open as `docs/web/<name>.png`.
    async fn screenshot(&self, name: &str) {
        let png = self.client().screenshot().await.expect("a screenshot");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/web");
        std::fs::create_dir_all(&dir).expect("docs/web");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is saved");
    }

    async fn close(mut self) {
        if let Some(c) = self.client.take() {
            let _ = c.close().await;
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // The whole group: chromedriver and every Chromium process under it.
        let group = format!("-{}", self.driver.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The pages served from the running bot's core on a free loopback port.
async fn serve_pages(running: &Running) -> (String, CancellationToken) {
    let stop = CancellationToken::new();
    let addr = web::serve(
        running.host.bot().clone(),
        "127.0.0.1:0".parse().unwrap(),
        WebOptions::live(running.host.changes()),
        stop.clone(),
    )
    .await
    .expect("the pages are served");
    (format!("http://{addr}"), stop)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_pages_in_a_browser() {
    scenario(async {
        let (env, running, fake) = start_with_web_links().await;
        let (site, stop) = serve_pages(&running).await;
        let browser = Browser::start().await;

        // Before the server opts in, its game's address is 404; after, the game is live.
        new_game(&fake, GENERAL, "chess", &[]).await;
        let first = play(&fake, GENERAL, ALICE, "e4").await;
        assert!(first.payload["embeds"][0]["url"].is_null(), "no link before opting in: {first:?}");
        let slug = env.slug_of(&running, 1);
        let game = format!("{site}/g/{slug}");
        browser.open(&game).await;
        assert_eq!(browser.h1().await, "Not found");
        web_setting(&fake, true).await;
        let second = play(&fake, GENERAL, BOB, "e5").await;
        assert_eq!(second.payload["embeds"][0]["url"], format!("https://chess.example.org/g/{slug}"), "{second:?}");
        browser.open(&game).await;
        assert_eq!(browser.h1().await, "alice vs bob");
        assert!(browser.board_src().await.ends_with("/board/2"));

        // A move made on Discord appears on the open page without a reload.
        play(&fake, GENERAL, ALICE, "Nf3").await;
        let seen = browser.wait_for_text(LIVE_WAIT, |t| t.contains("2. Nf3")).await;
        assert!(seen, "the move made in the chat is on the page within {LIVE_WAIT:?}");
        assert!(browser.board_src().await.ends_with("/board/3"), "the board follows the new move");
        play(&fake, GENERAL, BOB, "Nc6").await;
        assert!(browser.wait_for_text(LIVE_WAIT, |t| t.contains("2... Nc6")).await, "a second live move");
        browser.check_accessibility("game").await;
        browser.screenshot("game").await;
        // The check sees what it should: grey text on the page's ground (#999 on #fdfdfb is
        // 2.8:1), a picture without alt text and an h4 straight after an h2 are each reported.
        browser
            .client()
            .execute(
                "const p = document.createElement('p'); p.textContent = 'faint'; p.style.color = '#999999';
                 document.querySelector('main').append(p);
                 const i = document.createElement('img'); i.src = '/static/none.png'; document.querySelector('main').append(i);
                 const h = document.createElement('h4'); h.textContent = 'deep'; document.querySelector('h2').after(h);",
                vec![],
            )
            .await
            .expect("the page is changed");
        let broken = browser.accessibility().await;
        let low = broken["low"].as_array().cloned().unwrap_or_default();
        assert!(low.len() == 1 && low[0].as_str().is_some_and(|l| l.starts_with("P 2.") && l.ends_with("faint")), "{broken}");
        assert_eq!(broken["imgs"], 1, "{broken}");
        assert_eq!(broken["skips"], json!(["h2 then h4"]), "{broken}");
        browser.client().refresh().await.expect("the page again");

        // The arrow keys step through the moves, Home and End jump.
        browser.key(Key::Left).await;
        assert!(browser.board_src().await.ends_with("/board/3"));
        browser.key(Key::Left).await;
        browser.key(Key::Left).await;
        assert!(browser.board_src().await.ends_with("/board/1"));
        let current = browser.client().find(Locator::Css("#moves a[aria-current]")).await.unwrap();
        assert_eq!(current.text().await.unwrap(), "1. e4");
        let alt = browser.client().find(Locator::Css("#board")).await.unwrap().attr("alt").await.unwrap().unwrap();
        assert!(alt.contains("1. e4"), "{alt}");
        browser.key(Key::Home).await;
        assert!(browser.board_src().await.ends_with("/board/0"));
        browser.key(Key::Right).await;
        assert!(browser.board_src().await.ends_with("/board/1"));
        browser.key(Key::End).await;
        assert!(browser.board_src().await.ends_with("/board/4"));
        // The picture the page shows is the server's board for that ply.
        let until = Instant::now() + PAGE_WAIT;
        loop {
            let width = browser
                .client()
                .execute("const b = document.getElementById('board'); return b.complete ? b.naturalWidth : 0;", vec![])
                .await
                .unwrap();
            if width == 640 {
                break;
            }
            assert!(Instant::now() < until, "the board picture did not load: {width}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        // The community page and a player's.
        browser.open(&format!("{site}/c/discord/{GUILD}")).await;
        assert_eq!(browser.h1().await, format!("Community {GUILD}"));
        assert!(browser.wait_for_text(PAGE_WAIT, |t| t.contains("alice – bob")).await, "the game is listed");
        browser.check_accessibility("community").await;
        browser.screenshot("community").await;
        browser.client().find(Locator::Css("table.recent a")).await.unwrap().click().await.unwrap();
        assert_eq!(browser.h1().await, "alice vs bob");
        // The player links of the game page lead to the players' pages.
        let white = browser.client().find(Locator::Css("ul.players a.name")).await.unwrap();
        let href = white.attr("href").await.unwrap().expect("a link to the player");
        assert!(href.starts_with(&format!("/c/discord/{GUILD}/p/")), "{href}");
        browser.open(&format!("{site}{href}")).await;
        assert_eq!(browser.h1().await, "alice");
        browser.check_accessibility("player").await;
        browser.screenshot("player").await;

        // A game in direct messages is never served.
        let dm = fake.dm_channel(BOB);
        let options =
            json!([{ "name": "variant", "type": 3, "value": "chess" }, { "name": "color", "type": 3, "value": "white" }]);
        let (_, started) = command(&fake, dm, BOB, "play", options).await;
        assert!(started.content().is_some_and(|c| c.contains("Game #2 starts")), "{started:?}");
        let dm_slug = env.slug_of(&running, 2);
        browser.open(&format!("{site}/g/{dm_slug}")).await;
        assert_eq!(browser.h1().await, "Not found");
        browser.check_accessibility("not found").await;
        browser.screenshot("not-found").await;

        // The home page: what capabot is and every variant's rules, no community listed.
        browser.open(&format!("{site}/")).await;
        assert_eq!(browser.h1().await, "capabot: chess variants in your chat");
        let variants = browser.texts("dt").await;
        assert_eq!(variants.len(), capabot::rules::VARIANTS.len(), "{variants:?}");
        browser.check_accessibility("home").await;
        browser.screenshot("home").await;

        // Opting out takes the game and the community off the web at once.
        web_setting(&fake, false).await;
        browser.open(&game).await;
        assert_eq!(browser.h1().await, "Not found");
        browser.open(&format!("{site}/c/discord/{GUILD}")).await;
        assert_eq!(browser.h1().await, "Not found");

        browser.close().await;
        stop.cancel();
        env.finish(running, &[]).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_bomb_is_not_on_its_games_page() {
    scenario(async {
        let mut env = Env::new(world()).await;
        env.commands_in = None;
        let running = env.start().await;
        let fake = env.fake.clone();
        fake.wait_for_request(|r| r.method == "PUT" && r.path == "/api/v10/applications/1000/commands", WAIT).await;
        web_setting(&fake, true).await;
        let (site, stop) = serve_pages(&running).await;
        let browser = Browser::start().await;

        new_game(&fake, GENERAL, "bomb", &[]).await;
        // Each player chooses a bomb in their direct messages.
        for (user, square) in [(ALICE, "b1"), (BOB, "g8")] {
            let dm = fake.dm_channel(user);
            let (_, chosen) =
                command(&fake, dm, user, "bomb", json!([{ "name": "square", "type": 3, "value": square }])).await;
            assert!(chosen.content().is_some_and(|c| c.contains("your bomb")), "{chosen:?}");
        }
        play(&fake, GENERAL, ALICE, "e4").await;
        let slug = env.slug_of(&running, 1);
        browser.open(&format!("{site}/g/{slug}")).await;
        assert_eq!(browser.h1().await, "alice vs bob");
        let source = browser.client().source().await.unwrap().to_lowercase();
        for secret in ["knight on b1", "knight on g8", "bomb is", "whitebomb", "blackbomb"] {
            assert!(!source.contains(secret), "the page gives away '{secret}'");
        }
        // The picture on the page is the chat's board, drawn without any bomb.
        let shown = reqwest::get(format!("{site}/g/{slug}/board/1")).await.unwrap().bytes().await.unwrap();
        let start = env.start_of(&running, 1);
        let mut game = capabot::rules::Game::new(start);
        let e4 = capabot::notation::san::parse(game.position(), "e4").unwrap();
        assert!(game.play(e4));
        let plain = capabot::bot::board_png(game.position(), Some(e4), Color::White).unwrap();
        let same = crate::common::pixels(&shown) == crate::common::pixels(&plain);
        assert!(same, "the page's board is the one without bombs");
        browser.check_accessibility("bomb game").await;
        browser.screenshot("bomb-game").await;

        browser.close().await;
        stop.cancel();
        env.finish(running, &[]).await;
    })
    .await;
}

/// A finished game's page once someone analysed it in its chat: the analysis (each side's
/// accuracy, the course chart, the marked moves) is on the page, the moves carry their marks, and
/// the page still passes the accessibility check (the marks' colours included).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysed_games_page_in_a_browser() {
    scenario(async {
        let (env, running, fake) = start_with_web_links().await;
        web_setting(&fake, true).await;
        let (site, stop) = serve_pages(&running).await;
        let browser = Browser::start().await;
        let ended = fools_mate(&fake).await;
        let slug = env.slug_of(&running, 1);
        browser.open(&format!("{site}/g/{slug}")).await;
        assert!(browser.texts("#analysis").await.is_empty(), "no analysis before one is asked for");

        fake.click_button(GENERAL, CAROL, message_of(&ended), &button(&ended, "analyse #1"));
        let head = |s: &Sent| s.content().is_some_and(|c| c.starts_with("Analysis of game #1"));
        let result = fake.wait_for(head, WAIT_IN_BACKGROUND).await;
        // The chat's answer links to the same analysis on the page.
        let page = format!("https://chess.example.org/g/{slug}#analysis");
        assert_eq!(link_buttons(&result), vec![("View".to_owned(), page)], "{result:?}");
        browser.client().refresh().await.expect("the page again");
        let sides = browser.texts("#analysis .accuracy li").await;
        let said = result.content().unwrap_or_default().to_string();
        assert_eq!(sides.len(), 2, "{sides:?}");
        for line in &sides {
            assert!(said.contains(line.as_str()), "{line:?} is not what the chat was told: {said}");
        }
        let marks = browser.texts("#moves .mark").await;
        let listed = browser.texts("#analysis .marked a").await;
        assert!(!marks.is_empty() && marks.len() == listed.len(), "{marks:?} {listed:?}");
        // The chart on the page is the chat's, drawn by the server.
        let until = Instant::now() + PAGE_WAIT;
        loop {
            let width = browser
                .client()
                .execute(
                    "const c = document.querySelector('#analysis img'); return c.complete ? c.naturalWidth : 0;",
                    vec![],
                )
                .await
                .unwrap();
            if width == CHART_PX.0 {
                break;
            }
            assert!(Instant::now() < until, "the course chart did not load: {width}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        browser.check_accessibility("analysed game").await;
        browser.client().execute("document.getElementById('analysis').scrollIntoView();", vec![]).await.unwrap();
        browser.screenshot("analysis").await;

        browser.close().await;
        stop.cancel();
        env.finish(running, &[]).await;
    })
    .await;
}

/// The names of the chat's ladder standings (`1. bob (1500?) — challenged by …`), in order, each
/// with its open challenge's other player when it is the challenged one.
fn chat_ladder(answer: &str) -> Vec<(String, Option<String>)> {
    answer
        .lines()
        .filter_map(|line| {
            let (place, rest) = line.split_once(". ")?;
            place.parse::<usize>().ok()?;
            let name = rest.split(' ').next()?.to_string();
            let by =
                rest.split_once("challenged by ").map(|(_, b)| b.split(' ').next().unwrap_or_default().to_string());
            Some((name, by))
        })
        .collect()
}

/// The chat's tournament standings (`1. alice 1 (SB 0.5, …)`): place, name and score.
fn chat_standings(answer: &str) -> Vec<(String, String, String)> {
    let after = answer.split_once("Standings:\n").or_else(|| answer.split_once("Final standings:\n"));
    let Some((_, table)) = after else { return Vec::new() };
    table
        .lines()
        .map_while(|line| {
            let (place, rest) = line.split_once(". ")?;
            place.parse::<usize>().ok()?;
            let mut words = rest.split(' ');
            Some((place.to_string(), words.next()?.to_string(), words.next()?.to_string()))
        })
        .collect()
}

/// The chat's `leaderboard` answer as rows of place (empty when provisional), name and rating:
/// the ranked lines (`1. alice 1587 (31 games: …)`), then the provisional ones
/// (`Provisional: carol 1662?, dave 1500?.`).
fn chat_leaderboard(answer: &str) -> Vec<(String, String, String)> {
    let mut rows = Vec::new();
    for line in answer.lines() {
        if let Some((place, rest)) = line.split_once(". ")
            && place.parse::<u32>().is_ok()
        {
            let mut words = rest.split(' ');
            let (name, rating) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
            rows.push((place.to_string(), name.to_string(), rating.to_string()));
        }
        if let Some(list) = line.strip_prefix("Provisional: ") {
            for entry in list.trim_end_matches('.').split(", ") {
                let (name, rating) = entry.rsplit_once(' ').unwrap_or((entry, ""));
                rows.push((String::new(), name.to_string(), rating.to_string()));
            }
        }
    }
    rows
}

impl Browser {
    /// The leaderboard tables of the page open as rows of place, name and rating, in the order
    /// shown, as the browser renders them (the provisional group's heading row left out).
    async fn leaderboard(&self) -> Vec<(String, String, String)> {
        let rows = self
            .client()
            .execute(
                "return [...document.querySelectorAll('table.leaderboard tbody tr')]
                     .filter(tr => tr.cells.length === 4 && tr.cells[0].tagName === 'TD')
                     .map(tr => [...tr.cells].slice(0, 3).map(c => c.innerText.trim()));",
                vec![],
            )
            .await
            .expect("the leaderboard is read");
        serde_json::from_value::<Vec<(String, String, String)>>(rows).expect("rows of three texts")
    }
}

/// A rated chess game between `white` and `black` on the fake Discord, decided by `loser`'s
/// `/resign` after both sides' first moves (before them it would abort the game).
async fn decided(env: &Env, running: &Running, fake: &FakeDiscord, (white, black): (u64, u64), loser: u64) {
    new_game_between(fake, GENERAL, (white, black), "chess", &[]).await;
    let game = env.query(running, "SELECT max(id) FROM games");
    for (who, san) in [(white, "e4"), (black, "e5")] {
        let options =
            json!([{ "name": "move", "type": 3, "value": san }, { "name": "game", "type": 4, "value": game }]);
        let (_, played) = command(fake, GENERAL, who, "move", options).await;
        assert!(field(&played, "Move").is_some(), "{san} by {who}: {played:?}");
    }
    let options = json!([{ "name": "game", "type": 4, "value": game }]);
    let (_, resigned) = command(fake, GENERAL, loser, "resign", options).await;
    assert!(resigned.content().is_some_and(|c| c.contains("resignation")), "{resigned:?}");
}

/// `/leaderboard variant:chess` asked by carol on the fake Discord, as rows.
async fn leaderboard_in_chat(fake: &FakeDiscord) -> (String, Vec<(String, String, String)>) {
    let (_, answer) =
        command(fake, GENERAL, CAROL, "leaderboard", json!([{ "name": "variant", "type": 3, "value": "chess" }])).await;
    let text = answer.content().unwrap_or_default().to_string();
    let rows = chat_leaderboard(&text);
    (text, rows)
}

/// A community with a ladder and a round robin made through the chat: the page's ladder order,
/// open challenge, tournament standings (after a decided game) and pairings are the chat's; the
/// page passes the accessibility check. Its chess leaderboard, after rated games decided on the
/// fake Discord (alice and bob came with ratings established before, carol is new), is the
/// chat's `/leaderboard chess` — places, names, ratings and order — and again after one more
/// game decided while the page was kept: the host's feed drops it at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_community_page_shows_the_chats_ladders_and_tournaments() {
    scenario(async {
        let mut env = Env::new(world()).await;
        env.web_url = Some("https://chess.example.org".into());
        let running = env.start().await;
        let fake = env.fake.clone();
        registered_in_guild(&fake).await;
        web_setting(&fake, true).await;
        let (site, stop) = serve_pages(&running).await;

        // alice and bob have played here before: chess ratings established (as many games would
        // leave them), close enough for a game to change their order.
        {
            use capabot::community::rating::Rating;
            use capabot::store::{players, ratings};
            let conn = running.host.bot().store().conn().expect("conn");
            let scope = ratings::Scope::community("discord", &GUILD.to_string());
            for (user, name, rating) in [(ALICE, "alice", 1580.0), (BOB, "bob", 1572.0)] {
                let id = players::ensure(&conn, "discord", &user.to_string(), name, common::T0).expect("a player").id;
                let record = ratings::PlayerRating {
                    rating: Rating { rating, deviation: 60.0, volatility: 0.06 },
                    games: 30,
                    wins: 15,
                    draws: 0,
                    losses: 15,
                    last_game_at: Some(common::T0),
                    ..ratings::PlayerRating::new(id)
                };
                ratings::upsert(&conn, &scope, "chess", &record).expect("a rating");
            }
        }

        // A chess ladder: bob, alice, carol in that order; carol challenges alice.
        let create = json!([{ "name": "variant", "type": 3, "value": "chess" }]);
        let (_, created) = subcommand(&fake, (GENERAL, ALICE), "ladder", "create", create).await;
        assert!(created.content().is_some_and(|c| c.contains("ladder is open")), "{created:?}");
        for user in [BOB, ALICE, CAROL] {
            let (_, joined) = subcommand(&fake, (GENERAL, user), "ladder", "join", json!([])).await;
            assert!(joined.content().is_some_and(|c| c.contains("joins the Chess ladder")), "{joined:?}");
        }
        let alice = json!([{ "name": "player", "type": 6, "value": ALICE.to_string() }]);
        let (_, offer) = subcommand(&fake, (GENERAL, CAROL), "ladder", "challenge", alice).await;
        assert!(offer.content().is_some_and(|c| c.contains("challenges alice")), "{offer:?}");

        // A round robin of the three, started by hand; its first game decided by fool's mate.
        let create = json!([
            { "name": "system", "type": 3, "value": "roundrobin" },
            { "name": "variant", "type": 3, "value": "chess" },
            { "name": "signup", "type": 4, "value": 0 },
            { "name": "name", "type": 3, "value": "Club Cup" },
        ]);
        let (_, created) = subcommand(&fake, (GENERAL, ALICE), "tournament", "create", create).await;
        assert!(created.content().is_some_and(|c| c.contains("Club Cup")), "{created:?}");
        let number = json!([{ "name": "tournament", "type": 4, "value": 1 }]);
        for user in [ALICE, BOB, CAROL] {
            let (_, joined) = subcommand(&fake, (GENERAL, user), "tournament", "join", number.clone()).await;
            assert!(joined.content().is_some_and(|c| c.contains("joins Club Cup")), "{joined:?}");
        }
        let (_, started) = subcommand(&fake, (GENERAL, ALICE), "tournament", "start", number.clone()).await;
        assert!(!started.is_ephemeral(), "{started:?}");
        let first = env.query(&running, "SELECT min(game_id) FROM tournament_games WHERE game_id IS NOT NULL");
        let (white, black) = {
            let conn = running.host.bot().store().conn().expect("conn");
            conn.query_row(
                "SELECT w.user_id, b.user_id FROM games g JOIN accounts w ON w.player_id = g.white_id \
                 JOIN accounts b ON b.player_id = g.black_id WHERE g.id = ?1",
                [first],
                |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?)),
            )
            .expect("the first game's players")
        };
        let (white, black): (u64, u64) = (white.parse().unwrap(), black.parse().unwrap());
        for (user, san) in [(white, "f3"), (black, "e5"), (white, "g4"), (black, "Qh4#")] {
            let options = json!([
                { "name": "move", "type": 3, "value": san },
                { "name": "game", "type": 3, "value": first.to_string() },
            ]);
            let (_, answer) = command(&fake, GENERAL, user, "move", options).await;
            assert!(field(&answer, "Move").is_some(), "{san}: {answer:?}");
        }

        // The chat's answers, then the page.
        let (_, ladder) = subcommand(&fake, (GENERAL, BOB), "ladder", "standings", json!([])).await;
        let ladder = chat_ladder(ladder.content().unwrap_or_default());
        assert_eq!(ladder.len(), 3, "{ladder:?}");
        let (_, tour) = subcommand(&fake, (GENERAL, BOB), "tournament", "standings", number).await;
        let tour_text = tour.content().unwrap_or_default().to_string();
        let standings = chat_standings(&tour_text);
        assert_eq!(standings.len(), 3, "{tour_text}");
        let winner = [(ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")].iter().find(|(id, _)| *id == black).unwrap().1;
        assert_eq!(
            (standings[0].1.as_str(), standings[0].2.as_str()),
            (winner, "1"),
            "the game's winner leads: {tour_text}"
        );

        let browser = Browser::start().await;
        browser.open(&format!("{site}/c/discord/{GUILD}")).await;
        assert_eq!(browser.h1().await, format!("Community {GUILD}"));
        let page_ladder = browser.texts("ol.ladder li").await;
        let chat_names: Vec<String> = ladder.iter().map(|(n, _)| n.clone()).collect();
        assert_eq!(page_ladder, chat_names, "the ladder's order is the chat's");
        let challenged =
            ladder.iter().find_map(|(n, by)| by.as_ref().map(|b| (b.clone(), n.clone()))).expect("a challenge");
        let challenges = browser.texts("ol.ladder + h4 + ul li").await;
        assert_eq!(challenges.len(), 1, "{challenges:?}");
        assert!(
            challenges[0].starts_with(&challenged.0) && challenges[0].contains(&challenged.1),
            "the open challenge is the chat's ({challenged:?}): {challenges:?}"
        );
        let rows = browser.texts("table.standings tbody tr").await;
        let page_standings: Vec<(String, String, String)> = rows
            .iter()
            .map(|r| {
                let cells: Vec<&str> = r.split_whitespace().collect();
                (cells[0].to_string(), cells[1].to_string(), cells[2].to_string())
            })
            .collect();
        assert_eq!(page_standings, standings, "the tournament's standings are the chat's: {tour_text}");
        let pairings = browser.texts("ul.round li").await;
        assert!(pairings.iter().any(|p| p.ends_with("0-1")), "the decided game's result: {pairings:?}");
        assert_eq!(pairings.iter().filter(|p| p.ends_with('*')).count(), 2, "two games still going: {pairings:?}");
        browser.check_accessibility("community with a ladder and a tournament").await;

        // Rated games decided on Discord: carol, new here, loses to alice; the leaderboard is then
        // the chat's, row for row.
        decided(&env, &running, &fake, (CAROL, ALICE), CAROL).await;
        let (said, chat_board) = leaderboard_in_chat(&fake).await;
        let ranked: Vec<&str> = chat_board.iter().filter(|r| !r.0.is_empty()).map(|r| r.1.as_str()).collect();
        assert_eq!(ranked.len(), 2, "alice and bob ranked: {said}");
        assert!(chat_board.iter().any(|r| r.0.is_empty() && r.1 == "carol"), "carol provisional: {said}");
        browser.open(&format!("{site}/c/discord/{GUILD}")).await;
        let page_board = browser.leaderboard().await;
        assert_eq!(page_board, chat_board, "the page's leaderboard is the chat's: {said}");

        // One more, decided while the page is kept: alice resigns to bob.
        decided(&env, &running, &fake, (ALICE, BOB), ALICE).await;
        let (said, chat_after) = leaderboard_in_chat(&fake).await;
        assert_ne!(chat_after, chat_board, "the game moved the ratings: {said}");
        browser.open(&format!("{site}/c/discord/{GUILD}")).await;
        let page_after = browser.leaderboard().await;
        assert_eq!(page_after, chat_after, "the page's leaderboard after the game is the chat's: {said}");
        browser.check_accessibility("community with leaderboards, a ladder and a tournament").await;
        browser.screenshot("community-events").await;

        browser.close().await;
        stop.cancel();
        env.finish(running, &[]).await;
    })
    .await;
}

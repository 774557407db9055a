//! Helpers shared by the integration test binaries (`tests/*/main.rs` declare this module): a bot on a temporary database file with a manual
//! clock, message builders, a database fingerprint, and seeded playouts that end decisively.
#![allow(dead_code)]

mod png_pixels;

use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, ManualClock, MoveOracle, Response, Scope, UserRef};
use capabot::notation::{fen, san};
use capabot::rules::{Color, Game, Move, MoveKind, Outcome, Position, Role, Square, Variant};
use capabot::store::Store;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const T0: i64 = 1_763_683_200; // 2025-11-21

pub struct TestBot {
    pub dir: tempfile::TempDir,
    pub clock: Arc<ManualClock>,
    pub bot: Bot,
}

pub fn db_path(dir: &Path) -> PathBuf {
    dir.join("capabot.db")
}

/// Whether this test binary runs the flows on PostgreSQL (`tests/pg/`) rather than SQLite.
pub fn on_postgres() -> bool {
    env!("CARGO_CRATE_NAME") == "pg"
}

/// The `db` setting that stands for a database file: the file itself on SQLite; on PostgreSQL,
/// the URL of a database of the binary's one server made for that file (the same one each time,
/// so that a test can reopen its store as after a restart, or hand it to the binary).
pub fn db_setting(path: &Path) -> String {
    if !on_postgres() {
        return path.to_string_lossy().into_owned();
    }
    postgres_database(path)
}

#[cfg(not(feature = "postgres"))]
fn postgres_database(_: &Path) -> String {
    unreachable!("the PostgreSQL flows need the `postgres` feature")
}

#[cfg(feature = "postgres")]
fn postgres_database(path: &Path) -> String {
    static DATABASES: std::sync::Mutex<Vec<(PathBuf, String)>> = std::sync::Mutex::new(Vec::new());
    let mut databases = DATABASES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, url)) = databases.iter().find(|(p, _)| p == path) {
        return url.clone();
    }
    let server = pg_harness::PgServer::shared().expect("PostgreSQL for the tests");
    // Every test's database is a copy of one the store migrated once (by its own code, as it
    // migrates any database), so that a test costs a file copy instead of every migration again.
    static TEMPLATE: std::sync::OnceLock<pg_harness::TestDatabase<'static>> = std::sync::OnceLock::new();
    let template = TEMPLATE.get_or_init(|| {
        let template = server.create_database().expect("the template database");
        // Dropped, with its connections, before anything is copied from it.
        drop(Store::open_setting(&template.url()).expect("the store migrates the template"));
        template
    });
    let database = server.create_database_from(template).expect("a test database");
    let url = database.url();
    // Kept until the server stops with the test binary.
    std::mem::forget(database);
    databases.push((path.to_path_buf(), url.clone()));
    url
}

/// The store for a database file, on this binary's backend (see [`db_setting`]). The core's
/// warnings and errors go to the test's output, so that a failing test shows an internal error.
pub fn open_store(path: &Path) -> Store {
    let _ = tracing_subscriber::fmt().with_test_writer().with_env_filter("capabot=warn").try_init();
    Store::open_setting(&db_setting(path)).expect("open the store")
}

pub fn open_bot(path: &Path, clock: Arc<ManualClock>, oracle: Arc<dyn MoveOracle>) -> Bot {
    let store = open_store(path);
    Bot::new(store, clock, oracle, BotConfig { pictures: false, ..BotConfig::default() })
}

pub fn new_bot() -> TestBot {
    new_bot_with(BotConfig { pictures: false, ..BotConfig::default() })
}

/// [`new_bot`] with another configuration (pictures on, for example).
pub fn new_bot_with(config: BotConfig) -> TestBot {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(ManualClock::new(T0));
    let store = open_store(&db_path(dir.path()));
    let bot = Bot::new(store, clock.clone(), Arc::new(FirstLegalMove), config);
    TestBot { dir, clock, bot }
}

/// Runs a script through the console binary in `dir` (no text boards; the database, pictures
/// folder and language from the environment left out); returns what it printed.
pub fn console_script(dir: &Path, script: &str) -> String {
    let file = dir.join("script.txt");
    std::fs::write(&file, script).expect("script file");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_capabot"))
        .current_dir(dir)
        .args(["console", "--no-text-boards", "--script"])
        .arg(&file)
        .env_remove("CAPABOT_DB")
        .env_remove("CAPABOT_BOARDS")
        .env_remove("CAPABOT_LANG")
        .output()
        .expect("the console runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn msg_in(chat: &str, who: &str, text: &str) -> Input {
    let mentions = text
        .split_whitespace()
        .filter_map(|w| w.strip_prefix('@'))
        .map(|n| UserRef { id: n.to_lowercase(), name: n.to_string() })
        .collect();
    Input::text(Scope::chat("test", chat), UserRef::new(who.to_lowercase(), who), text).with_mentions(mentions)
}

/// On PostgreSQL, every write of the test's thread was in a unit of work: one outside is run once,
/// and fails where another writer met it instead of running again (`capabot::store::lone_writes`).
impl Drop for TestBot {
    fn drop(&mut self) {
        if on_postgres() && !std::thread::panicking() {
            assert_eq!(capabot::store::lone_writes(), 0, "a write transaction outside a unit of work");
        }
    }
}

impl TestBot {
    /// Changes the database by hand, as a test sets up what no command makes: one statement on
    /// its own ([`Store::standalone`], so on PostgreSQL it is not one of the core's writes outside
    /// a unit of work that the drop looks for). The number of rows changed.
    pub fn by_hand(&self, sql: &str, params: impl capabot::store::sql::Params) -> usize {
        let store = self.bot.store();
        let values = params.values();
        store.standalone(|| Ok(store.conn()?.execute(sql, values.clone())?)).unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// Says `text` as `who` in chat `main`; runs AI jobs inline; returns all reply texts.
    pub fn say(&self, who: &str, text: &str) -> String {
        self.say_in("main", who, text)
    }

    pub fn say_in(&self, chat: &str, who: &str, text: &str) -> String {
        let r = self.bot.handle(&msg_in(chat, who, text));
        let mut out = r.text();
        let more = self.bot.run_ai_jobs_inline(r.ai_jobs);
        for m in more {
            out.push('\n');
            out.push_str(&m.text);
        }
        out
    }

    /// Runs the scheduler as a process serving the test platform.
    pub fn tick(&self) -> Response {
        self.bot.tick(&capabot::bot::Served::new("test", ["test"]))
    }

    pub fn raw(&self, who: &str, text: &str) -> Response {
        self.bot.handle(&msg_in("main", who, text))
    }

    pub fn query_i64(&self, sql: &str) -> i64 {
        let c = self.bot.store().conn().unwrap();
        c.query_row(sql, (), |r| r.get(0)).unwrap()
    }

    pub fn query_str(&self, sql: &str) -> String {
        let c = self.bot.store().conn().unwrap();
        c.query_row(sql, (), |r| r.get(0)).unwrap()
    }

    /// Every row of every table, as text: equal fingerprints mean an unchanged database.
    pub fn fingerprint(&self) -> String {
        fingerprint(&self.bot)
    }
}

pub fn fingerprint(bot: &Bot) -> String {
    let c = bot.store().conn().unwrap();
    let mut out = String::new();
    for t in [
        "players",
        "accounts",
        "games",
        "game_moves",
        "challenges",
        "offers",
        "chat_settings",
        "community_settings",
        "player_prefs",
        "reply_slots",
    ] {
        let rows = c
            .query_all(&format!("SELECT * FROM {t} ORDER BY 1, 2"), (), |r| {
                (0..r.column_count()).map(|i| r.display(i)).collect::<Result<Vec<_>, _>>()
            })
            .unwrap();
        for row in rows {
            out.push_str(&row.join("|"));
            out.push('\n');
        }
    }
    out
}

/// What a playout must contain.
#[derive(Clone, Copy, Default)]
pub struct Wants {
    pub launch: bool,
    pub missile_castle: bool,
}

/// A seeded random game from `start` that ends decisively (mate or explosion), preferring moves
/// that win at once, and (for `wants`) launches and castlings with missiles. Returns the SAN moves
/// and the outcome.
pub fn decisive_playout(start: &Position, wants: Wants) -> (Vec<String>, Outcome) {
    for seed in 0..500u64 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = Game::new(start.clone());
        let mut sans = Vec::new();
        let (mut launched, mut castled) = (false, false);
        while game.outcome().is_none() && sans.len() < 400 {
            let pos = game.position().clone();
            let moves = pos.legal_moves();
            let wins = |m: &Move| matches!(pos.play(*m).outcome(), Some(Outcome::Decisive { .. }));
            let pick = moves
                .iter()
                .copied()
                .find(|m| wins(m))
                .or_else(|| {
                    moves.iter().copied().find(|m| {
                        wants.missile_castle && matches!(m.kind, MoveKind::Castle { missiles } if missiles != 0)
                    })
                })
                .or_else(|| {
                    if wants.launch && !launched && sans.len() > 6 {
                        moves.iter().copied().find(|m| m.kind == MoveKind::Launch && !pos.play(*m).is_check())
                    } else {
                        None
                    }
                })
                .unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
            launched |= pick.kind == MoveKind::Launch;
            castled |= matches!(pick.kind, MoveKind::Castle { missiles } if missiles != 0);
            sans.push(san::write(&pos, pick));
            game.play(pick);
        }
        let ok_extras = (!wants.launch || launched) && (!wants.missile_castle || castled);
        if let Some(o @ Outcome::Decisive { .. }) = game.outcome()
            && ok_extras
        {
            return (sans, o);
        }
    }
    panic!("no decisive playout found");
}

/// Plays SAN moves through the bot, alternating between the players of White and Black; returns
/// the last reply text.
pub fn play_through(tb: &TestBot, white: &str, black: &str, sans: &[String], start_turn: Color) -> String {
    let mut turn = start_turn;
    let mut last = String::new();
    for (i, s) in sans.iter().enumerate() {
        let who = if turn == Color::White { white } else { black };
        last = tb.say(who, &format!("!move {s}"));
        assert!(last.contains("played by"), "ply {i} {s} by {who} refused: {last}");
        turn = turn.other();
    }
    last
}

/// `text` said by `who` in chat `main` of community `g` (as an administrator when `admin`).
pub fn cin(who: &str, text: &str, admin: bool) -> Input {
    let mut i = msg_in("main", who, text).as_admin(admin);
    i.scope.community = Some("g".into());
    i
}

/// `text` said by `who` in their direct chat with the bot (platform `test`, as [`msg_in`]).
pub fn dm(tb: &TestBot, who: &str, text: &str) -> Response {
    let scope = Scope { direct: true, ..Scope::chat("test", format!("dm-{}", who.to_lowercase())) };
    tb.bot.handle(&Input::text(scope, UserRef::new(who.to_lowercase(), who), text))
}

/// `text` said by `who`, not an administrator, in community `g`.
pub fn community_say(tb: &TestBot, who: &str, text: &str) -> Response {
    tb.bot.handle(&cin(who, text, false))
}

/// `text` said by the administrator `Admin` in community `g`.
pub fn community_admin(tb: &TestBot, text: &str) -> Response {
    tb.bot.handle(&cin("Admin", text, true))
}

/// The number after `marker` in `text` (`12` after "Ladder challenge #").
pub fn number_after(text: &str, marker: &str) -> i64 {
    let at = text.find(marker).unwrap_or_else(|| panic!("no '{marker}' in {text}")) + marker.len();
    text[at..].chars().take_while(|c| c.is_ascii_digit()).collect::<String>().parse().unwrap()
}

/// The bombs of the front ends' secret-bomb property tests (issue 42 §1), drawn from `rng`:
/// Alice's (White's), and two different ones for Bob, one for each world.
pub fn bomb_squares(rng: &mut StdRng) -> (Square, Square, Square) {
    let start = Position::start(&capabot::rules::variant::BOMB);
    let pieces = |color| -> Vec<Square> { (start.by_color(color) & !start.by_role(Role::King)).into_iter().collect() };
    let (white, black) = (pieces(Color::White), pieces(Color::Black));
    let hers = white[rng.random_range(0..white.len())];
    let first = black[rng.random_range(0..black.len())];
    let mut second = black[rng.random_range(0..black.len())];
    while second == first {
        second = black[rng.random_range(0..black.len())];
    }
    (hers, first, second)
}

/// The texts those tests send, in two pools drawn from equally: every command's own example, less
/// what ends the game or would start one differently in the two worlds and less `settings` (a new
/// prefix would turn the rest into talk), with `challenges` (written as the platform mentions);
/// and every form of `bomb` and of a detonation naming each of `squares`, with the commands that
/// show the game.
pub fn bomb_probe_texts(squares: &[Square], challenges: &[String]) -> [Vec<String>; 2] {
    let mut commands: Vec<String> = capabot::bot::command::COMMANDS.iter().map(|c| c.example.to_string()).collect();
    commands.retain(|t| {
        !["resign", "abort", "draw", "takeback", "play", "challenge", "settings"].iter().any(|w| t.starts_with(w))
    });
    commands.push("play chess color:white".to_string());
    commands.extend_from_slice(challenges);
    let mut bombs: Vec<String> = squares
        .iter()
        .flat_map(|sq| [format!("bomb #1 {sq}"), format!("bomb {sq}"), format!("@{sq}"), format!("move @{sq}")])
        .collect();
    bombs.extend(["bomb", "bomb #1", "board", "board #1", "pgn #1", "gif #1", "fen #1", "games"].map(String::from));
    [commands, bombs]
}

/// One of `people` and one text of `pools` (either pool as likely, then any of its texts): a random
/// input of the secret-bomb properties ([`bomb_probe_texts`]'s pools).
pub fn pick_probe<P: Copy>(rng: &mut StdRng, people: &[P], pools: &[Vec<String>; 2]) -> (P, String) {
    let who = people[rng.random_range(0..people.len())];
    let texts = &pools[usize::from(rng.random_bool(0.5))];
    (who, texts[rng.random_range(0..texts.len())].clone())
}

/// Both sides' first moves (quiet ones, from the game's position read back with `!fen`) in the
/// chat's one game of `variant`, where `say` speaks: after them a resignation is one (before both
/// sides have moved, `!resign` aborts a game outside a tournament or a ladder).
pub fn both_sides_move(say: impl Fn(&str, &str) -> String, variant: &'static Variant, white: &str, black: &str) {
    let line = say(white, "!fen");
    let fen = line.split_once(": ").map_or(line.as_str(), |(_, f)| f).trim();
    let mut pos = fen::parse_position(variant, fen).unwrap_or_else(|e| panic!("{line}: {e}"));
    let mut rng = StdRng::seed_from_u64(1);
    for who in [white, black] {
        let (san, next) = quiet_move(&pos, &mut rng).expect("a move that does not end the game");
        let out = say(who, &san);
        assert!(out.contains("played by"), "{san}: {out}");
        pos = next;
    }
}

/// A random legal move of `pos` that does not end the game, in SAN, and the position after it.
pub fn quiet_move(pos: &Position, rng: &mut StdRng) -> Option<(String, Position)> {
    let moves: Vec<Move> = pos.legal_moves().into_iter().filter(|m| pos.play(*m).outcome().is_none()).collect();
    if moves.is_empty() {
        return None;
    }
    let m = moves[rng.random_range(0..moves.len())];
    Some((san::write(pos, m), pos.play(m)))
}

/// The data of the next `event` of a Server-Sent Events stream (a live page's) if it comes within
/// `within` (a bound, not a measurement); `None` when none came or the stream ended.
pub async fn next_sse(stream: &mut reqwest::Response, event: &str, within: std::time::Duration) -> Option<String> {
    let until = tokio::time::Instant::now() + within;
    let head = format!("event: {event}\ndata: ");
    let mut seen = String::new();
    loop {
        let chunk = tokio::time::timeout_at(until, stream.chunk()).await.ok()?.ok()??;
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if let Some(at) = seen.find(&head) {
            let data = &seen[at + head.len()..];
            if let Some(end) = data.find('\n') {
                return Some(data[..end].to_string());
            }
        }
    }
}

/// A PNG's width, height and pixels (RGB or RGBA, palettes expanded): what people see of it. Two
/// pictures of one board are the same pixels, not always the same bytes: a drawing thread codes the
/// bands of a board with a Huffman code learnt from the bands it drew before (`render::bands`).
pub fn pixels(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let (width, height, pixels, _) = png_pixels::decode(png);
    (width, height, pixels)
}

/// A hash of what people see of a file: a PNG's size and pixels ([`pixels`]: the same board drawn
/// twice may be coded in different bytes), any other file's bytes.
pub fn seen_hash(bytes: &[u8]) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    if bytes.starts_with(b"\x89PNG") {
        pixels(bytes).hash(&mut hasher);
    } else {
        bytes.hash(&mut hasher);
    }
    hasher.finish()
}

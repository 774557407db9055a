//! `lab bench-scale`: how the bot's cost grows with the data it keeps. A database is seeded through
//! the store's own functions (the rows the product writes: games created, moved and finished,
//! rated globally and in their community, ladders joined, tournaments played to the end) with
//! finished games, games in progress, players and communities, and then measured beside the same
//! measures on an empty database: a move through the core with its picture, a scheduler tick with
//! a given number of items due, the read commands' latency (`games`, `leaderboard`, `history`,
//! `rating`, ladder and tournament standings), the bytes a finished game takes, start-up and a backup.

use capabot::bot::{Bot, BotConfig, Input, ManualClock, NoAi, Scope, UserRef};
use capabot::community::ladder::LadderSettings;
use capabot::community::rating::Score;
use capabot::community::tournament::Outcome as TournamentOutcome;
use capabot::notation::{fen, uci};
use capabot::rules::variant::CHESS;
use capabot::rules::{Color, Game, Outcome, Position, WinReason};
use capabot::store::games::{self, MoveUpdate, NewGame, Status};
use capabot::store::ratings::{self, Scope as RatingScope};
use capabot::store::{Store, StoreError, ladders, players, tournaments};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The platform of the seeded rows.
pub const PLATFORM: &str = "scale";
/// Plies of a seeded finished game at most (random games that end sooner stop sooner).
const FINISHED_PLIES: usize = 60;
/// Plies already played in a seeded game in progress.
const OPEN_PLIES: usize = 10;
/// Players on each community's ladder.
const LADDER_PLAYERS: usize = 20;
/// Players in each community's (finished, round-robin) tournament.
const TOURNAMENT_PLAYERS: usize = 8;
/// Rows written in one unit of work while seeding.
const BATCH: usize = 2_000;
/// One day in seconds.
const DAY: i64 = 86_400;

/// How much to seed: the sizes times `scale`.
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub finished: usize,
    pub open: usize,
    pub players: usize,
    pub communities: usize,
}

impl Sizes {
    /// 1,000,000 finished games, 100,000 in progress, 200,000 players and 10,000 communities, times `scale`.
    pub fn scaled(scale: f64) -> Sizes {
        let n = |x: f64| ((x * scale).round() as usize).max(1);
        let players = n(200_000.0).max(LADDER_PLAYERS);
        Sizes { finished: n(1_000_000.0), open: n(100_000.0), players, communities: n(10_000.0) }
    }
}

/// A random game played once and stored many times: its moves as the store keeps them.
struct Template {
    start_fen: String,
    /// (uci, fen after) of each ply.
    plies: Vec<(String, String)>,
    outcome: Option<Outcome>,
}

fn templates(count: usize, seed: u64) -> Vec<Template> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let start = Position::start(&CHESS);
            let mut game = Game::new(start.clone());
            let mut plies = Vec::new();
            while plies.len() < FINISHED_PLIES && game.outcome().is_none() {
                let pos = game.position().clone();
                let moves = pos.legal_moves();
                let mv = moves[rng.random_range(0..moves.len())];
                let u = uci::write(&pos, mv);
                game.play(mv);
                plies.push((u, fen::write(game.position())));
            }
            Template { start_fen: fen::write(&start), plies, outcome: game.outcome() }
        })
        .collect()
}

/// The times seeding took, part by part.
#[derive(Clone, Debug, Default)]
pub struct SeedReport {
    pub lines: Vec<String>,
    pub total: Duration,
    /// The first deadline of the games in progress: one falls due each second from here.
    pub first_deadline: i64,
}

fn err(e: StoreError) -> String {
    e.to_string()
}

/// The player ids of community `k`'s members (consecutive players, wrapping).
fn members(k: usize, sizes: &Sizes) -> impl Iterator<Item = usize> + '_ {
    (0..LADDER_PLAYERS).map(move |i| (k * LADDER_PLAYERS + i) % sizes.players)
}

pub fn community(k: usize) -> String {
    format!("c{k}")
}

pub fn user(i: usize) -> String {
    format!("u{i}")
}

/// Seeds `store` (empty, migrated) with `sizes`, as of time `now`: finished games spread over the
/// three years before, games in progress with one deadline a second from a day after `now`.
pub fn seed(store: &Store, sizes: &Sizes, now: i64, seed: u64, progress: &dyn Fn(&str)) -> Result<SeedReport, String> {
    let mut report = SeedReport { first_deadline: now + DAY, ..SeedReport::default() };
    let t0 = Instant::now();
    let mut ids = Vec::with_capacity(sizes.players);
    let step = |what: &str, n: usize, t: Instant, report: &mut SeedReport| {
        let s = t.elapsed().as_secs_f64();
        let line = format!("seeded {n} {what} in {s:.1} s ({:.0}/s)", n as f64 / s.max(1e-9));
        progress(&line);
        report.lines.push(line);
    };
    let t = Instant::now();
    for chunk in (0..sizes.players).collect::<Vec<_>>().chunks(BATCH) {
        let got = store
            .unit(|| {
                let conn = store.conn()?;
                chunk
                    .iter()
                    .map(|&i| players::ensure(&conn, PLATFORM, &user(i), &format!("Player {i}"), now).map(|p| p.id))
                    .collect::<capabot::store::Result<Vec<_>>>()
            })
            .map_err(err)?;
        ids.extend(got);
    }
    step("players", sizes.players, t, &mut report);

    // Communities: a chess ladder of LADDER_PLAYERS and a finished round robin of TOURNAMENT_PLAYERS.
    let t = Instant::now();
    let mut rng = StdRng::seed_from_u64(seed);
    for chunk in (0..sizes.communities).collect::<Vec<_>>().chunks(BATCH / 20) {
        store
            .unit(|| {
                let conn = store.conn()?;
                for &k in chunk {
                    let c = community(k);
                    let settings = LadderSettings { days_per_move: 3, max_places_up: 3, accept_days: 2 };
                    let ladder = ladders::create(&conn, PLATFORM, &c, "chess", settings, now - 30 * DAY)?
                        .ok_or_else(|| StoreError::Corrupt(format!("a second ladder in {c}")))?;
                    let mine: Vec<i64> = members(k, sizes).map(|i| ids[i]).collect();
                    ladders::update(&conn, ladder, |l| {
                        mine.iter().try_for_each(|&p| l.join(p, now - 30 * DAY).map(drop))
                    })?
                    .map_err(|e| StoreError::Corrupt(format!("{e:?}")))?;
                    let system = tournaments::System::RoundRobin;
                    let tid =
                        tournaments::create(&conn, PLATFORM, &c, "Open", "chess", system, 3, None, now - 20 * DAY)?;
                    for &p in &mine[..TOURNAMENT_PLAYERS] {
                        tournaments::register(&conn, tid, p, now - 20 * DAY)?
                            .map_err(|e| StoreError::Corrupt(format!("{e:?}")))?;
                    }
                    let rounds =
                        tournaments::start(&conn, tid, None)?.map_err(|e| StoreError::Corrupt(format!("{e:?}")))?;
                    for (r, round) in rounds.iter().enumerate() {
                        for b in 0..round.games.len() {
                            let o =
                                [TournamentOutcome::WhiteWins, TournamentOutcome::Draw, TournamentOutcome::BlackWins]
                                    [(k + r + b) % 3];
                            tournaments::record_result(&conn, tid, r + 1, b + 1, o)?
                                .map_err(|e| StoreError::Corrupt(format!("{e:?}")))?;
                        }
                    }
                    // Announced, as the bot announces a round's pairings and the end at once.
                    tournaments::claim_announcement(&conn, tid, 0, false, rounds.len(), true)?;
                }
                Ok(())
            })
            .map_err(err)?;
    }
    step("communities (a ladder and a finished tournament each)", sizes.communities, t, &mut report);

    let templates = templates(64, seed);
    let pair = |g: usize, rng: &mut StdRng| {
        let k = g % sizes.communities;
        let m: Vec<usize> = members(k, sizes).collect();
        let w = m[rng.random_range(0..m.len())];
        let mut b = m[rng.random_range(0..m.len())];
        if b == w {
            b = m[(m.iter().position(|&x| x == w).unwrap_or(0) + 1) % m.len()];
        }
        (k, ids[w], ids[b])
    };

    // Finished games, oldest first, one every so many seconds over three years.
    let t = Instant::now();
    let span = 3 * 365 * DAY;
    let mut done = 0;
    while done < sizes.finished {
        let n = BATCH.min(sizes.finished - done);
        let batch: Vec<(usize, i64, i64, usize)> = (done..done + n)
            .map(|g| {
                let (k, w, b) = pair(g, &mut rng);
                (k, w, b, rng.random_range(0..templates.len()))
            })
            .collect();
        store
            .unit(|| {
                let conn = store.conn()?;
                for (j, &(k, w, b, tpl)) in batch.iter().enumerate() {
                    let g = done + j;
                    let at = now - span + (g as i64 * span) / sizes.finished.max(1) as i64;
                    let tpl = &templates[tpl];
                    let c = community(k);
                    let chat = format!("chat-{c}");
                    let last = tpl.plies.len();
                    let updates: Vec<MoveUpdate<'_>> = tpl
                        .plies
                        .iter()
                        .enumerate()
                        .map(|(p, (u, f))| {
                            let outcome = if p + 1 == last { tpl.outcome } else { None };
                            let deadline = Some(at + p as i64 + 3 * DAY);
                            MoveUpdate { uci: u, fen_after: f, deadline, remind_at: None, outcome }
                        })
                        .collect();
                    let times: Vec<i64> = (0..last as i64).map(|p| at + p).collect();
                    let g = new_game(&c, &chat, &tpl.start_fen, w, b, at);
                    let id = games::create_played(&conn, &g, &updates, &times, &mut rate(&c, at))?;
                    if tpl.outcome.is_none() {
                        let loser = if last.is_multiple_of(2) { Color::White } else { Color::Black };
                        let o = Outcome::Decisive { winner: loser.other(), reason: WinReason::Resignation };
                        games::finish(&conn, id, last as u32, o, at + last as i64, &mut rate(&c, at))?;
                    }
                }
                Ok(())
            })
            .map_err(err)?;
        done += n;
        if done.is_multiple_of(BATCH * 50) {
            progress(&format!(
                "  {done} of {} finished games ({:.0}/s)",
                sizes.finished,
                done as f64 / t.elapsed().as_secs_f64()
            ));
        }
    }
    step("finished games", sizes.finished, t, &mut report);

    // Games in progress: OPEN_PLIES plies played, one deadline a second from a day after `now`.
    let t = Instant::now();
    let mut done = 0;
    while done < sizes.open {
        let n = BATCH.min(sizes.open - done);
        let batch: Vec<(usize, i64, i64, usize)> = (done..done + n)
            .map(|g| {
                let (k, w, b) = pair(g, &mut rng);
                (k, w, b, rng.random_range(0..templates.len()))
            })
            .collect();
        let first = report.first_deadline;
        store
            .unit(|| {
                let conn = store.conn()?;
                for (j, &(k, w, b, tpl)) in batch.iter().enumerate() {
                    let g = done + j;
                    let tpl = &templates[tpl];
                    let (c, at) = (community(k), now - 2 * DAY);
                    let chat = format!("chat-{c}");
                    let n = OPEN_PLIES.min(tpl.plies.len() - 1);
                    let deadline = Some(first + g as i64);
                    let updates: Vec<MoveUpdate<'_>> = tpl.plies[..n]
                        .iter()
                        .map(|(u, f)| MoveUpdate { uci: u, fen_after: f, deadline, remind_at: None, outcome: None })
                        .collect();
                    let g = new_game(&c, &chat, &tpl.start_fen, w, b, at);
                    games::create_played(&conn, &g, &updates, &vec![at; n], &mut games::no_end_hook)?;
                }
                Ok(())
            })
            .map_err(err)?;
        done += n;
    }
    step("games in progress", sizes.open, t, &mut report);
    report.total = t0.elapsed();
    Ok(report)
}

fn new_game<'a>(c: &'a str, chat: &'a str, start_fen: &'a str, white: i64, black: i64, at: i64) -> NewGame<'a> {
    NewGame {
        platform: PLATFORM,
        community_id: Some(c),
        rated: true,
        chat_id: chat,
        variant: "chess",
        setup: None,
        start_fen,
        white,
        black,
        ai_level: None,
        days_per_move: Some(3),
        status: Status::Active,
        deadline: Some(at + 3 * DAY),
        remind_at: None,
        interaction_only: false,
    }
}

/// The end hook of a seeded game: rated globally and in its community, as the bot rates one.
fn rate(
    community: &str,
    at: i64,
) -> impl FnMut(&capabot::store::Connection, &games::GameRow) -> capabot::store::Result<()> {
    let scope = RatingScope::community(PLATFORM, community);
    move |conn, row| {
        let score = match row.outcome() {
            Some(Outcome::Decisive { winner: Color::White, .. }) => Score::Win,
            Some(Outcome::Decisive { .. }) => Score::Loss,
            _ => Score::Draw,
        };
        ratings::rate(conn, &RatingScope::Global, &row.variant, Some(row.id), row.white, row.black, score, at)?;
        ratings::rate(conn, &scope, &row.variant, Some(row.id), row.white, row.black, score, at)?;
        Ok(())
    }
}

/// p50, p99 and max of some latencies, in milliseconds.
pub fn percentiles(mut v: Vec<Duration>) -> (f64, f64, f64) {
    v.sort();
    let pct = |p: f64| v.get(((v.len() as f64 - 1.0) * p).round() as usize).map_or(0.0, |d| d.as_secs_f64() * 1e3);
    (pct(0.5), pct(0.99), pct(1.0))
}

/// The read commands measured, each as typed in a community's chat by one of its members.
pub const READS: [(&str, &str); 7] = [
    ("games", "!games"),
    ("leaderboard (community)", "!leaderboard chess"),
    ("leaderboard (global)", "!leaderboard chess global"),
    ("history", "!history chess"),
    ("rating", "!rating chess"),
    ("ladder standings", "!ladder standings"),
    ("tournament crosstable", "!tournament #{t} standings"),
];

/// A bot on `store` at time `now` (a manual clock), without pictures.
pub fn bot(store: Store, now: i64) -> (Bot, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(now));
    let config = BotConfig { pictures: false, ..BotConfig::default() };
    (Bot::new(store, clock.clone(), Arc::new(NoAi), config), clock)
}

/// Each of [`READS`] `n` times, by random members of random communities: (name, p50, p99, max) in ms,
/// and the first answer of each (to show it is not an error).
pub fn reads(bot: &Bot, sizes: &Sizes, n: usize, seed: u64) -> Vec<(String, f64, f64, f64, String)> {
    let mut rng = StdRng::seed_from_u64(seed);
    READS
        .iter()
        .map(|(name, text)| {
            let mut lat = Vec::with_capacity(n);
            let mut first = String::new();
            for i in 0..n {
                let k = rng.random_range(0..sizes.communities);
                let who = members(k, sizes).nth(rng.random_range(0..TOURNAMENT_PLAYERS)).unwrap_or(0);
                let c = community(k);
                let scope = Scope::chat(PLATFORM, format!("chat-{c}")).in_community(c);
                // Tournaments are numbered as the communities were seeded.
                let text = text.replace("{t}", &(k + 1).to_string());
                let input = Input::text(scope, UserRef::new(user(who), format!("Player {who}")), text);
                let t = Instant::now();
                let r = bot.handle(&input);
                lat.push(t.elapsed());
                if i == 0 {
                    first = r.text().lines().next().unwrap_or("").chars().take(80).collect();
                }
            }
            let (p50, p99, max) = percentiles(lat);
            (name.to_string(), p50, p99, max, first)
        })
        .collect()
}

/// One scheduler tick at `at` on `bot` (its clock set there): the items it handled (timeouts) and its time.
pub fn tick(bot: &Bot, clock: &ManualClock, at: i64) -> (usize, Duration) {
    clock.set(at);
    let t = Instant::now();
    let r = bot.tick(&capabot::bot::Served::new("bench", [PLATFORM]));
    (r.replies.len(), t.elapsed())
}

/// The time this thread has spent on a CPU (Linux's `/proc/thread-self/schedstat`, in nanoseconds;
/// zero elsewhere): on a loaded machine a tick's wall time includes its waits for a core, which
/// this leaves out (the store's checkpoint thread is not counted).
pub fn thread_cpu_time() -> Duration {
    let ns = super::schedstat_ns(std::path::Path::new("/proc/thread-self/schedstat"));
    Duration::from_nanos(ns.unwrap_or(0))
}

/// The scheduler's reads of what is due at `at` (the store functions its tick calls, outside any
/// unit as it reads them): the items found and the time taken.
pub fn due_reads(store: &Store, at: i64) -> Result<(usize, Duration), String> {
    let conn = store.conn().map_err(err)?;
    let t = Instant::now();
    let served = [PLATFORM];
    let n = games::due_timeouts(&conn, at, &served).map_err(err)?.len()
        + games::due_reminders(&conn, at, &served).map_err(err)?.len()
        + ladders::due(&conn, at, &served).map_err(err)?.len()
        + tournaments::signup_due(&conn, at, &served).map_err(err)?.len()
        + tournaments::unannounced(&conn).map_err(err)?.len()
        + capabot::store::challenges::due_expiries(&conn, at, &served).map_err(err)?.len();
    Ok((n, t.elapsed()))
}

/// The finished games stored (a tick's timeouts are the difference before and after it).
pub fn finished_count(store: &Store) -> Result<i64, String> {
    let conn = store.conn().map_err(err)?;
    conn.query_row("SELECT count(*) FROM games WHERE status = 'finished'", (), |r| r.get(0)).map_err(|e| e.to_string())
}

/// Bytes a finished game takes in a SQLite database: the `games` and `game_moves` tables (`moves`
/// before migration 15) and their
/// indexes (`dbstat`), divided by the games stored; and the ratings' history beside it.
pub fn sqlite_bytes_per_game(db: &Path) -> Result<Vec<(String, f64)>, String> {
    let sqlite = capabot::store::open_connection(db).map_err(err)?;
    let games: f64 =
        sqlite.query_row("SELECT count(*) FROM games", (), |r| r.get::<_, i64>(0)).map_err(|e| e.to_string())? as f64;
    let mut st = sqlite
        .prepare(
            "SELECT coalesce(i.tbl_name, d.name), sum(d.pgsize) FROM dbstat d LEFT JOIN sqlite_master i ON i.name = d.name
             GROUP BY 1 ORDER BY 2 DESC",
        )
        .map_err(|e| e.to_string())?;
    let rows = st
        .query_map((), |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
        .map_err(|e| e.to_string())?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|(t, b)| (t, b as f64 / games.max(1.0))).collect())
}

/// The tables whose every index `bench-scale` lists apart: a game's and its ratings'.
pub const MEASURED_TABLES: [&str; 4] = ["games", "game_moves", "ratings", "rating_history"];

/// Bytes a game of each table and each index (`dbstat`, by b-tree): (table, b-tree, bytes a game),
/// by table then largest first; the table's own b-tree is named as the table.
pub fn sqlite_relation_bytes(db: &Path) -> Result<Vec<(String, String, f64)>, String> {
    let sqlite = capabot::store::open_connection(db).map_err(err)?;
    let games: f64 =
        sqlite.query_row("SELECT count(*) FROM games", (), |r| r.get::<_, i64>(0)).map_err(|e| e.to_string())? as f64;
    let mut st = sqlite
        .prepare(
            "SELECT coalesce(i.tbl_name, d.name), d.name, sum(d.pgsize) FROM dbstat d
             LEFT JOIN sqlite_master i ON i.name = d.name GROUP BY 1, 2 ORDER BY 1, 3 DESC",
        )
        .map_err(|e| e.to_string())?;
    let rows = st
        .query_map((), |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?, r.get::<_, i64>(2)?)))
        .map_err(|e| e.to_string())?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|(t, r, b)| (t, r, b as f64 / games.max(1.0))).collect())
}

/// `EXPLAIN QUERY PLAN` of `sql` on SQLite (every parameter 1), one line per step, and the median
/// time of `runs` runs of the query itself.
pub fn sqlite_plan(db: &Path, sql: &str, runs: usize) -> Result<(String, f64), String> {
    let conn = capabot::store::open_connection(db).map_err(err)?;
    let e = |e: rusqlite::Error| e.to_string();
    let mut st = conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}")).map_err(e)?;
    let ones = vec![1i64; st.parameter_count()];
    let plan = st
        .query_map(rusqlite::params_from_iter(&ones), |r| r.get::<_, String>(3))
        .map_err(e)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let mut st = conn.prepare(sql).map_err(e)?;
    let mut times = Vec::new();
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let mut rows = st.query(rusqlite::params_from_iter(&ones)).map_err(e)?;
        while rows.next().map_err(e)?.is_some() {}
        times.push(t.elapsed());
    }
    Ok((plan.join("; "), percentiles(times).0))
}

/// [`QUERIES`] in `dialect`'s words: `DUE_AT`, the key of the index `games_due` (a time no later than
/// what an active game has next due, migration 39), as the store writes it there.
pub fn queries(dialect: capabot::store::sql::Dialect) -> Vec<(&'static str, String)> {
    let due = capabot::store::games::due_at(dialect);
    QUERIES.iter().map(|&(name, sql)| (name, sql.replace("DUE_AT", due))).collect()
}

/// The store's queries behind the measured reads and the scheduler's tick, as the store writes them
/// (parameters are bound to 1 for the plan), for `EXPLAIN QUERY PLAN`; see [`queries`].
const QUERIES: [(&str, &str); 26] = [
    (
        "games: a player's open games",
        "SELECT id FROM games WHERE (status IN ('setup', 'active') AND white_id = ?1) OR (status IN ('setup', 'active') AND black_id = ?1) ORDER BY id",
    ),
    (
        "games: a player's open games in a chat (every move)",
        "SELECT id FROM games WHERE platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active') AND (white_id = ?3 OR black_id = ?3) ORDER BY id",
    ),
    (
        "games: a player's latest game in a chat",
        "SELECT id FROM games WHERE platform = ?1 AND chat_id = ?2 AND (white_id = ?3 OR black_id = ?3) ORDER BY id DESC LIMIT 1",
    ),
    (
        "leaderboard: the best established, when many (walked in rating order)",
        "SELECT r.player_id, p.name FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = ?1 AND r.variant = ?2 AND +r.provisional_at > ?3 ORDER BY r.rating DESC, r.games DESC, p.name LIMIT 10",
    ),
    (
        "leaderboard: the provisional with most games, when many (walked in game order)",
        "SELECT r.player_id, p.name FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = ?1 AND r.variant = ?2 AND +r.provisional_at <= ?3 ORDER BY r.games DESC, r.rating DESC, p.name LIMIT 10",
    ),
    (
        "leaderboard: the best established, when few (read whole and sorted)",
        "SELECT r.player_id, p.name FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = ?1 AND r.variant = ?2 AND r.provisional_at > ?3 ORDER BY +r.rating DESC, r.games DESC, p.name LIMIT 10",
    ),
    (
        "leaderboard: the provisional with most games, when few (read whole and sorted)",
        "SELECT r.player_id, p.name FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = ?1 AND r.variant = ?2 AND r.provisional_at <= ?3 ORDER BY +r.games DESC, r.rating DESC, p.name LIMIT 10",
    ),
    (
        "leaderboard: established players, counted up to 10,001",
        "SELECT count(*) FROM (SELECT 1 FROM ratings r WHERE r.scope = ?1 AND r.variant = ?2 AND r.provisional_at > ?3 LIMIT 10001) AS c",
    ),
    (
        "leaderboard: above the asker, counted up to 10,001",
        "SELECT count(*) FROM (SELECT 1 FROM ratings r WHERE r.scope = ?1 AND r.variant = ?2 AND r.provisional_at > ?3 AND (r.rating > ?4 OR (r.rating = ?4 AND (r.games > ?5 OR (r.games = ?5 AND (SELECT name FROM players WHERE id = r.player_id) < ?6)))) LIMIT 10001) AS c",
    ),
    (
        "leaderboard, before (every rating of the scope)",
        "SELECT r.player_id, p.name FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.scope = ?1 AND r.variant = ?2",
    ),
    (
        "history",
        "SELECT at, game_id FROM rating_history WHERE player_id = ?1 AND scope = ?2 AND variant = ?3 ORDER BY at DESC, id DESC LIMIT ?4",
    ),
    ("rating", "SELECT rating FROM ratings WHERE scope = ?1 AND variant = ?2 AND player_id = ?3"),
    ("ladder events", "SELECT id FROM ladder_events WHERE ladder_id = ?1 AND season = ?2 ORDER BY id"),
    ("tournament games", "SELECT round, board FROM tournament_games WHERE tournament_id = ?1 ORDER BY round, board"),
    (
        "tick: timeouts, before (ORDER BY id)",
        "SELECT * FROM games WHERE status = 'active' AND deadline <= ?1 ORDER BY id",
    ),
    (
        "tick: timeouts",
        "SELECT * FROM games WHERE platform = ?1 AND status = 'active' AND DUE_AT <= ?2 AND deadline <= ?2 ORDER BY DUE_AT, id",
    ),
    (
        "tick: reminders, before (ORDER BY id)",
        "SELECT * FROM games WHERE status = 'active' AND remind_at <= ?1 ORDER BY id",
    ),
    (
        "tick: reminders",
        "SELECT * FROM games WHERE platform = ?1 AND status = 'active' AND DUE_AT <= ?2 AND remind_at <= ?2 ORDER BY DUE_AT, id",
    ),
    (
        "tick: ladders due, before",
        "SELECT l.id FROM ladders l WHERE EXISTS (SELECT 1 FROM ladder_challenges c WHERE c.ladder_id = l.id AND c.status = 'pending' AND c.accept_by <= ?1 AND c.season = l.season) ORDER BY l.id",
    ),
    (
        "tick: ladders due",
        "SELECT l.id FROM ladders l WHERE l.id IN (SELECT ladder_id FROM ladder_challenges WHERE status = 'pending' AND accept_by <= ?1) AND l.platform = ?2 AND EXISTS (SELECT 1 FROM ladder_challenges c WHERE c.ladder_id = l.id AND c.status = 'pending' AND c.accept_by <= ?1 AND c.season = l.season) ORDER BY l.id",
    ),
    (
        "tick: tournament sign-ups",
        "SELECT signup_until, id FROM tournaments WHERE platform = ?1 AND status = 'registration' AND signup_until <= ?2 ORDER BY signup_until, id",
    ),
    (
        "every command and tick: tournaments unannounced, before",
        "SELECT id FROM tournaments t WHERE (status = 'finished' AND announced_end = 0) OR (status IN ('running', 'finished') AND announced_round < (SELECT coalesce(max(round), 0) FROM tournament_games g WHERE g.tournament_id = t.id)) ORDER BY id",
    ),
    (
        "every command and tick: tournaments unannounced",
        "SELECT id FROM tournaments t WHERE announced_end = 0 AND (status = 'finished' OR (status = 'running' AND announced_round < (SELECT coalesce(max(round), 0) FROM tournament_games g WHERE g.tournament_id = t.id))) ORDER BY id",
    ),
    (
        "tick: challenge expiry",
        "SELECT * FROM challenges WHERE platform = ?1 AND status = 'open' AND expires_at <= ?2 ORDER BY expires_at, id",
    ),
    (
        "tick: outbox rows of platforms nobody serves",
        "SELECT count(*) FROM outbox WHERE state = 'pending' AND created_at <= ?1 AND NOT EXISTS (SELECT 1 FROM served_platforms s WHERE s.platform = outbox.platform AND s.seen_at > ?1)",
    ),
    (
        "tick: outbox prune",
        "SELECT count(*) FROM outbox WHERE state <> 'pending' AND done_at < ?1 AND id < coalesce((SELECT id FROM \
         outbox WHERE created_at >= ?1 ORDER BY id LIMIT 1), (SELECT max(id) FROM outbox))",
    ),
];

/// What `lab bench-scale` runs.
#[derive(Clone, Debug)]
pub struct ScaleOptions {
    /// The sizes to measure, each a database of its own (the smallest is the reference).
    pub scales: Vec<f64>,
    /// Where the databases live (kept between runs unless `fresh`).
    pub dir: std::path::PathBuf,
    /// Seed again even when a database of that scale is there.
    pub fresh: bool,
    pub runs: usize,
    /// Each read this many times.
    pub reads: usize,
    /// Items due in the measured ticks.
    pub due: Vec<usize>,
    /// Games played through the core with pictures (20 plies each).
    pub move_games: usize,
    pub seed: u64,
    /// Only the start-up and the ticks.
    pub ticks_only: bool,
    /// Each scale in a new database of the harness's PostgreSQL server instead of a SQLite file in
    /// `dir` (seeded every run: the server lives as long as the run).
    pub postgres: bool,
    /// With `postgres`: the new database filled by copying the scale's SQLite file (seeded first
    /// when missing) as `capabot migrate` does, instead of seeding it.
    pub copy_sqlite: bool,
}

/// The time the seeded data is "now" at (fixed, so that reusing a database measures the same).
pub const NOW: i64 = 1_800_000_000;

/// Where one scale's database is: a SQLite file, or a database of the harness's PostgreSQL server
/// (which lives as long as the run: it is seeded every time).
enum Db {
    Sqlite(std::path::PathBuf),
    /// A database of the harness's server; the cursor file of the SQLite database it was copied
    /// from, if it was (its timeouts already taken stay taken: the ticks go on after them).
    #[cfg(feature = "postgres")]
    Postgres(pg_harness::TestDatabase<'static>, Option<std::path::PathBuf>),
}

impl Db {
    /// What `Store::open_setting` takes: the file's path or the database's URL.
    fn setting(&self) -> String {
        match self {
            Db::Sqlite(path) => path.to_string_lossy().into_owned(),
            #[cfg(feature = "postgres")]
            Db::Postgres(db, ..) => db.url(),
        }
    }

    fn open(&self) -> Result<Store, String> {
        Store::open_setting(&self.setting()).map_err(err)
    }

    /// Where the next run's first timeout is kept (SQLite only: a PostgreSQL database is new each run).
    fn cursor_file(&self) -> Option<std::path::PathBuf> {
        match self {
            Db::Sqlite(path) => Some(path.with_extension("cursor")),
            #[cfg(feature = "postgres")]
            Db::Postgres(..) => None,
        }
    }

    /// Where this run's first timeout is read from: the SQLite file's cursor, also for a
    /// PostgreSQL database copied from it (which does not move it on).
    fn cursor_start(&self) -> Option<std::path::PathBuf> {
        match self {
            #[cfg(feature = "postgres")]
            Db::Postgres(_, from) => from.clone(),
            Db::Sqlite(_) => self.cursor_file(),
        }
    }

    /// With `CAPABOT_LAB_STATEMENTS=ticks` in the environment (`tools/pg_statements.sh` sets it for
    /// `bench-scale`): PostgreSQL's statement statistics emptied, so that the view read at the end shows
    /// the ticks alone, not the seeding. Nothing otherwise (and on SQLite).
    fn statements_from_here(&self) -> Result<(), String> {
        match self {
            Db::Sqlite(_) => Ok(()),
            #[cfg(feature = "postgres")]
            Db::Postgres(db, ..) => {
                if std::env::var("CAPABOT_LAB_STATEMENTS").as_deref() != Ok("ticks") {
                    return Ok(());
                }
                let mut client = db.connect().map_err(|e| e.to_string())?;
                client
                    .batch_execute(
                        "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()",
                    )
                    .map_err(|e| e.to_string())
            }
        }
    }
}

/// Runs `lab bench-scale`, printing as it goes through `out`.
pub fn run(opts: &ScaleOptions, out: &dyn Fn(&str)) -> Result<(), String> {
    std::fs::create_dir_all(&opts.dir).map_err(|e| e.to_string())?;
    for &scale in &opts.scales {
        let sizes = Sizes::scaled(scale);
        let (db, first_deadline) = if opts.postgres && opts.copy_sqlite {
            let (from, first_deadline) = sqlite_seeded(opts, &sizes, scale, out)?;
            (postgres_copied(&from, scale, out)?, first_deadline)
        } else if opts.postgres {
            postgres_seeded(opts, &sizes, scale, out)?
        } else {
            sqlite_seeded(opts, &sizes, scale, out)?
        };

        // The first opening applies the migrations a database seeded by an older build lacks.
        let t = Instant::now();
        drop(db.open()?);
        out(&format!("first opening (migrations applied if any were missing): {:.2} s", t.elapsed().as_secs_f64()));

        // Start-up: the store opened (migrations checked) and the bot made, and its first idle tick.
        let mut opens = Vec::new();
        for _ in 0..opts.runs.max(1) {
            let t = Instant::now();
            let store = db.open()?;
            let (b, clock) = bot(store, NOW);
            let _ = tick(&b, &clock, NOW);
            opens.push(t.elapsed());
        }
        let (p50, _, max) = percentiles(opens);
        out(&format!(
            "start-up (open, migrations checked, bot made, first tick with nothing due): median {p50:.1} ms, max {max:.1} ms"
        ));

        let (b, clock) = if opts.ticks_only { bot(db.open()?, NOW) } else { measure_data(&db, opts, &sizes, out)? };
        measure_ticks(&db, opts, &sizes, first_deadline, &b, &clock, out)?;
        drop(b);
        if !opts.ticks_only {
            measure_moves_backup_plans(&db, opts, out)?;
        }
    }
    Ok(())
}

/// Scale `scale`'s SQLite file in `opts.dir`, seeded unless a run before seeded it; its first deadline.
fn sqlite_seeded(opts: &ScaleOptions, sizes: &Sizes, scale: f64, out: &dyn Fn(&str)) -> Result<(Db, i64), String> {
    let path = opts.dir.join(format!("scale-{scale}.db"));
    out(&format!("\n## scale {scale}: {sizes:?} at {}", path.display()));
    let marker = path.with_extension("seeded");
    if opts.fresh || !marker.exists() {
        let stale = [path.with_extension("db-wal"), path.with_extension("db-shm"), path.with_extension("cursor")];
        for f in [path.clone(), marker.clone()].into_iter().chain(stale) {
            let _ = std::fs::remove_file(f);
        }
        let store = Store::open(&path).map_err(err)?;
        let report = seed(&store, sizes, NOW, opts.seed, out)?;
        out(&format!("seeded in {:.1} s", report.total.as_secs_f64()));
        std::fs::write(&marker, format!("{}\n", report.first_deadline)).map_err(|e| e.to_string())?;
    }
    let first_deadline: i64 = std::fs::read_to_string(&marker)
        .map_err(|e| e.to_string())?
        .trim()
        .parse()
        .map_err(|_| "a broken marker file".to_string())?;
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    out(&format!("database file {:.1} MB", size as f64 / 1e6));
    Ok((Db::Sqlite(path), first_deadline))
}

/// Scale `scale` seeded in a new database of the harness's PostgreSQL server; its first deadline.
#[cfg(feature = "postgres")]
fn postgres_seeded(opts: &ScaleOptions, sizes: &Sizes, scale: f64, out: &dyn Fn(&str)) -> Result<(Db, i64), String> {
    let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
    let database = server.create_database().map_err(|e| e.to_string())?;
    out(&format!("\n## scale {scale}: {sizes:?} in PostgreSQL database {}", database.name()));
    let db = Db::Postgres(database, None);
    let store = db.open()?;
    let report = seed(&store, sizes, NOW, opts.seed, out)?;
    out(&format!("seeded in {:.1} s", report.total.as_secs_f64()));
    vacuum_analyze(&store, out)?;
    Ok((db, report.first_deadline))
}

/// Scale `scale`'s SQLite file `from` copied into a new database of the harness's PostgreSQL
/// server as `capabot migrate` copies it (every game replayed through the rules), with the copy's
/// time and progress told.
#[cfg(feature = "postgres")]
fn postgres_copied(from: &Db, scale: f64, out: &dyn Fn(&str)) -> Result<Db, String> {
    let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
    let database = server.create_database().map_err(|e| e.to_string())?;
    out(&format!("\n## scale {scale} copied into PostgreSQL database {}", database.name()));
    let db = Db::Postgres(database, from.cursor_file());
    let (source, target) = (from.open()?, db.open()?);
    let (b, _) = bot(target, NOW);
    let t = Instant::now();
    // The copy tells its progress every so many rows already; each line with the time since the start.
    let progress = |line: &str| out(&format!("  [{:.0} s] {line}", t.elapsed().as_secs_f64()));
    let report =
        capabot::store::copy::copy_reporting(&source, b.store(), |ids| b.verify_games(ids), &progress).map_err(err)?;
    out(&format!(
        "copied as `capabot migrate` does ({} tables, {} games replayed) in {:.1} s",
        report.tables.len(),
        report.games,
        t.elapsed().as_secs_f64()
    ));
    vacuum_analyze(b.store(), out)?;
    Ok(db)
}

#[cfg(not(feature = "postgres"))]
fn postgres_copied(_: &Db, _: f64, _: &dyn Fn(&str)) -> Result<Db, String> {
    Err("bench-scale --postgres needs the laboratory built with its `postgres` feature (the default)".into())
}

/// What autovacuum would have done by the time a real database held this much, and the database's size.
#[cfg(feature = "postgres")]
fn vacuum_analyze(store: &Store, out: &dyn Fn(&str)) -> Result<(), String> {
    let conn = store.conn().map_err(err)?;
    // What autovacuum would have done by the time a real database held this much: the planner's
    // statistics of the tables just filled, and their visibility maps.
    let t = Instant::now();
    conn.execute_batch("VACUUM ANALYZE").map_err(|e| e.to_string())?;
    out(&format!("VACUUM ANALYZE after the seeding: {:.1} s", t.elapsed().as_secs_f64()));
    let bytes: i64 =
        conn.query_row("SELECT pg_database_size(current_database())", (), |r| r.get(0)).map_err(|e| e.to_string())?;
    out(&format!("database {:.1} MB (pg_database_size)", bytes as f64 / 1e6));
    Ok(())
}

#[cfg(not(feature = "postgres"))]
fn postgres_seeded(_: &ScaleOptions, _: &Sizes, _: f64, _: &dyn Fn(&str)) -> Result<(Db, i64), String> {
    Err("bench-scale --postgres needs the laboratory built with its `postgres` feature (the default)".into())
}

/// Bytes a game and the read commands; the bot they were read through.
fn measure_data(
    db: &Db,
    opts: &ScaleOptions,
    sizes: &Sizes,
    out: &dyn Fn(&str),
) -> Result<(Bot, Arc<ManualClock>), String> {
    // Bytes per game.
    let bytes = match db {
        Db::Sqlite(path) => sqlite_bytes_per_game(path)?,
        #[cfg(feature = "postgres")]
        Db::Postgres(..) => postgres_bytes_per_game(&db.open()?)?,
    };
    let sum = |names: &[&str]| bytes.iter().filter(|(t, _)| names.contains(&t.as_str())).map(|(_, b)| b).sum::<f64>();
    out(&format!(
        "bytes per game stored: games and moves (tables and indexes) {:.0}; ratings' history {:.0}; ratings {:.0}; whole file {:.0}",
        sum(&["games", "moves", "game_moves"]),
        sum(&["rating_history"]),
        sum(&["ratings"]),
        bytes.iter().map(|(_, b)| b).sum::<f64>()
    ));
    for (t, b) in bytes.iter().take(8) {
        out(&format!("  {t}: {b:.0} bytes a game"));
    }
    // Each table and index of the game's end apart: what each index costs a game.
    let relations = match db {
        Db::Sqlite(path) => sqlite_relation_bytes(path)?,
        #[cfg(feature = "postgres")]
        Db::Postgres(..) => postgres_relation_bytes(&db.open()?)?,
    };
    for (table, relation, b) in relations.iter().filter(|(t, ..)| MEASURED_TABLES.contains(&t.as_str())) {
        out(&format!("  relation {table}.{relation}: {b:.1} bytes a game"));
    }

    // Reads.
    let store = db.open()?;
    let (b, clock) = bot(store, NOW);
    for (name, p50, p99, max, first) in reads(&b, sizes, opts.reads, opts.seed) {
        out(&format!(
            "read {name}: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms ({} times; answer: {first})",
            opts.reads
        ));
    }
    Ok((b, clock))
}

/// The ticks: nothing due, then each of `opts.due` timeouts at a time.
fn measure_ticks(
    db: &Db,
    opts: &ScaleOptions,
    sizes: &Sizes,
    first_deadline: i64,
    b: &Bot,
    clock: &ManualClock,
    out: &dyn Fn(&str),
) -> Result<(), String> {
    // Ticks: nothing due, then `due` timeouts at a time (each run takes the next ones).
    let cursor_file = db.cursor_file();
    let mut cursor: i64 = db
        .cursor_start()
        .as_ref()
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    db.statements_from_here()?;
    let mut idle = Vec::new();
    for _ in 0..opts.runs.max(1) {
        idle.push(tick(b, clock, first_deadline - 1).1);
    }
    let (p50, _, max) = percentiles(idle);
    out(&format!("tick with nothing due: median {p50:.2} ms, max {max:.2} ms"));
    for &due in &opts.due {
        let mut times = Vec::new();
        let mut on_cpu = Vec::new();
        let mut handled = Vec::new();
        let mut reads_due = Vec::new();
        let mut on_server = Vec::new();
        for _ in 0..opts.runs.max(1) {
            if cursor + due as i64 > sizes.open as i64 {
                out(&format!("  (no {due} games in progress left to fall due: seed again with --fresh)"));
                break;
            }
            let before = finished_count(b.store())?;
            let at = first_deadline + cursor + due as i64 - 1;
            reads_due.push(due_reads(b.store(), at)?);
            let server = super::bot::server_cpu_ticks(b);
            let cpu = thread_cpu_time();
            let (_, dt) = tick(b, clock, at);
            on_cpu.push(thread_cpu_time().saturating_sub(cpu));
            if let (Some(before), Some(after)) = (server, super::bot::server_cpu_ticks(b)) {
                on_server.push(Duration::from_millis(after.saturating_sub(before) * 10));
            }
            cursor += due as i64;
            handled.push(finished_count(b.store())? - before);
            times.push(dt);
        }
        let found: Vec<usize> = reads_due.iter().map(|r| r.0).collect();
        let (rp50, _, rmax) = percentiles(reads_due.iter().map(|r| r.1).collect());
        out(&format!(
            "finding what is due (the scheduler's reads) with {due} timeouts due: median {rp50:.2} ms, max {rmax:.2} ms; items found {found:?}"
        ));
        let (p50, _, max) = percentiles(times.clone());
        let (cpu50, _, cpu_max) = percentiles(on_cpu);
        out(&format!(
            "tick with {due} timeouts due of {} in progress, {} finished stored: median {p50:.1} ms, max {max:.1} ms; \
             on the CPU median {cpu50:.1} ms, max {cpu_max:.1} ms ({} runs; games timed out per tick {handled:?})",
            sizes.open,
            sizes.finished,
            times.len()
        ));
        if !on_server.is_empty() {
            let (s50, _, smax) = percentiles(on_server);
            out(&format!(
                "  the database server's processes on the CPU during those ticks: median {s50:.0} ms, max {smax:.0} ms \
                 (clock ticks of 10 ms)"
            ));
        }
    }
    if let Some(f) = cursor_file {
        std::fs::write(f, cursor.to_string()).map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A move through the core with its picture, a backup of the whole file and the query plans.
fn measure_moves_backup_plans(db: &Db, opts: &ScaleOptions, out: &dyn Fn(&str)) -> Result<(), String> {
    // A move through the core with its picture (bench-bot's games, in chats of their own).
    let mut p50s = Vec::new();
    let mut p99s = Vec::new();
    for r in 0..opts.runs.max(1) {
        let o = super::bot::BenchOptions::with_pictures(
            opts.move_games,
            2,
            20,
            &capabot::rules::variant::CAPATOMIC,
            opts.seed + r as u64,
        );
        // The last round's games (still going after their 20 plies) out of the way of this one's.
        let store = db.open()?;
        let conn = store.conn().map_err(err)?;
        conn.execute("UPDATE games SET status = 'aborted' WHERE platform = 'bench' AND status = 'active'", ())
            .map_err(|e| e.to_string())?;
        drop(conn);
        drop(store);
        let rep = super::bot::run_through(Path::new(&db.setting()), &o, super::bot::Through::Core)?;
        out(&format!("  moves round {}: {}", r + 1, rep.summary(&o)));
        p50s.push(rep.p50.as_secs_f64() * 1e3);
        p99s.push(rep.p99.as_secs_f64() * 1e3);
    }
    out(&format!(
        "a move through the core with its picture: median p50 {:.2} ms, median p99 {:.2} ms",
        super::median_secs(&mut p50s),
        super::median_secs(&mut p99s)
    ));

    match db {
        Db::Sqlite(path) => {
            // Backup of the whole file.
            let copy = opts.dir.join("backup-copy.db");
            let t = Instant::now();
            let rep = capabot::store::backup::backup(path, &copy, true).map_err(|e| e.to_string())?;
            out(&format!("backup: {:.1} s for {:.1} MB", t.elapsed().as_secs_f64(), rep.bytes as f64 / 1e6));
            let _ = std::fs::remove_file(&copy);
            for (name, sql) in queries(capabot::store::sql::Dialect::Sqlite) {
                let (plan, ms) = sqlite_plan(path, &sql, opts.runs)?;
                out(&format!("plan {name}: {plan} — median {ms:.2} ms (parameters 1)"));
            }
        }
        #[cfg(feature = "postgres")]
        Db::Postgres(database, ..) => {
            // PostgreSQL's own backup (`capabot backup` copies SQLite files), in its custom format.
            let copy = opts.dir.join("backup-copy.pgdump");
            let bin = pg_harness::ensure_installed().map_err(|e| e.to_string())?;
            let t = Instant::now();
            // The password through the environment, not the command line other processes can read.
            let config = database.config();
            let password = config.get_password().map(|p| String::from_utf8_lossy(p).into_owned()).unwrap_or_default();
            let port = config.get_ports().first().copied().unwrap_or(5432);
            let status = std::process::Command::new(bin.join("pg_dump"))
                .args(["--format=custom", "--host=127.0.0.1", "--no-password"])
                .arg(format!("--port={port}"))
                .arg(format!("--username={}", config.get_user().unwrap_or(pg_harness::SUPERUSER)))
                .arg("--file")
                .arg(&copy)
                .arg(database.name())
                .env("PGPASSWORD", password)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .map_err(|e| format!("pg_dump: {e}"))?;
            let bytes = std::fs::metadata(&copy).map(|m| m.len()).unwrap_or(0);
            out(&format!(
                "backup (pg_dump --format=custom, {status}): {:.1} s for {:.1} MB",
                t.elapsed().as_secs_f64(),
                bytes as f64 / 1e6
            ));
            let _ = std::fs::remove_file(&copy);
            for (name, sql) in queries(capabot::store::sql::Dialect::Postgres) {
                out(&format!("plan {name}: {}", postgres_plan(database, &sql)?));
            }
        }
    }
    Ok(())
}

/// Bytes a finished game takes in a PostgreSQL database: each table with its indexes and TOAST
/// (`pg_total_relation_size`), divided by the games stored, largest first.
#[cfg(feature = "postgres")]
pub fn postgres_bytes_per_game(store: &Store) -> Result<Vec<(String, f64)>, String> {
    let conn = store.conn().map_err(err)?;
    let games: i64 = conn.query_row("SELECT count(*) FROM games", (), |r| r.get(0)).map_err(|e| e.to_string())?;
    let rows = conn
        .query_all(
            "SELECT tablename, pg_total_relation_size(quote_ident(tablename)) FROM pg_tables \
             WHERE schemaname = current_schema() ORDER BY 2 DESC",
            (),
            |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)),
        )
        .map_err(|e| e.to_string())?;
    Ok(rows.into_iter().map(|(t, b)| (t, b as f64 / games.max(1) as f64)).collect())
}

/// Bytes a game of each table (its main fork and TOAST), each of its indexes, and of the table's
/// free space and dead rows (`pgstattuple`, when the extension can be created): (table, relation,
/// bytes a game), by table then largest first.
#[cfg(feature = "postgres")]
pub fn postgres_relation_bytes(store: &Store) -> Result<Vec<(String, String, f64)>, String> {
    let conn = store.conn().map_err(err)?;
    let games: i64 = conn.query_row("SELECT count(*) FROM games", (), |r| r.get(0)).map_err(|e| e.to_string())?;
    let per_game = |b: i64| b as f64 / games.max(1) as f64;
    let mut rows = conn
        .query_all(
            "SELECT c.relname::text, c.relname::text, pg_table_size(c.oid) FROM pg_class c
             WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
             UNION ALL SELECT t.relname::text, i.relname::text, pg_relation_size(i.oid) FROM pg_index x
             JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
             WHERE t.relnamespace = current_schema()::regnamespace ORDER BY 1, 3 DESC",
            (),
            |r| Ok((r.get::<String>(0)?, r.get::<String>(1)?, r.get::<i64>(2)?)),
        )
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(t, r, b)| (t, r, per_game(b)))
        .collect::<Vec<_>>();
    // What of each table is rows, free space and dead rows (a superuser's extension; left out when
    // it cannot be had).
    if conn.execute_batch("CREATE EXTENSION IF NOT EXISTS pgstattuple").is_ok() {
        for table in MEASURED_TABLES {
            let (live, dead, free): (i64, i64, i64) = conn
                .query_row(
                    &format!("SELECT tuple_len, dead_tuple_len, free_space FROM pgstattuple('{table}')"),
                    (),
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .map_err(|e| e.to_string())?;
            for (what, b) in [("(rows)", live), ("(dead rows)", dead), ("(free space)", free)] {
                rows.push((table.to_string(), format!("{table} {what}"), per_game(b)));
            }
        }
    }
    Ok(rows)
}

/// PostgreSQL's generic plan of `sql` (`EXPLAIN (GENERIC_PLAN)`, its parameters unbound, sent by
/// the simple protocol, which binds none), its lines joined.
#[cfg(feature = "postgres")]
pub fn postgres_plan(database: &pg_harness::TestDatabase<'_>, sql: &str) -> Result<String, String> {
    use pg_harness::postgres::SimpleQueryMessage;
    let mut client = database.connect().map_err(|e| e.to_string())?;
    let sql = capabot::store::sql::numbered_placeholders(sql);
    let messages =
        client.simple_query(&format!("EXPLAIN (GENERIC_PLAN, COSTS OFF) {sql}")).map_err(|e| e.to_string())?;
    let lines: Vec<String> = messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(row) => row.get(0).map(|l| l.trim().to_string()),
            _ => None,
        })
        .collect();
    Ok(lines.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small seed holds what it says (games finished and in progress, rated twice each, tournaments
    /// finished and announced), every read answers, and a tick at the first deadlines times out those games.
    fn a_small_seed_holds_its_sizes_and_answers_reads_and_ticks_on(store: Store) -> Bot {
        let sizes = Sizes { finished: 30, open: 12, players: 40, communities: 2 };
        let report = seed(&store, &sizes, NOW, 3, &|_| {}).unwrap();
        let count = |sql: &str| -> i64 { store.conn().unwrap().query_row(sql, (), |r| r.get(0)).unwrap() };
        assert_eq!(count("SELECT count(*) FROM games WHERE status = 'finished'"), 30);
        assert_eq!(count("SELECT count(*) FROM games WHERE status = 'active' AND ply > 0"), 12);
        assert_eq!(
            count("SELECT count(*) FROM rating_history"),
            30 * 4,
            "each game rated globally and in its community"
        );
        assert_eq!(count("SELECT count(*) FROM tournaments WHERE status = 'finished' AND announced_end = 1"), 2);
        assert_eq!(count("SELECT count(*) FROM ladder_events"), 2 * LADDER_PLAYERS as i64);
        let (bot, clock) = bot(store, NOW);
        for (name, _, _, _, first) in reads(&bot, &sizes, 2, 1) {
            assert!(!first.is_empty() && !first.to_lowercase().contains("sorry"), "{name}: {first}");
        }
        assert_eq!(due_reads(bot.store(), report.first_deadline + 4).unwrap().0, 5);
        let before = finished_count(bot.store()).unwrap();
        tick(&bot, &clock, report.first_deadline + 4);
        assert_eq!(finished_count(bot.store()).unwrap() - before, 5, "the five games due timed out");
        bot
    }

    #[test]
    fn a_small_seed_holds_its_sizes_and_answers_reads_and_ticks() {
        let dir = tempfile::tempdir().unwrap();
        a_small_seed_holds_its_sizes_and_answers_reads_and_ticks_on(Store::open(dir.path().join("s.db")).unwrap());
    }

    /// The same on PostgreSQL, with what `--postgres` measures there: the bytes a game of every
    /// table, and each query's generic plan.
    #[cfg(feature = "postgres")]
    #[test]
    fn a_small_seed_on_postgres_answers_the_same_and_its_bytes_and_plans_are_read() {
        let server = pg_harness::PgServer::shared().unwrap();
        let database = server.create_database().unwrap();
        let store = Store::open_setting(&database.url()).unwrap();
        let bot = a_small_seed_holds_its_sizes_and_answers_reads_and_ticks_on(store);
        let bytes = postgres_bytes_per_game(bot.store()).unwrap();
        let games = bytes.iter().find(|(t, _)| t == "games").expect("the games table measured").1;
        assert!(games > 100.0, "a game's row and its indexes take more than 100 bytes: {games}");
        for (name, sql) in queries(capabot::store::sql::Dialect::Postgres) {
            let plan = postgres_plan(&database, &sql).unwrap();
            assert!(plan.contains("Scan"), "{name}: {plan}");
        }
        let tick = postgres_plan(&database, "SELECT id FROM games WHERE platform = ?1 AND deadline <= ?2").unwrap();
        assert!(tick.contains("$2"), "the parameters are numbered for PostgreSQL: {tick}");
    }
    /// `--copy-sqlite`: a seeded SQLite file copied into PostgreSQL as `capabot migrate` does holds
    /// the same games, and its ticks start where the SQLite file's runs left off.
    #[cfg(feature = "postgres")]
    #[test]
    fn a_seeded_sqlite_file_copied_into_postgres_holds_the_same_games_and_ticks_on_from_its_cursor() {
        let dir = tempfile::tempdir().unwrap();
        let opts = ScaleOptions {
            scales: vec![0.0001],
            dir: dir.path().to_path_buf(),
            fresh: false,
            runs: 1,
            reads: 1,
            due: vec![],
            move_games: 0,
            seed: 3,
            ticks_only: true,
            postgres: true,
            copy_sqlite: true,
        };
        let sizes = Sizes { finished: 30, open: 12, players: 40, communities: 2 };
        let (from, first_deadline) = sqlite_seeded(&opts, &sizes, 0.0001, &|_| {}).unwrap();
        // Two timeouts taken on SQLite by an earlier run.
        let (sqlite_bot, clock) = bot(from.open().unwrap(), NOW);
        tick(&sqlite_bot, &clock, first_deadline + 1);
        std::fs::write(from.cursor_file().unwrap(), "2").unwrap();
        let lines = std::sync::Mutex::new(Vec::new());
        let db = postgres_copied(&from, 0.0001, &|l| lines.lock().unwrap().push(l.to_string())).unwrap();
        let lines = lines.into_inner().unwrap();
        assert!(lines.iter().any(|l| l.contains("copied as `capabot migrate` does")), "{lines:?}");
        let count = |store: &Store| finished_count(store).unwrap();
        let copied = db.open().unwrap();
        assert_eq!(count(&copied), count(sqlite_bot.store()));
        assert_eq!(db.cursor_start(), from.cursor_file());
        assert_eq!(db.cursor_file(), None, "the SQLite file's cursor is not moved by PostgreSQL's runs");
        let (pg_bot, clock) = bot(copied, NOW);
        let before = count(pg_bot.store());
        tick(&pg_bot, &clock, first_deadline + 4);
        assert_eq!(count(pg_bot.store()) - before, 3, "the three games due after the two taken timed out");
    }
}

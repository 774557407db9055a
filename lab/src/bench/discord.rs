//! A load run through Discord (not a test): the real serenity client and host against the in-repo
//! fake Discord on 127.0.0.1, N games played at once by `/move` interactions. It reports accepted
//! moves per second and the latency from the interaction's dispatch to the REST call that carries
//! the answer (the board embed), beside the bare core's figure for the same games from
//! [`super::bot`] in the same run.

use super::bot::{BenchOptions, BenchReport, Through};
use capabot::bot::{Bot, BotConfig, Input, NoAi, Scope, SystemClock, UserRef};
use capabot::discord::{DiscordOptions, Token};
use capabot::host::limits::LimitConfig;
use capabot::host::{Host, HostConfig};
use capabot::notation::{fen, san};
use capabot::rules::{Color, Game, Position, setups};
use capabot::store::{Store, games};
use fake_discord::{FakeConfig, FakeDiscord, GuildSpec, Sent, SentKind};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde_json::json;
use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

pub(super) const TOKEN: &str = "bench-token";
const GUILD: u64 = 10;
/// Channel `FIRST_CHANNEL + i` holds game `i`; its players are users `FIRST_USER + 2i` (White)
/// and `FIRST_USER + 2i + 1`.
const FIRST_CHANNEL: u64 = 100_000;
const FIRST_USER: u64 = 1_000_000;
/// The flooder of [`run_discord_flood`]: one user in one chat of their own.
const FLOOD_CHANNEL: u64 = 99_999;
const FLOODER: u64 = 999_999;
/// The people of [`Flood::gif_people`]: person `k` asks for GIFs of a long game of their own, in
/// channel `GIF_CHANNEL + k`, against user `GIF_PARTNER + k`.
const GIF_CHANNEL: u64 = 99_990;
const GIF_PERSON: u64 = 999_990;
const GIF_PARTNER: u64 = 999_980;
/// At most this many people ask for GIFs ([`Flood::gif_people`]).
pub const MAX_GIF_PEOPLE: usize = 8;
/// How long one move may wait for its answer before the game is given up.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// The answers of interactions, handed to whoever waits for them (or kept until they do).
#[derive(Default)]
struct Answers {
    waiting: HashMap<u64, oneshot::Sender<Sent>>,
    early: HashMap<u64, Sent>,
    /// Answers to commands typed in the flood chat ([`Flood::hang`]) posted there, and "slow down"s.
    typed_answers: usize,
    typed_slow_down: usize,
    /// What the bot sent for each interaction and when (for [`tell_slow_move`]).
    log: HashMap<u64, Vec<(SentKind, Instant)>>,
}

impl Answers {
    fn deliver(&mut self, sent: Sent) {
        if sent.kind == SentKind::Message && sent.channel_id == Some(FLOOD_CHANNEL) {
            let text = sent.content().unwrap_or_default().to_lowercase();
            self.typed_answers += usize::from(text.contains("capatomic"));
            self.typed_slow_down += usize::from(text.contains("slow down"));
            return;
        }
        let Some(id) = sent.interaction_id else { return };
        self.log.entry(id).or_default().push((sent.kind.clone(), sent.at));
        let answer = matches!(sent.kind, SentKind::Edit | SentKind::FollowUp)
            || sent.kind == (SentKind::InteractionResponse { callback_type: 4 });
        if !answer {
            return;
        }
        match self.waiting.remove(&id) {
            Some(tx) => {
                let _ = tx.send(sent);
            }
            None => {
                self.early.entry(id).or_insert(sent);
            }
        }
    }

    fn wait(&mut self, id: u64) -> oneshot::Receiver<Sent> {
        let (tx, rx) = oneshot::channel();
        match self.early.remove(&id) {
            Some(sent) => {
                let _ = tx.send(sent);
            }
            None => {
                self.waiting.insert(id, tx);
            }
        }
        rx
    }
}

/// The guild of game `i` when the games are spread over `shards` guilds, one per shard (Discord
/// routes guild `g` to shard `(g >> 22) % shards`); [`GUILD`] for one shard.
pub(super) fn guild_of(i: u64, shards: u32) -> u64 {
    let shards = u64::from(shards);
    if shards <= 1 { GUILD } else { (shards + i % shards) << 22 }
}

/// The fake Discord of a run: a channel and two players per game, in one guild per shard.
pub(super) fn world(games: usize, shards: u32) -> FakeConfig {
    let n = u64::from(shards.max(1));
    let mut config = FakeConfig::new(TOKEN).without_history();
    if shards > 1 {
        config = config.shards(shards);
    }
    for s in 0..n {
        let mut guild = GuildSpec::new(guild_of(s, shards), &format!("Bench club {s}"));
        if s == 0 {
            guild = guild.text_channel(FLOOD_CHANNEL, "flood").member(FLOODER, "flooder");
            for k in 0..MAX_GIF_PEOPLE as u64 {
                guild = guild
                    .text_channel(GIF_CHANNEL + k, &format!("gif-{k}"))
                    .member(GIF_PERSON + k, &format!("gif{k}"))
                    .member(GIF_PARTNER + k, &format!("gifpartner{k}"));
            }
        }
        for i in (s..games as u64).step_by(n as usize) {
            guild = guild
                .text_channel(FIRST_CHANNEL + i, &format!("table-{i}"))
                .member(FIRST_USER + 2 * i, &format!("w{i}"))
                .member(FIRST_USER + 2 * i + 1, &format!("b{i}"));
        }
        config = config.guild(guild);
    }
    config
}

/// Starts `capabot discord --shards RANGE --shard-total TOTAL` in `dir` on the database `url`
/// against `fake`, its log appended to `shards-RANGE.log` there.
pub(super) fn spawn_discord(
    capabot: &Path,
    dir: &Path,
    (range, total): (&str, u32),
    url: &str,
    fake: &FakeDiscord,
    web_url: Option<&str>,
) -> Result<std::process::Child, String> {
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("shards-{range}.log")))
        .map_err(|e| e.to_string())?;
    let mut command = Command::new(capabot);
    command
        .args(["discord", "--shards", range, "--shard-total", &total.to_string()])
        .current_dir(dir)
        .env_clear()
        .env("CAPABOT_DATABASE_URL", url)
        .env("DISCORD_TOKEN", TOKEN)
        .env("CAPABOT_DISCORD_PROXY", fake.base_url())
        .env("RUST_LOG", "warn");
    // The pages' public address alone (no pages served): the process tells the others of its
    // changes on PostgreSQL (`store::changes`), as every process of a deployment with pages does.
    if let Some(web_url) = web_url {
        command.env("CAPABOT_WEB_URL", web_url);
    }
    command.stdout(Stdio::null()).stderr(log).spawn().map_err(|e| format!("cannot start {}: {e}", capabot.display()))
}

/// Challenges and acceptances straight through the core (not timed), the games in the guilds of
/// [`world`]; returns each game's start.
pub(super) fn set_up(bot: &Bot, opts: &BenchOptions, shards: u32) -> Result<Vec<Position>, String> {
    for i in 0..opts.games as u64 {
        let scope =
            Scope::chat("discord", (FIRST_CHANNEL + i).to_string()).in_community(guild_of(i, shards).to_string());
        let white = UserRef::new((FIRST_USER + 2 * i).to_string(), format!("w{i}"));
        let black = UserRef::new((FIRST_USER + 2 * i + 1).to_string(), format!("b{i}"));
        let setup = if opts.variant.has_setups() {
            format!(" setup:{}", i as usize % setups::count(opts.variant))
        } else {
            String::new()
        };
        let text = format!("!challenge <@{}> {} color:white{setup}", black.id, opts.variant.name);
        let r = bot.handle(&Input::text(scope.clone(), white, text).with_mentions(vec![black.clone()]));
        if !r.text().contains("Challenge #") {
            return Err(format!("set-up failed: {}", r.text()));
        }
        let r = bot.handle(&Input::text(scope, black, "!accept"));
        if !r.text().contains("starts") {
            return Err(format!("set-up failed: {}", r.text()));
        }
    }
    let conn = bot.store().conn().map_err(|e| e.to_string())?;
    let mut starts = Vec::new();
    for i in 0..opts.games {
        let g = games::get(&conn, (i + 1) as i64).map_err(|e| e.to_string())?.ok_or("game missing")?;
        starts.push(fen::parse_position(opts.variant, &g.start_fen).map_err(|e| e.to_string())?);
    }
    Ok(starts)
}

/// For each of `people`, a game of `plies` plies (a seeded playout that does not end before its last
/// ply, as `bench-gif`'s) played through the core in their own chat (not timed); the games' numbers.
fn set_up_gif_games(bot: &Bot, opts: &BenchOptions, people: usize, plies: usize) -> Result<Vec<i64>, String> {
    let mut ids = Vec::new();
    for k in 0..people.min(MAX_GIF_PEOPLE) as u64 {
        let scope = Scope::chat("discord", (GIF_CHANNEL + k).to_string()).in_community(GUILD.to_string());
        let white = UserRef::new((GIF_PERSON + k).to_string(), format!("gif{k}"));
        let black = UserRef::new((GIF_PARTNER + k).to_string(), format!("gifpartner{k}"));
        let setup = if opts.variant.has_setups() { " setup:0" } else { "" };
        let text = format!("!challenge <@{}> {} color:white{setup}", black.id, opts.variant.name);
        bot.handle(&Input::text(scope.clone(), white.clone(), text).with_mentions(vec![black.clone()]));
        let r = bot.handle(&Input::text(scope.clone(), black.clone(), "!accept"));
        if !r.text().contains("starts") {
            return Err(format!("set-up of a GIF game failed: {}", r.text()));
        }
        let conn = bot.store().conn().map_err(|e| e.to_string())?;
        let id = games::latest_in_chat(&conn, "discord", &(GIF_CHANNEL + k).to_string(), {
            let p = capabot::store::players::find(&conn, "discord", &white.id).map_err(|e| e.to_string())?;
            p.ok_or("no GIF player")?.id
        })
        .map_err(|e| e.to_string())?
        .ok_or("no GIF game")?;
        drop(conn);
        let mut game = Game::new(fen::parse_position(opts.variant, &id.start_fen).map_err(|e| e.to_string())?);
        let mut rng = StdRng::seed_from_u64(opts.seed ^ (k + 1).wrapping_mul(0x2545_f491_4f6c_dd1d));
        for ply in 0..plies {
            let pos = game.position().clone();
            let mut moves: Vec<_> = pos.legal_moves().into_iter().collect();
            if ply + 1 < plies {
                let go_on = super::gif::going_on(&game, &moves);
                if !go_on.is_empty() {
                    moves = go_on;
                }
            }
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let who = if pos.turn() == Color::White { &white } else { &black };
            bot.handle(&Input::text(scope.clone(), who.clone(), format!("!move {}", san::write_plain(&pos, mv))));
            game.play(mv);
        }
        ids.push(id.id);
    }
    Ok(ids)
}

/// [`Flood::gif_people`]: from `at` until `stop`, person `k` asks for the GIF of game `ids[k]` as
/// often as the host's per-person limit admits (its burst at once, then its rate a minute); returns
/// the interactions sent.
async fn ask_for_gifs(
    fake: FakeDiscord,
    ids: Vec<i64>,
    at: Instant,
    limits: LimitConfig,
    stop: tokio::sync::watch::Receiver<bool>,
) -> Vec<u64> {
    tokio::time::sleep_until(at.into()).await;
    let every = Duration::from_secs_f64(60.0 / f64::from(limits.user_per_minute.max(1)));
    let mut sent = Vec::new();
    let ask = |sent: &mut Vec<u64>| {
        for (k, id) in ids.iter().enumerate() {
            let options = json!([{ "name": "game", "type": 4, "value": id }]);
            sent.push(fake.slash_command(GIF_CHANNEL + k as u64, GIF_PERSON + k as u64, "gif", options).id);
        }
    };
    for _ in 0..limits.user_burst {
        ask(&mut sent);
    }
    // Bounded: a run lasts minutes at most.
    for _ in 0..10_000 {
        tokio::time::sleep(every).await;
        if *stop.borrow() {
            break;
        }
        ask(&mut sent);
    }
    sent
}

/// Waits (at most a minute) until nothing waits in the outbox: the set-up's announcements are
/// delivered (the drainer takes them once they are due, `store::outbox::WRITER_GRACE_SECS` after
/// they were written).
async fn set_up_delivered(bot: &Arc<Bot>) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let bot = bot.clone();
        let pending = tokio::task::spawn_blocking(move || -> Result<i64, String> {
            let conn = bot.store().conn().map_err(|e| e.to_string())?;
            let counts = capabot::store::outbox::counts(&conn).map_err(|e| e.to_string())?;
            Ok(counts.iter().filter(|(_, state, _)| state == "pending").map(|(_, _, n)| n).sum())
        })
        .await
        .map_err(|e| e.to_string())??;
        if pending == 0 {
            return Ok(());
        }
        if Instant::now() >= deadline {
            return Err(format!("the set-up's {pending} announcements were not delivered within a minute"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// When the moves of one game are due in a paced run: its first move at `first`, then one every
/// `every` (or as soon as the previous one is answered, if that is later).
#[derive(Clone, Copy)]
struct Pace {
    first: Instant,
    every: Duration,
}

/// One game: random legal moves by `/move`, each awaited; latencies of the accepted ones. Paced, a
/// move's latency counts from when it was due, so that a late answer also delays the next move's
/// clock rather than hiding it.
async fn play_game(
    fake: FakeDiscord,
    answers: Arc<Mutex<Answers>>,
    (index, start): (u64, Position),
    plies: usize,
    seed: u64,
    pace: Option<Pace>,
    t_start: Instant,
) -> (Vec<Duration>, usize, usize) {
    let mut rng = StdRng::seed_from_u64(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut game = Game::new(start);
    let (mut latencies, mut refused, mut pictures) = (Vec::new(), 0, 0);
    let channel = FIRST_CHANNEL + index;
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = game.position().clone();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let user = FIRST_USER + 2 * index + u64::from(pos.turn() != Color::White);
        let options = json!([{ "name": "move", "type": 3, "value": san::write_plain(&pos, mv) }]);
        let due = pace.map(|p| p.first + p.every * ply as u32);
        if let Some(due) = due {
            tokio::time::sleep_until(due.into()).await;
        }
        let sent_at = due.unwrap_or_else(Instant::now);
        // The lock is held over the dispatch so that the id is known before any answer is.
        let rx = {
            let mut answers = answers.lock().unwrap_or_else(|p| p.into_inner());
            let interaction = fake.slash_command(channel, user, "move", options);
            answers.wait(interaction.id)
        };
        let answer = match tokio::time::timeout(ANSWER_TIMEOUT, rx).await {
            Ok(Ok(answer)) => answer,
            _ => {
                eprintln!("refused: game {index} ply {ply}: no answer within {} s", ANSWER_TIMEOUT.as_secs());
                refused += 1;
                break;
            }
        };
        let played =
            answer.payload["flags"].as_u64().is_none_or(|f| f & 64 == 0) && !answer.payload["embeds"].is_null();
        if !played {
            // What the bot said instead, so that a refusal under load can be looked into.
            eprintln!("refused: game {index} ply {ply}: {}", answer.payload);
            refused += 1;
            break;
        }
        let latency = answer.at.saturating_duration_since(sent_at);
        if latency >= SLOW_MOVE {
            tell_slow_move(&answers, &answer, (index, ply), (t_start, sent_at));
        }
        latencies.push(latency);
        pictures += answer.files.iter().filter(|f| f.filename.ends_with(".png") && !f.bytes.is_empty()).count();
        game.play(mv);
    }
    (latencies, refused, pictures)
}

/// A move answered this late is told on stderr ([`tell_slow_move`]).
const SLOW_MOVE: Duration = Duration::from_secs(1);

/// Tells on stderr a move answered late (game, ply, when it was sent in the run) with what the bot
/// sent for its interaction and when: where the time went (a deferral at 1.5 s, then the edit).
fn tell_slow_move(answers: &Mutex<Answers>, answer: &Sent, (game, ply): (u64, usize), (t0, sent): (Instant, Instant)) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let log =
        answer.interaction_id.and_then(|id| answers.lock().unwrap_or_else(|p| p.into_inner()).log.get(&id).cloned());
    let timeline: Vec<String> = log
        .unwrap_or_default()
        .iter()
        .map(|(kind, at)| format!("{kind:?} at {:.1} ms", ms(at.saturating_duration_since(sent))))
        .collect();
    eprintln!(
        "slow move: game {game} ply {ply}, sent {:.3} s into the run, answered in {:.1} ms: {}",
        sent.saturating_duration_since(t0).as_secs_f64(),
        ms(answer.at.saturating_duration_since(sent)),
        timeline.join(", ")
    );
}

/// The players of a run: one task per game, and the answers collected from the fake as they come
/// (until dropped).
pub(super) struct Players {
    answers: Arc<Mutex<Answers>>,
    collector: tokio::task::JoinHandle<()>,
    games: Vec<tokio::task::JoinHandle<(Vec<Duration>, usize, usize)>>,
    t0: Instant,
}

impl Players {
    /// Starts the games from `starts` now: each game's next move sent as soon as the last is
    /// answered, or, with `rate`, moves offered at `rate` per second in all, spread evenly over the
    /// games.
    pub(super) fn start(fake: &FakeDiscord, starts: Vec<Position>, opts: &BenchOptions, rate: Option<f64>) -> Players {
        let answers = Arc::new(Mutex::new(Answers::default()));
        let mut stream = fake.sent_stream();
        let collector = {
            let answers = answers.clone();
            tokio::spawn(async move {
                while let Some(sent) = stream.recv().await {
                    answers.lock().unwrap_or_else(|p| p.into_inner()).deliver(sent);
                }
            })
        };
        let t0 = Instant::now();
        let count = starts.len().max(1) as f64;
        let mut games = Vec::new();
        for (i, start) in starts.into_iter().enumerate() {
            let pace = rate.filter(|r| *r > 0.0).map(|r| Pace {
                first: t0 + Duration::from_secs_f64(i as f64 / r),
                every: Duration::from_secs_f64(count / r),
            });
            let game = play_game(fake.clone(), answers.clone(), (i as u64, start), opts.plies, opts.seed, pace, t0);
            games.push(tokio::spawn(game));
        }
        Players { answers, collector, games, t0 }
    }

    /// Waits for every game; the report of their moves, timed from the start to the last answer.
    pub(super) async fn results(&mut self) -> Result<BenchReport, String> {
        let (mut all, mut refused, mut pictures) = (Vec::new(), 0, 0);
        for game in self.games.drain(..) {
            let (l, r, n) = game.await.map_err(|e| format!("a game task failed: {e}"))?;
            all.extend(l);
            refused += r;
            pictures += n;
        }
        Ok(BenchReport::of(all, refused, pictures, self.t0.elapsed()))
    }
}

impl Drop for Players {
    fn drop(&mut self) {
        self.collector.abort();
    }
}

/// The games of `opts` played through Discord (the fake) on a fresh database at `db`: each game's
/// next move sent as soon as the last is answered, or, with `rate`, moves offered at `rate` per
/// second in all, spread evenly over the games.
pub fn run_discord(db: &Path, opts: &BenchOptions, rate: Option<f64>) -> Result<BenchReport, String> {
    Ok(run_discord_flood(db, opts, rate, &Flood::default())?.0)
}

/// A flood from one person in one chat during a Discord run.
#[derive(Clone, Debug, Default)]
pub struct Flood {
    /// Commands (`/variants`) sent at once; 0 for none.
    pub commands: usize,
    /// When, after the first move.
    pub after: Duration,
    /// The host's rate limits ([`LimitConfig::default`], as `capabot run` has them); `None`: no
    /// limits.
    pub limits: Option<LimitConfig>,
    /// From `after`, for this long, the flood chat's `POST /channels/…/messages` never answers (a
    /// hung connection: each request hangs until the bot's client gives up on it), while the
    /// flooder types `!variants` there once a second; zero for none.
    pub hang: Duration,
    /// People (at most [`MAX_GIF_PEOPLE`]) who each, from `after` until the games end, ask for the
    /// GIF of a game of `gif_plies` plies in a chat of their own, as often as the limits admit (the
    /// per-person burst at once, then the per-person rate; [`LimitConfig::default`]'s without limits).
    pub gif_people: usize,
    pub gif_plies: usize,
}

/// How the flood was answered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloodAnswers {
    /// Served as usual (the variants listed).
    pub served: usize,
    /// "Slow down" answers.
    pub slow_down: usize,
    /// Commands typed in the hung chat ([`Flood::hang`]), and the answers posted there in the end.
    pub typed: usize,
    pub typed_answered: usize,
    pub typed_slow_down: usize,
    /// GIFs asked for ([`Flood::gif_people`]), and answered with one.
    pub gifs_asked: usize,
    pub gifs_served: usize,
}

/// [`run_discord`] with a [`Flood`] from one person in one chat while the games move; the report
/// covers the games' moves (the others), and the flood's answers are counted apart.
pub fn run_discord_flood(
    db: &Path,
    opts: &BenchOptions,
    rate: Option<f64>,
    flood: &Flood,
) -> Result<(BenchReport, FloodAnswers), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(opts.threads.max(1))
        .thread_name("capabot")
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    // With `fake_apart`, the fake Discord and the players run on a runtime of their own.
    let fake_rt = opts
        .fake_apart
        .then(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("fake-discord")
                .enable_all()
                .build()
                .map_err(|e| format!("runtime: {e}"))
        })
        .transpose()?;
    // A file, or a PostgreSQL URL (`run_rounds` with `postgres`), opened off the runtime: the
    // PostgreSQL driver blocks on a runtime of its own.
    let store = Store::open_setting(&db.to_string_lossy()).map_err(|e| e.to_string())?;
    let config = BotConfig { pictures: opts.pictures, ..BotConfig::default() };
    let bot = Arc::new(Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), config));
    let result = rt.block_on(async {
        let starts = {
            let (bot, opts) = (bot.clone(), opts.clone());
            let set_up = move || {
                let starts = set_up(&bot, &opts, 1)?;
                super::bot::analyze_if_postgres(&bot)?;
                Ok::<_, String>(starts)
            };
            tokio::task::spawn_blocking(set_up).await.map_err(|e| e.to_string())??
        };
        let gif_games = {
            let (bot, opts, people, plies) = (bot.clone(), opts.clone(), flood.gif_people, flood.gif_plies);
            tokio::task::spawn_blocking(move || set_up_gif_games(&bot, &opts, people, plies))
                .await
                .map_err(|e| e.to_string())??
        };
        let fake = match &fake_rt {
            Some(apart) => apart.spawn(FakeDiscord::start(world(opts.games, 1))).await.map_err(|e| e.to_string())?,
            None => FakeDiscord::start(world(opts.games, 1)).await,
        };
        let queued = bot.clone();
        let host = Host::new(bot.clone(), HostConfig { limits: flood.limits.clone(), ..opts.host_config() });
        let discord = DiscordOptions {
            guild: Some(GUILD),
            proxy: Some(fake.base_url()),
            // Typed commands for the hung chat (the games move by slash commands either way).
            message_content: !flood.hang.is_zero(),
            shards: None,
            grace: Duration::from_secs(10),
            http_client: None,
        };
        let (stop, stopped) = oneshot::channel::<()>();
        let running = tokio::spawn(capabot::discord::run(host, Token::new(TOKEN), discord, async move {
            let _ = stopped.await;
        }));
        fake.wait_for_sessions(1, Duration::from_secs(60)).await;
        // The set-up went straight through the core: its announcements (each game's start, with its
        // board) wait in the outbox, and the first move in each channel would be delivered after
        // them, in the chat's order. Timed moves start once they are out.
        set_up_delivered(&queued).await?;

        let cpu = super::threads::ThreadCpu::start();
        let mut players = {
            let _apart = fake_rt.as_ref().map(|apart| apart.handle().enter());
            Players::start(&fake, starts, opts, rate)
        };
        let t0 = players.t0;
        let flooding = (flood.commands > 0).then(|| {
            let (fake, commands, at) = (fake.clone(), flood.commands, t0 + flood.after);
            tokio::spawn(async move {
                tokio::time::sleep_until(at.into()).await;
                (0..commands)
                    .map(|_| fake.slash_command(FLOOD_CHANNEL, FLOODER, "variants", json!([])).id)
                    .collect::<Vec<u64>>()
            })
        });
        let hanging =
            (!flood.hang.is_zero()).then(|| tokio::spawn(hang_flood_chat(fake.clone(), t0 + flood.after, flood.hang)));
        let (games_over, stop_gifs) = tokio::sync::watch::channel(false);
        let gifs = (!gif_games.is_empty()).then(|| {
            let limits = flood.limits.clone().unwrap_or_default();
            tokio::spawn(ask_for_gifs(fake.clone(), gif_games.clone(), t0 + flood.after, limits, stop_gifs))
        });
        let report = players.results().await?;
        let _ = games_over.send(true);
        eprintln!(
            "processor time while the moves were played: {}",
            super::threads::describe(&cpu.stop(), report.accepted)
        );
        let flood_ids: Vec<u64> = match flooding {
            Some(f) => f.await.map_err(|e| format!("the flood task failed: {e}"))?,
            None => Vec::new(),
        };
        // The flood's last answers may still be on their way.
        tokio::time::sleep(Duration::from_millis(if flood_ids.is_empty() { 0 } else { 500 })).await;
        let mut flooded = FloodAnswers::default();
        if let Some(hanging) = hanging {
            flooded.typed = hanging.await.map_err(|e| format!("the hang task failed: {e}"))?;
            (flooded.typed_answered, flooded.typed_slow_down) = typed_answers(&players.answers, flooded.typed).await;
        }
        if let Some(gifs) = gifs {
            let asked = gifs.await.map_err(|e| format!("the GIF task failed: {e}"))?;
            flooded.gifs_asked = asked.len();
            flooded.gifs_served = gifs_answered(&players.answers, &asked).await;
        }
        {
            let answers = players.answers.lock().unwrap_or_else(|p| p.into_inner());
            for sent in flood_ids.iter().filter_map(|id| answers.early.get(id)) {
                let text = sent.content().unwrap_or_default();
                flooded.slow_down += usize::from(text.contains("Slow down"));
                flooded.served += usize::from(text.to_lowercase().contains("capatomic"));
            }
        }
        let _ = stop.send(());
        match tokio::time::timeout(Duration::from_secs(30), running).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => return Err(e),
            _ => return Err("the bot did not stop".into()),
        }
        Ok((report, flooded))
    });
    // The runtimes first, with the tasks they still hold, then the bot: the PostgreSQL driver's
    // connections block on a runtime of their own as they close, which cannot be inside another.
    drop((rt, fake_rt));
    drop(bot);
    result
}

/// [`Flood::hang`]: from `at`, for `hang`, every post in the flood chat hangs, while the flooder
/// types a command there once a second; returns how many were typed.
async fn hang_flood_chat(fake: FakeDiscord, at: Instant, hang: Duration) -> usize {
    tokio::time::sleep_until(at.into()).await;
    let route = format!("/channels/{FLOOD_CHANNEL}/messages");
    fake.fail_next("POST", &route, fake_discord::FaultKind::Hang, usize::MAX);
    let end = tokio::time::Instant::now() + hang;
    let mut typed = 0;
    while tokio::time::Instant::now() < end {
        fake.send_message(FLOOD_CHANNEL, FLOODER, "!variants");
        typed += 1;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    fake.clear_faults();
    typed
}

/// How many of the interactions `asked` were answered with a GIF, once all are answered (or told
/// to slow down) or a minute has passed; the host ignores some past the limits without a word.
async fn gifs_answered(answers: &Mutex<Answers>, asked: &[u64]) -> usize {
    let count = || {
        let answers = answers.lock().unwrap_or_else(|p| p.into_inner());
        let answered: Vec<&Sent> = asked.iter().filter_map(|id| answers.early.get(id)).collect();
        let gifs = answered.iter().filter(|s| s.files.iter().any(|f| f.filename.ends_with(".gif"))).count();
        (answered.len(), gifs)
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    while count().0 < asked.len() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    count().1
}

/// The answers posted in the flood chat, once `typed` are there or the client's timeout and a
/// retry's time have passed since the hang ended.
/// Returns the answers and the "slow down"s.
async fn typed_answers(answers: &Mutex<Answers>, typed: usize) -> (usize, usize) {
    let answered = || {
        let answers = answers.lock().unwrap_or_else(|p| p.into_inner());
        (answers.typed_answers, answers.typed_slow_down)
    };
    let deadline = Instant::now() + capabot::discord::REQUEST_TIMEOUT + Duration::from_secs(60);
    // The host's rate limits turn some away without a word: all may never come.
    while answered().0 + answered().1 < typed && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    answered()
}

/// `runs` rounds, each a Discord run without the flood and one with it on fresh databases, in a
/// temporary folder: every round's lines, then the medians and the flood run's latency as a ratio
/// of the quiet run's.
pub fn flood_rounds(opts: &BenchOptions, runs: usize, rate: Option<f64>, flood: &Flood) -> Result<String, String> {
    let dir = std::env::temp_dir().join(format!("capabot-bench-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = flood_rounds_in(&dir, opts, runs, rate, flood);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn flood_rounds_in(
    dir: &Path,
    opts: &BenchOptions,
    runs: usize,
    rate: Option<f64>,
    flood: &Flood,
) -> Result<String, String> {
    let mut out = String::new();
    let (mut quiet, mut flooded) = (Vec::new(), Vec::new());
    let quiet_flood = Flood { commands: 0, hang: Duration::ZERO, gif_people: 0, ..flood.clone() };
    for round in 0..runs.max(1) {
        let (q, _) = run_discord_flood(&dir.join(format!("quiet-{round}.db")), opts, rate, &quiet_flood)?;
        let (f, answered) = run_discord_flood(&dir.join(format!("flood-{round}.db")), opts, rate, flood)?;
        out.push_str(&format!("round {}: no flood {}\n", round + 1, line(&q)));
        out.push_str(&format!(
            "round {}: flood    {}; the flood: {} served, {} told to slow down, {} unanswered",
            round + 1,
            line(&f),
            answered.served,
            answered.slow_down,
            flood.commands.saturating_sub(answered.served + answered.slow_down)
        ));
        if flood.gif_people > 0 {
            out.push_str(&format!(
                "; GIFs of {} plies: {} asked, {} sent",
                flood.gif_plies, answered.gifs_asked, answered.gifs_served
            ));
        }
        if !flood.hang.is_zero() {
            out.push_str(&format!(
                "; the hung chat: {} typed, {} answered in the end, {} told to slow down",
                answered.typed, answered.typed_answered, answered.typed_slow_down
            ));
        }
        out.push('\n');
        quiet.push(q);
        flooded.push(f);
    }
    let median = |reports: &[BenchReport], f: &dyn Fn(&BenchReport) -> f64| {
        let mut v: Vec<f64> = reports.iter().map(f).collect();
        super::median_secs(&mut v)
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let (q50, q99) = (median(&quiet, &|r| ms(r.p50)), median(&quiet, &|r| ms(r.p99)));
    let (f50, f99) = (median(&flooded, &|r| ms(r.p50)), median(&flooded, &|r| ms(r.p99)));
    let mut also = String::new();
    if !flood.hang.is_zero() {
        also.push_str(&format!(" and the flood chat's posts hanging for {} s", flood.hang.as_secs()));
    }
    if flood.gif_people > 0 {
        also.push_str(&format!(" and {} people asking for GIFs of {} plies", flood.gif_people, flood.gif_plies));
    }
    out.push_str(&format!(
        "medians of {} rounds, {} games of {} ({}), up to {} plies each{}, a flood of {} commands {} ms in{}, limits {}:\n  \
         no flood p50 {q50:.1} ms, p99 {q99:.1} ms\n  flood    p50 {f50:.1} ms, p99 {f99:.1} ms\n  \
         flood / no flood: p50 × {:.2}, p99 × {:.2}",
        quiet.len(),
        opts.games,
        opts.variant.name,
        if opts.pictures { "with pictures" } else { "no pictures" },
        opts.plies,
        rate.map(|r| format!(", moves offered at {r:.0}/s")).unwrap_or_default(),
        flood.commands,
        flood.after.as_millis(),
        also,
        if flood.limits.is_some() { "on" } else { "off" },
        f50 / q50.max(1e-9),
        f99 / q99.max(1e-9),
    ));
    Ok(out)
}

/// `runs` rounds of the bare core (unless `core` is false) and of Discord on the same games, each
/// on a fresh database in a temporary folder: every round's lines, then the medians.
/// With `postgres`, each run plays on a new database of the harness's PostgreSQL server, reached
/// through its Unix socket (feature `postgres`); else on a new SQLite file.
pub fn run_rounds(
    opts: &BenchOptions,
    runs: usize,
    rate: Option<f64>,
    core: bool,
    postgres: bool,
) -> Result<String, String> {
    if postgres {
        return rounds_on_postgres(opts, runs, rate, core);
    }
    let dir = std::env::temp_dir().join(format!("capabot-bench-discord-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = rounds_in(&|name| Ok(dir.join(format!("{name}.db"))), opts, runs, rate, core);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

#[cfg(feature = "postgres")]
fn rounds_on_postgres(opts: &BenchOptions, runs: usize, rate: Option<f64>, core: bool) -> Result<String, String> {
    let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
    // Each run's database, dropped at the end.
    let mut databases = Vec::new();
    let mut urls = std::collections::HashMap::new();
    for round in 0..runs.max(1) {
        for run in ["core", "discord"] {
            let database = server.create_database().map_err(|e| e.to_string())?;
            let url = database.socket_url().ok_or("the harness's server has no Unix socket")?;
            urls.insert(format!("{run}-{round}"), url);
            databases.push(database);
        }
    }
    let db = |name: &str| urls.get(name).map(std::path::PathBuf::from).ok_or_else(|| format!("no database {name}"));
    let result = rounds_in(&db, opts, runs, rate, core);
    drop(databases);
    result
}

#[cfg(not(feature = "postgres"))]
fn rounds_on_postgres(_: &BenchOptions, _: usize, _: Option<f64>, _: bool) -> Result<String, String> {
    Err("bench-discord --postgres needs the laboratory built with its `postgres` feature (the default)".into())
}

fn rounds_in(
    db: &dyn Fn(&str) -> Result<std::path::PathBuf, String>,
    opts: &BenchOptions,
    runs: usize,
    rate: Option<f64>,
    with_core: bool,
) -> Result<String, String> {
    let mut out = String::new();
    let (mut core, mut discord) = (Vec::new(), Vec::new());
    for round in 0..runs.max(1) {
        if with_core {
            let c = super::bot::run_through(&db(&format!("core-{round}"))?, opts, Through::Core)?;
            out.push_str(&format!("round {}: core    {}\n", round + 1, line(&c)));
            core.push(c);
        }
        let d = run_discord(&db(&format!("discord-{round}"))?, opts, rate)?;
        out.push_str(&format!("round {}: discord {}\n", round + 1, line(&d)));
        discord.push(d);
    }
    out.push_str(&format!(
        "medians of {} rounds, {} games of {} ({}), up to {} plies each{}:\n  core    {}\n  discord {}",
        core.len(),
        opts.games,
        opts.variant.name,
        if opts.pictures { "with pictures" } else { "no pictures" },
        opts.plies,
        rate.map(|r| format!(", Discord moves offered at {r:.0}/s")).unwrap_or_default(),
        median_line(&core),
        median_line(&discord)
    ));
    Ok(out)
}

pub(super) fn line(r: &BenchReport) -> String {
    format!(
        "{} moves in {:.2} s = {:.0} moves/s; p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; {} pictures; {} refused",
        r.accepted,
        r.elapsed.as_secs_f64(),
        r.moves_per_sec(),
        r.p50.as_secs_f64() * 1e3,
        r.p99.as_secs_f64() * 1e3,
        r.max.as_secs_f64() * 1e3,
        r.pictures,
        r.refused
    )
}

pub(super) fn median_line(reports: &[BenchReport]) -> String {
    let of = |f: &dyn Fn(&BenchReport) -> f64| {
        let mut v: Vec<f64> = reports.iter().map(f).collect();
        super::median_secs(&mut v)
    };
    format!(
        "{:.0} moves/s; p50 {:.1} ms, p99 {:.1} ms",
        of(&|r| r.moves_per_sec()),
        of(&|r| r.p50.as_secs_f64() * 1e3),
        of(&|r| r.p99.as_secs_f64() * 1e3)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use capabot::rules::variant::CHESS;

    #[test]
    fn a_small_run_through_discord_plays_every_ply() {
        let opts = BenchOptions {
            games: 2,
            threads: 2,
            plies: 4,
            variant: &CHESS,
            pictures: true,
            seed: 3,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            fake_apart: true,
            log_pages: false,
            event_ids: crate::bench::bot::EventIds::Snowflake,
            time_lapse: 1,
        };
        let dir = tempfile::tempdir().unwrap();
        let r = run_discord(&dir.path().join("d.db"), &opts, None).unwrap();
        assert_eq!((r.accepted, r.refused, r.pictures), (8, 0, 8), "{r:?}");
        assert!(r.p50 > Duration::ZERO && r.p50 <= r.p99);
        // Paced at 40 moves/s in all: eight moves take at least 3/20 s (each game's fourth move is
        // due 3 × 2/40 s after its first).
        let r = run_discord(&dir.path().join("p.db"), &opts, Some(40.0)).unwrap();
        assert_eq!((r.accepted, r.refused), (8, 0), "{r:?}");
        assert!(r.elapsed >= Duration::from_millis(150), "{r:?}");
    }

    #[test]
    fn a_flood_is_told_once_while_the_games_play_on() {
        let opts = BenchOptions {
            games: 2,
            threads: 2,
            plies: 4,
            variant: &CHESS,
            pictures: false,
            seed: 5,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            fake_apart: false,
            log_pages: false,
            event_ids: crate::bench::bot::EventIds::Snowflake,
            time_lapse: 1,
        };
        let limits = LimitConfig::default();
        let flood = Flood {
            commands: 40,
            after: Duration::ZERO,
            limits: Some(limits.clone()),
            hang: Duration::ZERO,
            ..Flood::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let (r, answered) = run_discord_flood(&dir.path().join("f.db"), &opts, Some(40.0), &flood).unwrap();
        assert_eq!((r.accepted, r.refused), (8, 0), "the others' moves all answered: {r:?}");
        assert_eq!(answered.slow_down, 1, "{answered:?}");
        assert!(answered.served >= 1 && answered.served <= limits.user_burst as usize, "{answered:?}");
    }

    #[test]
    fn people_asking_for_gifs_get_them_while_the_others_play() {
        let opts = BenchOptions::with_pictures(2, 2, 4, &CHESS, 5);
        let limits = LimitConfig::default();
        let flood = Flood { limits: Some(limits.clone()), gif_people: 2, gif_plies: 12, ..Flood::default() };
        let dir = tempfile::tempdir().unwrap();
        let (r, answered) = run_discord_flood(&dir.path().join("g.db"), &opts, Some(20.0), &flood).unwrap();
        assert_eq!((r.accepted, r.refused), (8, 0), "the others' moves all answered: {r:?}");
        assert!(answered.gifs_asked >= 2 * limits.user_burst as usize, "each person's burst at least: {answered:?}");
        assert!(answered.gifs_served >= 2, "a GIF for each person at least: {answered:?}");
    }
}

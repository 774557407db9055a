//! Issue 42 §1 on the fake Discord, as a property: who may read a reply is decided in the core and
//! kept by the front end, whatever the command and however it was sent.
//!
//! Two worlds, each a fake Discord with its own capabot, play the same secret-bomb game; they differ
//! only in Bob's bomb. The same random inputs go to both — every command's example and every form of
//! `bomb`, typed with the prefix, addressed to the bot by its mention (both forms), as a slash
//! command, as a button clicked on any message its clicker can see, and typed in a direct message —
//! by Alice, Bob and Carol, between the game's moves. Everything anyone but Bob can read (the
//! channel's messages and their edits, Alice's and Carol's direct messages, the private answers to
//! their own interactions: texts, embeds, buttons and the bytes of every file) must be the same in
//! both worlds until the game ends, and no log line at `info` or above may name a bomb.

use super::*;
use capabot::rules::Square;
use capabot::rules::variant::BOMB;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The bot's user id in the fake (how a message addresses it: `<@1000>` or `<@!1000>`).
const BOT_USER: u64 = 1000;

/// Who can read something the bot sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Reader {
    Everyone,
    Only(u64),
}

/// One input, the same in both worlds.
#[derive(Clone, Debug)]
enum Probe {
    /// `!text` in the channel.
    Typed(u64, String),
    /// `<@1000> text` or `<@!1000> text` in the channel.
    Addressed(u64, String, bool),
    /// A slash command in the channel.
    Slash(u64, &'static str, Value),
    /// `text` in the person's direct messages with the bot.
    Direct(u64, String),
    /// The n-th (modulo their number) enabled button the person can see, clicked.
    Button(u64, usize),
}

/// A fake Discord with its own capabot, and what the test knows of what it was sent.
struct World {
    env: Env,
    running: Running,
    fake: FakeDiscord,
    /// Who acted in each interaction.
    acted: HashMap<u64, u64>,
    /// Messages only the person who acted sees (ephemeral answers and their edits).
    private: HashSet<u64>,
    /// Direct-message channels and their person.
    dms: HashMap<u64, u64>,
    /// Each message's reader, channel and enabled buttons, as last sent.
    buttons: BTreeMap<u64, (Reader, u64, Vec<String>)>,
    /// How many of the fake's sent things were read.
    read: usize,
    /// The markers `settle` sent: its interactions and its direct messages. Their answers are not
    /// compared: a marker in one channel is handled beside a probe in another, so its answer may
    /// come before or after a probe's `lang tr` took effect, in either world.
    markers: (HashSet<u64>, HashSet<String>),
}

impl World {
    async fn start() -> World {
        let mut env = Env::new(world()).await;
        let running = env.start().await;
        let fake = env.fake.clone();
        registered_in_guild(&fake).await;
        let dms = [ALICE, BOB, CAROL].into_iter().map(|u| (fake.dm_channel(u), u)).collect();
        World {
            env,
            running,
            fake,
            acted: HashMap::new(),
            private: HashSet::new(),
            dms,
            buttons: BTreeMap::new(),
            read: 0,
            markers: Default::default(),
        }
    }

    fn status(&self) -> String {
        self.env.query_text(&self.running, "SELECT status FROM games WHERE id = 1")
    }

    fn slash(&mut self, user: u64, name: &str, options: Value) -> Interaction {
        let interaction = self.fake.slash_command(GENERAL, user, name, options);
        self.acted.insert(interaction.id, user);
        interaction
    }

    fn click(&mut self, channel: u64, user: u64, message: u64, custom_id: &str) -> Interaction {
        let interaction = self.fake.click_button(channel, user, message, custom_id);
        self.acted.insert(interaction.id, user);
        interaction
    }

    /// The enabled buttons `user` can see and click, in message order: the channel's, and (for
    /// Alice and Carol) those of their own direct messages and private answers. Bob's own are
    /// left out: his view may differ between the worlds.
    fn clickable(&self, user: u64) -> Vec<(u64, u64, String)> {
        let sees = |reader: Reader| reader == Reader::Everyone || (user != BOB && reader == Reader::Only(user));
        self.buttons
            .iter()
            .filter(|(_, (reader, _, _))| sees(*reader))
            .flat_map(|(message, (_, channel, ids))| ids.iter().map(move |id| (*channel, *message, id.clone())))
            .collect()
    }

    fn send(&mut self, probe: &Probe) {
        match probe {
            Probe::Typed(user, text) => {
                self.fake.send_message(GENERAL, *user, &format!("!{text}"));
            }
            Probe::Addressed(user, text, nick) => {
                let mention = if *nick { format!("<@!{BOT_USER}>") } else { format!("<@{BOT_USER}>") };
                self.fake.send_message(GENERAL, *user, &format!("{mention} {text}"));
            }
            Probe::Slash(user, name, options) => {
                self.slash(*user, name, options.clone());
            }
            Probe::Direct(user, text) => {
                self.fake.send_dm(*user, text);
            }
            Probe::Button(user, n) => {
                let buttons = self.clickable(*user);
                if !buttons.is_empty() {
                    let (channel, message, id) = buttons[n % buttons.len()].clone();
                    self.click(channel, *user, message, &id);
                }
            }
        }
    }

    /// Waits until the bot has answered everything sent so far: a marker answered in the channel
    /// and in each direct-message channel (every input handled), the outbox empty (every answer
    /// sent: the fake records a request as it arrives), then no request for a while.
    async fn settle(&mut self) {
        let marker = self.slash(CAROL, "variants", json!([]));
        // Inputs in a direct-message channel are handled in that channel's order: a marker there
        // too (a refusal that changes nothing and answers it by reference).
        let direct: Vec<(u64, u64)> = [ALICE, BOB, CAROL]
            .map(|u| (self.fake.dm_channel(u), self.fake.send_dm(u, "rules no-such-variant")))
            .into();
        self.markers.0.insert(marker.id);
        self.markers.1.extend(direct.iter().map(|(_, message)| message.to_string()));
        self.fake.wait_for(answers(marker.id), WAIT).await;
        for (channel, message) in direct {
            let id = message.to_string();
            let answers = move |s: &Sent| {
                s.channel_id == Some(channel) && s.payload["message_reference"]["message_id"].as_str() == Some(&id)
            };
            self.fake.wait_for(answers, WAIT).await;
        }
        let deadline = tokio::time::Instant::now() + WAIT;
        let pending = "SELECT count(*) FROM outbox WHERE state = 'pending'";
        while self.env.query(&self.running, pending) > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        settle_quietly(&self.fake, Duration::from_millis(150)).await;
    }

    /// Who reads `s`: the person who acted, for a private answer; the person of a direct-message
    /// channel; otherwise everyone in the channel.
    fn reader(&self, s: &Sent) -> Reader {
        let private = s.is_ephemeral() || s.message_id.is_some_and(|m| self.private.contains(&m));
        if private && let Some(user) = s.interaction_id.and_then(|i| self.acted.get(&i)) {
            return Reader::Only(*user);
        }
        match s.channel_id.and_then(|c| self.dms.get(&c)) {
            Some(user) => Reader::Only(*user),
            None => Reader::Everyone,
        }
    }

    /// What the bot sent since the last call, as anyone but Bob reads it (sorted: the order across
    /// channels is the drainers'), and whether any of it (Bob's included) ends the game.
    fn fresh(&mut self) -> (Vec<String>, bool) {
        let sent = self.fake.sent();
        let mut seen = Vec::new();
        let mut ended = false;
        for s in &sent[self.read..] {
            let answered = s.payload["message_reference"]["message_id"].as_str();
            if s.interaction_id.is_some_and(|i| self.markers.0.contains(&i))
                || answered.is_some_and(|m| self.markers.1.contains(m))
            {
                continue;
            }
            if s.is_ephemeral()
                && let Some(message) = s.message_id
            {
                self.private.insert(message);
            }
            let reader = match (&s.kind, s.message_id) {
                // An update of a message with buttons keeps that message's readers.
                (SentKind::InteractionResponse { callback_type: 7 }, Some(m)) if self.buttons.contains_key(&m) => {
                    self.buttons[&m].0
                }
                _ => self.reader(s),
            };
            if let (Some(message), Some(channel), Some(_)) = (s.message_id, s.channel_id, s.payload.get("components")) {
                self.buttons.insert(message, (reader, channel, enabled_buttons(s)));
            }
            ended |= s.payload.to_string().contains("Black's was");
            if reader != Reader::Only(BOB)
                && let Some(shown) = shown(s, reader)
            {
                seen.push(shown);
            }
        }
        self.read = sent.len();
        seen.sort();
        (seen, ended)
    }
}

/// The custom ids of the enabled buttons (not links) of a message.
fn enabled_buttons(s: &Sent) -> Vec<String> {
    let rows = s.payload["components"].as_array().cloned().unwrap_or_default();
    rows.iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["type"] == 2 && c["disabled"] != true)
        .filter_map(|c| c["custom_id"].as_str().map(str::to_owned))
        .collect()
}

/// What a reader sees of `s`: where, the text, embeds, buttons and each file's name and bytes
/// (hashed). A deferral, which shows nothing yet, is left out; so is the kind of an answer (a
/// response or the edit of a deferred one), which depends on how long the bot took.
fn shown(s: &Sent, reader: Reader) -> Option<String> {
    let kind = match s.kind {
        SentKind::InteractionResponse { callback_type: 4 } | SentKind::FollowUp => "answer",
        SentKind::Edit if s.interaction_id.is_some() => "answer",
        SentKind::InteractionResponse { callback_type: 7 } => "update",
        SentKind::InteractionResponse { .. } => return None,
        SentKind::Message => "message",
        SentKind::Edit => "edit",
        SentKind::Delete => "delete",
        SentKind::Thread => "thread",
    };
    let files: Vec<(String, u64)> = s
        .files
        .iter()
        // A picture's pixels: two drawings of one board may differ in their bytes (`render::bands`).
        .map(|f| (f.filename.clone(), crate::common::seen_hash(&f.bytes)))
        .collect();
    let p = &s.payload;
    let channel = if s.channel_id == Some(GENERAL) { "general".to_string() } else { format!("{:?}", s.channel_id) };
    Some(format!("{reader:?} {kind} in {channel}: {} {} {} {files:?}", p["content"], p["embeds"], p["components"]))
}

/// Records every log line at `info` and above (capabot logs at `warn` by default).
#[derive(Clone, Default)]
struct LogLines(Arc<Mutex<Vec<String>>>);

impl<S: tracing::Subscriber> Layer<S> for LogLines {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: LayerContext<'_, S>) {
        if *event.metadata().level() <= tracing::Level::INFO {
            let mut text = MessageText(format!("{} {}: ", event.metadata().level(), event.metadata().target()));
            event.record(&mut text);
            self.0.lock().expect("log lock").push(text.0);
        }
    }
}

/// The slash forms: `bomb` with each square, with and without the game, and without anything;
/// detonations by `/move`; the read-only commands about the game.
fn slash_pool(squares: &[Square]) -> Vec<(&'static str, Value)> {
    let game = json!({ "name": "game", "type": 4, "value": 1 });
    let mut pool = vec![
        ("bomb", json!([])),
        ("board", json!([])),
        ("board", json!([game])),
        ("pgn", json!([game])),
        ("gif", json!([game])),
        ("fen", json!([game])),
        ("games", json!([])),
        ("help", json!([])),
    ];
    for sq in squares {
        let square = json!({ "name": "square", "type": 3, "value": sq.to_string() });
        pool.push(("bomb", json!([square])));
        pool.push(("bomb", json!([square, game])));
        pool.push(("move", json!([{ "name": "move", "type": 3, "value": format!("@{sq}") }])));
    }
    pool
}

/// Whether Bob sending this would detonate his own bomb (the blast shows where it was: allowed,
/// and the end of what is compared).
fn detonates(probe: &Probe) -> bool {
    match probe {
        Probe::Typed(BOB, t) | Probe::Addressed(BOB, t, _) | Probe::Direct(BOB, t) => t.contains('@'),
        Probe::Slash(BOB, "move", options) => options.to_string().contains('@'),
        _ => false,
    }
}

/// One case: a game whose worlds differ in Bob's bomb, `probes` random inputs, and moves between.
async fn case(seed: u64, probes: usize) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut worlds = [World::start().await, World::start().await];
    for w in &mut worlds {
        new_game(&w.fake, GENERAL, "bomb", &[]).await;
    }
    let (her, first, second) = common::bomb_squares(&mut rng);
    // The choices, by the buttons of the prompts in the direct messages.
    for (w, his) in worlds.iter_mut().zip([first, second]) {
        for (user, square) in [(ALICE, her), (BOB, his)] {
            let dm = w.fake.dm_channel(user);
            let prompt = w.fake.wait_for(move |s| s.channel_id == Some(dm) && s.custom_ids().len() == 15, WAIT).await;
            let click = w.click(dm, user, message_of(&prompt), &button(&prompt, &format!("bomb #1 {square}")));
            w.fake.wait_for(answers(click.id), WAIT).await;
        }
        w.fake
            .wait_for(
                |s| s.channel_id == Some(GENERAL) && s.content().is_some_and(|c| c.contains("Both bombs are set")),
                WAIT,
            )
            .await;
    }
    let compare = |worlds: &mut [World; 2], what: &str| -> Result<bool, TestCaseError> {
        let (a, a_ended) = worlds[0].fresh();
        let (b, b_ended) = worlds[1].fresh();
        if a_ended || b_ended {
            return Ok(true);
        }
        prop_assert_eq!(a, b, "after {}: what others see differs with Bob's bomb", what);
        Ok(false)
    };
    for w in &mut worlds {
        w.settle().await;
    }
    compare(&mut worlds, "the choices")?;

    let squares = [first, second, her];
    let challenges =
        [format!("challenge <@{CAROL}> chess color:white"), format!("challenge <@{BOB}> bomb color:black")];
    let (typed, slash) = (common::bomb_probe_texts(&squares, &challenges), slash_pool(&squares));
    let people = [ALICE, BOB, CAROL];
    let mut pos = Position::start(&BOMB).with_bombs([Some(her), None]).expect("her own piece");
    for _ in 0..probes {
        let probe = if rng.random_bool(0.3) {
            let who = if pos.turn() == Color::White { ALICE } else { BOB };
            let Some((text, next)) = common::quiet_move(&pos, &mut rng) else { break };
            pos = next;
            Probe::Slash(who, "move", json!([{ "name": "move", "type": 3, "value": text }]))
        } else {
            let (who, text) = common::pick_probe(&mut rng, &people, &typed);
            match rng.random_range(0..6) {
                0 => Probe::Typed(who, text),
                1 => Probe::Addressed(who, text, rng.random_bool(0.5)),
                2 => {
                    let (name, options) = slash[rng.random_range(0..slash.len())].clone();
                    Probe::Slash(who, name, options)
                }
                3 => Probe::Direct(who, text),
                _ => Probe::Button(who, rng.random_range(0..1_000)),
            }
        };
        if detonates(&probe) {
            continue;
        }
        for w in &mut worlds {
            w.send(&probe);
            w.settle().await;
        }
        if compare(&mut worlds, &format!("{probe:?}"))? || worlds[0].status() != "active" {
            break;
        }
    }
    for w in worlds {
        w.env.finish(w.running, &[]).await;
    }
    Ok(())
}

/// Issue 42 §1's property on the fake Discord (see the module's text): a few random cases, each two
/// worlds of a whole game, and every log line checked for the bombs' squares.
#[test]
fn nothing_anyone_else_reads_on_discord_depends_on_a_secret_bomb() {
    let mut runner =
        TestRunner::new(Config { cases: 3, max_shrink_iters: 4, failure_persistence: None, ..Config::default() });
    let strategy = (any::<u64>(), 12usize..28);
    let result = runner.run(&strategy, |(seed, probes)| {
        let logs = LogLines::default();
        let printer = tracing_subscriber::fmt::layer()
            .with_test_writer()
            .with_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")));
        let _guard = tracing::subscriber::set_default(tracing_subscriber::registry().with(logs.clone()).with(printer));
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
        runtime.block_on(async { tokio::time::timeout(SCENARIO, case(seed, probes)).await.expect("in time") })?;
        for line in logs.0.lock().expect("log lock").iter() {
            prop_assert!(!line.contains("bomb is") && !line.contains("_bomb"), "a log line names a bomb: {}", line);
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

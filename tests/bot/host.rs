//! The shared host: replies delivered through the front end that owns their platform, direct
//! messages with their fallback, AI moves on the pool, and shutdown.

use crate::common::T0;
use async_trait::async_trait;
use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, ManualClock, Receipt, Reply, Scope, Target, UserRef};
use capabot::host::{DeliveryError, FrontEnd, Host, HostConfig};
use capabot::store::Store;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A front end that records what it was asked to show.
struct Recorder {
    platform: &'static str,
    dms: bool,
    /// Users whose direct messages are closed.
    closed: Vec<String>,
    /// With `Some(n)`, chat messages wait (up to three seconds) until more than `n` direct
    /// messages went out.
    chats_wait_for_dms: Mutex<Option<usize>>,
    /// While true, an animation's delivery waits (up to ten seconds), counted in `animations_held`.
    hold_animations: Mutex<bool>,
    animations_held: std::sync::atomic::AtomicUsize,
    /// What its receipts say of a delivery made again ([`Receipt::shows_once_if_repeated`]).
    shows_once: std::sync::atomic::AtomicBool,
    seen: Mutex<Vec<Reply>>,
}

impl Recorder {
    fn new(platform: &'static str, dms: bool, closed: &[&str]) -> Arc<Recorder> {
        Arc::new(Recorder {
            platform,
            dms,
            closed: closed.iter().map(|s| s.to_string()).collect(),
            chats_wait_for_dms: Mutex::default(),
            hold_animations: Mutex::default(),
            animations_held: Default::default(),
            shows_once: Default::default(),
            seen: Mutex::default(),
        })
    }
    fn dms_sent(&self) -> usize {
        self.seen.lock().unwrap().iter().filter(|r| matches!(r.target, Target::Direct { .. })).count()
    }
    fn texts(&self) -> Vec<(String, String)> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|r| {
                let place = match &r.target {
                    Target::Chat(s) => format!("chat:{}", s.chat),
                    Target::Direct { user, .. } => format!("dm:{}", user.id),
                };
                (place, r.text.clone())
            })
            .collect()
    }
}

#[async_trait]
impl FrontEnd for Recorder {
    fn platform(&self) -> &str {
        self.platform
    }
    fn has_direct_messages(&self) -> bool {
        self.dms
    }
    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        if let Target::Direct { user, .. } = &reply.target
            && self.closed.contains(&user.id)
        {
            return Err(DeliveryError::DirectMessagesClosed);
        }
        let gate = *self.chats_wait_for_dms.lock().unwrap();
        if let (Some(before), Target::Chat(_)) = (gate, &reply.target) {
            let mut waited = 0;
            while self.dms_sent() <= before {
                if waited == 300 {
                    return Err(DeliveryError::Failed("no direct message went out meanwhile".into()));
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
                waited += 1;
            }
        }
        if reply.animation.is_some() && *self.hold_animations.lock().unwrap() {
            self.animations_held.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            for _ in 0..1000 {
                if !*self.hold_animations.lock().unwrap() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
        self.seen.lock().unwrap().push(reply.clone());
        Ok(Receipt {
            message_id: Some(format!("m{}", self.seen.lock().unwrap().len())),
            thread_id: None,
            shows_once_if_repeated: self.shows_once.load(std::sync::atomic::Ordering::SeqCst),
        })
    }
}

fn say(platform: &str, who: &str, text: &str) -> Input {
    let mentions = text.split_whitespace().filter_map(|w| w.strip_prefix('@')).map(|n| UserRef::new(n, n)).collect();
    Input::text(Scope::chat(platform, "main"), UserRef::new(who, who), text).with_mentions(mentions)
}

fn host_with(dir: &std::path::Path, clock: Arc<ManualClock>) -> Arc<Host> {
    host_configured(dir, clock, HostConfig::default())
}

/// Two hosts on one database, as two processes are, each with a front end of its platform.
fn two_processes(
    dir: &std::path::Path,
    clock: &Arc<ManualClock>,
    platforms: [&'static str; 2],
) -> [(Arc<Host>, Arc<Recorder>); 2] {
    platforms.map(|platform| {
        let (host, seen) = (host_with(dir, clock.clone()), Recorder::new(platform, true, &[]));
        host.register(seen.clone());
        (host, seen)
    })
}

/// [`host_with`] with other host settings (one AI thread, no scheduler ticks of its own).
fn host_configured(dir: &std::path::Path, clock: Arc<ManualClock>, config: HostConfig) -> Arc<Host> {
    let bot = Bot::new(
        Store::open(dir.join("h.db")).unwrap(),
        clock,
        Arc::new(FirstLegalMove),
        BotConfig { pictures: false, ..BotConfig::default() },
    );
    Host::new(Arc::new(bot), HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600), ..config })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_go_to_dms_where_the_front_end_has_them_and_to_the_chat_where_not() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let host = host_with(dir.path(), clock.clone());
    let with_dms = Recorder::new("chatnet", true, &["dora"]);
    let without = Recorder::new("console", false, &[]);
    host.register(with_dms.clone());
    host.register(without.clone());
    for p in ["chatnet", "console"] {
        host.handle(say(p, "alice", "!challenge @bob chess days:1 color:white")).await.unwrap();
        host.handle(say(p, "bob", "!accept")).await.unwrap();
        host.handle(say(p, "alice", "e4")).await.unwrap();
    }
    // A third game on chatnet whose player has closed direct messages.
    host.handle(say("chatnet", "carl", "!challenge @dora chess days:1 color:white")).await.unwrap();
    host.handle(say("chatnet", "dora", "!accept")).await.unwrap();
    host.handle(say("chatnet", "carl", "e4")).await.unwrap();
    clock.advance(20 * 3600);
    host.tick().await;
    let dm = with_dms.texts();
    assert!(dm.iter().any(|(w, t)| w == "dm:bob" && t.contains("reminder")), "{dm:?}");
    assert!(dm.iter().any(|(w, t)| w == "dm:bob" && t.contains("Your move in game #1")), "{dm:?}");
    assert!(
        dm.iter().any(|(w, t)| w == "chat:main" && t.contains("reminder") && t.contains("dora")),
        "closed DMs fall back: {dm:?}"
    );
    let plain = without.texts();
    assert!(plain.iter().any(|(w, t)| w == "chat:main" && t.contains("reminder") && t.contains("bob")), "{plain:?}");
    assert!(plain.iter().all(|(w, _)| w.starts_with("chat:")), "{plain:?}");
    // The your-move notice repeats the chat's move announcement: without DMs it is not sent at all.
    assert!(!plain.iter().any(|(_, t)| t.contains("Your move")), "{plain:?}");
}

/// A reply's chats are delivered side by side: a channel slow to take the move's answer (Discord
/// busy there, its retries waiting) does not hold back the opponent's direct message. (CI saw the
/// direct message wait behind a channel's three 503s, long enough to meet a closed DM.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_chat_does_not_hold_back_the_direct_messages_of_the_same_reply() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let fe = Recorder::new("chatnet", true, &[]);
    host.register(fe.clone());
    host.handle(say("chatnet", "alice", "!challenge @bob chess days:1 color:white")).await.unwrap();
    host.handle(say("chatnet", "bob", "!accept")).await.unwrap();
    // Alice's move: its answer in the chat waits until Bob's your-move message went out.
    *fe.chats_wait_for_dms.lock().unwrap() = Some(fe.dms_sent());
    host.handle(say("chatnet", "alice", "e4")).await.unwrap();
    let texts = fe.texts();
    let dm = texts.iter().position(|(w, t)| w == "dm:bob" && t.contains("Your move")).expect("Bob told");
    let answer = texts.iter().position(|(w, t)| w == "chat:main" && t.contains("e4")).expect("the move answered");
    assert!(dm < answer, "{texts:?}");
}

/// A game's animation goes out in a lane of its own beside its chat: while it is drawn or sent
/// (here its upload hangs), the chat's other answers go out, in their order. (Before, the chat's
/// every later answer waited behind it: seconds on a busy machine, `docs/load.md`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chats_answers_do_not_wait_for_an_animation() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let bot =
        Bot::new(Store::open(dir.path().join("h.db")).unwrap(), clock, Arc::new(FirstLegalMove), BotConfig::default());
    let config = HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600), ..HostConfig::default() };
    let host = Host::new(Arc::new(bot), config);
    let fe = Recorder::new("chatnet", true, &[]);
    host.register(fe.clone());
    host.handle(say("chatnet", "alice", "!challenge @bob chess days:1 color:white")).await.unwrap();
    host.handle(say("chatnet", "bob", "!accept")).await.unwrap();
    host.handle(say("chatnet", "alice", "e4")).await.unwrap();
    *fe.hold_animations.lock().unwrap() = true;
    let gif = tokio::spawn({
        let host = host.clone();
        async move { host.handle(say("chatnet", "alice", "!gif")).await }
    });
    // Drawn on the animations' thread, at the idle scheduling policy: beside other programs keeping
    // both cores busy it gets only the time they leave (this test 2.3 s beside two busy loops, 0.4 s
    // alone; the Discord test's analysis 100 s, 2.7 s alone): up to 150 s, not 10.
    for _ in 0..15_000 {
        if fe.animations_held.load(std::sync::atomic::Ordering::SeqCst) > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(fe.animations_held.load(std::sync::atomic::Ordering::SeqCst), 1, "the animation is being sent");
    let e5 = tokio::time::timeout(Duration::from_secs(5), host.handle(say("chatnet", "bob", "e5"))).await;
    assert!(e5.is_ok(), "Bob's move answered while the animation hangs");
    let answered = |texts: &[(String, String)]| texts.iter().any(|(w, t)| w == "chat:main" && t.contains("e5"));
    assert!(answered(&fe.texts()), "{:?}", fe.texts());
    assert!(!gif.is_finished());
    *fe.hold_animations.lock().unwrap() = false;
    gif.await.unwrap().unwrap();
    let seen = fe.seen.lock().unwrap().clone();
    let sent = seen.iter().position(|r| r.animation.is_some()).expect("the animation went out");
    let e5_at = seen.iter().position(|r| r.text.contains("e5")).expect("e5");
    assert!(e5_at < sent, "Bob's move went out first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_moves_are_played_through_the_pool_and_inputs_stop_at_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let fe = Recorder::new("chatnet", true, &[]);
    host.register(fe.clone());
    host.handle(say("chatnet", "erin", "!play chess color:black")).await.unwrap();
    host.handle(say("chatnet", "erin", "!move e5")).await.ok();
    let texts = fe.texts();
    assert!(texts.iter().any(|(_, t)| t.contains("1. ") && t.contains("played by capabot")), "{texts:?}");
    host.shutdown(Duration::from_secs(5)).await;
    assert!(host.handle(say("chatnet", "erin", "!board")).await.is_err(), "no input after shutdown");
}

/// An analysis through the host: its progress message first, then the result in place of it (the
/// result's slot names the message the front end sent), and an AI move asked for meanwhile is not
/// held back until the analysis ends: the analysis takes the one AI thread a position at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_replaces_its_progress_message_and_lets_ai_moves_through() {
    let dir = tempfile::tempdir().unwrap();
    let bot = Bot::new(
        Store::open(dir.path().join("h.db")).unwrap(),
        Arc::new(ManualClock::new(T0)),
        Arc::new(FirstLegalMove),
        // Enough nodes that the analysis takes seconds (its blunders are looked at twice more, the
        // last time with 9 times the nodes).
        BotConfig { pictures: false, analysis_nodes: 120_000, ..BotConfig::default() },
    );
    let host = Host::new(
        Arc::new(bot),
        // Progress shown after every position (at most: an unchanged count is not shown again).
        HostConfig {
            ai_threads: 1,
            tick_every: Duration::from_secs(3600),
            analysis_progress_every: Duration::ZERO,
            ..HostConfig::default()
        },
    );
    let fe = Recorder::new("chatnet", true, &[]);
    host.register(fe.clone());
    host.handle(say("chatnet", "alice", "!challenge @bob chess color:white")).await.unwrap();
    host.handle(say("chatnet", "bob", "!accept")).await.unwrap();
    for (who, m) in [("alice", "e4"), ("bob", "e5"), ("alice", "Qh5"), ("bob", "Nc6")] {
        host.handle(say("chatnet", who, m)).await.unwrap();
    }
    for (who, m) in [("alice", "Bc4"), ("bob", "Nf6"), ("alice", "Qxf7#")] {
        host.handle(say("chatnet", who, m)).await.unwrap();
    }
    let analysing = {
        let host = host.clone();
        tokio::spawn(async move { host.handle(say("chatnet", "carol", "!analyse #1")).await })
    };
    let shown = |what: &str| fe.texts().iter().position(|(_, t)| t.contains(what));
    for _ in 0..500 {
        if shown("Analysing game #1").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let progress = shown("Analysing game #1").expect("the progress message");
    // Meanwhile carol plays capabot: its answer comes while the analysis still runs.
    host.handle(say("chatnet", "carol", "!play chess color:white")).await.unwrap();
    host.handle(say("chatnet", "carol", "e4")).await.unwrap();
    let ai_move = fe.texts().iter().position(|(_, t)| t.contains("#2") && t.contains("1..."));
    assert!(ai_move.is_some(), "{:?}", fe.texts());
    assert!(shown("Analysis of game #1").is_none(), "the AI move waited for the whole analysis: {:?}", fe.texts());
    analysing.await.unwrap().unwrap();
    let result = shown("Analysis of game #1").expect("the result");
    assert!(result > progress);
    // The progress message was replaced every few seconds (this front end sends anew and names each
    // message): the result replaces the last one.
    let last_progress = fe.texts().iter().rposition(|(_, t)| t.contains("Analysing game #1")).expect("progress");
    assert!(last_progress < result);
    // Each count is shown once: while the blunders are looked at again the count stands still,
    // and the message is not edited again with the same words.
    let steps: Vec<String> =
        fe.texts().into_iter().map(|(_, t)| t).filter(|t| t.contains("Analysing game #1")).collect();
    assert!(steps.len() >= 3, "{steps:?}");
    assert!(steps.windows(2).all(|w| w[0] != w[1]), "a count shown twice: {steps:?}");
    let seen = fe.seen.lock().unwrap();
    let slot = seen[result].slot.as_ref().expect("the result replaces the progress message");
    assert_eq!(slot.previous.as_deref(), Some(format!("m{}", last_progress + 1).as_str()));
    assert_eq!(host.bot().analyses_running(), 0);
}

/// A chat's delivery lease across processes: while another process holds it, the chat's replies
/// wait (nothing is delivered twice, nothing out of turn); once it is free they go out, and the
/// drain that delivered them gives the lease up with its last look at the chat, so that another
/// process may deliver there at once instead of waiting for the lease to run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_drain_waits_for_another_process_s_lease_and_gives_its_own_up_when_done() {
    use capabot::bot::outbox::chat_key;
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let seen = Recorder::new("chatnet", true, &[]);
    host.register(seen.clone());
    let key = chat_key(&Target::Chat(Scope::chat("chatnet", "main")));
    let bot = host.bot().clone();
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "a free chat is leased");

    host.handle(say("chatnet", "alice", "!help")).await.unwrap();
    assert!(seen.texts().is_empty(), "delivered under another process's lease: {:?}", seen.texts());
    assert!(!host.drain_chat("chatnet", &key).await, "the rows wait for the lease");

    bot.outbox_release("chatnet", &key, "another process");
    assert!(host.drain_chat("chatnet", &key).await, "drained once the lease is free");
    let texts = seen.texts();
    assert_eq!(texts.len(), 1, "the help, once: {texts:?}");
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "the drain kept its lease after it was done");

    // A drain that finds nothing to deliver keeps no lease either.
    bot.outbox_release("chatnet", &key, "another process");
    assert!(host.drain_chat("chatnet", &key).await, "nothing waits");
    assert_eq!(seen.texts().len(), 1, "the help was recorded as sent: not delivered again");
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "a drain that found nothing kept the lease");
}

/// Three inputs answered in one chat of `host`, one after another: the units of work each cost,
/// the delivery's bookkeeping included (SQLite's count).
async fn three_answers_units(host: &Arc<Host>, seen: &Recorder) -> Vec<u64> {
    let bot = host.bot().clone();
    let units = || bot.store().sqlite_commits().expect("SQLite").1;
    let mut spent = Vec::new();
    for who in ["alice", "bob", "alice"] {
        let before = units();
        host.handle(say("chatnet", who, "!help")).await.unwrap();
        spent.push(units() - before);
    }
    assert_eq!(seen.texts().len(), 3, "{:?}", seen.texts());
    spent
}

/// The writer's drain keeps the chat's lease after its last row: the chat's next answer (a game's
/// next move) is delivered without writing the lease again (one unit of work fewer), nobody else
/// delivers the chat meanwhile, and the lease is given up once the chat has been quiet a while, or
/// at shutdown.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_keeps_its_chats_lease_while_the_chat_is_busy_and_gives_it_up_when_quiet() {
    use capabot::bot::outbox::chat_key;
    let key = chat_key(&Target::Chat(Scope::chat("chatnet", "main")));
    let dir = tempfile::tempdir().unwrap();
    let config = HostConfig { lease_kept_quiet: Duration::from_secs(3600), ..HostConfig::default() };
    let host = host_configured(dir.path(), Arc::new(ManualClock::new(T0)), config);
    let seen = Recorder::new("chatnet", true, &[]);
    host.register(seen.clone());
    let bot = host.bot().clone();
    let spent = three_answers_units(&host, &seen).await;
    // The input, the lease taken with the rows, the row sent with the last look; then no lease.
    assert_eq!(spent, [3, 2, 2], "units of work an answer");
    assert!(!bot.outbox_lease("chatnet", &key, "another process"), "kept by the writer");
    host.shutdown(Duration::from_secs(10)).await;
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "given up at shutdown");
    bot.outbox_release("chatnet", &key, "another process");

    // With the default quiet time: given up a moment after the last answer.
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let seen = Recorder::new("chatnet", true, &[]);
    host.register(seen.clone());
    let bot = host.bot().clone();
    host.handle(say("chatnet", "alice", "!help")).await.unwrap();
    assert_eq!(seen.texts().len(), 1);
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while !bot.outbox_lease("chatnet", &key, "another process") {
        assert!(std::time::Instant::now() < until, "the kept lease was never given up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Free again: the next answer takes it again.
    bot.outbox_release("chatnet", &key, "another process");
    host.handle(say("chatnet", "bob", "!help")).await.unwrap();
    assert_eq!(seen.texts().len(), 2, "{:?}", seen.texts());
}

/// A host whose writer keeps its chats' leases and leaves its deliveries to be written down for an
/// hour, with a front end of `chatnet` whose deliveries show once if made again.
fn host_writing_down_later(dir: &std::path::Path) -> (Arc<Host>, Arc<Recorder>) {
    let hour = Duration::from_secs(3600);
    let config = HostConfig { lease_kept_quiet: hour, lease_keeper_every: hour, ..HostConfig::default() };
    let host = host_configured(dir, Arc::new(ManualClock::new(T0)), config);
    let seen = Recorder::new("chatnet", true, &[]);
    seen.shows_once.store(true, std::sync::atomic::Ordering::SeqCst);
    host.register(seen.clone());
    (host, seen)
}

/// Under its kept lease the writer leaves a delivery that shows once if made again to be written
/// down a moment later, with the others of that moment (one unit of work fewer for each answer):
/// until then its looks at the chat leave the row out, nobody else may lease the chat, another
/// drain writes them down before it looks, and shutdown writes down what is left. A delivery that
/// would show twice is written down at once, as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_writes_down_deliveries_that_show_once_a_moment_later_and_never_delivers_them_twice() {
    use capabot::bot::outbox::chat_key;
    let key = chat_key(&Target::Chat(Scope::chat("chatnet", "main")));
    let dir = tempfile::tempdir().unwrap();
    let (host, seen) = host_writing_down_later(dir.path());
    let bot = host.bot().clone();
    let spent = three_answers_units(&host, &seen).await;
    // The input and the lease taken with the rows; then the input alone (with a delivery that
    // would show twice: 3, 2, 2).
    assert_eq!(spent, [2, 1, 1], "units of work an answer");
    let rows: Vec<i64> = seen.seen.lock().unwrap().iter().map(|r| r.outbox_id.expect("a row")).collect();
    assert!(rows.iter().all(|&id| bot.outbox_is_pending(id)), "not written down yet");
    assert!(!bot.outbox_lease("chatnet", &key, "another process"), "kept by the writer");
    // Another drain of the chat writes them down first, and delivers none of them again.
    host.drain_chat("chatnet", &key).await;
    assert_eq!(seen.texts().len(), 3, "{:?}", seen.texts());
    assert!(rows.iter().all(|&id| !bot.outbox_is_pending(id)), "written down by the drain");

    // Shutdown writes down what is left and gives the lease up.
    host.handle(say("chatnet", "bob", "!help")).await.unwrap();
    let last = seen.seen.lock().unwrap().last().and_then(|r| r.outbox_id).expect("a row");
    assert!(bot.outbox_is_pending(last));
    host.shutdown(Duration::from_secs(10)).await;
    assert_eq!(seen.texts().len(), 4, "{:?}", seen.texts());
    assert!(!bot.outbox_is_pending(last), "written down at shutdown");
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "given up at shutdown");

    // With the default keeper: written down, and the lease given up, a moment after the answer.
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let seen = Recorder::new("chatnet", true, &[]);
    seen.shows_once.store(true, std::sync::atomic::Ordering::SeqCst);
    host.register(seen.clone());
    let bot = host.bot().clone();
    host.handle(say("chatnet", "alice", "!help")).await.unwrap();
    let row = seen.seen.lock().unwrap()[0].outbox_id.expect("a row");
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while bot.outbox_is_pending(row) || !bot.outbox_lease("chatnet", &key, "another process") {
        assert!(std::time::Instant::now() < until, "never written down and given up");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(seen.texts().len(), 1);
}

/// Under its kept lease the writer delivers a unit's answers as the unit wrote them, without
/// reading them back from the outbox, when nothing else waits in the chat (each delivered once, in
/// order); a row waiting beside them (another process's, here written without this host) is read
/// and goes first, and the answer after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_delivers_its_answers_as_written_unless_another_row_waits_in_their_chat() {
    let dir = tempfile::tempdir().unwrap();
    let (host, seen) = host_writing_down_later(dir.path());
    let bot = host.bot().clone();
    let mut read = Vec::new();
    for who in ["alice", "bob", "alice"] {
        let before = bot.outbox_rows_read();
        host.handle(say("chatnet", who, "!help")).await.unwrap();
        read.push(bot.outbox_rows_read() - before);
    }
    // The first answer is read with the lease it takes; the next two are delivered as written.
    assert_eq!(read, [1, 0, 0], "rows read back an answer");
    let other = bot.handle(&say("chatnet", "carol", "!variants"));
    assert!(other.queued);
    let before = bot.outbox_rows_read();
    host.handle(say("chatnet", "bob", "!help")).await.unwrap();
    // The look reads every waiting row: the three answers delivered and not yet written down (left
    // out of the delivery), the row beside the answer and the answer.
    assert_eq!(bot.outbox_rows_read() - before, 5, "rows read back with a row beside the answer");
    let seen = seen.seen.lock().unwrap().clone();
    let texts: Vec<&str> = seen.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(texts.len(), 5, "{texts:?}");
    assert_eq!(texts[3], other.replies[0].text, "the waiting row first");
    assert_eq!(texts[4], texts[1], "then the answer");
    let unkeyed = |r: &Reply| Reply { outbox_id: None, ..r.clone() };
    assert_eq!(unkeyed(&seen[2]), unkeyed(&seen[0]), "an answer as written is the answer read back");
    let ids: Vec<i64> = seen.iter().map(|r| r.outbox_id.expect("a row's id")).collect();
    assert!(ids.is_sorted() && ids.windows(2).all(|w| w[0] < w[1]), "each row once, in order: {ids:?}");
}

/// Several processes on one database (issue 47, `lab bench-shards`): a process whose drainer
/// delivers a chat's older rows holds the chat's lease for a moment. An input answered then in
/// that chat by another process is answered by that process (Delivery::Done, as the answer to its
/// interaction on Discord) once the lease is given up, not left to the drainer ("Discord is busy");
/// and the drainer's drain delivers only the rows that were due, leaving a row just written to its
/// writer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_writer_waits_for_another_processs_drain_and_the_drainer_leaves_it_the_new_rows() {
    use capabot::bot::outbox::chat_key;
    use capabot::host::Delivery;
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let [(a, seen_a), (b, seen_b)] = two_processes(dir.path(), &clock, ["chatnet", "chatnet"]);
    let key = chat_key(&Target::Chat(Scope::chat("chatnet", "main")));

    // Another process delivers the chat now, and is done in a moment.
    let bot = a.bot().clone();
    assert!(bot.outbox_lease("chatnet", &key, "another process"));
    let (releasing, k) = (bot.clone(), key.clone());
    let release = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        tokio::task::spawn_blocking(move || releasing.outbox_release("chatnet", &k, "another process")).await.unwrap();
    });
    assert_eq!(a.handle(say("chatnet", "alice", "!help")).await.unwrap(), Delivery::Done, "a answers it itself");
    release.await.unwrap();
    assert_eq!(seen_a.texts().len(), 1, "{:?}", seen_a.texts());

    // An older row that is due (written by a process that died) and one just written behind it.
    assert!(bot.handle(&say("chatnet", "alice", "!help")).queued);
    clock.advance(60);
    assert!(bot.handle(&say("chatnet", "bob", "!help")).queued);
    b.start_drainer();
    let until = std::time::Instant::now() + Duration::from_secs(10);
    while seen_b.texts().is_empty() {
        assert!(std::time::Instant::now() < until, "b's drainer delivers the due row");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The drain is over once the lease is free again.
    while !bot.outbox_lease("chatnet", &key, "a look") {
        assert!(std::time::Instant::now() < until, "b's drain ends");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bot.outbox_release("chatnet", &key, "a look");
    assert_eq!(seen_b.texts().len(), 1, "b delivered the due row only: {:?}", seen_b.texts());
    assert!(a.drain_chat("chatnet", &key).await);
    assert_eq!(seen_a.texts().len(), 2, "the new row is its writer's to deliver: {:?}", seen_a.texts());
    a.stopping().cancel();
    b.stopping().cancel();
}

/// The last row of a drain's batch is recorded as sent in the unit that looks at the chat again:
/// that look sees the rows behind it and never the row itself, and gives the lease up once the
/// chat is empty.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_last_row_sent_and_the_next_look_are_one_unit() {
    use capabot::bot::outbox::chat_key;
    let dir = tempfile::tempdir().unwrap();
    let host = host_with(dir.path(), Arc::new(ManualClock::new(T0)));
    let bot = host.bot().clone();
    let key = chat_key(&Target::Chat(Scope::chat("chatnet", "main")));
    // Queued by the core alone (no front end drains them).
    for _ in 0..2 {
        assert!(bot.handle(&say("chatnet", "alice", "!help")).queued);
    }
    let me = ("chatnet", key.as_str(), "this process");
    let rows = bot.outbox_take("chatnet", &key, "this process", 16).expect("leased");
    let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
    assert_eq!(ids.len(), 2, "both helps wait");
    let receipt = Receipt { message_id: Some("m1".into()), thread_id: None, ..Receipt::default() };
    let give_up = capabot::store::outbox::WhenEmpty::GiveUp;
    let next =
        bot.outbox_sent_and_next(rows[0].id, &rows[0].reply, &receipt, me, 16, give_up).expect("the database answers");
    assert_eq!(next.iter().map(|r| r.id).collect::<Vec<_>>(), ids[1..], "the row sent is not read again");
    assert!(!bot.outbox_lease("chatnet", &key, "another process"), "rows wait: the lease is kept");
    let next =
        bot.outbox_sent_and_next(rows[1].id, &rows[1].reply, &receipt, me, 16, give_up).expect("the database answers");
    assert!(next.is_empty(), "{next:?}");
    assert!(bot.outbox_lease("chatnet", &key, "another process"), "the chat is empty: the lease was given up");
    assert!(!bot.outbox_is_pending(ids[0]) && !bot.outbox_is_pending(ids[1]), "both recorded as sent");
}

/// A process does only what it can deliver: its scheduler handles the games of the platforms it
/// has front ends for, and leaves another platform's loss on time to a process that serves it
/// (which then announces it there), instead of writing an announcement nobody here can deliver.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_scheduler_leaves_the_games_of_platforms_it_does_not_serve() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let [(here, chatnet), (there, othernet)] = two_processes(dir.path(), &clock, ["chatnet", "othernet"]);
    for (host, p) in [(&here, "chatnet"), (&there, "othernet")] {
        host.handle(say(p, "alice", "!challenge @bob chess days:1 color:white")).await.unwrap();
        host.handle(say(p, "bob", "!accept")).await.unwrap();
        // Both sides move (before that, running out of time aborts a game).
        host.handle(say(p, "alice", "e4")).await.unwrap();
        host.handle(say(p, "bob", "e5")).await.unwrap();
    }
    let status = |platform: &str| {
        let conn = here.bot().store().conn().unwrap();
        conn.query_row("SELECT status FROM games WHERE platform = ?1", [platform], |r| r.get::<String>(0)).unwrap()
    };
    // A day and an hour: the deadlines passed, but not a window (a day) ago, after which any
    // process would take othernet's (`a_platform_nobody_serves_has_its_games_decided_by_another_process`).
    clock.advance(25 * 3600);
    here.tick().await;
    let timed_out = |r: &Recorder| r.texts().iter().filter(|(_, t)| t.contains("ran out of time")).count();
    assert_eq!(timed_out(&chatnet), 1, "{:?}", chatnet.texts());
    assert_eq!(status("chatnet"), "finished");
    assert_eq!(status("othernet"), "active", "left to the process that serves othernet");
    assert_eq!(timed_out(&othernet), 0);
    there.tick().await;
    assert_eq!(status("othernet"), "finished");
    assert_eq!(timed_out(&othernet), 1, "{:?}", othernet.texts());
    assert_eq!(timed_out(&chatnet), 1, "announced once");
}

/// A platform whose process stopped for good does not keep its games waiting for ever (issue 44
/// §2): once nobody has served it for a day (`[host] unserved_expiry_hours`) and a game's move time
/// ran out a day ago, the other process's scheduler decides the game (rated, as the platform's own
/// process would have), writes its announcement into the outbox for that platform, never to its
/// own front end, and a day later expires it, kept as failed. Before the day nothing is touched.
/// (Before: the game stayed active and its players' ratings unchanged for ever.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_platform_nobody_serves_has_its_games_decided_by_another_process() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let here = host_with(dir.path(), clock.clone());
    let chatnet = Recorder::new("chatnet", true, &[]);
    here.register(chatnet.clone());
    let there = host_with(dir.path(), clock.clone());
    let othernet = Recorder::new("othernet", true, &[]);
    there.register(othernet.clone());
    there.handle(say("othernet", "alice", "!challenge @bob chess days:1 color:white")).await.unwrap();
    there.handle(say("othernet", "bob", "!accept")).await.unwrap();
    there.handle(say("othernet", "alice", "e4")).await.unwrap();
    there.handle(say("othernet", "bob", "e5")).await.unwrap();
    there.handle(say("othernet", "alice", "Nf3")).await.unwrap();
    // othernet's process ticks for the last time (it reminds bob), then stops for good.
    clock.advance(20 * 3600);
    there.tick().await;
    assert!(othernet.texts().iter().any(|(_, t)| t.contains("reminder")), "{:?}", othernet.texts());
    there.shutdown(Duration::from_secs(5)).await;
    let query = |sql: &str| {
        let conn = here.bot().store().conn().unwrap();
        conn.query_row(sql, (), |r| r.get::<i64>(0)).unwrap()
    };
    let active = "SELECT count(*) FROM games WHERE platform = 'othernet' AND status = 'active'";
    let waiting = "SELECT count(*) FROM outbox WHERE platform = 'othernet' AND state = 'pending'";
    // The deadline (a day after e4) passed not yet a day ago: left alone.
    clock.advance(28 * 3600 - 1);
    here.tick().await;
    assert_eq!(query(active), 1);
    // A day after it: decided here, announced into othernet's outbox only.
    clock.advance(1);
    here.tick().await;
    assert_eq!(query(active), 0, "decided by the process that serves chatnet");
    let ended = "SELECT count(*) FROM games WHERE platform = 'othernet' AND termination = 'timeout'";
    assert_eq!(query(ended), 1);
    assert!(query("SELECT count(*) FROM ratings WHERE games = 1") >= 2, "rated for both players");
    assert!(chatnet.texts().is_empty(), "nothing of othernet's went to chatnet: {:?}", chatnet.texts());
    let announced = query(waiting);
    assert!(announced > 0, "the announcement waits for a process that serves othernet");
    // A day later still nobody serves othernet: the announcement expires, kept as failed.
    clock.advance(24 * 3600);
    here.tick().await;
    assert_eq!(query(waiting), 0);
    let expired = "SELECT count(*) FROM outbox WHERE platform = 'othernet' AND failure = 'expired'";
    assert!(query(expired) >= announced, "kept, counted as expired");
}

/// The AI's moves owed at start are played by the process that serves their platform, each
/// platform's once its front end is registered: a host whose first front end resumes them leaves
/// another platform's games for when that one's front end comes (in `capabot run` Discord and
/// Matrix connect one after the other; before, the first to connect resumed every platform's).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ais_owed_moves_are_resumed_per_platform_as_front_ends_come() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    {
        // A process that stopped with the AI to move in two platforms' games.
        let config = BotConfig { pictures: false, ..BotConfig::default() };
        let store = Store::open(dir.path().join("h.db")).unwrap();
        let bot = Bot::new(store, clock.clone(), Arc::new(capabot::bot::NoAi), config);
        for platform in ["chatnet", "othernet"] {
            bot.handle(&say(platform, "alice", "!play chess color:white"));
            assert_eq!(bot.handle(&say(platform, "alice", "e4")).ai_jobs.len(), 1);
        }
    }
    let host = host_with(dir.path(), clock.clone());
    let ply = |platform: &str| {
        let conn = host.bot().store().conn().unwrap();
        conn.query_row("SELECT ply FROM games WHERE platform = ?1", [platform], |r| r.get::<i64>(0)).unwrap()
    };
    let (chatnet, othernet) = (Recorder::new("chatnet", true, &[]), Recorder::new("othernet", true, &[]));
    host.register(chatnet.clone());
    host.resume_ai_and_wait().await;
    assert_eq!((ply("chatnet"), ply("othernet")), (2, 1), "only the registered platform's game moved");
    host.resume_ai_and_wait().await;
    assert_eq!(ply("chatnet"), 2, "resumed once");
    host.register(othernet.clone());
    host.resume_ai_and_wait().await;
    assert_eq!(ply("othernet"), 2);
    assert!(othernet.texts().iter().any(|(_, t)| t.contains("played by capabot")), "{:?}", othernet.texts());
}

/// Refusals are in the language the core answers their author in, like every other answer: a
/// flood in a chat set to Turkish is told to slow down in Turkish (the host used to answer in the
/// author's client language only, English where the platform says none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refusal_is_in_the_chats_language() {
    use capabot::host::limits::LimitConfig;
    let dir = tempfile::tempdir().unwrap();
    let limits = LimitConfig { user_burst: 3, user_per_minute: 3, ..LimitConfig::default() };
    let config = HostConfig { limits: Some(limits), ..HostConfig::default() };
    let host = host_configured(dir.path(), Arc::new(ManualClock::new(T0)), config);
    let seen = Recorder::new("chatnet", true, &[]);
    host.register(seen.clone());
    host.handle(say("chatnet", "alice", "!settings lang:tr").as_admin(true)).await.unwrap();
    for _ in 0..5 {
        host.handle(say("chatnet", "carl", "!games")).await.unwrap();
    }
    let texts = seen.texts();
    let told: Vec<&String> =
        texts.iter().map(|(_, t)| t).filter(|t| t.contains("yavaş") || t.contains("Slow")).collect();
    assert_eq!(told.len(), 1, "told once: {texts:?}");
    assert!(told[0].contains("Biraz yavaş lütfen"), "in the chat's language: {told:?}");
}

/// A correspondence game through the host, with pictures, on a platform without direct messages:
/// each move writes its answer to the chat and a turn notice to the opponent's direct messages,
/// which settles there without showing anything. Once each chat's lease is taken, a move costs
/// its own unit of work alone: both deliveries are written down later, together.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_move_through_the_host_is_one_unit_of_work_once_its_chats_are_leased() {
    let dir = tempfile::tempdir().unwrap();
    let hour = Duration::from_secs(3600);
    let bot = Bot::new(
        Store::open(dir.path().join("h.db")).unwrap(),
        Arc::new(capabot::bot::SystemClock),
        Arc::new(FirstLegalMove),
        BotConfig::default(),
    );
    let config =
        HostConfig { ai_threads: 1, lease_kept_quiet: hour, lease_keeper_every: hour, ..HostConfig::default() };
    let host = Host::new(Arc::new(bot), config);
    let seen = Recorder::new("chatnet", false, &[]);
    seen.shows_once.store(true, std::sync::atomic::Ordering::SeqCst);
    host.register(seen.clone());
    let bot = host.bot().clone();
    let units = || bot.store().sqlite_commits().expect("SQLite").1;
    host.handle(say("chatnet", "alice", "!challenge @bob chess color:white days:7")).await.unwrap();
    host.handle(say("chatnet", "bob", "!accept")).await.unwrap();
    let mut spent = Vec::new();
    for (who, san) in [("alice", "e4"), ("bob", "e5"), ("alice", "Nf3"), ("bob", "Nc6")] {
        let before = units();
        host.handle(say("chatnet", who, san).with_event_id(format!("move {san}"))).await.unwrap();
        spent.push(units() - before);
        let last = seen.texts().last().cloned().unwrap_or_default().1;
        assert!(last.contains(&format!("{san} played by {who}")), "{last}");
        assert!(seen.seen.lock().unwrap().last().is_some_and(|r| r.png.is_some()), "with its picture");
    }
    // The first move to each player's direct messages takes that chat's lease.
    assert_eq!(spent, [2, 2, 1, 1], "units of work a move");
    host.shutdown(Duration::from_secs(10)).await;
    let counts = capabot::store::outbox::counts(&bot.store().conn().unwrap()).unwrap();
    assert!(counts.iter().all(|(_, state, _)| state != "pending"), "all written down at shutdown: {counts:?}");
    // The challenge, the start, and two rows a move.
    assert!(counts.contains(&("chatnet".into(), "sent".into(), 10)), "{counts:?}");
}

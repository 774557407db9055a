//! Live game pages across processes on PostgreSQL (issue 47): two bots on one database, as two
//! `capabot` processes are, the pages served by the second one's host. A move committed by the
//! first reaches the second's open pages through PostgreSQL's notices (`store::changes`,
//! `host::listen`), with the pages' own poll an hour away; a unit rolled back tells nothing; a
//! listening connection that is cut is opened again.

use crate::common::{self, T0};
use capabot::bot::{Bot, BotConfig, FirstLegalMove, Input, ManualClock};
use capabot::host::changes::Heard;
use capabot::host::listen::Listening;
use capabot::host::{Host, HostConfig};
use capabot::web::{self, WebOptions};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A live page hears of another process's move within this (the figure).
const LIVE_WITHIN: Duration = Duration::from_secs(2);

/// Two processes on one database: `a` plays, `b` serves the pages.
struct TwoProcesses {
    a: Arc<Bot>,
    b: Arc<Host>,
    listening: Arc<Listening>,
    addr: SocketAddr,
    path: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for TwoProcesses {
    fn drop(&mut self) {
        self.b.stopping().cancel();
        // Never dropped: a store's PostgreSQL connections close by running a runtime of their
        // own, which cannot start on the test's (nor on the web's tasks, which may hold the last
        // reference). The test binary's server goes with the process.
        std::mem::forget(self.a.clone());
        std::mem::forget(self.b.clone());
    }
}

fn config() -> BotConfig {
    BotConfig { pictures: false, web_url: Some("https://chess.example.org".into()), ..BotConfig::default() }
}

/// A bot on the database at `path`, as another process's.
fn bot(path: &std::path::Path, config: BotConfig) -> Arc<Bot> {
    Arc::new(Bot::new(common::open_store(path), Arc::new(ManualClock::new(T0)), Arc::new(FirstLegalMove), config))
}

/// `text` said by `who` in `chat` of community `g`.
fn said(chat: &str, who: &str, text: &str, admin: bool) -> Input {
    let mut i = common::msg_in(chat, who, text).as_admin(admin);
    i.scope.community = Some("g".into());
    i
}

/// Runs `work` off the runtime: the sync PostgreSQL driver runs a runtime of its own, which cannot
/// start inside the test's (the host and the web run the core on the blocking pool likewise).
fn off_runtime<T>(work: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(work)
}

/// Waits (at most ten seconds: a bound, not a measurement) until `done` holds.
async fn eventually(what: &str, done: impl Fn() -> bool) {
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while !done() {
        assert!(tokio::time::Instant::now() < until, "{what}: not within ten seconds");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

impl TwoProcesses {
    async fn start() -> TwoProcesses {
        TwoProcesses::start_polling(Duration::from_secs(3600)).await
    }

    /// [`TwoProcesses::start`] with the pages polling every `fast` while b's listener is down
    /// (and every hour while it is up).
    async fn start_polling(fast: Duration) -> TwoProcesses {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = common::db_path(dir.path());
        let (a, b) = off_runtime(|| (bot(&path, config()), bot(&path, config())));
        let b = Host::new(b, HostConfig::default());
        let listening = b.hear_other_processes().expect("a listener on PostgreSQL");
        // While b listens the pages' own poll is an hour away: only a notice can bring another
        // process's move.
        let options = WebOptions {
            poll_every: fast,
            listening: Some(listening.clone()),
            poll_listening: Duration::from_secs(3600),
            ..WebOptions::live(b.changes())
        };
        let addr =
            web::serve(b.bot().clone(), "127.0.0.1:0".parse().unwrap(), options, b.stopping()).await.expect("serve");
        eventually("the listener listens", || listening.is_up()).await;
        TwoProcesses { a, b, listening, addr, path, _dir: dir }
    }

    /// `text` said to process `a`; its replies' text.
    fn say(&self, chat: &str, who: &str, text: &str) -> String {
        off_runtime(|| self.a.handle(&said(chat, who, text, who == "Admin")).text())
    }

    /// A chess game in chat `main` between alice (white) and bob, with e4 played; its address.
    fn game(&self) -> String {
        assert!(self.say("main", "Admin", "!settings community web:on").contains("saved"));
        self.say("main", "alice", "!challenge @bob chess color:white");
        assert!(self.say("main", "bob", "!accept").contains("starts"));
        assert!(self.say("main", "alice", "e4").contains("e4"));
        off_runtime(|| {
            let conn = self.a.store().conn().unwrap();
            let id: i64 = conn.query_row("SELECT max(id) FROM games", (), |r| r.get(0)).unwrap();
            capabot::store::games::slug(&conn, id).unwrap().expect("a web address")
        })
    }

    /// The game's event stream on `b`'s pages, opened as a page made at `ply` opens it.
    async fn stream(&self, slug: &str, ply: u32) -> reqwest::Response {
        let url = format!("http://{}/g/{slug}/events?ply={ply}", self.addr);
        let r = reqwest::Client::new().get(&url).send().await.expect("the server answers");
        assert_eq!(r.status(), 200, "{url}");
        assert_eq!(r.headers()["content-type"], "text/event-stream");
        r
    }
}

/// The ply of the stream's next `move` event if it comes within `within` (a bound); else `None`.
async fn next_move(stream: &mut reqwest::Response, within: Duration) -> Option<String> {
    common::next_sse(stream, "move", within).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_processs_move_is_on_the_live_page_within_two_seconds() {
    let two = TwoProcesses::start().await;
    let slug = two.game();
    let mut page = two.stream(&slug, 1).await;
    assert!(two.say("main", "bob", "e5").contains("e5"));
    assert_eq!(next_move(&mut page, LIVE_WITHIN).await.as_deref(), Some("2"), "a's move on b's page");
    assert!(two.say("main", "alice", "Nf3").contains("Nf3"));
    assert_eq!(next_move(&mut page, LIVE_WITHIN).await.as_deref(), Some("3"), "and the next one");

    // The listening connection cut (as a restart of the server's backend would): b listens
    // again on a new one, and a move made then is on the page in time again.
    two.cut_the_listener();
    eventually("b listens again", || two.listening.connects() >= 2 && two.listening.is_up()).await;
    assert!(two.say("main", "bob", "Nc6").contains("Nc6"));
    assert_eq!(next_move(&mut page, LIVE_WITHIN).await.as_deref(), Some("4"), "heard on the new connection");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_unit_rolled_back_tells_the_other_process_nothing() {
    let two = TwoProcesses::start().await;
    two.game();
    let mut feed = two.b.changes().follow();
    two.heard_up_to_now(&mut feed).await;
    // a's next unit fails at its commit: the move is not stored, and nothing may be told of it.
    two.a.store().fail_next_commits(1);
    let refused = two.say("main", "bob", "e5");
    assert!(!refused.contains("e5"), "{refused}");
    // Then a unit in another chat commits. Notices come in commit order: had the rolled-back
    // move told `main`, b would hear it first.
    two.next_heard_is_other(&mut feed).await;
}

/// A process with no web pages (no public address) tells nothing: the notices are for live pages,
/// and PostgreSQL commits the transactions that notify one at a time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_without_web_pages_tells_nothing() {
    let two = TwoProcesses::start().await;
    two.game();
    let quiet = off_runtime(|| bot(&two.path, BotConfig { web_url: None, ..config() }));
    let mut feed = two.b.changes().follow();
    two.heard_up_to_now(&mut feed).await;
    let moved = off_runtime(|| quiet.handle(&said("main", "bob", "e5", false)).text());
    assert!(moved.contains("e5"), "{moved}");
    two.next_heard_is_other(&mut feed).await;
    std::mem::forget(quiet);
}

/// While b listens its pages look at their games only every `poll_listening` (an hour here), not
/// at the fast pace: a move that told nothing (made by a process without web pages) is not found
/// by polling. When b loses its listening connection, its pages look again at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_poll_slowly_while_the_listener_is_up_and_look_again_when_it_is_lost() {
    let two = TwoProcesses::start_polling(Duration::from_millis(100)).await;
    let slug = two.game();
    let mut page = two.stream(&slug, 1).await;
    let quiet = off_runtime(|| bot(&two.path, BotConfig { web_url: None, ..config() }));
    let moved = off_runtime(|| quiet.handle(&said("main", "bob", "e5", false)).text());
    assert!(moved.contains("e5"), "{moved}");
    // Polling every 100 ms would find it ten times over in this second.
    assert_eq!(next_move(&mut page, Duration::from_secs(1)).await, None, "a poll while b listens");
    assert!(two.listening.is_up());
    two.cut_the_listener();
    assert_eq!(
        next_move(&mut page, LIVE_WITHIN).await.as_deref(),
        Some("2"),
        "looked again once the listener was lost"
    );
    std::mem::forget(quiet);
}

impl TwoProcesses {
    /// Ends b's listening connection (as a restart of the server's backend would).
    fn cut_the_listener(&self) {
        let cut = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                   WHERE application_name = 'capabot-listen' AND datname = current_database()";
        let killed: i64 = off_runtime(|| self.a.store().conn().unwrap().query_row(cut, (), |r| r.get(0)).unwrap());
        assert_eq!(killed, 1, "b's listening connection, and only it");
    }

    /// Waits until b has heard every notice a's units so far sent (setup's may still be on their
    /// way: b has heard them once it hears a later one).
    async fn heard_up_to_now(&self, feed: &mut capabot::host::changes::Follower) {
        assert!(self.say("sync", "carol", "!challenge @erin chess").contains("erin"));
        loop {
            let heard = tokio::time::timeout(Duration::from_secs(10), feed.next()).await.expect("b hears a's commits");
            if matches!(&heard, Heard::Chat(c) if c.chat == "sync") {
                break;
            }
        }
    }

    /// A unit of a's in chat `other` commits, and it is the next thing b hears: notices come in
    /// commit order, so a notice of anything committed before it would come first.
    async fn next_heard_is_other(&self, feed: &mut capabot::host::changes::Follower) {
        assert!(self.say("other", "carol", "!challenge @dave chess").contains("dave"));
        let heard = tokio::time::timeout(Duration::from_secs(10), feed.next()).await.expect("b hears a's commit");
        let Heard::Chat(c) = heard else { panic!("{heard:?}") };
        assert_eq!((c.platform.as_str(), c.community.as_deref(), c.chat.as_str()), ("test", Some("g"), "other"));
    }
}

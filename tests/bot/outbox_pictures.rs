//! Pictures in the outbox: a reply is stored with a description of its picture and no bytes, the
//! host draws it when delivering — after a restart too, the very picture the core would have drawn —
//! rows written before descriptions still deliver their bytes, and a secret bomb is marked only in
//! the description of a reply to its owner.

use crate::common::{T0, db_path, msg_in, open_store};
use async_trait::async_trait;
use capabot::bot::{
    Bot, BotConfig, Drawing, FirstLegalMove, Input, ManualClock, Receipt, Reply, Scope, Target, UserRef, board_png,
    game_gif,
};
use capabot::host::{DeliveryError, FrontEnd, Host, HostConfig};
use capabot::rules::{Color, Game, Position, variant};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A front end that keeps what it was handed.
#[derive(Default)]
struct Recorder {
    seen: Mutex<Vec<Reply>>,
}

#[async_trait]
impl FrontEnd for Recorder {
    fn platform(&self) -> &str {
        "test"
    }
    fn has_direct_messages(&self) -> bool {
        false
    }
    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        let mut seen = self.seen.lock().unwrap();
        seen.push(reply.clone());
        Ok(Receipt { message_id: Some(format!("m{}", seen.len())), ..Receipt::default() })
    }
}

fn bot_on(dir: &std::path::Path) -> Bot {
    let config = BotConfig { pictures: true, ..BotConfig::default() };
    Bot::new(open_store(&db_path(dir)), Arc::new(ManualClock::new(T0)), Arc::new(FirstLegalMove), config)
}

fn host_on(bot: Bot) -> (Arc<Host>, Arc<Recorder>) {
    let config = HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600), ..HostConfig::default() };
    let host = Host::new(Arc::new(bot), config);
    let recorder = Arc::new(Recorder::default());
    host.register(recorder.clone());
    (host, recorder)
}

/// Every outbox row: (chat key, the stored JSON, the picture's length beside it).
fn rows(bot: &Bot) -> Vec<(String, serde_json::Value, Option<i64>)> {
    let conn = bot.store().conn().unwrap();
    let mut st = conn.prepare_cached("SELECT chat_key, reply, length(picture) FROM outbox ORDER BY id").unwrap();
    // The reply as its JSON, however SQLite keeps it (deflated when shorter).
    let reply = |r: &capabot::store::sql::Row<'_>| capabot::store::outbox::reply_text(r.column(1)?, 1);
    st.query_map((), |r| Ok((r.get::<String>(0)?, reply(r)?, r.get::<Option<i64>>(2)?)))
        .unwrap()
        .map(|row| {
            let (key, json, picture) = row.unwrap();
            (key, serde_json::from_str(&json).unwrap(), picture)
        })
        .collect()
}

/// Chess after 1. e4 e5, with the moves.
fn after_e4_e5() -> Game {
    let mut game = Game::new(Position::start(&variant::CHESS));
    for (from, to) in [("e2", "e4"), ("e7", "e5")] {
        let m =
            game.position().legal_moves().into_iter().find(|m| m.from.to_string() == from && m.to.to_string() == to);
        assert!(game.play(m.unwrap()));
    }
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_are_stored_described_and_drawn_after_a_restart_as_the_core_would_have_drawn_them() {
    let dir = tempfile::tempdir().unwrap();
    let before = bot_on(dir.path());
    for (who, text) in [("alice", "!challenge @bob chess color:white"), ("bob", "!accept"), ("alice", "e4")] {
        assert!(before.handle(&msg_in("main", who, text)).queued, "{text}");
    }
    let moved = before.handle(&msg_in("main", "bob", "e5"));
    assert!(moved.text().contains("played by"), "{}", moved.text());
    assert!(moved.replies.iter().all(|r| r.png.is_none()), "the core draws nothing");
    assert!(before.handle(&msg_in("main", "alice", "!gif")).queued);

    // Stored: descriptions, no bytes, each row small.
    let stored = rows(&before);
    assert!(stored.iter().all(|(_, _, picture)| picture.is_none()), "no picture bytes in the outbox");
    let kinds: Vec<&str> = stored.iter().filter_map(|(_, v, _)| v["reply"]["drawing"]["kind"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "board").count(), 3, "the start and two moves: {kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "game").count(), 1, "{kinds:?}");
    for (_, v, _) in &stored {
        assert!(v.to_string().len() < 4096, "{v}");
    }
    // A board's description for screen readers and its text board are derived again when read.
    let (_, e5_row, _) =
        stored.iter().find(|(_, v, _)| v["reply"]["text"].as_str().unwrap().contains("played by bob")).unwrap();
    assert_eq!(e5_row["board_texts"], true, "{e5_row}");
    assert!(e5_row["reply"].get("alt_text").is_none() && e5_row["reply"].get("text_board").is_none(), "{e5_row}");
    assert!(e5_row.to_string().len() < 1024, "{e5_row}");
    let e5 = moved.replies.iter().find(|r| r.text.contains("played by bob")).unwrap();
    assert!(e5.alt_text.as_deref().unwrap().contains("Last move e7 to e5"), "{e5:?}");
    let game = after_e4_e5();
    let last = stored.iter().rev().find(|(_, v, _)| v["reply"]["drawing"]["kind"] == "board").unwrap();
    assert_eq!(last.1["reply"]["drawing"]["fen"], capabot::notation::fen::write(game.position()));

    // The process dies before delivering; the next one delivers from the outbox.
    drop(before);
    let (host, recorder) = host_on(bot_on(dir.path()));
    assert!(host.drain_chat("test", "c:main").await, "every row of the chat delivered");
    // The animation in its own lane beside the chat.
    let animations = format!("c:main{}", capabot::bot::outbox::ANIMATION_LANE);
    assert!(host.drain_chat("test", &animations).await, "the animation delivered");
    let seen = recorder.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), stored.len());
    let reply_to_e5 = seen.iter().find(|r| r.text.contains("played by bob")).unwrap();
    assert_eq!((&reply_to_e5.alt_text, &reply_to_e5.text_board), (&e5.alt_text, &e5.text_board));
    let direct = board_png(game.position(), game.moves().last().copied(), Color::White).unwrap();
    let drawn = crate::common::pixels(reply_to_e5.png.as_deref().expect("a picture"));
    assert!(drawn == crate::common::pixels(&direct), "the picture the core would have drawn");
    let animation = seen.iter().find(|r| r.animation.is_some()).unwrap();
    let Some(Drawing::Game(g)) = &animation.drawing else { panic!("{animation:?}") };
    let direct = game_gif(&game, "alice", "bob", None, g.viewer).unwrap();
    assert_eq!(animation.animation.as_deref(), Some(direct.as_slice()));
    assert!(animation.png.is_none(), "one picture a reply");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_row_written_with_picture_bytes_still_delivers_them() {
    let dir = tempfile::tempdir().unwrap();
    let bot = bot_on(dir.path());
    let old = Reply::new(Target::Chat(Scope::chat("test", "main")), "written by an older capabot");
    let json = serde_json::json!({ "v": 1, "reply": old, "animated": false }).to_string();
    assert!(!json.contains("drawing"), "{json}");
    let bytes = board_png(&Position::start(&variant::CHESS), None, Color::White).unwrap();
    {
        let conn = bot.store().conn().unwrap();
        capabot::store::outbox::push(&conn, "test", "c:main", &json, Some(&bytes), T0).unwrap();
    }
    let (host, recorder) = host_on(bot);
    assert!(host.drain_chat("test", "c:main").await);
    let seen = recorder.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].png.as_deref(), Some(bytes.as_slice()));
    assert!(seen[0].drawing.is_none());
}

#[test]
fn a_secret_bomb_is_described_only_in_a_reply_to_its_owner() {
    let dir = tempfile::tempdir().unwrap();
    let bot = bot_on(dir.path());
    let dm = |who: &str, text: &str| {
        let scope = Scope { direct: true, ..Scope::chat("test", format!("dm-{who}")) };
        bot.handle(&Input::text(scope, UserRef::new(who, who), text))
    };
    bot.handle(&msg_in("main", "alice", "!challenge @bob bomb color:white"));
    bot.handle(&msg_in("main", "bob", "!accept"));
    assert!(dm("alice", "bomb b1").text().contains("your bomb is the knight on b1"));
    assert!(dm("bob", "bomb h7").text().contains("your bomb is the pawn on h7"));
    for (who, text) in [("alice", "Nc3"), ("bob", "a6"), ("alice", "!board"), ("bob", "!board")] {
        bot.handle(&msg_in("main", who, text));
    }
    dm("alice", "board");
    dm("bob", "board");
    let mut marked = Vec::new();
    for (key, v, _) in rows(&bot) {
        let drawing = &v["reply"]["drawing"];
        if let Some(bomb) = drawing["bomb"].as_str() {
            marked.push((key, drawing["viewer"].as_str().unwrap().to_string(), bomb.to_string()));
        }
    }
    let mark = |key: &str, viewer: &str, bomb: &str| (key.to_string(), viewer.to_string(), bomb.to_string());
    assert_eq!(
        marked,
        vec![
            // The answers to the choices, then the `board`s asked for by direct message.
            mark("d:alice", "white", "b1"),
            mark("d:bob", "black", "h7"),
            mark("d:alice", "white", "c3"),
            mark("d:bob", "black", "h7"),
        ],
        "each bomb only in its owner's direct messages, where it is now"
    );
    let boards = rows(&bot).iter().filter(|(_, v, _)| v["reply"]["drawing"]["kind"] == "board").count();
    assert!(boards > marked.len(), "the chat's boards are described too, unmarked");
}

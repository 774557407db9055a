//! The contract between front ends and the core: typed commands from buttons, redelivered events,
//! community settings, direct-message notices, replaceable messages, and the upgrade of a schema-1
//! database.

use crate::common::*;
use capabot::bot::{Audience, Body, Command, Input, Receipt, Reply, Scope, Target, UserRef};
use capabot::store::Store;

fn in_guild(chat: &str, who: &str, text: &str) -> Input {
    let mut i = msg_in(chat, who, text);
    i.scope = Scope::chat("test", chat).in_community("guild-1");
    i
}

/// The first choice of the reply that has choices.
fn first_choice(r: &[Reply]) -> capabot::bot::Choice {
    r.iter().flat_map(|r| r.choices.clone()).next().expect("a reply with choices")
}

#[test]
fn a_buttons_typed_command_works_after_the_prefix_changed() {
    let tb = new_bot();
    let r = tb.bot.handle(&msg_in("main", "alice", "!challenge @bob chess color:white"));
    let accept = first_choice(&r.replies);
    assert_eq!(accept.command, Command::Accept(Some(1)));
    assert_eq!(accept.typed, "!accept #1");
    assert_eq!(accept.for_user.as_ref().map(|u| u.id.as_str()), Some("bob"));
    // The chat changes its prefix: the old typed text no longer works...
    // The confirmation says what changed and how commands are typed now (before: "Settings saved.").
    let saved = tb.say("alice", "!settings prefix:? days:3");
    assert_eq!(saved, "Settings saved: prefix:? days:3. Commands here now start with ?, e.g. ?help.");
    assert!(tb.say("bob", "!accept #1").is_empty(), "old prefix is chatter now");
    // ...but the button still carries its command.
    let click = Input::command(Scope::chat("test", "main"), UserRef::new("bob", "bob"), accept.command.clone());
    let out = tb.bot.handle(&click).text();
    assert!(out.contains("Game #1 starts"), "{out}");
    // And new choices are typed with the new prefix.
    tb.say("alice", "e4");
    let r = tb.bot.handle(&msg_in("main", "bob", "?draw"));
    let c = first_choice(&r.replies);
    assert_eq!((c.command.clone(), c.typed.as_str()), (Command::Draw(Some(1)), "?draw #1"));
}

#[test]
fn someone_elses_button_is_refused_privately_and_changes_nothing() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess");
    let before = tb.fingerprint();
    let click = Input::command(Scope::chat("test", "main"), UserRef::new("carol", "carol"), Command::Accept(Some(1)));
    let r = tb.bot.handle(&click);
    assert_eq!(r.replies.len(), 1);
    assert_eq!(r.replies[0].audience, Audience::Author);
    assert!(r.replies[0].text.contains("is for bob, not for you"), "{}", r.replies[0].text);
    assert_eq!(tb.fingerprint(), before);
}

#[test]
fn a_redelivered_event_is_answered_once_and_changes_nothing() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let e4 = msg_in("main", "alice", "e4").with_event_id("evt-42");
    assert!(tb.bot.handle(&e4).text().contains("played by alice"));
    let after_first = tb.fingerprint();
    let moves = tb.query_i64("SELECT count(*) FROM moves");
    // The gateway reconnects and delivers the same event again.
    let again = tb.bot.handle(&e4);
    assert!(again.replies.is_empty(), "{:?}", again.text());
    assert_eq!(tb.fingerprint(), after_first);
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), moves);
    // A new event with other text is handled as usual; the same id on another platform is another event.
    let mut other = msg_in("main", "bob", "!move e5").with_event_id("evt-42");
    other.scope.platform = "other".into();
    assert!(tb.bot.handle(&other).text().contains("no game"), "a different platform's event 42 is new");
    let r = tb.bot.handle(&msg_in("main", "bob", "e5").with_event_id("evt-43"));
    assert!(r.text().contains("played by bob"));
    assert!(r.replies.iter().all(|r| r.in_reply_to.as_deref() == Some("evt-43")), "replies name their input");
}

#[test]
fn community_settings_are_inherited_and_overridden_and_need_an_admin() {
    let tb = new_bot();
    // Not an administrator: refused, nothing stored.
    let r = tb.bot.handle(&in_guild("c1", "mallory", "!settings community variant:chess days:3"));
    assert!(r.text().contains("Only the community's administrators"), "{}", r.text());
    assert_eq!(tb.query_i64("SELECT count(*) FROM community_settings"), 0);
    let admin = in_guild("c1", "alice", "!settings community variant:chess days:3 thread:on").as_admin(true);
    let saved = tb.bot.handle(&admin).text();
    assert!(saved.contains("Community settings saved (variant:chess days:3 thread:on); chats that"), "{saved}");
    // Chat c2 inherits: a challenge there is chess with 3 days, and its game gets a thread.
    let r = tb.bot.handle(&in_guild("c2", "bob", "!challenge @carol"));
    assert!(r.text().contains("to Chess (3 days per move"), "{}", r.text());
    let r = tb.bot.handle(&in_guild("c2", "carol", "!accept"));
    let start = r.replies.iter().find(|r| r.text.contains("starts")).expect("start");
    let thread = start.new_thread.as_ref().expect("a thread is asked for");
    assert_eq!(thread.game_id, 1);
    assert_eq!(tb.query_str("SELECT community_id FROM games WHERE id = 1"), "guild-1");
    // The front end opened the thread: later replies of the game go there.
    tb.bot.delivered(
        start,
        &Receipt { message_id: Some("m1".into()), thread_id: Some("t-77".into()), ..Receipt::default() },
    );
    let first = if start.text.contains("bob (white)") { "bob" } else { "carol" };
    let r = tb.bot.handle(&in_guild("c2", first, "e4"));
    match &r.replies[0].target {
        Target::Chat(s) => assert_eq!(s.thread.as_deref(), Some("t-77")),
        other => panic!("{other:?}"),
    }
    // Chat c3 overrides the variant and the thread only.
    let own = in_guild("c3", "alice", "!settings variant:stones thread:off").as_admin(true);
    assert!(tb.bot.handle(&own).text().contains("Settings saved"));
    let r = tb.bot.handle(&in_guild("c3", "dave", "!challenge @erin"));
    assert!(r.text().contains("Stone's Chess (3 days per move"), "{}", r.text());
    tb.bot.handle(&in_guild("c3", "erin", "!accept"));
    // A chat outside the community sees none of it.
    let r = tb.bot.handle(&msg_in("elsewhere", "bob", "!settings"));
    assert!(r.text().contains("variant Capatomic Random Chess, days none, thread per game off"), "{}", r.text());
}

#[test]
fn reminders_and_your_move_notices_address_the_players_direct_messages() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess days:1 color:white");
    tb.say("bob", "!accept");
    let r = tb.bot.handle(&msg_in("main", "alice", "e4"));
    let dm = r.replies.iter().find(|r| matches!(r.target, Target::Direct { .. })).expect("a your-move notice");
    match &dm.target {
        Target::Direct { user, fallback, .. } => {
            assert_eq!(user.id, "bob");
            assert!(fallback.is_none(), "the chat already saw the move");
        }
        _ => unreachable!(),
    }
    assert!(dm.text.contains("Your move in game #1"), "{}", dm.text);
    // The reminder goes to Bob's direct messages with the chat as fallback...
    tb.clock.advance(20 * 3600);
    let r = tb.tick();
    let rem = r.replies.iter().find(|r| r.text.contains("reminder")).expect("reminder");
    match &rem.target {
        Target::Direct { user, fallback, .. } => {
            assert_eq!(user.id, "bob");
            assert_eq!(fallback.as_ref().map(|s| s.chat.as_str()), Some("main"));
        }
        other => panic!("{other:?}"),
    }
    // ...unless Bob turned them off: then to the chat.
    let out = tb.say("bob", "!notify off");
    assert!(out.contains("notices off"), "{out}");
    tb.say("bob", "e5");
    // No your-move notice for him any more...
    let r = tb.bot.handle(&msg_in("main", "alice", "Nf3"));
    assert!(r.text().contains("played by alice"));
    assert!(r.replies.iter().all(|r| !matches!(r.target, Target::Direct { .. })));
    // ...and his reminder comes to the chat.
    tb.clock.advance(20 * 3600);
    let r = tb.tick();
    let rem = r.replies.iter().find(|r| r.text.contains("reminder")).expect("reminder");
    assert!(matches!(&rem.target, Target::Chat(s) if s.chat == "main"), "{:?}", rem.target);
    assert!(rem.notify.iter().any(|u| u.id == "bob"));
}

#[test]
fn the_move_replaces_the_thinking_message() {
    use capabot::bot::{Bot, BotConfig, ManualClock, MoveOracle};
    use capabot::rules::{Game, Move};
    use std::sync::Arc;
    use std::time::Duration;
    struct Slow;
    impl MoveOracle for Slow {
        fn choose(&self, g: &Game, _: u8) -> Option<Move> {
            g.position().legal_moves().into_iter().next()
        }
        fn budget(&self, _: u8) -> Duration {
            Duration::from_secs(3)
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let bot = Bot::new(
        Store::open(dir.path().join("t.db")).unwrap(),
        Arc::new(ManualClock::new(T0)),
        Arc::new(Slow),
        BotConfig { pictures: false, ..BotConfig::default() },
    );
    let r = bot.handle(&msg_in("main", "alice", "!play chess color:black"));
    let thinking = r.replies.iter().find(|r| r.text.contains("thinking")).expect("thinking");
    let slot = thinking.slot.clone().expect("a slot");
    bot.delivered(thinking, &Receipt { message_id: Some("msg-9".into()), thread_id: None, ..Receipt::default() });
    let moved = bot.finish_ai_job(&r.ai_jobs[0], bot.run_ai_job(&r.ai_jobs[0]));
    let m = &moved.replies[0];
    assert!(m.text.contains("played by capabot"), "{}", m.text);
    assert_eq!(m.slot.as_ref().and_then(|s| s.previous.as_deref()), Some("msg-9"));
    assert!(slot.key.contains("thinking"));
}

#[test]
fn a_schema_1_database_upgrades_in_place_with_nothing_lost() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("capabot.db");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/schema1/capabot.db"), &path).unwrap();
    let count = |sql: &str| -> i64 {
        let c = rusqlite::Connection::open(&path).unwrap();
        c.query_row(sql, [], |r| r.get(0)).unwrap()
    };
    let v1: i64 = count("PRAGMA user_version");
    assert_eq!(v1, 1, "the fixture is a schema-1 database");
    let before: Vec<i64> = ["players", "accounts", "games", "moves", "challenges", "offers", "chat_settings"]
        .iter()
        .map(|t| count(&format!("SELECT count(*) FROM {t}")))
        .collect();
    let bot = open_bot(
        &path,
        std::sync::Arc::new(capabot::bot::ManualClock::new(T0)),
        std::sync::Arc::new(capabot::bot::NoAi),
    );
    let after: Vec<i64> = ["players", "accounts", "games", "moves", "challenges", "offers", "chat_settings"]
        .iter()
        .map(|t| count(&format!("SELECT count(*) FROM {t}")))
        .collect();
    assert_eq!(before, after);
    assert!(count("PRAGMA user_version") >= 2);
    assert_eq!(bot.store().integrity_check().unwrap(), "ok");
    for id in 1..=4 {
        bot.verify_game(id).unwrap();
    }
    // The old chat settings still apply: prefix ? in chat "side", stones by default, 5 days.
    let side = |who: &str, text: &str| {
        let mut i = msg_in("side", who, text);
        i.scope.platform = "console".into();
        bot.handle(&i).text()
    };
    let s = side("carol", "?settings");
    assert!(s.contains("prefix ?, variant Stone's Chess, days 5"), "{s}");
    // The game in progress goes on: game 1 (alice white, bob black) is at ply 3 with a draw offer by bob.
    let main = |who: &str, text: &str| {
        let mut i = msg_in("main", who, text);
        i.scope.platform = "console".into();
        bot.handle(&i).text()
    };
    let out = main("alice", "!draw #1");
    assert!(out.contains("draw by agreement"), "{out}");
    // Anyone in the chat sees its board, with the players as migrated.
    let seen = main("zoe", "!board #1");
    assert!(seen.contains("Game #1: alice (white) vs bob (black)"), "{seen}");
    assert!(main("zoe", "!resign #1").contains("not yours"));
    // The open challenge can still be accepted.
    assert!(side("zoe", "?accept #4").contains("starts"));
}

#[test]
fn text_and_typed_commands_run_the_same_handlers() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    let typed = Input::command(
        Scope::chat("test", "main"),
        UserRef::new("alice", "alice"),
        Command::Move { game: None, text: "e9".into() },
    );
    let r = tb.bot.handle(&typed);
    assert_eq!(r.replies[0].audience, Audience::Author);
    let typed_text = r.text();
    let r = tb.bot.handle(&msg_in("main", "alice", "!move e9"));
    assert_eq!(r.text(), typed_text);
    assert_eq!(tb.fingerprint(), before);
    assert!(matches!(typed.body, Body::Command(_)));
}

#[test]
fn move_suggestions_are_the_callers_legal_moves_filtered_by_what_was_typed() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white setup:0");
    tb.say("bob", "!accept");
    let scope = Scope::chat("test", "main");
    let all = tb.bot.suggest_moves(&scope, "alice", None, "");
    assert_eq!(all.len(), 25, "capped at 25: {all:?}");
    assert!(tb.bot.suggest_moves(&scope, "bob", None, "").is_empty(), "not bob's turn");
    assert!(tb.bot.suggest_moves(&scope, "carol", None, "").is_empty(), "carol has no game");
    let n = tb.bot.suggest_moves(&scope, "alice", None, "N");
    assert!(!n.is_empty() && n.iter().all(|m| m.to_lowercase().contains('n')), "{n:?}");
    assert!(n[0].starts_with('N'), "prefix matches first: {n:?}");
    // Every suggestion is accepted as a move.
    let pick = n[0].clone();
    let out = tb.say("alice", &format!("!move {pick}"));
    assert!(out.contains("played by alice"), "{out}");
    // Castling is offered where it is legal.
    tb.say("carol", "!challenge @dave chess color:white");
    tb.say("dave", "!accept");
    let side = Scope::chat("test", "main");
    for (who, m) in
        [("carol", "e4"), ("dave", "e5"), ("carol", "Nf3"), ("dave", "Nc6"), ("carol", "Bc4"), ("dave", "Nf6")]
    {
        assert!(tb.say(who, &format!("!move #2 {m}")).contains("played by"));
    }
    assert_eq!(tb.bot.suggest_moves(&side, "carol", Some(2), "o-"), vec!["O-O".to_string()]);
}

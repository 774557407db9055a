//! `analyse` through the core and the console: who may ask (a finished game of this chat only; an
//! unfinished game, another chat's game and an unknown number start nothing), one analysis per
//! person and a bounded desk, the result (summary, course chart, turning points with arrows), the
//! stored analysis shown again at once, and `pgn #N analysed`. Run again on PostgreSQL by `tests/pg`.

use crate::common::{T0, console_script, db_path, msg_in, open_store};
use capabot::bot::{Bot, BotConfig, CommandStyle, FirstLegalMove, ManualClock, Response};
use std::sync::Arc;

const FOOLS_MATE: [(&str, &str); 4] = [("alice", "f3"), ("bob", "e5"), ("alice", "g4"), ("bob", "Qh4#")];

struct T {
    _dir: tempfile::TempDir,
    bot: Bot,
}

fn bot(max_analyses: usize) -> T {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&db_path(dir.path()));
    let config = BotConfig { pictures: true, max_analyses, analysis_nodes: 3_000, ..BotConfig::default() };
    let bot = Bot::new(store, Arc::new(ManualClock::new(T0)), Arc::new(FirstLegalMove), config);
    T { _dir: dir, bot }
}

impl T {
    fn say_in(&self, chat: &str, who: &str, text: &str) -> Response {
        self.bot.handle(&msg_in(chat, who, text))
    }

    fn say(&self, who: &str, text: &str) -> Response {
        self.say_in("main", who, text)
    }

    fn fools_mate(&self) {
        self.say("alice", "!challenge @bob chess color:white");
        self.say("bob", "!accept");
        for (who, m) in FOOLS_MATE {
            self.say(who, m);
        }
    }

    fn analyses_stored(&self) -> i64 {
        let c = self.bot.store().conn().unwrap();
        c.query_row("SELECT count(*) FROM analyses", (), |r| r.get(0)).unwrap()
    }
}

#[test]
fn only_finished_games_of_this_chat_are_analysed() {
    let t = bot(4);
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    t.say("alice", "f3");
    let r = t.say("alice", "!analyse");
    assert!(r.analyses.is_empty() && r.text().contains("is not finished"), "{}", r.text());
    let r = t.say("carol", "!analyse #99");
    assert!(r.analyses.is_empty() && r.text().contains("There is no game #99"), "{}", r.text());
    let r = t.say("carol", "!analyse");
    assert!(r.analyses.is_empty() && r.text().contains("no game in this chat"), "{}", r.text());
    for (who, m) in &FOOLS_MATE[1..] {
        t.say(who, m);
    }
    let r = t.say_in("elsewhere", "alice", "!analyse #1");
    assert!(r.analyses.is_empty() && r.text().contains("not played in this chat"), "{}", r.text());
    let r = t.say("alice", "!pgn #1 analysed");
    assert!(r.text().contains("has not been analysed yet"), "{}", r.text());
    // An aborted game has nothing to analyse.
    t.say("alice", "!challenge @bob chess");
    t.say("bob", "!accept");
    t.say("alice", "!abort");
    let r = t.say("alice", "!analyse #2");
    assert!(r.analyses.is_empty() && r.text().contains("was aborted"), "{}", r.text());
    // Without a number: the last finished game here, past the aborted one and a rematch begun since
    // (before: "Game #3 is not finished").
    t.say("alice", "!rematch #1");
    assert!(t.say("bob", "!accept").text().contains("Game #3 starts"));
    let r = t.say("alice", "!analyse");
    assert!(r.analyses.len() == 1 && r.text().contains("game #1"), "{}", r.text());
    assert!(t.say("bob", "!pgn analysed").text().contains("Game #1 has not been analysed yet"), "the same game");
    drop(r);
    assert_eq!(t.analyses_stored(), 0);
    assert_eq!(t.bot.analyses_running(), 0);
}

#[test]
fn a_watcher_analyses_a_finished_game_and_the_result_is_stored() {
    let t = bot(4);
    t.fools_mate();
    // carol watched the game in this chat.
    let r = t.say("carol", "!analyse #1");
    assert_eq!(r.analyses.len(), 1, "{}", r.text());
    assert!(r.text().contains("Analysing game #1: 0 of 5 positions"), "{}", r.text());
    assert!(r.replies[0].slot.is_some(), "the progress message can be replaced");
    assert_eq!(t.bot.analyses_running(), 1);
    // One at a time per person, and nothing starts meanwhile.
    let again = t.say("carol", "!analyse #1");
    assert!(again.analyses.is_empty() && again.text().contains("still running"), "{}", again.text());
    let job = &r.analyses[0];
    let progress = t.bot.analysis_progress_reply(job, 3, 5);
    assert!(progress.text.contains("3 of 5 positions"), "{}", progress.text);
    let replies = t.bot.run_analyses_inline(r.analyses);
    assert_eq!(t.bot.analyses_running(), 0, "the place is given back");
    assert_eq!(t.analyses_stored(), 1);
    let head = &replies[0];
    assert!(head.text.contains("Analysis of game #1"), "{}", head.text);
    assert!(head.text.contains("alice (white): accuracy"), "{}", head.text);
    assert!(head.text.contains("Turning points:") && head.text.contains("2. g4??"), "{}", head.text);
    // The pictures are described, and drawn when delivered.
    let mut drawn = head.clone();
    drawn.draw();
    assert!(drawn.png.as_deref().is_some_and(|p| &p[1..4] == b"PNG"), "the course chart");
    assert!(head.alt_text.as_deref().is_some_and(|a| a.contains("winning chances")));
    let point = replies.iter().find(|r| r.text.starts_with("2. g4??")).expect("g4 is a turning point");
    assert!(point.text.contains("better was"), "{}", point.text);
    let mut drawn = point.clone();
    drawn.draw();
    assert!(drawn.png.is_some() && point.alt_text.as_deref().is_some_and(|a| a.contains("red arrow")));

    // Asked again: shown at once from the store, no search.
    let shown = t.say("bob", "!analyse");
    assert!(shown.analyses.is_empty(), "{}", shown.text());
    assert!(shown.text().contains("(analysed before)") && shown.text().contains("2. g4??"), "{}", shown.text());

    let pgn = t.say("alice", "!pgn #1 analysed");
    let text = pgn.text();
    assert!(text.contains("[%eval") && text.contains("2. g4??") && text.contains("(2."), "{text}");
    assert!(pgn.replies[0].file.as_ref().is_some_and(|f| f.name.ends_with("-analysed.pgn")));
    // The plain record is unchanged.
    assert!(!t.say("alice", "!pgn #1").text().contains("%eval"));
}

/// The desk is bounded; its refusal is the asker's own to read, in their language. The analysis is
/// posted in the chat for everyone there, in the chat's language whoever asked (before: alice's in
/// English, bob's in Turkish and carol's in German, all in one German chat).
#[test]
fn the_desk_is_bounded_and_the_analysis_speaks_the_chats_language() {
    let t = bot(1);
    t.say("alice", "!settings lang:tr");
    t.say("alice", "!lang en");
    t.say("bob", "!lang de");
    t.fools_mate();
    let first = t.say("alice", "!analyse #1");
    assert_eq!(first.analyses.len(), 1);
    assert!(first.text().contains("analiz ediliyor"), "{}", first.text());
    let full = t.say("bob", "!analyse #1");
    assert!(
        full.analyses.is_empty() && full.text().contains("mit einer anderen Analyse beschäftigt"),
        "{}",
        full.text()
    );
    let replies = t.bot.run_analyses_inline(first.analyses);
    assert!(replies[0].text.contains("isabet") && !replies[0].text.contains("accuracy"), "{}", replies[0].text);
    assert_eq!(t.bot.analyses_running(), 0, "the job gives its place back");
    for who in ["bob", "carol"] {
        let shown = t.say(who, "!analyse #1");
        assert!(shown.text().contains("isabet") && !shown.text().contains("Genauigkeit"), "{}", shown.text());
    }
}

#[test]
fn the_console_analyses_a_game_end_to_end() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice> !challenge @bob chess color:white\nbob> !accept\n\
                  alice> f3\nbob> e5\nalice> g4\nbob> Qh4#\n\
                  carol> !analyse #1\ncarol> !pgn #1 analysed\n";
    let text = console_script(dir.path(), script);
    assert!(text.contains("Analysing game #1"), "{text}");
    assert!(text.contains("Analysis of game #1") && text.contains("(60,000 nodes per position)"), "{text}");
    assert!(text.contains("2. g4??"), "{text}");
    assert!(text.contains("[%eval"), "{text}");
    assert!(text.contains("Next: !analyse #1 shows where the game turned"), "{text}");
}

/// A finished game's announcement offers its analysis and a return game: as buttons where the
/// platform has them (Discord), by name where it has none (Matrix, the console).
#[test]
fn a_finished_game_offers_its_analysis_and_a_rematch_by_button_or_by_name() {
    let t = bot(4);
    let end_of_fools_mate = |t: &T| {
        t.say("alice", "!challenge @bob chess color:white");
        t.say("bob", "!accept");
        let mut end = None;
        for (who, m) in FOOLS_MATE {
            end = Some(t.say(who, m));
        }
        end.unwrap()
    };
    let no_buttons = |r: &Response| r.replies.iter().all(|x| x.choices.is_empty());
    let end = end_of_fools_mate(&t);
    let text = end.text();
    assert!(
        text.contains("bob wins by checkmate.")
            && text.contains("Next: !analyse #1 shows where the game turned, !rematch #1 offers a return game."),
        "{text}"
    );
    assert!(no_buttons(&end), "{end:?}");
    // A game aborted before both sides moved, or one in progress, offers neither.
    t.say("alice", "!challenge @bob chess color:white");
    t.say("bob", "!accept");
    let end = t.say("alice", "!resign");
    assert!(end.text().contains("Game #2 aborted") && !end.text().contains("Next:"), "{}", end.text());
    let out = t.say("carol", "!play chess color:white");
    assert!(out.text().contains("Game #3 starts") && !out.text().contains("Next:"), "{}", out.text());

    // With buttons: the announcement's last message carries them and the text does not repeat them.
    t.bot.set_command_style("test", CommandStyle { slash: true, typed_in_communities: true });
    let end = end_of_fools_mate(&t);
    assert!(!end.text().contains("Next:"), "{}", end.text());
    let labels: Vec<&str> = end.replies.iter().flat_map(|r| r.choices.iter().map(|c| c.label.as_str())).collect();
    assert_eq!(labels, ["Analyse", "Rematch"]);
}

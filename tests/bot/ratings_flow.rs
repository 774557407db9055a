//! Ratings through the core: rated and casual games, the community's rule, AI games, aborts, one
//! rating per variant, the commands that show them, and the result and its rating changes stored
//! together or not at all (a process killed between them).

use crate::common::*;
use capabot::bot::Input;
use capabot::rules::VARIANTS;
use std::process::Command;

fn guild(who: &str, text: &str) -> Input {
    let mut i = msg_in("g-chat", who, text);
    i.scope = i.scope.in_community("g1");
    i
}

fn fools_mate(tb: &TestBot, white: &str, black: &str) -> String {
    let mut last = String::new();
    for (who, m) in [(white, "f3"), (black, "e5"), (white, "g4"), (black, "Qh4#")] {
        last = tb.say(who, m);
    }
    last
}

#[test]
fn a_rated_game_changes_both_ratings_and_says_so() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    assert!(tb.say("bob", "!accept").contains("starts"));
    let end = fools_mate(&tb, "alice", "bob");
    assert!(end.contains("bob wins by checkmate"), "{end}");
    assert!(end.contains("Ratings: alice 1500? → "), "{end}");
    assert!(end.contains("bob 1500? → "), "{end}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings WHERE scope = '' AND variant = 'chess'"), 2);
    assert_eq!(tb.query_i64("SELECT count(*) FROM rating_history WHERE game_id = 1"), 2);
    let bob: f64 = {
        let c = tb.bot.store().conn().unwrap();
        c.query_row(
            "SELECT rating FROM ratings r JOIN accounts a ON a.player_id = r.player_id WHERE a.user_id = 'bob'",
            (),
            |r| r.get(0),
        )
        .unwrap()
    };
    assert!(bob > 1500.0, "the winner gains: {bob}");
    // The commands show it.
    let r = tb.bot.handle(&msg_in("main", "bob", "!rating chess"));
    assert!(r.text().contains("bob — Chess globally: ") && r.text().contains("1 game: +1 =0 −0"), "{}", r.text());
    let mut r = tb.bot.handle(&msg_in("main", "carol", "!leaderboard chess"));
    assert!(r.replies[0].png.is_none() && r.replies[0].drawing.is_some(), "described, drawn when delivered");
    r.draw();
    assert!(r.text().contains("Chess leaderboard globally") && r.text().contains("Provisional: bob"), "{}", r.text());
    assert!(r.replies[0].png.as_ref().is_some_and(|p| p.starts_with(b"\x89PNG")));
    let mut r = tb.bot.handle(&msg_in("main", "carol", "!history @alice chess"));
    r.draw();
    // Marked provisional as the game's end marks it (before: "1500 → 1362").
    assert!(
        r.text().contains("alice's Chess rating globally: 1500? → ")
            && r.text().contains("? over 1 rated game; highest "),
        "{}",
        r.text()
    );
    assert!(r.replies[0].png.as_ref().is_some_and(|p| p.starts_with(b"\x89PNG")));
    // carol has never played: she has no rating in any variant (before: "carol has no rated Chess
    // games globally yet").
    assert_eq!(tb.say("carol", "!rating chess"), "You have played no game with me yet, so you have no rating.");
    // Without a variant, and none in the chat's default (Capatomic): the variants they are rated in.
    let r = tb.say("bob", "!rating");
    assert!(r.contains("bob — Chess globally: ") && r.contains("1 game: +1 =0 −0"), "{r}");
    assert!(!r.contains("no rated"), "{r}");
    assert!(tb.say("bob", "!rating capatomic").contains("bob has no rated Capatomic Random Chess games globally yet"));
    // Rated in no variant: said so, not that she has none in the default one nobody asked about
    // (before: "carol has no rated Capatomic Random Chess games globally yet").
    tb.say("erin", "!challenge @frank chess");
    assert_eq!(tb.say("carol", "!rating @frank"), "frank has no rated games anywhere yet, in any variant.");
    let r = tb.say("carol", "!rating @frank chess");
    assert_eq!(r, "frank has no rated Chess games globally yet.");
    // Someone capabot has never met: said so, with no variant (before: "nobody has no rated
    // Capatomic Random Chess games globally yet"), whether a variant is named or not.
    for asked in ["!rating @nobody", "!rating @nobody chess"] {
        let r = tb.say("carol", asked);
        assert_eq!(
            r, "I have not met nobody yet: they have played no game with me, so they have no rating.",
            "{asked}"
        );
    }
    let r = tb.say("alice", "!history");
    assert!(r.contains("alice's Chess rating globally: 1500? → "), "the variant she played: {r}");
}

#[test]
fn casual_ai_and_aborted_games_change_no_rating() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white casual");
    tb.say("bob", "!accept");
    let end = fools_mate(&tb, "alice", "bob");
    assert!(end.contains("wins by checkmate") && !end.contains("Ratings"), "{end}");
    tb.say("carol", "!play chess level:1 color:white");
    assert!(tb.say("carol", "e4").contains("played by capabot"));
    assert!(tb.say("carol", "!resign").contains("capabot wins"));
    tb.say("dave", "!challenge @erin chess");
    tb.say("erin", "!accept");
    assert!(tb.say("dave", "!abort").contains("aborted"));
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings"), 0);
    assert_eq!(tb.query_i64("SELECT count(*) FROM rating_history"), 0);
}

#[test]
fn a_community_may_force_rated_or_casual_games_and_keeps_its_own_ratings() {
    let tb = new_bot();
    assert!(tb.bot.handle(&guild("mod", "!settings community rated:always").as_admin(true)).text().contains("saved"));
    let r = tb.bot.handle(&guild("alice", "!challenge @bob chess casual"));
    assert!(r.text().contains("rated games only"), "{}", r.text());
    tb.bot.handle(&guild("alice", "!challenge @bob chess color:white"));
    tb.bot.handle(&guild("bob", "!accept"));
    for (who, m) in [("alice", "f3"), ("bob", "e5"), ("alice", "g4")] {
        tb.bot.handle(&guild(who, m));
    }
    let end = tb.bot.handle(&guild("bob", "Qh4#")).text();
    assert!(end.contains("Ratings: alice 1500? → "), "{end}");
    // Kept per community and globally.
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings WHERE scope = 'test:g1'"), 2);
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings WHERE scope = ''"), 2);
    let r = tb.bot.handle(&guild("bob", "!rating chess")).text();
    assert!(r.contains("in this community") && r.contains("Globally"), "{r}");
    // Never rated.
    tb.bot.handle(&guild("mod", "!settings community rated:never").as_admin(true));
    assert!(tb.bot.handle(&guild("alice", "!challenge @bob chess rated")).text().contains("casual games only"));
    let r = tb.bot.handle(&guild("alice", "!challenge @bob chess"));
    assert!(r.text().contains("casual"), "{}", r.text());
}

#[test]
fn every_variant_keeps_its_own_rating() {
    let tb = new_bot();
    // Secret-bomb chess starts with the bombs chosen by direct message (its own flow and rating:
    // tests/bot/secret_bomb_flow.rs); the playouts here are for the others.
    let playable: Vec<_> = VARIANTS.iter().filter(|v| !v.bombs).collect();
    for (i, v) in playable.iter().enumerate() {
        let chat = format!("t{i}");
        let say = |who: &str, text: &str| tb.say_in(&chat, who, text);
        say("alice", &format!("!challenge @bob {} color:white", v.name));
        assert!(say("bob", "!accept").contains("starts"), "{}", v.name);
        if v.name == "caparelocation" {
            say("bob", "!noswap");
            say("alice", "!noswap");
        }
        both_sides_move(say, v, "alice", "bob");
        let out = say("bob", "!resign");
        assert!(out.contains("alice wins by resignation") && out.contains("Ratings:"), "{}: {out}", v.name);
    }
    assert_eq!(tb.query_i64("SELECT count(DISTINCT variant) FROM ratings"), playable.len() as i64);
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings WHERE rating > 1500 AND games = 1"), playable.len() as i64);
    // `rating` is about the chat's default variant; `rating all` (any language's word) about every
    // one they are rated in (before: "To ask about someone, mention them: @all").
    let lines = |text: &str| tb.say("bob", text).lines().filter(|l| l.starts_with("alice — ")).count();
    assert_eq!(lines("!rating @alice"), 1);
    for typed in ["!rating @alice all", "!rating all @alice", "!rating @alice hepsi", "!rating @alice ALLE"] {
        assert_eq!(lines(typed), playable.len(), "{typed}");
    }
    let out = tb.say("bob", "!history @alice all");
    assert!(out.contains("I don't know the variant 'all'"), "a chart is of one variant: {out}");
}

/// The console killed (abort) after the result is written and before the rating, and after the
/// rating and before the commit: the database has both or neither.
#[test]
fn a_crash_between_result_and_rating_leaves_both_or_neither() {
    let bin = env!("CARGO_BIN_EXE_capabot");
    for point in ["after-result", "after-rating"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.db");
        let run = |script: &str, failpoint: Option<&str>| {
            let f = dir.path().join("s.txt");
            std::fs::write(&f, script).unwrap();
            let mut c = Command::new(bin);
            c.current_dir(dir.path())
                .args(["console", "--no-pictures", "--no-text-boards", "--script"])
                .arg(&f)
                .arg("--db")
                .arg(db_setting(&db));
            match failpoint {
                Some(p) => c.env("CAPABOT_FAILPOINT", p),
                None => c.env_remove("CAPABOT_FAILPOINT"),
            };
            c.output().unwrap()
        };
        let out = run(
            "alice> !challenge @bob chess color:white\nbob> !accept\nalice> e4\nbob> e5\nbob> !resign\n",
            Some(point),
        );
        assert!(!out.status.success(), "{point}: the process died");
        let q = |sql: &str| -> i64 {
            let store = open_store(&db);
            store.conn().unwrap().query_row(sql, (), |r| r.get(0)).unwrap()
        };
        assert_eq!(q("SELECT count(*) FROM games WHERE status = 'finished'"), 0, "{point}");
        assert_eq!(q("SELECT count(*) FROM ratings"), 0, "{point}");
        assert_eq!(q("SELECT count(*) FROM rating_history"), 0, "{point}");
        // After the restart the resignation goes through with its ratings, once.
        let out = run("bob> !resign\n", None);
        assert!(String::from_utf8_lossy(&out.stdout).contains("Ratings:"), "{point}: {out:?}");
        assert_eq!(q("SELECT count(*) FROM games WHERE status = 'finished'"), 1);
        // Two players, each rated globally and in the console's community.
        assert_eq!(q("SELECT count(*) FROM rating_history"), 4);
    }
}

/// A game's web page (issue 47) is read in one statement — on PostgreSQL one round trip — from
/// one snapshot: the game, its community's setting and language, its moves, both players and
/// their ratings (thirteen statements before). What it reads is what the chat says: each side's
/// rating as the game that made it announced, who is to move, the moves. A live page's look at
/// the game is one statement too (three before).
#[test]
fn a_games_web_page_is_read_in_one_statement() {
    use capabot::i18n::Lang;
    use capabot::store::sql::statements_sent;
    let tb = new_bot();
    let admin = |text: &str| tb.bot.handle(&guild("mod", text).as_admin(true)).text();
    assert!(admin("!settings community web:on").contains("saved"));
    tb.bot.handle(&guild("alice", "!challenge @bob chess rated color:white"));
    tb.bot.handle(&guild("bob", "!accept"));
    for (who, m) in [("alice", "f3"), ("bob", "e5"), ("alice", "g4")] {
        tb.bot.handle(&guild(who, m));
    }
    let end = tb.bot.handle(&guild("bob", "Qh4#")).text();
    // "Ratings: alice 1500? → 1362?, bob 1500? → 1638?": each side's rating after the game.
    let after = |who: &str| {
        let before = format!("{who} 1500? → ");
        let at = end.find(&before).unwrap_or_else(|| panic!("{end}")) + before.len();
        end[at..].split([',', ' ', '\n', ')']).next().unwrap().to_string()
    };
    tb.bot.handle(&guild("alice", "!challenge @bob chess rated color:white"));
    tb.bot.handle(&guild("bob", "!accept"));
    for (who, m) in [("alice", "e4"), ("bob", "e5"), ("alice", "Nf3")] {
        tb.bot.handle(&guild(who, m));
    }
    let slug = |id: i64| capabot::store::games::slug(&tb.bot.store().conn().unwrap(), id).unwrap().unwrap();
    let read = |id: i64, fallback: Lang| {
        let slug = slug(id);
        let before = statements_sent();
        let found = tb.bot.web_game_in(&slug, fallback).unwrap();
        assert_eq!(statements_sent() - before, 1, "game {id}: statements");
        found
    };

    let (lang, game) = read(2, Lang::En);
    let game = game.expect("the game is shown");
    assert_eq!(lang, Lang::En);
    assert_eq!(game.moves, ["1. e4", "1... e5", "2. Nf3"]);
    assert_eq!((game.ply, game.boards.len(), game.active), (3, 4, true));
    assert_eq!(game.status, "bob (black) to move");
    assert_eq!((game.white.name.as_str(), game.black.name.as_str()), ("alice", "bob"));
    assert_eq!(game.white.rating.as_deref(), Some(after("alice").as_str()));
    assert_eq!(game.black.rating.as_deref(), Some(after("bob").as_str()));
    let (_, done) = read(1, Lang::En);
    let done = done.expect("the finished game is shown");
    assert_eq!((done.active, done.moves.len(), done.status.as_str()), (false, 4, "finished 0-1"));

    // The community's language comes with the game, and is the page's.
    admin("!settings community lang:tr");
    let (lang, game) = read(2, Lang::En);
    assert_eq!(lang, Lang::Tr);
    assert!(game.expect("shown").status.contains("bob"));

    // A live page's look, one statement.
    let live = slug(2);
    let before = statements_sent();
    let follow = tb.bot.web_game_follow(&live).unwrap().expect("followed");
    assert_eq!(statements_sent() - before, 1, "a live page's look: statements");
    assert_eq!(follow.version.0, 3);

    // Hidden with web:off, in the same one statement; a game without a community never shown.
    tb.bot.handle(&guild("mod", "!settings community web:off").as_admin(true));
    assert_eq!(read(2, Lang::En), (Lang::Tr, None));
    assert_eq!(tb.bot.web_game_follow(&slug(2)).unwrap(), None);
    tb.say("carol", "!challenge @dave chess color:white");
    tb.say("dave", "!accept");
    assert_eq!(read(3, Lang::En), (Lang::En, None));
}

/// `history` with no games to show says whose they are: the asker's own are "yours" (before: "…yet
/// for that person", "Diese Person hat…", "Bu kişinin…" to the asker about themselves), another's by
/// their name.
#[test]
fn an_empty_history_is_the_askers_own_or_named() {
    let tb = new_bot();
    assert_eq!(tb.say("alice", "!history chess"), "You have no rated Chess games globally yet.");
    assert_eq!(tb.say("alice", "!history @alice chess"), "You have no rated Chess games globally yet.");
    let in_chat = |chat: &str, who: &str, text: &str| tb.bot.handle(&msg_in(chat, who, text)).text();
    in_chat("tr", "bob", "!settings lang:tr");
    assert_eq!(in_chat("tr", "bob", "!history chess"), "Hiçbir yerde henüz puanlı Satranç oyunun yok.");
    in_chat("de", "carol", "!settings lang:de");
    assert_eq!(
        in_chat("de", "carol", "!history @bob chess"),
        "bob hat überhaupt noch keine gewerteten Partien in Schach."
    );
    assert_eq!(in_chat("de", "carol", "!history chess"), "Du hast überhaupt noch keine gewerteten Partien in Schach.");
}

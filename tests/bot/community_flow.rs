//! Community commands through the core: rank ladders (joining, challenges, results from real
//! games, draws, forfeits by expiry, limits, administration, seasons, the standings message and its
//! slot) and linking accounts across platforms.

use crate::common::{T0, community_admin as admin, community_say as say, msg_in, new_bot, number_after};
use capabot::bot::{Audience, Input, Receipt, Reply, Response, Target};

/// The standings reply of a response (the one carrying the ladder's slot).
fn standings(r: &Response) -> &Reply {
    r.replies
        .iter()
        .find(|r| r.slot.as_ref().is_some_and(|s| s.key.starts_with("ladder:")))
        .unwrap_or_else(|| panic!("no standings reply in {:?}", r.text()))
}

/// The names in a standings text, top first.
fn order(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            n.parse::<u32>().ok()?;
            let who = rest.split(" — ").next().unwrap();
            Some(who.rsplit_once(" (").map_or(who, |(n, _)| n).to_string())
        })
        .collect()
}

/// A number that no ladder result, season or round has (0, `#0`, more digits than any number) is
/// answered that there is none, as an event number nobody used is; a word that is no number, and a
/// number out of `reach:` or `wait:`'s range, are told the range (before: "must be a number from 1"
/// for all of them, also for 99999999999999999999).
#[test]
fn a_number_nothing_has_is_answered_plainly() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    for (typed, shown) in [("0", "0"), ("#0", "0"), ("99999999999999999999", "99999999999999999999"), ("9", "9")] {
        let out = admin(&tb, &format!("!ladder undo {typed} oops")).text();
        let want = format!("There is no ladder result {shown} this season; each result is announced with its number");
        assert!(out.starts_with(&want), "{out}");
    }
    let out = admin(&tb, "!ladder undo five oops").text();
    assert!(out.starts_with("The event number must be a whole number, 1 or more, not 'five'. "), "{out}");
    let out = say(&tb, "Alice", "!ladder season 0").text();
    assert_eq!(out, "There is no season 0; seasons are numbered from 1.");
    let out = say(&tb, "Alice", "!ladder season 4294967296").text();
    assert_eq!(out, "There is no season 4294967296; seasons are numbered from 1.");
    let out = say(&tb, "Alice", "!tournament round 99999999999999999999").text();
    assert_eq!(out, "There is no round 99999999999999999999; rounds are numbered from 1.");
    let out = admin(&tb, "!ladder create atomic reach:99999999999999999999").text();
    assert!(out.starts_with("reach must be a whole number from 1 to 100, not '99999999999999999999'. "), "{out}");
    let out = admin(&tb, "!ladder create atomic wait:0").text();
    assert!(out.starts_with("wait must be a whole number from 1 to 30, not '0'. "), "{out}");
    assert!(admin(&tb, "!ladder create atomic reach:100 wait:30").text().contains("ladder is open"));
}

#[test]
fn ladder_season_from_joining_to_the_archive() {
    let tb = new_bot();
    // Outside a community, and for non-administrators, a polite refusal.
    let r = tb.bot.handle(&msg_in("main", "Alice", "!ladder join"));
    assert!(r.text().contains("Ladders belong to a community"), "{}", r.text());
    assert!(say(&tb, "Alice", "!ladder create chess").text().contains("only the community's administrators"));
    assert!(admin(&tb, "!ladder create chess days:3 reach:2 wait:3").text().contains("The Chess ladder is open"));
    assert!(admin(&tb, "!ladder create chess").text().contains("already has a Chess ladder"));

    // Joining order is the order on the ladder.
    let mut last = Response::default();
    for who in ["Alice", "Bob", "Carol", "Dave", "Erin"] {
        last = say(&tb, who, "!ladder join");
        assert!(last.text().contains(&format!("{who} joins the Chess ladder")), "{}", last.text());
    }
    let s = standings(&last);
    assert_eq!(order(&s.text), ["Alice", "Bob", "Carol", "Dave", "Erin"]);
    // Each line has the player's community rating (provisional before any rated game).
    assert!(s.text.contains("\n1. Alice (1500?)\n"), "{}", s.text);
    assert_eq!(s.slot.as_ref().unwrap().previous, None);
    assert_eq!(s.target.chat().unwrap().chat, "main");
    // The front end delivered it as message m1: the next standings message replaces m1.
    tb.bot.delivered(s, &Receipt { message_id: Some("m1".into()), thread_id: None, ..Receipt::default() });

    // Reach limit and one open challenge per player.
    let r = say(&tb, "Erin", "!ladder challenge @Bob");
    assert!(r.text().contains("You may challenge at most 2 places up: Bob is 3 places above you."), "{}", r.text());
    let r = say(&tb, "Erin", "!ladder challenge @Carol");
    let ch = number_after(&r.text(), "Ladder challenge #");
    assert!(r.replies[0].notify.iter().any(|u| u.id == "carol"));
    assert!(say(&tb, "Dave", "!ladder challenge @Erin").text().contains("only challenge players above you"));
    assert!(say(&tb, "Dave", "!ladder challenge @Carol").text().contains("Carol already has an open ladder challenge"));
    assert!(
        say(&tb, "Erin", "!ladder challenge @Dave")
            .text()
            .contains("You already have an open ladder challenge with Carol")
    );
    assert!(say(&tb, "Dave", "!ladder challenge @Bob").text().contains("Bob")); // Dave may challenge Bob
    assert!(
        say(&tb, "Dave", "!ladder challenge @Carol")
            .text()
            .contains("You already have an open ladder challenge with Bob")
    );
    // Bob declines Dave's: a forfeit, Dave climbs over Carol to Bob's place.
    let r = say(&tb, "Bob", "!ladder decline");
    assert!(r.text().contains("counts as forfeited. Dave takes place 2 from Bob. (ladder result 1)"), "{}", r.text());
    assert_eq!(order(&standings(&r).text), ["Alice", "Dave", "Bob", "Carol", "Erin"]);
    assert_eq!(standings(&r).slot.as_ref().unwrap().previous.as_deref(), Some("m1"));

    // Carol answers Erin's challenge with the ordinary accept; the game has the ladder's clock.
    let r = say(&tb, "Carol", &format!("!accept #{ch}"));
    assert!(r.text().contains("Carol accepts the Chess ladder challenge of Erin"), "{}", r.text());
    let game = number_after(&r.text(), "Game #");
    assert!(r.text().contains("3 days per move"), "{}", r.text());
    assert!(say(&tb, "Admin", "!ladder").text().contains(&format!("Erin (1500?) — challenges Carol (game #{game})")));
    // The lower challenger wins: Erin takes Carol's place, Carol moves down one. Resigned before
    // both sides moved, the game counts for the ladder but is not rated (before: ±242 for a game
    // nobody played).
    let r = say(&tb, "Carol", "!resign");
    assert!(r.text().contains("Ladder: Erin takes place 4 from Carol. (ladder result 2)"), "{}", r.text());
    assert!(r.text().contains("Not rated: the game ended before both sides had moved."), "{}", r.text());
    assert!(!r.text().contains("Ratings:"), "{}", r.text());
    assert_eq!(order(&standings(&r).text), ["Alice", "Dave", "Bob", "Erin", "Carol"]);
    let erin = standings(&r).text.lines().find(|l| l.starts_with("4. Erin")).unwrap().to_string();
    assert_eq!(erin, "4. Erin (1500?)");
    assert_eq!(tb.query_i64(&format!("SELECT count(*) FROM rating_history WHERE game_id = {game}")), 0);

    // A draw changes nothing.
    let r = say(&tb, "Erin", "!ladder challenge @Dave");
    assert!(r.text().contains("Ladder challenge #"), "{}", r.text());
    let r = say(&tb, "Dave", "!ladder accept");
    assert!(r.text().contains("Game #"), "{}", r.text());
    say(&tb, "Erin", "!draw");
    let r = say(&tb, "Dave", "!draw");
    assert!(r.text().contains("Ladder: a draw changes nothing. (ladder result 3)"), "{}", r.text());
    assert!(r.replies.iter().all(|r| r.slot.is_none()), "no standings message when nothing moved");

    // Not accepted in time: forfeited by the scheduler.
    assert!(say(&tb, "Carol", "!ladder challenge @Bob").text().contains("Ladder challenge #"));
    tb.clock.advance(3 * 86_400 - 1);
    assert!(!tb.tick().text().contains("forfeited"));
    tb.clock.advance(1);
    let r = tb.tick();
    assert!(
        r.text().contains("Bob did not accept the Chess ladder challenge of Carol in time, which counts as forfeited. Carol takes place 3 from Bob."),
        "{}",
        r.text()
    );
    assert_eq!(order(&standings(&r).text), ["Alice", "Dave", "Carol", "Bob", "Erin"]);
    assert!(!tb.tick().text().contains("expired"), "the ordinary challenge expired with it");
    // Each result is announced with its number among the season's results, which `undo` takes
    // (before: the number counted the joins too, and the texts named it event, result and ladder
    // result). Dave's forfeit (1), Erin's win (2), the draw (3), Carol's forfeit (4).
    assert_eq!(number_after(&r.text(), "(ladder result "), 4, "{}", r.text());

    // Undo with a reason (administrators only).
    assert!(say(&tb, "Bob", "!ladder undo 4 I was away").text().contains("only the community's administrators"));
    assert!(admin(&tb, "!ladder undo 4").text().contains("Say why"));
    let r = admin(&tb, "!ladder undo 5 oops").text();
    assert!(r.starts_with("There is no ladder result 5 this season"), "{r}");
    let r = admin(&tb, "!ladder undo 4 Bob was in hospital");
    // It names the result as the players know it (before: the number alone).
    assert!(
        r.text().starts_with("Ladder result 4 of the Chess ladder (Carol against Bob: forfeited by Bob) is undone"),
        "{}",
        r.text()
    );
    assert!(r.text().contains("reason: Bob was in hospital"), "{}", r.text());
    assert!(!r.text().contains("rating"), "a forfeit had no game: {}", r.text());
    assert!(admin(&tb, "!ladder undo 4 again").text().contains("Ladder result 4 has already been undone"));
    assert_eq!(order(&standings(&r).text), ["Alice", "Dave", "Bob", "Erin", "Carol"]);
    assert!(say(&tb, "Carol", "!ladder remove @Bob").text().contains("only the community's administrators"));

    // Season close archives; the archive can be shown; the new season keeps the order.
    let r = admin(&tb, "!ladder season close");
    assert!(r.text().contains("Season 1 of the Chess ladder is closed"), "{}", r.text());
    let s = say(&tb, "Alice", "!ladder season 1").text();
    assert!(s.contains("season 1 (closed)"), "{s}");
    assert_eq!(order(&s), ["Alice", "Dave", "Bob", "Erin", "Carol"]);
    let now = say(&tb, "Alice", "!ladder").text();
    assert!(now.contains("season 2"), "{now}");
    assert_eq!(order(&now), ["Alice", "Dave", "Bob", "Erin", "Carol"]);
    assert!(say(&tb, "Alice", "!ladder season 2").text().contains("no closed season 2"));
    assert!(tb.bot.now() > T0);
}

/// A ladder game cannot be aborted, not even before anyone has moved (before: accepting and then
/// aborting called the challenge off at no cost, where declining it counts as a forfeit); resigning
/// at once concedes it for the ladder.
#[test]
fn a_ladder_game_is_not_aborted() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, "!ladder join");
    }
    say(&tb, "Carol", "!ladder challenge @Alice");
    let r = say(&tb, "Alice", "!accept");
    assert!(r.text().contains("Game #1 starts"), "{}", r.text());
    for who in ["Alice", "Carol"] {
        let r = say(&tb, who, "!abort");
        assert!(r.text().contains("Game #1 is a ladder game, which cannot be aborted"), "{}", r.text());
    }
    assert!(say(&tb, "Alice", "!games").text().contains("#1"), "the game goes on");
    // Resigning before anyone moved concedes: Carol takes Alice's place.
    let r = say(&tb, "Alice", "!resign");
    assert!(r.text().contains("Carol takes place 1 from Alice"), "{}", r.text());
    assert_eq!(order(&standings(&r).text), ["Carol", "Alice", "Bob"]);
}

/// Leaving escapes no challenge (before: the challenge vanished silently, and a game under way went
/// on as a plain game whose end had no ladder line): challenged and leaving counts as a forfeit,
/// the challenger is told and pinged; leaving during the game resigns it; one's own challenge not
/// yet accepted is withdrawn, and the one challenged is told.
#[test]
fn leaving_forfeits_the_open_challenge_and_tells_the_other_side() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    for who in ["Alice", "Bob", "Carol", "Dave", "Erin"] {
        say(&tb, who, "!ladder join");
    }
    say(&tb, "Carol", "!ladder challenge @Alice");
    let r = say(&tb, "Alice", "!ladder leave");
    let text = r.text();
    assert!(text.contains("Alice leaves the Chess ladder"), "{text}");
    assert!(text.contains("counts as lost by Alice. Carol takes place 1 from Alice."), "{text}");
    assert!(r.replies.iter().any(|r| r.notify.iter().any(|u| u.id == "carol")), "Carol is pinged: {r:?}");
    assert_eq!(order(&standings(&r).text), ["Carol", "Bob", "Dave", "Erin"]);
    // During the game: the leaver resigns it, and the ladder counts it.
    say(&tb, "Dave", "!ladder challenge @Bob");
    assert!(say(&tb, "Bob", "!accept").text().contains("Game #1 starts"));
    let r = say(&tb, "Bob", "!ladder leave");
    let text = r.text();
    assert!(text.contains("Game #1 is over: ") && text.contains("Ladder: Dave takes place 2 from Bob"), "{text}");
    assert_eq!(order(&standings(&r).text), ["Carol", "Dave", "Erin"]);
    assert!(!say(&tb, "Bob", "!games").text().contains("#1"), "the game is over");
    // The challenger leaving: their challenge is withdrawn, and the one challenged hears of it.
    say(&tb, "Erin", "!ladder challenge @Carol");
    let r = say(&tb, "Erin", "!ladder leave");
    assert!(r.text().contains("The challenge of Erin to Carol is withdrawn"), "{}", r.text());
    assert!(say(&tb, "Dave", "!ladder challenge @Carol").text().contains("Ladder challenge #"));
}

/// Undoing a played result says what stays: the game and its rating changes (before: nothing said
/// whether the ratings were taken back).
#[test]
fn undoing_a_games_result_keeps_its_rating_changes() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    say(&tb, "Alice", "!ladder join");
    say(&tb, "Bob", "!ladder join");
    say(&tb, "Bob", "!ladder challenge @Alice");
    say(&tb, "Alice", "!accept");
    let r = say(&tb, "Alice", "!resign");
    assert!(r.text().contains("Ladder: Bob takes place 1 from Alice. (ladder result 1)"), "{}", r.text());
    let r = admin(&tb, "!ladder undo 1 a mouse slip");
    let text = r.text();
    assert!(text.contains("(Bob against Alice: a win for Bob)"), "{text}");
    assert!(text.contains("Game #1 and its rating changes stay as they were"), "{text}");
    assert_eq!(order(&standings(&r).text), ["Alice", "Bob"]);
}

/// With several ladders, one ladder's standings are asked for by its variant (`ladder standings
/// chess`, `ladder chess`, as the help's `[variant]` says); `ladder` alone shows them all. (Before:
/// "ladder standings takes nothing after it, not 'chess'".)
#[test]
fn one_ladders_standings_by_its_variant() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    admin(&tb, "!ladder create capablanca");
    say(&tb, "Alice", "!ladder join chess");
    say(&tb, "Bob", "!ladder join capablanca");
    for typed in ["!ladder standings chess", "!ladder chess", "!ladder standings Chess"] {
        let text = say(&tb, "Carol", typed).text();
        assert!(text.contains("Chess ladder") && text.contains("1. Alice"), "{typed}: {text}");
        assert!(!text.contains("Capablanca") && !text.contains("Bob"), "{typed}: one ladder: {text}");
    }
    let text = say(&tb, "Carol", "!ladder standings capablanca").text();
    assert!(text.contains("1. Bob") && !text.contains("Alice"), "{text}");
    let text = say(&tb, "Carol", "!ladder").text();
    assert!(text.contains("1. Alice") && text.contains("1. Bob"), "all of them: {text}");
    assert!(say(&tb, "Carol", "!ladder standings atomic").text().contains("This community has no Atomic"));
    assert!(say(&tb, "Carol", "!ladder standings chess atomic").text().contains("Say !help ladder"));
}

fn on(platform: &str, who: &str, id: &str, text: &str) -> Input {
    let mut i = msg_in("room", who, text);
    i.scope.platform = platform.into();
    i.author.id = id.into();
    i
}

/// [`on`] in the person's direct chat with capabot.
fn on_direct(platform: &str, who: &str, id: &str, text: &str) -> Input {
    let mut i = on(platform, who, id, text);
    (i.scope.chat, i.scope.direct, i.scope.community) = (format!("dm-{id}"), true, None);
    i
}

#[test]
fn linking_accounts_across_platforms() {
    let tb = new_bot();
    // Alice plays Bob on Discord.
    let mut ch = on("discord", "Alice", "d-alice", "!challenge @bob chess");
    ch.mentions[0].id = "d-bob".into();
    tb.bot.handle(&ch);
    assert!(tb.bot.handle(&on("discord", "Bob", "d-bob", "!accept")).text().contains("Game #1 starts"));
    // Asking for a code answers for her eyes only (anyone who reads it could redeem it): to her
    // direct messages, never in the chat.
    let r = tb.bot.handle(&on("discord", "Alice", "d-alice", "!link"));
    assert_eq!(r.replies.len(), 1);
    assert!(matches!(&r.replies[0].audience, Audience::Only(u) if u.id == "d-alice"), "{:?}", r.replies[0]);
    assert!(matches!(&r.replies[0].target, Target::Direct { fallback: None, .. }), "{:?}", r.replies[0]);
    let text = &r.replies[0].text;
    let code = text.split_whitespace().nth(4).unwrap().trim_end_matches('.').to_string();
    assert_eq!(code.len(), 9, "{text}");
    // Before linking, the Matrix account has no games.
    assert!(tb.bot.handle(&on("matrix", "alice", "@alice:m", "!games")).text().contains("no games"));
    let r = tb.bot.handle(&on_direct("matrix", "alice", "@alice:m", &format!("!link {code}")));
    assert!(r.text().contains("Linked"), "{}", r.text());
    let games = tb.bot.handle(&on("matrix", "alice", "@alice:m", "!games")).text();
    assert!(games.contains("#1 Chess vs bob"), "{games}");
    // A code works once.
    let r = tb.bot.handle(&on_direct("telegram", "x", "t-x", &format!("!link {code}")));
    assert!(r.text().contains("already been used"), "{}", r.text());
    // Codes expire after ten minutes.
    let r = tb.bot.handle(&on("discord", "Bob", "d-bob", "!link"));
    let code = r.replies[0].text.split_whitespace().nth(4).unwrap().trim_end_matches('.').to_string();
    tb.clock.advance(10 * 60);
    let r = tb.bot.handle(&on_direct("matrix", "bob", "@bob:m", &format!("!link {code}")));
    assert!(r.text().contains("expired"), "{}", r.text());
    assert!(tb.bot.handle(&on_direct("matrix", "bob", "@bob:m", "!link nonsense")).text().contains("not a link code"));
    // A code typed where others read it is spent, whether or not it would have linked (here it
    // could not: the same platform), and its author alone is told so: whoever read it here cannot
    // join their account to Bob's with it.
    let r = tb.bot.handle(&on("discord", "Bob", "d-bob", "!link"));
    let code = r.replies[0].text.split_whitespace().nth(4).unwrap().trim_end_matches('.').to_string();
    let r = tb.bot.handle(&on("discord", "Bob", "d-bob", &format!("!link {code}")));
    assert_eq!(r.replies.len(), 1);
    assert!(matches!(&r.replies[0].audience, Audience::Author), "nothing secret in it: {:?}", r.replies[0]);
    assert!(r.text().contains("direct message with me") && r.text().contains("no longer works"), "{}", r.text());
    let r = tb.bot.handle(&on_direct("matrix", "mallory", "@mallory:m", &format!("!link {code}")));
    assert!(r.text().contains("already been used"), "{}", r.text());
    let games = tb.bot.handle(&on("matrix", "mallory", "@mallory:m", "!games")).text();
    assert!(games.contains("no games"), "{games}");
    // Unlinking gives the Matrix account its own player again.
    assert!(tb.bot.handle(&on("matrix", "alice", "@alice:m", "!unlink")).text().contains("Unlinked"));
    assert!(tb.bot.handle(&on("matrix", "alice", "@alice:m", "!unlink")).text().contains("not linked"));
}

/// The board themes of the pictures in `r` that go to a chat, in order.
fn themes(r: &Response) -> Vec<capabot::render::Theme> {
    use capabot::bot::Drawing;
    r.replies
        .iter()
        .filter(|x| matches!(x.target, Target::Chat(_)))
        .filter_map(|x| match &x.drawing {
            Some(Drawing::Board(b)) => Some(b.theme),
            Some(Drawing::Game(g)) => Some(g.theme),
            _ => None,
        })
        .collect()
}

/// `settings theme:contrast` (for colour-blind readers): the chat's pictures are drawn in it from
/// then on, whatever made them; a community's theme is its chats' that choose none; a theme capabot
/// does not know is refused with the names and changes nothing; `settings` says which is in force.
/// (Before: the renderer's three themes were there, and every picture was drawn in wood.)
#[test]
fn a_chats_board_theme_draws_its_pictures() {
    use capabot::bot::{BotConfig, Scope, UserRef};
    use capabot::render::Theme;
    let tb = crate::common::new_bot_with(BotConfig { pictures: true, ..BotConfig::default() });
    let before = tb.fingerprint();
    let out = admin(&tb, "!settings theme:purple").text();
    assert!(out.contains("I know no board theme 'purple'; the themes are wood, green, contrast"), "{out}");
    // The refusal names the way back too, which `settings theme:` takes as `theme` does.
    assert!(out.contains("and default goes back to the one you would have without a choice"), "{out}");
    assert_eq!(tb.fingerprint(), before, "a refused setting changes nothing");

    let r = say(&tb, "Alice", "!challenge @Bob chess color:white");
    assert!(r.text().contains("Challenge #"), "{}", r.text());
    assert_eq!(themes(&say(&tb, "Bob", "!accept")), [Theme::Wood], "the default");
    assert!(admin(&tb, "!settings community theme:green").text().contains("theme:green"));
    assert_eq!(themes(&say(&tb, "Alice", "e4")), [Theme::Green], "the community's");
    assert!(admin(&tb, "!settings theme:colourblind").text().contains("theme:contrast"));
    let moved = say(&tb, "Bob", "e5");
    assert_eq!(themes(&moved), [Theme::Contrast], "the chat's own");
    assert!(say(&tb, "Bob", "!settings").text().contains("board theme contrast"));
    // Drawn so: the same board in another theme is other pixels.
    let contrast = moved.replies.iter().find(|x| x.drawing.is_some()).expect("a board").clone();
    let mut wood = contrast.clone();
    wood.drawing.as_mut().expect("a drawing").set_theme(Theme::Wood);
    let pixels = |r: Reply| crate::common::pixels(&r.drawn().png.expect("a picture"));
    assert_ne!(pixels(contrast), pixels(wood));
    // Another chat of the community, with no theme of its own, has the community's.
    let side = Scope::chat("test", "side").in_community("g");
    let input = |who: &str, text: &str| {
        Input::text(side.clone(), UserRef::new(who.to_lowercase(), who), text)
            .with_mentions(vec![UserRef::new("dave", "Dave")])
    };
    tb.bot.handle(&input("Carol", "!challenge @Dave chess color:white"));
    assert_eq!(themes(&tb.bot.handle(&input("Dave", "!accept"))), [Theme::Green]);
}

/// A community's web pages draw its games in the community's theme (`settings community
/// theme:contrast`), and a game's animation there in its chat's, as the chat gets it.
#[test]
fn the_web_pages_draw_in_the_communitys_theme() {
    use capabot::bot::{BotConfig, Drawing};
    use capabot::render::Theme;
    let tb = crate::common::new_bot_with(BotConfig {
        pictures: true,
        web_url: Some("https://chess.example.org".into()),
        ..BotConfig::default()
    });
    assert!(admin(&tb, "!settings community web:on theme:contrast").text().contains("theme:contrast"));
    say(&tb, "Alice", "!challenge @Bob chess color:white");
    let started = say(&tb, "Bob", "!accept");
    let url = started.replies.iter().find_map(|r| r.card.as_ref()?.web_url.clone()).expect("the game's address");
    let slug = url.rsplit('/').next().expect("a slug");
    let page = tb.bot.web_game(slug).unwrap().expect("the page");
    assert!(page.boards.iter().all(|b| b.theme == Theme::Contrast), "{:?}", page.boards);
    assert!(admin(&tb, "!settings theme:green").text().contains("theme:green"));
    assert!(say(&tb, "Alice", "e4").text().contains("played by"));
    match tb.bot.web_gif(slug).unwrap() {
        Some(Drawing::Game(g)) => assert_eq!(g.theme, Theme::Green, "the chat's, as it gets it"),
        other => panic!("an animation: {other:?}"),
    }
}

/// The board themes of every picture in `r`, in order, with whether it goes to one person's direct
/// messages.
fn themes_all(r: &Response) -> Vec<(bool, capabot::render::Theme)> {
    use capabot::bot::Drawing;
    r.replies
        .iter()
        .filter_map(|x| {
            let direct = matches!(x.target, Target::Direct { .. });
            match &x.drawing {
                Some(Drawing::Board(b)) => Some((direct, b.theme)),
                Some(Drawing::Game(g)) => Some((direct, g.theme)),
                _ => None,
            }
        })
        .collect()
}

/// `theme contrast`: the pictures only the person reads are drawn in it (their own secret-bomb
/// board in their direct messages; said in their direct chat, that chat's games against capabot
/// too), a shared chat's stay in the chat's theme; `theme default` forgets it.
#[test]
fn a_persons_own_theme_draws_what_only_they_read() {
    use crate::common::dm;
    use capabot::bot::BotConfig;
    use capabot::render::Theme;
    let tb = crate::common::new_bot_with(BotConfig { pictures: true, ..BotConfig::default() });
    tb.say("alice", "!challenge @bob bomb color:white");
    tb.say("bob", "!accept");
    let out = dm(&tb, "alice", "theme").text();
    assert!(out.contains("I draw the pictures sent to you alone in wood"), "{out}");
    let out = dm(&tb, "alice", "theme contrast").text();
    assert!(out.contains("From now on I draw the pictures sent to you alone in contrast"), "{out}");
    assert_eq!(themes_all(&dm(&tb, "alice", "bomb b1")), [(true, Theme::Contrast)], "her own board");
    dm(&tb, "bob", "bomb e7");
    assert_eq!(themes_all(&tb.raw("alice", "e4")), [(false, Theme::Wood)], "the shared chat's");
    assert_eq!(themes_all(&dm(&tb, "bob", "bomb")), [(true, Theme::Wood)], "bob's own: his default");
    // Her game against capabot in her direct chat.
    let play = dm(&tb, "alice", "play chess color:white level:1");
    assert!(play.text().contains("starts"), "{}", play.text());
    assert!(themes_all(&play).iter().all(|(_, t)| *t == Theme::Contrast), "{:?}", themes_all(&play));
    assert!(dm(&tb, "alice", "theme default").text().contains("Your own board theme is reset"));
    assert_eq!(themes_all(&dm(&tb, "alice", "bomb")), [(true, Theme::Wood)]);
}

/// A secret-bomb game's page names the bombs once the game has a result, as the chat and the PGN
/// do, and not when it was aborted (whose notice names none). (Before: an aborted game's page
/// showed both.)
#[test]
fn an_aborted_secret_bomb_games_page_keeps_its_bombs() {
    use capabot::bot::BotConfig;
    let tb = crate::common::new_bot_with(BotConfig {
        web_url: Some("https://chess.example.org".into()),
        ..BotConfig::default()
    });
    assert!(admin(&tb, "!settings community web:on").text().contains("web:on"));
    let mut slugs = Vec::new();
    for _ in 0..2 {
        say(&tb, "Alice", "!challenge @Bob bomb color:white");
        let started = say(&tb, "Bob", "!accept");
        let url = started.replies.iter().find_map(|r| r.card.as_ref()?.web_url.clone()).expect("the game's address");
        slugs.push(url.rsplit('/').next().expect("a slug").to_string());
        assert!(crate::common::dm(&tb, "Alice", "bomb g1").text().contains("your bomb is"));
        assert!(crate::common::dm(&tb, "Bob", "bomb b8").text().contains("your bomb is"));
    }
    // The first aborted before both sides moved, the second resigned after they did.
    assert!(say(&tb, "Alice", "!abort #1").text().contains("aborted"));
    for (who, m) in [("Alice", "e4"), ("Bob", "e5")] {
        assert!(say(&tb, who, &format!("!move #2 {m}")).text().contains("played by"));
    }
    assert!(say(&tb, "Bob", "!resign #2").text().contains("resignation"));
    let aborted = tb.bot.web_game(&slugs[0]).unwrap().expect("the page");
    assert_eq!(aborted.bombs, None, "an aborted game's bombs stay secret");
    let finished = tb.bot.web_game(&slugs[1]).unwrap().expect("the page");
    let bombs = finished.bombs.expect("a finished game's bombs are told");
    assert!(bombs.contains("g1") && bombs.contains("b8"), "{bombs}");
}

/// A community's page runs as many statements with one ladder and one tournament as with three
/// ladders and five tournaments (the ladders' seasons as kept, the tournaments read together),
/// on SQLite and on PostgreSQL (`tests/pg`). Before: four statements more a ladder shown (its
/// season replayed from its events) and five more a tournament.
#[test]
fn a_community_page_runs_as_many_statements_whatever_it_shows() {
    use capabot::store::sql::statements_sent;
    let tb = new_bot();
    assert!(admin(&tb, "!settings community web:on").text().contains("saved"));
    let players = ["Alice", "Bob", "Carol"];
    let ladder = |variant: &str| {
        assert!(admin(&tb, &format!("!ladder create {variant}")).text().contains("ladder is open"));
        for who in players {
            assert!(say(&tb, who, &format!("!ladder join {variant}")).text().contains("joins"));
        }
    };
    let tournament = |name: &str| {
        let created = admin(&tb, &format!("!tournament create roundrobin chess days:7 signup:0 {name}")).text();
        let t = number_after(&created, "Tournament #");
        for who in players {
            let joined = say(&tb, who, &format!("!tournament #{t} join")).text();
            assert!(joined.contains("joins"), "{joined}");
        }
        assert!(admin(&tb, &format!("!tournament #{t} start")).text().contains("starts with 3 players"));
    };
    let read = || {
        let before = statements_sent();
        let page = tb.bot.web_community("test", "g").unwrap().expect("shown");
        (statements_sent() - before, page)
    };
    ladder("chess");
    let challenged = say(&tb, "Carol", "!ladder challenge @Bob chess").text();
    assert!(challenged.contains("Ladder challenge #"), "{challenged}");
    tournament("Cup 1");
    let (few, page) = read();
    assert_eq!((page.ladders.len(), page.tournaments.len()), (1, 1));
    assert_eq!(page.ladders[0].challenges, [("Carol".to_string(), "Bob".to_string(), false)]);

    ladder("atomic");
    ladder("caparandom");
    for i in 2..=5 {
        tournament(&format!("Cup {i}"));
    }
    let (more, page) = read();
    assert_eq!((page.ladders.len(), page.tournaments.len()), (3, 5));
    assert!(page.ladders.iter().all(|l| l.standings.len() == 3), "{:?}", page.ladders);
    assert!(page.tournaments.iter().all(|t| t.rounds.len() == 3 && t.standings.len() == 3));
    assert_eq!(more, few, "statements with 3 ladders and 5 tournaments, and with 1 and 1");

    // The standings are read as kept, not replayed from the seasons' events (which only grow).
    tb.by_hand("DELETE FROM ladder_events", ());
    let (_, page) = read();
    assert!(page.ladders.iter().all(|l| l.standings.len() == 3), "{:?}", page.ladders);
}

/// How many older finished tournaments a community's page leaves out is counted up to
/// `LEFT_OUT_COUNTED` (1,000) past the ten it shows, and past that it says "more than 1,000", in
/// the page's language: the counting reads a bounded number of index entries whatever the
/// community's history. (Before: every tournament of the community was counted.)
#[test]
fn a_community_page_counts_what_it_leaves_out_up_to_a_thousand() {
    use capabot::bot::{LEFT_OUT_COUNTED, LeftOut};
    let tb = new_bot();
    assert!(admin(&tb, "!settings community web:on").text().contains("saved"));
    let finished = |n: usize| {
        let sql = format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n})
             INSERT INTO tournaments (platform, community_id, name, variant, system, days_per_move, status, created_at)
             SELECT 'test', 'g', 'Old Cup', 'chess', 'roundrobin', 7, 'finished', 0 FROM n"
        );
        tb.by_hand(&sql, ());
    };
    let page = || tb.bot.web_community("test", "g").unwrap().expect("shown");
    assert_eq!(LEFT_OUT_COUNTED, 1_000);
    finished(1_010);
    let counted = page();
    assert_eq!((counted.tournaments.len(), counted.older_tournaments), (10, LeftOut::Counted(1_000)));
    finished(1);
    let many = page();
    assert_eq!(many.older_tournaments, LeftOut::MoreThan(1_000));
    #[cfg(feature = "web")]
    {
        use capabot::i18n::{Lang, with_lang};
        let html = |lang| with_lang(lang, || capabot::web::pages::community(&many));
        for (lang, said) in [
            (Lang::En, "More than 1,000 older finished tournaments are not shown."),
            (Lang::Tr, "Daha önce bitmiş ve gösterilmeyen turnuvaların sayısı 1.000 üzerinde."),
            (Lang::De, "Mehr als 1.000 ältere beendete Turniere werden nicht gezeigt."),
        ] {
            let page = html(lang);
            assert!(page.contains(said), "{lang:?}: {page}");
        }
        let page = with_lang(Lang::En, || capabot::web::pages::community(&counted));
        // Grouped as "More than 1,000" is (before: 1000).
        assert!(page.contains("1,000 older finished tournaments are not shown."), "{page}");
    }
}

/// A challenger takes back their ladder challenge with `ladder withdraw` (before: "Unknown ladder
/// action 'withdraw'"), as `decline #N` does; `ladder decline` typed by the challenger says how
/// (before: only "Nobody has challenged you on this ladder.").
#[test]
fn a_challenger_withdraws_with_ladder_withdraw() {
    let tb = new_bot();
    admin(&tb, "!ladder create chess");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, "!ladder join");
    }
    assert!(say(&tb, "Carol", "!ladder withdraw").text().contains("You have no pending ladder challenge to withdraw"));
    say(&tb, "Carol", "!ladder challenge @Bob");
    let before = tb.fingerprint();
    for typed in ["!ladder decline", "!ladder accept"] {
        let text = say(&tb, "Carol", typed).text();
        assert!(text.contains("Nobody has challenged you on this ladder"), "{typed}: {text}");
        assert!(
            text.contains("Your challenge to Bob waits for their answer; !ladder withdraw takes it back"),
            "{text}"
        );
    }
    assert_eq!(tb.fingerprint(), before, "a refusal changes nothing");
    let r = say(&tb, "Carol", "!ladder withdraw");
    assert!(r.text().contains("Carol withdraws their Chess ladder challenge"), "{}", r.text());
    assert!(say(&tb, "Bob", "!accept").text().contains("no challenge"), "the challenge is gone");
    assert!(say(&tb, "Carol", "!ladder challenge @Alice").text().contains("Ladder challenge #"), "free again");
}

//! Tournaments through the core: a 6-player round robin and an 8-player Swiss played to the end
//! with results from real games (resignations, draws by agreement, a loss on time), their pairings
//! and standings with tie-breaks checked against expectations computed by hand; the registration
//! window that starts a tournament by itself; and the refusals (non-administrators, aborting a
//! tournament game, registering twice or late).

use crate::common::{TestBot, community_admin as admin, community_say as say, dm, msg_in, new_bot, number_after};
use capabot::bot::command::{Command, TournamentCmd};
use capabot::bot::{Audience, Reply, Response, Target};
use std::collections::{HashMap, HashSet};

const DAY: i64 = 86_400;

/// One board as the database holds it.
#[derive(Debug)]
struct Board {
    round: i64,
    white: String,
    black: String,
    game: i64,
}

/// The boards of a tournament's round (all rounds with `None`), with the players' names.
fn boards(tb: &TestBot, t: i64, round: Option<i64>) -> Vec<Board> {
    let c = tb.bot.store().conn().unwrap();
    let mut st = c
        .prepare(
            "SELECT g.round, w.name, b.name, g.game_id FROM tournament_games g
             JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id
             WHERE g.tournament_id = ?1 AND g.board > 0 AND (CAST(?2 AS BIGINT) IS NULL OR g.round = ?2) ORDER BY g.round, g.board",
        )
        .unwrap();
    st.query_map(capabot::store_params![t, round], |r| {
        Ok(Board { round: r.get(0)?, white: r.get(1)?, black: r.get(2)?, game: r.get(3)? })
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// The standings lines ("1. Alice 3½ (SB 7¾)") of the last standings in `text`.
fn standings_lines(text: &str) -> Vec<String> {
    let start = text.rfind("standings:").unwrap_or_else(|| panic!("no standings in {text}"));
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.split_once(". ").is_some_and(|(n, _)| n.parse::<u32>().is_ok()))
        .map(str::to_string)
        .collect()
}

/// Ends game `game` with `winner` (None: a draw by agreement), as the players would.
fn decide(tb: &TestBot, b: &Board, winner: Option<&str>) -> Response {
    match winner {
        Some(w) => {
            let loser = if w == b.white { &b.black } else { &b.white };
            say(tb, loser, &format!("!resign #{}", b.game))
        }
        None => {
            let offer = say(tb, &b.white, &format!("!draw #{}", b.game));
            assert!(offer.text().contains("offers a draw"), "{}", offer.text());
            say(tb, &b.black, &format!("!draw #{}", b.game))
        }
    }
}

/// A name's invisible direction overrides and zero-width spaces are not kept (before: echoed as
/// typed): a tournament's name cannot be written to read as another or to turn the rest of a line
/// around.
#[test]
fn a_tournaments_name_keeps_no_invisible_direction_marks() {
    let tb = new_bot();
    let r = admin(&tb, "!tournament create roundrobin chess days:7 signup:0 Spring\u{202E}puC\u{200B} \u{2067}X");
    assert!(r.text().contains("SpringpuC X: Chess, round robin"), "{}", r.text());
    assert!(!r.text().contains(['\u{202E}', '\u{200B}', '\u{2067}']), "{:?}", r.text());
    let listed = say(&tb, "Alice", "!tournament").text();
    assert!(listed.contains("SpringpuC X") && !listed.contains('\u{202E}'), "{listed:?}");
    // A Swiss tournament whose rounds the players will set is listed so (before: "Swiss, 0 rounds").
    admin(&tb, "!tournament create swiss chess days:2 signup:0 Open");
    let listed = say(&tb, "Alice", "!tournament").text();
    assert!(listed.contains("Open: Chess, Swiss (rounds set by the number of players)"), "{listed}");
}

/// Two systems where one goes are refused, naming both, and nothing is created (before: `swiss
/// double Spring Cup` made a Swiss named "double Spring Cup"), in any language.
#[test]
fn two_systems_create_no_tournament() {
    let tb = new_bot();
    let r = admin(&tb, "!tournament create swiss double Spring Cup");
    assert!(r.text().starts_with("'swiss' and 'double' are both tournament systems"), "{}", r.text());
    admin(&tb, "!settings lang:tr");
    let r = admin(&tb, "!tournament oluştur tek-devre satranç isviçre-sistemi Bahar Kupası");
    assert!(r.text().starts_with("'tek-devre' ve 'isviçre-sistemi' ikisi de turnuva sistemi"), "{}", r.text());
    assert_eq!(tb.query_i64("SELECT count(*) FROM tournaments"), 0);
}

#[test]
fn six_player_round_robin_with_sonneborn_berger() {
    let tb = new_bot();
    let r = admin(&tb, "!tournament create roundrobin caparandom days:7 signup:0 Autumn Cup");
    let t = number_after(&r.text(), "Tournament #");
    assert!(r.text().contains("Autumn Cup: Capablanca Random Chess, round robin, 7 days per move"), "{}", r.text());
    // Everyone may press Join: it carries the typed command.
    let join = &r.replies[0].choices[0];
    assert_eq!(join.command, Command::Tournament(TournamentCmd::Join(Some(t))));
    assert!(join.for_user.is_none());

    let names = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank"];
    for (i, who) in names.iter().enumerate() {
        let r = say(&tb, who, "!tournament join");
        assert!(r.text().contains(&format!("{who} joins Autumn Cup (#{t}); {} player", i + 1)), "{}", r.text());
    }
    assert!(say(&tb, "Bob", "!tournament join").text().contains("already registered"));
    let shown = say(&tb, "Bob", &format!("!tournament #{t}")).text();
    assert!(
        shown.contains("Registration is open; an administrator starts it.") && shown.contains("6. Frank"),
        "{shown}"
    );

    let started = admin(&tb, "!tournament start");
    let text = started.text();
    assert!(text.contains(&format!("Tournament #{t} Autumn Cup starts with 6 players")), "{text}");
    // Berger's table for six: round 1 is 1–6, 2–5, 3–4; every round is paired at once.
    assert!(text.contains("Round 1 of 5:\nBoard 1: Alice – Frank"), "{text}");
    assert!(text.contains("Board 2: Bob – Erin") && text.contains("Board 3: Carol – Dave"), "{text}");
    assert!(text.contains("Round 5 of 5:"), "{text}");
    let pinged: HashSet<String> = started.replies[0].notify.iter().map(|u| u.id.clone()).collect();
    assert_eq!(pinged, names.iter().map(|n| n.to_lowercase()).collect::<HashSet<_>>());
    assert!(
        admin(&tb, &format!("!tournament #{t} join")).text().contains("Registration for this tournament has closed")
    );
    // A player who asks to leave once it runs is told that it is a withdrawal now and how to
    // confirm it (a button for them alone); nothing changes yet.
    for typed in ["!tournament leave".to_string(), format!("!tournament #{t} leave")] {
        let out = say(&tb, "Bob", &typed);
        assert!(
            out.text().contains(&format!("Autumn Cup (#{t}) has begun: leaving it now is a withdrawal.")),
            "{}",
            out.text()
        );
        assert!(out.text().contains(&format!("To withdraw, say !tournament #{t} withdraw.")), "{}", out.text());
        let button = &out.replies[0].choices[0];
        assert_eq!(button.command, Command::Tournament(TournamentCmd::Withdraw(Some(t))));
        assert_eq!(button.for_user.as_ref().map(|u| u.id.as_str()), Some("bob"));
    }
    assert_eq!(tb.query_i64("SELECT count(*) FROM tournament_players WHERE withdrawn_at IS NOT NULL"), 0);
    // Someone else is told they are not in it (before: "Registration for this tournament has
    // closed"); a late joiner that the one tournament under way has begun.
    for typed in
        ["!tournament leave".to_string(), format!("!tournament #{t} leave"), format!("!tournament #{t} withdraw")]
    {
        let out = say(&tb, "Zed", &typed).text();
        let want = if typed.contains('#') {
            format!("You are not a player of Autumn Cup (#{t}).")
        } else {
            "You are in no tournament of this community that is open or running.".to_string()
        };
        assert!(out.contains(&want), "{typed}: {out}");
    }
    let out = say(&tb, "Zed", "!tournament join").text();
    assert!(out.contains(&format!("Autumn Cup (#{t}) has begun: its registration has closed")), "{out}");

    let all = boards(&tb, t, None);
    assert_eq!(all.len(), 15, "every pair meets once");
    let pairs: HashSet<(String, String)> = all
        .iter()
        .map(
            |b| if b.white < b.black { (b.white.clone(), b.black.clone()) } else { (b.black.clone(), b.white.clone()) },
        )
        .collect();
    assert_eq!(pairs.len(), 15);
    // One random setup per round, on all its boards; the games are rated (the community's default).
    for round in 1..=5 {
        let fens: HashSet<String> = boards(&tb, t, Some(round))
            .iter()
            .map(|b| tb.query_str(&format!("SELECT start_fen FROM games WHERE id = {}", b.game)))
            .collect();
        assert_eq!(fens.len(), 1, "round {round}: {fens:?}");
    }
    assert_eq!(tb.query_i64(&format!("SELECT min(rated) FROM games WHERE id IN ({})", ids(&all))), 1);
    // A tournament game cannot be aborted.
    let g = &all[0];
    let r = say(&tb, &g.white, &format!("!abort #{}", g.game));
    assert!(r.text().contains("tournament game, which cannot be aborted"), "{}", r.text());

    // The results, pair by pair (`None`: a draw). Scores: Alice 3½, Bob 3½, Dave 2½, Erin 2½,
    // Carol 1½, Frank 1½.
    let winner = |a: &str, b: &str| -> Option<&'static str> {
        let key = if a < b { (a, b) } else { (b, a) };
        match key {
            ("Alice", "Bob") | ("Alice", "Carol") | ("Alice", "Frank") => Some("Alice"),
            ("Alice", "Dave") => None,
            ("Alice", "Erin") => Some("Erin"),
            ("Bob", "Carol") | ("Bob", "Dave") | ("Bob", "Frank") => Some("Bob"),
            ("Bob", "Erin") => None,
            ("Carol", "Dave") => Some("Carol"),
            ("Carol", "Erin") => Some("Erin"),
            ("Carol", "Frank") => None,
            ("Dave", "Erin") | ("Dave", "Frank") => Some("Dave"),
            ("Erin", "Frank") => Some("Frank"),
            other => panic!("no result for {other:?}"),
        }
    };
    let mut last = String::new();
    for (i, b) in all.iter().enumerate() {
        let w = winner(&b.white, &b.black);
        let r = decide(&tb, b, w.map(|w| if w == b.white { b.white.as_str() } else { b.black.as_str() }));
        last = r.text();
        assert!(last.contains(&format!("Tournament #{t} Autumn Cup: the result stands on board")), "{last}");
        if i + 1 < all.len() {
            assert!(!last.contains("Autumn Cup is over"), "{last}");
        }
    }
    // Sonneborn–Berger by hand: Alice beat Bob 3½, Carol 1½, Frank 1½ and drew Dave 2½ → 7.75;
    // Bob beat Carol 1½, Dave 2½, Frank 1½, drew Erin 2½ → 6.75; Erin beat Alice 3½, Carol 1½,
    // drew Bob 3½ → 6.75; Dave beat Erin 2½, Frank 1½, drew Alice 3½ → 5.75; Carol beat Dave 2½,
    // drew Frank 1½ → 3.25; Frank beat Erin 2½, drew Carol 1½ → 3.25 (then seed: Carol first).
    assert!(last.contains(&format!("Tournament #{t} Autumn Cup is over. Final standings:")), "{last}");
    assert_eq!(
        standings_lines(&last),
        [
            "1. Alice 3½ (SB 7¾)",
            "2. Bob 3½ (SB 6¾)",
            "3. Erin 2½ (SB 6¾)",
            "4. Dave 2½ (SB 5¾)",
            "5. Carol 1½ (SB 3¼)",
            "6. Frank 1½ (SB 3¼)",
        ]
    );
    assert!(last.contains("Congratulations, Alice!"));
    // Announced once: the next command owes nothing more.
    assert!(!say(&tb, "Bob", "!help").text().contains("is over"));
    let shown = say(&tb, "Bob", &format!("!tournament #{t} round 1")).text();
    assert!(shown.contains("Final standings:") && shown.contains("Round 1 of 5:"), "{shown}");
    // Every game was decided before both sides moved: each counted for the tournament, none was
    // rated (before: every resignation moved both ratings by hundreds of points).
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings WHERE variant = 'caparandom'"), 0);
}

/// A tournament game that ends before both sides have moved (a resignation, a loss on time)
/// scores for the tournament but is not rated, and its end says so; one played is rated.
#[test]
fn a_tournament_game_without_moves_scores_but_is_not_rated() {
    let tb = new_bot();
    let t = number_after(&admin(&tb, "!tournament create roundrobin chess days:1 signup:0 Cup").text(), "Tournament #");
    for who in ["Alice", "Bob", "Carol", "Dave"] {
        say(&tb, who, "!tournament join");
    }
    admin(&tb, "!tournament start");
    let first = boards(&tb, t, Some(1));
    let (b1, b2) = (&first[0], &first[1]);
    // Resigned at once: the point counts, the ratings do not move.
    let r = say(&tb, &b1.black, &format!("!resign #{}", b1.game)).text();
    assert!(r.contains("Not rated: the game ended before both sides had moved."), "{r}");
    assert!(!r.contains("Ratings:"), "{r}");
    let shown = say(&tb, "Alice", &format!("!tournament #{t}")).text();
    assert!(shown.contains(&format!("1. {} 1 ", b1.white)), "{shown}");
    // Played, then resigned: rated as ever.
    say(&tb, &b2.white, &format!("!move #{} e4", b2.game));
    say(&tb, &b2.black, &format!("!move #{} e5", b2.game));
    let r = say(&tb, &b2.black, &format!("!resign #{}", b2.game)).text();
    assert!(r.contains("Ratings:") && !r.contains("Not rated"), "{r}");
    // Every other game runs out of time with no move (one with White's first move only): lost on
    // time for the tournament, not rated.
    let later = boards(&tb, t, Some(2));
    say(&tb, &later[0].white, &format!("!move #{} e4", later[0].game));
    tb.clock.advance(DAY + 1);
    let r = tb.tick().text();
    assert_eq!(r.matches("ran out of time").count(), 4, "{r}");
    assert_eq!(r.matches("Not rated: the game ended before both sides had moved.").count(), 4, "{r}");
    assert!(!r.contains("Ratings:"), "{r}");
    assert_eq!(tb.query_i64("SELECT count(DISTINCT game_id) FROM rating_history"), 1);
    assert_eq!(tb.query_i64(&format!("SELECT count(*) FROM rating_history WHERE game_id = {}", b2.game)), 4);
}

fn ids(bs: &[Board]) -> String {
    bs.iter().map(|b| b.game.to_string()).collect::<Vec<_>>().join(",")
}

#[test]
fn eight_player_swiss_with_buchholz_and_a_loss_on_time() {
    let tb = new_bot();
    // Seeds follow the community ratings; unrated players (1500) keep registration order.
    let r = admin(&tb, "!tournament create swiss chess days:2 signup:0");
    let t = number_after(&r.text(), "Tournament #");
    assert!(r.text().contains("Chess Swiss: Chess, Swiss (rounds set by the number of players)"), "{}", r.text());
    let names = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"];
    for who in names {
        say(&tb, who, &format!("!tournament #{t} join"));
    }
    say(&tb, "P9", &format!("!tournament #{t} join"));
    assert!(say(&tb, "P9", &format!("!tournament #{t} leave")).text().contains("P9 leaves"));
    let started = admin(&tb, &format!("!tournament #{t} start")).text();
    // Eight players: ⌈log₂ 8⌉ + 1 = 4 rounds. Round 1 folds the field: 1–5, 6–2, 3–7, 8–4 (the
    // higher seed has White on odd boards).
    assert!(started.contains("Round 1 of 4:\nBoard 1: P1 – P5 (game #"), "{started}");
    assert!(started.contains("Board 2: P6 – P2 (") && started.contains("Board 3: P3 – P7 ("), "{started}");
    assert!(started.contains("Board 4: P8 – P4 ("), "{started}");
    assert!(!started.contains("Round 2"), "a Swiss is paired round by round: {started}");

    // The higher seed wins every game; the last game of round 4 is lost on time.
    let seed = |n: &str| n[1..].parse::<u32>().unwrap();
    let mut final_text = String::new();
    for round in 1..=4 {
        let bs = boards(&tb, t, Some(round));
        assert_eq!(bs.len(), 4, "round {round}");
        for (i, b) in bs.iter().enumerate() {
            let w = if seed(&b.white) < seed(&b.black) { &b.white } else { &b.black };
            let last_game = round == 4 && i == 3;
            if last_game {
                // White plays one move, then Black lets the clock run out (or the other way round).
                let (mover, sleeper) = if w == &b.white { (&b.white, &b.black) } else { (&b.black, &b.white) };
                if mover == &b.white {
                    assert!(say(&tb, mover, &format!("!move #{} e4", b.game)).text().contains("played by"));
                }
                tb.clock.advance(2 * DAY + 1);
                let r = tb.tick().text();
                assert!(r.contains(&format!("{sleeper} ran out of time")), "{r}");
                final_text = r;
            } else {
                let r = decide(&tb, b, Some(w.as_str())).text();
                if i == 3 && round < 4 {
                    assert!(r.contains(&format!("round {round} is complete and round {} is paired", round + 1)), "{r}");
                    assert!(r.contains(&format!("Tournament #{t} Chess Swiss: round {} is paired.", round + 1)), "{r}");
                }
            }
        }
    }
    // Pairings by the documented rule (worked by hand in the module's terms): round 2 pairs 2–1,
    // 4–3, 5–6, 7–8; round 3: 1–3, 5–2, 7–4, 6–8; round 4: 4–1, 3–2, 8–5, 6–7.
    let pairs: Vec<(i64, String, String)> =
        boards(&tb, t, None).into_iter().map(|b| (b.round, b.white, b.black)).collect();
    let expect = [
        (1, "P1", "P5"),
        (1, "P6", "P2"),
        (1, "P3", "P7"),
        (1, "P8", "P4"),
        (2, "P2", "P1"),
        (2, "P4", "P3"),
        (2, "P5", "P6"),
        (2, "P7", "P8"),
        (3, "P1", "P3"),
        (3, "P5", "P2"),
        (3, "P7", "P4"),
        (3, "P6", "P8"),
        (4, "P4", "P1"),
        (4, "P3", "P2"),
        (4, "P8", "P5"),
        (4, "P6", "P7"),
    ];
    let expect: Vec<(i64, String, String)> =
        expect.iter().map(|(r, w, b)| (*r, w.to_string(), b.to_string())).collect();
    assert_eq!(pairs, expect);
    // Never the same pairing twice; colours within ±2.
    let mut met = HashSet::new();
    let mut diff: HashMap<String, i32> = HashMap::new();
    for (_, w, b) in &pairs {
        assert!(met.insert(if w < b { (w.clone(), b.clone()) } else { (b.clone(), w.clone()) }), "{w}–{b} twice");
        *diff.entry(w.clone()).or_default() += 1;
        *diff.entry(b.clone()).or_default() -= 1;
    }
    assert!(diff.values().all(|d| d.abs() <= 2), "{diff:?}");

    // Scores 4, 3, 2, 2, 2, 2, 1, 0. Buchholz (sum of the opponents' scores) by hand: P3 met P7 1,
    // P4 2, P1 4, P2 3 → 10; P5: P1 4, P6 2, P2 3, P8 0 → 9; P4: P8 0, P3 2, P7 1, P1 4 → 7;
    // P6: P2 3, P5 2, P8 0, P7 1 → 6. Buchholz cut-1 drops the lowest: P7 met P3 2, P8 0, P4 2,
    // P6 2 → 6 − 0 = 6; P8 met P4 2, P7 1, P6 2, P5 2 → 7 − 1 = 6.
    assert!(final_text.contains(&format!("Tournament #{t} Chess Swiss is over. Final standings:")), "{final_text}");
    assert_eq!(
        standings_lines(&final_text),
        [
            "1. P1 4 (Buch 9, Buch-1 7)",
            "2. P2 3 (Buch 10, Buch-1 8)",
            "3. P3 2 (Buch 10, Buch-1 9)",
            "4. P5 2 (Buch 9, Buch-1 9)",
            "5. P4 2 (Buch 7, Buch-1 7)",
            "6. P6 2 (Buch 6, Buch-1 6)",
            "7. P7 1 (Buch 6, Buch-1 6)",
            "8. P8 0 (Buch 7, Buch-1 6)",
        ]
    );
    // Said once, even with the scheduler running again.
    assert!(!tb.tick().text().contains("is over"));
    // Over: nothing to cancel, and the administrator is told so.
    let out = admin(&tb, "!tournament cancel").text();
    assert!(out.contains("Chess Swiss is over; there is nothing left to cancel"), "{out}");
}

#[test]
fn registration_window_starts_the_tournament_by_itself() {
    let tb = new_bot();
    // Only administrators create, start and cancel; outside a community there are no tournaments.
    let r = tb.bot.handle(&msg_in("main", "Alice", "!tournament"));
    assert!(r.text().contains("Tournaments belong to a community"), "{}", r.text());
    assert!(say(&tb, "Alice", "!tournament create swiss").text().contains("only the community's administrators"));
    assert!(say(&tb, "Alice", "!tournament").text().contains("no tournament yet"));
    assert!(
        admin(&tb, "!tournament create swiss rounds:0")
            .text()
            .contains("rounds must be a whole number from 1 to 63, not '0'")
    );
    // A sentence that starts with words, not an option's name, starts with a capital (before: "the
    // round must be…").
    let out = say(&tb, "Alice", "!tournament round x").text();
    assert!(out.starts_with("The round must be a whole number, 1 or more, not 'x'."), "{out}");
    let out = say(&tb, "Alice", "!tournament round 0").text();
    assert_eq!(out, "There is no round 0; rounds are numbered from 1.");
    // A number no tournament can have is answered as such, as typed (before: "the tournament number
    // must be a number from 1"), as game numbers are; a word is still a number written wrongly.
    for n in ["99999999999999999999", "0", "-3"] {
        let out = say(&tb, "Alice", &format!("!tournament #{n}")).text();
        assert_eq!(out, format!("There is no tournament #{n}."));
    }
    let out = say(&tb, "Alice", "!tournament #abc").text();
    assert!(out.starts_with("The tournament number must be a whole number, 1 or more, not 'abc'."), "{out}");
    assert!(admin(&tb, "!tournament create roundrobin rounds:3").text().contains("rounds:N is for a Swiss"));
    assert!(admin(&tb, "!tournament create rr days:4").text().contains("days must be one of"));

    let r = admin(&tb, "!tournament create swiss chess rounds:5 days:1 signup:2 Blitz Night").text();
    assert!(r.contains("starts by itself in 2 days"), "{r}");
    let t = number_after(&r, "Tournament #");
    let lonely = admin(&tb, "!tournament create rr chess signup:1 Nobody Came").text();
    let t2 = number_after(&lonely, "Tournament #");
    let list = say(&tb, "Bob", "!tournament").text();
    assert!(
        list.contains(&format!("#{t} Blitz Night: Chess, Swiss, 5 rounds; registration, 0 players so far")),
        "{list}"
    );
    assert!(say(&tb, "Bob", "!tournament join").text().contains("several"), "two are open: say which");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, &format!("!tournament #{t} join"));
    }
    say(&tb, "Dave", &format!("!tournament #{t2} join"));

    // A day on: the lonely one's window closes with one player; it waits for an administrator.
    tb.clock.advance(DAY);
    let r = tb.tick().text();
    assert!(r.contains(&format!("Tournament #{t2} Nobody Came: registration has closed with 1 player")), "{r}");
    assert!(!r.contains("Blitz Night"), "{r}");
    assert!(tb.tick().text().is_empty(), "said once");
    assert!(say(&tb, "Erin", &format!("!tournament #{t2} join")).text().contains("Erin joins"));
    assert!(
        say(&tb, "Dave", &format!("!tournament #{t2} cancel")).text().contains("only the community's administrators")
    );
    assert!(admin(&tb, &format!("!tournament #{t2} cancel")).text().contains("is cancelled"));
    assert!(admin(&tb, &format!("!tournament #{t2}")).text().contains(&format!("no tournament #{t2}")));
    // One tournament under way: `!tournament` shows it at once instead of a list pointing at it.
    let only = say(&tb, "Bob", "!tournament").text();
    assert!(only.contains(&format!("Tournament #{t}")) && only.contains("Blitz Night"), "{only}");
    assert!(!only.contains("Tournaments:"), "not the list: {only}");

    // Two days after creation Blitz Night starts by itself: three players, 5 rounds asked for but
    // three players can only play 3 without a rematch; one bye a round.
    tb.clock.advance(DAY - 1);
    assert!(!tb.tick().text().contains("Blitz Night starts"));
    tb.clock.advance(1);
    let r = tb.tick();
    let text = r.text();
    assert!(text.contains(&format!("Tournament #{t} Blitz Night starts with 3 players")), "{text}");
    // The bye goes to the lowest-ranked player.
    assert!(text.contains("Round 1 of 3:\nBoard 1: Alice – Bob") && text.contains("Bye: Carol (1 point)"), "{text}");
    let pinged: Vec<&str> = r.replies.iter().flat_map(|r| r.notify.iter().map(|u| u.id.as_str())).collect();
    // The paired players are mentioned, and so is the one with the bye (before: only named).
    assert_eq!(pinged, ["alice", "bob", "carol"]);
    // A running tournament cannot be cancelled, and the administrator is told so, with or without
    // its number (before: "No tournament of this community is open for registration" without).
    for typed in [format!("!tournament #{t} cancel"), "!tournament cancel".to_string()] {
        let out = admin(&tb, &typed).text();
        assert!(out.contains("Blitz Night has started; a running tournament cannot be cancelled"), "{typed}: {out}");
        // And what can be done instead (before: nothing more).
        assert!(out.contains("It ends when its rounds are played."), "{out}");
        assert!(out.contains(&format!("!tournament #{t} withdraw (their games left are lost by forfeit")), "{out}");
    }
    let shown = say(&tb, "Bob", &format!("!tournament #{t}")).text();
    assert!(shown.contains("Standings:\n1. Carol 1 (Buch 0, Buch-1 0)\n2. Alice 0"), "{shown}");
    assert!(shown.contains("Round 1 of 3:") && shown.contains("playing"), "{shown}");
    assert!(say(&tb, "Bob", &format!("!tournament #{t} round 2")).text().contains("has 1 round so far"));
}

/// The replies of `r` for one person's direct messages: (their id, the reply).
fn direct_replies(r: &Response) -> Vec<(String, &Reply)> {
    r.replies
        .iter()
        .filter_map(|x| match &x.target {
            Target::Direct { user, fallback: None, .. } => Some((user.id.clone(), x)),
            _ => None,
        })
        .collect()
}

/// Checks that `r` asks each player of `games` for a bomb in each game by direct message, for them
/// alone, and that nothing for the chat names a bomb or holds a choice of one.
fn asks_for_bombs(r: &Response, games: &[Board]) {
    let mut asked: Vec<(String, i64)> = direct_replies(r)
        .into_iter()
        .map(|(user, x)| {
            assert!(matches!(&x.audience, Audience::Only(u) if u.id == user), "{x:?}");
            assert_eq!(x.choices.len(), 15, "every piece but the king: {:?}", x.choices);
            (user, number_after(&x.text, "Game #"))
        })
        .collect();
    asked.sort();
    let mut wanted: Vec<(String, i64)> =
        games.iter().flat_map(|b| [(b.white.to_lowercase(), b.game), (b.black.to_lowercase(), b.game)]).collect();
    wanted.sort();
    assert_eq!(asked, wanted, "{}", r.text());
    for x in r.replies.iter().filter(|x| matches!(x.target, Target::Chat(_))) {
        assert!(!x.text.contains("bomb is") && x.choices.iter().all(|c| !c.typed.contains("bomb")), "{x:?}");
    }
}

/// Secret-bomb chess in a Swiss (before: refused, "ladders and tournaments do not offer it yet"):
/// the round's announcement says how the bombs are chosen, every player of every new game is asked
/// by direct message (15 choices, for them alone), a choice made there is theirs and the game's chat
/// hears only that it was made, and the next round asks again with its pairings.
#[test]
fn a_secret_bomb_swiss_asks_each_player_for_a_bomb_in_each_game() {
    let tb = new_bot();
    let r = admin(&tb, "!tournament create swiss bomb days:2 signup:0");
    let t = number_after(&r.text(), "Tournament #");
    for who in ["P1", "P2", "P3", "P4"] {
        say(&tb, who, &format!("!tournament #{t} join"));
    }
    let started = admin(&tb, &format!("!tournament #{t} start"));
    let text = started.text();
    assert!(text.contains("Round 1 of 3:") && text.contains("each player chooses a secret bomb"), "{text}");
    let first = boards(&tb, t, Some(1));
    assert_eq!(first.len(), 2);
    asks_for_bombs(&started, &first);

    // Chosen in the direct chat: the player's own confirmation, the chat told only that it happened.
    let b = &first[0];
    let r = dm(&tb, &b.white, &format!("bomb #{} b1", b.game));
    let mine = direct_replies(&r);
    assert!(mine.iter().any(|(u, x)| *u == b.white.to_lowercase() && x.text.contains("your bomb is the knight on b1")));
    let chat: Vec<&Reply> = r.replies.iter().filter(|x| matches!(x.target, Target::Chat(_))).collect();
    assert!(chat.iter().any(|x| x.text.contains("has chosen a secret bomb")), "{}", r.text());
    assert!(chat.iter().all(|x| !x.text.contains("b1")), "{}", r.text());
    // Moves wait for the bomb; the other side chooses and the game goes on.
    assert!(say(&tb, &b.white, &format!("!move #{} Nc3", b.game)).text().contains("played by"));
    assert!(say(&tb, &b.black, &format!("!move #{} e5", b.game)).text().contains("choose your secret bomb"));
    dm(&tb, &b.black, &format!("bomb #{} e7", b.game));
    assert!(say(&tb, &b.black, &format!("!move #{} e5", b.game)).text().contains("played by"));

    // Round 1 decided: round 2 is paired, and its players are asked for their bombs.
    let mut last = Response::default();
    for b in &first {
        last = decide(&tb, b, Some(&b.white));
    }
    assert!(last.text().contains("round 2 is paired"), "{}", last.text());
    let second = boards(&tb, t, Some(2));
    assert_eq!(second.len(), 2);
    asks_for_bombs(&last, &second);
    // Said once: the scheduler's look for announcements owed asks nobody again.
    assert!(direct_replies(&tb.tick()).is_empty());
}

/// The tournaments a front end offers for `tournament SUB`'s number: those open for registration
/// for joining, leaving, starting and cancelling, every one for standings and rounds, newest
/// first; none outside a community.
#[test]
fn the_communitys_tournaments_are_suggested_for_their_number() {
    let tb = new_bot();
    let first = admin(&tb, "!tournament create roundrobin chess signup:0 Spring Open").text();
    let t1 = number_after(&first, "Tournament #");
    for who in ["Alice", "Bob"] {
        say(&tb, who, &format!("!tournament #{t1} join"));
    }
    admin(&tb, &format!("!tournament #{t1} start"));
    let second = admin(&tb, "!tournament create swiss capatomic rounds:3 signup:0 Winter Cup").text();
    let t2 = number_after(&second, "Tournament #");
    let here = capabot::bot::Scope { community: Some("g".into()), ..capabot::bot::Scope::chat("test", "main") };
    let winter =
        (format!("#{t2} Winter Cup — Swiss, 3 rounds, Capatomic Random Chess, registration open"), t2.to_string());
    let spring = (format!("#{t1} Spring Open — round robin, Chess, running"), t1.to_string());
    assert_eq!(tb.bot.suggest_tournaments(&here, "join", ""), std::slice::from_ref(&winter));
    assert_eq!(tb.bot.suggest_tournaments(&here, "standings", ""), [winter.clone(), spring.clone()]);
    assert_eq!(tb.bot.suggest_tournaments(&here, "standings", "spring"), [spring]);
    assert_eq!(tb.bot.suggest_tournaments(&here, "round", &format!("#{t2}")), [winter]);
    let direct = capabot::bot::Scope { direct: true, ..capabot::bot::Scope::chat("test", "dm-carol") };
    assert!(tb.bot.suggest_tournaments(&direct, "standings", "").is_empty(), "no community there");
}

/// Swiss rounds are bounded where the tournament is made, by the start's own cap for the largest
/// field paired (before: `rounds:999999` accepted and announced); a start that plays fewer rounds
/// than asked says so (before: silently 3 of 10).
#[test]
fn swiss_rounds_are_bounded_and_a_cut_is_told() {
    let tb = new_bot();
    let before = tb.fingerprint();
    let out = admin(&tb, "!tournament create swiss chess rounds:999999").text();
    assert!(out.contains("rounds must be a whole number from 1 to 63, not '999999'"), "{out}");
    assert_eq!(tb.fingerprint(), before);
    let out = admin(&tb, "!tournament create swiss chess rounds:10 signup:0 Big").text();
    assert!(out.contains("10 rounds"), "{out}");
    for p in ["bob", "carol", "dave", "erin"] {
        say(&tb, p, "!tournament join");
    }
    let out = admin(&tb, "!tournament start").text();
    assert!(out.contains("It plays 3 rounds, not the 10 asked for: 4 players can play no more"), "{out}");
    assert!(out.contains("Round 1 of 3"), "{out}");
    // Rounds the field allows are not remarked on.
    admin(&tb, "!tournament create swiss chess rounds:2 signup:0 Small");
    for p in ["bob", "carol", "dave", "erin"] {
        say(&tb, p, "!tournament #2 join");
    }
    let out = admin(&tb, "!tournament #2 start").text();
    assert!(out.contains("Round 1 of 2") && !out.contains("asked for"), "{out}");
}

/// The rows of the last crosstable in `text` (between its fences), each cut into its cells.
fn crosstable_rows(text: &str) -> Vec<Vec<String>> {
    let start = text.find("```\n").unwrap_or_else(|| panic!("no crosstable in {text}")) + 4;
    let body = &text[start..];
    let body = &body[..body.find("```").expect("its end")];
    body.lines().skip(1).map(|l| l.split_whitespace().map(str::to_string).collect()).collect()
}

/// A round robin's player withdraws after one of their three games (FIDE: fewer than half, so
/// their results are not counted): their game in progress (moves played) and their game not
/// begun are lost by forfeit at once, the first rated, the second not; the standings list them
/// last without counting them, the crosstable shows the forfeits; they cannot withdraw twice.
/// Before, `!tournament withdraw` was an unknown action and `leave` refused once it ran.
#[test]
fn a_round_robin_player_withdraws_and_their_games_are_forfeited() {
    let tb = new_bot();
    let t = number_after(&admin(&tb, "!tournament create roundrobin chess days:3 signup:0 Cup").text(), "Tournament #");
    for who in ["Alice", "Bob", "Carol", "Dave"] {
        say(&tb, who, "!tournament join");
    }
    admin(&tb, "!tournament start");
    let all = boards(&tb, t, None);
    let bobs: Vec<&Board> = all.iter().filter(|b| b.white == "Bob" || b.black == "Bob").collect();
    assert_eq!(bobs.len(), 3);
    // Bob's round-1 game is decided; in round 2 both sides move; round 3 is not begun.
    let first = bobs.iter().find(|b| b.round == 1).unwrap();
    say(&tb, "Bob", &format!("!resign #{}", first.game));
    let second = bobs.iter().find(|b| b.round == 2).unwrap();
    say(&tb, &second.white, &format!("!move #{} e4", second.game));
    say(&tb, &second.black, &format!("!move #{} e5", second.game));
    let third = bobs.iter().find(|b| b.round == 3).unwrap();

    let r = say(&tb, "Bob", "!tournament withdraw");
    let text = r.text();
    assert!(text.contains(&format!("Bob withdraws from tournament #{t} Cup.")), "{text}");
    assert!(text.contains("Bob completed fewer than half of their games, so by FIDE's rule"), "{text}");
    let opp = |b: &Board| if b.white == "Bob" { b.black.clone() } else { b.white.clone() };
    for b in [second, third] {
        assert!(text.contains(&format!("Game #{} is over:", b.game)), "{text}");
        assert!(text.contains(&format!("{} wins by forfeit", opp(b))), "{text}");
    }
    assert_eq!(text.matches("Ratings:").count(), 1, "the game with moves is rated: {text}");
    assert_eq!(text.matches("Not rated").count(), 1, "the one not begun is not: {text}");
    let pinged: HashSet<String> = r.replies[0].notify.iter().map(|u| u.id.clone()).collect();
    assert_eq!(pinged, [opp(second), opp(third)].iter().map(|n| n.to_lowercase()).collect::<HashSet<_>>());
    let decided = format!("SELECT count(*) FROM tournament_games WHERE tournament_id = {t} AND result IS NOT NULL");
    assert_eq!(tb.query_i64(&decided), 3);

    // Once withdrawn: not twice, and `leave` says so too.
    for typed in ["!tournament withdraw", "!tournament leave"] {
        let out = say(&tb, "Bob", typed).text();
        assert!(out.contains("You have withdrawn from this tournament already."), "{typed}: {out}");
    }
    // The standings leave Bob's results out and list him last.
    let shown = say(&tb, "Alice", &format!("!tournament #{t}")).text();
    assert!(shown.contains("\n– Bob (withdrawn, results not counted)"), "{shown}");
    // The crosstable keeps them: + for his opponent in the game never begun, − for him.
    let cross = say(&tb, "Alice", "!tournament crosstable").text();
    let rows = crosstable_rows(&cross);
    let bob = rows.iter().find(|r| r[1] == "Bob").unwrap_or_else(|| panic!("{cross}"));
    assert_eq!(bob[0], "–.", "{cross}");
    assert!(bob.contains(&"−".to_string()) && bob.contains(&"0".to_string()), "{cross}");
    let forfeited = rows.iter().find(|r| r[1] == opp(third)).unwrap();
    assert!(forfeited.contains(&"+".to_string()), "{cross}");
    // The community's page marks him as the chat does (before: a place and no mark).
    assert!(admin(&tb, "!settings community web:on").text().contains("saved"));
    let page = tb.bot.web_community("test", "g").unwrap().expect("shown");
    let cup = page.tournaments.iter().find(|x| x.name == "Cup").expect("the cup on its page");
    let bob_id = cup.standings.iter().find(|s| s.2 == "Bob").map(|s| s.1).unwrap();
    assert_eq!(cup.withdrawn, [(bob_id, false)]);
    // Its variant is named in the page's language (before: English whatever the language).
    assert_eq!(cup.variant, "Chess");
    let turkish = capabot::i18n::with_lang(capabot::i18n::Lang::Tr, || tb.bot.web_community("test", "g"));
    assert_eq!(turkish.unwrap().unwrap().tournaments[0].variant, "Satranç");
    #[cfg(feature = "web")]
    {
        let html = capabot::i18n::with_lang(capabot::i18n::Lang::En, || capabot::web::pages::community(&page));
        assert!(html.contains("Bob</a> (withdrawn, results not counted)"), "{html}");
    }
}

/// A Swiss player who withdraws loses their game of the round and is not paired in the next;
/// the next round's bye is mentioned with the paired players (before: named, not mentioned).
#[test]
fn a_swiss_player_withdraws_and_is_paired_no_more() {
    let tb = new_bot();
    let t = number_after(
        &admin(&tb, "!tournament create swiss chess days:3 signup:0 rounds:3 Open").text(),
        "Tournament #",
    );
    for who in ["P1", "P2", "P3", "P4", "P5", "P6"] {
        say(&tb, who, "!tournament join");
    }
    admin(&tb, "!tournament start");
    let first = boards(&tb, t, Some(1));
    let leaver = first[0].black.clone();
    // Leaving once it runs asks first; the button withdraws.
    let asked = say(&tb, &leaver, "!tournament leave");
    let withdraw = asked.replies[0].choices[0].command.clone();
    assert_eq!(withdraw, Command::Tournament(TournamentCmd::Withdraw(Some(t))));
    let out = say(&tb, &leaver, &format!("!tournament #{t} withdraw")).text();
    assert!(out.contains(&format!("{leaver} keeps the points scored; later rounds do not pair them.")), "{out}");
    assert!(out.contains(&format!("{} wins by forfeit", first[0].white)), "{out}");
    // The rest of round 1: the round completes and round 2 is paired without the leaver: five
    // players, so one has the bye, and is mentioned.
    let mut last = None;
    for b in &first[1..] {
        last = Some(decide(&tb, b, Some(b.white.as_str())));
    }
    let last = last.unwrap();
    let second = boards(&tb, t, Some(2));
    assert_eq!(second.len(), 2);
    assert!(second.iter().all(|b| b.white != leaver && b.black != leaver), "{second:?}");
    let announced = last.replies.iter().find(|r| r.text.contains("Round 2 of 3:")).expect("round 2 announced");
    let bye = announced.text.split("Bye: ").nth(1).and_then(|r| r.split(' ').next());
    let bye = bye.unwrap_or_else(|| panic!("no bye in {}", announced.text)).to_string();
    assert_ne!(bye, leaver);
    let pinged: HashSet<String> = announced.notify.iter().map(|u| u.id.clone()).collect();
    assert!(pinged.contains(&bye.to_lowercase()), "{pinged:?} {}", announced.text);
    let shown = say(&tb, "P1", &format!("!tournament #{t}")).text();
    assert!(shown.contains(&format!("{leaver} 0 (Buch")) && shown.contains("withdrawn)"), "{shown}");
}

/// The crosstable in chat: a monospace table in standings order; a field too big for one message
/// is cut, saying how many are shown and where the whole table is. Before: an unknown action.
#[test]
fn the_crosstable_fits_one_message_and_says_what_is_cut() {
    use capabot::bot::BotConfig;
    let tb = crate::common::new_bot_with(BotConfig {
        web_url: Some("https://chess.example.org".into()),
        ..BotConfig::default()
    });
    let small = number_after(&admin(&tb, "!tournament create roundrobin chess signup:0 Small").text(), "Tournament #");
    let out = say(&tb, "Alice", &format!("!tournament #{small} crosstable")).text();
    assert!(out.contains("Small (#1) has not started"), "{out}");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, &format!("!tournament #{small} join"));
    }
    admin(&tb, &format!("!tournament #{small} start"));
    let b = &boards(&tb, small, Some(1))[0];
    decide(&tb, b, None);
    let out = say(&tb, "Alice", &format!("!tournament #{small} crosstable")).text();
    assert!(out.starts_with(&format!("Tournament #{small} Small: crosstable")), "{out}");
    let rows = crosstable_rows(&out);
    assert_eq!(rows.len(), 3, "{out}");
    // Each row: place, name, three cells (× against oneself), points.
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 6, "{out}");
        assert_eq!(row[2 + i], "×", "{out}");
    }
    assert!(out.contains(" ½ ") && out.contains(" · "), "a draw and games being played: {out}");

    // Forty players: cut, with the community's page when it has one.
    let big = number_after(&admin(&tb, "!tournament create swiss chess signup:0 Big").text(), "Tournament #");
    for i in 1..=40 {
        say(&tb, &format!("Player{i:02}"), &format!("!tournament #{big} join"));
    }
    admin(&tb, &format!("!tournament #{big} start"));
    let out = say(&tb, "Alice", &format!("!tournament #{big} crosstable")).text();
    assert!(out.chars().count() <= 2000, "{} characters", out.chars().count());
    let shown = crosstable_rows(&out).len();
    assert!((10..40).contains(&shown), "{shown}: {out}");
    assert!(out.ends_with(&format!("The first {shown} of 40 players are shown.")), "{out}");
    admin(&tb, "!settings community web:on");
    let out = say(&tb, "Alice", &format!("!tournament #{big} crosstable")).text();
    assert!(out.ends_with("the whole table is on the community's page: https://chess.example.org/c/test/g"), "{out}");
}

/// Clearer answers: with several tournaments open, a whole command to write; leaving a finished
/// one; a round past the last of a finished one.
#[test]
fn several_open_a_finished_one_and_its_rounds_are_answered_plainly() {
    let tb = new_bot();
    let one = number_after(&admin(&tb, "!tournament create roundrobin chess signup:0 Doppel").text(), "Tournament #");
    let two = number_after(&admin(&tb, "!tournament create roundrobin chess signup:0 BombCup").text(), "Tournament #");
    let out = say(&tb, "Alice", "!tournament join").text();
    assert!(
        out.contains(&format!(
            "There are several tournaments here (#{two} BombCup, #{one} Doppel); say which one, e.g. !tournament #{two} join."
        )),
        "{out}"
    );
    for who in ["Alice", "Bob"] {
        say(&tb, who, &format!("!tournament #{one} join"));
    }
    admin(&tb, &format!("!tournament #{one} start"));
    let b = &boards(&tb, one, Some(1))[0];
    decide(&tb, b, Some(b.white.as_str()));
    let out = say(&tb, "Zed", &format!("!tournament #{one} leave")).text();
    assert!(out.contains(&format!("Doppel (#{one}) is over; there is nothing left to leave.")), "{out}");
    let out = say(&tb, "Alice", &format!("!tournament #{one} round 2")).text();
    assert!(out.contains("Doppel had 1 round: round 1."), "{out}");
    // Under way, a round robin has all its rounds: "has", not "so far".
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, &format!("!tournament #{two} join"));
    }
    admin(&tb, &format!("!tournament #{two} start"));
    let out = say(&tb, "Alice", &format!("!tournament #{two} round 4")).text();
    assert!(out.contains("BombCup has 3 rounds: round 1 to 3."), "{out}");
}

/// A tournament's Capablanca Relocation games run their setup phase on the tournament's clock
/// (before: no deadline, so a player who never chose held the round, and every later one, for
/// ever): Black's choice, then White's, runs out as "no swap", the game begins, its loss on time
/// comes, and the next round is paired.
#[test]
fn a_relocation_tournament_is_not_held_by_a_setup_nobody_chooses() {
    let tb = new_bot();
    let r = admin(&tb, "!tournament create swiss caparelocation days:1 rounds:2 signup:0 Relay");
    let t = number_after(&r.text(), "Tournament #");
    for who in ["Alice", "Bob", "Carol", "Dave"] {
        say(&tb, who, "!tournament join");
    }
    // The start says that each game begins with its setup on the clock (before: only each game's own
    // start said so).
    let start = admin(&tb, "!tournament start").text();
    assert!(
        start.contains(
            "Capablanca Relocation Chess: each game begins with its setup phase, Black choosing first, then White"
        ) && start.contains("!noswap), 1 day each; a side that does not choose in time keeps no swap."),
        "{start}"
    );
    let first = boards(&tb, t, Some(1));
    assert_eq!(first.len(), 2);
    for b in &first {
        let due = format!(
            "SELECT status || CASE WHEN deadline IS NULL THEN '' ELSE '/due' END FROM games WHERE id = {}",
            b.game
        );
        assert_eq!(tb.query_str(&due), "setup/due", "game {}", b.game);
    }
    tb.clock.advance(DAY + 1);
    let r = tb.tick().text();
    assert_eq!(r.matches("(black) did not choose in time").count(), 2, "{r}");
    tb.clock.advance(DAY + 1);
    let r = tb.tick().text();
    assert_eq!(r.matches("(white) did not choose in time").count(), 2, "{r}");
    assert_eq!(r.matches("The game begins").count(), 2, "{r}");
    assert!(boards(&tb, t, Some(2)).is_empty(), "round 1 is still being played");
    tb.clock.advance(DAY + 1);
    let r = tb.tick().text();
    assert_eq!(r.matches("ran out of time").count(), 2, "{r}");
    assert_eq!(boards(&tb, t, Some(2)).len(), 2, "round 2 is paired: {r}");
}

/// A double round robin's player withdrawing before any game ends loses two games to each
/// opponent; each opponent is pinged once (before: "@carol @alice @carol @alice").
#[test]
fn a_withdrawal_pings_each_opponent_once() {
    let tb = new_bot();
    admin(&tb, "!tournament create double chess signup:0 Twice");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, "!tournament join");
    }
    admin(&tb, "!tournament start");
    let r = say(&tb, "Bob", "!tournament withdraw");
    assert_eq!(r.text().matches("wins by forfeit").count(), 4, "{}", r.text());
    let mut pinged: Vec<String> = r.replies[0].notify.iter().map(|u| u.id.clone()).collect();
    pinged.sort();
    assert_eq!(pinged, ["alice", "carol"]);
}

/// The crosstable's legend calls `−` a loss by forfeit (before: "+ and − are games won before both
/// sides moved"), and a Swiss bye has its column, so that each row adds up to its points (before:
/// the bye's point was in the points only).
#[test]
fn the_crosstable_shows_byes_and_says_what_minus_is() {
    let tb = new_bot();
    let t = number_after(&admin(&tb, "!tournament create swiss chess signup:0 rounds:2 Trio").text(), "Tournament #");
    for who in ["Alice", "Bob", "Carol"] {
        say(&tb, who, "!tournament join");
    }
    admin(&tb, "!tournament start");
    let first = &boards(&tb, t, Some(1))[0];
    decide(&tb, first, Some(first.white.as_str()));
    let out = say(&tb, "Alice", "!tournament crosstable").text();
    assert!(out.contains("+ and − are games won and lost by forfeit"), "{out}");
    assert!(out.contains("Bye Pts"), "{out}");
    let rows = crosstable_rows(&out);
    // In halves: `+` is a win, `−`, `·` and `×` nothing, numbers as written (`1½`).
    let halves = |cell: &str| match cell {
        "+" => 2,
        _ => cell.trim_end_matches('½').parse::<i32>().unwrap_or(0) * 2 + i32::from(cell.ends_with('½')),
    };
    for row in &rows {
        // Place, name, the cells (an empty one for a game not paired yet), the bye's, points.
        let points = halves(row.last().unwrap());
        let sum: i32 = row[2..row.len() - 1].iter().map(|c| halves(c)).sum();
        assert_eq!(sum, points, "{row:?} in {out}");
    }
    // The bye column, read by its place under its head: round 1's bye and round 2's (paired once
    // round 1 was over) each scored 1.
    let lines: Vec<Vec<char>> = out.lines().skip(2).take(4).map(|l| l.chars().collect()).collect();
    let start = lines[0].windows(3).position(|w| w == ['B', 'y', 'e']).expect("its head");
    let byes: Vec<String> = lines[1..].iter().map(|l| l[start..start + 3].iter().collect::<String>()).collect();
    let mut byes: Vec<&str> = byes.iter().map(|b| b.trim()).collect();
    byes.sort();
    assert_eq!(byes, ["", "1", "1"], "{out}");
    // The community's page has the column too.
    admin(&tb, "!settings community web:on");
    let page = tb.bot.web_community("test", "g").unwrap().expect("shown");
    let mut shown = page.tournaments[0].byes.clone().expect("a bye column");
    shown.sort();
    assert_eq!(shown, ["", "1", "1"]);
    #[cfg(feature = "web")]
    {
        let html = capabot::i18n::with_lang(capabot::i18n::Lang::En, || capabot::web::pages::community(&page));
        assert!(html.contains(r#"<th scope="col">Bye</th>"#), "{html}");
    }
}

//! Secret-bomb chess through the bot core: each player chooses a bomb by direct message before their
//! first move, the game's chat and the opponent never learn it before it explodes or the game ends
//! (every reply of a whole game is searched for the squares), a choice typed in a shared chat is
//! refused, a side that does not choose in time gets one at random, and capabot's own side chooses
//! at once. A property test plays random games twice, with the same moves and two different secret
//! bombs for Black, and checks that White and the chat see exactly the same texts and pictures in both.

use crate::common::*;
use capabot::bot::{Audience, BotConfig, Drawing, Input, Reply, Response, Scope, Target, UserRef, Via, command};
use capabot::notation::san;
use capabot::rules::variant::BOMB;
use capabot::rules::{Color, Move, Position, Role, Square};
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Who may read a reply: `None` for everyone in a chat, `Some(user)` for one person's direct messages.
/// A reply for the author only ([`Audience::Author`]) said in a chat counts as read by everyone
/// there: some platforms (Matrix, typed commands on Discord) can only show it in the chat.
fn reader(r: &Reply) -> Option<String> {
    if let Audience::Only(person) = &r.audience {
        assert!(
            matches!(&r.target, Target::Direct { user, fallback: None, .. } if user.id == person.id),
            "a one-person reply must go to that person's direct messages, without fallback: {r:?}"
        );
    }
    match &r.target {
        Target::Direct { user, fallback, .. } => {
            assert!(
                fallback.is_none() || !r.text.contains("bomb is"),
                "a secret must never fall back to a chat: {r:?}"
            );
            Some(user.id.clone())
        }
        Target::Chat(s) if s.direct => Some(s.chat.trim_start_matches("dm-").to_string()),
        Target::Chat(_) => None,
    }
}

/// Everything a reply shows a reader, as text (its picture left out: see [`picture`]; and its alt
/// text, which names the square of every piece on the board, "Nb1" included, for everyone: the
/// property test compares it whole between two games that differ only in a bomb).
fn shown(r: &Reply) -> String {
    let mut copy = r.clone();
    copy.png = None;
    copy.drawing = None;
    copy.alt_text = None;
    serde_json::to_string(&copy).expect("reply as JSON")
}

/// The reply's picture as delivered (drawn from its description), as the pixels people see.
fn picture(r: &Reply) -> Option<(u32, u32, Vec<u8>)> {
    r.clone().drawn().png.map(|png| crate::common::pixels(&png))
}

/// Records every reply and checks none reveals a secret to someone it is not for.
struct Watch {
    /// (owner, the bomb's start square)
    secrets: Vec<(&'static str, &'static str)>,
    seen: Vec<Reply>,
}

impl Watch {
    fn take(&mut self, r: Response) -> String {
        let mut text = String::new();
        for reply in r.replies {
            let reader = reader(&reply);
            let body = shown(&reply);
            // A bomb is marked only in a picture for one person's direct messages.
            if let Some(Drawing::Board(board)) = &reply.drawing {
                assert!(board.bomb.is_none() || reader.is_some(), "a bomb marked in a chat's picture: {reply:?}");
            }
            for (owner, square) in &self.secrets {
                if reader.as_deref() != Some(owner) {
                    assert!(
                        !body.contains(&format!("{square}\""))
                            && !body.contains(&format!("{square} "))
                            && !body.contains(&format!("{square}."))
                            && !body.contains(&format!("{square})")),
                        "{owner}'s bomb ({square}) shown to {reader:?}: {body}"
                    );
                }
            }
            text.push_str(&reply.text);
            text.push('\n');
            self.seen.push(reply);
        }
        text
    }
}

#[test]
fn a_whole_bomb_game_keeps_both_secrets_until_the_blast() {
    // With pictures: every board's description is checked too (see `Watch::take`).
    let tb = bot_with_pictures();
    let mut w = Watch { secrets: vec![("alice", "b1"), ("bob", "h7")], seen: vec![] };
    w.take(tb.raw("alice", "!challenge @bob bomb color:white"));
    let start = tb.raw("bob", "!accept");
    let prompts: Vec<&Reply> =
        start.replies.iter().filter(|r| r.choices.iter().any(|c| c.typed.starts_with("bomb"))).collect();
    assert_eq!(prompts.len(), 2, "one prompt per player: {start:?}");
    for p in &prompts {
        assert!(
            matches!(&p.target, Target::Direct { fallback: None, .. }),
            "prompts go to direct messages only: {p:?}"
        );
        assert_eq!(p.choices.len(), 15, "every piece but the king: {:?}", p.choices);
    }
    let to_alice = prompts.iter().find(|p| reader(p).as_deref() == Some("alice")).expect("alice's prompt");
    assert!(to_alice.choices.iter().any(|c| c.label == "Nb1" && c.typed.ends_with(" b1")), "{:?}", to_alice.choices);
    assert!(w.take(start).contains("secret bomb"));

    // No move before the bomb; a choice typed in the shared chat is refused and stores nothing.
    let out = w.take(tb.raw("alice", "e4"));
    assert!(out.contains("choose your secret bomb"), "{out}");
    let out = w.take(tb.raw("alice", "!move e4"));
    assert!(out.contains("choose your secret bomb"), "{out}");
    assert_eq!(tb.query_i64("SELECT COUNT(*) FROM moves"), 0);
    // Her list of games says what the game waits for.
    let out = w.take(tb.raw("alice", "!games"));
    assert!(out.contains("#1 Secret-Bomb Chess vs bob, move 1, choose your bomb (in a direct message to me)"), "{out}");
    let before = tb.fingerprint();
    let refused = tb.raw("alice", "!bomb c2");
    assert!(refused.text().contains("Not here"), "{}", refused.text());
    assert_eq!(tb.fingerprint(), before, "a refused choice changes nothing");
    // Not a piece of hers, the king, an empty square, a non-square: refused with a reason.
    for bad in ["bomb e7", "bomb e1", "bomb e4", "bomb z9", "bomb #99 b1"] {
        let out = dm(&tb, "alice", bad).text();
        assert!(!out.contains("your bomb is"), "{bad}: {out}");
    }
    assert_eq!(tb.fingerprint(), before);

    // The choices, by direct message.
    let out = w.take(dm(&tb, "alice", "bomb b1"));
    assert!(out.contains("your bomb is the knight on b1"), "{out}");
    assert!(out.contains("alice (white) has chosen a secret bomb"), "{out}");
    let out = w.take(dm(&tb, "alice", "bomb c2"));
    assert!(out.contains("already chosen"), "{out}");
    let out = w.take(dm(&tb, "bob", "!bomb h7"));
    assert!(out.contains("Both bombs are set"), "{out}");

    // A game: what the chat and each player see is searched for the other's secret at every step.
    for (who, mv) in [("alice", "Nc3"), ("bob", "a6"), ("alice", "Nd5"), ("bob", "a5")] {
        let out = w.take(tb.raw(who, mv));
        assert!(out.contains("played by"), "{mv}: {out}");
    }
    for look in ["!board", "!pgn", "!fen", "!games"] {
        w.take(tb.raw("bob", look));
        w.take(tb.raw("alice", look));
    }
    // Her own board, by direct message, marks her bomb: for her eyes only.
    let own = dm(&tb, "alice", "board");
    assert!(own.text().contains("knight on b1") && own.text().contains("on d5 now"), "{}", own.text());
    let marked: Vec<_> = own
        .replies
        .iter()
        .filter_map(|r| match &r.drawing {
            Some(Drawing::Board(b)) => Some((reader(r), b.bomb.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(marked, vec![(Some("alice".to_string()), Some("d5".to_string()))], "her bomb marked where it is now");
    w.take(own);
    // A detonation that is not hers: refused without telling where hers is.
    let out = w.take(tb.raw("alice", "Nxe7"));
    assert!(out.contains("played by"), "{out}");
    let out = w.take(tb.raw("bob", "!move @h8"));
    assert!(out.contains("no detonation there"), "{out}");
    let out = w.take(tb.raw("bob", "a4"));
    assert!(out.contains("played by"), "{out}");
    // The knight on e7 explodes next to the black king.
    w.secrets.clear();
    let end = w.take(tb.raw("alice", "@e7"));
    assert!(end.contains("alice wins"), "{end}");
    // Each side's bomb is a sentence of its own (before: "…; Die von Schwarz war…" in German).
    assert!(end.contains("White's was the knight on b1. Black's was the pawn on h7."), "{end}");
    let pgn = tb.raw("bob", "!pgn").text();
    assert!(pgn.contains("[WhiteBomb \"b1\"]") && pgn.contains("[BlackBomb \"h7\"]"), "{pgn}");
    assert!(w.seen.len() > 20);
}

#[test]
fn a_side_that_does_not_choose_in_time_gets_a_bomb_at_random() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob bomb color:white days:1");
    tb.say("bob", "!accept");
    dm(&tb, "alice", "bomb g1");
    assert!(tb.say("alice", "e4").contains("played by"));
    // Bob lets his first move's day run out without a bomb: one is chosen for him, the game goes on.
    tb.clock.advance(86_400 + 60);
    let tick = tb.tick();
    let to_bob = tick.replies.iter().find(|r| reader(r).as_deref() == Some("bob")).expect("bob is told");
    assert!(to_bob.text.contains("chose your bomb at random"), "{}", to_bob.text);
    let public = tick.replies.iter().find(|r| reader(r).is_none()).expect("the chat is told");
    assert!(public.text.contains("chosen at random") && !public.text.contains("bomb is"), "{}", public.text);
    assert_eq!(tb.query_str("SELECT status FROM games"), "active");
    assert_eq!(tb.query_i64("SELECT black_bomb IS NOT NULL FROM games"), 1);
    assert!(tb.say("bob", "e5").contains("played by"));
}

#[test]
fn capabot_chooses_its_own_bomb_at_once() {
    let tb = new_bot();
    let r = tb.raw("alice", "!play bomb color:white level:1");
    let prompts = r.replies.iter().filter(|r| !r.choices.is_empty() && reader(r).as_deref() == Some("alice")).count();
    assert_eq!(prompts, 1, "{r:?}");
    // The start says who chooses (before: "I sent each of you a direct message", to one person).
    let start = r.replies.iter().find(|r| r.text.contains("Game #1 starts")).expect("the start");
    assert!(
        start
            .text
            .contains("First you choose your secret bomb: I sent you a direct message (capabot has chosen its own)."),
        "{}",
        start.text
    );
    assert_eq!(tb.query_i64("SELECT black_bomb IS NOT NULL AND white_bomb IS NULL FROM games"), 1);
    assert!(tb.say("alice", "e4").contains("choose your secret bomb"));
    dm(&tb, "alice", "bomb a2");
    let out = tb.say("alice", "e4");
    assert!(out.contains("played by alice") && out.contains("played by capabot"), "{out}");
}

/// `bomb b1` without a game's number when the person has several secret-bomb games: the one that
/// still owes their bomb and has one of their pieces on b1 at the start is meant (before: "You have
/// 2 secret-bomb games; add the number" even when only one could be); when two could be, or none,
/// the number is asked for and nothing changes.
#[test]
fn a_bomb_without_a_number_goes_to_the_only_game_it_fits() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob bomb color:white");
    // With one secret-bomb game, the prompt's example is the plain form.
    assert!(tb.say("bob", "!accept").contains("(bomb a7)"));
    tb.say("alice", "!challenge @carol bomb color:black");
    // With several, it names the game (before: the plain form, which is refused for want of a number
    // where the square fits two of the person's games).
    assert!(tb.say("carol", "!accept #2").contains("(bomb #2 a7)"));
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'active'"), 2);
    // b1 is hers only in game #1 (White), e7 only in game #2 (Black).
    assert!(dm(&tb, "alice", "bomb b1").text().contains("Game #1: your bomb is the knight on b1"));
    assert!(dm(&tb, "alice", "bomb e7").text().contains("Game #2: your bomb is the pawn on e7"));
    // Carol's e2 could only be game #2's, which still owes her bomb; then nothing is owed.
    assert!(dm(&tb, "carol", "bomb e2").text().contains("Game #2: your bomb is the pawn on e2"));
    // Two games as White, both owing: e2 fits both, so the number is asked for.
    tb.say("bob", "!challenge @dave bomb color:white");
    tb.say("dave", "!accept #3");
    tb.say("bob", "!challenge @erin bomb color:white");
    tb.say("erin", "!accept #4");
    let before = tb.fingerprint();
    let out = dm(&tb, "bob", "bomb d2").text();
    assert!(
        out.contains("(#1 as black vs alice, #3 as white vs dave, #4 as white vs erin); add the number"),
        "each named: {out}"
    );
    assert_eq!(tb.fingerprint(), before, "an ambiguous choice changes nothing");
}

/// A bomb named in the shared chat after it was chosen in private is refused without saying that
/// any piece may still be chosen (before: "Nothing was chosen, so any piece is still yours to
/// pick", untrue once the choice is made, and the same words before it): the refusal says only that
/// this message chose and changed nothing, which is true either way and names nothing.
#[test]
fn a_bomb_named_in_the_shared_chat_is_refused_alike_before_and_after_the_choice() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob bomb color:white");
    tb.say("bob", "!accept");
    let before = tb.say("alice", "!bomb b1");
    assert!(dm(&tb, "alice", "bomb g1").text().contains("your bomb is the knight on g1"));
    let after = tb.say("alice", "!bomb b1");
    assert_eq!(before, after, "the refusal tells nothing of the choice");
    assert!(after.contains("This message chose nothing and changed nothing."), "{after}");
    assert!(!after.contains("still yours"), "{after}");
    // Nor does it tell a player whose bomb is chosen to choose it (before: "Choose your bomb in a
    // direct message…", as before the choice): its words are true either way.
    assert!(!after.contains("Choose your bomb"), "{after}");
    assert!(after.contains("say bomb there to see yours, or to choose it if you have not yet"), "{after}");
}

/// A detonation after one's bomb was captured: the chat hears the refusal any impossible
/// detonation gets (whose bomb a capture took stays secret), its player alone, by direct message,
/// that the bomb is gone (before: only "no detonation there now: name your own bomb's square…").
#[test]
fn a_detonation_after_the_bomb_was_taken_says_it_is_gone() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob bomb color:white");
    tb.say("bob", "!accept");
    dm(&tb, "alice", "bomb e2");
    dm(&tb, "bob", "bomb d7");
    // Alice's pawn takes Bob's bomb (on d5); hers goes on to d5.
    for (who, m) in [("alice", "e4"), ("bob", "d5"), ("alice", "exd5")] {
        tb.say(who, m);
    }
    for typed in ["@d7", "!move @d5"] {
        let before = tb.fingerprint();
        let r = tb.raw("bob", typed);
        assert_eq!(tb.fingerprint(), before);
        let mut w = Watch { secrets: vec![], seen: vec![] };
        w.take(r.clone());
        let (to_bob, to_chat): (Vec<&Reply>, Vec<&Reply>) =
            r.replies.iter().partition(|r| reader(r).as_deref() == Some("bob"));
        let chat: String = to_chat.iter().map(|r| r.text.as_str()).collect();
        let his: String = to_bob.iter().map(|r| r.text.as_str()).collect();
        assert!(chat.contains("no detonation there now") && !chat.contains("gone"), "{typed}: {chat}");
        assert!(his.contains("Game #1: your bomb (the pawn on d7 at the start) is gone."), "{typed}: {his}");
    }
    // Alice's bomb is still there: a wrong square gets the usual refusal alone.
    tb.say("bob", "Nf6");
    let out = tb.say("alice", "!move @e7");
    assert!(out.contains("no detonation there now") && !out.contains("gone"), "{out}");
}

/// A secret-bomb ladder (before: refused, "ladders and tournaments do not offer it yet"): its
/// challenge accepted starts a game whose players are each asked for their bomb by direct message,
/// on the ladder's clock, and a resignation moves the ladder as in any variant.
#[test]
fn a_secret_bomb_ladder_game_asks_both_players_for_their_bombs() {
    let tb = new_bot();
    let r = community_admin(&tb, "!ladder create bomb days:2");
    assert!(r.text().contains("Secret-Bomb Chess ladder is open"), "{}", r.text());
    for who in ["Alice", "Bob"] {
        community_say(&tb, who, "!ladder join");
    }
    assert!(community_say(&tb, "Bob", "!ladder challenge @Alice").text().contains("Ladder challenge #"));
    let r = community_say(&tb, "Alice", "!ladder accept");
    let game = number_after(&r.text(), "Game #");
    assert!(r.text().contains("First each player chooses a secret bomb"), "{}", r.text());
    let mut asked: Vec<(String, &str)> = r
        .replies
        .iter()
        .filter(|x| x.choices.len() == 15)
        .map(|x| {
            let reader = reader(x).expect("a prompt for one person's direct messages");
            assert!(x.text.contains(&format!("Game #{game} against")), "{}", x.text);
            (reader, if x.text.contains("you play white") { "d2" } else { "d7" })
        })
        .collect();
    asked.sort();
    assert_eq!(asked.iter().map(|(who, _)| who.as_str()).collect::<Vec<_>>(), ["alice", "bob"], "{r:?}");
    assert_eq!(tb.query_i64("SELECT days_per_move FROM games"), 2);
    let his = asked[1].1;
    let chosen = dm(&tb, "Bob", &format!("bomb #{game} {his}")).text();
    assert!(chosen.contains(&format!("your bomb is the pawn on {his}")), "{chosen}");
    let r = community_say(&tb, "Alice", "!resign");
    assert!(r.text().contains("Ladder: Bob takes place 1 from Alice"), "{}", r.text());
    assert!(r.text().contains(&format!("was the pawn on {his}")), "{}", r.text());
}

/// A bot that draws its pictures (so a bomb marked in a picture would show as a difference).
fn bot_with_pictures() -> TestBot {
    new_bot_with(BotConfig { pictures: true, ..BotConfig::default() })
}

/// What everybody but `secret_owner` is shown by a response: text, choices, alt texts and pictures,
/// in order.
type Seen = (String, Option<String>, Option<(u32, u32, Vec<u8>)>);
fn seen_by_others(r: &Response, secret_owner: &str) -> Vec<Seen> {
    r.replies
        .iter()
        .filter(|reply| reader(reply).as_deref() != Some(secret_owner))
        .map(|reply| (shown(reply), reply.alt_text.clone(), picture(reply)))
        .collect()
}

fn pieces(pos: &Position, color: Color) -> Vec<Square> {
    (pos.by_color(color) & !pos.by_role(Role::King)).into_iter().collect()
}

/// A property's random cases a run: all of them on SQLite (`tests/bot`), a quarter on PostgreSQL
/// (`tests/pg`), where the same core decides what each person is shown and a case costs several
/// times more (the store's statements are round trips to a server on the same two cores; the two
/// properties took about 30 % of that binary's processor time). Each run draws new cases.
fn cases(on_sqlite: u32) -> u32 {
    if on_postgres() { on_sqlite / 4 } else { on_sqlite }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(24), ..ProptestConfig::default() })]

    /// Non-interference: two games with the same moves, where only Black's secret bomb differs, look the
    /// same to White and to the chat — every text, button and picture — until the game ends (whose
    /// announcement names both bombs). White detonates her own bomb now and then; Black never does.
    #[test]
    fn the_other_players_bomb_changes_nothing_anyone_else_sees(seed in any::<u64>(), plies in 8usize..70) {
        let mut rng = StdRng::seed_from_u64(seed);
        let start = Position::start(&BOMB);
        let white = pieces(&start, Color::White);
        let black = pieces(&start, Color::Black);
        let her = white[rng.random_range(0..white.len())];
        let first = black[rng.random_range(0..black.len())];
        let mut second = black[rng.random_range(0..black.len())];
        while second == first {
            second = black[rng.random_range(0..black.len())];
        }
        let worlds = [bot_with_pictures(), bot_with_pictures()];
        let both = |act: &dyn Fn(&TestBot) -> Response| -> Result<[Response; 2], TestCaseError> {
            let a = act(&worlds[0]);
            let b = act(&worlds[1]);
            prop_assert_eq!(seen_by_others(&a, "bob"), seen_by_others(&b, "bob"));
            Ok([a, b])
        };
        both(&|tb| tb.raw("alice", "!challenge @bob bomb color:white"))?;
        both(&|tb| tb.raw("bob", "!accept"))?;
        both(&|tb| dm(tb, "alice", &format!("bomb {her}")))?;
        let [a, b] = [dm(&worlds[0], "bob", &format!("bomb {first}")), dm(&worlds[1], "bob", &format!("bomb {second}"))];
        prop_assert_eq!(seen_by_others(&a, "bob"), seen_by_others(&b, "bob"));
        prop_assert!(a.text().contains("Both bombs are set"), "{}", a.text());

        // Her own bomb is known to the test (it is the same in both worlds); his is not tracked at all.
        let mut pos = start.with_bombs([Some(her), None]).expect("her own piece");
        let mut over = false;
        for _ in 0..plies {
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = moves[rng.random_range(0..moves.len())];
            let next = pos.play(m);
            let who = if pos.turn() == Color::White { "alice" } else { "bob" };
            let text = san::write(&pos, m);
            let a = worlds[0].raw(who, &text);
            let b = worlds[1].raw(who, &text);
            // The end names both bombs (his blast is covered by the scripted game above): stop there.
            if next.outcome().is_some() || a.text().contains("Black's was") || b.text().contains("Black's was") {
                over = true;
                break;
            }
            prop_assert!(a.text().contains("played by"), "{}: {}", text, a.text());
            prop_assert_eq!(seen_by_others(&a, "bob"), seen_by_others(&b, "bob"), "after {}", text);
            pos = next;
        }
        // A finished game's PGN names both bombs: the looks are compared while it goes on.
        for look in ["!board", "!pgn", "!fen", "!games", "!game"].into_iter().filter(|_| !over) {
            both(&|tb| tb.raw("alice", look))?;
            both(&|tb| tb.raw("bob", look))?;
        }
    }
}

/// One way of sending a command: typed with the prefix, addressed to capabot by name or mention
/// (the front end parses it), as a private interaction (a Discord slash command or button) in the
/// shared chat, or typed in one's direct chat with capabot.
#[derive(Clone, Copy, Debug)]
enum Way {
    Typed,
    Addressed,
    Interaction,
    Direct,
}

const WAYS: [Way; 4] = [Way::Typed, Way::Addressed, Way::Interaction, Way::Direct];

/// `text` (a command without prefix) sent by `who` in the way `way`.
fn probe(tb: &TestBot, who: &str, text: &str, way: Way) -> Response {
    let author = UserRef::new(who, who);
    let shared = Scope::chat("test", "main");
    let mentions: Vec<UserRef> =
        text.split_whitespace().filter_map(|w| w.strip_prefix('@')).map(|n| UserRef::new(n, n)).collect();
    let parsed = |scope: Scope, via: Via| match command::parse(text) {
        Ok(c) => Input::command(scope, author.clone(), c).via(via),
        Err(_) => Input::text(scope, author.clone(), text).via(via),
    };
    let input = match way {
        Way::Typed => Input::text(shared, author.clone(), format!("!{text}")),
        // As the front ends (console, Matrix) make it from the words after the bot's name.
        Way::Addressed => Input::addressed(shared, author.clone(), text),
        Way::Interaction => parsed(shared, Via::Interaction),
        Way::Direct => {
            let scope = Scope { direct: true, ..Scope::chat("test", format!("dm-{who}")) };
            Input::text(scope, author.clone(), text)
        }
    };
    tb.bot.handle(&input.with_mentions(mentions))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(32), ..ProptestConfig::default() })]

    /// Non-interference over every command and every way of sending it: two games where only Bob's
    /// secret bomb differs; between moves, Alice, Bob and Carol send commands (every command's own
    /// example, and every form of `bomb`, naming either world's square) typed, addressed to capabot,
    /// as a private interaction in the shared chat, or in their direct chat. Everything anyone but
    /// Bob is shown — texts, buttons, pictures — is the same in both worlds until the game ends.
    #[test]
    fn no_command_sent_any_way_shows_a_bomb_to_anyone_else(seed in any::<u64>(), probes in 10usize..40) {
        let mut rng = StdRng::seed_from_u64(seed);
        let start = Position::start(&BOMB);
        let white = pieces(&start, Color::White);
        let black = pieces(&start, Color::Black);
        let her = white[rng.random_range(0..white.len())];
        let first = black[rng.random_range(0..black.len())];
        let mut second = black[rng.random_range(0..black.len())];
        while second == first {
            second = black[rng.random_range(0..black.len())];
        }
        let worlds = [bot_with_pictures(), bot_with_pictures()];
        let same = |a: &Response, b: &Response, what: &str| -> Result<(), TestCaseError> {
            prop_assert_eq!(seen_by_others(a, "bob"), seen_by_others(b, "bob"), "{}", what);
            Ok(())
        };
        for (who, text) in [("alice", "!challenge @bob bomb color:white"), ("bob", "!accept")] {
            same(&worlds[0].raw(who, text), &worlds[1].raw(who, text), text)?;
        }
        same(&dm(&worlds[0], "alice", &format!("bomb {her}")), &dm(&worlds[1], "alice", &format!("bomb {her}")), "hers")?;
        let a = dm(&worlds[0], "bob", &format!("bomb {first}"));
        let b = dm(&worlds[1], "bob", &format!("bomb {second}"));
        same(&a, &b, "his")?;

        let mut pool: Vec<String> = command::COMMANDS.iter().map(|c| c.example.to_string()).collect();
        for sq in [first, second, her] {
            pool.extend([format!("bomb #1 {sq}"), format!("bomb {sq}"), format!("@{sq}")]);
        }
        pool.extend(["bomb", "bomb #1", "board", "board #1", "pgn #1", "gif #1", "fen #1", "games", "game #1", "moves", "moves #1"].map(String::from));
        // Commands that end the game (its end names both bombs) are left out: the end is allowed to.
        pool.retain(|t| !["resign", "abort", "draw", "takeback"].iter().any(|w| t.starts_with(w)));
        // New games draw colours and setups at random, which would differ between the worlds for
        // another reason: their colours and setups are given.
        pool.retain(|t| !t.starts_with("play") && !t.starts_with("challenge"));
        pool.extend(["play chess color:white", "challenge @carol chess color:white", "challenge @bob bomb color:black"].map(String::from));
        let mut pos = start.with_bombs([Some(her), None]).expect("her own piece");
        for _ in 0..probes {
            if rng.random_bool(0.3) {
                let moves: Vec<Move> = pos.legal_moves().into_iter().filter(|m| pos.play(*m).outcome().is_none()).collect();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let text = san::write(&pos, m);
                let who = if pos.turn() == Color::White { "alice" } else { "bob" };
                let a = worlds[0].raw(who, &text);
                let b = worlds[1].raw(who, &text);
                if a.text().contains("Black's was") || b.text().contains("Black's was") {
                    break;
                }
                same(&a, &b, &text)?;
                pos = pos.play(m);
                continue;
            }
            let text = &pool[rng.random_range(0..pool.len())];
            let who = ["alice", "bob", "carol"][rng.random_range(0..3)];
            let way = WAYS[rng.random_range(0..WAYS.len())];
            if who == "bob" && text.starts_with('@') {
                // His detonation is the blast, which shows where his bomb was: allowed, and the end
                // of what is compared.
                continue;
            }
            let a = probe(&worlds[0], who, text, way);
            let b = probe(&worlds[1], who, text, way);
            if a.text().contains("Black's was") || b.text().contains("Black's was") {
                break;
            }
            same(&a, &b, &format!("{who} sent {text:?} {way:?}"))?;
            let status = worlds[0].query_str("SELECT status FROM games WHERE id = 1");
            if status != "active" {
                break;
            }
        }
    }
}

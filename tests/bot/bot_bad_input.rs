//! Bad input: random bytes, huge lines, unicode and right-to-left text, SQL-looking text and moves
//! in someone else's game get a clear refusal (or are ignored as chatter) and change nothing.

use crate::common::*;
use proptest::prelude::*;

fn game_in_progress() -> TestBot {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb
}

#[test]
fn fixed_nasty_inputs_change_nothing() {
    let tb = game_in_progress();
    let before = tb.fingerprint();
    let big = "a".repeat(100_000);
    let inputs = [
        format!("!{big}"),
        format!("!move {big}"),
        big.clone(),
        "!move '; DROP TABLE games; --".into(),
        "!challenge @bob chess'); DELETE FROM moves; --".into(),
        "!move e5\"; UPDATE games SET ply = 99".into(),
        "!move مرحبا".into(),
        "!move \u{202e}5e".into(),
        "!\u{0}\u{1}\u{7f}".into(),
        "!move #99999999999999999999 e5".into(),
        "!move #-1 e5".into(),
        "!board #0".into(),
        "!accept #1".into(),
        "!swap K b".into(),
        "!abort #7".into(),
        "!resign #42".into(),
        "!settings prefix:abc".into(),
        "!challenge days:4".into(),
        "!play level:0".into(),
        "!rules nosuchvariant".into(),
        "!".into(),
        "".into(),
        "   ".into(),
    ];
    for text in &inputs {
        // Carol is not in the game: moves in someone else's game are refused too.
        for who in ["bob", "carol", "🙂"] {
            let r = tb.raw(who, text);
            if text.starts_with('!') && text.trim().len() > 1 {
                assert!(!r.replies.is_empty(), "no answer to {:?}", &text[..text.len().min(40)]);
                let t = r.text();
                assert!(!t.contains("error id"), "internal error for {:?}: {t}", &text[..text.len().min(40)]);
                assert!(t.len() < 2000, "answer too long");
            }
        }
    }
    // Carol trying Bob's move in Alice and Bob's game.
    let out = tb.say("carol", "!move #1 e5");
    assert!(out.contains("only they move in it"), "{out}");
    assert_eq!(tb.fingerprint(), before);
}

/// `setup:N` past a variant's setups is answered with the variant's range, however many digits it has
/// (before: a number past four thousand million was "not a number"); text is not a number; nothing is
/// made.
#[test]
fn a_setup_out_of_range_is_told_the_variants_range() {
    let tb = new_bot();
    let before = tb.fingerprint();
    for given in ["21836", "99999999999", "12345678901234567891", "999999999999999999999999"] {
        let out = tb.say("alice", &format!("!challenge @bob caparandom setup:{given}"));
        assert!(out.contains("has setups 0 to 21835, not"), "{given}: {out}");
        if given.len() <= 20 {
            assert!(out.contains(&format!("not {given}.")), "the number as typed: {out}");
        }
        let out = tb.say("alice", &format!("!play chess setup:{given}"));
        assert!(out.contains("Chess has one starting position"), "{given}: {out}");
    }
    // What is no number at all is told the range too (before: "setup must be a number, not
    // '-1'", which `-1` is), and a variant of one starting position refuses even `setup:0` (before:
    // accepted and announced "setup 0", while `setup:3` was refused).
    for given in ["x1", "-1"] {
        let out = tb.say("alice", &format!("!play capatomic setup:{given}"));
        assert!(out.contains(&format!("Capatomic Random Chess has setups 0 to 21835, not {given}.")), "{out}");
        let out = tb.say("alice", &format!("!challenge @bob chess setup:{given}"));
        assert!(out.contains("Chess has one starting position"), "{given}: {out}");
    }
    for variant in ["chess", "capablanca", "stones"] {
        let out = tb.say("alice", &format!("!challenge @bob {variant} setup:0"));
        assert!(out.contains("has one starting position; setup:N is for the variants with several"), "{out}");
    }
    assert_eq!(tb.fingerprint(), before, "nothing made");
    let out = tb.say("alice", "!challenge @bob caparandom setup:21835");
    assert!(out.contains("Challenge #1") && out.contains("setup 21835"), "{out}");
}

/// Random text from anyone, typed or prefixed, in a chat with a game in progress: never an internal
/// error, and unless the answer says something was done, nothing changed. Each case starts from
/// [`game_in_progress`]; a case that changed nothing leaves it as it found it (its fingerprint is
/// compared), so the next case starts from the same game instead of a new database (on PostgreSQL
/// a database copied for each of 200 cases was most of this test's minute).
#[test]
fn random_text_never_panics_or_writes() {
    let body = prop_oneof![
        any::<String>(),
        "[ -~]{0,80}",
        proptest::collection::vec(any::<u8>(), 0..200).prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        "(move|board|resign|draw|takeback|abort|fen|pgn|swap|accept|decline) ?[#0-9a-zA-Z^\\[\\],=+ '\";-]{0,30}",
        // Every command and its actions' words, with a random tail of option-like words.
        (
            proptest::sample::select(command_words()),
            "( (#[0-9]{1,3}|@bob|@carol|[a-z]{1,8}(:[a-z0-9]{0,5})?|[0-9]{1,4}|[a-j][0-9]{1,2})){0,4}"
        )
            .prop_map(|(word, tail)| format!("{word}{tail}")),
    ];
    let who = prop_oneof![Just("bob"), Just("carol"), Just("זאב")];
    let config = ProptestConfig { cases: 1000, source_file: Some(file!()), ..ProptestConfig::default() };
    let unchanged: std::cell::RefCell<Option<TestBot>> = Default::default();
    let result = proptest::test_runner::TestRunner::new(config).run(
        &(body, any::<bool>(), who, proptest::bool::weighted(0.25)),
        |(body, prefixed, who, direct)| {
            let tb = unchanged.borrow_mut().take().unwrap_or_else(game_in_progress);
            let before = tb.fingerprint();
            let text = if prefixed { format!("!{body}") } else { body };
            // Commands that legitimately write (a real move, resign, an offer...) are left out by
            // comparing only when the reply is a refusal or silence. Said in the person's direct
            // chat one time in four.
            let r = if direct { dm(&tb, who, &text) } else { tb.raw(who, &text) };
            let t = r.text();
            prop_assert!(!t.contains("error id"), "internal error: {}", t);
            let wrote = [
                "played by",
                "Game over",
                "offers a draw",
                "asks to take back",
                "aborted",
                "hallenge #",
                "Settings saved",
                "declined",
                "cancelled",
                // A game against capabot, a person's own settings (asking about them writes
                // nothing), a link code, a rematch offer.
                "starts:",
                "From now on I speak",
                "language is forgotten",
                "konuşuyorum",
                "notices on:",
                "notices off:",
                "From now on I draw",
                "theme is reset",
                "link code",
                "rematch",
            ]
            .iter()
            .any(|w| t.contains(w));
            if !wrote {
                prop_assert_eq!(tb.fingerprint(), before);
                *unchanged.borrow_mut() = Some(tb);
            }
            Ok(())
        },
    );
    // The kept game goes before the result is judged, on this thread (its store's runtime).
    drop(unchanged);
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Asking capabot about one's own settings (`notify`, `lang`, `theme`) or naming a language or a
/// theme it does not know writes nothing, not even the asker's player row. (Before: each made a player of someone
/// who had only asked.)
#[test]
fn asking_about_ones_settings_writes_nothing() {
    let tb = game_in_progress();
    let before = tb.fingerprint();
    for (who, text) in [
        ("carol", "notify"),
        ("dave", "lang"),
        ("erin", "lang xx"),
        ("bob", "notify"),
        ("frank", "theme"),
        ("gina", "theme purple"),
    ] {
        let out = [dm(&tb, who, text).text(), tb.raw(who, &format!("!{text}")).text()];
        assert!(out.iter().all(|t| !t.is_empty() && !t.contains("error id")), "{text}: {out:?}");
    }
    assert_eq!(tb.fingerprint(), before);
    assert!(dm(&tb, "carol", "notify off").text().contains("notices off"));
    assert_ne!(tb.fingerprint(), before, "a choice is written down");
}

/// Every command's words and its actions' (`ladder`, `ladder join`, `tournament create`, …).
fn command_words() -> Vec<String> {
    let mut words = Vec::new();
    for c in capabot::bot::command::COMMANDS {
        words.push(c.name.to_string());
        words.extend(c.aliases.iter().map(|a| a.to_string()));
        words.extend(c.subcommands.iter().map(|s| format!("{} {}", c.name, s.words)));
    }
    words
}

/// A prefix a chat uses for itself is refused, with which marks are kept for the chat apps; with a
/// prefix such as `+`, the chatter it starts ("+1", "+++", "+ 2") is not answered as an unknown
/// command, while a word after it still is. (Before: `prefix:@` was taken, and "+1" answered "I
/// don't know the command '1'" in the chat.)
#[test]
fn a_prefix_stays_clear_of_the_chats_own_marks_and_its_chatter() {
    let tb = new_bot();
    let before = tb.fingerprint();
    for bad in ["@", "#", "/", "<", ">", ":", "`", "*", "_", "~", "|", "@!", "/?"] {
        let out = tb.say("alice", &format!("!settings prefix:{bad}"));
        assert!(out.contains("does not start with what chats use themselves"), "{bad}: {out}");
    }
    assert_eq!(tb.fingerprint(), before, "nothing saved");
    assert!(tb.say("alice", "!settings prefix:+").contains("Settings saved: prefix:+"));
    for chatter in ["+1", "+++", "+ 2", "+?", "+"] {
        let r = tb.raw("bob", chatter);
        assert!(r.replies.is_empty(), "{chatter}: {}", r.text());
    }
    assert!(tb.say("bob", "+hello").contains("I don't know the command 'hello'"));
    let out = tb.say("bob", "+games");
    assert!(out.contains("You have no games") && out.contains("+challenge"), "{out}");
}

/// A game or challenge number that cannot exist is answered that there is none, as typed (before:
/// "'#0 e4' is not a move I can read", "accept takes at most a game number", and a large number
/// written as a float); `days:0` is refused like `days:4` (before: a game without a clock); a
/// second person, or `rated` with `casual`, or an option given twice, is refused (before: one was
/// silently taken); a setup past any number is echoed as typed. Nothing changes.
#[test]
fn numbers_that_name_nothing_and_doubled_options_are_refused() {
    let tb = game_in_progress();
    let before = tb.fingerprint();
    for (typed, answer) in [
        ("!move #0 e5", "There is no game #0."),
        ("!move #-1 e5", "There is no game #-1."),
        ("!move #99999999999999999999999 e5", "There is no game #99999999999999999999999."),
        ("!board #9223372036854775807", "There is no game #9223372036854775807."),
        ("!resign #0", "There is no game #0."),
        ("!accept #99999999999999999999", "There is no challenge #99999999999999999999."),
        ("!decline #0", "There is no challenge #0."),
        ("!accept foo", "accept takes at most a challenge number like #4, not 'foo'"),
        ("!challenge @carol days:0", "days must be one of 1, 2, 3, 5, 7, 10, 14 or none, not '0'"),
        ("!challenge @carol @dave chess", "A challenge is for one person"),
        ("!challenge @carol chess casual rated", "Say rated or casual once, not both 'casual' and 'rated'"),
        ("!challenge @carol chess color:white color:black", "color is given twice ('color:white' and 'color:black')"),
        (
            "!challenge @carol caparandom setup:99999999999999999999",
            "Capablanca Random Chess has setups 0 to 21835, not 99999999999999999999.",
        ),
    ] {
        let out = tb.say("bob", typed);
        assert!(out.contains(answer), "{typed}: {out}");
        assert!(!out.contains("e+") && !out.contains("776000"), "{typed}: a number as a float: {out}");
    }
    assert_eq!(tb.fingerprint(), before);
    // `days:none` still means no clock.
    assert!(tb.say("bob", "!challenge @carol chess days:none").contains("no clock"));
}

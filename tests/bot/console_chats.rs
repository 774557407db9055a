//! The console's chats: a reply for a shared chat other than the one lines are typed in is printed
//! with that chat's name, so that what happens elsewhere (a tournament's start announced in its own
//! chat) does not read as said here.

use crate::common;

#[test]
fn a_reply_for_another_chat_is_printed_with_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice> !tournament create swiss chess signup:0 Cup\n/chat side\nbob> !tournament join\n\
                  carol> !tournament join\nalice> !tournament start\n/chat main\nbob> !games\n";
    let text = common::console_script(dir.path(), script);
    // Typed in `side`, answered there: unnamed.
    assert!(text.contains("\ncapabot> bob joins Cup (#1)"), "{text}");
    // The start is the tournament's chat's news: named, since lines are typed in `side`.
    assert!(text.contains("\ncapabot [main]> @bob @carol Tournament #1 Cup starts with 2 players"), "{text}");
    // Back in `main`, its replies are unnamed again.
    assert!(text.contains("\ncapabot> Your games:"), "{text}");
}

/// A person option written with its key, as help lists it (`opponent:@bob`), names the person in the
/// console too (before: "I could not tell who you mentioned").
#[test]
fn a_person_option_with_its_key_is_a_mention() {
    let dir = tempfile::tempdir().unwrap();
    let text = common::console_script(dir.path(), "alice> !challenge opponent:@bob chess\nbob> !accept\n");
    assert!(text.contains("Challenge #1: alice challenges bob to Chess"), "{text}");
    assert!(text.contains("Game #1 starts"), "{text}");
}

//! Secret-bomb chess in the console binary: the prompts come as direct messages printed with whom
//! they are for, `/dm bomb …` (or `bob> /dm bomb …`) answers them, and the game is won by the blast.

use crate::common;

#[test]
fn a_bomb_game_through_the_console() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice> !challenge @bob bomb color:white\nbob> !accept\nalice> Nc3\n\
                  /as alice\n/dm bomb b1\nbob> /dm bomb h7\nbob> /dm hello\n\
                  alice> Nc3\nbob> a6\nalice> Nd5\nbob> a5\nalice> Nxe7\nbob> a4\nalice> @e7\n";
    let text = common::console_script(dir.path(), script);
    assert!(text.contains("capabot → @alice: Game #1 against bob"), "{text}");
    assert!(text.contains("capabot → @bob: Game #1 against alice"), "{text}");
    assert!(text.contains("choose your secret bomb before your first move"), "{text}");
    assert!(text.contains("capabot → @alice: Game #1: your bomb is the knight on b1"), "{text}");
    // `bob> /dm …` is bob's direct message, as `/as bob` then `/dm …` would be.
    assert!(text.contains("capabot → @bob: Game #1: your bomb is the pawn on h7"), "{text}");
    // An answer in bob's direct chat is printed as his, like the prompts (before: as the shared
    // chat's `capabot>`).
    assert!(text.contains("capabot → @bob: I don't know 'hello'. Here every line is for me"), "{text}");
    assert!(text.contains("alice wins") && text.contains("White's was the knight on b1"), "{text}");
    // The detonation says what it took: the bomb's knight itself and the king beside it.
    assert!(text.contains("The blast on e7 removes Ne7 (white), ") && text.contains("Ke8 (black)"), "{text}");
}

/// Addressed to capabot by name in the shared chat (`capabot: bomb e2`, `@capabot bomb e2`), as a
/// new user tries first, a bomb is refused like `!bomb e2` there, and the refusal names no piece;
/// the same words in a direct chat choose it. (Before: the console did not know its own name, and
/// the addressed lines met silence.)
#[test]
fn a_bomb_addressed_by_name_in_the_shared_chat_is_refused_as_typed() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice> !challenge @bob bomb color:white\nbob> !accept\n\
                  alice> capabot: bomb e2\nalice> @capabot bomb e2\nalice> Capabot, bomb #1 e2\nalice> capabot games\n\
                  alice> /dm capabot: bomb e2\n";
    let text = common::console_script(dir.path(), script);
    let refusals =
        text.lines().filter(|l| l.starts_with("capabot> Not here: everyone in this chat can read that")).count();
    assert_eq!(refusals, 3, "{text}");
    assert!(
        text.contains("capabot> Your games:\n          game #1 Secret-Bomb Chess vs bob, move 1, choose your bomb"),
        "{text}"
    );
    // Chosen in the direct chat, and only said there.
    assert!(text.contains("capabot → @alice: Game #1: your bomb is the pawn on e2"), "{text}");
    let shared: Vec<&str> = text.lines().filter(|l| !l.starts_with("capabot → ")).collect();
    assert!(!shared.iter().any(|l| l.contains("pawn on e2")), "{text}");
}

/// `bomb e2` typed without the prefix in the shared chat, by a player whose game there waits for
/// their bomb, is refused like `!bomb e2` (naming no piece); the same words from someone without
/// such a game, or once the bomb is chosen, stay chatter. (Before: silence, as if it were chatter.)
#[test]
fn a_bomb_typed_without_the_prefix_in_the_shared_chat_is_refused_as_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let script = "alice> !challenge @bob bomb color:white\nbob> !accept\n\
                  alice> bomb e2\nalice> Bomb #1 e2\ncarol> bomb e2\nalice> bombs away\n\
                  alice> /dm bomb d2\nalice> bomb e2\n";
    let text = common::console_script(dir.path(), script);
    let refusals =
        text.lines().filter(|l| l.starts_with("capabot> Not here: everyone in this chat can read that")).count();
    assert_eq!(refusals, 2, "{text}");
    assert!(text.contains("capabot → @alice: Game #1: your bomb is the pawn on d2"), "{text}");
    let shared: Vec<&str> = text.lines().filter(|l| !l.starts_with("capabot → ")).collect();
    assert!(!shared.iter().any(|l| l.contains("pawn on e2") || l.contains("pawn on d2")), "{text}");
}

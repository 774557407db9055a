//! The atomic family through the bot core as the console drives it: listed by `variants`, explained by
//! `rules`, challenged by name, played to a death-match double explosion and kingless play; secret-bomb
//! chess starts by asking for the bombs by direct message (its whole flow: `tests/bot/secret_bomb_flow.rs`).

use crate::common::*;

#[test]
fn atomic_family_is_listed_explained_and_played_by_name() {
    let tb = new_bot();
    let list = tb.say("alice", "!variants");
    for name in ["atomic-nocheck", "atomic-deathmatch", "atomic-pawnsafe", "bomb"] {
        assert!(list.contains(name), "{list}");
    }
    assert!(tb.say("alice", "!rules deathmatch").contains("both kings"));
    assert!(tb.say("alice", "!help").contains("boom e4"));
    // No-check atomic: White ignores the queen's attack on its king (illegal in atomic), and loses it.
    tb.say("alice", "!challenge @bob atomic-nocheck color:white");
    assert!(tb.say("bob", "!accept").contains("starts"));
    for (who, mv) in [("alice", "e4"), ("bob", "e5"), ("alice", "Ke2"), ("bob", "Qh4")] {
        let out = tb.say(who, mv);
        assert!(!out.contains("not legal"), "{mv}: {out}");
    }
    let out = tb.say("alice", "Kf3");
    assert!(!out.contains("not legal"), "{out}");
    let out = tb.say("bob", "Qf4");
    assert!(!out.contains("not legal"), "{out}");
    // The queen on f4 attacks the king on f3; without check White may play on.
    let out = tb.say("alice", "a3");
    assert!(!out.contains("not legal"), "{out}");
    let out = tb.say("bob", "Qxf3");
    assert!(out.contains("bob wins"), "{out}");
    // What the blast took is said with the move: the king taken and the queen that took it.
    assert!(out.contains("The blast on f3 removes Kf3 (white), Qf3 (black)"), "{out}");
    assert!(out.contains("bob wins by blowing up the king"), "{out}");
    // Pawn-safe atomic: a pawn's capture is an ordinary one (no blast said); a knight's blows up.
    tb.say("alice", "!challenge @bob atomic-pawnsafe color:white");
    tb.say("bob", "!accept");
    for (who, mv) in [("alice", "e4"), ("bob", "d5"), ("alice", "exd5"), ("bob", "Nf6"), ("alice", "d3")] {
        let out = tb.say(who, mv);
        assert!(out.contains("played by") && !out.contains("blast"), "{mv}: {out}");
    }
    let out = tb.say("bob", "Nxd5");
    assert!(out.contains("The blast on d5 removes Pd5 (white), Nd5 (black). alice (white) to move."), "{out}");
}

/// A death match's double explosion says that the game goes on without kings and how it is won
/// now (before: only what the blast removed, and whose move it was).
#[test]
fn death_match_double_explosion_says_how_the_game_goes_on() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob atomic-deathmatch color:white");
    tb.say("bob", "!accept");
    let walk =
        ["e4", "e5", "Ke2", "Ke7", "Ke3", "Ke6", "Kd3", "Kd6", "Kc4", "Kc6", "Kd5", "Bd6", "Nc3", "h6", "Nb5", "h5"];
    for (i, mv) in walk.iter().enumerate() {
        let out = tb.say(if i % 2 == 0 { "alice" } else { "bob" }, mv);
        assert!(out.contains("played by") && !out.contains("kings are gone"), "{mv}: {out}");
    }
    let out = tb.say("alice", "Nxd6");
    assert!(out.contains("The blast on d6 removes Bd6 (black), Nd6 (white), Kd5 (white), Kc6 (black)."), "{out}");
    assert!(
        out.contains(
            "Both kings are gone, and the game goes on without them (no more check): a side left with no pieces or \
             pawns loses; a blast that empties the board, or no legal move for the side to move, is a draw. bob \
             (black) to move."
        ),
        "{out}"
    );
    // Said once, when it happens.
    let out = tb.say("bob", "Qh4");
    assert!(out.contains("played by bob") && !out.contains("kings are gone"), "{out}");
}

#[test]
fn secret_bomb_starts_with_the_choice_by_direct_message() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob bomb");
    let out = tb.say("bob", "!accept");
    assert!(out.contains("starts") && out.contains("secret bomb") && out.contains("direct message"), "{out}");
}

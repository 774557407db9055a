//! Flow tests of the bot core against a real SQLite file: full games in every variant, offers,
//! takebacks, aborts, the relocation setup phase, the clock, challenges, several games per chat,
//! PGN, AI games, restarts and the load-time consistency check.

use crate::common::*;
use capabot::bot::{FirstLegalMove, ManualClock, MoveOracle, NoAi};
use capabot::notation::fen;
use capabot::rules::{Color, Game, Move, Outcome, Position, Variant, WinReason};
use std::sync::Arc;
use std::time::Duration;

fn start_of(tb: &TestBot, game: i64) -> Position {
    let (v, f): (String, String) = {
        let c = tb.bot.store().conn().unwrap();
        c.query_row("SELECT variant, start_fen FROM games WHERE id = ?1", [game], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
    };
    fen::parse_position(Variant::by_name(&v).unwrap(), &f).unwrap()
}

fn full_game(variant: &str, extra: &str, wants: Wants) {
    let tb = new_bot();
    let out = tb.say("alice", &format!("!challenge @bob {variant} color:white days:3 {extra}"));
    assert!(out.contains("Challenge #1"), "{out}");
    let out = tb.say("bob", "!accept");
    assert!(out.contains("Game #1 starts"), "{out}");
    if variant == "caparelocation" {
        let out = tb.say("alice", "!swap K b");
        assert!(out.contains("chooses the swap now"), "White may not choose first: {out}");
        let out = tb.say("bob", "!swap K b");
        assert!(out.contains("Black chose"), "{out}");
        let out = tb.say("alice", "!noswap");
        assert!(out.contains("The game begins"), "{out}");
        // Black's king moved to file b; White's array is Capablanca's.
        let start = start_of(&tb, 1);
        assert_eq!(start.king(Color::Black).map(|s| s.to_string()).as_deref(), Some("b8"));
        assert_eq!(start.king(Color::White).map(|s| s.to_string()).as_deref(), Some("f1"));
    }
    let start = start_of(&tb, 1);
    let (sans, outcome) = decisive_playout(&start, wants);
    let last = play_through(&tb, "alice", "bob", &sans, start.turn());
    let Outcome::Decisive { winner, reason } = outcome else { unreachable!() };
    let winner_name = if winner == Color::White { "alice" } else { "bob" };
    let how = if reason == WinReason::Checkmate { "checkmate" } else { "blowing up the king" };
    assert!(last.contains(&format!("{winner_name} wins by {how}")), "{variant}: {last}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 1"), "finished");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves WHERE game_id = 1"), sans.len() as i64);
    tb.bot.verify_game(1).expect("replays to the stored FEN");
    let pgn = tb.say("alice", "!pgn");
    assert!(pgn.contains(&format!("[Result \"{}\"]", outcome.result_str())), "{pgn}");
    assert!(pgn.contains(&format!("[Termination \"{}\"]", outcome.reason_str())), "{pgn}");
    // Moving in a finished game is refused politely.
    let out = tb.say("alice", "!move e4");
    assert!(out.contains("over") || out.contains("no game"), "{out}");
}

#[test]
fn full_game_chess() {
    full_game("chess", "", Wants::default());
}

#[test]
fn full_game_capablanca() {
    full_game("capablanca", "", Wants::default());
}

#[test]
fn full_game_caparandom() {
    full_game("caparandom", "setup:1234", Wants::default());
}

#[test]
fn full_game_caparelocation_with_setup_phase() {
    full_game("caparelocation", "", Wants::default());
}

#[test]
fn full_game_stones() {
    full_game("stones", "", Wants::default());
}

#[test]
fn full_game_atomic() {
    full_game("atomic", "", Wants::default());
}

#[test]
fn full_game_capatomic_with_launch_and_missile_castling() {
    full_game("capatomic", "setup:77", Wants { launch: true, missile_castle: true });
}

/// A bare move from someone with two games here waiting for their move is not guessed into either:
/// they are told (to them alone, once while the games stay as they are) to name the game, with the
/// command for the game where the move is legal; chatter stays unanswered. (Before: "Game #1: not
/// your move; alice is to move" — said to alice, whose move it was.)
#[test]
fn a_bare_move_with_two_games_waiting_asks_which() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    tb.say("alice", "!challenge @carol capablanca color:white");
    tb.say("carol", "!accept");
    let before = tb.fingerprint();
    let r = tb.raw("alice", "e4");
    let out = r.text();
    assert!(
        out.contains("Several of your games here wait for your move (#1 as white vs bob, #2 as white vs carol)")
            && out.contains("like !move #2 e4"),
        "{out}"
    );
    assert!(!out.contains("not your turn"), "{out}");
    assert!(r.replies.iter().all(|r| r.audience.is_personal()), "to alice alone: {:?}", r.replies);
    assert_eq!(tb.say("alice", "Nf3"), "", "told once");
    assert_eq!(tb.say("alice", "hello"), "", "chatter");
    assert_eq!(tb.fingerprint(), before, "nothing played");
    let out = tb.say("alice", "!move #2 e4");
    assert!(out.contains("Game #2: 1. e4 played by alice"), "{out}");
    // One game waiting again: bare moves work as before.
    assert!(tb.say("alice", "Nf3").contains("Game #1: 2. Nf3 played by alice"));
    // Both waiting again, in new positions: she is told again, once (before: never again while
    // the process ran).
    tb.say("bob", "Nc6");
    tb.say("carol", "e5");
    assert!(
        tb.say("alice", "d4")
            .contains("Several of your games here wait for your move (#1 as white vs bob, #2 as white vs carol)")
    );
    assert_eq!(tb.say("alice", "d3"), "", "once while the games stay as they are");
}

/// Asked which game, the example is the person's own command with a game's number (`!draw #1`),
/// in their language; before, every command's example was `!board #1`.
#[test]
fn which_game_answers_show_the_command_asked() {
    let tb = new_bot();
    for colour in ["white", "black"] {
        tb.say("alice", &format!("!challenge @bob chess color:{colour}"));
    }
    tb.say("bob", "!accept #1");
    tb.say("bob", "!accept #2");
    for (typed, example) in
        [("!draw", "!draw #1"), ("!resign", "!resign #1"), ("!takeback decline", "!takeback decline #1")]
    {
        let out = tb.say("alice", typed);
        let games = "You have 2 games here (#1 as white vs bob, #2 as black vs bob)";
        assert!(out.contains(&format!("{games}; add the number, e.g. {example}.")), "{out}");
    }
    tb.say("alice", "!lang tr");
    let turkish = tb.say("alice", "!fen");
    assert!(
        turkish.contains("(#1 (bob ile, sen beyaz), #2 (bob ile, sen siyah)); numarasını ekle, ör. !fen #1."),
        "{turkish}"
    );
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'active'"), 2, "nothing ended");
}

#[test]
fn capatomic_bare_launch_notation() {
    let tb = new_bot();
    // A numbered setup: with a random one the playout sometimes came to a launch where the side
    // to move had only a few, which `moves` lists one by one rather than by missile.
    tb.say("alice", "!challenge @bob capatomic color:white setup:0");
    tb.say("bob", "!accept");
    let start = start_of(&tb, 1);
    let (sans, _) = decisive_playout(&start, Wants { launch: true, missile_castle: false });
    // Play up to the first launch with bare moves (no command word), written as SAN.
    let mut turn = Color::White;
    for s in &sans {
        let who = if turn == Color::White { "alice" } else { "bob" };
        if s.contains('^') {
            // Launches are counted by missile in the whole list (before: each of some 180 listed);
            // a missile's square lists its own.
            let out = tb.say(who, "!moves");
            let (missile, _) = s.trim_start_matches('M').split_once('^').unwrap();
            assert!(out.contains("Launches, by missile: M") && !out.contains('^'), "{out}");
            assert!(out.contains(&format!("M{missile}: ")) && out.contains("lists one missile's"), "{out}");
            let one = tb.say(who, &format!("!moves {missile}"));
            assert!(one.contains(&format!("M{missile}^")), "{one}");
        }
        // A launch is played in words, bare as with `move` (before: no answer, nothing played).
        let typed = match s.trim_start_matches('M').split_once('^') {
            Some((missile, target)) => format!("launch {missile} {}", target.trim_end_matches(['+', '#'])),
            None => s.clone(),
        };
        let out = tb.say(who, &typed);
        assert!(out.contains("played by"), "{typed}: {out}");
        if s.contains('^') {
            // The launch says the square it irradiated, and what its blast took (or that it took
            // nothing).
            let target = s.split('^').nth(1).unwrap().trim_end_matches(['+', '#']);
            assert!(out.contains(&format!("{target} is irradiated for good.")), "{s}: {out}");
            assert!(out.contains(&format!("The blast on {target} removes")), "{s}: {out}");
            return;
        }
        turn = turn.other();
    }
    panic!("no launch in the playout");
}

/// Game #1, before any move, starts from `fen` instead.
fn put_game_1_at(tb: &TestBot, fen: &str) {
    tb.by_hand("UPDATE games SET start_fen = ?1, fen = ?1 WHERE id = 1", [fen]);
}

/// A side whose only legal moves are launches gets them counted by missile too, with the count of
/// its moves and what they are (before: all 87 listed one by one, the counted form being kept for a
/// side that had other moves as well).
#[test]
fn launches_alone_are_counted_by_missile() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white setup:0");
    tb.say("bob", "!accept");
    // White's king and missile are walled in by radiation; the game is armed.
    put_game_1_at(&tb, "10/5k4/10/10/10/10/10/10/**6**/K*6*M w - - 0 1 - +");
    let out = tb.say("alice", "!moves");
    assert!(
        out.contains("alice (white) to move has 87 legal moves, all of them launches. Launches, by missile: Mj1: 87 (!moves j1 lists one missile's)."),
        "{out}"
    );
    assert!(!out.contains('^'), "{out}");
    assert!(tb.say("alice", "!moves j1").contains("Mj1^a3"));
    // The list is read by the chat, in the chat's language.
    tb.say("alice", "!settings lang:tr");
    assert!(tb.say("alice", "!moves").contains("87 yasal hamlesi var, hepsi atış. Füzeye göre atışlar: Mj1: 87"));
    tb.say("alice", "!settings lang:de");
    assert!(tb.say("alice", "!moves").contains("hat 87 legale Züge, alle sind Raketenstarts."));
}

#[test]
fn illegal_and_out_of_turn_moves_are_explained() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let out = tb.say("alice", "!move Nf4");
    assert!(out.contains("Nf4 is not legal") && out.contains("Nf3"), "{out}");
    let out = tb.say("bob", "!move e5");
    assert!(out.contains("not your turn"), "{out}");
    // Someone not playing is told who does, by `move #1` as by a bare move (before: "Game #1 is not
    // yours" here, "Game #1 is between alice and bob" there).
    let out = tb.say("carol", "!move #1 e4");
    assert!(out.contains("Game #1 is between alice and bob; only they move in it."), "{out}");
    tb.say("carol", "!challenge @dave chess");
    let out = tb.say("carol", "!move #1 e4");
    assert!(out.contains("Game #1 is between alice and bob; only they move in it."), "{out}");
    assert!(tb.say("carol", "e4").contains("Game #1 is between alice and bob; only they move in it."));
    // The same for the player out of turn (before: "Game #1: not your move; alice is to move." bare).
    assert!(tb.say("bob", "e5").contains("It is not your turn in game #1: alice (white) is to move."));
    let out = tb.say("alice", "!frobnicate");
    assert!(out.contains("help"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 0);
}

/// A Capatomic move that an irradiated square stops says which square, in the mover's language,
/// typed in SAN or in coordinates (before: "no pawn of yours can reach e5", "your pawn on e3 cannot
/// go to e5", castling "not possible now (moved king or rook, …)").
#[test]
fn a_move_stopped_by_radiation_names_the_square() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white setup:0");
    tb.say("bob", "!accept");
    put_game_1_at(&tb, "10/5k4/10/10/10/*9/3**5/2NPP5/R4K1*1R/10 w AJ - 0 1 - -");
    for typed in ["e5", "e3e5"] {
        let out = tb.say("alice", typed);
        assert!(out.contains("e4 on the way to e5 is irradiated: no piece may move through it"), "{typed}: {out}");
    }
    let out = tb.say("alice", "O-O");
    assert!(out.contains("h2 is irradiated, and castling may not cross an irradiated square or end on one"), "{out}");
    tb.say("alice", "!lang tr");
    let out = tb.say("alice", "a2a7");
    assert!(out.contains("a7 karesine giden yoldaki a5 karesi radyasyonlu: hiçbir taş oradan geçemez"), "{out}");
    let out = tb.say("alice", "f2j2");
    assert!(out.contains("h2 karesi radyasyonlu ve rok radyasyonlu bir kareden geçemez"), "{out}");
    tb.say("alice", "!lang de");
    let out = tb.say("alice", "Rg2");
    assert!(out.contains("h2 auf dem Weg nach g2 ist verstrahlt: Keine Figur darf hindurchziehen"), "{out}");
    let out = tb.say("alice", "e3e4");
    assert!(out.contains("e4 ist verstrahlt: Dort darf keine Figur stehen"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 0);
    assert!(tb.say("alice", "Nd5").contains("Nd5"), "the knight leaps over d4");
}

/// Figurines (either colour's) and full-width letters read as SAN's letters, typed or bare (before:
/// "'♘f3' is not a move I can read").
#[test]
fn figurine_and_full_width_moves_are_read_as_letters() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    assert!(tb.say("alice", "!move ♘f3").contains("1. Nf3 played by alice"));
    assert!(tb.say("bob", "♞c6").contains("1... Nc6 played by bob"));
    assert!(tb.say("alice", "!move Ｎｃ３").contains("2. Nc3 played by alice"));
    assert!(tb.say("bob", "♟e5").contains("2... e5 played by bob"), "a pawn's figurine names no piece");
    let out = tb.say("alice", "!move ♕h5");
    assert!(out.contains("Game #1: Qh5 is not legal"), "refused in letters: {out}");
    assert!(tb.say("alice", "ｅ２ｅ４").contains("3. e4 played by alice"));
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 5);
}

/// Moves copied with their numbers are read without them, typed or bare (before: `1. e4` bare was
/// taken for chatter and `!move 1.e4` was not a move); a file or rank typed that no such piece
/// stands on is named as the reason (before: "no pawn of yours can reach e4", and e4 among the
/// pawn moves listed beside it).
#[test]
fn moves_with_their_numbers_are_read_and_a_wrong_origin_is_named() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let out = tb.say("alice", "1e4");
    assert!(out.contains("no pawn of yours on rank 1 can reach e4"), "{out}");
    let out = tb.say("alice", "!move Nbf3");
    assert!(out.contains("no knight of yours on the b-file can reach f3"), "{out}");
    assert!(tb.say("alice", "1. e4").contains("1. e4 played by alice"));
    assert!(tb.say("bob", "1... e5").contains("1... e5 played by bob"));
    assert!(tb.say("alice", "!move 2.Nf3").contains("2. Nf3 played by alice"));
    assert!(tb.say("bob", "2…Nc6").contains("2... Nc6 played by bob"));
    // A spectator here gets the record of the game in progress, as its board (before: "not yours").
    let out = tb.say("carol", "!pgn #1");
    assert!(out.contains("[Event \"capabot game #1\"]") && out.contains("2. Nf3 Nc6 *"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 4);
    // Chatter that starts with a number stays chatter.
    assert_eq!(tb.say("alice", "3. lol"), "");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 4);
}

/// `bc4`, read as the b-pawn's move first (as SAN means a lower-case file) and as a bishop's, where
/// neither is legal but a pawn from elsewhere reaches c4: the refusal speaks of the pawn, lists the
/// pawn's moves, and offers the move that was likely meant (before: "no pawn of yours on the b-file
/// can reach c4; bishop moves: Bd2, …"). A wrong file alone offers the move the same way.
#[test]
fn a_wrong_origin_offers_the_move_meant_and_names_the_piece_whose_moves_are_listed() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "d4");
    tb.say("bob", "d5");
    assert_eq!(
        tb.say("alice", "bc4"),
        "Game #1: bc4 is not legal: no pawn of yours on the b-file can reach c4; pawn moves: a3, a4, b3, b4, c3, c4, \
         e3, e4, f3, f4, g3, g4, h3, h4; did you mean c4?"
    );
    let out = tb.say("alice", "!move Nfd2");
    assert!(out.contains("no knight of yours on the f-file can reach d2; knight moves: "), "{out}");
    assert!(out.ends_with("; did you mean Nd2?"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 2);
}

#[test]
fn resign_and_draw_agreement() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    let out = tb.say("bob", "!resign");
    assert!(out.contains("1-0") && out.contains("alice wins by resignation"), "{out}");

    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let out = tb.say("alice", "!draw");
    assert!(out.contains("offers a draw"), "{out}");
    // A move declines the offer: it does not survive the next move.
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    assert_eq!(tb.query_i64("SELECT count(*) FROM offers"), 0);
    let out = tb.say("alice", "!draw");
    assert!(out.contains("offers a draw"), "{out}");
    let out = tb.say("alice", "!draw");
    assert!(out.contains("already offered"), "{out}");
    let out = tb.say("bob", "!draw");
    assert!(out.contains("1/2-1/2") && out.contains("agreement"), "{out}");
    assert_eq!(tb.query_str("SELECT termination FROM games WHERE id = 2"), "agreement");
}

/// A declined draw offer or takeback request is not made again before the next move (before: as
/// often as typed, each pinging the opponent); the one who declined may make their own, and a move
/// lets the first ask again.
#[test]
fn a_declined_offer_waits_for_the_next_move() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("alice", "!draw");
    assert!(tb.say("bob", "!draw decline").contains("bob declined alice's draw offer"));
    let before = tb.fingerprint();
    let r = tb.raw("alice", "!draw");
    let out = r.text();
    assert!(out.contains("Game #1: your draw offer was declined; you can make it again after the next move."), "{out}");
    assert!(r.replies.iter().all(|r| r.notify.is_empty()), "nobody pinged: {r:?}");
    assert_eq!(tb.fingerprint(), before);
    // Nothing is pending: not shown with the board, nothing to decline or accept.
    assert!(!tb.say("alice", "!board").contains("offer"));
    assert!(tb.say("bob", "!draw decline").contains("there is no draw offer to decline"));
    assert!(tb.say("alice", "!takeback").contains("asks to take back"));
    assert!(tb.say("bob", "!takeback decline").contains("bob declined alice's takeback request"));
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("your takeback request was declined; you can make it again after the next move"), "{out}");
    // Bob may offer a draw of his own; Alice accepts it.
    assert!(tb.say("bob", "!draw").contains("bob offers a draw"));
    let out = tb.say("alice", "!draw");
    assert!(out.contains("1/2-1/2") && out.contains("agreement"), "{out}");

    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "!draw");
    tb.say("bob", "!draw decline");
    tb.say("alice", "e4");
    assert!(tb.say("alice", "!draw").contains("alice offers a draw"), "a move lets her offer again");
}

#[test]
fn takeback_by_agreement() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    tb.say("alice", "Qh5");
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("asks to take back"), "{out}");
    let out = tb.say("bob", "!takeback");
    assert!(out.contains("1 move taken back"), "{out}");
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 2);
    tb.bot.verify_game(1).unwrap();
    // Bob asks after Alice replied: his move and her reply go.
    tb.say("alice", "Nf3");
    tb.say("bob", "!takeback");
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("2 moves taken back") && out.contains("bob (black) to move"), "{out}");
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 1);
    tb.bot.verify_game(1).unwrap();
}

/// A takeback is asked for one's own last move: with none played yet (Black after White's first
/// move, either side before any), the request is refused at once instead of being put to the
/// opponent, who could then only be told that nothing can be taken back.
#[test]
fn a_takeback_without_a_move_of_ones_own_is_refused_at_once() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    for who in ["alice", "bob"] {
        let out = tb.say(who, "!takeback");
        assert!(out.contains("no move of yours to take back"), "{who}: {out}");
    }
    tb.say("alice", "e4");
    let out = tb.say("bob", "!takeback");
    assert!(out.contains("no move of yours to take back") && !out.contains("asks"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM offers"), 0);
    // Alice, who has moved, may ask; Bob agreeing takes her move back.
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("alice asks to take back"), "{out}");
    let out = tb.say("bob", "!takeback");
    assert!(out.contains("1 move taken back"), "{out}");
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 0);
    tb.bot.verify_game(1).unwrap();
}

#[test]
fn takeback_request_can_be_declined() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("asks to take back") && out.contains("!takeback decline"), "{out}");
    // Only the one asked may decline; nothing changes otherwise.
    let out = tb.say("alice", "!takeback decline");
    assert!(out.contains("the takeback request is yours"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM offers"), 1);
    let r = tb.raw("bob", "!takeback decline #1");
    let out = r.text();
    assert!(out.contains("bob declined alice's takeback request"), "{out}");
    assert!(r.replies.iter().any(|r| r.notify.iter().any(|u| u.id == "alice")), "the asker is notified: {r:?}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM offers WHERE declined_at IS NULL"), 0);
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
    // Declined means gone: Bob's own takeback is now a new request, not an agreement.
    let out = tb.say("bob", "!takeback");
    assert!(out.contains("bob asks to take back"), "{out}");
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
    let out = tb.say("alice", "!takeback decline");
    assert!(out.contains("alice declined bob's takeback request"), "{out}");
    let out = tb.say("alice", "!takeback decline");
    assert!(out.contains("no takeback request to decline"), "{out}");
    tb.bot.verify_game(1).unwrap();
}

/// Before both sides have moved a resignation aborts the game (as lichess offers only an abort
/// then): no result, no rating; from the second ply on it is a resignation again.
#[test]
fn resigning_before_both_sides_moved_aborts_the_game() {
    let tb = new_bot();
    // A new game with these moves played, alternately from white, and who resigns then.
    let resigned_after = |moves: &[&str], who: &str| {
        tb.say("alice", "!challenge @bob chess color:white");
        tb.say("bob", "!accept");
        moves.iter().zip(["alice", "bob"].iter().cycle()).for_each(|(m, by)| drop(tb.say(by, m)));
        tb.say(who, "!resign")
    };
    let out = resigned_after(&[], "alice");
    assert!(out.contains("Game #1 aborted: alice resigned before both sides had moved"), "{out}");
    let out = resigned_after(&["e4"], "bob");
    assert!(out.contains("Game #2 aborted") && !out.contains("Ratings"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'aborted'"), 2);
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings"), 0);
    let out = resigned_after(&["e4", "e5"], "bob");
    assert!(out.contains("alice wins by resignation") && out.contains("Ratings:"), "{out}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 3"), "finished");
}

#[test]
fn abort_only_before_both_sides_moved() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    let out = tb.say("bob", "!abort");
    assert!(out.contains("aborted"), "{out}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 1"), "aborted");
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    let out = tb.say("alice", "!abort");
    assert!(out.contains("can no longer be aborted"), "{out}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 2"), "active");
}

#[test]
fn reminder_then_timeout_with_fast_forward_clock() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white days:5");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    tb.say("alice", "Nf3");
    // Bob has 5 days; the reminder comes when 1 day (20 %) is left.
    tb.clock.advance(3 * 86_400);
    assert!(tb.tick().replies.is_empty());
    tb.clock.advance(86_400 + 60);
    let r = tb.tick();
    assert!(r.text().contains("reminder") && r.text().contains("bob"), "{}", r.text());
    assert!(r.replies[0].notify.iter().any(|u| u.id == "bob"));
    assert!(tb.tick().replies.is_empty(), "the reminder is sent once");
    tb.clock.advance(86_400);
    let r = tb.tick();
    assert!(r.text().contains("bob ran out of time") && r.text().contains("1-0"), "{}", r.text());
    assert_eq!(tb.query_str("SELECT termination FROM games WHERE id = 1"), "timeout");
    let out = tb.say("bob", "e5");
    assert!(out.is_empty() || out.contains("over"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 3);
}

/// A move leaves the game's entry in the index of what is due where it was (migration 39): a tick
/// after the old reminder time sends nothing (nothing is due) and keys the entry again by the
/// game's times; the reminder then comes when it is due, once.
#[test]
fn a_reminder_comes_when_due_though_moves_left_the_index_behind() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white days:5");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    let entry_is_the_games_times = || {
        tb.query_i64("SELECT count(*) FROM games WHERE id = 1 AND due_from = CASE WHEN remind_at < deadline THEN remind_at ELSE deadline END") == 1
    };
    assert!(entry_is_the_games_times());
    // Bob answers after three days: Alice's times move three days on, the entry stays.
    tb.clock.advance(3 * 86_400);
    tb.say("bob", "e5");
    assert!(!entry_is_the_games_times(), "the move left the entry behind");
    // Where Bob's reminder would have been: nothing is due, the entry is keyed again.
    tb.clock.advance(86_400 + 60);
    assert!(tb.tick().replies.is_empty());
    assert!(entry_is_the_games_times());
    // Alice's own reminder, four days after Bob's move.
    tb.clock.advance(3 * 86_400);
    let r = tb.tick();
    assert!(r.text().contains("reminder") && r.text().contains("alice"), "{}", r.text());
    assert!(tb.tick().replies.is_empty(), "the reminder is sent once");
}

/// Says `text` as `who` in chat `main` of `platform` (another platform than the test bot's own).
fn say_on(tb: &TestBot, platform: &str, who: &str, text: &str) -> capabot::bot::Response {
    let mut input = msg_in("main", who, text);
    input.scope.platform = platform.into();
    tb.bot.handle(&input)
}

/// Alice (White) against Bob on `platform`, a day a move, Bob to move after both sides have moved
/// (before that, running out of time aborts a game rather than losing it).
fn daily_game_bob_to_move(tb: &TestBot, platform: &str) {
    say_on(tb, platform, "alice", "!challenge @bob chess color:white days:1");
    say_on(tb, platform, "bob", "!accept");
    for (who, san) in [("alice", "e4"), ("bob", "e5"), ("alice", "Nf3")] {
        assert!(say_on(tb, platform, who, san).text().contains("played by"), "{san}");
    }
}

/// Gina (White) against capabot on othernet, a day a move, capabot to move after both sides have
/// moved; its job for that move is never run here.
fn gina_waits_for_capabot(tb: &TestBot) {
    say_on(tb, "othernet", "gina", "!play chess color:white days:1");
    let r = say_on(tb, "othernet", "gina", "e4");
    tb.bot.run_ai_jobs_inline(r.ai_jobs);
    assert!(say_on(tb, "othernet", "gina", "d4").text().contains("played by gina"));
}

/// A process does only what it can deliver: a tick handles the reminders, losses on time and
/// challenge expiries of the platforms it serves, and leaves another platform's to a process that
/// serves it (before, a Discord-only process timed out Matrix games, whose announcements then
/// waited in the outbox for ever).
#[test]
fn a_tick_handles_only_the_platforms_its_process_serves() {
    use capabot::bot::{BotConfig, Served};
    // Within the window after which any process takes a platform's overdue items (a week here).
    let tb = new_bot_with(BotConfig { pictures: false, unserved_expiry_secs: 7 * 86_400, ..BotConfig::default() });
    for platform in ["test", "othernet"] {
        daily_game_bob_to_move(&tb, platform);
        say_on(&tb, platform, "carl", "!challenge @dora chess");
    }
    let status = |platform: &str| {
        let reminded = "CASE WHEN remind_at IS NULL THEN 'reminded' ELSE 'due' END";
        tb.query_str(&format!("SELECT status || '/' || {reminded} FROM games WHERE platform = '{platform}'"))
    };
    let here = Served::new("here", ["test"]);
    let there = Served::new("there", ["othernet"]);
    let platforms = |r: &capabot::bot::Response| {
        let mut p: Vec<String> = r.replies.iter().map(|r| r.target.platform().to_string()).collect();
        p.dedup();
        p
    };
    // The reminder (20 % of a day left), then the loss on time and the challenges' expiry.
    tb.clock.advance(20 * 3600);
    let r = tb.bot.tick(&here);
    assert!(r.text().contains("reminder"), "{}", r.text());
    assert_eq!(platforms(&r), ["test"]);
    assert_eq!(status("othernet"), "active/due", "the other platform's reminder is left to its process");
    tb.clock.advance(2 * 86_400);
    let r = tb.bot.tick(&here);
    assert!(r.text().contains("bob ran out of time") && r.text().contains("expired"), "{}", r.text());
    assert_eq!(platforms(&r), ["test"]);
    assert_eq!(status("othernet"), "active/due");
    let open = "SELECT count(*) FROM challenges WHERE platform = 'othernet' AND status = 'open'";
    assert_eq!(tb.query_i64(open), 1);
    // The process that serves it does it.
    let r = tb.bot.tick(&there);
    assert!(r.text().contains("bob ran out of time") && r.text().contains("expired"), "{}", r.text());
    assert_eq!(platforms(&r), ["othernet"]);
    assert!(status("othernet").starts_with("finished/"), "{}", status("othernet"));
    assert_eq!(tb.query_i64(open), 0);
}

/// Replies waiting for a platform that no process has served for a day are expired: marked
/// failed (`expired`), counted in `capabot_outbox_expired_total` and logged, never deleted unseen;
/// a platform served within the day keeps its rows waiting.
#[test]
fn replies_for_a_platform_nobody_serves_expire_after_a_day_and_are_counted() {
    use capabot::bot::Served;
    let tb = new_bot();
    say_on(&tb, "othernet", "alice", "!challenge @bob chess");
    say_on(&tb, "test", "alice", "!challenge @bob chess");
    let waiting = |platform: &str| {
        tb.query_i64(&format!("SELECT count(*) FROM outbox WHERE platform = '{platform}' AND state = 'pending'"))
    };
    let (other, ours) = (waiting("othernet"), waiting("test"));
    assert!(other > 0 && ours > 0, "the replies wait in the outbox");
    let ((), expired) = counted("capabot_outbox_expired_total", || {
        tb.bot.tick(&Served::new("here", ["test"]));
        tb.clock.advance(86_400 - 1);
        tb.bot.tick(&Served::new("here", ["test"]));
        assert_eq!(waiting("othernet"), other, "not yet a day");
        tb.clock.advance(1);
        tb.bot.tick(&Served::new("here", ["test"]));
    });
    assert_eq!(expired, [("platform=othernet,reason=unserved".to_string(), other as u64)]);
    assert_eq!(waiting("othernet"), 0);
    assert_eq!(
        tb.query_i64(
            "SELECT count(*) FROM outbox WHERE platform = 'othernet' AND state = 'failed' AND failure = 'expired'"
        ),
        other,
        "kept, counted as failed"
    );
    assert_eq!(waiting("test"), ours, "the served platform's rows wait for its front end");
}

/// Runs `f` with a metrics recorder of its own; returns what `f` gave and the counters named
/// `name` it counted, each with its labels as `key=value,…`.
fn counted<T>(name: &str, f: impl FnOnce() -> T) -> (T, Vec<(String, u64)>) {
    use metrics_util::debugging::{DebugValue, DebuggingRecorder};
    let recorder = DebuggingRecorder::new();
    let snapshotter = recorder.snapshotter();
    let out = metrics::with_local_recorder(&recorder, f);
    let counters = snapshotter
        .snapshot()
        .into_vec()
        .into_iter()
        .filter(|(key, _, _, _)| key.key().name() == name)
        .map(|(key, _, _, value)| {
            let labels: Vec<String> = key.key().labels().map(|l| format!("{}={}", l.key(), l.value())).collect();
            (labels.join(","), if let DebugValue::Counter(n) = value { n } else { 0 })
        })
        .collect();
    (out, counters)
}

/// A platform nobody serves does not keep its games waiting for ever (issue 44 §2). Once no
/// process has served it for the window (`unserved_expiry_secs`, a day), any process's tick takes
/// its items that have been due as long: the loss on time ends the game (rated, as its own process
/// would have ended it; capabot's game too, whose move nobody here could play), the challenge
/// expires; what they announce waits in the outbox for that platform and is expired, counted, a
/// window later. A reminder due that long is dropped and counted (capabot's own, which would have
/// sent nothing, uncounted). An item due for less than the window is left alone. (Before: the
/// platform's games, challenges and reminders waited for ever.)
#[test]
fn the_overdue_items_of_a_platform_nobody_serves_are_run_and_its_reminders_dropped() {
    use capabot::bot::Served;
    let tb = new_bot();
    // On othernet, which no process serves: a game of a day a move, one against capabot with
    // capabot to move (its job is never run here), a challenge.
    daily_game_bob_to_move(&tb, "othernet");
    gina_waits_for_capabot(&tb);
    say_on(&tb, "othernet", "carl", "!challenge @dora chess");
    let state = |nth: usize| {
        tb.query_str(&format!(
            "SELECT status || '/' || CASE WHEN remind_at IS NULL THEN 'no reminder' ELSE 'reminder due' END
             FROM games ORDER BY id LIMIT 1 OFFSET {nth}"
        ))
    };
    let open = "SELECT count(*) FROM challenges WHERE platform = 'othernet' AND status = 'open'";
    assert_eq!(
        (state(0), state(1), tb.query_i64(open)),
        ("active/reminder due".into(), "active/reminder due".into(), 1)
    );
    let here = Served::new("here", ["test"]);
    // The reminders are due (at 20 % of the day left), not yet for a window.
    tb.clock.advance(20 * 3600);
    let (r, dropped) = counted("capabot_reminders_dropped_total", || tb.bot.tick(&here));
    assert!(r.replies.is_empty() && dropped.is_empty(), "{} {dropped:?}", r.text());
    assert_eq!(state(0), "active/reminder due");
    // A window after the reminders' time (the deadline not yet a window ago): dropped, counted.
    tb.clock.advance(48 * 3600 - 1 - 20 * 3600);
    let (r, dropped) = counted("capabot_reminders_dropped_total", || tb.bot.tick(&here));
    assert!(r.replies.is_empty(), "nothing is sent for a reminder dropped: {}", r.text());
    assert_eq!(dropped, [("platform=othernet,reason=unserved".to_string(), 1)], "gina's, not capabot's");
    assert_eq!((state(0), state(1)), ("active/no reminder".into(), "active/no reminder".into()));
    // A window after the deadline: both games lost on time, announced into othernet's outbox.
    tb.clock.advance(1);
    let r = tb.bot.tick(&here);
    assert!(r.text().contains("bob ran out of time") && r.text().contains("capabot ran out of time"), "{}", r.text());
    assert!(r.replies.iter().all(|r| r.target.platform() == "othernet"), "{:?}", r.replies);
    assert_eq!((state(0), state(1)), ("finished/no reminder".into(), "finished/no reminder".into()));
    let rated = "SELECT count(*) FROM ratings r JOIN games g ON r.player_id IN (g.white_id, g.black_id)
                 WHERE g.id = (SELECT min(id) FROM games) AND r.games = 1";
    assert!(tb.query_i64(rated) >= 2, "the loss on time is rated for both players");
    let announced = "SELECT count(*) FROM outbox WHERE platform = 'othernet' AND state = 'pending'";
    let waiting = tb.query_i64(announced);
    assert!(waiting >= 2, "the announcements wait for a process that serves othernet");
    assert_eq!(tb.query_i64(open), 1, "the challenge's time is not yet a window ago");
    // A window later: the challenge expires, and the announcements, a window old, expire, counted.
    tb.clock.advance(24 * 3600);
    let (r, expired) = counted("capabot_outbox_expired_total", || tb.bot.tick(&here));
    assert!(r.text().contains("expired"), "{}", r.text());
    assert_eq!(tb.query_i64(open), 0);
    assert_eq!(expired, [("platform=othernet,reason=unserved".to_string(), waiting as u64)]);
    assert_eq!(tb.query_i64(announced), 1, "only the challenge's notice, just written, waits");
}

#[test]
fn timeout_against_lone_king_is_a_draw() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white days:1");
    tb.say("bob", "!accept");
    // Put the game in a position where Black has only a king, and play until White is to move
    // after both sides have moved (before that, running out of time aborts a game).
    put_game_1_at(&tb, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    for (who, san) in [("bob", "Kf7"), ("alice", "Ke2"), ("bob", "Kg6")] {
        assert!(tb.say(who, san).contains("played by"), "{san}");
    }
    tb.clock.advance(2 * 86_400);
    let r = tb.tick();
    assert!(r.text().contains("alice ran out of time") && r.text().contains("1/2-1/2"), "{}", r.text());
    assert_eq!(tb.query_str("SELECT termination FROM games WHERE id = 1"), "timeout_vs_insufficient_material");
}

#[test]
fn challenges_expire() {
    let tb = new_bot();
    let out = tb.say("alice", "!challenge @bob chess");
    // No colour chosen: said as drawn at random (before: "alice plays random").
    assert!(out.contains("(no clock, rated, colours drawn at random)"), "{out}");
    tb.say("carol", "!challenge atomic");
    tb.clock.advance(47 * 3600);
    assert!(tb.tick().replies.is_empty());
    tb.clock.advance(2 * 3600);
    let r = tb.tick();
    // The notice names the opponent (or says it was open) and the variant (before: "Challenge #1
    // expired." alone).
    assert!(r.text().contains("Your Chess challenge #1 to bob expired unanswered."), "{}", r.text());
    assert!(r.text().contains("Your open Atomic Chess challenge #2 expired unanswered."), "{}", r.text());
    let out = tb.say("bob", "!accept");
    assert!(out.contains("no challenge"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games"), 0);
}

/// A person written without the mention (`!challenge bob`, `!challenge bob chess`) is told to
/// mention them, and nothing is challenged; a variant's full name is a variant.
#[test]
fn a_name_without_its_mention_is_told_to_mention_them() {
    let tb = new_bot();
    for text in ["!challenge bob", "!challenge bob chess", "!challenge Chess bob days:3"] {
        let out = tb.say("alice", text);
        assert!(
            out.contains("named 'bob'. To challenge someone, mention them: @bob. Variants: chess,"),
            "{text}: {out}"
        );
        assert!(out.contains("capatomic. Say !help challenge for how to write it."), "{out}");
    }
    let out = tb.say("alice", "!challenge bob alice");
    assert!(out.contains("I don't understand 'alice' here"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM challenges"), 0);
    let out = tb.say("alice", "!challenge Capatomic Random Chess days:3");
    assert!(out.contains("Open challenge #1") && out.contains("Capatomic Random Chess"), "{out}");
    // Playing the AI there is no person to name: an unknown word is an unknown variant.
    let out = tb.say("alice", "!play bob");
    assert!(out.contains("I don't know the variant 'bob'"), "{out}");
}

#[test]
fn open_challenge_and_decline() {
    let tb = new_bot();
    let labels = |r: &capabot::bot::Response| -> Vec<String> {
        r.replies.iter().flat_map(|r| r.choices.iter().map(|c| c.label.clone())).collect()
    };
    let r = tb.raw("alice", "!challenge stones");
    let out = r.text();
    assert!(out.contains("Open challenge #1"), "{out}");
    // Written as the buttons write it (before: "!accept 1").
    assert!(out.contains("Anyone here: !accept #1 (expires in 48 h)"), "{out}");
    // Nobody declines an open challenge: no such button (before: one that answered "no challenge
    // here for you"), and a typed decline says what can be done.
    assert_eq!(labels(&r), ["Accept", "Withdraw"]);
    let before = tb.fingerprint();
    for who in ["carol", "bob"] {
        let out = tb.say(who, "!decline #1");
        assert!(
            out.contains(
                "Challenge #1 is open to anyone here: it cannot be declined, and only alice can withdraw it; !accept #1 \
                 takes it up."
            ),
            "{out}"
        );
    }
    // Someone the bot has not met is shown it with how to take it up (before: "no games").
    let out = tb.say("dave", "!games");
    assert!(out.contains("challenge #1 from alice (Stone's Chess): !accept #1"), "{out}");
    assert_eq!(tb.fingerprint(), before);
    let out = tb.say("alice", "!accept");
    assert!(out.contains("Challenge #1 is your own; !decline #1 cancels it."), "cannot accept one's own: {out}");
    let out = tb.say("carol", "!accept #1");
    assert!(out.contains("Game #1 starts") && out.contains("Stone"), "{out}");
    let out = tb.say("dave", "!accept #1");
    assert!(out.contains("no longer open"), "{out}");
    let r = tb.raw("alice", "!challenge @bob chess");
    assert_eq!(labels(&r), ["Accept", "Decline", "Withdraw"]);
    let out = tb.say("bob", "!decline");
    assert!(out.contains("declined"), "{out}");
    tb.say("alice", "!challenge @bob chess");
    // The same challenge again while it waits: its number instead of a second one (before: as
    // many as typed); other terms, another variant or another person make a new one.
    let waiting = tb.query_i64("SELECT max(id) FROM challenges");
    // Someone else's challenge is said to be theirs, by decline as by accept (before: "There is no
    // challenge here for you to decline."), for a player known or not.
    let before = tb.fingerprint();
    for who in ["carol", "erin"] {
        for verb in ["!accept", "!decline"] {
            let out = tb.say(who, &format!("{verb} #{waiting}"));
            assert!(out.contains(&format!("Challenge #{waiting} is for bob, not for you.")), "{who} {verb}: {out}");
        }
    }
    assert_eq!(tb.fingerprint(), before);
    let out = tb.say("alice", "!challenge @bob chess");
    assert!(out.contains(&format!("Your challenge #{waiting} (Chess) on the same terms is still waiting")), "{out}");
    assert_eq!(tb.fingerprint(), before);
    assert!(tb.say("alice", "!challenge @bob atomic").contains("Challenge #"));
    assert!(tb.say("alice", "!challenge @carol chess").contains("Challenge #"));
    // Several open for bob: which, with their numbers and who made them.
    let out = tb.say("bob", "!decline");
    let open = format!("#{} from alice — Atomic Chess, #{waiting} from alice — Chess", waiting + 1);
    assert!(out.contains(&format!("Several challenges are open ({open}); say which, e.g. !decline #")), "{out}");
    let out = tb.say("alice", &format!("!decline #{waiting}"));
    assert!(out.contains("cancelled"), "{out}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games"), 1);
    // A setup for a variant of one starting position.
    let out = tb.say("alice", "!challenge @dave chess setup:3");
    assert!(
        out.contains("Chess has one starting position; setup:N is for the variants with several (caparandom"),
        "{out}"
    );
    // A player known here (carol played game #1) is answered the same about another's open challenge.
    let open = tb.raw("dave", "!challenge atomic");
    let id = tb.query_i64("SELECT max(id) FROM challenges");
    assert!(open.text().contains(&format!("Open challenge #{id}")), "{}", open.text());
    let out = tb.say("carol", &format!("!decline #{id}"));
    assert!(
        out.contains(&format!("Challenge #{id} is open to anyone here: it cannot be declined, and only dave")),
        "{out}"
    );
    assert!(tb.say("dave", &format!("!decline #{id}")).contains("cancelled"));
}

#[test]
fn two_games_in_one_channel() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "!challenge @carol capablanca color:white");
    tb.say("carol", "!accept");
    let out = tb.say("alice", "!move e4");
    assert!(out.contains("#1 as white vs bob, #2 as white vs carol") && out.contains("!move #1"), "{out}");
    let out = tb.say("alice", "!move #2 e4");
    assert!(out.contains("Game #2: 1. e4"), "{out}");
    // Now only game #1 waits for Alice: a bare move goes there.
    let out = tb.say("alice", "d4");
    assert!(out.contains("Game #1: 1. d4"), "{out}");
    let out = tb.say("carol", "e5");
    assert!(out.contains("Game #2: 1... e5"), "{out}");
    let out = tb.say("bob", "!move #2 e5");
    assert!(out.contains("Game #2 is between alice and carol; only they move in it."), "{out}");
    let out = tb.say("alice", "!board");
    assert!(out.contains("2 games"), "{out}");
    let out = tb.say("alice", "!games");
    assert!(out.contains("#1 Chess vs bob, move 1, their turn"), "{out}");
    assert!(out.contains("#2 Capablanca Chess vs carol, move 2, your turn"), "{out}");
    // Her own challenges still waiting are listed with how to withdraw them (before: only the
    // games and the challenges made to her; "No games in progress" with nothing else).
    tb.say("alice", "!challenge @dave atomic");
    tb.say("alice", "!challenge stones");
    let out = tb.say("alice", "!games");
    assert!(
        out.contains("your challenge #3 to dave (Atomic Chess), waiting for their answer: !decline #3 withdraws it"),
        "{out}"
    );
    assert!(out.contains("your open challenge #4 (Stone's Chess), waiting for anyone here: !decline #4"), "{out}");
    let out = tb.say("dave", "!games");
    assert!(out.contains("challenge #3 from alice (Atomic Chess): !accept #3") && !out.contains("your"), "{out}");
    // In another chat, a challenge waiting for them is listed as their games elsewhere are: where it
    // is answered (before: only their games elsewhere).
    let out = tb.say_in("elsewhere", "dave", "!games");
    assert!(
        out.contains("challenge #3 from alice (Atomic Chess) in another chat: accept or decline it there"),
        "{out}"
    );
    assert!(!out.contains("#4"), "an open challenge there is not his to answer: {out}");
    let out = tb.say_in("elsewhere", "alice", "!games");
    assert!(out.contains("#1 Chess vs bob, move 1, their turn (another chat)") && !out.contains("#3"), "{out}");
    let solo = new_bot();
    solo.say("erin", "!challenge @frank chess");
    let out = solo.say("erin", "!games");
    assert!(out.starts_with("Your games:") && out.contains("your challenge #1 to frank"), "{out}");
    // Once it expires, it is no longer listed.
    solo.clock.advance(3 * 24 * 3600);
    assert!(solo.say("erin", "!games").contains("No games in progress"));
}

/// Games and challenges are numbered apart, so one list may show a game #2 and a challenge #2:
/// each line says which it is, in every language (before: the game's line was "#2 Chess vs
/// capabot" under "challenge #2 from bob"), and each number is taken as before.
#[test]
fn games_and_challenges_of_one_number_are_told_apart() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "!play chess color:white");
    let out = tb.say("bob", "!challenge @alice atomic");
    assert!(out.contains("Challenge #2"), "{out}");
    for (lang, game, challenge) in [
        ("en", "game #2 Chess vs capabot", "challenge #2 from bob (Atomic Chess): !accept #2"),
        ("tr", "oyun #2 Satranç, rakip capabot", "bob adlı oyuncudan meydan okuma #2 (Atomik Satranç): !accept #2"),
        ("de", "Partie #2 Schach gegen capabot", "Herausforderung #2 von bob (Atomschach): !accept #2"),
    ] {
        tb.say("alice", &format!("!settings lang:{lang}"));
        let out = tb.say("alice", "!games");
        let lines: Vec<&str> = out.lines().skip(1).map(str::trim).collect();
        assert!(lines.iter().any(|l| l.starts_with(game)), "{lang}: {out}");
        assert!(lines.contains(&challenge), "{lang}: {out}");
        // No line shows a bare number.
        assert!(lines.iter().all(|l| !l.starts_with('#')), "{lang}: {out}");
    }
    // The numbers are read as before: #2 a game for a move, a challenge for accept.
    tb.say("alice", "!settings lang:en");
    assert!(tb.say("alice", "!move #2 e4").contains("Game #2: 1. e4"));
    assert!(tb.say("alice", "!accept #2").contains("Game #3 starts"));
}

#[test]
fn pgn_headers_of_a_random_setup_game() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparandom color:black setup:42");
    tb.say("bob", "!accept");
    tb.say("bob", "e4");
    tb.say("alice", "e5");
    tb.say("alice", "!resign");
    let pgn = tb.say("bob", "!pgn");
    for h in [
        "[Event \"capabot game #1\"]",
        "[Site \"test chat main\"]",
        "[Date \"2025.11.21\"]",
        "[White \"bob\"]",
        "[Black \"alice\"]",
        "[Result \"1-0\"]",
        "[SetUp \"1\"]",
        "[SetupNumber \"42\"]",
        "[Termination \"resignation\"]",
    ] {
        assert!(pgn.contains(h), "missing {h} in\n{pgn}");
    }
    assert!(pgn.contains("[Variant \"") && pgn.contains("[FEN \""), "{pgn}");
    assert!(pgn.contains("1. e4 e5 1-0"), "{pgn}");
}

/// The setup number the game's start names (drawn at random, or chosen by Capablanca Relocation's
/// swaps) is the PGN's `SetupNumber`; a variant with one start position has none (before: the
/// PGN gave only the FEN).
#[test]
fn a_games_pgn_names_the_setup_its_start_named() {
    let tb = new_bot();
    let number = |text: &str, word: &str| -> String {
        let at = text.find(word).unwrap_or_else(|| panic!("no '{word}' in {text}")) + word.len();
        text[at..].chars().take_while(char::is_ascii_digit).collect()
    };
    let start = tb.say("alice", "!play capatomic color:white");
    let drawn = number(&start, ", setup ");
    tb.say("alice", "!resign");
    assert!(tb.say("alice", "!pgn").contains(&format!("[SetupNumber \"{drawn}\"]\n")), "setup {drawn}");
    tb.say("alice", "!challenge @bob caparelocation color:white");
    tb.say("bob", "!accept");
    tb.say("bob", "!swap Q h");
    let begins = tb.say("alice", "!swap K c");
    let chosen = number(&begins, "; setup ");
    tb.say("alice", "!resign");
    let pgn = tb.say("alice", "!pgn");
    assert!(pgn.contains(&format!("[SetupNumber \"{chosen}\"]\n")), "setup {chosen}: {pgn}");
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "!resign");
    assert!(!tb.say("alice", "!pgn").contains("SetupNumber"));
}

#[test]
fn playing_the_ai() {
    let tb = new_bot();
    let out = tb.say("alice", "!play chess level:2 color:white");
    // The level beside the name, without doubled parentheses (before: "capabot (level 2) (white)").
    assert!(out.contains("Game #1 starts: alice (white) vs capabot, level 2 (black)"), "{out}");
    assert!(tb.say("alice", "!pgn").contains("[Black \"capabot, level 2\"]"), "the record names it alike");
    let out = tb.say("alice", "e4");
    assert!(
        out.contains("1. e4 played by alice") && out.contains("1... ") && out.contains("played by capabot"),
        "{out}"
    );
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
    // AI as White moves at once; `challenge @capabot` works too.
    let out = tb.say_in("other", "bob", "!challenge @capabot atomic color:black");
    assert!(out.contains("1. ") && out.contains("played by capabot"), "{out}");
    // Takeback against the AI is immediate and returns to the human's turn.
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("2 moves taken back"), "{out}");
    // A stale AI job (the game moved on) is dropped.
    let r = tb.raw("alice", "e4");
    let job = r.ai_jobs[0].clone();
    let first = tb.bot.finish_ai_job(&job, tb.bot.run_ai_job(&job));
    assert!(first.text().contains("played by capabot"));
    let again = tb.bot.finish_ai_job(&job, tb.bot.run_ai_job(&job));
    assert!(again.replies.is_empty());
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
    // Draw offers to the AI are declined.
    let out = tb.say("alice", "!draw");
    assert!(out.contains("declines"), "{out}");
}

/// An AI move chosen for a position the game has left lands nowhere, even when the game came back to
/// the same ply by another road (a takeback and another move while the search ran) and the move is
/// legal there too.
#[test]
fn an_ai_move_for_a_position_taken_back_is_dropped() {
    let tb = new_bot();
    tb.say("alice", "!play chess level:2 color:white");
    // The search for the position after 1. e4 is under way when alice takes e4 back and plays d4.
    let r = tb.raw("alice", "e4");
    let stale = r.ai_jobs[0].clone();
    let out = tb.say("alice", "!takeback");
    assert!(out.contains("taken back"), "{out}");
    let r = tb.raw("alice", "d4");
    let fresh = r.ai_jobs[0].clone();
    assert_eq!((stale.ply, fresh.ply), (1, 1), "both searches are for ply 1");
    // 1... Nf6 is legal after e4 and after d4: the stale search's move must not land on d4.
    let nf6 = capabot::notation::uci::parse(stale.game.position(), "g8f6").unwrap();
    let r = tb.bot.finish_ai_job(&stale, Some(nf6));
    assert!(r.replies.is_empty(), "{}", r.text());
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 1, "the game still waits for the AI's answer to d4");
    let r = tb.bot.finish_ai_job(&fresh, tb.bot.run_ai_job(&fresh));
    assert!(r.text().contains("played by capabot"), "{}", r.text());
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 2);
}

/// Plays the first legal move and claims that levels 8 and up take two seconds (the real AI's budgets
/// are checked in `bot::seams`).
struct SlowAtTopLevel;

impl MoveOracle for SlowAtTopLevel {
    fn choose(&self, game: &Game, level: u8) -> Option<Move> {
        FirstLegalMove.choose(game, level)
    }
    fn budget(&self, level: u8) -> Duration {
        Duration::from_millis(if level >= 8 { 2_000 } else { 300 })
    }
}

#[test]
fn slow_ai_moves_are_announced_and_fast_ones_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let bot = open_bot(&db_path(dir.path()), Arc::new(ManualClock::new(T0)), Arc::new(SlowAtTopLevel));
    // capabot as White at level 8: the acknowledgment comes at once, with the job, before the move.
    let r = bot.handle(&msg_in("main", "alice", "!play chess level:8 color:black"));
    assert_eq!(r.ai_jobs.len(), 1);
    let text = r.text();
    assert!(text.contains("Game #1 starts") && text.contains("Game #1: capabot is thinking"), "{text}");
    let moved = bot.run_ai_jobs_inline(r.ai_jobs);
    assert!(moved.iter().any(|m| m.text.contains("1. ") && m.text.contains("played by capabot")));
    // Every later move of the level-8 AI is announced too.
    let r = bot.handle(&msg_in("main", "alice", "e5"));
    assert_eq!(r.ai_jobs.len(), 1);
    assert!(r.text().contains("1... e5 played by alice") && r.text().contains("capabot is thinking"), "{}", r.text());
    // A quick level says nothing before its move.
    let r = bot.handle(&msg_in("other", "bob", "!play chess level:3 color:black"));
    assert_eq!(r.ai_jobs.len(), 1);
    assert!(!r.text().contains("thinking"), "{}", r.text());
}

#[test]
fn pending_ai_jobs_after_restart() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let path = db_path(dir.path());
    {
        // Without an AI the job never lands.
        let bot = open_bot(&path, clock.clone(), Arc::new(NoAi));
        // A new database: listing creates capabot's player.
        assert!(bot.pending_ai_jobs(&capabot::bot::Served::new("here", ["test"])).unwrap().is_empty());
        let r = bot.handle(&msg_in("main", "alice", "!play chess color:white"));
        assert!(r.text().contains("starts"));
        let r = bot.handle(&msg_in("main", "alice", "e4"));
        assert_eq!(r.ai_jobs.len(), 1);
        let r = bot.finish_ai_job(&r.ai_jobs[0], None);
        assert!(r.text().contains("could not find a move"), "{}", r.text());
    }
    let bot = open_bot(&path, clock, Arc::new(FirstLegalMove));
    // Another platform's process leaves the game to this one's.
    assert!(bot.pending_ai_jobs(&capabot::bot::Served::new("elsewhere", ["othernet"])).unwrap().is_empty());
    let jobs = bot.pending_ai_jobs(&capabot::bot::Served::new("here", ["test"])).unwrap();
    assert_eq!(jobs.len(), 1);
    let replies = bot.run_ai_jobs_inline(jobs);
    assert!(replies[0].text.contains("played by capabot"));
    // The first listing wrote capabot's player in a unit of work (before: on its own, which on
    // PostgreSQL failed when another process started at once).
    if on_postgres() {
        assert_eq!(capabot::store::lone_writes(), 0);
    }
}

#[test]
fn restart_mid_game_keeps_fen_clock_and_offers() {
    let dir = tempfile::tempdir().unwrap();
    let clock = Arc::new(ManualClock::new(T0));
    let path = db_path(dir.path());
    let (fen_before, deadline_before, board_before);
    {
        let tb = TestBot {
            dir: tempfile::tempdir().unwrap(),
            clock: clock.clone(),
            bot: open_bot(&path, clock.clone(), Arc::new(NoAi)),
        };
        tb.say("alice", "!challenge @bob capatomic color:white days:2 setup:5");
        tb.say("bob", "!accept");
        let start = {
            let c = tb.bot.store().conn().unwrap();
            let f: String = c.query_row("SELECT start_fen FROM games", (), |r| r.get(0)).unwrap();
            fen::parse_position(Variant::by_name("capatomic").unwrap(), &f).unwrap()
        };
        let (sans, _) = decisive_playout(&start, Wants::default());
        play_through(&tb, "alice", "bob", &sans[..6], Color::White);
        tb.say("alice", "!draw");
        fen_before = tb.query_str("SELECT fen FROM games");
        deadline_before = tb.query_i64("SELECT deadline FROM games");
        board_before = tb.say("bob", "!board");
        assert!(board_before.contains("Draw offered by alice"), "{board_before}");
        // The variant named as the game's start named it, not as it is typed.
        assert!(board_before.contains("(black), Capatomic Random Chess; "), "{board_before}");
    }
    // A new bot on the same file: same position, same deadline, the offer still stands.
    let tb = TestBot {
        dir: tempfile::tempdir().unwrap(),
        clock: clock.clone(),
        bot: open_bot(&path, clock, Arc::new(NoAi)),
    };
    assert_eq!(tb.query_str("SELECT fen FROM games"), fen_before);
    assert_eq!(tb.query_i64("SELECT deadline FROM games"), deadline_before);
    assert_eq!(tb.say("bob", "!board"), board_before);
    let out = tb.say("bob", "!draw");
    assert!(out.contains("agreement"), "{out}");
    drop(dir);
}

#[test]
fn fen_mismatch_is_reported_not_repaired() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    let bad = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
    tb.by_hand("UPDATE games SET fen = ?1 WHERE id = 1", [bad]);
    let out = tb.say("bob", "!board");
    assert!(out.contains("error id"), "{out}");
    let out = tb.say("bob", "e5");
    assert!(out.contains("error id"), "{out}");
    assert!(tb.bot.verify_game(1).unwrap_err().contains("consistency check failed"));
    assert_eq!(tb.query_str("SELECT fen FROM games WHERE id = 1"), bad, "never silently repaired");
    assert_eq!(tb.query_i64("SELECT count(*) FROM moves"), 1);
}

#[test]
fn chat_settings_change_the_prefix() {
    let tb = new_bot();
    let out = tb.say("alice", "!settings prefix:? variant:chess days:3");
    assert!(out.contains("saved"), "{out}");
    assert!(tb.say("alice", "!help").is_empty(), "the old prefix is ignored");
    let out = tb.say("alice", "?challenge @bob");
    assert!(out.contains("Chess (3 days per move"), "{out}");
}

/// Every setting a chat or a community can set goes back with `default` to what it would be without
/// it (the community's value, else the built-in one), as `lang:default` alone did (before:
/// `theme:default` was refused, and prefix, variant, days, thread, gif, rated and web had no way
/// back); `help settings` says so.
#[test]
fn every_setting_goes_back_with_default() {
    use crate::common::{community_admin as admin, community_say};
    let tb = new_bot();
    let fresh = tb.say_in("other", "alice", "!settings");
    tb.say("alice", "!settings prefix:? variant:chess days:3 thread:on gif:on theme:contrast lang:de");
    assert_ne!(tb.say("alice", "?settings"), fresh);
    let out = tb.say(
        "alice",
        "?settings prefix:default variant:default days:default thread:default gif:default theme:default lang:default",
    );
    assert_eq!(
        out,
        "Settings saved: variant:default prefix:default days:default thread:default gif:default theme:default \
         lang:default. Commands here now start with !, e.g. !help."
    );
    assert_eq!(tb.say("alice", "!settings"), fresh);
    assert!(tb.say("alice", "!settings theme:auto").contains("theme:default"));
    let help = tb.say("alice", "!help settings");
    assert!(help.contains("[web:on|off] (each also :default)"), "{help}");

    // In a community: the chat's own goes back to the community's, the community's rules to the
    // built-in ones.
    let said = |text: &str| community_say(&tb, "Admin", text).text();
    admin(&tb, "!settings community variant:atomic days:7 rated:always web:on");
    admin(&tb, "!settings variant:chess days:1");
    assert!(said("!settings").contains("variant Chess, days 1,"), "{}", said("!settings"));
    admin(&tb, "!settings variant:default days:default");
    assert!(said("!settings").contains("variant Atomic Chess, days 7,"), "{}", said("!settings"));
    let out = admin(&tb, "!settings community variant:default rated:default web:default").text();
    assert_eq!(
        out,
        "Community settings saved (variant:default rated:default web:default); chats that set nothing of their own follow them."
    );
    let shown = said("!settings");
    assert!(
        shown.contains("variant Capatomic Random Chess, days 7,")
            && shown.contains(", rated games: choice, web pages off"),
        "{shown}"
    );
}

/// `settings` names the chat's variant as every other message does, by its name in the chat's
/// language (before: its short id, `caparandom`, in every language); it is still set by that id,
/// or by its name in any language.
#[test]
fn settings_name_the_variant_in_the_chats_language() {
    let tb = new_bot();
    tb.say("alice", "!settings variant:caparandom");
    for (lang, shown) in [
        ("en", "variant Capablanca Random Chess, days"),
        ("tr", "varyant Capablanca Rastgele Satrancı, gün"),
        ("de", "Variante Capablanca-Zufallsschach, Tage"),
    ] {
        tb.say("alice", &format!("!settings lang:{lang}"));
        let out = tb.say("alice", "!settings");
        assert!(out.contains(shown), "{lang}: {out}");
        assert!(!out.contains("caparandom"), "{lang}: {out}");
    }
    tb.say("alice", "!settings lang:de variant:Schach");
    assert!(tb.say("alice", "!settings").contains("Variante Schach, Tage"));
    assert_eq!(tb.query_str("SELECT default_variant FROM chat_settings"), "chess");
}

/// A challenge whose setup no longer exists (its variant's setups changed meanwhile) is answered with
/// a sentence that says why the game cannot start and what to do (before: "no setup 99999").
#[test]
fn a_challenge_for_a_setup_that_is_gone_says_why_it_cannot_start() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparandom setup:5");
    tb.by_hand("UPDATE challenges SET setup = ?1", [99999]);
    let out = tb.say("bob", "!accept");
    assert_eq!(
        out,
        "Capablanca Random Chess has no setup 99999 (its setups are 0 to 21835), so this game cannot start; \
         challenge again with another setup:N, or without one."
    );
    assert_eq!(tb.query_i64("SELECT count(*) FROM games"), 0);
}

/// A refusal's examples write commands with the chat's prefix, in every language (before: `!move
/// e4` whatever the prefix), in a sentence that starts with a capital.
#[test]
fn a_refusal_writes_its_examples_with_the_chats_prefix() {
    let tb = new_bot();
    tb.say("alice", "!settings prefix:?");
    let cases = [
        ("?move", "?move e4 "),
        ("?move #3", "?move #12 Nf3"),
        ("?swap", "?swap K b ("),
        ("?help ladder join", "?help analyse"),
        ("?ladder create", "?ladder create chess days:3"),
        ("?ladder undo", "?ladder undo 5 "),
        ("?ladder season", "?ladder season close"),
        ("?tournament round", "?tournament round 2"),
    ];
    for lang in ["en", "tr", "de"] {
        tb.say("alice", &format!("?settings lang:{lang}"));
        for (typed, example) in cases {
            let out = tb.say("alice", typed);
            assert!(out.contains(example), "{lang} {typed}: {out}");
            assert!(!out.contains('!'), "{lang} {typed}: {out}");
            // A sentence, from its first letter, unless it starts with a command as typed (before:
            // "say which move, …").
            let word = typed[1..].split(' ').next().unwrap();
            let typed_first = out.starts_with(word) || out.starts_with('?');
            assert!(out.starts_with(char::is_uppercase) || typed_first, "{lang} {typed}: {out}");
        }
    }
}

#[test]
fn relocation_setup_with_the_ai_and_bad_swaps() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparelocation color:white");
    tb.say("bob", "!accept");
    let out = tb.say("bob", "!swap X y");
    assert!(out.contains("can't read the swap"), "{out}");
    // A bare move in setup is not played; its player is told why, once, as for an illegal one
    // (before: silence); chatter stays unanswered.
    let out = tb.say("bob", "e5");
    assert!(out.contains("Game #1 is still in its setup phase: choose a swap with !swap or !noswap."), "{out}");
    assert_eq!(tb.say("bob", "e6"), "", "once");
    assert_eq!(tb.say("alice", "hello"), "", "chatter");
    let out = tb.say("bob", "!move e5");
    assert!(out.contains("setup phase"), "{out}");
    let out = tb.say("bob", "!swap Q h");
    assert!(out.contains("Black chose"), "{out}");
    let out = tb.say("bob", "!noswap");
    assert!(out.contains("chooses the swap now"), "{out}");
    // Against the AI: it keeps Capablanca's array, so the game starts once the human chose.
    let out = tb.say_in("ai", "carol", "!play caparelocation color:white");
    assert!(out.contains("Black chose no swap"), "{out}");
    let out = tb.say_in("ai", "carol", "!swap K c");
    assert!(out.contains("The game begins"), "{out}");
}

/// A swap without a game's number goes to the only game in its setup phase, even beside a game in
/// play (before: "You have 2 games here …; e.g. !swap #1 K b", naming a game that takes no swap);
/// with several in setup, only those are named. A swap the rules forbid says the rules' reason
/// (before: "I can't read the swap 'K a'"); text that is no swap is still not read. None of it
/// changes anything.
#[test]
fn swaps_find_their_game_and_forbidden_ones_say_why() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept #1");
    tb.say("alice", "!challenge @bob caparelocation color:white");
    tb.say("bob", "!accept #2");
    let before = tb.fingerprint();
    for (typed, why) in [
        ("!swap K a", "The rooks never move in the swap"),
        ("!swap K j", "The rooks never move in the swap"),
        ("!swap K f", "Your king already stands on file f"),
        ("!swap Q e", "Your queen already stands on file e"),
        ("!swap Q d", "Swapping your queen with the bishop on d would put both bishops on squares of one colour"),
        ("!swap K g", "Swapping your king with the bishop on g would put both bishops on squares of one colour"),
        ("!swap KN", "You have two knights, on b and i"),
        ("!swap X c", "I can't read the swap 'X c'"),
    ] {
        let out = tb.say("bob", typed);
        assert!(out.contains(why) && !out.contains("games here"), "{typed}: {out}");
    }
    assert_eq!(tb.fingerprint(), before, "a refused swap changes nothing");
    // White's swap (not yet due) and the right one both find game #2.
    assert!(tb.say("alice", "!noswap").contains("Game #2: bob (black) chooses the swap now."));
    assert!(tb.say("bob", "!swap K b").contains("Game #2: Black chose K<->N (b)."));
    // Two games in setup beside one in play: the one where it is the person's choice is taken;
    // where both are, only those two are named, and the example is one of them.
    tb.say("alice", "!challenge @bob caparelocation color:white");
    tb.say("bob", "!accept #3");
    assert!(tb.say("bob", "!noswap").contains("Game #3: Black chose no swap."));
    let before = tb.fingerprint();
    let out = tb.say("alice", "!noswap");
    assert!(out.contains("You have 2 games here (#2 as white vs bob, #3 as white vs bob)"), "{out}");
    assert!(out.contains("!noswap #2") && !out.contains("#1"), "{out}");
    assert_eq!(tb.fingerprint(), before);
}

/// A pawn cannot become a king, in any variant: said so (before: "no pawn of yours can reach g8",
/// then hxg8=Q listed). A move that does not answer check says "you are in check" once (before:
/// "…does not answer it; you are in check").
#[test]
fn promotion_to_a_king_and_check_are_answered_plainly() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    for (who, m) in [("alice", "e4"), ("bob", "f5"), ("alice", "exf5"), ("bob", "g5"), ("alice", "fxg6")] {
        tb.say(who, m);
    }
    for (who, m) in [("bob", "a6"), ("alice", "gxh7"), ("bob", "a5")] {
        tb.say(who, m);
    }
    for typed in ["hxg8=K", "!move hxg8K", "!move h7g8k"] {
        let out = tb.say("alice", typed);
        assert!(out.contains("a pawn cannot promote to a king: choose =Q, =R, =B, =N"), "{typed}: {out}");
    }
    // In check from a knight, with no pawn move at all: the reason says "in check", once.
    tb.say_in("check", "carol", "!challenge @dave chess color:white");
    tb.say_in("check", "dave", "!accept");
    for (who, m) in [("carol", "e4"), ("dave", "Nc6"), ("carol", "Ke2"), ("dave", "Nd4+")] {
        tb.say_in("check", who, m);
    }
    // (d4 holds the knight: no pawn can go there, check or not.)
    for (typed, want) in [
        ("d3", "you are in check, and that pawn move does not answer it"),
        ("!move d4", "no pawn of yours can reach d4; you are in check"),
    ] {
        let out = tb.say_in("check", "carol", typed);
        assert!(out.contains(want), "{typed}: {out}");
        assert_eq!(out.matches("in check").count(), 1, "{typed}: {out}");
    }
}

/// `help` lists the commands the way the person gave theirs: `/help` (a platform interaction) in a
/// direct chat, where typed commands work too, lists the slash commands; `!help` there lists the
/// typed ones. (Before: `/help` in a DM listed the `!` forms.)
#[test]
fn help_answers_in_the_form_it_was_asked() {
    use capabot::bot::{Command, Input, Scope, UserRef, Via};
    let tb = new_bot();
    let dm = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
    let alice = UserRef::new("alice", "alice");
    let slash = tb.bot.handle(&Input::command(dm.clone(), alice.clone(), Command::Help(None)).via(Via::Interaction));
    let text: String = slash.replies.iter().map(|r| r.text.as_str()).collect();
    assert!(text.contains("/move") && !text.contains("!move"), "{text}");
    let typed = tb.bot.handle(&Input::text(dm, alice, "!help"));
    let text: String = typed.replies.iter().map(|r| r.text.as_str()).collect();
    assert!(text.contains("!move") && !text.contains("/move"), "{text}");
}

/// `help COMMAND` explains one command in full — its usage, example, other words, options and
/// subcommands — instead of listing them all; an unknown one says so and points at the list.
#[test]
fn help_with_a_command_explains_that_command_alone() {
    use capabot::bot::{Command, Input, Scope, UserRef, Via};
    let tb = new_bot();
    let out = tb.say_in("c", "alice", "!help analyse");
    assert!(out.contains("!analyse [#game] — ") && out.contains("e.g. !analyse #12"), "{out}");
    assert!(out.contains("Also: !analyze, !analysis") && out.contains("  game — "), "{out}");
    assert!(!out.contains("!challenge"), "one command, not the list: {out}");
    let out = tb.say_in("c", "alice", "!help !ladder");
    assert!(out.contains("Subcommands:") && out.contains("!ladder season close — "), "{out}");
    // A command written wrongly points at its own help.
    let out = tb.say_in("c", "alice", "!challenge @bob chess days:4");
    assert!(out.contains("not '4'. Say !help challenge for how to write it."), "{out}");
    let out = tb.say_in("c", "alice", "!help nosuch");
    assert!(out.contains("I don't know the command 'nosuch'. Say !help for the list."), "{out}");
    // As a slash command: the slash forms, no typed usage.
    let dm = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
    let alice = UserRef::new("alice", "alice");
    let slash = tb.bot.handle(&Input::command(dm, alice, Command::Help(Some("ladder".into()))).via(Via::Interaction));
    let text: String = slash.replies.iter().map(|r| r.text.as_str()).collect();
    assert!(text.contains("/ladder — ") && text.contains("/ladder season-close — "), "{text}");
    assert!(!text.contains("!ladder"), "{text}");
}

/// A mistyped command or variant is answered with the word most likely meant ("Did you mean
/// !challenge?"), in the chat's language; a word no command or variant is close to, or one close to
/// two, gets the plain answer; nothing is written either way. (Before: every slip got only "I don't
/// know …" and the whole list.)
#[test]
fn a_slip_of_the_keyboard_is_answered_with_the_word_meant() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let before = tb.fingerprint();
    let out = tb.say("alice", "!chalenge @bob chess");
    assert!(out.contains("I don't know the command 'chalenge'. Did you mean !challenge?"), "{out}");
    assert!(tb.say("alice", "!hlep").contains("Did you mean !help?"));
    assert!(tb.say("alice", "!leaderbord chess").contains("Did you mean !leaderboard?"));
    assert!(tb.say("alice", "!help tournement").contains("Did you mean !tournament?"));
    let out = tb.say("alice", "!challenge @bob capablanka");
    assert!(out.contains("I don't know the variant 'capablanka'. Did you mean capablanca? Variants: "), "{out}");
    assert!(tb.say("alice", "!rules atomik").contains("Did you mean atomic?"));
    // Several words are one name: a variant's full name, with or without "chess", or a name answered
    // with the variants (before: "rules takes one variant name, e.g. rules capatomic", without the
    // prefix).
    assert!(tb.say("alice", "!rules capablanca random chess").starts_with("Capablanca Random Chess: "));
    assert!(tb.say("alice", "!rules Capablanca Random").starts_with("Capablanca Random Chess: "));
    let out = tb.say("alice", "!rules capablanca shuffled");
    assert!(out.starts_with("I don't know the variant 'capablanca shuffled'.") && out.contains("caparandom"), "{out}");
    let out = tb.say("alice", "!challenge capatomc");
    assert!(out.contains("did you mean capatomic? To challenge someone, mention them: @capatomc"), "{out}");
    // (`feb`: one edit from both `fen` and `web`.)
    for far in ["!hello", "!e9", "!rules nosuchvariant", "!feb", "!challenge bob", "!challenge @bob bob"] {
        let out = tb.say("alice", far);
        assert!(!out.is_empty() && !out.to_lowercase().contains("did you mean"), "{far}: {out}");
    }
    // A person named without a mention where a person may be named (before: "I don't know the
    // variant 'bob'"); the leaderboard names nobody.
    for typed in ["!rating bob", "!history bob global"] {
        let out = tb.say("alice", typed);
        assert!(out.contains("To ask about someone, mention them: @bob.") && out.contains("Say !help"), "{out}");
    }
    assert!(tb.say("alice", "!rating chesss").contains("Did you mean chess?"));
    assert!(tb.say("alice", "!leaderboard bob").contains("I don't know the variant 'bob'"));
    // In a direct chat, the word without the prefix.
    let said = |who: &str, text: &str| -> String {
        let dm = Scope { direct: true, ..Scope::chat("test", format!("dm-{who}")) };
        let r = tb.bot.handle(&Input::text(dm, UserRef::new(who, who), text));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    let out = said("bob", "hlep");
    assert!(out.contains("I don't know 'hlep'. Did you mean help? Here every line is for me"), "{out}");
    assert_eq!(tb.fingerprint(), before, "a slip changes nothing");
    // In the person's language where they chose one.
    said("carol", "lang tr");
    let out = said("carol", "tournement");
    assert!(out.contains("'tournement' ne demek bilmiyorum. Şunu mu demek istedin: tournament?"), "{out}");
    let out = said("carol", "rules atomik");
    assert!(out.contains("'atomik' diye bir varyant bilmiyorum. Şunu mu demek istedin: atomic?"), "{out}");
    // A language by its name; an unknown one in a setting without a doubled full stop.
    assert!(said("dave", "lang turkish").contains("Türkçe"));
    let out = tb.say("alice", "!settings lang:fr");
    assert!(out.contains("not 'fr'. Say !help settings for how to write it."), "{out}");
}

/// A challenge made in someone's direct chat with capabot could never be read, let alone accepted,
/// by anyone else: it is refused with where to make it, and nothing is made; the AI may be played
/// there. (Before: the challenge was made and waited 48 hours for an answer nobody could give.)
#[test]
fn a_challenge_in_a_direct_chat_is_refused_and_the_ai_played() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let dm = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
    let say = |text: &str| tb.bot.handle(&Input::text(dm.clone(), UserRef::new("alice", "alice"), text));
    let before = tb.fingerprint();
    for typed in ["challenge chess", "!challenge chess", "challenge capatomic days:3"] {
        let out = say(typed).text();
        assert!(out.contains("nobody could accept a challenge made here"), "{typed}: {out}");
    }
    let r = tb.bot.handle(
        &Input::text(dm.clone(), UserRef::new("alice", "alice"), "challenge @bob chess")
            .with_mentions(vec![UserRef::new("bob", "bob")]),
    );
    assert!(r.text().contains("challenge people in a chat you share with them"), "{}", r.text());
    // A name the platform did not link is refused the same way (before: "I could not tell who you
    // mentioned; mention them so the chat links their name", which would not have helped).
    let out = say("challenge @zed chess").text();
    assert!(out.contains("nobody could accept a challenge made here"), "{out}");
    assert_eq!(tb.fingerprint(), before, "nothing made");
    // Its hints say so too (before: "Start one with !challenge @someone or !play"), written as the
    // command was: without the prefix, which a direct chat needs not.
    for typed in ["games", "board"] {
        let out = say(typed).text();
        assert!(out.contains("Start one here with play; people are challenged in a chat you share"), "{typed}: {out}");
    }
    let out = say("!games").text();
    assert!(out.contains("Start one here with !play; people are challenged in a chat you share"), "{out}");
    assert!(tb.say("alice", "!board").contains("Start one with !challenge @someone or !play"));
    assert!(say("play chess").text().contains("Game #1 starts"));
}

/// `move Nf3` in a direct chat by someone whose games are in shared chats is told where they are
/// played, as a bare `Nf3` there is (before: "You have no game in progress here. Start one here
/// with !play"), and changes nothing.
#[test]
fn a_move_command_in_a_direct_chat_says_where_the_games_are() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    for typed in ["move Nf3", "!move Nf3", "move zz9"] {
        let out = dm(&tb, "alice", typed).text();
        assert!(
            out.contains(
                "Your games (#1 as white vs bob) are played in the chats where they started: make your move there"
            ),
            "{typed}: {out}"
        );
    }
    assert_eq!(tb.fingerprint(), before, "nothing changed");
    // Without a game anywhere, the hint to start one.
    assert!(dm(&tb, "carol", "move Nf3").text().contains("Start one here with play"));
}

/// A direct chat is the person's own: after `lang tr` there, its answers (the help among them) are
/// in Turkish, though the chat itself has no language set. (Before: only errors followed the
/// person's language; `help` in a DM stayed English.) In a shared chat what is said to everyone
/// stays in the chat's language, while what alice asked to read (the help) is hers, in Turkish.
#[test]
fn a_direct_chat_answers_in_the_persons_language() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let dm = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
    let alice = UserRef::new("alice", "alice");
    let say = |text: &str| -> String {
        let r = tb.bot.handle(&Input::text(dm.clone(), alice.clone(), text));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    assert!(say("help").contains("Commands (here every line is for me"));
    say("lang tr");
    assert!(say("help").contains("Komutlar (burada yazdığın"), "in Turkish now");
    assert!(say("help play").contains("capabot'un yapay zekâsına karşı oyna"), "one command too");
    let r = tb.bot.handle(&Input::text(Scope::chat("test", "shared"), alice.clone(), "!help"));
    assert!(r.text().contains("Komutlar (önek"), "her own help: {}", r.text());
    assert!(r.replies.iter().all(|r| r.audience == capabot::bot::Audience::Author), "{r:?}");
    let out = tb.say_in("shared", "alice", "!challenge @bob chess");
    assert!(out.contains("alice challenges bob"), "the shared chat keeps its own language: {out}");
}

/// A line addressed to capabot by name or mention that the front end could not read as a command
/// (`capabot: challenge bob`: a known word written wrongly; `capabot: hello`) is answered with what
/// is wrong, as the same line with the prefix would be; the same words said to nobody stay unanswered.
/// (Before: both were taken for a possible bare move and met silence.)
#[test]
fn an_addressed_line_that_is_no_command_is_answered() {
    use capabot::bot::{Input, Scope, UserRef, Via};
    let tb = new_bot();
    let alice = UserRef::new("alice", "alice");
    let said = |text: &str, via: Via| -> String {
        let r = tb.bot.handle(&Input::text(Scope::chat("test", "main"), alice.clone(), text).via(via));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    let out = said("challenge bob", Via::Addressed);
    assert!(out.contains("I don't know a variant named 'bob'") && out.contains("!help challenge"), "{out}");
    assert_eq!(out, tb.say("alice", "!challenge bob"), "as the line with the prefix");
    let out = said("hello", Via::Addressed);
    assert!(out.contains("I don't know the command 'hello'. Say !help for the list."), "{out}");
    assert_eq!(said("hello", Via::Typed), "", "not addressed: chat among people");
    assert_eq!(said("challenge bob", Via::Typed), "");
    // What the front end did read still works the same way (a help page addressed by name).
    assert!(said("!help", Via::Addressed).contains("Commands (prefix"));
    // A move addressed to capabot is the move typed bare (before: "I don't know the command 'e4'").
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let out = said("e4", Via::Addressed);
    assert!(out.contains("Game #1: 1. e4 played by alice."), "{out}");
    let out = said("Nf4", Via::Addressed);
    assert!(out.contains("Nf4 is not legal") || out.contains("not your turn"), "{out}");
    assert_eq!(tb.query_i64("SELECT ply FROM games WHERE id = 1"), 1);
}

/// In a direct chat every line is for capabot: one that is neither a command nor a move is
/// answered with how to write commands there, once for each person (two programs that answer every
/// line of a direct chat must not answer each other for ever); commands work as before.
#[test]
fn a_direct_line_that_is_no_command_is_answered_once() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let dm = |who: &str, text: &str| -> String {
        let scope = Scope { direct: true, ..Scope::chat("test", format!("dm-{who}")) };
        let r = tb.bot.handle(&Input::text(scope, UserRef::new(who, who), text));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    let before = tb.fingerprint();
    let out = dm("alice", "hello there");
    assert!(out.contains("I don't know 'hello'. Here every line is for me, so commands need no !"), "{out}");
    assert_eq!(dm("alice", "hello"), "", "told once");
    assert_eq!(tb.fingerprint(), before, "nothing written");
    assert!(dm("bob", "hi").contains("I don't know 'hi'"), "each person once");
    assert!(dm("alice", "help").contains("Commands (here every line is for me"), "commands still answered");
    dm("alice", "lang tr");
    assert_eq!(dm("alice", "merhaba"), "", "still once, in any language");
    assert!(dm("carol", "lang tr").contains("Türkçe"));
    assert!(dm("carol", "merhaba").contains("'merhaba' ne demek bilmiyorum"), "in the person's language");
}

/// In a direct chat, every bare move of a game there that is not taken is answered (an illegal one,
/// one out of turn), not only the first: the chat is the person's own. (Before: the first was
/// answered, the second got "I don't know 'Ke2'. Here every line is for me…", the third nothing.)
/// In a shared chat the answer is once per person and position (for the player to move, once per
/// move tried there): the same line said again is not answered, another move tried is, and so is
/// the same line once the game has moved on. (Before: once per person and game, so a player refused
/// early in a correspondence game heard nothing for any later refused move.)
#[test]
fn every_refused_bare_move_in_a_direct_chat_is_answered() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let dm = |text: &str| -> String {
        let scope = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
        let r = tb.bot.handle(&Input::text(scope, UserRef::new("alice", "alice"), text));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    assert!(dm("play chess level:1 color:white").contains("Game #1 starts"));
    for bad in ["e5", "Ke2", "e5", "Qh5"] {
        let out = dm(bad);
        assert!(out.contains(&format!("Game #1: {bad} is not legal")), "{bad}: {out}");
    }
    assert!(dm("e4").contains("1. e4 played by alice"));
    // In a shared chat: once per move tried in a position.
    tb.say("bob", "!challenge @carol chess color:white");
    tb.say("carol", "!accept");
    assert!(tb.say("bob", "e5").contains("e5 is not legal"));
    assert_eq!(tb.say("bob", "e5"), "", "the same line again in the same position");
    assert!(tb.say("bob", "Ke2").contains("Ke2 is not legal"), "another move tried");
    assert_eq!(tb.say("bob", "Ke2"), "", "once each");
    // Out of turn: once per position.
    assert!(tb.say("carol", "e5").contains("not your turn"));
    assert_eq!(tb.say("carol", "d5"), "", "out of turn, once per position");
    assert!(tb.say("bob", "e4").contains("1. e4 played by bob"));
    assert!(tb.say("bob", "d5").contains("not your turn"), "a new position: told again");
    assert!(tb.say("carol", "e4").contains("e4 is not legal"), "the game moved on: told again");
    assert_eq!(tb.say("carol", "e4"), "", "and once there");
}

/// `rematch`: the players of a game over, and only they, ask for the same game again in its chat;
/// the opponent is challenged on the game's terms with the colours swapped, and the second player's
/// `rematch` accepts the first one's (before: no such command, `!rematch` was "I don't know the
/// command"). Against the AI the next game starts at once. Refusals change nothing.
#[test]
fn a_rematch_swaps_the_colours_and_meets_the_opponents_own() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparandom color:white days:3 setup:17");
    let out = tb.say("alice", "!accept");
    assert!(out.contains("Challenge #1 is your own; !decline #1 cancels it."), "{out}");
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    let out = tb.say("alice", "!rematch");
    assert!(out.contains("You have no game over in this chat to play again"), "{out}");
    let out = tb.say("alice", "!rematch #1");
    assert!(out.contains("Game #1 is still being played"), "{out}");
    assert_eq!(tb.fingerprint(), before, "refusals change nothing");
    tb.say("alice", "!resign");
    let colours = "SELECT white_id || '/' || black_id || '/' || variant || '/' || setup || '/' || days_per_move";
    let first = tb.query_str(&format!("{colours} FROM games WHERE id = 1"));

    // Only the players, only in the game's chat.
    let before = tb.fingerprint();
    assert!(tb.say("carol", "!rematch #1").contains("You did not play game #1"));
    assert!(tb.say_in("elsewhere", "bob", "!rematch #1").contains("Game #1 was not played in this chat"));
    assert!(tb.say("alice", "!rematch #7").contains("There is no game #7."));
    assert_eq!(tb.fingerprint(), before);

    let out = tb.say("bob", "!rematch");
    assert!(
        out.contains("Rematch of game #1. Challenge #2: bob challenges alice to Capablanca Random Chess")
            && out.contains("setup 17, bob plays white"),
        "{out}"
    );
    assert!(tb.say("bob", "!rematch #1").contains("Your challenge #2 to alice is already waiting"));
    let out = tb.say("alice", "!rematch");
    assert!(out.contains("Rematch of game #1. Game #2 starts: bob (white) vs alice (black)"), "{out}");
    let second = tb.query_str(&format!("{colours} FROM games WHERE id = 2"));
    let swap = |s: &str| {
        let f: Vec<&str> = s.split('/').collect();
        [f[1], f[0], f[2], f[3], f[4]].join("/")
    };
    assert_eq!(second, swap(&first), "the same terms, the colours swapped");
    assert_eq!(tb.query_str("SELECT status FROM challenges WHERE id = 2"), "accepted");
    // Asked again while the return game goes on: told where it is, and nothing is made (before: a
    // third challenge on the same terms; against the AI a third game at once).
    let before = tb.fingerprint();
    for who in ["alice", "bob"] {
        let out = tb.say(who, "!rematch #1");
        assert!(out.contains("Game #2, the return game of game #1, is under way: play it first (!board #2)"), "{out}");
    }
    assert_eq!(tb.fingerprint(), before);

    // Against the AI: at once, on the same level.
    let out = tb.say("carol", "!play chess level:2 color:white");
    assert!(out.contains("Game #3 starts"), "{out}");
    tb.say("carol", "!resign");
    let out = tb.say("carol", "!rematch");
    assert!(out.contains("Rematch of game #3. Game #4 starts: capabot, level 2 (white) vs carol (black)"), "{out}");
    assert!(tb.say("carol", "!rematch").contains("Game #4, the return game of game #3, is under way"));
    assert_eq!(
        tb.query_i64("SELECT count(*) FROM games WHERE black_id = (SELECT black_id FROM games WHERE id = 4)"),
        1
    );
    // Capablanca Relocation: the rematch chooses its setup by the swaps again (before: refused,
    // "leave out setup:N", as the last game's swaps had given it a setup number).
    tb.say("dave", "!challenge @erin caparelocation color:white");
    tb.say("erin", "!accept");
    tb.say("erin", "!noswap");
    assert!(tb.say("dave", "!noswap").contains("The game begins"));
    tb.say("dave", "!resign");
    let out = tb.say("erin", "!rematch");
    assert!(out.contains("Rematch of game #5. Challenge #") && out.contains("erin plays white"), "{out}");
    let out = tb.say("dave", "!rematch");
    assert!(out.contains("Game #6 starts: erin (white) vs dave (black)") && out.contains("Setup phase"), "{out}");
    // `draw accept` is `draw`.
    let out = tb.say("alice", "!draw accept");
    assert!(out.contains("alice offers a draw"), "{out}");
    assert!(tb.say("bob", "!draw yes").contains("draw by agreement"));
}

/// `leaderboard` without a variant, where the chat's default variant has no rated games: the one
/// variant that has is shown; with several, they are named. (Before: "No rated Capatomic Random
/// Chess games yet" in a chat that plays only chess.)
#[test]
fn the_leaderboard_without_a_variant_finds_the_variants_played() {
    let tb = new_bot();
    let empty = tb.say("alice", "!leaderboard");
    assert!(empty.contains("No rated Capatomic Random Chess games") && !empty.contains("Rated games here"), "{empty}");
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    for (who, san) in [("alice", "f3"), ("bob", "e5"), ("alice", "g4"), ("bob", "Qh4#")] {
        tb.say(who, san);
    }
    let out = tb.say("carol", "!leaderboard");
    assert!(out.contains("Chess leaderboard") && out.contains("bob 1742?"), "{out}");
    tb.say("alice", "!challenge @bob atomic color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    tb.say("bob", "e5");
    assert!(tb.say("alice", "!resign").contains("bob wins by resignation"));
    let out = tb.say("carol", "!leaderboard");
    assert!(out.contains("No rated Capatomic Random Chess games"), "{out}");
    assert!(out.contains("Rated games here are in ") && out.contains(": say !leaderboard "), "{out}");
    assert!(out.contains("chess") && out.contains("atomic"), "{out}");
}

/// A move typed in a direct chat while the person's games are in other chats: they are told where
/// it is played (before: "I don't know 'e4'. Here every line is for me…"); other lines as before.
#[test]
fn a_move_in_a_direct_chat_for_a_game_elsewhere_says_where() {
    use capabot::bot::{Input, Scope, UserRef};
    let tb = new_bot();
    let dm = |text: &str| -> String {
        let scope = Scope { direct: true, ..Scope::chat("test", "dm-alice") };
        let r = tb.bot.handle(&Input::text(scope, UserRef::new("alice", "alice"), text));
        r.replies.iter().map(|r| r.text.as_str()).collect()
    };
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    for typed in ["e4", "Nf3"] {
        let out = dm(typed);
        assert!(
            out.contains(&format!(
                "{typed} reads as a move, but your games (#1 as white vs bob) are played in the chats where"
            )),
            "{out}"
        );
    }
    // A game's command there without a number says where the games are (it only reaches her).
    for typed in ["board", "moves", "resign", "draw"] {
        let out = dm(typed);
        assert!(
            out.contains("Your games (#1 as white vs bob) are played in the chats where they started: ask there."),
            "{typed}: {out}"
        );
    }
    assert_eq!(tb.fingerprint(), before, "nothing played");
    assert!(dm("hello").contains("I don't know 'hello'"));
    // Someone with no game in progress is told how to start one, as before.
    let scope = Scope { direct: true, ..Scope::chat("test", "dm-carol") };
    let r = tb.bot.handle(&Input::text(scope, UserRef::new("carol", "carol"), "board"));
    assert!(r.text().contains("no game") || r.text().contains("No game"), "{}", r.text());
}

/// Someone watching a game in its chat may ask for its board and FEN by number, as everyone there
/// sees them after each move (before: "Game #1 is not yours"); elsewhere, and for moves, not.
#[test]
fn a_spectator_sees_a_games_board_by_its_number() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "e4");
    let before = tb.fingerprint();
    let out = tb.say("carol", "!board #1");
    assert!(out.contains("Game #1: alice (white) vs bob (black), Chess; bob (black) to move."), "{out}");
    let out = tb.say("carol", "!fen #1");
    assert!(out.contains("Game #1: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq"), "{out}");
    assert!(tb.say_in("elsewhere", "carol", "!board #1").contains("Game #1 is not in this chat"));
    assert!(tb.say("carol", "!resign #1").contains("Game #1 is not yours"));
    assert!(tb.say("carol", "!board").contains("no games"));
    assert_eq!(tb.fingerprint(), before, "watching changes nothing");
}

/// The squares a front end offers for `moves`'s square: the side to move's pieces that can move,
/// with their moves, in the game here (by number for anyone, else the author's one game).
#[test]
fn the_squares_that_can_move_are_suggested_with_their_moves() {
    use capabot::bot::Scope;
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let here = Scope::chat("test", "main");
    let g = tb.bot.suggest_squares(&here, "alice", None, "G");
    assert_eq!(g, [("g1: Nf3, Nh3".to_string(), "g1".to_string()), ("g2: g3, g4".to_string(), "g2".to_string())]);
    let all = tb.bot.suggest_squares(&here, "bob", None, "");
    assert_eq!(all.len(), 10, "{all:?}");
    assert!(all.iter().all(|(_, sq)| sq.ends_with('1') || sq.ends_with('2')), "White's pieces only: {all:?}");
    assert_eq!(
        tb.bot.suggest_squares(&here, "carol", Some(1), "b"),
        [("b1: Na3, Nc3".to_string(), "b1".to_string()), ("b2: b3, b4".to_string(), "b2".to_string())]
    );
    assert!(tb.bot.suggest_squares(&here, "carol", None, "").is_empty(), "no game of hers here");
    assert!(tb.bot.suggest_squares(&Scope::chat("test", "elsewhere"), "alice", Some(1), "").is_empty());
    tb.say("alice", "e4");
    let black = tb.bot.suggest_squares(&here, "alice", None, "");
    assert!(black.iter().all(|(_, sq)| sq.ends_with('7') || sq.ends_with('8')), "{black:?}");
}

/// The games a front end offers for a command's `game` option: the author's in this chat that the
/// command can act on, those waiting for their move first, then (for commands about games over)
/// the games over, newest first; named with number, variant, opponent and where each stands, and
/// valued as the number; what is typed keeps the numbers starting with it, or the names holding it.
#[test]
fn a_persons_games_here_are_suggested_for_a_game_option() {
    use capabot::bot::Scope;
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    tb.say("alice", "f3");
    tb.say("bob", "e5");
    tb.say("alice", "g4");
    tb.say("bob", "Qh4#");
    tb.say("carol", "!challenge @alice capablanca color:white");
    tb.say("alice", "!accept");
    tb.say("alice", "!challenge @dave chess color:white");
    tb.say("dave", "!accept");
    tb.say_in("elsewhere", "alice", "!challenge @erin chess color:black");
    tb.say_in("elsewhere", "erin", "!accept");
    let here = Scope::chat("test", "main");
    let names = |command: &str, typed: &str| -> Vec<String> {
        let offered = tb.bot.suggest_games(&here, "alice", command, typed);
        assert!(offered.iter().all(|(name, id)| name.starts_with(&format!("#{id} "))), "{offered:?}");
        offered.into_iter().map(|(name, _)| name).collect()
    };
    // Game #3 waits for alice (White), #2 for carol (White); #1 is over; #4 is elsewhere.
    let open = ["#3 Chess vs dave — your move", "#2 Capablanca Chess vs carol — their move"];
    assert_eq!(names("move", ""), open);
    assert_eq!(names("board", ""), [open[0], open[1], "#1 Chess vs bob — 0-1"]);
    assert_eq!(names("analyse", ""), ["#1 Chess vs bob — 0-1"]);
    assert_eq!(names("board", "#2"), [open[1]]);
    assert_eq!(names("board", "CAROL"), [open[1]]);
    assert_eq!(names("board", "9"), Vec::<String>::new());
    assert!(tb.bot.suggest_games(&here, "frank", "board", "").is_empty(), "nobody's games");
    let elsewhere = tb.bot.suggest_games(&Scope::chat("test", "elsewhere"), "alice", "move", "");
    assert_eq!(elsewhere, [("#4 Chess vs erin — their move".to_string(), "4".to_string())]);
    let turkish =
        capabot::i18n::with_lang(capabot::i18n::Lang::Tr, || tb.bot.suggest_games(&here, "alice", "move", ""));
    assert_eq!(turkish[0].0, "#3 Satranç, rakip dave — sıra sende");
}

/// The challenges a front end offers for `accept`'s and `decline`'s number: those made to the
/// person, then open ones (accept) or their own (decline, which withdraws them); nothing from
/// another chat, nothing expired.
#[test]
fn the_challenges_one_can_answer_are_suggested() {
    use capabot::bot::Scope;
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess");
    tb.say("carol", "!challenge capablanca");
    tb.say("bob", "!challenge @dave atomic");
    tb.say_in("elsewhere", "erin", "!challenge @bob chess");
    let here = Scope::chat("test", "main");
    let offered = |command: &str, typed: &str| tb.bot.suggest_challenges(&here, "bob", command, typed);
    let from_alice = ("#1 from alice — Chess".to_string(), "1".to_string());
    let open = ("#2 from carol (open to anyone) — Capablanca Chess".to_string(), "2".to_string());
    let own = ("#3 yours to dave — Atomic Chess".to_string(), "3".to_string());
    assert_eq!(offered("accept", ""), [from_alice.clone(), open.clone()]);
    assert_eq!(offered("decline", ""), [from_alice.clone(), own.clone()]);
    assert_eq!(offered("accept", "caro"), [open]);
    assert_eq!(offered("decline", "#3"), [own]);
    assert!(tb.bot.suggest_challenges(&here, "carol", "accept", "").is_empty(), "none made to her, hers her own");
    let carol_own = tb.bot.suggest_challenges(&here, "carol", "decline", "");
    assert_eq!(carol_own, [("#2 yours (open to anyone) — Capablanca Chess".to_string(), "2".to_string())]);
    // Three days later every challenge has expired (they wait 48 hours).
    tb.clock.advance(3 * 86_400);
    assert!(offered("accept", "").is_empty() && offered("decline", "").is_empty());
}

/// `moves` lists the legal moves of the side to move, by kind of piece, or one piece's; anyone in the
/// game's chat may ask (by number), and what cannot be listed says why, changing nothing.
#[test]
fn moves_lists_the_legal_moves_of_a_game_or_of_one_piece() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    assert!(tb.say("alice", "!moves").contains("You have no game in this chat"));
    tb.say("bob", "!accept");
    let before = tb.fingerprint();
    let out = tb.say("alice", "!moves");
    assert!(
        out.contains(
            "Game #1: alice (white) to move has 20 legal moves. pawn moves: a3, a4, b3, b4, c3, c4, d3, d4, e3, e4, \
             f3, f4, g3, g4, h3, h4; knight moves: Na3, Nc3, Nf3, Nh3."
        ),
        "{out}"
    );
    assert_eq!(tb.say("carol", "!moves #1"), out, "a spectator reads the same list");
    assert!(tb.say("alice", "!legal g1").contains("Game #1: the knight on g1 has 2 legal moves: Nf3, Nh3."));
    assert!(tb.say("alice", "!moves c1").contains("Game #1: the bishop on c1 has no legal move."));
    assert!(tb.say("bob", "!moves e7").contains("Game #1: the pawn on e7 is black's, and alice (white) is to move."));
    assert!(tb.say("alice", "!moves e5").contains("Game #1: there is no piece on e5."));
    assert!(tb.say("alice", "!moves z9").contains("'z9' is not a square of this board"));
    assert!(tb.say("alice", "!moves g1 h3").contains("moves takes a game number like #12 and at most one square"));
    assert!(tb.say_in("elsewhere", "carol", "!moves #1").contains("Game #1 is not in this chat"));
    assert_eq!(tb.fingerprint(), before, "listing changes nothing");
    for (who, m) in [("alice", "e4"), ("bob", "f6"), ("alice", "Qh5+")] {
        tb.say(who, m);
    }
    let out = tb.say("bob", "!moves");
    assert!(
        out.contains("Game #1: bob (black) to move has one legal move. pawn moves: g6. bob (black) is in check."),
        "{out}"
    );
    tb.say("bob", "!resign");
    assert!(tb.say("alice", "!moves #1").contains("Game #1 is over: it has no moves left to list."));
}

/// A paused game's notices write its move command as the other chats where it goes on do: with
/// its community's prefix, not the prefix its own chat has for itself (before: `%move #1 …`, which
/// no other chat reads), and with the built-in one where the game has no community or the bot left
/// it (first: `move #1 …` with none).
#[test]
fn a_paused_games_notices_write_the_prefix_of_the_chats_where_it_goes_on() {
    let tb = new_bot();
    community_admin(&tb, "!settings community prefix:?");
    community_admin(&tb, "?settings prefix:%");
    community_say(&tb, "alice", "%challenge @bob chess color:white");
    assert!(community_say(&tb, "bob", "%accept").text().contains("Game #1 starts"));
    let told = tb.bot.chat_gone("test", "main").text();
    assert!(told.contains("Game #1 is paused") && told.contains("with `?move #1 …` in another chat"), "{told}");
    let out = dm(&tb, "bob", "move #1 e5").text();
    assert!(out.contains("Game #1 is paused") && out.contains("`?move #1 …` in a chat of a server"), "{out}");
    // A game in no community: other chats write the built-in prefix, whatever this one's own.
    tb.say_in("side", "carol", "!settings prefix:$");
    tb.say_in("side", "carol", "$challenge @dave chess color:white");
    assert!(tb.say_in("side", "dave", "$accept").contains("Game #2 starts"));
    let told = tb.bot.chat_gone("test", "side").text();
    assert!(told.contains("Game #2 is paused") && told.contains("with `!move #2 …` in another chat"), "{told}");
    // The bot left the community: other chats are another community's, whose prefix is not this one's.
    let hall = |who: &str, text: &str| {
        let mut i = msg_in("hall", who, text);
        i.scope.community = Some("g".into());
        tb.bot.handle(&i).text()
    };
    hall("erin", "?challenge @frank chess color:white");
    assert!(hall("frank", "?accept").contains("Game #3 starts"));
    let told = tb.bot.community_gone("test", "g").text();
    assert!(told.contains("Game #3 is paused") && told.contains("with `!move #3 …` in another chat"), "{told}");
}

/// A game whose chat is gone is paused, and goes on only where the opponent can follow: a move in
/// another shared chat takes it there, still paused, and its clock starts again only once the
/// opponent has moved there too; a move in a direct chat is refused with the reason and moves
/// nothing; reading it from elsewhere moves nothing either. (Before: `board #1` in Alice's direct
/// chat took the game there, where Bob could not answer, and he lost on time; a move in another
/// server did the same, and rated the game there.)
#[test]
fn a_paused_game_goes_on_only_where_the_opponent_can_follow() {
    let tb = new_bot();
    let in_community = |chat: &str, community: &str, who: &str, text: &str| {
        let mut i = msg_in(chat, who, text);
        i.scope.community = Some(community.into());
        tb.bot.handle(&i).text()
    };
    in_community("main", "g", "alice", "!challenge @bob chess color:white days:1");
    assert!(in_community("main", "g", "bob", "!accept").contains("Game #1 starts"));
    in_community("main", "g", "alice", "e4");
    let told = tb.bot.community_gone("test", "g").text();
    assert!(told.contains("Game #1 is paused") && told.contains("not in a direct message"), "{told}");
    let place = || tb.query_str("SELECT chat_id || ' ' || paused || ' ' || community_id FROM games WHERE id = 1");
    let clock = || tb.query_i64("SELECT count(*) FROM games WHERE id = 1 AND deadline IS NOT NULL");
    assert_eq!(place(), "main 1 g");
    // Reading it, or moving in a direct chat: read or refused, nothing moves.
    let out = dm(&tb, "bob", "board #1").text();
    assert!(out.contains("not in this chat"), "{out}");
    let out = dm(&tb, "bob", "move #1 e5").text();
    assert!(out.contains("Game #1 is paused") && out.contains("not in a direct message"), "{out}");
    // Nor a private group (a chat of no community): the community's pages would show it too.
    let out = tb.bot.handle(&msg_in("group", "bob", "!move #1 e5")).text();
    assert!(out.contains("not in a direct message or a private group"), "{out}");
    assert_eq!((place(), tb.query_i64("SELECT ply FROM games WHERE id = 1")), ("main 1 g".into(), 1));
    // Bob's move in a chat of another server takes the game there, still paused and without a
    // clock (Alice may not read that server), and still in its community.
    let out = in_community("lounge", "elsewhere", "bob", "!move #1 e5");
    assert!(out.contains("1... e5 played by bob") && out.contains("once alice has moved here too"), "{out}");
    assert_eq!((place(), clock()), ("lounge 1 g".into(), 0));
    tb.clock.advance(30 * 86_400);
    tb.tick();
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 1"), "active", "no loss on time");
    // Alice cannot follow there: she takes it to a chat of hers, still paused.
    let out = in_community("hall", "g", "alice", "!move #1 Nf3");
    assert!(out.contains("2. Nf3 played by alice") && out.contains("once bob has moved here too"), "{out}");
    assert_eq!((place(), clock()), ("hall 1 g".into(), 0));
    // Bob follows her there: both have moved in one chat, and the clock runs again.
    let out = in_community("hall", "g", "bob", "Nc6");
    assert!(out.contains("2... Nc6 played by bob") && out.contains("1 day"), "{out}");
    assert_eq!((place(), clock()), ("hall 0 g".into(), 1));
}

/// Running out of time before both sides have moved ends a game as resigning then does: aborted,
/// without a result or a rating change, and said so. (Before: the first mover who never moved lost
/// 242 rating points on time, where resigning at that point changed nothing.) A tournament's game
/// is lost on time all the same (`tournament_flow`).
#[test]
fn running_out_of_time_before_both_sides_moved_aborts_the_game() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white days:1");
    tb.say("bob", "!accept");
    tb.say_in("other", "carol", "!challenge @dave chess color:white days:1");
    tb.say_in("other", "dave", "!accept");
    tb.say_in("other", "carol", "e4");
    tb.clock.advance(2 * 86_400);
    let text = tb.tick().text();
    assert!(text.contains("Game #1 aborted: alice ran out of time before both sides had moved"), "{text}");
    assert!(
        text.contains("Game #2 aborted: dave ran out of time before both sides had moved")
            && text.contains("no rating changes"),
        "{text}"
    );
    assert!(!text.contains("wins") && !text.contains("1-0") && !text.contains("0-1"), "{text}");
    assert_eq!(tb.query_i64("SELECT count(*) FROM games WHERE status = 'aborted' AND result IS NULL"), 2);
    assert_eq!(tb.query_i64("SELECT count(*) FROM ratings"), 0, "nobody rated");
    let out = tb.say("alice", "e4");
    assert!(!out.contains("played by"), "{out}");
}

/// Capatomic's refusals as players read them in a shared chat: unreadable texts shaped as only a
/// Capatomic move is (`Mj1^k4`, `O-O[e1 g1]`) answered once like other bare moves (before: no
/// answer at all), with examples for this board; chatter with `^` left alone; a missile's real
/// hindrance in castling; a pinned en passant said to leave the king in check (before: "no pawn
/// of yours can reach e4", as the stored FEN drops that en passant); promotion examples in the
/// notation typed.
#[test]
fn capatomic_refusals_say_why_in_the_players_words() {
    let set_fen = |tb: &TestBot, f: &str| {
        tb.by_hand("UPDATE games SET start_fen = ?1, fen = ?1 WHERE id = 1", [f]);
    };
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white");
    tb.say("bob", "!accept");
    set_fen(&tb, "4m1m3/r4k3r/10/10/10/10/10/10/R4K3R/4M1M3 w AJaj - 0 1 e1,g1,e10,g10 -");
    let out = tb.say("alice", "O-O[e1]");
    assert!(
        out.contains("O-O[e1] is not legal: the missile on e1 cannot come along: a piece on g1 blocks its path")
            && out.contains("castling moves: O-O-O, O-O-O[e1], O-O-O[e1,g1], O-O, O-O[g1], O-O[e1,g1]")
            && !out.contains("(C"),
        "{out}"
    );
    for typed in ["Mj1^k4", "O-O[e1 g1]", "M j1^k4", "launch j1 k4"] {
        let out = tb.say("alice", typed);
        assert!(
            out.contains(&format!("'{typed}' is not a move I can read"))
                && out.contains("e9=Q, O-O[e1,g1], Me1^e5 or coordinates like e3e5")
                && !out.contains("e8=Q"),
            "{typed}: {out}"
        );
        assert_eq!(tb.say("alice", typed), "", "{typed}: told once");
    }
    for chatter in ["^^", "^^ nice one", "x^2", "hello"] {
        assert_eq!(tb.say("alice", chatter), "", "{chatter}");
    }
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white");
    tb.say("bob", "!accept");
    set_fen(&tb, "10/10/10/10/10/k2p5R/10/4P5/10/K9 w - - 0 1 - -");
    assert!(tb.say("alice", "e5").contains("played by alice"));
    for typed in ["dxe4", "!move dxe4", "d5e4"] {
        let out = tb.say("bob", typed);
        assert!(out.contains("that pawn move would leave your king in check"), "{typed}: {out}");
    }
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white");
    tb.say("bob", "!accept");
    set_fen(&tb, "k9/10/4P5/10/10/10/10/10/10/K9 w - - 0 1 - -");
    assert!(tb.say("alice", "e8e9").contains("say which piece to promote to, for example e8e9q"));
    assert!(tb.say("alice", "e9").contains("say which piece to promote to, for example e9=Q"));
    assert!(tb.say("alice", "e8e9q").contains("played by alice"));
}

/// A typed move is read once a line, however it came: bare, after the prefix as a word of its own,
/// or with `move` (before: `!e5`, `!e4` and a bare legal move were read twice, first from the
/// stored position, then again from the game's). A refusal answered as a user error is read once
/// in each of the unit's two runs: the first, without savepoints, is undone and run again with
/// them (docs/postgres.md, "Inputs run without savepoints first"), so that a refused move changes nothing.
#[test]
fn a_typed_move_is_read_once_a_line() {
    use capabot::notation::moves_read;
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess color:white");
    tb.say("bob", "!accept");
    let reads = |who: &str, text: &str| {
        let before = moves_read();
        let out = tb.say(who, text);
        (moves_read() - before, out)
    };
    for (typed, runs) in [("!e5", 2), ("e5", 1), ("!move e5", 2)] {
        let (n, out) = reads("alice", typed);
        assert!(out.contains("e5 is not legal"), "{typed}: {out}");
        assert_eq!(n, runs, "{typed}: reads");
    }
    let (n, out) = reads("alice", "!e4");
    assert!(out.contains("1. e4 played by alice"), "{out}");
    assert_eq!(n, 1, "!e4: reads");
    let (n, out) = reads("bob", "e5");
    assert!(out.contains("1... e5 played by bob"), "{out}");
    assert_eq!(n, 1, "e5: reads");
}

/// A Capatomic refusal is put in full (its pinned en passant found) only when it is said: one
/// told already costs no more than chatter (before: the whole game was replayed for it, and the
/// answer dropped), and is still said in full the first time in a new position.
#[test]
fn a_capatomic_refusal_left_unsaid_costs_what_chatter_does() {
    use capabot::store::sql::{reads_kept, statements_sent};
    let tb = new_bot();
    tb.say("alice", "!challenge @bob capatomic color:white");
    tb.say("bob", "!accept");
    let fen = "n9/10/10/10/10/k2p5R/10/4P5/10/K9 w - - 0 1 - -";
    tb.by_hand("UPDATE games SET start_fen = ?1, fen = ?1 WHERE id = 1", [fen]);
    for (who, m) in [("alice", "Kb1"), ("bob", "Nb8"), ("alice", "Ka1"), ("bob", "Na10"), ("alice", "e5")] {
        assert!(tb.say(who, m).contains("played by"), "{m}");
    }
    // Statements sent and reads answered from what the unit had read: what the store was asked.
    let asked = || statements_sent() + reads_kept();
    let cost = |text: &str| {
        let before = asked();
        let out = tb.say("bob", text);
        (asked() - before, out)
    };
    let (chatter, out) = cost("hello");
    assert_eq!(out, "");
    let (_, out) = cost("dxe4");
    assert!(out.contains("that pawn move would leave your king in check"), "{out}");
    let (unsaid, out) = cost("dxe4");
    assert_eq!(out, "", "told once");
    assert_eq!(unsaid, chatter, "the store's work for a refusal left unsaid, for chatter");
}

/// `!rules capatomic` says whose attack stops a launch (the missile's, not the target's) and how
/// to write castling with missiles; the help's move line shows it beside the launch.
#[test]
fn capatomic_rules_show_how_missiles_are_written() {
    let tb = new_bot();
    let out = tb.say("alice", "!rules capatomic");
    assert!(
        out.contains("as long as no enemy piece attacks the missile itself")
            && out.contains("written Me1^e5")
            && out.contains("O-O[e1,g1] brings both, O-O[g1] one"),
        "{out}"
    );
    let out = tb.say("alice", "!help");
    assert!(out.contains("Me1^e5 (a Capatomic launch), O-O[e1,g1] (castling with missiles)"), "{out}");
}

/// `games` shows the time left where the choice is the player's and the game has a clock (before:
/// only `board` did); a game without a clock shows none, nor does the line of the one waiting.
#[test]
fn games_shows_the_time_left_on_your_turn() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob chess days:1 color:white");
    tb.say("bob", "!accept");
    tb.clock.advance(3600 + 120);
    let mine = tb.say("alice", "!games");
    assert!(mine.contains("#1 Chess vs bob, move 1, your turn, 22h 58m left"), "{mine}");
    assert!(!tb.say("bob", "!games").contains(" left"), "not bob's turn");
    tb.say("alice", "!challenge @carol chess color:white");
    tb.say("carol", "!accept");
    let text = tb.say("carol", "!games");
    assert!(text.contains("#2 Chess vs alice") && !text.contains(" left"), "no clock: {text}");
}

/// A Capablanca Relocation game's setup phase runs on the game's clock (before: no deadline, so a
/// player who never chose held the game for ever). The start says how long Black has, and `!games`
/// shows Black that time; Black is reminded by direct message when 20 % of it is left; when it runs
/// out, no swap counts for Black and White's choice gets a day of its own; White's running out
/// starts the game from Capablanca's array, on the move clock.
#[test]
fn a_relocation_setup_left_unanswered_runs_out_as_no_swap() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparelocation color:white days:1");
    let out = tb.say("bob", "!accept");
    assert!(out.contains("(black) chooses first") && out.contains("Time to choose: 24h 0m; without a"), "{out}");
    assert!(tb.say("bob", "!games").contains("setup phase, 24h 0m left"));
    assert!(!tb.say("alice", "!games").contains("0m left"), "not alice's choice yet");
    // The reminder at 80 % of the day, to Bob directly, once.
    tb.clock.advance(19 * 3600 + 11 * 60);
    assert!(tb.tick().replies.is_empty());
    tb.clock.advance(60);
    let r = tb.tick();
    assert_eq!(r.replies.len(), 1, "{}", r.text());
    assert!(matches!(&r.replies[0].target, capabot::bot::Target::Direct { user, .. } if user.id == "bob"));
    let text = r.text();
    assert!(
        text.contains("reminder: bob (black) to choose the setup: !swap K b") && text.contains("4h 48m left"),
        "{text}"
    );
    assert!(tb.tick().replies.is_empty(), "the reminder is sent once");
    // Black's time runs out: no swap for Black, and White's day starts.
    tb.clock.advance(4 * 3600 + 48 * 60);
    let text = tb.tick().text();
    assert!(text.contains("Game #1: bob (black) did not choose in time, so no swap counts for black."), "{text}");
    assert!(text.contains("Black chose no swap. alice (white): !swap K b") && text.contains("24h 0m"), "{text}");
    assert_eq!(tb.query_str("SELECT status || '/' || black_swap FROM games WHERE id = 1"), "setup/0");
    assert!(tb.say("alice", "!games").contains("setup phase, 24h 0m left"));
    // White's too, with its reminder due in the same tick: the game starts, and no reminder of the
    // setup comes once it has.
    tb.clock.advance(86_400);
    let text = tb.tick().text();
    assert!(text.contains("alice (white) did not choose in time") && text.contains("The game begins"), "{text}");
    assert!(!text.contains("reminder"), "{text}");
    assert_eq!(tb.query_str("SELECT status || '/' || setup FROM games WHERE id = 1"), "active/0");
    assert!(tb.say("alice", "e4").contains("played by alice"));
}

/// A swap made in time stops its side's clock: White then has a day of its own, and nothing of
/// Black's runs out later.
#[test]
fn a_relocation_swap_made_in_time_hands_the_clock_to_white() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparelocation color:white days:2");
    tb.say("bob", "!accept");
    tb.clock.advance(86_400);
    let out = tb.say("bob", "!swap K b");
    assert!(out.contains("Black chose K<->N (b).") && out.contains("Time to choose: 48h 0m"), "{out}");
    tb.clock.advance(86_400 + 60);
    assert!(tb.tick().replies.is_empty(), "Black chose: nothing of Black's is due");
    tb.clock.advance(86_400);
    let text = tb.tick().text();
    assert!(text.contains("alice (white) did not choose in time") && text.contains("The game begins"), "{text}");
    assert_eq!(tb.query_str("SELECT status FROM games WHERE id = 1"), "active");
}

/// Capablanca Relocation: once Black has chosen, White chooses against the board with Black's swap
/// made, as the announcement names it: `board` and `fen` show it (before: Capablanca's array until
/// White had chosen too). The game then starts from both swaps.
#[test]
fn relocation_board_shows_blacks_swap_while_white_chooses() {
    let tb = new_bot();
    tb.say("alice", "!challenge @bob caparelocation color:white");
    tb.say("bob", "!accept");
    let out = tb.say("alice", "!fen");
    assert!(out.contains("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w"), "{out}");
    assert!(tb.say("bob", "!swap Q b").contains("Black chose Q<->N (b)"));
    let out = tb.say("alice", "!fen");
    assert!(out.contains("rqabnkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w"), "{out}");
    for (who, typed) in [("alice", "!board"), ("bob", "!board #1")] {
        // The text board is drawn from the position the picture is (`board_reply`).
        let r = tb.raw(who, typed);
        let board = r.replies[0].text_board.clone().unwrap_or_default();
        assert!(board.contains("8 r q a b n k b c n r") && board.contains("1 R N A B Q K B C N R"), "{board}");
    }
    tb.say("alice", "!swap K i");
    let out = tb.say("alice", "!fen");
    assert!(out.contains("rqabnkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQNBCKR w"), "{out}");
}

/// In a direct chat commands need no prefix, and its answers write them so (before: "Against me,
/// !play works here too."); in a shared chat they keep it.
#[test]
fn a_direct_chats_hints_write_commands_without_the_prefix() {
    let tb = new_bot();
    let out = dm(&tb, "alice", "challenge @bob chess").text();
    assert!(out.contains("Against me, play works here too."), "{out}");
    let out = dm(&tb, "alice", "games").text();
    assert!(out.contains("Start one here with play;"), "{out}");
    assert!(tb.say("alice", "!games").contains("Start one with !challenge @someone or !play."));
}

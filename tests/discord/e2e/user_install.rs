//! capabot installed to people's own Discord accounts (issue 44 §3) and used in a group DM the bot
//! is not in: every answer goes through the interaction that asked (the bot has no access to the
//! channel, and the fake answers every channel route there with 403 Missing Access), a settled
//! offer's buttons are disabled through the press (UPDATE_MESSAGE), what the bot would say on its
//! own waits for the next command in the chat, and ladders and tournaments are refused in the
//! person's language.

use super::*;

/// A group DM between Alice and Bob, who both installed capabot to their accounts.
fn group_dm(fake: &FakeDiscord) -> u64 {
    fake.install_for_user(ALICE);
    fake.install_for_user(BOB);
    fake.group_dm(&[ALICE, BOB])
}

/// The bot with its commands registered globally (as a user install needs), and a group DM of
/// Alice and Bob.
async fn started_in_a_group_dm() -> (Env, Running, FakeDiscord, u64) {
    let mut env = Env::new(world()).await;
    env.commands_in = None;
    let bot = env.start().await;
    let fake = env.fake.clone();
    fake.wait_for_request(|r| r.method == "PUT" && r.path == "/api/v10/applications/1000/commands", WAIT).await;
    let gdm = group_dm(&fake);
    (env, bot, fake, gdm)
}

/// Runs `/move san` and returns the interaction with every answer it got by the time it settled.
async fn moved(fake: &FakeDiscord, channel: u64, user: u64, san: &str) -> (Interaction, Vec<Sent>) {
    let (mv, _) = command(fake, channel, user, "move", json!([{ "name": "move", "type": 3, "value": san }])).await;
    settle_quietly(fake, Duration::from_millis(300)).await;
    let answers: Vec<Sent> = fake.sent().into_iter().filter(|s| s.answers(mv.id)).collect();
    (mv, answers)
}

/// The one answer among `answers` that shows the move `san` on a board.
fn board_of<'a>(answers: &'a [Sent], san: &str) -> &'a Sent {
    let shows = |s: &&Sent| move_of(s) == Some(san) && s.files.len() == 1 && !s.is_ephemeral();
    answers.iter().find(shows).unwrap_or_else(|| panic!("no board with {san} in {answers:#?}"))
}

/// No request ever went to the group DM's own routes (posting, editing, reading, threads).
fn no_channel_call(fake: &FakeDiscord, channel: u64) {
    let calls = fake.channel_requests(channel);
    assert!(calls.is_empty(), "channel calls in the group DM: {calls:#?}");
}

/// A correspondence game in a group DM by slash commands and a button: the offer's Accept button
/// is disabled through Bob's press (callback type 7), the game starts in a follow-up of it, every
/// move is answered through its own interaction, Bob's reminder (his DMs cannot be opened) waits
/// and comes with his next command, the game ends by mate; then a game against the AI there.
/// (Before: the answers were posted in the channel, refused with 403 Missing Access, and the game
/// paused as if its chat were gone.)
#[tokio::test(flavor = "current_thread")]
async fn a_correspondence_game_in_a_group_dm_through_a_user_install() {
    scenario(async {
        let (env, bot, fake, gdm) = started_in_a_group_dm().await;

        // Alice challenges Bob: answered through her interaction, Bob pinged, an Accept for him.
        let options = json!([
            { "name": "opponent", "type": 6, "value": BOB.to_string() },
            { "name": "variant", "type": 3, "value": "chess" },
            { "name": "color", "type": 3, "value": "white" },
            { "name": "days", "type": 3, "value": "1" },
        ]);
        let (_, offer) = command(&fake, gdm, ALICE, "challenge", options).await;
        assert_eq!(offer.kind, SentKind::InteractionResponse { callback_type: 4 }, "{offer:?}");
        assert!(!offer.is_ephemeral() && pinged(&offer) == vec![BOB.to_string()], "{offer:?}");

        // Bob accepts by button: the offer's buttons are disabled through his press, and the
        // game's start follows it.
        let click = fake.click_button(gdm, BOB, message_of(&offer), &button(&offer, "accept"));
        let update = fake.wait_for(|s| s.interaction_id == Some(click.id), WAIT).await;
        assert_eq!(update.kind, SentKind::InteractionResponse { callback_type: 7 }, "{update:?}");
        let rows = update.payload["components"].as_array().cloned().unwrap_or_default();
        let buttons: Vec<Value> =
            rows.iter().flat_map(|r| r["components"].as_array().cloned().unwrap_or_default()).collect();
        assert!(!buttons.is_empty() && buttons.iter().all(|b| b["disabled"] == true), "{update:?}");
        let started = fake.wait_for(answers(click.id), WAIT).await;
        assert_eq!(started.kind, SentKind::FollowUp);
        assert!(started.content().is_some_and(|c| c.contains("Game #1 starts")), "{started:?}");
        assert_eq!(env.query(&bot, "SELECT interaction_only FROM games WHERE id = 1"), 1);

        // Each move through its own interaction, the board inside.
        let (_, a) = moved(&fake, gdm, ALICE, "e4").await;
        assert_eq!(board_of(&a, "e4").kind, SentKind::InteractionResponse { callback_type: 4 });
        let (_, b) = moved(&fake, gdm, BOB, "e5").await;
        board_of(&b, "e5");
        moved(&fake, gdm, ALICE, "Bc4").await;

        // Bob's DMs cannot be opened: his reminder, due a day later, waits for the group DM's next
        // command (no interaction is open there now) and comes with it, before its own answer.
        fake.set_dm_channel_refused(BOB, true);
        env.clock.advance(23 * 3600);
        bot.host.tick().await;
        settle_quietly(&fake, Duration::from_millis(300)).await;
        let reminded = |s: &Sent| s.content().is_some_and(|c| c.contains("reminder: bob"));
        assert!(!fake.sent().iter().any(reminded), "nothing said in the group DM without an interaction");
        assert_eq!(env.query_text(&bot, "SELECT status FROM games WHERE id = 1"), "active", "not paused");
        let (mv, b) = moved(&fake, gdm, BOB, "Nc6").await;
        let first = &b[0];
        assert!(reminded(first) && first.interaction_id == Some(mv.id), "the reminder first: {b:#?}");
        board_of(&b, "Nc6");

        // To the end: mate.
        moved(&fake, gdm, ALICE, "Qh5").await;
        moved(&fake, gdm, BOB, "Nf6").await;
        let (_, end) = moved(&fake, gdm, ALICE, "Qxf7#").await;
        board_of(&end, "Qxf7#");
        assert_eq!(env.query_text(&bot, "SELECT result FROM games WHERE id = 1"), "1-0");

        // Against the AI there: its moves come with the interactions that led to them.
        let options = json!([
            { "name": "variant", "type": 3, "value": "chess" },
            { "name": "color", "type": 3, "value": "white" },
            { "name": "level", "type": 4, "value": 1 },
        ]);
        let (_, ai_start) = command(&fake, gdm, ALICE, "play", options).await;
        assert!(ai_start.content().is_some_and(|c| c.contains("Game #2 starts")), "{ai_start:?}");
        let (mv, a) = moved(&fake, gdm, ALICE, "d4").await;
        board_of(&a, "d4");
        let replies = a.iter().filter(|s| field(s, "Move").is_some() && move_of(s) != Some("d4")).count();
        assert_eq!(replies, 1, "the AI's move follows Alice's: {a:#?}");
        assert!(a.iter().all(|s| s.interaction_id == Some(mv.id)));
        assert_eq!(env.query(&bot, "SELECT ply FROM games WHERE id = 2"), 2);

        no_channel_call(&fake, gdm);
        env.finish(bot, &[(403, "/users/@me/channels")]).await;
    })
    .await;
}

/// Ladders and tournaments cannot be held where the bot answers only interactions (their
/// standings and pairings are posted without one): refused privately, in the person's language,
/// with nothing stored and no channel call. (Before: a ladder needs a community, and the
/// tournament's refusal said so in words that did not say why nor what to do.)
#[tokio::test(flavor = "current_thread")]
async fn ladders_and_tournaments_are_refused_in_a_group_dm() {
    scenario(async {
        let (env, bot, fake, gdm) = started_in_a_group_dm().await;

        let join = json!([{ "name": "join", "type": 1, "options": [] }]);
        let (_, ladder) = command(&fake, gdm, ALICE, "ladder", join).await;
        assert!(ladder.is_ephemeral(), "{ladder:?}");
        let text = ladder.content().unwrap_or_default();
        assert!(text.contains("Ladders are not available here") && text.contains("server"), "{text}");

        fake.set_locale(BOB, "tr");
        let standings = json!([{ "name": "standings", "type": 1, "options": [] }]);
        let (_, tournament) = command(&fake, gdm, BOB, "tournament", standings).await;
        assert!(tournament.is_ephemeral(), "{tournament:?}");
        let text = tournament.content().unwrap_or_default();
        assert!(text.contains("Turnuvalar burada kullanılamaz"), "{text}");

        assert_eq!(env.query(&bot, "SELECT count(*) FROM ladder_standings"), 0);
        no_channel_call(&fake, gdm);
        env.finish(bot, &[]).await;
    })
    .await;
}

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
    // The board first (however busy the machine), then whatever else comes with it.
    let san = san.to_string();
    fake.wait_for(move |s| s.answers(mv.id) && move_of(s) == Some(&san), WAIT).await;
    settle_quietly(fake, Duration::from_millis(300)).await;
    let answers: Vec<Sent> = fake.sent().into_iter().filter(|s| s.answers(mv.id)).collect();
    (mv, answers)
}

/// The answers to `interaction` once there are `n` of them (waited for up to [`WAIT`], however
/// busy the machine), after no request for a while more (so that one too many shows).
async fn answers_once_there_are(fake: &FakeDiscord, interaction: u64, n: usize) -> Vec<Sent> {
    let deadline = tokio::time::Instant::now() + WAIT;
    while fake.sent().iter().filter(|s| s.answers(interaction)).count() < n && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    settle_quietly(fake, Duration::from_millis(300)).await;
    fake.sent().into_iter().filter(|s| s.answers(interaction)).collect()
}

/// The one answer among `answers` that shows the move `san` on a board.
fn board_of<'a>(answers: &'a [Sent], san: &str) -> &'a Sent {
    let shows = |s: &&Sent| move_of(s) == Some(san) && s.files.len() == 1 && !s.is_ephemeral();
    answers.iter().find(shows).unwrap_or_else(|| panic!("no board with {san} in {answers:#?}"))
}

/// `/challenge`'s options: Bob, to chess, the challenger White, a day a move.
fn chess_for_bob() -> Value {
    json!([
        { "name": "opponent", "type": 6, "value": BOB.to_string() },
        { "name": "variant", "type": 3, "value": "chess" },
        { "name": "color", "type": 3, "value": "white" },
        { "name": "days", "type": 3, "value": "1" },
    ])
}

/// No request ever went to the group DM's own routes (posting, editing, reading, threads).
fn no_channel_call(fake: &FakeDiscord, channel: u64) {
    let calls = fake.channel_requests(channel);
    assert!(calls.is_empty(), "channel calls in the group DM: {calls:#?}");
}

/// A settled offer's UPDATE_MESSAGE carries its disabled buttons only: no `attachments` list,
/// which Discord reads as the files to keep (an empty one removes the message's every file, a
/// board picture with them; the fake keeps files as Discord does, `rest::tests`). The offer keeps
/// its text and files. (Before: serenity's builder sent `attachments: []` with every update.)
#[tokio::test(flavor = "current_thread")]
async fn a_settled_offers_update_carries_only_its_buttons() {
    scenario(async {
        let (env, bot, fake, gdm) = started_in_a_group_dm().await;
        let (_, offer) = command(&fake, gdm, ALICE, "challenge", chess_for_bob()).await;
        let before = fake.message(message_of(&offer)).expect("the offer");
        let click = fake.click_button(gdm, BOB, message_of(&offer), &button(&offer, "accept"));
        let update = fake.wait_for(|s| s.interaction_id == Some(click.id), WAIT).await;
        assert_eq!(update.kind, SentKind::InteractionResponse { callback_type: 7 }, "{update:?}");
        let fields: Vec<&String> = update.payload.as_object().expect("an object").keys().collect();
        assert_eq!(fields, ["components"], "only the buttons: {update:?}");
        fake.wait_for(|s| s.answers(click.id) && s.kind == SentKind::FollowUp, WAIT).await;
        let after = fake.message(message_of(&offer)).expect("the offer");
        assert_eq!((&after["content"], &after["attachments"]), (&before["content"], &before["attachments"]));
        assert_ne!(after["components"], before["components"], "its buttons disabled");
        env.finish(bot, &[]).await;
    })
    .await;
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
        let (_, offer) = command(&fake, gdm, ALICE, "challenge", chess_for_bob()).await;
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
        // (Its search may outlast the quiet that `moved` waits for on a busy machine.)
        let ai_moved = move |s: &Sent| s.answers(mv.id) && field(s, "Move").is_some() && move_of(s) != Some("d4");
        fake.wait_for(ai_moved, WAIT).await;
        settle_quietly(&fake, Duration::from_millis(300)).await;
        let a: Vec<Sent> = fake.sent().into_iter().filter(|s| s.answers(mv.id)).collect();
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

/// Discord takes at most five follow-ups for an interaction of a user-installed app used where the
/// app is not installed (and answers the sixth with 400, code 40094). Seven reminders for Bob,
/// whose DMs cannot be opened, wait in the group DM (each refused DM moved there at once, not one
/// a drainer's round); Bob's next command brings six of them (its response and five follow-ups),
/// and the command after it the seventh, then both commands' answers, in order. Every reminder
/// arrives exactly once; no follow-up is refused; nothing is given up. Then what waits and nobody
/// comes to take is given up after 30 days, kept as expired. (Before: the sixth follow-up and
/// those after it were refused, and their replies given up as failed; a held reply waited for
/// ever.)
#[tokio::test(flavor = "current_thread")]
async fn what_waited_comes_five_follow_ups_at_a_time() {
    scenario(async {
        let (env, bot, fake, gdm) = started_in_a_group_dm().await;
        const GAMES: usize = 7;
        for game in 1..=GAMES {
            let (_, offer) = command(&fake, gdm, ALICE, "challenge", chess_for_bob()).await;
            let click = fake.click_button(gdm, BOB, message_of(&offer), &button(&offer, "accept"));
            let started = fake.wait_for(answers(click.id), WAIT).await;
            assert!(started.content().is_some_and(|c| c.contains(&format!("Game #{game} starts"))), "{started:?}");
            let options = json!([
                { "name": "move", "type": 3, "value": "e4" },
                { "name": "game", "type": 4, "value": game },
            ]);
            let (_, moved) = command(&fake, gdm, ALICE, "move", options).await;
            assert_eq!(move_of(&moved), Some("e4"), "{moved:?}");
        }
        settle_quietly(&fake, Duration::from_millis(300)).await;

        // A day later, Bob's reminders: his DMs cannot be opened, so each goes to the group DM.
        fake.set_dm_channel_refused(BOB, true);
        env.clock.advance(23 * 3600);
        bot.host.tick().await;
        settle_quietly(&fake, Duration::from_millis(300)).await;
        let waiting_dms = "SELECT count(*) FROM outbox WHERE chat_key = 'd:13' AND state = 'pending'";
        assert_eq!(env.query(&bot, waiting_dms), 0, "each DM refused, moved, and the next one tried at once");
        let reminder = |s: &Sent| s.content().is_some_and(|c| c.contains("reminder: bob"));
        assert!(!fake.sent().iter().any(reminder), "nothing said in the group DM without an interaction");

        // Bob's next command: its response and five follow-ups, the oldest reminders first.
        let (first, _) = command(&fake, gdm, BOB, "games", json!([])).await;
        let through_first = answers_once_there_are(&fake, first.id, 1 + fake_discord::USER_INSTALL_FOLLOW_UPS).await;
        let follow_ups = through_first.iter().filter(|s| s.kind == SentKind::FollowUp).count();
        assert_eq!(follow_ups, fake_discord::USER_INSTALL_FOLLOW_UPS, "{through_first:#?}");
        assert_eq!(through_first.len(), 1 + fake_discord::USER_INSTALL_FOLLOW_UPS, "{through_first:#?}");
        assert!(through_first.iter().all(reminder), "the oldest first: {through_first:#?}");

        // The command after it: the last reminder, then both answers to `/games`, in order.
        let (second, _) = command(&fake, gdm, BOB, "games", json!([])).await;
        let through_second = answers_once_there_are(&fake, second.id, 3).await;
        assert_eq!(through_second.len(), 3, "{through_second:#?}");
        assert!(reminder(&through_second[0]), "{through_second:#?}");
        let lists = |s: &Sent| s.content().is_some_and(|c| c.starts_with("Your games:"));
        assert!(lists(&through_second[1]) && lists(&through_second[2]), "{through_second:#?}");

        let mut games: Vec<String> = fake
            .sent()
            .iter()
            .filter(|s| reminder(s))
            .filter_map(|s| s.content().and_then(|c| c.split(':').next()).map(str::to_owned))
            .collect();
        games.sort();
        let expected: Vec<String> = (1..=GAMES).map(|g| format!("<@13> Game #{g}")).collect();
        assert_eq!(games, expected, "each reminder exactly once");
        assert_eq!(env.query(&bot, "SELECT count(*) FROM outbox WHERE state = 'failed' AND chat_key != 'd:13'"), 0);

        // What nobody comes to take expires after 30 days. A day after Bob's next move, his other
        // six games are lost on time: their endings wait in the group DM beyond what his move's
        // interaction carried, and no command comes there for a month.
        let options = json!([{ "name": "move", "type": 3, "value": "e5" }, { "name": "game", "type": 4, "value": 1 }]);
        command(&fake, gdm, BOB, "move", options).await;
        env.clock.advance(25 * 3600);
        bot.host.tick().await;
        settle_quietly(&fake, Duration::from_millis(300)).await;
        let waiting = format!("SELECT count(*) FROM outbox WHERE chat_key = 'c:{gdm}' AND state = 'pending'");
        let held = env.query(&bot, &waiting);
        assert!(held > 0, "endings wait for the next command");
        env.clock.advance(31 * 86_400);
        let expired = format!("SELECT count(*) FROM outbox WHERE chat_key = 'c:{gdm}' AND failure = 'expired'");
        let deadline = tokio::time::Instant::now() + WAIT;
        while env.query(&bot, &expired) < held && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(env.query(&bot, &expired), held, "given up after 30 days, kept as expired");
        assert_eq!(env.query(&bot, &waiting), 0);
        no_channel_call(&fake, gdm);
        env.finish(bot, &[(403, "/users/@me/channels")]).await;
    })
    .await;
}

/// A server that did not add capabot, where Alice and Bob installed it to their accounts: their
/// commands come as interactions of context 0 with only their own installations among the
/// authorizing owners, and the bot can reach nothing of the server's. The chat is
/// interaction-only there too: a challenge, its acceptance by button (the offer settled through
/// the press) and the moves all go through the interactions, and no call is made to the server's
/// channel. (Before the fake modelled it, such a server was untested; the bot's side was already
/// decided by the authorizing owners.)
#[tokio::test(flavor = "current_thread")]
async fn a_game_in_a_server_where_only_the_players_installed_the_app() {
    const OTHER_GUILD: u64 = 20;
    const HALL: u64 = 21;
    scenario(async {
        let world = world().guild(
            GuildSpec::new(OTHER_GUILD, "Another club")
                .text_channel(HALL, "hall")
                .member(ALICE, "alice")
                .member(BOB, "bob"),
        );
        let mut env = Env::new(world).await;
        env.commands_in = None;
        let bot = env.start().await;
        let fake = env.fake.clone();
        fake.wait_for_request(|r| r.method == "PUT" && r.path == "/api/v10/applications/1000/commands", WAIT).await;
        // The server never added the bot (here: removed it); its two members installed the app.
        fake.remove_bot_from_guild(OTHER_GUILD);
        fake.install_for_user(ALICE);
        fake.install_for_user(BOB);
        settle_quietly(&fake, Duration::from_millis(200)).await;

        let (_, offer) = command(&fake, HALL, ALICE, "challenge", chess_for_bob()).await;
        assert_eq!(offer.kind, SentKind::InteractionResponse { callback_type: 4 }, "{offer:?}");
        let click = fake.click_button(HALL, BOB, message_of(&offer), &button(&offer, "accept"));
        let update = fake.wait_for(|s| s.interaction_id == Some(click.id), WAIT).await;
        assert_eq!(update.kind, SentKind::InteractionResponse { callback_type: 7 }, "settled through the press");
        let started = fake.wait_for(answers(click.id), WAIT).await;
        assert!(started.content().is_some_and(|c| c.contains("Game #1 starts")), "{started:?}");
        assert_eq!(env.query(&bot, "SELECT interaction_only FROM games WHERE id = 1"), 1);
        for (who, san) in [(ALICE, "f3"), (BOB, "e5"), (ALICE, "g4"), (BOB, "Qh4#")] {
            let (mv, answers) = moved(&fake, HALL, who, san).await;
            let board = board_of(&answers, san);
            assert_eq!(board.interaction_id, Some(mv.id), "through its own interaction");
        }
        assert_eq!(env.query_text(&bot, "SELECT result FROM games WHERE id = 1"), "0-1");
        no_channel_call(&fake, HALL);
        env.finish(bot, &[]).await;
    })
    .await;
}

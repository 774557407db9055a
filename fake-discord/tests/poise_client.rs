//! The real Discord client (serenity with poise) against the in-repo fake Discord: it connects,
//! registers its commands, answers a slash command, an autocomplete and a button, uploads a PNG,
//! meets closed DMs, resumes after a dropped gateway without losing or repeating an event, and
//! fails cleanly with a wrong token. serenity and poise only warn about payloads they cannot
//! read, so any WARN or ERROR from them fails the test.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use fake_discord::{FakeConfig, FakeDiscord, GuildSpec, Sent, SentKind};
use poise::serenity_prelude as serenity;
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt};
use tracing_subscriber::{EnvFilter, Layer};

const TOKEN: &str = "fake-bot-token";
const GUILD: u64 = 10;
const GENERAL: u64 = 11;
const ALICE: u64 = 12;
const BOT: u64 = 1000;
/// How long any single wait may take; generous for a loaded 2-core machine.
const WAIT: Duration = Duration::from_secs(30);
/// A whole scenario's bound, so that no test can hang.
const SCENARIO: Duration = Duration::from_secs(180);

/// What the test bot saw, shared with the test.
#[derive(Default)]
struct Probe {
    /// `!echo` deliveries, counting repeats.
    echo_deliveries: AtomicUsize,
    /// Message ids already answered: the bot's dedup.
    answered: Mutex<HashSet<u64>>,
}

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Arc<Probe>, Error>;

/// Suggests chess pieces starting with what was typed.
async fn suggest_piece(_ctx: Context<'_>, partial: &str) -> serenity::CreateAutocompleteResponse {
    let pieces = ["king", "knight", "queen", "rook"].into_iter().filter(|piece| piece.starts_with(partial));
    serenity::CreateAutocompleteResponse::new().set_choices(pieces.map(serenity::AutocompleteChoice::from).collect())
}

/// Answers with a pong and a button.
#[poise::command(slash_command)]
async fn ping(
    ctx: Context<'_>,
    #[description = "A piece to echo"]
    #[autocomplete = "suggest_piece"]
    piece: String,
) -> Result<(), Error> {
    let button = serenity::CreateButton::new("again").label("Again");
    let reply = poise::CreateReply::default()
        .content(format!("pong: {piece}"))
        .components(vec![serenity::CreateActionRow::Buttons(vec![button])]);
    ctx.send(reply).await?;
    Ok(())
}

/// Thinks first, then answers in two parts and opens a thread on the first.
#[poise::command(slash_command)]
async fn think(ctx: Context<'_>) -> Result<(), Error> {
    ctx.defer().await?;
    let first = ctx.say("first thought").await?.into_message().await?;
    let second = ctx.say("second thought").await?;
    second.edit(ctx, poise::CreateReply::default().content("second thought, edited")).await?;
    let thread = serenity::CreateThread::new("analysis");
    first.channel_id.create_thread_from_message(ctx, first.id, thread).await?;
    Ok(())
}

/// A tiny valid PNG: 4×2 grey pixels.
fn tiny_png() -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, 4, 2);
    encoder.set_color(png::ColorType::Grayscale);
    let mut writer = encoder.write_header().expect("png header");
    writer.write_image_data(&[128; 8]).expect("png data");
    writer.finish().expect("png end");
    bytes
}

async fn on_event(
    framework: poise::FrameworkContext<'_, Arc<Probe>, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    let ctx = framework.serenity_context;
    match event {
        serenity::FullEvent::InteractionCreate { interaction: serenity::Interaction::Component(press) }
            if press.data.custom_id == "again" =>
        {
            let message = serenity::CreateInteractionResponseMessage::new()
                .content(format!("clicked by {}", press.user.name))
                .components(Vec::new());
            press.create_response(ctx, serenity::CreateInteractionResponse::UpdateMessage(message)).await?;
        }
        serenity::FullEvent::Message { new_message } if !new_message.author.bot => {
            on_message(ctx, framework.user_data, new_message).await?;
        }
        _ => {}
    }
    Ok(())
}

async fn on_message(ctx: &serenity::Context, probe: &Probe, message: &serenity::Message) -> Result<(), Error> {
    let channel = message.channel_id;
    if let Some(text) = message.content.strip_prefix("!echo ") {
        probe.echo_deliveries.fetch_add(1, Ordering::SeqCst);
        let first_time = probe.answered.lock().expect("probe lock").insert(message.id.get());
        if first_time {
            channel.say(ctx, format!("echo: {text}")).await?;
        }
    } else if message.content == "!board" {
        let file = serenity::CreateAttachment::bytes(tiny_png(), "board.png");
        let mentions = serenity::CreateAllowedMentions::new();
        channel
            .send_message(
                ctx,
                serenity::CreateMessage::new().content("the board").add_file(file).allowed_mentions(mentions),
            )
            .await?;
    } else if message.content == "!dm" {
        let dm = message.author.direct_message(ctx, serenity::CreateMessage::new().content("hello in private")).await;
        if let Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) = &dm
            && response.error.code == 50007
        {
            channel.say(ctx, "your DMs are closed").await?;
            return Ok(());
        }
        dm?;
    }
    Ok(())
}

/// The test bot: a poise framework on serenity, REST through the fake.
async fn bot_client(fake: &FakeDiscord, token: &str, probe: Arc<Probe>) -> serenity::Client {
    // serenity sends REST to the proxy only when its own ratelimiter is off.
    let http = serenity::HttpBuilder::new(token).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), think()],
            event_handler: |framework, event| Box::pin(on_event(framework, event)),
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                poise::builtins::register_globally(ctx, commands).await?;
                poise::builtins::register_in_guild(ctx, commands, serenity::GuildId::new(GUILD)).await?;
                Ok(probe)
            })
        })
        .build();
    let intents = serenity::GatewayIntents::GUILDS
        | serenity::GatewayIntents::GUILD_MESSAGES
        | serenity::GatewayIntents::DIRECT_MESSAGES
        | serenity::GatewayIntents::MESSAGE_CONTENT;
    serenity::ClientBuilder::new_with_http(http, intents).framework(framework).await.expect("client builds")
}

fn world(token: &str) -> FakeConfig {
    FakeConfig::new(token)
        .heartbeat_interval_ms(fake_discord::TEST_HEARTBEAT_INTERVAL_MS)
        .guild(GuildSpec::new(GUILD, "Chess club").text_channel(GENERAL, "general").member(ALICE, "alice"))
}

/// Records WARN and ERROR events from serenity, poise and the fake.
#[derive(Clone, Default)]
struct WarningRecorder(Arc<Mutex<Vec<String>>>);

struct MessageText(String);

impl Visit for MessageText {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!("{}={value:?} ", field.name()));
    }
}

impl<S: tracing::Subscriber> Layer<S> for WarningRecorder {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: LayerContext<'_, S>) {
        let metadata = event.metadata();
        let watched = ["serenity", "poise", "fake_discord"].iter().any(|name| metadata.target().starts_with(name));
        if watched && *metadata.level() <= tracing::Level::WARN {
            let mut text = MessageText(format!("{} {}: ", metadata.level(), metadata.target()));
            event.record(&mut text);
            self.0.lock().expect("recorder lock").push(text.0);
        }
    }
}

impl WarningRecorder {
    /// Installs the recorder (and a log printer, `RUST_LOG` to see more) for this thread.
    fn install(&self) -> tracing::subscriber::DefaultGuard {
        let printer = tracing_subscriber::fmt::layer()
            .with_test_writer()
            .with_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")));
        let subscriber = tracing_subscriber::registry().with(self.clone()).with(printer);
        tracing::subscriber::set_default(subscriber)
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().expect("recorder lock"))
    }
}

fn is_response_to(sent: &Sent, interaction: u64, callback_type: u64) -> bool {
    sent.interaction_id == Some(interaction) && sent.kind == SentKind::InteractionResponse { callback_type }
}

fn channel_message<'a>(content: &'a str) -> impl Fn(&Sent) -> bool + 'a {
    move |sent| sent.kind == SentKind::Message && sent.content() == Some(content)
}

// One thread per test, so that the thread-local warning recorder sees every task.
#[tokio::test(flavor = "current_thread")]
async fn real_client_works_against_the_fake() {
    let warnings = WarningRecorder::default();
    let _guard = warnings.install();
    tokio::time::timeout(SCENARIO, scenario()).await.expect("scenario finished in time");
    let warnings = warnings.take();
    assert!(warnings.is_empty(), "serenity, poise or the fake warned: {warnings:#?}");
}

async fn scenario() {
    let fake = FakeDiscord::start(world(TOKEN)).await;
    let probe = Arc::new(Probe::default());
    let mut client = bot_client(&fake, TOKEN, Arc::clone(&probe)).await;
    let shards = Arc::clone(&client.shard_manager);
    let running = tokio::spawn(async move { client.start_autosharded().await });

    // Connects: plain JSON gateway, the intents asked for.
    fake.wait_ready(WAIT).await;
    assert_eq!(fake.gateway_queries(), ["v=10"]);
    let identify = &fake.identify_payloads()[0];
    let intents = identify["intents"].as_u64().expect("intents");
    assert_eq!(intents, (1 << 0) | (1 << 9) | (1 << 12) | (1 << 15));

    // Registers its commands, globally and in the guild, with description and option.
    let global = format!("/api/v10/applications/{BOT}/commands");
    let in_guild = format!("/api/v10/applications/{BOT}/guilds/{GUILD}/commands");
    for path in [global, in_guild] {
        let put = fake.wait_for_request(|request| request.method == "PUT" && request.path == path, WAIT).await;
        assert_eq!(put.status, 200, "{path}");
        let command = &put.body[0];
        assert_eq!(command["name"], "ping");
        assert_eq!(command["description"], "Answers with a pong and a button.");
        assert_eq!(command["options"][0]["name"], "piece");
        assert_eq!(command["options"][0]["type"], 3);
        assert_eq!(command["options"][0]["autocomplete"], true);
    }
    assert_eq!(fake.commands(Some(GUILD)).len(), 2);

    // A slash command gets a reply with a button; mentions are restricted.
    let options = json!([{ "name": "piece", "type": 3, "value": "rook" }]);
    let command = fake.slash_command(GENERAL, ALICE, "ping", options);
    let reply = fake.wait_for(|sent| is_response_to(sent, command.id, 4), WAIT).await;
    assert_eq!(reply.content(), Some("pong: rook"));
    assert_eq!(reply.custom_ids(), ["again"]);
    assert!(reply.allowed_mentions.is_some(), "poise sets allowed_mentions");

    // Autocomplete answers with the matching pieces.
    let options = json!([{ "name": "piece", "type": 3, "value": "k", "focused": true }]);
    let typing = fake.autocomplete(GENERAL, ALICE, "ping", options);
    let choices = fake.wait_for(|sent| is_response_to(sent, typing.id, 8), WAIT).await;
    assert_eq!(choices.choices(), [json!("king"), json!("knight")]);

    // The button updates the message it is on.
    let reply_message = reply.message_id.expect("the reply is a message");
    let click = fake.click_button(GENERAL, ALICE, reply_message, "again");
    let update = fake.wait_for(|sent| is_response_to(sent, click.id, 7), WAIT).await;
    assert_eq!(update.content(), Some("clicked by alice"));
    assert_eq!(update.message_id, Some(reply_message));

    // A deferred command: edits of the original response, a follow-up and its edit, a thread.
    let command = fake.slash_command(GENERAL, ALICE, "think", json!([]));
    fake.wait_for(|sent| is_response_to(sent, command.id, 5), WAIT).await;
    let first = fake.wait_for(|sent| sent.content() == Some("first thought"), WAIT).await;
    let follow_up = |sent: &Sent| sent.kind == SentKind::FollowUp && sent.content() == Some("second thought");
    fake.wait_for(follow_up, WAIT).await;
    let edited = |sent: &Sent| sent.kind == SentKind::Edit && sent.content() == Some("second thought, edited");
    fake.wait_for(edited, WAIT).await;
    let thread = fake.wait_for(|sent| sent.kind == SentKind::Thread, WAIT).await;
    assert_eq!(thread.message_id, first.message_id, "a thread from a message has its id");
    assert_eq!(thread.payload["name"], "analysis");

    // A PNG upload arrives whole.
    fake.send_message(GENERAL, ALICE, "!board");
    let board = fake.wait_for(channel_message("the board"), WAIT).await;
    assert_eq!(board.files.len(), 1);
    assert_eq!(board.files[0].filename, "board.png");
    assert_eq!(board.files[0].image, Ok((4, 2)));
    let mentions = board.allowed_mentions.expect("allowed_mentions sent");
    assert_eq!(mentions["parse"], json!([]), "no mass mentions: {mentions}");

    // Closed DMs give Discord's 50007, which the bot can tell apart.
    fake.set_dms_closed(ALICE, true);
    fake.send_message(GENERAL, ALICE, "!dm");
    fake.wait_for(channel_message("your DMs are closed"), WAIT).await;
    fake.set_dms_closed(ALICE, false);
    fake.send_message(GENERAL, ALICE, "!dm");
    let dm = fake.wait_for(channel_message("hello in private"), WAIT).await;
    assert_eq!(dm.channel_id, Some(fake.dm_channel(ALICE)));

    // A dropped gateway is resumed, and the message sent meanwhile arrives exactly once.
    fake.drop_gateway();
    fake.send_message(GENERAL, ALICE, "!echo while away");
    fake.reopen_gateway();
    fake.wait_for(channel_message("echo: while away"), WAIT).await;
    let ops = fake.gateway_ops();
    assert_eq!(ops.iter().filter(|op| **op == 2).count(), 1, "one IDENTIFY only: {ops:?}");
    assert_eq!(ops.iter().filter(|op| **op == 6).count(), 1, "one RESUME: {ops:?}");
    assert_eq!(probe.echo_deliveries.load(Ordering::SeqCst), 1);

    // A redelivered event reaches the bot again; its dedup answers once.
    let id = fake.send_message(GENERAL, ALICE, "!echo twice");
    fake.wait_for(channel_message("echo: twice"), WAIT).await;
    fake.redeliver_where(|event, data| event == "MESSAGE_CREATE" && data["id"].as_str() == Some(&*id.to_string()));
    let deadline = tokio::time::Instant::now() + WAIT;
    while probe.echo_deliveries.load(Ordering::SeqCst) < 3 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(probe.echo_deliveries.load(Ordering::SeqCst), 3, "the redelivery reached the bot");

    // Heartbeats are sent (1 s interval) and acknowledged: the session stays up.
    fake.wait_for_gateway_op(1, WAIT).await;

    let echoes = fake.sent().into_iter().filter(|sent| sent.content().is_some_and(|text| text.starts_with("echo:")));
    assert_eq!(echoes.count(), 2, "each echo sent once");
    fake.assert_no_problems();

    shards.shutdown_all().await;
    let ended = tokio::time::timeout(WAIT, running).await.expect("client stops in time");
    ended.expect("client task").expect("client ends without error");
}

#[tokio::test(flavor = "current_thread")]
async fn wrong_token_fails_cleanly() {
    let warnings = WarningRecorder::default();
    let _guard = warnings.install();
    let fake = FakeDiscord::start(world(TOKEN)).await;

    // REST: 401, reported as an HTTP error.
    let mut client = bot_client(&fake, "not-the-token", Arc::new(Probe::default())).await;
    let started = tokio::time::timeout(WAIT, client.start_autosharded()).await.expect("fails in time");
    let Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) = started else {
        panic!("expected an HTTP error, got {started:?}");
    };
    assert_eq!(response.status_code.as_u16(), 401);

    // Gateway: IDENTIFY with a bad token is closed with 4004.
    let mut client = bot_client(&fake, "not-the-token", Arc::new(Probe::default())).await;
    let started = tokio::time::timeout(WAIT, client.start()).await.expect("fails in time");
    assert!(
        matches!(started, Err(serenity::Error::Gateway(serenity::GatewayError::InvalidAuthentication))),
        "expected InvalidAuthentication, got {started:?}"
    );
    assert_eq!(fake.identify_payloads().len(), 0, "no session for a bad token");
    fake.assert_no_problems();
    // serenity and poise log the rejected token (poise: owners not fetched), and nothing else.
    let warnings = warnings.take();
    let about_token = |warning: &String| {
        let warning = warning.to_lowercase();
        ["invalid authentication", "invalidauthentication", "401"].iter().any(|about| warning.contains(about))
    };
    assert!(warnings.iter().all(about_token), "{warnings:#?}");
}

/// The paths and codes of a refused request's 50035 error tree, as serenity reads them.
fn form_errors(result: Result<serenity::Message, serenity::Error>) -> Vec<(String, String)> {
    let Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) = result else {
        panic!("expected Discord's 400, got {result:?}");
    };
    assert_eq!((response.status_code.as_u16(), response.error.code), (400, 50035), "{response:?}");
    assert_eq!(response.error.message, "Invalid Form Body");
    response.error.errors.iter().map(|e| (e.path.clone(), e.code.clone())).collect()
}

/// Over-long content and embeds beyond Discord's limits are refused as Discord does: 400, code
/// 50035 "Invalid Form Body" with the tree of what failed, which serenity reads into paths. (The
/// raw routes: serenity's builders would refuse the content before sending.)
#[tokio::test(flavor = "current_thread")]
async fn limits_are_refused_with_discords_error_tree() {
    let fake = FakeDiscord::start(world(TOKEN)).await;
    let http = serenity::HttpBuilder::new(TOKEN).proxy(fake.base_url()).ratelimiter_disabled(true).build();
    let channel = serenity::ChannelId::new(GENERAL);
    let send = |body: serde_json::Value| {
        let http = &http;
        async move { http.send_message(channel, vec![], &body).await }
    };
    let too_long = send(json!({ "content": "x".repeat(2001) })).await;
    assert_eq!(form_errors(too_long), [("content".into(), "BASE_TYPE_MAX_LENGTH".into())]);
    let fine = send(json!({ "content": "é".repeat(2000) })).await;
    assert!(fine.is_ok(), "2,000 characters are allowed, whatever their bytes: {fine:?}");

    let fields: Vec<serde_json::Value> = (0..26).map(|i| json!({ "name": format!("f{i}"), "value": "v" })).collect();
    let refused = send(json!({ "embeds": [{ "title": "t".repeat(257), "fields": fields }] })).await;
    let mut paths = form_errors(refused);
    paths.sort();
    let expected: [(String, String); 2] = [
        ("embeds.0.fields".into(), "BASE_TYPE_MAX_LENGTH".into()),
        ("embeds.0.title".into(), "BASE_TYPE_MAX_LENGTH".into()),
    ];
    assert_eq!(paths, expected);
    // Each part within its limit, but more than 6,000 characters in all.
    let big = json!({ "embeds": [{
        "description": "d".repeat(4000),
        "fields": [{ "name": "a", "value": "v".repeat(1024) }, { "name": "b", "value": "v".repeat(1024) }],
    }] });
    assert_eq!(form_errors(send(big).await), [("embeds".into(), "MAX_EMBED_SIZE_EXCEEDED".into())]);
    // An edit is held to the same limits.
    let message = send(json!({ "content": "short" })).await.expect("sent");
    let refused = http.edit_message(channel, message.id, &json!({ "content": "y".repeat(2001) }), vec![]).await;
    assert_eq!(form_errors(refused), [("content".into(), "BASE_TYPE_MAX_LENGTH".into())]);
}

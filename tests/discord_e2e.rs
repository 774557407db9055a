//! capabot's Discord front end end to end: the real serenity client and the real host against the
//! in-repo fake Discord, on a temporary database. Any WARN or ERROR from serenity or poise fails.

mod common;

use capabot::bot::{Bot, BotConfig, FirstLegalMove, ManualClock};
use capabot::discord::{self, DiscordOptions, Token};
use capabot::host::{Host, HostConfig};
use capabot::store::Store;
use fake_discord::{FakeConfig, FakeDiscord, GuildSpec, Sent, SentKind};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context as LayerContext, SubscriberExt};
use tracing_subscriber::{EnvFilter, Layer};

const TOKEN: &str = "fake-bot-token";
const GUILD: u64 = 10;
const GENERAL: u64 = 11;
const ALICE: u64 = 12;
const BOB: u64 = 13;
const CAROL: u64 = 14;
const WAIT: Duration = Duration::from_secs(30);
const SCENARIO: Duration = Duration::from_secs(180);

fn world() -> FakeConfig {
    FakeConfig::new(TOKEN).heartbeat_interval_ms(1_000).guild(
        GuildSpec::new(GUILD, "Chess club")
            .text_channel(GENERAL, "general")
            .member(ALICE, "alice")
            .member(BOB, "bob")
            .member(CAROL, "carol"),
    )
}

/// Records WARN and ERROR events from serenity, poise and the fake.
#[derive(Clone, Default)]
struct WarningRecorder(Arc<Mutex<Vec<String>>>);

struct MessageText(String);

impl Visit for MessageText {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0 += &format!("{}={value:?} ", field.name());
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
    fn install(&self) -> tracing::subscriber::DefaultGuard {
        let printer = tracing_subscriber::fmt::layer()
            .with_test_writer()
            .with_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")));
        tracing::subscriber::set_default(tracing_subscriber::registry().with(self.clone()).with(printer))
    }

    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().expect("recorder lock"))
    }
}

fn host_on(dir: &std::path::Path, pictures: bool) -> Arc<Host> {
    let bot = Bot::new(
        Store::open(dir.join("capabot.db")).expect("store"),
        Arc::new(ManualClock::new(common::T0)),
        Arc::new(FirstLegalMove),
        BotConfig { pictures, ..BotConfig::default() },
    );
    Host::new(Arc::new(bot), HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600) })
}

fn options(fake: &FakeDiscord) -> DiscordOptions {
    DiscordOptions { guild: Some(GUILD), proxy: Some(fake.base_url()), message_content: true, grace: WAIT }
}

/// What the bot said in answer to an interaction (response, edit of the deferred one, follow-up).
fn answers(interaction: u64) -> impl Fn(&Sent) -> bool {
    move |s| {
        s.interaction_id == Some(interaction)
            && matches!(
                s.kind,
                SentKind::InteractionResponse { callback_type: 4 } | SentKind::Edit | SentKind::FollowUp
            )
    }
}

fn ephemeral(s: &Sent) -> bool {
    s.payload["flags"].as_u64().is_some_and(|f| f & 64 != 0)
}

/// Every message pings exactly the users named in `allowed_mentions.users`, never roles or everyone.
fn check_mentions(s: &Sent) {
    let Some(m) = &s.allowed_mentions else { return };
    assert_eq!(m["parse"], json!([]), "no mass mentions: {m}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_game_by_slash_commands_and_buttons() {
    let warnings = WarningRecorder::default();
    let _guard = warnings.install();
    tokio::time::timeout(SCENARIO, game_scenario()).await.expect("scenario finished in time");
    let warnings = warnings.take();
    assert!(warnings.is_empty(), "serenity, poise or the fake warned: {warnings:#?}");
}

async fn game_scenario() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = FakeDiscord::start(world()).await;
    let host = host_on(dir.path(), true);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(discord::run(host.clone(), Token::new(TOKEN), options(&fake), async move {
        let _ = stop_rx.await;
    }));
    fake.wait_ready(WAIT).await;

    // Every command of the table is registered in the guild.
    let path = format!("/api/v10/applications/1000/guilds/{GUILD}/commands");
    fake.wait_for_request(|r| r.method == "PUT" && r.path == path, WAIT).await;
    let registered = fake.commands(Some(GUILD));
    assert_eq!(registered.len(), capabot::bot::command::COMMANDS.len());

    // Alice challenges Bob as White; the answer carries an Accept button for Bob only.
    let opts = json!([
        { "name": "opponent", "type": 6, "value": BOB.to_string() },
        { "name": "variant", "type": 3, "value": "chess" },
        { "name": "color", "type": 3, "value": "white" },
    ]);
    let challenge = fake.slash_command(GENERAL, ALICE, "challenge", opts);
    let offer = fake.wait_for(answers(challenge.id), WAIT).await;
    check_mentions(&offer);
    let buttons = offer.custom_ids();
    let accept = buttons.iter().find(|id| id.contains("accept")).expect("an accept button").clone();
    let mentions = offer.allowed_mentions.clone().expect("allowed_mentions");
    assert_eq!(mentions["users"], json!([BOB.to_string()]), "only Bob is pinged: {mentions}");
    let offer_message = match offer.message_id {
        Some(m) => m,
        None => {
            fake.wait_for(|s| s.kind == SentKind::Message || s.message_id.is_some(), WAIT).await.message_id.unwrap()
        }
    };

    // Carol's click is refused before the core; Bob's accepts.
    let wrong = fake.click_button(GENERAL, CAROL, offer_message, &accept);
    let refused = fake.wait_for(answers(wrong.id), WAIT).await;
    assert!(ephemeral(&refused) && refused.content() == Some("This is not your game."), "{refused:?}");
    let click = fake.click_button(GENERAL, BOB, offer_message, &accept);
    let started = fake.wait_for(answers(click.id), WAIT).await;
    check_mentions(&started);

    // Alice plays e4: a board embed with the 640 px picture inside it.
    let mv = fake.slash_command(GENERAL, ALICE, "move", json!([{ "name": "move", "type": 3, "value": "e4" }]));
    let played = fake.wait_for(answers(mv.id), WAIT).await;
    check_mentions(&played);
    assert_eq!(played.files.len(), 1, "{played:?}");
    let (w, _) = played.files[0].png.clone().expect("a PNG");
    assert_eq!(w, 640);
    let embed = &played.payload["embeds"][0];
    assert_eq!(embed["image"]["url"], "attachment://board.png", "{embed}");

    // Autocomplete answers Bob's legal moves.
    let typing =
        fake.autocomplete(GENERAL, BOB, "move", json!([{ "name": "move", "type": 3, "value": "e", "focused": true }]));
    let choices = fake
        .wait_for(
            |s| s.interaction_id == Some(typing.id) && s.kind == SentKind::InteractionResponse { callback_type: 8 },
            WAIT,
        )
        .await
        .choices();
    assert!(choices.contains(&json!("e5")), "{choices:?}");
    assert!(choices.len() <= 25);

    // An illegal move is answered to Bob alone.
    let bad = fake.slash_command(GENERAL, BOB, "move", json!([{ "name": "move", "type": 3, "value": "e4" }]));
    let refusal = fake.wait_for(answers(bad.id), WAIT).await;
    assert!(ephemeral(&refusal), "{refusal:?}");
    let m = refusal.allowed_mentions.clone().unwrap_or(Value::Null);
    assert!(m["users"].as_array().is_none_or(|u| u.is_empty()), "a private answer pings no one: {m}");

    // A bare typed move.
    fake.send_message(GENERAL, BOB, "e5");
    let reply = fake.wait_for(|s| s.kind == SentKind::Message && s.files.len() == 1, WAIT).await;
    check_mentions(&reply);

    fake.assert_no_problems();
    for s in fake.sent() {
        check_mentions(&s);
        for f in &s.files {
            if f.filename.ends_with(".png") {
                assert_eq!(f.png.clone().map(|(w, _)| w), Ok(640));
            }
        }
    }
    let _ = stop_tx.send(());
    let ended = tokio::time::timeout(WAIT, running).await.expect("stops in time").expect("task");
    assert!(ended.is_ok(), "{ended:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_rejected_token_is_one_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fake = FakeDiscord::start(world()).await;
    let host = host_on(dir.path(), false);
    let r = discord::run(host, Token::new("wrong"), options(&fake), std::future::pending()).await;
    let e = r.expect_err("a wrong token fails");
    assert!(e.contains("rejected the token") && !e.contains("wrong"), "{e}");
}

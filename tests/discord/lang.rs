//! Languages on Discord, end to end: the real serenity client and host against the in-repo fake
//! Discord. A server whose preferred language is Turkish, a Turkish-locale user and an
//! English-locale user in the same channel (and a German-locale one): the slash commands carry
//! Turkish and German names and descriptions, the channel's replies and buttons are Turkish, and
//! each person's private answers are in their own app's language.

use crate::common;

use capabot::bot::ManualClock;
use capabot::bot::{Bot, BotConfig, FirstLegalMove};
use capabot::discord::{self, DiscordOptions, Token};
use capabot::host::{Host, HostConfig};
use capabot::store::Store;
use fake_discord::{FakeConfig, FakeDiscord, GuildSpec, Sent, SentKind, TEST_HEARTBEAT_INTERVAL_MS};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;

const TOKEN: &str = "fake-bot-token";
const GUILD: u64 = 10;
const GENERAL: u64 = 11;
const ALICE: u64 = 12;
const BOB: u64 = 13;
const CAROL: u64 = 14;
const WAIT: Duration = Duration::from_secs(30);
const SCENARIO: Duration = Duration::from_secs(240);

fn world() -> FakeConfig {
    FakeConfig::new(TOKEN).heartbeat_interval_ms(TEST_HEARTBEAT_INTERVAL_MS).guild(
        GuildSpec::new(GUILD, "Satranç kulübü")
            .text_channel(GENERAL, "genel")
            .member(ALICE, "alice")
            .member(BOB, "bob")
            .member(CAROL, "carol"),
    )
}

/// What the bot said in answer to an interaction (response, edit of the deferred one, follow-up).
fn answers(interaction: u64) -> impl Fn(&Sent) -> bool {
    move |s| s.answers(interaction)
}

/// The labels of the buttons in a message.
fn labels(s: &Sent) -> Vec<String> {
    let rows = s.payload["components"].as_array().cloned().unwrap_or_default();
    let buttons = rows.iter().flat_map(|row| row["components"].as_array().cloned().unwrap_or_default());
    buttons.filter_map(|b| b["label"].as_str().map(str::to_owned)).collect()
}

/// Runs a slash command and waits for its first answer.
async fn command(fake: &FakeDiscord, user: u64, name: &str, options: Value) -> Sent {
    let interaction = fake.slash_command(GENERAL, user, name, options);
    fake.wait_for(answers(interaction.id), WAIT).await
}

fn text(s: &Sent) -> String {
    s.content().unwrap_or_default().to_string()
}

#[tokio::test(flavor = "current_thread")]
async fn a_turkish_user_and_an_english_user_in_a_turkish_server() {
    tokio::time::timeout(SCENARIO, async {
        let dir = tempfile::tempdir().expect("tempdir");
        let fake = FakeDiscord::start(world()).await;
        fake.set_guild_locale(GUILD, "tr");
        fake.set_locale(BOB, "tr");
        fake.set_locale(ALICE, "en-US");
        fake.set_locale(CAROL, "de");
        let bot = Bot::new(
            Store::open(dir.path().join("capabot.db")).expect("store"),
            Arc::new(ManualClock::new(common::T0)),
            Arc::new(FirstLegalMove),
            BotConfig { pictures: true, ..BotConfig::default() },
        );
        let host = Host::new(
            Arc::new(bot),
            HostConfig { ai_threads: 1, tick_every: Duration::from_secs(3600), ..HostConfig::default() },
        );
        let (stop, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let opts = DiscordOptions {
            guild: Some(GUILD),
            proxy: Some(fake.base_url()),
            message_content: true,
            shards: None,
            grace: WAIT,
            http_client: None,
        };
        let task = tokio::spawn(discord::run(host, Token::new(TOKEN), opts, async move {
            let _ = stop_rx.await;
        }));
        fake.wait_for_sessions(1, WAIT).await;

        // The slash commands carry Turkish names, descriptions and option names.
        let path = format!("/api/v10/applications/1000/guilds/{GUILD}/commands");
        fake.wait_for_request(|r| r.method == "PUT" && r.path == path, WAIT).await;
        let commands = fake.commands(Some(GUILD));
        let mv = commands.iter().find(|c| c["name"] == "move").expect("the move command");
        assert_eq!(mv["name_localizations"]["tr"], "hamle", "{mv}");
        assert!(mv["description_localizations"]["tr"].as_str().is_some_and(|d| d.starts_with("Hamle yap")), "{mv}");
        assert_eq!(mv["options"][0]["name_localizations"]["tr"], "hamle", "{mv}");
        assert!(mv["description"].as_str().is_some_and(|d| d.starts_with("Make a move")), "English stays the default");
        let challenge = commands.iter().find(|c| c["name"] == "challenge").expect("the challenge command");
        assert_eq!(challenge["name_localizations"]["tr"], "meydan-oku");
        // … and German ones (Discord's locale `de`).
        assert_eq!(mv["name_localizations"]["de"], "zug", "{mv}");
        assert!(
            mv["description_localizations"]["de"].as_str().is_some_and(|d| d.starts_with("Mach einen Zug")),
            "{mv}"
        );
        assert_eq!(challenge["name_localizations"]["de"], "herausfordern");

        // Bob (Turkish) challenges Alice: the channel reads Turkish, buttons included.
        let offer = command(
            &fake,
            BOB,
            "challenge",
            json!([
                { "name": "opponent", "type": 6, "value": ALICE.to_string() },
                { "name": "variant", "type": 3, "value": "chess" },
                { "name": "color", "type": 3, "value": "white" },
            ]),
        )
        .await;
        assert!(!offer.is_ephemeral(), "{offer:?}");
        assert!(
            text(&offer).contains("Meydan okuma #1: bob, alice adlı oyuncuya Satranç oynamak için meydan okuyor"),
            "{offer:?}"
        );
        let offered = labels(&offer);
        assert!(offered.contains(&"Kabul".to_string()) && offered.contains(&"Reddet".to_string()), "{offered:?}");

        // Alice (English) accepts by button; the game starts in the channel's language.
        let accept = offer.custom_ids().into_iter().find(|id| id.contains("accept")).expect("an Accept button");
        let click = fake.click_button(GENERAL, ALICE, offer.message_id.expect("offer id"), &accept);
        let started = fake.wait_for(answers(click.id), WAIT).await;
        assert!(text(&started).contains("Oyun #1 başlıyor: bob (beyaz) - alice (siyah)"), "{started:?}");

        // Alice moves out of turn: told privately, in English.
        let early = command(&fake, ALICE, "move", json!([{ "name": "move", "type": 3, "value": "e5" }])).await;
        assert!(early.is_ephemeral(), "{early:?}");
        assert_eq!(text(&early), "It is not your turn in game #1: bob (white) is to move.");

        // Bob moves: the board embed and the text are Turkish.
        let moved = command(&fake, BOB, "move", json!([{ "name": "move", "type": 3, "value": "e4" }])).await;
        assert!(!moved.is_ephemeral(), "{moved:?}");
        assert!(text(&moved).contains("Oyun #1: 1. e4, oynayan bob. Sıra alice (siyah) oyuncusunda."), "{moved:?}");
        let fields = moved.payload["embeds"][0]["fields"].as_array().cloned().unwrap_or_default();
        assert!(fields.iter().any(|f| f["name"] == "Hamle" && f["value"] == "1. e4"), "{fields:?}");

        // Bob moves again out of turn: told privately, in Turkish.
        let again = command(&fake, BOB, "move", json!([{ "name": "move", "type": 3, "value": "d4" }])).await;
        assert!(again.is_ephemeral(), "{again:?}");
        assert_eq!(text(&again), "#1 numaralı oyunda sıra sende değil: sıra alice (siyah) oyuncusunda.");

        // Carol, whose app is German and who plays in no game here: told privately, in German.
        let none = command(&fake, CAROL, "move", json!([{ "name": "move", "type": 3, "value": "e5" }])).await;
        assert!(none.is_ephemeral(), "{none:?}");
        assert_eq!(text(&none), "Du hast hier keine Partie. Starte eine mit !challenge @jemand oder !play.");

        // Alice's own language setting wins over her app's for what only she reads.
        let set = command(&fake, ALICE, "lang", json!([{ "name": "language", "type": 3, "value": "tr" }])).await;
        assert!(text(&set).starts_with("Bundan sonra seninle Türkçe konuşuyorum: özel mesajlarda"), "{}", text(&set));
        let wrong = command(&fake, ALICE, "move", json!([{ "name": "move", "type": 3, "value": "zz" }])).await;
        assert!(
            wrong.is_ephemeral() && text(&wrong).starts_with("Oyun #1: 'zz' okuyabildiğim bir hamle değil"),
            "{wrong:?}"
        );

        // A move typed in the channel (a message, not an interaction): the answer is in the
        // server's language, its preferred locale from GUILD_CREATE. (Before: English, since only
        // interactions carried the server's language.)
        fake.send_message(GENERAL, ALICE, "e5");
        let typed = fake.wait_for(|s| s.kind == SentKind::Message && text(s).contains("1... e5"), WAIT).await;
        assert!(text(&typed).contains("Oyun #1: 1... e5, oynayan alice. Sıra bob (beyaz) oyuncusunda."), "{typed:?}");

        let _ = stop.send(());
        let ended = tokio::time::timeout(WAIT, task).await.expect("stops in time").expect("task");
        assert!(ended.is_ok(), "{ended:?}");
        fake.assert_no_problems();
    })
    .await
    .expect("scenario finished in time");
}

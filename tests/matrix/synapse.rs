//! matrix-sdk against a real Synapse (installed and started by `synapse-harness`): a bot client
//! and a human client talk as capabot will, in a plain room and in an encrypted one: invitations
//! accepted with back-off, formatted messages with a mention pill, a PNG sent as `m.image`, a
//! reaction; then the bot restarts from its SQLite store, and Synapse itself restarts.
//!
//! The time from the human's send to the bot's event handler is printed, not asserted.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use matrix_sdk::attachment::AttachmentConfig;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::EncryptionInfo;
use matrix_sdk::ruma::api::client::room::create_room::v3::{Request as CreateRoom, RoomPreset};
use matrix_sdk::ruma::events::reaction::{OriginalSyncReactionEvent, ReactionEventContent};
use matrix_sdk::ruma::events::relation::Annotation;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::room::member::StrippedRoomMemberEvent;
use matrix_sdk::ruma::events::room::message::{MessageType, OriginalSyncRoomMessageEvent, RoomMessageEventContent};
use matrix_sdk::ruma::events::{InitialStateEvent, Mentions};
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, OwnedUserId, UserId};
use matrix_sdk::{Client, Room, RoomState};
use synapse_harness::{RegisteredUser, Synapse};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// The bound on every wait for something to arrive.
const WAIT: Duration = Duration::from_secs(30);

/// What a client's event handlers saw.
#[derive(Debug)]
enum Seen {
    Message {
        room_id: OwnedRoomId,
        event_id: OwnedEventId,
        sender: OwnedUserId,
        content: Box<RoomMessageEventContent>,
        encrypted: bool,
        at: Instant,
    },
    Reaction {
        room_id: OwnedRoomId,
        sender: OwnedUserId,
        relates_to: OwnedEventId,
        key: String,
    },
}

impl Seen {
    fn event_id(&self) -> Option<&OwnedEventId> {
        match self {
            Seen::Message { event_id, .. } => Some(event_id),
            Seen::Reaction { .. } => None,
        }
    }
}

/// One logged-in client, what its handlers saw, and its sync loop.
struct Peer {
    client: Client,
    user: RegisteredUser,
    seen: mpsc::UnboundedReceiver<Seen>,
    sync: Option<JoinHandle<()>>,
}

impl Peer {
    /// Logs in with the password into a client with a SQLite store in `store`.
    async fn log_in(synapse: &Synapse, user: RegisteredUser, store: &Path) -> Peer {
        let client = build_client(synapse, store).await;
        client
            .matrix_auth()
            .login_username(&user.localpart, &user.password)
            .initial_device_display_name(&format!("{} (test)", user.localpart))
            .send()
            .await
            .expect("log in");
        let seen = watch(&client);
        Peer { client, user, seen, sync: None }
    }

    fn user_id(&self) -> &UserId {
        self.client.user_id().expect("logged in")
    }

    fn room(&self, room_id: &OwnedRoomId) -> Room {
        self.client.get_room(room_id).expect("a known room")
    }

    /// Syncs in the background until [`stop_sync`](Self::stop_sync), retrying after errors
    /// (Synapse may be restarting).
    fn start_sync(&mut self) {
        let client = self.client.clone();
        self.sync = Some(tokio::spawn(async move {
            let settings = SyncSettings::default().timeout(Duration::from_secs(10));
            let mut failing = false;
            loop {
                match client.sync_once(settings.clone()).await {
                    Ok(_) => failing = false,
                    Err(e) => {
                        // Say it once per outage, not once per retry.
                        if !std::mem::replace(&mut failing, true) {
                            eprintln!("sync of {:?} failed, retrying: {e}", client.user_id());
                        }
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                }
            }
        }));
    }

    async fn stop_sync(&mut self) {
        if let Some(sync) = self.sync.take() {
            sync.abort();
            let _ = sync.await;
        }
    }

    /// Waits for the first event that `wanted` accepts, dropping the others.
    async fn expect(&mut self, what: &str, wanted: impl Fn(&Seen) -> bool) -> Seen {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            match tokio::time::timeout_at(deadline, self.seen.recv()).await {
                Ok(Some(seen)) if wanted(&seen) => return seen,
                Ok(Some(_)) => {}
                Ok(None) => panic!("{}: the handlers are gone", self.user.localpart),
                Err(_) => panic!("{} waited {WAIT:?} for {what}", self.user.localpart),
            }
        }
    }

    /// Waits for a message with this body in this room.
    async fn expect_message(&mut self, room_id: &OwnedRoomId, body: &str) -> Seen {
        self.expect(&format!("the message {body:?}"), |seen| {
            matches!(seen, Seen::Message { room_id: r, content, .. }
                if r == room_id && content.body() == body)
        })
        .await
    }
}

async fn build_client(synapse: &Synapse, store: &Path) -> Client {
    Client::builder()
        .homeserver_url(synapse.homeserver_url())
        .sqlite_store(store, None)
        .build()
        .await
        .expect("build a client")
}

/// Forwards messages and reactions to a channel; a handler sees decrypted events only.
fn watch(client: &Client) -> mpsc::UnboundedReceiver<Seen> {
    let (tx, rx) = mpsc::unbounded_channel();
    let messages = tx.clone();
    client.add_event_handler(
        move |event: OriginalSyncRoomMessageEvent, room: Room, encryption: Option<EncryptionInfo>| {
            let at = Instant::now();
            let messages = messages.clone();
            async move {
                let _ = messages.send(Seen::Message {
                    room_id: room.room_id().to_owned(),
                    event_id: event.event_id,
                    sender: event.sender,
                    content: Box::new(event.content),
                    encrypted: encryption.is_some(),
                    at,
                });
            }
        },
    );
    client.add_event_handler(move |event: OriginalSyncReactionEvent, room: Room| {
        let reactions = tx.clone();
        async move {
            let _ = reactions.send(Seen::Reaction {
                room_id: room.room_id().to_owned(),
                sender: event.sender,
                relates_to: event.content.relates_to.event_id,
                key: event.content.relates_to.key,
            });
        }
    });
    rx
}

/// Accepts invitations to this client's user, retrying with back-off: Synapse may send the invite
/// before the room can be joined.
fn autojoin(client: &Client) {
    client.add_event_handler(|event: StrippedRoomMemberEvent, room: Room, client: Client| async move {
        if Some(event.state_key.as_ref()) != client.user_id() || room.state() != RoomState::Invited {
            return;
        }
        tokio::spawn(async move {
            let mut delay = Duration::from_millis(100);
            for attempt in 1..=8 {
                match room.join().await {
                    Ok(()) => return,
                    Err(e) => {
                        eprintln!("join {} failed (attempt {attempt}): {e}", room.room_id());
                        tokio::time::sleep(delay).await;
                        delay *= 2;
                    }
                }
            }
        });
    });
}

/// The human creates a room (encrypted or not) inviting the bot, and waits until the bot is in it.
async fn create_room_with_bot(human: &Peer, bot: &Peer, encrypted: bool) -> OwnedRoomId {
    let mut request = CreateRoom::new();
    request.invite = vec![bot.user_id().to_owned()];
    request.is_direct = true;
    request.preset = Some(RoomPreset::TrustedPrivateChat);
    if encrypted {
        let encryption = RoomEncryptionEventContent::with_recommended_defaults();
        request.initial_state = vec![InitialStateEvent::with_empty_state_key(encryption).to_raw_any()];
    }
    let room = human.client.create_room(request).await.expect("create a room");
    let room_id = room.room_id().to_owned();
    wait_until("the bot joins", || async {
        bot.client.get_room(&room_id).is_some_and(|room| room.state() == RoomState::Joined)
    })
    .await;
    room_id
}

/// Polls `condition` every 50 ms until it holds, for at most [`WAIT`].
async fn wait_until<F, Fut>(what: &str, condition: F)
where
    F: Fn() -> Fut,
    Fut: Future<Output = bool>,
{
    let deadline = Instant::now() + WAIT;
    while !condition().await {
        assert!(Instant::now() < deadline, "waited {WAIT:?} until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until each client knows the other's device: without that, a room key would not be
/// shared with it and the first encrypted message could not be decrypted.
async fn wait_for_each_others_devices(a: &Peer, b: &Peer) {
    for (from, to) in [(a, b), (b, a)] {
        let user = to.user_id().to_owned();
        let device = to.client.device_id().expect("logged in").to_owned();
        wait_until("the other device's keys are known", || async {
            from.client.encryption().get_device(&user, &device).await.is_ok_and(|device| device.is_some())
        })
        .await;
    }
}

/// A formatted message with a mention pill, as the bot writes them.
fn pill_message(to: &UserId, text: &str) -> RoomMessageEventContent {
    let name = to.localpart();
    RoomMessageEventContent::text_html(
        format!("{name}: {text}"),
        format!("<a href=\"https://matrix.to/#/{to}\">{name}</a>: <b>{text}</b>"),
    )
    .add_mentions(Mentions::with_user_ids([to.to_owned()]))
}

/// A 12×8 two-colour PNG made by capabot's own encoder.
fn test_png() -> (Vec<u8>, Vec<u8>) {
    let pixels: Vec<u8> = (0..96u32).map(|i| ((i % 12 + i / 12) % 2) as u8).collect();
    let palette = [240, 217, 181, 181, 136, 99];
    (capabot::render::encode::indexed_png(12, 8, &palette, &pixels), pixels)
}

/// The human writes to the bot; the bot answers with text and a picture; the human reacts.
/// Returns the ids of every message exchanged.
async fn conversation(human: &mut Peer, bot: &mut Peer, room_id: &OwnedRoomId, encrypted: bool) -> Vec<OwnedEventId> {
    let label = if encrypted { "encrypted" } else { "plain" };
    let mut ids = Vec::new();

    // Human → bot, timed.
    let body = format!("{}: e2e4 ({label})", bot.user.localpart);
    let sent_at = Instant::now();
    let sent = human
        .room(room_id)
        .send(pill_message(bot.user_id(), &format!("e2e4 ({label})")))
        .await
        .expect("the human sends");
    let Seen::Message { event_id, sender, content, encrypted: was_encrypted, at, .. } =
        bot.expect_message(room_id, &body).await
    else {
        unreachable!()
    };
    println!("{label} room: human send → bot handler: {:?}", at - sent_at);
    assert_eq!(event_id, sent.response.event_id);
    assert_eq!(sender, human.user_id());
    assert_eq!(was_encrypted, encrypted);
    let mentions = content.mentions.expect("mentions");
    assert!(mentions.user_ids.contains(bot.user_id()));
    ids.push(event_id);

    // Bot → human: formatted text with a pill.
    let reply =
        bot.room(room_id).send(pill_message(human.user_id(), &format!("e7e5 ({label})"))).await.expect("the bot sends");
    let body = format!("{}: e7e5 ({label})", human.user.localpart);
    let Seen::Message { content, encrypted: was_encrypted, event_id, .. } = human.expect_message(room_id, &body).await
    else {
        unreachable!()
    };
    assert_eq!(event_id, reply.response.event_id);
    assert_eq!(was_encrypted, encrypted);
    let MessageType::Text(text) = &content.msgtype else { panic!("not text: {content:?}") };
    let html = &text.formatted.as_ref().expect("an HTML body").body;
    assert!(html.contains(&format!("https://matrix.to/#/{}", human.user_id())), "{html}");
    assert!(content.mentions.expect("mentions").user_ids.contains(human.user_id()));
    ids.push(event_id);

    // Bot → human: a PNG, downloaded (and decrypted) and decoded by the human.
    let (png, pixels) = test_png();
    bot.room(room_id)
        .send_attachment("board.png", &mime::IMAGE_PNG, png.clone(), AttachmentConfig::new())
        .await
        .expect("the bot sends a picture");
    let image = human
        .expect("the picture", |seen| {
            matches!(seen, Seen::Message { room_id: r, content, .. }
                if r == room_id && matches!(content.msgtype, MessageType::Image(_)))
        })
        .await;
    let Seen::Message { content, encrypted: was_encrypted, event_id, .. } = image else { unreachable!() };
    assert_eq!(was_encrypted, encrypted);
    let MessageType::Image(image) = &content.msgtype else { unreachable!() };
    let downloaded = human.client.media().get_file(image, false).await.expect("download").expect("a file");
    assert_eq!(downloaded, png);
    let mut decoder = png::Decoder::new(std::io::Cursor::new(downloaded)).read_info().expect("a PNG");
    let mut buf = vec![0; decoder.output_buffer_size().expect("a size")];
    let info = decoder.next_frame(&mut buf).expect("a frame");
    assert_eq!((info.width, info.height), (12, 8));
    assert_eq!(&buf[..pixels.len()], &pixels[..]);
    ids.push(event_id);

    // Human → bot: a reaction to the bot's text.
    let reacted_to = ids[1].clone();
    human
        .room(room_id)
        .send(ReactionEventContent::new(Annotation::new(reacted_to.clone(), "♞".into())))
        .await
        .expect("the human reacts");
    let human_id = human.user_id().to_owned();
    bot.expect("the reaction", |seen| {
        matches!(seen, Seen::Reaction { room_id: r, sender, relates_to, key }
            if r == room_id && *sender == human_id && *relates_to == reacted_to && key == "♞")
    })
    .await;
    ids
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_and_a_human_talk_through_a_real_synapse() {
    // Two rustls crypto back ends may be compiled in; without a process default a TLS client panics.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    let started = Instant::now();
    let mut synapse = tokio::task::spawn_blocking(Synapse::start).await.unwrap().unwrap_or_else(|e| panic!("{e}"));
    println!("Synapse answering after {:?}", started.elapsed());
    let users = synapse.register_users(&["bot", "alice"]).unwrap_or_else(|e| panic!("{e}"));
    let (bot_user, human_user) = (users[0].clone(), users[1].clone());
    let bot_store = tempfile::tempdir().unwrap();
    let human_store = tempfile::tempdir().unwrap();

    let mut bot = Peer::log_in(&synapse, bot_user.clone(), bot_store.path()).await;
    autojoin(&bot.client);
    let mut human = Peer::log_in(&synapse, human_user, human_store.path()).await;
    // A first sync uploads each device's keys before any room exists.
    bot.client.sync_once(SyncSettings::default()).await.expect("first sync");
    human.client.sync_once(SyncSettings::default()).await.expect("first sync");
    bot.start_sync();
    human.start_sync();

    let plain = create_room_with_bot(&human, &bot, false).await;
    let mut seen_by_bot: HashSet<OwnedEventId> =
        conversation(&mut human, &mut bot, &plain, false).await.into_iter().collect();

    let secret = create_room_with_bot(&human, &bot, true).await;
    assert!(bot.room(&secret).latest_encryption_state().await.unwrap().is_encrypted());
    wait_for_each_others_devices(&human, &bot).await;
    seen_by_bot.extend(conversation(&mut human, &mut bot, &secret, true).await);

    // The bot stops; the human writes meanwhile; the bot comes back from its store.
    let session = bot.client.session().expect("a session");
    let device = bot.client.device_id().unwrap().to_owned();
    bot.stop_sync().await;
    drop(bot);
    let away = human
        .room(&secret)
        .send(RoomMessageEventContent::text_plain("while you were away"))
        .await
        .expect("send")
        .response
        .event_id;
    let client = build_client(&synapse, bot_store.path()).await;
    client.restore_session(session).await.expect("restore the session");
    assert_eq!(client.device_id(), Some(&*device), "the same device");
    let devices = client.devices().await.expect("list devices").devices;
    assert_eq!(devices.len(), 1, "no second login: {devices:?}");
    let seen = watch(&client);
    let mut bot = Peer { client, user: bot_user, seen, sync: None };
    autojoin(&bot.client);
    bot.client.sync_once(SyncSettings::default()).await.expect("sync after restart");
    let mut delivered = Vec::new();
    while let Ok(seen) = bot.seen.try_recv() {
        delivered.extend(seen.event_id().cloned());
    }
    assert!(delivered.iter().all(|id| !seen_by_bot.contains(id)), "old events again: {delivered:?}");
    assert_eq!(delivered, [away], "only the message sent while the bot was away");
    bot.start_sync();

    // The restarted bot still speaks in the encrypted room (its Olm sessions were kept).
    bot.room(&secret).send(RoomMessageEventContent::text_plain("back")).await.expect("send after restart");
    human.expect_message(&secret, "back").await;

    // Synapse restarts mid-game; both clients carry on.
    let restarted = Instant::now();
    tokio::task::block_in_place(|| synapse.restart()).unwrap_or_else(|e| panic!("{e}"));
    println!("Synapse restarted in {:?}", restarted.elapsed());
    let sent_at = Instant::now();
    human
        .room(&secret)
        .send(RoomMessageEventContent::text_plain("still there?"))
        .await
        .expect("send after Synapse restarted");
    let Seen::Message { at, .. } = bot.expect_message(&secret, "still there?").await else { unreachable!() };
    println!("after Synapse's restart: human send → bot handler: {:?}", at - sent_at);

    bot.stop_sync().await;
    human.stop_sync().await;
    tokio::task::block_in_place(|| synapse.stop()).unwrap_or_else(|e| panic!("{e}"));
}

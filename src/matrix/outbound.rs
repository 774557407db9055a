//! [`Reply`]s → Matrix events: formatted text with mention pills (and `m.mentions` set to exactly the
//! users notified), the board as `m.image`, PGN as `m.file`, replies, threads and `m.replace` edits;
//! choices become reaction prompts (✅ for the first, ❌ for the second) remembered until a
//! reaction picks one.

use super::inbound::Me;
use super::mentions::{self, escape};
use crate::bot::recent::Recent;
use crate::bot::{Audience, Choice, PictureFormat, Receipt, Reply, Target, UserRef};
use crate::host::{DeliveryError, FrontEnd};
use async_trait::async_trait;
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::room::reply::{EnforceThread, Reply as SdkReply};
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::reaction::ReactionEventContent;
use matrix_sdk::ruma::events::relation::{Annotation, InReplyTo, Thread};
use matrix_sdk::ruma::events::room::message::{
    AddMentions, ImageMessageEventContent, MessageType, Relation, ReplacementMetadata, ReplyWithinThread,
    RoomMessageEventContent, TextMessageEventContent,
};
use matrix_sdk::ruma::events::room::{ImageInfo, MediaSource};
use matrix_sdk::ruma::{OwnedEventId, OwnedUserId, RoomId, UInt, UserId};
use matrix_sdk::{Client, Room};
use serde::Deserialize;
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Duration;

/// The reaction keys of the first and second choice.
pub const PROMPT_KEYS: [&str; 2] = ["✅", "❌"];

/// The field of a prompt message's content that carries its choices (the typed commands and who
/// may choose them), so that a reaction still works after a restart.
pub const PROMPT_FIELD: &str = "org.capabot.prompt";

/// A message's prompt: its choices and the thread it is in.
struct Prompt {
    choices: Vec<Choice>,
    thread: Option<String>,
}

/// Prompts remembered at most; older ones are forgotten first and read again from their message
/// (see [`MatrixFrontEnd::load_prompt`]) if someone reacts to them.
const PROMPTS_KEPT: usize = 10_000;

/// Host handling times kept (the latest).
const TIMES_KEPT: usize = 10_000;

/// Messages being sent at once at most (replies and greetings). The host delivers every chat at
/// once: after a restart with a command waiting in each of 500 rooms, 500 sends were in flight
/// together while the homeserver took them in turn, each holding matrix-sdk's send future, its
/// request and most an HTTP connection of their own (kept in the client's pool afterwards): half of
/// the catch-up's peak heap, which the allocator kept resident after it (issue 45, fix 15). With 64
/// the homeserver took the sends of a 2,000-room catch-up in fewer at a time and the last answer came
/// after 65 s; with 256, 40–47 s at the same memory (512: 38–44 s for 30 MiB more; docs/scale.md,
/// fix 22). The default of [`super::Options::sends_at_once`].
pub const SENDS_AT_ONCE: usize = 256;

/// Rooms the host delivers to at once at most ([`FrontEnd::chats_at_once`]) for each message sent at
/// once: twice the sends, so that the sends stay busy while some rooms' drains read or record their
/// rows. The other rooms with replies waiting wait for a place before their drain is under way (a
/// few hundred bytes a room instead of a whole drain's future, about 20 KB, waiting in
/// [`FrontEnd::deliver`] for a place to send: issue 45).
const ROOMS_PER_SEND: usize = 2;

/// The Matrix front end as the host sees it.
pub struct MatrixFrontEnd {
    pub client: Client,
    pub me: Me,
    /// Whose invitations are accepted.
    pub options: super::Options,
    /// Rooms' communities (their spaces).
    pub communities: super::community::Communities,
    /// Encrypted messages waiting for their keys.
    pub undecrypted: super::undecrypted::Undecrypted,
    prompts: Mutex<Recent<OwnedEventId, Prompt>>,
    /// Direct rooms made by this process, before the homeserver's `m.direct` lists them.
    direct_rooms: Mutex<HashMap<OwnedUserId, Room>>,
    handling: Mutex<VecDeque<Duration>>,
    /// Places for messages being sent ([`super::Options::sends_at_once`]).
    sending: tokio::sync::Semaphore,
    /// The language of the greeting in a room just joined (the configuration's: nobody there has
    /// chosen one yet).
    greeting_lang: crate::i18n::Lang,
    /// The prefix the greeting writes commands with (the configuration's: nobody there has set one).
    greeting_prefix: String,
}

impl MatrixFrontEnd {
    pub async fn new(
        client: Client,
        mut options: super::Options,
        greeting_lang: crate::i18n::Lang,
        greeting_prefix: String,
    ) -> std::sync::Arc<MatrixFrontEnd> {
        // At least one send at a time, whatever the options say (taken once, here).
        options.sends_at_once = options.sends_at_once.max(1);
        let user_id = client.user_id().expect("a logged-in client").to_owned();
        let display_name = client.account().get_display_name().await.ok().flatten();
        let sending = tokio::sync::Semaphore::new(options.sends_at_once);
        std::sync::Arc::new(MatrixFrontEnd {
            client,
            me: Me { user_id, display_name },
            options,
            communities: Default::default(),
            undecrypted: Default::default(),
            prompts: Mutex::new(Recent::new(PROMPTS_KEPT)),
            direct_rooms: Mutex::default(),
            handling: Mutex::default(),
            sending,
            greeting_lang,
            greeting_prefix,
        })
    }

    /// Remembers how long the host took over one input (the bot's own share of a reply's delay).
    pub fn record_handling(&self, took: Duration) {
        if let Ok(mut v) = self.handling.lock() {
            v.push_back(took);
            if v.len() > TIMES_KEPT {
                v.pop_front();
            }
        }
    }

    /// The times the host took over each input, the latest [`TIMES_KEPT`].
    pub fn handling_times(&self) -> Vec<Duration> {
        self.handling.lock().map(|v| v.iter().copied().collect()).unwrap_or_default()
    }

    /// The choice a reaction with `key` on `event` picks, if that event is a prompt.
    pub fn prompted_choice(&self, event: &OwnedEventId, key: &str) -> Option<Choice> {
        let index = PROMPT_KEYS.iter().position(|k| key.trim_end_matches('\u{fe0f}') == *k)?;
        let prompts = self.prompts.lock().ok()?;
        let prompt = prompts.get(event)?;
        // A prompt with more choices than keys (a secret bomb's pieces) is answered by typing only.
        if !reactable(&prompt.choices) {
            return None;
        }
        prompt.choices.get(index).cloned()
    }

    /// The thread a prompt was posted in.
    pub fn prompt_thread(&self, event: &OwnedEventId) -> Option<String> {
        self.prompts.lock().ok()?.get(event)?.thread.clone()
    }

    /// Whether `event` is known here (a prompt, or a message known not to be one).
    pub fn knows_prompt(&self, event: &OwnedEventId) -> bool {
        self.prompts.lock().is_ok_and(|p| p.get(event).is_some())
    }

    /// Reads the prompt that `event` carries (a message of the bot's sent before a restart, or one
    /// forgotten since) from the homeserver and remembers it; a message that is no prompt is
    /// remembered as one without choices, so it is fetched once. A message that could not be
    /// decrypted (yet) is not remembered: the next reaction tries again.
    pub async fn load_prompt(&self, room: &Room, event: &OwnedEventId) {
        let content = match room.load_or_fetch_event(event, None).await {
            Ok(ev) => match ev.raw().deserialize_as::<serde_json::Value>() {
                Ok(v) if v["type"] == "m.room.encrypted" => {
                    tracing::info!(%event, "the reacted-to message could not be decrypted");
                    return;
                }
                Ok(v) if v["sender"].as_str() == Some(self.me.user_id.as_str()) => v["content"].clone(),
                _ => serde_json::Value::Null,
            },
            Err(e) => {
                tracing::info!(%event, "the reacted-to message could not be read: {e}");
                return;
            }
        };
        let prompt = prompt_of(&content).unwrap_or(Prompt { choices: vec![], thread: None });
        if let Ok(mut prompts) = self.prompts.lock() {
            prompts.insert(event.clone(), prompt);
        }
    }

    /// Whether an invitation by `inviter` to `room` is accepted: one of the allowed patterns (by
    /// default the bot's own server) matches the inviter's user id or the room id.
    pub fn invitation_allowed(&self, inviter: Option<&UserId>, room: &RoomId) -> bool {
        let own = [format!("*:{}", self.me.user_id.server_name())];
        let patterns = if self.options.allow.is_empty() { &own[..] } else { &self.options.allow[..] };
        patterns.iter().any(|p| {
            let p = wildmatch::WildMatch::new(p);
            inviter.is_some_and(|u| p.matches(u.as_str())) || p.matches(room.as_str())
        })
    }

    /// A short greeting in a room the bot has just joined.
    pub async fn greet(&self, room: &Room) {
        let text = greeting(self.greeting_lang, &self.greeting_prefix);
        let Ok(_place) = self.sending.acquire().await else { return };
        if let Err(e) = room.send(RoomMessageEventContent::text_plain(text)).await {
            tracing::warn!(room = %room.room_id(), "could not greet: {e}");
        }
    }

    /// Uploads a picture, encrypted where the room is.
    async fn upload(&self, room: &Room, mime: &mime::Mime, bytes: &[u8]) -> Result<MediaSource, DeliveryError> {
        let state = room.latest_encryption_state().await.map_err(|e| classify("reading the room's encryption", &e))?;
        if state.is_encrypted() {
            let mut reader = std::io::Cursor::new(bytes);
            let file = self.client.upload_encrypted_file(&mut reader).await.map_err(|e| classify("uploading", &e))?;
            Ok(MediaSource::Encrypted(Box::new(file)))
        } else {
            let sent = self.client.media().upload(mime, bytes.to_vec(), None).await;
            Ok(MediaSource::Plain(sent.map_err(|e| classify("uploading", &e))?.content_uri))
        }
    }

    async fn room_for(&self, target: &Target) -> Result<(Room, Option<String>), DeliveryError> {
        match target {
            Target::Chat(scope) => {
                let id = RoomId::parse(scope.chat.as_str()).map_err(|e| failed("room id", e))?;
                let room = self.client.get_room(&id).ok_or_else(|| DeliveryError::ChatGone(format!("not in {id}")))?;
                if room.state() != matrix_sdk::RoomState::Joined {
                    return Err(DeliveryError::ChatGone(format!("no longer in {id} ({:?})", room.state())));
                }
                Ok((room, scope.thread.clone()))
            }
            Target::Direct { user, .. } => Ok((self.direct_room(user).await?, None)),
        }
    }

    /// The direct room with `user`: the known one, else a new one (`is_direct`, listed in `m.direct`).
    /// A person who left the direct room has closed their direct messages (as one does on Discord):
    /// no new room is opened for them, and their direct messages go to the game's chat. They open
    /// them again by inviting the bot to a direct room.
    async fn direct_room(&self, user: &UserRef) -> Result<Room, DeliveryError> {
        let id = UserId::parse(user.id.as_str()).map_err(|e| failed("user id", e))?;
        let cached = self.direct_rooms.lock().ok().and_then(|m| m.get(&id).cloned());
        let known =
            cached.filter(|r| r.state() == matrix_sdk::RoomState::Joined).or_else(|| self.client.get_dm_room(&id));
        if let Some(room) = known {
            if !left_by(&room, &id).await {
                return Ok(room);
            }
            // Alone there: the bot goes too (see `inbound::on_member`).
            return Err(DeliveryError::DirectMessagesClosed);
        }
        let left = |r: &Room| r.direct_targets().iter().any(|t| t.as_user_id() == Some(&*id));
        if self.client.left_rooms().iter().any(left) || self.direct_rooms.lock().is_ok_and(|m| m.contains_key(&id)) {
            return Err(DeliveryError::DirectMessagesClosed);
        }
        let room = self.client.create_dm(&id).await.map_err(|e| classify("creating a direct room", &e))?;
        if let Ok(mut m) = self.direct_rooms.lock() {
            m.insert(id, room.clone());
        }
        Ok(room)
    }
}

/// Whether `user` has left (or was banned from) `room`.
async fn left_by(room: &Room, user: &UserId) -> bool {
    use matrix_sdk::ruma::events::room::member::MembershipState;
    match room.get_member_no_sync(user).await {
        Ok(Some(m)) => matches!(m.membership(), MembershipState::Leave | MembershipState::Ban),
        _ => false,
    }
}

fn failed(what: &str, e: impl std::fmt::Display) -> DeliveryError {
    DeliveryError::Failed(format!("{what}: {e}"))
}

/// Classifies a failed request: rate limits (with the server's retry-after), server errors and no
/// answer are passing; a refusal to post (not in the room, kicked, banned) means the room is gone
/// for the bot; anything else is a refusal of the message itself.
fn classify(what: &str, e: &matrix_sdk::Error) -> DeliveryError {
    use matrix_sdk::ruma::api::error::{ErrorKind, RetryAfter};
    let detail = format!("{what}: {e}");
    if let Some(api) = e.as_client_api_error() {
        let status = api.status_code.as_u16();
        return match api.error_kind() {
            Some(ErrorKind::LimitExceeded(data)) => DeliveryError::Transient {
                retry_after: match data.retry_after {
                    Some(RetryAfter::Delay(d)) => Some(d),
                    Some(RetryAfter::DateTime(t)) => t.duration_since(std::time::SystemTime::now()).ok(),
                    None => None,
                },
                detail,
            },
            _ if status == 429 || status >= 500 => DeliveryError::transient(detail),
            Some(ErrorKind::Forbidden | ErrorKind::NotFound) => DeliveryError::ChatGone(detail),
            _ => DeliveryError::Failed(detail),
        };
    }
    match e {
        // No answer from the homeserver at all.
        matrix_sdk::Error::Http(_) => DeliveryError::transient(detail),
        _ => DeliveryError::Failed(detail),
    }
}

/// The transaction id of one event of an outbox row: the homeserver answers a repeated
/// `PUT /send/{type}/{txnId}` with the event it made the first time, so a retry never posts twice.
fn txn(reply: &Reply, part: &str) -> Option<matrix_sdk::ruma::OwnedTransactionId> {
    reply.outbox_id.map(|id| format!("capabot-{id}-{part}").into())
}

#[async_trait]
impl FrontEnd for MatrixFrontEnd {
    fn platform(&self) -> &str {
        super::PLATFORM
    }

    fn has_direct_messages(&self) -> bool {
        true
    }

    fn chats_at_once(&self) -> Option<usize> {
        Some(ROOMS_PER_SEND * self.options.sends_at_once)
    }

    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        // Held until the reply's events are all sent (its picture, its text, a prompt's reactions).
        let Ok(_place) = self.sending.acquire().await else {
            return Err(DeliveryError::Transient { retry_after: None, detail: "the front end is closed".into() });
        };
        let (room, thread) = self.room_for(&reply.target).await?;
        let thread_root: Option<OwnedEventId> = thread.as_deref().and_then(|t| t.try_into().ok());
        let answer_to: Option<OwnedEventId> = match reply.audience {
            Audience::Author => reply.in_reply_to.as_deref().and_then(|t| t.try_into().ok()),
            // In the person's direct room: the event it answers is in another room.
            Audience::Everyone | Audience::Only(_) => None,
        };
        let mut receipt = Receipt::default();
        let mut last: Option<OwnedEventId> = None;

        let previous: Option<OwnedEventId> =
            reply.slot.as_ref().and_then(|s| s.previous.as_deref()).and_then(|p| p.try_into().ok());
        // A board and its text go as one captioned image (half the events against the homeserver's
        // rate limit, which counts every event); an edit or a prompt keeps its own text message, and
        // an animation its own event, whose body is its long alt text (the moves).
        let captioned = reply.animation.is_none()
            && reply.png.is_some()
            && !reply.text.is_empty()
            && reply.choices.is_empty()
            && previous.is_none();
        let has_text = !reply.text.is_empty() || !reply.choices.is_empty() || reply.picture().is_none();
        if has_text && !captioned {
            let mut content = text_content(reply);
            let id = if let Some(previous) = previous {
                let mentions = content.mentions.clone();
                let edit = content.make_replacement(ReplacementMetadata::new(previous.clone(), mentions));
                let mut send = room.send(edit);
                if let Some(t) = txn(reply, "edit") {
                    send = send.with_transaction_id(t);
                }
                send.await.map_err(|e| classify("editing", &e))?;
                previous
            } else {
                content.relates_to = relation(&thread_root, &answer_to);
                if reply.choices.is_empty() {
                    let mut send = room.send(content);
                    if let Some(t) = txn(reply, "text") {
                        send = send.with_transaction_id(t);
                    }
                    send.await.map_err(|e| classify("sending", &e))?.response.event_id
                } else {
                    let mut raw = serde_json::to_value(&content).map_err(|e| failed("encoding", e))?;
                    raw[PROMPT_FIELD] = prompt_json(&reply.choices);
                    let t = txn(reply, "text");
                    let mut send = room.send_raw("m.room.message", raw);
                    if let Some(t) = &t {
                        send = send.with_transaction_id(t);
                    }
                    send.await.map_err(|e| classify("sending", &e))?.response.event_id
                }
            };
            receipt.message_id = Some(id.to_string());
            last = Some(id);
        }

        if let Some((format, bytes)) = reply.picture()
            && captioned
        {
            let source = self.upload(&room, &picture_mime(format), bytes).await?;
            let mut content = captioned_picture(reply, format, bytes, source);
            content.relates_to = relation(&thread_root, &answer_to);
            let mut send = room.send(content);
            if let Some(t) = txn(reply, "captioned") {
                send = send.with_transaction_id(t);
            }
            let id = send.await.map_err(|e| classify("sending the board", &e))?.response.event_id;
            receipt.message_id = Some(id.to_string());
            last = Some(id);
        } else if let Some((format, bytes)) = reply.picture() {
            let (width, height) = picture_size(format, bytes).unwrap_or((0, 0));
            let info = BaseImageInfo {
                width: Some(UInt::from(width)),
                height: Some(UInt::from(height)),
                size: UInt::new(bytes.len() as u64),
                ..Default::default()
            };
            let alt = reply.alt_text.clone().unwrap_or_else(|| crate::tl!(reply.lang, "matrix-board"));
            let mut config = AttachmentConfig::new();
            if let Some(t) = txn(reply, "board") {
                config = config.txn_id(t);
            }
            let config = config
                .info(AttachmentInfo::Image(info))
                .caption(Some(TextMessageEventContent::plain(alt)))
                .mentions(Some(Mentions::new()))
                .reply(attachment_reply(&thread_root, &last));
            let sent = room
                .send_attachment(format.file_name(), &picture_mime(format), bytes.to_vec(), config)
                .await
                .map_err(|e| classify("sending the board", &e))?;
            if receipt.message_id.is_none() {
                receipt.message_id = Some(sent.event_id.to_string());
                last = Some(sent.event_id.clone());
            }
        }

        if let Some(file) = &reply.file {
            let mime: mime::Mime = file.mime.parse().unwrap_or(mime::APPLICATION_OCTET_STREAM);
            let mut config = AttachmentConfig::new();
            if let Some(t) = txn(reply, "file") {
                config = config.txn_id(t);
            }
            let config = config.mentions(Some(Mentions::new())).reply(attachment_reply(&thread_root, &last));
            room.send_attachment(&file.name, &mime, file.bytes.clone(), config)
                .await
                .map_err(|e| classify("sending the file", &e))?;
        }

        if let (Some(_), Some(root)) = (&reply.new_thread, &receipt.message_id) {
            receipt.thread_id = Some(root.clone());
        }
        // Every event went with a transaction id made of the row's id: sent again by this device
        // (after a crash), the homeserver answers with the event it made the first time.
        receipt.shows_once_if_repeated = reply.outbox_id.is_some();

        if !reply.choices.is_empty()
            && let Some(id) = &last
        {
            let thread = receipt.thread_id.clone().or(thread.clone());
            if let Ok(mut prompts) = self.prompts.lock() {
                prompts.insert(id.clone(), Prompt { choices: reply.choices.clone(), thread });
            }
            for key in PROMPT_KEYS.iter().take(reply.choices.len()).filter(|_| reactable(&reply.choices)) {
                let reaction = ReactionEventContent::new(Annotation::new(id.clone(), key.to_string()));
                let mut send = room.send(reaction);
                if let Some(t) = txn(reply, &format!("prompt-{key}")) {
                    send = send.with_transaction_id(t);
                }
                if let Err(e) = send.await {
                    tracing::warn!("could not add the prompt {key}: {e}");
                }
            }
        }
        Ok(receipt)
    }
}

/// Where a new message goes: into the thread (answering `answer_to` there), or as a reply to
/// `answer_to`, or plainly into the room.
fn relation<C>(thread_root: &Option<OwnedEventId>, answer_to: &Option<OwnedEventId>) -> Option<Relation<C>> {
    match (thread_root, answer_to) {
        (Some(root), Some(to)) => Some(Relation::Thread(Thread::reply(root.clone(), to.clone()))),
        (Some(root), None) => Some(Relation::Thread(Thread::without_fallback(root.clone()))),
        (None, Some(to)) => {
            Some(Relation::Reply(matrix_sdk::ruma::events::relation::Reply::new(InReplyTo::new(to.clone()))))
        }
        (None, None) => None,
    }
}

/// A reply's text and picture as one `m.image` whose caption is the text (the spec's media
/// captions, Matrix 1.10: with a `filename`, `body` and `formatted_body` are the caption), with the
/// text's pills and `m.mentions`. Matrix has no alt text beside a caption, so the picture's
/// description (a board's pieces, for screen readers and people who see no pictures) follows the
/// caption's HTML folded away (`<details>`), and the plain caption stays short.
pub fn captioned_picture(
    reply: &Reply,
    format: PictureFormat,
    bytes: &[u8],
    source: MediaSource,
) -> RoomMessageEventContent {
    let text = text_content(reply);
    let (body, mut formatted) = match text.msgtype {
        MessageType::Text(t) => (t.body, t.formatted),
        other => (other.body().to_string(), None),
    };
    if let (Some(html), Some(alt)) = (formatted.as_mut(), &reply.alt_text) {
        let summary = crate::tl!(reply.lang, "matrix-board");
        html.body.push_str(&format!("<details><summary>{}</summary>{}</details>", escape(&summary), escape(alt)));
    }
    let (width, height) = picture_size(format, bytes).unwrap_or((0, 0));
    let mut info = ImageInfo::new();
    info.width = Some(UInt::from(width));
    info.height = Some(UInt::from(height));
    info.size = UInt::new(bytes.len() as u64);
    info.mimetype = Some(picture_mime(format).to_string());
    let mut image = ImageMessageEventContent::new(body, source);
    image.formatted = formatted;
    image.filename = Some(format.file_name().to_string());
    image.info = Some(Box::new(info));
    let mut content = RoomMessageEventContent::new(MessageType::Image(image));
    content.mentions = text.mentions;
    content
}

/// Attachments follow the text into its thread (as a reply to the message just sent there).
fn attachment_reply(thread_root: &Option<OwnedEventId>, last: &Option<OwnedEventId>) -> Option<SdkReply> {
    thread_root.as_ref()?;
    let event_id = last.clone().or_else(|| thread_root.clone())?;
    Some(SdkReply {
        event_id,
        enforce_thread: EnforceThread::Threaded(ReplyWithinThread::No),
        add_mentions: AddMentions::No,
    })
}

/// The text of a reply: plain and HTML, pills for the notified users, the choices explained, the
/// text board where there is no picture; `m.mentions` lists exactly the notified users.
pub fn text_content(reply: &Reply) -> RoomMessageEventContent {
    let notify: Vec<&UserRef> = match reply.audience {
        Audience::Everyone => reply.notify.iter().collect(),
        Audience::Author | Audience::Only(_) => vec![],
    };
    let (mut plain, mut html) = mentions::render(&mentions::parts(&reply.text, &notify));
    if reply.picture().is_none()
        && let Some(board) = &reply.text_board
    {
        plain.push_str(&format!("\n{board}"));
        html.push_str(&format!("<pre><code>{}</code></pre>", escape(board)));
    }
    if let Some(url) = reply.web_url() {
        let line = crate::tl!(reply.lang, "web-game-link", url = url);
        plain.push_str(&format!("\n{line}"));
        html.push_str(&format!("<br>{}", escape(&line)));
    }
    if !reply.choices.is_empty() {
        let lines = choice_lines(&reply.choices, reply.lang);
        plain.push_str(&format!("\n{lines}"));
        html.push_str(&format!("<br>{}", escape(&lines)));
    }
    let html = html.replace('\n', "<br>");
    let ids: Vec<OwnedUserId> = notify.iter().filter_map(|u| UserId::parse(u.id.as_str()).ok()).collect();
    RoomMessageEventContent::text_html(plain, html).add_mentions(Mentions::with_user_ids(ids))
}

/// A prompt as its message carries it in [`PROMPT_FIELD`]:
/// `{"choices": [{"label": "Accept", "command": "accept #4", "for": {"id": "@bob:hs", "name": "bob"}}]}`.
#[derive(serde::Serialize, serde::Deserialize)]
struct PromptField {
    choices: Vec<ChoiceField>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct ChoiceField {
    #[serde(default)]
    label: String,
    /// The command as typed without prefix.
    command: String,
    /// Who alone may choose it (anyone when absent).
    #[serde(rename = "for", default)]
    for_user: Option<UserField>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct UserField {
    id: String,
    #[serde(default)]
    name: String,
}

/// The choices as a prompt message carries them (see [`PromptField`]).
pub fn prompt_json(choices: &[Choice]) -> serde_json::Value {
    let choices = choices
        .iter()
        .map(|c| ChoiceField {
            label: c.label.clone(),
            command: c.command.typed(""),
            for_user: c.for_user.as_ref().map(|u| UserField { id: u.id.clone(), name: u.name.clone() }),
        })
        .collect();
    serde_json::to_value(PromptField { choices }).unwrap_or_default()
}

/// The prompt a message's content carries, with the thread it is in.
fn prompt_of(content: &serde_json::Value) -> Option<Prompt> {
    let field = PromptField::deserialize(content.get(PROMPT_FIELD)?).ok()?;
    let mut choices = Vec::new();
    for c in field.choices {
        let command = crate::bot::command::parse(&c.command).ok()?;
        let for_user = c.for_user.map(|u| UserRef::new(u.id, u.name));
        choices.push(Choice {
            label: c.label,
            typed: command.typed("!"),
            command,
            style: Default::default(),
            for_user,
        });
    }
    let relation = &content["m.relates_to"];
    let thread = (relation["rel_type"] == "m.thread").then(|| relation["event_id"].as_str().map(str::to_string));
    Some(Prompt { choices, thread: thread.flatten() })
}

/// Most choices of a prompt whose first choices are offered as reactions (accept, decline and the
/// challenger's withdraw); a longer list (a secret bomb's fifteen pieces) is typed, since a reaction
/// key would pick a piece nobody named.
const MAX_REACTION_PROMPT: usize = 4;

/// Whether a prompt's first choices are offered as reactions.
fn reactable(choices: &[Choice]) -> bool {
    choices.len() <= MAX_REACTION_PROMPT
}

/// What each reaction means, and the typed form of every choice.
pub fn choice_lines(choices: &[Choice], lang: crate::i18n::Lang) -> String {
    use crate::tl;
    if !reactable(choices) {
        let typed: Vec<String> = choices.iter().map(|c| format!("{} ({})", c.typed, c.label)).collect();
        return tl!(lang, "matrix-type-one", choices = typed.join(" · "));
    }
    let parts: Vec<String> = choices
        .iter()
        .enumerate()
        .map(|(i, c)| match PROMPT_KEYS.get(i) {
            Some(key) => tl!(lang, "matrix-react-key", key = *key, label = c.label.as_str(), typed = c.typed.as_str()),
            None => tl!(lang, "matrix-type-choice", label = c.label.as_str(), typed = c.typed.as_str()),
        })
        .collect();
    tl!(lang, "matrix-react", choices = parts.join(" · "))
}

/// Width and height from a PNG's header.
fn picture_mime(format: PictureFormat) -> mime::Mime {
    match format {
        PictureFormat::Png => mime::IMAGE_PNG,
        PictureFormat::Gif => mime::IMAGE_GIF,
    }
}

/// Width and height of a picture from its header (PNG's IHDR, GIF's logical screen).
pub fn picture_size(format: PictureFormat, bytes: &[u8]) -> Option<(u32, u32)> {
    match format {
        PictureFormat::Png => png_size(bytes),
        PictureFormat::Gif => {
            let h = bytes.get(..10).filter(|h| h.starts_with(b"GIF8"))?;
            Some((u32::from(u16::from_le_bytes([h[6], h[7]])), u32::from(u16::from_le_bytes([h[8], h[9]]))))
        }
    }
}

pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[1..4] != b"PNG" {
        return None;
    }
    let w = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(png[20..24].try_into().ok()?);
    Some((w, h))
}

/// The greeting in a room just joined, in `lang`, its commands written with `prefix`.
fn greeting(lang: crate::i18n::Lang, prefix: &str) -> String {
    crate::tl!(lang, "matrix-greeting", p = prefix)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Command, Scope};

    /// The greeting writes commands with the configured prefix (before: `!` whatever it was).
    #[test]
    fn the_greeting_writes_commands_with_the_configured_prefix() {
        for lang in crate::i18n::Lang::ALL {
            let text = greeting(lang, "?");
            assert!(text.contains("?help") && text.contains("?lang"), "{text}");
            assert!(!text.contains("!help") && !text.contains("!lang"), "{text}");
        }
    }
    use matrix_sdk::ruma::events::room::message::MessageType;

    #[test]
    fn notified_users_get_pills_and_exactly_their_mentions() {
        let target = Target::Chat(Scope::chat("matrix", "!r:hs"));
        let mut reply = Reply::new(target, "@alice to move <now>");
        reply.notify = vec![UserRef::new("@alice:hs", "alice")];
        let content = text_content(&reply);
        let MessageType::Text(t) = &content.msgtype else { panic!() };
        let html = &t.formatted.as_ref().unwrap().body;
        assert!(html.starts_with("<a href=\"https://matrix.to/#/@alice:hs\">alice</a> to move &lt;now&gt;"), "{html}");
        let ids: Vec<String> = content.mentions.unwrap().user_ids.iter().map(|u| u.to_string()).collect();
        assert_eq!(ids, ["@alice:hs"]);
        reply.audience = Audience::Author;
        assert!(text_content(&reply).mentions.unwrap().user_ids.is_empty());
    }

    #[test]
    fn a_captioned_board_keeps_its_description_folded_in_the_caption() {
        let target = Target::Chat(Scope::chat("matrix", "!r:hs"));
        let mut reply = Reply::new(target, "Game #1: 1. e4 played by alice");
        reply.alt_text = Some("White: Ke1, Pe4 <last move>".into());
        let source = MediaSource::Plain("mxc://hs/board".into());
        let content = captioned_picture(&reply, PictureFormat::Png, b"a picture", source);
        let MessageType::Image(image) = &content.msgtype else { panic!("{content:?}") };
        assert_eq!(image.body, "Game #1: 1. e4 played by alice", "the plain caption is the text alone");
        let html = &image.formatted.as_ref().expect("an HTML caption").body;
        assert!(
            html.ends_with("<details><summary>the board</summary>White: Ke1, Pe4 &lt;last move&gt;</details>"),
            "{html}"
        );
        assert_eq!(image.filename.as_deref(), Some("board.png"));
    }

    #[test]
    fn a_game_answer_ends_with_the_link_to_its_page_where_there_is_one() {
        let target = Target::Chat(Scope::chat("matrix", "!r:hs"));
        let mut reply = Reply::new(target, "Game #1: 1. e4 played by alice");
        let card = crate::bot::GameCard {
            game_id: 1,
            variant: "Chess".into(),
            white: "alice".into(),
            black: "bob".into(),
            last_move: Some("1. e4".into()),
            to_move: None,
            deadline: None,
            result: None,
            web_url: None,
        };
        reply.card = Some(card.clone());
        let body = |reply: &Reply| {
            let MessageType::Text(t) = text_content(reply).msgtype else { panic!() };
            (t.body, t.formatted.map(|f| f.body).unwrap_or_default())
        };
        let (plain, html) = body(&reply);
        assert!(!plain.contains("Watch") && !html.contains("Watch"), "no page, no link: {plain}");
        let url = "https://chess.example.org/g/0123456789abcdef0123456789abcdef";
        reply.card = Some(crate::bot::GameCard { web_url: Some(url.into()), ..card });
        let (plain, html) = body(&reply);
        assert!(plain.ends_with(&format!("\nWatch: {url}")), "{plain}");
        assert!(html.ends_with(&format!("<br>Watch: {url}")), "{html}");
        let source = MediaSource::Plain("mxc://hs/board".into());
        let MessageType::Image(image) = captioned_picture(&reply, PictureFormat::Png, b"a picture", source).msgtype
        else {
            panic!()
        };
        assert!(image.body.ends_with(&format!("Watch: {url}")), "the board's caption too: {}", image.body);
    }

    #[test]
    fn a_prompt_survives_in_its_message() {
        let choice = |label: &str, command: Command, who: Option<UserRef>| Choice {
            label: label.into(),
            typed: command.typed("!"),
            command,
            style: Default::default(),
            for_user: who,
        };
        let bob = UserRef::new("@bob:hs", "bob");
        let choices = [
            choice("Accept", Command::Accept(Some(4)), Some(bob.clone())),
            choice("Decline", Command::Decline(Some(4)), None),
        ];
        let mut content = serde_json::json!({ "body": "Challenge #4", "m.relates_to": { "rel_type": "m.thread", "event_id": "$root" } });
        content[PROMPT_FIELD] = prompt_json(&choices);
        let prompt = prompt_of(&content).expect("a prompt");
        assert_eq!(prompt.choices, choices);
        assert_eq!(prompt.thread.as_deref(), Some("$root"));
        assert!(prompt_of(&serde_json::json!({ "body": "hello" })).is_none());
    }

    #[test]
    fn choices_are_explained() {
        let choice = |label: &str, typed: &str| Choice {
            label: label.into(),
            command: Command::Help(None),
            typed: typed.into(),
            style: Default::default(),
            for_user: None,
        };
        let text =
            choice_lines(&[choice("Accept", "!accept #1"), choice("Decline", "!decline #1")], Default::default());
        assert_eq!(text, "React ✅ Accept (or type !accept #1) · ❌ Decline (or type !decline #1)");
    }
}

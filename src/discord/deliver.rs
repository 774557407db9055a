//! Replies to Discord: a [`Reply`] becomes a message (text, an embed for the game card with the
//! board picture inside it, buttons, a PGN file), sent as the answer of the interaction it replies
//! to, as an edit of the message its slot names, or as a channel, thread or direct message.
//! Only the reply's `notify` users are ever pinged.

use super::redact::{describe, without_tokens};
use super::{permissions, split};
use crate::bot::{Audience, Choice, ChoiceStyle, CommandStyle, Receipt, Reply, Scope, Target};
use crate::host::{DeliveryError, FrontEnd};
use crate::tl;
use async_trait::async_trait;
use serenity::all::{
    AutoArchiveDuration, Builder, ButtonStyle, Cache, ChannelId, CreateActionRow, CreateAllowedMentions,
    CreateAttachment, CreateButton, CreateEmbed, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, CreateThread, EditAttachments, EditInteractionResponse,
    EditMessage, GuildId, Http, InteractionId, MessageId, Nonce, UserId,
};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Where an interaction's answer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nothing sent yet: the first reply is the interaction's response.
    Open,
    /// "Thinking…" shown (type 5): the first reply edits it.
    Deferred,
    /// A button press acknowledged without a message (type 6, nothing shown in the channel):
    /// replies are follow-ups.
    Acknowledged,
    /// Answered: further replies are follow-ups.
    Answered,
}

/// An interaction the core is working on.
pub struct Pending {
    pub id: InteractionId,
    pub token: String,
    pub answer: Answer,
    /// The channel (or thread) the interaction came from: only replies meant for it answer it.
    pub channel: ChannelId,
    /// Where a reply meant for another channel went (a game's thread), to tell the person.
    pub elsewhere: Option<ChannelId>,
    /// When the interaction came: its token answers for 15 minutes only.
    pub since: std::time::Instant,
    /// A button press (deferred without a public "thinking…").
    pub component: bool,
    /// A reply for everyone came of it (a button's offer is then settled).
    pub public: bool,
    /// The language of the person who acted (their client's locale), for the front end's own words.
    pub lang: crate::i18n::Lang,
    /// The Discord user id of the person who acted: only a reply for them alone may answer it
    /// privately.
    pub user: String,
    /// The chat is reached only through interactions ([`crate::bot::Scope::interaction_only`]).
    pub interaction_only: bool,
    /// The follow-ups made with its token: where the app is used through people's own
    /// installations only, Discord takes [`USER_INSTALL_FOLLOW_UPS`] at most.
    pub follow_ups: usize,
    /// A pressed offer's buttons, disabled, put on its message (UPDATE_MESSAGE, or an edit of
    /// `@original` after a deferred update) with the first answer for everyone: where the bot
    /// cannot edit the channel's messages itself.
    pub settle_offer: Option<Vec<CreateActionRow>>,
}

/// How many follow-ups Discord takes for an interaction authorized only by people's own
/// installations of the app (a chat reached only through interactions); more answer 400 with
/// [`MAX_FOLLOW_UPS_REACHED`].
pub const USER_INSTALL_FOLLOW_UPS: usize = 5;

/// Discord's error for a follow-up past [`USER_INSTALL_FOLLOW_UPS`].
const MAX_FOLLOW_UPS_REACHED: isize = 40094;

/// How long an interaction's token is used: Discord accepts follow-ups for 15 minutes; a reply
/// later than this (a slow AI move) is posted in the channel instead.
pub const TOKEN_LIFETIME: std::time::Duration = std::time::Duration::from_secs(14 * 60);

/// Interactions in progress by id; each behind an async lock so that the defer timer and a reply
/// never answer the same interaction twice.
pub type PendingMap = Mutex<HashMap<String, Arc<tokio::sync::Mutex<Pending>>>>;

/// The Discord front end the host delivers through.
pub struct DiscordFrontEnd {
    pub http: Arc<Http>,
    pub cache: Arc<Cache>,
    /// The permissions, threads and languages of the bot's servers.
    pub guilds: Arc<super::guilds::Guilds>,
    pub pending: Arc<PendingMap>,
    /// Typed messages in servers reach the bot (the message-content intent is on).
    pub message_content: bool,
    /// The slash commands' ids: the commands a reply names are sent as mentions.
    pub mentions: super::mentions::Shared,
}

/// Prefix of a button's custom id for a command sent when clicked.
pub const RUN: &str = "cb";
/// Prefix of a button's custom id for a command that asks for a confirmation first (resign).
pub const CONFIRM: &str = "ck";

/// `cb:<user id or empty>:<command as typed without prefix>`: at most 100 characters.
pub fn custom_id(prefix: &str, choice: &Choice) -> String {
    let user = choice.for_user.as_ref().map(|u| u.id.as_str()).unwrap_or("");
    let mut id = format!("{prefix}:{user}:{}", choice.command.typed(""));
    let mut end = id.len().min(100);
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    id.truncate(end);
    id
}

fn button(choice: &Choice) -> CreateButton {
    let (style, prefix) = match choice.style {
        ChoiceStyle::Primary => (ButtonStyle::Primary, RUN),
        ChoiceStyle::Secondary => (ButtonStyle::Secondary, RUN),
        ChoiceStyle::Danger => (ButtonStyle::Danger, CONFIRM),
    };
    CreateButton::new(custom_id(prefix, choice)).label(choice.label.clone()).style(style)
}

/// Buttons, five to a row (Discord's limit), at most five rows.
pub fn rows(choices: &[Choice]) -> Vec<CreateActionRow> {
    with_link(choices, None)
}

/// The choices' buttons and, after them, a link button (style 5: it opens `url` and sends
/// nothing to the bot) labelled `label`; five to a row, at most five rows (the link is left out
/// when twenty-five choices fill them).
fn with_link(choices: &[Choice], link: Option<(String, &str)>) -> Vec<CreateActionRow> {
    let mut buttons: Vec<CreateButton> = choices.iter().take(25).map(button).collect();
    if let Some((label, url)) = link.filter(|_| buttons.len() < 25) {
        buttons.push(CreateButton::new_link(url).label(label));
    }
    buttons.chunks(5).map(|row| CreateActionRow::Buttons(row.to_vec())).collect()
}

/// The parts of a Discord message, built once and poured into whichever builder the route needs.
struct Parts {
    content: String,
    embed: Option<CreateEmbed>,
    files: Vec<CreateAttachment>,
    rows: Vec<CreateActionRow>,
    mentions: CreateAllowedMentions,
    ephemeral: bool,
}

/// The messages' parts of `reply`, the commands its text names written as `mentions` of them.
fn parts(reply: &Reply, mentions: &super::mentions::Shared) -> Parts {
    let ephemeral = reply.audience.is_personal();
    let pinged: Vec<UserId> = if ephemeral {
        vec![]
    } else {
        reply.notify.iter().filter_map(|u| u.id.parse::<u64>().ok()).map(UserId::new).collect()
    };
    let mut content = String::new();
    for u in &pinged {
        let tag = format!("<@{u}>");
        if !reply.text.contains(&tag) {
            content.push_str(&tag);
            content.push(' ');
        }
    }
    content.push_str(&super::mentions::rewrite(mentions, &reply.text));
    if content.trim().is_empty() {
        content = "…".into();
    }
    let mut files = Vec::new();
    let picture = reply.picture();
    if let Some((format, bytes)) = picture {
        // A `.gif` attachment plays inline; a `.png` shows as the picture.
        let mut a = CreateAttachment::bytes(bytes.to_vec(), format.file_name());
        if let Some(alt) = &reply.alt_text {
            a = a.description(alt.chars().take(1024).collect::<String>());
        }
        files.push(a);
    }
    if let Some(f) = &reply.file {
        files.push(CreateAttachment::bytes(f.bytes.clone(), f.name.clone()));
    }
    let lang = reply.lang;
    let embed = reply.card.as_ref().map(|card| {
        let mut e = CreateEmbed::new()
            .title(split::clamp(
                &tl!(lang, "embed-title", id = card.game_id, variant = card.variant.as_str()),
                split::EMBED_TITLE,
            ))
            .field(tl!(lang, "embed-white"), split::clamp(&card.white, split::FIELD_VALUE), true)
            .field(tl!(lang, "embed-black"), split::clamp(&card.black, split::FIELD_VALUE), true);
        if let Some(m) = &card.last_move {
            e = e.field(tl!(lang, "embed-move"), m.clone(), true);
        }
        if let Some(u) = &card.to_move {
            let who = if u.id.parse::<u64>().is_ok() { format!("<@{}>", u.id) } else { u.name.clone() };
            e = e.field(tl!(lang, "embed-to-move"), who, true);
        }
        if let Some(t) = card.deadline {
            e = e.field(tl!(lang, "embed-deadline"), format!("<t:{t}:R>"), true);
        }
        if let Some(r) = &card.result {
            e = e.field(tl!(lang, "embed-result"), split::clamp(r, split::FIELD_VALUE), false);
        }
        if let Some((format, _)) = picture {
            e = e.image(format!("attachment://{}", format.file_name()));
        }
        // The title links to the game's web page (where the community opted in).
        if let Some(url) = &card.web_url {
            e = e.url(url.clone());
        }
        e
    });
    let mentions = CreateAllowedMentions::new().everyone(false).empty_roles().replied_user(false).users(pinged);
    // A game's web page, where its community opted in: a "View" link button under the message.
    let link = reply.web_url().map(|url| (tl!(lang, "discord-view"), url));
    Parts { content, embed, files, rows: with_link(&reply.choices, link), mentions, ephemeral }
}

/// Discord's JSON error codes that say the chat is gone or closed to the bot: Unknown Channel,
/// Unknown Guild, Missing Access (the bot was removed or can no longer see the channel).
const GONE: &[isize] = &[10003, 10004, 50001];
/// Codes that forbid this post: Missing Permissions, a locked or archived thread the bot may not
/// reopen, a thread locked by a moderator.
const FORBIDDEN: &[isize] = &[50013, 50083, 160005];
/// Cannot send messages to this user (closed DMs).
const DMS_CLOSED: isize = 50007;

/// Classifies a failed request by its HTTP status first (a 429 or 5xx body may not even decode:
/// behind a proxy Discord's 429 has no `code`, and serenity reports code -1), then by Discord's
/// error code.
pub fn classify(e: &serenity::Error) -> DeliveryError {
    use serenity::all::HttpError;
    // The one place a Discord error becomes text for the outbox: without tokens.
    let text = describe(e);
    let serenity::Error::Http(http) = e else {
        return DeliveryError::Failed(format!("Discord refused the message: {text}"));
    };
    match http {
        HttpError::UnsuccessfulRequest(r) => {
            let status = r.status_code.as_u16();
            let code = r.error.code;
            let detail = format!("Discord answered {status} ({code}: {})", without_tokens(&r.error.message));
            if status == 429 || status == 408 || status >= 500 {
                DeliveryError::transient(detail)
            } else if code == DMS_CLOSED {
                DeliveryError::DirectMessagesClosed
            } else if GONE.contains(&code) {
                DeliveryError::ChatGone(detail)
            } else if FORBIDDEN.contains(&code) || status == 403 {
                DeliveryError::Forbidden(detail)
            } else {
                DeliveryError::Failed(detail)
            }
        }
        // Discord kept the request past the client's timeout, or never answered: try again.
        HttpError::Request(r) if r.is_timeout() => DeliveryError::transient(format!("Discord timed out: {text}")),
        // No answer at all (connection refused or reset): try again.
        HttpError::Request(_) => DeliveryError::transient(format!("Discord did not answer: {text}")),
        _ => DeliveryError::Failed(format!("Discord refused the message: {text}")),
    }
}

fn failed(e: serenity::Error) -> DeliveryError {
    classify(&e)
}

/// What Discord answers (with 401) a follow-up or an edit made with an interaction's token after
/// its 15 minutes.
const INVALID_WEBHOOK_TOKEN: isize = 50027;

/// Whether an interaction's token no longer answers: unknown (Unknown Interaction, Unknown
/// Webhook, any 404 of an interaction route) or expired (401 Invalid Webhook Token). Its reply then
/// goes to the channel instead, or by DM when it is one person's.
fn interaction_expired(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r))
        if [401, 404].contains(&r.status_code.as_u16()) || [10062, 10015, INVALID_WEBHOOK_TOKEN].contains(&r.error.code))
}

/// Whether Discord refused a follow-up because the interaction has had all it may have.
fn follow_ups_used_up(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r))
        if r.error.code == MAX_FOLLOW_UPS_REACHED)
}

/// The attachments of an edit that brings `files`: they replace the message's; an edit without
/// files sends none, since Discord reads any `attachments` list, an empty one too, as the files to
/// keep, and would remove the picture the message shows.
fn replacing(files: Vec<CreateAttachment>) -> Option<EditAttachments> {
    (!files.is_empty()).then(|| files.into_iter().fold(EditAttachments::new(), EditAttachments::add))
}

fn id_of(s: &str) -> Result<u64, DeliveryError> {
    s.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| DeliveryError::Failed(format!("not a Discord id: {s}")))
}

impl DiscordFrontEnd {
    fn pending(&self, reply: &Reply) -> Option<Arc<tokio::sync::Mutex<Pending>>> {
        let id = reply.in_reply_to.as_ref()?;
        self.pending.lock().ok()?.get(id).cloned()
    }

    /// Whether an interaction's token is too old to answer with.
    fn expired(p: &Pending) -> bool {
        p.since.elapsed() > TOKEN_LIFETIME
    }

    /// Answers an interaction (response, edit of "thinking…", or follow-up).
    async fn answer(&self, p: &mut Pending, reply: &Reply) -> Result<Option<MessageId>, serenity::Error> {
        let m = parts(reply, &self.mentions);
        let http = self.http.as_ref();
        if !m.ephemeral
            && let Some(rows) = p.settle_offer.take()
        {
            // The pressed offer's buttons first, through the press itself; the answer follows.
            match p.answer {
                Answer::Open => {
                    // Only the buttons: serenity's builder always adds `attachments: []`, which
                    // Discord reads as "remove every file" (the offer's picture with them).
                    let update = serde_json::json!({ "type": 7, "data": { "components": rows } });
                    http.create_interaction_response(p.id, &p.token, &update, Vec::new()).await?;
                    p.answer = Answer::Acknowledged;
                }
                Answer::Acknowledged => {
                    // After a deferred update, `@original` is the pressed message.
                    EditInteractionResponse::new().components(rows).execute(http, &p.token).await?;
                }
                Answer::Deferred | Answer::Answered => {}
            }
        }
        let want_id = reply.slot.is_some() || reply.new_thread.is_some();
        match p.answer {
            Answer::Open => {
                let mut b = CreateInteractionResponseMessage::new()
                    .content(m.content)
                    .ephemeral(m.ephemeral)
                    .components(m.rows)
                    .allowed_mentions(m.mentions)
                    .files(m.files);
                if let Some(e) = m.embed {
                    b = b.embed(e);
                }
                CreateInteractionResponse::Message(b).execute(http, (p.id, &p.token)).await?;
                p.answer = Answer::Answered;
                if want_id {
                    let msg = http.get_original_interaction_response(&p.token).await?;
                    return Ok(Some(msg.id));
                }
                Ok(None)
            }
            Answer::Deferred if !m.ephemeral => {
                let mut b =
                    EditInteractionResponse::new().content(m.content).components(m.rows).allowed_mentions(m.mentions);
                if let Some(files) = replacing(m.files) {
                    b = b.attachments(files);
                }
                if let Some(e) = m.embed {
                    b = b.embed(e);
                }
                let msg = b.execute(http, &p.token).await?;
                p.answer = Answer::Answered;
                Ok(Some(msg.id))
            }
            Answer::Deferred | Answer::Acknowledged | Answer::Answered => {
                if p.answer == Answer::Deferred {
                    // "Thinking…" was public; an answer for the author alone replaces it privately.
                    let _ = http.delete_original_interaction_response(&p.token).await;
                    p.answer = Answer::Answered;
                }
                let mut b = CreateInteractionResponseFollowup::new()
                    .content(m.content)
                    .ephemeral(m.ephemeral)
                    .components(m.rows)
                    .allowed_mentions(m.mentions)
                    .files(m.files);
                if let Some(e) = m.embed {
                    b = b.embed(e);
                }
                let msg = b.execute(http, (None, &p.token)).await?;
                p.follow_ups += 1;
                Ok(Some(msg.id))
            }
        }
    }

    /// Checks the bot may post a game in the chat, and returns the picture permissions it lacks
    /// there (guild channels known to [`super::guilds::Guilds`] only; one lookup for both).
    fn check_permissions(&self, scope: &Scope) -> Result<Option<serenity::all::Permissions>, DeliveryError> {
        let Some(guild) = scope.community.as_deref().and_then(|g| g.parse::<u64>().ok()) else { return Ok(None) };
        let Ok(chat) = id_of(&scope.chat) else { return Ok(None) };
        let me = self.cache.current_user().id;
        let Some(have) = self.guilds.in_channel(GuildId::new(guild), chat, me) else {
            return Ok(None);
        };
        if let Some(lacking) = permissions::missing(have, permissions::to_post(scope.thread.is_some())) {
            return Err(DeliveryError::Forbidden(format!("missing permissions in <#{chat}>: {lacking}")));
        }
        Ok(Some(permissions::for_pictures() - have).filter(|lacking| !lacking.is_empty()))
    }

    /// Posts in a channel; where the bot may not attach files or embed links there (known from the
    /// cache, or learnt from Discord's 403 Missing Permissions), the reply goes out without its
    /// picture, card and file, with one line saying why.
    async fn post(
        &self,
        channel: ChannelId,
        reply: &Reply,
        piece: usize,
        lacking: Option<serenity::all::Permissions>,
    ) -> Result<MessageId, DeliveryError> {
        let shows = |r: &Reply| r.picture().is_some() || r.card.is_some() || r.file.is_some();
        if let Some(lacking) = lacking.filter(|_| shows(reply)) {
            return self.post_once(channel, &without_pictures(reply, lacking), piece).await.map_err(failed);
        }
        match self.post_once(channel, reply, piece).await {
            Err(e) if missing_permissions(&e) && shows(reply) => {
                tracing::info!(%channel, "a picture was refused ({}); posting without it", describe(&e));
                let plain = without_pictures(reply, permissions::for_pictures());
                self.post_once(channel, &plain, piece).await.map_err(failed)
            }
            other => other.map_err(failed),
        }
    }

    /// Sends (or, for a slot, edits) a message in a channel; `piece` numbers the messages of a
    /// reply split for length. Discord notifies mentions in new messages only, never in edits: a
    /// slot's reply that pings someone (the AI's move replacing "thinking…", the player to move
    /// pinged) is posted anew and the old message deleted.
    async fn post_once(&self, channel: ChannelId, reply: &Reply, piece: usize) -> Result<MessageId, serenity::Error> {
        let m = parts(reply, &self.mentions);
        let http = self.http.as_ref();
        let previous = reply.slot.as_ref().and_then(|s| s.previous.as_deref()).and_then(|p| p.parse::<u64>().ok());
        let pings = !reply.audience.is_personal() && !reply.notify.is_empty();
        let replaced = previous.filter(|_| pings);
        if let Some(prev) = previous.filter(|_| !pings) {
            let mut b = EditMessage::new()
                .content(m.content.clone())
                .components(m.rows.clone())
                .allowed_mentions(m.mentions.clone());
            if let Some(files) = replacing(m.files.clone()) {
                b = b.attachments(files);
            }
            if let Some(e) = m.embed.clone() {
                b = b.embed(e);
            }
            match channel.edit_message(http, MessageId::new(prev), b).await {
                Ok(msg) => return Ok(msg.id),
                // A passing failure (429, 5xx, timeout): the edit is tried again later, never
                // replaced by a second message.
                Err(e) if matches!(classify(&e), DeliveryError::Transient { .. }) => return Err(e),
                // The old message is gone (404), or may no longer be edited: send anew.
                Err(e) => tracing::info!("slot message not edited ({}); sending a new one", describe(&e)),
            }
        }
        let mut b =
            CreateMessage::new().content(m.content).components(m.rows).allowed_mentions(m.mentions).add_files(m.files);
        if let Some(id) = reply.outbox_id {
            // Discord returns the message already made with this nonce instead of a second one:
            // a retry after a lost answer or a crash never posts twice.
            let nonce = if piece == 0 { format!("cb{id}") } else { format!("cb{id}.{piece}") };
            b = b.nonce(Nonce::String(nonce)).enforce_nonce(true);
        }
        if let Some(e) = m.embed {
            b = b.embed(e);
        }
        if m.ephemeral
            && let Some(source) = reply.in_reply_to.as_ref().and_then(|s| s.parse::<u64>().ok())
        {
            // A text command's private answer: a reply to it that pings no one.
            b = b.reference_message((channel, MessageId::new(source)));
        }
        let sent = channel.send_message(http, b).await?.id;
        if let Some(prev) = replaced
            && let Err(e) = channel.delete_message(http, MessageId::new(prev)).await
        {
            tracing::info!(%channel, "the message replaced by a new one stays ({})", describe(&e));
        }
        Ok(sent)
    }
}

/// Whether Discord refused a request for Missing Permissions (50013).
fn missing_permissions(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r)) if r.error.code == 50013)
}

/// `reply` without its picture, card and file, and with a line saying which permissions they need.
fn without_pictures(reply: &Reply, lacking: serenity::all::Permissions) -> Reply {
    let mut plain = reply.clone();
    plain.png = None;
    plain.animation = None;
    plain.drawing = None;
    plain.alt_text = None;
    plain.card = None;
    plain.file = None;
    plain.text.push('\n');
    let names = permissions::names_in(lacking, reply.lang);
    plain.text.push_str(&tl!(reply.lang, "discord-pictures-left-out", permissions = names));
    plain
}

#[async_trait]
impl FrontEnd for DiscordFrontEnd {
    fn platform(&self) -> &str {
        "discord"
    }

    fn has_direct_messages(&self) -> bool {
        true
    }

    fn command_style(&self) -> CommandStyle {
        CommandStyle { slash: true, typed_in_communities: self.message_content }
    }

    async fn deliver(&self, reply: &Reply) -> Result<Receipt, DeliveryError> {
        let mut receipt = Receipt::default();
        let mut shows_once = true;
        // The last piece, which carries the card, picture, buttons and slot, is the receipt's.
        for (piece, part) in pieces_of(reply, &self.mentions).iter().enumerate() {
            receipt = self.deliver_piece(part, piece).await?;
            shows_once &= receipt.shows_once_if_repeated;
        }
        receipt.shows_once_if_repeated = shows_once;
        Ok(receipt)
    }
}

/// A reply as the messages Discord takes: one, or for a text over [`split::CONTENT`] several,
/// split at paragraphs or lines. The first pings whom the reply pings; the others only whom
/// their own text names; the last carries the card, picture, file, buttons, slot and thread. The
/// lengths are those of the text as sent, its commands written as `mentions` (longer than their
/// names; [`parts`] writes them, and leaves a text already written so as it is).
fn pieces_of<'a>(reply: &'a Reply, mentions: &super::mentions::Shared) -> Vec<std::borrow::Cow<'a, Reply>> {
    // Room for the pings `parts` writes before a text that does not name them.
    let tags: usize =
        reply.notify.iter().filter(|u| !reply.text.contains(&format!("<@{}>", u.id))).map(|u| u.id.len() + 4).sum();
    let sent = super::mentions::rewrite(mentions, &reply.text);
    let texts = split::pieces(&sent, split::CONTENT.saturating_sub(tags).max(split::CONTENT / 2));
    if texts.len() == 1 {
        // The usual case: the reply itself, its picture not copied.
        return vec![std::borrow::Cow::Borrowed(reply)];
    }
    let last = texts.len() - 1;
    let mut out = Vec::with_capacity(texts.len());
    for (i, text) in texts.into_iter().enumerate() {
        let mut piece = if i == last {
            reply.clone()
        } else {
            Reply {
                audience: reply.audience.clone(),
                in_reply_to: reply.in_reply_to.clone(),
                outbox_id: reply.outbox_id,
                lang: reply.lang,
                ..Reply::new(reply.target.clone(), String::new())
            }
        };
        piece.notify = if i == 0 {
            reply.notify.clone()
        } else {
            reply.notify.iter().filter(|u| text.contains(&format!("<@{}>", u.id))).cloned().collect()
        };
        piece.text = text;
        out.push(std::borrow::Cow::Owned(piece));
    }
    out
}

impl DiscordFrontEnd {
    /// The open interaction a reply for `channel` goes with: the one it answers, else the latest
    /// one from that channel (what waited for an interaction there goes with the next one).
    async fn interaction_in(&self, channel: ChannelId, reply: &Reply) -> Option<tokio::sync::OwnedMutexGuard<Pending>> {
        let own = self.pending(reply);
        if let Some(p) = own.clone().map(tokio::sync::Mutex::lock_owned) {
            let p = p.await;
            if p.channel == channel && !Self::expired(&p) {
                return Some(p);
            }
        }
        let others: Vec<_> = self.pending.lock().ok()?.values().cloned().collect();
        let mut best: Option<tokio::sync::OwnedMutexGuard<Pending>> = None;
        for entry in others {
            if own.as_ref().is_some_and(|o| Arc::ptr_eq(o, &entry)) {
                continue;
            }
            let p = entry.lock_owned().await;
            if p.channel == channel && !Self::expired(&p) && best.as_ref().is_none_or(|b| p.since > b.since) {
                best = Some(p);
            }
        }
        best
    }

    /// A reply for a chat reached only through interactions: answered through an open interaction
    /// from it (a slot's message edited through that interaction's token where it made it), never
    /// through the channel, where the bot has no access. Without one it waits for the next
    /// ([`DeliveryError::NeedsInteraction`]).
    async fn through_interaction(&self, channel: ChannelId, reply: &Reply) -> Result<Option<MessageId>, DeliveryError> {
        let Some(mut p) = self.interaction_in(channel, reply).await else {
            return Err(DeliveryError::NeedsInteraction);
        };
        if reply.audience.is_personal() && reply.in_reply_to.as_deref() != Some(p.id.to_string().as_str()) {
            // A quiet answer to someone whose interaction is over: never shown to another person.
            tracing::info!(%channel, "a private answer dropped: its interaction is over");
            return Ok(None);
        }
        let previous = reply.slot.as_ref().and_then(|s| s.previous.as_deref()).and_then(|m| m.parse::<u64>().ok());
        let pings = !reply.audience.is_personal() && !reply.notify.is_empty();
        // What waited for this interaction may be more than Discord lets it carry: the rest
        // waits for the next one (an edit of a message the token made is not a follow-up).
        let follow_up = match p.answer {
            Answer::Open => false,
            Answer::Deferred => reply.audience.is_personal(),
            Answer::Acknowledged | Answer::Answered => previous.is_none() || pings,
        };
        if follow_up && p.follow_ups >= USER_INSTALL_FOLLOW_UPS {
            return Err(DeliveryError::NeedsInteraction);
        }
        p.public |= !reply.audience.is_personal();
        let http = self.http.as_ref();
        let sent = match previous {
            Some(prev) if !pings && p.answer != Answer::Open => {
                let m = parts(reply, &self.mentions);
                let mut b = CreateInteractionResponseFollowup::new()
                    .content(m.content)
                    .components(m.rows)
                    .allowed_mentions(m.mentions)
                    .files(m.files);
                if let Some(e) = m.embed {
                    b = b.embed(e);
                }
                match b.execute(http, (Some(MessageId::new(prev)), &p.token)).await {
                    Ok(msg) => Ok(Some(msg.id)),
                    Err(e) if matches!(classify(&e), DeliveryError::Transient { .. }) => Err(e),
                    // Made through another interaction (or gone): sent anew.
                    Err(e) => {
                        tracing::info!("slot message not edited ({}); sending a new one", describe(&e));
                        self.answer(&mut p, reply).await
                    }
                }
            }
            _ => {
                let sent = self.answer(&mut p, reply).await;
                // A ping is heard only in a new message: the old one goes (where this token made it).
                if let (Ok(_), Some(prev)) = (&sent, previous.filter(|_| pings)) {
                    let _ = http.delete_followup_message(&p.token, MessageId::new(prev)).await;
                }
                sent
            }
        };
        match sent {
            Ok(m) => Ok(m),
            Err(e) if interaction_expired(&e) => {
                tracing::info!("interaction no longer answers ({}); the reply waits for the next", describe(&e));
                p.answer = Answer::Answered;
                Err(DeliveryError::NeedsInteraction)
            }
            Err(e) if follow_ups_used_up(&e) => {
                tracing::info!("the interaction has had all its follow-ups; the reply waits for the next");
                p.follow_ups = USER_INSTALL_FOLLOW_UPS;
                Err(DeliveryError::NeedsInteraction)
            }
            Err(e) => Err(failed(e)),
        }
    }

    /// Delivers one message of a reply (see [`pieces_of`]).
    async fn deliver_piece(&self, reply: &Reply, piece: usize) -> Result<Receipt, DeliveryError> {
        let mut receipt = Receipt::default();
        // Posted or edited in a channel or direct messages, not through an interaction: made again
        // with the row's nonce, it shows once.
        let mut posted = false;
        let (channel, message) = match &reply.target {
            Target::Direct { user, .. } => {
                // One person's own open interaction is answered privately (ephemeral): nobody
                // else reads it. Otherwise, and if the interaction no longer answers, their DMs;
                // a message that stands alone (a prompt) always goes there.
                if let Audience::Only(reader) = &reply.audience
                    && reader.id == user.id
                    && !reply.stands_alone
                    && let Some(p) = self.pending(reply)
                {
                    let mut p = p.lock_owned().await;
                    if p.user == user.id && !Self::expired(&p) {
                        match self.answer(&mut p, reply).await {
                            Ok(m) => {
                                receipt.message_id = m.map(|m| m.to_string());
                                return Ok(receipt);
                            }
                            Err(e) if interaction_expired(&e) => {
                                tracing::info!("interaction no longer answers ({e}); a private answer goes by DM");
                                p.answer = Answer::Answered;
                            }
                            Err(e) => return Err(failed(e)),
                        }
                    }
                }
                let user = UserId::new(id_of(&user.id)?);
                let dm = user.create_dm_channel(self.http.as_ref()).await.map_err(failed)?;
                posted = true;
                (dm.id, self.post(dm.id, reply, piece, None).await?)
            }
            Target::Chat(scope) if scope.interaction_only => {
                let channel = ChannelId::new(id_of(&scope.chat)?);
                receipt.message_id = self.through_interaction(channel, reply).await?.map(|m| m.to_string());
                return Ok(receipt);
            }
            Target::Chat(scope) => {
                let pending =
                    if reply.slot.as_ref().is_some_and(|s| s.previous.is_some()) { None } else { self.pending(reply) };
                let channel = ChannelId::new(id_of(scope.thread.as_deref().unwrap_or(&scope.chat))?);
                let mut pending = match pending {
                    Some(p) => Some(p.lock_owned().await),
                    None => None,
                };
                let mut elsewhere = None;
                if let Some(p) = pending.take() {
                    if p.channel == channel {
                        pending = Some(p);
                    } else {
                        // Meant for another channel (a game's own thread): posted there, and the
                        // interaction is told where when it closes — once the post went through.
                        elsewhere = Some(p);
                    }
                }
                let public = !reply.audience.is_personal();
                let answered = match pending {
                    Some(mut p) if !Self::expired(&p) => {
                        p.public |= public;
                        match self.answer(&mut p, reply).await {
                            Err(e) if interaction_expired(&e) => {
                                tracing::info!(
                                    "interaction no longer answers ({}); posting in the channel",
                                    describe(&e)
                                );
                                p.answer = Answer::Answered;
                                drop(p);
                                let lacking = self.check_permissions(scope)?;
                                posted = true;
                                Some(self.post(channel, reply, piece, lacking).await?)
                            }
                            other => other.map_err(failed)?,
                        }
                    }
                    _ => {
                        let lacking = self.check_permissions(scope)?;
                        let message = self.post(channel, reply, piece, lacking).await?;
                        posted = true;
                        if let Some(mut p) = elsewhere {
                            p.elsewhere.get_or_insert(channel);
                            p.public |= public;
                        }
                        Some(message)
                    }
                };
                match answered {
                    Some(m) => (channel, m),
                    None => {
                        receipt.message_id = None;
                        return Ok(receipt);
                    }
                }
            }
        };
        receipt.message_id = Some(message.to_string());
        receipt.shows_once_if_repeated = posted && reply.outbox_id.is_some() && reply.new_thread.is_none();
        if let Some(t) = &reply.new_thread {
            let name: String = t.title.chars().take(100).collect();
            // The longest auto-archive Discord allows (a week): a correspondence game's thread
            // would otherwise be archived between two moves a day apart.
            let thread = CreateThread::new(name).auto_archive_duration(AutoArchiveDuration::OneWeek);
            match channel.create_thread_from_message(self.http.as_ref(), message, thread).await {
                Ok(thread) => receipt.thread_id = Some(thread.id.to_string()),
                Err(e) => tracing::warn!(game = t.game_id, "thread not opened: {}", describe(&e)),
            }
        }
        Ok(receipt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Command, UserRef};

    #[test]
    fn custom_ids_carry_the_command_and_fit() {
        let choice = Choice {
            label: "Accept".into(),
            command: Command::Accept(Some(4)),
            typed: "!accept #4".into(),
            style: ChoiceStyle::Primary,
            for_user: Some(UserRef::new("123456789012345678", "bob")),
        };
        assert_eq!(custom_id(RUN, &choice), "cb:123456789012345678:accept #4");
        let long = Choice { command: Command::Move { game: Some(1), text: "x".repeat(200) }, ..choice.clone() };
        assert!(custom_id(RUN, &long).len() <= 100);
        // Cut at a character's edge, never inside one.
        let wide = Choice { command: Command::Move { game: Some(1), text: "é".repeat(200) }, ..choice };
        let id = custom_id(RUN, &wide);
        assert!(id.len() <= 100 && id.ends_with('é'), "{id}");
    }

    fn choices(n: usize) -> Vec<Choice> {
        (0..n)
            .map(|i| Choice {
                label: format!("c{i}"),
                command: Command::Accept(Some(i as i64)),
                typed: String::new(),
                style: ChoiceStyle::Secondary,
                for_user: None,
            })
            .collect()
    }

    /// Each row's buttons as (style, custom id or address).
    fn shape(rows: Vec<CreateActionRow>) -> Vec<Vec<(u64, String)>> {
        let json = serde_json::to_value(rows).unwrap();
        let rows = json.as_array().unwrap();
        rows.iter()
            .map(|r| {
                let buttons = r["components"].as_array().unwrap();
                buttons
                    .iter()
                    .map(|b| {
                        let key = b["custom_id"].as_str().or(b["url"].as_str()).unwrap_or_default();
                        (b["style"].as_u64().unwrap(), key.to_string())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_link_button_comes_after_the_choices_where_there_is_room() {
        let link = || Some(("View".to_string(), "https://chess.example.org/g/ab"));
        let three = shape(with_link(&choices(3), link()));
        assert_eq!(three.len(), 1);
        assert_eq!(three[0].len(), 4);
        assert_eq!(three[0][3], (5, "https://chess.example.org/g/ab".to_string()));
        let five = shape(with_link(&choices(5), link()));
        assert_eq!(five.iter().map(Vec::len).collect::<Vec<_>>(), vec![5, 1], "a row of its own");
        assert_eq!(five[1][0].0, 5);
        let full = shape(with_link(&choices(25), link()));
        assert_eq!(full.iter().map(Vec::len).collect::<Vec<_>>(), vec![5; 5]);
        assert!(full.iter().flatten().all(|(style, _)| *style != 5), "no room: the embed's title still links");
        assert_eq!(shape(with_link(&choices(30), None)).len(), 5, "never more than five rows");
        assert_eq!(shape(with_link(&[], link())), vec![vec![(5, "https://chess.example.org/g/ab".to_string())]]);
    }
}

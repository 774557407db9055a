//! The contract between front ends and the core: what comes in ([`Input`]: a text line or a typed
//! [`Command`], with its [`Scope`], author and platform event id) and what goes out ([`Reply`]s,
//! each naming its [`Target`], and [`AiJob`]s for the host's AI pool).
//!
//! Nothing here knows a platform: a Discord guild, a Matrix space and the console all become a
//! [`Scope`]; a button, a reaction and a slash command all become [`Body::Command`].

use super::command::Command;
use crate::rules::Game;

/// Someone on a chat platform.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UserRef {
    /// The platform's user id.
    pub id: String,
    /// Display name.
    pub name: String,
}

impl UserRef {
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> UserRef {
        UserRef { id: id.into(), name: name.into() }
    }
}

/// Where something is said: platform, community (Discord guild, Matrix space or room; none in a
/// direct chat or the console), chat, and thread where the platform has one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Scope {
    /// `console`, `discord`, `matrix`, ...
    pub platform: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub community: Option<String>,
    pub chat: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    /// A direct chat between one person and the bot.
    pub direct: bool,
    /// The bot can reach this chat only through the interactions people start there: an app
    /// installed to a person's account and used where the bot is no member (a group DM, a DM
    /// between two people, a server without the bot). Every reply goes with one of them; what the
    /// bot would say on its own (a reminder, a timeout) waits for the next one, or goes to the
    /// players' direct messages; ladders, tournaments and threads are not offered there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interaction_only: bool,
}

/// How people give the bot commands on a platform, so that texts, prompts and help name what
/// works where they are read: typed commands with the chat's prefix (`!accept`), or a platform's
/// own commands and buttons (Discord's `/accept` and the Accept button) where typed text does not
/// reach the bot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommandStyle {
    /// The platform has slash commands and buttons.
    pub slash: bool,
    /// Typed commands reach the bot in community chats (on Discord: the message-content
    /// intent). In direct chats they always do.
    pub typed_in_communities: bool,
}

impl CommandStyle {
    /// Typed commands everywhere (the console, Matrix): the default.
    pub const TYPED: CommandStyle = CommandStyle { slash: false, typed_in_communities: true };

    /// Whether commands said in `scope` are written as slash commands rather than typed.
    pub fn slash_in(&self, scope: &Scope) -> bool {
        self.slash && !scope.direct && scope.community.is_some() && !self.typed_in_communities
    }
}

impl Scope {
    /// A chat in no community (the console, tests).
    pub fn chat(platform: impl Into<String>, chat: impl Into<String>) -> Scope {
        Scope { platform: platform.into(), chat: chat.into(), ..Scope::default() }
    }

    /// The same scope inside a community.
    pub fn in_community(mut self, community: impl Into<String>) -> Scope {
        self.community = Some(community.into());
        self
    }

    /// The same chat without its thread.
    pub fn without_thread(&self) -> Scope {
        Scope { thread: None, ..self.clone() }
    }
}

/// What was said: a text line as typed, or a command already typed by the platform (a slash
/// command, a button, a reaction).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    Text(String),
    Command(Command),
}

/// One event from a front end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub scope: Scope,
    pub author: UserRef,
    pub body: Body,
    /// Users mentioned, in order (a slash command's user options come here too).
    pub mentions: Vec<UserRef>,
    /// The platform's id of the event; a redelivered event (same id) is answered once.
    pub event_id: Option<String>,
    /// The author administers the community (Discord: Manage Server; Matrix: power level 50 or more).
    /// Front ends without communities (the console) pass `true`.
    pub author_is_admin: bool,
    /// The author's own language as their client reports it (Discord's interaction `locale`,
    /// `tr`, `en-US`): what only they read is in it unless they chose a language with `lang`.
    pub locale: Option<String>,
    /// The community's language as the platform reports it (Discord's guild `preferred_locale`):
    /// what the chat reads is in it unless the chat or the community chose one.
    pub chat_locale: Option<String>,
    /// How it was sent ([`Via::Typed`] unless the front end says otherwise).
    pub via: Via,
}

impl Input {
    /// A typed text line.
    pub fn text(scope: Scope, author: UserRef, text: impl Into<String>) -> Input {
        Input {
            scope,
            author,
            body: Body::Text(text.into()),
            mentions: vec![],
            event_id: None,
            author_is_admin: false,
            locale: None,
            chat_locale: None,
            via: Via::Typed,
        }
    }

    /// A typed command (button, reaction, slash command).
    pub fn command(scope: Scope, author: UserRef, command: Command) -> Input {
        Input { body: Body::Command(command), ..Input::text(scope, author, "") }
    }

    /// `rest`, said in the chat after the bot's name ([`strip_address`]): a command without the
    /// prefix where it reads as one, else its text (answered with what is wrong), sent
    /// [`Via::Addressed`].
    pub fn addressed(scope: Scope, author: UserRef, rest: &str) -> Input {
        let input = match super::command::parse(rest) {
            Ok(c) => Input::command(scope, author, c),
            Err(_) => Input::text(scope, author, rest),
        };
        input.via(Via::Addressed)
    }

    pub fn with_mentions(mut self, mentions: Vec<UserRef>) -> Input {
        self.mentions = mentions;
        self
    }

    pub fn with_event_id(mut self, id: impl Into<String>) -> Input {
        self.event_id = Some(id.into());
        self
    }

    /// The author's client locale and the community's preferred one, as the platform reports them.
    pub fn with_locales(mut self, author: Option<String>, chat: Option<String>) -> Input {
        self.locale = author;
        self.chat_locale = chat;
        self
    }

    /// How the input was sent.
    pub fn via(mut self, via: Via) -> Input {
        self.via = via;
        self
    }

    /// Whether nobody but its author and the bot saw the input and its answers can be kept from
    /// others: said in a direct chat, or through a private interaction.
    pub fn is_private(&self) -> bool {
        self.scope.direct || self.via == Via::Interaction
    }

    pub fn as_admin(mut self, admin: bool) -> Input {
        self.author_is_admin = admin;
        self
    }

    /// The text of a text input (empty for a typed command).
    pub fn text_body(&self) -> &str {
        match &self.body {
            Body::Text(t) => t,
            Body::Command(_) => "",
        }
    }
}

/// Where a reply goes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Target {
    /// A chat (and thread).
    Chat(Scope),
    /// A person's direct messages on a platform; where the front end has none, or the person's
    /// direct messages are closed, `fallback` (when given) gets it instead.
    Direct {
        platform: String,
        user: UserRef,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fallback: Option<Scope>,
    },
}

impl Target {
    pub fn platform(&self) -> &str {
        match self {
            Target::Chat(s) => &s.platform,
            Target::Direct { platform, .. } => platform,
        }
    }

    /// The chat of a chat target.
    pub fn chat(&self) -> Option<&Scope> {
        match self {
            Target::Chat(s) => Some(s),
            Target::Direct { .. } => None,
        }
    }
}

/// Who may read a reply: part of the reply, decided in the core where what it says is known.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Audience {
    /// Everyone in the chat.
    #[default]
    Everyone,
    /// Meant for the author of the input, but nothing in it is secret (an illegal move, "not your
    /// turn"): ephemeral where the platform can, otherwise a reply in the chat that pings no one.
    Author,
    /// One person only: it names a secret (a bomb's square or piece, a one-time code). Its target is
    /// always that person's direct messages without a fallback chat ([`Reply::only_for`]); a front
    /// end may instead answer that person's own open interaction privately (Discord's ephemeral
    /// answer), and otherwise drops it with a log line. It is never shown where others can read it:
    /// not when an interaction has expired, not as a retry, not in a thread.
    Only(UserRef),
}

impl Audience {
    /// Whether the reply is for one person's eyes only ([`Audience::Only`]).
    pub fn is_secret(&self) -> bool {
        matches!(self, Audience::Only(_))
    }

    /// Whether the reply is meant for one person (quietly, or secretly): nobody is pinged.
    pub fn is_personal(&self) -> bool {
        !matches!(self, Audience::Everyone)
    }
}

/// The rest of `text` when it starts by addressing the bot by one of its `names` (`capabot: help`,
/// `@capabot games`, `Capa Bot, board`: the name, or `@` and the name, in any case, then a colon, a
/// comma, a space or nothing), with the longest name tried first; `None` when it does not.
pub fn strip_address<'a>(text: &'a str, names: &[&str]) -> Option<&'a str> {
    let trimmed = text.trim_start();
    let mut names: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for name in names {
        let name = name.strip_prefix('@').unwrap_or(name);
        let after = trimmed.strip_prefix('@').unwrap_or(trimmed);
        let Some(head) = after.get(..name.len()) else { continue };
        if !head.eq_ignore_ascii_case(name) {
            continue;
        }
        let rest = &after[name.len()..];
        if rest.is_empty() || rest.starts_with([':', ',', ' ']) {
            return Some(rest.trim_start_matches([':', ',']).trim());
        }
    }
    None
}

/// How an input reached the bot, which says who else saw it and whether its answer can be private.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Via {
    /// Typed in the chat (with the prefix, or a bare move): everyone there read it.
    #[default]
    Typed,
    /// Typed in the chat addressed to the bot by name, mention or pill (`capabot: games`):
    /// everyone there read it.
    Addressed,
    /// A reaction: everyone in the chat sees it.
    Reaction,
    /// A platform interaction only its author sees (Discord's slash commands and buttons), whose
    /// answers can be private to them.
    Interaction,
}

/// How a choice is drawn where it is a button.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ChoiceStyle {
    #[default]
    Primary,
    Secondary,
    /// Destructive (resign): front ends ask for a confirmation.
    Danger,
}

/// A button-like choice: choosing it sends `command` as a typed command, whatever the chat's prefix.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Choice {
    pub label: String,
    /// Stored as the command typed without prefix (the outbox keeps replies as JSON).
    #[serde(with = "command_as_text")]
    pub command: Command,
    /// The command as typed with the chat's prefix at the time of the reply, for front ends without
    /// buttons (`!accept #4`).
    pub typed: String,
    pub style: ChoiceStyle,
    /// The one person who may choose it (`None`: anyone in the chat). The core checks again when the
    /// command arrives; front ends may refuse early.
    pub for_user: Option<UserRef>,
}

/// How a reply's picture is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PictureFormat {
    /// A still picture (a board, a card, a chart).
    Png,
    /// An animated picture (a whole game): to be sent so that it plays inline.
    Gif,
}

impl PictureFormat {
    /// The MIME type (`image/png`, `image/gif`).
    pub fn mime(self) -> &'static str {
        match self {
            PictureFormat::Png => "image/png",
            PictureFormat::Gif => "image/gif",
        }
    }

    /// The file name extension without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            PictureFormat::Png => "png",
            PictureFormat::Gif => "gif",
        }
    }

    /// A file name for an attachment in this format (`board.png`, `game.gif`).
    pub fn file_name(self) -> &'static str {
        match self {
            PictureFormat::Png => "board.png",
            PictureFormat::Gif => "game.gif",
        }
    }
}

/// A file to attach (PGN export).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// A message the core may later replace (a standings message, "thinking…" replaced by the move):
/// the core keeps the platform's message id under `key`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Slot {
    pub key: String,
    /// The platform message id now held under `key`: front ends that can edit replace that message;
    /// the others (and all when `None`) send anew.
    pub previous: Option<String>,
}

/// Ask the front end to open a thread for a game with this reply as its first message.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NewThread {
    pub game_id: i64,
    pub title: String,
}

/// The facts of a game shown with a move or a board, for front ends that lay them out (embeds).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameCard {
    pub game_id: i64,
    pub variant: String,
    pub white: String,
    pub black: String,
    /// The last move as `12... Nxf7#`.
    pub last_move: Option<String>,
    /// Who is to move (while the game goes on).
    pub to_move: Option<UserRef>,
    /// Unix time of the move deadline.
    pub deadline: Option<i64>,
    /// `1-0 — alice wins by checkmate` once over.
    pub result: Option<String>,
    /// The game's web page, when the web is served and the game's community opted in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_url: Option<String>,
}

/// Something the bot says.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Reply {
    pub target: Target,
    pub text: String,
    pub audience: Audience,
    /// A board picture (PNG) and its description for screen readers. Drawn from [`Reply::drawing`]
    /// when the reply is delivered; never stored (outbox rows written before drawings keep theirs
    /// beside the JSON).
    #[serde(skip)]
    pub png: Option<Vec<u8>>,
    /// An animated picture (GIF) of a whole game, described by `alt_text` too. A reply carries a
    /// still picture or an animation, never both; [`Reply::picture`] gives whichever it is with its
    /// format. Drawn and stored like `png`.
    #[serde(skip)]
    pub animation: Option<Vec<u8>>,
    /// What the picture shows, stored with the reply and drawn into `png` or `animation` just before
    /// delivery ([`Reply::draw`]), outside the unit of work that wrote the reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawing: Option<super::drawing::Drawing>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alt_text: Option<String>,
    /// A compact text board, for front ends without pictures (and the console).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_board: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<Attachment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<GameCard>,
    /// A web page this reply is about, for a reply without a game's card (a card carries its
    /// game's: [`GameCard::web_url`]); see [`Reply::web_url`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web_link: Option<String>,
    pub choices: Vec<Choice>,
    /// Users to notify (ping); nobody else is pinged.
    pub notify: Vec<UserRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Slot>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_thread: Option<NewThread>,
    /// The platform event id of the input this answers (none for the AI's later moves and the
    /// scheduler): front ends answer an interaction with its own replies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_reply_to: Option<String>,
    /// The reply's row in the outbox, once it is read from there: a key for the platforms' own
    /// idempotency (Discord's nonce, Matrix's transaction id), so a retry never posts twice.
    #[serde(skip)]
    pub outbox_id: Option<i64>,
    /// The language the reply is written in (its reader's): front ends write their own words
    /// around it (embed labels, confirmations) in it too.
    #[serde(default)]
    pub lang: crate::i18n::Lang,
    /// A message of its own for its reader (the prompt to choose a secret bomb), not part of the
    /// answer to the input that led to it: a front end posts it where it stays (that person's
    /// direct messages), never as the private answer to their interaction, which would vanish
    /// and would take the place of the input's public answer.
    #[serde(default)]
    pub stands_alone: bool,
}

impl Reply {
    /// The web page a front end links the reply to: its game's (the card's), else its own link.
    pub fn web_url(&self) -> Option<&str> {
        self.card.as_ref().and_then(|c| c.web_url.as_deref()).or(self.web_link.as_deref())
    }

    /// A plain text reply.
    pub fn new(target: Target, text: impl Into<String>) -> Reply {
        Reply {
            target,
            text: text.into(),
            audience: Audience::Everyone,
            png: None,
            animation: None,
            drawing: None,
            alt_text: None,
            text_board: None,
            file: None,
            card: None,
            web_link: None,
            choices: vec![],
            notify: vec![],
            slot: None,
            new_thread: None,
            in_reply_to: None,
            outbox_id: None,
            lang: crate::i18n::current(),
            stands_alone: false,
        }
    }
}

impl Reply {
    /// A reply for `user` alone on `platform` ([`Audience::Only`]): to their direct messages, with
    /// no fallback chat. Whatever names a secret is built with this.
    pub fn only_for(platform: impl Into<String>, user: UserRef, text: impl Into<String>) -> Reply {
        let target = Target::Direct { platform: platform.into(), user: user.clone(), fallback: None };
        Reply { audience: Audience::Only(user), ..Reply::new(target, text) }
    }

    /// Makes the reply one person's only: its target becomes that person's direct messages with
    /// no fallback (whatever it was). The core applies it to every reply before it leaves a unit
    /// of work, so no command can send a one-person reply into a chat by mistake.
    pub fn keep_private(&mut self) {
        if let Audience::Only(user) = &self.audience {
            let platform = self.target.platform().to_string();
            self.target = Target::Direct { platform, user: user.clone(), fallback: None };
        }
    }

    /// The reply's picture, if any, with its format: the animation, else the still picture.
    pub fn picture(&self) -> Option<(PictureFormat, &[u8])> {
        match (&self.animation, &self.png) {
            (Some(gif), _) => Some((PictureFormat::Gif, gif.as_slice())),
            (None, Some(png)) => Some((PictureFormat::Png, png.as_slice())),
            (None, None) => None,
        }
    }
}

/// What a front end reports back after delivering a reply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Receipt {
    /// The platform's id of the message sent (or edited).
    pub message_id: Option<String>,
    /// The thread opened for [`Reply::new_thread`].
    pub thread_id: Option<String>,
    /// Delivering the same outbox row again would show nothing new (Discord's nonce, Matrix's
    /// transaction id): the host may then write the delivery down a moment later, together with
    /// others, rather than at once, since a crash in between makes a delivery that shows once.
    pub shows_once_if_repeated: bool,
}

/// Work for the host: compute capabot's move in an AI game off the async runtime.
#[derive(Clone, Debug)]
pub struct AiJob {
    pub game_id: i64,
    /// The ply the game was at when the job was made; the move lands only if it still is.
    pub ply: u32,
    pub level: u8,
    /// The game so far (history included, for repetition).
    pub game: Game,
}

/// Work for the host: a computer analysis of a finished game, run off the async runtime one
/// position at a time ([`AnalysisJob::analyser`]), with progress shown through
/// [`crate::bot::Bot::analysis_progress_reply`] and the result fed back with
/// [`crate::bot::Bot::finish_analysis`]. The job holds its requester's place at the analysis desk
/// ([`crate::bot::Bot::analyses_running`]) until it is dropped, whether it finished or not.
#[derive(Clone, Debug)]
pub struct AnalysisJob {
    pub game_id: i64,
    /// The game, finished, history included.
    pub game: Game,
    /// Nodes per position.
    pub nodes: u64,
    /// The chat the request came from; progress and the result go there.
    pub target: Target,
    /// Who asked.
    pub requester: UserRef,
    /// The chat's language: everyone there reads the progress and the result.
    pub lang: crate::i18n::Lang,
    /// The requester's own language, for a failure told to them alone.
    pub requester_lang: crate::i18n::Lang,
    /// The event that asked for it.
    pub origin: Option<String>,
    /// Held, never read: the last copy dropped gives the requester's place back.
    #[allow(dead_code)]
    pub(crate) ticket: super::analysis::Ticket,
}

impl AnalysisJob {
    /// Positions to search in all (the moves and one).
    pub fn positions(&self) -> usize {
        self.game.positions().len()
    }

    /// The search, position by position (blocking work: run each step off the async threads).
    pub fn analyser(&self) -> Result<crate::ai::analysis::Analyser, crate::ai::analysis::AnalysisError> {
        crate::ai::analysis::Analyser::new(self.game.clone(), self.nodes)
    }
}

/// The bot's answer to an input or a scheduler tick.
#[derive(Clone, Debug, Default)]
pub struct Response {
    pub replies: Vec<Reply>,
    pub ai_jobs: Vec<AiJob>,
    /// Analyses to run (each already admitted: its requester's place is held until it is dropped).
    pub analyses: Vec<AnalysisJob>,
    /// The replies are in the outbox (committed with the change they announce): the host delivers
    /// them from there. Otherwise (a response built by hand, or an apology when the database
    /// failed) it shows them directly.
    pub queued: bool,
    /// When queued by one unit of work: the outbox rows that waited in the replies' chats beside
    /// them as the unit wrote them (platform, chat key, id; see [`crate::store::outbox::Queued`]),
    /// each reply carrying its own row's id ([`Reply::outbox_id`]). A host that knows nobody
    /// delivered in those chats since can then deliver the replies as they are, without reading
    /// them back. `None` when not known (responses of several units, a chat with a backlog, and on
    /// PostgreSQL, where the unit does not read them: [`crate::store::outbox::Queued`]).
    pub waiting_beside: Option<Vec<(String, String, i64)>>,
}

impl Response {
    /// One reply.
    pub fn one(r: Reply) -> Response {
        Response { replies: vec![r], ..Response::default() }
    }

    /// Appends another response.
    pub fn extend(&mut self, other: Response) {
        // The rows beside one unit's replies are not those beside another's.
        self.waiting_beside = match (self.replies.is_empty(), other.replies.is_empty()) {
            (_, true) => self.waiting_beside.take(),
            (true, false) => other.waiting_beside,
            (false, false) => None,
        };
        self.replies.extend(other.replies);
        self.ai_jobs.extend(other.ai_jobs);
        self.analyses.extend(other.analyses);
    }

    /// The chats the replies speak in, each once, as `(platform, community, chat)`: where
    /// something may have changed for those who follow a chat (a game's page). Direct messages
    /// are no game's chat and are left out.
    pub fn chats_told(&self) -> Vec<(&str, Option<&str>, &str)> {
        let mut told: Vec<(&str, Option<&str>, &str)> = Vec::new();
        for r in &self.replies {
            if let Target::Chat(s) = &r.target
                && !s.direct
                && !told.iter().any(|(p, _, c)| *p == s.platform && *c == s.chat)
            {
                told.push((&s.platform, s.community.as_deref(), &s.chat));
            }
        }
        told
    }

    /// All reply texts joined by newlines (handy in tests and logs).
    pub fn text(&self) -> String {
        self.replies.iter().map(|r| r.text.as_str()).collect::<Vec<_>>().join("\n")
    }
}

/// A choice's command in stored replies: as typed without a prefix, parsed back when read.
mod command_as_text {
    use super::Command;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Command, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&c.typed(""))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Command, D::Error> {
        let text = String::deserialize(d)?;
        super::super::command::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bot_is_addressed_by_its_name_at_the_start_only() {
        let names = ["capabot", "Capa Bot", "@capabot:example.org"];
        assert_eq!(strip_address("capabot: bomb e2", &names), Some("bomb e2"));
        assert_eq!(strip_address("  @Capabot games", &names), Some("games"));
        assert_eq!(strip_address("capa bot, board #3", &names), Some("board #3"));
        assert_eq!(strip_address("@capabot:example.org challenge @a:b", &names), Some("challenge @a:b"));
        assert_eq!(strip_address("capabot", &names), Some(""));
        assert_eq!(strip_address("capabotx help", &names), None);
        assert_eq!(strip_address("hello capabot", &names), None);
        assert_eq!(strip_address("e2e4", &names), None);
        assert_eq!(strip_address("capabot: help", &[""]), None, "an empty name addresses nothing");
        let i = Input::addressed(Scope::chat("t", "c"), UserRef::new("a", "a"), "games");
        assert!(matches!(i.body, Body::Command(_)) && i.via == Via::Addressed, "{i:?}");
        let i = Input::addressed(Scope::chat("t", "c"), UserRef::new("a", "a"), "challenge @bob days:4");
        assert_eq!((i.text_body(), i.via), ("challenge @bob days:4", Via::Addressed), "not a command: its text");
    }
}

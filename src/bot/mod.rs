//! The platform-neutral bot: chat messages in, replies out. Front ends (console now, Discord and
//! Matrix later) translate their platform's events into [`IncomingMessage`]s and show the [`Reply`]s;
//! all game logic lives here, on top of the rules engine and the [`crate::store`].
//!
//! Time comes from an injectable [`Clock`]; the AI and the board picture sit behind the seams in
//! [`seams`]. AI moves are never computed inside [`Bot::handle`]: it hands back [`AiJob`]s that the
//! front end runs on a blocking pool ([`Bot::run_ai_job`]) and feeds back with
//! [`Bot::finish_ai_job`], which stores the move through the same guarded transaction as a human
//! move.

pub mod clock;
pub mod command;
mod flow;
pub mod seams;
pub mod textboard;

pub use clock::{Clock, ManualClock, SystemClock};
pub use seams::{CapabotAi, FirstLegalMove, MoveOracle, NoAi, board_png};
pub use textboard::text_board;

use crate::rules::{Game, Move};
use crate::store::{Store, StoreError};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Someone on a chat platform.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UserRef {
    /// The platform's user id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A chat message as the bot sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncomingMessage {
    /// `console`, `discord`, `matrix`, ...
    pub platform: String,
    pub chat_id: String,
    pub author_id: String,
    pub author_name: String,
    pub text: String,
    /// Users mentioned in the message, in order.
    pub mentions: Vec<UserRef>,
}

/// A button-like choice the front end may offer, described neutrally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    /// The command text that choosing it sends, e.g. `!accept 4`.
    pub command: String,
}

/// Something the bot says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub platform: String,
    pub chat_id: String,
    pub text: String,
    /// A board picture.
    pub png: Option<Vec<u8>>,
    /// A compact text board, for front ends without pictures (and the console).
    pub text_board: Option<String>,
    pub choices: Vec<Choice>,
    /// Users to notify (ping).
    pub notify: Vec<UserRef>,
}

/// Work for the front end: compute capabot's move in an AI game off the async runtime.
#[derive(Clone, Debug)]
pub struct AiJob {
    pub game_id: i64,
    /// The ply the game was at when the job was made; the move lands only if it still is.
    pub ply: u32,
    pub level: u8,
    /// The game so far (history included, for repetition).
    pub game: Game,
}

/// The bot's answer to a message or a scheduler tick.
#[derive(Clone, Debug, Default)]
pub struct Response {
    pub replies: Vec<Reply>,
    pub ai_jobs: Vec<AiJob>,
}

impl Response {
    /// Appends another response.
    pub fn extend(&mut self, other: Response) {
        self.replies.extend(other.replies);
        self.ai_jobs.extend(other.ai_jobs);
    }

    /// All reply texts joined by newlines (handy in tests and logs).
    pub fn text(&self) -> String {
        self.replies.iter().map(|r| r.text.as_str()).collect::<Vec<_>>().join("\n")
    }
}

/// Settings of the core.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// Command prefix where a chat has not set its own.
    pub prefix: String,
    /// How long a challenge stays open.
    pub challenge_expiry_secs: i64,
    /// Longest message read, in bytes.
    pub max_input: usize,
    /// Attach board pictures to replies.
    pub pictures: bool,
    /// Names (lower case) and user ids under which the bot itself is mentioned.
    pub self_names: Vec<String>,
    /// Variant when a challenge names none and the chat has no default.
    pub default_variant: String,
}

impl Default for BotConfig {
    fn default() -> Self {
        BotConfig {
            prefix: "!".into(),
            challenge_expiry_secs: 2 * 86_400,
            max_input: 500,
            pictures: true,
            self_names: vec!["capabot".into()],
            default_variant: "capatomic".into(),
        }
    }
}

/// Why a command failed.
#[derive(Debug)]
pub(crate) enum BotError {
    /// The user's mistake: told to them as is.
    User(String),
    /// Our failure: logged with an error id; the user gets the id.
    Internal(String),
}

impl From<StoreError> for BotError {
    fn from(e: StoreError) -> Self {
        BotError::Internal(e.to_string())
    }
}

impl From<rusqlite::Error> for BotError {
    fn from(e: rusqlite::Error) -> Self {
        BotError::Internal(format!("database error: {e}"))
    }
}

/// The bot: a store, a clock, an AI and settings. Share it between threads with `Arc`.
pub struct Bot {
    pub(crate) store: Store,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) oracle: Arc<dyn MoveOracle>,
    pub(crate) config: BotConfig,
    error_seq: AtomicU64,
}

impl Bot {
    /// A bot on an opened store.
    pub fn new(store: Store, clock: Arc<dyn Clock>, oracle: Arc<dyn MoveOracle>, config: BotConfig) -> Bot {
        Bot { store, clock, oracle, config, error_seq: AtomicU64::new(0) }
    }

    /// The store (for front ends' start-up checks and tests).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The settings.
    pub fn config(&self) -> &BotConfig {
        &self.config
    }

    /// Current time from the bot's clock.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Handles one chat message. Never panics on any input; internal failures come back as a short
    /// message with an error id.
    pub fn handle(&self, msg: &IncomingMessage) -> Response {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle_inner(msg)));
        match result {
            Ok(Ok(r)) => r,
            Ok(Err(BotError::User(text))) => self.say(msg, text),
            Ok(Err(BotError::Internal(e))) => self.internal_error(msg, &e),
            Err(_) => self.internal_error(msg, "panic while handling a message"),
        }
    }

    fn internal_error(&self, msg: &IncomingMessage, detail: &str) -> Response {
        let seq = self.error_seq.fetch_add(1, Ordering::Relaxed);
        let id = format!("E{:x}-{seq}", self.clock.now().rem_euclid(1 << 24));
        tracing::error!(error_id = %id, platform = %msg.platform, chat = %msg.chat_id, author = %msg.author_id, "{detail}");
        self.say(msg, format!("Sorry, something went wrong on my side (error id {id})."))
    }

    pub(crate) fn say(&self, msg: &IncomingMessage, text: String) -> Response {
        Response { replies: vec![self.reply(&msg.platform, &msg.chat_id, text)], ai_jobs: vec![] }
    }

    pub(crate) fn reply(&self, platform: &str, chat_id: &str, text: String) -> Reply {
        Reply {
            platform: platform.to_string(),
            chat_id: chat_id.to_string(),
            text,
            png: None,
            text_board: None,
            choices: vec![],
            notify: vec![],
        }
    }

    /// Computes the move of an AI job (blocking; run it on a blocking pool, never on an async
    /// runtime thread).
    pub fn run_ai_job(&self, job: &AiJob) -> Option<Move> {
        self.oracle.choose(&job.game, job.level)
    }

    /// Runs an AI job inline and feeds its move back, repeating for follow-up jobs (console, tests).
    pub fn run_ai_jobs_inline(&self, mut jobs: Vec<AiJob>) -> Vec<Reply> {
        let mut replies = Vec::new();
        let mut guard = 0;
        while let Some(job) = jobs.pop() {
            guard += 1;
            if guard > 1000 {
                break;
            }
            let mv = self.run_ai_job(&job);
            let r = self.finish_ai_job(&job, mv);
            replies.extend(r.replies);
            jobs.extend(r.ai_jobs);
        }
        replies
    }
}

//! The platform-neutral bot: [`Input`]s in (a text line or a typed command, with its scope), replies
//! out, each naming its [`Target`]. Front ends (console, Discord, Matrix) translate their platform's
//! events into inputs and show the [`Reply`]s through the host; all game logic lives here, on top of
//! the rules engine and the [`crate::store`].
//!
//! Time comes from an injectable [`Clock`]; the AI and the board picture sit behind the seams in
//! [`seams`]. AI moves are never computed inside [`Bot::handle`]: it hands back [`AiJob`]s that the
//! host runs on a bounded blocking pool ([`Bot::run_ai_job`]) and feeds back with
//! [`Bot::finish_ai_job`], which stores the move through the same guarded transaction as a human
//! move.

pub(crate) mod analysis;
pub mod clock;
pub mod command;
pub(crate) mod commands;
pub mod drawing;
pub mod error;
pub mod io;
pub(crate) mod near;
pub mod outbox;
pub mod recent;
mod scheduler;
pub mod seams;
pub mod textboard;

pub use clock::{Clock, ManualClock, SystemClock};
pub use command::Command;
pub use commands::web::{
    FINISHED_SHOWN, LEFT_OUT_COUNTED, LeftOut, OPEN_SHOWN, WebAnalysis, WebBoard, WebCommunity, WebFollow, WebGame,
    WebLadder, WebMark, WebPlayer, WebSeason, WebSide, WebTournament,
};
pub use drawing::{BoardDrawing, CardDrawing, ChartDrawing, Drawing, GameDrawing};
pub use error::BotError;
pub use io::{
    AiJob, AnalysisJob, Attachment, Audience, Body, Choice, ChoiceStyle, CommandStyle, GameCard, Input, NewThread,
    PictureFormat, Receipt, Reply, Response, Scope, Slot, Target, UserRef, Via, strip_address,
};
pub use scheduler::Served;
pub use seams::{CapabotAi, FirstLegalMove, MoveOracle, NoAi, board_png, game_gif};
pub use textboard::text_board;

use crate::i18n::{Lang, with_lang};
use crate::rules::Move;
use crate::store::settings::Settings;
use crate::store::{Store, events, games};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Settings of the core.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// Command prefix where neither the chat nor its community has set its own.
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
    /// Games against the AI one person may have going on at once.
    pub max_ai_games_per_player: usize,
    /// Games against the AI going on at once, everyone's together.
    pub max_ai_games: usize,
    /// The language where neither the person, the chat, its community nor the platform says one.
    pub lang: Lang,
    /// Analyses running or waiting at once, everyone's together (each person has one at a time).
    pub max_analyses: usize,
    /// Nodes searched per position in an analysis (0: [`crate::ai::analysis::DEFAULT_NODES`]).
    pub analysis_nodes: u64,
    /// The web pages' public address (`[web] public_url`, no trailing slash): where the `web`
    /// command and the answers about games link to; `None`: no links.
    pub web_url: Option<String>,
    /// After how long without a process serving a platform its waiting outbox rows are expired,
    /// and its items due as long run by any process's tick, its reminders dropped
    /// (`[host] unserved_expiry_hours`; see [`Bot::tick`]).
    pub unserved_expiry_secs: i64,
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
            max_ai_games_per_player: 3,
            max_ai_games: 200,
            lang: Lang::En,
            max_analyses: 4,
            analysis_nodes: 0,
            web_url: None,
            unserved_expiry_secs: 86_400,
        }
    }
}

/// The settings in force for one input: the chat's, its community's, then the configuration's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effective {
    /// The prefix typed commands are read with.
    pub prefix: String,
    /// How texts write a command here: the prefix where typed commands reach the bot, `/` where
    /// only the platform's slash commands and buttons do ([`CommandStyle`]).
    pub hint: String,
    pub default_variant: String,
    pub default_days: Option<u32>,
    pub thread_per_game: bool,
    /// Post the game as an animated picture when it ends.
    pub gif_at_end: bool,
    /// The chat's language (its own, its community's, then the configuration's).
    pub lang: Lang,
    /// Whether the chat or its community chose the language (else a platform's locale may).
    pub lang_chosen: bool,
    /// The board theme its pictures are drawn in.
    pub theme: crate::render::Theme,
}

/// One input being handled, with the settings in force where it was said.
pub(crate) struct Ctx<'a> {
    pub inp: &'a Input,
    pub settings: Effective,
    /// The author's language, for what only they read.
    pub author_lang: Lang,
}

impl Ctx<'_> {
    pub fn scope(&self) -> &Scope {
        &self.inp.scope
    }

    /// How a command is written where the input was said (for the command hints in replies):
    /// the chat's prefix, or `/` where only slash commands reach the bot.
    pub fn p(&self) -> &str {
        &self.settings.hint
    }

    /// `yes` in someone's direct chat with capabot, else `no`: the selector of the messages whose
    /// hints differ there (nobody else could accept a challenge made in it).
    pub fn direct_word(&self) -> &'static str {
        if self.scope().direct { "yes" } else { "no" }
    }

    /// Whether commands are slash commands here (help lists them so).
    pub fn slash(&self) -> bool {
        self.settings.hint == "/" && self.settings.prefix != "/"
    }

    pub fn target(&self) -> Target {
        Target::Chat(self.inp.scope.clone())
    }

    /// The chat's language, for what everyone there reads.
    pub fn lang(&self) -> Lang {
        self.settings.lang
    }

    /// One reply to the input's chat.
    pub fn say(&self, text: impl Into<String>) -> Response {
        Response::one(Reply::new(self.target(), text))
    }
}

/// How many (notice, person) pairs [`Bot::told`] remembers.
const TOLD: usize = 10_000;

/// A notice each person is given once ([`Bot::told`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Told {
    /// A bare move of theirs in this game was not taken: the game, its ply (a new position may be
    /// told again: a correspondence game lasts weeks, and a player refused once early on heard
    /// nothing for any later refused move), and for the player to move what they typed
    /// ([`Told::key`]: each move they try is answered once; chatter repeated is not), else 0.
    BareMove { game: i64, ply: u32, text: u64 },
    /// A line of theirs in a direct chat was no command.
    DirectLine,
    /// A bare move of theirs did not say which of their games here it was for: the games and
    /// their plies ([`Told::key`]), so that once any of them has moved on the person
    /// is told again (before: once for as long as the process ran).
    WhichGame(u64),
}

thread_local! {
    /// The notices the unit of work running on this thread tells ([`Bot::first_telling`]), kept in
    /// [`Bot::told`] only once it commits: a unit run again (a conflict, the input's second run
    /// with savepoints) tells them again, and one not saved leaves them untold (before, the first
    /// run's telling was remembered, so the notice was never given).
    static TOLD_IN_UNIT: std::cell::RefCell<Vec<(Told, String)>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Bot {
    /// Whether `key`'s notice is told now: not told before, nor already by this run of the unit.
    pub(crate) fn first_telling(&self, key: (Told, String)) -> bool {
        let before = self.told.lock().is_ok_and(|told| told.get(&key).is_some());
        !before
            && TOLD_IN_UNIT.with(|told| {
                let mut told = told.borrow_mut();
                !told.contains(&key) && {
                    told.push(key);
                    true
                }
            })
    }

    /// A run of a unit of work begins: what an earlier run told is forgotten.
    fn unit_tells_again() {
        TOLD_IN_UNIT.with(|told| told.borrow_mut().clear());
    }

    /// The unit committed (`kept`) or not: what it told is remembered, or forgotten.
    fn unit_told(&self, kept: bool) {
        let told = TOLD_IN_UNIT.with(std::cell::RefCell::take);
        if kept && let Ok(mut all) = self.told.lock() {
            for key in told {
                all.insert(key, ());
            }
        }
    }
}

impl Told {
    /// What a notice is about (a text typed, games and their plies) as the number it is told
    /// once for: another text, or another position of any of the games, is another number.
    pub(crate) fn key(about: impl std::hash::Hash) -> u64 {
        use std::hash::Hasher;
        let mut h = std::hash::DefaultHasher::new();
        about.hash(&mut h);
        h.finish()
    }
}

/// The bot: a store, a clock, an AI and settings. Share it between threads with `Arc`.
pub struct Bot {
    pub(crate) store: Store,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) oracle: Arc<dyn MoveOracle>,
    pub(crate) config: BotConfig,
    error_seq: AtomicU64,
    /// The notices each person was given once (a bare move not taken, a direct chat's line that is
    /// no command): the latest [`TOLD`] pairs, so one told long ago may be told again rather than
    /// the set growing for as long as the process runs.
    pub(crate) told: std::sync::Mutex<crate::bot::recent::Recent<(Told, String), ()>>,
    /// How commands are given per platform (set by the host as front ends register).
    command_styles: std::sync::RwLock<std::collections::HashMap<String, CommandStyle>>,
    /// Who has an analysis running or waiting.
    pub(crate) desk: Arc<analysis::Desk>,
    /// Outbox rows read back for delivery ([`Bot::outbox_rows_read`]).
    pub(crate) outbox_read: AtomicU64,
}

impl Bot {
    /// A bot on an opened store.
    pub fn new(store: Store, clock: Arc<dyn Clock>, oracle: Arc<dyn MoveOracle>, config: BotConfig) -> Bot {
        Bot {
            store,
            clock,
            oracle,
            config,
            error_seq: AtomicU64::new(0),
            told: std::sync::Mutex::new(crate::bot::recent::Recent::new(TOLD)),
            command_styles: Default::default(),
            desk: Default::default(),
            outbox_read: AtomicU64::new(0),
        }
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

    /// Says how people give commands on `platform` ([`CommandStyle::TYPED`] until set).
    pub fn set_command_style(&self, platform: &str, style: CommandStyle) {
        if let Ok(mut styles) = self.command_styles.write() {
            styles.insert(platform.to_string(), style);
        }
    }

    /// How people give commands on `platform`.
    pub fn command_style(&self, platform: &str) -> CommandStyle {
        let styles = self.command_styles.read();
        styles.ok().and_then(|s| s.get(platform).copied()).unwrap_or(CommandStyle::TYPED)
    }

    /// The settings in force in a scope.
    pub fn effective_settings(&self, scope: &Scope) -> Result<Effective, BotError> {
        let conn = self.store.conn()?;
        let s = crate::store::settings::effective(&conn, &scope.platform, scope.community.as_deref(), &scope.chat)?;
        let mut e = self.resolve(&s);
        if self.command_style(&scope.platform).slash_in(scope) {
            e.hint = "/".into();
        }
        Ok(e)
    }

    /// How commands are written in texts for `scope` (see [`Effective::hint`]).
    pub(crate) fn hint_for(&self, scope: &Scope) -> String {
        self.effective_settings(scope).map_or_else(|_| self.config.prefix.clone(), |s| s.hint)
    }

    /// How commands are written in another chat than `row`'s, where a paused game goes on: as its
    /// community writes them (a chat's own prefix is that chat's alone), or, where the game has no
    /// community or (`community_gone`) the bot left it, with the built-in prefix; `/` where the
    /// platform's communities take slash commands only.
    pub(crate) fn hint_elsewhere(&self, row: &crate::store::games::GameRow, community_gone: bool) -> String {
        let scope = commands::game_scope(row);
        if self.command_style(&scope.platform).slash_in(&scope) {
            return "/".into();
        }
        let community = scope.community.as_deref().filter(|_| !community_gone);
        let stored = match community {
            Some(c) => self.store.conn().and_then(|conn| crate::store::settings::community(&conn, &scope.platform, c)),
            None => Ok(Settings::default()),
        };
        stored.map_or_else(|_| self.config.prefix.clone(), |s| self.resolve(&s).hint)
    }

    /// The settings stored, with the configuration's defaults (commands written as typed).
    fn resolve(&self, s: &Settings) -> Effective {
        let prefix = s.prefix.clone().unwrap_or_else(|| self.config.prefix.clone());
        Effective {
            hint: prefix.clone(),
            prefix,
            default_variant: s.default_variant.clone().unwrap_or_else(|| self.config.default_variant.clone()),
            default_days: s.default_days.unwrap_or(None),
            thread_per_game: s.thread_per_game.unwrap_or(false),
            gif_at_end: s.gif_at_end.unwrap_or(false),
            lang: s.lang.as_deref().and_then(Lang::parse).unwrap_or(self.config.lang),
            lang_chosen: s.lang.as_deref().and_then(Lang::parse).is_some(),
            theme: drawing::theme_named(s.theme.as_deref()),
        }
    }

    /// The language a chat reads (see [`Effective::lang`]); the configuration's when unknown.
    pub(crate) fn lang_in(&self, scope: &Scope) -> Lang {
        self.effective_settings(scope).map_or(self.config.lang, |s| s.lang)
    }

    /// The languages of an input: the chat's (its setting, else the platform's locale for the
    /// community, else the configuration's) and the author's (their `lang` setting, else their
    /// client's locale, else the chat's).
    fn langs_of(&self, inp: &Input, settings: &mut Effective) -> Lang {
        if !settings.lang_chosen
            && let Some(l) = inp.chat_locale.as_deref().and_then(Lang::parse)
        {
            settings.lang = l;
        }
        let own = self.person_lang(&inp.scope.platform, &inp.author.id);
        own.or_else(|| inp.locale.as_deref().and_then(Lang::parse)).unwrap_or(settings.lang)
    }

    /// A person's own language (`lang tr`), found by their account on a platform.
    pub(crate) fn person_lang(&self, platform: &str, user_id: &str) -> Option<Lang> {
        let conn = self.store.conn().ok()?;
        let p = crate::store::players::find(&conn, platform, user_id).ok()??;
        crate::store::players::lang(&conn, p.id).ok()?.as_deref().and_then(Lang::parse)
    }

    /// The language a player reads direct messages in: their own, else `chat`'s.
    pub(crate) fn player_lang(&self, player: crate::store::players::PlayerId, chat: Lang) -> Lang {
        let own = self.store.conn().ok().and_then(|c| crate::store::players::lang(&c, player).ok().flatten());
        own.as_deref().and_then(Lang::parse).unwrap_or(chat)
    }

    /// Handles one input. Never panics on any input; internal failures come back as a short
    /// message with an error id. An event whose platform id was handled before gets no answer and
    /// changes nothing.
    pub fn handle(&self, inp: &Input) -> Response {
        // First as a whole, without savepoints (nearly every input succeeds): each savepoint is
        // two round trips on PostgreSQL and a copy of the pages written under it on SQLite. When
        // the work fails (a user error too), or a transaction inside it had to be undone alone, the
        // unit is rolled back and the input handled again with its work under a savepoint, so that
        // the event's claim stays while the work is undone.
        match self.try_unit_or_undo("input", || self.handle_in_unit(inp, Savepoints::Elided)) {
            Ok(Some(r)) => return r,
            Ok(None) => {}
            Err(_) => return self.not_saved(inp),
        }
        match self.try_unit("input", || self.handle_in_unit(inp, Savepoints::Kept).unwrap_or_default()) {
            Ok(r) => r,
            Err(_) => self.not_saved(inp),
        }
    }

    /// The answer to an input whose unit of work could not be saved (database busy past its
    /// timeout, disk full, no connection): nothing changed, the author is told so in their
    /// language, and told to try again. Shown directly (it is not in the outbox: nothing is).
    fn not_saved(&self, inp: &Input) -> Response {
        let lang = self.author_lang(inp);
        let mut r = Reply::new(Target::Chat(inp.scope.clone()), crate::tl!(lang, "not-saved"));
        r.audience = Audience::Author;
        r.lang = lang;
        r.in_reply_to.clone_from(&inp.event_id);
        Response::one(r)
    }

    /// The input's unit of work. With [`Savepoints::Elided`], `None` (the unit to be rolled back)
    /// when the work did not succeed as a whole.
    fn handle_in_unit(&self, inp: &Input, savepoints: Savepoints) -> Option<Response> {
        // The event's claim stays even when the work is undone: a user error changes nothing, and
        // the event is still answered once.
        // On PostgreSQL the claim reads the chat's settings and the author with it (one round trip).
        let mut prefetched = false;
        if let Some(id) = &inp.event_id {
            let s = &inp.scope;
            let claimed = self
                .store
                .conn()
                .and_then(|c| {
                    let now = self.clock.now();
                    let (community, author) = (s.community.as_deref(), &inp.author.id);
                    match crate::store::settings::claim_prefetching_input(
                        &c,
                        &s.platform,
                        id,
                        now,
                        community,
                        &s.chat,
                        author,
                    )? {
                        Some(claimed) => {
                            prefetched = true;
                            Ok(claimed)
                        }
                        None => events::claim(&c, &s.platform, id, now),
                    }
                })
                .map_err(BotError::from);
            match claimed {
                Ok(true) => {}
                Ok(false) => {
                    tracing::debug!(platform = %inp.scope.platform, event = %id, "redelivered event ignored");
                    return Some(Response::default());
                }
                Err(e) => return Some(self.answer(inp, Err(e))),
            }
        }
        if inp.scope.interaction_only {
            // What waited for an interaction in this chat goes out with this one's answers, first
            // (kept even when the work is undone, as the claim is).
            let key = outbox::chat_key(&Target::Chat(inp.scope.without_thread()));
            let now = self.clock.now();
            let woken = self.store.conn().and_then(|c| {
                let platform = &inp.scope.platform;
                let lanes = [key.clone(), format!("{key}{}", outbox::ANIMATION_LANE)];
                lanes.iter().try_fold(0, |n, lane| Ok(n + crate::store::outbox::wake(&c, platform, lane, now)?))
            });
            if let Err(e) = woken {
                return Some(self.answer(inp, Err(e.into())));
            }
        }
        let result = match savepoints {
            Savepoints::Elided => {
                let (result, clean) = crate::store::without_savepoints(|| {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.handle_claimed(inp, prefetched)))
                });
                match result {
                    Ok(Ok(response)) if clean => Ok(response),
                    _ => return None,
                }
            }
            Savepoints::Kept => self.all_or_nothing(|| self.handle_claimed(inp, prefetched)),
        };
        Some(self.answer(inp, result))
    }

    /// Runs `work` inside the unit of work so that an error (or a panic) undoes all of it.
    pub(crate) fn all_or_nothing<T>(&self, work: impl FnOnce() -> Result<T, BotError>) -> Result<T, BotError> {
        let savepoint = |sql: &str| -> Result<(), BotError> { Ok(self.store.conn()?.control(sql)?) };
        savepoint("SAVEPOINT work")?;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
            .unwrap_or_else(|_| Err(BotError::Internal("panic while handling a message".into())));
        if result.is_err() {
            savepoint("ROLLBACK TO work")?;
        }
        savepoint("RELEASE work")?;
        result
    }

    /// The response to an input: the work's replies, or one answer to the author (a user error as
    /// is, an internal one as an apology with an error id); every reply answers the input's event.
    fn answer(&self, inp: &Input, result: Result<Response, BotError>) -> Response {
        let reply_to_author = |text: String, lang: Lang| {
            let mut r = Reply::new(Target::Chat(inp.scope.clone()), text);
            r.audience = Audience::Author;
            r.lang = lang;
            Response::one(r)
        };
        // The author's language is looked up only for an error (a move's replies carry theirs).
        let mut response = match result {
            Ok(r) => r,
            Err(BotError::User(m)) => {
                let lang = self.author_lang(inp);
                reply_to_author(m.render(lang), lang)
            }
            Err(BotError::Internal(e)) => {
                let lang = self.author_lang(inp);
                reply_to_author(self.internal_error(inp, &e, lang), lang)
            }
        };
        for r in &mut response.replies {
            r.in_reply_to.clone_from(&inp.event_id);
        }
        response
    }

    /// Handles a claimed input; `prefetched` when the claim read the chat's settings and the author.
    fn handle_claimed(&self, inp: &Input, prefetched: bool) -> Result<Response, BotError> {
        // The chat's settings and the author, read together and kept in the unit for what follows.
        if !prefetched {
            let s = &inp.scope;
            let conn = self.store.conn()?;
            crate::store::settings::prefetch_input(
                &conn,
                &s.platform,
                s.community.as_deref(),
                &s.chat,
                &inp.author.id,
            )?;
        }
        let mut settings = self.effective_settings(&inp.scope)?;
        // A thread is opened by posting in the chat, which the bot cannot do there.
        settings.thread_per_game &= !inp.scope.interaction_only;
        let author_lang = self.langs_of(inp, &mut settings);
        if inp.scope.direct {
            // A direct chat is the person's own: everything in it is said in their language.
            settings.lang = author_lang;
            // Every line there is for capabot: a command typed without the prefix is answered
            // with its hints written so too (`play`, not `!play`), as help answers in the form
            // it was asked.
            if let Body::Text(text) = &inp.body
                && !text.trim_start().starts_with(settings.prefix.as_str())
            {
                settings.hint = String::new();
            }
        }
        with_lang(settings.lang, || self.dispatch(&Ctx { inp, settings: settings.clone(), author_lang }))
    }

    /// The author's language for an input (their setting, their client's, the chat's).
    pub fn author_lang(&self, inp: &Input) -> Lang {
        match self.effective_settings(&inp.scope) {
            Ok(mut s) => self.langs_of(inp, &mut s),
            Err(_) => inp.locale.as_deref().and_then(Lang::parse).unwrap_or(self.config.lang),
        }
    }

    fn internal_error(&self, inp: &Input, detail: &str, lang: Lang) -> String {
        let seq = self.error_seq.fetch_add(1, Ordering::Relaxed);
        let id = format!("E{:x}-{seq}", self.clock.now().rem_euclid(1 << 24));
        if crate::store::sql::conflict_met() {
            // The unit of work met another writer: it runs again, and this answer is never sent.
            tracing::debug!(platform = %inp.scope.platform, chat = %inp.scope.chat, "{detail}; the unit runs again");
        } else {
            tracing::error!(error_id = %id, platform = %inp.scope.platform, chat = %inp.scope.chat, author = %inp.author.id, "{detail}");
        }
        crate::tl!(lang, "internal-error", id = id)
    }

    /// A front end delivered `reply`: remembers the message under the reply's slot and the thread
    /// opened for a game, so later replies replace that message and go to that thread.
    pub fn delivered(&self, reply: &Reply, receipt: &Receipt) {
        // An upsert of the slot and an update of the game by id: statements each atomic by itself.
        let run = || self.store.standalone(|| self.remember_delivery(&*self.store.conn()?, reply, receipt));
        if let Err(e) = run() {
            tracing::error!("could not record a delivery: {e:?}");
        }
    }

    /// Whether [`Bot::remember_delivery`] has anything to record for this delivery.
    pub fn delivery_to_remember(&self, reply: &Reply, receipt: &Receipt) -> bool {
        (reply.slot.is_some() && receipt.message_id.is_some())
            || (reply.new_thread.is_some() && receipt.thread_id.is_some())
    }

    /// What [`Bot::delivered`] records, on `conn` (the outbox records it with the row's state).
    pub(crate) fn remember_delivery(
        &self,
        conn: &crate::store::Connection,
        reply: &Reply,
        receipt: &Receipt,
    ) -> crate::store::Result<()> {
        let platform = reply.target.platform();
        if let (Some(slot), Some(mid)) = (&reply.slot, &receipt.message_id) {
            events::set_slot(conn, platform, &slot.key, mid, self.clock.now())?;
        }
        if let (Some(t), Some(thread)) = (&reply.new_thread, &receipt.thread_id) {
            games::set_thread(conn, t.game_id, thread)?;
        }
        Ok(())
    }

    /// Computes the move of an AI job (blocking; run it on a blocking pool, never on an async
    /// runtime thread).
    pub fn run_ai_job(&self, job: &AiJob) -> Option<Move> {
        self.oracle.choose(&job.game, job.level)
    }

    /// Runs an AI job inline and feeds its move back, repeating for follow-up jobs (tests).
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

/// How an input's work runs in its unit of work ([`Bot::handle`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Savepoints {
    /// As a whole, with no savepoint: the unit is rolled back if the work fails.
    Elided,
    /// Under a savepoint, so that the work alone is undone if it fails.
    Kept,
}

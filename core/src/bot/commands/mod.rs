//! The commands themselves, one module per family: challenges and game start, moves (and the AI's
//! moves fed back), offers (resign, draw, takeback, abort), the Capablanca Relocation setup phase,
//! information (board, games, PGN) and settings. This module routes an input to its handler and
//! holds what they share: finding the game a command is about, replaying it, reply building.

mod analyse;
mod bombs;
mod challenge;
mod info;
mod ladder;
mod link;
mod moves;
mod offers;
mod ratings;
mod relocation;
mod results;
pub(in crate::bot) use results::FAILPOINT_ENV;
mod settings;
mod tournament;
pub mod web;

use super::command::{self, Command};
use super::drawing::{BoardDrawing, Drawing};
use super::error::{Res, user};
use super::io::{Audience, Body, Choice, ChoiceStyle, GameCard, Reply, Response, Scope, Target, UserRef, Via};
use super::seams::PICTURE_SIZE;
use super::textboard::text_board;
use super::{Bot, BotError, Ctx};
use crate::i18n::{Lang, Msg};
use crate::notation::{fen, uci};
use crate::render::Theme;
use crate::rules::{Color, Game, Move, Position, VARIANTS, Variant};
use crate::store::games::{self, GameRow, Status};
use crate::store::players::{self, Player, PlayerId};
use crate::store::{Conn, challenges::Challenge};
use crate::{msg, t};

pub(super) const DAY: i64 = 86_400;

/// Deadline and reminder time for a move made at `now` with `days` per move.
pub(in crate::bot) fn clock_after(days: Option<u32>, now: i64) -> (Option<i64>, Option<i64>) {
    match days {
        Some(d) => {
            let span = i64::from(d) * DAY;
            let deadline = now + span;
            (Some(deadline), Some(deadline - span / 5))
        }
        None => (None, None),
    }
}

pub(in crate::bot) fn turn_of_fen(fen_text: &str) -> Color {
    if fen_text.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::White }
}

/// The variant a person named, by its short name or its full name (spaces and case aside), the
/// full name with or without its last word "Chess" (`capablanca random`), or its name in any
/// catalogue, as every message names it (`Schach`, `Atomik Satranç`; marks aside: `satranc`).
pub(in crate::bot) fn find_variant(name: &str) -> Option<&'static Variant> {
    let lower = name.to_lowercase();
    Variant::by_name(&lower).or_else(|| {
        let typed = lower.replace(' ', "");
        VARIANTS
            .iter()
            .copied()
            .find(|v| {
                let full = v.display_name.to_lowercase().replace(' ', "");
                full == typed || (!typed.is_empty() && full.strip_suffix("chess") == Some(typed.as_str()))
            })
            .or_else(|| {
                let typed = compact(&typed);
                localized_names().iter().find(|(_, n)| command::same_word(&typed, n)).map(|(v, _)| *v)
            })
    })
}

/// `name` without its spaces and hyphens, as a variant's name is compared.
fn compact(name: &str) -> String {
    name.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_lowercase()
}

/// Each variant's name in each catalogue (`variant-name`), lower case, without spaces and hyphens.
fn localized_names() -> &'static [(&'static Variant, String)] {
    static NAMES: std::sync::LazyLock<Vec<(&'static Variant, String)>> = std::sync::LazyLock::new(|| {
        let mut names = Vec::new();
        for v in VARIANTS.iter().copied() {
            for lang in Lang::ALL {
                let name = compact(&msg!("variant-name", variant = v.name).render(lang));
                if !names.iter().any(|(w, n): &(&Variant, String)| w.name == v.name && *n == name) {
                    names.push((v, name));
                }
            }
        }
        names
    });
    &NAMES
}

/// A variant's name in the reader's language ("Schach" in a German chat; the catalogues'
/// `variant-name`), as a message argument, by its short name; a name no variant has stays as given.
pub(in crate::bot) fn variant_title(id: &str) -> Msg {
    match Variant::by_name(id) {
        Some(v) => msg!("variant-name", variant = v.name),
        None => Msg::raw(id),
    }
}

/// [`variant_title`] rendered in the language in force.
pub(in crate::bot) fn variant_text(id: &str) -> String {
    variant_title(id).render(crate::i18n::current())
}

/// The variants' short names, for the messages that list them.
pub(in crate::bot) fn variant_names() -> String {
    VARIANTS.iter().map(|v| v.name).collect::<Vec<_>>().join(", ")
}

/// The variant whose short name `name`, no variant's, is most likely a slip for (`atomik`: `atomic`),
/// for a word of four letters or more: a shorter one is more often a person's name (`!challenge
/// bob` is no slip for `bomb`).
pub(in crate::bot) fn near_variant(name: &str) -> Option<&'static str> {
    if name.chars().count() < 4 {
        return None;
    }
    super::near::nearest(name, VARIANTS.iter().map(|v| v.name)).or_else(|| {
        // A slip in its name in a catalogue (`schack`: Schach).
        let near = super::near::nearest(&compact(name), localized_names().iter().map(|(_, n)| n.as_str()))?;
        localized_names().iter().find(|(_, n)| n == near).map(|(v, _)| v.name)
    })
}

pub(super) fn variant_named(name: &str) -> Res<&'static Variant> {
    // The slip is looked for only for a name no variant has: every move reads its game's variant
    // by name, and the comparisons with every variant's name were about 1 % of a move's time.
    if let Some(v) = find_variant(name) {
        return Ok(v);
    }
    match near_variant(name) {
        Some(near) => user(msg!("variant-unknown-near", name = short(name), near = near, names = variant_names())),
        None => user(msg!("variant-unknown", name = short(name), names = variant_names())),
    }
}

/// The command of the input: as sent (a slash command, a button), or read from its text (after the
/// chat's prefix, if it has it).
pub(super) fn input_command(cx: &Ctx<'_>) -> Option<Command> {
    match &cx.inp.body {
        Body::Command(c) => Some(c.clone()),
        Body::Text(raw) => {
            let text = raw.trim();
            command::parse(text.strip_prefix(cx.settings.prefix.as_str()).unwrap_or(text)).ok()
        }
    }
}

/// "I don't know the command `word`", with the command it is most likely a slip for.
pub(in crate::bot) fn unknown_command(word: &str, p: &str) -> Msg {
    match command::near_word(word) {
        Some(near) => msg!("command-unknown-near", word = short(word), near = near, p = p),
        None => msg!("command-unknown", word = short(word), p = p),
    }
}

/// A variant a game may be challenged to (every variant).
pub(super) fn playable_variant(name: &str) -> Res<&'static Variant> {
    variant_named(name)
}

/// The variant a stored game is played in (a name no longer known is the store's fault).
pub(in crate::bot) fn game_variant(row: &GameRow) -> Res<&'static Variant> {
    variant_named(&row.variant).map_err(|_| BotError::Internal(format!("game {} has unknown variant", row.id)))
}

/// A game's start position as stored (no secret bombs: see [`Bot::load_game`]).
pub(in crate::bot) fn start_position(row: &GameRow) -> Res<Position> {
    fen::parse_position(game_variant(row)?, &row.start_fen)
        .map_err(|e| BotError::Internal(format!("game {}: bad start FEN: {e}", row.id)))
}

/// Messages in a row, with commas between them (`a, b, c`), said in the reader's language.
pub(in crate::bot) fn comma_list(items: Vec<Msg>) -> Msg {
    let mut items = items.into_iter().rev();
    let last = items.next().unwrap_or_else(|| msg!("comma-list-none"));
    items.fold(last, |tail, head| msg!("comma-list", head = head, tail = tail))
}

/// User text cut to 40 characters of what [`shows`], for echoing back.
pub(in crate::bot) fn short(s: &str) -> String {
    s.chars().filter(|&c| shows(c)).take(40).collect()
}

/// Whether a character of user text (a name, a tournament's name) is kept where capabot writes it:
/// not a control character, and none of the invisible ones that change how the text around them
/// reads — the direction overrides and isolates (`U+202E` makes "alice" of "ecila" and turns the
/// rest of a line around), the direction marks, zero-width spaces and the byte-order mark — so
/// that a name cannot pass for another or garble the message it stands in. The zero-width
/// joiners, which Persian and emoji sequences need, stay.
pub(in crate::bot) fn shows(c: char) -> bool {
    !c.is_control()
        && !matches!(
            c,
            '\u{061C}' | '\u{200B}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}'
        )
}

pub(super) fn move_label(pos: &Position, san_text: &str) -> String {
    let dots = if pos.turn() == Color::White { "." } else { "..." };
    format!("{}{dots} {san_text}", pos.fullmoves())
}

/// A button-like choice carrying a typed command (and its typed form under prefix `p`).
pub(super) fn choice(label: &str, command: Command, style: ChoiceStyle, for_user: Option<UserRef>, p: &str) -> Choice {
    Choice { label: label.into(), typed: command.typed(p), command, style, for_user }
}

pub(super) fn mover_color(row: &GameRow, p: PlayerId) -> Color {
    row.color_of(p).unwrap_or(Color::White)
}

/// The chat (and thread) a game is played in.
pub(in crate::bot) fn game_scope(row: &GameRow) -> Scope {
    Scope {
        platform: row.platform.clone(),
        community: row.community_id.clone(),
        chat: row.chat_id.clone(),
        thread: row.thread_id.clone(),
        direct: false,
        interaction_only: row.interaction_only,
    }
}

pub(in crate::bot) use ladder::Answer as LadderAnswer;

pub(in crate::bot) fn game_target(row: &GameRow) -> Target {
    Target::Chat(game_scope(row))
}

/// The chat a challenge was made in.
pub(in crate::bot) fn challenge_target(c: &Challenge) -> Target {
    Target::Chat(Scope {
        platform: c.platform.clone(),
        community: c.community_id.clone(),
        chat: c.chat_id.clone(),
        thread: None,
        direct: false,
        interaction_only: c.interaction_only,
    })
}

impl Bot {
    pub(in crate::bot) fn conn(&self) -> Res<Conn<'_>> {
        Ok(self.store.conn()?)
    }

    pub(in crate::bot) fn reply_in(&self, scope: &Scope, text: impl Into<String>) -> Reply {
        Reply::new(Target::Chat(scope.clone()), text)
    }

    pub(in crate::bot) fn reply_game(&self, row: &GameRow, text: impl Into<String>) -> Reply {
        Reply::new(game_target(row), text)
    }

    /// A reply only the author needs (ephemeral where the platform can), in the author's language.
    pub(in crate::bot) fn private(&self, cx: &Ctx<'_>, text: impl Into<Msg>) -> Response {
        self.private_in(cx, cx.author_lang, text)
    }

    /// A reply for the author's eyes only ([`Audience::Only`]: it names a secret), in the author's
    /// language: to their direct messages, or privately through their own open interaction.
    pub(in crate::bot) fn secret(&self, cx: &Ctx<'_>, text: impl Into<Msg>) -> Response {
        let mut r = Reply::only_for(&cx.scope().platform, cx.inp.author.clone(), text.into().render(cx.author_lang));
        r.lang = cx.author_lang;
        Response::one(r)
    }

    /// A reply only the author needs, written by `text` in the author's language.
    fn for_asker(&self, cx: &Ctx<'_>, text: impl FnOnce() -> String) -> Response {
        self.private(cx, crate::i18n::with_lang(cx.author_lang, text))
    }

    /// A reply only the author needs, in `lang`.
    pub(in crate::bot) fn private_in(&self, cx: &Ctx<'_>, lang: Lang, text: impl Into<Msg>) -> Response {
        let mut r = Reply::new(cx.target(), text.into().render(lang));
        r.audience = Audience::Author;
        r.lang = lang;
        Response::one(r)
    }

    /// Routes one input: a typed command straight to its handler; a text line through the parser
    /// when it starts with the prefix, else as a possible bare move.
    pub(in crate::bot) fn dispatch(&self, cx: &Ctx<'_>) -> Res<Response> {
        // Typed text is read with the prefix; `cx.p()` is how replies write commands.
        let p = cx.settings.prefix.clone();
        let cmd = match &cx.inp.body {
            Body::Command(c) => c.clone(),
            Body::Text(raw) => {
                let text = raw.trim();
                // In a direct chat with capabot every line is for it: the prefix may be left out
                // of a command word (`bomb g1`); anything else is a possible bare move, and a line
                // that is neither is answered (once). A line addressed to capabot by name or
                // mention is a move where it reads as one (`capabot: Nf3`), else a command
                // whatever its first word (`capabot: challenge bob`): the front end found none it
                // could read in it, and the person is told why.
                let first_word = text.split_whitespace().next().unwrap_or("");
                let body = match text.strip_prefix(p.as_str()) {
                    // The prefix before a number or more punctuation ("+1", "!!!", "?!", "...") is
                    // chatter in a shared chat, not a command to answer "I don't know the command
                    // '1'" to.
                    Some(body)
                        if !cx.scope().direct
                            && cx.inp.via != Via::Addressed
                            && body
                                .trim_start()
                                .chars()
                                .next()
                                .is_none_or(|c| c.is_ascii_digit() || c.is_ascii_punctuation()) =>
                    {
                        return self.plain_text(cx, text);
                    }
                    Some(body) => body,
                    // Addressed with a move (`capabot: Nf3`): played as the same move typed bare.
                    None if cx.inp.via == Via::Addressed && command::spec(first_word).is_none() => {
                        let moved = self.plain_text(cx, text)?;
                        if !moved.replies.is_empty() || !moved.ai_jobs.is_empty() {
                            return Ok(moved);
                        }
                        text
                    }
                    None if cx.inp.via == Via::Addressed => text,
                    None if cx.scope().direct && command::spec(first_word).is_some() => text,
                    None if cx.scope().direct => return self.direct_line(cx, text),
                    None => return self.plain_text(cx, text),
                };
                if raw.len() > self.config.max_input {
                    return user(msg!("input-too-long", count = raw.chars().count(), p = p));
                }
                match command::parse(body) {
                    Ok(c) => c,
                    // A known command written wrongly: where its own help is.
                    // A number that names nothing (`move #0 e4`): said as it is.
                    Err(e) if e.is_answer() => return user(e.answer(&p)),
                    Err(e) => {
                        let error = e.answer(&p);
                        return match body.split_whitespace().next().and_then(command::spec) {
                            Some(c) => user(msg!("parse-error-command", error = error, p = p, command = c.name)),
                            None => user(msg!("parse-error", error = error, p = p)),
                        };
                    }
                }
            }
        };
        let mut out = self.run_command(cx, cmd)?;
        // community results: standings messages owed since a game's end moved ladder places, and
        // tournament rounds paired or finished by it. Only a unit that wrote a ladder's or a
        // tournament's rows can owe them (a `DELETE … RETURNING` and a read of every unannounced
        // tournament, two round trips on PostgreSQL, were run after every command); what other units
        // owe (an AI's move) is announced by the scheduler's next tick, as before by any command.
        if crate::store::sql::unit_has_written("ladder") {
            out.extend(self.ladder_standings_owed()?);
        }
        if crate::store::sql::unit_has_written("tournament") {
            out.extend(self.tournament_owed()?);
        }
        Ok(out)
    }

    fn run_command(&self, cx: &Ctx<'_>, cmd: Command) -> Res<Response> {
        match cmd {
            // The reference answers (help, variants, rules) are the asker's: in their language
            // (`lang tr` in an English chat), privately where the platform can. The help is
            // written the way the person asked: a slash command (in a DM too, where typed commands
            // also work) is answered with the slash commands.
            Command::Help(which) => {
                let slash = cx.slash() || cx.inp.via == Via::Interaction;
                // In a direct chat every line is for capabot: `help` said there without the prefix
                // lists the commands as typed there, without it (`!help` still lists them with it).
                let bare =
                    matches!(&cx.inp.body, Body::Text(t) if !t.trim_start().starts_with(cx.settings.prefix.as_str()));
                let p = if slash {
                    "/"
                } else if cx.scope().direct && bare {
                    ""
                } else {
                    cx.p()
                };
                match which {
                    None => Ok(self.for_asker(cx, || command::help_text(p, slash))),
                    Some(word) => match command::spec(&word) {
                        Some(c) => Ok(self.for_asker(cx, || command::command_help(c, p, slash))),
                        None => user(unknown_command(&word, p)),
                    },
                }
            }
            Command::Lang(choice) => self.lang_setting(cx, choice),
            Command::Theme(choice) => self.theme_setting(cx, choice),
            Command::Variants => Ok(self.for_asker(cx, info::variants_text)),
            Command::Rules(name) => {
                let v = variant_named(name.as_deref().unwrap_or(&cx.settings.default_variant))?;
                Ok(self.for_asker(cx, || rules_page(v)))
            }
            Command::Challenge(args) => self.challenge(cx, args, false),
            Command::Play(args) => self.challenge(cx, args, true),
            Command::Accept(id) => self.accept(cx, id),
            Command::Decline(id) => self.decline(cx, id),
            Command::Move { game, text } => self.move_cmd(cx, game, &text, true),
            Command::Other { game, text } => self.move_cmd(cx, game, &text, false),
            Command::Board(id) => self.board(cx, id),
            Command::Games => self.games_list(cx),
            Command::Resign(id) => self.resign(cx, id),
            Command::Draw(id) => self.draw(cx, id),
            Command::DrawDecline(id) => self.draw_decline(cx, id),
            Command::Takeback(id) => self.takeback(cx, id),
            Command::TakebackDecline(id) => self.takeback_decline(cx, id),
            Command::Abort(id) => self.abort(cx, id),
            Command::Fen(id) => {
                let (_, row) = self.shown_game(cx, id)?;
                Ok(cx.say(t!("game-fen", id = row.id, fen = row.fen.as_str())))
            }
            Command::Pgn { game, analysed: false } => self.pgn(cx, game),
            Command::Pgn { game, analysed: true } => self.analysed_pgn(cx, game),
            Command::Analyse(id) => self.analyse(cx, id),
            Command::Gif(id) => self.gif(cx, id),
            Command::Rematch(id) => self.rematch(cx, id),
            Command::Swap { game, text } => self.swap(cx, game, &text),
            Command::NoSwap(game) => self.swap(cx, game, "none"),
            Command::Bomb { game, square } => self.bomb(cx, game, square),
            Command::Moves { game, square } => self.legal_moves(cx, game, square.as_deref()),
            Command::Settings(args) => self.settings(cx, args),
            Command::Notify(on) => self.notify_setting(cx, on),
            Command::Rating(args) => self.rating_cmd(cx, args),
            Command::Leaderboard(args) => self.leaderboard_cmd(cx, args),
            Command::History(args) => self.history_cmd(cx, args),
            Command::Link(code) => self.link(cx, code),
            Command::Unlink => self.unlink(cx),
            Command::Web => self.web_cmd(cx),
            // Their standings and pairings are posted without anyone's command, which cannot be
            // done where the bot answers only interactions.
            Command::Ladder(_) if cx.scope().interaction_only => user(msg!("interaction-only-no-ladders")),
            Command::Tournament(_) if cx.scope().interaction_only => user(msg!("interaction-only-no-tournaments")),
            Command::Ladder(c) => self.ladder_cmd(cx, c),
            Command::Tournament(c) => self.tournament_cmd(cx, c),
        }
    }

    pub(in crate::bot) fn me(&self, conn: &Conn<'_>, cx: &Ctx<'_>) -> Res<Player> {
        let name =
            if cx.inp.author.name.trim().is_empty() { cx.inp.author.id.as_str() } else { cx.inp.author.name.trim() };
        Ok(players::ensure(conn, &cx.scope().platform, &cx.inp.author.id, &short(name), self.clock.now())?)
    }

    pub(in crate::bot) fn name_of(&self, conn: &Conn<'_>, id: PlayerId) -> Res<String> {
        Ok(players::get(conn, id)?.map_or_else(|| t!("player-fallback", id = id), |p| p.name))
    }

    /// The names of players, in order, read in one statement (a player gone: "player N").
    pub(in crate::bot) fn names_of(&self, conn: &Conn<'_>, ids: &[PlayerId]) -> Res<Vec<String>> {
        let names = players::get_many(conn, ids)?;
        Ok(ids
            .iter()
            .map(|id| names.get(id).map_or_else(|| t!("player-fallback", id = *id), |p| p.name.clone()))
            .collect())
    }

    /// Games named for someone choosing among them by `me`'s side and opponent (`#1 as black vs
    /// capabot, #2 as white vs bob`; the opponents read in one statement), as a message said in its
    /// reader's language.
    pub(in crate::bot) fn games_named(&self, conn: &Conn<'_>, rows: &[&GameRow], me: PlayerId) -> Res<Msg> {
        let others: Vec<PlayerId> = rows.iter().map(|g| if g.white == me { g.black } else { g.white }).collect();
        let names = self.names_of(conn, &others)?;
        let named = rows.iter().zip(names).map(|(g, other)| {
            let color = if g.white == me { "white" } else { "black" };
            msg!("game-against", id = g.id, color = color, other = other)
        });
        Ok(comma_list(named.collect()))
    }

    pub(in crate::bot) fn notify_of(&self, conn: &Conn<'_>, platform: &str, id: PlayerId) -> Res<Vec<UserRef>> {
        let name = self.name_of(conn, id)?;
        Ok(players::accounts_on(conn, id, platform)?
            .into_iter()
            .map(|uid| UserRef { id: uid, name: name.clone() })
            .collect())
    }

    pub(in crate::bot) fn is_self_mention(&self, m: &UserRef) -> bool {
        self.config.self_names.iter().any(|n| n.eq_ignore_ascii_case(&m.id) || n.eq_ignore_ascii_case(&m.name))
    }

    /// The game a command is about: `#id`, or the author's only open game in this chat.
    pub(in crate::bot) fn game_for(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<(Player, GameRow)> {
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else {
            if let Some(id) = id
                && games::get(&conn, id)?.is_some()
            {
                return user(msg!("game-not-yours", id = id));
            }
            return user(msg!("no-games-yet", p = cx.p(), direct = cx.direct_word()));
        };
        match id {
            Some(id) => {
                let Some(row) = games::get(&conn, id)? else { return user(msg!("game-none", id = id)) };
                if row.platform != cx.scope().platform || row.chat_id != cx.scope().chat {
                    return user(msg!("game-not-here", id = id));
                }
                if row.color_of(me.id).is_none() {
                    return user(msg!("game-not-yours", id = id));
                }
                Ok((me, row))
            }
            None => {
                let open = games::open_in_chat(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?;
                match open.len() {
                    0 => match games::latest_in_chat(&conn, &cx.scope().platform, &cx.scope().chat, me.id)? {
                        Some(row) => Ok((me, row)),
                        // In a direct chat, which only the person reads: where their games are.
                        None if cx.scope().direct => {
                            let open = games::open_of_player(&conn, me.id)?;
                            let elsewhere: Vec<&GameRow> =
                                open.iter().filter(|g| g.platform == cx.scope().platform).collect();
                            if elsewhere.is_empty() {
                                user(msg!("no-game-in-chat", p = cx.p(), direct = cx.direct_word()))
                            } else {
                                user(msg!(
                                    "direct-games-elsewhere",
                                    games = self.games_named(&conn, &elsewhere, me.id)?
                                ))
                            }
                        }
                        None => user(msg!("no-game-in-chat", p = cx.p(), direct = cx.direct_word())),
                    },
                    1 => Ok((me, open.into_iter().next().expect("one"))),
                    _ => {
                        let named = self.games_named(&conn, &open.iter().collect::<Vec<_>>(), me.id)?;
                        // The person's own command with the first game's number (`!draw #1`).
                        let example = input_command(cx).unwrap_or(Command::Board(None)).about_game(open[0].id);
                        user(msg!("games-which", count = open.len(), ids = named, example = example.typed(cx.p())))
                    }
                }
            }
        }
    }

    /// A paused game (its chat or thread gone or closed to the bot) goes on where one of its
    /// players plays a move in it: it moves to this chat, out of its thread, so that its replies are
    /// no longer sent where they cannot be posted (and its players are not told again). Its clock
    /// starts again only once both players have moved in the same chat: a game taken to another
    /// chat stays paused there until the opponent moves there too, so that nobody loses on time in
    /// a chat they cannot read; never to a direct chat, which only one of them reads. Reading a
    /// paused game (`board #N`) moves nothing.
    pub(in crate::bot) fn take_up_paused(
        &self,
        conn: &Conn<'_>,
        cx: &Ctx<'_>,
        me: &Player,
        row: GameRow,
    ) -> Res<GameRow> {
        if !row.paused || row.platform != cx.scope().platform || row.color_of(me.id).is_none() {
            return Ok(row);
        }
        let (scope, id) = (cx.scope(), row.id);
        let here = row.chat_id == scope.chat;
        // Not to a direct chat, nor from a community to a chat of none (a private group): the
        // opponent could not follow there, and the community's pages would show what is played
        // in private.
        if !here && (scope.direct || (scope.community.is_none() && row.community_id.is_some())) {
            return user(msg!("game-paused-not-direct", id = id, p = self.hint_elsewhere(&row, false)));
        }
        games::relocate(conn, id, (scope.chat.as_str(), scope.interaction_only), here, self.clock.now())?;
        games::get(conn, id)?.ok_or_else(|| BotError::Internal(format!("game {id} vanished")))
    }

    /// Replays a stored game and checks it reaches the stored FEN.
    ///
    /// Row and moves are read in one read transaction (one snapshot); when the game has moved on
    /// since `row` was read, the caller is told the position changed.
    pub(in crate::bot) fn load_game(&self, conn: &Conn<'_>, row: &GameRow) -> Res<Game> {
        let tx = crate::store::snapshot(conn)?;
        let fresh = games::get(&tx, row.id)?.ok_or_else(|| BotError::Internal(format!("game {} vanished", row.id)))?;
        if fresh.ply != row.ply || fresh.status != row.status {
            return user(msg!("position-changed", id = row.id, p = self.hint_for(&game_scope(row))));
        }
        let stored = games::moves(&tx, row.id)?;
        tx.commit()?;
        replay(&fresh, stored.iter().map(|m| (m.ply, m.uci.as_str())))
    }

    /// Checks a stored game replays to its FEN (for start-up checks and tests).
    pub fn verify_game(&self, id: i64) -> Result<(), String> {
        self.verify_games(&[id]).map_err(|(_, why)| why)
    }

    /// Checks that the stored games `ids` — a run of the games' ids in order, as `capabot migrate`
    /// goes through every game — replay to their FENs, reading them and their moves in one
    /// statement; the first that does not, with why.
    pub fn verify_games(&self, ids: &[i64]) -> Result<(), (i64, String)> {
        let (Some(&first), Some(&last)) = (ids.first(), ids.last()) else { return Ok(()) };
        let conn = self.conn().map_err(|_| (first, "no connection".to_string()))?; // i18n: operator
        let read = games::with_moves_between(&conn, first, last).map_err(|e| (first, e.to_string()))?;
        let mut read = read.into_iter();
        for &id in ids {
            let Some((row, moves)) = read.by_ref().find(|(row, _)| row.id >= id).filter(|(row, _)| row.id == id) else {
                return Err((id, "no such game".to_string())); // i18n: operator
            };
            if row.status == Status::Setup {
                continue;
            }
            replay(&row, moves.iter().map(|m| (m.ply, m.uci.as_str()))).map_err(|e| match e {
                BotError::User(m) => (id, m.to_string()),
                BotError::Internal(s) => (id, s),
            })?;
        }
        Ok(())
    }

    pub(in crate::bot) fn board_reply(
        &self,
        target: Target,
        text: String,
        pos: &Position,
        last: Option<Move>,
        viewer: Color,
    ) -> Reply {
        let mut r = Reply::new(target, text);
        if self.config.pictures {
            let board = BoardDrawing::new(pos, last, viewer, None, PICTURE_SIZE, Theme::default());
            r.drawing = Some(Drawing::Board(board));
            r.alt_text = Some(alt_text(pos, last));
        }
        r.text_board = Some(text_board(pos));
        r
    }

    /// The facts of a game for front ends that lay them out.
    pub(in crate::bot) fn game_card(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        pos: &Position,
        last: Option<String>,
    ) -> Res<GameCard> {
        let v = variant_named(&row.variant)?;
        let active = matches!(row.status, Status::Active | Status::Setup);
        let to_move = if active {
            let p = row.player(pos.turn());
            let name = self.name_of(conn, p)?;
            players::accounts_on(conn, p, &row.platform)?.into_iter().next().map(|id| UserRef { id, name })
        } else {
            None
        };
        Ok(GameCard {
            game_id: row.id,
            variant: variant_text(v.name),
            white: self.name_of(conn, row.white)?,
            black: self.name_of(conn, row.black)?,
            last_move: last,
            to_move,
            deadline: row.deadline.filter(|_| active),
            result: None,
            web_url: self.web_link(conn, row)?,
        })
    }
}

/// What a board reply says beside its picture, derived from the picture's description alone: the
/// description for screen readers ([`Bot::board_reply`]'s) and the text board, in `lang`. The outbox
/// stores neither where a reply's are these, and derives them again when it reads the row.
pub(in crate::bot) fn board_texts(drawing: &BoardDrawing, lang: Lang) -> Option<(String, String)> {
    let (pos, last) = drawing.position().ok()?;
    Some((crate::i18n::with_lang(lang, || alt_text(&pos, last)), text_board(&pos)))
}

/// A description of the board for screen readers: the side to move, the last move and the pieces.
fn alt_text(pos: &Position, last: Option<Move>) -> String {
    let v = pos.variant();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for rank in (0..v.height).rev() {
        for file in 0..v.width {
            let sq = crate::rules::Square::new(file, rank);
            if let Some(p) = pos.piece_at(sq) {
                let c = p.fen_char();
                let entry = format!("{}{sq}", c.to_ascii_uppercase());
                if c.is_ascii_uppercase() { white.push(entry) } else { black.push(entry) }
            }
        }
    }
    let last = last.map(|m| t!("alt-last-move", from = m.from.to_string(), to = m.to.to_string())).unwrap_or_default();
    t!(
        "alt-board",
        variant = variant_title(v.name),
        color = color_word(pos.turn()),
        last = last,
        white = white.join(" "),
        black = black.join(" ")
    )
}

/// A side's name in the language in force (`white`, `beyaz`).
/// A position as everyone in its chat may know it: in secret-bomb chess without either side's bomb
/// (what is written from it, a move's `+` or `#` included, would otherwise depend on a secret).
pub(in crate::bot) fn public_position(pos: &crate::rules::Position) -> crate::rules::Position {
    if pos.variant().bombs { pos.without_bomb(Color::White).without_bomb(Color::Black) } else { pos.clone() }
}

pub(in crate::bot) fn color_word(c: Color) -> String {
    match c {
        Color::White => t!("color-white"),
        Color::Black => t!("color-black"),
    }
}

/// A side's name as a message, for one reader's language.
pub(in crate::bot) fn color_msg(c: Color) -> Msg {
    match c {
        Color::White => msg!("color-white"),
        Color::Black => msg!("color-black"),
    }
}

/// The rules page of a variant in the language in force, with how moves are written.
pub(in crate::bot) fn rules_page(v: &Variant) -> String {
    let id = format!("rules-{}", v.name);
    let page = crate::i18n::t(&id, &[]);
    t!("rules-page", variant = variant_title(v.name), page = page)
}

/// The game a stored row and its moves (ply, coordinates) make: each move replayed from the start
/// position (with its secret bombs), and checked to end at the row's FEN and ply.
pub(in crate::bot) fn replay<'m>(row: &GameRow, moves: impl IntoIterator<Item = (u32, &'m str)>) -> Res<Game> {
    let mut start = start_position(row)?;
    if start.variant().bombs {
        // The secret bombs, chosen on the start position; the rules carry them from there.
        start = start
            .with_bombs(bombs::stored_bombs(row)?)
            .map_err(|e| BotError::Internal(format!("game {}: stored bombs: {e}", row.id)))?;
    }
    let mut game = Game::new(start);
    for (ply, m) in moves {
        let mv = uci::parse(game.position(), m).map_err(|e| {
            BotError::Internal(format!("game {} ply {ply}: stored move {m} does not replay: {e}", row.id))
        })?;
        if !game.play(mv) {
            return Err(BotError::Internal(format!("game {} ply {ply}: stored move {m} is illegal", row.id)));
        }
    }
    let now_fen = fen::write(game.position());
    if now_fen != row.fen || game.moves().len() != row.ply as usize {
        return Err(BotError::Internal(format!(
            "game {}: consistency check failed: moves replay to '{now_fen}' ({} plies) but the stored FEN is '{}' (ply {})",
            row.id,
            game.moves().len(),
            row.fen,
            row.ply
        )));
    }
    Ok(game)
}

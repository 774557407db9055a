//! Moves: typed (`move e4`) and bare (`e4`), checked against the rules and stored through the
//! ply-guarded transaction; the AI's moves fed back by the host; the notices that follow a move.

use super::challenge::thinking_slot;
use super::{
    Bot, BotError, Ctx, Res, clock_after, color_msg, color_word, game_scope, game_target, move_label, mover_color,
    short, turn_of_fen, user, variant_named,
};
use crate::bot::Told;
use crate::bot::io::{AiJob, Reply, Response, Slot, Target, UserRef};
use crate::i18n::{Lang, with_lang};
use crate::notation::{self, fen, san, uci};
use crate::rules::{Game, Move, Outcome};
use crate::store::games::{self, GameRow, MoveUpdate, Status};
use crate::store::players::{self, Player, PlayerId};
use crate::store::{Conn, events};
use crate::{msg, t};

impl Bot {
    /// Text without the prefix: a bare move when it is one for the author's only game to move in
    /// here. A text that reads as a move in a game here but is not taken (illegal, out of turn, or
    /// by someone not playing) gets one short answer per person and position of the game (for the
    /// player to move, one per move tried there), so a player knows; other text is ignored (people
    /// talk in chats).
    pub(super) fn plain_text(&self, cx: &Ctx<'_>, text: &str) -> Res<Response> {
        // `1. e4`, `12...Nf6`: a move copied with its number.
        let text = notation::without_move_number(text);
        if let Some(refused) = self.bomb_without_prefix(cx, text)? {
            return Ok(refused);
        }
        // Spaces mean chatter, except inside a Capatomic castling's brackets (`O-O[e1 g1]`).
        let spaced = text.contains(char::is_whitespace) && !notation::looks_like_move(text);
        if text.is_empty() || text.len() > 40 || spaced {
            return Ok(Response::default());
        }
        let conn = self.conn()?;
        let (platform, chat) = (&cx.scope().platform, &cx.scope().chat);
        let me = players::find(&conn, platform, &cx.inp.author.id)?;
        if let Some(me) = &me {
            // Their games here still choosing a setup, and those waiting for their move.
            let (setup, mine): (Vec<GameRow>, Vec<GameRow>) = games::open_in_chat(&conn, platform, chat, me.id)?
                .into_iter()
                .filter(|g| {
                    g.status == Status::Setup || (g.status == Status::Active && g.player(turn_of_fen(&g.fen)) == me.id)
                })
                .partition(|g| g.status == Status::Setup);
            if let [row] = mine.as_slice() {
                let Ok(pos) = self.position_for_mover(&conn, row) else {
                    return Ok(Response::default());
                };
                return match notation::parse_move(&pos, text) {
                    Ok(m) => {
                        let row = row.clone();
                        drop(conn);
                        self.play_move(cx, me, row, text, Some(Reading { pos, read: Ok(m) }))
                    }
                    Err(e) if reads_as_move(&e, text) => {
                        // Put in full only when it is said (once a person and position).
                        let told = || {
                            self.tell_once_with(
                                cx,
                                Told::BareMove { game: row.id, ply: row.ply, text: Told::key(text) },
                                || {
                                    let full = self.refusal_in_full(&conn, row, &pos, text, &e);
                                    let e = full.as_ref().unwrap_or(&e);
                                    msg!("game-move-error", id = row.id, error = move_error(&pos, e))
                                },
                            )
                        };
                        Ok(self.bomb_gone(cx, row, &pos, &e, told)?.unwrap_or_else(told))
                    }
                    Err(_) => Ok(Response::default()),
                };
            }
            if mine.len() > 1 {
                return self.which_game(cx, &conn, (&mine, me.id), text);
            }
            // A move in a game of theirs still choosing its setup (Capablanca Relocation's swaps).
            for row in setup {
                if !reads_as_move_in(&row, text)? {
                    continue;
                }
                let answer = msg!("game-in-setup", id = row.id, p = cx.p());
                return Ok(self.tell_once(cx, Told::BareMove { game: row.id, ply: row.ply, text: 0 }, answer));
            }
        }
        for row in games::active_in_chat(&conn, platform, chat)? {
            if !reads_as_move_in(&row, text)? {
                continue;
            }
            let turn = turn_of_fen(&row.fen);
            let mover = self.name_of(&conn, row.player(turn))?;
            let answer = match me.as_ref().and_then(|m| row.color_of(m.id)) {
                Some(_) => msg!("not-your-turn", id = row.id, other = mover, color = color_msg(turn)),
                None => self.not_playing(&conn, &row)?,
            };
            return Ok(self.tell_once(cx, Told::BareMove { game: row.id, ply: row.ply, text: 0 }, answer));
        }
        Ok(Response::default())
    }

    /// `bomb g1` typed without the prefix in a shared chat by someone whose game here waits for
    /// their bomb: refused as `bomb g1` with the prefix is there (naming nothing), rather than met
    /// with silence; the same words from anyone else are chatter.
    fn bomb_without_prefix(&self, cx: &Ctx<'_>, text: &str) -> Res<Option<Response>> {
        let first = text.split_whitespace().next().unwrap_or("");
        if cx.inp.is_private() || crate::bot::command::spec(first).is_none_or(|c| c.name != "bomb") {
            return Ok(None);
        }
        let Ok(crate::bot::command::Command::Bomb { square: Some(_), .. }) = crate::bot::command::parse(text) else {
            return Ok(None);
        };
        let conn = self.conn()?;
        let (platform, chat) = (&cx.scope().platform, &cx.scope().chat);
        let Some(me) = players::find(&conn, platform, &cx.inp.author.id)? else { return Ok(None) };
        for g in games::open_in_chat(&conn, platform, chat, me.id)? {
            if let Some(color) = g.color_of(me.id)
                && super::bombs::bomb_owed(&g, color)?
            {
                return user(msg!("bomb-not-here"));
            }
        }
        Ok(None)
    }

    /// A bare move from someone with several games here waiting for their move: which one is meant
    /// is not guessed (the help promises bare moves for one game only). If the text reads as a
    /// move in any of them, the person is told to name the game, once while those games stay as
    /// they are, with the command for the first game where the move is legal; other text is chatter.
    fn which_game(
        &self,
        cx: &Ctx<'_>,
        conn: &Conn<'_>,
        (mine, me): (&[GameRow], PlayerId),
        text: &str,
    ) -> Res<Response> {
        let mut legal_in = None;
        let mut reads = false;
        for row in mine {
            let Ok(pos) = self.position_for_mover(conn, row) else { continue };
            match notation::parse_move(&pos, text) {
                Ok(_) => {
                    legal_in = legal_in.or(Some(row.id));
                    reads = true;
                }
                Err(e) => reads |= reads_as_move(&e, text),
            }
        }
        if !reads {
            return Ok(Response::default());
        }
        let (games, told) = self.which_games(conn, mine, me)?;
        let id = legal_in.unwrap_or(mine[0].id);
        let example = crate::bot::command::Command::Move { game: Some(id), text: short(text) }.typed(cx.p());
        Ok(self.tell_once(cx, told, msg!("bare-which-game", games = games, example = example)))
    }

    /// A line in a direct chat that is no command word: a bare move in a game there, else the
    /// person is told how to write commands here — once (the latest [`Told`]s): two programs that
    /// answer every line of a direct chat must not answer each other for ever.
    pub(super) fn direct_line(&self, cx: &Ctx<'_>, text: &str) -> Res<Response> {
        let out = self.plain_text(cx, text)?;
        if !out.replies.is_empty() {
            return Ok(out);
        }
        // A move in the person's games in other chats: where to play it (before: "I don't know 'e4'").
        if (!text.contains(char::is_whitespace) || notation::looks_like_move(text)) && text.len() <= 40 {
            let conn = self.conn()?;
            if let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? {
                let mut there = Vec::new();
                for g in games::open_of_player(&conn, me.id)? {
                    if reads_as_move_in(&g, text)? {
                        there.push(g);
                    }
                }
                if !there.is_empty() {
                    let (games, told) = self.which_games(&conn, &there, me.id)?;
                    let answer = msg!("direct-move-elsewhere", word = short(text), games = games);
                    return Ok(self.tell_once(cx, told, answer));
                }
            }
        }
        let first = text.split_whitespace().next().unwrap_or("");
        let answer = match crate::bot::command::near_word(first) {
            // The prefix itself is what needs not be typed here.
            Some(near) => {
                msg!("direct-unknown-near", word = short(first), near = near, p = cx.settings.prefix.as_str())
            }
            None => msg!("direct-unknown", word = short(first), p = cx.settings.prefix.as_str()),
        };
        Ok(self.tell_once(cx, Told::DirectLine, answer))
    }

    /// `text` for the author alone, the first time only for this person and `what`. In a direct chat
    /// a bare move's answer is given every time (the chat is the person's own, and a move in a game
    /// there is what the line was); a line that is no command stays once, so that two programs that
    /// answer every line do not answer each other for ever.
    fn tell_once(&self, cx: &Ctx<'_>, what: Told, text: crate::i18n::Msg) -> Response {
        self.tell_once_with(cx, what, || text)
    }

    /// [`Self::tell_once`] with the text made only when it is told.
    fn tell_once_with(&self, cx: &Ctx<'_>, what: Told, text: impl FnOnce() -> crate::i18n::Msg) -> Response {
        let always = cx.scope().direct && what != Told::DirectLine;
        let first = always || self.first_telling((what, cx.inp.author.id.clone()));
        if first { self.private(cx, text()) } else { Response::default() }
    }

    pub(super) fn move_cmd(&self, cx: &Ctx<'_>, id: Option<i64>, text: &str, explicit: bool) -> Res<Response> {
        let prefix = cx.p();
        let conn = self.conn()?;
        let unknown = || user(super::unknown_command(text.split_whitespace().next().unwrap_or(""), prefix));
        let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
        // The game named, read once for the two looks below.
        let named = match id {
            Some(id) => games::get(&conn, id)?,
            None => None,
        };
        // A move in a game of this chat by someone not playing in it: who does, as a bare move is
        // answered.
        if let Some(row) = &named
            && row.platform == cx.scope().platform
            && row.chat_id == cx.scope().chat
            && me.as_ref().is_none_or(|m| row.color_of(m.id).is_none())
            && (explicit || reads_as_move_in(row, text)?)
        {
            return user(self.not_playing(&conn, row)?);
        }
        let Some(me) = me else {
            if id.is_some() {
                drop(conn);
                self.game_for(cx, id)?;
            }
            return if explicit {
                user(msg!("no-game-here", p = cx.p(), direct = cx.direct_word()))
            } else {
                unknown()
            };
        };
        let row = match id {
            Some(id) => match named {
                // A paused game of the author's, wherever it is: the move takes it up here (where
                // [`Bot::take_up_paused`] allows), in `play_move`.
                Some(row) if row.paused && row.platform == cx.scope().platform && row.color_of(me.id).is_some() => row,
                _ => {
                    drop(conn);
                    self.game_for(cx, Some(id))?.1
                }
            },
            None => {
                let open = games::open_in_chat(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?;
                if open.is_empty() {
                    if explicit && cx.scope().direct {
                        // In a direct chat, which only the person reads: where their games are.
                        let elsewhere: Vec<GameRow> = games::open_of_player(&conn, me.id)?
                            .into_iter()
                            .filter(|g| g.platform == cx.scope().platform)
                            .collect();
                        if !elsewhere.is_empty() {
                            let games = self.which_games(&conn, &elsewhere, me.id)?.0;
                            return user(msg!("direct-move-command-elsewhere", games = games));
                        }
                    }
                    return if explicit {
                        user(msg!("no-game-in-progress", p = cx.p(), direct = cx.direct_word()))
                    } else {
                        unknown()
                    };
                }
                let mine: Vec<&GameRow> = open
                    .iter()
                    .filter(|g| g.status == Status::Active && g.player(turn_of_fen(&g.fen)) == me.id)
                    .collect();
                match mine.as_slice() {
                    [g] => (*g).clone(),
                    [] if open.len() == 1 => open[0].clone(),
                    [] => return user(msg!("not-your-turn-anywhere")),
                    many => {
                        let first = format!("#{}", many[0].id);
                        return user(msg!(
                            "your-turn-which",
                            count = many.len(),
                            ids = self.games_named(&conn, many, me.id)?,
                            p = prefix,
                            first = first,
                            text = short(text)
                        ));
                    }
                }
            }
        };
        let mut reading = None;
        if !explicit {
            // A bare word that is not a move in this game: probably a mistyped command.
            let v = variant_named(&row.variant)?;
            if let Ok(pos) = fen::parse_position(v, &row.fen) {
                let read = notation::parse_move(&pos, text);
                if let Err(notation::MoveError::Syntax { .. }) = read {
                    return unknown();
                }
                reading = Some(Reading { pos, read });
            }
        }
        self.play_move(cx, &me, row, text, reading)
    }

    /// Plays `text` in `row` for `me`, or says why not; `reading` is `text` as read already from
    /// the game's stored position, used again where the game's own position reads it alike.
    pub(super) fn play_move(
        &self,
        cx: &Ctx<'_>,
        me: &Player,
        row: GameRow,
        text: &str,
        reading: Option<Reading>,
    ) -> Res<Response> {
        let conn = self.conn()?;
        let row = self.take_up_paused(&conn, cx, me, row)?;
        let id = row.id;
        match row.status {
            Status::Setup => return user(msg!("game-in-setup", id = id, p = cx.p())),
            Status::Finished => {
                return user(msg!(
                    "game-over-already",
                    id = id,
                    result = row.result.as_deref().unwrap_or("none"),
                    p = cx.p()
                ));
            }
            Status::Aborted => return user(msg!("game-aborted-already", id = id)),
            Status::Active => {}
        }
        let Some(_) = row.color_of(me.id) else {
            return user(self.not_playing(&conn, &row)?);
        };
        let turn = turn_of_fen(&row.fen);
        if row.player(turn) != me.id {
            let other = self.name_of(&conn, row.player(turn))?;
            return user(msg!("not-your-turn", id = id, other = other, color = color_msg(turn)));
        }
        if let Some(out) = self.bomb_missing(cx, &conn, &row, turn)? {
            return Ok(out);
        }
        let mut game = self.load_game(&conn, &row)?;
        let pos = game.position().clone();
        let read = match reading {
            Some(Reading { pos: read_in, read }) if read_in == pos && (read.is_ok() || !pos.variant().missiles) => read,
            _ => notation::parse_move(&pos, text),
        };
        let mv = match read {
            Ok(m) => m,
            Err(e) => {
                let refused = msg!("game-move-error", id = id, error = move_error(&pos, &e));
                return match self.bomb_gone(cx, &row, &pos, &e, || self.private(cx, refused.clone()))? {
                    Some(out) => Ok(out),
                    None => user(refused),
                };
            }
        };
        self.commit_move(&conn, &row, &mut game, mv, me)
    }

    /// The answer to a move in `row` by someone not playing in it: who plays it.
    fn not_playing(&self, conn: &Conn<'_>, row: &GameRow) -> Res<crate::i18n::Msg> {
        Ok(msg!(
            "move-not-playing",
            id = row.id,
            white = self.name_of(conn, row.white)?,
            black = self.name_of(conn, row.black)?
        ))
    }

    /// Applies `mv` (legal in `game`) as ply `row.ply + 1` and builds the replies.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn commit_move(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        game: &mut Game,
        mv: Move,
        mover: &Player,
    ) -> Res<Response> {
        let now = self.clock.now();
        let id = row.id;
        let before = game.position().clone();
        let san_text = san::write(&before, mv);
        let uci_text = uci::write(&before, mv);
        if !game.play(mv) {
            return user(msg!("move-not-legal", id = id));
        }
        let after = game.position().clone();
        let outcome = game.outcome();
        let fen_after = fen::write(&after);
        // A paused game taken to this chat: no clock until the opponent has moved here too.
        let (deadline, remind_at) = if row.paused { (None, None) } else { clock_after(row.days_per_move, now) };
        let update = MoveUpdate { uci: &uci_text, fen_after: &fen_after, deadline, remind_at, outcome };
        let mut notes = Vec::new();
        let mut on_end = |c: &crate::store::Connection, r: &GameRow| self.on_game_end(c, r, &mut notes);
        if !games::apply_move(conn, id, row.ply, &update, now, &mut on_end)? {
            return user(msg!("move-raced", id = id));
        }
        if row.paused && outcome.is_none() {
            games::keep_paused(conn, id)?;
        }
        // Both players with their settings and accounts in one statement, kept for the replies
        // below (the next player's name, the opponent's mention and notice): one statement where
        // the opponent's row and accounts took two.
        players::read_pair(conn, &row.platform, row.white, row.black)?;
        let label = move_label(&before, &san_text);
        let next = after.turn();
        let next_player = row.player(next);
        let next_name = self.name_of(conn, next_player)?;
        let mut text = t!("move-played", id = id, label = label.as_str(), name = mover.name.as_str());
        if let Some(blast) = blast_note(&before, &after, mv) {
            text.push(' ');
            text.push_str(&blast);
        }
        // A death match's double explosion: the game goes on, and how it is won is now different.
        if outcome.is_none() && kings_just_gone(&before, &after) {
            text.push(' ');
            text.push_str(&t!("death-match-kingless"));
        }
        if let Some(o) = outcome {
            text.push_str(&format!(" {}", self.end_text(conn, row, o)?));
            for n in &notes {
                text.push_str(&format!("\n{n}"));
            }
        } else {
            text.push_str(&format!(" {}", t!("to-move", name = next_name.as_str(), color = color_word(next))));
            if after.is_check() {
                text.push_str(&format!(" {}", t!("check")));
            }
            if deadline.is_some() {
                text.push_str(&format!(" {}", t!("days-to-reply", count = row.days_per_move.unwrap_or(0))));
            } else if row.paused {
                text.push_str(&format!(" {}", t!("game-taken-up", name = next_name.as_str())));
            }
        }
        let viewer = if outcome.is_some() { mover_color(row, mover.id) } else { next };
        let platform = row.platform.as_str();
        let mut r = self.board_reply(game_target(row), text, &after, Some(mv), viewer);
        let opponent = row.player(mover_color(row, mover.id).other());
        r.notify = self.notify_of(conn, platform, opponent)?;
        let fresh = games::get(conn, id)?.unwrap_or_else(|| row.clone());
        let mut card = self.game_card(conn, &fresh, &after, Some(label.clone()))?;
        card.result = match outcome {
            Some(o) => Some(self.end_text(conn, row, o)?),
            None => None,
        };
        r.card = Some(card);
        if mover.is_ai {
            // The move replaces the "thinking…" message, where there was one.
            let key = thinking_slot(id);
            if let Some(previous) = events::slot(conn, platform, &key)? {
                events::clear_slot(conn, platform, &key)?;
                r.slot = Some(Slot { key: format!("{key}:done"), previous: Some(previous) });
            }
        }
        let mut out = Response::one(r);
        if outcome.is_some() {
            self.at_game_end(conn, id, &mut out.replies);
        }
        let next_is_ai = players::get(conn, next_player)?.is_some_and(|p| p.is_ai);
        if outcome.is_none()
            && let Some(level) = row.ai_level
            && next_is_ai
        {
            out.extend(self.ai_turn(&game_target(&fresh), id, row.ply + 1, level, game.clone()));
        }
        if outcome.is_none() && !next_is_ai && row.days_per_move.is_some() {
            let lang = self.player_lang(next_player, crate::i18n::current());
            let notice = crate::tl!(
                lang,
                "your-move-notice",
                id = id,
                name = mover.name.as_str(),
                variant = super::variant_title(&row.variant),
                label = label.as_str(),
                days = row.days_per_move.unwrap_or(0)
            );
            out.replies.extend(self.direct_notice(conn, &fresh, next_player, notice, false)?);
        }
        Ok(out)
    }

    /// How game `row` ended, "Game over: 1-0 — …", where the game is named before it (a move's
    /// answer, a notice that begins with it).
    pub(in crate::bot) fn end_text(&self, conn: &Conn<'_>, row: &GameRow, o: Outcome) -> Res<String> {
        self.end_text_headed(conn, row, o, msg!("game-over-head"))
    }

    /// [`Bot::end_text`] said alone, naming the game: "Game #4 is over: 1-0 — …" (before: "Game #4:
    /// Game over: …").
    pub(in crate::bot) fn ended_text(&self, conn: &Conn<'_>, row: &GameRow, o: Outcome) -> Res<String> {
        self.end_text_headed(conn, row, o, msg!("game-over-head-numbered", id = row.id))
    }

    fn end_text_headed(&self, conn: &Conn<'_>, row: &GameRow, o: Outcome, head: crate::i18n::Msg) -> Res<String> {
        let reason = reason_text(o);
        let mut text = match o {
            // `why` picks a sentence where "wins by …" does not read ("wins by king exploded").
            Outcome::Decisive { winner, .. } => t!(
                "game-over-win",
                head = head,
                result = o.result_str(),
                name = self.name_of(conn, row.player(winner))?,
                reason = reason,
                why = reason_key(o)
            ),
            Outcome::Draw(_) => t!("game-over-draw", head = head, result = o.result_str(), reason = reason),
        };
        // Secret-bomb chess: the secret ends with the game.
        if let Some(reveal) = self.bombs_revealed(conn, row)? {
            text.push(' ');
            text.push_str(&reveal);
        }
        Ok(text)
    }

    /// Feeds back the move of an [`AiJob`]: stored through the same guarded transaction as human
    /// moves; dropped when the game moved on meanwhile.
    pub fn finish_ai_job(&self, job: &AiJob, mv: Option<Move>) -> Response {
        self.finish_ai_job_for(job, mv, None)
    }

    /// [`Bot::finish_ai_job`] for the input `origin` that led to it: the move's replies answer that
    /// event too (a Discord interaction gets the AI's move as its follow-up while it is open).
    pub fn finish_ai_job_for(&self, job: &AiJob, mv: Option<Move>, origin: Option<&str>) -> Response {
        let lang = self.game_lang(job.game_id);
        self.in_unit("ai-move", || {
            let mut r = with_lang(lang, || self.finish_ai_job_now(job, mv));
            for reply in &mut r.replies {
                if reply.in_reply_to.is_none() {
                    reply.in_reply_to = origin.map(str::to_string);
                }
            }
            r
        })
    }

    fn finish_ai_job_now(&self, job: &AiJob, mv: Option<Move>) -> Response {
        match self.all_or_nothing(|| self.finish_ai_inner(job, mv)) {
            Ok(r) => r,
            Err(BotError::User(m)) => {
                tracing::info!(game = job.game_id, "AI move not applied: {m}");
                Response::default()
            }
            Err(BotError::Internal(e)) => {
                tracing::error!(game = job.game_id, "AI move failed: {e}");
                Response::default()
            }
        }
    }

    pub(super) fn finish_ai_inner(&self, job: &AiJob, mv: Option<Move>) -> Res<Response> {
        let conn = self.conn()?;
        let Some(row) = games::get(&conn, job.game_id)? else { return user(msg!("ai-game-vanished")) };
        if row.status != Status::Active || row.ply != job.ply {
            return user(msg!("ai-game-moved-on"));
        }
        let mut game = self.load_game(&conn, &row)?;
        // The same ply is not the same game: a takeback and another move while the search ran bring
        // the game back to the job's ply by another road, where the move was not chosen.
        if game.moves() != job.game.moves() || game.start() != job.game.start() {
            return user(msg!("ai-game-moved-on"));
        }
        let ai = players::ai(&conn, self.clock.now())?;
        let Some(mv) = mv.filter(|m| job.game.position().is_legal(*m)) else {
            let r = self.reply_game(&row, t!("ai-no-move", id = row.id, p = self.hint_for(&game_scope(&row))));
            return Ok(Response::one(r));
        };
        self.commit_move(&conn, &row, &mut game, mv, &ai)
    }

    /// The language a game's chat reads (the configuration's when the game is not found).
    pub(in crate::bot) fn game_lang(&self, game_id: i64) -> Lang {
        let row = self.conn().ok().and_then(|c| games::get(&c, game_id).ok().flatten());
        row.map_or(self.config.lang, |r| self.lang_in(&game_scope(&r)))
    }

    /// AI jobs for games where capabot is to move (after a restart), on the platforms `served`.
    ///
    /// # Errors
    /// When the store cannot be read (the caller asks again later).
    pub fn pending_ai_jobs(&self, served: &crate::bot::Served) -> Res<Vec<AiJob>> {
        let platforms: Vec<&str> = served.platforms.iter().map(String::as_str).collect();
        // A unit of work: processes starting together each create capabot's player if none has
        // yet, and on PostgreSQL all but one of them meet a serialization failure, which the unit
        // runs again (before: logged, and the AI's games were not taken up).
        let rows = self.store.unit(|| {
            let conn = self.store.conn()?;
            let ai = players::ai(&conn, self.clock.now())?;
            games::ai_to_move(&conn, ai.id, &platforms)
        })?;
        let conn = self.conn()?;
        let mut jobs = Vec::new();
        for row in rows {
            let game = self.load_game(&conn, &row)?;
            jobs.push(AiJob { game_id: row.id, ply: row.ply, level: row.ai_level.unwrap_or(3), game });
        }
        Ok(jobs)
    }
}

/// A typed move as read from a game's stored position (its FEN), for [`Bot::play_move`]: the game's
/// replayed position reads it alike when the two are equal, but for a secret bomb (which the FEN
/// does not show, so the two differ) and a Capatomic refusal (whose en passant forbidden by a pin
/// the FEN drops, while equal positions may differ in it: see [`Bot::refusal_in_full`]).
pub(super) struct Reading {
    pos: crate::rules::Position,
    read: Result<Move, notation::MoveError>,
}

impl Bot {
    /// Why `text` is refused in `row`, for its player, when `e` (as read from `pos`, its stored
    /// position) does not say it all: Capatomic's FEN drops an en passant that a pin forbids (C16),
    /// and only that can change a refusal (`dxe4` "would leave your king in check", not "no pawn
    /// of yours can reach e4"). So only when the last move was a double step whose en passant `pos`
    /// lacks is the refusal read again, from `pos` with that en passant: the last stored move is
    /// read, no game replayed. `None`: `e` says it all.
    fn refusal_in_full(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        pos: &crate::rules::Position,
        text: &str,
        e: &notation::MoveError,
    ) -> Option<notation::MoveError> {
        if !pos.variant().missiles || pos.ep_square().is_some() || !matches!(e, notation::MoveError::Illegal { .. }) {
            return None;
        }
        let moves = games::moves(conn, row.id).ok()?;
        let last = moves.last().filter(|m| m.ply == row.ply)?;
        let them = pos.turn().other();
        let ahead: i32 = if them == crate::rules::Color::White { 1 } else { -1 };
        let from_rank = i32::from(pos.variant().pawn_rank_of(them));
        // The pawn of theirs that stepped two squares last, if one did.
        let passed = pos.pieces(them, crate::rules::Role::Pawn).find_map(|to| {
            let from = crate::rules::Square::try_new(to.file() as i32, from_rank)?;
            let double = i32::from(to.rank()) == from_rank + 2 * ahead && last.uci == format!("{from}{to}");
            double.then(|| crate::rules::Square::try_new(to.file() as i32, from_rank + ahead)).flatten()
        })?;
        let mut setup = pos.to_setup();
        setup.ep_square = Some(passed);
        let with_ep = crate::rules::Position::from_setup(pos.variant(), &setup).ok()?;
        notation::parse_move(&with_ep, text).err()
    }

    /// A game's position as its side to move knows it: from the stored FEN, or in secret-bomb chess
    /// replayed with that side's own bomb and without the other side's.
    fn position_for_mover(&self, conn: &Conn<'_>, row: &GameRow) -> Res<crate::rules::Position> {
        let v = variant_named(&row.variant)?;
        if v.bombs {
            let game = self.load_game(conn, row)?;
            let pos = game.position();
            return Ok(pos.without_bomb(pos.turn().other()));
        }
        fen::parse_position(v, &row.fen).map_err(|e| BotError::Internal(format!("game {}: {e}", row.id)))
    }
}

/// Why a game ended, as a key: its words joined by hyphens (`king-exploded`).
fn reason_key(o: Outcome) -> String {
    let words: Vec<&str> = o.reason_str().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    words.join("-")
}

/// Why a game ended, in the language in force (`checkmate`, `şah mat`).
pub(in crate::bot) fn reason_text(o: Outcome) -> String {
    let id = format!("reason-{}", reason_key(o));
    if crate::i18n::has(Lang::En, &id) { crate::i18n::t(&id, &[]) } else { o.reason_str().to_string() }
}

/// A move that was not taken in `pos`, as a message in its reader's language.
pub(in crate::bot) fn move_error(pos: &crate::rules::Position, e: &notation::MoveError) -> crate::i18n::Msg {
    use notation::MoveError as E;
    match e {
        E::Empty => msg!("move-error-empty"),
        E::TooLong => msg!("move-error-too-long"),
        E::Syntax { input, examples } => msg!(
            "move-error-syntax",
            input = input.as_str(),
            san = examples.san.join(", "),
            coordinates = examples.coordinates.join(", ")
        ),
        E::Illegal { input, reason, hints } => {
            let (reason, meant) = match reason {
                notation::Refusal::NotFrom { role, square, .. } => not_from(pos, reason, hints, *role, *square),
                other => (refusal(other), None),
            };
            let hints = match (meant, hint_list(hints, true)) {
                (Some(meant), Some(hints)) => Some(msg!("move-error-hint-list", first = hints, rest = meant)),
                (meant, hints) => meant.or(hints),
            };
            match hints {
                None => msg!("move-error-illegal", input = input.as_str(), reason = reason),
                Some(hints) => msg!("move-error-illegal-hints", input = input.as_str(), reason = reason, hints = hints),
            }
        }
        E::Ambiguous { input, candidates } => {
            msg!("move-error-ambiguous", input = input.as_str(), candidates = or_list(candidates))
        }
    }
}

/// A move refused because no `role` from the file or rank typed reaches `square`, though one from
/// elsewhere does: the refusal, and the moves there that were likely meant (`c4` for `bc4`). Where
/// the letter was read as another piece first (`b`: a bishop), whose moves the hints list, the
/// refusal says that this piece cannot reach the square either, so that it speaks of the moves it
/// lists beside it.
fn not_from(
    pos: &crate::rules::Position,
    reason: &notation::Refusal,
    hints: &[notation::Hint],
    role: crate::rules::Role,
    square: crate::rules::Square,
) -> (crate::i18n::Msg, Option<crate::i18n::Msg>) {
    let listed = hints.iter().find_map(|h| match h {
        notation::Hint::Moves { role: other, .. } if *other != role => Some(*other),
        _ => None,
    });
    let why = match listed {
        Some(other) => msg!(
            "refusal-and",
            first = msg!("refusal-cannot-reach", role = other.name(), square = square.to_string()),
            rest = refusal(reason)
        ),
        None => refusal(reason),
    };
    let meant: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| {
            m.to == square
                && !m.is_castle()
                && !m.is_launch()
                && !m.is_detonation()
                && pos.piece_at(m.from).is_some_and(|p| p.role == role)
        })
        .map(|m| san::write(pos, *m))
        .collect();
    let meant = (!meant.is_empty()).then(|| msg!("hint-meant", moves = or_list(&meant)));
    (why, meant)
}

/// Why a move is not legal, as a message.
fn refusal(r: &notation::Refusal) -> crate::i18n::Msg {
    use notation::Refusal as R;
    let sq = |s: &crate::rules::Square| s.to_string();
    match r {
        R::NoBombs => msg!("refusal-no-bombs"),
        R::Detonation => msg!("refusal-detonation"),
        R::NoMissiles => msg!("refusal-no-missiles"),
        R::NotAMissile { from, role } => msg!("refusal-not-a-missile", from = sq(from), role = piece_name(*role)),
        R::NoMissileOn { from } => msg!("refusal-no-missile-on", from = sq(from)),
        R::OffBoard { square } => msg!("refusal-off-board", square = sq(square)),
        R::Unarmed => msg!("refusal-unarmed"),
        R::MissileAttacked { from, by, role } => {
            msg!("refusal-missile-attacked", from = sq(from), by = sq(by), role = piece_name(*role))
        }
        R::Shielded { square } => msg!("refusal-shielded", square = sq(square)),
        R::LaunchIntoCheck => msg!("refusal-launch-into-check"),
        R::CastleMissiles { held } => {
            let why = held.iter().rev().map(|&(missile, hold)| missile_hold(missile, hold));
            why.reduce(|tail, first| msg!("refusal-list", first = first, rest = tail))
                .unwrap_or_else(|| msg!("refusal-castle-missiles"))
        }
        R::CastleInCheck => msg!("refusal-castle-in-check"),
        R::CastleImpossible => msg!("refusal-castle-impossible"),
        R::CastleIrradiated { square } => msg!("refusal-castle-irradiated", square = sq(square)),
        R::Promotion { roles, example } => {
            let choices: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
            msg!("refusal-promotion", choices = choices.join(", "), example = example.as_str())
        }
        R::PromotionCoordinates { example } => msg!("refusal-promotion-coordinates", example = example.as_str()),
        R::PromotionTo { role, roles } => {
            let choices: Vec<String> = roles.iter().map(|r| format!("={}", r.upper_char())).collect();
            msg!("refusal-promotion-to", role = piece_name(*role), choices = choices.join(", "))
        }
        R::NoSuchRole { role } => msg!("refusal-no-such-role", role = piece_name(*role)),
        R::NoPieceOfRole { role } => msg!("refusal-no-piece-of-role", role = role.name()),
        R::Irradiated { square } => msg!("refusal-irradiated", square = sq(square)),
        R::IrradiatedOnTheWay { square, to } => {
            msg!("refusal-irradiated-on-the-way", square = sq(square), to = sq(to))
        }
        R::OwnPiece { square } => msg!("refusal-own-piece", square = sq(square)),
        R::CheckNotAnswered { role } => msg!("refusal-check-not-answered", role = piece_name(*role)),
        R::IntoCheck { role } => msg!("refusal-into-check", role = piece_name(*role)),
        R::ExplodesOwnKing { role } => msg!("refusal-explodes-own-king", role = piece_name(*role)),
        R::CannotReach { role, square } => msg!("refusal-cannot-reach", role = role.name(), square = sq(square)),
        R::NotFrom { role, square, file, rank } => {
            let file = file.map(|f| char::from(b'a' + f).to_string());
            let place = match (file, rank) {
                (Some(file), Some(rank)) => msg!("place-square", square = format!("{file}{}", rank + 1)),
                (Some(file), None) => msg!("place-file", file = file),
                (None, Some(rank)) => msg!("place-rank", rank = (rank + 1).to_string()),
                (None, None) => return msg!("refusal-cannot-reach", role = role.name(), square = sq(square)),
            };
            msg!("refusal-not-from", role = role.name(), place = place, square = sq(square))
        }
        R::NoPieceOn { square } => msg!("refusal-no-piece-on", square = sq(square)),
        R::NotYours { role, square, owner } => msg!(
            "refusal-not-yours",
            role = piece_name(*role),
            square = sq(square),
            owner = owner.name(),
            turn = owner.other().name()
        ),
        R::NoLegalMove { role, from } => msg!("refusal-no-legal-move", role = piece_name(*role), from = sq(from)),
        R::CannotGo { role, from, to } => {
            msg!("refusal-cannot-go", role = piece_name(*role), from = sq(from), to = sq(to))
        }
    }
}

/// Why a missile named in castling cannot come along, as a message.
fn missile_hold(missile: crate::rules::Square, hold: notation::MissileHold) -> crate::i18n::Msg {
    use notation::MissileHold as H;
    let missile = missile.to_string();
    match hold {
        H::NoMissile => msg!("missile-hold-none", missile = missile),
        H::Moved => msg!("missile-hold-moved", missile = missile),
        H::KingStays => msg!("missile-hold-king-stays"),
        H::Blocked(square) => msg!("missile-hold-blocked", missile = missile, square = square.to_string()),
        H::Irradiated(square) => msg!("missile-hold-irradiated", missile = missile, square = square.to_string()),
    }
}

/// Texts as alternatives (`Nbd2 or Nfd2`), said in the reader's language.
fn or_list(items: &[String]) -> crate::i18n::Msg {
    let mut items = items.iter().rev();
    let last = crate::i18n::Msg::raw(items.next().cloned().unwrap_or_default());
    items.fold(last, |tail, head| msg!("or-list", head = head, tail = tail))
}

/// A piece's name in the reader's language.
fn piece_name(role: crate::rules::Role) -> crate::i18n::Msg {
    msg!("piece-name", role = role.name())
}

/// The legal alternatives beside a refusal, as one message (`None` without any).
/// With `by_kind` false, a kind's moves are listed without its name (one piece's moves).
pub(super) fn hint_list(hints: &[notation::Hint], by_kind: bool) -> Option<crate::i18n::Msg> {
    use notation::Hint as H;
    let one = |h: &H| match h {
        H::Moves { role, moves } if by_kind => {
            msg!("hint-moves", role = piece_name(*role), moves = moves.join(", "))
        }
        H::Moves { moves, .. } => msg!("hint-plain", moves = moves.join(", ")),
        H::Castling(moves) => msg!("hint-castling", moves = moves.join(", ")),
        H::InCheck => msg!("hint-in-check"),
        H::Launches(moves) => msg!("hint-launches", moves = moves.join(", ")),
    };
    let (last, rest) = hints.split_last()?;
    Some(rest.iter().rev().fold(one(last), |tail, h| msg!("move-error-hint-list", first = one(h), rest = tail)))
}

impl Bot {
    /// A notice for one player in their direct messages, unless they turned them off. With
    /// `fallback`, the game's chat gets it where direct messages are impossible (a reminder);
    /// without, it is dropped there (the chat already saw the move that it repeats).
    pub(in crate::bot) fn direct_notice(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        player: PlayerId,
        text: String,
        fallback: bool,
    ) -> Res<Vec<Reply>> {
        let notify = self.notify_of(conn, &row.platform, player)?;
        let Some(user) = notify.first().cloned() else { return Ok(vec![]) };
        let chat = match game_target(row) {
            Target::Chat(s) => s,
            Target::Direct { .. } => return Err(BotError::Internal("a game's target is a chat".into())),
        };
        let dm = players::dm_notices(conn, player)?;
        let mut r = match (dm, fallback) {
            (true, _) => Reply::new(
                Target::Direct {
                    platform: row.platform.clone(),
                    user: user.clone(),
                    fallback: fallback.then(|| chat.clone()),
                },
                text,
            ),
            (false, true) => Reply::new(Target::Chat(chat), text),
            (false, false) => return Ok(vec![]),
        };
        r.notify = vec![UserRef { ..user }];
        Ok(vec![r])
    }
}

/// Most move suggestions a front end shows (Discord's autocomplete takes 25).
pub const MAX_SUGGESTIONS: usize = 25;

/// A suggestion's name as a front end can show it: at most 100 characters (Discord's limit for a
/// choice), a longer one cut with "…".
pub(super) fn choice_name(name: String) -> String {
    if name.chars().count() > 100 { name.chars().take(99).collect::<String>() + "…" } else { name }
}

impl Bot {
    /// The author's legal moves in SAN, in their game in this chat where they are to move (`game`
    /// picks one when they have several), those starting with `typed` first (case-insensitive,
    /// ignoring `+`/`#`), then those containing it; at most [`MAX_SUGGESTIONS`]. Launches and
    /// castling included. Empty when they have no game to move in here.
    pub fn suggest_moves(
        &self,
        scope: &crate::bot::Scope,
        user_id: &str,
        game: Option<i64>,
        typed: &str,
    ) -> Vec<String> {
        let run = || -> Res<Vec<String>> {
            let conn = self.conn()?;
            let Some(me) = players::find(&conn, &scope.platform, user_id)? else { return Ok(vec![]) };
            let open = games::open_in_chat(&conn, &scope.platform, &scope.chat, me.id)?;
            let mine: Vec<&GameRow> = open
                .iter()
                .filter(|g| g.status == Status::Active && g.player(turn_of_fen(&g.fen)) == me.id)
                .filter(|g| game.is_none_or(|id| g.id == id))
                .collect();
            let Some(row) = mine.first() else { return Ok(vec![]) };
            let pos = self.position_for_mover(&conn, row)?;
            let norm = |s: &str| s.trim_end_matches(['+', '#']).to_lowercase();
            let want = norm(typed.trim());
            let mut sans: Vec<String> = pos.legal_moves().into_iter().map(|m| san::write(&pos, m)).collect();
            sans.sort();
            let (mut first, mut rest): (Vec<String>, Vec<String>) =
                sans.into_iter().filter(|s| norm(s).contains(&want)).partition(|s| norm(s).starts_with(&want));
            first.append(&mut rest);
            first.truncate(MAX_SUGGESTIONS);
            Ok(first)
        };
        run().unwrap_or_else(|e| {
            tracing::warn!("move suggestions failed: {e}");
            vec![]
        })
    }
}

impl Bot {
    /// For `moves`'s square: the squares of the pieces of the side to move that have a legal move,
    /// in the game in this chat (`game`, else the author's one game here), those starting with
    /// `typed` only, each shown with its moves (`g1: Nf3, Nh3`) and valued as the square; at most
    /// [`MAX_SUGGESTIONS`]. As `moves` answers anyone in the chat, the position is everyone's: a
    /// detonation is never among the moves. Empty where there is no such game.
    pub fn suggest_squares(
        &self,
        scope: &crate::bot::Scope,
        user_id: &str,
        game: Option<i64>,
        typed: &str,
    ) -> Vec<(String, String)> {
        let run = || -> Res<Vec<(String, String)>> {
            let conn = self.conn()?;
            let here = |g: &GameRow| g.platform == scope.platform && g.chat_id == scope.chat;
            let row = match game {
                Some(id) => games::get(&conn, id)?.filter(here),
                None => match players::find(&conn, &scope.platform, user_id)? {
                    Some(me) => {
                        let open = games::open_in_chat(&conn, &scope.platform, &scope.chat, me.id)?;
                        if open.len() == 1 { open.into_iter().next() } else { None }
                    }
                    None => None,
                },
            };
            let Some(row) = row.filter(|g| g.status == Status::Active) else { return Ok(vec![]) };
            let game = self.load_game(&conn, &row)?;
            let pos = &super::public_position(game.position());
            let want = typed.trim().to_lowercase();
            let mut out = Vec::new();
            for (sq, moves) in notation::san::listed_moves_by_square(pos) {
                let square = sq.to_string();
                if !square.starts_with(&want) {
                    continue;
                }
                out.push((choice_name(format!("{square}: {}", moves.join(", "))), square));
                if out.len() == MAX_SUGGESTIONS {
                    break;
                }
            }
            Ok(out)
        };
        run().unwrap_or_else(|e| {
            tracing::warn!("square suggestions failed: {e}");
            vec![]
        })
    }
}

impl Bot {
    /// Games a bare move could be for, named with `me`'s opponents (`#1 vs capabot, #2 vs bob`),
    /// and the notice that asks which, told once while they stay as they are
    /// ([`Told::WhichGame`]: the games and their positions).
    fn which_games(&self, conn: &Conn<'_>, games: &[GameRow], me: PlayerId) -> Res<(crate::i18n::Msg, Told)> {
        let named = self.games_named(conn, &games.iter().collect::<Vec<_>>(), me)?;
        let positions: Vec<(i64, u32)> = games.iter().map(|g| (g.id, g.ply)).collect();
        Ok((named, Told::WhichGame(Told::key(positions))))
    }
}

/// Whether a parse error still says the text was meant as a move (well-formed, but not legal or
/// ambiguous here; or unreadable but shaped as only a move is, `Mj1^k4`), rather than chatter.
fn reads_as_move(e: &notation::MoveError, text: &str) -> bool {
    match e {
        notation::MoveError::Illegal { .. } | notation::MoveError::Ambiguous { .. } => true,
        // Unreadable, but shaped like a launch or castling with missiles: no chat looks like that.
        notation::MoveError::Syntax { .. } => notation::looks_like_move(text),
        notation::MoveError::Empty | notation::MoveError::TooLong => false,
    }
}

/// Whether `text` reads as a move in `row`'s position as stored, legal or not (a stored position
/// that cannot be read: no).
fn reads_as_move_in(row: &GameRow, text: &str) -> Res<bool> {
    let Ok(pos) = fen::parse_position(variant_named(&row.variant)?, &row.fen) else { return Ok(false) };
    Ok(notation::parse_move(&pos, text).map_or_else(|e| reads_as_move(&e, text), |_| true))
}

/// Whether this move blew up the last kings on the board (a death match goes on without them).
fn kings_just_gone(before: &crate::rules::Position, after: &crate::rules::Position) -> bool {
    let kings = |p: &crate::rules::Position| p.by_role(crate::rules::Role::King);
    after.variant().death_match && kings(before).any() && kings(after).is_empty()
}

/// What an explosion took, said after the move (`fxe5` in atomic chess, a Capatomic launch, a
/// secret bomb's detonation): the pieces gone from the board, each by its letter, square and side,
/// and the square a missile irradiated. Read from the positions before and after, both of which
/// everyone in the chat has seen; `None` for a move that blew nothing up.
fn blast_note(before: &crate::rules::Position, after: &crate::rules::Position, mv: Move) -> Option<String> {
    let capture = before.piece_at(mv.to).is_some() || mv.kind == crate::rules::MoveKind::EnPassant;
    let atomic_capture = before.variant().atomic && capture && !mv.is_castle();
    if !(mv.is_launch() || mv.is_detonation() || atomic_capture) {
        return None;
    }
    // Gone: each piece of the board before that is not on it after. The moving piece is named on
    // the square where it blew up (gone unless it stands there after: pawn-safe atomic keeps its
    // pawns), a launched missile is spent rather than blown up, and what stood on the target
    // square is gone when anything else stands there after (the capturer that survived).
    let moving = before.piece_at(mv.from);
    // A capturer that stands on its square after made no blast (a pawn's capture in pawn-safe
    // atomic chess is an ordinary one).
    if atomic_capture && after.piece_at(mv.to) == moving {
        return None;
    }
    let mut gone: Vec<(crate::rules::Square, crate::rules::Piece)> = Vec::new();
    for sq in before.occupied() {
        let Some(p) = before.piece_at(sq) else { continue };
        let lost = if sq == mv.from && !mv.is_detonation() {
            !mv.is_launch() && after.piece_at(mv.to) != moving
        } else {
            after.piece_at(sq) != Some(p)
        };
        if lost {
            gone.push((if sq == mv.from { mv.to } else { sq }, p));
        }
    }
    gone.sort_by_key(|&(sq, p)| (sq != mv.to, sq == mv.to && p.color == before.turn()));
    let gone: Vec<String> = gone
        .iter()
        .map(|(sq, p)| t!("blast-piece", piece = format!("{}{sq}", p.role.upper_char()), color = color_word(p.color)))
        .collect();
    let square = mv.to.to_string();
    let mut note = if gone.is_empty() {
        t!("blast-nothing", square = square.as_str())
    } else {
        t!("blast-removes", square = square.as_str(), pieces = gone.join(", "))
    };
    if mv.is_launch() {
        note.push(' ');
        note.push_str(&t!("blast-irradiated", square = square.as_str()));
    }
    Some(note)
}

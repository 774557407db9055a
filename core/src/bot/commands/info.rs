//! What a player looks at: the board, their games and challenges, the variants, PGN export, the
//! whole game as an animated picture.

use super::moves::reason_text;
use super::{Bot, BotError, Ctx, Res, color_word, game_scope, game_target, turn_of_fen, user};
use crate::bot::drawing::{Drawing, GameDrawing};
use crate::bot::io::{Attachment, Reply, Response, Target};
use crate::bot::seams::PICTURE_SIZE;
use crate::notation::{pgn, san};
use crate::render::Theme;
use crate::render::gif::MAX_PLIES;
use crate::rules::{Color, Game, Role, Square, VARIANTS};
use crate::store::Conn;
use crate::store::challenges;
use crate::store::games::{self, GameRow, Status};
use crate::store::offers::{self, OfferKind};
use crate::store::players::{self, PlayerId};
use crate::{msg, t};

/// Where an open game stands for player `me`: `setup`, `bomb` (theirs still to choose), `yours`
/// or `theirs` (whose move).
fn open_state(g: &GameRow, me: PlayerId) -> Res<&'static str> {
    let mine = if g.white == me { Color::White } else { Color::Black };
    Ok(if g.status == Status::Setup {
        "setup"
    } else if super::bombs::bomb_owed(g, mine)? {
        "bomb"
    } else if g.player(turn_of_fen(&g.fen)) == me {
        "yours"
    } else {
        "theirs"
    })
}

/// Commands whose game may be over: their game option suggests the games over too (newest first,
/// after the open ones), and only those for `analyse` and `rematch`.
const OVER_TOO: &[&str] = &["analyse", "pgn", "gif", "rematch", "board", "fen"];
const OVER_ONLY: &[&str] = &["analyse", "rematch"];

impl Bot {
    /// For a command's `game` option (Discord's autocomplete): the author's games in this chat
    /// that `command` can act on, each named with its number, variant, opponent and where it
    /// stands (`#12 Chess vs bob — your move`, `#9 Chess vs carol — 1-0`) and valued as its
    /// number: the open ones first (those waiting for the author's move before the others), then
    /// for commands about games over ([`OVER_TOO`]) the most recent of those; `typed` keeps them as
    /// [`suggestions`] says. In the language in force.
    pub fn suggest_games(
        &self,
        scope: &crate::bot::Scope,
        user_id: &str,
        command: &str,
        typed: &str,
    ) -> Vec<(String, String)> {
        self.suggested(scope, user_id, ("game", typed), |conn, me| {
            let mut listed = Vec::new();
            if !OVER_ONLY.contains(&command) {
                for g in games::open_in_chat(conn, &scope.platform, &scope.chat, me)? {
                    let state = open_state(&g, me)?;
                    listed.push((g, state));
                }
                // Those waiting for the author first (a stable sort keeps each group's order).
                listed.sort_by_key(|(_, state)| !matches!(*state, "yours" | "bomb" | "setup"));
            }
            if OVER_TOO.contains(&command) {
                let over = games::over_in_chat(conn, &scope.platform, &scope.chat, me, super::moves::MAX_SUGGESTIONS)?;
                // An aborted game has nothing to analyse.
                for g in over.into_iter().filter(|g| command != "analyse" || g.status == Status::Finished) {
                    let state = if g.status == Status::Aborted { "aborted" } else { "finished" };
                    listed.push((g, state));
                }
            }
            let others: Vec<PlayerId> =
                listed.iter().map(|(g, _)| if g.white == me { g.black } else { g.white }).collect();
            let names = self.names_of(conn, &others)?;
            Ok(listed
                .into_iter()
                .zip(names)
                .map(|((g, state), other)| {
                    let variant = super::variant_title(&g.variant);
                    let name = t!(
                        "suggest-game",
                        id = g.id,
                        variant = variant,
                        other = other.as_str(),
                        state = state,
                        result = g.result.as_deref().unwrap_or("")
                    );
                    (name, g.id)
                })
                .collect())
        })
    }

    /// For `accept`'s and `decline`'s `challenge` option (Discord's autocomplete): the challenges
    /// in this chat the author can answer — those made to them, then open ones (`accept`), or those
    /// made to them, then their own, which `decline` withdraws —, each named with its number, who
    /// made it to whom and the variant, valued as its number, newest first in each group; `typed`
    /// keeps them as [`suggestions`] says. In the language in force.
    pub fn suggest_challenges(
        &self,
        scope: &crate::bot::Scope,
        user_id: &str,
        command: &str,
        typed: &str,
    ) -> Vec<(String, String)> {
        self.suggested(scope, user_id, ("challenge", typed), |conn, me| {
            let now = self.clock.now();
            let answerable = challenges::acceptable(conn, &scope.platform, &scope.chat, me, now)?;
            let (mut listed, open): (Vec<_>, Vec<_>) = answerable.into_iter().partition(|c| c.challenged == Some(me));
            if command == "decline" {
                let own = challenges::made_by(conn, &scope.platform, &scope.chat, me)?;
                listed.extend(own.into_iter().filter(|c| c.expires_at > now));
            } else {
                listed.extend(open);
            }
            let lang = crate::i18n::current();
            let named = self.challenges_named(conn, &listed, me)?;
            Ok(named.into_iter().zip(&listed).map(|(m, c)| (m.render(lang), c.id)).collect())
        })
    }

    /// Challenges named for `me` choosing among them, each with how it stands for them (made to
    /// them, open, theirs to someone, theirs open to anyone): `#3 from alice — Chess` (the other
    /// sides read in one statement), as messages said in their reader's language.
    pub(in crate::bot) fn challenges_named(
        &self,
        conn: &Conn<'_>,
        listed: &[challenges::Challenge],
        me: PlayerId,
    ) -> Res<Vec<crate::i18n::Msg>> {
        // The other side: the challenger, or for one's own the challenged (none if open).
        let others: Vec<PlayerId> =
            listed.iter().map(|c| if c.challenger == me { c.challenged.unwrap_or(me) } else { c.challenger }).collect();
        let names = self.names_of(conn, &others)?;
        Ok(listed
            .iter()
            .zip(names)
            .map(|(c, name)| {
                let kind = match (c.challenger == me, c.challenged) {
                    (true, Some(_)) => "yours",
                    (true, None) => "yours-open",
                    (false, Some(them)) if them == me => "to-you",
                    (false, _) => "open",
                };
                let variant = super::variant_title(&c.variant);
                crate::msg!("suggest-challenge", id = c.id, kind = kind, name = name, variant = variant)
            })
            .collect())
    }

    /// A suggestion list for the author (`what`, for the log): `list` names the numbered things
    /// from the store and the author's player, [`suggestions`] keeps what fits `typed`. Empty when
    /// capabot does not know the author, or (logged) when the store fails.
    fn suggested(
        &self,
        scope: &crate::bot::Scope,
        user_id: &str,
        (what, typed): (&str, &str),
        list: impl FnOnce(&Conn<'_>, PlayerId) -> Res<Vec<(String, i64)>>,
    ) -> Vec<(String, String)> {
        let run = || -> Res<Vec<(String, String)>> {
            let conn = self.conn()?;
            let Some(me) = players::find(&conn, &scope.platform, user_id)? else { return Ok(vec![]) };
            Ok(suggestions(list(&conn, me.id)?, typed))
        };
        run().unwrap_or_else(|e| {
            tracing::warn!("{what} suggestions failed: {e}");
            vec![]
        })
    }
}

/// Named things with numbers as a front end offers them for what was `typed`: those whose number
/// starts with it (a leading `#` ignored), else, for a text that is not a number, whose name
/// contains it (case-insensitive); in order, at most [`super::moves::MAX_SUGGESTIONS`], each name
/// cut to what a front end shows ([`super::moves::choice_name`]) and valued as its number.
pub(super) fn suggestions(named: impl IntoIterator<Item = (String, i64)>, typed: &str) -> Vec<(String, String)> {
    let typed = typed.trim().trim_start_matches('#').trim().to_lowercase();
    let number_typed = typed.bytes().all(|b| b.is_ascii_digit());
    named
        .into_iter()
        .map(|(name, id)| (name, id.to_string()))
        .filter(|(name, id)| id.starts_with(&typed) || (!number_typed && name.to_lowercase().contains(&typed)))
        .take(super::moves::MAX_SUGGESTIONS)
        .map(|(name, id)| (super::moves::choice_name(name), id))
        .collect()
}

/// The `variants` text.
pub(super) fn variants_text() -> String {
    let mut s = t!("variants-head");
    for v in VARIANTS {
        s.push_str(&format!("\n{} — {}", v.name, super::variant_text(v.name)));
    }
    s
}

impl Bot {
    pub(super) fn board(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        // In a direct chat, one's own secret-bomb game is shown with the bomb marked.
        if cx.scope().direct
            && let Some(own) = self.own_bomb_board(cx, id)?
        {
            return Ok(own);
        }
        let (viewer, row) = self.shown_game(cx, id)?;
        let conn = self.conn()?;
        let game = self.load_game(&conn, &row)?;
        let pos = game.position();
        let turn = pos.turn();
        let status = match row.status {
            Status::Setup => t!("status-setup"),
            Status::Active => {
                t!("status-to-move", name = self.name_of(&conn, row.player(turn))?, color = color_word(turn))
            }
            Status::Finished => t!("status-finished", result = row.result.as_deref().unwrap_or("")),
            Status::Aborted => t!("status-aborted"),
        };
        let white = self.name_of(&conn, row.white)?;
        let black = self.name_of(&conn, row.black)?;
        // As the game's start named it (Capatomic Random Chess), not as it is typed (capatomic).
        let variant = super::variant_title(&row.variant);
        let mut text = t!("board-head", id = row.id, white = white, black = black, variant = variant, status = status);
        if let Some(dl) = row.deadline.filter(|_| row.status == Status::Active) {
            let left = dl - self.clock.now();
            text.push(' ');
            text.push_str(&t!("time-left", hours = left.max(0) / 3600, minutes = left.max(0) % 3600 / 60));
        }
        if let Some(o) = offers::get(&conn, row.id, OfferKind::Draw)?.filter(|o| !o.declined) {
            text.push(' ');
            text.push_str(&t!("draw-pending", name = self.name_of(&conn, o.by_player)?));
        }
        if let Some(o) = offers::get(&conn, row.id, OfferKind::Takeback)?.filter(|o| !o.declined) {
            text.push(' ');
            text.push_str(&t!("takeback-pending", name = self.name_of(&conn, o.by_player)?));
        }
        let mut r = self.board_reply(cx.target(), text, pos, game.moves().last().copied(), viewer);
        r.card = Some(self.game_card(&conn, &row, pos, None)?);
        Ok(Response::one(r))
    }

    /// The game `board` or `fen` shows, and the side it is seen from: the author's own game as
    /// [`Bot::game_for`] finds it, or, by number, any game of this chat, as everyone here sees its
    /// boards after each move (from White's side; a secret bomb is never marked there).
    pub(super) fn shown_game(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<(Color, GameRow)> {
        if let Some(id) = id {
            let conn = self.conn()?;
            if let Some(row) = games::get(&conn, id)? {
                let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
                let player = me.as_ref().is_some_and(|me| row.color_of(me.id).is_some());
                let here = row.platform == cx.scope().platform && row.chat_id == cx.scope().chat;
                match (player, here) {
                    (false, true) => return Ok((Color::White, row)),
                    (false, false) => return user(msg!("game-not-here", id = id)),
                    // A player's own game, moved from another chat too where it is paused.
                    (true, _) => {}
                }
            }
        }
        let (me, row) = self.game_for(cx, id)?;
        Ok((row.color_of(me.id).unwrap_or(Color::White), row))
    }

    /// `moves [#game] [square]`: the legal moves of the side to move in a game of this chat (asked by
    /// anyone there, as `board #N`), or those of the piece on `square`. A detonation is never listed
    /// (the answer is read by the chat, and a detonation names the bomb's square).
    pub(super) fn legal_moves(&self, cx: &Ctx<'_>, id: Option<i64>, square: Option<&str>) -> Res<Response> {
        let (_, row) = self.shown_game(cx, id)?;
        let id = row.id;
        match row.status {
            Status::Active => {}
            Status::Setup => return user(msg!("moves-setup", id = id)),
            Status::Finished | Status::Aborted => return user(msg!("moves-over", id = id)),
        }
        let conn = self.conn()?;
        let game = self.load_game(&conn, &row)?;
        let pos = &super::public_position(game.position());
        let turn = pos.turn();
        // Messages, not texts: a refusal below is read by its author, in their language, and its
        // parts must be in that language too.
        let mover = msg!("moves-mover", name = self.name_of(&conn, row.player(turn))?, color = super::color_msg(turn));
        let from = match square {
            None => None,
            Some(text) => {
                let Some(sq) = Square::parse(text).filter(|sq| pos.variant().contains(*sq)) else {
                    return user(msg!("moves-not-square", id = id, text = text));
                };
                let piece = |role: Role| msg!("piece-on", role = role.name(), square = sq.to_string());
                match pos.piece_at(sq) {
                    None => return user(msg!("moves-no-piece", id = id, square = sq.to_string())),
                    Some(p) if p.color != turn => {
                        return user(msg!(
                            "moves-not-turn",
                            id = id,
                            piece = piece(p.role),
                            owner = super::color_msg(p.color),
                            mover = mover
                        ));
                    }
                    Some(p) => Some((sq, piece(p.role))),
                }
            }
        };
        let mut listed = san::listed_moves(pos, from.as_ref().map(|(sq, _)| *sq));
        let count: usize = listed.iter().map(|h| h.moves().len()).sum();
        // Capatomic's launches, a missile to nearly every square, are counted by missile in the
        // whole list (before: some 180 launches in one message), also where they are all the side
        // has; a missile's square lists its own.
        let counted = matches!(listed.last(), Some(crate::notation::Hint::Launches(all))
            if from.is_none() && all.len() > LAUNCHES_LISTED);
        let launches = match listed.pop_if(|_| counted) {
            Some(crate::notation::Hint::Launches(all)) => Some(launches_by_missile(&all)),
            _ => None,
        };
        // One piece's moves need no label of its kind: only castling and launches are set apart.
        let mut text = match (&from, super::moves::hint_list(&listed, from.is_none())) {
            (None, Some(list)) => t!("moves-all", id = id, mover = mover.clone(), count = count, list = list),
            (Some((_, piece)), Some(list)) => {
                t!("moves-piece", id = id, piece = piece.clone(), count = count, list = list)
            }
            (None, None) if launches.is_some() => {
                t!("moves-all-launches", id = id, mover = mover.clone(), count = count)
            }
            (None, None) => t!("moves-none", id = id, mover = mover.clone()),
            (Some((_, piece)), None) => t!("moves-piece-none", id = id, piece = piece.clone()),
        };
        if let Some((missiles, first)) = launches {
            text.push(' ');
            text.push_str(&t!("moves-launches-counted", missiles = missiles, p = cx.p(), square = first));
        }
        if pos.is_check() {
            text.push(' ');
            text.push_str(&t!("moves-in-check", mover = mover.clone()));
        }
        if pos.variant().bombs {
            text.push(' ');
            text.push_str(&t!("moves-no-detonations", p = cx.p()));
        }
        Ok(cx.say(text))
    }

    pub(super) fn games_list(&self, cx: &Ctx<'_>) -> Res<Response> {
        let prefix = cx.p();
        let conn = self.conn()?;
        let now = self.clock.now();
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else {
            // Someone capabot has not met yet: the challenges here open to anyone (before: "no
            // games", though `accept` took them up).
            let lines = self.challenge_lines(&conn, cx, NOBODY, now)?;
            if lines.is_empty() {
                return user(msg!("no-games", p = prefix, direct = cx.direct_word()));
            }
            return Ok(cx.say(format!("{}\n{}", t!("games-head"), lines.join("\n"))));
        };
        let mut lines = Vec::new();
        for g in games::open_of_player(&conn, me.id)? {
            let opp = if g.white == me.id { g.black } else { g.white };
            let here = g.platform == cx.scope().platform && g.chat_id == cx.scope().chat;
            let state = open_state(&g, me.id)?;
            let mut line = t!(
                "games-line",
                id = g.id,
                variant = super::variant_title(&g.variant),
                other = self.name_of(&conn, opp)?,
                number = g.ply / 2 + 1,
                state = state,
                here = if here { "here" } else { "elsewhere" }
            );
            // What the clock leaves for the player's own choice, a move or a setup's swap (a paused
            // game has none).
            let chooses = g.setup_chooser().is_some_and(|c| g.player(c) == me.id);
            if let Some(dl) = g.deadline.filter(|_| matches!(state, "yours" | "bomb") || chooses) {
                let left = (dl - now).max(0);
                line.push_str(&t!("games-time-left", hours = left / 3600, minutes = left % 3600 / 60));
            }
            lines.push(line);
        }
        lines.extend(self.challenge_lines(&conn, cx, me.id, now)?);
        // Challenges to them in other chats, answered there (as their games elsewhere are played there).
        for c in challenges::addressed_elsewhere(&conn, (&cx.scope().platform, &cx.scope().chat), me.id, now)? {
            lines.push(t!(
                "games-challenge-elsewhere-line",
                id = c.id,
                name = self.name_of(&conn, c.challenger)?,
                variant = super::variant_title(&c.variant)
            ));
        }
        // Their own challenges still waiting here, with how to withdraw them.
        let mine = challenges::made_by(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?;
        for c in mine.into_iter().filter(|c| c.expires_at > now) {
            let to = match c.challenged {
                Some(them) => self.name_of(&conn, them)?,
                None => String::new(),
            };
            lines.push(t!(
                "games-sent-line",
                id = c.id,
                name = to,
                open = if c.challenged.is_none() { "yes" } else { "no" },
                variant = super::variant_title(&c.variant),
                p = prefix
            ));
        }
        if lines.is_empty() {
            return Ok(cx.say(t!("games-none", p = prefix, direct = cx.direct_word())));
        }
        Ok(cx.say(format!("{}\n{}", t!("games-head"), lines.join("\n"))))
    }

    /// The challenges in this chat that `me` may take up, a line each with how.
    fn challenge_lines(&self, conn: &Conn<'_>, cx: &Ctx<'_>, me: PlayerId, now: i64) -> Res<Vec<String>> {
        let mut lines = Vec::new();
        for c in challenges::acceptable(conn, &cx.scope().platform, &cx.scope().chat, me, now)? {
            lines.push(t!(
                "games-challenge-line",
                id = c.id,
                name = self.name_of(conn, c.challenger)?,
                variant = super::variant_title(&c.variant),
                p = cx.p()
            ));
        }
        Ok(lines)
    }

    /// The game whose record (`pgn`, `gif`) someone asks for, and the side they see it from: their
    /// own game as [`Bot::game_for`] finds it, or, by number, a game of this chat, which everyone
    /// here watches (a game in progress's record names no secret bomb: only a detonation, which
    /// everyone saw, shows one).
    fn record_for(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<(Color, GameRow)> {
        if let Some(id) = id {
            let conn = self.conn()?;
            if let Some(row) = games::get(&conn, id)?
                && row.platform == cx.scope().platform
                && row.chat_id == cx.scope().chat
            {
                let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
                let viewer = me.and_then(|me| row.color_of(me.id)).unwrap_or(Color::White);
                return Ok((viewer, row));
            }
        }
        let (me, row) = self.game_for(cx, id)?;
        Ok((row.color_of(me.id).unwrap_or(Color::White), row))
    }

    pub(super) fn pgn(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (_, row) = self.record_for(cx, id)?;
        let conn = self.conn()?;
        let text = self.pgn_of(&conn, &row)?;
        Ok(Response::one(pgn_reply(cx.target(), &format!("capabot-game-{}.pgn", row.id), text)))
    }

    /// A player's name as a game record shows it (the AI with its level).
    pub(super) fn record_name(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        id: crate::store::players::PlayerId,
    ) -> Res<String> {
        let p = players::get(conn, id)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
        Ok(side_name(&p, row))
    }

    pub(super) fn gif(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (viewer, row) = self.record_for(cx, id)?;
        if !self.config.pictures {
            return user(msg!("pictures-off", p = cx.p()));
        }
        let conn = self.conn()?;
        Ok(Response::one(self.gif_reply(&conn, &row, cx.target(), viewer)?))
    }

    /// The game as an animated picture (one frame per ply, the result on the last) with a line of
    /// text and an alt text that gives the moves.
    pub(in crate::bot) fn gif_reply(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        target: Target,
        viewer: Color,
    ) -> Res<Reply> {
        if row.status == Status::Setup {
            return user(msg!("gif-in-setup", id = row.id));
        }
        let game = self.load_game(conn, row)?;
        if game.moves().is_empty() {
            return user(msg!("gif-no-moves", id = row.id));
        }
        let white = self.record_name(conn, row, row.white)?;
        let black = self.record_name(conn, row, row.black)?;
        let result = match (row.outcome(), row.status) {
            (Some(o), _) => Some(format!("{} · {}", o.result_str(), reason_text(o))),
            (None, Status::Aborted) => Some(t!("status-aborted")),
            (None, _) => None,
        };
        // Drawn when delivered; a game too long to animate is refused now.
        let plies = game.moves().len();
        if plies > MAX_PLIES {
            return Err(BotError::User(msg!(
                "gif-too-long",
                id = row.id,
                plies = plies,
                max = MAX_PLIES,
                p = self.hint_for(&game_scope(row))
            )));
        }
        let drawing =
            GameDrawing::new(&game, &white, &black, result.as_deref(), viewer, PICTURE_SIZE, Theme::default());
        let variant = super::variant_text(&row.variant);
        let state = result.as_deref().map_or_else(|| t!("status-in-progress"), |r| r.to_string());
        let text = t!(
            "gif-caption",
            id = row.id,
            white = white.as_str(),
            black = black.as_str(),
            variant = variant.as_str(),
            count = plies.div_ceil(2),
            state = state.as_str()
        );
        let mut r = Reply::new(target, text);
        r.alt_text = Some(gif_alt_text(&game, row.id, &variant, &white, &black, &state));
        r.drawing = Some(Drawing::Game(drawing));
        Ok(r)
    }

    /// What follows a game's end announcement in `replies`: its animation, where the chat wants one,
    /// and "Analyse" and "Rematch" buttons on the game's last message, where the platform has buttons
    /// (elsewhere `analyse` and `rematch` are typed, as the help says).
    pub(in crate::bot) fn at_game_end(&self, conn: &Conn<'_>, game_id: i64, replies: &mut Vec<Reply>) {
        // The game and its chat's settings read once for both.
        let row = match games::get(conn, game_id) {
            Ok(Some(row)) => row,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!(game = game_id, "no animation and no buttons at the game's end: {e}");
                return;
            }
        };
        let settings = self.effective_settings(&game_scope(&row));
        let target = game_target(&row);
        // The move's own answer, before the animation joins it.
        let announced = replies.iter().rposition(|r| r.target == target);
        replies.extend(self.gif_at_end(conn, &row, &settings));
        if row.status != Status::Finished {
            return;
        }
        let lang = settings.as_ref().map_or(self.config.lang, |s| s.lang);
        let hint = settings.map_or_else(|_| self.config.prefix.clone(), |s| s.hint);
        let analysable = row.ply > 0 && row.ply as usize <= crate::ai::analysis::MAX_PLIES;
        if !self.command_style(&row.platform).slash {
            // Where there are no buttons, the announcement says what they would have offered.
            let Some(announced) = announced.and_then(|i| replies.get_mut(i)) else { return };
            let next = if analysable {
                crate::tl!(lang, "game-end-next", p = hint.as_str(), id = row.id)
            } else {
                crate::tl!(lang, "game-end-next-rematch", p = hint.as_str(), id = row.id)
            };
            announced.text.push('\n');
            announced.text.push_str(&next);
            return;
        }
        let Some(last) = replies.iter_mut().rev().find(|r| r.target == target) else { return };
        let button =
            |label: String, command| super::choice(&label, command, crate::bot::ChoiceStyle::Secondary, None, &hint);
        if analysable {
            last.choices.push(button(crate::tl!(lang, "button-analyse"), crate::bot::Command::Analyse(Some(row.id))));
        }
        last.choices.push(button(crate::tl!(lang, "button-rematch"), crate::bot::Command::Rematch(Some(row.id))));
    }

    /// The game's animation at its end, when `settings` (its chat's) ask for one. A failure is
    /// logged, never fails the move.
    fn gif_at_end(&self, conn: &Conn<'_>, row: &GameRow, settings: &Res<crate::bot::Effective>) -> Vec<Reply> {
        let made = match settings {
            Ok(s) if !self.config.pictures || !s.gif_at_end => return Vec::new(),
            Ok(_) => self.gif_reply(conn, row, game_target(row), Color::White).map_err(|e| format!("{e:?}")),
            Err(e) => Err(format!("{e:?}")),
        };
        made.map(|r| vec![r]).unwrap_or_else(|e| {
            tracing::warn!(game = row.id, "no animation at the game's end: {e}");
            Vec::new()
        })
    }

    pub(in crate::bot) fn pgn_of(&self, conn: &Conn<'_>, row: &GameRow) -> Res<String> {
        let game = self.load_game(conn, row)?;
        self.pgn_with(conn, row, &game, &[])
    }

    /// The PGN of a game already replayed, with an analysis's notes (none: the plain record).
    pub(in crate::bot) fn pgn_with(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        game: &Game,
        notes: &[pgn::MoveNote],
    ) -> Res<String> {
        let name = |id| self.record_name(conn, row, id);
        let headers = pgn::PgnHeaders {
            // PGN tags are a file format's data, in English as PGN readers expect.
            event: format!("capabot game #{}", row.id), // i18n: data
            site: format!("{} chat {}", row.platform, row.chat_id), // i18n: data
            date: crate::bot::clock::pgn_date(row.created_at),
            white: name(row.white)?,
            black: name(row.black)?,
            round: String::new(),
            setup: row.setup,
        };
        Ok(pgn::write_annotated(game, &headers, row.outcome(), notes))
    }

    /// PGN of a game by id (any chat).
    pub fn pgn_by_id(&self, id: i64) -> Option<String> {
        let conn = self.conn().ok()?;
        let row = games::get(&conn, id).ok()??;
        self.pgn_of(&conn, &row).ok()
    }
}

/// Longest move list in an animation's alt text, in characters (Discord keeps 1,024 of a description).
const ALT_MOVES_CHARS: usize = 700;

/// The alt text of a game's animation: what it shows, the moves in SAN (cut with an ellipsis when
/// long) and the result.
fn gif_alt_text(game: &Game, id: i64, variant: &str, white: &str, black: &str, state: &str) -> String {
    let mut moves = String::new();
    for (i, (pos, m)) in game.positions().iter().zip(game.moves()).enumerate() {
        let word = if pos.turn() == Color::White || i == 0 {
            let dots = if pos.turn() == Color::White { "." } else { "..." };
            format!("{}{dots} {}", pos.fullmoves(), san::write(pos, *m))
        } else {
            san::write(pos, *m)
        };
        if moves.chars().count() + word.chars().count() + 1 > ALT_MOVES_CHARS {
            moves.push_str(" …");
            break;
        }
        if !moves.is_empty() {
            moves.push(' ');
        }
        moves.push_str(&word);
    }
    t!("gif-alt", id = id, variant = variant, white = white, black = black, moves = moves, state = state)
}

/// A game record as text and as a `.pgn` file named `file_name`.
pub(super) fn pgn_reply(target: Target, file_name: &str, text: String) -> Reply {
    let mut r = Reply::new(target, text.clone());
    r.file =
        Some(Attachment { name: file_name.into(), mime: "application/x-chess-pgn".into(), bytes: text.into_bytes() });
    r
}

/// How a game's record names one of its sides: capabot by its level, anyone else by name.
pub(super) fn side_name(p: &players::Player, row: &GameRow) -> String {
    if p.is_ai { t!("ai-name-level", level = row.ai_level.unwrap_or(0)) } else { p.name.clone() }
}

/// Launches listed one by one in `moves` without a square; more are counted by missile.
const LAUNCHES_LISTED: usize = 12;

/// Launches (`Mh1^a1`, in the board's order) counted by missile: `Mh1: 82, Mj1: 80`, and the first
/// missile's square.
fn launches_by_missile(launches: &[String]) -> (String, String) {
    let mut counted: Vec<(&str, usize)> = Vec::new();
    for launch in launches {
        let missile = launch.split_once('^').map_or(launch.as_str(), |(missile, _)| missile);
        match counted.last_mut() {
            Some((m, n)) if *m == missile => *n += 1,
            _ => counted.push((missile, 1)),
        }
    }
    let first = counted.first().map_or(String::new(), |(m, _)| m.trim_start_matches('M').to_string());
    (counted.iter().map(|(m, n)| format!("{m}: {n}")).collect::<Vec<_>>().join(", "), first)
}

/// No player's id (ids start at 1): what is open to anyone is open to someone capabot has not met.
const NOBODY: PlayerId = 0;

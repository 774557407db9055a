//! Secret-bomb chess: each player names one of their pieces (not the king) as their bomb, by direct
//! message, before their first move. The choice is stored as the piece's square at the start
//! (`games.white_bomb` / `black_bomb`) and given to the rules when the game is replayed
//! ([`Bot::load_game`]); from there the rules carry it with its piece.
//!
//! The secret stays secret: the prompt and every picture with a bomb marked go to the owner's direct
//! messages only (no fallback to a chat); a choice typed in a shared chat is refused unread; the
//! game's chat hears only *that* a side has chosen, and where both bombs were once the game is over.
//! A side that has not chosen when its first move's time runs out gets a bomb at random (see
//! [`Bot::bomb_at_random`]); capabot's own side chooses at random at once.

use super::choice;
use super::{Bot, BotError, Ctx, Res, clock_after, color_word, game_scope, game_target, user};
use crate::bot::command::Command;
use crate::bot::drawing::{BoardDrawing, Drawing};
use crate::bot::io::{Audience, ChoiceStyle, Reply, Response, Target};
use crate::bot::seams::PICTURE_SIZE;
use crate::bot::textboard::text_board;
use crate::i18n::{Lang, Msg, with_lang};
use crate::render::Theme;
use crate::rules::{Color, Position, Role, Square};
use crate::store::Conn;
use crate::store::games::{self, GameRow, Status};
use crate::store::players::{self, Player};
use crate::{msg, t};
use rand::seq::IndexedRandom;

/// The squares of `color`'s pieces that may become its bomb (every piece but the king), in board
/// order (a1, b1, … then rank 2 …).
pub(in crate::bot) fn bomb_candidates(pos: &Position, color: Color) -> Vec<Square> {
    let v = pos.variant();
    let mut out = Vec::new();
    for rank in 0..v.height {
        for file in 0..v.width {
            let sq = Square::new(file, rank);
            if pos.piece_at(sq).is_some_and(|p| p.color == color && p.role != Role::King) {
                out.push(sq);
            }
        }
    }
    out
}

/// A piece on a square in words, in the language in force: "the knight on g1".
fn piece_words(pos: &Position, sq: Square) -> String {
    let role = pos.piece_at(sq).map_or("piece", |p| p.role.name());
    t!("piece-on", role = role, square = sq.to_string())
}

/// A button label for a bomb candidate: `Ng1`, or the square alone for a pawn (`e2`).
fn candidate_label(pos: &Position, sq: Square) -> String {
    match pos.piece_at(sq) {
        Some(p) if p.role != Role::Pawn => format!("{}{sq}", p.role.upper_char()),
        _ => sq.to_string(),
    }
}

/// The bombs stored for a game, as squares (a stored square that does not parse is corrupt data).
pub(in crate::bot) fn stored_bombs(row: &GameRow) -> Res<[Option<Square>; 2]> {
    let parse = |s: &Option<String>| -> Res<Option<Square>> {
        match s {
            None => Ok(None),
            Some(t) => Square::parse(t).map(Some).ok_or_else(|| {
                BotError::Internal(format!("game {}: stored bomb square '{t}' is not a square", row.id))
            }),
        }
    };
    Ok([parse(&row.bombs[0])?, parse(&row.bombs[1])?])
}

/// Whether `color` still owes its bomb in `row`: a secret-bomb game whose bomb for that side is not
/// chosen yet (it cannot move until it is).
pub(in crate::bot) fn bomb_owed(row: &GameRow, color: Color) -> Res<bool> {
    Ok(super::variant_named(&row.variant).is_ok_and(|v| v.bombs) && stored_bombs(row)?[color.index()].is_none())
}

impl Bot {
    /// `bomb [#game] [square]`: choose one's bomb (a square), or without one, see one's own board
    /// with the bomb marked (or the prompt again while it is not chosen) — always in direct messages.
    pub(super) fn bomb(&self, cx: &Ctx<'_>, id: Option<i64>, square: Option<String>) -> Res<Response> {
        // A choice said where others read it (typed, addressed to capabot by name or mention, a
        // reaction) is refused before anything is looked at, so the refusal can name nothing.
        // Direct chats and private interactions (buttons, slash commands) only are private.
        if square.is_some() && !cx.inp.is_private() {
            return user(msg!("bomb-not-here"));
        }
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else {
            return user(msg!("bomb-no-game"));
        };
        let row = self.bomb_game_of(&conn, &me, id, square.as_deref())?;
        let color = row.color_of(me.id).ok_or_else(|| BotError::Internal("player without colour".into()))?;
        // The game is known: from here on the work speaks about it. Whatever it writes for the game's
        // chat is in that chat's language (the language in force), whatever only the author reads in
        // theirs (`mine`), wherever the command was said: a direct chat's language is neither.
        let mine = self.reader_lang(cx, &row);
        let _chat_lang = crate::i18n::scoped(self.lang_in(&game_scope(&row)));
        let done = match square {
            Some(sq) => self.choose_bomb(cx, &conn, &me, &row, color, &sq),
            None => (|| {
                let to = self.direct_to(cx, &row);
                let mut out = match stored_bombs(&row)?[color.index()] {
                    None => Response {
                        replies: self.bomb_prompt(&conn, &row, color)?.into_iter().collect(),
                        ..Default::default()
                    },
                    Some(_) => Response::one(with_lang(mine, || self.own_board(&conn, &row, color, to))?),
                };
                if !cx.inp.is_private() {
                    // Says only where to look: nothing secret, so the chat may read it.
                    out.extend(self.private(cx, msg!("bomb-sent-dm")));
                }
                Ok(out)
            })(),
        };
        // A refusal about the game is the author's to read, in the same language as its answers.
        done.map_err(|e| e.rendered_in(mine))
    }

    /// The language of what only the author reads about `row`: their own (or their app's), else
    /// the chat's where they said it; said in a direct chat, which belongs to no game, the game's
    /// chat's (as the prompt to choose a bomb, [`Bot::bomb_prompt`]).
    fn reader_lang(&self, cx: &Ctx<'_>, row: &GameRow) -> Lang {
        if !cx.scope().direct {
            return cx.author_lang;
        }
        self.person_lang(&cx.scope().platform, &cx.inp.author.id)
            .or_else(|| cx.inp.locale.as_deref().and_then(Lang::parse))
            .unwrap_or_else(|| self.lang_in(&game_scope(row)))
    }

    /// A notice to the chat `row` is played in, written by `text` in that chat's language whatever
    /// the language in force (the input that led to it may have been said in a direct chat).
    fn notice_to_game(&self, row: &GameRow, text: impl FnOnce() -> String) -> Reply {
        with_lang(self.lang_in(&game_scope(row)), || Reply::new(game_target(row), text()))
    }

    /// The author's secret-bomb game: `#id`, or their only open one anywhere on this platform; or,
    /// for a choice of `square` among several, the only one that still owes their bomb and has one
    /// of their pieces there at the start (`bomb b1` with a game as White and one as Black).
    fn bomb_game_of(&self, conn: &Conn<'_>, me: &Player, id: Option<i64>, square: Option<&str>) -> Res<GameRow> {
        let mine: Vec<GameRow> = games::open_of_player(conn, me.id)?
            .into_iter()
            .filter(|g| super::variant_named(&g.variant).is_ok_and(|v| v.bombs))
            .collect();
        match id {
            Some(id) => match mine.into_iter().find(|g| g.id == id) {
                Some(g) => Ok(g),
                None => user(msg!("bomb-not-yours", id = id)),
            },
            None => match mine.as_slice() {
                [] => user(msg!("bomb-no-game-in-progress")),
                [g] => Ok(g.clone()),
                many => {
                    let fits = |g: &&GameRow| -> bool {
                        let (Some(sq), Some(color)) = (square.and_then(|s| Square::parse(s.trim())), g.color_of(me.id))
                        else {
                            return false;
                        };
                        bomb_owed(g, color).unwrap_or(false)
                            && super::start_position(g).is_ok_and(|start| bomb_candidates(&start, color).contains(&sq))
                    };
                    if let [g] = many.iter().filter(fits).collect::<Vec<_>>().as_slice() {
                        return Ok((*g).clone());
                    }
                    let ids = self.games_named(conn, &many.iter().collect::<Vec<_>>(), me.id)?;
                    user(msg!("bomb-which", count = many.len(), ids = ids, first = format!("#{}", many[0].id)))
                }
            },
        }
    }

    /// The author's direct messages on this platform (no fallback: it carries a secret).
    fn direct_to(&self, cx: &Ctx<'_>, row: &GameRow) -> Target {
        Target::Direct { platform: row.platform.clone(), user: cx.inp.author.clone(), fallback: None }
    }

    fn choose_bomb(
        &self,
        cx: &Ctx<'_>,
        conn: &Conn<'_>,
        me: &Player,
        row: &GameRow,
        color: Color,
        typed: &str,
    ) -> Res<Response> {
        let id = row.id;
        let mine = self.reader_lang(cx, row);
        if row.status != Status::Active {
            return user(msg!("game-not-in-progress", id = id));
        }
        let start = super::start_position(row)?;
        if let Some(b) = stored_bombs(row)?[color.index()] {
            let piece = with_lang(mine, || piece_words(&start, b));
            return Ok(Response::one(private_reply(cx, mine, msg!("bomb-already", id = id, piece = piece))));
        }
        let Some(sq) = Square::parse(typed.trim())
            .filter(|s| s.file() < start.variant().width && s.rank() < start.variant().height)
        else {
            return user(msg!("bomb-not-square", text = super::short(typed)));
        };
        if !bomb_candidates(&start, color).contains(&sq) {
            return user(msg!("bomb-bad-square", id = id, square = sq.to_string()));
        }
        if !games::set_bomb(conn, id, color, &sq.to_string(), self.clock.now())? {
            return user(msg!("bomb-raced", id = id));
        }
        let row = games::get(conn, id)?.ok_or_else(|| BotError::Internal(format!("game {id} vanished")))?;
        let mut out = Response::default();
        let mut own = with_lang(mine, || self.own_board(conn, &row, color, self.direct_to(cx, &row)))?;
        own.text =
            with_lang(mine, || t!("bomb-chosen", id = id, piece = piece_words(&start, sq), square = sq.to_string()));
        out.replies.push(own);
        out.replies.push(self.chosen_notice(&row, color, me)?);
        Ok(out)
    }

    /// The game's chat hears that a side has its bomb (never which).
    fn chosen_notice(&self, row: &GameRow, color: Color, who: &Player) -> Res<Reply> {
        let bombs = stored_bombs(row)?;
        let pos_turn = super::turn_of_fen(&row.fen);
        Ok(self.notice_to_game(row, || {
            let mut text = t!("bomb-chosen-notice", id = row.id, name = who.name.as_str(), color = color_word(color));
            if bombs.iter().all(Option::is_some) {
                text.push(' ');
                text.push_str(&t!("bomb-both-set"));
            }
            if pos_turn == color {
                text.push(' ');
                text.push_str(&t!("bomb-to-move", name = who.name.as_str()));
            }
            text
        }))
    }

    /// The prompt that asks `color`'s player to choose a bomb: their own side's pieces as buttons,
    /// the board from their side, to their direct messages only. `None` for capabot's own side.
    pub(in crate::bot) fn bomb_prompt(&self, conn: &Conn<'_>, row: &GameRow, color: Color) -> Res<Option<Reply>> {
        let player = row.player(color);
        if players::get(conn, player)?.is_some_and(|p| p.is_ai) {
            return Ok(None);
        }
        let Some(account) = self.notify_of(conn, &row.platform, player)?.into_iter().next() else { return Ok(None) };
        let start = super::start_position(row)?;
        let opponent = self.name_of(conn, row.player(color.other()))?;
        let candidates = bomb_candidates(&start, color);
        let square = candidates.first().map_or_else(|| "g1".into(), ToString::to_string);
        // With several secret-bomb games (a round robin's), the example names this one.
        let several = games::open_of_player(conn, player)?
            .iter()
            .filter(|g| super::variant_named(&g.variant).is_ok_and(|v| v.bombs))
            .nth(1)
            .is_some();
        let example = if several { format!("#{} {square}", row.id) } else { square };
        let target = Target::Direct { platform: row.platform.clone(), user: account.clone(), fallback: None };
        let lang = self.player_lang(player, self.lang_in(&game_scope(row)));
        let mut r = with_lang(lang, || {
            let text = t!("bomb-prompt", id = row.id, other = opponent, color = color_word(color), example = example);
            self.board_reply(target, text, &start, None, color)
        });
        r.audience = Audience::Only(account.clone());
        r.stands_alone = true;
        r.choices = candidates
            .iter()
            .map(|&sq| {
                let command = Command::Bomb { game: Some(row.id), square: Some(sq.to_string()) };
                choice(&candidate_label(&start, sq), command, ChoiceStyle::Secondary, Some(account.clone()), "")
            })
            .collect();
        Ok(Some(r))
    }

    /// The prompts of a game that has just started: to every human player without a bomb; capabot's
    /// own side chooses at random at once.
    pub(in crate::bot) fn bomb_start(&self, conn: &Conn<'_>, id: i64) -> Res<Vec<Reply>> {
        let row = games::get(conn, id)?.ok_or_else(|| BotError::Internal(format!("game {id} vanished")))?;
        let mut out = Vec::new();
        for color in [Color::White, Color::Black] {
            if players::get(conn, row.player(color))?.is_some_and(|p| p.is_ai) {
                let start = super::start_position(&row)?;
                if let Some(sq) = bomb_candidates(&start, color).choose(&mut rand::rng()) {
                    games::set_bomb(conn, id, color, &sq.to_string(), self.clock.now())?;
                }
            } else {
                out.extend(self.bomb_prompt(conn, &row, color)?);
            }
        }
        Ok(out)
    }

    /// A detonation refused because the mover's bomb is gone (captured, or already detonated): the
    /// chat hears `refused`, the answer to any detonation that is not possible, as whose bomb a
    /// capture took is a secret; the player alone is told why, in their direct messages (only that,
    /// where they typed it privately). `None` for any other refusal.
    pub(super) fn bomb_gone(
        &self,
        cx: &Ctx<'_>,
        row: &GameRow,
        pos: &Position,
        e: &crate::notation::MoveError,
        refused: impl FnOnce() -> Response,
    ) -> Res<Option<Response>> {
        use crate::notation::{MoveError, Refusal};
        let color = pos.turn();
        let started = match e {
            MoveError::Illegal { reason: Refusal::Detonation, .. } if pos.bomb(color).is_none() => {
                stored_bombs(row)?[color.index()]
            }
            _ => None,
        };
        let Some(square) = started else { return Ok(None) };
        let start = super::start_position(row)?;
        let text = with_lang(cx.author_lang, || {
            t!("bomb-own-board", id = row.id, state = t!("bomb-gone", piece = piece_words(&start, square)))
        });
        let mut out = if cx.inp.is_private() { Response::default() } else { refused() };
        out.extend(self.secret(cx, text));
        Ok(Some(out))
    }

    /// `color`'s own board, bomb marked: for that player's direct messages only.
    fn own_board(&self, conn: &Conn<'_>, row: &GameRow, color: Color, to: Target) -> Res<Reply> {
        let game = self.load_game(conn, row)?;
        let pos = game.position();
        let start = super::start_position(row)?;
        let bomb_now = pos.bomb(color);
        let started = stored_bombs(row)?[color.index()];
        let where_now = match (started, bomb_now) {
            (Some(s), Some(now)) => t!("bomb-where-now", piece = piece_words(&start, s), square = now.to_string()),
            (Some(s), None) => t!("bomb-gone", piece = piece_words(&start, s)),
            (None, _) => t!("bomb-not-chosen"),
        };
        let text = t!("bomb-own-board", id = row.id, state = where_now.as_str());
        let mut r = secret_reply(to, text);
        if self.config.pictures {
            let last = game.moves().last().copied();
            let board = BoardDrawing::new(pos, last, color, Some(color), PICTURE_SIZE, Theme::default());
            r.drawing = Some(Drawing::Board(board));
            r.alt_text = Some(t!("bomb-own-board-alt", id = row.id, state = where_now.as_str()));
        }
        r.text_board = Some(text_board(pos));
        Ok(r)
    }

    /// `board` in a direct chat: one's own board in a secret-bomb game, bomb marked (`None` when the
    /// author has no such game, so the ordinary board answers).
    pub(super) fn own_bomb_board(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Option<Response>> {
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else { return Ok(None) };
        let Ok(row) = self.bomb_game_of(&conn, &me, id, None) else { return Ok(None) };
        let color = row.color_of(me.id).ok_or_else(|| BotError::Internal("player without colour".into()))?;
        let board =
            with_lang(self.reader_lang(cx, &row), || self.own_board(&conn, &row, color, self.direct_to(cx, &row)))?;
        Ok(Some(Response::one(board)))
    }

    /// A move is refused while its side has no bomb: the player is told (privately) and prompted again.
    pub(super) fn bomb_missing(
        &self,
        cx: &Ctx<'_>,
        conn: &Conn<'_>,
        row: &GameRow,
        color: Color,
    ) -> Res<Option<Response>> {
        if !bomb_owed(row, color)? {
            return Ok(None);
        }
        let mut out = Response::one(private_reply(cx, self.reader_lang(cx, row), msg!("bomb-missing", id = row.id)));
        out.replies.extend(self.bomb_prompt(conn, row, color)?);
        Ok(Some(out))
    }

    /// At the deadline of a side's first move with no bomb chosen: a bomb at random, the player told
    /// (directly), the chat told that it happened (not which), and a new full move time. `false`
    /// when this game needs no such thing (the ordinary loss on time applies).
    pub(in crate::bot) fn bomb_at_random(&self, conn: &Conn<'_>, row: &GameRow, out: &mut Response) -> Res<bool> {
        let turn = super::turn_of_fen(&row.fen);
        if !bomb_owed(row, turn)? {
            return Ok(false);
        }
        let start = super::start_position(row)?;
        let Some(&sq) = bomb_candidates(&start, turn).choose(&mut rand::rng()) else { return Ok(false) };
        let now = self.clock.now();
        if !games::set_bomb(conn, row.id, turn, &sq.to_string(), now)? {
            return Ok(false);
        }
        let (deadline, remind_at) = clock_after(row.days_per_move, now);
        games::set_clock(conn, row.id, row.ply, deadline, remind_at, now)?;
        let row = games::get(conn, row.id)?.ok_or_else(|| BotError::Internal(format!("game {} vanished", row.id)))?;
        let name = self.name_of(conn, row.player(turn))?;
        if let Some(account) = self.notify_of(conn, &row.platform, row.player(turn))?.into_iter().next() {
            let to = Target::Direct { platform: row.platform.clone(), user: account, fallback: None };
            let lang = self.player_lang(row.player(turn), self.lang_in(&game_scope(&row)));
            let r = with_lang(lang, || -> Res<Reply> {
                let mut r = self.own_board(conn, &row, turn, to)?;
                r.text = t!("bomb-random-own", id = row.id, piece = piece_words(&start, sq));
                Ok(r)
            })?;
            out.replies.push(r);
        }
        let mut note =
            self.notice_to_game(&row, || t!("bomb-random-notice", id = row.id, name = name, color = color_word(turn)));
        note.notify = self.notify_of(conn, &row.platform, row.player(turn))?;
        out.replies.push(note);
        Ok(true)
    }

    /// Where both bombs were, for the end of a game (secret no more). Read afresh: a bomb may have
    /// been chosen after `row` was read.
    pub(in crate::bot) fn bombs_revealed(&self, conn: &Conn<'_>, row: &GameRow) -> Res<Option<String>> {
        if !super::variant_named(&row.variant).is_ok_and(|v| v.bombs) {
            return Ok(None);
        }
        let fresh = games::get(conn, row.id)?;
        bombs_words(fresh.as_ref().unwrap_or(row))
    }
}

/// Where a secret-bomb game's bombs were, in words, as its row says (`None` for another variant).
pub(in crate::bot) fn bombs_words(row: &GameRow) -> Res<Option<String>> {
    if !super::variant_named(&row.variant).is_ok_and(|v| v.bombs) {
        return Ok(None);
    }
    let start = super::start_position(row)?;
    let bombs = stored_bombs(row)?;
    let side = |c: Color| {
        let side = if c == Color::White { "white" } else { "black" };
        match bombs[c.index()] {
            Some(sq) => t!("bomb-side-was", side = side, piece = piece_words(&start, sq)),
            None => t!("bomb-side-never", side = side),
        }
    };
    Ok(Some(t!("bombs-revealed", white = side(Color::White), black = side(Color::Black))))
}

/// A reply for the author alone ([`Audience::Only`]): whatever a bomb command answers may name the
/// bomb, so it never goes where others read it.
fn private_reply(cx: &Ctx<'_>, lang: Lang, text: Msg) -> Reply {
    let mut r = Reply::only_for(&cx.scope().platform, cx.inp.author.clone(), text.render(lang));
    r.lang = lang;
    r
}

/// A reply to a direct-message target that names a secret: that person's only.
fn secret_reply(to: Target, text: String) -> Reply {
    let mut r = Reply::new(to, text);
    if let Target::Direct { user, .. } = &r.target {
        r.audience = Audience::Only(user.clone());
    }
    r
}

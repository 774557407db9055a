//! Ending or undoing by agreement: resign, draw offers, takeback requests, abort.

use super::{Bot, Ctx, Res, choice, clock_after, color_word, game_target, mover_color, turn_of_fen, user};
use crate::bot::command::Command;
use crate::bot::io::{ChoiceStyle, Response};
use crate::notation::fen;
use crate::rules::{DrawReason, Outcome, WinReason};
use crate::store::games::{self, GameRow, Status};
use crate::store::offers::{self, OfferKind};
use crate::store::players::{self, Player, PlayerId};
use crate::{msg, t};

impl Bot {
    pub(super) fn active_game(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<(Player, GameRow)> {
        let (me, row) = self.game_for(cx, id)?;
        match row.status {
            Status::Active => Ok((me, row)),
            Status::Setup => user(msg!("game-still-setup", id = row.id)),
            Status::Finished | Status::Aborted => user(msg!("game-already-over", id = row.id)),
        }
    }

    pub(super) fn finish_with(&self, cx: &Ctx<'_>, row: &GameRow, o: Outcome, notify: PlayerId) -> Res<Response> {
        let conn = self.conn()?;
        let mut notes = Vec::new();
        let mut on_end = |c: &crate::store::Connection, r: &GameRow| self.on_game_end(c, r, &mut notes);
        if !games::finish(&conn, row.id, row.ply, o, self.clock.now(), &mut on_end)? {
            return user(msg!("position-changed-short", id = row.id, p = cx.p()));
        }
        let mut text = self.ended_text(&conn, row, o)?;
        for n in &notes {
            text.push_str(&format!("\n{n}"));
        }
        let mut r = self.reply_game(row, text);
        r.notify = self.notify_of(&conn, &cx.scope().platform, notify)?;
        let mut replies = vec![r];
        self.at_game_end(&conn, row.id, &mut replies);
        Ok(Response { replies, ..Response::default() })
    }

    /// Resigns a game. Before both sides have moved, a game outside a tournament or a ladder is
    /// aborted instead, as lichess then offers only an abort: a game nobody played ends without a
    /// result, and a resignation typed at once costs nobody rating points. In a tournament or a
    /// ladder a resignation is a concession at any ply, as the pairing or the challenge asks.
    pub(super) fn resign(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(cx, id)?;
        if row.ply < 2 && !self.is_competition_game(row.id)? {
            return self.abort_row(cx, &me, &row, true);
        }
        let c = mover_color(&row, me.id);
        self.finish_with(
            cx,
            &row,
            Outcome::Decisive { winner: c.other(), reason: WinReason::Resignation },
            row.player(c.other()),
        )
    }

    pub(super) fn draw(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(cx, id)?;
        let conn = self.conn()?;
        let opp = row.player(mover_color(&row, me.id).other());
        match offers::get(&conn, row.id, OfferKind::Draw)? {
            Some(o) if o.pending_by(opp) => {
                drop(conn);
                return self.finish_with(cx, &row, Outcome::Draw(DrawReason::Agreement), opp);
            }
            Some(o) if o.pending_by(me.id) => return user(msg!("draw-already-offered", id = row.id)),
            Some(o) if o.by_player == me.id => return user(msg!("offer-declined-wait", id = row.id, what = "draw")),
            // None, or the opponent's offer declined: a new offer (in its place).
            _ => {}
        }
        if row.ai_level.is_some() && players::get(&conn, opp)?.is_some_and(|p| p.is_ai) {
            return Ok(cx.say(t!("draw-ai-declines", id = row.id)));
        }
        offers::put(&conn, row.id, OfferKind::Draw, me.id, row.ply, self.clock.now())?;
        let text =
            t!("draw-offered", id = row.id, name = me.name.as_str(), other = self.name_of(&conn, opp)?, p = cx.p());
        let answers = [
            (t!("button-accept-draw"), Command::Draw(Some(row.id))),
            (t!("button-decline-draw"), Command::DrawDecline(Some(row.id))),
        ];
        self.offer_reply(cx, &conn, &row, opp, text, answers)
    }

    /// The announcement of an offer to `opp`, pinging them, with their two answers as choices.
    fn offer_reply(
        &self,
        cx: &Ctx<'_>,
        conn: &crate::store::Conn<'_>,
        row: &GameRow,
        opp: PlayerId,
        text: String,
        [(yes_label, yes), (no_label, no)]: [(String, Command); 2],
    ) -> Res<Response> {
        let mut r = self.reply_game(row, text);
        r.notify = self.notify_of(conn, &cx.scope().platform, opp)?;
        let them = r.notify.first().cloned();
        r.choices = vec![
            choice(&yes_label, yes, ChoiceStyle::Primary, them.clone(), cx.p()),
            choice(&no_label, no, ChoiceStyle::Secondary, them, cx.p()),
        ];
        Ok(Response::one(r))
    }

    pub(super) fn takeback(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(cx, id)?;
        let conn = self.conn()?;
        let my_color = mover_color(&row, me.id);
        let opp = row.player(my_color.other());
        let vs_ai = players::get(&conn, opp)?.is_some_and(|p| p.is_ai);
        let pending = offers::get(&conn, row.id, OfferKind::Takeback)?;
        let requester = match &pending {
            Some(o) if o.pending_by(opp) => Some(my_color.other()),
            Some(o) if o.pending_by(me.id) => return user(msg!("takeback-already-asked", id = row.id)),
            Some(o) if o.by_player == me.id && !vs_ai => {
                return user(msg!("offer-declined-wait", id = row.id, what = "takeback"));
            }
            _ if vs_ai => Some(my_color),
            // None, or the opponent's request declined: a new request (in its place).
            _ => None,
        };
        // The requester's last move is the last ply, or the one before it when the other side
        // has replied: with none, there is nothing to ask for (or to agree to).
        let turn = turn_of_fen(&row.fen);
        let undo_of = |c| if turn == c { 2 } else { 1 };
        let Some(req_color) = requester else {
            if row.ply < undo_of(my_color) {
                return user(msg!("takeback-nothing-yours", id = row.id));
            }
            offers::put(&conn, row.id, OfferKind::Takeback, me.id, row.ply, self.clock.now())?;
            let text = t!(
                "takeback-asked",
                id = row.id,
                name = me.name.as_str(),
                other = self.name_of(&conn, opp)?,
                p = cx.p()
            );
            let answers = [
                (t!("button-allow-takeback"), Command::Takeback(Some(row.id))),
                (t!("button-decline-takeback"), Command::TakebackDecline(Some(row.id))),
            ];
            return self.offer_reply(cx, &conn, &row, opp, text, answers);
        };
        // Undo the requester's last move (and the reply to it, if there was one).
        let undo = undo_of(req_color);
        if row.ply < undo {
            return user(if req_color == my_color {
                msg!("takeback-nothing-yours", id = row.id)
            } else {
                msg!("takeback-nothing", id = row.id)
            });
        }
        let mut game = self.load_game(&conn, &row)?;
        for _ in 0..undo {
            game.undo();
        }
        let new_ply = row.ply - undo;
        let fen_now = fen::write(game.position());
        let now = self.clock.now();
        let (deadline, remind_at) = clock_after(row.days_per_move, now);
        if !games::take_back(&conn, row.id, row.ply, new_ply, &fen_now, deadline, remind_at, now)? {
            return user(msg!("position-changed-retry", id = row.id));
        }
        let pos = game.position();
        let next = pos.turn();
        let text = t!(
            "takeback-done",
            id = row.id,
            count = undo,
            name = self.name_of(&conn, row.player(next))?,
            color = color_word(next)
        );
        let mut r = self.board_reply(game_target(&row), text, pos, game.moves().last().copied(), next);
        r.notify = self.notify_of(&conn, &cx.scope().platform, opp)?;
        Ok(Response::one(r))
    }

    /// Refuses the opponent's pending takeback request and tells them; the game goes on unchanged.
    pub(super) fn takeback_decline(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        self.decline_offer(cx, id, OfferKind::Takeback)
    }

    /// Refuses the opponent's pending draw offer and tells them; the game goes on unchanged.
    pub(super) fn draw_decline(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        self.decline_offer(cx, id, OfferKind::Draw)
    }

    fn decline_offer(&self, cx: &Ctx<'_>, id: Option<i64>, kind: OfferKind) -> Res<Response> {
        let what = match kind {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        };
        let (me, row) = self.active_game(cx, id)?;
        let conn = self.conn()?;
        let opp = row.player(mover_color(&row, me.id).other());
        match offers::get(&conn, row.id, kind)? {
            Some(o) if o.pending_by(opp) => {}
            Some(o) if o.pending_by(me.id) => return user(msg!("offer-yours", id = row.id, what = what)),
            _ => return user(msg!("offer-none", id = row.id, what = what)),
        }
        if !offers::decline(&conn, row.id, kind, opp, self.clock.now())? {
            return user(msg!("offer-gone", id = row.id, what = what));
        }
        let text =
            t!("offer-declined", id = row.id, name = me.name.as_str(), other = self.name_of(&conn, opp)?, what = what);
        let mut r = self.reply_game(&row, text);
        r.notify = self.notify_of(&conn, &cx.scope().platform, opp)?;
        Ok(Response::one(r))
    }

    pub(super) fn abort(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.game_for(cx, id)?;
        let conn = self.conn()?;
        if matches!(row.status, Status::Finished | Status::Aborted) {
            return user(msg!("game-already-over", id = row.id));
        }
        let opp = row.player(mover_color(&row, me.id).other());
        let vs_ai = players::get(&conn, opp)?.is_some_and(|p| p.is_ai);
        if self.is_tournament_game(&conn, row.id)? {
            return user(msg!("abort-tournament", id = row.id, p = cx.p()));
        }
        // A ladder game is never aborted: an abort right after accepting would undo the challenge
        // at no cost, where declining it counts as a forfeit. Resigning concedes it at any ply.
        if crate::store::ladders::find_by_game(&conn, row.id)?.is_some() {
            return user(msg!("abort-ladder", id = row.id, p = cx.p()));
        }
        if row.ply >= 2 && !vs_ai {
            return user(msg!("abort-too-late", id = row.id, p = cx.p()));
        }
        drop(conn);
        self.abort_row(cx, &me, &row, false)
    }

    /// Whether `game` was paired by a tournament or is a ladder challenge's.
    pub(in crate::bot) fn is_competition_game(&self, game: i64) -> Res<bool> {
        let conn = self.conn()?;
        Ok(self.is_tournament_game(&conn, game)? || crate::store::ladders::find_by_game(&conn, game)?.is_some())
    }

    /// Aborts `row` for `me` (the checks made); `resigned`: they asked to resign.
    fn abort_row(&self, cx: &Ctx<'_>, me: &Player, row: &GameRow, resigned: bool) -> Res<Response> {
        let conn = self.conn()?;
        let opp = row.player(mover_color(row, me.id).other());
        if !games::abort(&conn, row.id, row.ply, self.clock.now())? {
            return user(msg!("position-changed-retry", id = row.id));
        }
        let text = if resigned {
            t!("game-aborted-unplayed", id = row.id, name = me.name.as_str())
        } else {
            t!("game-aborted", id = row.id, name = me.name.as_str())
        };
        let mut r = self.reply_game(row, text);
        r.notify = self.notify_of(&conn, &cx.scope().platform, opp)?;
        Ok(Response::one(r))
    }
}

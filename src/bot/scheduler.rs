//! The scheduler: what is due at the clock's time — losses on time, reminders, challenge expiry,
//! the pruning of old event ids. Everything due is read from the database, so it survives restarts.

use super::Bot;
use super::commands::{challenge_target, color_word, game_scope, turn_of_fen};
use super::error::Res;
use super::io::{Reply, Response};
use crate::i18n::with_lang;
use crate::rules::{DrawReason, Outcome, WinReason};
use crate::store::{challenges, events, games, players};
use crate::t;

impl Bot {
    /// Runs what is due at the clock's time: reminders at 20 % of the move time left, losses on
    /// time (a draw when the other side cannot possibly mate), challenge expiry. Everything due is
    /// read from the database, so deadlines survive restarts.
    pub fn tick(&self) -> Response {
        self.in_unit(|| match self.all_or_nothing(|| self.tick_inner()) {
            Ok(r) => r,
            Err(e) => {
                tracing::error!("scheduler failed: {e:?}");
                Response::default()
            }
        })
    }

    fn tick_inner(&self) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let mut out = Response::default();
        for row in games::due_timeouts(&conn, now)? {
            // What the game's chat reads is in its language.
            let _lang = crate::i18n::scoped(self.lang_in(&game_scope(&row)));
            // Secret-bomb chess: no bomb chosen by the first move's deadline is a bomb at random.
            if self.bomb_at_random(&conn, &row, &mut out)? {
                continue;
            }
            let turn = turn_of_fen(&row.fen);
            let winner = turn.other();
            let game = match self.load_game(&conn, &row) {
                Ok(g) => g,
                Err(e) => {
                    tracing::error!(game = row.id, "timeout skipped: {e:?}");
                    continue;
                }
            };
            let o = if game.position().has_insufficient_material(winner) {
                Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial)
            } else {
                Outcome::Decisive { winner, reason: WinReason::Timeout }
            };
            let mut notes = Vec::new();
            let mut on_end = |c: &crate::store::Connection, r: &games::GameRow| self.on_game_end(c, r, &mut notes);
            if games::finish(&conn, row.id, row.ply, o, now, &mut on_end)? {
                let loser = self.name_of(&conn, row.player(turn))?;
                let lang = self.lang_in(&game_scope(&row));
                let end = with_lang(lang, || self.end_text(&conn, &row, o))?;
                let mut text = crate::tl!(lang, "timeout", id = row.id, name = loser, end = end);
                for n in &notes {
                    text.push_str(&format!("\n{n}"));
                }
                let mut r = self.reply_game(&row, text);
                r.notify = self.notify_of(&conn, &row.platform, row.white)?;
                r.notify.extend(self.notify_of(&conn, &row.platform, row.black)?);
                out.replies.push(r);
                out.replies.extend(self.gif_at_end(&conn, row.id));
            }
        }
        for row in games::due_reminders(&conn, now)? {
            if games::mark_reminded(&conn, row.id, row.ply)? {
                let turn = turn_of_fen(&row.fen);
                let p = row.player(turn);
                if players::get(&conn, p)?.is_some_and(|p| p.is_ai) {
                    continue;
                }
                let left = row.deadline.unwrap_or(now) - now;
                let lang = self.player_lang(p, self.lang_in(&game_scope(&row)));
                let name = self.name_of(&conn, p)?;
                let text = with_lang(lang, || {
                    t!(
                        "reminder",
                        id = row.id,
                        name = name,
                        color = color_word(turn),
                        hours = left.max(0) / 3600,
                        minutes = left.max(0) % 3600 / 60
                    )
                });
                // To the player's direct messages (the game's chat where that cannot be).
                out.replies.extend(self.direct_notice(&conn, &row, p, text, true)?);
            }
        }
        // community: ladder challenges not accepted in time (before the ordinary expiry below)
        out.extend(self.ladder_tick()?);
        // community: tournaments whose registration closed, and rounds and results to announce
        out.extend(self.tournament_tick()?);
        for c in challenges::due_expiries(&conn, now)? {
            if challenges::close(&conn, c.id, "expired", None)? {
                let target = challenge_target(&c);
                let lang = target.chat().map_or(self.config.lang, |s| self.lang_in(s));
                let mut r = Reply::new(target, crate::tl!(lang, "challenge-expired-notice", id = c.id));
                r.notify = self.notify_of(&conn, &c.platform, c.challenger)?;
                out.replies.push(r);
            }
        }
        events::prune(&conn, now)?;
        // Delivered and failed outbox rows are kept a week for the operator's counts.
        crate::store::outbox::prune(&conn, now)?;
        Ok(out)
    }
}

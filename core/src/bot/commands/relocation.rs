//! The Capablanca Relocation setup phase: Black, then White, swap the king or queen with another
//! back-rank piece (or keep the array); then the game starts from the chosen setup.

use super::{Bot, BotError, Ctx, Res, clock_after, color_msg, game_target, short, user, variant_named};
use crate::bot::io::Response;
use crate::notation::fen;
use crate::rules::{Color, Game, setups};
use crate::store::games::{self, Status};
use crate::store::players;
use crate::{msg, t};

impl Bot {
    pub(super) fn swap(&self, cx: &Ctx<'_>, id: Option<i64>, text: &str) -> Res<Response> {
        let (me, row) = self.game_for(cx, id)?;
        if row.status != Status::Setup {
            return user(msg!("swap-no-setup", id = row.id));
        }
        let Some(swap) = setups::parse_relocation_swap(text) else {
            return user(msg!("swap-unreadable", text = short(text), p = cx.p()));
        };
        let color = if row.black_swap.is_none() { Color::Black } else { Color::White };
        if row.player(color) != me.id {
            let name = self.name_of(&self.conn()?, row.player(color))?;
            return user(msg!("swap-other-chooses", id = row.id, name = name, color = color_msg(color)));
        }
        self.swap_as(row.id, color, swap as u32, cx.p())
    }

    /// Records `color`'s swap; when both have chosen, the game starts.
    pub(super) fn swap_as(&self, id: i64, color: Color, swap: u32, p: &str) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        if !games::set_swap(&conn, id, color, swap, now)? {
            return user(msg!("swap-already", id = id));
        }
        let row = games::get(&conn, id)?.ok_or_else(|| BotError::Internal("game vanished".into()))?;
        // The rules name a swap by its letters (`K<->A (b)`); keeping the array is said in words.
        let name = setups::relocation_swap_name(swap as usize);
        let name = if name.contains("<->") { name } else { t!("swap-none") };
        let mut out = Response::default();
        match (row.black_swap, row.white_swap) {
            (Some(b), Some(w)) => {
                let idx = b * 12 + w;
                let start = setups::position(variant_named(&row.variant)?, idx as usize)
                    .ok_or_else(|| BotError::Internal(format!("no relocation setup {idx}")))?;
                let start_fen = fen::write(&start);
                let (deadline, remind_at) = clock_after(row.days_per_move, now);
                if !games::start_after_setup(&conn, id, idx, &start_fen, deadline, remind_at, now)? {
                    return user(msg!("swap-setup-over", id = id));
                }
                let white =
                    players::get(&conn, row.white)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
                let text =
                    t!("swap-white-chose", id = id, swap = name.as_str(), setup = idx, name = white.name.as_str());
                let mut r = self.board_reply(game_target(&row), text, &start, None, Color::White);
                r.notify = self.notify_of(&conn, &row.platform, white.id)?;
                out.replies.push(r);
                if let Some(level) = row.ai_level
                    && white.is_ai
                {
                    out.extend(self.ai_turn(&game_target(&row), id, 0, level, Game::new(start)));
                }
            }
            (Some(_), None) => {
                let white =
                    players::get(&conn, row.white)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
                if white.is_ai {
                    out.replies.push(self.reply_game(&row, t!("swap-black-chose", id = id, swap = name.as_str())));
                    drop(conn);
                    out.extend(self.swap_as(id, Color::White, 0, p)?);
                    return Ok(out);
                }
                let mut r = self.reply_game(
                    &row,
                    t!("swap-black-chose-next", id = id, swap = name.as_str(), name = white.name.as_str(), p = p),
                );
                r.notify = self.notify_of(&conn, &row.platform, white.id)?;
                out.replies.push(r);
            }
            _ => return Err(BotError::Internal("swap state out of order".into())),
        }
        Ok(out)
    }
}

//! The Capablanca Relocation setup phase: Black, then White, swap the king or queen with another
//! back-rank piece (or keep the array); then the game starts from the chosen setup.

use super::{Bot, BotError, Ctx, Res, clock_after, color_msg, game_target, short, user, variant_named};
use crate::bot::command::Command;
use crate::bot::io::Response;
use crate::i18n::Msg;
use crate::notation::fen;
use crate::rules::setups::SwapRefusal;
use crate::rules::{Color, Game, setups};
use crate::store::games::{self, GameRow, Status};
use crate::store::players::{self, Player};
use crate::{msg, t};

/// Why a typed swap is refused, as a message: the rules' reason, or that it cannot be read.
fn swap_refusal(r: SwapRefusal, text: &str, p: &str) -> Msg {
    let who = |king: bool| if king { "king" } else { "queen" };
    let file = |f: u8| char::from(b'a' + f).to_string();
    match r {
        SwapRefusal::Unreadable => msg!("swap-unreadable", text = short(text), p = p),
        SwapRefusal::Rook => msg!("swap-rook", p = p),
        SwapRefusal::OwnFile { king } => {
            msg!("swap-own-file", who = who(king), file = file(if king { 5 } else { 4 }), p = p)
        }
        SwapRefusal::BishopsOneColour { king, file: f } => {
            msg!("swap-bishops", who = who(king), file = file(f), p = p)
        }
        SwapRefusal::Ambiguous { king, files: [a, b] } => {
            let example = format!("{p}swap {} {}", if king { 'K' } else { 'Q' }, file(a));
            msg!("swap-which-knight", first = file(a), second = file(b), example = example)
        }
    }
}

/// How long the side to choose in the setup phase has, and what counts when that time runs out.
pub(super) fn setup_clock_text(left: i64) -> String {
    let left = left.max(0);
    t!("setup-clock", hours = left / 3600, minutes = left % 3600 / 60)
}

/// Relocation setup `idx` (Black's swap `idx / 12`, then White's `idx % 12`) of game `row`.
fn setup_position(row: &GameRow, idx: usize) -> Res<crate::rules::Position> {
    setups::position(variant_named(&row.variant)?, idx)
        .ok_or_else(|| BotError::Internal(format!("game {}: no relocation setup {idx}", row.id)))
}

impl Bot {
    pub(super) fn swap(&self, cx: &Ctx<'_>, id: Option<i64>, text: &str) -> Res<Response> {
        let (me, row) = match id {
            Some(_) => self.game_for(cx, id)?,
            None => match self.only_swap_game(cx)? {
                Some(found) => found,
                None => self.game_for(cx, None)?,
            },
        };
        if row.status != Status::Setup {
            return user(msg!("swap-no-setup", id = row.id));
        }
        let swap = setups::read_relocation_swap(text).or_else(|r| user(swap_refusal(r, text, cx.p())))?;
        let color = if row.black_swap.is_none() { Color::Black } else { Color::White };
        if row.player(color) != me.id {
            let name = self.name_of(&self.conn()?, row.player(color))?;
            return user(msg!("swap-other-chooses", id = row.id, name = name, color = color_msg(color)));
        }
        self.swap_as(row.id, color, swap as u32, cx.p())
    }

    /// For a swap without a game's number: the author's only game here in its setup phase (of
    /// several, the only one where it is their turn to choose), or which of those games is meant
    /// (never a game that cannot take a swap); `None` where none is in its setup, for
    /// [`Bot::game_for`] to answer.
    fn only_swap_game(&self, cx: &Ctx<'_>) -> Res<Option<(Player, GameRow)>> {
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else { return Ok(None) };
        let setup: Vec<GameRow> = games::open_in_chat(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?
            .into_iter()
            .filter(|g| g.status == Status::Setup)
            .collect();
        let chooser = |g: &GameRow| g.player(if g.black_swap.is_none() { Color::Black } else { Color::White });
        let mine: Vec<&GameRow> = setup.iter().filter(|g| chooser(g) == me.id).collect();
        let row = match (setup.as_slice(), mine.as_slice()) {
            ([], _) => return Ok(None),
            ([g], _) => g.clone(),
            (_, [g]) => (*g).clone(),
            (many, _) => {
                let many: Vec<&GameRow> = many.iter().collect();
                let named = self.games_named(&conn, &many, me.id)?;
                let example = super::input_command(cx).unwrap_or(Command::NoSwap(None)).about_game(many[0].id);
                return user(msg!("games-which", count = many.len(), ids = named, example = example.typed(cx.p())));
            }
        };
        Ok(Some((me, row)))
    }

    /// Records `color`'s swap; when both have chosen, the game starts.
    pub(in crate::bot) fn swap_as(&self, id: i64, color: Color, swap: u32, p: &str) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        // Black's swap is public: White chooses against the board with it made (setup `swap × 12`,
        // White's array still Capablanca's), and `board`, `fen` and the web page show that board.
        let shown = match color {
            Color::Black => {
                let row = games::get(&conn, id)?.ok_or_else(|| BotError::Internal("game vanished".into()))?;
                Some(fen::write(&setup_position(&row, swap as usize * 12)?))
            }
            Color::White => None,
        };
        if !games::set_swap(&conn, id, color, swap, shown.as_deref(), now)? {
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
                let start = setup_position(&row, idx as usize)?;
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
                // White's choice now runs on the clock as Black's did.
                let (deadline, remind_at) = clock_after(row.days_per_move, now);
                games::set_setup_clock(&conn, id, deadline, remind_at, now)?;
                let mut text =
                    t!("swap-black-chose-next", id = id, swap = name.as_str(), name = white.name.as_str(), p = p);
                if let Some(d) = deadline.filter(|_| !row.paused) {
                    text.push(' ');
                    text.push_str(&setup_clock_text(d - now));
                }
                let mut r = self.reply_game(&row, text);
                r.notify = self.notify_of(&conn, &row.platform, white.id)?;
                out.replies.push(r);
            }
            _ => return Err(BotError::Internal("swap state out of order".into())),
        }
        Ok(out)
    }
}

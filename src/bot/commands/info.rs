//! What a player looks at: the board, their games and challenges, the variants, PGN export.

use super::{Bot, BotError, Ctx, Res, turn_of_fen, user};
use crate::bot::io::{Attachment, Reply, Response};
use crate::notation::pgn;
use crate::rules::{Color, VARIANTS};
use crate::store::challenges;
use crate::store::games::{self, GameRow, Status};
use crate::store::offers::{self, OfferKind};
use crate::store::{Conn, players};

/// The `variants` text.
pub(super) fn variants_text() -> String {
    let mut s = String::from("Variants:");
    for v in VARIANTS {
        s.push_str(&format!("\n{} — {}", v.name, v.display_name));
    }
    s
}

impl Bot {
    pub(super) fn board(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.game_for(cx, id)?;
        let conn = self.conn()?;
        let game = self.load_game(&conn, &row)?;
        let pos = game.position();
        let turn = pos.turn();
        let status = match row.status {
            Status::Setup => "setup phase".to_string(),
            Status::Active => format!("{} ({}) to move", self.name_of(&conn, row.player(turn))?, turn.name()),
            Status::Finished => format!("finished {}", row.result.as_deref().unwrap_or("")),
            Status::Aborted => "aborted".into(),
        };
        let white = self.name_of(&conn, row.white)?;
        let black = self.name_of(&conn, row.black)?;
        let mut text = format!("Game #{}: {white} (white) vs {black} (black), {}; {status}.", row.id, row.variant);
        if let Some(dl) = row.deadline.filter(|_| row.status == Status::Active) {
            let left = dl - self.clock.now();
            text.push_str(&format!(" Time left: {}h {}m.", left.max(0) / 3600, left.max(0) % 3600 / 60));
        }
        if let Some(o) = offers::get(&conn, row.id, OfferKind::Draw)? {
            text.push_str(&format!(" Draw offered by {}.", self.name_of(&conn, o.by_player)?));
        }
        if let Some(o) = offers::get(&conn, row.id, OfferKind::Takeback)? {
            text.push_str(&format!(" Takeback requested by {}.", self.name_of(&conn, o.by_player)?));
        }
        let viewer = row.color_of(me.id).unwrap_or(Color::White);
        let mut r = self.board_reply(cx.target(), text, pos, game.moves().last().copied(), viewer);
        r.card = Some(self.game_card(&conn, &row, pos, None)?);
        Ok(Response::one(r))
    }

    pub(super) fn games_list(&self, cx: &Ctx<'_>) -> Res<Response> {
        let prefix = cx.p();
        let conn = self.conn()?;
        let now = self.clock.now();
        let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else {
            return user(format!("You have no games. Start one with {prefix}challenge @someone or {prefix}play."));
        };
        let mut lines = Vec::new();
        for g in games::open_of_player(&conn, me.id)? {
            let opp = if g.white == me.id { g.black } else { g.white };
            let here =
                if g.platform == cx.scope().platform && g.chat_id == cx.scope().chat { "" } else { " (another chat)" };
            let state = if g.status == Status::Setup {
                "setup phase".to_string()
            } else if g.player(turn_of_fen(&g.fen)) == me.id {
                "your turn".to_string()
            } else {
                "their turn".to_string()
            };
            lines.push(format!(
                "#{} {} vs {}, ply {}, {state}{here}",
                g.id,
                g.variant,
                self.name_of(&conn, opp)?,
                g.ply
            ));
        }
        for c in challenges::acceptable(&conn, &cx.scope().platform, &cx.scope().chat, me.id, now)? {
            lines.push(format!(
                "challenge #{} from {} ({}): {prefix}accept #{}",
                c.id,
                self.name_of(&conn, c.challenger)?,
                c.variant,
                c.id
            ));
        }
        if lines.is_empty() {
            return Ok(
                cx.say(format!("No games in progress. Start one with {prefix}challenge @someone or {prefix}play."))
            );
        }
        Ok(cx.say(format!("Your games:\n{}", lines.join("\n"))))
    }

    pub(super) fn pgn(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let (_, row) = self.game_for(cx, id)?;
        let conn = self.conn()?;
        let text = self.pgn_of(&conn, &row)?;
        let mut r = Reply::new(cx.target(), text.clone());
        r.file = Some(Attachment {
            name: format!("capabot-game-{}.pgn", row.id),
            mime: "application/x-chess-pgn".into(),
            bytes: text.into_bytes(),
        });
        Ok(Response::one(r))
    }

    pub(in crate::bot) fn pgn_of(&self, conn: &Conn<'_>, row: &GameRow) -> Res<String> {
        let game = self.load_game(conn, row)?;
        let name = |id| -> Res<String> {
            let p = players::get(conn, id)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
            Ok(if p.is_ai { format!("capabot (level {})", row.ai_level.unwrap_or(0)) } else { p.name })
        };
        let headers = pgn::PgnHeaders {
            event: format!("capabot game #{}", row.id),
            site: format!("{} chat {}", row.platform, row.chat_id),
            date: crate::bot::clock::pgn_date(row.created_at),
            white: name(row.white)?,
            black: name(row.black)?,
            round: String::new(),
        };
        Ok(pgn::write(&game, &headers, row.outcome()))
    }

    /// PGN of a game by id (any chat).
    pub fn pgn_by_id(&self, id: i64) -> Option<String> {
        let conn = self.conn().ok()?;
        let row = games::get(&conn, id).ok()??;
        self.pgn_of(&conn, &row).ok()
    }
}

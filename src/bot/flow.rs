//! The commands themselves: challenges, moves, offers, the relocation setup phase, the scheduler.

use super::command::{self, ChallengeArgs, Command, SettingsArgs};
use super::seams::board_png;
use super::textboard::text_board;
use super::{AiJob, Bot, BotError, Choice, IncomingMessage, Reply, Response, UserRef};
use crate::notation::{self, fen, pgn, san, uci};
use crate::rules::variant::CAPARELOCATION;
use crate::rules::{Color, DrawReason, Game, Move, Outcome, Position, VARIANTS, Variant, WinReason, setups};
use crate::store::games::{self, GameRow, MoveUpdate, NewGame, Status};
use crate::store::offers::{self, OfferKind};
use crate::store::players::{self, Player, PlayerId};
use crate::store::{Conn, challenges, settings};
use rand::RngExt;

type Res<T> = Result<T, BotError>;

fn user<T>(s: impl Into<String>) -> Res<T> {
    Err(BotError::User(s.into()))
}

const DAY: i64 = 86_400;

/// Deadline and reminder time for a move made at `now` with `days` per move.
fn clock_after(days: Option<u32>, now: i64) -> (Option<i64>, Option<i64>) {
    match days {
        Some(d) => {
            let span = i64::from(d) * DAY;
            let deadline = now + span;
            (Some(deadline), Some(deadline - span / 5))
        }
        None => (None, None),
    }
}

fn turn_of_fen(fen_text: &str) -> Color {
    if fen_text.split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::White }
}

fn variant_named(name: &str) -> Res<&'static Variant> {
    let lower = name.to_lowercase();
    let found = Variant::by_name(&lower).or_else(|| {
        VARIANTS.iter().copied().find(|v| v.display_name.to_lowercase().replace(' ', "") == lower.replace(' ', ""))
    });
    match found {
        Some(v) => Ok(v),
        None => {
            let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
            user(format!("I don't know the variant '{name}'. Variants: {}.", names.join(", ")))
        }
    }
}

fn short(s: &str) -> String {
    let clean: String = s.chars().filter(|c| !c.is_control()).take(40).collect();
    clean
}

fn move_label(pos: &Position, san_text: &str) -> String {
    let dots = if pos.turn() == Color::White { "." } else { "..." };
    format!("{}{dots} {san_text}", pos.fullmoves())
}

impl Bot {
    fn conn(&self) -> Res<Conn<'_>> {
        Ok(self.store.conn()?)
    }

    pub(super) fn handle_inner(&self, msg: &IncomingMessage) -> Res<Response> {
        let conn = self.conn()?;
        let chat = settings::get(&conn, &msg.platform, &msg.chat_id)?;
        let prefix = chat.prefix.clone().unwrap_or_else(|| self.config.prefix.clone());
        let text = msg.text.trim();
        let Some(body) = text.strip_prefix(prefix.as_str()) else {
            drop(conn);
            return self.plain_text(msg, text);
        };
        if msg.text.len() > self.config.max_input {
            return user(format!(
                "That message is too long ({} characters); commands are short. Say {prefix}help for the list.",
                msg.text.chars().count()
            ));
        }
        let cmd = match command::parse(body) {
            Ok(c) => c,
            Err(e) => return user(format!("{e}. Say {prefix}help for the commands.")),
        };
        drop(conn);
        match cmd {
            Command::Help => Ok(self.say(msg, help_text(&prefix))),
            Command::Variants => Ok(self.say(msg, variants_text())),
            Command::Rules(name) => {
                let v = variant_named(name.as_deref().unwrap_or(&self.config.default_variant))?;
                Ok(self.say(msg, format!("{}: {}", v.display_name, v.rules_summary)))
            }
            Command::Challenge(args) => self.challenge(msg, args, false),
            Command::Play(args) => self.challenge(msg, args, true),
            Command::Accept(id) => self.accept(msg, id),
            Command::Decline(id) => self.decline(msg, id),
            Command::Move { game, text } => self.move_cmd(msg, game, &text, &prefix, true),
            Command::Other { game, text } => self.move_cmd(msg, game, &text, &prefix, false),
            Command::Board(id) => self.board(msg, id),
            Command::Games => self.games_list(msg, &prefix),
            Command::Resign(id) => self.resign(msg, id),
            Command::Draw(id) => self.draw(msg, id),
            Command::Takeback(id) => self.takeback(msg, id),
            Command::TakebackDecline(id) => self.takeback_decline(msg, id),
            Command::Abort(id) => self.abort(msg, id),
            Command::Fen(id) => {
                let (_, row) = self.game_for(msg, id)?;
                Ok(self.say(msg, format!("Game #{}: {}", row.id, row.fen)))
            }
            Command::Pgn(id) => self.pgn(msg, id),
            Command::Swap { game, text } => self.swap(msg, game, &text),
            Command::NoSwap(game) => self.swap(msg, game, "none"),
            Command::Settings(args) => self.settings(msg, args, &prefix),
        }
    }

    /// Text without the prefix: a bare move when it is one for the author's only game to move in
    /// here; otherwise ignored (people talk in chats).
    fn plain_text(&self, msg: &IncomingMessage, text: &str) -> Res<Response> {
        if text.is_empty() || text.len() > 40 || text.contains(char::is_whitespace) {
            return Ok(Response::default());
        }
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &msg.platform, &msg.author_id)? else {
            return Ok(Response::default());
        };
        let mine: Vec<GameRow> = games::open_in_chat(&conn, &msg.platform, &msg.chat_id, me.id)?
            .into_iter()
            .filter(|g| g.status == Status::Active && g.player(turn_of_fen(&g.fen)) == me.id)
            .collect();
        let [row] = mine.as_slice() else { return Ok(Response::default()) };
        let Ok(pos) = fen::parse_position(variant_named(&row.variant)?, &row.fen) else {
            return Ok(Response::default());
        };
        if notation::parse_move(&pos, text).is_err() {
            return Ok(Response::default());
        }
        let row = row.clone();
        drop(conn);
        self.play_move(msg, &me, row, text)
    }

    fn me(&self, conn: &Conn<'_>, msg: &IncomingMessage) -> Res<Player> {
        let name = if msg.author_name.trim().is_empty() { msg.author_id.as_str() } else { msg.author_name.trim() };
        Ok(players::ensure(conn, &msg.platform, &msg.author_id, &short(name), self.clock.now())?)
    }

    fn name_of(&self, conn: &Conn<'_>, id: PlayerId) -> Res<String> {
        Ok(players::get(conn, id)?.map_or_else(|| format!("player {id}"), |p| p.name))
    }

    fn notify_of(&self, conn: &Conn<'_>, platform: &str, id: PlayerId) -> Res<Vec<UserRef>> {
        let name = self.name_of(conn, id)?;
        Ok(players::accounts_on(conn, id, platform)?
            .into_iter()
            .map(|uid| UserRef { id: uid, name: name.clone() })
            .collect())
    }

    fn is_self_mention(&self, m: &UserRef) -> bool {
        self.config.self_names.iter().any(|n| n.eq_ignore_ascii_case(&m.id) || n.eq_ignore_ascii_case(&m.name))
    }

    /// The game a command is about: `#id`, or the author's only open game in this chat.
    fn game_for(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<(Player, GameRow)> {
        let conn = self.conn()?;
        let Some(me) = players::find(&conn, &msg.platform, &msg.author_id)? else {
            if let Some(id) = id
                && games::get(&conn, id)?.is_some()
            {
                return user(format!("Game #{id} is not yours: you are not playing in it."));
            }
            return user("You have no games yet. Start one with !challenge @someone or !play.");
        };
        match id {
            Some(id) => {
                let Some(row) = games::get(&conn, id)? else { return user(format!("There is no game #{id}.")) };
                if row.platform != msg.platform || row.chat_id != msg.chat_id {
                    return user(format!("Game #{id} is not in this chat."));
                }
                if row.color_of(me.id).is_none() {
                    return user(format!("Game #{id} is not yours: you are not playing in it."));
                }
                Ok((me, row))
            }
            None => {
                let open = games::open_in_chat(&conn, &msg.platform, &msg.chat_id, me.id)?;
                match open.len() {
                    0 => match games::latest_in_chat(&conn, &msg.platform, &msg.chat_id, me.id)? {
                        Some(row) => Ok((me, row)),
                        None => user("You have no game in this chat. Start one with !challenge @someone or !play."),
                    },
                    1 => Ok((me, open.into_iter().next().expect("one"))),
                    _ => {
                        let ids: Vec<String> = open.iter().map(|g| format!("#{}", g.id)).collect();
                        user(format!(
                            "You have {} games here ({}); add the number, e.g. !board {}.",
                            open.len(),
                            ids.join(", "),
                            ids[0]
                        ))
                    }
                }
            }
        }
    }

    /// Replays a stored game and checks it reaches the stored FEN.
    ///
    /// Row and moves are read in one read transaction (one snapshot); when the game has moved on
    /// since `row` was read, the caller is told the position changed.
    pub(crate) fn load_game(&self, conn: &Conn<'_>, row: &GameRow) -> Res<Game> {
        let tx = conn.unchecked_transaction()?;
        let fresh = games::get(&tx, row.id)?.ok_or_else(|| BotError::Internal(format!("game {} vanished", row.id)))?;
        if fresh.ply != row.ply || fresh.status != row.status {
            return user(format!(
                "Game #{}: the position changed meanwhile (another move came first). Look at !board and try again.",
                row.id
            ));
        }
        let stored = games::moves(&tx, row.id)?;
        tx.commit()?;
        let row = &fresh;
        let v = variant_named(&row.variant)
            .map_err(|_| BotError::Internal(format!("game {} has unknown variant", row.id)))?;
        let start = fen::parse_position(v, &row.start_fen)
            .map_err(|e| BotError::Internal(format!("game {}: bad start FEN: {e}", row.id)))?;
        let mut game = Game::new(start);
        for m in stored {
            let mv = uci::parse(game.position(), &m.uci).map_err(|e| {
                BotError::Internal(format!("game {} ply {}: stored move {} does not replay: {e}", row.id, m.ply, m.uci))
            })?;
            if !game.play(mv) {
                return Err(BotError::Internal(format!(
                    "game {} ply {}: stored move {} is illegal",
                    row.id, m.ply, m.uci
                )));
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

    /// Checks a stored game replays to its FEN (for start-up checks and tests).
    pub fn verify_game(&self, id: i64) -> Result<(), String> {
        let conn = self.conn().map_err(|_| "no connection".to_string())?;
        let row = games::get(&conn, id).map_err(|e| e.to_string())?.ok_or("no such game")?;
        if row.status == Status::Setup {
            return Ok(());
        }
        self.load_game(&conn, &row).map(|_| ()).map_err(|e| match e {
            BotError::User(s) | BotError::Internal(s) => s,
        })
    }

    fn board_reply(
        &self,
        platform: &str,
        chat: &str,
        text: String,
        pos: &Position,
        last: Option<Move>,
        viewer: Color,
    ) -> Reply {
        let mut r = self.reply(platform, chat, text);
        if self.config.pictures {
            r.png = board_png(pos, last, viewer);
        }
        r.text_board = Some(text_board(pos));
        r
    }

    // ----- challenges -----

    fn challenge(&self, msg: &IncomingMessage, args: ChallengeArgs, play: bool) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let chat = settings::get(&conn, &msg.platform, &msg.chat_id)?;
        let vname =
            args.variant.clone().or(chat.default_variant).unwrap_or_else(|| self.config.default_variant.clone());
        let v = variant_named(&vname)?;
        if let Some(s) = args.setup
            && (s as usize) >= setups::count(v)
        {
            return user(format!("{} has setups 0 to {}, not {s}.", v.display_name, setups::count(v) - 1));
        }
        if args.setup.is_some() && v.name == CAPARELOCATION.name {
            return user("Capablanca Relocation chooses its setup with swaps after accepting; leave out setup:N.");
        }
        let days = args.days.unwrap_or(chat.default_days);
        let color = args.color.clone().unwrap_or_else(|| "random".into());
        let target = msg.mentions.first();
        let vs_ai = play || target.is_some_and(|m| self.is_self_mention(m));
        if args.mentions_someone && target.is_none() && !play {
            return user("I could not tell who you mentioned; mention them so the chat links their name.");
        }
        if args.level.is_some() && !vs_ai {
            return user("level:N is for games against me: !play [variant] level:N.");
        }
        let me = self.me(&conn, msg)?;
        if vs_ai {
            let ai = players::ai(&conn, now)?;
            let level = args.level.unwrap_or(3);
            drop(conn);
            return self.start_game(msg, v, args.setup, days, &color, &me, &ai, Some(level), None);
        }
        let challenged = match target {
            Some(m) => {
                if m.id == msg.author_id {
                    return user("You cannot challenge yourself.");
                }
                let name = if m.name.is_empty() { m.id.as_str() } else { m.name.as_str() };
                Some(players::ensure(&conn, &msg.platform, &m.id, &short(name), now)?)
            }
            None => None,
        };
        let expires = now + self.config.challenge_expiry_secs;
        let id = challenges::create(
            &conn,
            &challenges::NewChallenge {
                platform: &msg.platform,
                chat_id: &msg.chat_id,
                challenger: me.id,
                challenged: challenged.as_ref().map(|p| p.id),
                variant: v.name,
                setup: args.setup,
                days_per_move: days,
                color: &color,
                expires_at: expires,
            },
            now,
        )?;
        let clock =
            days.map_or("no clock".to_string(), |d| format!("{d} day{} per move", if d == 1 { "" } else { "s" }));
        let setup = args.setup.map(|s| format!(", setup {s}")).unwrap_or_default();
        let hours = self.config.challenge_expiry_secs / 3600;
        let mut r = match &challenged {
            Some(p) => {
                let mut r = self.reply(
                    &msg.platform,
                    &msg.chat_id,
                    format!(
                        "Challenge #{id}: {} challenges {} to {} ({clock}{setup}, {} plays {color}). {}: !accept or !decline (expires in {hours} h).",
                        me.name, p.name, v.display_name, me.name, p.name
                    ),
                );
                r.notify = self.notify_of(&conn, &msg.platform, p.id)?;
                r
            }
            None => self.reply(
                &msg.platform,
                &msg.chat_id,
                format!(
                    "Open challenge #{id}: {} wants to play {} ({clock}{setup}, {} plays {color}). Anyone here: !accept {id} (expires in {hours} h).",
                    me.name, v.display_name, me.name
                ),
            ),
        };
        r.choices = vec![
            Choice { label: "Accept".into(), command: format!("!accept #{id}") },
            Choice { label: "Decline".into(), command: format!("!decline #{id}") },
        ];
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    fn accept(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        // Someone new may accept an open challenge; their player record is made only then.
        let known = players::find(&conn, &msg.platform, &msg.author_id)?;
        let me_id = known.as_ref().map_or(-1, |p| p.id);
        let list = challenges::acceptable(&conn, &msg.platform, &msg.chat_id, me_id, now)?;
        let ch = match id {
            Some(id) => match list.into_iter().find(|c| c.id == id) {
                Some(c) => c,
                None => return user(format!("There is no open challenge #{id} here that you can accept.")),
            },
            None => {
                // Direct challenges first, then open ones.
                let mut direct: Vec<_> = list.iter().filter(|c| c.challenged == Some(me_id)).cloned().collect();
                match (direct.len(), list.len()) {
                    (1, _) => direct.remove(0),
                    (0, 1) => list.into_iter().next().expect("one"),
                    (0, 0) => return user("There is no challenge here for you to accept."),
                    _ => {
                        let ids: Vec<String> = list.iter().map(|c| format!("#{}", c.id)).collect();
                        return user(format!(
                            "Several challenges are open ({}); say which, e.g. !accept {}.",
                            ids.join(", "),
                            ids[0]
                        ));
                    }
                }
            }
        };
        if !challenges::close(&conn, ch.id, "accepted", None)? {
            return user(format!("Challenge #{} is no longer open.", ch.id));
        }
        let me = match known {
            Some(p) => p,
            None => self.me(&conn, msg)?,
        };
        let challenger =
            players::get(&conn, ch.challenger)?.ok_or_else(|| BotError::Internal("challenger vanished".into()))?;
        let v = variant_named(&ch.variant)?;
        drop(conn);
        self.start_game(msg, v, ch.setup, ch.days_per_move, &ch.color, &challenger, &me, None, Some(ch.id))
    }

    #[allow(clippy::too_many_arguments)]
    fn start_game(
        &self,
        msg: &IncomingMessage,
        v: &'static Variant,
        setup: Option<u32>,
        days: Option<u32>,
        color: &str,
        challenger: &Player,
        other: &Player,
        ai_level: Option<u8>,
        challenge: Option<i64>,
    ) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let challenger_white = match color {
            "white" => true,
            "black" => false,
            _ => rand::rng().random_range(0..2) == 0,
        };
        let (white, black) = if challenger_white { (challenger, other) } else { (other, challenger) };
        let relocation = v.name == CAPARELOCATION.name;
        let (setup, start) = if relocation {
            (None, Position::start(v))
        } else if v.has_setups() {
            let idx = setup.unwrap_or_else(|| setups::random_index(v, &mut rand::rng()) as u32);
            let pos = setups::position(v, idx as usize).ok_or_else(|| BotError::User(format!("no setup {idx}")))?;
            (Some(idx), pos)
        } else {
            (None, Position::start(v))
        };
        let start_fen = fen::write(&start);
        let (deadline, remind_at) = if relocation { (None, None) } else { clock_after(days, now) };
        let id = games::create(
            &conn,
            &NewGame {
                platform: &msg.platform,
                chat_id: &msg.chat_id,
                variant: v.name,
                setup,
                start_fen: &start_fen,
                white: white.id,
                black: black.id,
                ai_level,
                days_per_move: days,
                status: if relocation { Status::Setup } else { Status::Active },
                deadline,
                remind_at,
            },
            now,
        )?;
        if let Some(ch) = challenge {
            conn.execute("UPDATE challenges SET game_id = ?1 WHERE id = ?2", rusqlite::params![id, ch])?;
        }
        let setup_txt = setup.map(|s| format!(", setup {s}")).unwrap_or_default();
        let clock =
            days.map_or("no clock".to_string(), |d| format!("{d} day{} per move", if d == 1 { "" } else { "s" }));
        let level = ai_level.map(|l| format!(" (level {l})")).unwrap_or_default();
        let mut out = Response::default();
        if relocation {
            let mut r = self.board_reply(
                &msg.platform,
                &msg.chat_id,
                format!(
                    "Game #{id} starts: {} (white) vs {} (black), {}, {clock}. Setup phase: {} (black) chooses first: \
                     !swap K b (king with the piece on file b), !swap Q h, ... or !noswap.",
                    white.name, black.name, v.display_name, black.name
                ),
                &start,
                None,
                Color::Black,
            );
            r.notify = self.notify_of(&conn, &msg.platform, black.id)?;
            out.replies.push(r);
            // The AI keeps Capablanca's array: as Black it chooses "no swap" at once (as White, once
            // Black has chosen; see `swap_as`).
            if black.is_ai {
                drop(conn);
                out.extend(self.swap_as(id, Color::Black, 0)?);
            }
            return Ok(out);
        }
        let to_move = white;
        let mut r = self.board_reply(
            &msg.platform,
            &msg.chat_id,
            format!(
                "Game #{id} starts: {}{} (white) vs {}{} (black), {}{setup_txt}, {clock}. {} (white) to move.",
                white.name,
                if white.is_ai { &level } else { "" },
                black.name,
                if black.is_ai { &level } else { "" },
                v.display_name,
                to_move.name
            ),
            &start,
            None,
            Color::White,
        );
        if !to_move.is_ai {
            r.notify = self.notify_of(&conn, &msg.platform, to_move.id)?;
        }
        out.replies.push(r);
        if let Some(level) = ai_level
            && white.is_ai
        {
            out.extend(self.ai_turn(&msg.platform, &msg.chat_id, id, 0, level, Game::new(start)));
        }
        Ok(out)
    }

    fn ai_turn(&self, platform: &str, chat: &str, id: i64, ply: u32, level: u8, game: Game) -> Response {
        let mut out = Response::default();
        if self.oracle.budget(level) > std::time::Duration::from_secs(1) {
            out.replies.push(self.reply(platform, chat, format!("Game #{id}: capabot is thinking…")));
        }
        out.ai_jobs.push(AiJob { game_id: id, ply, level, game });
        out
    }

    fn decline(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let Some(me) = players::find(&conn, &msg.platform, &msg.author_id)? else {
            return user("There is no challenge here for you to decline.");
        };
        let mut list = challenges::acceptable(&conn, &msg.platform, &msg.chat_id, me.id, now)?;
        list.retain(|c| c.challenged == Some(me.id));
        let own = challenges::made_by(&conn, &msg.platform, &msg.chat_id, me.id)?;
        let (ch, status) = match id {
            Some(id) => {
                if let Some(c) = list.iter().find(|c| c.id == id) {
                    (c.clone(), "declined")
                } else if let Some(c) = own.iter().find(|c| c.id == id) {
                    (c.clone(), "cancelled")
                } else {
                    return user(format!("There is no open challenge #{id} here for you to decline or cancel."));
                }
            }
            None => match (list.as_slice(), own.as_slice()) {
                ([c], _) => (c.clone(), "declined"),
                ([], [c]) => (c.clone(), "cancelled"),
                ([], []) => return user("There is no challenge here for you to decline or cancel."),
                _ => return user("Several challenges are open; say which, e.g. !decline #3."),
            },
        };
        if !challenges::close(&conn, ch.id, status, None)? {
            return user(format!("Challenge #{} is no longer open.", ch.id));
        }
        let mut r = self.reply(&msg.platform, &msg.chat_id, format!("Challenge #{} {status} by {}.", ch.id, me.name));
        if status == "declined" {
            r.notify = self.notify_of(&conn, &msg.platform, ch.challenger)?;
        }
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    // ----- moves -----

    fn move_cmd(
        &self,
        msg: &IncomingMessage,
        id: Option<i64>,
        text: &str,
        prefix: &str,
        explicit: bool,
    ) -> Res<Response> {
        let conn = self.conn()?;
        let unknown = || {
            user(format!(
                "I don't know the command '{}'. Say {prefix}help for the list.",
                short(text.split_whitespace().next().unwrap_or(""))
            ))
        };
        let Some(me) = players::find(&conn, &msg.platform, &msg.author_id)? else {
            if id.is_some() {
                drop(conn);
                self.game_for(msg, id)?;
            }
            return if explicit {
                user("You have no game here. Start one with !challenge @someone or !play.")
            } else {
                unknown()
            };
        };
        let row = match id {
            Some(_) => {
                drop(conn);
                self.game_for(msg, id)?.1
            }
            None => {
                let open = games::open_in_chat(&conn, &msg.platform, &msg.chat_id, me.id)?;
                if open.is_empty() {
                    return if explicit {
                        user("You have no game in progress here. Start one with !challenge @someone or !play.")
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
                    [] => return user("It is not your turn in any of your games here."),
                    many => {
                        let ids: Vec<String> = many.iter().map(|g| format!("#{}", g.id)).collect();
                        return user(format!(
                            "It is your turn in {} games here ({}); say which: {prefix}move {} {}.",
                            many.len(),
                            ids.join(", "),
                            ids[0],
                            short(text)
                        ));
                    }
                }
            }
        };
        if !explicit {
            // A bare word that is not a move in this game: probably a mistyped command.
            let v = variant_named(&row.variant)?;
            if let Ok(pos) = fen::parse_position(v, &row.fen)
                && let Err(notation::MoveError::Syntax(_)) = notation::parse_move(&pos, text)
            {
                return unknown();
            }
        }
        self.play_move(msg, &me, row, text)
    }

    fn play_move(&self, msg: &IncomingMessage, me: &Player, row: GameRow, text: &str) -> Res<Response> {
        let mut conn = self.conn()?;
        let id = row.id;
        match row.status {
            Status::Setup => {
                return user(format!("Game #{id} is still in its setup phase: choose a swap with !swap or !noswap."));
            }
            Status::Finished => {
                return user(format!(
                    "Game #{id} is over ({}); start a new one with !challenge.",
                    row.result.as_deref().unwrap_or("finished")
                ));
            }
            Status::Aborted => return user(format!("Game #{id} was aborted.")),
            Status::Active => {}
        }
        let Some(_) = row.color_of(me.id) else {
            return user(format!("Game #{id} is not yours: you are not playing in it."));
        };
        let turn = turn_of_fen(&row.fen);
        if row.player(turn) != me.id {
            let other = self.name_of(&conn, row.player(turn))?;
            return user(format!("It is not your turn in game #{id}: {other} ({}) is to move.", turn.name()));
        }
        let mut game = self.load_game(&conn, &row)?;
        let pos = game.position().clone();
        let mv = match notation::parse_move(&pos, text) {
            Ok(m) => m,
            Err(e) => return user(format!("Game #{id}: {e}")),
        };
        self.commit_move(&mut conn, &msg.platform, &msg.chat_id, &row, &mut game, mv, &short(text), me)
    }

    /// Applies `mv` (legal in `game`) as ply `row.ply + 1` and builds the replies.
    #[allow(clippy::too_many_arguments)]
    fn commit_move(
        &self,
        conn: &mut Conn<'_>,
        platform: &str,
        chat: &str,
        row: &GameRow,
        game: &mut Game,
        mv: Move,
        typed: &str,
        mover: &Player,
    ) -> Res<Response> {
        let now = self.clock.now();
        let id = row.id;
        let before = game.position().clone();
        let san_text = san::write(&before, mv);
        let uci_text = uci::write(&before, mv);
        if !game.play(mv) {
            return user(format!("Game #{id}: that move is not legal here."));
        }
        let after = game.position().clone();
        let outcome = game.outcome();
        let fen_after = fen::write(&after);
        let (deadline, remind_at) = clock_after(row.days_per_move, now);
        let update =
            MoveUpdate { typed, san: &san_text, uci: &uci_text, fen_after: &fen_after, deadline, remind_at, outcome };
        if !games::apply_move(conn, id, row.ply, &update, now)? {
            return user(format!(
                "Game #{id}: the position changed before your move landed (another move came first). Look at !board and try again."
            ));
        }
        let label = move_label(&before, &san_text);
        let next = after.turn();
        let next_player = row.player(next);
        let next_name = self.name_of(conn, next_player)?;
        let mut text = format!("Game #{id}: {label} played by {}.", mover.name);
        if let Some(o) = outcome {
            text.push_str(&format!(" {}", self.end_text(conn, row, o)?));
        } else {
            text.push_str(&format!(" {next_name} ({}) to move.", next.name()));
            if after.is_check() {
                text.push_str(" Check!");
            }
            if let Some(dl) = deadline {
                let _ = dl;
                text.push_str(&format!(
                    " {} day{} to reply.",
                    row.days_per_move.unwrap_or(0),
                    if row.days_per_move == Some(1) { "" } else { "s" }
                ));
            }
        }
        let viewer = if outcome.is_some() { mover_color(row, mover.id) } else { next };
        let mut r = self.board_reply(platform, chat, text, &after, Some(mv), viewer);
        let opponent = row.player(mover_color(row, mover.id).other());
        r.notify = self.notify_of(conn, platform, opponent)?;
        let mut out = Response { replies: vec![r], ai_jobs: vec![] };
        if outcome.is_none()
            && let Some(level) = row.ai_level
            && players::get(conn, next_player)?.is_some_and(|p| p.is_ai)
        {
            out.extend(self.ai_turn(platform, chat, id, row.ply + 1, level, game.clone()));
        }
        Ok(out)
    }

    fn end_text(&self, conn: &Conn<'_>, row: &GameRow, o: Outcome) -> Res<String> {
        Ok(match o {
            Outcome::Decisive { winner, .. } => {
                format!(
                    "Game over: {} — {} wins by {}.",
                    o.result_str(),
                    self.name_of(conn, row.player(winner))?,
                    o.reason_str()
                )
            }
            Outcome::Draw(_) => format!("Game over: {} — draw by {}.", o.result_str(), o.reason_str()),
        })
    }

    /// Feeds back the move of an [`AiJob`]: stored through the same guarded transaction as human
    /// moves; dropped when the game moved on meanwhile.
    pub fn finish_ai_job(&self, job: &AiJob, mv: Option<Move>) -> Response {
        match self.finish_ai_inner(job, mv) {
            Ok(r) => r,
            Err(BotError::User(s)) => {
                tracing::info!(game = job.game_id, "AI move not applied: {s}");
                Response::default()
            }
            Err(BotError::Internal(e)) => {
                tracing::error!(game = job.game_id, "AI move failed: {e}");
                Response::default()
            }
        }
    }

    fn finish_ai_inner(&self, job: &AiJob, mv: Option<Move>) -> Res<Response> {
        let mut conn = self.conn()?;
        let Some(row) = games::get(&conn, job.game_id)? else { return user("game vanished") };
        if row.status != Status::Active || row.ply != job.ply {
            return user("the game moved on");
        }
        let ai = players::ai(&conn, self.clock.now())?;
        let Some(mv) = mv.filter(|m| job.game.position().is_legal(*m)) else {
            let r = self.reply(
                &row.platform,
                &row.chat_id,
                format!(
                    "Game #{}: capabot could not find a move (no AI in this build?). You can !abort the game.",
                    row.id
                ),
            );
            return Ok(Response { replies: vec![r], ai_jobs: vec![] });
        };
        let mut game = self.load_game(&conn, &row)?;
        let typed = san::write(game.position(), mv);
        let (platform, chat) = (row.platform.clone(), row.chat_id.clone());
        self.commit_move(&mut conn, &platform, &chat, &row, &mut game, mv, &typed, &ai)
    }

    /// AI jobs for games where capabot is to move (after a restart).
    pub fn pending_ai_jobs(&self) -> Vec<AiJob> {
        let run = || -> Res<Vec<AiJob>> {
            let conn = self.conn()?;
            let ai = players::ai(&conn, self.clock.now())?;
            let mut jobs = Vec::new();
            for row in games::ai_to_move(&conn, ai.id)? {
                let game = self.load_game(&conn, &row)?;
                jobs.push(AiJob { game_id: row.id, ply: row.ply, level: row.ai_level.unwrap_or(3), game });
            }
            Ok(jobs)
        };
        run().unwrap_or_else(|e| {
            tracing::error!("could not list pending AI games: {e:?}");
            Vec::new()
        })
    }

    // ----- board, games, fen, pgn -----

    fn board(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.game_for(msg, id)?;
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
        let r = self.board_reply(&msg.platform, &msg.chat_id, text, pos, game.moves().last().copied(), viewer);
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    fn games_list(&self, msg: &IncomingMessage, prefix: &str) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let Some(me) = players::find(&conn, &msg.platform, &msg.author_id)? else {
            return user(format!("You have no games. Start one with {prefix}challenge @someone or {prefix}play."));
        };
        let mut lines = Vec::new();
        for g in games::open_of_player(&conn, me.id)? {
            let opp = if g.white == me.id { g.black } else { g.white };
            let here = if g.platform == msg.platform && g.chat_id == msg.chat_id { "" } else { " (another chat)" };
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
        for c in challenges::acceptable(&conn, &msg.platform, &msg.chat_id, me.id, now)? {
            lines.push(format!(
                "challenge #{} from {} ({}): {prefix}accept #{}",
                c.id,
                self.name_of(&conn, c.challenger)?,
                c.variant,
                c.id
            ));
        }
        if lines.is_empty() {
            return Ok(self.say(
                msg,
                format!("No games in progress. Start one with {prefix}challenge @someone or {prefix}play."),
            ));
        }
        Ok(self.say(msg, format!("Your games:\n{}", lines.join("\n"))))
    }

    fn pgn(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (_, row) = self.game_for(msg, id)?;
        let conn = self.conn()?;
        let text = self.pgn_of(&conn, &row)?;
        Ok(self.say(msg, text))
    }

    pub(crate) fn pgn_of(&self, conn: &Conn<'_>, row: &GameRow) -> Res<String> {
        let game = self.load_game(conn, row)?;
        let name = |id| -> Res<String> {
            let p = players::get(conn, id)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
            Ok(if p.is_ai { format!("capabot (level {})", row.ai_level.unwrap_or(0)) } else { p.name })
        };
        let headers = pgn::PgnHeaders {
            event: format!("capabot game #{}", row.id),
            site: format!("{} chat {}", row.platform, row.chat_id),
            date: super::clock::pgn_date(row.created_at),
            white: name(row.white)?,
            black: name(row.black)?,
            round: String::new(),
        };
        Ok(pgn::write(&game, &headers, row.outcome()))
    }

    // ----- resign, draw, takeback, abort -----

    fn active_game(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<(Player, GameRow)> {
        let (me, row) = self.game_for(msg, id)?;
        match row.status {
            Status::Active => Ok((me, row)),
            Status::Setup => user(format!("Game #{} is still in its setup phase.", row.id)),
            Status::Finished | Status::Aborted => user(format!("Game #{} is already over.", row.id)),
        }
    }

    fn finish_with(&self, msg: &IncomingMessage, row: &GameRow, o: Outcome, notify: PlayerId) -> Res<Response> {
        let mut conn = self.conn()?;
        if !games::finish(&mut conn, row.id, row.ply, o, self.clock.now())? {
            return user(format!("Game #{}: the position changed meanwhile; look at !board and try again.", row.id));
        }
        let text = format!("Game #{}: {}", row.id, self.end_text(&conn, row, o)?);
        let mut r = self.reply(&msg.platform, &msg.chat_id, text);
        r.notify = self.notify_of(&conn, &msg.platform, notify)?;
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    fn resign(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(msg, id)?;
        let c = mover_color(&row, me.id);
        self.finish_with(
            msg,
            &row,
            Outcome::Decisive { winner: c.other(), reason: WinReason::Resignation },
            row.player(c.other()),
        )
    }

    fn draw(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(msg, id)?;
        let conn = self.conn()?;
        let opp = row.player(mover_color(&row, me.id).other());
        if let Some(o) = offers::get(&conn, row.id, OfferKind::Draw)? {
            if o.by_player == opp {
                drop(conn);
                return self.finish_with(msg, &row, Outcome::Draw(DrawReason::Agreement), opp);
            }
            return user(format!("Game #{}: you already offered a draw; it stands until the next move.", row.id));
        }
        if row.ai_level.is_some() && players::get(&conn, opp)?.is_some_and(|p| p.is_ai) {
            return Ok(self.say(msg, format!("Game #{}: capabot declines the draw and plays on.", row.id)));
        }
        offers::put(&conn, row.id, OfferKind::Draw, me.id, row.ply, self.clock.now())?;
        let mut r = self.reply(
            &msg.platform,
            &msg.chat_id,
            format!(
                "Game #{}: {} offers a draw. {}: !draw to accept; any move declines.",
                row.id,
                me.name,
                self.name_of(&conn, opp)?
            ),
        );
        r.notify = self.notify_of(&conn, &msg.platform, opp)?;
        r.choices = vec![Choice { label: "Accept draw".into(), command: format!("!draw #{}", row.id) }];
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    fn takeback(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(msg, id)?;
        let mut conn = self.conn()?;
        let my_color = mover_color(&row, me.id);
        let opp = row.player(my_color.other());
        let vs_ai = players::get(&conn, opp)?.is_some_and(|p| p.is_ai);
        let pending = offers::get(&conn, row.id, OfferKind::Takeback)?;
        let requester = match &pending {
            Some(o) if o.by_player == opp => Some(my_color.other()),
            Some(_) => {
                return user(format!("Game #{}: you already asked for a takeback; waiting for your opponent.", row.id));
            }
            None if vs_ai => Some(my_color),
            None => None,
        };
        let Some(req_color) = requester else {
            if row.ply == 0 {
                return user(format!("Game #{}: there is no move to take back.", row.id));
            }
            offers::put(&conn, row.id, OfferKind::Takeback, me.id, row.ply, self.clock.now())?;
            let mut r = self.reply(
                &msg.platform,
                &msg.chat_id,
                format!(
                    "Game #{}: {} asks to take back their last move. {}: !takeback to agree, !takeback decline to refuse.",
                    row.id,
                    me.name,
                    self.name_of(&conn, opp)?
                ),
            );
            r.notify = self.notify_of(&conn, &msg.platform, opp)?;
            r.choices = vec![
                Choice { label: "Allow takeback".into(), command: format!("!takeback #{}", row.id) },
                Choice { label: "Decline takeback".into(), command: format!("!takeback decline #{}", row.id) },
            ];
            return Ok(Response { replies: vec![r], ai_jobs: vec![] });
        };
        // Undo the requester's last move (and the reply to it, if there was one).
        let turn = turn_of_fen(&row.fen);
        let undo = if turn == req_color { 2 } else { 1 };
        if row.ply < undo {
            return user(format!("Game #{}: there is no move of yours to take back.", row.id));
        }
        let mut game = self.load_game(&conn, &row)?;
        for _ in 0..undo {
            game.undo();
        }
        let new_ply = row.ply - undo;
        let fen_now = fen::write(game.position());
        let now = self.clock.now();
        let (deadline, remind_at) = clock_after(row.days_per_move, now);
        if !games::take_back(&mut conn, row.id, row.ply, new_ply, &fen_now, deadline, remind_at, now)? {
            return user(format!("Game #{}: the position changed meanwhile; try again.", row.id));
        }
        let pos = game.position();
        let next = pos.turn();
        let text = format!(
            "Game #{}: {} move{} taken back. {} ({}) to move.",
            row.id,
            undo,
            if undo == 1 { "" } else { "s" },
            self.name_of(&conn, row.player(next))?,
            next.name()
        );
        let mut r = self.board_reply(&msg.platform, &msg.chat_id, text, pos, game.moves().last().copied(), next);
        r.notify = self.notify_of(&conn, &msg.platform, opp)?;
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    /// Refuses the opponent's pending takeback request and tells them; the game goes on unchanged.
    fn takeback_decline(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.active_game(msg, id)?;
        let conn = self.conn()?;
        let opp = row.player(mover_color(&row, me.id).other());
        match offers::get(&conn, row.id, OfferKind::Takeback)? {
            Some(o) if o.by_player == opp => {}
            Some(_) => {
                return user(format!(
                    "Game #{}: the takeback request is yours; your opponent may agree or decline it.",
                    row.id
                ));
            }
            None => return user(format!("Game #{}: there is no takeback request to decline.", row.id)),
        }
        if !offers::remove(&conn, row.id, OfferKind::Takeback, opp)? {
            return user(format!("Game #{}: the takeback request is no longer pending.", row.id));
        }
        let text = format!(
            "Game #{}: {} declined {}'s takeback request; the game goes on.",
            row.id,
            me.name,
            self.name_of(&conn, opp)?
        );
        let mut r = self.reply(&msg.platform, &msg.chat_id, text);
        r.notify = self.notify_of(&conn, &msg.platform, opp)?;
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    fn abort(&self, msg: &IncomingMessage, id: Option<i64>) -> Res<Response> {
        let (me, row) = self.game_for(msg, id)?;
        let mut conn = self.conn()?;
        if matches!(row.status, Status::Finished | Status::Aborted) {
            return user(format!("Game #{} is already over.", row.id));
        }
        let opp = row.player(mover_color(&row, me.id).other());
        let vs_ai = players::get(&conn, opp)?.is_some_and(|p| p.is_ai);
        if row.ply >= 2 && !vs_ai {
            return user(format!(
                "Game #{}: both sides have moved, so it can no longer be aborted; !resign or !draw instead.",
                row.id
            ));
        }
        if !games::abort(&mut conn, row.id, row.ply, self.clock.now())? {
            return user(format!("Game #{}: the position changed meanwhile; try again.", row.id));
        }
        let mut r = self.reply(&msg.platform, &msg.chat_id, format!("Game #{} aborted by {}.", row.id, me.name));
        r.notify = self.notify_of(&conn, &msg.platform, opp)?;
        Ok(Response { replies: vec![r], ai_jobs: vec![] })
    }

    // ----- relocation setup phase -----

    fn swap(&self, msg: &IncomingMessage, id: Option<i64>, text: &str) -> Res<Response> {
        let (me, row) = self.game_for(msg, id)?;
        if row.status != Status::Setup {
            return user(format!(
                "Game #{} is not in a setup phase; swaps are for Capablanca Relocation before the first move.",
                row.id
            ));
        }
        let Some(swap) = setups::parse_relocation_swap(text) else {
            return user(format!(
                "I can't read the swap '{}'. Write the king or queen and the piece or file to swap with: !swap K b, !swap Q h, !swap KA, or !noswap.",
                short(text)
            ));
        };
        let color = if row.black_swap.is_none() { Color::Black } else { Color::White };
        if row.player(color) != me.id {
            let name = self.name_of(&self.conn()?, row.player(color))?;
            return user(format!("Game #{}: {name} ({}) chooses the swap now.", row.id, color.name()));
        }
        self.swap_as(row.id, color, swap as u32)
    }

    fn swap_as(&self, id: i64, color: Color, swap: u32) -> Res<Response> {
        let mut conn = self.conn()?;
        let now = self.clock.now();
        if !games::set_swap(&mut conn, id, color, swap, now)? {
            return user(format!("Game #{id}: that swap was already chosen."));
        }
        let row = games::get(&conn, id)?.ok_or_else(|| BotError::Internal("game vanished".into()))?;
        let name = setups::relocation_swap_name(swap as usize);
        let mut out = Response::default();
        match (row.black_swap, row.white_swap) {
            (Some(b), Some(w)) => {
                let idx = b * 12 + w;
                let start = setups::position(&CAPARELOCATION, idx as usize)
                    .ok_or_else(|| BotError::Internal(format!("no relocation setup {idx}")))?;
                let start_fen = fen::write(&start);
                let (deadline, remind_at) = clock_after(row.days_per_move, now);
                if !games::start_after_setup(&mut conn, id, idx, &start_fen, deadline, remind_at, now)? {
                    return user(format!("Game #{id}: the setup already ended."));
                }
                let white =
                    players::get(&conn, row.white)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
                let text = format!(
                    "Game #{id}: White chose {name}; setup {idx}. The game begins: {} (white) to move.",
                    white.name
                );
                let mut r = self.board_reply(&row.platform, &row.chat_id, text, &start, None, Color::White);
                r.notify = self.notify_of(&conn, &row.platform, white.id)?;
                out.replies.push(r);
                if let Some(level) = row.ai_level
                    && white.is_ai
                {
                    out.extend(self.ai_turn(&row.platform, &row.chat_id, id, 0, level, Game::new(start)));
                }
            }
            (Some(_), None) => {
                let white =
                    players::get(&conn, row.white)?.ok_or_else(|| BotError::Internal("player vanished".into()))?;
                if white.is_ai {
                    out.replies.push(self.reply(
                        &row.platform,
                        &row.chat_id,
                        format!("Game #{id}: Black chose {name}."),
                    ));
                    drop(conn);
                    out.extend(self.swap_as(id, Color::White, 0)?);
                    return Ok(out);
                }
                let mut r = self.reply(
                    &row.platform,
                    &row.chat_id,
                    format!(
                        "Game #{id}: Black chose {name}. {} (white): !swap K b, !swap Q h, ... or !noswap.",
                        white.name
                    ),
                );
                r.notify = self.notify_of(&conn, &row.platform, white.id)?;
                out.replies.push(r);
            }
            _ => return Err(BotError::Internal("swap state out of order".into())),
        }
        Ok(out)
    }

    // ----- settings -----

    fn settings(&self, msg: &IncomingMessage, args: SettingsArgs, prefix: &str) -> Res<Response> {
        let conn = self.conn()?;
        let mut s = settings::get(&conn, &msg.platform, &msg.chat_id)?;
        if args == SettingsArgs::default() {
            return Ok(self.say(
                msg,
                format!(
                    "Settings here: prefix {prefix}, variant {}, days {}. Change with {prefix}settings prefix:? variant:chess days:3.",
                    s.default_variant.as_deref().unwrap_or(&self.config.default_variant),
                    s.default_days.map_or("none".into(), |d| d.to_string())
                ),
            ));
        }
        if let Some(v) = &args.variant {
            s.default_variant = Some(variant_named(v)?.name.to_string());
        }
        if let Some(p) = args.prefix {
            s.prefix = Some(p);
        }
        if let Some(d) = args.days {
            s.default_days = d;
        }
        settings::set(&conn, &msg.platform, &msg.chat_id, &s)?;
        Ok(self.say(msg, "Settings saved.".into()))
    }

    // ----- scheduler -----

    /// Runs what is due at the clock's time: reminders at 20 % of the move time left, losses on
    /// time (a draw when the other side cannot possibly mate), challenge expiry. Everything due is
    /// read from the database, so deadlines survive restarts.
    pub fn tick(&self) -> Response {
        match self.tick_inner() {
            Ok(r) => r,
            Err(e) => {
                tracing::error!("scheduler failed: {e:?}");
                Response::default()
            }
        }
    }

    fn tick_inner(&self) -> Res<Response> {
        let mut conn = self.conn()?;
        let now = self.clock.now();
        let mut out = Response::default();
        for row in games::due_timeouts(&conn, now)? {
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
            if games::finish(&mut conn, row.id, row.ply, o, now)? {
                let loser = self.name_of(&conn, row.player(turn))?;
                let text = format!("Game #{}: {loser} ran out of time. {}", row.id, self.end_text(&conn, &row, o)?);
                let mut r = self.reply(&row.platform, &row.chat_id, text);
                r.notify = self.notify_of(&conn, &row.platform, row.white)?;
                r.notify.extend(self.notify_of(&conn, &row.platform, row.black)?);
                out.replies.push(r);
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
                let text = format!(
                    "Game #{}: reminder: {} ({}) to move, {}h {}m left.",
                    row.id,
                    self.name_of(&conn, p)?,
                    turn.name(),
                    left.max(0) / 3600,
                    left.max(0) % 3600 / 60
                );
                let mut r = self.reply(&row.platform, &row.chat_id, text);
                r.notify = self.notify_of(&conn, &row.platform, p)?;
                out.replies.push(r);
            }
        }
        for c in challenges::due_expiries(&conn, now)? {
            if challenges::close(&conn, c.id, "expired", None)? {
                let mut r = self.reply(&c.platform, &c.chat_id, format!("Challenge #{} expired.", c.id));
                r.notify = self.notify_of(&conn, &c.platform, c.challenger)?;
                out.replies.push(r);
            }
        }
        Ok(out)
    }

    /// PGN of a game by id (any chat).
    pub fn pgn_by_id(&self, id: i64) -> Option<String> {
        let conn = self.conn().ok()?;
        let row = games::get(&conn, id).ok()??;
        self.pgn_of(&conn, &row).ok()
    }
}

fn mover_color(row: &GameRow, p: PlayerId) -> Color {
    row.color_of(p).unwrap_or(Color::White)
}

fn variants_text() -> String {
    let mut s = String::from("Variants:");
    for v in VARIANTS {
        s.push_str(&format!("\n{} — {}", v.name, v.display_name));
    }
    s
}

/// The `help` text: every command with an example.
pub fn help_text(p: &str) -> String {
    format!(
        "Commands (prefix {p}):
{p}challenge @user [variant] [days:N] [color:white|black|random] [setup:N] — e.g. {p}challenge @bob capatomic days:3
{p}challenge [variant] — an open challenge anyone here may accept
{p}play [variant] [level:1-8] — play capabot's AI, e.g. {p}play chess level:2
{p}accept [#id] / {p}decline [#id] — answer a challenge (decline your own to cancel it)
{p}move [#game] <move> — e.g. {p}move e4, {p}move #12 Nf3, {p}move Me1^e5; a bare e4 works when one game waits for you
{p}board [#game] — the board picture; {p}games — your games and challenges
{p}resign, {p}draw (offer or accept), {p}takeback (ask or agree), {p}takeback decline (refuse a takeback request)
{p}abort (before both sides moved)
{p}fen, {p}pgn — export the position or the game
{p}swap K b / {p}noswap — the Capablanca Relocation setup phase (Black chooses first)
{p}variants, {p}rules capatomic — the variants and their rules
{p}settings prefix:? variant:chess days:3 — this chat's defaults
Days per move: 1, 2, 3, 5, 7, 10, 14 or none."
    )
}

//! Challenges (direct, open, against the AI), accepting and declining them, and the start of a game.

use super::{Bot, BotError, Ctx, Res, clock_after, playable_variant, short, user, variant_named};
use crate::bot::command::{ChallengeArgs, Command};
use crate::bot::io::{AiJob, Choice, ChoiceStyle, NewThread, Reply, Response, Slot, Target, UserRef};
use crate::notation::fen;
use crate::rules::{Color, Game, Position, SetupKind, Variant, setups};
use crate::store::challenges;
use crate::store::games::{self, NewGame, Status};
use crate::store::players::{self, Player};
use crate::{msg, t};
use rand::RngExt;

/// Days per move as said in texts: `3 days per move`, `no clock`.
pub(in crate::bot) fn clock_text(days: Option<u32>) -> String {
    t!("clock-text", days = days.unwrap_or(0))
}

/// A challenge's colour choice (`white`, `black`, `random`) in the language in force.
/// Who plays which colour, as a challenge says it: the challenger's chosen colour, or colours drawn
/// at random.
fn color_choice(name: &str, color: &str) -> String {
    let color = if matches!(color, "white" | "black") { color } else { "random" };
    t!("challenge-colors", name = name, color = color)
}

/// Whom a challenge is for.
enum Opponent {
    /// capabot's AI: the game starts at once.
    Ai,
    /// One person, by their account on the chat's platform.
    Person(UserRef),
    /// Anyone in the chat (an open challenge).
    Anyone,
}

impl Bot {
    pub(super) fn challenge(&self, cx: &Ctx<'_>, args: ChallengeArgs, play: bool) -> Res<Response> {
        let target = cx.inp.mentions.first();
        let opponent = match target {
            _ if play => Opponent::Ai,
            Some(m) if self.is_self_mention(m) => Opponent::Ai,
            Some(m) => Opponent::Person(m.clone()),
            None => Opponent::Anyone,
        };
        // A direct chat is the author's and capabot's alone: nobody else could ever read (let
        // alone accept) a challenge made there, and a game there would be out of the opponent's
        // reach; whoever an unlinked name meant, too (capabot itself, mentioned, is a mention the
        // platform links). The AI may be played there.
        if cx.scope().direct && !matches!(opponent, Opponent::Ai) {
            return user(msg!("challenge-in-direct", p = cx.p()));
        }
        if args.mentions_someone && target.is_none() && !play {
            return user(msg!("mention-unclear"));
        }
        self.offer(cx, args, opponent)
    }

    /// A challenge of `opponent` on `args`' terms (against the AI, the game itself).
    fn offer(&self, cx: &Ctx<'_>, args: ChallengeArgs, opponent: Opponent) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let vname = args.variant.clone().unwrap_or_else(|| cx.settings.default_variant.clone());
        let v = playable_variant(&vname)?;
        // Digits past any `u64` are past every variant's setups too; text that is no number (`-1`)
        // is none of them either.
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let number =
            args.setup.as_deref().map(|s| s.parse::<u64>().ok().filter(|&n| digits(s) && n < setups::count(v) as u64));
        if args.setup.is_some() && v.setups == SetupKind::Relocation {
            return user(msg!("relocation-no-setup"));
        }
        // A variant of one starting position takes no setup:N, not even 0 (which would be announced
        // as "setup 0" of a variant that has no numbered setups).
        let one = setups::count(v) <= 1;
        if let Some(typed) = &args.setup
            && (one || number == Some(None))
        {
            if one {
                // The variants `setup:N` is for: random setups (Relocation's come from its swaps).
                let random: Vec<&str> = crate::rules::VARIANTS
                    .iter()
                    .filter(|v| v.has_setups() && v.setups != SetupKind::Relocation)
                    .map(|v| v.name)
                    .collect();
                return user(msg!("setup-one", variant = super::variant_title(v.name), list = random.join(", ")));
            }
            // As typed: a number past 2^53 would be rounded as Fluent's number.
            return user(msg!(
                "setup-range",
                variant = super::variant_title(v.name),
                max = setups::count(v) - 1,
                given = super::short(typed)
            ));
        }
        // Below the variant's count of setups, so it fits.
        let setup = number.flatten().and_then(|s| u32::try_from(s).ok());
        let days = args.days.unwrap_or(cx.settings.default_days);
        let color = args.color.clone().unwrap_or_else(|| "random".into());
        let vs_ai = matches!(opponent, Opponent::Ai);
        let rule = rated_rule(&conn, cx)?;
        let rated = match (rule, args.rated) {
            (_, _) if vs_ai => false,
            (crate::store::settings::RatedGames::Always, Some(false)) => {
                return user(msg!("community-rated-only"));
            }
            (crate::store::settings::RatedGames::Never, Some(true)) => {
                return user(msg!("community-casual-only"));
            }
            (crate::store::settings::RatedGames::Always, _) => true,
            (crate::store::settings::RatedGames::Never, _) => false,
            (crate::store::settings::RatedGames::Choice, r) => r.unwrap_or(true),
        };
        if args.level.is_some() && !vs_ai {
            return user(msg!("level-only-ai", p = cx.p()));
        }
        let me = self.me(&conn, cx)?;
        if vs_ai {
            let ai = players::ai(&conn, now)?;
            // Each game against the AI costs searches: a cap per person and one for everyone.
            let (mine, all) = crate::store::games::open_ai_games(&conn, me.id)?;
            if mine >= self.config.max_ai_games_per_player {
                return user(msg!("ai-games-mine", count = mine, p = cx.p()));
            }
            if all >= self.config.max_ai_games {
                return user(msg!("ai-games-all", count = all));
            }
            let level = args.level.unwrap_or(3);
            drop(conn);
            return self.start_game(cx, v, setup, days, &color, &me, &ai, Some(level), None, false);
        }
        let challenged = match &opponent {
            Opponent::Person(m) => {
                if m.id == cx.inp.author.id {
                    return user(msg!("challenge-self"));
                }
                let name = if m.name.is_empty() { m.id.as_str() } else { m.name.as_str() };
                Some(players::ensure(&conn, &cx.scope().platform, &m.id, &short(name), now)?)
            }
            Opponent::Ai | Opponent::Anyone => None,
        };
        // The same challenge again, on the same terms, while the first waits is most likely a slip
        // (a message sent twice): its number instead. Other terms (the other colour for a second
        // game at once) make a new one; a ladder's challenge is not one of these.
        let challenged_id = challenged.as_ref().map(|p| p.id);
        for c in challenges::made_by(&conn, &cx.scope().platform, &cx.scope().chat, me.id)? {
            let same = c.challenged == challenged_id
                && c.variant == v.name
                && c.setup == setup
                && c.days_per_move == days
                && c.color == color
                && c.rated == rated
                && c.expires_at > now;
            if same && crate::store::ladders::challenge_link(&conn, c.id)?.is_none() {
                return user(msg!(
                    "challenge-duplicate",
                    id = c.id,
                    variant = super::variant_title(v.name),
                    p = cx.p()
                ));
            }
        }
        let expires = now + self.config.challenge_expiry_secs;
        let id = challenges::create(
            &conn,
            &challenges::NewChallenge {
                platform: &cx.scope().platform,
                community_id: cx.scope().community.as_deref(),
                rated,
                chat_id: &cx.scope().chat,
                challenger: me.id,
                challenged: challenged.as_ref().map(|p| p.id),
                variant: v.name,
                setup,
                days_per_move: days,
                color: &color,
                expires_at: expires,
                interaction_only: cx.scope().interaction_only,
            },
            now,
        )?;
        let clock = clock_text(days);
        let setup = setup.map(|s| t!("setup-suffix", number = s)).unwrap_or_default();
        let hours = self.config.challenge_expiry_secs / 3600;
        let clock = if rated { t!("clock-rated", clock = clock) } else { t!("clock-casual", clock = clock) };
        let p = cx.p();
        // Where commands are slash commands, the offer's buttons come first.
        let (answer, anyone) = if cx.slash() {
            (t!("challenge-answer-slash"), t!("challenge-anyone-slash", id = id))
        } else {
            (t!("challenge-answer-typed", p = p), t!("challenge-anyone-typed", p = p, id = id))
        };
        let color_text = color_choice(&me.name, &color);
        let mut r = match &challenged {
            Some(c) => {
                let mut r = self.reply_in(
                    cx.scope(),
                    t!(
                        "challenge-direct",
                        id = id,
                        name = me.name.as_str(),
                        other = c.name.as_str(),
                        variant = super::variant_title(v.name),
                        terms = clock.as_str(),
                        setup = setup.as_str(),
                        colors = color_text.as_str(),
                        answer = answer,
                        hours = hours
                    ),
                );
                r.notify = self.notify_of(&conn, &cx.scope().platform, c.id)?;
                r
            }
            None => self.reply_in(
                cx.scope(),
                t!(
                    "challenge-open",
                    id = id,
                    name = me.name.as_str(),
                    variant = super::variant_title(v.name),
                    terms = clock.as_str(),
                    setup = setup.as_str(),
                    colors = color_text.as_str(),
                    anyone = anyone,
                    hours = hours
                ),
            ),
        };
        let accepter = match opponent {
            Opponent::Person(m) => Some(m),
            Opponent::Ai | Opponent::Anyone => None,
        };
        let accept = Command::Accept(Some(id));
        let decline = Command::Decline(Some(id));
        r.choices = vec![Choice {
            label: t!("button-accept"),
            typed: accept.typed(p),
            command: accept,
            style: ChoiceStyle::Primary,
            for_user: accepter.clone(),
        }];
        // Only the one person challenged can decline; an open challenge is accepted or left.
        if let Some(accepter) = accepter {
            r.choices.push(Choice {
                label: t!("button-decline"),
                typed: decline.typed(p),
                command: decline.clone(),
                style: ChoiceStyle::Secondary,
                for_user: Some(accepter),
            });
        }
        // The challenger takes it back from the offer itself (a decline by the challenger
        // cancels); platforms that show only two choices leave this one out where it is third.
        r.choices.push(Choice {
            label: t!("button-withdraw"),
            typed: decline.typed(p),
            command: decline,
            style: ChoiceStyle::Secondary,
            for_user: Some(cx.inp.author.clone()),
        });
        Ok(Response::one(r))
    }

    pub(super) fn accept(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        // Someone new may accept an open challenge; their player record is made only then.
        let known = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
        let me_id = known.as_ref().map_or(-1, |p| p.id);
        let list = challenges::acceptable(&conn, &cx.scope().platform, &cx.scope().chat, me_id, now)?;
        let ch = match id {
            Some(id) => match list.into_iter().find(|c| c.id == id) {
                Some(c) => c,
                None => return self.not_acceptable(&conn, cx, id, me_id),
            },
            None => {
                // Direct challenges first, then open ones.
                let mut direct: Vec<_> = list.iter().filter(|c| c.challenged == Some(me_id)).cloned().collect();
                match (direct.len(), list.len()) {
                    (1, _) => direct.remove(0),
                    (0, 1) => list.into_iter().next().expect("one"),
                    // Only the author's own challenges are open here: say so, and how to withdraw one.
                    (0, 0) => {
                        let own = challenges::made_by(&conn, &cx.scope().platform, &cx.scope().chat, me_id)?;
                        return match own.first() {
                            Some(c) => user(msg!("challenge-own", id = c.id, p = cx.p())),
                            None => user(msg!("accept-none")),
                        };
                    }
                    _ => {
                        let first = format!("#{}", list[0].id);
                        let ids = super::comma_list(self.challenges_named(&conn, &list, me_id)?);
                        return user(msg!("accept-which", ids = ids, p = cx.p(), first = first));
                    }
                }
            }
        };
        if let Some(r) = self.ladder_via_challenge(cx, ch.id, super::LadderAnswer::Accept)? {
            return Ok(r);
        }
        if !challenges::close(&conn, ch.id, "accepted", None)? {
            return user(msg!("challenge-closed", id = ch.id));
        }
        let me = match known {
            Some(p) => p,
            None => self.me(&conn, cx)?,
        };
        let challenger =
            players::get(&conn, ch.challenger)?.ok_or_else(|| BotError::Internal("challenger vanished".into()))?;
        let v = variant_named(&ch.variant)?;
        drop(conn);
        self.start_game(cx, v, ch.setup, ch.days_per_move, &ch.color, &challenger, &me, None, Some(ch.id), ch.rated)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn start_game(
        &self,
        cx: &Ctx<'_>,
        v: &'static Variant,
        setup: Option<u32>,
        days: Option<u32>,
        color: &str,
        challenger: &Player,
        other: &Player,
        ai_level: Option<u8>,
        challenge: Option<i64>,
        rated: bool,
    ) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let challenger_white = match color {
            "white" => true,
            "black" => false,
            _ => rand::rng().random_range(0..2) == 0,
        };
        let (white, black) = if challenger_white { (challenger, other) } else { (other, challenger) };
        let relocation = v.setups == SetupKind::Relocation;
        let (setup, start) = if relocation {
            (None, Position::start(v))
        } else if v.has_setups() {
            let idx = setup.unwrap_or_else(|| setups::random_index(v, &mut rand::rng()) as u32);
            let pos = setups::position(v, idx as usize).ok_or_else(|| {
                let max = setups::count(v).saturating_sub(1);
                BotError::User(crate::msg!("no-setup", variant = super::variant_title(v.name), number = idx, max = max))
            })?;
            (Some(idx), pos)
        } else {
            (None, Position::start(v))
        };
        let start_fen = fen::write(&start);
        // A relocation game's setup phase runs on the clock too: Black chooses first.
        let (deadline, remind_at) = clock_after(days, now);
        let id = games::create(
            &conn,
            &NewGame {
                platform: &cx.scope().platform,
                community_id: cx.scope().community.as_deref(),
                rated,
                chat_id: &cx.scope().chat,
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
                interaction_only: cx.scope().interaction_only,
            },
            now,
        )?;
        if let Some(ch) = challenge {
            conn.execute("UPDATE challenges SET game_id = ?1 WHERE id = ?2", crate::store::sql::params![id, ch])?;
        }
        let start_target = game_target_of(cx, id);
        let p = cx.p();
        let thread = (cx.settings.thread_per_game && !cx.scope().direct).then(|| NewThread {
            game_id: id,
            title: t!(
                "thread-title",
                id = id,
                white = white.name.as_str(),
                black = black.name.as_str(),
                variant = super::variant_title(v.name)
            ),
        });
        let setup_txt = setup.map(|s| t!("setup-suffix", number = s)).unwrap_or_default();
        let clock = clock_text(days);
        let level = ai_level.map(|l| t!("level-suffix", level = l)).unwrap_or_default();
        let mut out = Response::default();
        if relocation {
            let mut text = t!(
                "game-starts-relocation",
                id = id,
                white = white.name.as_str(),
                black = black.name.as_str(),
                variant = super::variant_title(v.name),
                clock = clock.as_str(),
                p = p
            );
            // Black's choice runs on the clock (the AI's is made at once).
            if let Some(d) = deadline.filter(|_| !black.is_ai) {
                text.push(' ');
                text.push_str(&super::relocation::setup_clock_text(d - now));
            }
            let mut r = self.board_reply(start_target.clone(), text, &start, None, Color::Black);
            r.notify = self.notify_of(&conn, &cx.scope().platform, black.id)?;
            r.new_thread = thread;
            out.replies.push(r);
            // The AI keeps Capablanca's array: as Black it chooses "no swap" at once (as White, once
            // Black has chosen; see `swap_as`).
            if black.is_ai {
                drop(conn);
                out.extend(self.swap_as(id, Color::Black, 0, p)?);
            }
            return Ok(out);
        }
        let to_move = white;
        let mut r = self.board_reply(
            start_target.clone(),
            t!(
                "game-starts",
                id = id,
                white = format!("{}{}", white.name, if white.is_ai { &level } else { "" }),
                black = format!("{}{}", black.name, if black.is_ai { &level } else { "" }),
                variant = super::variant_title(v.name),
                setup = setup_txt.as_str(),
                clock = clock.as_str(),
                mover = to_move.name.as_str()
            ),
            &start,
            None,
            Color::White,
        );
        if !to_move.is_ai {
            r.notify = self.notify_of(&conn, &cx.scope().platform, to_move.id)?;
        }
        if let Some(row) = games::get(&conn, id)? {
            r.card = Some(self.game_card(&conn, &row, &start, None)?);
        }
        r.new_thread = thread;
        let prompts = if v.bombs {
            r.text.push(' ');
            r.text.push_str(&t!("bombs-first", ai = if white.is_ai || black.is_ai { "yes" } else { "no" }));
            self.bomb_start(&conn, id)?
        } else {
            vec![]
        };
        out.replies.push(r);
        out.replies.extend(prompts);
        if let Some(level) = ai_level
            && white.is_ai
        {
            // The AI's game carries its own bomb (chosen just now), never the other side's.
            let game = match games::get(&conn, id)? {
                Some(row) if v.bombs => self.load_game(&conn, &row)?,
                _ => Game::new(start),
            };
            out.extend(self.ai_turn(&game_target_of(cx, id), id, 0, level, game));
        }
        Ok(out)
    }

    /// The AI's turn: an [`AiJob`] for the host, announced ("thinking…", a message the move will
    /// replace) when it may take over a second.
    pub(in crate::bot) fn ai_turn(&self, target: &Target, id: i64, ply: u32, level: u8, game: Game) -> Response {
        let mut out = Response::default();
        if self.oracle.budget(level) > std::time::Duration::from_secs(1) {
            let mut r = Reply::new(target.clone(), t!("ai-thinking", id = id));
            r.slot = Some(Slot { key: thinking_slot(id), previous: None });
            out.replies.push(r);
        }
        out.ai_jobs.push(AiJob { game_id: id, ply, level, game });
        out
    }

    pub(super) fn decline(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
        // A challenge here between others: said as `accept` says it (before: "no challenge for
        // you"); someone else's open challenge: nobody declines it.
        if let Some(c) = id.map(|id| challenges::get(&conn, id)).transpose()?.flatten()
            && c.status == "open"
            && c.expires_at > now
            && c.platform == cx.scope().platform
            && c.chat_id == cx.scope().chat
            && me.as_ref().is_none_or(|me| me.id != c.challenger && c.challenged != Some(me.id))
        {
            return match c.challenged {
                None => {
                    let name = self.name_of(&conn, c.challenger)?;
                    user(msg!("decline-open", id = c.id, name = name, p = cx.p()))
                }
                Some(other) => user(msg!("challenge-for-other", id = c.id, name = self.name_of(&conn, other)?)),
            };
        }
        let Some(me) = me else {
            return user(msg!("decline-none-for-you"));
        };
        let mut list = challenges::acceptable(&conn, &cx.scope().platform, &cx.scope().chat, me.id, now)?;
        list.retain(|c| c.challenged == Some(me.id));
        let own = challenges::made_by(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?;
        let (ch, status) = match id {
            Some(id) => {
                if let Some(c) = list.iter().find(|c| c.id == id) {
                    (c.clone(), "declined")
                } else if let Some(c) = own.iter().find(|c| c.id == id) {
                    (c.clone(), "cancelled")
                } else {
                    return user(msg!("decline-unknown", id = id));
                }
            }
            None => match (list.as_slice(), own.as_slice()) {
                ([c], _) => (c.clone(), "declined"),
                ([], [c]) => (c.clone(), "cancelled"),
                ([], []) => return user(msg!("decline-none")),
                _ => {
                    let first = format!("#{}", list.first().or(own.first()).map_or(0, |c| c.id));
                    let listed: Vec<challenges::Challenge> = list.into_iter().chain(own).collect();
                    let ids = super::comma_list(self.challenges_named(&conn, &listed, me.id)?);
                    return user(msg!("decline-which", ids = ids, first = first, p = cx.p()));
                }
            },
        };
        let answer = if status == "declined" { super::LadderAnswer::Decline } else { super::LadderAnswer::Withdraw };
        if let Some(r) = self.ladder_via_challenge(cx, ch.id, answer)? {
            return Ok(r);
        }
        if !challenges::close(&conn, ch.id, status, None)? {
            return user(msg!("challenge-closed", id = ch.id));
        }
        let mut r =
            self.reply_in(cx.scope(), t!("challenge-ended", id = ch.id, status = status, name = me.name.as_str()));
        if status == "declined" {
            r.notify = self.notify_of(&conn, &cx.scope().platform, ch.challenger)?;
        }
        Ok(Response::one(r))
    }
}

impl Bot {
    /// `rematch [#game]`: game `id` (else the author's last game over in this chat) again, against
    /// the same opponent on the same terms with the colours swapped: against the AI the game starts
    /// at once; a person gets a challenge, or, where they have already asked for the rematch, theirs
    /// is accepted.
    pub(super) fn rematch(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let (platform, chat) = (&cx.scope().platform, &cx.scope().chat);
        let me = players::find(&conn, platform, &cx.inp.author.id)?;
        let row = match (id, &me) {
            (Some(id), _) => games::get(&conn, id)?.ok_or_else(|| BotError::User(msg!("game-none", id = id)))?,
            (None, Some(me)) => match games::latest_over_in_chat(&conn, platform, chat, me.id)? {
                Some(row) => row,
                None => return user(msg!("rematch-no-game", p = cx.p())),
            },
            (None, None) => return user(msg!("rematch-no-game", p = cx.p())),
        };
        if &row.platform != platform || &row.chat_id != chat {
            return user(msg!("rematch-not-here", id = row.id));
        }
        let Some((me, mine)) = me.and_then(|m| row.color_of(m.id).map(|c| (m, c))) else {
            return user(msg!("rematch-not-player", id = row.id));
        };
        if matches!(row.status, Status::Setup | Status::Active) {
            return user(msg!("rematch-unfinished", id = row.id, p = cx.p()));
        }
        let other = players::get(&conn, row.player(mine.other()))?
            .ok_or_else(|| BotError::Internal(format!("game {}: its player vanished", row.id)))?;
        // The return game already under way (a rematch asked for twice, or by both players after
        // it started): it, rather than another game on the same terms.
        let playing = games::open_of_player(&conn, me.id)?.into_iter().find(|g| {
            g.id > row.id
                && g.platform == row.platform
                && g.chat_id == row.chat_id
                && g.variant == row.variant
                && g.color_of(other.id).is_some()
        });
        if let Some(g) = playing {
            return user(msg!("rematch-playing", id = g.id, game = row.id, p = cx.p()));
        }
        let mut args = ChallengeArgs {
            variant: Some(row.variant.clone()),
            days: Some(row.days_per_move),
            color: Some(if mine == Color::White { "black" } else { "white" }.into()),
            // Capablanca Relocation's setup comes from the swaps again, not from the last game's.
            setup: row
                .setup
                .filter(|_| variant_named(&row.variant).is_ok_and(|v| v.setups != SetupKind::Relocation))
                .map(|s| s.to_string()),
            level: row.ai_level,
            ..ChallengeArgs::default()
        };
        let out = if other.is_ai {
            drop(conn);
            self.offer(cx, args, Opponent::Ai)?
        } else {
            let waiting = challenges::acceptable(&conn, platform, chat, me.id, now)?;
            if let Some(theirs) = waiting
                .iter()
                .find(|c| c.challenger == other.id && c.challenged == Some(me.id) && c.variant == row.variant)
            {
                let id = theirs.id;
                drop(conn);
                self.accept(cx, Some(id))?
            } else {
                let mine = challenges::made_by(&conn, platform, chat, me.id)?;
                if let Some(c) = mine.iter().find(|c| c.challenged == Some(other.id) && c.variant == row.variant) {
                    return user(msg!("rematch-already", id = c.id, name = other.name.as_str(), p = cx.p()));
                }
                let Some(account) = players::accounts_on(&conn, other.id, platform)?.into_iter().next() else {
                    return user(msg!("rematch-gone", name = other.name.as_str()));
                };
                // The game's own terms where the community leaves the choice to the players.
                if rated_rule(&conn, cx)? == crate::store::settings::RatedGames::Choice {
                    args.rated = Some(row.rated);
                }
                drop(conn);
                self.offer(cx, args, Opponent::Person(UserRef { id: account, name: other.name.clone() }))?
            }
        };
        Ok(rematch_of(out, row.id))
    }
}

/// The community's rule for rated games where the chat has a community; elsewhere the players choose.
fn rated_rule(conn: &crate::store::Conn<'_>, cx: &Ctx<'_>) -> Res<crate::store::settings::RatedGames> {
    Ok(match &cx.scope().community {
        Some(c) => crate::store::settings::rated_games(conn, &cx.scope().platform, c)?,
        None => crate::store::settings::RatedGames::Choice,
    })
}

/// `out` (a challenge or a game's start) said as the rematch of game `game`.
fn rematch_of(mut out: Response, game: i64) -> Response {
    if let Some(first) = out.replies.first_mut() {
        first.text = t!("rematch-of", game = game, text = first.text.as_str());
    }
    out
}

/// The slot of a game's "thinking…" message, which the AI's move replaces.
pub(in crate::bot) fn thinking_slot(game_id: i64) -> String {
    format!("game:{game_id}:thinking")
}

/// Where the first replies of a game just made in the input's chat go (its thread does not exist yet).
fn game_target_of(cx: &Ctx<'_>, _id: i64) -> Target {
    Target::Chat(cx.scope().without_thread())
}

impl Bot {
    /// Why challenge `id` cannot be accepted by this author, said precisely.
    pub(super) fn not_acceptable(
        &self,
        conn: &crate::store::Conn<'_>,
        cx: &Ctx<'_>,
        id: i64,
        me: i64,
    ) -> Res<Response> {
        let Some(c) = challenges::get(conn, id)? else { return user(msg!("challenge-none", id = id)) };
        if c.platform != cx.scope().platform || c.chat_id != cx.scope().chat {
            return user(msg!("challenge-not-here", id = id));
        }
        if c.status != "open" {
            return user(msg!("challenge-not-open", id = id, status = c.status.as_str()));
        }
        if c.expires_at <= self.clock.now() {
            return user(msg!("challenge-expired", id = id));
        }
        if c.challenger == me {
            return user(msg!("challenge-own", id = id, p = cx.p()));
        }
        match c.challenged {
            Some(other) => user(msg!("challenge-for-other", id = id, name = self.name_of(conn, other)?)),
            None => user(msg!("challenge-none-open", id = id)),
        }
    }
}

//! Tournament commands: creation with a registration window, joining and leaving, the start
//! (seeded by rating), the standings with their tie-breaks and each round's pairings, the result
//! of a tournament game (inside the end hook's transaction, where a finished Swiss round also gets
//! the next one paired and its games created), and the announcements the scheduler and every
//! command owe: new rounds' pairings with their players mentioned, and the final standings.
//!
//! A tournament's games are ordinary games in the chat the tournament was created in, created when
//! their round is paired (a round robin: all rounds at the start, as is usual in correspondence
//! play), with the tournament's days per move; a loss on time is a loss like any other. Each
//! round of a random-setup variant uses one setup on all its boards.

use super::{Bot, Ctx, DAY, Res, choice, clock_after, series_variant, short, user, variant_named};
use crate::bot::command::{Command, DAYS_CHOICES, TournamentCmd, TournamentKind};
use crate::bot::io::{ChoiceStyle, Reply, Response, Scope, Target};
use crate::community::PlayerId;
use crate::community::swiss::Swiss;
use crate::community::tournament::{Outcome as TOutcome, Round};
use crate::notation::fen;
use crate::rules::{Color, Outcome, Position, SetupKind, Variant, setups};
use crate::store::games::{self, GameRow, NewGame, Status as GameStatus};
use crate::store::ratings::{self, Scope as RatingScope};
use crate::store::settings::{RatedGames, rated_games};
use crate::store::tournaments::{self, Status, System, Tournament, TournamentError, TournamentId, TournamentInfo};
use crate::store::{Conn, players};
use rusqlite::Connection;

/// Registration lasts this many days unless `signup:N` says otherwise.
const DEFAULT_SIGNUP_DAYS: u32 = 3;

fn plural(n: impl Into<i64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

fn system_text(s: System) -> String {
    match s {
        System::RoundRobin => "round robin".into(),
        System::DoubleRoundRobin => "double round robin".into(),
        System::Swiss { rounds } => format!("Swiss, {}", plural(rounds as i64, "round")),
    }
}

/// "in 2 days 3 hours", "in 40 minutes".
fn time_left(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / 3600, secs % 3600 / 60);
    match (d, h) {
        (0, 0) => format!("in {}", plural(m.max(1), "minute")),
        (0, _) => format!("in {}", plural(h, "hour")),
        _ if h == 0 => format!("in {}", plural(d, "day")),
        _ => format!("in {} {}", plural(d, "day"), plural(h, "hour")),
    }
}

/// The result as a tournament table writes it.
fn result_text(o: Option<TOutcome>) -> &'static str {
    match o {
        None => "playing",
        Some(TOutcome::WhiteWins) => "1-0",
        Some(TOutcome::BlackWins) => "0-1",
        Some(TOutcome::Draw) => "½-½",
    }
}

/// Swiss rounds for `n` players when the creator did not say: enough to single out a winner
/// (⌈log₂ n⌉ + 1), no more than the field allows.
fn default_swiss_rounds(n: usize) -> usize {
    let log2 = usize::BITS - n.saturating_sub(1).leading_zeros();
    (log2 as usize + 1).min(Swiss::max_rounds(n)).max(1)
}

impl Bot {
    pub(super) fn tournament_cmd(&self, cx: &Ctx<'_>, cmd: TournamentCmd) -> Res<Response> {
        let Some(community) = cx.scope().community.clone() else {
            return user("Tournaments belong to a community (a server or space); this chat is in none.");
        };
        let admin_only =
            matches!(cmd, TournamentCmd::Create { .. } | TournamentCmd::Start(_) | TournamentCmd::Cancel(_));
        if admin_only && !cx.inp.author_is_admin {
            return user("Sorry, only the community's administrators may create, start or cancel a tournament.");
        }
        let conn = self.conn()?;
        let now = self.clock.now();
        let p = cx.p().to_string();
        match cmd {
            TournamentCmd::Show { id: None, round: None } => self.tournament_list(&conn, cx, &community),
            TournamentCmd::Show { id, round } => {
                let info = self.pick_tournament(&conn, cx, &community, id, None)?;
                let t = self.load_tournament(&conn, info.id)?;
                if let Some(r) = round
                    && (r as usize > t.rounds.len() || r == 0)
                {
                    return user(format!("{} has {} so far.", t.info.name, plural(t.rounds.len() as i64, "round")));
                }
                Ok(cx.say(self.tournament_text(&conn, &t, round.map(|r| r as usize), &p, now)?))
            }
            TournamentCmd::Create { kind, rounds, variant, days, signup, name } => {
                let v = series_variant(variant.as_deref().unwrap_or(&cx.settings.default_variant))?;
                let days = days.or(cx.settings.default_days).filter(|d| DAYS_CHOICES.contains(d)).unwrap_or(3);
                let system = match kind {
                    TournamentKind::RoundRobin => System::RoundRobin,
                    TournamentKind::DoubleRoundRobin => System::DoubleRoundRobin,
                    // Zero rounds: decided at the start from the field's size.
                    TournamentKind::Swiss => System::Swiss { rounds: rounds.map_or(0, |r| r as usize) },
                };
                let name = if name.trim().is_empty() {
                    format!(
                        "{} {}",
                        v.display_name,
                        match kind {
                            TournamentKind::Swiss => "Swiss",
                            _ => "Round Robin",
                        }
                    )
                } else {
                    name.trim().to_string()
                };
                let me = self.me(&conn, cx)?;
                let id = tournaments::create(
                    &conn,
                    &cx.scope().platform,
                    &community,
                    &name,
                    v.name,
                    system,
                    days,
                    Some(me.id),
                    now,
                )?;
                tournaments::set_chat(&conn, id, &cx.scope().chat, cx.scope().thread.as_deref())?;
                let signup = signup.unwrap_or(DEFAULT_SIGNUP_DAYS);
                let start_line = if signup == 0 {
                    format!("An administrator starts it with {p}tournament #{id} start.")
                } else {
                    let until = now + i64::from(signup) * DAY;
                    tournaments::set_signup_until(&conn, id, Some(until))?;
                    format!(
                        "Registration closes and the tournament starts by itself {} (an administrator may start it sooner with {p}tournament #{id} start).",
                        time_left(until - now)
                    )
                };
                let rounds_text = match system {
                    System::Swiss { rounds: 0 } => "Swiss (rounds set by the number of players)".to_string(),
                    s => system_text(s),
                };
                let mut r = self.reply_in(
                    cx.scope(),
                    format!(
                        "Tournament #{id}, {name}: {}, {rounds_text}, {} per move. Join with {p}tournament #{id} join. {start_line}",
                        v.display_name,
                        plural(days, "day")
                    ),
                );
                r.choices = vec![choice(
                    "Join",
                    Command::Tournament(TournamentCmd::Join(Some(id))),
                    ChoiceStyle::Primary,
                    None,
                    &p,
                )];
                Ok(Response::one(r))
            }
            TournamentCmd::Join(id) => {
                let info = self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration))?;
                let me = self.me(&conn, cx)?;
                let seed = answer(tournaments::register(&conn, info.id, me.id, now)?)?;
                Ok(cx.say(format!(
                    "{} joins {} (#{}); {} registered.",
                    me.name,
                    info.name,
                    info.id,
                    plural(seed as i64, "player")
                )))
            }
            TournamentCmd::Leave(id) => {
                let info = self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration))?;
                let Some(me) = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)? else {
                    return user(TournamentError::NotRegistered.to_string());
                };
                answer(tournaments::unregister(&conn, info.id, me.id)?)?;
                Ok(cx.say(format!("{} leaves {} (#{}).", me.name, info.name, info.id)))
            }
            TournamentCmd::Start(id) => {
                let info = self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration))?;
                answer(self.start_tournament(&conn, &info)?)?;
                let mut out = Response::default();
                out.extend(self.tournament_owed_in(&conn)?);
                if out.replies.is_empty() {
                    out = cx.say(format!("{} has started.", info.name));
                }
                Ok(out)
            }
            TournamentCmd::Cancel(id) => {
                let info = self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration))?;
                if !tournaments::cancel(&conn, info.id)? {
                    return user(format!("{} has started; a running tournament cannot be cancelled.", info.name));
                }
                Ok(cx.say(format!("Tournament #{} ({}) is cancelled by an administrator.", info.id, info.name)))
            }
        }
    }

    fn load_tournament(&self, conn: &Connection, id: TournamentId) -> Res<Tournament> {
        tournaments::load(conn, id)?.ok_or_else(|| crate::bot::BotError::Internal(format!("tournament {id} vanished")))
    }

    /// The tournament a command is about: `#id` (of this community), or the community's only one
    /// in `status` (without a status: the only one not finished, else the latest).
    fn pick_tournament(
        &self,
        conn: &Connection,
        cx: &Ctx<'_>,
        community: &str,
        id: Option<i64>,
        status: Option<Status>,
    ) -> Res<TournamentInfo> {
        let platform = &cx.scope().platform;
        if let Some(id) = id {
            return match tournaments::info(conn, id)? {
                Some(t) if &t.platform == platform && t.community_id == community => match status {
                    Some(Status::Registration) if t.status != Status::Registration => {
                        user(TournamentError::NotRegistering.to_string())
                    }
                    _ => Ok(t),
                },
                _ => user(format!("This community has no tournament #{id}.")),
            };
        }
        let all = tournaments::list(conn, platform, community)?;
        let mut fitting: Vec<TournamentInfo> = match status {
            Some(s) => all.iter().filter(|t| t.status == s).cloned().collect(),
            None => all.iter().filter(|t| t.status != Status::Finished).cloned().collect(),
        };
        if fitting.is_empty() && status.is_none() && !all.is_empty() {
            fitting.push(all[0].clone());
        }
        match fitting.len() {
            0 if status == Some(Status::Registration) => user(format!(
                "No tournament of this community is open for registration; {}tournament lists them.",
                cx.p()
            )),
            0 => user(format!(
                "This community has no tournament yet; an administrator can make one with {}tournament create swiss capatomic.",
                cx.p()
            )),
            1 => Ok(fitting.remove(0)),
            _ => {
                let names: Vec<String> = fitting.iter().map(|t| format!("#{} {}", t.id, t.name)).collect();
                user(format!("There are several ({}); add the number, e.g. #{}.", names.join(", "), fitting[0].id))
            }
        }
    }

    fn tournament_list(&self, conn: &Connection, cx: &Ctx<'_>, community: &str) -> Res<Response> {
        let all = tournaments::list(conn, &cx.scope().platform, community)?;
        if all.is_empty() {
            return Ok(cx.say(format!(
                "This community has no tournament yet; an administrator can make one with {}tournament create swiss capatomic.",
                cx.p()
            )));
        }
        let now = self.clock.now();
        let mut text = "Tournaments:".to_string();
        // The open ones, then the last five finished.
        let open = all.iter().filter(|t| t.status != Status::Finished);
        let done = all.iter().filter(|t| t.status == Status::Finished).take(5);
        for t in open.chain(done) {
            let v = variant_named(&t.variant).map_or(t.variant.clone(), |v| v.display_name.to_string());
            let n = self.load_tournament(conn, t.id)?.players.len();
            let state = match t.status {
                Status::Registration => match t.signup_until {
                    Some(u) => {
                        format!("registration, {} so far, starts {}", plural(n as i64, "player"), time_left(u - now))
                    }
                    None => format!("registration, {} so far", plural(n as i64, "player")),
                },
                Status::Running => format!("running, {}", plural(n as i64, "player")),
                Status::Finished => "finished".into(),
            };
            text.push_str(&format!("\n#{} {}: {v}, {}; {state}", t.id, t.name, system_text(t.system)));
        }
        text.push_str(&format!("\nDetails: {}tournament #N.", cx.p()));
        Ok(cx.say(text))
    }

    /// A tournament's state: players (registration), or standings with tie-breaks and a round's pairings.
    fn tournament_text(
        &self,
        conn: &Connection,
        t: &Tournament,
        round: Option<usize>,
        p: &str,
        now: i64,
    ) -> Res<String> {
        let info = &t.info;
        let v = variant_named(&info.variant).map_or(info.variant.clone(), |v| v.display_name.to_string());
        let mut text = format!(
            "Tournament #{} {}: {v}, {}, {} per move.",
            info.id,
            info.name,
            system_text(info.system).replace("Swiss, 0 rounds", "Swiss"),
            plural(info.days_per_move, "day")
        );
        if info.status == Status::Registration {
            text.push_str(&match info.signup_until {
                Some(u) => format!(" Registration is open; it starts {}.", time_left(u - now)),
                None => " Registration is open; an administrator starts it.".into(),
            });
            text.push_str(&format!("\nPlayers ({}):", t.players.len()));
            for (i, &pl) in t.players.iter().enumerate() {
                text.push_str(&format!("\n{}. {}", i + 1, name(conn, pl)?));
            }
            if t.players.is_empty() {
                text.push_str(&format!("\nNobody yet: {p}tournament #{} join.", info.id));
            }
            return Ok(text);
        }
        text.push_str(&format!(
            "\n{}:\n{}",
            if info.status == Status::Finished { "Final standings" } else { "Standings" },
            self.standings_table(conn, t)?
        ));
        let shown = round.unwrap_or_else(|| current_round(t));
        if shown >= 1 {
            text.push('\n');
            text.push_str(&self.round_text(conn, t, shown)?);
        }
        Ok(text)
    }

    fn standings_table(&self, conn: &Connection, t: &Tournament) -> Res<String> {
        let scoring = t.scoring();
        let mut lines = Vec::new();
        for s in t.standings() {
            let tbs: Vec<String> =
                scoring.tiebreaks.iter().zip(&s.tiebreaks).map(|(tb, v)| format!("{} {v}", tb.short_name())).collect();
            lines.push(format!("{}. {} {} ({})", s.place, name(conn, s.player)?, s.score, tbs.join(", ")));
        }
        Ok(lines.join("\n"))
    }

    /// "Round 2 of 5:" and its boards with game numbers and results, and the bye.
    fn round_text(&self, conn: &Connection, t: &Tournament, number: usize) -> Res<String> {
        let Some(round) = t.rounds.get(number - 1) else { return Ok(String::new()) };
        let total = match t.info.system {
            System::Swiss { rounds } => rounds,
            _ => t.rounds.len(),
        };
        let ids = tournaments::round_games(conn, t.info.id, number)?;
        let mut text = format!("Round {number} of {total}:");
        for (i, g) in round.games.iter().enumerate() {
            let game = ids.iter().find(|(b, _)| *b == i + 1).and_then(|(_, g)| *g);
            let game = game.map(|g| format!(" (game #{g})")).unwrap_or_default();
            text.push_str(&format!(
                "\nBoard {}: {} – {}{game}: {}",
                i + 1,
                name(conn, g.white)?,
                name(conn, g.black)?,
                result_text(g.outcome)
            ));
        }
        if let Some(b) = round.bye {
            let points = t.scoring().bye;
            text.push_str(&format!(
                "\nBye: {} ({} point{})",
                name(conn, b)?,
                points,
                if points.0 == 4 { "" } else { "s" }
            ));
        }
        Ok(text)
    }

    /// Closes registration, seeds the players by rating (community rating in the tournament's
    /// variant; registration order among equals), pairs and creates the games, all in one
    /// transaction. A refusal (too few players, say) changes nothing.
    pub(in crate::bot) fn start_tournament(
        &self,
        conn: &Conn<'_>,
        info: &TournamentInfo,
    ) -> Res<Result<(), TournamentError>> {
        let tx = crate::store::immediate(conn)?;
        let t = self.load_tournament(&tx, info.id)?;
        if t.info.status != Status::Registration {
            return Ok(Err(TournamentError::NotRegistering));
        }
        if t.players.len() < 2 {
            return Ok(Err(TournamentError::TooFewPlayers));
        }
        let scope = RatingScope::community(&info.platform, &info.community_id);
        let mut seeded: Vec<(f64, usize, PlayerId)> = Vec::new();
        for (i, &pl) in t.players.iter().enumerate() {
            let r = ratings::get(&tx, pl, &scope, &info.variant)?.map_or(1500.0, |r| r.rating.rating);
            seeded.push((r, i, pl));
        }
        seeded.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let seeds: Vec<PlayerId> = seeded.iter().map(|s| s.2).collect();
        if let System::Swiss { rounds } = info.system {
            let max = Swiss::max_rounds(seeds.len());
            let wanted = if rounds == 0 { default_swiss_rounds(seeds.len()) } else { rounds.min(max) };
            if wanted != rounds {
                tournaments::set_rounds(&tx, info.id, wanted)?;
            }
        }
        let rounds = match tournaments::start_in(&tx, info.id, Some(&seeds))? {
            Ok(r) => r,
            Err(e) => return Ok(Err(e)),
        };
        for (i, r) in rounds.iter().enumerate() {
            self.create_round_games(&tx, info, i + 1, r)?;
        }
        tx.commit()?;
        Ok(Ok(()))
    }

    /// Creates the games of round `number` (one random setup for all its boards) and notes them on
    /// their boards. Runs inside the caller's transaction.
    fn create_round_games(
        &self,
        tx: &Connection,
        info: &TournamentInfo,
        number: usize,
        round: &Round,
    ) -> crate::store::Result<()> {
        let Ok(v) = variant_named(&info.variant) else {
            return Err(crate::store::StoreError::Corrupt(format!("tournament {} variant {}", info.id, info.variant)));
        };
        let (setup, start) = round_start(v);
        let start_fen = fen::write(&start);
        let now = self.clock.now();
        let relocation = v.setups == SetupKind::Relocation;
        let (deadline, remind_at) = if relocation { (None, None) } else { clock_after(Some(info.days_per_move), now) };
        let rated = rated_games(tx, &info.platform, &info.community_id)? != RatedGames::Never;
        let chat = info.chat_id.clone().unwrap_or_default();
        for (i, g) in round.games.iter().enumerate() {
            let id = games::create(
                tx,
                &NewGame {
                    platform: &info.platform,
                    community_id: Some(&info.community_id),
                    rated,
                    chat_id: &chat,
                    variant: v.name,
                    setup,
                    start_fen: &start_fen,
                    white: g.white,
                    black: g.black,
                    ai_level: None,
                    days_per_move: Some(info.days_per_move),
                    status: if relocation { GameStatus::Setup } else { GameStatus::Active },
                    deadline,
                    remind_at,
                },
                now,
            )?;
            if let Err(e) = tournaments::set_game(tx, info.id, number, i + 1, id)? {
                return Err(crate::store::StoreError::Corrupt(e.to_string()));
            }
        }
        Ok(())
    }

    /// The end hook's part for tournaments: the result goes on its board in the same transaction;
    /// a Swiss round just completed gets the next round paired and its games created.
    pub(in crate::bot) fn tournament_game_end(
        &self,
        conn: &Connection,
        row: &GameRow,
        notes: &mut Vec<String>,
    ) -> crate::store::Result<()> {
        let Some((tid, round, board)) = tournaments::find_by_game(conn, row.id)? else { return Ok(()) };
        let Some(outcome) = row.outcome() else { return Ok(()) };
        let o = match outcome {
            Outcome::Decisive { winner: Color::White, .. } => TOutcome::WhiteWins,
            Outcome::Decisive { winner: Color::Black, .. } => TOutcome::BlackWins,
            Outcome::Draw(_) => TOutcome::Draw,
        };
        let finished = match tournaments::record_result_in(conn, tid, round, board, o)? {
            Ok(f) => f,
            Err(e) => {
                tracing::warn!(game = row.id, "tournament result not recorded: {e}");
                return Ok(());
            }
        };
        let Some(t) = tournaments::load(conn, tid)? else { return Ok(()) };
        let mut line =
            format!("Tournament #{tid} {}: the result stands on board {board} of round {round}", t.info.name);
        if finished {
            line.push_str("; that was the last game, the final standings follow.");
        } else if let System::Swiss { rounds } = t.info.system
            && t.rounds.len() == round
            && round < rounds
            && t.rounds[round - 1].is_complete()
        {
            match tournaments::pair_next_in(conn, tid)? {
                Ok((n, next)) => {
                    self.create_round_games(conn, &t.info, n, &next)?;
                    super::results::failpoint("after-next-round");
                    line.push_str(&format!("; round {round} is complete and round {n} is paired."));
                }
                Err(e) => {
                    tracing::error!(tournament = tid, "next round not paired: {e}");
                    line.push('.');
                }
            }
        } else {
            line.push('.');
        }
        notes.push(line);
        Ok(())
    }

    /// An aborted tournament game cannot be: the players resign or play on instead.
    pub(in crate::bot) fn is_tournament_game(&self, conn: &Connection, game: i64) -> Res<bool> {
        Ok(tournaments::find_by_game(conn, game)?.is_some())
    }

    /// The scheduler's part for tournaments: those whose registration closed start (or, with too
    /// few players, wait for an administrator), and what is owed is announced.
    pub(in crate::bot) fn tournament_tick(&self) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let mut out = Response::default();
        for tid in tournaments::signup_due(&conn, now)? {
            let Some(info) = tournaments::info(&conn, tid)? else { continue };
            match self.start_tournament(&conn, &info)? {
                Ok(()) => {}
                Err(e) => {
                    tournaments::set_signup_until(&conn, tid, None)?;
                    if let Some(scope) = tournament_scope(&info) {
                        let n = self.load_tournament(&conn, tid)?.players.len();
                        out.replies.push(Reply::new(
                            Target::Chat(scope),
                            format!(
                                "Tournament #{tid} {}: registration has closed with {}, so it did not start ({e}) \
                                 An administrator may start it once more have joined, or cancel it.",
                                info.name,
                                plural(n as i64, "player")
                            ),
                        ));
                    }
                }
            }
        }
        out.extend(self.tournament_owed_in(&conn)?);
        Ok(out)
    }

    /// The announcements owed after any command: new rounds and final standings.
    pub(in crate::bot) fn tournament_owed(&self) -> Res<Response> {
        let conn = self.conn()?;
        self.tournament_owed_in(&conn)
    }

    /// New rounds' pairings (their players mentioned) and final standings not yet announced. Each
    /// is claimed in the database first, so two threads never announce the same thing.
    fn tournament_owed_in(&self, conn: &Conn<'_>) -> Res<Response> {
        let mut out = Response::default();
        for tid in tournaments::unannounced(conn)? {
            let Some(t) = tournaments::load(conn, tid)? else { continue };
            let info = &t.info;
            let last = t.rounds.len();
            let end = info.status == Status::Finished;
            if !tournaments::claim_announcement(conn, tid, info.announced_round, info.announced_end, last, end)? {
                continue;
            }
            let Some(scope) = tournament_scope(info) else { continue };
            let prefix = self.effective_settings(&scope)?.hint;
            let mut notify: Vec<PlayerId> = Vec::new();
            // Paragraphs: a header, each round, the standings.
            let mut parts: Vec<String> = Vec::new();
            if info.announced_round < last {
                let first = info.announced_round + 1;
                parts.push(if first == 1 {
                    format!(
                        "Tournament #{} {} starts with {}. Play your games here ({prefix}move #N ...); {} per move.",
                        info.id,
                        info.name,
                        plural(t.players.len() as i64, "player"),
                        plural(info.days_per_move, "day")
                    )
                } else {
                    format!("Tournament #{} {}: round {first} is paired.", info.id, info.name)
                });
                for n in first..=last {
                    parts.push(self.round_text(conn, &t, n)?);
                    for g in &t.rounds[n - 1].games {
                        notify.extend([g.white, g.black]);
                    }
                }
            }
            if end && !info.announced_end {
                let mut text = format!(
                    "Tournament #{} {} is over. Final standings:\n{}",
                    info.id,
                    info.name,
                    self.standings_table(conn, &t)?
                );
                if let Some(w) = t.standings().first().map(|s| s.player) {
                    text.push_str(&format!("\nCongratulations, {}!", name(conn, w)?));
                }
                parts.push(text);
                notify.extend(t.players.iter().copied());
            }
            notify.sort_unstable();
            notify.dedup();
            // One reply, its paragraphs apart: a front end whose platform caps a message's
            // length splits it there. Everyone concerned is mentioned once.
            let mut r = Reply::new(Target::Chat(scope.clone()), parts.join("\n\n"));
            for &pl in &notify {
                r.notify.extend(self.notify_of(conn, &info.platform, pl)?);
            }
            out.replies.push(r);
        }
        Ok(out)
    }
}

/// The round to show by default: the first with games still being played, else the last.
fn current_round(t: &Tournament) -> usize {
    t.rounds.iter().position(|r| !r.is_complete()).map_or(t.rounds.len(), |i| i + 1)
}

/// Where a tournament's messages go: the chat (and thread) it was created in.
fn tournament_scope(info: &TournamentInfo) -> Option<Scope> {
    Some(Scope {
        platform: info.platform.clone(),
        community: Some(info.community_id.clone()),
        chat: info.chat_id.clone()?,
        thread: info.thread_id.clone(),
        direct: false,
    })
}

/// The start of a round's games: a random setup of the variant's (the same on every board), or
/// its one start position.
fn round_start(v: &'static Variant) -> (Option<u32>, Position) {
    if v.setups != SetupKind::Relocation && v.has_setups() {
        let idx = setups::random_index(v, &mut rand::rng());
        if let Some(pos) = setups::position(v, idx) {
            return (Some(idx as u32), pos);
        }
    }
    (None, Position::start(v))
}

/// A refusal as the user's message.
fn answer<T>(a: Result<T, TournamentError>) -> Res<T> {
    a.or_else(|e| user(e.to_string()))
}

/// A player's name, read through any connection (the end hook has no pooled one).
fn name(conn: &Connection, id: PlayerId) -> Res<String> {
    Ok(players::get(conn, id)?.map_or_else(|| format!("player {id}"), |p| short(&p.name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_rounds() {
        assert_eq!(default_swiss_rounds(8), 4);
        assert_eq!(default_swiss_rounds(3), 3);
        assert_eq!(default_swiss_rounds(9), 5);
        assert_eq!(default_swiss_rounds(2), 1);
    }
}

//! Tournament commands: creation with a registration window, joining and leaving, withdrawing
//! once it runs, the start (seeded by rating), the standings with their tie-breaks, each round's
//! pairings and the crosstable, the result
//! of a tournament game (inside the end hook's transaction, where a finished Swiss round also gets
//! the next one paired and its games created), and the announcements the scheduler and every
//! command owe: new rounds' pairings with their players mentioned, and the final standings.
//!
//! A tournament's games are ordinary games in the chat the tournament was created in, created when
//! their round is paired (a round robin: all rounds at the start, as is usual in correspondence
//! play), with the tournament's days per move; a loss on time is a loss like any other. Each
//! round of a random-setup variant uses one setup on all its boards.

use super::{Bot, Ctx, DAY, Res, choice, clock_after, mover_color, playable_variant, short, user, variant_named};
use crate::bot::command::{Command, DAYS_CHOICES, TournamentCmd, TournamentKind};
use crate::bot::io::{ChoiceStyle, Reply, Response, Scope, Target};
use crate::community::PlayerId;
use crate::community::swiss::{Swiss, SwissError};
use crate::community::tournament::{Outcome as TOutcome, Round};
use crate::i18n::with_lang;
use crate::notation::fen;
use crate::rules::{Color, Outcome, Position, SetupKind, Variant, WinReason, setups};
use crate::store::Connection;
use crate::store::games::{self, GameRow, NewGame, Status as GameStatus};
use crate::store::ratings::{self, Scope as RatingScope};
use crate::store::settings::{RatedGames, rated_games};
use crate::store::tournaments::{self, Status, System, Tournament, TournamentError, TournamentId, TournamentInfo};
use crate::store::{Conn, players};
use crate::{msg, t};

/// Registration lasts this many days unless `signup:N` says otherwise.
const DEFAULT_SIGNUP_DAYS: u32 = 3;

fn players_text(n: usize) -> String {
    t!("n-players", count = n)
}

fn system_text(s: System) -> String {
    match s {
        System::RoundRobin => t!("system-roundrobin"),
        System::DoubleRoundRobin => t!("system-double"),
        // Rounds not set: as many as the players call for (before, "0 rounds" in the list).
        System::Swiss { rounds: 0 } => t!("system-swiss-auto"),
        System::Swiss { rounds } => t!("system-swiss", rounds = rounds),
    }
}

/// "in 2 days 3 hours", "in 40 minutes".
fn time_left(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / DAY, secs % DAY / 3600, secs % 3600 / 60);
    match (d, h) {
        (0, 0) => t!("in-minutes", count = m.max(1)),
        (0, _) => t!("in-hours", count = h),
        _ => t!("in-days-hours", days = d, hours = h),
    }
}

/// The result as a tournament table writes it.
fn result_text(o: Option<TOutcome>) -> String {
    match o {
        None => t!("result-playing"),
        Some(TOutcome::WhiteWins) => "1-0".into(),
        Some(TOutcome::BlackWins) => "0-1".into(),
        Some(TOutcome::Draw) => "½-½".into(),
    }
}

/// The tournaments of `all` not finished yet (registering or running).
fn open_ones(all: &[TournamentInfo]) -> Vec<TournamentInfo> {
    all.iter().filter(|t| t.status != Status::Finished).cloned().collect()
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
            return user(msg!("tournament-no-community"));
        };
        let admin_only =
            matches!(cmd, TournamentCmd::Create { .. } | TournamentCmd::Start(_) | TournamentCmd::Cancel(_));
        if admin_only && !cx.inp.author_is_admin {
            return user(msg!("tournament-admins-only"));
        }
        let conn = self.conn()?;
        let now = self.clock.now();
        let p = cx.p().to_string();
        match cmd {
            TournamentCmd::Show { id: None, round: None } => {
                // One tournament under way here: its players or standings at once, where the list
                // would only point at it; with several (or none), the list.
                let all = tournaments::list(&conn, &cx.scope().platform, &community)?;
                let mut open = all.iter().filter(|t| t.status != Status::Finished);
                match (open.next(), open.next()) {
                    (Some(only), None) => {
                        let t = self.load_tournament(&conn, only.id)?;
                        Ok(cx.say(self.tournament_text(&conn, &t, None, &p, now)?))
                    }
                    _ => self.tournament_list(&conn, cx, &all),
                }
            }
            TournamentCmd::Show { id, round } => {
                let info =
                    self.pick_tournament(&conn, cx, &community, id, None, &|id| TournamentCmd::Show { id, round })?;
                let t = self.load_tournament(&conn, info.id)?;
                if let Some(r) = round
                    && (r as usize > t.rounds.len() || r == 0)
                {
                    return user(rounds_refusal(&t));
                }
                Ok(cx.say(self.tournament_text(&conn, &t, round.map(|r| r as usize), &p, now)?))
            }
            TournamentCmd::Create { kind, rounds, variant, days, signup, name } => {
                let v = playable_variant(variant.as_deref().unwrap_or(&cx.settings.default_variant))?;
                let days = days.or(cx.settings.default_days).filter(|d| DAYS_CHOICES.contains(d)).unwrap_or(3);
                let system = match kind {
                    TournamentKind::RoundRobin => System::RoundRobin,
                    TournamentKind::DoubleRoundRobin => System::DoubleRoundRobin,
                    // Zero rounds: decided at the start from the field's size.
                    TournamentKind::Swiss => System::Swiss { rounds: rounds.map_or(0, |r| r as usize) },
                };
                let name = if name.trim().is_empty() {
                    let kind = if kind == TournamentKind::Swiss { "swiss" } else { "roundrobin" };
                    t!("tournament-default-name", variant = super::variant_title(v.name), kind = kind)
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
                    t!("tournament-start-by-hand", p = p.as_str(), id = id)
                } else {
                    let until = now + i64::from(signup) * DAY;
                    tournaments::set_signup_until(&conn, id, Some(until))?;
                    t!("tournament-start-by-itself", when = time_left(until - now), p = p.as_str(), id = id)
                };
                let rounds_text = system_text(system);
                let mut r = self.reply_in(
                    cx.scope(),
                    t!(
                        "tournament-created",
                        id = id,
                        name = name.as_str(),
                        variant = super::variant_title(v.name),
                        system = rounds_text,
                        days = t!("n-days", count = days),
                        p = p.as_str(),
                        start = start_line
                    ),
                );
                r.choices = vec![choice(
                    &t!("button-join"),
                    Command::Tournament(TournamentCmd::Join(Some(id))),
                    ChoiceStyle::Primary,
                    None,
                    &p,
                )];
                Ok(Response::one(r))
            }
            TournamentCmd::Join(id) => {
                let info =
                    self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration), &TournamentCmd::Join)?;
                let me = self.me(&conn, cx)?;
                let seed = answer(tournaments::register(&conn, info.id, me.id, now)?)?;
                Ok(cx.say(t!(
                    "tournament-joined",
                    name = me.name.as_str(),
                    tournament = info.name.as_str(),
                    id = info.id,
                    players = players_text(seed)
                )))
            }
            TournamentCmd::Leave(id) | TournamentCmd::Withdraw(id) => {
                let withdraw = matches!(cmd, TournamentCmd::Withdraw(_));
                let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?;
                let info = match id {
                    Some(_) => self.pick_tournament(&conn, cx, &community, id, None, &TournamentCmd::Leave)?,
                    // Without a number: the one tournament not finished that the person is in.
                    None => {
                        let open = open_ones(&tournaments::list(&conn, &cx.scope().platform, &community)?);
                        let mut mine = Vec::new();
                        for t in open {
                            if let Some(me) = &me
                                && self.load_tournament(&conn, t.id)?.players.contains(&me.id)
                            {
                                mine.push(t);
                            }
                        }
                        match &mine[..] {
                            [] => return user(msg!("tournament-in-none")),
                            [one] => one.clone(),
                            _ => return user(which(&mine, cx.p(), &cmd)),
                        }
                    }
                };
                let (tournament, tid) = (info.name.as_str(), info.id);
                if info.status == Status::Finished {
                    return user(msg!("tournament-over-leave", tournament = tournament, id = tid));
                }
                let t = self.load_tournament(&conn, tid)?;
                let Some(me) = me.filter(|me| t.players.contains(&me.id)) else {
                    return user(msg!("tournament-not-in", tournament = tournament, id = tid));
                };
                if t.withdrawal_of(me.id).is_some() {
                    return user(TournamentError::AlreadyWithdrawn.msg());
                }
                match info.status {
                    Status::Registration => {
                        answer(tournaments::unregister(&conn, tid, me.id)?)?;
                        Ok(cx.say(t!("tournament-left", name = me.name.as_str(), tournament = tournament, id = tid)))
                    }
                    // Leaving a running tournament is a withdrawal, which costs games: `leave`
                    // (which before the start costs nothing) asks to confirm it with `withdraw`.
                    _ if !withdraw => {
                        let mut r = self.reply_in(
                            cx.scope(),
                            t!("tournament-leave-running", tournament = tournament, id = tid, p = cx.p()),
                        );
                        r.choices = vec![choice(
                            &t!("button-tournament-withdraw"),
                            Command::Tournament(TournamentCmd::Withdraw(Some(tid))),
                            ChoiceStyle::Danger,
                            Some(cx.inp.author.clone()),
                            cx.p(),
                        )];
                        Ok(Response::one(r))
                    }
                    _ => self.withdraw(&conn, cx, &info, &me),
                }
            }
            TournamentCmd::Crosstable(id) => {
                let info = self.pick_tournament(&conn, cx, &community, id, None, &TournamentCmd::Crosstable)?;
                let t = self.load_tournament(&conn, info.id)?;
                Ok(cx.say(self.crosstable_text(&conn, &t)?))
            }
            TournamentCmd::Start(id) => {
                let info =
                    self.pick_tournament(&conn, cx, &community, id, Some(Status::Registration), &TournamentCmd::Start)?;
                let asked = answer(self.start_tournament(&conn, &info)?)?;
                let mut out = Response::default();
                out.extend(self.tournament_owed_in(&conn, asked.map(|a| (info.id, a)))?);
                if out.replies.is_empty() {
                    out = cx.say(t!("tournament-started", tournament = info.name.as_str()));
                }
                Ok(out)
            }
            TournamentCmd::Cancel(id) => {
                // Any of the open ones (several: which one is asked, as cancelling cannot be undone),
                // so that one that has begun or ended is told as such.
                let info = self.pick_tournament(&conn, cx, &community, id, None, &TournamentCmd::Cancel)?;
                if info.status == Status::Finished {
                    return user(msg!("tournament-cannot-cancel-over", tournament = info.name.as_str()));
                }
                if info.status != Status::Registration || !tournaments::cancel(&conn, info.id)? {
                    return user(msg!(
                        "tournament-cannot-cancel",
                        tournament = info.name.as_str(),
                        id = info.id,
                        p = cx.p()
                    ));
                }
                Ok(cx.say(t!("tournament-cancelled", id = info.id, tournament = info.name.as_str())))
            }
        }
    }

    /// For the `tournament` option of `tournament SUB` (Discord's autocomplete): the community's
    /// tournaments that `sub` can act on — those open for registration for `join`, `leave`,
    /// `start` and `cancel`, every one for `standings` and `round` —, newest first, each named with
    /// its number, name, system, variant and where it stands, valued as its number; `typed` keeps
    /// them as [`super::info::suggestions`] says. In the language in force. Empty outside a
    /// community.
    pub fn suggest_tournaments(&self, scope: &Scope, sub: &str, typed: &str) -> Vec<(String, String)> {
        let Some(community) = scope.community.as_deref() else { return vec![] };
        let wanted = |s: Status| match sub {
            "join" | "start" | "cancel" => s == Status::Registration,
            "leave" => s != Status::Finished,
            "withdraw" => s == Status::Running,
            _ => true,
        };
        let run = || -> Res<Vec<(String, String)>> {
            let listed = tournaments::list(&*self.conn()?, &scope.platform, community)?;
            let named = listed.into_iter().filter(|t| wanted(t.status)).map(|t| {
                let variant = super::variant_title(&t.variant);
                let (system, rounds) = match t.system {
                    System::RoundRobin => ("roundrobin", 0),
                    System::DoubleRoundRobin => ("double", 0),
                    System::Swiss { rounds } => ("swiss", rounds),
                };
                let status = match t.status {
                    Status::Registration => "registration",
                    Status::Running => "running",
                    Status::Finished => "finished",
                };
                let text = t!(
                    "suggest-tournament",
                    id = t.id,
                    name = short(&t.name),
                    system = system,
                    rounds = rounds,
                    variant = variant,
                    status = status
                );
                (text, t.id)
            });
            Ok(super::info::suggestions(named, typed))
        };
        run().unwrap_or_else(|e| {
            tracing::warn!("tournament suggestions failed: {e}");
            vec![]
        })
    }

    fn load_tournament(&self, conn: &Connection, id: TournamentId) -> Res<Tournament> {
        tournaments::load(conn, id)?.ok_or_else(|| crate::bot::BotError::Internal(format!("tournament {id} vanished")))
    }

    /// The tournament a command is about: `#id` (of this community), or the community's only one
    /// in `status` (without a status: the only one not finished, else the latest). Where several
    /// fit, the answer names them and shows the command (`example` with a number) written whole.
    fn pick_tournament(
        &self,
        conn: &Connection,
        cx: &Ctx<'_>,
        community: &str,
        id: Option<i64>,
        status: Option<Status>,
        example: &dyn Fn(Option<i64>) -> TournamentCmd,
    ) -> Res<TournamentInfo> {
        let platform = &cx.scope().platform;
        if let Some(id) = id {
            return match tournaments::info(conn, id)? {
                Some(t) if &t.platform == platform && t.community_id == community => match status {
                    Some(Status::Registration) if t.status != Status::Registration => {
                        user(TournamentError::NotRegistering.msg())
                    }
                    _ => Ok(t),
                },
                _ => user(msg!("tournament-no-such", id = id)),
            };
        }
        let all = tournaments::list(conn, platform, community)?;
        let mut fitting: Vec<TournamentInfo> = match status {
            Some(s) => all.iter().filter(|t| t.status == s).cloned().collect(),
            None => open_ones(&all),
        };
        if fitting.is_empty() && status.is_none() && !all.is_empty() {
            fitting.push(all[0].clone());
        }
        match fitting.len() {
            // One under way and none registering: it, by name, rather than "none".
            0 if status == Some(Status::Registration) => match &open_ones(&all)[..] {
                [only] => user(msg!("tournament-begun", tournament = only.name.as_str(), id = only.id)),
                _ => user(msg!("tournament-none-open", p = cx.p())),
            },
            0 => user(msg!("tournament-none-yet", p = cx.p())),
            1 => Ok(fitting.remove(0)),
            _ => user(which(&fitting, cx.p(), &example(Some(fitting[0].id)))),
        }
    }

    /// The community's tournaments (`all`, as [`tournaments::list`] gives them): the open ones, then
    /// the last five finished.
    fn tournament_list(&self, conn: &Connection, cx: &Ctx<'_>, all: &[TournamentInfo]) -> Res<Response> {
        if all.is_empty() {
            return Ok(cx.say(t!("tournament-none-yet", p = cx.p())));
        }
        let now = self.clock.now();
        let mut text = t!("tournaments-head");
        // The open ones, then the last five finished.
        let open = all.iter().filter(|t| t.status != Status::Finished);
        let done = all.iter().filter(|t| t.status == Status::Finished).take(5);
        for t in open.chain(done) {
            let v = super::variant_title(&t.variant);
            let n = self.load_tournament(conn, t.id)?.players.len();
            let state = match t.status {
                Status::Registration => match t.signup_until {
                    Some(u) => {
                        t!("tournament-state-signup-until", players = players_text(n), when = time_left(u - now))
                    }
                    None => t!("tournament-state-signup", players = players_text(n)),
                },
                Status::Running => t!("tournament-state-running", players = players_text(n)),
                Status::Finished => t!("tournament-state-finished"),
            };
            text.push_str(&format!("\n#{} {}: {v}, {}; {state}", t.id, t.name, system_text(t.system)));
        }
        text.push('\n');
        text.push_str(&t!("tournaments-details", p = cx.p()));
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
        let v = super::variant_title(&info.variant);
        let system = match info.system {
            System::Swiss { rounds: 0 } => t!("system-swiss-plain"),
            s => system_text(s),
        };
        let mut text = t!(
            "tournament-head",
            id = info.id,
            name = info.name.as_str(),
            variant = v,
            system = system,
            days = t!("n-days", count = info.days_per_move)
        );
        if info.status == Status::Registration {
            text.push(' ');
            text.push_str(&match info.signup_until {
                Some(u) => t!("tournament-registration-until", when = time_left(u - now)),
                None => t!("tournament-registration-by-hand"),
            });
            text.push('\n');
            text.push_str(&t!("tournament-players-head", count = t.players.len()));
            for (i, &pl) in t.players.iter().enumerate() {
                text.push_str(&format!("\n{}. {}", i + 1, name(conn, pl)?));
            }
            if t.players.is_empty() {
                text.push('\n');
                text.push_str(&t!("tournament-nobody-yet", p = p, id = info.id));
            }
            return Ok(text);
        }
        let head = if info.status == Status::Finished { "final" } else { "current" };
        text.push_str(&format!("\n{}\n{}", t!("standings-head", kind = head), self.standings_table(conn, t)?));
        let shown = round.unwrap_or_else(|| current_round(t));
        if shown >= 1 {
            text.push('\n');
            text.push_str(&self.round_text(conn, t, shown)?);
        }
        Ok(text)
    }

    /// "1. alice 3 (SB 3)", a withdrawn player's line marked so; one whose results are void
    /// listed last, unnumbered, without score.
    fn standings_table(&self, conn: &Connection, t: &Tournament) -> Res<String> {
        let scoring = t.scoring();
        let mut lines = Vec::new();
        for s in t.standings() {
            let who = name(conn, s.player)?;
            if !s.counted {
                lines.push(format!("– {who} ({})", t!("standings-void")));
                continue;
            }
            let mut notes: Vec<String> =
                scoring.tiebreaks.iter().zip(&s.tiebreaks).map(|(tb, v)| format!("{} {v}", tb.short_name())).collect();
            if t.withdrawal_of(s.player).is_some() {
                notes.push(t!("standings-withdrawn"));
            }
            lines.push(format!("{}. {who} {} ({})", s.place, s.score, notes.join(", ")));
        }
        Ok(lines.join("\n"))
    }

    /// A player's withdrawal from a running tournament, in one transaction: noted (later rounds do
    /// not pair them), then each of their games left ends as lost by forfeit through the ordinary
    /// end (a game with moves played is rated as any; one without is a forfeit for the event only),
    /// which may complete a Swiss round and pair the next without them. The chat is told with
    /// each game's end; the opponents are mentioned.
    fn withdraw(&self, conn: &Conn<'_>, cx: &Ctx<'_>, info: &TournamentInfo, me: &players::Player) -> Res<Response> {
        let now = self.clock.now();
        let tx = crate::store::immediate(conn)?;
        let void = answer(tournaments::withdraw_in(&tx, info.id, me.id, now)?)?;
        let t = self.load_tournament(&tx, info.id)?;
        let mut ended = Vec::new();
        for (r, round) in t.rounds.iter().enumerate() {
            let games = tournaments::round_games(&tx, info.id, r + 1)?;
            for (b, g) in round.games.iter().enumerate() {
                if g.outcome.is_some() || g.opponent_of(me.id).is_none() {
                    continue;
                }
                let Some(row) = games.iter().find(|(board, _)| *board == b + 1).and_then(|(_, id)| *id) else {
                    continue;
                };
                let Some(row) = games::get(&tx, row)? else { continue };
                let o = Outcome::Decisive { winner: mover_color(&row, me.id).other(), reason: WinReason::Forfeit };
                let mut notes = Vec::new();
                let mut on_end = |c: &Connection, r: &GameRow| self.on_game_end(c, r, &mut notes);
                if games::finish(&tx, row.id, row.ply, o, now, &mut on_end)? {
                    ended.push((row, o, notes));
                }
            }
        }
        tx.commit()?;
        let (who, tournament) = (me.name.as_str(), info.name.as_str());
        let rule = match (info.system, void) {
            (System::Swiss { .. }, _) => t!("tournament-withdrew-swiss", name = who),
            (_, true) => t!("tournament-withdrew-void", name = who),
            (_, false) => t!("tournament-withdrew-counted", name = who),
        };
        let mut text =
            format!("{} {rule}", t!("tournament-withdrew", name = who, tournament = tournament, id = info.id));
        let mut replies = Vec::new();
        // Each opponent once, however many games they had with the one withdrawing (two in a
        // double round robin).
        let mut opponents: Vec<PlayerId> = Vec::new();
        for (row, o, notes) in &ended {
            text.push_str("\n\n");
            text.push_str(&self.ended_text(conn, row, *o)?);
            for n in notes {
                text.push('\n');
                text.push_str(n);
            }
            let opponent = row.player(mover_color(row, me.id).other());
            if !opponents.contains(&opponent) {
                opponents.push(opponent);
            }
            self.at_game_end(conn, row.id, &mut replies);
        }
        let mut r = self.reply_in(cx.scope(), text);
        for opponent in opponents {
            r.notify.extend(self.notify_of(conn, &cx.scope().platform, opponent)?);
        }
        replies.insert(0, r);
        Ok(Response { replies, ..Response::default() })
    }

    /// The crosstable as monospace text: place, name, a column per opponent by place, points. Cut
    /// to the first players that fit one message (Discord's 2,000 characters), saying so and where
    /// the whole one is (the community's page, where it has one).
    fn crosstable_text(&self, conn: &Conn<'_>, t: &Tournament) -> Res<String> {
        let (name_of, id) = (t.info.name.as_str(), t.info.id);
        if t.info.status == Status::Registration {
            return user(msg!("crosstable-not-started", name = name_of, id = id));
        }
        let standings = t.standings();
        let order: Vec<PlayerId> = standings.iter().map(|s| s.player).collect();
        let cells = t.crosstable(&order);
        let byes = t.bye_cells(&order);
        let names: Vec<String> =
            order.iter().map(|&p| name(conn, p).map(|n| n.chars().take(12).collect())).collect::<Res<_>>()?;
        let place = |i: usize| if standings[i].counted { (i + 1).to_string() } else { "–".into() };
        let name_w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
        let place_w = order.len().to_string().len();
        let cell_w = cells.iter().flatten().map(|c| c.chars().count()).max().unwrap_or(1).max(place_w);
        let bye_head = t!("crosstable-bye");
        let bye_w = byes.iter().flatten().map(|c| c.chars().count()).max().unwrap_or(0).max(bye_head.chars().count());
        let pad = |text: &str, w: usize| format!("{text:>w$}");
        let mut head = format!("{} {:name_w$}", pad("", place_w + 1), "");
        for i in 0..order.len() {
            head.push(' ');
            head.push_str(&pad(&(i + 1).to_string(), cell_w));
        }
        if byes.is_some() {
            head.push_str(&format!(" {}", pad(&bye_head, bye_w)));
        }
        head.push_str(&format!(" {}", t!("crosstable-points")));
        let rows: Vec<String> = (0..order.len())
            .map(|i| {
                let mut line = format!("{}. {:name_w$}", pad(&place(i), place_w), names[i]);
                for (j, c) in cells[i].iter().enumerate() {
                    line.push(' ');
                    line.push_str(&pad(if i == j { "×" } else { c }, cell_w));
                }
                if let Some(byes) = &byes {
                    line.push_str(&format!(" {}", pad(&byes[i], bye_w)));
                }
                line.push_str(&format!(" {}", standings[i].score));
                line
            })
            .collect();
        let title = t!("crosstable-head", name = name_of, id = id);
        // Room for the title, the fence, and the note on a cut with an address.
        const LIMIT: usize = 2000;
        let budget = LIMIT.saturating_sub(title.chars().count() + 8 + 300);
        let mut used = head.chars().count() + 1;
        let shown = rows.iter().take_while(|r| {
            used += r.chars().count() + 1;
            used <= budget
        });
        let shown: Vec<&String> = shown.collect();
        let mut text = format!("{title}\n```\n{head}\n");
        for r in &shown {
            text.push_str(r);
            text.push('\n');
        }
        text.push_str("```");
        if shown.len() < rows.len() {
            text.push('\n');
            let (n, count) = (shown.len(), rows.len());
            text.push_str(&match self.community_url(conn, &t.info.platform, &t.info.community_id)? {
                Some(url) => t!("crosstable-cut-web", shown = n, count = count, url = url),
                None => t!("crosstable-cut", shown = n, count = count),
            });
        }
        Ok(text)
    }

    /// "Round 2 of 5:" and its boards with game numbers and results, and the bye.
    fn round_text(&self, conn: &Connection, t: &Tournament, number: usize) -> Res<String> {
        let Some(round) = t.rounds.get(number - 1) else { return Ok(String::new()) };
        let total = match t.info.system {
            System::Swiss { rounds } => rounds,
            _ => t.rounds.len(),
        };
        let ids = tournaments::round_games(conn, t.info.id, number)?;
        let mut text = t!("round-head", number = number, total = total);
        for (i, g) in round.games.iter().enumerate() {
            let game = ids.iter().find(|(b, _)| *b == i + 1).and_then(|(_, g)| *g);
            let game = game.map(|g| t!("round-game", id = g)).unwrap_or_default();
            text.push('\n');
            text.push_str(&t!(
                "round-board",
                board = i + 1,
                white = name(conn, g.white)?,
                black = name(conn, g.black)?,
                game = game,
                result = result_text(g.outcome)
            ));
        }
        if let Some(b) = round.bye {
            let points = t.scoring().bye;
            text.push('\n');
            text.push_str(&t!(
                "round-bye",
                name = name(conn, b)?,
                points = points.to_string(),
                one = if points.0 == 4 { "one" } else { "other" }
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
    ) -> Res<Result<Option<usize>, TournamentError>> {
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
        // The rounds asked for, where the field allows fewer (told in the start announcement).
        let mut cut = None;
        if let System::Swiss { rounds } = info.system {
            let max = Swiss::max_rounds(seeds.len());
            let wanted = if rounds == 0 { default_swiss_rounds(seeds.len()) } else { rounds.min(max) };
            if wanted != rounds {
                tournaments::set_rounds(&tx, info.id, wanted)?;
            }
            cut = (rounds > max).then_some(rounds);
        }
        let rounds = match tournaments::start_in(&tx, info.id, Some(&seeds))? {
            Ok(r) => r,
            Err(e) => return Ok(Err(e)),
        };
        for (i, r) in rounds.iter().enumerate() {
            self.create_round_games(&tx, info, i + 1, r)?;
        }
        tx.commit()?;
        Ok(Ok(cut))
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
        // A relocation game's setup phase runs on the clock too: Black chooses first.
        let (deadline, remind_at) = clock_after(Some(info.days_per_move), now);
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
                    interaction_only: false,
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
        let mut line = t!("tournament-result", id = tid, name = t.info.name.as_str(), board = board, round = round);
        if finished {
            line.push_str(&t!("tournament-result-last"));
        } else if let System::Swiss { rounds } = t.info.system
            && t.rounds.len() == round
            && round < rounds
            && t.rounds[round - 1].is_complete()
        {
            match tournaments::pair_next_in(conn, tid)? {
                Ok((n, next)) => {
                    self.create_round_games(conn, &t.info, n, &next)?;
                    super::results::failpoint("after-next-round");
                    line.push_str(&t!("tournament-result-next", round = round, next = n));
                }
                // Withdrawals left too few players, or only ones who have met: the Swiss ends here.
                Err(TournamentError::Swiss(SwissError::NoPairing | SwissError::TooFewPlayers)) => {
                    tournaments::end_early_in(conn, tid)?;
                    line.push_str(&t!("tournament-ended-early", round = round));
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

    /// The scheduler's step for one tournament whose registration closed: it starts (or, with too
    /// few players, waits for an administrator). What is owed is announced by [`Bot::tournament_owed`].
    pub(in crate::bot) fn tournament_signup_step(&self, tid: TournamentId) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let mut out = Response::default();
        let Some(info) = tournaments::info(&conn, tid)? else { return Ok(out) };
        if info.status != Status::Registration || info.signup_until.is_none_or(|t| t > now) {
            return Ok(out);
        }
        match self.start_tournament(&conn, &info)? {
            // Announced at once where the rounds were cut, so the announcement can say so.
            Ok(Some(asked)) => out.extend(self.tournament_owed_in(&conn, Some((tid, asked)))?),
            Ok(None) => {}
            Err(e) => {
                tournaments::set_signup_until(&conn, tid, None)?;
                if let Some(scope) = tournament_scope(&info) {
                    let n = self.load_tournament(&conn, tid)?.players.len();
                    let text = with_lang(self.lang_in(&scope), || {
                        t!(
                            "tournament-not-started",
                            id = tid,
                            name = info.name.as_str(),
                            players = players_text(n),
                            reason = e.msg()
                        )
                    });
                    out.replies.push(Reply::new(Target::Chat(scope), text));
                }
            }
        }
        Ok(out)
    }

    /// The announcements owed after any command: new rounds and final standings.
    pub(in crate::bot) fn tournament_owed(&self) -> Res<Response> {
        let conn = self.conn()?;
        self.tournament_owed_in(&conn, None)
    }

    /// New rounds' pairings (their players mentioned) and final standings not yet announced. Each
    /// is claimed in the database first, so two threads never announce the same thing.
    ///
    /// `cut`: a tournament just started with fewer Swiss rounds than its creator asked for (how
    /// many were asked), which its start announcement says.
    fn tournament_owed_in(&self, conn: &Conn<'_>, cut: Option<(TournamentId, usize)>) -> Res<Response> {
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
            let settings = self.effective_settings(&scope)?;
            let prefix = settings.hint.clone();
            let _lang = crate::i18n::scoped(settings.lang);
            let mut notify: Vec<PlayerId> = Vec::new();
            // Paragraphs: a header, each round, the standings.
            let mut parts: Vec<String> = Vec::new();
            // Secret-bomb chess: each new game's players are asked for their bombs by direct
            // message, once, with the announcement that claims the round.
            let mut prompts: Vec<Reply> = Vec::new();
            if info.announced_round < last {
                let first = info.announced_round + 1;
                parts.push(if first == 1 {
                    t!(
                        "tournament-starts",
                        id = info.id,
                        name = info.name.as_str(),
                        players = players_text(t.players.len()),
                        p = prefix.as_str(),
                        days = t!("n-days", count = info.days_per_move)
                    ) + &rounds_cut_note(&t, cut)
                } else {
                    t!("tournament-round-paired", id = info.id, name = info.name.as_str(), round = first)
                });
                for n in first..=last {
                    parts.push(self.round_text(conn, &t, n)?);
                    for g in &t.rounds[n - 1].games {
                        notify.extend([g.white, g.black]);
                    }
                    // The player with the bye is told too: their point is news to them.
                    notify.extend(t.rounds[n - 1].bye);
                }
                // Capablanca Relocation: each game's setup phase runs on the clock first, which the
                // players learn here (before: only from each game's own start).
                if variant_named(&info.variant).is_ok_and(|v| v.setups == SetupKind::Relocation) {
                    parts[0].push(' ');
                    parts[0].push_str(&t!(
                        "tournament-setup-first",
                        variant = super::variant_title(&info.variant),
                        p = prefix.as_str(),
                        days = t!("n-days", count = info.days_per_move)
                    ));
                }
                if variant_named(&info.variant).is_ok_and(|v| v.bombs) {
                    parts[0].push(' ');
                    parts[0].push_str(&t!("tournament-bombs-first"));
                    for n in first..=last {
                        for (_, game) in tournaments::round_games(conn, info.id, n)? {
                            if let Some(id) = game {
                                prompts.extend(self.bomb_start(conn, id)?);
                            }
                        }
                    }
                }
            }
            if end && !info.announced_end {
                let mut text = format!(
                    "{}\n{}",
                    t!("tournament-over", id = info.id, name = info.name.as_str()),
                    self.standings_table(conn, &t)?
                );
                if let Some(w) = t.standings().first().map(|s| s.player) {
                    text.push('\n');
                    text.push_str(&t!("tournament-congratulations", name = name(conn, w)?));
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
            out.replies.extend(prompts);
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
        ..Scope::default()
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
/// " It plays 3 rounds, not the 99 asked for: …" where `cut` says `t` started with fewer rounds
/// than asked; else nothing.
fn rounds_cut_note(t: &Tournament, cut: Option<(TournamentId, usize)>) -> String {
    match (cut, &t.info.system) {
        (Some((id, asked)), &System::Swiss { rounds }) if id == t.info.id && asked > rounds => {
            let note = t!("tournament-rounds-cut", rounds = rounds, asked = asked, players = t.players.len());
            format!(" {note}")
        }
        _ => String::new(),
    }
}

/// "There are several tournaments here (#2 BombCup, #1 Doppel); say which one, e.g. !tournament #2
/// join." — `example` written whole, with the first one's number where it had none.
fn which(fitting: &[TournamentInfo], p: &str, example: &TournamentCmd) -> crate::i18n::Msg {
    let names: Vec<String> = fitting.iter().map(|t| format!("#{} {}", t.id, t.name)).collect();
    let first = Some(fitting[0].id);
    let example = match example.clone() {
        TournamentCmd::Join(None) => TournamentCmd::Join(first),
        TournamentCmd::Leave(None) => TournamentCmd::Leave(first),
        TournamentCmd::Withdraw(None) => TournamentCmd::Withdraw(first),
        TournamentCmd::Crosstable(None) => TournamentCmd::Crosstable(first),
        TournamentCmd::Start(None) => TournamentCmd::Start(first),
        TournamentCmd::Cancel(None) => TournamentCmd::Cancel(first),
        TournamentCmd::Show { id: None, round } => TournamentCmd::Show { id: first, round },
        other => other,
    };
    msg!("tournament-which", names = names.join(", "), example = Command::Tournament(example).typed(p))
}

/// The refusal of a round `t` does not have: how many it has so far (a Swiss under way), or has
/// (all paired: a round robin) or had (over).
fn rounds_refusal(t: &Tournament) -> crate::i18n::Msg {
    let (name, count) = (t.info.name.as_str(), t.rounds.len());
    let all_paired = match t.info.system {
        System::Swiss { rounds } => rounds == count,
        _ => true,
    };
    match t.info.status {
        Status::Finished => msg!("tournament-rounds-all", name = name, count = count, over = "yes"),
        _ if all_paired => msg!("tournament-rounds-all", name = name, count = count, over = "no"),
        _ => msg!("tournament-rounds-so-far", name = name, count = count),
    }
}

fn answer<T>(a: Result<T, TournamentError>) -> Res<T> {
    a.or_else(|e| user(e.msg()))
}

/// A player's name, read through any connection (the end hook has no pooled one).
fn name(conn: &Connection, id: PlayerId) -> Res<String> {
    Ok(players::get(conn, id)?.map_or_else(|| t!("player-fallback", id = id), |p| short(&p.name)))
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

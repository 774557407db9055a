//! The scheduler: what is due at the clock's time — losses on time, reminders, challenge expiry,
//! ladders' and tournaments' steps, the pruning of old event ids. Everything due is read from the
//! database, so it survives restarts.
//!
//! Each due item is its own unit of work: one that fails (its data broken, the database refusing
//! it) is rolled back alone, recorded with its error in [`crate::store::schedule`], and after a few
//! tries set aside — counted in `/metrics`, listed by `capabot scheduler list`, tried again after
//! `capabot scheduler retry` — while every other item goes on.
//!
//! The items are run in batches of [`BATCH`]: one transaction a batch, each item inside it under a
//! savepoint of its own, so that a failing item is rolled back to its savepoint alone (and its
//! failure recorded in the same transaction) while the others' work stays; a thousand items then
//! cost a few commits instead of a thousand (`docs/scale.md`). A batch whose transaction cannot
//! commit (a full disk, a lost connection: nothing of it is saved) is run again one item a
//! transaction, as before batches, so that the failure is the failing item's alone.
//!
//! A process does only what it can deliver: its tick takes what it serves ([`Served`]) and handles
//! only the items of those platforms (a Discord-only process leaves Matrix games' losses on time and
//! reminders to a Matrix process, instead of announcing them into an outbox nobody drains). Each
//! tick also records that the process serves its platforms ([`crate::store::served`]), and expires
//! the outbox rows of platforms no process has served for [`BotConfig::unserved_expiry_secs`],
//! counted in `capabot_outbox_expired_total` and logged.
//!
//! A platform nobody serves does not stop its games for ever: once no process has served it for
//! that window, any process's tick takes its items that have been due for the window too (the
//! platform's own process, were it merely slow to start, would have taken them long before). A
//! loss on time, a challenge's expiry, a ladder's forfeit, a tournament's start are done as the
//! platform's own process would have done them, so that ratings, ladders and tournaments stay
//! right; what they announce waits in the outbox for that platform like any reply, and is expired
//! and counted a window later if still nobody serves it. A reminder, which helps nobody late, is
//! dropped instead: counted in `capabot_reminders_dropped_total{reason="unserved"}` and logged.

use super::Bot;
use super::commands::{challenge_target, color_word, game_scope, game_variant, turn_of_fen};
use super::error::{BotError, Res};
use super::io::{Reply, Response};
use crate::i18n::with_lang;
use crate::notation::fen;
use crate::rules::{Color, DrawReason, Outcome, Position, WinReason};
use crate::store::{challenges, events, games, ladders, players, schedule, served, tournaments};
use crate::t;
use std::cell::RefCell;

/// The side whose turn it is in `row`: to choose its swap in a relocation game's setup phase, else
/// to move.
fn to_act(row: &games::GameRow) -> Color {
    row.setup_chooser().unwrap_or_else(|| turn_of_fen(&row.fen))
}

/// Items run in one unit of work ([`Bot::tick`]): enough that a tick of a thousand costs a few
/// commits, few enough that a batch holds SQLite's one writer for milliseconds, not seconds.
pub const BATCH: usize = 100;

/// What a process serves, as its scheduler sees it: the platforms it has front ends for (the
/// console's own among them), and its name among the processes sharing the database, under which
/// it records that it serves them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Served {
    pub instance: String,
    pub platforms: Vec<String>,
}

impl Served {
    pub fn new(instance: impl Into<String>, platforms: impl IntoIterator<Item = impl Into<String>>) -> Served {
        Served { instance: instance.into(), platforms: platforms.into_iter().map(Into::into).collect() }
    }

    fn names(&self) -> Vec<&str> {
        self.platforms.iter().map(String::as_str).collect()
    }
}

/// The kinds of scheduled items, as stored in `scheduler_failures.kind`.
pub mod kind {
    pub const TIMEOUT: &str = "timeout";
    pub const REMINDER: &str = "reminder";
    pub const CHALLENGE_EXPIRY: &str = "challenge-expiry";
    pub const LADDER: &str = "ladder";
    pub const LADDER_STANDINGS: &str = "ladder-standings";
    pub const TOURNAMENT_SIGNUP: &str = "tournament-signup";
    pub const TOURNAMENT_ANNOUNCE: &str = "tournament-announce";
    pub const HOUSEKEEPING: &str = "housekeeping";
}

impl Bot {
    /// Runs what is due at the clock's time in the chats of the platforms `served`: reminders at
    /// 20 % of the move time left, losses on time (a draw when the other side cannot possibly
    /// mate), challenge expiry, ladders' and tournaments' steps; each item in a unit of work of its
    /// own (see the module doc). The items of platforms nobody has served for a while are run too
    /// once they have waited as long, and their reminders dropped. Then records that `served`
    /// serves its platforms and expires the outbox rows of platforms nobody has served for a while.
    pub fn tick(&self, served: &Served) -> Response {
        let now = self.clock.now();
        let mut out = Response::default();
        // Platforms nobody served since `since`: their items due since then are taken here.
        let since = now - self.config.unserved_expiry_secs;
        let unserved = self.unserved(since, served);
        self.catch_up_due(now, served, &unserved);
        let items = match self.due_items(now, &served.names(), since, &unserved) {
            Ok(items) => items,
            Err(e) => {
                tracing::error!("scheduler: cannot read what is due: {e:?}");
                metrics::counter!("capabot_units_not_saved_total", "unit" => "scheduler-read").increment(1);
                return out;
            }
        };
        for batch in items.chunks(BATCH) {
            let r = match self.run_batch(batch, now) {
                Some(r) => r,
                // Nothing of the batch was saved: each item again in a unit of its own.
                None => batch.iter().fold(Response::default(), |mut out, &(kind, id)| {
                    let r = self.run_item(kind, id, now);
                    out.queued |= r.queued;
                    out.extend(r);
                    out
                }),
            };
            out.queued |= r.queued;
            out.extend(r);
        }
        // After the items: a game they ended has no reminder left to drop.
        self.drop_unserved_reminders(since, &unserved);
        self.serve(served, now);
        out
    }

    /// The platforms with scheduled work that no process has served since `since`, `served`'s
    /// own excepted (none when the database does not answer: the next tick asks again).
    fn unserved(&self, since: i64, served: &Served) -> Vec<String> {
        let read = self.store.conn().and_then(|conn| served::unserved_with_work(&conn, since, &served.names()));
        read.unwrap_or_else(|e| {
            tracing::error!("scheduler: cannot read which platforms nobody serves: {e}");
            Vec::new()
        })
    }

    /// Keys again by their real times the games of `served`'s and the `unserved` platforms whose
    /// entry in the index of what is due came due with nothing due ([`games::catch_up_due`]), in a
    /// unit of its own when there are any, so that [`Bot::due_items`] reads only what is due. A failure is logged: the
    /// next tick tries again, and meanwhile the reads only step over those entries.
    fn catch_up_due(&self, now: i64, served: &Served, unserved: &[String]) {
        let mut platforms = served.names();
        platforms.extend(unserved.iter().map(String::as_str));
        match self.store.conn().and_then(|conn| games::due_behind(&conn, now, &platforms)) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => return tracing::error!("scheduler: cannot read whose times moved on: {e}"),
        }
        let done = self.store.unit(|| {
            let conn = self.store.conn()?;
            games::catch_up_due(&conn, now, &platforms)
        });
        if let Err(e) = done {
            tracing::error!("scheduler: cannot key again the games whose times moved on: {e}");
        }
    }

    /// Drops the reminders due since `since` or before in the games of the `unserved` platforms:
    /// nobody can deliver them, and one delivered later would come too late to help. Each dropped
    /// reminder of a person (not of capabot's own moves) is counted and logged per platform.
    fn drop_unserved_reminders(&self, since: i64, unserved: &[String]) {
        if unserved.is_empty() {
            return;
        }
        let done = self.store.unit(|| {
            let conn = self.store.conn()?;
            let mut dropped = Vec::new();
            for platform in unserved {
                let mut n = 0;
                for row in games::due_reminders(&conn, since, &[platform.as_str()])? {
                    let to_move = row.player(to_act(&row));
                    if games::mark_reminded(&conn, row.id, row.ply)?
                        && !players::get(&conn, to_move)?.is_some_and(|p| p.is_ai)
                    {
                        n += 1;
                    }
                }
                if n > 0 {
                    dropped.push((platform.clone(), n));
                }
            }
            Ok(dropped)
        });
        match done {
            Ok(dropped) => {
                let hours = self.config.unserved_expiry_secs / 3600;
                for (platform, n) in dropped {
                    metrics::counter!("capabot_reminders_dropped_total", "platform" => platform.clone(), "reason" => "unserved")
                        .increment(n);
                    tracing::warn!(platform, reminders = n, "reminders dropped: unserved for {hours} hours");
                }
            }
            Err(e) => tracing::error!("scheduler: cannot drop the reminders nobody can deliver: {e}"),
        }
    }

    /// Runs `batch` in one unit of work. First as a whole, without savepoints: when every item
    /// succeeds (nearly always) the unit commits as it is. When one fails — or a transaction inside
    /// an item had to be rolled back alone — the whole unit is rolled back and the batch runs again
    /// with each item under its own savepoint ([`Bot::run_batch_apart`]). `None` when the unit did
    /// not commit (then nothing of it was saved).
    fn run_batch(&self, batch: &[(&'static str, i64)], now: i64) -> Option<Response> {
        let whole = self.try_unit_or_undo("scheduler", || {
            let (out, clean) = crate::store::without_savepoints(|| {
                let mut out = Response::default();
                for &(kind, id) in batch {
                    self.conn().ok()?.forget_kept();
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.item_work(kind, id, now)));
                    out.extend(r.ok()?.ok()?);
                }
                // Their earlier failures forgotten together (a statement each, one round trip an
                // item on PostgreSQL, before).
                schedule::clear_all(&*self.conn().ok()?, batch).ok()?;
                Some(out)
            });
            out.filter(|_| clean)
        });
        match whole {
            Ok(Some(r)) => Some(r),
            Ok(None) => self.run_batch_apart(batch, now),
            Err(_) => None,
        }
    }

    /// Runs `batch` in one unit of work, each item under its own savepoint: an item that fails is
    /// rolled back alone and its failure recorded in the unit. `None` when the unit did not commit
    /// (then nothing of it was saved).
    fn run_batch_apart(&self, batch: &[(&'static str, i64)], now: i64) -> Option<Response> {
        // Kept from the unit's last run (PostgreSQL runs a unit again after a conflict).
        let failed: RefCell<Vec<(&'static str, i64, String, bool)>> = RefCell::new(Vec::new());
        let done = self.try_unit("scheduler", || {
            failed.borrow_mut().clear();
            let mut out = Response::default();
            for &(kind, id) in batch {
                if let Ok(conn) = self.conn() {
                    conn.forget_kept();
                }
                match self.all_or_nothing(|| self.item(kind, id, now)) {
                    Ok(r) => out.extend(r),
                    Err(e) => {
                        let error = match e {
                            BotError::User(m) => m.render(self.config.lang),
                            BotError::Internal(e) => e,
                        };
                        // Under a savepoint too: a failure to record it undoes only the record.
                        let aside = self
                            .all_or_nothing(|| Ok(schedule::record_failure(&*self.conn()?, kind, id, &error, now)?));
                        match aside {
                            Ok(aside) => failed.borrow_mut().push((kind, id, error, aside)),
                            Err(e) => {
                                tracing::error!(kind, item = id, "scheduled item failed ({error}), not recorded: {e:?}")
                            }
                        }
                    }
                }
            }
            out
        });
        let r = done.ok()?;
        for (kind, id, error, aside) in failed.into_inner() {
            metrics::counter!("capabot_scheduler_item_failures_total", "kind" => kind).increment(1);
            if aside {
                metrics::counter!("capabot_scheduler_set_aside_total", "kind" => kind).increment(1);
                tracing::error!(kind, item = id, "scheduled item set aside after repeated failures: {error}");
            } else {
                tracing::warn!(kind, item = id, "scheduled item failed, tried again later: {error}");
            }
        }
        Some(r)
    }

    /// Records that `served` serves its platforms at `now`, then expires the outbox rows of the
    /// platforms nobody has served for [`BotConfig::unserved_expiry_secs`]: each expired row is
    /// marked failed (`expired`), counted and logged, never deleted unseen.
    fn serve(&self, served: &Served, now: i64) {
        let after = self.config.unserved_expiry_secs;
        let done = self.store.unit(|| {
            let conn = self.store.conn()?;
            served::beat(&conn, &served.instance, &served.names(), now)?;
            served::expire_unserved(&conn, now, after)
        });
        match done {
            Ok(expired) => {
                for (platform, n) in expired {
                    metrics::counter!("capabot_outbox_expired_total", "platform" => platform.clone(), "reason" => "unserved")
                        .increment(n as u64);
                    let hours = after / 3600;
                    tracing::warn!(platform, rows = n, "outbox rows expired: unserved for {hours} hours");
                }
            }
            Err(e) => tracing::error!("scheduler: cannot record the platforms served: {e}"),
        }
    }

    /// Every item of `platforms` due now, then those of the `unserved` platforms due since
    /// `since` (their reminders excepted: [`Bot::drop_unserved_reminders`]), in a fixed order
    /// (those set aside left out). Read outside any unit.
    fn due_items(
        &self,
        now: i64,
        platforms: &[&str],
        since: i64,
        unserved: &[String],
    ) -> Res<Vec<(&'static str, i64)>> {
        let conn = self.conn()?;
        let unserved: Vec<&str> = unserved.iter().map(String::as_str).collect();
        let mut items = Vec::new();
        let mut taken = 0;
        let mut add = |kind: &'static str, ids: Vec<i64>, theirs: Vec<i64>| -> Res<()> {
            let aside = schedule::set_aside_ids(&conn, kind)?;
            items.extend(ids.into_iter().filter(|id| !aside.contains(id)).map(|id| (kind, id)));
            let ours = items.len();
            items.extend(theirs.into_iter().filter(|id| !aside.contains(id)).map(|id| (kind, id)));
            taken += items.len() - ours;
            Ok(())
        };
        let ids = |games: Vec<games::GameRow>| games.iter().map(|g| g.id).collect::<Vec<_>>();
        add(
            kind::TIMEOUT,
            ids(games::due_timeouts(&conn, now, platforms)?),
            ids(games::due_timeouts(&conn, since, &unserved)?),
        )?;
        add(kind::REMINDER, ids(games::due_reminders(&conn, now, platforms)?), Vec::new())?;
        // Ladder challenges not accepted in time go before the ordinary expiry below.
        add(kind::LADDER, ladders::due(&conn, now, platforms)?, ladders::due(&conn, since, &unserved)?)?;
        add(kind::LADDER_STANDINGS, vec![0], Vec::new())?;
        add(
            kind::TOURNAMENT_SIGNUP,
            tournaments::signup_due(&conn, now, platforms)?,
            tournaments::signup_due(&conn, since, &unserved)?,
        )?;
        add(kind::TOURNAMENT_ANNOUNCE, vec![0], Vec::new())?;
        let expiries = |due: Vec<crate::store::challenges::Challenge>| due.iter().map(|c| c.id).collect::<Vec<_>>();
        add(
            kind::CHALLENGE_EXPIRY,
            expiries(challenges::due_expiries(&conn, now, platforms)?),
            expiries(challenges::due_expiries(&conn, since, &unserved)?),
        )?;
        add(kind::HOUSEKEEPING, vec![0], Vec::new())?;
        if taken > 0 {
            let hours = self.config.unserved_expiry_secs / 3600;
            tracing::warn!(items = taken, platforms = ?unserved, "scheduler: running the overdue items of platforms no process served for {hours} hours");
        }
        metrics::gauge!("capabot_scheduler_items_set_aside").set(schedule::count_set_aside(&conn)? as f64);
        Ok(items)
    }

    /// Runs one item in its own unit of work (a batch that could not commit, item by item); a
    /// failure is recorded (in a unit of its own) and after [`schedule::SET_ASIDE_AFTER`] tries
    /// the item is set aside.
    fn run_item(&self, kind: &'static str, id: i64, now: i64) -> Response {
        let failed: RefCell<Option<String>> = RefCell::new(None);
        let done = self.try_unit(kind, || {
            *failed.borrow_mut() = None;
            match self.all_or_nothing(|| self.item(kind, id, now)) {
                Ok(r) => r,
                Err(e) => {
                    *failed.borrow_mut() = Some(match e {
                        BotError::User(m) => m.render(self.config.lang),
                        BotError::Internal(e) => e,
                    });
                    Response::default()
                }
            }
        });
        let error = match done {
            Ok(r) => match failed.into_inner() {
                None => return r,
                Some(e) => e,
            },
            Err(e) => e.to_string(),
        };
        metrics::counter!("capabot_scheduler_item_failures_total", "kind" => kind).increment(1);
        let recorded = self.store.unit(|| schedule::record_failure(&*self.store.conn()?, kind, id, &error, now));
        match recorded {
            Ok(true) => {
                metrics::counter!("capabot_scheduler_set_aside_total", "kind" => kind).increment(1);
                tracing::error!(kind, item = id, "scheduled item set aside after repeated failures: {error}");
            }
            Ok(false) => tracing::warn!(kind, item = id, "scheduled item failed, tried again later: {error}"),
            Err(e) => tracing::error!(kind, item = id, "scheduled item failed ({error}) and cannot be recorded: {e}"),
        }
        Response::default()
    }

    /// The work of one item, inside its unit, its earlier failures forgotten when it went through.
    fn item(&self, kind: &str, id: i64, now: i64) -> Res<Response> {
        let out = self.item_work(kind, id, now)?;
        // Failures are counted in a row, for the tick's own items (id 0) as for the others: a
        // success forgets them (before, the tick's items kept every failure for good, so three over
        // months set one aside).
        schedule::clear(&*self.conn()?, kind, id)?;
        Ok(out)
    }

    /// The work of one item, inside its unit ([`Bot::item`] without forgetting its failures: a
    /// batch that went through whole forgets its items' together).
    fn item_work(&self, kind: &str, id: i64, now: i64) -> Res<Response> {
        Ok(match kind {
            kind::TIMEOUT => self.timeout_item(id, now)?,
            kind::REMINDER => self.reminder_item(id, now)?,
            kind::LADDER => self.ladder_step(id)?,
            kind::LADDER_STANDINGS => self.ladder_standings_owed()?,
            kind::TOURNAMENT_SIGNUP => self.tournament_signup_step(id)?,
            kind::TOURNAMENT_ANNOUNCE => self.tournament_owed()?,
            kind::CHALLENGE_EXPIRY => self.expiry_item(id, now)?,
            kind::HOUSEKEEPING => {
                let conn = self.conn()?;
                // The claims are swept a few thousand a tick, from where the last sweep stopped.
                events::prune(&conn, now)?;
                // Delivered and failed outbox rows are kept a week for the operator's counts.
                crate::store::outbox::prune(&conn, now)?;
                Response::default()
            }
            other => return Err(BotError::Internal(format!("unknown scheduled item kind {other}"))),
        })
    }

    /// A game whose move time ran out: lost on time (or drawn), or in secret-bomb chess with no
    /// bomb chosen yet, a bomb at random.
    fn timeout_item(&self, id: i64, now: i64) -> Res<Response> {
        let conn = self.conn()?;
        let mut out = Response::default();
        let Some(row) = games::due_timeout(&conn, id, now)? else { return Ok(out) };
        // What the game's chat reads is in its language.
        let lang = self.lang_in(&game_scope(&row));
        let _lang = crate::i18n::scoped(lang);
        // A relocation game's setup phase: no swap chosen in time counts as "no swap".
        if let Some(color) = row.setup_chooser() {
            return self.no_swap_in_time(&conn, &row, color);
        }
        // Secret-bomb chess: no bomb chosen by the first move's deadline is a bomb at random.
        if self.bomb_at_random(&conn, &row, &mut out)? {
            return Ok(out);
        }
        let turn = turn_of_fen(&row.fen);
        if row.ply < 2 && !self.is_competition_game(row.id)? {
            // Before both sides have moved, running out of time ends the game as resigning then
            // does: aborted, without a result or a rating change (a ladder's or a tournament's
            // game is lost on time all the same).
            // Both players are named and notified below: read at once (as the game's end reads them).
            players::read_pair(&conn, &row.platform, row.white, row.black)?;
            if games::abort(&conn, row.id, row.ply, now)? {
                let name = self.name_of(&conn, row.player(turn))?;
                let text = crate::tl!(lang, "game-aborted-timeout", id = row.id, name = name);
                out.replies.push(self.to_both_players(&conn, &row, text)?);
            }
            return Ok(out);
        }
        let winner = turn.other();
        let o = if self.current_position(&conn, &row)?.has_insufficient_material(winner) {
            Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial)
        } else {
            Outcome::Decisive { winner, reason: WinReason::Timeout }
        };
        let mut notes = Vec::new();
        let mut on_end = |c: &crate::store::Connection, r: &games::GameRow| self.on_game_end(c, r, &mut notes);
        if games::finish(&conn, row.id, row.ply, o, now, &mut on_end)? {
            let loser = self.name_of(&conn, row.player(turn))?;
            let end = with_lang(lang, || self.end_text(&conn, &row, o))?;
            let mut text = crate::tl!(lang, "timeout", id = row.id, name = loser, end = end);
            for n in &notes {
                text.push_str(&format!("\n{n}"));
            }
            out.replies.push(self.to_both_players(&conn, &row, text)?);
            self.at_game_end(&conn, row.id, &mut out.replies);
        }
        Ok(out)
    }

    /// A relocation game whose side `color` did not choose its swap in time: "no swap" counts for
    /// it, said in the game's chat, and the setup goes on as after that choice (White's turn to
    /// choose, on the clock, or the game begins).
    fn no_swap_in_time(&self, conn: &crate::store::Conn<'_>, row: &games::GameRow, color: Color) -> Res<Response> {
        let mut out = Response::default();
        let name = self.name_of(conn, row.player(color))?;
        let text = t!("setup-timeout", id = row.id, name = name, color = color_word(color));
        let p = self.effective_settings(&game_scope(row))?.hint;
        match self.swap_as(row.id, color, 0, &p) {
            Ok(r) => {
                out.replies.push(self.reply_game(row, text));
                out.extend(r);
            }
            // The side chose after all, just now: nothing is owed.
            Err(BotError::User(_)) => {}
            Err(e) => return Err(e),
        }
        Ok(out)
    }

    /// `text` in `row`'s chat, notifying both its players (where their platform reaches them).
    fn to_both_players(&self, conn: &crate::store::Conn<'_>, row: &games::GameRow, text: String) -> Res<Reply> {
        let mut r = self.reply_game(row, text);
        r.notify = self.notify_of(conn, &row.platform, row.white)?;
        r.notify.extend(self.notify_of(conn, &row.platform, row.black)?);
        Ok(r)
    }

    /// The position of `row`, just read in this unit (so the game's own): its stored FEN read with
    /// its variant — everything that decides whether a side can still mate is in it (the pieces; a
    /// Capatomic position's irradiated squares and missile rights are in its FEN too, and the
    /// secret bombs, which are not, do not count there). Replayed from the moves (with the
    /// consistency check) only when the FEN does not read.
    fn current_position(&self, conn: &crate::store::Conn<'_>, row: &games::GameRow) -> Res<Position> {
        match fen::parse_position(game_variant(row)?, &row.fen) {
            Ok(p) => Ok(p),
            Err(_) => Ok(self.load_game(conn, row)?.position().clone()),
        }
    }

    /// A reminder to the player to move, once per move.
    fn reminder_item(&self, id: i64, now: i64) -> Res<Response> {
        let conn = self.conn()?;
        let mut out = Response::default();
        let Some(row) = games::due_reminder(&conn, id, now)? else { return Ok(out) };
        if !games::mark_reminded(&conn, row.id, row.ply)? {
            return Ok(out);
        }
        let turn = to_act(&row);
        let p = row.player(turn);
        if players::get(&conn, p)?.is_some_and(|p| p.is_ai) {
            return Ok(out);
        }
        let left = (row.deadline.unwrap_or(now) - now).max(0);
        let settings = self.effective_settings(&game_scope(&row))?;
        let lang = self.player_lang(p, settings.lang);
        let name = self.name_of(&conn, p)?;
        let (hours, minutes) = (left / 3600, left % 3600 / 60);
        let text = with_lang(lang, || {
            let color = color_word(turn);
            match row.status {
                // In the setup phase the reminder is to choose a swap, with how to.
                games::Status::Setup => t!(
                    "reminder-setup",
                    id = row.id,
                    name = name,
                    color = color,
                    p = settings.hint.as_str(),
                    hours = hours,
                    minutes = minutes
                ),
                _ => t!("reminder", id = row.id, name = name, color = color, hours = hours, minutes = minutes),
            }
        });
        // To the player's direct messages (the game's chat where that cannot be).
        out.replies.extend(self.direct_notice(&conn, &row, p, text, true)?);
        Ok(out)
    }

    /// An open challenge whose time is up: closed, its challenger told.
    fn expiry_item(&self, id: i64, now: i64) -> Res<Response> {
        let conn = self.conn()?;
        let mut out = Response::default();
        let Some(c) = challenges::due_expiry(&conn, id, now)? else { return Ok(out) };
        if challenges::close(&conn, c.id, "expired", None)? {
            let target = challenge_target(&c);
            let lang = target.chat().map_or(self.config.lang, |s| self.lang_in(s));
            let name = match c.challenged {
                Some(them) => self.name_of(&conn, them)?,
                None => String::new(),
            };
            let variant = super::commands::variant_title(&c.variant);
            let text = crate::tl!(
                lang,
                "challenge-expired-notice",
                id = c.id,
                open = if c.challenged.is_none() { "yes" } else { "no" },
                variant = variant,
                name = name
            );
            let mut r = Reply::new(target, text);
            r.notify = self.notify_of(&conn, &c.platform, c.challenger)?;
            out.replies.push(r);
        }
        Ok(out)
    }

    /// The failed scheduled items, set aside or not (for `capabot scheduler list`).
    pub fn scheduler_failures(&self) -> Result<Vec<schedule::Failed>, crate::store::StoreError> {
        schedule::list(&*self.store.conn()?)
    }

    /// Puts set-aside items back into the scheduler's hands (one, or all): returns how many.
    pub fn scheduler_retry(&self, item: Option<(&str, i64)>) -> Result<usize, crate::store::StoreError> {
        self.store.unit(|| schedule::retry(&*self.store.conn()?, item))
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::fen;
    use crate::rules::{Color, Game, Position, Role, VARIANTS};
    use rand::{RngExt, SeedableRng};

    /// A loss on time decides whether the winner can still mate from the stored FEN read with the
    /// game's variant ([`super::Bot::current_position`]), not from the moves replayed: in every
    /// variant — Capatomic's radiation and missiles, the atomic family's explosions and secret
    /// bombs (not in the FEN) included —, at every position of random games played to their end,
    /// the position read back from its FEN says what the played one says, for both sides; and the
    /// games reach positions where a side cannot mate, so both answers are checked.
    #[test]
    fn a_stored_fen_decides_a_timeouts_draw_as_the_replayed_game_does() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(45);
        let mut insufficient = 0;
        for v in VARIANTS {
            for _ in 0..30 {
                let mut start = Position::start(v);
                if v.bombs {
                    // Each side's bomb under its first knight (the FEN does not say where).
                    let bomb = |c: Color| start.pieces(c, Role::Knight).next();
                    start = start.with_bombs([bomb(Color::White), bomb(Color::Black)]).unwrap();
                }
                let mut game = Game::new(start);
                for _ in 0..400 {
                    let pos = game.position();
                    let read = fen::parse_position(v, &fen::write(pos)).unwrap();
                    for c in Color::ALL {
                        let (played, stored) = (pos.has_insufficient_material(c), read.has_insufficient_material(c));
                        assert_eq!(played, stored, "{}: {} for {c:?}", v.name, fen::write(pos));
                        insufficient += usize::from(played);
                    }
                    let moves = pos.legal_moves();
                    if moves.is_empty() || pos.outcome().is_some() {
                        break;
                    }
                    let m = moves[rng.random_range(0..moves.len())];
                    assert!(game.play(m));
                }
            }
        }
        assert!(insufficient > 100, "only {insufficient} positions where a side cannot mate");
    }
}

//! Rank ladder commands: standings, joining and leaving, ladder challenges (offered as ordinary
//! challenges so that `accept`/`decline` answer them), administration (create, remove, undo,
//! seasons), the result of a ladder game (inside the end hook's transaction), and
//! the scheduler's forfeits of challenges not accepted in time.
//!
//! After every change that moves places, the standings go to the chat where the ladder was created
//! as a reply under the slot `ladder:{id}:standings`, so front ends that can edit keep one message.

use super::{Bot, BotError, Ctx, Res, choice, playable_variant, short, user, variant_named};
use crate::bot::command::{Command, LadderCmd};
use crate::bot::io::{ChoiceStyle, Reply, Response, Scope, Slot, Target};
use crate::community::PlayerId;
use crate::community::ladder::{
    ChallengeResult, ChallengeStatus, Departure, Effect, Ladder, LadderError, LadderSettings, ResultNo,
};
use crate::i18n::with_lang;
use crate::rules::{Color, Outcome, WinReason};
use crate::store::Connection;
use crate::store::challenges::{self, NewChallenge};
use crate::store::games::{GameRow, Status};
use crate::store::ladders::{self, LadderId, LadderInfo};
use crate::store::players::Player;
use crate::store::{Conn, events, games, players};
use crate::{msg, t};

/// How an ordinary challenge offering a ladder challenge is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::bot) enum Answer {
    Accept,
    Decline,
    /// The challenger takes it back.
    Withdraw,
}

fn standings_slot(id: LadderId) -> String {
    format!("ladder:{id}:standings")
}

fn days_text(n: impl Into<i64>) -> String {
    t!("n-days", count = n.into())
}

fn places_text(n: impl Into<i64>) -> String {
    t!("n-places", count = n.into())
}

impl Bot {
    pub(super) fn ladder_cmd(&self, cx: &Ctx<'_>, cmd: LadderCmd) -> Res<Response> {
        let Some(community) = cx.scope().community.clone() else {
            return user(msg!("ladder-no-community"));
        };
        let admin_only = matches!(
            cmd,
            LadderCmd::Create { .. } | LadderCmd::Remove(_) | LadderCmd::Undo { .. } | LadderCmd::SeasonClose(_)
        );
        if admin_only && !cx.inp.author_is_admin {
            return user(msg!("ladder-admins-only"));
        }
        let accept = matches!(cmd, LadderCmd::Accept(_));
        let conn = self.conn()?;
        let now = self.clock.now();
        let platform = cx.scope().platform.clone();
        match cmd {
            LadderCmd::Show(Some(v)) => {
                let info = self.pick_ladder(&conn, cx, &community, Some(&v))?;
                Ok(cx.say(self.standings_text(&conn, &info, cx.p())?))
            }
            LadderCmd::Show(None) => {
                let all = ladders::list(&conn, &platform, &community)?;
                if all.is_empty() {
                    return user(msg!("ladder-none-yet", p = cx.p()));
                }
                let mut texts = Vec::new();
                for info in &all {
                    texts.push(self.standings_text(&conn, info, cx.p())?);
                }
                Ok(cx.say(texts.join("\n\n")))
            }
            LadderCmd::Create { variant, days, reach, wait } => {
                let v = playable_variant(&variant)?;
                let d = LadderSettings::default();
                let settings = LadderSettings {
                    days_per_move: days.unwrap_or(d.days_per_move),
                    max_places_up: reach.unwrap_or(d.max_places_up),
                    accept_days: wait.unwrap_or(d.accept_days),
                };
                let Some(id) = ladders::create(&conn, &platform, &community, v.name, settings, now)? else {
                    return user(msg!("ladder-exists", variant = super::variant_title(v.name)));
                };
                ladders::set_chat(&conn, id, &cx.scope().chat, cx.scope().thread.as_deref())?;
                Ok(cx.say(t!(
                    "ladder-created",
                    variant = super::variant_title(v.name),
                    days = days_text(settings.days_per_move),
                    reach = places_text(settings.max_places_up as i64),
                    wait = days_text(settings.accept_days),
                    p = cx.p()
                )))
            }
            LadderCmd::Join(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                let me = self.me(&conn, cx)?;
                let place = self.ladder_op(&conn, &info, |l| l.join(me.id, now))?;
                let mut out = cx.say(t!(
                    "ladder-joined",
                    name = me.name.as_str(),
                    ladder = self.ladder_name(&info),
                    place = place
                ));
                out.replies.push(self.standings_reply(&conn, &info)?);
                Ok(out)
            }
            LadderCmd::Leave(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                let me = self.me(&conn, cx)?;
                drop(conn);
                self.ladder_departure(cx, &info, &me, false)
            }
            LadderCmd::Remove(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                let Some(who) = cx.inp.mentions.first() else {
                    return user(msg!("ladder-remove-whom", p = cx.p()));
                };
                let Some(p) = players::find(&conn, &platform, &who.id)? else {
                    return user(msg!("ladder-player-not-on", name = short(&who.name)));
                };
                drop(conn);
                self.ladder_departure(cx, &info, &p, true)
            }
            LadderCmd::Challenge(v) => self.ladder_challenge(cx, &conn, &community, v.as_deref()),
            LadderCmd::Accept(v) | LadderCmd::Decline(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                let Some(me) = players::find(&conn, &platform, &cx.inp.author.id)? else {
                    return user(LadderError::NoChallengeToAnswer.msg(|_| String::new()));
                };
                let ladder = self.load_ladder(&conn, info.id)?;
                let pending = |by_me: bool| {
                    ladder.challenges().iter().find(move |c| {
                        c.status == ChallengeStatus::Pending
                            && if by_me { c.challenger == me.id } else { c.challenged == me.id }
                    })
                };
                let Some(c) = pending(false) else {
                    // The challenger answering their own challenge: how to take it back.
                    if let Some(own) = pending(true) {
                        let name = self.name_of(&conn, own.challenged)?;
                        return user(msg!("ladder-no-challenge-own", name = name, p = cx.p()));
                    }
                    return user(LadderError::NoChallengeToAnswer.msg(|_| String::new()));
                };
                let linked = ladders::linked_challenge(&conn, info.id, ladder.season(), c.id)?;
                drop(conn);
                self.ladder_answer(cx, &info, linked, if accept { Answer::Accept } else { Answer::Decline })
            }
            LadderCmd::Withdraw(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                drop(conn);
                // The ladder says when there is nothing to withdraw; its challenge's offer is closed too.
                self.ladder_answer(cx, &info, None, Answer::Withdraw)
            }
            LadderCmd::Undo { event, reason } => {
                let info = self.pick_ladder(&conn, cx, &community, None)?;
                self.ladder_op(&conn, &info, |l| l.undo(event, &reason, now))?;
                let ladder = self.load_ladder(&conn, info.id)?;
                // Which result it was, as the players know it (a number alone is easily mistyped).
                let what = match ladder.result_of(event) {
                    Some((challenger, challenged, result, forfeit)) => t!(
                        "ladder-undone-what",
                        challenger = self.name_of(&conn, challenger)?,
                        challenged = self.name_of(&conn, challenged)?,
                        result = match (result, forfeit) {
                            (ChallengeResult::ChallengerWon, false) => "challenger",
                            (ChallengeResult::ChallengedWon, false) => "challenged",
                            (ChallengeResult::ChallengerWon, true) => "challenger-forfeit",
                            (ChallengeResult::ChallengedWon, true) => "challenged-forfeit",
                            (ChallengeResult::Draw, _) => "draw",
                        }
                    ),
                    None => String::new(),
                };
                let mut text = t!(
                    "ladder-undone",
                    event = event,
                    ladder = self.ladder_name(&info),
                    what = what,
                    reason = short(reason.trim())
                );
                // Only the ladder forgets the result: the game and its rating changes stand.
                if let Some(game) = ladder.result_game(event) {
                    text.push(' ');
                    text.push_str(&t!("ladder-undone-game-stays", id = game));
                }
                let mut out = cx.say(text);
                out.replies.push(self.standings_reply(&conn, &info)?);
                Ok(out)
            }
            LadderCmd::SeasonClose(v) => {
                let info = self.pick_ladder(&conn, cx, &community, v.as_deref())?;
                let before = self.load_ladder(&conn, info.id)?;
                let closed = ladders::close_season(&conn, info.id, now)?;
                for c in before.challenges().iter().filter(|c| c.status.is_open()) {
                    self.close_linked(&conn, &info, Some(c.id), "cancelled")?;
                }
                let mut out = cx.say(t!(
                    "ladder-season-closed",
                    number = closed.number,
                    ladder = self.ladder_name(&info),
                    p = cx.p(),
                    next = closed.number + 1
                ));
                let info = ladders::info(&conn, info.id)?.unwrap_or(info);
                out.replies.push(self.standings_reply(&conn, &info)?);
                Ok(out)
            }
            LadderCmd::Season { number, variant } => {
                let info = self.pick_ladder(&conn, cx, &community, variant.as_deref())?;
                let ladder = self.load_ladder(&conn, info.id)?;
                let Some(s) = ladder.archive().iter().find(|s| s.number == number) else {
                    return user(msg!(
                        "ladder-no-season",
                        ladder = super::variant_title(&info.variant),
                        number = number,
                        current = ladder.season()
                    ));
                };
                let mut text = t!("ladder-season-head", ladder = self.ladder_name(&info), number = number);
                for (i, p) in s.standings.iter().enumerate() {
                    text.push_str(&format!("\n{}. {}", i + 1, self.name_of(&conn, *p)?));
                }
                if s.standings.is_empty() {
                    text.push('\n');
                    text.push_str(&t!("ladder-season-empty"));
                }
                Ok(cx.say(text))
            }
        }
    }

    /// The community's ladders for a front end's picker, as (name shown, value to send): those
    /// whose variant (name or shown name) starts with `typed` first, case-insensitive, then those
    /// containing it; at most [`super::moves::MAX_SUGGESTIONS`]. Empty outside a community.
    pub fn suggest_ladders(&self, scope: &Scope, typed: &str) -> Vec<(String, String)> {
        let Some(community) = scope.community.as_deref() else { return vec![] };
        let all = match self.conn().and_then(|conn| Ok(ladders::list(&conn, &scope.platform, community)?)) {
            Ok(all) => all,
            Err(e) => {
                tracing::warn!("ladder suggestions failed: {e}");
                return vec![];
            }
        };
        let want = typed.trim().to_lowercase();
        let mut named: Vec<(String, String)> =
            all.iter().map(|info| (self.ladder_name(info), info.variant.clone())).collect();
        named.sort();
        let fits = |(shown, value): &(String, String), test: &dyn Fn(&str) -> bool| {
            test(&shown.to_lowercase()) || test(&value.to_lowercase())
        };
        let (mut first, mut rest): (Vec<_>, Vec<_>) = named
            .into_iter()
            .filter(|pair| fits(pair, &|s| s.contains(&want)))
            .partition(|pair| fits(pair, &|s| s.starts_with(&want)));
        first.append(&mut rest);
        first.truncate(super::moves::MAX_SUGGESTIONS);
        first
    }

    fn ladder_name(&self, info: &LadderInfo) -> String {
        super::variant_text(&info.variant)
    }

    fn load_ladder(&self, conn: &Connection, id: LadderId) -> Res<Ladder> {
        ladders::load(conn, id)?.ok_or_else(|| crate::bot::BotError::Internal(format!("ladder {id} vanished")))
    }

    /// The ladder a command is about: the variant's, the community's only one, or the chat's
    /// default variant's.
    fn pick_ladder(&self, conn: &Connection, cx: &Ctx<'_>, community: &str, variant: Option<&str>) -> Res<LadderInfo> {
        let platform = &cx.scope().platform;
        if let Some(v) = variant {
            let v = variant_named(v)?;
            return match ladders::find(conn, platform, community, v.name)? {
                Some(l) => Ok(l),
                None => user(msg!("ladder-no-such", variant = super::variant_title(v.name))),
            };
        }
        let mut all = ladders::list(conn, platform, community)?;
        match all.len() {
            0 => user(msg!("ladder-none-yet", p = cx.p())),
            1 => Ok(all.remove(0)),
            _ => match all.iter().position(|l| l.variant == cx.settings.default_variant) {
                Some(i) => Ok(all.remove(i)),
                None => {
                    let names: Vec<&str> = all.iter().map(|l| l.variant.as_str()).collect();
                    user(msg!("ladder-which", names = names.join(", ")))
                }
            },
        }
    }

    /// Runs a ladder operation in its own transaction; a refusal becomes the user's message with names.
    fn ladder_op<T>(
        &self,
        conn: &Conn<'_>,
        info: &LadderInfo,
        op: impl FnOnce(&mut Ladder) -> Result<T, LadderError>,
    ) -> Res<T> {
        match ladders::update(conn, info.id, op)? {
            Ok(t) => Ok(t),
            Err(e) => user(e.msg(|p| name(conn, p).unwrap_or_else(|_| t!("player-fallback", id = p)))),
        }
    }

    /// Closes the ordinary challenge offering ladder challenge `lc` (if any, and still open).
    fn close_linked(&self, conn: &Connection, info: &LadderInfo, lc: Option<u32>, status: &str) -> Res<()> {
        let Some(lc) = lc else { return Ok(()) };
        let season = ladders::info(conn, info.id)?.map_or(info.season, |i| i.season);
        for s in [season, info.season] {
            if let Some(ch) = ladders::linked_challenge(conn, info.id, s, lc)? {
                challenges::close(conn, ch, status, None)?;
                return Ok(());
            }
        }
        Ok(())
    }

    fn standings_text(&self, conn: &Connection, info: &LadderInfo, p: &str) -> Res<String> {
        let ladder = self.load_ladder(conn, info.id)?;
        let s = ladder.settings();
        let mut text = t!(
            "ladder-standings-head",
            ladder = self.ladder_name(info),
            season = ladder.season(),
            days = days_text(s.days_per_move),
            reach = places_text(s.max_places_up as i64),
            wait = days_text(s.accept_days)
        );
        let scope = crate::store::ratings::Scope::community(&info.platform, &info.community_id);
        let now = self.clock.now();
        for (i, &pl) in ladder.standings().iter().enumerate() {
            // The community rating in the ladder's variant, as of today ("1500?" before any rated game).
            let rating = crate::store::ratings::get(conn, pl, &scope, &info.variant)?
                .map_or_else(crate::community::rating::Rating::default, |r| r.rating.at(r.last_game_at, now));
            text.push_str(&format!("\n{}. {} ({})", i + 1, name(conn, pl)?, rating.display()));
            if let Some(c) = ladder.open_challenge_of(pl) {
                let other = if c.challenger == pl { c.challenged } else { c.challenger };
                let dir = if c.challenger == pl { "challenges" } else { "challenged" };
                let state = match (c.status, c.game) {
                    (ChallengeStatus::Accepted, Some(g)) => t!("ladder-state-game", id = g),
                    (ChallengeStatus::Accepted, None) => t!("ladder-state-accepted"),
                    _ => t!("ladder-state-waiting"),
                };
                text.push_str(&t!("ladder-standings-challenge", dir = dir, name = name(conn, other)?, state = state));
            }
        }
        if ladder.standings().is_empty() {
            text.push('\n');
            text.push_str(&t!("ladder-standings-empty", p = p, variant = info.variant.as_str()));
        }
        Ok(text)
    }

    /// The standings message of a ladder, to the chat it was created in, under its slot.
    pub(in crate::bot) fn standings_reply(&self, conn: &Connection, info: &LadderInfo) -> Res<Reply> {
        let (chat, thread) = ladders::chat(conn, info.id)?.unwrap_or_default();
        let scope = Scope {
            platform: info.platform.clone(),
            community: Some(info.community_id.clone()),
            chat,
            thread,
            ..Scope::default()
        };
        let settings = self.effective_settings(&scope)?;
        let text = with_lang(settings.lang, || self.standings_text(conn, info, &settings.hint))?;
        let mut r = Reply::new(Target::Chat(scope), text);
        let key = standings_slot(info.id);
        r.slot = Some(Slot { previous: events::slot(conn, &info.platform, &key)?, key });
        Ok(r)
    }

    fn ladder_challenge(&self, cx: &Ctx<'_>, conn: &Conn<'_>, community: &str, variant: Option<&str>) -> Res<Response> {
        let now = self.clock.now();
        let info = self.pick_ladder(conn, cx, community, variant)?;
        let Some(them) = cx.inp.mentions.first() else {
            return user(msg!("ladder-challenge-whom", p = cx.p()));
        };
        let me = self.me(conn, cx)?;
        let name = if them.name.is_empty() { them.id.as_str() } else { them.name.as_str() };
        let other = players::ensure(conn, &cx.scope().platform, &them.id, &short(name), now)?;
        let lc = self.ladder_op(conn, &info, |l| l.challenge_player(me.id, other.id, now))?;
        let ladder = self.load_ladder(conn, info.id)?;
        let c =
            ladder.challenge(lc).cloned().ok_or_else(|| crate::bot::BotError::Internal("challenge vanished".into()))?;
        let v = variant_named(&info.variant)?;
        let ch = challenges::create(
            conn,
            &NewChallenge {
                platform: &cx.scope().platform,
                community_id: Some(community),
                rated: crate::store::settings::rated_games(conn, &cx.scope().platform, community)?
                    != crate::store::settings::RatedGames::Never,
                chat_id: &cx.scope().chat,
                challenger: me.id,
                challenged: Some(other.id),
                variant: v.name,
                setup: None,
                days_per_move: Some(info.settings.days_per_move),
                color: "random",
                expires_at: c.accept_by,
                interaction_only: false,
            },
            now,
        )?;
        ladders::link_challenge(conn, ch, info.id, ladder.season(), lc)?;
        let p = cx.p();
        let wait = days_text(info.settings.accept_days);
        let mut r = self.reply_in(
            cx.scope(),
            t!(
                "ladder-challenge",
                id = ch,
                name = me.name.as_str(),
                place = ladder.place_of(me.id).unwrap_or(0),
                other = other.name.as_str(),
                other_place = ladder.place_of(other.id).unwrap_or(0),
                variant = super::variant_title(v.name),
                p = p,
                wait = wait
            ),
        );
        r.notify = self.notify_of(conn, &cx.scope().platform, other.id)?;
        let them = r.notify.first().cloned();
        r.choices = vec![
            choice(&t!("button-accept"), Command::Accept(Some(ch)), ChoiceStyle::Primary, them.clone(), p),
            choice(&t!("button-decline"), Command::Decline(Some(ch)), ChoiceStyle::Secondary, them, p),
        ];
        Ok(Response::one(r))
    }

    /// `who` leaves the ladder (or an administrator removes them). Leaving escapes no challenge: a
    /// ladder game under way is resigned first (its end, ratings and ladder line are any finished
    /// game's), a game still in its setup is aborted, and a challenge open otherwise counts as lost
    /// by them; the other side is told and pinged.
    fn ladder_departure(&self, cx: &Ctx<'_>, info: &LadderInfo, who: &Player, removed: bool) -> Res<Response> {
        let now = self.clock.now();
        let depart = |l: &mut Ladder| if removed { l.remove(who.id, now) } else { l.leave(who.id, now) };
        let mut conn = self.conn()?;
        let game = self.load_ladder(&conn, info.id)?.open_challenge_of(who.id).and_then(|c| c.game);
        let row = game.map(|g| games::get(&conn, g)).transpose()?.flatten();
        let mut out = Response::default();
        if let Some(row) = row.as_ref().filter(|r| r.status == Status::Active) {
            drop(conn);
            let c = super::mover_color(row, who.id);
            let resigned = Outcome::Decisive { winner: c.other(), reason: WinReason::Resignation };
            out = self.finish_with(cx, row, resigned, row.player(c.other()))?;
            conn = self.conn()?;
        }
        let departure = self.ladder_op(&conn, info, depart)?;
        let ladder = self.ladder_name(info);
        let name = who.name.as_str();
        let mut text = if removed {
            t!("ladder-removed", name = name, ladder = ladder)
        } else {
            t!("ladder-left", name = name, ladder = ladder)
        };
        let mut notify = Vec::new();
        match departure {
            Departure::Free => {}
            Departure::Withdrawn(lc) => {
                self.close_linked(&conn, info, Some(lc), "cancelled")?;
                let l = self.load_ladder(&conn, info.id)?;
                let other = l.challenge(lc).map_or(who.id, |c| c.challenged);
                text.push(' ');
                text.push_str(&t!("ladder-left-withdrawn", name = name, other = self.name_of(&conn, other)?));
                notify = self.notify_of(&conn, &info.platform, other)?;
            }
            Departure::Forfeited(lc, effect) => {
                self.close_linked(&conn, info, Some(lc), "declined")?;
                let l = self.load_ladder(&conn, info.id)?;
                let c = l.challenge(lc).cloned().ok_or_else(|| BotError::Internal("challenge vanished".into()))?;
                let other = if c.challenger == who.id { c.challenged } else { c.challenger };
                text.push(' ');
                text.push_str(&t!(
                    "ladder-left-forfeit",
                    name = name,
                    other = self.name_of(&conn, other)?,
                    effect = self.effect_line(&conn, effect, c.challenger, c.challenged)?
                ));
                tag_result(&mut text, l.result_number(lc));
                // A game still in its setup (no move yet) ends with the challenge.
                if let Some(row) = row.filter(|r| r.status == Status::Setup)
                    && games::abort(&conn, row.id, row.ply, now)?
                {
                    text.push('\n');
                    text.push_str(&t!("game-aborted", id = row.id, name = name));
                }
                notify = self.notify_of(&conn, &info.platform, other)?;
            }
        }
        let mut r = self.reply_in(cx.scope(), text);
        r.notify = notify;
        out.replies.push(r);
        // One standings message, also when the resigned game's end owes one.
        ladders::mark_standings_due(&conn, info.id)?;
        Ok(out)
    }

    /// `accept`/`decline` of an ordinary challenge that offers a ladder challenge; `None` for others.
    pub(in crate::bot) fn ladder_via_challenge(
        &self,
        cx: &Ctx<'_>,
        challenge: i64,
        answer: Answer,
    ) -> Res<Option<Response>> {
        let conn = self.conn()?;
        let Some((lid, _, _)) = ladders::challenge_link(&conn, challenge)? else { return Ok(None) };
        let Some(info) = ladders::info(&conn, lid)? else { return Ok(None) };
        drop(conn);
        self.ladder_answer(cx, &info, Some(challenge), answer).map(Some)
    }

    fn ladder_answer(&self, cx: &Ctx<'_>, info: &LadderInfo, linked: Option<i64>, answer: Answer) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let me = self.me(&conn, cx)?;
        let name = self.ladder_name(info);
        match answer {
            Answer::Withdraw => {
                let lc = self.ladder_op(&conn, info, |l| l.withdraw(me.id))?;
                self.close_linked(&conn, info, Some(lc), "cancelled")?;
                Ok(cx.say(t!("ladder-withdrawn", name = me.name.as_str(), ladder = name)))
            }
            Answer::Decline => {
                let (lc, effect) = self.ladder_op(&conn, info, |l| l.decline(me.id, now))?;
                self.close_linked(&conn, info, Some(lc), "declined")?;
                let ladder = self.load_ladder(&conn, info.id)?;
                let challenger = ladder.challenge(lc).map_or(me.id, |c| c.challenger);
                let mut r = self.reply_in(
                    cx.scope(),
                    t!(
                        "ladder-declined",
                        name = me.name.as_str(),
                        ladder = name,
                        other = self.name_of(&conn, challenger)?,
                        effect = self.effect_line(&conn, effect, challenger, me.id)?
                    ),
                );
                tag_result(&mut r.text, ladder.result_number(lc));
                r.notify = self.notify_of(&conn, &cx.scope().platform, challenger)?;
                let mut out = Response::one(r);
                out.replies.push(self.standings_reply(&conn, info)?);
                Ok(out)
            }
            Answer::Accept => {
                let lc = self.ladder_op(&conn, info, |l| l.accept(me.id, now))?;
                let ladder = self.load_ladder(&conn, info.id)?;
                let c = ladder
                    .challenge(lc)
                    .cloned()
                    .ok_or_else(|| crate::bot::BotError::Internal("challenge vanished".into()))?;
                if let Some(ch) = linked {
                    challenges::close(&conn, ch, "accepted", None)?;
                }
                let challenger = players::get(&conn, c.challenger)?
                    .ok_or_else(|| crate::bot::BotError::Internal("challenger vanished".into()))?;
                let v = variant_named(&info.variant)?;
                let rated = match &cx.scope().community {
                    Some(c) => {
                        crate::store::settings::rated_games(&conn, &cx.scope().platform, c)?
                            != crate::store::settings::RatedGames::Never
                    }
                    None => true,
                };
                drop(conn);
                let days = Some(info.settings.days_per_move);
                let mut out = self.start_game(cx, v, None, days, "random", &challenger, &me, None, linked, rated)?;
                let conn = self.conn()?;
                let game = games::latest_in_chat(&conn, &cx.scope().platform, &cx.scope().chat, me.id)?
                    .filter(|g| g.created_at == now && (g.white == challenger.id || g.black == challenger.id));
                if let Some(g) = game {
                    self.ladder_op(&conn, info, |l| l.attach_game(lc, g.id))?;
                }
                let head = self.reply_in(
                    cx.scope(),
                    t!("ladder-accepted", name = me.name.as_str(), ladder = name, other = challenger.name.as_str()),
                );
                out.replies.insert(0, head);
                Ok(out)
            }
        }
    }

    /// "bob takes place 2 from alice." or "The standings stay as they are."
    fn effect_line(
        &self,
        conn: &Connection,
        effect: Effect,
        challenger: PlayerId,
        challenged: PlayerId,
    ) -> Res<String> {
        Ok(match effect {
            Effect::Climbed { winner, to, .. } => {
                let loser = if winner == challenger { challenged } else { challenger };
                t!("ladder-climbed", name = name(conn, winner)?, place = to, other = name(conn, loser)?)
            }
            Effect::Unchanged => t!("ladder-unchanged"),
        })
    }

    /// The end hook's part for ladders: a finished ladder game's result goes into its ladder in
    /// the same transaction; the announcement gets a line.
    pub(in crate::bot) fn ladder_game_end(
        &self,
        conn: &Connection,
        row: &GameRow,
        notes: &mut Vec<String>,
    ) -> crate::store::Result<()> {
        let Some((lid, lc)) = ladders::find_by_game(conn, row.id)? else { return Ok(()) };
        let Some(outcome) = row.outcome() else { return Ok(()) };
        let now = self.clock.now();
        let Some(ladder) = ladders::load(conn, lid)? else { return Ok(()) };
        let Some(c) = ladder.challenge(lc).cloned() else { return Ok(()) };
        let result = match outcome {
            Outcome::Draw(_) => ChallengeResult::Draw,
            Outcome::Decisive { winner, .. } => {
                let challenger_color = if row.white == c.challenger { Color::White } else { Color::Black };
                if winner == challenger_color { ChallengeResult::ChallengerWon } else { ChallengeResult::ChallengedWon }
            }
        };
        let recorded = |l: &mut Ladder| l.record_result(lc, result, now).map(|effect| (effect, l.result_number(lc)));
        match ladders::update_in(conn, lid, recorded)? {
            Ok((effect, event)) => {
                let line = match (effect, result) {
                    (Effect::Climbed { .. }, _) => {
                        ladders::mark_standings_due(conn, lid)?;
                        self.effect_line(conn, effect, c.challenger, c.challenged).unwrap_or_default()
                    }
                    (Effect::Unchanged, ChallengeResult::Draw) => t!("ladder-note-draw"),
                    (Effect::Unchanged, _) => t!("ladder-note-unchanged"),
                };
                let mut note = t!("ladder-note", line = line);
                tag_result(&mut note, event);
                notes.push(note);
            }
            Err(e) => tracing::warn!(game = row.id, "ladder result not recorded: {e}"),
        }
        Ok(())
    }

    /// The scheduler's step for one ladder: its challenges not accepted in time are forfeited. The
    /// standings messages owed are sent by [`Bot::ladder_standings_owed`].
    pub(in crate::bot) fn ladder_step(&self, lid: LadderId) -> Res<Response> {
        let conn = self.conn()?;
        let now = self.clock.now();
        let mut out = Response::default();
        let Some(info) = ladders::info(&conn, lid)? else { return Ok(out) };
        let expired = match ladders::update(&conn, lid, |l| Ok(l.expire_due(now)))? {
            Ok(e) => e,
            Err(e) => return Err(BotError::Internal(format!("ladder {lid}: expiry failed: {e}"))),
        };
        let ladder = self.load_ladder(&conn, lid)?;
        for (lc, effect) in expired {
            self.close_linked(&conn, &info, Some(lc), "expired")?;
            let Some(c) = ladder.challenge(lc) else { continue };
            let mut r = self.standings_reply(&conn, &info)?;
            r.slot = None;
            let lang = r.target.chat().map_or(self.config.lang, |s| self.lang_in(s));
            r.text = with_lang(lang, || -> Res<String> {
                Ok(t!(
                    "ladder-forfeit",
                    name = self.name_of(&conn, c.challenged)?,
                    ladder = self.ladder_name(&info),
                    other = self.name_of(&conn, c.challenger)?,
                    effect = self.effect_line(&conn, effect, c.challenger, c.challenged)?
                ))
            })?;
            with_lang(lang, || tag_result(&mut r.text, ladder.result_number(lc)));
            r.notify = self.notify_of(&conn, &info.platform, c.challenger)?;
            r.notify.extend(self.notify_of(&conn, &info.platform, c.challenged)?);
            out.replies.push(r);
        }
        ladders::mark_standings_due(&conn, lid)?;
        Ok(out)
    }

    /// The standings messages owed since game ends moved places.
    pub(in crate::bot) fn ladder_standings_owed(&self) -> Res<Response> {
        let conn = self.conn()?;
        let mut out = Response::default();
        for lid in ladders::take_standings_due(&conn)? {
            if let Some(info) = ladders::info(&conn, lid)? {
                out.replies.push(self.standings_reply(&conn, &info)?);
            }
        }
        Ok(out)
    }
}

/// Ends a result's announcement with its number among the season's results, by which an
/// administrator undoes it (`ladder undo N reason`): "… takes place 2 from alice. (ladder result 2)".
fn tag_result(text: &mut String, event: Option<ResultNo>) {
    if let Some(event) = event {
        text.push(' ');
        text.push_str(&t!("ladder-result-tag", event = event));
    }
}

/// A player's name, read through any connection (the end hook has no pooled one).
fn name(conn: &Connection, id: PlayerId) -> Res<String> {
    Ok(players::get(conn, id)?.map_or_else(|| t!("player-fallback", id = id), |p| p.name))
}

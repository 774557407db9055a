//! Rank ladders: players stand in a line for one variant and climb it by beating those above.
//!
//! Rules:
//! - Joining puts a player at the bottom; leaving (or being removed) moves everyone below up one.
//!   Leaving never escapes a challenge: an open challenge of the one who leaves counts as lost by
//!   them (recorded before they go, so a challenger left behind takes their place first); only their
//!   own challenge not yet accepted is simply withdrawn, as they could have withdrawn it anyway.
//! - A player may challenge someone at most [`LadderSettings::max_places_up`] places above them.
//!   Each player has at most one open ladder challenge (pending or being played), as challenger
//!   or as challenged.
//! - The challenged player must accept within [`LadderSettings::accept_days`] days. Declining, or
//!   letting the time run out, forfeits: it counts as a win of the challenger.
//! - When the challenger wins they take the loser's place and everyone between moves down one.
//!   A win of the (higher) challenged player or a draw changes nothing.
//! - Results (games and forfeits) are numbered on their own within the season: "ladder result 2" is
//!   the season's second, whatever joined or left between; an administrator names one by it.
//! - An administrator may undo a result (or forfeit) with a reason: the standings become what they
//!   would be had it never happened, which is computed by replaying the season's other events
//!   (joins, departures, results) from the season's opening order. The result stays in the history,
//!   marked undone by a later event that carries the reason.
//! - Closing a season archives its final standings and opens the next one with the same players
//!   in the same order (a ladder is a long-running ranking; resetting it would punish the climbers).
//!   Challenges still open are cancelled; their games no longer count for the ladder.
//!
//! Every operation checks everything before it changes anything, so an error leaves the ladder
//! as it was. Times are Unix seconds.

use super::PlayerId;
use std::fmt;

/// A challenge's number within its season (1, 2, …).
pub type ChallengeId = u32;
/// An event's number within its season (1, 2, …), joins and departures included.
pub type EventId = u32;
/// A result's number within its season (1, 2, …), counting results only: what announcements show
/// ("ladder result 2") and administrators undo.
pub type ResultNo = u32;

const DAY: i64 = 24 * 60 * 60;

/// How a ladder is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LadderSettings {
    /// Days per move in ladder games.
    pub days_per_move: u32,
    /// How many places up a player may challenge.
    pub max_places_up: usize,
    /// Days the challenged player has to accept before the challenge counts as forfeited.
    pub accept_days: u32,
}

impl Default for LadderSettings {
    fn default() -> Self {
        LadderSettings { days_per_move: 3, max_places_up: 3, accept_days: 3 }
    }
}

/// Where a ladder challenge stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeStatus {
    /// Waiting for the challenged player to accept.
    Pending,
    /// Accepted: the game is being played.
    Accepted,
    /// The game's result has been recorded.
    Finished,
    /// Declined or not accepted in time: a win of the challenger.
    Forfeited,
    /// Taken back by the challenger before it was accepted.
    Withdrawn,
    /// Called off without a result (a player left, an administrator cancelled, the season closed).
    Cancelled,
}

impl ChallengeStatus {
    /// Pending or accepted: the players may not take part in another ladder challenge.
    pub fn is_open(self) -> bool {
        matches!(self, ChallengeStatus::Pending | ChallengeStatus::Accepted)
    }
}

/// One ladder challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderChallenge {
    pub id: ChallengeId,
    pub challenger: PlayerId,
    pub challenged: PlayerId,
    pub status: ChallengeStatus,
    pub issued_at: i64,
    /// When it is forfeited if still pending.
    pub accept_by: i64,
    pub accepted_at: Option<i64>,
    /// The game played for it, once the bot has created one (`games.id`).
    pub game: Option<i64>,
}

impl LadderChallenge {
    fn involves(&self, p: PlayerId) -> bool {
        self.challenger == p || self.challenged == p
    }
}

/// How a ladder game ended, from the challenge's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChallengeResult {
    ChallengerWon,
    ChallengedWon,
    Draw,
}

/// What happened on a ladder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    Joined(PlayerId),
    Left(PlayerId),
    /// Removed by an administrator.
    Removed(PlayerId),
    /// A challenge's result; `forfeit` when it was declined or not accepted in time.
    Result {
        challenge: ChallengeId,
        challenger: PlayerId,
        challenged: PlayerId,
        result: ChallengeResult,
        forfeit: bool,
    },
    /// An administrator undid the result `event`.
    Undone {
        event: EventId,
        reason: String,
    },
}

/// One entry of a season's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderEvent {
    pub id: EventId,
    pub at: i64,
    pub kind: EventKind,
}

/// A closed season.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Season {
    pub number: u32,
    pub opened_at: i64,
    pub closed_at: i64,
    /// Top first.
    pub standings: Vec<PlayerId>,
}

/// What a result did to the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The winner climbed from one place to another (1-based places).
    Climbed {
        winner: PlayerId,
        from: usize,
        to: usize,
    },
    Unchanged,
}

/// What leaving (or being removed) did to the departing player's open challenge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// They had none.
    Free,
    /// Their own challenge, not yet accepted, is withdrawn.
    Withdrawn(ChallengeId),
    /// The challenge (pending or being played) counts as lost by them; the effect of its result.
    Forfeited(ChallengeId, Effect),
}

/// Everything a ladder holds, as plain data for storage; [`Ladder::restore`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderParts {
    pub settings: LadderSettings,
    pub season: u32,
    pub season_opened_at: i64,
    /// The order the season opened with, top first.
    pub season_start: Vec<PlayerId>,
    /// The season's events in order.
    pub events: Vec<LadderEvent>,
    /// The season's challenges in order.
    pub challenges: Vec<LadderChallenge>,
    /// The closed seasons, oldest first.
    pub archive: Vec<Season>,
}

/// A ladder's state: its settings, the current season's standings, challenges and history, and
/// the archive of earlier seasons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladder {
    parts: LadderParts,
    /// Derived: the season's start replayed through its events.
    standings: Vec<PlayerId>,
}

/// Why a ladder operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderError {
    /// The acting player is not on the ladder.
    NotOnLadder,
    /// The named player is not on the ladder.
    PlayerNotOnLadder(PlayerId),
    AlreadyOnLadder {
        place: usize,
    },
    ChallengeSelf,
    /// The challenged player is not above the challenger.
    NotAbove {
        player: PlayerId,
        your_place: usize,
        their_place: usize,
    },
    TooFarUp {
        player: PlayerId,
        max: usize,
        distance: usize,
    },
    /// The acting player already has an open ladder challenge.
    YouHaveOpenChallenge {
        with: PlayerId,
    },
    /// The named player already has an open ladder challenge.
    TheyHaveOpenChallenge(PlayerId),
    /// Nobody has challenged the acting player.
    NoChallengeToAnswer,
    /// The acting player has no pending challenge of their own.
    NoChallengeToWithdraw,
    UnknownChallenge(ChallengeId),
    /// A result for a challenge that is not being played.
    NotBeingPlayed(ChallengeId),
    /// The time to accept is over; the challenge is about to be forfeited.
    AcceptDeadlinePassed,
    UnknownResult(ResultNo),
    AlreadyUndone(ResultNo),
    ReasonRequired,
    /// Stored data that does not describe a ladder.
    Corrupt(String),
}

impl LadderError {
    /// The message with players named by `name`, in the language in force.
    pub fn describe(&self, name: impl Fn(PlayerId) -> String) -> String {
        self.msg(name).render(crate::i18n::current())
    }

    /// The message by id, with players named by `name`.
    pub fn msg(&self, name: impl Fn(PlayerId) -> String) -> crate::i18n::Msg {
        use crate::msg;
        match self {
            LadderError::NotOnLadder => msg!("ladder-not-on"),
            LadderError::PlayerNotOnLadder(p) => msg!("ladder-player-not-on", name = name(*p)),
            LadderError::AlreadyOnLadder { place } => msg!("ladder-already-on", place = *place),
            LadderError::ChallengeSelf => msg!("challenge-self"),
            LadderError::NotAbove { player, your_place, their_place } => {
                msg!("ladder-not-above", name = name(*player), theirs = *their_place, yours = *your_place)
            }
            LadderError::TooFarUp { player, max, distance } => {
                msg!("ladder-too-far", max = *max, name = name(*player), distance = *distance)
            }
            LadderError::YouHaveOpenChallenge { with } => msg!("ladder-you-have-open", name = name(*with)),
            LadderError::TheyHaveOpenChallenge(p) => msg!("ladder-they-have-open", name = name(*p)),
            LadderError::NoChallengeToAnswer => msg!("ladder-no-challenge"),
            LadderError::NoChallengeToWithdraw => msg!("ladder-nothing-to-withdraw"),
            LadderError::UnknownChallenge(id) => msg!("ladder-unknown-challenge", id = *id),
            LadderError::NotBeingPlayed(id) => msg!("ladder-not-played", id = *id),
            LadderError::AcceptDeadlinePassed => msg!("ladder-deadline-passed"),
            LadderError::UnknownResult(id) => msg!("ladder-unknown-event", id = *id),
            LadderError::AlreadyUndone(id) => msg!("ladder-already-undone", id = *id),
            LadderError::ReasonRequired => msg!("ladder-reason-required"),
            LadderError::Corrupt(s) => msg!("ladder-corrupt", detail = s.as_str()),
        }
    }
}

impl fmt::Display for LadderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.msg(|_| crate::tl!(crate::i18n::Lang::En, "that-player")).render(crate::i18n::Lang::En);
        let mut chars = text.chars();
        match chars.next() {
            Some(c) => write!(f, "{}{}", c.to_uppercase(), chars.as_str()),
            None => Ok(()),
        }
    }
}

impl std::error::Error for LadderError {}

/// Applies one event to `standings`; undone events must be filtered out by the caller.
fn apply(standings: &mut Vec<PlayerId>, kind: &EventKind) -> Effect {
    match kind {
        EventKind::Joined(p) => {
            if !standings.contains(p) {
                standings.push(*p);
            }
        }
        EventKind::Left(p) | EventKind::Removed(p) => standings.retain(|q| q != p),
        EventKind::Result { challenger, challenged, result: ChallengeResult::ChallengerWon, .. } => {
            let from = standings.iter().position(|q| q == challenger);
            let to = standings.iter().position(|q| q == challenged);
            if let (Some(from), Some(to)) = (from, to)
                && from > to
            {
                let w = standings.remove(from);
                standings.insert(to, w);
                return Effect::Climbed { winner: w, from: from + 1, to: to + 1 };
            }
        }
        EventKind::Result { .. } | EventKind::Undone { .. } => {}
    }
    Effect::Unchanged
}

impl Ladder {
    /// A new, empty ladder whose first season opens at `now`.
    pub fn new(settings: LadderSettings, now: i64) -> Ladder {
        let parts = LadderParts {
            settings,
            season: 1,
            season_opened_at: now,
            season_start: Vec::new(),
            events: Vec::new(),
            challenges: Vec::new(),
            archive: Vec::new(),
        };
        Ladder { parts, standings: Vec::new() }
    }

    /// Rebuilds a ladder from stored parts, checking that they fit together.
    pub fn restore(parts: LadderParts) -> Result<Ladder, LadderError> {
        let corrupt = |s: String| Err(LadderError::Corrupt(s));
        for (i, e) in parts.events.iter().enumerate() {
            if e.id as usize != i + 1 {
                return corrupt(format!("event {} is stored as number {}", i + 1, e.id));
            }
            if let EventKind::Undone { event, .. } = &e.kind
                && *event >= e.id
            {
                return corrupt(format!("event {} undoes a later event", e.id));
            }
        }
        for (i, c) in parts.challenges.iter().enumerate() {
            if c.id as usize != i + 1 {
                return corrupt(format!("challenge {} is stored as number {}", i + 1, c.id));
            }
        }
        let mut ladder = Ladder { parts, standings: Vec::new() };
        ladder.replay();
        for c in ladder.parts.challenges.iter().filter(|c| c.status.is_open()) {
            if !ladder.standings.contains(&c.challenger) || !ladder.standings.contains(&c.challenged) {
                return corrupt(format!("open challenge {} names a player who is not on the ladder", c.id));
            }
        }
        Ok(ladder)
    }

    /// The stored form.
    pub fn parts(&self) -> &LadderParts {
        &self.parts
    }

    pub fn settings(&self) -> LadderSettings {
        self.parts.settings
    }

    /// The current season's number (1 for the first).
    pub fn season(&self) -> u32 {
        self.parts.season
    }

    /// The standings, top first.
    pub fn standings(&self) -> &[PlayerId] {
        &self.standings
    }

    /// `p`'s place, 1 for the top.
    pub fn place_of(&self, p: PlayerId) -> Option<usize> {
        self.standings.iter().position(|&q| q == p).map(|i| i + 1)
    }

    /// The current season's history.
    pub fn events(&self) -> &[LadderEvent] {
        &self.parts.events
    }

    /// The number of `challenge`'s result among the season's results (its latest), which an
    /// administrator's [`Ladder::undo`] takes.
    pub fn result_number(&self, challenge: ChallengeId) -> Option<ResultNo> {
        let results = self.parts.events.iter().filter(|e| matches!(e.kind, EventKind::Result { .. }));
        let numbered = results
            .zip(1..)
            .filter(|(e, _)| matches!(e.kind, EventKind::Result { challenge: c, .. } if c == challenge));
        numbered.last().map(|(_, n)| n)
    }

    /// The event recording the season's result number `n`.
    fn result_event(&self, n: ResultNo) -> Option<&LadderEvent> {
        let mut results = self.parts.events.iter().filter(|e| matches!(e.kind, EventKind::Result { .. }));
        results.nth((n as usize).checked_sub(1)?)
    }

    /// The season's result number `n`: who challenged whom, how it ended, whether by forfeit.
    pub fn result_of(&self, n: ResultNo) -> Option<(PlayerId, PlayerId, ChallengeResult, bool)> {
        match self.result_event(n)?.kind {
            EventKind::Result { challenger, challenged, result, forfeit, .. } => {
                Some((challenger, challenged, result, forfeit))
            }
            _ => None,
        }
    }

    /// The game played for the season's result number `n`, if it was played (not a forfeit).
    pub fn result_game(&self, n: ResultNo) -> Option<i64> {
        match self.result_event(n)?.kind {
            EventKind::Result { challenge, forfeit: false, .. } => self.challenge(challenge)?.game,
            _ => None,
        }
    }

    /// The current season's challenges.
    pub fn challenges(&self) -> &[LadderChallenge] {
        &self.parts.challenges
    }

    /// The closed seasons, oldest first.
    pub fn archive(&self) -> &[Season] {
        &self.parts.archive
    }

    /// `p`'s open (pending or accepted) challenge.
    pub fn open_challenge_of(&self, p: PlayerId) -> Option<&LadderChallenge> {
        self.parts.challenges.iter().find(|c| c.status.is_open() && c.involves(p))
    }

    /// A challenge of this season.
    pub fn challenge(&self, id: ChallengeId) -> Option<&LadderChallenge> {
        self.parts.challenges.get((id as usize).wrapping_sub(1))
    }

    /// The result events of this season that an administrator has undone.
    pub fn is_undone(&self, id: EventId) -> bool {
        self.parts.events.iter().any(|e| matches!(e.kind, EventKind::Undone { event, .. } if event == id))
    }

    /// The earliest time a pending challenge will be forfeited.
    pub fn next_deadline(&self) -> Option<i64> {
        self.parts.challenges.iter().filter(|c| c.status == ChallengeStatus::Pending).map(|c| c.accept_by).min()
    }

    fn replay(&mut self) {
        let mut standings = self.parts.season_start.clone();
        for e in &self.parts.events {
            if !self.is_undone(e.id) {
                apply(&mut standings, &e.kind);
            }
        }
        self.standings = standings;
    }

    fn push_event(&mut self, at: i64, kind: EventKind) -> Effect {
        let effect = apply(&mut self.standings, &kind);
        let id = self.parts.events.len() as EventId + 1;
        self.parts.events.push(LadderEvent { id, at, kind });
        effect
    }

    fn challenge_mut(&mut self, id: ChallengeId) -> Result<&mut LadderChallenge, LadderError> {
        self.parts.challenges.get_mut((id as usize).wrapping_sub(1)).ok_or(LadderError::UnknownChallenge(id))
    }

    /// Puts `p` at the bottom; returns their place.
    pub fn join(&mut self, p: PlayerId, now: i64) -> Result<usize, LadderError> {
        if let Some(place) = self.place_of(p) {
            return Err(LadderError::AlreadyOnLadder { place });
        }
        self.push_event(now, EventKind::Joined(p));
        Ok(self.standings.len())
    }

    /// `p` leaves; everyone below moves up one. Their open challenge is lost by them, or withdrawn
    /// if it is their own and not yet accepted (see [`Departure`]).
    pub fn leave(&mut self, p: PlayerId, now: i64) -> Result<Departure, LadderError> {
        if self.place_of(p).is_none() {
            return Err(LadderError::NotOnLadder);
        }
        Ok(self.depart(p, now, EventKind::Left(p)))
    }

    /// An administrator removes `p`, as if they had left.
    pub fn remove(&mut self, p: PlayerId, now: i64) -> Result<Departure, LadderError> {
        if self.place_of(p).is_none() {
            return Err(LadderError::PlayerNotOnLadder(p));
        }
        Ok(self.depart(p, now, EventKind::Removed(p)))
    }

    fn depart(&mut self, p: PlayerId, now: i64, kind: EventKind) -> Departure {
        let open = self.open_challenge_of(p).map(|c| (c.id, c.status, c.challenger == p));
        let departure = match open {
            None => Departure::Free,
            Some((id, ChallengeStatus::Pending, true)) => {
                self.parts.challenges[id as usize - 1].status = ChallengeStatus::Withdrawn;
                Departure::Withdrawn(id)
            }
            Some((id, _, is_challenger)) => {
                let result =
                    if is_challenger { ChallengeResult::ChallengedWon } else { ChallengeResult::ChallengerWon };
                Departure::Forfeited(id, self.forfeit(id, result, now))
            }
        };
        self.push_event(now, kind);
        departure
    }

    /// `challenger` challenges `challenged`, who must accept within the set days.
    pub fn challenge_player(
        &mut self,
        challenger: PlayerId,
        challenged: PlayerId,
        now: i64,
    ) -> Result<ChallengeId, LadderError> {
        let mine = self.place_of(challenger).ok_or(LadderError::NotOnLadder)?;
        let theirs = self.place_of(challenged).ok_or(LadderError::PlayerNotOnLadder(challenged))?;
        if challenger == challenged {
            return Err(LadderError::ChallengeSelf);
        }
        if theirs > mine {
            return Err(LadderError::NotAbove { player: challenged, your_place: mine, their_place: theirs });
        }
        let max = self.parts.settings.max_places_up;
        if mine - theirs > max {
            return Err(LadderError::TooFarUp { player: challenged, max, distance: mine - theirs });
        }
        if let Some(c) = self.open_challenge_of(challenger) {
            let with = if c.challenger == challenger { c.challenged } else { c.challenger };
            return Err(LadderError::YouHaveOpenChallenge { with });
        }
        if self.open_challenge_of(challenged).is_some() {
            return Err(LadderError::TheyHaveOpenChallenge(challenged));
        }
        let id = self.parts.challenges.len() as ChallengeId + 1;
        self.parts.challenges.push(LadderChallenge {
            id,
            challenger,
            challenged,
            status: ChallengeStatus::Pending,
            issued_at: now,
            accept_by: now + i64::from(self.parts.settings.accept_days) * DAY,
            accepted_at: None,
            game: None,
        });
        Ok(id)
    }

    fn pending_for(&self, challenged: PlayerId) -> Result<ChallengeId, LadderError> {
        self.parts
            .challenges
            .iter()
            .find(|c| c.status == ChallengeStatus::Pending && c.challenged == challenged)
            .map(|c| c.id)
            .ok_or(LadderError::NoChallengeToAnswer)
    }

    /// `player` accepts the challenge waiting for them; the bot then starts the game.
    pub fn accept(&mut self, player: PlayerId, now: i64) -> Result<ChallengeId, LadderError> {
        let id = self.pending_for(player)?;
        let c = self.challenge_mut(id)?;
        if now >= c.accept_by {
            return Err(LadderError::AcceptDeadlinePassed);
        }
        c.status = ChallengeStatus::Accepted;
        c.accepted_at = Some(now);
        Ok(id)
    }

    /// `player` declines the challenge waiting for them, which forfeits it.
    pub fn decline(&mut self, player: PlayerId, now: i64) -> Result<(ChallengeId, Effect), LadderError> {
        let id = self.pending_for(player)?;
        Ok((id, self.forfeit(id, ChallengeResult::ChallengerWon, now)))
    }

    /// The challenger takes back a challenge not yet accepted.
    pub fn withdraw(&mut self, challenger: PlayerId) -> Result<ChallengeId, LadderError> {
        let c = self
            .parts
            .challenges
            .iter_mut()
            .find(|c| c.status == ChallengeStatus::Pending && c.challenger == challenger)
            .ok_or(LadderError::NoChallengeToWithdraw)?;
        c.status = ChallengeStatus::Withdrawn;
        Ok(c.id)
    }

    /// An administrator calls off an open challenge without a result.
    pub fn cancel(&mut self, id: ChallengeId) -> Result<(), LadderError> {
        let c = self.challenge_mut(id)?;
        if !c.status.is_open() {
            return Err(LadderError::NotBeingPlayed(id));
        }
        c.status = ChallengeStatus::Cancelled;
        Ok(())
    }

    /// Notes the game played for an accepted challenge.
    pub fn attach_game(&mut self, id: ChallengeId, game: i64) -> Result<(), LadderError> {
        let c = self.challenge_mut(id)?;
        if c.status != ChallengeStatus::Accepted {
            return Err(LadderError::NotBeingPlayed(id));
        }
        c.game = Some(game);
        Ok(())
    }

    /// The accepted challenge played in `game`, if any.
    pub fn challenge_for_game(&self, game: i64) -> Option<&LadderChallenge> {
        self.parts.challenges.iter().find(|c| c.status == ChallengeStatus::Accepted && c.game == Some(game))
    }

    /// Ends an open challenge without a game result: `result` is the side that did not forfeit.
    fn forfeit(&mut self, id: ChallengeId, result: ChallengeResult, now: i64) -> Effect {
        let c = &mut self.parts.challenges[id as usize - 1];
        c.status = ChallengeStatus::Forfeited;
        let (challenger, challenged) = (c.challenger, c.challenged);
        self.push_event(now, EventKind::Result { challenge: id, challenger, challenged, result, forfeit: true })
    }

    /// Records how the game of an accepted challenge ended.
    pub fn record_result(&mut self, id: ChallengeId, result: ChallengeResult, now: i64) -> Result<Effect, LadderError> {
        let c = self.challenge_mut(id)?;
        if c.status != ChallengeStatus::Accepted {
            return Err(LadderError::NotBeingPlayed(id));
        }
        c.status = ChallengeStatus::Finished;
        let (challenger, challenged) = (c.challenger, c.challenged);
        Ok(self.push_event(now, EventKind::Result { challenge: id, challenger, challenged, result, forfeit: false }))
    }

    /// Forfeits every pending challenge whose time to accept is over at `now`.
    pub fn expire_due(&mut self, now: i64) -> Vec<(ChallengeId, Effect)> {
        let due: Vec<ChallengeId> = self
            .parts
            .challenges
            .iter()
            .filter(|c| c.status == ChallengeStatus::Pending && c.accept_by <= now)
            .map(|c| c.id)
            .collect();
        due.into_iter().map(|id| (id, self.forfeit(id, ChallengeResult::ChallengerWon, now))).collect()
    }

    /// An administrator undoes the season's result number `n`, giving `reason`.
    pub fn undo(&mut self, n: ResultNo, reason: &str, now: i64) -> Result<(), LadderError> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err(LadderError::ReasonRequired);
        }
        let id = self.result_event(n).ok_or(LadderError::UnknownResult(n))?.id;
        if self.is_undone(id) {
            return Err(LadderError::AlreadyUndone(n));
        }
        self.push_event(now, EventKind::Undone { event: id, reason: reason.to_string() });
        self.replay();
        Ok(())
    }

    /// Closes the season: archives its standings, cancels open challenges and opens the next
    /// season with the same players in the same order. Returns the archived season.
    pub fn close_season(&mut self, now: i64) -> &Season {
        for c in self.parts.challenges.iter_mut().filter(|c| c.status.is_open()) {
            c.status = ChallengeStatus::Cancelled;
        }
        let closed = Season {
            number: self.parts.season,
            opened_at: self.parts.season_opened_at,
            closed_at: now,
            standings: self.standings.clone(),
        };
        self.parts.archive.push(closed);
        self.parts.season += 1;
        self.parts.season_opened_at = now;
        self.parts.season_start = self.standings.clone();
        self.parts.events.clear();
        self.parts.challenges.clear();
        self.parts.archive.last().expect("just pushed")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T0: i64 = 1_000_000;

    /// A ladder with players 1..=n joined in order (1 on top).
    fn ladder(n: PlayerId) -> Ladder {
        let mut l = Ladder::new(LadderSettings::default(), T0);
        for p in 1..=n {
            assert_eq!(l.join(p, T0).unwrap(), p as usize);
        }
        l
    }

    fn play(l: &mut Ladder, challenger: PlayerId, challenged: PlayerId, r: ChallengeResult) -> Effect {
        let id = l.challenge_player(challenger, challenged, T0).unwrap();
        assert_eq!(l.accept(challenged, T0 + 10).unwrap(), id);
        l.record_result(id, r, T0 + 20).unwrap()
    }

    #[test]
    fn join_leave_and_remove() {
        let mut l = ladder(4);
        assert_eq!(l.join(2, T0), Err(LadderError::AlreadyOnLadder { place: 2 }));
        assert_eq!(l.leave(2, T0).unwrap(), Departure::Free);
        assert_eq!(l.standings(), [1, 3, 4]);
        assert_eq!(l.leave(2, T0), Err(LadderError::NotOnLadder));
        assert_eq!(l.remove(9, T0), Err(LadderError::PlayerNotOnLadder(9)));
        assert_eq!(l.join(2, T0).unwrap(), 4);
        assert_eq!(l.remove(1, T0).unwrap(), Departure::Free);
        assert_eq!(l.standings(), [3, 4, 2]);
    }

    #[test]
    fn lower_winner_takes_the_place_and_the_others_move_down() {
        let mut l = ladder(6);
        let e = play(&mut l, 5, 2, ChallengeResult::ChallengerWon);
        assert_eq!(e, Effect::Climbed { winner: 5, from: 5, to: 2 });
        assert_eq!(l.standings(), [1, 5, 2, 3, 4, 6]);
        // A higher winner or a draw changes nothing.
        assert_eq!(play(&mut l, 6, 4, ChallengeResult::ChallengedWon), Effect::Unchanged);
        assert_eq!(play(&mut l, 2, 1, ChallengeResult::Draw), Effect::Unchanged);
        assert_eq!(l.standings(), [1, 5, 2, 3, 4, 6]);
        assert_eq!(l.challenges().iter().filter(|c| c.status == ChallengeStatus::Finished).count(), 3);
    }

    #[test]
    fn challenge_limits_with_messages() {
        let mut l = ladder(8);
        let err = l.challenge_player(8, 3, T0).unwrap_err();
        assert_eq!(err, LadderError::TooFarUp { player: 3, max: 3, distance: 5 });
        assert_eq!(
            err.describe(|p| if p == 3 { "bob".into() } else { "?".into() }),
            "You may challenge at most 3 places up: bob is 5 places above you."
        );
        assert_eq!(err.to_string(), "You may challenge at most 3 places up: that player is 5 places above you.");
        assert_eq!(
            l.challenge_player(3, 5, T0),
            Err(LadderError::NotAbove { player: 5, your_place: 3, their_place: 5 })
        );
        assert_eq!(l.challenge_player(3, 3, T0), Err(LadderError::ChallengeSelf));
        assert_eq!(l.challenge_player(9, 3, T0), Err(LadderError::NotOnLadder));
        assert_eq!(l.challenge_player(4, 9, T0), Err(LadderError::PlayerNotOnLadder(9)));
        // One open challenge per player, on either side.
        let id = l.challenge_player(5, 2, T0).unwrap();
        assert_eq!(l.challenge_player(5, 3, T0), Err(LadderError::YouHaveOpenChallenge { with: 2 }));
        assert_eq!(l.challenge_player(3, 2, T0), Err(LadderError::TheyHaveOpenChallenge(2)));
        assert_eq!(l.challenge_player(2, 1, T0), Err(LadderError::YouHaveOpenChallenge { with: 5 }));
        assert_eq!(l.accept(2, T0).unwrap(), id);
        assert_eq!(l.challenge_player(6, 5, T0), Err(LadderError::TheyHaveOpenChallenge(5)));
        // Withdrawing frees both.
        let mut l = ladder(3);
        assert_eq!(l.withdraw(3), Err(LadderError::NoChallengeToWithdraw));
        let id = l.challenge_player(3, 1, T0).unwrap();
        assert_eq!(l.withdraw(3).unwrap(), id);
        assert!(l.challenge_player(2, 1, T0).is_ok());
    }

    #[test]
    fn unanswered_or_declined_challenge_is_forfeited() {
        let mut l = ladder(5);
        let id = l.challenge_player(4, 2, T0).unwrap();
        let deadline = T0 + 3 * DAY;
        assert_eq!(l.next_deadline(), Some(deadline));
        assert!(l.expire_due(deadline - 1).is_empty());
        assert_eq!(l.accept(2, deadline), Err(LadderError::AcceptDeadlinePassed));
        assert_eq!(l.expire_due(deadline), vec![(id, Effect::Climbed { winner: 4, from: 4, to: 2 })]);
        assert_eq!(l.standings(), [1, 4, 2, 3, 5]);
        assert_eq!(l.challenge(id).unwrap().status, ChallengeStatus::Forfeited);
        assert_eq!(l.next_deadline(), None);
        let id = l.challenge_player(5, 3, T0).unwrap();
        assert_eq!(l.decline(2, T0), Err(LadderError::NoChallengeToAnswer));
        assert_eq!(l.decline(3, T0).unwrap(), (id, Effect::Climbed { winner: 5, from: 5, to: 4 }));
        assert!(matches!(l.events().last().unwrap().kind, EventKind::Result { forfeit: true, .. }));
    }

    #[test]
    fn results_need_an_accepted_challenge() {
        let mut l = ladder(3);
        let id = l.challenge_player(3, 2, T0).unwrap();
        assert_eq!(l.record_result(id, ChallengeResult::Draw, T0), Err(LadderError::NotBeingPlayed(id)));
        assert_eq!(l.attach_game(id, 77), Err(LadderError::NotBeingPlayed(id)));
        l.accept(2, T0).unwrap();
        l.attach_game(id, 77).unwrap();
        assert_eq!(l.challenge_for_game(77).unwrap().id, id);
        assert_eq!(l.record_result(99, ChallengeResult::Draw, T0), Err(LadderError::UnknownChallenge(99)));
        l.record_result(id, ChallengeResult::Draw, T0).unwrap();
        assert_eq!(l.record_result(id, ChallengeResult::Draw, T0), Err(LadderError::NotBeingPlayed(id)));
        assert!(l.challenge_for_game(77).is_none());
    }

    #[test]
    fn leaving_forfeits_the_open_challenge() {
        // Challenged and leaving: a win of the challenger, who takes the place before it is vacated.
        let mut l = ladder(4);
        let id = l.challenge_player(4, 2, T0).unwrap();
        let won = Effect::Climbed { winner: 4, from: 4, to: 2 };
        assert_eq!(l.leave(2, T0).unwrap(), Departure::Forfeited(id, won));
        assert_eq!(l.challenge(id).unwrap().status, ChallengeStatus::Forfeited);
        assert_eq!(l.standings(), [1, 4, 3]);
        assert!(matches!(l.events()[4].kind, EventKind::Result { forfeit: true, .. }));
        assert!(l.challenge_player(4, 1, T0).is_ok());
        // A challenger leaving during the game loses it: nothing moves but they are gone.
        let mut l = ladder(4);
        let id = l.challenge_player(4, 2, T0).unwrap();
        l.accept(2, T0).unwrap();
        l.attach_game(id, 9).unwrap();
        assert_eq!(l.remove(4, T0).unwrap(), Departure::Forfeited(id, Effect::Unchanged));
        assert_eq!(l.standings(), [1, 2, 3]);
        // Their own challenge not yet accepted is only withdrawn; leaving with none is free.
        let mut l = ladder(4);
        let id = l.challenge_player(4, 2, T0).unwrap();
        assert_eq!(l.leave(4, T0).unwrap(), Departure::Withdrawn(id));
        assert_eq!(l.challenge(id).unwrap().status, ChallengeStatus::Withdrawn);
        assert_eq!(l.leave(1, T0).unwrap(), Departure::Free);
        assert_eq!(l.standings(), [2, 3]);
        // Replaying the season gives the same standings (the result before the departure).
        assert_eq!(Ladder::restore(l.parts().clone()).unwrap(), l);
    }

    #[test]
    fn undo_replays_the_rest_of_the_season() {
        let mut l = ladder(5);
        let first = l.challenge_player(4, 1, T0).unwrap();
        l.accept(1, T0).unwrap();
        l.attach_game(first, 77).unwrap();
        l.record_result(first, ChallengeResult::ChallengerWon, T0).unwrap(); // 4 1 2 3 5
        let undone = l.events().last().unwrap().id;
        // Results are numbered on their own: the first is result 1, though five joins came before.
        assert_eq!((undone, l.result_number(first)), (6, Some(1)));
        play(&mut l, 5, 3, ChallengeResult::ChallengerWon); // 4 1 2 5 3
        assert_eq!(l.result_number(2), Some(2));
        l.join(6, T0).unwrap(); // 4 1 2 5 3 6
        assert_eq!(l.standings(), [4, 1, 2, 5, 3, 6]);
        assert_eq!(l.undo(1, "  ", T0), Err(LadderError::ReasonRequired));
        assert_eq!(l.undo(3, "oops", T0), Err(LadderError::UnknownResult(3)));
        assert_eq!(l.undo(0, "oops", T0), Err(LadderError::UnknownResult(0)));
        l.undo(1, "engine use", T0).unwrap();
        // As if 4 had never beaten 1: 1 2 3 4 5, then 5 over 3: 1 2 5 3 4, then 6 joins.
        assert_eq!(l.standings(), [1, 2, 5, 3, 4, 6]);
        assert!(l.is_undone(undone));
        assert!(
            matches!(&l.events().last().unwrap().kind, EventKind::Undone { event, reason } if *event == undone && reason == "engine use")
        );
        assert_eq!(l.undo(1, "again", T0), Err(LadderError::AlreadyUndone(1)));
        // An undone result keeps its number; the game played for it is named.
        assert_eq!(l.result_number(2), Some(2));
        assert_eq!((l.result_game(1), l.result_game(2), l.result_game(3)), (Some(77), None, None));
        // Restoring the stored parts gives the same ladder.
        assert_eq!(Ladder::restore(l.parts().clone()).unwrap(), l);
    }

    #[test]
    fn seasons_archive_and_keep_the_order() {
        let mut l = ladder(4);
        play(&mut l, 3, 1, ChallengeResult::ChallengerWon); // 3 1 2 4
        l.challenge_player(4, 2, T0).unwrap();
        let closed = l.close_season(T0 + 100).clone();
        assert_eq!(closed, Season { number: 1, opened_at: T0, closed_at: T0 + 100, standings: vec![3, 1, 2, 4] });
        assert_eq!(l.season(), 2);
        assert_eq!(l.standings(), [3, 1, 2, 4]);
        assert!(l.events().is_empty() && l.challenges().is_empty());
        assert_eq!(l.archive().len(), 1);
        // The new season numbers from 1 again, and nobody is blocked by the cancelled challenge.
        assert_eq!(l.challenge_player(4, 2, T0).unwrap(), 1);
        let restored = Ladder::restore(l.parts().clone()).unwrap();
        assert_eq!(restored.standings(), [3, 1, 2, 4]);
    }

    #[test]
    fn restore_refuses_inconsistent_parts() {
        let mut l = ladder(2);
        l.challenge_player(2, 1, T0).unwrap();
        let mut parts = l.parts().clone();
        parts.events.remove(0);
        assert!(matches!(Ladder::restore(parts), Err(LadderError::Corrupt(_))));
        let mut parts = l.parts().clone();
        parts.events.pop(); // player 2 never joined, yet has an open challenge
        assert!(matches!(Ladder::restore(parts), Err(LadderError::Corrupt(_))));
    }
}

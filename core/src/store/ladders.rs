//! Rank ladders: settings per community and variant, each season's opening order, its challenges
//! and its append-only history, and the closed seasons' final standings.
//!
//! The rules live in [`crate::community::ladder`]; this module loads a [`Ladder`], lets the caller
//! apply operations to it, and writes it back, all in one immediate transaction so that two
//! commands on the same ladder cannot interleave.

use super::{Result, StoreError};
use crate::community::PlayerId;
use crate::community::ladder::{
    ChallengeId, ChallengeResult, ChallengeStatus, EventKind, Ladder, LadderChallenge, LadderError, LadderEvent,
    LadderParts, LadderSettings, Season,
};
use crate::store::sql::{Connection, OptionalExtension, Row, params};

/// Ladder id (the `ladders.id` column).
pub type LadderId = i64;

/// Where a ladder is and what it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderInfo {
    pub id: LadderId,
    pub platform: String,
    pub community_id: String,
    pub variant: String,
    pub settings: LadderSettings,
    pub season: u32,
}

fn info_from(r: &Row<'_>) -> crate::store::sql::Result<LadderInfo> {
    Ok(LadderInfo {
        id: r.get(0)?,
        platform: r.get(1)?,
        community_id: r.get(2)?,
        variant: r.get(3)?,
        settings: LadderSettings { days_per_move: r.get(4)?, max_places_up: r.get(5)?, accept_days: r.get(6)? },
        season: r.get(7)?,
    })
}

const INFO: &str = "SELECT id, platform, community_id, variant, days_per_move, max_places_up, accept_days, season
                    FROM ladders";

/// Creates the ladder of a community for a variant; `None` when it already has one.
pub fn create(
    conn: &Connection,
    platform: &str,
    community_id: &str,
    variant: &str,
    settings: LadderSettings,
    now: i64,
) -> Result<Option<LadderId>> {
    Ok(conn
        .query_row(
            "INSERT INTO ladders (platform, community_id, variant, days_per_move, max_places_up, accept_days,
                              season, season_opened_at, created_at, standings)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?7, '') ON CONFLICT DO NOTHING RETURNING id",
            params![
                platform,
                community_id,
                variant,
                settings.days_per_move,
                settings.max_places_up,
                settings.accept_days,
                now
            ],
            |r| r.get(0),
        )
        .optional()?)
}

/// The ladder of a community for a variant.
pub fn find(conn: &Connection, platform: &str, community_id: &str, variant: &str) -> Result<Option<LadderInfo>> {
    let sql = format!("{INFO} WHERE platform = ?1 AND community_id = ?2 AND variant = ?3");
    Ok(conn.query_row(&sql, params![platform, community_id, variant], info_from).optional()?)
}

/// The ladders of a community, by variant.
pub fn list(conn: &Connection, platform: &str, community_id: &str) -> Result<Vec<LadderInfo>> {
    let sql = format!("{INFO} WHERE platform = ?1 AND community_id = ?2 ORDER BY variant");
    let mut st = conn.prepare_cached(&sql)?;
    let rows = st.query_map(params![platform, community_id], info_from)?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

fn status_to_db(s: ChallengeStatus) -> &'static str {
    match s {
        ChallengeStatus::Pending => "pending",
        ChallengeStatus::Accepted => "accepted",
        ChallengeStatus::Finished => "finished",
        ChallengeStatus::Forfeited => "forfeited",
        ChallengeStatus::Withdrawn => "withdrawn",
        ChallengeStatus::Cancelled => "cancelled",
    }
}

fn status_from_db(s: &str) -> Result<ChallengeStatus> {
    Ok(match s {
        "pending" => ChallengeStatus::Pending,
        "accepted" => ChallengeStatus::Accepted,
        "finished" => ChallengeStatus::Finished,
        "forfeited" => ChallengeStatus::Forfeited,
        "withdrawn" => ChallengeStatus::Withdrawn,
        "cancelled" => ChallengeStatus::Cancelled,
        _ => return Err(StoreError::Corrupt(format!("ladder challenge status {s:?}"))),
    })
}

fn result_to_db(r: ChallengeResult) -> &'static str {
    match r {
        ChallengeResult::ChallengerWon => "challenger",
        ChallengeResult::ChallengedWon => "challenged",
        ChallengeResult::Draw => "draw",
    }
}

/// One `ladder_events` row's columns after `at`.
struct EventRow {
    kind: String,
    player: Option<PlayerId>,
    other: Option<PlayerId>,
    challenge: Option<ChallengeId>,
    result: Option<String>,
    forfeit: Option<bool>,
    undoes: Option<u32>,
    reason: Option<String>,
}

impl EventRow {
    fn from_kind(k: &EventKind) -> EventRow {
        let mut row = EventRow {
            kind: String::new(),
            player: None,
            other: None,
            challenge: None,
            result: None,
            forfeit: None,
            undoes: None,
            reason: None,
        };
        let kind = match k {
            EventKind::Joined(p) | EventKind::Left(p) | EventKind::Removed(p) => {
                row.player = Some(*p);
                match k {
                    EventKind::Joined(_) => "joined",
                    EventKind::Left(_) => "left",
                    _ => "removed",
                }
            }
            EventKind::Result { challenge, challenger, challenged, result, forfeit } => {
                (row.player, row.other, row.challenge) = (Some(*challenger), Some(*challenged), Some(*challenge));
                (row.result, row.forfeit) = (Some(result_to_db(*result).to_string()), Some(*forfeit));
                "result"
            }
            EventKind::Undone { event, reason } => {
                (row.undoes, row.reason) = (Some(*event), Some(reason.clone()));
                "undone"
            }
        };
        row.kind = kind.to_string();
        row
    }

    fn into_kind(self) -> Result<EventKind> {
        let bad = || StoreError::Corrupt(format!("ladder event of kind {:?} lacks a column", self.kind));
        Ok(match self.kind.as_str() {
            "joined" => EventKind::Joined(self.player.ok_or_else(bad)?),
            "left" => EventKind::Left(self.player.ok_or_else(bad)?),
            "removed" => EventKind::Removed(self.player.ok_or_else(bad)?),
            "result" => EventKind::Result {
                challenge: self.challenge.ok_or_else(bad)?,
                challenger: self.player.ok_or_else(bad)?,
                challenged: self.other.ok_or_else(bad)?,
                result: match self.result.as_deref() {
                    Some("challenger") => ChallengeResult::ChallengerWon,
                    Some("challenged") => ChallengeResult::ChallengedWon,
                    Some("draw") => ChallengeResult::Draw,
                    _ => return Err(bad()),
                },
                forfeit: self.forfeit.ok_or_else(bad)?,
            },
            "undone" => EventKind::Undone { event: self.undoes.ok_or_else(bad)?, reason: self.reason.ok_or_else(bad)? },
            k => return Err(StoreError::Corrupt(format!("ladder event kind {k:?}"))),
        })
    }
}

fn standings_of(conn: &Connection, id: LadderId, season: u32, kind: &str) -> Result<Vec<PlayerId>> {
    let mut st = conn.prepare_cached(
        "SELECT player_id FROM ladder_standings WHERE ladder_id = ?1 AND season = ?2 AND kind = ?3 ORDER BY place",
    )?;
    let rows = st.query_map(params![id, season, kind], |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Loads a ladder with its current season and its archive.
pub fn load(conn: &Connection, id: LadderId) -> Result<Option<Ladder>> {
    let Some(ladder) = load_current(conn, id)? else { return Ok(None) };
    let mut parts = ladder.parts().clone();
    let mut st = conn.prepare_cached(
        "SELECT season, opened_at, closed_at FROM ladder_seasons WHERE ladder_id = ?1 ORDER BY season",
    )?;
    let seasons: Vec<(u32, i64, i64)> =
        st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<std::result::Result<_, _>>()?;
    for (number, opened_at, closed_at) in seasons {
        parts.archive.push(Season {
            number,
            opened_at,
            closed_at,
            standings: standings_of(conn, id, number, "final")?,
        });
    }
    Ladder::restore(parts).map(Some).map_err(|e| StoreError::Corrupt(format!("ladder {id}: {e}")))
}

/// Loads a ladder's current season alone, its archive left empty: what reading it for a page
/// needs, whatever number of seasons it closed before. Never to be changed and stored (use
/// [`update`]).
pub fn load_current(conn: &Connection, id: LadderId) -> Result<Option<Ladder>> {
    let head = conn
        .query_row(
            "SELECT days_per_move, max_places_up, accept_days, season, season_opened_at FROM ladders WHERE id = ?1",
            [id],
            |r| {
                let settings =
                    LadderSettings { days_per_move: r.get(0)?, max_places_up: r.get(1)?, accept_days: r.get(2)? };
                Ok((settings, r.get::<u32>(3)?, r.get::<i64>(4)?))
            },
        )
        .optional()?;
    let Some((settings, season, season_opened_at)) = head else { return Ok(None) };
    let season_start = standings_of(conn, id, season, "start")?;
    let mut st = conn.prepare_cached(
        "SELECT id, at, kind, player_id, other_id, challenge_id, result, forfeit, undoes, reason
         FROM ladder_events WHERE ladder_id = ?1 AND season = ?2 ORDER BY id",
    )?;
    let rows = st.query_map(params![id, season], |r| {
        let row = EventRow {
            kind: r.get(2)?,
            player: r.get(3)?,
            other: r.get(4)?,
            challenge: r.get(5)?,
            result: r.get(6)?,
            forfeit: r.get(7)?,
            undoes: r.get(8)?,
            reason: r.get(9)?,
        };
        Ok((r.get::<u32>(0)?, r.get::<i64>(1)?, row))
    })?;
    let mut events = Vec::new();
    for row in rows {
        let (eid, at, row) = row?;
        events.push(LadderEvent { id: eid, at, kind: row.into_kind()? });
    }
    let mut st = conn.prepare_cached(&format!(
        "SELECT {CHALLENGE} FROM ladder_challenges WHERE ladder_id = ?1 AND season = ?2 ORDER BY id"
    ))?;
    let rows = st.query_map(params![id, season], |r| challenge_from(r, 0))?;
    let mut challenges = Vec::new();
    for row in rows {
        challenges.push(challenge_status(row?)?);
    }
    let archive = Vec::new();
    let parts = LadderParts { settings, season, season_opened_at, season_start, events, challenges, archive };
    Ladder::restore(parts).map(Some).map_err(|e| StoreError::Corrupt(format!("ladder {id}: {e}")))
}

/// A ladder challenge's columns, for [`challenge_from`].
const CHALLENGE: &str = "id, challenger_id, challenged_id, status, issued_at, accept_by, accepted_at, game_id";

/// A challenge from the [`CHALLENGE`] columns starting at column `at`, with its status as stored.
fn challenge_from(r: &Row<'_>, at: usize) -> crate::store::sql::Result<(LadderChallenge, String)> {
    Ok((
        LadderChallenge {
            id: r.get(at)?,
            challenger: r.get(at + 1)?,
            challenged: r.get(at + 2)?,
            status: ChallengeStatus::Pending,
            issued_at: r.get(at + 4)?,
            accept_by: r.get(at + 5)?,
            accepted_at: r.get(at + 6)?,
            game: r.get(at + 7)?,
        },
        r.get::<String>(at + 3)?,
    ))
}

fn challenge_status((c, status): (LadderChallenge, String)) -> Result<LadderChallenge> {
    Ok(LadderChallenge { status: status_from_db(&status)?, ..c })
}

/// A ladder's current standings as `ladders.standings` keeps them (migration 34): player ids,
/// comma-separated, the top first.
fn standings_text(players: &[PlayerId]) -> String {
    players.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

fn standings_from_text(id: LadderId, text: &str) -> Result<Vec<PlayerId>> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|p| p.parse().map_err(|_| StoreError::Corrupt(format!("ladder {id} keeps standings {text:?}"))))
        .collect()
}

/// A ladder's current season as a community's page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LadderNow {
    pub info: LadderInfo,
    /// The current order, the top first.
    pub standings: Vec<PlayerId>,
    /// The season's challenges not decided yet (pending or accepted), by number.
    pub open: Vec<LadderChallenge>,
}

/// A community's ladders (by variant) in their current seasons: their standings as kept
/// (`ladders.standings`), and their open challenges from the index of open ones (migration 34).
/// Two statements (one without a ladder), however many ladders, events and challenges the seasons
/// have. A ladder keeping no standings (not changed since migration 34, before the store opened
/// and wrote them: [`crate::store::Store::keep_missing_standings`]) is replayed ([`load_current`]). Both statements read
/// one snapshot (a read transaction, SQLite's or PostgreSQL's REPEATABLE READ): a change committed
/// between them (a result that moves the standings and settles a challenge) is in both or in neither.
pub fn current_in(conn: &Connection, platform: &str, community_id: &str) -> Result<Vec<LadderNow>> {
    let tx = super::snapshot(conn)?;
    let conn: &Connection = &tx;
    let mut st = conn.prepare_cached(
        "SELECT id, platform, community_id, variant, days_per_move, max_places_up, accept_days, season, standings
         FROM ladders WHERE platform = ?1 AND community_id = ?2 ORDER BY variant",
    )?;
    let rows = st.query_map(params![platform, community_id], |r| Ok((info_from(r)?, r.get::<Option<String>>(8)?)))?;
    let mut ladders = Vec::new();
    for row in rows {
        let (info, kept) = row?;
        let standings = match kept {
            Some(text) => standings_from_text(info.id, &text)?,
            None => load_current(conn, info.id)?.map(|l| l.standings().to_vec()).unwrap_or_default(),
        };
        ladders.push(LadderNow { info, standings, open: Vec::new() });
    }
    if ladders.is_empty() {
        tx.commit()?;
        return Ok(ladders);
    }
    #[cfg(test)]
    BETWEEN_READS.with(|between| between.borrow_mut().take().map(|run| run()));
    let mut st = conn.prepare_cached(&open_in_sql())?;
    for row in st.query_map(params![platform, community_id], |r| Ok((r.get::<LadderId>(0)?, challenge_from(r, 1)?)))? {
        let (ladder, challenge) = row?;
        if let Some(l) = ladders.iter_mut().find(|l| l.info.id == ladder) {
            l.open.push(challenge_status(challenge)?);
        }
    }
    drop(st);
    tx.commit()?;
    Ok(ladders)
}

#[cfg(test)]
thread_local! {
    /// Run once between [`current_in`]'s two statements: a test's write from another connection.
    static BETWEEN_READS: std::cell::RefCell<Option<Box<dyn FnOnce()>>> = const { std::cell::RefCell::new(None) };
}

/// The ladders that keep no standings: not changed since migration 34, or whose players were
/// merged since ([`crate::store::links`]); each is replayed when read until [`keep_standings`]
/// writes them ([`crate::store::Store::keep_missing_standings`], as a store opens).
pub fn missing_standings(conn: &Connection) -> Result<Vec<LadderId>> {
    let mut st = conn.prepare_cached("SELECT id FROM ladders WHERE standings IS NULL ORDER BY id")?;
    st.query_map((), |r| r.get(0))?.collect::<std::result::Result<_, _>>().map_err(Into::into)
}

/// Writes ladder `id`'s standings when it keeps none; whether it wrote them. A read-modify-write
/// of the ladder's row: run inside a unit of work, as every other. A ladder that cannot be read is
/// left to be replayed (its page says what is wrong), with a warning.
pub fn keep_standings(conn: &Connection, id: LadderId) -> Result<bool> {
    match load_current(conn, id) {
        Ok(Some(l)) => Ok(conn.execute(
            "UPDATE ladders SET standings = ?2 WHERE id = ?1 AND standings IS NULL",
            params![id, standings_text(l.standings())],
        )? == 1),
        Ok(None) => Ok(false),
        Err(e @ StoreError::Corrupt(_)) => {
            tracing::warn!(ladder = id, "a ladder's standings could not be read to keep them: {e}");
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

/// The statement of [`current_in`]'s open challenges: those of each ladder's current season, read
/// on `ladder_challenges_open`.
fn open_in_sql() -> String {
    let columns = CHALLENGE.split(", ").map(|c| format!("c.{c}")).collect::<Vec<_>>().join(", ");
    format!(
        "SELECT c.ladder_id, {columns} FROM ladders l
         JOIN ladder_challenges c ON c.ladder_id = l.id AND c.season = l.season
         WHERE l.platform = ?1 AND l.community_id = ?2 AND c.status IN ('pending', 'accepted')
         ORDER BY c.ladder_id, c.id"
    )
}

/// A closed season as a community's page lists it: the ladder's variant, the season's number,
/// when it closed, and its first final places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClosedSeason {
    pub ladder: LadderId,
    pub variant: String,
    pub season: u32,
    pub closed_at: i64,
    /// The first `podium` players of its final standings, by place.
    pub podium: Vec<PlayerId>,
}

/// The statement of [`recently_closed`]: `?1` platform, `?2` community, `?3` seasons at most,
/// `?4` places each. Each ladder's last `?3` seasons are a range of `ladder_seasons`' key (closed
/// seasons are numbered 1 to the current one's less one), and its places a range of
/// `ladder_standings`' key: a community of few ladders (one a variant at most) reads a few
/// dozen rows, however many seasons it closed.
const RECENTLY_CLOSED: &str = "WITH recent AS (
         SELECT s.ladder_id, l.variant, s.season, s.closed_at FROM ladders l
         JOIN ladder_seasons s ON s.ladder_id = l.id AND s.season >= l.season - ?3
         WHERE l.platform = ?1 AND l.community_id = ?2
         ORDER BY s.closed_at DESC, s.ladder_id, s.season DESC LIMIT ?3)
     SELECT r.ladder_id, r.variant, r.season, r.closed_at, st.player_id FROM recent r
     LEFT JOIN ladder_standings st ON st.ladder_id = r.ladder_id AND st.season = r.season
         AND st.kind = 'final' AND st.place <= ?4
     ORDER BY r.closed_at DESC, r.ladder_id, r.season DESC, st.place";

/// A community's seasons closed last, the latest first, at most `most`, each with its first
/// `podium` final places: in one statement, reading a bounded number of rows (see
/// [`RECENTLY_CLOSED`]). How many it closed in all is each ladder's season less one
/// ([`LadderInfo::season`]).
pub fn recently_closed(
    conn: &Connection,
    platform: &str,
    community_id: &str,
    most: usize,
    podium: usize,
) -> Result<Vec<ClosedSeason>> {
    let mut st = conn.prepare_cached(RECENTLY_CLOSED)?;
    let rows = st.query_map(params![platform, community_id, most as i64, podium as i64], |r| {
        Ok((
            r.get::<LadderId>(0)?,
            r.get::<String>(1)?,
            r.get::<u32>(2)?,
            r.get::<i64>(3)?,
            r.get::<Option<PlayerId>>(4)?,
        ))
    })?;
    let mut seasons: Vec<ClosedSeason> = Vec::new();
    for row in rows {
        let (ladder, variant, season, closed_at, player) = row?;
        let same = seasons.last().is_some_and(|s| s.ladder == ladder && s.season == season);
        if !same {
            seasons.push(ClosedSeason { ladder, variant, season, closed_at, podium: Vec::new() });
        }
        if let (Some(p), Some(last)) = (player, seasons.last_mut()) {
            last.podium.push(p);
        }
    }
    Ok(seasons)
}

fn write_standings(tx: &Connection, id: LadderId, season: u32, kind: &str, players: &[PlayerId]) -> Result<()> {
    tx.execute(
        "DELETE FROM ladder_standings WHERE ladder_id = ?1 AND season = ?2 AND kind = ?3",
        params![id, season, kind],
    )?;
    let mut st = tx.prepare_cached(
        "INSERT INTO ladder_standings (ladder_id, season, kind, place, player_id) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (i, p) in players.iter().enumerate() {
        st.execute(params![id, season, kind, i + 1, p])?;
    }
    Ok(())
}

/// Writes the ladder's current season and archive (events are only ever added).
fn save(tx: &Connection, id: LadderId, ladder: &Ladder) -> Result<()> {
    let p = ladder.parts();
    tx.execute(
        "UPDATE ladders SET season = ?2, season_opened_at = ?3, standings = ?4 WHERE id = ?1",
        params![id, p.season, p.season_opened_at, standings_text(ladder.standings())],
    )?;
    write_standings(tx, id, p.season, "start", &p.season_start)?;
    let mut st = tx.prepare_cached(
        "INSERT INTO ladder_events (ladder_id, season, id, at, kind, player_id, other_id, challenge_id, result,
                                    forfeit, undoes, reason)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT DO NOTHING",
    )?;
    for e in &p.events {
        let r = EventRow::from_kind(&e.kind);
        st.execute(params![
            id,
            p.season,
            e.id,
            e.at,
            r.kind,
            r.player,
            r.other,
            r.challenge,
            r.result,
            r.forfeit,
            r.undoes,
            r.reason
        ])?;
    }
    let mut st = tx.prepare_cached(
        "INSERT INTO ladder_challenges (ladder_id, season, id, challenger_id, challenged_id, status,
                                        issued_at, accept_by, accepted_at, game_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (ladder_id, season, id) DO UPDATE SET challenger_id = excluded.challenger_id,
           challenged_id = excluded.challenged_id, status = excluded.status, issued_at = excluded.issued_at,
           accept_by = excluded.accept_by, accepted_at = excluded.accepted_at, game_id = excluded.game_id",
    )?;
    for c in &p.challenges {
        st.execute(params![
            id,
            p.season,
            c.id,
            c.challenger,
            c.challenged,
            status_to_db(c.status),
            c.issued_at,
            c.accept_by,
            c.accepted_at,
            c.game
        ])?;
    }
    for s in &p.archive {
        let new = tx.execute(
            "INSERT INTO ladder_seasons (ladder_id, season, opened_at, closed_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT DO NOTHING",
            params![id, s.number, s.opened_at, s.closed_at],
        )?;
        if new == 1 {
            write_standings(tx, id, s.number, "final", &s.standings)?;
        }
    }
    Ok(())
}

/// Loads ladder `id`, applies `op` and, when it succeeds, stores the result — all in one
/// immediate transaction. The outer error is a storage failure; the inner one is `op`'s refusal,
/// which leaves the stored ladder as it was. `op` must not close the season (see [`close_season`]).
pub fn update<T>(
    conn: &Connection,
    id: LadderId,
    op: impl FnOnce(&mut Ladder) -> std::result::Result<T, LadderError>,
) -> Result<std::result::Result<T, LadderError>> {
    let tx = super::immediate(conn)?;
    let mut ladder = load(&tx, id)?.ok_or_else(|| StoreError::Corrupt(format!("no ladder {id}")))?;
    let season = ladder.season();
    let out = op(&mut ladder);
    if out.is_ok() {
        if ladder.season() != season {
            return Err(StoreError::Corrupt("a ladder season is closed with ladders::close_season".into()));
        }
        save(&tx, id, &ladder)?;
        tx.commit()?;
    }
    Ok(out)
}

/// Like [`update`], inside a transaction the caller holds (a game's end hook).
pub fn update_in<T>(
    conn: &Connection,
    id: LadderId,
    op: impl FnOnce(&mut Ladder) -> std::result::Result<T, LadderError>,
) -> Result<std::result::Result<T, LadderError>> {
    let mut ladder = load(conn, id)?.ok_or_else(|| StoreError::Corrupt(format!("no ladder {id}")))?;
    let season = ladder.season();
    let out = op(&mut ladder);
    if out.is_ok() {
        if ladder.season() != season {
            return Err(StoreError::Corrupt("a ladder season is closed with ladders::close_season".into()));
        }
        save(conn, id, &ladder)?;
    }
    Ok(out)
}

/// A ladder's row by id.
pub fn info(conn: &Connection, id: LadderId) -> Result<Option<LadderInfo>> {
    Ok(conn.query_row(&format!("{INFO} WHERE id = ?1"), [id], info_from).optional()?)
}

/// The chat and thread a ladder's standings message goes to.
pub fn chat(conn: &Connection, id: LadderId) -> Result<Option<(String, Option<String>)>> {
    Ok(conn
        .query_row("SELECT chat_id, thread_id FROM ladders WHERE id = ?1 AND chat_id IS NOT NULL", [id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .optional()?)
}

/// Notes the chat and thread a ladder's standings message goes to.
pub fn set_chat(conn: &Connection, id: LadderId, chat_id: &str, thread_id: Option<&str>) -> Result<()> {
    conn.execute("UPDATE ladders SET chat_id = ?2, thread_id = ?3 WHERE id = ?1", params![id, chat_id, thread_id])?;
    Ok(())
}

/// Ties an ordinary challenge to the ladder challenge it offers.
pub fn link_challenge(
    conn: &Connection,
    challenge_id: i64,
    id: LadderId,
    season: u32,
    ladder_challenge: ChallengeId,
) -> Result<()> {
    conn.execute(
        "INSERT INTO ladder_challenge_links (challenge_id, ladder_id, season, ladder_challenge) VALUES (?1, ?2, ?3, ?4)",
        params![challenge_id, id, season, ladder_challenge],
    )?;
    Ok(())
}

/// The ladder challenge an ordinary challenge offers: (ladder, season, ladder challenge).
pub fn challenge_link(conn: &Connection, challenge_id: i64) -> Result<Option<(LadderId, u32, ChallengeId)>> {
    Ok(conn
        .query_row(
            "SELECT ladder_id, season, ladder_challenge FROM ladder_challenge_links WHERE challenge_id = ?1",
            [challenge_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

/// The ordinary challenge offering a ladder challenge.
pub fn linked_challenge(
    conn: &Connection,
    id: LadderId,
    season: u32,
    ladder_challenge: ChallengeId,
) -> Result<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT challenge_id FROM ladder_challenge_links WHERE ladder_id = ?1 AND season = ?2 AND ladder_challenge = ?3",
            params![id, season, ladder_challenge],
            |r| r.get(0),
        )
        .optional()?)
}

/// Notes that a ladder's standings message is owed.
pub fn mark_standings_due(conn: &Connection, id: LadderId) -> Result<()> {
    conn.execute("INSERT INTO ladder_standings_due (ladder_id) VALUES (?1) ON CONFLICT DO NOTHING", [id])?;
    Ok(())
}

/// Takes the ladders whose standings message is owed (each is taken by one caller).
pub fn take_standings_due(conn: &Connection) -> Result<Vec<LadderId>> {
    let mut st = conn.prepare_cached("DELETE FROM ladder_standings_due RETURNING ladder_id")?;
    let rows = st.query_map((), |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Closes the current season of ladder `id` (see [`Ladder::close_season`]) and returns it.
pub fn close_season(conn: &Connection, id: LadderId, now: i64) -> Result<Season> {
    let tx = super::immediate(conn)?;
    let mut ladder = load(&tx, id)?.ok_or_else(|| StoreError::Corrupt(format!("no ladder {id}")))?;
    // The closing season's challenges are cancelled in place before the season moves on.
    let before = ladder.clone();
    let closed = ladder.close_season(now).clone();
    let mut cancelled = before.parts().clone();
    for c in cancelled.challenges.iter_mut().filter(|c| c.status.is_open()) {
        c.status = ChallengeStatus::Cancelled;
    }
    let cancelled = Ladder::restore(cancelled).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    save(&tx, id, &cancelled)?;
    save(&tx, id, &ladder)?;
    tx.commit()?;
    Ok(closed)
}

/// The ladder and challenge (of its current season) that game `game` is played for.
/// Kept in a unit of work until it writes one of [`BY_GAME_TABLES`]; a game's end on PostgreSQL
/// reads it with the game's row ([`games::finish`](super::games::finish)) and keeps its answer.
pub fn find_by_game(conn: &Connection, game: i64) -> Result<Option<(LadderId, ChallengeId)>> {
    Ok(conn.query_opt_in_unit(BY_GAME_TABLES, BY_GAME, [game], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// [`find_by_game`]'s statement (the game's id is `?1`) and the tables it reads.
pub(crate) const BY_GAME: &str =
    "SELECT c.ladder_id, c.id FROM ladder_challenges c JOIN ladders l ON l.id = c.ladder_id
     WHERE c.game_id = ?1 AND c.season = l.season AND c.status = 'accepted'";
pub(crate) const BY_GAME_TABLES: &[&str] = &["ladder_challenges", "ladders"];

/// Ladders of `platforms` with a pending challenge whose time to accept is over at `now` (to run
/// [`Ladder::expire_due`] on), taken for the caller's transaction ([`Connection::take_due`]).
///
/// The candidates come from the partial index `ladder_challenges_due` (the `IN`): without it the
/// query visited every ladder on every tick.
pub fn due(conn: &Connection, now: i64, platforms: &[&str]) -> Result<Vec<LadderId>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT l.id FROM ladders l
         WHERE l.id IN (SELECT ladder_id FROM ladder_challenges WHERE status = 'pending' AND accept_by <= ?1)
           AND l.platform = ?2
           AND EXISTS (SELECT 1 FROM ladder_challenges c WHERE c.ladder_id = l.id
             AND c.status = 'pending' AND c.accept_by <= ?1 AND c.season = l.season) ORDER BY l.id{}",
        conn.take_due()
    ))?;
    let mut due = super::served::each_platform(platforms, |p| {
        let rows = st.query_map(params![now, p], |r| r.get(0))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    })?;
    due.sort();
    Ok(due)
}

/// The earliest time a pending ladder challenge runs out.
pub fn next_due(conn: &Connection) -> Result<Option<i64>> {
    Ok(conn.query_row("SELECT min(accept_by) FROM ladder_challenges WHERE status = 'pending'", (), |r| r.get(0))?)
}

/// A game between `white` and `black` for tests of community tables.
#[cfg(test)]
pub(crate) fn test_game(conn: &Connection, white: PlayerId, black: PlayerId) -> i64 {
    crate::store::games::create(conn, &crate::store::games::test_game("test", white, black), 0).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, players};

    on_both_backends!(
        create_find_and_list,
        operations_round_trip_and_refusals_change_nothing,
        games_find_their_challenge_and_seasons_are_archived,
        the_seasons_closed_last_are_read_a_few_at_most,
        a_ladders_current_season_is_read_as_kept,
        a_ladders_current_season_is_read_from_one_snapshot,
    );

    /// Five players, `u1`…`u5`.
    fn five_players(store: &Store) -> Vec<PlayerId> {
        let c = store.conn().unwrap();
        (1..=5).map(|i| players::ensure(&c, "console", &format!("u{i}"), &format!("P{i}"), 1).unwrap().id).collect()
    }

    fn create_find_and_list(store: &Store) {
        let c = store.conn().unwrap();
        let s = LadderSettings { days_per_move: 2, max_places_up: 4, accept_days: 5 };
        let id = create(&c, "matrix", "!room", "chess", s, 10).unwrap().unwrap();
        assert_eq!(create(&c, "matrix", "!room", "chess", s, 11).unwrap(), None);
        create(&c, "matrix", "!room", "atomic", LadderSettings::default(), 10).unwrap().unwrap();
        let found = find(&c, "matrix", "!room", "chess").unwrap().unwrap();
        assert_eq!((found.id, found.settings, found.season), (id, s, 1));
        let names: Vec<String> = list(&c, "matrix", "!room").unwrap().into_iter().map(|l| l.variant).collect();
        assert_eq!(names, ["atomic", "chess"]);
        assert!(load(&c, id).unwrap().unwrap().standings().is_empty());
        assert!(load(&c, 999).unwrap().is_none());
    }

    fn operations_round_trip_and_refusals_change_nothing(store: &Store) {
        let p = five_players(store);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g1", "chess", LadderSettings::default(), 0).unwrap().unwrap();
        update(&c, id, |l| p.iter().try_for_each(|&x| l.join(x, 5).map(|_| ()))).unwrap().unwrap();
        let ch = update(&c, id, |l| l.challenge_player(p[4], p[2], 10)).unwrap().unwrap();
        update(&c, id, |l| l.accept(p[2], 20)).unwrap().unwrap();
        // A refused operation after a successful one in the same closure rolls both back.
        let refused = update(&c, id, |l| {
            l.leave(p[0], 30)?;
            l.join(p[1], 30)
        })
        .unwrap();
        assert_eq!(refused, Err(LadderError::AlreadyOnLadder { place: 1 }));
        assert_eq!(load(&c, id).unwrap().unwrap().standings(), p.as_slice());
        update(&c, id, |l| l.record_result(ch, ChallengeResult::ChallengerWon, 40)).unwrap().unwrap();
        let ch2 = update(&c, id, |l| l.challenge_player(p[1], p[0], 50)).unwrap().unwrap();
        update(&c, id, |l| l.undo(1, "wrong result reported", 60)).unwrap().unwrap();
        let l = load(&c, id).unwrap().unwrap();
        assert_eq!(l.standings(), p.as_slice());
        assert_eq!(l.challenge(ch2).unwrap().status, ChallengeStatus::Pending);
        assert!(
            matches!(&l.events()[6].kind, EventKind::Undone { event: 6, reason } if reason == "wrong result reported")
        );
        assert_eq!(l.events().len(), 7);
        // The pending challenge runs out after three days.
        let deadline = 50 + 3 * 86_400;
        assert_eq!(next_due(&c).unwrap(), Some(deadline));
        assert!(due(&c, deadline - 1, &["discord"]).unwrap().is_empty());
        assert_eq!(due(&c, deadline, &["discord"]).unwrap(), [id]);
        assert!(due(&c, deadline, &["matrix"]).unwrap().is_empty(), "left to a process serving its platform");
        update(&c, id, |l| Ok(l.expire_due(deadline))).unwrap().unwrap();
        assert_eq!(load(&c, id).unwrap().unwrap().standings()[..2], [p[1], p[0]]);
        assert!(due(&c, deadline, &["discord"]).unwrap().is_empty());
    }

    fn games_find_their_challenge_and_seasons_are_archived(store: &Store) {
        let p = five_players(store);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g1", "chess", LadderSettings::default(), 0).unwrap().unwrap();
        let game = test_game(&c, p[1], p[0]);
        update(&c, id, |l| {
            l.join(p[0], 1)?;
            l.join(p[1], 1)?;
            l.join(p[2], 1)
        })
        .unwrap()
        .unwrap();
        let ch = update(&c, id, |l| l.challenge_player(p[1], p[0], 2)).unwrap().unwrap();
        update(&c, id, |l| l.accept(p[0], 3)).unwrap().unwrap();
        update(&c, id, |l| l.attach_game(ch, game)).unwrap().unwrap();
        assert_eq!(find_by_game(&c, game).unwrap(), Some((id, ch)));
        let closed = close_season(&c, id, 100).unwrap();
        assert_eq!(closed.standings, p[..3]);
        let l = load(&c, id).unwrap().unwrap();
        assert_eq!((l.season(), l.standings()), (2, &p[..3]));
        assert_eq!(l.archive(), [closed]);
        let old: String = c
            .query_row("SELECT status FROM ladder_challenges WHERE ladder_id = ?1 AND season = 1", [id], |r| r.get(0))
            .unwrap();
        assert_eq!(old, "cancelled");
        assert_eq!(find_by_game(&c, game).unwrap(), None);
        // Closing inside update is refused.
        assert!(update(&c, id, |l| Ok(l.close_season(200).number)).is_err());
    }

    /// A community's page reads the seasons closed last, at most as many as it asks for, each
    /// with its first places, however many its ladders closed; and a ladder's current season
    /// without its archive.
    fn the_seasons_closed_last_are_read_a_few_at_most(store: &Store) {
        let p = five_players(store);
        let c = store.conn().unwrap();
        let new = |community: &str, variant: &str| {
            create(&c, "discord", community, variant, LadderSettings::default(), 0).unwrap().unwrap()
        };
        let (chess, atomic, elsewhere) = (new("g1", "chess"), new("g1", "atomic"), new("g2", "chess"));
        update(&c, chess, |l| p.iter().try_for_each(|&x| l.join(x, 1).map(|_| ()))).unwrap().unwrap();
        update(&c, atomic, |l| l.join(p[4], 1).map(|_| ())).unwrap().unwrap();
        // Chess closes twelve seasons (at 10, 20, … 120), atomic three (15, 35, 55), and the
        // other community's ladder one, the latest of all.
        for i in 1..=12 {
            close_season(&c, chess, i * 10).unwrap();
        }
        for at in [15, 35, 55] {
            close_season(&c, atomic, at).unwrap();
        }
        close_season(&c, elsewhere, 1_000).unwrap();
        let closed_in_all: u32 = list(&c, "discord", "g1").unwrap().iter().map(|l| l.season - 1).sum();
        assert_eq!(closed_in_all, 15);

        let got = recently_closed(&c, "discord", "g1", 10, 3).unwrap();
        let seasons: Vec<(&str, u32, i64)> = got.iter().map(|s| (s.variant.as_str(), s.season, s.closed_at)).collect();
        let mut want: Vec<(&str, u32, i64)> = (6..=12).rev().map(|n| ("chess", n, i64::from(n) * 10)).collect();
        want.extend([("atomic", 3, 55), ("chess", 5, 50), ("chess", 4, 40)]);
        assert_eq!(seasons, want);
        for s in &got {
            assert_eq!(s.podium, if s.variant == "chess" { &p[..3] } else { &p[4..] }, "{s:?}");
        }
        assert_eq!(recently_closed(&c, "discord", "g1", 3, 1).unwrap().len(), 3);
        assert!(recently_closed(&c, "discord", "g1", 3, 1).unwrap().iter().all(|s| s.podium.len() == 1));
        assert!(recently_closed(&c, "discord", "g3", 10, 3).unwrap().is_empty());

        let current = load_current(&c, chess).unwrap().unwrap();
        let whole = load(&c, chess).unwrap().unwrap();
        assert!(current.archive().is_empty());
        assert_eq!(whole.archive().len(), 12);
        assert_eq!((current.season(), current.standings()), (whole.season(), whole.standings()));
    }

    /// What is written between the two statements of [`current_in`] (here: a challenge accepted and
    /// won, which moves the standings and closes it, and a new one) is read by neither: the
    /// standings and the open challenges are of one state (before: the standings before the result
    /// beside the open challenges after it, the won challenge gone and the new one listed).
    fn a_ladders_current_season_is_read_from_one_snapshot(store: &Store) {
        let p = five_players(store);
        let c = store.conn().unwrap();
        let chess = create(&c, "discord", "g1", "chess", LadderSettings::default(), 0).unwrap().unwrap();
        update(&c, chess, |l| p.iter().try_for_each(|&x| l.join(x, 1).map(|_| ()))).unwrap().unwrap();
        let won = update(&c, chess, |l| l.challenge_player(p[4], p[2], 2)).unwrap().unwrap();
        update(&c, chess, |l| l.accept(p[2], 3)).unwrap().unwrap();
        let before = current_in(&c, "discord", "g1").unwrap();
        assert_eq!(before[0].open.iter().map(|c| c.id).collect::<Vec<_>>(), [won]);
        // The write runs on a thread of its own, with its own connection, while the read waits
        // between its statements.
        let (go, done) =
            (std::sync::Arc::new(std::sync::Barrier::new(2)), std::sync::Arc::new(std::sync::Barrier::new(2)));
        let (challenger, challenged) = (p[3], p[1]);
        let newer = std::thread::scope(|s| {
            let (go_too, done_too) = (go.clone(), done.clone());
            let writer = s.spawn(move || {
                go_too.wait();
                let other = store.conn().unwrap();
                update(&other, chess, |l| l.record_result(won, ChallengeResult::ChallengerWon, 4)).unwrap().unwrap();
                let newer = update(&other, chess, |l| l.challenge_player(challenger, challenged, 5)).unwrap().unwrap();
                done_too.wait();
                newer
            });
            BETWEEN_READS.with(|between| {
                *between.borrow_mut() = Some(Box::new(move || {
                    go.wait();
                    done.wait();
                }))
            });
            assert_eq!(current_in(&c, "discord", "g1").unwrap(), before);
            writer.join().unwrap()
        });
        let after = current_in(&c, "discord", "g1").unwrap();
        assert_eq!(after[0].open.iter().map(|c| c.id).collect::<Vec<_>>(), [newer]);
        assert_ne!(after[0].standings, before[0].standings);
    }

    /// A community's ladders in their current seasons, in two statements: the standings as kept
    /// by each change (the replay's, through results, an undo, a player leaving and a season
    /// closed), the open challenges only, other communities left out; a ladder from before
    /// migration 34, keeping none, is replayed.
    fn a_ladders_current_season_is_read_as_kept(store: &Store) {
        let p = five_players(store);
        let c = store.conn().unwrap();
        let new = |community: &str, variant: &str| {
            create(&c, "discord", community, variant, LadderSettings::default(), 0).unwrap().unwrap()
        };
        let (chess, atomic, _elsewhere) = (new("g1", "chess"), new("g1", "atomic"), new("g2", "chess"));
        let read = || current_in(&c, "discord", "g1").unwrap();
        let replayed = |id| load(&c, id).unwrap().unwrap();
        let now = read();
        assert_eq!(
            now.iter().map(|l| (l.info.variant.as_str(), l.standings.len())).collect::<Vec<_>>(),
            [("atomic", 0), ("chess", 0)]
        );
        update(&c, chess, |l| p.iter().try_for_each(|&x| l.join(x, 1).map(|_| ()))).unwrap().unwrap();
        update(&c, atomic, |l| l.join(p[4], 1).map(|_| ())).unwrap().unwrap();
        let won = update(&c, chess, |l| l.challenge_player(p[4], p[2], 2)).unwrap().unwrap();
        update(&c, chess, |l| l.accept(p[2], 3)).unwrap().unwrap();
        update(&c, chess, |l| l.record_result(won, ChallengeResult::ChallengerWon, 4)).unwrap().unwrap();
        let accepted = update(&c, chess, |l| l.challenge_player(p[1], p[0], 5)).unwrap().unwrap();
        update(&c, chess, |l| l.accept(p[0], 6)).unwrap().unwrap();
        let pending = update(&c, chess, |l| l.challenge_player(p[3], p[4], 7)).unwrap().unwrap();
        let check = || {
            let now = read();
            assert_eq!(now.len(), 2);
            for l in &now {
                let whole = replayed(l.info.id);
                assert_eq!((l.info.season, l.standings.as_slice()), (whole.season(), whole.standings()));
                let open: Vec<_> = whole.challenges().iter().filter(|c| c.status.is_open()).cloned().collect();
                assert_eq!(l.open, open, "{}", l.info.variant);
            }
            now
        };
        let now = check();
        assert_eq!(now[1].standings, [p[0], p[1], p[4], p[2], p[3]]);
        assert_eq!(now[1].open.iter().map(|c| c.id).collect::<Vec<_>>(), [accepted, pending]);
        update(&c, chess, |l| l.undo(1, "wrong result", 8)).unwrap().unwrap();
        update(&c, chess, |l| l.withdraw(p[3]).map(|_| ())).unwrap().unwrap();
        update(&c, chess, |l| l.leave(p[1], 10).map(|_| ())).unwrap().unwrap();
        assert_eq!(check()[1].standings, [p[0], p[2], p[3], p[4]]);
        close_season(&c, chess, 100).unwrap();
        let now = check();
        assert_eq!((now[1].info.season, now[1].open.len()), (2, 0));

        // Kept by no change since migration 34: replayed, until the store writes them as it opens.
        c.execute("UPDATE ladders SET standings = NULL WHERE id = ?1", [chess]).unwrap();
        assert_eq!(check()[1].standings, [p[0], p[2], p[3], p[4]]);
        assert_eq!(store.keep_missing_standings().unwrap(), 1);
        let kept: Option<String> =
            c.query_row("SELECT standings FROM ladders WHERE id = ?1", [chess], |r| r.get(0)).unwrap();
        assert_eq!(kept, Some(standings_text(&[p[0], p[2], p[3], p[4]])));
        assert_eq!(store.keep_missing_standings().unwrap(), 0, "none left");
        assert_eq!(check()[1].standings, [p[0], p[2], p[3], p[4]]);
    }

    /// A store opening while another process changes a ladder that keeps no standings opens, and
    /// writes them: the standings are kept in a unit of work, run again when it met the change
    /// (before: their own transaction, whose serialization failure left the store unopened).
    #[cfg(feature = "postgres")]
    #[test]
    fn a_store_opens_beside_a_change_of_a_ladder_keeping_no_standings() {
        let server = pg_harness::PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
        let database = server.create_database().unwrap();
        let store = Store::open_postgres(&database.url(), 1).unwrap();
        let p = five_players(&store);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g1", "chess", LadderSettings::default(), 0).unwrap().unwrap();
        update(&c, id, |l| p.iter().try_for_each(|&x| l.join(x, 1).map(|_| ()))).unwrap().unwrap();
        drop(c);
        drop(store);
        let mut other = database.connect().unwrap();
        other.batch_execute("UPDATE ladders SET standings = NULL").unwrap();
        let mut change = other.transaction().unwrap();
        change.execute("UPDATE ladders SET season_opened_at = season_opened_at WHERE id = $1", &[&id]).unwrap();
        let url = database.url();
        let opening = std::thread::spawn(move || Store::open_postgres(&url, 1).map(|_| ()));
        // The opening store waits for the change's lock on the ladder's row; then the change commits.
        let mut watch = database.connect().unwrap();
        let waiting = (0..1000).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            let n: i64 = watch
                .query_one(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
                    &[],
                )
                .unwrap()
                .get(0);
            n > 0
        });
        assert!(waiting, "the opening store never waited for the ladder's row");
        change.commit().unwrap();
        opening.join().unwrap().unwrap_or_else(|e| panic!("the store did not open: {e}"));
        let kept: Option<String> =
            other.query_one("SELECT standings FROM ladders WHERE id = $1", &[&id]).unwrap().get(0);
        assert_eq!(kept, Some(standings_text(&p)));
    }

    /// A community's ladders' open challenges are read on the index of open challenges, not the
    /// season's every challenge (SQLite's plan).
    #[test]
    fn a_communitys_ladders_read_only_their_open_challenges() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = crate::store::testing::sqlite_plan(&conn, &open_in_sql());
        assert!(plan.contains("SEARCH c USING COVERING INDEX ladder_challenges_open"), "{plan}");
    }

    /// The seasons closed last are read on the tables' keys, a few rows a ladder (SQLite's plan;
    /// PostgreSQL's was checked by hand, docs/web.md).
    #[test]
    fn the_seasons_closed_last_are_read_on_the_keys() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = crate::store::testing::sqlite_plan(&conn, RECENTLY_CLOSED);
        for step in [
            "SEARCH s USING PRIMARY KEY (ladder_id=? AND season>?)",
            "SEARCH st USING PRIMARY KEY (ladder_id=? AND season=? AND kind=? AND place<?)",
        ] {
            assert!(plan.contains(step), "{plan}");
        }
        assert!(!plan.contains("SCAN s") && !plan.contains("SCAN st"), "{plan}");
    }
}

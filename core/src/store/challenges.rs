//! Challenges: direct (to one player) or open (anyone in the chat may accept); they expire.

use super::Result;
use super::players::PlayerId;
use crate::store::sql::{Connection, OptionalExtension, Row, params};

/// A stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    pub id: i64,
    pub platform: String,
    pub chat_id: String,
    pub challenger: PlayerId,
    /// `None` for an open challenge.
    pub challenged: Option<PlayerId>,
    pub variant: String,
    pub setup: Option<u32>,
    pub days_per_move: Option<u32>,
    /// `white`, `black` or `random`: the challenger's colour.
    pub color: String,
    pub status: String,
    pub created_at: i64,
    pub expires_at: i64,
    pub community_id: Option<String>,
    pub rated: bool,
    /// Made in a chat reached only through interactions.
    pub interaction_only: bool,
}

const COLUMNS: &str = "id, platform, chat_id, challenger_id, challenged_id, variant, setup, days_per_move, color, status, created_at, \
     expires_at, community_id, rated, interaction_only";

fn row(r: &Row<'_>) -> crate::store::sql::Result<Challenge> {
    Ok(Challenge {
        id: r.get(0)?,
        platform: r.get(1)?,
        chat_id: r.get(2)?,
        challenger: r.get(3)?,
        challenged: r.get(4)?,
        variant: r.get(5)?,
        setup: r.get(6)?,
        days_per_move: r.get(7)?,
        color: r.get(8)?,
        status: r.get(9)?,
        created_at: r.get(10)?,
        expires_at: r.get(11)?,
        community_id: r.get(12)?,
        rated: r.get(13)?,
        interaction_only: r.get(14)?,
    })
}

/// A challenge to create.
#[derive(Clone, Debug)]
pub struct NewChallenge<'a> {
    pub platform: &'a str,
    pub community_id: Option<&'a str>,
    pub rated: bool,
    pub chat_id: &'a str,
    pub challenger: PlayerId,
    pub challenged: Option<PlayerId>,
    pub variant: &'a str,
    pub setup: Option<u32>,
    pub days_per_move: Option<u32>,
    pub color: &'a str,
    pub expires_at: i64,
    /// Made in a chat reached only through interactions.
    pub interaction_only: bool,
}

/// Inserts an open challenge.
pub fn create(conn: &Connection, c: &NewChallenge<'_>, now: i64) -> Result<i64> {
    Ok(conn.query_row(
        "INSERT INTO challenges (platform, chat_id, challenger_id, challenged_id, variant, setup, days_per_move, color,
           status, created_at, expires_at, community_id, rated, interaction_only)
           VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'open', ?9, ?10, ?11, ?12, ?13) RETURNING id",
        params![
            c.platform,
            c.chat_id,
            c.challenger,
            c.challenged,
            c.variant,
            c.setup,
            c.days_per_move,
            c.color,
            now,
            c.expires_at,
            c.community_id,
            c.rated,
            c.interaction_only
        ],
        |r| r.get(0),
    )?)
}

/// A challenge by id.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Challenge>> {
    Ok(conn.query_row(&format!("SELECT {COLUMNS} FROM challenges WHERE id = ?1"), [id], row).optional()?)
}

/// Open, unexpired challenges in a chat that `player` may accept (addressed to them, or open to all
/// and not their own), newest first.
pub fn acceptable(
    conn: &Connection,
    platform: &str,
    chat_id: &str,
    player: PlayerId,
    now: i64,
) -> Result<Vec<Challenge>> {
    let here =
        "platform = ?1 AND chat_id = ?2 AND (challenged_id = ?3 OR (challenged_id IS NULL AND challenger_id <> ?3))";
    open_where(conn, here, (platform, chat_id), player, now)
}

/// Open, unexpired challenges addressed to `player` in chats other than `chat`, on any platform (as
/// a linked account's games are), newest first: answered where they were made.
pub fn addressed_elsewhere(
    conn: &Connection,
    chat: (&str, &str),
    player: PlayerId,
    now: i64,
) -> Result<Vec<Challenge>> {
    open_where(conn, "challenged_id = ?3 AND NOT (platform = ?1 AND chat_id = ?2)", chat, player, now)
}

/// Open, unexpired challenges that meet `condition` (on `?1` platform, `?2` chat, `?3` player),
/// newest first.
fn open_where(
    conn: &Connection,
    condition: &str,
    (platform, chat_id): (&str, &str),
    player: PlayerId,
    now: i64,
) -> Result<Vec<Challenge>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE status = 'open' AND expires_at > ?4 AND {condition} ORDER BY id DESC"
    ))?;
    let rows = st.query_map(params![platform, chat_id, player, now], row)?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Open challenges in a chat made by `player`, newest first.
pub fn made_by(conn: &Connection, platform: &str, chat_id: &str, player: PlayerId) -> Result<Vec<Challenge>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE platform = ?1 AND chat_id = ?2 AND status = 'open'
           AND challenger_id = ?3 ORDER BY id DESC"
    ))?;
    let rows = st.query_map(params![platform, chat_id, player], row)?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Open challenges of `platforms` whose time is up, the earliest first (ties by id), read a
/// platform at a time from the partial index `challenges_expiry` (ordered by id, SQLite scanned
/// every challenge ever made), taken for the caller's transaction ([`Connection::take_due`]).
pub fn due_expiries(conn: &Connection, now: i64, platforms: &[&str]) -> Result<Vec<Challenge>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE platform = ?1 AND status = 'open' AND expires_at <= ?2
         ORDER BY expires_at, id{}",
        conn.take_due()
    ))?;
    let mut due = super::served::each_platform(platforms, |p| {
        let rows = st.query_map(params![p, now], row)?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    })?;
    due.sort_by_key(|c: &Challenge| (c.expires_at, c.id));
    Ok(due)
}

/// Challenge `id` if it is open and its time is up, taken like [`due_expiries`].
pub fn due_expiry(conn: &Connection, id: i64, now: i64) -> Result<Option<Challenge>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM challenges WHERE id = ?1 AND status = 'open' AND expires_at <= ?2{}",
        conn.take_due()
    ))?;
    let rows = st.query_map(params![id, now], row)?;
    Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?.into_iter().next())
}

/// Moves an open challenge to a final status (`accepted` with its game, `declined`, `expired`,
/// `cancelled`). Returns `false` if it was no longer open.
pub fn close(conn: &Connection, id: i64, status: &str, game: Option<i64>) -> Result<bool> {
    let n = conn.execute(
        "UPDATE challenges SET status = ?1, game_id = ?2 WHERE id = ?3 AND status = 'open'",
        params![status, game, id],
    )?;
    Ok(n == 1)
}

//! Ratings per scope and variant, and their history (the `ratings` and `rating_history` tables).
//!
//! Every function takes a `&Connection`, which a `&rusqlite::Transaction` derefs to: the bot rates a
//! game inside the same transaction that stores its result, so a result is never stored unrated or
//! rated twice (`rating_history` holds one row per player, scope and game).

use super::Result;
use super::games::GameId;
use super::players::PlayerId;
use crate::community::rating::{Rating, Score, Side, rate_game};
use crate::store::sql::{Connection, Dialect, OptionalExtension, Row, ToSql, Value, params};

/// Most rows a leaderboard shows in each of its lists.
pub const MAX_LEADERBOARD: usize = 50;
/// Most history points returned at once.
pub const MAX_HISTORY: usize = 1000;

/// Where a rating counts: everywhere, or in one community of one platform.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Global,
    Community { platform: String, community_id: String },
}

impl Scope {
    /// A community's scope.
    pub fn community(platform: &str, community_id: &str) -> Scope {
        Scope::Community { platform: platform.to_string(), community_id: community_id.to_string() }
    }

    /// The stored key: '' for global, 'platform:community_id' otherwise (in SQL:
    /// [`community_key_sql`]).
    pub fn key(&self) -> String {
        match self {
            Scope::Global => String::new(),
            Scope::Community { platform, community_id } => format!("{platform}:{community_id}"),
        }
    }
}

/// A player's rating and record in one scope and variant.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRating {
    pub player_id: PlayerId,
    /// As of the last game (use [`Rating::at`] for the deviation today).
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub last_game_at: Option<i64>,
}

impl PlayerRating {
    /// A player who has not played in this scope and variant yet.
    pub fn new(player_id: PlayerId) -> PlayerRating {
        PlayerRating { player_id, rating: Rating::new(), games: 0, wins: 0, draws: 0, losses: 0, last_game_at: None }
    }

    /// The rating at time `now`, its deviation grown for the time since the last game.
    pub fn rating_at(&self, now: i64) -> Rating {
        self.rating.at(self.last_game_at, now)
    }

    fn record(&mut self, score: Score, rating: Rating, at: i64) {
        self.rating = rating;
        self.games += 1;
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
        self.last_game_at = Some(at);
    }
}

/// The columns a [`PlayerRating`] is read from ([`from_row_at`]).
pub(crate) const COLUMNS: &str = "player_id, rating, deviation, volatility, games, wins, draws, losses, last_game_at";

fn from_row(r: &Row<'_>) -> crate::store::sql::Result<PlayerRating> {
    from_row_at(r, 0)
}

/// The rating in [`COLUMNS`] from column `at` on: `None` when the row has none there (a `LEFT
/// JOIN` that found no rating).
pub(crate) fn maybe_from_row_at(r: &Row<'_>, at: usize) -> crate::store::sql::Result<Option<PlayerRating>> {
    if r.get::<Option<PlayerId>>(at)?.is_none() {
        return Ok(None);
    }
    from_row_at(r, at).map(Some)
}

fn from_row_at(r: &Row<'_>, at: usize) -> crate::store::sql::Result<PlayerRating> {
    Ok(PlayerRating {
        player_id: r.get(at)?,
        rating: Rating { rating: r.get(at + 1)?, deviation: r.get(at + 2)?, volatility: r.get(at + 3)? },
        games: r.get(at + 4)?,
        wins: r.get(at + 5)?,
        draws: r.get(at + 6)?,
        losses: r.get(at + 7)?,
        last_game_at: r.get(at + 8)?,
    })
}

/// [`Scope::key`] of a community in SQL, from the expressions of its platform and community id
/// (`NULL` when the community is): for a statement that joins a game's ratings to the game's row.
pub(crate) fn community_key_sql(platform: &str, community: &str) -> String {
    format!("({platform} || ':' || {community})")
}

/// The stored rating of `player`, or `None` before their first rated game here.
pub fn get(conn: &Connection, player: PlayerId, scope: &Scope, variant: &str) -> Result<Option<PlayerRating>> {
    Ok(conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM ratings WHERE scope = ?1 AND variant = ?2 AND player_id = ?3"),
            params![scope.key(), variant, player],
            from_row,
        )
        .optional()?)
}

const ALL_OF: &str = "SELECT player_id, rating, deviation, volatility, games, wins, draws, losses, last_game_at, \
     variant FROM ratings WHERE player_id = ?1 AND scope = ?2";

/// A player's stored ratings in a scope, by variant, in one statement (`ratings_player`).
pub fn all_of(conn: &Connection, player: PlayerId, scope: &Scope) -> Result<Vec<(String, PlayerRating)>> {
    let mut st = conn.prepare_cached(ALL_OF)?;
    let rows = st.query_map(params![player, scope.key()], |r| Ok((r.get::<String>(9)?, from_row(r)?)))?;
    Ok(rows.collect::<crate::store::sql::Result<_>>()?)
}

/// The statement of [`variants_rated`] for `n` variants: `?1` the scope, then the variants.
fn variants_rated_sql(n: usize) -> String {
    let listed =
        (0..n).map(|i| format!("SELECT CAST(?{} AS TEXT) AS variant", i + 2)).collect::<Vec<_>>().join(" UNION ALL ");
    format!(
        "SELECT v.variant FROM ({listed}) AS v \
         WHERE EXISTS (SELECT 1 FROM ratings r WHERE r.scope = ?1 AND r.variant = v.variant)"
    )
}

/// Which of `variants` have a rating in a scope, in one statement: an index probe of the primary
/// key per variant, where `SELECT DISTINCT variant` would read every rating of the scope.
pub fn variants_rated(conn: &Connection, scope: &Scope, variants: &[&str]) -> Result<Vec<String>> {
    if variants.is_empty() {
        return Ok(Vec::new());
    }
    let sql = variants_rated_sql(variants.len());
    let key = scope.key();
    let mut values = vec![Value::Text(&key)];
    values.extend(variants.iter().map(|v| Value::Text(v)));
    let mut st = conn.prepare_cached(&sql)?;
    let rows = st.query_map(values, |r| r.get::<String>(0))?;
    Ok(rows.collect::<crate::store::sql::Result<_>>()?)
}

/// The stored rating of `player`, or a new player's.
pub fn get_or_new(conn: &Connection, player: PlayerId, scope: &Scope, variant: &str) -> Result<PlayerRating> {
    Ok(get(conn, player, scope, variant)?.unwrap_or_else(|| PlayerRating::new(player)))
}

/// Inserts or replaces the rating row of `r.player_id`.
pub fn upsert(conn: &Connection, scope: &Scope, variant: &str, r: &PlayerRating) -> Result<()> {
    conn.execute(
        &format!(
            "INSERT INTO ratings (scope, variant, {COLUMNS}, provisional_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT (scope, variant, player_id) DO UPDATE SET rating = excluded.rating,
               deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games,
               wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
               last_game_at = excluded.last_game_at, provisional_at = excluded.provisional_at"
        ),
        params![
            scope.key(),
            variant,
            r.player_id,
            r.rating.rating,
            r.rating.deviation,
            r.rating.volatility,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.last_game_at,
            r.rating.provisional_from(r.last_game_at)
        ],
    )?;
    Ok(())
}

/// One player's side of a rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChange {
    pub player_id: PlayerId,
    pub before: Rating,
    pub after: PlayerRating,
}

/// Rates a game between `a` and `b` (`score` is `a`'s result) played at `at`, stores both new
/// ratings and their history rows, and returns the changes. Call it inside the transaction that
/// stores the game's result. Rating the same game again for the same player and scope fails with
/// a constraint error, which rolls that transaction back.
#[allow(clippy::too_many_arguments)]
pub fn rate(
    conn: &Connection,
    scope: &Scope,
    variant: &str,
    game: Option<GameId>,
    a: PlayerId,
    b: PlayerId,
    score: Score,
    at: i64,
) -> Result<(RatingChange, RatingChange)> {
    rate_in(conn, &[scope], variant, game, a, b, score, at)?
        .pop()
        .ok_or_else(|| super::StoreError::Corrupt("a game rated in one scope gave no change".into()))
}

/// [`rate`] in each of `scopes` at once (a game rated globally and in its community), in three
/// statements whatever the number of scopes: the players' rows of every scope read together, the new
/// ratings written by one `INSERT … ON CONFLICT` and their history rows by another (on PostgreSQL each
/// statement is a round trip; a scheduler's timeout rated in two scopes sent twelve). The changes come
/// back in the order of `scopes`. A player is not rated against themselves (the bot never asks it).
#[allow(clippy::too_many_arguments)]
pub fn rate_in(
    conn: &Connection,
    scopes: &[&Scope],
    variant: &str,
    game: Option<GameId>,
    a: PlayerId,
    b: PlayerId,
    score: Score,
    at: i64,
) -> Result<Vec<(RatingChange, RatingChange)>> {
    if a == b {
        return Err(super::StoreError::Refused("a player is not rated against themselves".into()));
    }
    if scopes.is_empty() {
        return Ok(Vec::new());
    }
    let keys: Vec<String> = scopes.iter().map(|s| s.key()).collect();
    let sql = RateStatements::for_scopes(keys.len());
    let mut values = vec![Value::Text(variant), Value::I64(a), Value::I64(b)];
    values.extend(keys.iter().map(|k| Value::Text(k)));
    let stored: Vec<(String, PlayerRating)> = conn
        .prepare_cached(&sql.read)?
        .query_map(values, |r| Ok((r.get::<String>(0)?, from_row_at(r, 1)?)))?
        .collect::<crate::store::sql::Result<_>>()?;
    let find = |key: &str, player: PlayerId| {
        stored
            .iter()
            .find(|(k, r)| k == key && r.player_id == player)
            .map_or_else(|| PlayerRating::new(player), |(_, r)| r.clone())
    };
    let mut changes = Vec::with_capacity(keys.len());
    for key in &keys {
        let (mut ra, mut rb) = (find(key, a), find(key, b));
        let (before_a, before_b) = (ra.rating, rb.rating);
        let (na, nb) = rate_game(
            Side { rating: ra.rating, last_game_at: ra.last_game_at },
            Side { rating: rb.rating, last_game_at: rb.last_game_at },
            score,
            at,
        );
        ra.record(score, na, at);
        rb.record(score.flip(), nb, at);
        changes.push((
            RatingChange { player_id: a, before: before_a, after: ra },
            RatingChange { player_id: b, before: before_b, after: rb },
        ));
    }
    // Each key with its two changes, in the order the rows are written.
    let rows: Vec<(&str, &RatingChange)> =
        keys.iter().zip(&changes).flat_map(|(k, (ca, cb))| [(k.as_str(), ca), (k.as_str(), cb)]).collect();
    let provisional: Vec<i64> =
        rows.iter().map(|(_, c)| c.after.rating.provisional_from(c.after.last_game_at)).collect();
    let mut values = Vec::with_capacity(rows.len() * 12);
    for ((key, c), provisional_at) in rows.iter().zip(&provisional) {
        let r = &c.after;
        values.extend([
            Value::Text(key),
            Value::Text(variant),
            Value::I64(r.player_id),
            Value::F64(r.rating.rating),
            Value::F64(r.rating.deviation),
            Value::F64(r.rating.volatility),
            r.games.to_value(),
            r.wins.to_value(),
            r.draws.to_value(),
            r.losses.to_value(),
            r.last_game_at.to_value(),
            Value::I64(*provisional_at),
        ]);
    }
    let both = conn.dialect() == Dialect::Postgres;
    if !both {
        conn.prepare_cached(&sql.upsert)?.execute(std::mem::take(&mut values))?;
    }
    values.reserve(rows.len() * 8);
    for (key, c) in &rows {
        values.extend([
            Value::I64(c.player_id),
            Value::Text(key),
            Value::Text(variant),
            game.to_value(),
            Value::I64(at),
            Value::F64(c.before.rating),
            Value::F64(c.after.rating.rating),
            Value::F64(c.after.rating.deviation),
        ]);
    }
    if both {
        conn.prepare_cached(&sql.both)?.execute(values)?;
    } else {
        conn.prepare_cached(&sql.history)?.execute(values)?;
    }
    Ok(changes)
}

/// [`rate_in`]'s three statements for a number of scopes, made once for the common numbers (each
/// made anew cost about 25 thousand instructions a game's end, in the scheduler's tick).
#[derive(Clone)]
struct RateStatements {
    /// The two players' stored ratings in each scope: one lookup by the whole key a player and
    /// scope, joined by `UNION ALL`. Not `player_id IN (…) AND scope IN (…)`: SQLite walks a key's
    /// `IN` lists from temporary b-trees, each made and dropped with a page cache of its own
    /// (`docs/scale.md`, "The tick's own costs").
    read: String,
    /// The new ratings, two rows a scope.
    upsert: String,
    /// Their history, two rows a scope.
    history: String,
    /// Both in one statement, the history's values after the ratings' (PostgreSQL: one round trip
    /// fewer a rated game's end; SQLite has no `INSERT` in a `WITH`).
    both: String,
}

impl RateStatements {
    /// The statements for `scopes` scopes (made once for up to [`Self::KEPT`] scopes).
    fn for_scopes(scopes: usize) -> std::borrow::Cow<'static, RateStatements> {
        static KEPT: [std::sync::OnceLock<RateStatements>; RateStatements::KEPT] =
            [const { std::sync::OnceLock::new() }; RateStatements::KEPT];
        match KEPT.get(scopes.wrapping_sub(1)) {
            Some(kept) => std::borrow::Cow::Borrowed(kept.get_or_init(|| RateStatements::new(scopes))),
            None => std::borrow::Cow::Owned(RateStatements::new(scopes)),
        }
    }

    /// Scopes a game is rated in at most, as games are: the global scope, a community's, a ladder's.
    const KEPT: usize = 4;

    fn new(scopes: usize) -> RateStatements {
        let read = (0..scopes)
            .flat_map(|i| {
                ["?2", "?3"].map(|player| {
                    format!(
                        "SELECT scope, {COLUMNS} FROM ratings WHERE scope = ?{} AND variant = ?1 AND player_id = {player}",
                        i + 4
                    )
                })
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        let upsert = format!(
            "INSERT INTO ratings (scope, variant, {COLUMNS}, provisional_at) VALUES {}
             ON CONFLICT (scope, variant, player_id) DO UPDATE SET rating = excluded.rating,
               deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games,
               wins = excluded.wins, draws = excluded.draws, losses = excluded.losses,
               last_game_at = excluded.last_game_at, provisional_at = excluded.provisional_at",
            crate::store::sql::values_rows(2 * scopes, 12)
        );
        let history = |before| {
            format!(
                "INSERT INTO rating_history (player_id, scope, variant, game_id, at, rating_before, rating_after,
                   deviation_after) VALUES {}",
                crate::store::sql::values_rows_after(before, 2 * scopes, 8)
            )
        };
        let both = format!("WITH rated AS ({upsert}) {}", history(2 * scopes * 12));
        RateStatements { read, upsert, history: history(0), both }
    }
}

/// One leaderboard row.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// Place among established (non-provisional) players from 1; `None` for provisional ones.
    pub place: Option<u32>,
    pub name: String,
    /// The rating with its deviation as of `now`.
    pub current: Rating,
    pub record: PlayerRating,
}

/// A leaderboard: established players by rating, provisional players apart, and the asker's row.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Leaderboard {
    /// The best established players, at most the requested number.
    pub top: Vec<Standing>,
    /// The provisional players with the most games, at most the requested number.
    pub provisional: Vec<Standing>,
    /// The asker's own row wherever it is (also when it is in `top`), if they have played here.
    /// Its place is `None` when provisional, and also when it is below place [`MAX_COUNTED`]
    /// (then [`Leaderboard::me_below_counted`]).
    pub me: Option<Standing>,
    /// Established players in all, counted up to [`MAX_COUNTED`] (see [`Leaderboard::more`]).
    pub established: u32,
    /// There are more than [`MAX_COUNTED`] established players (`established` is then that).
    pub more: bool,
    /// The asker is established but below place [`MAX_COUNTED`].
    pub me_below_counted: bool,
}

/// How far a leaderboard counts established players and places: a count walks an index entry
/// by entry (about 0.1 µs each), so counting stops here (1 ms or so) and a larger board says
/// "more than 10,000" (`docs/scale.md`).
pub const MAX_COUNTED: u32 = 10_000;

/// Players of one kind (established or provisional) that a leaderboard reads whole and sorts
/// rather than walk an index in rating or game order past the other kind's rows.
const SORTED_WHOLE: u32 = 1_000;

/// A leaderboard row's columns (`from_row`'s, then the name), from `ratings r` and `players p`.
const STANDING: &str = "SELECT r.player_id, r.rating, r.deviation, r.volatility, r.games, r.wins, r.draws, r.losses,
                r.last_game_at, p.name";

/// The ratings rows of a scope and variant (`?1`, `?2`) established at `?3`.
const ESTABLISHED: &str = "r.scope = ?1 AND r.variant = ?2 AND r.provisional_at > ?3";
/// … and those provisional at `?3`.
const PROVISIONAL: &str = "r.scope = ?1 AND r.variant = ?2 AND r.provisional_at <= ?3";

/// A count of the `ratings r` rows meeting `condition`, up to `max_counted` + 1 (counting walks
/// index entries one by one: a large board is only known to be larger).
fn capped_count_sql(condition: &str, max_counted: u32) -> String {
    format!("SELECT count(*) FROM (SELECT 1 FROM ratings r WHERE {condition} LIMIT {}) AS c", max_counted + 1)
}

/// The statement counting a leaderboard's established and provisional players (each capped, within
/// its range of `ratings_established`), both in one row.
fn counts_sql(max_counted: u32) -> String {
    format!("SELECT ({}), ({})", capped_count_sql(ESTABLISHED, max_counted), capped_count_sql(PROVISIONAL, max_counted))
}

/// A leaderboard row ([`STANDING`]'s columns) at time `now`, not placed yet.
fn standing(r: &Row<'_>, now: i64) -> crate::store::sql::Result<Standing> {
    let record = from_row(r)?;
    let current = record.rating_at(now);
    Ok(Standing { place: None, name: r.get(9)?, current, record })
}

/// The statement reading one list of a leaderboard (`?4` rows): the established players by rating
/// (then games, then name) with kind 0, or the provisional ones by games (then rating, then name)
/// with kind 1. A few of its kind are read whole from their range of `ratings_established` and
/// sorted; many (`walk`) are found walking `ratings_best` or `ratings_busiest` in the list's order,
/// skipping the other kind's rows. (The unary `+` keeps SQLite from the index it should not use.)
fn list_sql(established: bool, walk: bool) -> String {
    let (kind, cmp, by, then) =
        if established { (0, ">", "r.rating", "r.games") } else { (1, "<=", "r.games", "r.rating") };
    let (at, plus) = if walk { ("+r.provisional_at", "") } else { ("r.provisional_at", "+") };
    format!(
        "{STANDING}, CAST({kind} AS BIGINT) AS kind FROM ratings r JOIN players p ON p.id = r.player_id
         WHERE r.scope = ?1 AND r.variant = ?2 AND {at} {cmp} ?3
         ORDER BY {plus}{by} DESC, {then} DESC, p.name LIMIT ?4"
    )
}

/// The statement reading both lists of a leaderboard ([`list_sql`]), each the way it would be read
/// alone, the established first: the outer `ORDER BY` sorts the twenty-odd rows read by the lists'
/// own keys, kind first.
fn lists_sql(walk_top: bool, walk_provisional: bool) -> String {
    format!(
        "SELECT * FROM (
           SELECT * FROM ({}) AS e
           UNION ALL
           SELECT * FROM ({}) AS v
         ) AS u
         ORDER BY kind, CASE WHEN kind = 0 THEN rating END DESC, games DESC,
                  CASE WHEN kind = 1 THEN rating END DESC, name",
        list_sql(true, walk_top),
        list_sql(false, walk_provisional)
    )
}

/// The leaderboard of a scope and variant at time `now` (deviations grow with inactivity, so a
/// player who stops playing becomes provisional again and leaves the ranking). `limit` is capped at
/// [`MAX_LEADERBOARD`].
///
/// Every part reads a bounded part of an index (`docs/scale.md`): the established and the
/// provisional players are counted within `ratings_established` up to [`MAX_COUNTED`]; the best
/// established players are read whole from there and sorted when there are few
/// ([`SORTED_WHOLE`]), else found walking `ratings_best` in rating order skipping provisional
/// rows; the provisional with the most games likewise (`ratings_busiest`); the players above the
/// asker are counted up to [`MAX_COUNTED`].
pub fn leaderboard(
    conn: &Connection,
    scope: &Scope,
    variant: &str,
    limit: usize,
    me: Option<PlayerId>,
    now: i64,
) -> Result<Leaderboard> {
    leaderboard_counting(conn, scope, variant, limit, me, now, MAX_COUNTED, SORTED_WHOLE)
}

/// [`leaderboard`], counting up to `max_counted` and sorting up to `sorted_whole` (a test's small
/// board stands for a large one).
#[allow(clippy::too_many_arguments)]
fn leaderboard_counting(
    conn: &Connection,
    scope: &Scope,
    variant: &str,
    limit: usize,
    me: Option<PlayerId>,
    now: i64,
    max_counted: u32,
    sorted_whole: u32,
) -> Result<Leaderboard> {
    let limit = limit.min(MAX_LEADERBOARD) as i64;
    let key = scope.key();
    // Both counts in one statement (on PostgreSQL each statement is a round trip).
    let (established, provisionals) = conn.query_row(&counts_sql(max_counted), params![key, variant, now], |r| {
        Ok((r.get::<i64>(0)? as u32, r.get::<i64>(1)? as u32))
    })?;
    // Both lists in one statement, each read the cheaper way ([`lists_sql`]).
    let mut top = Vec::new();
    let mut provisional = Vec::new();
    {
        let sql = lists_sql(established > sorted_whole, provisionals > sorted_whole);
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(params![key, variant, now, limit], |r| Ok((r.get::<i64>(10)?, standing(r, now)?)))?;
        for row in rows {
            let (kind, s) = row?;
            if kind == 0 { top.push(s) } else { provisional.push(s) }
        }
    }
    for (i, s) in top.iter_mut().enumerate() {
        s.place = Some(i as u32 + 1);
    }
    let more = established > max_counted;
    let mut board = Leaderboard {
        top,
        provisional,
        me: None,
        established: established.min(max_counted),
        more,
        me_below_counted: false,
    };
    let Some(me) = me else { return Ok(board) };
    if let Some(s) = board.top.iter().chain(&board.provisional).find(|s| s.record.player_id == me) {
        board.me = Some(s.clone());
        return Ok(board);
    }
    let mine = conn
        .query_row(
            &format!(
                "{STANDING} FROM ratings r JOIN players p ON p.id = r.player_id
                 WHERE r.scope = ?1 AND r.variant = ?2 AND r.player_id = ?3"
            ),
            params![key, variant, me],
            |r| standing(r, now),
        )
        .optional()?;
    let Some(mut mine) = mine else { return Ok(board) };
    if mine.record.rating.provisional_from(mine.record.last_game_at) > now {
        // Above the asker: a higher rating, or the same with more games, or the same with as many
        // and a name first (the order of `top`).
        let condition = format!(
            "{ESTABLISHED} AND (r.rating > ?4 OR (r.rating = ?4 AND (r.games > ?5 OR (r.games = ?5
             AND (SELECT name FROM players WHERE id = r.player_id) < ?6))))"
        );
        let above = conn.query_row(
            &capped_count_sql(&condition, max_counted),
            params![key, variant, now, mine.record.rating.rating, mine.record.games, mine.name],
            |r| r.get::<i64>(0),
        )? as u32;
        if above < max_counted {
            mine.place = Some(above + 1);
        } else {
            board.me_below_counted = true;
        }
    }
    board.me = Some(mine);
    Ok(board)
}

/// One point of a player's rating history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    pub at: i64,
    pub game_id: Option<GameId>,
    pub rating_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
}

/// The last `limit` (at most [`MAX_HISTORY`]) rating changes of `player`, oldest first.
pub fn history(
    conn: &Connection,
    player: PlayerId,
    scope: &Scope,
    variant: &str,
    limit: usize,
) -> Result<Vec<HistoryPoint>> {
    let mut stmt = conn.prepare_cached(
        "SELECT at, game_id, rating_before, rating_after, deviation_after FROM rating_history
         WHERE player_id = ?1 AND scope = ?2 AND variant = ?3 ORDER BY at DESC, id DESC LIMIT ?4",
    )?;
    let mut points = stmt
        .query_map(params![player, scope.key(), variant, limit.min(MAX_HISTORY) as i64], |r| {
            Ok(HistoryPoint {
                at: r.get(0)?,
                game_id: r.get(1)?,
                rating_before: r.get(2)?,
                rating_after: r.get(3)?,
                deviation_after: r.get(4)?,
            })
        })?
        .collect::<crate::store::sql::Result<Vec<_>>>()?;
    points.reverse();
    Ok(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::community::rating::{PROVISIONAL_DEVIATION, RATING_PERIOD_SECS};
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, StoreError, players};

    /// A game's end reads and writes its players, ratings, offers and outbox rows without a
    /// temporary b-tree (before stop 108 it opened six there: the `IN` lists of the players' and
    /// ratings' keys, the offers' `DELETE`, the outbox's `RETURNING`); left are the ones of the
    /// `CHECK (… IN (…))` constraints of the columns it sets: a game's `status` and `result`, a
    /// row's `state` (`docs/scale.md`, "The tick's own costs").
    #[test]
    fn a_games_end_opens_no_temporary_b_tree_but_for_its_checks() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let btrees = |sql: &str| crate::store::testing::sqlite_temporary_btrees(&conn, sql);
        for scopes in 1..=RateStatements::KEPT + 1 {
            let sql = RateStatements::for_scopes(scopes);
            assert_eq!(btrees(&sql.read), 0, "{}", sql.read);
            assert_eq!(btrees(&sql.history), 0, "{}", sql.history);
        }
        assert_eq!(btrees(&crate::store::players::READ_PAIR), 0);
        assert_eq!(btrees(crate::store::offers::ANY_OFFER), 0);
        assert_eq!(btrees(&crate::store::outbox::WAITING_BESIDE), 0);
        assert_eq!(btrees(crate::store::outbox::INSERT_ROW), 1, "the CHECK of `state`");
        // What these replaced.
        assert_eq!(btrees("SELECT id FROM players WHERE id IN (?1, ?2)"), 1);
        assert_eq!(btrees(&format!("{} RETURNING id", crate::store::outbox::INSERT_ROW)), 2);
        assert_eq!(btrees("DELETE FROM offers WHERE game_id = ?1"), 1);
    }

    const DAY: i64 = 24 * 60 * 60;

    on_both_backends!(
        rate_stores_both_sides_and_history_in_the_callers_transaction,
        a_game_is_rated_once_per_scope,
        leaderboard_keeps_provisional_players_apart_and_finds_the_asker,
        leaderboard_from_the_indexes_is_the_whole_scope_sorted,
        history_is_oldest_first_and_bounded,
        the_variants_rated_and_a_players_ratings_are_read_at_once,
        a_game_rated_in_two_scopes_at_once_is_each_scope_rated_alone_in_three_statements,
    );

    /// `rate_in` with the global scope and a community's gives, and stores, what `rate` gives in
    /// each scope alone (ratings, records, history rows in the same order), in three statements
    /// (two on PostgreSQL, the history written with the ratings) where the two `rate`s sent
    /// twelve; and a player is not rated against themselves.
    fn a_game_rated_in_two_scopes_at_once_is_each_scope_rated_alone_in_three_statements(store: &Store) {
        let conn = store.conn().unwrap();
        let club = Scope::community("t", "club");
        let (a, b, c, d) = (player(&conn, "a"), player(&conn, "b"), player(&conn, "c"), player(&conn, "d"));
        // Histories of their own first, so that the two pairs do not start from new ratings: a and c
        // won a game each in the club, b and d lost one globally.
        for (x, y) in [(a, b), (c, d)] {
            rate(&conn, &club, "chess", None, x, y, Score::Win, 10).unwrap();
            rate(&conn, &Scope::Global, "chess", None, y, x, Score::Win, 20).unwrap();
        }
        let alone = (
            rate(&conn, &Scope::Global, "chess", None, a, b, Score::Draw, 100).unwrap(),
            rate(&conn, &club, "chess", None, a, b, Score::Draw, 100).unwrap(),
        );
        let sent = crate::store::sql::statements_sent();
        let together = rate_in(&conn, &[&Scope::Global, &club], "chess", None, c, d, Score::Draw, 100).unwrap();
        let statements = if conn.is_sqlite() { 3 } else { 2 };
        assert_eq!(
            crate::store::sql::statements_sent() - sent,
            statements,
            "one read, one upsert, one insert of history (on PostgreSQL with the upsert)"
        );
        let renamed = |(x, y): &(RatingChange, RatingChange)| {
            let mut x = x.clone();
            let mut y = y.clone();
            (x.player_id, x.after.player_id, y.player_id, y.after.player_id) = (a, a, b, b);
            (x, y)
        };
        assert_eq!(together.iter().map(renamed).collect::<Vec<_>>(), vec![alone.0.clone(), alone.1.clone()]);
        for (scope, (ca, cb)) in [(&Scope::Global, &together[0]), (&club, &together[1])] {
            assert_eq!(get(&conn, c, scope, "chess").unwrap().as_ref(), Some(&ca.after));
            assert_eq!(get(&conn, d, scope, "chess").unwrap().as_ref(), Some(&cb.after));
        }
        let stored = |x: PlayerId, y: PlayerId| -> Vec<(String, f64, f64)> {
            conn.query_all(
                "SELECT scope, rating_before, rating_after FROM rating_history WHERE player_id IN (?1, ?2) AND at = 100
                 ORDER BY id",
                params![x, y],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
        };
        assert_eq!(stored(c, d), stored(a, b), "the same history rows, in the same order");
        assert_eq!(stored(c, d).len(), 4);
        let own = rate_in(&conn, &[&Scope::Global], "chess", None, a, a, Score::Win, 200);
        assert!(matches!(own, Err(StoreError::Refused(_))), "{own:?}");
        assert_eq!(get(&conn, a, &Scope::Global, "chess").unwrap().unwrap().games, 2, "nothing stored");
    }

    fn the_variants_rated_and_a_players_ratings_are_read_at_once(store: &Store) {
        let c = store.conn().unwrap();
        let (here, elsewhere) = (Scope::community("t", "club"), Scope::community("t", "other"));
        let (a, b) = (player(&c, "a"), player(&c, "b"));
        upsert(&c, &here, "chess", &PlayerRating::new(a)).unwrap();
        upsert(&c, &here, "capablanca", &PlayerRating::new(b)).unwrap();
        upsert(&c, &here, "capablanca", &PlayerRating::new(a)).unwrap();
        upsert(&c, &elsewhere, "seirawan", &PlayerRating::new(a)).unwrap();
        let asked = ["seirawan", "capablanca", "chess", "unknown"];
        let mut rated = variants_rated(&c, &here, &asked).unwrap();
        rated.sort();
        assert_eq!(rated, vec!["capablanca".to_string(), "chess".to_string()]);
        assert_eq!(variants_rated(&c, &Scope::community("t", "none"), &asked).unwrap(), Vec::<String>::new());
        let mut mine = all_of(&c, a, &here).unwrap();
        mine.sort_by(|x, y| x.0.cmp(&y.0));
        let one_by_one = ["capablanca", "chess"].map(|v| (v.to_string(), get(&c, a, &here, v).unwrap().unwrap()));
        assert_eq!(mine, one_by_one.to_vec());
        assert_eq!(all_of(&c, b, &elsewhere).unwrap(), vec![]);
    }

    /// The page's statements read indexes: a probe of the primary key per variant, a player's
    /// ratings through `ratings_player`.
    #[test]
    fn the_pages_rating_statements_read_indexes() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let rated = crate::store::testing::sqlite_plan(&conn, &variants_rated_sql(3));
        assert!(!rated.contains("SCAN r") && rated.contains("SEARCH r USING"), "{rated}");
        let mine = crate::store::testing::sqlite_plan(&conn, ALL_OF);
        assert!(mine.contains("SEARCH ratings USING") && !mine.contains("SCAN"), "{mine}");
    }

    /// A leaderboard's two statements read bounded parts of indexes, as the four they replace
    /// did: both counts within `ratings_established`; each list planned as it is alone (whole from
    /// `ratings_established`, or walking an index in its order, which SQLite picks by the table's
    /// statistics), never a scan.
    #[test]
    fn the_leaderboards_two_statements_read_indexes() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let counts = crate::store::testing::sqlite_plan(&conn, &counts_sql(MAX_COUNTED));
        assert_eq!(counts.matches("USING COVERING INDEX ratings_established").count(), 2, "{counts}");
        assert!(!counts.contains("SCAN r"), "{counts}");
        for (walk_top, walk_provisional) in [(false, false), (true, false), (false, true), (true, true)] {
            let both = crate::store::testing::sqlite_plan(&conn, &lists_sql(walk_top, walk_provisional));
            for (established, walk) in [(true, walk_top), (false, walk_provisional)] {
                let alone = crate::store::testing::sqlite_plan(&conn, &list_sql(established, walk));
                assert!(both.contains(&alone), "{established} {walk}: {alone} not in {both}");
                if !walk {
                    assert!(alone.contains("USING INDEX ratings_established"), "{alone}");
                }
            }
            assert!(!both.contains("SCAN r"), "{walk_top} {walk_provisional}: {both}");
        }
    }

    fn player(conn: &Connection, name: &str) -> PlayerId {
        players::ensure(conn, "test", name, name, 0).unwrap().id
    }

    #[test]
    fn scope_keys() {
        assert_eq!(Scope::Global.key(), "");
        assert_eq!(Scope::community("discord", "1234").key(), "discord:1234");
    }

    fn rate_stores_both_sides_and_history_in_the_callers_transaction(store: &Store) {
        let conn = store.conn().unwrap();
        let (a, b) = (player(&conn, "alice"), player(&conn, "bob"));
        let scope = Scope::community("discord", "1");
        assert_eq!(get(&conn, a, &scope, "chess").unwrap(), None);

        // Rolled back: nothing stored.
        {
            let tx = crate::store::immediate(&conn).unwrap();
            rate(&tx, &scope, "chess", None, a, b, Score::Win, 100).unwrap();
            assert!(get(&tx, a, &scope, "chess").unwrap().is_some());
        }
        assert_eq!(get(&conn, a, &scope, "chess").unwrap(), None);

        let tx = crate::store::immediate(&conn).unwrap();
        let (ca, cb) = rate(&tx, &scope, "chess", None, a, b, Score::Win, 100).unwrap();
        tx.commit().unwrap();
        assert!(ca.after.rating.rating > 1500.0 && cb.after.rating.rating < 1500.0);
        let sa = get(&conn, a, &scope, "chess").unwrap().unwrap();
        assert_eq!(sa, ca.after);
        assert_eq!((sa.games, sa.wins, sa.draws, sa.losses, sa.last_game_at), (1, 1, 0, 0, Some(100)));
        let sb = get(&conn, b, &scope, "chess").unwrap().unwrap();
        assert_eq!((sb.games, sb.wins, sb.losses), (1, 0, 1));
        // Other scopes and variants are untouched.
        assert_eq!(get(&conn, a, &Scope::Global, "chess").unwrap(), None);
        assert_eq!(get(&conn, a, &scope, "atomic").unwrap(), None);

        let h = history(&conn, a, &scope, "chess", 10).unwrap();
        assert_eq!(h.len(), 1);
        assert_eq!((h[0].at, h[0].rating_before, h[0].rating_after), (100, 1500.0, sa.rating.rating));
    }

    fn a_game_is_rated_once_per_scope(store: &Store) {
        let conn = store.conn().unwrap();
        let (a, b) = (player(&conn, "alice"), player(&conn, "bob"));
        conn.execute(
            "INSERT INTO games (id, platform, chat_id, variant, start_fen, white_id, black_id, status, fen,
               created_at, updated_at) VALUES (7, 'test', 'c', 'chess', '', ?1, ?2, 'finished', '', 0, 0)",
            params![a, b],
        )
        .unwrap();
        rate(&conn, &Scope::Global, "chess", Some(7), a, b, Score::Draw, 5).unwrap();
        rate(&conn, &Scope::community("matrix", "!x"), "chess", Some(7), a, b, Score::Draw, 5).unwrap();
        let tx = crate::store::immediate(&conn).unwrap();
        let again = rate(&tx, &Scope::Global, "chess", Some(7), a, b, Score::Draw, 5);
        assert!(matches!(again, Err(StoreError::Db(_))), "{again:?}");
        drop(tx);
        assert_eq!(get(&conn, a, &Scope::Global, "chess").unwrap().unwrap().games, 1);
    }

    fn leaderboard_keeps_provisional_players_apart_and_finds_the_asker(store: &Store) {
        let conn = store.conn().unwrap();
        let scope = Scope::community("discord", "9");
        let ids: Vec<PlayerId> = (0..14).map(|i| player(&conn, &format!("p{i:02}"))).collect();
        // Twelve established players with ratings 1300..1850 and two provisional newcomers.
        for (i, &id) in ids.iter().enumerate().take(12) {
            let r = PlayerRating {
                rating: Rating { rating: 1300.0 + 50.0 * i as f64, deviation: 60.0, volatility: 0.06 },
                games: 30,
                wins: 10,
                draws: 10,
                losses: 10,
                last_game_at: Some(1000),
                ..PlayerRating::new(id)
            };
            upsert(&conn, &scope, "chess", &r).unwrap();
        }
        rate(&conn, &scope, "chess", None, ids[12], ids[13], Score::Win, 1000).unwrap();

        let board = leaderboard(&conn, &scope, "chess", 10, Some(ids[0]), 1000).unwrap();
        assert_eq!(board.established, 12);
        assert_eq!(board.top.len(), 10);
        assert_eq!(board.top[0].name, "p11");
        assert_eq!(board.top[0].place, Some(1));
        assert_eq!(board.provisional.len(), 2);
        assert!(board.provisional.iter().all(|s| s.place.is_none() && s.current.deviation > PROVISIONAL_DEVIATION));
        let me = board.me.unwrap();
        assert_eq!((me.name.as_str(), me.place), ("p00", Some(12)));

        let newcomer = leaderboard(&conn, &scope, "chess", 3, Some(ids[13]), 1000).unwrap();
        assert_eq!(newcomer.top.len(), 3);
        assert_eq!(newcomer.me.unwrap().place, None);

        // After years away everyone is provisional again.
        let later = leaderboard(&conn, &scope, "chess", 10, None, 1000 + 2000 * RATING_PERIOD_SECS).unwrap();
        assert!(later.top.is_empty() && later.provisional.len() == 10 && later.me.is_none());
        assert!(leaderboard(&conn, &Scope::Global, "chess", 10, Some(ids[0]), 0).unwrap() == Leaderboard::default());
    }

    /// What `leaderboard` answered before migration 15, when it read every rating of the scope:
    /// everyone classified by the deviation today, both lists sorted whole, places counted.
    fn whole_scope_sorted(conn: &Connection, scope: &Scope, me: Option<PlayerId>, now: i64) -> Leaderboard {
        let rows = conn
            .query_all(
                &format!(
                    "SELECT {COLUMNS}, (SELECT name FROM players WHERE id = player_id) FROM ratings
                     WHERE scope = ?1 AND variant = 'chess'"
                ),
                params![scope.key()],
                |r| Ok((from_row(r)?, r.get::<String>(9)?)),
            )
            .unwrap();
        let (mut established, mut provisional) = (Vec::new(), Vec::new());
        for (record, name) in rows {
            let current = record.rating_at(now);
            let s = Standing { place: None, name, current, record };
            if current.is_provisional() { provisional.push(s) } else { established.push(s) }
        }
        established.sort_by(|a, b| {
            b.current
                .rating
                .total_cmp(&a.current.rating)
                .then(b.record.games.cmp(&a.record.games))
                .then(a.name.cmp(&b.name))
        });
        provisional.sort_by(|a, b| {
            b.record
                .games
                .cmp(&a.record.games)
                .then(b.current.rating.total_cmp(&a.current.rating))
                .then(a.name.cmp(&b.name))
        });
        for (i, s) in established.iter_mut().enumerate() {
            s.place = Some(i as u32 + 1);
        }
        let mine = me.and_then(|id| established.iter().chain(&provisional).find(|s| s.record.player_id == id).cloned());
        let count = established.len() as u32;
        established.truncate(10);
        provisional.truncate(10);
        Leaderboard {
            top: established,
            provisional,
            me: mine,
            established: count,
            more: false,
            me_below_counted: false,
        }
    }

    /// The leaderboard read from the indexes (migration 15) is the one the whole scope sorted gives,
    /// at times from the last games to years later (players turning provisional as they idle), for
    /// every asker, with ties of rating and of games; and counting stops where it is told, with
    /// the asker below it told so.
    fn leaderboard_from_the_indexes_is_the_whole_scope_sorted(store: &Store) {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(45);
        let conn = store.conn().unwrap();
        let scope = Scope::community("discord", "big");
        let ids: Vec<PlayerId> = (0..40).map(|i| player(&conn, &format!("p{i:02}"))).collect();
        for &id in &ids {
            let (wins, draws, losses) = (rng.random_range(0..4), rng.random_range(0..4), rng.random_range(0..4));
            let r = PlayerRating {
                // Few distinct ratings and game counts: ties are common.
                rating: Rating {
                    rating: 1400.0 + 25.0 * f64::from(rng.random_range(0..8)),
                    deviation: rng.random_range(45.0..160.0),
                    volatility: rng.random_range(0.04..0.09),
                },
                games: wins + draws + losses,
                wins,
                draws,
                losses,
                last_game_at: Some(rng.random_range(0..60) * DAY),
                ..PlayerRating::new(id)
            };
            upsert(&conn, &scope, "chess", &r).unwrap();
        }
        // Another scope and another variant stay out of it.
        rate(&conn, &Scope::Global, "chess", None, ids[0], ids[1], Score::Win, 0).unwrap();
        rate(&conn, &scope, "atomic", None, ids[0], ids[1], Score::Win, 0).unwrap();
        for now in [0, 30 * DAY, 60 * DAY, 200 * DAY, 800 * DAY, 5000 * DAY] {
            for me in std::iter::once(None).chain(ids.iter().copied().map(Some)) {
                let expected = whole_scope_sorted(&conn, &scope, me, now);
                let board = leaderboard(&conn, &scope, "chess", 10, me, now).unwrap();
                assert_eq!(board, expected, "at {now}, asked by {me:?}");
                // Both lists found walking their indexes instead of sorting (a large board).
                let walked = leaderboard_counting(&conn, &scope, "chess", 10, me, now, MAX_COUNTED, 0).unwrap();
                assert_eq!(walked, expected, "walked, at {now}, asked by {me:?}");
                // Counting up to 5, with the 3 best listed (a real board lists fewer than it counts).
                let counted = leaderboard_counting(&conn, &scope, "chess", 3, me, now, 5, SORTED_WHOLE).unwrap();
                assert_eq!(
                    (counted.established, counted.more),
                    (expected.established.min(5), expected.established > 5)
                );
                let place = expected.me.as_ref().and_then(|s| s.place);
                assert_eq!(counted.me.as_ref().and_then(|s| s.place), place.filter(|&p| p <= 5), "at {now}, {me:?}");
                assert_eq!(counted.me_below_counted, place.is_some_and(|p| p > 5), "at {now}, {me:?}");
                assert_eq!(counted.top, expected.top[..expected.top.len().min(3)]);
            }
        }
    }

    fn history_is_oldest_first_and_bounded(store: &Store) {
        let conn = store.conn().unwrap();
        let (a, b) = (player(&conn, "alice"), player(&conn, "bob"));
        for day in 0..20 {
            rate(&conn, &Scope::Global, "chess", None, a, b, Score::Win, day * DAY).unwrap();
        }
        let all = history(&conn, a, &Scope::Global, "chess", 100).unwrap();
        assert_eq!(all.len(), 20);
        assert!(all.windows(2).all(|w| w[0].at < w[1].at && w[0].rating_after == w[1].rating_before));
        let last5 = history(&conn, a, &Scope::Global, "chess", 5).unwrap();
        assert_eq!(last5, all[15..].to_vec());
        assert!(history(&conn, a, &Scope::Global, "atomic", 5).unwrap().is_empty());
    }
}

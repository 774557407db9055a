//! Games and their moves (one aggregate). Every change to a game's position runs in one IMMEDIATE
//! transaction guarded by the expected ply: `UPDATE games ... WHERE id = ? AND ply = ?` must touch
//! exactly one row, so two submissions for the same ply cannot both land.

use super::players::{Player, PlayerId};
use super::ratings::{self, PlayerRating};
use super::{Result, offers};
use crate::rules::{Color, DrawReason, Outcome, WinReason};
use crate::store::sql::{Connection, Dialect, OptionalExtension, Params, Row, params, query_by_ids};
use std::collections::HashMap;

/// Game id (the `games.id` column).
pub type GameId = i64;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Relocation setup phase: swaps are being chosen.
    Setup,
    Active,
    Finished,
    Aborted,
}

impl Status {
    fn as_str(self) -> &'static str {
        match self {
            Status::Setup => "setup",
            Status::Active => "active",
            Status::Finished => "finished",
            Status::Aborted => "aborted",
        }
    }

    fn parse(s: &str) -> Status {
        match s {
            "setup" => Status::Setup,
            "active" => Status::Active,
            "finished" => Status::Finished,
            _ => Status::Aborted,
        }
    }
}

/// A stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: GameId,
    pub platform: String,
    pub chat_id: String,
    pub variant: String,
    pub setup: Option<u32>,
    pub start_fen: String,
    pub white: PlayerId,
    pub black: PlayerId,
    pub ai_level: Option<u8>,
    pub days_per_move: Option<u32>,
    pub status: Status,
    pub result: Option<String>,
    pub termination: Option<String>,
    pub fen: String,
    pub ply: u32,
    pub deadline: Option<i64>,
    pub remind_at: Option<i64>,
    pub white_swap: Option<u32>,
    pub black_swap: Option<u32>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The community the game's chat belongs to (none in the console or a direct chat).
    pub community_id: Option<String>,
    /// The thread the game is played in, once one was opened for it.
    pub thread_id: Option<String>,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The game's chat is gone: its clock is stopped until a player moves from another chat.
    pub paused: bool,
    /// Secret-bomb chess: each side's bomb (by [`Color::index`]) as the square its piece stood on at
    /// the start; `None` until chosen. Secret until the game is over.
    pub bombs: [Option<String>; 2],
    /// The game's chat is reached only through interactions (see `bot::Scope::interaction_only`).
    pub interaction_only: bool,
}

impl GameRow {
    /// The side to choose its swap in a relocation game's setup phase (Black first, then White);
    /// `None` outside the setup phase.
    pub fn setup_chooser(&self) -> Option<Color> {
        (self.status == Status::Setup).then(|| if self.black_swap.is_none() { Color::Black } else { Color::White })
    }

    /// The player of one colour.
    pub fn player(&self, c: Color) -> PlayerId {
        if c == Color::White { self.white } else { self.black }
    }

    /// The colour a player has in this game, if any (White first when someone plays both sides).
    pub fn color_of(&self, p: PlayerId) -> Option<Color> {
        if self.white == p {
            Some(Color::White)
        } else if self.black == p {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The stored outcome of a finished game.
    pub fn outcome(&self) -> Option<Outcome> {
        outcome_from_db(self.result.as_deref()?, self.termination.as_deref()?)
    }
}

const COLUMNS: &str = "id, platform, chat_id, variant, setup, start_fen, white_id, black_id, ai_level, days_per_move, \
     status, result, termination, fen, ply, deadline, remind_at, white_swap, black_swap, created_at, updated_at, community_id, thread_id, rated, paused, \
     white_bomb, black_bomb, interaction_only";

/// How many columns [`COLUMNS`] names: where a statement's further columns begin.
const WIDTH: usize = crate::store::sql::columns_in(COLUMNS);

fn row_to_game(r: &Row<'_>) -> crate::store::sql::Result<GameRow> {
    Ok(GameRow {
        id: r.get(0)?,
        platform: r.get(1)?,
        chat_id: r.get(2)?,
        variant: r.get(3)?,
        setup: r.get(4)?,
        start_fen: r.get(5)?,
        white: r.get(6)?,
        black: r.get(7)?,
        ai_level: r.get(8)?,
        days_per_move: r.get(9)?,
        status: Status::parse(&r.get::<String>(10)?),
        result: r.get(11)?,
        termination: r.get(12)?,
        fen: r.get(13)?,
        ply: r.get(14)?,
        deadline: r.get(15)?,
        remind_at: r.get(16)?,
        white_swap: r.get(17)?,
        black_swap: r.get(18)?,
        created_at: r.get(19)?,
        updated_at: r.get(20)?,
        community_id: r.get(21)?,
        thread_id: r.get(22)?,
        rated: r.get(23)?,
        paused: r.get(24)?,
        bombs: [r.get(25)?, r.get(26)?],
        interaction_only: r.get(27)?,
    })
}

/// A game to create.
#[derive(Clone, Debug)]
pub struct NewGame<'a> {
    pub platform: &'a str,
    pub community_id: Option<&'a str>,
    pub rated: bool,
    pub chat_id: &'a str,
    pub variant: &'a str,
    pub setup: Option<u32>,
    pub start_fen: &'a str,
    pub white: PlayerId,
    pub black: PlayerId,
    pub ai_level: Option<u8>,
    pub days_per_move: Option<u32>,
    pub status: Status,
    pub deadline: Option<i64>,
    pub remind_at: Option<i64>,
    /// The chat is reached only through interactions.
    pub interaction_only: bool,
}

/// An active chess game on `platform` between `white` and `black`, three days a move, no deadline
/// yet, for the store's tests.
#[cfg(test)]
pub(crate) fn test_game<'a>(platform: &'a str, white: PlayerId, black: PlayerId) -> NewGame<'a> {
    NewGame {
        community_id: None,
        rated: false,
        platform,
        chat_id: "c",
        variant: "chess",
        setup: None,
        start_fen: "start",
        white,
        black,
        ai_level: None,
        days_per_move: Some(3),
        status: Status::Active,
        deadline: None,
        remind_at: None,
        interaction_only: false,
    }
}

/// Random legal games of every variant, as coordinates (`seed` draws them): `per_variant` games of
/// each, up to 160 plies, a setup drawn for the random variants and a bomb on each side in
/// secret-bomb chess. Where a launch, castling with missiles, a promotion or a detonation is legal
/// it is played one time in two, so that the games hold many of each. For the store's tests.
#[cfg(test)]
pub(crate) fn random_games(seed: u64, per_variant: usize) -> Vec<(&'static str, Vec<String>)> {
    use crate::notation::uci;
    use crate::rules::{Game, Move, Role, Square, VARIANTS, setups};
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut games = Vec::new();
    for variant in VARIANTS {
        for _ in 0..per_variant {
            let mut start = setups::position(variant, setups::random_index(variant, &mut rng)).expect("a setup");
            if variant.bombs {
                let mut bomb = |c: Color| {
                    let pieces: Vec<Square> = (0..100)
                        .map(Square::from_index)
                        .filter(|&sq| start.piece_at(sq).is_some_and(|p| p.color == c && p.role != Role::King))
                        .collect();
                    Some(pieces[rng.random_range(0..pieces.len())])
                };
                let bombs = [bomb(Color::White), bomb(Color::Black)];
                start = start.with_bombs(bombs).expect("bombs on pieces");
            }
            let mut game = Game::new(start);
            let mut plies = Vec::new();
            while plies.len() < 160 && game.outcome().is_none() {
                let pos = game.position().clone();
                let legal: Vec<(Move, String)> = pos.legal_moves().iter().map(|&m| (m, uci::write(&pos, m))).collect();
                let special: Vec<&(Move, String)> = legal
                    .iter()
                    .filter(|(m, u)| m.is_detonation() || u.contains(['^', '[']) || m.promotion_role().is_some())
                    .collect();
                let (m, u) = if !special.is_empty() && rng.random_bool(0.5) {
                    special[rng.random_range(0..special.len())].clone()
                } else {
                    legal[rng.random_range(0..legal.len())].clone()
                };
                assert!(game.play(m));
                plies.push(u);
            }
            games.push((variant.name, plies));
        }
    }
    games
}

/// Inserts a game at ply 0 (its current FEN is its start FEN).
pub fn create(conn: &Connection, g: &NewGame<'_>, now: i64) -> Result<GameId> {
    Ok(conn.query_row(
        "INSERT INTO games (platform, chat_id, variant, setup, start_fen, white_id, black_id, ai_level, days_per_move,
           status, fen, ply, deadline, remind_at, created_at, updated_at, community_id, rated, web_slug, interaction_only)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?5, 0, ?11, ?12, ?13, ?13, ?14, ?15, ?16, ?17) RETURNING id",
        params![
            g.platform,
            g.chat_id,
            g.variant,
            g.setup,
            g.start_fen,
            g.white,
            g.black,
            g.ai_level,
            g.days_per_move,
            g.status.as_str(),
            g.deadline,
            g.remind_at,
            now,
            g.community_id,
            g.rated,
            new_slug().to_vec(),
            g.interaction_only
        ],
        |r| r.get(0),
    )?)
}

/// A game's web address: 128 random bits, so that knowing one game's address (or its number)
/// tells nothing of another's. Kept as its 16 bytes (`games.web_slug`, migration 22) and shown as
/// 32 hexadecimal digits ([`slug_text`]).
fn new_slug() -> [u8; 16] {
    rand::random()
}

/// A web address as shown (in a page's address): its bytes as 32 lowercase hexadecimal digits.
fn slug_text(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes kept for a web address as shown ([`slug_text`]); `None` for text of another shape,
/// which is no game's address.
fn slug_key(slug: &str) -> Option<Vec<u8>> {
    if !is_slug(slug) {
        return None;
    }
    let digit = |c: u8| if c.is_ascii_digit() { c - b'0' } else { c - b'a' + 10 };
    Some(slug.as_bytes().chunks(2).map(|pair| digit(pair[0]) << 4 | digit(pair[1])).collect())
}

/// Whether `s` has the shape of a game's web address ([`new_slug`]): 32 lowercase hexadecimal
/// digits.
pub fn is_slug(s: &str) -> bool {
    s.len() == 32 && s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The game at a web address, if any.
pub fn by_slug(conn: &Connection, slug: &str) -> Result<Option<GameRow>> {
    let Some(key) = slug_key(slug) else { return Ok(None) };
    Ok(select(conn, "web_slug = ?1", params![key])?.into_iter().next())
}

/// What a game's web page shows, read in one statement ([`for_page`]): the game, whether its
/// community shows itself on the web and in which language, its moves, both players and their
/// ratings in the game's variant in its community.
#[derive(Clone, Debug, PartialEq)]
pub struct ForPage {
    pub row: GameRow,
    /// The community's `web` setting (false without one, or without a community).
    pub web: bool,
    /// The language the community chose for itself, if any.
    pub lang: Option<String>,
    /// The board theme the community chose for itself, if any (`contrast`).
    pub theme: Option<String>,
    /// The moves in coordinates, in order (none before the first).
    pub moves: Vec<String>,
    /// White and black (`None` for a player row that is gone).
    pub players: [Option<Player>; 2],
    /// White's and black's ratings in the game's variant in its community, where they have one.
    pub ratings: [Option<PlayerRating>; 2],
    /// The game's computer analysis, once one is stored ([`super::analyses`]): the nodes a
    /// position and the evaluations as stored.
    pub analysis: Option<(u64, String)>,
    /// The prefix of the game's chat: its own, else its community's (`None`: the configuration's).
    pub prefix: Option<String>,
}

/// The game at a web address with everything its page shows, in one statement: on PostgreSQL
/// each statement is a round trip, and one statement reads one snapshot on either backend, so the
/// moves are those of the row's ply without a transaction around several reads. Every join is by
/// a primary key (the game by `games_web_slug`).
pub fn for_page(conn: &Connection, slug: &str) -> Result<Option<ForPage>> {
    let Some(key) = slug_key(slug) else { return Ok(None) };
    let Some((mut page, moves)) =
        conn.prepare_cached(&for_page_sql())?.query_row(params![key], for_page_row).optional()?
    else {
        return Ok(None);
    };
    if let Some(moves) = moves {
        page.moves = decode_moves(&moves).ok_or_else(|| corrupt_moves(page.row.id, "the moves do not decode"))?;
    }
    Ok(Some(page))
}

/// The statement of [`for_page`]: the game's [`COLUMNS`] (0–27), the setting, language and theme
/// (28–30), the moves (31), each player's id, name and AI flag (32–34, 35–37), each side's rating's
/// [`ratings::COLUMNS`] (38–46, 47–55), the stored analysis's nodes and evaluations (56–57), the
/// chat's prefix, else the community's (58).
fn for_page_sql() -> String {
    let key = ratings::community_key_sql("g.platform", "g.community_id");
    format!(
        "SELECT {}, s.web, s.lang, s.theme, m.moves, pw.id, pw.name, pw.is_ai, pb.id, pb.name, pb.is_ai, {}, {}, \
         a.nodes, a.evals, COALESCE(c.prefix, s.prefix) \
         FROM games g \
         LEFT JOIN community_settings s ON s.platform = g.platform AND s.community_id = g.community_id \
         LEFT JOIN chat_settings c ON c.platform = g.platform AND c.chat_id = g.chat_id \
         LEFT JOIN game_moves m ON m.game_id = g.id \
         LEFT JOIN players pw ON pw.id = g.white_id \
         LEFT JOIN players pb ON pb.id = g.black_id \
         LEFT JOIN ratings rw ON rw.scope = {key} AND rw.variant = g.variant AND rw.player_id = g.white_id \
         LEFT JOIN ratings rb ON rb.scope = {key} AND rb.variant = g.variant AND rb.player_id = g.black_id \
         LEFT JOIN analyses a ON a.game_id = g.id \
         WHERE g.web_slug = ?1",
        qualified(COLUMNS, "g"),
        qualified(ratings::COLUMNS, "rw"),
        qualified(ratings::COLUMNS, "rb"),
    )
}

/// `a, b` as `t.a, t.b`.
fn qualified(columns: &str, table: &str) -> String {
    columns.split(',').map(|c| format!("{table}.{}", c.trim())).collect::<Vec<_>>().join(", ")
}

/// A row of [`for_page_sql`]: the page without its moves, and the moves as stored ([`encode_moves`]).
fn for_page_row(r: &Row<'_>) -> crate::store::sql::Result<(ForPage, Option<Vec<u8>>)> {
    let player = |at: usize| -> crate::store::sql::Result<Option<Player>> {
        Ok(match r.get::<Option<PlayerId>>(at)? {
            Some(id) => Some(Player { id, name: r.get(at + 1)?, is_ai: r.get(at + 2)? }),
            None => None,
        })
    };
    let page = ForPage {
        row: row_to_game(r)?,
        web: r.get::<Option<bool>>(28)?.unwrap_or(false),
        lang: r.get(29)?,
        theme: r.get(30)?,
        moves: Vec::new(),
        players: [player(32)?, player(35)?],
        ratings: [ratings::maybe_from_row_at(r, 38)?, ratings::maybe_from_row_at(r, 47)?],
        analysis: match r.get::<Option<i64>>(56)? {
            Some(nodes) => Some((nodes.max(0) as u64, r.get(57)?)),
            None => None,
        },
        prefix: r.get(58)?,
    };
    Ok((page, r.get(31)?))
}

/// What a live page follows of the game at a web address ([`to_follow`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToFollow {
    pub id: GameId,
    pub platform: String,
    pub chat_id: String,
    /// Whether the game may be shown: it has a community, whose `web` setting is on.
    pub shown: bool,
    /// Its ply and last change ([`version`]).
    pub version: (u32, i64),
}

/// The game at a web address as a live page follows it, in one statement (a watcher looks at
/// each change of its game, and every few seconds).
pub fn to_follow(conn: &Connection, slug: &str) -> Result<Option<ToFollow>> {
    let Some(key) = slug_key(slug) else { return Ok(None) };
    Ok(conn
        .prepare_cached(
            "SELECT g.id, g.platform, g.chat_id, s.web, g.ply, g.updated_at FROM games g \
             LEFT JOIN community_settings s ON s.platform = g.platform AND s.community_id = g.community_id \
             WHERE g.web_slug = ?1",
        )?
        .query_row(params![key], |r| {
            Ok(ToFollow {
                id: r.get(0)?,
                platform: r.get(1)?,
                chat_id: r.get(2)?,
                shown: r.get::<Option<bool>>(3)?.unwrap_or(false),
                version: (r.get(4)?, r.get(5)?),
            })
        })
        .optional()?)
}

/// A game's web address.
pub fn slug(conn: &Connection, id: GameId) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT web_slug FROM games WHERE id = ?1")?
        .query_row(params![id], |r| r.get::<Option<Vec<u8>>>(0))
        .optional()?
        .flatten()
        .map(|bytes| slug_text(&bytes)))
}

/// The web addresses of games by id, read in one statement for up to [`IN_LIST_MAX`](crate::store::sql::IN_LIST_MAX) of them (a
/// web page's lists); a game without an address is not in the map.
pub fn slugs(conn: &Connection, ids: &[GameId]) -> Result<HashMap<GameId, String>> {
    let found = query_by_ids(conn, ids, slugs_sql, |r| Ok((r.get::<GameId>(0)?, r.get::<Vec<u8>>(1)?)))?;
    Ok(found.into_iter().map(|(id, bytes)| (id, slug_text(&bytes))).collect())
}

/// The statement of [`slugs`] for an `IN (…)` list's placeholders: one look-up of the primary key
/// per id.
fn slugs_sql(list: &str) -> String {
    format!("SELECT id, web_slug FROM games WHERE id IN ({list}) AND web_slug IS NOT NULL")
}

/// The game's ply and last change, cheap to read again and again (a web page waiting for moves).
pub fn version(conn: &Connection, id: GameId) -> Result<Option<(u32, i64)>> {
    Ok(conn
        .prepare_cached("SELECT ply, updated_at FROM games WHERE id = ?1")?
        .query_row(params![id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// The last `limit` games of a community (newest change first), or only those `player` played;
/// none aborted. Two reads: the games over, newest first from the indexes of games over by their
/// end ([`recent_over_filter`]), and the games in play from the indexes of open games (migration
/// 27: a move, which changes `updated_at`, then moves no entry of these lists); the latest of both
/// kept, a game over's end being its last change.
pub fn recent_in_community(
    conn: &Connection,
    platform: &str,
    community_id: &str,
    player: Option<PlayerId>,
    limit: usize,
) -> Result<Vec<GameRow>> {
    let (mut games, open) = match player {
        Some(p) => {
            let over = select(conn, &recent_over_filter(true), params![platform, community_id, p, limit as i64])?;
            let here = |g: &GameRow| g.platform == platform && g.community_id.as_deref() == Some(community_id);
            (over, open_of_player(conn, p)?.into_iter().filter(here).collect())
        }
        None => (
            select(conn, &recent_over_filter(false), params![platform, community_id, limit as i64])?,
            select(conn, &recent_open_filter(), params![platform, community_id, limit as i64])?,
        ),
    };
    games.extend(open);
    games.sort_by_key(|g| std::cmp::Reverse((g.updated_at, g.id)));
    games.truncate(limit);
    Ok(games)
}

/// The filter of [`recent_in_community`]'s games in play of a community (`?1` platform, `?2`
/// community, `?3` the limit): every one read from `games_community_open`, the latest `?3` of them
/// made rows.
fn recent_open_filter() -> String {
    format!("{OPEN} AND platform = ?1 AND community_id = ?2 ORDER BY updated_at DESC, id DESC LIMIT ?3")
}

/// A game not over yet, as the partial indexes of open games (`games_*_open`) are written.
const OPEN: &str = "status IN ('setup', 'active')";

/// A game over, as the partial indexes of games over by their end (`games_*_done`, migrations 27
/// and 41) are written.
const OVER: &str = "status IN ('finished', 'aborted')";

/// The filter of [`recent_in_community`]'s finished games: `?1` platform, `?2` community, then `?3`
/// the player and `?4` the limit, or `?3` the limit. A community's are read in order from
/// `games_community_done`; a player's from each side's own index (`games_white_done`,
/// `games_black_done`), the latest of both kept: a few rows read either way, where
/// `white_id = ?3 OR black_id = ?3` would walk the whole community's index looking for the player.
fn recent_over_filter(player: bool) -> String {
    // A game over's end is its last change (`ended_at`, migration 41: the indexes' key, which no
    // move writes, so that PostgreSQL keeps a move off every index).
    const ORDER: &str = "ORDER BY ended_at DESC, id DESC";
    let finished = format!("{OVER} AND status = 'finished'");
    if player {
        let side = |colour: &str| {
            format!(
                "SELECT id FROM (SELECT id FROM games WHERE {colour}_id = ?3 AND platform = ?1 AND community_id = ?2 \
                 AND {finished} {ORDER} LIMIT ?4) AS {colour}"
            )
        };
        format!("id IN ({} UNION ALL {}) {ORDER} LIMIT ?4", side("white"), side("black"))
    } else {
        format!("platform = ?1 AND community_id = ?2 AND {finished} {ORDER} LIMIT ?3")
    }
}

/// The games matching `filter` (SQL after `WHERE`, may end in `ORDER BY` / `LIMIT`), read as rows.
/// In a unit of work each is kept as [`get`]'s answer for its id.
fn select(conn: &Connection, filter: &str, params: impl Params) -> Result<Vec<GameRow>> {
    let mut st = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE {filter}"))?;
    let rows: Vec<GameRow> = st.query_map(params, row_to_game)?.collect::<std::result::Result<_, _>>()?;
    for row in &rows {
        keep(conn, row);
    }
    Ok(rows)
}

/// The games of `rows` (as read now), each kept with its stored moves for the unit of work as
/// [`get`]'s and [`stored_moves`]' answers.
fn kept_with_moves(conn: &Connection, rows: Vec<WithMoves>) -> Vec<GameRow> {
    rows.into_iter()
        .map(|(row, moves)| {
            keep(conn, &row);
            conn.keep_in_unit(&["game_moves"], STORED_MOVES, [row.id], moves);
            row
        })
        .collect()
}

/// The key under which a unit of work keeps [`get`]'s answers ([`Connection::query_opt_kept_as`]).
const GET_KEPT: &str = "games::get";

/// `row`, as read now, kept as [`get`]'s answer for the rest of the unit of work (until it writes
/// `games`).
fn keep(conn: &Connection, row: &GameRow) {
    conn.keep_in_unit(&["games"], GET_KEPT, [row.id], Some(row.clone()));
}

/// The first game matching `filter`, if any, locked for a write transaction
/// ([`Connection::lock_row`]): what the transaction reads of the game next (its moves) is of the
/// same state, and another writer of the game waits.
fn select_one(conn: &Connection, filter: &str, params: impl Params) -> Result<Option<GameRow>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE {filter}{}", conn.lock_row()))?
        .query_row(params, row_to_game)
        .optional()?)
}

/// A game by id (locked as [`select_one`] locks it). In a unit of work, read once until the unit
/// writes `games`: the game's row read by a list or returned by a move is not read again.
pub fn get(conn: &Connection, id: GameId) -> Result<Option<GameRow>> {
    let sql = format!("SELECT {COLUMNS} FROM games WHERE id = ?1{}", conn.lock_row());
    Ok(conn.query_opt_kept_as(&["games"], GET_KEPT, &sql, [id], row_to_game)?)
}

/// Games in a chat with a player in them, in setup or active, oldest first. Read with their stored
/// moves, kept for the unit of work (a move looks its game up here, then loads it); on PostgreSQL
/// usually read already by the input's first statement
/// ([`settings::claim_prefetching_input`](super::settings::claim_prefetching_input)).
pub fn open_in_chat(conn: &Connection, platform: &str, chat_id: &str, player: PlayerId) -> Result<Vec<GameRow>> {
    let rows = conn.query_all_in_unit(
        &["games", "game_moves"],
        OPEN_IN_CHAT.as_str(),
        params![platform, chat_id, player],
        row_with_moves,
    )?;
    Ok(kept_with_moves(conn, rows))
}

/// [`open_in_chat`]'s statement, the key of its answers kept in a unit of work.
static OPEN_IN_CHAT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| open_in_chat_sql("?3"));

/// [`open_in_chat`]'s statement for the player `player` (an expression: a parameter, or a column
/// of the statement it is part of), `?1` the platform and `?2` the chat; its rows are
/// [`open_in_chat_row`]'s.
pub(crate) fn open_in_chat_sql(player: &str) -> String {
    with_moves_sql(&format!(
        "platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active') AND (white_id = {player} OR black_id = {player})
         ORDER BY id"
    ))
}

/// The columns of [`open_in_chat_sql`]'s rows.
pub(crate) const OPEN_IN_CHAT_WIDTH: usize = crate::store::sql::columns_in(COLUMNS) + 2;

/// A game and its stored moves.
pub(crate) type WithMoves = (GameRow, Option<StoredMoves>);

/// A row of [`open_in_chat_sql`]'s statement (its columns first), `None` where a statement read it
/// with an outer join and found no game.
pub(crate) fn open_in_chat_row(r: &Row<'_>) -> crate::store::sql::Result<Option<WithMoves>> {
    match r.get::<Option<GameId>>(0)? {
        Some(_) => row_with_moves(r).map(Some),
        None => Ok(None),
    }
}

/// Keeps `rows` (read now by [`open_in_chat_sql`]'s statement as part of another) as
/// [`open_in_chat`]'s answer for `platform`, `chat_id` and `player` in the unit of work, if any.
pub(crate) fn keep_open_in_chat(
    conn: &Connection,
    platform: &str,
    chat_id: &str,
    player: PlayerId,
    rows: Vec<WithMoves>,
) {
    conn.keep_all_in_unit(&["games", "game_moves"], OPEN_IN_CHAT.as_str(), params![platform, chat_id, player], rows);
}

/// Active games in a chat, whoever plays them, oldest first. (`status IN ('setup', 'active')` is
/// written out for SQLite, which reads a partial index only for a query naming its condition:
/// `games_chat_open`, the chat's open games, rather than all its games in `games_chat`.)
pub fn active_in_chat(conn: &Connection, platform: &str, chat_id: &str) -> Result<Vec<GameRow>> {
    select(
        conn,
        "platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active') AND status = 'active' ORDER BY id",
        params![platform, chat_id],
    )
}

/// The most recent game in a chat with a player in it (any status).
pub fn latest_in_chat(conn: &Connection, platform: &str, chat_id: &str, player: PlayerId) -> Result<Option<GameRow>> {
    select_one(
        conn,
        "platform = ?1 AND chat_id = ?2 AND (white_id = ?3 OR black_id = ?3) ORDER BY id DESC LIMIT 1",
        params![platform, chat_id, player],
    )
}

/// The most recent game over (finished or aborted) in a chat with a player in it.
pub fn latest_over_in_chat(
    conn: &Connection,
    platform: &str,
    chat_id: &str,
    player: PlayerId,
) -> Result<Option<GameRow>> {
    select_one(
        conn,
        &format!(
            "platform = ?1 AND chat_id = ?2 AND (white_id = ?3 OR black_id = ?3) AND {OVER} ORDER BY id DESC LIMIT 1"
        ),
        params![platform, chat_id, player],
    )
}

/// The games over (finished or aborted) in a chat with a player in it, newest first, at most
/// `limit` (read, not locked: for suggestions).
pub fn over_in_chat(
    conn: &Connection,
    platform: &str,
    chat_id: &str,
    player: PlayerId,
    limit: usize,
) -> Result<Vec<GameRow>> {
    select(
        conn,
        &format!(
            "platform = ?1 AND chat_id = ?2 AND (white_id = ?3 OR black_id = ?3) AND {OVER} ORDER BY id DESC LIMIT ?4"
        ),
        params![platform, chat_id, player, limit.min(i64::MAX as usize) as i64],
    )
}

/// Open games of a player anywhere, oldest first.
pub fn open_of_player(conn: &Connection, player: PlayerId) -> Result<Vec<GameRow>> {
    select(conn, &open_of_player_filter(), [player])
}

/// [`open_of_player`]'s filter, the condition in each side's term: SQLite reads a partial index for
/// a term of an `OR` only when that term names its condition (it took the partial ones while each
/// side also had a full index, until migration 27).
fn open_of_player_filter() -> String {
    format!("({OPEN} AND white_id = ?1) OR ({OPEN} AND black_id = ?1) ORDER BY id")
}

/// The key of the index `games_due` (migration 39), in `dialect`'s words: a time no later than what an
/// open game (active, or in its setup phase) has next due, the earlier of its reminder and its
/// deadline. A move that puts both later leaves it (the index's page is not written); a statement
/// that sets them earlier brings it to them (the trigger `games_due_sooner`); the scheduler keys an
/// entry that came due with nothing due again by the game's real times ([`catch_up_due`]).
pub fn due_at(_dialect: Dialect) -> &'static str {
    "due_from"
}

/// What an open game has next due, the earlier of its reminder and its deadline (of those set).
fn next_due_of(dialect: Dialect) -> &'static str {
    match dialect {
        // SQLite's `min` of several values is NULL when one of them is.
        Dialect::Sqlite => "min(coalesce(remind_at, deadline), coalesce(deadline, remind_at))",
        Dialect::Postgres => "LEAST(remind_at, deadline)",
    }
}

/// Keys again by their real times the entries of `games_due` of `platforms` that came due at `now`
/// or before while neither the game's reminder nor its deadline has (a move put them later since
/// the entry was written, or the game was paused): the scheduler's reads then find only what is
/// due, and an entry moves once a reminder period a game instead of once a move. Returns how many
/// games were keyed again.
pub fn catch_up_due(conn: &Connection, now: i64, platforms: &[&str]) -> Result<usize> {
    let due = next_due_of(conn.dialect());
    let sql = format!("UPDATE games SET due_from = {due} WHERE {}", behind_filter(conn.dialect()));
    let mut n = 0;
    for p in platforms {
        n += conn.execute(&sql, params![p, now])?;
    }
    Ok(n)
}

/// Whether [`catch_up_due`] has an entry to key again (read first, so that a tick with none opens
/// no unit of work for it).
pub fn due_behind(conn: &Connection, now: i64, platforms: &[&str]) -> Result<bool> {
    let sql =
        format!("SELECT count(*) FROM (SELECT 1 FROM games WHERE {} LIMIT 1) behind", behind_filter(conn.dialect()));
    for p in platforms {
        if conn.query_row(&sql, params![p, now], |r| r.get::<i64>(0))? > 0 {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The entries of `games_due` of platform `?1` that came due at `?2` or before while nothing of
/// their game has.
fn behind_filter(dialect: Dialect) -> String {
    let due = next_due_of(dialect);
    format!("platform = ?1 AND {OPEN} AND due_from <= ?2 AND ({due} IS NULL OR {due} > ?2)")
}

/// Open games (active or in setup) of `platforms` whose deadline has passed, the earliest first (ties by id).
/// Taken for the caller's transaction ([`Connection::take_due`]).
///
/// Read a platform at a time in the order of the partial index `games_due` (platform, what is
/// due next), so that the query reads only the due rows of that index: ordered by id, SQLite
/// scanned the whole table instead (a million finished games read on every tick, `docs/scale.md`).
pub fn due_timeouts(conn: &Connection, now: i64, platforms: &[&str]) -> Result<Vec<GameRow>> {
    let mut due = due_by(conn, "deadline", now, platforms)?;
    due.sort_by_key(|g| (g.deadline, g.id));
    Ok(due)
}

/// Open games of `platforms` whose time in `column` has passed, each platform's read from the
/// index of what is due next (which comes no later than `column`'s time), in its order.
fn due_by(conn: &Connection, column: &str, now: i64, platforms: &[&str]) -> Result<Vec<GameRow>> {
    let filter = format!("{}{}", due_filter(conn.dialect(), column), conn.take_due());
    super::served::each_platform(platforms, |p| select(conn, &filter, params![p, now]))
}

/// [`due_by`]'s condition and order (platform `?1`, the time now `?2`).
fn due_filter(dialect: Dialect, column: &str) -> String {
    let due = due_at(dialect);
    format!("platform = ?1 AND {OPEN} AND {due} <= ?2 AND {column} <= ?2 ORDER BY {due}, id")
}

/// Game `id` if its deadline has passed, taken for the caller's unit of work
/// ([`Connection::take_due`]): `None` when it is not due (any more), or another process has it.
pub fn due_timeout(conn: &Connection, id: GameId, now: i64) -> Result<Option<GameRow>> {
    taken_with_settings(conn, &format!("id = ?1 AND {OPEN} AND deadline <= ?2"), params![id, now])
}

/// Game `id` if its reminder is due, taken like [`due_timeout`].
pub fn due_reminder(conn: &Connection, id: GameId, now: i64) -> Result<Option<GameRow>> {
    taken_with_settings(conn, &format!("id = ?1 AND {OPEN} AND remind_at <= ?2"), params![id, now])
}

/// The game `filter` finds, taken for the caller's transaction ([`Connection::take_due`]). On
/// PostgreSQL the settings in force in its chat are read with it and kept in the unit of work as
/// [`settings::effective`](super::settings::effective)'s answer (what the scheduler's item says is
/// in the chat's language: a round trip saved an item); on SQLite, where a read is no round trip,
/// the row alone.
fn taken_with_settings(
    conn: &Connection,
    filter: &str,
    params: &[&dyn crate::store::sql::ToSql],
) -> Result<Option<GameRow>> {
    use super::settings;
    if conn.dialect() == Dialect::Sqlite {
        return Ok(select(conn, &format!("{filter}{}", conn.take_due()), params)?.into_iter().next());
    }
    // Only the game's row is locked (`OF games`): the settings are joined from the nullable side.
    let sql = format!(
        "SELECT {}, s.* FROM games LEFT JOIN LATERAL ({}) s ON true WHERE {filter} FOR UPDATE OF games SKIP LOCKED",
        qualified(COLUMNS, "games"),
        settings::in_force_of("games")
    );
    let found = conn
        .prepare_cached(&sql)?
        .query_row(params, |r| Ok((row_to_game(r)?, settings::levels_at(r, WIDTH)?)))
        .optional()?;
    let Some((row, levels)) = found else { return Ok(None) };
    keep(conn, &row);
    settings::keep_in_force(conn, &row.platform, &row.chat_id, row.community_id.as_deref(), levels);
    Ok(Some(row))
}

/// Open games of `platforms` whose reminder time has passed, the earliest first (ties by id),
/// read from the partial index `games_due` as [`due_timeouts`] reads it.
/// Taken for the caller's transaction ([`Connection::take_due`]).
pub fn due_reminders(conn: &Connection, now: i64, platforms: &[&str]) -> Result<Vec<GameRow>> {
    let mut due = due_by(conn, "remind_at", now, platforms)?;
    due.sort_by_key(|g| (g.remind_at, g.id));
    Ok(due)
}

/// The earliest pending deadline or reminder, for a front end deciding when to call the scheduler:
/// read from the index of what is due, so no later than it (a game whose times moved on since its
/// entry was written counts at the entry's time, until a tick keys it again: [`catch_up_due`]).
pub fn next_due(conn: &Connection) -> Result<Option<i64>> {
    let sql = format!("SELECT min({}) FROM games WHERE {OPEN}", due_at(conn.dialect()));
    Ok(conn.query_row(&sql, (), |r| r.get(0))?)
}

/// Active games in which capabot's AI (`ai_player`) is to move: the front end restarts their jobs.
pub fn ai_to_move(conn: &Connection, ai_player: PlayerId, platforms: &[&str]) -> Result<Vec<GameRow>> {
    super::served::each_platform(platforms, |p| {
        select(
            conn,
            "platform = ?2 AND status IN ('setup', 'active') AND status = 'active' AND ai_level IS NOT NULL
             AND ((white_id = ?1 AND ply % 2 = 0) OR (black_id = ?1 AND ply % 2 = 1))",
            params![ai_player, p],
        )
    })
}

/// Games against the AI not yet over: `player`'s, and everyone's.
pub fn open_ai_games(conn: &Connection, player: PlayerId) -> Result<(usize, usize)> {
    let (mine, all): (i64, i64) = conn.query_row(
        "SELECT count(*) FILTER (WHERE white_id = ?1 OR black_id = ?1), count(*) FROM games
         WHERE ai_level IS NOT NULL AND status IN ('setup', 'active')",
        [player],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((mine as usize, all as usize))
}

/// A stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: u32,
    /// In coordinates, as [`crate::notation::uci::write`] writes it.
    pub uci: String,
    pub played_at: i64,
}

/// The moves of a game in order.
///
/// A game's moves are one row of `game_moves` (migrations 15 and 21, `docs/scale.md`): the moves as
/// [`encode_moves`] writes them (about two bytes a ply), and their times as [`encode_times`] writes
/// them.
pub fn moves(conn: &Connection, id: GameId) -> Result<Vec<MoveRow>> {
    decoded_moves(id, stored_moves(conn, id)?)
}

/// The games whose ids run from `first` to `last`, each with its moves, in id order, read in one
/// statement and kept nowhere (`capabot migrate` replays every game it copied, a run of ids at a
/// time).
pub fn with_moves_between(conn: &Connection, first: GameId, last: GameId) -> Result<Vec<(GameRow, Vec<MoveRow>)>> {
    let sql = with_moves_sql("games.id BETWEEN ?1 AND ?2 ORDER BY games.id");
    let rows = conn.query_all(&sql, params![first, last], row_with_moves)?;
    rows.into_iter()
        .map(|(row, stored)| {
            let moves = decoded_moves(row.id, stored)?;
            Ok((row, moves))
        })
        .collect()
}

/// The statement reading the games matching `filter` with their stored moves ([`row_with_moves`]).
fn with_moves_sql(filter: &str) -> String {
    format!(
        "SELECT {COLUMNS}, m.moves, m.times FROM games LEFT JOIN game_moves m ON m.game_id = games.id WHERE {filter}"
    )
}

/// A row of [`with_moves_sql`]'s statement: the game and its stored moves, if it has any.
fn row_with_moves(r: &crate::store::sql::Row<'_>) -> crate::store::sql::Result<(GameRow, Option<StoredMoves>)> {
    let moves = match (r.get::<Option<Vec<u8>>>(WIDTH)?, r.get::<Option<Vec<u8>>>(WIDTH + 1)?) {
        (Some(moves), Some(times)) => Some((moves, times)),
        _ => None,
    };
    Ok((row_to_game(r)?, moves))
}

/// A game's stored moves and their times ([`stored_moves`]), decoded; none without a row.
fn decoded_moves(id: GameId, stored: Option<StoredMoves>) -> Result<Vec<MoveRow>> {
    let Some((moves, times)) = stored else {
        return Ok(Vec::new());
    };
    let moves = decode_moves(&moves).ok_or_else(|| corrupt_moves(id, "the moves do not decode"))?;
    let times = decode_times(&times).ok_or_else(|| corrupt_moves(id, "their times do not decode"))?;
    if moves.len() != times.len() {
        return Err(corrupt_moves(id, &format!("{} moves but {} times", moves.len(), times.len())));
    }
    Ok(moves
        .into_iter()
        .zip(times)
        .enumerate()
        .map(|(i, (uci, played_at))| MoveRow { ply: i as u32 + 1, uci, played_at })
        .collect())
}

fn corrupt_moves(id: GameId, why: &str) -> super::StoreError {
    super::StoreError::Corrupt(format!("game {id}: the stored moves are unreadable: {why}"))
}

/// A game's row of `game_moves`, if it has moves: (moves, times).
fn stored_moves(conn: &Connection, id: GameId) -> Result<Option<StoredMoves>> {
    Ok(conn.query_opt_in_unit(&["game_moves"], STORED_MOVES, [id], |r| Ok((r.get(0)?, r.get(1)?)))?)
}

/// A game's row of `game_moves`: its moves ([`encode_moves`]) and their times ([`encode_times`]).
pub(crate) type StoredMoves = (Vec<u8>, Vec<u8>);

/// [`stored_moves`]' statement, the key of its answers kept in a unit of work.
const STORED_MOVES: &str = "SELECT moves, times FROM game_moves WHERE game_id = ?1";

/// Writes a game's moves (none: the row goes).
fn store_moves(conn: &Connection, id: GameId, moves: &[MoveRow]) -> Result<()> {
    if moves.is_empty() {
        conn.execute("DELETE FROM game_moves WHERE game_id = ?1", [id])?;
        return Ok(());
    }
    let (moves, times) = encode_rows(moves)?;
    conn.prepare_cached(STORE_MOVES)?.execute(params![id, moves, times])?;
    Ok(())
}

/// Appends one move to a game's stored moves.
fn append_move(conn: &Connection, id: GameId, uci: &str, at: i64) -> Result<()> {
    let (moves, times) = appended(conn, id, uci, at)?;
    conn.prepare_cached(STORE_MOVES)?.execute(params![id, moves, times])?;
    Ok(())
}

/// A game's stored moves with one more, as `game_moves` keeps them (the moves, the times).
fn appended(conn: &Connection, id: GameId, uci: &str, at: i64) -> Result<StoredMoves> {
    let mut all = moves(conn, id)?;
    all.push(MoveRow { ply: all.len() as u32 + 1, uci: uci.to_owned(), played_at: at });
    encode_rows(&all)
}

/// Moves as `game_moves` keeps them: the moves ([`encode_moves`]) and their times
/// ([`encode_times`]). A move that cannot be stored so is refused.
fn encode_rows(moves: &[MoveRow]) -> Result<StoredMoves> {
    let bytes = encode_moves(moves.iter().map(|m| m.uci.as_str()))?;
    Ok((bytes, encode_times(&moves.iter().map(|m| m.played_at).collect::<Vec<_>>())))
}

/// Stores a game's moves in place of those stored (`?1` the game, `?2` and `?3` [`encode_rows`]').
const STORE_MOVES: &str = "INSERT INTO game_moves (game_id, moves, times) VALUES (?1, ?2, ?3)
     ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves, times = excluded.times";

/// The kinds of a stored move, in the high bits of its first two bytes ([`encode_moves`]).
const PLAIN: u8 = 0;
const LAUNCH: u8 = 1;
const PROMOTION: u8 = 2;
const MISSILES: u8 = 3;
/// The letters a promotion may name ([`crate::rules::Role`]'s, as `uci::write` writes them).
const PROMOTION_LETTERS: &[u8] = b"pnbrqkacm";

/// Moves in coordinates (each as [`crate::notation::uci::write`] writes it) as `game_moves.moves`
/// keeps them, one after the other, each in two bytes and a few more for a promotion or missiles:
///
/// - a square is its file (a = 0 … j = 9) plus ten times its rank less one (1 = 0 … 10 = 9): 0 to
///   99, in seven bits;
/// - the first byte is the origin square, the second the target square; their high bits are the
///   move's kind (first byte's the higher): 0 plain (`e2e4`, en passant, castling without
///   missiles, a secret bomb's detonation `e4e4`), 1 a Capatomic launch (`e1^e5`), 2 a promotion
///   (`e7e8q`: one more byte, the piece's letter in ASCII), 3 castling with missiles
///   (`f2j2[e1,g1]`: one more byte a missile, its square, the high bit set on the first of two).
///
/// The same bytes decode to the same text ([`decode_moves`]; the `moves` view decodes them in SQL,
/// migration 21). A text these rules do not write back as it was is refused.
pub fn encode_moves<'a>(moves: impl IntoIterator<Item = &'a str>) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    for uci in moves {
        let start = out.len();
        encode_move(uci, &mut out).ok_or_else(|| {
            super::StoreError::Refused(format!(
                "{uci:?} is not a move in coordinates that capabot stores (two squares a to j, 1 to 10, with `^` \
                 between them for a launch, or a promotion's letter, or one or two missiles in brackets after them)"
            ))
        })?;
        // Exact by construction; checked, since the text comes back from these bytes alone.
        if decode_one(&out[start..]).map(|(text, _)| text).as_deref() != Some(uci) {
            out.truncate(start);
            return Err(super::StoreError::Refused(format!("{uci:?} would not read back as written")));
        }
    }
    Ok(out)
}

/// One move's bytes ([`encode_moves`]) appended to `out`; `None` for a text of another shape.
fn encode_move(uci: &str, out: &mut Vec<u8>) -> Option<()> {
    let (from, rest) = take_square(uci.as_bytes())?;
    let (launch, rest) = match rest.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let (to, rest) = take_square(rest)?;
    let (kind, extra): (u8, Vec<u8>) = match rest {
        [] if launch => (LAUNCH, Vec::new()),
        _ if launch => return None,
        [] => (PLAIN, Vec::new()),
        [letter] if PROMOTION_LETTERS.contains(letter) => (PROMOTION, vec![*letter]),
        [b'[', inner @ .., b']'] => {
            let (first, rest) = take_square(inner)?;
            match rest {
                [] => (MISSILES, vec![first]),
                [b',', second @ ..] => match take_square(second)? {
                    (second, []) => (MISSILES, vec![first | 0x80, second]),
                    _ => return None,
                },
                _ => return None,
            }
        }
        _ => return None,
    };
    out.extend([from | (kind >> 1) << 7, to | (kind & 1) << 7]);
    out.extend(extra);
    Some(())
}

/// A square at the start of `text` (a file `a`–`j`, a rank `1`–`10`) as a number 0–99, and the
/// text after it. A digit after the rank's is taken as part of it, as the ranks are written.
fn take_square(text: &[u8]) -> Option<(u8, &[u8])> {
    let (&file, rest) = text.split_first()?;
    let file = file.checked_sub(b'a').filter(|f| *f < 10)?;
    let (rank, rest) = match rest {
        [b'1', b'0', rest @ ..] => (9, rest),
        [digit @ b'1'..=b'9', rest @ ..] => (digit - b'1', rest),
        _ => return None,
    };
    Some((file + 10 * rank, rest))
}

/// A square's name (`a1` … `j10`) from its number 0–99 ([`take_square`]).
fn square_name(square: u8, out: &mut String) {
    out.push(char::from(b'a' + square % 10));
    out.push_str(&(square / 10 + 1).to_string());
}

/// The moves in coordinates [`encode_moves`] wrote; `None` for bytes it cannot have written.
pub fn decode_moves(bytes: &[u8]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (text, used) = decode_one(rest)?;
        out.push(text);
        rest = &rest[used..];
    }
    Some(out)
}

/// The first move of `bytes` ([`encode_moves`]) and how many bytes it takes.
fn decode_one(bytes: &[u8]) -> Option<(String, usize)> {
    let square = |b: u8| Some(b & 0x7f).filter(|s| *s < 100);
    let (&first, &second) = (bytes.first()?, bytes.get(1)?);
    let kind = (first >> 7) << 1 | second >> 7;
    let (from, to) = (square(first)?, square(second)?);
    let mut text = String::with_capacity(8);
    square_name(from, &mut text);
    if kind == LAUNCH {
        text.push('^');
    }
    square_name(to, &mut text);
    let used = match kind {
        PROMOTION => {
            let letter = *bytes.get(2).filter(|l| PROMOTION_LETTERS.contains(l))?;
            text.push(char::from(letter));
            3
        }
        MISSILES => {
            let first = *bytes.get(2)?;
            text.push('[');
            square_name(square(first)?, &mut text);
            let used = if first & 0x80 != 0 {
                let second = *bytes.get(3).filter(|b| *b & 0x80 == 0)?;
                text.push(',');
                square_name(square(second)?, &mut text);
                4
            } else {
                3
            };
            text.push(']');
            used
        }
        _ => 2,
    };
    Some((text, used))
}

/// Times as stored in `game_moves.times`: each the seconds since the one before (the first since
/// 0), zigzag-encoded (0, -1, 1, -2, … as 0, 1, 2, 3, …: a clock set back stays small) as
/// little-endian base-128 varints (seven bits a byte, the high bit on every byte but the last).
/// A move a day later takes 3 bytes, a minute later 1 or 2.
pub fn encode_times(times: &[i64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(times.len() * 3);
    let mut before = 0i64;
    for &t in times {
        let delta = t.wrapping_sub(before);
        before = t;
        let mut z = ((delta << 1) ^ (delta >> 63)) as u64;
        while z >= 0x80 {
            out.push((z as u8 & 0x7f) | 0x80);
            z >>= 7;
        }
        out.push(z as u8);
    }
    out
}

/// The times [`encode_times`] wrote; `None` for bytes it cannot have written.
pub fn decode_times(bytes: &[u8]) -> Option<Vec<i64>> {
    let mut out = Vec::new();
    let (mut before, mut z, mut shift) = (0i64, 0u64, 0u32);
    for &b in bytes {
        if shift > 63 || (shift == 63 && b & 0x7e != 0) {
            return None;
        }
        z |= u64::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 != 0 {
            shift += 7;
            continue;
        }
        let delta = ((z >> 1) as i64) ^ -((z & 1) as i64);
        before = before.wrapping_add(delta);
        out.push(before);
        (z, shift) = (0, 0);
    }
    (shift == 0).then_some(out)
}

/// Migration 15 on SQLite: the rows of the old `moves` table (renamed `moves_v14` by the
/// migration's SQL) become one row of `game_moves` a game, and the old table goes. PostgreSQL's
/// V15 does the same in SQL.
pub fn migrate_moves(tx: &rusqlite::Connection) -> rusqlite::Result<()> {
    let mut read = tx.prepare("SELECT game_id, uci, played_at FROM moves_v14 ORDER BY game_id, ply")?;
    let mut write = tx.prepare("INSERT INTO game_moves (game_id, uci, times) VALUES (?1, ?2, ?3)")?;
    let mut rows = read.query(())?;
    let mut game: Option<(i64, String, Vec<i64>)> = None;
    let mut flush = |g: Option<(i64, String, Vec<i64>)>| match g {
        Some((id, uci, times)) => write.execute(rusqlite::params![id, uci, encode_times(&times)]).map(drop),
        None => Ok(()),
    };
    while let Some(row) = rows.next()? {
        let (id, uci, at): (i64, String, i64) = (row.get(0)?, row.get(1)?, row.get(2)?);
        if let Some((_, moves, times)) = game.as_mut().filter(|(g, ..)| *g == id) {
            moves.push(' ');
            moves.push_str(&uci);
            times.push(at);
        } else {
            flush(game.replace((id, uci, vec![at])))?;
        }
    }
    flush(game)?;
    drop(rows);
    drop(read);
    tx.execute_batch("DROP TABLE moves_v14")
}

/// Migration 21 on SQLite: each game's moves in coordinates (`game_moves_v20.uci`, the table the
/// migration's SQL renamed) stored as [`encode_moves`] writes them, and the old table gone.
/// PostgreSQL's V21 does the same in SQL. A move it cannot store stops the migration, naming it.
pub fn migrate_binary_moves(tx: &rusqlite::Connection) -> rusqlite::Result<()> {
    let mut read = tx.prepare("SELECT game_id, uci, times FROM game_moves_v20 ORDER BY game_id")?;
    let mut write = tx.prepare("INSERT INTO game_moves (game_id, moves, times) VALUES (?1, ?2, ?3)")?;
    let mut rows = read.query(())?;
    while let Some(row) = rows.next()? {
        let (id, uci, times): (i64, String, Vec<u8>) = (row.get(0)?, row.get(1)?, row.get(2)?);
        let moves = encode_moves(uci.split(' ')).map_err(|e| {
            let why = format!("migration 21, game {id}: {e}");
            rusqlite::Error::FromSqlConversionFailure(1, rusqlite::types::Type::Text, why.into())
        })?;
        write.execute(rusqlite::params![id, moves, times])?;
    }
    drop(rows);
    drop(read);
    tx.execute_batch("DROP TABLE game_moves_v20")
}

/// A move to store, with the game state after it.
#[derive(Clone, Debug)]
pub struct MoveUpdate<'a> {
    /// In coordinates ([`crate::notation::uci::write`]).
    pub uci: &'a str,
    pub fen_after: &'a str,
    pub deadline: Option<i64>,
    pub remind_at: Option<i64>,
    /// Set when the move ends the game.
    pub outcome: Option<Outcome>,
}

/// Called inside the transaction that stores a game's result, with the finished row: what must change
/// with the result (ratings, ladder standings, tournament scores) changes atomically with it — a
/// crash leaves both or neither.
pub type OnEnd<'a> = &'a mut dyn FnMut(&Connection, &GameRow) -> Result<()>;

/// An [`OnEnd`] that does nothing.
pub fn no_end_hook(_: &Connection, _: &GameRow) -> Result<()> {
    Ok(())
}

fn run_end_hook(tx: &Connection, id: GameId, on_end: OnEnd<'_>) -> Result<()> {
    let row = get(tx, id)?.ok_or_else(|| super::StoreError::Corrupt(format!("game {id} vanished")))?;
    on_end(tx, &row)
}

/// Runs `update` (an `UPDATE games … WHERE id = …` of at most one row); whether it changed a row.
/// On PostgreSQL the row it changed comes back with it (`RETURNING`) and is kept as [`get`]'s
/// answer in the unit of work, so the end hook and the answer that follow read it without a round
/// trip. Not on SQLite, where reading a row by its key costs far less than `RETURNING` does (a
/// scheduler's tick of 1,000 timeouts: about 90,000 instructions an item more with it, under
/// callgrind).
fn update_kept(conn: &Connection, update: &str, params: impl Params) -> Result<bool> {
    if conn.dialect() == crate::store::sql::Dialect::Sqlite {
        return Ok(conn.execute(update, params)? == 1);
    }
    let sql = format!("{update} RETURNING {COLUMNS}");
    match conn.prepare_cached(&sql)?.query_row(params, row_to_game).optional()? {
        Some(row) => {
            keep(conn, &row);
            Ok(true)
        }
        None => Ok(false),
    }
}

/// A move that does not end its game: the columns it sets are named by no index of `games` (not in
/// a key, an expression or a partial index's condition; `tests/pg/schema.rs` checks it), so that
/// PostgreSQL writes it as a heap-only tuple, the new version beside the old on its page and no
/// index entry added (migration 41: before it, `updated_at` keyed the indexes of games over, and a
/// move in real time added an entry to each of the game's indexes). SQLite likewise leaves every
/// index alone.
pub const MOVE_UPDATE: &str = "UPDATE games SET ply = ply + 1, fen = ?1, deadline = ?2, remind_at = ?3, updated_at = ?4, \
     paused = 0 WHERE id = ?5 AND ply = ?6 AND status = 'active'";

/// Stores the move for ply `expected_ply + 1` if the game is still active at `expected_ply`, and
/// clears pending offers; a move that ends the game runs `on_end` in the same transaction. Returns
/// `false` (and changes nothing) when the game moved on meanwhile.
pub fn apply_move(
    conn: &Connection,
    id: GameId,
    expected_ply: u32,
    m: &MoveUpdate<'_>,
    now: i64,
    on_end: OnEnd<'_>,
) -> Result<bool> {
    let tx = super::immediate(conn)?;
    // A move that does not end the game names only the columns it changes: SQLite rewrites the
    // entry of every index whose key or condition names a column the statement sets, changed or
    // not, and `status` is in the condition of the four indexes of open games (a page of each
    // written to the log a move, `docs/load.md`).
    let outcome = m.outcome.map(outcome_to_db);
    let (update, params) = match &outcome {
        Some((result, term)) => (
            "UPDATE games SET ply = ply + 1, fen = ?1, status = 'finished', result = ?2, termination = ?3,
               deadline = NULL, remind_at = NULL, updated_at = ?4, ended_at = ?4, paused = 0
             WHERE id = ?5 AND ply = ?6 AND status = 'active'",
            params![m.fen_after, *result, *term, now, id, expected_ply],
        ),
        None => (MOVE_UPDATE, params![m.fen_after, m.deadline, m.remind_at, now, id, expected_ply]),
    };
    let moved = if conn.dialect() == crate::store::sql::Dialect::Sqlite {
        let moved = update_kept(&tx, update, params)?;
        if moved {
            append_move(&tx, id, m.uci, now)?;
            offers::clear(&tx, id)?;
        }
        moved
    } else {
        moved_storing_clearing(&tx, update, params, id, m.uci, now)?
    };
    if !moved {
        return Ok(false);
    }
    if m.outcome.is_some() {
        run_end_hook(&tx, id, on_end)?;
    }
    tx.commit()?;
    Ok(true)
}

/// PostgreSQL's move in one statement (three round trips fewer than its four parts): `update` (an
/// `UPDATE games … WHERE id = ?5 AND ply = ?6 …` of six parameters) with the game's row returned
/// and kept as [`get`]'s answer, and only where it changed the row, the game's moves with `uci`
/// played at `at` appended and its pending offers cleared (found by the game's key, `?5`: joined
/// to the returned row instead, the plan walked every offer's key), and both players with their
/// settings and their accounts on the game's platform read and kept as
/// [`players::read_pair`](super::players::read_pair) keeps them (the replies to a move name the
/// next player and tell the opponent: that statement's round trip saved). Whether it changed the
/// row. The moves are read before (the unit read them with the game); a game that moved on
/// meanwhile changes nothing, as the guard in `update` says.
fn moved_storing_clearing(
    conn: &Connection,
    update: &str,
    params: &[&dyn crate::store::sql::ToSql],
    id: GameId,
    uci: &str,
    at: i64,
) -> Result<bool> {
    let (moves, times) = appended(conn, id, uci, at)?;
    let sql = format!(
        "WITH moved AS ({update} RETURNING {COLUMNS}),
           stored AS (INSERT INTO game_moves (game_id, moves, times) SELECT id, ?7, ?8 FROM moved
             ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves, times = excluded.times),
           cleared AS (DELETE FROM offers WHERE game_id = ?5 AND EXISTS (SELECT 1 FROM moved))
         SELECT {}, pair.* FROM moved
         LEFT JOIN LATERAL ({}) pair ON true ORDER BY pair.id, pair.user_id",
        qualified(COLUMNS, "moved"),
        super::players::pair_sql("moved.white_id", "moved.black_id", "moved.platform")
    );
    let mut all: Vec<&dyn crate::store::sql::ToSql> = params.to_vec();
    all.extend([&moves as &dyn crate::store::sql::ToSql, &times]);
    let rows = conn.prepare_cached(&sql)?.query_map(all.as_slice(), |r| {
        let pair = match r.get::<Option<i64>>(WIDTH)? {
            Some(_) => Some(super::players::pair_row_at(r, WIDTH)?),
            None => None,
        };
        Ok((row_to_game(r)?, pair))
    })?;
    let rows: Vec<(GameRow, Option<super::players::PairRow>)> = rows.collect::<std::result::Result<_, _>>()?;
    let Some((row, _)) = rows.first() else {
        return Ok(false);
    };
    keep(conn, row);
    let pair: Vec<super::players::PairRow> = rows.iter().filter_map(|(_, p)| p.clone()).collect();
    super::players::keep_pair(conn, &row.platform, row.white, row.black, &pair);
    Ok(true)
}

/// Stores new game `g` with `moves` already played (the `i`-th at `times[i]`), in one transaction:
/// the rows [`create`] and then [`apply_move`] for each move would leave (the last move's outcome,
/// when it ends the game, running `on_end`; the last move's deadline and reminder otherwise), in a
/// few statements instead of a transaction per move. For seeding large databases (`lab
/// bench-scale`); the bot itself stores each move as it is played.
pub fn create_played(
    conn: &Connection,
    g: &NewGame<'_>,
    moves: &[MoveUpdate<'_>],
    times: &[i64],
    on_end: OnEnd<'_>,
) -> Result<GameId> {
    if moves.len() != times.len() || moves.iter().rev().skip(1).any(|m| m.outcome.is_some()) {
        return Err(super::StoreError::Refused(
            "a move and a time each, and only the last move may end the game".into(),
        ));
    }
    if !moves.is_empty() && g.status != Status::Active {
        return Err(super::StoreError::Refused("only an active game has moves to store".into()));
    }
    let tx = super::immediate(conn)?;
    let first = times.first().copied().unwrap_or_default();
    let id = create(&tx, g, first)?;
    let rows: Vec<MoveRow> = moves
        .iter()
        .zip(times)
        .enumerate()
        .map(|(i, (m, &played_at))| MoveRow { ply: i as u32 + 1, uci: m.uci.to_owned(), played_at })
        .collect();
    store_moves(&tx, id, &rows)?;
    if let (Some(last), Some(at)) = (moves.last(), times.last()) {
        let (status, result, term, deadline, remind) = match last.outcome {
            Some(o) => {
                let (r, t) = outcome_to_db(o);
                (Status::Finished, Some(r), Some(t), None, None)
            }
            None => (Status::Active, None, None, last.deadline, last.remind_at),
        };
        tx.prepare_cached(
            "UPDATE games SET ply = ?1, fen = ?2, status = ?3, result = ?4, termination = ?5, deadline = ?6,
               remind_at = ?7, updated_at = ?8, ended_at = ?9 WHERE id = ?10",
        )?
        .execute(params![
            moves.len() as u32,
            last.fen_after,
            status.as_str(),
            result,
            term,
            deadline,
            remind,
            at,
            last.outcome.map(|_| at),
            id
        ])?;
        if last.outcome.is_some() {
            run_end_hook(&tx, id, on_end)?;
        }
    }
    tx.commit()?;
    Ok(id)
}

/// Ends an active game (or one in setup: a tournament's forfeit) at `expected_ply` with an outcome
/// (resignation, agreement, timeout, forfeit), running `on_end` in the same transaction. In a unit
/// of work, both players are read with it and kept (the end names and notifies them).
pub fn finish(
    conn: &Connection,
    id: GameId,
    expected_ply: u32,
    outcome: Outcome,
    now: i64,
    on_end: OnEnd<'_>,
) -> Result<bool> {
    let tx = super::immediate(conn)?;
    let (r, t) = outcome_to_db(outcome);
    let update =
        "UPDATE games SET status = 'finished', result = ?1, termination = ?2, deadline = NULL, remind_at = NULL,
           updated_at = ?3, ended_at = ?3 WHERE id = ?4 AND ply = ?5 AND status IN ('setup', 'active')";
    let params = params![r, t, now, id, expected_ply];
    let row = if tx.dialect() == Dialect::Sqlite {
        if !update_kept(&tx, update, params)? {
            return Ok(false);
        }
        offers::clear(&tx, id)?;
        let row = get(&tx, id)?.ok_or_else(|| super::StoreError::Corrupt(format!("game {id} vanished")))?;
        super::players::read_pair(&tx, &row.platform, row.white, row.black)?;
        row
    } else {
        match finished_clearing(&tx, update, params)? {
            Some(row) => row,
            None => return Ok(false),
        }
    };
    on_end(&tx, &row)?;
    tx.commit()?;
    Ok(true)
}

/// PostgreSQL's game end in one statement (four round trips fewer than its parts): `update` (an
/// `UPDATE games … WHERE id = ?4 …` of five parameters) with the game's row returned and kept as
/// [`get`]'s answer, and only where it changed the row, the game's pending offers cleared; read
/// with it and kept for the unit, what the end's hook and answers look up next: the ladder
/// challenge and the tournament board the game is played for
/// ([`ladders::find_by_game`](super::ladders::find_by_game),
/// [`tournaments::find_by_game`](super::tournaments::find_by_game)), and both players with their
/// settings and accounts ([`players::read_pair`](super::players::read_pair)). The game's new row, `None` when it did not change.
fn finished_clearing(
    conn: &Connection,
    update: &str,
    params: &[&dyn crate::store::sql::ToSql],
) -> Result<Option<GameRow>> {
    use super::{ladders, tournaments};
    let sql = format!(
        "WITH ended AS ({update} RETURNING {COLUMNS}),
           cleared AS (DELETE FROM offers WHERE game_id = ?4 AND EXISTS (SELECT 1 FROM ended))
         SELECT {}, ladder.*, board.*, pair.* FROM ended
         LEFT JOIN LATERAL ({} LIMIT 1) ladder ON true
         LEFT JOIN LATERAL ({} LIMIT 1) board ON true
         LEFT JOIN LATERAL ({}) pair ON true ORDER BY pair.id, pair.user_id",
        qualified(COLUMNS, "ended"),
        ladders::BY_GAME.replace("?1", "ended.id"),
        tournaments::BY_GAME.replace("?1", "ended.id"),
        super::players::pair_sql("ended.white_id", "ended.black_id", "ended.platform")
    );
    type Ends = (Option<(i64, u32)>, Option<(i64, usize, usize)>);
    let rows = conn.prepare_cached(&sql)?.query_map(params, |r| {
        let ladder: Option<(i64, u32)> = match r.get::<Option<i64>>(WIDTH)? {
            Some(l) => Some((l, r.get(WIDTH + 1)?)),
            None => None,
        };
        let board: Option<(i64, usize, usize)> = match r.get::<Option<i64>>(WIDTH + 2)? {
            Some(t) => Some((t, r.get(WIDTH + 3)?, r.get(WIDTH + 4)?)),
            None => None,
        };
        let pair = match r.get::<Option<i64>>(WIDTH + 5)? {
            Some(_) => Some(super::players::pair_row_at(r, WIDTH + 5)?),
            None => None,
        };
        Ok((row_to_game(r)?, (ladder, board), pair))
    })?;
    let rows: Vec<(GameRow, Ends, Option<super::players::PairRow>)> = rows.collect::<std::result::Result<_, _>>()?;
    let Some((row, (ladder, board), _)) = rows.first() else {
        return Ok(None);
    };
    keep(conn, row);
    conn.keep_in_unit(ladders::BY_GAME_TABLES, ladders::BY_GAME, [row.id], *ladder);
    conn.keep_in_unit(tournaments::BY_GAME_TABLES, tournaments::BY_GAME, [row.id], *board);
    let pair: Vec<super::players::PairRow> = rows.iter().filter_map(|(.., p)| p.clone()).collect();
    super::players::keep_pair(conn, &row.platform, row.white, row.black, &pair);
    Ok(Some(row.clone()))
}

/// Aborts a game in setup or active at `expected_ply`.
pub fn abort(conn: &Connection, id: GameId, expected_ply: u32, now: i64) -> Result<bool> {
    let tx = super::immediate(conn)?;
    let n = tx.execute(
        "UPDATE games SET status = 'aborted', deadline = NULL, remind_at = NULL, updated_at = ?1, ended_at = ?1
         WHERE id = ?2 AND ply = ?3 AND status IN ('setup', 'active')",
        params![now, id, expected_ply],
    )?;
    if n != 1 {
        return Ok(false);
    }
    offers::clear(&tx, id)?;
    tx.commit()?;
    Ok(true)
}

/// Takes back moves: from `expected_ply` down to `new_ply`, with the FEN and clock there.
#[allow(clippy::too_many_arguments)]
pub fn take_back(
    conn: &Connection,
    id: GameId,
    expected_ply: u32,
    new_ply: u32,
    fen: &str,
    deadline: Option<i64>,
    remind_at: Option<i64>,
    now: i64,
) -> Result<bool> {
    let tx = super::immediate(conn)?;
    let n = tx.execute(
        "UPDATE games SET ply = ?1, fen = ?2, deadline = ?3, remind_at = ?4, updated_at = ?5
         WHERE id = ?6 AND ply = ?7 AND status = 'active'",
        params![new_ply, fen, deadline, remind_at, now, id, expected_ply],
    )?;
    if n != 1 {
        return Ok(false);
    }
    let mut kept = moves(&tx, id)?;
    kept.truncate(new_ply as usize);
    store_moves(&tx, id, &kept)?;
    offers::clear(&tx, id)?;
    tx.commit()?;
    Ok(true)
}

/// Records a relocation swap of one colour during the setup phase; `shown`, where given, is the
/// position the game shows from now on (Black's swap made while White chooses), as its start and
/// current FEN. Returns `false` if the game is no longer in setup or that colour already chose.
pub fn set_swap(conn: &Connection, id: GameId, color: Color, swap: u32, shown: Option<&str>, now: i64) -> Result<bool> {
    let col = if color == Color::White { "white_swap" } else { "black_swap" };
    let n = conn.execute(
        &format!(
            "UPDATE games SET {col} = ?1, updated_at = ?2, fen = COALESCE(?4, fen), start_fen = COALESCE(?4, start_fen)
               WHERE id = ?3 AND status = 'setup' AND {col} IS NULL"
        ),
        params![swap, now, id, shown],
    )?;
    Ok(n == 1)
}

/// Starts the clock of the side to choose next in the setup phase (White, once Black has chosen).
/// Returns `false` if the game is no longer in setup, or is paused (its clock stopped).
pub fn set_setup_clock(
    conn: &Connection,
    id: GameId,
    deadline: Option<i64>,
    remind_at: Option<i64>,
    now: i64,
) -> Result<bool> {
    let n = conn.execute(
        "UPDATE games SET deadline = ?1, remind_at = ?2, updated_at = ?3 WHERE id = ?4 AND status = 'setup' AND paused = 0",
        params![deadline, remind_at, now, id],
    )?;
    Ok(n == 1)
}

/// Ends the setup phase: the game starts from `start_fen` (setup index `setup`).
pub fn start_after_setup(
    conn: &Connection,
    id: GameId,
    setup: u32,
    start_fen: &str,
    deadline: Option<i64>,
    remind_at: Option<i64>,
    now: i64,
) -> Result<bool> {
    let n = conn.execute(
        "UPDATE games SET status = 'active', setup = ?1, start_fen = ?2, fen = ?2, deadline = ?3, remind_at = ?4,
           updated_at = ?5 WHERE id = ?6 AND status = 'setup' AND ply = 0",
        params![setup, start_fen, deadline, remind_at, now, id],
    )?;
    Ok(n == 1)
}

/// Pauses the active games of a chat (or thread) that is gone: their clocks stop. Returns them.
pub fn pause_in_chat(conn: &Connection, platform: &str, chat: &str, now: i64) -> Result<Vec<GameRow>> {
    pause_where(conn, "platform = ?1 AND (chat_id = ?2 OR thread_id = ?2)", platform, chat, now)
}

/// Pauses the active games of a community (a server the bot was removed from): their clocks stop.
/// Returns them.
pub fn pause_in_community(conn: &Connection, platform: &str, community: &str, now: i64) -> Result<Vec<GameRow>> {
    pause_where(conn, "platform = ?1 AND community_id = ?2", platform, community, now)
}

/// Pauses the active, unpaused games that `place` (over `?1` platform and `?2`) selects; returns
/// those paused now, so that a second failure in the same place tells nobody again.
fn pause_where(conn: &Connection, place: &str, platform: &str, key: &str, now: i64) -> Result<Vec<GameRow>> {
    let filter = format!("status IN ('setup', 'active') AND paused = 0 AND {place}");
    let rows = select(conn, &filter, params![platform, key])?;
    conn.execute(
        &format!("UPDATE games SET paused = 1, deadline = NULL, remind_at = NULL, updated_at = ?3 WHERE {filter}"),
        params![platform, key, now],
    )?;
    Ok(rows)
}

/// Moves a paused game to a chat of its platform where a player goes on with it (the chat
/// `interaction_only` or not), out of its thread. It keeps its community, where it is rated and
/// shown. With `resume` its clock starts again with the next move; else it stays paused.
pub fn relocate(
    conn: &Connection,
    id: GameId,
    (chat, interaction_only): (&str, bool),
    resume: bool,
    now: i64,
) -> Result<bool> {
    let n = conn.execute(
        "UPDATE games SET chat_id = ?2, thread_id = NULL, paused = ?3, updated_at = ?4, interaction_only = ?5
         WHERE id = ?1 AND paused = 1",
        params![id, chat, !resume, now, interaction_only],
    )?;
    Ok(n == 1)
}

/// A move stored in a paused game (taken to a new chat, where the opponent has not moved yet):
/// the game stays paused, its clock stopped.
pub fn keep_paused(conn: &Connection, id: GameId) -> Result<()> {
    conn.execute("UPDATE games SET paused = 1 WHERE id = ?1 AND status = 'active'", params![id])?;
    Ok(())
}

/// A chat was replaced by another of its platform (a Matrix room upgraded to a new room): its open
/// games (paused or not) move there, out of their threads, and a paused one is taken up again
/// (its clock starts with the next move); so do its open challenges, its ladders' and
/// tournaments' announcements and its settings. Returns the games moved.
pub fn move_chat(conn: &Connection, platform: &str, old: &str, new: &str, now: i64) -> Result<Vec<GameRow>> {
    let open = "platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active')";
    let moved = select(conn, &format!("{open} ORDER BY id"), params![platform, old])?;
    conn.execute(
        &format!("UPDATE games SET chat_id = ?3, thread_id = NULL, paused = 0, updated_at = ?4 WHERE {open}"),
        params![platform, old, new, now],
    )?;
    conn.execute(
        "UPDATE challenges SET chat_id = ?3 WHERE platform = ?1 AND chat_id = ?2 AND status = 'open'",
        params![platform, old, new],
    )?;
    for table in ["ladders", "tournaments"] {
        conn.execute(
            &format!("UPDATE {table} SET chat_id = ?3, thread_id = NULL WHERE platform = ?1 AND chat_id = ?2"),
            params![platform, old, new],
        )?;
    }
    // The new chat's own settings, if it has any already, win.
    conn.execute(
        "UPDATE chat_settings SET chat_id = ?3 WHERE platform = ?1 AND chat_id = ?2
         AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE platform = ?1 AND chat_id = ?3)",
        params![platform, old, new],
    )?;
    Ok(moved)
}

/// Records the thread a game is played in.
/// Secret-bomb chess: records `color`'s bomb (its square at the start) in an active game where that
/// side has none yet. `false`: already chosen, or the game is not active.
pub fn set_bomb(conn: &Connection, id: GameId, color: Color, square: &str, now: i64) -> Result<bool> {
    let column = if color == Color::White { "white_bomb" } else { "black_bomb" };
    let n = conn.execute(
        &format!(
            "UPDATE games SET {column} = ?1, updated_at = ?2 WHERE id = ?3 AND status = 'active' AND {column} IS NULL"
        ),
        params![square, now, id],
    )?;
    Ok(n == 1)
}

/// Gives the side to move at `expected_ply` a new deadline (and reminder time) in an active game.
pub fn set_clock(
    conn: &Connection,
    id: GameId,
    expected_ply: u32,
    deadline: Option<i64>,
    remind_at: Option<i64>,
    now: i64,
) -> Result<bool> {
    let n = conn.execute(
        "UPDATE games SET deadline = ?1, remind_at = ?2, updated_at = ?3 WHERE id = ?4 AND ply = ?5 AND status = 'active'",
        params![deadline, remind_at, now, id, expected_ply],
    )?;
    Ok(n == 1)
}

pub fn set_thread(conn: &Connection, id: GameId, thread_id: &str) -> Result<bool> {
    let n = conn.execute("UPDATE games SET thread_id = ?1 WHERE id = ?2", params![thread_id, id])?;
    Ok(n == 1)
}

/// Clears the reminder of a game at `expected_ply` (it was sent).
pub fn mark_reminded(conn: &Connection, id: GameId, expected_ply: u32) -> Result<bool> {
    let n = conn.execute(
        &format!("UPDATE games SET remind_at = NULL WHERE id = ?1 AND ply = ?2 AND {OPEN}"),
        params![id, expected_ply],
    )?;
    Ok(n == 1)
}

/// How an outcome is stored: `(result, termination code)`.
pub fn outcome_to_db(o: Outcome) -> (&'static str, &'static str) {
    let t = match o {
        Outcome::Decisive { reason, .. } => match reason {
            WinReason::Checkmate => "checkmate",
            WinReason::KingExploded => "king_exploded",
            WinReason::Resignation => "resignation",
            WinReason::Timeout => "timeout",
            WinReason::Forfeit => "forfeit",
            WinReason::NoMaterial => "no_material",
        },
        Outcome::Draw(reason) => match reason {
            DrawReason::Stalemate => "stalemate",
            DrawReason::Repetition => "repetition",
            DrawReason::FiftyMoves => "fifty_moves",
            DrawReason::InsufficientMaterial => "insufficient_material",
            DrawReason::Agreement => "agreement",
            DrawReason::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            DrawReason::BothKingsExploded => "both_kings_exploded",
        },
    };
    (o.result_str(), t)
}

/// Reads a stored outcome back.
pub fn outcome_from_db(result: &str, termination: &str) -> Option<Outcome> {
    let winner = match result {
        "1-0" => Some(Color::White),
        "0-1" => Some(Color::Black),
        "1/2-1/2" => None,
        _ => return None,
    };
    match winner {
        Some(winner) => {
            let reason = match termination {
                "checkmate" => WinReason::Checkmate,
                "king_exploded" => WinReason::KingExploded,
                "resignation" => WinReason::Resignation,
                "timeout" => WinReason::Timeout,
                "forfeit" => WinReason::Forfeit,
                "no_material" => WinReason::NoMaterial,
                _ => return None,
            };
            Some(Outcome::Decisive { winner, reason })
        }
        None => Some(Outcome::Draw(match termination {
            "stalemate" => DrawReason::Stalemate,
            "repetition" => DrawReason::Repetition,
            "fifty_moves" => DrawReason::FiftyMoves,
            "insufficient_material" => DrawReason::InsufficientMaterial,
            "agreement" => DrawReason::Agreement,
            "timeout_vs_insufficient_material" => DrawReason::TimeoutVsInsufficientMaterial,
            "both_kings_exploded" => DrawReason::BothKingsExploded,
            _ => return None,
        })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, players};

    on_both_backends!(
        ply_guard_lets_one_move_land,
        a_moves_unit_reads_its_games_and_players_with_its_first_statement_and_its_move,
        a_games_end_reads_what_its_hook_looks_up_with_its_statement,
        a_due_game_is_taken_with_its_chats_settings,
        a_failing_end_hook_leaves_neither_result_nor_consequence,
        a_replaced_chat_takes_its_open_games_along,
        a_game_stored_played_is_the_game_played_move_by_move,
        a_players_recent_games_are_both_sides_newest_first,
        many_addresses_are_read_at_once,
        the_moves_view_reads_the_stored_bytes_as_the_store_does,
        stored_moves_that_do_not_decode_are_corrupt,
        a_web_address_is_kept_in_sixteen_bytes_and_shown_in_hexadecimal,
        a_page_reads_its_games_stored_analysis_with_it,
        a_game_in_its_setup_phase_comes_due_as_an_active_one_does,
        a_move_leaves_the_due_index_and_a_game_never_comes_due_late
    );

    /// Migration 39: a move that puts a game's reminder and deadline later leaves its entry in the
    /// index of what is due (`due_from`); the scheduler's reads find the game only once a time of its
    /// own has passed, and [`catch_up_due`] keys the entry again by those times. Times set earlier
    /// (a clock set again) bring the entry forward at once, and a paused game (no times) leaves the
    /// index's due entries once keyed again: a game never comes due later than its times say.
    fn a_move_leaves_the_due_index_and_a_game_never_comes_due_late(store: &Store) {
        let c = store.conn().unwrap();
        let ids = |rows: Vec<GameRow>| rows.into_iter().map(|g| g.id).collect::<Vec<_>>();
        let due_from = |id: GameId| -> Option<i64> {
            c.query_row("SELECT due_from FROM games WHERE id = ?1", [id], |r| r.get(0)).unwrap()
        };
        let new = NewGame { deadline: Some(1000), remind_at: Some(800), ..chess_game(&c, "c", Status::Active) };
        let id = create(&c, &new, 0).unwrap();
        assert_eq!(due_from(id), Some(800), "a new game's entry is its reminder's time");
        let m =
            MoveUpdate { uci: "e2e4", fen_after: "after", deadline: Some(2000), remind_at: Some(1800), outcome: None };
        assert!(apply_move(&c, id, 0, &m, 700, &mut no_end_hook).unwrap());
        assert_eq!(due_from(id), Some(800), "the move left the entry");
        assert_eq!(next_due(&c).unwrap(), Some(800), "no later than what is due");
        assert_eq!(ids(due_reminders(&c, 900, &["t"]).unwrap()), Vec::<GameId>::new(), "nothing is due at 900");
        assert_eq!(ids(due_timeouts(&c, 1500, &["t"]).unwrap()), Vec::<GameId>::new());
        assert_eq!(catch_up_due(&c, 799, &["t"]).unwrap(), 0, "the entry has not come due");
        assert!(due_behind(&c, 900, &["t"]).unwrap() && !due_behind(&c, 799, &["t"]).unwrap());
        assert_eq!(catch_up_due(&c, 900, &["t"]).unwrap(), 1);
        assert!(!due_behind(&c, 900, &["t"]).unwrap());
        assert_eq!(due_from(id), Some(1800));
        assert_eq!(catch_up_due(&c, 900, &["t"]).unwrap(), 0, "keyed once");
        assert_eq!(ids(due_reminders(&c, 1800, &["t"]).unwrap()), [id]);
        // A clock set earlier than the entry brings it forward.
        assert!(set_clock(&c, id, 1, Some(1300), Some(1200), 900).unwrap());
        assert_eq!(due_from(id), Some(1200));
        assert_eq!(ids(due_reminders(&c, 1200, &["t"]).unwrap()), [id]);
        assert_eq!(ids(due_timeouts(&c, 1300, &["t"]).unwrap()), [id]);
        // Paused: no times; the entry is keyed again to none, and nothing of the game comes due.
        assert_eq!(pause_in_chat(&c, "t", "c", 950).unwrap().len(), 1);
        assert_eq!(catch_up_due(&c, 1250, &["t"]).unwrap(), 1);
        assert_eq!(due_from(id), None);
        assert_eq!(ids(due_timeouts(&c, 5000, &["t"]).unwrap()), Vec::<GameId>::new());
        assert_eq!(next_due(&c).unwrap(), None);
    }

    /// A relocation game's setup phase runs on its clock: its reminder and deadline are found by
    /// the scheduler's queries as an active game's are (and its reminder is marked sent), the next
    /// side's clock is set while the setup lasts, and none once the game has started.
    fn a_game_in_its_setup_phase_comes_due_as_an_active_one_does(store: &Store) {
        let c = store.conn().unwrap();
        let new = NewGame { deadline: Some(1000), remind_at: Some(800), ..chess_game(&c, "w", Status::Setup) };
        let id = create(&c, &new, 0).unwrap();
        let ids = |rows: Vec<GameRow>| rows.into_iter().map(|g| g.id).collect::<Vec<_>>();
        assert_eq!(next_due(&c).unwrap(), Some(800));
        assert_eq!(ids(due_reminders(&c, 799, &["t"]).unwrap()), Vec::<GameId>::new());
        assert_eq!(ids(due_reminders(&c, 800, &["t"]).unwrap()), [id]);
        assert_eq!(due_reminder(&c, id, 800).unwrap().map(|g| g.id), Some(id));
        assert!(mark_reminded(&c, id, 0).unwrap());
        assert_eq!(ids(due_reminders(&c, 900, &["t"]).unwrap()), Vec::<GameId>::new());
        assert_eq!(ids(due_timeouts(&c, 999, &["t"]).unwrap()), Vec::<GameId>::new());
        assert_eq!(ids(due_timeouts(&c, 1000, &["t"]).unwrap()), [id]);
        assert_eq!(due_timeout(&c, id, 1000).unwrap().map(|g| g.setup_chooser()), Some(Some(Color::Black)));
        assert!(set_swap(&c, id, Color::Black, 0, None, 1000).unwrap());
        assert!(set_setup_clock(&c, id, Some(2000), Some(1800), 1000).unwrap());
        let row = get(&c, id).unwrap().unwrap();
        assert_eq!((row.deadline, row.remind_at, row.setup_chooser()), (Some(2000), Some(1800), Some(Color::White)));
        // The index's entry stays where it was until the scheduler keys it again (migration 39).
        assert_eq!(catch_up_due(&c, 1000, &["t"]).unwrap(), 1);
        assert_eq!(next_due(&c).unwrap(), Some(1800));
        assert!(start_after_setup(&c, id, 0, "start", None, None, 2000).unwrap());
        assert!(!set_setup_clock(&c, id, Some(3000), Some(2800), 2000).unwrap(), "the setup is over");
        assert_eq!(get(&c, id).unwrap().unwrap().setup_chooser(), None);
    }

    /// The page's one statement brings the game's stored analysis (none before one is stored, and
    /// another game's never).
    fn a_page_reads_its_games_stored_analysis_with_it(store: &Store) {
        let c = store.conn().unwrap();
        let ids: Vec<GameId> = (0..2).map(|i| create(&c, &chess_game(&c, "w", Status::Finished), i).unwrap()).collect();
        let page = |id| for_page(&c, &slug(&c, id).unwrap().unwrap()).unwrap().unwrap();
        assert_eq!(page(ids[0]).analysis, None);
        assert!(crate::store::analyses::put(&c, ids[0], 60_000_000_000, "evals of the first", 5).unwrap());
        assert_eq!(page(ids[0]).analysis, Some((60_000_000_000, "evals of the first".to_string())));
        assert_eq!(page(ids[1]).analysis, None);
    }

    /// A game's address is 16 bytes in the row (and its index) and 32 lowercase hexadecimal digits
    /// wherever it is read; the page, the live page and the game are found by those digits, and by no
    /// other text.
    fn a_web_address_is_kept_in_sixteen_bytes_and_shown_in_hexadecimal(store: &Store) {
        let c = store.conn().unwrap();
        let ids: Vec<GameId> = (0..3).map(|i| create(&c, &chess_game(&c, "w", Status::Active), i).unwrap()).collect();
        for &id in &ids {
            let shown = slug(&c, id).unwrap().unwrap();
            assert!(is_slug(&shown), "{shown}");
            assert_eq!(slug_key(&shown).map(|k| slug_text(&k)), Some(shown.clone()));
            let kept: i64 =
                c.query_row("SELECT length(web_slug) FROM games WHERE id = ?1", [id], |r| r.get(0)).unwrap();
            assert_eq!(kept, 16);
            assert_eq!(by_slug(&c, &shown).unwrap().map(|g| g.id), Some(id));
            assert_eq!(for_page(&c, &shown).unwrap().map(|p| p.row.id), Some(id));
            assert_eq!(to_follow(&c, &shown).unwrap().map(|f| f.id), Some(id));
            for other in [shown.to_uppercase(), shown[..31].to_string(), format!("{shown}0"), "g".repeat(32)] {
                assert_eq!(by_slug(&c, &other).unwrap(), None, "{other}");
                assert_eq!(for_page(&c, &other).unwrap(), None, "{other}");
                assert_eq!(to_follow(&c, &other).unwrap(), None, "{other}");
            }
        }
        let all = slugs(&c, &ids).unwrap();
        assert_eq!(all.len(), 3);
        assert!(ids.iter().all(|id| all.get(id) == slug(&c, *id).unwrap().as_ref()));
    }

    /// Every move of random games of every variant (launches, castling with missiles, promotions
    /// and detonations among them) reads back as it was written, alone and a game at once, in two
    /// bytes a ply and a byte more for a promotion or a missile.
    #[test]
    fn moves_in_coordinates_round_trip_in_about_two_bytes_a_ply() {
        let games = random_games(45, 6);
        let (mut seen, mut detonations) = ([0usize; 4], 0);
        let (mut plies, mut bytes) = (0, 0);
        for (variant, moves) in &games {
            for uci in moves {
                let one = encode_moves([uci.as_str()]).unwrap_or_else(|e| panic!("{variant} {uci}: {e}"));
                assert_eq!(decode_moves(&one), Some(vec![uci.clone()]), "{variant}");
                let extra =
                    usize::from(uci.ends_with(|c: char| c.is_ascii_lowercase())) + uci.matches(['[', ',']).count();
                assert_eq!(one.len(), 2 + extra, "{variant} {uci}");
                let kind = (one[0] >> 7) << 1 | one[1] >> 7;
                seen[usize::from(kind)] += 1;
                detonations += usize::from(*variant == "bomb" && one[0] == one[1]);
            }
            let all = encode_moves(moves.iter().map(String::as_str)).unwrap();
            assert_eq!(decode_moves(&all).as_ref(), Some(moves), "{variant}");
            (plies, bytes) = (plies + moves.len(), bytes + all.len());
        }
        assert!(seen[usize::from(LAUNCH)] > 10, "launches: {seen:?}");
        assert!(seen[usize::from(PROMOTION)] > 10, "promotions: {seen:?}");
        assert!(seen[usize::from(MISSILES)] > 0, "castling with missiles: {seen:?}");
        assert!(detonations > 0, "detonations: {seen:?}");
        assert!(bytes < plies * 21 / 10, "{bytes} bytes for {plies} plies");
        // The shapes `uci::write` writes, by hand: two-digit ranks, both missiles, a lone missile.
        for uci in ["a9a10", "j10a1", "e1^e5", "f2j2[e1,g1]", "e1j1[d1]", "b10b9[j10]", "e7e8q", "a2a1m", "e4e4"] {
            let bytes = encode_moves([uci]).unwrap();
            assert_eq!(decode_moves(&bytes), Some(vec![uci.to_string()]));
        }
        assert_eq!(encode_moves(["e2e4", "e7e5"]).unwrap(), [14, 34, 64, 44]);
    }

    /// A text `uci::write` does not write is refused, with the text named (never a panic), and
    /// bytes `encode_moves` cannot have written do not decode.
    #[test]
    fn other_texts_are_refused_and_other_bytes_do_not_decode() {
        for bad in [
            "",
            "x",
            "e2",
            "e2e4 ",
            " e2e4",
            "e2e4e5",
            "k1a1",
            "a0a1",
            "a11a1",
            "a01a1",
            "E2E4",
            "e2-e4",
            "e2^e4q",
            "e2e4^",
            "e1g1[]",
            "e1g1[e1,f1,g1]",
            "e1g1[e1",
            "e1g1[e1,]",
            "e7e8x",
            "e7e8qq",
            "e1^e5[d1]",
            "e2e4\0",
            "é2e4",
        ] {
            match encode_moves([bad]) {
                Err(crate::store::StoreError::Refused(why)) => assert!(why.contains(&format!("{bad:?}")), "{why}"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        for bad in [
            &[12][..],
            &[100, 28],
            &[12, 100],
            &[0x80 | 12, 28],
            &[0x80 | 12, 28, b'x'],
            &[0x80 | 12, 0x80 | 28],
            &[0x80 | 12, 0x80 | 28, 0x80 | 3],
            &[0x80 | 12, 0x80 | 28, 0x80 | 3, 0x80 | 5],
            &[0x80 | 12, 0x80 | 28, 101],
            &[12, 28, 52],
        ] {
            assert_eq!(decode_moves(bad), None, "{bad:?}");
        }
        assert_eq!(decode_moves(&[]), Some(vec![]));
    }

    /// Random games of every variant stored through the store: the `moves` view (which decodes the
    /// bytes in SQL) shows every ply as [`moves`] reads it.
    fn the_moves_view_reads_the_stored_bytes_as_the_store_does(store: &Store) {
        let c = store.conn().unwrap();
        let mut expected = Vec::new();
        for (i, (_, plies)) in random_games(7, 2).iter().enumerate() {
            let updates: Vec<MoveUpdate<'_>> = plies
                .iter()
                .map(|uci| MoveUpdate { uci, fen_after: "x", deadline: None, remind_at: None, outcome: None })
                .collect();
            let times: Vec<i64> = (0..plies.len() as i64).map(|t| 1_800_000_000 + t * 600).collect();
            let chat = format!("c{i}");
            let id =
                create_played(&c, &chess_game(&c, &chat, Status::Active), &updates, &times, &mut no_end_hook).unwrap();
            let read = moves(&c, id).unwrap();
            assert_eq!(read.iter().map(|m| &m.uci).collect::<Vec<_>>(), plies.iter().collect::<Vec<_>>());
            expected.extend(read.into_iter().map(|m| (id, i64::from(m.ply), m.uci)));
        }
        let view: Vec<(i64, i64, String)> = c
            .query_all("SELECT game_id, ply, uci FROM moves ORDER BY game_id, ply", (), |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .unwrap();
        assert!(expected.iter().any(|(.., u)| u.contains('[')) && expected.iter().any(|(.., u)| u.contains('^')));
        assert_eq!(view, expected);
    }

    /// A move the store cannot keep is refused before anything is written; stored bytes that do not
    /// decode make the game's moves `Corrupt`, as times that do not.
    fn stored_moves_that_do_not_decode_are_corrupt(store: &Store) {
        let c = store.conn().unwrap();
        let id = create(&c, &chess_game(&c, "c", Status::Active), 0).unwrap();
        let bad = MoveUpdate { uci: "e2e4 e7e5", fen_after: "x", deadline: None, remind_at: None, outcome: None };
        assert!(matches!(apply_move(&c, id, 0, &bad, 1, &mut no_end_hook), Err(crate::store::StoreError::Refused(_))));
        assert!(moves(&c, id).unwrap().is_empty());
        let good = MoveUpdate { uci: "e2e4", ..bad };
        assert!(apply_move(&c, id, 0, &good, 1, &mut no_end_hook).unwrap());
        c.execute("UPDATE game_moves SET moves = ?2 WHERE game_id = ?1", params![id, vec![12u8, 100]]).unwrap();
        match moves(&c, id) {
            Err(crate::store::StoreError::Corrupt(why)) => assert!(why.contains("moves do not decode"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    /// [`slugs`] answers what [`slug`] answers game by game, for lists longer than one statement's.
    fn many_addresses_are_read_at_once(store: &Store) {
        let c = store.conn().unwrap();
        let made: Vec<GameId> = (0..3).map(|i| create(&c, &chess_game(&c, "m", Status::Active), i).unwrap()).collect();
        let mut asked: Vec<GameId> = (1000..1070).collect();
        asked.extend(&made);
        asked.push(made[0]);
        let found = slugs(&c, &asked).unwrap();
        let one_by_one: HashMap<GameId, String> =
            asked.iter().filter_map(|&id| Some((id, slug(&c, id).unwrap()?))).collect();
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found, one_by_one);
    }

    /// A player's recent games in a community: both colours, newest change first, at most the
    /// limit, none of another community, none aborted; the community's the same way.
    fn a_players_recent_games_are_both_sides_newest_first(store: &Store) {
        let c = store.conn().unwrap();
        let x = players::ensure(&c, "t", "x", "X", 0).unwrap().id;
        let o = players::ensure(&c, "t", "o", "O", 0).unwrap().id;
        let mut made = Vec::new();
        for i in 0..6i64 {
            let (white, black) = if i % 2 == 0 { (x, o) } else { (o, x) };
            let community = if i == 5 { "other" } else { "club" };
            let g = NewGame { community_id: Some(community), white, black, ..chess_game(&c, "m", Status::Active) };
            made.push(create(&c, &g, 100 + i).unwrap());
        }
        let g = NewGame { community_id: Some("club"), white: x, black: o, ..chess_game(&c, "m", Status::Active) };
        let aborted = create(&c, &g, 200).unwrap();
        assert!(abort(&c, aborted, 0, 201).unwrap());
        let ids = |player: Option<PlayerId>, limit: usize| -> Vec<GameId> {
            recent_in_community(&c, "t", "club", player, limit).unwrap().iter().map(|r| r.id).collect()
        };
        assert_eq!(ids(Some(x), 3), vec![made[4], made[3], made[2]]);
        let club: Vec<GameId> = made[..5].iter().rev().copied().collect();
        assert_eq!(ids(Some(x), 10), club);
        assert_eq!(ids(None, 10), club);
        assert_eq!(ids(None, 2), club[..2].to_vec());
        // Finished games among those in play, by their last change: game 1 ends after everything
        // else, game 3 after game 4 was made, and game 2 moves in between.
        let resign = Outcome::Decisive { winner: Color::White, reason: WinReason::Resignation };
        assert!(finish(&c, made[1], 0, resign, 300, &mut no_end_hook).unwrap());
        assert!(finish(&c, made[3], 0, resign, 150, &mut no_end_hook).unwrap());
        let m = MoveUpdate { uci: "e2e4", fen_after: "after", deadline: None, remind_at: None, outcome: None };
        assert!(apply_move(&c, made[2], 0, &m, 250, &mut no_end_hook).unwrap());
        let club = vec![made[1], made[2], made[3], made[4], made[0]];
        assert_eq!(ids(None, 10), club);
        assert_eq!(ids(None, 3), club[..3].to_vec());
        assert_eq!(ids(Some(x), 10), club);
        assert_eq!(ids(Some(o), 2), club[..2].to_vec());
        assert_eq!(ids(Some(x), 4), club[..4].to_vec());
    }

    /// The recent games' lists read their indexes in order, a few rows each, not the whole
    /// community sorted (SQLite's plan; PostgreSQL plans by its statistics).
    #[test]
    fn the_recent_games_lists_read_their_indexes_in_order() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan_of =
            |filter: &str| crate::store::testing::sqlite_plan(&conn, &format!("SELECT id FROM games WHERE {filter}"));
        let plan = |player: bool| plan_of(&recent_over_filter(player));
        let community = plan(false);
        assert!(community.contains("INDEX games_community_done (platform=? AND community_id=?)"), "{community}");
        assert!(!community.contains("TEMP B-TREE"), "{community}");
        let open = plan_of(&recent_open_filter());
        assert!(open.contains("INDEX games_community_open (platform=? AND community_id=?)"), "{open}");
        let player = plan(true);
        for index in [
            "games_white_done (white_id=? AND platform=? AND community_id=?)",
            "games_black_done (black_id=? AND platform=? AND community_id=?)",
        ] {
            assert!(player.contains(&format!("INDEX {index}")), "{player}");
        }
        for plan in [community, open, player] {
            assert!(!plan.contains("SCAN games"), "{plan}");
        }
    }

    /// A move that does not end the game writes to SQLite's log the pages of what it changes: the
    /// game's row and its moves — not the indexes of open games, whose keys and condition it leaves
    /// as they were (when the statement named `status`, SQLite rewrote an entry in each of the four:
    /// eleven pages), nor the index of what is due, whose key (`due_from`, migration 39) a move that
    /// puts the reminder and deadline later leaves (before, its entry moved: three pages). Counted
    /// by the frames of the move's one commit.
    #[test]
    fn a_move_writes_the_pages_of_what_it_changes_and_no_others() {
        let (_dir, raw) = crate::store::testing::sqlite_schema();
        let c = Connection::Sqlite(raw);
        let mut ng = chess_game(&c, "c", Status::Active);
        ng.community_id = Some("club");
        (ng.deadline, ng.remind_at) = (Some(1_000), Some(500));
        let id = create(&c, &ng, 0).unwrap();
        let write_pages = |ply: u32, deadline: i64| -> i64 {
            let m = MoveUpdate {
                uci: "e2e4",
                fen_after: "after",
                deadline: Some(deadline),
                remind_at: Some(deadline - 100),
                outcome: None,
            };
            crate::store::testing::log_pages(&c, || {
                assert!(apply_move(&c, id, ply, &m, 10 + ply as i64, &mut no_end_hook).unwrap());
            })
        };
        write_pages(0, 2_000);
        let pages = write_pages(1, 3_000);
        assert!(pages <= 2, "a move wrote {pages} pages");
        // Each frame of the log is a whole page and its 24-byte header: with the store's small
        // pages the move's commit stays within 4 KiB (with SQLite's default pages, 12 KiB).
        let page_size: i64 = c.as_sqlite().unwrap().query_row("PRAGMA page_size", (), |r| r.get(0)).unwrap();
        let bytes = pages * (page_size + 24);
        assert!(bytes <= 4096, "a move wrote {bytes} bytes of log ({pages} pages of {page_size} bytes)");
        let open: i64 = c
            .as_sqlite()
            .unwrap()
            .query_row(
                "SELECT count(*) FROM games WHERE white_id = ?1 AND status IN ('setup', 'active')",
                [ng.white],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(open, 1, "still listed among the open games");
    }

    /// The open games of a chat, a player or a community are read from the partial indexes of open
    /// games (migration 20: a finished game has no entry there, and its end removes the open one),
    /// and the latest game in a chat from `games_chat` in id order, not sorted.
    #[test]
    fn open_games_are_read_from_indexes_of_open_games_alone() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan =
            |filter: &str| crate::store::testing::sqlite_plan(&conn, &format!("SELECT id FROM games WHERE {filter}"));
        let of_player = open_of_player_filter();
        let open_in_chat = "platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active') AND (white_id = ?3 OR black_id = ?3) ORDER BY id";
        for (filter, index) in [
            (open_in_chat, "games_chat_open (platform=? AND chat_id=?)"),
            (
                "platform = ?1 AND chat_id = ?2 AND status IN ('setup', 'active') AND status = 'active' ORDER BY id",
                "games_chat_open (platform=? AND chat_id=?)",
            ),
            (
                "status IN ('setup', 'active') AND paused = 0 AND platform = ?1 AND community_id = ?2",
                "games_community_open (platform=? AND community_id=?)",
            ),
            (of_player.as_str(), "games_white_open (white_id=?)"),
            (of_player.as_str(), "games_black_open (black_id=?)"),
        ] {
            let plan = plan(filter);
            assert!(plan.contains(&format!("USING INDEX {index}")), "{filter}: {plan}");
        }
        let latest =
            plan("platform = ?1 AND chat_id = ?2 AND (white_id = ?3 OR black_id = ?3) ORDER BY id DESC LIMIT 1");
        assert!(
            latest.contains("USING INDEX games_chat (platform=? AND chat_id=?)") && !latest.contains("TEMP B-TREE"),
            "{latest}"
        );
        // A game's rating history by the game (its uniqueness, migration 20).
        let history = crate::store::testing::sqlite_plan(&conn, "SELECT id FROM rating_history WHERE game_id = ?1");
        assert!(history.contains("USING COVERING INDEX rating_history_game (game_id=?)"), "{history}");
        // The AI's games to restart: the platform's open games, not all its games.
        let ai = plan(
            "platform = ?2 AND status IN ('setup', 'active') AND status = 'active' AND ai_level IS NOT NULL AND ((white_id = ?1 AND ply % 2 = 0) OR (black_id = ?1 AND ply % 2 = 1))",
        );
        assert!(ai.contains("_open") || ai.contains("games_due"), "{ai}");
    }

    /// The scheduler finds a platform's due timeouts and reminders in the one index of what each
    /// active game has next due (migration 25), reading only its due entries, in their order.
    #[test]
    fn due_timeouts_and_reminders_are_read_from_the_index_of_what_is_due_next() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        for column in ["deadline", "remind_at"] {
            let filter = due_filter(Dialect::Sqlite, column);
            let plan = crate::store::testing::sqlite_plan(&conn, &format!("SELECT id FROM games WHERE {filter}"));
            assert!(plan.contains("USING INDEX games_due (platform=? AND due_from<?)"), "{column}: {plan}");
            assert!(!plan.contains("TEMP B-TREE") && !plan.contains("SCAN games"), "{column}: {plan}");
        }
    }

    /// A page's addresses are read by primary key, in one statement for many games.
    #[test]
    fn the_addresses_of_many_games_are_read_by_primary_key() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = crate::store::testing::sqlite_plan(&conn, &slugs_sql("?1, ?2, ?3, ?4"));
        assert!(plan.contains("USING INTEGER PRIMARY KEY") && !plan.contains("SCAN games"), "{plan}");
    }

    /// A game's page and a live page's look are read by the address's index and primary keys:
    /// every table searched, none scanned (the ratings by their key, computed from the game's row).
    #[test]
    fn a_games_page_is_read_by_its_address_and_primary_keys() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = crate::store::testing::sqlite_plan(&conn, &for_page_sql());
        assert!(plan.contains("SEARCH g USING INDEX games_web_slug") && !plan.contains("SCAN"), "{plan}");
        for table in ["s", "m", "pw", "pb"] {
            assert!(plan.contains(&format!("SEARCH {table} USING")), "{table}: {plan}");
        }
        // Each rating by an index on all three of its key's columns.
        for table in ["rw", "rb"] {
            let step = plan.split("; ").find(|s| s.starts_with(&format!("SEARCH {table} "))).unwrap_or_default();
            assert!(["player_id=?", "scope=?", "variant=?"].iter().all(|c| step.contains(c)), "{table}: {plan}");
        }
    }

    /// A chess game of platform `t` in `chat` between players `a` and `b` (made when new), from "start".
    fn chess_game<'a>(c: &Connection, chat: &'a str, status: Status) -> NewGame<'a> {
        let a = players::ensure(c, "t", "a", "A", 0).unwrap().id;
        let b = players::ensure(c, "t", "b", "B", 0).unwrap().id;
        NewGame {
            platform: "t",
            community_id: None,
            rated: false,
            chat_id: chat,
            variant: "chess",
            setup: None,
            start_fen: "start",
            white: a,
            black: b,
            ai_level: None,
            days_per_move: None,
            status,
            deadline: None,
            remind_at: None,
            interaction_only: false,
        }
    }

    /// `create_played` leaves the rows that `create` and `apply_move` leave, for a game still
    /// going and for one its last move ends (the end hook run once, inside).
    fn a_game_stored_played_is_the_game_played_move_by_move(store: &Store) {
        let c = store.conn().unwrap();
        let mate = [("f2f3", "f1"), ("e7e5", "f2"), ("g2g4", "f3"), ("d8h4", "f4")];
        for ends in [false, true] {
            let plies = if ends { 4 } else { 3 };
            let updates: Vec<MoveUpdate<'_>> = mate[..plies]
                .iter()
                .enumerate()
                .map(|(i, (uci, fen))| MoveUpdate {
                    uci,
                    fen_after: fen,
                    deadline: Some(1000 + i as i64),
                    remind_at: Some(900 + i as i64),
                    outcome: (ends && i == 3).then_some(Outcome::Decisive {
                        winner: crate::rules::Color::Black,
                        reason: crate::rules::WinReason::Checkmate,
                    }),
                })
                .collect();
            let times: Vec<i64> = (0..plies as i64).map(|i| 10 + i).collect();
            let mut hooked = Vec::new();
            let by_move = create(&c, &chess_game(&c, "m", Status::Active), 10).unwrap();
            for (i, m) in updates.iter().enumerate() {
                let mut hook = |_: &Connection, row: &GameRow| {
                    hooked.push(row.status);
                    Ok(())
                };
                assert!(apply_move(&c, by_move, i as u32, m, times[i], &mut hook).unwrap());
            }
            let mut hook = |_: &Connection, row: &GameRow| {
                hooked.push(row.status);
                Ok(())
            };
            let played = create_played(&c, &chess_game(&c, "p", Status::Active), &updates, &times, &mut hook).unwrap();
            let expected_hooks = if ends { vec![Status::Finished; 2] } else { vec![] };
            assert_eq!(hooked, expected_hooks, "the end hook ran once each way");
            let (a, b) = (get(&c, by_move).unwrap().unwrap(), get(&c, played).unwrap().unwrap());
            assert_eq!(GameRow { id: 0, chat_id: String::new(), ..a }, GameRow { id: 0, chat_id: String::new(), ..b });
            assert_eq!(moves(&c, by_move).unwrap(), moves(&c, played).unwrap());
            assert_eq!(b.ply as usize, plies);
        }
    }

    /// On PostgreSQL an input's first statement (its event's claim) also reads the author's open
    /// games in the chat with their moves, and a move's statement both players with their
    /// accounts: a move's lookups of its game, its moves and its players then reach the database
    /// no more (each was a statement, a round trip). What they answer is what reading gives, on
    /// either backend (on SQLite the claim reads nothing: `None`).
    fn a_moves_unit_reads_its_games_and_players_with_its_first_statement_and_its_move(store: &Store) {
        use crate::store::sql::statements_sent;
        let c = store.conn().unwrap();
        let ng = chess_game(&c, "c", Status::Active);
        let (a, b) = (ng.white, ng.black);
        players::link(&c, b, "t", "b-alt").unwrap();
        let here = create(&c, &ng, 0).unwrap();
        let m = MoveUpdate { uci: "e2e4", fen_after: "after", deadline: None, remind_at: None, outcome: None };
        assert!(apply_move(&c, here, 0, &m, 1, &mut no_end_hook).unwrap());
        create(&c, &chess_game(&c, "elsewhere", Status::Active), 0).unwrap();
        let mut done = chess_game(&c, "c", Status::Active);
        done.status = Status::Finished;
        create(&c, &done, 0).unwrap();
        drop(c);
        let postgres = store.dialect() == Dialect::Postgres;
        store
            .unit(|| {
                let c = store.conn()?;
                let sent = statements_sent();
                let claimed = crate::store::settings::claim_prefetching_input(&c, "t", "e1", 5, None, "c", "b")?;
                assert_eq!(claimed, postgres.then_some(true), "claimed on PostgreSQL only");
                assert_eq!(statements_sent() - sent, u64::from(postgres), "the claim");
                let sent = statements_sent();
                let open = open_in_chat(&c, "t", "c", b)?;
                assert_eq!(open.iter().map(|g| g.id).collect::<Vec<_>>(), vec![here], "the open game here");
                assert_eq!(moves(&c, here)?.iter().map(|m| m.uci.as_str()).collect::<Vec<_>>(), vec!["e2e4"]);
                assert_eq!(statements_sent() - sent, u64::from(!postgres), "the games with their moves");
                let m = MoveUpdate { uci: "e7e5", fen_after: "after2", deadline: None, remind_at: None, outcome: None };
                assert!(apply_move(&c, here, 1, &m, 2, &mut no_end_hook)?);
                let moved = statements_sent();
                players::read_pair(&c, "t", a, b)?;
                assert_eq!(players::get(&c, b)?.map(|p| p.name), Some("B".to_string()));
                assert_eq!(players::accounts_on(&c, b, "t")?, vec!["b".to_string(), "b-alt".to_string()]);
                assert_eq!(players::accounts_on(&c, a, "t")?, vec!["a".to_string()]);
                assert_eq!(statements_sent() - moved, u64::from(!postgres), "the players");
                Ok(())
            })
            .unwrap();
    }

    /// A game's end in a unit of work on PostgreSQL is one statement, which also clears the game's
    /// offers and reads what its end hook and answers look up next: the game, the ladder challenge
    /// and tournament board it is played for, both players with their accounts. Those lookups then
    /// reach the database no more (each was a round trip), and answer what reading gives, on either
    /// backend.
    fn a_games_end_reads_what_its_hook_looks_up_with_its_statement(store: &Store) {
        use crate::store::sql::statements_sent;
        use crate::store::{ladders, offers, tournaments};
        let c = store.conn().unwrap();
        let ng = chess_game(&c, "c", Status::Active);
        let (a, b) = (ng.white, ng.black);
        players::link(&c, b, "t", "b-alt").unwrap();
        let id = create(&c, &ng, 0).unwrap();
        offers::put(&c, id, offers::OfferKind::Draw, a, 0, 1).unwrap();
        let resign = Outcome::Decisive { winner: Color::White, reason: WinReason::Resignation };
        // Another game's end first: its statements prepared.
        let other = create(&c, &chess_game(&c, "c", Status::Active), 0).unwrap();
        assert!(finish(&c, other, 0, resign, 2, &mut no_end_hook).unwrap());
        drop(c);
        let postgres = store.dialect() == Dialect::Postgres;
        let hooked = std::cell::Cell::new(false);
        store
            .unit(|| {
                let c = store.conn()?;
                let sent = statements_sent();
                let mut hook = |c: &Connection, row: &GameRow| {
                    let looked = statements_sent();
                    assert_eq!(ladders::find_by_game(c, row.id)?, None);
                    assert_eq!(tournaments::find_by_game(c, row.id)?, None);
                    players::read_pair(c, &row.platform, row.white, row.black)?;
                    assert_eq!(players::get(c, b)?.map(|p| p.name), Some("B".to_string()));
                    assert_eq!(players::accounts_on(c, b, "t")?, vec!["b".to_string(), "b-alt".to_string()]);
                    assert_eq!(get(c, row.id)?.map(|g| g.status), Some(Status::Finished));
                    let lookups = if postgres { 0 } else { 2 };
                    assert_eq!(statements_sent() - looked, lookups, "the hook's lookups");
                    hooked.set(true);
                    Ok(())
                };
                // As the scheduler's batches run their items: no savepoint of its own (a round trip
                // to open it, one to release it).
                let (ended, clean) = crate::store::without_savepoints(|| finish(&c, id, 0, resign, 2, &mut hook));
                assert!(ended? && clean && hooked.get());
                if postgres {
                    assert_eq!(statements_sent() - sent, 1, "the game's end with its hook's lookups");
                }
                assert_eq!(offers::get(&c, id, offers::OfferKind::Draw)?, None, "the offer cleared");
                assert_eq!(players::get(&c, a)?.map(|p| p.name), Some("A".to_string()));
                // The ratings' statement names a column `games`: it writes no game, and the game
                // read with its end is not read again.
                let scope = crate::store::ratings::Scope::Global;
                crate::store::ratings::rate_in(
                    &c,
                    &[&scope],
                    "chess",
                    Some(id),
                    a,
                    b,
                    crate::community::rating::Score::Win,
                    2,
                )?;
                let rated = statements_sent();
                assert_eq!(get(&c, id)?.map(|g| g.status), Some(Status::Finished));
                assert_eq!(statements_sent() - rated, 0, "the game, kept");
                Ok(())
            })
            .unwrap();
        let c = store.conn().unwrap();
        assert_eq!(offers::get(&c, id, offers::OfferKind::Draw).unwrap(), None);
        assert_eq!(get(&c, id).unwrap().map(|g| g.status), Some(Status::Finished));
    }

    /// A timed-out or reminded game is taken with the settings in force in its chat on
    /// PostgreSQL (its community's too, where it has one), kept as `settings::effective`'s answer:
    /// the item's look at them sends nothing more, and answers what reading them gives, on either
    /// backend.
    fn a_due_game_is_taken_with_its_chats_settings(store: &Store) {
        use crate::store::settings::{self, Settings};
        use crate::store::sql::statements_sent;
        let c = store.conn().unwrap();
        let own = Settings { prefix: Some("?".into()), theme: Some("green".into()), ..Settings::default() };
        let parent = Settings { lang: Some("tr".into()), prefix: Some("$".into()), ..Settings::default() };
        settings::set_chat(&c, "t", Some("club"), "c", &own).unwrap();
        settings::set_community(&c, "t", "club", &parent).unwrap();
        let mut in_club = chess_game(&c, "c", Status::Active);
        in_club.community_id = Some("club");
        in_club.deadline = Some(10);
        let mut alone = chess_game(&c, "d", Status::Active);
        alone.deadline = Some(10);
        alone.remind_at = Some(5);
        let (club_game, lone_game) = (create(&c, &in_club, 0).unwrap(), create(&c, &alone, 0).unwrap());
        let read = |community| settings::effective(&c, "t", community, if community.is_some() { "c" } else { "d" });
        let expected = (read(Some("club")).unwrap(), read(None).unwrap());
        assert_eq!(expected.0.lang.as_deref(), Some("tr"), "the community's level under the chat's");
        assert_eq!(expected.0.prefix.as_deref(), Some("?"));
        // Each statement prepared once before the measures.
        store
            .unit(|| {
                let c = store.conn()?;
                Ok(due_timeout(&c, club_game, 20)?.map(|g| g.id))
            })
            .unwrap();
        drop(c);
        let postgres = store.dialect() == Dialect::Postgres;
        for (id, community, due) in [(club_game, Some("club"), "timeout"), (lone_game, None, "reminder")] {
            store
                .unit(|| {
                    let c = store.conn()?;
                    let row = if due == "timeout" { due_timeout(&c, id, 20)? } else { due_reminder(&c, id, 20)? };
                    assert_eq!(row.map(|g| g.id), Some(id));
                    let taken = statements_sent();
                    let (chat, expected) = if community.is_some() { ("c", &expected.0) } else { ("d", &expected.1) };
                    assert_eq!(&settings::effective(&c, "t", community, chat)?, expected);
                    assert_eq!(statements_sent() - taken, u64::from(!postgres), "the settings, kept on PostgreSQL");
                    Ok(())
                })
                .unwrap();
        }
    }

    fn ply_guard_lets_one_move_land(store: &Store) {
        let c = store.conn().unwrap();
        let fen = "start";
        let ng = chess_game(&c, "c", Status::Active);
        let id = create(&c, &ng, 0).unwrap();
        let m = MoveUpdate { uci: "e2e4", fen_after: "after", deadline: None, remind_at: None, outcome: None };
        assert!(apply_move(&c, id, 0, &m, 1, &mut no_end_hook).unwrap());
        assert!(!apply_move(&c, id, 0, &m, 1, &mut no_end_hook).unwrap());
        let g = get(&c, id).unwrap().unwrap();
        assert_eq!((g.ply, g.fen.as_str()), (1, "after"));
        assert_eq!(moves(&c, id).unwrap().len(), 1);
        assert!(take_back(&c, id, 1, 0, fen, None, None, 2).unwrap());
        assert!(moves(&c, id).unwrap().is_empty());
    }

    fn a_failing_end_hook_leaves_neither_result_nor_consequence(store: &Store) {
        let c = store.conn().unwrap();
        let ng = chess_game(&c, "c", Status::Active);
        let a = ng.white;
        let id = create(&c, &ng, 0).unwrap();
        let resign = Outcome::Decisive { winner: Color::White, reason: WinReason::Resignation };
        let mut failing = |conn: &Connection, row: &GameRow| {
            assert_eq!(row.status, Status::Finished, "the hook sees the stored result");
            conn.execute("UPDATE players SET name = 'changed' WHERE id = ?1", [a])?;
            Err(crate::store::StoreError::Corrupt("hook failed".into()))
        };
        assert!(finish(&c, id, 0, resign, 1, &mut failing).is_err());
        assert_eq!(get(&c, id).unwrap().unwrap().status, Status::Active);
        assert_eq!(players::get(&c, a).unwrap().unwrap().name, "A");
        let mut seen = 0;
        let mut ok = |_: &Connection, _: &GameRow| {
            seen += 1;
            Ok(())
        };
        assert!(finish(&c, id, 0, resign, 1, &mut ok).unwrap());
        assert_eq!(seen, 1);
        assert_eq!(get(&c, id).unwrap().unwrap().result.as_deref(), Some("1-0"));
    }

    fn a_replaced_chat_takes_its_open_games_along(store: &Store) {
        let c = store.conn().unwrap();
        let game =
            |chat: &'static str, status: Status| NewGame { community_id: Some("old"), ..chess_game(&c, chat, status) };
        let paused = create(&c, &game("old", Status::Active), 0).unwrap();
        pause_in_chat(&c, "t", "old", 1).unwrap();
        let open = create(&c, &game("old", Status::Active), 0).unwrap();
        let over = create(&c, &game("old", Status::Finished), 0).unwrap();
        let elsewhere = create(&c, &game("other", Status::Active), 0).unwrap();
        set_thread(&c, open, "thread").unwrap();
        let moved: Vec<GameId> = move_chat(&c, "t", "old", "new", 2).unwrap().iter().map(|g| g.id).collect();
        assert_eq!(moved, [paused, open]);
        for id in [paused, open] {
            let g = get(&c, id).unwrap().unwrap();
            assert_eq!((g.chat_id.as_str(), g.thread_id, g.paused), ("new", None, false));
            assert_eq!(g.community_id.as_deref(), Some("old"), "the community stays");
        }
        assert_eq!(get(&c, over).unwrap().unwrap().chat_id, "old", "a finished game stays where it was played");
        assert_eq!(get(&c, elsewhere).unwrap().unwrap().chat_id, "other");
        assert!(move_chat(&c, "t", "old", "new", 3).unwrap().is_empty(), "nothing moves twice");
    }

    #[test]
    fn outcomes_round_trip() {
        for o in [
            Outcome::Decisive { winner: Color::Black, reason: WinReason::Timeout },
            Outcome::Draw(DrawReason::TimeoutVsInsufficientMaterial),
            Outcome::Decisive { winner: Color::White, reason: WinReason::KingExploded },
            Outcome::Decisive { winner: Color::Black, reason: WinReason::NoMaterial },
            Outcome::Draw(DrawReason::BothKingsExploded),
        ] {
            let (r, t) = outcome_to_db(o);
            assert_eq!(outcome_from_db(r, t), Some(o));
        }
    }
}

//! Computer analyses of finished games: one per game, stored when it is made and shown again from
//! here. The evaluations are kept as text (see `ai::analysis::Analysis::encode`); the judgements
//! are derived from them and the game's moves each time.

use super::Result;
use crate::store::sql::{Connection, OptionalExtension, params};

/// A stored analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored {
    pub game_id: i64,
    /// Nodes searched per position.
    pub nodes: u64,
    pub evals: String,
    pub created_at: i64,
}

/// The analysis of a game, if one was made.
pub fn get(conn: &Connection, game_id: i64) -> Result<Option<Stored>> {
    Ok(conn
        .prepare_cached("SELECT nodes, evals, created_at FROM analyses WHERE game_id = ?1")?
        .query_row([game_id], |r| {
            Ok(Stored { game_id, nodes: r.get::<i64>(0)?.max(0) as u64, evals: r.get(1)?, created_at: r.get(2)? })
        })
        .optional()?)
}

/// Stores a game's analysis; a game analysed already keeps its first one (two people may ask at
/// once). Returns whether this one was stored.
pub fn put(conn: &Connection, game_id: i64, nodes: u64, evals: &str, now: i64) -> Result<bool> {
    let n = conn.execute(
        "INSERT INTO analyses (game_id, nodes, evals, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (game_id) DO NOTHING",
        params![game_id, nodes.min(i64::MAX as u64) as i64, evals, now],
    )?;
    Ok(n == 1)
}

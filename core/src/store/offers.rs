//! Pending draw offers and takeback requests: at most one of each kind per game, cleared by the
//! next move (see [`super::games::apply_move`]) or, for a takeback request, when it is declined.

use super::Result;
use super::players::PlayerId;
use crate::store::sql::{Connection, OptionalExtension, params};

/// What is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Draw,
    Takeback,
}

impl OfferKind {
    fn as_str(self) -> &'static str {
        match self {
            OfferKind::Draw => "draw",
            OfferKind::Takeback => "takeback",
        }
    }
}

/// A pending offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by_player: PlayerId,
    /// The ply at which it was made.
    pub ply: u32,
}

/// The pending offer of one kind in a game.
pub fn get(conn: &Connection, game: i64, kind: OfferKind) -> Result<Option<Offer>> {
    Ok(conn
        .prepare_cached("SELECT by_player, ply FROM offers WHERE game_id = ?1 AND kind = ?2")?
        .query_row(params![game, kind.as_str()], |r| Ok(Offer { kind, by_player: r.get(0)?, ply: r.get(1)? }))
        .optional()?)
}

/// Records an offer (replacing an older one of the same kind).
pub fn put(conn: &Connection, game: i64, kind: OfferKind, by: PlayerId, ply: u32, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO offers (game_id, kind, by_player, ply, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (game_id, kind) DO UPDATE SET by_player = excluded.by_player, ply = excluded.ply,
           created_at = excluded.created_at",
        params![game, kind.as_str(), by, ply, now],
    )?;
    Ok(())
}

/// Removes the offer of one kind made by `by` (a declined offer); whether there was one.
pub fn remove(conn: &Connection, game: i64, kind: OfferKind, by: PlayerId) -> Result<bool> {
    let n = conn.execute(
        "DELETE FROM offers WHERE game_id = ?1 AND kind = ?2 AND by_player = ?3",
        params![game, kind.as_str(), by],
    )?;
    Ok(n == 1)
}

/// Removes every offer in a game.
pub fn clear(conn: &Connection, game: i64) -> Result<()> {
    conn.prepare_cached("DELETE FROM offers WHERE game_id = ?1")?.execute([game])?;
    Ok(())
}

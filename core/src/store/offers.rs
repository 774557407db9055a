//! Draw offers and takeback requests: at most one of each kind per game, pending or declined,
//! cleared by the next move (see [`super::games::apply_move`]).

use super::Result;
use super::players::PlayerId;
use crate::store::sql::{Connection, Dialect, OptionalExtension, params};

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

/// An offer made since the last move: pending, or declined (its maker waits for the next move
/// before making it again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by_player: PlayerId,
    /// The ply at which it was made.
    pub ply: u32,
    /// Declined by the other player: no longer pending.
    pub declined: bool,
}

impl Offer {
    /// Pending, and made by `player`.
    pub fn pending_by(&self, player: PlayerId) -> bool {
        !self.declined && self.by_player == player
    }
}

/// The offer of one kind made in a game since its last move, pending or declined.
pub fn get(conn: &Connection, game: i64, kind: OfferKind) -> Result<Option<Offer>> {
    Ok(conn
        .prepare_cached("SELECT by_player, ply, declined_at IS NOT NULL FROM offers WHERE game_id = ?1 AND kind = ?2")?
        .query_row(params![game, kind.as_str()], |r| {
            Ok(Offer { kind, by_player: r.get(0)?, ply: r.get(1)?, declined: r.get(2)? })
        })
        .optional()?)
}

/// Records a pending offer (replacing an older one of the same kind, declined or not).
pub fn put(conn: &Connection, game: i64, kind: OfferKind, by: PlayerId, ply: u32, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO offers (game_id, kind, by_player, ply, created_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (game_id, kind) DO UPDATE SET by_player = excluded.by_player, ply = excluded.ply,
           created_at = excluded.created_at, declined_at = NULL",
        params![game, kind.as_str(), by, ply, now],
    )?;
    Ok(())
}

/// Declines the pending offer of one kind made by `by`; whether there was one. It stays, declined,
/// until the next move clears the game's offers.
pub fn decline(conn: &Connection, game: i64, kind: OfferKind, by: PlayerId, now: i64) -> Result<bool> {
    let n = conn.execute(
        "UPDATE offers SET declined_at = ?4 WHERE game_id = ?1 AND kind = ?2 AND by_player = ?3 AND declined_at IS NULL",
        params![game, kind.as_str(), by, now],
    )?;
    Ok(n == 1)
}

/// Removes every offer in a game. On SQLite they are looked for first: a `DELETE` that may remove
/// several rows collects their keys in a temporary b-tree first (made and dropped with a page
/// cache of its own) even when it finds none, and most moves and games' ends clear no offer
/// (`docs/scale.md`, "The tick's own costs").
pub fn clear(conn: &Connection, game: i64) -> Result<()> {
    if conn.dialect() == Dialect::Sqlite && !conn.prepare_cached(ANY_OFFER)?.exists([game])? {
        return Ok(());
    }
    conn.prepare_cached("DELETE FROM offers WHERE game_id = ?1")?.execute([game])?;
    Ok(())
}

/// Whether a game has an offer ([`clear`], on SQLite).
pub(crate) const ANY_OFFER: &str = "SELECT 1 FROM offers WHERE game_id = ?1";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, ladders::test_game, players};

    on_both_backends!(a_declined_offer_stays_declined_until_the_next_move);

    /// Declining keeps the offer, declined, once; the other side's offer replaces it, pending;
    /// the next move clears both kinds.
    fn a_declined_offer_stays_declined_until_the_next_move(store: &Store) {
        let c = store.conn().unwrap();
        let alice = players::ensure(&c, "discord", "1", "alice", 10).unwrap().id;
        let bob = players::ensure(&c, "discord", "2", "bob", 10).unwrap().id;
        let game = test_game(&c, alice, bob);
        put(&c, game, OfferKind::Draw, alice, 3, 100).unwrap();
        let pending = Offer { kind: OfferKind::Draw, by_player: alice, ply: 3, declined: false };
        assert_eq!(get(&c, game, OfferKind::Draw).unwrap(), Some(pending.clone()));
        assert!(pending.pending_by(alice) && !pending.pending_by(bob));
        assert!(!decline(&c, game, OfferKind::Draw, bob, 101).unwrap(), "only the maker's offer is declined");
        assert!(decline(&c, game, OfferKind::Draw, alice, 101).unwrap());
        assert!(!decline(&c, game, OfferKind::Draw, alice, 102).unwrap(), "declined once");
        let declined = get(&c, game, OfferKind::Draw).unwrap().unwrap();
        assert!(declined.declined && !declined.pending_by(alice));
        put(&c, game, OfferKind::Draw, bob, 3, 103).unwrap();
        let bobs = Offer { kind: OfferKind::Draw, by_player: bob, ply: 3, declined: false };
        assert_eq!(get(&c, game, OfferKind::Draw).unwrap(), Some(bobs));
        put(&c, game, OfferKind::Takeback, alice, 3, 104).unwrap();
        clear(&c, game).unwrap();
        assert_eq!(get(&c, game, OfferKind::Draw).unwrap(), None);
        assert_eq!(get(&c, game, OfferKind::Takeback).unwrap(), None);
    }
}

//! Platform events already handled, and the messages the bot may replace later.
//!
//! Gateways and homeservers redeliver events after a reconnect: an event id is claimed once, and a
//! second claim of the same id fails, so the event is answered once.

use super::Result;
use crate::store::sql::{Connection, OptionalExtension, params};

/// How long handled event ids are kept (platforms redeliver within minutes; a week is ample).
pub const KEEP_EVENTS_SECS: i64 = 7 * 86_400;

/// Claims an event id; `false` when it was handled before.
pub fn claim(conn: &Connection, platform: &str, event_id: &str, now: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "INSERT INTO processed_events (platform, event_id, handled_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        )?
        .execute(params![platform, event_id, now])?;
    Ok(n == 1)
}

/// Forgets event ids older than [`KEEP_EVENTS_SECS`].
pub fn prune(conn: &Connection, now: i64) -> Result<usize> {
    Ok(conn.execute("DELETE FROM processed_events WHERE handled_at < ?1", [now - KEEP_EVENTS_SECS])?)
}

/// The platform message id held under a slot key.
pub fn slot(conn: &Connection, platform: &str, key: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT message_id FROM reply_slots WHERE platform = ?1 AND slot_key = ?2")?
        .query_row(params![platform, key], |r| r.get(0))
        .optional()?)
}

/// Remembers the message now held under a slot key.
pub fn set_slot(conn: &Connection, platform: &str, key: &str, message_id: &str, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO reply_slots (platform, slot_key, message_id, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (platform, slot_key) DO UPDATE SET message_id = excluded.message_id, updated_at = excluded.updated_at",
        params![platform, key, message_id, now],
    )?;
    Ok(())
}

/// Forgets a slot (its message is not to be replaced any more).
pub fn clear_slot(conn: &Connection, platform: &str, key: &str) -> Result<()> {
    conn.execute("DELETE FROM reply_slots WHERE platform = ?1 AND slot_key = ?2", params![platform, key])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::testing::on_both_backends;

    on_both_backends!(an_event_is_claimed_once_and_slots_keep_the_latest_message);

    fn an_event_is_claimed_once_and_slots_keep_the_latest_message(store: &Store) {
        let c = store.conn().unwrap();
        assert!(claim(&c, "discord", "ev1", 100).unwrap());
        assert!(!claim(&c, "discord", "ev1", 101).unwrap());
        assert!(claim(&c, "matrix", "ev1", 101).unwrap(), "ids are per platform");
        assert_eq!(prune(&c, 100 + KEEP_EVENTS_SECS + 1).unwrap(), 1);
        assert!(claim(&c, "discord", "ev1", 100 + KEEP_EVENTS_SECS + 2).unwrap());
        assert_eq!(slot(&c, "discord", "k").unwrap(), None);
        set_slot(&c, "discord", "k", "m1", 1).unwrap();
        set_slot(&c, "discord", "k", "m2", 2).unwrap();
        assert_eq!(slot(&c, "discord", "k").unwrap().as_deref(), Some("m2"));
        clear_slot(&c, "discord", "k").unwrap();
        assert_eq!(slot(&c, "discord", "k").unwrap(), None);
    }
}

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

/// Claims one [`prune`] looks at: each tick's housekeeping sweeps this many in key order from where
/// the last one stopped (a few milliseconds), so the claims of a week of up to fourteen million
/// events a day are all looked at within a day, with no index by age for every claim to write.
pub const PRUNE_SWEEP: usize = 5_000;

/// Where a sweep of the claims stopped: the last key it looked at (`None`: at the start).
pub type SweptTo = Option<(String, String)>;

/// The claims' sweep's row in `sweeps`, where its place is kept across restarts and shared by every
/// process on the database (migration 32).
const CLAIMS_SWEEP: &str = "claims";

/// Forgets the event ids older than [`KEEP_EVENTS_SECS`] among the next [`PRUNE_SWEEP`] claims in key
/// order after where the last sweep stopped, and keeps where this one stopped (after the last claim the
/// next sweep starts again from the first); returns how many it forgot. Run inside a unit of work: the
/// place is read and written with the claims it names.
pub fn prune(conn: &Connection, now: i64) -> Result<usize> {
    prune_kept(conn, now, PRUNE_SWEEP)
}

/// [`prune`], looking at `sweep` claims.
fn prune_kept(conn: &Connection, now: i64, sweep: usize) -> Result<usize> {
    let after: SweptTo = conn
        .prepare_cached("SELECT platform, event_id FROM sweeps WHERE name = ?1")?
        .query_row(params![CLAIMS_SWEEP], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let (forgotten, next) = prune_sweeping(conn, now, &after, sweep)?;
    match &next {
        Some((platform, event)) => conn.execute(
            "INSERT INTO sweeps (name, platform, event_id) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) DO UPDATE SET platform = excluded.platform, event_id = excluded.event_id",
            params![CLAIMS_SWEEP, platform, event],
        )?,
        None if after.is_some() => conn.execute("DELETE FROM sweeps WHERE name = ?1", params![CLAIMS_SWEEP])?,
        None => 0,
    };
    Ok(forgotten)
}

/// A sweep's last key: the claim `?3` places past the key (`?1`, `?2`).
const SWEEP_END: &str = "SELECT platform, event_id FROM processed_events WHERE (platform, event_id) > (?1, ?2)
     ORDER BY platform, event_id LIMIT 1 OFFSET ?3";
/// The week-old claims (before `?5`) past the key (`?1`, `?2`), up to (`?3`, `?4`).
const FORGET_UP_TO: &str = "DELETE FROM processed_events WHERE (platform, event_id) > (?1, ?2)
     AND (platform, event_id) <= (?3, ?4) AND handled_at < ?5";
/// The week-old claims (before `?3`) past the key (`?1`, `?2`), to the last.
const FORGET_TO_LAST: &str = "DELETE FROM processed_events WHERE (platform, event_id) > (?1, ?2) AND handled_at < ?3";

/// One sweep of `sweep` claims after `after`: how many it forgot and where the next starts.
fn prune_sweeping(conn: &Connection, now: i64, after: &SweptTo, sweep: usize) -> Result<(usize, SweptTo)> {
    let (platform, event) = after.clone().unwrap_or_default();
    let last: Option<(String, String)> = conn
        .prepare_cached(SWEEP_END)?
        .query_row(params![platform, event, sweep.max(1) as i64 - 1], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let cutoff = now - KEEP_EVENTS_SECS;
    let forgotten = match &last {
        Some((to_platform, to_event)) => {
            conn.execute(FORGET_UP_TO, params![platform, event, to_platform, to_event, cutoff])?
        }
        None => conn.execute(FORGET_TO_LAST, params![platform, event, cutoff])?,
    };
    Ok((forgotten, last))
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

    on_both_backends!(
        an_event_is_claimed_once_and_slots_keep_the_latest_message,
        week_old_claims_are_forgotten_by_sweeps_in_key_order,
        a_sweep_goes_on_where_the_last_stopped_on_any_connection
    );

    /// Sweeps of three claims at a time go through the claims in key order and start again at the
    /// first after the last: each forgets the week-old claims among the ones it looks at and keeps
    /// the others, and after one round every week-old claim is forgotten.
    fn week_old_claims_are_forgotten_by_sweeps_in_key_order(store: &Store) {
        let c = store.conn().unwrap();
        let now = 10 * KEEP_EVENTS_SECS;
        // Old and new claims mixed in key order, on two platforms.
        for (i, platform) in ["discord", "matrix"].iter().enumerate() {
            for n in 0..5i64 {
                let at = if n % 2 == 0 { now - KEEP_EVENTS_SECS - 1 } else { now - 10 };
                assert!(claim(&c, platform, &format!("ev{n}"), at - i as i64).unwrap());
            }
        }
        let left = |c: &crate::store::sql::Connection| -> Vec<(String, String)> {
            c.query_all("SELECT platform, event_id FROM processed_events ORDER BY platform, event_id", (), |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap()
        };
        let (forgotten, after) = prune_sweeping(&c, now, &None, 3).unwrap();
        assert_eq!(forgotten, 2, "discord ev0 and ev2 of the first three");
        assert_eq!(after, Some(("discord".into(), "ev2".into())));
        assert_eq!(left(&c).len(), 8);
        let (forgotten, after) = prune_sweeping(&c, now, &after, 3).unwrap();
        assert_eq!((forgotten, after.clone()), (2, Some(("matrix".into(), "ev0".into()))), "discord ev4, matrix ev0");
        let (forgotten, after) = prune_sweeping(&c, now, &after, 3).unwrap();
        assert_eq!((forgotten, after.clone()), (1, Some(("matrix".into(), "ev3".into()))), "matrix ev2");
        let (forgotten, after) = prune_sweeping(&c, now, &after, 3).unwrap();
        assert_eq!((forgotten, after.clone()), (1, None), "matrix ev4, the last: back to the start");
        let kept: Vec<String> = left(&c).into_iter().map(|(p, e)| format!("{p} {e}")).collect();
        assert_eq!(kept, ["discord ev1", "discord ev3", "matrix ev1", "matrix ev3"]);
        assert_eq!(prune_sweeping(&c, now, &after, 3).unwrap(), (0, Some(("matrix".into(), "ev1".into()))));
        // A forgotten id is a new event again; a kept one is still claimed.
        assert!(claim(&c, "discord", "ev0", now).unwrap());
        assert!(!claim(&c, "matrix", "ev3", now).unwrap());
    }

    /// The sweep's place is kept in the database, not in a process: sweeps made on new connections
    /// (a restart, another process) go on where the last stopped and start again after the last claim.
    fn a_sweep_goes_on_where_the_last_stopped_on_any_connection(store: &Store) {
        let now = 10 * KEEP_EVENTS_SECS;
        let (old, recent) = (now - KEEP_EVENTS_SECS - 1, now - 10);
        {
            // Three recent claims first in key order, then four week-old ones.
            let c = store.conn().unwrap();
            for n in 0..7i64 {
                assert!(claim(&c, "discord", &format!("ev{n}"), if n < 3 { recent } else { old }).unwrap());
            }
        }
        let place = || -> Option<String> {
            let c = store.conn().unwrap();
            c.query_row("SELECT event_id FROM sweeps WHERE name = 'claims'", (), |r| r.get(0)).optional().unwrap()
        };
        // Each sweep on a connection of its own, as after a restart.
        let sweep = || prune_kept(&store.conn().unwrap(), now, 3).unwrap();
        assert_eq!(sweep(), 0, "ev0 to ev2 are recent");
        assert_eq!(place().as_deref(), Some("ev2"));
        assert_eq!(sweep(), 3, "ev3 to ev5, not ev0 to ev2 again");
        assert_eq!(place().as_deref(), Some("ev5"));
        assert_eq!(sweep(), 1, "ev6, the last");
        assert_eq!(place(), None, "the next sweep starts from the first");
        let c = store.conn().unwrap();
        let left: i64 = c.query_row("SELECT count(*) FROM processed_events", (), |r| r.get(0)).unwrap();
        assert_eq!(left, 3);
        assert_eq!(prune(&c, recent + KEEP_EVENTS_SECS + 1).unwrap(), 3, "a week later the first round's recent ones");
    }

    /// A sweep reads a range of the claims' key, never the whole table (SQLite's plans).
    #[test]
    fn a_sweep_reads_a_range_of_the_claims_key() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        for sql in [SWEEP_END, FORGET_UP_TO, FORGET_TO_LAST] {
            let plan = crate::store::testing::sqlite_plan(&conn, sql);
            assert!(plan.contains("SEARCH processed_events USING PRIMARY KEY"), "{sql}: {plan}");
            assert!(!plan.contains("SCAN"), "{sql}: {plan}");
        }
    }

    /// A claim is one page of SQLite's log: its key's b-tree alone (migration 31 dropped the index by
    /// age, a second page for every event handled).
    #[test]
    fn a_claim_writes_one_page() {
        let (_dir, raw) = crate::store::testing::sqlite_schema();
        let c = crate::store::sql::Connection::Sqlite(raw);
        assert!(claim(&c, "discord", "first", 1).unwrap());
        let pages = crate::store::testing::log_pages(&c, || {
            assert!(claim(&c, "discord", "second", 2).unwrap());
        });
        assert_eq!(pages, 1, "a claim wrote {pages} pages");
    }

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

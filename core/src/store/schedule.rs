//! The scheduler's failed items: each due item (a game's loss on time or reminder, a challenge's
//! expiry, a ladder's or a tournament's step) runs as its own unit of work; one whose unit fails is
//! recorded here with its error, and after [`SET_ASIDE_AFTER`] tries set aside: not tried again
//! until an operator retries it (`capabot scheduler retry`), while every other item goes on.

use super::Result;
use crate::store::sql::{Connection, Value, execute_by_ids, params};

/// Tries after which a failing item is set aside.
pub const SET_ASIDE_AFTER: u32 = 3;

/// A scheduled item that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failed {
    pub kind: String,
    pub item_id: i64,
    pub tries: u32,
    pub last_error: String,
    pub last_at: i64,
    pub set_aside: bool,
}

/// Records one more failure of an item; returns whether it is now set aside.
pub fn record_failure(conn: &Connection, kind: &str, item_id: i64, error: &str, now: i64) -> Result<bool> {
    let error: String = error.chars().take(500).collect();
    conn.execute(
        "INSERT INTO scheduler_failures (kind, item_id, tries, last_error, last_at, set_aside)
         VALUES (?1, ?2, 1, ?3, ?4, 0)
         ON CONFLICT (kind, item_id) DO UPDATE SET tries = scheduler_failures.tries + 1,
           last_error = excluded.last_error, last_at = excluded.last_at",
        params![kind, item_id, error, now],
    )?;
    conn.execute(
        "UPDATE scheduler_failures SET set_aside = 1 WHERE kind = ?1 AND item_id = ?2 AND tries >= ?3",
        params![kind, item_id, SET_ASIDE_AFTER as i64],
    )?;
    is_set_aside(conn, kind, item_id)
}

/// An item went through: its failures are forgotten.
pub fn clear(conn: &Connection, kind: &str, item_id: i64) -> Result<()> {
    conn.execute("DELETE FROM scheduler_failures WHERE kind = ?1 AND item_id = ?2", params![kind, item_id])?;
    Ok(())
}

/// Items that went through together (a batch of the scheduler's): their failures are forgotten,
/// in a statement for each kind (of up to [`IN_LIST_MAX`](crate::store::sql::IN_LIST_MAX) items)
/// instead of [`clear`]'s one an item.
pub fn clear_all(conn: &Connection, items: &[(&str, i64)]) -> Result<()> {
    let mut kinds: Vec<&str> = items.iter().map(|&(kind, _)| kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    for kind in kinds {
        let ids: Vec<i64> = items.iter().filter(|&&(k, _)| k == kind).map(|&(_, id)| id).collect();
        let sql = |list: &str, next: usize| {
            format!("DELETE FROM scheduler_failures WHERE item_id IN ({list}) AND kind = ?{next}")
        };
        execute_by_ids(conn, &ids, sql, &[Value::Text(kind)])?;
    }
    Ok(())
}

/// Whether an item is set aside.
pub fn is_set_aside(conn: &Connection, kind: &str, item_id: i64) -> Result<bool> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM scheduler_failures WHERE kind = ?1 AND item_id = ?2 AND set_aside = 1",
        params![kind, item_id],
        |r| r.get(0),
    )?;
    Ok(n > 0)
}

/// The items of one kind set aside (skipped by the scheduler).
pub fn set_aside_ids(conn: &Connection, kind: &str) -> Result<Vec<i64>> {
    let mut st = conn.prepare_cached("SELECT item_id FROM scheduler_failures WHERE kind = ?1 AND set_aside = 1")?;
    let rows = st.query_map([kind], |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Every failed item, set aside or not, oldest failure first.
pub fn list(conn: &Connection) -> Result<Vec<Failed>> {
    let mut st = conn.prepare_cached(
        "SELECT kind, item_id, tries, last_error, last_at, set_aside FROM scheduler_failures ORDER BY last_at, kind, item_id",
    )?;
    let rows = st.query_map((), |r| {
        Ok(Failed {
            kind: r.get(0)?,
            item_id: r.get(1)?,
            tries: r.get::<i64>(2)? as u32,
            last_error: r.get(3)?,
            last_at: r.get(4)?,
            set_aside: r.get::<i64>(5)? != 0,
        })
    })?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Items set aside in all (for `/metrics`).
pub fn count_set_aside(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("SELECT count(*) FROM scheduler_failures WHERE set_aside = 1", (), |r| r.get(0))?)
}

/// Puts items back into the scheduler's hands (their failures forgotten): one (`kind`, `item_id`),
/// or every item set aside. Returns how many.
pub fn retry(conn: &Connection, item: Option<(&str, i64)>) -> Result<usize> {
    Ok(match item {
        Some((kind, id)) => {
            conn.execute("DELETE FROM scheduler_failures WHERE kind = ?1 AND item_id = ?2", params![kind, id])?
        }
        None => conn.execute("DELETE FROM scheduler_failures WHERE set_aside = 1", ())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::testing::on_both_backends;

    fn an_item_is_set_aside_after_a_few_tries_and_retried(store: &Store) {
        let conn = store.conn().unwrap();
        for t in 1..SET_ASIDE_AFTER {
            assert!(!record_failure(&conn, "timeout", 7, "boom", 100 + t as i64).unwrap());
        }
        assert!(record_failure(&conn, "timeout", 7, "boom again", 200).unwrap());
        assert!(!record_failure(&conn, "reminder", 7, "other", 200).unwrap(), "kinds are apart");
        assert_eq!(set_aside_ids(&conn, "timeout").unwrap(), vec![7]);
        assert_eq!(count_set_aside(&conn).unwrap(), 1);
        let all = list(&conn).unwrap();
        assert_eq!(all.len(), 2);
        let t = all.iter().find(|f| f.kind == "timeout").unwrap();
        assert_eq!((t.tries, t.last_error.as_str(), t.set_aside), (SET_ASIDE_AFTER, "boom again", true));
        assert_eq!(retry(&conn, None).unwrap(), 1);
        assert!(set_aside_ids(&conn, "timeout").unwrap().is_empty());
        clear(&conn, "reminder", 7).unwrap();
        assert!(list(&conn).unwrap().is_empty());
    }

    on_both_backends!(an_item_is_set_aside_after_a_few_tries_and_retried);
}

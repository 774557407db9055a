//! A statement PostgreSQL refuses aborts its whole transaction: every later statement of it is
//! refused with "current transaction is aborted" (25P02). Where a unit of work caught such an
//! error and went on, what it ends with must name the statement that failed first (the 25P02
//! says nothing of it), a conflict caught on every try must end as a conflict, and a connection
//! whose transaction was aborted must never be lent again inside it.

use std::thread;
use std::time::Duration;

use capabot::store::{Store, StoreError};
use pg_harness::PgServer;

/// A second process inserts a key and commits while a unit of this one inserts the same key,
/// catching the error (a "may already be there" insert written without `ON CONFLICT`), and then
/// goes on: the unit is not saved, and its error names the insert that failed and why
/// (23505, the unique key), never the key's value.
#[test]
fn a_unit_aborted_by_a_racing_insert_it_caught_names_that_insert() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let (first, second) =
        (Store::open_postgres(&database.url(), 1).unwrap(), Store::open_postgres(&database.url(), 1).unwrap());
    first
        .conn()
        .unwrap()
        .execute_batch("CREATE TABLE raced (k TEXT PRIMARY KEY); CREATE TABLE noted (n BIGINT)")
        .unwrap();
    let conn = first.conn().unwrap();
    conn.begin_write().unwrap();
    conn.execute("INSERT INTO raced VALUES (?1)", ["k-private"]).unwrap();
    let other = thread::spawn(move || {
        second.unit(|| {
            let conn = second.conn()?;
            let _ = conn.execute("INSERT INTO raced VALUES (?1)", ["k-private"]);
            conn.execute("INSERT INTO noted VALUES (1)", ())?;
            Ok(())
        })
    });
    // The other unit's insert waits for this transaction's key (or comes after it): either way
    // it meets the key committed.
    thread::sleep(Duration::from_millis(200));
    conn.commit().unwrap();
    drop(conn);
    let said = other.join().unwrap().expect_err("a unit whose transaction was aborted is not saved");
    let text = said.to_string();
    assert!(matches!(said, StoreError::Aborted { .. }), "{text}");
    assert!(text.contains("25P02") && text.contains("(23505)") && text.contains("INSERT INTO raced"), "{text}");
    assert!(!text.contains("k-private"), "a parameter's value in the error: {text}");
    let noted: i64 = first.conn().unwrap().query_row("SELECT count(*) FROM noted", (), |r| r.get(0)).unwrap();
    assert_eq!(noted, 0, "nothing of the unit is saved");
}

/// A unit that catches a serialization failure on every try (each run ending in 25P02 at its
/// next statement) ends, once its tries are spent, as a conflict naming the failure: not as an
/// unexplained 25P02.
#[test]
fn a_unit_that_caught_a_conflict_on_every_try_ends_as_that_conflict() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let store = Store::open_postgres(&database.url(), 1).unwrap();
    store.set_unit_tries(2);
    let mut runs = 0;
    let said = store
        .unit(|| {
            runs += 1;
            let conn = store.conn()?;
            let _ =
                conn.execute_batch("DO $$ BEGIN RAISE EXCEPTION 'met another writer' USING ERRCODE = '40001'; END $$");
            conn.query_row("SELECT 1", (), |r| r.get::<i64>(0))?;
            Ok(())
        })
        .expect_err("never saved");
    let text = said.to_string();
    assert_eq!(runs, 2, "run again after the conflict, as many times as allowed");
    assert!(said.is_conflict(), "not a conflict: {text}");
    assert!(text.contains("met another writer") && text.contains("(40001)"), "{text}");
}

/// A transaction outside any unit that a caught error aborted fails at its commit, and its
/// connection goes back to the pool (of one) outside any transaction: the next unit on it is
/// saved (lent inside the aborted transaction, its BEGIN would be refused with 25P02).
#[test]
fn a_connection_whose_transaction_was_aborted_is_lent_again_outside_it() {
    let server = PgServer::shared().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap();
    let store = Store::open_postgres(&database.url(), 1).unwrap();
    store.conn().unwrap().execute_batch("CREATE TABLE kept (n BIGINT)").unwrap();
    {
        let conn = store.conn().unwrap();
        let tx = capabot::store::immediate(&conn).unwrap();
        tx.execute("INSERT INTO kept VALUES (1)", ()).unwrap();
        let _ = tx.execute("INSERT INTO no_such_table VALUES (1)", ());
        assert!(tx.commit().is_err(), "an aborted transaction reported committed");
    }
    store
        .unit(|| Ok(store.conn()?.execute("INSERT INTO kept VALUES (2)", ())?))
        .unwrap_or_else(|e| panic!("the next unit on the pool's connection: {e}"));
    let kept: Vec<i64> = store.conn().unwrap().query_all("SELECT n FROM kept", (), |r| r.get(0)).unwrap();
    assert_eq!(kept, [2]);
}

//! Change notices between processes sharing a PostgreSQL database: a unit of work that speaks in a
//! chat says so with `pg_notify` in its own transaction ([`tell`]), and every other process's
//! [`Listener`] (a connection that `LISTEN`s) hears it once the unit is committed — never when it
//! rolls back, as PostgreSQL delivers a transaction's notices at its commit. The host passes them
//! on to its feed of changed chats, which the web's live pages follow, so a move made by another
//! process is on them at once instead of at their next poll.
//!
//! SQLite has no notices between processes: [`tell`] does nothing there and there is no listener;
//! readers keep polling (`docs/web.md`).

use super::Result;
use crate::store::sql::{Connection, Dialect, params};
use serde::{Deserialize, Serialize};

/// The PostgreSQL channel of the notices.
pub const CHANNEL: &str = "capabot_changes";

/// A notice: something happened in `platform`'s `chat` (of `community`, if any), told by the
/// store `origin` ([`super::Store::origin`]). The payload is this as JSON, short keys (PostgreSQL
/// takes at most 8,000 bytes; chat ids are well below).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Changed {
    #[serde(rename = "o")]
    pub origin: String,
    #[serde(rename = "p")]
    pub platform: String,
    #[serde(rename = "g", default, skip_serializing_if = "Option::is_none")]
    pub community: Option<String>,
    #[serde(rename = "c")]
    pub chat: String,
}

/// Tells the other processes sharing the database that something happened in `platform`'s
/// `chat`, once the transaction `conn` is in commits (nothing if it rolls back). On SQLite,
/// nothing.
pub fn tell(conn: &Connection, origin: &str, platform: &str, community: Option<&str>, chat: &str) -> Result<()> {
    if conn.dialect() != Dialect::Postgres {
        return Ok(());
    }
    let changed = Changed {
        origin: origin.into(),
        platform: platform.into(),
        community: community.map(Into::into),
        chat: chat.into(),
    };
    let payload =
        serde_json::to_string(&changed).map_err(|e| super::StoreError::Corrupt(format!("a change notice: {e}")))?;
    conn.prepare_cached("SELECT pg_notify(?1, ?2)")?.execute(params![CHANNEL, payload])?;
    Ok(())
}

/// A payload read back; `None` for one capabot does not write.
pub fn parse(payload: &str) -> Option<Changed> {
    serde_json::from_str(payload).ok()
}

#[cfg(feature = "postgres")]
pub use listener::Listener;

#[cfg(feature = "postgres")]
mod listener {
    use super::{CHANNEL, Changed, parse};
    use crate::store::postgres::{Dialer, PgError};
    use crate::store::{Result, StoreError};
    use r2d2_postgres::postgres::Client;
    use r2d2_postgres::postgres::fallible_iterator::FallibleIterator;
    use std::time::{Duration, Instant};

    /// How long the listening connection may stay quiet before it is checked with a statement: a
    /// connection lost without the socket closing (a dropped network path) is noticed within it.
    pub const CHECK_AFTER: Duration = Duration::from_secs(30);

    /// The name of the listening connection in `pg_stat_activity`.
    pub const APPLICATION_NAME: &str = "capabot-listen";

    /// A connection of its own that listens for the other stores' notices on [`CHANNEL`].
    pub struct Listener {
        client: Client,
        origin: String,
        checked: Instant,
    }

    impl Listener {
        /// Connects (outside the pool) and listens.
        pub(in crate::store) fn open(dialer: &Dialer, origin: &str) -> Result<Listener> {
            let mut client = dialer.connect(APPLICATION_NAME).map_err(StoreError::Postgres)?;
            client.batch_execute(&format!("LISTEN {CHANNEL}")).map_err(|e| StoreError::Postgres(PgError::from(e)))?;
            Ok(Listener { client, origin: origin.into(), checked: Instant::now() })
        }

        /// The notices of other stores that arrive within `timeout` (returning at the first
        /// one, with any others already there); empty when none came. An error when the
        /// connection is lost: listen again on a new one, and look again at what it follows.
        pub fn wait(&mut self, timeout: Duration) -> Result<Vec<Changed>> {
            let lost = |e| StoreError::Postgres(PgError::from(e));
            let mut heard = Vec::new();
            {
                let mut notices = self.client.notifications();
                let first = notices.timeout_iter(timeout).next().map_err(lost)?;
                if let Some(n) = first {
                    heard.push(n);
                    while let Some(n) = notices.iter().next().map_err(lost)? {
                        heard.push(n);
                    }
                }
            }
            if self.client.is_closed() {
                return Err(StoreError::Refused("the listening connection was closed".into()));
            }
            if !heard.is_empty() {
                self.checked = Instant::now();
            } else if self.checked.elapsed() >= CHECK_AFTER {
                self.client.is_valid(crate::store::postgres::CONNECT_TIMEOUT).map_err(lost)?;
                self.checked = Instant::now();
            }
            Ok(heard
                .iter()
                .filter(|n| n.channel() == CHANNEL)
                .filter_map(|n| parse(n.payload()))
                .filter(|c| c.origin != self.origin)
                .collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_reads_back_as_written() {
        let c = Changed { origin: "ab".into(), platform: "discord".into(), community: None, chat: "42\"}".into() };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(json, r#"{"o":"ab","p":"discord","c":"42\"}"}"#);
        assert_eq!(parse(&json), Some(c));
        assert_eq!(parse("{}"), None);
    }

    #[test]
    fn telling_on_sqlite_is_nothing_and_there_is_no_listener() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path().join("t.db")).unwrap();
        let unit = store.begin_unit().unwrap();
        tell(&store.conn().unwrap(), store.origin(), "discord", Some("1"), "2").unwrap();
        unit.commit().unwrap();
        #[cfg(feature = "postgres")]
        assert!(store.listener().is_none());
    }

    /// Two stores on one PostgreSQL database, each with its listener: a notice arrives at the
    /// other store once its unit commits, never from a unit rolled back, never at its own store.
    #[cfg(feature = "postgres")]
    #[test]
    fn notices_reach_the_other_store_at_commit_only() {
        use crate::store::Store;
        use std::time::{Duration, Instant};
        let server = pg_harness::PgServer::shared().unwrap();
        let database = server.create_database().unwrap();
        let (a, b) =
            (Store::open_postgres(&database.url(), 2).unwrap(), Store::open_postgres(&database.url(), 2).unwrap());
        let (mut hears_a, mut hears_b) = (a.listener().unwrap().unwrap(), b.listener().unwrap().unwrap());
        let say = |store: &Store, chat: &str, commit: bool| {
            let unit = store.begin_unit().unwrap();
            tell(&store.conn().unwrap(), store.origin(), "discord", Some("g"), chat).unwrap();
            if commit { unit.commit().unwrap() } else { drop(unit) }
        };
        // The first notice heard within ten seconds (a bound, not a measurement).
        let first = |l: &mut Listener| {
            let until = Instant::now() + Duration::from_secs(10);
            while Instant::now() < until {
                if let Some(c) = l.wait(Duration::from_millis(200)).unwrap().into_iter().next() {
                    return Some(c.chat);
                }
            }
            None
        };
        say(&a, "rolled-back", false);
        say(&a, "committed", true);
        assert_eq!(first(&mut hears_b).as_deref(), Some("committed"), "the rolled-back unit told nothing");
        say(&b, "from-b", true);
        assert_eq!(first(&mut hears_a).as_deref(), Some("from-b"), "a store does not hear its own notices");
        say(&a, "again", true);
        assert_eq!(first(&mut hears_b).as_deref(), Some("again"), "nor does b: a's next one comes first");
    }
}

//! Which platforms are served, and when last: the processes sharing a database each write, at every
//! scheduler tick, a row per platform they have a front end for ([`beat`]). Outbox rows of a
//! platform no process has served for a while are expired ([`expire_unserved`]): marked failed
//! with the kind [`EXPIRED`] (kept and counted like every failed row, never deleted unseen) instead
//! of waiting for ever for a front end that is not coming; and the platforms with scheduled work
//! that nobody has served for a while are named ([`unserved_with_work`]), so that any process's
//! scheduler takes their long-overdue items.

use super::Result;
use crate::store::sql::{Connection, Dialect, params};

/// The failure kind of an outbox row expired because no process served its platform.
pub const EXPIRED: &str = "expired";

/// How long a heartbeat is kept at least (longer when the expiry waits longer).
const KEEP_SECS: i64 = 7 * 86_400;

/// The rows `read` finds for each of `platforms`, one after the other (the scheduler's queries of
/// what is due, each read from an index that leads with the platform).
pub(crate) fn each_platform<T>(platforms: &[&str], mut read: impl FnMut(&str) -> Result<Vec<T>>) -> Result<Vec<T>> {
    let mut all = Vec::new();
    for p in platforms {
        all.extend(read(p)?);
    }
    Ok(all)
}

/// `instance` serves `platforms` at `now`.
pub fn beat(conn: &Connection, instance: &str, platforms: &[&str], now: i64) -> Result<()> {
    let mut st = conn.prepare_cached(
        "INSERT INTO served_platforms (platform, instance, seen_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (platform, instance) DO UPDATE SET seen_at = excluded.seen_at",
    )?;
    for p in platforms {
        st.execute(params![p, instance, now])?;
    }
    Ok(())
}

/// When each platform was last served by any process, by platform name.
pub fn last_served(conn: &Connection) -> Result<Vec<(String, i64)>> {
    let mut st =
        conn.prepare_cached("SELECT platform, max(seen_at) FROM served_platforms GROUP BY platform ORDER BY platform")?;
    let rows = st.query_map((), |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<crate::store::sql::Result<_>>()?)
}

/// The platforms with outbox rows waiting that no process has served since `?1`: each platform
/// found by one step in the waiting entries (`outbox_waiting`), keyed first by the platform (a loose index
/// scan), so that the rows themselves are read only for a platform nobody serves. Before, every
/// tick read every waiting row (`docs/scale.md`, fix 10).
const UNSERVED_WAITING: &str = "WITH RECURSIVE waiting (platform) AS (
       SELECT min(platform) FROM outbox_waiting
       UNION ALL
       SELECT (SELECT min(o.platform) FROM outbox_waiting o WHERE o.platform > w.platform)
       FROM waiting w WHERE w.platform IS NOT NULL)
     SELECT w.platform FROM waiting w WHERE w.platform IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM served_platforms s WHERE s.platform = w.platform AND s.seen_at > ?1)";

/// The platforms of `table` with rows in the state `open` that have a time in `due` (a row without one
/// never comes due), found by a loose index scan of the scheduler's partial due-time indexes,
/// which lead with the platform: a step a platform (and one for each row stepped over without a
/// time, a game without a clock), not a read of its rows.
fn platforms_with(table: &str, open: &str, due: &str) -> String {
    let row = format!("{open} AND {due} IS NOT NULL");
    format!(
        "WITH RECURSIVE p (platform) AS (
           SELECT min(platform) FROM {table} WHERE {row}
           UNION ALL
           SELECT (SELECT min(platform) FROM {table} WHERE {row} AND platform > p.platform)
           FROM p WHERE p.platform IS NOT NULL)
         SELECT platform FROM p WHERE platform IS NOT NULL"
    )
}

/// The platforms of ladders with a challenge waiting for its answer since `?1` or before.
const LADDERS_WAITING: &str = "SELECT DISTINCT l.platform FROM ladders l
     WHERE l.id IN (SELECT ladder_id FROM ladder_challenges WHERE status = 'pending' AND accept_by <= ?1)";

/// The tables of the scheduler's items, the condition (the state) in which a row of them may come
/// due, written as their partial index writes it, and its time that does (in the dialect's words: a
/// game's is an expression, [`super::games::due_at`]). A game comes due in its setup phase too.
fn scheduled(dialect: Dialect) -> [(&'static str, &'static str, &'static str); 3] {
    [
        ("games", "status IN ('setup', 'active')", super::games::due_at(dialect)),
        ("challenges", "status = 'open'", "expires_at"),
        ("tournaments", "status = 'registration'", "signup_until"),
    ]
}

/// The platforms other than `own` that may have scheduled items (open games, open challenges,
/// tournaments in registration, ladder challenges unanswered since `since`) and that no process
/// has served since `since` (a platform never served counts as such), in name order.
pub fn unserved_with_work(conn: &Connection, since: i64, own: &[&str]) -> Result<Vec<String>> {
    let mut found = std::collections::BTreeSet::new();
    for (table, open, due) in scheduled(conn.dialect()) {
        found.extend(conn.query_all(&platforms_with(table, open, due), (), |r| r.get::<String>(0))?);
    }
    found.extend(conn.query_all(LADDERS_WAITING, params![since], |r| r.get::<String>(0))?);
    let served: Vec<String> = last_served(conn)?.into_iter().filter(|(_, at)| *at > since).map(|(p, _)| p).collect();
    Ok(found.into_iter().filter(|p| !own.contains(&p.as_str()) && !served.contains(p)).collect())
}

/// Expires the waiting rows of platform `?4` written at `?5` or before; [`UNQUEUE_EXPIRED`] then
/// takes their waiting entries out.
const EXPIRE_WAITING: &str =
    "UPDATE outbox_rows SET state = 'failed', failure = ?1, error = ?2, done_at = ?3, picture = NULL
     WHERE id IN (SELECT id FROM outbox_waiting WHERE platform = ?4) AND created_at <= ?5";

/// The waiting entries of platform `?1` whose rows are given up ([`EXPIRE_WAITING`]).
const UNQUEUE_EXPIRED: &str = "DELETE FROM outbox_waiting WHERE platform = ?1
     AND EXISTS (SELECT 1 FROM outbox_rows r WHERE r.id = outbox_waiting.id AND r.state = 'failed')";

/// Expires the pending outbox rows, written at least `after` seconds before `now`, of every
/// platform that no process has served within `after` seconds; forgets heartbeats older than
/// that and a week. Returns how many rows were expired per platform.
pub fn expire_unserved(conn: &Connection, now: i64, after: i64) -> Result<Vec<(String, usize)>> {
    let since = now - after;
    let error = format!("no process served the platform for {} hours", after / 3600); // i18n: operator
    let mut expired: Vec<(String, usize)> = Vec::new();
    let waiting: Vec<String> = conn.query_all(UNSERVED_WAITING, params![since], |r| r.get(0))?;
    for platform in waiting {
        let n = conn.execute(EXPIRE_WAITING, params![EXPIRED, error, now, platform, since])?;
        conn.execute(UNQUEUE_EXPIRED, params![platform])?;
        if n > 0 {
            expired.push((platform, n));
        }
    }
    expired.sort();
    conn.prepare_cached("DELETE FROM served_platforms WHERE seen_at < ?1")?.execute([now - after.max(KEEP_SECS)])?;
    Ok(expired)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::outbox::{counts, pending_in, push};
    use crate::store::testing::on_both_backends;

    on_both_backends!(
        rows_of_a_platform_nobody_served_for_a_while_expire_and_stay_counted,
        the_platforms_with_work_that_nobody_served_for_a_while_are_named,
    );

    /// Every tick looks for rows to expire: it reads the waiting platforms from the waiting
    /// entries' key (a few steps, not a read of every waiting row), and a platform's rows from
    /// the same key (SQLite's plans).
    #[test]
    fn a_tick_finds_the_platforms_waiting_in_an_index_not_by_reading_every_row() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = |sql: &str| crate::store::testing::sqlite_plan(&conn, sql);
        for sql in [UNSERVED_WAITING, EXPIRE_WAITING, UNQUEUE_EXPIRED] {
            let plan = plan(sql);
            let keyed = plan.contains("USING PRIMARY KEY (platform");
            assert!(keyed && !plan.contains("SCAN outbox") && !plan.contains("SCAN r"), "{plan}");
        }
        let waiting = plan(UNSERVED_WAITING);
        assert!(waiting.contains("SEARCH o USING PRIMARY KEY (platform>?)"), "one step a platform: {waiting}");
        // The platforms with scheduled work, a step each in a due-time index.
        let partial = ["games_due", "challenges_expiry", "tournaments_signup"];
        for ((table, open, due), index) in scheduled(Dialect::Sqlite).into_iter().zip(partial) {
            let plan = plan(&platforms_with(table, open, due));
            let uses = plan.matches(&format!("INDEX {index}")).count() == 2;
            assert!(uses && !plan.contains(&format!("SCAN {table}")), "{plan}");
            assert!(plan.contains("(platform>?)"), "one step a platform: {plan}");
        }
        let ladders = plan(LADDERS_WAITING);
        assert!(ladders.contains("INDEX ladder_challenges_due"), "{ladders}");
    }

    /// The platforms whose scheduled items any process may take: those with something that may
    /// come due (an open game, active or in its setup phase, an open challenge, a tournament in registration, a ladder
    /// challenge unanswered since `since`) that no process has served since `since` (never
    /// served counts), the process's own excepted.
    fn the_platforms_with_work_that_nobody_served_for_a_while_are_named(store: &Store) {
        use crate::community::ladder::LadderSettings;
        use crate::store::games::{NewGame, Status, create, test_game};
        use crate::store::{challenges, ladders, players, tournaments};
        let c = store.conn().unwrap();
        let since = 1_000_000;
        let pair = |platform: &str| {
            let a = players::ensure(&c, platform, "a", "A", 0).unwrap().id;
            (a, players::ensure(&c, platform, "b", "B", 0).unwrap().id)
        };
        let game = |platform: &str, status: Status, deadline: Option<i64>| {
            let (white, black) = pair(platform);
            create(&c, &NewGame { status, deadline, ..test_game(platform, white, black) }, 0).unwrap();
        };
        for p in ["games", "mine", "served-lately", "served-long-ago"] {
            game(p, Status::Active, Some(since - 10));
        }
        // A relocation game in its setup phase runs on its clock too.
        game("setup", Status::Setup, Some(since - 10));
        game("finished", Status::Finished, None);
        // A game without a clock never comes due.
        game("no-clock", Status::Active, None);
        let (challenger, _) = pair("challenges");
        let challenge = challenges::NewChallenge {
            platform: "challenges",
            community_id: None,
            rated: false,
            chat_id: "c",
            challenger,
            challenged: None,
            variant: "chess",
            setup: None,
            days_per_move: Some(1),
            color: "random",
            expires_at: since + 10,
            interaction_only: false,
        };
        challenges::create(&c, &challenge, 0).unwrap();
        let cup = |platform: &str| {
            tournaments::create(&c, platform, "g", "Cup", "chess", tournaments::System::RoundRobin, 1, None, 0).unwrap()
        };
        tournaments::set_signup_until(&c, cup("tournaments"), Some(since)).unwrap();
        // Started by hand (`signup:0`): never due.
        cup("by-hand");
        for (platform, accept_by) in [("ladders", since), ("ladders-later", since + 1)] {
            let ladder = ladders::create(&c, platform, "g", "chess", LadderSettings::default(), 0).unwrap().unwrap();
            let (a, b) = pair(platform);
            c.execute(
                "INSERT INTO ladder_challenges (ladder_id, season, id, challenger_id, challenged_id, status, issued_at, accept_by)
                 VALUES (?1, 1, 1, ?2, ?3, 'pending', 0, ?4)",
                params![ladder, a, b, accept_by],
            )
            .unwrap();
        }
        beat(&c, "p1", &["served-long-ago"], since).unwrap();
        beat(&c, "p2", &["served-long-ago"], since - 5).unwrap();
        beat(&c, "p3", &["served-lately"], since + 1).unwrap();
        assert_eq!(
            unserved_with_work(&c, since, &["mine"]).unwrap(),
            ["challenges", "games", "ladders", "served-long-ago", "setup", "tournaments"],
        );
        assert_eq!(unserved_with_work(&c, since, &["mine", "games", "tournaments"]).unwrap().len(), 4);
        beat(&c, "p1", &["games"], since + 1).unwrap();
        assert!(!unserved_with_work(&c, since, &["mine"]).unwrap().contains(&"games".to_string()), "served again");
    }

    fn rows_of_a_platform_nobody_served_for_a_while_expire_and_stay_counted(store: &Store) {
        const DAY: i64 = 86_400;
        let c = store.conn().unwrap();
        let t0 = 1_000_000;
        beat(&c, "p1", &["discord", "matrix"], t0).unwrap();
        for (platform, chat) in [("discord", "c:1"), ("matrix", "r:1"), ("matrix", "r:2"), ("irc", "c:1")] {
            push(&c, platform, chat, "hello", None, t0).unwrap();
        }
        // A day on, only discord is served still: matrix was served a day ago (not within it),
        // irc never.
        beat(&c, "p2", &["discord"], t0 + DAY).unwrap();
        let late = push(&c, "matrix", "r:1", "late", None, t0 + DAY - 10).unwrap();
        assert_eq!(expire_unserved(&c, t0 + DAY - 1, DAY).unwrap(), vec![], "matrix was served within the day");
        assert_eq!(
            expire_unserved(&c, t0 + DAY, DAY).unwrap(),
            vec![("irc".to_string(), 1), ("matrix".to_string(), 2)]
        );
        assert_eq!(pending_in(&c, "matrix", "r:1", 10).unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), vec![late]);
        assert_eq!(pending_in(&c, "discord", "c:1", 10).unwrap().len(), 1, "a served platform's rows wait");
        let counts = counts(&c).unwrap();
        assert!(counts.contains(&("matrix".into(), "failed:expired".into(), 2)), "{counts:?}");
        assert!(counts.contains(&("irc".into(), "failed:expired".into(), 1)), "{counts:?}");
        assert_eq!(last_served(&c).unwrap(), vec![("discord".into(), t0 + DAY), ("matrix".into(), t0)]);
        // A matrix process back: its newer rows wait for it again.
        beat(&c, "p3", &["matrix"], t0 + 2 * DAY).unwrap();
        beat(&c, "p2", &["discord"], t0 + 2 * DAY).unwrap();
        assert_eq!(expire_unserved(&c, t0 + 2 * DAY, DAY).unwrap(), vec![]);
        // Heartbeats older than a week are forgotten.
        expire_unserved(&c, t0 + 8 * DAY + 1, DAY).unwrap();
        assert_eq!(last_served(&c).unwrap(), vec![("discord".into(), t0 + 2 * DAY), ("matrix".into(), t0 + 2 * DAY)]);
        expire_unserved(&c, t0 + 9 * DAY + 1, DAY).unwrap();
        assert_eq!(last_served(&c).unwrap(), vec![]);
    }
}

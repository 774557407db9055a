//! Linking a person's accounts on several platforms, with one-time codes.
//!
//! `link` on one platform stores a code for that account ([`create_code`]); `link CODE` on
//! another platform ([`redeem`]) makes both accounts one player. Rules:
//!
//! - A code lasts ten minutes, is used once, and asking again replaces the account's older codes.
//! - The two accounts must be on different platforms, and a person has at most one account per
//!   platform (so a notification always has one place to go): linking that would give them two is
//!   refused; unlink the old one first.
//! - When both accounts already belong to different players, the two players are merged into the
//!   older one (by creation time): every account, game, challenge, offer, tournament entry and
//!   ladder entry of the newer player moves to the older one, and the newer player's row stays,
//!   without accounts, with a line in `player_merges`. Two players whose histories meet — they
//!   played each other, or share a tournament or a ladder — are not merged, since one person
//!   cannot have played themselves or hold two places; the link is refused instead.
//! - Ratings: for each scope and variant where both players have one, the rating with more games
//!   is kept (the older player's on a tie) and the other dropped; their rating histories both move,
//!   so charts show every rated game of the person.
//! - [`unlink`] gives the account a new player of its own; all shared history stays with the old
//!   player, which keeps the other accounts.

use super::Result;
use super::players::{self, PlayerId};
use crate::community::link::{CODE_LIFETIME_SECS, LinkCode, LinkError};
use crate::store::sql::{Connection, OptionalExtension, params};

type Answer<T> = std::result::Result<T, LinkError>;

/// What a successful link did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Linked {
    /// The player both accounts now belong to.
    pub player: PlayerId,
    /// The player merged into it, when both accounts had one with history or a record.
    pub merged: Option<PlayerId>,
}

/// A new code for the account (`platform`, `user_id`), replacing its unused ones.
pub fn create_code(conn: &Connection, platform: &str, user_id: &str, now: i64) -> Result<Answer<LinkCode>> {
    let tx = super::immediate(conn)?;
    if players::find(&tx, platform, user_id)?.is_none() {
        return Ok(Err(LinkError::UnknownAccount));
    }
    tx.execute(
        "DELETE FROM link_codes WHERE (platform = ?1 AND user_id = ?2 AND used_at IS NULL) OR expires_at <= ?3",
        params![platform, user_id, now],
    )?;
    loop {
        let code = LinkCode::generate();
        let n = tx.execute(
            "INSERT INTO link_codes (code, platform, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT DO NOTHING",
            params![code.as_str(), platform, user_id, now, now + CODE_LIFETIME_SECS],
        )?;
        if n == 1 {
            tx.commit()?;
            return Ok(Ok(code));
        }
    }
}

fn platforms_of(tx: &Connection, player: PlayerId) -> Result<Vec<String>> {
    let mut st = tx.prepare_cached("SELECT DISTINCT platform FROM accounts WHERE player_id = ?1 ORDER BY platform")?;
    let rows = st.query_map([player], |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Whether players `a` and `b` have played each other or share a tournament or ladder.
fn histories_meet(tx: &Connection, a: PlayerId, b: PlayerId) -> Result<bool> {
    Ok(tx.query_row(HISTORIES_MEET, params![a, b], |r| r.get(0))?)
}

/// [`histories_meet`]'s statement: each side's games with the other, in play or over, each read
/// from a partial index (a game of theirs is in one or the other, migration 27).
const HISTORIES_MEET: &str =
    "SELECT EXISTS (SELECT 1 FROM games WHERE status IN ('setup', 'active') AND white_id = ?1 AND black_id = ?2)
             OR EXISTS (SELECT 1 FROM games WHERE status IN ('setup', 'active') AND white_id = ?2 AND black_id = ?1)
             OR EXISTS (SELECT 1 FROM games WHERE status IN ('finished', 'aborted') AND white_id = ?1 AND black_id = ?2)
             OR EXISTS (SELECT 1 FROM games WHERE status IN ('finished', 'aborted') AND white_id = ?2 AND black_id = ?1)
             OR EXISTS (SELECT 1 FROM tournament_players x JOIN tournament_players y USING (tournament_id)
                        WHERE x.player_id = ?1 AND y.player_id = ?2)
             OR EXISTS (SELECT 1 FROM ladder_members x JOIN ladder_members y USING (ladder_id)
                        WHERE x.player_id = ?1 AND y.player_id = ?2)";

/// The player columns that move with a merge, as (table, column).
const PLAYER_COLUMNS: &[(&str, &str)] = &[
    ("accounts", "player_id"),
    ("games", "white_id"),
    ("games", "black_id"),
    ("challenges", "challenger_id"),
    ("challenges", "challenged_id"),
    ("offers", "by_player"),
    ("tournament_players", "player_id"),
    ("tournament_games", "white_id"),
    ("tournament_games", "black_id"),
    ("ladder_standings", "player_id"),
    ("ladder_challenges", "challenger_id"),
    ("ladder_challenges", "challenged_id"),
    ("ladder_events", "player_id"),
    ("ladder_events", "other_id"),
];

/// Moves everything of player `from` to player `into`.
fn merge(tx: &Connection, into: PlayerId, from: PlayerId, now: i64) -> Result<()> {
    // The standings a ladder keeps name the merged player's id: forgotten, they are replayed from
    // the ladder's events (moved below) until the store writes them again.
    tx.execute(
        "UPDATE ladders SET standings = NULL WHERE id IN (SELECT ladder_id FROM ladder_members WHERE player_id = ?1)",
        params![from],
    )?;
    for (table, column) in PLAYER_COLUMNS {
        tx.execute(&format!("UPDATE {table} SET {column} = ?1 WHERE {column} = ?2"), params![into, from])?;
    }
    // Ratings of one scope and variant: the one with more games stays (the kept player's on a tie).
    tx.execute(
        "DELETE FROM ratings WHERE player_id = ?1 AND EXISTS (SELECT 1 FROM ratings d WHERE d.player_id = ?2
             AND d.scope = ratings.scope AND d.variant = ratings.variant AND d.games > ratings.games)",
        params![into, from],
    )?;
    tx.execute(
        "DELETE FROM ratings WHERE player_id = ?2 AND EXISTS (SELECT 1 FROM ratings k WHERE k.player_id = ?1
             AND k.scope = ratings.scope AND k.variant = ratings.variant)",
        params![into, from],
    )?;
    tx.execute("UPDATE ratings SET player_id = ?1 WHERE player_id = ?2", params![into, from])?;
    tx.execute("UPDATE rating_history SET player_id = ?1 WHERE player_id = ?2", params![into, from])?;
    tx.execute(
        "INSERT INTO player_merges (merged_id, kept_id, merged_at) VALUES (?1, ?2, ?3)",
        params![from, into, now],
    )?;
    Ok(())
}

/// The account (`platform`, `user_id`, shown as `name`) uses `typed`, a code made on another
/// platform: both accounts become one player.
pub fn redeem(
    conn: &Connection,
    typed: &str,
    platform: &str,
    user_id: &str,
    name: &str,
    now: i64,
) -> Result<Answer<Linked>> {
    let code = match LinkCode::parse(typed) {
        Ok(c) => c,
        Err(e) => return Ok(Err(e)),
    };
    // The typing account becomes a player first (in its own transaction) even if linking fails.
    players::ensure(conn, platform, user_id, name, now)?;
    let tx = super::immediate(conn)?;
    let row: Option<(String, String, i64, Option<i64>)> = tx
        .query_row(
            "SELECT platform, user_id, expires_at, used_at FROM link_codes WHERE code = ?1",
            [code.as_str()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?;
    let Some((code_platform, code_user, expires_at, used_at)) = row else { return Ok(Err(LinkError::Unknown)) };
    let refusal = if used_at.is_some() {
        Some(LinkError::AlreadyUsed)
    } else if expires_at <= now {
        Some(LinkError::Expired)
    } else if (code_platform.as_str(), code_user.as_str()) == (platform, user_id) {
        Some(LinkError::SameAccount)
    } else if code_platform == platform {
        Some(LinkError::SamePlatform)
    } else {
        None
    };
    if let Some(e) = refusal {
        return Ok(Err(e));
    }
    let Some(owner) = players::find(&tx, &code_platform, &code_user)? else { return Ok(Err(LinkError::Unknown)) };
    let Some(user) = players::find(&tx, platform, user_id)? else { return Ok(Err(LinkError::UnknownAccount)) };
    if owner.id == user.id {
        return Ok(Err(LinkError::AlreadyLinked));
    }
    let theirs = platforms_of(&tx, owner.id)?;
    if let Some(p) = platforms_of(&tx, user.id)?.into_iter().find(|p| theirs.contains(p)) {
        return Ok(Err(LinkError::TwoAccountsOn(p)));
    }
    if histories_meet(&tx, owner.id, user.id)? {
        return Ok(Err(LinkError::HistoriesMeet));
    }
    let created = |id: PlayerId| -> Result<i64> {
        Ok(tx.query_row("SELECT created_at FROM players WHERE id = ?1", [id], |r| r.get(0))?)
    };
    let (keep, drop) = if (created(owner.id)?, owner.id) <= (created(user.id)?, user.id) {
        (owner.id, user.id)
    } else {
        (user.id, owner.id)
    };
    merge(&tx, keep, drop, now)?;
    tx.execute("UPDATE link_codes SET used_at = ?2 WHERE code = ?1", params![code.as_str(), now])?;
    tx.commit()?;
    Ok(Ok(Linked { player: keep, merged: Some(drop) }))
}

/// A code typed where others read it: it no longer works (whoever read it could have used it).
/// Says nothing of whether the code existed.
pub fn burn(conn: &Connection, typed: &str, now: i64) -> Result<()> {
    if let Ok(code) = LinkCode::parse(typed) {
        conn.execute(
            "UPDATE link_codes SET used_at = ?2 WHERE code = ?1 AND used_at IS NULL",
            params![code.as_str(), now],
        )?;
    }
    Ok(())
}

/// Detaches the account (`platform`, `user_id`) from its player, giving it a new player named
/// `name`; the shared history stays with the old player. Returns the new player.
pub fn unlink(conn: &Connection, platform: &str, user_id: &str, name: &str, now: i64) -> Result<Answer<PlayerId>> {
    let tx = super::immediate(conn)?;
    let Some(p) = players::find(&tx, platform, user_id)? else { return Ok(Err(LinkError::UnknownAccount)) };
    let accounts: i64 = tx.query_row("SELECT count(*) FROM accounts WHERE player_id = ?1", [p.id], |r| r.get(0))?;
    if accounts < 2 {
        return Ok(Err(LinkError::NotLinked));
    }
    let new: i64 = tx.query_row(
        "INSERT INTO players (name, is_ai, created_at) VALUES (?1, 0, ?2) RETURNING id",
        params![name, now],
        |r| r.get(0),
    )?;
    tx.execute(
        "UPDATE accounts SET player_id = ?1 WHERE platform = ?2 AND user_id = ?3",
        params![new, platform, user_id],
    )?;
    tx.commit()?;
    Ok(Ok(new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, Outcome, WinReason};
    use crate::store::games::{self, Status};
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, ladders::test_game};

    on_both_backends!(a_code_links_two_accounts_once, refusals, merging_keeps_both_histories_under_the_older_player);

    fn code_for(c: &Connection, platform: &str, user: &str, now: i64) -> String {
        create_code(c, platform, user, now).unwrap().unwrap().to_string()
    }

    fn a_code_links_two_accounts_once(store: &Store) {
        let c = store.conn().unwrap();
        assert_eq!(create_code(&c, "discord", "1", 0).unwrap(), Err(LinkError::UnknownAccount));
        let alice = players::ensure(&c, "discord", "1", "alice", 10).unwrap();
        let code = code_for(&c, "discord", "1", 100);
        // The new Matrix account has no player yet: it is created and merged into alice.
        let linked = redeem(&c, &code.to_lowercase(), "matrix", "@a:x", "alice", 200).unwrap().unwrap();
        assert_eq!(linked.player, alice.id);
        assert_eq!(players::find(&c, "matrix", "@a:x").unwrap().unwrap().id, alice.id);
        assert_eq!(redeem(&c, &code, "matrix", "@b:x", "bob", 201).unwrap(), Err(LinkError::AlreadyUsed));
        assert_eq!(redeem(&c, "ABCD-EFGH", "matrix", "@b:x", "b", 201).unwrap(), Err(LinkError::Unknown));
        assert_eq!(redeem(&c, "nope", "matrix", "@b:x", "b", 201).unwrap(), Err(LinkError::Malformed));
    }

    fn refusals(store: &Store) {
        let c = store.conn().unwrap();
        players::ensure(&c, "discord", "1", "alice", 10).unwrap();
        players::ensure(&c, "discord", "2", "bob", 10).unwrap();
        let code = code_for(&c, "discord", "1", 100);
        assert_eq!(redeem(&c, &code, "discord", "1", "a", 101).unwrap(), Err(LinkError::SameAccount));
        assert_eq!(redeem(&c, &code, "discord", "2", "b", 101).unwrap(), Err(LinkError::SamePlatform));
        assert_eq!(
            redeem(&c, &code, "matrix", "@a:x", "a", 100 + CODE_LIFETIME_SECS).unwrap(),
            Err(LinkError::Expired)
        );
        // Asking again replaces the old code.
        let old = code_for(&c, "discord", "1", 1000);
        let new = code_for(&c, "discord", "1", 1001);
        assert_eq!(redeem(&c, &old, "matrix", "@a:x", "a", 1002).unwrap(), Err(LinkError::Unknown));
        redeem(&c, &new, "matrix", "@a:x", "a", 1002).unwrap().unwrap();
        let again = code_for(&c, "discord", "1", 1003);
        assert_eq!(redeem(&c, &again, "matrix", "@a:x", "a", 1004).unwrap(), Err(LinkError::AlreadyLinked));
        // Bob's Discord account cannot join alice, who already has one on Discord.
        let code = code_for(&c, "matrix", "@a:x", 1005);
        assert_eq!(
            redeem(&c, &code, "discord", "2", "b", 1006).unwrap(),
            Err(LinkError::TwoAccountsOn("discord".into()))
        );
        // Accounts that played each other are not merged.
        let carol = players::ensure(&c, "console", "carol", "carol", 10).unwrap().id;
        let dave = players::ensure(&c, "matrix", "@d:x", "dave", 10).unwrap().id;
        test_game(&c, carol, dave);
        let code = code_for(&c, "console", "carol", 1007);
        assert_eq!(redeem(&c, &code, "matrix", "@d:x", "dave", 1008).unwrap(), Err(LinkError::HistoriesMeet));
        // A refusal does not use the code up: the right account can still use it.
        assert_eq!(redeem(&c, &code, "telegram", "9", "c", 1009).unwrap().unwrap().player, carol);
        // Nor those whose game together is over, finished or aborted (an index of its own since
        // migration 27), whichever colour each had.
        for (i, over) in [Status::Finished, Status::Aborted].into_iter().enumerate() {
            let n = 10 + i as i64;
            let erin = players::ensure(&c, "console", &format!("erin{n}"), "erin", n).unwrap().id;
            let fred = players::ensure(&c, "matrix", &format!("@f{n}:x"), "fred", n).unwrap().id;
            let game = test_game(&c, fred, erin);
            let now = 1010 + n;
            match over {
                Status::Finished => {
                    let resign = Outcome::Decisive { winner: Color::White, reason: WinReason::Resignation };
                    assert!(games::finish(&c, game, 0, resign, now, &mut games::no_end_hook).unwrap());
                }
                _ => assert!(games::abort(&c, game, 0, now).unwrap()),
            }
            let code = code_for(&c, "console", &format!("erin{n}"), now);
            let refused = redeem(&c, &code, "matrix", &format!("@f{n}:x"), "fred", now).unwrap();
            assert_eq!(refused, Err(LinkError::HistoriesMeet), "{over:?}");
        }
    }

    /// Whether two players have met is read from the indexes of open games and of games over
    /// (SQLite's plan), never by reading every game.
    #[test]
    fn whether_two_players_met_is_read_from_indexes() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = crate::store::testing::sqlite_plan(&conn, HISTORIES_MEET);
        assert!(!plan.contains("SCAN games"), "{plan}");
        // Each of the four looks at the games by one of its players (either side's index will do).
        let open = plan.matches("SEARCH games USING INDEX games_white_open").count()
            + plan.matches("SEARCH games USING INDEX games_black_open").count();
        let over = plan.matches("SEARCH games USING INDEX games_white_done").count()
            + plan.matches("SEARCH games USING INDEX games_black_done").count();
        assert_eq!((open, over), (2, 2), "{plan}");
    }

    fn merging_keeps_both_histories_under_the_older_player(store: &Store) {
        let c = store.conn().unwrap();
        let old = players::ensure(&c, "discord", "1", "alice", 10).unwrap().id;
        let new = players::ensure(&c, "matrix", "@a:x", "alice m", 20).unwrap().id;
        let other = players::ensure(&c, "discord", "3", "bob", 5).unwrap().id;
        let g1 = test_game(&c, old, other);
        let g2 = test_game(&c, other, new);
        let l = crate::store::ladders::create(&c, "matrix", "!r", "chess", Default::default(), 0).unwrap().unwrap();
        crate::store::ladders::update(&c, l, |ladder| ladder.join(new, 30)).unwrap().unwrap();
        for (player, variant, rating, games) in [
            (old, "chess", 1500.0, 2),
            (new, "chess", 1700.0, 5),
            (old, "atomic", 1600.0, 3),
            (new, "atomic", 1400.0, 3),
        ] {
            c.execute(
                "INSERT INTO ratings (player_id, scope, variant, rating, deviation, volatility, games, wins)
                 VALUES (?1, '', ?2, ?3, 100, 0.06, ?4, ?4)",
                params![player, variant, rating, games],
            )
            .unwrap();
        }
        // The code comes from the newer account; the older player is kept all the same.
        let code = code_for(&c, "matrix", "@a:x", 100);
        let linked = redeem(&c, &code, "discord", "1", "alice", 101).unwrap().unwrap();
        assert_eq!(linked, Linked { player: old, merged: Some(new) });
        for (platform, user) in [("discord", "1"), ("matrix", "@a:x")] {
            assert_eq!(players::find(&c, platform, user).unwrap().unwrap().id, old);
        }
        fn sides(c: &Connection, g: i64) -> (PlayerId, PlayerId) {
            c.query_row("SELECT white_id, black_id FROM games WHERE id = ?1", [g], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
        }
        assert_eq!((sides(&c, g1), sides(&c, g2)), ((old, other), (other, old)));
        assert_eq!(crate::store::ladders::load(&c, l).unwrap().unwrap().standings(), [old]);
        // The standings the ladder keeps name the kept player too (before: the merged one's id).
        let now = crate::store::ladders::current_in(&c, "matrix", "!r").unwrap();
        assert_eq!(now[0].standings, [old]);
        let merged: PlayerId =
            c.query_row("SELECT kept_id FROM player_merges WHERE merged_id = ?1", [new], |r| r.get(0)).unwrap();
        assert_eq!(merged, old);
        // Ratings: in chess the newer player had more games and its rating is kept; in atomic the older.
        let ratings: Vec<(String, f64, i64)> = c
            .prepare_cached("SELECT variant, rating, games FROM ratings WHERE player_id = ?1 ORDER BY variant")
            .unwrap()
            .query_map([old], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<std::result::Result<_, _>>()
            .unwrap();
        assert_eq!(ratings, [("atomic".to_string(), 1600.0, 3), ("chess".to_string(), 1700.0, 5)]);
        let rows: i64 = c.query_row("SELECT count(*) FROM ratings WHERE player_id = ?1", [new], |r| r.get(0)).unwrap();
        assert_eq!(rows, 0);
        // Unlinking gives the Matrix account a fresh player; the history stays with alice.
        let fresh = unlink(&c, "matrix", "@a:x", "alice m", 200).unwrap().unwrap();
        assert!(fresh != old && fresh != new);
        assert_eq!(players::find(&c, "matrix", "@a:x").unwrap().unwrap().id, fresh);
        assert_eq!(sides(&c, g2), (other, old));
        assert_eq!(unlink(&c, "matrix", "@a:x", "x", 201).unwrap(), Err(LinkError::NotLinked));
        assert_eq!(unlink(&c, "matrix", "@nobody", "x", 201).unwrap(), Err(LinkError::UnknownAccount));
    }
}

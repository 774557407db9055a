//! Players and their platform accounts. A player is found by (platform, user id); capabot's own AI
//! is a player too, on the pseudo-platform `capabot`.

use super::Result;
use crate::store::sql::{Connection, OptionalExtension, Row, params, query_by_ids};
use std::collections::HashMap;

/// Player id (the `players.id` column).
pub type PlayerId = i64;

/// A stored player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    pub is_ai: bool,
}

/// The platform and user id under which capabot's AI is stored.
pub const AI_PLATFORM: &str = "capabot";
/// User id of capabot's AI on [`AI_PLATFORM`].
pub const AI_USER: &str = "ai";

/// Finds the player behind an account, without creating one. In a unit of work the player found is
/// also kept as [`get`]'s answer for its id, and their settings as [`lang`]'s and [`dm_notices`]'.
pub fn find(conn: &Connection, platform: &str, user_id: &str) -> Result<Option<Player>> {
    let found = conn.query_opt_in_unit(FOUND_IN, FIND, params![platform, user_id], with_prefs)?;
    keep_found_parts(conn, &found);
    Ok(found.map(|(p, _)| p))
}

/// [`find`]'s statement, the key of its answers kept in a unit of work, and the tables it reads.
const FIND: &str =
    "SELECT p.id, p.name, p.is_ai, pp.lang, pp.dm_notices FROM accounts a JOIN players p ON p.id = a.player_id
         LEFT JOIN player_prefs pp ON pp.player_id = p.id WHERE a.platform = ?1 AND a.user_id = ?2";
const FOUND_IN: &[&str] = &["accounts", "players", "player_prefs"];

/// The columns [`find`] reads, for a statement that reads them beside others (with `accounts a`
/// left-joined to `players p` and `player_prefs pp`): see [`keep_found`].
pub(super) const FOUND_COLUMNS: &str = "p.id, p.name, p.is_ai, pp.lang, pp.dm_notices";

/// Keeps, in a unit of work, what another statement read of the person behind an account
/// ([`FOUND_COLUMNS`] from column `at`; no account: nulls) as [`find`]'s answer.
pub(super) fn keep_found(
    conn: &Connection,
    platform: &str,
    user_id: &str,
    r: &Row<'_>,
    at: usize,
) -> crate::store::sql::Result<()> {
    let found = match r.get::<Option<PlayerId>>(at)? {
        Some(_) => Some(with_prefs_at(r, at)?),
        None => None,
    };
    conn.keep_in_unit(FOUND_IN, FIND, params![platform, user_id], found.clone());
    keep_found_parts(conn, &found);
    Ok(())
}

/// The player found by account also kept as [`get`]'s answer for their id, their settings as
/// [`lang`]'s and [`dm_notices`]'.
fn keep_found_parts(conn: &Connection, found: &Option<(Player, Prefs)>) {
    if let Some((p, prefs)) = found {
        conn.keep_in_unit(&["players", "player_prefs"], GET, [p.id], Some((p.clone(), prefs.clone())));
        keep_prefs(conn, p.id, prefs);
    }
}

/// A player and their settings, as [`find`] and [`get`] read them (one statement for both: a move
/// asks for its players' names and for their languages and notices).
fn with_prefs(r: &Row<'_>) -> crate::store::sql::Result<(Player, Prefs)> {
    with_prefs_at(r, 0)
}

/// [`with_prefs`] from column `at` on.
fn with_prefs_at(r: &Row<'_>, at: usize) -> crate::store::sql::Result<(Player, Prefs)> {
    let player = Player { id: r.get(at)?, name: r.get(at + 1)?, is_ai: r.get(at + 2)? };
    Ok((player, Prefs { lang: r.get(at + 3)?, dm_notices: r.get(at + 4)? }))
}

/// Finds or creates the player behind an account; updates the display name when it changed.
pub fn ensure(conn: &Connection, platform: &str, user_id: &str, name: &str, now: i64) -> Result<Player> {
    if let Some(p) = find(conn, platform, user_id)? {
        if p.name != name && !name.is_empty() {
            conn.execute("UPDATE players SET name = ?1 WHERE id = ?2", params![name, p.id])?;
            return Ok(Player { name: name.to_string(), ..p });
        }
        return Ok(p);
    }
    let is_ai = platform == AI_PLATFORM;
    let tx = super::immediate(conn)?;
    let id: i64 = tx.query_row(
        "INSERT INTO players (name, is_ai, created_at) VALUES (?1, ?2, ?3) RETURNING id",
        params![name, is_ai, now],
        |r| r.get(0),
    )?;
    let inserted = tx.execute(
        "INSERT INTO accounts (platform, user_id, player_id) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
        params![platform, user_id, id],
    )?;
    if inserted == 0 {
        // Another connection created the account first: use theirs.
        drop(tx);
        return find(conn, platform, user_id)?.ok_or_else(|| super::StoreError::Corrupt("account vanished".into()));
    }
    tx.commit()?;
    Ok(Player { id, name: name.to_string(), is_ai })
}

/// capabot's AI player, created on first use.
pub fn ai(conn: &Connection, now: i64) -> Result<Player> {
    ensure(conn, AI_PLATFORM, AI_USER, "capabot", now)
}

/// [`get`]'s statement, the key of its answers kept in a unit of work.
const GET: &str = "SELECT p.id, p.name, p.is_ai, pp.lang, pp.dm_notices FROM players p
     LEFT JOIN player_prefs pp ON pp.player_id = p.id WHERE p.id = ?1";

/// A player by id. In a unit of work their settings are kept as [`lang`]'s and [`dm_notices`]'.
pub fn get(conn: &Connection, id: PlayerId) -> Result<Option<Player>> {
    let found = conn.query_opt_in_unit(&["players", "player_prefs"], GET, [id], with_prefs)?;
    if let Some((p, prefs)) = &found {
        keep_prefs(conn, p.id, prefs);
    }
    Ok(found.map(|(p, _)| p))
}

/// [`accounts_on`]'s statement, the key of its answers kept in a unit of work.
const ACCOUNTS_ON: &str = "SELECT user_id FROM accounts WHERE player_id = ?1 AND platform = ?2";

/// [`read_pair`]'s statement: each player looked up by their id, the two joined by `UNION ALL`
/// (not `p.id IN (?1, ?2)`, which SQLite walks from a temporary b-tree made and dropped with a page
/// cache of its own: `docs/scale.md`, "The tick's own costs"), in the order of the id and the
/// account, which each part reads in that order from its indexes.
pub(crate) static READ_PAIR: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("{} ORDER BY 1, 6", pair_sql("?1", "?2", "?3")));

/// [`READ_PAIR`] without its order, for the players `a` and `b` and the platform `platform`, each
/// an expression (parameters, or a row's columns where a statement reads the pair with a game it
/// wrote: [`crate::store::games::apply_move`] on PostgreSQL). Its columns: [`with_prefs`]' five,
/// then the account on the platform, if any.
pub(crate) fn pair_sql(a: &str, b: &str, platform: &str) -> String {
    let one = |id: &str| {
        format!(
            "SELECT p.id, p.name, p.is_ai, pp.lang, pp.dm_notices, a.user_id FROM players p
             LEFT JOIN player_prefs pp ON pp.player_id = p.id
             LEFT JOIN accounts a ON a.player_id = p.id AND a.platform = {platform}
             WHERE p.id = {id}"
        )
    };
    // The second part reads nothing when both are one player (as `p.id IN (?1, ?2)` read them once).
    format!("{} UNION ALL {}", one(a), one(&format!("{b} AND {b} <> {a}")))
}

/// What a row of [`pair_sql`]'s statement holds from column `at` on.
pub(crate) type PairRow = (Player, Prefs, Option<String>);

/// A row of [`pair_sql`]'s statement, its columns from `at` on.
pub(crate) fn pair_row_at(r: &Row<'_>, at: usize) -> crate::store::sql::Result<PairRow> {
    let (p, prefs) = with_prefs_at(r, at)?;
    Ok((p, prefs, r.get(at + 5)?))
}

/// The two players of a game with their settings and their accounts on `platform`, in one
/// statement, kept in a unit of work as [`get`]'s, [`lang`]'s, [`dm_notices`]' and [`accounts_on`]'s
/// answers for each (a game's end names both players and notifies their accounts: four statements
/// and two more for their settings, where this is one). Outside a unit it only reads. Nothing is
/// read when the unit has kept both already ([`keep_pair`]: a move's statement read them on
/// PostgreSQL).
pub fn read_pair(conn: &Connection, platform: &str, a: PlayerId, b: PlayerId) -> Result<()> {
    let kept =
        |id: PlayerId| conn.is_kept_in_unit(GET, [id]) && conn.is_kept_in_unit(ACCOUNTS_ON, params![id, platform]);
    if kept(a) && kept(b) {
        return Ok(());
    }
    let rows: Vec<PairRow> = conn.query_all(&READ_PAIR, params![a, b, platform], |r| pair_row_at(r, 0))?;
    keep_pair(conn, platform, a, b, &rows);
    Ok(())
}

/// Keeps `rows` ([`pair_sql`]'s for `a`, `b` and `platform`, in any order) in the unit of work as
/// [`read_pair`] does.
pub(crate) fn keep_pair(conn: &Connection, platform: &str, a: PlayerId, b: PlayerId, rows: &[PairRow]) {
    for id in [a, b] {
        let mine: Vec<&PairRow> = rows.iter().filter(|(p, ..)| p.id == id).collect();
        let found = mine.first().map(|(p, prefs, _)| (p.clone(), prefs.clone()));
        if let Some((_, prefs)) = &found {
            keep_prefs(conn, id, prefs);
        }
        conn.keep_in_unit(&["players", "player_prefs"], GET, [id], found);
        let accounts: Vec<String> = mine.iter().filter_map(|(.., user)| user.clone()).collect();
        conn.keep_all_in_unit(&["accounts"], ACCOUNTS_ON, params![id, platform], accounts);
    }
}

/// Players by id, read in one statement for up to [`IN_LIST_MAX`](crate::store::sql::IN_LIST_MAX) of them (a web page's names);
/// an id with no player is not in the map.
pub fn get_many(conn: &Connection, ids: &[PlayerId]) -> Result<HashMap<PlayerId, Player>> {
    let sql = |list: &str| format!("SELECT id, name, is_ai FROM players WHERE id IN ({list})");
    let found = query_by_ids(conn, ids, sql, |r| Ok(Player { id: r.get(0)?, name: r.get(1)?, is_ai: r.get(2)? }))?;
    Ok(found.into_iter().map(|p| (p.id, p)).collect())
}

/// Links another platform account to an existing player.
pub fn link(conn: &Connection, player: PlayerId, platform: &str, user_id: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO accounts (platform, user_id, player_id) VALUES (?1, ?2, ?3)
         ON CONFLICT (platform, user_id) DO UPDATE SET player_id = excluded.player_id",
        params![platform, user_id, player],
    )?;
    Ok(())
}

/// The account ids of a player on one platform (for notifications).
pub fn accounts_on(conn: &Connection, player: PlayerId, platform: &str) -> Result<Vec<String>> {
    Ok(conn.query_all_in_unit(&["accounts"], ACCOUNTS_ON, params![player, platform], |r| r.get(0))?)
}

/// A player's own settings, as stored (none chosen: `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Prefs {
    lang: Option<String>,
    dm_notices: Option<bool>,
}

/// [`prefs`]' statement, the key of its answers kept in a unit of work.
const PREFS: &str = "SELECT lang, dm_notices FROM player_prefs WHERE player_id = ?1";

/// A player's settings, read once for both ([`lang`], [`dm_notices`]); in a unit of work usually
/// kept already from reading the player ([`find`], [`get`]).
fn prefs(conn: &Connection, player: PlayerId) -> Result<Prefs> {
    Ok(conn
        .query_opt_in_unit(&["player_prefs"], PREFS, [player], |r| {
            Ok(Prefs { lang: r.get(0)?, dm_notices: r.get(1)? })
        })?
        .unwrap_or_default())
}

/// Keeps `prefs` as [`prefs`]' answer for `player` in the unit of work, if any.
fn keep_prefs(conn: &Connection, player: PlayerId, prefs: &Prefs) {
    conn.keep_in_unit(&["player_prefs"], PREFS, [player], Some(prefs.clone()));
}

/// Whether a player wants reminders and "your move" notices in their direct messages (default yes).
pub fn dm_notices(conn: &Connection, player: PlayerId) -> Result<bool> {
    Ok(prefs(conn, player)?.dm_notices.unwrap_or(true))
}

/// Turns a player's direct-message notices on or off.
pub fn set_dm_notices(conn: &Connection, player: PlayerId, on: bool) -> Result<()> {
    conn.execute(
        "INSERT INTO player_prefs (player_id, dm_notices) VALUES (?1, ?2)
         ON CONFLICT (player_id) DO UPDATE SET dm_notices = excluded.dm_notices",
        params![player, on],
    )?;
    Ok(())
}

/// A person's own language (`en`, `tr`), when they chose one.
pub fn lang(conn: &Connection, player: PlayerId) -> Result<Option<String>> {
    Ok(prefs(conn, player)?.lang)
}

/// Sets (or with `None` forgets) a person's own language.
pub fn set_lang(conn: &Connection, player: PlayerId, lang: Option<&str>) -> Result<()> {
    set_pref(conn, player, OwnPref::Lang, lang)
}

/// A person's own setting kept as text in `player_prefs`.
#[derive(Clone, Copy)]
enum OwnPref {
    Lang,
    Theme,
}

/// Sets (or with `None` forgets) one of a person's own settings, the others kept.
fn set_pref(conn: &Connection, player: PlayerId, which: OwnPref, value: Option<&str>) -> Result<()> {
    let sql = match which {
        OwnPref::Lang => {
            "INSERT INTO player_prefs (player_id, lang) VALUES (?1, ?2)
             ON CONFLICT (player_id) DO UPDATE SET lang = excluded.lang"
        }
        OwnPref::Theme => {
            "INSERT INTO player_prefs (player_id, theme) VALUES (?1, ?2)
             ON CONFLICT (player_id) DO UPDATE SET theme = excluded.theme"
        }
    };
    conn.execute(sql, params![player, value])?;
    Ok(())
}

/// A person's own board theme, for the pictures only they read (none chosen: `None`). Read on its
/// own: only a picture for someone's direct messages asks.
pub fn theme(conn: &Connection, player: PlayerId) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT theme FROM player_prefs WHERE player_id = ?1")?
        .query_row([player], |r| r.get::<Option<String>>(0))
        .optional()?
        .flatten())
}

/// Sets (or with `None` forgets) a person's own board theme.
pub fn set_theme(conn: &Connection, player: PlayerId, theme: Option<&str>) -> Result<()> {
    set_pref(conn, player, OwnPref::Theme, theme)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::testing::on_both_backends;

    on_both_backends!(
        ensure_is_idempotent_and_renames,
        many_players_are_read_at_once,
        a_unit_reads_a_row_once_until_it_writes_its_table,
        the_tables_a_delete_cascades_from_are_listed_and_triggers_write_only_their_own_table,
        a_games_two_players_and_their_accounts_are_read_in_one_statement
    );

    /// `read_pair` keeps both players, their settings and their accounts on the platform as the
    /// answers of `get`, `lang`, `dm_notices` and `accounts_on`: one statement for all of them; a
    /// player without an account there has none, and a write to `accounts` is seen.
    fn a_games_two_players_and_their_accounts_are_read_in_one_statement(store: &Store) {
        use crate::store::sql::statements_sent;
        let c = store.conn().unwrap();
        let ann = ensure(&c, "t", "u1", "Ann", 0).unwrap();
        link(&c, ann.id, "t", "u1-alt").unwrap();
        let bob = ensure(&c, "other", "b1", "Bob", 0).unwrap();
        set_lang(&c, bob.id, Some("tr")).unwrap();
        drop(c);
        store
            .unit(|| {
                let c = store.conn()?;
                let sent = statements_sent();
                read_pair(&c, "t", ann.id, bob.id)?;
                assert_eq!(get(&c, ann.id)?.unwrap().name, "Ann");
                assert_eq!(get(&c, bob.id)?.unwrap().name, "Bob");
                assert_eq!(accounts_on(&c, ann.id, "t")?, vec!["u1".to_string(), "u1-alt".to_string()]);
                assert_eq!(accounts_on(&c, bob.id, "t")?, Vec::<String>::new());
                assert_eq!((lang(&c, ann.id)?, lang(&c, bob.id)?), (None, Some("tr".to_string())));
                assert!(dm_notices(&c, bob.id)?);
                assert_eq!(statements_sent() - sent, 1, "everything from the one statement");
                link(&c, bob.id, "t", "b1-here")?;
                assert_eq!(accounts_on(&c, bob.id, "t")?, vec!["b1-here".to_string()]);
                // One player named twice: their accounts once.
                read_pair(&c, "t", ann.id, ann.id)?;
                assert_eq!(accounts_on(&c, ann.id, "t")?, vec!["u1".to_string(), "u1-alt".to_string()]);
                Ok(())
            })
            .unwrap();
    }

    /// What a unit of work keeps is forgotten by the statements that write it, by name
    /// ([`crate::store::sql::UnitReads`]): that holds only while nothing writes a table unnamed —
    /// no trigger writing another table than its own, and every table that others refer to with `ON DELETE CASCADE` listed in
    /// [`crate::store::sql::CASCADE_PARENTS`] (a `DELETE` from one forgets everything).
    fn the_tables_a_delete_cascades_from_are_listed_and_triggers_write_only_their_own_table(store: &Store) {
        use crate::store::sql::{CASCADE_PARENTS, Dialect};
        let c = store.conn().unwrap();
        let (parents, triggers): (Vec<String>, Vec<(String, String)>) = match c.dialect() {
            Dialect::Sqlite => {
                let tables: Vec<String> =
                    c.query_all("SELECT name FROM sqlite_master WHERE type = 'table'", (), |r| r.get(0)).unwrap();
                let mut parents = Vec::new();
                for t in tables {
                    // (id, seq, table, from, to, on_update, on_delete, match)
                    let fks: Vec<(String, String, String)> = c
                        .query_all(
                            &format!("SELECT \"table\", on_update, on_delete FROM pragma_foreign_key_list('{t}')"),
                            (),
                            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                        )
                        .unwrap();
                    for (parent, on_update, on_delete) in fks {
                        assert_ne!(on_update, "CASCADE", "{t} → {parent}: an update would reach {t} unnamed");
                        if on_delete == "CASCADE" {
                            parents.push(parent);
                        }
                    }
                }
                // A trigger's body, after its `BEGIN`.
                let triggers: Vec<(String, String)> = c
                    .query_all(
                        "SELECT tbl_name, substr(sql, instr(upper(sql), 'BEGIN')) FROM sqlite_master WHERE type = 'trigger'",
                        (),
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .unwrap();
                (parents, triggers)
            }
            Dialect::Postgres => {
                let parents = c
                    .query_all(
                        "SELECT confrelid::regclass::text FROM pg_constraint WHERE contype = 'f' AND confdeltype = 'c'",
                        (),
                        |r| r.get(0),
                    )
                    .unwrap();
                let updates: i64 = c
                    .query_row(
                        "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND confupdtype = 'c'",
                        (),
                        |r| r.get(0),
                    )
                    .unwrap();
                assert_eq!(updates, 0, "no update cascades");
                let triggers = c
                    .query_all(
                        "SELECT t.tgrelid::regclass::text, p.prosrc FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
                         WHERE NOT t.tgisinternal",
                        (),
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .unwrap();
                (parents, triggers)
            }
        };
        assert!(parents.len() >= 3, "the schema's cascades are found: {parents:?}");
        for parent in &parents {
            assert!(CASCADE_PARENTS.contains(&parent.as_str()), "{parent} is referred to with ON DELETE CASCADE");
        }
        // A trigger may write only the table it is on (`games_due_sooner`, migration 39: a game's
        // `due_from`), which the statement that fires it names.
        assert!(!triggers.is_empty(), "the schema's triggers are found");
        for (table, body) in &triggers {
            let words: Vec<String> = body
                .split(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_ascii_lowercase)
                .collect();
            for (i, w) in words.iter().enumerate() {
                let written = match w.as_str() {
                    "update" => words.get(i + 1),
                    "insert" | "delete" => words.get(i + 2),
                    _ => continue,
                };
                assert_eq!(written, Some(table), "a trigger on {table} writes another table unnamed: {body}");
            }
        }
    }

    /// Inside a unit of work a player, their account and their language are read once (the language
    /// with the player, the player with the account), and read
    /// again after a statement of the unit writes their table (then with the new value), after a
    /// `DELETE` of anything, and after a rollback to a savepoint; outside a unit, and in the next
    /// unit, every read goes to the database.
    fn a_unit_reads_a_row_once_until_it_writes_its_table(store: &Store) {
        use crate::store::sql::{reads_kept, statements_sent};
        let p = ensure(&store.conn().unwrap(), "t", "u1", "Ann", 0).unwrap();
        let other = ensure(&store.conn().unwrap(), "t", "u2", "Bob", 0).unwrap();
        // (statements sent, reads answered from the unit) since `from`
        let since = |from: (u64, u64)| (statements_sent() - from.0, reads_kept() - from.1);
        let now = || (statements_sent(), reads_kept());
        store
            .unit(|| {
                let c = store.conn()?;
                let t = now();
                assert_eq!(get(&c, p.id)?.unwrap().name, "Ann");
                assert_eq!(get(&c, p.id)?.unwrap().name, "Ann");
                assert_eq!(find(&c, "t", "u1")?.unwrap().id, p.id);
                assert_eq!(find(&c, "t", "u1")?.unwrap().id, p.id);
                assert_eq!(lang(&c, p.id)?, None);
                assert_eq!(lang(&c, p.id)?, None);
                assert_eq!(accounts_on(&c, p.id, "t")?, vec!["u1".to_string()]);
                assert_eq!(accounts_on(&c, p.id, "t")?, vec!["u1".to_string()]);
                // The player's language comes with the player, the player with the account.
                assert_eq!(since(t), (3, 5), "each read once, then from the unit");
                // Another id is another read.
                assert_eq!(get(&c, other.id)?.unwrap().name, "Bob");
                assert_eq!(since(t), (4, 5));
                // Writing `players` forgets the players read (and the join that reads it), not
                // the languages.
                let t = now();
                ensure(&c, "t", "u1", "Anna", 0)?;
                assert_eq!(get(&c, p.id)?.unwrap().name, "Anna");
                assert_eq!(find(&c, "t", "u1")?.unwrap().name, "Anna");
                assert_eq!(lang(&c, p.id)?, None);
                // ensure's find (kept), its UPDATE, then get and find read again; lang is kept.
                assert_eq!(since(t), (3, 2));
                let t = now();
                set_lang(&c, p.id, Some("tr"))?;
                assert_eq!(lang(&c, p.id)?.as_deref(), Some("tr"), "the unit's own change is read");
                // The player was read with their settings: read again.
                assert_eq!(get(&c, p.id)?.unwrap().name, "Anna");
                assert_eq!(since(t), (3, 0));
                // A DELETE from a table others refer to with ON DELETE CASCADE forgets everything;
                // another forgets by name.
                let t = now();
                c.execute("DELETE FROM offers WHERE game_id = ?1", [0])?;
                get(&c, p.id)?;
                assert_eq!(since(t), (1, 1));
                let t = now();
                c.execute("DELETE FROM games WHERE id = ?1", [0])?;
                get(&c, p.id)?;
                lang(&c, p.id)?;
                assert_eq!(since(t), (2, 1), "the language read again with the player");
                // A rollback to a savepoint forgets what was read after the change it undoes.
                {
                    let tx = crate::store::immediate(&c)?;
                    set_lang(&tx, p.id, Some("en"))?;
                    assert_eq!(lang(&tx, p.id)?.as_deref(), Some("en"));
                }
                assert_eq!(lang(&c, p.id)?.as_deref(), Some("tr"), "the rolled-back change is not kept");
                Ok(())
            })
            .unwrap();
        // Outside a unit, and in the next one, each read goes to the database.
        let c = store.conn().unwrap();
        let t = now();
        get(&c, p.id).unwrap();
        get(&c, p.id).unwrap();
        assert_eq!(since(t), (2, 0));
        drop(c);
        store
            .unit(|| {
                let t = now();
                assert_eq!(lang(&*store.conn()?, p.id)?.as_deref(), Some("tr"));
                assert_eq!(since(t), (1, 0), "not kept from the unit before");
                Ok(())
            })
            .unwrap();
    }

    /// [`get_many`] answers what [`get`] answers player by player, for lists longer than one
    /// statement's; an unknown id is left out.
    fn many_players_are_read_at_once(store: &Store) {
        let c = store.conn().unwrap();
        let made: Vec<PlayerId> = ["a", "b", "c"].iter().map(|n| ensure(&c, "t", n, n, 0).unwrap().id).collect();
        let mut asked: Vec<PlayerId> = (1000..1070).collect();
        asked.extend(&made);
        asked.push(made[1]);
        let found = get_many(&c, &asked).unwrap();
        assert_eq!(found.len(), 3, "{found:?}");
        for id in asked {
            assert_eq!(found.get(&id), get(&c, id).unwrap().as_ref(), "{id}");
        }
    }

    fn ensure_is_idempotent_and_renames(store: &Store) {
        let c = store.conn().unwrap();
        assert_eq!(find(&c, "console", "alice").unwrap(), None);
        let a = ensure(&c, "console", "alice", "Alice", 1).unwrap();
        let b = ensure(&c, "console", "alice", "Alice B", 2).unwrap();
        assert_eq!(a.id, b.id);
        assert_eq!(get(&c, a.id).unwrap().unwrap().name, "Alice B");
        link(&c, a.id, "matrix", "@alice:example.org").unwrap();
        assert_eq!(find(&c, "matrix", "@alice:example.org").unwrap().unwrap().id, a.id);
        assert_eq!(accounts_on(&c, a.id, "console").unwrap(), vec!["alice".to_string()]);
        assert!(ai(&c, 3).unwrap().is_ai);
        assert!(dm_notices(&c, a.id).unwrap());
        set_dm_notices(&c, a.id, false).unwrap();
        assert!(!dm_notices(&c, a.id).unwrap());
        assert_eq!(lang(&c, a.id).unwrap(), None);
        set_lang(&c, a.id, Some("tr")).unwrap();
        assert_eq!(lang(&c, a.id).unwrap().as_deref(), Some("tr"));
        assert!(!dm_notices(&c, a.id).unwrap(), "choosing a language keeps the notices setting");
    }
}

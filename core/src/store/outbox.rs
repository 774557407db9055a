//! The transactional outbox: replies waiting to be delivered, written in the transaction of the
//! change they announce and drained by the front end of their platform.
//!
//! Rows of one chat (`chat_key`) go out in id order: a row waiting for its retry holds back the
//! later rows of its chat, so a channel never shows a move's answer after the next move's. A row
//! ends `sent` (with the platform's message id) or `failed` (a permanent failure, classified);
//! nothing is retried forever. The store keeps rows as text and bytes; the core encodes replies.
//!
//! What waits is a row's entry in `outbox_waiting` (platform, chat, id: a chat's waiting rows are
//! read from its own entries; migration 38), and a delivery takes the entry out. On SQLite, whose
//! log holds whole pages, a row (`outbox_rows`) is then written once, as queued: its delivery is a
//! small mark in `outbox_sent` (its message id and when, dozens to a page), where rewriting the
//! row wrote its page a second time (`docs/load.md`, "Delivery marks apart"). On PostgreSQL, whose
//! log holds the bytes that changed, the row itself is changed, in its own page. A row that fails
//! or waits for a retry is changed in place on both. The view `outbox` reads a row as it was read
//! before (sent once marked).
//!
//! On SQLite a reply's text is kept deflated when that is shorter ([`stored_reply`]): a row is
//! written whole into the write-ahead log's page, and a move's answer (its text board and card,
//! about 760 bytes of JSON) and its turn notice (about 320) fit one 1 KiB page together deflated
//! plain (stop 105, `docs/load.md`, "What a move writes to SQLite, page by page"), and two or three
//! moves' a page deflated with a preset dictionary of the replies' JSON ([`super::deflated`], stop
//! 107).

use super::Result;
use crate::store::sql::{Column, Connection, Dialect, OptionalExtension, Value, params};

/// A reply's text as a row of `dialect` keeps it: on SQLite deflated with a preset dictionary
/// ([`super::deflated::deflate`]) as bytes when that is shorter, else the text as it is;
/// PostgreSQL's `reply` is `text` (its log holds a row's change, not its page) and keeps the text.
pub fn stored_reply(dialect: Dialect, reply: &str) -> Option<Vec<u8>> {
    if dialect != Dialect::Sqlite {
        return None;
    }
    super::deflated::deflate(reply.as_bytes()).filter(|deflated| deflated.len() < reply.len())
}

/// The largest reply text read back from deflated bytes (a reply is a few kilobytes at most).
const REPLY_LIMIT: usize = 1 << 20;

/// A reply's text from its stored column: the text, or the bytes [`stored_reply`] deflated (with a
/// dictionary, or plain as before stop 107).
pub fn reply_text(column: Column<'_>, index: usize) -> crate::store::sql::Result<String> {
    let wrong = crate::store::sql::Error::Type { column: index, wanted: "a reply's text, or its deflated bytes" };
    match column {
        Column::Text(text) => Ok(text.into_owned()),
        Column::Bytes(bytes) => {
            super::deflated::inflate(&bytes, REPLY_LIMIT).and_then(|text| String::from_utf8(text).ok()).ok_or(wrong)
        }
        _ => Err(wrong),
    }
}

/// How long delivered and failed rows are kept (for the operator's counts).
pub const KEEP_DONE_SECS: i64 = 7 * 86_400;

/// One row waiting to be delivered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    pub id: i64,
    pub platform: String,
    pub chat_key: String,
    /// The reply as the core encoded it.
    pub reply: String,
    pub picture: Option<Vec<u8>>,
    /// Attempts made so far.
    pub attempts: u32,
    pub next_attempt_at: i64,
}

/// How long a new row is left to the process that wrote it: that process delivers it at once
/// (answering its own interaction, say); the drainers of every process take it only after this,
/// when its writer died or could not deliver it. Without it, another process's drainer could take
/// a fresh row first and post as a plain message what was an interaction's answer.
pub const WRITER_GRACE_SECS: i64 = 5;

/// Adds a row, due for the drainers after [`WRITER_GRACE_SECS`]; returns its id.
pub fn push(
    conn: &Connection,
    platform: &str,
    chat_key: &str,
    reply: &str,
    picture: Option<&[u8]>,
    now: i64,
) -> Result<i64> {
    let deflated = stored_reply(conn.dialect(), reply);
    let reply = deflated.as_deref().map_or(Value::Text(reply), Value::Bytes);
    let values = params![platform, chat_key, reply, picture, now, now + WRITER_GRACE_SECS];
    match conn.dialect() {
        Dialect::Sqlite => {
            let id = insert_row_sqlite(conn, values)?;
            conn.prepare_cached("INSERT INTO outbox_waiting (platform, chat_key, id) VALUES (?1, ?2, ?3)")?
                .execute(params![platform, chat_key, id])?;
            Ok(id)
        }
        // One statement: the row and its waiting entry.
        Dialect::Postgres => Ok(conn
            .prepare_cached(&format!(
                "WITH queued AS ({INSERT_ROW} RETURNING id, platform, chat_key),
                 waiting AS (INSERT INTO outbox_waiting (platform, chat_key, id) SELECT platform, chat_key, id FROM queued)
                 SELECT id FROM queued"
            ))?
            .query_row(values, |r| r.get(0))?),
    }
}

/// A row queued ([`push`]); its waiting entry is written beside it. Without `RETURNING`: SQLite
/// gives that from a temporary b-tree made and dropped with a page cache of its own
/// (`docs/scale.md`, "The tick's own costs"), and its rows take their id from the connection
/// ([`insert_row_sqlite`]); PostgreSQL's statements add it.
pub(crate) const INSERT_ROW: &str =
    "INSERT INTO outbox_rows (platform, chat_key, reply, picture, created_at, next_attempt_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// A row for [`push_all`]: platform, chat key, the reply's JSON and any picture beside it.
pub type NewRow<'a> = (&'a str, String, String, Option<&'a [u8]>);

/// What [`push_all`] queued: the rows' ids, in the order they were given, and on SQLite the rows
/// that waited in the same chats before them, so that the process that wrote the rows can deliver
/// them as they are, without reading them back, when no other row waits there (`Host`'s writer
/// drain). Not on PostgreSQL: there the read, inside a SERIALIZABLE unit, takes a predicate lock on
/// the waiting entries' index page, which every other unit's rows are written into, and units of
/// moves at once then failed each other (`docs/load.md`, "PostgreSQL a move, stop 107").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Queued {
    pub ids: Vec<i64>,
    /// The other waiting rows of the new rows' chats, as platform, chat key and id (oldest first in
    /// each chat), read in the unit that queued them: its own rows are not among them. `None` when a
    /// chat had more than [`BESIDE_READ`] waiting (not all read), and on PostgreSQL.
    pub beside: Option<Vec<(String, String, i64)>>,
}

/// The waiting rows of a chat [`push_all`] reads beside its own at most (a chat's few undelivered
/// ones under a kept lease; more means a backlog, which a drain reads in its own batches).
pub const BESIDE_READ: usize = 16;

/// Queues `rows` in order, as [`push`] one after another would (their ids increase in `rows`'
/// order), and on SQLite reads which rows waited in their chats beside them ([`Queued`]). On
/// PostgreSQL one statement for all of them (a move queues two: one round trip fewer), on SQLite
/// one a row and its waiting entry, the read inside the row's.
pub fn push_all(conn: &Connection, rows: &[NewRow<'_>], now: i64) -> Result<Queued> {
    if rows.is_empty() {
        return Ok(Queued { ids: Vec::new(), beside: Some(Vec::new()) });
    }
    let mut ids = Vec::with_capacity(rows.len());
    let mut beside = Vec::new();
    if conn.dialect() == Dialect::Sqlite {
        for (platform, key, reply, picture) in rows {
            let deflated = stored_reply(Dialect::Sqlite, reply);
            let reply = deflated.as_deref().map_or(Value::Text(reply), Value::Bytes);
            // Read for a chat's first row, before its own entry is written: its next rows would
            // find the first among them.
            if !rows[..ids.len()].iter().any(|(p, k, ..)| p == platform && k == key) {
                let waiting: Option<String> =
                    conn.prepare_cached(&WAITING_BESIDE)?.query_row(params![*platform, key.as_str()], |r| r.get(0))?;
                for waiting in waiting.iter().flat_map(|w| w.split(',')) {
                    let id = waiting.parse().map_err(|_| crate::store::StoreError::Corrupt(waiting.to_string()))?;
                    beside.push((platform.to_string(), key.clone(), id));
                }
            }
            let values = params![*platform, key.as_str(), reply, *picture, now, now + WRITER_GRACE_SECS];
            let id = insert_row_sqlite(conn, values)?;
            conn.prepare_cached("INSERT INTO outbox_waiting (platform, chat_key, id) VALUES (?1, ?2, ?3)")?
                .execute(params![*platform, key.as_str(), id])?;
            ids.push(id);
        }
    } else {
        // The ids come from the sequence in the order of the `VALUES` list (one `INSERT`, one
        // transaction: nobody else's row comes between them either way).
        let sql = format!(
            "WITH queued AS (INSERT INTO outbox_rows (platform, chat_key, reply, picture, created_at, next_attempt_at)
               VALUES {} RETURNING platform, chat_key, id),
             waiting AS (INSERT INTO outbox_waiting (platform, chat_key, id) SELECT platform, chat_key, id FROM queued)
             SELECT id FROM queued",
            crate::store::sql::values_rows(rows.len(), 6)
        );
        let mut values = Vec::with_capacity(6 * rows.len());
        for (platform, key, reply, picture) in rows {
            values.extend([
                Value::Text(platform),
                Value::Text(key),
                Value::Text(reply),
                picture.map_or(Value::Null, Value::Bytes),
                Value::I64(now),
                Value::I64(now + WRITER_GRACE_SECS),
            ]);
        }
        for id in conn.prepare_cached(&sql)?.query_map(values, |r| r.get::<i64>(0))? {
            ids.push(id?);
        }
        ids.sort_unstable();
        return Ok(Queued { ids, beside: None });
    }
    let crowded = beside.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1).any(|chat| chat.len() > BESIDE_READ);
    Ok(Queued { ids, beside: (!crowded).then_some(beside) })
}

/// On PostgreSQL, in the unit of work that queued the rows `ids` (in [`push_all`]): the rows that
/// wait in their chats are read with the unit's `COMMIT`, in its round trip, once it has committed
/// ([`crate::store::sql::read_after_commit`]; inside the unit the read's predicate lock made units
/// fail each other: [`Queued`]); [`beside_read_after_commit`] gives them. Nothing on SQLite, whose
/// [`push_all`] reads them in the unit.
pub fn read_beside_after_commit(conn: &Connection, ids: &[i64]) {
    if conn.dialect() != Dialect::Postgres || conn.is_autocommit() || ids.is_empty() {
        return;
    }
    let list = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
    crate::store::sql::read_after_commit(crate::store::sql::AfterCommit {
        name: "capabot_outbox_beside",
        definition: "SELECT c.platform, c.chat_key, b.id
             FROM (SELECT DISTINCT platform, chat_key FROM outbox_rows WHERE id = ANY($1::bigint[])) c
             CROSS JOIN LATERAL (SELECT w.id FROM outbox_waiting w WHERE w.platform = c.platform
               AND w.chat_key = c.chat_key ORDER BY w.id LIMIT $2::bigint) b",
        values: format!("'{{{list}}}', {}", BESIDE_READ + 1 + ids.len()),
    });
}

/// The rows read with the commit of the unit that queued rows `ids` ([`read_beside_after_commit`]),
/// without those: as [`Queued::beside`]. `None` when nothing was read (SQLite, or no commit), or a
/// chat had more than [`BESIDE_READ`] others waiting.
pub fn beside_read_after_commit(ids: &[i64]) -> Option<Vec<(String, String, i64)>> {
    let rows = crate::store::sql::take_read_after_commit()?;
    let mut beside = Vec::new();
    for row in rows {
        let [Some(platform), Some(key), Some(id)] = <[Option<String>; 3]>::try_from(row).ok()? else { return None };
        let id: i64 = id.parse().ok()?;
        if !ids.contains(&id) {
            beside.push((platform, key, id));
        }
    }
    beside.sort_by(|a, b| (&a.0, &a.1, a.2).cmp(&(&b.0, &b.1, b.2)));
    let crowded = beside.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1).any(|chat| chat.len() > BESIDE_READ);
    (!crowded).then_some(beside)
}

/// [`push_all`]'s read on SQLite: the ids waiting in a chat (at most [`BESIDE_READ`] and one,
/// comma-separated).
pub(crate) static WAITING_BESIDE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "SELECT group_concat(id) FROM (SELECT id FROM outbox_waiting WHERE platform = ?1 AND chat_key = ?2
           ORDER BY id LIMIT {})",
        BESIDE_READ + 1
    )
});

/// A row queued on SQLite ([`INSERT_ROW`]), its id taken from the connection.
fn insert_row_sqlite(conn: &Connection, values: impl crate::store::sql::Params) -> Result<i64> {
    conn.prepare_cached(INSERT_ROW)?.execute(values)?;
    let sqlite = conn.as_sqlite().ok_or_else(|| crate::store::StoreError::Refused("not SQLite".into()))?;
    Ok(sqlite.last_insert_rowid())
}

/// The columns of a [`Pending`] row (`r`, of [`WAITING_ROWS`]), in [`pending_row`]'s order.
const PENDING_COLUMNS: &str = "r.id, r.platform, r.chat_key, r.reply, r.picture, r.attempts, r.next_attempt_at";

/// The waiting rows: their entries (`w`, keyed by platform, chat and id) and the rows (`r`).
const WAITING_ROWS: &str = "outbox_waiting w JOIN outbox_rows r ON r.id = w.id";

fn pending_row(r: &crate::store::sql::Row<'_>) -> crate::store::sql::Result<Pending> {
    Ok(Pending {
        id: r.get(0)?,
        platform: r.get(1)?,
        chat_key: r.get(2)?,
        reply: reply_text(r.column(3)?, 3)?,
        picture: r.get(4)?,
        attempts: r.get(5)?,
        next_attempt_at: r.get(6)?,
    })
}

/// The start of a chat's drain: takes or renews `owner`'s lease on the chat ([`lease_chat`]) and
/// reads its first waiting rows (oldest first, at most `limit`); when none waits the lease is given
/// up again. `None` while another owner holds the lease.
///
/// On PostgreSQL one statement, run outside any transaction ([`crate::store::Store::standalone`]):
/// the upsert of the lease decides it atomically, and the rows are read only when it was taken
/// (three round trips fewer than `BEGIN`, the lease, the read and `COMMIT`, and nothing for
/// SERIALIZABLE to fail). On SQLite the lease and the read, in the caller's unit of work.
pub fn take(
    conn: &Connection,
    platform: &str,
    chat_key: &str,
    owner: &str,
    limit: usize,
) -> Result<Option<Vec<Pending>>> {
    let rows = match conn.dialect() {
        crate::store::sql::Dialect::Sqlite => {
            if !lease_chat(conn, platform, chat_key, owner)? {
                return Ok(None);
            }
            pending_in(conn, platform, chat_key, limit)?
        }
        crate::store::sql::Dialect::Postgres => {
            // No row: not leased; one row of NULLs: leased, nothing waits.
            let now = conn.database_now_sql();
            let sql = format!(
                "WITH lease AS (
                   INSERT INTO outbox_leases (platform, chat_key, owner, until) VALUES (?1, ?2, ?3, {now} + ?4)
                   ON CONFLICT (platform, chat_key) DO UPDATE SET owner = excluded.owner, until = excluded.until
                   WHERE outbox_leases.owner = excluded.owner OR outbox_leases.until <= {now}
                   RETURNING 1)
                 SELECT o.* FROM lease LEFT JOIN LATERAL (SELECT {PENDING_COLUMNS} FROM {WAITING_ROWS}
                   WHERE w.platform = ?1 AND w.chat_key = ?2 ORDER BY w.id LIMIT {limit}) o ON true"
            );
            let found = conn.prepare_cached(&sql)?.query_map(params![platform, chat_key, owner, LEASE_SECS], |r| {
                match r.get::<Option<i64>>(0)? {
                    Some(_) => pending_row(r).map(Some),
                    None => Ok(None),
                }
            })?;
            let found: Vec<Option<Pending>> = found.collect::<crate::store::sql::Result<_>>()?;
            if found.is_empty() {
                return Ok(None);
            }
            found.into_iter().flatten().collect()
        }
    };
    if rows.is_empty() {
        release_chat(conn, platform, chat_key, owner)?;
    }
    Ok(Some(rows))
}

/// What a drain's look at its chat does with the chat's lease when no row waits any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WhenEmpty {
    /// Gives it up in the same statement or unit: another process may deliver there at once.
    GiveUp,
    /// Keeps it: its holder gives it up later ([`release_chat`]), once the chat has been quiet a
    /// while, and meanwhile delivers the chat's next rows without writing a lease again (a game's
    /// next move comes a few seconds later, in the same chat; the host's lease cache).
    Keep,
}

/// Marks row `id` sent ([`mark_sent`]) and reads the next waiting rows of its chat for `owner`, who
/// holds its lease; when none waits, the lease is given up or kept as `when_empty` says. On
/// PostgreSQL one statement, outside any transaction (as [`take`]); on SQLite two or three, in the
/// caller's unit of work.
pub fn sent_and_next(
    conn: &Connection,
    id: i64,
    message_id: Option<&str>,
    now: i64,
    (platform, chat_key, owner): (&str, &str, &str),
    limit: usize,
    when_empty: WhenEmpty,
) -> Result<Vec<Pending>> {
    match conn.dialect() {
        crate::store::sql::Dialect::Sqlite => {
            mark_sent(conn, id, message_id, now)?;
            let rows = pending_in(conn, platform, chat_key, limit)?;
            if rows.is_empty() && when_empty == WhenEmpty::GiveUp {
                release_chat(conn, platform, chat_key, owner)?;
            }
            Ok(rows)
        }
        crate::store::sql::Dialect::Postgres => {
            // Every part reads the statement's one snapshot: the row marked sent still reads as
            // waiting there, hence `w.id <> ?1`.
            let release = match when_empty {
                WhenEmpty::GiveUp => {
                    ", released AS (DELETE FROM outbox_leases WHERE platform = ?4 AND chat_key = ?5 AND owner = ?6
                   AND NOT EXISTS (SELECT 1 FROM next) RETURNING 1)"
                }
                WhenEmpty::Keep => "",
            };
            let sql = format!(
                "WITH {SENT_PARTS},
                 next AS (SELECT {PENDING_COLUMNS} FROM {WAITING_ROWS}
                   WHERE w.platform = ?4 AND w.chat_key = ?5 AND w.id <> ?1 ORDER BY w.id LIMIT {limit}){release}
                 SELECT * FROM next ORDER BY id"
            );
            let mut values = vec![
                Value::I64(id),
                message_id.map_or(Value::Null, Value::Text),
                Value::I64(now),
                Value::Text(platform),
                Value::Text(chat_key),
            ];
            if when_empty == WhenEmpty::GiveUp {
                values.push(Value::Text(owner));
            }
            let rows = conn.prepare_cached(&sql)?.query_map(values, pending_row)?;
            Ok(rows.collect::<crate::store::sql::Result<_>>()?)
        }
    }
}

/// The rows of one chat still to be delivered, oldest first (at most `limit`).
pub fn pending_in(conn: &Connection, platform: &str, chat_key: &str, limit: usize) -> Result<Vec<Pending>> {
    // The limit is written into the statement, not bound: SQLite's planner reads a bound LIMIT's
    // value, and a statement whose plan depended on a bound value is parsed and planned again
    // every time it is bound (about 100,000 instructions, twice a move on the delivery path).
    let mut st = conn.prepare_cached(&format!(
        "SELECT {PENDING_COLUMNS} FROM {WAITING_ROWS} WHERE w.platform = ?1 AND w.chat_key = ?2 ORDER BY w.id LIMIT {limit}"
    ))?;
    let rows = st.query_map(params![platform, chat_key], pending_row)?;
    Ok(rows.collect::<crate::store::sql::Result<_>>()?)
}

/// [`due_chats`]'s statement, for platform `?1` at `?2`.
const DUE_CHATS: &str = "SELECT w.platform, w.chat_key FROM outbox_waiting w JOIN outbox_rows r ON r.id = w.id
     WHERE w.platform = ?1 AND r.next_attempt_at <= ?2
       AND w.id = (SELECT min(p.id) FROM outbox_waiting p WHERE p.platform = w.platform AND p.chat_key = w.chat_key)
     ORDER BY w.id";

/// [`next_due`]'s statement, for platform `?1`.
const NEXT_DUE: &str =
    "SELECT min(r.next_attempt_at) FROM outbox_waiting w JOIN outbox_rows r ON r.id = w.id WHERE w.platform = ?1";

/// Chats of these platforms whose oldest pending row is due at `now`, with that row's id (oldest
/// first).
pub fn due_chats(conn: &Connection, platforms: &[&str], now: i64) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut st = conn.prepare_cached(DUE_CHATS)?;
    for p in platforms {
        let rows = st.query_map(params![p, now], |r| Ok((r.get(0)?, r.get(1)?)))?;
        out.extend(rows.collect::<crate::store::sql::Result<Vec<_>>>()?);
    }
    Ok(out)
}

/// The earliest time a pending row of these platforms is due (for the drainer's sleep).
pub fn next_due(conn: &Connection, platforms: &[&str]) -> Result<Option<i64>> {
    let mut best: Option<i64> = None;
    for p in platforms {
        let t: Option<i64> = conn.prepare_cached(NEXT_DUE)?.query_row([p], |r| r.get(0)).optional()?.flatten();
        best = match (best, t) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    Ok(best)
}

/// Row `?1`'s waiting entry (found by its key, read from the row).
const ITS_ENTRY: &str = "platform = (SELECT platform FROM outbox_rows WHERE id = ?1)
     AND chat_key = (SELECT chat_key FROM outbox_rows WHERE id = ?1) AND id = ?1";

/// Whether row `id` is still waiting (another task may have delivered it meanwhile).
pub fn is_pending(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(&format!("SELECT 1 FROM outbox_waiting WHERE {ITS_ENTRY}"))?
        .query_row([id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Takes row `id` off the waiting rows (it was delivered or given up); true when it was waiting.
fn unqueue(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn.prepare_cached(&format!("DELETE FROM outbox_waiting WHERE {ITS_ENTRY}"))?.execute([id])? > 0)
}

/// On SQLite, writes row `?1`'s delivery down as its mark (message `?2`, at `?3`); a row marked
/// again (delivered twice, a lease run out) keeps the last.
const MARK_SENT: &str = "INSERT INTO outbox_sent (id, message_id, done_at)
       SELECT id, ?2, ?3 FROM outbox_rows WHERE id = ?1
       ON CONFLICT (id) DO UPDATE SET message_id = excluded.message_id, done_at = excluded.done_at";
/// A delivered row's picture is not kept (it is in the chat now); a row without one is not written.
const DROP_PICTURE: &str = "UPDATE outbox_rows SET picture = NULL WHERE id = ?1 AND picture IS NOT NULL";

/// What marking a row sent changes in the row itself on PostgreSQL: the same in [`SENT_PARTS`]
/// and [`mark_all_sent`].
macro_rules! sent_set {
    () => {
        "state = 'sent', attempts = attempts + 1, picture = NULL, error = NULL,"
    };
}

/// On PostgreSQL, row `?1` of chat `?4`, `?5` delivered as message `?2` at `?3`, as parts of one
/// statement (`WITH`): its waiting entry taken out and the row itself changed. Its log holds the
/// bytes that changed, not the page, and since migration 38 no index names the row's state, so
/// the change stays in the row's page (a heap-only update, in the room migration 28 leaves):
/// cheaper there than a mark's row and its key (`docs/load.md`, "Delivery marks apart").
const SENT_PARTS: &str = concat!(
    "unqueued AS (DELETE FROM outbox_waiting WHERE platform = ?4 AND chat_key = ?5 AND id = ?1),
     sent AS (UPDATE outbox_rows SET ",
    sent_set!(),
    " message_id = ?2, done_at = ?3 WHERE id = ?1)"
);

/// Row `id` was delivered as `message_id`: its waiting entry is taken out and its picture no longer
/// kept. On SQLite its mark is written and the row itself is not (its page would be written
/// again); on PostgreSQL the row is changed ([`SENT_PARTS`]).
pub fn mark_sent(conn: &Connection, id: i64, message_id: Option<&str>, now: i64) -> Result<()> {
    match conn.dialect() {
        Dialect::Sqlite => {
            conn.prepare_cached(MARK_SENT)?.execute(params![id, message_id, now])?;
            unqueue(conn, id)?;
            conn.prepare_cached(DROP_PICTURE)?.execute([id])?;
            Ok(())
        }
        Dialect::Postgres => mark_all_sent(conn, &[(id, message_id, now)]),
    }
}

/// Marks these rows sent, as [`mark_sent`] one after another would (`(id, message_id, when)`). On
/// PostgreSQL one statement for up to 64 rows (the host writes a moment's deliveries down together:
/// one round trip instead of one a row); its lists are padded to 8 or 64 rows by repeating the
/// last, so that three statements serve every count.
pub fn mark_all_sent(conn: &Connection, rows: &[(i64, Option<&str>, i64)]) -> Result<()> {
    if conn.dialect() == Dialect::Sqlite {
        if rows.len() < 2 {
            for &(id, message_id, at) in rows {
                mark_sent(conn, id, message_id, at)?;
            }
        } else {
            mark_all_sent_sqlite(conn, rows)?;
        }
        return Ok(());
    }
    let texts = pg_mark_all_sent_texts();
    for chunk in rows.chunks(64) {
        let (size, sql) = if chunk.len() <= 8 { (8, &texts[0]) } else { (64, &texts[1]) };
        let mut values = Vec::with_capacity(3 * size);
        for i in 0..size {
            let (id, message_id, at) = chunk[i.min(chunk.len() - 1)];
            values.extend([Value::I64(id), message_id.map_or(Value::Null, Value::Text), Value::I64(at)]);
        }
        conn.prepare_cached(sql)?.execute(values)?;
    }
    Ok(())
}

/// [`mark_all_sent`]'s statement on PostgreSQL for 8 rows and for 64, written once. A short list
/// is padded with its last row (each row is changed once all the same). The rows are found by
/// their ids listed in the statement (`id = ANY (ARRAY[…])`), not by a join with the list alone:
/// the plan is made once for every list (a prepared statement's generic plan), and by a young
/// table's statistics, as a benchmark's outbox or a new bot's has, it hashed the list and read
/// every row of the outbox twice to find its rows (1.9 ms a statement of 64 rows with 4,000 in the
/// outbox, `docs/load.md`, "Where PostgreSQL's time goes a move"); now it reads the listed keys.
fn pg_mark_all_sent_texts() -> &'static [String; 2] {
    static TEXTS: std::sync::OnceLock<[String; 2]> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        [8, 64].map(|size| {
            let ids = (0..size).map(|i| format!("?{}", 3 * i + 1)).collect::<Vec<_>>().join(", ");
            format!(
                concat!(
                    "WITH v (id, message_id, done_at) AS (VALUES {values}),
                     unqueued AS (DELETE FROM outbox_waiting w USING outbox_rows r, v
                       WHERE r.id = ANY (ARRAY[{ids}]) AND r.id = v.id
                         AND w.platform = r.platform AND w.chat_key = r.chat_key AND w.id = r.id)
                     UPDATE outbox_rows SET ",
                    sent_set!(),
                    " message_id = v.message_id, done_at = v.done_at FROM v
                     WHERE outbox_rows.id = ANY (ARRAY[{ids}]) AND outbox_rows.id = v.id"
                ),
                values = crate::store::sql::typed_values_rows(size, &["BIGINT", "TEXT", "BIGINT"]),
                ids = ids
            )
        })
    })
}

/// The three statements of [`mark_all_sent_sqlite`] for `size` rows: the marks (`size` triples),
/// then the waiting entries and the pictures of their rows (`size` ids).
fn sqlite_marks(size: usize) -> [String; 3] {
    let ids = (1..=size).map(|n| format!("?{n}")).collect::<Vec<_>>().join(", ");
    [
        format!(
            "INSERT INTO outbox_sent (id, message_id, done_at)
             SELECT v.column1, v.column2, v.column3 FROM (VALUES {}) AS v JOIN outbox_rows r ON r.id = v.column1
             WHERE true ON CONFLICT (id) DO UPDATE SET message_id = excluded.message_id, done_at = excluded.done_at",
            crate::store::sql::values_rows(size, 3)
        ),
        format!(
            "DELETE FROM outbox_waiting WHERE (platform, chat_key, id) IN
               (SELECT platform, chat_key, id FROM outbox_rows WHERE id IN ({ids}))"
        ),
        format!("UPDATE outbox_rows SET picture = NULL WHERE id IN ({ids}) AND picture IS NOT NULL"),
    ]
}

/// [`mark_all_sent`] on SQLite: three statements for up to 64 rows ([`MARK_SENT`],
/// the waiting entries taken out, the pictures dropped), not three a row; the lists padded to 8
/// or 64 rows by repeating the last, as on PostgreSQL (a mark written twice keeps the last).
fn mark_all_sent_sqlite(conn: &Connection, rows: &[(i64, Option<&str>, i64)]) -> Result<()> {
    static TEXTS: std::sync::OnceLock<[[String; 3]; 2]> = std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| [8, 64].map(sqlite_marks));
    for chunk in rows.chunks(64) {
        let (size, [mark, unqueue, unpicture]) = if chunk.len() <= 8 { (8, &texts[0]) } else { (64, &texts[1]) };
        let padded = (0..size).map(|i| chunk[i.min(chunk.len() - 1)]);
        let marks: Vec<Value<'_>> = padded
            .clone()
            .flat_map(|(id, message_id, at)| {
                [Value::I64(id), message_id.map_or(Value::Null, Value::Text), Value::I64(at)]
            })
            .collect();
        let ids: Vec<Value<'_>> = padded.map(|(id, ..)| Value::I64(id)).collect();
        conn.prepare_cached(mark)?.execute(marks)?;
        conn.prepare_cached(unqueue)?.execute(ids.clone())?;
        conn.prepare_cached(unpicture)?.execute(ids)?;
    }
    Ok(())
}

/// Row `id` failed `tries` times for a passing reason: tried again at `at`.
pub fn retry_at(conn: &Connection, id: i64, tries: u32, at: i64, error: &str) -> Result<()> {
    conn.prepare_cached(
        "UPDATE outbox_rows SET attempts = attempts + ?4, next_attempt_at = ?2, error = ?3 WHERE id = ?1",
    )?
    .execute(params![id, at, error, tries])?;
    Ok(())
}

/// Makes the waiting rows of a chat due at `now`: in a chat reached only through interactions,
/// an interaction there brings what waited for one. Returns how many were waiting for later.
pub fn wake(conn: &Connection, platform: &str, chat_key: &str, now: i64) -> Result<usize> {
    Ok(conn
        .prepare_cached(
            "UPDATE outbox_rows SET next_attempt_at = ?3
             WHERE id IN (SELECT id FROM outbox_waiting WHERE platform = ?1 AND chat_key = ?2) AND next_attempt_at > ?3",
        )?
        .execute(params![platform, chat_key, now])?)
}

/// Gives row `id` up as expired (kept, counted, never deleted unseen) if it was written before
/// `written_before`; returns whether it was.
pub fn expire_held(conn: &Connection, id: i64, written_before: i64, error: &str, now: i64) -> Result<bool> {
    let n = conn
        .prepare_cached(&format!(
            "UPDATE outbox_rows SET state = 'failed', failure = ?2, error = ?3, done_at = ?4, picture = NULL
             WHERE id = ?1 AND created_at < ?5 AND EXISTS (SELECT 1 FROM outbox_waiting WHERE {ITS_ENTRY})"
        ))?
        .execute(params![id, crate::store::served::EXPIRED, error, now, written_before])?;
    Ok(n > 0 && unqueue(conn, id)?)
}

/// Row `id` cannot be delivered (`failure`: its kind); never tried again.
pub fn mark_failed(conn: &Connection, id: i64, failure: &str, error: &str, now: i64) -> Result<()> {
    conn.prepare_cached(
        "UPDATE outbox_rows SET state = 'failed', failure = ?2, error = ?3, done_at = ?4, attempts = attempts + 1,
         picture = NULL WHERE id = ?1",
    )?
    .execute(params![id, failure, error, now])?;
    unqueue(conn, id)?;
    Ok(())
}

/// How long a chat's delivery lease lasts unless renewed. Its holder renews it before every row and
/// every retry, so it need only outlast one delivery attempt; short, because a process that died
/// holding it (a crash mid-delivery) keeps the chat waiting that long after its restart. Should an
/// attempt outlast it, another process may deliver the same row again: the platforms' idempotency
/// (Discord's nonce, Matrix's transaction id) shows it once.
pub const LEASE_SECS: i64 = 10;

/// Takes or renews the lease on delivering a chat's rows for `owner` (one process instance) for
/// [`LEASE_SECS`] by the database's clock ([`Connection::database_now`]: the same for every
/// process, whatever their machines' clocks say): true when `owner` holds it now. Another owner's
/// lease is taken only once it has run out.
pub fn lease_chat(conn: &Connection, platform: &str, chat_key: &str, owner: &str) -> Result<bool> {
    // The clock read in the statement itself: one round trip (PostgreSQL) instead of two.
    lease(conn, platform, chat_key, owner, conn.database_now_sql(), None)
}

/// [`lease_chat`] at a given time `now`.
#[cfg(test)]
fn lease_chat_at(conn: &Connection, platform: &str, chat_key: &str, owner: &str, now: i64) -> Result<bool> {
    lease(conn, platform, chat_key, owner, "?5", Some(now))
}

/// [`lease_chat`] at the time `now_sql` gives (an SQL expression; `?5` is `at`, when given).
fn lease(
    conn: &Connection,
    platform: &str,
    chat_key: &str,
    owner: &str,
    now_sql: &str,
    at: Option<i64>,
) -> Result<bool> {
    let sql = format!(
        "INSERT INTO outbox_leases (platform, chat_key, owner, until) VALUES (?1, ?2, ?3, {now_sql} + ?4)
         ON CONFLICT (platform, chat_key) DO UPDATE SET owner = excluded.owner, until = excluded.until
         WHERE outbox_leases.owner = excluded.owner OR outbox_leases.until <= {now_sql}"
    );
    let mut values = vec![Value::Text(platform), Value::Text(chat_key), Value::Text(owner), Value::I64(LEASE_SECS)];
    values.extend(at.map(Value::I64));
    Ok(conn.prepare_cached(&sql)?.execute(values)? == 1)
}

/// Who holds the lease on delivering a chat, if anyone does (it may have run out).
pub fn lease_holder(conn: &Connection, platform: &str, chat_key: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT owner FROM outbox_leases WHERE platform = ?1 AND chat_key = ?2")?
        .query_row(params![platform, chat_key], |r| r.get(0))
        .optional()?)
}

/// Gives the lease `from` holds on a chat to `to` for [`LEASE_SECS`] (a process taking over the
/// leases of a process that is gone: its caller knows it is); true when `from` held it.
pub fn take_over(conn: &Connection, platform: &str, chat_key: &str, from: &str, to: &str) -> Result<bool> {
    let sql = format!(
        "UPDATE outbox_leases SET owner = ?4, until = {} + ?5 WHERE platform = ?1 AND chat_key = ?2 AND owner = ?3",
        conn.database_now_sql()
    );
    Ok(conn.prepare_cached(&sql)?.execute(params![platform, chat_key, from, to, LEASE_SECS])? == 1)
}

/// Gives up `owner`'s lease on a chat (nothing if another owner holds it).
pub fn release_chat(conn: &Connection, platform: &str, chat_key: &str, owner: &str) -> Result<()> {
    conn.prepare_cached("DELETE FROM outbox_leases WHERE platform = ?1 AND chat_key = ?2 AND owner = ?3")?
        .execute(params![platform, chat_key, owner])?;
    Ok(())
}

/// Gives up `owner`'s leases on these chats (platform and chat key), as [`release_chat`] one after
/// another would: one statement for up to 64 chats (the host gives up a moment's quiet chats
/// together, where it sent a statement a chat), its list padded to 8 or 64 chats by repeating
/// the last, so that three statements serve every count.
pub fn release_chats(conn: &Connection, chats: &[(String, String)], owner: &str) -> Result<()> {
    if let [(platform, key)] = chats {
        return release_chat(conn, platform, key, owner);
    }
    static TEXTS: std::sync::OnceLock<[String; 2]> = std::sync::OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        [8, 64].map(|size| {
            format!(
                "DELETE FROM outbox_leases WHERE owner = ?{} AND (platform, chat_key) IN (VALUES {})",
                2 * size + 1,
                crate::store::sql::values_rows(size, 2)
            )
        })
    });
    for chunk in chats.chunks(64) {
        let (size, sql) = if chunk.len() <= 8 { (8, &texts[0]) } else { (64, &texts[1]) };
        let mut values = Vec::with_capacity(2 * size + 1);
        for i in 0..size {
            let (platform, key) = &chunk[i.min(chunk.len() - 1)];
            values.extend([Value::Text(platform), Value::Text(key)]);
        }
        values.push(Value::Text(owner));
        conn.prepare_cached(sql)?.execute(values)?;
    }
    Ok(())
}

/// Rows by platform and state (`failed` split by kind): what the operator sees (from the view
/// `outbox`, where a row is sent once its mark is written).
pub fn counts(conn: &Connection) -> Result<Vec<(String, String, i64)>> {
    let mut st = conn.prepare_cached(
        "SELECT platform, CASE WHEN state = 'failed' THEN 'failed:' || coalesce(failure, '?') ELSE state END AS s,
                count(*) FROM outbox GROUP BY platform, s ORDER BY platform, s",
    )?;
    let rows = st.query_map((), |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<crate::store::sql::Result<_>>()?)
}

/// Forgets rows delivered or failed more than [`KEEP_DONE_SECS`] ago. Run at every scheduler tick.
///
/// A row is done after it was written, and rows are written in the order of their ids, so the rows
/// to forget are among those before the first row written within the week: the statement walks the
/// ids up to it (the rows it forgets, and the few still waiting from before, held for an
/// interaction) rather than keeping an index of every row by when it was done, which cost every
/// delivery an index entry. A row written out of order (another process's clock behind) waits for
/// a later tick. The newest row is always kept: on SQLite a new row's id is the largest there is
/// plus one (no `AUTOINCREMENT` since migration 26, which wrote a page more for every row queued),
/// so while it stays no id is ever handed out twice (the front ends make Discord's nonces and
/// Matrix's transaction ids of them).
///
/// A row is done when failed (or sent, before migration 38) or when its delivery's mark is written;
/// the mark goes with its row (`ON DELETE CASCADE`).
pub fn prune(conn: &Connection, now: i64) -> Result<usize> {
    Ok(conn.execute(
        "DELETE FROM outbox_rows
         WHERE id < coalesce((SELECT id FROM outbox_rows WHERE created_at >= ?1 ORDER BY id LIMIT 1),
                             (SELECT max(id) FROM outbox_rows))
           AND (state <> 'pending' AND done_at < ?1
                OR EXISTS (SELECT 1 FROM outbox_sent s WHERE s.id = outbox_rows.id AND s.done_at < ?1))",
        [now - KEEP_DONE_SECS],
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::testing::on_both_backends;

    on_both_backends!(
        rows_go_out_in_order_per_chat_and_a_waiting_row_holds_its_chat_back,
        one_process_at_a_time_delivers_a_chat,
        a_held_row_expires_only_once_old_enough_and_still_pending,
        a_drain_takes_its_chat_and_its_rows_and_gives_the_chat_up_after_its_last_row,
        rows_queued_together_keep_their_order,
        rows_queued_say_which_rows_waited_beside_them,
        the_rows_beside_are_read_with_the_commit_on_postgres,
        a_moments_quiet_chats_are_given_up_together,
        rows_done_a_week_ago_are_forgotten_in_the_order_they_were_written,
        a_lease_is_taken_over_only_from_its_holder,
        rows_marked_sent_together_are_each_marked_as_alone,
        rows_marked_sent_together_are_found_by_their_ids,
        a_reply_reads_back_as_it_was_queued,
    );

    /// A move's answer in its channel, about as long as a Capatomic one (its text board and card,
    /// 760 bytes of JSON), and the turn notice beside it (320 bytes).
    fn a_moves_replies(n: usize) -> (String, String) {
        let board: String = (0..10)
            .map(|rank| format!("{:2} {}\\n", 10 - rank, ". ".repeat(10).trim_end()))
            .chain(["   a b c d e f g h i j".to_string()])
            .collect();
        let answer = format!(
            r#"{{"v":1,"reply":{{"target":{{"Chat":{{"platform":"discord","chat":"table-{n}","direct":false}}}},"text":"Game #{n}: {n}... Ca7 played by b{n}. w{n} (white) to move. 7 days to reply.","audience":"Everyone","text_board":"{board}","card":{{"game_id":{n},"variant":"Capatomic Random Chess","white":"w{n}","black":"b{n}","last_move":"{n}... Ca7","to_move":{{"id":"w{n}","name":"w{n}"}},"deadline":1797149869,"result":null}},"choices":[],"notify":[{{"id":"w{n}","name":"w{n}"}}],"in_reply_to":"e{n}","lang":"en","stands_alone":false}},"animated":false}}"#
        );
        let notice = format!(
            r#"{{"v":1,"reply":{{"target":{{"Direct":{{"platform":"discord","user":{{"id":"w{n}","name":"w{n}"}}}}}},"text":"Your move in game #{n} against b{n} (Capatomic Random Chess): {n}... Ca7. 7 days to reply.","audience":"Everyone","choices":[],"notify":[{{"id":"w{n}","name":"w{n}"}}],"in_reply_to":"e{n}","lang":"en","stands_alone":false}},"animated":false}}"#
        );
        (answer, notice)
    }

    /// On SQLite a move's two replies fit one page of the outbox together (kept deflated), and
    /// with the dictionary of stop 107 three moves' do: 12 moves take 4 leaf pages (12 deflated
    /// plain, 24 as text).
    /// Marked sent, with Discord's message ids, they write the marks' page and the waiting
    /// entries' leaf, not their rows' pages again (before migration 38, 13 pages: each move's row
    /// page and the waiting index's leaf; as text, a page each row).
    #[test]
    fn a_moves_answer_and_notice_share_one_page_of_the_outbox() {
        let (_dir, raw) = crate::store::testing::sqlite_schema();
        let c = Connection::Sqlite(raw);
        let moves = 12;
        let mut ids = Vec::new();
        for n in 0..moves {
            let (answer, notice) = a_moves_replies(n);
            let tx = crate::store::immediate(&c).unwrap();
            ids.extend([&answer, &notice].map(|r| push(&c, "discord", &format!("c:{n}"), r, None, 100).unwrap()));
            tx.commit().unwrap();
        }
        let leaves: i64 = c
            .as_sqlite()
            .unwrap()
            .query_row("SELECT count(*) FROM dbstat WHERE name = 'outbox_rows' AND pagetype = 'leaf'", (), |r| r.get(0))
            .unwrap();
        assert!(leaves <= moves as i64 / 2, "{moves} moves' replies took {leaves} pages of the outbox");
        // As the host writes a moment's deliveries down: in one transaction, with Discord's
        // message ids.
        let messages: Vec<String> = ids.iter().map(|id| format!("14469502795811{id:05}")).collect();
        let sent: Vec<(i64, Option<&str>, i64)> =
            ids.iter().zip(&messages).map(|(&id, m)| (id, Some(m.as_str()), 200)).collect();
        let pages = crate::store::testing::log_pages(&c, || {
            let tx = crate::store::immediate(&c).unwrap();
            mark_all_sent(&c, &sent).unwrap();
            tx.commit().unwrap();
        });
        assert!(pages <= 3, "marking {moves} moves' replies sent wrote {pages} pages");
    }

    /// A reply reads back as it was queued, whether SQLite keeps it deflated (a long one) or as
    /// text (a short one, and every row written before replies were deflated); PostgreSQL keeps
    /// the text.
    fn a_reply_reads_back_as_it_was_queued(store: &Store) {
        let c = store.conn().unwrap();
        let (answer, _) = a_moves_replies(7);
        let long = push(&c, "discord", "c:7", &answer, None, 100).unwrap();
        push(&c, "discord", "c:7", "{}", None, 100).unwrap();
        let kept = |id: i64| -> bool {
            c.query_row("SELECT reply FROM outbox WHERE id = ?1", [id], |r| {
                Ok(matches!(r.column(0)?, crate::store::sql::Column::Bytes(_)))
            })
            .unwrap()
        };
        assert_eq!(kept(long), c.dialect() == Dialect::Sqlite, "kept deflated on SQLite alone");
        let old = c
            .query_row(
                "INSERT INTO outbox_rows (platform, chat_key, reply, created_at, next_attempt_at) VALUES ('discord', 'c:7', ?1, 100, 100) RETURNING id",
                [answer.as_str()],
                |r| r.get::<i64>(0),
            )
            .unwrap();
        c.execute("INSERT INTO outbox_waiting (platform, chat_key, id) VALUES ('discord', 'c:7', ?1)", [old]).unwrap();
        assert!(!kept(old));
        let mut expected = vec![answer.clone(), "{}".into(), answer.clone()];
        if c.dialect() == Dialect::Sqlite {
            // A row deflated plain, as stop 105 wrote them, before the dictionary.
            let plain = miniz_oxide::deflate::compress_to_vec(answer.as_bytes(), 1);
            let id = c
                .query_row(
                    "INSERT INTO outbox_rows (platform, chat_key, reply, created_at, next_attempt_at) VALUES ('discord', 'c:7', ?1, 100, 100) RETURNING id",
                    [Value::Bytes(&plain)],
                    |r| r.get::<i64>(0),
                )
                .unwrap();
            c.execute("INSERT INTO outbox_waiting (platform, chat_key, id) VALUES ('discord', 'c:7', ?1)", [id])
                .unwrap();
            assert!(kept(id));
            expected.push(answer);
        }
        let read: Vec<String> = pending_in(&c, "discord", "c:7", 10).unwrap().into_iter().map(|p| p.reply).collect();
        assert_eq!(read, expected);
    }

    /// [`mark_all_sent`] marks each row as [`mark_sent`] would, with its own message and time,
    /// whatever the count (one row, a padded list, more than one statement's), and no other row.
    fn rows_marked_sent_together_are_each_marked_as_alone(store: &Store) {
        let c = store.conn().unwrap();
        for count in [1_usize, 2, 9, 70] {
            let ids: Vec<i64> = (0..count + 1).map(|_| push(&c, "discord", "c:1", "r", None, 100).unwrap()).collect();
            let (marked, left) = ids.split_at(count);
            let messages: Vec<String> = marked.iter().map(|id| format!("m{id}")).collect();
            let rows: Vec<(i64, Option<&str>, i64)> = marked
                .iter()
                .zip(&messages)
                .map(|(&id, m)| (id, if id % 3 == 0 { None } else { Some(m.as_str()) }, 1_000 + id))
                .collect();
            mark_all_sent(&c, &rows).unwrap();
            for &(id, message, at) in &rows {
                let (state, got, done, attempts): (String, Option<String>, i64, i64) = c
                    .prepare_cached("SELECT state, message_id, done_at, attempts FROM outbox WHERE id = ?1")
                    .unwrap()
                    .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                    .unwrap();
                assert_eq!((state.as_str(), got.as_deref(), done, attempts), ("sent", message, at, 1), "{count}");
            }
            assert!(is_pending(&c, left[0]).unwrap(), "the row after them waits ({count})");
            mark_sent(&c, left[0], None, 1).unwrap();
        }
    }

    /// [`prune`] walks the rows up to the first one written within the week: it forgets the rows
    /// done before it, keeps those still waiting and those done since, and leaves a row written out
    /// of order (a clock behind) for a later tick.
    fn rows_done_a_week_ago_are_forgotten_in_the_order_they_were_written(store: &Store) {
        let c = store.conn().unwrap();
        let row = |created: i64| push(&c, "discord", "c:1", "r", None, created).unwrap();
        let sent_long_ago = row(100);
        mark_sent(&c, sent_long_ago, None, 110).unwrap();
        let held = row(100);
        let failed_long_ago = row(200);
        mark_failed(&c, failed_long_ago, "chat-gone", "gone", 900).unwrap();
        let sent_this_week = row(300);
        mark_sent(&c, sent_this_week, None, 1500).unwrap();
        let written_this_week = row(2000);
        mark_sent(&c, written_this_week, None, 2100).unwrap();
        let out_of_order = row(50);
        mark_sent(&c, out_of_order, None, 60).unwrap();
        let left = |c: &Connection| {
            c.prepare_cached("SELECT id FROM outbox ORDER BY id")
                .unwrap()
                .query_map((), |r| r.get::<i64>(0))
                .unwrap()
                .collect::<crate::store::sql::Result<Vec<_>>>()
                .unwrap()
        };
        assert_eq!(prune(&c, 1000 + KEEP_DONE_SECS).unwrap(), 2);
        assert_eq!(left(&c), vec![held, sent_this_week, written_this_week, out_of_order]);
        assert_eq!(prune(&c, 2200 + KEEP_DONE_SECS).unwrap(), 2);
        assert_eq!(left(&c), vec![held, out_of_order], "the row still waiting stays, and the newest");
        assert_eq!(prune(&c, 9000 + KEEP_DONE_SECS).unwrap(), 0);
        // The next row's id is new: none is handed out twice.
        assert!(row(9000) > out_of_order);
    }

    /// On PostgreSQL [`mark_all_sent`]'s plan for any list (the generic plan a prepared statement
    /// keeps) reads the outbox's rows by the ids listed, not every row: with 600 rows in the
    /// outbox and its statistics read, the plan of the join alone read them all twice (a hash of
    /// the list; 1.9 ms a statement of 64 rows with 4,000 rows in the benchmark's outbox).
    fn rows_marked_sent_together_are_found_by_their_ids(store: &Store) {
        let c = store.conn().unwrap();
        if c.dialect() != Dialect::Postgres {
            return;
        }
        for n in 0..600 {
            push(&c, "discord", &format!("c:{}", n % 40), "r", None, 100).unwrap();
        }
        c.execute_batch("ANALYZE outbox_rows; ANALYZE outbox_waiting").unwrap();
        for text in pg_mark_all_sent_texts() {
            let sql = crate::store::sql::numbered_placeholders(text).replace('\'', "''");
            c.execute_batch(&format!(
                "CREATE TEMP TABLE IF NOT EXISTS plan_lines (line TEXT); TRUNCATE plan_lines;
                 DO $$ DECLARE l TEXT; BEGIN
                   FOR l IN EXECUTE 'EXPLAIN (GENERIC_PLAN) {sql}' LOOP INSERT INTO plan_lines VALUES (l); END LOOP;
                 END $$"
            ))
            .unwrap();
            let plan = c
                .prepare_cached("SELECT string_agg(line, E'\\n') FROM plan_lines")
                .unwrap()
                .query_row((), |r| r.get::<String>(0))
                .unwrap();
            let scans = plan.matches("Scan on outbox_rows").count()
                + plan.matches("Scan using outbox_pkey on outbox_rows").count();
            assert_eq!(scans, 2, "the outbox's rows read twice, by the delete and the update:\n{plan}");
            assert_eq!(plan.matches("Index Cond: (id = ANY (ARRAY[").count(), 2, "each by the ids listed:\n{plan}");
        }
    }

    /// A row queued on SQLite writes the page of its row and of its entry among the waiting rows
    /// (migration 26: with `AUTOINCREMENT` the outbox's line of `sqlite_sequence` was a third).
    #[test]
    fn a_row_queued_writes_its_row_and_its_waiting_entry() {
        let (_dir, raw) = crate::store::testing::sqlite_schema();
        let c = Connection::Sqlite(raw);
        push(&c, "discord", "c:1", "first", None, 100).unwrap();
        let pages = crate::store::testing::log_pages(&c, || {
            push(&c, "discord", "c:1", "second", None, 100).unwrap();
        });
        assert_eq!(pages, 2);
    }

    /// The waiting rows are read by their entries' key: a chat's from its own entries, a
    /// platform's due chats and next time from the platform's, a row's entry by its row's key, and
    /// a row by its id (SQLite's plans); none reads every row.
    #[test]
    fn the_waiting_rows_are_read_by_their_key() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = |sql: &str| crate::store::testing::sqlite_plan(&conn, sql);
        let chat = "USING PRIMARY KEY (platform=? AND chat_key=?)";
        let entry = "USING PRIMARY KEY (platform=? AND chat_key=? AND id=?)";
        let platform = "USING PRIMARY KEY (platform=?)";
        let by_id = "USING INTEGER PRIMARY KEY (rowid=?)";
        let reads = [
            (
                format!(
                    "SELECT {PENDING_COLUMNS} FROM {WAITING_ROWS} WHERE w.platform = ?1 AND w.chat_key = ?2 ORDER BY w.id LIMIT 10"
                ),
                chat,
            ),
            (format!("SELECT 1 FROM outbox_waiting WHERE {ITS_ENTRY}"), entry),
            (format!("DELETE FROM outbox_waiting WHERE {ITS_ENTRY}"), entry),
            (MARK_SENT.to_string(), by_id),
            (DROP_PICTURE.to_string(), by_id),
            (DUE_CHATS.to_string(), platform),
            (NEXT_DUE.to_string(), platform),
        ];
        // The rows waiting beside a row queued, read with it (the scan is of the ids read).
        let beside = plan(&WAITING_BESIDE);
        assert!(beside.contains(chat) && !beside.contains("SCAN outbox"), "{beside}");
        let [mark, unqueue, unpicture] = sqlite_marks(8);
        for (sql, key) in [(mark, "r USING INTEGER PRIMARY KEY (rowid=?)"), (unqueue, entry), (unpicture, by_id)] {
            let plan = plan(&sql);
            assert!(plan.contains(key) && !plan.contains("SCAN outbox") && !plan.contains("SCAN r"), "{sql}: {plan}");
        }
        for (sql, key) in reads {
            let plan = plan(&sql);
            assert!(plan.contains(key) && !plan.contains("SCAN"), "{sql}: {plan}");
        }
    }

    /// [`push_all`] (one statement on PostgreSQL): the rows' ids follow the order they were given
    /// in, which is the order a chat's rows go out in; each row is stored as given.
    fn rows_queued_together_keep_their_order(store: &Store) {
        let c = store.conn().unwrap();
        let before = push(&c, "discord", "c:1", "before", None, 100).unwrap();
        let rows: Vec<NewRow<'_>> = (0..5)
            .map(|i| {
                let key = if i % 2 == 0 { "c:1" } else { "d:bob" };
                ("discord", key.to_string(), format!("r{i}"), (i == 3).then_some(&b"png"[..]))
            })
            .collect();
        push_all(&c, &rows, 100).unwrap();
        let mut got: Vec<Pending> =
            ["c:1", "d:bob"].iter().flat_map(|k| pending_in(&c, "discord", k, 10).unwrap()).collect();
        got.sort_by_key(|r| r.id);
        let replies: Vec<&str> = got.iter().map(|r| r.reply.as_str()).collect();
        assert_eq!(replies, ["before", "r0", "r1", "r2", "r3", "r4"]);
        assert_eq!(got[0].id, before);
        assert!(got.iter().all(|r| r.next_attempt_at == 100 + WRITER_GRACE_SECS));
        assert_eq!(got[4].picture.as_deref(), Some(&b"png"[..]));
        assert!(got.iter().filter(|r| r.reply != "r3").all(|r| r.picture.is_none()));
        assert_eq!(
            got.iter().map(|r| r.chat_key.as_str()).collect::<Vec<_>>(),
            ["c:1", "c:1", "d:bob", "c:1", "d:bob", "c:1"]
        );
    }

    /// [`push_all`] says which rows waited in its rows' chats beside them, its own left out (the
    /// writer's drain then delivers its rows without reading them back when those are delivered
    /// already); a chat with more waiting than it reads is not known.
    fn rows_queued_say_which_rows_waited_beside_them(store: &Store) {
        let c = store.conn().unwrap();
        let row = |key: &str, text: &str| ("discord", key.to_string(), text.to_string(), None);
        let first = push_all(&c, &[row("c:1", "a"), row("d:bob", "b"), row("c:1", "c")], 100).unwrap();
        let postgres = c.dialect() == Dialect::Postgres;
        // Not read on PostgreSQL (its predicate locks: see `Queued`).
        let beside = |rows: Vec<(String, String, i64)>| (!postgres).then_some(rows);
        assert_eq!(first.beside, beside(vec![]), "nothing waited before");
        let waiting = |key| pending_in(&c, "discord", key, 10).unwrap().iter().map(|r| r.id).collect::<Vec<_>>();
        assert!(first.ids.is_sorted() && first.ids.len() == 3, "{:?}", first.ids);
        assert_eq!(waiting("c:1"), [first.ids[0], first.ids[2]], "each row's id, in the order given");
        assert_eq!(waiting("d:bob"), [first.ids[1]]);

        let second = push_all(&c, &[row("c:1", "d"), row("c:2", "e")], 100).unwrap();
        let c1 = |id| ("discord".to_string(), "c:1".to_string(), id);
        assert_eq!(second.beside, beside(vec![c1(first.ids[0]), c1(first.ids[2])]), "the earlier rows of c:1");
        assert_eq!(second.ids.len(), 2);
        mark_all_sent(&c, &[(first.ids[0], None, 101), (first.ids[2], None, 101)]).unwrap();
        let third = push_all(&c, &[row("c:1", "f")], 102).unwrap();
        assert_eq!(third.beside, beside(vec![c1(second.ids[0])]), "the rows marked sent no longer wait");

        for n in 0..BESIDE_READ {
            push(&c, "discord", "c:3", &format!("backlog {n}"), None, 100).unwrap();
        }
        assert_eq!(
            push_all(&c, &[row("c:3", "g")], 103).unwrap().beside.is_some(),
            !postgres,
            "{BESIDE_READ} are read"
        );
        let crowded = push_all(&c, &[row("c:3", "h"), row("c:1", "i")], 103).unwrap();
        assert_eq!(crowded.beside, None, "more than {BESIDE_READ} waiting: not all read");
        assert_eq!(waiting("c:1").last(), crowded.ids.last(), "queued all the same");
    }

    /// On PostgreSQL the rows waiting beside a unit's own are read with its `COMMIT`, in its round
    /// trip, once it has committed: every row waiting then, its own left out; a unit rolled back
    /// reads nothing, and the next unit does not find an earlier unit's read. Nothing on SQLite
    /// (read in the unit: [`rows_queued_say_which_rows_waited_beside_them`]).
    fn the_rows_beside_are_read_with_the_commit_on_postgres(store: &Store) {
        let postgres = store.conn().unwrap().dialect() == Dialect::Postgres;
        let earlier = push(&store.conn().unwrap(), "discord", "c:1", "earlier", None, 100).unwrap();
        let queue = |fail: bool| {
            let ids = std::cell::RefCell::new(Vec::new());
            let done = store.unit(|| {
                let c = store.conn()?;
                let row = |key: &str| ("discord", key.to_string(), "r".to_string(), None);
                let queued = push_all(&c, &[row("c:1"), row("c:2")], 100)?;
                read_beside_after_commit(&c, &queued.ids);
                *ids.borrow_mut() = queued.ids;
                if fail { Err(crate::store::StoreError::Refused("undone".into())) } else { Ok(()) }
            });
            assert_eq!(done.is_ok(), !fail);
            let ids = ids.into_inner();
            (beside_read_after_commit(&ids), ids)
        };
        let sent = crate::store::sql::statements_sent();
        let (beside, ids) = queue(false);
        if postgres {
            // BEGIN, the rows, COMMIT with the read.
            assert_eq!(crate::store::sql::statements_sent() - sent, 3, "statements");
            assert_eq!(beside, Some(vec![("discord".to_string(), "c:1".to_string(), earlier)]));
        } else {
            assert_eq!(beside, None, "read in the unit on SQLite");
        }
        assert_eq!(ids.len(), 2);
        // Again (the read prepared on the connection once it has run): the first unit's rows too.
        let mut waiting = vec![(1, earlier), (1, ids[0]), (2, ids[1])];
        for _ in 0..3 {
            let (beside, ids) = queue(false);
            let chat = |(n, id): &(u8, i64)| ("discord".to_string(), format!("c:{n}"), *id);
            assert_eq!(beside, postgres.then(|| waiting.iter().map(chat).collect()));
            waiting.extend([(1, ids[0]), (2, ids[1])]);
            waiting.sort();
        }
        if postgres {
            // Planned once on the connection, not at every commit (PostgreSQL would otherwise keep
            // planning it for the values given: a plan cost more than the read, `docs/load.md`).
            for _ in 0..6 {
                queue(false);
            }
            let plans: (i64, i64) = store
                .conn()
                .unwrap()
                .query_row(
                    "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = 'capabot_outbox_beside'",
                    (),
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!(plans, (9, 0), "the reads' plans on the connection: generic, custom");
        }
        let (beside, _) = queue(true);
        assert_eq!(beside, None, "a unit rolled back reads nothing");
        assert_eq!(beside_read_after_commit(&ids), None, "read once");
    }

    /// [`release_chats`] gives up the owner's leases on the chats named, in one statement for up to
    /// 64, and nobody else's, nor its other chats'.
    fn a_moments_quiet_chats_are_given_up_together(store: &Store) {
        let c = store.conn().unwrap();
        for count in [2, 9, 70] {
            let chats: Vec<(String, String)> = (0..=count).map(|n| ("discord".to_string(), format!("c:{n}"))).collect();
            for (platform, key) in &chats {
                assert!(lease_chat(&c, platform, key, "p1").unwrap());
            }
            assert!(lease_chat(&c, "discord", "c:other", "p2").unwrap());
            let (given_up, kept) = chats.split_at(count);
            let mut named = given_up.to_vec();
            named.push(("discord".to_string(), "c:other".to_string()));
            release_chats(&c, &named, "p1").unwrap();
            for (platform, key) in given_up {
                assert!(lease_chat(&c, platform, key, "p3").unwrap(), "{key} given up ({count})");
            }
            assert!(!lease_chat(&c, &kept[0].0, &kept[0].1, "p3").unwrap(), "the chat not named is kept");
            assert!(!lease_chat(&c, "discord", "c:other", "p3").unwrap(), "another owner's is kept");
            c.execute("DELETE FROM outbox_leases", ()).unwrap();
        }
    }

    /// [`take`] and [`sent_and_next`] (one statement each on PostgreSQL, outside any transaction):
    /// the lease decides who reads the rows; a look that finds nothing gives the lease up, so
    /// another process may deliver the chat at once; the row marked sent is not among the next.
    fn a_drain_takes_its_chat_and_its_rows_and_gives_the_chat_up_after_its_last_row(store: &Store) {
        let c = store.conn().unwrap();
        let ids = |rows: &[Pending]| rows.iter().map(|r| r.id).collect::<Vec<_>>();
        let lane = ("discord", "c:1");
        // Nothing waits: taken and given up in the same look.
        assert_eq!(take(&c, lane.0, lane.1, "p1", 10).unwrap(), Some(vec![]));
        assert_eq!(take(&c, lane.0, lane.1, "p2", 10).unwrap(), Some(vec![]), "p1 gave it up");
        let a1 = push(&c, lane.0, lane.1, "a1", Some(b"png"), 100).unwrap();
        let a2 = push(&c, lane.0, lane.1, "a2", None, 100).unwrap();
        let a3 = push(&c, lane.0, lane.1, "a3", None, 100).unwrap();
        push(&c, lane.0, "c:2", "b1", None, 100).unwrap();
        let rows = take(&c, lane.0, lane.1, "p1", 2).unwrap().expect("p1 holds the chat");
        assert_eq!(ids(&rows), vec![a1, a2]);
        assert_eq!((rows[0].reply.as_str(), rows[0].picture.as_deref()), ("a1", Some(&b"png"[..])));
        assert_eq!(rows[1].picture, None);
        assert_eq!(take(&c, lane.0, lane.1, "p2", 10).unwrap(), None, "held by p1");
        assert!(take(&c, lane.0, "c:2", "p2", 10).unwrap().is_some(), "another chat is free");
        assert_eq!(ids(&take(&c, lane.0, lane.1, "p1", 10).unwrap().unwrap()), vec![a1, a2, a3], "renewed by p1");
        let owned = (lane.0, lane.1, "p1");
        let give_up = WhenEmpty::GiveUp;
        assert_eq!(ids(&sent_and_next(&c, a1, Some("m1"), 101, owned, 1, give_up).unwrap()), vec![a2]);
        assert!(!is_pending(&c, a1).unwrap());
        assert_eq!(take(&c, lane.0, lane.1, "p2", 10).unwrap(), None, "still p1's");
        assert_eq!(ids(&sent_and_next(&c, a2, None, 102, owned, 10, give_up).unwrap()), vec![a3]);
        // The last row, its lease kept: nobody else takes the chat until p1 gives it up.
        assert_eq!(sent_and_next(&c, a3, Some("m3"), 103, owned, 10, WhenEmpty::Keep).unwrap(), vec![], "the last row");
        assert_eq!(take(&c, lane.0, lane.1, "p2", 10).unwrap(), None, "kept by p1");
        let a4 = push(&c, lane.0, lane.1, "a4", None, 104).unwrap();
        assert_eq!(
            ids(&pending_in(&c, lane.0, lane.1, 10).unwrap()),
            vec![a4],
            "p1 looks again without a lease written"
        );
        assert_eq!(sent_and_next(&c, a4, Some("m4"), 105, owned, 10, give_up).unwrap(), vec![], "given up");
        let (sent, message): (i64, String) = c
            .query_row(
                "SELECT count(*), max(message_id) FROM outbox WHERE chat_key = 'c:1' AND state = 'sent'",
                (),
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((sent, message.as_str()), (4, "m4"));
        let picture: Option<Vec<u8>> =
            c.query_row("SELECT picture FROM outbox WHERE id = ?1", [a1], |r| r.get(0)).unwrap();
        assert_eq!(picture, None, "a sent row's picture is not kept");
        assert_eq!(take(&c, lane.0, lane.1, "p2", 10).unwrap(), Some(vec![]), "given up with the last row");
    }

    fn rows_go_out_in_order_per_chat_and_a_waiting_row_holds_its_chat_back(store: &Store) {
        let c = store.conn().unwrap();
        let a1 = push(&c, "discord", "c:1", "a1", Some(b"png"), 100).unwrap();
        let b1 = push(&c, "discord", "c:2", "b1", None, 100).unwrap();
        let a2 = push(&c, "discord", "c:1", "a2", None, 100).unwrap();
        push(&c, "matrix", "c:1", "m1", None, 100).unwrap();
        let rows = pending_in(&c, "discord", "c:1", 10).unwrap();
        assert_eq!(rows.iter().map(|r| r.id).collect::<Vec<_>>(), vec![a1, a2]);
        assert_eq!(rows[0].picture.as_deref(), Some(&b"png"[..]));
        // The limit is written into the statement: each its own, each kept.
        assert_eq!(pending_in(&c, "discord", "c:1", 1).unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), vec![a1]);
        assert_eq!(pending_in(&c, "discord", "c:1", 2).unwrap().len(), 2);
        // New rows are their writer's for a while, then due for every drainer.
        assert_eq!(due_chats(&c, &["discord"], 100 + WRITER_GRACE_SECS - 1).unwrap(), vec![]);
        assert_eq!(
            due_chats(&c, &["discord"], 100 + WRITER_GRACE_SECS).unwrap(),
            vec![("discord".into(), "c:1".into()), ("discord".into(), "c:2".into())]
        );
        // a1 waits for its retry: its chat is not due, though a2 would be.
        retry_at(&c, a1, 1, 130, "503").unwrap();
        assert_eq!(due_chats(&c, &["discord"], 110).unwrap(), vec![("discord".into(), "c:2".into())]);
        assert_eq!(next_due(&c, &["discord"]).unwrap(), Some(100 + WRITER_GRACE_SECS));
        mark_sent(&c, b1, Some("m-9"), 111).unwrap();
        assert!(!is_pending(&c, b1).unwrap());
        assert_eq!(next_due(&c, &["discord"]).unwrap(), Some(100 + WRITER_GRACE_SECS), "a2 is due, behind a1");
        assert_eq!(due_chats(&c, &["discord"], 130).unwrap(), vec![("discord".into(), "c:1".into())]);
        mark_failed(&c, a1, "chat-gone", "404 Unknown Channel", 131).unwrap();
        assert_eq!(pending_in(&c, "discord", "c:1", 10).unwrap().iter().map(|r| r.id).collect::<Vec<_>>(), vec![a2]);
        let counts = counts(&c).unwrap();
        assert!(counts.contains(&("discord".into(), "failed:chat-gone".into(), 1)), "{counts:?}");
        assert!(counts.contains(&("discord".into(), "sent".into(), 1)), "{counts:?}");
        assert_eq!(prune(&c, 131 + KEEP_DONE_SECS + 1).unwrap(), 2);
    }

    fn one_process_at_a_time_delivers_a_chat(store: &Store) {
        let c = store.conn().unwrap();
        assert!(lease_chat_at(&c, "discord", "c:1", "p1", 100).unwrap());
        assert!(!lease_chat_at(&c, "discord", "c:1", "p2", 101).unwrap(), "held by p1");
        assert!(lease_chat_at(&c, "discord", "c:2", "p2", 101).unwrap(), "another chat is free");
        assert!(lease_chat_at(&c, "matrix", "c:1", "p2", 101).unwrap(), "so is the same key on another platform");
        assert!(lease_chat_at(&c, "discord", "c:1", "p1", 120).unwrap(), "renewed by its owner");
        assert!(!lease_chat_at(&c, "discord", "c:1", "p2", 120 + LEASE_SECS - 1).unwrap(), "renewal counts");
        release_chat(&c, "discord", "c:1", "p2").unwrap();
        assert!(!lease_chat_at(&c, "discord", "c:1", "p2", 121).unwrap(), "only the owner releases");
        release_chat(&c, "discord", "c:1", "p1").unwrap();
        assert!(lease_chat_at(&c, "discord", "c:1", "p2", 121).unwrap(), "released");
        // p2 dies holding it: p1 takes over once it runs out, not before.
        assert!(!lease_chat_at(&c, "discord", "c:1", "p1", 121 + LEASE_SECS - 1).unwrap());
        assert!(lease_chat_at(&c, "discord", "c:1", "p1", 121 + LEASE_SECS).unwrap());
        // By the database's clock: one owner at a time, whatever the processes' clocks say.
        let wall = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
        assert!((c.database_now().unwrap() - wall).abs() < 300, "the database's clock is the real time");
        assert!(lease_chat(&c, "discord", "c:9", "p1").unwrap());
        assert!(!lease_chat(&c, "discord", "c:9", "p2").unwrap(), "held by p1 until the database's now + LEASE_SECS");
        assert!(lease_chat(&c, "discord", "c:9", "p1").unwrap(), "renewed by its owner");
    }

    /// Taking a chat's lease and giving it up each write one page to SQLite's log: the table has
    /// no row id beside its key (migration 24; before, a page of the key's index as well).
    #[test]
    fn a_lease_taken_or_given_up_writes_one_page() {
        let (_dir, raw) = crate::store::testing::sqlite_schema();
        let c = Connection::Sqlite(raw);
        let log_pages = |write: &dyn Fn()| crate::store::testing::log_pages(&c, write);
        assert_eq!(log_pages(&|| assert!(lease_chat_at(&c, "discord", "c:1", "p1", 100).unwrap())), 1);
        assert_eq!(log_pages(&|| assert!(lease_chat_at(&c, "discord", "c:1", "p1", 101).unwrap())), 1);
        assert_eq!(log_pages(&|| release_chat(&c, "discord", "c:1", "p1").unwrap()), 1);
        assert!(lease_chat_at(&c, "discord", "c:1", "p2", 102).unwrap(), "given up");
    }

    /// A lease taken over passes from the process named to the one taking it, and only from it.
    fn a_lease_is_taken_over_only_from_its_holder(store: &Store) {
        let c = store.conn().unwrap();
        assert_eq!(lease_holder(&c, "discord", "c:1").unwrap(), None);
        assert!(lease_chat(&c, "discord", "c:1", "gone").unwrap());
        assert_eq!(lease_holder(&c, "discord", "c:1").unwrap().as_deref(), Some("gone"));
        assert!(!take_over(&c, "discord", "c:1", "someone else", "p2").unwrap(), "not the holder");
        assert!(!lease_chat(&c, "discord", "c:1", "p2").unwrap(), "still gone's");
        assert!(take_over(&c, "discord", "c:1", "gone", "p2").unwrap());
        assert_eq!(lease_holder(&c, "discord", "c:1").unwrap().as_deref(), Some("p2"));
        assert!(lease_chat(&c, "discord", "c:1", "p2").unwrap(), "p2's now");
        assert!(!lease_chat(&c, "discord", "c:1", "gone").unwrap());
    }

    fn a_held_row_expires_only_once_old_enough_and_still_pending(store: &Store) {
        let c = store.conn().unwrap();
        let held = push(&c, "discord", "c:1", "held", None, 100).unwrap();
        let sent = push(&c, "discord", "c:1", "sent", None, 100).unwrap();
        mark_sent(&c, sent, None, 101).unwrap();
        assert!(!expire_held(&c, held, 100, "old", 500).unwrap(), "written at 100: not before 100");
        assert!(is_pending(&c, held).unwrap());
        assert!(!expire_held(&c, sent, 1_000, "old", 1_000).unwrap(), "a sent row stays sent");
        assert!(expire_held(&c, held, 101, "old", 1_000).unwrap());
        assert!(!is_pending(&c, held).unwrap());
        let counts = counts(&c).unwrap();
        assert!(counts.contains(&("discord".into(), "failed:expired".into(), 1)), "{counts:?}");
        assert!(!expire_held(&c, held, 2_000, "old", 2_000).unwrap(), "expired once");
    }
}

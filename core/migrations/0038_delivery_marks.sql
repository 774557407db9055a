-- capabot schema, version 38: a delivery written down as a small mark of its own, not by rewriting
-- its outbox row (issue 42 §4, docs/load.md "Delivery marks apart").
--
-- SQLite's log holds whole pages: marking a row sent rewrote its page (a move's two replies fill a
-- 1 KiB page), a frame a move. Now a row is written once, as queued (`outbox_rows`); what waits is
-- its entry in `outbox_waiting` (what the partial index `outbox_pending` was, keyed alike: a chat's
-- waiting rows are read from its own entries); a delivery takes the entry out and writes
-- `outbox_sent` (the row's id, the platform's message id and when: a few dozen bytes, dozens to a
-- page, appended). A row that fails or waits for a retry is changed in place, as before.
--
-- `outbox` is a view of the rows as they were read before: its state is 'sent' once a mark is
-- written, its attempts count the delivery, its picture and last error are gone with it.
ALTER TABLE outbox RENAME TO outbox_rows;
DROP INDEX outbox_pending;

CREATE TABLE outbox_waiting (
    platform TEXT    NOT NULL,
    chat_key TEXT    NOT NULL,
    id       INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_key, id)
) WITHOUT ROWID;
INSERT INTO outbox_waiting (platform, chat_key, id)
    SELECT platform, chat_key, id FROM outbox_rows WHERE state = 'pending';

-- Forgotten with its row (`outbox::prune`).
CREATE TABLE outbox_sent (
    id         INTEGER PRIMARY KEY REFERENCES outbox_rows(id) ON DELETE CASCADE,
    message_id TEXT,
    done_at    INTEGER NOT NULL
);

CREATE VIEW outbox AS
    SELECT r.id, r.platform, r.chat_key, r.reply,
           CASE WHEN s.id IS NULL THEN r.picture END AS picture,
           r.created_at,
           CASE WHEN s.id IS NULL THEN r.state ELSE 'sent' END AS state,
           r.attempts + CASE WHEN s.id IS NULL THEN 0 ELSE 1 END AS attempts,
           r.next_attempt_at,
           CASE WHEN s.id IS NULL THEN r.message_id ELSE s.message_id END AS message_id,
           CASE WHEN s.id IS NULL THEN r.error END AS error,
           r.failure,
           CASE WHEN s.id IS NULL THEN r.done_at ELSE s.done_at END AS done_at
    FROM outbox_rows r LEFT JOIN outbox_sent s ON s.id = r.id;

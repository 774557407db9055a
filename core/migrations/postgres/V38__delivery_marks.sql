-- capabot schema for PostgreSQL, version 38 (../0038_delivery_marks.sql): the outbox's waiting rows
-- as entries of their own, and a table for deliveries' marks.
--
-- The schema follows SQLite's, where a delivery is written down as a mark apart from its row. Here
-- the log holds a row's change as the bytes that changed, so a delivery still changes its row
-- (`store::outbox`): with no index naming the row's state any more, that change stays in the row's
-- page (migration 28's room) and adds no index entry. `outbox_sent` holds the marks a copy from
-- SQLite brings (`capabot migrate`); the view reads both.
ALTER TABLE outbox RENAME TO outbox_rows;
DROP INDEX outbox_pending;

CREATE TABLE outbox_waiting (
    platform TEXT   NOT NULL,
    chat_key TEXT   NOT NULL,
    id       BIGINT NOT NULL,
    PRIMARY KEY (platform, chat_key, id)
);
INSERT INTO outbox_waiting (platform, chat_key, id)
    SELECT platform, chat_key, id FROM outbox_rows WHERE state = 'pending';

CREATE TABLE outbox_sent (
    id         BIGINT PRIMARY KEY REFERENCES outbox_rows(id) ON DELETE CASCADE,
    message_id TEXT,
    done_at    BIGINT NOT NULL
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

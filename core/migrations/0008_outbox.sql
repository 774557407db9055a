-- capabot schema, version 8: the transactional outbox. Every reply the core makes is written here
-- in the transaction of the change it announces; each front end drains its platform's rows in order
-- per chat and marks them sent with the platform's message id.

CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    platform        TEXT    NOT NULL,
    -- The chat (or a person's direct messages) the row goes to: rows of one key go out in id order.
    chat_key        TEXT    NOT NULL,
    -- The reply without its picture, as JSON (see src/store/outbox.rs).
    reply           TEXT    NOT NULL,
    picture         BLOB,
    created_at      INTEGER NOT NULL,
    state           TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    -- Not tried again before this time (a 429's retry-after, back-off after a 5xx or a timeout).
    next_attempt_at INTEGER NOT NULL,
    message_id      TEXT,
    -- Why the last attempt failed (no secrets: the front end's own words).
    error           TEXT,
    -- What kind of permanent failure ended it ('chat-gone', 'forbidden', 'refused', ...).
    failure         TEXT,
    done_at         INTEGER
);
CREATE INDEX outbox_pending ON outbox(platform, chat_key, id) WHERE state = 'pending';
CREATE INDEX outbox_done ON outbox(done_at) WHERE state <> 'pending';

-- A game whose chat is gone (channel deleted, bot removed, room left): its clock is stopped.
ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;

-- capabot schema, version 26: the outbox's ids without AUTOINCREMENT (issue 42, docs/load.md "One
-- index of what is due, the outbox without its sequence").
--
-- With AUTOINCREMENT every row queued also wrote the outbox's line of `sqlite_sequence`: a page more
-- in the log for each unit of work that answers (a move: 11 pages, one of them this). Without it a
-- new row takes the largest id there is plus one, which is as good as long as the row with the
-- largest id is kept: `outbox::prune` never forgets the newest row (from this version on). The ids
-- kept are the rows' own. Of the ids AUTOINCREMENT had handed out, only those of rows pruned at the
-- top of the table (rows done more than a week ago, when nothing newer was left) may be handed out
-- again; what the front ends derive from an id (Discord's nonce, Matrix's transaction id) is
-- remembered by the platforms for minutes to a day.
CREATE TABLE outbox_v26 (
    id              INTEGER PRIMARY KEY,
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
INSERT INTO outbox_v26 (id, platform, chat_key, reply, picture, created_at, state, attempts, next_attempt_at,
                        message_id, error, failure, done_at)
    SELECT id, platform, chat_key, reply, picture, created_at, state, attempts, next_attempt_at,
           message_id, error, failure, done_at
    FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_v26 RENAME TO outbox;
CREATE INDEX outbox_pending ON outbox(platform, chat_key, id) WHERE state = 'pending';

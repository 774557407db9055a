-- capabot schema, version 5: where a ladder lives in its community, and how its challenges meet
-- the ordinary ones.

-- The chat (and platform thread) a ladder was created in: its standings message goes there.
ALTER TABLE ladders ADD COLUMN chat_id TEXT;
ALTER TABLE ladders ADD COLUMN thread_id TEXT;

-- A ladder challenge is offered as an ordinary challenge too, so that `accept` and `decline`
-- (and their buttons) answer it.
CREATE TABLE ladder_challenge_links (
    challenge_id        INTEGER PRIMARY KEY REFERENCES challenges(id),
    ladder_id           INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season              INTEGER NOT NULL,
    ladder_challenge    INTEGER NOT NULL,
    UNIQUE (ladder_id, season, ladder_challenge)
);

-- Ladders whose standings message is owed (a game's result moved places inside the transaction
-- that stored it; the message is sent after it commits).
CREATE TABLE ladder_standings_due (
    ladder_id   INTEGER PRIMARY KEY REFERENCES ladders(id) ON DELETE CASCADE
);

-- capabot schema for PostgreSQL, version 5 (../0005_ladder_chat.sql).

ALTER TABLE ladders ADD COLUMN chat_id TEXT;
ALTER TABLE ladders ADD COLUMN thread_id TEXT;

-- The challenge's id, not a number of its own.
CREATE TABLE ladder_challenge_links (
    challenge_id        BIGINT  PRIMARY KEY REFERENCES challenges(id),
    ladder_id           BIGINT  NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season              BIGINT  NOT NULL,
    ladder_challenge    BIGINT  NOT NULL,
    UNIQUE (ladder_id, season, ladder_challenge)
);

CREATE TABLE ladder_standings_due (
    ladder_id   BIGINT  PRIMARY KEY REFERENCES ladders(id) ON DELETE CASCADE
);

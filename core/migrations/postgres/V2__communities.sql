-- capabot schema for PostgreSQL, version 2 (../0002_communities.sql).

ALTER TABLE games ADD COLUMN community_id TEXT;
ALTER TABLE games ADD COLUMN thread_id TEXT;
ALTER TABLE challenges ADD COLUMN community_id TEXT;
CREATE INDEX games_community ON games(platform, community_id, status);

-- Rebuilt as in SQLite, so that the columns keep SQLite's order.
CREATE TABLE chat_settings_v2 (
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    community_id    TEXT,
    prefix          TEXT,
    default_variant TEXT,
    default_days    BIGINT  CHECK (default_days IN (0, 1, 2, 3, 5, 7, 10, 14)),
    thread_per_game BIGINT  CHECK (thread_per_game IN (0, 1)),
    CONSTRAINT chat_settings_v2_pkey PRIMARY KEY (platform, chat_id)
);
INSERT INTO chat_settings_v2 (platform, chat_id, prefix, default_variant, default_days)
    SELECT platform, chat_id, prefix, default_variant, default_days FROM chat_settings;
DROP TABLE chat_settings;
ALTER TABLE chat_settings_v2 RENAME TO chat_settings;
ALTER TABLE chat_settings RENAME CONSTRAINT chat_settings_v2_pkey TO chat_settings_pkey;

CREATE TABLE community_settings (
    platform        TEXT    NOT NULL,
    community_id    TEXT    NOT NULL,
    prefix          TEXT,
    default_variant TEXT,
    default_days    BIGINT  CHECK (default_days IN (0, 1, 2, 3, 5, 7, 10, 14)),
    thread_per_game BIGINT  CHECK (thread_per_game IN (0, 1)),
    PRIMARY KEY (platform, community_id)
);

CREATE TABLE processed_events (
    platform    TEXT    NOT NULL,
    event_id    TEXT    NOT NULL,
    handled_at  BIGINT  NOT NULL,
    PRIMARY KEY (platform, event_id)
);
CREATE INDEX processed_events_age ON processed_events(handled_at);

CREATE TABLE reply_slots (
    platform    TEXT    NOT NULL,
    slot_key    TEXT    NOT NULL,
    message_id  TEXT    NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (platform, slot_key)
);

-- The player's id, not a number of its own (in SQLite a rowid alias that is also a reference).
CREATE TABLE player_prefs (
    player_id   BIGINT  PRIMARY KEY REFERENCES players(id),
    dm_notices  BIGINT  NOT NULL DEFAULT 1 CHECK (dm_notices IN (0, 1))
);

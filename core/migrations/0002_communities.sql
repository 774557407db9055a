-- capabot schema, version 2: communities (a Discord server, a Matrix space or room), threads per game,
-- redelivered events, replaceable messages and direct-message preferences. Every row of version 1 is
-- kept; a NULL community means none (the console, a direct chat, or data from before version 2).

-- The community of a game and of a challenge, and the thread a game is played in.
ALTER TABLE games ADD COLUMN community_id TEXT;
ALTER TABLE games ADD COLUMN thread_id TEXT;
ALTER TABLE challenges ADD COLUMN community_id TEXT;
CREATE INDEX games_community ON games(platform, community_id, status);

-- Per-chat settings, rebuilt to tell "inherit" (NULL) from "no clock" (0) in default_days and to
-- add the community and the thread setting. In version 1 a NULL default_days meant no clock, which
-- is also what a chat inherits when its community has set nothing.
CREATE TABLE chat_settings_v2 (
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    community_id    TEXT,
    prefix          TEXT,
    default_variant TEXT,
    default_days    INTEGER CHECK (default_days IN (0, 1, 2, 3, 5, 7, 10, 14)),
    thread_per_game INTEGER CHECK (thread_per_game IN (0, 1)),
    PRIMARY KEY (platform, chat_id)
) WITHOUT ROWID;
INSERT INTO chat_settings_v2 (platform, chat_id, prefix, default_variant, default_days)
    SELECT platform, chat_id, prefix, default_variant, default_days FROM chat_settings;
DROP TABLE chat_settings;
ALTER TABLE chat_settings_v2 RENAME TO chat_settings;

-- Community settings, inherited by the community's chats where they set nothing.
CREATE TABLE community_settings (
    platform        TEXT    NOT NULL,
    community_id    TEXT    NOT NULL,
    prefix          TEXT,
    default_variant TEXT,
    default_days    INTEGER CHECK (default_days IN (0, 1, 2, 3, 5, 7, 10, 14)),
    thread_per_game INTEGER CHECK (thread_per_game IN (0, 1)),
    PRIMARY KEY (platform, community_id)
) WITHOUT ROWID;

-- Platform events already handled (gateways and homeservers redeliver after a reconnect).
CREATE TABLE processed_events (
    platform    TEXT    NOT NULL,
    event_id    TEXT    NOT NULL,
    handled_at  INTEGER NOT NULL,
    PRIMARY KEY (platform, event_id)
) WITHOUT ROWID;
CREATE INDEX processed_events_age ON processed_events(handled_at);

-- Messages the bot may replace later (a standings message, "thinking…"): the platform's message id
-- under a key the core chose.
CREATE TABLE reply_slots (
    platform    TEXT    NOT NULL,
    slot_key    TEXT    NOT NULL,
    message_id  TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL,
    PRIMARY KEY (platform, slot_key)
) WITHOUT ROWID;

-- A person's preferences; a missing row means the defaults (direct-message notices on).
CREATE TABLE player_prefs (
    player_id   INTEGER PRIMARY KEY REFERENCES players(id),
    dm_notices  INTEGER NOT NULL DEFAULT 1 CHECK (dm_notices IN (0, 1))
);

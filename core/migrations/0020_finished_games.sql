-- capabot schema, version 20: fewer index entries a finished game carries and a game's end changes
-- (issue 45, docs/scale.md fix 18).
--
-- The open games of a chat, a player or a community are read only while open (`status IN
-- ('setup', 'active')`, written so in every query that reads them): their indexes hold the open
-- games alone, and a game's end removes its entry instead of moving it. A chat's games of any
-- status (the latest game of a player there) are read by chat alone, in id order, from an index
-- whose key a game's end does not change.
DROP INDEX games_chat;
CREATE INDEX games_chat ON games(platform, chat_id);
CREATE INDEX games_chat_open ON games(platform, chat_id) WHERE status IN ('setup', 'active');
DROP INDEX games_white;
CREATE INDEX games_white_open ON games(white_id) WHERE status IN ('setup', 'active');
DROP INDEX games_black;
CREATE INDEX games_black_open ON games(black_id) WHERE status IN ('setup', 'active');
DROP INDEX games_community;
CREATE INDEX games_community_open ON games(platform, community_id) WHERE status IN ('setup', 'active');

-- "A game is rated at most once per player and scope", keyed by the game first: a game's history
-- rows are next to each other and games end roughly in the order they were made, so a batch of
-- games ending writes a few pages at the end of this index instead of one page a player. The same
-- rows are unique as under `UNIQUE (player_id, scope, variant, game_id)` (a game has one variant).
-- SQLite cannot drop a table's own UNIQUE constraint: the table is made again, its rows and ids
-- kept.
CREATE TABLE rating_history_v20 (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    scope           TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    game_id         INTEGER REFERENCES games(id),
    at              INTEGER NOT NULL,
    rating_before   REAL    NOT NULL,
    rating_after    REAL    NOT NULL,
    deviation_after REAL    NOT NULL
);
INSERT INTO rating_history_v20 (id, player_id, scope, variant, game_id, at, rating_before, rating_after, deviation_after)
    SELECT id, player_id, scope, variant, game_id, at, rating_before, rating_after, deviation_after FROM rating_history;
DROP TABLE rating_history;
ALTER TABLE rating_history_v20 RENAME TO rating_history;
CREATE INDEX rating_history_player ON rating_history(player_id, scope, variant, at);
CREATE UNIQUE INDEX rating_history_game ON rating_history(game_id, player_id, scope);

-- capabot schema for PostgreSQL, version 41 (../0041_ended_at.sql): a game over keeps when it
-- ended in a column of its own, and the indexes of games over are keyed by it instead of by
-- `updated_at` (docs/postgres.md, "A move writes no index").
--
-- `updated_at` changes at every move. While it was a key of the three indexes of games over
-- (migration 27), PostgreSQL could not write a move as a heap-only tuple (HOT: the new version beside
-- the old on its page, no index touched), since a HOT update may change no column any index names,
-- whether the row is in that partial index or not: every move in real time (a second or more after
-- the game's last change) added an entry to each of the game's eight other indexes, and those
-- entries are what concurrent SERIALIZABLE units read each other's conflicts on. A game over's end
-- is its last change, so the lists order the same. SQLite reads and writes as before (it writes an
-- index entry only for a row in the partial index); the two backends' schemas stay alike.
ALTER TABLE games ADD COLUMN ended_at BIGINT;
UPDATE games SET ended_at = updated_at WHERE status IN ('finished', 'aborted');
DROP INDEX games_community_done;
DROP INDEX games_white_done;
DROP INDEX games_black_done;
CREATE INDEX games_community_done ON games (platform, community_id, ended_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_white_done ON games (white_id, platform, community_id, ended_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_black_done ON games (black_id, platform, community_id, ended_at) WHERE status IN ('finished', 'aborted');

-- capabot schema, version 27: the lists of recent games read the open games from the indexes of
-- open games (migration 20) and only the finished ones from indexes by their last change (issue 42,
-- docs/load.md "The recent lists without the games in play").
--
-- The three indexes of recent games (migration 16) were keyed by `updated_at`, which every move
-- changes: a move moved an entry in each, three pages of the nine its commit wrote. A game over's
-- last change is its end, so keyed the same way but holding the games over alone (finished or
-- aborted: the complement of the open games' indexes, so that every game of a player is still on
-- an index of one side or the other, `links::histories_meet`), they are written once a game, at
-- its end; the lists take the games in play from the open games' indexes, which a move leaves alone.
DROP INDEX games_community_recent;
DROP INDEX games_white_recent;
DROP INDEX games_black_recent;
CREATE INDEX games_community_done ON games (platform, community_id, updated_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_white_done ON games (white_id, platform, community_id, updated_at) WHERE status IN ('finished', 'aborted');
CREATE INDEX games_black_done ON games (black_id, platform, community_id, updated_at) WHERE status IN ('finished', 'aborted');

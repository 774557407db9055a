-- capabot schema, version 33: a community's tournaments by status, newest first.
--
-- A community's page shows its tournaments under way and its last finished ones, each list read from
-- the newest down and cut short (`tournaments::open_in`, `finished_in`), however many it ever held.
-- The index ends with the id so that each status's rows come in that order; on SQLite the rowid was
-- in the old index's entries already, and this one is the same, named as PostgreSQL's is.
DROP INDEX tournaments_community;
CREATE INDEX tournaments_community ON tournaments(platform, community_id, status, id);

-- capabot schema, version 33: a community's tournaments by status, newest first (see the SQLite
-- migration 0033). Without the id in the index, the last ten finished tournaments of a community were
-- its every finished tournament read and sorted.
DROP INDEX tournaments_community;
CREATE INDEX tournaments_community ON tournaments(platform, community_id, status, id);

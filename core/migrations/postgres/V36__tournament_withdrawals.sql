-- capabot schema, version 36: a player may withdraw from a running tournament (see the SQLite
-- migration 0036 for what the columns mean).
ALTER TABLE tournament_players ADD COLUMN withdrawn_at BIGINT;
ALTER TABLE tournament_players ADD COLUMN results_void BIGINT NOT NULL DEFAULT 0;

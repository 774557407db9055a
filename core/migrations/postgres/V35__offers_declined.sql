-- capabot schema, version 35: a declined offer is remembered until the next move (see the SQLite
-- migration 0035 for why).
ALTER TABLE offers ADD COLUMN declined_at BIGINT;

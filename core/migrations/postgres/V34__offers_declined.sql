-- capabot schema, version 34: a declined offer is remembered until the next move (see the SQLite
-- migration 0034 for why).
ALTER TABLE offers ADD COLUMN declined_at BIGINT;

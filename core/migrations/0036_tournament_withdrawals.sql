-- capabot schema, version 36: a player may withdraw from a running tournament.
--
-- `withdrawn_at` is when they did (NULL: still playing); later rounds do not pair them and their games
-- left unplayed are forfeits. `results_void` is 1 where FIDE's rule for round robins voids their results:
-- a player who withdraws having completed fewer than half of their games has the points scored by them
-- and against them left out of the standings (they stay in the crosstable).
ALTER TABLE tournament_players ADD COLUMN withdrawn_at INTEGER;
ALTER TABLE tournament_players ADD COLUMN results_void INTEGER NOT NULL DEFAULT 0;

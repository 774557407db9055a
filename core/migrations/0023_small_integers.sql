-- capabot schema, version 23: nothing changes on SQLite (issue 45, docs/scale.md).
--
-- PostgreSQL's migration 23 keeps a game's small integers (`setup`, `ai_level`, `days_per_move`,
-- `ply`, the two swaps and the three flags) in two bytes each instead of eight. SQLite already
-- stores an integer in the bytes its value needs (one byte up to 127), so this side only keeps the
-- two backends' migrations numbered alike.
SELECT 1;

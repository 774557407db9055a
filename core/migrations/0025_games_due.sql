-- capabot schema, version 25: one index of what each active game has next due, its reminder or its
-- deadline (issue 42, docs/load.md "One index of what is due"; issue 45, docs/scale.md).
--
-- A move sets both a game's deadline and its reminder time, and each had an index of its own
-- (`games_deadline`, `games_remind`): two entries moved, two pages written to the log a move, and
-- two removed at the game's end. The scheduler looks for both at every tick; one index keyed by the
-- earlier of the two finds both (a game is due for something once that time has passed), and a
-- move moves one entry. The expression is the earlier of the two times that are set (SQLite's
-- `min` of several values is NULL when one is), written exactly so in the store's queries
-- (`store::games`) for SQLite to read this index for them.
DROP INDEX games_deadline;
DROP INDEX games_remind;
CREATE INDEX games_due ON games(platform, min(coalesce(remind_at, deadline), coalesce(deadline, remind_at)))
    WHERE status = 'active';

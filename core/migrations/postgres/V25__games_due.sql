-- capabot schema for PostgreSQL, version 25: one index of what each active game has next due, its
-- reminder or its deadline, instead of one of each (../0025_games_due.sql says why). `LEAST` leaves
-- out a NULL, so the expression is the earlier of the two times that are set; the store's queries
-- write it exactly so (`store::games`).
DROP INDEX games_deadline;
DROP INDEX games_remind;
CREATE INDEX games_due ON games (platform, (LEAST(remind_at, deadline))) WHERE status = 'active';

-- capabot schema for PostgreSQL, version 37: the index of what is due next covers games in their
-- setup phase too, which now run on the game's clock (../0037_setup_clock.sql says why).
DROP INDEX games_due;
CREATE INDEX games_due ON games (platform, (LEAST(remind_at, deadline))) WHERE status IN ('setup', 'active');

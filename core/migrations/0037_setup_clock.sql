-- capabot schema, version 37: a Capablanca Relocation game's setup phase runs on the game's clock.
--
-- Before, a game in its setup phase had no deadline, so one player who never chose their swap held
-- the game (and a tournament's later rounds) for ever. Now the side to choose has the game's time per
-- move, is reminded, and counts as "no swap" when it runs out: the scheduler reads games in setup
-- from the index of what is due next as it reads active games, and the store's queries name its
-- condition exactly so (`store::games`).
DROP INDEX games_due;
CREATE INDEX games_due ON games(platform, min(coalesce(remind_at, deadline), coalesce(deadline, remind_at)))
    WHERE status IN ('setup', 'active');

-- capabot schema, version 39: the index of what is due keyed by a time no later than what a game has
-- next due, which a move leaves as it is (issue 42 §4, docs/load.md "Bytes a move, stop 108").
--
-- `games_due` (migrations 25 and 37) was keyed by the earlier of a game's reminder and deadline, and
-- every move sets both (later ones): its entry moved, one page of SQLite's log a move. Now the index
-- is keyed by `due_from`, a time no later than either: a move that only puts them later does not
-- change it; the trigger `games_due_sooner` brings it forward when a statement sets them earlier (a
-- new game, a clock set again, a take-back), so a game never comes due later than its times say. The
-- scheduler reads the entries at or before the time now, takes the games whose reminder or deadline
-- has passed, and keys the others again by their real times (`store::games::catch_up_due`): once a
-- reminder period a game, not once a move.
ALTER TABLE games ADD COLUMN due_from INTEGER;
UPDATE games SET due_from = min(coalesce(remind_at, deadline), coalesce(deadline, remind_at))
    WHERE status IN ('setup', 'active');
DROP INDEX games_due;
CREATE INDEX games_due ON games(platform, due_from) WHERE status IN ('setup', 'active');
-- A statement that does not name `due_from` leaves it; one that sets a game's times earlier than it
-- (or sets them in a game without one) brings it to them. A new game's is set here too.
CREATE TRIGGER games_due_new AFTER INSERT ON games
    WHEN NEW.status IN ('setup', 'active')
BEGIN
    UPDATE games SET due_from = min(coalesce(NEW.remind_at, NEW.deadline), coalesce(NEW.deadline, NEW.remind_at))
        WHERE id = NEW.id;
END;
CREATE TRIGGER games_due_sooner AFTER UPDATE OF deadline, remind_at, status ON games
    WHEN NEW.status IN ('setup', 'active')
        AND min(coalesce(NEW.remind_at, NEW.deadline), coalesce(NEW.deadline, NEW.remind_at))
            < coalesce(NEW.due_from, 9223372036854775807)
BEGIN
    UPDATE games SET due_from = min(coalesce(NEW.remind_at, NEW.deadline), coalesce(NEW.deadline, NEW.remind_at))
        WHERE id = NEW.id;
END;

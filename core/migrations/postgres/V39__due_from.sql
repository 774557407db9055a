-- capabot schema for PostgreSQL, version 39 (../0039_due_from.sql says why): the index of what is
-- due keyed by `due_from`, a time no later than a game's reminder and deadline, which a move that
-- puts them later leaves as it is; the trigger brings it forward when they are set earlier.
ALTER TABLE games ADD COLUMN due_from BIGINT;
UPDATE games SET due_from = LEAST(remind_at, deadline) WHERE status IN ('setup', 'active');
DROP INDEX games_due;
CREATE INDEX games_due ON games (platform, due_from) WHERE status IN ('setup', 'active');
CREATE FUNCTION games_due_sooner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status IN ('setup', 'active')
        AND LEAST(NEW.remind_at, NEW.deadline) < coalesce(NEW.due_from, 9223372036854775807) THEN
        NEW.due_from := LEAST(NEW.remind_at, NEW.deadline);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER games_due_sooner BEFORE INSERT OR UPDATE OF deadline, remind_at, status ON games
    FOR EACH ROW EXECUTE FUNCTION games_due_sooner();

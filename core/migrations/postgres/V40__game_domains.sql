-- capabot schema for PostgreSQL, version 40: a game's values checked by their types, not by the
-- table (issue 42 §4, docs/load.md "PostgreSQL a move, stop 110").
--
-- PostgreSQL prepares a table's CHECK constraints again for every statement that writes a row of
-- it, whichever columns the statement sets: a move's `UPDATE` of `games` (its ply, position and
-- times) prepared all nine, about half of what the statement cost the server. A domain's check is
-- prepared once a session and applied only where a statement assigns a value of the domain: a
-- move now checks its ply alone. The same values are refused as before (tests/pg/schema.rs), with
-- the domain's name in the error instead of the constraint's. The other two tables a move writes
-- with a check of their own, the outbox's rows (two a move) and the game's moves, change alike;
-- each has a view over it (migrations 21 and 38), made again as it was.
CREATE DOMAIN game_status AS TEXT CHECK (VALUE IN ('setup', 'active', 'finished', 'aborted'));
CREATE DOMAIN game_result AS TEXT CHECK (VALUE IN ('1-0', '0-1', '1/2-1/2'));
CREATE DOMAIN ai_level AS SMALLINT CHECK (VALUE BETWEEN 1 AND 8);
CREATE DOMAIN days_per_move AS SMALLINT CHECK (VALUE IN (1, 2, 3, 5, 7, 10, 14));
CREATE DOMAIN game_ply AS SMALLINT CHECK (VALUE >= 0);
CREATE DOMAIN setup_swap AS SMALLINT CHECK (VALUE BETWEEN 0 AND 11);
CREATE DOMAIN flag AS SMALLINT CHECK (VALUE IN (0, 1));

-- The trigger names `status` among the columns it watches, which keeps the column's type fixed
-- while it exists: made again as it was once the types are changed.
DROP TRIGGER games_due_sooner ON games;
ALTER TABLE games
    DROP CONSTRAINT games_status_check,
    DROP CONSTRAINT games_result_check,
    DROP CONSTRAINT games_ai_level_check,
    DROP CONSTRAINT games_days_per_move_check,
    DROP CONSTRAINT games_ply_check,
    DROP CONSTRAINT games_white_swap_check,
    DROP CONSTRAINT games_black_swap_check,
    DROP CONSTRAINT games_rated_check,
    DROP CONSTRAINT games_interaction_only_check,
    ALTER COLUMN status TYPE game_status,
    ALTER COLUMN result TYPE game_result,
    ALTER COLUMN ai_level TYPE ai_level,
    ALTER COLUMN days_per_move TYPE days_per_move,
    ALTER COLUMN ply TYPE game_ply,
    ALTER COLUMN white_swap TYPE setup_swap,
    ALTER COLUMN black_swap TYPE setup_swap,
    ALTER COLUMN rated TYPE flag,
    ALTER COLUMN interaction_only TYPE flag;
CREATE TRIGGER games_due_sooner BEFORE INSERT OR UPDATE OF deadline, remind_at, status ON games
    FOR EACH ROW EXECUTE FUNCTION games_due_sooner();

CREATE DOMAIN outbox_state AS TEXT CHECK (VALUE IN ('pending', 'sent', 'failed'));
CREATE DOMAIN move_list AS BYTEA CHECK (length(VALUE) >= 2);
-- Each view is made again from its own definition, as the server keeps it.
DO $$
DECLARE
    outbox_text TEXT := pg_get_viewdef('outbox'::regclass);
    moves_text TEXT := pg_get_viewdef('moves'::regclass);
BEGIN
    DROP VIEW outbox;
    DROP VIEW moves;
    ALTER TABLE outbox_rows
        DROP CONSTRAINT outbox_state_check,
        ALTER COLUMN state TYPE outbox_state;
    ALTER TABLE game_moves
        DROP CONSTRAINT game_moves_moves_check,
        ALTER COLUMN moves TYPE move_list;
    EXECUTE 'CREATE VIEW outbox AS ' || outbox_text;
    EXECUTE 'CREATE VIEW moves AS ' || moves_text;
END $$;

-- capabot schema for PostgreSQL, version 21 (../0021_binary_moves.sql, which says why and how the
-- moves are written). The table is made again, so that its columns keep SQLite's order; the old
-- one's names are moved aside first, its rows written into the new one by the function below.
DROP VIEW moves;
ALTER TABLE game_moves RENAME TO game_moves_v20;
ALTER TABLE game_moves_v20 RENAME CONSTRAINT game_moves_pkey TO game_moves_v20_pkey;
ALTER TABLE game_moves_v20 RENAME CONSTRAINT game_moves_game_id_fkey TO game_moves_v20_game_id_fkey;
CREATE TABLE game_moves (
    game_id     BIGINT  PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    moves       BYTEA   NOT NULL CHECK (length(moves) >= 2),
    times       BYTEA   NOT NULL
);

-- A game's moves in coordinates, separated by spaces, as `store::games::encode_moves` writes them;
-- a move of another shape stops the migration, naming it.
CREATE FUNCTION pg_temp.capabot_moves(game BIGINT, uci TEXT) RETURNS BYTEA AS $$
DECLARE
    result BYTEA := ''::BYTEA;
    move TEXT;
    m TEXT[];
    origin INT;
    target INT;
    kind INT;
    extra BYTEA;
BEGIN
    FOREACH move IN ARRAY string_to_array(uci, ' ') LOOP
        -- 1, 2 origin; 3, 4 a launch's target; 5, 6 the target; 7 a promotion; 8-11 the missiles.
        m := regexp_match(move, '^([a-j])(10|[1-9])(?:\^([a-j])(10|[1-9])|([a-j])(10|[1-9])'
            '(?:([pnbrqkacm])|\[([a-j])(10|[1-9])(?:,([a-j])(10|[1-9]))?\])?)$');
        IF m IS NULL THEN
            RAISE EXCEPTION 'migration 21, game %: % is not a move in coordinates that capabot stores', game, quote_literal(move);
        END IF;
        origin := ascii(m[1]) - 97 + 10 * (m[2]::INT - 1);
        extra := ''::BYTEA;
        IF m[3] IS NOT NULL THEN
            kind := 1;
            target := ascii(m[3]) - 97 + 10 * (m[4]::INT - 1);
        ELSE
            target := ascii(m[5]) - 97 + 10 * (m[6]::INT - 1);
            IF m[7] IS NOT NULL THEN
                kind := 2;
                extra := set_byte('\x00'::BYTEA, 0, ascii(m[7]));
            ELSIF m[8] IS NOT NULL THEN
                kind := 3;
                extra := set_byte('\x00'::BYTEA, 0, ascii(m[8]) - 97 + 10 * (m[9]::INT - 1));
                IF m[10] IS NOT NULL THEN
                    extra := set_byte(extra, 0, get_byte(extra, 0) | 128)
                        || set_byte('\x00'::BYTEA, 0, ascii(m[10]) - 97 + 10 * (m[11]::INT - 1));
                END IF;
            ELSE
                kind := 0;
            END IF;
        END IF;
        result := result || set_byte('\x00'::BYTEA, 0, origin | ((kind >> 1) << 7))
            || set_byte('\x00'::BYTEA, 0, target | ((kind & 1) << 7)) || extra;
    END LOOP;
    RETURN result;
END
$$ LANGUAGE plpgsql IMMUTABLE;

INSERT INTO game_moves (game_id, moves, times)
SELECT game_id, pg_temp.capabot_moves(game_id, uci), times FROM game_moves_v20 ORDER BY game_id;
DROP FUNCTION pg_temp.capabot_moves(BIGINT, TEXT);
DROP TABLE game_moves_v20;

-- `walk` finds where each move starts (`at`, a byte's offset): two bytes, three with the first
-- byte's high bit (a promotion, or a missile), four when the second's and the missile's are set too.
CREATE VIEW moves (game_id, ply, uci) AS
    WITH RECURSIVE walk (game_id, moves, at, ply) AS (
        SELECT game_id, moves, 0, 1::BIGINT FROM game_moves
        UNION ALL
        SELECT w.game_id, w.moves, n.at, w.ply + 1
        FROM walk w, LATERAL (SELECT w.at + CASE
            WHEN get_byte(w.moves, w.at) < 128 THEN 2
            WHEN get_byte(w.moves, w.at + 1) < 128 OR get_byte(w.moves, w.at + 2) < 128 THEN 3
            ELSE 4 END AS at) n
        WHERE n.at < length(w.moves)
    )
    SELECT w.game_id, w.ply,
        chr(97 + a.b0 % 128 % 10) || (a.b0 % 128 / 10 + 1)
        || CASE WHEN a.b0 < 128 AND a.b1 >= 128 THEN '^' ELSE '' END
        || chr(97 + a.b1 % 128 % 10) || (a.b1 % 128 / 10 + 1)
        || CASE
            WHEN a.b0 < 128 THEN ''
            WHEN a.b1 < 128 THEN chr(b.b2)
            ELSE '[' || chr(97 + b.b2 % 128 % 10) || (b.b2 % 128 / 10 + 1)
                || CASE WHEN b.b2 >= 128 THEN ',' || chr(97 + c.b3 % 10) || (c.b3 / 10 + 1) ELSE '' END || ']'
        END
    FROM walk w,
        LATERAL (SELECT get_byte(w.moves, w.at) AS b0, get_byte(w.moves, w.at + 1) AS b1) a,
        LATERAL (SELECT CASE WHEN a.b0 >= 128 THEN get_byte(w.moves, w.at + 2) END AS b2) b,
        LATERAL (SELECT CASE WHEN a.b0 >= 128 AND a.b1 >= 128 AND b.b2 >= 128 THEN get_byte(w.moves, w.at + 3) END AS b3) c;

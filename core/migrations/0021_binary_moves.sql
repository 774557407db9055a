-- capabot schema, version 21: a game's moves in about two bytes a ply (issue 45, docs/scale.md).
--
-- `game_moves.uci`, the moves in coordinates separated by spaces (about five bytes a ply), becomes
-- `game_moves.moves`, the moves as `store::games::encode_moves` writes them: each move two bytes,
-- the origin and target squares (file a-j plus ten times the rank less one: 0 to 99), whose high
-- bits are the move's kind (the first byte's the higher): 0 plain (a detonation `e4e4` too), 1 a
-- launch (`e1^e5`), 2 a promotion (one more byte: the piece's letter in ASCII), 3 castling with
-- missiles (`f2j2[e1,g1]`: one more byte a missile, its square, the high bit set on the first of
-- two). The table is made again (SQLite cannot change a column's type); the migration's code
-- (`store::games::migrate_binary_moves`) writes every game's moves into it and drops the old one.
-- The `moves` view shows them in coordinates again, one row a ply, decoded here in SQL.
DROP VIEW moves;
ALTER TABLE game_moves RENAME TO game_moves_v20;
CREATE TABLE game_moves (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    moves       BLOB    NOT NULL CHECK (length(moves) >= 2),
    times       BLOB    NOT NULL
);
-- `walk` finds where each move starts (`at`, in the hexadecimal text of the bytes, two digits a
-- byte): a move is two bytes, three with the first byte's high bit (a promotion, or a missile),
-- four when the second's and the missile's are set too (two missiles). A hexadecimal digit of 8
-- or more is a byte whose high bit is set. The last row of a game's walk starts past its end.
CREATE VIEW moves (game_id, ply, uci) AS
    WITH RECURSIVE walk (game_id, hex, at, ply) AS (
        SELECT game_id, hex(moves), 1, 1 FROM game_moves
        UNION ALL
        SELECT game_id, hex, at + 4 + 2 * (substr(hex, at, 1) >= '8')
                + 2 * (substr(hex, at, 1) >= '8' AND substr(hex, at + 2, 1) >= '8' AND substr(hex, at + 4, 1) >= '8'),
            ply + 1
        FROM walk WHERE at <= length(hex)
    ),
    bytes (game_id, ply, b0, b1, b2, b3) AS (
        SELECT game_id, ply,
            (instr('0123456789ABCDEF', substr(hex, at, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex, at + 1, 1)) - 1,
            (instr('0123456789ABCDEF', substr(hex, at + 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex, at + 3, 1)) - 1,
            (instr('0123456789ABCDEF', substr(hex, at + 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex, at + 5, 1)) - 1,
            (instr('0123456789ABCDEF', substr(hex, at + 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(hex, at + 7, 1)) - 1
        FROM walk WHERE at <= length(hex)
    )
    SELECT game_id, ply,
        char(97 + b0 % 128 % 10) || (b0 % 128 / 10 + 1)
        || CASE WHEN b0 < 128 AND b1 >= 128 THEN '^' ELSE '' END
        || char(97 + b1 % 128 % 10) || (b1 % 128 / 10 + 1)
        || CASE
            WHEN b0 < 128 THEN ''
            WHEN b1 < 128 THEN char(b2)
            ELSE '[' || char(97 + b2 % 128 % 10) || (b2 % 128 / 10 + 1)
                || CASE WHEN b2 >= 128 THEN ',' || char(97 + b3 % 10) || (b3 / 10 + 1) ELSE '' END || ']'
        END
    FROM bytes;

-- capabot schema, version 15: what a large database needs (issue 45, docs/scale.md).
--
-- A game's moves in one row. `game_moves` holds a game's moves as one text of coordinates
-- (`uci::write`, separated by single spaces) and when each was played as a blob of varints (the
-- seconds since the move before, the first since 0; `store::games::encode_times`). A row of
-- `moves` per ply, with the move also as typed and in SAN, took about 30 bytes a ply; this takes
-- about 8. The move as typed and in SAN are no longer kept (SAN is derived by replaying). The rows
-- of `moves` are copied by the migration's code (`store::migrate_moves`), which then drops
-- `moves_v14`; `moves` is now a view of the moves one per row, for people reading the database.
ALTER TABLE moves RENAME TO moves_v14;
CREATE TABLE game_moves (
    game_id     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    uci         TEXT    NOT NULL CHECK (uci <> ''),
    times       BLOB    NOT NULL
);
CREATE VIEW moves (game_id, ply, uci) AS
    WITH RECURSIVE split (game_id, ply, uci, rest) AS (
        SELECT game_id, 0, NULL, uci || ' ' FROM game_moves
        UNION ALL
        SELECT game_id, ply + 1, substr(rest, 1, instr(rest, ' ') - 1), substr(rest, instr(rest, ' ') + 1)
        FROM split WHERE rest <> ''
    )
    SELECT game_id, ply, uci FROM split WHERE ply > 0;

-- Leaderboards without reading every rating. `provisional_at` is the time from which a rating,
-- if its player plays no more rated games, is provisional (its deviation, grown by idle rating
-- periods, above 110): the smallest whole number of five-day periods k after the last game with
-- deviation² + k·(173.7178·volatility)² > 110² (`Rating::provisional_from`, where the numbers
-- come from; the smallest integer for a rating already provisional, the largest for one that never
-- will be within 100,000 periods or has no game). The established players at a time are then an
-- index range, and the best of them an index walk in rating order.
ALTER TABLE ratings ADD COLUMN provisional_at INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET provisional_at = CASE
    WHEN deviation > 110 THEN -9223372036854775808
    WHEN last_game_at IS NULL THEN 9223372036854775807
    WHEN (12100.0 - deviation * deviation) / ((173.7178 * volatility) * (173.7178 * volatility)) >= 100000
        THEN 9223372036854775807
    ELSE last_game_at + (CAST((12100.0 - deviation * deviation)
        / ((173.7178 * volatility) * (173.7178 * volatility)) AS INTEGER) + 1) * 432000
END;
CREATE INDEX ratings_best ON ratings(scope, variant, rating DESC, games DESC, provisional_at);
CREATE INDEX ratings_busiest ON ratings(scope, variant, games DESC, rating DESC, provisional_at);
CREATE INDEX ratings_established ON ratings(scope, variant, provisional_at, rating);

-- The tournaments whose end is not announced yet, looked for after every command.
CREATE INDEX tournaments_unannounced ON tournaments(id) WHERE announced_end = 0;

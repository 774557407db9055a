-- capabot schema for PostgreSQL, version 15 (../0015_scale.sql, which says why).

CREATE TABLE game_moves (
    game_id     BIGINT  PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    uci         TEXT    NOT NULL CHECK (uci <> ''),
    times       BYTEA   NOT NULL
);

-- The times as `store::games::encode_times` writes them: each the seconds since the one before
-- (the first since 0), zigzag-encoded (0, -1, 1, -2, … as 0, 1, 2, 3, …), as little-endian base-128
-- varints (seven bits a byte, the high bit set on every byte but the last).
CREATE FUNCTION pg_temp.capabot_times(deltas BIGINT[]) RETURNS BYTEA AS $$
DECLARE
    result BYTEA := ''::BYTEA;
    delta BIGINT;
    z BIGINT;
BEGIN
    FOREACH delta IN ARRAY deltas LOOP
        z := CASE WHEN delta >= 0 THEN delta * 2 ELSE -delta * 2 - 1 END;
        WHILE z >= 128 LOOP
            result := result || set_byte('\x00'::BYTEA, 0, ((z & 127) | 128)::INT);
            z := z >> 7;
        END LOOP;
        result := result || set_byte('\x00'::BYTEA, 0, z::INT);
    END LOOP;
    RETURN result;
END
$$ LANGUAGE plpgsql IMMUTABLE;

INSERT INTO game_moves (game_id, uci, times)
SELECT game_id, string_agg(uci, ' ' ORDER BY ply), pg_temp.capabot_times(array_agg(played_at - before ORDER BY ply))
FROM (SELECT game_id, ply, uci, played_at,
             coalesce(lag(played_at) OVER (PARTITION BY game_id ORDER BY ply), 0) AS before
      FROM moves) AS m
GROUP BY game_id;
DROP FUNCTION pg_temp.capabot_times(BIGINT[]);
DROP TABLE moves;
CREATE VIEW moves (game_id, ply, uci) AS
    SELECT m.game_id, t.ply, t.uci
    FROM game_moves m, unnest(string_to_array(m.uci, ' ')) WITH ORDINALITY AS t (uci, ply);

ALTER TABLE ratings ADD COLUMN provisional_at BIGINT NOT NULL DEFAULT 0;
UPDATE ratings SET provisional_at = CASE
    WHEN deviation > 110 THEN -9223372036854775808
    WHEN last_game_at IS NULL THEN 9223372036854775807
    WHEN (12100.0 - deviation * deviation) / ((173.7178 * volatility) * (173.7178 * volatility)) >= 100000
        THEN 9223372036854775807
    ELSE last_game_at + (CAST(floor((12100.0 - deviation * deviation)
        / ((173.7178 * volatility) * (173.7178 * volatility))) AS BIGINT) + 1) * 432000
END;
CREATE INDEX ratings_best ON ratings(scope, variant, rating DESC, games DESC, provisional_at);
CREATE INDEX ratings_busiest ON ratings(scope, variant, games DESC, rating DESC, provisional_at);
CREATE INDEX ratings_established ON ratings(scope, variant, provisional_at, rating);

CREATE INDEX tournaments_unannounced ON tournaments(id) WHERE announced_end = 0;

-- capabot schema for PostgreSQL, version 4 (../0004_rated_games.sql).

ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE community_settings ADD COLUMN rated_games TEXT CHECK (rated_games IN ('choice', 'always', 'never'));

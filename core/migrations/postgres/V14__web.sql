-- capabot schema for PostgreSQL, version 14 (../0014_web.sql).

ALTER TABLE games ADD COLUMN web_slug TEXT;
UPDATE games SET web_slug = replace(gen_random_uuid()::text, '-', '');
CREATE UNIQUE INDEX games_web_slug ON games (web_slug);
ALTER TABLE community_settings ADD COLUMN web BIGINT CHECK (web IN (0, 1));

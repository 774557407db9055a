-- capabot schema for PostgreSQL, version 22 (../0022_binary_web_slug.sql, which says why). The
-- column is added again, as on SQLite, so that the two tables' columns keep one order. The text is
-- set to NULL in the rows' new versions: PostgreSQL drops a column without rewriting the rows, and
-- a row written with the text would keep it for good.
DROP INDEX games_web_slug;
ALTER TABLE games ADD COLUMN web_key BYTEA;
UPDATE games SET web_key = decode(web_slug, 'hex'), web_slug = NULL;
ALTER TABLE games DROP COLUMN web_slug;
ALTER TABLE games RENAME COLUMN web_key TO web_slug;
CREATE UNIQUE INDEX games_web_slug ON games (web_slug);

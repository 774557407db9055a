-- capabot schema, version 22: a game's web address in 16 bytes (issue 45, docs/scale.md).
--
-- `games.web_slug`, the address of a game's web page (`/g/<slug>`: 128 random bits), was kept as
-- its 32 lowercase hexadecimal digits; it is now kept as its 16 bytes, in the row and in its unique
-- index, and written as the same 32 digits wherever it is shown (`store::games::slug`). The
-- column is added again (SQLite cannot change a column's type), so it is now the table's last.
DROP INDEX games_web_slug;
ALTER TABLE games ADD COLUMN web_key BLOB;
UPDATE games SET web_key = unhex(web_slug);
ALTER TABLE games DROP COLUMN web_slug;
ALTER TABLE games RENAME COLUMN web_key TO web_slug;
CREATE UNIQUE INDEX games_web_slug ON games (web_slug);

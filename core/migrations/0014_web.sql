-- capabot schema, version 14: the web pages (issue 47). Each game gets an address that cannot be
-- guessed from its number (a random slug, 32 hexadecimal digits); a community shows its games,
-- ladders and tournaments on the web only once an administrator turned `web` on (NULL: off).

ALTER TABLE games ADD COLUMN web_slug TEXT;
UPDATE games SET web_slug = lower(hex(randomblob(16)));
CREATE UNIQUE INDEX games_web_slug ON games (web_slug);
ALTER TABLE community_settings ADD COLUMN web INTEGER CHECK (web IN (0, 1));

-- capabot schema for PostgreSQL, version 9 (../0009_secret_bombs.sql).

ALTER TABLE games ADD COLUMN white_bomb TEXT;
ALTER TABLE games ADD COLUMN black_bomb TEXT;

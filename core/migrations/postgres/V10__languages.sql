-- capabot schema for PostgreSQL, version 10 (../0010_languages.sql).

ALTER TABLE player_prefs ADD COLUMN lang TEXT;
ALTER TABLE chat_settings ADD COLUMN lang TEXT;
ALTER TABLE community_settings ADD COLUMN lang TEXT;

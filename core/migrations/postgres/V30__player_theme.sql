-- capabot schema for PostgreSQL, version 30 (../0030_player_theme.sql).

ALTER TABLE player_prefs ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));

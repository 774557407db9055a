-- capabot schema for PostgreSQL, version 29 (../0029_theme.sql).

ALTER TABLE chat_settings ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));
ALTER TABLE community_settings ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));

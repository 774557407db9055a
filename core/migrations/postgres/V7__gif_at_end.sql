-- capabot schema for PostgreSQL, version 7 (../0007_gif_at_end.sql).

ALTER TABLE chat_settings ADD COLUMN gif_at_end BIGINT CHECK (gif_at_end IN (0, 1));
ALTER TABLE community_settings ADD COLUMN gif_at_end BIGINT CHECK (gif_at_end IN (0, 1));

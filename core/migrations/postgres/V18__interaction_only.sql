-- capabot schema for PostgreSQL, version 18 (../0018_interaction_only.sql).

ALTER TABLE games ADD COLUMN interaction_only BIGINT NOT NULL DEFAULT 0 CHECK (interaction_only IN (0, 1));
ALTER TABLE challenges ADD COLUMN interaction_only BIGINT NOT NULL DEFAULT 0 CHECK (interaction_only IN (0, 1));

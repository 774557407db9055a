-- capabot schema for PostgreSQL, version 6 (../0006_tournament_chat.sql).

ALTER TABLE tournaments ADD COLUMN chat_id TEXT;
ALTER TABLE tournaments ADD COLUMN thread_id TEXT;
ALTER TABLE tournaments ADD COLUMN signup_until BIGINT;
ALTER TABLE tournaments ADD COLUMN announced_round BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN announced_end BIGINT NOT NULL DEFAULT 0;
CREATE INDEX tournaments_signup ON tournaments(signup_until) WHERE status = 'registration';

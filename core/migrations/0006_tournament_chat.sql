-- capabot schema, version 6: where a tournament lives in its community, when its registration
-- closes by itself, and what of it has been announced.

-- The chat (and platform thread) a tournament was created in: pairings and standings go there.
ALTER TABLE tournaments ADD COLUMN chat_id TEXT;
ALTER TABLE tournaments ADD COLUMN thread_id TEXT;
-- When registration closes and the tournament starts by itself (NULL: an administrator starts it).
ALTER TABLE tournaments ADD COLUMN signup_until INTEGER;
-- The last round whose pairings were announced, and whether the final standings were.
ALTER TABLE tournaments ADD COLUMN announced_round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN announced_end INTEGER NOT NULL DEFAULT 0;
CREATE INDEX tournaments_signup ON tournaments(signup_until) WHERE status = 'registration';

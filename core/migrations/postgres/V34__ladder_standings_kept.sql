-- capabot schema, version 34: a ladder's current standings kept with it, and its open challenges
-- indexed (see the SQLite migration 0034).
ALTER TABLE ladders ADD COLUMN standings TEXT;
CREATE INDEX ladder_challenges_open ON ladder_challenges(ladder_id, season, status, id, challenger_id,
    challenged_id, issued_at, accept_by, accepted_at, game_id)
    WHERE status IN ('pending', 'accepted');

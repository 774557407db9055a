-- capabot schema, version 34: a ladder's current standings kept with it, and its open challenges
-- indexed.
--
-- A community's page showed each ladder's current season by replaying all of the season's events
-- from its opening order, and read every challenge of the season to show the open ones: both grew
-- with the season's history. `standings` is the current order as written by every change of the
-- ladder (player ids, comma-separated, the top first; '' for none); NULL for a ladder not changed
-- since this migration, whose standings the store writes as it opens
-- (`ladders::keep_missing_standings`). The partial index holds only the challenges open (a few a
-- player at most), with every column a page shows of them.
ALTER TABLE ladders ADD COLUMN standings TEXT;
CREATE INDEX ladder_challenges_open ON ladder_challenges(ladder_id, season, status, id, challenger_id,
    challenged_id, issued_at, accept_by, accepted_at, game_id)
    WHERE status IN ('pending', 'accepted');

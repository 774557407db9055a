-- capabot schema, version 17: a process does only what it can deliver (issue 44).
--
-- Which platforms are served, and when last: each process instance writes a row per platform it has
-- a front end for at every scheduler tick (`store::served`). Outbox rows of a platform that no row
-- here names as served lately are expired instead of waiting for ever.
CREATE TABLE served_platforms (
    platform TEXT NOT NULL,
    instance TEXT NOT NULL,
    seen_at  INTEGER NOT NULL,
    PRIMARY KEY (platform, instance)
);

-- The scheduler reads what is due per platform it serves: the due-time indexes lead with it.
DROP INDEX games_deadline;
CREATE INDEX games_deadline ON games(platform, deadline) WHERE status = 'active';
DROP INDEX games_remind;
CREATE INDEX games_remind ON games(platform, remind_at) WHERE status = 'active';
DROP INDEX challenges_expiry;
CREATE INDEX challenges_expiry ON challenges(platform, expires_at) WHERE status = 'open';
DROP INDEX tournaments_signup;
CREATE INDEX tournaments_signup ON tournaments(platform, signup_until) WHERE status = 'registration';

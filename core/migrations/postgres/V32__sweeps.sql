-- capabot schema, version 32: where a sweep stopped, kept across restarts (see the SQLite migration
-- 0032): the place the housekeeping's sweep of the events' claims stopped at, one row a sweep.
CREATE TABLE sweeps (
    name            TEXT    NOT NULL PRIMARY KEY,
    platform        TEXT    NOT NULL,
    event_id        TEXT    NOT NULL
);

-- capabot schema, version 32: where a sweep stopped, kept across restarts (docs/load.md "The claims' age
-- index").
--
-- The housekeeping sweeps the events' claims a few thousand at a time in key order (migration 31); the
-- place the last sweep stopped at was kept in the process's memory, so a process restarted more often
-- than a whole sweep takes looked at the first claims again and again and never at the last. Now the
-- place is a row here, written by the sweep's own unit of work (and shared by every process on the
-- database); no row is a sweep at the start.
CREATE TABLE sweeps (
    name            TEXT    NOT NULL PRIMARY KEY,
    platform        TEXT    NOT NULL,
    event_id        TEXT    NOT NULL
);

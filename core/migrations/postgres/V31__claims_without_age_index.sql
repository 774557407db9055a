-- capabot schema, version 31: an event's claim without its index by age (see the SQLite migration
-- 0031): one index entry less for every event handled; week-old claims are forgotten by a sweep in
-- key order (`store::events::prune`).
DROP INDEX processed_events_age;

-- capabot schema, version 31: an event's claim without its index by age (issue 42, docs/load.md "The
-- claims' age index").
--
-- Every event handled wrote two b-trees: the claim in `processed_events`' key and its entry in
-- `processed_events_age`, which only the forgetting of week-old claims read. The housekeeping now
-- sweeps the claims in key order a few thousand at a time (`store::events::prune`), so a claim is one
-- page of the log.
DROP INDEX processed_events_age;

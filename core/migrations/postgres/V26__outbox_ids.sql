-- capabot schema for PostgreSQL, version 26: nothing changes here (../0026_outbox_ids.sql).
--
-- SQLite's migration 26 takes AUTOINCREMENT off the outbox's ids, which wrote its sequence's page
-- with every row queued; PostgreSQL's identity column draws from a sequence that is not written to
-- the log for every value, so this side only keeps the two backends' migrations numbered alike.
SELECT 1;

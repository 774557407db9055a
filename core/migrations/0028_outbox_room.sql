-- capabot schema, version 28: nothing changes on SQLite (issue 42, docs/load.md "Deliveries
-- written down a moment later").
--
-- PostgreSQL's migration 28 leaves room in the outbox's pages for each row's second version (the
-- row marked sent), which its log then holds as the few bytes that changed instead of the whole
-- row. SQLite changes a row in place, so this side only keeps the two backends' migrations
-- numbered alike.
SELECT 1;

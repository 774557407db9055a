-- capabot schema for PostgreSQL, version 28 (../0028_outbox_room.sql): room in the outbox's pages
-- for each row's second version (issue 42, docs/load.md "Deliveries written down a moment later").
--
-- A row is written once and changed once (marked sent, failed or retried). A new version of a row
-- written on the old one's page is logged as the bytes that changed; on another page, whole
-- (about 600 bytes). Rows marked sent a moment after they were written, with others (the host's
-- write-down), found their pages filled by the rows written since: the log grew by a third. Pages
-- filled to half leave the second version its room. Pages written from now on.
ALTER TABLE outbox SET (fillfactor = 50);

-- capabot schema, version 24: a chat's delivery lease kept in its primary key's b-tree alone
-- (issue 42, docs/load.md "Pages a move writes").
--
-- The table had SQLite's hidden row id, so its primary key was a second b-tree beside it: a lease
-- taken or given up (twice a delivered reply) wrote a page of each to the log. Without the row id
-- the rows live in the key's b-tree, one page a change. The leases held now are kept.
CREATE TABLE outbox_leases_v24 (
    platform TEXT NOT NULL,
    chat_key TEXT NOT NULL,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_key)
) WITHOUT ROWID;
INSERT INTO outbox_leases_v24 (platform, chat_key, owner, until)
    SELECT platform, chat_key, owner, until FROM outbox_leases;
DROP TABLE outbox_leases;
ALTER TABLE outbox_leases_v24 RENAME TO outbox_leases;

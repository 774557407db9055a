-- capabot schema for PostgreSQL, version 19 (../0019_outbox_done.sql).

DROP INDEX outbox_done;

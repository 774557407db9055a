-- capabot schema, version 19: the index of delivered and failed outbox rows by when they were done
-- (`outbox_done`) goes. It served only the pruning of rows done more than a week ago, and cost every
-- delivery an index entry (on SQLite a page of the index written with each row marked sent, on
-- PostgreSQL an entry in the log). The pruning walks the rows in the order of their ids instead,
-- which is the order they were written in, up to the first row written within the week
-- (`store::outbox::prune`).

DROP INDEX outbox_done;

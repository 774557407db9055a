-- capabot schema for PostgreSQL, version 12 (../0012_scheduler_items.sql).

CREATE TABLE scheduler_failures (
    kind TEXT NOT NULL,
    item_id BIGINT NOT NULL,
    tries BIGINT NOT NULL,
    last_error TEXT NOT NULL,
    last_at BIGINT NOT NULL,
    set_aside BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, item_id)
);

-- capabot schema for PostgreSQL, version 11 (../0011_outbox_leases.sql).

CREATE TABLE outbox_leases (
    platform TEXT NOT NULL,
    chat_key TEXT NOT NULL,
    owner TEXT NOT NULL,
    until BIGINT NOT NULL,
    PRIMARY KEY (platform, chat_key)
);

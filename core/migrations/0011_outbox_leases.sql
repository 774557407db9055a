-- capabot schema, version 11: who delivers a chat's replies. Several processes may share one
-- database (Discord shards spread over processes): a process drains a chat's outbox rows only
-- while it holds the chat's lease, renewed before every row and given up when the chat is drained;
-- a lease left by a process that died runs out at `until` (Unix seconds) and another takes over.

CREATE TABLE outbox_leases (
    platform TEXT NOT NULL,
    chat_key TEXT NOT NULL,
    owner TEXT NOT NULL,
    until INTEGER NOT NULL,
    PRIMARY KEY (platform, chat_key)
);

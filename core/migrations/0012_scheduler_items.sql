-- capabot schema, version 12: scheduled items that failed. Each due item of the scheduler (a loss on
-- time, a reminder, a challenge's expiry, a ladder's or a tournament's step) is its own unit of
-- work; one that fails is counted here, and after a few tries set aside (`set_aside` = 1) so that
-- it stops being tried until an operator retries it (`capabot scheduler retry`).

CREATE TABLE scheduler_failures (
    kind TEXT NOT NULL,
    item_id INTEGER NOT NULL,
    tries INTEGER NOT NULL,
    last_error TEXT NOT NULL,
    last_at INTEGER NOT NULL,
    set_aside INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, item_id)
);

-- capabot schema, version 1. Times are Unix seconds (UTC). Connection settings (WAL, foreign keys,
-- busy timeout) are applied per connection by the store, not here.

-- A person (or capabot's own AI). One player may later link accounts on several platforms.
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    is_ai       INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    created_at  INTEGER NOT NULL
);

-- A platform account of a player: (platform, user id) is how chat messages name people.
CREATE TABLE accounts (
    platform    TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    player_id   INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (platform, user_id)
) WITHOUT ROWID;
CREATE INDEX accounts_player ON accounts(player_id);

-- A game in one chat. `fen` and `ply` are the current position; moves are replayed from `start_fen`
-- on load and must reach `fen`.
CREATE TABLE games (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    setup           INTEGER,
    start_fen       TEXT    NOT NULL,
    white_id        INTEGER NOT NULL REFERENCES players(id),
    black_id        INTEGER NOT NULL REFERENCES players(id),
    ai_level        INTEGER CHECK (ai_level BETWEEN 1 AND 8),
    days_per_move   INTEGER CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    status          TEXT    NOT NULL CHECK (status IN ('setup', 'active', 'finished', 'aborted')),
    result          TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    termination     TEXT,
    fen             TEXT    NOT NULL,
    ply             INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
    deadline        INTEGER,
    remind_at       INTEGER,
    white_swap      INTEGER CHECK (white_swap BETWEEN 0 AND 11),
    black_swap      INTEGER CHECK (black_swap BETWEEN 0 AND 11),
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL
);
CREATE INDEX games_chat ON games(platform, chat_id, status);
CREATE INDEX games_white ON games(white_id, status);
CREATE INDEX games_black ON games(black_id, status);
CREATE INDEX games_deadline ON games(deadline) WHERE status = 'active';
CREATE INDEX games_remind ON games(remind_at) WHERE status = 'active';

-- One row per ply: the move as typed, in SAN and in coordinates.
CREATE TABLE moves (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply         INTEGER NOT NULL CHECK (ply >= 1),
    typed       TEXT    NOT NULL,
    san         TEXT    NOT NULL,
    uci         TEXT    NOT NULL,
    played_at   INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- Challenges; `challenged_id` NULL means an open challenge anyone in the chat may accept.
CREATE TABLE challenges (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    challenger_id   INTEGER NOT NULL REFERENCES players(id),
    challenged_id   INTEGER REFERENCES players(id),
    variant         TEXT    NOT NULL,
    setup           INTEGER,
    days_per_move   INTEGER CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    color           TEXT    NOT NULL CHECK (color IN ('white', 'black', 'random')),
    status          TEXT    NOT NULL CHECK (status IN ('open', 'accepted', 'declined', 'expired', 'cancelled')),
    game_id         INTEGER REFERENCES games(id),
    created_at      INTEGER NOT NULL,
    expires_at      INTEGER NOT NULL
);
CREATE INDEX challenges_chat ON challenges(platform, chat_id, status);
CREATE INDEX challenges_expiry ON challenges(expires_at) WHERE status = 'open';

-- Pending draw offers and takeback requests; one of each kind per game. Cleared by the next move.
CREATE TABLE offers (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL CHECK (kind IN ('draw', 'takeback')),
    by_player   INTEGER NOT NULL REFERENCES players(id),
    ply         INTEGER NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;

-- Per-chat settings; a missing row or NULL column means the configured default.
CREATE TABLE chat_settings (
    platform        TEXT    NOT NULL,
    chat_id         TEXT    NOT NULL,
    prefix          TEXT,
    default_variant TEXT,
    default_days    INTEGER CHECK (default_days IN (1, 2, 3, 5, 7, 10, 14)),
    PRIMARY KEY (platform, chat_id)
) WITHOUT ROWID;

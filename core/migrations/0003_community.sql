-- capabot schema, version 3: communities. A community is a group chat, server or space on one
-- platform, named by (platform, community_id). Players are players.id. Times are Unix seconds.

-- Rank ladders: one per community and variant. The current season is `season`; its standings
-- are its opening order (ladder_standings, kind 'start') replayed through its events.
CREATE TABLE ladders (
    id                  INTEGER PRIMARY KEY,
    platform            TEXT    NOT NULL,
    community_id        TEXT    NOT NULL,
    variant             TEXT    NOT NULL,
    days_per_move       INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    max_places_up       INTEGER NOT NULL CHECK (max_places_up >= 1),
    accept_days         INTEGER NOT NULL CHECK (accept_days >= 1),
    season              INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1),
    season_opened_at    INTEGER NOT NULL,
    created_at          INTEGER NOT NULL,
    UNIQUE (platform, community_id, variant)
);

-- A season's opening order ('start') and, once it is closed, its final standings ('final').
CREATE TABLE ladder_standings (
    ladder_id   INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season      INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('start', 'final')),
    place       INTEGER NOT NULL CHECK (place >= 1),
    player_id   INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (ladder_id, season, kind, place)
) WITHOUT ROWID;
CREATE INDEX ladder_standings_player ON ladder_standings(player_id);

-- Closed seasons.
CREATE TABLE ladder_seasons (
    ladder_id   INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season      INTEGER NOT NULL,
    opened_at   INTEGER NOT NULL,
    closed_at   INTEGER NOT NULL,
    PRIMARY KEY (ladder_id, season)
) WITHOUT ROWID;

-- Ladder challenges, numbered from 1 in each season.
CREATE TABLE ladder_challenges (
    ladder_id       INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season          INTEGER NOT NULL,
    id              INTEGER NOT NULL CHECK (id >= 1),
    challenger_id   INTEGER NOT NULL REFERENCES players(id),
    challenged_id   INTEGER NOT NULL REFERENCES players(id),
    status          TEXT    NOT NULL
        CHECK (status IN ('pending', 'accepted', 'finished', 'forfeited', 'withdrawn', 'cancelled')),
    issued_at       INTEGER NOT NULL,
    accept_by       INTEGER NOT NULL,
    accepted_at     INTEGER,
    game_id         INTEGER REFERENCES games(id),
    PRIMARY KEY (ladder_id, season, id)
) WITHOUT ROWID;
CREATE INDEX ladder_challenges_game ON ladder_challenges(game_id) WHERE game_id IS NOT NULL;
CREATE INDEX ladder_challenges_due ON ladder_challenges(accept_by) WHERE status = 'pending';
CREATE INDEX ladder_challenges_challenger ON ladder_challenges(challenger_id);
CREATE INDEX ladder_challenges_challenged ON ladder_challenges(challenged_id);

-- A season's history, numbered from 1; append-only. `player_id` is who joined, left or was removed,
-- or the challenger of a result (`other_id` the challenged); 'undone' names the undone event.
CREATE TABLE ladder_events (
    ladder_id       INTEGER NOT NULL REFERENCES ladders(id) ON DELETE CASCADE,
    season          INTEGER NOT NULL,
    id              INTEGER NOT NULL CHECK (id >= 1),
    at              INTEGER NOT NULL,
    kind            TEXT    NOT NULL CHECK (kind IN ('joined', 'left', 'removed', 'result', 'undone')),
    player_id       INTEGER REFERENCES players(id),
    other_id        INTEGER REFERENCES players(id),
    challenge_id    INTEGER,
    result          TEXT    CHECK (result IN ('challenger', 'challenged', 'draw')),
    forfeit         INTEGER CHECK (forfeit IN (0, 1)),
    undoes          INTEGER,
    reason          TEXT,
    PRIMARY KEY (ladder_id, season, id)
) WITHOUT ROWID;
CREATE INDEX ladder_events_player ON ladder_events(player_id);
CREATE INDEX ladder_events_other ON ladder_events(other_id);

-- Tournaments. `rounds` is the number of Swiss rounds (round robins have as many as they need).
CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    platform        TEXT    NOT NULL,
    community_id    TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    system          TEXT    NOT NULL CHECK (system IN ('roundrobin', 'double_roundrobin', 'swiss')),
    rounds          INTEGER CHECK (rounds >= 1),
    days_per_move   INTEGER NOT NULL CHECK (days_per_move IN (1, 2, 3, 5, 7, 10, 14)),
    status          TEXT    NOT NULL CHECK (status IN ('registration', 'running', 'finished')),
    created_by      INTEGER REFERENCES players(id),
    created_at      INTEGER NOT NULL
);
CREATE INDEX tournaments_community ON tournaments(platform, community_id, status);

-- Registered players; `seed` orders them (registration order, or as set when the tournament starts).
CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    seed            INTEGER NOT NULL CHECK (seed >= 1),
    joined_at       INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, player_id),
    UNIQUE (tournament_id, seed)
) WITHOUT ROWID;
CREATE INDEX tournament_players_player ON tournament_players(player_id);

-- The pairings, board by board from 1; a bye is board 0 with `black_id` NULL.
CREATE TABLE tournament_games (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round           INTEGER NOT NULL CHECK (round >= 1),
    board           INTEGER NOT NULL CHECK (board >= 0),
    white_id        INTEGER NOT NULL REFERENCES players(id),
    black_id        INTEGER REFERENCES players(id),
    result          TEXT    CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    game_id         INTEGER REFERENCES games(id),
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((board = 0) = (black_id IS NULL))
) WITHOUT ROWID;
CREATE INDEX tournament_games_game ON tournament_games(game_id) WHERE game_id IS NOT NULL;

-- One-time codes linking two accounts of a person. The code belongs to the account that asked
-- for it (not its player, which a merge may change before the code is used).
CREATE TABLE link_codes (
    code        TEXT    PRIMARY KEY,
    platform    TEXT    NOT NULL,
    user_id     TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    used_at     INTEGER
) WITHOUT ROWID;
CREATE INDEX link_codes_account ON link_codes(platform, user_id);

-- Players merged into others by linking: `merged_id` keeps its row but no accounts or history.
CREATE TABLE player_merges (
    merged_id   INTEGER PRIMARY KEY REFERENCES players(id),
    kept_id     INTEGER NOT NULL REFERENCES players(id),
    merged_at   INTEGER NOT NULL
);

-- Everyone who has ever stood on a ladder, by ladder.
CREATE VIEW ladder_members AS
    SELECT ladder_id, player_id FROM ladder_standings
    UNION SELECT ladder_id, player_id FROM ladder_events WHERE player_id IS NOT NULL
    UNION SELECT ladder_id, other_id FROM ladder_events WHERE other_id IS NOT NULL;

-- Glicko-2 ratings per scope and variant. `scope` is '' for the global rating, or
-- 'platform:community_id' (for example 'discord:1234') for a community's own rating.
CREATE TABLE ratings (
    player_id       INTEGER NOT NULL REFERENCES players(id),
    scope           TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    rating          REAL    NOT NULL,
    deviation       REAL    NOT NULL CHECK (deviation > 0),
    volatility      REAL    NOT NULL CHECK (volatility > 0),
    games           INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins            INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    draws           INTEGER NOT NULL DEFAULT 0 CHECK (draws >= 0),
    losses          INTEGER NOT NULL DEFAULT 0 CHECK (losses >= 0),
    last_game_at    INTEGER,
    PRIMARY KEY (scope, variant, player_id),
    CHECK (games = wins + draws + losses)
) WITHOUT ROWID;
CREATE INDEX ratings_player ON ratings(player_id);

-- Every rating change, for charts: one row per player and rated game. A game is rated at most once
-- per player and scope.
CREATE TABLE rating_history (
    id              INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL REFERENCES players(id),
    scope           TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    game_id         INTEGER REFERENCES games(id),
    at              INTEGER NOT NULL,
    rating_before   REAL    NOT NULL,
    rating_after    REAL    NOT NULL,
    deviation_after REAL    NOT NULL,
    UNIQUE (player_id, scope, variant, game_id)
);
CREATE INDEX rating_history_player ON rating_history(player_id, scope, variant, at);

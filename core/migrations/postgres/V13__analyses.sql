-- capabot schema for PostgreSQL, version 13 (../0013_analyses.sql).

CREATE TABLE analyses (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    nodes BIGINT NOT NULL,
    evals TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

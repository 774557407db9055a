-- capabot schema, version 13: computer analyses of finished games. One per game, made once at a fixed
-- effort (`nodes` per position) and shown again from here: the evaluation of every position as
-- `ai::analysis::Analysis::encode` writes it (`cp:35 e2e4;cp:-10 e7e5;…`).

CREATE TABLE analyses (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    nodes INTEGER NOT NULL,
    evals TEXT NOT NULL,
    created_at INTEGER NOT NULL
);

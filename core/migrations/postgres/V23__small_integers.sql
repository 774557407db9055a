-- capabot schema for PostgreSQL, version 23: a game's small integers in two bytes (issue 45,
-- docs/scale.md, "Bytes a game").
--
-- `setup` (below 21,836, the most setups a variant has), `ai_level` (1-8), `days_per_move` (up to
-- 14), `ply` (a game's length: the
-- fifty-move rule, which ends a game by itself here, keeps every game well below 32,767 plies), the swaps (0-11) and the flags `rated`, `paused` and
-- `interaction_only` (0/1) were BIGINTs: eight bytes each, and PostgreSQL aligns a BIGINT to eight
-- bytes, so the text columns between them left padding. As SMALLINTs a row is about 40 bytes
-- shorter. Values are still read and written as the store's 64-bit integers (PostgreSQL casts them
-- on assignment and compares across the two widths, on the indexes too). The table is rewritten
-- once, in this migration's transaction.
ALTER TABLE games
    ALTER COLUMN setup TYPE SMALLINT,
    ALTER COLUMN ai_level TYPE SMALLINT,
    ALTER COLUMN days_per_move TYPE SMALLINT,
    ALTER COLUMN ply TYPE SMALLINT,
    ALTER COLUMN white_swap TYPE SMALLINT,
    ALTER COLUMN black_swap TYPE SMALLINT,
    ALTER COLUMN rated TYPE SMALLINT,
    ALTER COLUMN paused TYPE SMALLINT,
    ALTER COLUMN interaction_only TYPE SMALLINT;

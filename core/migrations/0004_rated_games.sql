-- capabot schema, version 4: rated and casual games. Games between people are rated unless the
-- challenger asks for a casual game; a community may force one or the other. Games stored before
-- version 4 stay unrated (their results were never rated).

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
-- 'choice' (the challenger chooses), 'always' or 'never'; NULL means 'choice'.
ALTER TABLE community_settings ADD COLUMN rated_games TEXT CHECK (rated_games IN ('choice', 'always', 'never'));

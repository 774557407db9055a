-- capabot schema, version 30: the board theme a person's own pictures (their direct messages) are
-- drawn in (`wood`, `green`, `contrast`). NULL: wood.

ALTER TABLE player_prefs ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));

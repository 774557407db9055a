-- capabot schema, version 9: secret-bomb chess. Each side's bomb as the square its piece stood on
-- when the bomb was chosen (before that side's first move, so on the start position). NULL: not
-- chosen yet. Secret while the game runs: only the owner's own replies and a finished game's
-- record ever show it.

ALTER TABLE games ADD COLUMN white_bomb TEXT;
ALTER TABLE games ADD COLUMN black_bomb TEXT;

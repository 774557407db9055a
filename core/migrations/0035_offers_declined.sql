-- capabot schema, version 35: a declined offer is remembered until the next move.
--
-- A declined draw offer or takeback request was deleted, so its maker could make it again at once, as
-- often as they liked, each time pinging the opponent. It now stays with the time it was declined: its
-- maker is told to wait for the next move (which clears every offer of the game), and the opponent may
-- still make one of their own (it replaces the declined one).
ALTER TABLE offers ADD COLUMN declined_at INTEGER;

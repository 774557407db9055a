-- capabot schema, version 7: whether a chat (or its community) gets the game as an animated picture
-- when a game ends. NULL: inherited (from the community, then off).

ALTER TABLE chat_settings ADD COLUMN gif_at_end INTEGER CHECK (gif_at_end IN (0, 1));
ALTER TABLE community_settings ADD COLUMN gif_at_end INTEGER CHECK (gif_at_end IN (0, 1));

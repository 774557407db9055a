-- capabot schema, version 29: the board theme a chat (or its community) sees its pictures in
-- (`wood`, `green`, `contrast`). NULL: inherited (from the community, then wood).

ALTER TABLE chat_settings ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));
ALTER TABLE community_settings ADD COLUMN theme TEXT CHECK (theme IN ('wood', 'green', 'contrast'));

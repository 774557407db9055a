-- capabot schema, version 10: languages. A person's own language (`lang tr`) and a chat's or a
-- community's (`settings lang:tr`), as a language code (`en`, `tr`); NULL: inherited (a person
-- from the chat, a chat from its community, a community from the configuration).

ALTER TABLE player_prefs ADD COLUMN lang TEXT;
ALTER TABLE chat_settings ADD COLUMN lang TEXT;
ALTER TABLE community_settings ADD COLUMN lang TEXT;

-- capabot schema, version 18: chats the bot reaches only through interactions (an app installed to
-- a person's Discord account, used in a group DM or a server without the bot). A game or challenge
-- made there keeps the fact, so that what is said later without an interaction (a reminder, a loss
-- on time, an expiry) waits for the next one instead of being posted where the bot cannot post.
-- (Numbered 18: 17 is taken on another branch.)

ALTER TABLE games ADD COLUMN interaction_only INTEGER NOT NULL DEFAULT 0 CHECK (interaction_only IN (0, 1));
ALTER TABLE challenges ADD COLUMN interaction_only INTEGER NOT NULL DEFAULT 0 CHECK (interaction_only IN (0, 1));

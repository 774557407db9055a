-- capabot schema for PostgreSQL, version 20 (../0020_finished_games.sql).

DROP INDEX games_chat;
CREATE INDEX games_chat ON games(platform, chat_id);
CREATE INDEX games_chat_open ON games(platform, chat_id) WHERE status IN ('setup', 'active');
DROP INDEX games_white;
CREATE INDEX games_white_open ON games(white_id) WHERE status IN ('setup', 'active');
DROP INDEX games_black;
CREATE INDEX games_black_open ON games(black_id) WHERE status IN ('setup', 'active');
DROP INDEX games_community;
CREATE INDEX games_community_open ON games(platform, community_id) WHERE status IN ('setup', 'active');

ALTER TABLE rating_history DROP CONSTRAINT rating_history_player_id_scope_variant_game_id_key;
CREATE UNIQUE INDEX rating_history_game ON rating_history(game_id, player_id, scope);

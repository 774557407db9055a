-- capabot schema for PostgreSQL, version 15 (../0015_recent_games.sql).

CREATE INDEX games_community_recent ON games (platform, community_id, updated_at);
CREATE INDEX games_white_recent ON games (white_id, platform, community_id, updated_at);
CREATE INDEX games_black_recent ON games (black_id, platform, community_id, updated_at);

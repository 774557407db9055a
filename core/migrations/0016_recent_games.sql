-- capabot schema, version 15: the web pages' lists of recent games (issue 47) read in order from an
-- index instead of sorting all of a community's games on every page. A community's latest changes
-- by (platform, community, last change); a player's by the same after the player's side, so that
-- a player's page reads at most its rows of each side however big the community is.

CREATE INDEX games_community_recent ON games (platform, community_id, updated_at);
CREATE INDEX games_white_recent ON games (white_id, platform, community_id, updated_at);
CREATE INDEX games_black_recent ON games (black_id, platform, community_id, updated_at);

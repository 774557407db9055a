//! The bot core's tests, one test binary: flows against a real SQLite file (games, community,
//! ladders, ratings, tournaments, secret bombs, animated games, bad input, concurrency), the
//! front-end contract, the host, and the console binary. No chat platform or feature needed; the
//! flow modules run again on PostgreSQL in `tests/pg/`.

#[path = "../common/mod.rs"]
mod common;

mod analysis_flow;
mod atomic_family_bot;
mod bot_bad_input;
mod bot_concurrency;
mod bot_flow;
mod community_flow;
mod console_bomb;
mod console_chats;
mod console_crash;
mod console_gif;
mod console_lang;
mod console_secrets;
// The web pages beside the console: a build with them.
#[cfg(feature = "web")]
mod console_web;
mod frontend_contract;
mod gif_flow;
mod host;
mod outbox_pictures;
mod ratings_flow;
mod secret_bomb_flow;
mod tournament_flow;

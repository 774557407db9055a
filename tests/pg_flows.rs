//! The bot's flow tests again, on PostgreSQL: the same files as their SQLite binaries, compiled here
//! as modules, with `common::open_store` opening a database of this binary's one PostgreSQL server
//! (installed and started by `pg-harness`) wherever the SQLite binaries open a file. Each file
//! declares its own `mod common`, so the helpers are compiled once per file here.
#![allow(clippy::duplicate_mod)]

#[path = "atomic_family_bot.rs"]
mod atomic_family_bot;
#[path = "bot_bad_input.rs"]
mod bot_bad_input;
#[path = "bot_concurrency.rs"]
mod bot_concurrency;
#[path = "bot_flow.rs"]
mod bot_flow;
#[path = "community_flow.rs"]
mod community_flow;
#[path = "ratings_flow.rs"]
mod ratings_flow;
#[path = "secret_bomb_flow.rs"]
mod secret_bomb_flow;
#[path = "tournament_flow.rs"]
mod tournament_flow;

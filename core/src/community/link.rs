//! One-time codes that link a person's accounts on two platforms.
//!
//! `link` on one platform gives a code; `link CODE` on another platform, within
//! [`CODE_LIFETIME_SECS`], joins the two accounts into one person. Codes are [`CODE_LEN`]
//! characters from an alphabet without look-alikes (no `0`/`O`, `1`/`I`/`L`), about 2^39 codes,
//! drawn from the operating system's generator; each is usable once. Typing is forgiving: case,
//! spaces and dashes do not matter.

use rand::RngExt;
use std::fmt;

/// The characters codes are made of: digits and capitals without look-alikes.
pub const ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/// Characters in a code.
pub const CODE_LEN: usize = 8;
/// How long a code may be used: ten minutes.
pub const CODE_LIFETIME_SECS: i64 = 10 * 60;

/// A well-formed link code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LinkCode(String);

impl LinkCode {
    /// A fresh random code.
    pub fn generate() -> LinkCode {
        let mut rng = rand::rng();
        LinkCode((0..CODE_LEN).map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())])).collect())
    }

    /// Reads a code as a person typed it.
    ///
    /// ```
    /// use capabot::community::link::LinkCode;
    /// assert_eq!(LinkCode::parse("abcd-efgh").unwrap().as_str(), "ABCDEFGH");
    /// assert!(LinkCode::parse("ABCD-EFG0").is_err());
    /// ```
    pub fn parse(typed: &str) -> Result<LinkCode, LinkError> {
        let code: String =
            typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
        if code.len() != CODE_LEN || !code.bytes().all(|b| ALPHABET.contains(&b)) {
            return Err(LinkError::Malformed);
        }
        Ok(LinkCode(code))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Shown as `ABCD-EFGH`, which is easier to read out.
impl fmt::Display for LinkCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.0.split_at(CODE_LEN / 2);
        write!(f, "{a}-{b}")
    }
}

/// Why accounts were not linked or unlinked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Not eight characters of the code alphabet.
    Malformed,
    /// No such code (or it was replaced by a newer one).
    Unknown,
    Expired,
    AlreadyUsed,
    /// The code was made by the account that typed it.
    SameAccount,
    /// The two accounts are on the same platform.
    SamePlatform,
    /// The accounts already belong to the same person.
    AlreadyLinked,
    /// The person would have two accounts on this platform.
    TwoAccountsOn(String),
    /// Both accounts have played each other, or take part in the same ladder or tournament:
    /// their histories cannot become one person's.
    HistoriesMeet,
    /// Only linked accounts can be unlinked.
    NotLinked,
    /// The account is unknown to the bot.
    UnknownAccount,
}

impl LinkError {
    /// What the person is told, by message id.
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::msg;
        match self {
            LinkError::Malformed => msg!("link-malformed"),
            LinkError::Unknown => msg!("link-unknown"),
            LinkError::Expired => msg!("link-expired"),
            LinkError::AlreadyUsed => msg!("link-used"),
            LinkError::SameAccount => msg!("link-same-account"),
            LinkError::SamePlatform => msg!("link-same-platform"),
            LinkError::AlreadyLinked => msg!("link-already"),
            LinkError::TwoAccountsOn(p) => msg!("link-two-accounts", platform = p.as_str()),
            LinkError::HistoriesMeet => msg!("link-histories-meet"),
            LinkError::NotLinked => msg!("link-not-linked"),
            LinkError::UnknownAccount => msg!("link-unknown-account"),
        }
    }
}

impl fmt::Display for LinkError {
    /// In English (logs); people read [`LinkError::msg`] in their language.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.msg())
    }
}

impl std::error::Error for LinkError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_are_well_formed_distinct_and_parse_back() {
        let codes: HashSet<LinkCode> = (0..200).map(|_| LinkCode::generate()).collect();
        assert_eq!(codes.len(), 200);
        for c in &codes {
            assert_eq!(LinkCode::parse(&c.to_string().to_lowercase()).unwrap(), *c);
            assert_eq!(c.to_string().len(), CODE_LEN + 1);
        }
        assert_eq!(LinkCode::parse(" abcd efgh ").unwrap().to_string(), "ABCD-EFGH");
        for bad in ["", "ABCDEFG", "ABCDEFGHJ", "ABCDEFGO", "ABCDEFG1", "ABCDÉFGH"] {
            assert_eq!(LinkCode::parse(bad), Err(LinkError::Malformed), "{bad}");
        }
        assert!(!ALPHABET.iter().any(|b| b"01OIL".contains(b)));
    }
}

//! Community rules: ratings, rank ladders, round-robin and Swiss tournaments with their tie-breaks,
//! and the one-time codes that link a person's accounts on several platforms.
//!
//! Pure logic only: no I/O and nothing else from the crate. States are plain values changed by
//! operations that return typed errors whose messages a chat user can act on; `store` persists them.

pub mod ladder;
pub mod link;
pub mod rating;
pub mod roundrobin;
pub mod swiss;
pub mod tiebreak;
pub mod tournament;

/// A player, as the store numbers them (`players.id`).
pub type PlayerId = i64;

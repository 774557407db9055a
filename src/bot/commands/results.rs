//! What a game's result changes beyond the game: ratings, ladder standings, tournament scores. All of
//! it runs inside the transaction that stores the result ([`crate::store::games::OnEnd`]), so a crash
//! leaves the result with all its consequences or none of them; the lines it returns are announced
//! with the result.

use super::Bot;
use crate::store::games::GameRow;
use rusqlite::Connection;

/// Environment variable naming a failure point, for crash tests (never set in production).
pub const FAILPOINT_ENV: &str = "CAPABOT_FAILPOINT";

/// Kills the process at failure point `name` when the environment asks for it: a crash mid-transaction.
pub(in crate::bot) fn failpoint(name: &str) {
    if std::env::var(FAILPOINT_ENV).is_ok_and(|v| v == name) {
        eprintln!("failpoint {name}: aborting");
        std::process::abort();
    }
}

impl Bot {
    /// Applies what `row`'s result (just stored, not yet committed) changes; pushes the lines to
    /// announce onto `notes`.
    pub(in crate::bot) fn on_game_end(
        &self,
        conn: &Connection,
        row: &GameRow,
        notes: &mut Vec<String>,
    ) -> crate::store::Result<()> {
        failpoint("after-result");
        // community results
        self.ladder_game_end(conn, row, notes)?;
        Ok(())
    }
}

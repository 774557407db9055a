//! What a game's result changes beyond the game: ratings, ladder standings, tournament scores. All of
//! it runs inside the transaction that stores the result ([`crate::store::games::OnEnd`]), so a crash
//! leaves the result with all its consequences or none of them; the lines it returns are announced
//! with the result.

use super::Bot;
use crate::community::rating::{Score, change_line};
use crate::rules::{Color, Outcome};
use crate::store::Connection;
use crate::store::games::GameRow;
use crate::store::players;
use crate::store::ratings::{self, Scope as RatingScope};

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
        self.rate_game(conn, row, notes)?;
        // community results
        self.ladder_game_end(conn, row, notes)?;
        self.tournament_game_end(conn, row, notes)?;
        Ok(())
    }

    /// Rates a finished rated game, globally and in its community, and announces the community's
    /// (or, outside communities, the global) changes. A game that ended before both sides moved
    /// (only a tournament's or a ladder's ends so rather than being aborted: a resignation, a loss
    /// on time, a withdrawal's forfeit) counts for its event but is not rated, as nothing was
    /// played; the note says so.
    fn rate_game(&self, conn: &Connection, row: &GameRow, notes: &mut Vec<String>) -> crate::store::Result<()> {
        let Some(outcome) = row.outcome() else { return Ok(()) };
        if !row.rated || row.white == row.black {
            return Ok(());
        }
        if row.ply < 2 {
            notes.push(crate::t!("ratings-no-move"));
            return Ok(());
        }
        let score = match outcome {
            Outcome::Decisive { winner: Color::White, .. } => Score::Win,
            Outcome::Decisive { winner: Color::Black, .. } => Score::Loss,
            Outcome::Draw(_) => Score::Draw,
        };
        let now = self.clock.now();
        let community = row.community_id.as_ref().map(|c| RatingScope::community(&row.platform, c));
        let scopes: Vec<&RatingScope> = std::iter::once(&RatingScope::Global).chain(community.as_ref()).collect();
        // The community's changes are announced where there is one, else the global ones.
        let shown = ratings::rate_in(conn, &scopes, &row.variant, Some(row.id), row.white, row.black, score, now)?
            .pop()
            .ok_or_else(|| crate::store::StoreError::Corrupt("a game rated in no scope".into()))?;
        failpoint("after-rating");
        let name = |id| -> crate::store::Result<String> {
            Ok(players::get(conn, id)?.map_or_else(|| crate::t!("player-fallback", id = id), |p| p.name))
        };
        let (w, b) = shown;
        notes.push(crate::t!(
            "ratings-changed",
            white = change_line(&name(w.player_id)?, w.before, w.after.rating),
            black = change_line(&name(b.player_id)?, b.before, b.after.rating)
        ));
        Ok(())
    }
}

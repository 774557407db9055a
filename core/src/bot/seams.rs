//! The two seams between the bot and the heavier parts: the board picture and the AI. Tests drive
//! the bot through them with stand-ins; the real renderer and AI plug in here.

use super::drawing::board_options;
use crate::ai::Limits;
use crate::render::{GifError, GifRequest, Theme, render, render_gif};
use crate::rules::{Color, Game, Move, Position};
use std::time::Duration;

/// Chooses moves for capabot's own side in AI games. Called off the async runtime (the front end
/// runs [`super::AiJob`]s on a blocking pool), so it may take its time.
pub trait MoveOracle: Send + Sync {
    /// The move to play in `game` at `level` (1..=8), or `None` when there is none to play.
    fn choose(&self, game: &Game, level: u8) -> Option<Move>;
    /// The time budget of a level, for the "thinking…" acknowledgment.
    fn budget(&self, level: u8) -> Duration;
}

/// Where no AI is available: never finds a move.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoAi;

impl MoveOracle for NoAi {
    fn choose(&self, _: &Game, _: u8) -> Option<Move> {
        None
    }
    fn budget(&self, _: u8) -> Duration {
        Duration::ZERO
    }
}

/// A stand-in for tests and load runs: plays the first legal move in generator order.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstLegalMove;

impl MoveOracle for FirstLegalMove {
    fn choose(&self, game: &Game, _: u8) -> Option<Move> {
        game.position().legal_moves().into_iter().next()
    }
    fn budget(&self, _: u8) -> Duration {
        Duration::ZERO
    }
}

/// capabot's own AI ([`crate::ai`]) at the level's limits.
#[derive(Clone, Copy, Debug, Default)]
pub struct CapabotAi;

impl MoveOracle for CapabotAi {
    fn choose(&self, game: &Game, level: u8) -> Option<Move> {
        crate::ai::best_move_in_game(game, &Limits::for_level(level)).best
    }
    fn budget(&self, level: u8) -> Duration {
        let limits = Limits::for_level(level);
        let cap = limits.movetime.unwrap_or_default();
        // A level that stops on nodes answers long before its time cap; estimate its time at a speed
        // well below what the search reaches on this project's 2-core machines (400–800 k nodes/s), so
        // a busy or slow host still gets the acknowledgment when a move may take over a second.
        match limits.nodes {
            Some(n) => cap.min(Duration::from_secs_f64(n as f64 / SLOW_NODES_PER_SECOND)),
            None => cap,
        }
    }
}

/// The search speed assumed for the "thinking…" estimate of node-limited levels.
const SLOW_NODES_PER_SECOND: f64 = 100_000.0;

/// Size in pixels of the board pictures the bot sends.
pub const PICTURE_SIZE: u32 = 640;

/// The board picture (PNG) of `pos` seen from `viewer`, with `last_move` highlighted and the
/// launch-ready missiles marked.
pub fn board_png(pos: &Position, last_move: Option<Move>, viewer: Color) -> Option<Vec<u8>> {
    board_png_marking(pos, last_move, viewer, None)
}

/// [`board_png`] with `bomb_of`'s secret bomb marked: only for a picture that goes to that player alone.
pub fn board_png_marking(
    pos: &Position,
    last_move: Option<Move>,
    viewer: Color,
    bomb_of: Option<Color>,
) -> Option<Vec<u8>> {
    let png = render(pos, &board_options(pos, last_move, viewer, bomb_of, PICTURE_SIZE, Theme::default()));
    (!png.is_empty()).then_some(png)
}

/// The whole game as an animated picture (GIF) seen from `viewer`, names on top and bottom and
/// `result` written on the last frame; at the bot's picture size.
pub fn game_gif(
    game: &Game,
    white: &str,
    black: &str,
    result: Option<&str>,
    viewer: Color,
) -> Result<Vec<u8>, GifError> {
    render_gif(&GifRequest {
        game,
        white,
        black,
        result,
        orientation: viewer,
        size: PICTURE_SIZE,
        theme: Theme::default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_levels_that_may_take_over_a_second_announce_thinking() {
        let ai = CapabotAi;
        // Levels 1-2 stop at depth 1-2 within a 0.5 s cap; 3-7 stop on at most 100,000 nodes.
        for level in 1..=7 {
            assert!(ai.budget(level) <= Duration::from_secs(1), "level {level}: {:?}", ai.budget(level));
        }
        assert_eq!(ai.budget(6), Duration::from_millis(350));
        // Level 8 searches on the clock, up to its 3 s cap.
        assert_eq!(ai.budget(8), Duration::from_secs(3));
    }
}

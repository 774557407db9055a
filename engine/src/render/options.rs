//! What a caller can ask of the renderer: size, orientation, theme, highlights and markers.

use super::theme::Theme;
use crate::rules::{Color, Move, Position};

/// Smallest and largest board size in pixels (the longer side); other requests are clamped.
pub const MIN_SIZE: u32 = 160;
pub const MAX_SIZE: u32 = 1600;
/// Longest title drawn, in characters; the rest is cut.
pub const MAX_TITLE_CHARS: usize = 80;

/// Options for [`super::render`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Board size in pixels along its longer side, clamped to [`MIN_SIZE`]..=[`MAX_SIZE`]; rounded down to a
    /// whole number of pixels per square.
    pub size: u32,
    /// Whose side of the board is at the bottom.
    pub orientation: Color,
    pub theme: Theme,
    /// Tint the last move's squares (for a launch: the origin and the 3×3 blast area).
    pub last_move: Option<Move>,
    /// Mark the missiles of the side to move that may launch this turn (Capatomic).
    pub show_launch_ready: bool,
    /// Secret-bomb chess: mark this side's bomb. Only for a picture that goes to that player alone; every
    /// other picture leaves it `None` (the default), so no bomb is drawn.
    pub show_bomb_of: Option<Color>,
    /// Title strip above the board (players, variant, move number); `None` = no strip.
    pub title: Option<String>,
    /// File letters and rank numbers along the edges.
    pub coordinates: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: 800,
            orientation: Color::White,
            theme: Theme::default(),
            last_move: None,
            show_launch_ready: false,
            show_bomb_of: None,
            title: None,
            coordinates: true,
        }
    }
}

impl RenderOptions {
    /// Defaults, seen from the side to move.
    pub fn for_position(pos: &Position) -> RenderOptions {
        RenderOptions { orientation: pos.turn(), ..RenderOptions::default() }
    }

    /// The size actually used: clamped to the allowed range.
    pub fn clamped_size(&self) -> u32 {
        self.size.clamp(MIN_SIZE, MAX_SIZE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant;

    #[test]
    fn for_position_faces_side_to_move() {
        let pos = Position::start(&variant::CHESS);
        assert_eq!(RenderOptions::for_position(&pos).orientation, Color::White);
        let m = pos.legal_moves()[0];
        let after = pos.play(m);
        assert_eq!(RenderOptions::for_position(&after).orientation, Color::Black);
    }

    #[test]
    fn size_is_clamped() {
        let o = RenderOptions { size: 5, ..Default::default() };
        assert_eq!(o.clamped_size(), MIN_SIZE);
        let o = RenderOptions { size: u32::MAX, ..Default::default() };
        assert_eq!(o.clamped_size(), MAX_SIZE);
    }
}

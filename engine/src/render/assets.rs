//! The hand-drawn SVG artwork in `assets/pieces/`, embedded at build time, with a theme's colours filled in.
//!
//! The files use the placeholder words `FILL`, `LINE` and `DETAIL` (pieces) or `SIGN` and `INK` (radiation
//! sign) where colours go; [`piece_svg`] and [`radiation_svg`] replace them.

use super::theme::ThemeData;
use crate::rules::{Piece, Role};

/// Piece drawings indexed by `Role::index()` (P N B R Q K A C M).
const PIECES: [&str; 9] = [
    include_str!("../../assets/pieces/pawn.svg"),
    include_str!("../../assets/pieces/knight.svg"),
    include_str!("../../assets/pieces/bishop.svg"),
    include_str!("../../assets/pieces/rook.svg"),
    include_str!("../../assets/pieces/queen.svg"),
    include_str!("../../assets/pieces/king.svg"),
    include_str!("../../assets/pieces/archbishop.svg"),
    include_str!("../../assets/pieces/chancellor.svg"),
    include_str!("../../assets/pieces/missile.svg"),
];

const RADIATION: &str = include_str!("../../assets/pieces/radiation.svg");

/// The SVG source of one piece in the theme's colours (viewBox 0 0 100 100).
pub fn piece_svg(piece: Piece, theme: &ThemeData) -> String {
    let c = piece.color.index();
    PIECES[piece.role.index()]
        .replace("FILL", &theme.piece_fill[c].hex())
        .replace("LINE", &theme.piece_line[c].hex())
        .replace("DETAIL", &theme.piece_detail[c].hex())
}

/// The inner markup (without the outer `<svg>` element) of the radiation sign, viewBox 0 0 100 100.
pub fn radiation_svg(theme: &ThemeData) -> String {
    inner(RADIATION).replace("SIGN", &theme.radiation_sign.hex()).replace("INK", &theme.radiation_ink.hex())
}

/// The markup between an SVG document's outer `<svg ...>` and `</svg>`.
fn inner(doc: &str) -> &str {
    let start = doc.find('>').map_or(0, |i| i + 1);
    let end = doc.rfind("</svg>").unwrap_or(doc.len());
    &doc[start..end]
}

/// Role order check for the table above.
const _: () = {
    assert!(Role::Pawn as usize == 0 && Role::Missile as usize == 8);
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::theme::Theme;
    use crate::rules::Color;

    #[test]
    fn every_piece_is_filled_in_and_parses() {
        for role in Role::ALL {
            for color in Color::ALL {
                let svg = piece_svg(Piece::new(color, role), Theme::Wood.data());
                assert!(!svg.contains("FILL") && !svg.contains("DETAIL") && !svg.contains("LINE"), "{role:?}");
                assert!(resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).is_ok(), "{role:?}");
            }
        }
    }

    #[test]
    fn radiation_sign_is_inner_markup() {
        let s = radiation_svg(Theme::Contrast.data());
        assert!(!s.contains("<svg") && !s.contains("SIGN") && s.contains("<path"));
    }
}

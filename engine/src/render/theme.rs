//! Colour themes as data: one [`ThemeData`] record per [`Theme`], looked up by index, never by code branches.

use std::fmt;

/// An RGBA colour, components 0–255.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    /// `#rrggbb` for SVG attributes.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// Opacity 0.0–1.0 for SVG attributes.
    pub fn opacity(self) -> f32 {
        f32::from(self.3) / 255.0
    }
}

/// The board themes a user can pick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Theme {
    /// Warm wood: cream and brown squares (the default).
    #[default]
    Wood = 0,
    /// Tournament green: cream and green squares.
    Green = 1,
    /// High contrast for colour-blind users: white and slate-blue squares, blue/orange markers, no red/green pairs.
    Contrast = 2,
}

impl Theme {
    /// Every theme, in index order.
    pub const ALL: [Theme; 3] = [Theme::Wood, Theme::Green, Theme::Contrast];

    /// The theme's name as users type it.
    pub fn name(self) -> &'static str {
        self.data().name
    }

    /// Theme by name (case-insensitive; `classic` = wood, `high-contrast`/`colorblind` = contrast).
    pub fn by_name(name: &str) -> Option<Theme> {
        let n = name.trim().to_ascii_lowercase();
        let alias = match n.as_str() {
            "classic" | "brown" => "wood",
            "high-contrast" | "highcontrast" | "colorblind" | "colourblind" => "contrast",
            other => other,
        };
        Theme::ALL.into_iter().find(|t| t.name() == alias)
    }

    /// The theme's colours.
    pub fn data(self) -> &'static ThemeData {
        &THEMES[self as usize]
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every colour a theme sets. Arrays indexed by `Color::index()` (0 = White, 1 = Black).
#[derive(Debug)]
pub struct ThemeData {
    pub name: &'static str,
    /// Light and dark squares.
    pub light: Rgba,
    pub dark: Rgba,
    /// Coordinates drawn on light / dark squares.
    pub coord_on_light: Rgba,
    pub coord_on_dark: Rgba,
    /// Piece body, outline and inner detail lines, per piece colour.
    pub piece_fill: [Rgba; 2],
    pub piece_line: [Rgba; 2],
    pub piece_detail: [Rgba; 2],
    /// Last move: from/to tint; a launch's blast area tint.
    pub last_move: Rgba,
    pub blast: Rgba,
    /// Centre colour of the glow under a king in check.
    pub check: Rgba,
    /// King shields: tint of the 3×3 area and its outline, per king colour; `shield_halo` edges the outline.
    pub shield_tint: [Rgba; 2],
    pub shield_line: [Rgba; 2],
    pub shield_halo: [Rgba; 2],
    /// Irradiated squares: hatching, the sign's disc and its ink.
    pub hatch: Rgba,
    pub radiation_sign: Rgba,
    pub radiation_ink: Rgba,
    /// Missiles that may launch this turn: the corner mark and its edge.
    pub launch_mark: Rgba,
    pub launch_mark_edge: Rgba,
    /// Title strip background and text.
    pub title_bg: Rgba,
    pub title_text: Rgba,
}

const PIECE_FILL: [Rgba; 2] = [Rgba(0xfa, 0xfa, 0xf5, 255), Rgba(0x38, 0x36, 0x34, 255)];
const PIECE_LINE: [Rgba; 2] = [Rgba(0x1e, 0x1c, 0x1a, 255), Rgba(0x0c, 0x0b, 0x0a, 255)];
const PIECE_DETAIL: [Rgba; 2] = [Rgba(0x1e, 0x1c, 0x1a, 255), Rgba(0xe6, 0xe2, 0xda, 255)];

/// The theme table, indexed by `Theme as usize`.
pub static THEMES: [ThemeData; 3] = [
    ThemeData {
        name: "wood",
        light: Rgba(0xf0, 0xd9, 0xb5, 255),
        dark: Rgba(0xb5, 0x88, 0x63, 255),
        coord_on_light: Rgba(0xa0, 0x74, 0x50, 255),
        coord_on_dark: Rgba(0xf4, 0xe2, 0xc6, 255),
        piece_fill: PIECE_FILL,
        piece_line: PIECE_LINE,
        piece_detail: PIECE_DETAIL,
        last_move: Rgba(0x9b, 0xc7, 0x00, 105),
        blast: Rgba(0xf0, 0x60, 0x10, 64),
        check: Rgba(0xff, 0x10, 0x10, 255),
        shield_tint: [Rgba(0xff, 0xff, 0xff, 56), Rgba(0x10, 0x10, 0x10, 40)],
        shield_line: [Rgba(0xff, 0xff, 0xff, 255), Rgba(0x18, 0x18, 0x18, 255)],
        shield_halo: [Rgba(0x30, 0x20, 0x10, 150), Rgba(0xff, 0xff, 0xff, 140)],
        hatch: Rgba(0x3a, 0x2a, 0x10, 70),
        radiation_sign: Rgba(0xf8, 0xc8, 0x1c, 255),
        radiation_ink: Rgba(0x1a, 0x16, 0x10, 255),
        launch_mark: Rgba(0xff, 0x8c, 0x1a, 255),
        launch_mark_edge: Rgba(0x30, 0x18, 0x00, 255),
        title_bg: Rgba(0x30, 0x2e, 0x2b, 255),
        title_text: Rgba(0xee, 0xe8, 0xdc, 255),
    },
    ThemeData {
        name: "green",
        light: Rgba(0xee, 0xee, 0xd2, 255),
        dark: Rgba(0x76, 0x96, 0x56, 255),
        coord_on_light: Rgba(0x6a, 0x88, 0x4c, 255),
        coord_on_dark: Rgba(0xf0, 0xf0, 0xda, 255),
        piece_fill: PIECE_FILL,
        piece_line: PIECE_LINE,
        piece_detail: PIECE_DETAIL,
        last_move: Rgba(0xf6, 0xf6, 0x30, 120),
        blast: Rgba(0xf0, 0x60, 0x10, 64),
        check: Rgba(0xff, 0x10, 0x10, 255),
        shield_tint: [Rgba(0xff, 0xff, 0xff, 56), Rgba(0x10, 0x10, 0x10, 40)],
        shield_line: [Rgba(0xff, 0xff, 0xff, 255), Rgba(0x18, 0x18, 0x18, 255)],
        shield_halo: [Rgba(0x20, 0x30, 0x10, 150), Rgba(0xff, 0xff, 0xff, 140)],
        hatch: Rgba(0x20, 0x2a, 0x10, 70),
        radiation_sign: Rgba(0xf8, 0xc8, 0x1c, 255),
        radiation_ink: Rgba(0x1a, 0x16, 0x10, 255),
        launch_mark: Rgba(0xff, 0x8c, 0x1a, 255),
        launch_mark_edge: Rgba(0x30, 0x18, 0x00, 255),
        title_bg: Rgba(0x2b, 0x30, 0x2b, 255),
        title_text: Rgba(0xee, 0xee, 0xe0, 255),
    },
    ThemeData {
        name: "contrast",
        light: Rgba(0xf4, 0xf4, 0xf0, 255),
        dark: Rgba(0x6b, 0x7f, 0x99, 255),
        coord_on_light: Rgba(0x3a, 0x4a, 0x60, 255),
        coord_on_dark: Rgba(0xff, 0xff, 0xff, 255),
        piece_fill: [Rgba(0xff, 0xff, 0xff, 255), Rgba(0x12, 0x12, 0x12, 255)],
        piece_line: [Rgba(0x00, 0x00, 0x00, 255), Rgba(0x00, 0x00, 0x00, 255)],
        piece_detail: [Rgba(0x00, 0x00, 0x00, 255), Rgba(0xff, 0xff, 0xff, 255)],
        last_move: Rgba(0x1e, 0x88, 0xe5, 110),
        blast: Rgba(0xff, 0xa0, 0x00, 140),
        check: Rgba(0xff, 0x00, 0xd0, 255),
        shield_tint: [Rgba(0xff, 0xff, 0xff, 80), Rgba(0x00, 0x00, 0x00, 70)],
        shield_line: [Rgba(0xff, 0xff, 0xff, 255), Rgba(0x00, 0x00, 0x00, 255)],
        shield_halo: [Rgba(0x00, 0x00, 0x00, 200), Rgba(0xff, 0xff, 0xff, 200)],
        hatch: Rgba(0x00, 0x00, 0x00, 90),
        radiation_sign: Rgba(0xff, 0xd6, 0x00, 255),
        radiation_ink: Rgba(0x00, 0x00, 0x00, 255),
        launch_mark: Rgba(0xff, 0xa0, 0x00, 255),
        launch_mark_edge: Rgba(0x00, 0x00, 0x00, 255),
        title_bg: Rgba(0x00, 0x00, 0x00, 255),
        title_text: Rgba(0xff, 0xff, 0xff, 255),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_order_matches_enum() {
        for t in Theme::ALL {
            assert_eq!(Theme::by_name(t.name()), Some(t));
        }
    }

    #[test]
    fn aliases_and_unknown_names() {
        assert_eq!(Theme::by_name("Classic"), Some(Theme::Wood));
        assert_eq!(Theme::by_name("high-contrast"), Some(Theme::Contrast));
        assert_eq!(Theme::by_name("neon"), None);
    }
}

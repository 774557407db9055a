//! A small stroke font drawn for this project: each glyph is an SVG path drawn with a round pen, in a cell
//! where the baseline is y = 8, capitals and digits reach y = 1, lower case x-height is y = 3.5 and
//! descenders reach y = 10.4. Used for coordinates and the title strip; characters without a glyph are
//! drawn as `?`.

/// One glyph: path data and advance width, in font units.
#[derive(Clone, Copy, Debug)]
pub struct Glyph {
    pub path: &'static str,
    pub advance: f32,
}

/// Height of capitals above the baseline, in font units.
pub const CAP_HEIGHT: f32 = 7.0;
/// Baseline position in the glyph cell.
pub const BASELINE: f32 = 8.0;

/// The glyph for `c`, if the font has one.
pub fn glyph(c: char) -> Option<Glyph> {
    let g = |path: &'static str, advance: f32| Some(Glyph { path, advance });
    match c {
        '0' => g("M 2.5 1 C 0.6 1 0.1 3 0.1 4.5 C 0.1 6 0.6 8 2.5 8 C 4.4 8 4.9 6 4.9 4.5 C 4.9 3 4.4 1 2.5 1 Z", 6.2),
        '1' => g("M 1 2.6 L 3 1 L 3 8", 6.2),
        '2' => g("M 0.4 2.6 C 0.6 1.5 1.5 1 2.5 1 C 3.8 1 4.6 1.8 4.6 3 C 4.6 4.8 0.3 6.4 0.3 8 L 4.8 8", 6.2),
        '3' => g(
            "M 0.4 1.9 C 1 1.2 1.7 1 2.5 1 C 3.8 1 4.6 1.7 4.6 2.7 C 4.6 3.8 3.6 4.4 2.2 4.4 C 3.9 4.4 4.8 5.2 \
             4.8 6.2 C 4.8 7.4 3.7 8 2.5 8 C 1.5 8 0.7 7.6 0.2 7",
            6.2,
        ),
        '4' => g("M 3.7 8 L 3.7 1 L 0.1 5.8 L 5 5.8", 6.2),
        '5' => g(
            "M 4.5 1 L 1.1 1 L 0.7 4.2 C 1.3 3.8 1.9 3.7 2.5 3.7 C 3.9 3.7 4.8 4.6 4.8 5.9 C 4.8 7.2 3.8 8 2.5 8 C 1.5 8 0.7 7.6 0.2 7",
            6.2,
        ),
        '6' => g(
            "M 4.3 1.5 C 3.8 1.1 3.2 1 2.6 1 C 1 1 0.2 2.6 0.2 4.8 C 0.2 7 1 8 2.5 8 C 3.9 8 4.8 7.1 4.8 5.9 C \
             4.8 4.6 3.9 3.9 2.6 3.9 C 1.4 3.9 0.5 4.6 0.2 5.4",
            6.2,
        ),
        '7' => g("M 0.2 1 L 4.8 1 L 1.9 8", 6.2),
        '8' => g(
            "M 2.5 4.3 C 1.2 4.3 0.4 3.6 0.4 2.6 C 0.4 1.6 1.3 1 2.5 1 C 3.7 1 4.6 1.6 4.6 2.6 C 4.6 3.6 3.8 4.3 \
             2.5 4.3 C 1.1 4.3 0.1 5 0.1 6.1 C 0.1 7.3 1.1 8 2.5 8 C 3.9 8 4.9 7.3 4.9 6.1 C 4.9 5 3.9 4.3 2.5 4.3 Z",
            6.2,
        ),
        '9' => g(
            "M 0.7 7.5 C 1.2 7.9 1.8 8 2.4 8 C 4 8 4.8 6.4 4.8 4.2 C 4.8 2 4 1 2.5 1 C 1.1 1 0.2 1.9 0.2 3.1 C \
             0.2 4.4 1.1 5.1 2.4 5.1 C 3.6 5.1 4.5 4.4 4.8 3.6",
            6.2,
        ),
        'a' => g(
            "M 4.3 3.5 L 4.3 8 M 4.3 5.7 C 4.3 4.3 3.4 3.5 2.3 3.5 C 1 3.5 0.2 4.5 0.2 5.75 C 0.2 7 1 8 2.3 8 C 3.4 8 4.3 7.2 4.3 5.7",
            5.8,
        ),
        'b' => g(
            "M 0.5 1 L 0.5 8 M 0.5 5.7 C 0.5 4.3 1.4 3.5 2.6 3.5 C 3.9 3.5 4.7 4.5 4.7 5.75 C 4.7 7 3.9 8 2.6 8 C \
             1.4 8 0.5 7.2 0.5 5.7",
            5.8,
        ),
        'c' => g(
            "M 4.4 4.2 C 4 3.7 3.3 3.5 2.6 3.5 C 1.2 3.5 0.3 4.5 0.3 5.75 C 0.3 7 1.2 8 2.6 8 C 3.3 8 4 7.8 4.4 7.3",
            5.4,
        ),
        'd' => g(
            "M 4.3 1 L 4.3 8 M 4.3 5.7 C 4.3 4.3 3.4 3.5 2.3 3.5 C 1 3.5 0.2 4.5 0.2 5.75 C 0.2 7 1 8 2.3 8 C 3.4 8 4.3 7.2 4.3 5.7",
            5.8,
        ),
        'e' => g(
            "M 0.3 5.8 L 4.6 5.8 C 4.6 4.4 3.8 3.5 2.5 3.5 C 1.2 3.5 0.3 4.5 0.3 5.75 C 0.3 7 1.2 8 2.6 8 C 3.4 8 4 7.7 4.4 7.3",
            5.8,
        ),
        'f' => g("M 4 1.3 C 3.6 1.1 3.2 1 2.8 1 C 2 1 1.6 1.5 1.6 2.4 L 1.6 8 M 0.2 3.7 L 3.6 3.7", 4.4),
        'g' => g(
            "M 4.3 3.5 L 4.3 8.6 C 4.3 9.8 3.5 10.4 2.3 10.4 C 1.6 10.4 1 10.2 0.5 9.8 M 4.3 5.7 C 4.3 4.3 3.4 3.5 2.3 3.5 C 1 3.5 0.2 4.5 0.2 5.75 C 0.2 7 1 8 2.3 8 C 3.4 8 4.3 7.2 4.3 5.7",
            5.8,
        ),
        'h' => g("M 0.5 1 L 0.5 8 M 0.5 5 C 0.9 4 1.7 3.5 2.6 3.5 C 3.8 3.5 4.5 4.2 4.5 5.4 L 4.5 8", 5.8),
        'i' => g("M 1.2 3.5 L 1.2 8 M 1.2 1.5 L 1.2 1.6", 2.8),
        'j' => g("M 2.4 3.5 L 2.4 9 C 2.4 10 1.8 10.4 1 10.4 C 0.6 10.4 0.3 10.3 0 10.1 M 2.4 1.5 L 2.4 1.6", 3.6),
        '?' => g(
            "M 0.5 2.4 C 0.8 1.5 1.6 1 2.5 1 C 3.7 1 4.5 1.7 4.5 2.7 C 4.5 4.2 2.5 4.4 2.5 5.9 M 2.5 7.9 L 2.5 8",
            5.6,
        ),
        ' ' => g("", 3.2),
        _ => None,
    }
}

/// Glyph for `c`, or `?`.
pub fn glyph_or_fallback(c: char) -> Glyph {
    glyph(c).or_else(|| glyph('?')).expect("the font has '?'")
}

/// Width of `text` in font units.
pub fn text_width(text: &str) -> f32 {
    text.chars().map(|c| glyph_or_fallback(c).advance).sum()
}

/// SVG path elements drawing `text` with its baseline at (`x`, `y`), `scale` pixels (or viewBox units) per font
/// unit, stroked in `color` (`#rrggbb`) with a pen of `pen` font units.
pub fn text_svg(text: &str, x: f32, y: f32, scale: f32, color: &str, pen: f32) -> String {
    let mut out = format!(
        "<g fill=\"none\" stroke=\"{color}\" stroke-width=\"{pen}\" stroke-linecap=\"round\" stroke-linejoin=\"round\" \
         transform=\"translate({x} {}) scale({scale})\">",
        y - BASELINE * scale
    );
    let mut pen_x = 0.0;
    for c in text.chars() {
        let g = glyph_or_fallback(c);
        if !g.path.is_empty() {
            out.push_str(&format!("<path transform=\"translate({pen_x} 0)\" d=\"{}\"/>", g.path));
        }
        pen_x += g.advance;
    }
    out.push_str("</g>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_have_glyphs() {
        for c in "abcdefghij0123456789".chars() {
            assert!(glyph(c).is_some(), "{c}");
        }
    }

    #[test]
    fn unknown_characters_fall_back() {
        assert_eq!(glyph_or_fallback('☃').path, glyph('?').unwrap().path);
        assert!(text_width("ab") > text_width("a"));
    }

    #[test]
    fn text_parses_as_svg() {
        let body = text_svg("a10 j9", 0.0, 10.0, 1.0, "#000000", 1.0);
        let doc = format!("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 40 12\">{body}</svg>");
        assert!(resvg::usvg::Tree::from_str(&doc, &resvg::usvg::Options::default()).is_ok());
    }
}

//! A leaderboard card as a PNG: a title strip (variant and community), a header, one row per
//! player (place, name, rating with "?" when provisional, games, wins/draws/losses), provisional
//! players in a section of their own, and the asker's row highlighted — appended below a gap when it
//! is not among the rows shown.

use super::Theme;
use super::text::{Canvas, Face, clean, fit, measure, mix, with_alpha};
use super::theme::Rgba;

/// Picture width in pixels (the height follows from the number of rows).
pub const WIDTH: u32 = 640;
/// Most rows drawn per section.
pub const MAX_ROWS: usize = 20;
/// Most characters of a name, title or subtitle considered.
pub const MAX_TEXT_CHARS: usize = 64;

/// One player's row.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CardRow {
    /// Place in the ranking; `None` for provisional players.
    pub place: Option<u32>,
    pub name: String,
    pub rating: f64,
    pub provisional: bool,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// The asker's own row: highlighted.
    pub is_me: bool,
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct CardRequest<'a> {
    /// For example "Capatomic leaderboard".
    pub title: &'a str,
    /// For example the community's name.
    pub subtitle: &'a str,
    /// Ranked players, best first.
    pub rows: &'a [CardRow],
    /// Provisional players, shown apart.
    pub provisional: &'a [CardRow],
    /// The asker's row, appended when it is in neither list above.
    pub me: Option<&'a CardRow>,
    pub theme: Theme,
    /// The card's own words, in its reader's language.
    pub words: &'a super::PictureWords,
}

const TITLE_H: f32 = 70.0;
const HEADER_H: f32 = 30.0;
const ROW_H: f32 = 36.0;
const SECTION_H: f32 = 34.0;
const GAP_H: f32 = 22.0;
const MARGIN: f32 = 16.0;
/// Column positions: place (right edge), name (left edge), rating, games, record (right edges).
const COL_PLACE: f32 = 58.0;
const COL_NAME: f32 = 74.0;
const COL_RATING: f32 = 400.0;
const COL_GAMES: f32 = 478.0;
const COL_RECORD: f32 = WIDTH as f32 - MARGIN - 14.0;

enum Line<'a> {
    Header,
    Row(&'a CardRow, bool),
    Section(&'a str),
    Gap,
}

/// Renders the card as PNG bytes.
pub fn render_card(req: &CardRequest<'_>) -> Vec<u8> {
    let t = req.theme.data();
    let white = Rgba(255, 255, 255, 255);
    let black = Rgba(0, 0, 0, 255);
    let bg = mix(t.light, white, 0.55);
    let panel = mix(t.light, white, 0.82);
    let stripe = mix(panel, t.light, 0.55);
    let ink = mix(t.piece_line[0], t.dark, 0.15);
    let muted = mix(t.coord_on_light, black, 0.25);
    let highlight = mix(panel, with_alpha(t.last_move, 255), f32::from(t.last_move.3) / 255.0 * 0.9);
    let accent = mix(t.dark, black, 0.35);

    let rows = &req.rows[..req.rows.len().min(MAX_ROWS)];
    let provisional = &req.provisional[..req.provisional.len().min(MAX_ROWS)];
    let me_shown = rows.iter().chain(provisional).any(|r| r.is_me);
    let mut lines = vec![Line::Header];
    lines.extend(rows.iter().enumerate().map(|(i, r)| Line::Row(r, i % 2 == 1)));
    if rows.is_empty() {
        lines.push(Line::Section(&req.words.no_established));
    }
    if !provisional.is_empty() {
        lines.push(Line::Section(&req.words.provisional_section));
        lines.extend(provisional.iter().enumerate().map(|(i, r)| Line::Row(r, i % 2 == 1)));
    }
    if let Some(me) = req.me.filter(|_| !me_shown) {
        lines.push(Line::Gap);
        lines.push(Line::Row(me, false));
    }
    let body: f32 = lines
        .iter()
        .map(|l| match l {
            Line::Header => HEADER_H,
            Line::Row(..) => ROW_H,
            Line::Section(_) => SECTION_H,
            Line::Gap => GAP_H,
        })
        .sum();
    let height = (TITLE_H + MARGIN + body + MARGIN * 1.5).ceil() as u32;
    let w = WIDTH as f32;
    let mut cv = Canvas::new(WIDTH, height, bg);

    // Title strip.
    cv.fill_rect(0.0, 0.0, w, TITLE_H, t.title_bg);
    let title: String = clean(req.title).chars().take(MAX_TEXT_CHARS).collect();
    let subtitle: String = clean(req.subtitle).chars().take(MAX_TEXT_CHARS).collect();
    cv.text(&fit(&title, 24.0, Face::Bold, w - 2.0 * 24.0), 24.0, 34.0, 24.0, Face::Bold, t.title_text);
    cv.text(
        &fit(&subtitle, 15.0, Face::Regular, w - 2.0 * 24.0),
        24.0,
        56.0,
        15.0,
        Face::Regular,
        mix(t.title_text, t.title_bg, 0.35),
    );

    let (x0, x1) = (MARGIN, w - MARGIN);
    cv.fill_rounded_rect(x0, TITLE_H + MARGIN, x1, height as f32 - MARGIN * 0.5, 8.0, panel);
    let right = |cv: &mut Canvas, s: &str, x: f32, y: f32, px: f32, face: Face, color: Rgba| {
        let sw = measure(s, px, face);
        cv.text(s, x - sw, y, px, face, color);
    };
    let mut y = TITLE_H + MARGIN;
    for line in &lines {
        match line {
            Line::Header => {
                let base = y + 20.0;
                right(&mut cv, "#", COL_PLACE, base, 12.0, Face::Bold, muted);
                cv.text(&req.words.player, COL_NAME, base, 12.0, Face::Bold, muted);
                right(&mut cv, &req.words.rating, COL_RATING, base, 12.0, Face::Bold, muted);
                right(&mut cv, &req.words.games, COL_GAMES, base, 12.0, Face::Bold, muted);
                right(&mut cv, &req.words.record, COL_RECORD, base, 12.0, Face::Bold, muted);
                cv.fill_rect(x0 + 10.0, y + HEADER_H - 1.0, x1 - 10.0, y + HEADER_H, mix(panel, t.dark, 0.35));
                y += HEADER_H;
            }
            Line::Section(label) => {
                cv.text(label, COL_NAME, y + 23.0, 13.0, Face::Bold, muted);
                y += SECTION_H;
            }
            Line::Gap => {
                let cy = y + GAP_H / 2.0;
                for i in -1..=1 {
                    cv.disc(COL_NAME + 12.0 * i as f32 + 12.0, cy, 2.0, muted);
                }
                y += GAP_H;
            }
            Line::Row(r, striped) => {
                if r.is_me {
                    cv.fill_rounded_rect(x0 + 4.0, y + 1.0, x1 - 4.0, y + ROW_H - 1.0, 5.0, highlight);
                    cv.fill_rounded_rect(x0 + 4.0, y + 1.0, x0 + 8.0, y + ROW_H - 1.0, 2.0, accent);
                } else if *striped {
                    cv.fill_rect(x0 + 4.0, y, x1 - 4.0, y + ROW_H, stripe);
                }
                let base = y + 24.0;
                let face = if r.is_me { Face::Bold } else { Face::Regular };
                if let Some(p) = r.place {
                    right(&mut cv, &p.to_string(), COL_PLACE, base, 15.0, Face::Bold, muted);
                }
                let name: String = clean(&r.name).chars().take(MAX_TEXT_CHARS).collect();
                let name = if name.is_empty() { "?".to_string() } else { name };
                let name_w = COL_RATING - 70.0 - COL_NAME;
                cv.text(&fit(&name, 16.0, face, name_w), COL_NAME, base, 16.0, face, ink);
                let rating = if r.rating.is_finite() { r.rating.clamp(-9999.0, 99_999.0).round() as i64 } else { 0 };
                let rating = format!("{rating}{}", if r.provisional { "?" } else { "" });
                right(&mut cv, &rating, COL_RATING, base, 16.0, Face::Bold, ink);
                right(&mut cv, &r.games.to_string(), COL_GAMES, base, 15.0, Face::Regular, ink);
                let record = format!("{} / {} / {}", r.wins, r.draws, r.losses);
                right(&mut cv, &record, COL_RECORD, base, 15.0, Face::Regular, muted);
                y += ROW_H;
            }
        }
    }
    cv.png()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(place: u32, name: &str) -> CardRow {
        CardRow {
            place: Some(place),
            name: name.into(),
            rating: 2000.0 - 10.0 * place as f64,
            provisional: false,
            games: 10,
            wins: 5,
            draws: 3,
            losses: 2,
            is_me: false,
        }
    }

    fn height(png: &[u8]) -> u32 {
        u32::from_be_bytes([png[20], png[21], png[22], png[23]])
    }

    #[test]
    fn rows_are_bounded_and_height_follows() {
        let many: Vec<CardRow> = (1..=100).map(|i| row(i, &"n".repeat(500))).collect();
        let words = crate::render::PictureWords::default();
        let req = CardRequest {
            title: "t",
            subtitle: "s",
            rows: &many,
            provisional: &many,
            me: None,
            theme: Theme::Green,
            words: &words,
        };
        let big = render_card(&req);
        let small = render_card(&CardRequest { rows: &many[..3], provisional: &[], ..req.clone() });
        assert!(height(&big) > height(&small));
        assert_eq!(height(&big), height(&render_card(&CardRequest { rows: &many[..MAX_ROWS], ..req })));
    }

    #[test]
    fn my_row_is_appended_only_when_missing() {
        let rows: Vec<CardRow> = (1..=3).map(|i| row(i, "p")).collect();
        let me = CardRow { is_me: true, ..row(40, "me") };
        let words = crate::render::PictureWords::default();
        let base = CardRequest {
            title: "t",
            subtitle: "s",
            rows: &rows,
            provisional: &[],
            me: None,
            theme: Theme::Wood,
            words: &words,
        };
        let without = height(&render_card(&base));
        let with = height(&render_card(&CardRequest { me: Some(&me), ..base.clone() }));
        assert!(with > without);
        let mut mine = rows.clone();
        mine[1].is_me = true;
        let inside = height(&render_card(&CardRequest { rows: &mine, me: Some(&mine[1]), ..base }));
        assert_eq!(inside, without);
    }
}

//! A game's course as a PNG, drawn like the rating chart ([`super::chart`]): a title strip with the
//! players, the variant and the result; White's winning chances after each ply as a smooth curve
//! over a band that is light where White is better and dark where Black is; the inaccuracies,
//! mistakes and blunders marked on the curve in three colours with a legend; move numbers below.
//!
//! The renderer knows nothing of engines: the caller gives the chances (0–100, one per position)
//! and the marks.

use super::Theme;
use super::text::{Canvas, Face, ascent, clean, fit, measure, mix, with_alpha};
use super::theme::Rgba;

/// Picture size in pixels (the rating chart's).
pub const WIDTH: u32 = super::chart::WIDTH;
pub const HEIGHT: u32 = super::chart::HEIGHT;
/// Most positions drawn: a longer game is cut at its end.
pub const MAX_POSITIONS: usize = 1000;
/// Most characters of a name shown.
pub const MAX_NAME_CHARS: usize = 64;

/// How bad a marked move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Severity {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// A marked move: the ply (0 for the first move) whose result is marked, i.e. the point after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CourseMark {
    pub ply: usize,
    pub severity: Severity,
}

/// The chart's own words, in its reader's language.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CourseWords {
    pub inaccuracy: String,
    pub mistake: String,
    pub blunder: String,
}

impl Default for CourseWords {
    fn default() -> Self {
        CourseWords { inaccuracy: "inaccuracy".into(), mistake: "mistake".into(), blunder: "blunder".into() }
    }
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct CourseRequest<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub variant: &'a str,
    /// `1-0`, `0-1`, `½-½` or empty.
    pub result: &'a str,
    /// White's winning chances (0–100) in each position from the start; non-finite values count as 50.
    pub chances: &'a [f64],
    pub marks: &'a [CourseMark],
    pub theme: Theme,
    pub words: &'a CourseWords,
}

/// The mark colours: the same on every theme, told apart by lightness too (yellow, orange, red).
fn mark_color(s: Severity) -> Rgba {
    match s {
        Severity::Inaccuracy => Rgba(222, 178, 30, 255),
        Severity::Mistake => Rgba(232, 118, 22, 255),
        Severity::Blunder => Rgba(196, 38, 38, 255),
    }
}

/// A smooth curve through the points (monotone cubic: it never overshoots, so it stays in 0–100 and
/// shows no swing the game did not have), evaluated at fractional index `t`.
fn smooth(ys: &[f64], slopes: &[f64], t: f64) -> f64 {
    let n = ys.len();
    if n == 1 {
        return ys[0];
    }
    let i = (t.floor().max(0.0) as usize).min(n - 2);
    let u = (t - i as f64).clamp(0.0, 1.0);
    let (y0, y1, m0, m1) = (ys[i], ys[i + 1], slopes[i], slopes[i + 1]);
    let (u2, u3) = (u * u, u * u * u);
    (2.0 * u3 - 3.0 * u2 + 1.0) * y0 + (u3 - 2.0 * u2 + u) * m0 + (-2.0 * u3 + 3.0 * u2) * y1 + (u3 - u2) * m1
}

/// Fritsch–Carlson slopes for [`smooth`].
fn monotone_slopes(ys: &[f64]) -> Vec<f64> {
    let n = ys.len();
    if n < 2 {
        return vec![0.0; n];
    }
    let d: Vec<f64> = ys.windows(2).map(|w| w[1] - w[0]).collect();
    let mut m = vec![0.0; n];
    m[0] = d[0];
    m[n - 1] = d[n - 2];
    for i in 1..n - 1 {
        m[i] = if d[i - 1] * d[i] <= 0.0 { 0.0 } else { (d[i - 1] + d[i]) / 2.0 };
    }
    for i in 0..n - 1 {
        if d[i] == 0.0 {
            m[i] = 0.0;
            m[i + 1] = 0.0;
            continue;
        }
        let (a, b) = (m[i] / d[i], m[i + 1] / d[i]);
        let s = a * a + b * b;
        if s > 9.0 {
            let tau = 3.0 / s.sqrt();
            m[i] = tau * a * d[i];
            m[i + 1] = tau * b * d[i];
        }
    }
    m
}

/// Renders the course as PNG bytes. Never panics; inputs are bounded.
pub fn render_course(req: &CourseRequest<'_>) -> Vec<u8> {
    let t = req.theme.data();
    let white_c = Rgba(255, 255, 255, 255);
    let super::chart::Colors { bg, plot_bg, grid, muted, accent, .. } = super::chart::colors(req.theme);
    let mut cv = Canvas::new(WIDTH, HEIGHT, bg);
    let (w, h) = (WIDTH as f32, HEIGHT as f32);

    let ys: Vec<f64> = req
        .chances
        .iter()
        .take(MAX_POSITIONS)
        .map(|c| if c.is_finite() { c.clamp(0.0, 100.0) } else { 50.0 })
        .collect();

    // Title strip: the players on the left, the result on the right.
    let title_h = 58.0;
    cv.fill_rect(0.0, 0.0, w, title_h, t.title_bg);
    let result: String = clean(req.result).chars().take(12).collect();
    let right_w = measure(&result, 26.0, Face::Bold);
    cv.text(&result, w - 24.0 - right_w, 39.0, 26.0, Face::Bold, t.title_text);
    let white: String = clean(req.white).chars().take(MAX_NAME_CHARS).collect();
    let black: String = clean(req.black).chars().take(MAX_NAME_CHARS).collect();
    let variant: String = clean(req.variant).chars().take(MAX_NAME_CHARS).collect();
    let avail = w - 48.0 - right_w - 24.0;
    let variant_w = measure(&variant, 16.0, Face::Regular).min(avail * 0.35);
    let variant = fit(&variant, 16.0, Face::Regular, variant_w + 0.5);
    let names = fit(&format!("{white} – {black}"), 22.0, Face::Bold, avail - variant_w - 16.0);
    let nw = cv.text(&names, 24.0, 37.0, 22.0, Face::Bold, t.title_text);
    cv.text(&variant, 24.0 + nw + 14.0, 37.0, 16.0, Face::Regular, mix(t.title_text, t.title_bg, 0.35));

    let (left, right, top, bottom) = (60.0f32, w - 28.0, title_h + 40.0, h - 46.0);
    cv.fill_rounded_rect(left, top, right, bottom, 6.0, plot_bg);
    let y_of = |p: f64| bottom - (p / 100.0) as f32 * (bottom - top);

    // The legend above the plot, right-aligned: a dot and a word per severity.
    let legend = [
        (Severity::Inaccuracy, req.words.inaccuracy.as_str()),
        (Severity::Mistake, req.words.mistake.as_str()),
        (Severity::Blunder, req.words.blunder.as_str()),
    ];
    let mut x = right;
    for (s, word) in legend.iter().rev() {
        let word: String = clean(word).chars().take(24).collect();
        let ww = measure(&word, 13.0, Face::Regular);
        x -= ww;
        cv.text(&word, x, top - 12.0, 13.0, Face::Regular, muted);
        x -= 12.0;
        cv.disc(x, top - 16.5, 4.5, mark_color(*s));
        x -= 22.0;
    }

    // Gridlines at 0, 25, 50, 75 and 100 %, the middle one stronger.
    for p in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let y = y_of(p).round() + 0.5;
        let line = if p == 50.0 { mix(grid, accent, 0.4) } else { grid };
        cv.fill_rect(left, y - 0.5, right, y + 0.5, line);
        let label = format!("{p:.0}%");
        let lw = measure(&label, 13.0, Face::Regular);
        cv.text(&label, left - 8.0 - lw, y + ascent(13.0) / 2.0 - 1.0, 13.0, Face::Regular, muted);
    }
    if ys.is_empty() {
        return cv.png();
    }

    let (pad_l, pad_r) = (left + 10.0, right - 10.0);
    let last = (ys.len() - 1).max(1) as f32;
    let x_of = |i: f64| pad_l + i as f32 / last * (pad_r - pad_l);
    let slopes = monotone_slopes(&ys);
    let at_x = |x: f32| {
        let t = f64::from((x - pad_l) / (pad_r - pad_l) * last).clamp(0.0, f64::from(last));
        smooth(&ys, &slopes, t).clamp(0.0, 100.0)
    };

    // The band between the curve and the middle line: light above (White better), dark below.
    let mid = y_of(50.0);
    let columns: Vec<f32> = (pad_l.floor() as i32..pad_r.ceil() as i32).map(|x| y_of(at_x(x as f32 + 0.5))).collect();
    let above: Vec<(f32, f32)> = columns.iter().map(|&y| (y.min(mid), mid)).collect();
    let below: Vec<(f32, f32)> = columns.iter().map(|&y| (mid, y.max(mid))).collect();
    cv.fill_columns(pad_l.floor() as i32, &above, with_alpha(mix(t.light, white_c, 0.3), 230));
    cv.fill_columns(pad_l.floor() as i32, &below, with_alpha(t.dark, 120));

    // Move numbers: a tick every 1, 2, 5, 10 … moves, about eight in all.
    let moves = ys.len().div_ceil(2).max(1);
    let every = [1usize, 2, 5, 10, 20, 25, 50, 100, 200].into_iter().find(|s| moves / s <= 8).unwrap_or(500);
    let mut n = every;
    while n <= moves {
        // Move n begins at ply 2(n−1): the point after White's move n is index 2n−1.
        let i = (2 * n - 1).min(ys.len() - 1);
        let x = x_of(i as f64);
        cv.fill_rect(x - 0.5, bottom, x + 0.5, bottom + 5.0, grid);
        let label = n.to_string();
        let lw = measure(&label, 13.0, Face::Regular);
        cv.text(&label, x - lw / 2.0, bottom + 22.0, 13.0, Face::Regular, muted);
        n += every;
    }

    // The curve, sampled every two pixels.
    let mut prev: Option<(f32, f32)> = None;
    let mut x = pad_l;
    while x <= pad_r + 0.01 {
        let p = (x, y_of(at_x(x)));
        if let Some(q) = prev {
            cv.line(q.0, q.1, p.0, p.1, 2.4, accent);
        }
        prev = Some(p);
        x += 2.0;
    }

    // The marks: on the point after the marked move, worst drawn last.
    let mut marks: Vec<CourseMark> = req.marks.iter().copied().filter(|m| m.ply + 1 < ys.len()).collect();
    marks.sort_by_key(|m| m.severity);
    for m in marks {
        let (x, y) = (x_of((m.ply + 1) as f64), y_of(ys[m.ply + 1]));
        let r = match m.severity {
            Severity::Inaccuracy => 4.0,
            Severity::Mistake => 5.0,
            Severity::Blunder => 6.0,
        };
        cv.disc(x, y, r + 1.8, plot_bg);
        cv.disc(x, y, r, mark_color(m.severity));
    }
    cv.png()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smooth_curve_passes_through_the_points_without_overshooting() {
        let ys = [50.0, 52.0, 90.0, 91.0, 10.0, 10.0, 100.0];
        let m = monotone_slopes(&ys);
        for (i, y) in ys.iter().enumerate() {
            assert!((smooth(&ys, &m, i as f64) - y).abs() < 1e-9);
        }
        for k in 0..600 {
            let t = k as f64 / 100.0;
            let (i, v) = (t.floor() as usize, smooth(&ys, &m, t));
            let (lo, hi) = (ys[i].min(ys[(i + 1).min(6)]), ys[i].max(ys[(i + 1).min(6)]));
            assert!(v >= lo - 1e-9 && v <= hi + 1e-9, "t {t}: {v} outside {lo}..{hi}");
        }
    }

    #[test]
    fn degenerate_inputs_still_draw() {
        let words = CourseWords::default();
        let many: Vec<f64> = (0..5000).map(|i| (i % 100) as f64).collect();
        let weird = [f64::NAN, 1e300, -5.0, f64::INFINITY];
        let marks =
            [CourseMark { ply: 0, severity: Severity::Blunder }, CourseMark { ply: 9999, severity: Severity::Mistake }];
        for chances in [&[][..], &[50.0][..], &weird[..], &many[..]] {
            let req = CourseRequest {
                white: &"w".repeat(5000),
                black: "王小明",
                variant: "Capatomic Random Chess",
                result: "1-0",
                chances,
                marks: &marks,
                theme: Theme::Green,
                words: &words,
            };
            let png = render_course(&req);
            assert_eq!(&png[1..4], b"PNG");
        }
    }
}

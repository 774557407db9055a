//! A player's rating over time as a PNG: title strip with name, variant and current rating; rating
//! gridlines and date ticks; the rating deviation as a shaded band; the rating line with a dot per
//! game; the provisional stretch (deviation above the caller's threshold) shaded and dashed.
//!
//! Colours come from the board theme, so a chart sits well beside the boards of the same chat.

use super::Theme;
use super::text::{Canvas, Face, ascent, clean, fit, measure, mix, with_alpha};
use super::theme::Rgba;

/// Picture size in pixels.
pub const WIDTH: u32 = 800;
pub const HEIGHT: u32 = 450;
/// Most points drawn: older ones are dropped.
pub const MAX_POINTS: usize = 1000;
/// Most characters of the player's name and of the variant shown.
pub const MAX_NAME_CHARS: usize = 64;

/// One rated game: the time (Unix seconds) and the rating and deviation after it.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChartPoint {
    pub at: i64,
    pub rating: f64,
    pub deviation: f64,
}

impl From<(i64, f64, f64)> for ChartPoint {
    fn from((at, rating, deviation): (i64, f64, f64)) -> Self {
        ChartPoint { at, rating, deviation }
    }
}

/// What to draw.
#[derive(Clone, Debug)]
pub struct ChartRequest<'a> {
    pub player: &'a str,
    pub variant: &'a str,
    /// In any order; non-finite values are skipped.
    pub points: &'a [ChartPoint],
    /// A point is provisional when its deviation is above this (the rating module's threshold).
    pub provisional_above: f64,
    pub theme: Theme,
    /// The chart's own words, in its reader's language.
    pub words: &'a super::PictureWords,
}

/// The colours of a chart, derived from a board theme (the game's course chart uses them too).
pub(super) struct Colors {
    pub bg: Rgba,
    pub plot_bg: Rgba,
    pub grid: Rgba,
    pub muted: Rgba,
    pub title_bg: Rgba,
    pub title_text: Rgba,
    pub accent: Rgba,
    pub provisional_bg: Rgba,
}

pub(super) fn colors(theme: Theme) -> Colors {
    let t = theme.data();
    let white = Rgba(255, 255, 255, 255);
    let black = Rgba(0, 0, 0, 255);
    let bg = mix(t.light, white, 0.55);
    Colors {
        bg,
        plot_bg: mix(t.light, white, 0.8),
        grid: mix(bg, t.dark, 0.28),
        muted: mix(t.coord_on_light, black, 0.25),
        title_bg: t.title_bg,
        title_text: t.title_text,
        accent: mix(t.dark, black, 0.35),
        provisional_bg: with_alpha(t.dark, 18),
    }
}

const DAY: i64 = 86_400;
/// Times are clamped to 1970 … 2200 (Unix seconds), so date arithmetic stays small.
const LATEST: i64 = 7_258_118_400;
/// Most date ticks tried (the loop below draws at most about six).
const MAX_TICKS: usize = 64;

/// (year, month 1–12, day 1–31) of a day count since 1970-01-01, proleptic Gregorian.
fn civil(days: i64) -> (i64, u32, u32) {
    // Shift to years starting in March so the leap day ends a year; 146097 days per 400 years.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn date_label(at: i64, with_year: bool, months: &[String; 12]) -> String {
    let (y, m, d) = civil(at.div_euclid(DAY));
    let month = &months[m as usize - 1];
    if with_year { format!("{month} {y}") } else { format!("{d} {month}") }
}

/// A step of about `span / target` rounded to 1, 2, 2.5 or 5 times a power of ten.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-9);
    let mag = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0].into_iter().map(|k| k * mag).find(|&s| s >= raw).unwrap_or(10.0 * mag)
}

/// Renders the chart as PNG bytes.
pub fn render_chart(req: &ChartRequest<'_>) -> Vec<u8> {
    let c = colors(req.theme);
    let mut cv = Canvas::new(WIDTH, HEIGHT, c.bg);
    let (w, h) = (WIDTH as f32, HEIGHT as f32);

    let mut pts: Vec<ChartPoint> = req
        .points
        .iter()
        .filter(|p| p.rating.is_finite() && p.deviation.is_finite())
        .map(|p| ChartPoint {
            at: p.at.clamp(0, LATEST),
            rating: p.rating.clamp(-5000.0, 10_000.0),
            deviation: p.deviation.clamp(0.0, 1000.0),
        })
        .collect();
    pts.sort_by_key(|p| p.at);
    if pts.len() > MAX_POINTS {
        pts.drain(..pts.len() - MAX_POINTS);
    }

    // Title strip: name and variant on the left, current rating on the right.
    let title_h = 58.0;
    cv.fill_rect(0.0, 0.0, w, title_h, c.title_bg);
    let current = pts.last().map(|p| {
        let q = if p.deviation > req.provisional_above { "?" } else { "" };
        format!("{}{q}", p.rating.round() as i64)
    });
    let right_w = current.as_deref().map_or(0.0, |s| measure(s, 26.0, Face::Bold));
    if let Some(s) = current.as_deref() {
        cv.text(s, w - 24.0 - right_w, 39.0, 26.0, Face::Bold, c.title_text);
    }
    let name: String = clean(req.player).chars().take(MAX_NAME_CHARS).collect();
    let variant: String = clean(req.variant).chars().take(MAX_NAME_CHARS).collect();
    let avail = w - 48.0 - right_w - 24.0;
    let variant_w = measure(&variant, 16.0, Face::Regular).min(avail * 0.45);
    let variant = fit(&variant, 16.0, Face::Regular, variant_w + 0.5);
    let name = fit(&name, 22.0, Face::Bold, avail - variant_w - 16.0);
    let nw = cv.text(&name, 24.0, 37.0, 22.0, Face::Bold, c.title_text);
    cv.text(&variant, 24.0 + nw + 14.0, 37.0, 16.0, Face::Regular, mix(c.title_text, c.title_bg, 0.35));

    let (left, right, top, bottom) = (72.0f32, w - 28.0, title_h + 26.0, h - 46.0);
    cv.fill_rounded_rect(left, top, right, bottom, 6.0, c.plot_bg);
    if pts.is_empty() {
        let msg = req.words.no_games.as_str();
        let mw = measure(msg, 18.0, Face::Regular);
        cv.text(msg, (left + right - mw) / 2.0, (top + bottom) / 2.0 + 6.0, 18.0, Face::Regular, c.muted);
        return cv.png();
    }

    // Rating range: the line plus a moderate part of the band, so one wide early band does not
    // flatten the rest.
    let lo = pts.iter().map(|p| p.rating - p.deviation.min(120.0)).fold(f64::INFINITY, f64::min);
    let hi = pts.iter().map(|p| p.rating + p.deviation.min(120.0)).fold(f64::NEG_INFINITY, f64::max);
    let step = nice_step((hi - lo).max(100.0), 5.0);
    let (y_lo, y_hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
    let y_of = |r: f64| bottom - ((r - y_lo) / (y_hi - y_lo)) as f32 * (bottom - top);

    // Time range, padded so the first and last dots are not on the frame.
    let (t0, t1) = (pts[0].at, pts[pts.len() - 1].at);
    let span = (t1 - t0).max(DAY) as f64;
    let (pad_l, pad_r) = (left + 14.0, right - 14.0);
    let x_of = |t: i64| {
        if t1 == t0 { (pad_l + pad_r) / 2.0 } else { pad_l + ((t - t0) as f64 / span) as f32 * (pad_r - pad_l) }
    };

    // Provisional stretch: from the first point until the deviation first falls to the threshold.
    let settled = pts.iter().position(|p| p.deviation <= req.provisional_above);
    let prov_end = match settled {
        Some(0) => None,
        Some(i) => Some((x_of(pts[i - 1].at) + x_of(pts[i].at)) / 2.0),
        None => Some(right),
    };
    if let Some(xe) = prov_end {
        cv.fill_rect(left, top, xe, bottom, c.provisional_bg);
        if xe - left > 90.0 {
            cv.text(&req.words.provisional, left + 8.0, top + 18.0, 12.0, Face::Regular, c.muted);
        }
    }

    // Horizontal gridlines and rating labels.
    let mut r = y_lo;
    while r <= y_hi + step * 0.01 {
        let y = y_of(r).round() + 0.5;
        cv.fill_rect(left, y - 0.5, right, y + 0.5, c.grid);
        let label = format!("{}", r.round() as i64);
        let lw = measure(&label, 13.0, Face::Regular);
        cv.text(&label, left - 10.0 - lw, y + ascent(13.0) / 2.0 - 1.0, 13.0, Face::Regular, c.muted);
        r += step;
    }

    // Date ticks at whole days, every 1, 2, 7, 14 … days, at most six.
    let with_year = t1 - t0 > 300 * DAY;
    let day_steps = [1, 2, 7, 14, 30, 61, 91, 182, 365, 730, 1826, 3652, 7305, 18_262, 36_525];
    let every = day_steps.into_iter().find(|d| (t1 - t0) / (d * DAY) <= 6).unwrap_or(36_525);
    let mut day = t0.div_euclid(DAY);
    if every >= 30 {
        // Start monthly steps at a first of the month.
        while civil(day).2 != 1 {
            day += 1;
        }
    }
    let mut last_label = String::new();
    let mut last_right = f32::NEG_INFINITY;
    for _ in 0..MAX_TICKS {
        if day * DAY > t1 {
            break;
        }
        let at = day * DAY;
        let x = if t1 == t0 { x_of(t0) } else { x_of(at.max(t0)) };
        let label = date_label(at, with_year, &req.words.months);
        let lw = measure(&label, 13.0, Face::Regular);
        if at >= t0 - DAY && label != last_label && x - lw / 2.0 > last_right + 8.0 {
            cv.fill_rect(x - 0.5, bottom, x + 0.5, bottom + 5.0, c.grid);
            cv.text(&label, x - lw / 2.0, bottom + 22.0, 13.0, Face::Regular, c.muted);
            last_right = x + lw / 2.0;
            last_label = label;
        }
        day += if every >= 30 {
            // Whole months: the first of the month after `every` days' worth of months.
            let months = (every / 30) as u32;
            let (y, m, _) = civil(day);
            let target_m = m - 1 + months;
            days_from_civil(y + i64::from(target_m / 12), target_m % 12 + 1, 1) - day
        } else {
            every
        };
    }

    // The deviation band, column by column, clipped to the plot.
    let band_spans: Vec<(f32, f32)> = (pad_l.floor() as i32..pad_r.ceil() as i32)
        .map(|x| {
            let xf = x as f32 + 0.5;
            let (rt, dv) = interpolate(&pts, xf, &x_of);
            (y_of(rt + dv).clamp(top, bottom), y_of(rt - dv).clamp(top, bottom))
        })
        .collect();
    if pts.len() > 1 {
        cv.fill_columns(pad_l.floor() as i32, &band_spans, with_alpha(c.accent, 40));
    } else {
        let p = pts[0];
        let x = x_of(p.at);
        cv.fill_rect(
            x - 10.0,
            y_of(p.rating + p.deviation).max(top),
            x + 10.0,
            y_of(p.rating - p.deviation).min(bottom),
            with_alpha(c.accent, 40),
        );
    }

    // The line: dashed while provisional.
    for pair in pts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ax, ay, bx, by) = (x_of(a.at), y_of(a.rating), x_of(b.at), y_of(b.rating));
        if b.deviation > req.provisional_above {
            cv.dashed_line((ax, ay), (bx, by), 2.2, 5.0, c.accent);
        } else {
            cv.line(ax, ay, bx, by, 2.6, c.accent);
        }
    }
    let dot = if pts.len() > 120 {
        0.0
    } else if pts.len() > 40 {
        2.6
    } else {
        4.0
    };
    if dot > 0.0 {
        for p in &pts {
            let (x, y) = (x_of(p.at), y_of(p.rating));
            cv.disc(x, y, dot + 1.6, c.plot_bg);
            if p.deviation > req.provisional_above {
                cv.disc(x, y, dot, c.accent);
                cv.disc(x, y, dot - 1.4, c.plot_bg);
            } else {
                cv.disc(x, y, dot, c.accent);
            }
        }
    }
    cv.png()
}

/// Days since 1970-01-01 of a date (inverse of [`civil`]).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Rating and deviation at screen x, interpolated between the neighbouring points.
fn interpolate(pts: &[ChartPoint], x: f32, x_of: &impl Fn(i64) -> f32) -> (f64, f64) {
    let i = pts.partition_point(|p| x_of(p.at) <= x);
    if i == 0 {
        return (pts[0].rating, pts[0].deviation);
    }
    if i == pts.len() {
        let p = pts[pts.len() - 1];
        return (p.rating, p.deviation);
    }
    let (a, b) = (pts[i - 1], pts[i]);
    let (xa, xb) = (x_of(a.at), x_of(b.at));
    let t = if xb > xa { f64::from((x - xa) / (xb - xa)) } else { 1.0 };
    (a.rating + (b.rating - a.rating) * t, a.deviation + (b.deviation - a.deviation) * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_round_trips() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(19_723), (2024, 1, 1));
        assert_eq!(civil(19_782), (2024, 2, 29));
        for d in [-800_000, -1, 0, 59, 60, 365, 11_016, 19_782, 2_932_896] {
            let (y, m, dd) = civil(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
        let months = super::super::PictureWords::default().months;
        assert_eq!(date_label(1_709_164_800, false, &months), "29 Feb");
        assert_eq!(date_label(1_709_164_800, true, &months), "Feb 2024");
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(500.0, 5.0), 100.0);
        assert_eq!(nice_step(230.0, 5.0), 50.0);
        assert_eq!(nice_step(120.0, 5.0), 25.0);
    }

    #[test]
    fn degenerate_inputs_still_draw() {
        let one = [ChartPoint { at: 0, rating: 1500.0, deviation: 500.0 }];
        let weird = [
            ChartPoint { at: 5, rating: f64::NAN, deviation: 1.0 },
            ChartPoint { at: 5, rating: 1e300, deviation: f64::INFINITY },
            ChartPoint { at: i64::MAX / 2, rating: 1400.0, deviation: 50.0 },
            ChartPoint { at: -1_000_000_000, rating: 1600.0, deviation: 60.0 },
        ];
        let many: Vec<ChartPoint> =
            (0..5000).map(|i| ChartPoint { at: i * 3600, rating: 1500.0 + (i % 50) as f64, deviation: 60.0 }).collect();
        for points in [&[][..], &one[..], &weird[..], &many[..]] {
            let req = ChartRequest {
                player: &"x".repeat(10_000),
                variant: "chess",
                points,
                provisional_above: 110.0,
                theme: Theme::Wood,
                words: &Default::default(),
            };
            let png = render_chart(&req);
            assert_eq!(&png[1..4], b"PNG");
        }
    }
}

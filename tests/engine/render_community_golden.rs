//! Golden-image tests for the community pictures: rating charts and leaderboard cards, with names in
//! Turkish, Cyrillic and Chinese and a name too long for its column. Each case is compared pixel by
//! pixel (with a small tolerance for anti-aliasing) against a committed PNG in `tests/golden/`.
//!
//! After an intentional change to the fonts, colours or layout, look at the new pictures and
//! regenerate them:
//!
//! ```text
//! CAPABOT_BLESS=1 cargo test --test engine render_community_golden::
//! ```
//!
//! On a mismatch the rendered picture is written to `target/golden-failures/` for comparison.

use capabot::render::card::{CardRequest, CardRow, render_card};
use capabot::render::chart::{ChartPoint, ChartRequest, render_chart};
use capabot::render::{PictureWords, Theme};

use crate::golden_check::check;

/// 2024-03-01 00:00 UTC.
const MARCH_2024: i64 = 1_709_251_200;
const DAY: i64 = 86_400;
/// The rating module's provisional threshold.
const PROVISIONAL: f64 = capabot::community::rating::PROVISIONAL_DEVIATION;

/// A made-up career: a provisional start with a wide band narrowing over the first games, then a
/// slow climb with ups and downs, with gaps of a few days.
fn career(games: usize) -> Vec<ChartPoint> {
    let mut out = Vec::new();
    let (mut at, mut rating, mut deviation) = (MARCH_2024, 1500.0, 500.0);
    for i in 0..games {
        at += DAY * (1 + (i as i64 * 7) % 4);
        let swing = [38.0, -22.0, 15.0, 27.0, -31.0, 12.0, -8.0, 21.0][i % 8];
        rating += swing * (deviation / 120.0f64).clamp(0.5, 3.0);
        deviation = (deviation * 0.82).max(62.0);
        out.push(ChartPoint { at, rating, deviation });
    }
    out
}

#[test]
fn rating_charts() {
    let english = PictureWords::default();
    let points = career(36);
    let cases: [(&str, &str, &str, &[ChartPoint], Theme); 4] = [
        ("chart-turkish", "Işıl Çağlar", "Capatomic Random Chess", &points, Theme::Wood),
        ("chart-cyrillic", "Дмитрий", "atomic", &points[..12], Theme::Green),
        ("chart-cjk", "王小明", "chess", &points[..2], Theme::Contrast),
        (
            "chart-long-name",
            "Bartholomew Maximilian Montgomery-Fitzwilliam the Third of Westershire",
            "Capablanca Random",
            &points,
            Theme::Wood,
        ),
    ];
    for (name, player, variant, points, theme) in cases {
        let req = ChartRequest { player, variant, points, provisional_above: PROVISIONAL, theme, words: &english };
        check(name, &render_chart(&req));
    }
    let empty = ChartRequest {
        player: "newcomer",
        variant: "chess",
        points: &[],
        provisional_above: PROVISIONAL,
        theme: Theme::Wood,
        words: &english,
    };
    check("chart-empty", &render_chart(&empty));
}

fn row(place: u32, name: &str, rating: f64, games: u32) -> CardRow {
    CardRow {
        place: Some(place),
        name: name.into(),
        rating,
        provisional: false,
        games,
        wins: games / 2,
        draws: games / 5,
        losses: games - games / 2 - games / 5,
        is_me: false,
    }
}

fn top_ten() -> Vec<CardRow> {
    let names = [
        "Işıl Çağlar",
        "Дмитрий",
        "王小明",
        "Bartholomew Maximilian Montgomery-Fitzwilliam the Third",
        "alice",
        "Zoë",
        "bob",
        "Αλέξανδρος",
        "carol",
        "Søren",
    ];
    names.iter().enumerate().map(|(i, n)| row(i as u32 + 1, n, 2012.0 - 37.0 * i as f64, 80 - 6 * i as u32)).collect()
}

#[test]
fn leaderboard_cards() {
    let english = PictureWords::default();
    let top = top_ten();
    let provisional = [
        CardRow { place: None, provisional: true, ..row(0, "Małgorzata", 1623.0, 4) },
        CardRow { place: None, provisional: true, ..row(0, "田中", 1431.0, 2) },
    ];
    let me_far = CardRow { is_me: true, ..row(37, "Дмитрий Иванов", 1388.0, 15) };
    let card = CardRequest {
        title: "Capatomic leaderboard",
        subtitle: "Chess Club Istanbul · discord",
        rows: &top,
        provisional: &provisional,
        me: Some(&me_far),
        theme: Theme::Wood,
        words: &english,
    };
    check("card-me-below", &render_card(&card));

    let mut mine = top.clone();
    mine[2].is_me = true;
    let inside =
        CardRequest { rows: &mine, provisional: &[], me: Some(&mine[2]), theme: Theme::Contrast, ..card.clone() };
    check("card-me-inside", &render_card(&inside));

    let empty = CardRequest { rows: &[], provisional: &provisional[..1], me: None, theme: Theme::Green, ..card };
    check("card-only-provisional", &render_card(&empty));
}

/// Median time of a few chart renders, printed (run with `--nocapture` to see it).
#[test]
fn chart_render_time() {
    let english = PictureWords::default();
    let points = career(200);
    let req = ChartRequest {
        player: "Işıl Çağlar",
        variant: "chess",
        points: &points,
        provisional_above: PROVISIONAL,
        theme: Theme::Wood,
        words: &english,
    };
    let mut times: Vec<std::time::Duration> = (0..5)
        .map(|_| {
            let t = std::time::Instant::now();
            let png = render_chart(&req);
            assert!(!png.is_empty());
            t.elapsed()
        })
        .collect();
    times.sort();
    println!("chart render (200 points): median {:?} of {times:?}", times[2]);
}

//! Golden-image tests for the analysis pictures: a game's course chart (a made-up course with
//! marks of all three kinds, a Turkish legend and a long name) and a board with the two arrows of a
//! turning point, seen from each side. Compared pixel by pixel (with a small tolerance for
//! anti-aliasing) against committed PNGs in `tests/golden/`; after an intentional change:
//!
//! ```text
//! CAPABOT_BLESS=1 cargo test --test engine render_analysis_golden::
//! ```

use capabot::render::arrows::{Arrow, ArrowKind, render_with_arrows};
use capabot::render::course::{CourseMark, CourseRequest, CourseWords, Severity, render_course};
use capabot::render::{RenderOptions, Theme};
use capabot::rules::{Color, Position, Square, variant};

use crate::golden_check::check;

/// A made-up course of 61 positions: an even opening, a slow White edge, a blunder that hands
/// Black the game, a comeback and a final collapse.
fn course() -> Vec<f64> {
    (0..61)
        .map(|i| match i {
            0..=12 => 50.0 + (i as f64 * 0.7).sin() * 4.0,
            13..=24 => 52.0 + (i - 12) as f64 * 2.2,
            25..=33 => 22.0 + (i - 25) as f64 * 1.5,
            34..=50 => 40.0 + (i - 34) as f64 * 2.5,
            _ => 4.0,
        })
        .collect()
}

#[test]
fn course_charts() {
    let chances = course();
    let marks = [
        CourseMark { ply: 11, severity: Severity::Inaccuracy },
        CourseMark { ply: 24, severity: Severity::Blunder },
        CourseMark { ply: 38, severity: Severity::Mistake },
        CourseMark { ply: 50, severity: Severity::Blunder },
    ];
    let english = CourseWords::default();
    let req = CourseRequest {
        white: "alice",
        black: "bob",
        variant: "Capatomic Random Chess",
        result: "0-1",
        chances: &chances,
        marks: &marks,
        theme: Theme::Wood,
        words: &english,
    };
    check("course-wood", &render_course(&req));
    let turkish = CourseWords { inaccuracy: "kusur".into(), mistake: "hata".into(), blunder: "büyük hata".into() };
    let req = CourseRequest {
        white: "Bartholomew Maximilian Montgomery-Fitzwilliam the Third",
        black: "Işıl Çağlar",
        variant: "Chess",
        result: "½-½",
        chances: &chances[..9],
        marks: &[CourseMark { ply: 4, severity: Severity::Mistake }],
        theme: Theme::Contrast,
        words: &turkish,
    };
    check("course-short-turkish", &render_course(&req));
}

#[test]
fn turning_point_arrows() {
    let sq = |s: &str| Square::parse(s).expect("square");
    let pos = Position::start(&variant::CHESS);
    let arrows = [
        Arrow { from: sq("f2"), to: sq("f3"), kind: ArrowKind::Played },
        Arrow { from: sq("g1"), to: sq("f3"), kind: ArrowKind::Better },
    ];
    let opts = RenderOptions { size: 400, ..RenderOptions::default() };
    check("arrows-white", &render_with_arrows(&pos, &opts, &arrows));
    let opts =
        RenderOptions { size: 400, orientation: Color::Black, theme: Theme::Contrast, ..RenderOptions::default() };
    check("arrows-black-contrast", &render_with_arrows(&pos, &opts, &arrows));
}

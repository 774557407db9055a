//! Golden-image tests for the board renderer: each case renders a position and compares it pixel by pixel
//! (with a small tolerance for anti-aliasing) against a committed PNG in `tests/golden/`.
//!
//! After an intentional change to the artwork, colours or layout, look at the new pictures and regenerate:
//!
//! ```text
//! CAPABOT_BLESS=1 cargo test --release --test engine render_golden::
//! ```
//!
//! On a mismatch the rendered picture is written to `target/golden-failures/` for comparison.

use capabot::notation::{fen, parse_move};
use capabot::render::{RenderOptions, Theme, render};
use capabot::rules::{Color, Move, MoveKind, Position, Square, Variant};

use crate::golden_check::check;

/// The Capatomic mid-game: radiation on c4, h4 (earlier launches); White launches e1 at d6, clearing d7 and
/// opening the b5–f9 diagonal: Black is in check, the blast area and origin are tinted, shields and Black's
/// launch-ready missile are shown, with a title strip.
const MIDGAME_FEN: &str = "6m3/r2b1k1c1r/pp3ppp1p/3n2a3/4p3q1/1B2P2N2/2*4*2/PP1P1PPAPP/R1BQCK3R/4M1M3 w - - 0 20 - +";

fn start(name: &str) -> Position {
    Position::start(Variant::by_name(name).expect("variant"))
}

#[test]
fn start_positions_of_every_variant() {
    let cases = [
        ("chess", Theme::Wood, Color::White),
        ("atomic", Theme::Contrast, Color::Black),
        ("capablanca", Theme::Green, Color::White),
        ("caparandom", Theme::Wood, Color::Black),
        ("caparelocation", Theme::Contrast, Color::White),
        ("stones", Theme::Wood, Color::White),
        ("capatomic", Theme::Wood, Color::White),
    ];
    for (variant, theme, orientation) in cases {
        let pos = start(variant);
        let opts = RenderOptions { size: 400, theme, orientation, ..RenderOptions::default() };
        check(&format!("start-{variant}"), &render(&pos, &opts));
    }
}

#[test]
fn chess_check_and_last_move() {
    let mut pos = start("chess");
    let mut last = None;
    for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7"] {
        let mv = parse_move(&pos, m).expect("legal");
        pos = pos.play(mv);
        last = Some(mv);
    }
    assert!(pos.is_check());
    let opts = RenderOptions { size: 400, last_move: last, ..RenderOptions::for_position(&pos) };
    check("chess-scholars-mate", &render(&pos, &opts));
}

#[test]
fn capatomic_midgame_with_radiation_shields_check_and_launch() {
    let before = fen::parse_position(Variant::by_name("capatomic").expect("variant"), MIDGAME_FEN).expect("FEN");
    let launch = Move { from: Square::parse("e1").unwrap(), to: Square::parse("d6").unwrap(), kind: MoveKind::Launch };
    assert!(before.is_legal(launch));
    let pos = before.play(launch);
    assert!(pos.is_check() && pos.irradiated().contains(Square::parse("d6").unwrap()));
    let opts = RenderOptions {
        size: 600,
        last_move: Some(launch),
        show_launch_ready: true,
        title: Some("Alice vs Bob · Capatomic Random Chess · move 20".into()),
        ..RenderOptions::for_position(&pos)
    };
    check("capatomic-midgame", &render(&pos, &opts));
    let white_view = RenderOptions { orientation: Color::White, theme: Theme::Contrast, title: None, ..opts };
    check("capatomic-midgame-contrast", &render(&pos, &white_view));
}

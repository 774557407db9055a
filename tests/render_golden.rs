//! Golden-image tests for the board renderer: each case renders a position and compares it pixel by pixel
//! (with a small tolerance for anti-aliasing) against a committed PNG in `tests/golden/`.
//!
//! After an intentional change to the artwork, colours or layout, look at the new pictures and regenerate:
//!
//! ```text
//! CAPABOT_BLESS=1 cargo test --release --test render_golden
//! ```
//!
//! On a mismatch the rendered picture is written to `target/golden-failures/` for comparison.

use capabot::notation::{fen, parse_move};
use capabot::render::{RenderOptions, Theme, render};
use capabot::rules::{Color, Move, MoveKind, Position, Square, Variant};
use std::path::PathBuf;

/// A pixel counts as different when a channel differs by more than this.
const CHANNEL_TOLERANCE: u8 = 12;
/// At most this fraction of pixels may differ.
const MAX_DIFFERENT: f64 = 0.002;

/// The Capatomic mid-game: radiation on c4, h4 (earlier launches); White launches e1 at d6, clearing d7 and
/// opening the b5–f9 diagonal: Black is in check, the blast area and origin are tinted, shields and Black's
/// launch-ready missile are shown, with a title strip.
const MIDGAME_FEN: &str = "6m3/r2b1k1c1r/pp3ppp1p/3n2a3/4p3q1/1B2P2N2/2*4*2/PP1P1PPAPP/R1BQCK3R/4M1M3 w - - 0 20 - +";

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Decodes a PNG to RGB(A) bytes with its width and height.
fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>, usize) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    (info.width, info.height, buf, channels)
}

fn check(name: &str, png: &[u8]) {
    let path = golden_dir().join(format!("{name}.png"));
    if std::env::var_os("CAPABOT_BLESS").is_some() {
        std::fs::write(&path, png).expect("write golden");
        return;
    }
    let expected = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run with CAPABOT_BLESS=1 to create it", path.display()));
    let (ew, eh, epx, ec) = decode(&expected);
    let (aw, ah, apx, ac) = decode(png);
    let fail = |why: String| {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/golden-failures");
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(dir.join(format!("{name}.png")), png);
        panic!("{name}: {why}; actual picture in target/golden-failures/{name}.png");
    };
    if (ew, eh) != (aw, ah) {
        fail(format!("size {aw}x{ah}, golden {ew}x{eh}"));
    }
    let different = epx
        .chunks(ec)
        .zip(apx.chunks(ac))
        .filter(|(e, a)| (0..3).any(|i| e[i].abs_diff(a[i]) > CHANNEL_TOLERANCE))
        .count();
    let total = (ew * eh) as usize;
    if different as f64 > MAX_DIFFERENT * total as f64 {
        fail(format!("{different} of {total} pixels differ"));
    }
}

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

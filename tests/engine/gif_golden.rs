//! The animated game against the still pictures: a Capatomic game with launches, radiation, shields
//! and checks, and an atomic game with explosions, are animated, the GIF is decoded and its frames composited as a viewer does
//! (each frame drawn over the last, its transparent pixels keeping what was there), and chosen
//! frames' board area is compared with the still picture of the same position, drawn independently
//! by `render` with the same size, orientation, theme and last move.
//!
//! The comparison is exact, colour for colour: the animation uses the still pictures' global
//! palette and the same cached square tiles, so nothing is requantized and any difference is a bug
//! (a wrong last move, a square not redrawn, a bad transparent index, a rectangle off by a pixel).

use capabot::render::gif::{GifRequest, gif_layout, render_gif};
use capabot::render::{RenderOptions, Theme, render};
use capabot::rules::{Color, Game, MoveKind, Position, Variant};

const SIZE: u32 = 480;

/// Plays a game that launches missiles (every third ply it can) and captures whenever it can (so
/// that blasts, explosions and radiation show), otherwise a varied quiet move, until it ends or
/// `plies`.
fn eventful(variant: &str, plies: usize) -> Game {
    let v = Variant::by_name(variant).expect("variant");
    let mut game = Game::new(Position::start(v));
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = game.position().clone();
        let moves = pos.legal_moves();
        let pick = moves
            .iter()
            .find(|m| m.kind == MoveKind::Launch && ply % 3 == 0)
            .or_else(|| moves.iter().find(|m| pos.is_capture(**m)))
            .or_else(|| moves.get((ply * 7 + 3) % moves.len().max(1)));
        let Some(&m) = pick else { break };
        assert!(game.play(m));
    }
    game
}

/// Every frame of a GIF composited to RGB: (width, height, frames).
fn composite(bytes: &[u8]) -> (usize, usize, Vec<Vec<u8>>) {
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(bytes).expect("a GIF");
    let (w, h) = (usize::from(d.width()), usize::from(d.height()));
    let global = d.global_palette().expect("one global palette").to_vec();
    let mut canvas = vec![0u8; w * h * 3];
    let mut frames = Vec::new();
    while let Some(f) = d.read_next_frame().expect("frame decodes") {
        assert!(f.palette.is_none(), "no frame has a palette of its own");
        assert_eq!(f.dispose, gif::DisposalMethod::Keep);
        let (l, t, fw) = (usize::from(f.left), usize::from(f.top), usize::from(f.width));
        for (i, &idx) in f.buffer.iter().enumerate() {
            if f.transparent == Some(idx) {
                continue;
            }
            let (x, y) = (l + i % fw, t + i / fw);
            let at = (y * w + x) * 3;
            canvas[at..at + 3].copy_from_slice(&global[usize::from(idx) * 3..usize::from(idx) * 3 + 3]);
        }
        frames.push(canvas.clone());
    }
    (w, h, frames)
}

#[test]
fn chosen_frames_are_the_still_pictures() {
    // The frames worth checking: the start, the first launch, the first ply with radiation, the
    // first check, and the last; in atomic, the first capture that took more than the captured
    // piece (an explosion).
    let game = eventful("capatomic", 80);
    let (moves, positions) = (game.moves(), game.positions());
    let launch = moves.iter().position(|m| m.kind == MoveKind::Launch).map(|i| i + 1).expect("a launch");
    let radiation = (1..positions.len()).find(|&i| positions[i].irradiated().count() > 0).expect("radiation");
    let check = (1..positions.len()).find(|&i| positions[i].is_check()).expect("a check");
    assert_same_as_stills(&game, &[0, launch, radiation, check, moves.len()]);

    let game = eventful("atomic", 60);
    let (moves, positions) = (game.moves(), game.positions());
    let count = |p: &Position| p.occupied().count();
    let explosion =
        (1..positions.len()).find(|&i| count(&positions[i - 1]) >= count(&positions[i]) + 2).expect("an explosion");
    assert_same_as_stills(&game, &[0, explosion, moves.len()]);
}

/// Animates `game` seen from each side and compares the frames `chosen` with the still pictures.
fn assert_same_as_stills(game: &Game, chosen: &[usize]) {
    let (moves, positions) = (game.moves(), game.positions());
    for orientation in [Color::White, Color::Black] {
        let req = GifRequest {
            game,
            white: "Işıl Çağlar",
            black: "bob",
            result: Some("1-0 · king exploded"),
            orientation,
            size: SIZE,
            theme: Theme::Wood,
        };
        let bytes = render_gif(&req).expect("animates");
        let (w, h, frames) = composite(&bytes);
        assert_eq!(frames.len(), moves.len() + 1, "one frame per ply and the start");
        let gl = gif_layout(&req);
        assert_eq!((w, h), (gl.width() as usize, gl.height() as usize));
        let strip = gl.strip as usize;
        for &ply in chosen {
            let opts = RenderOptions {
                size: SIZE,
                orientation,
                theme: Theme::Wood,
                last_move: ply.checked_sub(1).map(|i| moves[i]),
                show_launch_ready: false,
                title: None,
                coordinates: true,
                show_bomb_of: None,
            };
            let (sw, sh, still, _) = crate::golden_check::decode(&render(&positions[ply], &opts));
            let (sw, sh) = (sw as usize, sh as usize);
            assert_eq!((sw, sh + 2 * strip), (w, h), "frame {ply}: the board between two strips");
            let board = &frames[ply][strip * w * 3..(strip + sh) * w * 3];
            let differing = board.chunks(3).zip(still.chunks(3)).filter(|(a, b)| a != b).count();
            assert_eq!(differing, 0, "frame {ply} ({orientation:?}): {differing} pixels differ from the still picture");
        }
        // The strips stay until the last frame, where the result is written in the top one.
        let top = |f: &Vec<u8>| f[..strip * w * 3].to_vec();
        assert!(frames[..frames.len() - 1].iter().all(|f| top(f) == top(&frames[0])));
        assert_ne!(top(frames.last().unwrap()), top(&frames[0]), "the result is written on the last frame");
    }
}

#[test]
fn frames_after_the_first_are_small_rectangles() {
    let game = eventful("capatomic", 60);
    let req = GifRequest {
        game: &game,
        white: "alice",
        black: "bob",
        result: None,
        orientation: Color::White,
        size: SIZE,
        theme: Theme::Green,
    };
    let bytes = render_gif(&req).expect("animates");
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(bytes.as_slice()).unwrap();
    let whole = usize::from(d.width()) * usize::from(d.height());
    let mut areas = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        areas.push(usize::from(f.width) * usize::from(f.height));
    }
    assert_eq!(areas[0], whole);
    areas.remove(0);
    areas.sort_unstable();
    // A typical ply redraws the squares between the last two moves, not the whole picture.
    assert!(areas[areas.len() / 2] * 2 < whole, "median changed area {} of {whole}", areas[areas.len() / 2]);
}

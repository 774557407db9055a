//! The console binary and animated games: after a whole game, `gif` writes a `.gif` file that decodes
//! as an animation with one frame per ply plus the start; with `settings gif:on` the animation comes
//! by itself when a game ends.

use std::path::{Path, PathBuf};

use crate::common::console_script as console;

/// The `.gif` files the console reported writing, in order.
fn animations(dir: &Path, text: &str) -> Vec<PathBuf> {
    text.lines().filter_map(|l| l.trim().strip_prefix("animation: ")).map(|p| dir.join(p)).collect()
}

/// (width, height, frame count, delays) of a GIF file.
fn gif_frames(path: &Path) -> (u16, u16, usize, Vec<u16>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::Indexed);
    let mut d = opts.read_info(bytes.as_slice()).unwrap();
    let (w, h) = (d.width(), d.height());
    let mut delays = Vec::new();
    while let Some(f) = d.read_next_frame().unwrap() {
        delays.push(f.delay);
    }
    (w, h, delays.len(), delays)
}

const FOOLS_MATE: &str = "alice> !challenge @bob chess color:white\nbob> !accept\n\
                          alice> f3\nbob> e5\nalice> g4\nbob> Qh4#\n";

#[test]
fn gif_after_a_whole_game_has_a_frame_per_ply_and_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let text = console(dir.path(), &format!("{FOOLS_MATE}alice> !gif\nbob> !replay #1\nalice> !gif #99\n"));
    assert!(text.contains("bob wins by checkmate"), "{text}");
    // No animation at the end by default: only the two asked for.
    let files = animations(dir.path(), &text);
    assert_eq!(files.len(), 2, "{text}");
    for f in &files {
        assert_eq!(f.extension().and_then(|e| e.to_str()), Some("gif"));
        let (w, h, frames, delays) = gif_frames(f);
        assert_eq!(frames, 4 + 1, "four plies and the start");
        assert!(w >= 600 && h > w, "{w}x{h}: the board with a strip above and below");
        assert!(delays[0] > delays[1] && delays[4] > delays[1], "{delays:?}");
    }
    assert!(text.contains("0-1 · checkmate"), "{text}");
    assert!(text.contains("There is no game #99"), "{text}");
}

#[test]
fn the_setting_posts_the_animation_when_a_game_ends() {
    let dir = tempfile::tempdir().unwrap();
    let text = console(dir.path(), &format!("alice> !settings gif:on\n{FOOLS_MATE}alice> !settings\n"));
    assert!(text.contains("animation at the end on"), "{text}");
    let files = animations(dir.path(), &text);
    assert_eq!(files.len(), 1, "{text}");
    assert_eq!(gif_frames(&files[0]).2, 5);
    // Turned off again: a resignation brings no animation.
    let text = console(
        dir.path(),
        "alice> !settings gif:off\nalice> !challenge @bob chess color:white\nbob> !accept\nalice> e4\nbob> e5\n\
         alice> !resign\n",
    );
    assert!(text.contains("wins by resignation"), "{text}");
    assert!(animations(dir.path(), &text).is_empty(), "{text}");
}

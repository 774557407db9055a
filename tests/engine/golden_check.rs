//! Golden-image comparison shared by the picture tests: a rendered PNG is compared pixel by pixel, with a small
//! tolerance for anti-aliasing, against a committed PNG in `tests/golden/`. `CAPABOT_BLESS=1` writes the rendered
//! pictures instead; a mismatch writes the actual picture to `target/golden-failures/`.

use std::path::PathBuf;

/// A pixel counts as different when a channel differs by more than this.
const CHANNEL_TOLERANCE: u8 = 12;
/// At most this fraction of pixels may differ.
const MAX_DIFFERENT: f64 = 0.002;

/// Where the golden pictures live.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Decodes a PNG to RGB(A) bytes with its width and height.
#[path = "../common/png_pixels.rs"]
mod png_pixels;
pub use png_pixels::decode;

/// Compares `png` with the golden picture `name` (or writes it when blessing).
pub fn check(name: &str, png: &[u8]) {
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

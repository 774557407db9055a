//! PNG encoding of an indexed image, tuned for speed: fdeflate's fast mode with the Paeth filter on every
//! row (it turns the board's flat squares and repeated rows into runs of zeros, which fdeflate codes well).
//! Measured at 800 px (`lab bench-render`, render and encode, 2026-11-25): adaptive filtering (each row's
//! best of five) 0.365 ms and 51.6 KB for Capatomic's start; Paeth alone 0.264 ms and 52.7 KB; Up alone
//! 0.19 ms but 73.5 KB. Paeth keeps the size and drops the time spent trying every filter on every row.
//!
//! Board pictures no longer come through here but through [`super::bands`], a rank at a time;
//! [`indexed_png`] still encodes the whole frame for [`super::render_whole`] (the reference the tests and
//! benchmarks compare with) and for other indexed pictures.

/// Encodes `pixels` (one palette index per pixel, row by row) as an 8-bit indexed PNG.
pub fn indexed_png(width: u32, height: u32, palette: &[u8], pixels: &[u8]) -> Vec<u8> {
    // A board at 640 px compresses to a ninth to a tenth of its indices: room for it at once.
    encode(width, height, pixels, pixels.len() / 8, |enc| {
        enc.set_color(png::ColorType::Indexed);
        enc.set_palette(palette);
        enc.set_filter(png::Filter::Paeth);
    })
}

/// Encodes `rgb` (three bytes a pixel, row by row) as an 8-bit RGB PNG: the community pictures
/// (charts, cards, the course of a game), whose anti-aliased text and curves have too many colours
/// for a palette. Each row gets the best of the five filters.
pub fn rgb_png(width: u32, height: u32, rgb: &[u8]) -> Vec<u8> {
    encode(width, height, rgb, rgb.len() / 8, |enc| {
        enc.set_color(png::ColorType::Rgb);
        enc.set_filter(png::Filter::Adaptive);
    })
}

/// An 8-bit PNG of `data` in fdeflate's fast mode, with the colour type, palette and filter set by `set_up`.
fn encode<'p>(
    width: u32,
    height: u32,
    data: &[u8],
    expected: usize,
    set_up: impl for<'o> FnOnce(&mut png::Encoder<'p, &'o mut Vec<u8>>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(expected + 1024);
    let result = (|| -> Result<(), png::EncodingError> {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Fast);
        set_up(&mut enc);
        let mut writer = enc.write_header()?;
        writer.write_image_data(data)?;
        writer.finish()
    })();
    // Sizes and buffer lengths are ours and consistent, so encoding into memory cannot fail; an empty result
    // would show up in every test.
    debug_assert!(result.is_ok(), "{result:?}");
    if result.is_err() { Vec::new() } else { out }
}

/// Decodes a PNG of any colour type and depth to RGB (three bytes a pixel, alpha dropped, grey
/// repeated): `(width, height, pixels)`, or `None` for bytes that are not a PNG we can read.
pub fn decode_rgb(bytes: &[u8]) -> Option<(u32, u32, Vec<u8>)> {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes));
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = dec.read_info().ok()?;
    let mut buf = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut buf).ok()?;
    buf.truncate(info.buffer_size());
    let rgb = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0]]).collect(),
        // EXPAND turns a palette into RGB or RGBA.
        png::ColorType::Indexed => return None,
    };
    Some((info.width, info.height, rgb))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let palette = [0, 0, 0, 255, 255, 255];
        let pixels: Vec<u8> = (0..12).map(|i| (i % 2) as u8).collect();
        let bytes = indexed_png(4, 3, &palette, &pixels);
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
        let mut buf = vec![0; dec.output_buffer_size().unwrap()];
        let info = dec.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height, info.color_type), (4, 3, png::ColorType::Indexed));
        assert_eq!(&buf[..12], &pixels[..]);
    }

    #[test]
    fn rgb_round_trip_and_an_indexed_picture_read_as_rgb() {
        let rgb: Vec<u8> = (0..4 * 3 * 3).map(|i| (i * 7) as u8).collect();
        assert_eq!(decode_rgb(&rgb_png(4, 3, &rgb)), Some((4, 3, rgb)));
        let palette = [10, 20, 30, 200, 210, 220];
        let indexed = indexed_png(2, 1, &palette, &[1, 0]);
        assert_eq!(decode_rgb(&indexed), Some((2, 1, vec![200, 210, 220, 10, 20, 30])));
        assert_eq!(decode_rgb(b"not a picture"), None);
        assert_eq!(decode_rgb(&indexed[..indexed.len() / 2]), None);
    }
}

//! Decoding a PNG to the pixels people see, shared by the test binaries (`tests/common` includes it,
//! and the engine binary's `golden_check` by path).

/// A PNG's width, height, pixels (RGB or RGBA, palettes expanded) and channels a pixel.
pub fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>, usize) {
    let mut dec = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()));
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    buf.truncate(info.buffer_size());
    let channels = info.color_type.samples();
    (info.width, info.height, buf, channels)
}

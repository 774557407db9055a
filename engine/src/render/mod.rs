//! Board pictures for chat: [`render`] turns a position into PNG bytes, for every board size the engine knows
//! (8×8, 10×8, 10×10), with coordinates, the last move, check, and Capatomic's radiation, king shields and
//! launch-ready missiles.
//!
//! Modelled on lila-gif: the artwork is hand-drawn SVG embedded at build time ([`assets`]), rasterised with
//! resvg once per square size; every distinct square look (colour, tints, markers, piece, label) is composed
//! once into a tile of palette indices and cached ([`cache`]); a render then only decides each square's look,
//! copies tiles into an indexed frame and encodes it ([`encode`]). Themes are data ([`theme`]).

pub mod arrows;
pub mod assets;
pub mod bands;
pub mod cache;
pub mod card;
pub mod chart;
pub mod course;
pub mod deflate;
pub mod encode;
pub mod gif;
pub mod glyphs;
pub mod options;
pub mod palette;
pub mod raster;
pub mod text;
pub mod theme;

pub use gif::{GifError, GifRequest, render_gif};
pub use options::{MAX_SIZE, MIN_SIZE, RenderOptions};
pub use theme::Theme;

/// The words drawn on the rating pictures (leaderboard card, rating chart), in their reader's
/// language; [`Default`] is English. The bot fills them from its catalogues.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PictureWords {
    /// Column titles of the card (drawn as given; English uses capitals).
    pub player: String,
    pub rating: String,
    pub games: String,
    pub record: String,
    /// The card's line when nobody is established yet.
    pub no_established: String,
    /// The card's section title of provisional players.
    pub provisional_section: String,
    /// The chart's text when there are no games.
    pub no_games: String,
    /// The chart's label of its provisional stretch.
    pub provisional: String,
    /// Short month names, January first.
    pub months: [String; 12],
}

impl Default for PictureWords {
    fn default() -> Self {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        PictureWords {
            player: "PLAYER".into(),
            rating: "RATING".into(),
            games: "GAMES".into(),
            record: "W / D / L".into(),
            no_established: "No established ratings yet".into(),
            provisional_section: "Provisional".into(),
            no_games: "No rated games yet".into(),
            provisional: "provisional".into(),
            months: months.map(String::from),
        }
    }
}

use crate::rules::{Color, MoveKind, Position, Square};
use raster::{EDGE_BOTTOM, EDGE_LEFT, EDGE_RIGHT, EDGE_TOP, IN_SHIELD, TileKey, Tint};

/// Pixel geometry of one picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Board width and height in squares.
    pub files: u32,
    pub ranks: u32,
    /// Square side in pixels.
    pub square: u32,
    /// Height of the title strip above the board (0 without a title).
    pub title_height: u32,
}

impl Layout {
    /// The layout `render` uses for this position and these options.
    pub fn new(pos: &Position, opts: &RenderOptions) -> Layout {
        let v = pos.variant();
        let (files, ranks) = (u32::from(v.width).max(1), u32::from(v.height).max(1));
        let square = opts.clamped_size() / files.max(ranks);
        let title_height = if title_text(opts).is_some() { (square * 11 / 20).max(22) } else { 0 };
        Layout { files, ranks, square, title_height }
    }

    /// Picture width in pixels.
    pub fn width(&self) -> u32 {
        self.files * self.square
    }

    /// Picture height in pixels (board plus title strip).
    pub fn height(&self) -> u32 {
        self.ranks * self.square + self.title_height
    }

    /// The square shown at screen column `col` (from the left) and row `row` (from the top).
    pub fn square_at(&self, orientation: Color, col: u32, row: u32) -> Square {
        let (f, r) = match orientation {
            Color::White => (col, self.ranks - 1 - row),
            Color::Black => (self.files - 1 - col, row),
        };
        Square::new(f as u8, r as u8)
    }
}

/// The title to draw, cleaned: control characters dropped, at most [`options::MAX_TITLE_CHARS`] characters.
fn title_text(opts: &RenderOptions) -> Option<String> {
    let t: String = opts.title.as_deref()?.chars().filter(|c| !c.is_control()).take(options::MAX_TITLE_CHARS).collect();
    let t = t.trim().to_string();
    (!t.is_empty()).then_some(t)
}

/// How each square looks, in screen order (row by row from the top left).
pub fn tile_keys(pos: &Position, opts: &RenderOptions, layout: &Layout) -> Vec<TileKey> {
    let (w, h) = (layout.files as i32, layout.ranks as i32);
    let on_board = |f: i32, r: i32| (0..w).contains(&f) && (0..h).contains(&r);
    let near = |a: Square, f: i32, r: i32| (i32::from(a.file()) - f).abs() <= 1 && (i32::from(a.rank()) - r).abs() <= 1;
    let check_king = if pos.is_check() { pos.king(pos.turn()) } else { None };
    let kings: [Option<Square>; 2] =
        if pos.variant().missiles { [pos.king(Color::White), pos.king(Color::Black)] } else { [None, None] };
    let launch_ready = if opts.show_launch_ready { pos.launch_ready_missiles() } else { Default::default() };
    let own_bomb = opts.show_bomb_of.and_then(|c| pos.bomb(c));
    let irradiated = pos.irradiated();
    // Screen steps: (file, rank) change when moving one square up/right/down/left on screen.
    let dir: i32 = if opts.orientation == Color::White { 1 } else { -1 };
    let screen_edges = [(EDGE_TOP, 0, dir), (EDGE_RIGHT, dir, 0), (EDGE_BOTTOM, 0, -dir), (EDGE_LEFT, -dir, 0)];

    let mut keys = Vec::with_capacity((layout.files * layout.ranks) as usize);
    for row in 0..layout.ranks {
        for col in 0..layout.files {
            let sq = layout.square_at(opts.orientation, col, row);
            let (f, r) = (i32::from(sq.file()), i32::from(sq.rank()));
            let mut key = TileKey::plain(sq.is_dark());
            if let Some(m) = opts.last_move {
                // A launch or a detonation tints its 3×3 blast.
                if matches!(m.kind, MoveKind::Launch | MoveKind::Detonate) {
                    if near(m.to, f, r) {
                        key.tint = Tint::Blast;
                    } else if m.from == sq {
                        key.tint = Tint::LastMove;
                    }
                } else if m.from == sq || m.to == sq {
                    key.tint = Tint::LastMove;
                }
            }
            key.check = check_king == Some(sq);
            key.irradiated = irradiated.contains(sq);
            for (c, king) in kings.iter().enumerate() {
                if let Some(k) = *king
                    && near(k, f, r)
                {
                    let mut bits = IN_SHIELD;
                    for (bit, df, dr) in screen_edges {
                        let (nf, nr) = (f + df, r + dr);
                        if !on_board(nf, nr) || !near(k, nf, nr) {
                            bits |= bit;
                        }
                    }
                    key.shield[c] = bits;
                }
            }
            key.launch_ready = launch_ready.contains(sq);
            key.bomb = own_bomb == Some(sq);
            key.piece = pos.piece_at(sq);
            if opts.coordinates {
                if row == layout.ranks - 1 {
                    key.file_label = Some(sq.file());
                }
                if col == 0 {
                    key.rank_label = Some(sq.rank());
                }
            }
            keys.push(key);
        }
    }
    keys
}

/// Prepares the theme's palette ahead of the first render (otherwise the first render of a theme in a process
/// takes a few hundred milliseconds longer). Optional.
pub fn warm_up(theme: Theme) {
    cache::with_theme(theme, |_| ());
}

/// The position as a PNG picture (8-bit indexed colour). Never panics; sizes are clamped.
///
/// Encoded a rank at a time by [`bands`], which keeps each rank's compressed bytes for the next picture
/// that shows the same rank.
pub fn render(pos: &Position, opts: &RenderOptions) -> Vec<u8> {
    let layout = Layout::new(pos, opts);
    let keys = tile_keys(pos, opts, &layout);
    let title = title_text(opts);
    let (palette, strip, tiles) = cache::with_theme(opts.theme, |c| {
        let strip = title.as_ref().map(|t| c.title(t, layout.width(), layout.title_height));
        let tiles: Vec<_> = keys.iter().map(|k| c.numbered_tile(layout.square, k)).collect();
        (c.palette_bytes(), strip, tiles)
    });
    if let Some(png) = bands::board_png(&layout, &palette, strip.as_deref(), &tiles) {
        return png;
    }
    let pixels: Vec<_> = tiles.into_iter().map(|t| t.pixels).collect();
    compose_and_encode(&layout, &palette, strip.as_deref(), &pixels)
}

/// The position as [`render`] drew it before [`bands`]: the whole frame composed, then encoded by `png`
/// (fdeflate's fast mode, Paeth on every row). The same pixels; kept to check [`render`] against and to
/// measure it by.
pub fn render_whole(pos: &Position, opts: &RenderOptions) -> Vec<u8> {
    let layout = Layout::new(pos, opts);
    let keys = tile_keys(pos, opts, &layout);
    let title = title_text(opts);
    let (palette, strip, tiles) = cache::with_theme(opts.theme, |c| {
        let strip = title.as_ref().map(|t| c.title(t, layout.width(), layout.title_height));
        let tiles: Vec<_> = keys.iter().map(|k| c.tile(layout.square, k)).collect();
        (c.palette_bytes(), strip, tiles)
    });
    compose_and_encode(&layout, &palette, strip.as_deref(), &tiles)
}

/// Composes the strip and the tiles into one frame and encodes it with [`encode::indexed_png`].
fn compose_and_encode(
    layout: &Layout,
    palette: &[u8],
    strip: Option<&[u8]>,
    tiles: &[std::sync::Arc<[u8]>],
) -> Vec<u8> {
    let (width, height) = (layout.width() as usize, layout.height() as usize);
    FRAME.with_borrow_mut(|pixels| {
        pixels.clear();
        pixels.resize(width * height, 0);
        if let Some(strip) = strip {
            let n = strip.len().min(pixels.len());
            pixels[..n].copy_from_slice(&strip[..n]);
        }
        for (i, tile) in tiles.iter().enumerate() {
            blit_square(layout, i, tile, pixels, width, layout.title_height as usize);
        }
        encode::indexed_png(layout.width(), layout.height(), palette, pixels)
    })
}

thread_local! {
    /// The frame [`render_whole`] composes before encoding, kept by each drawing thread: a picture is a
    /// few hundred kilobytes of palette indices, which would otherwise be allocated and zeroed anew
    /// for every move.
    static FRAME: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Copies square `i` (in [`tile_keys`] order) into an indexed picture `width` pixels wide whose board
/// starts `top` rows down.
pub(crate) fn blit_square(layout: &Layout, i: usize, tile: &[u8], pixels: &mut [u8], width: usize, top: usize) {
    let sq = layout.square as usize;
    let (col, row) = (i % layout.files as usize, i / layout.files as usize);
    let x0 = col * sq;
    for y in 0..sq {
        let start = (top + row * sq + y) * width + x0;
        pixels[start..start + sq].copy_from_slice(&tile[y * sq..(y + 1) * sq]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Move, Role, variant};

    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut dec = png::Decoder::new(std::io::Cursor::new(bytes.to_vec()));
        dec.set_transformations(png::Transformations::EXPAND);
        let mut r = dec.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn sizes_follow_the_board() {
        for (v, w, h) in
            [(&variant::CHESS, 480, 480), (&variant::CAPABLANCA, 480, 384), (&variant::CAPATOMIC, 480, 480)]
        {
            let pos = Position::start(v);
            let (pw, ph, _) = decode(&render(&pos, &RenderOptions { size: 480, ..Default::default() }));
            assert_eq!((pw, ph), (w, h), "{}", v.name);
        }
    }

    #[test]
    fn flipping_mirrors_the_squares() {
        let l = Layout { files: 10, ranks: 8, square: 10, title_height: 0 };
        assert_eq!(l.square_at(Color::White, 0, 0), Square::parse("a8").unwrap());
        assert_eq!(l.square_at(Color::Black, 0, 0), Square::parse("j1").unwrap());
    }

    #[test]
    fn shields_and_launch_marks_in_capatomic() {
        let pos = Position::start(&variant::CAPATOMIC);
        let opts = RenderOptions { show_launch_ready: true, ..Default::default() };
        let layout = Layout::new(&pos, &opts);
        let keys = tile_keys(&pos, &opts, &layout);
        let shielded = keys.iter().filter(|k| k.shield[0] & IN_SHIELD != 0).count();
        assert_eq!(shielded, 9);
        assert_eq!(keys.iter().filter(|k| k.shield[1] & IN_SHIELD != 0).count(), 9);
        let marked: Vec<_> = keys.iter().filter(|k| k.launch_ready).map(|k| k.piece.map(|p| p.role)).collect();
        assert!(marked.iter().all(|r| *r == Some(Role::Missile)), "{marked:?}");
    }

    #[test]
    fn launch_tints_the_blast_area() {
        let pos = Position::start(&variant::CAPATOMIC);
        let m = Move { from: Square::parse("e1").unwrap(), to: Square::parse("e5").unwrap(), kind: MoveKind::Launch };
        let opts = RenderOptions { last_move: Some(m), ..Default::default() };
        let keys = tile_keys(&pos, &opts, &Layout::new(&pos, &opts));
        assert_eq!(keys.iter().filter(|k| k.tint == Tint::Blast).count(), 9);
        assert_eq!(keys.iter().filter(|k| k.tint == Tint::LastMove).count(), 1);
    }

    #[test]
    fn title_adds_a_strip_and_bad_sizes_are_clamped() {
        let pos = Position::start(&variant::CHESS);
        let opts = RenderOptions { size: 1, title: Some("a\u{7} b".into()), ..Default::default() };
        let (w, h, _) = decode(&render(&pos, &opts));
        assert_eq!(w, MIN_SIZE);
        assert!(h > MIN_SIZE);
    }

    #[test]
    fn every_variant_renders_through_a_playout() {
        for v in crate::rules::VARIANTS {
            let mut pos = Position::start(v);
            let mut last = None;
            for ply in 0..40 {
                let moves = pos.legal_moves();
                let Some(&m) = moves.get((ply * 7 + 3) % moves.len().max(1)) else { break };
                pos = pos.play(m);
                last = Some(m);
            }
            let opts = RenderOptions {
                size: 333,
                last_move: last,
                show_launch_ready: true,
                title: Some(format!("{} · move {}", v.display_name, pos.fullmoves())),
                ..RenderOptions::for_position(&pos)
            };
            let layout = Layout::new(&pos, &opts);
            let (w, h, px) = decode(&render(&pos, &opts));
            assert_eq!((w, h), (layout.width(), layout.height()), "{}", v.name);
            assert_eq!(px.len(), (w * h * 3) as usize, "{}", v.name);
        }
    }

    #[test]
    fn kingless_death_match_and_bombs_render() {
        let kingless =
            crate::notation::fen::parse_position(&variant::ATOMIC_DEATHMATCH, "8/p7/8/4n3/8/8/P7/4R3 w - - 0 1")
                .expect("a kingless death match position");
        let (w, h, _) = decode(&render(&kingless, &RenderOptions { size: 200, ..Default::default() }));
        assert_eq!((w, h), (200, 200));
        // A bomb is drawn only where the picture asks for that side's bomb.
        let b1 = Square::parse("b1").expect("square");
        let pos = Position::start(&variant::BOMB).with_bombs([Some(b1), Some(Square::parse("g8").expect("square"))]);
        let pos = pos.expect("own pieces");
        let plain = RenderOptions { size: 200, ..Default::default() };
        let layout = Layout::new(&pos, &plain);
        assert!(tile_keys(&pos, &plain, &layout).iter().all(|k| !k.bomb));
        let mine = RenderOptions { show_bomb_of: Some(Color::White), ..plain.clone() };
        let marked: Vec<_> = tile_keys(&pos, &mine, &layout).iter().filter(|k| k.bomb).map(|k| k.piece).collect();
        assert_eq!(marked, vec![pos.piece_at(b1)]);
        assert_ne!(decode(&render(&pos, &plain)).2, decode(&render(&pos, &mine)).2);
        let bomb = Move::detonate(b1);
        let after = pos.play(bomb);
        let keys = tile_keys(&after, &RenderOptions { last_move: Some(bomb), ..plain }, &layout);
        assert_eq!(keys.iter().filter(|k| k.tint == Tint::Blast).count(), 6, "b1 and its five neighbours");
    }

    /// A PNG decoded strictly (chunk CRCs and the zlib stream's Adler-32 checked) to its palette and
    /// its indices.
    fn indices(bytes: &[u8]) -> (u32, u32, Vec<u8>, Vec<u8>) {
        let mut options = png::DecodeOptions::default();
        options.set_ignore_adler32(false);
        options.set_ignore_crc(false);
        let mut r = png::Decoder::new_with_options(std::io::Cursor::new(bytes), options).read_info().expect("header");
        let palette = r.info().palette.as_ref().expect("a palette").to_vec();
        let mut buf = vec![0; r.output_buffer_size().expect("size")];
        let info = r.next_frame(&mut buf).expect("data");
        assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Indexed, png::BitDepth::Eight));
        buf.truncate(info.buffer_size());
        (info.width, info.height, palette, buf)
    }

    /// The same palette and indices from [`render`] (bands, some kept from earlier pictures) as from
    /// [`render_whole`] (the frame composed whole and encoded by `png`).
    fn assert_same_picture(pos: &Position, opts: &RenderOptions, what: &str) -> (usize, usize) {
        let banded = render(pos, opts);
        let whole = render_whole(pos, opts);
        assert!(indices(&banded) == indices(&whole), "{what}: the pictures differ");
        (banded.len(), whole.len())
    }

    /// A pseudo-random game of `plies` plies (the same for the same seed), each position with the move
    /// that led to it.
    fn playout(v: &'static crate::rules::Variant, seed: u64, plies: usize) -> Vec<(Position, Move)> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut pos = Position::start(v);
        let mut out = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let m = moves[(state % moves.len() as u64) as usize];
            pos = pos.play(m);
            out.push((pos.clone(), m));
        }
        out
    }

    #[test]
    fn banded_pictures_are_the_whole_frames_pictures_through_games_of_every_variant() {
        let (mut banded_bytes, mut whole_bytes) = (0, 0);
        let hits_before = bands::thread_band_counts().0;
        for (n, v) in crate::rules::VARIANTS.iter().enumerate() {
            for (ply, (pos, m)) in playout(v, n as u64 + 1, 24).into_iter().enumerate() {
                // Sizes, sides and options change along the game; each setting's bands stay kept
                // (warm) from its earlier pictures.
                let opts = RenderOptions {
                    size: [160, 257, 400][ply % 3],
                    orientation: if ply % 4 < 2 { Color::White } else { Color::Black },
                    theme: [Theme::Wood, Theme::Green, Theme::Contrast][n % 3],
                    last_move: Some(m),
                    show_launch_ready: ply % 2 == 0,
                    coordinates: ply % 5 != 4,
                    title: (ply % 6 == 5).then(|| format!("{} · move {ply}", v.display_name)),
                    ..RenderOptions::for_position(&pos)
                };
                let (b, w) = assert_same_picture(&pos, &opts, &format!("{} ply {ply}", v.name));
                banded_bytes += b;
                whole_bytes += w;
            }
        }
        assert!(bands::thread_band_counts().0 > hits_before, "later pictures of a game reuse bands");
        // The banded pictures are no more than a few per cent larger than png's.
        assert!(banded_bytes * 100 <= whole_bytes * 105, "{banded_bytes} bytes against {whole_bytes}");
    }

    #[test]
    fn a_picture_drawn_again_is_the_same_bytes_and_all_its_bands_are_kept() {
        let pos = Position::start(&variant::CAPATOMIC);
        let opts = RenderOptions { size: 320, show_launch_ready: true, ..Default::default() };
        let first = render(&pos, &opts);
        let (hits, misses) = bands::thread_band_counts();
        let again = render(&pos, &opts);
        assert_eq!(first, again);
        assert_eq!(bands::thread_band_counts(), (hits + 10, misses), "ten ranks, all found");
    }

    #[test]
    fn a_wrong_cache_key_cannot_give_a_wrong_picture() {
        // Every band under one key: a band is only taken if all its tiles are the ones asked for.
        bands::with_colliding_keys(|| {
            for (n, v) in [&variant::CAPATOMIC, &variant::CHESS, &variant::CAPABLANCA].into_iter().enumerate() {
                for (ply, (pos, m)) in playout(v, 100 + n as u64, 12).into_iter().enumerate() {
                    let opts = RenderOptions { size: 200, last_move: Some(m), ..RenderOptions::for_position(&pos) };
                    assert_same_picture(&pos, &opts, &format!("{} ply {ply}, colliding keys", v.name));
                }
            }
        });
        // A band kept under the key of the start position's top rank, but for other tiles and with
        // other bytes (a cache gone wrong): the picture must not take it.
        let pos = Position::start(&variant::CHESS);
        let opts = RenderOptions { size: 176, ..Default::default() };
        let layout = Layout::new(&pos, &opts);
        let ids: Vec<u64> = cache::with_theme(opts.theme, |c| {
            tile_keys(&pos, &opts, &layout).iter().take(8).map(|k| c.numbered_tile(layout.square, k).id).collect()
        });
        let others: Vec<u64> = ids.iter().map(|id| u64::MAX - id).collect();
        let junk = [0x02u8, 0xff, 0x00, 0x00, 0x00, 0xff, 0xff];
        bands::plant(bands::hash_of(&ids), &others, 23 * 177, 1, &junk);
        bands::with_colliding_keys(|| bands::plant(bands::hash_of(&ids), &others, 23 * 177, 1, &junk));
        assert_same_picture(&pos, &opts, "a planted band");
        bands::with_colliding_keys(|| assert_same_picture(&pos, &opts, "a planted band, colliding keys"));
    }

    /// Writes pictures of a few games by both encoders to `$CAPABOT_PNG_DIR`, for a decoder other than
    /// `png`'s (`tools/png_check.py`, Python's zlib): run by hand, with `--ignored`.
    #[test]
    #[ignore]
    fn write_pictures_for_another_decoder() {
        let Some(dir) = std::env::var_os("CAPABOT_PNG_DIR").map(std::path::PathBuf::from) else { return };
        std::fs::create_dir_all(&dir).expect("the directory");
        for (n, v) in [&variant::CAPATOMIC, &variant::CHESS, &variant::CAPABLANCA].into_iter().enumerate() {
            for (ply, (pos, m)) in playout(v, 7 + n as u64, 8).into_iter().enumerate() {
                let opts = RenderOptions {
                    size: 640,
                    last_move: Some(m),
                    title: (ply == 3).then(|| "Alice vs Bob".to_string()),
                    ..RenderOptions::for_position(&pos)
                };
                let name = format!("{}-{ply:02}", v.name);
                std::fs::write(dir.join(format!("{name}-banded.png")), render(&pos, &opts)).expect("write");
                std::fs::write(dir.join(format!("{name}-whole.png")), render_whole(&pos, &opts)).expect("write");
            }
        }
    }

    #[test]
    fn orientation_changes_the_picture() {
        let pos = Position::start(&variant::CHESS);
        let a = decode(&render(&pos, &RenderOptions { size: 200, ..Default::default() })).2;
        let b = decode(&render(&pos, &RenderOptions { size: 200, orientation: Color::Black, ..Default::default() })).2;
        assert_ne!(a, b);
    }
}

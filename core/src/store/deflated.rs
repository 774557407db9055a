//! A reply's text deflated with a preset dictionary, as SQLite's outbox keeps it
//! ([`super::outbox::stored_reply`]).
//!
//! A move's two replies share most of their JSON with every other move's (field names, the card,
//! the empty ranks of a text board, the sentences around the names), so each is deflated as if it
//! followed a fixed text of that kind: its back references reach into the dictionary, and a move's
//! answer and notice take about 280 bytes instead of 690 plain deflated (`docs/load.md`, "Replies
//! deflated with a preset dictionary").
//!
//! The stored bytes are a raw deflate stream's continuation after the dictionary, behind one byte
//! naming the dictionary. That byte has bits 1 and 2 set, the block type deflate reserves, so no
//! plain deflate stream (the rows written before dictionaries, read as they were) starts with it.
//! Reading needs no dictionary support from the inflater: the dictionary is put before the stored
//! bytes as an uncompressed (stored) block, the whole inflated as an ordinary stream and the
//! dictionary's bytes dropped from its start. Writing feeds a compressor the dictionary once and
//! flushes it to a byte boundary; each text then goes through a copy of that compressor, and only
//! what the text adds after that point is kept.
//!
//! A dictionary is fixed for ever once rows use it: a better one is a new entry of
//! [`DICTIONARIES`] with the next number, and rows written with the old one still read.

use std::sync::OnceLock;

use miniz_oxide::DataFormat;
use miniz_oxide::deflate::core::{
    CompressionStrategy, CompressorOxide, TDEFLFlush, TDEFLStatus, compress_to_output,
    create_comp_flags_from_zip_params,
};

/// The deflate level: the fastest (a move's two replies in a few tens of microseconds, inside the
/// unit of work); the default level 6 saved 3 % more without a dictionary and took half as long
/// again.
const LEVEL: i32 = 1;

/// The dictionaries by number (the first is 1). **Never change one**: rows written with it must
/// read back for ever (`a_row_written_with_dictionary_1_reads_for_ever`); add another instead.
const DICTIONARIES: [&str; 1] = [DICTIONARY_1];

/// The dictionary rows are written with now.
const CURRENT: u8 = 1;

/// Dictionary 1 (stop 107): what a reply's JSON holds, the commonest last (a back reference
/// nearer the text is shorter): a move's answer in English with its card and text board, and its
/// turn notice; before them a board's description (rows with pictures), a challenge, a game's
/// start, and the move's sentences in German and Turkish.
const DICTIONARY_1: &str = concat!(
    r#"Partie #: , gespielt von . (Weiß) ist am Zug. (Schwarz) ist am Zug. Tage Zeit zum Antworten. "#,
    r#"Du bist am Zug in Partie # gegen Oyun #: , oynayan . Sıra  (beyaz) oyuncusunda. Sıra  (siyah) "#,
    r#"oyuncusunda. Yanıt için 7 gün var.  ile oynadığın # numaralı oyunda  sıra sende: "#,
    r#"Challenge #: challenges  to  (7 days per move, rated, setup , plays white). : !accept or "#,
    r#"!decline (expires in 48 h).","choices":[{"label":"Accept","command":"accept #","typed":"!accept #","#,
    r#""style":"Primary","for_user":{"label":"Decline","command":"decline #","typed":"!decline #","#,
    r#""style":"Secondary","for_user":{"label":"Withdraw","command":"decline #"#,
    r#"Game #1 starts:  (white) vs  (black), Capatomic Random Chess, setup 0, 7 days per move. "#,
    r#"{"Chat":{"platform":"matrix","chat":"!:matrix.org","thread":"$","direct":true}},"#,
    r#""drawing":{"kind":"board","variant":"capatomic","fen":"/pppppppppp/10/10/10/10/PPPPPPPPPP/ w KQkq - 0 1 -","#,
    r#""last_move":{"from":"","to":""},"viewer":"black","launch_ready":false,"size":640,"theme":"wood"},"#,
    r#""card":{"game_id":,"variant":"Capatomic Random Chess","white":"","black":"","last_move":"","#,
    r#""to_move":{"id":"","name":""},"deadline":1,"result":null},"choices":[],"notify":[{"id":"","name":""}],"#,
    r#""in_reply_to":"","lang":"en","stands_alone":false},"animated":false,"board_texts":true}"#,
    r#"{"v":1,"reply":{"target":{"Chat":{"platform":"discord","chat":"","direct":false}},"#,
    r#""text":"Game #: 1... played by . (white) to move. 7 days to reply.","audience":"Everyone","#,
    r#""text_board":"10 . . . . . . . . . .\n 9 . . . . . . . . . .\n 8 p p p p p p p p p p\n"#,
    r#" 7 . . . . . . . . . .\n 6 . . . . . . . . . .\n 5 . . . . . . . . . .\n 4 . . . . . . . . . .\n"#,
    r#" 3 P P P P P P P P P P\n 2 . . . . . . . . . .\n 1 . . . . . . . . . .\n   a b c d e f g h i j","#,
    r#""card":{"game_id":,"variant":"Capatomic Random Chess","white":"","black":"","last_move":"","#,
    r#""to_move":{"id":"","name":""},"deadline":1,"result":null},"choices":[],"notify":[{"id":"","name":""}],"#,
    r#""in_reply_to":"","lang":"en","stands_alone":false},"animated":false}"#,
    r#"{"v":1,"reply":{"target":{"Direct":{"platform":"discord","user":{"id":"","name":""}}},"#,
    r#""text":"Your move in game # against  (Capatomic Random Chess): . 7 days to reply.","audience":"Everyone","#,
    r#""choices":[],"notify":[{"id":"","name":""}],"in_reply_to":"","lang":"en","stands_alone":false},"animated":false}"#,
);

/// The first byte of bytes deflated with dictionary `number`: bits 1 and 2 set (deflate's
/// reserved block type), the number in bits 3–7.
const fn tag(number: u8) -> u8 {
    0b110 | (number << 3)
}

/// Whether `byte` begins bytes written with a dictionary (else they are plain raw deflate).
const fn is_tag(byte: u8) -> bool {
    byte & 0b110 == 0b110
}

/// `text` deflated with the current dictionary: its tag, then the raw deflate stream's
/// continuation after the dictionary. `None` if the compressor did not finish as it should (the
/// caller then keeps the text as it is).
pub fn deflate(text: &[u8]) -> Option<Vec<u8>> {
    deflate_with(CURRENT, text)
}

fn deflate_with(number: u8, text: &[u8]) -> Option<Vec<u8>> {
    let index = usize::from(number).checked_sub(1)?;
    let primed = PRIMED.get(index)?.get_or_init(|| primed(DICTIONARIES[index].as_bytes())).as_ref()?;
    // A copy of the compressor as it stood after the dictionary: the same state, so the same
    // bytes, as feeding it the dictionary again (about 149 thousand instructions a row before).
    let mut compressor = primed.clone();
    let mut out = Vec::with_capacity(text.len() / 3 + 16);
    out.push(tag(number));
    let (status, read) = compress_to_output(&mut compressor, text, TDEFLFlush::Finish, |bytes| {
        out.extend_from_slice(bytes);
        true
    });
    (status == TDEFLStatus::Done && read == text.len()).then_some(out)
}

/// The compressor of each dictionary as it stands after the dictionary, made at the first row
/// written with it and copied for every row ([`deflate_with`]); `None` if it did not take the
/// dictionary as it should (rows are then kept as text).
static PRIMED: [OnceLock<Option<CompressorOxide>>; DICTIONARIES.len()] =
    [const { OnceLock::new() }; DICTIONARIES.len()];

/// A compressor fed `dictionary`, ready for a row's text: the bytes it wrote for the dictionary
/// are dropped (the reader puts the dictionary back as a stored block).
fn primed(dictionary: &[u8]) -> Option<CompressorOxide> {
    // The dictionary goes through the same level as the text (each level's match finder reads
    // only the hash its own level wrote) but in static blocks: no Huffman table is built for
    // output that is dropped.
    let fixed = CompressionStrategy::Fixed as i32;
    let mut compressor = CompressorOxide::new(create_comp_flags_from_zip_params(LEVEL, -15, fixed));
    // A sync flush ends the dictionary on a byte boundary, so the text's blocks start on a byte.
    let (status, read) = compress_to_output(&mut compressor, dictionary, TDEFLFlush::Sync, |_| true);
    if status != TDEFLStatus::Okay || read != dictionary.len() {
        return None;
    }
    // Dynamic blocks again for the text.
    compressor.set_format_and_level(DataFormat::Raw, LEVEL as u8);
    Some(compressor)
}

/// The text of `bytes`, deflated plain (rows written before dictionaries) or with a dictionary
/// ([`deflate`]), if it inflates to at most `limit` bytes; `None` if they are not such bytes.
pub fn inflate(bytes: &[u8], limit: usize) -> Option<Vec<u8>> {
    let Some((&first, rest)) = bytes.split_first().filter(|(first, _)| is_tag(**first)) else {
        return miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, limit).ok();
    };
    let dictionary = DICTIONARIES.get(usize::from(first >> 3).checked_sub(1)?)?.as_bytes();
    let length = u16::try_from(dictionary.len()).ok()?;
    // A stored block, not the last: its header's three bits (0, 00) padded to a byte, then its
    // length and the length's complement, little-endian, then the bytes.
    let mut stream = Vec::with_capacity(5 + dictionary.len() + rest.len());
    stream.push(0);
    stream.extend_from_slice(&length.to_le_bytes());
    stream.extend_from_slice(&(!length).to_le_bytes());
    stream.extend_from_slice(dictionary);
    stream.extend_from_slice(rest);
    let mut text = miniz_oxide::inflate::decompress_to_vec_with_limit(&stream, dictionary.len() + limit).ok()?;
    (text.starts_with(dictionary)).then(|| text.split_off(dictionary.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// No tag is the start of a plain deflate stream, and every dictionary fits a stored block
    /// and the tag's five bits.
    #[test]
    fn tags_and_dictionaries_fit_their_format() {
        assert!(DICTIONARIES.len() < 32);
        for number in 1..=DICTIONARIES.len() as u8 {
            assert!(is_tag(tag(number)) && tag(number) >> 3 == number);
            assert!(DICTIONARIES[usize::from(number) - 1].len() <= usize::from(u16::MAX));
        }
        for level in 0..=10 {
            for text in ["", "a", "{\"v\":1}", DICTIONARY_1] {
                let plain = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), level);
                assert!(!is_tag(plain[0]), "level {level}: {:#04x}", plain[0]);
            }
        }
    }

    /// A move's answer as `lab bench-bot` queued it (a text board, no picture), and its turn notice.
    const ANSWER: &str = r#"{"v":1,"reply":{"target":{"Chat":{"platform":"bench","chat":"table-4","direct":false}},"text":"Game #5: 3. Nd4 played by w4. b4 (black) to move. 7 days to reply.","audience":"Everyone","text_board":"10 . . . . . . . m . m\n 9 a b . c n r n q k r\n 8 p p p . p p p p p p\n 7 . . . . . . . . . .\n 6 . . . p . . . . . .\n 5 . . . . P . b . . .\n 4 . . . N . P . . . .\n 3 P P P P . . P P P P\n 2 A B B C . R N Q K R\n 1 . . . . . . . M . M\n   a b c d e f g h i j","card":{"game_id":5,"variant":"Capatomic Random Chess","white":"w4","black":"b4","last_move":"3. Nd4","to_move":{"id":"b4","name":"b4"},"deadline":1797172350,"result":null},"choices":[],"notify":[{"id":"b4","name":"b4"}],"in_reply_to":"1579143503282176000","lang":"en","stands_alone":false},"animated":false}"#;
    const NOTICE: &str = r#"{"v":1,"reply":{"target":{"Direct":{"platform":"bench","user":{"id":"b4","name":"b4"}}},"text":"Your move in game #5 against w4 (Capatomic Random Chess): 3. Nd4. 7 days to reply.","audience":"Everyone","choices":[],"notify":[{"id":"b4","name":"b4"}],"in_reply_to":"1579143503282176000","lang":"en","stands_alone":false},"animated":false}"#;

    fn from_hex(hex: &str) -> Vec<u8> {
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
    }

    /// [`ANSWER`] as this stop's build stored it with dictionary 1 reads back as it was: the
    /// dictionary and the format are fixed for ever (a change of either fails here).
    #[test]
    fn a_row_written_with_dictionary_1_reads_for_ever() {
        let stored = from_hex(concat!(
            "0ead96cd0a824014855fe5d0ba067fc626db55cb48aa7d8ba682208d12c195efde197f703289849081f1ccf522f77acf",
            "e79772f54cbde6245ecd875611243beaf8329114ce7569fb473f98c31788ced29afe5c0a68c99f9b12727fb78084354f",
            "382a61392a0227dc91723d71434abdb10001cb0aa82b7c180904f5c6021ef639f5d602b63cd15c7c9ebaac768820604e",
            "a896795a0b304a6d078cf7b0c092d78af17b44d8618d3df5ae056c20b0a1feb3050483e8969b666ad312faaa363736e1",
            "aa26b2dd59877365644d3aee69fd16eb54a85ce5f901519c0e801ef39084153db92f0ee3d13bf8dc4085ae645edf9b79",
            "ae9a3a8ec3578b8f035958bc00",
        ));
        assert_eq!(stored[0], tag(1));
        assert_eq!(inflate(&stored, 1 << 20).unwrap(), ANSWER.as_bytes());
        // Not past its limit.
        assert!(inflate(&stored, ANSWER.len() - 1).is_none());
    }

    /// Rows deflated plain, as stop 105 wrote them (level 1) and at any other level, still read.
    #[test]
    fn a_row_deflated_plain_reads_as_before() {
        for level in 0..=10 {
            for text in [ANSWER, NOTICE, "", "x"] {
                let plain = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), level);
                assert_eq!(inflate(&plain, 1 << 20).unwrap(), text.as_bytes(), "level {level}");
            }
        }
        // A plain row of stop 105's build (the notice at level 1).
        let plain = miniz_oxide::deflate::compress_to_vec(NOTICE.as_bytes(), 1);
        assert!(!is_tag(plain[0]));
    }

    /// A move's answer and notice take about half what they took deflated plain: 350 bytes
    /// against 696 (the notice's platform, `bench`, is not the dictionary's `discord`).
    #[test]
    fn a_moves_replies_take_about_half_as_much() {
        let size = |deflated: fn(&[u8]) -> Vec<u8>| -> usize {
            [ANSWER, NOTICE].map(|r| deflated(r.as_bytes()).len()).iter().sum()
        };
        let plain = size(|text| miniz_oxide::deflate::compress_to_vec(text, 1));
        let with = size(|text| deflate(text).unwrap());
        assert!(with * 10 < plain * 6, "{with} bytes with the dictionary, {plain} plain");
    }

    /// A row deflated through the copy of the primed compressor is, byte for byte, what a
    /// compressor fed the dictionary for that row alone writes (as every row was written before
    /// stop 108), for each row in turn: the copy carries the whole state and no row changes it.
    #[test]
    fn a_copied_compressor_writes_what_one_fed_the_dictionary_for_the_row_writes() {
        let fresh = |text: &[u8]| {
            let mut compressor = primed(DICTIONARY_1.as_bytes()).unwrap();
            let mut out = vec![tag(1)];
            let (status, _) = compress_to_output(&mut compressor, text, TDEFLFlush::Finish, |bytes| {
                out.extend_from_slice(bytes);
                true
            });
            assert_eq!(status, TDEFLStatus::Done);
            out
        };
        for text in [ANSWER, NOTICE, "", ANSWER, "x", DICTIONARY_1, NOTICE] {
            assert_eq!(deflate(text.as_bytes()).unwrap(), fresh(text.as_bytes()), "{text}");
        }
    }

    /// Bytes that are no deflate stream, or a dictionary that does not exist, read as nothing
    /// (the row is then reported unreadable), never a panic.
    #[test]
    fn bytes_of_no_known_form_read_as_nothing() {
        assert!(inflate(&[tag(31), 1, 2, 3], 1 << 20).is_none());
        assert!(inflate(&[tag(1)], 1 << 20).is_none());
        assert!(inflate(&[0x07, 0xff], 1 << 20).is_none());
        assert!(deflate_with(0, b"x").is_none() && deflate_with(9, b"x").is_none());
    }

    proptest! {
        /// Any text deflated with the dictionary reads back as it was.
        #[test]
        fn any_text_reads_back(text in ".{0,3000}") {
            let bytes = deflate(text.as_bytes()).unwrap();
            prop_assert!(is_tag(bytes[0]));
            prop_assert_eq!(inflate(&bytes, 1 << 20).unwrap(), text.as_bytes());
        }

        /// … and bytes near the dictionary's (pieces of it, repeated, changed) too.
        #[test]
        fn texts_like_the_dictionary_read_back(start in 0..DICTIONARY_1.len(), len in 0..3000_usize, flip in any::<u8>(), at in any::<usize>()) {
            let mut text: Vec<u8> = DICTIONARY_1.as_bytes().iter().cycle().skip(start).take(len).copied().collect();
            if !text.is_empty() {
                let i = at % text.len();
                text[i] ^= flip;
            }
            let bytes = deflate(&text).unwrap();
            prop_assert_eq!(inflate(&bytes, 1 << 20).unwrap(), text);
        }
    }
}

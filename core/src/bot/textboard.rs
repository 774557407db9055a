//! A compact text board for terminals and logs: ranks from the top, `.` for an empty square, `*` for
//! an irradiated empty square (Capatomic).

use crate::rules::{Position, Square};

/// The board as text, White at the bottom, with rank numbers and file letters.
pub fn text_board(pos: &Position) -> String {
    let v = pos.variant();
    let rad = pos.irradiated();
    let mut out = String::new();
    for rank in (0..v.height).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..v.width {
            let sq = Square::new(file, rank);
            let c = match pos.piece_at(sq) {
                Some(p) => p.fen_char(),
                None if rad.contains(sq) => '*',
                None => '.',
            };
            out.push(c);
            if file + 1 < v.width {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out.push_str("   ");
    let files: Vec<String> = (0..v.width).map(|f| ((b'a' + f) as char).to_string()).collect();
    out.push_str(&files.join(" "));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{CAPABLANCA, CHESS};

    #[test]
    fn chess_start() {
        let t = text_board(&Position::start(&CHESS));
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], " 8 r n b q k b n r");
        assert_eq!(lines[7], " 1 R N B Q K B N R");
        assert_eq!(lines[8], "   a b c d e f g h");
        let t = text_board(&Position::start(&CAPABLANCA));
        assert!(t.ends_with("a b c d e f g h i j"));
    }
}

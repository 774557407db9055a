//! The word a person most likely meant when they mistyped one: a command's or a variant's name.

/// The candidate that `word` is most likely a slip for, compared without case: the closest one,
/// counting edits the way typing slips happen (a letter left out, added or changed, or two
/// neighbours swapped: the optimal string alignment distance), at most one edit in a word of three
/// to six letters and two in a longer one (`hello` is two edits from `help`, and no slip for it). `None` for shorter words (`e9` is no slip for a
/// command), when nothing is that close, when two candidates are equally close, or when `word` is
/// itself a candidate.
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let word = word.to_lowercase();
    let letters = word.chars().count();
    if letters < 3 {
        return None;
    }
    let most = if letters <= 6 { 1 } else { 2 };
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for candidate in candidates {
        let d = strsim::osa_distance(&word, &candidate.to_lowercase());
        match best {
            _ if d == 0 => return None,
            _ if d > most => {}
            Some((b, c)) if d == b => tied |= !c.eq_ignore_ascii_case(candidate),
            Some((b, _)) if d > b => {}
            _ => {
                best = Some((d, candidate));
                tied = false;
            }
        }
    }
    if tied { None } else { best.map(|(_, c)| c) }
}

#[cfg(test)]
mod tests {
    use super::nearest;

    const WORDS: [&str; 6] = ["help", "challenge", "resign", "move", "chess", "atomic"];

    #[test]
    fn a_slip_finds_the_word_meant() {
        assert_eq!(nearest("hlep", WORDS), Some("help"), "two letters swapped");
        assert_eq!(nearest("chalenge", WORDS), Some("challenge"), "a letter left out");
        assert_eq!(nearest("resing", WORDS), Some("resign"));
        assert_eq!(nearest("Ches", WORDS), Some("chess"), "any case");
        assert_eq!(nearest("atomik", WORDS), Some("atomic"), "a letter changed");
        assert_eq!(nearest("chalengee", WORDS), Some("challenge"), "two edits in a long word");
    }

    #[test]
    fn no_guess_where_none_is_sure() {
        assert_eq!(nearest("help", WORDS), None, "the word itself");
        assert_eq!(nearest("e9", WORDS), None, "too short to be a slip");
        assert_eq!(nearest("mvoe", ["move", "love"].iter().copied().chain(WORDS)), Some("move"));
        assert_eq!(nearest("mave", ["move", "mate"]), None, "two at one edit");
        assert_eq!(nearest("hxyp", WORDS), None, "two edits in a short word");
        assert_eq!(nearest("hello", WORDS), None, "two edits in a word of five");
        assert_eq!(nearest("", WORDS), None);
    }
}

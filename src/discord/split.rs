//! Discord's size limits on what the bot sends: message content of at most 2,000 characters,
//! embeds within their per-part limits. A long answer (help, standings, a round's pairings) is
//! split into several messages at paragraph boundaries, or at line boundaries inside a paragraph
//! too long alone, never cut; the core writes its texts without knowing any platform's limit.

/// Discord's limit on a message's content, in characters.
pub const CONTENT: usize = 2000;
/// An embed's title.
pub const EMBED_TITLE: usize = 256;
/// An embed field's value.
pub const FIELD_VALUE: usize = 1024;

/// `text` in pieces of at most `limit` characters, broken between paragraphs where one fits,
/// else between lines, and only inside a line longer than `limit` alone (at a space if it has
/// one). Nothing is dropped but the line breaks the pieces are cut at.
pub fn pieces(text: &str, limit: usize) -> Vec<String> {
    let limit = limit.max(1);
    if text.chars().count() <= limit {
        return vec![text.to_owned()];
    }
    let mut out = Vec::new();
    let mut current = String::new();
    for paragraph in text.split("\n\n") {
        if fits(&current, "\n\n", paragraph, limit) {
            join(&mut current, "\n\n", paragraph);
            continue;
        }
        if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        if paragraph.chars().count() <= limit {
            current.push_str(paragraph);
            continue;
        }
        // A paragraph longer than a message: by lines, and a line longer still by words.
        for line in paragraph.split('\n') {
            for part in line_parts(line, limit) {
                if !fits(&current, "\n", &part, limit) {
                    out.push(std::mem::take(&mut current));
                    current = part;
                } else {
                    join(&mut current, "\n", &part);
                }
            }
        }
    }
    if !current.is_empty() || out.is_empty() {
        out.push(current);
    }
    out
}

fn fits(current: &str, separator: &str, next: &str, limit: usize) -> bool {
    let sep = if current.is_empty() { 0 } else { separator.len() };
    current.chars().count() + sep + next.chars().count() <= limit
}

fn join(current: &mut String, separator: &str, next: &str) {
    if !current.is_empty() {
        current.push_str(separator);
    }
    current.push_str(next);
}

/// A line cut into parts of at most `limit` characters, at the last space before the limit
/// where there is one.
fn line_parts(line: &str, limit: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > limit {
        let cut = rest[..limit].iter().rposition(|c| *c == ' ').filter(|&i| i > 0).unwrap_or(limit);
        parts.push(rest[..cut].iter().collect());
        let skip = usize::from(rest.get(cut) == Some(&' '));
        rest.drain(..cut + skip);
    }
    parts.push(rest.into_iter().collect());
    parts
}

/// `text` cut to `limit` characters, with an ellipsis where it was cut (for embed parts, which
/// hold names and short facts: a cut there loses nothing the message does not say otherwise).
pub fn clamp(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_owned();
    }
    text.chars().take(limit.saturating_sub(1)).chain(['…']).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_texts_stay_whole() {
        assert_eq!(pieces("one\n\ntwo", 2000), ["one\n\ntwo"]);
        assert_eq!(pieces("", 2000), [""]);
    }

    #[test]
    fn paragraphs_are_kept_together() {
        let para = |c: char| std::iter::repeat_n(c, 900).collect::<String>();
        let text = [para('a'), para('b'), para('c')].join("\n\n");
        let got = pieces(&text, 2000);
        assert_eq!(got, [format!("{}\n\n{}", para('a'), para('b')), para('c')]);
    }

    #[test]
    fn a_long_paragraph_breaks_between_lines_and_loses_nothing() {
        let lines: Vec<String> = (0..300).map(|i| format!("{i}. alice 1500 – bob 1500")).collect();
        let text = format!("Standings\n\n{}", lines.join("\n"));
        let got = pieces(&text, 2000);
        assert!(got.len() > 1 && got.iter().all(|p| p.chars().count() <= 2000), "{got:?}");
        assert!(got.iter().all(|p| !p.starts_with('\n') && !p.ends_with('\n')));
        let back: Vec<&str> = got.iter().flat_map(|p| p.split('\n')).filter(|l| !l.is_empty()).collect();
        let want: Vec<&str> = text.split('\n').filter(|l| !l.is_empty()).collect();
        assert_eq!(back, want);
    }

    #[test]
    fn a_line_longer_than_a_message_breaks_at_spaces() {
        let line = "word ".repeat(1000);
        let got = pieces(line.trim_end(), 2000);
        assert!(got.iter().all(|p| p.chars().count() <= 2000 && !p.starts_with(' ')), "{got:?}");
        assert_eq!(got.join(" ").split(' ').count(), 1000);
        let solid = "x".repeat(4500);
        assert_eq!(pieces(&solid, 2000).iter().map(|p| p.chars().count()).collect::<Vec<_>>(), [2000, 2000, 500]);
    }

    #[test]
    fn clamps_count_characters_not_bytes() {
        assert_eq!(clamp("ééé", 3), "ééé");
        assert_eq!(clamp("éééé", 3), "éé…");
    }
}

//! Mentions as Matrix clients send them, and as the bot writes them.
//!
//! Reading: Element puts the display name in the plain body and a pill
//! (`<a href="https://matrix.to/#/@bob:example.org">Bob</a>`) in the formatted body; people also
//! type a bare MXID or paste a matrix.to link. [`said`] turns a message into the text the core
//! parses, with every person written as their MXID, and [`mentioned`] lists them in the order
//! written. A reply's quoted fallback and its `m.mentions` (which name the replied-to author) are
//! not the command's.
//!
//! Writing: [`Part`]s (text, or a user) are built from the plain text, and only then escaped, so
//! that no display name lands a pill inside another word or breaks the HTML.

use crate::bot::UserRef;
use matrix_sdk::ruma::events::room::message::sanitize::remove_plain_reply_fallback;
use matrix_sdk::ruma::matrix_uri::MatrixId;
use matrix_sdk::ruma::{MatrixToUri, MatrixUri, OwnedUserId, UserId};
use ruma_html::{Html, NodeData, NodeRef};

/// The user a link names (`https://matrix.to/#/@bob:hs`, `matrix:u/bob:hs`), if it names one.
fn linked_user(link: &str) -> Option<OwnedUserId> {
    let id = match MatrixToUri::parse(link) {
        Ok(uri) => uri.id().clone(),
        Err(_) => MatrixUri::parse(link).ok()?.id().clone(),
    };
    match id {
        MatrixId::User(user) => Some(user),
        _ => None,
    }
}

/// What a message says, as the core reads it: the formatted body (when there is one) with its
/// pills written as MXIDs and its reply quote left out, else the plain body without its reply
/// fallback; matrix.to links to users are written as MXIDs too.
pub fn said(plain: &str, html: Option<&str>) -> String {
    let text = match html {
        Some(html) => {
            let mut out = String::new();
            walk(&Html::parse(html).children().collect::<Vec<_>>(), &mut out);
            out
        }
        None => remove_plain_reply_fallback(plain).to_string(),
    };
    let mut words = Vec::new();
    for line in text.lines() {
        let line: Vec<String> = line
            .split(' ')
            .map(|w| match w.starts_with("https://matrix.to/") || w.starts_with("matrix:") {
                true => linked_user(w).map_or_else(|| w.to_string(), |u| u.to_string()),
                false => w.to_string(),
            })
            .collect();
        words.push(line.join(" "));
    }
    words.join("\n").trim().to_string()
}

/// Appends the text of `nodes` to `out`: user pills as MXIDs, line breaks as newlines, the reply
/// quote (`<mx-reply>`) left out.
fn walk(nodes: &[NodeRef], out: &mut String) {
    for node in nodes {
        match node.data() {
            NodeData::Text(text) => out.push_str(&text.borrow()),
            NodeData::Element(element) => {
                let name: &str = &element.name.local;
                let children: Vec<NodeRef> = node.children().collect();
                match name {
                    "mx-reply" => {}
                    "br" => out.push('\n'),
                    "a" => {
                        let href = element
                            .attrs
                            .borrow()
                            .iter()
                            .find(|a| &*a.name.local == "href")
                            .map(|a| a.value.to_string());
                        match href.as_deref().and_then(linked_user) {
                            Some(user) => out.push_str(user.as_str()),
                            None => walk(&children, out),
                        }
                    }
                    "p" | "div" | "li" | "blockquote" | "pre" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                        walk(&children, out);
                        out.push('\n');
                    }
                    _ => walk(&children, out),
                }
            }
            _ => {}
        }
    }
}

/// The people `text` names, in the order written: each MXID word, and each `@name` word that names
/// one of `hinted` (the event's `m.mentions`, with their display names) by localpart or display
/// name. Outside a reply, an `@name` that names nobody of `hinted` takes the next of them not yet
/// named; a reply's `m.mentions` also hold the replied-to author, so there it must be named.
pub fn mentioned(text: &str, hinted: &[(OwnedUserId, String)], reply: bool) -> Vec<OwnedUserId> {
    let mut found: Vec<OwnedUserId> = Vec::new();
    let mut unresolved = 0;
    for word in text.split_whitespace().filter(|w| w.starts_with('@')) {
        let trimmed = word.trim_end_matches([',', '.', ';', '!', '?', ')', ':']);
        if let Ok(id) = UserId::parse(word).or_else(|_| UserId::parse(trimmed)) {
            found.push(id);
            continue;
        }
        let name = &trimmed[1..];
        let named = hinted.iter().find(|(id, display)| {
            id.localpart().eq_ignore_ascii_case(name) || (!display.is_empty() && display.eq_ignore_ascii_case(name))
        });
        match named {
            Some((id, _)) => found.push(id.clone()),
            None => unresolved += 1,
        }
    }
    if !reply {
        for (id, _) in hinted {
            if unresolved == 0 {
                break;
            }
            if !found.contains(id) {
                found.push(id.clone());
                unresolved -= 1;
            }
        }
    }
    let mut unique = Vec::new();
    for id in found {
        if !unique.contains(&id) {
            unique.push(id);
        }
    }
    unique
}

/// A display name as shown: bidirectional controls (which could reorder the text around it) and
/// other invisible format characters taken out, whitespace trimmed; the localpart when nothing is left.
pub fn clean_name(name: &str, fallback: &str) -> String {
    let cleaned: String = name
        .chars()
        .filter(|c| {
            !matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}')
        })
        .collect();
    let cleaned = cleaned.trim();
    if cleaned.is_empty() { fallback.to_string() } else { cleaned.to_string() }
}

/// A piece of an outgoing message: plain text, or a pill for a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Text(String),
    /// The user, and the text the pill replaces (`@alice` or `alice`).
    User(&'a UserRef, String),
}

/// Whether `text[at..at + len]` stands as a word of its own (no letter or digit on either side).
fn whole_word(text: &str, at: usize, len: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + len..].chars().next();
    !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
}

/// The first place `needle` stands as a word in `text`.
fn find_word(text: &str, needle: &str) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    text.match_indices(needle).map(|(at, _)| at).find(|&at| whole_word(text, at, needle.len()))
}

/// `text` cut into parts: the first place each user of `users` is named (as `@name`, `name` or
/// their id, a whole word) becomes their pill; a user named nowhere is put in front (`name: …`).
pub fn parts<'a>(text: &str, users: &[&'a UserRef]) -> Vec<Part<'a>> {
    let mut parts = vec![Part::Text(text.to_string())];
    let mut front = Vec::new();
    for &user in users {
        let name = clean_name(&user.name, &user.id);
        let needles = [format!("@{name}"), name.clone(), user.id.clone()];
        let place = parts.iter().enumerate().find_map(|(i, part)| match part {
            Part::Text(t) => needles.iter().find_map(|n| find_word(t, n).map(|at| (i, at, n.clone()))),
            Part::User(..) => None,
        });
        match place {
            Some((i, at, needle)) => {
                let Part::Text(t) = parts[i].clone() else { continue };
                let after = t[at + needle.len()..].to_string();
                let replaced = vec![Part::Text(t[..at].to_string()), Part::User(user, needle), Part::Text(after)];
                let tail = parts.split_off(i + 1);
                parts.pop();
                parts.extend(replaced);
                parts.extend(tail);
            }
            None => front.push(user),
        }
    }
    let mut head = Vec::new();
    for user in front {
        head.push(Part::User(user, clean_name(&user.name, &user.id)));
        head.push(Part::Text(": ".into()));
    }
    head.extend(parts);
    head.retain(|p| !matches!(p, Part::Text(t) if t.is_empty()));
    head
}

/// Escapes text for the HTML of a message.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The plain and HTML forms of `parts`: in HTML each user is a pill (`<a href="https://matrix.to/#/@id">name</a>`).
pub fn render(parts: &[Part<'_>]) -> (String, String) {
    let (mut plain, mut html) = (String::new(), String::new());
    for part in parts {
        match part {
            Part::Text(t) => {
                plain.push_str(t);
                html.push_str(&escape(t));
            }
            Part::User(user, shown) => {
                plain.push_str(shown);
                let link = UserId::parse(user.id.as_str()).map(|u| u.matrix_to_uri().to_string());
                match link {
                    Ok(link) => html.push_str(&format!(
                        "<a href=\"{}\">{}</a>",
                        escape(&link),
                        escape(&clean_name(&user.name, &user.id))
                    )),
                    Err(_) => html.push_str(&escape(shown)),
                }
            }
        }
    }
    (plain, html)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> OwnedUserId {
        s.try_into().unwrap()
    }

    #[test]
    fn element_pills_bare_ids_and_links_are_mxids_in_order() {
        let html = r#"!challenge <a href="https://matrix.to/#/@bob:example.org">Bob</a> chess"#;
        assert_eq!(said("!challenge Bob chess", Some(html)), "!challenge @bob:example.org chess");
        let html = r#"!rating <a href="https://matrix.to/#/%40bob%3Aexample.org">Bob &amp; co</a>"#;
        assert_eq!(said("", Some(html)), "!rating @bob:example.org");
        assert_eq!(
            said("!ladder challenge https://matrix.to/#/@bob:example.org", None),
            "!ladder challenge @bob:example.org"
        );
        let text = "!challenge @carol:hs @bob:example.org, chess";
        assert_eq!(mentioned(text, &[], false), [id("@carol:hs"), id("@bob:example.org")]);
    }

    #[test]
    fn a_reply_quote_and_its_mentions_are_not_the_commands() {
        let plain = "> <@alice:hs> good game\n\n!challenge @bob:hs";
        assert_eq!(said(plain, None), "!challenge @bob:hs");
        let html = "<mx-reply><blockquote><a href=\"https://matrix.to/#/!r:hs/$e\">In reply to</a> \
                    <a href=\"https://matrix.to/#/@alice:hs\">@alice:hs</a><br>good game</blockquote></mx-reply>!challenge chess";
        assert_eq!(said("", Some(html)), "!challenge chess");
        let hinted = [(id("@alice:hs"), "Alice".to_string())];
        assert!(mentioned("!challenge chess", &hinted, true).is_empty());
        // `@name` typed in plain text is read from the hints by localpart or display name.
        let hinted = [(id("@alice:hs"), "Alice".to_string()), (id("@bob:hs"), "Bobby".to_string())];
        assert_eq!(mentioned("!challenge @bobby chess", &hinted, true), [id("@bob:hs")]);
        assert_eq!(mentioned("!challenge @b chess", &hinted[1..], false), [id("@bob:hs")]);
        assert!(mentioned("!challenge @b chess", &hinted[1..], true).is_empty());
    }

    #[test]
    fn pills_are_whole_words_and_names_cannot_break_the_html() {
        let e = UserRef::new("@e:hs", "e");
        let tag = UserRef::new("@t:hs", "<b>\u{202E}");
        let text = "Game #1: e2e4 played by e. <b> to move.";
        let (plain, html) = render(&parts(text, &[&e, &tag]));
        assert_eq!(plain, text);
        assert_eq!(
            html,
            "Game #1: e2e4 played by <a href=\"https://matrix.to/#/@e:hs\">e</a>. \
             <a href=\"https://matrix.to/#/@t:hs\">&lt;b&gt;</a> to move."
        );
        let bob = UserRef::new("@bob:hs", "bob");
        let (plain, html) = render(&parts("your move", &[&bob]));
        assert_eq!(plain, "bob: your move");
        assert_eq!(html, "<a href=\"https://matrix.to/#/@bob:hs\">bob</a>: your move");
        assert_eq!(clean_name("\u{2067}evil\u{2069}", "x"), "evil");
        assert_eq!(clean_name("\u{202E}", "@x:hs"), "@x:hs");
    }
}

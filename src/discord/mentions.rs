//! Slash commands named in a text, written as Discord's command mentions.
//!
//! The core writes a command the way it is given in the chat: `/accept #12` where only slash
//! commands reach capabot, in the chat's language. But a person's Discord client shows the
//! commands in the client's own language (a German client lists `/accept` as `/annehmen`), so a
//! German reader of an English chat, or anyone whose client's language differs from the chat's,
//! reads a name the command picker does not show them. A command mention (`</accept:ID>`, or
//! `</ladder join:ID>` for a subcommand) is drawn by each client in its reader's language and
//! opens the command when clicked. Mentions need the ids Discord gave the commands when they were
//! registered, so texts are rewritten only once those are known; until then (and for a word that
//! is no registered command, or a command with subcommands named without one) the text is left as
//! the core wrote it.

use serenity::all::{Command, CommandOptionType};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The registered commands' ids, set once registration has answered; shared by the event
/// handler (answers sent before the core is reached) and the front end (everything else).
pub type Shared = Arc<OnceLock<Mentions>>;

/// What a mention needs of each registered command.
#[derive(Debug, Default)]
pub struct Mentions {
    /// By name: the command's id and its subcommands' names (empty for a command without).
    commands: HashMap<String, (u64, Vec<String>)>,
}

impl Mentions {
    /// From the commands as Discord answered their registration.
    pub fn from_registered(commands: &[Command]) -> Mentions {
        let commands = commands
            .iter()
            .map(|c| {
                let subs = c
                    .options
                    .iter()
                    .filter(|o| o.kind == CommandOptionType::SubCommand)
                    .map(|o| o.name.clone())
                    .collect();
                (c.name.clone(), (c.id.get(), subs))
            })
            .collect();
        Mentions { commands }
    }

    /// `text` with every slash command it names as a mention: a `/` that begins a word (at the
    /// start, after white space or an opening bracket or quote), outside inline code, followed by
    /// a registered command's name and, for a command with subcommands, a space and one of them.
    /// Anything else, `1/2`, `and/or`, an address's path, is left alone.
    pub fn rewrite<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if !text.contains('/') || self.commands.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len() + 64);
        let mut changed = false;
        let mut in_code = false;
        let mut prev: Option<char> = None;
        let mut rest = text;
        while let Some(c) = rest.chars().next() {
            if c == '`' {
                in_code = !in_code;
            }
            if c == '/'
                && !in_code
                && prev.is_none_or(|p| p.is_whitespace() || "([{\"'«„“‘*_".contains(p))
                && let Some((mention, used)) = self.mention_at(&rest[1..])
            {
                out.push_str(&mention);
                rest = &rest[1 + used..];
                prev = Some('>');
                changed = true;
                continue;
            }
            out.push(c);
            prev = Some(c);
            rest = &rest[c.len_utf8()..];
        }
        if changed { Cow::Owned(out) } else { Cow::Borrowed(text) }
    }

    /// The mention for the command named at the start of `after` (the text after a `/`), and how
    /// many bytes of `after` it stands for.
    fn mention_at(&self, after: &str) -> Option<(String, usize)> {
        let name = word(after);
        let (id, subs) = self.commands.get(name)?;
        if subs.is_empty() {
            return Some((format!("</{name}:{id}>"), name.len()));
        }
        let more = after[name.len()..].strip_prefix(' ')?;
        let sub = word(more);
        subs.iter().any(|s| s == sub).then(|| (format!("</{name} {sub}:{id}>"), name.len() + 1 + sub.len()))
    }
}

/// The command-name word at the start of `s` (Discord's names: lower-case letters, digits, `-`
/// and `_`), or "" when a letter of another kind follows it (then it names no command).
fn word(s: &str) -> &str {
    let end =
        s.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')).unwrap_or(s.len());
    match s[end..].chars().next() {
        Some(c) if c.is_alphanumeric() || c == '/' => "",
        _ => &s[..end],
    }
}

/// `text` rewritten by the mentions in `shared` once they are known; as it is before.
pub fn rewrite<'a>(shared: &Shared, text: &'a str) -> Cow<'a, str> {
    match shared.get() {
        Some(m) => m.rewrite(text),
        None => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known() -> Mentions {
        let pairs: [(&str, u64, &[&str]); 4] =
            [("accept", 11, &[]), ("help", 12, &[]), ("ladder", 13, &["join", "challenge"]), ("move", 14, &[])];
        let commands = pairs
            .iter()
            .map(|(name, id, subs)| (name.to_string(), (*id, subs.iter().map(|s| s.to_string()).collect())))
            .collect();
        Mentions { commands }
    }

    #[test]
    fn a_command_becomes_a_mention_with_its_arguments_after_it() {
        let m = known();
        assert_eq!(m.rewrite("Say /help for the list."), "Say </help:12> for the list.");
        assert_eq!(m.rewrite("/accept #12 or /move e4"), "</accept:11> #12 or </move:14> e4");
        assert_eq!(m.rewrite("(/accept)"), "(</accept:11>)");
        assert_eq!(m.rewrite("Join with /ladder join."), "Join with </ladder join:13>.");
        assert_eq!(m.rewrite("Nobody yet: /ladder join chess"), "Nobody yet: </ladder join:13> chess");
        // A text written so already is left as it is (the split measures it, the message writes it).
        let once = m.rewrite("Say /help, then /ladder join.").into_owned();
        assert_eq!(m.rewrite(&once), once);
    }

    #[test]
    fn what_is_no_command_or_not_a_word_is_left_alone() {
        let m = known();
        for text in [
            "a draw is 1/2",
            "and/or",
            "https://example.org/help",
            "/helpful tips",
            "/accepted",
            "/Accept",
            "/unknown",
            "/ladder",
            "/ladder standings",
            "/help/more",
            "`/help` in code",
            "Türkçe/help",
        ] {
            assert_eq!(m.rewrite(text), text, "{text}");
            assert!(matches!(m.rewrite(text), Cow::Borrowed(_)), "{text}");
        }
        assert_eq!(m.rewrite("`/help` or /help"), "`/help` or </help:12>");
    }

    #[test]
    fn nothing_is_rewritten_before_the_ids_are_known() {
        let shared: Shared = Arc::default();
        assert_eq!(rewrite(&shared, "Say /help."), "Say /help.");
        shared.set(known()).expect("set once");
        assert_eq!(rewrite(&shared, "Say /help."), "Say </help:12>.");
    }
}

//! The names a command's options are typed by: each option's own (English) name and its name in
//! every catalogue (`optname-*`, as the help lists the options and Discord shows them), so that
//! what the help shows in any language is read: `tage:3` is `days:3`, `ungewertet` is `casual`,
//! `partie:4` is `#4`; likewise the values that are words (`optvalue-*`: `renk:beyaz` is
//! `color:white`, `gif:aus` is `gif:off`) and the subcommands (`subname-*`: `tournament çekil` is
//! `tournament withdraw`), case aside and with or without their marks. The parsers themselves read
//! only the English words these become.

use super::{CommandSpec, OptionKind, OptionSpec};
use crate::i18n::{Arg, Lang, Msg};
use crate::msg;

/// Lists of words read from the catalogues, each once a key for the process ([`remembered`]).
type Known = std::sync::LazyLock<std::sync::RwLock<std::collections::HashMap<String, &'static [String]>>>;

/// `key`'s list in `known`, made by `make` the first time it is asked for and kept for the
/// process's life (leaked once a key: the keys are the code's own, a few dozen short lists).
fn remembered(known: &Known, key: &str, make: impl FnOnce() -> Vec<String>) -> &'static [String] {
    if let Some(list) = known.read().unwrap_or_else(|e| e.into_inner()).get(key) {
        return list;
    }
    let list: &'static [String] = Vec::leak(make());
    known.write().unwrap_or_else(|e| e.into_inner()).entry(key.to_string()).or_insert(list)
}

/// Every name `o` is known by, lower case: its own, then its name in each catalogue; looked up in
/// the catalogues once an option for the process (every typed command reads them).
pub(super) fn names(o: &OptionSpec) -> &'static [String] {
    static KNOWN: Known = std::sync::LazyLock::new(Default::default);
    remembered(&KNOWN, o.name, || {
        let mut names = vec![o.name.to_string()];
        for lang in Lang::ALL {
            let name = crate::i18n::tr(lang, &format!("optname-{}", o.name), &[]).to_lowercase();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
    })
}

/// `word` as a keyboard without its marks types it, lower case: `acik` for `açık`, `weiss` for
/// `weiß`, `zufallig` for `zufällig` (and, with `german`, `zufaellig`).
fn plain(word: &str, german: bool) -> String {
    let mut out = String::with_capacity(word.len());
    for ch in word.to_lowercase().chars() {
        match ch {
            'ä' | 'ö' | 'ü' if german => {
                out.push(match ch {
                    'ä' => 'a',
                    'ö' => 'o',
                    _ => 'u',
                });
                out.push('e');
            }
            'ß' => out.push_str("ss"),
            'ç' => out.push('c'),
            'ğ' => out.push('g'),
            'ı' => out.push('i'),
            'ş' => out.push('s'),
            'ä' | 'â' | 'à' | 'á' => out.push('a'),
            'ö' | 'ô' => out.push('o'),
            'ü' | 'û' => out.push('u'),
            'é' | 'è' | 'ê' => out.push('e'),
            'î' => out.push('i'),
            // The dot a lower-cased `İ` keeps.
            '\u{307}' => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether `typed` is `word` (a catalogue's), case aside and typed with or without its marks.
pub(crate) fn same_word(typed: &str, word: &str) -> bool {
    let typed = plain(typed, false);
    !typed.is_empty() && (typed == plain(word, false) || typed == plain(word, true))
}

/// Whether `typed` is the word `id` of any catalogue (`word-yes`, `optvalue-off`), as
/// [`same_word`] compares them.
pub(crate) fn said(typed: &str, id: &str) -> bool {
    let typed = plain(typed, false);
    !typed.is_empty() && plain_words(id).contains(&typed)
}

/// The word `id` of every catalogue as [`same_word`] compares it: [`plain`], and with German's
/// `ae`, `oe`, `ue`; looked up and written so once an id for the process (every typed command reads
/// some), as [`names`] are.
fn plain_words(id: &str) -> &'static [String] {
    static KNOWN: Known = std::sync::LazyLock::new(Default::default);
    remembered(&KNOWN, id, || {
        let mut words = Vec::new();
        for lang in Lang::ALL {
            let word = crate::i18n::tr(lang, id, &[]);
            for plain in [plain(&word, false), plain(&word, true)] {
                if !words.contains(&plain) {
                    words.push(plain);
                }
            }
        }
        words
    })
}

/// The words an option of `kind` takes as its value (`white`), each read by its word in any
/// catalogue too (`optvalue-white`: `beyaz`, `weiß`); none where its values are no words.
fn value_words(kind: OptionKind) -> &'static [&'static str] {
    match kind {
        OptionKind::Color => &["white", "black", "random"],
        OptionKind::Days | OptionKind::DaysPerMove => &["none"],
        OptionKind::DaysOrDefault => &["none", "default"],
        OptionKind::Keyed("rated") => &["choice", "always", "never", "default"],
        OptionKind::Choice(words) | OptionKind::KeyedChoice(_, words) => words,
        _ => &[],
    }
}

/// `typed`, a value of an option of `kind`, as the English word the parsers read, where it is
/// that word in some catalogue (`beyaz`, `Weiss` and `white` are `white`).
pub(super) fn english_value(kind: OptionKind, typed: &str) -> Option<&'static str> {
    value_words(kind).iter().copied().find(|w| {
        let (id, also) = (format!("optvalue-{w}"), format!("optvalue-{w}-also"));
        crate::i18n::has(Lang::En, &id) && (said(typed, &id) || crate::i18n::has(Lang::En, &also) && said(typed, &also))
    })
}

/// A value's word in the language the message is read in (`beyaz` for `white`), where the
/// catalogues have one; else as it is.
pub(crate) fn value_name(word: &str) -> Msg {
    let id = format!("optvalue-{word}");
    if crate::i18n::has(Lang::En, &id) { Msg::new(&id, vec![]) } else { Msg::raw(word) }
}

/// `words` as a list in the reader's language, each by its [`value_name`]: `holz, grün, kontrast`.
pub(crate) fn values_listed(words: &[&str]) -> Msg {
    let mut names = words.iter().rev().map(|w| value_name(w));
    let last = names.next().unwrap_or_else(|| Msg::raw(""));
    names.fold(last, |rest, first| msg!("list-more", first = first, rest = rest))
}

/// The options of `c` and of each of its subcommands (which one is meant is the parser's to read).
pub(super) fn all_options(c: &CommandSpec) -> impl Iterator<Item = &'static OptionSpec> {
    c.options.iter().chain(c.subcommands.iter().flat_map(|s| s.options.iter()))
}

/// The word an option of `kind` is typed as with `value` (`days:3`, `#4`; the value itself for an
/// option read by its place among the words); none for a person or a yes/no, which are no text.
pub(super) fn word_of(kind: OptionKind, value: &str) -> Option<String> {
    Some(match kind {
        OptionKind::Days | OptionKind::DaysOrDefault | OptionKind::DaysPerMove => format!("days:{value}"),
        OptionKind::Color => format!("color:{value}"),
        OptionKind::Setup => format!("setup:{value}"),
        OptionKind::Level => format!("level:{value}"),
        OptionKind::Game => format!("#{}", value.trim_start_matches('#')),
        OptionKind::Keyed(k) | OptionKind::KeyedChoice(k, _) => format!("{k}:{value}"),
        OptionKind::Number(r) => format!("{}:{value}", r.key),
        OptionKind::Variant
        | OptionKind::Ladder
        | OptionKind::Move
        | OptionKind::Square
        | OptionKind::Text
        | OptionKind::Count(_)
        | OptionKind::Choice(_) => value.to_string(),
        OptionKind::User | OptionKind::Flag(..) | OptionKind::Switch(_) => return None,
    })
}

/// One word of a command's arguments as its parser reads it, with the word typed where that was
/// another (`tage:3` read as `days:3`), so that a refusal quoting it quotes what was typed.
pub(super) struct Word {
    pub read: String,
    /// What was typed, where it became this one word and not the same.
    typed: Option<String>,
}

/// The names of the word a yes/no option `o` is "no" by, where that word is a name of its own
/// (`rated` of `casual`, `gewertet`): `rated:no` is `casual`.
fn inverse_names(o: &OptionSpec) -> &'static [String] {
    match o.kind {
        OptionKind::Flag(_, no) if !no.is_empty() && crate::i18n::has(Lang::En, &format!("optname-{no}")) => {
            names(&OptionSpec { name: no, ..*o })
        }
        _ => &[],
    }
}

/// The words `typed` stands for among `c`'s arguments (`before`: the word typed before it):
/// `name:value`, with `name` any name of one of its options, is the word that option is typed as
/// (a person as written after the name; a yes/no option its word for yes or no, or none where "no"
/// is leaving it out; a count the words of its subcommand and the number); a yes/no option typed
/// as its own name (`casual`, `decline`) is that word by any of its names. `None`: left to the
/// parser as typed. A yes/no option given neither yes nor no is refused.
fn in_english(
    c: &CommandSpec,
    typed: &str,
    before: Option<&str>,
    sub_named: Option<&str>,
) -> Result<Option<Vec<String>>, Msg> {
    let named = |name: &str| {
        all_options(c).find_map(|o| {
            if names(o).iter().any(|n| n == name) {
                Some((o, false))
            } else {
                inverse_names(o).iter().any(|n| n == name).then_some((o, true))
            }
        })
    };
    let Some((name, value)) = typed.split_once(':') else {
        let flag = named(&typed.to_lowercase()).and_then(|(o, inverse)| match o.kind {
            OptionKind::Flag(yes, _) if yes == o.name && !inverse => Some(vec![yes.to_string()]),
            OptionKind::Flag(_, no) if inverse => Some(vec![no.to_string()]),
            _ => None,
        });
        // A choice typed as its word in any language (`theme holz`; `tournament create isviçre`,
        // only right after `create`, so that a tournament's name keeps its words).
        let choice = || {
            let at_its_place =
                |o: &OptionSpec| match c.subcommands.iter().find(|s| s.options.iter().any(|x| std::ptr::eq(x, o))) {
                    Some(s) => before
                        .is_some_and(|b| s.words.split(' ').next_back().is_some_and(|w| w.eq_ignore_ascii_case(b))),
                    None => true,
                };
            all_options(c)
                .filter(|o| matches!(o.kind, OptionKind::Choice(_)) && at_its_place(o))
                .find_map(|o| english_value(o.kind, typed))
                .map(|w| vec![w.to_string()])
        };
        return Ok(flag.or_else(choice));
    };
    if value.is_empty() {
        return Ok(None);
    }
    let lower = name.to_lowercase();
    let Some((o, inverse)) = named(&lower) else { return Ok(None) };
    Ok(match o.kind {
        OptionKind::User => Some(vec![value.to_string()]),
        OptionKind::Flag(yes, no) => {
            let Some(said) = super::parse::yes_or_no(value) else {
                return Err(msg!("parse-yes-no", option = name, given = value));
            };
            let word = if said != inverse { yes } else { no };
            Some(if word.is_empty() { vec![] } else { vec![word.to_string()] })
        }
        // A count is typed after its subcommand's words (`ladder season 3`): after them it is its
        // number, and where it names its subcommand (`season:3`, `round:2`) it is those words too.
        OptionKind::Count(_) => {
            let sub = c.subcommands.iter().find(|s| s.options.iter().any(|x| std::ptr::eq(x, o)));
            match sub {
                Some(s) if before.is_some_and(|b| s.words.split(' ').next_back() == Some(&*b.to_lowercase())) => {
                    Some(vec![value.to_string()])
                }
                // Only where no other subcommand was named: `round:3` after `create` is no round
                // of a tournament (before, it became "round 3", taken as the new one's name).
                Some(s) if s.name == o.name && sub_named.is_none_or(|n| n == s.name) => {
                    Some(s.words.split(' ').map(str::to_string).chain([value.to_string()]).collect())
                }
                Some(s) if sub_named.is_some_and(|n| n != s.name) => None,
                _ => (lower != o.name).then(|| vec![format!("{}:{value}", o.name)]),
            }
        }
        kind => word_of(kind, english_value(kind, value).unwrap_or(value)).map(|w| vec![w]),
    })
}

/// `args` with each option written by another of its names ([`in_english`]) as the parser of `c`
/// reads it, and a game's (a challenge's, a tournament's) number written after its option's name
/// (`game 4`, `partie #4`) as `#4`.
pub(super) fn read_names(c: &CommandSpec, args: &[&str]) -> Result<Vec<Word>, Msg> {
    let numbered = |name: &str| {
        let name = name.to_lowercase();
        all_options(c).any(|o| o.kind == OptionKind::Game && names(o).contains(&name))
    };
    // After a subcommand that takes free text (a tournament's name, a reason), a name followed by
    // a number is that text's ("Tournament 2025"), not a number to read.
    let free_text = |word: &str| {
        c.subcommands
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case(word) && s.options.iter().any(|o| o.kind == OptionKind::Text))
    };
    // The subcommand named first, as its first word (what a count's key may stand for depends on it).
    let subcommand = |word: &str| {
        c.subcommands.iter().find(|s| s.words.split(' ').next().is_some_and(|w| w.eq_ignore_ascii_case(word)))
    };
    // A subcommand by its name in any catalogue (`çekil`, `zurückziehen`: withdraw), as its first
    // word only (after a `#N` or a person), so that a name or a reason later keeps its words.
    // (The catalogues' words are looked up once a process, as [`said`] keeps them.)
    let localized_sub = |word: &str| c.subcommands.iter().find(|s| said(word, &c.subcommand_name_id(s)));
    let mut first = true;
    let mut sub_named: Option<&str> = None;
    let mut in_text = false;
    let mut words = Vec::with_capacity(args.len());
    let mut before = None;
    let mut rest = args;
    while let Some((a, after)) = rest.split_first() {
        if let Some(n) = after.first().map(|n| n.strip_prefix('#').unwrap_or(n))
            && !in_text
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && numbered(a)
        {
            words.push(Word { read: format!("#{n}"), typed: None });
            before = after.first().copied();
            rest = &after[1..];
            continue;
        }
        if first
            && !a.starts_with(['#', '@', '<'])
            && !a.contains(':')
            && subcommand(a).is_none()
            && let Some(s) = localized_sub(a)
        {
            first = false;
            sub_named = Some(s.name);
            in_text |= s.options.iter().any(|o| o.kind == OptionKind::Text);
            words.extend(s.words.split(' ').map(|w| Word { read: w.to_string(), typed: None }));
            // As its English words stand before what follows (`create` before a system).
            before = s.words.split(' ').next_back();
            rest = after;
            continue;
        }
        first &= a.starts_with(['#', '@', '<']);
        in_text |= free_text(a);
        if sub_named.is_none() {
            sub_named = subcommand(a).map(|s| s.name);
        }
        match in_english(c, a, before, sub_named)? {
            Some(read) => {
                let one = read.len() == 1 && read[0] != *a;
                words.extend(read.into_iter().map(|read| Word { read, typed: one.then(|| a.to_string()) }));
            }
            None => words.push(Word { read: a.to_string(), typed: None }),
        }
        before = Some(*a);
        rest = after;
    }
    Ok(words)
}

/// `refusal` with each word it quotes (`given`, `first`, `second`) as it was typed where the
/// parser read it by another name (`'tage:3'`, not `'days:3'`): the first word read so, or for
/// `second` the last (`days:5 gün:5` is quoted `'days:5'` and `'gün:5'`).
pub(super) fn quoted_as_typed(mut refusal: Msg, words: &[Word]) -> Msg {
    for (key, value) in &mut refusal.args {
        let Arg::Str(quoted) = value else { continue };
        let mut read_so = words.iter().filter(|w| w.read == *quoted);
        let word = match key.as_str() {
            "given" | "first" => read_so.next(),
            "second" => read_so.next_back(),
            _ => None,
        };
        if let Some(typed) = word.and_then(|w| w.typed.as_ref()) {
            *quoted = typed.clone();
        }
    }
    refusal
}

/// The names of `c`'s options as its help lists them, in the language the message is read in:
/// `opponent, variant, days, …`.
pub(super) fn listed(c: &CommandSpec) -> Msg {
    let mut names = c.options.iter().rev().map(|o| Msg::new(&format!("optname-{}", o.name), vec![]));
    let last = names.next().unwrap_or_else(|| Msg::raw(""));
    names.fold(last, |rest, first| msg!("list-more", first = first, rest = rest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::command::{COMMANDS, parse, spec};

    /// Each name a command's options are typed by (in any catalogue, and the key a value is typed
    /// with, `lang:` of `language`) names one option of the command (with its subcommands'), and
    /// is one word; a name two subcommands' options share is typed alike in both.
    #[test]
    fn no_two_options_of_a_command_share_a_name_in_any_language() {
        for c in COMMANDS {
            let mut seen: Vec<(String, &OptionSpec)> = Vec::new();
            for o in all_options(c) {
                let key = word_of(o.kind, "").and_then(|w| w.strip_suffix(':').map(str::to_string));
                for name in names(o).iter().cloned().chain(key) {
                    assert!(
                        !name.is_empty() && !name.contains([':', '#']) && !name.contains(char::is_whitespace),
                        "{} {}: '{name}'",
                        c.name,
                        o.name
                    );
                    match seen.iter().find(|(n, _)| *n == name) {
                        Some((_, other)) => assert!(
                            other.name == o.name && word_of(other.kind, "3") == word_of(o.kind, "3"),
                            "{}: '{name}' names {} and {}",
                            c.name,
                            other.name,
                            o.name
                        ),
                        None => seen.push((name, o)),
                    }
                }
            }
        }
    }

    /// An option is read by the names the help and Discord show in each language, and by its own
    /// (before: `tage:3` was an unknown option, `ungewertet` no variant, `partie:2` not understood).
    #[test]
    fn options_are_read_by_their_names_in_every_language() {
        for (typed, english) in [
            (
                "challenge @bob chess tage:3 farbe:black aufstellung:5 ungewertet",
                "challenge @bob chess days:3 color:black setup:5 casual",
            ),
            ("c @bob Gün:3 renk:white puansız varyant:chess", "challenge @bob chess days:3 color:white casual"),
            ("challenge gegner:@bob variant:chess", "challenge @bob chess"),
            ("play variante:chess stufe:2", "play chess level:2"),
            ("accept herausforderung:4", "accept #4"),
            ("accept meydan-okuma 4", "accept #4"),
            ("draw partie:2 ablehnen", "draw #2 decline"),
            ("takeback oyun 3 reddet", "takeback #3 decline"),
            ("resign game 1", "resign #1"),
            ("pgn Partie #3 analizli", "pgn #3 analysed"),
            ("move zug:e4 partie:1", "move e4 #1"),
            (
                "settings präfix:? sprache:tr design:green tage:5 topluluk",
                "settings prefix:? lang:tr theme:green days:5 community",
            ),
            ("settings dil:de tema:wood", "settings lang:de theme:wood"),
            ("rating genel", "rating global"),
            (
                "tournament create swiss runden:5 anmeldung:2 Winter Cup",
                "tournament create swiss rounds:5 signup:2 Winter Cup",
            ),
            ("tournament turnier 4 join", "tournament #4 join"),
            ("ladder create chess tage:3 reichweite:4 wartezeit:2", "ladder create chess days:3 reach:4 wait:2"),
        ] {
            assert_eq!(parse(typed), parse(english), "{typed}");
            assert!(parse(english).is_ok(), "{english}");
        }
        // A word that only looks like a name stays as typed.
        assert_eq!(parse("rules variante"), Ok(super::super::Command::Rules(Some("variante".into()))));
        assert!(parse("lang sprache:").is_ok() && parse("challenge @bob partie:2").is_err());
    }

    /// Every option of every command (and subcommand), typed `name:value` by its name in any
    /// language, is read as the same option given to the slash command (before: `casual:yes`,
    /// `decline:yes`, `global:yes`, `analysed:yes`, `community:yes`, `dm:on` and `season:2` after
    /// `ladder season` were refused, though the help lists them).
    #[test]
    fn every_option_the_help_lists_is_read_typed_as_name_value() {
        use super::super::{OptionValue, from_options};
        let bob = crate::bot::UserRef::new("u2", "Bob");
        // A value of each kind: given to the slash command, and as typed after `name:`.
        let sample = |kind: OptionKind, yes: bool, lang: Lang| -> (OptionValue, String) {
            let text = |t: &str| (OptionValue::Text(t.into()), t.to_string());
            let number = |n: i64| (OptionValue::Integer(n), n.to_string());
            match kind {
                OptionKind::User => (OptionValue::User(bob.clone()), "@bob".into()),
                OptionKind::Flag(..) | OptionKind::Switch(_) => {
                    let word = crate::i18n::tr(lang, if yes { "word-yes" } else { "word-no" }, &[]);
                    (OptionValue::Bool(yes), word)
                }
                OptionKind::Variant | OptionKind::Ladder | OptionKind::Keyed("variant") => text("chess"),
                OptionKind::Keyed("prefix") => text("?"),
                OptionKind::Keyed("rated") => text("always"),
                OptionKind::Days | OptionKind::DaysOrDefault | OptionKind::DaysPerMove => number(3),
                OptionKind::Color => text("black"),
                OptionKind::Setup => text("5"),
                OptionKind::Level | OptionKind::Count(_) => number(2),
                OptionKind::Game => number(4),
                OptionKind::Move => text("e4"),
                OptionKind::Square => text("g1"),
                OptionKind::Number(r) => number(i64::from(r.min.max(2))),
                OptionKind::Choice(words) | OptionKind::KeyedChoice(_, words) => text(words[0]),
                OptionKind::Text | OptionKind::Keyed(_) => text("word"),
            }
        };
        let mut checked = 0;
        for c in COMMANDS {
            let subs: Vec<Option<&super::super::SubcommandSpec>> = match c.subcommands {
                [] => vec![None],
                subs => subs.iter().map(Some).collect(),
            };
            for sub in subs {
                let options = sub.map_or(c.options, |s| s.options);
                for o in options {
                    for lang in Lang::ALL {
                        for yes in [true, false] {
                            let name = crate::i18n::tr(lang, &format!("optname-{}", o.name), &[]);
                            // What the option needs beside it: the options the command requires,
                            // and a Swiss for its rounds.
                            let mut given = Vec::new();
                            let mut typed = vec![c.name.to_string()];
                            typed.extend(sub.map(|s| s.words.to_string()));
                            for other in options {
                                if other.name == o.name {
                                    let (value, text) = sample(o.kind, yes, lang);
                                    given.push((o.name, value));
                                    typed.push(format!("{name}:{text}"));
                                } else if other.required || (o.name == "rounds" && other.name == "system") {
                                    let (value, text) = sample(other.kind, true, Lang::En);
                                    let text = if other.name == "system" { "swiss".into() } else { text };
                                    let value =
                                        if other.name == "system" { OptionValue::Text(text.clone()) } else { value };
                                    given.push((other.name, value));
                                    typed.push(format!("{}:{text}", other.name));
                                }
                            }
                            let typed = typed.join(" ");
                            let slash = from_options(c.name, sub.map(|s| s.name), &given)
                                .unwrap_or_else(|e| panic!("/{} {:?} {given:?}: {e}", c.name, sub.map(|s| s.name)));
                            assert_eq!(parse(&typed), Ok(slash.0), "{typed}");
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
        // `rated` is the other word of `casual`: `rated:no` is casual, by its name in any language.
        for (typed, english) in [
            ("challenge @bob chess rated:no", "challenge @bob chess casual"),
            ("challenge @bob chess gewertet:nein", "challenge @bob chess casual"),
            ("challenge @bob chess puanlı:evet", "challenge @bob chess rated"),
            ("challenge @bob chess gewertet", "challenge @bob chess rated"),
            ("challenge @bob chess casual:no", "challenge @bob chess rated"),
            // A count names its subcommand without its words before it.
            ("ladder saison:2 chess", "ladder season 2 chess"),
            ("tournament #4 tur:3", "tournament #4 round 3"),
        ] {
            assert_eq!(parse(typed), parse(english), "{typed}");
            assert!(parse(english).is_ok(), "{english}");
        }
        // Neither yes nor no: refused, quoting the option as typed.
        let refused = parse("challenge @bob chess Ungewertet:vielleicht").unwrap_err();
        assert_eq!(refused.answer("!").render(Lang::De), "Ungewertet ist ja oder nein, nicht 'vielleicht'");
    }

    /// A refusal of an option typed by another of its names quotes it as it was typed, and names
    /// it as the reader's language does (before: `tage:3 tage:5` was "days is given twice
    /// ('days:3' and 'days:5')", and `tage:4` "days muss …").
    #[test]
    fn refusals_quote_options_as_typed_and_name_them_in_the_readers_language() {
        let answer = |typed: &str, lang: Lang| parse(typed).unwrap_err().answer("!").render(lang);
        for (typed, lang, refusal) in [
            ("challenge @bob chess tage:4", Lang::De, "tage muss 1, 2, 3, 5, 7, 10, 14 oder keine sein, nicht '4'"),
            (
                "challenge @bob chess tage:3 tage:5",
                Lang::De,
                "tage ist zweimal angegeben ('tage:3' und 'tage:5'); gib es nur einmal an",
            ),
            (
                "challenge @bob chess days:5 gün:5",
                Lang::De,
                "tage ist zweimal angegeben ('days:5' und 'gün:5'); gib es nur einmal an",
            ),
            (
                "challenge @bob chess puansız puanlı",
                Lang::Tr,
                "puanlı ya da puansız sözcüklerinden birini bir kez yaz, ikisini birden değil ('puansız' ve 'puanlı')",
            ),
            ("challenge @bob chess renk:mor", Lang::Tr, "renk beyaz, siyah ya da rastgele olmalı, 'mor' değil"),
            ("play chess seviye:9", Lang::Tr, "seviye 1 ile 8 arası olmalı, '9' değil"),
            (
                "tournament create swiss runden:99",
                Lang::De,
                "runden muss eine ganze Zahl von 1 bis 63 sein, nicht '99'",
            ),
            ("settings alt-başlık:belki", Lang::Tr, "alt-başlık açık, kapalı ya da varsayılan olur, 'belki' değil"),
            (
                "accept herausforderung:abc",
                Lang::De,
                "accept erwartet höchstens eine Herausforderungsnummer wie #4, nicht 'herausforderung:abc'",
            ),
            ("challenge @bob chess days:4", Lang::En, "days must be one of 1, 2, 3, 5, 7, 10, 14 or none, not '4'"),
        ] {
            assert_eq!(answer(typed, lang), refusal, "{typed}");
        }
    }

    /// An option's value is read by its word in any language, case aside and typed with or
    /// without its marks (before: `renk:beyaz`, `gif:kapalı`, `design:holz`, `notify aus` and
    /// `özel-mesaj:kapalı` were refused, though the help in those languages names them).
    #[test]
    fn option_values_are_read_in_every_language() {
        for (typed, english) in [
            ("challenge @bob chess renk:beyaz", "challenge @bob chess color:white"),
            ("challenge @bob chess renk:SİYAH", "challenge @bob chess color:black"),
            ("challenge @bob chess color:rastgele", "challenge @bob chess color:random"),
            ("challenge @bob chess farbe:weiß", "challenge @bob chess color:white"),
            ("challenge @bob chess farbe:Weiss", "challenge @bob chess color:white"),
            ("play chess farbe:zufällig", "play chess color:random"),
            ("play chess farbe:zufaellig", "play chess color:random"),
            ("play chess farbe:zufallig gün:yok", "play chess color:random days:none"),
            ("settings gif:kapalı alt-başlık:acik web:aus", "settings gif:off thread:on web:off"),
            ("settings design:holz", "settings theme:wood"),
            ("settings tema:yeşil dil:varsayılan", "settings theme:green lang:default"),
            ("settings tema:karsitlik tage:keine", "settings theme:contrast days:none"),
            ("settings community puanlı:daima", "settings community rated:always"),
            ("settings community gewertet:nie", "settings community rated:never"),
            ("settings community gewertet:Wahl", "settings community rated:choice"),
            ("settings gif:standard", "settings gif:default"),
            ("notify kapalı", "notify off"),
            ("notify aus", "notify off"),
            ("notify açık", "notify on"),
            ("notify özel-mesaj:kapalı", "notify off"),
            ("notify direktnachricht:an", "notify on"),
            ("notify ein", "notify on"),
            ("settings thread:Ein gif:aktif web:pasif", "settings thread:on gif:on web:off"),
            ("challenge @bob chess puansız:evet", "challenge @bob chess casual"),
            ("challenge @bob chess puansız:hayir", "challenge @bob chess rated"),
            ("theme holz", "theme wood"),
            ("theme Yeşil", "theme green"),
            ("theme varsayılan", "theme default"),
            ("lang varsayilan", "lang default"),
            ("tournament create isviçre-sistemi chess Kış Kupası", "tournament create swiss chess Kış Kupası"),
            ("tournament create doppelrunde chess Cup", "tournament create double chess Cup"),
        ] {
            assert!(parse(english).is_ok(), "{english}");
            assert_eq!(parse(typed), parse(english), "{typed}");
        }
        // A value's word is read only as that option's value: not as a variant, a person or a
        // tournament's name, nor as another option's value.
        match parse("challenge @bob beyaz") {
            Ok(super::super::Command::Challenge(a)) => assert_eq!((a.variant, a.color), (Some("beyaz".into()), None)),
            other => panic!("{other:?}"),
        }
        assert!(parse("settings gif:holz").is_err());
        match parse("tournament create chess Schweizer-System Open") {
            Ok(super::super::Command::Tournament(super::super::TournamentCmd::Create { name, .. })) => {
                assert_eq!(name, "Schweizer-System Open")
            }
            other => panic!("{other:?}"),
        }
    }

    /// A subcommand is read by the name its help and Discord show in each language, as the first
    /// word after the command (before: `tournament çekil` and `tournament zurückziehen` were
    /// unknown actions, though the help names them); later words keep theirs.
    #[test]
    fn subcommands_are_read_by_their_names_in_every_language() {
        use super::super::{Command, LadderCmd, TournamentCmd};
        for (typed, english) in [
            ("tournament çekil", "tournament withdraw"),
            ("tournament #3 Zurückziehen", "tournament #3 withdraw"),
            ("tournament turnier 3 cekil", "tournament #3 withdraw"),
            ("tournament katıl", "tournament join"),
            ("tournament kreuztabelle", "tournament crosstable"),
            ("ladder meydan-oku @bob chess", "ladder challenge @bob chess"),
            ("ladder sezonu-kapat", "ladder season close"),
            ("ladder saison 2 chess", "ladder season 2 chess"),
            ("tournament oluştur isviçre-sistemi chess Kış Kupası", "tournament create swiss chess Kış Kupası"),
            ("tournament erstellen doppelrunde tage:3 Cup", "tournament create double days:3 Cup"),
        ] {
            assert!(parse(english).is_ok(), "{english}");
            assert_eq!(parse(typed), parse(english), "{typed}");
        }
        match parse("tournament create swiss chess Katıl Cup") {
            Ok(Command::Tournament(TournamentCmd::Create { name, .. })) => assert_eq!(name, "Katıl Cup"),
            other => panic!("{other:?}"),
        }
        match parse("ladder undo 5 çekil") {
            Ok(Command::Ladder(LadderCmd::Undo { reason, .. })) => assert_eq!(reason, "çekil"),
            other => panic!("{other:?}"),
        }
    }

    /// A refusal of a value lists the values in the reader's language, and quotes the option as
    /// it was typed (before: "renk white, black ya da random olmalı", "gif ist on, off oder default").
    #[test]
    fn refusals_of_values_list_them_in_the_readers_language() {
        let answer = |typed: &str, lang: Lang| parse(typed).unwrap_err().answer("!").render(lang);
        for (typed, lang, refusal) in [
            ("challenge @bob chess farbe:Lila", Lang::De, "farbe muss weiß, schwarz oder zufällig sein, nicht 'Lila'"),
            ("challenge @bob chess color:purple", Lang::En, "color must be white, black or random, not 'purple'"),
            (
                "challenge @bob chess renk:beyaz renk:siyah",
                Lang::Tr,
                "renk iki kez verilmiş ('renk:beyaz' ve 'renk:siyah'); bir kez ver",
            ),
            ("settings gif:vielleicht", Lang::De, "gif ist an, aus oder standard, nicht 'vielleicht'"),
            ("notify belki", Lang::Tr, "notify yanına açık ya da kapalı alır, 'belki' değil"),
            (
                "settings tema:mor",
                Lang::Tr,
                "'mor' diye bir tahta teması bilmiyorum; temalar: ahşap, yeşil, karşıtlık (karşıtlık renk körü okurlar \
                 içindir); varsayılan ise seçim yokken geçerli olana döner",
            ),
        ] {
            assert_eq!(answer(typed, lang), refusal, "{typed}");
        }
    }

    /// Every usage line of every language names its options by names the parser reads for that
    /// command, and each word value it shows (`renk:beyaz|siyah`) is read (before: the Turkish
    /// and German help showed `days:N`, `color:white|black|random`).
    #[test]
    fn every_usage_line_names_options_the_parser_reads() {
        let mut checked = 0;
        for c in COMMANDS {
            for lang in Lang::ALL {
                let usage = c.usage(lang);
                let words = usage.split(|ch: char| ch.is_whitespace() || "[]()".contains(ch));
                // Not a label (`(create: …)`), nor `:default` after them.
                for word in words.filter(|w| w.contains(':') && !w.starts_with(':') && !w.ends_with(':')) {
                    let (name, values) = word.split_once(':').unwrap();
                    let option = all_options(c).find(|o| {
                        let key = word_of(o.kind, "").and_then(|w| w.strip_suffix(':').map(str::to_string));
                        names(o).iter().chain(key.as_ref()).any(|n| *n == name.to_lowercase())
                    });
                    let Some(o) = option else {
                        panic!("usage-{} ({}): '{name}:' is no option of {}", c.name, lang.code(), c.name)
                    };
                    // In the language's own words: its name, and each value's word.
                    let own = crate::i18n::tr(lang, &format!("optname-{}", o.name), &[]);
                    assert!(
                        lang == Lang::En || name == own,
                        "usage-{} ({}): '{name}:', not '{own}:'",
                        c.name,
                        lang.code()
                    );
                    for value in values.split('|') {
                        if let Some(w) = english_value(o.kind, value) {
                            let own = crate::i18n::tr(lang, &format!("optvalue-{w}"), &[]);
                            assert_eq!(value, own, "usage-{} ({}): {name}:{value}", c.name, lang.code());
                        }
                    }
                    // Each value that is a word (not a placeholder such as N or NAME), typed.
                    for value in values.split('|').filter(|v| v.chars().all(|ch| ch.is_lowercase() || ch == '-')) {
                        let before = match c.name {
                            "challenge" => "@bob chess ",
                            _ => "",
                        };
                        let typed = format!("{} {before}{name}:{value}", c.name);
                        assert!(
                            parse(&typed).is_ok(),
                            "usage-{} ({}): {typed}: {:?}",
                            c.name,
                            lang.code(),
                            parse(&typed)
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 40, "{checked}");
        // The actions the usage of `ladder` and `tournament` lists, each read as one.
        for (c, lang) in
            [("ladder", Lang::Tr), ("ladder", Lang::De), ("tournament", Lang::Tr), ("tournament", Lang::De)]
        {
            let usage = spec(c).unwrap().usage(lang);
            let actions = usage.split(['[', ']']).find(|part| part.contains('|') && !part.starts_with('#')).unwrap();
            for action in actions.split('|').map(|a| a.split(' ').next().unwrap()) {
                let answer = parse(&format!("{c} {action}")).map_err(|e| e.answer("!").render(Lang::En));
                assert!(
                    !answer.as_ref().is_err_and(|e| e.starts_with("Unknown")),
                    "usage-{c} ({}): {action}: {answer:?}",
                    lang.code()
                );
            }
        }
        // The words shown alone (`notify açık|kapalı`, `theme holz|…`) are read too.
        for (c, lang) in [("notify", Lang::Tr), ("notify", Lang::De), ("theme", Lang::Tr), ("theme", Lang::De)] {
            let usage = spec(c).unwrap().usage(lang);
            for value in usage.trim_matches(['[', ']']).split('|') {
                let english = parse(&format!("{c} {value}"));
                assert!(
                    matches!(english, Ok(super::super::Command::Notify(Some(_))))
                        || matches!(&english, Ok(super::super::Command::Theme(Some(t))) if crate::render::Theme::by_name(t).is_some() || t == "default"),
                    "{c} {value}: {english:?}"
                );
            }
        }
    }

    /// An unknown option is answered with the options of the command typed, as its help lists them
    /// in the reader's language (before: `days:N, color:…, setup:N, level:N` for both `challenge`
    /// and `play`, in English words).
    #[test]
    fn an_unknown_option_is_answered_with_the_commands_own_options() {
        let answer = |typed: &str, lang: Lang| parse(typed).unwrap_err().answer("!").render(lang);
        assert_eq!(
            answer("challenge @bob chess tempo:3", Lang::De),
            "Unbekannte Option 'tempo'; die Optionen von !challenge sind gegner, variante, tage, farbe, aufstellung, \
             ungewertet"
        );
        assert_eq!(
            answer("challenge @bob chess tempo:3", Lang::En),
            "Unknown option 'tempo'; the options of !challenge are opponent, variant, days, color, setup, casual"
        );
        assert_eq!(
            answer("play chess süre:3", Lang::Tr),
            "'süre' diye bir seçenek yok; !play seçenekleri: varyant, seviye, gün, renk, dizilim"
        );
    }

    /// What the names must not take (a review of stop 103): a count typed with its own key stays
    /// readable (`round:2` was read as a tournament's number), free text keeps its words and
    /// numbers (`Tournament 2025` was read as tournament #2025 and the name lost), and castling
    /// typed with zeros is a move, not a game's number (`move 00` was "there is no game #00").
    #[test]
    fn keys_free_text_and_zeros_are_read_as_before() {
        use super::super::{Command, LadderCmd, TournamentCmd};
        assert_eq!(parse("tournament round:2"), parse("tournament round 2"));
        assert_eq!(parse("tournament runde:2"), parse("tournament round 2"));
        // After another subcommand a count's key is no round: refused as typed, not made part of
        // a new tournament's name (before: "round 3 Test").
        for typed in ["round:3", "tur:3"] {
            match parse(&format!("tournament create swiss chess {typed} days:1 Test")) {
                // Quoted as typed (its key before the colon).
                Err(e) => {
                    assert!(format!("{e:?}").contains(&format!("{:?}", &typed[..typed.len() - 2])), "{typed}: {e:?}")
                }
                other => panic!("{typed}: {other:?}"),
            }
        }
        assert!(matches!(
            parse("tournament round 2"),
            Ok(Command::Tournament(TournamentCmd::Show { round: Some(2), .. }))
        ));
        match parse("tournament create swiss chess Tournament 2025") {
            Ok(Command::Tournament(TournamentCmd::Create { name, .. })) => assert_eq!(name, "Tournament 2025"),
            other => panic!("{other:?}"),
        }
        match parse("ladder undo 5 game 3 was a mistake") {
            Ok(Command::Ladder(LadderCmd::Undo { reason, .. })) => assert_eq!(reason, "game 3 was a mistake"),
            other => panic!("{other:?}"),
        }
        for castle in ["00", "000"] {
            assert_eq!(parse(&format!("move {castle}")), Ok(Command::Move { game: None, text: castle.into() }));
        }
        assert_eq!(parse("move 1 e4"), Ok(Command::Move { game: Some(1), text: "e4".into() }));
    }

    /// `said`, which reads the catalogues once an id, answers as comparing with each catalogue's
    /// word does, for each word typed as any catalogue writes it, with other letters' case, without
    /// its marks or with German's `ae`, and for words that are none.
    #[test]
    fn said_answers_as_each_catalogues_word() {
        let ids = [
            "word-yes",
            "word-no",
            "optvalue-on",
            "optvalue-off",
            "optvalue-default",
            "optvalue-white",
            "optvalue-random",
            "optvalue-green",
        ];
        let ids = ids.iter().map(|id| id.to_string()).chain(
            value_words(OptionKind::Choice(crate::bot::command::SYSTEMS)).iter().map(|w| format!("optvalue-{w}")),
        );
        let mut checked = 0;
        for id in ids {
            let mut typed: Vec<String> = vec!["".into(), "maybe".into(), "#4".into()];
            for lang in Lang::ALL {
                let word = crate::i18n::tr(lang, &id, &[]);
                typed.extend([word.to_uppercase(), plain(&word, false), plain(&word, true), word]);
            }
            for t in &typed {
                let each = Lang::ALL.iter().any(|&l| same_word(t, &crate::i18n::tr(l, &id, &[])));
                assert_eq!(said(t, &id), each, "{id}: '{t}'");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked}");
    }
}

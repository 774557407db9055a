//! The catalogues against each other and against the code: the same ids and arguments in every
//! language, every id the code uses present, every argument a message takes given, and no
//! sentence left in the core outside the catalogues.

use super::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Message id → the variables (`$name`) it uses, from one language's catalogue texts.
fn messages(lang: Lang) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, texts) in CATALOGUES {
        let mut current: Option<String> = None;
        for line in texts[lang.index()].lines() {
            let starts_message = line.chars().next().is_some_and(|c| c.is_ascii_lowercase());
            if starts_message && let Some((id, _)) = line.split_once(" =") {
                assert!(!out.contains_key(id.trim()), "{} defines {} twice", lang.code(), id);
                current = Some(id.trim().to_string());
                out.insert(id.trim().to_string(), BTreeSet::new());
            } else if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            if let Some(id) = &current {
                let vars = out.get_mut(id).expect("current message");
                for piece in line.split('$').skip(1) {
                    let name: String = piece.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    vars.insert(name);
                }
            }
        }
    }
    out
}

#[test]
fn every_catalogue_has_the_same_ids_and_arguments_as_the_english() {
    let en = messages(Lang::En);
    for lang in Lang::ALL.into_iter().filter(|l| *l != Lang::En) {
        let other = messages(lang);
        let code = lang.code();
        let only_en: Vec<&String> = en.keys().filter(|k| !other.contains_key(*k)).collect();
        let only_other: Vec<&String> = other.keys().filter(|k| !en.contains_key(*k)).collect();
        assert!(only_en.is_empty() && only_other.is_empty(), "only in en: {only_en:?}; only in {code}: {only_other:?}");
        for (id, vars) in &en {
            assert_eq!(vars, &other[id], "message {id}: arguments differ between en and {code}");
        }
    }
    assert!(en.len() > 100, "the catalogues were read ({} messages)", en.len());
}

/// Players never see the rulings' ids (C1–C16): a message says the rule itself (before: "(C8)").
#[test]
fn no_message_cites_a_ruling_id() {
    for lang in Lang::ALL {
        for (name, texts) in CATALOGUES {
            for line in texts[lang.index()].lines().filter(|l| !l.starts_with('#')) {
                let cites =
                    line.match_indices("(C").any(|(i, _)| line[i + 2..].starts_with(|c: char| c.is_ascii_digit()));
                assert!(!cites, "{name}.ftl ({}): {line}", lang.code());
            }
        }
    }
}

#[test]
fn every_catalogue_parses_and_every_message_renders() {
    for lang in Lang::ALL {
        for (name, texts) in CATALOGUES {
            if let Err((_, errors)) = FluentResource::try_new(texts[lang.index()].to_string()) {
                panic!("{name}.ftl ({}) has syntax errors: {errors:?}", lang.code());
            }
        }
        for (id, vars) in messages(lang) {
            assert!(has(lang, &id), "{id} is not in the {} bundle", lang.code());
            let args: Vec<(&str, Arg)> = vars.iter().map(|v| (v.as_str(), Arg::Num(2))).collect();
            let text = format(lang, &id, &args).unwrap_or_else(|e| panic!("{id} ({}): {e}", lang.code()));
            assert!(!text.contains('\u{2068}') && !text.contains('\u{2069}'), "{id}: isolation marks");
        }
    }
}

#[test]
fn plurals_and_languages_come_from_fluent() {
    assert_eq!(tr(Lang::En, "days-to-reply", &[("count", Arg::Num(1))]), "1 day to reply.");
    assert_eq!(tr(Lang::En, "days-to-reply", &[("count", Arg::Num(3))]), "3 days to reply.");
    assert_eq!(tr(Lang::Tr, "days-to-reply", &[("count", Arg::Num(3))]), "Yanıt için 3 gün var.");
    assert_eq!(with_lang(Lang::Tr, || crate::t!("check")), "Şah!");
    assert_eq!(crate::t!("check"), "Check!", "the language is restored after with_lang");
    let m = crate::msg!("game-none", id = 7);
    assert_eq!(
        (m.render(Lang::En), m.render(Lang::Tr)),
        ("There is no game #7.".into(), "#7 numaralı oyun yok.".into())
    );
    // Integers past 2^53 are written as the integers they are, not as rounded floats.
    for (n, written) in [(i64::MAX, "9223372036854775807"), (-(1 << 60) - 1, "-1152921504606846977")] {
        assert_eq!(crate::msg!("game-none", id = n).render(Lang::En), format!("There is no game #{written}."));
    }
    assert_eq!(tr(Lang::En, "days-to-reply", &[("count", Arg::Num(1 << 53))]), "9007199254740992 days to reply.");
    assert_eq!(Lang::parse("tr-TR"), Some(Lang::Tr));
    assert_eq!(Lang::parse("en_GB"), Some(Lang::En));
    assert_eq!(Lang::parse("de-AT"), Some(Lang::De));
    assert_eq!(Lang::parse("fr"), None);
    // A language's name as people write it (`lang turkish`, `lang Türkçe`, `lang İngilizce`,
    // `lang Deutsch`).
    for (name, lang) in [
        ("turkish", Lang::Tr),
        ("Türkçe", Lang::Tr),
        ("English", Lang::En),
        ("İngilizce", Lang::En),
        ("Deutsch", Lang::De),
        ("german", Lang::De),
    ] {
        assert_eq!(Lang::parse(name), Some(lang), "{name}");
    }
}

#[test]
#[should_panic(expected = "game-none")]
fn a_missing_argument_panics_in_tests() {
    crate::t!("game-none");
}

/// Source files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source dir").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its unit tests (`#[cfg(test)] mod tests` at the bottom).
fn code_of(text: &str) -> &str {
    text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text)
}

/// Each lookup in the code: `t!`, `tl!` and `msg!` calls with their macro, message id, the argument
/// names written in them and the arguments' text.
fn lookups(code: &str) -> Vec<(&'static str, String, BTreeSet<String>, String)> {
    let mut out = Vec::new();
    for mac in ["t!(", "tl!(", "msg!("] {
        let mut rest = code;
        while let Some(at) = rest.find(mac) {
            let before = rest[..at].chars().last();
            rest = &rest[at + mac.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            // The call's text up to its closing parenthesis.
            let mut depth = 1;
            let mut end = 0;
            let mut in_str = false;
            let mut prev = ' ';
            for (i, c) in rest.char_indices() {
                match c {
                    '"' if prev != '\\' => in_str = !in_str,
                    '(' | '[' | '{' if !in_str => depth += 1,
                    ')' | ']' | '}' if !in_str => {
                        depth -= 1;
                        if depth == 0 {
                            end = i;
                            break;
                        }
                    }
                    _ => {}
                }
                prev = c;
            }
            let call = &rest[..end];
            let Some(open) = call.find('"') else { continue };
            let Some(close) = call[open + 1..].find('"') else { continue };
            let id = call[open + 1..open + 1 + close].to_string();
            // Argument names: `name =` at the call's own level, after the id.
            let mut names = BTreeSet::new();
            let tail = &call[open + close + 2..];
            let mut depth = 0;
            let mut in_str = false;
            let mut prev = ' ';
            let mut word = String::new();
            for c in tail.chars() {
                match c {
                    '"' if prev != '\\' => in_str = !in_str,
                    '(' | '[' | '{' if !in_str => depth += 1,
                    ')' | ']' | '}' if !in_str => depth -= 1,
                    ',' if !in_str && depth == 0 => word.clear(),
                    '=' if !in_str && depth == 0 && prev != '=' && prev != '!' && prev != '<' && prev != '>' => {
                        let w = word.trim();
                        if !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                            names.insert(w.to_string());
                        }
                        word.clear();
                    }
                    _ if depth == 0 && !in_str => word.push(c),
                    _ => {}
                }
                prev = c;
            }
            out.push((mac, id, names, tail.to_string()));
        }
    }
    out
}

/// The sources that look messages up: this crate's (the core) and the host's and front ends' (the
/// crate `capabot`, in the workspace's `src/`).
fn source_files() -> Vec<PathBuf> {
    let core = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&core.join("src"), &mut files);
    let core_files = files.len();
    rust_files(&core.join("../src"), &mut files);
    assert!(files.len() > core_files + 20, "the front ends' sources are found beside the core");
    files.retain(|p| !p.ends_with("i18n.rs") && !p.ends_with("i18n/tests.rs"));
    files
}

#[test]
fn every_id_the_code_uses_exists_with_exactly_the_arguments_it_takes() {
    let en = messages(Lang::En);
    let mut seen = 0;
    for file in source_files() {
        let text = std::fs::read_to_string(&file).expect("source");
        for (_, id, given, _) in lookups(code_of(&text)) {
            let Some(wanted) = en.get(&id) else { panic!("{}: message {id} is in no catalogue", file.display()) };
            assert_eq!(&given, wanted, "{}: message {id} takes {wanted:?}, the code gives {given:?}", file.display());
            seen += 1;
        }
    }
    assert!(seen > 50, "the scanner found the lookups ({seen})");
    // Ids made from names: every command's summary, slash name and options; every variant's rules page.
    for c in crate::bot::command::COMMANDS {
        for id in [c.summary_id(), format!("cmdname-{}", c.name)] {
            assert!(en.contains_key(&id), "{id}");
        }
        for o in c.options {
            assert!(en.contains_key(&c.option_id(None, o)), "{} {}", c.name, o.name);
            assert!(en.contains_key(&format!("optname-{}", o.name)), "optname-{}", o.name);
            for w in o.kind.choices() {
                assert!(en.contains_key(&format!("choice-{}-{w}", o.name)), "choice-{}-{w}", o.name);
            }
        }
        for sub in c.subcommands {
            for id in [c.subcommand_summary_id(sub), c.subcommand_name_id(sub)] {
                assert!(en.contains_key(&id), "{id}");
            }
            for o in sub.options {
                assert!(en.contains_key(&c.option_id(Some(sub), o)), "{} {} {}", c.name, sub.name, o.name);
                assert!(en.contains_key(&format!("optname-{}", o.name)), "optname-{}", o.name);
                for w in o.kind.choices() {
                    assert!(en.contains_key(&format!("choice-{}-{w}", o.name)), "choice-{}-{w}", o.name);
                }
            }
        }
    }
    for v in crate::rules::VARIANTS {
        assert!(en.contains_key(&format!("rules-{}", v.name)), "rules-{}", v.name);
    }
}

/// A message rendered later (`msg!`) or in an explicit language (`tl!`) takes the messages within
/// it as messages, never as texts rendered now in the language in force: that is the chat's while
/// an error for its author is rendered in the author's, and one sentence mixed the two (before:
/// "Game #1: der Bauer auf e4 is Weiß's").
#[test]
fn no_message_takes_another_rendered_in_another_language() {
    const RENDERED_NOW: [&str; 7] =
        ["t!(", "color_word(", "variant_text(", "reason_text(", "ladder_name(", "describe(", ".render("];
    let mut mixed = Vec::new();
    let mut seen = 0;
    for file in source_files() {
        let text = std::fs::read_to_string(&file).expect("source");
        for (mac, id, _, args) in lookups(code_of(&text)) {
            if mac == "t!(" {
                continue;
            }
            seen += 1;
            // A call by its own name (`t!(`, not the end of `format!(`).
            let calls = |call: &str| {
                args.match_indices(call).any(|(i, _)| {
                    call.starts_with('.') || !args[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                })
            };
            if let Some(call) = RENDERED_NOW.iter().find(|call| calls(call)) {
                mixed.push(format!("{}: {mac}\"{id}\", …) takes {call}…)", file.display()));
            }
        }
    }
    assert!(seen > 50, "the scanner found the messages ({seen})");
    assert!(mixed.is_empty(), "arguments rendered now, not as messages:\n{}", mixed.join("\n"));
}

/// Files of the core not yet moved to the catalogues: this list only shrinks, and the issue is
/// done when it is empty.
const NOT_YET_CONVERTED: &[&str] = &[];

/// Whether a string literal reads as a sentence for people: two or more words of letters, at
/// least one of them lower case, and not SQL or a command as typed (`ladder season close`: commands
/// are English words on every platform, as move letters are).
fn reads_as_text(lit: &str) -> bool {
    // Format placeholders (`{name}`) are not words.
    let mut plain = String::new();
    let mut depth = 0;
    for c in lit.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    // Words are runs of letters; a token with a digit is notation (`e4`, `Nxf7#`), one written as a
    // command (`/move`, `!help`) is a command.
    let words: Vec<&str> = plain
        .split_whitespace()
        .filter(|w| !w.starts_with('/') && !w.starts_with('!'))
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
        .collect();
    if words.len() < 2 {
        return false;
    }
    let first: String = lit.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    if crate::bot::command::spec(&first).is_some_and(|s| s.name == first) {
        return false;
    }
    let sql = ["SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "SAVEPOINT ", "ROLLBACK ", "RELEASE ", "PRAGMA "];
    !sql.iter().any(|k| lit.trim_start().starts_with(k)) && words.iter().any(|w| w.chars().any(|c| c.is_lowercase()))
}

/// String literals of code lines that are not comments, logs or internal errors (those are for
/// operators, in English), nor marked `// i18n: data` (a file format's words) or `// i18n:
/// operator` (start-up checks), nor a command's syntax in the command table (`usage:`, `example:`,
/// a subcommand's `words:`).
fn user_facing_literals(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut statement = String::new();
    for line in code.lines() {
        let l = line.trim();
        if l.starts_with("//") {
            continue;
        }
        statement.push_str(l);
        statement.push(' ');
        if !(l.ends_with(';') || l.ends_with('{') || l.ends_with('}') || l.ends_with(',')) {
            continue;
        }
        let operator = [
            "tracing::",
            "Internal(",
            "Corrupt(",
            "corrupt(",
            "panic!(",
            "expect(",
            "debug_assert",
            "eprintln!(",
            "unreachable!(",
            "// i18n:",
            "usage:",
            "example:",
            "words:",
        ]
        .iter()
        .any(|k| statement.contains(k));
        if !operator {
            let mut parts = statement.split('"');
            parts.next();
            while let Some(lit) = parts.next() {
                if reads_as_text(lit) {
                    out.push(lit.to_string());
                }
                parts.next();
            }
        }
        statement.clear();
    }
    out
}

#[test]
fn no_sentence_is_left_in_the_core_outside_the_catalogues() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut left = Vec::new();
    let mut clean_but_listed = Vec::new();
    for file in source_files() {
        let Ok(rel) = file.strip_prefix(root) else { continue };
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !(rel.starts_with("src/bot/") || rel.starts_with("src/community/")) {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("source");
        let found = user_facing_literals(code_of(&text));
        let listed = NOT_YET_CONVERTED.contains(&rel.as_str());
        match (found.is_empty(), listed) {
            (false, false) => left.push(format!("{rel}: {:?}", &found[..found.len().min(3)])),
            (true, true) => clean_but_listed.push(rel),
            _ => {}
        }
    }
    assert!(left.is_empty(), "sentences outside the catalogues:\n{}", left.join("\n"));
    assert!(clean_but_listed.is_empty(), "converted, take off NOT_YET_CONVERTED: {clean_but_listed:?}");
}

/// Discord's rule for the names of slash commands and options, localized ones included: 1 to 32
/// characters, letters in lower case, digits, `-` and `_`.
#[test]
fn slash_command_names_are_valid_in_every_language() {
    let valid = |s: &str| {
        (1..=32).contains(&s.chars().count())
            && s.chars().all(|c| c == '-' || c == '_' || c.is_numeric() || (c.is_alphabetic() && !c.is_uppercase()))
    };
    let option_names = |lang: Lang, options: &[crate::bot::command::OptionSpec]| -> Vec<String> {
        options.iter().map(|o| tr(lang, &format!("optname-{}", o.name), &[])).collect()
    };
    let unique = |mut names: Vec<String>, what: &str| {
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "{what}: two share a name");
    };
    for lang in Lang::ALL {
        let code = lang.code();
        let commands = crate::bot::command::COMMANDS;
        for c in commands {
            let name = tr(lang, &format!("cmdname-{}", c.name), &[]);
            assert!(valid(&name), "{name:?} ({code})");
            for name in option_names(lang, c.options) {
                assert!(valid(&name), "{name:?} ({code})");
            }
            // Names within one command (and one subcommand) are unique (Discord refuses duplicates).
            unique(option_names(lang, c.options), &format!("{} options in {code}", c.name));
            let subs: Vec<String> = c.subcommands.iter().map(|s| tr(lang, &c.subcommand_name_id(s), &[])).collect();
            for name in &subs {
                assert!(valid(name), "{name:?} ({code})");
            }
            unique(subs, &format!("{} subcommands in {code}", c.name));
            for sub in c.subcommands {
                assert!(valid(sub.name), "{}", sub.name);
                for name in option_names(lang, sub.options) {
                    assert!(valid(&name), "{name:?} ({code})");
                }
                unique(option_names(lang, sub.options), &format!("{} {} options in {code}", c.name, sub.name));
            }
        }
        unique(commands.iter().map(|c| tr(lang, &format!("cmdname-{}", c.name), &[])).collect(), code);
    }
}

#[test]
fn counts_are_grouped_as_each_language_writes_them() {
    for (n, en, tr) in [(0, "0", "0"), (999, "999", "999"), (1_000, "1,000", "1.000"), (60_000, "60,000", "60.000")] {
        assert_eq!((grouped(Lang::En, n).as_str(), grouped(Lang::Tr, n).as_str()), (en, tr));
        assert_eq!(grouped(Lang::De, n), tr, "German groups as Turkish does");
    }
    assert_eq!(grouped(Lang::En, 20_160_060), "20,160,060");
}

/// Every variant has its name in every catalogue (a variant left out would be shown by its short
/// name), the English one is the engine's display name, and the others are their own words.
#[test]
fn every_variant_is_named_in_every_language() {
    for v in crate::rules::VARIANTS {
        let named = |lang| tr(lang, "variant-name", &[("variant", Arg::from(v.name))]);
        assert_eq!(named(Lang::En), v.display_name);
        for lang in [Lang::Tr, Lang::De] {
            assert_ne!(named(lang), v.name, "{} in {lang:?}", v.name);
            assert_ne!(named(lang), v.display_name, "{} in {lang:?}", v.name);
        }
    }
}

//! The names a command's options are typed by: each option's own (English) name and its name in
//! every catalogue (`optname-*`, as the help lists the options and Discord shows them), so that
//! what the help shows in any language is read: `tage:3` is `days:3`, `ungewertet` is `casual`,
//! `partie:4` is `#4`. The parsers themselves read only the English words these become.

use super::{CommandSpec, OptionKind, OptionSpec};
use crate::i18n::{Lang, Msg};
use crate::msg;

/// Every name `o` is known by, lower case: its own, then its name in each catalogue; looked up in
/// the catalogues once an option for the process (every typed command reads them).
pub(super) fn names(o: &OptionSpec) -> &'static [String] {
    static KNOWN: std::sync::LazyLock<std::sync::RwLock<std::collections::HashMap<&'static str, &'static [String]>>> =
        std::sync::LazyLock::new(Default::default);
    if let Some(names) = KNOWN.read().unwrap_or_else(|e| e.into_inner()).get(o.name) {
        return names;
    }
    let mut names = vec![o.name.to_string()];
    for lang in Lang::ALL {
        let name = crate::i18n::tr(lang, &format!("optname-{}", o.name), &[]).to_lowercase();
        if !names.contains(&name) {
            names.push(name);
        }
    }
    // Leaked once per option name: a few dozen short lists for the process's life.
    let names: &'static [String] = Vec::leak(names);
    KNOWN.write().unwrap_or_else(|e| e.into_inner()).entry(o.name).or_insert(names)
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

/// The word `typed` stands for among `c`'s arguments: `name:value`, with `name` any name of one of
/// its options, is the word that option is typed as (a person as written after the name); a
/// yes/no option typed as its own name (`casual`, `decline`) is that word by any of its names.
/// Anything else is left to the parser as typed.
fn in_english(c: &CommandSpec, typed: &str) -> Option<String> {
    let named = |name: &str| all_options(c).find(|o| names(o).iter().any(|n| n == name));
    match typed.split_once(':') {
        Some((name, value)) if !value.is_empty() => {
            let name = name.to_lowercase();
            let o = named(&name)?;
            match o.kind {
                OptionKind::User => Some(value.to_string()),
                // A count is typed with its own key, as its parser reads it (`round:2`, `season:3`,
                // where the subcommand is named alike): another name of it becomes that key, the
                // key itself is left as typed.
                OptionKind::Count(_) => (name != o.name).then(|| format!("{}:{value}", o.name)),
                kind => word_of(kind, value),
            }
        }
        Some(_) => None,
        None => {
            let o = named(&typed.to_lowercase())?;
            match o.kind {
                OptionKind::Flag(yes, _) if yes == o.name => Some(yes.to_string()),
                _ => None,
            }
        }
    }
}

/// `args` with each option written by another of its names ([`in_english`]) as the parser of `c`
/// reads it, and a game's (a challenge's, a tournament's) number written after its option's name
/// (`game 4`, `partie #4`) as `#4`.
pub(super) fn read_names(c: &CommandSpec, args: &[&str]) -> Vec<String> {
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
    let mut in_text = false;
    let mut words = Vec::with_capacity(args.len());
    let mut rest = args;
    while let Some((a, after)) = rest.split_first() {
        if let Some(n) = after.first().map(|n| n.strip_prefix('#').unwrap_or(n))
            && !in_text
            && !n.is_empty()
            && n.bytes().all(|b| b.is_ascii_digit())
            && numbered(a)
        {
            words.push(format!("#{n}"));
            rest = &after[1..];
            continue;
        }
        in_text |= free_text(a);
        words.push(in_english(c, a).unwrap_or_else(|| a.to_string()));
        rest = after;
    }
    words
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
    use crate::bot::command::{COMMANDS, parse};

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
}

//! The words shown to people about the commands: the `help` text, written from the table, and the
//! catalogue ids of each command's summary, its options' and its subcommands' descriptions.

use super::{COMMANDS, CommandSpec, OptionSpec, SubcommandSpec};
use crate::i18n::Lang;

impl CommandSpec {
    /// The message id of the one-line summary (at most 100 characters: it is the slash command's
    /// description too): `cmd-NAME` in the catalogues.
    pub fn summary_id(&self) -> String {
        format!("cmd-{}", self.name)
    }

    /// The one-line summary in `lang`.
    pub fn summary(&self, lang: Lang) -> String {
        crate::i18n::tr(lang, &self.summary_id(), &[])
    }

    /// The arguments as typed after the word, with the placeholders in `lang` (`[#game] <move>`;
    /// empty for a command without any): `usage-NAME` in the catalogues.
    pub fn usage(&self, lang: Lang) -> String {
        let id = format!("usage-{}", self.name);
        if crate::i18n::has(Lang::En, &id) { crate::i18n::tr(lang, &id, &[]) } else { String::new() }
    }

    /// The message id of an option's description (at most 100 characters): `sub-NAME-SUB-OPTION`
    /// where the option of subcommand `sub` has its own, else `cmd-NAME-OPTION` where the command
    /// has its own, else the shared `opt-OPTION`.
    pub fn option_id(&self, sub: Option<&SubcommandSpec>, o: &OptionSpec) -> String {
        if let Some(sub) = sub {
            let own = format!("sub-{}-{}-{}", self.name, sub.name, o.name);
            if crate::i18n::has(Lang::En, &own) {
                return own;
            }
        }
        let own = format!("cmd-{}-{}", self.name, o.name);
        if crate::i18n::has(Lang::En, &own) { own } else { format!("opt-{}", o.name) }
    }

    /// An option's description in `lang`.
    pub fn option_description(&self, sub: Option<&SubcommandSpec>, o: &OptionSpec, lang: Lang) -> String {
        crate::i18n::tr(lang, &self.option_id(sub, o), &[])
    }

    /// The message id of a subcommand's description (at most 100 characters): `sub-NAME-SUB`.
    pub fn subcommand_summary_id(&self, sub: &SubcommandSpec) -> String {
        format!("sub-{}-{}", self.name, sub.name)
    }

    /// A subcommand's description in `lang`.
    pub fn subcommand_summary(&self, sub: &SubcommandSpec, lang: Lang) -> String {
        crate::i18n::tr(lang, &self.subcommand_summary_id(sub), &[])
    }

    /// The message id of a subcommand's name where it is shown translated: `subname-NAME-SUB`.
    pub fn subcommand_name_id(&self, sub: &SubcommandSpec) -> String {
        format!("subname-{}-{}", self.name, sub.name)
    }
}

/// The `help` text, from the table: every command with its usage and an example, written as
/// commands are given where it is read: typed with the prefix `p`, or (`slash`) as the
/// platform's slash commands, whose options the platform shows as they are typed.
pub fn help_text(p: &str, slash: bool) -> String {
    let lang = crate::i18n::current();
    let mut s = if slash {
        crate::t!("help-head-slash")
    } else if p.is_empty() {
        crate::t!("help-head-direct")
    } else {
        crate::t!("help-head", p = p)
    };
    for c in COMMANDS {
        if slash {
            s.push_str(&format!("\n/{} — {}", c.name, c.summary(lang)));
            continue;
        }
        let usage = c.usage(lang);
        let usage = if usage.is_empty() { usage } else { format!(" {usage}") };
        s.push_str(&format!("\n{p}{}{usage} — {}", c.name, c.summary(lang)));
        if c.example != c.name {
            s.push_str(&crate::t!("help-example", p = p, example = c.example));
        }
    }
    let moves = if slash { "/move e4, /move Nxf7#" } else { "e4, Nxf7#" };
    s.push('\n');
    s.push_str(&crate::t!("help-foot", moves = moves, p = p));
    s
}

/// One command in full (`help analyse`): its usage and summary, an example, its other words, each
/// option with what it is for, and each subcommand with its own summary; written, like
/// [`help_text`], as commands are given where it is read.
pub fn command_help(c: &CommandSpec, p: &str, slash: bool) -> String {
    let lang = crate::i18n::current();
    let usage = if slash { String::new() } else { c.usage(lang) };
    let usage = if usage.is_empty() { usage } else { format!(" {usage}") };
    let mut s = format!("{p}{}{usage} — {}", c.name, c.summary(lang));
    if c.example != c.name {
        s.push_str(&crate::t!("help-example", p = p, example = c.example));
    }
    if !c.aliases.is_empty() && !slash {
        let aliases: Vec<String> = c.aliases.iter().map(|a| format!("{p}{a}")).collect();
        s.push('\n');
        s.push_str(&crate::t!("help-one-aliases", aliases = aliases.join(", ")));
    }
    if !c.options.is_empty() {
        s.push('\n');
        s.push_str(&crate::t!("help-one-options"));
        for o in c.options {
            // Named as the slash command shows it in this language, a name typed commands read too
            // (`tage:3`; the usage says how each is typed).
            let name = crate::i18n::tr(lang, &format!("optname-{}", o.name), &[]);
            s.push_str(&format!("\n  {name} — {}", c.option_description(None, o, lang)));
        }
    }
    if !c.subcommands.is_empty() {
        s.push('\n');
        s.push_str(&crate::t!("help-one-subcommands"));
        for sub in c.subcommands {
            let words = if slash { sub.name } else { sub.words };
            s.push_str(&format!("\n  {p}{} {words} — {}", c.name, c.subcommand_summary(sub, lang)));
        }
    }
    s.push('\n');
    s.push_str(&crate::t!("help-one-foot", p = p));
    s
}

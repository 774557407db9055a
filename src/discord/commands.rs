//! Slash commands from the one command table ([`COMMANDS`]): each entry becomes a Discord
//! application command with its description and typed options (or, for a command with actions such
//! as `ladder join`, one subcommand per action, each with its own options), and a slash command's
//! subcommand and options go back through [`from_options`] into the same [`Command`] the text
//! parser makes.
//!
//! We register with serenity's builders and dispatch ourselves rather than through poise: poise's
//! commands are made for one Rust function per command, while ours are rows of a table that all end
//! in the same place (`Host::handle`), so a poise `Command` per row would only wrap one dispatcher.

use crate::bot::UserRef;
use crate::bot::command::{
    COMMANDS, Command, CommandSpec, DAYS_CHOICES, OptionKind, OptionSpec, OptionValue, SubcommandSpec, from_options,
};
use crate::i18n::Lang;
use crate::rules::VARIANTS;
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand, CreateCommandOption,
    InstallationContext, InteractionContext, Permissions, ResolvedOption, ResolvedValue, Unresolved,
};

/// Commands that make sense only in a server where the bot is (its settings): offered nowhere else.
const SERVER_ONLY: &[&str] = &["settings"];

/// The largest integer Discord takes as an option's bound (2^53); game numbers have no other.
const MAX_INTEGER: u64 = 1 << 53;

/// Every command of the table as a slash command. Administrators' commands are shown by default
/// only to members with Manage Server (a server may change that); registered `global`ly, each
/// also says how it may be installed and where it is offered ([`where_offered`]) — Discord takes
/// those two for global commands only.
///
/// Discord has no such default per subcommand: a command with some administrators' actions
/// (`ladder create`) is shown to everyone, and the core refuses those actions to others.
pub fn slash_commands(global: bool) -> Vec<CreateCommand> {
    COMMANDS
        .iter()
        .map(|spec| {
            let options = if spec.subcommands.is_empty() {
                slash_options(spec, None, spec.options)
            } else {
                spec.subcommands.iter().map(|sub| slash_subcommand(spec, sub)).collect()
            };
            let mut command = CreateCommand::new(spec.name).description(spec.summary(Lang::En)).set_options(options);
            // Discord shows these to people whose client is in the language; the command itself
            // (what comes back in an interaction) keeps its name.
            for (code, name) in others(|l| crate::i18n::tr(l, &format!("cmdname-{}", spec.name), &[])) {
                command = command.name_localized(code, name);
            }
            for (code, text) in others(|l| spec.summary(l)) {
                command = command.description_localized(code, text);
            }
            if spec.admin {
                command = command.default_member_permissions(Permissions::MANAGE_GUILD);
            }
            if global {
                let (installs, contexts) = where_offered(spec.name);
                command = command.integration_types(installs).contexts(contexts);
            }
            command
        })
        .collect()
}

/// How a command may be installed and where it is offered. Installed to a server, the bot answers
/// there and in its own DMs; installed to a person's account, in any DM or group DM of theirs
/// (and servers without the bot), where it answers only through the interaction. Ladders and
/// tournaments are offered there too, to say clearly why they cannot be held there.
fn where_offered(name: &str) -> (Vec<InstallationContext>, Vec<InteractionContext>) {
    if SERVER_ONLY.contains(&name) {
        return (vec![InstallationContext::Guild], vec![InteractionContext::Guild]);
    }
    let installs = vec![InstallationContext::Guild, InstallationContext::User];
    (installs, vec![InteractionContext::Guild, InteractionContext::BotDm, InteractionContext::PrivateChannel])
}

/// One action of a command as a subcommand (option type 1) with its own options.
fn slash_subcommand(spec: &CommandSpec, sub: &SubcommandSpec) -> CreateCommandOption {
    let mut option =
        CreateCommandOption::new(CommandOptionType::SubCommand, sub.name, spec.subcommand_summary(sub, Lang::En))
            .set_sub_options(slash_options(spec, Some(sub), sub.options));
    for (code, name) in others(|l| crate::i18n::tr(l, &spec.subcommand_name_id(sub), &[])) {
        option = option.name_localized(code, name);
    }
    for (code, text) in others(|l| spec.subcommand_summary(sub, l)) {
        option = option.description_localized(code, text);
    }
    option
}

/// The options of a command or of one of its subcommands.
fn slash_options(spec: &CommandSpec, sub: Option<&SubcommandSpec>, options: &[OptionSpec]) -> Vec<CreateCommandOption> {
    // In an autocomplete request Discord sends the other options as typed, unvalidated: a number
    // there could be any text, which serenity cannot read as an integer option (the whole
    // interaction would be dropped), so a command with autocomplete takes its game number as text.
    // A game's, a challenge's or a tournament's number is autocompleted itself ([`is_suggested`]),
    // so it is always text.
    let autocompleted =
        options.iter().any(|o| matches!(o.kind, OptionKind::Move | OptionKind::Square) || is_suggested(o));
    options.iter().map(|o| slash_option(spec, sub, o, autocompleted)).collect()
}

fn slash_option(
    spec: &CommandSpec,
    sub: Option<&SubcommandSpec>,
    o: &OptionSpec,
    autocompleted: bool,
) -> CreateCommandOption {
    let kind = match o.kind {
        OptionKind::User => CommandOptionType::User,
        OptionKind::Game if autocompleted => CommandOptionType::String,
        OptionKind::Setup
        | OptionKind::Level
        | OptionKind::Game
        | OptionKind::DaysPerMove
        | OptionKind::Number(_)
        | OptionKind::Count(_) => CommandOptionType::Integer,
        OptionKind::Flag(..) | OptionKind::Switch(_) => CommandOptionType::Boolean,
        _ => CommandOptionType::String,
    };
    let mut opt =
        CreateCommandOption::new(kind, o.name, spec.option_description(sub, o, Lang::En)).required(o.required);
    for (code, name) in others(|l| crate::i18n::tr(l, &format!("optname-{}", o.name), &[])) {
        opt = opt.name_localized(code, name);
    }
    for (code, text) in others(|l| spec.option_description(sub, o, l)) {
        opt = opt.description_localized(code, text);
    }
    match o.kind {
        OptionKind::Variant => {
            for v in VARIANTS {
                opt = opt.add_string_choice(v.display_name, v.name);
            }
        }
        OptionKind::Days | OptionKind::DaysOrDefault => {
            for d in DAYS_CHOICES {
                opt = opt.add_string_choice_localized(
                    crate::tl!(Lang::En, "choice-days", count = d),
                    d.to_string(),
                    others(|l| crate::tl!(l, "choice-days", count = d)),
                );
            }
            opt = opt.add_string_choice_localized(
                crate::tl!(Lang::En, "choice-no-clock"),
                "none",
                others(|l| crate::tl!(l, "choice-no-clock")),
            );
            if o.kind == OptionKind::DaysOrDefault {
                opt = opt.add_string_choice_localized(
                    crate::tl!(Lang::En, "choice-default"),
                    "default",
                    others(|l| crate::tl!(l, "choice-default")),
                );
            }
        }
        OptionKind::DaysPerMove => {
            for d in DAYS_CHOICES {
                opt = opt.add_int_choice_localized(
                    crate::tl!(Lang::En, "choice-days", count = d),
                    d as i32,
                    others(|l| crate::tl!(l, "choice-days", count = d)),
                );
            }
        }
        OptionKind::Choice(_) | OptionKind::KeyedChoice(..) => {
            for w in o.kind.choices() {
                let id = format!("choice-{}-{w}", o.name);
                let en = crate::i18n::tr(Lang::En, &id, &[]);
                opt = opt.add_string_choice_localized(en, *w, others(|l| crate::i18n::tr(l, &id, &[])));
            }
        }
        OptionKind::Number(r) | OptionKind::Count(r) => {
            opt = opt.min_int_value(r.min.into()).max_int_value(r.max.into());
        }
        OptionKind::Color => {
            for c in ["white", "black", "random"] {
                let id = format!("color-{c}");
                opt = opt.add_string_choice_localized(c, c, others(|l| crate::i18n::tr(l, &id, &[])));
            }
        }
        OptionKind::Level => opt = opt.min_int_value(1).max_int_value(8),
        OptionKind::Setup => opt = opt.min_int_value(0).max_int_value(1_000_000),
        OptionKind::Game if is_suggested(o) => opt = opt.max_length(20).set_autocomplete(true),
        OptionKind::Game if autocompleted => opt = opt.max_length(20),
        OptionKind::Game => opt = opt.min_int_value(1).max_int_value(MAX_INTEGER),
        OptionKind::Move | OptionKind::Square | OptionKind::Ladder => opt = opt.set_autocomplete(true),
        _ => {}
    }
    opt
}

/// A game's, a challenge's or a tournament's number: suggested from the person's games, the
/// challenges they can answer or the community's tournaments.
fn is_suggested(o: &OptionSpec) -> bool {
    o.kind == OptionKind::Game && matches!(o.name, "game" | "challenge" | "tournament")
}

/// The command of a slash command's options (a subcommand comes as the only option, with the
/// options given inside it), and the users its user options name.
pub fn command_from(
    name: &str,
    options: &[ResolvedOption<'_>],
) -> Result<(Command, Vec<UserRef>), crate::bot::command::ParseError> {
    let (subcommand, options) = match options {
        [ResolvedOption { name: sub, value: ResolvedValue::SubCommand(inner), .. }] => (Some(*sub), inner.as_slice()),
        _ => (None, options),
    };
    let mut values = Vec::new();
    for o in options {
        let value = match &o.value {
            ResolvedValue::String(s) => OptionValue::Text(s.to_string()),
            ResolvedValue::Integer(i) => OptionValue::Integer(*i),
            ResolvedValue::Boolean(b) => OptionValue::Bool(*b),
            ResolvedValue::User(u, member) => {
                let name = member.and_then(|m| m.nick.clone()).unwrap_or_else(|| u.display_name().to_string());
                OptionValue::User(UserRef::new(u.id.to_string(), name))
            }
            // Without the resolved user (not sent by every client), the id alone.
            ResolvedValue::Unresolved(Unresolved::User(id)) => {
                OptionValue::User(UserRef::new(id.to_string(), "player"))
            }
            _ => {
                // Named as the person's client shows the option: its name in their language.
                let id = format!("optname-{}", o.name);
                let option = if crate::i18n::has(Lang::En, &id) {
                    crate::i18n::Msg::new(&id, vec![])
                } else {
                    crate::i18n::Msg::raw(o.name)
                };
                return Err(crate::msg!("parse-option-type", option = option).into());
            }
        };
        values.push((o.name, value));
    }
    from_options(name, subcommand, &values)
}

/// A text in every language but English, by locale code (Discord's `*_localizations`).
fn others(text: impl Fn(Lang) -> String) -> Vec<(&'static str, String)> {
    Lang::ALL.into_iter().filter(|l| *l != Lang::En).map(|l| (l.code(), text(l))).collect()
}

/// What an autocomplete request asks for: the kind of the focused option (from the command
/// table, inside the subcommand where there is one), what was typed in it so far, and the `game`
/// option as the user typed it (see [`slash_options`]).
#[derive(Debug, PartialEq)]
pub struct Autocompleting {
    pub kind: Option<OptionKind>,
    /// The focused option's name.
    pub option: String,
    /// The subcommand it is in, if any.
    pub sub: Option<String>,
    pub typed: String,
    pub game: Option<i64>,
}

/// Reads an autocomplete request of command `name`.
pub fn autocomplete_query(name: &str, options: &[CommandDataOption]) -> Autocompleting {
    let spec = COMMANDS.iter().find(|c| c.name == name);
    let (sub, options) = match options {
        [CommandDataOption { name: sub, value: CommandDataOptionValue::SubCommand(inner), .. }] => {
            (spec.and_then(|c| c.subcommands.iter().find(|s| s.name == sub)), inner.as_slice())
        }
        _ => (None, options),
    };
    let table = sub.map_or_else(|| spec.map_or(&[][..], |c| c.options), |s| s.options);
    let mut query = Autocompleting {
        kind: None,
        option: String::new(),
        sub: sub.map(|s| s.name.to_string()),
        typed: String::new(),
        game: None,
    };
    for o in options {
        match &o.value {
            CommandDataOptionValue::Autocomplete { value, .. } => {
                query.typed = value.clone();
                query.option = o.name.clone();
                query.kind = table.iter().find(|spec| spec.name == o.name).map(|spec| spec.kind);
            }
            CommandDataOptionValue::Integer(i) if o.name == "game" => query.game = Some(*i),
            CommandDataOptionValue::String(s) if o.name == "game" => {
                query.game = s.trim().trim_start_matches('#').parse().ok()
            }
            _ => {}
        }
    }
    query
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_entry_becomes_a_slash_command() {
        let json = serde_json_like(&slash_commands(false));
        assert_eq!(json.len(), COMMANDS.len());
        for (c, spec) in json.iter().zip(COMMANDS) {
            assert!(c.contains(&format!("\"name\":\"{}\"", spec.name)), "{c}");
        }
        let play = &json[COMMANDS.iter().position(|c| c.name == "play").unwrap()];
        assert!(play.contains("\"max_value\":8"), "{play}");
        let mv = &json[COMMANDS.iter().position(|c| c.name == "move").unwrap()];
        assert!(mv.contains("\"autocomplete\":true"), "{mv}");
        // Beside an autocompleted option the game number is text (see `slash_commands`).
        let mv: serenity::json::Value = serenity::json::from_str(mv).expect("JSON");
        let game = mv["options"].as_array().and_then(|o| o.iter().find(|o| o["name"] == "game")).expect("game");
        assert_eq!(game["type"], 3, "{game}");
    }

    /// Every choice's name that the commands look up in the catalogues is there in every language
    /// (a missing one is registered as its id: Discord showed `color-random` to German users).
    #[test]
    fn every_choice_name_is_in_every_catalogue() {
        let mut ids: Vec<String> = ["white", "black", "random"].iter().map(|c| format!("color-{c}")).collect();
        let options =
            COMMANDS.iter().flat_map(|c| c.options.iter().chain(c.subcommands.iter().flat_map(|s| s.options)));
        for o in options {
            if matches!(o.kind, OptionKind::Choice(_) | OptionKind::KeyedChoice(..)) {
                ids.extend(o.kind.choices().iter().map(|w| format!("choice-{}-{w}", o.name)));
            }
        }
        assert!(ids.len() > 3, "{ids:?}");
        for lang in Lang::ALL {
            for id in &ids {
                assert!(crate::i18n::has(lang, id), "{id} is missing in {}", lang.code());
            }
        }
    }

    #[test]
    fn global_commands_say_where_they_are_offered() {
        let json: Vec<serenity::json::Value> =
            serde_json_like(&slash_commands(true)).iter().map(|c| serenity::json::from_str(c).expect("JSON")).collect();
        let named = |n: &str| json.iter().find(|c| c["name"] == n).expect("registered").clone();
        let settings = named("settings");
        assert_eq!(settings["contexts"], serenity::json::json!([0]), "{settings}");
        assert_eq!(settings["default_member_permissions"], "32", "{settings}");
        assert_eq!(settings["integration_types"], serenity::json::json!([0]), "{settings}");
        // Everything else also where the app is installed to a person's account: DMs with the bot,
        // and DMs and group DMs among people (answered through the interaction only). Ladders and
        // tournaments too, to say there why they cannot be held there; to every member (some of
        // their actions are administrators', which the core checks: Discord cannot hide one
        // subcommand).
        for name in ["play", "move", "ladder", "tournament"] {
            let c = named(name);
            assert_eq!(c["contexts"], serenity::json::json!([0, 1, 2]), "{c}");
            assert_eq!(c["integration_types"], serenity::json::json!([0, 1]), "{c}");
            assert!(c["default_member_permissions"].is_null(), "{c}");
        }
        // A guild's commands carry neither (Discord takes them for global ones only).
        let guild = serde_json_like(&slash_commands(false));
        assert!(guild.iter().all(|c| !c.contains("\"contexts\"")), "{guild:?}");
    }

    /// The guild's slash commands as JSON values.
    fn guild_commands_json() -> Vec<serenity::json::Value> {
        serde_json_like(&slash_commands(false)).iter().map(|c| serenity::json::from_str(c).expect("JSON")).collect()
    }

    /// `/settings` offers `default` among the choices of every option that has choices, as the
    /// typed `settings theme:default` takes it (before: only the language had it).
    #[test]
    fn settings_choices_offer_the_way_back_to_the_default() {
        let json = guild_commands_json();
        let settings = json.iter().find(|c| c["name"] == "settings").expect("registered");
        let mut with_choices = 0;
        for o in settings["options"].as_array().expect("options") {
            let Some(choices) = o["choices"].as_array().filter(|c| !c.is_empty()) else { continue };
            with_choices += 1;
            let default = choices.iter().find(|c| c["value"] == "default").unwrap_or_else(|| panic!("{o}"));
            assert_eq!(default["name"], "Default (as if none was chosen)", "{o}");
            assert_eq!(default["name_localizations"]["de"], "Standard (als wäre nichts gewählt)", "{o}");
        }
        assert_eq!(with_choices, 6, "days, thread, gif, theme, language and web: {settings}");
    }

    #[test]
    fn ladder_and_tournament_actions_are_subcommands_with_typed_options() {
        let json = guild_commands_json();
        for spec in COMMANDS.iter().filter(|c| !c.subcommands.is_empty()) {
            let c = json.iter().find(|c| c["name"] == spec.name).expect("registered");
            let subs = c["options"].as_array().expect("options");
            let names: Vec<&str> = subs.iter().filter_map(|s| s["name"].as_str()).collect();
            let table: Vec<&str> = spec.subcommands.iter().map(|s| s.name).collect();
            assert_eq!(names, table, "{c}");
            assert!(subs.iter().all(|s| s["type"] == 1), "only subcommands: {c}");
        }
        let sub = |command: &str, sub: &str| {
            let c = json.iter().find(|c| c["name"] == command).expect("registered");
            let subs = c["options"].as_array().expect("options");
            subs.iter().find(|s| s["name"] == sub).cloned().expect("subcommand")
        };
        let option = |s: &serenity::json::Value, name: &str| {
            s["options"].as_array().and_then(|o| o.iter().find(|o| o["name"] == name).cloned()).expect(name)
        };
        let create = sub("tournament", "create");
        assert_eq!(create["name_localizations"]["tr"], "oluştur", "{create}");
        let signup = option(&create, "signup");
        assert_eq!((signup["type"].clone(), signup["min_value"].clone()), (4.into(), 0.into()), "{signup}");
        assert_eq!(signup["max_value"], 30, "{signup}");
        let days = option(&create, "days");
        assert_eq!(days["type"], 4, "{days}");
        assert_eq!(
            (days["choices"][0]["value"].clone(), days["choices"][0]["name"].clone()),
            (1.into(), "1 day".into())
        );
        assert_eq!(days["choices"][1]["name"], "2 days", "{days}");
        assert_eq!(option(&create, "system")["choices"][2]["value"], "swiss");
        let challenge = sub("ladder", "challenge");
        let player = option(&challenge, "player");
        assert_eq!((player["type"].clone(), player["required"].clone()), (6.into(), true.into()), "{player}");
        let round = option(&sub("tournament", "round"), "round");
        assert_eq!((round["type"].clone(), round["min_value"].clone()), (4.into(), 1.into()), "{round}");
        let undo = sub("ladder", "undo");
        assert_eq!(
            undo["description"],
            "Administrators: undo a result (or forfeit) by the number announced with it: (ladder result 2)"
        );
    }

    /// Discord refuses a command whose names, descriptions and choices (at every level) pass 4,000
    /// characters; ladders' and tournaments' subcommands come closest.
    #[test]
    fn every_command_fits_discords_size() {
        fn size(item: &serenity::json::Value) -> usize {
            let text = |v: &serenity::json::Value| match v {
                serenity::json::Value::String(s) => s.chars().count(),
                serenity::json::Value::Null => 0,
                other => other.to_string().len(),
            };
            let choices =
                item["choices"].as_array().map_or(0, |c| c.iter().map(|c| text(&c["name"]) + text(&c["value"])).sum());
            let options = item["options"].as_array().map_or(0, |o| o.iter().map(size).sum());
            text(&item["name"]) + text(&item["description"]) + choices + options
        }
        for c in serde_json_like(&slash_commands(true)) {
            let c: serenity::json::Value = serenity::json::from_str(&c).expect("JSON");
            assert!(size(&c) <= 3000, "{} has {} characters, near Discord's 4,000", c["name"], size(&c));
        }
    }

    fn serde_json_like(commands: &[CreateCommand]) -> Vec<String> {
        commands.iter().map(|c| serenity::json::to_string(c).expect("serialises")).collect()
    }
}

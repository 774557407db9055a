//! Slash commands from the one command table ([`COMMANDS`]): each entry becomes a Discord
//! application command with its description and typed options, and a slash command's options go
//! back through [`from_options`] into the same [`Command`] the text parser makes.
//!
//! We register with serenity's builders and dispatch ourselves rather than through poise: poise's
//! commands are made for one Rust function per command, while ours are rows of a table that all end
//! in the same place (`Host::handle`), so a poise `Command` per row would only wrap one dispatcher.

use crate::bot::UserRef;
use crate::bot::command::{
    COMMANDS, Command, CommandSpec, DAYS_CHOICES, OptionKind, OptionSpec, OptionValue, from_options,
};
use crate::i18n::Lang;
use crate::rules::VARIANTS;
use serenity::all::{
    CommandDataOption, CommandDataOptionValue, CommandOptionType, CreateCommand, CreateCommandOption,
    InstallationContext, InteractionContext, Permissions, ResolvedValue, Unresolved,
};

/// Commands that make sense only in a server (its settings, ladders and tournaments): not
/// offered in DMs.
const SERVER_ONLY: &[&str] = &["settings", "ladder", "tournament"];

/// Every command of the table as a slash command. Administrators' commands are shown by default
/// only to members with Manage Server (a server may change that); registered `global`ly, each
/// also says where it is offered (server-only ones not in DMs) and that the bot is installed in
/// servers — Discord takes those two for global commands only.
pub fn slash_commands(global: bool) -> Vec<CreateCommand> {
    COMMANDS
        .iter()
        .map(|spec| {
            // In an autocomplete request Discord sends the other options as typed, unvalidated:
            // a number there could be any text, which serenity cannot read as an integer option
            // (the whole interaction would be dropped), so a command with autocomplete takes its
            // game number as text.
            let autocompleted = spec.options.iter().any(|o| o.kind == OptionKind::Move);
            let options = spec.options.iter().map(|o| slash_option(spec, o, autocompleted)).collect();
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
                let contexts = if SERVER_ONLY.contains(&spec.name) {
                    vec![InteractionContext::Guild]
                } else {
                    vec![InteractionContext::Guild, InteractionContext::BotDm]
                };
                command = command.integration_types(vec![InstallationContext::Guild]).contexts(contexts);
            }
            command
        })
        .collect()
}

fn slash_option(spec: &CommandSpec, o: &OptionSpec, autocompleted: bool) -> CreateCommandOption {
    let kind = match o.kind {
        OptionKind::User => CommandOptionType::User,
        OptionKind::Game if autocompleted => CommandOptionType::String,
        OptionKind::Setup | OptionKind::Level | OptionKind::Game => CommandOptionType::Integer,
        OptionKind::Flag(..) | OptionKind::Switch(_) => CommandOptionType::Boolean,
        _ => CommandOptionType::String,
    };
    let mut opt = CreateCommandOption::new(kind, o.name, spec.option_description(o, Lang::En)).required(o.required);
    for (code, name) in others(|l| crate::i18n::tr(l, &format!("optname-{}", o.name), &[])) {
        opt = opt.name_localized(code, name);
    }
    for (code, text) in others(|l| spec.option_description(o, l)) {
        opt = opt.description_localized(code, text);
    }
    match o.kind {
        OptionKind::Variant => {
            for v in VARIANTS {
                opt = opt.add_string_choice(v.display_name, v.name);
            }
        }
        OptionKind::Days => {
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
        }
        OptionKind::Color => {
            for c in ["white", "black", "random"] {
                let id = format!("color-{c}");
                opt = opt.add_string_choice_localized(c, c, others(|l| crate::i18n::tr(l, &id, &[])));
            }
        }
        OptionKind::Level => opt = opt.min_int_value(1).max_int_value(8),
        OptionKind::Setup => opt = opt.min_int_value(0).max_int_value(1_000_000),
        OptionKind::Game if autocompleted => opt = opt.max_length(20),
        OptionKind::Game => opt = opt.min_int_value(1),
        OptionKind::Move => opt = opt.set_autocomplete(true),
        _ => {}
    }
    opt
}

/// The command of a slash command's options, and the users its user options name.
pub fn command_from(
    name: &str,
    options: &[(String, ResolvedValue<'_>)],
) -> Result<(Command, Vec<UserRef>), crate::i18n::Msg> {
    let mut values = Vec::new();
    for (n, v) in options {
        let value = match v {
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
            _ => return Err(crate::msg!("parse-option-type", option = n.as_str())),
        };
        values.push((n.as_str(), value));
    }
    from_options(name, &values)
}

/// A text in every language but English, by locale code (Discord's `*_localizations`).
fn others(text: impl Fn(Lang) -> String) -> Vec<(&'static str, String)> {
    Lang::ALL.into_iter().filter(|l| *l != Lang::En).map(|l| (l.code(), text(l))).collect()
}

/// The focused option's text and the `game` option of an autocomplete request.
pub fn autocomplete_query(options: &[CommandDataOption]) -> (String, Option<i64>) {
    let mut typed = String::new();
    let mut game = None;
    for o in options {
        match &o.value {
            CommandDataOptionValue::Autocomplete { value, .. } => typed = value.clone(),
            CommandDataOptionValue::Integer(i) if o.name == "game" => game = Some(*i),
            CommandDataOptionValue::String(s) if o.name == "game" => {
                game = s.trim().trim_start_matches('#').parse().ok()
            }
            _ => {}
        }
    }
    (typed, game)
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

    #[test]
    fn global_commands_say_where_they_are_offered() {
        let json: Vec<serenity::json::Value> =
            serde_json_like(&slash_commands(true)).iter().map(|c| serenity::json::from_str(c).expect("JSON")).collect();
        let named = |n: &str| json.iter().find(|c| c["name"] == n).expect("registered").clone();
        let settings = named("settings");
        assert_eq!(settings["contexts"], serenity::json::json!([0]), "{settings}");
        assert_eq!(settings["default_member_permissions"], "32", "{settings}");
        let play = named("play");
        assert_eq!(play["contexts"], serenity::json::json!([0, 1]), "{play}");
        assert_eq!(play["integration_types"], serenity::json::json!([0]), "{play}");
        assert!(play["default_member_permissions"].is_null(), "{play}");
        assert_eq!(named("tournament")["contexts"], serenity::json::json!([0]));
        // A guild's commands carry neither (Discord takes them for global ones only).
        let guild = serde_json_like(&slash_commands(false));
        assert!(guild.iter().all(|c| !c.contains("\"contexts\"")), "{guild:?}");
    }

    fn serde_json_like(commands: &[CreateCommand]) -> Vec<String> {
        commands.iter().map(|c| serenity::json::to_string(c).expect("serialises")).collect()
    }
}

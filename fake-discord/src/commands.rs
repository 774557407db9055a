//! Discord's checks on registered application commands (a bulk overwrite of `CHAT_INPUT`
//! commands): names and descriptions, option counts and order, subcommand structure, choices and
//! number bounds. A breach is answered as Discord does, 400 with code 50035 and the tree of what
//! failed; the error codes are Discord's where it documents or sends them.

use serde_json::{Map, Value, json};

/// Discord's bound on integer option values and on `min_value`/`max_value` (2^53).
const MAX_SAFE: i64 = 1 << 53;
/// Options (or subcommands) per command, subcommand or group, and choices per option.
const MAX_OPTIONS: usize = 25;
/// Characters of a command's names, descriptions and choice names and values, all levels together.
const MAX_COMMAND_SIZE: usize = 4000;

const SUB_COMMAND: u64 = 1;
const SUB_COMMAND_GROUP: u64 = 2;
const STRING: u64 = 3;
const INTEGER: u64 = 4;
const NUMBER: u64 = 10;

/// The 50035 `errors` tree under construction: objects keyed by field or index, each failure an
/// `_errors` list at its path.
#[derive(Default)]
struct Errors(Map<String, Value>);

impl Errors {
    fn add(&mut self, path: &[String], code: &str, message: &str) {
        let mut at = &mut self.0;
        for key in path {
            let next = at.entry(key.clone()).or_insert_with(|| Value::Object(Map::new()));
            at = next.as_object_mut().expect("error tree nodes are objects");
        }
        let list = at.entry("_errors").or_insert_with(|| json!([]));
        list.as_array_mut().expect("_errors is a list").push(json!({ "code": code, "message": message }));
    }
}

fn path(base: &[String], more: &[&str]) -> Vec<String> {
    base.iter().cloned().chain(more.iter().map(|s| s.to_string())).collect()
}

/// Checks a bulk overwrite: the `errors` tree of 50035 if Discord would refuse it.
pub fn check(commands: &[Value]) -> Result<(), Value> {
    let mut errors = Errors::default();
    let mut seen: Vec<(&str, u64)> = Vec::new();
    for (i, command) in commands.iter().enumerate() {
        let at = vec![i.to_string()];
        let Some(name) = command["name"].as_str() else {
            errors.add(&path(&at, &["name"]), "BASE_TYPE_REQUIRED", "This field is required");
            continue;
        };
        let kind = command["type"].as_u64().unwrap_or(1);
        if seen.contains(&(name, kind)) {
            errors.add(&at, "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique");
        }
        seen.push((name, kind));
        if kind != 1 {
            continue;
        }
        check_named(&mut errors, &at, command);
        if let Some(options) = command.get("options").filter(|o| !o.is_null()) {
            check_options(&mut errors, &path(&at, &["options"]), options, Level::Command);
        }
        if size(command) > MAX_COMMAND_SIZE {
            let message = format!("Command exceeds maximum size ({MAX_COMMAND_SIZE})");
            errors.add(&at, "APPLICATION_COMMAND_TOO_LARGE", &message);
        }
    }
    if errors.0.is_empty() { Ok(()) } else { Err(Value::Object(errors.0)) }
}

/// Where a list of options sits, which says what it may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Command,
    Group,
    Subcommand,
}

/// Name and description of a command or option, with their localizations.
fn check_named(errors: &mut Errors, at: &[String], item: &Value) {
    let name = item["name"].as_str().unwrap_or_default();
    check_name(errors, &path(at, &["name"]), name);
    if let Some(names) = item["name_localizations"].as_object() {
        for (locale, name) in names {
            check_name(errors, &path(at, &["name_localizations", locale]), name.as_str().unwrap_or_default());
        }
    }
    let description = item["description"].as_str().unwrap_or_default();
    check_length(errors, &path(at, &["description"]), description, 1, 100);
    if let Some(texts) = item["description_localizations"].as_object() {
        for (locale, text) in texts {
            check_length(
                errors,
                &path(at, &["description_localizations", locale]),
                text.as_str().unwrap_or(""),
                1,
                100,
            );
        }
    }
}

/// `^[-_\p{L}\p{N}]{1,32}$` (Discord adds the Devanagari and Thai scripts, whose marks are not
/// letters; the fake has no use for them), with letters in lower case where they have one.
fn check_name(errors: &mut Errors, at: &[String], name: &str) {
    if !check_length(errors, at, name, 1, 32) {
        return;
    }
    if !name.chars().all(|c| c == '-' || c == '_' || c.is_alphabetic() || c.is_numeric()) {
        errors.add(at, "STRING_TYPE_REGEX", "String value did not match validation regex.");
    } else if name.chars().any(char::is_uppercase) {
        errors.add(at, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid");
    }
}

fn check_length(errors: &mut Errors, at: &[String], text: &str, min: usize, max: usize) -> bool {
    let n = text.chars().count();
    let ok = (min..=max).contains(&n);
    if !ok {
        errors.add(at, "BASE_TYPE_BAD_LENGTH", &format!("Must be between {min} and {max} in length."));
    }
    ok
}

fn check_options(errors: &mut Errors, at: &[String], options: &Value, level: Level) {
    let Some(list) = options.as_array() else {
        errors.add(at, "BASE_TYPE_ARRAY", "Must be an array");
        return;
    };
    if list.len() > MAX_OPTIONS {
        errors.add(at, "BASE_TYPE_MAX_LENGTH", &format!("Must be {MAX_OPTIONS} or fewer in length."));
    }
    let nested = |o: &Value| matches!(o["type"].as_u64(), Some(SUB_COMMAND | SUB_COMMAND_GROUP));
    let mixed = list.iter().any(nested) && !list.iter().all(nested);
    let mut names: Vec<&str> = Vec::new();
    let mut optional_seen = false;
    for (i, option) in list.iter().enumerate() {
        let here = path(at, &[&i.to_string()]);
        let kind = option["type"].as_u64().unwrap_or(0);
        check_named(errors, &here, option);
        let name = option["name"].as_str().unwrap_or_default();
        if names.contains(&name) {
            errors.add(
                &path(&here, &["name"]),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option name already exists",
            );
        }
        names.push(name);
        let allowed = match kind {
            SUB_COMMAND_GROUP => level == Level::Command,
            SUB_COMMAND => level != Level::Subcommand,
            3..=11 => level != Level::Group,
            _ => false,
        };
        if (mixed && !nested(option)) || !allowed {
            let message = "Sub-command and sub-command group option types are mutually exclusive to all other types";
            errors.add(&path(&here, &["type"]), "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", message);
        }
        if matches!(kind, SUB_COMMAND | SUB_COMMAND_GROUP) {
            if let Some(inner) = option.get("options").filter(|o| !o.is_null()) {
                let inner_level = if kind == SUB_COMMAND { Level::Subcommand } else { Level::Group };
                check_options(errors, &path(&here, &["options"]), inner, inner_level);
            }
            continue;
        }
        let required = option["required"].as_bool().unwrap_or(false);
        if required && optional_seen {
            let message = "Required options must be placed before non-required options";
            errors.add(&here, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message);
        }
        optional_seen |= !required;
        check_values(errors, &here, option, kind);
    }
}

/// Choices, number bounds and length bounds of one option.
fn check_values(errors: &mut Errors, at: &[String], option: &Value, kind: u64) {
    let choices = option["choices"].as_array().map_or(&[][..], Vec::as_slice);
    if !choices.is_empty() && !matches!(kind, STRING | INTEGER | NUMBER) {
        errors.add(
            &path(at, &["choices"]),
            "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
            "Choices are not allowed here",
        );
    }
    if choices.len() > MAX_OPTIONS {
        errors.add(
            &path(at, &["choices"]),
            "BASE_TYPE_MAX_LENGTH",
            &format!("Must be {MAX_OPTIONS} or fewer in length."),
        );
    }
    if !choices.is_empty() && option["autocomplete"] == true {
        let message = "Autocomplete cannot be enabled on options with choices";
        errors.add(&path(at, &["autocomplete"]), "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", message);
    }
    for (i, choice) in choices.iter().enumerate() {
        let here = path(at, &["choices", &i.to_string()]);
        check_length(errors, &path(&here, &["name"]), choice["name"].as_str().unwrap_or_default(), 1, 100);
        if let Some(names) = choice["name_localizations"].as_object() {
            for (locale, name) in names {
                check_length(
                    errors,
                    &path(&here, &["name_localizations", locale]),
                    name.as_str().unwrap_or(""),
                    1,
                    100,
                );
            }
        }
        let value = &choice["value"];
        let fits = match kind {
            STRING => value.as_str().is_some_and(|v| v.chars().count() <= 100),
            INTEGER => value.as_i64().is_some_and(|v| (-MAX_SAFE..=MAX_SAFE).contains(&v)),
            _ => value.is_number(),
        };
        if !fits {
            errors.add(
                &path(&here, &["value"]),
                "APPLICATION_COMMAND_OPTION_CHOICE_VALUE_INVALID",
                "Invalid choice value",
            );
        }
    }
    let (min, max) = (&option["min_value"], &option["max_value"]);
    for (field, bound) in [("min_value", min), ("max_value", max)] {
        if bound.is_null() {
            continue;
        }
        let here = path(at, &[field]);
        match kind {
            INTEGER => match bound.as_i64() {
                Some(v) if v < -MAX_SAFE => {
                    let message = format!("int value should be greater than or equal to {}.", -MAX_SAFE);
                    errors.add(&here, "NUMBER_TYPE_MIN", &message);
                }
                Some(v) if v > MAX_SAFE => {
                    errors.add(
                        &here,
                        "NUMBER_TYPE_MAX",
                        &format!("int value should be less than or equal to {MAX_SAFE}."),
                    );
                }
                Some(_) => {}
                None => errors.add(&here, "INTEGER_TYPE_COERCE", "Value is not int."),
            },
            NUMBER if bound.is_number() => {}
            _ => errors.add(
                &here,
                "APPLICATION_COMMAND_OPTION_BOUNDS_INVALID",
                "Only integer and number options take bounds",
            ),
        }
    }
    if let (Some(min), Some(max)) = (min.as_f64(), max.as_f64())
        && min > max
    {
        let message = "min_value must be less than or equal to max_value";
        errors.add(&path(at, &["min_value"]), "APPLICATION_COMMAND_OPTION_BOUNDS_INVALID", message);
    }
    for (field, lowest) in [("min_length", 0), ("max_length", 1)] {
        let bound = &option[field];
        if bound.is_null() {
            continue;
        }
        let here = path(at, &[field]);
        if kind != STRING {
            errors.add(&here, "APPLICATION_COMMAND_OPTION_BOUNDS_INVALID", "Only string options take lengths");
        } else if !bound.as_u64().is_some_and(|v| (lowest..=6000).contains(&v)) {
            errors.add(&here, "NUMBER_TYPE_MAX", &format!("Must be between {lowest} and 6000."));
        }
    }
}

/// The characters Discord counts towards a command's size: names, descriptions, choice names and
/// values, at every level (localizations apart).
fn size(item: &Value) -> usize {
    let text = |v: &Value| match v {
        Value::String(s) => s.chars().count(),
        Value::Null => 0,
        other => other.to_string().len(),
    };
    let mut n = text(&item["name"]) + text(&item["description"]);
    for choice in item["choices"].as_array().map_or(&[][..], Vec::as_slice) {
        n += text(&choice["name"]) + text(&choice["value"]);
    }
    n + item["options"].as_array().map_or(0, |options| options.iter().map(size).sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(commands: Value) -> Value {
        check(commands.as_array().expect("a list")).expect_err("refused")
    }

    #[test]
    fn a_well_formed_command_with_subcommands_passes() {
        let command = json!([{ "name": "ladder", "description": "Ladders", "options": [
            { "type": 1, "name": "join", "description": "Join", "options": [
                { "type": 4, "name": "days", "description": "Days", "required": true, "min_value": 1, "max_value": 14 },
                { "type": 3, "name": "variant", "description": "Which", "choices": [{ "name": "Chess", "value": "chess" }] },
            ] },
            { "type": 1, "name": "standings", "description": "Standings" },
        ] }]);
        assert_eq!(check(command.as_array().expect("list")), Ok(()));
    }

    #[test]
    fn breaches_are_reported_at_their_paths() {
        let errors = errors_of(json!([{ "name": "Ladder", "description": "", "options": [
            { "type": 1, "name": "join", "description": "Join" },
            { "type": 4, "name": "join", "description": "Days", "min_value": 5, "max_value": 2 },
        ] }]));
        assert_eq!(errors["0"]["name"]["_errors"][0]["code"], "APPLICATION_COMMAND_INVALID_NAME", "{errors}");
        assert_eq!(errors["0"]["description"]["_errors"][0]["code"], "BASE_TYPE_BAD_LENGTH", "{errors}");
        let second = &errors["0"]["options"]["1"];
        assert_eq!(second["type"]["_errors"][0]["code"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "{errors}");
        assert_eq!(second["name"]["_errors"][0]["code"], "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS");
        assert_eq!(second["min_value"]["_errors"][0]["code"], "APPLICATION_COMMAND_OPTION_BOUNDS_INVALID");
        let many: Vec<Value> =
            (0..26).map(|i| json!({ "type": 5, "name": format!("o{i}"), "description": "x" })).collect();
        let errors = errors_of(json!([{ "name": "big", "description": "d", "options": many }]));
        assert_eq!(errors["0"]["options"]["_errors"][0]["code"], "BASE_TYPE_MAX_LENGTH", "{errors}");
        let errors = errors_of(json!([{ "name": "n", "description": "d", "options": [
            { "type": 4, "name": "a", "description": "d", "max_value": (1i64 << 53) + 1 },
            { "type": 3, "name": "b c", "description": "d", "required": true },
        ] }]));
        assert_eq!(errors["0"]["options"]["0"]["max_value"]["_errors"][0]["code"], "NUMBER_TYPE_MAX", "{errors}");
        assert_eq!(errors["0"]["options"]["1"]["name"]["_errors"][0]["code"], "STRING_TYPE_REGEX", "{errors}");
        assert_eq!(errors["0"]["options"]["1"]["_errors"][0]["code"], "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID");
        // Subcommands inside a subcommand.
        let errors = errors_of(json!([{ "name": "n", "description": "d", "options": [
            { "type": 1, "name": "a", "description": "d", "options": [{ "type": 1, "name": "b", "description": "d" }] },
        ] }]));
        assert_eq!(
            errors["0"]["options"]["0"]["options"]["0"]["type"]["_errors"][0]["code"],
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"
        );
    }
}

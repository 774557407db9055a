//! Command words and their arguments, as typed after the prefix. Parsing only; no storage.

/// The days-per-move values a correspondence game may have.
pub const DAYS_CHOICES: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Variants,
    Rules(Option<String>),
    /// `challenge [@user] [variant] [days:N] [color:C] [setup:N] [level:N]`.
    Challenge(ChallengeArgs),
    /// `play [variant] [level:N] ...`: a game against capabot's AI.
    Play(ChallengeArgs),
    Accept(Option<i64>),
    Decline(Option<i64>),
    Move {
        game: Option<i64>,
        text: String,
    },
    Board(Option<i64>),
    Games,
    Resign(Option<i64>),
    Draw(Option<i64>),
    Takeback(Option<i64>),
    /// `takeback decline [#game]`: refuse the opponent's takeback request.
    TakebackDecline(Option<i64>),
    Abort(Option<i64>),
    Fen(Option<i64>),
    Pgn(Option<i64>),
    Swap {
        game: Option<i64>,
        text: String,
    },
    NoSwap(Option<i64>),
    Settings(SettingsArgs),
    /// Not a command word: maybe a bare move (`e4`, `#12 e4`).
    Other {
        game: Option<i64>,
        text: String,
    },
}

/// Options of `challenge` and `play`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeArgs {
    /// Whether an `@name` was written (the front end puts who it is in the mentions).
    pub mentions_someone: bool,
    pub variant: Option<String>,
    /// `Some(None)` = `days:none`.
    pub days: Option<Option<u32>>,
    pub color: Option<String>,
    pub setup: Option<u32>,
    pub level: Option<u8>,
}

/// Options of `settings`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsArgs {
    pub prefix: Option<String>,
    pub variant: Option<String>,
    pub days: Option<Option<u32>>,
}

/// A command the user typed wrongly, with a message saying how to type it.
pub type ParseError = String;

fn game_ref(tok: &str) -> Option<i64> {
    tok.strip_prefix('#').and_then(|n| n.parse().ok()).filter(|&n: &i64| n > 0)
}

/// Splits off a leading or trailing `#N` game reference.
fn split_game(args: &[&str]) -> (Option<i64>, Vec<String>) {
    let mut game = None;
    let mut rest = Vec::new();
    for a in args {
        if game.is_none()
            && let Some(n) = game_ref(a)
        {
            game = Some(n);
            continue;
        }
        rest.push(a.to_string());
    }
    (game, rest)
}

fn only_game(word: &str, args: &[&str]) -> Result<Option<i64>, ParseError> {
    let (game, rest) = split_game(args);
    if !rest.is_empty() {
        return Err(format!("{word} takes at most a game number like #12, not '{}'", rest.join(" ")));
    }
    Ok(game)
}

/// An optional game number and the words after it, which must not be empty (`hint` says what to write).
fn game_and_text(args: &[&str], hint: &str) -> Result<(Option<i64>, String), ParseError> {
    let (game, rest) = split_game(args);
    if rest.is_empty() {
        return Err(hint.into());
    }
    Ok((game, rest.join(" ")))
}

fn parse_days(v: &str) -> Result<Option<u32>, ParseError> {
    if matches!(v, "none" | "0" | "off") {
        return Ok(None);
    }
    match v.parse::<u32>() {
        Ok(d) if DAYS_CHOICES.contains(&d) => Ok(Some(d)),
        _ => Err(format!("days must be one of 1, 2, 3, 5, 7, 10, 14 or none, not '{v}'")),
    }
}

fn parse_challenge(args: &[&str]) -> Result<ChallengeArgs, ParseError> {
    let mut c = ChallengeArgs::default();
    for a in args {
        if a.starts_with('@') || a.starts_with("<@") {
            c.mentions_someone = true;
            continue;
        }
        let lower = a.to_lowercase();
        if let Some((k, v)) = lower.split_once(':').or_else(|| lower.split_once('=')) {
            match k {
                "days" | "d" => c.days = Some(parse_days(v)?),
                "color" | "colour" | "side" => match v {
                    "white" | "w" => c.color = Some("white".into()),
                    "black" | "b" => c.color = Some("black".into()),
                    "random" | "r" | "any" => c.color = Some("random".into()),
                    _ => return Err(format!("color must be white, black or random, not '{v}'")),
                },
                "setup" => c.setup = Some(v.parse().map_err(|_| format!("setup must be a number, not '{v}'"))?),
                "level" | "lvl" => match v.parse::<u8>() {
                    Ok(l @ 1..=8) => c.level = Some(l),
                    _ => return Err(format!("level must be 1 to 8, not '{v}'")),
                },
                _ => {
                    return Err(format!(
                        "unknown option '{k}'; options are days:N, color:white|black|random, setup:N, level:N"
                    ));
                }
            }
        } else if c.variant.is_none() {
            c.variant = Some(lower);
        } else {
            return Err(format!("I don't understand '{a}' here"));
        }
    }
    Ok(c)
}

fn parse_settings(args: &[&str]) -> Result<SettingsArgs, ParseError> {
    let mut s = SettingsArgs::default();
    for a in args {
        let Some((k, v)) = a.split_once(':') else {
            return Err("settings take prefix:X, variant:NAME, days:N".into());
        };
        match k.to_lowercase().as_str() {
            "prefix" => {
                let ok = !v.is_empty()
                    && v.chars().count() <= 3
                    && !v.chars().any(|c| c.is_alphanumeric() || c.is_whitespace());
                if !ok {
                    return Err("a prefix is 1 to 3 symbols such as ! or ?".into());
                }
                s.prefix = Some(v.to_string());
            }
            "variant" => s.variant = Some(v.to_lowercase()),
            "days" => s.days = Some(parse_days(&v.to_lowercase())?),
            other => return Err(format!("unknown setting '{other}'; settings are prefix, variant, days")),
        }
    }
    Ok(s)
}

/// Parses the text after the prefix.
pub fn parse(body: &str) -> Result<Command, ParseError> {
    let toks: Vec<&str> = body.split_whitespace().collect();
    let Some((&word, args)) = toks.split_first() else {
        return Ok(Command::Help);
    };
    let w = word.to_lowercase();
    Ok(match w.as_str() {
        "help" | "h" | "commands" => Command::Help,
        "variants" => Command::Variants,
        "rules" => Command::Rules(args.first().map(|s| s.to_lowercase())),
        "challenge" | "c" => Command::Challenge(parse_challenge(args)?),
        "play" => Command::Play(parse_challenge(args)?),
        "accept" => Command::Accept(only_game("accept", args)?),
        "decline" | "cancel" => Command::Decline(only_game(&w, args)?),
        "move" | "m" => {
            let (game, text) = game_and_text(args, "say which move, e.g. !move e4 or !move #12 Nf3")?;
            Command::Move { game, text }
        }
        "board" | "b" | "show" => Command::Board(only_game("board", args)?),
        "games" | "list" => Command::Games,
        "resign" => Command::Resign(only_game("resign", args)?),
        "draw" => Command::Draw(only_game("draw", args)?),
        "takeback" | "undo" => {
            let (game, rest) = split_game(args);
            match rest.iter().map(|r| r.to_lowercase()).collect::<Vec<_>>().as_slice() {
                [] => Command::Takeback(game),
                [r] if matches!(r.as_str(), "decline" | "no") => Command::TakebackDecline(game),
                _ => {
                    return Err(format!(
                        "takeback takes at most a game number like #12 and 'decline', not '{}'",
                        rest.join(" ")
                    ));
                }
            }
        }
        "abort" => Command::Abort(only_game("abort", args)?),
        "fen" => Command::Fen(only_game("fen", args)?),
        "pgn" => Command::Pgn(only_game("pgn", args)?),
        "swap" => {
            let (game, text) =
                game_and_text(args, "say which swap, e.g. !swap K b (king with the piece on b) or !noswap")?;
            Command::Swap { game, text }
        }
        "noswap" => Command::NoSwap(only_game("noswap", args)?),
        "settings" | "set" => Command::Settings(parse_settings(args)?),
        _ => {
            let (game, rest) = split_game(&toks);
            Command::Other { game, text: rest.join(" ") }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_challenge_options() {
        let c = parse("challenge @bob capatomic days:3 color:black setup:17").unwrap();
        assert_eq!(
            c,
            Command::Challenge(ChallengeArgs {
                mentions_someone: true,
                variant: Some("capatomic".into()),
                days: Some(Some(3)),
                color: Some("black".into()),
                setup: Some(17),
                level: None
            })
        );
        assert!(parse("challenge @bob days:4").unwrap_err().contains("1, 2, 3, 5, 7, 10, 14"));
        assert!(parse("play level:9").is_err());
    }

    #[test]
    fn parses_moves_and_game_refs() {
        assert_eq!(parse("move #12 e4").unwrap(), Command::Move { game: Some(12), text: "e4".into() });
        assert_eq!(parse("Me1^e5").unwrap(), Command::Other { game: None, text: "Me1^e5".into() });
        assert_eq!(parse("board #3").unwrap(), Command::Board(Some(3)));
        assert_eq!(parse("takeback #4").unwrap(), Command::Takeback(Some(4)));
        assert_eq!(parse("takeback Decline #4").unwrap(), Command::TakebackDecline(Some(4)));
        assert_eq!(parse("undo no").unwrap(), Command::TakebackDecline(None));
        assert!(parse("takeback please").unwrap_err().contains("'please'"));
        assert!(parse("resign now please").is_err());
        assert_eq!(parse("").unwrap(), Command::Help);
    }
}

//! The table of commands ([`COMMANDS`]): each command's words, example, options or
//! subcommands, whether it needs an administrator, and its parser; the kinds of options and the number
//! ranges they take; and the lookup of a command by its word ([`spec`]).

use super::parse::{
    game_and_square, game_and_swap, game_and_text, no_args, offer_or_decline, only_challenge, only_game,
    parse_challenge, parse_ladder, parse_pgn, parse_rating, parse_settings, parse_tournament, yes_or_no,
};
use super::{Command, PREFIX_UNTIL_ANSWERED, Wrong};
use crate::msg;

/// The days-per-move values a correspondence game may have.
pub const DAYS_CHOICES: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

/// How a command's option is given: in a slash command it is a typed option; in text it is one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A person (`@name` in text; their id comes in the input's mentions).
    User,
    /// A variant name (choices: the variants).
    Variant,
    /// `days:N` (choices: [`DAYS_CHOICES`] and none).
    Days,
    /// `days:N` of a chat's (a community's) settings: [`DAYS_CHOICES`], none, and default (the
    /// chat's own forgotten).
    DaysOrDefault,
    /// `days:N` for something that always has a clock (ladders, tournaments): [`DAYS_CHOICES`] only.
    DaysPerMove,
    /// `color:white|black|random`.
    Color,
    /// `setup:N`.
    Setup,
    /// `level:1..8`.
    Level,
    /// A game or challenge number, `#N`.
    Game,
    /// A move in the caller's game (front ends may autocomplete the legal moves).
    Move,
    /// One of the community's ladders, by its variant (front ends may autocomplete the
    /// community's ladders: [`crate::bot::Bot::suggest_ladders`]).
    Ladder,
    /// A square of a game's board (front ends may autocomplete the squares of the pieces that can
    /// move: [`crate::bot::Bot::suggest_squares`]).
    Square,
    /// Free text.
    Text,
    /// `key:value` text.
    Keyed(&'static str),
    /// A yes/no choice written as one of two words: (yes word, no word).
    Flag(&'static str, &'static str),
    /// A yes/no choice written `key:on` or `key:off`.
    Switch(&'static str),
    /// A whole number in a [`Range`], written `key:N` (`rounds:5`).
    Number(Range),
    /// A whole number in a [`Range`], written bare after the words before it (`ladder season 3`).
    Count(Range),
    /// One of a few words (a slash command's choices).
    Choice(&'static [&'static str]),
    /// One of a few words written `key:word` (`theme:contrast`; a slash command's choices).
    KeyedChoice(&'static str, &'static [&'static str]),
}

impl OptionKind {
    /// The words a slash command offers as its choices, for the kinds that have a few.
    pub fn choices(self) -> &'static [&'static str] {
        match self {
            OptionKind::Choice(words) | OptionKind::KeyedChoice(_, words) => words,
            _ => &[],
        }
    }
}

/// The whole numbers an option takes: the parser refuses others, and a front end with typed
/// options (Discord's integer options) offers exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The word for it in `key:N` and in messages.
    pub key: &'static str,
    pub min: u32,
    pub max: u32,
    /// What the numbers number, when they do (an event, a season, a round): a whole number out of
    /// the range is answered that there is none such.
    pub counts: Option<Counted>,
}

/// What a [`Range`]'s numbers number, each with its answer that there is none such.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counted {
    /// A ladder's events (`ladder undo N`).
    LadderEvent,
    /// A ladder's seasons.
    Season,
    /// A tournament's rounds.
    Round,
}

impl Counted {
    /// The answer that there is no such thing numbered `given` (as typed, however long).
    fn none(self, given: &str) -> Wrong {
        match self {
            Counted::LadderEvent => msg!("ladder-unknown-event", id = short(given)),
            Counted::Season => msg!("season-none", number = short(given)),
            Counted::Round => msg!("round-none", number = short(given)),
        }
    }
}

impl Range {
    /// Numbers from `min` to `max`, numbering nothing.
    const fn limited(key: &'static str, min: u32, max: u32) -> Range {
        Range { key, min, max, counts: None }
    }

    /// Numbers from 1 with no limit of their own (the parser's `u32`) that number `counts`, so that
    /// any other number names nothing.
    const fn from_one(key: &'static str, counts: Counted) -> Range {
        Range { key, min: 1, max: u32::MAX, counts: Some(counts) }
    }

    /// `given` as a number of the range. A whole number out of it that numbers something is
    /// answered that there is none such, with the number as typed however long; a range with a
    /// limit of its own names both ends; anything else is said to be no whole number from 1.
    pub(super) fn parse(&self, given: &str) -> Result<u32, Wrong> {
        let digits = !given.is_empty() && given.bytes().all(|b| b.is_ascii_digit());
        match given.parse::<u32>() {
            Ok(n) if (self.min..=self.max).contains(&n) => Ok(n),
            _ if digits && let Some(counted) = self.counts => Err(counted.none(given)),
            _ if self.max < u32::MAX => {
                Err(msg!("parse-in-range", key = self.key, min = self.min, max = self.max, given = short(given)))
            }
            _ => Err(msg!("parse-positive", key = self.key, given = short(given))),
        }
    }
}

fn short(given: &str) -> String {
    crate::bot::commands::short(given)
}

/// Swiss rounds (`rounds:N`): at most [`crate::community::swiss::MAX_ROUNDS`]; more than the field
/// allows are cut at the start (and the start says so).
pub const ROUNDS: Range = Range::limited("rounds", 1, crate::community::swiss::MAX_ROUNDS as u32);
/// Days of registration before a tournament starts by itself; 0: an administrator starts it.
pub const SIGNUP: Range = Range::limited("signup", 0, 30);
/// How many places up a ladder challenge may reach.
pub const REACH: Range = Range::limited("reach", 1, 100);
/// Days a ladder challenge may wait for an answer.
pub const WAIT: Range = Range::limited("wait", 1, 30);
/// A ladder result's number within its season (`ladder undo N`).
pub const EVENT: Range = Range::from_one("event", Counted::LadderEvent);
/// A ladder season's number.
pub const SEASON: Range = Range::from_one("season", Counted::Season);
/// A tournament round's number.
pub const ROUND: Range = Range::from_one("round", Counted::Round);
/// The pairing systems of `tournament create`, as typed.
pub const SYSTEMS: &[&str] = &["roundrobin", "double", "swiss"];

/// The board themes' names, as `settings theme:NAME` takes them (the renderer's [`crate::render::Theme`]).
pub const THEMES: &[&str] = &["wood", "green", "contrast"];

/// [`THEMES`] and `default` (a person's, a chat's or a community's own theme forgotten), as `theme`
/// and `settings theme:` take them.
const THEMES_OR_DEFAULT: &[&str] = &["wood", "green", "contrast", "default"];

/// The languages' codes and `default` (the chat's own forgotten), as `settings lang:` takes them.
const LANGS_OR_DEFAULT: &[&str] = &["en", "tr", "de", "default"];
/// A setting that is on or off, or back to what it would be without it (`thread:default`): three
/// words rather than a yes/no option, which a slash command could not take back.
const ON_OFF_DEFAULT: &[&str] = &["on", "off", "default"];

/// One option of a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    pub required: bool,
}

/// One command: its words, help, options and parser.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    /// The command word (and slash command name).
    pub name: &'static str,
    pub aliases: &'static [&'static str],
    /// What to type after the prefix, for the help text.
    pub example: &'static str,
    pub options: &'static [OptionSpec],
    /// What the command does, one word each (`ladder join`): where there are any, a front end
    /// with typed options offers these instead of [`Self::options`], each with its own options.
    pub subcommands: &'static [SubcommandSpec],
    /// Needs a community administrator when used in a community.
    pub admin: bool,
    pub(super) parse: fn(&str, &[&str]) -> Result<Command, Wrong>,
}

/// One action of a command (Discord's SUB_COMMAND): its name, the words it stands for after the
/// command's word, and its options, which become the words after those. The command's parser
/// reads them, so a subcommand gives what its typed words give.
#[derive(Clone, Copy, Debug)]
pub struct SubcommandSpec {
    /// The slash name (lower case, `-` between words).
    pub name: &'static str,
    /// The typed words it stands for (`season close`).
    pub words: &'static str,
    pub options: &'static [OptionSpec],
    /// Only a community administrator may do it: the core checks that (Discord shows a command's
    /// subcommands to everyone who sees the command).
    pub admin: bool,
}

const fn sub(name: &'static str, options: &'static [OptionSpec]) -> SubcommandSpec {
    SubcommandSpec { name, words: name, options, admin: false }
}

const fn admin_sub(name: &'static str, options: &'static [OptionSpec]) -> SubcommandSpec {
    SubcommandSpec { name, words: name, options, admin: true }
}

const fn opt(name: &'static str, kind: OptionKind) -> OptionSpec {
    OptionSpec { name, kind, required: false }
}

const fn req(name: &'static str, kind: OptionKind) -> OptionSpec {
    OptionSpec { name, kind, required: true }
}

const GAME_OPT: OptionSpec = opt("game", OptionKind::Game);
const GAME_ONLY: &[OptionSpec] = &[GAME_OPT];

/// Which of the community's ladders, by its variant's name. Not a choice of every variant: Discord
/// counts choices towards a command's 4,000 characters, and ten subcommands with eleven variants
/// each would pass them (and most variants have no ladder); front ends suggest the community's
/// existing ladders instead.
const LADDER: OptionSpec = opt("variant", OptionKind::Ladder);

/// `ladder`'s actions; who is challenged or removed is a person option (the mentions).
pub(super) static LADDER_ACTIONS: &[SubcommandSpec] = &[
    sub("standings", &[LADDER]),
    sub("join", &[LADDER]),
    sub("leave", &[LADDER]),
    sub("challenge", &[req("player", OptionKind::User), LADDER]),
    sub("accept", &[LADDER]),
    sub("decline", &[LADDER]),
    sub("withdraw", &[LADDER]),
    sub("season", &[req("season", OptionKind::Count(SEASON)), LADDER]),
    admin_sub(
        "create",
        &[
            req("variant", OptionKind::Variant),
            opt("days", OptionKind::DaysPerMove),
            opt("reach", OptionKind::Number(REACH)),
            opt("wait", OptionKind::Number(WAIT)),
        ],
    ),
    admin_sub("remove", &[req("player", OptionKind::User), LADDER]),
    admin_sub("undo", &[req("event", OptionKind::Count(EVENT)), opt("reason", OptionKind::Text)]),
    SubcommandSpec { name: "season-close", words: "season close", options: &[LADDER], admin: true },
];

const TOURNAMENT: OptionSpec = opt("tournament", OptionKind::Game);

/// `tournament`'s actions; the tournament's number is `#N` among the words.
pub(super) static TOURNAMENT_ACTIONS: &[SubcommandSpec] = &[
    sub("standings", &[TOURNAMENT]),
    sub("round", &[req("round", OptionKind::Count(ROUND)), TOURNAMENT]),
    sub("crosstable", &[TOURNAMENT]),
    sub("join", &[TOURNAMENT]),
    sub("leave", &[TOURNAMENT]),
    sub("withdraw", &[TOURNAMENT]),
    admin_sub(
        "create",
        &[
            opt("system", OptionKind::Choice(SYSTEMS)),
            opt("variant", OptionKind::Variant),
            opt("rounds", OptionKind::Number(ROUNDS)),
            opt("days", OptionKind::DaysPerMove),
            opt("signup", OptionKind::Number(SIGNUP)),
            opt("name", OptionKind::Text),
        ],
    ),
    admin_sub("start", &[TOURNAMENT]),
    admin_sub("cancel", &[TOURNAMENT]),
];

/// Every command, in help order.
pub static COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "challenge",
        aliases: &["c"],
        example: "challenge @bob capatomic days:3",
        options: &[
            opt("opponent", OptionKind::User),
            opt("variant", OptionKind::Variant),
            opt("days", OptionKind::Days),
            opt("color", OptionKind::Color),
            opt("setup", OptionKind::Setup),
            opt("casual", OptionKind::Flag("casual", "rated")),
        ],
        subcommands: &[],
        admin: false,
        parse: |_, a| Ok(Command::Challenge(parse_challenge(a, true)?)),
    },
    CommandSpec {
        name: "play",
        aliases: &[],
        example: "play chess level:2",
        options: &[
            opt("variant", OptionKind::Variant),
            opt("level", OptionKind::Level),
            opt("days", OptionKind::Days),
            opt("color", OptionKind::Color),
            opt("setup", OptionKind::Setup),
        ],
        subcommands: &[],
        admin: false,
        parse: |_, a| Ok(Command::Play(parse_challenge(a, false)?)),
    },
    CommandSpec {
        name: "accept",
        aliases: &[],
        example: "accept #4",
        options: &[opt("challenge", OptionKind::Game)],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Accept(only_challenge(w, a)?)),
    },
    CommandSpec {
        name: "decline",
        aliases: &["cancel"],
        example: "decline #4",
        options: &[opt("challenge", OptionKind::Game)],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Decline(only_challenge(w, a)?)),
    },
    CommandSpec {
        name: "move",
        aliases: &["m"],
        example: "move Nf3",
        options: &[req("move", OptionKind::Move), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, text) = game_and_text(a, msg!("parse-which-move", p = PREFIX_UNTIL_ANSWERED))?;
            Ok(Command::Move { game, text })
        },
    },
    CommandSpec {
        name: "board",
        aliases: &["b", "show"],
        example: "board",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |_, a| Ok(Command::Board(only_game("board", a)?)),
    },
    CommandSpec {
        name: "games",
        aliases: &["list"],
        example: "games",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Games),
    },
    CommandSpec {
        name: "resign",
        aliases: &[],
        example: "resign",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Resign(only_game(w, a)?)),
    },
    CommandSpec {
        name: "draw",
        aliases: &[],
        example: "draw",
        options: &[GAME_OPT, opt("decline", OptionKind::Flag("decline", ""))],
        subcommands: &[],
        admin: false,
        parse: |_, a| offer_or_decline("draw", a, Command::Draw, Command::DrawDecline),
    },
    CommandSpec {
        name: "takeback",
        aliases: &["undo"],
        example: "takeback",
        options: &[GAME_OPT, opt("decline", OptionKind::Flag("decline", ""))],
        subcommands: &[],
        admin: false,
        parse: |_, a| offer_or_decline("takeback", a, Command::Takeback, Command::TakebackDecline),
    },
    CommandSpec {
        name: "abort",
        aliases: &[],
        example: "abort",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Abort(only_game(w, a)?)),
    },
    CommandSpec {
        name: "fen",
        aliases: &[],
        example: "fen",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Fen(only_game(w, a)?)),
    },
    CommandSpec {
        name: "pgn",
        aliases: &[],
        example: "pgn #12 analysed",
        options: &[GAME_OPT, opt("analysed", OptionKind::Flag("analysed", ""))],
        subcommands: &[],
        admin: false,
        parse: |w, a| {
            let (game, analysed) = parse_pgn(w, a)?;
            Ok(Command::Pgn { game, analysed })
        },
    },
    CommandSpec {
        name: "analyse",
        aliases: &["analyze", "analysis"],
        example: "analyse #12",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Analyse(only_game(w, a)?)),
    },
    CommandSpec {
        name: "gif",
        aliases: &["replay", "animate"],
        example: "gif #12",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Gif(only_game(w, a)?)),
    },
    CommandSpec {
        name: "rematch",
        aliases: &["again"],
        example: "rematch #12",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Rematch(only_game(w, a)?)),
    },
    CommandSpec {
        name: "swap",
        aliases: &[],
        example: "swap K b",
        options: &[req("swap", OptionKind::Text), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, text) = game_and_swap(a)?;
            Ok(Command::Swap { game, text })
        },
    },
    CommandSpec {
        name: "noswap",
        aliases: &[],
        example: "noswap",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::NoSwap(only_game(w, a)?)),
    },
    CommandSpec {
        name: "moves",
        aliases: &["legal"],
        example: "moves g1",
        options: &[opt("square", OptionKind::Square), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |w, a| {
            let (game, square) = game_and_square(a, |given| msg!("parse-moves", word = w, given = given))?;
            Ok(Command::Moves { game, square })
        },
    },
    CommandSpec {
        name: "bomb",
        aliases: &[],
        example: "bomb g1",
        options: &[opt("square", OptionKind::Text), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |w, a| {
            let (game, square) = game_and_square(a, |given| msg!("parse-bomb", word = w, given = given))?;
            Ok(Command::Bomb { game, square })
        },
    },
    CommandSpec {
        name: "variants",
        aliases: &[],
        example: "variants",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Variants),
    },
    CommandSpec {
        name: "rules",
        aliases: &[],
        example: "rules capatomic",
        options: &[opt("variant", OptionKind::Variant)],
        subcommands: &[],
        admin: false,
        // Several words are one name (`rules capablanca random chess`, a variant's full name); a
        // name no variant has is answered with the variants.
        parse: |_, a| match a {
            [] => Ok(Command::Rules(None)),
            words => Ok(Command::Rules(Some(words.join(" ").to_lowercase()))),
        },
    },
    CommandSpec {
        name: "settings",
        aliases: &["set"],
        example: "settings prefix:? variant:chess days:3",
        options: &[
            opt("community", OptionKind::Flag("community", "")),
            opt("prefix", OptionKind::Keyed("prefix")),
            opt("variant", OptionKind::Keyed("variant")),
            opt("days", OptionKind::DaysOrDefault),
            opt("thread", OptionKind::KeyedChoice("thread", ON_OFF_DEFAULT)),
            opt("gif", OptionKind::KeyedChoice("gif", ON_OFF_DEFAULT)),
            opt("theme", OptionKind::KeyedChoice("theme", THEMES_OR_DEFAULT)),
            opt("language", OptionKind::KeyedChoice("lang", LANGS_OR_DEFAULT)),
            opt("rated", OptionKind::Keyed("rated")),
            opt("web", OptionKind::KeyedChoice("web", ON_OFF_DEFAULT)),
        ],
        subcommands: &[],
        admin: true,
        parse: |_, a| Ok(Command::Settings(parse_settings(a)?)),
    },
    CommandSpec {
        name: "notify",
        aliases: &[],
        example: "notify off",
        options: &[opt("dm", OptionKind::Flag("on", "off"))],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Notify(None)),
            // On or off only: a person's own choice has no default above it to go back to (before:
            // refused as "on, off or default", and `notify default` then refused too).
            [v] => yes_or_no(v).map(|on| Command::Notify(Some(on))).ok_or_else(|| msg!("parse-notify", given = *v)),
            _ => Err(msg!("parse-notify", given = a.join(" "))),
        },
    },
    CommandSpec {
        name: "lang",
        aliases: &["language", "dil"],
        example: "lang tr",
        options: &[opt("language", OptionKind::Text)],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Lang(None)),
            // `default` in any language (`varsayılan`) forgets one's own; a language by its code or name.
            [v] if super::names::said(v, "optvalue-default") => Ok(Command::Lang(Some("default".into()))),
            [v] => Ok(Command::Lang(Some(v.to_lowercase()))),
            _ => Err(msg!("lang-usage")),
        },
    },
    CommandSpec {
        name: "theme",
        aliases: &["colors", "colours"],
        example: "theme contrast",
        options: &[opt("theme", OptionKind::Choice(THEMES_OR_DEFAULT))],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Theme(None)),
            [v] => Ok(Command::Theme(Some(v.to_lowercase()))),
            _ => Err(msg!("theme-usage")),
        },
    },
    CommandSpec {
        name: "rating",
        aliases: &["elo"],
        example: "rating capatomic",
        options: &[
            opt("player", OptionKind::User),
            opt("variant", OptionKind::Variant),
            opt("global", OptionKind::Flag("global", "")),
        ],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Rating(parse_rating(w, a, true, true)?)),
    },
    CommandSpec {
        name: "leaderboard",
        aliases: &["top"],
        example: "leaderboard chess",
        options: &[opt("variant", OptionKind::Variant), opt("global", OptionKind::Flag("global", ""))],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Leaderboard(parse_rating(w, a, false, false)?)),
    },
    CommandSpec {
        name: "history",
        aliases: &[],
        example: "history capatomic",
        options: &[
            opt("player", OptionKind::User),
            opt("variant", OptionKind::Variant),
            opt("global", OptionKind::Flag("global", "")),
        ],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::History(parse_rating(w, a, true, false)?)),
    },
    CommandSpec {
        name: "link",
        aliases: &[],
        example: "link ABCD-EFGH",
        options: &[opt("code", OptionKind::Text)],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Link(None)),
            _ => Ok(Command::Link(Some(a.concat()))),
        },
    },
    CommandSpec {
        name: "unlink",
        aliases: &[],
        example: "unlink",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Unlink),
    },
    CommandSpec {
        name: "web",
        aliases: &[],
        example: "web",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Web),
    },
    CommandSpec {
        name: "ladder",
        aliases: &[],
        example: "ladder challenge @bob chess",
        options: &[],
        subcommands: LADDER_ACTIONS,
        admin: false,
        parse: |_, a| Ok(Command::Ladder(parse_ladder(a)?)),
    },
    CommandSpec {
        name: "tournament",
        aliases: &["tourney"],
        example: "tournament create swiss capatomic rounds:5 days:3 Winter Cup",
        options: &[],
        subcommands: TOURNAMENT_ACTIONS,
        admin: false,
        parse: |_, a| Ok(Command::Tournament(parse_tournament(a)?)),
    },
    CommandSpec {
        name: "help",
        aliases: &["h", "commands"],
        example: "help analyse",
        options: &[opt("command", OptionKind::Text)],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Help(None)),
            // Written as it is typed elsewhere too: `help !move`, `help /move`.
            [c] => Ok(Command::Help(Some(c.trim_start_matches(|ch: char| ch.is_ascii_punctuation()).to_lowercase()))),
            _ => Err(msg!("parse-help", p = PREFIX_UNTIL_ANSWERED)),
        },
    },
];

/// The command whose word (or alias) is `word` (any case).
pub fn spec(word: &str) -> Option<&'static CommandSpec> {
    let w = word.to_lowercase();
    COMMANDS.iter().find(|c| c.name == w || c.aliases.contains(&w.as_str()))
}

/// The command word (or alias of three letters or more) that `word`, no command's, is most likely a
/// slip for (`hlep`: `help`).
pub fn near_word(word: &str) -> Option<&'static str> {
    let words = COMMANDS.iter().flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()));
    crate::bot::near::nearest(word, words.filter(|w| w.len() >= 3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::command::{help_text, parse};
    use crate::i18n::Lang;

    /// A number nothing has is answered by what the range numbers, whatever its key is called
    /// (before: by the key's spelling, so that a renamed `season` said "there is no round").
    #[test]
    fn a_number_nothing_has_is_answered_by_what_the_range_numbers() {
        for (range, id) in [(EVENT, "ladder-unknown-event"), (SEASON, "season-none"), (ROUND, "round-none")] {
            for range in [range, Range { key: "renamed", ..range }] {
                for given in ["0", "99999999999"] {
                    assert_eq!(range.parse(given).unwrap_err().id, id, "{} {given}", range.key);
                }
                assert_eq!(range.parse("x").unwrap_err().id, "parse-positive", "{}", range.key);
                assert_eq!(range.parse("7"), Ok(7));
            }
        }
        for range in [ROUNDS, SIGNUP, REACH, WAIT, Range { key: "season", ..REACH }] {
            assert_eq!(range.parse("999").unwrap_err().id, "parse-in-range", "{}", range.key);
        }
    }

    /// The help where only slash commands reach capabot says how to use them and the buttons, and
    /// the bomb's square option says which square (before: "offers come with buttons", "The square
    /// of your piece to make your bomb").
    #[test]
    fn slash_help_and_the_bomb_square_say_plainly_what_to_do() {
        let help = crate::i18n::with_lang(Lang::En, || help_text("/", true));
        let head = "Commands: type / and pick one from the list; its options are then shown for you to fill \
                    in. Where an answer of mine has buttons, pressing one does the same as its command:\n/challenge — ";
        assert!(help.starts_with(head), "{help}");
        let bomb = spec("bomb").unwrap();
        let square = bomb.options.iter().find(|o| o.name == "square").unwrap();
        assert_eq!(
            bomb.option_description(None, square, Lang::En),
            "The square of the piece that becomes your bomb (not the king), e.g. g1; leave out to see your board"
        );
    }

    #[test]
    fn every_command_word_is_in_the_table_once() {
        let mut words: Vec<&str> =
            COMMANDS.iter().flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied())).collect();
        let n = words.len();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n, "a word names two commands");
        for c in COMMANDS {
            for lang in Lang::ALL {
                let summary = c.summary(lang);
                assert!(summary.chars().count() <= 100 && !summary.is_empty(), "{} {lang:?}", c.name);
                for o in c.options {
                    let d = c.option_description(None, o, lang);
                    assert!(d.chars().count() <= 100 && !d.is_empty(), "{} {} {lang:?}", c.name, o.name);
                }
                for sub in c.subcommands {
                    let summary = c.subcommand_summary(sub, lang);
                    assert!(summary.chars().count() <= 100 && !summary.is_empty(), "{} {} {lang:?}", c.name, sub.name);
                    for o in sub.options {
                        let d = c.option_description(Some(sub), o, lang);
                        assert!(
                            d.chars().count() <= 100 && !d.is_empty(),
                            "{} {} {} {lang:?}",
                            c.name,
                            sub.name,
                            o.name
                        );
                    }
                }
            }
            assert!(
                help_text("!", false).contains(&format!("!{} ", c.name))
                    || help_text("!", false).contains(&format!("!{} —", c.name))
            );
            // The example parses to the command itself.
            let parsed = parse(c.example).unwrap();
            assert_eq!(spec(c.example.split_whitespace().next().unwrap()).map(|s| s.name), Some(c.name));
            assert!(!matches!(parsed, Command::Other { .. }), "{}", c.example);
        }
        // Where only slash commands reach the bot, help names them and nothing typed.
        let slash = help_text("/", true);
        assert!(COMMANDS.iter().all(|c| slash.contains(&format!("\n/{} — ", c.name))), "{slash}");
        assert!(!slash.contains('!') && !slash.contains("e.g."), "{slash}");
    }
}

//! The commands: one table ([`COMMANDS`]) from which the parser, the help text and the command
//! list a front end registers (Discord slash commands, their descriptions and options) all come, so
//! a new command is written in one place. Parsing only; no storage. Summaries and option
//! descriptions are in the catalogues (`locales/*/commands.ftl`), by the command's and option's names.

use crate::i18n::{Lang, Msg};
use crate::msg;

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
    /// `draw decline [#game]`: refuse the opponent's draw offer.
    DrawDecline(Option<i64>),
    Takeback(Option<i64>),
    /// `takeback decline [#game]`: refuse the opponent's takeback request.
    TakebackDecline(Option<i64>),
    Abort(Option<i64>),
    Fen(Option<i64>),
    Pgn(Option<i64>),
    /// `gif [#game]`: the whole game as an animated picture.
    Gif(Option<i64>),
    Swap {
        game: Option<i64>,
        text: String,
    },
    NoSwap(Option<i64>),
    /// `bomb [#game] [square]`: secret-bomb chess — choose one's bomb (in a direct message), or see
    /// one's own board with it marked.
    Bomb {
        game: Option<i64>,
        square: Option<String>,
    },
    Settings(SettingsArgs),
    /// `notify on|off`: direct-message notices (reminders, "your move"); none shows the setting.
    Notify(Option<bool>),
    /// `lang [en|tr|default]`: the language capabot speaks to this person; none shows it.
    Lang(Option<String>),
    /// `rating [@user] [variant] [global]`.
    Rating(RatingArgs),
    /// `leaderboard [variant] [global]`.
    Leaderboard(RatingArgs),
    /// `history [@user] [variant] [global]`: the rating chart.
    History(RatingArgs),
    /// Not a command word: maybe a bare move (`e4`, `#12 e4`).
    Other {
        game: Option<i64>,
        text: String,
    },
    /// `link [CODE]`: a one-time code for linking accounts, or linking with one.
    Link(Option<String>),
    /// `unlink`: this account leaves the person it was linked to.
    Unlink,
    /// `ladder ...`: the community's rank ladders.
    Ladder(LadderCmd),
    /// `tournament ...`: the community's round robins and Swiss tournaments.
    Tournament(TournamentCmd),
}

/// How a tournament asked for by `tournament create` is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
}

/// What `tournament` is asked to do; `id` (`#N`) picks the tournament where the community has several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentCmd {
    /// The list, or one tournament's standings and pairings (of round `round`, else the current one).
    Show {
        id: Option<i64>,
        round: Option<u32>,
    },
    Create {
        kind: TournamentKind,
        /// Swiss rounds (default: enough for a clear winner, as many as the field allows).
        rounds: Option<u32>,
        variant: Option<String>,
        days: Option<u32>,
        /// Days of registration before it starts by itself; `Some(0)`: an administrator starts it.
        signup: Option<u32>,
        /// As written (case kept); empty for the default name.
        name: String,
    },
    Join(Option<i64>),
    Leave(Option<i64>),
    Start(Option<i64>),
    Cancel(Option<i64>),
}

/// What `ladder` is asked to do; `variant` picks the ladder where the community has several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderCmd {
    Show,
    Create {
        variant: String,
        days: Option<u32>,
        reach: Option<usize>,
        wait: Option<u32>,
    },
    Join(Option<String>),
    Leave(Option<String>),
    /// A challenge of the first mentioned user.
    Challenge(Option<String>),
    Accept(Option<String>),
    Decline(Option<String>),
    /// Removal of the first mentioned user.
    Remove(Option<String>),
    Undo {
        event: u32,
        reason: String,
    },
    SeasonClose(Option<String>),
    Season {
        number: u32,
        variant: Option<String>,
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
    /// `rated` / `casual` as a bare word; `None` leaves it to the community's rule.
    pub rated: Option<bool>,
}

/// Options of `rating`, `leaderboard` and `history`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RatingArgs {
    /// Whether an `@name` was written (who it is comes in the mentions).
    pub someone: bool,
    pub variant: Option<String>,
    /// The global ratings even in a community.
    pub global: bool,
}

fn parse_rating(word: &str, args: &[&str], people: bool) -> Result<RatingArgs, ParseError> {
    let mut r = RatingArgs::default();
    for a in args {
        if a.starts_with('@') || a.starts_with("<@") {
            if !people {
                return Err(msg!("parse-about-everyone", word = word, given = *a));
            }
            r.someone = true;
        } else if a.eq_ignore_ascii_case("global") {
            r.global = true;
        } else if r.variant.is_none() {
            r.variant = Some(a.to_lowercase());
        } else {
            return Err(msg!("parse-not-understood", given = *a));
        }
    }
    Ok(r)
}

/// Options of `settings`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsArgs {
    /// `settings community ...`: the community's settings, which its chats inherit.
    pub community: bool,
    pub prefix: Option<String>,
    pub variant: Option<String>,
    pub days: Option<Option<u32>>,
    /// Open a thread for each new game.
    pub thread: Option<bool>,
    /// The community's rule for rated games.
    pub rated: Option<crate::store::settings::RatedGames>,
    /// Post the game as an animated picture when it ends.
    pub gif: Option<bool>,
    /// The chat's (or community's) language, a code such as `tr`.
    pub lang: Option<String>,
}

/// A command the user typed wrongly, with a message saying how to type it (rendered in the
/// reader's language).
pub type ParseError = Msg;

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
        return Err(msg!("parse-only-game", word = word, given = rest.join(" ")));
    }
    Ok(game)
}

/// An optional game number and the words after it, which must not be empty (`hint` says what to write).
fn game_and_text(args: &[&str], hint: Msg) -> Result<(Option<i64>, String), ParseError> {
    let (game, rest) = split_game(args);
    if rest.is_empty() {
        return Err(hint);
    }
    Ok((game, rest.join(" ")))
}

fn parse_days(v: &str) -> Result<Option<u32>, ParseError> {
    if matches!(v, "none" | "0" | "off") {
        return Ok(None);
    }
    match v.parse::<u32>() {
        Ok(d) if DAYS_CHOICES.contains(&d) => Ok(Some(d)),
        _ => Err(msg!("parse-days", given = v)),
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
                    _ => return Err(msg!("parse-color", given = v)),
                },
                "setup" => c.setup = Some(v.parse().map_err(|_| msg!("parse-setup", given = v))?),
                "level" | "lvl" => match v.parse::<u8>() {
                    Ok(l @ 1..=8) => c.level = Some(l),
                    _ => return Err(msg!("parse-level", given = v)),
                },
                _ => return Err(msg!("parse-unknown-option", given = k)),
            }
        } else if matches!(lower.as_str(), "casual" | "unrated") {
            c.rated = Some(false);
        } else if lower == "rated" {
            c.rated = Some(true);
        } else if c.variant.is_none() {
            c.variant = Some(lower);
        } else {
            return Err(msg!("parse-not-understood", given = *a));
        }
    }
    Ok(c)
}

fn parse_switch(key: &str, v: &str) -> Result<bool, ParseError> {
    match v.to_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(msg!("parse-switch", key = key, given = v)),
    }
}

fn parse_settings(args: &[&str]) -> Result<SettingsArgs, ParseError> {
    let mut s = SettingsArgs::default();
    for a in args {
        if matches!(a.to_lowercase().as_str(), "community" | "server" | "space") {
            s.community = true;
            continue;
        }
        let Some((k, v)) = a.split_once(':') else {
            return Err(msg!("parse-settings"));
        };
        match k.to_lowercase().as_str() {
            "prefix" => {
                let ok = !v.is_empty()
                    && v.chars().count() <= 3
                    && !v.chars().any(|c| c.is_alphanumeric() || c.is_whitespace());
                if !ok {
                    return Err(msg!("parse-prefix"));
                }
                s.prefix = Some(v.to_string());
            }
            "variant" => s.variant = Some(v.to_lowercase()),
            "days" => s.days = Some(parse_days(&v.to_lowercase())?),
            "thread" | "threads" => s.thread = Some(parse_switch("thread", v)?),
            "gif" | "animation" => s.gif = Some(parse_switch("gif", v)?),
            "lang" | "language" | "dil" => match Lang::parse(v) {
                Some(l) => s.lang = Some(l.code().to_string()),
                None => return Err(msg!("lang-unknown", given = v)),
            },
            "rated" => {
                s.rated = Some(
                    crate::store::settings::RatedGames::parse(&v.to_lowercase())
                        .ok_or_else(|| msg!("parse-rated", given = v))?,
                )
            }
            other => {
                return Err(msg!("parse-unknown-setting", given = other));
            }
        }
    }
    Ok(s)
}

// ----- the table -----

/// How a command's option is given: in a slash command it is a typed option; in text it is one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// A person (`@name` in text; their id comes in the input's mentions).
    User,
    /// A variant name (choices: the variants).
    Variant,
    /// A variant a ladder or tournament may have (choices: the variants without secret bombs).
    SeriesVariant,
    /// `days:N` (choices: [`DAYS_CHOICES`] and none).
    Days,
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
}

/// The whole numbers an option takes: the parser refuses others, and a front end with typed
/// options (Discord's integer options) offers exactly these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The word for it in `key:N` and in messages.
    pub key: &'static str,
    pub min: u32,
    pub max: u32,
}

impl Range {
    /// Numbers from 1 with no limit of their own (the parser's `u32`).
    const fn from_one(key: &'static str) -> Range {
        Range { key, min: 1, max: u32::MAX }
    }

    /// `given` as a number of the range; out of it, `parse-positive`'s message, so a range with a
    /// message of its own (`signup`) says it itself.
    fn parse(&self, given: &str) -> Result<u32, ParseError> {
        match given.parse::<u32>() {
            Ok(n) if (self.min..=self.max).contains(&n) => Ok(n),
            _ => Err(msg!("parse-positive", key = self.key, given = given)),
        }
    }
}

/// Swiss rounds (`rounds:N`); more than the field allows are cut at the start.
pub const ROUNDS: Range = Range::from_one("rounds");
/// Days of registration before a tournament starts by itself; 0: an administrator starts it.
pub const SIGNUP: Range = Range { key: "signup", min: 0, max: 30 };
/// How many places up a ladder challenge may reach.
pub const REACH: Range = Range::from_one("reach");
/// Days a ladder challenge may wait for an answer.
pub const WAIT: Range = Range::from_one("wait");
/// A ladder event's number (`ladder undo N`).
pub const EVENT: Range = Range::from_one("event");
/// A ladder season's number.
pub const SEASON: Range = Range::from_one("season");
/// A tournament round's number.
pub const ROUND: Range = Range::from_one("round");
/// The pairing systems of `tournament create`, as typed.
pub const SYSTEMS: &[&str] = &["roundrobin", "double", "swiss"];

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
    /// Arguments as typed after the word, for the help text.
    pub usage: &'static str,
    /// What to type after the prefix, for the help text.
    pub example: &'static str,
    pub options: &'static [OptionSpec],
    /// What the command does, one word each (`ladder join`): where there are any, a front end
    /// with typed options offers these instead of [`Self::options`], each with its own options.
    pub subcommands: &'static [SubcommandSpec],
    /// Needs a community administrator when used in a community.
    pub admin: bool,
    parse: fn(&str, &[&str]) -> Result<Command, ParseError>,
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
static LADDER_ACTIONS: &[SubcommandSpec] = &[
    sub("standings", &[]),
    sub("join", &[LADDER]),
    sub("leave", &[LADDER]),
    sub("challenge", &[req("player", OptionKind::User), LADDER]),
    sub("accept", &[LADDER]),
    sub("decline", &[LADDER]),
    sub("season", &[req("season", OptionKind::Count(SEASON)), LADDER]),
    admin_sub(
        "create",
        &[
            req("variant", OptionKind::SeriesVariant),
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
static TOURNAMENT_ACTIONS: &[SubcommandSpec] = &[
    sub("standings", &[TOURNAMENT]),
    sub("round", &[req("round", OptionKind::Count(ROUND)), TOURNAMENT]),
    sub("join", &[TOURNAMENT]),
    sub("leave", &[TOURNAMENT]),
    admin_sub(
        "create",
        &[
            opt("system", OptionKind::Choice(SYSTEMS)),
            opt("variant", OptionKind::SeriesVariant),
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
        usage: "[@user] [variant] [days:N] [color:white|black|random] [setup:N] [casual]",
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
        parse: |_, a| Ok(Command::Challenge(parse_challenge(a)?)),
    },
    CommandSpec {
        name: "play",
        aliases: &[],
        usage: "[variant] [level:1-8] [days:N] [color:C] [setup:N]",
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
        parse: |_, a| Ok(Command::Play(parse_challenge(a)?)),
    },
    CommandSpec {
        name: "accept",
        aliases: &[],
        usage: "[#id]",
        example: "accept #4",
        options: &[opt("challenge", OptionKind::Game)],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Accept(only_game(w, a)?)),
    },
    CommandSpec {
        name: "decline",
        aliases: &["cancel"],
        usage: "[#id]",
        example: "decline #4",
        options: &[opt("challenge", OptionKind::Game)],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Decline(only_game(w, a)?)),
    },
    CommandSpec {
        name: "move",
        aliases: &["m"],
        usage: "[#game] <move>",
        example: "move Nf3",
        options: &[req("move", OptionKind::Move), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, text) = game_and_text(a, msg!("parse-which-move"))?;
            Ok(Command::Move { game, text })
        },
    },
    CommandSpec {
        name: "board",
        aliases: &["b", "show"],
        usage: "[#game]",
        example: "board",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |_, a| Ok(Command::Board(only_game("board", a)?)),
    },
    CommandSpec {
        name: "games",
        aliases: &["list"],
        usage: "",
        example: "games",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Games),
    },
    CommandSpec {
        name: "resign",
        aliases: &[],
        usage: "[#game]",
        example: "resign",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Resign(only_game(w, a)?)),
    },
    CommandSpec {
        name: "draw",
        aliases: &[],
        usage: "[#game] [decline]",
        example: "draw",
        options: &[GAME_OPT, opt("decline", OptionKind::Flag("decline", ""))],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, rest) = split_game(a);
            match rest.iter().map(|r| r.to_lowercase()).collect::<Vec<_>>().as_slice() {
                [] => Ok(Command::Draw(game)),
                [r] if matches!(r.as_str(), "decline" | "no") => Ok(Command::DrawDecline(game)),
                _ => Err(msg!("parse-game-decline", word = "draw", given = rest.join(" "))),
            }
        },
    },
    CommandSpec {
        name: "takeback",
        aliases: &["undo"],
        usage: "[#game] [decline]",
        example: "takeback",
        options: &[GAME_OPT, opt("decline", OptionKind::Flag("decline", ""))],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, rest) = split_game(a);
            match rest.iter().map(|r| r.to_lowercase()).collect::<Vec<_>>().as_slice() {
                [] => Ok(Command::Takeback(game)),
                [r] if matches!(r.as_str(), "decline" | "no") => Ok(Command::TakebackDecline(game)),
                _ => Err(msg!("parse-game-decline", word = "takeback", given = rest.join(" "))),
            }
        },
    },
    CommandSpec {
        name: "abort",
        aliases: &[],
        usage: "[#game]",
        example: "abort",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Abort(only_game(w, a)?)),
    },
    CommandSpec {
        name: "fen",
        aliases: &[],
        usage: "[#game]",
        example: "fen",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Fen(only_game(w, a)?)),
    },
    CommandSpec {
        name: "pgn",
        aliases: &[],
        usage: "[#game]",
        example: "pgn #12",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Pgn(only_game(w, a)?)),
    },
    CommandSpec {
        name: "gif",
        aliases: &["replay", "animate"],
        usage: "[#game]",
        example: "gif #12",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Gif(only_game(w, a)?)),
    },
    CommandSpec {
        name: "swap",
        aliases: &[],
        usage: "[#game] <K|Q> <file or piece>",
        example: "swap K b",
        options: &[req("swap", OptionKind::Text), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |_, a| {
            let (game, text) = game_and_text(a, msg!("parse-which-swap"))?;
            Ok(Command::Swap { game, text })
        },
    },
    CommandSpec {
        name: "noswap",
        aliases: &[],
        usage: "[#game]",
        example: "noswap",
        options: GAME_ONLY,
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::NoSwap(only_game(w, a)?)),
    },
    CommandSpec {
        name: "bomb",
        aliases: &[],
        usage: "[#game] [square]",
        example: "bomb g1",
        options: &[opt("square", OptionKind::Text), GAME_OPT],
        subcommands: &[],
        admin: false,
        parse: |w, a| {
            let (game, rest) = split_game(a);
            match rest.as_slice() {
                [] => Ok(Command::Bomb { game, square: None }),
                [sq] => Ok(Command::Bomb { game, square: Some(sq.to_lowercase()) }),
                _ => Err(msg!("parse-bomb", word = w, given = rest.join(" "))),
            }
        },
    },
    CommandSpec {
        name: "variants",
        aliases: &[],
        usage: "",
        example: "variants",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Variants),
    },
    CommandSpec {
        name: "rules",
        aliases: &[],
        usage: "[variant]",
        example: "rules capatomic",
        options: &[opt("variant", OptionKind::Variant)],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Rules(None)),
            [v] => Ok(Command::Rules(Some(v.to_lowercase()))),
            _ => Err(msg!("parse-rules")),
        },
    },
    CommandSpec {
        name: "settings",
        aliases: &["set"],
        usage: "[community] [prefix:?] [variant:NAME] [days:N] [thread:on|off] [gif:on|off] [rated:choice|always|never]",
        example: "settings prefix:? variant:chess days:3",
        options: &[
            opt("community", OptionKind::Flag("community", "")),
            opt("prefix", OptionKind::Keyed("prefix")),
            opt("variant", OptionKind::Keyed("variant")),
            opt("days", OptionKind::Days),
            opt("thread", OptionKind::Switch("thread")),
            opt("gif", OptionKind::Switch("gif")),
            opt("rated", OptionKind::Keyed("rated")),
        ],
        subcommands: &[],
        admin: true,
        parse: |_, a| Ok(Command::Settings(parse_settings(a)?)),
    },
    CommandSpec {
        name: "notify",
        aliases: &[],
        usage: "[on|off]",
        example: "notify off",
        options: &[opt("dm", OptionKind::Flag("on", "off"))],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Notify(None)),
            [v] => Ok(Command::Notify(Some(parse_switch("notify", v)?))),
            _ => Err(msg!("parse-notify")),
        },
    },
    CommandSpec {
        name: "lang",
        aliases: &["language", "dil"],
        usage: "[en|tr|default]",
        example: "lang tr",
        options: &[opt("language", OptionKind::Text)],
        subcommands: &[],
        admin: false,
        parse: |_, a| match a {
            [] => Ok(Command::Lang(None)),
            [v] => Ok(Command::Lang(Some(v.to_lowercase()))),
            _ => Err(msg!("lang-usage")),
        },
    },
    CommandSpec {
        name: "rating",
        aliases: &["elo"],
        usage: "[@user] [variant] [global]",
        example: "rating capatomic",
        options: &[
            opt("player", OptionKind::User),
            opt("variant", OptionKind::Variant),
            opt("global", OptionKind::Flag("global", "")),
        ],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Rating(parse_rating(w, a, true)?)),
    },
    CommandSpec {
        name: "leaderboard",
        aliases: &["top"],
        usage: "[variant] [global]",
        example: "leaderboard chess",
        options: &[opt("variant", OptionKind::Variant), opt("global", OptionKind::Flag("global", ""))],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::Leaderboard(parse_rating(w, a, false)?)),
    },
    CommandSpec {
        name: "history",
        aliases: &[],
        usage: "[@user] [variant] [global]",
        example: "history capatomic",
        options: &[
            opt("player", OptionKind::User),
            opt("variant", OptionKind::Variant),
            opt("global", OptionKind::Flag("global", "")),
        ],
        subcommands: &[],
        admin: false,
        parse: |w, a| Ok(Command::History(parse_rating(w, a, true)?)),
    },
    CommandSpec {
        name: "link",
        aliases: &[],
        usage: "[CODE]",
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
        usage: "",
        example: "unlink",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |w, a| no_args(w, a, Command::Unlink),
    },
    CommandSpec {
        name: "ladder",
        aliases: &[],
        usage: "[standings|join|leave|challenge @user|accept|decline|create|remove @user|undo N reason|season close|season N] [variant]",
        example: "ladder challenge @bob chess",
        options: &[],
        subcommands: LADDER_ACTIONS,
        admin: false,
        parse: |_, a| Ok(Command::Ladder(parse_ladder(a)?)),
    },
    CommandSpec {
        name: "tournament",
        aliases: &["tourney"],
        usage: "[#N] [standings|join|leave|create|start|cancel|round N] (create: [roundrobin|double|swiss] [variant] [rounds:N] [days:N] [signup:N] [name])",
        example: "tournament create swiss capatomic rounds:5 days:3 Winter Cup",
        options: &[],
        subcommands: TOURNAMENT_ACTIONS,
        admin: false,
        parse: |_, a| Ok(Command::Tournament(parse_tournament(a)?)),
    },
    CommandSpec {
        name: "help",
        aliases: &["h", "commands"],
        usage: "",
        example: "help",
        options: &[],
        subcommands: &[],
        admin: false,
        parse: |_, _| Ok(Command::Help),
    },
];

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

fn no_args(word: &str, args: &[&str], cmd: Command) -> Result<Command, ParseError> {
    if args.is_empty() { Ok(cmd) } else { Err(msg!("parse-no-args", word = word, given = args.join(" "))) }
}

/// `ladder` and its subcommands; `@user` words are skipped (the mentions say who).
fn parse_ladder(args: &[&str]) -> Result<LadderCmd, ParseError> {
    let words: Vec<String> =
        args.iter().filter(|a| !a.starts_with('@') && !a.starts_with("<@")).map(|a| a.to_lowercase()).collect();
    let variant = |rest: &[String]| -> Result<Option<String>, ParseError> {
        match rest {
            [] => Ok(None),
            [v] => Ok(Some(v.clone())),
            _ => Err(msg!("parse-ladder-variant", given = rest.join(" "))),
        }
    };
    let Some((sub, rest)) = words.split_first() else { return Ok(LadderCmd::Show) };
    Ok(match sub.as_str() {
        "standings" if rest.is_empty() => LadderCmd::Show,
        "standings" => return Err(msg!("parse-no-args", word = "ladder standings", given = rest.join(" "))),
        "join" => LadderCmd::Join(variant(rest)?),
        "leave" => LadderCmd::Leave(variant(rest)?),
        "challenge" => LadderCmd::Challenge(variant(rest)?),
        "accept" => LadderCmd::Accept(variant(rest)?),
        "decline" => LadderCmd::Decline(variant(rest)?),
        "remove" => LadderCmd::Remove(variant(rest)?),
        "create" => {
            let (mut v, mut days, mut reach, mut wait) = (None, None, None, None);
            for w in rest {
                match w.split_once(':') {
                    Some(("days" | "d", x)) => match parse_days(x)? {
                        Some(d) => days = Some(d),
                        None => return Err(msg!("parse-ladder-days")),
                    },
                    Some(("reach", x)) => reach = Some(REACH.parse(x)? as usize),
                    Some(("wait", x)) => wait = Some(WAIT.parse(x)?),
                    Some((k, _)) => return Err(msg!("parse-ladder-create-key", given = k)),
                    None if v.is_none() => v = Some(w.clone()),
                    None => return Err(msg!("parse-ladder-create-variant", given = w.as_str())),
                }
            }
            let variant = v.ok_or_else(|| msg!("parse-ladder-create-which"))?;
            LadderCmd::Create { variant, days, reach, wait }
        }
        "undo" => {
            let n = rest.first().ok_or_else(|| msg!("parse-ladder-undo"))?;
            let event = EVENT.parse(n.trim_start_matches('#'))?;
            let reason: Vec<&str> =
                args.iter().skip_while(|a| !a.eq_ignore_ascii_case("undo")).skip(2).copied().collect();
            LadderCmd::Undo { event, reason: reason.join(" ") }
        }
        "season" => match rest.split_first() {
            Some((c, more)) if c == "close" => LadderCmd::SeasonClose(variant(more)?),
            Some((n, more)) => LadderCmd::Season { number: SEASON.parse(n)?, variant: variant(more)? },
            None => return Err(msg!("parse-ladder-season")),
        },
        other => {
            return Err(msg!("parse-ladder-action", given = other));
        }
    })
}

/// `tournament` and its actions. `#N` anywhere names the tournament; after `create`, the system,
/// variant and `key:value` options may come in any order and the other words are the name.
fn parse_tournament(args: &[&str]) -> Result<TournamentCmd, ParseError> {
    let mut id = None;
    let mut words = Vec::new();
    for a in args {
        match a.strip_prefix('#') {
            Some(n) if id.is_none() => {
                id = Some(game_ref(a).ok_or_else(|| msg!("parse-positive", key = "tournament", given = n))?)
            }
            Some(_) => return Err(msg!("parse-tournament-two")),
            None => words.push(*a),
        }
    }
    let Some((action, rest)) = words.split_first() else { return Ok(TournamentCmd::Show { id, round: None }) };
    let none_after = |cmd: TournamentCmd| -> Result<TournamentCmd, ParseError> {
        match rest {
            [] => Ok(cmd),
            _ => Err(msg!("parse-tournament-only-number", action = *action, given = rest.join(" "))),
        }
    };
    match action.to_lowercase().as_str() {
        "standings" => none_after(TournamentCmd::Show { id, round: None }),
        "join" => none_after(TournamentCmd::Join(id)),
        "leave" => none_after(TournamentCmd::Leave(id)),
        "start" => none_after(TournamentCmd::Start(id)),
        "cancel" => none_after(TournamentCmd::Cancel(id)),
        "round" => match rest {
            [n] => Ok(TournamentCmd::Show { id, round: Some(ROUND.parse(n)?) }),
            _ => Err(msg!("parse-tournament-round")),
        },
        "create" => parse_tournament_create(rest),
        a => match a.strip_prefix("round:") {
            Some(n) if rest.is_empty() => Ok(TournamentCmd::Show { id, round: Some(ROUND.parse(n)?) }),
            _ => Err(msg!("parse-tournament-action", given = a.chars().take(20).collect::<String>())),
        },
    }
}

fn parse_tournament_create(args: &[&str]) -> Result<TournamentCmd, ParseError> {
    let (mut kind, mut rounds, mut variant, mut days, mut signup) = (None, None, None, None, None);
    let mut name = Vec::new();
    for w in args {
        let lower = w.to_lowercase();
        let system = match lower.as_str() {
            "roundrobin" | "round-robin" | "rr" => Some(TournamentKind::RoundRobin),
            "double" | "doubleroundrobin" | "drr" => Some(TournamentKind::DoubleRoundRobin),
            "swiss" => Some(TournamentKind::Swiss),
            _ => None,
        };
        if let Some(k) = system
            && kind.is_none()
        {
            kind = Some(k);
            continue;
        }
        match lower.split_once(':') {
            Some(("rounds", x)) => rounds = Some(ROUNDS.parse(x)?),
            Some(("days" | "d", x)) => match parse_days(x)? {
                Some(d) => days = Some(d),
                None => return Err(msg!("parse-tournament-days")),
            },
            Some(("signup", x)) => {
                signup = Some(match x {
                    "none" | "off" => 0,
                    _ => SIGNUP.parse(x).map_err(|_| msg!("parse-signup", given = x))?,
                })
            }
            Some((k, _)) if name.is_empty() => {
                return Err(msg!("parse-tournament-create-key", given = k));
            }
            _ if variant.is_none() && name.is_empty() && crate::rules::Variant::by_name(&lower).is_some() => {
                variant = Some(lower)
            }
            _ => name.push(*w),
        }
    }
    let kind = kind.unwrap_or(TournamentKind::RoundRobin);
    if rounds.is_some() && kind != TournamentKind::Swiss {
        return Err(msg!("parse-rounds-swiss"));
    }
    let name: String = name.join(" ").chars().filter(|c| !c.is_control()).take(60).collect();
    Ok(TournamentCmd::Create { kind, rounds, variant, days, signup, name })
}

impl TournamentCmd {
    /// The command as typed after the prefix.
    fn typed(&self) -> String {
        let n = |id: &Option<i64>| id.map(|i| format!(" #{i}")).unwrap_or_default();
        match self {
            TournamentCmd::Show { id, round: None } => format!("tournament{}", n(id)),
            TournamentCmd::Show { id, round: Some(r) } => format!("tournament{} round {r}", n(id)),
            TournamentCmd::Create { .. } => "tournament create".into(),
            TournamentCmd::Join(id) => format!("tournament{} join", n(id)),
            TournamentCmd::Leave(id) => format!("tournament{} leave", n(id)),
            TournamentCmd::Start(id) => format!("tournament{} start", n(id)),
            TournamentCmd::Cancel(id) => format!("tournament{} cancel", n(id)),
        }
    }
}

impl LadderCmd {
    /// The command as typed after the prefix.
    fn typed(&self) -> String {
        let v = |v: &Option<String>| v.as_ref().map(|v| format!(" {v}")).unwrap_or_default();
        match self {
            LadderCmd::Show => "ladder".into(),
            LadderCmd::Create { variant, .. } => format!("ladder create {variant}"),
            LadderCmd::Join(x) => format!("ladder join{}", v(x)),
            LadderCmd::Leave(x) => format!("ladder leave{}", v(x)),
            LadderCmd::Challenge(x) => format!("ladder challenge{}", v(x)),
            LadderCmd::Accept(x) => format!("ladder accept{}", v(x)),
            LadderCmd::Decline(x) => format!("ladder decline{}", v(x)),
            LadderCmd::Remove(x) => format!("ladder remove{}", v(x)),
            LadderCmd::Undo { event, reason } => format!("ladder undo {event} {reason}"),
            LadderCmd::SeasonClose(x) => format!("ladder season close{}", v(x)),
            LadderCmd::Season { number, variant } => format!("ladder season {number}{}", v(variant)),
        }
    }
}

/// The command whose word (or alias) is `word` (any case).
pub fn spec(word: &str) -> Option<&'static CommandSpec> {
    let w = word.to_lowercase();
    COMMANDS.iter().find(|c| c.name == w || c.aliases.contains(&w.as_str()))
}

/// Parses the text after the prefix.
pub fn parse(body: &str) -> Result<Command, ParseError> {
    let toks: Vec<&str> = body.split_whitespace().collect();
    let Some((&word, args)) = toks.split_first() else {
        return Ok(Command::Help);
    };
    match spec(word) {
        Some(s) => (s.parse)(&word.to_lowercase(), args),
        None => {
            let (game, rest) = split_game(&toks);
            Ok(Command::Other { game, text: rest.join(" ") })
        }
    }
}

/// A value a front end collected for an option (a slash command's typed options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionValue {
    Text(String),
    Integer(i64),
    Bool(bool),
    User(crate::bot::UserRef),
}

/// Builds the command of a slash command from its typed options: the subcommand (where the
/// command has them) becomes its words and each option the word it stands for, and all go through
/// the same parser as typed text. Returns the command and the users named by user options (the
/// input's mentions).
pub fn from_options(
    name: &str,
    subcommand: Option<&str>,
    values: &[(&str, OptionValue)],
) -> Result<(Command, Vec<crate::bot::UserRef>), ParseError> {
    let spec = spec(name).ok_or_else(|| msg!("parse-unknown-command", name = name))?;
    let (mut words, options): (Vec<String>, _) = match (subcommand, spec.subcommands) {
        (None, []) => (Vec::new(), spec.options),
        (Some(given), subs) => {
            let Some(sub) = subs.iter().find(|s| s.name == given) else {
                return Err(msg!("parse-option-unknown", name = name, option = given));
            };
            (vec![sub.words.to_string()], sub.options)
        }
        (None, subs) => {
            let names: Vec<&str> = subs.iter().map(|s| s.name).collect();
            return Err(msg!("parse-subcommand-needed", name = name, subcommands = names.join(", ")));
        }
    };
    let mut mentions = Vec::new();
    for o in options {
        let Some((_, v)) = values.iter().find(|(n, _)| *n == o.name) else {
            if o.required {
                return Err(msg!("parse-option-needed", name = name, option = o.name));
            }
            continue;
        };
        let text = match v {
            OptionValue::Text(t) => t.trim().to_string(),
            OptionValue::Integer(i) => i.to_string(),
            OptionValue::Bool(b) => b.to_string(),
            OptionValue::User(u) => u.id.clone(),
        };
        let word = match (o.kind, v) {
            (OptionKind::User, OptionValue::User(u)) => {
                mentions.push(u.clone());
                format!("@{}", u.name.split_whitespace().next().unwrap_or("user"))
            }
            (OptionKind::User, _) => return Err(msg!("parse-option-person", option = o.name)),
            (OptionKind::Days | OptionKind::DaysPerMove, _) => format!("days:{text}"),
            (OptionKind::Color, _) => format!("color:{text}"),
            (OptionKind::Setup, _) => format!("setup:{text}"),
            (OptionKind::Level, _) => format!("level:{text}"),
            (OptionKind::Game, _) => format!("#{}", text.trim_start_matches('#')),
            (OptionKind::Keyed(k), _) => format!("{k}:{text}"),
            (OptionKind::Number(r), _) => format!("{}:{text}", r.key),
            (OptionKind::Flag(yes, no), OptionValue::Bool(b)) => (if *b { yes } else { no }).to_string(),
            (OptionKind::Switch(k), OptionValue::Bool(b)) => format!("{k}:{}", if *b { "on" } else { "off" }),
            (OptionKind::Flag(..) | OptionKind::Switch(_), _) => {
                return Err(msg!("parse-option-bool", option = o.name));
            }
            (
                OptionKind::Variant
                | OptionKind::SeriesVariant
                | OptionKind::Ladder
                | OptionKind::Move
                | OptionKind::Text,
                _,
            ) => text,
            (OptionKind::Count(_), _) => text,
            (OptionKind::Choice(_), _) => text,
        };
        if word.is_empty() {
            continue;
        }
        if word.chars().any(char::is_whitespace) && !matches!(o.kind, OptionKind::Move | OptionKind::Text) {
            return Err(msg!("parse-option-one-word", option = o.name, given = word));
        }
        words.push(word);
    }
    for (n, _) in values {
        if !options.iter().any(|o| o.name == *n) {
            return Err(msg!("parse-option-unknown", name = name, option = *n));
        }
    }
    let args: Vec<&str> = words.iter().flat_map(|w| w.split_whitespace()).collect();
    Ok(((spec.parse)(spec.name, &args)?, mentions))
}

fn game_word(id: Option<i64>) -> String {
    id.map(|n| format!(" #{n}")).unwrap_or_default()
}

impl Command {
    /// The command as it would be typed after `prefix` (for front ends without buttons).
    pub fn typed(&self, prefix: &str) -> String {
        let body = match self {
            Command::Help => "help".to_string(),
            Command::Variants => "variants".into(),
            Command::Rules(v) => format!("rules {}", v.as_deref().unwrap_or("")).trim_end().to_string(),
            Command::Challenge(_) => "challenge".into(),
            Command::Play(_) => "play".into(),
            Command::Accept(id) => format!("accept{}", game_word(*id)),
            Command::Decline(id) => format!("decline{}", game_word(*id)),
            Command::Move { game, text } | Command::Other { game, text } => format!("move{} {text}", game_word(*game)),
            Command::Board(id) => format!("board{}", game_word(*id)),
            Command::Games => "games".into(),
            Command::Resign(id) => format!("resign{}", game_word(*id)),
            Command::Draw(id) => format!("draw{}", game_word(*id)),
            Command::DrawDecline(id) => format!("draw decline{}", game_word(*id)),
            Command::Takeback(id) => format!("takeback{}", game_word(*id)),
            Command::TakebackDecline(id) => format!("takeback decline{}", game_word(*id)),
            Command::Abort(id) => format!("abort{}", game_word(*id)),
            Command::Fen(id) => format!("fen{}", game_word(*id)),
            Command::Pgn(id) => format!("pgn{}", game_word(*id)),
            Command::Gif(id) => format!("gif{}", game_word(*id)),
            Command::Swap { game, text } => format!("swap{} {text}", game_word(*game)),
            Command::NoSwap(id) => format!("noswap{}", game_word(*id)),
            Command::Bomb { game, square } => {
                format!("bomb{} {}", game_word(*game), square.as_deref().unwrap_or("")).trim_end().to_string()
            }
            Command::Settings(_) => "settings".into(),
            Command::Rating(_) => "rating".into(),
            Command::Leaderboard(_) => "leaderboard".into(),
            Command::History(_) => "history".into(),
            Command::Notify(v) => match v {
                None => "notify".into(),
                Some(b) => format!("notify {}", if *b { "on" } else { "off" }),
            },
            Command::Lang(l) => format!("lang {}", l.as_deref().unwrap_or("")).trim_end().to_string(),
            Command::Link(code) => format!("link {}", code.as_deref().unwrap_or("")).trim_end().to_string(),
            Command::Unlink => "unlink".into(),
            Command::Ladder(c) => c.typed(),
            Command::Tournament(c) => c.typed(),
        };
        format!("{prefix}{body}")
    }
}

/// The `help` text, from the table: every command with its usage and an example, written as
/// commands are given where it is read: typed with the prefix `p`, or (`slash`) as the
/// platform's slash commands, whose options the platform shows as they are typed.
pub fn help_text(p: &str, slash: bool) -> String {
    let lang = crate::i18n::current();
    let mut s = if slash { crate::t!("help-head-slash") } else { crate::t!("help-head", p = p) };
    for c in COMMANDS {
        if slash {
            s.push_str(&format!("\n/{} — {}", c.name, c.summary(lang)));
            continue;
        }
        let usage = if c.usage.is_empty() { String::new() } else { format!(" {}", c.usage) };
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
                level: None,
                rated: None
            })
        );
        assert!(parse("challenge @bob days:4").unwrap_err().to_string().contains("1, 2, 3, 5, 7, 10, 14"));
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
        assert!(parse("takeback please").unwrap_err().to_string().contains("'please'"));
        assert!(parse("resign now please").is_err());
        assert_eq!(parse("").unwrap(), Command::Help);
    }

    #[test]
    fn parses_tournament_commands() {
        assert_eq!(
            parse("tournament create Swiss capatomic rounds:5 days:3 signup:2 Winter Cup").unwrap(),
            Command::Tournament(TournamentCmd::Create {
                kind: TournamentKind::Swiss,
                rounds: Some(5),
                variant: Some("capatomic".into()),
                days: Some(3),
                signup: Some(2),
                name: "Winter Cup".into()
            })
        );
        // A variant word inside the name stays in the name.
        let TournamentCmd::Create { kind, variant, name, .. } =
            parse_tournament(&["create", "The", "chess", "open"]).unwrap()
        else {
            panic!()
        };
        assert_eq!((kind, variant, name.as_str()), (TournamentKind::RoundRobin, None, "The chess open"));
        assert_eq!(parse("tourney #4 join").unwrap(), Command::Tournament(TournamentCmd::Join(Some(4))));
        assert_eq!(
            parse("tournament round 2 #4").unwrap(),
            Command::Tournament(TournamentCmd::Show { id: Some(4), round: Some(2) })
        );
        assert!(parse("tournament join now").unwrap_err().to_string().contains("only the tournament's number"));
        assert!(parse("tournament create swiss signup:99").unwrap_err().to_string().contains("0 to 30"));
        assert!(parse("tournament #1 #2").is_err());
        assert!(parse("tournament dance").unwrap_err().to_string().contains("unknown tournament action"));
        // A slash command's options give the same command.
        let (c, _) = from_options(
            "tournament",
            Some("create"),
            &[
                ("system", OptionValue::Text("double".into())),
                ("variant", OptionValue::Text("chess".into())),
                ("name", OptionValue::Text("Club Cup".into())),
                ("signup", OptionValue::Integer(0)),
            ],
        )
        .unwrap();
        assert_eq!(
            c,
            Command::Tournament(TournamentCmd::Create {
                kind: TournamentKind::DoubleRoundRobin,
                rounds: None,
                variant: Some("chess".into()),
                days: None,
                signup: Some(0),
                name: "Club Cup".into()
            })
        );
        assert_eq!(Command::Tournament(TournamentCmd::Join(Some(3))).typed("!"), "!tournament #3 join");
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

    #[test]
    fn options_build_the_same_command_as_text() {
        let bob = crate::bot::UserRef::new("u2", "Bob Smith");
        let (c, m) = from_options(
            "challenge",
            None,
            &[
                ("opponent", OptionValue::User(bob.clone())),
                ("variant", OptionValue::Text("capatomic".into())),
                ("days", OptionValue::Text("3".into())),
                ("casual", OptionValue::Bool(true)),
            ],
        )
        .unwrap();
        let mut expect = match parse("challenge @bob capatomic days:3 casual").unwrap() {
            Command::Challenge(a) => a,
            other => panic!("{other:?}"),
        };
        expect.mentions_someone = true;
        assert_eq!(c, Command::Challenge(expect));
        assert_eq!(m, vec![bob]);
        assert_eq!(
            from_options(
                "move",
                None,
                &[("move", OptionValue::Text("Nf3".into())), ("game", OptionValue::Integer(12))]
            )
            .unwrap()
            .0,
            Command::Move { game: Some(12), text: "Nf3".into() }
        );
        assert!(from_options("move", None, &[]).unwrap_err().to_string().contains("needs the option 'move'"));
        assert!(from_options("board", None, &[("nope", OptionValue::Bool(true))]).is_err());
        assert!(from_options("play", None, &[("level", OptionValue::Integer(9))]).is_err());
        assert_eq!(
            from_options("settings", None, &[("gif", OptionValue::Bool(true))]).unwrap().0,
            Command::Settings(SettingsArgs { gif: Some(true), ..SettingsArgs::default() })
        );
        assert_eq!(parse("replay #3").unwrap(), Command::Gif(Some(3)));
        assert!(parse("gif everything").is_err());
        assert!(parse("settings gif:maybe").unwrap_err().to_string().contains("gif is on or off"));
        assert_eq!(
            from_options(
                "settings",
                None,
                &[("community", OptionValue::Bool(true)), ("thread", OptionValue::Bool(true))]
            )
            .unwrap()
            .0,
            Command::Settings(SettingsArgs { community: true, thread: Some(true), ..SettingsArgs::default() })
        );
    }

    #[test]
    fn subcommands_build_the_same_command_as_text() {
        use OptionValue::{Integer, Text, User};
        let bob = crate::bot::UserRef::new("u2", "Bob");
        let text = |t: &str| Text(t.to_string());
        // (command, subcommand, its options, the same typed)
        type Case<'a> = (&'a str, &'a str, Vec<(&'a str, OptionValue)>, &'a str);
        let cases: Vec<Case> = vec![
            ("ladder", "standings", vec![], "ladder"),
            ("ladder", "join", vec![("variant", text("chess"))], "ladder join chess"),
            ("ladder", "leave", vec![], "ladder leave"),
            (
                "ladder",
                "challenge",
                vec![("player", User(bob.clone())), ("variant", text("capatomic"))],
                "ladder challenge @bob capatomic",
            ),
            ("ladder", "accept", vec![], "ladder accept"),
            ("ladder", "decline", vec![("variant", text("chess"))], "ladder decline chess"),
            ("ladder", "season", vec![("season", Integer(2)), ("variant", text("chess"))], "ladder season 2 chess"),
            (
                "ladder",
                "create",
                vec![("variant", text("chess")), ("days", Integer(3)), ("reach", Integer(4)), ("wait", Integer(2))],
                "ladder create chess days:3 reach:4 wait:2",
            ),
            ("ladder", "remove", vec![("player", User(bob.clone()))], "ladder remove @bob"),
            (
                "ladder",
                "undo",
                vec![("event", Integer(5)), ("reason", text("wrong result"))],
                "ladder undo 5 wrong result",
            ),
            ("ladder", "season-close", vec![], "ladder season close"),
            ("tournament", "standings", vec![("tournament", Integer(4))], "tournament #4"),
            ("tournament", "round", vec![("round", Integer(2)), ("tournament", Integer(4))], "tournament round 2 #4"),
            ("tournament", "join", vec![], "tournament join"),
            ("tournament", "leave", vec![("tournament", Integer(4))], "tourney #4 leave"),
            (
                "tournament",
                "create",
                vec![
                    ("system", text("swiss")),
                    ("variant", text("capatomic")),
                    ("rounds", Integer(5)),
                    ("days", Integer(3)),
                    ("signup", Integer(0)),
                    ("name", text("Winter Cup")),
                ],
                "tournament create swiss capatomic rounds:5 days:3 signup:0 Winter Cup",
            ),
            ("tournament", "start", vec![("tournament", Integer(3))], "tournament #3 start"),
            ("tournament", "cancel", vec![], "tournament cancel"),
        ];
        for (name, sub, values, typed) in &cases {
            let (c, mentions) = from_options(name, Some(sub), values).unwrap_or_else(|e| panic!("{name} {sub}: {e}"));
            assert_eq!(c, parse(typed).unwrap(), "/{name} {sub} is '{typed}'");
            let named = values.iter().any(|(_, v)| matches!(v, User(_)));
            assert_eq!(mentions, if named { vec![bob.clone()] } else { vec![] });
        }
        // Every subcommand of the table is among the cases, and typed as its own words.
        for c in COMMANDS {
            for sub in c.subcommands {
                assert!(
                    cases.iter().any(|(n, s, ..)| *n == c.name && s == &sub.name),
                    "no case for {} {}",
                    c.name,
                    sub.name
                );
            }
        }
        // Values out of the ranges the parser takes are refused in the parser's words.
        let refused = |name: &str, sub: Option<&str>, values: &[(&str, OptionValue)]| {
            from_options(name, sub, values).expect_err("refused").to_string()
        };
        assert!(refused("tournament", Some("create"), &[("signup", Integer(31))]).contains("0 to 30"));
        assert!(refused("tournament", Some("round"), &[("round", Integer(0))]).contains("from 1"));
        assert!(refused("tournament", Some("join"), &[("tournament", Integer(-2))]).contains("from 1, not '-2'"));
        assert!(refused("ladder", Some("undo"), &[("event", Integer(-1))]).contains("from 1"));
        assert!(refused("ladder", Some("create"), &[("variant", text("chess")), ("days", Integer(4))]).contains("14"));
        assert!(refused("ladder", Some("challenge"), &[]).contains("needs the option 'player'"));
        assert!(refused("ladder", None, &[]).contains("join, leave"));
        assert!(refused("ladder", Some("dance"), &[]).contains("dance"));
        assert!(refused("board", Some("join"), &[]).contains("join"));
        assert!(refused("ladder", Some("join"), &[("season", Integer(2))]).contains("season"));
        assert!(parse("ladder standings chess").is_err());
        assert_eq!(ROUNDS.parse("4294967295"), Ok(u32::MAX));
        assert!(ROUNDS.parse("4294967296").is_err() && SIGNUP.parse("0").is_ok());
    }

    #[test]
    fn typed_form_parses_back() {
        for c in [
            Command::Accept(Some(4)),
            Command::Decline(None),
            Command::Draw(Some(2)),
            Command::DrawDecline(Some(2)),
            Command::TakebackDecline(Some(3)),
            Command::Resign(None),
            Command::Notify(Some(false)),
            Command::Gif(Some(7)),
            Command::Gif(None),
        ] {
            let t = c.typed("?");
            assert_eq!(parse(t.strip_prefix('?').unwrap()).unwrap(), c, "{t}");
        }
    }
}

//! The commands: one table ([`COMMANDS`]) from which the parser, the help text and the command
//! list a front end registers (Discord slash commands, their descriptions and options) all come, so
//! a new command is written in one place. Parsing only; no storage. Summaries and option
//! descriptions are in the catalogues (`locales/*/commands.ftl`), by the command's and option's names.
//!
//! This file holds what a parsed [`Command`] is and how it is typed back; `table.rs` the table and
//! its option kinds, `parse.rs` the parsers of typed text and of a slash command's options,
//! `names.rs` the names an option is typed by in each language (read into the English words the
//! parsers take), and `help.rs` the help text and the catalogue ids of summaries and option
//! descriptions.

mod help;
mod names;
mod parse;
mod table;

pub use help::{command_help, help_text};
pub(crate) use names::{same_word, value_name, values_listed};
pub(crate) use parse::forgets;
pub use parse::{OptionValue, from_options, parse};
pub use table::{
    COMMANDS, CommandSpec, DAYS_CHOICES, EVENT, OptionKind, OptionSpec, REACH, ROUND, ROUNDS, Range, SEASON, SIGNUP,
    SYSTEMS, SubcommandSpec, THEMES, WAIT, near_word, spec,
};

use crate::i18n::Msg;

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `help [command]`: every command, or one in full (its options and subcommands).
    Help(Option<String>),
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
    /// `pgn [#game] [analysed]`: the game as PGN, with its computer analysis in it when asked.
    Pgn {
        game: Option<i64>,
        analysed: bool,
    },
    /// `analyse [#game]`: a computer analysis of a finished game.
    Analyse(Option<i64>),
    /// `gif [#game]`: the whole game as an animated picture.
    Gif(Option<i64>),
    /// `rematch [#game]`: the same game again against the same opponent, colours swapped (the
    /// opponent's waiting rematch accepted instead, where there is one).
    Rematch(Option<i64>),
    Swap {
        game: Option<i64>,
        text: String,
    },
    NoSwap(Option<i64>),
    /// `moves [#game] [square]`: the legal moves of the side to move, or of the piece on `square`.
    Moves {
        game: Option<i64>,
        square: Option<String>,
    },
    /// `bomb [#game] [square]`: secret-bomb chess — choose one's bomb (in a direct message), or see
    /// one's own board with it marked.
    Bomb {
        game: Option<i64>,
        square: Option<String>,
    },
    Settings(SettingsArgs),
    /// `notify on|off`: direct-message notices (reminders, "your move"); none shows the setting.
    Notify(Option<bool>),
    /// `lang [en|tr|de|default]`: the language capabot speaks to this person; none shows it.
    Lang(Option<String>),
    /// `theme [wood|green|contrast|default]`: the board theme of the pictures only this person
    /// reads; none shows it.
    Theme(Option<String>),
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
    /// `web`: the address of the community's web page.
    Web,
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
    /// Before the start: unregister. Once it runs: asks the player to confirm with `withdraw`.
    Leave(Option<i64>),
    /// Withdraw from a running tournament: the games left are lost, later rounds do not pair them.
    Withdraw(Option<i64>),
    /// The crosstable, as monospace text.
    Crosstable(Option<i64>),
    Start(Option<i64>),
    Cancel(Option<i64>),
}

/// What `ladder` is asked to do; `variant` picks the ladder where the community has several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LadderCmd {
    /// The standings: of every ladder of the community, or of one variant's.
    Show(Option<String>),
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
    /// The author's own challenge, not yet answered, taken back.
    Withdraw(Option<String>),
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
    /// `setup:N` as typed (digits only; its range is the variant's).
    pub setup: Option<String>,
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
    /// Every variant they are rated in (`rating all`), not the chat's default one.
    pub all: bool,
}

/// What `settings` does to one setting: sets it, or (`default`) forgets the chat's (or the
/// community's) own value, so that the community's (or the built-in one) applies again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change<T> {
    Set(T),
    Default,
}

impl<T> Change<T> {
    /// The value this level keeps of its own: none after `default`.
    pub fn own(self) -> Option<T> {
        match self {
            Change::Set(v) => Some(v),
            Change::Default => None,
        }
    }

    /// The same change of another kind of value.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Change<U> {
        match self {
            Change::Set(v) => Change::Set(f(v)),
            Change::Default => Change::Default,
        }
    }
}

/// Options of `settings`; each `None` where the command leaves the setting as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsArgs {
    /// `settings community ...`: the community's settings, which its chats inherit.
    pub community: bool,
    pub prefix: Option<Change<String>>,
    pub variant: Option<Change<String>>,
    /// `Set(None)` = `days:none` (no clock).
    pub days: Option<Change<Option<u32>>>,
    /// Open a thread for each new game.
    pub thread: Option<Change<bool>>,
    /// The community's rule for rated games (its default: choice).
    pub rated: Option<Change<crate::store::settings::RatedGames>>,
    /// Post the game as an animated picture when it ends.
    pub gif: Option<Change<bool>>,
    /// The chat's (or community's) language, a code such as `tr`.
    pub lang: Option<Change<String>>,
    /// The community's web pages (a community setting; its default: off).
    pub web: Option<Change<bool>>,
    /// The board theme the chat's (or community's) pictures are drawn in (its name, `contrast`).
    pub theme: Option<Change<String>>,
}

/// A command the user typed wrongly, with a message saying how to type it. Its examples write
/// commands with the prefix of the chat where it is answered, which the parser does not know: the
/// message becomes text only through [`ParseError::answer`], given that prefix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(Msg);

/// A parser's message before it is a [`ParseError`].
type Wrong = Msg;

/// The prefix a parser's message writes its commands with (`p`): the parser does not know the
/// chat's, which [`ParseError::answer`] puts in its place.
const PREFIX_UNTIL_ANSWERED: &str = "!";

impl ParseError {
    /// The message, its commands written with `p` (the chat's prefix, `/` for a slash command).
    pub fn answer(self, p: &str) -> Msg {
        let Msg { id, mut args } = self.0;
        args.retain(|(k, _)| k != "p");
        args.push(("p".into(), p.into()));
        Msg { id, args }
    }

    /// Whether the error is an answer in itself (there is no game #0), not a command written
    /// wrongly: it is said without the pointer to the command's help.
    pub fn is_answer(&self) -> bool {
        parse::is_answer(&self.0)
    }
}

impl From<Msg> for ParseError {
    fn from(m: Msg) -> ParseError {
        ParseError(m)
    }
}

impl std::fmt::Display for ParseError {
    /// In English, with commands written with `!` (the default prefix): for logs and tests.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.clone().answer("!").fmt(f)
    }
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
            TournamentCmd::Withdraw(id) => format!("tournament{} withdraw", n(id)),
            TournamentCmd::Crosstable(id) => format!("tournament{} crosstable", n(id)),
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
            LadderCmd::Show(None) => "ladder".into(),
            LadderCmd::Show(x) => format!("ladder standings{}", v(x)),
            LadderCmd::Create { variant, .. } => format!("ladder create {variant}"),
            LadderCmd::Join(x) => format!("ladder join{}", v(x)),
            LadderCmd::Leave(x) => format!("ladder leave{}", v(x)),
            LadderCmd::Challenge(x) => format!("ladder challenge{}", v(x)),
            LadderCmd::Accept(x) => format!("ladder accept{}", v(x)),
            LadderCmd::Decline(x) => format!("ladder decline{}", v(x)),
            LadderCmd::Withdraw(x) => format!("ladder withdraw{}", v(x)),
            LadderCmd::Remove(x) => format!("ladder remove{}", v(x)),
            LadderCmd::Undo { event, reason } => format!("ladder undo {event} {reason}"),
            LadderCmd::SeasonClose(x) => format!("ladder season close{}", v(x)),
            LadderCmd::Season { number, variant } => format!("ladder season {number}{}", v(variant)),
        }
    }
}

fn game_word(id: Option<i64>) -> String {
    id.map(|n| format!(" #{n}")).unwrap_or_default()
}

impl Command {
    /// The same command about game `id`, for a command that names a game (others as they are):
    /// the example of an answer that asks which game was meant.
    pub fn about_game(self, id: i64) -> Command {
        let game = Some(id);
        match self {
            Command::Move { text, .. } => Command::Move { game, text },
            Command::Other { text, .. } => Command::Other { game, text },
            Command::Board(_) => Command::Board(game),
            Command::Resign(_) => Command::Resign(game),
            Command::Draw(_) => Command::Draw(game),
            Command::DrawDecline(_) => Command::DrawDecline(game),
            Command::Takeback(_) => Command::Takeback(game),
            Command::TakebackDecline(_) => Command::TakebackDecline(game),
            Command::Abort(_) => Command::Abort(game),
            Command::Fen(_) => Command::Fen(game),
            Command::Pgn { analysed, .. } => Command::Pgn { game, analysed },
            Command::Analyse(_) => Command::Analyse(game),
            Command::Gif(_) => Command::Gif(game),
            Command::Rematch(_) => Command::Rematch(game),
            Command::Swap { text, .. } => Command::Swap { game, text },
            Command::NoSwap(_) => Command::NoSwap(game),
            Command::Bomb { square, .. } => Command::Bomb { game, square },
            Command::Moves { square, .. } => Command::Moves { game, square },
            other => other,
        }
    }

    /// The command as it would be typed after `prefix` (for front ends without buttons).
    pub fn typed(&self, prefix: &str) -> String {
        let body = match self {
            Command::Help(None) => "help".to_string(),
            Command::Help(Some(c)) => format!("help {c}"),
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
            Command::Pgn { game, analysed } => {
                format!("pgn{}{}", game_word(*game), if *analysed { " analysed" } else { "" })
            }
            Command::Analyse(id) => format!("analyse{}", game_word(*id)),
            Command::Gif(id) => format!("gif{}", game_word(*id)),
            Command::Rematch(id) => format!("rematch{}", game_word(*id)),
            Command::Swap { game, text } => format!("swap{} {text}", game_word(*game)),
            Command::NoSwap(id) => format!("noswap{}", game_word(*id)),
            Command::Bomb { game, square } => {
                format!("bomb{} {}", game_word(*game), square.as_deref().unwrap_or("")).trim_end().to_string()
            }
            Command::Moves { game, square } => {
                format!("moves{} {}", game_word(*game), square.as_deref().unwrap_or("")).trim_end().to_string()
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
            Command::Theme(t) => format!("theme {}", t.as_deref().unwrap_or("")).trim_end().to_string(),
            Command::Link(code) => format!("link {}", code.as_deref().unwrap_or("")).trim_end().to_string(),
            Command::Unlink => "unlink".into(),
            Command::Web => "web".into(),
            Command::Ladder(c) => c.typed(),
            Command::Tournament(c) => c.typed(),
        };
        format!("{prefix}{body}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Command::Rematch(Some(5)),
            Command::Rematch(None),
            Command::Analyse(Some(12)),
            Command::Analyse(None),
            Command::Pgn { game: Some(12), analysed: true },
            Command::Pgn { game: None, analysed: false },
            Command::Moves { game: Some(3), square: Some("g1".into()) },
            Command::Moves { game: None, square: None },
        ] {
            let t = c.typed("?");
            assert_eq!(parse(t.strip_prefix('?').unwrap()).unwrap(), c, "{t}");
        }
    }

    /// `notify` takes on or off only, and its refusal says so with what was typed (before: "on, off
    /// or default", and `notify default` refused too).
    #[test]
    fn notify_is_on_or_off() {
        use crate::i18n::Lang;
        assert_eq!(parse("notify aus").unwrap(), Command::Notify(Some(false)));
        for (typed, lang, said) in [
            ("notify maybe", Lang::En, "notify takes on or off, not 'maybe'"),
            ("notify default", Lang::En, "notify takes on or off, not 'default'"),
            ("notify belki", Lang::Tr, "notify yanına açık ya da kapalı alır, 'belki' değil"),
        ] {
            assert_eq!(parse(typed).unwrap_err().answer("!").render(lang), said, "{typed}");
        }
    }

    /// A parser's examples write commands as the chat where it is answered does: with its prefix,
    /// or `/` for a slash command (before: `!` always).
    #[test]
    fn a_parse_error_writes_its_examples_as_answered() {
        use crate::i18n::Lang;
        let typed = parse("move").unwrap_err();
        assert_eq!(typed.answer("?").render(Lang::En), "Say which move, e.g. ?move e4 or ?move #12 Nf3");
        let slash = from_options("help", None, &[("command", OptionValue::Text("ladder join".into()))]).unwrap_err();
        assert_eq!(slash.answer("/").render(Lang::De), "help erwartet den Namen eines Befehls, z. B. /help analyse");
    }

    /// Every command that names a game, about game 9, is typed with `#9` and parses back to itself
    /// (the examples of "which game?" answers); the others are left as they are.
    #[test]
    fn a_command_about_a_game_is_typed_with_its_number() {
        for typed in [
            "move e4",
            "board",
            "resign",
            "draw",
            "draw decline",
            "takeback",
            "takeback decline",
            "abort",
            "fen",
            "pgn",
            "pgn analysed",
            "analyse",
            "gif",
            "rematch",
            "swap K b",
            "noswap",
            "bomb",
            "bomb g1",
            "moves",
            "moves e1",
        ] {
            let about = parse(typed).unwrap().about_game(9);
            let t = about.typed("");
            assert!(t.contains("#9"), "{typed}: {t}");
            assert_eq!(parse(&t).unwrap(), about, "{typed}: {t}");
        }
        assert_eq!(parse("games").unwrap().about_game(9), Command::Games);
    }
}

//! The parsers: typed text after the prefix into a [`Command`] ([`parse`], through each command's
//! parser in the table), the words of each command's options, and a slash command's typed options
//! into the same words and so the same command ([`from_options`]).

use super::names::{english_value, listed, quoted_as_typed, read_names, said, values_listed, word_of};
use super::{
    ChallengeArgs, Change, Command, DAYS_CHOICES, EVENT, LadderCmd, OptionKind, PREFIX_UNTIL_ANSWERED, ParseError,
    REACH, ROUND, ROUNDS, RatingArgs, SEASON, SIGNUP, SYSTEMS, SettingsArgs, TournamentCmd, TournamentKind, WAIT,
    Wrong, spec,
};
use crate::i18n::{Lang, Msg};
use crate::msg;

/// The words that ask `rating` for every variant, in each language the bot speaks.
const EVERY_VARIANT: [&str; 5] = ["all", "every", "alle", "hepsi", "tümü"];

/// `people`: whether it may be about someone (`@name`); `every`: whether it may be about every
/// variant (`all`).
pub(super) fn parse_rating(word: &str, args: &[&str], people: bool, every: bool) -> Result<RatingArgs, Wrong> {
    let mut r = RatingArgs::default();
    for a in args {
        if a.starts_with('@') || a.starts_with("<@") {
            if !people {
                return Err(msg!("parse-about-everyone", word = word, given = *a));
            }
            r.someone = true;
        } else if a.eq_ignore_ascii_case("global") {
            r.global = true;
        } else if every && r.variant.is_none() && !r.all && EVERY_VARIANT.iter().any(|w| a.to_lowercase() == *w) {
            // `rating all`: before, taken for a person named without a mention ("mention them: @all").
            r.all = true;
        } else if r.variant.is_none() && !r.all {
            r.variant = Some(a.to_lowercase());
        } else {
            return Err(msg!("parse-not-understood", given = *a));
        }
    }
    // `rating bob`: a person named without a mention, not a variant (a slip for one is answered
    // with the variant meant, where the variant is read).
    use crate::bot::commands::{find_variant, near_variant, short, variant_names};
    if let Some(w) = r.variant.as_deref()
        && people
        && !r.someone
        && find_variant(w).is_none()
        && near_variant(w).is_none()
    {
        return Err(msg!("rating-mention", name = short(w), names = variant_names()));
    }
    Ok(r)
}

fn game_ref(tok: &str) -> Option<i64> {
    tok.strip_prefix('#').and_then(|n| n.parse().ok()).filter(|&n: &i64| n > 0)
}

/// Whether `tok` is a whole number written without `#` (`4`).
fn bare_number(tok: &str) -> bool {
    !tok.is_empty() && tok.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `tok` is a number from 1 written without `#`, as a game's or a tournament's is (not more
/// digits than any number has, which are no such number's).
/// Digits with a zero in front (`00`, `000`: castling, as some write it; `007`): never a game's
/// number written without `#`.
fn zero_led(tok: &str) -> bool {
    tok.len() > 1 && tok.starts_with('0')
}

fn positive(tok: &str) -> bool {
    bare_number(tok) && tok.parse::<u64>().is_ok_and(|n| n > 0)
}

/// How a command takes a game's (a challenge's) number: `#N` only, or (where no other word of the
/// command can be a number) a bare `N` too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Hash {
    Needed,
    Optional,
}

/// What a `#N` word numbers: the answer to a number that names none says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Numbered {
    Game,
    Challenge,
    Tournament,
}

/// `#` and a whole number that no game, challenge or tournament can have (`#0`, `#-1`, more digits than any
/// number has), or such a number without `#` where `hash` allows it: the answer that there is none,
/// with the number as typed.
fn no_such_number(tok: &str, what: Numbered, hash: Hash) -> Option<Wrong> {
    let n = match tok.strip_prefix('#') {
        Some(n) => n,
        None if hash == Hash::Optional && bare_number(tok) && !zero_led(tok) => tok,
        None => return None,
    };
    let digits = n.strip_prefix('-').unwrap_or(n);
    if !bare_number(digits) || game_ref(&format!("#{n}")).is_some() {
        return None;
    }
    let id = crate::bot::commands::short(n);
    Some(match what {
        Numbered::Game => msg!("game-none", id = id),
        Numbered::Challenge => msg!("challenge-none", id = id),
        Numbered::Tournament => msg!("tournament-none", id = id),
    })
}

/// Whether a parser's error is an answer in itself (there is no game #0), not a command written
/// wrongly: it is said without the pointer to the command's help.
pub(super) fn is_answer(e: &Wrong) -> bool {
    matches!(
        e.id.as_str(),
        "game-none" | "challenge-none" | "tournament-none" | "ladder-unknown-event" | "season-none" | "round-none"
    )
}

/// Splits off the first `#N` game reference (or bare `N`, where `hash` allows it); `#0` or a number
/// too large for any game is answered that there is no such game.
pub(super) fn split_game(args: &[&str], hash: Hash) -> Result<(Option<i64>, Vec<String>), Wrong> {
    split_numbered(args, Numbered::Game, hash)
}

fn split_numbered(args: &[&str], what: Numbered, hash: Hash) -> Result<(Option<i64>, Vec<String>), Wrong> {
    let mut game = None;
    let mut rest = Vec::new();
    for a in args {
        if game.is_none() {
            let bare = (hash == Hash::Optional && bare_number(a) && !zero_led(a))
                .then(|| a.parse().ok())
                .flatten()
                .filter(|&n| n > 0);
            if let Some(n) = game_ref(a).or(bare) {
                game = Some(n);
                continue;
            }
            if let Some(e) = no_such_number(a, what, hash) {
                return Err(e);
            }
        }
        rest.push(a.to_string());
    }
    Ok((game, rest))
}

pub(super) fn only_game(word: &str, args: &[&str]) -> Result<Option<i64>, Wrong> {
    let (game, rest) = split_game(args, Hash::Optional)?;
    if !rest.is_empty() {
        return Err(msg!("parse-only-game", word = word, given = rest.join(" ")));
    }
    Ok(game)
}

/// `accept` and `decline`: at most a challenge's number.
pub(super) fn only_challenge(word: &str, args: &[&str]) -> Result<Option<i64>, Wrong> {
    let (id, rest) = split_numbered(args, Numbered::Challenge, Hash::Optional)?;
    if !rest.is_empty() {
        return Err(msg!("parse-only-challenge", word = word, given = rest.join(" ")));
    }
    Ok(id)
}

/// An optional game number and at most one square (lower-cased), as `bomb` and `moves` take them;
/// more words are refused with `wrong`'s message (given them).
pub(super) fn game_and_square(
    args: &[&str],
    wrong: impl Fn(String) -> Wrong,
) -> Result<(Option<i64>, Option<String>), Wrong> {
    let (game, rest) = split_game(args, Hash::Optional)?;
    match rest.as_slice() {
        [] => Ok((game, None)),
        [sq] => Ok((game, Some(sq.to_lowercase()))),
        _ => Err(wrong(rest.join(" "))),
    }
}

/// `pgn`: an optional game number, then nothing or `analysed` (`analyzed`, `analysis`).
pub(super) fn parse_pgn(word: &str, args: &[&str]) -> Result<(Option<i64>, bool), Wrong> {
    let (game, rest) = split_game(args, Hash::Optional)?;
    match rest.iter().map(|r| r.to_lowercase()).collect::<Vec<_>>().as_slice() {
        [] => Ok((game, false)),
        [r] if matches!(r.as_str(), "analysed" | "analyzed" | "analysis") => Ok((game, true)),
        _ => Err(msg!("parse-pgn", word = word, given = rest.join(" "))),
    }
}

/// `draw` and `takeback`: an optional game number, then nothing (the offer or request) or `decline`
/// (`no`), which refuses the opponent's; `word` names the command in the message.
pub(super) fn offer_or_decline(
    word: &str,
    args: &[&str],
    offer: fn(Option<i64>) -> Command,
    decline: fn(Option<i64>) -> Command,
) -> Result<Command, Wrong> {
    let (game, rest) = split_game(args, Hash::Optional)?;
    match rest.iter().map(|r| r.to_lowercase()).collect::<Vec<_>>().as_slice() {
        // `draw accept`: the same as `draw`, which accepts the opponent's offer where there is one.
        [] => Ok(offer(game)),
        [r] if matches!(r.as_str(), "accept" | "yes" | "offer") => Ok(offer(game)),
        [r] if matches!(r.as_str(), "decline" | "no") => Ok(decline(game)),
        _ => Err(msg!("parse-game-decline", word = word, given = rest.join(" "))),
    }
}

/// An optional game number and the words after it, which must not be empty (`hint` says what to write).
pub(super) fn game_and_text(args: &[&str], hint: Msg) -> Result<(Option<i64>, String), Wrong> {
    let (game, rest) = split_game(args, Hash::Optional)?;
    if rest.is_empty() {
        return Err(hint);
    }
    Ok((game, rest.join(" ")))
}

/// `swap`: an optional `#N` and the swap. Not a bare number for the game, as a swap's words may be
/// numbers (`0`: none; `K b 1`); a swap never starts with one other than `0`, so `swap 2 K b` is
/// answered how to write game 2.
pub(super) fn game_and_swap(args: &[&str]) -> Result<(Option<i64>, String), Wrong> {
    let (game, rest) = split_game(args, Hash::Needed)?;
    match rest.first() {
        None => Err(msg!("parse-which-swap", p = PREFIX_UNTIL_ANSWERED)),
        Some(n) if positive(n) => Err(msg!("parse-swap-number", number = n.as_str(), p = PREFIX_UNTIL_ANSWERED)),
        Some(_) => Ok((game, rest.join(" "))),
    }
}

fn parse_days(v: &str) -> Result<Option<u32>, Wrong> {
    // Not `0`: a clock of no days is no choice, and is refused like `days:4`.
    if matches!(v, "none" | "off") {
        return Ok(None);
    }
    match v.parse::<u32>() {
        Ok(d) if DAYS_CHOICES.contains(&d) => Ok(Some(d)),
        _ => Err(msg!("parse-days", given = v)),
    }
}

/// Sets an option met in a challenge's words, refusing a second value for it (`days:3 days:5`,
/// `casual rated`): which one was meant is not guessed.
fn once<T>(slot: &mut Option<T>, value: T, key: &str, typed: &str, seen: &mut Vec<(String, String)>) -> PResult<()> {
    if let Some((_, first)) = seen.iter().find(|(k, _)| k == key) {
        return Err(match key {
            "rated" => msg!("parse-rated-casual", first = first.as_str(), second = typed),
            _ => msg!("parse-option-twice", key = option_name(key), first = first.as_str(), second = typed),
        });
    }
    seen.push((key.to_string(), typed.to_string()));
    *slot = Some(value);
    Ok(())
}

type PResult<T> = Result<T, Wrong>;

/// `challenge` and `play`: options, `casual`/`rated`, and the variant (its short name, or its full
/// name in several words). For `challenge` (`person_expected`) a word that is no variant, alone or
/// beside one, without anyone mentioned, is most likely a person written without the mention
/// (`!challenge bob chess`): the answer says to mention them.
pub(super) fn parse_challenge(args: &[&str], person_expected: bool) -> Result<ChallengeArgs, Wrong> {
    use crate::bot::commands::{find_variant, near_variant, short, variant_names};
    let mut c = ChallengeArgs::default();
    let mut words: Vec<&str> = Vec::new();
    let mut seen = Vec::new();
    let mut mentions = 0;
    for a in args {
        if a.starts_with('@') || a.starts_with("<@") {
            // A challenge is for one person: a second is refused, not dropped.
            mentions += 1;
            if mentions > 1 {
                return Err(msg!("parse-challenge-two-people"));
            }
            c.mentions_someone = true;
            continue;
        }
        let lower = a.to_lowercase();
        if let Some((k, v)) = lower.split_once(':').or_else(|| lower.split_once('=')) {
            // The value as typed, for a refusal to quote (`renk:Mor` is refused as 'Mor').
            let as_typed = a.split_once(':').or_else(|| a.split_once('=')).map_or(v, |(_, t)| t);
            match k {
                "days" | "d" => once(&mut c.days, parse_days(v)?, "days", a, &mut seen)?,
                "color" | "colour" | "side" => {
                    let color = match v {
                        "white" | "w" => "white",
                        "black" | "b" => "black",
                        "random" | "r" | "any" => "random",
                        _ => return Err(msg!("parse-color", given = as_typed)),
                    };
                    once(&mut c.color, color.to_string(), "color", a, &mut seen)?
                }
                // Kept as typed: what is none of the variant's setups (`-1`, `x1`, more digits than
                // any number has) is answered with the variant's range once the variant is known.
                "setup" => once(&mut c.setup, v.to_string(), "setup", a, &mut seen)?,
                "level" | "lvl" => match v.parse::<u8>() {
                    Ok(l @ 1..=8) => once(&mut c.level, l, "level", a, &mut seen)?,
                    _ => return Err(msg!("parse-level", given = as_typed)),
                },
                _ => {
                    // The options of the command typed (`play`'s has no person), as its help lists them.
                    let word = if person_expected { "challenge" } else { "play" };
                    let options = spec(word).map(listed).unwrap_or_else(|| Msg::raw(""));
                    return Err(msg!(
                        "parse-unknown-option",
                        given = k,
                        word = word,
                        options = options,
                        p = PREFIX_UNTIL_ANSWERED
                    ));
                }
            }
        } else if matches!(lower.as_str(), "casual" | "unrated") {
            once(&mut c.rated, false, "rated", a, &mut seen)?;
        } else if lower == "rated" {
            once(&mut c.rated, true, "rated", a, &mut seen)?;
        } else {
            words.push(a);
        }
    }
    let unknown: Vec<&str> = words.iter().copied().filter(|w| find_variant(w).is_none()).collect();
    match words.as_slice() {
        [] => {}
        [w] if !(person_expected && !c.mentions_someone && find_variant(w).is_none()) => {
            c.variant = Some(w.to_lowercase());
        }
        _ if words.len() > 1 && find_variant(&words.concat()).is_some() => {
            c.variant = Some(words.concat().to_lowercase());
        }
        _ if person_expected && !c.mentions_someone && words.len() <= 2 && unknown.len() == 1 => {
            let name = short(unknown[0]);
            return Err(match near_variant(unknown[0]) {
                Some(near) => msg!("challenge-mention-near", name = name, near = near, names = variant_names()),
                None => msg!("challenge-mention", name = name, names = variant_names()),
            });
        }
        // Several words, not one variant's name, and no person for one of them.
        _ => return Err(msg!("parse-not-understood", given = *words.get(1).unwrap_or(&words[0]))),
    }
    Ok(c)
}

pub(super) fn parse_switch(key: &str, v: &str) -> Result<bool, Wrong> {
    yes_or_no(v).ok_or_else(|| msg!("parse-switch", key = option_name(key), given = v))
}

/// An option's name as the reader's language writes it (`tage` for `days`), where the catalogues
/// have one; a command's word (`notify`) as it is.
fn option_name(key: &str) -> Msg {
    let id = format!("optname-{key}");
    if crate::i18n::has(Lang::En, &id) { Msg::new(&id, vec![]) } else { Msg::raw(key) }
}

/// `v` as yes or no: `on`, `yes`, `true`, `1` and their opposites, or the words for yes and no
/// and for on and off of any catalogue (`ja`, `hayır`, `açık`, `aus`), typed with or without
/// their marks (`hayir`, `acik`).
pub(super) fn yes_or_no(v: &str) -> Option<bool> {
    let lower = v.to_lowercase();
    match lower.as_str() {
        "on" | "yes" | "true" | "1" => Some(true),
        "off" | "no" | "false" | "0" => Some(false),
        _ if ["word-yes", "optvalue-on", "optvalue-on-also"].iter().any(|id| said(v, id)) => Some(true),
        _ if ["word-no", "optvalue-off", "optvalue-off-also"].iter().any(|id| said(v, id)) => Some(false),
        _ => None,
    }
}

/// Whether a setting's value forgets a choice, so that the one above applies again (`default`,
/// as `lang` and `theme` take it; `none` too, as `days:none`).
pub(crate) fn forgets(v: &str) -> bool {
    resets(v) || matches!(v.to_lowercase().as_str(), "none" | "off")
}

/// Whether a `settings` value is the word that takes every setting back to what the chat (or the
/// community) would have without its own: `default` (or `auto`). Not `none` or `off`, which are
/// values of `days:` and of the switches.
fn resets(v: &str) -> bool {
    matches!(v.to_lowercase().as_str(), "default" | "auto")
}

/// A setting's value: `default` (or `auto`) forgets this level's own, anything else is read by `read`.
fn change<T>(v: &str, read: impl FnOnce(&str) -> Result<T, Wrong>) -> Result<Change<T>, Wrong> {
    if resets(v) { Ok(Change::Default) } else { read(v).map(Change::Set) }
}

pub(super) fn parse_settings(args: &[&str]) -> Result<SettingsArgs, Wrong> {
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
                s.prefix = Some(change(v, |v| {
                    // Not the chat apps' own marks at its start: mentions and detonations (`@`),
                    // game numbers (`#`), the apps' slash commands (`/`), Discord's mentions and
                    // quotes (`<`, `>`), emoji (`:`), Markdown (`` ` `` `*` `_` `~` `|`).
                    let ok = !v.is_empty()
                        && v.chars().count() <= 3
                        && !v.chars().any(|c| c.is_alphanumeric() || c.is_whitespace())
                        && !v.starts_with(['@', '#', '/', '<', '>', ':', '`', '*', '_', '~', '|']);
                    if ok { Ok(v.to_string()) } else { Err(msg!("parse-prefix")) }
                })?)
            }
            "variant" => s.variant = Some(change(v, |v| Ok(v.to_lowercase()))?),
            "days" => s.days = Some(change(v, |v| parse_days(&v.to_lowercase()))?),
            "thread" | "threads" => s.thread = Some(change(v, |v| parse_switch("thread", v))?),
            "gif" | "animation" => s.gif = Some(change(v, |v| parse_switch("gif", v))?),
            "web" => s.web = Some(change(v, |v| parse_switch("web", v))?),
            "theme" | "board" | "colors" | "colours" => {
                s.theme = Some(match crate::render::Theme::by_name(v) {
                    Some(t) => Change::Set(t.name().to_string()),
                    // As `theme default` forgets a person's own theme.
                    None if forgets(v) => Change::Default,
                    None => {
                        return Err(msg!(
                            "parse-theme",
                            given = v,
                            themes = values_listed(crate::bot::command::THEMES)
                        ));
                    }
                })
            }
            "lang" | "language" | "dil" => {
                s.lang = Some(match Lang::parse(v) {
                    Some(l) => Change::Set(l.code().to_string()),
                    // As `lang default` forgets a person's own language.
                    None if forgets(v) => Change::Default,
                    None => return Err(msg!("parse-lang", given = v)),
                })
            }
            "rated" => {
                s.rated = Some(change(v, |v| {
                    crate::store::settings::RatedGames::parse(&v.to_lowercase())
                        .ok_or_else(|| msg!("parse-rated", given = v))
                })?)
            }
            other => {
                return Err(msg!("parse-unknown-setting", given = other));
            }
        }
    }
    Ok(s)
}

pub(super) fn no_args(word: &str, args: &[&str], cmd: Command) -> Result<Command, Wrong> {
    if args.is_empty() { Ok(cmd) } else { Err(msg!("parse-no-args", word = word, given = args.join(" "))) }
}

/// `ladder` and its subcommands; `@user` words are skipped (the mentions say who).
pub(super) fn parse_ladder(args: &[&str]) -> Result<LadderCmd, Wrong> {
    let words: Vec<String> =
        args.iter().filter(|a| !a.starts_with('@') && !a.starts_with("<@")).map(|a| a.to_lowercase()).collect();
    let variant = |rest: &[String]| -> Result<Option<String>, Wrong> {
        match rest {
            [] => Ok(None),
            [v] => Ok(Some(v.clone())),
            _ => Err(msg!("parse-ladder-variant", given = rest.join(" "))),
        }
    };
    let Some((sub, rest)) = words.split_first() else { return Ok(LadderCmd::Show(None)) };
    Ok(match sub.as_str() {
        "standings" => LadderCmd::Show(variant(rest)?),
        "join" => LadderCmd::Join(variant(rest)?),
        "leave" => LadderCmd::Leave(variant(rest)?),
        "challenge" => LadderCmd::Challenge(variant(rest)?),
        "accept" => LadderCmd::Accept(variant(rest)?),
        "decline" => LadderCmd::Decline(variant(rest)?),
        "withdraw" => LadderCmd::Withdraw(variant(rest)?),
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
            let variant = v.ok_or_else(|| msg!("parse-ladder-create-which", p = PREFIX_UNTIL_ANSWERED))?;
            LadderCmd::Create { variant, days, reach, wait }
        }
        "undo" => {
            let n = rest.first().ok_or_else(|| msg!("parse-ladder-undo", p = PREFIX_UNTIL_ANSWERED))?;
            let event = EVENT.parse(n.trim_start_matches('#'))?;
            let reason: Vec<&str> =
                args.iter().skip_while(|a| !a.eq_ignore_ascii_case("undo")).skip(2).copied().collect();
            LadderCmd::Undo { event, reason: reason.join(" ") }
        }
        "season" => match rest.split_first() {
            Some((c, more)) if c == "close" => LadderCmd::SeasonClose(variant(more)?),
            Some((n, more)) => LadderCmd::Season { number: SEASON.parse(n)?, variant: variant(more)? },
            None => return Err(msg!("parse-ladder-season", p = PREFIX_UNTIL_ANSWERED)),
        },
        // `ladder chess`: that ladder's standings.
        other if rest.is_empty() && crate::bot::commands::find_variant(other).is_some() => {
            LadderCmd::Show(Some(other.to_string()))
        }
        other => {
            return Err(msg!(
                "parse-ladder-action",
                given = other,
                actions = actions_list("ladder", super::table::LADDER_ACTIONS)
            ));
        }
    })
}

/// `tournament` and its actions. `#N` anywhere names the tournament; after `create`, the system,
/// variant and `key:value` options may come in any order and the other words are the name.
pub(super) fn parse_tournament(args: &[&str]) -> Result<TournamentCmd, Wrong> {
    let mut id = None;
    let mut words = Vec::new();
    for a in args {
        match a.strip_prefix('#') {
            Some(n) if id.is_none() => {
                if let Some(none) = no_such_number(a, Numbered::Tournament, Hash::Needed) {
                    return Err(none);
                }
                id = Some(game_ref(a).ok_or_else(|| msg!("parse-positive", key = "tournament", given = n))?)
            }
            Some(_) => return Err(msg!("parse-tournament-two")),
            None => words.push(*a),
        }
    }
    let Some((action, rest)) = words.split_first() else { return Ok(TournamentCmd::Show { id, round: None }) };
    // A bare number is a round's (`tournament round 2`): one where the tournament's goes is
    // answered how to write that.
    let write_hash = |n: &str| msg!("parse-tournament-number", number = n, p = PREFIX_UNTIL_ANSWERED);
    let none_after = |cmd: TournamentCmd| -> Result<TournamentCmd, Wrong> {
        match rest {
            [] => Ok(cmd),
            [n] if positive(n) => Err(write_hash(n)),
            _ => Err(msg!("parse-tournament-only-number", action = *action, given = rest.join(" "))),
        }
    };
    match action.to_lowercase().as_str() {
        "standings" => none_after(TournamentCmd::Show { id, round: None }),
        "join" => none_after(TournamentCmd::Join(id)),
        "leave" => none_after(TournamentCmd::Leave(id)),
        "withdraw" => none_after(TournamentCmd::Withdraw(id)),
        "crosstable" => none_after(TournamentCmd::Crosstable(id)),
        "start" => none_after(TournamentCmd::Start(id)),
        "cancel" => none_after(TournamentCmd::Cancel(id)),
        "round" => match rest {
            [n] => Ok(TournamentCmd::Show { id, round: Some(ROUND.parse(n)?) }),
            [_, n] if positive(n) => Err(write_hash(n)),
            _ => Err(msg!("parse-tournament-round", p = PREFIX_UNTIL_ANSWERED)),
        },
        "create" => parse_tournament_create(rest),
        a if positive(a) => Err(write_hash(a)),
        a => match a.strip_prefix("round:") {
            Some(n) if rest.is_empty() => Ok(TournamentCmd::Show { id, round: Some(ROUND.parse(n)?) }),
            _ => Err(msg!(
                "parse-tournament-action",
                given = a.chars().take(20).collect::<String>(),
                actions = actions_list("tournament", super::table::TOURNAMENT_ACTIONS)
            )),
        },
    }
}

/// The actions of a command with subcommands as its refusal of an unknown one lists them: each
/// subcommand's name, a count option after them (`round N`). From the table, so that the list
/// names every action the parser takes (before, `standings` was missing from it); in the reader's
/// language, each by its name there (`durum`, `tur N`; `season-close` in English), which is read
/// too (before: the English words in every language).
fn actions_list(command: &str, subs: &[super::table::SubcommandSpec]) -> Msg {
    let mut words = subs.iter().rev().map(|s| {
        let count = s.options.iter().any(|o| matches!(o.kind, super::table::OptionKind::Count(_)));
        msg!(
            "action-word",
            name = Msg::new(&format!("subname-{command}-{}", s.name), vec![]),
            count = if count { "yes" } else { "no" }
        )
    });
    let last = words.next().unwrap_or_else(|| Msg::raw(""));
    words.fold(last, |rest, first| msg!("list-more", first = first, rest = rest))
}

/// Put by a slash command before its `name` option's words: what follows is the name, word for
/// word, whatever system, variant or option it begins with (the option says it is the name; only
/// typed text needs the words read for what they are). Not a word anyone types.
const NAME_FOLLOWS: &str = "\u{1}name";

fn parse_tournament_create(args: &[&str]) -> Result<TournamentCmd, Wrong> {
    let (mut kind, mut rounds, mut variant, mut days, mut signup) = (None, None, None::<String>, None, None);
    let mut name = Vec::new();
    let mut seen = Vec::new();
    // The system's word as read, for a refusal of a second one.
    let mut first_system = None;
    let (args, named) = match args.iter().position(|w| *w == NAME_FOLLOWS) {
        Some(at) => (&args[..at], &args[at + 1..]),
        None => (args, &[][..]),
    };
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
            first_system = Some(*w);
            continue;
        }
        // A second system where the name would begin (`swiss double Spring Cup`), by any of its
        // words in any language: which was meant is not guessed, nor is it taken into the name.
        if let Some(first) = first_system
            && name.is_empty()
            && (system.is_some() || english_value(OptionKind::Choice(SYSTEMS), w).is_some())
        {
            return Err(msg!("parse-tournament-two-systems", first = first, second = *w));
        }
        // A system capabot does not run, where the system goes: refused, not taken into the name
        // of a round robin.
        if kind.is_none()
            && name.is_empty()
            && matches!(lower.as_str(), "knockout" | "knock-out" | "ko" | "elimination" | "arena" | "scheveningen")
        {
            return Err(msg!("parse-tournament-system", given = *w));
        }
        match lower.split_once(':') {
            // Each once, as a challenge's options (`days:3 days:5`): which one was meant is not guessed.
            Some(("rounds", x)) => once(&mut rounds, ROUNDS.parse(x)?, "rounds", w, &mut seen)?,
            Some(("days" | "d", x)) => match parse_days(x)? {
                Some(d) => once(&mut days, d, "days", w, &mut seen)?,
                None => return Err(msg!("parse-tournament-days")),
            },
            Some(("signup", x)) => {
                let n = match x {
                    "none" | "off" => 0,
                    _ => SIGNUP.parse(x).map_err(|_| msg!("parse-signup", given = x))?,
                };
                once(&mut signup, n, "signup", w, &mut seen)?
            }
            Some((k, _)) if name.is_empty() => {
                return Err(msg!("parse-tournament-create-key", given = k));
            }
            _ if name.is_empty() && crate::bot::commands::find_variant(&lower).is_some() => match &variant {
                None => variant = Some(lower),
                // A second variant where the name would begin is most likely a slip (as in a
                // challenge); a name may still begin with one after another word.
                Some(first) => {
                    return Err(msg!("parse-tournament-two-variants", first = first.as_str(), second = *w));
                }
            },
            _ => name.push(*w),
        }
    }
    name.extend(named);
    let kind = kind.unwrap_or(TournamentKind::RoundRobin);
    if rounds.is_some() && kind != TournamentKind::Swiss {
        return Err(msg!("parse-rounds-swiss"));
    }
    let name: String = name.join(" ").chars().filter(|&c| crate::bot::commands::shows(c)).take(60).collect();
    Ok(TournamentCmd::Create { kind, rounds, variant, days, signup, name })
}

/// Parses the text after the prefix.
pub fn parse(body: &str) -> Result<Command, ParseError> {
    read(body).map_err(ParseError::from)
}

fn read(body: &str) -> Result<Command, Wrong> {
    let toks: Vec<&str> = body.split_whitespace().collect();
    let Some((&word, args)) = toks.split_first() else {
        return Ok(Command::Help(None));
    };
    match spec(word) {
        Some(s) => {
            let words = read_names(s, args)?;
            let args: Vec<&str> = words.iter().map(|w| w.read.as_str()).collect();
            (s.parse)(&word.to_lowercase(), &args).map_err(|e| quoted_as_typed(e, &words))
        }
        None => {
            // Not a command: a bare number is no game's (a move is told by its `#N`).
            let (game, rest) = split_game(&toks, Hash::Needed)?;
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
    command_of_options(name, subcommand, values).map_err(ParseError::from)
}

fn command_of_options(
    name: &str,
    subcommand: Option<&str>,
    values: &[(&str, OptionValue)],
) -> Result<(Command, Vec<crate::bot::UserRef>), Wrong> {
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
    // A refusal names an option as the person's client shows it (Discord's name in their
    // language, `optname-*`), the parsers' refusals through [`option_name`] alike.
    for o in options {
        let Some((_, v)) = values.iter().find(|(n, _)| *n == o.name) else {
            if o.required {
                return Err(msg!("parse-option-needed", name = name, option = option_name(o.name)));
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
            (OptionKind::Flag(yes, no), OptionValue::Bool(b)) => (if *b { yes } else { no }).to_string(),
            (OptionKind::Switch(k), OptionValue::Bool(b)) => format!("{k}:{}", if *b { "on" } else { "off" }),
            (kind, _) => match word_of(kind, &text) {
                Some(word) => word,
                None if kind == OptionKind::User => {
                    return Err(msg!("parse-option-person", option = option_name(o.name)));
                }
                None => return Err(msg!("parse-option-bool", option = option_name(o.name))),
            },
        };
        if word.is_empty() {
            continue;
        }
        if name == "tournament" && o.name == "name" {
            words.push(NAME_FOLLOWS.to_string());
        }
        if word.chars().any(char::is_whitespace) && !matches!(o.kind, OptionKind::Move | OptionKind::Text) {
            return Err(msg!("parse-option-one-word", option = option_name(o.name), given = word));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::command::COMMANDS;

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
                setup: Some("17".into()),
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
        assert_eq!(parse("takeback accept #4").unwrap(), Command::Takeback(Some(4)));
        assert_eq!(parse("draw yes").unwrap(), Command::Draw(None));
        assert_eq!(parse("draw offer #2").unwrap(), Command::Draw(Some(2)));
        assert!(parse("draw maybe").is_err());
        assert_eq!(parse("rematch #3").unwrap(), Command::Rematch(Some(3)));
        assert_eq!(parse("again").unwrap(), Command::Rematch(None));
        assert!(parse("rematch now").is_err());
        assert!(parse("takeback please").unwrap_err().to_string().contains("'please'"));
        assert!(parse("resign now please").is_err());
        assert_eq!(parse("").unwrap(), Command::Help(None));
        assert_eq!(parse("help").unwrap(), Command::Help(None));
        // One command, written with or without a prefix, in any case.
        assert_eq!(parse("help Analyse").unwrap(), Command::Help(Some("analyse".into())));
        assert_eq!(parse("help !ladder").unwrap(), Command::Help(Some("ladder".into())));
        assert!(parse("help ladder join").unwrap_err().to_string().contains("help analyse"));
    }

    /// A game's or challenge's number is read without `#` where no other word of the command can
    /// be a number (before: "accept takes at most a challenge number like #4, not '1'"); where one
    /// can (a swap's `0`, a tournament's round), the refusal says to write `#`.
    #[test]
    fn numbers_are_read_without_hash_where_nothing_else_is_a_number() {
        let text = |t: &str| t.to_string();
        for (typed, command) in [
            ("accept 1", Command::Accept(Some(1))),
            ("decline 2", Command::Decline(Some(2))),
            ("board 1", Command::Board(Some(1))),
            ("draw 1", Command::Draw(Some(1))),
            ("draw 1 decline", Command::DrawDecline(Some(1))),
            ("resign 3", Command::Resign(Some(3))),
            ("rematch 5", Command::Rematch(Some(5))),
            ("move 1 e4", Command::Move { game: Some(1), text: text("e4") }),
            ("move #1 e4 e5", Command::Move { game: Some(1), text: text("e4 e5") }),
            ("moves 3 g1", Command::Moves { game: Some(3), square: Some(text("g1")) }),
            ("bomb 3 g1", Command::Bomb { game: Some(3), square: Some(text("g1")) }),
            ("pgn 3 analysed", Command::Pgn { game: Some(3), analysed: true }),
            ("swap #2 K b", Command::Swap { game: Some(2), text: text("K b") }),
            ("swap K b 1", Command::Swap { game: None, text: text("K b 1") }),
            ("swap 0", Command::Swap { game: None, text: text("0") }),
            ("tournament round 2", Command::Tournament(TournamentCmd::Show { id: None, round: Some(2) })),
            // Not a command: a number is no game's without `#`.
            ("1 e4", Command::Other { game: None, text: text("1 e4") }),
        ] {
            assert_eq!(parse(typed), Ok(command), "{typed}");
        }
        for (typed, answer) in [
            ("board 0", "There is no game #0."),
            ("accept 99999999999999999999", "There is no challenge #99999999999999999999."),
            ("swap 2 K b", "Write #2 for game 2, e.g. !swap #2 K b"),
            ("tournament 3", "Write #3 for tournament 3, e.g. !tournament #3 join"),
            ("tournament join 3", "Write #3 for tournament 3"),
            ("tournament round 2 3", "Write #3 for tournament 3"),
        ] {
            let refused = parse(typed).unwrap_err().to_string();
            assert!(refused.starts_with(answer), "{typed}: {refused}");
        }
    }

    /// Two systems where one goes are refused, naming both as typed, for every word of each
    /// system in every language (before: `swiss double Spring Cup` made a Swiss named "double
    /// Spring Cup", and `isviçre-sistemi çift-devre Kupa` one named "çift-devre Kupa"); after a
    /// word of the name, a system's word is the name's.
    #[test]
    fn two_systems_for_one_tournament_are_refused() {
        let mut words: Vec<String> = ["round-robin", "rr", "doubleroundrobin", "drr", "Swiss"].map(String::from).into();
        for lang in Lang::ALL {
            for system in SYSTEMS {
                let word = crate::i18n::tr(lang, &format!("optvalue-{system}"), &[]);
                // Typed without its marks too (`isvicre-sistemi`).
                words.push(word.replace('ç', "c"));
                words.push(word);
            }
        }
        words.dedup();
        let mut refused = 0;
        for first in &words {
            for second in &words {
                for (typed, lang) in [
                    (format!("tournament create {first} {second} Spring Cup"), Lang::En),
                    (format!("tournament create {first} chess {second} days:3"), Lang::De),
                    (format!("tournament oluştur {first} {second} Kupa"), Lang::Tr),
                ] {
                    let answer = match parse(&typed) {
                        Err(e) => e.answer("!").render(lang),
                        Ok(c) => panic!("{typed}: {c:?}"),
                    };
                    assert!(
                        answer.contains(&format!("'{first}'")) && answer.contains(&format!("'{second}'")),
                        "{typed}: {answer}"
                    );
                    refused += 1;
                }
            }
        }
        assert!(refused > 300, "{refused}");
        assert_eq!(
            parse("tournament create swiss double Spring Cup").unwrap_err().to_string(),
            "'swiss' and 'double' are both tournament systems; a tournament has one. A name that begins with a \
             system's word needs another word before it, e.g. The double Cup"
        );
        let answer = |typed: &str, lang: Lang| parse(typed).unwrap_err().answer("!").render(lang);
        assert_eq!(
            answer("tournament create isviçre-sistemi çift-devre Kupa", Lang::Tr),
            "'isviçre-sistemi' ve 'çift-devre' ikisi de turnuva sistemi; bir turnuvanın tek sistemi olur. Sistem \
             adıyla başlayan bir isim için önüne başka bir kelime koy, ör. Büyük çift-devre Kupası"
        );
        assert_eq!(
            answer("tournament create schweizer-system chess doppelrunde", Lang::De),
            "'schweizer-system' und 'doppelrunde' sind beide Turniersysteme; ein Turnier hat nur eines. Ein Name, \
             der mit dem Wort eines Systems beginnt, braucht ein anderes Wort davor, z. B. Der doppelrunde-Pokal"
        );
        // After a word of the name, the name's.
        match parse("tournament create swiss chess Spring double Cup") {
            Ok(Command::Tournament(TournamentCmd::Create { kind, name, .. })) => {
                assert_eq!((kind, name.as_str()), (TournamentKind::Swiss, "Spring double Cup"))
            }
            other => panic!("{other:?}"),
        }
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
        // A system capabot does not run is refused where the system goes, kept in a name after it.
        let refused = parse("tournament create knockout chess").unwrap_err().to_string();
        assert!(
            refused.contains("round robin (roundrobin), double round robin (double) or Swiss (swiss)"),
            "{refused}"
        );
        assert!(parse("tournament create chess arena").is_err());
        let Command::Tournament(TournamentCmd::Create { kind, name, .. }) =
            parse("tournament create swiss chess Knockout Cup").unwrap()
        else {
            panic!("create")
        };
        assert_eq!((kind, name.as_str()), (TournamentKind::Swiss, "Knockout Cup"));
        assert!(parse("tournament #1 #2").is_err());
        // A second variant where the name begins is refused, as `challenge @bob chess atomic` is
        // (before: a Chess tournament named "atomic"); after another word it is the name's.
        let refused = parse("tournament create chess atomic signup:0").unwrap_err().to_string();
        assert!(refused.contains("'chess' and 'atomic' are both variants"), "{refused}");
        assert!(refused.contains("e.g. The atomic"), "{refused}");
        let refused = parse("tournament create atomic swiss chess").unwrap_err().to_string();
        assert!(refused.contains("'atomic' and 'chess' are both variants"), "{refused}");
        assert!(matches!(
            parse("tournament create chess The atomic Cup"),
            Ok(Command::Tournament(TournamentCmd::Create { variant: Some(v), .. })) if v == "chess"
        ));
        // An option given twice is refused as a challenge's is (before: the last one counted).
        for (typed, twice) in [
            ("swiss chess signup:0 rounds:2 days:3 rounds:3", "rounds is given twice ('rounds:2' and 'rounds:3')"),
            ("chess days:3 days:5", "days is given twice ('days:3' and 'days:5')"),
            ("chess signup:0 Cup signup:2", "signup is given twice ('signup:0' and 'signup:2')"),
        ] {
            let refused = parse(&format!("tournament create {typed}")).unwrap_err().to_string();
            assert!(refused.contains(twice), "{typed}: {refused}");
        }
        assert!(parse("tournament dance").unwrap_err().to_string().contains("Unknown tournament action"));
        // The refusal lists every action there is, each of which parses (before: a list by hand,
        // without `standings`, and no `crosstable` or `withdraw` at all).
        let refused = parse("tournament dance").unwrap_err().to_string();
        assert!(
            refused.ends_with("actions: standings, round N, crosstable, join, leave, withdraw, create, start, cancel"),
            "{refused}"
        );
        for action in super::super::table::TOURNAMENT_ACTIONS.iter().filter(|a| a.name != "round") {
            assert!(parse(&format!("tournament {}", action.words)).is_ok(), "{}", action.words);
        }
        assert_eq!(parse("tournament #3 withdraw").unwrap(), Command::Tournament(TournamentCmd::Withdraw(Some(3))));
        assert_eq!(parse("tournament crosstable").unwrap(), Command::Tournament(TournamentCmd::Crosstable(None)));
        let ladder = parse("ladder dance").unwrap_err().to_string();
        assert!(ladder.contains("standings, join, leave, challenge, accept, decline, withdraw, season N,"), "{ladder}");
        // In Turkish and German, by the names read there (before: the English words), each of which
        // is read as that action.
        use crate::i18n::Lang;
        let said = |typed: &str, lang| parse(typed).unwrap_err().answer("!").render(lang);
        let turkish = said("tournament dance", Lang::Tr);
        assert!(
            turkish
                .ends_with("işlemler: puan-durumu, tur N, çapraz-tablo, katıl, ayrıl, çekil, oluştur, başlat, iptal"),
            "{turkish}"
        );
        let german = said("ladder tanz", Lang::De);
        let english = said("ladder dance", Lang::En);
        for (command, list) in [("tournament", turkish), ("ladder", german), ("ladder", english)] {
            let listed = list.rsplit(": ").next().unwrap();
            for (action, english) in listed.split(", ").zip(if command == "ladder" {
                super::super::table::LADDER_ACTIONS
            } else {
                super::super::table::TOURNAMENT_ACTIONS
            }) {
                let read = parse(&format!("{command} {}", action.replace(" N", " 2")));
                let expected = parse(&format!(
                    "{command} {}",
                    english.words.to_string() + if action.ends_with(" N") { " 2" } else { "" }
                ));
                assert_eq!(read.is_ok(), expected.is_ok(), "{command} {action}");
                if let (Ok(read), Ok(expected)) = (read, expected) {
                    assert_eq!(read, expected, "{command} {action}");
                }
            }
        }
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

    /// A slash command's `name` option is the name word for word: one beginning with a system's or
    /// a variant's word, or holding an option's shape, is not read as them (before: "Double
    /// Trouble" with the system swiss was refused as two systems, "Chess Masters" with the variant
    /// chess as two variants, and "Cup days:3" set the days). Typed, the words are read as before.
    #[test]
    fn a_slash_commands_name_is_the_name_whatever_it_begins_with() {
        let created = |system: &str, name: &str| {
            let given = [
                ("system", OptionValue::Text(system.into())),
                ("variant", OptionValue::Text("chess".into())),
                ("name", OptionValue::Text(name.into())),
            ];
            match from_options("tournament", Some("create"), &given) {
                Ok((Command::Tournament(TournamentCmd::Create { kind, variant, days, name, .. }), _)) => {
                    (kind, variant, days, name)
                }
                other => panic!("{name}: {other:?}"),
            }
        };
        for name in ["Double Trouble", "Chess Masters", "Swiss Open", "Cup days:3", "rounds:4 of fun"] {
            assert_eq!(created("swiss", name), (TournamentKind::Swiss, Some("chess".into()), None, name.into()));
        }
        assert_eq!(created("round-robin", "isviçre-sistemi Kupası").3, "isviçre-sistemi Kupası");
        assert!(parse("tournament create swiss chess Double Trouble").is_err(), "typed, read as before");
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
        // A client that still holds the yes/no option of before (Discord caches commands): `true`
        // is read as `on`.
        assert_eq!(
            from_options("settings", None, &[("gif", OptionValue::Bool(true))]).unwrap().0,
            Command::Settings(SettingsArgs { gif: Some(Change::Set(true)), ..SettingsArgs::default() })
        );
        // The slash command's three choices, `default` among them.
        let thread = |word: &str| {
            let args = [("thread", OptionValue::Text(word.into()))];
            match from_options("settings", None, &args).unwrap().0 {
                Command::Settings(s) => s.thread,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(thread("on"), Some(Change::Set(true)));
        assert_eq!(thread("off"), Some(Change::Set(false)));
        assert_eq!(thread("default"), Some(Change::Default));
        assert_eq!(parse("replay #3").unwrap(), Command::Gif(Some(3)));
        assert_eq!(parse("analyze #3").unwrap(), Command::Analyse(Some(3)));
        assert_eq!(parse("pgn #3 Analysed").unwrap(), Command::Pgn { game: Some(3), analysed: true });
        assert_eq!(parse("pgn").unwrap(), Command::Pgn { game: None, analysed: false });
        assert!(parse("pgn #3 with-evals").is_err());
        assert!(parse("gif everything").is_err());
        assert!(parse("settings gif:maybe").unwrap_err().to_string().contains("gif is on, off or default"));
        assert_eq!(
            from_options(
                "settings",
                None,
                &[("community", OptionValue::Bool(true)), ("thread", OptionValue::Bool(true))]
            )
            .unwrap()
            .0,
            Command::Settings(SettingsArgs {
                community: true,
                thread: Some(Change::Set(true)),
                ..SettingsArgs::default()
            })
        );
    }

    /// A slash command's refusal names an option as the person's client shows it, in their
    /// language (before: 'move' and 'player' to a reader whose Discord shows `zug`, `oyuncu`).
    #[test]
    fn slash_refusals_name_options_as_the_client_shows_them() {
        let refused = |name: &str, sub: Option<&str>, lang: Lang| {
            from_options(name, sub, &[]).unwrap_err().answer("/").render(lang)
        };
        let de = refused("move", None, Lang::De);
        assert!(de.starts_with("move braucht die Option 'zug'"), "{de}");
        let tr = refused("ladder", Some("challenge"), Lang::Tr);
        assert!(tr.contains("'oyuncu' seçeneği gerekli"), "{tr}");
        let en = refused("move", None, Lang::En);
        assert!(en.starts_with("move needs the option 'move'"), "{en}");
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
            ("ladder", "standings", vec![("variant", text("chess"))], "ladder standings chess"),
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
            ("ladder", "withdraw", vec![], "ladder withdraw"),
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
            ("tournament", "withdraw", vec![("tournament", Integer(4))], "tournament #4 withdraw"),
            ("tournament", "crosstable", vec![], "tournament crosstable"),
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
        assert_eq!(refused("tournament", Some("join"), &[("tournament", Integer(-2))]), "There is no tournament #-2.");
        assert!(refused("ladder", Some("undo"), &[("event", Integer(-1))]).contains("a whole number, 1 or more"));
        let none = refused("ladder", Some("undo"), &[("event", Integer(0))]);
        assert!(none.starts_with("There is no ladder result 0 this season;"), "{none}");
        assert!(refused("ladder", Some("create"), &[("variant", text("chess")), ("days", Integer(4))]).contains("14"));
        assert!(refused("ladder", Some("challenge"), &[]).contains("needs the option 'player'"));
        assert!(refused("ladder", None, &[]).contains("join, leave"));
        assert!(refused("ladder", Some("dance"), &[]).contains("dance"));
        assert!(refused("board", Some("join"), &[]).contains("join"));
        assert!(refused("ladder", Some("join"), &[("season", Integer(2))]).contains("season"));
        // One ladder's standings, by its variant (`ladder chess` too); two variants are refused.
        let chess = Command::Ladder(LadderCmd::Show(Some("chess".into())));
        assert_eq!((parse("ladder standings chess"), parse("ladder chess")), (Ok(chess.clone()), Ok(chess)));
        assert!(parse("ladder standings chess atomic").is_err());
        assert_eq!(ROUND.parse("4294967295"), Ok(u32::MAX));
        assert!(ROUND.parse("4294967296").is_err() && SIGNUP.parse("0").is_ok());
        // Swiss rounds are bounded where the tournament is made, and the refusal names the range.
        assert_eq!(ROUNDS.parse("63"), Ok(63));
        for typed in ["64", "999999", "4294967296"] {
            let e = ROUNDS.parse(typed).unwrap_err().to_string();
            assert!(e.contains("from 1 to 63") && e.contains(typed), "{e}");
        }
        assert!(parse("tournament create swiss chess rounds:999999").is_err());
    }
}

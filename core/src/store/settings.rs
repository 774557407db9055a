//! Settings of chats and communities: command prefix, default variant, default days per move,
//! whether each game gets its own thread, whether a finished game is posted as an animation, the
//! language and the board theme. A chat inherits what it does not set from its community,
//! and the community from the configuration.

use super::Result;
use crate::store::sql::{Connection, OptionalExtension, params};

/// One level of settings (a chat's or a community's); `None` means inherited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub prefix: Option<String>,
    pub default_variant: Option<String>,
    /// `Some(None)`: no clock.
    pub default_days: Option<Option<u32>>,
    pub thread_per_game: Option<bool>,
    /// Post the game as an animated picture when it ends.
    pub gif_at_end: Option<bool>,
    /// The language replies are written in (`en`, `tr`).
    pub lang: Option<String>,
    /// The board theme pictures are drawn in (`wood`, `green`, `contrast`).
    pub theme: Option<String>,
}

impl Settings {
    /// These settings with the unset ones taken from `parent`.
    pub fn over(&self, parent: &Settings) -> Settings {
        Settings {
            prefix: self.prefix.clone().or_else(|| parent.prefix.clone()),
            default_variant: self.default_variant.clone().or_else(|| parent.default_variant.clone()),
            default_days: self.default_days.or(parent.default_days),
            thread_per_game: self.thread_per_game.or(parent.thread_per_game),
            gif_at_end: self.gif_at_end.or(parent.gif_at_end),
            lang: self.lang.clone().or_else(|| parent.lang.clone()),
            theme: self.theme.clone().or_else(|| parent.theme.clone()),
        }
    }
}

fn days_to_db(d: Option<Option<u32>>) -> Option<u32> {
    d.map(|d| d.unwrap_or(0))
}

fn days_from_db(d: Option<u32>) -> Option<Option<u32>> {
    d.map(|d| (d != 0).then_some(d))
}

/// A level of settings read by a left join ([`LEVEL`] columns from `at` on, the last its row's
/// `platform`): `None` where the level has no row.
fn level_at(r: &crate::store::sql::Row<'_>, at: usize) -> crate::store::sql::Result<Option<Settings>> {
    Ok(match r.get::<Option<String>>(at + LEVEL - 1)? {
        Some(_) => Some(settings_at(r, at)?),
        None => None,
    })
}

/// The columns of one level in [`BOTH`] and [`INPUT`]: the settings' and the row's `platform`.
const LEVEL: usize = 8;

/// A level of settings from the seven columns from `at` on (prefix, default variant, default days,
/// thread per game, animation at the end, language, theme).
fn settings_at(r: &crate::store::sql::Row<'_>, at: usize) -> crate::store::sql::Result<Settings> {
    Ok(Settings {
        prefix: r.get(at)?,
        default_variant: r.get(at + 1)?,
        default_days: days_from_db(r.get(at + 2)?),
        thread_per_game: r.get(at + 3)?,
        gif_at_end: r.get(at + 4)?,
        lang: r.get(at + 5)?,
        theme: r.get(at + 6)?,
    })
}

fn read(conn: &Connection, table: &'static [&'static str], sql: &'static str, a: &str, b: &str) -> Result<Settings> {
    Ok(conn.query_opt_in_unit(table, sql, params![a, b], |r| settings_at(r, 0))?.unwrap_or_default())
}

/// [`chat`]'s statement, the key of its answers kept in a unit of work.
const CHAT: &str =
    "SELECT prefix, default_variant, default_days, thread_per_game, gif_at_end, lang, theme FROM chat_settings
         WHERE platform = ?1 AND chat_id = ?2";

/// [`community`]'s statement, the key of its answers kept in a unit of work.
const COMMUNITY: &str =
    "SELECT prefix, default_variant, default_days, thread_per_game, gif_at_end, lang, theme FROM community_settings
         WHERE platform = ?1 AND community_id = ?2";

/// A chat's settings and its community's in one statement (`?1` the platform, `?2` the chat, `?3`
/// the community), each level's `platform` telling whether it has a row.
const BOTH: &str =
    "SELECT c.prefix, c.default_variant, c.default_days, c.thread_per_game, c.gif_at_end, c.lang, c.theme, c.platform,
           m.prefix, m.default_variant, m.default_days, m.thread_per_game, m.gif_at_end, m.lang, m.theme, m.platform
         FROM (SELECT 1 AS one) AS d
         LEFT JOIN chat_settings c ON c.platform = ?1 AND c.chat_id = ?2
         LEFT JOIN community_settings m ON m.platform = ?1 AND m.community_id = ?3";

/// A chat's own settings and its community's, each `None` where it has no row.
pub(crate) type Levels = (Option<Settings>, Option<Settings>);

/// [`BOTH`] for the chat of a game's row read in the same statement: its values the columns
/// `platform`, `chat_id` and `community_id` of `table` (joined laterally to the statement reading
/// the row); its columns are read by [`levels_at`].
pub(crate) fn in_force_of(table: &str) -> String {
    BOTH.replace("?1", &format!("{table}.platform"))
        .replace("?2", &format!("{table}.chat_id"))
        .replace("?3", &format!("{table}.community_id"))
}

/// The two levels of a row of [`in_force_of`]'s, its columns from `at` on.
pub(crate) fn levels_at(r: &crate::store::sql::Row<'_>, at: usize) -> crate::store::sql::Result<Levels> {
    Ok((level_at(r, at)?, level_at(r, at + LEVEL)?))
}

/// Keeps `levels` (read by [`in_force_of`]) in the unit of work as [`effective`]'s answer for the
/// chat, and each level as [`chat`]'s and [`community`]'s.
pub(crate) fn keep_in_force(
    conn: &Connection,
    platform: &str,
    chat_id: &str,
    community_id: Option<&str>,
    levels: Levels,
) {
    let (own, parent) = levels;
    if let Some(c) = community_id {
        let both = Some((own.clone(), parent.clone()));
        conn.keep_in_unit(&["chat_settings", "community_settings"], BOTH, params![platform, chat_id, c], both);
        conn.keep_in_unit(&["community_settings"], COMMUNITY, params![platform, c], parent);
    }
    conn.keep_in_unit(&["chat_settings"], CHAT, params![platform, chat_id], own);
}

/// A chat's own settings (all `None` when never set).
pub fn chat(conn: &Connection, platform: &str, chat_id: &str) -> Result<Settings> {
    read(conn, &["chat_settings"], CHAT, platform, chat_id)
}

/// A community's own settings (all `None` when never set).
pub fn community(conn: &Connection, platform: &str, community_id: &str) -> Result<Settings> {
    read(conn, &["community_settings"], COMMUNITY, platform, community_id)
}

/// The settings in force in a chat of a community: the chat's, then the community's (the
/// configuration's defaults are the caller's last level). Both levels are read in one statement
/// (each kept in a unit of work as [`chat`]'s and [`community`]'s answer).
pub fn effective(conn: &Connection, platform: &str, community_id: Option<&str>, chat_id: &str) -> Result<Settings> {
    let Some(c) = community_id else { return chat(conn, platform, chat_id) };
    // Set when the statement ran (its one row read), not when the unit's kept answer was given:
    // only a fresh answer is worth keeping again as each level's.
    let ran = std::cell::Cell::new(false);
    let (own, parent): Levels = conn
        .query_opt_in_unit(&["chat_settings", "community_settings"], BOTH, params![platform, chat_id, c], |r| {
            ran.set(true);
            Ok((level_at(r, 0)?, level_at(r, LEVEL)?))
        })?
        .unwrap_or_default();
    if ran.get() {
        conn.keep_in_unit(&["chat_settings"], CHAT, params![platform, chat_id], own.clone());
        conn.keep_in_unit(&["community_settings"], COMMUNITY, params![platform, c], parent.clone());
    }
    Ok(own.unwrap_or_default().over(&parent.unwrap_or_default()))
}

/// What every input reads first, in one statement (two before): the settings in force in its chat
/// (the chat's and its community's, `community_id` given) and the person behind the author's
/// account with their settings, each kept in the unit of work as [`effective`]'s and
/// [`super::players::find`]'s answers. Outside a unit it reads nothing.
pub fn prefetch_input(
    conn: &Connection,
    platform: &str,
    community_id: Option<&str>,
    chat_id: &str,
    user_id: &str,
) -> Result<()> {
    if !conn.is_units() {
        return Ok(());
    }
    let (own, parent) = conn.query_row(INPUT.as_str(), params![platform, chat_id, community_id, user_id], |r| {
        super::players::keep_found(conn, platform, user_id, r, 2 * LEVEL)?;
        Ok((level_at(r, 0)?, level_at(r, LEVEL)?))
    })?;
    keep_levels(conn, platform, community_id, chat_id, own, parent);
    Ok(())
}

/// A chat's settings and its community's, read by an input's first statement, kept as
/// [`chat`]'s, [`community`]'s and [`effective`]'s answers.
fn keep_levels(
    conn: &Connection,
    platform: &str,
    community_id: Option<&str>,
    chat_id: &str,
    own: Option<Settings>,
    parent: Option<Settings>,
) {
    conn.keep_in_unit(&["chat_settings"], CHAT, params![platform, chat_id], own.clone());
    if let Some(c) = community_id {
        conn.keep_in_unit(&["community_settings"], COMMUNITY, params![platform, c], parent.clone());
        let both = Some((own, parent));
        conn.keep_in_unit(&["chat_settings", "community_settings"], BOTH, params![platform, chat_id, c], both);
    }
}

/// On PostgreSQL, inside a unit of work: an input's event claimed ([`super::events::claim`]),
/// [`prefetch_input`] and the author's open games in the chat with their moves
/// ([`super::games::open_in_chat`], kept for the unit as its answer) in one statement, two round
/// trips fewer for every input that comes with an event id (a move looks its game up among those);
/// whether the event was claimed (`false`: handled before). `None` elsewhere, where nothing ran
/// (on SQLite a statement is a function call, and a data-modifying `WITH` does not exist there):
/// the caller claims and prefetches apart.
#[allow(clippy::too_many_arguments)]
pub fn claim_prefetching_input(
    conn: &Connection,
    platform: &str,
    event_id: &str,
    now: i64,
    community_id: Option<&str>,
    chat_id: &str,
    user_id: &str,
) -> Result<Option<bool>> {
    if conn.dialect() == super::sql::Dialect::Sqlite || !conn.is_units() {
        return Ok(None);
    }
    // The open games' columns first, then the rest from `at` on, the same in every row (one a game).
    let at = super::games::OPEN_IN_CHAT_WIDTH;
    let (mut first, mut open) = (None, Vec::new());
    conn.for_each_row(CLAIM_INPUT.as_str(), params![platform, chat_id, community_id, user_id, event_id, now], |r| {
        if first.is_none() {
            super::players::keep_found(conn, platform, user_id, r, at + 2 * LEVEL)?;
            let (own, parent) = (level_at(r, at)?, level_at(r, at + LEVEL)?);
            keep_levels(conn, platform, community_id, chat_id, own, parent);
            let author: Option<super::players::PlayerId> = r.get(at + 2 * LEVEL)?;
            first = Some((r.get::<i64>(at + 2 * LEVEL + FOUND_WIDTH)?, author));
        }
        open.extend(super::games::open_in_chat_row(r)?);
        Ok(())
    })?;
    let (claimed, author) = first.ok_or(super::sql::Error::NoRows)?;
    if let Some(author) = author {
        super::games::keep_open_in_chat(conn, platform, chat_id, author, open);
    }
    Ok(Some(claimed == 1))
}

/// [`claim_prefetching_input`]'s statement: the author's open games in the chat with their moves
/// ([`super::games::open_in_chat_sql`]'s columns, null for none; a row each), [`INPUT`]'s
/// columns, then whether the claim (`?5` the event, `?6` the time) inserted its row. The claim's
/// part sees nothing of the tables the rest reads, so the rest reads what [`INPUT`] and
/// [`super::games::open_in_chat`] alone would.
static CLAIM_INPUT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "WITH claim AS (INSERT INTO processed_events (platform, event_id, handled_at) VALUES (?1, ?5, ?6)
           ON CONFLICT DO NOTHING RETURNING 1)
         SELECT g.*, {}, (SELECT count(*) FROM claim){INPUT_FROM}
         LEFT JOIN LATERAL ({}) g ON true ORDER BY g.id",
        *INPUT_COLUMNS,
        super::games::open_in_chat_sql("p.id")
    )
});

/// The columns of [`super::players::FOUND_COLUMNS`], counted from the list.
const FOUND_WIDTH: usize = crate::store::sql::columns_in(super::players::FOUND_COLUMNS);

/// [`prefetch_input`]'s statement: [`BOTH`]'s columns (`?3` the community, null for none), then
/// [`super::players::FOUND_COLUMNS`] of the account `?4`.
static INPUT: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {}{INPUT_FROM}", *INPUT_COLUMNS));

/// [`INPUT`]'s columns.
static INPUT_COLUMNS: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "c.prefix, c.default_variant, c.default_days, c.thread_per_game, c.gif_at_end, c.lang, c.theme, c.platform,
           m.prefix, m.default_variant, m.default_days, m.thread_per_game, m.gif_at_end, m.lang, m.theme, m.platform, {}",
        super::players::FOUND_COLUMNS
    )
});

/// What [`INPUT`] reads from.
const INPUT_FROM: &str = "
         FROM (SELECT 1 AS one) AS d
         LEFT JOIN chat_settings c ON c.platform = ?1 AND c.chat_id = ?2
         LEFT JOIN community_settings m ON m.platform = ?1 AND m.community_id = ?3
         LEFT JOIN accounts a ON a.platform = ?1 AND a.user_id = ?4
         LEFT JOIN players p ON p.id = a.player_id
         LEFT JOIN player_prefs pp ON pp.player_id = p.id";

/// Stores a chat's settings (replacing the row).
pub fn set_chat(
    conn: &Connection,
    platform: &str,
    community_id: Option<&str>,
    chat_id: &str,
    s: &Settings,
) -> Result<()> {
    conn.execute(
        "INSERT INTO chat_settings (platform, chat_id, community_id, prefix, default_variant, default_days, thread_per_game,
           gif_at_end, lang, theme)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (platform, chat_id) DO UPDATE SET community_id = excluded.community_id, prefix = excluded.prefix,
           default_variant = excluded.default_variant, default_days = excluded.default_days,
           thread_per_game = excluded.thread_per_game, gif_at_end = excluded.gif_at_end, lang = excluded.lang,
           theme = excluded.theme",
        params![
            platform,
            chat_id,
            community_id,
            s.prefix,
            s.default_variant,
            days_to_db(s.default_days),
            s.thread_per_game,
            s.gif_at_end,
            s.lang,
            s.theme
        ],
    )?;
    Ok(())
}

/// Stores a community's settings (replacing the row).
pub fn set_community(conn: &Connection, platform: &str, community_id: &str, s: &Settings) -> Result<()> {
    conn.execute(
        "INSERT INTO community_settings (platform, community_id, prefix, default_variant, default_days, thread_per_game,
           gif_at_end, lang, theme)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (platform, community_id) DO UPDATE SET prefix = excluded.prefix,
           default_variant = excluded.default_variant, default_days = excluded.default_days,
           thread_per_game = excluded.thread_per_game, gif_at_end = excluded.gif_at_end, lang = excluded.lang,
           theme = excluded.theme",
        params![
            platform,
            community_id,
            s.prefix,
            s.default_variant,
            days_to_db(s.default_days),
            s.thread_per_game,
            s.gif_at_end,
            s.lang,
            s.theme
        ],
    )?;
    Ok(())
}

/// Whether a community's games between people are rated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RatedGames {
    /// Rated unless the challenger asks for a casual game.
    #[default]
    Choice,
    Always,
    Never,
}

impl RatedGames {
    pub fn as_str(self) -> &'static str {
        match self {
            RatedGames::Choice => "choice",
            RatedGames::Always => "always",
            RatedGames::Never => "never",
        }
    }

    pub fn parse(s: &str) -> Option<RatedGames> {
        match s {
            "choice" => Some(RatedGames::Choice),
            "always" => Some(RatedGames::Always),
            "never" => Some(RatedGames::Never),
            _ => None,
        }
    }
}

/// A community's rule for rated games.
pub fn rated_games(conn: &Connection, platform: &str, community_id: &str) -> Result<RatedGames> {
    let v: Option<Option<String>> = conn
        .prepare_cached("SELECT rated_games FROM community_settings WHERE platform = ?1 AND community_id = ?2")?
        .query_row(params![platform, community_id], |r| r.get(0))
        .optional()?;
    Ok(v.flatten().as_deref().and_then(RatedGames::parse).unwrap_or_default())
}

/// Sets a community's rule for rated games.
pub fn set_rated_games(conn: &Connection, platform: &str, community_id: &str, rule: RatedGames) -> Result<()> {
    conn.execute(
        "INSERT INTO community_settings (platform, community_id, rated_games) VALUES (?1, ?2, ?3)
         ON CONFLICT (platform, community_id) DO UPDATE SET rated_games = excluded.rated_games",
        params![platform, community_id, rule.as_str()],
    )?;
    Ok(())
}

/// Whether a community shows its games, ladders and tournaments on the web (off until an
/// administrator turns it on).
pub fn web(conn: &Connection, platform: &str, community_id: &str) -> Result<bool> {
    let v: Option<Option<bool>> = conn
        .prepare_cached("SELECT web FROM community_settings WHERE platform = ?1 AND community_id = ?2")?
        .query_row(params![platform, community_id], |r| r.get(0))
        .optional()?;
    Ok(v.flatten().unwrap_or(false))
}

/// Whether a community shows itself on the web, and the language it chose for itself, in one
/// statement (the primary key).
pub fn web_and_lang(conn: &Connection, platform: &str, community_id: &str) -> Result<(bool, Option<String>)> {
    let v: Option<(Option<bool>, Option<String>)> = conn
        .prepare_cached("SELECT web, lang FROM community_settings WHERE platform = ?1 AND community_id = ?2")?
        .query_row(params![platform, community_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(v.map_or((false, None), |(web, lang)| (web.unwrap_or(false), lang)))
}

/// Turns a community's web pages on or off.
pub fn set_web(conn: &Connection, platform: &str, community_id: &str, on: bool) -> Result<()> {
    conn.execute(
        "INSERT INTO community_settings (platform, community_id, web) VALUES (?1, ?2, ?3)
         ON CONFLICT (platform, community_id) DO UPDATE SET web = excluded.web",
        params![platform, community_id, on],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use crate::store::testing::on_both_backends;

    on_both_backends!(
        chats_inherit_from_their_community_and_override_it,
        a_chat_and_its_community_are_read_in_one_statement_and_kept_as_each_levels_answer
    );

    /// In a unit of work, `effective` reads both levels in one statement and keeps each as
    /// `chat`'s and `community`'s answer, until a statement writes that level's table.
    fn a_chat_and_its_community_are_read_in_one_statement_and_kept_as_each_levels_answer(store: &Store) {
        use crate::store::sql::statements_sent;
        let guild = Settings { lang: Some("tr".into()), prefix: Some("?".into()), ..Settings::default() };
        set_community(&store.conn().unwrap(), "discord", "g1", &guild).unwrap();
        store
            .unit(|| {
                let c = store.conn()?;
                let sent = statements_sent();
                assert_eq!(effective(&c, "discord", Some("g1"), "c1")?, guild);
                assert_eq!(statements_sent() - sent, 1, "both levels in one statement");
                assert_eq!(chat(&c, "discord", "c1")?, Settings::default());
                assert_eq!(community(&c, "discord", "g1")?, guild);
                assert_eq!(effective(&c, "discord", Some("g1"), "c1")?, guild);
                assert_eq!(statements_sent() - sent, 1, "then kept");
                let own = Settings { lang: Some("en".into()), ..Settings::default() };
                set_chat(&c, "discord", Some("g1"), "c1", &own)?;
                let sent = statements_sent();
                let e = effective(&c, "discord", Some("g1"), "c1")?;
                assert_eq!(
                    (e.lang.as_deref(), e.prefix.as_deref()),
                    (Some("en"), Some("?")),
                    "the chat's write is seen"
                );
                assert_eq!(statements_sent() - sent, 1);
                assert_eq!(effective(&c, "discord", Some("g2"), "c9")?, Settings::default(), "no rows: nothing");
                Ok(())
            })
            .unwrap();
    }

    fn chats_inherit_from_their_community_and_override_it(store: &Store) {
        let c = store.conn().unwrap();
        assert_eq!(chat(&c, "console", "main").unwrap(), Settings::default());
        let guild = Settings {
            prefix: Some("?".into()),
            default_variant: Some("chess".into()),
            default_days: Some(Some(3)),
            thread_per_game: Some(true),
            gif_at_end: Some(true),
            lang: Some("tr".into()),
            theme: Some("green".into()),
        };
        set_community(&c, "discord", "g1", &guild).unwrap();
        assert_eq!(effective(&c, "discord", Some("g1"), "c1").unwrap(), guild);
        // A chat overrides two settings, one of them with "no clock".
        let own = Settings {
            prefix: Some("$".into()),
            default_days: Some(None),
            gif_at_end: Some(false),
            lang: Some("en".into()),
            ..Settings::default()
        };
        set_chat(&c, "discord", Some("g1"), "c1", &own).unwrap();
        let e = effective(&c, "discord", Some("g1"), "c1").unwrap();
        assert_eq!(e.prefix.as_deref(), Some("$"));
        assert_eq!(e.default_days, Some(None));
        assert_eq!(e.default_variant.as_deref(), Some("chess"));
        assert_eq!(e.thread_per_game, Some(true));
        assert_eq!(e.gif_at_end, Some(false), "the chat's own off wins over the community's on");
        assert_eq!(e.lang.as_deref(), Some("en"), "the chat's own language wins over the community's");
        assert_eq!(e.theme.as_deref(), Some("green"), "the community's theme, the chat choosing none");
        // Another community's chats see nothing of it.
        assert_eq!(effective(&c, "discord", Some("g2"), "c9").unwrap(), Settings::default());
        assert_eq!(chat(&c, "discord", "c1").unwrap(), own);
    }
}

//! What the web pages read (issue 47), as the core sees it: a game, a community and a player as
//! anyone outside the game may see them, and the `web` command that links to them.
//!
//! Everything here only reads. The rules of what may be shown are the core's, kept in one place:
//! a community's things are shown only once it turned `web` on; a game in a direct chat (no
//! community) never; a game is found by its random address, never by its number; and a game is
//! seen the way its chat sees it — boards drawn without any secret bomb (the same drawing as the
//! chat's), the PGN and the animation naming bombs only once the game is over.

use super::bombs::bombs_words;
use super::ratings::TOP;
use super::{Bot, BotError, Ctx, Res, alt_text, color_word, replay, start_position, user, variant_named, variant_text};
use crate::bot::drawing::{BoardDrawing, Drawing, theme_named};
use crate::bot::io::Response;
use crate::bot::seams::PICTURE_SIZE;
use crate::community::tiebreak::TieBreak;
use crate::community::tournament::Outcome as SeriesOutcome;
use crate::i18n::{Lang, with_lang};
use crate::rules::{Color, VARIANTS};
use crate::store::games::{self, GameRow, Status};
use crate::store::players::{self, PlayerId};
use crate::store::ratings::{self, Leaderboard, Scope as RatingScope};
use crate::store::{Conn, ladders, settings, tournaments};
use crate::{msg, t};
use std::collections::HashMap;

/// One side of a game on its page.
#[derive(Clone, Debug, PartialEq)]
pub struct WebSide {
    pub player: PlayerId,
    pub name: String,
    /// The community rating in the game's variant (`1612?` while provisional), if rated there.
    pub rating: Option<String>,
    /// Whether the side is capabot itself (no player page).
    pub is_ai: bool,
}

/// A game as anyone may see it.
#[derive(Clone, Debug, PartialEq)]
pub struct WebGame {
    pub id: i64,
    pub slug: String,
    pub platform: String,
    pub community: String,
    /// The variant's name to show (`Capatomic Random Chess`).
    pub variant: String,
    pub white: WebSide,
    pub black: WebSide,
    /// Each move in SAN with its number (`1. e4`, `1... e5`).
    pub moves: Vec<String>,
    /// The board after each ply, from the start (`boards[0]`) to now: the chat's drawing, never
    /// with a secret bomb.
    pub boards: Vec<BoardDrawing>,
    /// The current board in words (the chat's alt text).
    pub alt: String,
    /// Where the game stands, in words (`alice (white) to move`, `finished 1-0`).
    pub status: String,
    /// Where the bombs were, once a secret-bomb game is over.
    pub bombs: Option<String>,
    pub active: bool,
    /// When the side to move must have moved, for an active game with a clock.
    pub deadline: Option<i64>,
    pub rated: bool,
    pub ply: u32,
    /// The computer analysis of a finished game, once someone asked for one in its chat.
    pub analysis: Option<WebAnalysis>,
    /// A finished game with moves: one that can be analysed (in its chat).
    pub analysable: bool,
    /// How its analysis is asked for in its chat, as typed there (`!analyse #12`).
    pub analyse_command: String,
}

/// A finished game's computer analysis as its page shows it (what `analyse` answers in the chat),
/// in the page's language.
#[derive(Clone, Debug, PartialEq)]
pub struct WebAnalysis {
    /// How it was made (`capabot's engine, 60,000 nodes per position`).
    pub head: String,
    /// Each side's accuracy, inaccuracies, mistakes and blunders, White's first.
    pub sides: [String; 2],
    /// Each move's mark, beside [`WebGame::moves`]: `None` for a move not marked.
    pub marks: Vec<Option<WebMark>>,
    /// The course chart ([`Drawing::Course`]) in the community's theme, and its alt text.
    pub course: Drawing,
    pub course_alt: String,
}

/// The page's name for a mark (its style's class).
fn mark_kind(j: crate::ai::analysis::Judgement) -> &'static str {
    use crate::ai::analysis::Judgement;
    match j {
        Judgement::Inaccuracy => "inaccuracy",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

/// A marked move on a game's page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebMark {
    /// `?!`, `?` or `??`.
    pub glyph: &'static str,
    /// `inaccuracy`, `mistake` or `blunder` (the page's style colours each).
    pub kind: &'static str,
    /// The kind in words, for readers who do not see the colour or read the glyph.
    pub word: String,
    /// What it cost and what was better, in words.
    pub note: String,
}

/// What a live game page follows: the game, the chat its changes are announced in, and its
/// version (ply, last change) when looked at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebFollow {
    pub id: i64,
    pub platform: String,
    pub chat: String,
    pub version: (u32, i64),
}

/// A variant's leaderboard in a community: the chat's `leaderboard`, read by the same function.
#[derive(Clone, Debug, PartialEq)]
pub struct WebBoard {
    pub variant: String,
    pub board: Leaderboard,
}

/// A ladder's standings and open challenges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebLadder {
    pub variant: String,
    pub season: u32,
    /// Players by place, from the first.
    pub standings: Vec<(PlayerId, String)>,
    /// Open challenges: challenger, challenged, accepted.
    pub challenges: Vec<(String, String, bool)>,
}

/// A tournament: its standings with tie-breaks, crosstable and rounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebTournament {
    pub name: String,
    pub variant: String,
    /// `registration`, `running` or `finished`.
    pub status: &'static str,
    /// The tie-breaks' short names, in the order of each line's values.
    pub tiebreaks: Vec<&'static str>,
    /// Place, player, name, score and tie-break values (as the chat writes them: `2½`, `3¾`).
    pub standings: Vec<(usize, PlayerId, String, String, Vec<String>)>,
    /// The players who withdrew while it ran, each with whether their results count (a round
    /// robin's early leaver's do not, FIDE's rule: listed last, without a place).
    pub withdrawn: Vec<(PlayerId, bool)>,
    /// The crosstable in standings order, as [`tournaments::Tournament::crosstable`] writes it.
    pub crosstable: Vec<Vec<String>>,
    /// Its bye column, in the same order, where a bye scores ([`tournaments::Tournament::bye_cells`]).
    pub byes: Option<Vec<String>>,
    /// Each round's pairings, then the player with the bye.
    pub rounds: Vec<(Vec<WebPairing>, Option<String>)>,
}

/// A pairing of a tournament round on its page: white, black, result (`1-0`, `½-½`, `*`) and the
/// game's address.
pub type WebPairing = (String, String, String, Option<String>);

/// A closed ladder season on a community's page: the ladder's variant, the season's number and
/// its first final places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSeason {
    pub variant: String,
    pub season: u32,
    pub podium: Vec<(PlayerId, String)>,
}

/// A community's page. What it holds is bounded whatever the community's history: its ladders
/// (one a variant at most) in their current seasons, the [`FINISHED_SHOWN`] seasons closed last,
/// at most [`OPEN_SHOWN`] tournaments under way and the [`FINISHED_SHOWN`] finished last, each
/// list with how many it leaves out.
#[derive(Clone, Debug, PartialEq)]
pub struct WebCommunity {
    pub platform: String,
    pub community: String,
    pub boards: Vec<WebBoard>,
    pub ladders: Vec<WebLadder>,
    /// The seasons closed last, the latest first.
    pub seasons: Vec<WebSeason>,
    /// Closed seasons older than those in `seasons`.
    pub older_seasons: usize,
    /// The tournaments under way (the newest first, at most [`OPEN_SHOWN`]), then the finished
    /// ones (the last first, at most [`FINISHED_SHOWN`]).
    pub tournaments: Vec<WebTournament>,
    /// Tournaments under way not in `tournaments`.
    pub more_open_tournaments: LeftOut,
    /// Finished tournaments older than those in `tournaments`.
    pub older_tournaments: LeftOut,
    /// The latest games: address, white, black, variant, status.
    pub recent: Vec<(String, String, String, String, String)>,
}

/// A player's page in a community.
#[derive(Clone, Debug, PartialEq)]
pub struct WebPlayer {
    pub id: PlayerId,
    pub name: String,
    /// Variant, rating, record (`12 games: 7 wins, 2 draws, 3 losses`).
    pub ratings: Vec<(String, String, String)>,
    /// The rating history chart of the first variant with a history.
    pub chart: Option<Drawing>,
    /// The latest games: address, opponent, variant, status.
    pub recent: Vec<(String, String, String, String)>,
}

/// Games listed on a community's and a player's page.
const RECENT: usize = 20;

/// Finished tournaments, and closed ladder seasons, listed on a community's page: the last ones.
pub const FINISHED_SHOWN: usize = 10;

/// Tournaments under way listed on a community's page at most (the newest).
pub const OPEN_SHOWN: usize = 20;

/// How many of a list a community's page leaves out is counted up to this many; past it the page
/// says only that more are, so the counting reads a bounded number of index entries whatever the
/// community's history.
pub const LEFT_OUT_COUNTED: usize = 1_000;

/// How many of a community page's list are left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftOut {
    /// This many (none: 0).
    Counted(usize),
    /// More than [`LEFT_OUT_COUNTED`].
    MoreThan(usize),
}

impl LeftOut {
    /// What a list of `shown` leaves out of `counted`, counted up to at least `shown` and
    /// [`LEFT_OUT_COUNTED`] more, and one.
    pub fn of(counted: usize, shown: usize) -> LeftOut {
        match counted.saturating_sub(shown) {
            n if n > LEFT_OUT_COUNTED => LeftOut::MoreThan(LEFT_OUT_COUNTED),
            n => LeftOut::Counted(n),
        }
    }
}

/// Places of a closed ladder season shown on a community's page.
pub const PODIUM: usize = 3;

impl Bot {
    /// Whether a community shows itself on the web.
    pub fn web_enabled(&self, platform: &str, community: &str) -> Result<bool, BotError> {
        Ok(settings::web(&*self.conn()?, platform, community)?)
    }

    /// The language a community chose for itself (`settings community lang:tr`), if any.
    pub fn web_lang(&self, platform: &str, community: &str) -> Result<Option<crate::i18n::Lang>, BotError> {
        let own = settings::community(&*self.conn()?, platform, community)?;
        Ok(own.lang.as_deref().and_then(crate::i18n::Lang::parse))
    }

    /// Whether a community shows itself on the web, and the language it chose for itself, in one
    /// statement: what a kept page of the community is checked against before it is served again.
    pub fn web_shown(&self, platform: &str, community: &str) -> Result<(bool, Option<crate::i18n::Lang>), BotError> {
        let (web, lang) = settings::web_and_lang(&*self.conn()?, platform, community)?;
        Ok((web, lang.as_deref().and_then(crate::i18n::Lang::parse)))
    }

    /// The community's rows and games may be shown: it opted in. A game without a community
    /// (a direct chat, the console) never may.
    fn web_row(&self, conn: &Conn<'_>, row: &GameRow) -> Res<bool> {
        Ok(match &row.community_id {
            Some(c) => settings::web(conn, &row.platform, c)?,
            None => false,
        })
    }

    /// The row of the game at a web address, when it may be shown.
    fn shown_row(&self, conn: &Conn<'_>, slug: &str) -> Res<Option<GameRow>> {
        let Some(row) = games::is_slug(slug).then(|| games::by_slug(conn, slug)).transpose()?.flatten() else {
            return Ok(None);
        };
        Ok(self.web_row(conn, &row)?.then_some(row))
    }

    /// The game at a web address as anyone may see it, and the language of its page: the
    /// community's own, else `fallback` (the reader's). The game is `None` when there is no such
    /// game or it may not be shown (the language is still the community's, for the page saying
    /// so). The game's words (where it stands, the AI's name, the bombs) are in that language.
    ///
    /// One statement ([`games::for_page`]), so one snapshot: the game, its community's setting
    /// and language, its moves, both players and their ratings. On PostgreSQL each statement is a
    /// round trip; the page took thirteen before (the address read twice, the setting and the
    /// language apart, the moves in a transaction of their own, each rating apart).
    pub fn web_game_in(&self, slug: &str, fallback: Lang) -> Result<(Lang, Option<WebGame>), BotError> {
        self.web_game_read(slug, fallback, true)
    }

    /// [`Bot::web_game_in`], with the stored analysis read into the game or left out (`analysis`:
    /// a board's picture needs none).
    fn web_game_read(&self, slug: &str, fallback: Lang, analysis: bool) -> Result<(Lang, Option<WebGame>), BotError> {
        if !games::is_slug(slug) {
            return Ok((fallback, None));
        }
        // The connection goes back to the pool before the moves are replayed.
        let Some(mut read) = games::for_page(&*self.conn()?, slug)? else { return Ok((fallback, None)) };
        if !analysis {
            read.analysis = None;
        }
        let lang = read.lang.as_deref().and_then(Lang::parse).unwrap_or(fallback);
        if !read.web || read.row.community_id.is_none() {
            return Ok((lang, None));
        }
        let game = with_lang(lang, || self.web_game_of(slug, read))?;
        Ok((lang, Some(game)))
    }

    /// The game at a web address as anyone may see it, its words in this thread's language
    /// ([`Bot::web_game_in`]) and without its analysis (for its boards' pictures); `None` when
    /// there is no such game or it may not be shown.
    pub fn web_game(&self, slug: &str) -> Result<Option<WebGame>, BotError> {
        Ok(self.web_game_read(slug, crate::i18n::current(), false)?.1)
    }

    /// `command` as it is written in the chat where game `row` is played, whose prefix (its own or
    /// its community's) is `prefix`: with the prefix, or `/` where only slash commands reach capabot.
    fn typed_in_chat_of(&self, row: &GameRow, prefix: Option<String>, command: &crate::bot::Command) -> String {
        if self.command_style(&row.platform).slash_in(&super::game_scope(row)) {
            return command.typed("/");
        }
        command.typed(&prefix.unwrap_or_else(|| self.config.prefix.clone()))
    }

    /// A shown game's page from what [`games::for_page`] read.
    fn web_game_of(&self, slug: &str, read: games::ForPage) -> Result<WebGame, BotError> {
        let games::ForPage { row, moves: stored, players: people, ratings: rated, theme, analysis, prefix, .. } = read;
        // The boards in the community's own theme (`settings community theme:…`).
        let theme = theme_named(theme.as_deref());
        let v = variant_named(&row.variant)?;
        let game = if row.status == Status::Setup {
            crate::rules::Game::new(start_position(&row)?)
        } else {
            replay(&row, stored.iter().enumerate().map(|(i, m)| (i as u32 + 1, m.as_str())))?
        };
        let mut moves = Vec::with_capacity(game.moves().len());
        let mut boards = Vec::with_capacity(game.moves().len() + 1);
        let positions = game.positions();
        boards.push(BoardDrawing::new(&positions[0], None, Color::White, None, PICTURE_SIZE, theme));
        for (i, m) in game.moves().iter().enumerate() {
            let before = &positions[i];
            moves.push(super::move_label(before, &crate::notation::san::write(before, *m)));
            let after = positions.get(i + 1).unwrap_or(game.position());
            boards.push(BoardDrawing::new(after, Some(*m), Color::White, None, PICTURE_SIZE, theme));
        }
        let pos = game.position();
        let status = match row.status {
            Status::Setup => t!("status-setup"),
            Status::Active => {
                let id = row.player(pos.turn());
                let name = people[pos.turn().index()]
                    .as_ref()
                    .map_or_else(|| t!("player-fallback", id = id), |p| p.name.clone());
                t!("status-to-move", name = name, color = color_word(pos.turn()))
            }
            Status::Finished => t!("status-finished", result = row.result.as_deref().unwrap_or("")),
            Status::Aborted => t!("status-aborted"),
        };
        let now = self.clock.now();
        let side = |c: Color| -> Res<WebSide> {
            let p = people[c.index()].as_ref().ok_or_else(|| BotError::Internal("player vanished".into()))?;
            let rating = rated[c.index()].as_ref().map(|r| r.rating_at(now).display());
            Ok(WebSide { player: p.id, name: super::info::side_name(p, &row), rating, is_ai: p.is_ai })
        };
        let active = matches!(row.status, Status::Active | Status::Setup);
        let (white, black) = (side(Color::White)?, side(Color::Black)?);
        // Only a finished game is analysed; its bombs are public by then.
        let analysis = match analysis.filter(|_| row.status == Status::Finished) {
            Some((nodes, evals)) => {
                let a = super::analyse::decoded(row.id, &game, nodes, &evals)?;
                let names = [white.name.as_str(), black.name.as_str()];
                let result = row.outcome().map_or("*", |o| o.result_str());
                let (course, course_alt) =
                    super::analyse::course_of(row.id, &a, names, &variant_text(v.name), result, theme);
                let mut marks = vec![None; game.moves().len()];
                for m in &a.moves {
                    if let (Some(j), Some(slot)) = (m.judgement, marks.get_mut(m.ply)) {
                        let note = super::analyse::point_text(&game, m);
                        let word = crate::i18n::t(&format!("analysis-word-{}", mark_kind(j)), &[]);
                        *slot = Some(WebMark { glyph: j.glyph(), kind: mark_kind(j), word, note });
                    }
                }
                Some(WebAnalysis {
                    head: t!("web-analysis-head", nodes = crate::i18n::grouped(crate::i18n::current(), a.nodes)),
                    sides: super::analyse::side_lines(&a, names),
                    marks,
                    course: Drawing::Course(course),
                    course_alt,
                })
            }
            None => None,
        };
        Ok(WebGame {
            id: row.id,
            slug: slug.to_string(),
            platform: row.platform.clone(),
            community: row.community_id.clone().unwrap_or_default(),
            variant: variant_text(v.name),
            white,
            black,
            moves,
            boards,
            alt: alt_text(pos, game.moves().last().copied()),
            status,
            // Revealed only by a result, as the chat and the PGN reveal them: an aborted game's
            // bombs stay secret.
            bombs: if row.status == Status::Finished { bombs_words(&row)? } else { None },
            active,
            deadline: row.deadline.filter(|_| row.status == Status::Active),
            rated: row.rated,
            ply: row.ply,
            analysis,
            analysable: row.status == Status::Finished && !game.moves().is_empty(),
            analyse_command: self.typed_in_chat_of(&row, prefix, &crate::bot::Command::Analyse(Some(row.id))),
        })
    }

    /// What a live page follows of the game at a web address: its number, its platform and chat
    /// (where its changes are announced) and its version; `None` when it may not be shown.
    ///
    /// One statement ([`games::to_follow`]; three before): a watcher reads it at each change of
    /// its game and every few seconds.
    pub fn web_game_follow(&self, slug: &str) -> Result<Option<WebFollow>, BotError> {
        if !games::is_slug(slug) {
            return Ok(None);
        }
        let found = games::to_follow(&*self.conn()?, slug)?.filter(|f| f.shown);
        Ok(found.map(|f| WebFollow { id: f.id, platform: f.platform, chat: f.chat_id, version: f.version }))
    }

    /// The PGN of a game at a web address (bombs named only once it is over).
    pub fn web_pgn(&self, slug: &str) -> Result<Option<String>, BotError> {
        let conn = self.conn()?;
        let Some(row) = self.shown_row(&conn, slug)?.filter(|r| r.status != Status::Setup) else { return Ok(None) };
        Ok(Some(self.pgn_of(&conn, &row)?))
    }

    /// The PGN of a finished game at a web address with its stored analysis in it (what `pgn #N
    /// analysed` gives in the chat); `None` without one.
    pub fn web_pgn_analysed(&self, slug: &str) -> Result<Option<String>, BotError> {
        let conn = self.conn()?;
        let Some(row) = self.shown_row(&conn, slug)?.filter(|r| r.status == Status::Finished) else { return Ok(None) };
        let game = self.load_game(&conn, &row)?;
        let Some(stored) = crate::store::analyses::get(&conn, row.id)? else { return Ok(None) };
        let analysis = super::analyse::decoded(row.id, &game, stored.nodes, &stored.evals)?;
        Ok(Some(self.pgn_with(&conn, &row, &game, &super::analyse::annotations(&game, &analysis))?))
    }

    /// The animation of a game at a web address, as the chat gets it (`gif`: in its theme too).
    pub fn web_gif(&self, slug: &str) -> Result<Option<Drawing>, BotError> {
        let conn = self.conn()?;
        let Some(row) = self.shown_row(&conn, slug)? else { return Ok(None) };
        match self.gif_reply(&conn, &row, super::game_target(&row), Color::White) {
            Ok(mut r) => {
                self.in_readers_theme(&conn, &mut r)?;
                Ok(r.drawing)
            }
            Err(BotError::User(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The leaderboard of a variant in a community: what `leaderboard` answers in its chats, the
    /// same function and the same number of rows.
    pub fn web_leaderboard(&self, platform: &str, community: &str, variant: &str) -> Result<Leaderboard, BotError> {
        let conn = self.conn()?;
        Ok(ratings::leaderboard(
            &conn,
            &RatingScope::community(platform, community),
            variant,
            TOP,
            None,
            self.clock.now(),
        )?)
    }

    /// A community's page; `None` when it did not opt in.
    ///
    /// Bounded whatever the community's history: the variants rated here first, so only their
    /// leaderboards are read; the ladders (one a variant at most), each in its current season, and
    /// the [`FINISHED_SHOWN`] seasons closed last (one statement); the [`OPEN_SHOWN`] newest
    /// tournaments under way and the [`FINISHED_SHOWN`] finished last (each list one statement
    /// with a `LIMIT`, on an index in that order; how many are left out counted in one, up to
    /// [`LEFT_OUT_COUNTED`]), the tournaments shown with their players and rounds (two statements
    /// for all); the recent games; then every game's address and every player's name the page
    /// shows, each in one statement (a statement an `IN` list of 64). The ladders' current
    /// seasons are read as kept (two statements for all), not replayed from their events. So the
    /// statements a page runs do not depend on how many ladders and tournaments it shows.
    pub fn web_community(&self, platform: &str, community: &str) -> Result<Option<WebCommunity>, BotError> {
        let conn = self.conn()?;
        if !settings::web(&conn, platform, community)? {
            return Ok(None);
        }
        let scope = RatingScope::community(platform, community);
        let all: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        let rated = ratings::variants_rated(&conn, &scope, &all)?;
        let mut boards = Vec::new();
        for v in VARIANTS.iter().filter(|v| rated.iter().any(|r| r == v.name)) {
            let board = ratings::leaderboard(&conn, &scope, v.name, TOP, None, self.clock.now())?;
            if !board.top.is_empty() || !board.provisional.is_empty() {
                boards.push(WebBoard { variant: variant_text(v.name), board });
            }
        }
        // Ladders: one a variant at most, each in its current season as kept (its standings and
        // open challenges, not its history); of the seasons they closed, the last few.
        let ladders_read = ladders::current_in(&conn, platform, community)?;
        let closed_in_all: usize = ladders_read.iter().map(|l| l.info.season as usize - 1).sum();
        let closed = ladders::recently_closed(&conn, platform, community, FINISHED_SHOWN, PODIUM)?;
        // Tournaments: the newest under way and the last finished, each list cut short, and how
        // many each leaves out counted up to `LEFT_OUT_COUNTED` past what it shows.
        let counted_up_to = OPEN_SHOWN.max(FINISHED_SHOWN) + LEFT_OUT_COUNTED + 1;
        let (open_in_all, finished_in_all) = tournaments::counted_in(&conn, platform, community, counted_up_to)?;
        let mut listed = tournaments::open_in(&conn, platform, community, OPEN_SHOWN)?;
        let open_shown = listed.len();
        listed.extend(tournaments::finished_in(&conn, platform, community, FINISHED_SHOWN)?);
        let finished_shown = listed.len() - open_shown;
        let tournaments_read = tournaments::with_rounds(&conn, listed)?;
        let rows = games::recent_in_community(&conn, platform, community, None, RECENT)?;

        let mut ids: Vec<PlayerId> = rows.iter().flat_map(|r| [r.white, r.black]).collect();
        ids.extend(closed.iter().flat_map(|s| s.podium.iter().copied()));
        for l in &ladders_read {
            ids.extend(l.standings.iter().copied());
            ids.extend(l.open.iter().flat_map(|c| [c.challenger, c.challenged]));
        }
        for (t, _) in &tournaments_read {
            ids.extend(t.standings().iter().map(|s| s.player));
            for r in &t.rounds {
                ids.extend(r.games.iter().flat_map(|g| [g.white, g.black]));
                ids.extend(r.bye);
            }
        }
        let names = players::get_many(&conn, &ids)?;
        let name = |id: PlayerId| names.get(&id).map_or_else(|| t!("player-fallback", id = id), |p| p.name.clone());

        let ladders_out = ladders_read
            .iter()
            .map(|l| WebLadder {
                variant: variant_text(&l.info.variant),
                season: l.info.season,
                standings: l.standings.iter().map(|&p| (p, name(p))).collect(),
                challenges: l
                    .open
                    .iter()
                    .map(|c| (name(c.challenger), name(c.challenged), c.accepted_at.is_some()))
                    .collect(),
            })
            .collect();
        // Every game's address the page links to, recent or a tournament's, in one reading.
        let mut game_ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        game_ids.extend(tournaments_read.iter().flat_map(|(_, boards)| boards.iter().filter_map(|&(_, _, g)| g)));
        let slugs = games::slugs(&conn, &game_ids)?;
        let tournaments_out =
            tournaments_read.iter().map(|(t, boards)| web_tournament(t, boards, &slugs, &name)).collect();
        let recent = rows
            .iter()
            .filter_map(|row| {
                let slug = slugs.get(&row.id)?.clone();
                let variant = variant_text(&row.variant);
                Some((slug, name(row.white), name(row.black), variant, game_state(row)))
            })
            .collect();
        let seasons = closed
            .iter()
            .map(|s| WebSeason {
                variant: variant_text(&s.variant),
                season: s.season,
                podium: s.podium.iter().map(|&p| (p, name(p))).collect(),
            })
            .collect();
        Ok(Some(WebCommunity {
            platform: platform.to_string(),
            community: community.to_string(),
            boards,
            ladders: ladders_out,
            older_seasons: closed_in_all.saturating_sub(closed.len()),
            seasons,
            tournaments: tournaments_out,
            more_open_tournaments: LeftOut::of(open_in_all, open_shown),
            older_tournaments: LeftOut::of(finished_in_all, finished_shown),
            recent,
        }))
    }
}

/// A tournament as its community's page shows it, with the games of its boards (`boards`) and
/// the addresses of the games (`slugs`).
fn web_tournament(
    t: &tournaments::Tournament,
    boards: &tournaments::Boards,
    slugs: &HashMap<i64, String>,
    name: &impl Fn(PlayerId) -> String,
) -> WebTournament {
    let standings = t.standings();
    let scoring = t.scoring();
    let order: Vec<PlayerId> = standings.iter().map(|s| s.player).collect();
    let crosstable = t.crosstable(&order);
    let byes = t.bye_cells(&order);
    let mut rounds = Vec::new();
    for (i, r) in t.rounds.iter().enumerate() {
        let mut pairings = Vec::new();
        for (b, g) in r.games.iter().enumerate() {
            let result = match g.outcome {
                Some(SeriesOutcome::WhiteWins) => "1-0",
                Some(SeriesOutcome::BlackWins) => "0-1",
                Some(SeriesOutcome::Draw) => "½-½",
                None => "*",
            };
            let game =
                boards.iter().find(|&&(round, board, _)| round == i + 1 && board == b + 1).and_then(|&(_, _, id)| id);
            let slug = game.and_then(|id| slugs.get(&id).cloned());
            pairings.push((name(g.white), name(g.black), result.to_string(), slug));
        }
        rounds.push((pairings, r.bye.map(name)));
    }
    WebTournament {
        name: t.info.name.clone(),
        variant: variant_text(&t.info.variant),
        status: match t.info.status {
            tournaments::Status::Registration => "registration",
            tournaments::Status::Running => "running",
            tournaments::Status::Finished => "finished",
        },
        tiebreaks: scoring.tiebreaks.iter().map(|tb: &TieBreak| tb.short_name()).collect(),
        standings: standings
            .iter()
            .map(|s| {
                (
                    s.place,
                    s.player,
                    name(s.player),
                    s.score.to_string(),
                    s.tiebreaks.iter().map(ToString::to_string).collect(),
                )
            })
            .collect(),
        withdrawn: standings
            .iter()
            .filter(|s| t.withdrawal_of(s.player).is_some())
            .map(|s| (s.player, s.counted))
            .collect(),
        crosstable,
        byes,
        rounds,
    }
}

impl Bot {
    /// A player's page in a community; `None` when the community did not opt in or the player
    /// has neither a rating nor a game there.
    pub fn web_player(&self, platform: &str, community: &str, id: PlayerId) -> Result<Option<WebPlayer>, BotError> {
        let conn = self.conn()?;
        if !settings::web(&conn, platform, community)? {
            return Ok(None);
        }
        let Some(p) = players::get(&conn, id)? else { return Ok(None) };
        let scope = RatingScope::community(platform, community);
        let now = self.clock.now();
        let mut stored = ratings::all_of(&conn, id, &scope)?;
        let mut rated = Vec::new();
        let mut chart = None;
        for v in VARIANTS.iter() {
            let Some(at) = stored.iter().position(|(variant, _)| variant == v.name) else { continue };
            let (_, r) = stored.swap_remove(at);
            rated.push((variant_text(v.name), r.rating_at(now).display(), super::ratings::record(&r)));
            if chart.is_none() {
                chart = super::ratings::chart_drawing(&conn, &p, &scope, v)?;
            }
        }
        let games_here = games::recent_in_community(&conn, platform, community, Some(id), RECENT)?;
        if rated.is_empty() && games_here.is_empty() {
            return Ok(None);
        }
        let others: Vec<PlayerId> = games_here.iter().map(|r| if r.white == id { r.black } else { r.white }).collect();
        let names = players::get_many(&conn, &others)?;
        let slugs = games::slugs(&conn, &games_here.iter().map(|r| r.id).collect::<Vec<_>>())?;
        let mut recent = Vec::new();
        for (row, other) in games_here.iter().zip(others) {
            let Some(slug) = slugs.get(&row.id) else { continue };
            let other = names.get(&other).ok_or_else(|| BotError::Internal("player vanished".into()))?;
            let other = super::info::side_name(other, row);
            let variant = variant_text(&row.variant);
            recent.push((slug.clone(), other, variant, game_state(row)));
        }
        Ok(Some(WebPlayer { id, name: p.name, ratings: rated, chart, recent }))
    }

    /// The address of a game's page for links in the chat, when the web is set up and the game's
    /// community opted in.
    pub(in crate::bot) fn web_link(&self, conn: &Conn<'_>, row: &GameRow) -> Res<Option<String>> {
        let Some(base) = &self.config.web_url else { return Ok(None) };
        if !self.web_row(conn, row)? {
            return Ok(None);
        }
        Ok(games::slug(conn, row.id)?.map(|s| format!("{base}/g/{s}")))
    }

    /// `web`: the address of the community's page (or why there is none).
    pub(super) fn web_cmd(&self, cx: &Ctx<'_>) -> Res<Response> {
        let Some(community) = cx.scope().community.clone() else { return user(msg!("web-no-community")) };
        if self.config.web_url.is_none() {
            return user(msg!("web-not-served"));
        }
        match self.community_url(&*self.conn()?, &cx.scope().platform, &community)? {
            Some(url) => Ok(cx.say(t!("web-address", url = url))),
            None => user(msg!("web-off", p = cx.p())),
        }
    }

    /// The address of a community's page, when the web is served and the community opted in.
    pub(in crate::bot) fn community_url(
        &self,
        conn: &crate::store::Connection,
        platform: &str,
        community: &str,
    ) -> Res<Option<String>> {
        let Some(base) = &self.config.web_url else { return Ok(None) };
        if !settings::web(conn, platform, community)? {
            return Ok(None);
        }
        Ok(Some(format!("{base}/c/{platform}/{community}")))
    }
}

/// A game's state in a word or two, for lists.
fn game_state(row: &GameRow) -> String {
    match row.status {
        Status::Finished => row.result.clone().unwrap_or_default(),
        Status::Aborted => t!("status-aborted"),
        Status::Setup => t!("status-setup"),
        Status::Active => t!("status-in-progress"),
    }
}

//! `analyse [#game]` and `pgn #N analysed`: a computer analysis of a finished game played in this
//! chat. The first request admits a job at the analysis desk (one per person, a bounded queue) and
//! answers with a progress message; the host runs the search and feeds the result back
//! ([`Bot::finish_analysis`]), which stores it and posts it: the course chart with each side's
//! accuracy and mistakes, and the turning points as boards with two arrows. A game analysed before
//! is shown again at once from the store.

use super::info::pgn_reply;
use super::{Bot, BotError, Ctx, Res, color_word, move_label, user};
use crate::ai::analysis::{Analysis, AnalysisError, Judgement, MAX_PLIES, MoveReview};
use crate::bot::analysis::{Busy, progress_slot};
use crate::bot::drawing::{ArrowsDrawing, BoardDrawing, CourseDrawing, Drawing, DrawnArrow};
use crate::bot::io::{AnalysisJob, Reply, Response, Slot, Target};
use crate::bot::seams::PICTURE_SIZE;
use crate::notation::{pgn, san};
use crate::render::Theme;
use crate::render::arrows::ArrowKind;
use crate::render::course::{CourseMark, CourseWords, Severity};
use crate::rules::{Color, Game};
use crate::store::games::{self, GameRow, Status};
use crate::store::{Conn, analyses, events, players};
use crate::{msg, t};

/// Turning points shown.
const TURNING_POINTS: usize = 3;

/// A person's recent games over in a chat among which `analyse` without a number looks for the
/// last finished one (an aborted game in between is passed over).
const RECENT_OVER: usize = 10;

/// The game's stored analysis, if it has one, read back against the game.
fn stored_analysis(conn: &Conn<'_>, row: &GameRow, game: &Game) -> Res<Option<Analysis>> {
    let Some(stored) = analyses::get(conn, row.id)? else { return Ok(None) };
    decoded(row.id, game, stored.nodes, &stored.evals).map(Some)
}

/// A stored analysis of game `id` read back against the game.
pub(in crate::bot) fn decoded(id: i64, game: &Game, nodes: u64, evals: &str) -> Res<Analysis> {
    Analysis::decode(game, nodes, evals).map_err(|e| BotError::Internal(format!("game {id}: {e}")))
}

impl Bot {
    /// The finished game of this chat that `analyse` or `pgn … analysed` is about: `#id`, or the
    /// author's last finished game here (a rematch begun since is not the one meant), else their
    /// last game here, which is then said not to be finished.
    fn finished_game_here(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<GameRow> {
        let conn = self.conn()?;
        let row = match id {
            Some(id) => match games::get(&conn, id)? {
                Some(row) => row,
                None => return user(msg!("game-none", id = id)),
            },
            None => {
                let (platform, chat) = (&cx.scope().platform, &cx.scope().chat);
                let me = players::find(&conn, platform, &cx.inp.author.id)?;
                let last = match me {
                    Some(me) => {
                        let over = games::over_in_chat(&conn, platform, chat, me.id, RECENT_OVER)?;
                        match over.into_iter().find(|g| g.status == Status::Finished) {
                            Some(finished) => Some(finished),
                            None => games::latest_in_chat(&conn, platform, chat, me.id)?,
                        }
                    }
                    None => None,
                };
                match last {
                    Some(row) => row,
                    None => return user(msg!("analysis-no-game", p = cx.p())),
                }
            }
        };
        // Everyone in the game's chat watched it; nobody elsewhere did.
        if row.platform != cx.scope().platform || row.chat_id != cx.scope().chat {
            return user(msg!("analysis-not-here", id = row.id));
        }
        match row.status {
            Status::Finished => Ok(row),
            Status::Aborted => user(msg!("analysis-aborted", id = row.id)),
            Status::Setup | Status::Active => user(msg!("analysis-unfinished", id = row.id)),
        }
    }

    pub(super) fn analyse(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let row = self.finished_game_here(cx, id)?;
        let conn = self.conn()?;
        let game = self.load_game(&conn, &row)?;
        if game.moves().is_empty() {
            return user(msg!("analysis-no-moves", id = row.id));
        }
        // Posted in the chat, where everyone reads it: in the chat's language, whoever asked.
        let lang = cx.lang();
        if let Some(analysis) = stored_analysis(&conn, &row, &game)? {
            let replies = crate::i18n::with_lang(lang, || {
                self.analysis_replies(&conn, &row, &game, &analysis, cx.target(), true, None)
            })?;
            return Ok(Response { replies, ..Response::default() });
        }
        if game.moves().len() > MAX_PLIES {
            return user(msg!("analysis-too-long", id = row.id, plies = game.moves().len(), max = MAX_PLIES));
        }
        let person = format!("{}:{}", cx.scope().platform, cx.inp.author.id);
        let ticket = match self.desk.admit(&person, self.config.max_analyses.max(1)) {
            Ok(t) => t,
            Err(Busy::You) => return user(msg!("analysis-busy-you")),
            Err(Busy::Full) => return user(msg!("analysis-busy-full", count = self.desk.held())),
        };
        let job = AnalysisJob {
            game_id: row.id,
            game,
            nodes: self.config.analysis_nodes,
            target: cx.target(),
            requester: cx.inp.author.clone(),
            lang,
            requester_lang: cx.author_lang,
            origin: cx.inp.event_id.clone(),
            ticket,
        };
        let first = self.analysis_progress_reply(&job, 0, job.positions());
        Ok(Response { replies: vec![first], analyses: vec![job], ..Response::default() })
    }

    /// `pgn #N analysed`: the PGN with the stored analysis in it.
    pub(super) fn analysed_pgn(&self, cx: &Ctx<'_>, id: Option<i64>) -> Res<Response> {
        let row = self.finished_game_here(cx, id)?;
        let conn = self.conn()?;
        let game = self.load_game(&conn, &row)?;
        let Some(analysis) = stored_analysis(&conn, &row, &game)? else {
            return user(msg!("analysis-none-yet", id = row.id, p = cx.p()));
        };
        let text = self.pgn_with(&conn, &row, &game, &annotations(&game, &analysis))?;
        Ok(Response::one(pgn_reply(cx.target(), &format!("capabot-game-{}-analysed.pgn", row.id), text)))
    }

    /// The unit of work that ends a job: the analysis stored (the first one made, if two people
    /// asked at once) and announced, replacing the progress message.
    pub(in crate::bot) fn finish_analysis_now(
        &self,
        job: &AnalysisJob,
        result: &Result<Analysis, AnalysisError>,
    ) -> Res<Response> {
        let analysis = match result {
            Ok(a) => a,
            Err(e) => return Err(BotError::Internal(format!("game {}: {e}", job.game_id))),
        };
        let conn = self.conn()?;
        let Some(row) = games::get(&conn, job.game_id)? else {
            return Err(BotError::Internal(format!("game {} vanished", job.game_id)));
        };
        analyses::put(&conn, row.id, analysis.nodes, &analysis.encode(&job.game), self.clock.now())?;
        let key = progress_slot(job.game_id, &job.requester.id);
        let platform = job.target.platform();
        let previous = events::slot(&conn, platform, &key)?;
        if previous.is_some() {
            events::clear_slot(&conn, platform, &key)?;
        }
        let slot = previous.map(|p| Slot { key: format!("{key}:done"), previous: Some(p) });
        let mut replies = self.analysis_replies(&conn, &row, &job.game, analysis, job.target.clone(), false, slot)?;
        for r in &mut replies {
            r.in_reply_to.clone_from(&job.origin);
        }
        Ok(Response { replies, ..Response::default() })
    }

    /// The result, in the language in force: the summary with the course chart (in `slot`, when
    /// given), then one board per turning point.
    #[allow(clippy::too_many_arguments)]
    fn analysis_replies(
        &self,
        conn: &Conn<'_>,
        row: &GameRow,
        game: &Game,
        analysis: &Analysis,
        target: Target,
        again: bool,
        slot: Option<Slot>,
    ) -> Res<Vec<Reply>> {
        let white = self.record_name(conn, row, row.white)?;
        let black = self.record_name(conn, row, row.black)?;
        let variant = super::variant_text(&row.variant);
        let result = row.outcome().map_or("*", |o| o.result_str());
        let mut text = t!(
            "analysis-head",
            id = row.id,
            white = white.as_str(),
            black = black.as_str(),
            variant = variant.as_str(),
            result = result,
            nodes = crate::i18n::grouped(crate::i18n::current(), analysis.nodes)
        );
        if again {
            text.push(' ');
            text.push_str(&t!("analysis-again"));
        }
        for line in side_lines(analysis, [&white, &black]) {
            text.push('\n');
            text.push_str(&line);
        }
        let points = analysis.turning_points(TURNING_POINTS);
        text.push('\n');
        if points.is_empty() {
            text.push_str(&t!("analysis-no-turning-points"));
        } else {
            let labels: Vec<String> = points.iter().map(|m| point_label(game, m)).collect();
            text.push_str(&t!("analysis-turning-points", moves = labels.join(", ")));
        }
        text.push('\n');
        text.push_str(&t!("analysis-pgn-hint", id = row.id, p = self.hint_for(&super::game_scope(row))));

        let mut head = Reply::new(target.clone(), text);
        head.slot = slot;
        // The same analysis on the game's web page, where its community opted in.
        head.web_link = self.web_link(conn, row)?.map(|page| format!("{page}#analysis"));
        if self.config.pictures {
            let (course, alt) = course_of(row.id, analysis, [&white, &black], &variant, result, Theme::default());
            head.drawing = Some(Drawing::Course(course));
            head.alt_text = Some(alt);
        }
        let mut out = vec![head];
        for m in points {
            out.push(self.turning_point_reply(game, m, target.clone()));
        }
        Ok(out)
    }

    /// One turning point: what was played and what was better, and the board before the move with
    /// both as arrows, seen from the mover's side.
    fn turning_point_reply(&self, game: &Game, m: &MoveReview, target: Target) -> Reply {
        let pos = &game.positions()[m.ply.min(game.positions().len() - 1)];
        let label = point_label(game, m);
        let mut r = Reply::new(target, point_text(game, m));
        if self.config.pictures {
            let arrow =
                |m: crate::rules::Move, kind| DrawnArrow { from: m.from.to_string(), to: m.to.to_string(), kind };
            let mut arrows = vec![arrow(m.played, ArrowKind::Played)];
            if let Some(b) = m.best.filter(|b| *b != m.played) {
                arrows.push(arrow(b, ArrowKind::Better));
            }
            // Nobody's secret bomb is drawn, and no launch marks: the game is over.
            let mut board = BoardDrawing::new(pos, None, m.mover, None, PICTURE_SIZE, Theme::default());
            board.launch_ready = false;
            r.drawing = Some(Drawing::Arrows(ArrowsDrawing { board, arrows }));
            r.alt_text = Some(t!(
                "analysis-point-alt",
                label = label.as_str(),
                played = format!("{}-{}", m.played.from, m.played.to),
                better = m.best.map_or_else(|| "-".to_string(), |b| format!("{}-{}", b.from, b.to))
            ));
        }
        r.text_board = Some(crate::bot::text_board(pos));
        r
    }
}

/// Each side's accuracy and mistakes in words, White's first (`names`: White's and Black's).
pub(in crate::bot) fn side_lines(analysis: &Analysis, names: [&str; 2]) -> [String; 2] {
    [Color::White, Color::Black].map(|side| {
        let (s, name) = (analysis.summary(side), names[side.index()]);
        match s.accuracy {
            Some(a) => t!(
                "analysis-side",
                name = name,
                color = color_word(side),
                accuracy = a.round() as i64,
                inaccuracies = s.inaccuracies,
                mistakes = s.mistakes,
                blunders = s.blunders
            ),
            None => t!("analysis-side-no-moves", name = name, color = color_word(side)),
        }
    })
}

/// The course chart of game `id`'s analysis and its alt text, in the language in force.
pub(in crate::bot) fn course_of(
    id: i64,
    analysis: &Analysis,
    [white, black]: [&str; 2],
    variant: &str,
    result: &str,
    theme: Theme,
) -> (CourseDrawing, String) {
    let chances = analysis.white_chances();
    let marks: Vec<CourseMark> = analysis
        .moves
        .iter()
        .filter_map(|m| m.judgement.map(|j| CourseMark { ply: m.ply, severity: severity(j) }))
        .collect();
    let pct = |p: Option<&f64>| p.map_or(50, |p| p.round() as i64);
    let alt =
        t!("analysis-chart-alt", id = id, start = pct(chances.first()), end = pct(chances.last()), count = marks.len());
    let words = CourseWords {
        inaccuracy: t!("analysis-word-inaccuracy"),
        mistake: t!("analysis-word-mistake"),
        blunder: t!("analysis-word-blunder"),
    };
    let course = CourseDrawing {
        white: white.to_string(),
        black: black.to_string(),
        variant: variant.to_string(),
        result: result.to_string(),
        chances,
        marks,
        theme,
        words,
    };
    (course, alt)
}

/// What a marked move cost and what was better, in words (`14. Qxb7?? (white): winning chances
/// 62% → 12%; better was Rb1.`).
pub(in crate::bot) fn point_text(game: &Game, m: &MoveReview) -> String {
    let pos = &game.positions()[m.ply.min(game.positions().len() - 1)];
    let better = m.best.filter(|b| pos.is_legal(*b)).map(|b| san::write(pos, b));
    t!(
        "analysis-point",
        label = point_label(game, m).as_str(),
        color = color_word(m.mover),
        before = mover_chances(m.before, m.mover),
        after = mover_chances(m.after, m.mover),
        better = better.unwrap_or_else(|| "-".into())
    )
}

/// `14. Qxb7??`: the move as played, with its mark.
fn point_label(game: &Game, m: &MoveReview) -> String {
    let pos = &game.positions()[m.ply.min(game.positions().len() - 1)];
    let mark = m.judgement.map_or("", Judgement::glyph);
    format!("{}{mark}", move_label(pos, &san::write(pos, m.played)))
}

/// The mover's winning chances, rounded, from White's.
fn mover_chances(white: f64, mover: Color) -> i64 {
    (if mover == Color::White { white } else { 100.0 - white }).round() as i64
}

fn severity(j: Judgement) -> Severity {
    match j {
        Judgement::Inaccuracy => Severity::Inaccuracy,
        Judgement::Mistake => Severity::Mistake,
        Judgement::Blunder => Severity::Blunder,
    }
}

/// The PGN notes of an analysis: each move's evaluation after it (none after the end of a game over
/// on the board), its mark and, for a marked move, the better one.
pub(in crate::bot) fn annotations(game: &Game, analysis: &Analysis) -> Vec<pgn::MoveNote> {
    analysis
        .moves
        .iter()
        .map(|m| {
            let after = analysis.evals.get(m.ply + 1);
            let ended = after.is_some_and(|e| e.best.is_none()) && m.ply + 1 == game.moves().len();
            pgn::MoveNote {
                eval: after.filter(|_| !ended).map(|e| e.score.pgn_eval()),
                mark: m.judgement.map(Judgement::glyph),
                better: m.judgement.and(m.best),
            }
        })
        .collect()
}

//! Ratings as people see them: one person's rating, the leaderboard (text and a picture card) and
//! the rating history (a chart). In a community the community's ratings, elsewhere (or with
//! `global`) the global ones.

use super::{Bot, Ctx, Res, user, variant_named};
use crate::bot::command::RatingArgs;
use crate::bot::drawing::{CardDrawing, ChartDrawing, Drawing};
use crate::bot::io::{Reply, Response};
use crate::community::rating::PROVISIONAL_DEVIATION;
use crate::render::card::CardRow;
use crate::render::chart::ChartPoint;
use crate::render::{PictureWords, Theme};
use crate::rules::Variant;
use crate::store::players::{self, Player};
use crate::store::ratings::{self, PlayerRating, Scope as RatingScope, Standing};
use crate::{msg, t};

/// The variants `player` is rated in within `scope`, most games first (then by name).
fn rated_variants(
    conn: &crate::store::Conn,
    player: crate::store::players::PlayerId,
    scope: &RatingScope,
) -> Res<Vec<(&'static Variant, PlayerRating)>> {
    let mut rated: Vec<(&'static Variant, PlayerRating)> = ratings::all_of(conn, player, scope)?
        .into_iter()
        .filter_map(|(name, r)| variant_named(&name).ok().map(|v| (v, r)))
        .collect();
    rated.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.name.cmp(b.0.name)));
    Ok(rated)
}

/// The words of the rating pictures in the language in force.
fn picture_words() -> PictureWords {
    let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
    PictureWords {
        player: t!("picture-player"),
        rating: t!("picture-rating"),
        games: t!("picture-games"),
        record: t!("picture-record"),
        no_established: t!("picture-no-established"),
        provisional_section: t!("picture-provisional-section"),
        no_games: t!("picture-no-games"),
        provisional: t!("picture-provisional"),
        months: months.map(|m| t!("picture-month", month = m)),
    }
}

/// Rows on the leaderboard.
pub(super) const TOP: usize = 10;

pub(super) fn record(s: &ratings::PlayerRating) -> String {
    t!("rating-record", count = s.games, wins = s.wins, draws = s.draws, losses = s.losses)
}

fn card_row(s: &Standing, me: Option<i64>) -> CardRow {
    CardRow {
        place: s.place,
        name: s.name.clone(),
        rating: s.current.rating,
        provisional: s.current.is_provisional(),
        games: s.record.games,
        wins: s.record.wins,
        draws: s.record.draws,
        losses: s.record.losses,
        is_me: me == Some(s.record.player_id),
    }
}

/// The rating chart of `points` (oldest first).
fn history_chart(p: &Player, v: &Variant, points: &[ratings::HistoryPoint]) -> Drawing {
    let chart =
        points.iter().map(|h| ChartPoint { at: h.at, rating: h.rating_after, deviation: h.deviation_after }).collect();
    Drawing::Chart(ChartDrawing {
        player: p.name.clone(),
        variant: super::variant_text(v.name),
        points: chart,
        provisional_above: PROVISIONAL_DEVIATION,
        theme: Theme::default(),
        words: picture_words(),
    })
}

/// A player's rating chart in a scope and variant, as `history` draws it; `None` without history.
pub(super) fn chart_drawing(
    conn: &crate::store::Conn<'_>,
    p: &Player,
    scope: &RatingScope,
    v: &Variant,
) -> Res<Option<Drawing>> {
    let points = ratings::history(conn, p.id, scope, v.name, ratings::MAX_HISTORY)?;
    Ok((!points.is_empty()).then(|| history_chart(p, v, &points)))
}

impl Bot {
    /// The rating scope of a request and how to name it (`community` or `global`, a selector of the
    /// messages).
    fn rating_scope(&self, cx: &Ctx<'_>, global: bool) -> (RatingScope, &'static str) {
        match (&cx.scope().community, global) {
            (Some(c), false) => (RatingScope::community(&cx.scope().platform, c), "community"),
            _ => (RatingScope::Global, "global"),
        }
    }

    /// The variant and the person (the mentioned one, else the author) a rating command is about.
    fn rating_subject(&self, cx: &Ctx<'_>, args: &RatingArgs) -> Res<(&'static Variant, Option<Player>)> {
        let v = variant_named(args.variant.as_deref().unwrap_or(&cx.settings.default_variant))?;
        let conn = self.conn()?;
        let who = match (args.someone, cx.inp.mentions.first()) {
            (true, None) => {
                return user(msg!("mention-unclear"));
            }
            (true, Some(m)) => players::find(&conn, &cx.scope().platform, &m.id)?,
            (false, _) => players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?,
        };
        Ok((v, who))
    }

    pub(super) fn rating_cmd(&self, cx: &Ctx<'_>, args: RatingArgs) -> Res<Response> {
        let (v, who) = self.rating_subject(cx, &args)?;
        let (scope, where_) = self.rating_scope(cx, args.global);
        // Someone capabot has never met has no rating in any variant: said so, not that they have
        // none in one variant (the chat's default, which nobody asked about).
        let Some(p) = who else {
            return Ok(cx.say(match cx.inp.mentions.first().filter(|_| args.someone) {
                Some(m) => t!("rating-not-met", name = super::short(&m.name)),
                None => t!("rating-not-met-self"),
            }));
        };
        let conn = self.conn()?;
        let now = self.clock.now();
        let line = |v: &Variant, r: &PlayerRating| -> Res<String> {
            let cur = r.rating_at(now);
            let mut text = t!(
                "rating-line",
                name = p.name.as_str(),
                variant = super::variant_title(v.name),
                scope = where_,
                rating = cur.display(),
                deviation = cur.deviation.round() as i64,
                record = record(r)
            );
            if scope != RatingScope::Global
                && let Some(g) = ratings::get(&conn, p.id, &RatingScope::Global, v.name)?
            {
                text.push(' ');
                text.push_str(&t!("rating-global", rating = g.rating_at(now).display()));
            }
            Ok(text)
        };
        let asked = if args.all { None } else { ratings::get(&conn, p.id, &scope, v.name)? };
        let Some(r) = asked else {
            // No variant asked and none in the chat's default: the variants they are rated in
            // here, most games first, rather than a "no games" that reads as if they had none.
            if args.variant.is_some() {
                return Ok(cx.say(t!(
                    "rating-none",
                    name = p.name.as_str(),
                    variant = super::variant_title(v.name),
                    scope = where_
                )));
            }
            let rated = rated_variants(&conn, p.id, &scope)?;
            if rated.is_empty() {
                return Ok(cx.say(t!("rating-none-any", name = p.name.as_str(), scope = where_)));
            }
            let lines: Vec<String> = rated.iter().map(|(v, r)| line(v, r)).collect::<Res<_>>()?;
            let mut text = lines.join("\n");
            if rated.iter().any(|(_, r)| r.rating_at(now).is_provisional()) {
                text.push('\n');
                text.push_str(&t!("rating-provisional"));
            }
            return Ok(cx.say(text));
        };
        let mut text = line(v, &r)?;
        if r.rating_at(now).is_provisional() {
            text.push(' ');
            text.push_str(&t!("rating-provisional"));
        }
        Ok(cx.say(text))
    }

    pub(super) fn leaderboard_cmd(&self, cx: &Ctx<'_>, args: RatingArgs) -> Res<Response> {
        let v = variant_named(args.variant.as_deref().unwrap_or(&cx.settings.default_variant))?;
        let (scope, where_) = self.rating_scope(cx, args.global);
        let conn = self.conn()?;
        let me = players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?.map(|p| p.id);
        let board = ratings::leaderboard(&conn, &scope, v.name, TOP, me, self.clock.now())?;
        if board.top.is_empty() && board.provisional.is_empty() {
            let mut text = t!("leaderboard-empty", variant = super::variant_title(v.name), scope = where_);
            // Asked without a variant, where the chat's default has no games: the variants that have.
            if args.variant.is_none() {
                let all: Vec<&str> = crate::rules::VARIANTS.iter().map(|v| v.name).collect();
                let rated = ratings::variants_rated(&conn, &scope, &all)?;
                match rated.as_slice() {
                    [] => {}
                    [only] => {
                        drop(conn);
                        return self.leaderboard_cmd(cx, RatingArgs { variant: Some(only.clone()), ..args });
                    }
                    [first, ..] => {
                        let global = if args.global { " global" } else { "" };
                        let example = format!("{}leaderboard {first}{global}", cx.p());
                        text.push(' ');
                        text.push_str(&t!("leaderboard-rated-variants", list = rated.join(", "), example = example));
                    }
                }
            }
            return Ok(cx.say(text));
        }
        let mut text = t!("leaderboard-head", variant = super::variant_title(v.name), scope = where_);
        for s in &board.top {
            text.push_str(&format!(
                "\n{}. {} {} ({})",
                s.place.unwrap_or(0),
                s.name,
                s.current.display(),
                record(&s.record)
            ));
        }
        if board.top.is_empty() {
            text.push('\n');
            text.push_str(&t!("leaderboard-nobody"));
        }
        if let Some(m) = &board.me
            && !board.top.iter().any(|s| s.record.player_id == m.record.player_id)
        {
            let place = match (m.place, board.more) {
                (Some(p), false) => t!("leaderboard-place", place = p, count = board.established),
                (Some(p), true) => t!("leaderboard-place-many", place = p, count = board.established),
                (None, _) if board.me_below_counted => t!("leaderboard-place-below", count = board.established),
                (None, _) => t!("leaderboard-provisional-place"),
            };
            text.push('\n');
            text.push_str(&t!("leaderboard-you", name = m.name.as_str(), rating = m.current.display(), place = place));
        }
        if !board.provisional.is_empty() {
            let names: Vec<String> =
                board.provisional.iter().map(|s| format!("{} {}", s.name, s.current.display())).collect();
            text.push('\n');
            text.push_str(&t!("leaderboard-provisional", names = names.join(", ")));
        }
        let rows: Vec<CardRow> = board.top.iter().map(|s| card_row(s, me)).collect();
        let prov: Vec<CardRow> = board.provisional.iter().map(|s| card_row(s, me)).collect();
        let mine = board.me.as_ref().map(|s| card_row(s, me));
        let title = t!("leaderboard-title", variant = super::variant_title(v.name));
        let subtitle = t!("leaderboard-subtitle", scope = where_);
        let mut r = Reply::new(cx.target(), text);
        let (t, st, count) = (title.as_str(), subtitle.as_str(), board.established);
        r.alt_text = Some(if board.more {
            t!("leaderboard-alt-many", title = t, subtitle = st, count = count)
        } else {
            t!("leaderboard-alt", title = t, subtitle = st, count = count)
        });
        r.drawing = Some(Drawing::Card(CardDrawing {
            title,
            subtitle,
            rows,
            provisional: prov,
            me: mine,
            theme: Theme::default(),
            words: picture_words(),
        }));
        Ok(Response::one(r))
    }

    pub(super) fn history_cmd(&self, cx: &Ctx<'_>, args: RatingArgs) -> Res<Response> {
        let (mut v, who) = self.rating_subject(cx, &args)?;
        let (scope, where_) = self.rating_scope(cx, args.global);
        let conn = self.conn()?;
        let mut points = match &who {
            Some(p) => ratings::history(&conn, p.id, &scope, v.name, ratings::MAX_HISTORY)?,
            None => vec![],
        };
        // No variant asked and none in the chat's default: the variant they have played most here.
        if let (Some(p), true, None) = (&who, points.is_empty(), &args.variant)
            && let Some((most, _)) = rated_variants(&conn, p.id, &scope)?.into_iter().next()
        {
            v = most;
            points = ratings::history(&conn, p.id, &scope, v.name, ratings::MAX_HISTORY)?;
        }
        let (Some(p), Some(first), Some(last)) = (&who, points.first(), points.last()) else {
            // One's own history is said to be one's own (before: "…yet for that person" to the asker).
            let other = cx.inp.mentions.first().filter(|m| args.someone && m.id != cx.inp.author.id);
            let (whose, name) = match other {
                Some(m) => ("other", super::short(&m.name)),
                None => ("own", String::new()),
            };
            let variant = super::variant_title(v.name);
            return Ok(cx.say(t!("history-none", whose = whose, name = name, variant = variant, scope = where_)));
        };
        // Shown as the game's end and `rating` show them: `1742?` while provisional (before: the
        // same rating without its mark here).
        let shown = |rating: f64, deviation: f64| {
            crate::community::rating::Rating { rating, deviation, ..crate::community::rating::Rating::new() }.display()
        };
        let high = points.iter().max_by(|a, b| a.rating_after.total_cmp(&b.rating_after)).unwrap_or(last);
        // Where the whole history is listed, its first game began at a new player's rating;
        // otherwise the deviation before the first change listed is not known.
        let first = if points.len() < ratings::MAX_HISTORY {
            shown(first.rating_before, crate::community::rating::MAX_DEVIATION)
        } else {
            (first.rating_before.round() as i64).to_string()
        };
        let text = t!(
            "history-line",
            name = p.name.as_str(),
            variant = super::variant_title(v.name),
            scope = where_,
            first = first,
            last = shown(last.rating_after, last.deviation_after),
            count = points.len(),
            high = shown(high.rating_after, high.deviation_after)
        );
        let mut r = Reply::new(cx.target(), text.clone());
        r.drawing = Some(history_chart(p, v, &points));
        r.alt_text = Some(t!("history-alt", text = text));
        Ok(Response::one(r))
    }
}

//! Ratings as people see them: one person's rating, the leaderboard (text and a picture card) and
//! the rating history (a chart). In a community the community's ratings, elsewhere (or with
//! `global`) the global ones.

use super::{Bot, Ctx, Res, user, variant_named};
use crate::bot::command::RatingArgs;
use crate::bot::io::{Reply, Response};
use crate::community::rating::PROVISIONAL_DEVIATION;
use crate::render::Theme;
use crate::render::card::{CardRequest, CardRow, render_card};
use crate::render::chart::{ChartPoint, ChartRequest, render_chart};
use crate::rules::Variant;
use crate::store::players::{self, Player};
use crate::store::ratings::{self, Scope as RatingScope, Standing};

/// Rows on the leaderboard.
const TOP: usize = 10;

fn record(s: &ratings::PlayerRating) -> String {
    format!("{} game{}: +{} ={} −{}", s.games, if s.games == 1 { "" } else { "s" }, s.wins, s.draws, s.losses)
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

impl Bot {
    /// The rating scope of a request and how to name it.
    fn rating_scope(&self, cx: &Ctx<'_>, global: bool) -> (RatingScope, &'static str) {
        match (&cx.scope().community, global) {
            (Some(c), false) => (RatingScope::community(&cx.scope().platform, c), "in this community"),
            _ => (RatingScope::Global, "globally"),
        }
    }

    /// The variant and the person (the mentioned one, else the author) a rating command is about.
    fn rating_subject(&self, cx: &Ctx<'_>, args: &RatingArgs) -> Res<(&'static Variant, Option<Player>)> {
        let v = variant_named(args.variant.as_deref().unwrap_or(&cx.settings.default_variant))?;
        let conn = self.conn()?;
        let who = match (args.someone, cx.inp.mentions.first()) {
            (true, None) => {
                return user("I could not tell who you mentioned; mention them so the chat links their name.");
            }
            (true, Some(m)) => players::find(&conn, &cx.scope().platform, &m.id)?,
            (false, _) => players::find(&conn, &cx.scope().platform, &cx.inp.author.id)?,
        };
        Ok((v, who))
    }

    pub(super) fn rating_cmd(&self, cx: &Ctx<'_>, args: RatingArgs) -> Res<Response> {
        let (v, who) = self.rating_subject(cx, &args)?;
        let (scope, where_) = self.rating_scope(cx, args.global);
        let Some(p) = who else {
            let name = if args.someone { cx.inp.mentions.first().map(|m| m.name.as_str()) } else { None };
            let name = name.unwrap_or(&cx.inp.author.name);
            return Ok(cx.say(format!("{} has no rated {} games {where_} yet.", super::short(name), v.display_name)));
        };
        let conn = self.conn()?;
        let now = self.clock.now();
        let Some(r) = ratings::get(&conn, p.id, &scope, v.name)? else {
            return Ok(cx.say(format!("{} has no rated {} games {where_} yet.", p.name, v.display_name)));
        };
        let cur = r.rating_at(now);
        let mut text = format!(
            "{} — {} {where_}: {} (±{:.0}), {}.",
            p.name,
            v.display_name,
            cur.display(),
            cur.deviation,
            record(&r)
        );
        if scope != RatingScope::Global
            && let Some(g) = ratings::get(&conn, p.id, &RatingScope::Global, v.name)?
        {
            text.push_str(&format!(" Globally {}.", g.rating_at(now).display()));
        }
        if cur.is_provisional() {
            text.push_str(" (? = provisional: too few games yet to be sure.)");
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
            return Ok(cx.say(format!("No rated {} games {where_} yet.", v.display_name)));
        }
        let mut text = format!("{} leaderboard {where_}:", v.display_name);
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
            text.push_str("\nNobody is established yet (fewer games than needed).");
        }
        if let Some(m) = &board.me
            && !board.top.iter().any(|s| s.record.player_id == m.record.player_id)
        {
            let place = m.place.map_or("provisional".to_string(), |p| format!("place {p} of {}", board.established));
            text.push_str(&format!("\nYou: {} {} ({place}).", m.name, m.current.display()));
        }
        if !board.provisional.is_empty() {
            let names: Vec<String> =
                board.provisional.iter().map(|s| format!("{} {}", s.name, s.current.display())).collect();
            text.push_str(&format!("\nProvisional: {}.", names.join(", ")));
        }
        let rows: Vec<CardRow> = board.top.iter().map(|s| card_row(s, me)).collect();
        let prov: Vec<CardRow> = board.provisional.iter().map(|s| card_row(s, me)).collect();
        let mine = board.me.as_ref().map(|s| card_row(s, me));
        let title = format!("{} leaderboard", v.display_name);
        let subtitle = if scope == RatingScope::Global { "global".to_string() } else { "this community".to_string() };
        let mut r = Reply::new(cx.target(), text);
        r.png = Some(render_card(&CardRequest {
            title: &title,
            subtitle: &subtitle,
            rows: &rows,
            provisional: &prov,
            me: mine.as_ref(),
            theme: Theme::default(),
        }));
        r.alt_text = Some(format!("{title}, {subtitle}: {} ranked players.", board.established));
        Ok(Response::one(r))
    }

    pub(super) fn history_cmd(&self, cx: &Ctx<'_>, args: RatingArgs) -> Res<Response> {
        let (v, who) = self.rating_subject(cx, &args)?;
        let (scope, where_) = self.rating_scope(cx, args.global);
        let conn = self.conn()?;
        let points = match &who {
            Some(p) => ratings::history(&conn, p.id, &scope, v.name, ratings::MAX_HISTORY)?,
            None => vec![],
        };
        let (Some(p), Some(first), Some(last)) = (&who, points.first(), points.last()) else {
            return Ok(cx.say(format!("No rated {} games {where_} yet for that person.", v.display_name)));
        };
        let high = points.iter().map(|h| h.rating_after).fold(f64::MIN, f64::max);
        let text = format!(
            "{}'s {} rating {where_}: {:.0} → {:.0} over {} rated game{}; highest {:.0}.",
            p.name,
            v.display_name,
            first.rating_before,
            last.rating_after,
            points.len(),
            if points.len() == 1 { "" } else { "s" },
            high
        );
        let mut chart: Vec<ChartPoint> = Vec::with_capacity(points.len() + 1);
        for h in &points {
            chart.push(ChartPoint { at: h.at, rating: h.rating_after, deviation: h.deviation_after });
        }
        let mut r = Reply::new(cx.target(), text.clone());
        r.png = Some(render_chart(&ChartRequest {
            player: &p.name,
            variant: v.display_name,
            points: &chart,
            provisional_above: PROVISIONAL_DEVIATION,
            theme: Theme::default(),
        }));
        r.alt_text = Some(format!("Chart: {text}"));
        Ok(Response::one(r))
    }
}

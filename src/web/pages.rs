//! The pages as HTML: maud templates (every value escaped; names are text, whatever they hold),
//! in the language in force ([`crate::i18n::with_lang`]). One `h1` per page, every picture with
//! its alt text, every control labelled; the script and the style are files of their own
//! ([`SCRIPT`], [`STYLE`]) so that the Content-Security-Policy allows no inline code.

use crate::bot::{LeftOut, WebAnalysis, WebCommunity, WebGame, WebPlayer, WebSide, WebTournament};
use crate::store::ratings::Standing;
use crate::t;
use maud::{DOCTYPE, Markup, html};

/// The pages' script: keyboard stepping through the moves and live moves. It reads only the
/// page's own attributes; the pages work without it.
pub const SCRIPT: &str = include_str!("app.js");
/// The pages' style sheet.
pub const STYLE: &str = include_str!("style.css");

/// Characters of a name shown at most (a longer one is cut with an ellipsis; the full name is
/// still text in a `title`).
const NAME_CHARS: usize = 60;

/// A count shown on a page (how many are left out, or "more than" so many), written as the page's
/// language groups it: 1,000 in English, 1.000 in German and Turkish (Fluent writes a number as
/// `1000`: a message's count selects its plural form, and this is what it shows).
fn amount(n: usize) -> String {
    crate::i18n::grouped(crate::i18n::current(), n as u64)
}

fn short(name: &str) -> String {
    if name.chars().count() <= NAME_CHARS {
        name.to_string()
    } else {
        name.chars().take(NAME_CHARS).collect::<String>() + "…"
    }
}

/// A path segment with everything but unreserved characters percent-encoded.
pub fn segment(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn community_path(platform: &str, community: &str) -> String {
    format!("/c/{}/{}", segment(platform), segment(community))
}

fn layout(title: &str, body: Markup) -> String {
    layout_with(title, None, body)
}

/// How a page shows where its link is shared (Open Graph: the card a chat app or a social site
/// draws for a pasted link): its public address, a line about it, and a picture.
pub struct Preview {
    pub url: String,
    pub description: String,
    /// A picture's public address.
    pub image: Option<String>,
}

fn layout_with(title: &str, preview: Option<&Preview>, body: Markup) -> String {
    let lang = crate::i18n::current().code();
    html! {
        (DOCTYPE)
        html lang=(lang) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                @if let Some(p) = preview {
                    meta property="og:site_name" content=(t!("web-site"));
                    meta property="og:type" content="website";
                    meta property="og:title" content=(title);
                    meta property="og:description" content=(p.description);
                    meta property="og:url" content=(p.url);
                    meta name="description" content=(p.description);
                    @if let Some(image) = &p.image {
                        meta property="og:image" content=(image);
                        meta name="twitter:card" content="summary_large_image";
                    }
                }
                title { (title) " · " (t!("web-site")) }
                link rel="stylesheet" href="/static/style.css";
                script src="/static/app.js" defer {}
            }
            body {
                (body)
            }
        }
    }
    .into_string()
}

/// The home page: what capabot is, where its pages are found (each is linked from its chat; none
/// is listed here, so a community that opted in is found by its members' links, not by a
/// directory), and the rules of every variant it plays.
pub fn home() -> String {
    let title = t!("web-home-title");
    layout(
        &title,
        html! {
            main {
                h1 { (t!("web-site")) ": " (title) }
                p { (t!("web-home-text")) }
                h2 { (t!("web-home-variants")) }
                dl {
                    @for v in crate::rules::VARIANTS {
                        dt { (t!("variant-name", variant = v.name)) " (" code { (v.name) } ")" }
                        dd { (crate::i18n::t(&format!("rules-{}", v.name), &[])) }
                    }
                }
            }
        },
    )
}

/// The error page for a status (404, 400, 429, 500).
pub fn error(status: u16) -> String {
    let (title, text) = match status {
        404 => (t!("web-not-found"), t!("web-not-found-text")),
        400 => (t!("web-bad-request"), t!("web-bad-request-text")),
        429 => (t!("web-too-many"), t!("web-too-many-text")),
        _ => (t!("web-failed"), t!("web-failed-text")),
    };
    layout(
        &title,
        html! {
            main {
                h1 { (title) }
                p { (text) }
            }
        },
    )
}

fn side(g: &WebGame, s: &WebSide, color: String) -> Markup {
    html! {
        li {
            (color) ": "
            @if s.is_ai {
                span.name title=(s.name) { (short(&s.name)) }
            } @else {
                a.name href=(format!("{}/p/{}", community_path(&g.platform, &g.community), s.player)) title=(s.name) {
                    (short(&s.name))
                }
            }
            @if let Some(r) = &s.rating { " (" (r) ")" }
        }
    }
}

/// A game's page, showing the board after `ply` (the latest when `None`); with `public` (where
/// people reach the pages) its link shows as a card with the latest board where it is shared.
pub fn game(g: &WebGame, ply: Option<usize>, now: i64, public: Option<&str>) -> String {
    let latest = g.moves.len();
    let shown = ply.unwrap_or(latest).min(latest);
    let title =
        t!("web-game-title", white = short(&g.white.name), black = short(&g.black.name), variant = g.variant.as_str());
    let base = format!("/g/{}", g.slug);
    let alt_after = |i: usize| t!("web-board-after", move = g.moves[i - 1].as_str());
    let alt = if shown == latest {
        g.alt.clone()
    } else if shown == 0 {
        t!("web-board-start")
    } else {
        alt_after(shown)
    };
    let step = |label: String, to: usize, key: &str| {
        html! {
            a.step href=(format!("{base}?ply={to}")) data-step=(key) aria-label=(label) { (label) }
        }
    };
    let days_left = g.deadline.map(|d| ((d - now).max(0) / 86_400).to_string());
    let marks = g.analysis.as_ref().map_or(&[][..], |a| &a.marks[..]);
    // The variant, rated or casual, where it stands: on the page and in its link's card.
    let facts = format!("{} · {} · {}", g.variant, if g.rated { t!("web-rated") } else { t!("web-casual") }, g.status);
    let body = html! {
        main #game data-ply=(latest) data-shown=(shown) data-board=(format!("{base}/board/"))
            data-page=(base) data-events=[g.active.then(|| format!("{base}/events?ply={}", g.ply))]
            data-alt-start=(t!("web-board-start")) data-alt-latest=(g.alt) {
            h1 { (t!("web-game-heading", white = short(&g.white.name), black = short(&g.black.name))) }
            p.facts { (facts) }
            @if let Some(d) = days_left {
                p.clock { (t!("web-days-left", days = d.parse::<i64>().unwrap_or(0))) }
            }
            @if g.active { p.live { (t!("web-live")) } }
            ul.players {
                (side(g, &g.white, t!("web-white")))
                (side(g, &g.black, t!("web-black")))
            }
            figure {
                img #board src=(format!("{base}/board/{shown}")) alt=(alt) width="640" height="640";
            }
            nav.steps aria-label=(t!("web-moves")) {
                (step(t!("web-first"), 0, "first"))
                (step(t!("web-previous"), shown.saturating_sub(1), "previous"))
                (step(t!("web-next"), (shown + 1).min(latest), "next"))
                (step(t!("web-last"), latest, "last"))
            }
            p.keys { (t!("web-keys")) }
            @if let Some(b) = &g.bombs { p.bombs { (b) } }
            section {
                h2 { (t!("web-moves")) }
                @if g.moves.is_empty() {
                    p { (t!("web-no-moves")) }
                } @else {
                    ol #moves {
                        @for (i, m) in g.moves.iter().enumerate() {
                            li {
                                a href=(format!("{base}?ply={}", i + 1)) data-ply=(i + 1) data-alt=(alt_after(i + 1))
                                    aria-current=[(i + 1 == shown).then_some("step")] { (m) }
                                @if let Some(mark) = marks.get(i).and_then(Option::as_ref) {
                                    span class=(format!("mark {}", mark.kind)) title=(mark.note) { (mark.glyph) }
                                    span.hidden { " (" (mark.word) ")" }
                                }
                            }
                        }
                    }
                }
            }
            @if let Some(a) = &g.analysis {
                (analysis(a, &base))
            } @else if g.analysable {
                section #analysis-ask {
                    h2 { (t!("web-analysis")) }
                    p { (t!("web-analysis-ask", command = g.analyse_command.as_str())) }
                }
            }
            section {
                h2 { (t!("web-downloads")) }
                ul {
                    @if !g.moves.is_empty() || !g.active {
                        li { a href=(format!("{base}/pgn")) download { (t!("web-pgn")) } }
                    }
                    @if g.analysis.is_some() {
                        li { a href=(format!("{base}/pgn/analysed")) download { (t!("web-pgn-analysed")) } }
                    }
                    @if !g.moves.is_empty() {
                        li { a href=(format!("{base}/gif")) download { (t!("web-gif")) } }
                    }
                }
            }
            p.back { a href=(community_path(&g.platform, &g.community)) { (t!("web-community-title", id = g.community.as_str())) } }
        }
    };
    let preview = public.map(|site| {
        let site = site.trim_end_matches('/');
        Preview {
            url: format!("{site}{base}"),
            description: facts,
            image: Some(format!("{site}{base}/board/{latest}")),
        }
    });
    layout_with(&title, preview.as_ref(), body)
}

/// A finished game's computer analysis: each side's accuracy, the course chart, and every marked
/// move with what it cost and what was better, each a link to the board before it.
fn analysis(a: &WebAnalysis, base: &str) -> Markup {
    html! {
        section #analysis {
            h2 { (t!("web-analysis")) }
            p { (a.head) }
            ul.accuracy { @for line in &a.sides { li { (line) } } }
            figure { img.chart src=(format!("{base}/course")) alt=(a.course_alt); }
            h3 { (t!("web-analysis-marked")) }
            @if a.marks.iter().all(Option::is_none) {
                p { (t!("web-analysis-none-marked")) }
            } @else {
                ul.marked {
                    @for (ply, mark) in a.marks.iter().enumerate() {
                        @if let Some(mark) = mark {
                            li { a class=(mark.kind) href=(format!("{base}?ply={ply}")) { (mark.note) } }
                        }
                    }
                }
            }
        }
    }
}

fn standing_rows(rows: &[Standing], base: &str) -> Markup {
    html! {
        @for s in rows {
            tr {
                td { @if let Some(p) = s.place { (p) } }
                td { a href=(format!("{base}/p/{}", s.record.player_id)) title=(s.name) { (short(&s.name)) } }
                td { (s.current.display()) }
                td { (s.record.games) }
            }
        }
    }
}

/// A community's page.
pub fn community(c: &WebCommunity) -> String {
    let base = community_path(&c.platform, &c.community);
    let title = t!("web-community-title", id = c.community.as_str());
    let body = html! {
        main {
            h1 { (title) }
            section {
                h2 { (t!("web-leaderboards")) }
                @if c.boards.is_empty() { p { (t!("web-none")) } }
                @for b in &c.boards {
                    table.leaderboard {
                        caption { (t!("web-leaderboard", variant = b.variant.as_str())) }
                        thead { tr {
                            th scope="col" { (t!("web-place")) } th scope="col" { (t!("web-player")) }
                            th scope="col" { (t!("web-rating")) } th scope="col" { (t!("web-games")) }
                        } }
                        tbody { (standing_rows(&b.board.top, &base)) }
                        @if !b.board.provisional.is_empty() {
                            tbody.provisional {
                                tr { th colspan="4" scope="rowgroup" { (t!("web-provisional")) } }
                                (standing_rows(&b.board.provisional, &base))
                            }
                        }
                    }
                    @if b.board.top.is_empty() { p { (t!("web-nobody")) } }
                }
            }
            section {
                h2 { (t!("web-ladders")) }
                @if c.ladders.is_empty() { p { (t!("web-none")) } }
                @for l in &c.ladders {
                    h3 { (t!("web-ladder", variant = l.variant.as_str(), season = l.season)) }
                    ol.ladder {
                        @for (id, name) in &l.standings {
                            li { a href=(format!("{base}/p/{id}")) title=(name) { (short(name)) } }
                        }
                    }
                    @if !l.challenges.is_empty() {
                        h4 { (t!("web-open-challenges")) }
                        ul { @for (a, b, accepted) in &l.challenges {
                            li { (t!("web-challenge", challenger = short(a), challenged = short(b), accepted = if *accepted { "yes" } else { "no" })) }
                        } }
                    }
                }
                @if !c.seasons.is_empty() {
                    h3 { (t!("web-seasons-closed")) }
                    ul.seasons { @for s in &c.seasons {
                        li {
                            (t!("web-season-closed", variant = s.variant.as_str(), season = s.season))
                            @for (i, (id, name)) in s.podium.iter().enumerate() {
                                @if i == 0 { ": " } @else { ", " }
                                (i + 1) ". " a href=(format!("{base}/p/{id}")) title=(name) { (short(name)) }
                            }
                        }
                    } }
                }
                @if c.older_seasons > 0 { p.older { (t!("web-older-seasons", count = c.older_seasons, amount = amount(c.older_seasons))) } }
            }
            section {
                h2 { (t!("web-tournaments")) }
                @if c.tournaments.is_empty() { p { (t!("web-none")) } }
                @for tour in c.tournaments.iter().filter(|t| t.status != "finished") { (tournament(tour, &base)) }
                @match c.more_open_tournaments {
                    LeftOut::Counted(0) => {}
                    LeftOut::Counted(n) => p.older { (t!("web-more-open-tournaments", count = n, amount = amount(n))) },
                    LeftOut::MoreThan(n) => p.older { (t!("web-more-open-tournaments-many", count = amount(n))) },
                }
                @for tour in c.tournaments.iter().filter(|t| t.status == "finished") { (tournament(tour, &base)) }
                @match c.older_tournaments {
                    LeftOut::Counted(0) => {}
                    LeftOut::Counted(n) => p.older { (t!("web-older-tournaments", count = n, amount = amount(n))) },
                    LeftOut::MoreThan(n) => p.older { (t!("web-older-tournaments-many", count = amount(n))) },
                }
            }
            section {
                h2 { (t!("web-recent")) }
                @if c.recent.is_empty() { p { (t!("web-none")) } } @else {
                    table.recent {
                        thead { tr {
                            th scope="col" { (t!("web-game")) } th scope="col" { (t!("web-variant")) }
                            th scope="col" { (t!("web-state")) }
                        } }
                        tbody { @for (slug, white, black, variant, state) in &c.recent {
                            tr {
                                td { a href=(format!("/g/{slug}")) { (short(white)) " – " (short(black)) } }
                                td { (variant) }
                                td { (state) }
                            }
                        } }
                    }
                }
            }
        }
    };
    layout(&title, body)
}

/// A tournament on its community's page: its standings with tie-breaks, crosstable and rounds.
fn tournament(tour: &WebTournament, base: &str) -> Markup {
    html! {
        h3 { (t!("web-tournament", name = short(&tour.name), variant = tour.variant.as_str(), status = tour.status)) }
        table.standings {
            caption { (t!("web-standings")) }
            thead { tr {
                th scope="col" { (t!("web-place")) } th scope="col" { (t!("web-player")) }
                th scope="col" { (t!("web-score")) }
                @for tb in &tour.tiebreaks { th scope="col" { (tb) } }
            } }
            tbody { @for (place, id, name, score, tbs) in &tour.standings {
                @let withdrawn = tour.withdrawn.iter().find(|(p, _)| p == id).map(|&(_, counted)| counted);
                tr {
                    // A withdrawn player is marked as the chat marks them; one whose results do
                    // not count has no place (the chat's "–").
                    td { @if withdrawn == Some(false) { "–" } @else { (place) } }
                    td {
                        a href=(format!("{base}/p/{id}")) title=(name) { (short(name)) }
                        @match withdrawn {
                            Some(true) => { " (" (t!("standings-withdrawn")) ")" }
                            Some(false) => { " (" (t!("standings-void")) ")" }
                            None => {}
                        }
                    }
                    td { (score) }
                    @for v in tbs { td { (v) } }
                }
            } }
        }
        @if tour.standings.len() > 1 {
            table.crosstable {
                caption { (t!("web-crosstable")) }
                thead { tr {
                    th scope="col" { (t!("web-player")) }
                    @for (place, ..) in &tour.standings { th scope="col" { (place) } }
                    @if tour.byes.is_some() { th scope="col" { (t!("crosstable-bye")) } }
                } }
                tbody { @for (i, (row, (place, _, name, ..))) in tour.crosstable.iter().zip(&tour.standings).enumerate() {
                    tr {
                        th scope="row" { (place) ". " (short(name)) }
                        @for cell in row { td { (cell) } }
                        @if let Some(byes) = &tour.byes { td { (byes[i]) } }
                    }
                } }
            }
        }
        @for (i, (pairings, bye)) in tour.rounds.iter().enumerate() {
            h4 { (t!("web-round", number = i + 1)) }
            ul.round {
                @for (white, black, result, slug) in pairings {
                    li {
                        (short(white)) " – " (short(black)) " "
                        @if let Some(s) = slug { a href=(format!("/g/{s}")) { (result) } } @else { (result) }
                    }
                }
                @if let Some(b) = bye { li { (t!("web-bye", name = short(b))) } }
            }
        }
    }
}

/// A player's page in a community.
pub fn player(platform: &str, community: &str, p: &WebPlayer) -> String {
    let base = community_path(platform, community);
    let body = html! {
        main {
            h1 title=(p.name) { (short(&p.name)) }
            section {
                h2 { (t!("web-ratings")) }
                @if p.ratings.is_empty() { p { (t!("web-none")) } } @else {
                    table.ratings {
                        thead { tr {
                            th scope="col" { (t!("web-variant")) } th scope="col" { (t!("web-rating")) }
                            th scope="col" { (t!("web-games")) }
                        } }
                        tbody { @for (variant, rating, record) in &p.ratings {
                            tr { td { (variant) } td { (rating) } td { (record) } }
                        } }
                    }
                }
            }
            @if p.chart.is_some() {
                section {
                    h2 { (t!("web-history")) }
                    img.chart src=(format!("{base}/p/{}/chart", p.id))
                        alt=(t!("web-history-alt", name = short(&p.name), variant = p.ratings.first().map_or("", |r| r.0.as_str())));
                }
            }
            section {
                h2 { (t!("web-recent")) }
                @if p.recent.is_empty() { p { (t!("web-none")) } } @else {
                    table.recent {
                        thead { tr {
                            th scope="col" { (t!("web-opponent")) } th scope="col" { (t!("web-variant")) }
                            th scope="col" { (t!("web-state")) }
                        } }
                        tbody { @for (slug, other, variant, state) in &p.recent {
                            tr {
                                td { a href=(format!("/g/{slug}")) { (short(other)) } }
                                td { (variant) }
                                td { (state) }
                            }
                        } }
                    }
                }
            }
            p.back { a href=(base) { (t!("web-community-title", id = community)) } }
        }
    };
    layout(&short(&p.name), body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{Lang, with_lang};

    /// What a community page leaves out is counted as the page's language groups numbers, alike
    /// when it is counted and when it is "more than" so many (before: "1000 more tournaments" beside
    /// "More than 1,000 older finished tournaments").
    #[test]
    fn a_community_pages_counts_are_grouped_as_its_language_writes_them() {
        let c = WebCommunity {
            platform: "test".into(),
            community: "g".into(),
            boards: vec![],
            ladders: vec![],
            seasons: vec![],
            older_seasons: 1_500,
            tournaments: vec![],
            more_open_tournaments: LeftOut::Counted(1_000),
            older_tournaments: LeftOut::MoreThan(1_000),
            recent: vec![],
        };
        let en = with_lang(Lang::En, || community(&c));
        for said in [
            "1,500 older seasons are not shown.",
            "1,000 more tournaments under way are not shown here",
            "More than 1,000 older finished tournaments are not shown.",
        ] {
            assert!(en.contains(said), "{said}: {en}");
        }
        let de = with_lang(Lang::De, || community(&c));
        assert!(de.contains("1.500 ältere Saisons") && de.contains("1.000 weitere nicht beendete Turniere"), "{de}");
        let tr = with_lang(Lang::Tr, || community(&c));
        assert!(tr.contains("Daha eski 1.500 sezon") && tr.contains("Süren 1.000 turnuva"), "{tr}");
        let one = WebCommunity { older_seasons: 1, older_tournaments: LeftOut::Counted(1), ..c };
        let en = with_lang(Lang::En, || community(&one));
        assert!(en.contains("One older season is not shown.") && en.contains("One older finished tournament"), "{en}");
    }
}

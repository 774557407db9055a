//! Pictures described, drawn later: a reply carries a [`Drawing`] — what its picture shows (a
//! position, a whole game, a leaderboard card, a rating chart) — instead of the picture's bytes. The
//! description is small (a few hundred bytes of JSON) and is stored with the reply in the outbox; the
//! host draws it just before the reply is handed to its front end ([`Reply::draw`]), outside any
//! write transaction. Drawing is a pure function of the description, so a reply delivered after a
//! crash and restart carries the very picture it would have carried before.

use super::io::{PictureFormat, Reply};
use crate::notation::{fen, uci};
use crate::render::arrows::{Arrow, ArrowKind, render_with_arrows};
use crate::render::card::{CardRequest, CardRow, render_card};
use crate::render::chart::{ChartPoint, ChartRequest, render_chart};
use crate::render::course::{CourseMark, CourseRequest, CourseWords, render_course};
use crate::render::{GifRequest, PictureWords, RenderOptions, Theme, render, render_gif};
use crate::rules::{Color, Game, Move, MoveKind, Position, Square, Variant};
use serde::{Deserialize, Serialize};

/// What a reply's picture shows, drawn when the reply is delivered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Drawing {
    /// A board (PNG).
    Board(BoardDrawing),
    /// A whole game, one frame per ply (animated GIF).
    Game(GameDrawing),
    /// A leaderboard card (PNG).
    Card(CardDrawing),
    /// A rating chart (PNG).
    Chart(ChartDrawing),
    /// A game's course in an analysis (PNG).
    Course(CourseDrawing),
    /// A board with arrows (an analysis's turning point; PNG).
    Arrows(ArrowsDrawing),
}

/// Every number a drawing holds is finite (ratings, deviations, times), so equality is reflexive.
impl Eq for Drawing {}

/// A board as one person or a whole chat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardDrawing {
    /// The variant's name (`capatomic`).
    pub variant: String,
    /// The position (pieces, side to move, rights, radiation; never a secret bomb).
    pub fen: String,
    pub last_move: Option<DrawnMove>,
    /// Whose side is at the bottom.
    #[serde(with = "color_name")]
    pub viewer: Color,
    /// The viewer's own secret bomb, marked: only in a picture that goes to that player alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bomb: Option<String>,
    /// Missiles that may launch this turn are marked.
    pub launch_ready: bool,
    pub size: u32,
    pub theme: Theme,
}

/// The last move as a board shows it: its squares, and whether it blasted the squares around its
/// target (a launch or a detonation) rather than tinting its two squares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnMove {
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub blast: bool,
}

/// A whole game as an animation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameDrawing {
    pub variant: String,
    /// The start position (after relocation swaps), without secret bombs.
    pub start_fen: String,
    /// White's and Black's bombs at the start, only where the game detonated them (a blast shows the
    /// bomb to everyone; replaying the detonation needs it). A bomb still secret is never here.
    #[serde(default)]
    pub bombs: [Option<String>; 2],
    /// The moves in coordinate notation, from the start.
    pub moves: Vec<String>,
    pub white: String,
    pub black: String,
    /// Written on the last frame (`1-0 · checkmate`).
    pub result: Option<String>,
    #[serde(with = "color_name")]
    pub viewer: Color,
    pub size: u32,
    pub theme: Theme,
}

/// A leaderboard card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CardDrawing {
    pub title: String,
    pub subtitle: String,
    pub rows: Vec<CardRow>,
    pub provisional: Vec<CardRow>,
    pub me: Option<CardRow>,
    pub theme: Theme,
    pub words: PictureWords,
}

/// A rating chart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChartDrawing {
    pub player: String,
    pub variant: String,
    pub points: Vec<ChartPoint>,
    pub provisional_above: f64,
    pub theme: Theme,
    pub words: PictureWords,
}

/// A game's course: White's winning chances after each ply, the marked moves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CourseDrawing {
    pub white: String,
    pub black: String,
    pub variant: String,
    pub result: String,
    pub chances: Vec<f64>,
    pub marks: Vec<CourseMark>,
    pub theme: Theme,
    pub words: CourseWords,
}

/// A board with arrows on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrowsDrawing {
    pub board: BoardDrawing,
    pub arrows: Vec<DrawnArrow>,
}

/// One arrow: its squares and what it shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawnArrow {
    pub from: String,
    pub to: String,
    pub kind: ArrowKind,
}

/// Why a drawing could not be drawn (a description stored by another version, a bug).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawError(pub String);

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn variant(name: &str) -> Result<&'static Variant, DrawError> {
    Variant::by_name(name).ok_or_else(|| DrawError(format!("unknown variant {name}"))) // i18n: operator
}

fn square(s: &str) -> Result<Square, DrawError> {
    Square::parse(s).ok_or_else(|| DrawError(format!("bad square {s}"))) // i18n: operator
}

/// The options of a still board picture: the bot's size and theme, the viewer's side at the bottom,
/// the last move tinted, launch-ready missiles marked where the variant has missiles, and `bomb_of`'s
/// secret bomb marked (only in a picture for that player alone).
pub fn board_options(
    pos: &Position,
    last_move: Option<Move>,
    viewer: Color,
    bomb_of: Option<Color>,
    size: u32,
    theme: Theme,
) -> RenderOptions {
    RenderOptions {
        show_bomb_of: bomb_of,
        size,
        orientation: viewer,
        theme,
        last_move,
        show_launch_ready: pos.variant().missiles,
        ..RenderOptions::default()
    }
}

impl BoardDrawing {
    /// `pos` seen from `viewer` after `last_move`, with `bomb_of`'s secret bomb marked when given.
    pub fn new(
        pos: &Position,
        last_move: Option<Move>,
        viewer: Color,
        bomb_of: Option<Color>,
        size: u32,
        theme: Theme,
    ) -> BoardDrawing {
        BoardDrawing {
            variant: pos.variant().name.to_string(),
            fen: fen::write(pos),
            last_move: last_move.map(|m| DrawnMove {
                from: m.from.to_string(),
                to: m.to.to_string(),
                blast: matches!(m.kind, MoveKind::Launch | MoveKind::Detonate),
            }),
            viewer,
            bomb: bomb_of.and_then(|c| pos.bomb(c)).map(|s| s.to_string()),
            launch_ready: pos.variant().missiles,
            size,
            theme,
        }
    }

    /// The position described (without any bomb) and the last move's squares (a launch standing for
    /// either kind of blast: only the squares and the blast are drawn, `render::tile_keys`).
    pub fn position(&self) -> Result<(Position, Option<Move>), DrawError> {
        let pos = fen::parse_position(variant(&self.variant)?, &self.fen).map_err(|e| DrawError(e.to_string()))?;
        let last = match &self.last_move {
            Some(m) => {
                let kind = if m.blast { MoveKind::Launch } else { MoveKind::Normal };
                Some(Move { from: square(&m.from)?, to: square(&m.to)?, kind })
            }
            None => None,
        };
        Ok((pos, last))
    }

    /// The position drawn (with the marked bomb, if any), the last move and the options.
    pub fn to_render(&self) -> Result<(Position, RenderOptions), DrawError> {
        let (mut pos, last) = self.position()?;
        let mut bomb_of = None;
        if let Some(b) = &self.bomb {
            let mut bombs = [None; 2];
            bombs[self.viewer.index()] = Some(square(b)?);
            pos = pos.with_bombs(bombs).map_err(|e| DrawError(e.to_string()))?;
            bomb_of = Some(self.viewer);
        }
        let mut opts = board_options(&pos, last, self.viewer, bomb_of, self.size, self.theme);
        opts.show_launch_ready = self.launch_ready;
        Ok((pos, opts))
    }
}

impl GameDrawing {
    /// `game` from its start, seen from `viewer`, the players' names above and below and `result`
    /// on the last frame.
    pub fn new(
        game: &Game,
        white: &str,
        black: &str,
        result: Option<&str>,
        viewer: Color,
        size: u32,
        theme: Theme,
    ) -> GameDrawing {
        let positions = game.positions();
        let mut bombs: [Option<String>; 2] = Default::default();
        let mut moves = Vec::with_capacity(game.moves().len());
        for (pos, &m) in positions.iter().zip(game.moves()) {
            if m.kind == MoveKind::Detonate {
                bombs[pos.turn().index()] = game.start().bomb(pos.turn()).map(|s| s.to_string());
            }
            moves.push(uci::write(pos, m));
        }
        GameDrawing {
            variant: game.start().variant().name.to_string(),
            start_fen: fen::write(game.start()),
            bombs,
            moves,
            white: white.to_string(),
            black: black.to_string(),
            result: result.map(str::to_string),
            viewer,
            size,
            theme,
        }
    }

    /// The game replayed from the description.
    pub fn game(&self) -> Result<Game, DrawError> {
        let start =
            fen::parse_position(variant(&self.variant)?, &self.start_fen).map_err(|e| DrawError(e.to_string()))?;
        let mut bombs = [None; 2];
        for (slot, b) in bombs.iter_mut().zip(&self.bombs) {
            *slot = b.as_deref().map(square).transpose()?;
        }
        let start = start.with_bombs(bombs).map_err(|e| DrawError(e.to_string()))?;
        let mut game = Game::new(start);
        for (ply, text) in self.moves.iter().enumerate() {
            let m = uci::parse(game.position(), text).map_err(|e| DrawError(format!("ply {ply}: {text}: {e}")))?;
            if !game.play(m) {
                return Err(DrawError(format!("ply {ply}: {text} is illegal"))); // i18n: operator
            }
        }
        Ok(game)
    }
}

/// A stored theme's name as a theme: none, or one no longer known, is the default (wood).
pub fn theme_named(name: Option<&str>) -> Theme {
    name.and_then(Theme::by_name).unwrap_or_default()
}

impl Drawing {
    /// Draws the picture in `theme`.
    pub fn set_theme(&mut self, theme: Theme) {
        match self {
            Drawing::Board(d) => d.theme = theme,
            Drawing::Game(d) => d.theme = theme,
            Drawing::Card(d) => d.theme = theme,
            Drawing::Chart(d) => d.theme = theme,
            Drawing::Course(d) => d.theme = theme,
            Drawing::Arrows(d) => d.board.theme = theme,
        }
    }

    /// The picture's format: an animation for a whole game, else a still.
    pub fn format(&self) -> PictureFormat {
        match self {
            Drawing::Game(_) => PictureFormat::Gif,
            Drawing::Board(_) | Drawing::Card(_) | Drawing::Chart(_) | Drawing::Course(_) | Drawing::Arrows(_) => {
                PictureFormat::Png
            }
        }
    }

    /// Draws the picture (CPU work of a millisecond or so for a board, more for a long game: call it
    /// off the async threads).
    pub fn draw(&self) -> Result<Vec<u8>, DrawError> {
        let bytes = match self {
            Drawing::Board(b) => {
                let (pos, opts) = b.to_render()?;
                render(&pos, &opts)
            }
            Drawing::Game(g) => render_gif(&GifRequest {
                game: &g.game()?,
                white: &g.white,
                black: &g.black,
                result: g.result.as_deref(),
                orientation: g.viewer,
                size: g.size,
                theme: g.theme,
            })
            .map_err(|e| DrawError(e.to_string()))?,
            Drawing::Card(c) => render_card(&CardRequest {
                title: &c.title,
                subtitle: &c.subtitle,
                rows: &c.rows,
                provisional: &c.provisional,
                me: c.me.as_ref(),
                theme: c.theme,
                words: &c.words,
            }),
            Drawing::Chart(c) => render_chart(&ChartRequest {
                player: &c.player,
                variant: &c.variant,
                points: &c.points,
                provisional_above: c.provisional_above,
                theme: c.theme,
                words: &c.words,
            }),
            Drawing::Course(c) => render_course(&CourseRequest {
                white: &c.white,
                black: &c.black,
                variant: &c.variant,
                result: &c.result,
                chances: &c.chances,
                marks: &c.marks,
                theme: c.theme,
                words: &c.words,
            }),
            Drawing::Arrows(a) => {
                let (pos, opts) = a.board.to_render()?;
                let mut arrows = Vec::with_capacity(a.arrows.len());
                for d in &a.arrows {
                    arrows.push(Arrow { from: square(&d.from)?, to: square(&d.to)?, kind: d.kind });
                }
                render_with_arrows(&pos, &opts, &arrows)
            }
        };
        if bytes.is_empty() {
            return Err(DrawError("the renderer drew nothing".into())); // i18n: operator
        }
        Ok(bytes)
    }
}

impl Reply {
    /// Whether the reply describes a picture not drawn yet.
    pub fn needs_drawing(&self) -> bool {
        self.drawing.is_some() && self.png.is_none() && self.animation.is_none()
    }

    /// Draws the described picture into the reply ([`Reply::png`] or [`Reply::animation`]); a reply
    /// drawn already, or without a drawing, is left as it is. A picture that cannot be drawn is
    /// logged and left out (the reply still goes out, with its text and alt text), and its
    /// description dropped so nobody tries again.
    pub fn draw(&mut self) {
        if !self.needs_drawing() {
            return;
        }
        let Some(drawing) = &self.drawing else { return };
        match drawing.draw() {
            Ok(bytes) => match drawing.format() {
                PictureFormat::Png => self.png = Some(bytes),
                PictureFormat::Gif => self.animation = Some(bytes),
            },
            Err(e) => {
                tracing::error!("a reply's picture could not be drawn: {e}");
                self.drawing = None;
            }
        }
    }

    /// The reply with its picture drawn (see [`Reply::draw`]).
    pub fn drawn(mut self) -> Reply {
        self.draw();
        self
    }
}

impl super::io::Response {
    /// Draws every reply's described picture (as delivery does; for tests and load runs that call
    /// the core directly).
    pub fn draw(&mut self) {
        self.replies.iter_mut().for_each(Reply::draw);
    }
}

/// A colour as `white` / `black` in stored descriptions.
mod color_name {
    use crate::rules::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if *c == Color::White { "white" } else { "black" })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!("not a colour: {other}"))), // i18n: operator
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::seams::{PICTURE_SIZE, board_png_marking, game_gif};
    use crate::rules::{VARIANTS, variant};

    /// A playout of `plies` plies choosing moves by a fixed rule.
    fn playout(v: &'static Variant, plies: usize) -> Game {
        let mut game = Game::new(Position::start(v));
        for ply in 0..plies {
            let moves = game.position().legal_moves();
            let Some(&m) = moves.get((ply * 7 + 3) % moves.len().max(1)) else { break };
            if !game.play(m) || game.outcome().is_some() {
                break;
            }
        }
        game
    }

    fn round_trip(d: &Drawing) -> Drawing {
        serde_json::from_str(&serde_json::to_string(d).unwrap()).unwrap()
    }

    #[test]
    fn a_described_board_draws_the_bytes_rendered_directly_in_every_variant() {
        for v in VARIANTS {
            let game = playout(v, 30);
            let (pos, last) = (game.position(), game.moves().last().copied());
            for viewer in [Color::White, Color::Black] {
                let d = Drawing::Board(BoardDrawing::new(pos, last, viewer, None, PICTURE_SIZE, Theme::default()));
                let d = round_trip(&d);
                assert_eq!(d.draw().unwrap(), board_png_marking(pos, last, viewer, None).unwrap(), "{}", v.name);
            }
        }
    }

    #[test]
    fn an_analysis_course_and_arrows_draw_what_the_renderer_draws_directly() {
        let words = CourseWords::default();
        let marks = vec![CourseMark { ply: 2, severity: crate::render::course::Severity::Blunder }];
        let chances = vec![50.0, 52.0, 55.0, 0.0, 0.0];
        let d = round_trip(&Drawing::Course(CourseDrawing {
            white: "alice".into(),
            black: "bob".into(),
            variant: "Chess".into(),
            result: "0-1".into(),
            chances: chances.clone(),
            marks: marks.clone(),
            theme: Theme::Green,
            words: words.clone(),
        }));
        let direct = render_course(&CourseRequest {
            white: "alice",
            black: "bob",
            variant: "Chess",
            result: "0-1",
            chances: &chances,
            marks: &marks,
            theme: Theme::Green,
            words: &words,
        });
        assert_eq!(d.draw().unwrap(), direct);
        let pos = Position::start(&variant::CHESS);
        let board = BoardDrawing::new(&pos, None, Color::Black, None, 400, Theme::Wood);
        let arrow = DrawnArrow { from: "g1".into(), to: "f3".into(), kind: ArrowKind::Better };
        let d = round_trip(&Drawing::Arrows(ArrowsDrawing { board: board.clone(), arrows: vec![arrow] }));
        let (p, opts) = board.to_render().unwrap();
        let g1f3 =
            Arrow { from: Square::parse("g1").unwrap(), to: Square::parse("f3").unwrap(), kind: ArrowKind::Better };
        assert_eq!(d.draw().unwrap(), render_with_arrows(&p, &opts, &[g1f3]));
        // A square that is not one is refused, not drawn wrong.
        let bad = DrawnArrow { from: "z9".into(), to: "f3".into(), kind: ArrowKind::Played };
        assert!(Drawing::Arrows(ArrowsDrawing { board, arrows: vec![bad] }).draw().is_err());
    }

    #[test]
    fn a_launch_and_a_detonation_draw_their_blast() {
        // Capatomic: play until a launch happens.
        let mut game = Game::new(Position::start(&variant::CAPATOMIC));
        for ply in 0..200 {
            let moves = game.position().legal_moves();
            let launch = moves.iter().copied().find(|m| m.is_launch());
            let m = launch.unwrap_or(moves[(ply * 5 + 1) % moves.len()]);
            assert!(game.play(m));
            if launch.is_some() {
                break;
            }
        }
        let last = game.moves().last().copied();
        assert!(last.is_some_and(|m| m.is_launch()), "a launch was played");
        let d = BoardDrawing::new(game.position(), last, Color::White, None, 400, Theme::Green);
        assert!(d.last_move.as_ref().is_some_and(|m| m.blast));
        let direct =
            render(game.position(), &board_options(game.position(), last, Color::White, None, 400, Theme::Green));
        assert_eq!(Drawing::Board(d).draw().unwrap(), direct);
    }

    #[test]
    fn a_secret_bomb_is_marked_only_for_its_owner_and_described_only_then() {
        let (b1, g8) = (Square::parse("b1").unwrap(), Square::parse("g8").unwrap());
        let pos = Position::start(&variant::BOMB).with_bombs([Some(b1), Some(g8)]).unwrap();
        let public = BoardDrawing::new(&pos, None, Color::White, None, PICTURE_SIZE, Theme::default());
        assert_eq!(public.bomb, None);
        let json = serde_json::to_string(&Drawing::Board(public.clone())).unwrap();
        assert!(!json.contains("b1") && !json.contains("g8") && !json.contains("\"bomb\":"), "{json}");
        let own = BoardDrawing::new(&pos, None, Color::Black, Some(Color::Black), PICTURE_SIZE, Theme::default());
        assert_eq!(own.bomb.as_deref(), Some("g8"), "Black's own, not White's");
        let own = round_trip(&Drawing::Board(own));
        assert_eq!(own.draw().unwrap(), board_png_marking(&pos, None, Color::Black, Some(Color::Black)).unwrap());
        assert_ne!(own.draw().unwrap(), board_png_marking(&pos, None, Color::Black, None).unwrap());
    }

    #[test]
    fn a_described_game_draws_the_animation_rendered_directly() {
        for v in [&variant::CAPATOMIC, &variant::CHESS, &variant::CAPARELOCATION] {
            let game = playout(v, 12);
            let d = GameDrawing::new(
                &game,
                "alice",
                "bob",
                Some("1-0 · test"),
                Color::Black,
                PICTURE_SIZE,
                Theme::default(),
            );
            let d = round_trip(&Drawing::Game(d));
            assert_eq!(d.format(), PictureFormat::Gif);
            let direct = game_gif(&game, "alice", "bob", Some("1-0 · test"), Color::Black).unwrap();
            assert_eq!(d.draw().unwrap(), direct, "{}", v.name);
        }
    }

    #[test]
    fn a_described_game_keeps_an_undetonated_bomb_secret_and_replays_a_detonation() {
        let (b1, g8) = (Square::parse("b1").unwrap(), Square::parse("g8").unwrap());
        let start = Position::start(&variant::BOMB).with_bombs([Some(b1), Some(g8)]).unwrap();
        let mut game = Game::new(start);
        let e4 = game.position().legal_moves().into_iter().find(|m| m.to == Square::parse("e4").unwrap()).unwrap();
        assert!(game.play(e4));
        assert!(game.play(Move::detonate(g8)), "Black detonates");
        let d = GameDrawing::new(&game, "a", "b", None, Color::White, PICTURE_SIZE, Theme::default());
        assert_eq!(d.bombs, [None, Some("g8".to_string())], "White's bomb stays secret");
        let direct = game_gif(&game, "a", "b", None, Color::White).unwrap();
        assert_eq!(round_trip(&Drawing::Game(d)).draw().unwrap(), direct);
    }

    #[test]
    fn a_reply_is_drawn_once_and_a_bad_description_is_dropped() {
        let pos = Position::start(&variant::CHESS);
        let mut r = Reply::new(crate::bot::Target::Chat(crate::bot::Scope::chat("t", "c")), "x");
        r.drawing = Some(Drawing::Board(BoardDrawing::new(&pos, None, Color::White, None, 200, Theme::default())));
        assert!(r.needs_drawing() && r.picture().is_none());
        r.draw();
        assert!(!r.needs_drawing());
        assert!(r.picture().is_some_and(|(f, b)| f == PictureFormat::Png && b.starts_with(b"\x89PNG")));
        let mut bad = Reply::new(crate::bot::Target::Chat(crate::bot::Scope::chat("t", "c")), "x");
        let mut board = BoardDrawing::new(&pos, None, Color::White, None, 200, Theme::default());
        board.fen = "not a fen".into();
        bad.drawing = Some(Drawing::Board(board));
        bad.draw();
        assert!(bad.drawing.is_none() && bad.picture().is_none(), "left out, not tried again");
    }
}

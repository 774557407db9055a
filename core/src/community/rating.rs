//! Glicko-2 ratings with lichess's conventions, rated one game at a time.
//!
//! The arithmetic is the `skillratings` crate's; this module only chooses the parameters and adds
//! what a chat bot needs around it:
//!
//! - new players start at 1500 with a deviation (RD) of 500 and a volatility of 0.09, τ = 0.75;
//! - a rating is *provisional* ("1500?") while its RD is above [`PROVISIONAL_DEVIATION`] (110);
//! - RD grows while a player does not play: before a game, each whole [`RATING_PERIOD_SECS`] (five
//!   days, close to lichess's 0.21436 rating periods per day) since the player's last game applies
//!   one Glicko-2 rating period without games, up to [`MAX_DEVIATION`] (500);
//! - RD never falls below [`MIN_DEVIATION`] (45) and volatility stays at most [`MAX_VOLATILITY`],
//!   so that a long streak of games cannot freeze a rating.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2};
use std::fmt;

/// Rating of a new player.
pub const START_RATING: f64 = 1500.0;
/// Rating deviation of a new player, and the most it can grow to.
pub const MAX_DEVIATION: f64 = 500.0;
/// The least rating deviation (lichess's floor).
pub const MIN_DEVIATION: f64 = 45.0;
/// Volatility of a new player.
pub const START_VOLATILITY: f64 = 0.09;
/// The most volatility can grow to.
pub const MAX_VOLATILITY: f64 = 0.1;
/// Glicko-2's τ: how much volatility may change per game.
pub const TAU: f64 = 0.75;
/// A rating whose deviation is above this is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Glicko-2's scale: a rating's deviation on the familiar scale is this times Glicko-2's φ.
pub const GLICKO2_SCALE: f64 = 173.7178;
/// The idle periods after which a rating that is still established is taken to stay so for ever
/// ([`Rating::provisional_from`]): 100,000 periods of five days are over a thousand years.
pub const MAX_IDLE_PERIODS: i64 = 100_000;
/// Length of one rating period, in seconds: an idle player's RD grows once per whole period.
pub const RATING_PERIOD_SECS: i64 = 5 * 24 * 60 * 60;

/// A Glicko-2 rating on the familiar scale (1500 = a new player).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// Rating deviation (RD): the uncertainty of `rating`, about one standard deviation.
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::new()
    }
}

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The same result seen from the opponent's side.
    pub fn flip(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

impl Rating {
    /// The rating of a new player: 1500, RD 500, volatility 0.09.
    pub const fn new() -> Rating {
        Rating { rating: START_RATING, deviation: MAX_DEVIATION, volatility: START_VOLATILITY }
    }

    /// True while the deviation is above [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating as shown to users: rounded, with "?" when provisional ("1523", "1500?").
    pub fn display(&self) -> String {
        self.to_string()
    }

    /// This rating after `periods` rating periods without games: RD grows, capped at
    /// [`MAX_DEVIATION`]; rating and volatility stay.
    pub fn after_idle_periods(self, periods: u64) -> Rating {
        let mut r = self;
        for _ in 0..periods {
            if r.deviation >= MAX_DEVIATION {
                break;
            }
            // skillratings clamps a decayed RD at Glickman's 350, below our cap of 500. Its decay
            // is sqrt(φ² + σ²), which scales linearly, so it is applied at half scale and doubled.
            let half = Glicko2Rating { rating: r.rating, deviation: r.deviation / 2.0, volatility: r.volatility / 2.0 };
            r.deviation = (decay_deviation(&half).deviation * 2.0).min(MAX_DEVIATION);
        }
        r
    }

    /// The first time at which this rating, left alone after a last rated game at `last_game_at`,
    /// is provisional ([`Rating::at`] at that time and after is, before it is not): `i64::MIN`
    /// when it is provisional already, `i64::MAX` when it never becomes so (no game yet, or not
    /// within [`MAX_IDLE_PERIODS`]). Stored with each rating so that the established players at a
    /// time are an index range (`ratings.provisional_at`, migration 15, which computes it in SQL
    /// the same way).
    ///
    /// Each idle period makes the deviation `hypot(deviation, GLICKO2_SCALE × volatility)` (see
    /// [`Rating::after_idle_periods`]), so after k periods its square is deviation² +
    /// k·(GLICKO2_SCALE × volatility)²: provisional from the smallest k with that above
    /// [`PROVISIONAL_DEVIATION`]².
    pub fn provisional_from(self, last_game_at: Option<i64>) -> i64 {
        if self.is_provisional() {
            return i64::MIN;
        }
        let Some(last) = last_game_at else {
            return i64::MAX;
        };
        let step = GLICKO2_SCALE * self.volatility;
        let idle = (PROVISIONAL_DEVIATION * PROVISIONAL_DEVIATION - self.deviation * self.deviation) / (step * step);
        if idle.is_nan() || idle >= MAX_IDLE_PERIODS as f64 {
            return i64::MAX;
        }
        let periods = idle as i64 + 1;
        last.saturating_add(periods * RATING_PERIOD_SECS)
    }

    /// This rating at time `now` for a player whose last rated game was at `last_game_at`
    /// (Unix seconds; `None` for no game yet, which leaves the rating as it is).
    pub fn at(self, last_game_at: Option<i64>, now: i64) -> Rating {
        match last_game_at {
            Some(last) if now > last => self.after_idle_periods(((now - last) / RATING_PERIOD_SECS) as u64),
            _ => self,
        }
    }

    fn to_glicko2(self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    fn from_glicko2(g: Glicko2Rating) -> Rating {
        Rating {
            rating: g.rating,
            deviation: g.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: g.volatility.min(MAX_VOLATILITY),
        }
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rating.round() as i64, if self.is_provisional() { "?" } else { "" })
    }
}

/// One side of a game to be rated: the rating as stored and when the player last played a rated game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Side {
    pub rating: Rating,
    pub last_game_at: Option<i64>,
}

/// Rates one game between `a` and `b` played at `at` (Unix seconds), `score` being `a`'s result.
/// Each player's RD first grows for the time they were idle; returns the new ratings of `a` and `b`.
///
/// ```
/// use capabot::community::rating::{Rating, Score, Side, rate_game};
/// let new = Side { rating: Rating::new(), last_game_at: None };
/// let (a, b) = rate_game(new, new, Score::Win, 0);
/// assert!(a.rating > 1500.0 && b.rating < 1500.0);
/// ```
pub fn rate_game(a: Side, b: Side, score: Score, at: i64) -> (Rating, Rating) {
    let config = Glicko2Config { tau: TAU, ..Glicko2Config::new() };
    let ra = a.rating.at(a.last_game_at, at).to_glicko2();
    let rb = b.rating.at(b.last_game_at, at).to_glicko2();
    let (na, nb) = glicko2(&ra, &rb, &score.outcome(), &config);
    (Rating::from_glicko2(na), Rating::from_glicko2(nb))
}

/// A rating change as shown in chat: "alice 1523 → 1541 (+18)".
pub fn change_line(name: &str, before: Rating, after: Rating) -> String {
    let diff = after.rating.round() as i64 - before.rating.round() as i64;
    format!("{name} {before} → {after} ({diff:+})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    const DAY: i64 = 24 * 60 * 60;

    fn side(rating: f64, deviation: f64) -> Side {
        Side { rating: Rating { rating, deviation, volatility: START_VOLATILITY }, last_game_at: None }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system"), through skillratings with his
    /// parameters: τ 0.5, volatility 0.06, one rating period with three games.
    #[test]
    fn glickman_worked_example() {
        let config = Glicko2Config { tau: 0.5, ..Glicko2Config::new() };
        let player = Glicko2Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opp = |r, d| Glicko2Rating { rating: r, deviation: d, volatility: 0.06 };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let new = glicko2_rating_period(&player, &results, &config);
        assert!((new.rating - 1464.06).abs() < 0.05, "{new:?}");
        assert!((new.deviation - 151.52).abs() < 0.05, "{new:?}");
        assert!((new.volatility - 0.05999).abs() < 0.0001, "{new:?}");
    }

    #[test]
    fn results_are_symmetric() {
        let (a, b) = (side(1600.0, 80.0), side(1450.0, 120.0));
        for score in [Score::Win, Score::Draw, Score::Loss] {
            let (na, nb) = rate_game(a, b, score, 0);
            let (nb2, na2) = rate_game(b, a, score.flip(), 0);
            assert_eq!((na, nb), (na2, nb2), "{score:?}");
        }
        // Equal players drawing stay where they are; a win moves both by the same amount.
        let (x, y) = rate_game(side(1500.0, 100.0), side(1500.0, 100.0), Score::Draw, 0);
        assert!((x.rating - 1500.0).abs() < 1e-9 && (y.rating - 1500.0).abs() < 1e-9);
        let (w, l) = rate_game(side(1500.0, 100.0), side(1500.0, 100.0), Score::Win, 0);
        assert!(((w.rating - 1500.0) - (1500.0 - l.rating)).abs() < 1e-9);
        assert!(w.rating > 1500.0);
    }

    #[test]
    fn new_players_move_a_lot_and_stay_provisional() {
        let new = Side { rating: Rating::new(), last_game_at: None };
        let (a, b) = rate_game(new, new, Score::Win, 0);
        assert!(a.rating > 1650.0 && b.rating < 1350.0, "{a:?} {b:?}");
        assert!(a.deviation < MAX_DEVIATION && a.is_provisional());
    }

    #[test]
    fn deviation_grows_with_inactivity_up_to_the_cap() {
        let r = Rating { rating: 1700.0, deviation: 60.0, volatility: 0.06 };
        assert_eq!(r.at(Some(0), RATING_PERIOD_SECS - 1), r, "less than one period changes nothing");
        assert_eq!(r.at(None, 1000 * DAY), r, "no game yet: nothing to decay from");
        let month = r.at(Some(0), 30 * DAY);
        let year = r.at(Some(0), 365 * DAY);
        assert!(month.deviation > r.deviation && year.deviation > month.deviation, "{month:?} {year:?}");
        assert_eq!(year.rating, 1700.0);
        let forever = r.at(Some(0), 100 * 365 * DAY);
        assert_eq!(forever.deviation, MAX_DEVIATION);
        // Above Glickman's 350 the decay still grows (skillratings alone would clamp it to 350).
        let high = Rating { deviation: 400.0, ..r }.after_idle_periods(1);
        assert!(high.deviation > 400.0, "{high:?}");
        // The idle time counts when the game is rated.
        let fresh = Side { rating: r, last_game_at: Some(365 * DAY) };
        let idle = Side { rating: r, last_game_at: Some(0) };
        let opp = side(1700.0, 60.0);
        let (after_fresh, _) = rate_game(fresh, opp, Score::Win, 365 * DAY);
        let (after_idle, _) = rate_game(idle, opp, Score::Win, 365 * DAY);
        assert!(after_idle.rating - 1700.0 > after_fresh.rating - 1700.0);
    }

    /// The time `provisional_from` computes is where `at` turns provisional, for ratings across
    /// the range play gives (deviation 45 to 110, volatility 0.01 to 0.1), and the edges.
    #[test]
    fn provisional_from_is_where_the_decayed_rating_turns_provisional() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(45);
        let last = 1_000_000;
        for _ in 0..2_000 {
            let r = Rating {
                rating: 1500.0,
                deviation: rng.random_range(MIN_DEVIATION..=PROVISIONAL_DEVIATION),
                volatility: rng.random_range(0.01..=MAX_VOLATILITY),
            };
            let from = r.provisional_from(Some(last));
            assert!(from > last && from < i64::MAX, "{r:?}: {from}");
            assert!(!r.at(Some(last), from - 1).is_provisional(), "{r:?}: provisional before {from}");
            assert!(r.at(Some(last), from).is_provisional(), "{r:?}: not provisional at {from}");
        }
        let exactly = Rating { rating: 1500.0, deviation: PROVISIONAL_DEVIATION, volatility: 0.06 };
        assert_eq!(exactly.provisional_from(Some(last)), last + RATING_PERIOD_SECS);
        assert_eq!(Rating::new().provisional_from(Some(last)), i64::MIN);
        let settled = Rating { rating: 1500.0, deviation: 60.0, volatility: 0.06 };
        assert_eq!(settled.provisional_from(None), i64::MAX, "no game: `at` never decays it");
        let frozen = Rating { volatility: 1e-6, ..settled };
        assert_eq!(frozen.provisional_from(Some(last)), i64::MAX);
    }

    #[test]
    fn provisional_threshold_and_display() {
        let r = |deviation| Rating { rating: 1523.4, deviation, volatility: 0.06 };
        assert!(!r(110.0).is_provisional());
        assert!(r(110.01).is_provisional());
        assert_eq!(r(60.0).display(), "1523");
        assert_eq!(Rating::new().display(), "1500?");
        let line = change_line("alice", r(60.0), Rating { rating: 1541.2, ..r(59.0) });
        assert_eq!(line, "alice 1523 → 1541 (+18)");
        assert_eq!(change_line("bob", r(60.0), Rating { rating: 1500.0, ..r(60.0) }), "bob 1523 → 1500 (-23)");
        assert_eq!(change_line("c", r(60.0), r(60.0)), "c 1523 → 1523 (+0)");
    }

    #[test]
    fn bounds_hold_over_many_games() {
        let mut a = side(1500.0, 500.0);
        let b = side(1500.0, 50.0);
        for i in 0..300 {
            let (na, _) = rate_game(a, b, if i % 3 == 0 { Score::Loss } else { Score::Win }, i * DAY);
            a = Side { rating: na, last_game_at: Some(i * DAY) };
            assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&na.deviation));
            assert!(na.volatility <= MAX_VOLATILITY && na.rating.is_finite());
        }
        assert!(!a.rating.is_provisional());
    }
}

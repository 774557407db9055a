//! Tournaments: registration, seeds, and the rounds with their pairings and results.
//!
//! A round robin is scheduled whole when it starts (all its games may be played at once, as is
//! usual in correspondence play); a Swiss gets its first round at the start and each next round
//! from [`pair_next`] once the previous one is over. Pairing rules are in
//! [`crate::community::roundrobin`] and [`crate::community::swiss`]. Each change runs in one
//! immediate transaction.

use super::{Result, StoreError};
use crate::community::PlayerId;
use crate::community::roundrobin::berger;
use crate::community::swiss::{Swiss, SwissError};
use crate::community::tiebreak::{Scoring, Standing, standings_voiding};
use crate::community::tournament::{Game, Outcome, Round};
use crate::store::sql::{Connection, OptionalExtension, Row, params, query_by_ids};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Tournament id (the `tournaments.id` column).
pub type TournamentId = i64;

/// How a tournament is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    RoundRobin,
    DoubleRoundRobin,
    Swiss { rounds: usize },
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Registration,
    Running,
    Finished,
}

/// A tournament's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentInfo {
    pub id: TournamentId,
    pub platform: String,
    pub community_id: String,
    pub name: String,
    pub variant: String,
    pub system: System,
    pub days_per_move: u32,
    pub status: Status,
    /// The chat (and thread) it was created in, where pairings and standings go.
    pub chat_id: Option<String>,
    pub thread_id: Option<String>,
    /// When registration closes by itself (the scheduler then starts it).
    pub signup_until: Option<i64>,
    /// The last round whose pairings were announced, and whether the final standings were.
    pub announced_round: usize,
    pub announced_end: bool,
}

/// A tournament with its players (seed order) and rounds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    pub info: TournamentInfo,
    pub players: Vec<PlayerId>,
    pub rounds: Vec<Round>,
    /// The players who withdrew, in seed order.
    pub withdrawn: Vec<Withdrawal>,
    /// The boards `(round, board)` won before both sides moved: forfeits, written `+` and `−` in
    /// the crosstable (a resignation or a loss on time at once, or a withdrawal's game).
    pub forfeits: Forfeits,
}

/// A player's withdrawal from a running tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Withdrawal {
    pub player: PlayerId,
    pub at: i64,
    /// Their results are not counted (a round robin left before half their games were completed).
    pub void: bool,
}

impl Tournament {
    /// How this tournament's system scores byes and breaks ties.
    pub fn scoring(&self) -> Scoring {
        match self.info.system {
            System::Swiss { .. } => Scoring::SWISS,
            _ => Scoring::ROUND_ROBIN,
        }
    }

    /// The standings so far (a withdrawn player whose results are void last, nothing counted).
    pub fn standings(&self) -> Vec<Standing> {
        let void: Vec<PlayerId> = self.withdrawn.iter().filter(|w| w.void).map(|w| w.player).collect();
        standings_voiding(&self.players, &self.rounds, &self.scoring(), &void)
    }

    /// The withdrawal of `p`, if they withdrew.
    pub fn withdrawal_of(&self, p: PlayerId) -> Option<&Withdrawal> {
        self.withdrawn.iter().find(|w| w.player == p)
    }

    /// The crosstable of the players in `order`: each cell what the row's player scored against the
    /// column's (`1`, `½`, `0`; `+` and `−` for a game decided before both sides moved; `·` not
    /// over yet; empty against oneself), several games joined with spaces.
    pub fn crosstable(&self, order: &[PlayerId]) -> Vec<Vec<String>> {
        let cell = |row: PlayerId, col: PlayerId| -> String {
            if row == col {
                return String::new();
            }
            let mut cells = Vec::new();
            for (r, round) in self.rounds.iter().enumerate() {
                let Some((b, g)) = round.games.iter().enumerate().find(|(_, g)| g.opponent_of(row) == Some(col)) else {
                    continue;
                };
                cells.push(match g.outcome {
                    None => "·".to_string(),
                    Some(_) if self.forfeits.contains(&(r + 1, b + 1)) => {
                        if g.points_of(row) == crate::community::tournament::Points::WIN { "+" } else { "−" }
                            .to_string()
                    }
                    Some(_) => g.points_of(row).to_string(),
                });
            }
            cells.join(" ")
        };
        order.iter().map(|&row| order.iter().map(|&col| cell(row, col)).collect()).collect()
    }

    /// The crosstable's bye column for the players in `order`: what each bye scored them (`1`,
    /// several joined with spaces; empty for none), so that a row adds up to its points; `None`
    /// where no bye scores (a round robin's rest is no point) or none was given.
    pub fn bye_cells(&self, order: &[PlayerId]) -> Option<Vec<String>> {
        let bye = self.scoring().bye;
        if bye == crate::community::tournament::Points::ZERO || self.rounds.iter().all(|r| r.bye.is_none()) {
            return None;
        }
        let cell = |p: PlayerId| {
            let byes = self.rounds.iter().filter(|r| r.bye == Some(p)).map(|_| bye.to_string());
            byes.collect::<Vec<_>>().join(" ")
        };
        Some(order.iter().map(|&p| cell(p)).collect())
    }
}

/// Why a tournament operation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentError {
    UnknownTournament,
    /// Registration has closed.
    NotRegistering,
    AlreadyRegistered,
    NotRegistered,
    TooFewPlayers,
    /// Given seeds are not exactly the registered players.
    SeedsMismatch,
    NotRunning,
    /// The player has withdrawn already.
    AlreadyWithdrawn,
    /// A round robin has all its rounds from the start.
    NothingToPair,
    UnknownBoard {
        round: usize,
        board: usize,
    },
    AlreadyDecided {
        round: usize,
        board: usize,
    },
    Swiss(SwissError),
}

impl TournamentError {
    /// What the person is told, by message id.
    pub fn msg(&self) -> crate::i18n::Msg {
        use crate::msg;
        match self {
            TournamentError::UnknownTournament => msg!("tournament-unknown"),
            TournamentError::NotRegistering => msg!("tournament-not-registering"),
            TournamentError::AlreadyRegistered => msg!("tournament-already-registered"),
            TournamentError::NotRegistered => msg!("tournament-not-registered"),
            TournamentError::TooFewPlayers => msg!("tournament-too-few"),
            TournamentError::SeedsMismatch => msg!("tournament-seeds-mismatch"),
            TournamentError::NotRunning => msg!("tournament-not-running"),
            TournamentError::AlreadyWithdrawn => msg!("tournament-already-withdrawn"),
            TournamentError::NothingToPair => msg!("tournament-nothing-to-pair"),
            TournamentError::UnknownBoard { round, board } => {
                msg!("tournament-unknown-board", round = *round, board = *board)
            }
            TournamentError::AlreadyDecided { round, board } => {
                msg!("tournament-already-decided", round = *round, board = *board)
            }
            TournamentError::Swiss(e) => e.msg(),
        }
    }
}

impl fmt::Display for TournamentError {
    /// In English (logs); people read [`TournamentError::msg`] in their language.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.msg())
    }
}

impl std::error::Error for TournamentError {}

type Answer<T> = std::result::Result<T, TournamentError>;

fn system_to_db(s: System) -> (&'static str, Option<usize>) {
    match s {
        System::RoundRobin => ("roundrobin", None),
        System::DoubleRoundRobin => ("double_roundrobin", None),
        // Zero rounds: to be set at the start, from the number of players.
        System::Swiss { rounds: 0 } => ("swiss", None),
        System::Swiss { rounds } => ("swiss", Some(rounds)),
    }
}

fn info_from(r: &Row<'_>) -> crate::store::sql::Result<(TournamentInfo, String, Option<usize>, String)> {
    let info = TournamentInfo {
        id: r.get(0)?,
        platform: r.get(1)?,
        community_id: r.get(2)?,
        name: r.get(3)?,
        variant: r.get(4)?,
        system: System::RoundRobin,
        days_per_move: r.get(7)?,
        status: Status::Registration,
        chat_id: r.get(9)?,
        thread_id: r.get(10)?,
        signup_until: r.get(11)?,
        announced_round: r.get(12)?,
        announced_end: r.get(13)?,
    };
    Ok((info, r.get(5)?, r.get(6)?, r.get(8)?))
}

fn decode(row: (TournamentInfo, String, Option<usize>, String)) -> Result<TournamentInfo> {
    let (info, system, rounds, status) = row;
    let system = match (system.as_str(), rounds) {
        ("roundrobin", _) => System::RoundRobin,
        ("double_roundrobin", _) => System::DoubleRoundRobin,
        ("swiss", rounds) => System::Swiss { rounds: rounds.unwrap_or(0) },
        _ => return Err(StoreError::Corrupt(format!("tournament {} has system {system:?}", info.id))),
    };
    let status = match status.as_str() {
        "registration" => Status::Registration,
        "running" => Status::Running,
        "finished" => Status::Finished,
        _ => return Err(StoreError::Corrupt(format!("tournament {} has status {status:?}", info.id))),
    };
    Ok(TournamentInfo { system, status, ..info })
}

const INFO: &str = "SELECT id, platform, community_id, name, variant, system, rounds, days_per_move, status, chat_id,
                           thread_id, signup_until, announced_round, announced_end FROM tournaments";

/// Creates a tournament open for registration.
#[allow(clippy::too_many_arguments)]
pub fn create(
    conn: &Connection,
    platform: &str,
    community_id: &str,
    name: &str,
    variant: &str,
    system: System,
    days_per_move: u32,
    created_by: Option<PlayerId>,
    now: i64,
) -> Result<TournamentId> {
    let (system, rounds) = system_to_db(system);
    Ok(conn.query_row(
        "INSERT INTO tournaments (platform, community_id, name, variant, system, rounds, days_per_move, status,
                                  created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'registration', ?8, ?9) RETURNING id",
        params![platform, community_id, name, variant, system, rounds, days_per_move, created_by, now],
        |r| r.get(0),
    )?)
}

/// A tournament's row.
pub fn info(conn: &Connection, id: TournamentId) -> Result<Option<TournamentInfo>> {
    conn.query_row(&format!("{INFO} WHERE id = ?1"), [id], info_from).optional()?.map(decode).transpose()
}

/// A community's tournaments, newest first.
pub fn list(conn: &Connection, platform: &str, community_id: &str) -> Result<Vec<TournamentInfo>> {
    let mut st = conn.prepare_cached(&format!("{INFO} WHERE platform = ?1 AND community_id = ?2 ORDER BY id DESC"))?;
    let rows = st.query_map(params![platform, community_id], info_from)?;
    rows.map(|r| decode(r?)).collect()
}

/// A community's tournaments not finished (registering or running), the newest first, at most
/// `most`: each status read from the newest down on `tournaments_community` (migration 33),
/// `most` rows at most each.
pub fn open_in(conn: &Connection, platform: &str, community_id: &str, most: usize) -> Result<Vec<TournamentInfo>> {
    let mut st = conn.prepare_cached(&open_in_sql())?;
    let rows = st.query_map(params![platform, community_id, most as i64], info_from)?;
    rows.map(|r| decode(r?)).collect()
}

fn open_in_sql() -> String {
    let newest = |status: &str| {
        format!("{INFO} WHERE platform = ?1 AND community_id = ?2 AND status = '{status}' {NEWEST_FIRST}")
    };
    format!(
        "SELECT * FROM (SELECT * FROM ({}) AS registering UNION ALL SELECT * FROM ({}) AS running) AS open
         ORDER BY id DESC LIMIT ?3",
        newest("registration"),
        newest("running")
    )
}

const NEWEST_FIRST: &str = "ORDER BY id DESC LIMIT ?3";

/// A community's finished tournaments, the last first, at most `most`: read from the newest down
/// on `tournaments_community` (migration 33), `most` rows at most.
pub fn finished_in(conn: &Connection, platform: &str, community_id: &str, most: usize) -> Result<Vec<TournamentInfo>> {
    let mut st = conn.prepare_cached(&finished_in_sql())?;
    let rows = st.query_map(params![platform, community_id, most as i64], info_from)?;
    rows.map(|r| decode(r?)).collect()
}

fn finished_in_sql() -> String {
    format!("{INFO} WHERE platform = ?1 AND community_id = ?2 AND status = 'finished' {NEWEST_FIRST}")
}

/// How many tournaments a community has not finished, and finished, each counted up to `most`:
/// on `tournaments_community`'s entries, no row read, `most` entries at most each.
pub fn counted_in(conn: &Connection, platform: &str, community_id: &str, most: usize) -> Result<(usize, usize)> {
    let mut st = conn.prepare_cached(COUNTED_IN)?;
    let (open, finished) =
        st.query_row(params![platform, community_id, most as i64], |r| Ok((r.get::<i64>(0)?, r.get::<i64>(1)?)))?;
    Ok((open as usize, finished as usize))
}

const COUNTED_IN: &str = "SELECT
     (SELECT count(*) FROM (SELECT 1 FROM tournaments WHERE platform = ?1 AND community_id = ?2
         AND status IN ('registration', 'running') LIMIT ?3) AS open),
     (SELECT count(*) FROM (SELECT 1 FROM tournaments WHERE platform = ?1 AND community_id = ?2
         AND status = 'finished' LIMIT ?3) AS finished)";

/// A tournament with its players and rounds.
pub fn load(conn: &Connection, id: TournamentId) -> Result<Option<Tournament>> {
    let Some(info) = info(conn, id)? else { return Ok(None) };
    Ok(with_rounds(conn, vec![info])?.pop().map(|(t, _)| t))
}

/// The boards `(round, board)` won before both sides moved ([`Tournament::forfeits`]).
pub type Forfeits = HashSet<(usize, usize)>;

/// The games of a tournament's boards as [`with_rounds`] gives them: `(round, board, game)` by
/// round and board, the game once started.
pub type Boards = Vec<(usize, usize, Option<i64>)>;

/// The tournaments of `infos` with their players and rounds, and the games of their boards, in
/// that order: two statements however many they are (an `IN` list of their ids, at most
/// [`IN_LIST_MAX`](crate::store::sql::IN_LIST_MAX) a statement).
pub fn with_rounds(conn: &Connection, infos: Vec<TournamentInfo>) -> Result<Vec<(Tournament, Boards)>> {
    let ids: Vec<TournamentId> = infos.iter().map(|i| i.id).collect();
    let mut players: HashMap<TournamentId, (Vec<PlayerId>, Vec<Withdrawal>)> = HashMap::new();
    let sql = |list: &str| {
        format!(
            "SELECT tournament_id, player_id, withdrawn_at, results_void FROM tournament_players
             WHERE tournament_id IN ({list}) ORDER BY seed"
        )
    };
    let read = query_by_ids(conn, &ids, sql, |r| {
        Ok((r.get::<TournamentId>(0)?, r.get::<PlayerId>(1)?, r.get::<Option<i64>>(2)?, r.get::<bool>(3)?))
    })?;
    for (t, player, withdrawn_at, void) in read {
        let (list, withdrawn) = players.entry(t).or_default();
        list.push(player);
        withdrawn.extend(withdrawn_at.map(|at| Withdrawal { player, at, void }));
    }
    // A board's game's ply, to tell the results reached before both sides moved (forfeits).
    let sql = |list: &str| {
        format!(
            "SELECT t.tournament_id, t.round, t.board, t.white_id, t.black_id, t.result, t.game_id, g.ply
             FROM tournament_games t LEFT JOIN games g ON g.id = t.game_id
             WHERE t.tournament_id IN ({list}) ORDER BY t.round, t.board"
        )
    };
    let games = query_by_ids(conn, &ids, sql, |r| {
        let at = (r.get::<TournamentId>(0)?, r.get::<usize>(1)?, r.get::<usize>(2)?);
        let ply = r.get::<Option<i64>>(7)?;
        Ok((at, r.get::<PlayerId>(3)?, r.get::<Option<PlayerId>>(4)?, r.get::<Option<String>>(5)?, r.get(6)?, ply))
    })?;
    let mut rounds: HashMap<TournamentId, (Vec<Round>, Boards, Forfeits)> = HashMap::new();
    for ((t, round, board), white, black, result, game, ply) in games {
        let (rounds, boards, forfeits) = rounds.entry(t).or_default();
        // A draw agreed at once is a draw: only a decisive result can be a forfeit.
        if result.as_deref().is_some_and(|r| r != "1/2-1/2") && ply.is_some_and(|p| p < 2) {
            forfeits.insert((round, board));
        }
        while rounds.len() < round {
            rounds.push(Round::default());
        }
        let r = &mut rounds[round - 1];
        match black {
            None => r.bye = Some(white),
            Some(black) => {
                let outcome = match result.as_deref() {
                    None => None,
                    Some("1-0") => Some(Outcome::WhiteWins),
                    Some("0-1") => Some(Outcome::BlackWins),
                    Some("1/2-1/2") => Some(Outcome::Draw),
                    Some(x) => return Err(StoreError::Corrupt(format!("tournament result {x:?}"))),
                };
                r.games.push(Game { white, black, outcome });
                boards.push((round, board, game));
            }
        }
    }
    Ok(infos
        .into_iter()
        .map(|info| {
            let (rounds, boards, forfeits) = rounds.remove(&info.id).unwrap_or_default();
            let (players, withdrawn) = players.remove(&info.id).unwrap_or_default();
            (Tournament { info, players, rounds, withdrawn, forfeits }, boards)
        })
        .collect())
}

/// Registers `player`; returns their seed (registration order).
pub fn register(conn: &Connection, id: TournamentId, player: PlayerId, now: i64) -> Result<Answer<usize>> {
    let tx = super::immediate(conn)?;
    match info(&tx, id)? {
        None => return Ok(Err(TournamentError::UnknownTournament)),
        Some(i) if i.status != Status::Registration => return Ok(Err(TournamentError::NotRegistering)),
        _ => {}
    }
    let seed: usize =
        tx.query_row("SELECT count(*) + 1 FROM tournament_players WHERE tournament_id = ?1", [id], |r| r.get(0))?;
    let n = tx.execute(
        "INSERT INTO tournament_players (tournament_id, player_id, seed, joined_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (tournament_id, player_id) DO NOTHING",
        params![id, player, seed, now],
    )?;
    if n == 0 {
        return Ok(Err(TournamentError::AlreadyRegistered));
    }
    tx.commit()?;
    Ok(Ok(seed))
}

/// Takes back a registration before the start; the later seeds move up one.
pub fn unregister(conn: &Connection, id: TournamentId, player: PlayerId) -> Result<Answer<()>> {
    let tx = super::immediate(conn)?;
    match info(&tx, id)? {
        None => return Ok(Err(TournamentError::UnknownTournament)),
        Some(i) if i.status != Status::Registration => return Ok(Err(TournamentError::NotRegistering)),
        _ => {}
    }
    let seed: Option<i64> = tx
        .query_row(
            "SELECT seed FROM tournament_players WHERE tournament_id = ?1 AND player_id = ?2",
            params![id, player],
            |r| r.get(0),
        )
        .optional()?;
    let Some(seed) = seed else { return Ok(Err(TournamentError::NotRegistered)) };
    tx.execute("DELETE FROM tournament_players WHERE tournament_id = ?1 AND player_id = ?2", params![id, player])?;
    // Two steps so that the UNIQUE seed never sees two rows with one seed.
    tx.execute(
        "UPDATE tournament_players SET seed = seed + 1000000 WHERE tournament_id = ?1 AND seed > ?2",
        params![id, seed],
    )?;
    tx.execute(
        "UPDATE tournament_players SET seed = seed - 1000001 WHERE tournament_id = ?1 AND seed > 1000000",
        [id],
    )?;
    tx.commit()?;
    Ok(Ok(()))
}

fn insert_round(conn: &Connection, id: TournamentId, number: usize, round: &Round) -> Result<()> {
    let mut st = conn.prepare_cached(
        "INSERT INTO tournament_games (tournament_id, round, board, white_id, black_id) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    if let Some(p) = round.bye {
        st.execute(params![id, number, 0, p, None::<PlayerId>])?;
    }
    for (i, g) in round.games.iter().enumerate() {
        st.execute(params![id, number, i + 1, g.white, g.black])?;
    }
    Ok(())
}

/// Closes registration and makes the first round (a round robin: all rounds). `seeds`, when
/// given, reorders the players (for example by rating); otherwise registration order stands.
pub fn start(conn: &Connection, id: TournamentId, seeds: Option<&[PlayerId]>) -> Result<Answer<Vec<Round>>> {
    in_transaction(conn, |tx| start_in(tx, id, seeds))
}

/// [`start`] inside the caller's transaction (which also creates the games, say).
pub fn start_in(tx: &Connection, id: TournamentId, seeds: Option<&[PlayerId]>) -> Result<Answer<Vec<Round>>> {
    let Some(t) = load(tx, id)? else { return Ok(Err(TournamentError::UnknownTournament)) };
    if t.info.status != Status::Registration {
        return Ok(Err(TournamentError::NotRegistering));
    }
    let players = match seeds {
        Some(s) => {
            let (mut a, mut b) = (s.to_vec(), t.players.clone());
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            if a != b || s.len() != t.players.len() {
                return Ok(Err(TournamentError::SeedsMismatch));
            }
            s.to_vec()
        }
        None => t.players.clone(),
    };
    if players.len() < 2 {
        return Ok(Err(TournamentError::TooFewPlayers));
    }
    let rounds = match t.info.system {
        System::RoundRobin => berger(&players, false),
        System::DoubleRoundRobin => berger(&players, true),
        System::Swiss { rounds } => match Swiss::new(players.clone(), rounds).and_then(|s| s.pair_next(&[])) {
            Ok(r) => vec![r],
            Err(e) => return Ok(Err(TournamentError::Swiss(e))),
        },
    };
    tx.execute("UPDATE tournament_players SET seed = seed + 1000000 WHERE tournament_id = ?1", [id])?;
    for (i, p) in players.iter().enumerate() {
        tx.execute(
            "UPDATE tournament_players SET seed = ?3 WHERE tournament_id = ?1 AND player_id = ?2",
            params![id, p, i + 1],
        )?;
    }
    for (i, r) in rounds.iter().enumerate() {
        insert_round(tx, id, i + 1, r)?;
    }
    tx.execute("UPDATE tournaments SET status = 'running', signup_until = NULL WHERE id = ?1", [id])?;
    Ok(Ok(rounds))
}

/// Pairs the next Swiss round once the previous one is over; returns it with its number.
pub fn pair_next(conn: &Connection, id: TournamentId) -> Result<Answer<(usize, Round)>> {
    in_transaction(conn, |tx| pair_next_in(tx, id))
}

/// [`pair_next`] inside the caller's transaction.
pub fn pair_next_in(tx: &Connection, id: TournamentId) -> Result<Answer<(usize, Round)>> {
    let Some(t) = load(tx, id)? else { return Ok(Err(TournamentError::UnknownTournament)) };
    if t.info.status != Status::Running {
        return Ok(Err(TournamentError::NotRunning));
    }
    let System::Swiss { rounds } = t.info.system else { return Ok(Err(TournamentError::NothingToPair)) };
    let absent: Vec<PlayerId> = t.withdrawn.iter().map(|w| w.player).collect();
    let round = match Swiss::new(t.players.clone(), rounds).and_then(|s| s.pair_next_without(&t.rounds, &absent)) {
        Ok(r) => r,
        Err(e) => return Ok(Err(TournamentError::Swiss(e))),
    };
    let number = t.rounds.len() + 1;
    insert_round(tx, id, number, &round)?;
    Ok(Ok((number, round)))
}

/// Notes that `player` withdraws from the running tournament `id` at `now` (later rounds do not
/// pair them); inside the caller's transaction, which then ends their games left. Returns whether
/// their results are void: in a round robin, by FIDE's rule, when they completed fewer than half
/// of their games (their games in progress are not completed); in a Swiss their points stay.
pub fn withdraw_in(tx: &Connection, id: TournamentId, player: PlayerId, now: i64) -> Result<Answer<bool>> {
    let Some(t) = load(tx, id)? else { return Ok(Err(TournamentError::UnknownTournament)) };
    if t.info.status != Status::Running {
        return Ok(Err(TournamentError::NotRunning));
    }
    if !t.players.contains(&player) {
        return Ok(Err(TournamentError::NotRegistered));
    }
    if t.withdrawal_of(player).is_some() {
        return Ok(Err(TournamentError::AlreadyWithdrawn));
    }
    let void = match t.info.system {
        System::Swiss { .. } => false,
        System::RoundRobin | System::DoubleRoundRobin => {
            let theirs: Vec<&Game> = t.rounds.iter().filter_map(|r| r.game_of(player)).collect();
            let completed = theirs.iter().filter(|g| g.outcome.is_some()).count();
            completed * 2 < theirs.len()
        }
    };
    tx.execute(
        "UPDATE tournament_players SET withdrawn_at = ?3, results_void = ?4 WHERE tournament_id = ?1 AND player_id = ?2",
        params![id, player, now, void],
    )?;
    Ok(Ok(void))
}

/// Ends a Swiss whose next round cannot be paired (withdrawals left too few players, or none who
/// have not met): the rounds played are all it has, and it is finished. Inside the caller's
/// transaction.
pub fn end_early_in(tx: &Connection, id: TournamentId) -> Result<()> {
    tx.execute(
        "UPDATE tournaments SET rounds = (SELECT coalesce(max(round), 0) FROM tournament_games WHERE tournament_id = ?1),
                                status = 'finished'
         WHERE id = ?1 AND status = 'running'",
        [id],
    )?;
    Ok(())
}

/// Notes the game played on a board (boards count from 1).
pub fn set_game(conn: &Connection, id: TournamentId, round: usize, board: usize, game: i64) -> Result<Answer<()>> {
    let n = conn.execute(
        "UPDATE tournament_games SET game_id = ?4 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3 AND board > 0",
        params![id, round, board, game],
    )?;
    Ok(if n == 1 { Ok(()) } else { Err(TournamentError::UnknownBoard { round, board }) })
}

/// The tournament, round and board that game `game` is played for.
/// Kept in a unit of work until it writes `tournament_games`; a game's end on PostgreSQL reads it
/// with the game's row ([`games::finish`](super::games::finish)) and keeps its answer.
pub fn find_by_game(conn: &Connection, game: i64) -> Result<Option<(TournamentId, usize, usize)>> {
    Ok(conn.query_opt_in_unit(BY_GAME_TABLES, BY_GAME, [game], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?)
}

/// [`find_by_game`]'s statement (the game's id is `?1`) and the tables it reads.
pub(crate) const BY_GAME: &str = "SELECT tournament_id, round, board FROM tournament_games WHERE game_id = ?1";
pub(crate) const BY_GAME_TABLES: &[&str] = &["tournament_games"];

/// Records a board's result (a loss on time or by forfeit is recorded as the other side's win).
/// Returns whether that finished the tournament.
pub fn record_result(
    conn: &Connection,
    id: TournamentId,
    round: usize,
    board: usize,
    outcome: Outcome,
) -> Result<Answer<bool>> {
    in_transaction(conn, |tx| record_result_in(tx, id, round, board, outcome))
}

/// [`record_result`] inside the caller's transaction (the one storing the game's result).
pub fn record_result_in(
    tx: &Connection,
    id: TournamentId,
    round: usize,
    board: usize,
    outcome: Outcome,
) -> Result<Answer<bool>> {
    let Some(t) = load(tx, id)? else { return Ok(Err(TournamentError::UnknownTournament)) };
    if t.info.status != Status::Running {
        return Ok(Err(TournamentError::NotRunning));
    }
    let Some(game) = board.checked_sub(1).and_then(|b| t.rounds.get(round.wrapping_sub(1))?.games.get(b)) else {
        return Ok(Err(TournamentError::UnknownBoard { round, board }));
    };
    if game.outcome.is_some() {
        return Ok(Err(TournamentError::AlreadyDecided { round, board }));
    }
    let result = match outcome {
        Outcome::WhiteWins => "1-0",
        Outcome::BlackWins => "0-1",
        Outcome::Draw => "1/2-1/2",
    };
    tx.execute(
        "UPDATE tournament_games SET result = ?4 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3",
        params![id, round, board, result],
    )?;
    let open: i64 = tx.query_row(
        "SELECT count(*) FROM tournament_games WHERE tournament_id = ?1 AND board > 0 AND result IS NULL",
        [id],
        |r| r.get(0),
    )?;
    let all_rounds = match t.info.system {
        System::Swiss { rounds } => t.rounds.len() == rounds,
        _ => true,
    };
    let finished = open == 0 && all_rounds;
    if finished {
        tx.execute("UPDATE tournaments SET status = 'finished' WHERE id = ?1", [id])?;
    }
    Ok(Ok(finished))
}

/// Runs `f` in an immediate transaction, committed only when `f` answers yes.
fn in_transaction<T>(conn: &Connection, f: impl FnOnce(&Connection) -> Result<Answer<T>>) -> Result<Answer<T>> {
    let tx = super::immediate(conn)?;
    let answer = f(&tx)?;
    if answer.is_ok() {
        tx.commit()?;
    }
    Ok(answer)
}

/// Notes the chat (and thread) a tournament was created in.
pub fn set_chat(conn: &Connection, id: TournamentId, chat: &str, thread: Option<&str>) -> Result<()> {
    conn.execute("UPDATE tournaments SET chat_id = ?2, thread_id = ?3 WHERE id = ?1", params![id, chat, thread])?;
    Ok(())
}

/// Sets (or with `None` clears) when registration closes by itself.
pub fn set_signup_until(conn: &Connection, id: TournamentId, until: Option<i64>) -> Result<()> {
    conn.execute("UPDATE tournaments SET signup_until = ?2 WHERE id = ?1", params![id, until])?;
    Ok(())
}

/// Tournaments of `platforms` whose registration window has closed by `now` and that have not
/// started, the earliest first (ties by id), read from the partial index `tournaments_signup` (ordered by id,
/// SQLite scanned every tournament), taken for the caller's transaction ([`Connection::take_due`]).
pub fn signup_due(conn: &Connection, now: i64, platforms: &[&str]) -> Result<Vec<TournamentId>> {
    let mut st = conn.prepare_cached(&format!(
        "SELECT signup_until, id FROM tournaments WHERE platform = ?1 AND status = 'registration' AND signup_until <= ?2
         ORDER BY signup_until, id{}",
        conn.take_due()
    ))?;
    let mut due: Vec<(i64, TournamentId)> = super::served::each_platform(platforms, |p| {
        let rows = st.query_map(params![p, now], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    })?;
    due.sort();
    Ok(due.into_iter().map(|(_, id)| id).collect())
}

/// Tournaments with something not yet announced: a round's pairings, or the final standings.
///
/// Every command asks (the announcements owed after it), so the tournaments whose end was
/// announced are left out first, on a column of their row: their last round was announced with
/// their end ([`claim_announcement`] claims both at once) and a finished tournament gets no new
/// round. Counting every tournament's rounds on every command cost 1.8 ms with a thousand
/// tournaments (`docs/scale.md`).
pub fn unannounced(conn: &Connection) -> Result<Vec<TournamentId>> {
    let mut st = conn.prepare_cached(
        "SELECT id FROM tournaments t WHERE announced_end = 0 AND (status = 'finished'
            OR (status = 'running' AND announced_round <
                (SELECT coalesce(max(round), 0) FROM tournament_games g WHERE g.tournament_id = t.id)))
         ORDER BY id",
    )?;
    let rows = st.query_map((), |r| r.get(0))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

/// Claims the announcement of rounds up to `round` (and of the end when `end`), if what was
/// announced is still `(from_round, from_end)`: whether this caller is the one to announce it.
pub fn claim_announcement(
    conn: &Connection,
    id: TournamentId,
    from_round: usize,
    from_end: bool,
    round: usize,
    end: bool,
) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE tournaments SET announced_round = ?4, announced_end = ?5
         WHERE id = ?1 AND announced_round = ?2 AND announced_end = ?3",
        params![id, from_round, from_end, round, end],
    )? == 1)
}

/// Sets a Swiss's number of rounds (before its start, when the field's size is known).
pub fn set_rounds(conn: &Connection, id: TournamentId, rounds: usize) -> Result<()> {
    conn.execute("UPDATE tournaments SET rounds = ?2 WHERE id = ?1 AND system = 'swiss'", params![id, rounds])?;
    Ok(())
}

/// Cancels a tournament that has not started (its registrations go with it); whether it did.
pub fn cancel(conn: &Connection, id: TournamentId) -> Result<bool> {
    Ok(conn.execute("DELETE FROM tournaments WHERE id = ?1 AND status = 'registration'", [id])? == 1)
}

/// The games of a round, board by board (board 1 first), as far as they were started.
pub fn round_games(conn: &Connection, id: TournamentId, round: usize) -> Result<Vec<(usize, Option<i64>)>> {
    let mut st = conn.prepare_cached(
        "SELECT board, game_id FROM tournament_games WHERE tournament_id = ?1 AND round = ?2 AND board > 0
         ORDER BY board",
    )?;
    let rows = st.query_map(params![id, round], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<std::result::Result<_, _>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::on_both_backends;
    use crate::store::{Store, players};

    on_both_backends!(
        registration_and_seeds,
        round_robin_runs_to_the_end,
        swiss_pairs_round_by_round,
        a_communitys_lists_are_the_newest_few,
        withdrawals_void_a_round_robins_early_leaver_and_unpair_a_swiss_one,
    );

    /// A round robin's player who withdraws before completing half their games has their results
    /// voided; one who completed half keeps them. A Swiss's withdrawn player is paired no more,
    /// and a Swiss whose players left cannot be paired ends early.
    fn withdrawals_void_a_round_robins_early_leaver_and_unpair_a_swiss_one(store: &Store) {
        let p = new_players(store, 4);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g", "RR", "chess", System::RoundRobin, 3, None, 5).unwrap();
        for &x in &p {
            register(&c, id, x, 6).unwrap().unwrap();
        }
        assert_eq!(withdraw_in(&c, id, p[0], 7).unwrap(), Err(TournamentError::NotRunning));
        start(&c, id, None).unwrap().unwrap();
        // Round 1: 1–4 and 2–3 decided; everyone has completed 1 of 3 games.
        record_result(&c, id, 1, 1, Outcome::WhiteWins).unwrap().unwrap();
        record_result(&c, id, 1, 2, Outcome::Draw).unwrap().unwrap();
        assert_eq!(withdraw_in(&c, id, p[3], 8).unwrap(), Ok(true), "1 of 3 completed: void");
        assert_eq!(withdraw_in(&c, id, p[3], 9).unwrap(), Err(TournamentError::AlreadyWithdrawn));
        let stranger = new_players(store, 5)[4];
        assert_eq!(withdraw_in(&c, id, stranger, 9).unwrap(), Err(TournamentError::NotRegistered));
        let t = load(&c, id).unwrap().unwrap();
        assert_eq!(t.withdrawn, [Withdrawal { player: p[3], at: 8, void: true }]);
        // P1's win over the voided P4 counts for nobody: P2 and P3 lead with their draw's ½.
        let s = t.standings();
        assert_eq!(s.last().map(|s| (s.player, s.counted)), Some((p[3], false)));
        assert!(s.iter().all(|s| s.score.0 <= 2), "{s:?}");
        // Round 2 decided: P2 has completed 2 of 3 and keeps their results on withdrawing.
        record_result(&c, id, 2, 1, Outcome::WhiteWins).unwrap().unwrap();
        record_result(&c, id, 2, 2, Outcome::BlackWins).unwrap().unwrap();
        assert_eq!(withdraw_in(&c, id, p[1], 10).unwrap(), Ok(false));

        // A Swiss of five: the withdrawn player is not paired in the next round.
        let sw = create(&c, "discord", "g", "Swiss", "chess", System::Swiss { rounds: 3 }, 3, None, 5).unwrap();
        let q = new_players(store, 5);
        for &x in &q {
            register(&c, sw, x, 6).unwrap().unwrap();
        }
        let first = start(&c, sw, None).unwrap().unwrap();
        let leaver = first[0].games[0].black;
        assert_eq!(withdraw_in(&c, sw, leaver, 7).unwrap(), Ok(false));
        for board in 1..=2 {
            record_result(&c, sw, 1, board, Outcome::WhiteWins).unwrap().unwrap();
        }
        let (n, second) = pair_next(&c, sw).unwrap().unwrap();
        assert_eq!(n, 2);
        assert!(second.bye.is_none() && second.games.iter().all(|g| g.opponent_of(leaver).is_none()), "{second:?}");
        // Two more leave: one player is left, who cannot be paired; the Swiss ends after round 2.
        let t = load(&c, sw).unwrap().unwrap();
        withdraw_in(&c, sw, second.games[0].white, 8).unwrap().unwrap();
        withdraw_in(&c, sw, second.games[0].black, 8).unwrap().unwrap();
        for board in 1..=2 {
            record_result(&c, sw, 2, board, Outcome::Draw).unwrap().unwrap();
        }
        assert_eq!(pair_next(&c, sw).unwrap(), Err(TournamentError::Swiss(SwissError::NoPairing)));
        end_early_in(&c, sw).unwrap();
        let ended = load(&c, sw).unwrap().unwrap();
        assert_eq!((ended.info.status, ended.info.system), (Status::Finished, System::Swiss { rounds: 2 }));
        assert_eq!(t.rounds.len(), 2);
    }

    /// `n` players, `u1`, `u2`, ….
    fn new_players(store: &Store, n: usize) -> Vec<PlayerId> {
        let c = store.conn().unwrap();
        (1..=n).map(|i| players::ensure(&c, "console", &format!("u{i}"), &format!("P{i}"), 1).unwrap().id).collect()
    }

    fn registration_and_seeds(store: &Store) {
        let p = new_players(store, 4);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g", "Spring", "chess", System::RoundRobin, 3, Some(p[0]), 5).unwrap();
        assert_eq!(start(&c, id, None).unwrap(), Err(TournamentError::TooFewPlayers));
        for (i, &x) in p.iter().enumerate() {
            assert_eq!(register(&c, id, x, 6).unwrap(), Ok(i + 1));
        }
        assert_eq!(register(&c, id, p[0], 6).unwrap(), Err(TournamentError::AlreadyRegistered));
        unregister(&c, id, p[1]).unwrap().unwrap();
        assert_eq!(unregister(&c, id, p[1]).unwrap(), Err(TournamentError::NotRegistered));
        assert_eq!(load(&c, id).unwrap().unwrap().players, [p[0], p[2], p[3]]);
        assert_eq!(start(&c, id, Some(&[p[0], p[0], p[2]])).unwrap(), Err(TournamentError::SeedsMismatch));
        let rounds = start(&c, id, Some(&[p[3], p[0], p[2]])).unwrap().unwrap();
        assert_eq!(rounds.len(), 3);
        let t = load(&c, id).unwrap().unwrap();
        assert_eq!((t.players.clone(), t.info.status), (vec![p[3], p[0], p[2]], Status::Running));
        assert_eq!(t.rounds, rounds);
        assert_eq!(register(&c, id, p[1], 7).unwrap(), Err(TournamentError::NotRegistering));
        assert_eq!(pair_next(&c, id).unwrap(), Err(TournamentError::NothingToPair));
        assert_eq!(list(&c, "discord", "g").unwrap(), [t.info]);
    }

    fn round_robin_runs_to_the_end(store: &Store) {
        let p = new_players(store, 3);
        let c = store.conn().unwrap();
        let id = create(&c, "discord", "g", "RR", "atomic", System::DoubleRoundRobin, 3, None, 5).unwrap();
        for &x in &p {
            register(&c, id, x, 6).unwrap().unwrap();
        }
        let rounds = start(&c, id, None).unwrap().unwrap();
        assert_eq!(rounds.len(), 6);
        assert!(rounds.iter().all(|r| r.games.len() == 1 && r.bye.is_some()));
        let game = crate::store::ladders::test_game(&c, rounds[0].games[0].white, rounds[0].games[0].black);
        set_game(&c, id, 1, 1, game).unwrap().unwrap();
        assert_eq!(set_game(&c, id, 1, 0, game).unwrap(), Err(TournamentError::UnknownBoard { round: 1, board: 0 }));
        assert_eq!(find_by_game(&c, game).unwrap(), Some((id, 1, 1)));
        for r in 1..=6 {
            let last = record_result(&c, id, r, 1, Outcome::WhiteWins).unwrap().unwrap();
            assert_eq!(last, r == 6);
        }
        assert_eq!(record_result(&c, id, 1, 1, Outcome::Draw).unwrap(), Err(TournamentError::NotRunning));
        let t = load(&c, id).unwrap().unwrap();
        assert_eq!(t.info.status, Status::Finished);
        // Everyone won their two white games and sat out twice (no points in a round robin): 2 points
        // each, Sonneborn–Berger 2 × 2 = 4 each.
        assert!(t.standings().iter().all(|s| s.score.0 == 8 && s.tiebreaks[0].0 == 16));
    }

    fn swiss_pairs_round_by_round(store: &Store) {
        let p = new_players(store, 5);
        let c = store.conn().unwrap();
        let id = create(&c, "matrix", "!r", "Swiss", "chess", System::Swiss { rounds: 3 }, 3, None, 5).unwrap();
        for &x in &p {
            register(&c, id, x, 6).unwrap().unwrap();
        }
        let first = start(&c, id, None).unwrap().unwrap();
        assert_eq!(first.len(), 1);
        assert_eq!(first[0].bye, Some(p[4]));
        assert_eq!(pair_next(&c, id).unwrap(), Err(TournamentError::Swiss(SwissError::RoundIncomplete(1))));
        for round in 1..=3 {
            let t = load(&c, id).unwrap().unwrap();
            for board in 1..=t.rounds[round - 1].games.len() {
                assert!(!record_result(&c, id, round, board, Outcome::Draw).unwrap().unwrap() || round == 3);
            }
            assert_eq!(
                record_result(&c, id, round, 9, Outcome::Draw).unwrap(),
                if round == 3 {
                    Err(TournamentError::NotRunning)
                } else {
                    Err(TournamentError::UnknownBoard { round, board: 9 })
                }
            );
            if round < 3 {
                let (n, r) = pair_next(&c, id).unwrap().unwrap();
                assert_eq!(n, round + 1);
                assert_eq!(load(&c, id).unwrap().unwrap().rounds[round], r);
            }
        }
        let t = load(&c, id).unwrap().unwrap();
        assert_eq!(t.info.status, Status::Finished);
        let byes: std::collections::HashSet<_> = t.rounds.iter().map(|r| r.bye.unwrap()).collect();
        assert_eq!(byes.len(), 3);
        assert_eq!(t.scoring(), Scoring::SWISS);
    }

    /// A community's page reads its newest tournaments under way and its last finished ones, at
    /// most as many as it asks for each, and counts the others.
    fn a_communitys_lists_are_the_newest_few(store: &Store) {
        let c = store.conn().unwrap();
        let new = |community: &str, status: &str| {
            let id = create(&c, "discord", community, "Cup", "chess", System::RoundRobin, 3, None, 0).unwrap();
            c.execute("UPDATE tournaments SET status = ?2 WHERE id = ?1", params![id, status]).unwrap();
            id
        };
        let mut finished = Vec::new();
        let mut open = Vec::new();
        for i in 0..15 {
            finished.push(new("g", "finished"));
            if i % 5 == 0 {
                open.push(new("g", if i == 5 { "registration" } else { "running" }));
            }
            new("other", "finished");
        }
        new("other", "running");
        let ids = |l: Vec<TournamentInfo>| l.into_iter().map(|t| t.id).collect::<Vec<_>>();
        let newest = |l: &[TournamentId], n: usize| l.iter().rev().take(n).copied().collect::<Vec<_>>();
        assert_eq!(ids(finished_in(&c, "discord", "g", 10).unwrap()), newest(&finished, 10));
        assert_eq!(ids(finished_in(&c, "discord", "g", 20).unwrap()), newest(&finished, 15));
        assert_eq!(ids(open_in(&c, "discord", "g", 20).unwrap()), newest(&open, 3));
        assert_eq!(ids(open_in(&c, "discord", "g", 2).unwrap()), newest(&open, 2));
        assert_eq!(counted_in(&c, "discord", "g", 100).unwrap(), (3, 15));
        assert_eq!(counted_in(&c, "discord", "g", 10).unwrap(), (3, 10), "each counted up to the bound");
        assert_eq!(counted_in(&c, "discord", "g", 2).unwrap(), (2, 2));
        assert_eq!(counted_in(&c, "discord", "none", 100).unwrap(), (0, 0));
        assert!(finished_in(&c, "discord", "none", 10).unwrap().is_empty());
    }

    /// Each list is read from the newest down on the community's index and cut short, never the
    /// community's tournaments sorted (SQLite's plan; PostgreSQL's was checked by hand,
    /// docs/web.md).
    #[test]
    fn a_communitys_lists_read_the_index_in_order() {
        let (_dir, conn) = crate::store::testing::sqlite_schema();
        let plan = |sql: &str| crate::store::testing::sqlite_plan(&conn, sql);
        let index = "SEARCH tournaments USING INDEX tournaments_community (platform=? AND community_id=? AND status=?)";
        let finished = plan(&finished_in_sql());
        assert!(finished.contains(index), "{finished}");
        assert!(!finished.contains("TEMP B-TREE"), "{finished}");
        let open = plan(&open_in_sql());
        assert_eq!(open.matches(index).count(), 2, "{open}");
        assert!(!open.contains("SCAN tournaments"), "{open}");
        let counted = plan(COUNTED_IN);
        assert_eq!(counted.matches("COVERING INDEX tournaments_community").count(), 2, "{counted}");
    }
}

//! The `lab` command: capabot's laboratory. Speed runs (perft, renderer, search, deadlines, the bot core
//! under load), single searches, matches against other players and engines, and evaluation tuning. The
//! work is in the `capabot_lab` library; this file only parses arguments and prints.

use capabot::ai;
use capabot::outln;
use capabot::render::RenderOptions;
use capabot::rules::{Position, VARIANTS};
use capabot::tools::{self, emit, init_tracing};
use capabot_lab::{bench, engine, tune};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: per-thread free lists without locks for the many small, short-lived
/// allocations of a move's round trip (docs/load.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "lab", version, about = "capabot's laboratory: benchmarks, matches and evaluation tuning")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What the benchmarks of real `capabot` processes against the fake Discord share: the players'
/// runtime, the games they play, the rounds, and the binary.
#[derive(clap::Args)]
struct Processes {
    /// Runtime worker threads of the fake Discord and the players.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 20)]
    plies: usize,
    #[arg(long, default_value = "capatomic")]
    variant: String,
    /// Rounds; the medians are reported.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The capabot binary (default: the one beside this laboratory).
    #[arg(long)]
    capabot: Option<PathBuf>,
}

#[cfg_attr(not(feature = "discord"), allow(dead_code))]
impl Processes {
    /// The games with pictures (the processes draw them, their default).
    fn games(&self, games: usize) -> Result<bench::bot::BenchOptions, String> {
        let v = tools::variant(&self.variant)?;
        Ok(bench::bot::BenchOptions::with_pictures(games, self.threads, self.plies, v, self.seed))
    }
}

/// The analysis's later looks (`ai::analysis::SecondLook`), the product's by default.
#[derive(clap::Args, Clone)]
struct Looks {
    /// capabot's second look: from this cost in points (0–100) …
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.from)]
    second_look_from: f64,
    /// … at this multiple of the nodes (0 or 1: none).
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.factor)]
    second_look_factor: u64,
    /// A move still costing this many points after its second look is looked at a third time …
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.deeper_from)]
    third_look_from: f64,
    /// … and less than this many …
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.deeper_below)]
    third_look_below: f64,
    /// … at this multiple of the nodes (0 or 1: none).
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.deeper_factor)]
    third_look_factor: u64,
    /// The positions the third look searches: both, or after (the move's only).
    #[arg(long, default_value = "product")]
    third_look_at: String,
    /// The first pass's order: forwards (first position to last) or backwards.
    #[arg(long, default_value = "product")]
    order: String,
    /// The search's own choice costing this many points is priced against the other moves (above
    /// 100: never).
    #[arg(long, default_value_t = ai::analysis::SECOND_LOOK.own_choice_from)]
    own_choice_from: f64,
    /// The analysis's searches' selectivity: `product`, `play` (the AI's own), or switches
    /// separated by commas (`qchecks`, `lmr=1`, `nonull`, `nullless=2`, `nolmp`, `nofut`,
    /// `nosee`, `norfp`, `lcfull`, `noiir`, `nocut`; see `ai::Style`).
    #[arg(long, default_value = "product")]
    style: String,
}

impl Looks {
    fn second_look(&self) -> Result<ai::analysis::SecondLook, String> {
        use ai::analysis::DeeperAt;
        let deeper_at = match self.third_look_at.as_str() {
            "product" => ai::analysis::SECOND_LOOK.deeper_at,
            "both" => DeeperAt::Both,
            "after" => DeeperAt::After,
            other => return Err(format!("--third-look-at {other}: write both or after")),
        };
        let order = match self.order.as_str() {
            "product" => ai::analysis::SECOND_LOOK.order,
            "forwards" => ai::analysis::Order::Forwards,
            "backwards" => ai::analysis::Order::Backwards,
            other => return Err(format!("--order {other}: write forwards or backwards")),
        };
        Ok(ai::analysis::SecondLook {
            from: self.second_look_from,
            factor: self.second_look_factor,
            deeper_from: self.third_look_from,
            deeper_below: self.third_look_below,
            deeper_factor: self.third_look_factor,
            deeper_at,
            order,
            own_choice_from: self.own_choice_from,
            style: match self.style.as_str() {
                "product" => ai::analysis::SECOND_LOOK.style,
                "play" => ai::Style::PLAY,
                switches => ai::Style::parse(switches)?,
            },
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Perft speed from the start positions (nodes per second, median of several runs).
    Bench {
        /// Runs per variant.
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Only these variants (default: chess, capablanca, atomic at depth 5; capatomic at depth 4).
        #[arg(long, num_args = 1..)]
        variants: Vec<String>,
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Load run of the bot core: N games played concurrently with the real database (and renderer).
    BenchBot {
        #[arg(long, default_value_t = 200)]
        games: usize,
        #[arg(long, default_value_t = 4)]
        threads: usize,
        /// Plies per game at most.
        #[arg(long, default_value_t = 40)]
        plies: usize,
        #[arg(long, default_value = "capatomic")]
        variant: String,
        /// Leave out board pictures.
        #[arg(long)]
        no_pictures: bool,
        /// Database file (default: a fresh file in a temporary folder).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Play on new databases of the harness's PostgreSQL server instead of SQLite (feature
        /// `postgres`), connected through its Unix socket as a process on the server's machine is.
        #[arg(long, conflicts_with = "db")]
        postgres: bool,
        /// With `--postgres`: connect over TCP to 127.0.0.1 instead, as to a server elsewhere.
        #[arg(long, requires = "postgres")]
        postgres_tcp: bool,
        /// With `--postgres`: the server logs every statement it runs with the time it took
        /// (`log_min_duration_statement = 0`), and its log is copied to this file at the end (two
        /// runs of different plies give the statements a move costs: `docs/load.md`).
        #[arg(long, requires = "postgres")]
        statements_log: Option<PathBuf>,
        /// With `--postgres`: what each run wrote to the server's write-ahead log, by kind of
        /// record (`pg_waldump --stats=record`), is written to this file.
        #[arg(long, requires = "postgres")]
        wal_stats: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The host's core_threads in the host's run (default: the host's own, as many as the cores).
        #[arg(long)]
        core_threads: Option<usize>,
        /// The host's input_threads in the host's run (default: the host's own, as many as the cores).
        #[arg(long)]
        input_threads: Option<usize>,
        /// The host's input_nice in the host's run: nice steps behind its other threads (default: the host's own).
        #[arg(long)]
        input_nice: Option<i32>,
        /// On SQLite: a reader holds a snapshot through the moves, so that the write-ahead log keeps
        /// all they wrote; then its frames are named by table and index (`dbstat`), with what
        /// checkpoints every 200 ms and less often would copy of them. The checkpoints themselves copy
        /// nothing meanwhile, so "written" is then the log alone.
        #[arg(long, conflicts_with = "postgres")]
        log_pages: bool,
        /// The ids of the host's events, their claims' keys: `snowflake` as Discord's (in key
        /// order), `hashed` as Matrix's (in none), `counter` as the benchmark's before stop 105.
        #[arg(long, value_enum, default_value = "snowflake")]
        event_ids: bench::bot::EventIds,
        /// The bot's clock runs this many times faster than the wall clock from the run's start,
        /// so that a game's moves fall seconds apart as in play (at 1 most of them fall within
        /// the same second as the game's last change, which a database stores in whole seconds).
        #[arg(long, default_value_t = 1)]
        time_lapse: u32,
    },
    /// The web pages under a steady load: p50/p99 latency and size per page (feature `web`).
    BenchWeb {
        /// Requests per second per page.
        #[arg(long, default_value_t = 200)]
        rate: u32,
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// Decided games in the community.
        #[arg(long, default_value_t = 30)]
        games: usize,
        /// Moves of the game whose page is asked for.
        #[arg(long, default_value_t = 16)]
        plies: usize,
        /// Every page asked for at the same time, each at the rate.
        #[arg(long)]
        all_at_once: bool,
        /// Live pages: this many event streams open on the live game while moves are made in its chat.
        #[arg(long, value_name = "STREAMS")]
        live: Option<usize>,
        /// Moves a second in the live game (with --live).
        #[arg(long, default_value_t = 2.0)]
        move_rate: f64,
        /// The store on PostgreSQL (the harness's server on 127.0.0.1; feature `postgres`), not SQLite.
        #[arg(long)]
        pg: bool,
        /// How long community and player pages are kept, in ms (0: each made for its request).
        #[arg(long, default_value_t = 2000)]
        keep_pages_ms: u64,
    },
    /// Chat lines that are no moves: reading one as a move in each variant's start position, and
    /// through the bot core beside a Capatomic game (chatter, and a move-shaped line told about
    /// already); medians of the runs, µs a line.
    BenchChatter {
        /// Lines read a run in notation (the core's runs, a tenth of them).
        #[arg(long, default_value_t = 20_000)]
        lines: usize,
        #[arg(long, default_value_t = 7)]
        runs: usize,
        /// Plies of the core's Capatomic game.
        #[arg(long, default_value_t = 60)]
        plies: usize,
        /// Only these variants in notation (default: chess, capablanca, capatomic).
        #[arg(long, num_args = 1..)]
        variants: Vec<String>,
    },
    /// Animated games: a game of P plies at S px as a GIF, encode time (median of R runs), size, and
    /// the same frames written whole; the palette's colour error.
    BenchGif {
        #[arg(long, default_value_t = 120)]
        plies: usize,
        #[arg(long, default_value_t = 640)]
        size: u32,
        #[arg(long, default_value_t = 9)]
        runs: usize,
        #[arg(long, default_value = "capatomic")]
        variant: String,
        #[arg(long, default_value = "wood")]
        theme: String,
        /// Write the animation here as well.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Load run through Discord (the fake, on 127.0.0.1): N games played by /move interactions,
    /// moves/s and latency from interaction to the answer's REST call, beside the bare core.
    BenchDiscord {
        #[arg(long, default_value_t = 50)]
        games: usize,
        /// Runtime worker threads (and the core run's load threads).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Plies per game at most.
        #[arg(long, default_value_t = 40)]
        plies: usize,
        #[arg(long, default_value = "capatomic")]
        variant: String,
        /// Leave out board pictures.
        #[arg(long = "no-pictures")]
        plain: bool,
        /// Rounds; the medians are reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The host's core_threads (default: the host's own default).
        #[arg(long)]
        core_threads: Option<usize>,
        /// The host's input_threads (default: the host's own default).
        #[arg(long)]
        input_threads: Option<usize>,
        /// The host's input_nice: nice steps behind its other threads (default: the host's own default).
        #[arg(long)]
        input_nice: Option<i32>,
        /// The host's draw_threads (default: the host's own default).
        #[arg(long)]
        draw_threads: Option<usize>,
        /// Offer the Discord run's moves at this many per second in all (spread evenly over the games)
        /// instead of each game moving as soon as it is answered; latency counts from when a move was due.
        #[arg(long)]
        rate: Option<f64>,
        /// Run the fake Discord and the players on a runtime of their own (one thread), so that each
        /// round's processor time by thread shows the bot's own apart from theirs.
        #[arg(long = "fake-apart")]
        apart: bool,
        /// Leave out the bare core's round before each Discord round (a profile of the Discord
        /// path alone, as under callgrind).
        #[arg(long = "no-core")]
        no_core: bool,
        /// Play each round on a new database of the harness's PostgreSQL server (through its Unix
        /// socket; feature `postgres`) instead of SQLite.
        #[arg(long)]
        postgres: bool,
    },
    /// Load run over several processes: `capabot discord` processes sharing the fake Discord's six
    /// shards on one database (1 on SQLite; 1, 2 and 3 on PostgreSQL), N games by /move
    /// interactions with pictures; moves/s and latency from interaction to answer, medians of rounds.
    BenchShards {
        #[arg(long, default_value_t = 60)]
        games: usize,
        #[command(flatten)]
        processes: Processes,
        /// Offer the moves at this many per second in all instead of as fast as answered.
        #[arg(long)]
        rate: Option<f64>,
        /// The change notices' cost: PostgreSQL only (1, 2 and 3 processes), each setup run
        /// without and with `[web] public_url` (with it every unit that speaks in a chat calls
        /// `pg_notify`), the two alternated and their order swapped each round.
        #[arg(long)]
        notices: bool,
    },
    /// Many Discord servers: the real `capabot discord` (all shards in one process) against the
    /// fake Discord with each guild count (the first is the reference: per-guild memory is counted
    /// above it), a few channels and roles each, one in ten large; time until every shard answers,
    /// memory then, and a move's latency in the games' guilds (one per shard); medians of rounds.
    BenchGuilds {
        #[arg(long, num_args = 1.., default_values_t = [4usize, 10_000])]
        guilds: Vec<usize>,
        #[arg(long, default_value_t = 4)]
        shards: u32,
        /// `max_concurrency` of `GET /gateway/bot` (Discord gives 1 below 150,000 guilds).
        #[arg(long, default_value_t = 1)]
        max_concurrency: u32,
        /// Seconds the fake Discord enforces between two IDENTIFYs of a bucket (Discord: 5).
        #[arg(long, default_value_t = 5.0)]
        identify_interval: f64,
        /// After the moves, close every session for good (4009) so that each shard identifies
        /// anew and gets its GUILD_CREATEs again; the time until every shard answers, memory then.
        #[arg(long)]
        reidentify: bool,
        /// Games (at least one per shard), their moves timed.
        #[arg(long, default_value_t = 8)]
        games: usize,
        #[command(flatten)]
        processes: Processes,
    },
    /// The Matrix front end in many rooms: the real `capabot matrix` against a real Synapse on
    /// 127.0.0.1; time to join and greet N rooms, memory and store size with 1 and N rooms, a command's
    /// latency in every room at once, and a restart with a command waiting in each; medians of rounds.
    BenchMatrixRooms {
        #[arg(long, default_value_t = 200)]
        rooms: usize,
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The capabot binary (default: the one beside this laboratory).
        #[arg(long)]
        capabot: Option<PathBuf>,
        /// After the round's restart, restart again with each of these binaries in turn (a command
        /// waiting in every room each time): builds compared on one homeserver and set of rooms.
        #[arg(long = "restart-with", num_args = 1..)]
        restart_with: Vec<PathBuf>,
        /// Synapse on PostgreSQL (a database of the PostgreSQL harness's server, through its Unix
        /// socket, a new one each round), as production servers run it, instead of its SQLite file.
        #[arg(long)]
        synapse_postgres: bool,
        /// Synapse with push rules and notification counts on, as a homeserver of people runs (the
        /// harness turns them off).
        #[arg(long)]
        synapse_push: bool,
        /// The bot leaves its own account's notifications on (`[matrix] mute_notifications = false`):
        /// the bot as it was before stop 106, for comparison with `--synapse-push`.
        #[arg(long)]
        bot_unmuted: bool,
    },
    /// A flood through Discord (the fake): the games of `bench-discord`, paced, while one person
    /// sends N commands at once in a chat of their own; the others' latency p50/p99 with and without
    /// the flood (medians of several rounds, and their ratio), and how the flood was answered.
    BenchFlood {
        #[arg(long, default_value_t = 20)]
        games: usize,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value_t = 20)]
        plies: usize,
        #[arg(long, default_value = "capatomic")]
        variant: String,
        #[arg(long)]
        no_pictures: bool,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Moves offered per second in all.
        #[arg(long, default_value_t = 100.0)]
        rate: f64,
        /// Commands in the flood.
        #[arg(long, default_value_t = 200)]
        flood: usize,
        /// Milliseconds after the first move that the flood comes.
        #[arg(long, default_value_t = 1000)]
        flood_after: u64,
        /// Without the host's rate limits (to see what they prevent).
        #[arg(long)]
        no_limits: bool,
        /// From `flood_after`, the flood chat's message posts hang (never answer) for this many
        /// seconds while the flooder types a command there once a second (a hung REST route).
        #[arg(long, default_value_t = 0)]
        hang_secs: u64,
        /// People who each ask for the GIF of a long game of their own, from `flood_after` until
        /// the games end, as often as their limit admits (burst, then rate).
        #[arg(long, default_value_t = 0)]
        gif_people: usize,
        /// Plies of those games.
        #[arg(long, default_value_t = 300)]
        gif_plies: usize,
    },
    /// How the cost grows with the data kept: databases seeded through the store with the issue's
    /// sizes times each scale (1: a million finished games, 100,000 in progress, 200,000 players,
    /// 10,000 communities), then start-up, bytes a game, the read commands' p50/p99, scheduler ticks
    /// with some timeouts due, a move through the core with its picture, a backup and query plans.
    BenchScale {
        /// The scales to seed and measure (the smallest is the reference).
        #[arg(long, num_args = 1.., default_values_t = [0.001, 0.1])]
        scales: Vec<f64>,
        /// Where the seeded databases are kept (reused by later runs unless --fresh).
        #[arg(long, default_value = "target/scale")]
        dir: PathBuf,
        #[arg(long)]
        fresh: bool,
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Times each read command is sent.
        #[arg(long, default_value_t = 300)]
        reads: usize,
        /// Timeouts due in the measured ticks.
        #[arg(long, num_args = 1.., default_values_t = [100, 1000])]
        due: Vec<usize>,
        /// Games played through the core with pictures, 20 plies each.
        #[arg(long, default_value_t = 50)]
        move_games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only the start-up and the ticks (no bytes a game, reads, moves, backup or query plans):
        /// for measuring the scheduler alone.
        #[arg(long)]
        ticks_only: bool,
        /// Each scale in a new database of the test harness's PostgreSQL server (seeded every run)
        /// instead of a SQLite file; the backup is `pg_dump`'s, the plans PostgreSQL's generic ones.
        #[arg(long)]
        postgres: bool,
        /// With --postgres: instead of seeding, copy the scale's SQLite file in --dir (seeded first
        /// if it is not there) into the new database as `capabot migrate` does (its time measured);
        /// a million games seed in minutes on SQLite and in hours on PostgreSQL.
        #[arg(long, requires = "postgres")]
        copy_sqlite: bool,
    },
    /// The cost of one write transaction per input with the picture rendered inside it: the bare
    /// core on 1 and 2 threads, with and without pictures (medians of several runs).
    BenchUnit {
        #[arg(long, default_value_t = 50)]
        games: usize,
        #[arg(long, default_value_t = 20)]
        plies: usize,
        #[arg(long, default_value = "capatomic")]
        variant: String,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Search one position and print the best move with depth, score, nodes and principal variation.
    Think {
        #[arg(long, default_value = "chess")]
        variant: String,
        #[arg(long, conflicts_with = "setup")]
        fen: Option<String>,
        #[arg(long)]
        setup: Option<usize>,
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        #[arg(long)]
        depth: Option<u32>,
        #[arg(long)]
        nodes: Option<u64>,
        /// Use a playing level's limits (1..8) instead.
        #[arg(long)]
        level: Option<u8>,
        /// The search's selectivity switches (`compare-analysis --style`; default: as the AI plays).
        #[arg(long)]
        style: Option<String>,
    },
    /// Search speed: nodes per second and depth reached from each variant's start position.
    BenchAi {
        /// Milliseconds per position.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        #[arg(long, num_args = 1..)]
        variants: Vec<String>,
    },
    /// Deadline keeping: how far past a fixed time per move searches return, over varied positions.
    BenchDeadline {
        /// Milliseconds per search.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
        /// Searches per variant.
        #[arg(long, default_value_t = 50)]
        searches: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, num_args = 1..)]
        variants: Vec<String>,
    },
    /// Play a match between two players and print the score (random, greedy, level:K, uci:CMD[@skill]).
    Match {
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Games (played in pairs with colours swapped).
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Milliseconds per move (capabot levels keep their own lower limits).
        #[arg(long, default_value_t = 200)]
        movetime: u64,
        /// Nodes per move for A instead of the time (a load-independent match).
        #[arg(long)]
        a_nodes: Option<u64>,
        /// Nodes per move for B instead of the time.
        #[arg(long)]
        b_nodes: Option<u64>,
        #[arg(long)]
        a: String,
        #[arg(long)]
        b: String,
        /// Random quiet plies before the players take over (same for both games of a pair).
        #[arg(long, default_value_t = 2)]
        random_plies: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// Print one line per game.
        #[arg(long)]
        verbose: bool,
        /// Score games where one side keeps a queen's worth of extra material for ten plies; draws after ply
        /// 160 once material stays within two pawns for twenty plies.
        #[arg(long)]
        adjudicate: bool,
        /// Games played at once (one thread each; UCI engines are started once per thread).
        #[arg(long, default_value_t = 1)]
        concurrency: usize,
    },
    /// Evaluation tuning, step 1: sample positions (FEN lines) from fast self-play games.
    TuneGen {
        #[arg(long)]
        variant: String,
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// Search nodes per move.
        #[arg(long, default_value_t = 1500)]
        nodes: u64,
        #[arg(long, default_value_t = 8)]
        random_plies: usize,
        /// Positions kept per game at most.
        #[arg(long, default_value_t = 40)]
        per_game: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
    /// Evaluation tuning, step 3: fit the variant's weights to labelled positions (tools/tune/label.py)
    /// and print the new table.
    TuneFit {
        /// The variant whose table is the starting point.
        #[arg(long)]
        variant: String,
        /// Labelled files as VARIANT:PATH (lines `FEN;score;bestmove`).
        #[arg(long, num_args = 1.., required = true)]
        data: Vec<String>,
        #[arg(long, default_value_t = 20)]
        passes: usize,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Only weights whose field name starts with one of these (default: all that matter).
        #[arg(long, num_args = 1..)]
        only: Vec<String>,
        /// Leave out weights whose field name starts with one of these.
        #[arg(long, num_args = 1..)]
        skip: Vec<String>,
    },
    /// Analysis speed: a self-play game of chess (80 plies) and of Capatomic (100 plies) analysed
    /// whole on one thread at the default effort, with the goals (20 s and 40 s) and the load average.
    BenchAnalysis {
        /// Analyses per game (the median is reported).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Nodes per position (0: the default).
        #[arg(long, default_value_t = 0)]
        nodes: u64,
        /// `variant:plies` pairs instead of chess:80 and capatomic:100.
        #[arg(long, num_args = 1..)]
        games: Vec<String>,
        #[command(flatten)]
        looks: Looks,
    },
    /// Move latency through the host without and with analyses running (the goal: p99 at most 1.3×).
    BenchAnalysisLoad {
        #[arg(long, default_value_t = 20)]
        games: usize,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Plies a game: 240 (4,800 moves a round) puts 48 moves above a round's p99, where 80
        /// (1,600) put 16 and one slow moment of the machine moved it (docs/analysis.md).
        #[arg(long, default_value_t = 240)]
        plies: usize,
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Analyses running at once during the timed moves.
        #[arg(long, default_value_t = 2)]
        analyses: usize,
        #[arg(long, default_value_t = 3)]
        runs: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Fit a variant's win curve (the slope of winning chances in the score) from self-play games
    /// labelled with their results.
    FitCurve {
        #[arg(long, default_value = "chess")]
        variant: String,
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// Longest game played, in plies (longer ones are left out).
        #[arg(long, default_value_t = 300)]
        plies: usize,
        /// Nodes per position of the analysis that scores the positions (0: the default).
        #[arg(long, default_value_t = 0)]
        nodes: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played and analysed at once.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Writes the labelled positions to this file (`game cp result` a line), to be fitted again
        /// or pooled with others through `--from`.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Fits the positions of these files (written by `--save`), pooled, instead of playing games.
        #[arg(long, num_args = 1..)]
        from: Vec<PathBuf>,
        /// Chess's positions (files written by `--save`): the fit is also given relative to theirs,
        /// as the product's table of slopes holds it.
        #[arg(long, num_args = 1..)]
        relative_to: Vec<PathBuf>,
    },
    /// capabot's analysis held against an independent engine's (Fairy-Stockfish at a fixed depth; run
    /// tools/fsf/setup.sh first): games between two of the AI's levels, each analysed by both; how many
    /// of the reference's blunders capabot marks, and how many of capabot's blunders it calls good.
    CompareAnalysis {
        #[arg(long, num_args = 1.., default_values_t = ["chess".to_string(), "capablanca".to_string()])]
        variants: Vec<String>,
        /// Games per variant.
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// The two sides' levels, swapped every other game.
        #[arg(long, default_value_t = 2)]
        level_a: u8,
        #[arg(long, default_value_t = 5)]
        level_b: u8,
        /// Longest game, in plies.
        #[arg(long, default_value_t = 100)]
        plies: usize,
        /// capabot's nodes per position (0: the default).
        #[arg(long, default_value_t = 0)]
        nodes: u64,
        /// The reference engine's command line (a UCI engine).
        #[arg(long, default_value = "node tools/fsf/uci.js")]
        engine: String,
        /// The reference's search depth per position.
        #[arg(long, default_value_t = 12)]
        depth: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Print each move the two judge differently.
        #[arg(long)]
        verbose: bool,
        #[command(flatten)]
        looks: Looks,
        /// A directory keeping the reference's evaluations per game (reused by later runs).
        #[arg(long)]
        cache: Option<std::path::PathBuf>,
        /// Only these games of the series (numbered from 0), to look at a few again.
        #[arg(long, num_args = 1..)]
        only: Vec<usize>,
        /// Only fill the cache (--cache) with the reference's evaluations, without capabot's analysis.
        #[arg(long)]
        reference_only: bool,
        /// Judge again at this depth, with the reference, the moves the comparison turns on (its
        /// blunders, and capabot's blunders it calls good), each position searched afresh; kept
        /// beside the cache's files.
        #[arg(long)]
        confirm_depth: Option<u32>,
    },
    /// Renderer speed and picture size: median time to render and encode each variant's start position.
    BenchRender {
        /// Renders per variant.
        #[arg(long, default_value_t = 200)]
        runs: usize,
        #[arg(long, default_value_t = 800)]
        size: u32,
        #[arg(long, default_value = "wood")]
        theme: String,
        /// Instead of the start position: this many pseudo-random games per variant, each position
        /// drawn after its move by the banded encoder and by the whole-frame one in turn.
        #[arg(long)]
        games: Option<usize>,
        /// Plies per game with --games.
        #[arg(long, default_value_t = 20)]
        plies: usize,
        /// With --games: only this variant.
        #[arg(long)]
        variant: Option<String>,
    },
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Bench { runs, variants, depth } => {
            for (v, d) in bench::perft::bench_list(&variants, depth)? {
                outln!("{}", bench::perft::bench(v, d, runs));
            }
        }
        Command::BenchBot {
            games,
            threads,
            plies,
            variant,
            no_pictures,
            db,
            postgres,
            postgres_tcp,
            statements_log,
            wal_stats,
            seed,
            core_threads,
            input_threads,
            input_nice,
            log_pages,
            event_ids,
            time_lapse,
        } => {
            let v = tools::variant(&variant)?;
            let opts = bench::bot::BenchOptions {
                pictures: !no_pictures,
                core_threads,
                input_threads,
                input_nice,
                log_pages,
                event_ids,
                time_lapse,
                ..bench::bot::BenchOptions::with_pictures(games, threads, plies, v, seed)
            };
            let (core, host) = if postgres {
                let how = if postgres_tcp { bench::bot::PgLink::Tcp } else { bench::bot::PgLink::Socket };
                bench::bot::run_both_on_postgres(&opts, how, statements_log.as_deref(), wal_stats.as_deref())?
            } else {
                bench::bot::run_both(db.as_deref(), &opts)?
            };
            outln!("{}", bench::bot::summary_both(&core, &host, &opts));
        }
        #[cfg(feature = "discord")]
        Command::BenchDiscord {
            games,
            threads,
            plies,
            variant,
            plain,
            runs,
            seed,
            core_threads,
            input_threads,
            input_nice,
            draw_threads,
            rate,
            apart,
            no_core,
            postgres,
        } => {
            let v = tools::variant(&variant)?;
            let opts = bench::bot::BenchOptions {
                pictures: !plain,
                core_threads,
                input_threads,
                input_nice,
                draw_threads,
                fake_apart: apart,
                ..bench::bot::BenchOptions::with_pictures(games, threads, plies, v, seed)
            };
            outln!("{}", bench::discord::run_rounds(&opts, runs, rate, !no_core, postgres)?);
        }
        #[cfg(not(feature = "discord"))]
        Command::BenchDiscord { .. } => {
            return Err("bench-discord needs the laboratory built with its `discord` feature (the default)".into());
        }
        #[cfg(all(feature = "discord", feature = "postgres"))]
        Command::BenchShards { games, processes, rate, notices } => {
            let opts = processes.games(games)?;
            outln!("{}", bench::shards::shard_rounds(processes.capabot, &opts, processes.runs, rate, notices)?);
        }
        #[cfg(not(all(feature = "discord", feature = "postgres")))]
        Command::BenchShards { .. } => {
            return Err(
                "bench-shards needs the laboratory built with its `discord` and `postgres` features (the default)"
                    .into(),
            );
        }
        #[cfg(feature = "discord")]
        Command::BenchGuilds { guilds, shards, max_concurrency, identify_interval, reidentify, games, processes } => {
            let opts = processes.games(games)?;
            let identify = bench::guilds::Identify {
                max_concurrency,
                interval: std::time::Duration::from_secs_f64(identify_interval.max(0.0)),
            };
            let identify = (identify, reidentify);
            let (capabot, runs) = (processes.capabot, processes.runs);
            outln!("{}", bench::guilds::guild_rounds(capabot, &guilds, shards.max(1), identify, runs, &opts)?);
        }
        #[cfg(not(feature = "discord"))]
        Command::BenchGuilds { .. } => {
            return Err("bench-guilds needs the laboratory built with its `discord` feature (the default)".into());
        }
        #[cfg(feature = "matrix")]
        Command::BenchMatrixRooms {
            rooms,
            runs,
            capabot,
            restart_with,
            synapse_postgres,
            synapse_push,
            bot_unmuted,
        } => {
            let setup = bench::matrix_rooms::RoomsSetup { synapse_postgres, synapse_push, bot_unmuted };
            let out = bench::matrix_rooms::rooms_rounds(capabot, rooms, runs, &restart_with, setup)?;
            outln!("{out}");
        }
        #[cfg(not(feature = "matrix"))]
        Command::BenchMatrixRooms { .. } => {
            return Err("bench-matrix-rooms needs the laboratory built with its `matrix` feature (the default)".into());
        }
        #[cfg(feature = "discord")]
        Command::BenchFlood {
            games,
            threads,
            plies,
            variant,
            no_pictures,
            runs,
            seed,
            rate,
            flood,
            flood_after,
            no_limits,
            hang_secs,
            gif_people,
            gif_plies,
        } => {
            let v = tools::variant(&variant)?;
            let opts = bench::bot::BenchOptions {
                pictures: !no_pictures,
                ..bench::bot::BenchOptions::with_pictures(games, threads, plies, v, seed)
            };
            let limits = (!no_limits).then(capabot::host::limits::LimitConfig::default);
            let flood = bench::discord::Flood {
                commands: flood,
                after: std::time::Duration::from_millis(flood_after),
                limits,
                hang: std::time::Duration::from_secs(hang_secs),
                gif_people,
                gif_plies,
            };
            outln!("{}", bench::discord::flood_rounds(&opts, runs, Some(rate), &flood)?);
        }
        #[cfg(not(feature = "discord"))]
        Command::BenchFlood { .. } => {
            return Err("bench-flood needs the laboratory built with its `discord` feature (the default)".into());
        }
        Command::BenchUnit { games, plies, variant, runs, seed } => {
            let v = tools::variant(&variant)?;
            let opts = bench::bot::BenchOptions::with_pictures(games, 1, plies, v, seed);
            outln!("{}", bench::bot::unit_rounds(&opts, runs)?);
        }
        Command::BenchScale {
            scales,
            dir,
            fresh,
            runs,
            reads,
            due,
            move_games,
            seed,
            ticks_only,
            postgres,
            copy_sqlite,
        } => {
            let opts = bench::scale::ScaleOptions {
                scales,
                dir,
                fresh,
                runs,
                reads,
                due,
                move_games,
                seed,
                ticks_only,
                postgres,
                copy_sqlite,
            };
            bench::scale::run(&opts, &|line| outln!("{line}"))?;
        }
        Command::BenchAnalysis { runs, nodes, games, looks } => {
            let games =
                if games.is_empty() { vec!["chess:80".to_string(), "capatomic:100".to_string()] } else { games };
            for g in games {
                let (name, plies) = g.split_once(':').ok_or_else(|| format!("'{g}': write variant:plies"))?;
                let v = tools::variant(name)?;
                let plies: usize = plies.parse().map_err(|_| format!("'{g}': plies must be a number"))?;
                let goal = match v.name {
                    "chess" => Some(std::time::Duration::from_secs(20)),
                    "capatomic" => Some(std::time::Duration::from_secs(40)),
                    _ => None,
                };
                outln!("{}", capabot_lab::analysis::bench(v, plies, nodes, looks.second_look()?, runs, goal));
            }
        }
        Command::BenchAnalysisLoad { games, threads, plies, variant, analyses, runs, seed } => {
            let v = tools::variant(&variant)?;
            let opts = bench::bot::BenchOptions::with_pictures(games, threads, plies, v, seed);
            outln!("{}", bench::bot::analysis_load_rounds(&opts, analyses, runs)?);
        }
        Command::FitCurve { variant, games, plies, nodes, seed, threads, save, from, relative_to } => {
            use capabot_lab::analysis::{SelfPlay, fit_report, label, samples_from, samples_text};
            let v = tools::variant(&variant)?;
            let read = |paths: &[PathBuf]| -> Result<Vec<_>, String> {
                let texts = paths
                    .iter()
                    .map(|p| std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display())))
                    .collect::<Result<Vec<_>, _>>()?;
                samples_from(&texts)
            };
            let samples = if from.is_empty() {
                let play = SelfPlay { variant: v, plies, nodes, seed };
                let samples = label(play, games, threads, &|line| outln!("{line}"));
                if let Some(path) = &save {
                    let header =
                        format!("{games} games of {variant}, seed {seed}, at most {plies} plies, nodes {nodes}");
                    std::fs::write(path, samples_text(&header, &samples))
                        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                }
                samples
            } else {
                read(&from)?
            };
            let reference = if relative_to.is_empty() { None } else { Some(read(&relative_to)?) };
            outln!("{}", fit_report(v, &samples, reference.as_deref()));
        }
        Command::CompareAnalysis {
            variants,
            games,
            level_a,
            level_b,
            plies,
            nodes,
            engine,
            depth,
            seed,
            verbose,
            looks,
            cache,
            only,
            reference_only,
            confirm_depth,
        } => {
            use capabot_lab::analysis::{Agreement, CompareOptions, compare, compare_report, fill_reference_cache};
            let mut all = Agreement::default();
            let mut reports = Vec::new();
            for name in &variants {
                let variant = tools::variant(name)?;
                let opts = CompareOptions {
                    variant,
                    games,
                    levels: (level_a, level_b),
                    plies,
                    nodes,
                    engine: engine.clone(),
                    depth,
                    seed,
                    verbose,
                    second: looks.second_look()?,
                    cache: cache.clone(),
                    only: only.clone(),
                    confirm_depth,
                };
                if reference_only {
                    let n = fill_reference_cache(&opts, &mut |line| outln!("{line}"))?;
                    outln!("{}: the reference evaluated {n} games", variant.name);
                    continue;
                }
                let a = compare(&opts, &mut |line| outln!("{line}"))?;
                all.add(a);
                reports.push(compare_report(variant.name, games, &a));
            }
            if !reference_only {
                for r in reports {
                    outln!("{r}");
                }
                outln!("{}", compare_report("all", games * variants.len(), &all));
            }
        }
        #[cfg(feature = "web")]
        Command::BenchWeb { rate, seconds, games, plies, all_at_once, live, move_rate, pg, keep_pages_ms } => {
            let live = live.map(|streams| bench::web::LiveLoad { streams, moves_per_sec: move_rate });
            let opts = bench::web::WebBenchOptions {
                rate,
                seconds,
                games,
                plies,
                all_at_once,
                live,
                postgres: pg,
                pages_fresh: std::time::Duration::from_millis(keep_pages_ms),
            };
            outln!("{}", bench::web::bench(&opts)?);
        }
        #[cfg(not(feature = "web"))]
        Command::BenchWeb { .. } => {
            return Err("bench-web needs the laboratory built with its `web` feature (the default)".into());
        }
        Command::BenchChatter { lines, runs, plies, variants } => {
            let names = if variants.is_empty() {
                vec!["chess".into(), "capablanca".into(), "capatomic".into()]
            } else {
                variants
            };
            let variants = names.iter().map(|n| tools::variant(n)).collect::<Result<Vec<_>, _>>()?;
            let opts = bench::chatter::ChatterOptions { variants, lines, runs, plies };
            outln!("{}", bench::chatter::bench(&opts)?);
        }
        Command::BenchGif { plies, size, runs, variant, theme, out } => {
            let v = tools::variant(&variant)?;
            let theme = capabot::render::Theme::by_name(&theme).ok_or_else(|| format!("no theme '{theme}'"))?;
            let opts = bench::gif::GifBenchOptions { variant: v, plies, size, runs, theme };
            let (report, bytes) = bench::gif::bench(&opts)?;
            outln!("{report}");
            if let Some(path) = out {
                std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            }
        }
        Command::Think { variant, fen, setup, moves, movetime, depth, nodes, level, style } => {
            let (pos, _) = tools::position(tools::variant(&variant)?, fen.as_deref(), setup, &moves)?;
            let mut limits = engine::think_limits(level, depth, nodes, movetime)?;
            if let Some(style) = style {
                limits.style = ai::Style::parse(&style)?;
            }
            outln!("{}", engine::think(&pos, &limits, &mut |line| outln!("{line}")));
        }
        Command::BenchAi { movetime, variants } => {
            let list = tools::variants_or_all(&variants)?;
            outln!("{}", engine::BENCH_AI_HEADER);
            for v in list {
                outln!("{}", engine::bench_ai(v, movetime));
            }
        }
        Command::BenchDeadline { movetime, searches, seed, variants } => {
            let list = tools::variants_or_all(&variants)?;
            outln!("{}", engine::BENCH_DEADLINE_HEADER);
            for v in list {
                outln!("{}", engine::bench_deadline(v, movetime, searches.max(1), seed));
            }
        }
        Command::Match {
            variant,
            games,
            movetime,
            a_nodes,
            b_nodes,
            a,
            b,
            random_plies,
            seed,
            max_plies,
            verbose,
            adjudicate,
            concurrency,
        } => {
            let options = engine::MatchOptions {
                variant: tools::variant(&variant)?,
                games,
                movetime,
                nodes_a: a_nodes,
                nodes_b: b_nodes,
                a,
                b,
                random_plies,
                seed,
                max_plies,
                adjudicate,
                concurrency,
            };
            let report = engine::play_match(&options, &mut |g, rec| {
                if verbose {
                    outln!("{}", engine::game_line(g, rec));
                    outln!("  moves {}", rec.moves.join(" "));
                }
            })?;
            outln!("{report}");
        }
        Command::TuneGen { variant, games, nodes, random_plies, per_game, seed, threads } => {
            let variant = tools::variant(&variant)?;
            let opts = tune::GenOptions { variant, games, nodes, random_plies, per_game, seed, threads };
            for line in tune::generate(&opts) {
                outln!("{line}");
            }
        }
        Command::TuneFit { variant, data, passes, threads, only, skip } => {
            let v = tools::variant(&variant)?;
            let mut samples = Vec::new();
            for spec in &data {
                let (name, path) =
                    spec.split_once(':').ok_or_else(|| format!("--data wants VARIANT:PATH, not {spec}"))?;
                let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
                let (mut s, skipped) = tune::load_samples(tools::variant(name)?, &text);
                eprintln!("{path}: {} positions ({skipped:?})", s.len());
                samples.append(&mut s);
            }
            let weights: Vec<_> = tune::tunable_weights(v)
                .into_iter()
                .filter(|w| only.is_empty() || only.iter().any(|o| w.field.starts_with(o.as_str())))
                .filter(|w| !skip.iter().any(|o| w.field.starts_with(o.as_str())))
                .collect();
            let start = ai::eval::params_for(v);
            let opts = tune::FitOptions { passes, threads };
            let report = tune::fit(start, &weights, samples, &opts, &mut |line| eprintln!("{line}"));
            for (w, old, new) in &report.changes {
                eprintln!("{}[{}]: {old} -> {new}", w.field, w.index);
            }
            emit(format_args!("{}", report.params.to_rust()));
        }
        Command::BenchRender { runs, size, theme, games, plies, variant } => {
            let opts = RenderOptions { size, theme: tools::theme(&theme)?, ..RenderOptions::default() };
            if let Some(games) = games {
                let variants = match variant {
                    Some(name) => vec![tools::variant(&name)?],
                    None => VARIANTS.to_vec(),
                };
                for v in variants {
                    let o = RenderOptions { show_launch_ready: v.missiles, ..opts.clone() };
                    outln!("{}", bench::render::bench_games(v, &o, games, plies));
                }
                return Ok(());
            }
            for v in VARIANTS {
                outln!("{}", bench::render::bench(&Position::start(v), &opts, runs));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    init_tracing();
    tools::exit_code(run(Cli::parse()))
}

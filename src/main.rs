//! The `capabot` command: wires configuration and sub-commands to the library. No game logic here.

use capabot::ai;
use capabot::bot::{self, Bot, CapabotAi, FirstLegalMove, MoveOracle, NoAi, SystemClock};
use capabot::config::Config;
use capabot::console::{self, ConsoleOptions, ConsoleOutput};
use capabot::host::{self, Host};
use capabot::notation::fen;
use capabot::render::{self, RenderOptions};
use capabot::rules::{Move, Position, VARIANTS, setups};
use capabot::store::Store;
use capabot::tools;
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// `println!` for the sub-commands' results: a reader that stops early (`capabot match ... | head`) ends
/// the program quietly instead of a panic over the closed pipe.
macro_rules! outln {
    () => { emit(format_args!("\n")) };
    ($($arg:tt)*) => { emit(format_args!("{}\n", format_args!($($arg)*))) };
}

fn emit(text: std::fmt::Arguments) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(text).and_then(|_| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {e}");
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

#[derive(Parser)]
#[command(name = "capabot", version, about = "A chat bot for chess variants, with its own rules engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the variants: name and display name.
    Variants,
    /// Count leaf nodes of the move tree (move generator check).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        #[arg(long)]
        depth: u32,
        /// One line per root move, then the total.
        #[arg(long)]
        divide: bool,
    },
    /// Number of numbered setups, or one setup's start FEN.
    Setups {
        #[arg(long)]
        variant: String,
        #[arg(long)]
        index: Option<usize>,
    },
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
    /// A terminal chat with the bot: type `name> message` (e.g. `alice> !challenge @bob capatomic`).
    Console {
        /// Configuration file (default: ./capabot.toml when present).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database file (overrides config and CAPABOT_DB).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Folder for board pictures (default ./boards).
        #[arg(long)]
        boards: Option<PathBuf>,
        /// Run the lines of FILE instead of reading the terminal.
        #[arg(long)]
        script: Option<PathBuf>,
        /// Do not write board pictures.
        #[arg(long)]
        no_pictures: bool,
        /// Do not print text boards.
        #[arg(long)]
        no_text_boards: bool,
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
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Speak the UCI protocol on stdin/stdout (Fairy-Stockfish conventions, option UCI_Variant).
    Uci,
    /// Search one position and print the best move with depth, score, nodes and principal variation.
    #[command(mut_arg("variant", |a| a.required(false).default_value("chess")))]
    Think {
        #[command(flatten)]
        position: PositionArgs,
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
    /// Draw a position as a PNG picture.
    #[command(mut_arg("moves", |a| a.help("Moves played from the position; the last one is highlighted")))]
    Render {
        #[command(flatten)]
        position: PositionArgs,
        /// Show the board from the side not to move (default: the side to move sees it from their side).
        #[arg(long)]
        flip: bool,
        /// Theme: wood (default), green, contrast.
        #[arg(long, default_value = "wood")]
        theme: String,
        /// Board size in pixels (longer side), clamped to 160..=1600.
        #[arg(long, default_value_t = 800)]
        size: u32,
        /// Title strip above the board.
        #[arg(long)]
        title: Option<String>,
        /// Mark the missiles that may launch this turn.
        #[arg(long)]
        launch_ready: bool,
        /// Leave out the coordinates.
        #[arg(long)]
        no_coordinates: bool,
        /// Output file.
        #[arg(short, long)]
        output: PathBuf,
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
    },
}

/// The position a sub-command works on (`perft`, `think`, `render`).
#[derive(Args)]
struct PositionArgs {
    #[arg(long)]
    variant: String,
    #[arg(long, conflicts_with = "setup")]
    fen: Option<String>,
    #[arg(long)]
    setup: Option<usize>,
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The position after the moves, and the last move.
    fn resolve(&self) -> Result<(Position, Option<Move>), String> {
        let v = tools::variant(&self.variant)?;
        tools::position(v, self.fen.as_deref(), self.setup, &self.moves)
    }
}

/// The AI behind capabot's own side.
fn oracle() -> Arc<dyn MoveOracle> {
    match std::env::var("CAPABOT_AI").as_deref() {
        Ok("first-legal") => Arc::new(FirstLegalMove),
        Ok("none") => Arc::new(NoAi),
        _ => Arc::new(CapabotAi),
    }
}

/// Opens the database and starts the host on a tokio runtime.
fn start_host(cfg: &Config) -> Result<(Arc<Host>, tokio::runtime::Runtime), String> {
    let store = Store::open(&cfg.db).map_err(|e| format!("cannot open {}: {e}", cfg.db.display()))?;
    let bot = Arc::new(Bot::new(store, Arc::new(SystemClock), oracle(), cfg.bot_config()));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let host = Host::new(bot, cfg.host_config());
    Ok((host, rt))
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Variants => {
            for v in VARIANTS {
                outln!("{} {}", v.name, v.display_name);
            }
        }
        Command::Perft { position, depth, divide } => {
            let (pos, _) = position.resolve()?;
            if divide {
                let (lines, total) = tools::perft::divide(&pos, depth);
                for (m, n) in lines {
                    outln!("{m}: {n}");
                }
                outln!();
                outln!("Nodes searched: {total}");
            } else {
                let (n, secs) = tools::perft::timed(&pos, depth);
                outln!("Nodes searched: {n}");
                eprintln!("{}", tools::perft::speed_line(n, secs));
            }
        }
        Command::Setups { variant, index } => {
            let v = tools::variant(&variant)?;
            match index {
                None => outln!("{}", setups::count(v)),
                Some(i) => outln!("{}", fen::write(&tools::setup(v, i)?)),
            }
        }
        Command::Bench { runs, variants, depth } => {
            for (v, d) in tools::perft::bench_list(&variants, depth)? {
                outln!("{}", tools::perft::bench(v, d, runs));
            }
        }
        Command::Console { config, db, boards, script, no_pictures, no_text_boards } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            if let Some(b) = boards {
                cfg.console.boards_dir = b;
            }
            if no_pictures {
                cfg.pictures = false;
            }
            let interactive = script.is_none() && std::io::stdin().is_terminal();
            let opts = ConsoleOptions {
                boards_dir: cfg.pictures.then(|| cfg.console.boards_dir.clone()),
                text_boards: !no_text_boards,
                prompt: interactive,
            };
            let input: Box<dyn std::io::BufRead + Send> = match &script {
                Some(path) => Box::new(std::io::BufReader::new(
                    std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?,
                )),
                None => Box::new(std::io::BufReader::new(std::io::stdin())),
            };
            if interactive {
                outln!(
                    "capabot console — database {}. Type `name> message`, e.g. `alice> !help`; /as NAME, /quit.",
                    cfg.db.display()
                );
            }
            let (host, rt) = start_host(&cfg)?;
            let output = Arc::new(ConsoleOutput::new(Box::new(std::io::stdout()), opts));
            let grace = std::time::Duration::from_secs(cfg.host.shutdown_grace_seconds);
            let res = rt.block_on(async {
                let console = tokio::spawn(console::run(host.clone(), output, input));
                tokio::select! {
                    r = console => r.map_err(|e| format!("console: {e}"))?.map_err(|e| format!("console: {e}")),
                    _ = host::shutdown_signal() => Ok(()),
                }
            });
            rt.block_on(host.shutdown(grace));
            rt.shutdown_timeout(std::time::Duration::from_millis(100));
            res?;
        }
        Command::BenchBot { games, threads, plies, variant, no_pictures, db, seed } => {
            let v = tools::variant(&variant)?;
            let opts = bot::bench::BenchOptions { games, threads, plies, variant: v, pictures: !no_pictures, seed };
            let r = bot::bench::run_with_db(db.as_deref(), &opts)?;
            outln!("{}", r.summary(&opts));
        }
        Command::Uci => {
            let out: ai::uci::Output = Arc::new(Mutex::new(std::io::stdout()));
            ai::uci::run(std::io::stdin().lock(), out);
        }
        Command::Think { position, movetime, depth, nodes, level } => {
            let (pos, _) = position.resolve()?;
            let limits = tools::engine::think_limits(level, depth, nodes, movetime)?;
            outln!("{}", tools::engine::think(&pos, &limits, &mut |line| outln!("{line}")));
        }
        Command::BenchAi { movetime, variants } => {
            let list = tools::variants_or_all(&variants)?;
            outln!("{}", tools::engine::BENCH_AI_HEADER);
            for v in list {
                outln!("{}", tools::engine::bench_ai(v, movetime));
            }
        }
        Command::BenchDeadline { movetime, searches, seed, variants } => {
            let list = tools::variants_or_all(&variants)?;
            outln!("{}", tools::engine::BENCH_DEADLINE_HEADER);
            for v in list {
                outln!("{}", tools::engine::bench_deadline(v, movetime, searches.max(1), seed));
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
            let options = tools::engine::MatchOptions {
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
            let report = tools::engine::play_match(&options, &mut |g, rec| {
                if verbose {
                    outln!("{}", tools::engine::game_line(g, rec));
                    outln!("  moves {}", rec.moves.join(" "));
                }
            })?;
            outln!("{report}");
        }
        Command::TuneGen { variant, games, nodes, random_plies, per_game, seed, threads } => {
            let variant = tools::variant(&variant)?;
            let opts = tools::tune::GenOptions { variant, games, nodes, random_plies, per_game, seed, threads };
            for line in tools::tune::generate(&opts) {
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
                let (mut s, skipped) = tools::tune::load_samples(tools::variant(name)?, &text);
                eprintln!("{path}: {} positions ({skipped:?})", s.len());
                samples.append(&mut s);
            }
            let weights: Vec<_> = tools::tune::tunable_weights(v)
                .into_iter()
                .filter(|w| only.is_empty() || only.iter().any(|o| w.field.starts_with(o.as_str())))
                .filter(|w| !skip.iter().any(|o| w.field.starts_with(o.as_str())))
                .collect();
            let start = ai::eval::params_for(v);
            let opts = tools::tune::FitOptions { passes, threads };
            let report = tools::tune::fit(start, &weights, samples, &opts, &mut |line| eprintln!("{line}"));
            for (w, old, new) in &report.changes {
                eprintln!("{}[{}]: {old} -> {new}", w.field, w.index);
            }
            emit(format_args!("{}", report.params.to_rust()));
        }
        Command::Render { position, flip, theme, size, title, launch_ready, no_coordinates, output } => {
            let (pos, last_move) = position.resolve()?;
            let mut opts = RenderOptions::for_position(&pos);
            if flip {
                opts.orientation = opts.orientation.other();
            }
            opts.theme = tools::theme(&theme)?;
            opts.size = size;
            opts.title = title;
            opts.last_move = last_move;
            opts.show_launch_ready = launch_ready;
            opts.coordinates = !no_coordinates;
            let png = render::render(&pos, &opts);
            std::fs::write(&output, &png).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
            eprintln!("wrote {} ({} bytes)", output.display(), png.len());
        }
        Command::BenchRender { runs, size, theme } => {
            let opts = RenderOptions { size, theme: tools::theme(&theme)?, ..RenderOptions::default() };
            for v in VARIANTS {
                outln!("{}", render::bench::bench(&Position::start(v), &opts, runs));
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    init_tracing();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

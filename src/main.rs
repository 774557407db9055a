//! The `capabot` command: wires configuration and sub-commands to the library. No game logic here.

use capabot::ai::{self, Limits, arena};
use capabot::bot::{self, Bot, CapabotAi, FirstLegalMove, MoveOracle, NoAi, SystemClock};
use capabot::config::Config;
use capabot::console::{Console, ConsoleOptions};
use capabot::notation::{self, fen, uci};
use capabot::render::{self, RenderOptions, Theme};
use capabot::rules::{Move, Position, VARIANTS, Variant, setups};
use capabot::store::Store;
use clap::{Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
        #[arg(long)]
        variant: String,
        #[arg(long, conflicts_with = "setup")]
        fen: Option<String>,
        #[arg(long)]
        setup: Option<usize>,
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
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
    },
    /// Search speed: nodes per second and depth reached from each variant's start position.
    BenchAi {
        /// Milliseconds per position.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
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
    /// Draw a position as a PNG picture.
    Render {
        #[arg(long)]
        variant: String,
        #[arg(long, conflicts_with = "setup")]
        fen: Option<String>,
        #[arg(long)]
        setup: Option<usize>,
        /// Moves played from the position; the last one is highlighted.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
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
        output: std::path::PathBuf,
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

/// The AI behind capabot's own side.
fn oracle() -> Arc<dyn MoveOracle> {
    match std::env::var("CAPABOT_AI").as_deref() {
        Ok("first-legal") => Arc::new(FirstLegalMove),
        Ok("none") => Arc::new(NoAi),
        _ => Arc::new(CapabotAi),
    }
}

fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

fn theme(name: &str) -> Result<Theme, String> {
    Theme::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
        format!("unknown theme '{name}'; known: {}", names.join(", "))
    })
}

fn variant(name: &str) -> Result<&'static Variant, String> {
    Variant::by_name(name).ok_or_else(|| {
        let names: Vec<&str> = VARIANTS.iter().map(|v| v.name).collect();
        format!("unknown variant '{name}'; known: {}", names.join(", "))
    })
}

fn start_position(
    v: &'static Variant,
    fen_text: Option<&str>,
    setup: Option<usize>,
    moves: &[String],
) -> Result<Position, String> {
    let mut pos = match (fen_text, setup) {
        (Some(f), _) => fen::parse_position(v, f).map_err(|e| format!("bad FEN: {e}"))?,
        (None, Some(i)) => setups::position(v, i)
            .ok_or_else(|| format!("{} has setups 0…{}, not {i}", v.name, setups::count(v).saturating_sub(1)))?,
        (None, None) => Position::start(v),
    };
    for m in moves {
        let mv = notation::parse_move(&pos, m).map_err(|e| e.to_string())?;
        pos = pos.play(mv);
    }
    Ok(pos)
}

/// Plays `moves` from `pos`, returning the final position and the last move.
fn play_moves(mut pos: Position, moves: &[String]) -> Result<(Position, Option<Move>), String> {
    let mut last = None;
    for m in moves {
        let mv = notation::parse_move(&pos, m).map_err(|e| e.to_string())?;
        pos = pos.play(mv);
        last = Some(mv);
    }
    Ok((pos, last))
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Variants => {
            for v in VARIANTS {
                println!("{} {}", v.name, v.display_name);
            }
        }
        Command::Perft { variant: vn, fen, setup, moves, depth, divide } => {
            let v = variant(&vn)?;
            let pos = start_position(v, fen.as_deref(), setup, &moves)?;
            if divide {
                let mut total = 0;
                let mut lines: Vec<(String, u64)> =
                    pos.divide(depth).into_iter().map(|(m, n)| (uci::write(&pos, m), n)).collect();
                lines.sort();
                for (m, n) in lines {
                    println!("{m}: {n}");
                    total += n;
                }
                println!();
                println!("Nodes searched: {total}");
            } else {
                let t = Instant::now();
                let n = pos.perft(depth);
                let secs = t.elapsed().as_secs_f64();
                println!("Nodes searched: {n}");
                eprintln!("time {:.3} s, {:.1} M nodes/s", secs, n as f64 / secs.max(1e-9) / 1e6);
            }
        }
        Command::Setups { variant: vn, index } => {
            let v = variant(&vn)?;
            match index {
                None => println!("{}", setups::count(v)),
                Some(i) => {
                    let pos = setups::position(v, i).ok_or_else(|| {
                        format!("{} has setups 0…{}, not {i}", v.name, setups::count(v).saturating_sub(1))
                    })?;
                    println!("{}", fen::write(&pos));
                }
            }
        }
        Command::Bench { runs, variants, depth } => {
            let list: Vec<(&'static Variant, u32)> = if variants.is_empty() {
                ["chess", "capablanca", "atomic", "capatomic"]
                    .iter()
                    .map(|n| (Variant::by_name(n).expect("built in"), if *n == "capatomic" { 4 } else { 5 }))
                    .collect()
            } else {
                variants.iter().map(|n| variant(n).map(|v| (v, 5))).collect::<Result<_, _>>()?
            };
            for (v, d) in list {
                let d = depth.unwrap_or(d);
                let pos = Position::start(v);
                let mut times = Vec::new();
                let mut nodes = 0;
                for _ in 0..runs.max(1) {
                    let t = Instant::now();
                    nodes = pos.perft(d);
                    times.push(t.elapsed().as_secs_f64());
                }
                times.sort_by(f64::total_cmp);
                let median = times[times.len() / 2];
                println!(
                    "perft {:<12} depth {d}: {nodes:>11} nodes, median {median:.3} s, {:.1} M nodes/s",
                    v.name,
                    nodes as f64 / median / 1e6
                );
            }
        }
        Command::Console { config, db, boards, script, no_pictures, no_text_boards } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            if let Some(b) = boards {
                cfg.boards_dir = b;
            }
            if no_pictures {
                cfg.pictures = false;
            }
            let store = Store::open(&cfg.db).map_err(|e| format!("cannot open {}: {e}", cfg.db.display()))?;
            let bot = Bot::new(store, Arc::new(SystemClock), oracle(), cfg.bot_config());
            let interactive = script.is_none() && std::io::stdin().is_terminal();
            let opts = ConsoleOptions {
                boards_dir: cfg.pictures.then(|| cfg.boards_dir.clone()),
                text_boards: !no_text_boards,
                prompt: interactive,
            };
            if interactive {
                println!(
                    "capabot console — database {}. Type `name> message`, e.g. `alice> !help`; /as NAME, /quit.",
                    cfg.db.display()
                );
            }
            let mut console = Console::new(&bot, opts);
            let mut out = std::io::stdout().lock();
            let res = match script {
                Some(path) => {
                    let f = std::fs::File::open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
                    console.run(std::io::BufReader::new(f), &mut out)
                }
                None => console.run(std::io::stdin().lock(), &mut out),
            };
            res.map_err(|e| format!("console: {e}"))?;
        }
        Command::BenchBot { games, threads, plies, variant: vn, no_pictures, db, seed } => {
            let v = variant(&vn)?;
            let tmp = std::env::temp_dir().join(format!("capabot-bench-{}", std::process::id()));
            let path = db.unwrap_or_else(|| tmp.join("bench.db"));
            let opts = bot::bench::BenchOptions { games, threads, plies, variant: v, pictures: !no_pictures, seed };
            let r = bot::bench::run(&path, &opts);
            let _ = std::fs::remove_dir_all(&tmp);
            let r = r?;
            println!(
                "bench-bot {} games on {} threads ({}): {} accepted moves in {:.2} s = {:.0} moves/s; \
                 latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} pictures; {} refused",
                games,
                threads,
                v.name,
                r.accepted,
                r.elapsed.as_secs_f64(),
                r.moves_per_sec(),
                r.p50.as_secs_f64() * 1e3,
                r.p99.as_secs_f64() * 1e3,
                r.max.as_secs_f64() * 1e3,
                r.pictures,
                r.refused
            );
        }
        Command::Uci => {
            let out: ai::uci::Output = Arc::new(Mutex::new(std::io::stdout()));
            ai::uci::run(std::io::stdin().lock(), out);
        }
        Command::Think { variant: vn, fen, setup, moves, movetime, depth, nodes, level } => {
            let v = variant(&vn)?;
            let pos = start_position(v, fen.as_deref(), setup, &moves)?;
            let mut limits = match level {
                Some(l) if (1..=8).contains(&l) => Limits::for_level(l),
                Some(l) => return Err(format!("levels are 1 to 8, not {l}")),
                None => Limits::default(),
            };
            limits.depth = depth.or(limits.depth);
            limits.nodes = nodes.or(limits.nodes);
            limits.movetime = movetime.map(Duration::from_millis).or(limits.movetime);
            if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
                limits.movetime = Some(Duration::from_secs(1));
            }
            let root = pos.clone();
            let t = Instant::now();
            let r = ai::search_with(&pos, &[], &limits, &mut ai::tt::Tt::new(16), &mut |info| {
                println!("{}", ai::uci::info_line(&root, info))
            });
            let secs = t.elapsed().as_secs_f64();
            match r.best {
                Some(m) => println!(
                    "bestmove {} ({}) score {} depth {} nodes {} in {:.3} s",
                    uci::write(&pos, m),
                    notation::san::write(&pos, m),
                    r.score,
                    r.depth,
                    r.nodes,
                    secs
                ),
                None => println!("no move: the game is over"),
            }
        }
        Command::BenchAi { movetime, variants } => {
            let list: Vec<&'static Variant> = if variants.is_empty() {
                VARIANTS.to_vec()
            } else {
                variants.iter().map(|n| variant(n)).collect::<Result<_, _>>()?
            };
            println!("| variant | depth | nodes | nps | time used (ms) |");
            println!("|---|---:|---:|---:|---:|");
            for v in list {
                let pos = Position::start(v);
                let t = Instant::now();
                let r = ai::best_move(&pos, &Limits::movetime(Duration::from_millis(movetime)));
                let secs = t.elapsed().as_secs_f64();
                println!(
                    "| {} | {} | {} | {:.0} | {:.0} |",
                    v.name,
                    r.depth,
                    r.nodes,
                    r.nodes as f64 / secs.max(1e-9),
                    secs * 1000.0
                );
            }
        }
        Command::Match {
            variant: vn,
            games,
            movetime,
            a,
            b,
            random_plies,
            seed,
            max_plies,
            verbose,
            adjudicate,
            concurrency,
        } => {
            let v = variant(&vn)?;
            let cfg = arena::MatchConfig {
                variant: v,
                games,
                movetime: Duration::from_millis(movetime.max(1)),
                random_plies,
                seed,
                max_plies,
                adjudicate,
            };
            let spec_a = arena::PlayerSpec::parse(&a)?;
            let spec_b = arena::PlayerSpec::parse(&b)?;
            let t = Instant::now();
            let sum = arena::run_match(&cfg, &spec_a, &spec_b, concurrency, &mut |g, rec| {
                if verbose {
                    println!(
                        "game {:>3}: A {} {} ({}, {} plies) from {}",
                        g + 1,
                        if rec.white_is_a { "white" } else { "black" },
                        rec.score_a,
                        rec.reason,
                        rec.plies,
                        rec.start_fen
                    );
                    println!("  moves {}", rec.moves.join(" "));
                }
            })?;
            let (w, d, l) = (sum.wins, sum.draws, sum.losses);
            let (score, depth, nps) = (sum.score(), sum.avg_depth(), sum.nps());
            println!(
                "| {} | {a} | {b} | {movetime} ms | {} | +{w} ={d} -{l} | {:.1} % | {:+.0} | {:.1} | {:.0} | {:.0} s |",
                v.name,
                w + d + l,
                score * 100.0,
                arena::elo_diff(score),
                depth,
                nps,
                t.elapsed().as_secs_f64()
            );
        }
        Command::Render {
            variant: vn,
            fen,
            setup,
            moves,
            flip,
            theme: tn,
            size,
            title,
            launch_ready,
            no_coordinates,
            output,
        } => {
            let v = variant(&vn)?;
            let start = start_position(v, fen.as_deref(), setup, &[])?;
            let (pos, last_move) = play_moves(start, &moves)?;
            let mut opts = RenderOptions::for_position(&pos);
            if flip {
                opts.orientation = opts.orientation.other();
            }
            opts.theme = theme(&tn)?;
            opts.size = size;
            opts.title = title;
            opts.last_move = last_move;
            opts.show_launch_ready = launch_ready;
            opts.coordinates = !no_coordinates;
            let png = render::render(&pos, &opts);
            std::fs::write(&output, &png).map_err(|e| format!("cannot write {}: {e}", output.display()))?;
            eprintln!("wrote {} ({} bytes)", output.display(), png.len());
        }
        Command::BenchRender { runs, size, theme: tn } => {
            let theme = theme(&tn)?;
            for v in VARIANTS {
                let pos = Position::start(v);
                let opts = RenderOptions { size, theme, ..RenderOptions::default() };
                let mut bytes = render::render(&pos, &opts).len();
                let mut times = Vec::with_capacity(runs.max(1));
                for _ in 0..runs.max(1) {
                    let t = Instant::now();
                    let png = render::render(&pos, &opts);
                    times.push(t.elapsed().as_secs_f64());
                    bytes = png.len();
                }
                times.sort_by(f64::total_cmp);
                let l = render::Layout::new(&pos, &opts);
                println!(
                    "render {:<15} {}x{}: median {:.3} ms, {:.1} KB",
                    v.name,
                    l.width(),
                    l.height(),
                    times[times.len() / 2] * 1e3,
                    bytes as f64 / 1024.0
                );
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

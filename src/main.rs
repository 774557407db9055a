//! The `capabot` command: wires configuration and sub-commands to the library. No game logic here.

use capabot::ai;
use capabot::config::Config;
use capabot::console::ConsoleOptions;
use capabot::notation::fen;
use capabot::outln;
use capabot::render::{self, RenderOptions};
use capabot::rules::{Move, Position, VARIANTS, setups};
use capabot::tools::{self, serve};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// mimalloc instead of glibc's malloc: per-thread free lists without locks for the many small, short-lived
/// allocations of a move's round trip (docs/load.md, "The allocator").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Run every chat front end that has credentials in the environment, in one process.
    ///
    /// Discord: DISCORD_TOKEN or DISCORD_TOKEN_FILE; Matrix: MATRIX_HOMESERVER, MATRIX_USER and a
    /// password or access token. One host, one scheduler and one database for all of them.
    #[cfg(any(feature = "discord", feature = "matrix"))]
    Run {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<PathBuf>,
        /// The Matrix store directory.
        #[arg(long)]
        store: Option<PathBuf>,
        #[command(flatten)]
        shards: ShardArgs,
    },
    /// Run the Discord bot alone (token from DISCORD_TOKEN or the file named by DISCORD_TOKEN_FILE).
    #[cfg(feature = "discord")]
    Discord {
        /// Configuration file (default: ./capabot.toml when present).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database file (overrides config and CAPABOT_DB).
        #[arg(long)]
        db: Option<PathBuf>,
        #[command(flatten)]
        shards: ShardArgs,
    },
    /// Run the Matrix bot alone (MATRIX_HOMESERVER, MATRIX_USER and MATRIX_PASSWORD or MATRIX_ACCESS_TOKEN).
    #[cfg(feature = "matrix")]
    Matrix {
        /// Configuration file (default: ./capabot.toml when present).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database file (overrides config and CAPABOT_DB).
        #[arg(long)]
        db: Option<PathBuf>,
        /// The Matrix store folder: session, sync token, encryption keys (overrides `[matrix] store`).
        #[arg(long)]
        store: Option<PathBuf>,
    },
    /// The outbox by platform and state: replies waiting, sent, and failed for good by kind (what an
    /// operator watches).
    Outbox {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<PathBuf>,
    },
    /// The scheduler's failed items: each with its kind, id, tries and last error, and whether it is
    /// set aside (no longer tried). With --retry, puts items back in the scheduler's hands after a
    /// fix: KIND and ID name one, without them every item set aside.
    Scheduler {
        #[arg(long)]
        config: Option<PathBuf>,
        #[arg(long)]
        db: Option<PathBuf>,
        /// Try the item(s) again at the next tick.
        #[arg(long)]
        retry: bool,
        /// The item's kind (`timeout`, `reminder`, `challenge-expiry`, `ladder`, `tournament-signup`, …).
        #[arg(requires = "id")]
        kind: Option<String>,
        /// The item's id (a game, challenge, ladder or tournament number).
        id: Option<i64>,
    },
    /// Copies everything from the database (the config's `db`, or --from) into an empty PostgreSQL
    /// database in one transaction, compares the row counts and replays every game; refuses a
    /// target that has any row. Stop the bot first.
    #[cfg(feature = "postgres")]
    Migrate {
        #[arg(long)]
        config: Option<PathBuf>,
        /// The database to copy (overrides config and CAPABOT_DB).
        #[arg(long)]
        from: Option<PathBuf>,
        /// The PostgreSQL database (postgres://…); default CAPABOT_DATABASE_URL, which keeps the
        /// password out of the process list.
        #[arg(long)]
        to: Option<String>,
    },
    /// A consistent copy of the SQLite database, safe while the bot runs and writes (SQLite's
    /// online backup). PostgreSQL: use `pg_dump` (see the README).
    Backup {
        /// Where the copy goes; refused when it exists, unless --force.
        file: PathBuf,
        #[arg(long)]
        config: Option<PathBuf>,
        /// Database file (overrides config and CAPABOT_DB).
        #[arg(long)]
        db: Option<PathBuf>,
        /// Replace FILE when it exists.
        #[arg(long)]
        force: bool,
    },
    /// Speak the UCI protocol on stdin/stdout (Fairy-Stockfish conventions, option UCI_Variant).
    Uci,
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
}

/// The position a sub-command works on (`perft`, `render`).
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

// Which Discord shards this process runs (override `[discord] shards` and `shard_total`). A plain
// comment: a doc comment here would become the `about` of every sub-command that flattens these.
#[cfg(any(feature = "discord", feature = "matrix"))]
#[derive(Args, Debug, Default)]
struct ShardArgs {
    /// The Discord shards this process runs, such as 0-3 (both ends included); needs --shard-total.
    /// Without it: every shard of --shard-total, or as many as Discord recommends.
    #[arg(long)]
    shards: Option<String>,
    /// How many Discord shards the bot runs in all, over every process.
    #[arg(long)]
    shard_total: Option<u32>,
}

#[cfg(any(feature = "discord", feature = "matrix"))]
impl ShardArgs {
    fn apply(self, cfg: &mut Config) -> Result<(), String> {
        if self.shards.is_some() {
            cfg.discord.shards = self.shards;
        }
        if self.shard_total.is_some() {
            cfg.discord.shard_total = self.shard_total;
        }
        // The message names the options' config keys; the flags set the same values.
        cfg.discord.shard_range().map(|_| ())
    }
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
                    cfg.database_label()
                );
            }
            serve::run_console(&cfg, opts, input)?;
        }
        #[cfg(any(feature = "discord", feature = "matrix"))]
        Command::Run { config, db, store, shards } => {
            let mut cfg = Config::load(config.as_deref())?;
            shards.apply(&mut cfg)?;
            if let Some(db) = db {
                cfg.db = db;
            }
            if let Some(store) = store {
                cfg.matrix.store = store;
            }
            serve::run_with_credentials(cfg)?;
        }
        #[cfg(feature = "discord")]
        Command::Discord { config, db, shards } => {
            let mut cfg = Config::load(config.as_deref())?;
            shards.apply(&mut cfg)?;
            if let Some(db) = db {
                cfg.db = db;
            }
            serve::run_front_ends(cfg, true, false)?;
        }
        #[cfg(feature = "matrix")]
        Command::Matrix { config, db, store } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            if let Some(store) = store {
                cfg.matrix.store = store;
            }
            serve::run_front_ends(cfg, false, true)?;
        }
        #[cfg(feature = "postgres")]
        Command::Migrate { config, from, to } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(from) = from {
                cfg.db = from;
            }
            let to = to
                .or_else(|| std::env::var("CAPABOT_DATABASE_URL").ok())
                .ok_or("name the PostgreSQL database with --to or CAPABOT_DATABASE_URL")?;
            let target_cfg = Config { db: PathBuf::from(to), ..cfg.clone() };
            if !capabot::store::is_postgres_url(&target_cfg.db.to_string_lossy()) {
                return Err(format!("{} is not a postgres:// URL", target_cfg.database_label()));
            }
            let source = cfg.open_store()?;
            let bot = capabot::bot::Bot::new(
                target_cfg.open_store()?,
                Arc::new(capabot::bot::SystemClock),
                Arc::new(capabot::bot::NoAi),
                cfg.bot_config(),
            );
            let progress = |line: &str| eprintln!("migrate: {line}");
            let report =
                capabot::store::copy::copy_reporting(&source, bot.store(), |ids| bot.verify_games(ids), &progress)
                    .map_err(|e| format!("nothing was copied: {e}"))?;
            for (table, rows) in &report.tables {
                outln!("{table}: {rows} rows");
            }
            outln!(
                "copied {} tables from {} to {}; row counts equal; {} games replayed",
                report.tables.len(),
                cfg.database_label(),
                target_cfg.database_label(),
                report.games
            );
        }
        Command::Outbox { config, db } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            let store = cfg.open_store()?;
            let conn = store.conn().map_err(|e| e.to_string())?;
            let counts = capabot::store::outbox::counts(&conn).map_err(|e| e.to_string())?;
            if counts.is_empty() {
                outln!("the outbox is empty");
            }
            for (platform, state, n) in counts {
                outln!("{platform} {state} {n}");
            }
        }
        Command::Scheduler { config, db, retry, kind, id } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            let store = cfg.open_store()?;
            use capabot::store::schedule;
            if retry {
                let item = kind.as_deref().zip(id);
                let n = store.unit(|| schedule::retry(&*store.conn()?, item)).map_err(|e| e.to_string())?;
                outln!("{n} item(s) put back; they are tried at the next tick");
            } else {
                let failed = schedule::list(&*store.conn().map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
                if failed.is_empty() {
                    outln!("no scheduled item has failed");
                }
                for f in failed {
                    let state = if f.set_aside { "set aside" } else { "failing" };
                    outln!("{} {} {state} tries={} last={} {}", f.kind, f.item_id, f.tries, f.last_at, f.last_error);
                }
            }
        }
        Command::Backup { file, config, db, force } => {
            let mut cfg = Config::load(config.as_deref())?;
            if let Some(db) = db {
                cfg.db = db;
            }
            if capabot::store::is_postgres_url(&cfg.db.to_string_lossy()) {
                return Err(format!(
                    "{} is a PostgreSQL database: back it up with pg_dump (see the README)",
                    cfg.database_label()
                ));
            }
            let progress = |done: u64, all: u64| {
                eprintln!("backup: {:.1} of {:.1} MB copied", done as f64 / 1e6, all as f64 / 1e6);
            };
            let report = capabot::store::backup::backup_reporting(&cfg.db, &file, force, &progress)
                .map_err(|e| e.to_string())?;
            outln!(
                "backed up {} to {} ({} pages, {} bytes; integrity check ok)",
                cfg.db.display(),
                file.display(),
                report.pages,
                report.bytes
            );
        }
        Command::Uci => {
            let out: ai::uci::Output = Arc::new(Mutex::new(std::io::stdout()));
            ai::uci::run(std::io::stdin().lock(), out);
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
    }
    Ok(())
}

fn main() -> ExitCode {
    capabot::tools::init_tracing();
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

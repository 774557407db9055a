//! The `capabot` command: wires configuration and sub-commands to the library. No game logic here.

use capabot::notation::{self, fen, uci};
use capabot::rules::{Position, VARIANTS, Variant, setups};
use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Instant;

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
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

//! A load run over several processes (not a test): `capabot discord` processes, each with a range
//! of the fake Discord's shards, on one database, play N games at once by `/move` interactions.
//! One process on SQLite next to one, two and three on PostgreSQL (a server of the PostgreSQL
//! harness on 127.0.0.1), the same games in each, in one run: accepted moves per second and the
//! latency from an interaction's dispatch to the REST call that answers it.

use super::bot::{BenchOptions, BenchReport};
use super::discord::{Players, line, median_line, set_up, spawn_discord, world};
use super::{Processes, capabot_binary, keeping_logs_on_failure};
use capabot::bot::{Bot, BotConfig, NoAi, SystemClock};
use capabot::store::Store;
use fake_discord::FakeDiscord;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The fake Discord's shards, shared out between the processes.
pub const SHARDS: u32 = 6;

/// Where the processes keep their data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// One configuration: a backend, how many processes share it, and whether they know the web
/// pages' public address (and so tell each other of their changes on PostgreSQL).
#[derive(Clone, Copy, Debug)]
pub struct Setup {
    pub backend: Backend,
    pub processes: u32,
    pub notices: bool,
}

/// The public address the processes are given with [`Setup::notices`] (nothing is served there).
const WEB_URL: &str = "https://chess.example.org";

impl Setup {
    fn label(self) -> String {
        let backend = match self.backend {
            Backend::Sqlite => "SQLite",
            Backend::Postgres => "PostgreSQL",
        };
        format!("{} × {backend}{}", self.processes, if self.notices { ", notices" } else { "" })
    }
}

/// The shard ranges of `processes` processes over [`SHARDS`] shards: `0-5`; `0-2`, `3-5`; …
fn ranges(processes: u32) -> Vec<String> {
    let n = processes.clamp(1, SHARDS);
    (0..n).map(|p| format!("{}-{}", p * SHARDS / n, (p + 1) * SHARDS / n - 1)).collect()
}

/// The games of `opts` played through `setup.processes` `capabot discord` processes (the binary
/// `capabot`) on a fresh database in `dir`: each game's next move sent as soon as the last is
/// answered, or, with `rate`, moves offered at `rate` per second in all.
pub fn run_shards(
    capabot: &Path,
    dir: &Path,
    setup: Setup,
    opts: &BenchOptions,
    rate: Option<f64>,
) -> Result<BenchReport, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(opts.threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    // The database: a SQLite file, or a new database on the harness's PostgreSQL server (dropped
    // with it).
    let (url, _database) = match setup.backend {
        Backend::Sqlite => {
            let path = dir.join(format!("shards-{}.db", std::process::id()));
            let _ = std::fs::remove_file(&path);
            (path.to_string_lossy().into_owned(), None)
        }
        Backend::Postgres => {
            let server = pg_harness::PgServer::shared().map_err(|e| e.to_string())?;
            let database = server.create_database().map_err(|e| e.to_string())?;
            (database.url(), Some(database))
        }
    };
    let store = Store::open_setting(&url).map_err(|e| e.to_string())?;
    let bot = Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), BotConfig::default());
    let starts = set_up(&bot, opts, SHARDS)?;
    // As `bench-bot` and `bench-discord` do: the statistics autovacuum gathers in a deployment that
    // has run for a minute (without them PostgreSQL read every active game for a chat's).
    super::bot::analyze_if_postgres(&bot)?;
    drop(bot);
    for range in ranges(setup.processes) {
        let _ = std::fs::remove_file(dir.join(format!("shards-{range}.log")));
    }
    let report = rt.block_on(async {
        let fake = FakeDiscord::start(world(opts.games, SHARDS)).await;
        let mut processes = Processes(Vec::new());
        for range in ranges(setup.processes) {
            let web_url = setup.notices.then_some(WEB_URL);
            processes.0.push(spawn_discord(capabot, dir, (&range, SHARDS), &url, &fake, web_url)?);
        }
        let all: Vec<[u32; 2]> = (0..SHARDS).map(|s| [s, SHARDS]).collect();
        fake.wait_for_shards(&all, Duration::from_secs(120)).await;

        let report = Players::start(&fake, starts, opts, rate).results().await;
        drop(processes);
        report
    })?;
    if report.refused > 0 {
        tell_errors(dir, setup.processes);
    }
    Ok(report)
}

/// The warnings and errors the processes of a run logged (at most 20 lines each), on stderr: what
/// lay under the moves refused.
fn tell_errors(dir: &Path, processes: u32) {
    for range in ranges(processes) {
        let log = std::fs::read_to_string(dir.join(format!("shards-{range}.log"))).unwrap_or_default();
        let lines: Vec<&str> = log.lines().filter(|l| l.contains("ERROR") || l.contains("WARN")).collect();
        eprintln!("process {range}: {} warnings and errors logged", lines.len());
        for l in lines.iter().take(20) {
            eprintln!("  {l}");
        }
    }
}

/// `runs` rounds of the four setups (one process on SQLite; one, two and three on PostgreSQL), each
/// on a fresh database: every round's lines, then the medians. With `notices`, PostgreSQL's three
/// setups each without and with the change notices, one after the other (which goes first swaps
/// each round, so that neither always runs on a machine the other just warmed or loaded).
pub fn shard_rounds(
    capabot: Option<PathBuf>,
    opts: &BenchOptions,
    runs: usize,
    rate: Option<f64>,
    notices: bool,
) -> Result<String, String> {
    let capabot = capabot_binary(capabot)?;
    let dir = std::env::temp_dir().join(format!("capabot-bench-shards-{}", std::process::id()));
    let setups: Vec<Setup> = if notices {
        (1..=3)
            .flat_map(|processes| [false, true].map(|notices| Setup { backend: Backend::Postgres, processes, notices }))
            .collect()
    } else {
        [(Backend::Sqlite, 1), (Backend::Postgres, 1), (Backend::Postgres, 2), (Backend::Postgres, 3)]
            .map(|(backend, processes)| Setup { backend, processes, notices: false })
            .to_vec()
    };
    let mut out = String::new();
    let mut reports: Vec<Vec<BenchReport>> = vec![Vec::new(); setups.len()];
    keeping_logs_on_failure(&dir, || {
        for round in 0..runs.max(1) {
            let mut order: Vec<usize> = (0..setups.len()).collect();
            if notices && round % 2 == 1 {
                order.chunks_mut(2).for_each(<[usize]>::reverse);
            }
            for i in order {
                let (setup, done) = (&setups[i], &mut reports[i]);
                let r = run_shards(&capabot, &dir, *setup, opts, rate)?;
                out.push_str(&format!("round {}: {:<16} {}\n", round + 1, setup.label(), line(&r)));
                done.push(r);
            }
        }
        Ok(())
    })?;
    out.push_str(&format!(
        "medians of {} rounds, {} games of {} ({}), up to {} plies each, {SHARDS} shards{}:\n",
        runs.max(1),
        opts.games,
        opts.variant.name,
        if opts.pictures { "with pictures" } else { "no pictures" },
        opts.plies,
        rate.map(|r| format!(", moves offered at {r:.0}/s")).unwrap_or_default(),
    ));
    for (setup, done) in setups.iter().zip(&reports) {
        out.push_str(&format!("  {:<16} {}\n", setup.label(), median_line(done)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_are_shared_out_whole() {
        assert_eq!(ranges(1), ["0-5"]);
        assert_eq!(ranges(2), ["0-2", "3-5"]);
        assert_eq!(ranges(3), ["0-1", "2-3", "4-5"]);
    }
}

//! Many Discord servers (not a test): the real `capabot discord` binary, all shards in one
//! process, against the fake Discord with N guilds (a few channels and roles each, one in ten a
//! `large` one of thousands of members the bot never receives) beside a run with only the games'
//! guilds. For each: the time from the process's start until every shard answers a command sent
//! after its last GUILD_CREATE, the process's memory then (`/proc/PID/status`), and a move's
//! latency in the games' guilds (one per shard).

use super::bot::{BenchOptions, BenchReport};
use super::discord::{Players, guild_of, line, set_up, spawn_discord, world};
use super::{Processes, capabot_binary, keeping_logs_on_failure, median_secs};
use capabot::bot::{Bot, BotConfig, NoAi, SystemClock};
use capabot::store::Store;
use fake_discord::{FakeConfig, FakeDiscord, GatewayDrop, GuildSpec, SentKind};
use serde_json::json;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The channel of game `i` ([`world`]'s numbering).
const FIRST_CHANNEL: u64 = 100_000;
/// Channels and roles (beside `@everyone`) of each added guild.
const CHANNELS: u64 = 3;
const ROLES: u64 = 2;
/// One added guild in this many is large: [`LARGE_MEMBERS`] members, none of them sent.
const LARGE_EVERY: u64 = 10;
const LARGE_MEMBERS: u64 = 5_000;
/// Members of the other added guilds (none sent either: the bot asks for no member intent).
const SMALL_MEMBERS: u64 = 30;

/// How the fake Discord starts sessions: `max_concurrency` of `GET /gateway/bot` and the wait it
/// enforces between two IDENTIFYs of one bucket.
#[derive(Clone, Copy, Debug)]
pub struct Identify {
    pub max_concurrency: u32,
    pub interval: Duration,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct GuildsReport {
    pub guilds: usize,
    /// From the process's start until every shard answered a command sent after its guilds.
    pub ready: Duration,
    /// `VmRSS`, `RssAnon` and `VmHWM` of `/proc/PID/status` after every shard is ready (and
    /// `settle` more), in KiB.
    pub rss_kib: u64,
    pub anon_kib: u64,
    pub hwm_kib: u64,
    pub moves: BenchReport,
    /// With `--reidentify`: every session closed with 4009 (session timed out) after the moves,
    /// so that each shard identifies anew and receives its GUILD_CREATEs again: the time until
    /// every shard answered again, and `RssAnon` and `VmHWM` then (KiB).
    pub again: Option<(Duration, u64, u64)>,
    /// What the fake saw go wrong on its gateway (an IDENTIFY too soon).
    pub problems: Vec<String>,
}

/// The fake world of a run: [`world`]'s games (one guild per shard) and guilds added up to
/// `guilds`, spread over the shards, each with [`CHANNELS`] text channels and [`ROLES`] roles.
fn many_guilds(games: usize, shards: u32, guilds: usize, identify: Identify) -> FakeConfig {
    let mut config = world(games, shards)
        .shards(shards)
        .max_concurrency(identify.max_concurrency)
        .identify_interval(identify.interval);
    let s = u64::from(shards);
    for k in 0..guilds.saturating_sub(shards as usize) as u64 {
        // Past the games' guilds (`(shards + i) << 22`): shard `k % shards`.
        let id = (2 * s + k) << 22;
        let members = if k % LARGE_EVERY == LARGE_EVERY - 1 { LARGE_MEMBERS } else { SMALL_MEMBERS };
        let mut guild = GuildSpec::new(id, &format!("Chess club {k}")).unlisted_members(members);
        for c in 0..CHANNELS {
            guild = guild.text_channel(id + 1 + c, &format!("board-{c}"));
        }
        for r in 0..ROLES {
            // A moderator role (manage messages) and a plain one.
            let permissions = if r == 0 { 1 << 13 } else { 0 };
            guild = guild.role(id + 100 + r, &format!("role-{r}"), permissions);
        }
        config = config.guild(guild);
    }
    config
}

/// The process's memory from `/proc/PID/status`: (VmRSS, RssAnon, VmHWM) in KiB.
fn memory(pid: u32) -> Result<(u64, u64, u64), String> {
    let v = super::proc_status(pid, &["VmRSS:", "RssAnon:", "VmHWM:"])?;
    Ok((v[0], v[1], v[2]))
}

/// Each shard's `/variants` in its games' guild, sent once every shard has its session (behind
/// all of that shard's GUILD_CREATEs, which serenity handles in order), answered.
async fn every_shard_answers(fake: &FakeDiscord, shards: u32) -> Result<(), String> {
    let mut answers = fake.sent_stream();
    let mut probes: HashSet<u64> = HashSet::new();
    for s in 0..u64::from(shards) {
        debug_assert_eq!(fake.shard_of_guild(guild_of(s, shards)), s as u32);
        probes.insert(fake.slash_command(FIRST_CHANNEL + s, 1_000_000 + 2 * s, "variants", json!([])).id);
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while !probes.is_empty() {
        let sent = tokio::time::timeout_at(deadline, answers.recv())
            .await
            .map_err(|_| format!("{} shards did not answer within 2 minutes of their sessions", probes.len()))?
            .ok_or("the fake Discord stopped")?;
        let answer = matches!(
            sent.kind,
            SentKind::InteractionResponse { callback_type: 4 } | SentKind::FollowUp | SentKind::Edit
        );
        if answer && let Some(id) = sent.interaction_id {
            probes.remove(&id);
        }
    }
    Ok(())
}

/// One run: `guilds` guilds over `shards` shards, the games of `opts` in the first `shards`; with
/// `reidentify`, every session closed for good after the moves ([`GuildsReport::again`]).
pub fn run_guilds(
    capabot: &Path,
    dir: &Path,
    (guilds, shards): (usize, u32),
    (identify, reidentify): (Identify, bool),
    settle: Duration,
    opts: &BenchOptions,
) -> Result<GuildsReport, String> {
    if opts.games < shards as usize {
        return Err(format!("at least one game per shard: {} games for {shards} shards", opts.games));
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(opts.threads.max(1))
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let path = dir.join(format!("guilds-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let url = path.to_string_lossy().into_owned();
    let store = Store::open_setting(&url).map_err(|e| e.to_string())?;
    let bot = Bot::new(store, Arc::new(SystemClock), Arc::new(NoAi), BotConfig::default());
    let starts = set_up(&bot, opts, shards)?;
    drop(bot);
    rt.block_on(async {
        let fake = FakeDiscord::start(many_guilds(opts.games, shards, guilds, identify)).await;
        let t0 = Instant::now();
        let child = spawn_discord(capabot, dir, (&format!("0-{}", shards - 1), shards), &url, &fake, None)?;
        let pid = child.id();
        let _processes = Processes(vec![child]);
        let all: Vec<[u32; 2]> = (0..shards).map(|s| [s, shards]).collect();
        let starting = Duration::from_secs(60 + 10 * u64::from(shards));
        fake.wait_for_shards(&all, starting).await;
        every_shard_answers(&fake, shards).await?;
        let ready = t0.elapsed();
        tokio::time::sleep(settle).await;
        let (rss_kib, anon_kib, hwm_kib) = memory(pid)?;
        let moves = Players::start(&fake, starts, opts, None).results().await?;
        let mut again = None;
        if reidentify {
            let t1 = Instant::now();
            fake.drop_gateway_with(GatewayDrop::Close(4009));
            fake.reopen_gateway();
            fake.wait_for_sessions(2 * u64::from(shards), starting).await;
            every_shard_answers(&fake, shards).await?;
            let took = t1.elapsed();
            tokio::time::sleep(settle).await;
            let (_, anon_kib, hwm_kib) = memory(pid)?;
            again = Some((took, anon_kib, hwm_kib));
        }
        let problems = fake.problems();
        Ok(GuildsReport { guilds, ready, rss_kib, anon_kib, hwm_kib, moves, again, problems })
    })
}

fn report_line(r: &GuildsReport) -> String {
    format!(
        "{:>6} guilds: ready {:.2} s; VmRSS {:.1} MiB, RssAnon {:.1} MiB, VmHWM {:.1} MiB; moves: {}{}{}",
        r.guilds,
        r.ready.as_secs_f64(),
        r.rss_kib as f64 / 1024.0,
        r.anon_kib as f64 / 1024.0,
        r.hwm_kib as f64 / 1024.0,
        line(&r.moves),
        r.again.map_or(String::new(), |(took, anon, hwm)| format!(
            "; re-identified: every shard answered in {:.2} s, RssAnon {:.1} MiB, VmHWM {:.1} MiB",
            took.as_secs_f64(),
            anon as f64 / 1024.0,
            hwm as f64 / 1024.0
        )),
        if r.problems.is_empty() { String::new() } else { format!("; PROBLEMS: {}", r.problems.join(" | ")) }
    )
}

/// `runs` rounds of each guild count in `counts` (the smallest first, as the reference), fresh
/// databases each time: every run's line, the medians, and the memory per guild above the
/// reference.
pub fn guild_rounds(
    capabot: Option<PathBuf>,
    counts: &[usize],
    shards: u32,
    (identify, reidentify): (Identify, bool),
    runs: usize,
    opts: &BenchOptions,
) -> Result<String, String> {
    let capabot = capabot_binary(capabot)?;
    let dir = std::env::temp_dir().join(format!("capabot-bench-guilds-{}", std::process::id()));
    let settle = Duration::from_secs(3);
    let mut out = String::new();
    let mut reports: Vec<Vec<GuildsReport>> = vec![Vec::new(); counts.len()];
    keeping_logs_on_failure(&dir, || {
        for round in 0..runs.max(1) {
            for (&guilds, done) in counts.iter().zip(reports.iter_mut()) {
                let r = run_guilds(&capabot, &dir, (guilds, shards), (identify, reidentify), settle, opts)?;
                // As it comes too: a round takes about half a minute.
                eprintln!("round {}: {}", round + 1, report_line(&r));
                out.push_str(&format!("round {}: {}\n", round + 1, report_line(&r)));
                done.push(r);
            }
        }
        Ok(())
    })?;
    let median = |rs: &[GuildsReport], f: &dyn Fn(&GuildsReport) -> f64| {
        let mut v: Vec<f64> = rs.iter().map(f).collect();
        median_secs(&mut v)
    };
    out.push_str(&format!(
        "medians of {} rounds; {shards} shards in one process, max_concurrency {}, {:.1} s between IDENTIFYs of a \
         bucket; memory {} s after the last shard answered; {} games of {} ({}), {} plies:\n",
        runs.max(1),
        identify.max_concurrency,
        identify.interval.as_secs_f64(),
        settle.as_secs(),
        opts.games,
        opts.variant.name,
        if opts.pictures { "with pictures" } else { "no pictures" },
        opts.plies,
    ));
    let base = reports.first().cloned().unwrap_or_default();
    let base_guilds = counts.first().copied().unwrap_or(0);
    for (&guilds, rs) in counts.iter().zip(&reports) {
        let rss = median(rs, &|r| r.rss_kib as f64);
        let anon = median(rs, &|r| r.anon_kib as f64);
        let per_guild = |now: f64, then: f64| {
            if guilds > base_guilds { (now - then) * 1024.0 / (guilds - base_guilds) as f64 } else { 0.0 }
        };
        let base_rss = median(&base, &|r| r.rss_kib as f64);
        let base_anon = median(&base, &|r| r.anon_kib as f64);
        out.push_str(&format!(
            "  {guilds:>6} guilds: ready {:.2} s; VmRSS {:.1} MiB ({:.0} bytes a guild above {base_guilds}), RssAnon \
             {:.1} MiB ({:.0} bytes a guild), VmHWM {:.1} MiB; moves p50 {:.1} ms, p99 {:.1} ms\n",
            median(rs, &|r| r.ready.as_secs_f64()),
            rss / 1024.0,
            per_guild(rss, base_rss),
            anon / 1024.0,
            per_guild(anon, base_anon),
            median(rs, &|r| r.hwm_kib as f64) / 1024.0,
            median(rs, &|r| r.moves.p50.as_secs_f64() * 1e3),
            median(rs, &|r| r.moves.p99.as_secs_f64() * 1e3),
        ));
        if rs.iter().all(|r| r.again.is_some()) {
            let again = |f: &dyn Fn((Duration, u64, u64)) -> f64| median(rs, &|r| r.again.map_or(0.0, f));
            out.push_str(&format!(
                "          re-identified: every shard answered in {:.2} s; RssAnon {:.1} MiB, VmHWM {:.1} MiB\n",
                again(&|(t, _, _)| t.as_secs_f64()),
                again(&|(_, a, _)| a as f64) / 1024.0,
                again(&|(_, _, h)| h as f64) / 1024.0,
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_added_guilds_spread_over_the_shards_with_their_own_ids() {
        let identify = Identify { max_concurrency: 1, interval: Duration::ZERO };
        let config = many_guilds(4, 4, 1_000, identify);
        assert_eq!(config.guilds.len(), 1_000);
        let mut per_shard = [0usize; 4];
        let mut ids = HashSet::new();
        for g in &config.guilds {
            per_shard[((g.id >> 22) % 4) as usize] += 1;
            assert!(ids.insert(g.id));
            for (c, _) in &g.channels {
                assert!(ids.insert(*c), "channel {c}");
            }
        }
        assert_eq!(per_shard, [250; 4]);
        let large = config.guilds.iter().filter(|g| g.unlisted_members == LARGE_MEMBERS).count();
        assert_eq!(large, 99);
    }
}

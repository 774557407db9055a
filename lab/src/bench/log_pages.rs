//! What a load run writes to SQLite, by where it goes (`bench-bot --log-pages`): the write-ahead
//! log's frames, named by the table or index their page belongs to, and the checkpoints' copies of
//! them. Not part of the product: the laboratory reads the store's files beside it.
//!
//! A reader holds a snapshot from just before the timed moves to their end, so the log is never
//! started over and keeps every frame the run wrote (the checkpointer still copies what the
//! snapshot allows, which is nothing new). Each frame's header names its page; SQLite's `dbstat`
//! names each page's b-tree at the end. What the checkpoints would copy is worked out from the same
//! frames: a checkpoint writes each page changed since the last one once, whatever the number of
//! commits that changed it, so the log's end is sampled every [`SAMPLE_EVERY`] (the store's
//! checkpointer's period) and the distinct pages between samples are counted, for that period and
//! for longer ones.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How often the log's end is sampled: the store's checkpointer's period (`CHECKPOINT_EVERY`).
const SAMPLE_EVERY: Duration = Duration::from_millis(200);

/// The log's header and each frame's header, in bytes (SQLite's file format, "WAL File Format").
const LOG_HEADER: usize = 32;
const FRAME_HEADER: usize = 24;

/// A table the tap writes one row to, so that its snapshot starts after a frame it can find.
const MARK_TABLE: &str = "lab_log_tap";

/// The tap of one run: the reader holding its snapshot, and the thread sampling the log's end.
pub struct Tap {
    db: PathBuf,
    shm: Arc<std::fs::File>,
    reader: rusqlite::Connection,
    samples: Arc<Mutex<Vec<u32>>>,
    stop: Arc<AtomicBool>,
    sampler: std::thread::JoinHandle<()>,
}

fn e(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The log's last valid frame, from the write-ahead log index's header (`-shm`: `mxFrame`, a
/// native-endian 32-bit word at byte 16). The file is opened once for the whole run: closing any
/// descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.
fn log_end(shm: &std::fs::File) -> Option<u32> {
    use std::os::unix::fs::FileExt;
    let mut b = [0u8; 4];
    shm.read_exact_at(&mut b, 16).ok()?;
    Some(u32::from_ne_bytes(b))
}

fn with_suffix(db: &Path, suffix: &str) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

impl Tap {
    /// Starts the tap on the SQLite file `db`, whose store is open (in write-ahead logging).
    pub fn start(db: &Path) -> Result<Tap, String> {
        let mark = rusqlite::Connection::open(db).map_err(e)?;
        mark.busy_timeout(Duration::from_secs(5)).map_err(e)?;
        mark.execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS {MARK_TABLE}(x); INSERT INTO {MARK_TABLE} VALUES (1);"
        ))
        .map_err(e)?;
        let reader = rusqlite::Connection::open(db).map_err(e)?;
        reader.execute_batch("BEGIN").map_err(e)?;
        reader.query_row(&format!("SELECT count(*) FROM {MARK_TABLE}"), (), |r| r.get::<_, i64>(0)).map_err(e)?;
        let samples = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let shm = Arc::new(std::fs::File::open(with_suffix(db, "-shm")).map_err(e)?);
        let sampler = {
            let (samples, stop, shm) = (samples.clone(), stop.clone(), shm.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    if let (Some(end), Ok(mut s)) = (log_end(&shm), samples.lock()) {
                        s.push(end);
                    }
                    std::thread::sleep(SAMPLE_EVERY);
                }
            })
        };
        Ok(Tap { db: db.to_path_buf(), shm, reader, samples, stop, sampler })
    }

    /// Ends the tap after `moves` moves: reads the log, names its pages, and says what went where.
    pub fn finish(self, moves: usize) -> Result<String, String> {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.sampler.join();
        let mut samples = self.samples.lock().map_err(e)?.clone();
        let log = std::fs::read(with_suffix(&self.db, "-wal")).map_err(e)?;
        if let Some(end) = log_end(&self.shm) {
            samples.push(end);
        }
        drop(self.reader);
        let conn = rusqlite::Connection::open(&self.db).map_err(e)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(e)?;
        let mark_root: u32 = conn
            .query_row("SELECT rootpage FROM sqlite_master WHERE name = ?1", [MARK_TABLE], |r| r.get(0))
            .map_err(e)?;
        let names = page_names(&conn)?;
        let frames = frames(&log)?;
        let first = frames
            .iter()
            .rposition(|f| f.page == mark_root)
            .map(|i| i + 1)
            .ok_or("the log started over during the run (the tap's snapshot read the file alone): run again")?;
        Ok(describe(&frames[first..], first as u32, &samples, &names, moves))
    }
}

/// One frame of the log: its page, whether it ends a commit, and whether the page was then an
/// index's (b-tree page types 2 and 10; `None` for other pages: free-list, overflow).
struct Frame {
    page: u32,
    commit: bool,
    index: Option<bool>,
}

/// The log's valid frames, in order: those whose salt is the header's (a log started over keeps
/// the older frames past its end, with another salt).
fn frames(log: &[u8]) -> Result<Vec<Frame>, String> {
    let be = |b: &[u8], at: usize| u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    if log.len() < LOG_HEADER {
        return Err("no write-ahead log".into());
    }
    let page_size = be(log, 8) as usize;
    let salt = (be(log, 16), be(log, 20));
    let mut out = Vec::new();
    let mut at = LOG_HEADER;
    while at + FRAME_HEADER + page_size <= log.len() {
        if (be(log, at + 8), be(log, at + 12)) != salt {
            break;
        }
        let page = be(log, at);
        // The b-tree page's header follows the file's header on the first page.
        let kind = log[at + FRAME_HEADER + if page == 1 { 100 } else { 0 }];
        let index = match kind {
            2 | 10 => Some(true),
            5 | 13 => Some(false),
            _ => None,
        };
        out.push(Frame { page, commit: be(log, at + 4) != 0, index });
        at += FRAME_HEADER + page_size;
    }
    Ok(out)
}

/// Each page's b-tree (`dbstat`: table or index, and the table an index belongs to), with whether
/// it is a leaf; pages it does not list (the free list, the file's first page's header) are left
/// out.
fn page_names(conn: &rusqlite::Connection) -> Result<HashMap<u32, String>, String> {
    let mut st = conn
        .prepare(
            "SELECT d.pageno, d.name, coalesce(m.type, 'table'), d.pagetype FROM dbstat d \
             LEFT JOIN sqlite_master m ON m.name = d.name",
        )
        .map_err(e)?;
    let rows = st
        .query_map((), |r| {
            let (page, name, kind, pagetype): (u32, String, String, String) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
            let inner = if pagetype == "leaf" { String::new() } else { format!(" ({pagetype})") };
            Ok((page, format!("{kind} {name}{inner}")))
        })
        .map_err(e)?;
    rows.collect::<Result<_, _>>().map_err(e)
}

/// The report: frames and commits, frames by b-tree, and the checkpoints' copies for periods of
/// one to fifty samples and for checkpoints by the log's size.
fn describe(frames: &[Frame], first: u32, samples: &[u32], names: &HashMap<u32, String>, moves: usize) -> String {
    let moves = moves.max(1) as f64;
    let commits = frames.iter().filter(|f| f.commit).count().max(1);
    // A page freed and used again by another b-tree during the run is named by its last owner
    // (`dbstat` reads the end); a frame whose kind of page (index or table) differs from the page's
    // last frame's is named as such instead: in the host's runs, mostly the outbox's waiting index,
    // which shrinks as rows are marked sent.
    let last_kind: HashMap<u32, Option<bool>> = frames.iter().map(|f| (f.page, f.index)).collect();
    let name_of = |f: &Frame| {
        let end = names.get(&f.page).cloned().unwrap_or_else(|| "free or unlisted".into());
        match (f.index, last_kind.get(&f.page).copied().flatten()) {
            (Some(then), Some(last)) if then != last => {
                format!("{} page then, later {end}", if then { "an index's" } else { "a table's" })
            }
            _ => end,
        }
    };
    let name = |p: u32| names.get(&p).cloned().unwrap_or_else(|| "free or unlisted".into());
    let mut by_tree: BTreeMap<String, (usize, HashSet<u32>)> = BTreeMap::new();
    for f in frames {
        let t = by_tree.entry(name_of(f)).or_default();
        t.0 += 1;
        t.1.insert(f.page);
    }
    // The checkpoints' copies: the distinct pages of each stretch of frames between checkpoints.
    let copies_by = |cuts: &[usize]| -> (usize, BTreeMap<String, usize>) {
        let mut total = 0;
        let mut by = BTreeMap::new();
        let mut from = 0;
        for &to in cuts.iter().chain(std::iter::once(&frames.len())) {
            let to = to.clamp(from, frames.len());
            let pages: HashSet<u32> = frames[from..to].iter().map(|f| f.page).collect();
            total += pages.len();
            for p in pages {
                *by.entry(name(p)).or_insert(0) += 1;
            }
            from = to;
        }
        (total, by)
    };
    let at_samples: Vec<usize> = samples.iter().map(|&s| s.saturating_sub(first) as usize).collect();
    let (copies, copies_by_tree) = copies_by(&at_samples);
    let kb = |n: usize, size: usize| n as f64 * size as f64 / moves / 1024.0;
    let mut out = format!(
        "log: {} frames in {commits} commits for {moves} moves: {:.2} frames a commit, {:.2} a move ({:.1} KB a move \
         with their headers); checkpoints every {} ms (sampled {} times): {copies} pages copied, {:.2} a move \
         ({:.1} KB)\n  b-tree: frames a move, distinct pages, copies a move\n",
        frames.len(),
        frames.len() as f64 / commits as f64,
        frames.len() as f64 / moves,
        kb(frames.len(), 1024 + FRAME_HEADER),
        SAMPLE_EVERY.as_millis(),
        samples.len(),
        copies as f64 / moves,
        kb(copies, 1024),
    );
    let mut trees: Vec<_> = by_tree.into_iter().collect();
    trees.sort_by_key(|(_, (n, _))| std::cmp::Reverse(*n));
    for (tree, (n, pages)) in trees {
        out.push_str(&format!(
            "  {tree}: {:.2}, {}, {:.2}\n",
            n as f64 / moves,
            pages.len(),
            *copies_by_tree.get(&tree).unwrap_or(&0) as f64 / moves
        ));
    }
    // Commits by what they wrote: the b-trees of their frames, most common first.
    let mut shapes: HashMap<Vec<(String, usize)>, usize> = HashMap::new();
    let mut commit: BTreeMap<String, usize> = BTreeMap::new();
    for f in frames {
        *commit.entry(name_of(f)).or_insert(0) += 1;
        if f.commit {
            *shapes.entry(std::mem::take(&mut commit).into_iter().collect()).or_insert(0) += 1;
        }
    }
    let mut shapes: Vec<_> = shapes.into_iter().collect();
    shapes.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.push_str("  commits by the frames they wrote (the most common ten):\n");
    for (shape, n) in shapes.iter().take(10) {
        let frames: usize = shape.iter().map(|(_, k)| k).sum();
        let what: Vec<String> = shape.iter().map(|(t, k)| format!("{k} × {t}")).collect();
        out.push_str(&format!(
            "    {n} commits ({:.0} %), {frames} frames: {}\n",
            100.0 * *n as f64 / commits as f64,
            what.join(", ")
        ));
    }
    out.push_str("  checkpoints less often, every N samples: pages copied a move (KB)\n   ");
    for every in [1, 2, 5, 10, 25, 50] {
        let cuts: Vec<usize> = at_samples.iter().skip(every - 1).step_by(every).copied().collect();
        let (c, _) = copies_by(&cuts);
        out.push_str(&format!(
            " {} ms: {:.2} ({:.1});",
            every as u128 * SAMPLE_EVERY.as_millis(),
            c as f64 / moves,
            kb(c, 1024)
        ));
    }
    out.push_str("\n  checkpoints when the log holds N frames: pages copied a move (KB)\n   ");
    for size in [1_000, 4_000, 16_000, 64_000] {
        let cuts: Vec<usize> = (1..=frames.len() / size).map(|k| k * size).collect();
        let (c, _) = copies_by(&cuts);
        out.push_str(&format!(" {size}: {:.2} ({:.1});", c as f64 / moves, kb(c, 1024)));
    }
    out
}

/// Bytes written so far by the store's checkpointer threads (`wchar` of each thread named
/// `sqlite-checkpoint` in `/proc/self/task`), by thread id.
pub fn checkpointer_writes() -> HashMap<u32, u64> {
    let mut out = HashMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return out };
    for task in tasks.flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if !comm.starts_with("sqlite-checkp") {
            continue;
        }
        let io = std::fs::read_to_string(task.path().join("io")).unwrap_or_default();
        let written = io.lines().find_map(|l| l.strip_prefix("wchar:")).and_then(|v| v.trim().parse().ok());
        if let (Ok(tid), Some(w)) = (task.file_name().to_string_lossy().parse(), written) {
            out.insert(tid, w);
        }
    }
    out
}

/// What the checkpointer threads wrote between two [`checkpointer_writes`].
pub fn checkpointer_written(before: &HashMap<u32, u64>, after: &HashMap<u32, u64>) -> u64 {
    after.iter().map(|(tid, w)| w.saturating_sub(*before.get(tid).unwrap_or(&0))).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_read_frame_by_frame_up_to_a_stale_one() {
        let mut log = vec![0u8; LOG_HEADER];
        log[8..12].copy_from_slice(&1024u32.to_be_bytes());
        log[16..24].copy_from_slice(&[0, 0, 0, 7, 0, 0, 0, 9]);
        for (page, commit, salt) in [(5u32, 0u32, 7u32), (6, 12, 7), (8, 0, 6)] {
            let mut h = [0u8; FRAME_HEADER];
            h[0..4].copy_from_slice(&page.to_be_bytes());
            h[4..8].copy_from_slice(&commit.to_be_bytes());
            h[8..12].copy_from_slice(&salt.to_be_bytes());
            h[12..16].copy_from_slice(&9u32.to_be_bytes());
            log.extend_from_slice(&h);
            log.extend_from_slice(&[0u8; 1024]);
        }
        let f = frames(&log).unwrap();
        assert_eq!(f.iter().map(|f| (f.page, f.commit)).collect::<Vec<_>>(), vec![(5, false), (6, true)]);
        assert_eq!(f.iter().map(|f| f.index).collect::<Vec<_>>(), vec![None, None], "pages of zeros are no b-tree's");
        let names = HashMap::from([(5, "table a".to_string())]);
        let text = describe(&f, 0, &[1], &names, 2);
        assert!(text.contains("2 frames in 1 commits for 2 moves"), "{text}");
        assert!(text.contains("table a: 0.50, 1, 0.50") && text.contains("free or unlisted: 0.50, 1, 0.50"), "{text}");
    }
}

//! Perft as data: one driver over `tests/data/perft/*.perft` (id, variant, FEN, depth and node counts),
//! like shakmaty's. A `bombs WHITE BLACK` line (`-` for none) gives secret-bomb chess its hidden bombs, which
//! FEN never carries. Records above a node limit are skipped so CI stays fast; set `CAPABOT_PERFT_MAX` to raise it.

use capabot::notation::fen;
use capabot::rules::{Square, Variant};
use std::fs;

struct Record {
    id: String,
    variant: String,
    fen: String,
    expected: Vec<(u32, u64)>,
    bombs: [Option<Square>; 2],
    source: String,
}

fn load() -> Vec<Record> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/perft");
    let mut paths: Vec<_> = fs::read_dir(dir).expect("perft dir").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "perft")) {
        let text = fs::read_to_string(&path).expect("readable");
        let source = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        for block in text.split("\n\n") {
            let mut rec = Record {
                id: String::new(),
                variant: String::new(),
                fen: String::new(),
                expected: Vec::new(),
                bombs: [None; 2],
                source: source.clone(),
            };
            for line in block.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
                let (key, value) = line.split_once(' ').unwrap_or((line, ""));
                match key {
                    "id" => rec.id = value.to_string(),
                    "variant" => rec.variant = value.to_string(),
                    "fen" | "epd" => rec.fen = value.to_string(),
                    "perft" => {
                        let (d, n) = value.split_once(' ').expect("perft DEPTH NODES");
                        rec.expected.push((d.parse().expect("depth"), n.trim().parse().expect("nodes")));
                    }
                    "bombs" => {
                        let mut squares =
                            value.split_whitespace().map(|t| if t == "-" { None } else { Square::parse(t) });
                        rec.bombs = [squares.next().flatten(), squares.next().flatten()];
                    }
                    other => panic!("{source}: unknown key {other}"),
                }
            }
            if !rec.id.is_empty() {
                out.push(rec);
            }
        }
    }
    out
}

#[test]
fn perft_data_files() {
    let max: u64 = std::env::var("CAPABOT_PERFT_MAX").ok().and_then(|s| s.parse().ok()).unwrap_or(30_000_000);
    let records = load();
    assert!(records.len() >= 10, "perft data missing");
    let mut checked = 0;
    for rec in &records {
        let variant = Variant::by_name(&rec.variant).unwrap_or_else(|| panic!("{}: variant {}", rec.id, rec.variant));
        let pos = fen::parse_position(variant, &rec.fen).unwrap_or_else(|e| panic!("{} ({}): {e}", rec.id, rec.source));
        let pos = pos.with_bombs(rec.bombs).unwrap_or_else(|e| panic!("{} ({}): bombs: {e}", rec.id, rec.source));
        for &(depth, nodes) in &rec.expected {
            if nodes > max {
                continue;
            }
            assert_eq!(pos.perft(depth), nodes, "{} ({}) depth {depth}", rec.id, rec.source);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} perft numbers checked");
}

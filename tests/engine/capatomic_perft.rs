//! Capatomic perft regression: every record of `tests/data/perft/capatomic*.perft` (start position to
//! depth 4, and random-playout positions with launches, radiation and partly lost missile rights to
//! depth 2). The numbers were cross-checked with the independent naive generator
//! `tests/oracle/capatomic_naive.py`.

use capabot::notation::fen;
use capabot::rules::{Position, Variant};

struct Record {
    id: String,
    variant: String,
    fen: String,
    perft: Vec<(u32, u64)>,
}

fn records(text: &str) -> Vec<Record> {
    text.split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            let mut rec = Record { id: String::new(), variant: String::new(), fen: String::new(), perft: Vec::new() };
            for line in r.lines() {
                let (key, value) = line.split_once(' ').unwrap_or((line, ""));
                match key {
                    "id" => rec.id = value.to_string(),
                    "variant" => rec.variant = value.to_string(),
                    "fen" => rec.fen = value.to_string(),
                    "perft" => {
                        let (d, n) = value.split_once(' ').expect("perft DEPTH COUNT");
                        rec.perft.push((d.parse().unwrap(), n.parse().unwrap()));
                    }
                    _ => panic!("unknown line {line}"),
                }
            }
            rec
        })
        .collect()
}

fn check_file(path: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let recs = records(&text);
    for rec in &recs {
        let v = Variant::by_name(&rec.variant).unwrap_or_else(|| panic!("{}: variant {}", rec.id, rec.variant));
        let pos = fen::parse_position(v, &rec.fen).unwrap_or_else(|e| panic!("{}: {e}", rec.id));
        assert_eq!(fen::write(&pos), rec.fen, "{}: FEN not in normal form", rec.id);
        for &(depth, want) in &rec.perft {
            assert_eq!(pos.perft(depth), want, "{} perft({depth}) {}", rec.id, rec.fen);
        }
    }
    recs.len()
}

#[test]
fn capatomic_start_perft() {
    assert_eq!(check_file("tests/data/perft/capatomic.perft"), 1);
    let start = Position::start(Variant::by_name("capatomic").unwrap());
    assert_eq!(start.perft(2), 2025);
}

#[test]
fn capatomic_random_positions_perft() {
    assert_eq!(check_file("tests/data/perft/capatomic-random.perft"), 200);
}

//! The `lab` binary as a user runs it: output piped into a reader that stops early, and a small search.

#[test]
fn match_output_closed_early_ends_quietly() {
    use std::io::{BufRead, BufReader};
    // Far more output than a pipe buffers, so the program must meet the closed pipe.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(["match", "--variant", "chess", "--games", "400", "--movetime", "1", "--a", "random", "--b", "random"])
        .arg("--verbose")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start lab match");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert!(first.starts_with("game"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "exit {:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn think_prints_iterations_then_the_best_move() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lab"))
        .args(["think", "--depth", "2", "--moves", "e4"])
        .output()
        .expect("start lab think");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("info depth 1 ") && lines[2].starts_with("bestmove "), "{text}");
}

//! The console with `[web] listen` serves the web pages beside it (before, the setting was read and
//! nothing was served): a game played in the console is on its page, the answers link to it, and
//! the page shows the move just played.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_capabot");

/// The body of `GET path` on `addr` (HTTP/1.0, so the server closes the connection after it).
fn get(addr: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("the web pages' address");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("a response");
    assert!(response.starts_with("HTTP/1.0 200") || response.starts_with("HTTP/1.1 200"), "{response}");
    response
}

#[test]
fn the_console_serves_the_web_pages_of_its_games() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("web.toml"),
        "[web]\nlisten = \"127.0.0.1:0\"\npublic_url = \"http://example.invalid\"\n",
    )
    .unwrap();
    let mut child = Command::new(BIN)
        .current_dir(dir.path())
        .args(["console", "--config", "web.toml", "--no-pictures", "--no-text-boards", "--db", "web.db"])
        .env_remove("CAPABOT_DB")
        .env_remove("CAPABOT_LANG")
        .env_remove("CAPABOT_WEB")
        .env_remove("CAPABOT_WEB_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the console starts");
    // The console's two streams, read on threads of their own (a test that fails does not hang).
    let lines_of = |stream: Box<dyn Read + Send>| {
        let (said, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stream).lines().map_while(Result::ok) {
                if said.send(l).is_err() {
                    break;
                }
            }
        });
        lines
    };
    let errors = lines_of(Box::new(child.stderr.take().unwrap()));
    let lines = lines_of(Box::new(child.stdout.take().unwrap()));
    // Where the pages are: the console says so on its error stream as it starts.
    let addr = std::iter::from_fn(|| errors.recv_timeout(Duration::from_secs(30)).ok())
        .find_map(|l| l.split("web pages on http://").nth(1).and_then(|a| a.split('/').next()).map(str::to_string));
    let Some(addr) = addr else {
        let _ = child.kill();
        panic!("the console did not say where its web pages are");
    };
    let mut stdin = child.stdin.take().unwrap();
    let wait_for = |needle: &str| -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let l =
                lines.recv_timeout(Duration::from_secs(30)).unwrap_or_else(|_| panic!("no {needle:?} in {seen:#?}"));
            let found = l.contains(needle);
            seen.push(l);
            if found {
                return seen;
            }
        }
    };
    for line in ["alice> !settings community web:on", "alice> !challenge @bob chess color:white", "bob> !accept"] {
        writeln!(stdin, "{line}").unwrap();
    }
    wait_for("Game #1 starts");
    writeln!(stdin, "alice> e4").unwrap();
    // The move's answer, stored before it is said, and its link, the answer's next line.
    wait_for("1. e4 played by alice");
    let seen = wait_for("Watch: http://example.invalid/");
    // The game's address as the answer gives it, on the pages served here.
    let link = seen.iter().find_map(|l| l.split("Watch: http://example.invalid").nth(1)).unwrap().trim().to_string();
    assert!(link.starts_with("/g/"), "{link}");
    let page = get(&addr, &link);
    assert!(page.contains("alice") && page.contains("bob"), "the players: {page}");
    assert!(page.contains("Last move e2 to e4"), "the move just played, in the board's description: {page}");
    let community = get(&addr, "/c/console/console");
    assert!(community.contains("alice"), "the community's page: {community}");
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}

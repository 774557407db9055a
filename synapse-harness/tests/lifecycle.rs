//! The harness against a real Synapse: start, register, restart on the same port and data,
//! pause and resume, stop.

use std::time::{Duration, Instant};

use synapse_harness::Synapse;

fn versions_answer(synapse: &Synapse, timeout: Duration) -> bool {
    let agent: ureq::Agent = ureq::Agent::config_builder().timeout_global(Some(timeout)).build().into();
    let url = format!("{}/_matrix/client/versions", synapse.homeserver_url());
    agent.get(&url).call().is_ok()
}

#[test]
fn start_register_restart_pause_stop() {
    let started = Instant::now();
    let mut synapse = Synapse::start().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("start (install included if first): {:?}", started.elapsed());

    let users = synapse.register_users(&["bot", "alice"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(users[0].user_id, "@bot:localhost");
    assert_eq!(users[1].user_id, "@alice:localhost");
    let again = synapse.register_user("bot", false).unwrap_err();
    assert!(again.reason().contains("User ID already taken"), "{again}");
    assert!(again.to_string().contains("homeserver.log"), "{again}");

    let port = synapse.port();
    let restarted = Instant::now();
    synapse.restart().unwrap_or_else(|e| panic!("{e}"));
    eprintln!("restart: {:?}", restarted.elapsed());
    assert_eq!(synapse.port(), port);
    // The data survived: the name is still taken.
    assert!(synapse.register_user("alice", false).is_err());

    synapse.pause().unwrap();
    assert!(!versions_answer(&synapse, Duration::from_millis(500)));
    synapse.resume().unwrap();
    assert!(versions_answer(&synapse, Duration::from_secs(10)));
    assert!(synapse.log_tail(5).contains("homeserver.log"));

    synapse.stop().unwrap();
    assert!(!synapse.is_running());
    assert!(!versions_answer(&synapse, Duration::from_millis(500)));
}

/// Two harnesses given one port at once (a free port probed by both): the second's Synapse cannot
/// bind it, and the harness must not take the first one's answers for its own (before: it did,
/// and registering a user there failed with "HMAC incorrect", the other server's secret); it
/// starts again on another port, where its own users register.
#[test]
fn a_harness_whose_port_another_synapse_holds_starts_on_another() {
    let first = Synapse::start().unwrap_or_else(|e| panic!("{e}"));
    let taken = first.port();
    let second = Synapse::start_trying_port(synapse_harness::Database::Sqlite, taken).unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(second.port(), taken, "it moved to another port");
    let users = second.register_users(&["bot"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(users[0].user_id, "@bot:localhost");
    // The first one knows nothing of it.
    assert!(first.register_users(&["bot"]).is_ok(), "the name is free on the first server");
}

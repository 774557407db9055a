//! The Matrix front end's retries (backon's exponential back-off with jitter): no wait longer than
//! before the jitter came in (200 ms doubling, to 30 s for the sync, which never gives up; to 60 s
//! over ten tries for joining a room), none shorter than half of it, and the waits spread.
//! Synapse's 5xx and 429s, kicks and restarts that these retries ride out are in `bot`.

use backon::BackoffBuilder;
use capabot::matrix;
use std::time::Duration;

/// The waits before the jitter: 200 ms, 400 ms, … at most `cap`.
fn before(cap: Duration) -> impl Iterator<Item = Duration> {
    (0..).map(move |i: u32| (Duration::from_millis(200) * 2u32.pow(i.min(20))).min(cap))
}

/// Each wait between half the wait before and the wait before (with a millisecond for backon's
/// `f32` arithmetic).
fn within(waits: &[Duration], cap: Duration) {
    let slack = Duration::from_millis(1);
    for (i, (wait, was)) in waits.iter().zip(before(cap)).enumerate() {
        assert!(*wait <= was + slack && *wait + slack >= was / 2, "wait {i}: {wait:?}, before the jitter {was:?}");
    }
}

#[test]
fn the_retries_wait_no_longer_than_before_and_spread_their_waits() {
    let mut firsts = std::collections::BTreeSet::new();
    for _ in 0..50 {
        let sync: Vec<Duration> = matrix::SYNC_BACKOFF.build().take(40).collect();
        assert_eq!(sync.len(), 40, "the sync never gives up");
        within(&sync, Duration::from_secs(30));
        assert!(sync[20..].iter().all(|w| *w >= Duration::from_secs(15)), "{sync:?}");
        let join: Vec<Duration> = matrix::inbound::JOIN_BACKOFF.build().collect();
        assert_eq!(join.len(), 9, "ten tries to join, nine waits between them");
        within(&join, Duration::from_secs(60));
        firsts.insert(sync[0]);
    }
    assert!(firsts.len() > 10, "the waits are not spread: {firsts:?}");
}

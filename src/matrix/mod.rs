//! The Matrix front end (matrix-sdk): logs in (or resumes its saved session), keeps the session, sync
//! token and end-to-end keys in one store directory, accepts invitations, turns room events into
//! [`Input`](crate::bot::Input)s for the [`Host`] and shows its [`Reply`](crate::bot::Reply)s.
//!
//! No game logic lives here: [`session`] starts the client, [`inbound`] translates events,
//! [`outbound`] translates replies, and this module wires them to the sync loop.

pub mod inbound;
pub mod outbound;
pub mod session;

pub use outbound::MatrixFrontEnd;
pub use session::{Credentials, StartError};

use crate::host::Host;
use matrix_sdk::Client;
use matrix_sdk::config::SyncSettings;
use std::sync::Arc;
use std::time::Duration;

/// The platform name in [`crate::bot::Scope::platform`].
pub const PLATFORM: &str = "matrix";

/// Runs the Matrix front end on `client` until the host shuts down: skips what happened before
/// start-up (one sync whose events nobody handles), joins pending invitations, then syncs with
/// back-off while the homeserver is away.
pub async fn run(host: Arc<Host>, client: Client) -> Arc<MatrixFrontEnd> {
    let front = serve(host.clone(), client).await;
    sync_until_stopped(&host, &front.client).await;
    front
}

/// Everything [`run`] does except the sync loop: returns the front end, registered with the host
/// and listening, once the history before start-up has been skipped.
pub async fn serve(host: Arc<Host>, client: Client) -> Arc<MatrixFrontEnd> {
    let stop = host.stopping();
    let mut delay = Duration::from_millis(200);
    // The first sync's events are history (or were handled before a restart): nobody listens yet.
    loop {
        match client.sync_once(SyncSettings::default()).await {
            Ok(_) => break,
            Err(e) => {
                tracing::warn!("first Matrix sync failed, retrying in {delay:?}: {e}");
                tokio::select! {
                    _ = stop.cancelled() => break,
                    _ = tokio::time::sleep(delay) => {}
                }
                delay = (delay * 2).min(Duration::from_secs(30));
            }
        }
    }
    let front = MatrixFrontEnd::new(client.clone()).await;
    host.register(front.clone());
    // Connected: what the outbox holds for Matrix goes out (replies a crash or restart left behind).
    host.start_drainer();
    inbound::listen(host, front.clone());
    for room in client.invited_rooms() {
        inbound::join_with_backoff(front.clone(), room);
    }
    front
}

/// Syncs until the host stops, retrying with back-off (capped at 30 s) while the homeserver fails.
pub async fn sync_until_stopped(host: &Host, client: &Client) {
    let stop = host.stopping();
    let settings = SyncSettings::default().timeout(Duration::from_secs(20));
    let mut delay = Duration::from_millis(200);
    let mut failing = false;
    loop {
        let result = tokio::select! {
            _ = stop.cancelled() => return,
            r = client.sync_once(settings.clone()) => r,
        };
        match result {
            Ok(_) => {
                host.set_connected(PLATFORM, true);
                if std::mem::replace(&mut failing, false) {
                    tracing::info!("Matrix sync works again");
                }
                delay = Duration::from_millis(200);
            }
            Err(e) => {
                host.set_connected(PLATFORM, false);
                if !std::mem::replace(&mut failing, true) {
                    tracing::warn!("Matrix sync failed, retrying with back-off: {e}");
                }
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tokio::time::sleep(delay) => {}
                }
                delay = (delay * 2).min(Duration::from_secs(30));
            }
        }
    }
}

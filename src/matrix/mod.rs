//! The Matrix front end (matrix-sdk): logs in (or resumes its saved session), keeps the session, sync
//! token and end-to-end keys in one store directory, accepts invitations, turns room events into
//! [`Input`](crate::bot::Input)s for the [`Host`] and shows its [`Reply`](crate::bot::Reply)s.
//!
//! No game logic lives here: [`session`] starts the client, [`inbound`] translates events (and
//! follows room upgrades), [`community`] tells a room's community (its space), [`outbound`]
//! translates replies, [`notifications`] keeps the bot's own account from counting
//! notifications, and this module wires them to the sync loop.

pub mod community;
pub mod inbound;
pub mod mentions;
pub mod notifications;
pub mod outbound;
pub mod session;
pub mod undecrypted;

pub use outbound::MatrixFrontEnd;
pub use session::{Credentials, StartError};

use crate::host::Host;
use backon::{ExponentialBuilder, Retryable};
use matrix_sdk::Client;
use matrix_sdk::config::SyncSettings;
use matrix_sdk::ruma::api::client::filter::{FilterDefinition, LazyLoadOptions, RoomEventFilter};
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The platform name in [`crate::bot::Scope::platform`].
pub const PLATFORM: &str = "matrix";

/// Runs the Matrix front end on `client` until the host shuts down: on the very first login skips
/// the history (one sync whose events nobody handles), otherwise resumes from the stored sync token
/// and answers what was said meanwhile; joins pending invitations, then syncs with back-off while
/// the homeserver is away.
pub async fn run(host: Arc<Host>, client: Client) -> Arc<MatrixFrontEnd> {
    let front = serve(host.clone(), client).await;
    sync_until_stopped(&host, &front.client).await;
    front
}

/// Whether the store holds a sync token (the bot has synced before, so what came since is news).
pub async fn has_synced_before(client: &Client) -> bool {
    use matrix_sdk::store::StateStoreDataKey;
    matches!(client.state_store().get_kv_data(StateStoreDataKey::SyncToken).await, Ok(Some(_)))
}

/// Everything [`run`] does except the sync loop: returns the front end, registered with the host
/// and listening, the bot's own notifications muted ([`Options::mute_notifications`]). On the very
/// first login the history before start-up is skipped first; after a
/// restart nothing is skipped: the next sync resumes from the stored token, its events are handled
/// (the core's event-id store keeps any from answering twice).
pub async fn serve(host: Arc<Host>, client: Client) -> Arc<MatrixFrontEnd> {
    serve_with(host, client, Options::default()).await
}

/// Inputs waiting in one room at most, by default: far more than people type while the core
/// handles one (milliseconds), few enough that a flood of one room is turned away early.
pub const ROOM_QUEUE: usize = 32;

/// Whose invitations the bot accepts, how many rooms it stays in, and how many inputs wait in one.
#[derive(Clone, Debug)]
pub struct Options {
    /// Patterns (`*` for any text) of inviters' user ids or of room ids; empty means the bot's own
    /// server (`*:its.server`).
    pub allow: Vec<String>,
    /// Invitations beyond this many joined rooms are declined.
    pub max_rooms: usize,
    /// Inputs waiting in one room at most (behind the one the core is handling); beyond, their
    /// authors are told the bot is busy.
    pub room_queue: usize,
    /// Messages being sent at once at most ([`outbound::SENDS_AT_ONCE`]; the rooms delivered to at
    /// once are twice as many).
    pub sends_at_once: usize,
    /// The bot's own account counts no notifications ([`notifications`]): on, unless people share
    /// the account.
    pub mute_notifications: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            allow: Vec::new(),
            max_rooms: 500,
            room_queue: ROOM_QUEUE,
            sends_at_once: outbound::SENDS_AT_ONCE,
            mute_notifications: true,
        }
    }
}

/// [`serve`] with the operator's [`Options`].
pub async fn serve_with(host: Arc<Host>, client: Client, options: Options) -> Arc<MatrixFrontEnd> {
    if options.mute_notifications {
        notifications::mute_at_start(&client).await;
    }
    if !has_synced_before(&client).await {
        skip_history(&host, &client).await;
    }
    let config = host.bot().config();
    let front = MatrixFrontEnd::new(client.clone(), options, config.lang, config.prefix.clone()).await;
    host.register(front.clone());
    // Connected: what the outbox holds for Matrix goes out (replies a crash or restart left behind).
    host.start_drainer();
    inbound::listen(host.clone(), front.clone());
    for room in client.invited_rooms() {
        let (host, front) = (host.clone(), front.clone());
        tokio::spawn(async move {
            let inviter = room.invite_details().await.ok().and_then(|i| i.inviter).map(|m| m.user_id().to_owned());
            inbound::answer_invitation(host, front, room, inviter.as_deref()).await;
        });
    }
    front
}

/// The filter of every sync: room members lazy-loaded (a sync carries the members of the events'
/// senders, not every member of every room; a room's joined count comes in its summary), no typing
/// notices, read receipts or presence, which the bot never reads. Everything it acts on stays:
/// messages, reactions and encrypted events in the timeline, its own and others' membership
/// changes, room state such as power levels and tombstones, its account data (`m.direct`) and the
/// to-device messages that carry room keys. Sent inline, so a changed filter needs no stored id.
pub fn sync_filter() -> Filter {
    Filter::FilterDefinition(sync_filter_definition())
}

/// The definition behind [`sync_filter`].
pub fn sync_filter_definition() -> FilterDefinition {
    let mut filter = FilterDefinition::default();
    let lazy = LazyLoadOptions::Enabled { include_redundant_members: false };
    filter.room.state.lazy_load_options = lazy;
    filter.room.timeline.lazy_load_options = lazy;
    filter.room.ephemeral = RoomEventFilter::ignore_all();
    filter.presence = matrix_sdk::ruma::api::client::filter::Filter::ignore_all();
    filter
}

/// The waits between the sync's tries while the homeserver fails (and the first sync's): doubling
/// from 100 ms up to 15 s, each drawn between that and twice it (backon's jitter), so that bots
/// restarted together do not retry in step. No wait is longer than they were before the jitter
/// (200 ms, 400 ms, … 30 s at most), and the sync never gives up.
pub const SYNC_BACKOFF: ExponentialBuilder = ExponentialBuilder::new()
    .with_min_delay(Duration::from_millis(100))
    .with_max_delay(Duration::from_secs(15))
    .with_jitter()
    .without_max_times();

/// The first sync of a new login, whose events are history: nobody listens yet. It returns at once
/// (no sync token, so no long poll); tried until it works or the host stops.
async fn skip_history(host: &Host, client: &Client) {
    let stop = host.stopping();
    let first = (|| client.sync_once(SyncSettings::default().filter(sync_filter())))
        .retry(SYNC_BACKOFF)
        .notify(|e, delay| tracing::warn!("first Matrix sync failed, retrying in {delay:?}: {e}"));
    tokio::select! {
        _ = stop.cancelled() => {}
        _ = first => {}
    }
}

/// Syncs until the host stops, retrying with back-off ([`SYNC_BACKOFF`]) while the homeserver
/// fails. Each sync that works starts the back-off again from its shortest wait; the platform is
/// reported disconnected while syncs fail, and the first failure and the recovery are logged.
pub async fn sync_until_stopped(host: &Host, client: &Client) {
    let stop = host.stopping();
    let settings = SyncSettings::default().filter(sync_filter()).timeout(Duration::from_secs(20));
    let failing = AtomicBool::new(false);
    loop {
        let sync = (|| client.sync_once(settings.clone())).retry(SYNC_BACKOFF).notify(|e, _| {
            host.set_connected(PLATFORM, false);
            if !failing.swap(true, Ordering::Relaxed) {
                tracing::warn!("Matrix sync failed, retrying with back-off: {e}");
            }
        });
        let synced = tokio::select! {
            _ = stop.cancelled() => return,
            synced = sync => synced,
        };
        // Never an error: the retries have no limit.
        if synced.is_ok() {
            host.set_connected(PLATFORM, true);
            if failing.swap(false, Ordering::Relaxed) {
                tracing::info!("Matrix sync works again");
            }
        }
    }
}

//! A fake Discord for tests: the REST API v10 and the gateway WebSocket, served on 127.0.0.1 so
//! that a real Discord client (serenity, poise) can connect to it and be driven by a test.
//!
//! The test starts a [`FakeDiscord`] from a [`FakeConfig`] that describes the bot and its guilds,
//! points the client at [`FakeDiscord::base_url`] (REST) — the gateway URL is handed out by
//! `GET /gateway` and `GET /gateway/bot` — and then plays the users' side: it sends messages,
//! runs slash commands, clicks buttons, cuts the gateway, and waits for what the bot sent back.
//!
//! ```no_run
//! # async fn demo() {
//! use std::time::Duration;
//! use fake_discord::{FakeConfig, FakeDiscord, GuildSpec};
//!
//! let fake = FakeDiscord::start(
//!     FakeConfig::new("secret-token")
//!         .guild(GuildSpec::new(10, "Chess club").text_channel(11, "general").member(12, "alice")),
//! )
//! .await;
//! // ... start the bot against fake.base_url(), then:
//! fake.wait_ready(Duration::from_secs(10)).await;
//! fake.send_message(11, 12, "hello bot");
//! let reply = fake.wait_for(|sent| sent.channel_id == Some(11), Duration::from_secs(10)).await;
//! assert_eq!(reply.content(), Some("hello"));
//! fake.assert_no_problems();
//! # }
//! ```
//!
//! Modules: [`config`] (what the fake world holds), `state` (what it recorded), `payloads` (the
//! JSON objects Discord sends), `rest` (the HTTP routes), `commands` (Discord's checks on
//! registered commands) and `gateway` (the WebSocket).

mod commands;
pub mod config;
mod gateway;
mod payloads;
mod rest;
mod state;
mod tls;

use std::net::SocketAddr;
use std::sync::{Arc, MutexGuard};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::task::JoinHandle;

pub use config::{
    FakeConfig, GuildSpec, IDENTIFY_INTERVAL, NONCE_LIFETIME, RateLimits, SessionStartLimit, TEST_HEARTBEAT_INTERVAL_MS,
};
pub use rest::USER_INSTALL_FOLLOW_UPS;
pub use state::{Fault, FaultKind, GatewayDrop, Interaction, ReceivedFile, RecordedRequest, Sent, SentKind};
use state::{Shared, State};
pub use tls::DiscordCom;

/// A running fake Discord. Cheap to clone; the server stops when the last clone is dropped.
#[derive(Clone)]
pub struct FakeDiscord {
    inner: Arc<Inner>,
}

struct Inner {
    shared: Arc<Shared>,
    addr: SocketAddr,
    server: JoinHandle<()>,
    /// The fake serving as `https://discord.com` ([`FakeDiscord::serve_as_discord_com`]).
    as_discord_com: std::sync::Mutex<Vec<JoinHandle<()>>>,
}

impl Drop for Inner {
    fn drop(&mut self) {
        self.server.abort();
        for server in self.as_discord_com.get_mut().map(std::mem::take).unwrap_or_default() {
            server.abort();
        }
    }
}

impl FakeDiscord {
    /// Binds a free port on 127.0.0.1 and serves the fake there.
    ///
    /// # Panics
    /// If no port can be bound (the tests cannot run without one).
    pub async fn start(config: FakeConfig) -> FakeDiscord {
        use axum::serve::ListenerExt;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("fake Discord: cannot bind 127.0.0.1");
        let addr = listener.local_addr().expect("bound socket has an address");
        // Without TCP_NODELAY, a small gateway event written right after another waits for the
        // client's delayed acknowledgement (up to 40 ms on Linux): Discord's own latency is not that.
        let listener = listener.tap_io(|tcp| {
            let _ = tcp.set_nodelay(true);
        });
        let shared = Arc::new(Shared::new(config, addr));
        let app = rest::router(Arc::clone(&shared));
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!(target: "fake_discord", "server stopped: {error}");
            }
        });
        FakeDiscord { inner: Arc::new(Inner { shared, addr, server, as_discord_com: Default::default() }) }
    }

    /// Serves the same fake as `https://discord.com` as well, on another port of 127.0.0.1 with a
    /// certificate for `discord.com` made for this run (see [`DiscordCom`]): a client that
    /// resolves `discord.com` to [`DiscordCom::addr`] and trusts [`DiscordCom::authority`] needs
    /// no proxy, so serenity keeps its own rate limiter on.
    ///
    /// # Panics
    /// If no port can be bound.
    pub async fn serve_as_discord_com(&self) -> DiscordCom {
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("fake Discord: cannot bind 127.0.0.1");
        let addr = tcp.local_addr().expect("bound socket has an address");
        let credentials = tls::issue();
        let listener = tls::TlsListener { tcp, acceptor: tls::acceptor(&credentials) };
        let app = rest::router(Arc::clone(&self.inner.shared));
        let server = tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!(target: "fake_discord", "TLS server stopped: {error}");
            }
        });
        if let Ok(mut servers) = self.inner.as_discord_com.lock() {
            servers.push(server);
        }
        DiscordCom { addr, authority: credentials.authority.to_vec() }
    }

    /// `http://127.0.0.1:PORT`: give it to serenity's `HttpBuilder::proxy`, which replaces
    /// `https://discord.com` with it in every REST URL.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.inner.addr)
    }

    /// `ws://127.0.0.1:PORT/gateway`, as `GET /gateway/bot` reports it.
    pub fn gateway_url(&self) -> String {
        self.inner.shared.gateway_url()
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner.shared.lock()
    }

    /// Waits until the bot has a live gateway session (READY and the guilds were sent).
    ///
    /// # Panics
    /// After `timeout`, with what the gateway has seen so far.
    pub async fn wait_ready(&self, timeout: Duration) {
        self.wait_until("a live gateway session", timeout, |state| state.gateway.is_live()).await;
    }

    /// Waits until `count` gateway sessions were started (IDENTIFY answered with READY) and the
    /// latest is live: after a bot restart, pass the number of starts so far.
    ///
    /// # Panics
    /// After `timeout`.
    pub async fn wait_for_sessions(&self, count: u64, timeout: Duration) {
        let what = format!("{count} gateway sessions");
        self.wait_until(&what, timeout, |state| state.gateway.sessions_started >= count && state.gateway.is_live())
            .await;
    }

    /// The shards with a live session: `[id, total]` each, in shard order.
    pub fn live_shards(&self) -> Vec<[u32; 2]> {
        self.state().gateway.live_shards()
    }

    /// Waits until exactly `shards` (`[id, total]` each, in shard order) have live sessions.
    ///
    /// # Panics
    /// After `timeout`.
    pub async fn wait_for_shards(&self, shards: &[[u32; 2]], timeout: Duration) {
        let what = format!("live shards {shards:?}");
        self.wait_until(&what, timeout, |state| state.gateway.live_shards() == shards).await;
    }

    /// The shard that receives a guild's events: `(guild_id >> 22) % total` of the total the bot
    /// identified with.
    pub fn shard_of_guild(&self, guild: u64) -> u32 {
        self.state().gateway.shard_of_guild(guild)
    }

    /// Waits until the bot has sent gateway opcode `op` (e.g. 1 for a heartbeat, acknowledged
    /// at once by the fake).
    ///
    /// # Panics
    /// After `timeout`.
    pub async fn wait_for_gateway_op(&self, op: u64, timeout: Duration) {
        self.wait_until(&format!("gateway op {op}"), timeout, |state| state.gateway.ops_received.contains(&op)).await;
    }

    /// The first thing the bot sent (now or in the past) that matches `predicate`.
    ///
    /// # Panics
    /// After `timeout`, listing everything the bot did send, so a failing test says why.
    pub async fn wait_for(&self, predicate: impl Fn(&Sent) -> bool, timeout: Duration) -> Sent {
        self.wait_until("a matching message from the bot", timeout, |state| {
            state.sent.iter().find(|sent| predicate(sent)).cloned()
        })
        .await
    }

    /// The first REST request received that matches `predicate`.
    ///
    /// # Panics
    /// After `timeout`, listing the requests received.
    pub async fn wait_for_request(
        &self,
        predicate: impl Fn(&RecordedRequest) -> bool,
        timeout: Duration,
    ) -> RecordedRequest {
        self.wait_until("a matching REST request", timeout, |state| {
            state.requests.iter().find(|request| predicate(request)).cloned()
        })
        .await
    }

    /// Polls `check` on every change of the fake's state until it gives `Some`/`true`.
    async fn wait_until<T: Found>(&self, what: &str, timeout: Duration, check: impl Fn(&State) -> T) -> T::Output {
        let mut changes = self.inner.shared.changes.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            if let Some(found) = check(&self.state()).found() {
                return found;
            }
            if tokio::time::timeout_at(deadline, changes.changed()).await.is_err() {
                let state = self.state();
                panic!("fake Discord: timed out after {timeout:?} waiting for {what}.\n{}", state.summary());
            }
        }
    }

    /// Every REST request received, in order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.state().requests.clone()
    }

    /// Requests to routes the fake does not know (answered 404).
    pub fn unexpected_requests(&self) -> Vec<RecordedRequest> {
        self.state().requests.iter().filter(|request| request.unexpected).cloned().collect()
    }

    /// Everything the bot sent, in order.
    pub fn sent(&self) -> Vec<Sent> {
        self.state().sent.clone()
    }

    /// Everything the bot sends from now on, as it happens (one stream at a time: a new call
    /// replaces the previous one). For load runs, with [`FakeConfig::without_history`].
    pub fn sent_stream(&self) -> tokio::sync::mpsc::UnboundedReceiver<Sent> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        self.state().sent_stream = Some(tx);
        rx
    }

    /// The application commands the bot registered: global ones under `None`.
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        self.state().commands.get(&guild).cloned().unwrap_or_default()
    }

    /// Every file the bot uploaded, with its PNG check.
    pub fn files(&self) -> Vec<ReceivedFile> {
        self.state().sent.iter().flat_map(|sent| sent.files.clone()).collect()
    }

    /// What went wrong on the fake's side: unexpected requests, uploads that are not valid PNG
    /// images, and gateway problems (an IDENTIFY with no session start left or too soon).
    pub fn problems(&self) -> Vec<String> {
        self.state().problems()
    }

    /// Panics if anything went wrong on the fake's side: unexpected requests or uploads that are
    /// not valid PNG images.
    pub fn assert_no_problems(&self) {
        let state = self.state();
        let problems = state.problems();
        assert!(problems.is_empty(), "fake Discord saw problems: {problems:#?}");
    }

    /// The opcodes the bot sent on the gateway, in order (2 = IDENTIFY, 6 = RESUME, 1 = heartbeat).
    pub fn gateway_ops(&self) -> Vec<u64> {
        self.state().gateway.ops_received.clone()
    }

    /// The IDENTIFY payloads (`d`) received, to check intents and compression.
    pub fn identify_payloads(&self) -> Vec<Value> {
        self.state().gateway.identifies.clone()
    }

    /// The query strings of every gateway connection (serenity sends `v=10` only).
    pub fn gateway_queries(&self) -> Vec<String> {
        self.state().gateway.queries.clone()
    }

    /// A message as Discord stores it now (after its edits and updates), if it exists.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.state().messages.get(&id).cloned()
    }

    /// A user posts `content` in `channel` (MESSAGE_CREATE); returns the message id.
    ///
    /// # Panics
    /// If the channel or user is unknown.
    pub fn send_message(&self, channel: u64, author: u64, content: &str) -> u64 {
        let mut state = self.state();
        let message = state.user_message(channel, author, content);
        let id = payloads::id_of(&message);
        state.dispatch("MESSAGE_CREATE", message);
        id
    }

    /// A user replies to `message` in `channel` with `content` (MESSAGE_CREATE with
    /// `message_reference` and `referenced_message`); with `ping`, the replied author is among
    /// the message's mentions, as when the client's "@ON" is left on. Returns the message id.
    ///
    /// # Panics
    /// If the channel, user or message is unknown.
    pub fn reply_to(&self, channel: u64, author: u64, message: u64, ping: bool, content: &str) -> u64 {
        let mut state = self.state();
        let reply = state.user_reply(channel, author, content, Some((message, ping)));
        let id = payloads::id_of(&reply);
        state.dispatch("MESSAGE_CREATE", reply);
        id
    }

    /// A user runs the slash command `name` with `options` (a JSON array of
    /// `{"name", "type", "value"}` as Discord sends them; a subcommand as
    /// `{"name", "type": 1, "options": [...]}`, the only option); returns the interaction.
    ///
    /// # Panics
    /// If the bot has not registered `name` or these options (Discord's client offers no others),
    /// or the channel or user is unknown.
    pub fn slash_command(&self, channel: u64, user: u64, name: &str, options: Value) -> Interaction {
        self.state().command_interaction(2, channel, user, name, options)
    }

    /// A user types in an option of `name` that has autocomplete: `options` must mark one
    /// option `"focused": true`. The bot answers with callback type 8.
    ///
    /// # Panics
    /// As [`Self::slash_command`].
    pub fn autocomplete(&self, channel: u64, user: u64, name: &str, options: Value) -> Interaction {
        self.state().command_interaction(4, channel, user, name, options)
    }

    /// A user clicks the button `custom_id` on `message` (which the fake must have seen).
    ///
    /// # Panics
    /// If the message, channel or user is unknown.
    pub fn click_button(&self, channel: u64, user: u64, message: u64, custom_id: &str) -> Interaction {
        let component = json!({ "custom_id": custom_id, "component_type": 2 });
        self.state().component_interaction(channel, user, message, component)
    }

    /// The DM channel between the bot and `user`, created if needed; returns its id.
    pub fn dm_channel(&self, user: u64) -> u64 {
        self.state().dm_channel(user)
    }

    /// A group DM among `users` (the first owns it), which the bot is not in: its commands come
    /// only from people who installed the app to their account ([`Self::install_for_user`]), as
    /// interactions with `context` 2, `authorizing_integration_owners` `{"1": user}` and Discord's
    /// `app_permissions` for such channels; every channel route there (posting, editing, reading,
    /// threads) answers 403 Missing Access (50001). Returns its id.
    pub fn group_dm(&self, users: &[u64]) -> u64 {
        self.state().group_dm(users)
    }

    /// `user` installs the app to their own account (integration type 1): they may use its
    /// commands registered for user installs in group DMs ([`Self::group_dm`]).
    pub fn install_for_user(&self, user: u64) {
        self.state().user_installs.insert(user);
    }

    /// The requests made to a channel's own routes (`/channels/{channel}…`).
    pub fn channel_requests(&self, channel: u64) -> Vec<RecordedRequest> {
        let prefix = format!("/api/v10/channels/{channel}");
        let on_channel = |r: &RecordedRequest| r.path == prefix || r.path.starts_with(&format!("{prefix}/"));
        self.state().requests.iter().filter(|r| on_channel(r)).cloned().collect()
    }

    /// A user writes to the bot in DMs (MESSAGE_CREATE without a guild); returns the message id.
    pub fn send_dm(&self, user: u64, content: &str) -> u64 {
        let channel = self.dm_channel(user);
        self.send_message(channel, user, content)
    }

    /// Switches Discord's rate limits on (or off with `None`) from now on, with fresh windows.
    pub fn set_rate_limits(&self, limits: Option<RateLimits>) {
        let mut state = self.state();
        state.config.rate_limits = limits;
        state.rate_windows.clear();
    }

    /// Answers the next `times` requests of `method` whose path contains `path_contains` with a
    /// failure ([`FaultKind`]) instead of (or, for [`FaultKind::AnswerLost`], after) doing them.
    pub fn fail_next(&self, method: &str, path_contains: &str, kind: FaultKind, times: usize) {
        self.state().faults.push(Fault { method: method.into(), path_contains: path_contains.into(), kind, times });
    }

    /// Forgets the failures [`fail_next`](Self::fail_next) set and not yet used up (requests that
    /// already hang go on hanging until their client gives up).
    pub fn clear_faults(&self) {
        self.state().faults.clear();
    }

    /// Deletes a channel (or thread): the gateway gets CHANNEL_DELETE, and posting there answers
    /// 404 Unknown Channel (10003).
    pub fn delete_channel(&self, channel: u64) {
        let mut state = self.state();
        if let Some(c) = state.channels.remove(&channel) {
            state.dispatch("CHANNEL_DELETE", c);
        }
    }

    /// Removes the bot from a guild (kicked, or the app removed by an administrator): the gateway
    /// gets GUILD_DELETE without `unavailable` (Discord's sign of a removal, not an outage); from
    /// then on the guild's channels and the guild itself answer 403 Missing Access (50001), a DM to
    /// a user who now shares no guild with the bot answers 50007, and a new session's READY no
    /// longer lists the guild.
    pub fn remove_bot_from_guild(&self, guild: u64) {
        let mut state = self.state();
        if state.left_guilds.insert(guild) {
            state.dispatch("GUILD_DELETE", serde_json::json!({ "id": guild.to_string() }));
        }
    }

    /// Archives a thread (as Discord does after its auto-archive duration without activity), and
    /// with `locked` locks it too (as a moderator may): THREAD_UPDATE goes out. A message posted
    /// into an archived, unlocked thread un-archives it; editing a message in an archived thread,
    /// or posting into a locked one, answers 400 with code 50083.
    ///
    /// # Panics
    /// If `thread` is not a thread the fake knows.
    pub fn archive_thread(&self, thread: u64, locked: bool) {
        let mut state = self.state();
        let update = state.set_thread_archived(thread, true, locked);
        state.dispatch("THREAD_UPDATE", update);
    }

    /// Whether a thread is archived now, and whether it is locked.
    pub fn thread_state(&self, thread: u64) -> (bool, bool) {
        let state = self.state();
        let metadata = &state.channels.get(&thread).expect("a known thread")["thread_metadata"];
        (metadata["archived"] == true, metadata["locked"] == true)
    }

    /// Makes `user`'s DMs closed (or open again): the bot's messages to them get error 50007.
    pub fn set_dms_closed(&self, user: u64, closed: bool) {
        let mut state = self.state();
        if closed {
            state.closed_dms.insert(user);
        } else {
            state.closed_dms.remove(&user);
        }
    }

    /// The bot's permissions in `channel` (`None`: every permission, the default), as a server whose
    /// roles or overwrites deny some would. Interactions there report them as `app_permissions`,
    /// with Embed Links and Attach Files always added (Discord's rule: an interaction's answer may
    /// always embed and attach); the bot's own posts and edits there are refused with 403 Missing
    /// Permissions (50013), or lose their embeds, as Discord does.
    pub fn set_app_permissions(&self, channel: u64, permissions: Option<u64>) {
        let mut state = self.state();
        match permissions {
            Some(p) => state.app_permissions.insert(channel, p),
            None => state.app_permissions.remove(&channel),
        };
    }

    /// The language `user`'s client is set to (a Discord locale such as `tr` or `en-US`), sent as
    /// the `locale` of their interactions.
    pub fn set_locale(&self, user: u64, locale: &str) {
        self.state().locales.insert(user, locale.to_string());
    }

    /// A server's preferred language: its `preferred_locale` in GUILD_CREATE (so set it before the
    /// bot connects) and in `GET /guilds/{id}`, and its interactions' `guild_locale`.
    pub fn set_guild_locale(&self, guild: u64, locale: &str) {
        self.state().guild_locales.insert(guild, locale.to_string());
    }

    /// Makes opening a DM channel with `user` fail with 50007 (or work again), as Discord answers
    /// for a user who shares no server with the bot or has blocked it.
    pub fn set_dm_channel_refused(&self, user: u64, refused: bool) {
        let mut state = self.state();
        if refused {
            state.refused_dm_channels.insert(user);
        } else {
            state.refused_dm_channels.remove(&user);
        }
    }

    /// Cuts the gateway connection without a close frame (as a network drop does) and holds
    /// new connections until [`Self::reopen_gateway`], so that events sent meanwhile are
    /// queued and must be replayed on RESUME.
    pub fn drop_gateway(&self) {
        self.drop_gateway_with(GatewayDrop::Abort);
    }

    /// Ends the gateway connection in the given way (see [`GatewayDrop`]); new connections are
    /// held until [`Self::reopen_gateway`].
    pub fn drop_gateway_with(&self, how: GatewayDrop) {
        self.inner.shared.set_gateway_open(false);
        self.state().gateway.disconnect(how);
    }

    /// Lets held and new gateway connections proceed.
    pub fn reopen_gateway(&self) {
        self.inner.shared.set_gateway_open(true);
    }

    /// Dispatches the last event again (see [`Self::redeliver_where`]).
    ///
    /// # Panics
    /// If nothing was dispatched in this session.
    pub fn redeliver_last(&self) {
        self.state().gateway.redeliver_where(|_, _| true);
    }

    /// Dispatches again the latest event of this session for which `matches(event name, data)`
    /// holds, so that a test can check the bot's dedup. It gets a new sequence number (an old
    /// one would put serenity's sequence tracking back and make it warn).
    ///
    /// # Panics
    /// If no event matches.
    pub fn redeliver_where(&self, matches: impl Fn(&str, &Value) -> bool) {
        self.state().gateway.redeliver_where(matches);
    }

    /// Dispatches any gateway event (`t`, `d`), for events the helpers above do not cover.
    pub fn dispatch(&self, event: &str, data: Value) {
        self.state().dispatch(event, data);
    }
}

/// What [`FakeDiscord::wait_until`] checks for: a boolean condition or an optional value.
trait Found {
    type Output;
    fn found(self) -> Option<Self::Output>;
}

impl Found for bool {
    type Output = ();
    fn found(self) -> Option<()> {
        self.then_some(())
    }
}

impl<T> Found for Option<T> {
    type Output = T;
    fn found(self) -> Option<T> {
        self
    }
}

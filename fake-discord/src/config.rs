//! What the fake world holds at the start: the bot's token and user, and its guilds with their
//! channels, roles and members. Ids are chosen by the test, so assertions can name them.

/// Permissions of `@everyone` in a new guild: view channels, send messages, embed links, attach
/// files, read history, use application commands, send in threads, create public threads.
pub const DEFAULT_EVERYONE_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 38) | (1 << 35);

/// How long the fake remembers a nonce by default: the low end of Discord's "a few minutes".
pub const NONCE_LIFETIME: std::time::Duration = std::time::Duration::from_secs(2 * 60);

/// The bot and the guilds it is in.
#[derive(Clone, Debug)]
pub struct FakeConfig {
    /// The bot token the client must present (`Bot <token>`); anything else gets 401.
    pub token: String,
    /// The bot's user id, which is also its application id.
    pub bot_id: u64,
    /// The bot's user name.
    pub bot_name: String,
    /// The guilds the bot is a member of.
    pub guilds: Vec<GuildSpec>,
    /// The gateway heartbeat interval sent in HELLO, in milliseconds.
    pub heartbeat_interval_ms: u64,
    /// Keep every request and everything the bot sent (for assertions) and decode every upload;
    /// off for load runs, which read [`crate::FakeDiscord::sent_stream`] instead.
    pub keep_history: bool,
    /// Discord's rate limits, enforced when set ([`FakeConfig::rate_limits`]).
    pub rate_limits: Option<RateLimits>,
    /// The shard count `GET /gateway/bot` recommends (1 unless [`FakeConfig::shards`]).
    pub recommended_shards: u32,
    /// How long an interaction's token answers: 15 minutes on Discord. After it, follow-ups and
    /// edits of the answer get 401 Invalid Webhook Token (50027) and a first answer 404 Unknown
    /// interaction (10062), as Discord answers them. Tests shorten it.
    pub interaction_lifetime: std::time::Duration,
    /// How long a message's `nonce` is remembered for `enforce_nonce`: Discord documents "a few
    /// minutes" ([`NONCE_LIFETIME`] here). A post with the same nonce after it makes a second
    /// message, as on Discord. Tests shorten it.
    pub nonce_lifetime: std::time::Duration,
    /// The `session_start_limit` of `GET /gateway/bot` ([`FakeConfig::session_start_limit`]).
    pub session_start_limit: SessionStartLimit,
    /// Whether the application may ask for the privileged Message Content intent (switched on in
    /// the developer portal): without it an IDENTIFY asking for it is closed with 4014.
    pub message_content_allowed: bool,
    /// The fewest shards Discord accepts (as from 2,500 guilds per shard on): an IDENTIFY with a
    /// smaller total is closed with 4011 Sharding Required.
    pub sharding_required: u32,
    /// How long after an IDENTIFY the next one in the same bucket (shard id modulo
    /// `session_start_limit.max_concurrency`) may come: 5 seconds on Discord
    /// ([`IDENTIFY_INTERVAL`]), zero (not checked) unless [`FakeConfig::identify_interval`] says:
    /// most tests are about other things, and some start processes for several shards at once.
    /// One sooner is answered with op 9 Invalid Session, as Discord answers it, and recorded as a
    /// problem ([`crate::FakeDiscord::assert_no_problems`]).
    pub identify_interval: std::time::Duration,
}

/// Discord's wait between two IDENTIFYs of one bucket (`max_concurrency` buckets may identify
/// together).
pub const IDENTIFY_INTERVAL: std::time::Duration = std::time::Duration::from_secs(5);

/// A heartbeat interval for tests: short enough that heartbeats happen in most of them, long
/// enough to outlast a stalled test process. serenity restarts a shard whose last heartbeat is
/// still unacknowledged when the next one is due, and reads the acknowledgement only after the
/// events queued before it: at 1 s, a test's 150 GUILD_CREATEs on a shard, or a restarted
/// process's catch-up, on a loaded two-core machine held it back past the next heartbeat ("Error
/// heartbeating", a new session, the interaction sent meanwhile lost: the landing CI of 5e687fb,
/// and the fresh-clone CI of 2f25b18). Discord asks for 41.25 s.
pub const TEST_HEARTBEAT_INTERVAL_MS: u64 = 10_000;

/// How many more sessions the bot may start (Discord's `session_start_limit`): `remaining` of
/// `total`, refilled `reset_after` from the first `GET /gateway/bot`. An IDENTIFY while none
/// remain is recorded as a problem ([`crate::FakeDiscord::assert_no_problems`]); Discord would
/// reset the bot's token after too many.
#[derive(Clone, Copy, Debug)]
pub struct SessionStartLimit {
    pub total: u32,
    pub remaining: u32,
    pub reset_after: std::time::Duration,
    pub max_concurrency: u32,
}

impl Default for SessionStartLimit {
    fn default() -> Self {
        SessionStartLimit { total: 1000, remaining: 999, reset_after: std::time::Duration::ZERO, max_concurrency: 1 }
    }
}

/// Rate limits as Discord documents them (developer docs, "Rate Limits"): each route bucket —
/// the method and the path with its top-level resource kept (channel, guild, or webhook id and
/// token) and other ids left out, so two channels never share one — allows `per_route` requests
/// per `window`; all requests of the bot together allow `global` per `global_window` (Discord:
/// 50 a second), except interaction callbacks and interaction follow-ups, which Discord exempts
/// from the global limit. Every limited answer carries `X-RateLimit-Limit`, `-Remaining`,
/// `-Reset` (Unix seconds), `-Reset-After` (seconds) and `-Bucket`; a request over a limit gets
/// 429 with `Retry-After`, `X-RateLimit-Scope` (`user`, or `global` with `X-RateLimit-Global`)
/// and a body with `retry_after` in seconds and `global`.
#[derive(Clone, Copy, Debug)]
pub struct RateLimits {
    pub per_route: u32,
    pub window: std::time::Duration,
    pub global: u32,
    pub global_window: std::time::Duration,
}

impl RateLimits {
    /// `per_route` requests per `window` in each bucket, and Discord's global 50 a second.
    pub fn per_route(per_route: u32, window: std::time::Duration) -> RateLimits {
        RateLimits { per_route, window, global: 50, global_window: std::time::Duration::from_secs(1) }
    }

    /// Replaces the global limit: `global` requests per `window`.
    pub fn global(mut self, global: u32, window: std::time::Duration) -> RateLimits {
        self.global = global;
        self.global_window = window;
        self
    }
}

impl FakeConfig {
    /// A bot named "capabot" with id 1000 and no guilds.
    pub fn new(token: &str) -> FakeConfig {
        FakeConfig {
            token: token.to_owned(),
            bot_id: 1000,
            bot_name: "capabot".to_owned(),
            guilds: Vec::new(),
            heartbeat_interval_ms: 41_250,
            keep_history: true,
            rate_limits: None,
            recommended_shards: 1,
            interaction_lifetime: std::time::Duration::from_secs(15 * 60),
            nonce_lifetime: NONCE_LIFETIME,
            session_start_limit: SessionStartLimit::default(),
            message_content_allowed: true,
            sharding_required: 1,
            identify_interval: std::time::Duration::ZERO,
        }
    }

    /// Adds a guild the bot is in.
    pub fn guild(mut self, guild: GuildSpec) -> FakeConfig {
        self.guilds.push(guild);
        self
    }

    /// Keeps no history of requests and sends, and leaves uploads undecoded (their
    /// [`crate::ReceivedFile::png`] says so): for load runs, which measure the bot, not the fake.
    pub fn without_history(mut self) -> FakeConfig {
        self.keep_history = false;
        self
    }

    /// Enforces rate limits (off by default: most tests are about other things).
    pub fn rate_limits(mut self, limits: RateLimits) -> FakeConfig {
        self.rate_limits = Some(limits);
        self
    }

    /// Recommends `count` shards in `GET /gateway/bot` (as Discord does from 2,500 guilds on).
    /// Each guild's events go to shard `(guild_id >> 22) % total` of the total the bot identified
    /// with, direct messages to shard 0.
    pub fn shards(mut self, count: u32) -> FakeConfig {
        self.recommended_shards = count.max(1);
        self
    }

    /// `GET /gateway/bot` reports `remaining` session starts left, refilled after `reset_after`.
    pub fn session_start_limit(mut self, remaining: u32, reset_after: std::time::Duration) -> FakeConfig {
        self.session_start_limit.remaining = remaining;
        self.session_start_limit.reset_after = reset_after;
        self
    }

    /// `GET /gateway/bot` reports `max_concurrency` (Discord: 1, and 16 or more for bots in
    /// 150,000 guilds or more): shards whose id modulo `max_concurrency` differs may identify at
    /// the same time; within one such bucket IDENTIFYs must be [`FakeConfig::identify_interval`]
    /// apart.
    pub fn max_concurrency(mut self, max_concurrency: u32) -> FakeConfig {
        self.session_start_limit.max_concurrency = max_concurrency.max(1);
        self
    }

    /// Checks the wait between two IDENTIFYs of one bucket: [`IDENTIFY_INTERVAL`] as on Discord,
    /// or a shorter one (zero, the default, checks nothing).
    pub fn identify_interval(mut self, interval: std::time::Duration) -> FakeConfig {
        self.identify_interval = interval;
        self
    }

    /// The application has not switched on the privileged Message Content intent: an IDENTIFY
    /// asking for it is closed with 4014 Disallowed Intents, as Discord does.
    pub fn without_message_content_intent(mut self) -> FakeConfig {
        self.message_content_allowed = false;
        self
    }

    /// Discord requires at least `shards` shards: an IDENTIFY with a smaller total is closed with
    /// 4011 Sharding Required.
    pub fn sharding_required(mut self, shards: u32) -> FakeConfig {
        self.sharding_required = shards;
        self
    }

    /// Nonces are remembered for `lifetime` instead of [`NONCE_LIFETIME`].
    pub fn nonce_lifetime(mut self, lifetime: std::time::Duration) -> FakeConfig {
        self.nonce_lifetime = lifetime;
        self
    }

    /// Interaction tokens answer for `lifetime` instead of Discord's 15 minutes.
    pub fn interaction_lifetime(mut self, lifetime: std::time::Duration) -> FakeConfig {
        self.interaction_lifetime = lifetime;
        self
    }

    /// Sets the heartbeat interval (short ones make heartbeats happen during a test: see
    /// [`TEST_HEARTBEAT_INTERVAL_MS`]).
    pub fn heartbeat_interval_ms(mut self, interval: u64) -> FakeConfig {
        self.heartbeat_interval_ms = interval;
        self
    }
}

/// A guild: its `@everyone` role has the guild's id and [`DEFAULT_EVERYONE_PERMISSIONS`].
#[derive(Clone, Debug)]
pub struct GuildSpec {
    pub id: u64,
    pub name: String,
    /// Text channels: (id, name).
    pub channels: Vec<(u64, String)>,
    pub roles: Vec<RoleSpec>,
    pub members: Vec<MemberSpec>,
    /// Members counted beyond those listed in [`Self::members`] (a server of thousands, whose
    /// members the bot never receives without the privileged GUILD_MEMBERS intent); GUILD_CREATE's
    /// `member_count` counts them and its `large` says whether the total passes the IDENTIFY's
    /// `large_threshold`.
    pub unlisted_members: u64,
    /// The guild's owner (`owner_id`), who has every permission; the bot when `None`.
    pub owner: Option<u64>,
}

/// A role with its permission bitset.
#[derive(Clone, Debug)]
pub struct RoleSpec {
    pub id: u64,
    pub name: String,
    pub permissions: u64,
}

/// A human member (the bot is added as a member by the fake itself).
#[derive(Clone, Debug)]
pub struct MemberSpec {
    pub id: u64,
    pub name: String,
    pub roles: Vec<u64>,
}

impl GuildSpec {
    /// A guild with only `@everyone`, no channels and no members.
    pub fn new(id: u64, name: &str) -> GuildSpec {
        GuildSpec {
            id,
            name: name.to_owned(),
            channels: Vec::new(),
            roles: vec![RoleSpec { id, name: "@everyone".to_owned(), permissions: DEFAULT_EVERYONE_PERMISSIONS }],
            members: Vec::new(),
            unlisted_members: 0,
            owner: None,
        }
    }

    /// Counts `count` more members than those listed (see [`Self::unlisted_members`]).
    pub fn unlisted_members(mut self, count: u64) -> GuildSpec {
        self.unlisted_members = count;
        self
    }

    /// Makes `user` the owner instead of the bot (whose permissions then come from its roles).
    pub fn owned_by(mut self, user: u64) -> GuildSpec {
        self.owner = Some(user);
        self
    }

    /// Adds a text channel.
    pub fn text_channel(mut self, id: u64, name: &str) -> GuildSpec {
        self.channels.push((id, name.to_owned()));
        self
    }

    /// Adds a role with the given permission bits.
    pub fn role(mut self, id: u64, name: &str, permissions: u64) -> GuildSpec {
        self.roles.push(RoleSpec { id, name: name.to_owned(), permissions });
        self
    }

    /// Adds a member with no role but `@everyone`.
    pub fn member(self, id: u64, name: &str) -> GuildSpec {
        self.member_with_roles(id, name, &[])
    }

    /// Adds a member with roles (ids of roles added with [`Self::role`]).
    pub fn member_with_roles(mut self, id: u64, name: &str, roles: &[u64]) -> GuildSpec {
        self.members.push(MemberSpec { id, name: name.to_owned(), roles: roles.to_vec() });
        self
    }
}

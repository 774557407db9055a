//! Configuration: `capabot.toml` (optional) overridden by environment variables, with defaults that
//! work on a fresh machine (database `./capabot.db`, boards in `./boards/`). One section per front
//! end (`[console]`, `[discord]`, `[matrix]`) and one for the `[host]`. Secrets (tokens, passwords)
//! are never read from the file: only from the environment, by the front end that needs them.
//!
//! Environment: `CAPABOT_CONFIG` (path of the TOML file), `CAPABOT_DB`, `CAPABOT_PREFIX`,
//! `CAPABOT_DEFAULT_VARIANT`, `CAPABOT_PICTURES` (`0`/`1`), `CAPABOT_AI_THREADS`, `CAPABOT_BOARDS`,
//! `CAPABOT_DISCORD_PROXY`, `CAPABOT_DISCORD_GUILD`, `CAPABOT_MATRIX_STORE`, `CAPABOT_METRICS`,
//! `CAPABOT_WEB` (`[web] listen`), `CAPABOT_WEB_URL` (`[web] public_url`).

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `[host]`: the shared async host.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct HostSection {
    /// AI searches at once (default: one fewer than the cores, at least one).
    pub ai_threads: Option<usize>,
    /// The core's other work at once: scheduler ticks, the AI's moves written down (default: the
    /// cores, at least two); the rest waits in order.
    pub core_threads: Option<usize>,
    /// People's inputs the core works on at once, beside that (default: the cores, at least two);
    /// the rest wait in order. One on SQLite gives a tighter tail at saturation for a little
    /// throughput (docs/load.md).
    pub input_threads: Option<usize>,
    /// Nice steps (0 to 19) that people's inputs and the AI's searches run behind the bot's other
    /// threads, so that answers already decided go out first when the cores are busy (default 0:
    /// beside them; a tighter tail at saturation for a little throughput, docs/load.md).
    pub input_nice: Option<i32>,
    /// Pictures drawn at once (default: the cores, at least two); they hold no database connection.
    pub draw_threads: Option<usize>,
    /// Seconds between scheduler runs (reminders, timeouts, expiries).
    pub tick_seconds: u64,
    /// Seconds that shutdown waits for moves in flight.
    pub shutdown_grace_seconds: u64,
    /// Where to serve `/healthz` and Prometheus `/metrics` (a loopback address; off when absent).
    pub metrics: Option<std::net::SocketAddr>,
    /// Hours after which replies waiting for a platform that no process serves are expired, and its
    /// scheduled items run by any process (its reminders dropped).
    pub unserved_expiry_hours: u32,
}

impl Default for HostSection {
    fn default() -> Self {
        HostSection {
            ai_threads: None,
            core_threads: None,
            input_threads: None,
            input_nice: None,
            draw_threads: None,
            tick_seconds: 30,
            shutdown_grace_seconds: 10,
            metrics: None,
            unserved_expiry_hours: 24,
        }
    }
}

/// `[console]`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ConsoleSection {
    /// Folder where board pictures are written.
    pub boards_dir: PathBuf,
}

impl Default for ConsoleSection {
    fn default() -> Self {
        ConsoleSection { boards_dir: PathBuf::from("boards") }
    }
}

/// `[discord]` (the token comes from `DISCORD_TOKEN` or the file named by `DISCORD_TOKEN_FILE`).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordSection {
    /// Register slash commands in this guild only (instant) instead of globally.
    pub guild: Option<u64>,
    /// An HTTP base URL through which every REST call goes (a shared rate-limit proxy).
    pub proxy: Option<String>,
    /// Read plain messages (prefix commands and bare moves); needs the message-content intent.
    pub message_content: bool,
    /// The shards this process runs, `"0-3"` or `"2"` (both ends included); needs `shard_total`.
    /// Without it: every shard of `shard_total`, or as many as Discord recommends.
    pub shards: Option<String>,
    /// How many shards the bot runs in all, over every process.
    pub shard_total: Option<u32>,
}

/// The shards one process runs: `first..=last` of `total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl DiscordSection {
    /// The shard range from `shards` and `shard_total`; `None` to run as many as Discord
    /// recommends.
    pub fn shard_range(&self) -> Result<Option<ShardRange>, String> {
        let total = match (self.shard_total, &self.shards) {
            (None, None) => return Ok(None),
            (None, Some(_)) => return Err("discord.shards needs discord.shard_total (how many shards in all)".into()),
            (Some(0), _) => return Err("discord.shard_total must be at least 1".into()),
            (Some(total), _) => total,
        };
        let Some(text) = &self.shards else { return Ok(Some(ShardRange { first: 0, last: total - 1, total })) };
        let number = |t: &str| t.trim().parse::<u32>().ok();
        let (first, last) = match text.split_once('-') {
            Some((a, b)) => (number(a), number(b)),
            None => (number(text), number(text)),
        };
        match (first, last) {
            (Some(first), Some(last)) if first <= last && last < total => Ok(Some(ShardRange { first, last, total })),
            _ => Err(format!(
                "discord.shards must be a shard or a range such as 0-3, within 0-{} of {total} shards, not '{text}'",
                total - 1
            )),
        }
    }
}

/// `[matrix]` (homeserver, user and password or access token come from `MATRIX_HOMESERVER`,
/// `MATRIX_USER`, `MATRIX_PASSWORD` / `MATRIX_ACCESS_TOKEN`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct MatrixSection {
    /// Session, sync token and encryption keys.
    pub store: PathBuf,
    /// Whose invitations are accepted: patterns (`*` for any text) of inviters' user ids or of
    /// room ids, such as `"*:example.org"`; empty means the bot's own server.
    pub allow: Vec<String>,
    /// The most rooms the bot stays in; invitations beyond are declined.
    pub max_rooms: usize,
    /// The most inputs of one room waiting for the core; one more is answered "busy" (the Matrix
    /// front end's `ROOM_QUEUE` by default).
    pub room_queue: usize,
    /// The bot's own account counts no notifications (its `.m.rule.master` push rule enabled at
    /// start-up); `false` where people share the account and want them.
    pub mute_notifications: bool,
}

impl Default for MatrixSection {
    fn default() -> Self {
        MatrixSection {
            store: PathBuf::from("matrix-store"),
            allow: Vec::new(),
            max_rooms: 500,
            room_queue: 32,
            mute_notifications: true,
        }
    }
}

/// `[web]`: the read-only web pages of the communities that opted in (off when `listen` is absent).
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct WebSection {
    /// Where to serve the pages (best a loopback address behind a reverse proxy with TLS).
    pub listen: Option<std::net::SocketAddr>,
    /// The address people reach the pages at (`https://chess.example.org`), for the links the chat
    /// gives; without it the chat gives none.
    pub public_url: Option<String>,
}

impl WebSection {
    /// The public address without a trailing slash, when set.
    pub fn base(&self) -> Option<String> {
        self.public_url.as_deref().map(|u| u.trim_end_matches('/').to_string()).filter(|u| !u.is_empty())
    }
}

/// Everything the front ends read at start-up.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// The database: a SQLite file, or a PostgreSQL URL (`postgres://user@host/db`; the password
    /// best in `PGPASSWORD` or `CAPABOT_DATABASE_URL`, not in the file).
    pub db: PathBuf,
    /// Command prefix.
    pub prefix: String,
    /// Variant when a challenge names none.
    pub default_variant: String,
    /// How long challenges stay open, in hours.
    pub challenge_expiry_hours: u32,
    /// Attach board pictures.
    pub pictures: bool,
    /// The language (`en`, `tr`) where neither a person, a chat nor a community chose one.
    pub lang: String,
    pub host: HostSection,
    pub console: ConsoleSection,
    pub discord: DiscordSection,
    pub matrix: MatrixSection,
    pub web: WebSection,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("capabot.db"),
            prefix: "!".into(),
            default_variant: "capatomic".into(),
            challenge_expiry_hours: 48,
            pictures: true,
            lang: "en".into(),
            host: HostSection::default(),
            console: ConsoleSection::default(),
            discord: DiscordSection::default(),
            matrix: MatrixSection::default(),
            web: WebSection::default(),
        }
    }
}

fn parse_env<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{key}: cannot read '{v}'"))
}

impl Config {
    /// Opens the store the `db` setting names (SQLite file or PostgreSQL URL), migrated. The
    /// message of a failure names the database by [`Config::database_label`], never its password.
    pub fn open_store(&self) -> Result<crate::store::Store, String> {
        let db = self.db.to_string_lossy();
        crate::store::Store::open_setting(&db).map_err(|e| format!("cannot open {}: {e}", self.database_label()))
    }

    /// The database as it may be shown and logged: a SQLite path, or a PostgreSQL URL without
    /// its password.
    pub fn database_label(&self) -> String {
        let db = self.db.to_string_lossy();
        if !crate::store::is_postgres_url(&db) {
            return db.into_owned();
        }
        let (scheme, rest) = db.split_once("://").unwrap_or(("postgres", &db));
        match rest.split_once('@') {
            Some((user, host)) => {
                let user = user.split_once(':').map_or(user, |(name, _password)| name);
                format!("{scheme}://{user}@{host}")
            }
            None => db.into_owned(),
        }
    }

    /// Loads `file` (or `$CAPABOT_CONFIG`, or `./capabot.toml` when it exists), then applies the
    /// environment overrides.
    pub fn load(file: Option<&Path>) -> Result<Config, String> {
        Self::load_with(file, |k| std::env::var(k).ok())
    }

    /// [`Config::load`] with an explicit environment lookup (tests).
    pub fn load_with(file: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Result<Config, String> {
        let explicit = file.map(Path::to_path_buf).or_else(|| env("CAPABOT_CONFIG").map(PathBuf::from));
        let mut cfg = match explicit {
            Some(p) => Self::parse_file(&p)?,
            None if Path::new("capabot.toml").exists() => Self::parse_file(Path::new("capabot.toml"))?,
            None => Config::default(),
        };
        if let Some(v) = env("CAPABOT_DB") {
            cfg.db = PathBuf::from(v);
        }
        if let Some(v) = env("CAPABOT_DATABASE_URL") {
            cfg.db = PathBuf::from(v);
        }
        if let Some(v) = env("CAPABOT_BOARDS") {
            cfg.console.boards_dir = PathBuf::from(v);
        }
        if let Some(v) = env("CAPABOT_PREFIX") {
            cfg.prefix = v;
        }
        if let Some(v) = env("CAPABOT_DEFAULT_VARIANT") {
            cfg.default_variant = v;
        }
        if let Some(v) = env("CAPABOT_PICTURES") {
            cfg.pictures = !matches!(v.as_str(), "0" | "false" | "no" | "off");
        }
        if let Some(v) = env("CAPABOT_LANG") {
            cfg.lang = v;
        }
        if let Some(v) = env("CAPABOT_AI_THREADS") {
            cfg.host.ai_threads = Some(parse_env("CAPABOT_AI_THREADS", &v)?);
        }
        if let Some(v) = env("CAPABOT_DISCORD_PROXY") {
            cfg.discord.proxy = Some(v);
        }
        if let Some(v) = env("CAPABOT_DISCORD_SHARDS") {
            cfg.discord.shards = Some(v);
        }
        if let Some(v) = env("CAPABOT_DISCORD_SHARD_TOTAL") {
            cfg.discord.shard_total = Some(parse_env("CAPABOT_DISCORD_SHARD_TOTAL", &v)?);
        }
        if let Some(v) = env("CAPABOT_DISCORD_GUILD") {
            cfg.discord.guild = Some(parse_env("CAPABOT_DISCORD_GUILD", &v)?);
        }
        if let Some(v) = env("CAPABOT_MATRIX_STORE") {
            cfg.matrix.store = PathBuf::from(v);
        }
        if let Some(v) = env("CAPABOT_WEB") {
            cfg.web.listen = Some(parse_env("CAPABOT_WEB", &v)?);
        }
        if let Some(v) = env("CAPABOT_WEB_URL") {
            cfg.web.public_url = Some(v);
        }
        if let Some(v) = env("CAPABOT_METRICS") {
            cfg.host.metrics = Some(parse_env("CAPABOT_METRICS", &v)?);
        }
        cfg.check()?;
        Ok(cfg)
    }

    fn parse_file(p: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        // Only the message, never the source line: a misplaced secret must not be echoed.
        toml::from_str(&text).map_err(|e| format!("{}: {}", p.display(), e.message().trim()))
    }

    fn check(&self) -> Result<(), String> {
        if self.prefix.is_empty() || self.prefix.chars().count() > 3 {
            return Err(format!("prefix must be 1 to 3 characters, not '{}'", self.prefix));
        }
        if crate::i18n::Lang::parse(&self.lang).is_none() {
            return Err(format!("lang must be en or tr, not '{}'", self.lang));
        }
        if crate::rules::Variant::by_name(&self.default_variant).is_none() {
            return Err(format!("unknown default_variant '{}'", self.default_variant));
        }
        if self.host.ai_threads == Some(0) {
            return Err("host.ai_threads must be at least 1".into());
        }
        if self.host.core_threads == Some(0) {
            return Err("host.core_threads must be at least 1".into());
        }
        if self.host.input_threads == Some(0) {
            return Err("host.input_threads must be at least 1".into());
        }
        if let Some(n) = self.host.input_nice
            && !(0..=19).contains(&n)
        {
            return Err(format!("host.input_nice must be from 0 to 19, not {n}"));
        }
        if self.host.draw_threads == Some(0) {
            return Err("host.draw_threads must be at least 1".into());
        }
        // Unauthenticated: never on a public interface (a reverse proxy or a tunnel can carry it).
        if let Some(a) = self.host.metrics
            && !a.ip().is_loopback()
        {
            return Err(format!("host.metrics must be a loopback address such as 127.0.0.1:9187, not {a}"));
        }
        if let Some(p) = &self.discord.proxy
            && !(p.starts_with("http://") || p.starts_with("https://"))
        {
            return Err(format!("discord.proxy must be an http:// or https:// URL, not '{p}'"));
        }
        self.discord.shard_range()?;
        Ok(())
    }

    /// The core's settings derived from this configuration.
    pub fn bot_config(&self) -> crate::bot::BotConfig {
        crate::bot::BotConfig {
            prefix: self.prefix.clone(),
            challenge_expiry_secs: i64::from(self.challenge_expiry_hours) * 3600,
            pictures: self.pictures,
            default_variant: self.default_variant.clone(),
            lang: crate::i18n::Lang::parse(&self.lang).unwrap_or_default(),
            web_url: self.web.base(),
            unserved_expiry_secs: i64::from(self.host.unserved_expiry_hours.max(1)) * 3600,
            ..crate::bot::BotConfig::default()
        }
    }

    /// The host's settings derived from this configuration.
    pub fn host_config(&self) -> crate::host::HostConfig {
        crate::host::HostConfig {
            ai_threads: self.host.ai_threads.unwrap_or_else(crate::host::default_ai_threads),
            core_threads: self.host.core_threads.unwrap_or_else(crate::host::default_core_threads),
            input_threads: self.host.input_threads.unwrap_or_else(crate::host::default_core_threads),
            input_nice: self.host.input_nice.unwrap_or(crate::host::DEFAULT_INPUT_NICE),
            draw_threads: self.host.draw_threads.unwrap_or_else(crate::host::default_core_threads),
            tick_every: std::time::Duration::from_secs(self.host.tick_seconds.max(1)),
            // The console is one person typing (or a script): no limits there; chat front ends
            // get them (`chat_host_config`).
            limits: None,
            instance: None,
            ..crate::host::HostConfig::default()
        }
    }

    /// The host's settings for the chat platforms (`discord`, `matrix`: which ones this process
    /// serves): with per-person and per-chat rate limits, and named by [`Config::instance`].
    pub fn chat_host_config(&self, discord: bool, matrix: bool) -> crate::host::HostConfig {
        crate::host::HostConfig {
            limits: Some(crate::host::limits::LimitConfig::default()),
            instance: Some(self.instance(discord, matrix)),
            ..self.host_config()
        }
    }

    /// What a process serves, as its name among the processes sharing one database: its platforms
    /// and, on Discord, its shard range (`discord-shards-2-3-of-6+matrix`). Two processes should
    /// never serve the same (Discord would send both every event); should they, each still holds
    /// its delivery leases as an instance of its own (`HostConfig::instance`).
    pub fn instance(&self, discord: bool, matrix: bool) -> String {
        let mut parts = Vec::new();
        if discord {
            parts.push(match self.discord.shard_range() {
                Ok(Some(r)) => format!("discord-shards-{}-{}-of-{}", r.first, r.last, r.total),
                _ => "discord".to_string(),
            });
        }
        if matrix {
            parts.push("matrix".to_string());
        }
        if parts.is_empty() { "host".to_string() } else { parts.join("+") }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_postgres_url_is_shown_without_its_password() {
        let mut cfg = Config::default();
        assert_eq!(cfg.database_label(), "capabot.db");
        cfg.db = PathBuf::from("postgres://bot:s3cret@db.example.org:5432/capabot");
        assert_eq!(cfg.database_label(), "postgres://bot@db.example.org:5432/capabot");
        cfg.db = PathBuf::from("postgresql://db.example.org/capabot");
        assert_eq!(cfg.database_label(), "postgresql://db.example.org/capabot");
        let env = |k: &str| (k == "CAPABOT_DATABASE_URL").then(|| "postgres://a:b@h/d".to_string());
        let cfg = Config::load_with(None, env).unwrap();
        assert_eq!(cfg.db, PathBuf::from("postgres://a:b@h/d"));
    }

    use super::*;

    #[test]
    fn the_matrix_room_queue_is_read_from_the_file_and_defaults_to_the_front_ends() {
        let cfg: Config = toml::from_str("[matrix]\nroom_queue = 4\n").unwrap();
        assert_eq!(cfg.matrix.room_queue, 4);
        #[cfg(feature = "matrix")]
        assert_eq!(MatrixSection::default().room_queue, crate::matrix::ROOM_QUEUE);
    }

    #[test]
    fn the_bot_mutes_its_own_notifications_unless_the_file_says_not_to() {
        assert!(Config::default().matrix.mute_notifications);
        let cfg: Config = toml::from_str("[matrix]\nmute_notifications = false\n").unwrap();
        assert!(!cfg.matrix.mute_notifications);
        #[cfg(feature = "matrix")]
        assert!(crate::matrix::Options::default().mute_notifications);
    }

    #[test]
    fn a_process_is_named_by_what_it_serves() {
        let mut cfg = Config::default();
        assert_eq!(cfg.instance(true, false), "discord");
        assert_eq!(cfg.instance(false, true), "matrix");
        assert_eq!(cfg.instance(false, false), "host");
        cfg.discord.shards = Some("2-3".into());
        cfg.discord.shard_total = Some(6);
        assert_eq!(cfg.instance(true, true), "discord-shards-2-3-of-6+matrix");
        cfg.discord.shards = Some("4-5".into());
        assert_ne!(cfg.instance(true, false), "discord-shards-2-3-of-6", "another range, another name");
        assert_eq!(cfg.chat_host_config(true, false).instance.as_deref(), Some("discord-shards-4-5-of-6"));
    }

    #[test]
    fn shard_ranges() {
        let range = |shards: Option<&str>, total: Option<u32>| {
            DiscordSection { shards: shards.map(str::to_string), shard_total: total, ..DiscordSection::default() }
                .shard_range()
        };
        assert_eq!(range(None, None), Ok(None));
        assert_eq!(range(None, Some(8)), Ok(Some(ShardRange { first: 0, last: 7, total: 8 })));
        assert_eq!(range(Some("0-3"), Some(8)), Ok(Some(ShardRange { first: 0, last: 3, total: 8 })));
        assert_eq!(range(Some(" 5 "), Some(8)), Ok(Some(ShardRange { first: 5, last: 5, total: 8 })));
        for (shards, total) in
            [(Some("0-3"), None), (Some("4-8"), Some(8)), (Some("3-1"), Some(8)), (Some("x"), Some(2))]
        {
            let e = range(shards, total).unwrap_err();
            assert!(e.starts_with("discord.shards"), "{e}");
        }
        assert!(range(None, Some(0)).is_err());
        let env = |k: &str| match k {
            "CAPABOT_DISCORD_SHARDS" => Some("2-3".to_string()),
            "CAPABOT_DISCORD_SHARD_TOTAL" => Some("6".to_string()),
            _ => None,
        };
        let cfg = Config::load_with(None, env).unwrap();
        assert_eq!(cfg.discord.shard_range(), Ok(Some(ShardRange { first: 2, last: 3, total: 6 })));
        let bad = |k: &str| (k == "CAPABOT_DISCORD_SHARDS").then(|| "1".to_string());
        assert!(Config::load_with(None, bad).unwrap_err().contains("shard_total"));
    }

    #[test]
    fn file_then_env() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("c.toml");
        std::fs::write(
            &f,
            "db = \"/tmp/x.db\"\nprefix = \"?\"\n[host]\nai_threads = 3\ncore_threads = 4\ninput_threads = 1\ninput_nice = 3\ndraw_threads = 5\n[console]\nboards_dir = \"pics\"\n\
             [discord]\nproxy = \"http://127.0.0.1:9\"\n[matrix]\nstore = \"/var/m\"\nallow = [\"*:example.org\"]\n",
        )
        .unwrap();
        let cfg = Config::load_with(Some(&f), |_| None).unwrap();
        assert_eq!(cfg.db, PathBuf::from("/tmp/x.db"));
        assert_eq!(cfg.prefix, "?");
        assert_eq!(cfg.console.boards_dir, PathBuf::from("pics"));
        assert_eq!(cfg.host_config().ai_threads, 3);
        assert_eq!(cfg.host_config().core_threads, 4);
        assert_eq!(cfg.host_config().input_threads, 1);
        assert_eq!(cfg.host_config().input_nice, 3);
        assert_eq!(cfg.host_config().draw_threads, 5);
        assert_eq!(cfg.discord.proxy.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(cfg.matrix.store, PathBuf::from("/var/m"));
        assert_eq!(cfg.matrix.allow, ["*:example.org"]);
        let env = |k: &str| match k {
            "CAPABOT_DB" => Some("/tmp/y.db".to_string()),
            "CAPABOT_AI_THREADS" => Some("2".to_string()),
            "CAPABOT_MATRIX_STORE" => Some("/tmp/ms".to_string()),
            _ => None,
        };
        let cfg = Config::load_with(Some(&f), env).unwrap();
        assert_eq!(cfg.db, PathBuf::from("/tmp/y.db"));
        assert_eq!(cfg.host_config().ai_threads, 2);
        assert_eq!(cfg.matrix.store, PathBuf::from("/tmp/ms"));
        assert_eq!(cfg.host.metrics, None, "off by default");
        std::fs::write(&f, "[host]\nmetrics = \"127.0.0.1:9187\"\n").unwrap();
        let cfg = Config::load_with(Some(&f), |_| None).unwrap();
        assert_eq!(cfg.host.metrics, Some("127.0.0.1:9187".parse().unwrap()));
        let public = |k: &str| (k == "CAPABOT_METRICS").then(|| "0.0.0.0:1".to_string());
        assert!(Config::load_with(Some(&f), public).unwrap_err().contains("loopback"));
        for bad in [
            "dbb = 1\n",
            "default_variant = \"nope\"\n",
            "[discord]\ntoken = \"x\"\n",
            "[host]\nai_threads = 0\n",
            "[host]\ncore_threads = 0\n",
            "[host]\ninput_threads = 0\n",
            "[host]\ninput_nice = -1\n",
            "[host]\ninput_nice = 20\n",
            "[host]\ndraw_threads = 0\n",
            "[host]\nmetrics = \"0.0.0.0:9187\"\n",
            "[host]\nmetrics = \"localhost\"\n",
        ] {
            std::fs::write(&f, bad).unwrap();
            assert!(Config::load_with(Some(&f), |_| None).is_err(), "{bad}");
        }
        // A secret in the file is refused without being echoed.
        std::fs::write(&f, "[discord]\ntoken = \"SECRET-abc\"\n").unwrap();
        assert!(!Config::load_with(Some(&f), |_| None).unwrap_err().contains("SECRET-abc"));
    }

    #[test]
    fn defaults_without_file() {
        let cfg = Config::load_with(None, |_| None).unwrap();
        // The test runs in the crate root, which has no capabot.toml.
        assert_eq!(cfg.db, PathBuf::from("capabot.db"));
        assert!(cfg.host_config().ai_threads >= 1);
    }
}

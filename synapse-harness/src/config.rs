//! The generated Synapse configuration: a single-process test server on 127.0.0.1 with SQLite (or
//! a PostgreSQL database the caller gives), no federation, generous rate limits and cheap password
//! hashing. The one exception is the limit on sending events (`rc_message`): it keeps Synapse's default, and the harness exempts each user it
//! registers through the admin API (see [`crate::Synapse::register_user`]), so a test can put one
//! user back under the default a real server applies.

use std::path::Path;

use crate::database::Database;

/// Rate limits so high that no test or benchmark meets them (per second and burst).
const UNLIMITED: &str = "{per_second: 100000, burst_count: 100000}";

/// Synapse's own default for `rc_message` (per user: one event every five seconds with a burst of
/// ten; `synapse/config/ratelimiting.py`), written out so a change of default shows in review.
pub(crate) const DEFAULT_MESSAGE_LIMIT: &str = "{per_second: 0.2, burst_count: 10}";

/// Everything that differs between two test servers.
pub(crate) struct ServerConfig<'a> {
    pub server_name: &'a str,
    pub port: u16,
    pub data_dir: &'a Path,
    pub shared_secret: &'a str,
    pub macaroon_secret: &'a str,
    pub form_secret: &'a str,
    pub database: &'a Database,
    /// Push rules evaluated and notifications counted, as on a homeserver of people.
    pub push: bool,
}

/// File names inside the data directory.
pub(crate) const CONFIG_FILE: &str = "homeserver.yaml";
pub(crate) const LOG_CONFIG_FILE: &str = "log.yaml";
pub(crate) const LOG_FILE: &str = "homeserver.log";
pub(crate) const OUTPUT_FILE: &str = "output.log";
pub(crate) const SIGNING_KEY_FILE: &str = "signing.key";
pub(crate) const DATABASE_FILE: &str = "homeserver.db";

impl ServerConfig<'_> {
    /// The contents of `homeserver.yaml`.
    pub(crate) fn homeserver_yaml(&self) -> String {
        let path = |name: &str| yaml_string(&self.data_dir.join(name).to_string_lossy());
        let lines = [
            format!("server_name: {}", yaml_string(self.server_name)),
            format!("public_baseurl: 'http://127.0.0.1:{}/'", self.port),
            format!("pid_file: {}", path("homeserver.pid")),
            // Only the client API is served: no federation listener.
            "listeners:".into(),
            format!("  - port: {}", self.port),
            "    bind_addresses: ['127.0.0.1']".into(),
            "    type: http".into(),
            "    tls: false".into(),
            "    x_forwarded: false".into(),
            "    resources:".into(),
            "      - names: [client]".into(),
            "        compress: false".into(),
            self.database_yaml(),
            format!("log_config: {}", path(LOG_CONFIG_FILE)),
            format!("media_store_path: {}", path("media_store")),
            format!("signing_key_path: {}", path(SIGNING_KEY_FILE)),
            format!("registration_shared_secret: {}", yaml_string(self.shared_secret)),
            format!("macaroon_secret_key: {}", yaml_string(self.macaroon_secret)),
            format!("form_secret: {}", yaml_string(self.form_secret)),
            "report_stats: false".into(),
            "enable_registration: false".into(),
            "enable_metrics: false".into(),
            "bcrypt_rounds: 4".into(),
            "federation_domain_whitelist: []".into(),
            "trusted_key_servers: []".into(),
            "suppress_key_server_warning: true".into(),
            "url_preview_enabled: false".into(),
            // No thumbnails made at upload (Synapse's default makes five of every picture, a third of
            // its processor time in a game played through it); made when a client asks instead.
            "thumbnail_sizes: []".into(),
            "dynamic_thumbnails: true".into(),
            // Presence and the user directory cost start-up and background work tests never use.
            "presence:".into(),
            "  enabled: false".into(),
            "user_directory:".into(),
            "  enabled: false".into(),
            // What an operator of a homeserver of bots turns off, each a cost on every event Synapse
            // persists (docs/scale.md, "A tuned Synapse"): push rules evaluated for every member and
            // the notification counts, which pile up where nobody sends read receipts (bots do not;
            // nobody here has a phone to push to) unless a test asks for them, the full-text search
            // index, the room statistics, and the federation sender (this server federates with
            // nobody, but its sender still looked up every new event's servers).
            "push:".into(),
            format!("  enabled: {}", self.push),
            "enable_search: false".into(),
            "stats:".into(),
            "  enabled: false".into(),
            "federation_sender_instances: []".into(),
            // The oldest generations of Python's garbage collector, which walk every object of
            // Synapse's caches, at most once a minute and once in ten (Synapse's default: 10 s, 30 s).
            "gc_min_interval: ['1s', '1m', '10m']".into(),
            format!("rc_message: {DEFAULT_MESSAGE_LIMIT}"),
            format!("rc_registration: {UNLIMITED}"),
            format!("rc_registration_token_validity: {UNLIMITED}"),
            "rc_login:".into(),
            format!("  address: {UNLIMITED}"),
            format!("  account: {UNLIMITED}"),
            format!("  failed_attempts: {UNLIMITED}"),
            format!("rc_admin_redaction: {UNLIMITED}"),
            "rc_joins:".into(),
            format!("  local: {UNLIMITED}"),
            format!("  remote: {UNLIMITED}"),
            format!("rc_joins_per_room: {UNLIMITED}"),
            "rc_invites:".into(),
            format!("  per_room: {UNLIMITED}"),
            format!("  per_user: {UNLIMITED}"),
            format!("  per_issuer: {UNLIMITED}"),
            format!("rc_key_requests: {UNLIMITED}"),
            format!("rc_3pid_validation: {UNLIMITED}"),
            format!("rc_third_party_invite: {UNLIMITED}"),
            format!("rc_media_create: {UNLIMITED}"),
            "rc_presence:".into(),
            format!("  per_user: {UNLIMITED}"),
            format!("rc_delayed_event_mgmt: {UNLIMITED}"),
            format!("rc_room_creation: {UNLIMITED}"),
            format!("rc_reports: {UNLIMITED}"),
            format!("rc_user_directory: {UNLIMITED}"),
            format!("rc_profile: {UNLIMITED}"),
        ];
        lines.join("\n") + "\n"
    }

    /// The `database` section.
    fn database_yaml(&self) -> String {
        match self.database {
            Database::Sqlite => {
                let file = yaml_string(&self.data_dir.join(DATABASE_FILE).to_string_lossy());
                format!("database:\n  name: sqlite3\n  args:\n    database: {file}")
            }
            Database::Postgres(pg) => [
                "database:".into(),
                "  name: psycopg2".into(),
                "  args:".into(),
                format!("    host: {}", yaml_string(&pg.host)),
                format!("    port: {}", pg.port),
                format!("    user: {}", yaml_string(&pg.user)),
                format!("    password: {}", yaml_string(&pg.password)),
                format!("    dbname: {}", yaml_string(&pg.dbname)),
                // Synapse's default pool (5 to 10 connections): a test server has one process.
                "    cp_min: 5".into(),
                "    cp_max: 10".into(),
            ]
            .join("\n"),
        }
    }

    /// The Python logging configuration: everything at INFO into `homeserver.log`.
    pub(crate) fn log_yaml(&self) -> String {
        let log = yaml_string(&self.data_dir.join(LOG_FILE).to_string_lossy());
        [
            "version: 1",
            "formatters:",
            "  precise:",
            "    format: '%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(message)s'",
            "handlers:",
            "  file:",
            "    class: logging.FileHandler",
            "    formatter: precise",
            &format!("    filename: {log}"),
            "    encoding: utf8",
            "root:",
            "  level: INFO",
            "  handlers: [file]",
            "disable_existing_loggers: false",
        ]
        .join("\n")
            + "\n"
    }
}

/// A single-quoted YAML scalar.
fn yaml_string(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A configuration on port 4321 with fixed secrets.
    fn test_config<'a>(data_dir: &'a Path, database: &'a Database) -> ServerConfig<'a> {
        ServerConfig {
            server_name: "localhost",
            port: 4321,
            data_dir,
            shared_secret: "s",
            macaroon_secret: "m",
            form_secret: "f",
            database,
            push: false,
        }
    }

    #[test]
    fn the_config_names_the_port_and_keeps_federation_off() {
        let config = test_config(Path::new("/tmp/it's here"), &Database::Sqlite);
        let yaml = config.homeserver_yaml();
        assert!(yaml.contains("  - port: 4321\n"));
        assert!(yaml.contains("database: '/tmp/it''s here/homeserver.db'"));
        assert!(yaml.contains("federation_domain_whitelist: []"));
        assert!(!yaml.contains("federation]"));
        assert!(yaml.contains("rc_message: {per_second: 0.2, burst_count: 10}\n"));
        assert!(config.log_yaml().contains("filename: '/tmp/it''s here/homeserver.log'"));
    }

    #[test]
    fn the_config_turns_off_what_a_homeserver_of_bots_does_without() {
        let config = test_config(Path::new("/tmp/here"), &Database::Sqlite);
        let yaml = config.homeserver_yaml();
        for line in [
            "push:\n  enabled: false\n",
            "enable_search: false\n",
            "stats:\n  enabled: false\n",
            "federation_sender_instances: []\n",
            "gc_min_interval: ['1s', '1m', '10m']\n",
        ] {
            assert!(yaml.contains(line), "{line:?} missing from:\n{yaml}");
        }
        // What the bot and its tests rely on stays: the default limit on sending, and no setting
        // of Synapse's about encryption or `m.mentions` is written at all.
        assert!(yaml.contains("rc_message: {per_second: 0.2, burst_count: 10}\n"));
        assert!(!yaml.contains("encryption") && !yaml.contains("mentions"), "{yaml}");
    }

    #[test]
    fn push_is_on_where_a_test_asks_for_it() {
        let config = ServerConfig { push: true, ..test_config(Path::new("/tmp/here"), &Database::Sqlite) };
        let yaml = config.homeserver_yaml();
        assert!(yaml.contains("push:\n  enabled: true\n"), "{yaml}");
        assert!(!yaml.contains("push:\n  enabled: false"), "{yaml}");
    }

    #[test]
    fn a_postgres_database_replaces_the_sqlite_file() {
        let database = Database::Postgres(crate::PostgresDatabase {
            host: "/dev/shm/pg-harness-x/data".into(),
            port: 5433,
            user: "postgres".into(),
            password: "it's secret".into(),
            dbname: "test_1".into(),
        });
        let config = test_config(Path::new("/tmp/here"), &database);
        let yaml = config.homeserver_yaml();
        assert!(
            yaml.contains("database:\n  name: psycopg2\n  args:\n    host: '/dev/shm/pg-harness-x/data'\n"),
            "{yaml}"
        );
        assert!(yaml.contains("    port: 5433\n    user: 'postgres'\n    password: 'it''s secret'\n"), "{yaml}");
        assert!(yaml.contains("    dbname: 'test_1'\n"), "{yaml}");
        assert!(!yaml.contains("sqlite3") && !yaml.contains("homeserver.db"), "{yaml}");
    }
}

//! Configuration: `capabot.toml` (optional) overridden by environment variables, with defaults that
//! work on a fresh machine (database `./capabot.db`, boards in `./boards/`).
//!
//! Environment: `CAPABOT_CONFIG` (path of the TOML file), `CAPABOT_DB`, `CAPABOT_BOARDS`,
//! `CAPABOT_PREFIX`, `CAPABOT_DEFAULT_VARIANT`, `CAPABOT_PICTURES` (`0`/`1`).

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Everything the front ends read at start-up.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// SQLite database file.
    pub db: PathBuf,
    /// Folder where the console writes board pictures.
    pub boards_dir: PathBuf,
    /// Command prefix.
    pub prefix: String,
    /// Variant when a challenge names none.
    pub default_variant: String,
    /// How long challenges stay open, in hours.
    pub challenge_expiry_hours: u32,
    /// Attach board pictures.
    pub pictures: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("capabot.db"),
            boards_dir: PathBuf::from("boards"),
            prefix: "!".into(),
            default_variant: "capatomic".into(),
            challenge_expiry_hours: 48,
            pictures: true,
        }
    }
}

impl Config {
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
        if let Some(v) = env("CAPABOT_BOARDS") {
            cfg.boards_dir = PathBuf::from(v);
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
        cfg.check()?;
        Ok(cfg)
    }

    fn parse_file(p: &Path) -> Result<Config, String> {
        let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
    }

    fn check(&self) -> Result<(), String> {
        if self.prefix.is_empty() || self.prefix.chars().count() > 3 {
            return Err(format!("prefix must be 1 to 3 characters, not '{}'", self.prefix));
        }
        if crate::rules::Variant::by_name(&self.default_variant).is_none() {
            return Err(format!("unknown default_variant '{}'", self.default_variant));
        }
        Ok(())
    }

    /// The core's settings derived from this configuration.
    pub fn bot_config(&self) -> crate::bot::BotConfig {
        crate::bot::BotConfig {
            prefix: self.prefix.clone(),
            challenge_expiry_secs: i64::from(self.challenge_expiry_hours) * 3600,
            pictures: self.pictures,
            default_variant: self.default_variant.clone(),
            ..crate::bot::BotConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_then_env() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("c.toml");
        std::fs::write(&f, "db = \"/tmp/x.db\"\nprefix = \"?\"\n").unwrap();
        let cfg = Config::load_with(Some(&f), |_| None).unwrap();
        assert_eq!(cfg.db, PathBuf::from("/tmp/x.db"));
        assert_eq!(cfg.prefix, "?");
        assert_eq!(cfg.boards_dir, PathBuf::from("boards"));
        let cfg = Config::load_with(Some(&f), |k| (k == "CAPABOT_DB").then(|| "/tmp/y.db".to_string())).unwrap();
        assert_eq!(cfg.db, PathBuf::from("/tmp/y.db"));
        std::fs::write(&f, "dbb = 1\n").unwrap();
        assert!(Config::load_with(Some(&f), |_| None).is_err());
        std::fs::write(&f, "default_variant = \"nope\"\n").unwrap();
        assert!(Config::load_with(Some(&f), |_| None).is_err());
    }

    #[test]
    fn defaults_without_file() {
        let cfg = Config::load_with(None, |_| None);
        // The test runs in the crate root, which has no capabot.toml.
        assert_eq!(cfg.unwrap().db, PathBuf::from("capabot.db"));
    }
}

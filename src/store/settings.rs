//! Per-chat settings: command prefix, default variant and default days per move.

use super::Result;
use rusqlite::{Connection, OptionalExtension, params};

/// A chat's settings; `None` means the configured default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChatSettings {
    pub prefix: Option<String>,
    pub default_variant: Option<String>,
    pub default_days: Option<u32>,
}

/// The settings of a chat (all `None` when never set).
pub fn get(conn: &Connection, platform: &str, chat_id: &str) -> Result<ChatSettings> {
    Ok(conn
        .prepare_cached(
            "SELECT prefix, default_variant, default_days FROM chat_settings WHERE platform = ?1 AND chat_id = ?2",
        )?
        .query_row(params![platform, chat_id], |r| {
            Ok(ChatSettings { prefix: r.get(0)?, default_variant: r.get(1)?, default_days: r.get(2)? })
        })
        .optional()?
        .unwrap_or_default())
}

/// Stores a chat's settings (replacing the row).
pub fn set(conn: &Connection, platform: &str, chat_id: &str, s: &ChatSettings) -> Result<()> {
    conn.execute(
        "INSERT INTO chat_settings (platform, chat_id, prefix, default_variant, default_days) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (platform, chat_id) DO UPDATE SET prefix = excluded.prefix,
           default_variant = excluded.default_variant, default_days = excluded.default_days",
        params![platform, chat_id, s.prefix, s.default_variant, s.default_days],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path().join("s.db")).unwrap();
        let c = store.conn().unwrap();
        assert_eq!(get(&c, "console", "main").unwrap(), ChatSettings::default());
        let s =
            ChatSettings { prefix: Some("?".into()), default_variant: Some("capatomic".into()), default_days: Some(3) };
        set(&c, "console", "main", &s).unwrap();
        assert_eq!(get(&c, "console", "main").unwrap(), s);
    }
}

//! Nobody can slow the bot down for everyone: per-person and per-chat rate limits on inputs, and a
//! bound on the inputs waiting for the core. A flood is answered once with "slow down", then ignored
//! while it lasts; a full queue answers "busy, try again" at once instead of making everyone wait.
//!
//! The limits are GCRA buckets from the `governor` crate, keyed by platform and person or chat.

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::bot::recent::Recent;

/// Rate limit settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitConfig {
    /// Inputs one person may send in a burst, and how many per minute after it.
    pub user_burst: u32,
    pub user_per_minute: u32,
    /// The same for one chat, everyone in it together.
    pub chat_burst: u32,
    pub chat_per_minute: u32,
    /// Inputs waiting for the core at most; beyond that, "busy".
    pub max_waiting: usize,
}

impl Default for LimitConfig {
    fn default() -> Self {
        LimitConfig { user_burst: 10, user_per_minute: 30, chat_burst: 40, chat_per_minute: 120, max_waiting: 256 }
    }
}

/// What to do with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Go,
    /// Over the limit, and not told yet: answer once.
    SlowDown,
    /// Over the limit and told already: ignore.
    Ignore,
}

/// The host's limits.
pub struct Limits {
    users: DefaultKeyedRateLimiter<String>,
    chats: DefaultKeyedRateLimiter<String>,
    /// Who was told to slow down, and when (told once per minute at most).
    told: Mutex<Recent<String, Instant>>,
    pub config: LimitConfig,
}

fn quota(burst: u32, per_minute: u32) -> Quota {
    let per_minute = NonZeroU32::new(per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN))
}

/// How long one warning lasts.
const TOLD_FOR: Duration = Duration::from_secs(60);

impl Limits {
    pub fn new(config: LimitConfig) -> Limits {
        Limits {
            users: RateLimiter::keyed(quota(config.user_burst, config.user_per_minute)),
            chats: RateLimiter::keyed(quota(config.chat_burst, config.chat_per_minute)),
            told: Mutex::new(Recent::new(10_000)),
            config,
        }
    }

    /// Checks one input of `user` in `chat` (both already prefixed with the platform).
    pub fn check(&self, user: &str, chat: &str) -> Verdict {
        let over = if self.users.check_key(&user.to_string()).is_err() {
            Some(user)
        } else if self.chats.check_key(&chat.to_string()).is_err() {
            Some(chat)
        } else {
            None
        };
        let Some(key) = over else { return Verdict::Go };
        let now = Instant::now();
        let Ok(mut told) = self.told.lock() else { return Verdict::Ignore };
        match told.get(&key.to_string()) {
            Some(at) if now.duration_since(*at) < TOLD_FOR => Verdict::Ignore,
            _ => {
                told.insert(key.to_string(), now);
                Verdict::SlowDown
            }
        }
    }

    /// Forgets buckets that are full again (memory stays bounded by the active keys).
    pub fn prune(&self) {
        self.users.retain_recent();
        self.chats.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_told_once_then_ignored_and_others_go_on() {
        let limits = Limits::new(LimitConfig { user_burst: 5, user_per_minute: 6, ..LimitConfig::default() });
        let verdicts: Vec<Verdict> = (0..200).map(|_| limits.check("d:flood", "d:main")).collect();
        assert!(verdicts[..5].iter().all(|v| *v == Verdict::Go), "{:?}", &verdicts[..6]);
        assert_eq!(verdicts.iter().filter(|v| **v == Verdict::SlowDown).count(), 1);
        assert_eq!(verdicts.iter().filter(|v| **v == Verdict::Ignore).count(), 194);
        // Someone else in another chat is not held back by the flood.
        assert_eq!(limits.check("d:calm", "d:other"), Verdict::Go);
    }

    #[test]
    fn a_busy_chat_is_limited_as_a_whole() {
        let limits = Limits::new(LimitConfig { chat_burst: 3, chat_per_minute: 3, ..LimitConfig::default() });
        let v: Vec<Verdict> = ["a", "b", "c", "d", "e"].iter().map(|u| limits.check(u, "d:room")).collect();
        assert_eq!(v, vec![Verdict::Go, Verdict::Go, Verdict::Go, Verdict::SlowDown, Verdict::Ignore]);
    }
}

//! Community and player pages kept for a moment ([`WebOptions::pages_fresh`], [`PAGES_FRESH`] by
//! default), so that a page many people ask for at once is read from the store and made once,
//! not once per reader: on PostgreSQL every statement is a round trip, and a community page is
//! about ten of them.
//!
//! A kept page is served only while all of this holds:
//! - the community still shows itself on the web: every request reads the community's setting
//!   (one statement) before a kept page is looked at, so `web:off` takes the pages down at once,
//!   from any process sharing the database, and drops the community's kept pages;
//! - it was read less than `pages_fresh` ago (counted from when its reading began);
//! - nothing was told on the host's feed ([`crate::host::changes`]) in a chat of its community
//!   since its reading began: such a word drops the community's pages at once, and a page whose
//!   reading overlapped one is not kept at all.
//!
//! The key is everything that changes a page's bytes: platform, community, player (for a player's
//! page) and the page's language (the community's own, read with the setting, else the reader's).
//! What no word of the feed announces — a change made by another process sharing the database, a
//! player's new name seen in another community, a rating turning provisional with time — is on
//! the page within `pages_fresh`.
//!
//! [`WebOptions::pages_fresh`]: super::WebOptions::pages_fresh

use crate::host::changes::{Changes, Follower, Heard};
use crate::i18n::Lang;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How long a community or player page is kept by default: a page is never more than this
/// older than the store (besides what this process's feed announces, which drops it at once).
pub const PAGES_FRESH: Duration = Duration::from_secs(2);

/// Pages kept at most (a few KB each); past that the stale ones go, then all.
const MOST_PAGES: usize = 1024;
/// Communities whose last change is remembered at most; past that all are forgotten and every
/// reading begun before is refused.
const MOST_CHANGED: usize = 4096;

/// What a kept page is found by: what changes its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct PageKey {
    pub platform: String,
    pub community: String,
    /// The player of a player's page; `None` for the community's page.
    pub player: Option<i64>,
    pub lang: Lang,
}

/// When a page's reading began: the feed's count of changes then, and the time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Began {
    seq: u64,
    at: Instant,
}

/// The pages kept, and what the feed told since.
pub(super) struct Kept {
    fresh: Duration,
    follower: Option<Follower>,
    pages: HashMap<PageKey, (Instant, String)>,
    /// Changes heard, counted.
    seq: u64,
    /// Each community's last change heard (its `seq`).
    changed: HashMap<(String, String), u64>,
    /// Readings begun before this count are never kept (the feed was missed, or `changed`
    /// forgotten).
    floor: u64,
}

impl Kept {
    /// Pages kept for `fresh` (zero: none), dropped on the words of `live`.
    pub fn new(fresh: Duration, live: Option<&Changes>) -> Kept {
        Kept {
            fresh,
            follower: live.filter(|_| !fresh.is_zero()).map(Changes::follow),
            pages: HashMap::new(),
            seq: 0,
            changed: HashMap::new(),
            floor: 0,
        }
    }

    /// Takes in every word the feed told so far: a change in a chat of a community drops that
    /// community's pages; a missed word drops them all.
    fn hear(&mut self) {
        while let Some(heard) = self.follower.as_mut().and_then(Follower::try_next) {
            match heard {
                Heard::Chat(c) => {
                    if let Some(community) = &c.community {
                        self.changed_now(&c.platform, community);
                    }
                }
                Heard::Missed => self.forget_all(),
                Heard::Closed => self.follower = None,
            }
        }
    }

    fn changed_now(&mut self, platform: &str, community: &str) {
        self.seq += 1;
        self.pages.retain(|k, _| k.platform != platform || k.community != community);
        if self.changed.len() >= MOST_CHANGED {
            self.changed.clear();
            self.floor = self.seq;
        }
        self.changed.insert((platform.to_string(), community.to_string()), self.seq);
    }

    fn forget_all(&mut self) {
        self.seq += 1;
        self.pages.clear();
        self.changed.clear();
        self.floor = self.seq;
    }

    /// The page kept under `key`, while fresh.
    pub fn get(&mut self, key: &PageKey) -> Option<String> {
        if self.fresh.is_zero() {
            return None;
        }
        self.hear();
        match self.pages.get(key) {
            Some((at, html)) if at.elapsed() < self.fresh => Some(html.clone()),
            Some(_) => {
                self.pages.remove(key);
                None
            }
            None => None,
        }
    }

    /// Marks the beginning of a page's reading.
    pub fn begin(&mut self) -> Began {
        self.hear();
        Began { seq: self.seq, at: Instant::now() }
    }

    /// Keeps the page read since `began`, unless a change of its community was heard since.
    pub fn keep(&mut self, key: PageKey, html: &str, began: Began) {
        if self.fresh.is_zero() {
            return;
        }
        self.hear();
        let changed = self.changed.get(&(key.platform.clone(), key.community.clone())).copied().unwrap_or(0);
        if began.seq < self.floor || changed > began.seq || began.at.elapsed() >= self.fresh {
            return;
        }
        if self.pages.len() >= MOST_PAGES {
            let fresh = self.fresh;
            self.pages.retain(|_, (at, _)| at.elapsed() < fresh);
            if self.pages.len() >= MOST_PAGES {
                self.pages.clear();
            }
        }
        self.pages.insert(key, (began.at, html.to_string()));
    }

    /// Drops a community's pages (it no longer shows itself), and any being read now.
    pub fn drop_community(&mut self, platform: &str, community: &str) {
        self.hear();
        if self.pages.keys().any(|k| k.platform == platform && k.community == community) {
            self.changed_now(platform, community);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(community: &str, player: Option<i64>, lang: Lang) -> PageKey {
        PageKey { platform: "discord".into(), community: community.into(), player, lang }
    }

    #[test]
    fn a_page_is_kept_until_its_community_changes_and_one_read_across_a_change_is_not_kept() {
        let changes = Changes::default();
        let mut kept = Kept::new(Duration::from_secs(60), Some(&changes));
        let (club, player, other) = (key("1", None, Lang::En), key("1", Some(7), Lang::En), key("2", None, Lang::En));
        for k in [&club, &player, &other] {
            let began = kept.begin();
            kept.keep(k.clone(), "page", began);
        }
        assert_eq!(kept.get(&club).as_deref(), Some("page"));
        assert_eq!(kept.get(&key("1", None, Lang::Tr)), None, "another language is another page");
        // A chat of no community and a chat of another platform change nothing here.
        changes.tell("discord", "dm");
        changes.tell_in("matrix", Some("1"), "room");
        assert_eq!(kept.get(&club).as_deref(), Some("page"));
        // A change in a chat of the community drops its pages, not the other community's.
        changes.tell_in("discord", Some("1"), "general");
        assert_eq!(kept.get(&club), None);
        assert_eq!(kept.get(&player), None);
        assert_eq!(kept.get(&other).as_deref(), Some("page"));
        // A page whose reading began before a change is not kept; one begun after is.
        let began = kept.begin();
        changes.tell_in("discord", Some("1"), "general");
        kept.keep(club.clone(), "old", began);
        assert_eq!(kept.get(&club), None);
        let began = kept.begin();
        kept.keep(club.clone(), "new", began);
        assert_eq!(kept.get(&club).as_deref(), Some("new"));
        // Dropped by hand (web:off), with any reading under way.
        let began = kept.begin();
        kept.drop_community("discord", "1");
        assert_eq!(kept.get(&club), None);
        kept.keep(club.clone(), "during", began);
        assert_eq!(kept.get(&club), None);
    }

    #[test]
    fn a_page_goes_stale_and_a_missed_feed_drops_everything() {
        let changes = Changes::default();
        let mut kept = Kept::new(Duration::from_millis(50), Some(&changes));
        let club = key("1", None, Lang::En);
        let began = kept.begin();
        kept.keep(club.clone(), "page", began);
        assert!(kept.get(&club).is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(kept.get(&club), None, "stale");

        let mut kept = Kept::new(Duration::from_secs(60), Some(&changes));
        let began = kept.begin();
        for i in 0..1100 {
            changes.tell_in("discord", Some(&i.to_string()), "c");
        }
        kept.keep(club.clone(), "page", began);
        assert_eq!(kept.get(&club), None, "begun before a missed word: not kept");
        let began = kept.begin();
        kept.keep(club.clone(), "page", began);
        assert!(kept.get(&club).is_some());
        for i in 0..1100 {
            changes.tell_in("discord", Some(&i.to_string()), "c");
        }
        assert_eq!(kept.get(&club), None, "a missed word drops all");

        let mut none = Kept::new(Duration::ZERO, Some(&changes));
        let began = none.begin();
        none.keep(club.clone(), "page", began);
        assert_eq!(none.get(&club), None, "zero keeps nothing");
    }
}

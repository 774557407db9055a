//! The chats where a thread is being opened: from the request that opens it until its id is
//! recorded, the chat's inputs wait.
//!
//! A game (or tournament) started in a channel that keeps a thread per game gets its thread when
//! its first message is delivered, and the core learns the thread's id only when that delivery is
//! recorded. The platform shows the thread to people as soon as it exists, before the bot hears
//! back; a move made in it at once used to be handled by a core that did not know the thread yet,
//! and its answer went to the channel instead (a flaky `game_threads_live_as_long_as_discord_allows`
//! on 2026-11-30). Holding the chat's inputs over that short window makes the order hold by
//! construction: an input is handled after every thread opened before it is recorded.
//!
//! Within one process: with several processes, the input may reach one while another delivers;
//! the window then stays (as short as the platform's answer).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// Never longer than this for one input: a platform that does not answer the opening (a request
/// that hangs until its client's timeout) must not hold the chat's people for as long.
pub const OPENING_WAIT: Duration = Duration::from_secs(5);

/// The chats (platform, chat) with threads being opened, and how many each.
#[derive(Default)]
pub struct Openings {
    chats: Mutex<HashMap<(String, String), usize>>,
    done: tokio::sync::Notify,
}

/// A thread being opened in a chat, until dropped (once the delivery that opened it is recorded,
/// or has failed).
pub struct Opening {
    openings: Arc<Openings>,
    chat: (String, String),
}

impl Openings {
    /// Marks a thread as being opened in `chat` on `platform` until the returned guard is dropped.
    pub fn begin(self: &Arc<Self>, platform: &str, chat: &str) -> Opening {
        let chat = (platform.to_string(), chat.to_string());
        *self.lock().entry(chat.clone()).or_default() += 1;
        Opening { openings: self.clone(), chat }
    }

    /// Whether a thread is being opened in `chat` on `platform` now.
    pub fn is_opening(&self, platform: &str, chat: &str) -> bool {
        self.lock().contains_key(&(platform.to_string(), chat.to_string()))
    }

    /// Waits until no thread is being opened in `chat` on `platform`, at most `bound`; returns at
    /// once when none is.
    pub async fn wait(&self, platform: &str, chat: &str, bound: Duration) {
        let until = tokio::time::Instant::now() + bound;
        loop {
            // Registered before the look, so that an end between the two is not missed.
            let done = self.done.notified();
            tokio::pin!(done);
            done.as_mut().enable();
            if !self.is_opening(platform, chat) {
                return;
            }
            if tokio::time::timeout_at(until, done).await.is_err() {
                tracing::warn!(platform, chat, "a thread's opening is still not recorded; the input goes on");
                return;
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), usize>> {
        self.chats.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Opening {
    fn drop(&mut self) {
        let mut chats = self.openings.lock();
        if let Some(n) = chats.get_mut(&self.chat) {
            *n -= 1;
            if *n == 0 {
                chats.remove(&self.chat);
            }
        }
        drop(chats);
        self.openings.done.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[tokio::test]
    async fn an_input_waits_for_the_openings_of_its_own_chat_only() {
        let openings = Arc::new(Openings::default());
        let first = openings.begin("discord", "11");
        let second = openings.begin("discord", "11");
        assert!(openings.wait("discord", "12", OPENING_WAIT).now_or_never().is_some(), "another chat goes on");
        assert!(openings.wait("matrix", "11", OPENING_WAIT).now_or_never().is_some(), "another platform too");
        let waiting = tokio::spawn({
            let openings = openings.clone();
            async move { openings.wait("discord", "11", OPENING_WAIT).await }
        });
        drop(first);
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "one opening is left");
        drop(second);
        tokio::time::timeout(Duration::from_secs(5), waiting).await.expect("woken").expect("ran");
        assert!(!openings.is_opening("discord", "11"));
    }

    #[tokio::test]
    async fn the_wait_is_bounded() {
        let openings = Arc::new(Openings::default());
        let _stuck = openings.begin("discord", "11");
        let started = std::time::Instant::now();
        let waited =
            tokio::time::timeout(Duration::from_secs(10), openings.wait("discord", "11", Duration::from_millis(100)));
        waited.await.expect("the wait ends by its bound");
        assert!(started.elapsed() >= Duration::from_millis(100), "it waited for the opening first");
    }
}

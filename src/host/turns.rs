//! One delivery turn per chat: a chat's rows go out in order, one drain of that chat at a time,
//! and no chat ever waits for another's.
//!
//! The host used to keep 256 striped locks, a chat's turn being the stripe its key hashed to. Two
//! chats on one stripe then took turns, and a drain holds its turn while it finds more rows of its
//! chat: in a busy game every move's answer was already the next row, so the other chat of the
//! stripe waited for that whole game (issue 42: the worst move of every `bench-discord` round,
//! 1.6 s and more, was a move in one of the six of fifty channels that shared a stripe).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

type Turn = Arc<tokio::sync::Mutex<()>>;

/// The chats being delivered now, each with its turn (an entry lives while someone holds or waits
/// for it).
#[derive(Default)]
pub struct ChatTurns {
    chats: Mutex<HashMap<(String, String), Turn>>,
}

/// A chat's turn, held until dropped.
pub struct ChatTurn<'a> {
    turns: &'a ChatTurns,
    chat: (String, String),
    turn: Turn,
    guard: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl ChatTurns {
    /// Waits for the turn of `key` on `platform` (behind the drains of that chat that asked
    /// first, and nobody else's).
    pub async fn take(&self, platform: &str, key: &str) -> ChatTurn<'_> {
        let chat = (platform.to_string(), key.to_string());
        let turn = self.lock().entry(chat.clone()).or_default().clone();
        let guard = turn.clone().lock_owned().await;
        ChatTurn { turns: self, chat, turn, guard: Some(guard) }
    }

    /// The turn of `key` on `platform` if nobody holds or waits for it now, without waiting.
    pub fn try_take(&self, platform: &str, key: &str) -> Option<ChatTurn<'_>> {
        let chat = (platform.to_string(), key.to_string());
        let mut chats = self.lock();
        if chats.contains_key(&chat) {
            return None;
        }
        let turn = Turn::default();
        let guard = turn.clone().try_lock_owned().ok()?;
        chats.insert(chat.clone(), turn.clone());
        Some(ChatTurn { turns: self, chat, turn, guard: Some(guard) })
    }

    /// Whether a drain of `key` on `platform` runs or waits now (it will find the chat's rows).
    pub fn is_busy(&self, platform: &str, key: &str) -> bool {
        self.lock().contains_key(&(platform.to_string(), key.to_string()))
    }

    /// How many chats have a drain or one waiting.
    pub fn busy_chats(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Turn>> {
        self.chats.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for ChatTurn<'_> {
    fn drop(&mut self) {
        self.guard = None;
        let mut chats = self.turns.lock();
        // Only the map and this turn hold it (a clone is made under the map's lock): nobody waits.
        if Arc::strong_count(&self.turn) == 2 {
            chats.remove(&self.chat);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn no_chat_waits_for_another() {
        let turns = ChatTurns::default();
        // Far more chats than the 256 stripes there were: every turn is free at once.
        let held: Vec<_> = (0..2000)
            .map(|i| turns.take("discord", &format!("c:{i}")).now_or_never().expect("another chat's turn is free"))
            .collect();
        assert_eq!(turns.busy_chats(), 2000);
        assert!(turns.take("matrix", "c:7").now_or_never().is_some(), "the same key on another platform");
        drop(held);
        assert_eq!(turns.busy_chats(), 0, "no entry outlives its turns");
    }

    #[test]
    fn a_turn_is_tried_without_waiting_and_only_when_free() {
        let turns = ChatTurns::default();
        let held = turns.try_take("discord", "c:1").expect("a free turn");
        assert!(turns.try_take("discord", "c:1").is_none(), "held");
        assert!(turns.take("discord", "c:1").now_or_never().is_none(), "held for a waiting drain too");
        assert!(turns.try_take("discord", "c:2").is_some(), "another chat's");
        drop(held);
        assert_eq!(turns.busy_chats(), 0, "no entry outlives its turns");
        let waited = turns.take("discord", "c:1").now_or_never().expect("free again");
        assert!(turns.try_take("discord", "c:1").is_none(), "taken by a drain");
        drop(waited);
        assert!(turns.try_take("discord", "c:1").is_some());
    }

    #[tokio::test]
    async fn one_chat_is_delivered_by_one_drain_at_a_time() {
        let turns = Arc::new(ChatTurns::default());
        let first = turns.take("discord", "c:1").await;
        let order = Arc::new(Mutex::new(Vec::new()));
        let waiters: Vec<_> = (0..3)
            .map(|n| {
                let (turns, order) = (turns.clone(), order.clone());
                tokio::spawn(async move {
                    let _turn = turns.take("discord", "c:1").await;
                    order.lock().unwrap().push(n);
                })
            })
            .collect();
        // Each waiter queued (tokio's lock is first come, first served) before the turn is given up.
        for _ in 0..20 {
            tokio::task::yield_now().await;
        }
        assert!(order.lock().unwrap().is_empty(), "nobody went while the turn was held");
        assert!(turns.take("discord", "c:1").now_or_never().is_none());
        drop(first);
        for w in waiters {
            w.await.unwrap();
        }
        assert_eq!(order.lock().unwrap().len(), 3);
        assert_eq!(turns.busy_chats(), 0);
    }
}

//! Messages that came before their room key. In an encrypted room a sender's device shares the key
//! of its session by to-device message, and that may reach the bot after the message it unlocks (a
//! slow federation link, a key sent again later, a session the sender's device started while the
//! bot's device list was stale). Such a message is kept here — a bounded number, for a day — and
//! decrypted again when keys of its session arrive; then it is handled like any message, so a
//! player's move is not silently lost.

use matrix_sdk::ruma::events::room::encrypted::{EncryptedEventScheme, OriginalSyncRoomEncryptedEvent};
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{OwnedRoomId, RoomId};
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many messages wait for their keys at most; the oldest give way.
pub const KEPT: usize = 1000;
/// How long a message waits for its key.
pub const KEPT_FOR: Duration = Duration::from_secs(24 * 3600);

/// A message waiting for the key of its session.
pub struct Waiting {
    pub room: OwnedRoomId,
    pub session: String,
    pub event: Raw<OriginalSyncRoomEncryptedEvent>,
    since: Instant,
}

/// The messages waiting for their keys, oldest first.
#[derive(Default)]
pub struct Undecrypted {
    waiting: Mutex<VecDeque<Waiting>>,
}

/// The Megolm session an encrypted room message needs (none for other schemes, which rooms do
/// not use).
pub fn session_of(event: &OriginalSyncRoomEncryptedEvent) -> Option<&str> {
    match &event.content.scheme {
        EncryptedEventScheme::MegolmV1AesSha2(megolm) => Some(megolm.session_id.as_str()),
        _ => None,
    }
}

impl Undecrypted {
    /// Keeps a message until keys of `session` arrive.
    pub fn keep(&self, room: &RoomId, session: &str, event: Raw<OriginalSyncRoomEncryptedEvent>) {
        self.keep_again(Waiting { room: room.to_owned(), session: session.to_string(), event, since: Instant::now() });
    }

    /// Puts back a message that the arrived keys did not unlock (keeping how long it has waited).
    pub fn keep_again(&self, waiting: Waiting) {
        let Ok(mut queue) = self.waiting.lock() else { return };
        queue.retain(|w| w.since.elapsed() < KEPT_FOR);
        if queue.len() >= KEPT {
            queue.pop_front();
        }
        queue.push_back(waiting);
    }

    /// Takes out the messages that keys of the given `(room, session)`s may unlock, or all of them
    /// when it is not known which keys came (the notices of arrived keys were missed).
    pub fn take(&self, arrived: Option<&[(OwnedRoomId, String)]>) -> Vec<Waiting> {
        let Ok(mut queue) = self.waiting.lock() else { return Vec::new() };
        let unlocks =
            |w: &Waiting| arrived.is_none_or(|keys| keys.iter().any(|(r, s)| *r == w.room && *s == w.session));
        let (taken, kept): (VecDeque<Waiting>, VecDeque<Waiting>) = queue.drain(..).partition(unlocks);
        *queue = kept;
        taken.into()
    }

    /// How many messages wait.
    pub fn len(&self) -> usize {
        self.waiting.lock().map(|q| q.len()).unwrap_or(0)
    }

    /// Whether no message waits.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(n: usize) -> Raw<OriginalSyncRoomEncryptedEvent> {
        Raw::from_json_string(format!(r#"{{"n":{n}}}"#)).unwrap()
    }

    fn room(name: &str) -> OwnedRoomId {
        format!("!{name}:example.org").try_into().unwrap()
    }

    #[test]
    fn a_key_takes_out_only_the_messages_of_its_session_and_room() {
        let waiting = Undecrypted::default();
        waiting.keep(&room("a"), "s1", event(1));
        waiting.keep(&room("a"), "s2", event(2));
        waiting.keep(&room("b"), "s1", event(3));
        let taken = waiting.take(Some(&[(room("a"), "s1".to_string())]));
        assert_eq!(taken.iter().map(|w| w.event.json().get()).collect::<Vec<_>>(), [r#"{"n":1}"#]);
        assert_eq!(waiting.len(), 2);
        assert!(waiting.take(Some(&[(room("c"), "s1".to_string())])).is_empty());
        // Keys unknown: everything is tried again, oldest first.
        let all = waiting.take(None);
        assert_eq!(all.iter().map(|w| w.session.as_str()).collect::<Vec<_>>(), ["s2", "s1"]);
        assert!(waiting.is_empty());
    }

    #[test]
    fn the_waiting_messages_are_bounded() {
        let waiting = Undecrypted::default();
        for n in 0..KEPT + 5 {
            waiting.keep(&room("a"), "s", event(n));
        }
        assert_eq!(waiting.len(), KEPT);
        let first = waiting.take(None).into_iter().next().unwrap();
        assert_eq!(first.event.json().get(), r#"{"n":5}"#, "the oldest gave way");
    }
}

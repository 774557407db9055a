//! Which chats just had something happen to a game, for readers that follow games live (the web
//! pages' event streams): the host says so as soon as the core's unit of work is committed, before
//! the replies go out, so a page does not wait for the chat platform.
//!
//! A game's changes (a move, a resignation, a timeout, a takeback) are always announced in its
//! chat, so the chat is the key: a follower of a game listens for its game's chat and then reads
//! the game's version (one indexed row) to know whether it was its game that changed. The feed
//! is a broadcast: it never blocks the host, and a follower that falls behind is told it missed
//! some ([`Missed`]) and simply looks again. Changes committed by another process sharing a
//! PostgreSQL database reach this feed through the host's listener ([`super::listen`]), as soon
//! as they are committed; on SQLite, or while that listener reconnects, they never do, and
//! followers that must see them keep a slow poll beside it.
//!
//! Each word also names the chat's community, if any: the web's kept community and player pages
//! (`web::kept`) are dropped at a word from a chat of their community.

use crate::bot::Response;
use std::sync::Arc;
use tokio::sync::broadcast;

/// Changes kept for followers that are slow to read: beyond that they are told they missed some.
const BACKLOG: usize = 1024;

/// A chat where a game may have changed, and the community it is in (none for a chat of no
/// community): the pages of that community may have changed with it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChatChanged {
    pub platform: String,
    pub community: Option<String>,
    pub chat: String,
}

/// What the feed carries: a chat, or word that some may have been missed.
#[derive(Clone, Debug)]
enum Word {
    Chat(Arc<ChatChanged>),
    Missed,
}

/// The feed of changed chats. Cheap to clone (one sender).
#[derive(Clone, Debug)]
pub struct Changes {
    tx: broadcast::Sender<Word>,
}

impl Default for Changes {
    fn default() -> Self {
        Changes { tx: broadcast::channel(BACKLOG).0 }
    }
}

/// What a follower hears next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// Something happened in this chat.
    Chat(Arc<ChatChanged>),
    /// The follower fell behind and some changes were dropped: look again.
    Missed,
    /// The host is gone: nothing more will come.
    Closed,
}

/// One follower's end of the feed.
#[derive(Debug)]
pub struct Follower {
    rx: broadcast::Receiver<Word>,
}

impl Follower {
    /// Waits for the next change.
    pub async fn next(&mut self) -> Heard {
        match self.rx.recv().await {
            Ok(Word::Chat(c)) => Heard::Chat(c),
            Ok(Word::Missed) => Heard::Missed,
            Err(broadcast::error::RecvError::Lagged(_)) => Heard::Missed,
            Err(broadcast::error::RecvError::Closed) => Heard::Closed,
        }
    }

    /// The next change told already, without waiting; `None` when there is none yet.
    pub fn try_next(&mut self) -> Option<Heard> {
        match self.rx.try_recv() {
            Ok(Word::Chat(c)) => Some(Heard::Chat(c)),
            Ok(Word::Missed) => Some(Heard::Missed),
            Err(broadcast::error::TryRecvError::Empty) => None,
            Err(broadcast::error::TryRecvError::Lagged(_)) => Some(Heard::Missed),
            Err(broadcast::error::TryRecvError::Closed) => Some(Heard::Closed),
        }
    }
}

impl Changes {
    /// A new follower: it hears the changes told from now on.
    pub fn follow(&self) -> Follower {
        Follower { rx: self.tx.subscribe() }
    }

    /// Tells the followers that something happened in `platform`'s `chat`, of no community.
    pub fn tell(&self, platform: &str, chat: &str) {
        self.tell_in(platform, None, chat);
    }

    /// Tells the followers that something happened in `platform`'s `chat`, of `community`.
    pub fn tell_in(&self, platform: &str, community: Option<&str>, chat: &str) {
        if self.tx.receiver_count() > 0 {
            let changed =
                ChatChanged { platform: platform.into(), community: community.map(Into::into), chat: chat.into() };
            let _ = self.tx.send(Word::Chat(Arc::new(changed)));
        }
    }

    /// Tells the followers that changes may have gone untold (the listener for other processes'
    /// changes lost its connection for a while): each looks again, as after falling behind.
    pub fn tell_missed(&self) {
        if self.tx.receiver_count() > 0 {
            let _ = self.tx.send(Word::Missed);
        }
    }

    /// Tells the chats a committed response speaks in (each once). Direct messages are not a
    /// game's chat and are left out.
    pub fn tell_response(&self, response: &Response) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        for (platform, community, chat) in response.chats_told() {
            self.tell_in(platform, community, chat);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{Reply, Scope, Target, UserRef};

    #[tokio::test]
    async fn a_follower_hears_each_chat_of_a_response_once_and_not_direct_messages() {
        let changes = Changes::default();
        let mut f = changes.follow();
        let chat = Scope { community: Some("7".into()), ..Scope::chat("discord", "42") };
        let dm = Scope { direct: true, ..Scope::chat("discord", "dm-7") };
        let direct = Target::Direct { platform: "discord".into(), user: UserRef::new("7", "bob"), fallback: None };
        let response = Response {
            replies: vec![
                Reply::new(Target::Chat(chat.clone()), "a"),
                Reply::new(Target::Chat(chat), "b"),
                Reply::new(Target::Chat(dm), "c"),
                Reply::new(direct, "d"),
            ],
            ..Response::default()
        };
        changes.tell_response(&response);
        changes.tell("matrix", "!r:hs");
        let heard = |c: &str, g: Option<&str>, p: &str| {
            Heard::Chat(Arc::new(ChatChanged { platform: p.into(), community: g.map(Into::into), chat: c.into() }))
        };
        assert_eq!(f.try_next(), Some(heard("42", Some("7"), "discord")), "with its community");
        assert_eq!(f.next().await, heard("!r:hs", None, "matrix"), "the chat was told once, direct messages never");
        assert_eq!(f.try_next(), None, "nothing more was told");
    }

    #[tokio::test]
    async fn a_follower_that_falls_behind_is_told_it_missed_some() {
        let changes = Changes::default();
        let mut f = changes.follow();
        for i in 0..BACKLOG + 5 {
            changes.tell("discord", &i.to_string());
        }
        assert_eq!(f.next().await, Heard::Missed);
        drop(changes);
        let mut last = Heard::Missed;
        for _ in 0..BACKLOG + 1 {
            last = f.next().await;
        }
        assert_eq!(last, Heard::Closed);
    }
}

//! Room events → [`Input`]s: text messages (a mention of the bot turns the rest into a command),
//! reactions on the bot's choice prompts, and invitations (joined with back-off, then greeted).
//! Encrypted messages whose key has not come yet wait for it (see [`super::undecrypted`]).
//!
//! Each room has one worker that hands its inputs to the host in order, so two quick moves in one
//! game arrive as they were sent while other rooms go on meanwhile. The worker waits only for the
//! core's handling of an input ([`Host::handle_in_order`]), not for its delivery or the AI search
//! it starts: the room's other people are answered meanwhile. A room's queue is bounded
//! ([`super::Options::room_queue`]); an input beyond it is answered "busy".

use super::PLATFORM;
use super::mentions;
use super::outbound::MatrixFrontEnd;
use super::undecrypted;
use crate::bot::{Input, Scope, UserRef, Via};
use crate::host::Host;
use backon::{ExponentialBuilder, Retryable};
use futures_util::StreamExt;
use matrix_sdk::deserialized_responses::TimelineEventKind;
use matrix_sdk::event_handler::{Ctx, RawEvent};
use matrix_sdk::ruma::events::reaction::OriginalSyncReactionEvent;
use matrix_sdk::ruma::events::room::encrypted::OriginalSyncRoomEncryptedEvent;
use matrix_sdk::ruma::events::room::member::{MembershipState, OriginalSyncRoomMemberEvent, StrippedRoomMemberEvent};
use matrix_sdk::ruma::events::room::message::{MessageFormat, MessageType, OriginalSyncRoomMessageEvent, Relation};
use matrix_sdk::ruma::events::room::power_levels::UserPowerLevel;
use matrix_sdk::ruma::events::room::tombstone::OriginalSyncRoomTombstoneEvent;
use matrix_sdk::ruma::events::space::child::SyncSpaceChildEvent;
use matrix_sdk::ruma::events::space::parent::SyncSpaceParentEvent;
use matrix_sdk::ruma::events::{AnySyncMessageLikeEvent, AnySyncTimelineEvent, SyncMessageLikeEvent};
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{MilliSecondsSinceUnixEpoch, OwnedRoomId, OwnedUserId, RoomId, UserId, int};
use matrix_sdk::{Room, RoomState};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The shared state of the event handlers.
#[derive(Clone)]
struct Shared {
    host: Arc<Host>,
    front: Arc<MatrixFrontEnd>,
    workers: Arc<RoomWorkers<Input>>,
}

impl Shared {
    /// Queues an input behind the earlier ones of its room; one beyond the room's bound is
    /// answered "busy" instead.
    fn submit(&self, room: OwnedRoomId, input: Input) {
        if let Err(input) = self.workers.submit(room, input) {
            tracing::info!(room = %input.scope.chat, "the room's queue is full; the input is answered busy");
            let host = self.host.clone();
            tokio::spawn(async move { host.refuse_busy(&input).await });
        }
    }
}

/// What a room's worker does with each item; `false` ends the worker (the host is stopping).
type Handler<T> = Arc<dyn Fn(T) -> futures_util::future::BoxFuture<'static, bool> + Send + Sync>;

/// One worker per room that has items waiting: it hands them to the handler one at a time, in
/// order, and ends when its queue is empty, taking the queue out of the map (the next item starts a
/// new worker). A room costs nothing while nobody speaks in it: with thousands of rooms, a queue
/// and a task kept for each would grow with the rooms, not the talk.
///
/// A room's queue is a `VecDeque` grown as items come, not a tokio channel: a channel's first block
/// holds 32 items (an [`Input`] is a few hundred bytes: 7.7 KB a room), allocated whatever the room
/// holds, and after a restart with a command waiting in each of thousands of rooms every room had
/// one at once (issue 45).
struct RoomWorkers<T> {
    queues: Mutex<HashMap<OwnedRoomId, VecDeque<T>>>,
    /// Items waiting in one room at most (besides the one being handled).
    bound: usize,
    handle: Handler<T>,
}

impl<T: Send + 'static> RoomWorkers<T> {
    fn new(bound: usize, handle: Handler<T>) -> Arc<RoomWorkers<T>> {
        Arc::new(RoomWorkers { queues: Mutex::default(), bound: bound.max(1), handle })
    }

    /// Queues `item` behind the room's earlier ones; gives it back when the room's queue is full.
    fn submit(self: &Arc<Self>, room: OwnedRoomId, item: T) -> Result<(), T> {
        let Ok(mut queues) = self.queues.lock() else { return Ok(()) };
        match queues.get_mut(&room) {
            // The room's worker runs: it takes the item from its queue (under this lock).
            Some(queue) if queue.len() >= self.bound => Err(item),
            Some(queue) => {
                queue.push_back(item);
                Ok(())
            }
            None => {
                // No worker: one is started with the item, and its queue (empty) marks it running.
                queues.insert(room.clone(), VecDeque::new());
                tokio::spawn(self.clone().work(room, item));
                Ok(())
            }
        }
    }

    async fn work(self: Arc<Self>, room: OwnedRoomId, first: T) {
        let mut item = first;
        loop {
            if !(self.handle)(item).await {
                // The host is stopping: the room's queue goes with the worker.
                if let Ok(mut queues) = self.queues.lock() {
                    queues.remove(&room);
                }
                return;
            }
            // `submit` queues under this lock: an item is either seen here or given to the next
            // worker, never left in a queue nobody reads.
            let Ok(mut queues) = self.queues.lock() else { return };
            match queues.get_mut(&room).and_then(VecDeque::pop_front) {
                Some(next) => item = next,
                None => {
                    queues.remove(&room);
                    return;
                }
            }
        }
    }

    /// Rooms with a worker now.
    #[cfg(test)]
    fn rooms(&self) -> usize {
        self.queues.lock().map(|q| q.len()).unwrap_or_default()
    }
}

/// Registers the event handlers.
pub fn listen(host: Arc<Host>, front: Arc<MatrixFrontEnd>) {
    let client = front.client.clone();
    let (h, f) = (host.clone(), front.clone());
    let workers = RoomWorkers::new(
        front.options.room_queue,
        Arc::new(move |input: Input| {
            let (host, front) = (h.clone(), f.clone());
            Box::pin(async move {
                let started = std::time::Instant::now();
                let Ok(settling) = host.handle_in_order(input).await else { return false };
                tokio::spawn(async move {
                    let _ = settling.await;
                    front.record_handling(started.elapsed());
                });
                true
            })
        }),
    );
    let shared = Shared { host, front, workers };
    client.add_event_handler_context(shared.clone());
    tokio::spawn(retry_when_keys_arrive(shared));
    client.add_event_handler(on_message);
    client.add_event_handler(on_undecrypted);
    client.add_event_handler(on_reaction);
    client.add_event_handler(on_invite);
    client.add_event_handler(on_member);
    client.add_event_handler(on_tombstone);
    client.add_event_handler(
        |_: SyncSpaceChildEvent, shared: Ctx<Shared>| async move { shared.front.communities.forget() },
    );
    client.add_event_handler(|_: SyncSpaceParentEvent, shared: Ctx<Shared>| async move {
        shared.front.communities.forget()
    });
}

async fn on_invite(event: StrippedRoomMemberEvent, room: Room, shared: Ctx<Shared>) {
    if Some(event.state_key.as_ref()) != shared.front.client.user_id() || room.state() != RoomState::Invited {
        return;
    }
    answer_invitation(shared.host.clone(), shared.front.clone(), room, Some(&*event.sender)).await;
}

/// Joins `room` if the operator allows invitations by `inviter` (or to the room) and the bot is in
/// fewer rooms than its cap, or if it replaces a room the bot is in (an upgrade); declines it
/// otherwise.
pub async fn answer_invitation(host: Arc<Host>, front: Arc<MatrixFrontEnd>, room: Room, inviter: Option<&UserId>) {
    let upgrade = replaced_room(&front, room.room_id()).is_some();
    let allowed = upgrade || front.invitation_allowed(inviter, room.room_id());
    let full = !upgrade && front.client.joined_rooms().len() >= front.options.max_rooms;
    if allowed && !full {
        join_with_backoff(host, front, room);
        return;
    }
    let why = if allowed { "the bot is in as many rooms as it may be" } else { "the inviter is not allowed" };
    tracing::info!(room = %room.room_id(), inviter = ?inviter, "invitation declined: {why}");
    if let Err(e) = room.leave().await {
        tracing::info!(room = %room.room_id(), "declining the invitation failed: {e}");
    }
}

/// The joined room that `new` replaces: one whose tombstone names `new` (state only the old room's
/// moderators can set, unlike the new room's claim of a predecessor, which anyone creating a room
/// can make).
fn replaced_room(front: &MatrixFrontEnd, new: &RoomId) -> Option<OwnedRoomId> {
    let joined = front.client.joined_rooms();
    joined.into_iter().find(|r| r.successor_room().is_some_and(|s| s.room_id == new)).map(|r| r.room_id().to_owned())
}

/// A room was upgraded (`m.room.tombstone`): the bot follows it into the replacement room, as
/// clients are meant to, and the room's games go on there. When the new room cannot be joined yet
/// (it is invite-only), the invitation that follows is accepted and does the same.
async fn on_tombstone(event: OriginalSyncRoomTombstoneEvent, room: Room, shared: Ctx<Shared>) {
    if room.state() != RoomState::Joined {
        return;
    }
    shared.front.communities.forget();
    let new = event.content.replacement_room.clone();
    tracing::info!(room = %room.room_id(), %new, "the room was upgraded; following it");
    let (host, front) = (shared.host.clone(), shared.front.clone());
    let via = vec![event.sender.server_name().to_owned()];
    tokio::spawn(async move {
        if front.client.get_room(&new).is_some_and(|r| r.state() == RoomState::Joined) {
            host.chat_moved(PLATFORM, room.room_id().as_str(), new.as_str()).await;
            return;
        }
        match front.client.join_room_by_id_or_alias((&*new).into(), &via).await {
            Ok(_) => host.chat_moved(PLATFORM, room.room_id().as_str(), new.as_str()).await,
            // Invite-only: the invitation is followed when it comes (see `answer_invitation`).
            Err(e) => tracing::info!(%new, "the replacement room cannot be joined yet: {e}"),
        }
    });
}

/// Someone left or was removed: the bot leaves a room where it is alone. The bot itself kicked,
/// banned or gone: the room's games are paused and their players told (by direct message).
async fn on_member(event: OriginalSyncRoomMemberEvent, room: Room, shared: Ctx<Shared>) {
    let gone = matches!(event.content.membership, MembershipState::Leave | MembershipState::Ban);
    if gone && event.state_key == shared.front.me.user_id {
        tracing::info!(room = %room.room_id(), by = %event.sender, "no longer in the room; pausing its games");
        // It may have been a space: its rooms' communities are worked out again.
        shared.front.communities.forget();
        // Not awaited here: the notices may open direct rooms, which the sync must go on for.
        let (host, room) = (shared.host.clone(), room.room_id().to_string());
        tokio::spawn(async move { host.chat_gone(PLATFORM, &room).await });
        return;
    }
    if !gone || room.state() != RoomState::Joined {
        return;
    }
    if room.joined_members_count() <= 1 {
        tracing::info!(room = %room.room_id(), "alone in the room; leaving it");
        if let Err(e) = room.leave().await {
            tracing::info!(room = %room.room_id(), "leaving failed: {e}");
        }
    }
}

/// The waits between the tries to join a room: ten tries, the waits doubling from 100 ms up to
/// 30 s, each drawn between that and twice it (backon's jitter); none longer than before the jitter
/// (200 ms, 400 ms, … 51.2 s, about 100 s in all).
pub const JOIN_BACKOFF: ExponentialBuilder = ExponentialBuilder::new()
    .with_min_delay(Duration::from_millis(100))
    .with_max_delay(Duration::from_secs(30))
    .with_jitter()
    .with_max_times(9);

/// Joins a room, retrying with back-off ([`JOIN_BACKOFF`]: a homeserver may announce the invitation
/// before the room can be joined), then greets it; a room replacing one the bot is in (an upgrade)
/// is not greeted: the old room's games move there instead.
pub fn join_with_backoff(host: Arc<Host>, front: Arc<MatrixFrontEnd>, room: Room) {
    tokio::spawn(async move {
        let mut attempt = 0;
        let joined = (|| room.join())
            .retry(JOIN_BACKOFF)
            .notify(|e, _| {
                attempt += 1;
                tracing::info!(room = %room.room_id(), attempt, "joining failed, retrying: {e}");
            })
            .await;
        if let Err(e) = joined {
            tracing::warn!(room = %room.room_id(), "gave up joining: {e}");
            return;
        }
        match replaced_room(&front, room.room_id()) {
            Some(old) => host.chat_moved(PLATFORM, old.as_str(), room.room_id().as_str()).await,
            // Nobody reads a space's timeline.
            None if room.is_space() => {}
            None => front.greet(&room).await,
        }
    });
}

async fn on_message(event: OriginalSyncRoomMessageEvent, room: Room, shared: Ctx<Shared>) {
    message(event, room, &shared).await
}

/// An encrypted message the sync could not decrypt (its key has not come): it waits for the key,
/// unless it is the bot's own or from before the bot joined.
async fn on_undecrypted(event: OriginalSyncRoomEncryptedEvent, room: Room, raw: RawEvent, shared: Ctx<Shared>) {
    let me = &shared.front.me.user_id;
    if event.sender == *me || !after_joining(&room, me, event.origin_server_ts).await {
        return;
    }
    let Some(session) = undecrypted::session_of(&event) else { return };
    tracing::info!(room = %room.room_id(), event = %event.event_id, "a message waits for its key");
    shared.front.undecrypted.keep(room.room_id(), session, Raw::from_json(raw.0.clone()));
}

/// Tries the messages that wait for their keys again whenever keys arrive, and handles those that
/// now decrypt like any other.
async fn retry_when_keys_arrive(shared: Shared) {
    let Some(keys) = shared.front.client.encryption().room_keys_received_stream().await else { return };
    let mut keys = std::pin::pin!(keys);
    let stop = shared.host.stopping();
    loop {
        let update = tokio::select! {
            _ = stop.cancelled() => return,
            update = keys.next() => update,
        };
        let Some(update) = update else { return };
        // A missed notice (the stream lagged): every waiting message is tried.
        let arrived: Option<Vec<(OwnedRoomId, String)>> =
            update.ok().map(|keys| keys.into_iter().map(|k| (k.room_id, k.session_id)).collect());
        for waiting in shared.front.undecrypted.take(arrived.as_deref()) {
            let Some(room) = shared.front.client.get_room(&waiting.room) else { continue };
            match room.decrypt_event(&waiting.event, None).await {
                Ok(event) if !matches!(event.kind, TimelineEventKind::UnableToDecrypt { .. }) => {
                    tracing::info!(room = %room.room_id(), "a message decrypted with a key that came late");
                    handle_decrypted(event.into_raw(), room, &shared).await;
                }
                _ => shared.front.undecrypted.keep_again(waiting),
            }
        }
    }
}

/// A message decrypted late, handled as if the sync had brought it decrypted.
async fn handle_decrypted(raw: Raw<AnySyncTimelineEvent>, room: Room, shared: &Shared) {
    match raw.deserialize() {
        Ok(AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
            SyncMessageLikeEvent::Original(event),
        ))) => message(event, room, shared).await,
        Ok(AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::Reaction(SyncMessageLikeEvent::Original(
            event,
        )))) => reaction(event, room, shared).await,
        Ok(_) => {}
        Err(e) => tracing::info!(room = %room.room_id(), "a late-decrypted event does not parse: {e}"),
    }
}

async fn message(event: OriginalSyncRoomMessageEvent, room: Room, shared: &Shared) {
    let me = shared.front.me.clone();
    if event.sender == me.user_id {
        return;
    }
    if !after_joining(&room, &me.user_id, event.origin_server_ts).await {
        tracing::debug!(room = %room.room_id(), "a message from before the bot joined; not answered");
        return;
    }
    let MessageType::Text(text) = &event.content.msgtype else { return };
    let (thread, reply) = match &event.content.relates_to {
        Some(Relation::Thread(t)) => (Some(t.event_id.to_string()), false),
        Some(Relation::Replacement(_)) => return,
        Some(Relation::Reply(_)) => (None, true),
        _ => (None, false),
    };
    let html = text.formatted.as_ref().filter(|f| f.format == MessageFormat::Html).map(|f| f.body.as_str());
    let said = mentions::said(&text.body, html);
    let (addressed, rest) = strip_address(&said, &me);
    let command_text = if addressed { rest } else { said.as_str() };
    let mut hinted = Vec::new();
    // The address is no mention (`capabot: challenge @capabot` still names the bot).
    let hints = event.content.mentions.iter().flat_map(|m| m.user_ids.iter());
    for id in hints.filter(|id| !addressed || **id != me.user_id) {
        hinted.push((id.clone(), user_ref(&room, id).await.name));
    }
    let mentioned = mentions::mentioned(command_text, &hinted, reply);
    let mut mentions = Vec::new();
    for id in &mentioned {
        mentions.push(user_ref(&room, id).await);
    }
    let (scope, author) = (scope(&shared.front, &room, thread).await, user_ref(&room, &event.sender).await);
    // Addressed by name or pill in the room: everyone there read it (`Via::Addressed`).
    let input =
        if addressed { Input::addressed(scope, author, rest) } else { Input::text(scope, author, said.clone()) };
    let admin = is_admin(&shared.front, &room, input.scope.community.as_deref(), &event.sender).await;
    let mut input = input.with_mentions(mentions).with_event_id(event.event_id.to_string()).as_admin(admin);
    if input.scope.direct {
        input.scope.community = None;
    }
    shared.submit(room.room_id().to_owned(), input);
}

async fn on_reaction(event: OriginalSyncReactionEvent, room: Room, shared: Ctx<Shared>) {
    reaction(event, room, &shared).await
}

async fn reaction(event: OriginalSyncReactionEvent, room: Room, shared: &Shared) {
    if event.sender == shared.front.me.user_id {
        return;
    }
    let relates = &event.content.relates_to;
    if !shared.front.knows_prompt(&relates.event_id) {
        // A message from before a restart: its prompt is in its content.
        shared.front.load_prompt(&room, &relates.event_id).await;
    }
    let Some(choice) = shared.front.prompted_choice(&relates.event_id, &relates.key) else { return };
    if choice.for_user.as_ref().is_some_and(|u| u.id != event.sender.as_str()) {
        tracing::debug!(sender = %event.sender, "a reaction by someone the choice is not for; ignored");
        return;
    }
    let thread = shared.front.prompt_thread(&relates.event_id);
    let scope = scope(&shared.front, &room, thread).await;
    let admin = is_admin(&shared.front, &room, scope.community.as_deref(), &event.sender).await;
    let mut input = Input::command(scope, user_ref(&room, &event.sender).await, choice.command)
        .with_event_id(event.event_id.to_string())
        .via(Via::Reaction)
        .as_admin(admin);
    if input.scope.direct {
        input.scope.community = None;
    }
    shared.submit(room.room_id().to_owned(), input);
}

/// The bot as others address it.
#[derive(Clone, Debug)]
pub struct Me {
    pub user_id: OwnedUserId,
    pub display_name: Option<String>,
}

/// Whether `body` starts by addressing the bot (`capabot: help`, `@capabot:hs help`), and the rest:
/// by its Matrix id, the id's local part, or its display name ([`bot::strip_address`]).
pub fn strip_address<'a>(body: &'a str, me: &Me) -> (bool, &'a str) {
    let mut names = vec![me.user_id.as_str(), me.user_id.localpart()];
    names.extend(me.display_name.as_deref());
    match crate::bot::strip_address(body, &names) {
        Some(rest) => (true, rest),
        None => (false, body),
    }
}

/// Where a message was said: its room (and thread), and the room's community — its space, else
/// the room (see [`super::community`]); a direct room has none.
async fn scope(front: &MatrixFrontEnd, room: &Room, thread: Option<String>) -> Scope {
    let room_id = room.room_id().to_string();
    let direct = room.is_direct().await.unwrap_or(false);
    let community = if direct { None } else { Some(front.communities.of(&front.client, room).await) };
    Scope { platform: PLATFORM.to_string(), community, chat: room_id, thread, direct, ..Scope::default() }
}

async fn user_ref(room: &Room, id: &UserId) -> UserRef {
    // Members are lazy-loaded (see `sync_filter`): a sender's membership comes with its event, but
    // someone only mentioned may be unknown yet, and then the room's member list is fetched once.
    let member = match room.get_member_no_sync(id).await {
        Ok(None) => room.get_member(id).await,
        known => known,
    };
    let name = match member {
        Ok(Some(m)) => m.display_name().map(str::to_string),
        _ => None,
    };
    UserRef::new(id.as_str(), mentions::clean_name(name.as_deref().unwrap_or(""), id.localpart()))
}

/// Whether an event sent at `at` came after the bot's latest join of `room` (history from before
/// it joined, or from while it was away after a kick, is not answered).
async fn after_joining(room: &Room, me: &UserId, at: MilliSecondsSinceUnixEpoch) -> bool {
    match room.get_member_no_sync(me).await {
        Ok(Some(member)) => member.event().origin_server_ts().is_none_or(|joined| at >= joined),
        _ => true,
    }
}

/// Whether `id` administers the community of `room`: power level 50 or more in its space, else
/// (a room outside any space is its own community) in the room. A moderator of one room of a space
/// does not change the whole space's settings, ladders and tournaments.
async fn is_admin(front: &MatrixFrontEnd, room: &Room, community: Option<&str>, id: &UserId) -> bool {
    let space = community
        .and_then(|c| RoomId::parse(c).ok())
        .filter(|c| c != room.room_id())
        .and_then(|c| front.client.get_room(&c))
        .filter(|r| r.is_space());
    power_of_50(space.as_ref().unwrap_or(room), id).await
}

/// Power level 50 or more in `room`.
async fn power_of_50(room: &Room, id: &UserId) -> bool {
    match room.power_levels().await {
        Ok(levels) => match levels.for_user(id) {
            UserPowerLevel::Infinite => true,
            UserPowerLevel::Int(level) => level >= int!(50),
            _ => false,
        },
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn me() -> Me {
        Me { user_id: "@capabot:example.org".try_into().unwrap(), display_name: Some("Capa Bot".into()) }
    }

    /// Waits (at most 10 s) until `done` holds.
    async fn until(done: impl Fn() -> bool) {
        for _ in 0..1000 {
            if done() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("not done within 10 s");
    }

    #[tokio::test]
    async fn a_rooms_worker_keeps_its_order_turns_away_beyond_the_bound_and_ends_when_idle() {
        let seen: Arc<Mutex<Vec<(char, u32)>>> = Arc::default();
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let (s, g) = (seen.clone(), gate.clone());
        let workers = RoomWorkers::new(
            1,
            Arc::new(move |item: (char, u32)| {
                let (seen, gate) = (s.clone(), g.clone());
                Box::pin(async move {
                    seen.lock().unwrap().push(item);
                    gate.acquire().await.unwrap().forget();
                    true
                })
            }),
        );
        let (a, b): (OwnedRoomId, OwnedRoomId) = ("!a:x".try_into().unwrap(), "!b:x".try_into().unwrap());
        workers.submit(a.clone(), ('a', 1)).unwrap();
        workers.submit(b.clone(), ('b', 1)).unwrap();
        until(|| seen.lock().unwrap().len() == 2).await;
        // The items being handled are out of their queues: a room with nothing waiting holds no
        // queue's memory (a tokio channel's first block held 32 items whatever waited).
        assert_eq!(workers.queues.lock().unwrap().get(&b).map(VecDeque::capacity), Some(0));
        // Room a's worker is busy with its first item: one more waits, the next is given back.
        workers.submit(a.clone(), ('a', 2)).unwrap();
        assert_eq!(workers.submit(a.clone(), ('a', 3)), Err(('a', 3)));
        assert_eq!(workers.rooms(), 2);
        gate.add_permits(3);
        until(|| workers.rooms() == 0).await;
        let of_a: Vec<u32> = seen.lock().unwrap().iter().filter(|(r, _)| *r == 'a').map(|(_, n)| *n).collect();
        assert_eq!(of_a, [1, 2]);
        // An idle room gets a new worker for its next item.
        gate.add_permits(1);
        workers.submit(a, ('a', 4)).unwrap();
        until(|| workers.rooms() == 0).await;
        assert_eq!(seen.lock().unwrap().last(), Some(&('a', 4)));
        assert_eq!(seen.lock().unwrap().len(), 4);
    }

    #[test]
    fn an_address_to_the_bot_is_stripped() {
        assert_eq!(strip_address("capabot: help", &me()), (true, "help"));
        assert_eq!(strip_address("@capabot:example.org challenge @a:b", &me()), (true, "challenge @a:b"));
        assert_eq!(strip_address("Capa Bot, games", &me()), (true, "games"));
        assert_eq!(strip_address("capabotx help", &me()), (false, "capabotx help"));
        assert_eq!(strip_address("e2e4", &me()), (false, "e2e4"));
    }
}

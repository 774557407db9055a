//! The community of a Matrix room: the space it belongs to, so that ladders, ratings and community
//! settings span the rooms of one space; else the room itself (the first room of its upgrade
//! chain, so that an upgraded room keeps its ladders and settings).
//!
//! A room belongs to a space the bot is in when the space lists it (`m.space.child` with `via`),
//! or when the room names the space as its parent (`m.space.parent` with `via`) and the space
//! confirms it: it lists the room, or the parent event's sender may list rooms there (the spec's
//! rule for trusting a parent). Several spaces: a canonical parent first, then the lowest room id,
//! as the spec asks of clients. The answer is cached per room and forgotten when the space
//! relations change.

use matrix_sdk::deserialized_responses::SyncOrStrippedState;
use matrix_sdk::ruma::events::space::child::SpaceChildEventContent;
use matrix_sdk::ruma::events::space::parent::SpaceParentEventContent;
use matrix_sdk::ruma::events::{StateEventType, SyncStateEvent};
use matrix_sdk::ruma::{OwnedRoomId, RoomId, UserId};
use matrix_sdk::{Client, Room, RoomState};
use std::collections::HashMap;
use std::sync::Mutex;

/// Upgrades followed back at most (a chain longer than this is cut there).
const MAX_UPGRADES: usize = 32;

/// Rooms' communities, computed once per room until a space relation changes.
#[derive(Default)]
pub struct Communities {
    known: Mutex<HashMap<OwnedRoomId, String>>,
}

impl Communities {
    /// The community of `room` (a joined, non-direct room).
    pub async fn of(&self, client: &Client, room: &Room) -> String {
        if let Some(known) = self.known.lock().ok().and_then(|m| m.get(room.room_id()).cloned()) {
            return known;
        }
        let community = match space_of(client, room).await {
            Some(space) => space.to_string(),
            None => first_room(client, room.room_id()).to_string(),
        };
        if let Ok(mut m) = self.known.lock() {
            m.insert(room.room_id().to_owned(), community.clone());
        }
        community
    }

    /// Forgets every room's community (a space relation changed, or the bot joined a space).
    pub fn forget(&self) {
        if let Ok(mut m) = self.known.lock() {
            m.clear();
        }
    }
}

/// The space `room` belongs to, if the bot is in one that claims it.
async fn space_of(client: &Client, room: &Room) -> Option<OwnedRoomId> {
    // (canonical, id): the best is canonical, then the lowest id.
    let mut best: Option<(bool, OwnedRoomId)> = None;
    let mut consider = |canonical: bool, id: OwnedRoomId| {
        let better = match &best {
            None => true,
            Some((c, b)) => (canonical && !c) || (canonical == *c && id < *b),
        };
        if better {
            best = Some((canonical, id));
        }
    };
    for event in room.get_state_events_static::<SpaceParentEventContent>().await.unwrap_or_default() {
        let Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(parent))) = event.deserialize() else { continue };
        if parent.content.via.is_empty() {
            continue;
        }
        let Some(space) = joined_space(client, &parent.state_key) else { continue };
        if lists(&space, room.room_id()).await || may_list(&space, &parent.sender).await {
            consider(parent.content.canonical, parent.state_key);
        }
    }
    for space in client.joined_rooms().into_iter().filter(|r| r.is_space()) {
        if lists(&space, room.room_id()).await {
            consider(false, space.room_id().to_owned());
        }
    }
    best.map(|(_, id)| id)
}

/// The space `id`, if the bot is in it.
fn joined_space(client: &Client, id: &RoomId) -> Option<Room> {
    client.get_room(id).filter(|r| r.state() == RoomState::Joined && r.is_space())
}

/// Whether `space` lists `child` (an `m.space.child` with `via`).
async fn lists(space: &Room, child: &RoomId) -> bool {
    let Ok(Some(event)) = space.get_state_event_static_for_key::<SpaceChildEventContent, _>(child).await else {
        return false;
    };
    matches!(event.deserialize(), Ok(SyncOrStrippedState::Sync(SyncStateEvent::Original(e))) if !e.content.via.is_empty())
}

/// Whether `user` may list rooms in `space`.
async fn may_list(space: &Room, user: &UserId) -> bool {
    matches!(space.get_member(user).await, Ok(Some(m)) if m.can_send_state(StateEventType::SpaceChild))
}

/// The first room of the upgrade chain that ends in `room`: each step back is to a predecessor
/// (named by the room's creation) whose tombstone names the room in turn, so a room that merely
/// claims a predecessor does not join its community.
fn first_room(client: &Client, room: &RoomId) -> OwnedRoomId {
    let mut id = room.to_owned();
    for _ in 0..MAX_UPGRADES {
        let Some(predecessor) = client.get_room(&id).and_then(|r| r.predecessor_room()) else { break };
        let Some(old) = client.get_room(&predecessor.room_id) else { break };
        if old.successor_room().is_none_or(|s| s.room_id != id) {
            break;
        }
        id = predecessor.room_id;
    }
    id
}

//! What capabot knows of its servers, kept small. serenity's cache keeps each guild whole: with
//! three channels, three roles and the bot's own member it took about 6.5 KB a guild (its
//! `Guild` is 968 bytes, a `GuildChannel` 400 and a `Member` 536, in hash maps of at least four
//! slots). capabot reads only its own permissions in a channel, a member's permissions from their
//! roles, which channels are threads (and their parent) and the server's language, so serenity
//! caches no guilds ([`cache_settings`]) and [`Guilds`] keeps those facts, from the gateway's
//! guild, role, channel, thread and member events: a few hundred bytes a guild.
//!
//! serenity applies events to its own cache in the order Discord sent them, but runs event
//! handlers as tasks of their own, so two events of one guild that come together may be applied
//! here in either order; a channel or role updated twice within the same instant may keep the
//! older state until its next update. The permissions read here only decide whether to try a post
//! (Discord's 403 is handled the same way), so that window costs at most one refused post.

use serenity::all::{
    ChannelType, Guild, GuildChannel, GuildId, PartialGuild, PermissionOverwriteType, Permissions, Role, RoleId, UserId,
};
use std::collections::HashMap;
use std::sync::RwLock;

/// serenity's cache settings: no guilds, channels, users or messages (the facts capabot reads are
/// in [`Guilds`]); the current user is kept whatever the settings.
pub fn cache_settings() -> serenity::cache::Settings {
    let mut settings = serenity::cache::Settings::default();
    settings.max_messages = 0;
    settings.cache_guilds = false;
    settings.cache_channels = false;
    settings.cache_users = false;
    settings
}

/// The facts of every guild the bot is in, by guild id.
#[derive(Default)]
pub struct Guilds {
    map: RwLock<HashMap<u64, Box<GuildFacts>>>,
}

/// One guild's facts.
#[derive(Debug, PartialEq, Eq)]
struct GuildFacts {
    owner: u64,
    /// The server's language (`preferred_locale`).
    locale: Box<str>,
    /// Each role's permissions, by role id, sorted; `@everyone` has the guild's id.
    roles: Vec<(u64, u64)>,
    /// The bot's own roles; `None` when the guild was sent without the bot's member.
    my_roles: Option<Box<[u64]>>,
    /// Channels that are not threads, sorted by id, with their permission overwrites.
    channels: Vec<(u64, Box<[Overwrite]>)>,
    /// Threads known (active when the guild came, or created or updated since): (thread, parent).
    threads: Vec<(u64, u64)>,
}

/// A channel's permission overwrite for a role or a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Overwrite {
    role: bool,
    id: u64,
    allow: u64,
    deny: u64,
}

fn is_thread(kind: ChannelType) -> bool {
    matches!(kind, ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread)
}

fn overwrites(channel: &GuildChannel) -> Box<[Overwrite]> {
    let overwrites = channel.permission_overwrites.iter().filter_map(|o| {
        let (role, id) = match o.kind {
            PermissionOverwriteType::Role(id) => (true, id.get()),
            PermissionOverwriteType::Member(id) => (false, id.get()),
            _ => return None,
        };
        Some(Overwrite { role, id, allow: o.allow.bits(), deny: o.deny.bits() })
    });
    overwrites.collect()
}

fn role_list<'a>(roles: impl Iterator<Item = &'a Role>) -> Vec<(u64, u64)> {
    let mut roles: Vec<(u64, u64)> = roles.map(|r| (r.id.get(), r.permissions.bits())).collect();
    roles.sort_unstable();
    roles
}

/// Inserts or replaces `(key, value)` in a vector sorted by key.
fn upsert<V>(list: &mut Vec<(u64, V)>, key: u64, value: V) {
    match list.binary_search_by_key(&key, |(k, _)| *k) {
        Ok(i) => list[i].1 = value,
        Err(i) => list.insert(i, (key, value)),
    }
}

fn remove<V>(list: &mut Vec<(u64, V)>, key: u64) {
    if let Ok(i) = list.binary_search_by_key(&key, |(k, _)| *k) {
        list.remove(i);
    }
}

impl GuildFacts {
    fn of(guild: &Guild, me: UserId) -> GuildFacts {
        let mut channels: Vec<(u64, Box<[Overwrite]>)> =
            guild.channels.values().filter(|c| !is_thread(c.kind)).map(|c| (c.id.get(), overwrites(c))).collect();
        channels.sort_unstable_by_key(|(id, _)| *id);
        let threads = guild.threads.iter().map(|t| (t.id.get(), t.parent_id.map_or(0, |p| p.get()))).collect();
        GuildFacts {
            owner: guild.owner_id.get(),
            locale: guild.preferred_locale.as_str().into(),
            roles: role_list(guild.roles.values()),
            my_roles: guild.members.get(&me).map(|m| m.roles.iter().map(|r| r.get()).collect()),
            channels,
            threads,
        }
    }

    /// Discord's permission rules (developer docs, "Permissions"), as serenity's
    /// `Guild::user_permissions_in` applies them: the owner has all; then `@everyone` and the
    /// member's roles, all with Administrator; then the channel's overwrites for `@everyone`, the
    /// member's roles (denials, then allowances) and the member.
    fn permissions(&self, guild: u64, user: u64, roles: &[u64], channel: Option<&[Overwrite]>) -> Permissions {
        if user == self.owner {
            return Permissions::all();
        }
        let role = |id: u64| self.roles.binary_search_by_key(&id, |(r, _)| *r).ok().map_or(0, |i| self.roles[i].1);
        let mut bits = role(guild);
        for r in roles {
            bits |= role(*r);
        }
        if bits & Permissions::ADMINISTRATOR.bits() != 0 {
            return Permissions::all();
        }
        if let Some(overwrites) = channel {
            let mut everyone = (0, 0);
            let (mut role_allow, mut role_deny) = (0, 0);
            let mut member = (0, 0);
            for o in overwrites {
                if !o.role {
                    if o.id == user {
                        member = (o.allow, o.deny);
                    }
                } else if o.id == guild {
                    everyone = (o.allow, o.deny);
                } else if roles.contains(&o.id) {
                    role_allow |= o.allow;
                    role_deny |= o.deny;
                }
            }
            bits = (bits & !everyone.1) | everyone.0;
            bits = (bits & !role_deny) | role_allow;
            bits = (bits & !member.1) | member.0;
        }
        Permissions::from_bits_truncate(bits)
    }
}

impl Guilds {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<u64, Box<GuildFacts>>> {
        self.map.read().unwrap_or_else(|p| p.into_inner())
    }

    /// Changes a known guild's facts (events of guilds not known are ignored, as serenity's cache
    /// ignores them).
    fn change(&self, guild: GuildId, f: impl FnOnce(&mut GuildFacts)) {
        let mut map = self.map.write().unwrap_or_else(|p| p.into_inner());
        if let Some(facts) = map.get_mut(&guild.get()) {
            f(facts);
        }
    }

    /// GUILD_CREATE: the guild whole (`me`: the bot, whose member carries its roles).
    pub fn create(&self, guild: &Guild, me: UserId) {
        let facts = Box::new(GuildFacts::of(guild, me));
        self.map.write().unwrap_or_else(|p| p.into_inner()).insert(guild.id.get(), facts);
    }

    /// GUILD_UPDATE: the owner, the language and the roles.
    pub fn update(&self, guild: &PartialGuild) {
        self.change(guild.id, |facts| {
            facts.owner = guild.owner_id.get();
            facts.locale = guild.preferred_locale.as_str().into();
            facts.roles = role_list(guild.roles.values());
        });
    }

    /// GUILD_DELETE (left, or unavailable until its next GUILD_CREATE).
    pub fn delete(&self, guild: GuildId) {
        self.map.write().unwrap_or_else(|p| p.into_inner()).remove(&guild.get());
    }

    /// GUILD_ROLE_CREATE and GUILD_ROLE_UPDATE.
    pub fn role(&self, role: &Role) {
        self.change(role.guild_id, |facts| upsert(&mut facts.roles, role.id.get(), role.permissions.bits()));
    }

    /// GUILD_ROLE_DELETE.
    pub fn role_deleted(&self, guild: GuildId, role: RoleId) {
        self.change(guild, |facts| remove(&mut facts.roles, role.get()));
    }

    /// CHANNEL_CREATE, CHANNEL_UPDATE, THREAD_CREATE and THREAD_UPDATE.
    pub fn channel(&self, channel: &GuildChannel) {
        self.change(channel.guild_id, |facts| {
            if is_thread(channel.kind) {
                upsert(&mut facts.threads, channel.id.get(), channel.parent_id.map_or(0, |p| p.get()));
            } else {
                upsert(&mut facts.channels, channel.id.get(), overwrites(channel));
            }
        });
    }

    /// CHANNEL_DELETE and THREAD_DELETE.
    pub fn channel_deleted(&self, guild: GuildId, channel: u64) {
        self.change(guild, |facts| {
            remove(&mut facts.channels, channel);
            remove(&mut facts.threads, channel);
        });
    }

    /// GUILD_MEMBER_UPDATE of the bot itself: its roles.
    pub fn my_roles(&self, guild: GuildId, roles: &[RoleId]) {
        self.change(guild, |facts| facts.my_roles = Some(roles.iter().map(|r| r.get()).collect()));
    }

    /// The bot's permissions in a guild channel (not a thread); `None` when the guild, the
    /// channel or the bot's roles there are not known.
    pub fn in_channel(&self, guild: GuildId, channel: u64, me: UserId) -> Option<Permissions> {
        let map = self.read();
        let facts = map.get(&guild.get())?;
        let i = facts.channels.binary_search_by_key(&channel, |(id, _)| *id).ok()?;
        let roles = facts.my_roles.as_deref()?;
        Some(facts.permissions(guild.get(), me.get(), roles, Some(&facts.channels[i].1)))
    }

    /// A member's permissions in the guild from their roles (no channel's overwrites), `None`
    /// when the guild is not known.
    pub fn member_permissions(&self, guild: GuildId, user: UserId, roles: &[RoleId]) -> Option<Permissions> {
        let roles: Vec<u64> = roles.iter().map(|r| r.get()).collect();
        self.read().get(&guild.get()).map(|facts| facts.permissions(guild.get(), user.get(), &roles, None))
    }

    /// The guild's language and, when `channel` is a thread known there, its parent (`Some(None)`
    /// for a thread without one); `None` when the guild is not known.
    pub fn locale_and_thread(&self, guild: GuildId, channel: u64) -> Option<(String, Option<Option<u64>>)> {
        let map = self.read();
        let facts = map.get(&guild.get())?;
        let thread = facts.threads.binary_search_by_key(&channel, |(id, _)| *id).ok();
        let parent = thread.map(|i| Some(facts.threads[i].1).filter(|p| *p != 0));
        Some((facts.locale.to_string(), parent))
    }

    /// How many guilds are known.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether no guild is known.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    use serde_json::{Value, json};

    const ME: u64 = 1000;

    /// A guild as GUILD_CREATE carries it, with random roles, channels and overwrites.
    fn random_guild(rng: &mut StdRng, id: u64) -> Value {
        let bits = |rng: &mut StdRng| {
            // Administrator (bit 3) now and then; otherwise a random mix of the low 42 bits.
            let admin = if rng.random_range(0..8) == 0 { 1u64 << 3 } else { 0 };
            (rng.random::<u64>() & ((1 << 42) - 1) & !(1 << 3)) | admin
        };
        let roles: Vec<Value> = (0..rng.random_range(1..6u64))
            .map(|r| {
                let role_id = if r == 0 { id } else { id + r };
                json!({ "id": role_id.to_string(), "name": format!("r{r}"), "color": 0, "hoist": false,
                        "position": r, "permissions": bits(rng).to_string(), "managed": false,
                        "mentionable": false, "flags": 0, "icon": null, "unicode_emoji": null,
                        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null } })
            })
            .collect();
        let role_ids: Vec<u64> = roles.iter().map(|r| r["id"].as_str().unwrap().parse().unwrap()).collect();
        let people = [ME, 2000, 3000];
        let channels: Vec<Value> = (0..rng.random_range(1..5u64))
            .map(|c| {
                let overwrites: Vec<Value> = (0..rng.random_range(0..4))
                    .map(|_| {
                        let role = rng.random_range(0..2) == 0;
                        let target = if role {
                            role_ids[rng.random_range(0..role_ids.len())]
                        } else {
                            people[rng.random_range(0..people.len())]
                        };
                        json!({ "id": target.to_string(), "type": if role { 0 } else { 1 },
                                "allow": bits(rng).to_string(), "deny": bits(rng).to_string() })
                    })
                    .collect();
                json!({ "id": (id + 100 + c).to_string(), "type": 0, "guild_id": id.to_string(),
                        "name": format!("c{c}"), "position": c, "permission_overwrites": overwrites,
                        "nsfw": false, "rate_limit_per_user": 0, "flags": 0, "topic": null,
                        "last_message_id": null, "parent_id": null })
            })
            .collect();
        let my_roles: Vec<String> =
            role_ids[1..].iter().filter(|_| rng.random_range(0..2) == 0).map(u64::to_string).collect();
        let owner = if rng.random_range(0..10) == 0 { ME } else { 3000 };
        let mut guild = json!({
            "id": id.to_string(), "name": "g", "owner_id": owner.to_string(), "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": roles, "emojis": [], "features": [], "mfa_level": 0, "system_channel_flags": 0,
            "premium_tier": 0, "preferred_locale": "tr", "nsfw_level": 0, "stickers": [],
            "premium_progress_bar_enabled": false, "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "large": false, "unavailable": false, "member_count": 3, "voice_states": [],
            "members": [{ "user": { "id": ME.to_string(), "username": "capabot", "discriminator": "0",
                                    "global_name": "capabot", "avatar": null, "bot": true, "flags": 0,
                                    "public_flags": 0 },
                          "roles": my_roles, "joined_at": "2024-01-01T00:00:00.000000+00:00",
                          "deaf": false, "mute": false, "flags": 0, "pending": false, "nick": null,
                          "avatar": null }],
            "channels": channels,
            "threads": [{ "id": (id + 900).to_string(), "type": 11, "guild_id": id.to_string(),
                          "parent_id": (id + 100).to_string(), "name": "t", "owner_id": ME.to_string(),
                          "thread_metadata": { "archived": false, "auto_archive_duration": 1440,
                                               "archive_timestamp": "2024-01-01T00:00:00.000000+00:00",
                                               "locked": false },
                          "flags": 0, "last_message_id": null, "rate_limit_per_user": 0, "message_count": 0,
                          "member_count": 1, "total_message_sent": 0 }],
            "presences": [], "stage_instances": [], "guild_scheduled_events": [], "soundboard_sounds": [],
        });
        // The fields that are null here, as the fake Discord sends them.
        for field in [
            "icon",
            "splash",
            "discovery_splash",
            "afk_channel_id",
            "application_id",
            "system_channel_id",
            "rules_channel_id",
            "vanity_url_code",
            "description",
            "banner",
            "public_updates_channel_id",
            "safety_alerts_channel_id",
        ] {
            guild[field] = Value::Null;
        }
        guild
    }

    /// The bot's permissions in every channel, and everyone's from their roles, are serenity's own
    /// (`Guild::user_permissions_in`, `partial_member_permissions`), on 300 random guilds.
    #[test]
    fn permissions_are_serenitys() {
        let mut rng = StdRng::seed_from_u64(45);
        let guilds = Guilds::default();
        for g in 0..300u64 {
            let id = (g + 1) << 22;
            let guild: Guild = serde_json::from_value(random_guild(&mut rng, id)).expect("a guild");
            guilds.create(&guild, UserId::new(ME));
            let me = &guild.members[&UserId::new(ME)];
            for channel in guild.channels.values() {
                let ours = guilds.in_channel(guild.id, channel.id.get(), UserId::new(ME));
                assert_eq!(ours, Some(guild.user_permissions_in(channel, me)), "guild {g} channel {}", channel.id);
            }
            for user in [ME, 3000] {
                let member: serenity::all::PartialMember =
                    serde_json::from_value(json!({ "roles": me.roles, "deaf": false, "mute": false }))
                        .expect("a partial member");
                let theirs = guild.partial_member_permissions(UserId::new(user), &member);
                assert_eq!(guilds.member_permissions(guild.id, UserId::new(user), &member.roles), Some(theirs));
            }
            let (locale, thread) = guilds.locale_and_thread(guild.id, id + 900).expect("known");
            assert_eq!((locale.as_str(), thread), ("tr", Some(Some(id + 100))));
            assert_eq!(guilds.locale_and_thread(guild.id, id + 100).map(|l| l.1), Some(None), "not a thread");
        }
        assert_eq!(guilds.len(), 300);
    }

    /// With [`cache_settings`], serenity's cache keeps nothing of a GUILD_CREATE: no guild (so no
    /// members, presences, channels or roles) and no user; the facts are here.
    #[test]
    fn serenity_caches_nothing_of_a_guild() {
        let cache = serenity::cache::Cache::new_with_settings(cache_settings());
        let id = 3 << 22;
        let mut event: serenity::all::GuildCreateEvent =
            serde_json::from_value(random_guild(&mut StdRng::seed_from_u64(1), id)).expect("a GUILD_CREATE");
        cache.update(&mut event);
        assert_eq!((cache.guild_count(), cache.guilds().len(), cache.user_count()), (0, 0, 0));
        assert!(cache.guild(GuildId::new(id)).is_none());
        assert_eq!(cache.settings().max_messages, 0);
        let guilds = Guilds::default();
        guilds.create(&event.guild, UserId::new(ME));
        assert!(guilds.locale_and_thread(GuildId::new(id), id + 100).is_some());
    }

    /// Role, channel, thread and member events change the facts as serenity's cache would have
    /// them; events of a guild not known change nothing.
    #[test]
    fn events_keep_the_facts() {
        let mut rng = StdRng::seed_from_u64(7);
        let id = 5 << 22;
        let mut value = random_guild(&mut rng, id);
        value["owner_id"] = json!("3000");
        value["roles"] = json!([value["roles"][0].clone()]);
        value["roles"][0]["permissions"] = json!("0");
        value["members"][0]["roles"] = json!([]);
        value["channels"][0]["permission_overwrites"] = json!([]);
        let guild: Guild = serde_json::from_value(value.clone()).expect("a guild");
        let guilds = Guilds::default();
        guilds.create(&guild, UserId::new(ME));
        let gid = guild.id;
        let me = UserId::new(ME);
        let channel = id + 100;
        assert_eq!(guilds.in_channel(gid, channel, me), Some(Permissions::empty()));
        // A role that may send, given to the bot.
        let mut role = value["roles"][0].clone();
        role["id"] = json!((id + 7).to_string());
        role["guild_id"] = json!(id.to_string());
        role["permissions"] = json!(Permissions::SEND_MESSAGES.bits().to_string());
        let role: Role = serde_json::from_value(role).expect("a role");
        guilds.role(&role);
        guilds.my_roles(gid, &[RoleId::new(id + 7)]);
        assert_eq!(guilds.in_channel(gid, channel, me), Some(Permissions::SEND_MESSAGES));
        // The channel now denies it to that role.
        let mut updated = value["channels"][0].clone();
        updated["permission_overwrites"] = json!([{ "id": (id + 7).to_string(), "type": 0, "allow": "0",
                                                    "deny": Permissions::SEND_MESSAGES.bits().to_string() }]);
        let updated: GuildChannel = serde_json::from_value(updated).expect("a channel");
        guilds.channel(&updated);
        assert_eq!(guilds.in_channel(gid, channel, me), Some(Permissions::empty()));
        guilds.role_deleted(gid, RoleId::new(id + 7));
        guilds.channel_deleted(gid, channel);
        assert_eq!(guilds.in_channel(gid, channel, me), None, "deleted");
        // A new thread, then its deletion.
        let mut thread = value["threads"][0].clone();
        thread["id"] = json!((id + 901).to_string());
        let thread: GuildChannel = serde_json::from_value(thread).expect("a thread");
        guilds.channel(&thread);
        assert_eq!(guilds.locale_and_thread(gid, id + 901).map(|l| l.1), Some(Some(Some(id + 100))));
        assert_eq!(guilds.in_channel(gid, id + 901, me), None, "threads have no overwrites of their own here");
        guilds.channel_deleted(gid, id + 901);
        assert_eq!(guilds.locale_and_thread(gid, id + 901).map(|l| l.1), Some(None));
        // Another guild's events do nothing; a deleted guild is not known.
        guilds.my_roles(GuildId::new(9 << 22), &[]);
        assert_eq!(guilds.len(), 1);
        guilds.delete(gid);
        assert!(guilds.is_empty() && guilds.locale_and_thread(gid, channel).is_none());
    }
}

//! The JSON objects Discord sends, shaped as in Discord's documentation (users, members, roles,
//! channels, guilds, messages, interactions), with every field serenity requires.

use serde_json::{Value, json};

use crate::config::{GuildSpec, RoleSpec};

/// Every timestamp the fake hands out; clients only parse it.
pub const TIMESTAMP: &str = "2024-01-01T00:00:00.000000+00:00";

/// The upload limit sent with interactions (Discord's default, 10 MiB).
const ATTACHMENT_SIZE_LIMIT: u64 = 10 * 1024 * 1024;

/// The `id` of a Discord object (a snowflake string) as a number.
pub fn id_of(object: &Value) -> u64 {
    object["id"].as_str().and_then(|id| id.parse().ok()).unwrap_or(0)
}

/// A snowflake from a JSON field that may be a string or a number.
pub fn snowflake(value: &Value) -> Option<u64> {
    match value {
        Value::String(text) => text.parse().ok(),
        Value::Number(number) => number.as_u64(),
        _ => None,
    }
}

pub fn user(id: u64, name: &str, bot: bool) -> Value {
    json!({
        "id": id.to_string(),
        "username": name,
        "discriminator": "0",
        "global_name": name,
        "avatar": null,
        "bot": bot,
        "flags": 0,
        "public_flags": 0,
    })
}

pub fn role(role: &RoleSpec, position: usize) -> Value {
    json!({
        "id": role.id.to_string(),
        "name": role.name,
        "color": 0,
        "colors": { "primary_color": 0, "secondary_color": null, "tertiary_color": null },
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": role.permissions.to_string(),
        "managed": false,
        "mentionable": false,
        "flags": 0,
    })
}

pub fn member(user: Value, roles: &[u64]) -> Value {
    json!({
        "user": user,
        "nick": null,
        "avatar": null,
        "roles": roles.iter().map(u64::to_string).collect::<Vec<_>>(),
        "joined_at": TIMESTAMP,
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
    })
}

pub fn text_channel(guild: u64, id: u64, name: &str, position: usize) -> Value {
    json!({
        "id": id.to_string(),
        "type": 0,
        "guild_id": guild.to_string(),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "topic": null,
        "nsfw": false,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "parent_id": null,
        "flags": 0,
    })
}

/// A public thread (type 11) under `parent`.
pub fn thread(guild: u64, parent: u64, id: u64, name: &str, owner: u64) -> Value {
    json!({
        "id": id.to_string(),
        "type": 11,
        "guild_id": guild.to_string(),
        "parent_id": parent.to_string(),
        "name": name,
        "owner_id": owner.to_string(),
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": 1440,
            "archive_timestamp": TIMESTAMP,
            "locked": false,
        },
        "total_message_sent": 0,
        "flags": 0,
    })
}

pub fn dm_channel(id: u64, recipient: Value) -> Value {
    json!({ "id": id.to_string(), "type": 1, "last_message_id": null, "recipients": [recipient] })
}

/// A group DM (type 3) among people; the bot is none of them.
pub fn group_dm(id: u64, owner: u64, recipients: Vec<Value>) -> Value {
    json!({
        "id": id.to_string(),
        "type": 3,
        "name": null,
        "icon": null,
        "owner_id": owner.to_string(),
        "last_message_id": null,
        "recipients": recipients,
    })
}

/// `app_permissions` in a DM or group DM among people, where the app was installed to a person's
/// account (Discord's documented set: Embed Links, Attach Files and Mention Everyone, what an
/// interaction's answer may carry).
pub const PRIVATE_CHANNEL_APP_PERMISSIONS: u64 = (1 << 14) | (1 << 15) | (1 << 17);

/// The guild as REST returns it (no members or channels).
/// A guild object; `locale` is its `preferred_locale` (the server's language).
pub fn guild(spec: &GuildSpec, owner: u64, locale: &str) -> Value {
    json!({
        "id": spec.id.to_string(),
        "name": spec.name,
        "icon": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": owner.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": guild_roles(spec),
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": null,
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "preferred_locale": locale,
        "public_updates_channel_id": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
    })
}

pub fn guild_roles(spec: &GuildSpec) -> Vec<Value> {
    spec.roles.iter().enumerate().map(|(position, spec)| role(spec, position)).collect()
}

pub fn guild_channels(spec: &GuildSpec) -> Vec<Value> {
    let channels = spec.channels.iter().enumerate();
    channels.map(|(position, (id, name))| text_channel(spec.id, *id, name, position)).collect()
}

/// GUILD_CREATE: the REST guild plus channels, the members sent (`member_count` counts them all,
/// and `large` says whether that count passes the IDENTIFY's `large_threshold`) and the other
/// gateway-only fields.
pub fn guild_create(
    spec: &GuildSpec,
    owner: u64,
    locale: &str,
    members: Vec<Value>,
    (member_count, large_threshold): (u64, u64),
) -> Value {
    let mut guild = guild(spec, owner, locale);
    let extra = json!({
        "joined_at": TIMESTAMP,
        "large": member_count > large_threshold,
        "unavailable": false,
        "member_count": member_count,
        "voice_states": [],
        "members": members,
        "channels": guild_channels(spec),
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    });
    merge(&mut guild, extra);
    guild
}

/// A message as Discord returns and dispatches it. `guild` is `None` in DMs.
pub fn message(id: u64, channel: u64, guild: Option<u64>, author: Value, content: &str) -> Value {
    let mut message = json!({
        "id": id.to_string(),
        "channel_id": channel.to_string(),
        "author": author,
        "content": content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
        "components": [],
    });
    if let Some(guild) = guild {
        message["guild_id"] = json!(guild.to_string());
    }
    message
}

/// The attachment object for an uploaded file.
pub fn attachment(id: u64, channel: u64, filename: &str, content_type: &str, size: usize) -> Value {
    let url = format!("https://cdn.discordapp.com/attachments/{channel}/{id}/{filename}");
    json!({
        "id": id.to_string(),
        "filename": filename,
        "content_type": content_type,
        "size": size,
        "url": url,
        "proxy_url": url,
    })
}

/// The fields shared by every interaction (`type` 2 command, 3 component, 4 autocomplete).
pub struct InteractionBase<'a> {
    pub id: u64,
    pub application_id: u64,
    pub token: &'a str,
    pub channel: &'a Value,
    pub guild: Option<u64>,
    /// The member (in a guild, with `permissions`) or user (in DMs) who acted.
    pub member: Value,
    pub user: Value,
}

pub fn interaction(base: InteractionBase<'_>, kind: u8, data: Value) -> Value {
    let mut interaction = json!({
        "id": base.id.to_string(),
        "application_id": base.application_id.to_string(),
        "type": kind,
        "data": data,
        "channel_id": base.channel["id"],
        "channel": base.channel,
        "token": base.token,
        "version": 1,
        "app_permissions": "2251799813685247",
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    });
    match base.guild {
        // In a group DM (or a DM among people) through an app installed to the acting person's
        // account: context 2, authorized by that person's installation only.
        None if base.channel["type"] == 3 => {
            let extra = json!({
                "user": base.user,
                "authorizing_integration_owners": { "1": base.user["id"] },
                "context": 2,
                "app_permissions": PRIVATE_CHANNEL_APP_PERMISSIONS.to_string(),
            });
            merge(&mut interaction, extra);
        }
        Some(guild) => {
            let extra = json!({
                "guild_id": guild.to_string(),
                "guild_locale": "en-US",
                "member": base.member,
                "authorizing_integration_owners": { "0": guild.to_string() },
                "context": 0,
            });
            merge(&mut interaction, extra);
        }
        None => {
            let extra = json!({
                "user": base.user,
                "authorizing_integration_owners": { "0": base.application_id.to_string() },
                "context": 1,
            });
            merge(&mut interaction, extra);
        }
    }
    interaction
}

/// A Discord error body, e.g. `{"message": "Unknown Message", "code": 10008}`.
pub fn error(code: u32, message: &str) -> Value {
    json!({ "message": message, "code": code })
}

/// Copies the fields of `extra` (an object) into `object`.
pub fn merge(object: &mut Value, extra: Value) {
    if let (Value::Object(object), Value::Object(extra)) = (object, extra) {
        object.extend(extra);
    }
}

//! Discord events to [`Input`]s: slash commands, autocomplete, button clicks and plain messages.
//! No game logic: each event becomes one input for [`Host::handle`], with the event's id so that the
//! core answers a redelivered event once.

use super::commands::{autocomplete_query, command_from};
use super::deliver::{Answer, CONFIRM, Pending, PendingMap, RUN};
use super::permissions;
use crate::bot::command::{self, Command, OptionKind};
use crate::bot::recent::Recent;
use crate::bot::{Input, Scope, UserRef, Via};
use crate::host::{Delivery, Host};
use crate::i18n::Lang;
use crate::tl;
use serenity::all::{
    ActionRow, ActionRowComponent, AuthorizingIntegrationOwner, AuthorizingIntegrationOwners, AutocompleteChoice,
    Builder, ButtonStyle, ChannelId, ChannelType, CommandInteraction, ComponentInteraction, ConnectionStage, Context,
    CreateActionRow, CreateAllowedMentions, CreateAutocompleteResponse, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage, EditMessage, EventHandler, Guild, GuildChannel, GuildId, GuildMemberUpdateEvent,
    Interaction, InteractionContext, InteractionId, Member, Message, MessageFlags, PartialChannel, PartialGuild,
    PartialGuildChannel, Permissions, Ready, Role, RoleId, ShardStageUpdateEvent, UnavailableGuild, User, UserId,
};
use serenity::utils::parse_user_mention;
use std::sync::Arc;
use std::time::Duration;

/// After this long without an answer an interaction is deferred (Discord allows 3 s).
const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// Commands whose answer may wait for the AI (its first move as White): deferred at once. The rest
/// are answered directly (the core answers a move, picture included, in a few milliseconds) and
/// deferred only when the answer is late.
const SLOW: &[&str] = &["play"];

/// The serenity event handler.
pub struct Handler {
    pub host: Arc<Host>,
    /// The permissions, threads and languages of the bot's servers, kept from the gateway's
    /// events (serenity caches no guilds).
    pub guilds: Arc<super::guilds::Guilds>,
    pub pending: Arc<PendingMap>,
    /// Read plain messages (the message-content intent is on).
    pub message_content: bool,
    /// The slash commands' ids, for the commands an answer names.
    pub mentions: super::mentions::Shared,
    /// Interactions seen lately, so that one delivered twice is answered once.
    pub seen: RecentIds,
    /// The shards of this process that are connected, and how many it runs (0 until known: with
    /// Discord's recommended count, the first READY tells).
    pub shards: ShardHealth,
}

/// Which of a process's shards are connected: Discord counts as connected (for `/healthz`) only
/// while every one of them is.
#[derive(Default)]
pub struct ShardHealth {
    up: std::sync::Mutex<std::collections::BTreeSet<u32>>,
    expected: std::sync::atomic::AtomicU32,
}

impl ShardHealth {
    /// For a process that runs `count` shards (0: as many as the first READY says in all).
    pub fn new(count: u32) -> ShardHealth {
        ShardHealth { expected: count.into(), ..ShardHealth::default() }
    }

    /// Records one shard's state; true when every shard of the process is connected.
    fn set(&self, shard: u32, connected: bool, total: Option<u32>) -> bool {
        use std::sync::atomic::Ordering;
        if let Some(total) = total {
            let _ = self.expected.compare_exchange(0, total, Ordering::Relaxed, Ordering::Relaxed);
        }
        let mut up = self.up.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if connected {
            up.insert(shard);
        } else {
            up.remove(&shard);
        }
        let expected = self.expected.load(Ordering::Relaxed).max(1);
        up.len() >= expected as usize
    }
}

/// The last [`RecentIds::CAPACITY`] event ids seen. The core ignores an event it has handled
/// before, but an interaction can be answered only once: a second delivery must not even try.
pub struct RecentIds(std::sync::Mutex<Recent<u64, ()>>);

impl Default for RecentIds {
    fn default() -> Self {
        RecentIds(std::sync::Mutex::new(Recent::new(Self::CAPACITY)))
    }
}

impl RecentIds {
    const CAPACITY: usize = 4096;

    /// True the first time `id` is seen (among the recent ones).
    pub fn first_time(&self, id: u64) -> bool {
        self.0.lock().map_or(true, |mut seen| seen.first_time(id))
    }
}

fn scope_of(guild: Option<String>, channel: u64, parent: Option<u64>, is_thread: bool) -> Scope {
    let mut s = match (is_thread, parent) {
        (true, Some(p)) => Scope { thread: Some(channel.to_string()), ..Scope::chat("discord", p.to_string()) },
        _ => Scope::chat("discord", channel.to_string()),
    };
    match guild {
        Some(g) => s.community = Some(g),
        None => s.direct = true,
    }
    s
}

fn is_thread(kind: ChannelType) -> bool {
    matches!(kind, ChannelType::PublicThread | ChannelType::PrivateThread | ChannelType::NewsThread)
}

/// Where an interaction comes from, as Discord describes it.
struct Source<'a> {
    guild: Option<GuildId>,
    channel_id: ChannelId,
    channel: Option<&'a PartialChannel>,
    context: Option<InteractionContext>,
    owners: &'a AuthorizingIntegrationOwners,
}

impl<'a> Source<'a> {
    fn of_command(cmd: &'a CommandInteraction) -> Source<'a> {
        let (guild, channel_id, channel) = (cmd.guild_id, cmd.channel_id, cmd.channel.as_ref());
        Source { guild, channel_id, channel, context: cmd.context, owners: &cmd.authorizing_integration_owners }
    }

    fn of_press(press: &'a ComponentInteraction) -> Source<'a> {
        let (guild, channel_id, channel) = (press.guild_id, press.channel_id, press.channel.as_ref());
        Source { guild, channel_id, channel, context: press.context, owners: &press.authorizing_integration_owners }
    }

    /// Whether the bot reaches the chat only through interactions: the app is installed to the
    /// person's account and used where the bot is no member — a group DM or a DM between people
    /// (context 2), or a server that did not install it (no server among the authorizing owners).
    fn interaction_only(&self) -> bool {
        match self.context {
            Some(InteractionContext::PrivateChannel) => true,
            Some(InteractionContext::BotDm) => false,
            _ => {
                let owners = &self.owners.0;
                let in_server = owners.iter().any(|o| matches!(o, AuthorizingIntegrationOwner::GuildInstall(_)));
                !owners.is_empty() && !in_server
            }
        }
    }

    fn scope(&self) -> Scope {
        let channel = self.channel;
        let (thread, parent) = channel.map(|c| (is_thread(c.kind), c.parent_id.map(|p| p.get()))).unwrap_or_default();
        let mut scope = scope_of(self.guild.map(|g| g.to_string()), self.channel_id.get(), parent, thread);
        if self.interaction_only() {
            // A chat among people, not one with the bot, even without a server.
            scope.direct = false;
            scope.interaction_only = true;
        }
        scope
    }
}

/// The users a message's text mentions, in the order typed. A message's `mentions` also holds
/// the author of the message it replies to (when the reply pings), and Discord does not keep
/// them in the typed order.
/// What follows the bot's mention at the start of a message (`<@id>` or `<@!id>`), trimmed;
/// `None` when the message does not start with it.
fn addressed_to(content: &str, me: UserId) -> Option<&str> {
    let text = content.trim_start();
    let end = text.strip_prefix("<@")?.find('>')? + 2;
    (parse_user_mention(&text[..=end]) == Some(me)).then(|| text[end + 1..].trim())
}

fn typed_mentions(content: &str) -> Vec<UserId> {
    let mut ids = Vec::new();
    for (at, _) in content.match_indices("<@") {
        let tag = &content[at..];
        if let Some(id) = tag.find('>').and_then(|end| parse_user_mention(&tag[..=end]))
            && !ids.contains(&id)
        {
            ids.push(id);
        }
    }
    ids
}

fn user_ref(user: &User, member: Option<&Member>) -> UserRef {
    let name = member.and_then(|m| m.nick.clone()).unwrap_or_else(|| user.display_name().to_string());
    UserRef::new(user.id.to_string(), name)
}

fn is_admin(member: Option<&Member>) -> bool {
    member.and_then(|m| m.permissions).is_some_and(|p| p.manage_guild() || p.administrator())
}

/// A message's buttons, all disabled.
fn disabled(rows: &[ActionRow]) -> Vec<CreateActionRow> {
    let button = |c: &ActionRowComponent| match c {
        ActionRowComponent::Button(b) => Some(CreateButton::from(b.clone()).disabled(true)),
        _ => None,
    };
    rows.iter().map(|row| CreateActionRow::Buttons(row.components.iter().filter_map(button).collect())).collect()
}

/// Waits before a private answer's next try after a passing failure (429, 5xx): short, as all of
/// them must fit in the 3 seconds Discord gives an interaction's first answer.
const PRIVATE_RETRIES: [Duration; 2] = [Duration::from_millis(400), Duration::from_millis(900)];

/// A private answer to an interaction that pings no one (sent before the core is reached, or as
/// the note that closes it); tried again after a passing failure while the interaction is open.
async fn private(ctx: &Context, id: InteractionId, token: &str, text: String, rows: Vec<CreateActionRow>) {
    let msg = CreateInteractionResponseMessage::new()
        .content(text)
        .ephemeral(true)
        .components(rows)
        .allowed_mentions(CreateAllowedMentions::new().empty_users().empty_roles());
    let mut waits = PRIVATE_RETRIES.iter();
    loop {
        let Err(e) = CreateInteractionResponse::Message(msg.clone()).execute(ctx, (id, token)).await else { return };
        let passing = matches!(super::deliver::classify(&e), crate::host::DeliveryError::Transient { .. });
        match waits.next() {
            Some(wait) if passing => {
                tracing::info!("private answer refused for now ({}); trying again", super::redact::describe(&e));
                tokio::time::sleep(*wait).await;
            }
            _ => {
                tracing::warn!("private answer not sent: {}", super::redact::describe(&e));
                return;
            }
        }
    }
}

/// Shows "thinking…" (a deferred response) unless the interaction has been answered already; a
/// button press is acknowledged without it, so that an answer only its presser sees never
/// flashes a public "thinking…" in the channel.
async fn defer(http: Arc<serenity::all::Http>, mut p: tokio::sync::OwnedMutexGuard<Pending>) {
    if p.answer == Answer::Open {
        let (r, state) = if p.component {
            (CreateInteractionResponse::Acknowledge, Answer::Acknowledged)
        } else {
            (CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new()), Answer::Deferred)
        };
        match r.execute(http.as_ref(), (p.id, &p.token)).await {
            Ok(()) => p.answer = state,
            Err(e) => tracing::warn!("interaction not deferred: {}", super::redact::describe(&e)),
        }
    }
}

impl Handler {
    /// Runs an interaction's input through the host: registers it for the replies, defers it when
    /// it may take long (at once for [`SLOW`] commands, otherwise after [`DEFER_AFTER`]; a button
    /// press without "thinking…"), and closes it.
    async fn run_interaction(
        &self,
        ctx: &Context,
        (id, token, channel): (InteractionId, &str, ChannelId),
        (slow, component, settle_offer): (bool, bool, Option<Vec<CreateActionRow>>),
        input: Input,
    ) -> bool {
        let key = id.to_string();
        let pending = Pending {
            id,
            token: token.to_string(),
            answer: Answer::Open,
            channel,
            elsewhere: None,
            since: std::time::Instant::now(),
            component,
            public: false,
            lang: user_lang(&input),
            user: input.author.id.clone(),
            interaction_only: input.scope.interaction_only,
            follow_ups: 0,
            settle_offer,
        };
        let entry = Arc::new(tokio::sync::Mutex::new(pending));
        if let Ok(mut map) = self.pending.lock() {
            map.insert(key.clone(), entry.clone());
        }
        // The rate limits first, before anything is shown: a refusal answers privately (the
        // interaction still open), and a flood told already gets nothing; never a public
        // "thinking…" over an input that will not reach the core.
        if let Some(refused) = self.host.screen(&input).await {
            self.close(ctx, &key, &entry, Ok(refused)).await;
            return false;
        }
        let http = ctx.http.clone();
        if slow {
            // Deferred at once, while the core works: the lock taken here makes the first reply wait
            // for the deferral to be acknowledged, so that it edits the "thinking…" response.
            tokio::spawn(defer(http, entry.clone().lock_owned().await));
        } else {
            // Deferred only if the answer is late; the timer is left to run out rather than aborted
            // mid-request, and does nothing once the interaction is answered.
            let entry = entry.clone();
            tokio::spawn(async move {
                tokio::time::sleep(DEFER_AFTER).await;
                defer(http, entry.lock_owned().await).await;
            });
        }
        let handled = self.host.handle_admitted(input).await;
        self.close(ctx, &key, &entry, handled).await;
        entry.lock().await.public
    }

    /// Forgets a finished interaction; one that got no reply at all is answered so that Discord
    /// does not show a failure.
    async fn close(
        &self,
        ctx: &Context,
        key: &str,
        entry: &tokio::sync::Mutex<Pending>,
        handled: Result<Delivery, crate::host::HostError>,
    ) {
        if let Ok(mut map) = self.pending.lock() {
            map.remove(key);
        }
        let mut p = entry.lock().await;
        if matches!(handled, Ok(Delivery::Ignored)) {
            // A flood, told to slow down once already: left unanswered.
            return;
        }
        // Never claim an answer went out when it did not: a reply left in the outbox (Discord
        // busy) is announced as coming, not as done.
        let lang = p.lang;
        let text = match (handled, p.elsewhere) {
            (Err(_), _) => tl!(lang, "discord-restarting"),
            (Ok(Delivery::Delayed), _) if p.interaction_only => tl!(lang, "discord-busy-here"),
            (Ok(Delivery::Delayed), _) => tl!(lang, "discord-busy"),
            (Ok(Delivery::Done | Delivery::Ignored), Some(channel)) => {
                tl!(lang, "discord-posted-in", channel = format!("<#{channel}>"))
            }
            (Ok(Delivery::Done | Delivery::Ignored), None) => tl!(lang, "discord-done"),
        };
        match p.answer {
            Answer::Open => private(ctx, p.id, &p.token, text, vec![]).await,
            Answer::Deferred => {
                let edit = serenity::all::EditInteractionResponse::new()
                    .content(text)
                    .allowed_mentions(CreateAllowedMentions::new().empty_users().empty_roles());
                if let Err(e) = edit.execute(ctx, &p.token).await {
                    tracing::warn!("deferred interaction not closed: {}", super::redact::describe(&e));
                }
            }
            // Acknowledged without a message: what the press did shows in the channel.
            Answer::Acknowledged | Answer::Answered => {}
        }
        p.answer = Answer::Answered;
    }

    async fn on_command(&self, ctx: &Context, cmd: &CommandInteraction) {
        let scope = Source::of_command(cmd).scope();
        // Where the bot answers only through interactions, an answer needs no permission in the
        // channel (Discord's `app_permissions` there are only what an answer may carry).
        if let Some(have) = cmd.app_permissions
            && scope.community.is_some()
            && !scope.interaction_only
            && let lang = Lang::parse(&cmd.locale).unwrap_or_default()
            && let Some(lacking) = permissions::missing_in(have, permissions::to_post(scope.thread.is_some()), lang)
        {
            let text = tl!(lang, "discord-missing-permissions", permissions = lacking);
            return private(ctx, cmd.id, &cmd.token, text, vec![]).await;
        }
        let (command, mentions) = match command_from(&cmd.data.name, &cmd.data.options()) {
            Ok(c) => c,
            Err(e) => {
                let lang = Lang::parse(&cmd.locale).unwrap_or_default();
                let text = super::mentions::rewrite(&self.mentions, &e.answer("/").render(lang)).into_owned();
                return private(ctx, cmd.id, &cmd.token, text, vec![]).await;
            }
        };
        let author = user_ref(&cmd.user, cmd.member.as_deref());
        let input = Input::command(scope, author, command)
            .via(Via::Interaction)
            .with_mentions(mentions)
            .with_locales(Some(cmd.locale.clone()), cmd.guild_locale.clone())
            .with_event_id(cmd.id.to_string())
            .as_admin(is_admin(cmd.member.as_deref()));
        let slow = SLOW.contains(&cmd.data.name.as_str());
        self.run_interaction(ctx, (cmd.id, &cmd.token, cmd.channel_id), (slow, false, None), input).await;
    }

    async fn on_autocomplete(&self, ctx: &Context, cmd: &CommandInteraction) {
        let scope = Source::of_command(cmd).scope();
        let query = autocomplete_query(&cmd.data.name, &cmd.data.options);
        let (bot, user) = (self.host.bot().clone(), cmd.user.id.to_string());
        let (command, lang) = (cmd.data.name.clone(), Lang::parse(&cmd.locale).unwrap_or_default());
        let suggested = tokio::task::spawn_blocking(move || match query.kind {
            Some(OptionKind::Game) if query.option == "game" => {
                crate::i18n::with_lang(lang, || bot.suggest_games(&scope, &user, &command, &query.typed))
            }
            Some(OptionKind::Game) if query.option == "tournament" => {
                let sub = query.sub.as_deref().unwrap_or_default();
                crate::i18n::with_lang(lang, || bot.suggest_tournaments(&scope, sub, &query.typed))
            }
            Some(OptionKind::Game) if query.option == "challenge" => {
                crate::i18n::with_lang(lang, || bot.suggest_challenges(&scope, &user, &command, &query.typed))
            }
            Some(OptionKind::Ladder) => bot.suggest_ladders(&scope, &query.typed),
            Some(OptionKind::Move) => {
                bot.suggest_moves(&scope, &user, query.game, &query.typed).into_iter().map(|m| (m.clone(), m)).collect()
            }
            Some(OptionKind::Square) => bot.suggest_squares(&scope, &user, query.game, &query.typed),
            _ => Vec::new(),
        })
        .await
        .unwrap_or_default();
        // Discord takes at most 25 choices, each name and value of 1 to 100 characters.
        let choices = suggested
            .into_iter()
            .filter(|(name, value)| {
                (1..=100).contains(&name.chars().count()) && (1..=100).contains(&value.chars().count())
            })
            .take(25)
            .map(|(name, value)| AutocompleteChoice::new(name, value))
            .collect();
        let r = CreateInteractionResponse::Autocomplete(CreateAutocompleteResponse::new().set_choices(choices));
        if let Err(e) = r.execute(ctx, (cmd.id, &cmd.token)).await {
            tracing::warn!("autocomplete not answered: {}", super::redact::describe(&e));
        }
    }

    async fn on_button(&self, ctx: &Context, press: &ComponentInteraction) {
        let lang = Lang::parse(&press.locale).unwrap_or_default();
        let stale = || tl!(lang, "discord-button-stale");
        let mut parts = press.data.custom_id.splitn(3, ':');
        let (Some(kind), Some(for_user), Some(typed)) = (parts.next(), parts.next(), parts.next()) else {
            return private(ctx, press.id, &press.token, stale(), vec![]).await;
        };
        if !for_user.is_empty() && for_user != press.user.id.to_string() {
            return private(ctx, press.id, &press.token, tl!(lang, "discord-not-your-game"), vec![]).await;
        }
        let Ok(command) = command::parse(typed) else {
            return private(ctx, press.id, &press.token, stale(), vec![]).await;
        };
        if kind == CONFIRM {
            let what = match &command {
                Command::Resign(Some(n)) => tl!(lang, "discord-confirm-resign", id = *n),
                _ => tl!(lang, "discord-confirm"),
            };
            let yes = CreateButton::new(format!("{RUN}:{for_user}:{typed}"))
                .label(tl!(lang, "discord-yes"))
                .style(ButtonStyle::Danger);
            return private(ctx, press.id, &press.token, what, vec![CreateActionRow::Buttons(vec![yes])]).await;
        }
        if kind != RUN {
            return private(ctx, press.id, &press.token, stale(), vec![]).await;
        }
        let scope = Source::of_press(press).scope();
        let interaction_only = scope.interaction_only;
        // A press meant for one person that everyone was told of settles the offer: its buttons
        // are disabled so that nobody presses a dead one (an ephemeral message has no edit route).
        // Where the bot answers only interactions, that is done through this one (UPDATE_MESSAGE)
        // with its first answer for everyone; elsewhere by editing the message in the channel.
        let ephemeral = press.message.flags.is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
        let settles = !for_user.is_empty() && !ephemeral;
        let settle_offer = (settles && interaction_only).then(|| disabled(&press.message.components));
        let input = Input::command(scope, user_ref(&press.user, press.member.as_ref()), command)
            .via(Via::Interaction)
            .with_locales(Some(press.locale.clone()), press.guild_locale.clone())
            .with_event_id(press.id.to_string())
            .as_admin(is_admin(press.member.as_ref()));
        // Answered directly when the core is quick (a stale or someone else's press privately, at
        // once); acknowledged without a message only when late.
        let answer = (press.id, &*press.token, press.channel_id);
        let public = self.run_interaction(ctx, answer, (false, true, settle_offer), input).await;
        if public && settles && !interaction_only {
            let edit = EditMessage::new().components(disabled(&press.message.components));
            if let Err(e) = press.channel_id.edit_message(ctx, press.message.id, edit).await {
                tracing::info!("settled offer's buttons not disabled: {}", super::redact::describe(&e));
            }
        }
    }

    async fn on_message(&self, ctx: &Context, msg: &Message) {
        // Discord gives a message's content in DMs and in messages that mention the bot even
        // without the message-content intent; a message that starts with the bot's mention is a
        // command addressed to it (`@capabot challenge @bob`).
        let me = ctx.cache.current_user().id;
        let rest = addressed_to(&msg.content, me);
        let readable = self.message_content || msg.guild_id.is_none() || rest.is_some();
        if msg.author.bot || !readable || msg.content.trim().is_empty() {
            return;
        }
        // The server's language (its preferred locale) is the chat's unless settings say otherwise.
        let known = msg.guild_id.and_then(|g| self.guilds.locale_and_thread(g, msg.channel_id.get()));
        let (thread, parent, guild_locale) = match known {
            Some((locale, Some(parent))) => (true, parent, Some(locale)),
            Some((locale, None)) => (false, None, Some(locale)),
            None => (false, None, None),
        };
        let scope = scope_of(msg.guild_id.map(|g| g.to_string()), msg.channel_id.get(), parent, thread);
        let said = rest.unwrap_or(&msg.content);
        let mentions = typed_mentions(said)
            .into_iter()
            .filter_map(|id| msg.mentions.iter().find(|u| u.id == id))
            .filter(|u| !u.bot)
            .map(|u| user_ref(u, None))
            .collect();
        // The message's own partial member (its roles) against the guild's roles: the cached
        // member list holds only a few members without the privileged members intent.
        let admin = match (msg.guild_id, msg.member.as_deref()) {
            // (serenity asserts that a member's user, if sent, is the author.)
            (Some(g), Some(member)) if member.user.as_ref().is_none_or(|u| u.id == msg.author.id) => self
                .guilds
                .member_permissions(g, msg.author.id, &member.roles)
                .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD) || p.administrator()),
            _ => false,
        };
        let name = msg.member.as_ref().and_then(|m| m.nick.clone()).unwrap_or_else(|| msg.author.display_name().into());
        let author = UserRef::new(msg.author.id.to_string(), name);
        let input = match rest.map(command::parse) {
            // Addressed by a mention in the channel: everyone there read it.
            Some(Ok(command)) => Input::command(scope, author, command).via(Via::Addressed),
            Some(Err(_)) => Input::text(scope, author, said).via(Via::Addressed),
            None => Input::text(scope, author, msg.content.clone()),
        };
        let input = input
            .with_mentions(mentions)
            .with_locales(None, guild_locale)
            .with_event_id(msg.id.to_string())
            .as_admin(admin);
        let _ = self.host.handle(input).await;
    }
}

#[serenity::async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        let shard = ctx.shard_id.0;
        tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), shard, "connected to Discord");
        let all_up = self.shards.set(shard, true, ready.shard.map(|s| s.total));
        self.host.set_connected("discord", all_up);
        // Connected: what the outbox holds goes out (the host starts its drainer once, whatever
        // the number of READYs).
        self.host.start_drainer();
    }

    /// The gateway went down (reconnecting, resuming) or up again: for `/healthz`.
    async fn shard_stage_update(&self, _ctx: Context, event: ShardStageUpdateEvent) {
        let all_up = self.shards.set(event.shard_id.0, event.new == ConnectionStage::Connected, None);
        self.host.set_connected("discord", all_up);
    }

    async fn guild_create(&self, ctx: Context, guild: Guild, _is_new: Option<bool>) {
        let me = ctx.cache.current_user().id;
        self.guilds.create(&guild, me);
    }

    async fn guild_update(&self, _ctx: Context, _old: Option<Guild>, guild: PartialGuild) {
        self.guilds.update(&guild);
    }

    async fn guild_role_create(&self, _ctx: Context, role: Role) {
        self.guilds.role(&role);
    }

    async fn guild_role_update(&self, _ctx: Context, _old: Option<Role>, role: Role) {
        self.guilds.role(&role);
    }

    async fn guild_role_delete(&self, _ctx: Context, guild: GuildId, role: RoleId, _old: Option<Role>) {
        self.guilds.role_deleted(guild, role);
    }

    async fn channel_create(&self, _ctx: Context, channel: GuildChannel) {
        self.guilds.channel(&channel);
    }

    async fn channel_update(&self, _ctx: Context, _old: Option<GuildChannel>, channel: GuildChannel) {
        self.guilds.channel(&channel);
    }

    async fn channel_delete(&self, _ctx: Context, channel: GuildChannel, _messages: Option<Vec<Message>>) {
        self.guilds.channel_deleted(channel.guild_id, channel.id.get());
    }

    async fn category_create(&self, _ctx: Context, category: GuildChannel) {
        self.guilds.channel(&category);
    }

    async fn category_delete(&self, _ctx: Context, category: GuildChannel) {
        self.guilds.channel_deleted(category.guild_id, category.id.get());
    }

    async fn thread_create(&self, _ctx: Context, thread: GuildChannel) {
        self.guilds.channel(&thread);
    }

    async fn thread_update(&self, _ctx: Context, _old: Option<GuildChannel>, thread: GuildChannel) {
        self.guilds.channel(&thread);
    }

    async fn thread_delete(&self, _ctx: Context, thread: PartialGuildChannel, _full: Option<GuildChannel>) {
        self.guilds.channel_deleted(thread.guild_id, thread.id.get());
    }

    /// The bot's own roles changed (Discord sends this event for the bot itself even without the
    /// members intent).
    async fn guild_member_update(
        &self,
        ctx: Context,
        _old: Option<Member>,
        _new: Option<Member>,
        event: GuildMemberUpdateEvent,
    ) {
        if event.user.id == ctx.cache.current_user().id {
            self.guilds.my_roles(event.guild_id, &event.roles);
        }
    }

    /// GUILD_DELETE without `unavailable` means the bot was removed from the server (with it, an
    /// outage that ends with a GUILD_CREATE): the games there are paused and their players told.
    async fn guild_delete(&self, _ctx: Context, incomplete: UnavailableGuild, _full: Option<Guild>) {
        self.guilds.delete(incomplete.id);
        if incomplete.unavailable {
            tracing::info!(guild = %incomplete.id, "server unavailable for now");
            return;
        }
        tracing::info!(guild = %incomplete.id, "removed from the server; pausing its games");
        self.host.community_gone("discord", &incomplete.id.to_string()).await;
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        let id = interaction.id();
        if !self.seen.first_time(id.get()) {
            tracing::debug!(interaction = %id, "interaction delivered again; answered already");
            return;
        }
        match &interaction {
            Interaction::Command(cmd) => self.on_command(&ctx, cmd).await,
            Interaction::Autocomplete(cmd) => self.on_autocomplete(&ctx, cmd).await,
            Interaction::Component(press) => self.on_button(&ctx, press).await,
            _ => {}
        }
    }

    async fn message(&self, ctx: Context, msg: Message) {
        self.on_message(&ctx, &msg).await;
    }
}

/// The language of the person behind an interaction, for the front end's own words: their client's
/// locale (English for a language capabot does not speak).
fn user_lang(input: &Input) -> Lang {
    input.locale.as_deref().and_then(Lang::parse).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_belong_to_their_channel() {
        let s = scope_of(Some("10".into()), 30, Some(11), true);
        assert_eq!((s.chat.as_str(), s.thread.as_deref(), s.direct), ("11", Some("30"), false));
        let dm = scope_of(None, 40, None, false);
        assert!(dm.direct && dm.community.is_none());
    }

    #[test]
    fn mentions_come_in_the_order_typed() {
        let ids = |text: &str| typed_mentions(text).into_iter().map(UserId::get).collect::<Vec<_>>();
        assert_eq!(ids("!challenge <@!20> and <@10> then <@20> <@x> <@0> <@ <@&30>"), [20, 10]);
        assert_eq!(ids("no one"), Vec::<u64>::new());
    }

    #[test]
    fn a_message_is_addressed_by_a_leading_mention_of_the_bot() {
        let me = UserId::new(1000);
        assert_eq!(addressed_to("<@1000> challenge <@13> chess", me), Some("challenge <@13> chess"));
        assert_eq!(addressed_to("  <@!1000>games", me), Some("games"));
        assert_eq!(addressed_to("<@1000>", me), Some(""));
        assert_eq!(addressed_to("<@13> <@1000> games", me), None, "someone else first");
        assert_eq!(addressed_to("hello <@1000>", me), None);
        assert_eq!(addressed_to("<@1000", me), None);
        assert_eq!(addressed_to("<@>", me), None);
    }

    #[test]
    fn recent_ids_remember_a_bounded_window() {
        let seen = RecentIds::default();
        assert!(seen.first_time(1) && !seen.first_time(1));
        for id in 2..=(RecentIds::CAPACITY as u64 + 1) {
            assert!(seen.first_time(id));
        }
        // 1 fell out of the window; the newest are still known.
        assert!(seen.first_time(1) && !seen.first_time(RecentIds::CAPACITY as u64 + 1));
    }
}

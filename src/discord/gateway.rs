//! The gateway's sharp edges. Discord counts the sessions a bot starts (`session_start_limit`
//! of `GET /gateway/bot`): [`wait_for_session_starts`] waits, saying why, when too few are left.
//! Some close codes end the gateway for good (4004 token, 4011 sharding required, 4013 and 4014
//! intents): the process must stop with a message that says what to change, not run on without
//! a gateway. serenity 0.12.5 ends `Client::start` with an error for 4004, 4013 and 4014 (its
//! shard runner hands them to the shard manager), which [`ended`] words; for 4011 it only logs
//! `Gateway(OverloadedShard)` from the shard runner and goes on without that shard. [`watch`] is
//! a tracing layer that sees that log event and wakes [`closed_for_good`].

use serenity::all::Http;
use std::sync::LazyLock;
use std::time::Duration;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::Context;

/// Waits until Discord lets this process start its gateway sessions: `GET /gateway/bot` says how
/// many more the bot may start (`session_start_limit.remaining`, one per shard identified) and
/// when that count is refilled (`reset_after`). Identifying with none left makes Discord reset the
/// bot's token, so with too few left the process says why and waits. `shards`: how many this
/// process starts (`None`: as many as Discord recommends).
pub async fn wait_for_session_starts(http: &Http, shards: Option<u64>) -> Result<(), String> {
    loop {
        let gateway = http
            .get_bot_gateway()
            .await
            .map_err(|e| format!("cannot ask Discord for the gateway: {}", super::redact::describe(&e)))?;
        let needed = shards.unwrap_or(u64::from(gateway.shards)).max(1);
        let limit = gateway.session_start_limit;
        if limit.remaining >= needed {
            return Ok(());
        }
        // At least a second: a zero `reset_after` with nothing left must not spin.
        let wait = Duration::from_millis(limit.reset_after).max(Duration::from_secs(1));
        tracing::warn!(
            "Discord allows {} more gateway session starts of {} for now and this process needs {needed} \
             (session_start_limit); waiting {:.0} s for the limit to reset before identifying",
            limit.remaining,
            limit.total,
            wait.as_secs_f64().ceil(),
        );
        tokio::time::sleep(wait).await;
    }
}

/// What an error that ended serenity's gateway connection tells whoever runs the bot. Discord
/// closes the gateway for good with 4004 (token), 4011 (more shards required), 4013 and 4014
/// (intents); serenity 0.12.5 ends `Client::start` with the token's and the intents' errors.
pub fn ended(e: &serenity::Error) -> String {
    use serenity::gateway::GatewayError;
    match e {
        serenity::Error::Gateway(GatewayError::DisallowedGatewayIntents) => "Discord closed the gateway with 4014 \
            (disallowed intents): the bot asks for the privileged Message Content intent (message_content = true), \
            which is not switched on for this application; switch it on on the Bot page of the developer portal, \
            or set message_content = false"
            .into(),
        serenity::Error::Gateway(GatewayError::InvalidGatewayIntents) => {
            "Discord closed the gateway with 4013 (invalid intents)".into()
        }
        serenity::Error::Gateway(GatewayError::OverloadedShard) => sharding_required(),
        serenity::Error::Gateway(GatewayError::InvalidAuthentication) => {
            "Discord rejected the token on the gateway (close code 4004)".into()
        }
        _ => format!("Discord connection ended: {}", super::redact::describe(e)),
    }
}

/// The message for close code 4011.
fn sharding_required() -> String {
    "Discord closed the gateway with 4011 (sharding required): the bot is in too many servers for \
     the shard count it identified with; leave --shard-total (shard_total) out to use Discord's \
     recommended count, or raise it"
        .into()
}

/// How many times this process saw serenity report close code 4011 (see [`watch`]).
static SHARDING_REQUIRED: LazyLock<tokio::sync::watch::Sender<u64>> =
    LazyLock::new(|| tokio::sync::watch::Sender::new(0));

/// Resolves, with the message to stop with, once serenity reports a gateway close it does not end
/// `Client::start` for (4011) after this call. Needs [`watch`] in the process's subscriber.
///
/// The count is read when this is called, not when the future is first polled: a caller that
/// calls it before starting the shards cannot miss a close that comes before its first poll (the
/// shards run on other threads, and on a busy machine a 4011 over loopback can come first).
pub fn closed_for_good() -> impl std::future::Future<Output = String> + Send + 'static {
    // A new receiver has seen the value it was made at.
    let mut seen = SHARDING_REQUIRED.subscribe();
    async move {
        let _ = seen.changed().await;
        sharding_required()
    }
}

/// The tracing layer behind [`closed_for_good`]: it looks at serenity's gateway errors only (give
/// it [`watch_filter`]).
pub struct Watch;

/// A layer that tells [`closed_for_good`] when serenity's shard runner reports close code 4011.
pub fn watch() -> Watch {
    Watch
}

/// What [`Watch`] needs to see: serenity's gateway errors, whatever `RUST_LOG` says.
pub fn watch_filter() -> tracing_subscriber::filter::Targets {
    tracing_subscriber::filter::Targets::new().with_target("serenity::gateway", tracing::Level::ERROR)
}

/// The text of a serenity error event's fields.
struct Fields(String);

impl Visit for Fields {
    fn record_debug(&mut self, _field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push_str(&format!("{value:?} "));
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Watch {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        let metadata = event.metadata();
        if *metadata.level() != tracing::Level::ERROR || !metadata.target().starts_with("serenity::gateway") {
            return;
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        // serenity's `GatewayError::OverloadedShard`, its error for close code 4011.
        if fields.0.contains("OverloadedShard") {
            SHARDING_REQUIRED.send_modify(|n| *n += 1);
        }
    }
}

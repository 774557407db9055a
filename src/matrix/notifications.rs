//! The bot's own account counts no notifications: at start-up its `.m.rule.master` push rule, the
//! spec's switch that mutes an account, is enabled unless it is already.
//!
//! Why: under a homeserver's default push rules every person's message in a room of the bot is a
//! notification for the bot's account too, which never reads them. Synapse stores each as a row of
//! push actions, rotates them into unread counts in the background and reads those counts for every
//! room in a sync; in the benchmark's 2,000 rooms 27,059 such rows piled up, about 8,000 of them the
//! bot's, and made Synapse slower an event (`docs/scale.md`, "A tuned Synapse" and "The bot mutes
//! its own notifications"). With the master rule on, Synapse still runs the rules for the bot but
//! finds nothing to notify and stores nothing (it keeps only actions that notify). A read receipt
//! where the bot answers would do less: each message's row would still be written, then deleted by
//! the receipt, a request more a room, and rows of messages that mention the bot are kept anyway.
//!
//! Operators who share the account with people (who want its notifications) turn it off
//! (`[matrix] mute_notifications = false`); the bot then leaves the rule as it is.

use matrix_sdk::Client;
use matrix_sdk::ruma::api::client::push::{get_pushrule_enabled, set_pushrule_enabled};
use matrix_sdk::ruma::push::{PredefinedOverrideRuleId, RuleKind};
use std::time::Duration;

/// How long start-up waits for the homeserver's answers before going on without them.
const WAIT: Duration = Duration::from_secs(15);

/// What [`mute`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Muted {
    /// The master rule was enabled already (by an earlier start, or by a person): nothing changed.
    Already,
    /// The bot enabled it now.
    Now,
}

/// Enables the bot's `.m.rule.master` push rule unless it is enabled: one request when it is, two
/// when it was not.
pub async fn mute(client: &Client) -> Result<Muted, matrix_sdk::HttpError> {
    let master = PredefinedOverrideRuleId::Master.to_string();
    let asked = get_pushrule_enabled::v3::Request::new(RuleKind::Override, master.clone());
    if client.send(asked).await?.enabled {
        return Ok(Muted::Already);
    }
    client.send(set_pushrule_enabled::v3::Request::new(RuleKind::Override, master, true)).await?;
    Ok(Muted::Now)
}

/// [`mute`] at start-up, bounded by [`WAIT`]: logged once where it changed something, and a
/// failure only warned about (the bot answers as well with its notifications counted).
pub async fn mute_at_start(client: &Client) {
    match tokio::time::timeout(WAIT, mute(client)).await {
        Ok(Ok(Muted::Now)) => {
            tracing::info!("muted the bot's own Matrix notifications (its .m.rule.master push rule)")
        }
        Ok(Ok(Muted::Already)) => tracing::debug!("the bot's own Matrix notifications are muted already"),
        Ok(Err(e)) => tracing::warn!("cannot mute the bot's own Matrix notifications, going on: {e}"),
        Err(_) => {
            tracing::warn!("the homeserver did not answer about the bot's notifications within {WAIT:?}, going on")
        }
    }
}

//! What the host and the front ends count for an operator, and (cargo feature `metrics-http`) the
//! HTTP endpoint that shows it: `/healthz` and Prometheus `/metrics`.
//!
//! Counting goes through the `metrics` facade: without an exporter installed (the console, the
//! tests that embed a host) every call is a no-op. The core records nothing; the host sees every
//! input, answer, AI search and delivery, and front ends report whether they are connected
//! ([`super::Host::set_connected`]).
//!
//! The series, each labelled `platform` where it belongs to one:
//! - `capabot_commands_total` — inputs handled (commands, moves, button presses);
//! - `capabot_moves_total` — moves played and announced (people's and the AI's);
//! - `capabot_command_seconds` — histogram: an input's arrival to its answers delivered;
//! - `capabot_ai_searches_queued`, `capabot_ai_searches_running` — AI searches waiting for the
//!   pool and searching (the pool is shared by every platform: no label);
//! - `capabot_delivery_failures_total` — failed delivery attempts, by `kind` (`transient`,
//!   `gave_up`, `direct_closed`, `chat_gone`, `forbidden`, `failed`);
//! - `capabot_outbox_pending` — replies waiting in the outbox (read from the database at each
//!   scrape);
//! - `capabot_connected` — 1 while the platform's gateway or sync is connected;
//! - `capabot_outbox_expired_total` — replies given up as expired, by `platform` and `reason`:
//!   `unserved` (no process served their platform for `[host] unserved_expiry_hours`; counted by
//!   the core's scheduler, `crate::bot::Served`) or `held` (a chat reached only through
//!   interactions had none for 30 days: `crate::bot::outbox::HELD_EXPIRY_SECS`);
//! - `capabot_reminders_dropped_total` — reminders dropped by `platform` and `reason`: `unserved`
//!   (due for `[host] unserved_expiry_hours` in a platform no process served as long; counted by the
//!   core's scheduler, `crate::bot::Bot::tick`).

use crate::bot::Reply;
use std::time::Duration;

pub const COMMANDS: &str = "capabot_commands_total";
pub const MOVES: &str = "capabot_moves_total";
pub const LATENCY: &str = "capabot_command_seconds";
pub const AI_QUEUED: &str = "capabot_ai_searches_queued";
pub const AI_RUNNING: &str = "capabot_ai_searches_running";
pub const DELIVERY_FAILURES: &str = "capabot_delivery_failures_total";
pub const OUTBOX_PENDING: &str = "capabot_outbox_pending";
pub const CONNECTED: &str = "capabot_connected";
/// Whole games' animations asked for, by outcome: `drawn`, or `remembered` (drawn before).
pub const ANIMATIONS: &str = "capabot_animations_total";

/// Histogram buckets of [`LATENCY`], in seconds: a move's answer is expected well under a second,
/// and a picture or a rate-limited channel may take several.
pub const LATENCY_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// One input handled on `platform`, answered after `took`.
pub(super) fn input_handled(platform: &str, took: Duration) {
    // The latency first: a scrape that counts the input then shows its latency too.
    metrics::histogram!(LATENCY, "platform" => platform.to_string()).record(took.as_secs_f64());
    metrics::counter!(COMMANDS, "platform" => platform.to_string()).increment(1);
}

/// Counts the moves a settled response announces: each distinct game whose card carries a last
/// move (only a stored move's announcement has one; a board shown on request has none).
pub(super) fn moves_announced(replies: &[Reply]) {
    let mut seen: Vec<(&str, i64)> = Vec::new();
    for r in replies {
        if let Some(card) = r.card.as_ref().filter(|c| c.last_move.is_some()) {
            let key = (r.target.platform(), card.game_id);
            if !seen.contains(&key) {
                seen.push(key);
                metrics::counter!(MOVES, "platform" => key.0.to_string()).increment(1);
            }
        }
    }
}

/// One failed delivery attempt.
pub(super) fn animation(outcome: &'static str) {
    metrics::counter!(ANIMATIONS, "outcome" => outcome).increment(1);
}

pub(super) fn delivery_failed(platform: &str, kind: &'static str) {
    metrics::counter!(DELIVERY_FAILURES, "platform" => platform.to_string(), "kind" => kind).increment(1);
}

/// A front end's connection went up or down.
pub(super) fn connected(platform: &str, up: bool) {
    metrics::gauge!(CONNECTED, "platform" => platform.to_string()).set(if up { 1.0 } else { 0.0 });
}

/// What `/healthz` reports: each front end plugged in, connected or not, and whether the database
/// answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Health {
    /// Platform and whether its gateway or sync is connected, by name.
    pub platforms: Vec<(String, bool)>,
    pub database: bool,
}

impl Health {
    /// Healthy: the database answers and there is at least one front end, every one connected.
    pub fn ok(&self) -> bool {
        self.database && !self.platforms.is_empty() && self.platforms.iter().all(|(_, up)| *up)
    }

    /// `{"status":"ok","database":"ok","platforms":{"discord":"connected"}}`, or `unavailable`,
    /// `unreachable`, `disconnected` where not.
    pub fn to_json(&self) -> String {
        let platforms: serde_json::Map<String, serde_json::Value> = self
            .platforms
            .iter()
            .map(|(p, up)| (p.clone(), (if *up { "connected" } else { "disconnected" }).into()))
            .collect();
        serde_json::json!({
            "status": if self.ok() { "ok" } else { "unavailable" },
            "database": if self.database { "ok" } else { "unreachable" },
            "platforms": platforms,
        })
        .to_string()
    }
}

/// Keeps the AI gauges right whatever way a search ends: queued from creation, running from
/// [`AiSearch::start`], neither once dropped.
pub(super) struct AiSearch {
    running: bool,
}

impl AiSearch {
    pub(super) fn queued() -> AiSearch {
        metrics::gauge!(AI_QUEUED).increment(1.0);
        AiSearch { running: false }
    }

    pub(super) fn start(&mut self) {
        if !self.running {
            self.running = true;
            metrics::gauge!(AI_QUEUED).decrement(1.0);
            metrics::gauge!(AI_RUNNING).increment(1.0);
        }
    }
}

impl Drop for AiSearch {
    fn drop(&mut self) {
        if self.running {
            metrics::gauge!(AI_RUNNING).decrement(1.0);
        } else {
            metrics::gauge!(AI_QUEUED).decrement(1.0);
        }
    }
}

/// The endpoint: `/healthz` and `/metrics` on one address.
#[cfg(feature = "metrics-http")]
pub mod endpoint {
    use super::super::Host;
    use axum::extract::State;
    use axum::http::{StatusCode, header};
    use axum::response::IntoResponse;
    use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
    use std::net::SocketAddr;
    use std::sync::Arc;

    #[derive(Clone)]
    struct Served {
        host: Arc<Host>,
        prometheus: PrometheusHandle,
    }

    /// Installs the Prometheus recorder (once per process) and serves the endpoint on `addr` until
    /// the host shuts down. Returns the address bound (port 0 picks a free one).
    pub async fn serve(host: Arc<Host>, addr: SocketAddr) -> Result<SocketAddr, String> {
        let prometheus = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(super::LATENCY.into()), &super::LATENCY_BUCKETS)
            .and_then(PrometheusBuilder::install_recorder)
            .map_err(|e| format!("cannot start the metrics recorder: {e}"))?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr} for metrics: {e}"))?;
        let bound = listener.local_addr().map_err(|e| format!("metrics listener: {e}"))?;
        let stop = host.stopping();
        for platform in host.platforms() {
            super::connected(&platform, host.is_connected(&platform));
        }
        let app = axum::Router::new()
            .route("/healthz", axum::routing::get(healthz))
            .route("/metrics", axum::routing::get(metrics))
            .with_state(Served { host, prometheus });
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(stop.cancelled_owned()).await {
                tracing::warn!("the metrics endpoint stopped: {e}");
            }
        });
        Ok(bound)
    }

    /// 200 when every front end is connected and the database answers, else 503; a short JSON body
    /// says which part is not.
    async fn healthz(State(s): State<Served>) -> impl IntoResponse {
        let health = s.host.health().await;
        let status = if health.ok() { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
        (status, [(header::CONTENT_TYPE, "application/json")], health.to_json())
    }

    async fn metrics(State(s): State<Served>) -> impl IntoResponse {
        s.host.refresh_outbox_gauges().await;
        s.prometheus.run_upkeep();
        ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], s.prometheus.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bot::{GameCard, Scope, Target};
    use metrics_util::debugging::{DebugValue, DebuggingRecorder};

    fn card(game_id: i64, last_move: Option<&str>) -> GameCard {
        GameCard {
            game_id,
            variant: "chess".into(),
            white: "a".into(),
            black: "b".into(),
            last_move: last_move.map(str::to_string),
            to_move: None,
            deadline: None,
            result: None,
            web_url: None,
        }
    }

    #[test]
    fn health_needs_a_connected_front_end_and_the_database() {
        let up = Health { platforms: vec![("discord".into(), true)], database: true };
        assert!(up.ok());
        let body: serde_json::Value = serde_json::from_str(&up.to_json()).unwrap();
        assert_eq!(body["status"], "ok");
        assert_eq!(body["platforms"]["discord"], "connected");
        let down = Health { platforms: vec![("discord".into(), true), ("matrix".into(), false)], ..up.clone() };
        assert!(!down.ok());
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&down.to_json()).unwrap()["platforms"]["matrix"],
            "disconnected"
        );
        assert!(!Health { database: false, ..up.clone() }.ok());
        assert!(!Health { platforms: vec![], ..up }.ok(), "no front end yet");
    }

    #[test]
    fn a_move_counts_once_per_game_and_a_board_shown_not_at_all() {
        let recorder = DebuggingRecorder::new();
        let snapshotter = recorder.snapshotter();
        let values: Vec<(String, f64)> = metrics::with_local_recorder(&recorder, || {
            let chat = Target::Chat(Scope::chat("discord", "1"));
            let mut moved = Reply::new(chat.clone(), "e4 played");
            moved.card = Some(card(7, Some("1. e4")));
            let mut again = moved.clone();
            again.text = "your move".into();
            let mut shown = Reply::new(chat, "the board");
            shown.card = Some(card(8, None));
            moves_announced(&[moved, again, shown]);
            let mut search = AiSearch::queued();
            search.start();
            drop(search);
            // One search still waiting for the pool when the snapshot is taken.
            let waiting = AiSearch::queued();
            let values = snapshotter
                .snapshot()
                .into_vec()
                .into_iter()
                .map(|(key, _, _, value)| {
                    let v = match value {
                        DebugValue::Counter(n) => n as f64,
                        DebugValue::Gauge(g) => g.into_inner(),
                        DebugValue::Histogram(h) => h.len() as f64,
                    };
                    (key.key().name().to_string(), v)
                })
                .collect();
            drop(waiting);
            values
        });
        let value = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        assert_eq!(value(MOVES), Some(1.0), "one move in game 7, none shown in game 8: {values:?}");
        assert_eq!(value(AI_RUNNING), Some(0.0), "{values:?}");
        assert_eq!(value(AI_QUEUED), Some(1.0), "{values:?}");
    }
}

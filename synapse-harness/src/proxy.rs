//! A proxy in front of Synapse for what a network and a homeserver do to a client now and then:
//!
//! - it holds back the to-device messages of the syncs passing through it — they carry the room
//!   keys of encrypted rooms — and hands them over later: a client behind it meets messages whose
//!   key comes after them, as happens when a key is slow over federation or re-sent by the sender's
//!   device;
//! - it loses the answer to an event sent (`PUT /rooms/{room}/send/{type}/{txn}`): Synapse makes
//!   the event, the client gets a 502 as from a gateway whose connection broke, and retries;
//! - it holds the events sent until told to let them go, as a slow network would.
//!
//! Everything else passes unchanged.
//!
//! ```no_run
//! # async fn f(synapse: &synapse_harness::Synapse) {
//! let proxy = synapse_harness::Proxy::start(&synapse.homeserver_url()).await;
//! proxy.hold_keys();
//! // ... a message arrives, its key is held: the client cannot decrypt it ...
//! proxy.release_keys(); // the held keys come with the client's next sync
//! # }
//! ```

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

/// The largest request or response body passed through (media uploads included).
const MAX_BODY: usize = 64 << 20;

/// A running proxy; it stops when dropped.
pub struct Proxy {
    url: String,
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

struct Shared {
    upstream: String,
    client: reqwest::Client,
    state: Mutex<Held>,
    sends: Mutex<Sends>,
    /// Signalled when held sends may go.
    sends_released: tokio::sync::Notify,
}

/// The to-device messages held back.
#[derive(Default)]
struct Held {
    holding: bool,
    events: Vec<Value>,
}

/// What happens to the events sent.
#[derive(Default)]
struct Sends {
    /// The answers still to lose.
    to_lose: usize,
    lost: usize,
    holding: bool,
    held: usize,
}

impl Proxy {
    /// Starts a proxy to `upstream` (Synapse's URL) on a free port of 127.0.0.1.
    pub async fn start(upstream: &str) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().expect("an address"));
        let shared = Arc::new(Shared {
            upstream: upstream.trim_end_matches('/').to_string(),
            client: reqwest::Client::builder().no_proxy().build().expect("an HTTP client"),
            state: Mutex::default(),
            sends: Mutex::default(),
            sends_released: tokio::sync::Notify::new(),
        });
        let app = axum::Router::new().fallback(forward).with_state(shared.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Proxy { url, shared, task }
    }

    /// The homeserver URL a client uses to go through the proxy.
    pub fn url(&self) -> String {
        self.url.clone()
    }

    /// From now on to-device messages are held back.
    pub fn hold_keys(&self) {
        self.shared.state.lock().unwrap().holding = true;
    }

    /// Lets the held messages through: they come with the next sync response (a sync waiting for
    /// news still waits for some: a client sees them when anything new happens, or at its
    /// timeout).
    pub fn release_keys(&self) {
        self.shared.state.lock().unwrap().holding = false;
    }

    /// How many to-device messages are held back now.
    pub fn held_keys(&self) -> usize {
        self.shared.state.lock().unwrap().events.len()
    }

    /// The answers to the next `n` events sent are lost: each reaches Synapse, which makes the
    /// event, and the client is answered 502 instead of the event's id.
    pub fn lose_answers(&self, n: usize) {
        self.shared.sends.lock().unwrap().to_lose = n;
    }

    /// How many answers to events sent were lost so far.
    pub fn lost_answers(&self) -> usize {
        self.shared.sends.lock().unwrap().lost
    }

    /// From now on the events sent wait in the proxy (after the answers still to lose) until
    /// [`release_sends`](Self::release_sends); a client's request timeout still applies.
    pub fn hold_sends(&self) {
        self.shared.sends.lock().unwrap().holding = true;
    }

    /// How many events sent are waiting now.
    pub fn held_sends(&self) -> usize {
        self.shared.sends.lock().unwrap().held
    }

    /// Lets the held events sent go on to Synapse, and the next ones pass.
    pub fn release_sends(&self) {
        self.shared.sends.lock().unwrap().holding = false;
        self.shared.sends_released.notify_waiters();
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn forward(State(shared): State<Arc<Shared>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let Ok(body) = to_bytes(body, MAX_BODY).await else { return StatusCode::PAYLOAD_TOO_LARGE.into_response() };
    let path_and_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let is_sync = parts.uri.path().ends_with("/sync");
    let is_send = parts.method == axum::http::Method::PUT && parts.uri.path().contains("/send/");
    let lose = is_send && shared.wait_to_send().await;
    let mut upstream = shared.client.request(parts.method, format!("{}{path_and_query}", shared.upstream)).body(body);
    for (name, value) in &parts.headers {
        if name != header::HOST {
            upstream = upstream.header(name, value);
        }
    }
    let response = match upstream.send().await {
        Ok(response) => response,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    if lose {
        tracing::debug!(target: "synapse_harness", "losing the answer to {}", parts.uri.path());
        let _ = response.bytes().await;
        return (StatusCode::BAD_GATEWAY, "the connection to the homeserver broke").into_response();
    }
    let (status, headers) = (response.status(), response.headers().clone());
    let bytes = match response.bytes().await {
        Ok(bytes) => bytes,
        Err(e) => return (StatusCode::BAD_GATEWAY, e.to_string()).into_response(),
    };
    let passed =
        (is_sync && status == StatusCode::OK).then(|| shared.state.lock().unwrap().pass_sync(&bytes)).flatten();
    let bytes = passed.unwrap_or_else(|| bytes.to_vec());
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    for (name, value) in &headers {
        if name != header::CONTENT_LENGTH && name != header::TRANSFER_ENCODING && name != header::CONNECTION {
            response.headers_mut().insert(name, value.clone());
        }
    }
    response
}

impl Shared {
    /// An event sent: whether its answer is to be lost; otherwise it waits while sends are held.
    async fn wait_to_send(&self) -> bool {
        let mut waiting: Option<Waiting> = None;
        loop {
            // Registered before the state is read, so a release in between is not missed.
            let released = self.sends_released.notified();
            {
                let mut sends = self.sends.lock().unwrap();
                if sends.to_lose > 0 {
                    sends.to_lose -= 1;
                    sends.lost += 1;
                    return true;
                }
                if !sends.holding {
                    return false;
                }
                if waiting.is_none() {
                    sends.held += 1;
                    waiting = Some(Waiting(self));
                }
            }
            released.await;
        }
    }
}

/// A held send, counted until it goes on or its client gives up (the request dropped).
struct Waiting<'a>(&'a Shared);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.sends.lock().unwrap().held -= 1;
    }
}

impl Held {
    /// A sync response on its way: its to-device messages held back while holding, the held ones
    /// put in front of its own once released. `None` leaves it as it is.
    fn pass_sync(&mut self, body: &[u8]) -> Option<Vec<u8>> {
        let mut sync: Value = serde_json::from_slice(body).ok()?;
        let events = sync.pointer_mut("/to_device/events").and_then(Value::as_array_mut).map(std::mem::take);
        let mut events = events.unwrap_or_default();
        if self.holding {
            if !events.is_empty() {
                tracing::debug!(target: "synapse_harness", "holding back {} to-device messages", events.len());
            }
            self.events.append(&mut events);
        } else {
            if !self.events.is_empty() {
                tracing::debug!(target: "synapse_harness", "handing over {} held to-device messages", self.events.len());
            }
            let mut all = std::mem::take(&mut self.events);
            all.append(&mut events);
            events = all;
        }
        if !events.is_empty() {
            sync["to_device"] = json!({ "events": events });
        } else if let Some(to_device) = sync.get_mut("to_device") {
            to_device["events"] = json!([]);
        }
        serde_json::to_vec(&sync).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_to_device_messages_come_with_a_later_sync_in_order() {
        let mut proxy = Held { holding: true, ..Held::default() };
        let first = json!({ "next_batch": "s1", "to_device": { "events": [{ "n": 1 }, { "n": 2 }] } });
        let out: Value = serde_json::from_slice(&proxy.pass_sync(first.to_string().as_bytes()).unwrap()).unwrap();
        assert_eq!(out["to_device"]["events"], json!([]));
        assert_eq!(out["next_batch"], "s1", "everything else passes");
        proxy.holding = false;
        let second = json!({ "next_batch": "s2", "to_device": { "events": [{ "n": 3 }] } });
        let out: Value = serde_json::from_slice(&proxy.pass_sync(second.to_string().as_bytes()).unwrap()).unwrap();
        assert_eq!(out["to_device"]["events"], json!([{ "n": 1 }, { "n": 2 }, { "n": 3 }]));
        let third = json!({ "next_batch": "s3" });
        let out: Value = serde_json::from_slice(&proxy.pass_sync(third.to_string().as_bytes()).unwrap()).unwrap();
        assert!(out.get("to_device").is_none(), "nothing held, nothing added");
    }
}

//! What the harness's Synapse is told to leave out (`config.rs`: push rules and notification
//! counts, the search index), checked against the running server: a setting Synapse did not
//! understand would be ignored without a word; and push turned on where a test asks for it.

use serde_json::{Value, json};
use synapse_harness::{RegisteredUser, Settings, Synapse};

/// One client-server call as `token` (none: logging in): the status and the JSON answer.
fn call(synapse: &Synapse, method: &str, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    let url = format!("{}/_matrix/client/v3/{path}", synapse.homeserver_url());
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let auth = token.map(|t| format!("Bearer {t}")).unwrap_or_default();
    let answer = match method {
        "GET" => agent.get(&url).header("Authorization", &auth).call(),
        "PUT" => agent.put(&url).header("Authorization", &auth).send_json(body),
        _ => agent.post(&url).header("Authorization", &auth).send_json(body),
    };
    let mut answer = answer.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    (answer.status().as_u16(), answer.body_mut().read_json().unwrap_or(Value::Null))
}

fn log_in(synapse: &Synapse, user: &RegisteredUser) -> String {
    let login = json!({"type": "m.login.password", "identifier": {"type": "m.id.user", "user": user.localpart},
                       "password": user.password});
    let (status, answer) = call(synapse, "POST", "login", None, &login);
    assert_eq!(status, 200, "{answer}");
    answer["access_token"].as_str().unwrap().to_string()
}

/// Bob's message naming alice in a room of the two, and alice's sync after it: the room's unread
/// counts for her (`notification_count`, `highlight_count`), and her access token.
fn bob_names_alice(synapse: &Synapse) -> ((u64, u64), String) {
    let users = synapse.register_users(&["alice", "bob"]).unwrap_or_else(|e| panic!("{e}"));
    let (alice, bob) = (log_in(synapse, &users[0]), log_in(synapse, &users[1]));
    let (status, made) = call(synapse, "POST", "createRoom", Some(&alice), &json!({"invite": [users[1].user_id]}));
    assert_eq!(status, 200, "{made}");
    let room = made["room_id"].as_str().unwrap().to_string();
    let in_path = room.replace('!', "%21").replace(':', "%3A");
    let (status, joined) = call(synapse, "POST", &format!("join/{in_path}"), Some(&bob), &json!({}));
    assert_eq!(status, 200, "{joined}");
    let message =
        json!({"msgtype": "m.text", "body": "alice: your move", "m.mentions": {"user_ids": [users[0].user_id]}});
    let (status, sent) = call(synapse, "PUT", &format!("rooms/{in_path}/send/m.room.message/t1"), Some(&bob), &message);
    assert_eq!(status, 200, "{sent}");

    let (status, synced) = call(synapse, "GET", "sync?timeout=0", Some(&alice), &Value::Null);
    assert_eq!(status, 200, "{synced}");
    let in_room = &synced["rooms"]["join"][&room];
    let events = in_room["timeline"]["events"].as_array().unwrap();
    assert!(events.iter().any(|e| e["event_id"] == sent["event_id"]), "the message reached alice: {in_room}");
    let counts = &in_room["unread_notifications"];
    let count = |name: &str| counts[name].as_u64().unwrap_or(0);
    ((count("notification_count"), count("highlight_count")), alice)
}

/// The rows of Synapse's table of notifications (`event_push_actions`) for alice.
fn alices_push_actions(synapse: &Synapse) -> u64 {
    let sql = "SELECT count(*) FROM event_push_actions WHERE user_id = '@alice:localhost'";
    synapse.query_number(sql).unwrap_or_else(|e| panic!("{e}"))
}

/// A message that names alice in a room of two would count as a notification for her under
/// Synapse's default push rules (`.m.rule.is_user_mention`, `.m.rule.room_one_to_one`); with push
/// off nothing is counted, and a search is refused instead of answered from an index.
#[test]
fn the_server_counts_no_notifications_and_keeps_no_search_index() {
    let synapse = Synapse::start().unwrap_or_else(|e| panic!("{e}"));
    let (counts, alice) = bob_names_alice(&synapse);
    assert_eq!(counts, (0, 0), "(notifications, highlights)");
    assert_eq!(alices_push_actions(&synapse), 0);

    let search = json!({"search_categories": {"room_events": {"search_term": "move"}}});
    let (status, answer) = call(&synapse, "POST", "search", Some(&alice), &search);
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"].as_str().unwrap_or_default().contains("disabled"), "{answer}");
}

/// With push on (`Settings::push`, as a homeserver of people runs), the same message counts for
/// alice: a notification and a highlight, and a row in Synapse's table of them.
#[test]
fn with_push_on_the_server_counts_notifications() {
    let synapse = Synapse::start_with(Settings { push: true, ..Settings::default() }).unwrap_or_else(|e| panic!("{e}"));
    let (counts, _) = bob_names_alice(&synapse);
    assert_eq!(counts, (1, 1), "(notifications, highlights)");
    assert_eq!(alices_push_actions(&synapse), 1);
}

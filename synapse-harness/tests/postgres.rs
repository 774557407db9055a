//! Synapse on PostgreSQL (the PostgreSQL harness's server, through its Unix socket): it starts,
//! keeps its users in that database and nowhere else, keeps them across a restart, and forgets its
//! transaction ids there.

use pg_harness::{PgServer, TestDatabase};
use serde_json::{Value, json};
use synapse_harness::{Database, PostgresDatabase, RegisteredUser, Synapse};

/// How Synapse reaches `database`: through the server's socket when it has one.
fn synapse_database(server: &PgServer, database: &TestDatabase<'_>) -> PostgresDatabase {
    let config = database.config();
    PostgresDatabase {
        host: server.socket_dir().map_or("127.0.0.1".into(), |dir| dir.to_string_lossy().into_owned()),
        port: server.port(),
        user: config.get_user().unwrap_or_default().to_string(),
        password: String::from_utf8_lossy(config.get_password().unwrap_or_default()).into_owned(),
        dbname: database.name().to_string(),
    }
}

fn users_in(database: &TestDatabase<'_>) -> Vec<String> {
    let mut client = database.connect().unwrap_or_else(|e| panic!("{e}"));
    let rows = client.query("SELECT name FROM users ORDER BY name", &[]).unwrap();
    rows.iter().map(|row| row.get(0)).collect()
}

/// One client-server call as `token` (none: logging in); its JSON answer.
fn call(synapse: &Synapse, method: &str, path: &str, token: Option<&str>, body: &Value) -> Value {
    let url = format!("{}/_matrix/client/v3/{path}", synapse.homeserver_url());
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(true).build().into();
    let auth = token.map(|t| format!("Bearer {t}")).unwrap_or_default();
    let answer = match method {
        "PUT" => agent.put(&url).header("Authorization", &auth).send_json(body),
        _ => agent.post(&url).header("Authorization", &auth).send_json(body),
    };
    answer.unwrap_or_else(|e| panic!("{method} {path}: {e}")).body_mut().read_json().unwrap()
}

/// Logs `user` in, makes a room and sends one message into it with a transaction id.
fn send_a_message(synapse: &Synapse, user: &RegisteredUser) {
    let login = json!({"type": "m.login.password", "identifier": {"type": "m.id.user", "user": user.localpart},
                       "password": user.password});
    let token = call(synapse, "POST", "login", None, &login)["access_token"].as_str().unwrap().to_string();
    let room = call(synapse, "POST", "createRoom", Some(&token), &json!({}))["room_id"].as_str().unwrap().to_string();
    let path = format!("rooms/{}/send/m.room.message/txn-1", room.replace('!', "%21").replace(':', "%3A"));
    let sent = call(synapse, "PUT", &path, Some(&token), &json!({"msgtype": "m.text", "body": "hello"}));
    assert!(sent["event_id"].is_string(), "{sent}");
}

#[test]
fn synapse_keeps_its_data_in_the_postgres_database_it_is_given() {
    let server = PgServer::start().unwrap_or_else(|e| panic!("{e}"));
    let database = server.create_database().unwrap_or_else(|e| panic!("{e}"));
    let given = synapse_database(&server, &database);
    let mut synapse = Synapse::start_on(Database::Postgres(given.clone())).unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(synapse.database(), Database::Postgres(pg) if pg.dbname == given.dbname));
    // Nothing of it in a SQLite file beside its configuration.
    assert!(!synapse.data_dir().join("homeserver.db").exists());
    let config = std::fs::read_to_string(synapse.data_dir().join("homeserver.yaml")).unwrap();
    assert!(config.contains("name: psycopg2"), "{config}");

    let registered = synapse.register_users(&["bot", "alice"]).unwrap_or_else(|e| panic!("{e}"));
    let users = users_in(&database);
    assert!(
        users.contains(&"@alice:localhost".to_string()) && users.contains(&"@bot:localhost".to_string()),
        "{users:?}"
    );

    synapse.restart().unwrap_or_else(|e| panic!("{e}"));
    let again = synapse.register_user("alice", false).unwrap_err();
    assert!(again.reason().contains("User ID already taken"), "{again}");

    // An event sent with a transaction id leaves its mapping in PostgreSQL, and forgetting the
    // transaction ids deletes it there.
    send_a_message(&synapse, &registered[1]);
    let mappings = |database: &TestDatabase<'_>| -> i64 {
        let mut client = database.connect().unwrap();
        client.query_one("SELECT count(*) FROM event_txn_id_device_id", &[]).unwrap().get(0)
    };
    assert_eq!(mappings(&database), 1);
    assert_eq!(synapse.forget_transaction_ids().unwrap_or_else(|e| panic!("{e}")), 1);
    assert!(synapse.is_running());
    assert_eq!(mappings(&database), 0);
    synapse.stop().unwrap();
}

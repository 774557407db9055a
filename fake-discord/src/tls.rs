//! The fake as `https://discord.com` itself: the same routes over TLS, with a certificate for
//! `discord.com` issued per run by a throwaway authority. A client that resolves `discord.com` to
//! the fake and trusts that authority talks to it exactly as to Discord — no proxy, so serenity's
//! own rate limiter stays on, as in production.

use std::net::SocketAddr;
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// Where the fake answers as `discord.com`, and the authority a client must trust for it.
#[derive(Clone, Debug)]
pub struct DiscordCom {
    /// The address `discord.com` must resolve to (port 443 is not ours to take).
    pub addr: SocketAddr,
    /// The issuing authority's certificate (DER).
    pub authority: Vec<u8>,
}

/// A certificate for `discord.com` and its key, and the authority that issued it.
pub(crate) struct Credentials {
    pub authority: CertificateDer<'static>,
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

/// Issues a fresh authority and a certificate for `discord.com` signed by it.
pub(crate) fn issue() -> Credentials {
    let mut ca = CertificateParams::new(Vec::<String>::new()).expect("authority parameters");
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let authority = CertifiedIssuer::self_signed(ca, KeyPair::generate().expect("a key")).expect("an authority");
    let key = KeyPair::generate().expect("a key");
    let leaf = CertificateParams::new(vec!["discord.com".to_string()]).expect("certificate parameters");
    let cert = leaf.signed_by(&key, &authority).expect("a certificate");
    Credentials {
        authority: authority.der().clone(),
        chain: vec![cert.der().clone(), authority.der().clone()],
        key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
    }
}

/// A TLS acceptor for `credentials`, speaking HTTP/1.1.
pub(crate) fn acceptor(credentials: &Credentials) -> TlsAcceptor {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(credentials.chain.clone(), credentials.key.clone_key())
        .expect("a certificate that matches its key");
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    TlsAcceptor::from(Arc::new(config))
}

/// A TCP listener whose connections are accepted after their TLS handshake.
pub(crate) struct TlsListener {
    pub tcp: TcpListener,
    pub acceptor: TlsAcceptor,
}

impl axum::serve::Listener for TlsListener {
    type Io = TlsStream<TcpStream>;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        loop {
            let (tcp, addr) = match self.tcp.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::debug!(target: "fake_discord", "accept failed: {error}");
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                    continue;
                }
            };
            let _ = tcp.set_nodelay(true);
            match self.acceptor.accept(tcp).await {
                Ok(tls) => return (tls, addr),
                Err(error) => tracing::debug!(target: "fake_discord", "TLS handshake failed: {error}"),
            }
        }
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

//! TLS to PostgreSQL: libpq's `sslmode` and `sslrootcert` read from the `db` setting, and a rustls
//! connector for the driver that does what libpq does with them.
//!
//! The driver (`tokio-postgres`) knows `sslmode` `disable`, `prefer` and `require` only, and
//! leaves checking the server's certificate to the connector. So the two parameters are taken out of
//! the URL here, and the connector is built to match libpq's meaning of each mode
//! (<https://www.postgresql.org/docs/current/libpq-ssl.html>):
//!
//! | `sslmode` | encrypted | the server's certificate |
//! | --- | --- | --- |
//! | `disable` | never | — |
//! | `allow`, `prefer` (the default) | if the server offers it | not checked |
//! | `require` | always | not checked, unless a root certificate is given (then as `verify-ca`) |
//! | `verify-ca` | always | issued by a trusted authority |
//! | `verify-full` | always | issued by a trusted authority, for the host connected to |
//!
//! The trusted authorities are `sslrootcert`: a PEM file, or `system` for the system's own; without
//! it, libpq's default file `~/.postgresql/root.crt`. Only `verify-full` protects against someone
//! in the middle; `docs/postgres.md` says how to turn it on.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use r2d2_postgres::postgres::config::SslMode;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{WebPkiSupportedAlgorithms, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres_rustls::MakeRustlsConnect;

/// The driver's TLS connector, as the store's pool uses it.
pub type Connector = MakeRustlsConnect;

/// libpq's `sslmode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Disable,
    Allow,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(value: &str) -> Result<Mode, String> {
        Ok(match value {
            "disable" => Mode::Disable,
            "allow" => Mode::Allow,
            "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            _ => {
                return Err(format!(
                    "sslmode `{value}` is none of disable, allow, prefer, require, verify-ca, verify-full"
                ));
            }
        })
    }

    /// What the driver is told: whether TLS is tried, required or never used.
    pub fn driver_mode(self) -> SslMode {
        match self {
            Mode::Disable => SslMode::Disable,
            Mode::Allow | Mode::Prefer => SslMode::Prefer,
            Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
        }
    }
}

/// Where the trusted authorities come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootCert {
    /// A PEM file of one or more certificates.
    File(PathBuf),
    /// The system's trusted authorities (`sslrootcert=system`).
    System,
}

/// The TLS part of a `db` setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    /// `sslrootcert` as given; `None` means libpq's default file.
    pub root_cert: Option<RootCert>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { mode: Mode::Prefer, root_cert: None }
    }
}

/// Takes `sslmode` and `sslrootcert` out of a `postgres://` URL's query or a key=value connection
/// string, and returns the rest (for the driver's parser) and the TLS settings. The message of an
/// error never repeats the setting (it may hold a password).
pub fn split(url: &str) -> Result<(String, Settings), String> {
    let mut settings = Settings::default();
    let mut take = |key: &str, value: String| -> Result<bool, String> {
        match key {
            "sslmode" => settings.mode = Mode::parse(&value)?,
            "sslrootcert" if value == "system" => settings.root_cert = Some(RootCert::System),
            "sslrootcert" => settings.root_cert = Some(RootCert::File(PathBuf::from(value))),
            _ => return Ok(false),
        }
        Ok(true)
    };
    let rest = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        split_url_query(url, &mut take)?
    } else {
        split_key_values(url, &mut take)?
    };
    Ok((rest, settings))
}

/// The URL without the query parameters `take` takes (it is given each decoded key and value).
fn split_url_query(url: &str, take: &mut impl FnMut(&str, String) -> Result<bool, String>) -> Result<String, String> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok(url.to_string());
    };
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !take(&percent_decode(key)?, percent_decode(value)?)? {
            kept.push(pair);
        }
    }
    Ok(if kept.is_empty() { base.to_string() } else { format!("{base}?{}", kept.join("&")) })
}

fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or("a bad %-escape in the URL's query")?;
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the URL's query is not UTF-8".to_string())
}

/// The key=value string without the pairs `take` takes. Values are read as libpq reads them:
/// single-quoted (with `\'` and `\\`) or up to the next space (with backslash escapes).
fn split_key_values(text: &str, take: &mut impl FnMut(&str, String) -> Result<bool, String>) -> Result<String, String> {
    let mut kept = String::new();
    let mut chars = text.char_indices().peekable();
    loop {
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let Some(&(start, _)) = chars.peek() else { break };
        let mut key = String::new();
        while let Some((_, c)) = chars.next_if(|(_, c)| *c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        if chars.next_if(|(_, c)| *c == '=').is_none() {
            return Err(format!("`{key}` in the connection string has no `=` after it"));
        }
        while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if(|(_, c)| *c == '\'').is_some() {
            loop {
                match chars.next() {
                    Some((_, '\'')) => break,
                    Some((_, '\\')) => value.extend(chars.next().map(|(_, c)| c)),
                    Some((_, c)) => value.push(c),
                    None => return Err("a quoted value in the connection string is not closed".into()),
                }
            }
        } else {
            while let Some((_, c)) = chars.next_if(|(_, c)| !c.is_whitespace()) {
                if c == '\\' {
                    value.extend(chars.next().map(|(_, c)| c));
                } else {
                    value.push(c);
                }
            }
        }
        let end = chars.peek().map_or(text.len(), |&(i, _)| i);
        if !take(&key, value)? {
            if !kept.is_empty() {
                kept.push(' ');
            }
            kept.push_str(text[start..end].trim_end());
        }
    }
    Ok(kept)
}

/// The connector for `settings`: a rustls client on the ring provider, checking the server's
/// certificate as the mode asks.
pub fn connector(settings: &Settings) -> Result<Connector, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let roots = match (settings.mode, &settings.root_cert) {
        (Mode::VerifyCa | Mode::VerifyFull, root_cert) => Some(load_roots(root_cert.as_ref(), true)?),
        // As libpq: `require` with a root certificate checks like `verify-ca`.
        (Mode::Require, Some(root_cert)) => Some(load_roots(Some(root_cert), true)?),
        (Mode::Require, None) => load_roots(None, false).ok().filter(|roots| !roots.is_empty()),
        _ => None,
    };
    let authority = match roots {
        None => None,
        Some(roots) => Some(
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider.clone())
                .build()
                .map_err(|e| format!("cannot use the root certificates: {e}"))?,
        ),
    };
    let verifier: Arc<dyn ServerCertVerifier> = match authority {
        Some(full) if settings.mode == Mode::VerifyFull => full,
        authority => Arc::new(Lenient { authority, algorithms: provider.signature_verification_algorithms }),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// The trusted authorities: `root_cert`, or libpq's default file. `required`: a missing default
/// file is an error (for the modes that check).
fn load_roots(root_cert: Option<&RootCert>, required: bool) -> Result<RootCertStore, String> {
    let mut roots = RootCertStore::empty();
    match root_cert {
        Some(RootCert::System) => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 {
                return Err("sslrootcert=system: the system has no trusted authorities to read".into());
            }
        }
        Some(RootCert::File(path)) => add_pem_file(&mut roots, path)?,
        None => {
            let default = std::env::var_os("HOME").map(|home| Path::new(&home).join(".postgresql/root.crt"));
            match default.filter(|path| path.is_file()) {
                Some(path) => add_pem_file(&mut roots, &path)?,
                None if required => {
                    return Err("checking the server's certificate needs its authority: set sslrootcert=/path/to/ca.pem (or sslrootcert=system) in the db URL".into());
                }
                None => {}
            }
        }
    }
    Ok(roots)
}

fn add_pem_file(roots: &mut RootCertStore, path: &Path) -> Result<(), String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read the root certificates in {}: {e}", path.display()))?;
    let (added, _) = roots.add_parsable_certificates(certs);
    if added == 0 {
        return Err(format!("{} holds no certificate", path.display()));
    }
    Ok(())
}

/// The modes that do not check the host name: `prefer` and `require` without an authority check
/// nothing of the certificate (libpq's meaning), `verify-ca` its chain to a trusted authority only.
/// The handshake's signatures are checked in every mode.
#[derive(Debug)]
struct Lenient {
    /// `verify-ca`'s checker (its host-name errors are ignored); `None` checks no certificate.
    authority: Option<Arc<WebPkiServerVerifier>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(authority) = &self.authority else { return Ok(ServerCertVerified::assertion()) };
        // The WebPKI verifier checks the chain before the name, so a name error means a good chain.
        match authority.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_ok(url: &str) -> (String, Settings) {
        split(url).unwrap()
    }

    #[test]
    fn the_tls_parameters_leave_a_url_and_the_rest_stays() {
        let (rest, settings) = split_ok(
            "postgres://bob:pw@db.example:5433/capabot?sslmode=verify-full&application_name=x&sslrootcert=%2Fetc%2Fca.pem",
        );
        assert_eq!(rest, "postgres://bob:pw@db.example:5433/capabot?application_name=x");
        assert_eq!(settings.mode, Mode::VerifyFull);
        assert_eq!(settings.root_cert, Some(RootCert::File("/etc/ca.pem".into())));
        let (rest, settings) = split_ok("postgresql://bob@h/db?sslmode=require");
        assert_eq!((rest.as_str(), settings.mode, settings.root_cert), ("postgresql://bob@h/db", Mode::Require, None));
        let (rest, settings) = split_ok("postgres://bob@h/db");
        assert_eq!((rest.as_str(), settings), ("postgres://bob@h/db", Settings::default()));
    }

    #[test]
    fn the_tls_parameters_leave_a_key_value_string_and_the_rest_stays() {
        let (rest, settings) = split_ok(
            "host=db.example sslmode = verify-ca user=bob sslrootcert='/my certs/ca\\'s.pem' options='-c x=1'",
        );
        assert_eq!(rest, "host=db.example user=bob options='-c x=1'");
        assert_eq!(settings.mode, Mode::VerifyCa);
        assert_eq!(settings.root_cert, Some(RootCert::File("/my certs/ca's.pem".into())));
        let (rest, settings) = split_ok("host=h sslrootcert=system sslmode=verify-full");
        assert_eq!(
            (rest.as_str(), settings.mode, settings.root_cert),
            ("host=h", Mode::VerifyFull, Some(RootCert::System))
        );
    }

    #[test]
    fn a_bad_tls_parameter_is_refused_without_repeating_the_setting() {
        for url in [
            "postgres://bob:secret@h/db?sslmode=verify-everything",
            "postgres://bob:secret@h/db?sslmode=%zz",
            "host=h password=secret sslmode=sometimes",
            "host=h password='secret",
        ] {
            let error = split(url).unwrap_err();
            assert!(!error.contains("secret"), "{error}");
        }
    }

    #[test]
    fn each_mode_tells_the_driver_whether_tls_is_tried_or_required() {
        assert_eq!(Mode::Disable.driver_mode(), SslMode::Disable);
        assert_eq!(Mode::Prefer.driver_mode(), SslMode::Prefer);
        assert_eq!(Mode::Allow.driver_mode(), SslMode::Prefer);
        for mode in [Mode::Require, Mode::VerifyCa, Mode::VerifyFull] {
            assert_eq!(mode.driver_mode(), SslMode::Require);
        }
    }

    #[test]
    fn a_checking_mode_without_an_authority_is_refused_clearly() {
        let settings =
            Settings { mode: Mode::VerifyFull, root_cert: Some(RootCert::File("/nonexistent/ca.pem".into())) };
        let error = connector(&settings).err().unwrap();
        assert!(error.contains("/nonexistent/ca.pem"), "{error}");
    }
}

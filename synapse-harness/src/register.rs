//! Registering users through Synapse's shared-secret admin API
//! (`/_synapse/admin/v1/register`): fetch a nonce, then post the user with an HMAC-SHA1 of
//! nonce, name, password and admin flag keyed with `registration_shared_secret`.

use hmac::{Hmac, Mac};
use sha1::Sha1;

/// A user the harness registered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisteredUser {
    /// The local part, e.g. `bot`.
    pub localpart: String,
    /// The full Matrix id, e.g. `@bot:localhost`.
    pub user_id: String,
    /// The password to log in with.
    pub password: String,
}

/// The `mac` field of a registration request: lowercase hex HMAC-SHA1 over the NUL-separated
/// nonce, user name, password and `admin`/`notadmin`.
pub(crate) fn registration_mac(
    shared_secret: &str,
    nonce: &str,
    localpart: &str,
    password: &str,
    admin: bool,
) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(shared_secret.as_bytes()).expect("HMAC takes any key length");
    let role = if admin { "admin" } else { "notadmin" };
    for (i, part) in [nonce, localpart, password, role].into_iter().enumerate() {
        if i > 0 {
            mac.update(b"\0");
        }
        mac.update(part.as_bytes());
    }
    hex(&mac.finalize().into_bytes())
}

/// Lowercase hexadecimal.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mac_matches_one_computed_independently() {
        // Computed with Python: hmac.new(b"secret", b"abc\x00bot\x00pw\x00notadmin", hashlib.sha1)
        assert_eq!(registration_mac("secret", "abc", "bot", "pw", false), "bc97a1918bc67018ab6c9774cad19bcd9cd97b34");
    }
}

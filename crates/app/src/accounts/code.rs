//! One-time email codes: 6 random digits, kept only as a keyed hash (HMAC-SHA256 under a key
//! derived from the session secret, over the account id, the purpose and the code), so a copy
//! of the database does not give the codes away even though there are only a million of them.
//! Single use, expiring after [`CODE_TTL`], refused after [`CODE_MAX_ATTEMPTS`] wrong tries.

use chrono::Duration;
use freehire_domain::{CodePurpose, UserId};
use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

use super::SessionSecret;

/// Digits in a code (reference §15.4).
pub const CODE_DIGITS: usize = 6;
/// How long a code is accepted.
pub const CODE_TTL: Duration = Duration::minutes(15);
/// Wrong tries before a code is spent.
pub const CODE_MAX_ATTEMPTS: u32 = 5;

/// Makes and hashes codes under one key.
#[derive(Clone)]
pub struct CodeKey([u8; 32]);

impl std::fmt::Debug for CodeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CodeKey(***)")
    }
}

impl CodeKey {
    /// The key for codes, derived from the session secret (its own label, so a code hash is
    /// never a session signature).
    pub fn derive(secret: &SessionSecret) -> Self {
        Self(mac(secret.bytes(), b"freehire email codes v1"))
    }

    /// A fresh code.
    pub fn generate(&self) -> String {
        format!("{:06}", rand::rng().random_range(0..1_000_000u32))
    }

    /// The stored form of `code` for an account and purpose. The code is trimmed first, so a
    /// pasted code with spaces around it still matches.
    pub fn hash(&self, user: UserId, purpose: CodePurpose, code: &str) -> String {
        let message = format!("{}:{}:{}", user.get(), purpose.as_str(), code.trim());
        data_encoding::HEXLOWER.encode(&mac(&self.0, message.as_bytes()))
    }
}

/// Whether `code` has a code's shape: exactly six ASCII digits (after trimming).
pub fn looks_like_code(code: &str) -> bool {
    let code = code.trim();
    code.len() == CODE_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

fn mac(key: &[u8], message: &[u8]) -> [u8; 32] {
    #[allow(clippy::expect_used)] // HMAC takes keys of any length
    let mut mac = <Hmac<Sha256>>::new_from_slice(key).expect("HMAC accepts any key length");
    mac.update(message);
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use secrecy::SecretString;

    #[test]
    fn codes_are_six_digits_and_hash_per_account_and_purpose() {
        let key = CodeKey::derive(&SessionSecret::new(SecretString::from("s".repeat(32))).unwrap());
        let code = key.generate();
        assert!(looks_like_code(&code), "{code}");
        let (a, b) = (UserId::new(1).unwrap(), UserId::new(2).unwrap());
        let h = key.hash(a, CodePurpose::Verify, &code);
        assert_eq!(h, key.hash(a, CodePurpose::Verify, &format!(" {code} ")));
        assert_ne!(h, key.hash(b, CodePurpose::Verify, &code));
        assert_ne!(h, key.hash(a, CodePurpose::Reset, &code));
        let other =
            CodeKey::derive(&SessionSecret::new(SecretString::from("t".repeat(32))).unwrap());
        assert_ne!(h, other.hash(a, CodePurpose::Verify, &code));
        assert!(!looks_like_code("12345"));
        assert!(!looks_like_code("12345a"));
        assert!(!looks_like_code("１２３４５６"));
    }
}

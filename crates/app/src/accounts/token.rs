//! API key tokens: `fhk_` and 40 lower-case base32 characters (200 random bits), shown once.
//! The store keeps the SHA-256 of the whole token (hex) and its first [`PREFIX_CHARS`]
//! characters, which are not secret and tell keys apart in a list.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// Every token starts with this.
pub const TOKEN_PREFIX: &str = "fhk_";
/// Characters of a token kept in clear (the `fhk_` and 8 more).
pub const PREFIX_CHARS: usize = 12;
/// Random bytes in a token.
const TOKEN_BYTES: usize = 25;
/// Characters of a whole token.
pub const TOKEN_CHARS: usize = TOKEN_PREFIX.len() + 40;

/// A freshly minted token.
pub struct MintedToken {
    /// The whole token, to show once.
    pub token: String,
    /// SHA-256 of the token, hex.
    pub hash: String,
    /// The clear prefix.
    pub prefix: String,
}

/// Mints a token.
pub fn mint() -> MintedToken {
    let mut bytes = [0u8; TOKEN_BYTES];
    rand::rng().fill_bytes(&mut bytes);
    let body = data_encoding::BASE32_NOPAD.encode(&bytes).to_ascii_lowercase();
    let token = format!("{TOKEN_PREFIX}{body}");
    MintedToken { hash: hash(&token), prefix: token[..PREFIX_CHARS].to_owned(), token }
}

/// Whether `candidate` has a token's shape (checked before any lookup).
pub fn looks_like_token(candidate: &str) -> bool {
    candidate.len() == TOKEN_CHARS
        && candidate.starts_with(TOKEN_PREFIX)
        && candidate[TOKEN_PREFIX.len()..].bytes().all(|b| matches!(b, b'a'..=b'z' | b'2'..=b'7'))
}

/// SHA-256 of a token, hex: what the store keeps and looks up by.
pub fn hash(token: &str) -> String {
    data_encoding::HEXLOWER.encode(&Sha256::digest(token.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_tokens_have_the_documented_shape() {
        let a = mint();
        let b = mint();
        assert_ne!(a.token, b.token);
        assert!(looks_like_token(&a.token), "{}", a.token);
        assert_eq!(a.token.len(), TOKEN_CHARS);
        assert_eq!(a.prefix, a.token[..12]);
        assert_eq!(a.hash, hash(&a.token));
        assert_eq!(a.hash.len(), 64);
        assert!(!looks_like_token("fhk_short"));
        assert!(!looks_like_token(&a.token.to_uppercase()));
        assert!(!looks_like_token(&format!("xxx_{}", &a.token[4..])));
    }
}

//! Secret tokens: making them, storing only their hash, comparing them in constant time.

use sha2::{Digest, Sha256};

/// SHA-256 of a token, hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// A fresh secret token (256 random bits, hex).
pub fn new_token() -> String {
    use tabula_core::rand::RngExt;
    let mut rng = tabula_core::rand::rng();
    let bytes: [u8; 32] = rng.random();
    hex(&bytes)
}

/// Compares two secrets in time independent of where they differ (`subtle`'s constant-time
/// equality; only the lengths, which are public, are compared directly).
pub fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq;
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_equal_only_when_every_byte_is() {
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert!(same_secret(&t, &t.clone()));
        assert!(!same_secret(&t, &new_token()));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert!(same_secret("", ""));
        assert_eq!(hash_token("x"), hex(&Sha256::digest(b"x")));
    }
}

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

/// Compares two hex strings in time independent of where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

//! A player account as the rest of the server knows it.

/// An account: its opaque id and its name (as written at sign-up).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    pub id: String,
    pub name: String,
}

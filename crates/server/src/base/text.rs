//! Text shared by many receivers without copies: the messages rendered once for every socket of a
//! game (an update, an analysis's progress, a chat message). The services make it; the WebSocket
//! layer turns it into a frame (`transport::http`), so no service names the web framework's types.

use bytes::Bytes;

/// UTF-8 text in a reference-counted buffer: a clone is a count, not a copy. Made only from text, so
/// its bytes are always valid UTF-8.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedText(Bytes);

impl SharedText {
    /// The text's bytes (the same buffer).
    pub fn into_bytes(self) -> Bytes {
        self.0
    }
}

impl From<String> for SharedText {
    fn from(text: String) -> SharedText {
        SharedText(Bytes::from(text))
    }
}

impl From<&str> for SharedText {
    fn from(text: &str) -> SharedText {
        SharedText(Bytes::copy_from_slice(text.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::SharedText;

    #[test]
    fn a_clone_shares_the_buffer() {
        let a = SharedText::from("{\"type\":\"update\"}".to_string());
        let b = a.clone();
        let (a, b) = (a.into_bytes(), b.into_bytes());
        assert_eq!(&a[..], b"{\"type\":\"update\"}");
        assert_eq!(a.as_ptr(), b.as_ptr());
    }
}

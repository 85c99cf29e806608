//! Cyvasse, Caird's rules (placeholder until implemented).

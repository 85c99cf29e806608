//! Cyvasse "Strength & Trump" (placeholder until implemented).

//! Helpers shared by the Kyo test files.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use kyo::{Action, Kyo, KyoOptions};
use tabula_core::{ActionError, Actor, Game, Seat};

/// A position from explicit stacks with `to_move` to move. Adds a Gold King `DK` on A0 and a Red King
/// `dk` on J9 unless those squares are given.
pub fn pos_with(options: KyoOptions, stacks: &[(&str, &str)], to_move: u8) -> Kyo {
    let mut all: Vec<(&str, &str)> = Vec::new();
    if !stacks.iter().any(|(s, _)| *s == "A0") {
        all.push(("A0", "DK"));
    }
    if !stacks.iter().any(|(s, _)| *s == "J9") {
        all.push(("J9", "dk"));
    }
    all.extend_from_slice(stacks);
    Kyo::from_stacks(&options, &all, to_move).expect("valid test position")
}

pub fn pos(stacks: &[(&str, &str)], to_move: u8) -> Kyo {
    pos_with(KyoOptions::default(), stacks, to_move)
}

/// Parses and applies one action of the side to move.
pub fn act(g: &mut Kyo, text: &str) -> Result<(), ActionError> {
    let a = g.parse_action(text)?;
    let seat = g.to_move;
    g.apply(Actor::Seat(seat), &a)
}

/// Applies and panics on refusal.
pub fn play(g: &mut Kyo, text: &str) {
    if let Err(e) = act(g, text) {
        panic!("`{text}` refused: {e}\n{}", g.draw());
    }
}

/// Applies, expects a refusal, checks the state did not change, and returns the message.
pub fn refuse(g: &mut Kyo, text: &str) -> String {
    let before = g.clone();
    match act(g, text) {
        Ok(()) => panic!("`{text}` was accepted\n{}", before.draw()),
        Err(e) => {
            assert_eq!(*g, before, "a refused action changed the state");
            e.to_string()
        }
    }
}

/// The notations of the legal actions whose source is `sq`.
pub fn legal_from(g: &Kyo, sq: &str) -> Vec<String> {
    let sq: kyo::Sq = sq.parse().unwrap();
    legal(g)
        .into_iter()
        .filter(|a| match a {
            Action::Step { from, .. } | Action::Deploy { from, .. } => *from == sq,
            Action::Shuffle { at, .. } => *at == sq,
            Action::EndTurn => false,
        })
        .map(|a| g.action_notation(&a))
        .collect()
}

pub fn legal(g: &Kyo) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(g.to_move, &mut v);
    v
}

/// The stack code on a square.
pub fn at(g: &Kyo, sq: &str) -> String {
    g.board.cell(sq.parse().unwrap()).code()
}

pub fn gold() -> Seat {
    Seat(0)
}
pub fn red() -> Seat {
    Seat(1)
}

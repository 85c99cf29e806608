//! Why a click leads to no legal action (`Game::explain_cells` through the shared checks of
//! `tabula_core::dynamic::explain_cells`), on built positions: the engine's own refusal in a player's
//! words, and nothing when the cells do lead to a legal action.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use kyo::{Kyo, KyoOptions};
use tabula_core::dynamic::explain_cells;
use tabula_core::{Game, Seat};

fn why(g: &Kyo, seat: Seat, cells: &[&str]) -> Option<String> {
    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    explain_cells(g, seat, &cells)
}

#[test]
fn a_light_pawn_two_squares_away_cannot_make_mana_moves() {
    let g = pos(&[("C3", "P")], 0);
    assert_eq!(
        why(&g, gold(), &["C3", "C5"]).as_deref(),
        Some("A Light Pawn steps one square: it cannot make Mana moves")
    );
    // One square on is a legal direct move: nothing to explain.
    assert_eq!(why(&g, gold(), &["C3", "C4"]), None);
    assert_eq!(why(&g, gold(), &["C3"]), None);
}

#[test]
fn another_pawn_two_squares_away_steps_one_square() {
    let g = pos(&[("C3", "H")], 0);
    assert_eq!(
        why(&g, gold(), &["C3", "C5"]).as_deref(),
        Some("A pawn steps one square (a Mana move lets it step on)")
    );
}

#[test]
fn an_opponents_piece_is_named_with_its_side() {
    let g = pos(&[("C3", "P"), ("E6", "dh")], 0);
    assert_eq!(
        why(&g, gold(), &["E6"]).as_deref(),
        Some("That is Red's Heavy")
    );
    assert_eq!(
        why(&g, gold(), &["J9"]).as_deref(),
        Some("That is Red's King")
    );
}

#[test]
fn an_empty_square_and_enemy_chips_say_what_is_there() {
    let g = pos(&[("C3", "P"), ("E6", "dd")], 0);
    assert_eq!(
        why(&g, gold(), &["E5"]).as_deref(),
        Some("E5 is empty: pick one of Gold's pieces")
    );
    assert_eq!(
        why(&g, gold(), &["E6"]).as_deref(),
        Some("The top chip on E6 is Red's: nothing there can be lifted")
    );
}

#[test]
fn a_light_pawn_that_cannot_outnumber_is_told_the_count() {
    let g = pos(&[("C3", "P"), ("C4", "dh")], 0);
    let reason = why(&g, gold(), &["C3", "C4"]).expect("a reason");
    assert!(
        reason.starts_with("Light Pawn outnumbering fails"),
        "{reason}"
    );
}

#[test]
fn a_pawn_never_steps_onto_its_own_pawn() {
    let g = pos(&[("C3", "H"), ("C4", "H")], 0);
    assert_eq!(
        why(&g, gold(), &["C3", "C4"]).as_deref(),
        Some("A pawn never steps onto its own side's pawn")
    );
}

#[test]
fn after_a_mana_move_the_turn_belongs_to_that_piece() {
    let mut g = pos(&[("C4", "DDLH"), ("F2", "H")], 0);
    play(&mut g, "C4/1>C5");
    assert_eq!(
        why(&g, gold(), &["F2"]).as_deref(),
        Some("This turn belongs to the piece on C5: only it may act until the turn ends")
    );
}

#[test]
fn the_seat_not_to_move_is_told_whose_turn_it_is_and_a_finished_game_says_so() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    assert_eq!(
        why(&g, red(), &["A8"]).as_deref(),
        Some("It is not your turn: Gold is to act")
    );
    let mut over = pos(&[("C3", "H"), ("C4", "dh")], 0);
    over.outcome = Some(tabula_core::Outcome::draw(2, "test"));
    assert_eq!(
        why(&over, gold(), &["C3"]).as_deref(),
        Some("The game is over")
    );
}

#[test]
fn unknown_cells_and_longer_paths_get_no_reason() {
    let g = pos(&[("C3", "P")], 0);
    assert_eq!(why(&g, gold(), &["Z9"]), None);
    assert_eq!(why(&g, gold(), &["C3", "C4", "C5"]), None);
    assert_eq!(why(&g, gold(), &[]), None);
    assert_eq!(why(&g, Seat(7), &["C3"]), None);
}

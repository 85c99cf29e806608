//! Why a click on a point leads to no legal action (`Game::explain_cells` through the shared checks
//! of `tabula_core::dynamic::explain_cells`), on built positions: the engine's own refusal, reasoned
//! from the seat's own hand and the public board only.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use tabula_core::Seat;
use tabula_core::dynamic::explain_cells;
use territories::{Piece, Territories};

fn why(g: &Territories, seat: Seat, cell: &str) -> Option<String> {
    explain_cells(g, seat, &[cell.to_string()])
}

#[test]
fn a_town_nobody_can_pay_for_says_what_it_costs() {
    let g = main_phase(5);
    assert_eq!(why(&g, W, "1,1").as_deref(), Some("A Town costs H S C D"));
    assert_eq!(
        why(&g, W, "9,9").as_deref(),
        Some("9,9 is not an intersection of the grid")
    );
}

#[test]
fn an_opponents_building_and_an_unaffordable_upgrade_are_explained() {
    let mut g = main_phase(5);
    put(&mut g, B, Piece::Town, (2, 2));
    put(&mut g, W, Piece::Town, (3, 1));
    assert_eq!(why(&g, W, "2,2").as_deref(), Some("That is Black's town"));
    assert_eq!(
        why(&g, W, "3,1").as_deref(),
        Some("You cannot pay for a fort")
    );
}

#[test]
fn the_reason_never_depends_on_the_opponents_hand() {
    let mut g = main_phase(5);
    put(&mut g, W, Piece::Town, (3, 1));
    let before: Vec<Option<String>> = ["1,1", "3,1", "2,2", "0,0"]
        .iter()
        .map(|c| why(&g, W, c))
        .collect();
    give(&mut g, B, "HHHHSSSSCCDD");
    hand_card(&mut g, B, "2C");
    let after: Vec<Option<String>> = ["1,1", "3,1", "2,2", "0,0"]
        .iter()
        .map(|c| why(&g, W, c))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn the_seat_not_to_act_is_told_whose_turn_it_is() {
    let g = main_phase(5);
    assert_eq!(
        why(&g, B, "1,1").as_deref(),
        Some("It is not your turn: White is to act")
    );
}

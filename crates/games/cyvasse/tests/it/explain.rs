//! Why a click leads to no legal action (`Game::explain_cells` through the shared checks of
//! `tabula_core::dynamic::explain_cells`), on built positions of Strength & Trump Cyvasse: the
//! engine's own refusal, and nothing at all during the hidden setup.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::trump::{TrumpCyvasse, TrumpOptions};
use tabula_core::dynamic::explain_cells;
use tabula_core::{Game, Seat};

const SOUTH: Seat = Seat(0);
const NORTH: Seat = Seat(1);

fn pos(pieces: &[(&str, &str)], to_move: Seat) -> TrumpCyvasse {
    let mut all: Vec<(&str, &str)> = pieces.to_vec();
    all.push(("k6", "K"));
    all.push(("a1", "k"));
    TrumpCyvasse::play_position(&TrumpOptions::default(), &all, to_move).unwrap()
}

fn why(g: &TrumpCyvasse, seat: Seat, cells: &[&str]) -> Option<String> {
    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    explain_cells(g, seat, &cells)
}

#[test]
fn an_opponents_unit_a_mountain_and_an_empty_hex_are_named() {
    let g = pos(&[("c3", "S"), ("f6", "M")], SOUTH);
    assert_eq!(
        why(&g, SOUTH, &["a1"]).as_deref(),
        Some("That is North's King")
    );
    assert_eq!(
        why(&g, SOUTH, &["f6"]).as_deref(),
        Some("f6 is a mountain: it never moves")
    );
    assert_eq!(
        why(&g, SOUTH, &["e5"]).as_deref(),
        Some("e5 is empty: pick one of South's units")
    );
}

#[test]
fn a_move_out_of_reach_gets_the_engines_refusal() {
    let g = pos(&[("c3", "S"), ("f6", "M")], SOUTH);
    let reason = why(&g, SOUTH, &["c3", "h8"]).expect("a reason");
    assert_eq!(
        reason,
        "The Spearman on c3 cannot reach h8 through empty hexes"
    );
    assert_eq!(
        why(&g, SOUTH, &["c3", "f6"]).as_deref(),
        Some("f6 is a Mountain: Mountains are impassable and never captured")
    );
}

#[test]
fn the_seat_not_to_move_is_told_whose_turn_it_is() {
    let g = pos(&[("c3", "S")], SOUTH);
    assert_eq!(
        why(&g, NORTH, &["a1"]).as_deref(),
        Some("It is not your turn: South is to act")
    );
}

#[test]
fn the_hidden_setup_gets_no_reason_so_nothing_of_the_other_army_leaks() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    // North commits its army; South, still placing, learns nothing of it by clicking.
    let mut north = Vec::new();
    g.legal_actions(NORTH, &mut north);
    let army = north.into_iter().next().expect("a listed setup");
    g.apply(tabula_core::Actor::Seat(NORTH), &army).unwrap();
    for cell in ["a1", "c3", "f6", "h8", "k6", "e10"] {
        assert_eq!(why(&g, SOUTH, &[cell]), None, "{cell}");
        assert_eq!(why(&g, SOUTH, &["c3", cell]), None, "{cell}");
    }
}

mod caird {
    use cyvasse::caird::{CairdCyvasse, CairdOptions};
    use tabula_core::Seat;

    use super::why_in;

    const WHITE: Seat = Seat(0);
    const BLACK: Seat = Seat(1);

    fn game(pieces: &[(&str, char)], to_move: Seat) -> CairdCyvasse {
        CairdCyvasse::from_placements(&CairdOptions::default(), pieces, &[], to_move).unwrap()
    }

    #[test]
    fn an_opponents_piece_and_an_empty_cell_are_named() {
        let g = game(&[("a1", 'K'), ("h8", 'k'), ("d4", 'r')], WHITE);
        assert_eq!(
            why_in(&g, WHITE, &["h8"]).as_deref(),
            Some("That is Black's King")
        );
        assert_eq!(
            why_in(&g, WHITE, &["e5"]).as_deref(),
            Some("e5 is empty: pick one of White's pieces")
        );
        assert_eq!(
            why_in(&g, BLACK, &["a1"]).as_deref(),
            Some("It is not your turn: White is to act")
        );
    }

    #[test]
    fn a_move_out_of_reach_gets_the_engines_refusal_without_the_notation() {
        let g = game(&[("a1", 'K'), ("h8", 'k')], WHITE);
        let reason = why_in(&g, WHITE, &["a1", "a5"]).expect("a reason");
        assert!(
            reason.starts_with("The King on a1 cannot reach a5"),
            "{reason}"
        );
    }

    #[test]
    fn the_hidden_setup_gets_no_reason() {
        use tabula_core::{Actor, Game};
        let mut g = CairdCyvasse::new(&CairdOptions::default()).unwrap();
        let mut black = Vec::new();
        g.legal_actions(BLACK, &mut black);
        let setup = black.into_iter().next().expect("a listed setup");
        g.apply(Actor::Seat(BLACK), &setup).unwrap();
        for cell in ["a1", "e5", "h8", "d7"] {
            assert_eq!(why_in(&g, WHITE, &[cell]), None, "{cell}");
            assert_eq!(why_in(&g, WHITE, &["a2", cell]), None, "{cell}");
        }
    }
}

/// [`explain_cells`] for any game, with `&str` cells.
fn why_in<G: Game>(g: &G, seat: Seat, cells: &[&str]) -> Option<String> {
    let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    explain_cells(g, seat, &cells)
}

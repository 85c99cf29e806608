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
        assert_eq!(
            reason,
            "A King moves at most 1 square: a5 is 4 squares away"
        );
    }

    fn expert(pieces: &[(&str, char)], terrain: &[(&str, char)], to_move: Seat) -> CairdCyvasse {
        let options = CairdOptions {
            version: cyvasse::caird::Version::Expert,
            ..CairdOptions::default()
        };
        CairdCyvasse::from_placements(&options, pieces, terrain, to_move).unwrap()
    }

    /// The reason for the move `from` → `to` of White, from a position with both Kings far away.
    fn refused(g: &CairdCyvasse, from: &str, to: &str) -> String {
        why_in(g, WHITE, &[from, to]).expect("a reason")
    }

    #[test]
    fn a_move_through_a_piece_is_blocked_at_its_cell() {
        let g = game(&[("a1", 'K'), ("h8", 'k'), ("c2", 'E'), ("c4", 'r')], WHITE);
        assert_eq!(
            refused(&g, "c2", "c5"),
            "Blocked at c4 by Black's Rabble: a move never passes through pieces"
        );
    }

    #[test]
    fn a_move_too_far_is_out_of_range() {
        let g = game(&[("a1", 'K'), ("h8", 'k'), ("c3", 'R')], WHITE);
        assert_eq!(
            refused(&g, "c3", "c6"),
            "A Rabble moves at most 1 square: c6 is 3 squares away"
        );
    }

    #[test]
    fn a_move_off_the_pieces_directions_names_them() {
        let g = game(&[("a1", 'K'), ("h8", 'k'), ("c3", 'R'), ("d3", 'H')], WHITE);
        assert_eq!(refused(&g, "c3", "d4"), "A Rabble moves only orthogonally");
        assert_eq!(
            refused(&g, "d3", "d5"),
            "A Heavy Horse moves only diagonally"
        );
        assert_eq!(
            refused(&g, "c3", "e4"),
            "e4 is not in line with c3: a Rabble moves only orthogonally"
        );
    }

    #[test]
    fn only_the_dragon_flies_over_a_mountain() {
        let g = game(
            &[
                ("a1", 'K'),
                ("h8", 'k'),
                ("c1", 'H'),
                ("d2", 'M'),
                ("b1", 'D'),
                ("b2", 'M'),
            ],
            WHITE,
        );
        assert_eq!(
            refused(&g, "c1", "e3"),
            "Blocked at d2 by a Mountain: only the Dragon flies over Mountains"
        );
        // The Dragon flies over it: that move is legal, nothing to explain.
        assert_eq!(why_in(&g, WHITE, &["b1", "b3"]), None);
        assert_eq!(
            refused(&g, "c1", "d2"),
            "d2 is a Mountain: Mountains are never entered or captured"
        );
    }

    #[test]
    fn a_cell_of_ones_own_is_named() {
        let g = game(&[("a1", 'K'), ("h8", 'k'), ("c3", 'R'), ("c4", 'S')], WHITE);
        assert_eq!(refused(&g, "c3", "c4"), "c4 holds your Spear");
    }

    #[test]
    fn costly_terrain_halts_a_piece_short_of_its_range() {
        // A Heavy Horse moves 3: the Forest costs 2 of them, so it halts on the next square.
        let g = expert(
            &[("a1", 'K'), ("h8", 'k'), ("c1", 'H'), ("b1", 'L')],
            &[("d2", 'f'), ("c2", 'h')],
            WHITE,
        );
        assert_eq!(
            refused(&g, "c1", "f4"),
            "Entering the Forest on d2 costs a Heavy Horse 2 of its 3 movement: it halts on e3"
        );
        // A Light Horse (2) that enters Hills (2) halts there at once.
        assert_eq!(
            refused(&g, "b1", "d3"),
            "Entering the Hills on c2 costs 2 of the 2 movement a Light Horse has left: it halts there"
        );
    }

    #[test]
    fn a_fortress_halts_every_move_that_enters_it() {
        let g = expert(
            &[("a1", 'K'), ("h8", 'k'), ("c1", 'E')],
            &[("c2", 'c')],
            WHITE,
        );
        assert_eq!(
            refused(&g, "c1", "c4"),
            "Entering the Fortress on c2 halts every move"
        );
    }

    #[test]
    fn a_piece_in_water_cannot_attack() {
        let g = expert(
            &[("a1", 'K'), ("h8", 'k'), ("c3", 'R'), ("c4", 'l')],
            &[("c3", 'w')],
            WHITE,
        );
        assert_eq!(
            refused(&g, "c3", "c4"),
            "The Rabble on c3 stands in Water: pieces in Water cannot attack (the Dragon excepted)"
        );
    }

    #[test]
    fn the_capture_table_names_both_pieces() {
        // An elite infantry cannot take an Elephant-level special; a basic one cannot take the
        // Dragon-level special; infantry never takes ranged.
        let g = game(
            &[
                ("a1", 'K'),
                ("h8", 'k'),
                ("c3", 'S'),
                ("c4", 'e'),
                ("f3", 'R'),
                ("f4", 'd'),
                ("g5", 'R'),
                ("g6", 'c'),
            ],
            WHITE,
        );
        assert_eq!(refused(&g, "c3", "c4"), "A Spear cannot take an Elephant");
        assert_eq!(refused(&g, "f3", "f4"), "A Rabble cannot take a Dragon");
        assert_eq!(
            refused(&g, "g5", "g6"),
            "A Rabble cannot take a Crossbowman"
        );
    }

    #[test]
    fn the_capture_table_names_the_kings_morale_and_the_fortress() {
        // Version C: a Rabble next to its King counts as elite; one in a Fortress as a special.
        let g = expert(
            &[
                ("a1", 'K'),
                ("e7", 'k'),
                ("d5", 'R'),
                ("d6", 'r'),
                ("b5", 'S'),
                ("b6", 'r'),
            ],
            &[("b6", 'c')],
            WHITE,
        );
        assert_eq!(
            refused(&g, "d5", "d6"),
            "A Rabble cannot take a Rabble next to its King (it counts as elite infantry there)"
        );
        assert_eq!(
            refused(&g, "b5", "b6"),
            "A Spear cannot take a Rabble in its Fortress (it counts as an Elephant-level special there)"
        );
    }

    #[test]
    fn a_shot_names_what_blocks_it() {
        // Version C: the Trebuchet moves 1 and shoots 3 orthogonally, over Mountains and its own
        // pieces only.
        let g = expert(
            &[
                ("a1", 'K'),
                ("h8", 'k'),
                ("c1", 'T'),
                ("c2", 'r'),
                ("c3", 'r'),
            ],
            &[],
            WHITE,
        );
        assert_eq!(
            refused(&g, "c1", "c3"),
            "The shot is blocked at c2 by Black's Rabble"
        );
    }

    #[test]
    fn a_move_into_check_names_the_attacker() {
        let g = game(&[("e1", 'K'), ("e2", 'S'), ("e4", 'e'), ("h8", 'k')], WHITE);
        assert_eq!(
            refused(&g, "e2", "d3"),
            "Your King on e1 would be in check from Black's Elephant on e4"
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

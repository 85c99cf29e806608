//! The plain words of every kind of action (`Game::action_words`), on built positions, and a
//! property check over random games.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use kyo::{Kyo, KyoOptions};
use tabula_core::{Actor, Game, Observer, rng_from_seed, tools};

/// The words of `text` (notation) in `g`, as a spectator reads them; the same for both seats.
fn words(g: &Kyo, text: &str) -> String {
    let a = g.parse_action(text).unwrap();
    let actor = Actor::Seat(g.to_move);
    let w = g.action_words(actor, &a, Observer::Spectator);
    for s in 0..2 {
        assert_eq!(
            g.action_words(actor, &a, Observer::Seat(tabula_core::Seat(s))),
            w
        );
    }
    w
}

#[test]
fn a_direct_move_names_the_side_the_pawn_and_the_squares() {
    let g = Kyo::new(&KyoOptions::default()).unwrap();
    assert_eq!(words(&g, "A3-A4"), "Gold: Light Pawn A3 → A4");
    assert_eq!(
        words(&g, "D0/1-D1"),
        "Gold: Heavy D0 → D1, carries 2 chips, leaves 1 chip"
    );
}

#[test]
fn a_mana_move_says_so_and_what_stays_behind() {
    let g = pos(&[("C4", "DDLH")], 0);
    assert_eq!(
        words(&g, "C4/1>C5"),
        "Gold: Heavy C4 → C5, Mana move, carries 2 chips, leaves 1 chip"
    );
}

#[test]
fn a_capture_names_the_captured_piece_and_its_side() {
    let g = pos(&[("C4", "H"), ("C5", "dh")], 0);
    assert_eq!(
        words(&g, "C4xC5"),
        "Gold: Heavy C4 → C5, captures Red's Heavy"
    );
}

#[test]
fn chips_moved_without_a_pawn_are_counted() {
    let g = pos(&[("C4", "DLL")], 0);
    assert_eq!(words(&g, "C4(2)-C5"), "Gold: 2 chips C4 → C5");
}

#[test]
fn a_deploy_counts_the_shields() {
    let mut g = pos(&[("C4", "SST")], 0);
    assert_eq!(
        words(&g, "C4(2)*C5"),
        "Gold: Tower C4 deploys 2 Shields to C5"
    );
    assert_eq!(words(&g, "C4*C5"), "Gold: Tower C4 deploys 1 Shield to C5");
    play(&mut g, "C4*C5");
    assert_eq!(words(&g, "end"), "Gold ends the turn");
}

#[test]
fn a_shuffle_names_the_chips_bottom_to_top() {
    let g = pos(&[("C4", "DLSH")], 0);
    assert_eq!(
        words(&g, "C4~LDS"),
        "Gold: Heavy C4 reorders its top 3 chips: Light Mana, Dark Mana, Shield (bottom to top)"
    );
    let g = pos(&[("C4", "DLL")], 0);
    assert_eq!(
        words(&g, "C4~LLD"),
        "Gold: reorders the stack C4: top 3 chips: Light Mana, Light Mana, Dark Mana (bottom to top)"
    );
}

#[test]
fn red_is_named_red() {
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    play(&mut g, "A3-A4");
    assert_eq!(words(&g, "A6-A5"), "Red: Light Pawn A6 → A5");
}

#[test]
fn random_games_word_every_action_for_every_observer() {
    for seed in 0..6 {
        let g = Kyo::new(&KyoOptions::default()).unwrap();
        let n = tools::check_words(&g, &mut rng_from_seed(seed), 300)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(n > 0);
    }
}

//! The plain words of every kind of action (`Game::action_words`) in both Cyvasse families, on
//! built positions, and a property check over random games: every action worded for every observer,
//! and a hidden setup worded alike whatever the army.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::{self, CairdAction, CairdCyvasse, CairdOptions};
use cyvasse::trump::{TrumpAction, TrumpCyvasse, TrumpOptions, citadel, fortress, phalanx};
use tabula_core::{Actor, Game, Observer, Seat, rng_from_seed, tools};

const SOUTH: Seat = Seat(0);
const NORTH: Seat = Seat(1);

fn trump(pieces: &[(&str, &str)], to_move: Seat) -> TrumpCyvasse {
    let mut all = pieces.to_vec();
    all.push(("k6", "K"));
    all.push(("a1", "k"));
    TrumpCyvasse::play_position(&TrumpOptions::default(), &all, to_move).unwrap()
}

fn trump_words(g: &TrumpCyvasse, text: &str) -> String {
    let a = g.parse_action(text).unwrap();
    g.action_words(Actor::Seat(g.side_to_move()), &a, Observer::Spectator)
}

#[test]
fn trump_setup_is_hidden_from_everyone_but_its_owner() {
    let g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    let army = TrumpAction::Setup(citadel(NORTH));
    let other = TrumpAction::Setup(fortress(NORTH));
    let north = Actor::Seat(NORTH);
    for observer in [Observer::Spectator, Observer::Seat(SOUTH)] {
        assert_eq!(
            g.action_words(north, &army, observer),
            "North sets up (hidden)"
        );
        assert_eq!(
            g.action_words(north, &other, observer),
            "North sets up (hidden)"
        );
    }
    let own = g.action_words(north, &army, Observer::Seat(NORTH));
    assert!(own.starts_with("North sets up"), "{own}");
    assert_ne!(own, "North sets up (hidden)");
}

#[test]
fn trump_coin_toss_names_who_goes_first() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
        .unwrap();
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(fortress(NORTH)))
        .unwrap();
    assert_eq!(
        g.action_words(
            Actor::Chance,
            &TrumpAction::FirstPlayer(SOUTH),
            Observer::Spectator
        ),
        "South goes first (coin toss)"
    );
    let _ = phalanx(SOUTH);
}

#[test]
fn trump_moves_captures_and_shots_name_the_units() {
    let g = trump(&[("f6", "H"), ("f7", "r")], SOUTH);
    assert_eq!(
        trump_words(&g, "f6xf7"),
        "South: Heavy Horse f6 → f7, captures North's Rabble"
    );
    let g = trump(&[("f6", "S")], SOUTH);
    assert_eq!(trump_words(&g, "f6-f7"), "South: Spearman f6 → f7");
    let g = trump(&[("f6", "X"), ("f8", "e")], SOUTH);
    assert_eq!(
        trump_words(&g, "f6*f8"),
        "South: Crossbowman f6 shoots North's Elephant on f8"
    );
    assert_eq!(trump_words(&g, "pass"), "South passes");
    assert_eq!(trump_words(&g, "end"), "South ends the turn");
    let g = trump(&[("f6", "S")], NORTH);
    assert_eq!(trump_words(&g, "a1-a2"), "North: King a1 → a2");
}

fn caird(pieces: &[(&str, char)], terrain: &[(&str, char)], to_move: Seat) -> CairdCyvasse {
    caird_with(&CairdOptions::default(), pieces, terrain, to_move)
}

fn caird_with(
    o: &CairdOptions,
    pieces: &[(&str, char)],
    terrain: &[(&str, char)],
    to_move: Seat,
) -> CairdCyvasse {
    CairdCyvasse::from_placements(o, pieces, terrain, to_move).unwrap()
}

fn caird_words(g: &CairdCyvasse, text: &str) -> String {
    let a = g.parse_action(text).unwrap();
    g.action_words(Actor::Seat(g.to_move()), &a, Observer::Spectator)
}

#[test]
fn caird_setup_is_hidden_from_everyone_but_its_owner() {
    let o = CairdOptions::default();
    let g = CairdCyvasse::new(&o).unwrap();
    let phalanx = CairdAction::Setup(caird::preset(&o, 1, "phalanx").unwrap());
    let black = Actor::Seat(NORTH);
    for observer in [Observer::Spectator, Observer::Seat(SOUTH)] {
        assert_eq!(
            g.action_words(black, &phalanx, observer),
            "Black sets up (hidden)"
        );
    }
    let own = g.action_words(black, &phalanx, Observer::Seat(NORTH));
    assert!(own.starts_with("Black sets up ("), "{own}");
}

#[test]
fn caird_moves_captures_and_shots_name_the_pieces() {
    let g = caird(&[("a1", 'K'), ("a2", 'd'), ("h8", 'k')], &[], SOUTH);
    assert_eq!(
        caird_words(&g, "a1xa2"),
        "White: King a1 → a2, captures Black's Dragon"
    );
    let g = caird(
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'M'),
            ("d3", 'R'),
            ("d4", 's'),
        ],
        &[],
        SOUTH,
    );
    assert_eq!(
        caird_words(&g, "d1*d4"),
        "White: Trebuchet d1 captures Black's Spear on d4 without moving"
    );
    let g = caird(&[("a1", 'K'), ("h8", 'k'), ("a8", 'r')], &[], NORTH);
    assert_eq!(caird_words(&g, "a8-a7"), "Black: Rabble a8 → a7");
}

#[test]
fn caird_reserve_dragon_and_ruined_fortress_are_worded() {
    let o = CairdOptions {
        dragon_reserve: true,
        ..CairdOptions::default()
    };
    let g = caird_with(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'R')], &[], SOUTH)
        .with_reserve([true, true])
        .unwrap();
    assert_eq!(
        caird_words(&g, "D@c3"),
        "White places the reserve Dragon on c3"
    );
    let o = CairdOptions {
        castle_storming: true,
        version: caird::Version::Expert,
        ..CairdOptions::default()
    };
    let mut g = caird_with(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'E'), ("a8", 'r')],
        &[("d6", 'c'), ("a1", 'c')],
        SOUTH,
    );
    for text in ["d4-d6", "a8-a7"] {
        let a = g.parse_action(text).unwrap();
        g.apply(Actor::Seat(g.to_move()), &a).unwrap();
    }
    assert_eq!(
        caird_words(&g, "ruin d6"),
        "White ruins the enemy Fortress on d6"
    );
}

#[test]
fn random_games_word_every_action_and_leak_no_setup() {
    for seed in 0..4 {
        let g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
        tools::check_words(&g, &mut rng_from_seed(seed), 200)
            .unwrap_or_else(|e| panic!("trump, seed {seed}: {e}"));
        let g = CairdCyvasse::new(&CairdOptions::default()).unwrap();
        tools::check_words(&g, &mut rng_from_seed(seed), 200)
            .unwrap_or_else(|e| panic!("caird, seed {seed}: {e}"));
    }
}

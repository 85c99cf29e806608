//! Rule tests for Strength & Trump Cyvasse, one or more per clause of `docs/rules/cyvasse.md`
//! (family 1), each built from an explicit position and citing the rule it checks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;

use cyvasse::trump::{
    Army, Cell, Kind, Occupant, PRESET_NAMES, Phase, TrumpAction, TrumpCyvasse, TrumpOptions,
    check_setup, citadel, fortress, is_home, king_safe_on_move_one, listed_label,
    listed_setup_labels, listed_setups, phalanx, preset, random_setup, safe_random_setup, vanguard,
};
use tabula_core::{
    Actor, Game, Observer, Seat, SeatResult, ToAct, legal_actions_vec, rng_from_seed,
};

const SOUTH: Seat = Seat(0);
const NORTH: Seat = Seat(1);

/// A play position with the two Kings parked far away (`k6`, `a1`) unless given.
fn pos(pieces: &[(&str, &str)], to_move: Seat) -> TrumpCyvasse {
    pos_with(TrumpOptions::default(), pieces, to_move)
}

fn pos_with(options: TrumpOptions, pieces: &[(&str, &str)], to_move: Seat) -> TrumpCyvasse {
    let mut all: Vec<(&str, &str)> = pieces.to_vec();
    if !pieces.iter().any(|(_, c)| *c == "K") {
        all.push(("k6", "K"));
    }
    if !pieces.iter().any(|(_, c)| *c == "k") {
        all.push(("a1", "k"));
    }
    TrumpCyvasse::play_position(&options, &all, to_move).unwrap()
}

fn actions(g: &TrumpCyvasse) -> BTreeSet<String> {
    let seat = g.side_to_move();
    legal_actions_vec(g, seat)
        .iter()
        .map(|a| g.action_notation(a))
        .collect()
}

fn legal(g: &TrumpCyvasse, notation: &str) -> bool {
    let a = g.parse_action(notation).unwrap();
    legal_actions_vec(g, g.side_to_move()).contains(&a)
}

/// Plays `notation` for the side to move; it must be legal.
fn play(g: &mut TrumpCyvasse, notation: &str) {
    let a = g.parse_action(notation).unwrap();
    let seat = g.side_to_move();
    assert!(
        legal_actions_vec(g, seat).contains(&a),
        "{notation} should be listed"
    );
    g.apply(Actor::Seat(seat), &a).unwrap();
}

/// `notation` must be refused and change nothing.
fn refused(g: &TrumpCyvasse, notation: &str) -> String {
    let a = g.parse_action(notation).unwrap();
    let mut h = g.clone();
    let err = h.apply(Actor::Seat(g.side_to_move()), &a).unwrap_err();
    assert_eq!(&h, g, "a refused action changed the state");
    assert!(!legal(g, notation));
    err.to_string()
}

fn at(g: &TrumpCyvasse, cell: &str) -> Option<Occupant> {
    g.occupant(Cell::parse(cell).unwrap())
}

fn unit(seat: Seat, kind: Kind) -> Option<Occupant> {
    Some(Occupant::Unit { seat, kind })
}

fn moves_from(g: &TrumpCyvasse, from: &str) -> BTreeSet<String> {
    actions(g)
        .into_iter()
        .filter(|a| a.starts_with(from) && !a[from.len()..].starts_with(char::is_numeric))
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Board and armies.

/// "A regular hexagon of 91 hexes, pointy-top, 11 horizontal rows of 6,7,...,11,...,6 hexes."
#[test]
fn board_is_91_hexes_in_rows_of_6_to_11() {
    let mut per_row = [0; 11];
    for c in Cell::all() {
        per_row[c.row()] += 1;
    }
    assert_eq!(per_row, [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]);
    assert_eq!(Cell::all().count(), 91);
}

/// "Cell names: row letter a..k from the far edge and the position 1..n from the left."
#[test]
fn cells_are_named_by_row_letter_and_position_from_the_left() {
    let names: Vec<String> = Cell::all().map(|c| c.name()).collect();
    assert_eq!(&names[..7], &["a1", "a2", "a3", "a4", "a5", "a6", "b1"]);
    assert!(names.contains(&"f11".to_string()));
    assert_eq!(names.last().unwrap(), "k6");
    // f6 is the centre: its six neighbours are f5, f7 and two on each of rows e and g.
    let f6 = Cell::parse("f6").unwrap();
    let around: BTreeSet<String> = Cell::all()
        .filter(|c| c.distance(f6) == 1)
        .map(|c| c.name())
        .collect();
    let expected: BTreeSet<String> = ["e5", "e6", "f5", "f7", "g5", "g6"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(around, expected);
}

/// "The first seat homes on rows g–k, the second seat on rows a–e" (40 hexes each).
#[test]
fn first_seat_homes_on_rows_g_to_k_second_on_a_to_e() {
    let south: Vec<Cell> = Cell::all().filter(|c| is_home(SOUTH, *c)).collect();
    let north: Vec<Cell> = Cell::all().filter(|c| is_home(NORTH, *c)).collect();
    assert_eq!((south.len(), north.len()), (40, 40));
    assert!(south.iter().all(|c| c.row() >= 6));
    assert!(north.iter().all(|c| c.row() <= 4));
}

/// "Each side: Rabble ×3, Spearman ×2, ... Mountain ×2 — 19 pieces, all placed during setup."
#[test]
fn each_army_has_the_19_listed_pieces() {
    for name in PRESET_NAMES {
        for seat in [SOUTH, NORTH] {
            let army = preset(name, seat).unwrap();
            assert_eq!(army.0.len(), 19, "{name}");
            assert!(check_setup(seat, &army).is_ok(), "{name} for seat {seat}");
        }
    }
    let mut army = fortress(SOUTH);
    let (cell, _) = army
        .0
        .iter()
        .find(|(_, k)| **k == Kind::Dragon)
        .map(|(c, k)| (*c, *k))
        .unwrap();
    army.0.insert(cell, Kind::Elephant);
    let err = check_setup(SOUTH, &army).unwrap_err().to_string();
    assert!(
        err.contains("3 × Elephant placed, but an army has 2"),
        "{err}"
    );
    assert!(err.contains("1 × Dragon missing"), "{err}");
}

/// Unit table: Movement / Strength / Range / Trump.
#[test]
fn unit_table_movement_strength_range_trump() {
    use Kind::*;
    let table = [
        (Rabble, 3, 1, 0, None),
        (Spearman, 2, 2, 0, Some(LightHorse)),
        (Elephant, 3, 4, 0, None),
        (LightHorse, 3, 2, 0, None),
        (HeavyHorse, 2, 3, 0, None),
        (Crossbowman, 1, 2, 2, Some(Elephant)),
        (Catapult, 2, 3, 3, Some(Dragon)),
        (Trebuchet, 0, 1, 3, Some(Dragon)),
        (Dragon, 0, 5, 0, None),
        (King, 2, 2, 0, None),
    ];
    for (k, m, s, r, t) in table {
        assert_eq!(
            (k.movement(), k.strength(), k.range(), k.trump()),
            (m, s, r, t),
            "{k}"
        );
    }
}

// ------------------------------------------------------------------------------------------------
// Setup and first move.

/// "Both players place all 19 pieces on empty hexes of their own home rows."
#[test]
fn setup_only_on_own_home_rows() {
    let army = fortress(NORTH);
    let err = check_setup(SOUTH, &army).unwrap_err().to_string();
    assert!(err.contains("is not on South's home rows g–k"), "{err}");
    // A piece moved onto row f is refused too.
    let mut army = fortress(SOUTH);
    let (c, k) = army.0.pop_first().unwrap();
    assert!(c.row() >= 6);
    army.0.insert(Cell::parse("f3").unwrap(), k);
    let err = check_setup(SOUTH, &army).unwrap_err().to_string();
    assert!(err.contains("f3 is not on South's home rows"), "{err}");
    // apply refuses it and changes nothing.
    let g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    let mut h = g.clone();
    assert!(
        h.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(army))
            .is_err()
    );
    assert_eq!(h, g);
    // "No other placement limit": any arrangement of the right pieces on the home rows is valid.
    let mut rng = rng_from_seed(3);
    for _ in 0..20 {
        assert!(check_setup(NORTH, &random_setup(NORTH, &mut rng)).is_ok());
    }
}

/// "Hidden from each other (a screen): neither sees the other's army until both have committed."
#[test]
fn setup_is_hidden_until_both_committed() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![SOUTH, NORTH]));
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(phalanx(NORTH)))
        .unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![SOUTH]));
    assert!(g.view(Observer::Seat(SOUTH)).board.is_empty());
    assert!(g.view(Observer::Spectator).board.is_empty());
    assert_eq!(g.view(Observer::Seat(NORTH)).board.len(), 19);
    // North cannot commit twice.
    assert!(
        g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(phalanx(NORTH)))
            .is_err()
    );
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(phalanx(SOUTH)))
        .unwrap();
    assert_eq!(g.view(Observer::Spectator).board.len(), 38);
}

/// "The player whose King is closer to row 6 moves first."
#[test]
fn king_nearer_row_f_moves_first() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    // Vanguard's King stands on row i (3 rows from f), fortress's on the back row (5 rows).
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(fortress(SOUTH)))
        .unwrap();
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(vanguard(NORTH)))
        .unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(NORTH));
    assert_eq!(g.phase(), Phase::Play);
}

/// "On a tie the game's random seed decides": a fair coin flip by chance.
#[test]
fn equally_near_kings_flip_a_coin() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
        .unwrap();
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(fortress(NORTH)))
        .unwrap();
    assert_eq!(g.to_act(), ToAct::Chance);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    assert_eq!(
        outcomes,
        vec![
            (TrumpAction::FirstPlayer(SOUTH), 0.5),
            (TrumpAction::FirstPlayer(NORTH), 0.5)
        ]
    );
    assert!(
        g.apply(Actor::Seat(SOUTH), &TrumpAction::FirstPlayer(SOUTH))
            .is_err()
    );
    g.apply(Actor::Chance, &TrumpAction::FirstPlayer(NORTH))
        .unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(NORTH));
    // Both seeds' choices happen.
    let firsts: BTreeSet<u8> = (0..32)
        .map(|seed| {
            let mut h = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
            h.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
                .unwrap();
            h.apply(Actor::Seat(NORTH), &TrumpAction::Setup(citadel(NORTH)))
                .unwrap();
            let a = h.sample_chance(&mut rng_from_seed(seed)).unwrap();
            h.apply(Actor::Chance, &a).unwrap();
            h.side_to_move().0
        })
        .collect();
    assert_eq!(firsts.len(), 2);
}

/// Setup helpers: presets, a random setup, and a setup that keeps the King safe on move one.
#[test]
fn setup_helpers_random_presets_and_king_safe() {
    assert!(king_safe_on_move_one(SOUTH, &citadel(SOUTH)));
    assert!(king_safe_on_move_one(NORTH, &citadel(NORTH)));
    // Vanguard's King on row i is within a Light Horse's 3 + 2 jumps of row e.
    assert!(!king_safe_on_move_one(SOUTH, &vanguard(SOUTH)));
    let mut rng = rng_from_seed(11);
    for seat in [SOUTH, NORTH] {
        for _ in 0..10 {
            let a = safe_random_setup(seat, &mut rng);
            assert!(check_setup(seat, &a).is_ok());
            assert!(king_safe_on_move_one(seat, &a));
        }
    }
    // During the setup legal_actions lists valid setups, and any other valid setup is accepted.
    let g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    let listed = legal_actions_vec(&g, NORTH);
    assert!(listed.len() >= 8);
    for a in &listed {
        let TrumpAction::Setup(army) = a else {
            panic!("not a setup")
        };
        assert!(check_setup(NORTH, army).is_ok());
    }
    let mut h = g.clone();
    h.apply(
        Actor::Seat(NORTH),
        &TrumpAction::Setup(random_setup(NORTH, &mut rng)),
    )
    .unwrap();
}

/// A King-safe setup really is safe: whatever the opponent's setup, no first move captures the King.
#[test]
fn king_safe_setup_survives_every_first_move() {
    let mut rng = rng_from_seed(5);
    for _ in 0..6 {
        let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
        g.apply(
            Actor::Seat(SOUTH),
            &TrumpAction::Setup(safe_random_setup(SOUTH, &mut rng)),
        )
        .unwrap();
        g.apply(
            Actor::Seat(NORTH),
            &TrumpAction::Setup(random_setup(NORTH, &mut rng)),
        )
        .unwrap();
        if g.to_act() == ToAct::Chance {
            g.apply(Actor::Chance, &TrumpAction::FirstPlayer(NORTH))
                .unwrap();
        }
        if g.side_to_move() != NORTH {
            continue;
        }
        for a in legal_actions_vec(&g, NORTH) {
            let mut h = g.clone();
            h.apply(Actor::Seat(NORTH), &a).unwrap();
            if h.cavalry_turn().is_some() {
                for b in legal_actions_vec(&h, NORTH) {
                    let mut i = h.clone();
                    i.apply(Actor::Seat(NORTH), &b).unwrap();
                    assert!(i.king(SOUTH).is_some());
                }
            }
            assert!(h.king(SOUTH).is_some());
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Moving.

/// "A unit with Movement N moves along any path (turns allowed) of at most N jumps through empty
/// hexes; own units, enemy units and mountains stop the path."
#[test]
fn path_walking_turns_around_obstacles_through_empty_hexes_only() {
    // Rabble on f6 hemmed in by its own units except towards g6.
    let g = pos(
        &[
            ("f6", "R"),
            ("e5", "S"),
            ("e6", "S"),
            ("f5", "R"),
            ("f7", "R"),
            ("g5", "E"),
        ],
        SOUTH,
    );
    assert!(legal(&g, "f6-g6"));
    assert!(legal(&g, "f6-f8"), "f6 g6 g7 f8: the path turns");
    assert!(!legal(&g, "f6-f9"), "needs 4 jumps around the wall");
    assert!(
        !legal(&g, "f6-e7"),
        "2 hexes away, but 4 jumps by the only open path"
    );
}

/// "Mountain: immovable, impassable, never captured."
#[test]
fn mountains_are_impassable_and_never_captured() {
    let g = pos(
        &[
            ("f6", "D"),
            ("e5", "M"),
            ("e6", "M"),
            ("f5", "M"),
            ("f7", "M"),
            ("g4", "R"),
        ],
        SOUTH,
    );
    // Nothing attacks or moves onto a Mountain.
    assert!(refused(&g, "f6-f7").contains("Mountain"));
    assert!(
        !actions(&g)
            .iter()
            .any(|a| a.ends_with("f5") || a.ends_with("e5"))
    );
    // A Rabble cannot walk through a Mountain ring.
    let h = pos(
        &[
            ("f6", "R"),
            ("e5", "M"),
            ("e6", "M"),
            ("f5", "M"),
            ("f7", "M"),
            ("g5", "S"),
            ("g6", "S"),
        ],
        SOUTH,
    );
    assert!(moves_from(&h, "f6").is_empty());
}

/// "A unit with Movement N moves ... at most N jumps."
#[test]
fn movement_limits_the_number_of_jumps() {
    let g = pos(&[("f6", "R"), ("f3", "S")], SOUTH);
    assert!(legal(&g, "f6-f9"));
    assert!(!legal(&g, "f6-f10"));
    assert!(legal(&g, "f3-f1"));
    assert!(!legal(&g, "f3-f6"), "a Spearman has Movement 2");
    // A move must go somewhere.
    assert!(refused(&g, "f6-f6").contains("another hex"));
}

/// "A non-range unit attacks by making its last jump onto an enemy unit reachable within its
/// Movement." "The winner of a melee attack takes the defender's hex."
#[test]
fn melee_attack_is_the_last_jump_and_takes_the_hex() {
    let mut g = pos(&[("f6", "R"), ("f9", "r"), ("f2", "r")], SOUTH);
    assert!(legal(&g, "f6xf9"));
    assert!(!legal(&g, "f6xf2"), "4 jumps away");
    play(&mut g, "f6xf9");
    assert_eq!(at(&g, "f9"), unit(SOUTH, Kind::Rabble));
    assert_eq!(at(&g, "f6"), None);
    assert_eq!(g.quiet_turns(), 0);
}

/// "Own units, enemy units ... stop the path": a unit cannot jump through an enemy it attacks.
#[test]
fn enemy_units_stop_the_path() {
    // Spearman on f6, its own units on e6 and g6, an enemy Rabble on f7: f8 is only reachable
    // through the Rabble.
    let g = pos(&[("f6", "S"), ("e6", "R"), ("g6", "R"), ("f7", "r")], SOUTH);
    assert!(legal(&g, "f6xf7"));
    assert!(!legal(&g, "f6-f8"));
}

// ------------------------------------------------------------------------------------------------
// Combat.

/// "A wins if A's Strength >= D's Strength."
#[test]
fn combat_strength_at_least_the_defenders_wins() {
    let g = pos(
        &[
            ("f6", "S"),
            ("f7", "k"),
            ("e5", "h"),
            ("g5", "R"),
            ("g6", "s"),
        ],
        SOUTH,
    );
    assert!(legal(&g, "f6xf7"), "Spearman 2 takes King 2");
    assert!(!legal(&g, "f6xe5"), "Spearman 2 cannot take Heavy Horse 3");
    assert!(!legal(&g, "g5xg6"), "Rabble 1 cannot take Spearman 2");
}

/// "Only winning attacks are legal [decision]", with a clear reason for a losing one.
#[test]
fn only_winning_attacks_are_legal() {
    let g = pos(&[("f6", "R"), ("f7", "e")], SOUTH);
    let why = refused(&g, "f6xf7");
    assert!(why.contains("cannot beat"), "{why}");
}

/// Spearman trumps Light Horse: "A can never beat a D that trumps A" — a Spearman beats a Light Horse
/// attacker, and takes a Light Horse itself.
#[test]
fn spearman_beats_a_light_horse_attacker() {
    let g = pos(&[("f6", "L"), ("f7", "s")], SOUTH);
    assert!(
        !legal(&g, "f6xf7"),
        "Light Horse 2 >= Spearman 2, but the Spearman trumps it"
    );
    let g = pos(&[("f6", "S"), ("f7", "l")], SOUTH);
    assert!(legal(&g, "f6xf7"));
}

/// Crossbowman trumps Elephant: an Elephant can never take a Crossbowman (although Crossbowmen
/// defend at 1), and a Crossbowman shoots an Elephant (2 < 4).
#[test]
fn elephant_can_never_take_a_crossbowman() {
    let g = pos(&[("f6", "E"), ("f7", "x")], SOUTH);
    assert!(!legal(&g, "f6xf7"));
    let g = pos(&[("f6", "X"), ("f8", "e")], SOUTH);
    assert!(legal(&g, "f6*f8"));
}

/// "Range units defend at Strength 1": a Rabble (1) takes a Catapult (3), a Trebuchet or a
/// Crossbowman; a Heavy Horse takes a Catapult.
#[test]
fn range_units_defend_at_strength_one() {
    let g = pos(&[("f6", "R"), ("f7", "c"), ("e5", "t"), ("g6", "x")], SOUTH);
    assert!(legal(&g, "f6xf7"));
    assert!(legal(&g, "f6xe5"));
    assert!(legal(&g, "f6xg6"));
}

/// Catapult and Trebuchet trump the Dragon: they shoot it although weaker; it never takes them.
#[test]
fn catapult_and_trebuchet_trump_the_dragon() {
    let g = pos(&[("f3", "C"), ("f6", "d"), ("h1", "T"), ("e1", "D")], SOUTH);
    assert!(legal(&g, "f3*f6"), "Catapult 3 shoots Dragon 5");
    let g = pos(&[("f3", "T"), ("f6", "d")], SOUTH);
    assert!(legal(&g, "f3*f6"), "Trebuchet 1 shoots Dragon 5");
    let g = pos(&[("f6", "D"), ("f8", "c"), ("f4", "t")], SOUTH);
    assert!(!legal(&g, "f6xf8"));
    assert!(!legal(&g, "f6xf4"));
}

// ------------------------------------------------------------------------------------------------
// Range units.

/// "Range units either move (never capturing by moving) or shoot."
#[test]
fn range_units_never_capture_by_moving() {
    let g = pos(&[("f6", "C"), ("f7", "r")], SOUTH);
    let why = refused(&g, "f6xf7");
    assert!(why.contains("never captures by moving"), "{why}");
    assert!(legal(&g, "f6*f7"));
    assert!(legal(&g, "f6-f4"), "a Catapult moves 2");
}

/// "A shot takes an enemy at hex distance 1..Range, passing the same combat test, without moving."
#[test]
fn shot_takes_an_enemy_within_range_without_moving() {
    let mut g = pos(&[("f6", "X"), ("f8", "r"), ("f9", "r"), ("e4", "h")], SOUTH);
    assert!(legal(&g, "f6*f8"));
    assert!(!legal(&g, "f6*f9"), "distance 3 > Crossbowman range 2");
    assert!(
        !legal(&g, "f6*e4"),
        "Crossbowman 2 cannot beat Heavy Horse 3"
    );
    play(&mut g, "f6*f8");
    assert_eq!(at(&g, "f6"), unit(SOUTH, Kind::Crossbowman));
    assert_eq!(at(&g, "f8"), None);
    assert_eq!(g.side_to_move(), NORTH);
}

/// "Units never block shots."
#[test]
fn units_never_block_shots() {
    let g = pos(&[("f3", "C"), ("f4", "R"), ("f5", "r"), ("f6", "s")], SOUTH);
    assert!(legal(&g, "f3*f6"));
    assert!(legal(&g, "f3*f5"));
}

/// "A shot is blocked when a Mountain lies on the straight line between the two hex centres":
/// a shot past a Mountain on the line is blocked, one beside the line is not.
#[test]
fn shot_past_a_mountain_on_the_line_is_blocked_beside_it_is_not() {
    let g = pos(&[("f3", "C"), ("f5", "M"), ("f6", "s")], SOUTH);
    assert!(!legal(&g, "f3*f6"));
    let why = refused(&g, "f3*f6");
    assert!(why.contains("Mountain blocks"), "{why}");
    let g = pos(&[("f3", "C"), ("e4", "M"), ("g4", "M"), ("f6", "s")], SOUTH);
    assert!(legal(&g, "f3*f6"), "Mountains beside the line do not block");
    // A line that crosses one hex of a row obliquely: f6 -> d7 passes through e6's interior.
    let g = pos(&[("f6", "C"), ("e6", "M"), ("d7", "s")], SOUTH);
    assert!(!legal(&g, "f6*d7"));
    let g = pos(&[("f6", "C"), ("e5", "M"), ("d7", "s")], SOUTH);
    assert!(legal(&g, "f6*d7"));
}

/// "A line running exactly along an edge between two hexes is blocked only if both are Mountains
/// [decision]": f6 -> g7 runs along the edge between f7 and g6.
#[test]
fn shot_along_an_edge_is_blocked_only_by_two_mountains() {
    let g = pos(&[("f6", "X"), ("f7", "M"), ("g7", "r")], SOUTH);
    assert!(legal(&g, "f6*g7"));
    let g = pos(&[("f6", "X"), ("g6", "M"), ("g7", "r")], SOUTH);
    assert!(legal(&g, "f6*g7"));
    let g = pos(&[("f6", "X"), ("f7", "M"), ("g6", "M"), ("g7", "r")], SOUTH);
    assert!(!legal(&g, "f6*g7"));
}

/// Trebuchet: Movement 0, Range 3: it never moves but shoots.
#[test]
fn trebuchet_never_moves_but_shoots() {
    let g = pos(&[("f6", "T"), ("f9", "r"), ("f3", "s")], SOUTH);
    let from = moves_from(&g, "f6");
    let expected: BTreeSet<String> = ["f6*f9".to_string()].into_iter().collect();
    assert_eq!(
        from, expected,
        "Trebuchet 1 shoots Rabble 1, not Spearman 2"
    );
}

// ------------------------------------------------------------------------------------------------
// Cavalry.

/// "Leg 1 up to 3 (Light) ... jumps, then leg 2 up to 2 jumps from where leg 1 ended."
#[test]
fn light_horse_moves_three_then_two() {
    let mut g = pos(&[("f1", "L")], SOUTH);
    assert!(legal(&g, "f1-f4"));
    assert!(!legal(&g, "f1-f5"));
    play(&mut g, "f1-f4");
    assert_eq!(g.side_to_move(), SOUTH, "the turn goes on");
    assert_eq!(g.cavalry_turn().map(|c| c.horse.name()), Some("f4".into()));
    assert!(legal(&g, "f4-f6"));
    assert!(!legal(&g, "f4-f7"));
    // Only the horse may act now.
    let g2 = pos(&[("f1", "L"), ("h3", "R")], SOUTH);
    let mut g2 = g2;
    play(&mut g2, "f1-f4");
    assert!(refused(&g2, "h3-h4").contains("between its legs"));
    play(&mut g, "f4-f6");
    assert_eq!(g.side_to_move(), NORTH);
    assert_eq!(g.cavalry_turn(), None);
    assert_eq!(g.turn_number(), 1);
}

/// "Leg 1 up to ... 2 (Heavy) jumps, then leg 2 up to 2 jumps."
#[test]
fn heavy_horse_moves_two_then_two() {
    let mut g = pos(&[("f1", "H")], SOUTH);
    assert!(legal(&g, "f1-f3"));
    assert!(!legal(&g, "f1-f4"));
    play(&mut g, "f1-f3");
    assert!(legal(&g, "f3-f5"));
    assert!(!legal(&g, "f3-f6"));
}

/// "Each leg may move or attack (two captures in a turn are possible)."
#[test]
fn cavalry_may_capture_in_both_legs() {
    let mut g = pos(&[("f6", "L"), ("f8", "r"), ("f10", "r")], SOUTH);
    play(&mut g, "f6xf8");
    assert!(legal(&g, "f8xf10"));
    play(&mut g, "f8xf10");
    assert_eq!(at(&g, "f10"), unit(SOUTH, Kind::LightHorse));
    assert_eq!(at(&g, "f8"), None);
    assert_eq!(g.side_to_move(), NORTH);
    assert_eq!(g.quiet_turns(), 0);
}

/// "Leg 2 may be declined [decision]."
#[test]
fn second_leg_may_be_declined() {
    let mut g = pos(&[("f6", "L"), ("f8", "r")], SOUTH);
    assert!(!legal(&g, "end"), "no horse is between its legs");
    play(&mut g, "f6xf8");
    assert!(legal(&g, "end"));
    play(&mut g, "end");
    assert_eq!(g.side_to_move(), NORTH);
    assert_eq!(g.quiet_turns(), 0, "leg 1 captured: a capturing turn");
}

/// "Option second_leg_mandatory makes it compulsory when it has a legal action."
#[test]
fn second_leg_mandatory_option_forbids_declining() {
    let options = TrumpOptions {
        second_leg_mandatory: true,
    };
    let mut g = pos_with(options, &[("f6", "L")], SOUTH);
    play(&mut g, "f6-f8");
    assert!(g.cavalry_turn().is_some());
    assert!(refused(&g, "end").contains("mandatory"));
    assert!(!actions(&g).is_empty());
}

// ------------------------------------------------------------------------------------------------
// Dragon.

/// "Dragon: moves any distance along one of the six hex axes."
#[test]
fn dragon_flies_any_distance_along_the_six_axes() {
    let g = pos(&[("f1", "D")], SOUTH);
    assert!(legal(&g, "f1-f11"));
    assert!(legal(&g, "f1-k1"), "down the left edge");
    assert!(legal(&g, "f1-a1"));
    assert!(!legal(&g, "f1-g3"), "off the axes");
    let from = moves_from(&g, "f1");
    assert_eq!(from.len(), 20, "10 along row f, 5 down, 5 up: {from:?}");
}

/// "It flies over Mountains, its own units and enemy units, may stop on any empty hex of the line,
/// or capture any enemy on the line that it may beat."
#[test]
fn dragon_flies_over_mountains_and_units() {
    let g = pos(
        &[
            ("f1", "D"),
            ("f3", "M"),
            ("f4", "R"),
            ("f5", "r"),
            ("f8", "s"),
        ],
        SOUTH,
    );
    assert!(legal(&g, "f1-f2"));
    assert!(legal(&g, "f1-f6"));
    assert!(legal(&g, "f1xf5"));
    assert!(legal(&g, "f1xf8"));
    assert!(legal(&g, "f1-f11"));
    assert!(!legal(&g, "f1-f4"));
}

/// "An enemy range unit on the line cannot be flown over (the Dragon may stop before it or capture
/// it if it may beat it)."
#[test]
fn dragon_cannot_fly_over_an_enemy_range_unit() {
    let g = pos(&[("f1", "D"), ("f5", "x"), ("f8", "r")], SOUTH);
    assert!(legal(&g, "f1-f4"));
    assert!(legal(&g, "f1xf5"), "it beats a Crossbowman (defends at 1)");
    assert!(!legal(&g, "f1-f6"));
    assert!(!legal(&g, "f1xf8"));
    // Its own range units do not stop it.
    let g = pos(&[("f1", "D"), ("f5", "X"), ("f8", "r")], SOUTH);
    assert!(legal(&g, "f1xf8"));
}

/// "It can never beat a Catapult or Trebuchet, which trump it": a Catapult cannot be flown over.
#[test]
fn catapult_cannot_be_flown_over() {
    let g = pos(&[("f1", "D"), ("f5", "c"), ("f8", "r")], SOUTH);
    assert!(legal(&g, "f1-f4"));
    assert!(!legal(&g, "f1xf5"));
    assert!(!legal(&g, "f1-f6"));
    assert!(!legal(&g, "f1xf8"));
}

// ------------------------------------------------------------------------------------------------
// End.

/// "Capturing the King wins at once. There is no check."
#[test]
fn capturing_the_king_wins_at_once() {
    let mut g = pos(&[("f6", "X"), ("f8", "k"), ("f7", "e")], SOUTH);
    play(&mut g, "f6*f8");
    let ToAct::Over(o) = g.to_act() else {
        panic!("not over")
    };
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
    assert!(legal_actions_vec(&g, NORTH).is_empty());
    assert!(legal_actions_vec(&g, SOUTH).is_empty());
    // No check: a King may step next to an enemy that could take it.
    let g = pos(&[("f6", "K"), ("f9", "e")], SOUTH);
    assert!(legal(&g, "f6-f7"));
}

/// "Capturing the King wins at once (also in the middle of a cavalry turn)."
#[test]
fn king_capture_mid_cavalry_turn_wins() {
    let mut g = pos(&[("f6", "L"), ("f8", "k")], SOUTH);
    play(&mut g, "f6xf8");
    assert!(matches!(g.to_act(), ToAct::Over(o) if o.results[0] == SeatResult::Win));
    assert_eq!(g.cavalry_turn(), None);
    // And with the second leg.
    let mut g = pos(
        &[("f6", "L"), ("f8", "r"), ("f10", "k"), ("b3", "r")],
        NORTH,
    );
    play(&mut g, "b3-b4");
    play(&mut g, "f6xf8");
    play(&mut g, "f8xf10");
    assert!(matches!(g.to_act(), ToAct::Over(o) if o.results[0] == SeatResult::Win));
}

/// "A side with no legal move passes."
#[test]
fn side_with_no_legal_move_passes() {
    // South's only unit, the King on k1, is walled in by Mountains.
    let mut g = pos(&[("k1", "K"), ("k2", "M"), ("j1", "M"), ("j2", "M")], SOUTH);
    assert_eq!(actions(&g), ["pass".to_string()].into_iter().collect());
    play(&mut g, "pass");
    assert_eq!(g.side_to_move(), NORTH);
    assert!(!legal(&g, "pass"), "North can move, so it may not pass");
    assert!(refused(&g, "pass").contains("only when it has no legal move"));
}

/// "If neither side can move the game is drawn [decision]."
#[test]
fn neither_side_can_move_is_a_draw() {
    let mut g = pos(
        &[
            ("k1", "K"),
            ("k2", "M"),
            ("j1", "M"),
            ("j2", "T"),
            ("a1", "k"),
            ("a2", "M"),
            ("b1", "M"),
            ("b2", "t"),
        ],
        SOUTH,
    );
    play(&mut g, "pass");
    let ToAct::Over(o) = g.to_act() else {
        panic!("not over")
    };
    assert_eq!(o.results, vec![SeatResult::Draw, SeatResult::Draw]);
    assert_eq!(o.reason, "neither side can move");
}

/// "Also drawn after 150 turns in a row with no capture [decision]."
#[test]
fn drawn_after_150_turns_without_a_capture() {
    let json = r#"{"board": {"k6": "K", "a1": "k", "f6": "R", "f8": "r"}, "to_move": 0, "quiet_turns": 149}"#;
    let g: TrumpCyvasse = serde_json::from_str(json).unwrap();
    let mut quiet = g.clone();
    play(&mut quiet, "f6-f5");
    let ToAct::Over(o) = quiet.to_act() else {
        panic!("not over")
    };
    assert_eq!(o.results, vec![SeatResult::Draw, SeatResult::Draw]);
    let mut capture = g.clone();
    play(&mut capture, "f6xf8");
    assert_eq!(capture.quiet_turns(), 0);
    assert_eq!(capture.to_act(), ToAct::Seat(NORTH));
}

// ------------------------------------------------------------------------------------------------
// JSON positions, notation, perft.

/// The module documentation's hand-written mid-game position loads, and its legal actions are the
/// Light Horse's second leg plus `end`.
#[test]
fn hand_written_mid_game_position_loads() {
    let json = r#"{
      "options": {"second_leg_mandatory": false},
      "phase": "play",
      "board": {"a3": "k", "b2": "t", "f5": "l", "e4": "M", "g6": "M",
                "h4": "X", "j3": "S", "k3": "K"},
      "to_move": 1,
      "cavalry": {"horse": "f5", "captured": false},
      "quiet_turns": 12,
      "turn": 40
    }"#;
    let g: TrumpCyvasse = serde_json::from_str(json).unwrap();
    g.validate().unwrap();
    assert_eq!(g.to_act(), ToAct::Seat(NORTH));
    let list = actions(&g);
    assert!(list.contains("end"));
    assert!(
        list.iter().all(|a| a == "end" || a.starts_with("f5")),
        "{list:?}"
    );
    // Two jumps from f5 around the Mountain at e4 and the South units.
    assert!(list.contains("f5-f7"));
    assert!(!list.contains("f5-f8"));
    // The same through the type-erased loader used by `tabula moves --state`.
    let kind = tabula_core::dynamic::kind::<TrumpCyvasse>();
    let state = kind
        .load_state(&serde_json::from_str(json).unwrap())
        .unwrap();
    assert_eq!(state.legal_actions(NORTH).len(), list.len());
}

/// Inconsistent hand-written states are rejected with a message naming the problem.
#[test]
fn inconsistent_states_are_rejected_with_clear_messages() {
    let bad = |json: &str, expect: &str| {
        let err = serde_json::from_str::<TrumpCyvasse>(json)
            .unwrap_err()
            .to_string();
        assert!(err.contains(expect), "{json}: {err}");
    };
    bad(r#"{"board": {"k6": "K"}}"#, "North has no King");
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "a2": "e", "a3": "e", "a4": "e"}}"#,
        "North has 3 × Elephant",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "z9": "e"}}"#,
        "not a cell",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "a7": "e"}}"#,
        "off the board",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "a2": "Q"}}"#,
        "not a piece code",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "f5": "R"}, "cavalry": {"horse": "f5"}}"#,
        "holds no horse of the side to move",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k", "a2": "M", "a3": "M", "a4": "M", "a5": "M", "a6": "M"}}"#,
        "5 Mountains",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k"}, "to_move": 2}"#,
        "seats 0 and 1",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k"}, "phase": "over"}"#,
        "needs an outcome",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k"}, "quiet_turns": 150}"#,
        "drawn at 150",
    );
    bad(
        r#"{"board": {"k6": "K", "a1": "k"}, "colour": 1}"#,
        "unknown field",
    );
    bad(
        r#"{"phase": "setup", "committed": [true, false], "board": {"k6": "K"}}"#,
        "committed setup is invalid",
    );
    bad(
        r#"{"phase": "setup", "committed": [false, false], "board": {"f6": "K"}}"#,
        "home rows",
    );
}

/// The text notation round-trips for every kind of action.
#[test]
fn notation_round_trips() {
    let g = pos(&[("f6", "X"), ("f8", "r"), ("f1", "L")], SOUTH);
    for text in [
        "f6*f8",
        "f6-f5",
        "f1-f3",
        "pass",
        "end",
        "first North",
        "first South",
    ] {
        let a = g.parse_action(text).unwrap();
        assert_eq!(g.action_notation(&a), text);
    }
    assert_eq!(
        g.action_notation(&g.parse_action("f1-f8").unwrap()),
        "f1xf8"
    );
    let army: Army = citadel(NORTH);
    let setup = TrumpAction::Setup(army);
    let text = g.action_notation(&setup);
    assert!(text.starts_with("setup "));
    assert_eq!(g.parse_action(&text).unwrap(), setup);
    assert!(g.parse_action("f6+f8").is_err());
    assert!(g.parse_action("setup Kz1").is_err());
    // JSON actions.
    let json = serde_json::to_string(&TrumpAction::Shoot {
        from: Cell::parse("f6").unwrap(),
        to: Cell::parse("f8").unwrap(),
    })
    .unwrap();
    assert_eq!(json, r#"{"shoot":{"from":"f6","to":"f8"}}"#);
}

/// The terminal drawing shows every row with its pieces.
#[test]
fn render_text_draws_the_board() {
    let g = pos(&[("f6", "X"), ("f8", "r"), ("e4", "M")], SOUTH);
    let text = g.render_text(Observer::Spectator);
    assert!(text.contains("f1-f11"));
    assert!(text.contains('X') && text.contains('r') && text.contains('^'));
    assert!(text.contains("South to move"));
}

/// Perft regressions from fixed positions (the numbers were cross-checked at depth 1 against the
/// independent reference generator of `trump_props.rs`; deeper counts guard against regressions).
#[test]
fn perft_regressions() {
    // From the start: each seat commits one of its listed setups (16 each), in any order.
    let start = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    let n = listed_setups(SOUTH).len() as u64;
    assert_eq!(n, 16);
    assert_eq!(tabula_core::tools::perft(&start, 1), n);
    assert_eq!(tabula_core::tools::perft(&start, 2), n * n);
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(fortress(SOUTH)))
        .unwrap();
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(vanguard(NORTH)))
        .unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| tabula_core::tools::perft(&g, d)).collect();
    assert_eq!(counts, PERFT_OPENING);
    let json = r#"{"board": {"a3": "k", "b2": "t", "f5": "l", "e4": "M", "g6": "M",
                "h4": "X", "j3": "S", "k3": "K", "f1": "D", "c4": "x", "d5": "e", "h7": "L"},
                "to_move": 0}"#;
    let g: TrumpCyvasse = serde_json::from_str(json).unwrap();
    let counts: Vec<u64> = (1..=3).map(|d| tabula_core::tools::perft(&g, d)).collect();
    assert_eq!(counts, PERFT_MIDGAME);
}

const PERFT_OPENING: [u64; 3] = [153, 17308, 1919226];
const PERFT_MIDGAME: [u64; 3] = [79, 3820, 208300];

/// Hand-written counters at their limits never overflow (bad input never panics).
#[test]
fn huge_turn_counter_does_not_overflow() {
    let json = r#"{"board": {"k6": "K", "a1": "k", "f6": "R"}, "turn": 4294967295}"#;
    let mut g: TrumpCyvasse = serde_json::from_str(json).unwrap();
    play(&mut g, "f6-f5");
    assert_eq!(g.turn_number(), u32::MAX);
    g.validate().unwrap();
}

/// Setup-phase and coin-flip states load from JSON too; a coin flip with unequal Kings is refused.
#[test]
fn setup_and_coin_flip_states_load_from_json() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    g.apply(Actor::Seat(NORTH), &TrumpAction::Setup(fortress(NORTH)))
        .unwrap();
    let json = serde_json::to_value(&g).unwrap();
    assert_eq!(json["phase"], "setup");
    assert_eq!(json["committed"], serde_json::json!([false, true]));
    let back: TrumpCyvasse = serde_json::from_value(json).unwrap();
    assert_eq!(back, g);
    assert_eq!(back.to_act(), ToAct::Seats(vec![SOUTH]));

    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
        .unwrap();
    assert_eq!(g.phase(), Phase::FirstPlayer);
    let mut json = serde_json::to_value(&g).unwrap();
    assert_eq!(json["phase"], "first_player");
    let back: TrumpCyvasse = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.to_act(), ToAct::Chance);
    // Move South's King one row forward: no longer a tie, so no coin flip may be pending.
    json["board"].as_object_mut().unwrap().remove("k1").unwrap();
    json["board"]["j4"] = "K".into();
    let err = serde_json::from_value::<TrumpCyvasse>(json)
        .unwrap_err()
        .to_string();
    assert!(err.contains("not equally near row f"), "{err}");
}

/// The listed setups name where they come from in their notation (presets, mirrored presets, random
/// and King-safe random setups), so that a player can tell them apart; the label reads back to the same
/// army, alone stands for that army of the seat owing its setup, and must not lie next to the pieces.
#[test]
fn listed_setups_carry_their_label_in_the_notation() {
    let mut g = TrumpCyvasse::new(&TrumpOptions::default()).unwrap();
    for seat in [SOUTH, NORTH] {
        let labels = listed_setup_labels(seat);
        assert_eq!(labels.len(), listed_setups(seat).len());
        for name in PRESET_NAMES {
            assert!(labels.contains(&format!("preset={name}")), "{name} missing");
        }
        for i in 1..=4 {
            assert!(labels.contains(&format!("random={i}")));
            assert!(labels.contains(&format!("king-safe-random={i}")));
        }
        assert!(labels.iter().any(|l| l.starts_with("mirrored-preset=")));
        let mut unique = labels.to_vec();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), labels.len(), "labels are unique");
    }
    assert_eq!(listed_label(&phalanx(NORTH)), Some("preset=phalanx"));
    assert_eq!(
        listed_label(&phalanx(SOUTH).mirrored()),
        Some("mirrored-preset=phalanx")
    );
    let legal = legal_actions_vec(&g, SOUTH);
    for (a, label) in legal.iter().zip(listed_setup_labels(SOUTH)) {
        let text = g.action_notation(a);
        assert!(
            text.starts_with(&format!("setup {label} ")),
            "{text} lacks {label}"
        );
        assert_eq!(&g.parse_action(&text).unwrap(), a);
    }
    // A label alone: that army of the first seat owing its setup.
    assert_eq!(
        g.parse_action("setup preset=citadel").unwrap(),
        TrumpAction::Setup(citadel(SOUTH))
    );
    g.apply(Actor::Seat(SOUTH), &TrumpAction::Setup(citadel(SOUTH)))
        .unwrap();
    assert_eq!(
        g.parse_action("setup preset=citadel").unwrap(),
        TrumpAction::Setup(citadel(NORTH))
    );
    assert!(g.parse_action("setup random=9").is_err());
    assert!(g.parse_action("setup colour=red").is_err());
    // Next to the pieces the label must be true; an edited army carries none.
    let phalanx_text = g.action_notation(&TrumpAction::Setup(phalanx(NORTH)));
    let lie = phalanx_text.replace("preset=phalanx", "preset=vanguard");
    assert!(g.parse_action(&lie).is_err());
    let mut edited = phalanx(NORTH);
    let king = edited.king().unwrap();
    let empty = Cell::all()
        .find(|c| is_home(NORTH, *c) && !edited.0.contains_key(c))
        .unwrap();
    edited.0.remove(&king);
    edited.0.insert(empty, Kind::King);
    let text = g.action_notation(&TrumpAction::Setup(edited.clone()));
    assert!(!text.contains('='), "{text}");
    assert_eq!(g.parse_action(&text).unwrap(), TrumpAction::Setup(edited));
}

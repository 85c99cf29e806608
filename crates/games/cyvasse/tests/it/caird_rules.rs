//! Rule tests for Caird's Cyvasse, one or more per clause of `rules/cyvasse.md` (family 2), each
//! built from an explicit position and named after the clause it checks.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::*;
use tabula_core::{Actor, Game, GameOptions, Observer, Seat, ToAct, legal_actions_vec};

const W: Seat = Seat(0);
const B: Seat = Seat(1);

fn basic() -> CairdOptions {
    CairdOptions::default()
}
fn expert() -> CairdOptions {
    CairdOptions {
        version: Version::Expert,
        ..Default::default()
    }
}
fn hex(version: Version) -> CairdOptions {
    CairdOptions {
        version,
        board: BoardKind::Hex,
        ..Default::default()
    }
}

fn game(
    o: &CairdOptions,
    pieces: &[(&str, char)],
    terrain: &[(&str, char)],
    to_move: Seat,
) -> CairdCyvasse {
    CairdCyvasse::from_placements(o, pieces, terrain, to_move).unwrap()
}

/// The notations of the legal actions of the side to move that start on `cell`.
fn from(g: &CairdCyvasse, cell: &str) -> Vec<String> {
    let mut v: Vec<String> = legal_actions_vec(g, g.to_move())
        .iter()
        .map(|a| g.action_notation(a))
        .filter(|n| n.starts_with(cell) && n[cell.len()..].starts_with(['-', 'x', '*']))
        .collect();
    v.sort();
    v
}

fn legal(g: &CairdCyvasse, text: &str) -> bool {
    let a = g.parse_action(text).unwrap();
    legal_actions_vec(g, g.to_move()).contains(&a)
}

fn play(g: &mut CairdCyvasse, text: &str) {
    let a = g.parse_action(text).unwrap();
    let seat = g.to_move();
    g.apply(Actor::Seat(seat), &a)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------- capture table

#[test]
fn capture_king_is_taken_by_anything_and_takes_anything() {
    // "A can capture D when any holds: D is the King; A is the King".
    let g = game(&basic(), &[("a1", 'K'), ("a2", 'd'), ("h8", 'k')], &[], W);
    assert!(legal(&g, "a1xa2"), "the King takes the Dragon");
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h1", 'r'),
            ("h8", 'k'),
            ("a8", 'r'),
            ("b2", 'r'),
        ],
        &[],
        B,
    );
    assert!(
        legal(&g, "b2-b1") && !legal(&g, "b2xa1"),
        "a Rabble moves orthogonally only"
    );
    let g = game(&basic(), &[("a1", 'K'), ("h8", 'k'), ("a2", 'r')], &[], B);
    assert!(legal(&g, "a2xa1"), "the Rabble takes the King");
}

#[test]
fn capture_same_category_needs_equal_or_higher_level() {
    // Spear (elite infantry) takes Rabble (basic infantry), not the reverse; Rabble takes Rabble.
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'S'),
            ("d5", 'r'),
            ("e5", 's'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d4xd5"));
    assert!(legal(&g, "d4xe5"), "elite takes elite");
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'R'),
            ("d5", 's'),
            ("e4", 'r'),
        ],
        &[],
        W,
    );
    assert!(
        !legal(&g, "d4xd5"),
        "basic infantry cannot take elite infantry"
    );
    assert!(legal(&g, "d4xe4"));
}

#[test]
fn capture_infantry_cavalry_ranged_triangle() {
    // infantry→cavalry, cavalry→ranged, ranged→infantry (and not the reverse).
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'R'),
            ("d5", 'h'),
            ("c3", 'L'),
            ("b4", 's'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d4xd5"), "basic infantry takes elite cavalry");
    assert!(!legal(&g, "c3xb4"), "cavalry cannot take infantry");
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("c3", 'L'),
            ("d4", 't'),
            ("e3", 'C'),
            ("f4", 's'),
            ("d2", 'c'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "c3xd4"), "basic cavalry takes elite ranged");
    assert!(legal(&g, "e3xf4"), "basic ranged takes elite infantry");
    let g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("e3", 'C'), ("f4", 'l')],
        &[],
        W,
    );
    assert!(!legal(&g, "e3xf4"), "ranged cannot take cavalry");
}

#[test]
fn capture_special_takes_troops_and_elephant_cannot_take_dragon() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'E'),
            ("d3", 's'),
            ("e1", 'E'),
            ("e2", 'd'),
            ("f1", 'D'),
            ("f3", 'e'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1xd3"), "the Elephant takes troops");
    assert!(
        !legal(&g, "e1xe2"),
        "the Elephant's \"all\" excludes the Dragon"
    );
    assert!(legal(&g, "f1xf3"), "the Dragon takes the Elephant");
    let g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("f1", 'E'), ("f3", 'e')],
        &[],
        W,
    );
    assert!(legal(&g, "f1xf3"), "Elephant takes Elephant");
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'D'),
            ("d4", 'e'),
            ("g4", 'h'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1xd4") && legal(&g, "d1xg4"));
}

#[test]
fn capture_elite_troops_take_the_dragon_basic_troops_take_the_elephant() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'S'),
            ("d5", 'd'),
            ("e4", 'R'),
            ("e5", 'e'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d4xd5"), "elite infantry takes the Dragon");
    assert!(legal(&g, "e4xe5"), "basic infantry takes the Elephant");
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'S'),
            ("d5", 'e'),
            ("e4", 'R'),
            ("e5", 'd'),
        ],
        &[],
        W,
    );
    assert!(
        !legal(&g, "d4xd5"),
        "elite infantry cannot take the Elephant"
    );
    assert!(!legal(&g, "e4xe5"), "basic infantry cannot take the Dragon");
}

#[test]
fn capture_mountains_never_captured() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'D'),
            ("d5", 'm'),
            ("e4", 'E'),
            ("e5", 'M'),
        ],
        &[],
        W,
    );
    assert!(!legal(&g, "d4xd5"));
    assert!(from(&g, "e4").iter().all(|m| !m.ends_with("e5")));
}

// ---------------------------------------------------------------- Version A movement

#[test]
fn basic_moves_are_straight_up_to_the_number_never_through_pieces() {
    // Elephant: up to 3 orthogonal; blocked by its own piece on d3.
    let g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'E'), ("d3", 'R')],
        &[],
        W,
    );
    assert_eq!(
        from(&g, "d1"),
        sorted(&["d1-b1", "d1-c1", "d1-d2", "d1-e1", "d1-f1", "d1-g1"])
    );
}

#[test]
fn basic_piece_ranges_and_directions() {
    let o = basic();
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'R')], &[], W);
    assert_eq!(
        from(&g, "d4"),
        sorted(&["d4-c4", "d4-d3", "d4-d5", "d4-e4"]),
        "Rabble 1 ortho"
    );
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'S')], &[], W);
    assert_eq!(from(&g, "d4").len(), 8, "Spear 1 any");
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'L')], &[], W);
    assert_eq!(
        from(&g, "d4"),
        sorted(&[
            "d4-b2", "d4-b6", "d4-c3", "d4-c5", "d4-e3", "d4-e5", "d4-f2", "d4-f6"
        ]),
        "Light Horse 2 diag"
    );
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'H')], &[], W);
    assert_eq!(
        from(&g, "d4").len(),
        11,
        "Heavy Horse 3 diag (a7, g7, g1, b2.. )"
    );
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'C')], &[], W);
    assert_eq!(from(&g, "d4").len(), 8, "Crossbowman 2 diag");
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'T')], &[], W);
    assert_eq!(from(&g, "d4").len(), 12, "Trebuchet 3 ortho");
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'D')], &[], W);
    assert_eq!(
        from(&g, "d4").len(),
        26,
        "Dragon 4 any: 14 orthogonal, 12 diagonal (a1 own King blocks, h8 is captured)"
    );
    let g = game(&o, &[("a1", 'K'), ("h8", 'k')], &[], W);
    assert_eq!(
        from(&g, "a1"),
        sorted(&["a1-a2", "a1-b1", "a1-b2"]),
        "King 1 any"
    );
}

#[test]
fn basic_dragon_flies_over_mountains_only() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'D'),
            ("d2", 'M'),
            ("d3", 'm'),
            ("e1", 'R'),
            ("e2", 'r'),
        ],
        &[],
        W,
    );
    let m = from(&g, "d1");
    assert!(
        m.contains(&"d1-d4".to_string()) && m.contains(&"d1-d5".to_string()),
        "over Mountains"
    );
    assert!(
        !m.iter().any(|x| x.ends_with("f1")),
        "not over its own piece"
    );
    assert!(
        m.contains(&"d1xe2".to_string()) && !m.iter().any(|x| x.ends_with("f3")),
        "not over enemies"
    );
}

#[test]
fn basic_capture_is_a_move_onto_the_enemy_with_an_open_line() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'E'),
            ("d2", 'm'),
            ("d3", 'r'),
            ("e1", 'E'),
            ("e3", 'r'),
        ],
        &[],
        W,
    );
    assert!(!legal(&g, "d1xd3"), "a Mountain closes the line");
    assert!(legal(&g, "e1xe3"));
    let mut g2 = g.clone();
    play(&mut g2, "e1xe3");
    assert_eq!(
        piece_char(g2.pos().board[g2.cell("e3").unwrap() as usize]),
        'E'
    );
}

#[test]
fn basic_trebuchet_captures_beyond_mountains_and_friends_staying_put() {
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'M'),
            ("d3", 'R'),
            ("d4", 's'),
            ("e1", 'T'),
            ("e2", 'm'),
            ("e3", 'r'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1*d4"), "over a Mountain and a friendly piece");
    assert!(legal(&g, "e1*e3"), "over an enemy Mountain");
    let mut g2 = g.clone();
    play(&mut g2, "d1*d4");
    assert_eq!(
        piece_char(g2.pos().board[g2.cell("d1").unwrap() as usize]),
        'T',
        "stays where it is"
    );
    assert_eq!(g2.pos().board[g2.cell("d4").unwrap() as usize], 0);
}

#[test]
fn basic_trebuchet_may_not_move_across_an_occupied_square() {
    let g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'T'), ("d2", 'M')],
        &[],
        W,
    );
    assert!(!legal(&g, "d1-d3") && !legal(&g, "d1-d4"));
}

#[test]
fn basic_trebuchet_stay_capture_needs_a_blocker_decision() {
    // [decision] with an open line the Trebuchet captures by moving; the stay capture is for targets
    // beyond Mountains/friends; an enemy in between blocks it.
    let g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d3", 'r'),
            ("e1", 'T'),
            ("e2", 'm'),
            ("e3", 'r'),
            ("e4", 'r'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1xd3") && !legal(&g, "d1*d3"));
    assert!(legal(&g, "e1*e3") && !legal(&g, "e1*e4"));
}

#[test]
fn basic_check_a_move_leaving_the_king_capturable_is_illegal() {
    // The Elephant on e2 is pinned by the Black Elephant on e8 against the King on e1.
    let g = game(
        &basic(),
        &[("e1", 'K'), ("e2", 'S'), ("e4", 'e'), ("h8", 'k')],
        &[],
        W,
    );
    assert!(!legal(&g, "e2-d3"), "pinned");
    assert!(legal(&g, "e2-e3"));
    let g = game(&basic(), &[("e1", 'K'), ("d3", 'e'), ("h8", 'k')], &[], W);
    assert!(
        !legal(&g, "e1-d1") && !legal(&g, "e1-d2"),
        "the King may not move into a threatened square"
    );
    assert!(legal(&g, "e1-f1"));
    let r = g
        .clone()
        .apply(Actor::Seat(W), &g.parse_action("e1-d2").unwrap());
    assert!(format!("{r:?}").contains("check"));
}

#[test]
fn basic_check_is_announced_and_must_be_answered() {
    let mut g = game(
        &basic(),
        &[("e1", 'K'), ("a3", 'E'), ("h8", 'k'), ("a7", 'r')],
        &[],
        W,
    );
    play(&mut g, "a3-a2");
    assert!(!g.in_check());
    let mut g = game(
        &basic(),
        &[("e1", 'K'), ("h5", 'E'), ("h8", 'k'), ("a7", 'r')],
        &[],
        W,
    );
    play(&mut g, "h5-h6");
    assert!(g.in_check(), "check announced");
    assert!(g.render_text(Observer::Spectator).contains("check"));
    // Every answer gets the King out of check.
    for a in legal_actions_vec(&g, B) {
        let mut c = g.clone();
        c.apply(Actor::Seat(B), &a).unwrap();
        assert!(!c.rules().attacked(c.pos(), c.pos().kings[1], 0));
    }
}

#[test]
fn basic_checkmate_ends_the_game_and_the_checkmating_side_wins() {
    // Black King h8 boxed by its own Mountains g7 and g8; a White Elephant arrives on h-file.
    let mut g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("g7", 'm'),
            ("g8", 'm'),
            ("h4", 'E'),
            ("a2", 'E'),
        ],
        &[],
        W,
    );
    play(&mut g, "h4-h7");
    // An unguarded checking piece is simply taken: no mate.
    assert!(
        legal_actions_vec(&g, B)
            .iter()
            .any(|a| g.action_notation(a) == "h8xh7")
    );
    let mut g = game(
        &basic(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("g7", 'm'),
            ("g8", 'm'),
            ("h4", 'E'),
            ("d3", 'D'),
        ],
        &[],
        W,
    );
    play(&mut g, "h4-h7");
    // h7 is guarded by the Dragon on d3 (diagonal d3-h7, 4 squares).
    match g.to_act() {
        ToAct::Over(o) => {
            assert_eq!(o.reason, "checkmate");
            assert_eq!(o.winning_seats(), vec![W]);
        }
        t => panic!("expected checkmate, got {t:?}"),
    }
}

#[test]
fn basic_no_legal_move_while_not_in_check_is_a_draw() {
    // [decision] stalemate is a draw: Black King a8 walled by Mountains a7, b7, b8.
    let mut g = game(
        &basic(),
        &[
            ("h1", 'K'),
            ("a8", 'k'),
            ("a7", 'm'),
            ("b7", 'm'),
            ("b8", 'm'),
            ("e4", 'R'),
        ],
        &[],
        W,
    );
    play(&mut g, "e4-e5");
    match g.to_act() {
        ToAct::Over(o) => {
            assert_eq!(o.reason, "stalemate");
            assert!(o.winning_seats().is_empty());
        }
        t => panic!("expected stalemate, got {t:?}"),
    }
}

#[test]
fn basic_threefold_repetition_is_a_draw() {
    let mut g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'R'), ("e5", 'r')],
        &[],
        W,
    );
    for _ in 0..2 {
        play(&mut g, "a1-a2");
        play(&mut g, "h8-h7");
        play(&mut g, "a2-a1");
        assert!(g.to_act().outcome().is_none());
        play(&mut g, "h7-h8");
    }
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.reason, "threefold repetition"),
        t => panic!("expected a draw, got {t:?}"),
    }
}

#[test]
fn basic_hundred_plies_without_capture_is_a_draw() {
    let mut g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'R'), ("e5", 'r')],
        &[],
        W,
    );
    let mut v = serde_json::to_value(&g).unwrap();
    v["quiet_plies"] = 99.into();
    v["ply"] = 99.into();
    g = serde_json::from_value(v).unwrap();
    g.validate().unwrap();
    play(&mut g, "a1-a2");
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.reason, "100 plies without a capture"),
        t => panic!("expected a draw, got {t:?}"),
    }
}

#[test]
fn basic_white_moves_first() {
    let mut g = CairdCyvasse::new(&basic()).unwrap();
    for s in [B, W] {
        let a = legal_actions_vec(&g, s)[0].clone();
        g.apply(Actor::Seat(s), &a).unwrap();
    }
    assert_eq!(g.to_act(), ToAct::Seat(W));
}

// ---------------------------------------------------------------- setup rules

fn classic_pieces() -> String {
    // rank 1..4 for White (home order).
    "TEHKDHET".to_string() + "CLSSSSLC" + "M.RRRR.M" + ".M.MM.M."
}

#[test]
fn setup_home_zone_and_counts_are_enforced() {
    let o = basic();
    validate_setup(
        &o,
        0,
        &SetupPlan {
            terrain: String::new(),
            pieces: classic_pieces(),
        },
    )
    .unwrap();
    let short = SetupPlan {
        terrain: String::new(),
        pieces: classic_pieces()[..31].to_string(),
    };
    assert!(
        validate_setup(&o, 0, &short)
            .unwrap_err()
            .contains("home zone")
    );
    let two_kings = SetupPlan {
        terrain: String::new(),
        pieces: classic_pieces().replacen('D', "K", 1),
    };
    let e = validate_setup(&o, 0, &two_kings).unwrap_err();
    assert!(e.contains("King"), "{e}");
    let mut g = CairdCyvasse::new(&o).unwrap();
    let r = g.apply(Actor::Seat(W), &CairdAction::Setup(two_kings));
    assert!(r.is_err());
    assert_eq!(
        g.to_act(),
        ToAct::Seats(vec![W, B]),
        "a refused setup changes nothing"
    );
}

#[test]
fn setup_mountain_pass_rule() {
    // Mountains across rank 3 (a3..f3) plus g3/h3 replaced: cut ranks 1-2 off from the front row.
    let cut = "TEHKDHET".to_string() + "CLSSSSLC" + "MMMMMM.." + "RRRR....";
    let p = SetupPlan {
        terrain: String::new(),
        pieces: cut.clone(),
    };
    assert!(validate_setup(&basic(), 0, &p).is_ok(), "g3/h3 still open");
    let cut = "TEHKDHET".to_string() + "CLSSSSLC" + "RRMMMMMM" + "RR......";
    let p = SetupPlan {
        terrain: String::new(),
        pieces: cut,
    };
    assert!(validate_setup(&basic(), 0, &p).is_ok());
    let sealed = "TEHKDHET".to_string() + "CLSSSSLC" + "RRRRMMMM" + "....MM..";
    let p = SetupPlan {
        terrain: String::new(),
        pieces: sealed,
    };
    assert!(validate_setup(&basic(), 0, &p).is_ok());
    // A pocket: h1 enclosed by Mountains g1, g2? (g1 holds a piece) → build: h2, g1 Mountains around h1.
    let pocket = "TEHKDEM.".to_string() + "CLSSSSLM" + "CTHRRRRM" + "...MMM..";
    let p = SetupPlan {
        terrain: String::new(),
        pieces: pocket,
    };
    let e = validate_setup(&basic(), 0, &p).unwrap_err();
    assert!(e.contains("mountain pass rule") && e.contains("h1"), "{e}");
}

#[test]
fn expert_setup_terrain_counts_king_in_fortress_no_mountain_on_water() {
    let o = expert();
    let pieces = classic_pieces();
    let terrain = "...c....".to_string() + "ff....ff" + ".w.hh.w." + "w.hffhfw";
    validate_setup(
        &o,
        0,
        &SetupPlan {
            terrain: terrain.clone(),
            pieces: pieces.clone(),
        },
    )
    .unwrap();
    let bad_count = terrain.replacen('h', ".", 1);
    let e = validate_setup(
        &o,
        0,
        &SetupPlan {
            terrain: bad_count,
            pieces: pieces.clone(),
        },
    )
    .unwrap_err();
    assert!(e.contains("Hills"), "{e}");
    let king_out = "....c...".to_string() + "ff....ff" + ".w.hh.w." + "w.hffhfw";
    let e = validate_setup(
        &o,
        0,
        &SetupPlan {
            terrain: king_out,
            pieces: pieces.clone(),
        },
    )
    .unwrap_err();
    assert!(e.contains("Fortress"), "{e}");
    let m_on_water = "...c....".to_string() + "ff....ff" + "ww.hh..." + "w.hffhfw";
    let e = validate_setup(
        &o,
        0,
        &SetupPlan {
            terrain: m_on_water,
            pieces,
        },
    )
    .unwrap_err();
    assert!(e.contains("Water"), "{e}");
}

#[test]
fn setup_views_hide_the_other_half_until_both_are_in() {
    let o = expert();
    let mut g = CairdCyvasse::new(&o).unwrap();
    let p = preset(&o, 0, "vanguard").unwrap();
    g.apply(Actor::Seat(W), &CairdAction::Setup(p.clone()))
        .unwrap();
    let black_view = serde_json::to_string(&g.view(Observer::Seat(B))).unwrap();
    assert!(!black_view.contains(&p.pieces) && !black_view.contains(&p.terrain));
    assert!(g.view(Observer::Seat(B)).setup_committed[0]);
    assert!(
        g.describe_action(
            Actor::Seat(W),
            &CairdAction::Setup(p.clone()),
            Observer::Seat(B)
        )
        .is_none()
    );
    let white_view = serde_json::to_string(&g.view(Observer::Seat(W))).unwrap();
    assert!(white_view.contains(&p.pieces));
}

// ---------------------------------------------------------------- Version C

#[test]
fn expert_water_halts_low_movement_piece() {
    // Light Horse (2 diag) may enter Water (cost 3) but halts there.
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'L')],
        &[("e5", 'w')],
        W,
    );
    let m = from(&g, "d4");
    assert!(m.contains(&"d4-e5".to_string()) && !m.contains(&"d4-f6".to_string()));
    assert!(m.contains(&"d4-f2".to_string()));
}

#[test]
fn expert_hills_and_forest_cost_two() {
    // Elephant (3 ortho): Grass (1) then Hills (2) spends all; Forest first then Grass: 2+1.
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'E')],
        &[("d3", 'h'), ("e1", 'f')],
        W,
    );
    let m = from(&g, "d1");
    assert!(m.contains(&"d1-d3".to_string()) && !m.contains(&"d1-d4".to_string()));
    assert!(m.contains(&"d1-f1".to_string()) && !m.contains(&"d1-g1".to_string()));
    // A 1-move piece always enters a costly square.
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'R')],
        &[("d5", 'w')],
        W,
    );
    assert!(legal(&g, "d4-d5"));
}

#[test]
fn expert_elephants_cross_water_at_cost_one() {
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'E')],
        &[("d2", 'w'), ("d3", 'w')],
        W,
    );
    assert!(legal(&g, "d1-d4"));
}

#[test]
fn expert_attacks_follow_the_same_cost_rule() {
    // Heavy Horse (3 diag): Hills at e5 spends 2 of 3; it may still attack f6 but not g7.
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'H'), ("f6", 't')],
        &[("e5", 'h')],
        W,
    );
    assert!(legal(&g, "d4xf6"));
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'H'), ("g7", 't')],
        &[("e5", 'h')],
        W,
    );
    assert!(!legal(&g, "d4xg7"));
}

#[test]
fn expert_entering_a_fortress_always_halts() {
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'E')],
        &[("d2", 'c')],
        W,
    );
    assert!(legal(&g, "d1-d2") && !legal(&g, "d1-d3"));
}

#[test]
fn expert_pieces_on_water_cannot_attack_dragon_excepted() {
    let g = game(
        &expert(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'S'),
            ("d5", 'r'),
            ("f4", 'D'),
            ("f5", 'r'),
        ],
        &[("d4", 'w'), ("f4", 'w')],
        W,
    );
    assert!(!legal(&g, "d4xd5"));
    assert!(legal(&g, "d4-c4"), "it may still move");
    assert!(legal(&g, "f4xf5"), "the Dragon attacks from Water");
}

#[test]
fn expert_dragons_ignore_terrain() {
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'D')],
        &[("d2", 'w'), ("d3", 'h'), ("d4", 'c')],
        W,
    );
    assert!(legal(&g, "d1-d5"), "no cost, no Fortress halt");
}

#[test]
fn expert_fortress_makes_its_piece_a_special_of_its_level() {
    // A Rabble in a Fortress defends as an Elephant-level special: a basic cavalry may take it,
    // the elite Spear may not.
    let o = expert();
    let g = game(
        &o,
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("c3", 'L'),
            ("e5", 'r'),
            ("e4", 'S'),
        ],
        &[("e5", 'c')],
        W,
    );
    assert!(
        legal(&g, "c3xe5"),
        "basic cavalry takes an Elephant-level special"
    );
    assert!(
        !legal(&g, "e4xe5"),
        "elite infantry cannot take an Elephant-level special"
    );
    let g = game(
        &o,
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("c3", 'L'),
            ("e5", 'r'),
            ("e4", 'S'),
        ],
        &[],
        W,
    );
    assert!(
        !legal(&g, "c3xe5") && legal(&g, "e4xe5"),
        "outside the Fortress the usual table"
    );
}

#[test]
fn expert_fortress_counts_for_capturing_too() {
    // "for capturing and being captured": a Rabble in a Fortress attacks as an Elephant-level special,
    // so it takes an elite ranged piece (specials take every troop); outside it cannot.
    let o = expert();
    let g = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'R'), ("d5", 't')],
        &[("d4", 'c')],
        W,
    );
    assert!(legal(&g, "d4xd5"));
    let g = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'R'), ("d5", 't')],
        &[],
        W,
    );
    assert!(!legal(&g, "d4xd5"), "infantry cannot take ranged");
}

#[test]
fn expert_fortress_effect_ends_after_a_shot_outside_decision() {
    // "until it leaves or captures outside"; [decision]: a capture outside that does not move the
    // piece ends the effect at once, for as long as it stays, and entering a Fortress anew regains it.
    // White's Crossbowman on its Fortress d3, Black's Light Horse on f5, Black's Rabble on d4.
    let o = expert();
    let pieces = [
        ("a1", 'K'),
        ("h8", 'k'),
        ("d3", 'C'),
        ("f5", 'l'),
        ("d4", 'r'),
    ];
    // Before the shot the Crossbowman is an Elephant-level special, which a basic Rabble takes.
    let black_first = game(&o, &pieces, &[("d3", 'c')], B);
    assert!(
        legal(&black_first, "d4xd3"),
        "Elephant-level special in the Fortress"
    );
    // Outside a Fortress a Rabble (infantry) cannot take a Crossbowman (ranged).
    let plain = game(&o, &pieces, &[], B);
    assert!(!legal(&plain, "d4xd3"), "infantry cannot take ranged");

    let mut g = game(&o, &pieces, &[("d3", 'c')], W);
    play(&mut g, "d3*f5");
    assert!(
        !legal(&g, "d4xd3"),
        "after its shot the Crossbowman counts at its own level, already for the reply"
    );
    // The state carries the fact: its JSON, the views and a position read back.
    let json = serde_json::to_value(&g).unwrap();
    assert_eq!(json["fortress_spent"], serde_json::json!([true, false]));
    for observer in [Observer::Seat(W), Observer::Seat(B), Observer::Spectator] {
        let view = serde_json::to_value(g.view(observer)).unwrap();
        assert_eq!(view["fortress_spent"], serde_json::json!([true, false]));
    }
    let back: CairdCyvasse = serde_json::from_value(json.clone()).unwrap();
    back.validate().unwrap();
    assert!(!legal(&back, "d4xd3"), "read back from JSON");
    let mut fresh = json;
    fresh["fortress_spent"] = serde_json::json!([false, false]);
    fresh["history"] = serde_json::json!([]);
    let fresh: CairdCyvasse = serde_json::from_value(fresh).unwrap();
    assert!(legal(&fresh, "d4xd3"), "the flag, not the board, decides");

    // Leaving and entering the Fortress anew gives the effect back.
    play(&mut g, "h8-g8");
    play(&mut g, "d3-e2");
    assert_eq!(
        serde_json::to_value(&g).unwrap()["fortress_spent"][0],
        false
    );
    play(&mut g, "g8-h8");
    play(&mut g, "e2-d3");
    assert!(
        legal(&g, "d4xd3"),
        "entered anew: an Elephant-level special again"
    );
}

#[test]
fn expert_dragon_ruins_a_fortress() {
    let mut g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'D')],
        &[("d5", 'c')],
        W,
    );
    play(&mut g, "d1-d5");
    let c = g.cell("d5").unwrap() as usize;
    assert_eq!(g.pos().terrain[c], rules::FOREST);
    let mut g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'D'), ("d5", 'r')],
        &[("d5", 'c')],
        W,
    );
    play(&mut g, "d1xd5");
    assert_eq!(
        g.pos().terrain[c],
        rules::FOREST,
        "capturing a piece in a Fortress ruins it"
    );
}

#[test]
fn expert_trebuchet_moves_one_and_shoots_three_ortho_over_mountains_and_friends() {
    let g = game(
        &expert(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'M'),
            ("d3", 'R'),
            ("d4", 's'),
            ("e1", 'r'),
        ],
        &[],
        W,
    );
    let m = from(&g, "d1");
    assert!(m.contains(&"d1*d4".to_string()));
    assert!(
        m.contains(&"d1-c2".to_string()) && !m.iter().any(|x| x == "d1-d3"),
        "moves 1 any"
    );
    assert!(
        m.contains(&"d1xe1".to_string()) && m.contains(&"d1*e1".to_string()),
        "move-capture and shot"
    );
    let g = game(
        &expert(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'r'),
            ("d3", 's'),
        ],
        &[],
        W,
    );
    assert!(!legal(&g, "d1*d3"), "an enemy in between blocks the shot");
    let g = game(
        &expert(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d5", 's'),
            ("e2", 's'),
        ],
        &[],
        W,
    );
    assert!(
        !legal(&g, "d1*d5") && !legal(&g, "d1*e2"),
        "range 3, orthogonal only"
    );
}

#[test]
fn expert_crossbowman_moves_two_diag_and_shoots_two_diag_blocked_by_any_piece() {
    let g = game(
        &expert(),
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'C'),
            ("f6", 's'),
            ("b6", 's'),
            ("c5", 'M'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d4*f6"));
    assert!(!legal(&g, "d4*b6"), "blocked by a Mountain");
    assert!(legal(&g, "d4xf6"), "may also capture by moving");
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'C'), ("d6", 's')],
        &[],
        W,
    );
    assert!(!legal(&g, "d4*d6"));
}

#[test]
fn expert_kings_morale_makes_adjacent_pieces_elite() {
    // A Rabble next to its King fights as elite infantry: it takes a Spear.
    let o = expert();
    let g = game(
        &o,
        &[("c3", 'K'), ("h8", 'k'), ("d4", 'R'), ("d5", 's')],
        &[("c3", 'c')],
        W,
    );
    assert!(legal(&g, "d4xd5"));
    let g = game(
        &o,
        &[("b2", 'K'), ("h8", 'k'), ("d4", 'R'), ("d5", 's')],
        &[],
        W,
    );
    assert!(!legal(&g, "d4xd5"), "not adjacent: basic");
    // Defending: a Rabble next to its King cannot be taken by an enemy Rabble.
    let g = game(
        &o,
        &[("a1", 'K'), ("e7", 'k'), ("d5", 'R'), ("d6", 'r')],
        &[],
        W,
    );
    assert!(!legal(&g, "d5xd6"));
    let g = game(
        &basic(),
        &[("c3", 'K'), ("h8", 'k'), ("d4", 'R'), ("d5", 's')],
        &[],
        W,
    );
    assert!(!legal(&g, "d4xd5"), "morale is a Version C rule");
}

// ---------------------------------------------------------------- optional rules

#[test]
fn large_board_is_ten_by_ten_with_five_home_rows() {
    let o = CairdOptions {
        large_board: true,
        ..expert()
    };
    let g = CairdCyvasse::new(&o).unwrap();
    assert_eq!(g.geo().n, 100);
    assert_eq!(g.geo().home[0].len(), 50);
    assert!(g.cell("j10").is_some());
    let p = preset(&o, 1, "phalanx").unwrap();
    let d = validate_setup(&o, 1, &p).unwrap();
    assert_eq!(d.terrain.iter().filter(|&&t| t == rules::FOREST).count(), 9);
    assert_eq!(d.terrain.iter().filter(|&&t| t == rules::GRASS).count(), 30);
}

#[test]
fn dragon_reserve_places_the_dragon_on_an_empty_square_of_your_half() {
    let o = CairdOptions {
        dragon_reserve: true,
        ..basic()
    };
    let g = game(&o, &[("a1", 'K'), ("h8", 'k'), ("d4", 'R')], &[], W)
        .with_reserve([true, true])
        .unwrap();
    assert!(legal(&g, "D@c3"));
    assert!(!legal(&g, "D@d4"), "occupied");
    assert!(!legal(&g, "D@c5"), "not in White's half");
    let mut g2 = g.clone();
    play(&mut g2, "D@c3");
    assert!(!g2.dragon_in_reserve(W) && g2.dragon_in_reserve(B));
    let p = preset(&o, 0, "phalanx").unwrap();
    assert!(!p.pieces.contains('D'), "the Dragon starts off-board");
}

#[test]
fn super_trebuchets_shoot_over_enemy_pieces() {
    let o = CairdOptions {
        super_trebuchets: true,
        ..expert()
    };
    let g = game(
        &o,
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'r'),
            ("d3", 's'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1*d3"));
    let g = game(
        &CairdOptions {
            super_trebuchets: true,
            ..basic()
        },
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d2", 'r'),
            ("d3", 's'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d1*d3"));
}

#[test]
fn dragonfyre_shoots_two_over_friends_not_over_mountains() {
    let o = CairdOptions {
        dragonfyre: true,
        ..basic()
    };
    let g = game(
        &o,
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d4", 'D'),
            ("d5", 'R'),
            ("d6", 's'),
            ("e5", 'M'),
            ("f6", 's'),
            ("b4", 'r'),
            ("d7", 'r'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "d4*d6"), "over a friendly piece");
    assert!(!legal(&g, "d4*f6"), "not over a Mountain");
    assert!(!legal(&g, "d4*d7"), "range 2");
    assert!(legal(&g, "d4*b4"));
    let g = game(
        &basic(),
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'D'), ("b4", 'r')],
        &[],
        W,
    );
    assert!(!legal(&g, "d4*b4"), "only with the option");
}

#[test]
fn castle_storming_ruins_the_fortress_if_not_recaptured() {
    let o = CairdOptions {
        castle_storming: true,
        ..expert()
    };
    let mut g = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'E'), ("a8", 'r')],
        &[("d6", 'c'), ("a1", 'c')],
        W,
    );
    play(&mut g, "d4-d6");
    assert!(
        !legal_actions_vec(&g, B)
            .iter()
            .any(|a| matches!(a, CairdAction::Ruin { .. }))
    );
    play(&mut g, "a8-a7");
    assert!(legal(&g, "ruin d6"), "the enemy did not recapture");
    play(&mut g, "ruin d6");
    assert_eq!(
        g.pos().terrain[g.cell("d6").unwrap() as usize],
        rules::FOREST
    );
    // Recaptured: no ruin.
    let mut g = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d4", 'E'), ("d8", 'e')],
        &[("d6", 'c'), ("a1", 'c')],
        W,
    );
    play(&mut g, "d4-d6");
    play(&mut g, "d8xd6");
    assert!(!legal(&g, "ruin d6"), "recaptured: the storm failed");
    assert!(
        !legal_actions_vec(&g, W)
            .iter()
            .any(|a| matches!(a, CairdAction::Ruin { .. }))
    );
}

#[test]
fn wildfyre_ranged_capture_on_water_burns_the_square() {
    let o = CairdOptions {
        wildfyre: true,
        ..expert()
    };
    let mut g = game(
        &o,
        &[
            ("a1", 'K'),
            ("h8", 'k'),
            ("d1", 'T'),
            ("d3", 's'),
            ("a7", 'r'),
        ],
        &[("d3", 'w')],
        W,
    );
    play(&mut g, "d1*d3");
    let c = g.cell("d3").unwrap() as usize;
    assert_eq!(g.pos().terrain[c], rules::BURNING);
    play(&mut g, "a7-a6");
    let g2 = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d2", 'R')],
        &[("d3", 'b')],
        W,
    );
    assert!(!legal(&g2, "d2-d3"), "burning squares are impassable");
    // [decision] the Dragon flies over a burning square but never stops on it.
    let g3 = game(
        &o,
        &[("a1", 'K'), ("h8", 'k'), ("d2", 'D')],
        &[("d3", 'b')],
        W,
    );
    assert!(legal(&g3, "d2-d4") && !legal(&g3, "d2-d3"));
}

// ---------------------------------------------------------------- options

#[test]
fn options_reject_combinations_the_rules_do_not_allow() {
    let bad = [
        CairdOptions {
            board: BoardKind::Hex,
            large_board: true,
            ..Default::default()
        },
        CairdOptions {
            sea_movement: true,
            ..Default::default()
        },
        CairdOptions {
            castle_storming: true,
            ..Default::default()
        },
        CairdOptions {
            wildfyre: true,
            ..Default::default()
        },
        CairdOptions {
            board: BoardKind::Hex,
            super_trebuchets: true,
            ..Default::default()
        },
    ];
    for o in bad {
        let e = o.validate().unwrap_err().to_string();
        assert!(e.contains("cannot be combined"), "{e}");
        assert!(CairdCyvasse::new(&o).is_err());
    }
    let e =
        tabula_core::options::parse_pairs::<CairdOptions, _>(&["version=advanced"]).unwrap_err();
    assert!(e.to_string().contains("basic|expert"));
    let e = tabula_core::options::parse_pairs::<CairdOptions, _>(&["colour=red"]).unwrap_err();
    assert!(e.to_string().contains("large_board"));
    let o = tabula_core::options::parse_pairs::<CairdOptions, _>(&[
        "board=hex",
        "sea_movement=true",
        "version=expert",
    ])
    .unwrap();
    assert!(o.sea_movement);
}

// ---------------------------------------------------------------- hex

#[test]
fn hex_orthogonal_and_glinski_diagonal_directions() {
    // f6 is the centre: 6 edge neighbours (Spear ortho part), 6 diagonals.
    let o = hex(Version::Basic);
    let g = game(&o, &[("k1", 'K'), ("a1", 'k'), ("f6", 'S')], &[], W);
    assert_eq!(from(&g, "f6").len(), 12, "Spear: 6 orthogonal + 6 diagonal");
    let g = game(&o, &[("k1", 'K'), ("a1", 'k'), ("f6", 'R')], &[], W);
    assert_eq!(
        from(&g, "f6"),
        sorted(&["f6-e5", "f6-e6", "f6-f5", "f6-f7", "f6-g5", "f6-g6"])
    );
}

#[test]
fn hex_dragon_moves_up_to_five_orthogonally_only() {
    let o = hex(Version::Basic);
    let g = game(&o, &[("k1", 'K'), ("a1", 'k'), ("f6", 'D')], &[], W);
    // From the centre every orthogonal ray has 5 cells; k1/a1 are not on them.
    assert_eq!(from(&g, "f6").len(), 29, "30 cells less k1, the own King's");
}

#[test]
fn hex_crossbowman_moves_two_orthogonally() {
    let g = game(
        &hex(Version::Basic),
        &[("k1", 'K'), ("a1", 'k'), ("f6", 'C')],
        &[],
        W,
    );
    assert_eq!(from(&g, "f6").len(), 12);
}

#[test]
fn hex_expert_ranged_range_is_one_more() {
    // Trebuchet shoots 4 orthogonally, Crossbowman 3.
    let o = hex(Version::Expert);
    let g = game(
        &o,
        &[
            ("k1", 'K'),
            ("a1", 'k'),
            ("f6", 'T'),
            ("f10", 's'),
            ("f2", 'r'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "f6*f10") && legal(&g, "f6*f2"));
    let g = game(
        &o,
        &[
            ("k1", 'K'),
            ("a1", 'k'),
            ("f6", 'C'),
            ("f9", 's'),
            ("f10", 'r'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "f6*f9") && !legal(&g, "f6*f10"));
}

#[test]
fn hex_screen_line_and_no_mans_land_take_no_pieces_or_terrain() {
    let o = hex(Version::Expert);
    let g = CairdCyvasse::new(&o).unwrap();
    let geo = g.geo();
    assert_eq!(geo.home_of.iter().filter(|&&h| h < 0).count(), 17);
    // A hand-written state with terrain in no-man's-land is refused.
    let bad = CairdCyvasse::from_placements(&o, &[("k1", 'K'), ("a1", 'k')], &[("f6", 'h')], W);
    assert!(bad.unwrap_err().contains("no-man's-land"));
    let d = validate_setup(&o, 0, &preset(&o, 0, "flanks").unwrap()).unwrap();
    assert_eq!(d.terrain.iter().filter(|&&t| t == rules::GRASS).count(), 21);
}

#[test]
fn hex_sea_movement_between_ports() {
    let o = CairdOptions {
        sea_movement: true,
        ..hex(Version::Basic)
    };
    // k1 and k6 are ports; f1 is the next port from k1 the other way.
    let g = game(
        &o,
        &[
            ("e5", 'K'),
            ("a3", 'k'),
            ("k1", 'R'),
            ("k6", 'r'),
            ("a6", 'D'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "k1-f1"));
    assert!(
        legal(&g, "k1xk6"),
        "captures only what it may capture: Rabble takes Rabble"
    );
    let g = game(
        &o,
        &[("e5", 'K'), ("a3", 'k'), ("k1", 'R'), ("k6", 's')],
        &[],
        W,
    );
    assert!(!legal(&g, "k1xk6"));
    let g = game(
        &o,
        &[
            ("e5", 'K'),
            ("a3", 'k'),
            ("k1", 'D'),
            ("k2", 'R'),
            ("j1", 'R'),
        ],
        &[],
        W,
    );
    assert!(!legal(&g, "k1-k6") && !legal(&g, "k1-f1"), "not the Dragon");
    let mut p = preset(&o, 0, "phalanx").unwrap();
    let d = validate_setup(&o, 0, &p).unwrap();
    let _ = d;
    // A Mountain on a port is refused.
    let geo = g.geo();
    let k1 = geo.home[0]
        .iter()
        .position(|&c| geo.name(c) == "k1")
        .unwrap();
    let mut chars: Vec<char> = p.pieces.chars().collect();
    let m = chars.iter().position(|&c| c == 'M').unwrap();
    chars.swap(m, k1);
    p.pieces = chars.into_iter().collect();
    let e = validate_setup(&o, 0, &p).unwrap_err();
    assert!(e.contains("port") || e.contains("pass"), "{e}");
}

// ---------------------------------------------------------------- notation and JSON

#[test]
fn notation_round_trips_and_json_state_is_readable() {
    let o = expert();
    let mut g = CairdCyvasse::new(&o).unwrap();
    for s in [W, B] {
        let a = CairdAction::Setup(preset(&o, s.index(), "flanks").unwrap());
        assert_eq!(g.parse_action(&g.action_notation(&a)).unwrap(), a);
        g.apply(Actor::Seat(s), &a).unwrap();
    }
    for a in legal_actions_vec(&g, W) {
        assert_eq!(g.parse_action(&g.action_notation(&a)).unwrap(), a);
    }
    let json = serde_json::to_string_pretty(&g).unwrap();
    let back: CairdCyvasse = serde_json::from_str(&json).unwrap();
    back.validate().unwrap();
    assert!(g.parse_action("z9-a1").is_err());
    assert!(g.parse_action("hello").is_err());
    // A hand-written inconsistent state is refused with a reason.
    let mut v = serde_json::to_value(&g).unwrap();
    v["board"] = serde_json::Value::String(v["board"].as_str().unwrap().replace('K', "R"));
    let bad: CairdCyvasse = serde_json::from_value(v).unwrap();
    assert!(bad.validate().unwrap_err().contains("King"));
}

#[test]
fn setup_exposed_king_may_be_captured_on_the_first_move() {
    // [decision] the hidden setup can leave Black's King capturable on White's first move: taking it
    // wins at once, and the final state is consistent.
    let mut g = game(&basic(), &[("d4", 'K'), ("e5", 'k')], &[], W);
    play(&mut g, "d4xe5");
    match g.to_act() {
        ToAct::Over(o) => {
            assert_eq!(o.reason, "King captured");
            assert_eq!(o.winning_seats(), vec![W]);
        }
        t => panic!("expected a King capture, got {t:?}"),
    }
    g.validate().unwrap();
    let json = serde_json::to_string(&g).unwrap();
    let back: CairdCyvasse = serde_json::from_str(&json).unwrap();
    back.validate().unwrap();
}

#[test]
fn hex_dragonfyre_is_orthogonal_range_two() {
    let o = CairdOptions {
        dragonfyre: true,
        ..hex(Version::Basic)
    };
    // f6 is the centre; f8 lies two cells along row f (orthogonal), h5 is a Glinski diagonal cell.
    let g = game(
        &o,
        &[
            ("k1", 'K'),
            ("a1", 'k'),
            ("f6", 'D'),
            ("f7", 'R'),
            ("f8", 's'),
            ("h5", 's'),
        ],
        &[],
        W,
    );
    assert!(legal(&g, "f6*f8"), "orthogonal, over a friendly piece");
    // h5 is a Glinski diagonal neighbour of f6 (two rows down): not a dragonfyre line.
    assert!(
        g.geo()
            .line(g.cell("f6").unwrap(), g.cell("h5").unwrap())
            .is_some()
    );
    assert!(!legal(&g, "f6*h5"), "hex dragonfyre is orthogonal only");
}

/// Rules, `dragon_reserve` on the hexagon (**[decision]**): the reserve Dragon is placed on an empty
/// cell of the player's own home area only, never in no-man's-land nor in the enemy's home.
#[test]
fn hex_dragon_reserve_places_only_on_the_own_home_area() {
    for version in [Version::Basic, Version::Expert] {
        let o = CairdOptions {
            dragon_reserve: true,
            ..hex(version)
        };
        let geo = CairdCyvasse::new(&o).unwrap().geo();
        for (seat, king, enemy_king, blocker) in [(W, "k1", "a1", "j3"), (B, "a1", "k1", "b3")] {
            let mut pieces = vec![
                (king, if seat == W { 'K' } else { 'k' }),
                (enemy_king, if seat == W { 'k' } else { 'K' }),
            ];
            pieces.push((blocker, if seat == W { 'R' } else { 'r' }));
            let g = game(&o, &pieces, &[], seat)
                .with_reserve([true, true])
                .unwrap();
            let places: Vec<u8> = legal_actions_vec(&g, seat)
                .into_iter()
                .filter_map(|a| match a {
                    CairdAction::Place { to } => Some(to),
                    _ => None,
                })
                .collect();
            let own = i8::try_from(seat.0).unwrap();
            assert_eq!(
                places.len(),
                35,
                "37 home cells less the King's and the Rabble's"
            );
            for &c in &places {
                assert_eq!(
                    geo.home_of[c as usize],
                    own,
                    "{} is not a home cell",
                    geo.name(c)
                );
            }
            let mut want: Vec<u8> = geo.home[seat.index()]
                .iter()
                .copied()
                .filter(|&c| geo.name(c) != king && geo.name(c) != blocker)
                .collect();
            want.sort_unstable();
            let mut got = places.clone();
            got.sort_unstable();
            assert_eq!(got, want);
            // Nothing in no-man's-land (f6 is its centre) nor in the enemy's home.
            assert!(!legal(&g, "D@f6"), "not in no-man's-land");
            let enemy_home = geo.home[1 - seat.index()][0];
            assert!(!legal(&g, &format!("D@{}", geo.name(enemy_home))));
            assert!(
                (0..geo.n as u8)
                    .filter(|&c| geo.home_of[c as usize] != own)
                    .all(|c| !places.contains(&c))
            );
        }
    }
}

#[test]
fn expert_pieces_on_water_cannot_shoot() {
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'T'), ("d3", 's')],
        &[("d1", 'w')],
        W,
    );
    assert!(!legal(&g, "d1*d3"));
    let g = game(
        &expert(),
        &[("a1", 'K'), ("h8", 'k'), ("d1", 'T'), ("d3", 's')],
        &[],
        W,
    );
    assert!(legal(&g, "d1*d3"));
}

/// Rules, King's morale on the hexagon (**[decision]**): "adjacent orthogonally or diagonally" is all
/// 12 cells of the hex directions, the 6 edge neighbours and the 6 Glinski diagonals.
#[test]
fn hex_kings_morale_reaches_all_twelve_neighbours() {
    let o = hex(Version::Expert);
    let geo = CairdCyvasse::new(&o).unwrap().geo();
    let i5 = geo.cell("i5").unwrap();
    let f6 = geo.cell("f6").unwrap();
    // The example: White King i5, White Rabble h7 (a diagonal neighbour of i5), Black Rabble
    // g7 to move. The Rabble on h7 fights as elite infantry, so g7xh7 is not offered.
    let h7 = geo.cell("h7").unwrap();
    assert!(
        (6..12).any(|d| geo.step[i5 as usize][d] == h7),
        "h7 is diagonal to i5"
    );
    let g = game(
        &o,
        &[("i5", 'K'), ("a1", 'k'), ("h7", 'R'), ("g7", 'r')],
        &[],
        B,
    );
    assert!(!legal(&g, "g7xh7"), "h7 has morale from its King on i5");
    // Without the King near, the same capture is legal (the test is about morale, nothing else).
    let g = game(
        &o,
        &[("k1", 'K'), ("a1", 'k'), ("h7", 'R'), ("g7", 'r')],
        &[],
        B,
    );
    assert!(legal(&g, "g7xh7"));
    // Attacking: a Rabble diagonal to its King takes a Spear.
    let f8 = geo.cell("f8").unwrap();
    let d7 = (6..12)
        .map(|d| geo.step[f6 as usize][d])
        .find(|&c| c != 255 && geo.step[c as usize][..6].contains(&f8))
        .expect("a diagonal neighbour of f6 next to f8");
    let g = game(
        &o,
        &[("f6", 'K'), ("a1", 'k'), (geo.name(d7), 'R'), ("f8", 's')],
        &[],
        W,
    );
    assert!(legal(&g, &format!("{}xf8", geo.name(d7))));
    // "Adjacent" is exactly the 12 cells one hex step away.
    for c in 0..geo.n as u8 {
        let want = (0..12).any(|d| geo.step[f6 as usize][d] == c);
        assert_eq!(geo.adjacent(f6, c), want, "f6 and {}", geo.name(c));
    }
    assert_eq!(
        (0..geo.n as u8).filter(|&c| geo.adjacent(f6, c)).count(),
        12
    );
}

//! The cells of every legal action (`Game::action_cells`, sent to clients as `cells`), per game, over
//! random legal play:
//!
//! * they are names the view the client receives draws (the web renderers' cell names, ported here
//!   from `web/src/games/*.ts` `cellNames`), and the client can tell every action apart: clicking an
//!   action's cells ends in that action, alone or in a choice whose buttons (notations) differ;
//! * migration check: they equal what the web client used to read out of the notation (its
//!   `CellTokenizer`, ported here, with its rule that an action naming more than 8 cells is a button).
//!   Over every game and option set below the two agree on every action: the old reading was right
//!   wherever random play goes, so the switch to engine cells changes no click.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use tabula_core::dynamic::{DynState, ListedAction};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Observer, Seat, ToAct, rng_from_seed};

// ---------------------------------------------------------------------------------------------
// The names a view draws (ports of the renderers' `cellNames`).

fn kyo_names() -> Vec<String> {
    let mut out = Vec::new();
    for f in 'A'..='J' {
        for r in 0..10 {
            out.push(format!("{f}{r}"));
        }
    }
    out
}

/// The 91 row-named hex cells `a1`..`k6` (`web/src/logic/hex.ts` `rowCellNames`).
fn row_cell_names() -> Vec<String> {
    let mut out = Vec::new();
    for (r, letter) in "abcdefghijk".chars().enumerate() {
        let len = 11 - (r as i32 - 5).abs();
        for i in 1..=len {
            out.push(format!("{letter}{i}"));
        }
    }
    out
}

fn caird_names(options: &Value) -> Vec<String> {
    if options["board"] == "hex" {
        return row_cell_names();
    }
    let w = if options["large_board"] == true {
        10
    } else {
        8
    };
    let mut out = Vec::new();
    for rank in 0..w {
        for file in 0..w {
            out.push(format!("{}{}", (b'a' + file) as char, rank + 1));
        }
    }
    out
}

/// Every grid cell, its corners and the cells next to the grid (`territoryPoints`).
fn territories_names(view: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for c in view["grid"].as_array().into_iter().flatten() {
        let (Some(x), Some(y)) = (c["at"][0].as_i64(), c["at"][1].as_i64()) else {
            continue;
        };
        for dx in -1..=2 {
            for dy in -1..=2 {
                out.push(format!("{},{}", x + dx, y + dy));
            }
        }
    }
    out
}

/// The map's areas and the view's units (`u12`).
fn syba_names(view: &Value) -> Vec<String> {
    let mut out: Vec<String> = syba::content::content()
        .areas
        .iter()
        .map(|a| a.id.clone())
        .collect();
    for u in view["state"]["units"].as_array().into_iter().flatten() {
        out.push(format!("u{}", u["id"].as_u64().unwrap()));
    }
    out
}

/// The names `view` draws, and whether they are whole words (areas) rather than coordinates.
fn view_names(game: &str, view: &Value, options: &Value) -> (Vec<String>, bool) {
    match game {
        "kyo" => (kyo_names(), false),
        "cyvasse-trump" => (row_cell_names(), false),
        "cyvasse-caird" => (caird_names(options), false),
        "territories" => (territories_names(view), false),
        "syba" => (syba_names(view), true),
        other => panic!("no renderer names for {other}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The web client's former reading of notation (`web/src/logic/select.ts` `CellTokenizer` and the
// `Selection` constructor's `maxCells = 8`), ported for the migration check.

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '\'' || c == '-'
}

fn legacy_cells(notation: &str, names: &[String], words: bool) -> Vec<String> {
    // Longest names first (so `a10` wins over `a1`), ties alphabetically: the regex's alternation.
    let mut sorted: Vec<&String> = names
        .iter()
        .filter(|n| !n.is_empty())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    sorted.sort_by(|a, b| b.chars().count().cmp(&a.chars().count()).then(a.cmp(b)));
    let text: Vec<char> = notation.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let before = if i > 0 { Some(text[i - 1]) } else { None };
        let found = sorted.iter().find(|n| {
            let n: Vec<char> = n.chars().collect();
            if text.len() < i + n.len() || text[i..i + n.len()] != n[..] {
                return false;
            }
            let after = text.get(i + n.len()).copied();
            if words {
                !before.is_some_and(name_char) && !after.is_some_and(name_char)
            } else {
                !after.is_some_and(|c| c.is_ascii_digit())
            }
        });
        match found {
            None => i += 1,
            Some(n) => {
                let first = n.chars().next().unwrap();
                if first.is_ascii_digit() && before.is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                    continue;
                }
                out.push(n.to_string());
                i += n.chars().count();
            }
        }
    }
    if out.len() > 8 { Vec::new() } else { out }
}

// ---------------------------------------------------------------------------------------------
// The client's click logic (`Selection.click`), ported to check that each action can be chosen.

enum Click {
    Submit(usize),
    Choose(Vec<usize>),
    Select,
    Clear,
}

fn starts_with(cells: &[String], prefix: &[String]) -> bool {
    prefix.len() <= cells.len() && cells[..prefix.len()] == *prefix
}

fn targets(legal: &[ListedAction], prefix: &[String]) -> HashSet<String> {
    legal
        .iter()
        .filter(|a| !a.cells.is_empty() && starts_with(&a.cells, prefix))
        .filter_map(|a| a.cells.get(prefix.len()).cloned())
        .collect()
}

fn complete(legal: &[ListedAction], prefix: &[String]) -> Vec<usize> {
    (0..legal.len())
        .filter(|&i| !legal[i].cells.is_empty() && legal[i].cells == prefix)
        .collect()
}

fn click(legal: &[ListedAction], prefix: &mut Vec<String>, cell: &str) -> Click {
    let mut next = prefix.clone();
    next.push(cell.to_string());
    if !targets(legal, prefix).contains(cell) {
        if !prefix.is_empty() && targets(legal, &[]).contains(cell) {
            next = vec![cell.to_string()];
        } else {
            prefix.clear();
            return Click::Clear;
        }
    }
    *prefix = next;
    let done = complete(legal, prefix);
    let more = !targets(legal, prefix).is_empty();
    if done.len() == 1 && !more {
        prefix.clear();
        return Click::Submit(done[0]);
    }
    if !done.is_empty() {
        return Click::Choose(done);
    }
    Click::Select
}

// ---------------------------------------------------------------------------------------------
// The check over random play.

#[derive(Default)]
struct Tally {
    decisions: usize,
    actions: usize,
    with_cells: usize,
    choices: usize,
}

fn check_decision(
    game: &str,
    state: &dyn DynState,
    seat: Seat,
    options: &Value,
    tally: &mut Tally,
) {
    let legal = state.legal_actions_listed(seat);
    if legal.is_empty() {
        return;
    }
    let view = state.view(Observer::Seat(seat));
    let (names, words) = view_names(game, &view, options);
    let known: HashSet<&String> = names.iter().collect();
    tally.decisions += 1;
    tally.actions += legal.len();
    let mut by_cells: HashMap<&[String], Vec<&str>> = HashMap::new();
    for (i, a) in legal.iter().enumerate() {
        for c in &a.cells {
            assert!(
                known.contains(c),
                "{game}: `{}` names cell `{c}`, which the view of seat {seat} does not draw",
                a.notation
            );
        }
        assert_eq!(
            a.cells,
            legacy_cells(&a.notation, &names, words),
            "{game}: `{}`: the engine's cells differ from the old reading of the notation",
            a.notation
        );
        by_cells.entry(&a.cells).or_default().push(&a.notation);
        if a.cells.is_empty() {
            continue;
        }
        tally.with_cells += 1;
        // Clicking the action's cells, in order, ends in it: submitted, or offered in a choice.
        let mut prefix = Vec::new();
        let mut end = None;
        for (k, c) in a.cells.iter().enumerate() {
            let r = click(&legal, &mut prefix, c);
            if k + 1 < a.cells.len() {
                match r {
                    Click::Select | Click::Choose(_) => {}
                    _ => panic!(
                        "{game}: clicking {:?} for `{}` stopped early",
                        a.cells, a.notation
                    ),
                }
            } else {
                end = Some(r);
            }
        }
        match end {
            Some(Click::Submit(j)) => {
                assert_eq!(j, i, "{game}: `{}` submitted another", a.notation)
            }
            Some(Click::Choose(opts)) => {
                assert!(
                    opts.contains(&i),
                    "{game}: `{}` missing from its choice",
                    a.notation
                );
                tally.choices += 1;
            }
            _ => panic!(
                "{game}: clicking {:?} does not choose `{}`",
                a.cells, a.notation
            ),
        }
    }
    // Actions sharing their cells (or shown as buttons) are told apart by their notation.
    for (cells, notations) in by_cells {
        let distinct: HashSet<&&str> = notations.iter().collect();
        assert_eq!(
            distinct.len(),
            notations.len(),
            "{game}: actions with cells {cells:?} share a notation: {notations:?}"
        );
    }
}

/// Plays `games` random games of `options` (chance from the seed, each seat's action drawn from its
/// list), checking every decision of every seat that owes one.
fn check_game(game: &str, options: &[&str], games: u64, max_actions: usize) {
    let registry = tabula_ai::games::registry();
    let kind = registry.get(game).unwrap();
    let pairs: Vec<String> = options.iter().map(|s| s.to_string()).collect();
    let options = kind.parse_options(&pairs).unwrap();
    let mut tally = Tally::default();
    for g in 0..games {
        let mut state = kind.new_state(&options).unwrap();
        let mut rng = rng_from_seed(0xce11 + g);
        for _ in 0..max_actions {
            match state.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => {
                    let a = state.sample_chance(&mut rng).unwrap();
                    state.apply(Actor::Chance, &a).unwrap();
                }
                to_act => {
                    let seats = to_act.seats();
                    for &s in &seats {
                        check_decision(game, state.as_ref(), s, &options, &mut tally);
                    }
                    let seat = seats[rng.random_range(0..seats.len())];
                    let legal = state.legal_actions(seat);
                    let a = &legal[rng.random_range(0..legal.len())];
                    state.apply(Actor::Seat(seat), a).unwrap();
                }
            }
        }
    }
    assert!(tally.with_cells > 0, "{game}: no action with cells was met");
    eprintln!(
        "{game} {options}: {} decisions, {} actions ({} with cells, {} reached through a choice)",
        tally.decisions, tally.actions, tally.with_cells, tally.choices
    );
}

#[test]
fn kyo_action_cells_are_view_squares_and_choose_each_action() {
    for opts in [
        &[][..],
        &["extra_pieces=true"],
        &["light_pawn_rows=deadlock"],
    ] {
        check_game("kyo", opts, 3, 300);
    }
}

#[test]
fn strength_and_trump_action_cells_are_view_cells_and_choose_each_action() {
    check_game("cyvasse-trump", &[], 6, 300);
}

#[test]
fn caird_action_cells_are_view_cells_and_choose_each_action() {
    for opts in [
        &[][..],
        &["version=expert"],
        &["board=hex", "sea_movement=true"],
        &[
            "large_board=true",
            "version=expert",
            "dragon_reserve=true",
            "castle_storming=true",
        ],
    ] {
        check_game("cyvasse-caird", opts, 4, 300);
    }
}

#[test]
fn territories_action_cells_are_view_points_and_choose_each_action() {
    check_game("territories", &[], 6, 400);
}

#[test]
fn syba_action_cells_are_view_areas_and_units_and_choose_each_action() {
    for players in ["players=2", "players=4", "players=6"] {
        check_game("syba", &[players], 3, 400);
    }
}

/// The port of the old reading reads what the web client read (cases from `select.test.ts`).
#[test]
fn the_ported_tokenizer_reads_like_the_old_client() {
    let names: Vec<String> = ["a1", "a10", "b2", "1,2", "11,2"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(legacy_cells("a10-b2", &names, false), ["a10", "b2"]);
    assert_eq!(legacy_cells("a1xb2", &names, false), ["a1", "b2"]);
    assert_eq!(legacy_cells("build 11,2", &names, false), ["11,2"]);
    assert_eq!(legacy_cells("roll 12", &names, false), Vec::<String>::new());
    let words: Vec<String> = ["bell", "kaul", "u3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(legacy_cells("attack city:kaul", &words, true), ["kaul"]);
    assert_eq!(legacy_cells("research rebellion u3", &words, true), ["u3"]);
    assert_eq!(legacy_cells("move u3 bell-tower", &words, true), ["u3"]);
}

//! Property tests over random legal play (seeded, so every failure is reproducible).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, GameRng, Observer, Seat, ToAct, rng_from_seed, tools};
use territories::{
    Ability, Action, BankTake, Card, Item, Piece, Point, Res, Territories, TerritoriesOptions,
};

/// Far more than any game needs: 200 turns with at most a few dozen actions each.
const MAX_ACTIONS: u64 = 100_000;

fn random_point(rng: &mut GameRng) -> Point {
    (rng.random_range(-2..8i8), rng.random_range(-2..7i8))
}

fn random_res(rng: &mut GameRng) -> Res {
    Res::ALL[rng.random_range(0..4usize)]
}

fn random_card(rng: &mut GameRng) -> Card {
    let deck = Card::deck();
    deck[rng.random_range(0..deck.len())]
}

fn random_item(rng: &mut GameRng) -> Item {
    if rng.random::<bool>() {
        Item::Res(random_res(rng))
    } else {
        Item::Territory(random_card(rng))
    }
}

/// An arbitrary seat action, legal or not.
fn random_action(rng: &mut GameRng) -> Action {
    let piece = Piece::ALL[rng.random_range(0..6usize)];
    match rng.random_range(0..22u8) {
        0 => Action::Place(random_point(rng)),
        1 => Action::TempleTake(random_res(rng)),
        2 => Action::Discard(random_item(rng)),
        3 => Action::Build(random_point(rng)),
        4 => Action::Upgrade(random_point(rng), piece),
        5 => Action::Give(random_item(rng)),
        6 => Action::AskRes(random_res(rng)),
        7 => Action::AskTerritory,
        8 => Action::Propose,
        9 => Action::Withdraw,
        10 => Action::Accept,
        11 => Action::Decline,
        12 => Action::HandOver(random_card(rng)),
        13 => {
            let take = if rng.random::<bool>() {
                BankTake::Territory
            } else {
                BankTake::Res(random_res(rng))
            };
            Action::Bank(random_res(rng), take)
        }
        14 => Action::Use(Ability::ALL[rng.random_range(0..4usize)]),
        15 => Action::Pay(random_res(rng)),
        16 => Action::Survey(random_point(rng), random_card(rng)),
        17 => Action::Expand(random_point(rng), random_card(rng)),
        18 => Action::Raze(random_point(rng)),
        19 => Action::Convert(random_point(rng), piece),
        20 => Action::Roll(rng.random_range(2..=12u8)),
        _ => Action::EndTurn,
    }
}

fn resources_total(g: &Territories) -> u32 {
    g.bank.iter().map(|&n| n as u32).sum::<u32>()
        + g.hands.iter().map(|h| h.resource_count()).sum::<u32>()
}

fn territories_total(g: &Territories) -> usize {
    g.grid.len() + g.pile.len() + g.hands.iter().map(|h| h.territories.len()).sum::<usize>()
}

/// Checks the per-state properties; `deep` adds the expensive ones.
fn check_state(g: &Territories, rng: &mut GameRng, deep: bool) {
    g.validate().unwrap();
    assert_eq!(resources_total(g), 52, "52 resource cards in bank + hands");
    if !matches!(g.phase, territories::Phase::Deal) {
        assert_eq!(
            territories_total(g),
            40,
            "40 territory cards in grid + pile + hands"
        );
    }
    let to_act = g.to_act();
    // Exactness: the listed actions are accepted, arbitrary others are refused unchanged.
    for seat in [Seat(0), Seat(1)] {
        let legal = tabula_core::legal_actions_vec(g, seat);
        assert_eq!(legal.is_empty(), !to_act.includes(seat));
        if deep {
            for a in &legal {
                let mut c = g.clone();
                c.apply(Actor::Seat(seat), a).unwrap();
                assert_eq!(g.parse_action(&g.action_notation(a)).unwrap(), *a);
            }
        }
        for _ in 0..4 {
            let a = random_action(rng);
            let mut c = g.clone();
            let r = c.apply(Actor::Seat(seat), &a);
            assert_eq!(r.is_ok(), legal.contains(&a), "{a:?} by {seat}: {r:?}");
            if r.is_err() {
                assert_eq!(&c, g, "a refused action changed the state");
            }
        }
    }
    if deep {
        // JSON round trip of the state is the identity.
        let json = serde_json::to_string(g).unwrap();
        let back: Territories = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, g);
        // Views never leak: a determinized state (hidden parts resampled) looks the same to the seat,
        // and to spectators; determinize depends only on the view.
        for seat in [Seat(0), Seat(1)] {
            let seed = rng.random::<u64>();
            let d = g.determinize(seat, &mut rng_from_seed(seed));
            d.validate().unwrap();
            assert_eq!(d.view(Observer::Seat(seat)), g.view(Observer::Seat(seat)));
            assert_eq!(d.view(Observer::Spectator), g.view(Observer::Spectator));
            let d2 = d.determinize(seat, &mut rng_from_seed(seed));
            assert_eq!(d2, d, "determinize must depend only on the view");
            let v = g.view(Observer::Seat(seat));
            let opp = 1 - seat.index();
            assert!(v.hands[opp].resources.is_none() && v.hands[opp].territories.is_none());
        }
    }
}

fn play_checked(seed: u64, options: TerritoriesOptions) -> Territories {
    let mut g = Territories::new(&options).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut check_rng = rng_from_seed(seed ^ 0xdead_beef);
    let mut buf = Vec::new();
    for step in 0..MAX_ACTIONS {
        check_state(&g, &mut check_rng, step % 13 == 0);
        match g.to_act() {
            ToAct::Over(_) => return g,
            ToAct::Chance => {
                let mut outcomes = Vec::new();
                g.chance_outcomes(&mut outcomes);
                let a = g.sample_chance(&mut rng).unwrap();
                if !outcomes.is_empty() {
                    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                    assert!((total - 1.0).abs() < 1e-9);
                    assert!(outcomes.iter().any(|(o, _)| *o == a));
                }
                assert_eq!(g.parse_action(&g.action_notation(&a)).unwrap(), a);
                g.apply(Actor::Chance, &a).unwrap();
            }
            to_act => {
                let seat = to_act.seats()[0];
                buf.clear();
                g.legal_actions(seat, &mut buf);
                assert!(
                    !buf.is_empty(),
                    "a seat owes a decision but has no legal action"
                );
                let a = buf[rng.random_range(0..buf.len())].clone();
                let other = Observer::Seat(Seat(1 - seat.0));
                if let Action::Discard(Item::Territory(c)) | Action::HandOver(c) = &a {
                    let d = g
                        .describe_action(Actor::Seat(seat), &a, Observer::Spectator)
                        .unwrap();
                    assert!(!d.contains(&c.to_string()), "spectator sees {d}");
                    if matches!(a, Action::Discard(_)) {
                        let d = g.describe_action(Actor::Seat(seat), &a, other).unwrap();
                        assert!(!d.contains(&c.to_string()), "opponent sees {d}");
                    }
                }
                g.apply(Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    panic!("the game did not end within {MAX_ACTIONS} actions");
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(32) })]

    /// Random legal play never panics, keeps every invariant (validate, 52 resources, 40 territory
    /// cards), lists exactly the legal actions, round-trips JSON and notation, never leaks hidden cards
    /// in views or descriptions, and ends within the turn limit.
    #[test]
    fn random_play_keeps_every_invariant(seed in any::<u64>()) {
        let g = play_checked(seed, TerritoriesOptions::default());
        prop_assert!(g.turn <= 200);
        prop_assert!(g.to_act().outcome().is_some());
    }

    /// The same with the non-default options (short games, more offers, resources-only hand limit).
    #[test]
    fn random_play_with_options_keeps_every_invariant(seed in any::<u64>(), turns in 2u32..60, offers in 0u8..6) {
        let options = TerritoriesOptions {
            max_turns: turns,
            max_offers: offers,
            hand_limit_counts_territories: false,
        };
        let g = play_checked(seed, options);
        prop_assert!(g.turn <= turns);
    }

    /// `tools::random_record` + `tools::replay` (with the seed audit) reproduce the same final state,
    /// also through the record's JSON form.
    #[test]
    fn record_replays_to_the_same_final_state(seed in any::<u64>()) {
        let (state, record) =
            tools::random_record::<Territories>(TerritoriesOptions::default(), seed, MAX_ACTIONS).unwrap();
        prop_assert!(state.to_act().outcome().is_some());
        let replayed = tools::replay(&record, true).unwrap();
        prop_assert_eq!(&replayed, &state);
        let json = record.to_json().unwrap();
        let typed = tabula_core::record::Record::<Territories>::from_json(&json).unwrap();
        prop_assert_eq!(tools::replay(&typed, true).unwrap(), state);
    }
}

/// Replaces one random number in the JSON tree by a random small number.
fn mutate(v: &mut serde_json::Value, rng: &mut GameRng) -> bool {
    let mut numbers = Vec::new();
    collect_numbers(v, &mut Vec::new(), &mut numbers);
    if numbers.is_empty() {
        return false;
    }
    let path = numbers[rng.random_range(0..numbers.len())].clone();
    let value = rng.random_range(0..16u8);
    let mut cur = v;
    for key in &path {
        cur = match key {
            Key::Field(f) => &mut cur[f.as_str()],
            Key::Index(i) => &mut cur[*i],
        };
    }
    *cur = serde_json::json!(value);
    true
}

#[derive(Clone)]
enum Key {
    Field(String),
    Index(usize),
}

fn collect_numbers(v: &serde_json::Value, path: &mut Vec<Key>, out: &mut Vec<Vec<Key>>) {
    match v {
        serde_json::Value::Number(_) => out.push(path.clone()),
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(Key::Index(i));
                collect_numbers(x, path, out);
                path.pop();
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                path.push(Key::Field(k.clone()));
                collect_numbers(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(32) })]

    /// Hand-edited states: a mutated state that `validate` accepts never makes the engine panic, a
    /// seat that owes a decision has one, and its legal actions are accepted and keep it valid.
    #[test]
    fn validated_hand_edited_states_are_safe(seed in any::<u64>()) {
        let mut rng = rng_from_seed(seed);
        let mut g = Territories::new(&TerritoriesOptions::default()).unwrap();
        let steps = rng.random_range(0..600u64);
        tools::random_playout(&mut g, &mut rng, steps);
        let json = serde_json::to_value(&g).unwrap();
        for _ in 0..100 {
            let mut m = json.clone();
            let edits = rng.random_range(1..4u8);
            if !(0..edits).all(|_| mutate(&mut m, &mut rng)) {
                continue;
            }
            let Ok(state) = serde_json::from_value::<Territories>(m) else { continue };
            if state.validate().is_err() {
                continue;
            }
            let to_act = state.to_act();
            for seat in [Seat(0), Seat(1)] {
                let legal = tabula_core::legal_actions_vec(&state, seat);
                prop_assert_eq!(legal.is_empty(), !to_act.includes(seat));
                for a in legal {
                    let mut c = state.clone();
                    c.apply(Actor::Seat(seat), &a).unwrap();
                    prop_assert!(c.validate().is_ok(), "{:?} led to {:?}", a, c.validate());
                }
            }
            if to_act == ToAct::Chance {
                let a = state.sample_chance(&mut rng).unwrap();
                let mut c = state.clone();
                c.apply(Actor::Chance, &a).unwrap();
                prop_assert!(c.validate().is_ok(), "{:?} led to {:?}", a, c.validate());
            }
        }
    }
}

/// Random play; at every decision, the seat to act's legal list is compared with its list in a world
/// that differs only in the suits of the opponent's resource cards (the same number of cards, dealt
/// again at random among the suits). The seat's view is the same in both (it shows the opponent's
/// count, never the suits) — checked — so its legal actions must be too (issue 34: the list once
/// offered `ask S` only while the opponent held a Spade). Such a world need not be reachable (the
/// suits' totals may not add up): the legal list must not read the hidden suits at all.
fn legal_list_ignores_the_opponents_suits(seed: u64) {
    let mut g = Territories::new(&TerritoriesOptions::default()).unwrap();
    let mut rng = rng_from_seed(seed);
    let (mut buf, mut other) = (Vec::new(), Vec::new());
    for _ in 0..MAX_ACTIONS {
        match g.to_act() {
            ToAct::Over(_) => return,
            ToAct::Chance => {
                let a = g.sample_chance(&mut rng).unwrap();
                g.apply(Actor::Chance, &a).unwrap();
            }
            to_act => {
                let seat = to_act.seats()[0];
                let opp = 1 - seat.index();
                let mut twin = g.clone();
                let n: u32 = twin.hands[opp]
                    .resources
                    .iter()
                    .map(|&r| u32::from(r))
                    .sum();
                twin.hands[opp].resources = [0; 4];
                for _ in 0..n {
                    twin.hands[opp].resources[rng.random_range(0..4usize)] += 1;
                }
                let me = Observer::Seat(seat);
                assert_eq!(
                    serde_json::to_value(g.view(me)).unwrap(),
                    serde_json::to_value(twin.view(me)).unwrap(),
                    "the view shows the opponent's suits"
                );
                buf.clear();
                g.legal_actions(seat, &mut buf);
                other.clear();
                twin.legal_actions(seat, &mut other);
                assert_eq!(
                    buf, other,
                    "seat {seat:?}'s legal actions read the opponent's suits {:?} / {:?}",
                    g.hands[opp].resources, twin.hands[opp].resources
                );
                let a = buf[rng.random_range(0..buf.len())].clone();
                g.apply(Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    panic!("the game did not end within {MAX_ACTIONS} actions");
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::with_cases(16) })]

    /// See [`legal_list_ignores_the_opponents_suits`].
    #[test]
    fn visibility_legal_actions_ignore_the_opponents_suits(seed in any::<u64>()) {
        legal_list_ignores_the_opponents_suits(seed);
    }
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Property tests over random legal play with 2, 4 and 6 players.

use proptest::prelude::*;
use syba::content::{ChipKind, content};
use syba::state::{Action, Pending, Phase, UnitKind};
use syba::{RESOURCE_CAP, Syba, SybaOptions};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, Observer, Seat, ToAct, rng_from_seed, tools};

fn options(players: u8, max_rounds: u16, auto_rest: bool) -> SybaOptions {
    SybaOptions {
        players,
        max_rounds,
        auto_rest,
        ..SybaOptions::default()
    }
}

/// The invariants that hold after every action.
fn check_invariants(g: &Syba) {
    g.validate().unwrap();
    let c = content();
    for p in g.players() {
        assert!(
            p.resources.iter().all(|&r| r <= RESOURCE_CAP),
            "resources never exceed 40"
        );
    }
    for s in 0..g.seats() as u8 {
        for k in ChipKind::ALL {
            let used = g
                .units()
                .iter()
                .filter(|u| u.owner == s && u.kind.chip() == Some(k))
                .count();
            assert!(used <= k.chips(), "chips never exceed their limits");
        }
    }
    // Cities are conserved: each of the edition's 36 cities is in exactly one place: owned by one
    // seat of the game (and not Destroyed), in the pile (unowned, not Destroyed), or Destroyed (and
    // then owned by nobody).
    assert_eq!(c.cities.len(), 36, "the rules' 36 cities");
    assert_eq!(g.city_owners().len(), 36);
    assert_eq!(g.cities_destroyed().len(), 36);
    let mut places = [0u8; 36];
    for s in 0..g.seats() as u8 {
        for (i, o) in g.city_owners().iter().enumerate() {
            if *o == Some(s) && !g.cities_destroyed()[i] {
                places[i] += 1;
            }
        }
    }
    for (i, o) in g.city_owners().iter().enumerate() {
        if o.is_none() && !g.cities_destroyed()[i] {
            places[i] += 1; // the pile
        }
        if g.cities_destroyed()[i] {
            places[i] += 1;
            assert!(o.is_none(), "a Destroyed city has no owner");
        }
    }
    for (i, n) in places.iter().enumerate() {
        assert_eq!(
            *n, 1,
            "city {} is in {n} places (owned / pile / Destroyed)",
            c.cities[i].name
        );
    }
    let owned: usize = (0..g.seats() as u8).map(|s| g.city_count(s)).sum();
    let pile = places.len() - owned - g.cities_destroyed().iter().filter(|d| **d).count();
    assert_eq!(
        pile,
        (0..36)
            .filter(|&i| g.city_owners()[i].is_none() && !g.cities_destroyed()[i])
            .count(),
        "the seats' city counts agree with the owners"
    );
    // Heroes: each card at most once on the board.
    let mut heroes: Vec<u8> = g
        .units()
        .iter()
        .filter_map(|u| match u.kind {
            UnitKind::Hero(h) => Some(h),
            _ => None,
        })
        .collect();
    let n = heroes.len();
    heroes.sort_unstable();
    heroes.dedup();
    assert_eq!(heroes.len(), n, "a hero card is on the board at most once");
}

/// Views: a seat sees its own starting city's texts, nobody else's.
fn check_views(g: &Syba) {
    let c = content();
    let texts: Vec<Option<String>> = g
        .players()
        .iter()
        .map(|p| {
            p.start_city
                .map(|sc| c.cities[sc as usize].once_per_game.describe())
        })
        .collect();
    let spectator = serde_json::to_string(&g.view(Observer::Spectator)).unwrap();
    for t in texts.iter().flatten() {
        assert!(
            !spectator.contains(t.as_str()),
            "spectator view leaks a starting city text"
        );
    }
    for s in 0..g.seats() {
        let v = serde_json::to_string(&g.view(Observer::Seat(Seat::new(s)))).unwrap();
        for (o, t) in texts.iter().enumerate() {
            if let Some(t) = t
                && o != s
                && texts[s].as_deref() != Some(t.as_str())
                && g.players()[s].start_city.is_some()
            {
                assert!(
                    !v.contains(t.as_str()),
                    "seat {s}'s view leaks seat {o}'s city text"
                );
            }
        }
    }
}

/// Illegal variants of the position's actions are refused without changing the state.
fn check_refusals(g: &Syba, seat: Seat, legal: &[Action]) {
    let c = content();
    let mut candidates = vec![
        Action::Move {
            unit: 1_000_000,
            to: 0,
        },
        Action::Rest(1_000_000),
        Action::EndTurn,
        Action::Pass,
        Action::TradeAccept,
        Action::BuyUnit {
            kind: ChipKind::Monster,
            city: 0,
        },
        Action::ChooseCity(0),
        Action::StartingPlayer(0),
        Action::Choose(1_000_000),
        Action::HoldBack(1_000_000),
        Action::Confirm,
        Action::Withdraw,
        Action::Intercept,
        Action::HelpAttack,
        Action::TradeNote("x".repeat(syba::state::TRADE_NOTE_MAX + 1)),
    ];
    for a in legal.iter().take(20) {
        // Perturb: a far area, another seat.
        match a {
            Action::Move { unit, .. } => candidates.push(Action::Move {
                unit: *unit,
                to: (c.areas.len() - 1) as u8,
            }),
            // Attacking one's own army.
            Action::Attack { .. } => candidates.push(Action::Attack {
                target: syba::state::Target::Army {
                    owner: seat.0,
                    area: 0,
                },
            }),
            // Choosing a unit of another seat, holding back one that is not chosen.
            Action::Choose(id) | Action::HoldBack(id) => {
                for u in g.units() {
                    if u.owner != seat.0 {
                        candidates.push(Action::Choose(u.id));
                    }
                }
                candidates.push(Action::HoldBack(*id));
                candidates.push(Action::Choose(*id));
            }
            _ => {}
        }
    }
    for a in candidates {
        if legal.contains(&a) {
            continue;
        }
        let mut h = g.clone();
        assert!(
            h.apply(Actor::Seat(seat), &a).is_err(),
            "{a:?} should be refused"
        );
        assert_eq!(&h, g, "a refused action changed the state");
    }
    // A seat that owes nothing has no legal action and is refused.
    for s in 0..g.seats() {
        let other = Seat::new(s);
        if other != seat && !g.to_act().includes(other) {
            assert!(tabula_core::legal_actions_vec(g, other).is_empty());
            if let Some(a) = legal.first() {
                let mut h = g.clone();
                assert!(h.apply(Actor::Seat(other), a).is_err());
            }
        }
    }
}

fn random_game(players: u8, seed: u64, max_rounds: u16, auto_rest: bool) -> Syba {
    let mut g = Syba::new(&options(players, max_rounds, auto_rest)).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut steps = 0u64;
    // The state before the pending unit selection was opened (to check that `withdraw` restores it).
    let mut before_selection: Option<Syba> = None;
    loop {
        check_invariants(&g);
        match g.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = g.sample_chance(&mut rng).unwrap();
                g.apply(Actor::Chance, &a).unwrap();
            }
            to_act => {
                let seat = to_act.seats()[0];
                let legal = tabula_core::legal_actions_vec(&g, seat);
                assert!(
                    !legal.is_empty(),
                    "a seat owes a decision but has no legal action"
                );
                if steps.is_multiple_of(40) {
                    // Every listed action is accepted; notation and JSON round-trip.
                    for a in &legal {
                        let text = g.action_notation(a);
                        assert_eq!(&g.parse_action(&text).unwrap(), a, "{text}");
                        let mut h = g.clone();
                        h.apply(Actor::Seat(seat), a).unwrap();
                    }
                    check_refusals(&g, seat, &legal);
                    check_views(&g);
                    let json = serde_json::to_string(&g).unwrap();
                    let back: Syba = serde_json::from_str(&json).unwrap();
                    assert_eq!(back, g, "JSON round trip");
                    back.validate().unwrap();
                }
                let a = legal[rng.random_range(0..legal.len())].clone();
                let opens = matches!(
                    a,
                    Action::Attack { .. }
                        | Action::Intercept
                        | Action::HelpAttack
                        | Action::MoveArmy { .. }
                );
                let snapshot = opens.then(|| g.clone());
                g.apply(Actor::Seat(seat), &a).unwrap();
                if matches!(g.pending().last(), Some(Pending::Select(_))) {
                    if opens {
                        before_selection = snapshot;
                    }
                    assert!(
                        before_selection.is_some(),
                        "a selection opens only by a start"
                    );
                } else if a == Action::Withdraw {
                    assert_eq!(
                        Some(&g),
                        before_selection.as_ref(),
                        "withdraw restores the state exactly"
                    );
                    before_selection = None;
                } else {
                    before_selection = None;
                }
            }
        }
        steps += 1;
        assert!(steps < 400_000, "the game must end by the round limit");
    }
    assert_eq!(g.phase(), Phase::Over);
    assert!(
        g.round() <= u32::from(max_rounds),
        "ended within max_rounds"
    );
    g
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::with_cases(16)
    })]

    #[test]
    fn random_two_player_games_keep_every_invariant(seed in any::<u64>(), rounds in 1u16..=8, auto in any::<bool>()) {
        random_game(2, seed, rounds, auto);
    }

    #[test]
    fn random_four_player_games_keep_every_invariant(seed in any::<u64>(), rounds in 1u16..=6, auto in any::<bool>()) {
        random_game(4, seed, rounds, auto);
    }

    #[test]
    fn random_six_player_games_keep_every_invariant(seed in any::<u64>(), rounds in 1u16..=4, auto in any::<bool>()) {
        random_game(6, seed, rounds, auto);
    }

    #[test]
    fn random_record_replays_to_the_same_final_state(seed in any::<u64>(), players in 2u8..=6) {
        let (state, record) = tools::random_record::<Syba>(options(players, 3, false), seed, 100_000).unwrap();
        let replayed = tools::replay(&record, true).unwrap();
        prop_assert_eq!(replayed, state);
        // The JSON record round-trips too.
        let json = record.to_json().unwrap();
        let back = tabula_core::record::Record::<Syba>::from_json(&json).unwrap();
        prop_assert_eq!(back.actions.len(), record.actions.len());
    }
}

#[test]
fn hand_written_inconsistent_states_are_rejected() {
    let g = Syba::new(&SybaOptions::default()).unwrap();
    let mut v = serde_json::to_value(&g).unwrap();
    v["players"][0]["resources"] = serde_json::json!([41, 0, 0]);
    let bad: Syba = serde_json::from_value(v.clone()).unwrap();
    assert!(bad.validate().unwrap_err().contains("max 40"));
    let mut v = serde_json::to_value(&g).unwrap();
    v["city_owner"][0] = serde_json::json!(9);
    let bad: Syba = serde_json::from_value(v).unwrap();
    assert!(bad.validate().unwrap_err().contains("not a seat"));
    let mut v = serde_json::to_value(&g).unwrap();
    v["units"] = serde_json::json!([{"id": 0, "owner": 0, "kind": {"hero": 0}, "area": 0, "exhausted": false}]);
    v["next_unit"] = serde_json::json!(1);
    let bad: Syba = serde_json::from_value(v).unwrap();
    assert!(
        bad.validate()
            .unwrap_err()
            .contains("hero card is not in play")
    );
}

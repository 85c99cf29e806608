//! Agents on every game: legal choices through setups, chance and hidden information; hidden
//! information is never read; setup policies keep the King safe.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use cyvasse::caird::CairdCyvasse;
use cyvasse::trump::{self, TrumpAction, TrumpCyvasse};
use syba::{Syba, SybaOptions};
use tabula_ai::{AgentSpec, InfoSet, Knowledge, choose_action, decide};
use tabula_core::dynamic::Erased;
use tabula_core::record::Match;
use tabula_core::{Actor, Game, Observer, Seat, ToAct, legal_actions_vec};
use territories::Territories;

fn spec(name: &str) -> AgentSpec {
    name.parse().unwrap()
}

/// Plays `plies` decisions (chance drawn from the seed) with `agents[seat]`, checking legality;
/// returns the match.
fn play<G: Knowledge>(options: G::Options, agents: &[&str], plies: u64, seed: u64) -> Match<G> {
    let mut m = Match::<G>::new(options, seed).unwrap();
    for n in 0..plies {
        m.resolve_chance().unwrap();
        let Some(&seat) = m.to_act().seats().first() else {
            break;
        };
        let agent = spec(agents[seat.index() % agents.len()]);
        let info = InfoSet::new(m.state(), seat).unwrap();
        let (a, _) = decide(&agent, &info, seed.wrapping_add(n)).unwrap();
        assert!(
            m.state()
                .parse_action(&m.state().action_notation(&a))
                .is_ok(),
            "{agent}: unreadable action"
        );
        let notation = m.state().action_notation(&a);
        m.apply(Actor::Seat(seat), a)
            .unwrap_or_else(|e| panic!("{agent} chose a refused action {notation}: {e}"));
        m.state().validate().unwrap();
    }
    m.resolve_chance().unwrap();
    m
}

#[test]
fn agents_play_legally_in_strength_and_trump_cyvasse() {
    play::<TrumpCyvasse>(Default::default(), &["level5:1500", "ismcts:40"], 12, 1);
    play::<TrumpCyvasse>(Default::default(), &["uct:30", "greedy"], 8, 2);
    play::<TrumpCyvasse>(Default::default(), &["random", "level1"], 12, 3);
}

#[test]
fn agents_play_legally_in_caird_cyvasse() {
    play::<CairdCyvasse>(Default::default(), &["level5:1500", "ismcts:40"], 12, 1);
    play::<CairdCyvasse>(Default::default(), &["uct:30", "greedy"], 8, 2);
    play::<CairdCyvasse>(Default::default(), &["random", "level1"], 12, 3);
}

#[test]
fn agents_play_legally_in_territories() {
    play::<Territories>(Default::default(), &["level5:60", "greedy"], 30, 1);
    play::<Territories>(Default::default(), &["uct:20", "mcts:40"], 20, 2);
    play::<Territories>(Default::default(), &["random", "level1"], 40, 3);
}

#[test]
fn agents_play_legally_in_four_player_syba() {
    let options = SybaOptions {
        players: 4,
        ..SybaOptions::default()
    };
    play::<Syba>(
        options.clone(),
        &["level5:40", "greedy", "random", "ismcts:30"],
        40,
        1,
    );
    play::<Syba>(options, &["level1", "uct:10", "mcts:20", "level2"], 30, 2);
}

/// Two real states that look the same to `seat` but differ in what is hidden from it must get the
/// same decision (the agents only ever see determinizations of the seat's view).
fn same_decision_whatever_is_hidden<G: Knowledge>(state: &G, seat: Seat, agents: &[&str]) {
    let mut rng = tabula_core::rng_from_seed(99);
    let other = (0..20)
        .map(|_| state.determinize(seat, &mut rng))
        .find(|o| serde_json::to_value(o).unwrap() != serde_json::to_value(state).unwrap())
        .expect("the state has something hidden from this seat");
    assert_eq!(
        serde_json::to_value(state.view(Observer::Seat(seat))).unwrap(),
        serde_json::to_value(other.view(Observer::Seat(seat))).unwrap(),
        "the two states must look the same to the seat"
    );
    for name in agents {
        let agent = spec(name);
        let a = decide(&agent, &InfoSet::new(state, seat).unwrap(), 31)
            .unwrap()
            .0;
        let b = decide(&agent, &InfoSet::new(&other, seat).unwrap(), 31)
            .unwrap()
            .0;
        assert_eq!(
            a, b,
            "{name} decided differently on a different hidden part"
        );
    }
}

#[test]
fn territories_agents_never_read_the_hidden_hand_or_pile() {
    let m = play::<Territories>(Default::default(), &["greedy"], 24, 4);
    let state = m.state();
    let seat = state.to_act().seats()[0];
    same_decision_whatever_is_hidden(
        state,
        seat,
        &[
            "random",
            "greedy",
            "uct:40",
            "mcts:40",
            "ismcts:40",
            "level5:40",
        ],
    );
}

#[test]
fn cyvasse_agents_never_read_the_hidden_enemy_setup() {
    // North commits first; South decides without seeing North's army.
    let mut g = TrumpCyvasse::new(&Default::default()).unwrap();
    let mut rng = tabula_core::rng_from_seed(3);
    g.apply(
        Actor::Seat(Seat(1)),
        &TrumpAction::Setup(trump::random_setup(Seat(1), &mut rng)),
    )
    .unwrap();
    assert_eq!(g.to_act(), ToAct::Seats(vec![Seat(0)]));
    same_decision_whatever_is_hidden(&g, Seat(0), &["random", "greedy", "uct:20", "level5"]);

    let mut c = CairdCyvasse::new(&Default::default()).unwrap();
    let plan = cyvasse::caird::random_setup(c.options(), 1, &mut rng);
    c.apply(
        Actor::Seat(Seat(1)),
        &cyvasse::caird::CairdAction::Setup(plan),
    )
    .unwrap();
    same_decision_whatever_is_hidden(&c, Seat(0), &["random", "greedy", "level5"]);
}

#[test]
fn cyvasse_setup_policy_keeps_the_king_safe_on_move_one() {
    let g = TrumpCyvasse::new(&Default::default()).unwrap();
    for seat in [Seat(0), Seat(1)] {
        for seed in 0..4 {
            let info = InfoSet::new(&g, seat).unwrap();
            let (a, _) = decide(&spec("level5"), &info, seed).unwrap();
            let TrumpAction::Setup(army) = &a else {
                panic!("expected a setup, got {a:?}");
            };
            assert!(trump::check_setup(seat, army).is_ok());
            assert!(trump::king_safe_on_move_one(seat, army));
            let mut next = g.clone();
            next.apply(Actor::Seat(seat), &a).unwrap();
        }
    }
    let c = CairdCyvasse::new(&Default::default()).unwrap();
    let info = InfoSet::new(&c, Seat(0)).unwrap();
    let (a, _) = decide(&spec("level4"), &info, 1).unwrap();
    let cyvasse::caird::CairdAction::Setup(plan) = &a else {
        panic!("expected a setup, got {a:?}");
    };
    assert!(cyvasse::caird::validate_setup(c.options(), 0, plan).is_ok());
}

#[test]
fn choose_action_serves_every_game() {
    fn check<G: Knowledge>(options: G::Options) {
        let mut m = Match::<G>::new(options, 8).unwrap();
        m.resolve_chance().unwrap();
        let seat = m.to_act().seats()[0];
        let erased = Erased(m.state().clone());
        for level in [2, 5] {
            let json = choose_action(&erased, seat, level, 1).unwrap();
            let a: G::Action = serde_json::from_value(json).unwrap();
            let mut s = m.state().clone();
            s.apply(Actor::Seat(seat), &a).unwrap();
        }
    }
    check::<TrumpCyvasse>(Default::default());
    check::<CairdCyvasse>(Default::default());
    check::<kyo::Kyo>(Default::default());
    check::<Territories>(Default::default());
    check::<Syba>(SybaOptions {
        players: 4,
        ..SybaOptions::default()
    });
    assert_eq!(tabula_ai::supported_games().len(), 5);
}

#[test]
fn level5_uses_alpha_beta_after_the_cyvasse_setup() {
    let m = play::<TrumpCyvasse>(Default::default(), &["level2"], 2, 5);
    let g = m.state();
    assert!(g.perfect_information());
    let seat = g.to_act().seats()[0];
    let (_, stats) = decide(&spec("level5:3000"), &InfoSet::new(g, seat).unwrap(), 1).unwrap();
    assert!(stats.depth >= 1, "{stats:?}");
    assert!(!legal_actions_vec(g, seat).is_empty());
}

/// From random positions reached by random play, the agents choose legal actions.
fn legal_from_random_position<G: Knowledge>(options: G::Options, seed: u64, plies: u64) {
    let m = play::<G>(options, &["random"], plies, seed);
    let Some(&seat) = m.to_act().seats().first() else {
        return;
    };
    // Legal = accepted by `apply` (the hidden Cyvasse setup lists only a sample of the valid setups
    // and `apply` accepts every valid one; the setup policy's King-safe setups need not be listed).
    let legal = legal_actions_vec(m.state(), seat);
    for name in ["greedy", "uct:15", "ismcts:20", "level5:200"] {
        let info = InfoSet::new(m.state(), seat).unwrap();
        let (a, _) = decide(&spec(name), &info, seed).unwrap();
        let mut next = m.state().clone();
        assert!(
            next.apply(Actor::Seat(seat), &a).is_ok(),
            "{name} chose a refused action {a:?}"
        );
        if !matches!(m.to_act(), ToAct::Seats(_)) {
            assert!(legal.contains(&a), "{name} chose an unlisted action {a:?}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    #[test]
    fn agents_choose_legal_actions_from_random_positions(seed in 0u64..100_000, plies in 0u64..80) {
        legal_from_random_position::<Territories>(Default::default(), seed, plies);
        legal_from_random_position::<kyo::Kyo>(Default::default(), seed, plies);
        legal_from_random_position::<TrumpCyvasse>(Default::default(), seed, plies / 4);
    }
}

/// Syba unit selections: agents consider neither re-adding a unit held back nor withdrawing while
/// something else can end the selection (both only undo an earlier step and score the same; level5
/// went round hold/choose for thousands of actions), and keep `withdraw` when it is the only way out.
#[test]
fn syba_agents_never_undo_a_unit_selection() {
    use syba::Action as A;
    let s = Syba::new(&SybaOptions::default()).expect("default options");
    let prune = |mut v: Vec<A>| {
        s.prune_actions(&mut v);
        v
    };
    assert_eq!(
        prune(vec![A::Choose(1), A::HoldBack(2), A::Confirm, A::Withdraw]),
        vec![A::HoldBack(2), A::Confirm]
    );
    assert_eq!(prune(vec![A::Choose(1), A::Withdraw]), vec![A::Withdraw]);
    assert_eq!(prune(vec![A::Choose(1)]), vec![A::Choose(1)]);
    // Real selections reached by random play: no agent picks Choose or Withdraw while it may confirm.
    let mut found = 0;
    for seed in 0..40u64 {
        let mut m = Match::<Syba>::new(SybaOptions::default(), seed).expect("new game");
        let mut rng = tabula_core::rng_from_seed(seed);
        for _ in 0..600 {
            let ToAct::Seat(seat) = m.state().to_act() else {
                if matches!(m.state().to_act(), ToAct::Over(_)) {
                    break;
                }
                m.resolve_chance().expect("chance");
                continue;
            };
            let legal = legal_actions_vec(m.state(), seat);
            if let Some(syba::state::Pending::Select(sel)) = m.state().pending().last() {
                // Every selection keeps a way to confirm and no way back.
                let mut pruned = legal.clone();
                m.state().prune_actions(&mut pruned);
                assert!(pruned.contains(&A::Confirm), "{legal:?}");
                assert!(
                    !pruned
                        .iter()
                        .any(|a| matches!(a, A::Choose(_) | A::Withdraw)),
                    "{pruned:?}"
                );
                if let [only] = sel.chosen[..] {
                    assert!(!pruned.contains(&A::HoldBack(only)), "{pruned:?}");
                }
            }
            if legal.contains(&A::Confirm) && legal.iter().any(|a| matches!(a, A::Choose(_))) {
                found += 1;
                let info = InfoSet::new(m.state(), seat).expect("info set");
                for name in ["greedy", "level3:200"] {
                    let (a, _) = decide(&spec(name), &info, seed).expect("a decision");
                    assert!(
                        !matches!(a, A::Choose(_) | A::Withdraw),
                        "{name} chose {a:?}"
                    );
                }
                break;
            }
            let i = tabula_core::rand::RngExt::random_range(&mut rng, 0..legal.len());
            m.apply(Actor::Seat(seat), legal[i].clone())
                .expect("legal action");
        }
    }
    assert!(
        found > 0,
        "random play reached no unit selection with a unit held back"
    );
}

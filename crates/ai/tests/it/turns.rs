//! AI turns read like a strong player's (issue 38): a turn of several actions goes on only for a
//! gain (Kyo Mana chains), and a trade is composed as one complete proposal of a few items (Syba).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use kyo::{Kyo, KyoOptions};
use syba::state::{Pending, TradeItem};
use syba::{Syba, SybaOptions};
use tabula_ai::games::syba::{AI_TRADES_PER_TURN, TRADE_ITEMS};
use tabula_ai::{AgentSpec, InfoSet, Knowledge, decide};
use tabula_core::record::Match;
use tabula_core::{Actor, Game, Seat, ToAct, legal_actions_vec};

fn spec(name: &str) -> AgentSpec {
    name.parse().unwrap()
}

/// Gold's Heavy has just made a Mana move along its home row (A0 to B0, leaving a Dark chip on A0)
/// and carries two more Dark chips: it may go on east along row 0 (each step leaves a Dark chip
/// behind) or end the turn. Row 0 is as far from Red's King as row 0 gets everywhere (Chebyshev
/// distance 9 to E9), nothing stands near, so going on gains nothing.
fn chain_with_nothing_to_gain() -> Kyo {
    let mut k = Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "DDDH"),
            ("J0", "SSSK"),
            ("J1", "DDLL"),
            ("H0", "DL"),
            ("E9", "sssk"),
            ("A9", "dddh"),
            ("J9", "ddll"),
        ],
        0,
    )
    .unwrap();
    let step = k.parse_action("A0/1>B0").unwrap();
    k.apply(Actor::Seat(Seat(0)), &step).unwrap();
    assert_eq!(k.to_act(), ToAct::Seat(Seat(0)), "the turn goes on");
    assert_eq!(k.closing_action(), Some(kyo::Action::EndTurn));
    let steps = legal_actions_vec(&k, Seat(0));
    assert!(
        steps.iter().any(|a| matches!(a, kyo::Action::Step { .. })),
        "the chain may go on: {steps:?}"
    );
    k
}

#[test]
fn kyo_level5_ends_a_mana_chain_that_has_nothing_left_to_gain() {
    let k = chain_with_nothing_to_gain();
    let info = InfoSet::new(&k, Seat(0)).unwrap();
    for seed in 1..4 {
        let (a, _) = decide(&spec("level5"), &info, seed).unwrap();
        assert_eq!(
            a,
            kyo::Action::EndTurn,
            "seed {seed}: level 5 went on with {}",
            k.action_notation(&a)
        );
    }
}

#[test]
fn kyo_greedy_levels_end_a_mana_chain_that_has_nothing_left_to_gain() {
    let k = chain_with_nothing_to_gain();
    let info = InfoSet::new(&k, Seat(0)).unwrap();
    for name in ["level2", "greedy"] {
        for seed in 1..4 {
            let (a, _) = decide(&spec(name), &info, seed).unwrap();
            assert_eq!(
                a,
                kyo::Action::EndTurn,
                "{name}, seed {seed}: went on with {}",
                k.action_notation(&a)
            );
        }
    }
}

/// Gold's Heavy has just made a Mana move north (D4 to D5, leaving a Dark chip on D4) and carries a
/// Light chip: a diagonal Mana move onto E6 (leaving the Light chip on D5) takes Red's King there
/// and wins, so the turn must go on.
fn chain_that_takes_the_king() -> Kyo {
    let mut k = Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("B0", "DDDLL"),
            ("D4", "DLH"),
            ("E6", "sssk"),
            ("J9", "dddll"),
        ],
        0,
    )
    .unwrap();
    let step = k.parse_action("D4/1>D5").unwrap();
    k.apply(Actor::Seat(Seat(0)), &step).unwrap();
    assert_eq!(k.to_act(), ToAct::Seat(Seat(0)), "the turn goes on");
    k
}

#[test]
fn kyo_level5_still_goes_on_with_a_chain_that_wins() {
    let k = chain_that_takes_the_king();
    let info = InfoSet::new(&k, Seat(0)).unwrap();
    for seed in 1..3 {
        let (a, _) = decide(&spec("level5"), &info, seed).unwrap();
        let mut after = k.clone();
        after.apply(Actor::Seat(Seat(0)), &a).unwrap();
        assert!(
            matches!(after.to_act(), ToAct::Over(_)),
            "seed {seed}: level 5 played {} instead of taking the King",
            k.action_notation(&a)
        );
    }
}

/// A three-player Syba game in its play phase (setup decisions by `level2`, every seat holding
/// resources), at the start of a turn of a seat that may open a trade.
fn syba_turn_with_trades() -> Match<Syba> {
    let options = SybaOptions {
        players: 3,
        ..SybaOptions::default()
    };
    let mut m = Match::<Syba>::new(options, 5).unwrap();
    let setup = spec("level2");
    for n in 0..200u64 {
        m.resolve_chance().unwrap();
        let ToAct::Seat(seat) = m.state().to_act() else {
            panic!("no seat to act: {:?}", m.state().to_act());
        };
        let legal = legal_actions_vec(m.state(), seat);
        if legal
            .iter()
            .any(|a| matches!(a, syba::Action::TradeOpen(_)))
        {
            return m;
        }
        let info = InfoSet::new(m.state(), seat).unwrap();
        let (a, _) = decide(&setup, &info, n).unwrap();
        m.apply(Actor::Seat(seat), a).unwrap();
    }
    panic!("the play phase never started");
}

/// The policy itself: resources only, one kind a side, at most `TRADE_ITEMS` a side, a proposal
/// only with something on both sides, one trade opened a turn.
#[test]
fn syba_agents_compose_a_trade_as_one_complete_proposal_of_a_few_resources() {
    use syba::Action as A;
    let mut m = syba_turn_with_trades();
    let ToAct::Seat(seat) = m.state().to_act() else {
        unreachable!()
    };
    let considered = |m: &Match<Syba>| {
        let mut v = legal_actions_vec(m.state(), seat);
        m.state().prune_actions(&mut v);
        v
    };
    let open = considered(&m)
        .into_iter()
        .find(|a| matches!(a, A::TradeOpen(_)))
        .expect("a trade may be opened");
    m.apply(Actor::Seat(seat), open).unwrap();
    // The legal list offers units and cities too; an agent considers resources only, and cannot
    // propose an empty side.
    let legal = legal_actions_vec(m.state(), seat);
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, A::TradeOffer(TradeItem::Unit(_) | TradeItem::City(_))))
    );
    let first = considered(&m);
    assert!(
        first.iter().all(|a| matches!(
            a,
            A::TradeOffer(TradeItem::Resource(_))
                | A::TradeAsk(TradeItem::Resource(_))
                | A::TradeCancel
        )),
        "{first:?}"
    );
    // Offer as much of one resource as the policy allows.
    let offer = first
        .iter()
        .find(|a| matches!(a, A::TradeOffer(_)))
        .cloned()
        .expect("the seat holds resources");
    let A::TradeOffer(TradeItem::Resource(kind)) = offer.clone() else {
        unreachable!()
    };
    let mut offered = 0;
    while considered(&m).contains(&offer) {
        m.apply(Actor::Seat(seat), offer.clone()).unwrap();
        offered += 1;
    }
    assert!((1..=TRADE_ITEMS).contains(&offered), "{offered}");
    let now = considered(&m);
    assert!(
        !now.iter().any(|a| matches!(a, A::TradeOffer(_))),
        "one kind a side: {now:?}"
    );
    assert!(
        !now.contains(&A::TradePropose),
        "nothing asked yet: {now:?}"
    );
    assert!(
        !now.contains(&A::TradeAsk(TradeItem::Resource(kind))),
        "never the kind given: {now:?}"
    );
    let ask = now
        .iter()
        .find(|a| matches!(a, A::TradeAsk(_)))
        .cloned()
        .expect("the partner holds another resource");
    m.apply(Actor::Seat(seat), ask).unwrap();
    assert!(considered(&m).contains(&A::TradePropose));
    m.apply(Actor::Seat(seat), A::TradeCancel).unwrap();
    // One trade a turn.
    assert!(m.state().players()[usize::from(seat.0)].trades >= AI_TRADES_PER_TURN);
    assert!(!considered(&m).iter().any(|a| matches!(a, A::TradeOpen(_))));
}

fn is_trade(a: &syba::Action) -> bool {
    use syba::Action as A;
    matches!(
        a,
        A::TradeOpen(_)
            | A::TradeOffer(_)
            | A::TradeAsk(_)
            | A::TradeNote(_)
            | A::TradePropose
            | A::TradeCancel
    )
}

/// The searching level composes no more than one proposal's worth of trade actions in a turn: it
/// used to add items one by one for hundreds of actions.
#[test]
fn a_syba_level5_turn_composes_at_most_one_short_proposal() {
    let most = 2 + 2 * usize::from(TRADE_ITEMS);
    let agent = spec("level5:150");
    for start in 0..2u64 {
        let mut m = syba_turn_with_trades();
        // Start at a later turn for the second game.
        for _ in 0..start {
            let ToAct::Seat(seat) = m.state().to_act() else {
                unreachable!()
            };
            m.apply(Actor::Seat(seat), syba::Action::EndTurn).unwrap();
            m.resolve_chance().unwrap();
        }
        let ToAct::Seat(me) = m.state().to_act() else {
            unreachable!()
        };
        let mut trade_actions = 0;
        let mut actions = 0;
        while m.state().to_act() == ToAct::Seat(me) && actions < 80 {
            let info = InfoSet::new(m.state(), me).unwrap();
            let (a, _) = decide(&agent, &info, 100 + actions).unwrap();
            if is_trade(&a) {
                trade_actions += 1;
            }
            let ends = a == syba::Action::EndTurn;
            m.apply(Actor::Seat(me), a).unwrap();
            actions += 1;
            if ends {
                break;
            }
            // A proposal goes to the partner: answered by the partner's own search.
            while let ToAct::Seat(other) = m.state().to_act()
                && other != me
                && matches!(m.state().pending().last(), Some(Pending::Trade { .. }))
            {
                let info = InfoSet::new(m.state(), other).unwrap();
                let (a, _) = decide(&agent, &info, 7).unwrap();
                m.apply(Actor::Seat(other), a).unwrap();
            }
            m.resolve_chance().unwrap();
        }
        assert!(
            trade_actions <= most,
            "game {start}: {trade_actions} trade actions in one turn of {actions} actions"
        );
    }
}

/// The fewest actions in which `seat`'s turn, in progress in `start`, can end in the position
/// `target` (same board, same side to move), searched breadth first up to `most` actions. Positions
/// in the middle of the turn are merged when their board and the turn's chain (acting pawn, phase,
/// Mana direction, carried and lifted chips) agree; `None` when `target` is not reached.
fn shortest_turn_to(start: &Kyo, seat: Seat, target: &Kyo, most: usize) -> Option<usize> {
    use std::collections::HashSet;
    let node = |k: &Kyo| {
        let t = &k.turn;
        (
            k.board.clone(),
            t.active,
            t.phase,
            t.mana,
            t.last_shuffle,
            t.carried,
            t.lifted,
        )
    };
    let mut seen = HashSet::new();
    seen.insert(node(start));
    let mut layer = vec![start.clone()];
    for n in 1..=most {
        let mut next = Vec::new();
        for s in &layer {
            for a in legal_actions_vec(s, seat) {
                let mut child = s.clone();
                child.apply(Actor::Seat(seat), &a).unwrap();
                if child.to_act() == ToAct::Seat(seat) {
                    if seen.insert(node(&child)) {
                        next.push(child);
                    }
                } else if child.board == target.board && child.to_move == target.to_move {
                    return Some(n);
                }
            }
        }
        layer = next;
    }
    None
}

/// Plays `agent`'s whole turn for the seat to move in `start`, one decision at a time (each step
/// checked legal); returns the steps' notation and the position the turn ends in.
fn play_turn(agent: &AgentSpec, start: &Kyo) -> (Vec<String>, Kyo) {
    let ToAct::Seat(me) = start.to_act() else {
        panic!("nobody to move")
    };
    let mut k = start.clone();
    let mut steps = Vec::new();
    while k.to_act() == ToAct::Seat(me) {
        assert!(steps.len() < 60, "an endless turn: {steps:?}");
        let info = InfoSet::new(&k, me).unwrap();
        let (a, _) = decide(agent, &info, 11 + steps.len() as u64).unwrap();
        assert!(legal_actions_vec(&k, me).contains(&a), "illegal {a:?}");
        steps.push(k.action_notation(&a));
        k.apply(Actor::Seat(me), &a).unwrap();
    }
    (steps, k)
}

/// Gold to move, turn 4 of a self-play game of the step-by-step search (`arena turns --save`,
/// agent `alphabeta:60000`, which is what level 5 was before it planned whole turns): Gold's
/// Heavy on I0 then played a Mana chain of 12 steps round its own corner, `I0/2>I1 I1/1>H0 H0/1>H1
/// H1/1>I0 I0/1>I1 I1/1>H2 H2/1>G2 G2/1>H1 H1/1>I0 I0/1>I1 I1/1>J2 end`.
const WANDERING_TURN: &str = include_str!("kyo-wandering-turn.json");

/// Level 5 plans the whole turn: whatever end it picks, it gets there by the shortest chain (the
/// step-by-step search took a longer way to its end from this very position).
#[test]
fn kyo_level5_reaches_the_end_of_its_turn_by_the_shortest_chain() {
    let start: Kyo = serde_json::from_str(WANDERING_TURN).unwrap();
    let ToAct::Seat(me) = start.to_act() else {
        panic!("nobody to move")
    };
    let (steps, end) = play_turn(&spec("level5"), &start);
    let shortest = shortest_turn_to(&start, me, &end, steps.len())
        .unwrap_or_else(|| panic!("the end of {steps:?} is not found again"));
    assert_eq!(
        steps.len(),
        shortest,
        "level 5 took {} steps where {shortest} reach the same position: {}",
        steps.len(),
        steps.join(" ")
    );
}

/// Positions of a Kyo game: the start, and every position of a game played by random legal
/// actions (with a fixed seed), some in the middle of a Mana chain.
fn kyo_positions() -> Vec<Kyo> {
    use tabula_core::rand::RngExt;
    let mut rng = tabula_core::rng_from_seed(3);
    let mut k = Kyo::new(&KyoOptions::default()).unwrap();
    let mut out = vec![k.clone()];
    for _ in 0..120 {
        let ToAct::Seat(s) = k.to_act() else { break };
        let legal = legal_actions_vec(&k, s);
        // Prefer Mana moves so that chains in progress are among the positions.
        let chains: Vec<_> = legal
            .iter()
            .filter(|a| {
                let mut c = k.clone();
                c.apply_trusted(Actor::Seat(s), a);
                c.to_act() == ToAct::Seat(s)
            })
            .cloned()
            .collect();
        let pool = if !chains.is_empty() && rng.random::<f64>() < 0.6 {
            chains
        } else {
            legal
        };
        let a = pool[rng.random_range(0..pool.len())];
        k.apply(Actor::Seat(s), &a).unwrap();
        out.push(k.clone());
    }
    out
}

/// Property: every step of a planned turn is legal when it is played, the seat acts before each
/// of them, and the turn is over after the last (whether planned at a turn's start or in the
/// middle of a chain).
#[test]
fn kyo_planned_turn_steps_are_each_legal_when_played() {
    use tabula_ai::alphabeta::{AlphaBetaConfig, plan_turn};
    let cfg = AlphaBetaConfig {
        max_nodes: 3000,
        ..AlphaBetaConfig::default()
    };
    let positions = kyo_positions();
    let mut mid_chain = 0;
    let mut planned = 0;
    for (i, start) in positions.iter().enumerate().step_by(3) {
        let ToAct::Seat(me) = start.to_act() else {
            continue;
        };
        if start.turn.steps > 0 {
            mid_chain += 1;
        }
        let mut rng = tabula_core::rng_from_seed(i as u64);
        let (plan, _) =
            plan_turn(start, me, &cfg, &mut rng).unwrap_or_else(|| panic!("position {i}: no plan"));
        assert!(!plan.is_empty());
        planned += 1;
        let mut k = start.clone();
        for (j, a) in plan.iter().enumerate() {
            assert_eq!(
                k.to_act(),
                ToAct::Seat(me),
                "position {i}: step {j} after the turn"
            );
            assert!(
                legal_actions_vec(&k, me).contains(a),
                "position {i}: step {j} ({a:?}) is not legal"
            );
            k.apply(Actor::Seat(me), a).unwrap();
        }
        assert_ne!(
            k.to_act(),
            ToAct::Seat(me),
            "position {i}: the plan stops mid-turn"
        );
    }
    assert!(planned >= 20, "{planned} positions planned");
    assert!(
        mid_chain >= 3,
        "only {mid_chain} positions in the middle of a turn"
    );
}

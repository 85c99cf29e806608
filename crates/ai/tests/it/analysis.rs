//! The engine's analysis of a game: marks, independence from hidden state, reproducibility.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::{Blunder, blunder, king_en_prise};
use kyo::Kyo;
use tabula_ai::analysis::{
    AnalysisConfig, DecisionKind, Mark, analyse_decision, analyse_from, analyse_json, hint,
};
use tabula_ai::{AgentSpec, InfoSet, Knowledge, decide};
use tabula_core::record::{Match, RecordedAction};
use tabula_core::{Actor, Game, Observer, Seat, legal_actions_vec};
use territories::Territories;

/// A small budget: tests run in the debug profile.
const CFG: AnalysisConfig = AnalysisConfig {
    iterations: 300,
    estimate_iterations: 200,
    seed: 11,
};

/// Whether Gold's action (as JSON) takes Red's King at once.
fn wins(k: &Kyo, action: &serde_json::Value) -> bool {
    let a: kyo::Action = serde_json::from_value(action.clone()).unwrap();
    let mut n = k.clone();
    n.apply(Actor::Seat(Seat(0)), &a).is_ok()
        && n.to_act()
            .outcome()
            .is_some_and(|o| o.score(Seat(0)) == 1.0)
}

/// A capture of Red's King.
fn king_capture(k: &Kyo) -> kyo::Action {
    legal_actions_vec(k, Seat(0))
        .into_iter()
        .find(|a| wins(k, &serde_json::to_value(a).unwrap()))
        .expect("the King can be taken")
}

#[test]
fn throwing_away_a_won_position_is_a_blunder() {
    let k = king_en_prise();
    // Gold walks its Heavy away from Red's King instead of taking it; Red answers.
    let Blunder {
        away,
        after,
        reply,
        actions,
    } = blunder(&k);
    let analysis = analyse_from(k.clone(), &actions, &CFG, &mut |_, _| {}).unwrap();
    assert_eq!(analysis.decisions.len(), 2);
    let d = &analysis.decisions[0];
    assert_eq!(d.kind, DecisionKind::Judged);
    assert_eq!(d.before, Some(1.0), "the capture is a proven win");
    assert!(d.after.unwrap() < 0.7, "after the blunder: {:?}", d.after);
    assert_eq!(d.mark, Some(Mark::Blunder));
    assert!(
        wins(&k, d.best.as_ref().unwrap()),
        "preferred: {:?}",
        d.best
    );
    assert_eq!(analysis.seats[0].blunders, 1);
    assert_eq!(analysis.seats[0].judged, 1);
    // The cells a client draws: those of the move taken and of the preferred one, as legal actions
    // carry them.
    assert_eq!(d.cells, vec!["E4".to_string(), "D3".to_string()]);
    // Both moves in a player's words too, as Gold saw them.
    assert_eq!(
        d.words.as_deref(),
        Some(
            k.action_words(Actor::Seat(Seat(0)), &away, Observer::Seat(Seat(0)))
                .as_str()
        )
    );
    assert!(
        d.best_words
            .as_deref()
            .is_some_and(|w| w.contains("captures Red's King")),
        "{:?}",
        d.best_words
    );
    let best: kyo::Action = serde_json::from_value(d.best.clone().unwrap()).unwrap();
    assert_eq!(d.best_cells.as_ref(), Some(&k.action_cells(&best)));
    assert!(
        d.best_cells.as_ref().unwrap().contains(&"E5".to_string()),
        "{:?}",
        d.best_cells
    );
    // A decision not judged carries the cells of its action and no preferred one.
    assert_eq!(analysis.decisions[1].cells, after.action_cells(&reply));
}

#[test]
fn taking_the_won_position_is_not_marked() {
    let k = king_en_prise();
    let win = king_capture(&k);
    let actions = [RecordedAction {
        actor: Actor::Seat(Seat(0)),
        action: win,
    }];
    let analysis = analyse_from(k.clone(), &actions, &CFG, &mut |_, _| {}).unwrap();
    let d = &analysis.decisions[0];
    assert_eq!(d.mark, None);
    assert_eq!((d.before, d.after), (Some(1.0), Some(1.0)));
    assert!(
        wins(&k, d.best.as_ref().unwrap()),
        "preferred: {:?}",
        d.best
    );
    assert_eq!(
        analysis.seats[0].inaccuracies + analysis.seats[0].mistakes,
        0
    );
}

/// Plays `decisions` decisions with `agent` for every seat, chance drawn from the seed.
fn play<G: Knowledge>(options: G::Options, agent: &str, decisions: u64, seed: u64) -> Match<G> {
    let agent: AgentSpec = agent.parse().unwrap();
    let mut m = Match::<G>::new(options, seed).unwrap();
    for n in 0..decisions {
        m.resolve_chance().unwrap();
        let Some(&seat) = m.to_act().seats().first() else {
            break;
        };
        let info = InfoSet::new(m.state(), seat).unwrap();
        let (a, _) = decide(&agent, &info, seed.wrapping_add(n)).unwrap();
        m.apply(Actor::Seat(seat), a).unwrap();
    }
    m
}

/// Every decision of seat 0 in a Territories game (hands and pile hidden) is judged the same when
/// what it could not see is drawn anew: the analysis reads only the seat's information.
#[test]
fn hidden_information_analysis_does_not_depend_on_what_the_seat_could_not_see() {
    let m = play::<Territories>(Default::default(), "greedy", 40, 4);
    let cfg = AnalysisConfig {
        iterations: 120,
        estimate_iterations: 80,
        seed: 5,
    };
    let mut state = Territories::new(&Default::default()).unwrap();
    let mut rng = tabula_core::rng_from_seed(99);
    let (mut compared, mut judged) = (0, 0);
    for (ply, ra) in m.record().actions.iter().enumerate() {
        if let Actor::Seat(seat) = ra.actor {
            let state_json = serde_json::to_value(&state).unwrap();
            let twin = (0..20)
                .map(|_| state.determinize(seat, &mut rng))
                .find(|t| serde_json::to_value(t).unwrap() != state_json)
                .expect("something is hidden from the seat");
            assert_eq!(
                serde_json::to_value(twin.view(Observer::Seat(seat))).unwrap(),
                serde_json::to_value(state.view(Observer::Seat(seat))).unwrap()
            );
            let real = analyse_decision(&state, ply, seat, &ra.action, &cfg).unwrap();
            let other = analyse_decision(&twin, ply, seat, &ra.action, &cfg).unwrap();
            assert_eq!(
                real, other,
                "decision {ply} read what seat {seat} could not see"
            );
            compared += 1;
            judged += usize::from(real.kind == DecisionKind::Judged);
        }
        state.apply(ra.actor, &ra.action).unwrap();
    }
    assert!(
        compared >= 30 && judged >= 10,
        "{compared} compared, {judged} judged"
    );
}

/// The same record and seed give the same analysis, through the type-erased entry point too; every
/// seat decision has an entry and no chance action has one.
#[test]
fn same_record_and_seed_give_the_same_analysis() {
    let m = play::<Territories>(Default::default(), "greedy", 16, 8);
    let json = m.record().to_json().unwrap();
    let mut seen = Vec::new();
    let a = analyse_json(&json, &CFG, &mut |done, total| seen.push((done, total))).unwrap();
    let b = analyse_json(&json, &CFG, &mut |_, _| {}).unwrap();
    assert_eq!(a, b);
    let seat_actions: Vec<usize> = json
        .actions
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.actor, Actor::Seat(_)))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        a.decisions.iter().map(|d| d.ply).collect::<Vec<_>>(),
        seat_actions
    );
    assert_eq!(seen.last(), Some(&(seat_actions.len(), seat_actions.len())));
    assert_eq!(a.plies, json.actions.len());
    let marked: u32 = a
        .seats
        .iter()
        .map(|s| s.inaccuracies + s.mistakes + s.blunders)
        .sum();
    assert_eq!(
        marked as usize,
        a.decisions.iter().filter(|d| d.mark.is_some()).count()
    );
}

#[test]
fn an_illegal_record_is_refused_with_the_action_named() {
    let m = play::<Kyo>(Default::default(), "greedy", 4, 3);
    let mut json = m.record().to_json().unwrap();
    json.actions.swap(0, 1);
    let err = analyse_json(&json, &CFG, &mut |_, _| {}).unwrap_err();
    assert!(err.to_string().contains("action 1"), "{err}");
}

#[test]
fn a_hint_is_the_preferred_action_from_the_seats_view() {
    let k = king_en_prise();
    let h = hint(&k, Seat(0), 200, 1).unwrap();
    assert!(wins(&k, &h.action), "hint: {:?}", h.action);
    assert_eq!(h.estimate, Some(1.0));
    let a: kyo::Action = serde_json::from_value(h.action.clone()).unwrap();
    assert_eq!(h.cells, k.action_cells(&a));
    // In the words a player reads: the capture of the King, not the notation.
    assert!(
        h.words.starts_with("Gold: Heavy E4 → E5") && h.words.contains("captures Red's King"),
        "{}",
        h.words
    );
    assert!(h.cells.contains(&"E5".to_string()), "{:?}", h.cells);
    assert!(
        hint(&k, Seat(1), 200, 1).is_err(),
        "no hint for a seat that owes no decision"
    );
}

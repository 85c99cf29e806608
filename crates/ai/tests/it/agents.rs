//! Agents on real games: legality, determinism, tactics, the type-erased entry point.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::king_en_prise;

use kyo::{Kyo, KyoOptions};
use tabula_ai::tournament::{Score, TournamentConfig, elo_of};
use tabula_ai::{AgentKind, AgentSpec, AiError, InfoSet, Knowledge, choose_action, decide};
use tabula_core::dynamic::{DynState, Erased};
use tabula_core::{Actor, Game, Seat, ToAct, legal_actions_vec};

const ALL_AGENTS: [&str; 11] = [
    "random",
    "greedy",
    "uct:60",
    "mcts:60",
    "ismcts:60",
    "alphabeta:3000",
    "level1",
    "level2",
    "level3:60",
    "level4:60",
    "level5:3000",
];

fn spec(name: &str) -> AgentSpec {
    name.parse().unwrap()
}

/// Plays `plies` actions with `agent` for both sides, checking that every choice is legal.
fn play_checked<G: Knowledge>(mut state: G, agent: &AgentSpec, plies: u64, seed: u64) -> G {
    let mut rng = tabula_core::rng_from_seed(seed);
    for n in 0..plies {
        match state.to_act() {
            ToAct::Over(_) => break,
            ToAct::Chance => {
                let a = state.sample_chance(&mut rng).unwrap();
                state.apply(Actor::Chance, &a).unwrap();
            }
            to_act => {
                let seat = to_act.seats()[0];
                let info = InfoSet::new(&state, seat).unwrap();
                let (a, _) = decide(agent, &info, seed ^ n).unwrap();
                assert!(
                    legal_actions_vec(&state, seat).contains(&a),
                    "{agent} chose an illegal action {a:?}"
                );
                state.apply(Actor::Seat(seat), &a).unwrap();
            }
        }
    }
    state
}

#[test]
fn every_agent_chooses_only_legal_actions_in_kyo() {
    let start = Kyo::new(&KyoOptions::default()).unwrap();
    for name in ALL_AGENTS {
        play_checked(start.clone(), &spec(name), 6, 3);
    }
}

#[test]
fn same_seed_same_decision() {
    let start = play_checked(
        Kyo::new(&KyoOptions::default()).unwrap(),
        &spec("random"),
        7,
        9,
    );
    let seat = start.to_act().seats()[0];
    for name in [
        "random",
        "greedy",
        "uct:80",
        "ismcts:80",
        "alphabeta:4000",
        "level3:80",
    ] {
        let agent = spec(name);
        let info = InfoSet::new(&start, seat).unwrap();
        let a = decide(&agent, &info, 77).unwrap().0;
        let b = decide(&agent, &info, 77).unwrap().0;
        assert_eq!(a, b, "{name} is not deterministic");
    }
}

#[test]
fn different_seeds_vary_random_choices() {
    let start = Kyo::new(&KyoOptions::default()).unwrap();
    let info = InfoSet::new(&start, Seat(0)).unwrap();
    let agent = spec("random");
    let first = decide(&agent, &info, 0).unwrap().0;
    assert!(
        (1..20).any(|s| decide(&agent, &info, s).unwrap().0 != first),
        "twenty seeds gave the same random action"
    );
}

#[test]
fn searching_agents_capture_the_king_when_they_can() {
    let k = king_en_prise();
    for name in [
        "greedy",
        "alphabeta:2000",
        "level2",
        "level5:2000",
        "mcts:300",
        "ismcts:300",
    ] {
        let info = InfoSet::new(&k, Seat(0)).unwrap();
        let (a, _) = decide(&spec(name), &info, 5).unwrap();
        let mut next = k.clone();
        next.apply(Actor::Seat(Seat(0)), &a).unwrap();
        let won = next.to_act().outcome().map(|o| o.score(Seat(0)));
        assert_eq!(
            won,
            Some(1.0),
            "{name} played {a:?} instead of taking the King"
        );
    }
}

/// Red's Heavy on B1 threatens Gold's King on A0; Gold's Heavy on C2 can take it.
fn king_threatened() -> Kyo {
    Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("C2", "DDDH"),
            ("B1", "dddh"),
            ("J9", "sssk"),
            ("J0", "DL"),
        ],
        0,
    )
    .unwrap()
}

#[test]
fn alphabeta_parries_a_threat_to_its_king() {
    let start = king_threatened();
    let agent = spec("alphabeta:40000");
    let mut k = start.clone();
    let mut n = 0;
    while k.to_act() == ToAct::Seat(Seat(0)) {
        let info = InfoSet::new(&k, Seat(0)).unwrap();
        let (a, _) = decide(&agent, &info, 1 + n).unwrap();
        k.apply(Actor::Seat(Seat(0)), &a).unwrap();
        n += 1;
        assert!(n < 20, "Gold's turn does not end");
    }
    if k.to_act().outcome().is_some() {
        return;
    }
    for reply in legal_actions_vec(&k, Seat(1)) {
        let mut next = k.clone();
        next.apply(Actor::Seat(Seat(1)), &reply).unwrap();
        assert!(
            next.has_king(0),
            "after Gold's turn Red takes the King with {reply:?}"
        );
    }
}

#[test]
fn choose_action_answers_with_a_legal_json_action() {
    let state: Box<dyn DynState> = Box::new(Erased(Kyo::new(&KyoOptions::default()).unwrap()));
    for level in 1..=2 {
        let a = choose_action(state.as_ref(), Seat(0), level, 4).unwrap();
        assert!(state.legal_actions(Seat(0)).contains(&a), "level {level}");
        let mut s = state.clone();
        s.apply(Actor::Seat(Seat(0)), &a).unwrap();
    }
    assert_eq!(
        choose_action(state.as_ref(), Seat(1), 2, 4),
        Err(AiError::NotYourDecision(Seat(1)))
    );
    assert_eq!(
        choose_action(state.as_ref(), Seat(0), 6, 4),
        Err(AiError::BadLevel(6))
    );
    assert_eq!(
        choose_action(state.as_ref(), Seat(0), 0, 4),
        Err(AiError::BadLevel(0))
    );
}

#[test]
fn choose_action_is_deterministic_for_a_seed() {
    let state = Erased(Kyo::new(&KyoOptions::default()).unwrap());
    let a = choose_action(&state, Seat(0), 3, 12).unwrap();
    let b = choose_action(&state, Seat(0), 3, 12).unwrap();
    assert_eq!(a, b);
}

#[test]
fn agent_names_parse_and_print_back() {
    for name in ALL_AGENTS {
        assert_eq!(spec(name).to_string(), name);
    }
    assert_eq!(spec("alpha-beta").kind, AgentKind::AlphaBeta);
    // `level6` (the learned evaluation) is a tournament agent: it parses, and needs a net to play.
    assert_eq!(spec("level6").to_string(), "level6");
    for bad in [
        "",
        "level0",
        "level7",
        "uct:",
        "uct:0",
        "uct:x",
        "greedy:10",
        "minimax",
    ] {
        assert!(
            bad.parse::<AgentSpec>().is_err(),
            "`{bad}` should be refused"
        );
    }
}

#[test]
fn tournament_counts_every_game_from_both_sides() {
    let cfg = TournamentConfig {
        game: "kyo".into(),
        options: serde_json::Value::Null,
        agents: vec![spec("random"), spec("greedy"), spec("level1")],
        games_per_pair: 2,
        seed: 5,
        threads: 2,
        max_actions: 120,
    };
    let report = tabula_ai::tournament::run(&cfg, &|_| {}).unwrap();
    assert_eq!(report.pairs.len(), 3);
    for p in &report.pairs {
        assert_eq!(p.games(), 2);
    }
    let total_games: u32 = report.agents.iter().map(|a| a.games).sum();
    assert_eq!(total_games, 12);
    let wins: u32 = report.agents.iter().map(|a| a.wins).sum();
    let losses: u32 = report.agents.iter().map(|a| a.losses).sum();
    assert_eq!(wins, losses);
    // Reproducible: same seed, same results.
    let again = tabula_ai::tournament::run(&cfg, &|_| {}).unwrap();
    assert_eq!(report, again);
}

#[test]
fn tournament_refuses_bad_configurations() {
    let mut cfg = TournamentConfig {
        game: "kyo".into(),
        options: serde_json::Value::Null,
        agents: vec![spec("random")],
        games_per_pair: 2,
        seed: 5,
        threads: 1,
        max_actions: 50,
    };
    assert!(tabula_ai::tournament::run(&cfg, &|_| {}).is_err());
    cfg.agents = vec![spec("random"), spec("random")];
    assert!(tabula_ai::tournament::run(&cfg, &|_| {}).is_err());
    cfg.agents = vec![spec("random"), spec("greedy")];
    cfg.games_per_pair = 0;
    assert!(tabula_ai::tournament::run(&cfg, &|_| {}).is_err());
    cfg.games_per_pair = 1;
    cfg.options = serde_json::json!({"no_such_option": true});
    assert!(matches!(
        tabula_ai::tournament::run(&cfg, &|_| {}),
        Err(AiError::Options(_))
    ));
    cfg.options = serde_json::Value::Null;
    cfg.game = "chess".into();
    assert_eq!(
        tabula_ai::tournament::run(&cfg, &|_| {}),
        Err(AiError::UnknownGame("chess".into()))
    );
}

#[test]
fn scores_intervals_and_elo() {
    assert!(elo_of(0.5).abs() < 1e-9);
    assert!((elo_of(0.75) - 190.848).abs() < 0.01);
    let s = Score::from_counts(8, 0, 2);
    assert!((s.mean - 0.8).abs() < 1e-12);
    // sd of Bernoulli(0.8) = 0.4; 1.96 * 0.4 / sqrt(10)
    assert!((s.ci95 - 1.96 * 0.4 / 10f64.sqrt()).abs() < 1e-12);
    let perfect = Score::from_counts(10, 0, 0);
    assert!(perfect.elo().is_finite() && perfect.elo() > 300.0);
    let even = Score::from_counts(3, 4, 3);
    assert!(even.elo().abs() < 1e-9);
}

#[test]
fn bench_reports_positive_rates() {
    let r = tabula_ai::tournament::bench("kyo", &serde_json::Value::Null, 0.1).unwrap();
    assert!(r.playouts_per_sec > 0.0);
    assert!(r.uct_iterations_per_sec > 0.0);
    assert!(r.mcts_iterations_per_sec > 0.0);
    assert!(r.alphabeta_nodes_per_sec.is_some_and(|n| n > 0.0));
}

#[test]
fn kyo_evaluation_is_symmetric_at_the_start() {
    let k = Kyo::new(&KyoOptions::default()).unwrap();
    let v = k.evaluate().unwrap();
    assert!((v[0] - 0.5).abs() < 1e-9 && (v[1] - 0.5).abs() < 1e-9);
    // Taking a Heavy (with its Mana) makes the evaluation favour the taker.
    let mut up = k.clone();
    let sq = kyo::Sq::at(0, 9).unwrap();
    up.board.cell_mut(sq).pawn = None;
    up.board.cell_mut(sq).chips.clear();
    let v = up.evaluate().unwrap();
    assert!(v[0] > 0.6, "{v:?}");
    let _ = AgentSpec::new(AgentKind::Random);
}

#[test]
fn time_limits_apply_to_searching_agents_only() {
    let t = std::time::Duration::from_millis(50);
    let uct = spec("uct").with_time_limit(t);
    assert_eq!(uct.time, Some(t));
    assert_eq!(uct.to_string(), "uct@50ms");
    let capped = spec("uct:300").with_time_limit(t);
    assert_eq!(capped.budget, Some(300));
    assert_eq!(capped.to_string(), "uct:300@50ms");
    let greedy = spec("greedy").with_time_limit(t);
    assert_eq!(greedy, spec("greedy"));
    // A time-limited search still answers with a legal action.
    let k = Kyo::new(&KyoOptions::default()).unwrap();
    let info = InfoSet::new(&k, Seat(0)).unwrap();
    let (a, _) = decide(&spec("level5").with_time_limit(t), &info, 1).unwrap();
    assert!(legal_actions_vec(&k, Seat(0)).contains(&a));
}

/// Gold's bare Heavy on C4 can take Red's Tower on D5, which Red's Heavy on E6 defends (Gold then
/// loses the Heavy: 3 for 4), or Red's undefended Light Pawn on B5 (1.5). The right plan is the Light
/// Pawn (it also moves the Heavy out of the Tower's reach).
fn defended_and_hanging() -> Kyo {
    Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("B0", "DDDLL"),
            ("C4", "H"),
            ("B5", "p"),
            ("D5", "t"),
            ("E6", "h"),
            ("I9", "dddll"),
            ("J9", "sssk"),
        ],
        0,
    )
    .unwrap()
}

fn step_to(a: &kyo::Action) -> Option<kyo::Sq> {
    match a {
        kyo::Action::Step { to, .. } => Some(*to),
        _ => None,
    }
}

#[test]
fn quiescence_sees_the_recapture_beyond_the_nominal_depth() {
    use tabula_ai::alphabeta::{self, AlphaBetaConfig};
    let k = defended_and_hanging();
    let b5 = "B5".parse::<kyo::Sq>().unwrap();
    let d5 = "D5".parse::<kyo::Sq>().unwrap();
    let one_action = |quiescence_depth| {
        let cfg = AlphaBetaConfig {
            max_depth: 1,
            max_nodes: 1_000_000,
            quiescence_depth,
            ..AlphaBetaConfig::default()
        };
        let mut rng = tabula_core::rng_from_seed(3);
        alphabeta::search(&k, Seat(0), &cfg, &mut rng).unwrap().0
    };
    // One action deep without quiescence, the Tower (3) looks better than the Light Pawn (1.5)...
    assert_eq!(step_to(&one_action(0)), Some(d5));
    // ...with it, the recapture by the Heavy on E6 is seen.
    assert_eq!(step_to(&one_action(6)), Some(b5));
    // The strongest level takes the Light Pawn too, whatever the seed.
    for seed in 1..4 {
        let info = InfoSet::new(&k, Seat(0)).unwrap();
        let (a, _) = decide(&spec("level5:20000"), &info, seed).unwrap();
        assert_eq!(step_to(&a), Some(b5), "level5 played {a:?}");
    }
}

/// Gold (Queen and Heavy against a Heavy and a Light Pawn) is ahead. Its Heavy on G4 can take Red's
/// Light Pawn on H5, which Red's Heavy on I6 defends: a losing exchange (4 for 1.5) that still leaves
/// Gold ahead.
fn ahead_with_an_exchange(quiet_turns: u32) -> Kyo {
    let mut k = Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("B0", "DDDLL"),
            ("E4", "Q"),
            ("G4", "H"),
            ("H5", "p"),
            ("I6", "h"),
            ("I9", "dddll"),
            ("J9", "sssk"),
        ],
        0,
    )
    .unwrap();
    k.quiet_turns = quiet_turns;
    k
}

#[test]
fn level5_exchanges_rather_than_let_the_quiet_rule_draw_a_won_game() {
    let h5 = "H5".parse::<kyo::Sq>().unwrap();
    for seed in 1..4 {
        // With the count far from the limit, the losing exchange is declined...
        let k = ahead_with_an_exchange(0);
        let info = InfoSet::new(&k, Seat(0)).unwrap();
        let (a, _) = decide(&spec("level5:20000"), &info, seed).unwrap();
        assert_ne!(step_to(&a), Some(h5), "level5 gave its Heavy away: {a:?}");
        // ...one turn before the 100-turn draw, it is the only way to play on, and level5 takes it.
        let k = ahead_with_an_exchange(kyo::QUIET_TURN_LIMIT - 1);
        let info = InfoSet::new(&k, Seat(0)).unwrap();
        let (a, _) = decide(&spec("level5:20000"), &info, seed).unwrap();
        assert_eq!(step_to(&a), Some(h5), "level5 let the game be drawn: {a:?}");
    }
}

/// Gold's Heavy on C4 stands on a Dark Mana chip: a step north leaving the chip (`C4/1>C5`) is a Mana
/// move, after which Gold's turn goes on; the step ends next to Red's Heavy on D6, which takes it
/// once Gold's turn is over. Stepping to B5 is as close to Red's King (C9) and safe.
fn mana_move_into_a_capture() -> Kyo {
    Kyo::from_stacks(
        &KyoOptions::default(),
        &[
            ("A0", "SSSK"),
            ("B0", "DDDLL"),
            ("C4", "DH"),
            ("D6", "h"),
            ("B9", "dddll"),
            ("C9", "sssk"),
        ],
        0,
    )
    .unwrap()
}

#[test]
fn alphabeta_scores_a_leaf_in_the_middle_of_a_mana_chain_after_the_opponents_answer() {
    use tabula_ai::alphabeta::{self, AlphaBetaConfig};
    let k = mana_move_into_a_capture();
    let c5 = "C5".parse::<kyo::Sq>().unwrap();
    let mana_move = legal_actions_vec(&k, Seat(0))
        .into_iter()
        .find(|a| step_to(a) == Some(c5) && k.action_notation(a).contains('>'))
        .unwrap();
    // The Mana move leaves Gold to act again: the position after it is in the middle of a turn.
    let mut after = k.clone();
    after.apply(Actor::Seat(Seat(0)), &mana_move).unwrap();
    assert_eq!(after.to_act(), ToAct::Seat(Seat(0)));
    assert_eq!(after.closing_action(), Some(kyo::Action::EndTurn));
    assert_eq!(k.closing_action(), None);
    // One action deep, the Mana move's child is a leaf. Scored as it stands (Gold to act, no capture
    // of its own) it looks as good as the safe step to B5; closed, Red's Heavy takes the Heavy.
    for seed in 1..7 {
        let cfg = AlphaBetaConfig {
            max_depth: 1,
            max_nodes: 1_000_000,
            ..AlphaBetaConfig::default()
        };
        let mut rng = tabula_core::rng_from_seed(seed);
        let (a, stats) = alphabeta::search(&k, Seat(0), &cfg, &mut rng).unwrap();
        assert_ne!(
            step_to(&a),
            Some(c5),
            "seed {seed}: {}",
            k.action_notation(&a)
        );
        assert!(stats.value > 0, "seed {seed}: {stats:?}");
    }
}

/// Gold and Red with a Heavy each (Gold's on C4) and, in the second position, a Gold Queen more.
fn heavy_on_c4(gold_queen: bool) -> Kyo {
    let mut stacks = vec![
        ("A0", "SSSK"),
        ("B0", "DDDLL"),
        ("C4", "H"),
        ("J6", "h"),
        ("B9", "dddll"),
        ("C9", "sssk"),
    ];
    if gold_queen {
        stacks.push(("J0", "Q"));
    }
    Kyo::from_stacks(&KyoOptions::default(), &stacks, 0).unwrap()
}

#[test]
fn kyo_progress_towards_the_enemy_king_counts_more_for_the_side_ahead() {
    use tabula_ai::games::kyo::balance;
    let gain = |gold_queen: bool| {
        let k = heavy_on_c4(gold_queen);
        let mut nearer = k.clone();
        let (c4, c5) = ("C4".parse().unwrap(), "C5".parse().unwrap());
        nearer.board.cell_mut(c5).pawn = nearer.board.cell_mut(c4).pawn.take();
        balance(&nearer) - balance(&k)
    };
    let (even, ahead) = (gain(false), gain(true));
    assert!(even > 0.0, "{even}");
    // A Queen (6) ahead is a full lead: the extra weight of 0.25 per square.
    assert!(
        (ahead - even - 0.25).abs() < 1e-9,
        "even {even}, ahead {ahead}"
    );
}

#[test]
fn kyo_progress_is_measured_to_the_enemy_kings_starting_square_so_a_king_step_changes_nothing() {
    use tabula_ai::games::kyo::balance;
    // Measured to the King itself, a step of Red's King between C9 and C8 would move a square of
    // progress to or from Gold's Heavy (and in a game every Gold pawn's): lines that gave Red a move
    // looked worse than Mana chains that did not.
    let k = heavy_on_c4(false);
    let (c8, c9) = ("C8".parse().unwrap(), "C9".parse().unwrap());
    let mut forward = k.clone();
    forward.board.cell_mut(c8).pawn = forward.board.cell_mut(c9).pawn.take();
    forward.board.cell_mut(c8).chips = std::mem::take(&mut forward.board.cell_mut(c9).chips);
    assert!((balance(&forward) - balance(&k)).abs() < 1e-9);
}

#[test]
fn kyo_material_fades_with_the_quiet_count_but_progress_does_not() {
    use tabula_ai::games::kyo::balance;
    let at = |quiet_turns: u32, gold_queen: bool, nearer: bool| {
        let mut k = heavy_on_c4(gold_queen);
        k.quiet_turns = quiet_turns;
        if nearer {
            let (c4, c5) = ("C4".parse().unwrap(), "C5".parse().unwrap());
            k.board.cell_mut(c5).pawn = k.board.cell_mut(c4).pawn.take();
        }
        balance(&k)
    };
    // A step nearer the enemy is worth as much one turn before the 100-turn draw as at its start...
    let gain = |q| at(q, false, true) - at(q, false, false);
    assert!(gain(0) > 0.0);
    assert!((gain(kyo::QUIET_TURN_LIMIT - 1) - gain(0)).abs() < 1e-9);
    // ...while a Queen more counts for less and less as the count runs (a capture resets it).
    assert!(at(90, true, false) < at(0, true, false) - 2.0);
}

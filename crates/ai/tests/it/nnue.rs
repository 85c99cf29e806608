//! The learned evaluation's pipeline on tiny data (issue 41): positions generated, resumed and read
//! back; a few epochs of training lower the loss; the saved net loads and evaluates as in
//! training; training is reproducible and resumable; bad files are clear errors; `level6` plays;
//! its incremental accumulators equal the fresh computation.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use kyo::{Kyo, KyoOptions};
use tabula_ai::alphabeta::{self, AlphaBetaConfig, LeafEval};
use tabula_ai::nnue::data::{self, DataSettings, Position};
use tabula_ai::nnue::train::{self, TrainSettings};
use tabula_ai::nnue::{self, Net, NetError};
use tabula_ai::{AgentSpec, InfoSet, Knowledge, decide};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, Seat};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tabula-nnue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// Tiny budgets: a data set of about a hundred positions in seconds in a debug build. The
/// labelling search needs enough nodes to finish its first iteration over Kyo's 100-odd actions
/// (a position whose search finished none is not labelled); the other moves' searches need not.
fn tiny() -> DataSettings {
    DataSettings {
        seed: 5,
        play_nodes: 20,
        label_nodes: 250,
        label_depth: 64,
        opening_min: 0,
        opening_max: 6,
        epsilon_permille: 100,
        label_permille: 1000,
        max_actions: 90,
    }
}

const TARGET: u64 = 120;

fn generate(dir: &Path, settings: &DataSettings, target: u64) -> data::Manifest {
    let stop = AtomicBool::new(false);
    data::generate::<Kyo>(dir, settings, target, "test", &stop, &mut |_| {}).unwrap()
}

/// One data set shared by the tests of this file.
fn dataset() -> &'static (data::Manifest, Vec<Position>) {
    static DATA: OnceLock<(data::Manifest, Vec<Position>)> = OnceLock::new();
    DATA.get_or_init(|| {
        let dir = temp_dir("shared");
        generate(&dir, &tiny(), TARGET);
        let d = data::read_dir(&dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        d
    })
}

#[test]
fn kyo_features_see_the_board_from_the_side_to_move() {
    let start = Kyo::new(&KyoOptions::default()).unwrap();
    let mut gold = Vec::new();
    assert_eq!(start.nnue_features(&mut gold), Some(Seat::new(0)));
    // The start is symmetric: Red to move sees what Gold to move sees.
    let mut red_to_move = start.clone();
    red_to_move.to_move = Seat::new(1);
    let mut red = Vec::new();
    assert_eq!(red_to_move.nnue_features(&mut red), Some(Seat::new(1)));
    gold.sort_unstable();
    red.sort_unstable();
    assert_eq!(gold, red);
    // Own pawns (features below 700, own half) and enemy pawns are told apart.
    let inputs = kyo::Kyo::NNUE_FEATURES.unwrap().inputs;
    assert!(gold.iter().all(|&f| usize::from(f) < inputs));
    let own_pawns = gold
        .iter()
        .filter(|&&f| f < 1400 && (f / 100) % 2 == 0)
        .count();
    let enemy_pawns = gold
        .iter()
        .filter(|&&f| f < 1400 && (f / 100) % 2 == 1)
        .count();
    assert_eq!(own_pawns, enemy_pawns);
    assert!(own_pawns >= 10, "{own_pawns} own pawns");
}

#[test]
fn data_is_generated_resumed_exactly_and_read_back() {
    let (manifest, positions) = dataset();
    assert!(manifest.positions >= TARGET);
    assert_eq!(positions.len() as u64, manifest.positions);
    assert!(positions.iter().all(|p| (0.0..=1.0).contains(&p.search)));
    // The labels are not all the same (the search sees differences between positions).
    assert!(positions.iter().any(|p| p.search > 0.55) && positions.iter().any(|p| p.search < 0.45));

    // A shorter run, interrupted with a partly written game left behind, then resumed: the same
    // positions as the first games of the uninterrupted run (game g depends only on the settings
    // and g).
    let dir = temp_dir("resume");
    let half = generate(&dir, &tiny(), 20);
    let bin = dir.join("positions.bin");
    let mut bytes = std::fs::read(&bin).unwrap();
    bytes.extend_from_slice(&[7, 0, 1, 2, 3]);
    std::fs::write(&bin, &bytes).unwrap();
    let resumed = generate(&dir, &tiny(), half.positions + 1);
    assert!(resumed.games > half.games && resumed.games < manifest.games);
    assert_eq!(resumed.runs.len(), 2);
    let (_, again) = data::read_dir(&dir).unwrap();
    assert_eq!(again.len() as u64, resumed.positions);
    assert_eq!(&again[..], &positions[..again.len()]);

    // Other settings in the same directory are refused and change nothing.
    let before = std::fs::read(&bin).unwrap();
    let other = DataSettings {
        label_nodes: 500,
        ..tiny()
    };
    let stop = AtomicBool::new(false);
    let err =
        data::generate::<Kyo>(&dir, &other, TARGET * 2, "test", &stop, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    assert_eq!(std::fs::read(&bin).unwrap(), before);

    // A damaged file is an error, not a short data set.
    let mut damaged = before.clone();
    damaged.truncate(before.len() - 3);
    std::fs::write(&bin, &damaged).unwrap();
    assert!(data::read_dir(&dir).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

fn settings(epochs: u32) -> TrainSettings {
    TrainSettings {
        seed: 9,
        epochs,
        batch: 32,
        lr: 3e-3,
        lambda: 0.75,
        h1: 16,
        h2: 8,
        validation_percent: 10,
    }
}

#[test]
fn training_lowers_the_loss_and_the_saved_net_evaluates_as_trained() {
    let (_, positions) = dataset();
    let fs = Kyo::NNUE_FEATURES.unwrap();
    let s = settings(8);
    let mut ckpt = train::start("kyo", fs, &s, positions.len() as u64);
    let (train_idx, _) = train::split(positions.len(), &s);
    let train_set: Vec<&Position> = train_idx.iter().map(|&i| &positions[i]).collect();
    let (before, _) = train::evaluate_loss(&ckpt.net, &train_set, s.lambda);
    train::train(&mut ckpt, positions, &s, &mut |_, _| true);
    let (after, _) = train::evaluate_loss(&ckpt.net, &train_set, s.lambda);
    assert_eq!(ckpt.history.len(), 8);
    assert!(
        after < before - 0.01,
        "training loss {before:.4} → {after:.4}"
    );
    let first = ckpt.history.first().unwrap().train_loss;
    let last = ckpt.history.last().unwrap().train_loss;
    assert!(last < first, "epoch losses {first:.4} → {last:.4}");

    // Saved, loaded: the same weights, the same scores as the trainer computes.
    let dir = temp_dir("net");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kyo.nnue");
    ckpt.net.save(&path).unwrap();
    let loaded = Net::load(&path).unwrap();
    assert_eq!(loaded, ckpt.net);
    loaded.check_game::<Kyo>().unwrap();
    for p in positions.iter().take(100) {
        let a = train::train_logit(&ckpt.net, &p.features);
        let b = loaded.logit(&p.features);
        assert!((a - b).abs() < 1e-4, "trainer {a}, loaded net {b}");
    }
    // The evaluation of a state is the net's score for its features, per seat.
    let start = Kyo::new(&KyoOptions::default()).unwrap();
    let mut buf = Vec::new();
    let v = nnue::evaluate(&loaded, &start, &mut buf).unwrap();
    let mut f = Vec::new();
    start.nnue_features(&mut f);
    let p = f64::from(loaded.score(&f));
    assert!((v[0] - p).abs() < 1e-9 && (v[1] - (1.0 - p)).abs() < 1e-9);

    // level6 plays with it, deterministically for a seed.
    nnue::install(loaded);
    let spec: AgentSpec = "level6:2000".parse().unwrap();
    assert_eq!(spec.to_string(), "level6:2000");
    let info = InfoSet::new(&start, Seat::new(0)).unwrap();
    let (a1, st) = decide(&spec, &info, 4).unwrap();
    let (a2, _) = decide(&spec, &info, 4).unwrap();
    assert_eq!(a1, a2);
    assert!(st.nodes > 0);
    let mut next = start.clone();
    next.apply(tabula_core::Actor::Seat(Seat::new(0)), &a1)
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn training_is_reproducible_and_resumes_exactly() {
    let (_, positions) = dataset();
    let fs = Kyo::NNUE_FEATURES.unwrap();
    let n = positions.len() as u64;
    let mut straight = train::start("kyo", fs, &settings(3), n);
    train::train(&mut straight, positions, &settings(3), &mut |_, _| true);
    let mut again = train::start("kyo", fs, &settings(3), n);
    train::train(&mut again, positions, &settings(3), &mut |_, _| true);
    assert_eq!(straight.net, again.net);
    // Two epochs, the checkpoint through its bytes, then the third.
    let mut first = train::start("kyo", fs, &settings(2), n);
    train::train(&mut first, positions, &settings(2), &mut |_, _| true);
    let mut resumed = train::Checkpoint::from_bytes(&first.to_bytes()).unwrap();
    train::check_resume(&resumed, &settings(3), n).unwrap();
    train::train(&mut resumed, positions, &settings(3), &mut |_, _| true);
    assert_eq!(resumed.net, straight.net);
    assert_eq!(resumed.history.len(), 3);
}

#[test]
fn missing_and_corrupt_nets_are_clear_errors() {
    let dir = temp_dir("bad");
    std::fs::create_dir_all(&dir).unwrap();
    let missing = Net::load(&dir.join("none.nnue")).unwrap_err();
    assert!(matches!(missing, NetError::File { .. }), "{missing}");

    let net = train::init_net("kyo", Kyo::NNUE_FEATURES.unwrap(), &settings(1));
    let bytes = net.to_bytes();
    assert_eq!(Net::from_bytes(&bytes).unwrap(), net);
    let mut flipped = bytes.clone();
    flipped[100] ^= 0x10;
    assert!(
        Net::from_bytes(&flipped)
            .unwrap_err()
            .to_string()
            .contains("checksum")
    );
    assert!(Net::from_bytes(&bytes[..bytes.len() - 9]).is_err());
    assert!(Net::from_bytes(b"not a net at all").is_err());
    let path = dir.join("cut.nnue");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(Net::load(&path), Err(NetError::File { .. })));
    // A net of one game is refused for another.
    let err = net
        .check_game::<cyvasse::caird::CairdCyvasse>()
        .unwrap_err();
    assert!(matches!(err, NetError::NoFeatures(_)), "{err}");
    let mut other = net.clone();
    other.feature_set = "kyo-v0".into();
    assert!(matches!(
        other.check_game::<Kyo>(),
        Err(NetError::WrongGame { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A net with random weights (the trainer's initialisation): enough to tell accumulators apart.
fn random_net() -> Net {
    train::init_net(
        "kyo",
        Kyo::NNUE_FEATURES.unwrap(),
        &TrainSettings {
            h1: 24,
            h2: 8,
            ..settings(1)
        },
    )
}

fn sorted(mut v: Vec<u16>) -> Vec<u16> {
    v.sort_unstable();
    v
}

fn features_as(k: &Kyo, seat: u8) -> Vec<u16> {
    let mut f = Vec::new();
    assert!(k.nnue_features_as(Seat(seat), &mut f));
    f
}

/// Through random games, action by action: what Kyo reports as changed turns each seat's features
/// of the parent into the child's exactly, and level 6's accumulators kept up to date from those
/// changes equal the ones computed afresh, as does the evaluation.
#[test]
fn incremental_accumulators_equal_the_fresh_computation() {
    let net = random_net();
    let h1 = net.h1;
    let mut fresh = vec![0f32; h1];
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    let mut compared = 0;
    for seed in 0..3u64 {
        let mut eval = nnue::LearnedEval::new(&net);
        let mut g = Kyo::new(&KyoOptions::default()).unwrap();
        LeafEval::root(&mut eval, &g);
        let mut rng = tabula_core::rng_from_seed(seed);
        let mut ply = 0u32;
        while g.outcome.is_none() && ply < 250 {
            actions.clear();
            g.legal_actions(g.to_move, &mut actions);
            let a = actions[rng.random_range(0..actions.len())];
            let mut child = g.clone();
            child.apply_trusted(Actor::Seat(g.to_move), &a);
            if child.outcome.is_none() {
                let mut removed = [Vec::new(), Vec::new()];
                let mut added = [Vec::new(), Vec::new()];
                assert!(child.nnue_delta(&g, &mut removed, &mut added));
                for s in 0..2u8 {
                    let mut f = features_as(&g, s);
                    for r in &removed[usize::from(s)] {
                        let i = f
                            .iter()
                            .position(|x| x == r)
                            .expect("a removed feature was active");
                        f.swap_remove(i);
                    }
                    f.extend_from_slice(&added[usize::from(s)]);
                    assert_eq!(
                        sorted(f),
                        sorted(features_as(&child, s)),
                        "seed {seed}, ply {ply}, {a:?}"
                    );
                }
            }
            LeafEval::enter(&mut eval, ply, &g, &child);
            ply += 1;
            g = child;
            if g.outcome.is_some() {
                break;
            }
            for s in 0..2u8 {
                let acc = eval.accumulator(ply, Seat(s)).expect("kept up to date");
                net.accumulate(&features_as(&g, s), &mut fresh);
                for (x, y) in acc.iter().zip(&fresh) {
                    assert!(
                        (x - y).abs() < 1e-4,
                        "seed {seed}, ply {ply}: {x} against {y}"
                    );
                }
            }
            let inc = LeafEval::evaluate(&mut eval, ply, &g).unwrap();
            let afresh = nnue::evaluate(&net, &g, &mut buf).unwrap();
            assert!((inc[0] - afresh[0]).abs() < 1e-5 && (inc[1] - afresh[1]).abs() < 1e-5);
            compared += 1;
        }
    }
    assert!(compared > 200, "{compared} positions compared");
}

/// Checks every leaf an alpha-beta search evaluates: the incremental evaluation was up to date
/// (the search entered each state it evaluates) and equals the fresh one.
struct Checked<'n> {
    inner: nnue::LearnedEval<'n>,
    net: &'n Net,
    buf: Vec<u16>,
    leaves: u64,
}

impl LeafEval<Kyo> for Checked<'_> {
    fn root(&mut self, state: &Kyo) {
        self.inner.root(state);
    }
    fn enter(&mut self, ply: u32, parent: &Kyo, child: &Kyo) {
        self.inner.enter(ply, parent, child);
    }
    fn evaluate(&mut self, ply: u32, state: &Kyo) -> Option<Vec<f64>> {
        assert!(
            self.inner.accumulator(ply, state.to_move).is_some(),
            "ply {ply} was not entered"
        );
        let inc = self.inner.evaluate(ply, state)?;
        let afresh = nnue::evaluate(self.net, state, &mut self.buf)?;
        assert!(
            (inc[0] - afresh[0]).abs() < 1e-5,
            "{inc:?} against {afresh:?}"
        );
        self.leaves += 1;
        Some(inc)
    }
}

#[test]
fn a_search_evaluates_every_leaf_incrementally_as_afresh() {
    let net = random_net();
    let mut g = Kyo::new(&KyoOptions::default()).unwrap();
    let mut rng = tabula_core::rng_from_seed(3);
    let mut actions = Vec::new();
    // A middle game (captures to follow in the quiescence search).
    for _ in 0..40 {
        actions.clear();
        g.legal_actions(g.to_move, &mut actions);
        if g.outcome.is_some() || actions.is_empty() {
            break;
        }
        let a = actions[rng.random_range(0..actions.len())];
        g.apply_trusted(Actor::Seat(g.to_move), &a);
    }
    assert!(g.outcome.is_none());
    let mut checked = Checked {
        inner: nnue::LearnedEval::new(&net),
        net: &net,
        buf: Vec::new(),
        leaves: 0,
    };
    let cfg = AlphaBetaConfig {
        max_nodes: 3_000,
        ..AlphaBetaConfig::default()
    };
    let (_, stats) =
        alphabeta::search_with_leaf(&g, g.to_move, &cfg, &mut rng, &mut checked).unwrap();
    assert!(stats.depth >= 1, "depth {}", stats.depth);
    assert!(checked.leaves > 500, "{} leaves", checked.leaves);
}

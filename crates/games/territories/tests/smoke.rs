#![allow(clippy::unwrap_used, clippy::expect_used)]
use tabula_core::{Game, rng_from_seed, tools};
use territories::{Territories, TerritoriesOptions};

#[test]
fn random_games_finish() {
    let mut total = 0;
    for seed in 0..50 {
        let mut g = Territories::new(&TerritoriesOptions::default()).unwrap();
        let mut rng = rng_from_seed(seed);
        let r = tools::random_playout(&mut g, &mut rng, 1_000_000);
        assert!(r.outcome.is_some(), "seed {seed}: {:?}", g.phase);
        g.validate().unwrap();
        total += r.actions;
        println!(
            "{seed}: {} actions, turn {}, {:?}",
            r.actions,
            g.turn,
            r.outcome.unwrap().reason
        );
    }
    println!("total {total}");
}

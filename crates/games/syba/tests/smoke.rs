#![allow(clippy::unwrap_used, clippy::expect_used)]
use syba::{Syba, SybaOptions};
use tabula_core::{Game, tools};

#[test]
fn smoke_random_games() {
    for seed in 0..20u64 {
        let opts = SybaOptions {
            players: 2 + (seed % 5) as u8,
            max_rounds: 10,
            ..SybaOptions::default()
        };
        let mut g = Syba::new(&opts).unwrap();
        let mut rng = tabula_core::rng_from_seed(seed);
        let r = tools::random_playout(&mut g, &mut rng, 200_000);
        g.validate().unwrap();
        println!(
            "seed {seed}: {:?} after {} actions",
            r.outcome.map(|o| o.reason),
            r.actions
        );
    }
}

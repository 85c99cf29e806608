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

#[test]
fn smoke_action_mix() {
    use std::collections::HashMap;
    use tabula_core::rand::RngExt;
    let mut counts: HashMap<String, u64> = HashMap::new();
    let mut reasons: HashMap<String, u64> = HashMap::new();
    for seed in 0..30u64 {
        let mut g = Syba::new(&SybaOptions {
            players: 4,
            max_rounds: 20,
            ..SybaOptions::default()
        })
        .unwrap();
        let mut rng = tabula_core::rng_from_seed(seed);
        loop {
            match g.to_act() {
                tabula_core::ToAct::Over(o) => {
                    *reasons.entry(o.reason).or_default() += 1;
                    break;
                }
                tabula_core::ToAct::Chance => {
                    let a = g.sample_chance(&mut rng).unwrap();
                    g.apply_trusted(tabula_core::Actor::Chance, &a);
                }
                t => {
                    let s = t.seats()[0];
                    let l = tabula_core::legal_actions_vec(&g, s);
                    let a = l[rng.random_range(0..l.len())].clone();
                    let name = format!("{:?}", a)
                        .split(|c: char| !c.is_alphanumeric())
                        .next()
                        .unwrap()
                        .to_string();
                    *counts.entry(name).or_default() += 1;
                    g.apply_trusted(tabula_core::Actor::Seat(s), &a);
                }
            }
        }
    }
    println!("{counts:?}\n{reasons:?}");
}

#[test]
fn smoke_render() {
    let mut g = Syba::new(&SybaOptions {
        players: 3,
        max_rounds: 10,
        ..SybaOptions::default()
    })
    .unwrap();
    let mut rng = tabula_core::rng_from_seed(7);
    tools::random_playout(&mut g, &mut rng, 300);
    println!(
        "{}",
        g.render_text(tabula_core::Observer::Seat(tabula_core::Seat(0)))
    );
}

#![allow(clippy::unwrap_used, clippy::expect_used)]
use syba::{Syba, SybaOptions};
use tabula_core::{Game, tools};

#[test]
fn random_games_of_every_size_end_and_stay_valid() {
    // Every game ends: by a victory of the rules (15 cities, last player owning a city, the World
    // Spell), or at the documented round limit (`max_rounds`: the players owning the most cities win
    // together), never by running out of the action budget.
    const REASONS: [&str; 4] = [
        "15 cities",
        "last player owning a city",
        "World Spell",
        "round limit: most cities",
    ];
    let mut by_limit = 0;
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
        let outcome = r.outcome.unwrap_or_else(|| {
            panic!(
                "seed {seed}: no outcome after {} actions (round {})",
                r.actions,
                g.round()
            )
        });
        assert!(
            REASONS.contains(&outcome.reason.as_str()),
            "seed {seed}: unexpected reason {:?}",
            outcome.reason
        );
        assert!(
            !outcome.winning_seats().is_empty(),
            "seed {seed}: somebody wins"
        );
        assert!(g.round() <= 10, "seed {seed}: past the round limit");
        if outcome.reason == "round limit: most cities" {
            by_limit += 1;
            assert_eq!(g.round(), 10, "seed {seed}: the limit ends round 10");
            let most = (0..g.seats() as u8).map(|s| g.city_count(s)).max().unwrap();
            for s in 0..g.seats() as u8 {
                if g.city_count(s) == most {
                    assert!(
                        outcome.winning_seats().contains(&tabula_core::Seat(s)),
                        "seed {seed}: P{} owns the most cities and wins",
                        s + 1
                    );
                }
            }
        }
        assert_eq!(g.to_act(), tabula_core::ToAct::Over(outcome.clone()));
        println!(
            "seed {seed}: {} after {} actions, round {}",
            outcome.reason,
            r.actions,
            g.round()
        );
    }
    println!("{by_limit} of 20 ended at the round limit");
}

#[test]
fn random_play_exercises_every_kind_of_action() {
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
    for kind in [
        "ChooseRace",
        "ChooseCity",
        "BuyUnit",
        "BuyHero",
        "Rest",
        "ExtraExhaust",
        "MoveAgain",
        "PowerUp",
        "Research",
        "Move",
        "MoveArmy",
        "Attack",
        "HeroAction",
        "OncePerGame",
        "Intercept",
        "HelpAttack",
        "HelpDefend",
        "Pass",
        "Choose",
        "HoldBack",
        "Confirm",
        "Withdraw",
        "TradeOpen",
        "TradeOffer",
        "TradeAsk",
        "TradePropose",
        "TradeCancel",
        "TradeAccept",
        "TradeDecline",
        "EndTurn",
    ] {
        assert!(
            counts.get(kind).copied().unwrap_or(0) > 0,
            "random play never took {kind}: {counts:?}"
        );
    }
    assert_eq!(reasons.values().sum::<u64>(), 30);
}

#[test]
fn terminal_drawing_shows_map_armies_players_and_who_acts() {
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

#[test]
fn registry_creates_loads_and_plays_through_json() {
    use tabula_core::dynamic::Registry;
    let mut reg = Registry::new();
    reg.register::<Syba>();
    let kind = reg.get("syba").unwrap();
    let opts = kind
        .parse_options(&["players=3".to_string(), "auto_rest=true".to_string()])
        .unwrap();
    assert_eq!(opts["players"], 3);
    let err = kind
        .parse_options(&["colour=red".to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("players") && err.contains("auto_rest") && err.contains("max_rounds"),
        "{err}"
    );
    let err = kind
        .parse_options(&["players=7".to_string()])
        .unwrap_err()
        .to_string();
    assert!(err.contains("2..=6"), "{err}");
    let state = kind.new_state(&opts).unwrap();
    let json = state.state();
    let loaded = kind.load_state(&json).unwrap();
    assert_eq!(loaded.state(), json);
    let mut bad = json.clone();
    bad["players"][0]["resources"] = serde_json::json!([50, 0, 0]);
    assert!(kind.load_state(&bad).is_err());
    let mut s = loaded;
    let a = s.parse_action("start P2").unwrap();
    s.apply(tabula_core::Actor::Chance, &a).unwrap();
    let legal = s.legal_actions_listed(tabula_core::Seat(1));
    assert_eq!(legal.len(), 6, "six races to choose from");
    assert!(legal.iter().any(|a| a.notation == "race forces-of-the-fey"));
}

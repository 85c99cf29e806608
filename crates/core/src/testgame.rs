//! A small dice race used to test the generic tools on a game with chance, seats and an end.
//!
//! Each turn chance rolls a die of `faces` faces (with `reroll_ones`, a 1 is added up and rolled
//! again); then the seat to move either advances by the roll or stays. The first seat at `goal` or
//! beyond wins.

use serde::{Deserialize, Serialize};

use crate::dynamic::{self, DynError, DynGame};
use crate::options::{GameOptions, OptionSpec, OptionsError};
use crate::{
    ActionError, Actor, Game, Observer, Outcome, Seat, ToAct, check_actor, rng_from_seed, tools,
};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceOptions {
    goal: i64,
    faces: i64,
    reroll_ones: bool,
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions {
            goal: 4,
            faces: 2,
            reroll_ones: false,
        }
    }
}

impl GameOptions for RaceOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("goal", 1, 50, 4, "square to reach"),
            OptionSpec::int("faces", 0, 6, 2, "faces of the die (0: a broken die)"),
            OptionSpec::bool("reroll_ones", false, "a 1 is rolled again and added"),
        ]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RaceAction {
    Roll(u8),
    Advance,
    Stay,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Race {
    options: RaceOptions,
    pos: [i64; 2],
    turn: u8,
    roll: i64,
    again: bool,
}

impl Game for Race {
    type Options = RaceOptions;
    type Action = RaceAction;
    type View = Race;
    const ID: &'static str = "race";
    const NAME: &'static str = "Race";
    const DESCRIPTION: &'static str = "a dice race to test the engine core";

    fn new(options: &RaceOptions) -> Result<Self, OptionsError> {
        Ok(Race {
            options: options.clone(),
            pos: [0, 0],
            turn: 0,
            roll: 0,
            again: false,
        })
    }
    fn options(&self) -> &RaceOptions {
        &self.options
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        if let Some(w) = (0..2).find(|&i| self.pos[i] >= self.options.goal) {
            return ToAct::Over(Outcome::winners(2, &[Seat(w as u8)], "reached the goal"));
        }
        if self.roll == 0 || self.again {
            ToAct::Chance
        } else {
            ToAct::Seat(Seat(self.turn))
        }
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<RaceAction>) {
        if self.to_act() == ToAct::Seat(seat) {
            out.extend([RaceAction::Advance, RaceAction::Stay]);
        }
    }
    fn chance_outcomes(&self, out: &mut Vec<(RaceAction, f64)>) {
        let faces = self.options.faces.clamp(0, 6) as u8;
        out.extend((1..=faces).map(|f| (RaceAction::Roll(f), 1.0 / f64::from(faces))));
    }
    fn apply(&mut self, actor: Actor, action: &RaceAction) -> Result<(), ActionError> {
        check_actor(&self.to_act(), actor)?;
        match (actor, *action) {
            (Actor::Chance, RaceAction::Roll(f))
                if (1..=self.options.faces).contains(&i64::from(f)) =>
            {
                self.roll += i64::from(f);
                self.again = self.options.reroll_ones && f == 1;
            }
            (Actor::Seat(_), RaceAction::Advance | RaceAction::Stay) => {
                if *action == RaceAction::Advance {
                    self.pos[usize::from(self.turn)] += self.roll;
                }
                self.turn = 1 - self.turn;
                self.roll = 0;
            }
            _ => {
                return Err(ActionError::Illegal(format!(
                    "{action:?} is not a move of {actor:?} now"
                )));
            }
        }
        Ok(())
    }
    fn view(&self, _observer: Observer) -> Race {
        self.clone()
    }
}

fn race(goal: i64, faces: i64, reroll_ones: bool) -> Race {
    let options = RaceOptions {
        goal,
        faces,
        reroll_ones,
    };
    Race::new(&options).unwrap_or_else(|e| panic!("options: {e}"))
}

#[test]
fn perft_counts_chance_branches_and_stops_at_the_end_of_the_game() {
    let g = race(4, 2, false);
    // Chance (2 faces), then the seat (2 choices), alternately: nobody can reach 4 within 4 plies.
    let counts: Vec<u64> = (0..=4).map(|d| tools::perft(&g, d)).collect();
    assert_eq!(counts, vec![1, 2, 4, 8, 16]);
    // Goal 2: after a roll of 2, advancing wins and that branch has no leaves at depth 3.
    // Roll 1: 2 choices x 2 rolls = 4; roll 2: Advance ends (0) + Stay x 2 rolls = 2.
    assert_eq!(tools::perft(&race(2, 2, false), 3), 6);
}

#[test]
fn perft_divide_rows_sum_to_perft_and_name_each_root_action() {
    let g = race(2, 3, false);
    for depth in 1..=4 {
        let rows = tools::perft_divide(&g, depth);
        assert_eq!(rows.len(), 3, "three faces at the root");
        assert_eq!(
            rows.iter().map(|(_, n)| n).sum::<u64>(),
            tools::perft(&g, depth)
        );
    }
    assert!(tools::perft_divide(&g, 0).is_empty());
    let mut over = g.clone();
    over.pos[1] = 2;
    assert!(
        tools::perft_divide(&over, 3).is_empty(),
        "no rows once the game is over"
    );
}

#[test]
fn random_records_replay_to_the_same_state_with_the_seed_audited() {
    for seed in 0..20 {
        let options = RaceOptions {
            goal: 12,
            faces: 3,
            reroll_ones: true,
        };
        let (end, record) =
            tools::random_record::<Race>(options, seed, 1_000).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            matches!(end.to_act(), ToAct::Over(_)),
            "seed {seed}: the race ends"
        );
        assert!(record.result.is_some());
        let replayed = tools::replay(&record, true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(replayed, end);
    }
}

#[test]
fn resolve_chance_applies_every_chance_action_and_reports_each() {
    let kind = dynamic::kind::<Race>();
    let options = serde_json::json!({"goal": 10, "faces": 2, "reroll_ones": true});
    let mut state = kind.new_state(&options).unwrap_or_else(|e| panic!("{e}"));
    let mut rng = rng_from_seed(3);
    let mut seen = Vec::new();
    let n = dynamic::resolve_chance(state.as_mut(), &mut rng, |a| seen.push(a.clone()))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(n, seen.len());
    assert!(n >= 1);
    assert_eq!(state.to_act(), ToAct::Seat(Seat(0)));
    // Every roll but the last was a 1 (rolled again); the last was not.
    let faces: Vec<u64> = seen
        .iter()
        .map(|a| a["Roll"].as_u64().unwrap_or(0))
        .collect();
    assert!(faces[..n - 1].iter().all(|&f| f == 1), "{faces:?}");
    assert_eq!(faces[n - 1], 2);
    // Nothing to do when a seat must decide.
    assert_eq!(
        dynamic::resolve_chance(state.as_mut(), &mut rng, |_| {}),
        Ok(0)
    );
}

#[test]
fn resolve_chance_reports_a_broken_die_and_an_endless_chance_run() {
    let kind: std::sync::Arc<dyn DynGame> = dynamic::kind::<Race>();
    let mut rng = rng_from_seed(0);
    let mut broken = kind
        .new_state(&serde_json::json!({"faces": 0}))
        .unwrap_or_else(|e: DynError| panic!("{e}"));
    let err = dynamic::resolve_chance(broken.as_mut(), &mut rng, |_| {}).err();
    assert_eq!(
        err,
        Some(ActionError::Illegal(
            "a chance decision without any outcome".into()
        ))
    );
    // A one-faced die that is always rolled again never hands the turn to a seat.
    let mut endless = kind
        .new_state(&serde_json::json!({"faces": 1, "reroll_ones": true}))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut count = 0;
    let err = dynamic::resolve_chance(endless.as_mut(), &mut rng, |_| count += 1).err();
    assert!(matches!(err, Some(ActionError::Illegal(m)) if m.contains("in a row")));
    assert_eq!(count, dynamic::MAX_CHANCE_RUN);
}

/// A random playout draws from the list: chance from `sample_chance`, a seat's action at
/// `rng.random_range(0..len)` of its legal actions. A hand-written loop of exactly those draws
/// plays the same game, with the same number of actions, to the end; a finished game takes none.
#[test]
fn random_playout_draws_each_action_from_the_list() {
    use rand::RngExt;
    for seed in 0..30 {
        let mut played = race(20, 6, true);
        let result = tools::random_playout(&mut played, &mut rng_from_seed(seed), 10_000);
        let mut listed = race(20, 6, true);
        let mut rng = rng_from_seed(seed);
        let mut steps = 0;
        loop {
            let (actor, action) = match listed.to_act() {
                ToAct::Over(_) => break,
                ToAct::Chance => (
                    Actor::Chance,
                    listed
                        .sample_chance(&mut rng)
                        .unwrap_or_else(|| panic!("a die")),
                ),
                to_act => {
                    let seat = to_act.seats()[0];
                    let legal = crate::legal_actions_vec(&listed, seat);
                    (Actor::Seat(seat), legal[rng.random_range(0..legal.len())])
                }
            };
            listed
                .apply(actor, &action)
                .unwrap_or_else(|e| panic!("{e}"));
            steps += 1;
        }
        assert_eq!(played, listed, "seed {seed}");
        assert_eq!(result.actions, steps);
        assert_eq!(result.outcome, listed.to_act().outcome().cloned());
        assert!(result.outcome.is_some());
        let before = played.clone();
        let again = tools::random_playout(&mut played, &mut rng_from_seed(seed), 10_000);
        assert_eq!(
            (again.actions, &played),
            (0, &before),
            "nothing after the end"
        );
    }
    // The action limit stops it early, with no outcome.
    let mut g = race(20, 6, false);
    let short = tools::random_playout(&mut g, &mut rng_from_seed(1), 3);
    assert_eq!((short.actions, short.outcome), (3, None));
}

#[test]
fn default_words_name_the_actor_and_give_the_notation() {
    let g = race(4, 2, false);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    let (roll, _) = &outcomes[0];
    let words = g.action_words(Actor::Chance, roll, Observer::Spectator);
    assert_eq!(words, format!("Chance: {}", g.action_notation(roll)));
    for seed in 0..10 {
        let checked = tools::check_words(&race(12, 3, true), &mut rng_from_seed(seed), 200)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(checked > 0);
    }
}

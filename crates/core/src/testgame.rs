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

/// The race with a `random_legal_action` that draws differently from its list: the check must
/// notice (a wrong action, or the right action with the generator consumed differently).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct SkewedRace {
    race: Race,
    /// Draw twice (the same action, the generator consumed differently) instead of drawing once and
    /// always staying.
    extra_draw: bool,
    /// `random_step` rolls a 1 at a chance node without drawing.
    fixed_roll: bool,
}

impl Game for SkewedRace {
    type Options = RaceOptions;
    type Action = RaceAction;
    type View = Race;
    const ID: &'static str = "skewed-race";
    const NAME: &'static str = "Skewed race";
    const DESCRIPTION: &'static str = "a race whose random draw is wrong";

    fn new(options: &RaceOptions) -> Result<Self, OptionsError> {
        Ok(SkewedRace {
            race: Race::new(options)?,
            extra_draw: false,
            fixed_roll: false,
        })
    }
    fn options(&self) -> &RaceOptions {
        self.race.options()
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_act(&self) -> ToAct {
        self.race.to_act()
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<RaceAction>) {
        self.race.legal_actions(seat, out);
    }
    fn random_legal_action(
        &self,
        seat: Seat,
        rng: &mut crate::GameRng,
        scratch: &mut Vec<RaceAction>,
    ) -> Option<RaceAction> {
        if self.extra_draw {
            let a = crate::listed_random_legal_action(self, seat, rng, scratch);
            let _ = crate::listed_random_legal_action(self, seat, rng, scratch);
            return a;
        }
        // The same draw as the list's, but always the second action.
        use rand::RngExt;
        let listed = crate::legal_actions_vec(self, seat);
        let _ = rng.random_range(0..listed.len().max(1));
        (!listed.is_empty()).then_some(RaceAction::Stay)
    }
    fn random_step(&mut self, rng: &mut crate::GameRng, scratch: &mut Vec<RaceAction>) -> bool {
        if self.fixed_roll && self.to_act() == ToAct::Chance {
            self.apply_trusted(Actor::Chance, &RaceAction::Roll(1));
            return true;
        }
        crate::default_random_step(self, rng, scratch)
    }
    fn chance_outcomes(&self, out: &mut Vec<(RaceAction, f64)>) {
        self.race.chance_outcomes(out);
    }
    fn apply(&mut self, actor: Actor, action: &RaceAction) -> Result<(), ActionError> {
        self.race.apply(actor, action)
    }
    fn view(&self, observer: Observer) -> Race {
        self.race.view(observer)
    }
}

#[test]
fn check_random_legal_action_accepts_the_listed_draw_and_catches_any_other() {
    let mut state = race(4, 2, false);
    state
        .apply(Actor::Chance, &RaceAction::Roll(1))
        .unwrap_or_else(|e| panic!("{e}"));
    // The default draws from the list, at a decision and where no seat decides.
    assert_eq!(tools::check_random_legal_action(&state, 16), Ok(()));
    assert_eq!(
        tools::check_random_legal_action(&race(4, 2, false), 4),
        Ok(())
    );
    // An override that always stays: the list draws Advance for some seed.
    let mut skewed = SkewedRace {
        race: state,
        extra_draw: false,
        fixed_roll: false,
    };
    let err = tools::check_random_legal_action(&skewed, 16).err();
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("drew Some(Stay), the list gives Some(Advance)")),
        "{err:?}"
    );
    // The same action as the list but a second draw from the generator.
    skewed.extra_draw = true;
    let err = tools::check_random_legal_action(&skewed, 16).err();
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("consumed the generator differently")),
        "{err:?}"
    );
}

#[test]
fn random_step_is_the_definition_and_check_random_step_catches_an_override_that_differs() {
    // The default, at a chance node, at a decision and once the game is over.
    let mut state = race(4, 2, false);
    assert_eq!(tools::check_random_step(&state, 8), Ok(()));
    state
        .apply(Actor::Chance, &RaceAction::Roll(1))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(tools::check_random_step(&state, 8), Ok(()));
    let mut over = state.clone();
    over.pos = [4, 0];
    assert_eq!(tools::check_random_step(&over, 8), Ok(()));
    let before = over.clone();
    assert!(!crate::default_random_step(
        &mut over,
        &mut rng_from_seed(0),
        &mut Vec::new()
    ));
    assert_eq!(over, before, "no step once the game is over");
    // A random playout is the definition's steps, one after another, to the end.
    let mut played = race(20, 6, true);
    let mut stepped = played.clone();
    let result = tools::random_playout(&mut played, &mut rng_from_seed(3), 10_000);
    let mut rng = rng_from_seed(3);
    let mut steps = 0;
    while crate::default_random_step(&mut stepped, &mut rng, &mut Vec::new()) {
        steps += 1;
    }
    assert_eq!(played, stepped);
    assert_eq!(result.actions, steps);
    assert!(result.outcome.is_some());
    // An override that rolls a 1 without drawing: a different state or generator for some seed.
    let skewed = SkewedRace {
        race: race(4, 2, false),
        extra_draw: false,
        fixed_roll: true,
    };
    let err = tools::check_random_step(&skewed, 8).err();
    assert!(
        err.as_deref()
            .is_some_and(|e| e.contains("random_step reached")),
        "{err:?}"
    );
}

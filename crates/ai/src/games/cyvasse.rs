//! Cyvasse knowledge, both rule families. The setup is hidden and simultaneous; once both armies are
//! committed everything is public, so alpha-beta searches the rest of the game.
//!
//! **Setup policy** (King-safe): the crate's own guarded generators — `safe_random_setup` for
//! Strength & Trump (the King on the back row, a range unit on every Dragon line towards the enemy:
//! no enemy unit, wherever it stands, can take the King on the first enemy turn) and
//! `guarded_setup` for Caird's rules (a setup no enemy piece on any enemy home cell could attack on
//! move one, or the least exposed of 400 tries) — drawn from the agent's seeded RNG.
//!
//! **Evaluation**: material (Trump: Dragon 8, Elephant 4.5, Catapult 4, Heavy Horse 3.5, Light Horse 3,
//! Crossbowman 3, Trebuchet 3, Spearman 2, Rabble 1; Caird: Dragon 8, Elephant 5, Trebuchet 4,
//! Heavy Horse 4, Crossbowman 3, Light Horse 3, Spear 2, Rabble 1), plus for Trump 0.1 per capture or
//! shot available to each side and −3 per enemy unit that can take the King now; for Caird −0.5 for
//! the side in check. The balance becomes an expected score through a logistic (scale 6).
//!
//! **Move ordering**: King captures, then other captures/shots by the value taken, then moves.

use cyvasse::caird::{self, CairdAction, CairdCyvasse};
use cyvasse::trump::{self, Cell, Kind, Occupant, TrumpAction, TrumpCyvasse};
use tabula_core::{Game, GameRng, Seat};

use crate::knowledge::{Knowledge, stable_hash};

fn trump_value(k: Kind) -> f64 {
    match k {
        Kind::Dragon => 8.0,
        Kind::Elephant => 4.5,
        Kind::Catapult => 4.0,
        Kind::HeavyHorse => 3.5,
        Kind::LightHorse | Kind::Crossbowman | Kind::Trebuchet => 3.0,
        Kind::Spearman => 2.0,
        Kind::Rabble => 1.0,
        Kind::King | Kind::Mountain => 0.0,
    }
}

fn logistic(balance: f64) -> Vec<f64> {
    let p = 1.0 / (1.0 + (-balance / 6.0).exp());
    vec![p, 1.0 - p]
}

fn trump_balance(g: &TrumpCyvasse) -> f64 {
    let mut side = [0.0f64; 2];
    let kings = [g.king(Seat(0)), g.king(Seat(1))];
    for s in 0..2usize {
        for c in g.unit_cells(Seat::new(s)) {
            if let Some(Occupant::Unit { kind, .. }) = g.occupant(c) {
                side[s] += trump_value(kind);
                let t = g.targets(c);
                let hits = t.captures | t.shots;
                side[s] += 0.1 * f64::from(hits.count_ones());
                if let Some(k) = kings[1 - s]
                    && hits & k.bit() != 0
                {
                    side[1 - s] -= 3.0;
                }
            }
        }
    }
    side[0] - side[1]
}

fn trump_priority(g: &TrumpCyvasse, a: &TrumpAction) -> i32 {
    match a {
        TrumpAction::Move { to, .. } | TrumpAction::Shoot { to, .. } => match g.occupant(*to) {
            Some(Occupant::Unit {
                kind: Kind::King, ..
            }) => 10_000,
            Some(Occupant::Unit { kind, .. }) => 100 + (10.0 * trump_value(kind)) as i32,
            _ => 1,
        },
        _ => 0,
    }
}

impl Knowledge for TrumpCyvasse {
    fn evaluate(&self) -> Option<Vec<f64>> {
        Some(logistic(trump_balance(self)))
    }

    fn perfect_information(&self) -> bool {
        self.phase() != trump::Phase::Setup
    }

    fn setup_action(&self, seat: Seat, rng: &mut GameRng) -> Option<TrumpAction> {
        if self.phase() == trump::Phase::Setup && self.to_act().includes(seat) {
            Some(TrumpAction::Setup(trump::safe_random_setup(seat, rng)))
        } else {
            None
        }
    }

    fn action_priority(&self, action: &TrumpAction) -> i32 {
        trump_priority(self, action)
    }

    fn position_key(&self) -> u64 {
        let cells: Vec<u8> = Cell::all()
            .map(|c| match self.occupant(c) {
                None => 0,
                Some(Occupant::Mountain) => 1,
                Some(Occupant::Unit { seat, kind }) => 2 + kind as u8 + 16 * seat.0,
            })
            .collect();
        stable_hash(&(
            cells,
            self.side_to_move(),
            self.cavalry_turn().map(|c| (c.horse.index(), c.captured)),
            self.phase(),
        ))
    }

    fn playout_choice(&self, _seat: Seat, legal: &[TrumpAction], rng: &mut GameRng) -> usize {
        capture_biased(legal, |a| trump_priority(self, a), rng)
    }
}

/// Playouts: a King capture always, another capture half of the time, else uniform.
fn capture_biased<A>(legal: &[A], prio: impl Fn(&A) -> i32, rng: &mut GameRng) -> usize {
    use tabula_core::rand::RngExt;
    let mut best = (0, 0usize);
    for (i, a) in legal.iter().enumerate() {
        let p = prio(a);
        if p > best.0 {
            best = (p, i);
        }
    }
    if best.0 >= 10_000 || (best.0 >= 100 && rng.random::<f64>() < 0.5) {
        return best.1;
    }
    rng.random_range(0..legal.len())
}

fn caird_value(kind: u8) -> f64 {
    match kind {
        caird::rules::DRAGON => 8.0,
        caird::rules::ELEPHANT => 5.0,
        caird::rules::TREBUCHET | caird::rules::HEAVY => 4.0,
        caird::rules::CROSSBOW | caird::rules::LIGHT => 3.0,
        caird::rules::SPEAR => 2.0,
        caird::rules::RABBLE => 1.0,
        _ => 0.0,
    }
}

fn caird_balance(g: &CairdCyvasse) -> f64 {
    let n = g.geo().n;
    let mut side = [0.0f64; 2];
    for &p in g.pos().board.iter().take(n) {
        if p != 0 {
            let s = usize::from(caird::rules::side_of(p).min(1));
            side[s] += caird_value(caird::rules::kind_of(p));
        }
    }
    if g.in_check() {
        side[g.to_move().index().min(1)] -= 0.5;
    }
    side[0] - side[1]
}

fn caird_priority(g: &CairdCyvasse, a: &CairdAction) -> i32 {
    match a {
        CairdAction::Move { to, .. } | CairdAction::Shot { to, .. } => {
            match g.pos().board.get(usize::from(*to)) {
                Some(&p) if p != 0 => {
                    let kind = caird::rules::kind_of(p);
                    if kind == caird::rules::KING {
                        10_000
                    } else {
                        100 + (10.0 * caird_value(kind)) as i32
                    }
                }
                _ => 1,
            }
        }
        CairdAction::Ruin { .. } => 50,
        _ => 0,
    }
}

impl Knowledge for CairdCyvasse {
    fn evaluate(&self) -> Option<Vec<f64>> {
        Some(logistic(caird_balance(self)))
    }

    fn perfect_information(&self) -> bool {
        self.phase() == caird::Phase::Play
    }

    fn setup_action(&self, seat: Seat, rng: &mut GameRng) -> Option<CairdAction> {
        if self.phase() == caird::Phase::Setup && self.to_act().includes(seat) {
            let options = self.options();
            Some(CairdAction::Setup(caird::guarded_setup(
                options,
                seat.index(),
                rng,
            )))
        } else {
            None
        }
    }

    fn action_priority(&self, action: &CairdAction) -> i32 {
        caird_priority(self, action)
    }

    fn position_key(&self) -> u64 {
        self.hash()
    }

    fn playout_choice(&self, _seat: Seat, legal: &[CairdAction], rng: &mut GameRng) -> usize {
        capture_biased(legal, |a| caird_priority(self, a), rng)
    }

    fn playout_limit(&self) -> u32 {
        1000
    }
}

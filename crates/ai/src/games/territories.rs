//! Territories knowledge (hidden hands and draw pile: the agents search determinizations).
//!
//! **Evaluation**: per seat, points (a building's points; 15 wins) + 8 × expected production per
//! roll (for every building and every card it touches, the probability of the card's number on 2D6
//! times the building's yield: Palace 2, others 1) + 0.08 per resource card held (up to the hand limit
//! of 7) + 0.1 per territory card held, and −1.5 while the seat has no building (two bare turns lose).
//! The balance of the two seats becomes an expected score through a logistic (scale 2.5 points).
//! Only public facts are used: the opponent's hand enters only through its size.
//!
//! **Move ordering / setup**: upgrades first, then builds and setup placements ordered by the
//! production the new building would collect; offers to the opponent last. **Playouts** build or
//! upgrade whenever they can (80%) and do not compose trade offers (they end the turn instead).

use tabula_core::rand::RngExt;
use tabula_core::{GameRng, Seat};
use territories::{Action, Piece, Point, Territories};

use crate::knowledge::Knowledge;

/// The probability of rolling `n` on 2D6.
pub fn roll_probability(n: u8) -> f64 {
    if !(2..=12).contains(&n) {
        return 0.0;
    }
    f64::from(6 - (i16::from(n) - 7).unsigned_abs() as u8) / 36.0
}

/// Expected resources per roll a building of `piece` at `at` collects.
fn yield_at(t: &Territories, at: Point, piece: Piece) -> f64 {
    let mult = if piece == Piece::Palace { 2.0 } else { 1.0 };
    t.touched(at)
        .map(|c| roll_probability(c.card.number) * mult)
        .sum()
}

fn seat_value(t: &Territories, seat: Seat) -> f64 {
    let mut v = f64::from(t.points(seat));
    let mut any = false;
    for b in t.buildings.iter().filter(|b| b.owner == seat) {
        any = true;
        v += 8.0 * yield_at(t, b.at, b.piece);
    }
    if !any {
        v -= 1.5;
    }
    if let Some(h) = t.hands.get(seat.index()) {
        v += 0.08 * f64::from(h.resource_count().min(7)) + 0.1 * h.territories.len() as f64;
    }
    v
}

fn priority(t: &Territories, a: &Action) -> i32 {
    match a {
        Action::Upgrade(_, Piece::Capital) => 400,
        Action::Upgrade(at, p) => 300 + (100.0 * yield_at(t, *at, *p)) as i32,
        Action::Build(at) | Action::Place(at) => {
            100 + (100.0 * yield_at(t, *at, Piece::Town)) as i32
        }
        Action::Raze(_) | Action::Convert(..) => 90,
        Action::Accept => 20,
        Action::Give(_) | Action::AskRes(_) | Action::AskTerritory | Action::Propose => -10,
        _ => 0,
    }
}

impl Knowledge for Territories {
    fn evaluate(&self) -> Option<Vec<f64>> {
        let d = seat_value(self, Seat(0)) - seat_value(self, Seat(1));
        let p = 1.0 / (1.0 + (-d / 2.5).exp());
        Some(vec![p, 1.0 - p])
    }

    fn action_priority(&self, action: &Action) -> i32 {
        priority(self, action)
    }

    fn playout_choice(&self, _seat: Seat, legal: &[Action], rng: &mut GameRng) -> usize {
        let best = legal
            .iter()
            .enumerate()
            .max_by_key(|(i, a)| (priority(self, a), std::cmp::Reverse(*i)))
            .map_or(0, |(i, _)| i);
        if priority(self, &legal[best]) >= 100 && rng.random::<f64>() < 0.8 {
            return best;
        }
        let i = rng.random_range(0..legal.len());
        if priority(self, &legal[i]) < 0
            && let Some(end) = legal.iter().position(|a| *a == Action::EndTurn)
        {
            return end;
        }
        i
    }

    fn playout_limit(&self) -> u32 {
        4000
    }
}

//! Consistency checks of a (possibly hand-written) state.

use std::collections::HashSet;

use tabula_core::Seat;

use crate::model::{NUMBERS, Piece};
use crate::state::{DECK_CARDS, GRID_CARDS, HAND_LIMIT, PER_SUIT, Phase, Territories, other};

impl Territories {
    /// Checks the state's consistency; the message says what is wrong.
    pub fn check(&self) -> Result<(), String> {
        for s in [self.first, self.current] {
            if s.0 > 1 {
                return Err(format!("seat {s} does not exist (seats are 0 and 1)"));
            }
        }
        if self.options.max_offers > 10 || !(2..=2000).contains(&self.options.max_turns) {
            return Err("options out of range: max_turns 2..=2000, max_offers 0..=10".into());
        }
        // Resources: 13 of each suit between the bank and the hands.
        for (i, letter) in ['H', 'S', 'C', 'D'].iter().enumerate() {
            let total = self.bank[i] as u32
                + self.hands[0].resources[i] as u32
                + self.hands[1].resources[i] as u32;
            if total != PER_SUIT as u32 {
                return Err(format!(
                    "resource {letter}: bank + hands hold {total}, must be {PER_SUIT}"
                ));
            }
        }
        // Territory cards: each at most once; all 40 once dealt.
        let mut seen = HashSet::new();
        let all = self
            .grid
            .iter()
            .map(|c| c.card)
            .chain(self.pile.iter().copied())
            .chain(self.hands.iter().flat_map(|h| h.territories.iter()));
        for c in all {
            if !NUMBERS.contains(&c.number) {
                return Err(format!("{c} is not a territory card"));
            }
            if !seen.insert(c) {
                return Err(format!("territory card {c} appears twice"));
            }
        }
        let dealt = !matches!(self.phase, Phase::Deal);
        if dealt && seen.len() != DECK_CARDS {
            return Err(format!(
                "grid + pile + hands hold {} territory cards, must be {DECK_CARDS}",
                seen.len()
            ));
        }
        if !dealt && !seen.is_empty() {
            return Err("before the deal no territory card may be placed".into());
        }
        // Grid: cells in a sane range, distinct, connected by edges.
        let in_range = |(x, y): (i8, i8)| (-64..=63).contains(&x) && (-64..=63).contains(&y);
        if let Some(c) = self.grid.iter().find(|c| !in_range(c.at)) {
            return Err(format!("grid cell {:?} is out of range (-64..=63)", c.at));
        }
        if let Some(b) = self.buildings.iter().find(|b| !in_range(b.at)) {
            return Err(format!("building at {:?} is out of range (-64..=63)", b.at));
        }
        let cells: HashSet<_> = self.grid.iter().map(|c| c.at).collect();
        if cells.len() != self.grid.len() {
            return Err("two grid cards share a cell".into());
        }
        if let Some(start) = self.grid.first() {
            let mut reached = HashSet::from([start.at]);
            let mut todo = vec![start.at];
            while let Some((x, y)) = todo.pop() {
                for n in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
                    if cells.contains(&n) && reached.insert(n) {
                        todo.push(n);
                    }
                }
            }
            if reached.len() != cells.len() {
                return Err("the grid is not connected by full edges".into());
            }
        }
        for (i, c) in self.grid.iter().take(GRID_CARDS).enumerate() {
            let at = ((i % 5) as i8, (i / 5) as i8);
            if c.at != at {
                return Err(format!(
                    "grid entry {i} must be the dealt cell {at:?} (the first 20 entries are the dealt \
                     5x4 cells in row order; cards added by Expand follow), found {:?}",
                    c.at
                ));
            }
        }
        if dealt && self.grid.len() < 20 {
            return Err(format!(
                "the grid holds {} cards; it never has fewer than 20",
                self.grid.len()
            ));
        }
        // Buildings.
        let mut at = HashSet::new();
        for b in &self.buildings {
            if b.owner.0 > 1 {
                return Err(format!("building at {:?} has owner {}", b.at, b.owner));
            }
            if !at.insert(b.at) {
                return Err(format!("two buildings on intersection {:?}", b.at));
            }
            if !self.is_intersection(b.at) {
                return Err(format!("building at {:?} is not on an intersection", b.at));
            }
        }
        for seat in [Seat(0), Seat(1)] {
            for piece in Piece::ALL {
                if self.on_grid(seat, piece) > piece.count() {
                    return Err(format!(
                        "seat {seat} has more than {} {} on the grid",
                        piece.count(),
                        piece.word()
                    ));
                }
            }
        }
        // Counters.
        if self.offers_made > self.options.max_offers {
            return Err(format!(
                "offers_made {} exceeds max_offers {}",
                self.offers_made, self.options.max_offers
            ));
        }
        if self.abilities_used > 0b1111 {
            return Err("abilities_used is a 4-bit set".into());
        }
        let over = matches!(self.phase, Phase::Over { .. });
        if self.turn > self.options.max_turns || (!over && self.turn == self.options.max_turns) {
            return Err("turn must be below max_turns while the game runs".into());
        }
        for (i, &n) in self.bare_turns.iter().enumerate() {
            let over = matches!(self.phase, Phase::Over { .. });
            if n > 2 || (n > 1 && !over) {
                return Err(format!("bare_turns of seat {i} is {n}; a seat loses at 2"));
            }
        }
        if let Some(r) = self.roll
            && !(2..=12).contains(&r)
        {
            return Err(format!("roll {r} is not a 2D6 sum"));
        }
        if let Some(d) = self.die
            && !(1..=6).contains(&d)
        {
            return Err(format!("die {d} is not a D6 face"));
        }
        if let Some((a, b)) = self.duel
            && (!(1..=6).contains(&a) || !(1..=6).contains(&b))
        {
            return Err("duel dice must be 1..=6".into());
        }
        // The offer.
        let me = self.current.index();
        if let Some(offer) = &self.offer {
            if !matches!(
                self.phase,
                Phase::Main | Phase::Respond | Phase::HandOver { .. }
            ) {
                return Err("an offer is open outside the turn's main phase".into());
            }
            let hand = &self.hands[me];
            if !hand.covers(offer.give_res) {
                return Err("the offer gives resources its maker does not hold".into());
            }
            if let Some(c) = offer.give_cards.without(hand.territories).iter().next() {
                return Err(format!(
                    "the offer gives {c}, which its maker does not hold"
                ));
            }
            let opp = &self.hands[1 - me];
            // An offer asks any suits up to the opponent's count of resource cards (it may ask
            // what they cannot give, then they can only decline); once accepted, they can pay it.
            let asked: u32 = offer.ask_res.iter().map(|&n| u32::from(n)).sum();
            if asked > opp.resource_count() {
                return Err(
                    "the offer asks for more resource cards than the opponent holds".into(),
                );
            }
            if matches!(self.phase, Phase::HandOver { .. }) && !opp.covers(offer.ask_res) {
                return Err(
                    "an accepted offer asks for resources the opponent does not hold".into(),
                );
            }
            if matches!(self.phase, Phase::Main | Phase::Respond)
                && opp.territories.len() < offer.ask_territories as usize
            {
                return Err(
                    "the offer asks for more territory cards than the opponent holds".into(),
                );
            }
            if offer
                .give_res
                .iter()
                .chain(offer.ask_res.iter())
                .all(|&n| n == 0)
                && offer.give_cards.is_empty()
                && offer.ask_territories == 0
            {
                return Err("an open offer must hold at least one card".into());
            }
        }
        // Phase-specific checks.
        match &self.phase {
            Phase::Deal | Phase::ChooseFirst => {
                if !self.buildings.is_empty() {
                    return Err("no building may stand before setup".into());
                }
            }
            Phase::Setup { step } => {
                if *step > 3 {
                    return Err(format!("setup step {step} does not exist (0..=3)"));
                }
                if self.buildings.len() != *step as usize {
                    return Err(format!(
                        "setup step {step} needs exactly {step} Towns on the grid, found {}",
                        self.buildings.len()
                    ));
                }
                if self.current != self.first {
                    return Err("during setup “current” must be “first”".into());
                }
            }
            Phase::Temple { seat, left, next } => {
                if seat.0 > 1 || *left == 0 || !(*next == 2 || *next == 4) {
                    return Err("bad Temple phase (left >= 1, next 2 or 4)".into());
                }
                let expected = if *next == 2 {
                    self.current
                } else {
                    other(self.current)
                };
                if *seat != expected {
                    return Err("the Temple phase's seat does not match its stage".into());
                }
                if self.roll.is_none() || self.roll == Some(7) {
                    return Err("a Temple choice needs a production roll other than 7".into());
                }
                if self.bank.iter().all(|&n| n == 0) {
                    return Err("a Temple choice needs a resource in the bank".into());
                }
            }
            Phase::Discard { seat } => {
                if seat.0 > 1 || self.hand_size(*seat) <= HAND_LIMIT {
                    return Err("the discarding seat must hold more than 7 cards".into());
                }
                if self.roll != Some(7) {
                    return Err("discards happen only after a 7".into());
                }
            }
            Phase::Respond => {
                if self.offer.is_none() {
                    return Err("the respond phase needs a proposed offer".into());
                }
            }
            Phase::HandOver { left } => {
                let Some(offer) = &self.offer else {
                    return Err("the hand-over phase needs an accepted offer".into());
                };
                if *left == 0 || *left > offer.ask_territories {
                    return Err("bad hand-over count".into());
                }
                if self.hands[1 - me].territories.len() < *left as usize {
                    return Err("the opponent cannot hand over that many territory cards".into());
                }
            }
            Phase::AbilityDie { ability }
            | Phase::Pay { ability, .. }
            | Phase::Place { ability } => {
                if !matches!(
                    ability,
                    crate::model::Ability::Survey | crate::model::Ability::Expand
                ) {
                    return Err("only Survey and Expand roll a cost die".into());
                }
                if self.abilities_used & ability.bit() == 0 {
                    return Err("an ability in progress must be marked used".into());
                }
                if self.hands[me].territories.is_empty() {
                    return Err("Survey/Expand needs a territory card in hand".into());
                }
                if let Phase::Pay { left, .. } = &self.phase
                    && (*left == 0 || self.hands[me].resource_count() < *left as u32)
                {
                    return Err("the player cannot pay what is left of the cost".into());
                }
            }
            Phase::Duel { ability } | Phase::Target { ability } => {
                if !matches!(
                    ability,
                    crate::model::Ability::Raid | crate::model::Ability::Convert
                ) {
                    return Err("only Raid and Convert roll a duel".into());
                }
                if self.abilities_used & ability.bit() == 0 {
                    return Err("an ability in progress must be marked used".into());
                }
                let mut v = Vec::new();
                self.legal(self.current, &mut v);
                if matches!(self.phase, Phase::Target { .. }) && v.is_empty() {
                    return Err("a won Raid/Convert needs a target".into());
                }
            }
            Phase::Roll | Phase::Main | Phase::Over { .. } => {}
        }
        Ok(())
    }
}

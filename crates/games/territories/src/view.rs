//! What one observer sees, the terminal drawing, and determinization for information-set search.

use serde::Serialize;
use tabula_core::rand::seq::SliceRandom;
use tabula_core::{GameRng, Observer, Seat};
use ts_rs::TS;

use crate::model::{Ability, Card, CardSet, Res};
use crate::state::{Building, Cell, Offer, PER_SUIT, Phase, Territories, other};

/// One hand as an observer sees it: counts always, contents only for its owner.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "territories/")]
pub struct HandView {
    /// Resource cards held.
    pub resource_count: u32,
    /// Territory cards held.
    pub territory_count: u32,
    /// The resources by suit (H, S, C, D): only in the owner's view.
    pub resources: Option<[u8; 4]>,
    /// The territory cards: only in the owner's view.
    pub territories: Option<CardSet>,
}

/// What one observer may see: everything public, its own hand, counts of the other hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "territories/")]
pub struct TerritoriesView {
    pub observer: Observer,
    pub phase: Phase,
    pub first: Seat,
    pub current: Seat,
    pub turn: u32,
    pub roll: Option<u8>,
    pub die: Option<u8>,
    pub duel: Option<(u8, u8)>,
    pub grid: Vec<Cell>,
    pub buildings: Vec<Building>,
    pub bank: [u8; 4],
    /// How many cards the territory draw pile holds (its order and contents are hidden).
    pub pile_count: u32,
    pub hands: Vec<HandView>,
    pub points: Vec<u32>,
    pub offer: Option<Offer>,
    pub offers_made: u8,
    pub max_offers: u8,
    pub abilities_used: Vec<Ability>,
    pub bare_turns: [u8; 2],
}

impl Territories {
    /// The view of `observer`.
    pub fn make_view(&self, observer: Observer) -> TerritoriesView {
        let hands = (0..2)
            .map(|i| {
                let h = &self.hands[i];
                let own = observer == Observer::Seat(Seat::new(i));
                HandView {
                    resource_count: h.resource_count(),
                    territory_count: h.territories.len() as u32,
                    resources: own.then_some(h.resources),
                    territories: own.then_some(h.territories),
                }
            })
            .collect();
        TerritoriesView {
            observer,
            phase: self.phase.clone(),
            first: self.first,
            current: self.current,
            turn: self.turn,
            roll: self.roll,
            die: self.die,
            duel: self.duel,
            grid: self.grid.to_vec(),
            buildings: self.buildings.to_vec(),
            bank: self.bank,
            pile_count: self.pile.len() as u32,
            hands,
            points: vec![self.points(Seat(0)), self.points(Seat(1))],
            offer: self.offer,
            offers_made: self.offers_made,
            max_offers: self.options.max_offers,
            abilities_used: Ability::ALL
                .iter()
                .copied()
                .filter(|a| self.abilities_used & a.bit() != 0)
                .collect(),
            bare_turns: self.bare_turns,
        }
    }

    /// A full state consistent with `seat`'s view: the territory cards `seat` cannot see (the pile and
    /// the opponent's hand, except cards the opponent shows in an open offer) are dealt again at random
    /// into the opponent's hand and the pile, keeping their counts. The opponent's resources are not
    /// hidden in effect (13 of each suit minus the bank minus one's own), so they are kept as deduced.
    pub fn determinized(&self, seat: Seat, rng: &mut GameRng) -> Territories {
        let mut g = self.clone();
        let me = seat.index();
        let opp = other(seat);
        // Resources: deduced from public counts.
        for r in Res::ALL {
            let i = r.index();
            g.hands[opp.index()].resources[i] = PER_SUIT
                .saturating_sub(self.bank[i])
                .saturating_sub(self.hands[me].resources[i]);
        }
        // Territory cards the opponent shows in an offer stay in their hand.
        let known = match &self.offer {
            Some(offer) if self.current == opp => offer.give_cards,
            _ => CardSet::EMPTY,
        };
        if self.grid.is_empty()
            && self.pile.is_empty()
            && self.hands.iter().all(|h| h.territories.is_empty())
        {
            return g;
        }
        let mut unknown: Vec<Card> = Card::deck()
            .into_iter()
            .filter(|c| {
                !self.grid.iter().any(|cell| cell.card == *c)
                    && !self.hands[me].territories.contains(c)
                    && !known.contains(c)
            })
            .collect();
        unknown.shuffle(rng);
        let opp_count = self.hands[opp.index()].territories.len();
        let hidden_in_hand = opp_count.saturating_sub(known.len()).min(unknown.len());
        let mut hand = known;
        for c in unknown.drain(..hidden_in_hand) {
            hand.insert(c);
        }
        g.hands[opp.index()].territories = hand;
        g.pile = unknown;
        g
    }

    /// The terminal drawing as `observer` sees it.
    pub fn draw_text(&self, observer: Observer) -> String {
        let v = self.make_view(observer);
        let mut s = String::new();
        if self.grid.is_empty() {
            s.push_str("(the territory deck is not dealt yet)\n");
        } else {
            let min_x = self.grid.iter().map(|c| c.at.0).min().unwrap_or(0);
            let max_x = self.grid.iter().map(|c| c.at.0).max().unwrap_or(0);
            let min_y = self.grid.iter().map(|c| c.at.1).min().unwrap_or(0);
            let max_y = self.grid.iter().map(|c| c.at.1).max().unwrap_or(0);
            // Header: intersection x coordinates.
            s.push_str("     ");
            for x in min_x..=max_x + 1 {
                s.push_str(&format!("{x:<5}"));
            }
            s.push('\n');
            // Rows from the top (largest y) down.
            let mut y = max_y + 1;
            loop {
                // Intersection line y.
                s.push_str(&format!("{y:>3}  "));
                for x in min_x..=max_x + 1 {
                    let c = match self.building_at((x, y)) {
                        Some(b) => b.piece.letter(b.owner),
                        None if self.is_intersection((x, y)) => '+',
                        None => ' ',
                    };
                    s.push(c);
                    if x <= max_x {
                        let edge =
                            self.card_at((x, y)).is_some() || self.card_at((x, y - 1)).is_some();
                        s.push_str(if edge { "----" } else { "    " });
                    }
                }
                s.push('\n');
                if y == min_y {
                    break;
                }
                y -= 1;
                // Card line for cells of row y.
                s.push_str("     ");
                for x in min_x..=max_x + 1 {
                    let wall = self.card_at((x - 1, y)).is_some() || self.card_at((x, y)).is_some();
                    s.push(if wall { '|' } else { ' ' });
                    if x <= max_x {
                        match self.card_at((x, y)) {
                            Some(card) => s.push_str(&format!("{:^4}", card.to_string())),
                            None => s.push_str("    "),
                        }
                    }
                }
                s.push('\n');
            }
            s.push_str("Buildings: upper case White (seat 0), lower case Black (seat 1); T Town, F Fort, B Barracks, E Temple, P Palace, C Capital.\n");
        }
        s.push_str(&format!(
            "Bank: H {} S {} C {} D {}   Draw pile: {} cards   Turn {}\n",
            v.bank[0], v.bank[1], v.bank[2], v.bank[3], v.pile_count, v.turn
        ));
        for (i, h) in v.hands.iter().enumerate() {
            let seat = Seat::new(i);
            let mut line = format!(
                "{} (seat {i}){}: {} points, {} resources, {} territory cards",
                if i == 0 { "White" } else { "Black" },
                if seat == self.current {
                    ", whose turn it is"
                } else {
                    ""
                },
                v.points[i],
                h.resource_count,
                h.territory_count
            );
            if let Some(r) = h.resources {
                line.push_str(&format!(" — H {} S {} C {} D {}", r[0], r[1], r[2], r[3]));
            }
            if let Some(t) = &h.territories {
                let cards: Vec<String> = t.iter().map(|c| c.to_string()).collect();
                line.push_str(&format!(" — territories [{}]", cards.join(" ")));
            }
            s.push_str(&line);
            s.push('\n');
        }
        if let Some(r) = v.roll {
            s.push_str(&format!("Roll: {r}\n"));
        }
        if let Some(o) = &v.offer {
            let cards: Vec<String> = o.give_cards.iter().map(|c| c.to_string()).collect();
            s.push_str(&format!(
                "Offer: gives H {} S {} C {} D {} [{}] for H {} S {} C {} D {} + {} territory card(s)\n",
                o.give_res[0],
                o.give_res[1],
                o.give_res[2],
                o.give_res[3],
                cards.join(" "),
                o.ask_res[0],
                o.ask_res[1],
                o.ask_res[2],
                o.ask_res[3],
                o.ask_territories
            ));
        }
        s.push_str(&format!("Phase: {}\n", phase_text(&self.phase)));
        s
    }
}

/// A short description of a phase, for the drawing and error messages.
pub(crate) fn phase_text(p: &Phase) -> String {
    match p {
        Phase::Deal => "the deck is to be dealt".into(),
        Phase::ChooseFirst => "chance picks Player 1".into(),
        Phase::Setup { step } => format!("setup placement {} of 4", step + 1),
        Phase::Roll => "2D6 to be rolled".into(),
        Phase::Temple { seat, left, .. } => {
            format!("seat {seat} chooses {left} Temple resource(s)")
        }
        Phase::Discard { seat } => format!("seat {seat} discards down to 7"),
        Phase::Main => "build, trade, use abilities or end the turn".into(),
        Phase::Respond => "the opponent answers the offer".into(),
        Phase::HandOver { left } => format!("the opponent hands over {left} territory card(s)"),
        Phase::AbilityDie { ability } => format!("1D6 to be rolled for {}", ability.word()),
        Phase::Pay { ability, left } => {
            format!("pay {left} more resource(s) for {}", ability.word())
        }
        Phase::Place { ability } => format!("place a card for {}", ability.word()),
        Phase::Duel { ability } => format!("duel dice to be rolled for {}", ability.word()),
        Phase::Target { ability } => format!("choose the {} target", ability.word()),
        Phase::Over { outcome } => format!("game over: {}", outcome.reason),
    }
}

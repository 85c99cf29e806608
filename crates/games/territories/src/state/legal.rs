//! The legal actions: one listing per phase, the definition of what `apply` accepts.
//!
//! `apply` accepts exactly the listed actions (and explains a refusal with
//! `Territories::explain`, in `lib.rs`). The order of each list is fixed and documented per phase,
//! so a seed plays the same random game and clients show the actions in a stable order.

use tabula_core::Seat;

use super::{Offer, Phase, Territories, other};
use crate::model::{Ability, Action, BankTake, Item, Piece, Res};

impl Territories {
    /// Appends `seat`'s legal actions to `out` (nothing when `seat` owes no decision).
    pub fn legal(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.seat_to_act() != Some(seat) {
            return;
        }
        let hand = &self.hands[seat.index()];
        match &self.phase {
            // Any free intersection (no distance rule).
            Phase::Setup { .. } => {
                out.extend(self.free_intersections().into_iter().map(Action::Place));
            }
            // A resource of a suit the bank still has.
            Phase::Temple { .. } => {
                out.extend(
                    Res::ALL
                        .into_iter()
                        .filter(|r| self.bank[r.index()] > 0)
                        .map(Action::TempleTake),
                );
            }
            // A resource held, then a territory card held when those count towards the limit.
            Phase::Discard { .. } => {
                out.extend(held_suits(hand.resources).map(|r| Action::Discard(Item::Res(r))));
                if self.options.hand_limit_counts_territories {
                    out.extend(
                        hand.territories
                            .iter()
                            .map(|c| Action::Discard(Item::Territory(c))),
                    );
                }
            }
            Phase::Main => match &self.offer {
                Some(offer) => self.offer_actions(seat, offer, out),
                None => self.main_actions(seat, out),
            },
            // Accept when the hand can pay what is asked, and decline.
            Phase::Respond => {
                if let Some(offer) = &self.offer {
                    if hand.can_pay(offer) {
                        out.push(Action::Accept);
                    }
                    out.push(Action::Decline);
                }
            }
            // Any territory card of the hand.
            Phase::HandOver { .. } => out.extend(hand.territories.iter().map(Action::HandOver)),
            // A resource held.
            Phase::Pay { .. } => out.extend(held_suits(hand.resources).map(Action::Pay)),
            // Survey: any grid card, with any card of the hand (cell by cell).
            Phase::Place {
                ability: Ability::Survey,
            } => {
                for cell in &self.grid {
                    out.extend(hand.territories.iter().map(|c| Action::Survey(cell.at, c)));
                }
            }
            // Expand: any empty cell sharing a full edge with the grid, with any card of the hand.
            Phase::Place { .. } => {
                for cell in self.expansion_cells() {
                    out.extend(hand.territories.iter().map(|c| Action::Expand(cell, c)));
                }
            }
            // Raid won: any opponent Town.
            Phase::Target {
                ability: Ability::Raid,
            } => out.extend(
                self.buildings
                    .iter()
                    .filter(|b| b.owner != seat && b.piece == Piece::Town)
                    .map(|b| Action::Raze(b.at)),
            ),
            // Convert won: any target with any fitting piece of the supply.
            Phase::Target { .. } => out.extend(
                self.convert_targets(seat)
                    .into_iter()
                    .map(|(p, piece)| Action::Convert(p, piece)),
            ),
            Phase::Deal
            | Phase::ChooseFirst
            | Phase::Roll
            | Phase::AbilityDie { .. }
            | Phase::Duel { .. }
            | Phase::Over { .. } => {}
        }
    }

    /// The main phase with no offer open, in this order: build a Town on each free intersection;
    /// upgrade each own building to each piece it may become; open an offer with its first item
    /// ([`Territories::offer_items`] of an empty offer); bank trades; abilities; end the turn.
    fn main_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        let hand = &self.hands[seat.index()];
        let affordable = |piece: Piece| self.supply(seat, piece) > 0 && hand.covers(piece.cost());
        if affordable(Piece::Town) {
            out.extend(self.free_intersections().into_iter().map(Action::Build));
        }
        let can_upgrade_to = Piece::ALL.map(|p| p != Piece::Town && affordable(p));
        for b in self.buildings.iter().filter(|b| b.owner == seat) {
            for piece in Piece::ALL {
                if can_upgrade_to[piece.index()] && piece.upgrades_from(b.piece) {
                    out.push(Action::Upgrade(b.at, piece));
                }
            }
        }
        if self.offers_made < self.options.max_offers {
            self.offer_items(seat, &Offer::default(), out);
        }
        // Four of a suit for a resource the bank has (or of the same suit), or the top territory
        // card while the pile has one.
        for pay in Res::ALL
            .into_iter()
            .filter(|p| hand.resources[p.index()] >= 4)
        {
            for take in Res::ALL {
                if take == pay || self.bank[take.index()] > 0 {
                    out.push(Action::Bank(pay, BankTake::Res(take)));
                }
            }
            if !self.pile.is_empty() {
                out.push(Action::Bank(pay, BankTake::Territory));
            }
        }
        for ability in Ability::ALL {
            if self.ability_usable(seat, ability) {
                out.push(Action::Use(ability));
            }
        }
        out.push(Action::EndTurn);
    }

    /// While an offer is open: add an item to it, then propose or withdraw it.
    fn offer_actions(&self, seat: Seat, offer: &Offer, out: &mut Vec<Action>) {
        self.offer_items(seat, offer, out);
        out.push(Action::Propose);
        out.push(Action::Withdraw);
    }

    /// The items `offer` (by `seat`) can still gain, in this order: a resource of each suit `seat`
    /// holds more of than it gives; each territory card of `seat`'s hand not given yet; a resource
    /// of every suit while the opponent holds more resource cards in all than are asked for; one
    /// more territory card while the opponent holds more than are asked for.
    ///
    /// What is asked depends only on the opponent's counts, which `seat` sees, never on the suits
    /// of the opponent's hand (the rules' \[decision\]: a seat's legal actions depend only on what
    /// it can see); an offer the opponent cannot fulfil can only be declined.
    fn offer_items(&self, seat: Seat, offer: &Offer, out: &mut Vec<Action>) {
        let hand = &self.hands[seat.index()];
        let opp = &self.hands[other(seat).index()];
        for r in Res::ALL {
            if hand.resources[r.index()] > offer.give_res[r.index()] {
                out.push(Action::Give(Item::Res(r)));
            }
        }
        out.extend(
            hand.territories
                .without(offer.give_cards)
                .iter()
                .map(|c| Action::Give(Item::Territory(c))),
        );
        let asked: u32 = offer.ask_res.iter().map(|&n| u32::from(n)).sum();
        if opp.resource_count() > asked {
            out.extend(Res::ALL.into_iter().map(Action::AskRes));
        }
        if opp.territories.len() > usize::from(offer.ask_territories) {
            out.push(Action::AskTerritory);
        }
    }
}

/// The suits of which a hand holds at least one resource, in the canonical order.
fn held_suits(resources: [u8; 4]) -> impl Iterator<Item = Res> {
    Res::ALL
        .into_iter()
        .filter(move |r| resources[r.index()] > 0)
}

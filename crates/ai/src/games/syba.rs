//! Syba knowledge (2–6 players; face-down starting cities are hidden, so agents search
//! determinizations).
//!
//! **Evaluation**: per seat, each owned city counts 1 + 0.3 × its level (15 cities win; the last
//! player owning a city wins), each unit 0.35 × its Power (Soldier 1, Knight 2, Monster 3, Hero 2),
//! each resource 0.02. The values become expected scores by a softmax (temperature 2), so they sum to
//! 1 over the seats, as max^n search expects. A pending unit selection (which units to Exhaust for
//! an attack, an interception or to help an attack, or which units move together as an army) is
//! scored as if confirmed as it stands — its battle may resolve at once — so that a one-action
//! lookahead sees what an attack does and can compare the selection's choices.
//!
//! **Move ordering / playouts**: attacks first, then unit purchases and research, then the rest;
//! trade offers last. In a unit selection (which units to Exhaust for an attack, an interception or
//! to help an attack, or which units of an area move as an army; it starts with all of them
//! chosen) `confirm` comes first, then re-adding a unit, then holding one back, `withdraw` last.
//! Playouts attack or buy when they can half of the time, never open trades, and confirm a
//! selection at once (everything in Reach attacks; the whole army moves).
//!
//! **Trades** (the policy every agent but `random` follows, through [`Knowledge::prune_actions`]): a
//! trade is composed one item at a time, and the evaluation does not change until the partner
//! accepts, so a search saw every item as worth the same as ending the composition and composed
//! offers item by item for hundreds of actions (level 5: 444 actions in 4 turns). An agent opens at
//! most [`AI_TRADES_PER_TURN`] trade a turn and composes it as one complete proposal: resources
//! only (units and cities, worth far more than the evaluation's trade margin, are never offered or
//! asked), one kind of resource given for one other kind, at most [`TRADE_ITEMS`] of each, and it
//! proposes only a real exchange (something on both sides) — or cancels. A composition is at most
//! `1 + 2 × TRADE_ITEMS + 1` actions (open, items, propose or cancel). Notes (free text) are never
//! written. Answering a proposal (accept or decline) is searched as any decision.

use syba::Syba;
use syba::state::{Bundle, Pending, TradeItem, UnitKind};
use tabula_core::rand::RngExt;
use tabula_core::{Actor, Game, GameRng, Seat};

use crate::knowledge::Knowledge;

fn seat_values(s: &Syba) -> Vec<f64> {
    let n = s.seats();
    let content = Syba::content();
    let mut v = vec![0.0f64; n];
    for (city, owner) in s.city_owners().iter().enumerate() {
        if let Some(o) = owner
            && let Some(x) = v.get_mut(usize::from(*o))
        {
            let level = content
                .cities
                .get(city)
                .map_or(1.0, |c| f64::from(c.level.value()));
            *x += 1.0 + 0.3 * level;
        }
    }
    for u in s.units() {
        if let Some(x) = v.get_mut(usize::from(u.owner)) {
            let power = match u.kind {
                UnitKind::Soldier => 1.0,
                UnitKind::Knight => 2.0,
                UnitKind::Monster => 3.0,
                UnitKind::Hero(_) => 2.0,
            };
            *x += 0.35 * power;
        }
    }
    for (i, p) in s.players().iter().enumerate() {
        if let Some(x) = v.get_mut(i) {
            *x += 0.02 * p.resources.iter().map(|r| f64::from(*r)).sum::<f64>();
        }
    }
    v
}

/// The most resources of each side of a trade an agent composes.
pub const TRADE_ITEMS: u8 = 3;
/// The trades an agent opens in one turn.
pub const AI_TRADES_PER_TURN: u8 = 1;

/// Whether adding `item` to `side` (the other side of the trade: `other`) keeps the proposal in the
/// shape the agents compose: resources only, one kind a side, not the kind the other side holds, at
/// most [`TRADE_ITEMS`].
fn trade_item_fits(side: &Bundle, other: &Bundle, item: &TradeItem) -> bool {
    let TradeItem::Resource(r) = item else {
        return false;
    };
    let i = r.index();
    let total: u32 = side.resources.iter().map(|&n| u32::from(n)).sum();
    total < u32::from(TRADE_ITEMS)
        && other.resources.get(i).is_some_and(|&n| n == 0)
        && side
            .resources
            .iter()
            .enumerate()
            .all(|(j, &n)| j == i || n == 0)
}

/// The trade policy of the module docs: drops the trade actions an agent never takes. What it keeps
/// is never empty when the list was not: `cancel` while composing, `end` outside a trade.
fn prune_trades(s: &Syba, actions: &mut Vec<syba::Action>) {
    use syba::Action as A;
    match s.pending().last() {
        Some(Pending::Trade {
            give,
            get,
            proposed: false,
            ..
        }) if actions.contains(&A::TradeCancel) => actions.retain(|a| match a {
            A::TradeOffer(item) => trade_item_fits(give, get, item),
            A::TradeAsk(item) => trade_item_fits(get, give, item),
            A::TradePropose => !give.is_empty() && !get.is_empty(),
            A::TradeNote(_) => false,
            _ => true,
        }),
        None => {
            let opened = s
                .players()
                .get(usize::from(s.current()))
                .map_or(0, |p| p.trades);
            if opened >= AI_TRADES_PER_TURN && actions.contains(&A::EndTurn) {
                actions.retain(|a| !matches!(a, A::TradeOpen(_)));
            }
        }
        _ => {}
    }
}

fn priority(a: &syba::Action) -> i32 {
    use syba::Action as A;
    match a {
        A::Attack { .. } => 30,
        A::Confirm => 28,
        A::Choose(_) => 1,
        A::HoldBack(_) => -1,
        A::Withdraw => -5,
        A::BuyUnit { .. } | A::BuyHero { .. } => 10,
        A::Research { .. } => 5,
        A::MoveArmy { .. } | A::Move { .. } => 2,
        A::TradeOpen(_) | A::TradeOffer(_) | A::TradeAsk(_) | A::TradePropose => -10,
        _ => 0,
    }
}

impl Knowledge for Syba {
    fn evaluate(&self) -> Option<Vec<f64>> {
        let v = match self.pending().last() {
            Some(Pending::Select(sel)) if !sel.chosen.is_empty() => {
                let mut confirmed = self.clone();
                confirmed.apply_trusted(Actor::Seat(Seat(sel.seat)), &syba::Action::Confirm);
                seat_values(&confirmed)
            }
            _ => seat_values(self),
        };
        let max = v.iter().copied().fold(f64::MIN, f64::max);
        let exp: Vec<f64> = v.iter().map(|x| ((x - max) / 2.0).exp()).collect();
        let sum: f64 = exp.iter().sum();
        Some(
            exp.into_iter()
                .map(|e| e / sum.max(f64::MIN_POSITIVE))
                .collect(),
        )
    }

    fn action_priority(&self, action: &syba::Action) -> i32 {
        priority(action)
    }

    /// A unit selection starts with every unit chosen, so holding units back reaches every subset;
    /// re-adding a unit held back (`Choose`) only undoes an earlier step, and `withdraw` undoes the
    /// opening of the selection (which the search already scored as if confirmed). Searches that could
    /// take them went round hold/choose and open/withdraw for thousands of actions (both sides of
    /// each pair score the same). The last chosen unit is never held back (so the selection can
    /// always be confirmed); withdraw stays when nothing else can end the selection.
    ///
    /// Trades follow the policy of the module docs (one complete proposal of a few resources a turn).
    fn prune_actions(&self, actions: &mut Vec<syba::Action>) {
        prune_trades(self, actions);
        // Nor hold back the last chosen unit: an empty selection can only be withdrawn, and
        // open / hold back every unit / withdraw went round as well. A non-empty one can be confirmed.
        if let Some(Pending::Select(sel)) = self.pending().last()
            && let [only] = sel.chosen[..]
            && actions.len() > 1
        {
            actions.retain(|a| *a != syba::Action::HoldBack(only));
        }
        let progress =
            |a: &syba::Action| !matches!(a, syba::Action::Choose(_) | syba::Action::Withdraw);
        if actions.iter().any(progress) {
            actions.retain(progress);
        } else if actions.contains(&syba::Action::Withdraw) {
            actions.retain(|a| *a == syba::Action::Withdraw);
        }
    }

    fn playout_choice(&self, _seat: Seat, legal: &[syba::Action], rng: &mut GameRng) -> usize {
        if let Some(confirm) = legal.iter().position(|a| *a == syba::Action::Confirm) {
            return confirm;
        }
        if rng.random::<f64>() < 0.5 {
            let top = legal.iter().map(priority).max().unwrap_or(0);
            if top >= 10 {
                let tops: Vec<usize> = (0..legal.len())
                    .filter(|&i| priority(&legal[i]) == top)
                    .collect();
                return tops[rng.random_range(0..tops.len())];
            }
        }
        let i = rng.random_range(0..legal.len());
        if priority(&legal[i]) < 0
            && let Some(end) = legal.iter().position(|a| *a == syba::Action::EndTurn)
        {
            return end;
        }
        i
    }
}

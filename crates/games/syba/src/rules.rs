//! The rules: legal action generation and action application.

use tabula_core::{Outcome, Seat};

use crate::content::{
    CardKind, ChipKind, Content, Effect, Lasting, SharedVictory, TargetKind, content,
};
use crate::state::*;

/// Nobody holds more than 40 of a resource.
pub const RESOURCE_CAP: u8 = 40;
/// Cities needed for the 15-city victory.
pub const CITIES_TO_WIN: usize = 15;

fn add_capped(x: &mut u8, n: u8) {
    *x = x.saturating_add(n).min(RESOURCE_CAP);
}

impl Syba {
    pub(crate) fn n(&self) -> usize {
        self.players.len()
    }

    /// Seat order starting after `seat` (with `seat` last).
    pub(crate) fn order_after(&self, seat: u8) -> Vec<u8> {
        let n = self.n() as u8;
        (1..=n).map(|i| (seat + i) % n).collect()
    }

    pub(crate) fn unit(&self, id: u32) -> Option<&Unit> {
        self.units.iter().find(|u| u.id == id)
    }

    pub(crate) fn unit_index(&self, id: u32) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    pub(crate) fn cities_of(&self, seat: u8) -> usize {
        self.city_owner.iter().filter(|o| **o == Some(seat)).count()
    }

    pub(crate) fn owns_city(&self, seat: u8, city: u8) -> bool {
        self.city_owner.get(city as usize) == Some(&Some(seat))
            && !self
                .city_destroyed
                .get(city as usize)
                .copied()
                .unwrap_or(true)
    }

    pub(crate) fn chips_used(&self, seat: u8, kind: ChipKind) -> usize {
        self.units
            .iter()
            .filter(|u| u.owner == seat && u.kind.chip() == Some(kind))
            .count()
    }

    pub(crate) fn free_chip(&self, seat: u8, kind: ChipKind) -> bool {
        self.chips_used(seat, kind) < kind.chips()
    }

    pub(crate) fn city_strength(&self, c: &Content, city: u8) -> u32 {
        let Some(card) = c.cities.get(city as usize) else {
            return 0;
        };
        let mut s = u32::from(card.level.value());
        for (i, st) in self.cards.iter().enumerate() {
            if *st == CardState::Building(city)
                && let Some(Lasting::Strength { amount }) =
                    c.cards.get(i).and_then(|k| k.lasting.as_ref())
            {
                s += u32::from(*amount);
            }
        }
        s
    }

    pub(crate) fn upgrade_sum(&self, c: &Content, seat: u8, f: impl Fn(&Lasting) -> u8) -> u8 {
        let mut s = 0u8;
        for &i in &c.upgrade_cards {
            if self.cards.get(i as usize) == Some(&CardState::Upgrade(seat))
                && let Some(l) = c.cards.get(i as usize).and_then(|k| k.lasting.as_ref())
            {
                s = s.saturating_add(f(l));
            }
        }
        s
    }

    /// A unit's current Power.
    pub(crate) fn power(&self, c: &Content, u: &Unit) -> u32 {
        let base = match u.kind {
            UnitKind::Hero(h) => c.heroes.get(h as usize).map_or(0, |x| x.power),
            k => k.chip().map_or(0, |k| k.power()),
        };
        let up = match u.kind.chip() {
            Some(kind) => self.upgrade_sum(c, u.owner, |l| match l {
                Lasting::UnitPower { unit, amount } if *unit == kind => *amount,
                _ => 0,
            }),
            None => 0,
        };
        let bonus = self
            .players
            .get(u.owner as usize)
            .map_or(0, |p| p.power_bonus);
        u32::from(base) + u32::from(up) + u32::from(bonus)
    }

    /// The Reach of `seat`'s army in `area`.
    pub(crate) fn reach(&self, c: &Content, seat: u8, area: u8) -> u8 {
        let mut r = self.upgrade_sum(c, seat, |l| match l {
            Lasting::Reach { amount } => *amount,
            _ => 0,
        });
        for u in &self.units {
            if u.owner == seat
                && u.area == area
                && let UnitKind::Hero(h) = u.kind
            {
                r = r.saturating_add(c.heroes.get(h as usize).map_or(0, |x| x.reach));
            }
        }
        r
    }

    fn move_allowance(&self, c: &Content, u: &Unit) -> u8 {
        let mut a = 1u8
            .saturating_add(
                self.players
                    .get(u.owner as usize)
                    .map_or(0, |p| p.extra_moves),
            )
            .saturating_add(self.upgrade_sum(c, u.owner, |l| match l {
                Lasting::Moves { amount } => *amount,
                _ => 0,
            }));
        if let UnitKind::Hero(h) = u.kind {
            a = a.saturating_add(c.heroes.get(h as usize).map_or(0, |x| x.moves));
        }
        a.saturating_add(u.exhaust_moves)
    }

    pub(crate) fn can_exhaust(u: &Unit) -> bool {
        !u.fresh && !u.exhausted && u.exhausts_used < 1u8.saturating_add(u.extra_exhausts)
    }

    /// Whether the unit can move now (with a move left, or by exhausting itself for one more).
    fn can_move(&self, c: &Content, u: &Unit) -> bool {
        !u.fresh && (u.moves_used < self.move_allowance(c, u) || Self::can_exhaust(u))
    }

    fn has_units(&self, seat: u8, area: u8) -> bool {
        self.units.iter().any(|u| u.owner == seat && u.area == area)
    }

    fn areas_of(&self, seat: u8) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .units
            .iter()
            .filter(|u| u.owner == seat)
            .map(|u| u.area)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    fn exhaustable_areas(&self, seat: u8, exclude: &[u32]) -> Vec<u8> {
        let mut v: Vec<u8> = self
            .units
            .iter()
            .filter(|u| u.owner == seat && Self::can_exhaust(u) && !exclude.contains(&u.id))
            .map(|u| u.area)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The units of `seat` that may be Exhausted against a target in `target_area`: able to be
    /// Exhausted now, not in `exclude`, and in Reach of it (the Reach of the unit's army: all of its
    /// owner's units in its area, see [`Syba::reach`]). In increasing id order.
    pub(crate) fn units_in_reach(
        &self,
        c: &Content,
        seat: u8,
        target_area: u8,
        exclude: &[u32],
    ) -> Vec<u32> {
        let mut by_area: Vec<(u8, bool)> = Vec::new();
        let mut v = Vec::new();
        for u in &self.units {
            if u.owner != seat || !Self::can_exhaust(u) || exclude.contains(&u.id) {
                continue;
            }
            let ok = match by_area.iter().find(|(a, _)| *a == u.area) {
                Some(&(_, ok)) => ok,
                None => {
                    let ok = c.dist(u.area, target_area) <= self.reach(c, seat, u.area);
                    by_area.push((u.area, ok));
                    ok
                }
            };
            if ok {
                v.push(u.id);
            }
        }
        v.sort_unstable();
        v
    }

    /// The units a selection may contain (its chosen units are among them).
    pub(crate) fn selectable(&self, c: &Content, sel: &Selection) -> Vec<u32> {
        match sel.purpose {
            Purpose::Attack(t) => self.units_in_reach(c, sel.seat, self.target_area(c, t), &[]),
            Purpose::Intercept { mover, area } => self.intercept_units(c, sel.seat, mover, area),
            Purpose::HelpAttack => match self.stack.iter().rev().nth(1) {
                Some(Pending::Battle(b)) if self.defender_of(b.target) != Some(sel.seat) => {
                    self.help_attack_units(c, sel.seat, b)
                }
                _ => Vec::new(),
            },
            Purpose::Move { from, .. } => self.army_movers(c, sel.seat, from),
        }
    }

    /// The units of `seat` in `area` that can move now (in increasing id order).
    pub(crate) fn army_movers(&self, c: &Content, seat: u8, area: u8) -> Vec<u32> {
        let mut v: Vec<u32> = self
            .units
            .iter()
            .filter(|u| u.owner == seat && u.area == area && self.can_move(c, u))
            .map(|u| u.id)
            .collect();
        v.sort_unstable();
        v
    }

    /// Whether moving the unit now Exhausts it (a move beyond its allowance this turn).
    pub(crate) fn move_exhausts(&self, c: &Content, u: &Unit) -> bool {
        u.moves_used >= self.move_allowance(c, u)
    }

    pub(crate) fn target_area(&self, c: &Content, t: Target) -> u8 {
        match t {
            Target::Army { area, .. } => area,
            Target::City(city) => c.cities.get(city as usize).map_or(0, |x| x.area),
        }
    }

    /// The player defending against `t` (the army's owner or the city's owner).
    pub(crate) fn defender_of(&self, t: Target) -> Option<u8> {
        match t {
            Target::Army { owner, .. } => Some(owner),
            Target::City(city) => self.city_owner.get(city as usize).copied().flatten(),
        }
    }

    // ------------------------------------------------------------------ legal actions

    pub(crate) fn legal(&self, seat: u8, out: &mut Vec<Action>) {
        let c = content();
        match self.phase {
            Phase::StartingPlayer | Phase::Over => {}
            Phase::Race => {
                if self.setup_seat() == Some(seat) {
                    for r in 0..c.races.len() as u8 {
                        if !self.players.iter().any(|p| p.race == Some(r)) {
                            out.push(Action::ChooseRace(r));
                        }
                    }
                }
            }
            Phase::City => {
                if self.setup_seat() == Some(seat) {
                    for (i, o) in self.city_owner.iter().enumerate() {
                        if o.is_none() && !self.city_destroyed[i] {
                            out.push(Action::ChooseCity(i as u8));
                        }
                    }
                }
            }
            Phase::Play => match self.stack.last() {
                Some(Pending::Intercept {
                    mover, area, queue, ..
                }) => {
                    if queue.first() == Some(&seat) {
                        if !self.intercept_units(c, seat, *mover, *area).is_empty() {
                            out.push(Action::Intercept);
                        }
                        out.push(Action::Pass);
                    }
                }
                Some(Pending::Battle(b)) => {
                    if b.queue.first() == Some(&seat) {
                        let (att, def) = self.help_options(c, seat, b);
                        if !att.is_empty() {
                            out.push(Action::HelpAttack);
                        }
                        out.extend(def.into_iter().map(Action::HelpDefend));
                        out.push(Action::Pass);
                    }
                }
                Some(Pending::Select(sel)) => {
                    if sel.seat == seat {
                        for id in self.selectable(c, sel) {
                            if !sel.chosen.contains(&id) {
                                out.push(Action::Choose(id));
                            }
                        }
                        out.extend(sel.chosen.iter().map(|&id| Action::HoldBack(id)));
                        if !sel.chosen.is_empty() {
                            out.push(Action::Confirm);
                        }
                        out.push(Action::Withdraw);
                    }
                }
                Some(Pending::Trade {
                    partner,
                    give,
                    get,
                    proposed,
                    note,
                }) => {
                    if *proposed {
                        if seat == *partner {
                            out.push(Action::TradeAccept);
                            out.push(Action::TradeDecline);
                        }
                    } else if seat == self.current {
                        self.trade_items(seat, give, &mut |i| out.push(Action::TradeOffer(i)));
                        self.trade_items(*partner, get, &mut |i| out.push(Action::TradeAsk(i)));
                        if !give.is_empty() || !get.is_empty() {
                            out.push(Action::TradePropose);
                        }
                        out.push(Action::TradeCancel);
                        // A note is free text: only clearing a set note is listed (the list is a
                        // sample here, see `actions_sampled`).
                        if !note.is_empty() {
                            out.push(Action::TradeNote(String::new()));
                        }
                    }
                }
                None => {
                    if seat == self.current {
                        self.main_actions(c, seat, out);
                    }
                }
            },
        }
    }

    /// Whether `seat` is composing a trade proposal now (its note is free text).
    pub(crate) fn composing_trade(&self, seat: u8) -> bool {
        self.phase == Phase::Play
            && self.outcome.is_none()
            && seat == self.current
            && matches!(
                self.stack.last(),
                Some(Pending::Trade {
                    proposed: false,
                    ..
                })
            )
    }

    pub(crate) fn setup_seat(&self) -> Option<u8> {
        if matches!(self.phase, Phase::Race | Phase::City) && (self.setup_done as usize) < self.n()
        {
            Some(((self.start as usize + self.setup_done as usize) % self.n()) as u8)
        } else {
            None
        }
    }

    fn trade_items(&self, holder: u8, bundle: &Bundle, f: &mut dyn FnMut(TradeItem)) {
        let Some(p) = self.players.get(holder as usize) else {
            return;
        };
        for r in crate::content::Resource::ALL {
            if bundle.resources[r.index()] < p.resources[r.index()] {
                f(TradeItem::Resource(r));
            }
        }
        for u in &self.units {
            if u.owner == holder && !bundle.units.contains(&u.id) {
                f(TradeItem::Unit(u.id));
            }
        }
        for (i, o) in self.city_owner.iter().enumerate() {
            if *o == Some(holder) && !self.city_destroyed[i] && !bundle.cities.contains(&(i as u8))
            {
                f(TradeItem::City(i as u8));
            }
        }
    }

    /// The units with which `seat` may intercept `mover`'s army entering `area` (the interception on
    /// top of the stack names the entering units).
    fn intercept_units(&self, c: &Content, seat: u8, mover: u8, area: u8) -> Vec<u32> {
        if seat == mover || !self.entering_present(mover, area) {
            return Vec::new();
        }
        self.units_in_reach(c, seat, area, &[])
    }

    /// Whether a unit of the entering army of the interception on top of the stack (`mover`'s army
    /// entering `area`) still stands there.
    fn entering_present(&self, mover: u8, area: u8) -> bool {
        let entering: &[u32] = match self
            .stack
            .iter()
            .rev()
            .find(|p| !matches!(p, Pending::Select(_)))
        {
            Some(Pending::Intercept { units, .. }) => units,
            _ => &[],
        };
        self.units
            .iter()
            .any(|u| u.owner == mover && u.area == area && entering.contains(&u.id))
    }

    /// Whether the unit `u` defends in battle `b`: a unit of the target army (for an interception
    /// only the entering army) or of an army committed to the defence.
    pub(crate) fn defends(b: &Battle, u: &Unit) -> bool {
        let target = match b.target {
            Target::Army { owner, area } => {
                u.owner == owner
                    && u.area == area
                    && (b.entering.is_empty() || b.entering.contains(&u.id))
            }
            Target::City(_) => false,
        };
        target || b.defenders.contains(&(u.owner, u.area))
    }

    /// The units with which `seat` may help the attack, and the areas of the armies it may commit to
    /// the defence, of `b`.
    fn help_options(&self, c: &Content, seat: u8, b: &Battle) -> (Vec<u32>, Vec<u8>) {
        let ta = self.target_area(c, b.target);
        let defender = self.defender_of(b.target);
        let mut att = Vec::new();
        let mut def = Vec::new();
        if b.side != Some(Side::Defence) && defender != Some(seat) {
            att = self.help_attack_units(c, seat, b);
        }
        if b.side != Some(Side::Attack) && seat != b.attacker {
            def = self
                .areas_of(seat)
                .into_iter()
                .filter(|&a| {
                    // The target army itself is not a helper; against an interception its owner's
                    // other units in that area (not the entering army) are another army and are.
                    let other_army = b.target
                        != (Target::Army {
                            owner: seat,
                            area: a,
                        })
                        || (!b.entering.is_empty()
                            && self.units.iter().any(|u| {
                                u.owner == seat && u.area == a && !b.entering.contains(&u.id)
                            }));
                    !b.defenders.contains(&(seat, a))
                        && other_army
                        && c.dist(a, ta) <= self.reach(c, seat, a)
                })
                .collect();
        }
        (att, def)
    }

    /// The units with which `seat` may help the attack of `b`: able to be Exhausted, in Reach of the
    /// target and not attacking already; for the attacker only units of their *other* armies (areas
    /// from which none of their units attacks): the attacking army's held-back units stay out.
    pub(crate) fn help_attack_units(&self, c: &Content, seat: u8, b: &Battle) -> Vec<u32> {
        let mut ids = self.units_in_reach(c, seat, self.target_area(c, b.target), &b.attackers);
        if seat == b.attacker {
            let attacking_areas: Vec<u8> = b
                .attackers
                .iter()
                .filter_map(|&id| self.unit(id))
                .filter(|u| u.owner == seat)
                .map(|u| u.area)
                .collect();
            ids.retain(|&id| {
                self.unit(id)
                    .is_some_and(|u| !attacking_areas.contains(&u.area))
            });
        }
        ids
    }

    fn main_actions(&self, c: &Content, seat: u8, out: &mut Vec<Action>) {
        let p = &self.players[seat as usize];
        let owned: Vec<u8> = (0..self.city_owner.len() as u8)
            .filter(|&i| self.owns_city(seat, i))
            .collect();
        // Production: units and heroes.
        for kind in ChipKind::ALL {
            if p.resources[0] >= kind.cost() && self.free_chip(seat, kind) {
                for &city in &owned {
                    out.push(Action::BuyUnit { kind, city });
                }
            }
        }
        if p.resources[0] >= c.hero_cost {
            for (h, st) in self.heroes.iter().enumerate() {
                if *st == HeroState::Pile {
                    for &city in &owned {
                        out.push(Action::BuyHero {
                            hero: h as u8,
                            city,
                        });
                    }
                }
            }
        }
        // Food.
        let food = p.resources[1];
        for u in &self.units {
            if u.owner == seat && !u.fresh {
                if food >= 1 && u.exhausted {
                    out.push(Action::Rest(u.id));
                }
                if food >= 2 {
                    out.push(Action::ExtraExhaust(u.id));
                }
            }
        }
        if food >= 6 {
            out.push(Action::MoveAgain);
        }
        if food >= 10 {
            out.push(Action::PowerUp);
        }
        // Research.
        for (i, card) in c.cards.iter().enumerate() {
            if p.resources[2] < card.cost {
                continue;
            }
            let available = card.kind == CardKind::Spell || self.cards[i] == CardState::Pile;
            if !available {
                continue;
            }
            match card.kind {
                CardKind::Building => {
                    for &city in &owned {
                        out.push(Action::Research {
                            card: i as u8,
                            target: EffectTarget::City(city),
                        });
                    }
                }
                CardKind::Upgrade | CardKind::World => out.push(Action::Research {
                    card: i as u8,
                    target: EffectTarget::None,
                }),
                CardKind::Spell => {
                    if let Some(e) = &card.spell {
                        for t in self.effect_targets(c, seat, e, None) {
                            out.push(Action::Research {
                                card: i as u8,
                                target: t,
                            });
                        }
                    }
                }
            }
        }
        // Moves.
        let mut movable: Vec<(u8, u32)> = self
            .units
            .iter()
            .filter(|u| u.owner == seat && self.can_move(c, u))
            .map(|u| (u.area, u.id))
            .collect();
        movable.sort_unstable();
        let mut i = 0;
        while i < movable.len() {
            let a = movable[i].0;
            let mut j = i;
            while j < movable.len() && movable[j].0 == a {
                j += 1;
            }
            for &to in &c.adjacent[a as usize] {
                for &(_, id) in &movable[i..j] {
                    out.push(Action::Move { unit: id, to });
                }
                if j - i >= 2 {
                    out.push(Action::MoveArmy { from: a, to });
                }
            }
            i = j;
        }
        // Attacks.
        let mut occupied = vec![0u8; c.areas.len()];
        for u in &self.units {
            if let Some(m) = occupied.get_mut(u.area as usize) {
                *m |= 1 << u.owner;
            }
        }
        // A target may be attacked when at least one unit able to be Exhausted has it in Reach.
        let mut reachable = vec![false; c.areas.len()];
        for a in self.exhaustable_areas(seat, &[]) {
            let r = self.reach(c, seat, a);
            for (t, d) in c.distance[a as usize].iter().enumerate() {
                if *d <= r {
                    reachable[t] = true;
                }
            }
        }
        for (t, _) in reachable.iter().enumerate().filter(|(_, r)| **r) {
            let mask = occupied[t] & !(1 << seat);
            let t = t as u8;
            for o in 0..self.n() as u8 {
                if mask & (1 << o) != 0 {
                    out.push(Action::Attack {
                        target: Target::Army { owner: o, area: t },
                    });
                }
            }
            if let Some(city) = c.area_city[t as usize]
                && !self.city_destroyed[city as usize]
                && self.city_owner[city as usize] != Some(seat)
            {
                out.push(Action::Attack {
                    target: Target::City(city),
                });
            }
        }
        // Hero Exhaust actions.
        for u in &self.units {
            if u.owner == seat
                && Self::can_exhaust(u)
                && let UnitKind::Hero(h) = u.kind
                && let Some(e) = c.heroes.get(h as usize).and_then(|x| x.exhaust.as_ref())
            {
                for t in self.effect_targets(c, seat, e, Some(u)) {
                    out.push(Action::HeroAction {
                        unit: u.id,
                        target: t,
                    });
                }
            }
        }
        // Once per Game.
        if p.once_available
            && let Some(sc) = p.start_city
            && self.owns_city(seat, sc)
        {
            let e = &c.cities[sc as usize].once_per_game;
            for t in self.effect_targets(c, seat, e, None) {
                out.push(Action::OncePerGame(t));
            }
        }
        // Trade.
        if p.trades < self.options.trades_per_turn {
            for o in 0..self.n() as u8 {
                if o != seat {
                    out.push(Action::TradeOpen(o));
                }
            }
        }
        out.push(Action::EndTurn);
    }

    /// The valid targets of an effect used by `seat` (by `hero` for hero actions).
    fn effect_targets(
        &self,
        c: &Content,
        seat: u8,
        e: &Effect,
        hero: Option<&Unit>,
    ) -> Vec<EffectTarget> {
        let mut v = Vec::new();
        match e.target_kind() {
            TargetKind::None => {
                if let Effect::Teleport { city } = e {
                    let ok = hero.is_some_and(|h| {
                        c.city_by_name(city).is_some_and(|ci| {
                            !self.city_destroyed[ci as usize]
                                && c.cities[ci as usize].area != h.area
                        })
                    });
                    if !ok {
                        return v;
                    }
                }
                v.push(EffectTarget::None);
            }
            TargetKind::OwnCity => {
                for i in 0..self.city_owner.len() as u8 {
                    if self.owns_city(seat, i) {
                        v.push(EffectTarget::City(i));
                    }
                }
            }
            TargetKind::EnemyUnit => {
                if let Effect::DestroyUnit { max_power } = e {
                    for u in &self.units {
                        if u.owner != seat && self.power(c, u) <= u32::from(*max_power) {
                            v.push(EffectTarget::Unit(u.id));
                        }
                    }
                }
            }
            TargetKind::EnemyArmy => {
                for o in 0..self.n() as u8 {
                    if o != seat {
                        for a in self.areas_of(o) {
                            v.push(EffectTarget::Army { owner: o, area: a });
                        }
                    }
                }
            }
            TargetKind::Player => {
                let in_reach = matches!(e, Effect::Tribute { in_reach: true, .. });
                for o in 0..self.n() as u8 {
                    if o == seat {
                        continue;
                    }
                    let ok = match (in_reach, hero) {
                        (true, Some(h)) => {
                            let r = self.reach(c, seat, h.area);
                            self.units
                                .iter()
                                .any(|u| u.owner == o && c.dist(h.area, u.area) <= r)
                        }
                        _ => true,
                    };
                    if ok {
                        v.push(EffectTarget::Player(o));
                    }
                }
            }
            TargetKind::FreeCity => {
                for (i, o) in self.city_owner.iter().enumerate() {
                    let area = c.cities[i].area;
                    if o.is_none()
                        && !self.city_destroyed[i]
                        && !self.units.iter().any(|u| u.area == area)
                    {
                        v.push(EffectTarget::City(i as u8));
                    }
                }
            }
        }
        v
    }

    // ------------------------------------------------------------------ application

    /// Applies an action already known to be legal for `seat`.
    pub(crate) fn apply_legal(&mut self, seat: u8, action: &Action) {
        let c = content();
        match *action {
            Action::StartingPlayer(s) => {
                self.start = s;
                self.phase = Phase::Race;
                self.setup_done = 0;
            }
            Action::ChooseRace(r) => {
                self.players[seat as usize].race = Some(r);
                self.setup_done += 1;
                if self.setup_done as usize == self.n() {
                    self.phase = Phase::City;
                    self.setup_done = 0;
                }
            }
            Action::ChooseCity(city) => {
                self.city_owner[city as usize] = Some(seat);
                let p = &mut self.players[seat as usize];
                p.start_city = Some(city);
                p.once_available = true;
                self.setup_done += 1;
                if self.setup_done as usize == self.n() {
                    self.finish_setup(c);
                }
            }
            Action::BuyUnit { kind, city } => {
                self.players[seat as usize].resources[0] -= kind.cost();
                self.place(
                    seat,
                    UnitKind::from_chip(kind),
                    c.cities[city as usize].area,
                    true,
                );
            }
            Action::BuyHero { hero, city } => {
                self.players[seat as usize].resources[0] -= c.hero_cost;
                self.heroes[hero as usize] = HeroState::InPlay;
                self.place(
                    seat,
                    UnitKind::Hero(hero),
                    c.cities[city as usize].area,
                    true,
                );
            }
            Action::Rest(id) => {
                self.players[seat as usize].resources[1] -= 1;
                if let Some(i) = self.unit_index(id) {
                    self.units[i].exhausted = false;
                }
            }
            Action::ExtraExhaust(id) => {
                self.players[seat as usize].resources[1] -= 2;
                if let Some(i) = self.unit_index(id) {
                    self.units[i].extra_exhausts = self.units[i].extra_exhausts.saturating_add(1);
                }
            }
            Action::MoveAgain => {
                let p = &mut self.players[seat as usize];
                p.resources[1] -= 6;
                p.extra_moves = p.extra_moves.saturating_add(1);
            }
            Action::PowerUp => {
                let p = &mut self.players[seat as usize];
                p.resources[1] -= 10;
                p.power_bonus = p.power_bonus.saturating_add(1);
            }
            Action::Research { card, target } => {
                let k = &c.cards[card as usize];
                self.players[seat as usize].resources[2] -= k.cost;
                match k.kind {
                    CardKind::Building => {
                        if let EffectTarget::City(city) = target {
                            self.cards[card as usize] = CardState::Building(city);
                        }
                    }
                    CardKind::Upgrade => self.cards[card as usize] = CardState::Upgrade(seat),
                    CardKind::Spell => {
                        // Resolves, then is Discarded back to the pile.
                        if let Some(e) = &k.spell {
                            self.resolve_effect(c, seat, e, target, None);
                        }
                    }
                    CardKind::World => {
                        self.cards[card as usize] = CardState::Destroyed;
                        self.finish(c, vec![seat], "World Spell", true);
                    }
                }
            }
            Action::Move { unit, to } => {
                if let Some(i) = self.unit_index(unit) {
                    self.move_unit(c, i, to);
                    self.after_entry(c, seat, to, vec![unit]);
                }
            }
            Action::MoveArmy { from, to } => {
                // Listed only with at least two units able to move: the mover chooses which go.
                let ids = self.army_movers(c, seat, from);
                self.select(seat, Purpose::Move { from, to }, ids);
            }
            Action::Attack { target } => {
                let ids = self.units_in_reach(c, seat, self.target_area(c, target), &[]);
                if ids.len() == 1 {
                    self.exhaust_units(&ids);
                    self.start_battle(c, seat, target, ids, Vec::new());
                } else {
                    self.select(seat, Purpose::Attack(target), ids);
                }
            }
            Action::HeroAction { unit, target } => {
                if let Some(i) = self.unit_index(unit) {
                    self.units[i].exhausted = true;
                    self.units[i].exhausts_used += 1;
                    let u = self.units[i].clone();
                    if let UnitKind::Hero(h) = u.kind
                        && let Some(e) = c.heroes.get(h as usize).and_then(|x| x.exhaust.clone())
                    {
                        self.resolve_effect(c, seat, &e, target, Some(&u));
                    }
                }
            }
            Action::OncePerGame(target) => {
                let p = &mut self.players[seat as usize];
                p.once_available = false;
                if let Some(sc) = p.start_city {
                    let e = c.cities[sc as usize].once_per_game.clone();
                    self.resolve_effect(c, seat, &e, target, None);
                }
            }
            Action::Intercept => {
                if let Some(Pending::Intercept { mover, area, .. }) = self.stack.last() {
                    let (mover, area) = (*mover, *area);
                    let ids = self.intercept_units(c, seat, mover, area);
                    if ids.len() == 1 {
                        self.intercept_with(c, seat, mover, area, ids);
                    } else {
                        self.select(seat, Purpose::Intercept { mover, area }, ids);
                    }
                }
            }
            Action::HelpAttack => {
                let ids = match self.stack.last() {
                    Some(Pending::Battle(b)) => self.help_attack_units(c, seat, b),
                    _ => Vec::new(),
                };
                if ids.len() == 1 {
                    self.help_attack_with(c, ids);
                } else {
                    self.select(seat, Purpose::HelpAttack, ids);
                }
            }
            Action::Choose(id) => {
                if let Some(Pending::Select(sel)) = self.stack.last_mut() {
                    sel.chosen.push(id);
                    sel.chosen.sort_unstable();
                }
            }
            Action::HoldBack(id) => {
                if let Some(Pending::Select(sel)) = self.stack.last_mut() {
                    sel.chosen.retain(|&x| x != id);
                }
            }
            Action::Confirm => {
                if let Some(Pending::Select(sel)) = self.stack.pop() {
                    match sel.purpose {
                        Purpose::Attack(target) => {
                            self.exhaust_units(&sel.chosen);
                            self.start_battle(c, sel.seat, target, sel.chosen, Vec::new());
                        }
                        Purpose::Intercept { mover, area } => {
                            self.intercept_with(c, sel.seat, mover, area, sel.chosen);
                        }
                        Purpose::HelpAttack => self.help_attack_with(c, sel.chosen),
                        Purpose::Move { to, .. } => {
                            for i in 0..self.units.len() {
                                if sel.chosen.contains(&self.units[i].id) {
                                    self.move_unit(c, i, to);
                                }
                            }
                            self.after_entry(c, sel.seat, to, sel.chosen);
                        }
                    }
                }
            }
            Action::Withdraw => {
                if let Some(Pending::Select(_)) = self.stack.last() {
                    self.stack.pop();
                }
            }
            Action::HelpDefend(area) => {
                if let Some(Pending::Battle(b)) = self.stack.last_mut() {
                    b.defenders.push((seat, area));
                    b.side = Some(Side::Defence);
                }
                self.advance(c);
            }
            Action::Pass => match self.stack.last_mut() {
                Some(Pending::Intercept { queue, .. }) => {
                    queue.remove(0);
                    self.advance(c);
                }
                Some(Pending::Battle(b)) => {
                    b.queue.remove(0);
                    b.side = None;
                    self.advance(c);
                }
                _ => {}
            },
            Action::TradeOpen(partner) => {
                self.players[seat as usize].trades += 1;
                self.stack.push(Pending::Trade {
                    partner,
                    give: Bundle::default(),
                    get: Bundle::default(),
                    proposed: false,
                    note: String::new(),
                });
            }
            Action::TradeOffer(item) | Action::TradeAsk(item) => {
                let offer = matches!(action, Action::TradeOffer(_));
                if let Some(Pending::Trade { give, get, .. }) = self.stack.last_mut() {
                    let b = if offer { give } else { get };
                    match item {
                        TradeItem::Resource(r) => b.resources[r.index()] += 1,
                        TradeItem::Unit(u) => b.units.push(u),
                        TradeItem::City(ci) => b.cities.push(ci),
                    }
                }
            }
            Action::TradeNote(ref text) => {
                if let Some(Pending::Trade { note, .. }) = self.stack.last_mut() {
                    note.clone_from(text);
                }
            }
            Action::TradePropose => {
                if let Some(Pending::Trade { proposed, .. }) = self.stack.last_mut() {
                    *proposed = true;
                }
            }
            Action::TradeCancel | Action::TradeDecline => {
                self.stack.pop();
            }
            Action::TradeAccept => {
                if let Some(Pending::Trade {
                    partner, give, get, ..
                }) = self.stack.pop()
                {
                    let me = self.current;
                    self.give_bundle(c, me, partner, &give);
                    self.give_bundle(c, partner, me, &get);
                }
            }
            Action::EndTurn => self.end_turn(c),
        }
        if self.phase == Phase::Play {
            self.check_victory(c);
        }
    }

    /// Starts a selection with every selectable unit chosen.
    fn select(&mut self, seat: u8, purpose: Purpose, chosen: Vec<u32>) {
        self.stack.push(Pending::Select(Selection {
            seat,
            purpose,
            chosen,
        }));
    }

    /// Exhausts the committed units (each uses one of its exhausts this turn).
    fn exhaust_units(&mut self, ids: &[u32]) {
        for u in &mut self.units {
            if ids.contains(&u.id) {
                u.exhausted = true;
                u.exhausts_used = u.exhausts_used.saturating_add(1);
            }
        }
    }

    /// The deciding seat intercepts with `ids`: it leaves the interception queue and its battle starts.
    /// The battle's target is the entering army only.
    fn intercept_with(&mut self, c: &Content, seat: u8, mover: u8, area: u8, ids: Vec<u32>) {
        let mut entering = Vec::new();
        if let Some(Pending::Intercept { queue, units, .. }) = self.stack.last_mut() {
            if !queue.is_empty() {
                queue.remove(0);
            }
            entering.clone_from(units);
        }
        self.exhaust_units(&ids);
        self.start_battle(c, seat, Target::Army { owner: mover, area }, ids, entering);
    }

    /// The deciding seat helps the attack with `ids`; that is its one decision on this battle.
    fn help_attack_with(&mut self, c: &Content, ids: Vec<u32>) {
        self.exhaust_units(&ids);
        if let Some(Pending::Battle(b)) = self.stack.last_mut() {
            b.attackers.extend(ids);
            if !b.queue.is_empty() {
                b.queue.remove(0);
            }
            b.side = None;
        }
        self.advance(c);
    }

    fn place(&mut self, seat: u8, kind: UnitKind, area: u8, fresh: bool) {
        let id = self.next_unit;
        self.next_unit += 1;
        self.units.push(Unit {
            id,
            owner: seat,
            kind,
            area,
            exhausted: false,
            fresh,
            moves_used: 0,
            exhaust_moves: 0,
            exhausts_used: 0,
            extra_exhausts: 0,
        });
    }

    fn move_unit(&mut self, c: &Content, i: usize, to: u8) {
        let allowance = self.move_allowance(c, &self.units[i]);
        let u = &mut self.units[i];
        if u.moves_used >= allowance {
            // Exhausting a Rested unit lets it move one additional time.
            u.exhausted = true;
            u.exhausts_used += 1;
            u.exhaust_moves += 1;
        }
        u.moves_used += 1;
        u.area = to;
    }

    /// After the army `units` of `mover` entered `area`: the interception round, in turn order after
    /// the mover.
    fn after_entry(&mut self, c: &Content, mover: u8, area: u8, mut units: Vec<u32>) {
        let queue: Vec<u8> = self
            .order_after(mover)
            .into_iter()
            .filter(|&s| s != mover)
            .collect();
        units.sort_unstable();
        self.stack.push(Pending::Intercept {
            mover,
            area,
            queue,
            units,
        });
        self.advance(c);
    }

    /// Starts the battle of `attackers` on `target` (`entering`: an interception's entering army).
    fn start_battle(
        &mut self,
        c: &Content,
        attacker: u8,
        target: Target,
        attackers: Vec<u32>,
        entering: Vec<u32>,
    ) {
        let queue = self.order_after(attacker);
        self.stack.push(Pending::Battle(Battle {
            attacker,
            target,
            attackers,
            defenders: Vec::new(),
            entering,
            queue,
            side: None,
        }));
        self.advance(c);
    }

    /// Skips seats with nothing to decide, resolves battles whose helpers have all decided, and closes
    /// finished interception rounds.
    fn advance(&mut self, c: &Content) {
        loop {
            if self.outcome.is_some() {
                return;
            }
            match self.stack.last() {
                Some(Pending::Intercept {
                    mover, area, queue, ..
                }) => {
                    let (mover, area) = (*mover, *area);
                    if !self.entering_present(mover, area) {
                        self.stack.pop();
                        continue;
                    }
                    match queue.first() {
                        None => {
                            self.stack.pop();
                            continue;
                        }
                        Some(&s) => {
                            if self.intercept_units(c, s, mover, area).is_empty() {
                                if let Some(Pending::Intercept { queue, .. }) =
                                    self.stack.last_mut()
                                {
                                    queue.remove(0);
                                }
                                continue;
                            }
                            return;
                        }
                    }
                }
                Some(Pending::Battle(b)) => match b.queue.first() {
                    None => {
                        if let Some(Pending::Battle(b)) = self.stack.pop() {
                            self.resolve_battle(c, b);
                        }
                        continue;
                    }
                    Some(&s) => {
                        let (att, def) = self.help_options(c, s, b);
                        if att.is_empty() && def.is_empty() {
                            if let Some(Pending::Battle(b)) = self.stack.last_mut() {
                                b.queue.remove(0);
                                b.side = None;
                            }
                            continue;
                        }
                        return;
                    }
                },
                _ => return,
            }
        }
    }

    /// Battle step 3-4: compute attack and defence; attack >= defence destroys every defending unit
    /// and captures the city if it took part.
    pub(crate) fn battle_numbers(&self, c: &Content, b: &Battle) -> (u32, u32) {
        let mut attack = 0;
        for id in &b.attackers {
            if let Some(u) = self.unit(*id) {
                attack += self.power(c, u);
                if let UnitKind::Hero(h) = u.kind {
                    attack += u32::from(c.heroes.get(h as usize).map_or(0, |x| x.attack_bonus));
                }
            }
        }
        let mut defence = 0;
        match b.target {
            Target::Army { owner, area } => {
                if let Some(city) = c.area_city[area as usize]
                    && self.owns_city(owner, city)
                {
                    defence += self.city_strength(c, city);
                }
            }
            Target::City(city) => defence += self.city_strength(c, city),
        }
        for u in &self.units {
            if Self::defends(b, u) {
                defence += self.power(c, u);
                if let UnitKind::Hero(h) = u.kind {
                    defence += u32::from(c.heroes.get(h as usize).map_or(0, |x| x.defence_bonus));
                }
            }
        }
        (attack, defence)
    }

    fn resolve_battle(&mut self, c: &Content, b: Battle) {
        let (attack, defence) = self.battle_numbers(c, &b);
        let success = attack >= defence;
        let mut destroyed = 0;
        let mut captured = None;
        if success {
            let mut city_part = None;
            match b.target {
                Target::Army { owner, area } => {
                    if let Some(city) = c.area_city[area as usize]
                        && self.owns_city(owner, city)
                    {
                        city_part = Some(city);
                    }
                }
                Target::City(city) => city_part = Some(city),
            }
            let before = self.units.len();
            let mut dead_heroes = Vec::new();
            self.units.retain(|u| {
                let dies = Self::defends(&b, u);
                if dies && let UnitKind::Hero(h) = u.kind {
                    dead_heroes.push(h);
                }
                !dies
            });
            for h in dead_heroes {
                self.heroes[h as usize] = HeroState::Destroyed;
            }
            destroyed = (before - self.units.len()) as u32;
            if let Some(city) = city_part
                && !self.city_destroyed[city as usize]
            {
                self.capture(b.attacker, city);
                captured = Some(city);
            }
        }
        self.last_battle = Some(BattleReport {
            attacker: b.attacker,
            target: b.target,
            attack,
            defence,
            success,
            destroyed,
            captured,
        });
        self.check_victory(c);
    }

    fn capture(&mut self, seat: u8, city: u8) {
        if let Some(prev) = self.city_owner[city as usize]
            && prev != seat
            && self.players[prev as usize].start_city == Some(city)
        {
            // Once per Game is lost if the starting city is captured before it is used.
            self.players[prev as usize].once_available = false;
        }
        self.city_owner[city as usize] = Some(seat);
    }

    /// Gives resources: what the giver has, capped at 40 for the receiver.
    fn give_resource(&mut self, from: u8, to: u8, r: usize, amount: u8) {
        let have = self.players[from as usize].resources[r];
        let n = amount.min(have);
        self.players[from as usize].resources[r] -= n;
        add_capped(&mut self.players[to as usize].resources[r], n);
    }

    /// Give a unit: it is discarded and the receiver places their own chip of that type Exhausted in
    /// the same area (taking the hero card); without a free chip the unit is lost. Like every unit
    /// placed on the board, the received one cannot move or be exhausted in the turn it was received
    /// (`fresh`, the rules' \[decision\]).
    fn give_unit(&mut self, to: u8, id: u32) {
        let Some(i) = self.unit_index(id) else {
            return;
        };
        let u = self.units.remove(i);
        let ok = match u.kind.chip() {
            Some(k) => self.free_chip(to, k),
            None => true,
        };
        if ok {
            self.place(to, u.kind, u.area, true);
            if let Some(last) = self.units.last_mut() {
                last.exhausted = true;
            }
        } else if let UnitKind::Hero(h) = u.kind {
            self.heroes[h as usize] = HeroState::Pile;
        }
    }

    fn give_bundle(&mut self, _c: &Content, from: u8, to: u8, b: &Bundle) {
        for r in 0..3 {
            if b.resources[r] > 0 {
                self.give_resource(from, to, r, b.resources[r]);
            }
        }
        for &u in &b.units {
            if self.unit(u).is_some_and(|x| x.owner == from) {
                self.give_unit(to, u);
            }
        }
        for &city in &b.cities {
            if self.owns_city(from, city) {
                self.capture(to, city);
            }
        }
    }

    fn resolve_effect(
        &mut self,
        c: &Content,
        seat: u8,
        e: &Effect,
        target: EffectTarget,
        hero: Option<&Unit>,
    ) {
        match e {
            Effect::Gain { resources } => {
                let r = resources.as_array();
                for (i, &n) in r.iter().enumerate() {
                    add_capped(&mut self.players[seat as usize].resources[i], n);
                }
            }
            Effect::Units { kind, count } => {
                if let EffectTarget::City(city) = target {
                    let area = c.cities[city as usize].area;
                    for _ in 0..*count {
                        if self.free_chip(seat, *kind) {
                            self.place(seat, UnitKind::from_chip(*kind), area, true);
                        }
                    }
                }
            }
            Effect::RestAll => {
                for u in &mut self.units {
                    if u.owner == seat && hero.is_none_or(|h| h.id != u.id) {
                        u.exhausted = false;
                    }
                }
            }
            Effect::ExtraMoves { amount } => {
                let p = &mut self.players[seat as usize];
                p.extra_moves = p.extra_moves.saturating_add(*amount);
            }
            Effect::Power { amount } => {
                let p = &mut self.players[seat as usize];
                p.power_bonus = p.power_bonus.saturating_add(*amount);
            }
            Effect::DestroyUnit { .. } => {
                if let EffectTarget::Unit(id) = target
                    && let Some(i) = self.unit_index(id)
                {
                    let u = self.units.remove(i);
                    if let UnitKind::Hero(h) = u.kind {
                        self.heroes[h as usize] = HeroState::Destroyed;
                    }
                }
            }
            Effect::ExhaustArmy => {
                if let EffectTarget::Army { owner, area } = target {
                    for u in &mut self.units {
                        if u.owner == owner && u.area == area {
                            u.exhausted = true;
                        }
                    }
                }
            }
            Effect::Tribute {
                resource, amount, ..
            } => {
                if let EffectTarget::Player(o) = target {
                    self.give_resource(o, seat, resource.index(), *amount);
                }
            }
            Effect::AllGive { resource, amount } => {
                for o in 0..self.n() as u8 {
                    if o != seat {
                        self.give_resource(o, seat, resource.index(), *amount);
                    }
                }
            }
            Effect::DestroyCity => {
                if let EffectTarget::City(city) = target {
                    self.city_destroyed[city as usize] = true;
                    self.city_owner[city as usize] = None;
                    for st in &mut self.cards {
                        if *st == CardState::Building(city) {
                            *st = CardState::Destroyed;
                        }
                    }
                }
            }
            Effect::Teleport { city } => {
                if let (Some(h), Some(ci)) = (hero, c.city_by_name(city)) {
                    let to = c.cities[ci as usize].area;
                    let from = h.area;
                    for u in &mut self.units {
                        if u.owner == seat && u.area == from {
                            u.area = to;
                        }
                    }
                }
            }
        }
    }

    fn finish_setup(&mut self, c: &Content) {
        // Step 3, in turn order: gained cities, units, hero, upgrades, buildings, resources.
        for i in 0..self.n() {
            let seat = ((self.start as usize + i) % self.n()) as u8;
            let Some(sc) = self.players[seat as usize].start_city else {
                continue;
            };
            let sw = c.cities[sc as usize].start_with.clone();
            let area = c.cities[sc as usize].area;
            for name in &sw.cities {
                if let Some(ci) = c.city_by_name(name)
                    && self.city_owner[ci as usize].is_none()
                    && !self.city_destroyed[ci as usize]
                {
                    self.city_owner[ci as usize] = Some(seat);
                }
            }
            for g in &sw.units {
                for _ in 0..g.count {
                    if self.free_chip(seat, g.kind) {
                        self.place(seat, UnitKind::from_chip(g.kind), area, false);
                    }
                }
            }
            if let Some(h) = sw.hero.as_ref().and_then(|h| c.hero_by_name(h))
                && self.heroes[h as usize] == HeroState::Pile
            {
                self.heroes[h as usize] = HeroState::InPlay;
                self.place(seat, UnitKind::Hero(h), area, false);
            }
            for name in &sw.upgrades {
                if let Some(k) = c.card_by_name(name)
                    && self.cards[k as usize] == CardState::Pile
                {
                    self.cards[k as usize] = CardState::Upgrade(seat);
                }
            }
            for name in &sw.buildings {
                if let Some(k) = c.card_by_name(name)
                    && self.cards[k as usize] == CardState::Pile
                {
                    self.cards[k as usize] = CardState::Building(sc);
                }
            }
            let r = sw.resources.as_array();
            for (j, &n) in r.iter().enumerate() {
                add_capped(&mut self.players[seat as usize].resources[j], n);
            }
        }
        self.phase = Phase::Play;
        self.setup_done = 0;
        self.round = 1;
        self.current = self.start;
        self.start_turn(c);
    }

    /// Start of the current player's turn: per-turn counters reset, income (capped at 40), tolls,
    /// and with `auto_rest` all their units are readied.
    pub(crate) fn start_turn(&mut self, c: &Content) {
        let seat = self.current;
        for u in &mut self.units {
            u.fresh = false;
            u.moves_used = 0;
            u.exhaust_moves = 0;
            u.exhausts_used = 0;
            u.extra_exhausts = 0;
        }
        for p in &mut self.players {
            p.extra_moves = 0;
            p.power_bonus = 0;
            p.trades = 0;
        }
        let mut income = [0u32; 3];
        for (ci, o) in self.city_owner.iter().enumerate() {
            if *o == Some(seat) && !self.city_destroyed[ci] {
                for (j, n) in c.cities[ci].resources.as_array().iter().enumerate() {
                    income[j] += u32::from(*n);
                }
            }
        }
        let mut tolls = Vec::new();
        for (k, st) in self.cards.iter().enumerate() {
            let lasting = c.cards.get(k).and_then(|x| x.lasting.as_ref());
            match (st, lasting) {
                (CardState::Building(city), Some(Lasting::Income { resources }))
                    if self.owns_city(seat, *city) =>
                {
                    for (j, n) in resources.as_array().iter().enumerate() {
                        income[j] += u32::from(*n);
                    }
                }
                (CardState::Upgrade(o), Some(Lasting::Income { resources })) if *o == seat => {
                    for (j, n) in resources.as_array().iter().enumerate() {
                        income[j] += u32::from(*n);
                    }
                }
                (CardState::Building(city), Some(Lasting::Toll { resource, amount }))
                    if self.owns_city(seat, *city) =>
                {
                    tolls.push((c.cities[*city as usize].area, resource.index(), *amount));
                }
                _ => {}
            }
        }
        for u in &self.units {
            if u.owner == seat
                && let UnitKind::Hero(h) = u.kind
                && let Some(hero) = c.heroes.get(h as usize)
            {
                for (j, n) in hero.income.as_array().iter().enumerate() {
                    income[j] += u32::from(*n);
                }
            }
        }
        for (j, n) in income.iter().enumerate() {
            add_capped(
                &mut self.players[seat as usize].resources[j],
                (*n).min(255) as u8,
            );
        }
        for (area, r, amount) in tolls {
            for o in 0..self.n() as u8 {
                if o != seat && self.has_units(o, area) {
                    self.give_resource(o, seat, r, amount);
                }
            }
        }
        if self.options.auto_rest {
            for u in &mut self.units {
                if u.owner == seat {
                    u.exhausted = false;
                }
            }
        }
    }

    fn end_turn(&mut self, c: &Content) {
        let next = ((self.current as usize + 1) % self.n()) as u8;
        if next == self.start {
            if self.options.max_rounds > 0 && self.round >= u32::from(self.options.max_rounds) {
                let most = (0..self.n() as u8)
                    .map(|s| self.cities_of(s))
                    .max()
                    .unwrap_or(0);
                let winners: Vec<u8> = (0..self.n() as u8)
                    .filter(|&s| self.cities_of(s) == most)
                    .collect();
                self.finish(c, winners, "round limit: most cities", false);
                return;
            }
            self.round += 1;
        }
        self.current = next;
        self.start_turn(c);
    }

    fn check_victory(&mut self, c: &Content) {
        if self.outcome.is_some() || self.phase != Phase::Play {
            return;
        }
        let mut counts = [0usize; 8];
        for o in self.city_owner.iter().flatten() {
            if let Some(x) = counts.get_mut(*o as usize) {
                *x += 1;
            }
        }
        let n = self.n().min(counts.len());
        if counts[..n].iter().any(|&k| k >= CITIES_TO_WIN) {
            let big: Vec<u8> = (0..n as u8)
                .filter(|&s| counts[s as usize] >= CITIES_TO_WIN)
                .collect();
            self.finish(c, big, "15 cities", false);
            return;
        }
        if counts[..n].iter().filter(|&&k| k > 0).count() == 1 {
            let holders: Vec<u8> = (0..n as u8).filter(|&s| counts[s as usize] > 0).collect();
            self.finish(c, holders, "last player owning a city", false);
        }
    }

    /// Ends the game: `winners`, plus every owner of a hero whose shared victory condition holds.
    fn finish(&mut self, c: &Content, mut winners: Vec<u8>, reason: &str, world: bool) {
        let n = self.n() as u8;
        loop {
            let mut added = false;
            for u in &self.units {
                let UnitKind::Hero(h) = u.kind else { continue };
                if winners.contains(&u.owner) {
                    continue;
                }
                let holds = match c
                    .heroes
                    .get(h as usize)
                    .and_then(|x| x.shared_victory.as_ref())
                {
                    Some(SharedVictory::NextPlayerWins) => winners.contains(&((u.owner + 1) % n)),
                    Some(SharedVictory::WorldSpell) => world,
                    Some(SharedVictory::CitiesAtLeast { cities }) => {
                        self.cities_of(u.owner) >= usize::from(*cities)
                    }
                    None => false,
                };
                if holds {
                    winners.push(u.owner);
                    added = true;
                }
            }
            if !added {
                break;
            }
        }
        let seats: Vec<Seat> = winners.iter().map(|&s| Seat(s)).collect();
        self.outcome = Some(Outcome::winners(self.n(), &seats, reason));
        self.phase = Phase::Over;
        self.stack.clear();
    }
}

//! Actions in plain words ([`tabula_core::Game::action_words`]): seats by their race ("P2 Forces of
//! the Fey"), units, heroes, cities, areas and cards by the names of the content files. Syba hides
//! nothing in its actions, so every observer reads the same words.
//!
//! An action that ends a battle (the attack or interception itself when no one may help, the last
//! helper's pass, a confirmed selection…) also tells the battle's result: battles have no dice, so
//! the result is known in the state before the action, by applying it to a copy. E.g. "P2 Forces of
//! the Fey intercepts P1 Men of Kaul's army in Greywood: 3 against 1, wins, destroying 1 unit", or
//! "P3 passes — P2 Forces of the Fey attacks Kaul: 2 against 3, is repelled".

use tabula_core::{Actor, Game, Seat};

use crate::content::{ChipKind, CityLevel, Resource, content};
use crate::state::*;

fn area(a: u8) -> String {
    content()
        .areas
        .get(a as usize)
        .map_or_else(|| format!("area {a}"), |x| x.name.clone())
}

fn city(c: u8) -> String {
    content()
        .cities
        .get(c as usize)
        .map_or_else(|| format!("city {c}"), |x| x.name.clone())
}

fn resource(r: Resource) -> &'static str {
    r.name()
}

impl Syba {
    fn who(&self, seat: u8) -> String {
        self.seat_name(Seat(seat))
    }

    /// A unit by what it is and where: "Sprite in Greywood", "hero Lagaron Proudheart in Ashford".
    fn unit_words(&self, id: u32) -> String {
        let Some(u) = self.unit(id) else {
            return format!("unit {id}");
        };
        let c = content();
        let race = self
            .players
            .get(u.owner as usize)
            .and_then(|p| p.race)
            .and_then(|r| c.races.get(r as usize));
        let name = match (u.kind, race) {
            (UnitKind::Hero(h), _) => c
                .heroes
                .get(h as usize)
                .map_or_else(|| "a hero".to_string(), |x| x.name.clone()),
            (UnitKind::Soldier, Some(r)) => r.soldier.clone(),
            (UnitKind::Knight, Some(r)) => r.knight.clone(),
            (UnitKind::Monster, Some(r)) => r.monster.clone(),
            (UnitKind::Soldier, None) => "soldier".to_string(),
            (UnitKind::Knight, None) => "knight".to_string(),
            (UnitKind::Monster, None) => "monster".to_string(),
        };
        format!("{name} in {}", area(u.area))
    }

    fn effect_target(&self, t: &EffectTarget) -> String {
        match t {
            EffectTarget::None => String::new(),
            EffectTarget::City(c) => format!(" on {}", city(*c)),
            EffectTarget::Unit(u) => format!(" on {}", self.unit_words(*u)),
            EffectTarget::Army { owner, area: a } => {
                format!(" on {}'s army in {}", self.who(*owner), area(*a))
            }
            EffectTarget::Player(p) => format!(" on {}", self.who(*p)),
        }
    }

    fn trade_item(&self, i: &TradeItem) -> String {
        match i {
            TradeItem::Resource(r) => format!("1 {}", resource(*r)),
            TradeItem::Unit(u) => self.unit_words(*u),
            TradeItem::City(c) => city(*c),
        }
    }

    /// `action` by `actor` in plain words, with the result of a battle it ends (see the module
    /// documentation).
    pub fn words(&self, actor: Actor, action: &Action) -> String {
        let words = self.plain_words(actor, action);
        let Actor::Seat(seat) = actor else {
            return words;
        };
        let Some(report) = self.battle_ended_by(seat.0, action) else {
            return words;
        };
        let interception = self.interception_pending(action);
        let result = self.battle_result_words(&report);
        let own_attack = report.attacker == seat.0
            && matches!(action, Action::Attack { .. } | Action::Intercept);
        if own_attack {
            // The words already say who attacks what: "… intercepts P1's army in Greywood".
            format!("{words}: {result}")
        } else {
            let verb = if interception {
                "intercepts"
            } else {
                "attacks"
            };
            let target = match report.target {
                Target::Army { owner, area: a } => {
                    format!("{}'s army in {}", self.who(owner), area(a))
                }
                Target::City(x) => city(x),
            };
            format!(
                "{words} — {} {verb} {target}: {result}",
                self.who(report.attacker)
            )
        }
    }

    /// The report of the battle `action` by `seat` ends, if it ends one: only the actions that can
    /// (starting an attack or interception, helping, passing, confirming a selection), and only when
    /// legal here (the result is read from a copy of the game with the action applied).
    fn battle_ended_by(&self, seat: u8, action: &Action) -> Option<BattleReport> {
        let may_end = matches!(
            action,
            Action::Attack { .. }
                | Action::Intercept
                | Action::HelpAttack
                | Action::HelpDefend(_)
                | Action::Pass
                | Action::Confirm
        );
        if !may_end || self.outcome.is_some() {
            return None;
        }
        let mut legal = Vec::new();
        self.legal(seat, &mut legal);
        if !legal.contains(action) {
            return None;
        }
        let mut after = self.clone();
        after.last_battle = None;
        after.apply_legal(seat, action);
        after.last_battle
    }

    /// Whether the battle that `action` takes part in is an interception: the innermost pending
    /// battle has an entering army, or the action starts an interception (directly or by confirming
    /// the selection of its units).
    fn interception_pending(&self, action: &Action) -> bool {
        if matches!(action, Action::Intercept) {
            return true;
        }
        for p in self.stack.iter().rev() {
            match p {
                Pending::Battle(b) => return !b.entering.is_empty(),
                Pending::Select(sel) => match sel.purpose {
                    Purpose::Intercept { .. } => return true,
                    Purpose::Attack(_) | Purpose::Move { .. } => return false,
                    Purpose::HelpAttack => {}
                },
                Pending::Intercept { .. } | Pending::Trade { .. } => {}
            }
        }
        false
    }

    /// A battle's result: "3 against 1, wins, destroying 2 units and taking Kaul" or "2 against 3, is
    /// repelled".
    fn battle_result_words(&self, b: &BattleReport) -> String {
        let mut s = format!("{} against {}, ", b.attack, b.defence);
        if !b.success {
            s.push_str("is repelled");
            return s;
        }
        s.push_str("wins");
        let mut gains = Vec::new();
        match b.destroyed {
            0 => {}
            1 => gains.push("destroying 1 unit".to_string()),
            n => gains.push(format!("destroying {n} units")),
        }
        if let Some(x) = b.captured {
            gains.push(format!("taking {}", city(x)));
        }
        if !gains.is_empty() {
            s.push_str(", ");
            s.push_str(&gains.join(" and "));
        }
        s
    }

    /// `action` by `actor` in plain words, without a battle's result.
    fn plain_words(&self, actor: Actor, action: &Action) -> String {
        let c = content();
        let who = tabula_core::actor_name(self, actor);
        match action {
            Action::StartingPlayer(s) => format!("{} goes first (drawn by lot)", self.who(*s)),
            Action::ChooseRace(r) => format!(
                "{who} plays {}",
                c.races
                    .get(*r as usize)
                    .map_or_else(|| format!("race {r}"), |x| x.name.clone())
            ),
            Action::ChooseCity(x) => format!("{who} starts in {}", city(*x)),
            Action::BuyUnit { kind, city: x } => {
                format!("{who} buys a {} in {}", kind.name(), city(*x))
            }
            Action::BuyHero { hero, city: x } => format!(
                "{who} hires {} in {}",
                c.heroes
                    .get(*hero as usize)
                    .map_or_else(|| format!("hero {hero}"), |h| h.name.clone()),
                city(*x)
            ),
            Action::Rest(u) => format!("{who} rests {}", self.unit_words(*u)),
            Action::ExtraExhaust(u) => {
                format!("{who} lets {} act once more", self.unit_words(*u))
            }
            Action::MoveAgain => format!("{who} marches: every unit may move once more"),
            Action::PowerUp => format!("{who} rallies: +1 Power to every unit this turn"),
            Action::Research { card, target } => format!(
                "{who} researches {}{}",
                c.cards
                    .get(*card as usize)
                    .map_or_else(|| format!("card {card}"), |x| x.name.clone()),
                self.effect_target(target)
            ),
            Action::Move { unit, to } => {
                format!("{who}: {} → {}", self.unit_words(*unit), area(*to))
            }
            Action::MoveArmy { from, to } => {
                format!("{who} moves an army {} → {}", area(*from), area(*to))
            }
            Action::Attack { target } => match target {
                Target::Army { owner, area: a } => {
                    format!("{who} attacks {}'s army in {}", self.who(*owner), area(*a))
                }
                Target::City(x) => format!("{who} attacks {}", city(*x)),
            },
            Action::HeroAction { unit, target } => format!(
                "{who}: {} uses its ability{}",
                self.unit_words(*unit),
                self.effect_target(target)
            ),
            Action::OncePerGame(t) => format!(
                "{who} uses the city's once-per-game power{}",
                self.effect_target(t)
            ),
            Action::Intercept => match self.stack.last() {
                Some(Pending::Intercept { area: a, mover, .. }) => format!(
                    "{who} intercepts {}'s army in {}",
                    self.who(*mover),
                    area(*a)
                ),
                _ => format!("{who} intercepts"),
            },
            Action::HelpAttack => format!("{who} helps the attacker"),
            Action::HelpDefend(a) => format!("{who} helps the defence from {}", area(*a)),
            Action::Pass => format!("{who} passes"),
            Action::Choose(u) => format!("{who} picks {}", self.unit_words(*u)),
            Action::HoldBack(u) => format!("{who} holds back {}", self.unit_words(*u)),
            Action::Confirm => format!("{who} confirms"),
            Action::Withdraw => format!("{who} calls it off"),
            Action::TradeOpen(p) => format!("{who} opens a trade with {}", self.who(*p)),
            Action::TradeNote(text) if text.is_empty() => format!("{who} clears the trade note"),
            Action::TradeNote(text) => format!("{who} notes: “{text}”"),
            Action::TradeOffer(i) => format!("{who} offers {}", self.trade_item(i)),
            Action::TradeAsk(i) => format!("{who} asks for {}", self.trade_item(i)),
            Action::TradePropose => format!("{who} proposes the trade"),
            Action::TradeCancel => format!("{who} cancels the trade"),
            Action::TradeAccept => format!("{who} accepts the trade"),
            Action::TradeDecline => format!("{who} declines the trade"),
            Action::EndTurn => format!("{who} ends the turn"),
        }
    }
}

impl Syba {
    /// Why the cells `seat` clicked lead to no legal action ([`Game::explain_cells`]), from what every
    /// player sees (Syba hides nothing on the board): another player's unit, city or army; a unit
    /// bought this turn; a move to an area that is not next to the unit's. `None` when there is
    /// nothing sure to say.
    pub(crate) fn explain_click(&self, seat: u8, cells: &[String]) -> Option<String> {
        let c = content();
        let first = cells.first()?;
        if let Some(id) = first.strip_prefix('u').and_then(|n| n.parse::<u32>().ok()) {
            let u = self.unit(id)?;
            let what = self.unit_words(id);
            if u.owner != seat {
                return Some(format!("That is {}'s {what}", self.who(u.owner)));
            }
            if u.fresh {
                return Some(format!(
                    "Your {what} was bought this turn: it can neither move nor be Exhausted before \
                     your next turn"
                ));
            }
            let to = cells.get(1).and_then(|id| c.area_by_id(id))?;
            if to != u.area && !c.adjacent[u.area as usize].contains(&to) {
                return Some(format!(
                    "{} is not next to {}: a unit moves one area at a time",
                    area(to),
                    area(u.area)
                ));
            }
            return None;
        }
        if cells.len() > 1 {
            return None;
        }
        let a = c.area_by_id(first)?;
        if let Some(ci) = c.area_city.get(a as usize).copied().flatten()
            && let Some(owner) = self.city_owner.get(ci as usize).copied().flatten()
            && owner != seat
        {
            return Some(format!("{} is {}'s city", city(ci), self.who(owner)));
        }
        let mut owners = self.units.iter().filter(|u| u.area == a).map(|u| u.owner);
        match owners.next() {
            Some(o) if o != seat && owners.all(|x| x == o) => {
                Some(format!("The army in {} is {}'s", area(a), self.who(o)))
            }
            _ => None,
        }
    }
}

/// The pieces' legend ([`tabula_core::Game::piece_legend`]), by the names the view and the content
/// files give them: each chip unit (`"soldier"`) with its base Power ([`ChipKind::power`]), each city
/// level (`"major"`) with its City Strength and resources ([`CityLevel::value`]), and each hero of the
/// edition (by its name in the heroes file) with its Power. Upgrades, the Food spend and buildings
/// add to these during a game (the view's `city_strength` is a city's current strength).
pub fn piece_legend() -> Vec<(String, String)> {
    let units = ChipKind::ALL
        .into_iter()
        .map(|k| (k.name().to_string(), format!("Power {}", k.power())));
    let levels = CityLevel::ALL.into_iter().map(|l| {
        let n = l.value();
        let resources = if n == 1 { "resource" } else { "resources" };
        (
            l.key().to_string(),
            format!("{}, City Strength {n} (gives {n} {resources})", l.name()),
        )
    });
    let heroes = content()
        .heroes
        .iter()
        .map(|h| (h.name.clone(), format!("Power {}", h.power)));
    units.chain(levels).chain(heroes).collect()
}

#[cfg(test)]
mod legend_tests {
    use super::*;

    /// The legend is the engine's tables in words: each chip's Power, each level's strength (the
    /// serde name of the level is the key the view and the cities file use) and each hero's Power
    /// from the heroes file, with no other entry.
    #[test]
    fn the_legend_is_the_tables_in_words() {
        let legend = piece_legend();
        let c = content();
        assert_eq!(
            legend.len(),
            ChipKind::ALL.len() + CityLevel::ALL.len() + c.heroes.len()
        );
        let words = |key: &str| {
            legend
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, w)| w.as_str())
                .unwrap_or_else(|| panic!("no legend for {key}"))
        };
        for k in ChipKind::ALL {
            assert_eq!(words(k.name()), format!("Power {}", k.power()));
        }
        for l in CityLevel::ALL {
            let key = serde_json::to_value(l).unwrap_or_default();
            assert_eq!(key.as_str(), Some(l.key()));
            assert!(
                words(l.key()).contains(&format!("City Strength {} ", l.value())),
                "{}",
                words(l.key())
            );
        }
        assert!(!c.heroes.is_empty());
        for h in &c.heroes {
            assert_eq!(words(&h.name), format!("Power {}", h.power));
        }
        assert_eq!(words("soldier"), "Power 1");
        assert_eq!(words("knight"), "Power 2");
        assert_eq!(words("monster"), "Power 3");
        assert_eq!(
            words("settlement"),
            "Settlement, City Strength 1 (gives 1 resource)"
        );
        assert_eq!(
            words("major"),
            "Major City, City Strength 4 (gives 4 resources)"
        );
        assert_eq!(
            words("capital"),
            "Capital City, City Strength 5 (gives 5 resources)"
        );
        assert_eq!(words("Shiara"), "Power 2");
    }
}

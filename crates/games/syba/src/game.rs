//! The [`Game`] implementation: construction, whose turn, views, validation.

use serde::Serialize;
use tabula_core::{ActionError, Actor, Game, Observer, OptionsError, Seat, ToAct, check_actor};
use ts_rs::TS;

use crate::content::{self, CardKind, content};
use crate::rules::RESOURCE_CAP;
use crate::state::*;

/// What one observer may see: the whole board (Syba has no hidden board information), plus the texts
/// of the observer's own face-down starting city. Others see only which city each starting city is
/// **\[decision\]**, never its Start With / Once per Game texts.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export_to = "syba/")]
pub struct SybaView {
    pub observer: Observer,
    pub state: Syba,
    /// The observer's own starting city texts (Start With, Once per Game), when it has one.
    pub own_start_city_texts: Option<(String, String)>,
    /// Each city's current City Strength (index into the cities file): its level plus its
    /// buildings' strength, as a battle counts it.
    pub city_strength: Vec<u32>,
}

impl Syba {
    /// The edition's content this game uses.
    pub fn content() -> &'static content::Content {
        content()
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The players.
    pub fn players(&self) -> &[Player] {
        &self.players
    }
    /// The units on the board.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }
    /// The owner of each city (index into the cities file).
    pub fn city_owners(&self) -> &[Option<u8>] {
        &self.city_owner
    }
    /// Which cities were Destroyed.
    pub fn cities_destroyed(&self) -> &[bool] {
        &self.city_destroyed
    }
    /// Where each hero card is.
    pub fn hero_states(&self) -> &[HeroState] {
        &self.heroes
    }
    /// Where each research card is.
    pub fn card_states(&self) -> &[CardState] {
        &self.cards
    }
    /// The pending interruptions (interception, battle, trade), innermost last.
    pub fn pending(&self) -> &[Pending] {
        &self.stack
    }
    /// The last battle's result.
    pub fn last_battle(&self) -> Option<&BattleReport> {
        self.last_battle.as_ref()
    }
    /// Whose turn it is (in play).
    pub fn current(&self) -> u8 {
        self.current
    }
    /// The round (from 1).
    pub fn round(&self) -> u32 {
        self.round
    }
    /// Cities owned by a seat.
    pub fn city_count(&self, seat: u8) -> usize {
        self.cities_of(seat)
    }
    /// Attack and defence of the battle waiting for helpers, as they stand now.
    pub fn pending_battle_numbers(&self) -> Option<(u32, u32)> {
        self.stack.iter().rev().find_map(|p| match p {
            Pending::Battle(b) => Some(self.battle_numbers(content(), b)),
            _ => None,
        })
    }

    fn check_state(&self) -> Result<(), String> {
        let c = content::shipped()?;
        let n = self.players.len();
        if n != usize::from(self.options.players) {
            return Err(format!(
                "players: {n} entries but the option says {}",
                self.options.players
            ));
        }
        self.options.validate_for(c).map_err(|e| e.to_string())?;
        if self.city_owner.len() != c.cities.len() || self.city_destroyed.len() != c.cities.len() {
            return Err(format!(
                "city_owner and city_destroyed need {} entries (one per city)",
                c.cities.len()
            ));
        }
        if self.cards.len() != c.cards.len() {
            return Err(format!("cards needs {} entries", c.cards.len()));
        }
        if self.heroes.len() != c.heroes.len() {
            return Err(format!("heroes needs {} entries", c.heroes.len()));
        }
        if usize::from(self.setup_done) > n {
            return Err("setup_done is above the number of players".into());
        }
        if usize::from(self.start) >= n || usize::from(self.current) >= n {
            return Err("start/current is not a seat".into());
        }
        for (i, p) in self.players.iter().enumerate() {
            if let Some(&r) = p.resources.iter().find(|&&r| r > RESOURCE_CAP) {
                return Err(format!("player {i} holds {r} of a resource (max 40)"));
            }
            if p.race.is_some_and(|r| usize::from(r) >= c.races.len()) {
                return Err(format!("player {i}: unknown race"));
            }
            if let Some(r) = p.race
                && self.players[..i].iter().any(|q| q.race == Some(r))
            {
                return Err(format!("player {i}: race taken twice"));
            }
            if p.start_city
                .is_some_and(|s| usize::from(s) >= c.cities.len())
            {
                return Err(format!("player {i}: unknown starting city"));
            }
            if p.once_available && p.start_city.is_none() {
                return Err(format!("player {i}: Once per Game without a starting city"));
            }
        }
        for (ci, o) in self.city_owner.iter().enumerate() {
            if o.is_some_and(|o| usize::from(o) >= n) {
                return Err(format!("city {}: owner is not a seat", c.cities[ci].name));
            }
            if o.is_some() && self.city_destroyed[ci] {
                return Err(format!("city {}: destroyed but owned", c.cities[ci].name));
            }
        }
        let mut ids = std::collections::HashSet::new();
        for u in &self.units {
            if !ids.insert(u.id) {
                return Err(format!("unit u{} appears twice", u.id));
            }
            if u.id >= self.next_unit {
                return Err(format!("unit u{} is not below next_unit", u.id));
            }
            if usize::from(u.owner) >= n {
                return Err(format!("unit u{}: owner is not a seat", u.id));
            }
            if usize::from(u.area) >= c.areas.len() {
                return Err(format!("unit u{}: unknown area", u.id));
            }
            if let UnitKind::Hero(h) = u.kind {
                if self.heroes.get(usize::from(h)) != Some(&HeroState::InPlay) {
                    return Err(format!("unit u{}: its hero card is not in play", u.id));
                }
                if self
                    .units
                    .iter()
                    .filter(|v| v.kind == UnitKind::Hero(h))
                    .count()
                    != 1
                {
                    return Err(format!(
                        "hero {} is on the board twice",
                        c.heroes[h as usize].name
                    ));
                }
            }
        }
        for (h, st) in self.heroes.iter().enumerate() {
            if *st == HeroState::InPlay
                && !self.units.iter().any(|u| u.kind == UnitKind::Hero(h as u8))
            {
                return Err(format!(
                    "hero {} is in play but not on the board",
                    c.heroes[h].name
                ));
            }
        }
        for s in 0..n as u8 {
            for k in content::ChipKind::ALL {
                if self.chips_used(s, k) > k.chips() {
                    return Err(format!(
                        "player {s} uses more than {} {} chips",
                        k.chips(),
                        k.name()
                    ));
                }
            }
        }
        for (k, st) in self.cards.iter().enumerate() {
            let kind = c.cards[k].kind;
            let ok = match st {
                CardState::Pile => true,
                CardState::Building(city) => {
                    kind == CardKind::Building
                        && usize::from(*city) < c.cities.len()
                        && !self.city_destroyed[*city as usize]
                }
                CardState::Upgrade(o) => kind == CardKind::Upgrade && usize::from(*o) < n,
                CardState::Destroyed => kind != CardKind::Spell,
            };
            if !ok {
                return Err(format!(
                    "card {}: inconsistent state {st:?}",
                    c.cards[k].name
                ));
            }
        }
        match self.phase {
            Phase::Over => {
                if self.outcome.is_none() {
                    return Err("phase over without an outcome".into());
                }
            }
            _ => {
                if self.outcome.is_some() {
                    return Err("an outcome but the phase is not over".into());
                }
            }
        }
        if self.phase != Phase::Play && !self.stack.is_empty() {
            return Err("pending decisions outside play".into());
        }
        for p in &self.stack {
            let seats: Vec<u8> = match p {
                Pending::Intercept { mover, queue, .. } => {
                    let mut v = queue.clone();
                    v.push(*mover);
                    v
                }
                Pending::Battle(b) => {
                    if b.queue.is_empty() {
                        return Err("a battle with nobody left to decide".into());
                    }
                    if b.side == Some(Side::Attack) {
                        return Err(
                            "a battle with side `attack`: a helper of the attack decides once \
                             (only `defence` or null)"
                                .into(),
                        );
                    }
                    let mut v = b.queue.clone();
                    v.push(b.attacker);
                    v
                }
                Pending::Trade { partner, .. } => vec![*partner],
                Pending::Select(sel) => vec![sel.seat],
            };
            let in_range = match p {
                Pending::Intercept { area, units, .. } => {
                    if units.is_empty() {
                        return Err(
                            "an interception names no entering unit (units: the army that moved \
                             in)"
                            .into(),
                        );
                    }
                    if units.windows(2).any(|w| w[0] >= w[1])
                        || units.iter().any(|&id| id >= self.next_unit)
                    {
                        return Err(
                            "an interception's units must be unit ids below next_unit, in \
                             increasing order"
                                .into(),
                        );
                    }
                    usize::from(*area) < c.areas.len()
                }
                Pending::Battle(b) => {
                    if !b.entering.is_empty()
                        && (!matches!(b.target, Target::Army { .. })
                            || b.entering.windows(2).any(|w| w[0] >= w[1])
                            || b.entering.iter().any(|&id| id >= self.next_unit))
                    {
                        return Err(
                            "a battle's entering units belong to an army target: unit ids below \
                             next_unit, in increasing order"
                                .into(),
                        );
                    }
                    let target_ok = match b.target {
                        Target::Army { owner, area } => {
                            usize::from(owner) < n && usize::from(area) < c.areas.len()
                        }
                        Target::City(city) => usize::from(city) < c.cities.len(),
                    };
                    target_ok
                        && b.defenders
                            .iter()
                            .all(|&(o, a)| usize::from(o) < n && usize::from(a) < c.areas.len())
                }
                Pending::Trade { partner, note, .. } => {
                    if let Err(e) = check_trade_note(note) {
                        return Err(format!("the pending trade's note: {e}"));
                    }
                    *partner != self.current
                }
                Pending::Select(sel) => match sel.purpose {
                    Purpose::Attack(Target::Army { owner, area }) => {
                        usize::from(owner) < n && usize::from(area) < c.areas.len()
                    }
                    Purpose::Attack(Target::City(city)) => usize::from(city) < c.cities.len(),
                    Purpose::Intercept { mover, area } => {
                        usize::from(mover) < n && usize::from(area) < c.areas.len()
                    }
                    Purpose::HelpAttack => true,
                    Purpose::Move { from, to } => {
                        usize::from(from) < c.areas.len() && usize::from(to) < c.areas.len()
                    }
                },
            };
            if !in_range {
                return Err(format!(
                    "pending decision {p:?} names an unknown area, city or seat"
                ));
            }
            if seats.iter().any(|&s| usize::from(s) >= n) {
                return Err("a pending decision names a seat that does not exist".into());
            }
        }
        if let Some(Pending::Intercept { queue, .. }) = self.stack.last()
            && queue.is_empty()
        {
            return Err("an interception with nobody left to decide".into());
        }
        self.check_selection(c)
    }

    /// A pending unit selection must be the innermost decision, sit on what it is for, and choose
    /// only units it may choose.
    fn check_selection(&self, c: &content::Content) -> Result<(), String> {
        let count = self
            .stack
            .iter()
            .filter(|p| matches!(p, Pending::Select(_)))
            .count();
        let Some(Pending::Select(sel)) = self.stack.last() else {
            return if count == 0 {
                Ok(())
            } else {
                Err("a unit selection must be the innermost pending decision".into())
            };
        };
        if count > 1 {
            return Err("more than one unit selection is pending".into());
        }
        let below = self.stack.iter().rev().nth(1);
        match sel.purpose {
            Purpose::Attack(target) => {
                if below.is_some() {
                    return Err(
                        "an attack selection must be the only pending decision (attacks start on \
                         an empty stack)"
                            .into(),
                    );
                }
                if sel.seat != self.current {
                    return Err(
                        "an attack selection must belong to the player whose turn it is".into(),
                    );
                }
                let legal_target = match target {
                    Target::Army { owner, area } => {
                        owner != sel.seat
                            && self
                                .units
                                .iter()
                                .any(|u| u.owner == owner && u.area == area)
                    }
                    Target::City(city) => {
                        !self.city_destroyed[city as usize]
                            && self.city_owner[city as usize] != Some(sel.seat)
                    }
                };
                if !legal_target {
                    return Err(format!(
                        "the attack selection's target {target:?} cannot be attacked by P{}",
                        u32::from(sel.seat) + 1
                    ));
                }
            }
            Purpose::Intercept { mover, area } => match below {
                Some(Pending::Intercept {
                    mover: m,
                    area: a,
                    queue,
                    ..
                }) if *m == mover && *a == area && queue.first() == Some(&sel.seat) => {}
                _ => {
                    return Err(
                        "an interception selection must sit on the interception of the same army \
                         with its seat deciding"
                            .into(),
                    );
                }
            },
            Purpose::Move { from, to } => {
                if below.is_some() {
                    return Err(
                        "an army move selection must be the only pending decision (moves start \
                         on an empty stack)"
                            .into(),
                    );
                }
                if sel.seat != self.current {
                    return Err(
                        "an army move selection must belong to the player whose turn it is".into(),
                    );
                }
                if !c.adjacent[usize::from(from)].contains(&to) {
                    return Err(format!(
                        "the army move selection goes from {} to {}, which are not adjacent",
                        c.areas[usize::from(from)].id,
                        c.areas[usize::from(to)].id
                    ));
                }
                if self.selectable(c, sel).len() < 2 {
                    return Err(
                        "an army move selection needs at least two units able to move in its area \
                         (one unit moves with `move`)"
                            .into(),
                    );
                }
            }
            Purpose::HelpAttack => match below {
                Some(Pending::Battle(b))
                    if b.queue.first() == Some(&sel.seat) && b.side != Some(Side::Defence) => {}
                _ => {
                    return Err(
                        "a help-attack selection must sit on a battle with its seat deciding"
                            .into(),
                    );
                }
            },
        }
        let selectable = self.selectable(c, sel);
        if selectable.is_empty() {
            return Err("a unit selection with no unit that may be chosen".into());
        }
        for (i, id) in sel.chosen.iter().enumerate() {
            if sel.chosen[..i].contains(id) {
                return Err(format!("unit u{id} is chosen twice"));
            }
            if !selectable.contains(id) {
                return Err(format!(
                    "unit u{id} is chosen but may not be (it must be the selecting player's, able \
                     to be Exhausted and in Reach of the target; for an army move, able to move \
                     and in the area it leaves)"
                ));
            }
        }
        Ok(())
    }
}

impl Game for Syba {
    type Options = SybaOptions;
    type Action = Action;
    type View = SybaView;

    const ID: &'static str = "syba";
    const NAME: &'static str = "Syba Chess 2.0";
    const DESCRIPTION: &'static str = "For 2 to 6 players: lead your people from their \
        first cities, raise armies and heroes, research buildings and spells, and win with 15 cities, \
        as the last one holding a city, or by casting the World Spell.";

    fn piece_legend() -> Vec<(String, String)> {
        crate::words::piece_legend()
    }

    fn new(options: &SybaOptions) -> Result<Self, OptionsError> {
        let c = content::shipped().map_err(OptionsError::Conflict)?;
        options.validate_for(c)?;
        Ok(Syba {
            options: options.clone(),
            phase: Phase::StartingPlayer,
            start: 0,
            current: 0,
            setup_done: 0,
            round: 0,
            players: (0..options.players)
                .map(|_| Player {
                    race: None,
                    start_city: None,
                    resources: [0; 3],
                    once_available: false,
                    extra_moves: 0,
                    power_bonus: 0,
                    trades: 0,
                })
                .collect(),
            units: Vec::new(),
            next_unit: 0,
            city_owner: vec![None; c.cities.len()],
            city_destroyed: vec![false; c.cities.len()],
            cards: vec![CardState::Pile; c.cards.len()],
            heroes: vec![HeroState::Pile; c.heroes.len()],
            stack: Vec::new(),
            outcome: None,
            last_battle: None,
        })
    }

    fn options(&self) -> &SybaOptions {
        &self.options
    }

    fn seats(&self) -> usize {
        self.players.len()
    }

    fn seat_name(&self, seat: Seat) -> String {
        let race = self
            .players
            .get(seat.index())
            .and_then(|p| p.race)
            .and_then(|r| content().races.get(r as usize));
        match race {
            Some(r) => format!("P{} {}", seat.index() + 1, r.name),
            None => format!("P{}", seat.index() + 1),
        }
    }

    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        match self.phase {
            Phase::StartingPlayer => ToAct::Chance,
            Phase::Race | Phase::City => match self.setup_seat() {
                Some(s) => ToAct::Seat(Seat(s)),
                None => ToAct::Seats(Vec::new()),
            },
            Phase::Over => ToAct::Seats(Vec::new()),
            Phase::Play => match self.stack.last() {
                Some(Pending::Intercept { queue, .. }) => {
                    ToAct::Seat(Seat(queue.first().copied().unwrap_or(self.current)))
                }
                Some(Pending::Battle(b)) => {
                    ToAct::Seat(Seat(b.queue.first().copied().unwrap_or(self.current)))
                }
                Some(Pending::Trade {
                    partner, proposed, ..
                }) => ToAct::Seat(Seat(if *proposed { *partner } else { self.current })),
                Some(Pending::Select(sel)) => ToAct::Seat(Seat(sel.seat)),
                None => ToAct::Seat(Seat(self.current)),
            },
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.outcome.is_none() && seat.index() < self.players.len() {
            self.legal(seat.0, out);
        }
    }

    /// True while `seat` composes a trade proposal: its note of non-binding promises is free text,
    /// so the list then holds every other action and only the clearing of a set note; `apply`
    /// accepts any valid note.
    fn actions_sampled(&self, seat: Seat) -> bool {
        seat.index() < self.players.len() && self.composing_trade(seat.0)
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        if self.phase == Phase::StartingPlayer && self.outcome.is_none() {
            let n = self.players.len();
            for s in 0..n {
                out.push((Action::StartingPlayer(s as u8), 1.0 / n as f64));
            }
        }
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), ActionError> {
        check_actor(&self.to_act(), actor)?;
        match actor {
            Actor::Chance => match action {
                Action::StartingPlayer(s) if usize::from(*s) < self.players.len() => {}
                _ => {
                    return Err(ActionError::Illegal(format!(
                        "{} is not a chance outcome here (the starting player is drawn)",
                        self.action_notation(action)
                    )));
                }
            },
            Actor::Seat(seat) => {
                if let Action::TradeNote(text) = action {
                    // Free text: not listed, checked here.
                    if !self.composing_trade(seat.0) {
                        return Err(ActionError::Illegal(format!(
                            "a trade note is written while composing a trade proposal (after \
                             `trade P<n>`, before `propose`), by the proposer; not for {} now",
                            self.seat_name(seat)
                        )));
                    }
                    check_trade_note(text).map_err(ActionError::Illegal)?;
                    self.apply_trusted(actor, action);
                    return Ok(());
                }
                let mut legal = Vec::new();
                self.legal(seat.0, &mut legal);
                if !legal.contains(action) {
                    return Err(ActionError::Illegal(format!(
                        "{} is not legal for {} now",
                        self.action_notation(action),
                        self.seat_name(seat)
                    )));
                }
            }
        }
        self.apply_trusted(actor, action);
        Ok(())
    }

    fn apply_trusted(&mut self, actor: Actor, action: &Action) {
        let seat = match actor {
            Actor::Seat(s) => s.0,
            Actor::Chance => 0,
        };
        self.apply_legal(seat, action);
    }

    fn view(&self, observer: Observer) -> SybaView {
        let own = match observer {
            Observer::Seat(s) => self
                .players
                .get(s.index())
                .and_then(|p| p.start_city)
                .and_then(|c| content().cities.get(c as usize))
                .map(|c| (c.start_with.describe(), c.once_per_game.describe())),
            Observer::Spectator => None,
        };
        SybaView {
            observer,
            state: self.clone(),
            own_start_city_texts: own,
            city_strength: (0..content().cities.len())
                .map(|c| u8::try_from(c).map_or(0, |c| self.city_strength(content(), c)))
                .collect(),
        }
    }

    fn action_cells(&self, action: &Action) -> Vec<String> {
        crate::notation::cells(action)
    }

    fn action_notation(&self, action: &Action) -> String {
        crate::notation::notation(action)
    }

    fn action_words(&self, actor: Actor, action: &Action, _observer: Observer) -> String {
        self.words(actor, action)
    }

    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        self.explain_click(seat.0, cells)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        crate::notation::parse(text)
    }

    fn validate(&self) -> Result<(), String> {
        self.check_state()
    }

    fn render_text(&self, observer: Observer) -> String {
        crate::render::render(self, observer)
    }

    fn turn_number(&self) -> u32 {
        self.round
    }
}

//! The full game state and the rules engine: legal actions and their effects.

use serde::{Deserialize, Serialize};
use tabula_core::{Outcome, Seat};
use ts_rs::TS;

use crate::model::{Ability, Action, BankTake, Card, CardSet, Item, Piece, Point, Res};
use crate::options::TerritoriesOptions;

mod legal;

/// Cards a player may hold after a 7 (cards above are discarded).
pub const HAND_LIMIT: u32 = 7;
/// Points that win at once.
pub const WINNING_POINTS: u32 = 15;
/// Resource cards of each suit in the bank deck.
pub const PER_SUIT: u8 = 13;
/// Grid width and height at the deal.
pub const GRID_W: i8 = 5;
/// Grid height at the deal.
pub const GRID_H: i8 = 4;
/// Cards dealt to the grid.
pub const GRID_CARDS: usize = 20;
/// Territory cards in the deck.
pub const DECK_CARDS: usize = 40;

/// Where the game stands: which decision is owed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Chance shuffles and deals the territory deck.
    Deal,
    /// Chance picks Player 1.
    ChooseFirst,
    /// Setup placements: step 0 Player 1, 1 and 2 Player 2 (2 with its grant), 3 Player 1 (with grant).
    Setup { step: u8 },
    /// Chance rolls 2D6 for the player whose turn it is.
    Roll,
    /// `seat` owes `left` Temple choices; production then continues at stage `next`
    /// (0 roller's fixed payout, 1 roller's Temples, 2 the other's fixed payout, 3 the other's Temples).
    Temple { seat: Seat, left: u8, next: u8 },
    /// After a 7: `seat` discards one card at a time down to 7.
    Discard { seat: Seat },
    /// The player whose turn it is acts (build, trade, abilities, end the turn).
    Main,
    /// The opponent answers the proposed offer.
    Respond,
    /// The opponent accepted and hands over `left` more territory cards of their choice.
    HandOver { left: u8 },
    /// Chance rolls 1D6 for the cost of Survey or Expand.
    AbilityDie { ability: Ability },
    /// The player pays `left` more resources of their choice for Survey or Expand.
    Pay { ability: Ability, left: u8 },
    /// The player places a card for Survey or Expand.
    Place { ability: Ability },
    /// Chance rolls the Raid/Convert duel.
    Duel { ability: Ability },
    /// The duel was won: the player picks the Raid/Convert target.
    Target { ability: Ability },
    /// The game is over.
    Over { outcome: Outcome },
}

/// A card of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
pub struct Cell {
    /// The cell (its lower-left corner).
    pub at: Point,
    /// The territory card on it.
    pub card: Card,
}

/// A building on an intersection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
pub struct Building {
    /// The intersection.
    pub at: Point,
    /// Its owner.
    pub owner: Seat,
    /// The piece.
    pub piece: Piece,
}

/// A player's hand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Hand {
    /// Resource cards by suit (H, S, C, D).
    pub resources: [u8; 4],
    /// Territory cards.
    pub territories: CardSet,
}

impl Hand {
    /// Number of resource cards.
    pub fn resource_count(&self) -> u32 {
        self.resources.iter().map(|&n| n as u32).sum()
    }
    /// Whether every suit of `cost` is covered.
    pub fn covers(&self, cost: [u8; 4]) -> bool {
        self.resources.iter().zip(cost).all(|(&h, c)| h >= c)
    }
    /// Whether this hand can pay what `offer` asks: its resources and as many territory cards.
    pub fn can_pay(&self, offer: &Offer) -> bool {
        self.covers(offer.ask_res) && self.territories.len() >= usize::from(offer.ask_territories)
    }
}

/// A trade offer by the player whose turn it is (public: it is put to the opponent at the table).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
pub struct Offer {
    /// Resources offered, by suit.
    pub give_res: [u8; 4],
    /// Territory cards offered (shown face up).
    pub give_cards: CardSet,
    /// Resources asked for, by suit.
    pub ask_res: [u8; 4],
    /// Territory cards asked for: the opponent chooses which.
    pub ask_territories: u8,
}

/// The full, authoritative state of a game of Territories (its JSON form is documented in the crate
/// docs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Territories {
    /// The options.
    pub options: TerritoriesOptions,
    /// The decision owed now.
    pub phase: Phase,
    /// Player 1 (meaningful once chance has chosen it).
    pub first: Seat,
    /// Whose turn it is.
    pub current: Seat,
    /// Turns completed (setup excluded).
    pub turn: u32,
    /// The last 2D6 roll of this turn.
    pub roll: Option<u8>,
    /// The last Survey/Expand cost die of this turn.
    pub die: Option<u8>,
    /// The last Raid/Convert duel of this turn (user's die, opponent's die).
    pub duel: Option<(u8, u8)>,
    /// The grid's cards: the 20 dealt row by row, then those added by Expand in the order they
    /// were added.
    pub grid: Vec<Cell>,
    /// The buildings on the grid, in the order they were placed.
    pub buildings: Vec<Building>,
    /// The bank's resources by suit.
    pub bank: [u8; 4],
    /// The two hands.
    pub hands: [Hand; 2],
    /// The territory draw pile, top card first.
    pub pile: Vec<Card>,
    /// The open or proposed trade offer of this turn.
    pub offer: Option<Offer>,
    /// Offers opened this turn.
    pub offers_made: u8,
    /// Abilities used this turn (bit set of `Ability::bit`).
    pub abilities_used: u8,
    /// For each seat: how many of its own turns in a row it has ended with no building on the grid.
    pub bare_turns: [u8; 2],
}

/// What the buildings produce on one roll, by seat index: resources owed by suit (Towns, Forts,
/// Barracks, Palaces, Capitals), territory cards drawn (Capitals) and Temple choices owed.
#[derive(Default)]
struct Production {
    owed: [[u8; 4]; 2],
    draws: [u8; 2],
    temples: [u8; 2],
}

/// The other seat.
pub fn other(seat: Seat) -> Seat {
    Seat(1 - (seat.0 & 1))
}

/// The four cells around intersection `p`.
pub fn cells_around(p: Point) -> [Point; 4] {
    let (x, y) = p;
    [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
}

impl Territories {
    /// The initial state (before the deal).
    pub fn initial(options: TerritoriesOptions) -> Territories {
        Territories {
            options,
            phase: Phase::Deal,
            first: Seat(0),
            current: Seat(0),
            turn: 0,
            roll: None,
            die: None,
            duel: None,
            grid: Vec::new(),
            buildings: Vec::new(),
            bank: [PER_SUIT; 4],
            hands: [Hand::default(), Hand::default()],
            pile: Vec::new(),
            offer: None,
            offers_made: 0,
            abilities_used: 0,
            bare_turns: [0, 0],
        }
    }

    // ----- queries -----

    /// The card on `cell`, if any.
    ///
    /// The first 20 grid entries are the dealt cells in row order (a documented invariant of the
    /// state, checked by `validate`), so a lookup inside the dealt 5x4 rectangle is direct and one
    /// outside it scans only the cards added by Expand.
    pub fn card_at(&self, cell: Point) -> Option<Card> {
        let (x, y) = cell;
        if (0..GRID_W).contains(&x) && (0..GRID_H).contains(&y) {
            let i = y as usize * GRID_W as usize + x as usize;
            if let Some(c) = self.grid.get(i)
                && c.at == cell
            {
                return Some(c.card);
            }
            return self.grid.iter().find(|c| c.at == cell).map(|c| c.card);
        }
        let added = self.grid.get(GRID_CARDS..).unwrap_or(&[]);
        added.iter().find(|c| c.at == cell).map(|c| c.card)
    }

    /// The building on intersection `p`, if any.
    pub fn building_at(&self, p: Point) -> Option<Building> {
        self.buildings.iter().find(|b| b.at == p).copied()
    }

    /// Whether `p` is an intersection (a corner of a grid card).
    pub fn is_intersection(&self, p: Point) -> bool {
        cells_around(p).iter().any(|&c| self.card_at(c).is_some())
    }

    /// Every intersection (a corner of a grid card), sorted row by row (`(y, x)` order).
    pub fn intersections(&self) -> Vec<Point> {
        if self.grid.len() == GRID_CARDS {
            // The dealt 5x4 grid (the first 20 cards are the dealt cells): its 6x5 corners.
            return (0..=GRID_H)
                .flat_map(|y| (0..=GRID_W).map(move |x| (x, y)))
                .collect();
        }
        let mut all: Vec<Point> = self
            .grid
            .iter()
            .flat_map(|c| {
                let (x, y) = c.at;
                [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]
            })
            .collect();
        all.sort_unstable_by_key(|&(x, y)| (y, x));
        all.dedup();
        all
    }

    /// The intersections with no building, sorted row by row.
    pub fn free_intersections(&self) -> Vec<Point> {
        let mut free = self.intersections();
        free.retain(|&p| self.building_at(p).is_none());
        free
    }

    /// The empty cells sharing a full edge with a grid card (where Expand may add a card), sorted
    /// row by row.
    pub fn expansion_cells(&self) -> Vec<Point> {
        let mut cells: Vec<Point> = self
            .grid
            .iter()
            .flat_map(|c| {
                let (x, y) = c.at;
                [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)]
            })
            .filter(|&p| self.card_at(p).is_none())
            .collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        cells.dedup();
        cells
    }

    /// The cards touched by a building on `p`, with their cells.
    pub fn touched(&self, p: Point) -> impl Iterator<Item = Cell> + '_ {
        cells_around(p)
            .into_iter()
            .filter_map(move |at| self.card_at(at).map(|card| Cell { at, card }))
    }

    /// How many of `piece` `seat` has on the grid.
    pub fn on_grid(&self, seat: Seat, piece: Piece) -> u8 {
        let n = self
            .buildings
            .iter()
            .filter(|b| b.owner == seat && b.piece == piece)
            .count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    /// How many of `piece` are in `seat`'s supply.
    pub fn supply(&self, seat: Seat, piece: Piece) -> u8 {
        piece.count().saturating_sub(self.on_grid(seat, piece))
    }

    /// `seat`'s points.
    pub fn points(&self, seat: Seat) -> u32 {
        self.buildings
            .iter()
            .filter(|b| b.owner == seat)
            .map(|b| b.piece.points())
            .sum()
    }

    /// Whether `seat` owns a building of this piece.
    pub fn owns(&self, seat: Seat, piece: Piece) -> bool {
        self.buildings
            .iter()
            .any(|b| b.owner == seat && b.piece == piece)
    }

    /// The cards that count towards the hand limit of 7.
    pub fn hand_size(&self, seat: Seat) -> u32 {
        let h = &self.hands[seat.index()];
        if self.options.hand_limit_counts_territories {
            h.resource_count() + h.territories.len() as u32
        } else {
            h.resource_count()
        }
    }

    /// The player whose decision it is, if a seat's.
    pub fn seat_to_act(&self) -> Option<Seat> {
        match &self.phase {
            Phase::Setup { step } => Some(if *step == 0 || *step == 3 {
                self.first
            } else {
                other(self.first)
            }),
            Phase::Temple { seat, .. } | Phase::Discard { seat } => Some(*seat),
            Phase::Main | Phase::Pay { .. } | Phase::Place { .. } | Phase::Target { .. } => {
                Some(self.current)
            }
            Phase::Respond | Phase::HandOver { .. } => Some(other(self.current)),
            _ => None,
        }
    }

    fn ability_building(&self, seat: Seat, ability: Ability) -> bool {
        self.owns(seat, Piece::Capital) || self.owns(seat, ability.building())
    }

    /// Every legal `(intersection, piece)` of Convert for `seat` now (ignoring the duel and the
    /// cost): an opponent building touching a card that `seat`'s Capital or a Temple touches, with
    /// each piece of the same type or a lower tier left in `seat`'s supply; building by building.
    pub fn convert_targets(&self, seat: Seat) -> Vec<(Point, Piece)> {
        let reach: Vec<Point> = self
            .buildings
            .iter()
            .filter(|b| b.owner == seat && matches!(b.piece, Piece::Capital | Piece::Temple))
            .flat_map(|b| self.touched(b.at).map(|c| c.at))
            .collect();
        let mut targets = Vec::new();
        for b in self.buildings.iter().filter(|b| b.owner == other(seat)) {
            if !self.touched(b.at).any(|c| reach.contains(&c.at)) {
                continue;
            }
            for piece in Piece::ALL {
                let fits = piece == b.piece || piece.tier() < b.piece.tier();
                if fits && self.supply(seat, piece) > 0 {
                    targets.push((b.at, piece));
                }
            }
        }
        targets
    }

    fn ability_usable(&self, seat: Seat, ability: Ability) -> bool {
        if self.abilities_used & ability.bit() != 0 || !self.ability_building(seat, ability) {
            return false;
        }
        let hand = &self.hands[seat.index()];
        match ability {
            Ability::Survey | Ability::Expand => !hand.territories.is_empty(),
            Ability::Raid => hand.covers([1, 1, 1, 1]) && self.owns(other(seat), Piece::Town),
            Ability::Convert => hand.covers([1, 1, 1, 1]) && !self.convert_targets(seat).is_empty(),
        }
    }

    // ----- effects -----

    fn pay_to_bank(&mut self, seat: Seat, cost: [u8; 4]) {
        let hand = &mut self.hands[seat.index()];
        for ((h, b), c) in hand
            .resources
            .iter_mut()
            .zip(self.bank.iter_mut())
            .zip(cost)
        {
            *h -= c;
            *b += c;
        }
    }

    /// `seat` pays one resource of suit `r` to the bank.
    fn pay_one(&mut self, seat: Seat, r: Res) {
        let mut cost = [0; 4];
        cost[r.index()] = 1;
        self.pay_to_bank(seat, cost);
    }

    fn take_from_bank(&mut self, seat: Seat, r: Res, n: u8) {
        let n = n.min(self.bank[r.index()]);
        self.bank[r.index()] -= n;
        self.hands[seat.index()].resources[r.index()] += n;
    }

    /// Draws the top territory card into `seat`'s hand (nothing when the pile is empty).
    fn draw(&mut self, seat: Seat) {
        if !self.pile.is_empty() {
            let card = self.pile.remove(0);
            self.hands[seat.index()].territories.insert(card);
        }
    }

    fn lose_all_resources(&mut self, seat: Seat) {
        let all = self.hands[seat.index()].resources;
        self.pay_to_bank(seat, all);
    }

    /// What the buildings produce on `roll`, by seat. Each building counts the cards it touches
    /// that show the number: a Town, Fort or Barracks collects 1 of the card's suit per such card,
    /// a Palace 2, a Temple owes its owner a choice per card; a Capital, once if any card shows the
    /// number, collects 1 of every touched card's suit and draws a territory card.
    fn production(&self, roll: u8) -> Production {
        let mut p = Production::default();
        for b in &self.buildings {
            let s = b.owner.index();
            if s > 1 {
                continue;
            }
            let mut hit = false;
            for c in self.touched(b.at).filter(|c| c.card.number == roll) {
                hit = true;
                let suit = c.card.suit.index();
                match b.piece {
                    Piece::Temple => p.temples[s] += 1,
                    Piece::Palace => p.owed[s][suit] += 2,
                    Piece::Capital => {}
                    _ => p.owed[s][suit] += 1,
                }
            }
            if hit && b.piece == Piece::Capital {
                for c in self.touched(b.at) {
                    p.owed[s][c.card.suit.index()] += 1;
                }
                p.draws[s] += 1;
            }
        }
        p
    }

    /// Pays `seat`'s production except Temples (paid as far as the bank goes).
    fn pay_fixed(&mut self, seat: Seat, prod: &Production) {
        let owed = prod.owed[seat.index()];
        for r in Res::ALL {
            self.take_from_bank(seat, r, owed[r.index()]);
        }
        for _ in 0..prod.draws[seat.index()] {
            self.draw(seat);
        }
    }

    /// Runs production from `stage` (see [`Phase::Temple`]) until a Temple choice is owed or it is done.
    fn produce(&mut self, mut stage: u8) {
        let prod = self.production(self.roll.unwrap_or(0));
        loop {
            let seat = if stage < 2 {
                self.current
            } else {
                other(self.current)
            };
            match stage {
                0 | 2 => self.pay_fixed(seat, &prod),
                1 | 3 => {
                    let left = prod.temples[seat.index()];
                    if left > 0 && self.bank.iter().any(|&n| n > 0) {
                        self.phase = Phase::Temple {
                            seat,
                            left,
                            next: stage + 1,
                        };
                        return;
                    }
                }
                _ => {
                    self.phase = Phase::Main;
                    return;
                }
            }
            stage += 1;
        }
    }

    /// After a 7: the next seat over the hand limit discards (roller first), then the roller draws.
    fn seven_from(&mut self, index: usize) {
        let order = [self.current, other(self.current)];
        for &seat in order.iter().skip(index) {
            if self.hand_size(seat) > HAND_LIMIT {
                self.phase = Phase::Discard { seat };
                return;
            }
        }
        self.draw(self.current);
        self.phase = Phase::Main;
    }

    fn finish(&mut self, outcome: Outcome) {
        self.phase = Phase::Over { outcome };
    }

    fn check_win(&mut self) {
        for s in [self.current, other(self.current)] {
            if self.points(s) >= WINNING_POINTS {
                self.finish(Outcome::winners(
                    2,
                    &[s],
                    format!("{WINNING_POINTS} points reached"),
                ));
                return;
            }
        }
    }

    /// After a Temple choice: the next one, or production goes on when the choices are done or the
    /// bank is empty.
    fn temple_done(&mut self, seat: Seat) {
        if let Phase::Temple { left, next, .. } = self.phase {
            if left > 1 && self.bank.iter().any(|&n| n > 0) {
                self.phase = Phase::Temple {
                    seat,
                    left: left - 1,
                    next,
                };
            } else {
                self.produce(next);
            }
        }
    }

    /// Carries out the accepted offer (the asked territory cards were handed over already).
    fn execute_trade(&mut self) {
        if let Some(offer) = self.offer.take() {
            let me = self.current.index();
            let you = 1 - me;
            for i in 0..4 {
                self.hands[me].resources[i] -= offer.give_res[i];
                self.hands[you].resources[i] += offer.give_res[i];
                self.hands[you].resources[i] -= offer.ask_res[i];
                self.hands[me].resources[i] += offer.ask_res[i];
            }
            for c in offer.give_cards {
                self.hands[me].territories.remove(c);
                self.hands[you].territories.insert(c);
            }
        }
        self.phase = Phase::Main;
    }

    fn end_turn(&mut self) {
        let me = self.current;
        if self.buildings.iter().any(|b| b.owner == me) {
            self.bare_turns[me.index()] = 0;
        } else {
            self.bare_turns[me.index()] += 1;
            if self.bare_turns[me.index()] >= 2 {
                self.finish(Outcome::winners(
                    2,
                    &[other(me)],
                    "two turns in a row ended without buildings",
                ));
                return;
            }
        }
        self.turn += 1;
        self.roll = None;
        self.die = None;
        self.duel = None;
        self.offers_made = 0;
        self.abilities_used = 0;
        self.offer = None;
        if self.turn >= self.options.max_turns {
            let (a, b) = (self.points(Seat(0)), self.points(Seat(1)));
            let outcome = match a.cmp(&b) {
                std::cmp::Ordering::Greater => {
                    Outcome::winners(2, &[Seat(0)], "turn limit: more points")
                }
                std::cmp::Ordering::Less => {
                    Outcome::winners(2, &[Seat(1)], "turn limit: more points")
                }
                std::cmp::Ordering::Equal => Outcome::draw(2, "turn limit: equal points"),
            };
            self.finish(outcome);
            return;
        }
        self.current = other(me);
        self.phase = Phase::Roll;
    }

    /// The open offer, opened (and counted) first when none is open.
    fn open_offer(&mut self) -> &mut Offer {
        if self.offer.is_none() {
            self.offers_made += 1;
        }
        self.offer.get_or_insert_with(Offer::default)
    }

    /// Applies an action already known to be legal (a seat's action is by the seat that owes the
    /// decision; a chance action is a valid outcome of the current chance event).
    pub(crate) fn exec(&mut self, action: &Action) {
        let seat = self.seat_to_act().unwrap_or(self.current);
        match action {
            Action::Deal(order) => {
                self.grid = order
                    .iter()
                    .take(GRID_CARDS)
                    .enumerate()
                    .map(|(i, &card)| Cell {
                        at: ((i % GRID_W as usize) as i8, (i / GRID_W as usize) as i8),
                        card,
                    })
                    .collect();
                self.pile = order.iter().skip(GRID_CARDS).copied().collect();
                self.phase = Phase::ChooseFirst;
            }
            Action::First(s) => {
                self.first = *s;
                self.current = *s;
                self.phase = Phase::Setup { step: 0 };
            }
            Action::Roll(n) => {
                self.roll = Some(*n);
                if *n == 7 {
                    self.seven_from(0);
                } else {
                    self.produce(0);
                }
            }
            Action::Die(n) => {
                // Survey's or Expand's cost: pay `n` resources, or lose them all when the hand
                // holds fewer.
                self.die = Some(*n);
                let ability = match self.phase {
                    Phase::AbilityDie { ability } => ability,
                    _ => Ability::Survey,
                };
                if self.hands[seat.index()].resource_count() < u32::from(*n) {
                    self.lose_all_resources(seat);
                    self.phase = Phase::Main;
                } else {
                    self.phase = Phase::Pay { ability, left: *n };
                }
            }
            Action::Duel(a, b) => {
                self.duel = Some((*a, *b));
                let ability = match self.phase {
                    Phase::Duel { ability } => ability,
                    _ => Ability::Raid,
                };
                self.phase = if a > b {
                    Phase::Target { ability }
                } else {
                    Phase::Main
                };
            }
            Action::Place(p) => {
                let step = match self.phase {
                    Phase::Setup { step } => step,
                    _ => 0,
                };
                self.buildings.push(Building {
                    at: *p,
                    owner: seat,
                    piece: Piece::Town,
                });
                if step >= 2 {
                    let mut owed = [0u8; 4];
                    for c in self.touched(*p) {
                        owed[c.card.suit.index()] += 1;
                    }
                    for r in Res::ALL {
                        self.take_from_bank(seat, r, owed[r.index()]);
                    }
                }
                self.phase = if step >= 3 {
                    self.current = self.first;
                    Phase::Roll
                } else {
                    Phase::Setup { step: step + 1 }
                };
            }
            Action::TempleTake(r) => {
                self.take_from_bank(seat, *r, 1);
                self.temple_done(seat);
            }
            Action::Discard(item) => {
                match item {
                    Item::Res(r) => self.pay_one(seat, *r),
                    Item::Territory(c) => {
                        self.hands[seat.index()].territories.remove(*c);
                        self.pile.push(*c);
                    }
                }
                if self.hand_size(seat) <= HAND_LIMIT {
                    let index = if seat == self.current { 1 } else { 2 };
                    self.seven_from(index);
                }
            }
            Action::Build(p) => {
                self.pay_to_bank(seat, Piece::Town.cost());
                self.buildings.push(Building {
                    at: *p,
                    owner: seat,
                    piece: Piece::Town,
                });
                self.check_win();
            }
            Action::Upgrade(p, piece) => {
                self.pay_to_bank(seat, piece.cost());
                if let Some(b) = self.buildings.iter_mut().find(|b| b.at == *p) {
                    b.piece = *piece;
                }
                self.check_win();
            }
            Action::Give(Item::Res(r)) => self.open_offer().give_res[r.index()] += 1,
            Action::Give(Item::Territory(c)) => {
                self.open_offer().give_cards.insert(*c);
            }
            Action::AskRes(r) => self.open_offer().ask_res[r.index()] += 1,
            Action::AskTerritory => self.open_offer().ask_territories += 1,
            Action::Propose => self.phase = Phase::Respond,
            Action::Withdraw => self.offer = None,
            Action::Accept => match self.offer.map_or(0, |o| o.ask_territories) {
                0 => self.execute_trade(),
                k => self.phase = Phase::HandOver { left: k },
            },
            Action::Decline => {
                self.offer = None;
                self.phase = Phase::Main;
            }
            Action::HandOver(c) => {
                self.hands[seat.index()].territories.remove(*c);
                self.hands[self.current.index()].territories.insert(*c);
                if let Phase::HandOver { left } = self.phase {
                    if left > 1 {
                        self.phase = Phase::HandOver { left: left - 1 };
                    } else {
                        self.execute_trade();
                    }
                }
            }
            Action::Bank(pay, take) => {
                let mut cost = [0; 4];
                cost[pay.index()] = 4;
                self.pay_to_bank(seat, cost);
                match take {
                    BankTake::Res(r) => self.take_from_bank(seat, *r, 1),
                    BankTake::Territory => self.draw(seat),
                }
            }
            Action::Use(ability) => {
                self.abilities_used |= ability.bit();
                self.phase = match ability {
                    Ability::Survey | Ability::Expand => Phase::AbilityDie { ability: *ability },
                    Ability::Raid | Ability::Convert => {
                        self.pay_to_bank(seat, [1, 1, 1, 1]);
                        Phase::Duel { ability: *ability }
                    }
                };
            }
            Action::Pay(r) => {
                self.pay_one(seat, *r);
                if let Phase::Pay { ability, left } = self.phase {
                    self.phase = if left > 1 {
                        Phase::Pay {
                            ability,
                            left: left - 1,
                        }
                    } else {
                        Phase::Place { ability }
                    };
                }
            }
            Action::Survey(cell, card) => {
                // The card laid on the grid replaces one, which goes under the pile.
                self.hands[seat.index()].territories.remove(*card);
                if let Some(c) = self.grid.iter_mut().find(|c| c.at == *cell) {
                    let old = std::mem::replace(&mut c.card, *card);
                    self.pile.push(old);
                }
                self.phase = Phase::Main;
            }
            Action::Expand(cell, card) => {
                self.hands[seat.index()].territories.remove(*card);
                self.grid.push(Cell {
                    at: *cell,
                    card: *card,
                });
                self.phase = Phase::Main;
            }
            Action::Raze(p) => {
                self.buildings.retain(|b| b.at != *p);
                self.phase = Phase::Main;
            }
            Action::Convert(p, piece) => {
                if let Some(b) = self.buildings.iter_mut().find(|b| b.at == *p) {
                    b.owner = seat;
                    b.piece = *piece;
                }
                self.phase = Phase::Main;
                self.check_win();
            }
            Action::EndTurn => self.end_turn(),
        }
    }
}

//! The full game state and the rules engine: legal actions and their effects.

use serde::{Deserialize, Serialize};
use tabula_core::{Outcome, Seat};

use crate::model::{Ability, Action, BankTake, Card, CardSet, Item, Piece, Point, Res};
use crate::options::TerritoriesOptions;

mod legal;
mod summarised;

pub use summarised::{BuildingSummary, Buildings, Grid, GridSummary, Summarised, Summary};

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    /// The game is over. Boxed: unboxed, the outcome's lists would carry the phase's tag in their
    /// spare values, and telling the phase (before every action of a random game) would decode it.
    Over { outcome: Box<Outcome> },
}

/// A card of the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Cell {
    /// The cell (its lower-left corner).
    pub at: Point,
    /// The territory card on it.
    pub card: Card,
}

/// A building on an intersection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
        // Not the byte-wise comparison of move generation's `suits_above`: the compiler's own
        // comparison of the four suits costs less than that plus the check that every count is
        // below 128 which `covers` would need (measured: +2 % instructions per random game).
        self.resources.iter().zip(cost).all(|(&h, c)| h >= c)
    }
    /// Whether this hand can pay what `offer` asks: its resources and as many territory cards.
    pub fn can_pay(&self, offer: &Offer) -> bool {
        self.covers(offer.ask_res) && self.territories.len() >= usize::from(offer.ask_territories)
    }
    pub(crate) fn add_card(&mut self, card: Card) {
        self.territories.insert(card);
    }
    pub(crate) fn remove_card(&mut self, card: Card) -> bool {
        self.territories.remove(card)
    }
}

/// A trade offer by the player whose turn it is (public: it is put to the opponent at the table).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// The grid's cards.
    pub grid: Grid,
    /// The buildings on the grid.
    pub buildings: Buildings,
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

/// The grid's cells as row bitmaps, for allocation-free intersection and expansion queries: bit
/// `x - x0` of `rows[y - y0]` is set when cell `(x, y)` holds a card. The window has a free margin of
/// one cell on every side (`x0`, `y0` are one less than the smallest coordinates), so the corners and
/// edge neighbours of every cell fit. A grid has at most 40 cards, so it spans at most 41 cells each
/// way and the window fits 64 rows of 64 bits.
struct CellMap {
    x0: i8,
    y0: i8,
    /// Rows in use: `y0 ..= y0 + h - 1` (the margin rows included).
    h: usize,
    rows: [u64; 64],
}

impl CellMap {
    fn new(grid: &[Cell]) -> CellMap {
        let (mut minx, mut miny) = (0i8, 0i8);
        let mut maxy = 0i8;
        if let Some(first) = grid.first() {
            (minx, miny) = first.at;
            maxy = miny;
        }
        for c in grid {
            minx = minx.min(c.at.0);
            miny = miny.min(c.at.1);
            maxy = maxy.max(c.at.1);
        }
        let (x0, y0) = (minx.saturating_sub(1), miny.saturating_sub(1));
        let mut rows = [0u64; 64];
        for c in grid {
            // Always in the window for a valid (connected) grid; never panics on an invalid one.
            let dx = (i16::from(c.at.0) - i16::from(x0)) as usize;
            let dy = (i16::from(c.at.1) - i16::from(y0)) as usize;
            if dx < 64
                && let Some(row) = rows.get_mut(dy)
            {
                *row |= 1 << dx;
            }
        }
        CellMap {
            x0,
            y0,
            h: ((i16::from(maxy) - i16::from(y0)) as usize + 2).min(rows.len()),
            rows,
        }
    }

    fn row(&self, i: usize) -> u64 {
        self.rows.get(i).copied().unwrap_or(0)
    }

    /// Intersections of row `i` (y = `y0 + i`): corners of the cells of rows `i - 1` and `i`.
    fn corner_row(&self, i: usize) -> u64 {
        let r = self.row(i) | i.checked_sub(1).map_or(0, |j| self.row(j));
        r | (r << 1)
    }

    /// Calls `f` on every intersection in `(y, x)` order.
    fn for_each_intersection(&self, mut f: impl FnMut(Point)) {
        for i in 0..self.h {
            let mut bits = self.corner_row(i);
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                f((self.x0.wrapping_add(b as i8), self.y0.wrapping_add(i as i8)));
            }
        }
    }

    /// Calls `f` on every empty cell sharing a full edge with a card, in `(y, x)` order.
    fn for_each_expansion_cell(&self, mut f: impl FnMut(Point)) {
        for i in 0..self.h {
            let r = self.row(i);
            let near =
                (r << 1) | (r >> 1) | self.row(i + 1) | i.checked_sub(1).map_or(0, |j| self.row(j));
            let mut bits = near & !r;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                f((self.x0.wrapping_add(b as i8), self.y0.wrapping_add(i as i8)));
            }
        }
    }
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
            grid: Grid::default(),
            buildings: Buildings::default(),
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

    /// Every intersection, sorted.
    pub fn intersections(&self) -> Vec<Point> {
        let mut v = Vec::with_capacity(30);
        self.for_each_intersection(|p| v.push(p));
        v
    }

    /// Calls `f` on every intersection, sorted (row by row), without allocating.
    pub fn for_each_intersection(&self, mut f: impl FnMut(Point)) {
        if self.grid.len() == GRID_CARDS {
            // The dealt grid: its 6x5 corners.
            for y in 0..=GRID_H {
                for x in 0..=GRID_W {
                    f((x, y));
                }
            }
            return;
        }
        CellMap::new(&self.grid).for_each_intersection(f);
    }

    /// The empty cells sharing a full edge with a grid card (where Expand may add a card), sorted.
    pub fn expansion_cells(&self) -> Vec<Point> {
        let mut v = Vec::new();
        CellMap::new(&self.grid).for_each_expansion_cell(|p| v.push(p));
        v
    }

    /// The cards touched by a building on `p`, with their cells.
    pub fn touched(&self, p: Point) -> impl Iterator<Item = Cell> + '_ {
        cells_around(p)
            .into_iter()
            .filter_map(move |at| self.card_at(at).map(|card| Cell { at, card }))
    }

    /// How many of `piece` `seat` has on the grid.
    pub fn on_grid(&self, seat: Seat, piece: Piece) -> u8 {
        self.buildings.on_grid(seat, piece)
    }

    /// How many of `piece` are in `seat`'s supply.
    pub fn supply(&self, seat: Seat, piece: Piece) -> u8 {
        piece.count().saturating_sub(self.on_grid(seat, piece))
    }

    /// `seat`'s points.
    pub fn points(&self, seat: Seat) -> u32 {
        let counts = self.buildings.counts(seat);
        Piece::ALL
            .iter()
            .map(|p| u32::from(counts[p.index()]) * p.points())
            .sum()
    }

    /// Whether `seat` owns a building of this piece.
    pub fn owns(&self, seat: Seat, piece: Piece) -> bool {
        self.buildings.on_grid(seat, piece) > 0
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

    /// Whether the current phase is a chance event.
    pub fn is_chance(&self) -> bool {
        matches!(
            self.phase,
            Phase::Deal
                | Phase::ChooseFirst
                | Phase::Roll
                | Phase::AbilityDie { .. }
                | Phase::Duel { .. }
        )
    }

    fn ability_building(&self, seat: Seat, ability: Ability) -> bool {
        self.owns(seat, Piece::Capital) || self.owns(seat, ability.building())
    }

    /// Every legal `(intersection, piece)` of Convert for `seat` now (ignoring the duel).
    pub fn convert_choices(&self, seat: Seat, out: &mut Vec<(Point, Piece)>) {
        self.for_each_convert(seat, |p, piece| {
            out.push((p, piece));
            true
        });
    }

    /// Calls `f` on every legal `(intersection, piece)` of Convert for `seat` (ignoring the duel),
    /// in the order of [`Territories::convert_choices`], until `f` returns false. Allocation-free.
    fn for_each_convert(&self, seat: Seat, mut f: impl FnMut(Point, Piece) -> bool) {
        // Convert's reach: the cells touched by `seat`'s Capital and Temples (at most 3 × 4).
        let mut reach = [(0i8, 0i8); 12];
        let mut n = 0;
        for b in self.buildings.iter().filter(|b| b.owner == seat) {
            if matches!(b.piece, Piece::Capital | Piece::Temple) {
                for c in self.touched(b.at) {
                    if n < reach.len() {
                        reach[n] = c.at;
                        n += 1;
                    }
                }
            }
        }
        let reach = &reach[..n];
        if reach.is_empty() {
            return;
        }
        let opp = other(seat);
        for b in self.buildings.iter().filter(|b| b.owner == opp) {
            if !self.touched(b.at).any(|c| reach.contains(&c.at)) {
                continue;
            }
            for piece in Piece::ALL {
                let fits = piece == b.piece || piece.tier() < b.piece.tier();
                if fits && self.supply(seat, piece) > 0 && !f(b.at, piece) {
                    return;
                }
            }
        }
    }

    /// Whether `seat` has any Convert target now (ignoring the duel and the cost).
    fn can_convert(&self, seat: Seat) -> bool {
        let mut any = false;
        self.for_each_convert(seat, |_, _| {
            any = true;
            false
        });
        any
    }

    fn ability_usable(&self, seat: Seat, ability: Ability) -> bool {
        if self.abilities_used & ability.bit() != 0 || !self.ability_building(seat, ability) {
            return false;
        }
        let hand = &self.hands[seat.index()];
        match ability {
            Ability::Survey | Ability::Expand => !hand.territories.is_empty(),
            Ability::Raid => hand.covers([1, 1, 1, 1]) && self.owns(other(seat), Piece::Town),
            Ability::Convert => hand.covers([1, 1, 1, 1]) && self.can_convert(seat),
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

    fn take_from_bank(&mut self, seat: Seat, r: Res, n: u8) {
        let n = n.min(self.bank[r.index()]);
        self.bank[r.index()] -= n;
        self.hands[seat.index()].resources[r.index()] += n;
    }

    /// Draws the top territory card into `seat`'s hand (nothing when the pile is empty).
    fn draw(&mut self, seat: Seat) {
        if !self.pile.is_empty() {
            let card = self.pile.remove(0);
            self.hands[seat.index()].add_card(card);
        }
    }

    fn lose_all_resources(&mut self, seat: Seat) {
        let all = self.hands[seat.index()].resources;
        self.pay_to_bank(seat, all);
    }

    /// What the buildings produce on `roll`, by seat: for each card showing `roll` (at most four,
    /// one per suit, found in the grid's summary), the buildings on its four corners (looked up in
    /// the buildings' summary for a card of the dealt rectangle, searched for among all buildings
    /// for a card added by Expand).
    fn production(&self, roll: u8) -> Production {
        let mut p = Production::default();
        // Capitals that have produced this roll, by index in the list: a Capital produces once
        // however many of the cards it touches show the number.
        let mut capitals = 0u64;
        let mut showing = self.grid.showing(roll);
        // A number shows on four territory cards, one per suit: at most four cells are hit.
        let mut hits = 0;
        while showing != 0 && hits < 4 {
            let i = showing.trailing_zeros() as usize;
            showing &= showing - 1;
            let Some(cell) = self.grid.get(i) else {
                continue;
            };
            hits += 1;
            let (cx, cy) = cell.at;
            if (0..GRID_W).contains(&cx) && (0..GRID_H).contains(&cy) {
                // All four corners of a dealt card are corners of the dealt rectangle (bits
                // `y * 6 + x`): the occupied ones, from the buildings' summary.
                let corners = 0b1100_0011u64 << (cy as u32 * 6 + cx as u32);
                let mut occupied = corners & self.buildings.dealt_corners();
                while occupied != 0 {
                    let bit = occupied.trailing_zeros() as usize;
                    occupied &= occupied - 1;
                    if let Some(b) = self.buildings.at_corner_bit(bit) {
                        self.produce_on(&mut p, b, cell.card.suit, &mut capitals);
                    }
                }
            } else {
                for b in 0..self.buildings.len() {
                    let (bx, by) = self.buildings[b].at;
                    if (bx.wrapping_sub(cx) as u8) <= 1 && (by.wrapping_sub(cy) as u8) <= 1 {
                        self.produce_on(&mut p, b, cell.card.suit, &mut capitals);
                    }
                }
            }
        }
        p
    }

    /// Adds what building `index` produces for one touched card of `suit` showing the roll.
    #[inline]
    fn produce_on(&self, p: &mut Production, index: usize, suit: Res, capitals: &mut u64) {
        let Some(b) = self.buildings.get(index) else {
            return;
        };
        let s = b.owner.index();
        if s > 1 {
            return;
        }
        match b.piece {
            Piece::Temple => p.temples[s] += 1,
            Piece::Capital => {
                let bit = 1u64.checked_shl(index as u32).unwrap_or(0);
                if *capitals & bit == 0 {
                    *capitals |= bit;
                    for c in self.touched(b.at) {
                        p.owed[s][c.card.suit.index()] += 1;
                    }
                    p.draws[s] += 1;
                }
            }
            Piece::Palace => p.owed[s][suit.index()] += 2,
            _ => p.owed[s][suit.index()] += 1,
        }
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
        self.phase = Phase::Over {
            outcome: Box::new(outcome),
        };
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

    /// Survey: `seat` lays `card` on `cell` of the grid; the card it covers goes under the pile.
    pub(crate) fn survey(&mut self, seat: Seat, cell: Point, card: Card) {
        self.hands[seat.index()].remove_card(card);
        if let Some(old) = self
            .grid
            .update(|c| c.at == cell, |c| std::mem::replace(&mut c.card, card))
        {
            self.pile.push(old);
        }
        self.phase = Phase::Main;
    }

    /// Expand: `seat` lays `card` on the empty `cell` beside the grid.
    pub(crate) fn expand(&mut self, seat: Seat, cell: Point, card: Card) {
        self.hands[seat.index()].remove_card(card);
        self.grid.push(Cell { at: cell, card });
        self.phase = Phase::Main;
    }

    /// Survey's or Expand's die shows `n`: the player pays `n` resources, or loses every
    /// resource when the hand holds fewer.
    pub(crate) fn ability_die(&mut self, n: u8) {
        self.die = Some(n);
        let ability = match self.phase {
            Phase::AbilityDie { ability } => ability,
            _ => Ability::Survey,
        };
        let cur = self.current;
        if self.hands[cur.index()].resource_count() < u32::from(n) {
            self.lose_all_resources(cur);
            self.phase = Phase::Main;
        } else {
            self.phase = Phase::Pay { ability, left: n };
        }
    }

    /// `seat` builds a Town on the free intersection `p`.
    pub(crate) fn build_town(&mut self, seat: Seat, p: Point) {
        self.pay_to_bank(seat, Piece::Town.cost());
        self.buildings.push(Building {
            at: p,
            owner: seat,
            piece: Piece::Town,
        });
        self.check_win();
    }

    /// The roll of the turn shows `n`: a 7 (discards, then the roller's territory card) or
    /// production.
    pub(crate) fn roll_dice(&mut self, n: u8) {
        self.roll = Some(n);
        if n == 7 {
            self.seven_from(0);
        } else {
            self.produce(0);
        }
    }

    /// `seat` takes a resource of suit `r` for a Temple; production goes on when its choices are
    /// done or the bank is empty.
    pub(crate) fn temple_take(&mut self, seat: Seat, r: Res) {
        self.take_from_bank(seat, r, 1);
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

    /// `seat` discards `item` after a 7; the next seat over the hand limit follows, or the roller
    /// draws.
    pub(crate) fn discard(&mut self, seat: Seat, item: Item) {
        match item {
            Item::Res(r) => {
                let mut cost = [0; 4];
                cost[r.index()] = 1;
                self.pay_to_bank(seat, cost);
            }
            Item::Territory(c) => {
                self.hands[seat.index()].remove_card(c);
                self.pile.push(c);
            }
        }
        if self.hand_size(seat) <= HAND_LIMIT {
            let index = if seat == self.current { 1 } else { 2 };
            self.seven_from(index);
        }
    }

    /// `seat` (who accepted an offer) hands the territory card `c` over; the trade is carried out
    /// after the last one.
    pub(crate) fn hand_over(&mut self, seat: Seat, c: Card) {
        self.hands[seat.index()].remove_card(c);
        self.hands[self.current.index()].add_card(c);
        if let Phase::HandOver { left } = self.phase {
            if left > 1 {
                self.phase = Phase::HandOver { left: left - 1 };
            } else {
                self.execute_trade();
            }
        }
    }

    /// `seat` pays a resource of suit `r` towards Survey or Expand; the placement follows the
    /// last one.
    pub(crate) fn pay_for_ability(&mut self, seat: Seat, r: Res) {
        let mut cost = [0; 4];
        cost[r.index()] = 1;
        self.pay_to_bank(seat, cost);
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

    /// The opponent accepts the offer: the territory cards asked for are handed over first, then
    /// the trade is carried out.
    pub(crate) fn accept_offer(&mut self) {
        let k = self.offer.as_ref().map_or(0, |o| o.ask_territories);
        if k > 0 {
            self.phase = Phase::HandOver { left: k };
        } else {
            self.execute_trade();
        }
    }

    /// The opponent declines the offer.
    pub(crate) fn decline_offer(&mut self) {
        self.offer = None;
        self.phase = Phase::Main;
    }

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
                self.hands[me].remove_card(c);
                self.hands[you].add_card(c);
            }
        }
        self.phase = Phase::Main;
    }

    pub(crate) fn end_turn(&mut self) {
        let me = self.current;
        if self.buildings.counts(me) != [0; 6] {
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

    /// Applies an action already known to be legal for `actor` (a seat's action is by the seat that
    /// owes the decision; a chance action is a valid outcome of the current chance event).
    pub(crate) fn exec(&mut self, action: &Action) {
        // Composing an offer (about half of the actions of a random game) in a small function of
        // its own; everything else out of line.
        match action {
            Action::Give(item) => {
                let offer = self.open_offer();
                match item {
                    Item::Res(r) => offer.give_res[r.index()] += 1,
                    Item::Territory(c) => {
                        offer.give_cards.insert(*c);
                    }
                }
            }
            Action::AskRes(r) => self.open_offer().ask_res[r.index()] += 1,
            Action::AskTerritory => self.open_offer().ask_territories += 1,
            Action::Propose => self.phase = Phase::Respond,
            Action::Withdraw => self.offer = None,
            _ => self.exec_other(action),
        }
    }

    /// [`Territories::exec`] for the actions other than composing an offer.
    #[inline(never)]
    fn exec_other(&mut self, action: &Action) {
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
            Action::Roll(n) => self.roll_dice(*n),
            Action::Die(n) => self.ability_die(*n),
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
            Action::TempleTake(r) => self.temple_take(seat, *r),
            Action::Discard(item) => self.discard(seat, *item),
            Action::Build(p) => self.build_town(seat, *p),
            Action::Upgrade(p, piece) => {
                self.pay_to_bank(seat, piece.cost());
                self.buildings.update(|b| b.at == *p, |b| b.piece = *piece);
                self.check_win();
            }
            Action::Give(_)
            | Action::AskRes(_)
            | Action::AskTerritory
            | Action::Propose
            | Action::Withdraw => {}
            Action::Accept => self.accept_offer(),
            Action::Decline => self.decline_offer(),
            Action::HandOver(c) => self.hand_over(seat, *c),
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
                match ability {
                    Ability::Survey | Ability::Expand => {
                        self.phase = Phase::AbilityDie { ability: *ability };
                    }
                    Ability::Raid | Ability::Convert => {
                        self.pay_to_bank(seat, [1, 1, 1, 1]);
                        self.phase = Phase::Duel { ability: *ability };
                    }
                }
            }
            Action::Pay(r) => self.pay_for_ability(seat, *r),
            Action::Survey(cell, card) => self.survey(seat, *cell, *card),
            Action::Expand(cell, card) => self.expand(seat, *cell, *card),
            Action::Raze(p) => {
                self.buildings.retain(|b| b.at != *p);
                self.phase = Phase::Main;
            }
            Action::Convert(p, piece) => {
                self.buildings.update(
                    |b| b.at == *p,
                    |b| {
                        b.owner = seat;
                        b.piece = *piece;
                    },
                );
                self.phase = Phase::Main;
                self.check_win();
            }
            Action::EndTurn => self.end_turn(),
        }
    }

    pub(crate) fn open_offer(&mut self) -> &mut Offer {
        if self.offer.is_none() {
            self.offers_made += 1;
        }
        self.offer.get_or_insert_with(Offer::default)
    }
}

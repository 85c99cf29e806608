//! Legal actions, listed or drawn at random, from one description per phase.
//!
//! Each phase's actions are described once, as a sequence of *sections*: a count that is cheap to
//! compute and a function that lists the section's actions in order. Listing them all
//! ([`Territories::legal`]) runs every section's list. Drawing one uniformly at random
//! ([`Territories::random_legal`]) sums the counts, draws the index exactly as a draw from the full
//! list would (`rng.random_range(0..len)`), and finds the action in the section the index falls in:
//! a random game is the same game either way. A section may also say how to find its `k`-th action
//! without listing ([`Emit::section_at`]); every section a random game meets often does (an open
//! offer's actions are found directly, in [`Territories::pick_offer`]), and the rare ones (Raid and
//! Convert targets) list their actions and take the `k`-th.
//!
//! A random game's step (`Game::random_step`) goes one further in the phases it meets most: the
//! main phase ([`Territories::random_main_step`]: the same sections counted once, then the action
//! found in the section the draw falls in), an open offer ([`Territories::random_offer_step`]), the
//! respond, Temple, discard, hand-over and pay phases, Survey's and Expand's placement, the roll
//! and the ability die draw exactly as `random_legal` (or `sample_chance`) would and apply the
//! result at once, most without building the action. `tools::check_random_step` holds every one
//! of them to the definition on every state of the property tests. Random playouts spend
//! most of their time choosing actions, and most listed actions are never drawn (a hand that can
//! pay for a Town lists up to 30 `Build`s), so this is where the speed of a random game comes from.
//!
//! Every count is checked against its list: in debug builds on every listing (so every test that
//! lists actions checks it), and the property tests check `legal_count` and `legal_at(k)` against
//! the list on every state of their random games.

use std::ops::ControlFlow;

use tabula_core::{GameRng, Seat, draw_index};

use super::{CellMap, GRID_CARDS, GRID_H, GRID_W, Offer, Phase, Territories, other};
use crate::model::{Ability, Action, BankTake, Card, CardSet, Item, Piece, Res};

/// The most sections a phase is described with (the main phase has six).
const MAX_SECTIONS: usize = 8;

/// Receives a phase's legal actions section by section.
trait Emit {
    /// A section of `count()` actions, which `list` appends to a vector in order. `Break` when no
    /// further section is needed.
    fn section(
        &mut self,
        count: impl FnOnce() -> usize,
        list: impl FnOnce(&mut Vec<Action>),
    ) -> ControlFlow<()>;

    /// A section as in [`Emit::section`] whose action at index `k` `at(k)` finds without listing.
    #[inline(always)]
    fn section_at(
        &mut self,
        count: impl FnOnce() -> usize,
        list: impl FnOnce(&mut Vec<Action>),
        at: impl FnOnce(usize) -> Option<Action>,
    ) -> ControlFlow<()> {
        let _ = at;
        self.section(count, list)
    }
}

/// Lists every section.
struct ListAll<'a>(&'a mut Vec<Action>);

impl Emit for ListAll<'_> {
    #[inline(always)]
    fn section(
        &mut self,
        count: impl FnOnce() -> usize,
        list: impl FnOnce(&mut Vec<Action>),
    ) -> ControlFlow<()> {
        let before = self.0.len();
        list(self.0);
        debug_assert_eq!(
            self.0.len() - before,
            count(),
            "a section of Territories' legal actions differs from its count"
        );
        ControlFlow::Continue(())
    }
}

/// Counts the actions, section by section.
#[derive(Default)]
struct Counter {
    counts: [usize; MAX_SECTIONS],
    sections: usize,
    total: usize,
}

impl Emit for Counter {
    #[inline(always)]
    fn section(
        &mut self,
        count: impl FnOnce() -> usize,
        _list: impl FnOnce(&mut Vec<Action>),
    ) -> ControlFlow<()> {
        let c = count();
        debug_assert!(self.sections < MAX_SECTIONS, "raise MAX_SECTIONS");
        if let Some(slot) = self.counts.get_mut(self.sections) {
            *slot = c;
        }
        self.sections += 1;
        self.total += c;
        ControlFlow::Continue(())
    }
}

/// Finds the action at index `k` of the whole list, listing only its section (the counts come from
/// a [`Counter`] run on the same state).
struct Picker<'a> {
    k: usize,
    counts: &'a [usize; MAX_SECTIONS],
    section: usize,
    scratch: &'a mut Vec<Action>,
    found: Option<Action>,
}

impl Picker<'_> {
    /// The count of the next section; `Some(k)` when the action sought is its `k`-th.
    #[inline(always)]
    fn next_section(&mut self, count: impl FnOnce() -> usize) -> Option<usize> {
        let c = match self.counts.get(self.section) {
            Some(&c) => c,
            None => count(),
        };
        self.section += 1;
        if self.k >= c {
            self.k -= c;
            return None;
        }
        Some(self.k)
    }
}

impl Emit for Picker<'_> {
    #[inline(always)]
    fn section_at(
        &mut self,
        count: impl FnOnce() -> usize,
        _list: impl FnOnce(&mut Vec<Action>),
        at: impl FnOnce(usize) -> Option<Action>,
    ) -> ControlFlow<()> {
        match self.next_section(count) {
            None => ControlFlow::Continue(()),
            Some(k) => {
                self.found = at(k);
                ControlFlow::Break(())
            }
        }
    }

    #[inline(always)]
    fn section(
        &mut self,
        count: impl FnOnce() -> usize,
        list: impl FnOnce(&mut Vec<Action>),
    ) -> ControlFlow<()> {
        let Some(k) = self.next_section(count) else {
            return ControlFlow::Continue(());
        };
        self.scratch.clear();
        list(self.scratch);
        if k < self.scratch.len() {
            self.found = Some(self.scratch.swap_remove(k));
        }
        ControlFlow::Break(())
    }
}

/// What the main phase's sections depend on (see [`Territories::main_ctx`]).
#[derive(Clone, Copy)]
struct MainCtx {
    /// A Town can be built (one in the supply, the hand pays).
    town: bool,
    /// Pieces other than the Town in the supply that the hand pays for (bit `Piece::index`).
    affordable: u8,
    /// Another offer may be opened this turn.
    offers: bool,
    /// The items a new offer may start with (counted once: the cards' count is a population
    /// count, a dozen instructions on the baseline x86-64 target).
    items: OfferItems,
    /// Suits the hand holds four of.
    pays: u8,
    /// Suits the bank has.
    in_bank: u8,
    /// The abilities that may be used now (bit `Ability::bit`).
    abilities: u8,
}

/// The suits (bit `Res::index`) of which `a` holds more than `b`, four comparisons at once on the
/// bytes of a `u32`: each byte of `(a | 0x80) - b - 1` keeps its top bit exactly when `a > b`,
/// without borrowing from the next byte while both are below 128 (a suit has 13 resources, and
/// `validate` refuses more), and a multiplication gathers the four top bits. The four comparisons
/// and shifts written out cost five times as many instructions, and random play asks this up to
/// six times per decision.
#[inline(always)]
fn suits_above(a: [u8; 4], b: [u8; 4]) -> u8 {
    let (x, y) = (u32::from_le_bytes(a), u32::from_le_bytes(b));
    let top = ((x | 0x8080_8080).wrapping_sub(y).wrapping_sub(0x0101_0101)) & 0x8080_8080;
    // Bits 0, 8, 16 and 24 of `top >> 7` land on bits 28 to 31; the other products fall below.
    let mask = ((top >> 7).wrapping_mul(0x1020_4080) >> 28) as u8;
    debug_assert!(
        a.iter().chain(&b).any(|&n| n >= 128)
            || (0..4).all(|i| (mask & (1 << i) != 0) == (a[i] > b[i])),
        "suits_above({a:?}, {b:?}) = {mask:#06b}"
    );
    mask
}

/// Appends `make(r)` for every suit of `mask`, in the canonical suit order.
#[inline(always)]
fn push_suits(mask: u8, out: &mut Vec<Action>, make: impl Fn(Res) -> Action) {
    for r in Res::ALL {
        if mask & (1 << r.index()) != 0 {
            out.push(make(r));
        }
    }
}

/// How many suits a suit mask holds. A table: without the `popcnt` instruction (not in the
/// baseline x86-64 target) `count_ones` is a dozen instructions, and random play asks this several
/// times per action.
fn ones(mask: u8) -> usize {
    const ONES: [u8; 16] = [0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4];
    debug_assert!(mask < 16, "a suit mask has four bits");
    usize::from(ONES[usize::from(mask & 15)])
}

/// The suit of the `k`-th set bit of `mask` (`k` < its number of bits), in the canonical order.
fn nth_suit(mask: u8, k: usize) -> Res {
    Res::ALL[nth_bit(mask, k).min(3)]
}

/// The index of the `k`-th set bit of a four-bit `mask` (`k` < its number of bits; 0 past
/// them). A table: clearing `k` bits in a loop ends at a random trip count, a branch the processor
/// mispredicts, and random play asks this on most decisions that take a suit.
fn nth_bit(mask: u8, k: usize) -> usize {
    /// `NTH[mask][k]`, worked out when compiling.
    const NTH: [[u8; 4]; 16] = {
        let mut t = [[0u8; 4]; 16];
        let mut mask = 0;
        while mask < 16 {
            let (mut bit, mut k) = (0, 0);
            while bit < 4 {
                if mask & (1 << bit) != 0 {
                    t[mask][k] = bit as u8;
                    k += 1;
                }
                bit += 1;
            }
            mask += 1;
        }
        t
    };
    debug_assert!(mask < 16 && k < ones(mask), "nth_bit({mask:#b}, {k})");
    usize::from(NTH[usize::from(mask & 15)][k & 3])
}

/// The pieces (bit `Piece::index`) a hand pays for with the suits it holds four of (bit
/// `Res::index`): Fort four Diamonds, Barracks four Clubs, Temple four Hearts, Palace four Spades.
const PAID_BY_FOURS: [u8; 16] = {
    // Suit H, S, C, D -> Temple (3), Palace (4), Barracks (2), Fort (1).
    const PIECE_OF_SUIT: [u8; 4] = [3, 4, 2, 1];
    let mut t = [0u8; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut suit = 0;
        while suit < 4 {
            if mask & (1 << suit) != 0 {
                t[mask] |= 1 << PIECE_OF_SUIT[suit];
            }
            suit += 1;
        }
        mask += 1;
    }
    t
};

/// How many offers the main phase may open with (none when no more offers are allowed).
#[inline(always)]
fn offer_count(offers: bool, items: OfferItems) -> usize {
    if offers { items.count() } else { 0 }
}

/// How many bank trades a hand with four of each suit of `pays` has: for each suit paid, a
/// resource of each suit in the bank (`in_bank`) or of the paid suit itself, and the top
/// territory card when the pile has one.
#[inline(always)]
fn bank_count(pays: u8, in_bank: u8, pile: bool) -> usize {
    ones(pays) * (ones(in_bank) + usize::from(pile)) + ones(pays & !in_bank)
}

/// The `k`-th bank trade, in the order they are listed.
#[inline(always)]
fn bank_at(pays: u8, in_bank: u8, pile: bool, mut k: usize) -> Option<Action> {
    for pay in Res::ALL {
        if pays & (1 << pay.index()) == 0 {
            continue;
        }
        let takes = in_bank | (1 << pay.index());
        if k < ones(takes) {
            return Some(Action::Bank(pay, BankTake::Res(nth_suit(takes, k))));
        }
        k -= ones(takes);
        if pile {
            if k == 0 {
                return Some(Action::Bank(pay, BankTake::Territory));
            }
            k -= 1;
        }
    }
    None
}

/// The `k`-th usable ability of the mask `abilities`.
#[inline(always)]
fn ability_at(abilities: u8, k: usize) -> Option<Action> {
    (k < ones(abilities))
        .then(|| Ability::ALL.get(nth_bit(abilities, k)).copied())
        .flatten()
        .map(Action::Use)
}

/// How many Expand placements a hand of territory cards `hand` has beside the grid `cells`:
/// every empty cell sharing an edge with a card, with every card of the hand.
fn expand_count(cells: &CellMap, hand: CardSet) -> usize {
    let mut n = 0;
    cells.for_each_expansion_cell(|_| n += 1);
    n * hand.len()
}

/// The `k`-th Expand placement (cell by cell, each with every card of `hand`).
fn expand_at(cells: &CellMap, hand: CardSet, k: usize) -> Option<(super::Point, Card)> {
    let cards = hand.len();
    let want = k.checked_div(cards)?;
    let (mut i, mut found) = (0, None);
    cells.for_each_expansion_cell(|cell| {
        if i == want {
            found = Some(cell);
        }
        i += 1;
    });
    Some((found?, hand.iter().nth(k % cards)?))
}

/// The items a trade offer can still gain, in the order they are listed: a resource of each
/// `give` suit, each card of `cards`, a resource of each `ask` suit, and one more territory card
/// asked for when `ask_territory`. Opening an offer (the main phase) and adding to an open one
/// list the same sequence.
#[derive(Clone, Copy)]
struct OfferItems {
    give: u8,
    cards: CardSet,
    /// `cards.len()`, counted once (a population count is a dozen instructions on the baseline
    /// x86-64 target, and a draw needs it twice).
    n_cards: usize,
    ask: u8,
    ask_territory: bool,
}

impl OfferItems {
    #[inline(always)]
    fn new(give: u8, cards: CardSet, ask: u8, ask_territory: bool) -> Self {
        OfferItems {
            give,
            cards,
            n_cards: cards.len(),
            ask,
            ask_territory,
        }
    }

    #[inline(always)]
    fn count(self) -> usize {
        ones(self.give) + self.n_cards + ones(self.ask) + usize::from(self.ask_territory)
    }

    fn list(self, out: &mut Vec<Action>) {
        push_suits(self.give, out, |r| Action::Give(Item::Res(r)));
        out.extend(self.cards.iter().map(|c| Action::Give(Item::Territory(c))));
        push_suits(self.ask, out, Action::AskRes);
        if self.ask_territory {
            out.push(Action::AskTerritory);
        }
    }

    /// The item at index `k`; past the items, `after(k - count)`.
    #[inline(always)]
    fn at(self, mut k: usize, after: impl FnOnce(usize) -> Option<Action>) -> Option<Action> {
        if k < ones(self.give) {
            return Some(Action::Give(Item::Res(nth_suit(self.give, k))));
        }
        k -= ones(self.give);
        if k < self.n_cards {
            return self
                .cards
                .iter()
                .nth(k)
                .map(|c| Action::Give(Item::Territory(c)));
        }
        k -= self.n_cards;
        if k < ones(self.ask) {
            return Some(Action::AskRes(nth_suit(self.ask, k)));
        }
        k -= ones(self.ask);
        match (self.ask_territory, k) {
            (true, 0) => Some(Action::AskTerritory),
            (true, k) => after(k - 1),
            (false, k) => after(k),
        }
    }
}

/// The actions of a phase whose choices are "a suit", "a card" or a fixed answer (Temple, discard,
/// respond, hand over, pay), in the order they are listed: `suit(r)` for each suit of `suits`,
/// `card(c)` for each card of `cards`, then each action of `tail`.
#[derive(Clone, Copy)]
struct Seq {
    suits: u8,
    suit: fn(Res) -> Action,
    cards: CardSet,
    card: fn(Card) -> Action,
    tail: &'static [Action],
}

impl Seq {
    #[inline(always)]
    fn count(self) -> usize {
        ones(self.suits) + self.cards.len() + self.tail.len()
    }

    fn list(self, out: &mut Vec<Action>) {
        push_suits(self.suits, out, self.suit);
        out.extend(self.cards.iter().map(self.card));
        out.extend_from_slice(self.tail);
    }

    #[inline(always)]
    fn at(self, mut k: usize) -> Option<Action> {
        if k < ones(self.suits) {
            return Some((self.suit)(nth_suit(self.suits, k)));
        }
        k -= ones(self.suits);
        if k < self.cards.len() {
            return self.cards.iter().nth(k).map(self.card);
        }
        self.tail.get(k - self.cards.len()).cloned()
    }
}

impl Territories {
    /// Appends `seat`'s legal actions to `out`.
    pub fn legal(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.seat_to_act() != Some(seat) {
            return;
        }
        let _ = self.emit_legal(seat, &mut ListAll(out));
    }

    /// How many legal actions `seat` has: the length of [`Territories::legal`]'s list, without
    /// listing it.
    pub fn legal_count(&self, seat: Seat) -> usize {
        let mut count = 0;
        self.pick_with(
            seat,
            |n| {
                count = n;
                n
            },
            &mut Vec::new(),
        );
        count
    }

    /// The action at index `k` of [`Territories::legal`]'s list, listing at most the part of the
    /// list it falls in; `None` past the end.
    pub fn legal_at(&self, seat: Seat, k: usize, scratch: &mut Vec<Action>) -> Option<Action> {
        self.pick_with(seat, |_| k, scratch)
    }

    /// Draws one of `seat`'s legal actions uniformly: the action `legal`'s list holds at
    /// `rng.random_range(0..len)`, with that very draw from `rng` (see the module docs; the draw is
    /// [`draw_index`], which is that).
    pub fn random_legal(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        scratch: &mut Vec<Action>,
    ) -> Option<Action> {
        self.pick_with(seat, |n| draw_index(rng, n), scratch)
    }

    /// A random step in the main phase with no offer open (the current player's decision): the
    /// sections of [`Territories::emit_main`] counted once, the index drawn as
    /// [`Territories::random_legal`] draws it, and the action found in its section, without the
    /// counting and picking passes of the generic description.
    #[inline(never)]
    pub(crate) fn random_main_step(&mut self, rng: &mut GameRng) -> bool {
        let seat = self.current;
        let ctx = self.main_ctx(seat);
        let pile = !self.pile.is_empty();
        let build = self.build_count(ctx.town);
        let upgrade = self.upgrade_count(seat, ctx.affordable);
        let offer = offer_count(ctx.offers, ctx.items);
        let bank = bank_count(ctx.pays, ctx.in_bank, pile);
        let ability = ones(ctx.abilities);
        let mut k = draw_index(rng, build + upgrade + offer + bank + ability + 1);
        if k < build {
            let Some(p) = self.free_intersection_at(k) else {
                return false;
            };
            self.build_town(seat, p);
            return true;
        }
        k -= build;
        if k < upgrade {
            return self.exec_drawn(self.upgrade_at(seat, ctx.affordable, k));
        }
        k -= upgrade;
        if k < offer {
            // Opening an offer with its first item.
            self.add_offer_item(ctx.items, k);
            return true;
        }
        k -= offer;
        if k < bank {
            return self.exec_drawn(bank_at(ctx.pays, ctx.in_bank, pile, k));
        }
        k -= bank;
        if k < ability {
            return self.exec_drawn(ability_at(ctx.abilities, k));
        }
        self.end_turn();
        true
    }

    /// Applies a drawn action; `false` when there is none.
    #[inline(always)]
    fn exec_drawn(&mut self, action: Option<Action>) -> bool {
        match action {
            Some(a) => {
                self.exec(&a);
                true
            }
            None => false,
        }
    }

    /// A random step in a Temple, discard, hand-over or pay phase of `seat` (the seat that owes
    /// the decision): the action drawn from the phase's description ([`Seq`]) as
    /// [`Territories::random_legal`] draws it, applied by the method `exec` calls for it, without
    /// the way through `exec`'s dispatch. `false` (nothing drawn) when the phase offers no action.
    #[inline(always)]
    pub(crate) fn random_seq_step(&mut self, seat: Seat, rng: &mut GameRng) -> bool {
        let Some(seq) = self.seq_phase(seat) else {
            return false;
        };
        let n = seq.count();
        if n == 0 {
            return false;
        }
        match seq.at(draw_index(rng, n)) {
            Some(Action::TempleTake(r)) => self.temple_take(seat, r),
            Some(Action::Pay(r)) => self.pay_for_ability(seat, r),
            Some(Action::Discard(item)) => self.discard(seat, item),
            Some(Action::HandOver(c)) => self.hand_over(seat, c),
            _ => return false,
        }
        true
    }

    /// A random step in the placement phase of Survey or Expand (the current player's): the
    /// placement drawn as [`Territories::random_legal`] draws it from the phase's list (cell by
    /// cell, each with every card of the hand), found and applied directly. `false` (nothing
    /// drawn) when there is no placement.
    #[inline(always)]
    pub(crate) fn random_place_step(&mut self, ability: Ability, rng: &mut GameRng) -> bool {
        let seat = self.current;
        let hand = self.hands[seat.index()].territories;
        if ability == Ability::Survey {
            let n = self.survey_count(hand);
            if n == 0 {
                return false;
            }
            let Some((cell, card)) = self.survey_at(hand, draw_index(rng, n)) else {
                return false;
            };
            self.survey(seat, cell, card);
            return true;
        }
        let map = CellMap::new(&self.grid);
        let n = expand_count(&map, hand);
        if n == 0 {
            return false;
        }
        let Some((cell, card)) = expand_at(&map, hand, draw_index(rng, n)) else {
            return false;
        };
        self.expand(seat, cell, card);
        true
    }

    /// A random step in the respond phase: the opponent accepts or declines, drawn exactly as
    /// [`Territories::random_legal`] draws from the phase's list (`[Accept, Decline]` when the hand
    /// can pay what is asked, else `[Decline]`), and the answer applied as `exec` would.
    #[inline(always)]
    pub(crate) fn random_respond_step(&mut self, offer: Offer, rng: &mut GameRng) {
        debug_assert!(matches!(self.phase, Phase::Respond) && self.offer == Some(offer));
        let can_accept = self.hands[other(self.current).index()].can_pay(&offer);
        if can_accept && draw_index(rng, 2) == 0 {
            self.accept_offer();
        } else {
            if !can_accept {
                // The list `[Decline]` is drawn from all the same.
                let _ = draw_index(rng, 1);
            }
            self.decline_offer();
        }
    }

    /// A random step while an offer is open in the main phase: draws the action exactly as
    /// [`Territories::random_legal`] does (from [`OfferItems::at`]) and applies it as `exec` would,
    /// editing the offer in place in the branch that found it (one unpredictable choice per step
    /// instead of a choice and then a dispatch on the action chosen). `check_random_step` holds it
    /// to the definition on every state of the property tests.
    #[inline(always)]
    pub(crate) fn random_offer_step(&mut self, rng: &mut GameRng) {
        debug_assert!(matches!(self.phase, Phase::Main) && self.offer.is_some());
        let Some(offer) = self.offer.as_ref() else {
            return;
        };
        let items = self.offer_items(self.current, offer);
        let k = draw_index(rng, items.count() + 2);
        let gives = ones(items.give);
        let asks = ones(items.ask);
        if k >= gives + items.n_cards + asks + usize::from(items.ask_territory) {
            // Propose or withdraw.
            match k - (gives + items.n_cards + asks + usize::from(items.ask_territory)) {
                0 => self.phase = Phase::Respond,
                _ => self.offer = None,
            }
            return;
        }
        self.add_offer_item(items, k);
    }

    /// Adds item `k` of `items` (in the order [`OfferItems::at`] gives them, `k` below their
    /// count) to the offer, opening it first when none is open: what `exec` does with the action
    /// `items.at(k)`.
    #[inline(always)]
    fn add_offer_item(&mut self, items: OfferItems, mut k: usize) {
        let gives = ones(items.give);
        let asks = ones(items.ask);
        let offer = self.open_offer();
        if k < gives {
            offer.give_res[nth_suit(items.give, k).index()] += 1;
            return;
        }
        k -= gives;
        if k < items.n_cards {
            if let Some(c) = items.cards.iter().nth(k) {
                offer.give_cards.insert(c);
            }
            return;
        }
        k -= items.n_cards;
        if k < asks {
            offer.ask_res[nth_suit(items.ask, k).index()] += 1;
        } else {
            offer.ask_territories += 1;
        }
    }

    /// The action at index `choose(n)` of `legal`'s list of `n` actions (`choose` is called only
    /// when there is at least one; `None` if it returns `n` or more).
    #[inline(always)]
    fn pick_with(
        &self,
        seat: Seat,
        choose: impl FnOnce(usize) -> usize,
        scratch: &mut Vec<Action>,
    ) -> Option<Action> {
        if let Phase::Main = self.phase {
            // The main phase's decisions (most of a random game's) are the current player's.
            if seat != self.current {
                return None;
            }
            return match &self.offer {
                Some(offer) => self.pick_offer(seat, offer, choose),
                None => self.pick_main(seat, choose, scratch),
            };
        }
        if self.seat_to_act() != Some(seat) {
            return None;
        }
        if let Some(seq) = self.seq_phase(seat) {
            let n = seq.count();
            return if n == 0 { None } else { seq.at(choose(n)) };
        }
        let mut counter = Counter::default();
        let _ = self.emit_other(seat, &mut counter);
        self.pick_counted(&counter, choose, scratch, |e| {
            let _ = self.emit_other(seat, e);
        })
    }

    /// The main phase with no offer open: counts its sections, then lists only the one the drawn
    /// index falls in (or finds the action there directly).
    #[inline(never)]
    fn pick_main(
        &self,
        seat: Seat,
        choose: impl FnOnce(usize) -> usize,
        scratch: &mut Vec<Action>,
    ) -> Option<Action> {
        let ctx = self.main_ctx(seat);
        let mut counter = Counter::default();
        let _ = self.emit_main(seat, &ctx, &mut counter);
        self.pick_counted(&counter, choose, scratch, |e| {
            let _ = self.emit_main(seat, &ctx, e);
        })
    }

    /// With the counts of the sections: the action at index `choose(total)`, listing only its
    /// section by running `emit` again.
    #[inline(always)]
    fn pick_counted(
        &self,
        counter: &Counter,
        choose: impl FnOnce(usize) -> usize,
        scratch: &mut Vec<Action>,
        emit: impl FnOnce(&mut Picker<'_>),
    ) -> Option<Action> {
        if counter.total == 0 {
            return None;
        }
        let k = choose(counter.total);
        if k >= counter.total {
            return None;
        }
        let mut picker = Picker {
            k,
            counts: &counter.counts,
            section: 0,
            scratch,
            found: None,
        };
        emit(&mut picker);
        debug_assert!(
            picker.found.is_some(),
            "a section listed fewer actions than counted"
        );
        picker.found
    }

    /// While an offer is open: the action at index `choose(n)` of the `n` listed by
    /// [`Territories::emit_offer`], found without listing (half of a random game's decisions).
    /// Found from [`OfferItems::at`] rather than run through `emit_offer` with a counter and a
    /// picker: those two passes cost 14 % more instructions per random game and the whole time
    /// gain (measured), and the property tests check this against the list on every state they
    /// reach.
    #[inline(always)]
    fn pick_offer(
        &self,
        seat: Seat,
        offer: &Offer,
        choose: impl FnOnce(usize) -> usize,
    ) -> Option<Action> {
        let items = self.offer_items(seat, offer);
        items.at(choose(items.count() + 2), |k| match k {
            0 => Some(Action::Propose),
            1 => Some(Action::Withdraw),
            _ => None,
        })
    }

    /// What the open offer of `seat` (who made it) can still gain.
    #[inline(always)]
    fn offer_items(&self, seat: Seat, offer: &Offer) -> OfferItems {
        let hand = &self.hands[seat.index()];
        let opp = &self.hands[1 - seat.index()];
        OfferItems::new(
            suits_above(hand.resources, offer.give_res),
            hand.territories.without(offer.give_cards),
            suits_above(opp.resources, offer.ask_res),
            opp.territories
                .more_than(usize::from(offer.ask_territories)),
        )
    }

    /// Describes `seat`'s legal actions (the seat owes the decision) section by section.
    #[inline(always)]
    fn emit_legal(&self, seat: Seat, e: &mut impl Emit) -> ControlFlow<()> {
        match (&self.phase, &self.offer) {
            (Phase::Main, Some(offer)) => self.emit_offer(seat, offer, e),
            (Phase::Main, None) => self.emit_main(seat, &self.main_ctx(seat), e),
            _ => self.emit_other(seat, e),
        }
    }

    /// While an offer is open: add a card to it, propose or withdraw it.
    fn emit_offer(&self, seat: Seat, offer: &Offer, e: &mut impl Emit) -> ControlFlow<()> {
        let items = self.offer_items(seat, offer);
        e.section(|| items.count(), |out| items.list(out))?;
        e.section(
            || 2,
            |out| {
                out.push(Action::Propose);
                out.push(Action::Withdraw);
            },
        )
    }

    /// What the main phase's sections depend on, worked out once per decision.
    #[inline(always)]
    fn main_ctx(&self, seat: Seat) -> MainCtx {
        let me = seat.index();
        let hand = &self.hands[me];
        let opp = &self.hands[1 - me];
        // The buildings' summary: own supply, own piece kinds, opponent Towns.
        let owned = self.buildings.owned(seat);
        let exhausted = self.buildings.exhausted(seat);
        let opp_town = self.buildings.owned(other(seat)) & (1 << Piece::Town.index()) != 0;
        // What the hand pays for, from the suit masks (every cost asks 1, 2 or 4 of a suit:
        // `paid_by_suit_masks` checks the table against the costs).
        let have = suits_above(hand.resources, [0; 4]);
        let pays = suits_above(hand.resources, [3; 4]);
        let all_four = have == 0b1111;
        let capital = u8::from(suits_above(hand.resources, [1; 4]) == 0b1111);
        let affordable =
            (PAID_BY_FOURS[usize::from(pays)] | capital << Piece::Capital.index()) & !exhausted;
        debug_assert!(Piece::ALL.iter().all(|&piece| piece == Piece::Town
            || (affordable & (1 << piece.index()) != 0)
                == (exhausted & (1 << piece.index()) == 0 && hand.covers(piece.cost()))));
        MainCtx {
            town: exhausted & (1 << Piece::Town.index()) == 0 && all_four,
            affordable,
            offers: self.offers_made < self.options.max_offers,
            items: OfferItems::new(
                have,
                hand.territories,
                suits_above(opp.resources, [0; 4]),
                !opp.territories.is_empty(),
            ),
            pays,
            in_bank: suits_above(self.bank, [0; 4]),
            abilities: self.usable_abilities(seat, owned, opp_town, all_four),
        }
    }

    /// The abilities `seat` may use now (bit `Ability::bit`), given the piece kinds it has on the
    /// grid, whether the opponent has a Town and whether the hand holds every suit: each once a
    /// turn, with the building that grants it or a Capital; Survey and Expand with a territory
    /// card in hand, Raid and Convert paying one of each suit, Raid against a Town, Convert with a
    /// target.
    #[inline(always)]
    fn usable_abilities(&self, seat: Seat, owned: u8, opp_town: bool, all_four: bool) -> u8 {
        // The buildings granting Survey, Raid, Convert and Expand are pieces 1 to 4, in the
        // abilities' order (`abilities_follow_their_buildings` checks it).
        let granted = if owned & (1 << Piece::Capital.index()) != 0 {
            0b1111
        } else {
            (owned >> 1) & 0b1111
        };
        let mut usable = granted & !self.abilities_used;
        let hand = &self.hands[seat.index()];
        if hand.territories.is_empty() {
            usable &= !(Ability::Survey.bit() | Ability::Expand.bit());
        }
        if !all_four || !opp_town {
            usable &= !Ability::Raid.bit();
        }
        if usable & Ability::Convert.bit() != 0 && !(all_four && self.can_convert(seat)) {
            usable &= !Ability::Convert.bit();
        }
        debug_assert!(
            Ability::ALL
                .iter()
                .all(|&a| (usable & a.bit() != 0) == self.ability_usable(seat, a))
        );
        usable
    }

    /// The main phase with no offer open.
    #[inline(always)]
    fn emit_main(&self, seat: Seat, ctx: &MainCtx, e: &mut impl Emit) -> ControlFlow<()> {
        let MainCtx {
            town,
            affordable,
            offers,
            items,
            pays,
            in_bank,
            abilities,
        } = *ctx;
        // Build a Town on any free intersection.
        e.section_at(
            || self.build_count(town),
            |out| {
                if town {
                    self.list_free_intersections(|p| out.push(Action::Build(p)));
                }
            },
            |k| self.free_intersection_at(k).map(Action::Build),
        )?;
        // Upgrades: only pieces in the supply that the hand can pay for.
        e.section_at(
            || self.upgrade_count(seat, affordable),
            |out| self.for_each_upgrade(seat, affordable, |a| out.push(a)),
            |k| self.upgrade_at(seat, affordable, k),
        )?;
        // Open a trade offer.
        e.section_at(
            || offer_count(offers, items),
            |out| {
                if offers {
                    items.list(out);
                }
            },
            |k| items.at(k, |_| None),
        )?;
        // Bank trades: four of a suit for any suit the bank has (or the same suit), or the top
        // territory card.
        let pile = !self.pile.is_empty();
        e.section_at(
            || bank_count(pays, in_bank, pile),
            |out| {
                for pay in Res::ALL {
                    if pays & (1 << pay.index()) != 0 {
                        push_suits(in_bank | (1 << pay.index()), out, |take| {
                            Action::Bank(pay, BankTake::Res(take))
                        });
                        if pile {
                            out.push(Action::Bank(pay, BankTake::Territory));
                        }
                    }
                }
            },
            |k| bank_at(pays, in_bank, pile, k),
        )?;
        // Abilities, each once a turn, with the building that grants it (or a Capital).
        e.section_at(
            || ones(abilities),
            |out| {
                for ability in Ability::ALL {
                    if abilities & ability.bit() != 0 {
                        out.push(Action::Use(ability));
                    }
                }
            },
            |k| ability_at(abilities, k),
        )?;
        e.section_at(
            || 1,
            |out| out.push(Action::EndTurn),
            |k| (k == 0).then_some(Action::EndTurn),
        )
    }

    /// The actions of `seat` in a Temple, discard, respond, hand-over or pay phase (`None` in any
    /// other phase).
    #[inline(never)]
    fn seq_phase(&self, seat: Seat) -> Option<Seq> {
        let hand = &self.hands[seat.index()];
        let mut seq = Seq {
            suits: 0,
            suit: Action::Pay,
            cards: CardSet::EMPTY,
            // Never called while `cards` is empty.
            card: Action::HandOver,
            tail: &[],
        };
        match &self.phase {
            Phase::Temple { .. } => {
                seq.suits = suits_above(self.bank, [0; 4]);
                seq.suit = Action::TempleTake;
            }
            Phase::Discard { .. } => {
                seq.suits = suits_above(hand.resources, [0; 4]);
                seq.suit = |r| Action::Discard(Item::Res(r));
                if self.options.hand_limit_counts_territories {
                    seq.cards = hand.territories;
                    seq.card = |c| Action::Discard(Item::Territory(c));
                }
            }
            Phase::Respond => {
                let accept = self.offer.is_some_and(|offer| hand.can_pay(&offer));
                seq.tail = if accept {
                    &[Action::Accept, Action::Decline]
                } else if self.offer.is_some() {
                    &[Action::Decline]
                } else {
                    &[]
                };
            }
            Phase::HandOver { .. } => {
                seq.cards = hand.territories;
                seq.card = Action::HandOver;
            }
            Phase::Pay { .. } => seq.suits = suits_above(hand.resources, [0; 4]),
            _ => return None,
        }
        Some(seq)
    }

    /// The phases other than the main phase.
    #[inline(never)]
    fn emit_other(&self, seat: Seat, e: &mut impl Emit) -> ControlFlow<()> {
        if let Some(seq) = self.seq_phase(seat) {
            return e.section_at(|| seq.count(), |out| seq.list(out), |k| seq.at(k));
        }
        let me = seat.index();
        let hand = &self.hands[me];
        match &self.phase {
            Phase::Setup { .. } => e.section_at(
                || self.free_intersection_count(),
                |out| self.list_free_intersections(|p| out.push(Action::Place(p))),
                |k| self.free_intersection_at(k).map(Action::Place),
            ),
            Phase::Main => self.emit_main(seat, &self.main_ctx(seat), e),
            Phase::Place {
                ability: Ability::Survey,
            } => e.section_at(
                || self.survey_count(hand.territories),
                |out| {
                    for cell in &self.grid {
                        for card in hand.territories {
                            out.push(Action::Survey(cell.at, card));
                        }
                    }
                },
                |k| {
                    self.survey_at(hand.territories, k)
                        .map(|(cell, card)| Action::Survey(cell, card))
                },
            ),
            Phase::Place { .. } => {
                let cells = CellMap::new(&self.grid);
                e.section_at(
                    || expand_count(&cells, hand.territories),
                    |out| {
                        cells.for_each_expansion_cell(|cell| {
                            for card in hand.territories {
                                out.push(Action::Expand(cell, card));
                            }
                        })
                    },
                    |k| {
                        expand_at(&cells, hand.territories, k)
                            .map(|(cell, card)| Action::Expand(cell, card))
                    },
                )
            }
            Phase::Target {
                ability: Ability::Raid,
            } => {
                let towns = || {
                    self.buildings
                        .iter()
                        .filter(move |b| b.owner != seat && b.piece == Piece::Town)
                };
                e.section(
                    || towns().count(),
                    |out| out.extend(towns().map(|b| Action::Raze(b.at))),
                )
            }
            Phase::Target { .. } => e.section(
                || {
                    let mut n = 0;
                    self.for_each_convert(seat, |_, _| {
                        n += 1;
                        true
                    });
                    n
                },
                |out| {
                    self.for_each_convert(seat, |p, piece| {
                        out.push(Action::Convert(p, piece));
                        true
                    })
                },
            ),
            _ => ControlFlow::Continue(()),
        }
    }

    /// How many Survey placements a hand of territory cards `hand` has: every grid card with
    /// every card of the hand.
    fn survey_count(&self, hand: CardSet) -> usize {
        self.grid.len() * hand.len()
    }

    /// The `k`-th Survey placement (cell by cell, each with every card of `hand`).
    fn survey_at(&self, hand: CardSet, k: usize) -> Option<(super::Point, Card)> {
        let cards = hand.len();
        let cell = self.grid.get(k.checked_div(cards)?)?;
        Some((cell.at, hand.iter().nth(k % cards)?))
    }

    /// How many Towns may be built (on every free intersection, when `town`: a Town in the
    /// supply and a hand that pays).
    #[inline(always)]
    fn build_count(&self, town: bool) -> usize {
        if town {
            self.free_intersection_count()
        } else {
            0
        }
    }

    /// The `k`-th upgrade of [`Territories::for_each_upgrade`].
    #[inline(always)]
    fn upgrade_at(&self, seat: Seat, affordable: u8, k: usize) -> Option<Action> {
        let (mut i, mut found) = (0, None);
        self.for_each_upgrade(seat, affordable, |a| {
            if i == k {
                found = Some(a);
            }
            i += 1;
        });
        found
    }

    /// How many actions [`Territories::for_each_upgrade`] gives, from the buildings' summary: for
    /// each affordable piece, the seat's buildings it may replace.
    fn upgrade_count(&self, seat: Seat, affordable: u8) -> usize {
        if affordable == 0 {
            return 0;
        }
        let counts = self.buildings.counts(seat);
        let mut n = 0;
        for piece in Piece::ALL {
            if affordable & (1 << piece.index()) != 0 {
                for from in Piece::ALL {
                    if piece.upgrades_from(from) {
                        n += usize::from(counts[from.index()]);
                    }
                }
            }
        }
        n
    }

    /// Calls `f` on every upgrade of `seat`'s buildings to one of the `affordable` pieces (bit
    /// `Piece::index`), building by building.
    #[inline(always)]
    fn for_each_upgrade(&self, seat: Seat, affordable: u8, mut f: impl FnMut(Action)) {
        if affordable == 0 {
            return;
        }
        for b in self.buildings.iter().filter(|b| b.owner == seat) {
            for piece in Piece::ALL {
                if affordable & (1 << piece.index()) != 0 && piece.upgrades_from(b.piece) {
                    f(Action::Upgrade(b.at, piece));
                }
            }
        }
    }

    /// How many intersections have no building: every building stands on an intersection of the
    /// grid, one per intersection (checked by `validate`), and the dealt 5x4 grid has 30.
    fn free_intersection_count(&self) -> usize {
        if self.grid.len() < GRID_CARDS {
            // Before the deal.
            let mut n = 0usize;
            CellMap::new(&self.grid).for_each_intersection(|_| n += 1);
            return n.saturating_sub(self.buildings.len());
        }
        // The dealt rectangle's 6x5 corners and those Expand brought outside it.
        let all = (GRID_W as usize + 1) * (GRID_H as usize + 1) + self.grid.outside_corners().len();
        all.saturating_sub(self.buildings.len())
    }

    /// The `k`-th intersection with no building in `(y, x)` order, without listing them.
    fn free_intersection_at(&self, k: usize) -> Option<super::Point> {
        // The dealt grid's 6x5 corners are bits 0..30 of `y * 6 + x`, in `(y, x)` order.
        let mut dealt = ((1u64 << 30) - 1) & !self.buildings.dealt_corners();
        let outside = self.grid.outside_corners();
        if self.grid.len() == GRID_CARDS || (self.grid.len() > GRID_CARDS && outside.is_empty()) {
            if k >= dealt.count_ones() as usize {
                return None;
            }
            for _ in 0..k {
                dealt &= dealt - 1;
            }
            let bit = dealt.trailing_zeros() as i8;
            return Some((bit % 6, bit / 6));
        }
        if self.grid.len() > GRID_CARDS {
            // The free corners of the dealt rectangle and the free ones outside it, merged in
            // `(y, x)` order.
            let mut outside = outside
                .iter()
                .copied()
                .filter(|&p| !self.buildings.iter().any(|b| b.at == p))
                .peekable();
            let mut k = k;
            loop {
                let next_dealt = (dealt != 0).then(|| {
                    let bit = dealt.trailing_zeros() as i8;
                    (bit % 6, bit / 6)
                });
                let p = match (next_dealt, outside.peek()) {
                    (None, None) => return None,
                    (Some(d), Some(&o)) if (o.1, o.0) < (d.1, d.0) => outside.next(),
                    (Some(d), _) => {
                        dealt &= dealt - 1;
                        Some(d)
                    }
                    (None, Some(_)) => outside.next(),
                };
                if k == 0 {
                    return p;
                }
                k -= 1;
            }
        }
        let (mut i, mut found) = (0, None);
        self.list_free_intersections(|p| {
            if i == k {
                found = Some(p);
            }
            i += 1;
        });
        found
    }

    /// Calls `f` on every intersection with no building, in `(y, x)` order.
    fn list_free_intersections(&self, mut f: impl FnMut(super::Point)) {
        let occupied = self.buildings.dealt_corners();
        self.for_each_intersection(|p| {
            let (x, y) = p;
            let free = if (0..=GRID_W).contains(&x) && (0..=GRID_H).contains(&y) {
                occupied & (1 << (y as u32 * 6 + x as u32)) == 0
            } else {
                !self.buildings.iter().any(|b| b.at == p)
            };
            if free {
                f(p);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of pieces paid for by four of a suit, and the Capital's two of each, against
    /// the costs.
    #[test]
    fn paid_by_suit_masks() {
        use crate::state::Hand;
        for fours in 0u8..16 {
            for twos in [false, true] {
                let mut hand = Hand::default();
                for i in 0..4 {
                    hand.resources[i] = if fours & (1 << i) != 0 {
                        4
                    } else if twos {
                        2
                    } else {
                        1
                    };
                }
                let capital = suits_above(hand.resources, [1; 4]) == 0b1111;
                let paid = PAID_BY_FOURS[usize::from(suits_above(hand.resources, [3; 4]))]
                    | u8::from(capital) << Piece::Capital.index();
                for piece in Piece::ALL.into_iter().filter(|&p| p != Piece::Town) {
                    assert_eq!(
                        paid & (1 << piece.index()) != 0,
                        hand.covers(piece.cost()),
                        "{piece:?} with {:?}",
                        hand.resources
                    );
                }
            }
        }
    }

    #[test]
    fn nth_bit_finds_each_set_bit_of_a_suit_mask() {
        for mask in 0u8..16 {
            let bits: Vec<usize> = (0..4).filter(|&b| mask & (1 << b) != 0).collect();
            assert_eq!(ones(mask), bits.len());
            for (k, &bit) in bits.iter().enumerate() {
                assert_eq!(nth_bit(mask, k), bit, "mask {mask:#06b}, k {k}");
            }
        }
    }

    /// `suits_above` against the four comparisons, for every pair of counts a suit can hold
    /// (0 to 13) in each position, and a few up to 127.
    #[test]
    fn suits_above_compares_the_four_suits() {
        let counts: Vec<u8> = (0..=13).chain([20, 64, 100, 127]).collect();
        for (k, &a) in counts.iter().enumerate() {
            for &b in &counts {
                for i in 0..4 {
                    // `a` against `b` in suit `i`, other suits spread over the counts.
                    let mut x = [0u8; 4];
                    let mut y = [0u8; 4];
                    for j in 0..4 {
                        x[j] = counts[(k + 3 * j) % counts.len()];
                        y[j] = counts[(k * 7 + j) % counts.len()];
                    }
                    x[i] = a;
                    y[i] = b;
                    let want = (0..4).fold(0, |m, j| m | u8::from(x[j] > y[j]) << j);
                    assert_eq!(suits_above(x, y), want, "{x:?} > {y:?}");
                }
            }
        }
    }
}

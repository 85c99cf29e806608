//! The components: resources, territory cards, pieces, abilities, points on the lattice, actions.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tabula_core::Seat;
use ts_rs::TS;

/// A resource (a suit). The bank holds 13 of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Res {
    /// Hearts.
    H,
    /// Spades.
    S,
    /// Clubs.
    C,
    /// Diamonds.
    D,
}

impl Res {
    /// The four resources in their canonical order H, S, C, D.
    pub const ALL: [Res; 4] = [Res::H, Res::S, Res::C, Res::D];

    /// Index into `[u8; 4]` resource arrays (H=0, S=1, C=2, D=3).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The letter of the suit.
    pub fn letter(self) -> char {
        match self {
            Res::H => 'H',
            Res::S => 'S',
            Res::C => 'C',
            Res::D => 'D',
        }
    }

    /// The suit of a letter (upper or lower case).
    pub fn from_letter(c: char) -> Option<Res> {
        match c.to_ascii_uppercase() {
            'H' => Some(Res::H),
            'S' => Some(Res::S),
            'C' => Some(Res::C),
            'D' => Some(Res::D),
            _ => None,
        }
    }
}

impl fmt::Display for Res {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The territory card numbers: ranks 2..6, 8..10, J (11) and Q (12) — never 7.
pub const NUMBERS: [u8; 10] = [2, 3, 4, 5, 6, 8, 9, 10, 11, 12];

/// A territory card: a number (2..12, never 7) and a resource (its suit).
///
/// JSON and notation: the rank then the suit letter, `"2H"`, `"10S"`, `"JC"` (11), `"QD"` (12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "territories/", type = "string")]
pub struct Card {
    /// The production number, 2..=12 except 7.
    pub number: u8,
    /// The resource the card produces.
    pub suit: Res,
}

impl Card {
    /// A card, if `number` is a valid territory number.
    pub fn new(number: u8, suit: Res) -> Option<Card> {
        NUMBERS.contains(&number).then_some(Card { number, suit })
    }

    /// The 40 territory cards in a fixed order (suit by suit, H S C D, numbers ascending).
    pub fn deck() -> Vec<Card> {
        Res::ALL
            .iter()
            .flat_map(|&suit| NUMBERS.iter().map(move |&number| Card { number, suit }))
            .collect()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.number {
            11 => write!(f, "J{}", self.suit),
            12 => write!(f, "Q{}", self.suit),
            n => write!(f, "{n}{}", self.suit),
        }
    }
}

impl std::str::FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Card, String> {
        let s = s.trim();
        let bad = || format!("“{s}” is not a territory card (write e.g. 2H, 10S, JC, QD; no 7s)");
        let last = s.chars().last().ok_or_else(bad)?;
        let suit = Res::from_letter(last).ok_or_else(bad)?;
        let rank = &s[..s.len() - last.len_utf8()];
        let number = match rank.to_ascii_uppercase().as_str() {
            "J" => 11,
            "Q" => 12,
            r => r.parse::<u8>().map_err(|_| bad())?,
        };
        Card::new(number, suit).ok_or_else(bad)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of territory cards (a hand's, the cards of an offer), one bit per card of the 40-card
/// deck, iterated in card order (number, then suit H S C D). It is `Copy`: hands and offers are
/// changed on most actions of a game, and a bit set needs no allocation.
///
/// JSON: a list of cards in card order (`["2H", "QD"]`); reading one accepts any order but not a
/// card listed twice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, TS)]
#[ts(export_to = "territories/", as = "Vec<Card>")]
pub struct CardSet(u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);

    /// The bit of `card`, in card order; `None` for a number no territory card has.
    fn bit(card: Card) -> Option<u32> {
        let rank = match card.number {
            2..=6 => card.number - 2,
            8..=12 => card.number - 3,
            _ => return None,
        };
        Some(u32::from(rank) * 4 + card.suit.index() as u32)
    }

    /// The card of bit `b` (< 40).
    fn card(b: u32) -> Card {
        let b = b as usize;
        Card {
            number: NUMBERS[(b / 4).min(NUMBERS.len() - 1)],
            suit: Res::ALL[b % 4],
        }
    }

    /// How many cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether there is no card.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `card` is in the set.
    pub fn contains(&self, card: &Card) -> bool {
        CardSet::bit(*card).is_some_and(|b| self.0 & (1 << b) != 0)
    }

    /// Adds `card`; `false` if it was there already or is no territory card.
    pub fn insert(&mut self, card: Card) -> bool {
        match CardSet::bit(card) {
            Some(b) if self.0 & (1 << b) == 0 => {
                self.0 |= 1 << b;
                true
            }
            _ => false,
        }
    }

    /// Removes `card`; `false` if it was not there.
    pub fn remove(&mut self, card: Card) -> bool {
        match CardSet::bit(card) {
            Some(b) if self.0 & (1 << b) != 0 => {
                self.0 &= !(1 << b);
                true
            }
            _ => false,
        }
    }

    /// The cards of `self` that are not in `other`.
    pub fn without(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The cards in card order.
    pub fn iter(&self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// The cards in card order, as a vector.
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

/// The cards of a [`CardSet`] in card order.
#[derive(Debug, Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(CardSet::card(b))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl IntoIterator for &CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl FromIterator<Card> for CardSet {
    /// The set of the cards (a card given twice, or a number no territory card has, is not added
    /// twice or at all).
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for c in cards {
            set.insert(c);
        }
        set
    }
}

impl PartialEq<Vec<Card>> for CardSet {
    fn eq(&self, other: &Vec<Card>) -> bool {
        self.iter().eq(other.iter().copied())
    }
}

impl Serialize for CardSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for CardSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        let mut set = CardSet::EMPTY;
        for c in Vec::<Card>::deserialize(d)? {
            if !set.insert(c) {
                return Err(serde::de::Error::custom(format!(
                    "territory card {c} is listed twice"
                )));
            }
        }
        Ok(set)
    }
}

/// A building (a chess piece).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    /// Pawn: 1 point, 8 of them, costs H S C D, placed on an empty intersection.
    Town,
    /// Rook: 2 points, 2 of them, costs D D D D, replaces a Town.
    Fort,
    /// Knight: 2 points, 2 of them, costs C C C C, replaces a Town.
    Barracks,
    /// Bishop: 2 points, 2 of them, costs H H H H, replaces a Town.
    Temple,
    /// Queen: 2 points, 1 of them, costs S S S S, replaces a Town.
    Palace,
    /// King: 3 points, 1 of them, costs D D C C H H S S, replaces a Fort, Barracks, Temple or Palace.
    Capital,
}

impl Piece {
    /// All pieces, lowest first.
    pub const ALL: [Piece; 6] = [
        Piece::Town,
        Piece::Fort,
        Piece::Barracks,
        Piece::Temple,
        Piece::Palace,
        Piece::Capital,
    ];

    /// Index into per-piece arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Victory points.
    pub fn points(self) -> u32 {
        match self {
            Piece::Town => 1,
            Piece::Capital => 3,
            _ => 2,
        }
    }

    /// How many of this piece each player owns.
    pub fn count(self) -> u8 {
        match self {
            Piece::Town => 8,
            Piece::Palace | Piece::Capital => 1,
            _ => 2,
        }
    }

    /// The cost by resource index (H, S, C, D).
    pub fn cost(self) -> [u8; 4] {
        match self {
            Piece::Town => [1, 1, 1, 1],
            Piece::Fort => [0, 0, 0, 4],
            Piece::Barracks => [0, 0, 4, 0],
            Piece::Temple => [4, 0, 0, 0],
            Piece::Palace => [0, 4, 0, 0],
            Piece::Capital => [2, 2, 2, 2],
        }
    }

    /// The tier used by Convert: Town 0, Fort/Barracks/Temple/Palace 1, Capital 2.
    pub fn tier(self) -> u8 {
        match self {
            Piece::Town => 0,
            Piece::Capital => 2,
            _ => 1,
        }
    }

    /// The piece an upgrade to `self` replaces must satisfy this.
    pub fn upgrades_from(self, from: Piece) -> bool {
        match self {
            Piece::Town => false,
            Piece::Capital => from.tier() == 1,
            _ => from == Piece::Town,
        }
    }

    /// The word used in notation and JSON.
    pub fn word(self) -> &'static str {
        match self {
            Piece::Town => "town",
            Piece::Fort => "fort",
            Piece::Barracks => "barracks",
            Piece::Temple => "temple",
            Piece::Palace => "palace",
            Piece::Capital => "capital",
        }
    }

    /// The piece named by `word`.
    pub fn from_word(word: &str) -> Option<Piece> {
        Piece::ALL
            .iter()
            .copied()
            .find(|p| p.word().eq_ignore_ascii_case(word))
    }

    /// One letter for the drawing (upper case for seat 0, lower case for seat 1).
    pub fn letter(self, seat: Seat) -> char {
        let c = match self {
            Piece::Town => 'T',
            Piece::Fort => 'F',
            Piece::Barracks => 'B',
            Piece::Temple => 'E',
            Piece::Palace => 'P',
            Piece::Capital => 'C',
        };
        if seat.0 == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

/// A building ability; each may be used at most once per turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(export_to = "territories/")]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// Capital or Fort: roll 1D6, pay that many, replace a grid card with one from hand.
    Survey,
    /// Capital or Barracks: pay S H D C, duel 1D6 each, destroy an opponent Town on a win.
    Raid,
    /// Capital or Temple: pay S H D C, duel 1D6 each, take over an opponent building on a win.
    Convert,
    /// Capital or Palace: roll 1D6, pay that many, add a card from hand to the grid.
    Expand,
}

impl Ability {
    /// All abilities.
    pub const ALL: [Ability; 4] = [
        Ability::Survey,
        Ability::Raid,
        Ability::Convert,
        Ability::Expand,
    ];

    /// Bit in the per-turn "used" mask.
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The non-Capital building that grants the ability.
    pub fn building(self) -> Piece {
        match self {
            Ability::Survey => Piece::Fort,
            Ability::Raid => Piece::Barracks,
            Ability::Convert => Piece::Temple,
            Ability::Expand => Piece::Palace,
        }
    }

    /// The word used in notation.
    pub fn word(self) -> &'static str {
        match self {
            Ability::Survey => "survey",
            Ability::Raid => "raid",
            Ability::Convert => "convert",
            Ability::Expand => "expand",
        }
    }

    /// The ability named by `word`.
    pub fn from_word(word: &str) -> Option<Ability> {
        Ability::ALL
            .iter()
            .copied()
            .find(|a| a.word().eq_ignore_ascii_case(word))
    }
}

/// A lattice point `(x, y)`: a card cell (the card's lower-left corner) or an intersection.
/// Cells of the initial grid are `(0..5, 0..4)`; intersections of the initial grid are `(0..=5, 0..=4)`.
/// Intersection `(x, y)` touches the cells `(x-1, y-1)`, `(x, y-1)`, `(x-1, y)` and `(x, y)`.
pub type Point = (i8, i8);

/// A card in a hand that can be named in an action: a resource or a specific territory card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    /// One resource card of this suit.
    Res(Res),
    /// This territory card.
    Territory(Card),
}

/// What a 4-for-1 bank trade takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BankTake {
    /// One resource of this suit.
    Res(Res),
    /// The top card of the territory draw pile.
    Territory,
}

/// One atomic decision. Chance actions are `Deal`, `First`, `Roll`, `Die` and `Duel`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Chance: the shuffled territory deck. The first 20 cards are dealt face up row by row
    /// (cells `(0,0) (1,0) … (4,0) (0,1) …`); the other 20 are the draw pile, top first.
    Deal(Vec<Card>),
    /// Chance: this seat is Player 1 (places first and takes the first turn).
    First(Seat),
    /// Chance: the 2D6 production roll (the sum, 2..=12).
    Roll(u8),
    /// Chance: the 1D6 cost roll of Survey or Expand.
    Die(u8),
    /// Chance: the Raid/Convert duel: the user's die, then the opponent's die.
    Duel(u8, u8),
    /// Setup: place a free Town on this intersection.
    Place(Point),
    /// A Temple's production: take one resource of this suit.
    TempleTake(Res),
    /// After a 7: discard one card.
    Discard(Item),
    /// Build a Town on an empty intersection.
    Build(Point),
    /// Replace your building at this intersection with this piece.
    Upgrade(Point, Piece),
    /// Trade offer: add one of your cards to what you give (opens an offer if none is open).
    Give(Item),
    /// Trade offer: add one resource of this suit to what you ask for (opens an offer if none is open).
    AskRes(Res),
    /// Trade offer: ask for one more territory card, of the opponent's choice (opens an offer).
    AskTerritory,
    /// Trade offer: put the open offer to the opponent.
    Propose,
    /// Trade offer: withdraw the open offer before proposing it (it still counts as one of the turn's offers).
    Withdraw,
    /// Opponent: accept the proposed offer.
    Accept,
    /// Opponent: decline the proposed offer.
    Decline,
    /// Opponent, after accepting an offer that asks for territory cards: hand over this one.
    HandOver(Card),
    /// Bank trade: four resources of the first suit for what is taken.
    Bank(Res, BankTake),
    /// Use a building ability.
    Use(Ability),
    /// Pay one resource of this suit towards the Survey/Expand cost just rolled.
    Pay(Res),
    /// Survey: replace the card on this cell with this card from hand.
    Survey(Point, Card),
    /// Expand: add this card from hand to the grid on this empty cell.
    Expand(Point, Card),
    /// Raid won: destroy the opponent's Town on this intersection.
    Raze(Point),
    /// Convert won: replace the opponent's building on this intersection by your piece.
    Convert(Point, Piece),
    /// End the turn.
    EndTurn,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(s: &str) -> Card {
        s.parse().expect("a card")
    }

    #[test]
    fn a_card_set_holds_every_territory_card_once_and_iterates_in_card_order() {
        let deck = Card::deck();
        let set: CardSet = deck.iter().rev().copied().collect();
        assert_eq!(set.len(), 40);
        let mut sorted = deck.clone();
        sorted.sort();
        assert_eq!(set.to_vec(), sorted, "iteration follows Card's order");
        for (k, c) in sorted.iter().enumerate() {
            assert!(set.contains(c));
            assert_eq!(set.iter().nth(k), Some(*c));
        }
        assert_eq!(set.iter().nth(40), None);
        assert_eq!(set.iter().len(), 40);
    }

    #[test]
    fn a_card_set_inserts_and_removes_each_card_once_and_refuses_non_cards() {
        let mut set = CardSet::EMPTY;
        assert!(set.is_empty());
        assert!(set.insert(card("QD")));
        assert!(!set.insert(card("QD")), "already there");
        assert!(set.insert(card("2H")));
        assert!(
            !set.insert(Card {
                number: 7,
                suit: Res::S
            }),
            "no 7s"
        );
        assert!(!set.contains(&Card {
            number: 7,
            suit: Res::S
        }));
        assert_eq!(set, vec![card("2H"), card("QD")]);
        assert!(set.remove(card("2H")));
        assert!(!set.remove(card("2H")), "not there any more");
        assert_eq!(set, vec![card("QD")]);
        let both: CardSet = [card("3S"), card("QD")].into_iter().collect();
        assert_eq!(both.without(set), vec![card("3S")]);
    }

    #[test]
    fn a_card_set_reads_and_writes_json_as_a_list_of_cards() {
        let set: CardSet = [card("10S"), card("2H"), card("JC")].into_iter().collect();
        let json = serde_json::to_string(&set).expect("json");
        assert_eq!(json, r#"["2H","10S","JC"]"#);
        let back: CardSet = serde_json::from_str(r#"["JC","2H","10S"]"#).expect("any order");
        assert_eq!(back, set);
        let twice = serde_json::from_str::<CardSet>(r#"["2H","2H"]"#);
        let err = twice.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("2H is listed twice"), "{err}");
        assert!(
            serde_json::from_str::<CardSet>(r#"["7H"]"#).is_err(),
            "no 7s"
        );
    }
}

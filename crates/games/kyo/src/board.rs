//! Squares, chips, pawns, stacks and the board, with their text forms (used by the JSON state).

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ts_rs::TS;

/// Board width and height.
pub const SIZE: i8 = 10;
/// Number of squares.
pub const SQUARES: usize = 100;

/// A square, `A0`..`J9`: index `row * 10 + column` (column A = 0, row 0 = Gold's back row). Its JSON
/// form is its name (`"E4"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "kyo/", type = "string")]
pub struct Sq(pub u8);

impl Sq {
    /// The square at `col` (0 = A) and `row` (0..=9), if on the board.
    pub fn at(col: i8, row: i8) -> Option<Sq> {
        if (0..SIZE).contains(&col) && (0..SIZE).contains(&row) {
            Some(Sq((row * SIZE + col) as u8))
        } else {
            None
        }
    }
    /// Column, 0 = A.
    pub fn col(self) -> i8 {
        (self.0 % 10) as i8
    }
    /// Row, 0..=9.
    pub fn row(self) -> i8 {
        (self.0 / 10) as i8
    }
    /// The square `dc` columns and `dr` rows away, if on the board.
    pub fn offset(self, dc: i8, dr: i8) -> Option<Sq> {
        Sq::at(self.col() + dc, self.row() + dr)
    }
    /// Index for board arrays.
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    /// Every square, A0, B0, …, J9.
    pub fn all() -> impl Iterator<Item = Sq> {
        (0..SQUARES as u8).map(Sq)
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col() as u8) as char, self.row())
    }
}

impl FromStr for Sq {
    type Err = String;
    fn from_str(s: &str) -> Result<Sq, String> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let c = b[0].to_ascii_uppercase();
            if (b'A'..=b'J').contains(&c) && b[1].is_ascii_digit() {
                return Ok(Sq((b[1] - b'0') * 10 + (c - b'A')));
            }
        }
        Err(format!("“{s}” is not a square (A0..J9)"))
    }
}

impl Serialize for Sq {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Sq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sq, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The 8 directions, in the order N, NE, E, SE, S, SW, W, NW (N = towards row 9).
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// Names of [`DIRS`].
pub const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

/// A direction, index into [`DIRS`]. Even indices are orthogonal, odd ones diagonal. Its JSON form is
/// its name in [`DIR_NAMES`] (`"NE"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, TS)]
#[ts(
    export_to = "kyo/",
    type = r#""N" | "NE" | "E" | "SE" | "S" | "SW" | "W" | "NW""#
)]
pub struct Dir(pub u8);

impl Dir {
    /// Whether the direction is orthogonal (a Dark Mana direction).
    pub fn orthogonal(self) -> bool {
        self.0.is_multiple_of(2)
    }
    /// The Mana colour a Mana move in this direction needs.
    pub fn colour(self) -> ChipKind {
        if self.orthogonal() {
            ChipKind::Dark
        } else {
            ChipKind::Light
        }
    }
    /// The direction from `a` to the adjacent square `b`, if they are adjacent.
    pub fn between(a: Sq, b: Sq) -> Option<Dir> {
        let d = (b.col() - a.col(), b.row() - a.row());
        DIRS.iter().position(|x| *x == d).map(|i| Dir(i as u8))
    }
}

impl Serialize for Dir {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(DIR_NAMES[self.0 as usize % 8])
    }
}

impl<'de> Deserialize<'de> for Dir {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dir, D::Error> {
        let s = String::deserialize(d)?;
        DIR_NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(&s))
            .map(|i| Dir(i as u8))
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "“{s}” is not a direction ({})",
                    DIR_NAMES.join(", ")
                ))
            })
    }
}

/// The kind of a chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChipKind {
    Dark,
    Light,
    Shield,
}

impl ChipKind {
    /// Whether this is a Mana chip (Dark or Light).
    pub fn is_mana(self) -> bool {
        !matches!(self, ChipKind::Shield)
    }
    /// The letter: D, L or S.
    pub fn letter(self) -> char {
        match self {
            ChipKind::Dark => 'D',
            ChipKind::Light => 'L',
            ChipKind::Shield => 'S',
        }
    }
    /// Parses D, L or S (either case).
    pub fn from_letter(c: char) -> Option<ChipKind> {
        match c.to_ascii_uppercase() {
            'D' => Some(ChipKind::Dark),
            'L' => Some(ChipKind::Light),
            'S' => Some(ChipKind::Shield),
            _ => None,
        }
    }
    fn code(self) -> u128 {
        match self {
            ChipKind::Dark => 0,
            ChipKind::Light => 1,
            ChipKind::Shield => 2,
        }
    }
    fn from_code(c: u128) -> ChipKind {
        match c {
            0 => ChipKind::Dark,
            1 => ChipKind::Light,
            _ => ChipKind::Shield,
        }
    }
}

/// A chip: its owner (seat index, 0 = Gold, 1 = Red) and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chip {
    pub owner: u8,
    pub kind: ChipKind,
}

impl Chip {
    pub fn new(owner: u8, kind: ChipKind) -> Chip {
        Chip { owner, kind }
    }
    /// Whether this is a Mana chip of the other side than `me`.
    pub fn is_enemy_mana(self, me: u8) -> bool {
        self.owner != me && self.kind.is_mana()
    }
}

/// The kind of a pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PawnKind {
    Heavy,
    King,
    Queen,
    Tower,
    LightPawn,
    Knight,
    Cannon,
}

impl PawnKind {
    /// The letter of the JSON stack form: H, K, Q, T, P, N, C.
    pub fn letter(self) -> char {
        match self {
            PawnKind::Heavy => 'H',
            PawnKind::King => 'K',
            PawnKind::Queen => 'Q',
            PawnKind::Tower => 'T',
            PawnKind::LightPawn => 'P',
            PawnKind::Knight => 'N',
            PawnKind::Cannon => 'C',
        }
    }
    /// Parses a pawn letter (either case).
    pub fn from_letter(c: char) -> Option<PawnKind> {
        Some(match c.to_ascii_uppercase() {
            'H' => PawnKind::Heavy,
            'K' => PawnKind::King,
            'Q' => PawnKind::Queen,
            'T' => PawnKind::Tower,
            'P' => PawnKind::LightPawn,
            'N' => PawnKind::Knight,
            'C' => PawnKind::Cannon,
            _ => return None,
        })
    }
    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            PawnKind::Heavy => "Heavy",
            PawnKind::King => "King",
            PawnKind::Queen => "Queen",
            PawnKind::Tower => "Tower",
            PawnKind::LightPawn => "Light Pawn",
            PawnKind::Knight => "Knight",
            PawnKind::Cannon => "Cannon",
        }
    }
    /// How many chips this pawn may lift with it.
    pub fn carry_limit(self) -> usize {
        if self == PawnKind::LightPawn { 0 } else { 5 }
    }
    /// Every kind.
    pub const ALL: [PawnKind; 7] = [
        PawnKind::Heavy,
        PawnKind::King,
        PawnKind::Queen,
        PawnKind::Tower,
        PawnKind::LightPawn,
        PawnKind::Knight,
        PawnKind::Cannon,
    ];
}

/// A pawn: owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pawn {
    pub owner: u8,
    pub kind: PawnKind,
}

/// One square's stack: chips bottom to top and at most one pawn on top.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cell {
    pub chips: Vec<Chip>,
    pub pawn: Option<Pawn>,
}

impl Cell {
    /// Nothing on the square.
    pub fn is_empty(&self) -> bool {
        self.chips.is_empty() && self.pawn.is_none()
    }
    /// The top chip, if any.
    pub fn top_chip(&self) -> Option<Chip> {
        self.chips.last().copied()
    }
    /// How many chips of `me` lie in an unbroken run at the top of the chips (directly under the pawn,
    /// if any).
    pub fn own_run(&self, me: u8) -> usize {
        self.chips
            .iter()
            .rev()
            .take_while(|c| c.owner == me)
            .count()
    }
    /// How many of `me`'s Shields lie in an unbroken run at the top of the chips.
    pub fn own_shield_run(&self, me: u8) -> usize {
        self.chips
            .iter()
            .rev()
            .take_while(|c| c.owner == me && c.kind == ChipKind::Shield)
            .count()
    }
    /// The stack's text form: chip letters bottom to top, then the pawn letter; Gold upper case, Red
    /// lower case (e.g. `DDLH`, `sssk`, `DdL`).
    pub fn code(&self) -> String {
        let case = |c: char, owner: u8| {
            if owner == 0 {
                c
            } else {
                c.to_ascii_lowercase()
            }
        };
        let mut s: String = self
            .chips
            .iter()
            .map(|c| case(c.kind.letter(), c.owner))
            .collect();
        if let Some(p) = self.pawn {
            s.push(case(p.kind.letter(), p.owner));
        }
        s
    }
    /// Parses the text form of [`Cell::code`].
    pub fn parse(code: &str) -> Result<Cell, String> {
        let mut cell = Cell::default();
        for ch in code.chars() {
            if cell.pawn.is_some() {
                return Err(format!(
                    "stack “{code}”: the pawn must be the last (top) letter"
                ));
            }
            let owner = if ch.is_ascii_uppercase() { 0 } else { 1 };
            if let Some(kind) = ChipKind::from_letter(ch) {
                cell.chips.push(Chip::new(owner, kind));
            } else if let Some(kind) = PawnKind::from_letter(ch) {
                cell.pawn = Some(Pawn { owner, kind });
            } else {
                return Err(format!(
                    "stack `{code}`: `{ch}` is neither a chip (D L S) nor a pawn (H K Q T P N C); \
                     upper case is Gold, lower case Red"
                ));
            }
        }
        Ok(cell)
    }
}

/// The board: 100 stacks, indexed by [`Sq::idx`]. Its JSON form maps each occupied square's name to
/// its stack's [`Cell::code`] (`{"A0": "DDLH", "A9": "dddh"}`); empty squares are absent.
#[derive(Clone, Debug, PartialEq, Eq, Hash, TS)]
#[ts(export_to = "kyo/", type = "{ [square in string]?: string }")]
pub struct Board {
    pub cells: Vec<Cell>,
}

impl Default for Board {
    fn default() -> Self {
        Board {
            cells: vec![Cell::default(); SQUARES],
        }
    }
}

impl Board {
    pub fn cell(&self, sq: Sq) -> &Cell {
        &self.cells[sq.idx()]
    }
    pub fn cell_mut(&mut self, sq: Sq) -> &mut Cell {
        &mut self.cells[sq.idx()]
    }
    /// Puts a stack written in the text form of [`Cell::code`] on `sq` (for tests and set-ups).
    pub fn set(&mut self, sq: &str, code: &str) -> Result<(), String> {
        let sq: Sq = sq.parse()?;
        self.cells[sq.idx()] = Cell::parse(code)?;
        Ok(())
    }

    /// A 53-bit hash of every stack of the board (not the side to move): the exclusive or of one
    /// hash per non-empty square (of the square and its stack), so a change of two squares updates
    /// it in two steps. The whole-position guard of a turn compares these (stable across runs and
    /// platforms).
    pub fn hash(&self) -> u64 {
        Sq::all().fold(0, |h, sq| {
            let c = self.cell(sq);
            h ^ stack_hash(sq, c.chips.iter().copied(), c.pawn)
        })
    }
}

/// The part of [`Board::hash`] of the stack `chips` (bottom to top) under `pawn` on `sq`: 0 for an
/// empty square, else an FNV-1a digest of the square and the stack, mixed (SplitMix64's finaliser)
/// and cut to 53 bits so that it survives a JSON number.
pub(crate) fn stack_hash(sq: Sq, chips: impl Iterator<Item = Chip>, pawn: Option<Pawn>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    let mut any = false;
    eat(sq.0);
    for ch in chips {
        any = true;
        eat(1 + ch.owner * 4 + ch.kind as u8);
    }
    match pawn {
        Some(p) => eat(16 + p.owner * 8 + p.kind as u8),
        None if !any => return 0,
        None => eat(15),
    }
    let mut z = h;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    z & ((1u64 << 53) - 1)
}

impl Serialize for Board {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<String, String> = Sq::all()
            .filter(|sq| !self.cell(*sq).is_empty())
            .map(|sq| (sq.to_string(), self.cell(sq).code()))
            .collect();
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Board {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        let map = BTreeMap::<String, String>::deserialize(d)?;
        let mut board = Board::default();
        for (k, v) in map {
            let sq: Sq = k.parse().map_err(serde::de::Error::custom)?;
            board.cells[sq.idx()] = Cell::parse(&v).map_err(serde::de::Error::custom)?;
        }
        Ok(board)
    }
}

/// A shuffle's new order of chip kinds, bottom to top (at most 64 chips).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Order {
    len: u8,
    bits: u128,
}

impl Order {
    /// The most chips an order can hold.
    pub const MAX: usize = 64;
    pub fn len(self) -> usize {
        self.len as usize
    }
    pub fn is_empty(self) -> bool {
        self.len == 0
    }
    /// The kind at position `i` (0 = bottom).
    pub fn get(self, i: usize) -> ChipKind {
        ChipKind::from_code((self.bits >> (2 * i)) & 3)
    }
    /// Appends a kind on top (ignored past [`Order::MAX`]).
    pub fn push(&mut self, k: ChipKind) {
        if self.len() < Self::MAX {
            self.bits |= k.code() << (2 * self.len as u32);
            self.len += 1;
        }
    }
    /// The kinds, bottom to top.
    pub fn kinds(self) -> impl Iterator<Item = ChipKind> {
        (0..self.len()).map(move |i| self.get(i))
    }
    /// Builds an order from kinds, bottom to top.
    pub fn from_kinds(kinds: impl IntoIterator<Item = ChipKind>) -> Order {
        let mut o = Order::default();
        for k in kinds {
            o.push(k);
        }
        o
    }
    /// Parses letters such as `DLS` (bottom to top).
    pub fn parse(s: &str) -> Result<Order, String> {
        if s.is_empty() {
            return Err("a shuffle order needs at least one chip letter".into());
        }
        if s.chars().count() > Self::MAX {
            return Err(format!("a shuffle order has at most {} chips", Self::MAX));
        }
        s.chars()
            .map(|c| {
                ChipKind::from_letter(c)
                    .ok_or_else(|| format!("“{c}” in shuffle order “{s}” is not D, L or S"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Order::from_kinds)
    }
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in self.kinds() {
            write!(f, "{}", k.letter())?;
        }
        Ok(())
    }
}

impl Serialize for Order {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Order, D::Error> {
        let s = String::deserialize(d)?;
        Order::parse(&s).map_err(serde::de::Error::custom)
    }
}

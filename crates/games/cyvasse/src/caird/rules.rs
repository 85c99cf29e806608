//! The rules engine: pieces, classes, the capture table, terrain, move generation and attack tests.
//!
//! Positions are mailbox arrays ([`Pos`]) indexed by cell; move generation walks the neighbour table
//! of [`Geo`] and allocates nothing per move. Check detection asks, for every enemy piece, whether it
//! attacks the King's cell (only pieces on a line through the King are traced).

use super::geo::{Geo, MAX_CELLS, NONE};
use super::{BoardKind, CairdAction, CairdOptions, Version};

/// Piece kinds (the index into the spec tables).
pub const KING: u8 = 0;
pub const DRAGON: u8 = 1;
pub const ELEPHANT: u8 = 2;
pub const TREBUCHET: u8 = 3;
pub const CROSSBOW: u8 = 4;
pub const HEAVY: u8 = 5;
pub const LIGHT: u8 = 6;
pub const SPEAR: u8 = 7;
pub const RABBLE: u8 = 8;
pub const MOUNTAIN: u8 = 9;

/// Letters of the piece kinds (upper case = first seat, lower case = second seat on boards).
pub const LETTERS: [char; 10] = ['K', 'D', 'E', 'T', 'C', 'H', 'L', 'S', 'R', 'M'];
/// Full names of the piece kinds.
pub const KIND_NAMES: [&str; 10] = [
    "King",
    "Dragon",
    "Elephant",
    "Trebuchet",
    "Crossbowman",
    "Heavy Horse",
    "Light Horse",
    "Spear",
    "Rabble",
    "Mountain",
];
/// Pieces per side, by kind.
pub const COUNTS: [u8; 10] = [1, 1, 2, 2, 2, 2, 2, 4, 4, 6];

/// Terrain codes.
pub const GRASS: u8 = 0;
pub const HILLS: u8 = 1;
pub const FOREST: u8 = 2;
pub const WATER: u8 = 3;
pub const FORTRESS: u8 = 4;
pub const BURNING: u8 = 5;
/// Terrain letters in the text forms (`.` grassland, `h` hills, `f` forest, `w` water, `c` fortress
/// (castle), `b` burning water).
pub const TERRAIN_LETTERS: [char; 6] = ['.', 'h', 'f', 'w', 'c', 'b'];
/// Terrain names.
pub const TERRAIN_NAMES: [&str; 6] = [
    "Grassland",
    "Hills",
    "Forest",
    "Water",
    "Fortress",
    "burning Water",
];

/// The piece code of `kind` owned by `side` (0 is an empty cell).
#[inline]
pub const fn piece(kind: u8, side: u8) -> u8 {
    1 + kind + 16 * side
}
/// The kind of a non-empty piece code.
#[inline]
pub const fn kind_of(p: u8) -> u8 {
    (p - 1) & 15
}
/// The side of a non-empty piece code.
#[inline]
pub const fn side_of(p: u8) -> u8 {
    (p - 1) >> 4
}

/// Piece categories.
const CAT_KING: u8 = 0;
const CAT_SPECIAL: u8 = 1;
const CAT_RANGED: u8 = 2;
const CAT_CAVALRY: u8 = 3;
const CAT_INFANTRY: u8 = 4;

/// (category, elite) of each kind.
const CLASS: [(u8, bool); 9] = [
    (CAT_KING, false),
    (CAT_SPECIAL, true),
    (CAT_SPECIAL, false),
    (CAT_RANGED, true),
    (CAT_RANGED, false),
    (CAT_CAVALRY, true),
    (CAT_CAVALRY, false),
    (CAT_INFANTRY, true),
    (CAT_INFANTRY, false),
];

/// The rule book's name of each category, by category code.
const CATEGORY_NAMES: [&str; 5] = ["king", "special", "ranged", "cavalry", "infantry"];

/// A category code's name in the rule book ("cavalry").
pub(super) fn category_name(cat: u8) -> &'static str {
    CATEGORY_NAMES
        .get(cat as usize)
        .copied()
        .unwrap_or("special")
}

/// A kind's class in the rule book's words: its category (`"ranged"`) and whether it is elite (the
/// King's level is not used: it takes and is taken by anything). `None` for the Mountain, which has
/// no class and is never captured.
pub fn class_words(kind: u8) -> Option<(&'static str, bool)> {
    let &(cat, elite) = CLASS.get(kind as usize)?;
    Some((CATEGORY_NAMES[cat as usize], elite))
}

/// The class capture table: may a piece of class `a` capture a piece of class `d`?
pub fn class_beats(a: (u8, bool), d: (u8, bool)) -> bool {
    let (ac, ae) = a;
    let (dc, de) = d;
    if dc == CAT_KING || ac == CAT_KING {
        return true;
    }
    if ac == dc {
        return ae || !de;
    }
    let troop = |c: u8| matches!(c, CAT_INFANTRY | CAT_CAVALRY | CAT_RANGED);
    matches!(
        (ac, dc),
        (CAT_INFANTRY, CAT_CAVALRY) | (CAT_CAVALRY, CAT_RANGED) | (CAT_RANGED, CAT_INFANTRY)
    ) || (ac == CAT_SPECIAL && troop(dc))
        || (dc == CAT_SPECIAL && troop(ac) && ae == de)
}

/// A ranged or stay-in-place capture.
#[derive(Debug, Clone, Copy)]
pub struct ShotSpec {
    pub dir_lo: u8,
    pub dir_hi: u8,
    pub range: u8,
    pub over_friend: bool,
    pub over_mountain: bool,
    pub over_enemy: bool,
    /// The Basic Trebuchet: only over at least one Mountain or friendly piece.
    pub need_blocker: bool,
}

/// How a kind moves.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub dir_lo: u8,
    pub dir_hi: u8,
    pub range: u8,
    /// The Dragon: flies over Mountains (and burning water), ignores terrain.
    pub flies: bool,
    pub shot: Option<ShotSpec>,
}

/// The rules in force, derived from the options.
#[derive(Debug, Clone, Copy)]
pub struct Rules {
    pub geo: &'static Geo,
    pub expert: bool,
    pub hex: bool,
    pub specs: [Spec; 9],
    pub reserve: bool,
    pub castle_storming: bool,
    pub wildfyre: bool,
    pub sea: bool,
    /// The longest distance any piece reaches (for attack detection).
    pub reach: u8,
    /// Option c: Trebuchet shots pass over enemy pieces too.
    pub super_trebuchets: bool,
}

/// A position: pieces and terrain per cell, the Kings' cells and the Fortresses' cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub board: [u8; MAX_CELLS],
    pub terrain: [u8; MAX_CELLS],
    /// The cell of each side's King (`NONE` before setup).
    pub kings: [u8; 2],
    /// The cell of the Fortress in each side's half (`NONE` when there is none or it was ruined).
    pub forts: [u8; 2],
    /// Per half (as `forts`): whether the piece standing in that Fortress has captured outside
    /// without moving (a shot) since it entered. Its Fortress effect has then ended: it fights at
    /// its own class until it leaves, and gains the effect again only by entering a Fortress anew.
    pub fort_spent: [bool; 2],
}

impl Pos {
    /// Whether the piece in the Fortress on `cell` has spent its Fortress effect (see
    /// [`Pos::fort_spent`]); false for any other cell.
    #[inline]
    pub fn fortress_spent_at(&self, cell: u8) -> bool {
        (self.forts[0] == cell && self.fort_spent[0])
            || (self.forts[1] == cell && self.fort_spent[1])
    }

    /// A piece entered or left `cell`: if it is a Fortress, its effect is whole again (the piece
    /// that spent it has gone; one that enters gains it anew).
    #[inline]
    fn fortress_changed(&mut self, cell: u8) {
        for h in 0..2 {
            if self.forts[h] == cell {
                self.fort_spent[h] = false;
            }
        }
    }

    pub fn empty() -> Pos {
        Pos {
            board: [0; MAX_CELLS],
            terrain: [GRASS; MAX_CELLS],
            kings: [NONE; 2],
            forts: [NONE; 2],
            fort_spent: [false; 2],
        }
    }

    /// Recomputes the King and Fortress cells from the arrays (`fort_spent` is kept: it is a fact of
    /// the game's history, not of the arrays).
    pub fn refresh(&mut self, geo: &Geo) {
        self.kings = [NONE; 2];
        self.forts = [NONE; 2];
        for c in 0..geo.n {
            let p = self.board[c];
            if p != 0 && kind_of(p) == KING && side_of(p) < 2 {
                self.kings[side_of(p) as usize] = c as u8;
            }
            if self.terrain[c] == FORTRESS {
                let h = geo.home_of[c];
                if h >= 0 {
                    self.forts[h as usize] = c as u8;
                }
            }
        }
    }
}

/// The King's situation for the legality shortcut.
struct Guard {
    checked: bool,
    king: u8,
    /// Directions from the King holding an enemy piece within reach.
    danger: u16,
}

/// What a move did.
#[derive(Debug, Clone, Copy, Default)]
pub struct MoveInfo {
    /// The kind captured, if any.
    pub captured: Option<u8>,
    /// Whether terrain changed (a ruined Fortress, burning water): an irreversible change.
    pub terrain_changed: bool,
}

impl Rules {
    pub fn new(o: &CairdOptions) -> Rules {
        let hex = o.board == BoardKind::Hex;
        let expert = o.version == Version::Expert;
        let geo = Geo::get(if hex {
            super::geo::BoardShape::Hex
        } else if o.large_board {
            super::geo::BoardShape::Square10
        } else {
            super::geo::BoardShape::Square8
        });
        let k = geo.ortho as u8;
        let (ortho, diag, all) = ((0, k), (k, 2 * k), (0, 2 * k));
        let spec = |dirs: (u8, u8), range: u8| Spec {
            dir_lo: dirs.0,
            dir_hi: dirs.1,
            range,
            flies: false,
            shot: None,
        };
        let shot = |dirs: (u8, u8), range: u8, friend: bool, mountain: bool, need: bool| ShotSpec {
            dir_lo: dirs.0,
            dir_hi: dirs.1,
            range,
            over_friend: friend,
            over_mountain: mountain,
            over_enemy: false,
            need_blocker: need,
        };
        let mut specs = [spec(all, 1); 9];
        specs[KING as usize] = spec(all, 1);
        specs[DRAGON as usize] = if hex {
            Spec {
                flies: true,
                ..spec(ortho, 5)
            }
        } else {
            Spec {
                flies: true,
                ..spec(all, 4)
            }
        };
        specs[ELEPHANT as usize] = spec(ortho, 3);
        specs[HEAVY as usize] = spec(diag, 3);
        specs[LIGHT as usize] = spec(diag, 2);
        specs[SPEAR as usize] = spec(all, 1);
        specs[RABBLE as usize] = spec(ortho, 1);
        let bonus = u8::from(hex);
        if expert {
            let mut t = shot(ortho, 3 + bonus, true, true, false);
            t.over_enemy = o.super_trebuchets;
            specs[TREBUCHET as usize] = Spec {
                shot: Some(t),
                ..spec(all, 1)
            };
            let cdirs = if hex { ortho } else { diag };
            specs[CROSSBOW as usize] = Spec {
                shot: Some(shot(cdirs, 2 + bonus, false, false, false)),
                ..spec(cdirs, 2)
            };
        } else {
            let mut t = shot(ortho, 3, true, true, true);
            t.over_enemy = o.super_trebuchets;
            specs[TREBUCHET as usize] = Spec {
                shot: Some(t),
                ..spec(ortho, 3)
            };
            specs[CROSSBOW as usize] = spec(if hex { ortho } else { diag }, 2);
        }
        if o.dragonfyre {
            specs[DRAGON as usize].shot =
                Some(shot(if hex { ortho } else { all }, 2, true, false, false));
        }
        let reach = specs
            .iter()
            .map(|s| s.range.max(s.shot.map_or(0, |t| t.range)))
            .max()
            .unwrap_or(1);
        Rules {
            reach,
            super_trebuchets: o.super_trebuchets,
            geo,
            expert,
            hex,
            specs,
            reserve: o.dragon_reserve,
            castle_storming: o.castle_storming,
            wildfyre: o.wildfyre,
            sea: o.sea_movement,
        }
    }

    /// Movement cost of entering terrain `t` for `kind` (Version C).
    #[inline]
    pub fn cost(t: u8, kind: u8) -> i32 {
        match t {
            HILLS | FOREST => 2,
            WATER => {
                if kind == ELEPHANT {
                    1
                } else {
                    3
                }
            }
            _ => 1,
        }
    }

    /// Whether the piece on `from` may attack at all (pieces on Water cannot, Dragons excepted).
    #[inline]
    pub fn may_attack(&self, pos: &Pos, from: u8, kind: u8) -> bool {
        !(self.expert && kind != DRAGON && pos.terrain[from as usize] == WATER)
    }

    /// The class a piece fights with where it stands: King's morale (elite next to its King) and the
    /// Fortress (a special of its level, unless its effect ended with a shot: [`Pos::fort_spent`]).
    /// Version C only.
    #[inline]
    pub(super) fn class(&self, pos: &Pos, cell: u8, kind: u8, side: u8) -> (u8, bool) {
        let (mut cat, mut elite) = CLASS[kind as usize];
        if self.expert && cat != CAT_KING {
            let k = pos.kings[side as usize];
            if k != NONE && self.geo.adjacent(cell, k) {
                elite = true;
            }
            if pos.terrain[cell as usize] == FORTRESS && !pos.fortress_spent_at(cell) {
                cat = CAT_SPECIAL;
            }
        }
        (cat, elite)
    }

    /// May the piece on `from` capture the piece on `to` (class table, morale, Fortress)?
    #[inline]
    pub fn beats(&self, pos: &Pos, from: u8, to: u8) -> bool {
        let a = pos.board[from as usize];
        let d = pos.board[to as usize];
        let (ak, dk) = (kind_of(a), kind_of(d));
        if dk == MOUNTAIN {
            return false;
        }
        if ak == KING || dk == KING {
            return true;
        }
        class_beats(
            self.class(pos, from, ak, side_of(a)),
            self.class(pos, to, dk, side_of(d)),
        )
    }

    /// Walks a move line from `from` in `dir`, calling `f(cell, enemy)` for each empty cell the piece
    /// may move to and for the enemy cell it may attack (class not checked).
    #[inline]
    pub fn walk_move(&self, pos: &Pos, from: u8, dir: usize, mut f: impl FnMut(u8, bool)) {
        let p = pos.board[from as usize];
        let (kind, side) = (kind_of(p), side_of(p));
        let spec = &self.specs[kind as usize];
        let mut remaining = spec.range as i32;
        let mut cur = from;
        let step = &self.geo.step;
        while remaining > 0 {
            let nxt = step[cur as usize][dir];
            if nxt == NONE {
                break;
            }
            let q = pos.board[nxt as usize];
            let t = pos.terrain[nxt as usize];
            if (q != 0 && kind_of(q) == MOUNTAIN) || t == BURNING {
                if spec.flies {
                    remaining -= 1;
                    cur = nxt;
                    continue;
                }
                break;
            }
            if q != 0 {
                if side_of(q) != side {
                    f(nxt, true);
                }
                break;
            }
            f(nxt, false);
            if !self.expert || spec.flies {
                remaining -= 1;
            } else {
                let c = Self::cost(t, kind);
                if c >= remaining || t == FORTRESS {
                    break;
                }
                remaining -= c;
            }
            cur = nxt;
        }
    }

    /// Walks a shot line, calling `f(cell)` for each enemy the shot may reach (class not checked).
    #[inline]
    pub fn walk_shot(&self, pos: &Pos, from: u8, dir: usize, s: &ShotSpec, mut f: impl FnMut(u8)) {
        let side = side_of(pos.board[from as usize]);
        let mut cur = from;
        let mut over = false;
        for _ in 0..s.range {
            let nxt = self.geo.step[cur as usize][dir];
            if nxt == NONE {
                break;
            }
            cur = nxt;
            let q = pos.board[nxt as usize];
            if q == 0 {
                continue;
            }
            if kind_of(q) == MOUNTAIN {
                if s.over_mountain {
                    over = true;
                    continue;
                }
                break;
            }
            if side_of(q) == side {
                if s.over_friend {
                    over = true;
                    continue;
                }
                break;
            }
            if !s.need_blocker || over {
                f(nxt);
            }
            if s.over_enemy {
                over = true;
                continue;
            }
            break;
        }
    }

    /// The sea ports next to `port` along the coast.
    #[inline]
    fn sea_neighbours(&self, port: u8) -> Option<[u8; 2]> {
        let ports = &self.geo.ports;
        let i = ports.iter().position(|&p| p == port)?;
        let n = ports.len();
        Some([ports[(i + 1) % n], ports[(i + n - 1) % n]])
    }

    /// Appends every pseudo-legal action of `side` (legal except for leaving its own King capturable).
    pub fn pseudo(
        &self,
        pos: &Pos,
        side: u8,
        reserve: bool,
        ruin_ready: bool,
        out: &mut Vec<CairdAction>,
    ) {
        self.for_each_pseudo(pos, side, reserve, ruin_ready, |a| out.push(a));
    }

    /// Whether a land move of the piece on `from` reaches `to` (empty, or an enemy it may take).
    fn land_reaches(&self, pos: &Pos, from: u8, to: u8) -> bool {
        let kind = kind_of(pos.board[from as usize]);
        let spec = &self.specs[kind as usize];
        let Some((dir, dist)) = self.geo.line(from, to) else {
            return false;
        };
        let d = dir as u8;
        if d < spec.dir_lo || d >= spec.dir_hi || dist > spec.range as usize {
            return false;
        }
        let attack = self.may_attack(pos, from, kind);
        let mut hit = false;
        self.walk_move(pos, from, dir, |c, enemy| {
            hit |= c == to && (!enemy || (attack && self.beats(pos, from, to)))
        });
        hit
    }

    /// Calls `f` with every pseudo-legal action of `side`, allocating nothing.
    pub fn for_each_pseudo(
        &self,
        pos: &Pos,
        side: u8,
        reserve: bool,
        ruin_ready: bool,
        mut f: impl FnMut(CairdAction),
    ) {
        for from in 0..self.geo.n as u8 {
            let p = pos.board[from as usize];
            if p != 0 && side_of(p) == side && kind_of(p) != MOUNTAIN {
                self.piece_pseudo(pos, from, &mut f);
            }
        }
        self.extra_pseudo(pos, side, reserve, ruin_ready, f);
    }

    /// The actions that move no piece: placing the reserve Dragon, ruining a stormed Fortress.
    fn extra_pseudo(
        &self,
        pos: &Pos,
        side: u8,
        reserve: bool,
        ruin_ready: bool,
        mut f: impl FnMut(CairdAction),
    ) {
        if reserve {
            for &c in &self.geo.home[side as usize] {
                if pos.board[c as usize] == 0 && pos.terrain[c as usize] != BURNING {
                    f(CairdAction::Place { to: c });
                }
            }
        }
        if ruin_ready {
            let fort = pos.forts[1 - side as usize];
            if fort != NONE {
                f(CairdAction::Ruin { at: fort });
            }
        }
    }

    /// The pseudo-legal actions of the piece on `from`.
    #[inline]
    fn piece_pseudo(&self, pos: &Pos, from: u8, mut f: impl FnMut(CairdAction)) {
        let p = pos.board[from as usize];
        let (kind, side) = (kind_of(p), side_of(p));
        let spec = self.specs[kind as usize];
        let attack = self.may_attack(pos, from, kind);
        for dir in spec.dir_lo as usize..spec.dir_hi as usize {
            self.walk_move(pos, from, dir, |to, enemy| {
                if !enemy || (attack && self.beats(pos, from, to)) {
                    f(CairdAction::Move { from, to });
                }
            });
        }
        if attack && let Some(s) = spec.shot {
            for dir in s.dir_lo as usize..s.dir_hi as usize {
                self.walk_shot(pos, from, dir, &s, |to| {
                    if self.beats(pos, from, to) {
                        f(CairdAction::Shot { from, to });
                    }
                });
            }
        }
        if self.sea
            && kind != DRAGON
            && let Some(next) = self.sea_neighbours(from)
        {
            for to in next {
                let q = pos.board[to as usize];
                let ok = if q == 0 {
                    pos.terrain[to as usize] != BURNING
                } else {
                    side_of(q) != side
                        && kind_of(q) != MOUNTAIN
                        && attack
                        && self.beats(pos, from, to)
                };
                if ok && !self.land_reaches(pos, from, to) {
                    f(CairdAction::Move { from, to });
                }
            }
        }
    }

    /// Whether the piece on `from` attacks `target` (a move-capture, a shot or a sea move), ignoring
    /// the class table (used for the King, which anything may capture).
    pub fn hits(&self, pos: &Pos, from: u8, target: u8) -> bool {
        let p = pos.board[from as usize];
        let kind = kind_of(p);
        if !self.may_attack(pos, from, kind) {
            return false;
        }
        let spec = &self.specs[kind as usize];
        if let Some((dir, dist)) = self.geo.line(from, target) {
            let d = dir as u8;
            if d >= spec.dir_lo && d < spec.dir_hi && dist <= spec.range as usize {
                let mut hit = false;
                self.walk_move(pos, from, dir, |to, enemy| hit |= enemy && to == target);
                if hit {
                    return true;
                }
            }
            if let Some(s) = &spec.shot
                && d >= s.dir_lo
                && d < s.dir_hi
                && dist <= s.range as usize
            {
                let mut hit = false;
                self.walk_shot(pos, from, dir, s, |to| hit |= to == target);
                if hit {
                    return true;
                }
            }
        }
        if self.sea
            && kind != DRAGON
            && let Some(next) = self.sea_neighbours(from)
        {
            return next.contains(&target);
        }
        false
    }

    /// Whether any piece of `by` attacks `target`: only pieces on a line through `target` within the
    /// longest reach, and pieces on the neighbouring sea ports, are traced.
    pub fn attacked(&self, pos: &Pos, target: u8, by: u8) -> bool {
        if target == NONE {
            return false;
        }
        let step = &self.geo.step;
        #[allow(clippy::needless_range_loop)]
        for dir in 0..2 * self.geo.ortho {
            let mut cur = target;
            for _ in 0..self.reach {
                cur = step[cur as usize][dir];
                if cur == NONE {
                    break;
                }
                let p = pos.board[cur as usize];
                if p == 0 || kind_of(p) == MOUNTAIN {
                    continue;
                }
                if side_of(p) == by {
                    if self.hits(pos, cur, target) {
                        return true;
                    }
                } else if !self.super_trebuchets {
                    // A piece of the defending side blocks every move and shot beyond it (only
                    // super Trebuchets shoot over enemy pieces).
                    break;
                }
            }
        }
        if self.sea
            && let Some(next) = self.sea_neighbours(target)
        {
            for from in next {
                let p = pos.board[from as usize];
                if p != 0
                    && side_of(p) == by
                    && kind_of(p) != MOUNTAIN
                    && self.hits(pos, from, target)
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `side`'s King is capturable now.
    #[inline]
    pub fn in_check(&self, pos: &Pos, side: u8) -> bool {
        self.attacked(pos, pos.kings[side as usize], 1 - side)
    }

    /// Plays `action` for `side` on `pos` (no legality check beyond bounds).
    pub fn make(&self, pos: &mut Pos, side: u8, action: &CairdAction) -> MoveInfo {
        let mut info = MoveInfo::default();
        match *action {
            CairdAction::Move { from, to } => {
                let p = pos.board[from as usize];
                let q = pos.board[to as usize];
                if q != 0 {
                    info.captured = Some(kind_of(q));
                }
                pos.board[to as usize] = p;
                pos.board[from as usize] = 0;
                pos.fortress_changed(from);
                pos.fortress_changed(to);
                let kind = kind_of(p);
                if kind == KING {
                    pos.kings[side as usize] = to;
                }
                if q != 0 && kind_of(q) == KING {
                    pos.kings[side_of(q) as usize] = NONE;
                }
                if kind == DRAGON && pos.terrain[to as usize] == FORTRESS {
                    self.ruin(pos, to);
                    info.terrain_changed = true;
                }
            }
            CairdAction::Shot { from, to } => {
                let q = pos.board[to as usize];
                if q != 0 {
                    info.captured = Some(kind_of(q));
                    if kind_of(q) == KING {
                        pos.kings[side_of(q) as usize] = NONE;
                    }
                }
                pos.board[to as usize] = 0;
                pos.fortress_changed(to);
                // A capture outside that does not move the piece ends its Fortress effect.
                if q != 0 {
                    for h in 0..2 {
                        if pos.forts[h] == from {
                            pos.fort_spent[h] = true;
                        }
                    }
                }
                let t = pos.terrain[to as usize];
                if self.wildfyre && t == WATER {
                    pos.terrain[to as usize] = BURNING;
                    info.terrain_changed = true;
                }
                if t == FORTRESS && kind_of(pos.board[from as usize]) == DRAGON {
                    self.ruin(pos, to);
                    info.terrain_changed = true;
                }
            }
            CairdAction::Place { to } => {
                pos.board[to as usize] = piece(DRAGON, side);
                pos.fortress_changed(to);
            }
            CairdAction::Ruin { at } => {
                self.ruin(pos, at);
                info.terrain_changed = true;
            }
            CairdAction::Setup(_) => {}
        }
        info
    }

    fn ruin(&self, pos: &mut Pos, cell: u8) {
        pos.terrain[cell as usize] = FOREST;
        for h in 0..2 {
            if pos.forts[h] == cell {
                pos.forts[h] = NONE;
                pos.fort_spent[h] = false;
            }
        }
    }

    /// Whether `action` (pseudo-legal) keeps `side`'s King safe. Capturing the enemy King is always
    /// allowed (it can only arise right after the hidden setup).
    #[inline]
    pub fn keeps_king_safe(&self, pos: &Pos, side: u8, action: &CairdAction) -> bool {
        let mut next = *pos;
        let info = self.make(&mut next, side, action);
        if info.captured == Some(KING) {
            return true;
        }
        !self.in_check(&next, side)
    }

    /// What the legality shortcut needs to know about `side`'s King, computed once per generation.
    #[inline]
    fn guard(&self, pos: &Pos, side: u8) -> Guard {
        let king = pos.kings[side as usize];
        let mut danger = 0u16;
        if king != NONE {
            for dir in 0..2 * self.geo.ortho {
                if self.enemy_on_ray(pos, king, dir, side) {
                    danger |= 1 << dir;
                }
            }
        }
        Guard {
            // With no enemy on any line through the King only a sea attack could reach it.
            checked: (danger != 0 || self.sea) && self.in_check(pos, side),
            king,
            danger,
        }
    }

    /// Whether pseudo-legal `action` keeps the King safe, with a shortcut: when `side` is not in check,
    /// a non-King action whose changed cells lie on no line from the King that holds an enemy piece
    /// within reach cannot expose it (every attack runs along such a line; sea attacks do not depend
    /// on other cells). Otherwise the action is played on a copy and the King tested.
    #[inline]
    fn safe(&self, pos: &Pos, side: u8, g: &Guard, action: &CairdAction) -> bool {
        if !g.checked {
            if g.king == NONE {
                return true;
            }
            let quiet = |c: u8| match self.geo.line(g.king, c) {
                None => true,
                Some((dir, _)) => g.danger & (1 << dir) == 0,
            };
            match *action {
                CairdAction::Move { from, to } if from != g.king && quiet(from) && quiet(to) => {
                    return true;
                }
                CairdAction::Shot { to, .. } if quiet(to) => return true,
                CairdAction::Place { .. } | CairdAction::Ruin { .. } => return true,
                _ => {}
            }
        }
        self.keeps_king_safe(pos, side, action)
    }

    /// Whether an enemy (non-Mountain) piece of `side`'s opponent stands within reach from `from`
    /// along `dir`.
    #[inline]
    fn enemy_on_ray(&self, pos: &Pos, from: u8, dir: usize, side: u8) -> bool {
        let mut cur = from;
        for _ in 0..self.reach {
            cur = self.geo.step[cur as usize][dir];
            if cur == NONE {
                return false;
            }
            let p = pos.board[cur as usize];
            if p != 0 && side_of(p) != side && kind_of(p) != MOUNTAIN {
                return true;
            }
        }
        false
    }

    /// Appends the legal actions of `side`.
    pub fn legal(
        &self,
        pos: &Pos,
        side: u8,
        reserve: bool,
        ruin_ready: bool,
        out: &mut Vec<CairdAction>,
    ) {
        let guard = self.guard(pos, side);
        self.for_each_pseudo(pos, side, reserve, ruin_ready, |a| {
            if self.safe(pos, side, &guard, &a) {
                out.push(a);
            }
        });
    }

    /// Whether `side` has any legal action (no allocation; stops at the first piece that has one).
    pub fn has_legal(&self, pos: &Pos, side: u8, reserve: bool, ruin_ready: bool) -> bool {
        let guard = self.guard(pos, side);
        let mut found = false;
        for from in 0..self.geo.n as u8 {
            let p = pos.board[from as usize];
            if p != 0 && side_of(p) == side && kind_of(p) != MOUNTAIN {
                self.piece_pseudo(pos, from, |a| {
                    if !found && self.safe(pos, side, &guard, &a) {
                        found = true;
                    }
                });
                if found {
                    return true;
                }
            }
        }
        self.extra_pseudo(pos, side, reserve, ruin_ready, |a| {
            if !found && self.safe(pos, side, &guard, &a) {
                found = true;
            }
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cls(kind: u8) -> (u8, bool) {
        CLASS[kind as usize]
    }

    #[test]
    fn capture_table_matches_the_source() {
        // Elephant takes every troop but not the Dragon.
        for d in [TREBUCHET, CROSSBOW, HEAVY, LIGHT, SPEAR, RABBLE, ELEPHANT] {
            assert!(class_beats(cls(ELEPHANT), cls(d)));
        }
        assert!(!class_beats(cls(ELEPHANT), cls(DRAGON)));
        assert!(class_beats(cls(DRAGON), cls(ELEPHANT)));
        // Elites take the Dragon; basics take the Elephant.
        assert!(class_beats(cls(SPEAR), cls(DRAGON)));
        assert!(!class_beats(cls(RABBLE), cls(DRAGON)));
        assert!(class_beats(cls(RABBLE), cls(ELEPHANT)));
        assert!(!class_beats(cls(SPEAR), cls(ELEPHANT)));
        // The triangle.
        assert!(class_beats(cls(RABBLE), cls(HEAVY)));
        assert!(class_beats(cls(LIGHT), cls(TREBUCHET)));
        assert!(class_beats(cls(CROSSBOW), cls(SPEAR)));
        assert!(!class_beats(cls(HEAVY), cls(SPEAR)));
        assert!(!class_beats(cls(RABBLE), cls(SPEAR)));
        assert!(class_beats(cls(SPEAR), cls(RABBLE)));
    }
}

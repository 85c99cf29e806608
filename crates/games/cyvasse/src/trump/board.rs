//! The 91-hex board: cell names, axial coordinates, neighbour tables, bitboards and the
//! mountain line-of-sight table used by shots.
//!
//! Internally a cell is an index into an 11×11 axial grid (`(r + 5) * 11 + (q + 5)`, `q` and `r` in
//! `-5..=5`, valid when `|q + r| <= 5`), so a set of cells fits in a `u128` bitboard and moving one
//! step in a direction is a shift. Rows run from `a` (axial `r = -5`, the far edge, the second seat's
//! back row) to `k` (`r = 5`); within a row, positions count from the left (increasing `q`).

use std::fmt;
use std::sync::OnceLock;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use ts_rs::TS;

/// Size of the internal axial grid (11 × 11, of which 91 cells are on the board).
pub const GRID: usize = 121;
/// Number of rows (`a`..`k`).
pub const ROWS: usize = 11;

/// The six directions, as axial `(dq, dr)`: east, west, south-east, north-west, north-east,
/// south-west. Index pairs `(0,1)`, `(2,3)`, `(4,5)` are opposite directions.
pub const DIRS: [(i8, i8); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
const SHIFTS: [i32; 6] = [1, -1, 11, -11, -10, 10];

const fn valid_axial(q: i32, r: i32) -> bool {
    q >= -5 && q <= 5 && r >= -5 && r <= 5 && q + r >= -5 && q + r <= 5
}

const fn make_valid() -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < GRID {
        let q = (i % 11) as i32 - 5;
        let r = (i / 11) as i32 - 5;
        if valid_axial(q, r) {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

/// The 91 cells of the board as a bitboard.
pub const VALID: u128 = make_valid();

const fn make_src_masks() -> [u128; 6] {
    let mut out = [0u128; 6];
    let mut d = 0;
    while d < 6 {
        let mut i = 0;
        while i < GRID {
            let q = (i % 11) as i32 - 5;
            let r = (i / 11) as i32 - 5;
            if valid_axial(q, r) && valid_axial(q + DIRS[d].0 as i32, r + DIRS[d].1 as i32) {
                out[d] |= 1u128 << i;
            }
            i += 1;
        }
        d += 1;
    }
    out
}

/// For each direction, the cells whose neighbour in that direction is on the board.
const SRC: [u128; 6] = make_src_masks();

const fn make_neighbours() -> [[u8; 6]; GRID] {
    let mut out = [[NONE; 6]; GRID];
    let mut i = 0;
    while i < GRID {
        let mut d = 0;
        while d < 6 {
            if SRC[d] & (1u128 << i) != 0 {
                out[i][d] = (i as i32 + SHIFTS[d]) as u8;
            }
            d += 1;
        }
        i += 1;
    }
    out
}

/// "No cell" in the neighbour table.
pub const NONE: u8 = u8::MAX;
/// `NEIGHBOURS[cell][dir]`: the neighbouring cell index, or [`NONE`] off the board.
pub const NEIGHBOURS: [[u8; 6]; GRID] = make_neighbours();

#[inline]
fn shift(b: u128, s: i32) -> u128 {
    if s > 0 { b << s } else { b >> (-s) }
}

/// Every cell adjacent to a cell of `b` (cells of `b` included only when adjacent to another).
#[inline]
pub fn dilate(b: u128) -> u128 {
    let mut out = 0;
    for d in 0..6 {
        out |= shift(b & SRC[d], SHIFTS[d]);
    }
    out
}

/// Iterates the cells of a bitboard in index order.
pub fn cells_of(mut b: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros();
            b &= b - 1;
            Some(Cell(i as u8))
        }
    })
}

/// A cell of the board, named `a1`..`k6` (row letter from the far edge, then position from the
/// left). Its JSON form is that name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, TS)]
#[ts(export_to = "cyvasse/", type = "string")]
pub struct Cell(u8);

/// Length of each row `a`..`k`.
pub const ROW_LEN: [usize; ROWS] = [6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6];

impl Cell {
    /// The cell at axial `(q, r)`, if on the board.
    pub fn from_axial(q: i8, r: i8) -> Option<Cell> {
        if valid_axial(q as i32, r as i32) {
            Some(Cell(((r as i32 + 5) * 11 + (q as i32 + 5)) as u8))
        } else {
            None
        }
    }
    /// The cell with this internal index, if on the board.
    pub fn from_index(i: usize) -> Option<Cell> {
        if i < GRID && VALID & (1u128 << i) != 0 {
            Some(Cell(i as u8))
        } else {
            None
        }
    }
    /// The cell in row `row` (0 = `a` .. 10 = `k`) at position `pos` (0-based from the left).
    pub fn from_row_pos(row: usize, pos: usize) -> Option<Cell> {
        if row >= ROWS || pos >= ROW_LEN[row] {
            return None;
        }
        let r = row as i8 - 5;
        let q = q_min(r) + pos as i8;
        Cell::from_axial(q, r)
    }
    /// Internal index (0..121, only the 91 board cells occur).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The cell as a one-bit bitboard.
    #[inline]
    pub fn bit(self) -> u128 {
        1u128 << self.0
    }
    /// Axial `q`.
    pub fn q(self) -> i8 {
        (self.0 % 11) as i8 - 5
    }
    /// Axial `r` (-5 = row `a` .. 5 = row `k`).
    pub fn r(self) -> i8 {
        (self.0 / 11) as i8 - 5
    }
    /// Row index: 0 = `a` (far edge) .. 10 = `k` (near edge); row `f` is 5.
    pub fn row(self) -> usize {
        (self.r() + 5) as usize
    }
    /// Position in the row, 0-based from the left.
    pub fn pos(self) -> usize {
        (self.q() - q_min(self.r())) as usize
    }
    /// The cell's name, e.g. `f11`.
    pub fn name(self) -> String {
        format!("{}{}", (b'a' + self.row() as u8) as char, self.pos() + 1)
    }
    /// Parses a cell name such as `a1`, `f11` or `k6`.
    pub fn parse(text: &str) -> Result<Cell, String> {
        let t = text.trim();
        let mut chars = t.chars();
        let bad = || {
            format!("“{t}” is not a cell: write a row letter a..k and a position, e.g. a1, f11, k6")
        };
        let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() || letter > 'k' {
            return Err(bad());
        }
        let row = (letter as u8 - b'a') as usize;
        let num: usize = chars.as_str().parse().map_err(|_| bad())?;
        if num == 0 || num > ROW_LEN[row] {
            return Err(format!(
                "“{t}” is off the board: row {letter} has cells {letter}1..{letter}{}",
                ROW_LEN[row]
            ));
        }
        Cell::from_row_pos(row, num - 1).ok_or_else(bad)
    }
    /// Hex distance between two cells.
    pub fn distance(self, other: Cell) -> u8 {
        let dq = (self.q() - other.q()).abs();
        let dr = (self.r() - other.r()).abs();
        let ds = (self.q() + self.r() - other.q() - other.r()).abs();
        ((dq + dr + ds) / 2) as u8
    }
    /// The neighbour in direction `dir` (index into [`DIRS`]).
    #[inline]
    pub fn step(self, dir: usize) -> Option<Cell> {
        let n = NEIGHBOURS[self.index()][dir];
        if n == NONE { None } else { Some(Cell(n)) }
    }
    /// The cell seen from the other side of the table (a 180° turn: `a1` <-> `k6`).
    pub fn rotate180(self) -> Cell {
        Cell(((-self.r() + 5) as u8) * 11 + (-self.q() + 5) as u8)
    }
    /// The cell mirrored left-right within its row (`g1` <-> `g10`).
    pub fn mirror(self) -> Cell {
        let q = -self.r() - self.q();
        Cell(((self.r() + 5) as u8) * 11 + (q + 5) as u8)
    }
    /// All 91 cells in order `a1`..`k6`.
    pub fn all() -> impl Iterator<Item = Cell> {
        cells_of(VALID)
    }
}

fn q_min(r: i8) -> i8 {
    (-5).max(-5 - r)
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Cell;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a cell name such as a1, f11 or k6")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell, E> {
                Cell::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// Cells of rows `lo..=hi` (0 = `a` .. 10 = `k`) as a bitboard.
pub const fn rows_mask(lo: usize, hi: usize) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < GRID {
        let row = i / 11;
        if VALID & (1u128 << i) != 0 && row >= lo && row <= hi {
            m |= 1u128 << i;
        }
        i += 1;
    }
    m
}

// ------------------------------------------------------------------------------------------------
// Line of sight.

/// What can block one shot: each pair `(a, b)` blocks when both `a` and `b` hold Mountains. A hex the
/// line crosses is the pair `(c, c)`; a stretch of the line running exactly along the edge between
/// two hexes is the pair of those two hexes.
#[derive(Debug, Clone)]
pub struct ShotLine {
    pub to: Cell,
    pub distance: u8,
    pub blockers: Vec<(Cell, Cell)>,
}

/// Hex centres and corners in an affine image of the plane where every coordinate is an integer:
/// centre of `(q, r)` at `(2q + r, 3r)`, corners at centre + `(0, ±2)`, `(±1, ±1)`. Affine maps keep
/// straight lines, convexity and incidence, so the line-of-sight test is exact.
fn centre(c: Cell) -> (i64, i64) {
    (2 * c.q() as i64 + c.r() as i64, 3 * c.r() as i64)
}

const CORNERS: [(i64, i64); 6] = [(0, 2), (1, 1), (1, -1), (0, -2), (-1, -1), (-1, 1)];

fn corners(c: Cell) -> [(i64, i64); 6] {
    let (x, y) = centre(c);
    CORNERS.map(|(dx, dy)| (x + dx, y + dy))
}

fn dot(a: (i64, i64), b: (i64, i64)) -> i64 {
    a.0 * b.0 + a.1 * b.1
}

/// Whether the segment `p0`–`p1` passes through the open interior of hex `c` (separating-axis
/// test with touching counted as separated).
fn crosses_interior(p0: (i64, i64), p1: (i64, i64), c: Cell) -> bool {
    let poly = corners(c);
    let mut axes = Vec::with_capacity(7);
    for i in 0..6 {
        let a = poly[i];
        let b = poly[(i + 1) % 6];
        axes.push((-(b.1 - a.1), b.0 - a.0));
    }
    axes.push((-(p1.1 - p0.1), p1.0 - p0.0));
    for n in axes {
        let pmin = poly.iter().map(|&v| dot(v, n)).min().unwrap_or(0);
        let pmax = poly.iter().map(|&v| dot(v, n)).max().unwrap_or(0);
        let (s0, s1) = (dot(p0, n), dot(p1, n));
        let (smin, smax) = (s0.min(s1), s0.max(s1));
        if smax <= pmin || pmax <= smin {
            return false;
        }
    }
    true
}

/// Whether the segment runs along the shared edge of adjacent hexes `a` and `b` for a positive length.
fn runs_along_edge(p0: (i64, i64), p1: (i64, i64), a: Cell, b: Cell) -> bool {
    let ca = corners(a);
    let cb = corners(b);
    let shared: Vec<(i64, i64)> = ca.iter().filter(|v| cb.contains(v)).copied().collect();
    if shared.len() != 2 {
        return false;
    }
    let d = (p1.0 - p0.0, p1.1 - p0.1);
    let cross = |v: (i64, i64)| d.0 * (v.1 - p0.1) - d.1 * (v.0 - p0.0);
    if cross(shared[0]) != 0 || cross(shared[1]) != 0 {
        return false;
    }
    let t0 = dot((shared[0].0 - p0.0, shared[0].1 - p0.1), d);
    let t1 = dot((shared[1].0 - p0.0, shared[1].1 - p0.1), d);
    let (lo, hi) = (t0.min(t1).max(0), t0.max(t1).min(dot(d, d)));
    hi > lo
}

fn compute_line(from: Cell, to: Cell) -> ShotLine {
    let (p0, p1) = (centre(from), centre(to));
    let mut blockers = Vec::new();
    for c in Cell::all() {
        if c != from && c != to && crosses_interior(p0, p1, c) {
            blockers.push((c, c));
        }
    }
    for a in Cell::all() {
        for dir in 0..6 {
            if let Some(b) = a.step(dir)
                && a < b
                && a != from
                && a != to
                && b != from
                && b != to
                && runs_along_edge(p0, p1, a, b)
            {
                blockers.push((a, b));
            }
        }
    }
    ShotLine {
        to,
        distance: from.distance(to),
        blockers,
    }
}

/// The longest range of any unit.
pub const MAX_RANGE: u8 = 3;

/// The shot geometry of one cell: its lines to every cell at distance 1..=3 (nearest first), the
/// index of each target's line, and the disks of radius 0..=3 around it.
#[derive(Debug, Clone)]
pub struct ShotTable {
    pub lines: Vec<ShotLine>,
    pub line_of: [u8; GRID],
    pub disks: [u128; MAX_RANGE as usize + 1],
}

fn shot_table(from: Cell) -> &'static ShotTable {
    static TABLE: OnceLock<Vec<ShotTable>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..GRID)
            .map(|i| {
                let mut t = ShotTable {
                    lines: Vec::new(),
                    line_of: [NONE; GRID],
                    disks: [0; MAX_RANGE as usize + 1],
                };
                if let Some(from) = Cell::from_index(i) {
                    let mut lines: Vec<ShotLine> = Cell::all()
                        .filter(|&to| (1..=MAX_RANGE).contains(&from.distance(to)))
                        .map(|to| compute_line(from, to))
                        .collect();
                    lines.sort_by_key(|l| (l.distance, l.to));
                    for (k, l) in lines.iter().enumerate() {
                        t.line_of[l.to.index()] = k as u8;
                    }
                    for (r, disk) in t.disks.iter_mut().enumerate() {
                        *disk = Cell::all()
                            .filter(|c| c.distance(from) as usize <= r)
                            .fold(0, |m, c| m | c.bit());
                    }
                    t.lines = lines;
                }
                t
            })
            .collect()
    });
    &table[from.index()]
}

/// For every cell, the lines to every cell at distance 1..=3, nearest first.
pub fn shot_lines(from: Cell) -> &'static [ShotLine] {
    &shot_table(from).lines
}

/// The cells within `radius` (at most 3) of `from`, `from` included.
pub fn disk(from: Cell, radius: u8) -> u128 {
    shot_table(from).disks[radius.min(MAX_RANGE) as usize]
}

/// The line from `from` to `to`, when they are 1..=3 apart.
pub fn shot_line(from: Cell, to: Cell) -> Option<&'static ShotLine> {
    let t = shot_table(from);
    t.lines.get(t.line_of[to.index()] as usize)
}

/// The blockers of the line `from` → `to` (empty when they are adjacent or farther than 3 apart:
/// only shots need lines).
pub fn line_blockers(from: Cell, to: Cell) -> &'static [(Cell, Cell)] {
    shot_line(from, to).map_or(&[], |l| l.blockers.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ninety_one_cells_named_by_row() {
        assert_eq!(VALID.count_ones(), 91);
        let names: Vec<String> = Cell::all().map(|c| c.name()).collect();
        assert_eq!(names.first().map(String::as_str), Some("a1"));
        assert_eq!(names.last().map(String::as_str), Some("k6"));
        assert!(names.contains(&"f11".to_string()));
        for c in Cell::all() {
            assert_eq!(Cell::parse(&c.name()), Ok(c));
            assert_eq!(c.rotate180().rotate180(), c);
            assert_eq!(c.mirror().mirror(), c);
            assert_eq!(c.mirror().row(), c.row());
        }
        assert!(Cell::parse("a7").is_err());
        assert!(Cell::parse("l1").is_err());
        assert!(Cell::parse("f0").is_err());
    }

    #[test]
    fn neighbours_match_dilate() {
        for c in Cell::all() {
            let by_table: u128 = (0..6).filter_map(|d| c.step(d)).fold(0, |m, n| m | n.bit());
            assert_eq!(dilate(c.bit()), by_table);
            for n in cells_of(by_table) {
                assert_eq!(c.distance(n), 1);
            }
        }
        // f1 (left corner of the middle row) has 3 neighbours; f6 has 6.
        assert_eq!(
            dilate(Cell::parse("f1").map_or(0, |c| c.bit())).count_ones(),
            3
        );
        assert_eq!(
            dilate(Cell::parse("f6").map_or(0, |c| c.bit())).count_ones(),
            6
        );
    }
}

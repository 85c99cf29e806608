//! Lists that keep a summary of their items up to date: the buildings (pieces by seat and kind,
//! the kinds owned and exhausted, occupied corners) and the grid (which cells show each number,
//! the corners Expand brought outside the dealt rectangle).
//!
//! Move generation and production ask the same few questions on almost every action ("how many
//! Towns does this seat have", "is this corner free", "which cells show the rolled number"); a
//! summary answers them in a few instructions instead of a pass over the list. The summary is
//! private and kept up to date by every mutating method (an item added is added to it, an item
//! updated in place replaced in it where the summary knows how, anything else rebuilds it), so it
//! always describes the list; readers see the
//! list through `Deref` to a slice. A list is serialised as the plain list and summarised again
//! when it is read, so the JSON form is the list's.

use std::ops::Deref;

use serde::{Deserialize, Serialize};
use tabula_core::Seat;

use super::{Building, Cell, GRID_CARDS, GRID_H, GRID_W};
use crate::model::{Piece, Point};

/// What a [`Summarised`] list keeps about its items.
pub trait Summary<T>: Default {
    /// Takes the list's `index`-th item into the summary.
    fn add(&mut self, index: usize, item: &T);

    /// The list's `index`-th item changed from `old` to `new`: updates the summary and says so,
    /// or says `false` (the default), leaving it to be rebuilt from the whole list.
    fn replace(&mut self, index: usize, old: &T, new: &T) -> bool {
        let _ = (index, old, new);
        false
    }
}

/// A list with a summary of its items that every change keeps up to date.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Summarised<T, S> {
    list: Vec<T>,
    summary: S,
}

impl<T, S: Summary<T>> Default for Summarised<T, S> {
    fn default() -> Self {
        Summarised {
            list: Vec::new(),
            summary: S::default(),
        }
    }
}

impl<T, S: Summary<T>> Summarised<T, S> {
    /// Appends an item.
    pub fn push(&mut self, item: T) {
        self.summary.add(self.list.len(), &item);
        self.list.push(item);
    }

    /// Keeps only the items for which `keep` holds.
    pub fn retain(&mut self, keep: impl FnMut(&T) -> bool) {
        self.list.retain(keep);
        self.resummarise();
    }

    /// Changes the first item for which `find` holds with `change`, returning what `change`
    /// returns (`None`, changing nothing, when no item is found).
    pub fn update<R>(
        &mut self,
        find: impl FnMut(&T) -> bool,
        change: impl FnOnce(&mut T) -> R,
    ) -> Option<R>
    where
        T: Clone,
    {
        let index = self.list.iter().position(find)?;
        let item = self.list.get_mut(index)?;
        let old = item.clone();
        let result = change(item);
        if !self.summary.replace(index, &old, item) {
            self.resummarise();
        }
        Some(result)
    }

    fn resummarise(&mut self) {
        let mut summary = S::default();
        for (i, item) in self.list.iter().enumerate() {
            summary.add(i, item);
        }
        self.summary = summary;
    }
}

impl<T, S> Deref for Summarised<T, S> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.list
    }
}

impl<'a, T, S> IntoIterator for &'a Summarised<T, S> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

impl<T, S: Summary<T>> From<Vec<T>> for Summarised<T, S> {
    fn from(list: Vec<T>) -> Self {
        let mut s = Summarised {
            list,
            summary: S::default(),
        };
        s.resummarise();
        s
    }
}

impl<T, S: Summary<T>> FromIterator<T> for Summarised<T, S> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        Summarised::from(items.into_iter().collect::<Vec<T>>())
    }
}

impl<T: Serialize, S> Serialize for Summarised<T, S> {
    fn serialize<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        self.list.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>, S: Summary<T>> Deserialize<'de> for Summarised<T, S> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(d).map(Summarised::from)
    }
}

/// The buildings on the grid, in the order they were placed.
pub type Buildings = Summarised<Building, BuildingSummary>;

/// What [`Buildings`] keeps: pieces on the grid by seat and kind, and which building stands on
/// each corner of the dealt rectangle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct BuildingSummary {
    /// Pieces on the grid by seat index and `Piece::index` (owners other than 0 and 1 are left
    /// out: `validate` rejects them).
    counts: [[u8; 6]; 2],
    /// By seat index: the piece kinds on the grid (bit `Piece::index`).
    owned: [u8; 2],
    /// By seat index: the piece kinds none of which is left in the supply (bit `Piece::index`).
    exhausted: [u8; 2],
    /// The corners of the dealt 5x4 rectangle that hold a building, as bits `y * 6 + x`.
    corners: u64,
    /// For each corner `y * 6 + x` of the dealt rectangle, one more than the index in the list of
    /// the building on it (0: none).
    at_corner: [u8; DEALT_CORNERS],
}

/// The corners of the dealt 5x4 rectangle.
const DEALT_CORNERS: usize = (GRID_W as usize + 1) * (GRID_H as usize + 1);

/// The index `y * 6 + x` of corner `(x, y)` if it is a corner of the dealt rectangle.
#[inline]
fn dealt_corner((x, y): Point) -> Option<usize> {
    ((0..=GRID_W).contains(&x) && (0..=GRID_H).contains(&y))
        .then(|| y as usize * (GRID_W as usize + 1) + x as usize)
}

impl Summary<Building> for BuildingSummary {
    fn add(&mut self, index: usize, b: &Building) {
        let (seat, i) = (b.owner.index(), b.piece.index());
        if let (Some(c), Some(owned), Some(exhausted)) = (
            self.counts.get_mut(seat),
            self.owned.get_mut(seat),
            self.exhausted.get_mut(seat),
        ) {
            c[i] = c[i].saturating_add(1);
            *owned |= 1 << i;
            if c[i] >= b.piece.count() {
                *exhausted |= 1 << i;
            }
        }
        if let Some(corner) = dealt_corner(b.at) {
            self.corners |= 1 << corner;
            // A valid state has at most 32 buildings; an index past 254 is not looked up.
            self.at_corner[corner] = u8::try_from(index + 1).unwrap_or(0);
        }
    }

    /// An upgrade or a Convert changes a building's piece or owner where it stands: its old piece
    /// is taken out of the counts and the new one added.
    fn replace(&mut self, index: usize, old: &Building, new: &Building) -> bool {
        let (seat, i) = (old.owner.index(), old.piece.index());
        if old.at != new.at {
            return false;
        }
        let (Some(c), Some(owned), Some(exhausted)) = (
            self.counts.get_mut(seat),
            self.owned.get_mut(seat),
            self.exhausted.get_mut(seat),
        ) else {
            return false;
        };
        c[i] = c[i].saturating_sub(1);
        if c[i] == 0 {
            *owned &= !(1 << i);
        }
        if c[i] < old.piece.count() {
            *exhausted &= !(1 << i);
        }
        self.add(index, new);
        true
    }
}

impl Buildings {
    /// How many of `piece` `seat` has on the grid.
    #[inline]
    pub fn on_grid(&self, seat: Seat, piece: Piece) -> u8 {
        self.summary
            .counts
            .get(seat.index())
            .map_or(0, |c| c[piece.index()])
    }

    /// The piece kinds `seat` has on the grid (bit `Piece::index`).
    #[inline]
    pub fn owned(&self, seat: Seat) -> u8 {
        self.summary.owned.get(seat.index()).copied().unwrap_or(0)
    }

    /// The piece kinds of which `seat` has none left in the supply (bit `Piece::index`).
    #[inline]
    pub fn exhausted(&self, seat: Seat) -> u8 {
        self.summary
            .exhausted
            .get(seat.index())
            .copied()
            .unwrap_or(0)
    }

    /// How many of each piece (by `Piece::index`) `seat` has on the grid.
    #[inline]
    pub fn counts(&self, seat: Seat) -> [u8; 6] {
        self.summary
            .counts
            .get(seat.index())
            .copied()
            .unwrap_or_default()
    }

    /// The corners of the dealt 5x4 rectangle (`0..=5` × `0..=4`) that hold a building, as bits
    /// `y * 6 + x`.
    #[inline]
    pub fn dealt_corners(&self) -> u64 {
        self.summary.corners
    }

    /// The index in the list of the building on `p`, when `p` is a corner of the dealt 5x4
    /// rectangle (`None` there means no building; elsewhere, search the list).
    #[inline]
    pub fn at_dealt_corner(&self, p: Point) -> Option<usize> {
        self.at_corner_bit(dealt_corner(p)?)
    }

    /// The index in the list of the building on corner `y * 6 + x` of the dealt rectangle (a bit
    /// of [`Buildings::dealt_corners`]).
    #[inline]
    pub fn at_corner_bit(&self, bit: usize) -> Option<usize> {
        let i = *self.summary.at_corner.get(bit)?;
        (i > 0).then(|| usize::from(i) - 1)
    }
}

/// The grid's cards: the 20 dealt row by row, then those added by Expand in the order they were
/// added.
pub type Grid = Summarised<Cell, GridSummary>;

/// What [`Grid`] keeps: for each production number, the cells (bit = index in the list, for the
/// first 64) showing it; and the intersections that cards added by Expand bring outside the dealt
/// rectangle.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GridSummary {
    showing: [u64; 13],
    /// The corners of the cards past the dealt 20 that lie outside the dealt rectangle
    /// (`0..=5` × `0..=4`), each once, in `(y, x)` order. Empty until Expand is used, so cloning
    /// a state allocates nothing more before then.
    outside: Vec<Point>,
}

impl Summary<Cell> for GridSummary {
    fn add(&mut self, index: usize, c: &Cell) {
        if index < 64
            && let Some(bits) = self.showing.get_mut(usize::from(c.card.number))
        {
            *bits |= 1 << index;
        }
        if index >= GRID_CARDS {
            // Wrapping: a state is summarised while it is read, before `validate` refuses cells
            // out of range, and reading must not panic.
            let (x, y) = c.at;
            let (x1, y1) = (x.wrapping_add(1), y.wrapping_add(1));
            for corner in [(x, y), (x1, y), (x, y1), (x1, y1)] {
                if dealt_corner(corner).is_none()
                    && let Err(at) = self
                        .outside
                        .binary_search_by_key(&(corner.1, corner.0), |p| (p.1, p.0))
                {
                    self.outside.insert(at, corner);
                }
            }
        }
    }

    /// Survey swaps the card of a cell in place: only the numbers' cells change.
    fn replace(&mut self, index: usize, old: &Cell, new: &Cell) -> bool {
        if old.at != new.at || index >= 64 {
            return false;
        }
        if let Some(bits) = self.showing.get_mut(usize::from(old.card.number)) {
            *bits &= !(1 << index);
        }
        if let Some(bits) = self.showing.get_mut(usize::from(new.card.number)) {
            *bits |= 1 << index;
        }
        true
    }
}

impl Grid {
    /// The cells showing `number`, as bits of their index in the list (a grid holds at most the
    /// 40 territory cards).
    #[inline]
    pub fn showing(&self, number: u8) -> u64 {
        self.summary
            .showing
            .get(usize::from(number))
            .copied()
            .unwrap_or(0)
    }

    /// The intersections that the cards past the dealt 20 bring outside the dealt rectangle, in
    /// `(y, x)` order: with the dealt rectangle's 30 corners, every intersection of a grid that
    /// holds the dealt cards (which `validate` requires once they are dealt).
    #[inline]
    pub fn outside_corners(&self) -> &[Point] {
        &self.summary.outside
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Card;

    fn at(x: i8, y: i8, owner: u8, piece: Piece) -> Building {
        Building {
            at: (x, y),
            owner: Seat(owner),
            piece,
        }
    }

    #[test]
    fn buildings_summary_follows_every_change() {
        let mut b = Buildings::default();
        b.push(at(0, 0, 0, Piece::Town));
        b.push(at(5, 4, 0, Piece::Town));
        b.push(at(2, 1, 1, Piece::Town));
        // A corner outside the dealt rectangle (the grid grew by Expand) counts as a piece but has
        // no corner bit.
        b.push(at(6, 2, 1, Piece::Town));
        assert_eq!(b.counts(Seat(0)), [2, 0, 0, 0, 0, 0]);
        assert_eq!(b.on_grid(Seat(1), Piece::Town), 2);
        assert_eq!(b.dealt_corners(), 1 | 1 << 29 | 1 << 8);
        assert_eq!(b.at_dealt_corner((2, 1)), Some(2));
        assert_eq!(b.at_dealt_corner((3, 1)), None);
        assert_eq!(
            b.at_dealt_corner((6, 2)),
            None,
            "outside the dealt rectangle"
        );
        assert_eq!(b.owned(Seat(0)), 1 << Piece::Town.index());
        assert_eq!(b.exhausted(Seat(0)), 0);
        b.update(|x| x.at == (2, 1), |x| x.piece = Piece::Palace);
        assert_eq!(b.counts(Seat(1)), [1, 0, 0, 0, 1, 0]);
        assert_eq!(b.owned(Seat(1)), 1 | 1 << Piece::Palace.index());
        // The one Palace is on the grid: none is left in the supply.
        assert_eq!(b.exhausted(Seat(1)), 1 << Piece::Palace.index());
        b.update(|x| x.at == (2, 1), |x| x.owner = Seat(0));
        assert_eq!(b.counts(Seat(0)), [2, 0, 0, 0, 1, 0]);
        assert_eq!(b.counts(Seat(1)), [1, 0, 0, 0, 0, 0]);
        assert_eq!(b.owned(Seat(1)), 1);
        assert_eq!(b.exhausted(Seat(1)), 0);
        assert_eq!(b.exhausted(Seat(0)), 1 << Piece::Palace.index());
        b.update(|x| x.at == (2, 1), |x| x.piece = Piece::Temple);
        assert_eq!(b.counts(Seat(0)), [2, 0, 0, 1, 0, 0]);
        assert_eq!(b.exhausted(Seat(0)), 0);
        // Updated in place (`BuildingSummary::replace`), the summary is the one a rebuild gives.
        assert_eq!(b, Buildings::from(b.to_vec()));
        b.update(|x| x.at == (0, 0), |x| x.piece = Piece::Fort);
        assert_eq!(b, Buildings::from(b.to_vec()));
        b.update(|x| x.at == (0, 0), |x| x.piece = Piece::Town);
        b.retain(|x| x.at != (0, 0));
        assert_eq!(b.on_grid(Seat(0), Piece::Town), 1);
        assert_eq!(b.dealt_corners(), 1 << 29 | 1 << 8);
        // Razing the first building moved the others down the list.
        assert_eq!(b.at_dealt_corner((5, 4)), Some(0));
        assert_eq!(b.at_dealt_corner((2, 1)), Some(1));
        assert_eq!(b.at_dealt_corner((0, 0)), None);
        // Updating an empty intersection changes nothing.
        let before = b.clone();
        assert_eq!(
            b.update(|x| x.at == (3, 3), |x| x.piece = Piece::Capital),
            None
        );
        assert_eq!(b, before);
        assert_eq!(b.len(), 3);
    }

    #[test]
    fn buildings_serialise_as_the_plain_list_and_read_back_with_their_summary() {
        let b = Buildings::from(vec![at(1, 1, 0, Piece::Fort), at(3, 2, 1, Piece::Town)]);
        let json = serde_json::to_string(&b).expect("serialise");
        assert_eq!(
            json,
            r#"[{"at":[1,1],"owner":0,"piece":"fort"},{"at":[3,2],"owner":1,"piece":"town"}]"#
        );
        let back: Buildings = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, b);
        assert_eq!(back.on_grid(Seat(0), Piece::Fort), 1);
    }

    #[test]
    fn buildings_of_an_unknown_owner_are_left_out_of_the_summary_without_panicking() {
        // `validate` refuses such a state; reading it must not panic first.
        let b: Buildings =
            serde_json::from_str(r#"[{"at":[1,1],"owner":7,"piece":"town"}]"#).expect("read");
        assert_eq!(b.len(), 1);
        assert_eq!(b.counts(Seat(0)), [0; 6]);
        assert_eq!(b.on_grid(Seat(7), Piece::Town), 0);
        assert_eq!((b.owned(Seat(7)), b.exhausted(Seat(7))), (0, 0));
    }

    #[test]
    fn grid_summary_follows_every_change() {
        let card = |s: &str| s.parse::<Card>().expect("card");
        let mut g: Grid = [((0, 0), "9C"), ((1, 0), "2S"), ((2, 0), "9H")]
            .into_iter()
            .map(|(at, c)| Cell { at, card: card(c) })
            .collect();
        assert_eq!(g.showing(9), 0b101);
        assert_eq!(g.showing(2), 0b010);
        assert_eq!(g.showing(7), 0);
        // Survey: a card replaced in place.
        let old = g.update(
            |c| c.at == (0, 0),
            |c| std::mem::replace(&mut c.card, card("5D")),
        );
        assert_eq!(old, Some(card("9C")));
        assert_eq!(g.showing(9), 0b100);
        assert_eq!(g.showing(5), 0b001);
        // Expand: a card added.
        g.push(Cell {
            at: (3, 0),
            card: card("9S"),
        });
        assert_eq!(g.showing(9), 0b1100);
        // Numbers outside the table are answered, not a panic.
        assert_eq!(g.showing(200), 0);
        // Only cards past the dealt 20 bring corners outside the dealt rectangle.
        assert!(g.outside_corners().is_empty());
    }

    #[test]
    fn grid_summary_lists_the_corners_expand_brings_outside_the_dealt_rectangle() {
        let card = |s: &str| s.parse::<Card>().expect("card");
        let mut g: Grid = (0..GRID_CARDS)
            .map(|i| Cell {
                at: ((i % 5) as i8, (i / 5) as i8),
                card: card("2C"),
            })
            .collect();
        assert!(g.outside_corners().is_empty());
        // Right of (4, 1): corners (5, 1) and (5, 2) are the rectangle's, (6, 1) and (6, 2) new.
        g.push(Cell {
            at: (5, 1),
            card: card("3C"),
        });
        assert_eq!(g.outside_corners(), &[(6, 1), (6, 2)]);
        // Above (0, 0): (0, -1) and (1, -1) come first in (y, x) order.
        g.push(Cell {
            at: (0, -1),
            card: card("4C"),
        });
        assert_eq!(g.outside_corners(), &[(0, -1), (1, -1), (6, 1), (6, 2)]);
        // Beside the first Expand card: (6, 1) and (6, 2) are shared, (7, 1) and (7, 2) new.
        g.push(Cell {
            at: (6, 1),
            card: card("5C"),
        });
        assert_eq!(
            g.outside_corners(),
            &[(0, -1), (1, -1), (6, 1), (7, 1), (6, 2), (7, 2)]
        );
        // A cell at the edge of `i8` (refused later by `validate`) is summarised without a
        // panic.
        let mut edge = g.clone();
        edge.push(Cell {
            at: (i8::MAX, i8::MAX),
            card: card("8C"),
        });
        assert_eq!(edge.outside_corners().len(), 10);
        // Survey replaces a card in place: the corners stay.
        g.update(|c| c.at == (6, 1), |c| c.card = card("6C"));
        assert_eq!(g.outside_corners().len(), 6);
        assert_eq!(g.showing(6), 1 << 22);
        assert_eq!(g.showing(5), 0);
        // Updated in place (`GridSummary::replace`), the summary is the one a rebuild gives.
        assert_eq!(g, Grid::from(g.to_vec()));
    }
}

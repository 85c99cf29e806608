//! Board geometry: cells, names, direction tables (mailbox style), homes, front rows, ports.
//!
//! Every board is a list of cells `0..n` with a neighbour table `step[cell][dir]` (`NONE` off the
//! board). Directions `0..ortho` are the orthogonal ones and `ortho..2*ortho` the diagonal ones:
//! 4 + 4 on squares, 6 + 6 (Glinski) on the hexagon.

use std::sync::OnceLock;

/// "No cell" in the neighbour table.
pub const NONE: u8 = 255;
/// The largest number of cells of any board (10x10).
pub const MAX_CELLS: usize = 100;

/// Which board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardShape {
    Square8,
    Square10,
    Hex,
}

/// A board's precomputed geometry.
#[derive(Debug)]
pub struct Geo {
    pub shape: BoardShape,
    /// Number of cells.
    pub n: usize,
    /// Number of orthogonal directions (4 or 6); as many diagonal ones follow.
    pub ortho: usize,
    /// `step[cell][dir]`: the neighbour, or `NONE`.
    pub step: Vec<[u8; 12]>,
    /// Cell names (`a1`…).
    pub names: Vec<String>,
    /// The rows for drawing and for the row-by-row text forms: cell lists, row order as stored.
    pub rows: Vec<Vec<u8>>,
    /// `home[seat]`: the home cells of each seat, ascending.
    pub home: [Vec<u8>; 2],
    /// `home_of[cell]`: 0 or 1 for a home cell, -1 for no-man's-land.
    pub home_of: Vec<i8>,
    /// `front[cell]`: whether the cell is on its home's front row.
    pub front: Vec<bool>,
    /// Sea ports (hex corners) in order around the coast; empty on squares.
    pub ports: Vec<u8>,
    /// `ray[from * n + to]`: `(dir + 1) << 8 | distance` when `to` lies on a straight line from `from`,
    /// else 0.
    pub ray: Vec<u16>,
    /// Hex cube coordinates `(q, r)` (squares: `(file, rank)`).
    pub coords: Vec<(i8, i8)>,
}

impl Geo {
    /// The geometry of a board (built once).
    pub fn get(shape: BoardShape) -> &'static Geo {
        static S8: OnceLock<Geo> = OnceLock::new();
        static S10: OnceLock<Geo> = OnceLock::new();
        static HEX: OnceLock<Geo> = OnceLock::new();
        match shape {
            BoardShape::Square8 => S8.get_or_init(|| Geo::square(8)),
            BoardShape::Square10 => S10.get_or_init(|| Geo::square(10)),
            BoardShape::Hex => HEX.get_or_init(Geo::hex),
        }
    }

    /// The cell named `name`.
    pub fn cell(&self, name: &str) -> Option<u8> {
        self.names.iter().position(|n| n == name).map(|i| i as u8)
    }

    /// The name of a cell (`?` for an invalid index).
    pub fn name(&self, cell: u8) -> &str {
        self.names.get(cell as usize).map_or("?", |s| s.as_str())
    }

    /// Whether `b` is one step from `a` orthogonally or diagonally (King's morale): the 8 neighbours
    /// on squares, the 12 on the hexagon (6 edge neighbours and 6 Glinski diagonals, same-colour
    /// cells across a vertex).
    #[inline]
    pub fn adjacent(&self, a: u8, b: u8) -> bool {
        self.step[a as usize][..2 * self.ortho].contains(&b)
    }

    /// The line from `from` to `to`: `(dir, distance)`.
    #[inline]
    pub fn line(&self, from: u8, to: u8) -> Option<(usize, usize)> {
        let v = self.ray[from as usize * self.n + to as usize];
        if v == 0 {
            None
        } else {
            Some(((v >> 8) as usize - 1, (v & 0xff) as usize))
        }
    }

    fn finish(mut self) -> Geo {
        let n = self.n;
        self.ray = vec![0; n * n];
        for from in 0..n {
            for dir in 0..2 * self.ortho {
                let mut cur = from as u8;
                let mut dist = 0u16;
                loop {
                    let nxt = self.step[cur as usize][dir];
                    if nxt == NONE {
                        break;
                    }
                    dist += 1;
                    let slot = &mut self.ray[from * n + nxt as usize];
                    if *slot == 0 {
                        *slot = ((dir as u16 + 1) << 8) | dist;
                    }
                    cur = nxt;
                }
            }
        }
        self
    }

    fn square(w: usize) -> Geo {
        let n = w * w;
        let h = w / 2;
        // ortho: N E S W; diag: NE SE SW NW.
        let dv: [(i32, i32); 8] = [
            (0, 1),
            (1, 0),
            (0, -1),
            (-1, 0),
            (1, 1),
            (1, -1),
            (-1, -1),
            (-1, 1),
        ];
        let mut step = vec![[NONE; 12]; n];
        let mut names = Vec::with_capacity(n);
        let mut coords = Vec::with_capacity(n);
        let mut home_of = vec![-1i8; n];
        let mut front = vec![false; n];
        let mut home = [Vec::new(), Vec::new()];
        for rank in 0..w {
            for file in 0..w {
                let c = rank * w + file;
                names.push(format!("{}{}", (b'a' + file as u8) as char, rank + 1));
                coords.push((file as i8, rank as i8));
                for (d, (df, dr)) in dv.iter().enumerate() {
                    let (f2, r2) = (file as i32 + df, rank as i32 + dr);
                    if (0..w as i32).contains(&f2) && (0..w as i32).contains(&r2) {
                        step[c][d] = (r2 as usize * w + f2 as usize) as u8;
                    }
                }
                let seat = if rank < h { 0 } else { 1 };
                home_of[c] = seat as i8;
                home[seat].push(c as u8);
                front[c] = rank == h - 1 || rank == h;
            }
        }
        let rows = (0..w)
            .map(|r| (0..w).map(|f| (r * w + f) as u8).collect())
            .collect();
        Geo {
            shape: if w == 8 {
                BoardShape::Square8
            } else {
                BoardShape::Square10
            },
            n,
            ortho: 4,
            step,
            names,
            rows,
            home,
            home_of,
            front,
            ports: Vec::new(),
            ray: Vec::new(),
            coords,
        }
        .finish()
    }

    fn hex() -> Geo {
        // Cube coordinates (q, r, s = -q-r), radius 5. Rows are r = -5 (row `a`) .. 5 (row `k`),
        // cells in a row by ascending q.
        let mut cells: Vec<(i32, i32)> = Vec::new();
        let mut rows = Vec::new();
        let mut names = Vec::new();
        for r in -5i32..=5 {
            let mut row = Vec::new();
            let qmin = (-5).max(-r - 5);
            let qmax = 5.min(-r + 5);
            for (pos, q) in (qmin..=qmax).enumerate() {
                row.push(cells.len() as u8);
                names.push(format!("{}{}", (b'a' + (r + 5) as u8) as char, pos + 1));
                cells.push((q, r));
            }
            rows.push(row);
        }
        let n = cells.len();
        let index = |q: i32, r: i32| cells.iter().position(|&c| c == (q, r));
        // ortho (edge neighbours), then the Glinski diagonals, as (dq, dr).
        let dv: [(i32, i32); 12] = [
            (1, -1),
            (1, 0),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (0, -1),
            (2, -1),
            (1, 1),
            (-1, 2),
            (-2, 1),
            (-1, -1),
            (1, -2),
        ];
        let mut step = vec![[NONE; 12]; n];
        let mut home_of = vec![-1i8; n];
        let mut front = vec![false; n];
        let mut home = [Vec::new(), Vec::new()];
        let mut coords = Vec::with_capacity(n);
        for (c, &(q, r)) in cells.iter().enumerate() {
            coords.push((q as i8, r as i8));
            for (d, (dq, dr)) in dv.iter().enumerate() {
                if let Some(i) = index(q + dq, r + dr) {
                    step[c][d] = i as u8;
                }
            }
            let s = -q - r;
            let diff = r - s;
            if diff >= 2 {
                home_of[c] = 0;
                home[0].push(c as u8);
            } else if diff <= -2 {
                home_of[c] = 1;
                home[1].push(c as u8);
            }
            front[c] = diff.abs() == 2;
        }
        // Corners in order around the coast.
        let corner_coords = [(5, -5), (5, 0), (0, 5), (-5, 5), (-5, 0), (0, -5)];
        let ports = corner_coords
            .iter()
            .filter_map(|&(q, r)| index(q, r).map(|i| i as u8))
            .collect();
        Geo {
            shape: BoardShape::Hex,
            n,
            ortho: 6,
            step,
            names,
            rows,
            home,
            home_of,
            front,
            ports,
            ray: Vec::new(),
            coords,
        }
        .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_has_91_cells_37_per_home_17_no_mans_land() {
        let g = Geo::get(BoardShape::Hex);
        assert_eq!(g.n, 91);
        assert_eq!(g.home[0].len(), 37);
        assert_eq!(g.home[1].len(), 37);
        assert_eq!(g.home_of.iter().filter(|&&h| h < 0).count(), 17);
        assert_eq!(g.ports.len(), 6);
        assert_eq!(
            g.rows.iter().map(|r| r.len()).collect::<Vec<_>>(),
            vec![6, 7, 8, 9, 10, 11, 10, 9, 8, 7, 6]
        );
    }

    #[test]
    fn square_lines_and_adjacency() {
        let g = Geo::get(BoardShape::Square8);
        let a1 = g.cell("a1").unwrap();
        let h8 = g.cell("h8").unwrap();
        assert_eq!(g.line(a1, h8), Some((4, 7)));
        assert!(g.adjacent(a1, g.cell("b2").unwrap()));
        assert_eq!(g.home[0].len(), 32);
    }
}

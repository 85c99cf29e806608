//! Armies and setups: the setup validator, named presets, random and King-safe random setups.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tabula_core::rand::RngExt;
use tabula_core::{GameRng, Seat};
use ts_rs::TS;

use super::board::{Cell, cells_of, rows_mask};
use super::pieces::Kind;
use super::state::TrumpCyvasse;

/// A whole army placed on its home rows: cell → kind. Its JSON form is an object such as
/// `{"k3": "king", "j2": "crossbowman", "g1": "mountain", ...}` (19 entries).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(transparent)]
pub struct Army(pub BTreeMap<Cell, Kind>);

impl Army {
    /// The army seen from the other side of the table (for the other seat's copy of a preset).
    pub fn rotated(&self) -> Army {
        Army(self.0.iter().map(|(c, k)| (c.rotate180(), *k)).collect())
    }
    /// The army mirrored left-right.
    pub fn mirrored(&self) -> Army {
        Army(self.0.iter().map(|(c, k)| (c.mirror(), *k)).collect())
    }
    /// Where the King stands, if placed.
    pub fn king(&self) -> Option<Cell> {
        self.0
            .iter()
            .find(|(_, k)| **k == Kind::King)
            .map(|(c, _)| *c)
    }
}

/// The home rows of a seat: the first seat (South) `g`–`k`, the second (North) `a`–`e`.
pub fn home_rows(seat: Seat) -> (usize, usize) {
    if seat.index() == 0 { (6, 10) } else { (0, 4) }
}

/// The home rows of a seat as a bitboard.
pub fn home_mask(seat: Seat) -> u128 {
    const SOUTH: u128 = rows_mask(6, 10);
    const NORTH: u128 = rows_mask(0, 4);
    if seat.index() == 0 { SOUTH } else { NORTH }
}

/// Whether `cell` is on `seat`'s home rows.
pub fn is_home(seat: Seat, cell: Cell) -> bool {
    home_mask(seat) & cell.bit() != 0
}

/// The display name of a seat.
pub fn seat_label(seat: Seat) -> &'static str {
    if seat.index() == 0 { "South" } else { "North" }
}

/// Why a setup was refused: every problem found, each a full sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub Vec<String>);

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join("; "))
    }
}

impl std::error::Error for SetupError {}

/// The setup validator: every piece on the seat's own home rows and exactly the 19 pieces of an army
/// (Rabble ×3, Spearman ×2, Elephant ×2, Light Horse ×2, Heavy Horse ×2, Crossbowman ×2, Catapult,
/// Trebuchet, Dragon, King, Mountain ×2). Lists every problem found.
pub fn check_setup(seat: Seat, army: &Army) -> Result<(), SetupError> {
    let mut problems = Vec::new();
    if seat.index() > 1 {
        problems.push(format!(
            "there is no seat {seat} in Cyvasse (seats are 0 and 1)"
        ));
        return Err(SetupError(problems));
    }
    let (lo, hi) = home_rows(seat);
    let (lo_c, hi_c) = ((b'a' + lo as u8) as char, (b'a' + hi as u8) as char);
    for cell in army.0.keys() {
        if !is_home(seat, *cell) {
            problems.push(format!(
                "{cell} is not on {}'s home rows {lo_c}–{hi_c}",
                seat_label(seat)
            ));
        }
    }
    let mut counts = [0usize; 11];
    for kind in army.0.values() {
        counts[kind.index()] += 1;
    }
    for kind in Kind::ALL {
        let (have, want) = (counts[kind.index()], kind.count());
        if have > want {
            problems.push(format!("{have} × {kind} placed, but an army has {want}"));
        } else if have < want {
            problems.push(format!(
                "{} × {kind} missing (an army has {want}, {have} placed)",
                want - have
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(SetupError(problems))
    }
}

/// The names of the presets, in the order they are listed.
pub const PRESET_NAMES: [&str; 4] = ["fortress", "vanguard", "phalanx", "citadel"];

/// Builds the first seat's army from five row strings (rows `g`..`k`, one letter or `.` per cell),
/// and turns it for the second seat.
fn from_rows(seat: Seat, rows: [&str; 5]) -> Army {
    let mut army = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        for (pos, token) in row.split_whitespace().enumerate() {
            let kind = token.chars().next().and_then(Kind::from_letter);
            if let (Some(kind), Some(cell)) = (kind, Cell::from_row_pos(6 + i, pos)) {
                army.insert(cell, kind);
            }
        }
    }
    let army = Army(army);
    if seat.index() == 0 {
        army
    } else {
        army.rotated()
    }
}

/// Preset "fortress": Mountains on the front corners, infantry in front, the King on the back row
/// behind the Crossbowmen, Catapult, Dragon and Trebuchet.
pub fn fortress(seat: Seat) -> Army {
    from_rows(
        seat,
        [
            "M R S . R . . S R M",
            ". E L . . . L E .",
            ". H . X X . H .",
            ". . C D T . .",
            ". . K . . .",
        ],
    )
}

/// Preset "vanguard": horses and the Dragon in the front row, the King forward on row `i` (it usually
/// moves first).
pub fn vanguard(seat: Seat) -> Army {
    from_rows(
        seat,
        [
            "L . H . D . . H . L",
            ". E . R S R . E .",
            "M . X K . X . M",
            ". S . C . R .",
            ". . T . . .",
        ],
    )
}

/// Preset "phalanx": a wall of Spearmen, Rabble and Elephants, range units and Mountains behind.
pub fn phalanx(seat: Seat) -> Army {
    from_rows(
        seat,
        [
            "S R . E R . E R . S",
            ". L . X M X . L .",
            ". . H C . H . .",
            ". M . K D . .",
            ". . . T . .",
        ],
    )
}

/// Preset "citadel": the King in the back corner (`k1` for South), its only open Dragon line
/// guarded by a Crossbowman: safe on move one against any enemy setup.
pub fn citadel(seat: Seat) -> Army {
    from_rows(
        seat,
        [
            "R . S . E E . S . R",
            ". H . L . L . H .",
            "M . . D . . R M",
            "T X C . . X .",
            "K . . . . .",
        ],
    )
}

/// The named preset for `seat`, if `name` is one of [`PRESET_NAMES`].
pub fn preset(name: &str, seat: Seat) -> Option<Army> {
    match name {
        "fortress" => Some(fortress(seat)),
        "vanguard" => Some(vanguard(seat)),
        "phalanx" => Some(phalanx(seat)),
        "citadel" => Some(citadel(seat)),
        _ => None,
    }
}

/// The 19 pieces of an army, in [`Kind::ALL`] order.
pub fn army_kinds() -> Vec<Kind> {
    Kind::ALL
        .iter()
        .flat_map(|k| std::iter::repeat_n(*k, k.count()))
        .collect()
}

fn shuffle<T>(items: &mut [T], rng: &mut GameRng) {
    for i in (1..items.len()).rev() {
        let j = rng.random_range(0..=i);
        items.swap(i, j);
    }
}

/// A uniformly random legal setup: the 19 pieces on distinct random cells of the home rows.
pub fn random_setup(seat: Seat, rng: &mut GameRng) -> Army {
    let mut cells: Vec<Cell> = cells_of(home_mask(seat)).collect();
    shuffle(&mut cells, rng);
    Army(cells.into_iter().zip(army_kinds()).collect())
}

/// A random legal setup whose King cannot be captured on the opponent's first turn, whatever the
/// opponent's setup ([`king_safe_on_move_one`]): the King goes on the back row, a range unit is put
/// on each of its Dragon lines that reaches the enemy home rows, the rest is random.
pub fn safe_random_setup(seat: Seat, rng: &mut GameRng) -> Army {
    let back_row = if seat.index() == 0 { 10 } else { 0 };
    let home = home_mask(seat);
    for _ in 0..200 {
        let mut army = BTreeMap::new();
        let back: Vec<Cell> = Cell::all().filter(|c| c.row() == back_row).collect();
        let king = back[rng.random_range(0..back.len())];
        army.insert(king, Kind::King);
        let mut rest = army_kinds();
        rest.retain(|k| *k != Kind::King);
        let mut ranged: Vec<Kind> = vec![
            Kind::Crossbowman,
            Kind::Crossbowman,
            Kind::Catapult,
            Kind::Trebuchet,
        ];
        shuffle(&mut ranged, rng);
        for dir in 0..6 {
            let mut line = Vec::new();
            let mut at = king.step(dir);
            let mut reaches_enemy = false;
            while let Some(c) = at {
                if home & c.bit() != 0 {
                    line.push(c);
                } else if is_home(Seat::new(1 - seat.index()), c) {
                    reaches_enemy = true;
                    break;
                }
                at = c.step(dir);
            }
            if reaches_enemy && !line.is_empty() {
                let guard = line[rng.random_range(0..line.len())];
                if let Some(kind) = ranged.pop() {
                    army.insert(guard, kind);
                    if let Some(i) = rest.iter().position(|k| *k == kind) {
                        rest.remove(i);
                    }
                }
            }
        }
        let mut free: Vec<Cell> = Cell::all()
            .filter(|c| is_home(seat, *c) && !army.contains_key(c))
            .collect();
        shuffle(&mut free, rng);
        for (c, k) in free.into_iter().zip(rest) {
            army.insert(c, k);
        }
        let army = Army(army);
        if check_setup(seat, &army).is_ok() && king_safe_on_move_one(seat, &army) {
            return army;
        }
    }
    citadel(seat)
}

/// Whether `seat`'s King, in this setup, is safe on the opponent's first turn against every possible
/// opponent setup: no enemy unit standing anywhere on the enemy home rows (other enemy pieces and
/// Mountains only ever block, so they are left out) could capture it in one turn, both cavalry legs
/// included.
pub fn king_safe_on_move_one(seat: Seat, army: &Army) -> bool {
    let Some(king) = army.king() else {
        return false;
    };
    let enemy = Seat::new(1 - seat.index());
    let base = TrumpCyvasse::with_army(seat, army);
    for cell in Cell::all().filter(|c| is_home(enemy, *c)) {
        for kind in Kind::UNITS {
            if base.can_capture_in_one_turn(enemy, cell, kind, king) {
                return false;
            }
        }
    }
    true
}

/// The setups `legal_actions` lists for a seat during setup: the four presets, their mirror
/// images, four random setups and four King-safe random setups (all drawn from fixed seeds, so the
/// list is the same every time). Any other valid setup is accepted by `apply` as well.
pub fn listed_setups(seat: Seat) -> &'static [Army] {
    &listed(seat).0
}

/// The labels of [`listed_setups`], in the same order: where each listed army comes from, as the
/// setup notation writes it (`preset=phalanx`, `mirrored-preset=phalanx`, `random=2`,
/// `king-safe-random=2`; numbers count from 1). A preset that is its own mirror image is listed once,
/// as the preset.
pub fn listed_setup_labels(seat: Seat) -> &'static [String] {
    &listed(seat).1
}

/// The label of a listed army (of either seat: the two seats' armies stand on different cells), or
/// `None` for any other army.
pub fn listed_label(army: &Army) -> Option<&'static str> {
    [Seat(0), Seat(1)].into_iter().find_map(|seat| {
        let (armies, labels) = listed(seat);
        let i = armies.iter().position(|a| a == army)?;
        labels.get(i).map(String::as_str)
    })
}

/// The listed army of `seat` with this label, if there is one.
pub fn listed_by_label(seat: Seat, label: &str) -> Option<&'static Army> {
    let (armies, labels) = listed(seat);
    let i = labels.iter().position(|l| l == label)?;
    armies.get(i)
}

fn listed(seat: Seat) -> &'static (Vec<Army>, Vec<String>) {
    static LISTS: OnceLock<[(Vec<Army>, Vec<String>); 2]> = OnceLock::new();
    let lists = LISTS.get_or_init(|| {
        let south = Seat(0);
        let mut list: Vec<(Army, String)> = Vec::new();
        for name in PRESET_NAMES {
            if let Some(a) = preset(name, south) {
                let m = a.mirrored();
                if m != a {
                    list.push((m, format!("mirrored-preset={name}")));
                }
                list.push((a, format!("preset={name}")));
            }
        }
        for i in 0..4u64 {
            let mut rng = tabula_core::rng_from_seed(0xC7_0A55E + i);
            list.push((random_setup(south, &mut rng), format!("random={}", i + 1)));
            list.push((
                safe_random_setup(south, &mut rng),
                format!("king-safe-random={}", i + 1),
            ));
        }
        let mut armies: Vec<Army> = Vec::new();
        let mut labels: Vec<String> = Vec::new();
        for (a, l) in list {
            if !armies.contains(&a) {
                armies.push(a);
                labels.push(l);
            }
        }
        let north = armies.iter().map(Army::rotated).collect();
        [(armies, labels.clone()), (north, labels)]
    });
    &lists[seat.index().min(1)]
}

//! The hidden setup: the [`SetupPlan`] text form, the standalone validator [`validate_setup`], random
//! legal setups ([`random_setup`], [`guarded_setup`]), the named presets ([`preset`], [`PRESETS`]) and
//! the labelled list the game offers during the setup ([`listed_setups`]).
//!
//! A plan lists one character per home cell, in ascending cell order (see the module docs of
//! [`super`] for the cell order of each board); `/` and spaces are ignored, so rows may be separated.
//! * `pieces`: `K` King, `D` Dragon, `E` Elephant, `T` Trebuchet, `C` Crossbowman, `H` Heavy Horse,
//!   `L` Light Horse, `S` Spear, `R` Rabble, `M` Mountain, `.` empty (either case accepted).
//! * `terrain` (Version C only; empty in Version A): `.` or `g` Grassland, `h` Hills, `f` Forest,
//!   `w` Water, `c` Fortress.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use tabula_core::GameRng;
use tabula_core::rand::{RngExt, SeedableRng};
use ts_rs::TS;

use super::geo::NONE;
use super::rules::*;
use super::{CairdOptions, Version};

/// One seat's whole setup: terrain (Version C) and pieces, one character per home cell.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
pub struct SetupPlan {
    #[serde(default)]
    pub terrain: String,
    pub pieces: String,
}

/// The named presets (each valid on every board and option combination).
pub const PRESETS: [&str; 3] = ["phalanx", "vanguard", "flanks"];

/// Terrain tile counts for a half: (Fortress, Hills, Water, Forest); the rest is Grassland.
pub fn terrain_counts(o: &CairdOptions) -> [usize; 4] {
    if o.large_board {
        [1, 5, 5, 9]
    } else {
        [1, 4, 4, 7]
    }
}

/// Piece counts for a setup (the Dragon is absent when it starts in reserve).
pub fn piece_counts(o: &CairdOptions) -> [u8; 10] {
    let mut c = COUNTS;
    if o.dragon_reserve {
        c[DRAGON as usize] = 0;
    }
    c
}

fn clean(s: &str) -> Vec<char> {
    s.chars()
        .filter(|c| *c != '/' && !c.is_whitespace())
        .collect()
}

/// A validated setup, decoded: per home cell (in home order) the terrain code and piece kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decoded {
    pub terrain: Vec<u8>,
    pub pieces: Vec<Option<u8>>,
}

impl Decoded {
    /// The canonical text form (upper-case pieces, `.` for empty and Grassland, no separators).
    pub fn plan(&self, expert: bool) -> SetupPlan {
        SetupPlan {
            terrain: if expert {
                self.terrain
                    .iter()
                    .map(|&t| TERRAIN_LETTERS[t as usize])
                    .collect()
            } else {
                String::new()
            },
            pieces: self
                .pieces
                .iter()
                .map(|p| p.map_or('.', |k| LETTERS[k as usize]))
                .collect(),
        }
    }
}

/// Checks one seat's setup against every placement rule and returns it decoded; the error names the
/// rule that fails. Usable on its own (no game state needed).
pub fn validate_setup(o: &CairdOptions, seat: usize, plan: &SetupPlan) -> Result<Decoded, String> {
    let rules = Rules::new(o);
    let geo = rules.geo;
    if seat > 1 {
        return Err(format!("there is no seat {seat}"));
    }
    let home = &geo.home[seat];
    let expert = o.version == Version::Expert;
    let pcs = clean(&plan.pieces);
    if pcs.len() != home.len() {
        return Err(format!(
            "the pieces text has {} cells; the home zone has {} (one character per home cell)",
            pcs.len(),
            home.len()
        ));
    }
    let mut pieces = Vec::with_capacity(home.len());
    let mut counts = [0u8; 10];
    for (i, ch) in pcs.iter().enumerate() {
        if *ch == '.' {
            pieces.push(None);
            continue;
        }
        let up = ch.to_ascii_uppercase();
        let k = LETTERS.iter().position(|l| *l == up).ok_or_else(|| {
            format!(
                "unknown piece letter “{ch}” at {} (valid: K D E T C H L S R M .)",
                geo.name(home[i])
            )
        })? as u8;
        counts[k as usize] += 1;
        pieces.push(Some(k));
    }
    let want = piece_counts(o);
    for k in 0..10 {
        if counts[k] != want[k] {
            return Err(format!(
                "{} {}(s) placed; the setup needs exactly {}{}",
                counts[k],
                KIND_NAMES[k],
                want[k],
                if k == DRAGON as usize && o.dragon_reserve {
                    " (the Dragon starts in reserve)"
                } else {
                    ""
                }
            ));
        }
    }
    let ter = clean(&plan.terrain);
    let mut terrain = vec![GRASS; home.len()];
    if expert {
        if ter.len() != home.len() {
            return Err(format!(
                "the terrain text has {} cells; the home zone has {} (Version C places terrain on every cell)",
                ter.len(),
                home.len()
            ));
        }
        let mut tc = [0usize; 6];
        for (i, ch) in ter.iter().enumerate() {
            let t = match ch.to_ascii_lowercase() {
                '.' | 'g' => GRASS,
                'h' => HILLS,
                'f' => FOREST,
                'w' => WATER,
                'c' => FORTRESS,
                _ => {
                    return Err(format!(
                        "unknown terrain letter “{ch}” at {} (valid: . g h f w c)",
                        geo.name(home[i])
                    ));
                }
            };
            tc[t as usize] += 1;
            terrain[i] = t;
        }
        let [f, h, w, fo] = terrain_counts(o);
        for (t, n) in [(FORTRESS, f), (HILLS, h), (WATER, w), (FOREST, fo)] {
            if tc[t as usize] != n {
                return Err(format!(
                    "{} {} tile(s) placed; a half needs exactly {n}",
                    tc[t as usize], TERRAIN_NAMES[t as usize]
                ));
            }
        }
        for (i, p) in pieces.iter().enumerate() {
            if *p == Some(KING) && terrain[i] != FORTRESS {
                return Err(format!(
                    "the King stands on {} but must start in the Fortress",
                    geo.name(home[i])
                ));
            }
            if *p == Some(MOUNTAIN) && terrain[i] == WATER {
                return Err(format!(
                    "a Mountain stands on Water at {}: Mountains never go on Water",
                    geo.name(home[i])
                ));
            }
        }
    } else if ter.iter().any(|c| !matches!(c, '.' | 'g' | 'G')) {
        return Err("Version A (Basic) has no terrain: leave the terrain text empty".to_string());
    }
    if o.sea_movement {
        for (i, p) in pieces.iter().enumerate() {
            if *p == Some(MOUNTAIN) && geo.ports.contains(&home[i]) {
                return Err(format!(
                    "a Mountain stands on the port {}: ports are never Mountains",
                    geo.name(home[i])
                ));
            }
        }
    }
    // Mountain pass rule: every non-Mountain home cell reaches the front row orthogonally through
    // non-Mountain home cells.
    if let Err(c) = pass_rule(geo, seat, |i| pieces[i] == Some(MOUNTAIN)) {
        return Err(format!(
            "mountain pass rule: {} is cut off from the front row by Mountains",
            geo.name(c)
        ));
    }
    Ok(Decoded { terrain, pieces })
}

/// The Mountain pass rule for `seat`'s home, where `mountain(i)` tells whether home cell `i` (in
/// home order) holds a Mountain: `Err(cell)` names a non-Mountain cell cut off from the front row.
pub fn pass_rule(
    geo: &super::geo::Geo,
    seat: usize,
    mountain: impl Fn(usize) -> bool,
) -> Result<(), u8> {
    let home = &geo.home[seat];
    let mut open = [false; super::geo::MAX_CELLS];
    let mut reached = [false; super::geo::MAX_CELLS];
    let mut stack = Vec::new();
    for (i, &c) in home.iter().enumerate() {
        open[c as usize] = !mountain(i);
        if open[c as usize] && geo.front[c as usize] {
            reached[c as usize] = true;
            stack.push(c);
        }
    }
    while let Some(c) = stack.pop() {
        for d in 0..geo.ortho {
            let n = geo.step[c as usize][d];
            if n != NONE && open[n as usize] && !reached[n as usize] {
                reached[n as usize] = true;
                stack.push(n);
            }
        }
    }
    match home
        .iter()
        .find(|&&c| open[c as usize] && !reached[c as usize])
    {
        Some(&c) => Err(c),
        None => Ok(()),
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut GameRng) {
    for i in (1..v.len()).rev() {
        let j = rng.random_range(0..=i);
        v.swap(i, j);
    }
}

/// A uniformly shuffled legal setup for `seat` (retries until every placement rule holds).
pub fn random_setup(o: &CairdOptions, seat: usize, rng: &mut GameRng) -> SetupPlan {
    let rules = Rules::new(o);
    let geo = rules.geo;
    let n = geo.home[seat.min(1)].len();
    let expert = o.version == Version::Expert;
    let counts = piece_counts(o);
    let mut bag: Vec<u8> = Vec::new();
    for k in 0..10u8 {
        for _ in 0..counts[k as usize] {
            bag.push(k);
        }
    }
    let mut last = None;
    for _ in 0..10_000 {
        let mut terrain = vec![GRASS; n];
        if expert {
            let [f, h, w, fo] = terrain_counts(o);
            let mut i = 0;
            for (t, c) in [(FORTRESS, f), (HILLS, h), (WATER, w), (FOREST, fo)] {
                for _ in 0..c {
                    terrain[i] = t;
                    i += 1;
                }
            }
            shuffle(&mut terrain, rng);
        }
        let mut slots: Vec<Option<u8>> = bag.iter().map(|&k| Some(k)).collect();
        slots.resize(n, None);
        shuffle(&mut slots, rng);
        if expert {
            // Put the King in the Fortress.
            let king = slots.iter().position(|s| *s == Some(KING));
            let fort = terrain.iter().position(|t| *t == FORTRESS);
            if let (Some(k), Some(f)) = (king, fort) {
                slots.swap(k, f);
            }
        }
        let plan = Decoded {
            terrain,
            pieces: slots,
        }
        .plan(expert);
        if validate_setup(o, seat, &plan).is_ok() {
            return plan;
        }
        last = Some(plan);
    }
    // Practically unreachable (most shuffles are legal); fall back to a preset.
    preset(o, seat, PRESETS[0]).unwrap_or_else(|_| {
        last.unwrap_or(SetupPlan {
            terrain: String::new(),
            pieces: String::new(),
        })
    })
}

/// A random legal setup whose King no enemy piece could attack on the first move, wherever the enemy
/// placed it (every enemy kind on every enemy home cell is tried against the own pieces). Falls back
/// to the safest of many tries.
pub fn guarded_setup(o: &CairdOptions, seat: usize, rng: &mut GameRng) -> SetupPlan {
    let rules = Rules::new(o);
    let mut best: Option<(usize, SetupPlan)> = None;
    for _ in 0..400 {
        let plan = random_setup(o, seat, rng);
        let threats = king_threats(o, &rules, seat, &plan);
        if threats == 0 {
            return plan;
        }
        if best.as_ref().is_none_or(|(t, _)| threats < *t) {
            best = Some((threats, plan));
        }
    }
    match best {
        Some((_, p)) => p,
        None => random_setup(o, seat, rng),
    }
}

/// How many (enemy kind, enemy home cell) placements would attack this setup's King on move one.
pub fn king_threats(o: &CairdOptions, rules: &Rules, seat: usize, plan: &SetupPlan) -> usize {
    let Ok(d) = validate_setup(o, seat, plan) else {
        return usize::MAX;
    };
    let geo = rules.geo;
    let mut pos = Pos::empty();
    for (i, &c) in geo.home[seat].iter().enumerate() {
        pos.terrain[c as usize] = d.terrain[i];
        if let Some(k) = d.pieces[i] {
            pos.board[c as usize] = piece(k, seat as u8);
        }
    }
    pos.refresh(geo);
    let king = pos.kings[seat];
    let enemy = 1 - seat as u8;
    let mut threats = 0;
    for &c in &geo.home[enemy as usize] {
        for k in [DRAGON, ELEPHANT, TREBUCHET, CROSSBOW, HEAVY, LIGHT] {
            pos.board[c as usize] = piece(k, enemy);
            if rules.hits(&pos, c, king) {
                threats += 1;
            }
        }
        pos.board[c as usize] = 0;
    }
    threats
}

/// The named preset `name` for `seat` under these options.
///
/// Presets are built the same way on every board: cells are ranked by depth (distance from the
/// front row) and by distance from the centre line; the Mountains take a style-specific group of
/// cells, then the pieces fill the remaining cells in a fixed order, and (Version C) the Fortress goes
/// under the King while Water, Hills and Forest fill the cells in front of the army.
/// * `phalanx`: Mountains on the outer front-row cells, King at the back centre.
/// * `vanguard`: Mountains guard the back corners, the infantry forms the front line.
/// * `flanks`: Mountains on the outer cells of the second row from the front, Spears guarding the
///   King, the Rabble in front.
pub fn preset(o: &CairdOptions, seat: usize, name: &str) -> Result<SetupPlan, String> {
    let rules = Rules::new(o);
    let geo = rules.geo;
    if seat > 1 {
        return Err(format!("there is no seat {seat}"));
    }
    let home = &geo.home[seat];
    // depth: rows from the front; lateral: twice the distance from the centre line.
    let depth_lat = |c: u8| -> (i32, i32) {
        let (x, y) = geo.coords[c as usize];
        let (x, y) = (x as i32, y as i32);
        if rules.hex {
            let diff = 2 * y + x; // r - s
            (diff.abs() - 2, 2 * x.abs())
        } else {
            let w = if o.large_board { 10 } else { 8 };
            let h = w / 2;
            let depth = if seat == 0 { h - 1 - y } else { y - h };
            (depth, (2 * x - (w - 1)).abs())
        }
    };
    let mut cells: Vec<(usize, i32, i32)> = home
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let (d, l) = depth_lat(c);
            (i, d, l)
        })
        .collect();
    let counts = piece_counts(o);
    let mut order: Vec<u8> = match name {
        "phalanx" => vec![
            KING, DRAGON, TREBUCHET, TREBUCHET, ELEPHANT, ELEPHANT, HEAVY, HEAVY, CROSSBOW,
            CROSSBOW, LIGHT, LIGHT, SPEAR, SPEAR, SPEAR, SPEAR, RABBLE, RABBLE, RABBLE, RABBLE,
        ],
        "vanguard" => vec![
            KING, TREBUCHET, TREBUCHET, DRAGON, CROSSBOW, CROSSBOW, ELEPHANT, ELEPHANT, HEAVY,
            HEAVY, LIGHT, LIGHT, RABBLE, RABBLE, RABBLE, RABBLE, SPEAR, SPEAR, SPEAR, SPEAR,
        ],
        "flanks" => vec![
            KING, SPEAR, SPEAR, DRAGON, ELEPHANT, ELEPHANT, TREBUCHET, TREBUCHET, CROSSBOW,
            CROSSBOW, SPEAR, SPEAR, HEAVY, HEAVY, LIGHT, LIGHT, RABBLE, RABBLE, RABBLE, RABBLE,
        ],
        _ => {
            return Err(format!(
                "unknown preset “{name}”; presets: {}",
                PRESETS.join(", ")
            ));
        }
    };
    order.retain(|k| counts[*k as usize] > 0);
    let ports = |i: usize| o.sea_movement && geo.ports.contains(&home[i]);
    // Mountains.
    let mut mcells: Vec<(usize, i32, i32)> = cells
        .iter()
        .copied()
        .filter(|&(i, _, _)| !ports(i))
        .collect();
    let maxd = cells.iter().map(|c| c.1).max().unwrap_or(0);
    match name {
        "phalanx" => mcells.sort_by_key(|&(i, d, l)| (d, -l, i)),
        "vanguard" => mcells.sort_by_key(|&(i, d, l)| (-d, -l, i)),
        _ => mcells.sort_by_key(|&(i, d, l)| ((d - 1).abs().min(maxd), -l, i)),
    }
    let mut pieces: Vec<Option<u8>> = vec![None; home.len()];
    let mut placed_m = 0;
    for &(i, _, _) in &mcells {
        if placed_m == counts[MOUNTAIN as usize] {
            break;
        }
        pieces[i] = Some(MOUNTAIN);
        if pass_rule(geo, seat, |j| pieces[j] == Some(MOUNTAIN)).is_ok() {
            placed_m += 1;
        } else {
            pieces[i] = None;
        }
    }
    // Pieces: the King deepest and most central, then the rest.
    cells.retain(|&(i, _, _)| pieces[i].is_none());
    cells.sort_by_key(|&(i, d, l)| (-d, l, i));
    for (slot, &k) in order.iter().enumerate() {
        if let Some(&(i, _, _)) = cells.get(slot) {
            pieces[i] = Some(k);
        }
    }
    let expert = o.version == Version::Expert;
    let mut terrain = vec![GRASS; home.len()];
    if expert {
        let [_, h, w, fo] = terrain_counts(o);
        if let Some(k) = pieces.iter().position(|p| *p == Some(KING)) {
            terrain[k] = FORTRESS;
        }
        // Water on free or troop cells in front, never under a Mountain; then Hills, then Forest.
        let mut free: Vec<(usize, i32, i32)> = home
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let (d, l) = depth_lat(c);
                (i, d, l)
            })
            .filter(|&(i, _, _)| terrain[i] == GRASS)
            .collect();
        free.sort_by_key(|&(i, d, l)| (d, -l, i));
        let mut placed = 0;
        for &(i, _, _) in &free {
            if placed < w && pieces[i] != Some(MOUNTAIN) {
                terrain[i] = WATER;
                placed += 1;
            }
        }
        let rest: Vec<usize> = free
            .iter()
            .filter(|&&(i, _, _)| terrain[i] == GRASS)
            .map(|&(i, _, _)| i)
            .collect();
        let tiles = std::iter::repeat_n(HILLS, h).chain(std::iter::repeat_n(FOREST, fo));
        for (t, i) in tiles.zip(rest) {
            terrain[i] = t;
        }
    }
    let plan = Decoded { terrain, pieces }.plan(expert);
    validate_setup(o, seat, &plan)
        .map(|_| plan)
        .map_err(|e| format!("preset “{name}” is invalid here: {e}"))
}

/// One setup of the list the game offers a seat during the setup: its label, as the setup notation
/// writes it (`preset=phalanx`, `random=2`), and its plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSetup {
    pub label: String,
    pub plan: SetupPlan,
}

/// The setups `legal_actions` lists for `seat` during the setup: the presets valid with these options
/// (`preset=NAME`), then five random legal setups drawn from a fixed seed per seat (`random=1`..), so
/// the list is the same every time; duplicates are left out. Computed once per options and seat.
pub fn listed_setups(o: &CairdOptions, seat: usize) -> Arc<[ListedSetup]> {
    type Cache = Mutex<HashMap<(CairdOptions, usize), Arc<[ListedSetup]>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = (o.clone(), seat.min(1));
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(list) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return list.clone();
    }
    let seat = key.1;
    let mut list: Vec<ListedSetup> = Vec::new();
    for name in PRESETS {
        if let Ok(plan) = preset(o, seat, name)
            && !list.iter().any(|l| l.plan == plan)
        {
            list.push(ListedSetup {
                label: format!("preset={name}"),
                plan,
            });
        }
    }
    let mut rng = GameRng::seed_from_u64(0x5e7u64 ^ (seat as u64) << 32);
    let mut n = 0;
    for _ in 0..5 {
        let plan = random_setup(o, seat, &mut rng);
        if !list.iter().any(|l| l.plan == plan) {
            n += 1;
            list.push(ListedSetup {
                label: format!("random={n}"),
                plan,
            });
        }
    }
    let list: Arc<[ListedSetup]> = list.into();
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, list.clone());
    list
}

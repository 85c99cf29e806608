//! Kyo knowledge. Kyo has no hidden information and no chance, so alpha-beta searches it directly.
//!
//! **Evaluation** (a material-and-Mana balance squashed to an expected score by a logistic):
//! * pawns: Queen 6, Heavy 4, Knight 3.5, Cannon 3.5, Tower 3, Light Pawn 1.5 (the King is priceless:
//!   losing it ends the game, which the search sees);
//! * Mana: 0.6 per own Mana chip on the board (buried ones count, as in the rule), and a steep penalty
//!   of 2 per chip below 5 (running out of Mana loses the game);
//! * Shields: 0.2 each;
//! * King safety: −1.5 per enemy pawn next to the King (8 neighbours), +0.3 per own pawn next to it;
//! * progress: 0.15 × (9 − Chebyshev distance to the enemy King's starting square, E9 or E0) per
//!   pawn other than the King, so that quiet positions do not drift into the 100-turn draw (a fixed
//!   square: measured to the King itself, a King step moved every enemy pawn's progress at once);
//!   the side ahead on material (pawns, Mana, Shields) gets up to 0.25 more per square, in
//!   proportion to its lead (full at 4 points), so that it brings its pawns to the enemy rather than
//!   wait;
//! * the material part of the balance (pawns, Mana, Shields) is scaled by
//!   `1 − ½ · quiet_turns / 100`: an unconverted advantage fades as the quiet-turn count runs, so
//!   captures and destroyed Mana (which reset it) gain value. The positional terms (King safety,
//!   progress) do not fade, so progress keeps its weight near the 100-turn draw.
//!
//! **Learned evaluation features** (`kyo-v1`, 3,244 inputs, [`crate::nnue`]), from the side to
//! move's perspective (rows mirrored, 9 − r, when Red is to move; "own" is the side to move's):
//! * `0..1400`: a pawn, by kind (7) × own/enemy × square;
//! * `1400..3200`: a chip, by depth in its stack (the top chip, the one under it, any deeper one) ×
//!   kind (Dark, Light, Shield) × own/enemy × square (deeper chips of one kind may repeat a feature);
//! * `3200..3232`: own and enemy Mana chips on the board (0..=15, more counts as 15);
//! * `3232..3243`: the quiet-turn count in tens (0..=10);
//! * `3243`: the side to move is in the middle of its turn.
//!
//! **Tactical actions** (followed by alpha-beta's quiescence search past its depth): captures.
//! **Closing action** (a search leaf in the middle of a turn is scored after it; among equal
//! outcomes the agents end a turn rather than go on: see [`crate::alphabeta`]): `EndTurn`, once the
//! turn has an action.
//!
//! **Move ordering**: captures first (by the value of the captured pawn, the King above all), then
//! steps onto enemy Mana, then other steps, deploys, turn ends and shuffles last.
//! **Playouts** take a King capture when there is one, prefer captures half of the time and
//! re-draw a shuffle once (shuffles rarely matter in a random game).

use kyo::{Action, Kyo, PawnKind, Sq};
use tabula_core::rand::RngExt;
use tabula_core::{GameRng, Seat};

use crate::knowledge::{Knowledge, stable_hash};
use crate::nnue::FeatureSet;

/// Kyo's feature set for the learned evaluation (see the module docs).
pub const FEATURES: FeatureSet = FeatureSet {
    name: "kyo-v1",
    inputs: 3244,
};
const F_CHIPS: usize = 1400;
const F_MANA: usize = 3200;
const F_QUIET: usize = 3232;
const F_MIDTURN: usize = 3243;

/// Pushes the active `kyo-v1` features of `k` (see the module docs) and returns the side to move.
pub fn features(k: &Kyo, out: &mut Vec<u16>) -> Option<Seat> {
    if k.outcome.is_some() {
        return None;
    }
    features_as(k, k.to_move, out);
    Some(k.to_move)
}

/// Pushes the `kyo-v1` features of `k` seen from `persp` (rows mirrored for Red, "own" is
/// `persp`'s): what [`features`] gives when `persp` is to move.
pub fn features_as(k: &Kyo, persp: Seat, out: &mut Vec<u16>) {
    let me = persp.0.min(1);
    let mut mana = [0usize; 2];
    for (i, c) in k.board.cells.iter().enumerate() {
        cell_features(c, Sq(i as u8), me, out);
        for ch in &c.chips {
            if ch.kind.is_mana() {
                mana[usize::from(ch.owner.min(1))] += 1;
            }
        }
    }
    let own = usize::from(me);
    mana_features(mana[own], mana[1 - own], out);
    out.push(quiet_feature(k));
    if k.turn.steps > 0 {
        out.push(F_MIDTURN as u16);
    }
}

/// The features of one square (its pawn and its chips) from seat `me`'s perspective.
fn cell_features(c: &kyo::Cell, sq: Sq, me: u8, out: &mut Vec<u16>) {
    let row = if me == 0 { sq.row() } else { 9 - sq.row() };
    let cell = (row as usize) * 10 + sq.col() as usize;
    if let Some(p) = c.pawn {
        let kind = PawnKind::ALL.iter().position(|&x| x == p.kind).unwrap_or(0);
        let rel = usize::from(p.owner != me);
        out.push(((kind * 2 + rel) * 100 + cell) as u16);
    }
    let n = c.chips.len();
    for (j, ch) in c.chips.iter().enumerate() {
        let depth = (n - 1 - j).min(2);
        let kind = match ch.kind {
            kyo::ChipKind::Dark => 0,
            kyo::ChipKind::Light => 1,
            kyo::ChipKind::Shield => 2,
        };
        let rel = usize::from(ch.owner != me);
        out.push((F_CHIPS + ((depth * 3 + kind) * 2 + rel) * 100 + cell) as u16);
    }
}

fn mana_features(own: usize, enemy: usize, out: &mut Vec<u16>) {
    out.push((F_MANA + own.min(15)) as u16);
    out.push((F_MANA + 16 + enemy.min(15)) as u16);
}

fn quiet_feature(k: &Kyo) -> u16 {
    (F_QUIET + (k.quiet_turns / 10).min(10) as usize) as u16
}

/// Mana chips by owner (Gold, Red) on a square.
fn cell_mana(c: &kyo::Cell) -> [i32; 2] {
    let mut m = [0i32; 2];
    for ch in &c.chips {
        if ch.kind.is_mana() {
            m[usize::from(ch.owner.min(1))] += 1;
        }
    }
    m
}

/// The `kyo-v1` features that differ between `before` and `after` (a state reached from it), from
/// each seat's perspective (index 0 Gold, 1 Red): after removing `removed[p]` from
/// `features_as(before, p)` and adding `added[p]`, the multiset is `features_as(after, p)`. Only
/// the squares that changed are looked at (and the Mana counts only when Mana changed). `false`
/// when either state is over or the boards differ in size (the caller computes afresh).
pub fn feature_delta(
    before: &Kyo,
    after: &Kyo,
    removed: &mut [Vec<u16>; 2],
    added: &mut [Vec<u16>; 2],
) -> bool {
    if before.outcome.is_some()
        || after.outcome.is_some()
        || before.board.cells.len() != after.board.cells.len()
    {
        return false;
    }
    let mut d_mana = [0i32; 2];
    for (i, (b, a)) in before
        .board
        .cells
        .iter()
        .zip(&after.board.cells)
        .enumerate()
    {
        if b == a {
            continue;
        }
        let sq = Sq(i as u8);
        for me in 0..2u8 {
            cell_features(b, sq, me, &mut removed[usize::from(me)]);
            cell_features(a, sq, me, &mut added[usize::from(me)]);
        }
        let (mb, ma) = (cell_mana(b), cell_mana(a));
        d_mana[0] += ma[0] - mb[0];
        d_mana[1] += ma[1] - mb[1];
    }
    if d_mana != [0, 0] {
        let mut now = [0i32; 2];
        for c in &after.board.cells {
            let m = cell_mana(c);
            now[0] += m[0];
            now[1] += m[1];
        }
        let then = [now[0] - d_mana[0], now[1] - d_mana[1]];
        let count = |x: i32| usize::try_from(x).unwrap_or(0);
        for me in 0..2usize {
            mana_features(count(then[me]), count(then[1 - me]), &mut removed[me]);
            mana_features(count(now[me]), count(now[1 - me]), &mut added[me]);
        }
    }
    let (qb, qa) = (quiet_feature(before), quiet_feature(after));
    if qb != qa {
        for me in 0..2 {
            removed[me].push(qb);
            added[me].push(qa);
        }
    }
    let (mb, ma) = (before.turn.steps > 0, after.turn.steps > 0);
    if mb != ma {
        let list = if mb { &mut *removed } else { &mut *added };
        for v in list.iter_mut() {
            v.push(F_MIDTURN as u16);
        }
    }
    true
}

fn pawn_value(kind: PawnKind) -> f64 {
    match kind {
        PawnKind::King => 0.0,
        PawnKind::Queen => 6.0,
        PawnKind::Heavy => 4.0,
        PawnKind::Knight | PawnKind::Cannon => 3.5,
        PawnKind::Tower => 3.0,
        PawnKind::LightPawn => 1.5,
    }
}

/// The progress weight per pawn and square nearer the enemy King. (Raising it with the quiet-turn
/// count, from 0.15 to 0.5, was tried and drew more games against `random`, 6 of 14 against 8 of
/// 44: see `docs/benchmarks/ai.md`, round 5.)
const PROGRESS: f64 = 0.15;

/// The extra progress weight of the side ahead on material, reached at a lead of [`FULL_LEAD`].
const LEAD_PROGRESS: f64 = 0.25;
/// The material lead (in pawn-value points) at which the extra progress weight is full.
const FULL_LEAD: f64 = 4.0;

fn chebyshev(a: Sq, b: Sq) -> i8 {
    (a.col() - b.col()).abs().max((a.row() - b.row()).abs())
}

/// Gold's material-and-position balance (positive favours Gold, seat 0).
pub fn balance(k: &Kyo) -> f64 {
    let mut side = [0.0f64; 2];
    let mut mana = [0usize; 2];
    let mut kings: [Option<Sq>; 2] = [None, None];
    for (i, c) in k.board.cells.iter().enumerate() {
        for ch in &c.chips {
            let o = usize::from(ch.owner.min(1));
            if ch.kind.is_mana() {
                mana[o] += 1;
            } else {
                side[o] += 0.2;
            }
        }
        if let Some(p) = c.pawn {
            let o = usize::from(p.owner.min(1));
            side[o] += pawn_value(p.kind);
            if p.kind == PawnKind::King {
                kings[o] = Some(Sq(i as u8));
            }
        }
    }
    for o in 0..2 {
        side[o] += 0.6 * mana[o] as f64;
        if mana[o] < 5 {
            side[o] -= 2.0 * (5 - mana[o]) as f64;
        }
    }
    // The material lead (pawns, Mana, Shields) before the positional terms.
    let lead = [side[0] - side[1], side[1] - side[0]];
    // The Kings' starting squares (E0, E9).
    let home = [Sq(4), Sq(94)];
    for o in 0..2 {
        // Progress: pawns closer to the enemy King's starting square (Chebyshev distance) are worth
        // a little more, so that quiet positions are not shuffled back and forth into the 100-turn
        // draw; more so for the side ahead on material, which has a game to convert. The square is
        // fixed: measured to the King itself, one step of the King away from the enemy's pawns cost
        // them all their progress (over 2 points), so every line that gave the opponent a move
        // looked that much worse than a Mana chain that did not.
        let progress = PROGRESS + LEAD_PROGRESS * (lead[o] / FULL_LEAD).clamp(0.0, 1.0);
        if kings[1 - o].is_some() {
            for (i, c) in k.board.cells.iter().enumerate() {
                if let Some(p) = c.pawn
                    && usize::from(p.owner) == o
                    && p.kind != PawnKind::King
                {
                    let sq = Sq(i as u8);
                    let d = chebyshev(sq, home[1 - o]);
                    side[o] += progress * f64::from(9 - d);
                }
            }
        }
        if let Some(ks) = kings[o] {
            for (dc, dr) in kyo::DIRS {
                if let Some(n) = ks.offset(dc, dr)
                    && let Some(p) = k.board.cell(n).pawn
                {
                    if usize::from(p.owner) == o {
                        side[o] += 0.3;
                    } else {
                        side[o] -= 1.5;
                    }
                }
            }
        }
    }
    // The 100-turn quiet rule: a material advantage that is not converted fades as the count runs,
    // so a capture or destroyed Mana (which resets it) is worth more to the side ahead. The
    // positional terms do not fade: faded, progress was worth half as much near the draw, where
    // it is most needed.
    let fade = 1.0
        - 0.5 * f64::from(k.quiet_turns.min(kyo::QUIET_TURN_LIMIT))
            / f64::from(kyo::QUIET_TURN_LIMIT.max(1));
    lead[0] * fade + (side[0] - side[1] - lead[0])
}

fn capture_priority(k: &Kyo, a: &Action) -> i32 {
    match *a {
        Action::Step { to, pawn, .. } => {
            let me = k.to_move.0;
            let cell = k.board.cell(to);
            match cell.pawn {
                Some(p) if pawn && p.owner != me => {
                    if p.kind == PawnKind::King {
                        10_000
                    } else {
                        100 + (pawn_value(p.kind) * 10.0) as i32
                    }
                }
                None if cell.top_chip().is_some_and(|c| c.is_enemy_mana(me)) => 20,
                _ => 5,
            }
        }
        Action::Deploy { .. } => 2,
        Action::EndTurn => 1,
        Action::Shuffle { .. } => 0,
    }
}

impl Knowledge for Kyo {
    const HAS_TACTICAL_ACTIONS: bool = true;

    fn evaluate(&self) -> Option<Vec<f64>> {
        let p = 1.0 / (1.0 + (-balance(self) / 6.0).exp());
        Some(vec![p, 1.0 - p])
    }

    fn perfect_information(&self) -> bool {
        true
    }

    fn action_priority(&self, action: &Action) -> i32 {
        capture_priority(self, action)
    }

    fn is_tactical(&self, action: &Action) -> bool {
        // Captures (the King's included); steps onto enemy Mana are not: their Mana is destroyed
        // only when the turn ends there.
        capture_priority(self, action) >= 100
    }

    fn closing_action(&self) -> Option<Action> {
        // `EndTurn` is legal once the turn has an action (after Mana moves, Tower deploys, Queen
        // shuffles).
        (self.turn.steps > 0 && self.outcome.is_none()).then_some(Action::EndTurn)
    }

    fn position_key(&self) -> u64 {
        self.position_hash() ^ stable_hash(&self.turn).rotate_left(17)
    }

    const PLAN_TURNS: bool = true;

    fn turn_node_key(&self) -> u64 {
        // What decides the turn's further steps: the board, the acting pawn and the chain's
        // state. The squares visited and the positions that stood earlier in the turn only forbid
        // a return; the step count only counts.
        let t = &self.turn;
        let rest = (
            t.active,
            t.phase,
            t.mana,
            t.last_shuffle,
            t.carried,
            t.lifted,
            t.removed,
        );
        self.position_hash() ^ stable_hash(&rest).rotate_left(17)
    }

    fn playout_choice(&self, _seat: Seat, legal: &[Action], rng: &mut GameRng) -> usize {
        let mut best = (0, 0usize);
        let mut captures = 0usize;
        for (i, a) in legal.iter().enumerate() {
            let p = capture_priority(self, a);
            if p >= 100 {
                captures += 1;
                if p > best.0 {
                    best = (p, i);
                }
            }
        }
        if best.0 >= 10_000 || (captures > 0 && rng.random::<f64>() < 0.5) {
            return best.1;
        }
        let i = rng.random_range(0..legal.len());
        if matches!(legal[i], Action::Shuffle { .. }) {
            rng.random_range(0..legal.len())
        } else {
            i
        }
    }

    fn playout_limit(&self) -> u32 {
        2000
    }

    const NNUE_FEATURES: Option<FeatureSet> = Some(FEATURES);

    fn nnue_features(&self, out: &mut Vec<u16>) -> Option<Seat> {
        features(self, out)
    }

    fn nnue_features_as(&self, persp: Seat, out: &mut Vec<u16>) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        features_as(self, persp, out);
        true
    }

    fn nnue_delta(
        &self,
        before: &Self,
        removed: &mut [Vec<u16>; 2],
        added: &mut [Vec<u16>; 2],
    ) -> bool {
        feature_delta(before, self, removed, added)
    }
}

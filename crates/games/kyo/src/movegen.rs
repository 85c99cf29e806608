//! Legal action generation. The generator is the single definition of legality: `apply` accepts an
//! action exactly when the generator lists it (for the action's source square).

use crate::board::{Cell, ChipKind, DIRS, Dir, Order, PawnKind, Sq, stack_hash};
use crate::{Action, Kyo, Phase};

/// Where generated actions go; with `first_only`, generation stops at the first one.
pub(crate) struct Sink<'a> {
    pub out: &'a mut Vec<Action>,
    pub first_only: bool,
}

impl Sink<'_> {
    #[inline]
    fn push(&mut self, a: Action) {
        self.out.push(a);
    }
    #[inline]
    fn done(&self) -> bool {
        self.first_only && !self.out.is_empty()
    }
}

/// Knight leaps.
const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Where a pawn of `me` of kind `kind` may land on `cell` by an ordinary step.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Landing {
    /// Empty, or a pawnless stack topped by Mana (or by Shields, for a Tower).
    Free,
    /// An enemy pawn stands there.
    Capture,
    /// Not allowed.
    Blocked,
}

pub(crate) fn pawn_landing(cell: &Cell, me: u8, kind: PawnKind) -> Landing {
    match cell.pawn {
        Some(p) if p.owner == me => Landing::Blocked,
        Some(_) => Landing::Capture,
        None => match cell.top_chip() {
            None => Landing::Free,
            Some(c) if c.kind.is_mana() => Landing::Free,
            Some(_) => {
                if kind == PawnKind::Tower {
                    Landing::Free
                } else {
                    Landing::Blocked
                }
            }
        },
    }
}

/// Whether a deploy (Shields of `me`) may land on `cell`: no pawn and no enemy Shield on top.
pub(crate) fn deploy_landing(cell: &Cell, me: u8) -> bool {
    cell.pawn.is_none()
        && !cell
            .top_chip()
            .is_some_and(|c| c.owner != me && c.kind == ChipKind::Shield)
}

/// Whether the square is topped by an item of `side` for the outnumbering count (pawn or Mana chip;
/// Shields count for nobody).
fn topped_by(cell: &Cell, side: u8) -> bool {
    match cell.pawn {
        Some(p) => p.owner == side,
        None => cell
            .top_chip()
            .is_some_and(|c| c.owner == side && c.kind.is_mana()),
    }
}

impl Kyo {
    /// Light Pawn outnumbering: (friendly-topped neighbours of the target, enemy-topped neighbours of
    /// the attacker), counted for `me`.
    pub(crate) fn outnumbering(&self, me: u8, from: Sq, target: Sq) -> (usize, usize) {
        let count = |sq: Sq, side: u8| {
            DIRS.iter()
                .filter_map(|(dc, dr)| sq.offset(*dc, *dr))
                .filter(|n| topped_by(self.board.cell(*n), side))
                .count()
        };
        (count(target, me), count(from, 1 - me))
    }

    /// Whether a pawn step from `from` to the adjacent `to` would be a Mana move when `chips` chips are
    /// carried: the top chip left behind is Mana of the direction's colour (never for a Light Pawn).
    pub(crate) fn mana_qualifies(&self, from: Sq, to: Sq, chips: usize) -> Option<Dir> {
        let cell = self.board.cell(from);
        let pawn = cell.pawn?;
        if pawn.kind == PawnKind::LightPawn {
            return None;
        }
        let dir = Dir::between(from, to)?;
        let n = cell.chips.len();
        if chips >= n {
            return None;
        }
        (cell.chips[n - chips - 1].kind == dir.colour()).then_some(dir)
    }

    /// Every legal action of the side to move (the caller checked that it is that side's decision).
    pub(crate) fn generate(&self, sink: &mut Sink<'_>) {
        if self.outcome.is_some() {
            return;
        }
        if self.turn.steps == 0 {
            for sq in Sq::all() {
                self.generate_from(sq, sink);
                if sink.done() {
                    return;
                }
            }
        } else {
            sink.push(Action::EndTurn);
            if let Some(a) = self.turn.active {
                self.generate_from(a, sink);
            }
        }
    }

    /// The legal actions whose source is `sq` (in the current turn state).
    pub(crate) fn generate_from(&self, sq: Sq, sink: &mut Sink<'_>) {
        let me = self.to_move.0;
        let cell = self.board.cell(sq);
        if self.turn.steps > 0 && self.turn.active != Some(sq) {
            return;
        }
        match cell.pawn {
            Some(p) if p.owner == me => self.gen_pawn(sq, p.kind, sink),
            Some(_) => {}
            None => {
                if self.turn.steps == 0 && cell.top_chip().is_some_and(|c| c.owner == me) {
                    self.gen_pawnless(sq, sink);
                }
            }
        }
    }

    fn gen_pawn(&self, sq: Sq, kind: PawnKind, sink: &mut Sink<'_>) {
        let me = self.to_move.0;
        let cell = self.board.cell(sq);
        let n = cell.chips.len();
        let lim = cell.own_run(me).min(kind.carry_limit());
        let phase = self.turn.phase;
        let last = self.turn.mana;
        // The board's hash, computed once when a step back to a square stood on needs it.
        let mut now = None;

        // Ordinary one-square steps (direct or Mana moves, captures).
        if phase != Phase::Locked {
            for (d, (dc, dr)) in DIRS.iter().enumerate() {
                let Some(to) = sq.offset(*dc, *dr) else {
                    continue;
                };
                // Only a step back to a square the pawn stood on can recreate an earlier position.
                let back = self.turn.visited >> to.0 & 1 == 1;
                let dir = Dir(d as u8);
                let target = self.board.cell(to);
                match pawn_landing(target, me, kind) {
                    Landing::Blocked => continue,
                    Landing::Capture => {
                        if kind == PawnKind::Cannon {
                            continue;
                        }
                        if kind == PawnKind::LightPawn {
                            let (a, b) = self.outnumbering(me, sq, to);
                            if a <= b {
                                continue;
                            }
                        }
                    }
                    Landing::Free => {}
                }
                for k in (0..=lim).rev() {
                    let qualifies = kind != PawnKind::LightPawn
                        && k < n
                        && cell.chips[n - k - 1].kind == dir.colour();
                    if phase == Phase::Chain {
                        if !qualifies {
                            continue;
                        }
                        if let Some(l) = last
                            && l.colour() == dir.colour()
                            && l != dir
                        {
                            continue;
                        }
                    }
                    if back && self.step_repeats(sq, to, k, &mut now) {
                        continue;
                    }
                    sink.push(Action::Step {
                        from: sq,
                        to,
                        pawn: true,
                        chips: k as u8,
                    });
                }
                if sink.done() {
                    return;
                }
            }
        }

        if phase == Phase::Open {
            // Knight leaps.
            if kind == PawnKind::Knight {
                for (dc, dr) in KNIGHT {
                    let Some(to) = sq.offset(dc, dr) else {
                        continue;
                    };
                    if pawn_landing(self.board.cell(to), me, kind) == Landing::Blocked {
                        continue;
                    }
                    for k in (0..=lim).rev() {
                        sink.push(Action::Step {
                            from: sq,
                            to,
                            pawn: true,
                            chips: k as u8,
                        });
                    }
                }
            }
            // Cannon captures over exactly one stack.
            if kind == PawnKind::Cannon {
                for (dc, dr) in DIRS {
                    for dist in 2..=3i8 {
                        let Some(to) = sq.offset(dc * dist, dr * dist) else {
                            continue;
                        };
                        if !self.cannon_can_capture(sq, to) {
                            continue;
                        }
                        for k in (0..=lim).rev() {
                            sink.push(Action::Step {
                                from: sq,
                                to,
                                pawn: true,
                                chips: k as u8,
                            });
                        }
                    }
                }
            }
            // The chips alone (leaving the pawn); all-Shield ones are deploys.
            let shields = cell.own_shield_run(me).min(lim);
            for k in ((shields + 1)..=lim).rev() {
                for (dc, dr) in DIRS {
                    let Some(to) = sq.offset(dc, dr) else {
                        continue;
                    };
                    if self.board.cell(to).pawn.is_none() {
                        sink.push(Action::Step {
                            from: sq,
                            to,
                            pawn: false,
                            chips: k as u8,
                        });
                    }
                }
            }
        }
        if sink.done() {
            return;
        }

        // Deploys: free for the Tower in any phase, a turn-ending direct move for others; only
        // Shields of the slice lifted since the turn began.
        if kind == PawnKind::Tower || phase == Phase::Open {
            let shields = self.deployable(sq);
            for (dc, dr) in DIRS {
                let Some(to) = sq.offset(dc, dr) else {
                    continue;
                };
                if !deploy_landing(self.board.cell(to), me) {
                    continue;
                }
                for k in 1..=shields {
                    sink.push(Action::Deploy {
                        from: sq,
                        to,
                        count: k as u8,
                    });
                }
            }
        }

        // Shuffles.
        let may_shuffle = match kind {
            PawnKind::Queen => !self.turn.last_shuffle && phase != Phase::Locked,
            _ => phase == Phase::Open,
        };
        if may_shuffle && lim >= 2 {
            gen_shuffles(sq, &cell.chips[n - lim..], sink);
        }
    }

    /// How many Shields the pawn on `sq` may deploy now: the mover's Shields in an unbroken run directly
    /// under it, within its carry limit and within the chips it has carried since its turn began
    /// (`turn.lifted`, or `turn.carried` when a hand-written state leaves it out; all of its slice
    /// before it has moved).
    pub(crate) fn deployable(&self, sq: Sq) -> usize {
        let me = self.to_move.0;
        let cell = self.board.cell(sq);
        let Some(p) = cell.pawn else {
            return 0;
        };
        let lim = cell.own_run(me).min(p.kind.carry_limit());
        let lifted = self
            .turn
            .lifted
            .or(self.turn.carried)
            .map_or(lim, usize::from);
        cell.own_shield_run(me).min(lim).min(lifted)
    }

    /// Whether the pawn step from `from` to `to` carrying `k` chips would recreate a whole position
    /// (every stack) that already stood earlier in this turn (`turn.positions`). `now` caches the
    /// current board's hash; the step's result is hashed from it by the two squares it changes. A
    /// capture never recreates one (a pawn is gone that stood in all of them).
    pub(crate) fn step_repeats(&self, from: Sq, to: Sq, k: usize, now: &mut Option<u64>) -> bool {
        if self.turn.positions.is_empty() {
            return false;
        }
        let me = self.to_move.0;
        let src = self.board.cell(from);
        let dst = self.board.cell(to);
        let Some(p) = src.pawn else {
            return false;
        };
        if dst.pawn.is_some() {
            return false;
        }
        let n = src.chips.len();
        let k = k.min(n);
        let mut keep = dst.chips.len();
        if p.kind == PawnKind::Tower {
            while keep > 0 && {
                let c = dst.chips[keep - 1];
                c.owner != me && c.kind == ChipKind::Shield
            } {
                keep -= 1;
            }
        }
        let h = *now.get_or_insert_with(|| self.board.hash())
            ^ stack_hash(from, src.chips.iter().copied(), Some(p))
            ^ stack_hash(from, src.chips[..n - k].iter().copied(), None)
            ^ stack_hash(to, dst.chips.iter().copied(), None)
            ^ stack_hash(
                to,
                dst.chips[..keep].iter().chain(&src.chips[n - k..]).copied(),
                Some(p),
            );
        self.turn.positions.contains(&h)
    }

    /// Whether a Cannon on `from` may capture on `to` (2 or 3 squares away in a straight line, exactly
    /// one stack between, an enemy pawn on `to`).
    pub(crate) fn cannon_can_capture(&self, from: Sq, to: Sq) -> bool {
        let me = self.to_move.0;
        let dc = to.col() - from.col();
        let dr = to.row() - from.row();
        let dist = dc.abs().max(dr.abs());
        if !(2..=3).contains(&dist) || (dc != 0 && dr != 0 && dc.abs() != dr.abs()) {
            return false;
        }
        if self.board.cell(to).pawn.is_none_or(|p| p.owner == me) {
            return false;
        }
        let (sc, sr) = (dc.signum(), dr.signum());
        let between = (1..dist)
            .filter_map(|i| from.offset(sc * i, sr * i))
            .filter(|s| !self.board.cell(*s).is_empty())
            .count();
        between == 1
    }

    fn gen_pawnless(&self, sq: Sq, sink: &mut Sink<'_>) {
        let me = self.to_move.0;
        let cell = self.board.cell(sq);
        let run = cell.own_run(me);
        for (dc, dr) in DIRS {
            let Some(to) = sq.offset(dc, dr) else {
                continue;
            };
            if self.board.cell(to).pawn.is_some() {
                continue;
            }
            for k in (1..=run).rev() {
                sink.push(Action::Step {
                    from: sq,
                    to,
                    pawn: false,
                    chips: k as u8,
                });
            }
        }
        if run >= 2 {
            let n = cell.chips.len();
            gen_shuffles(sq, &cell.chips[n - run..], sink);
        }
    }
}

/// Every shuffle of the top of `slice` (bottom to top): for each depth k, the new orders of the top k
/// chips whose bottom chip differs from the current one (so every resulting stack is listed once, by
/// its deepest change) and with no Shield under a Mana chip.
fn gen_shuffles(at: Sq, slice: &[crate::board::Chip], sink: &mut Sink<'_>) {
    let m = slice.len().min(Order::MAX);
    let slice = &slice[slice.len() - m..];
    for k in 2..=m {
        let old = &slice[m - k..];
        let (mut d, mut l, mut s) = (0usize, 0usize, 0usize);
        for c in old {
            match c.kind {
                ChipKind::Dark => d += 1,
                ChipKind::Light => l += 1,
                ChipKind::Shield => s += 1,
            }
        }
        if d + l == 0 {
            continue;
        }
        // The Mana chips take the bottom d + l places in every allowed order; the Shields go on top.
        // The bottom chip must change, so the first (bottom) kind differs from the current one.
        let bottom = old[0].kind;
        let mut emit = |mut o: Order| {
            for _ in 0..s {
                o.push(ChipKind::Shield);
            }
            sink.push(Action::Shuffle { at, order: o });
        };
        if bottom != ChipKind::Dark && d > 0 {
            mana_orders(d - 1, l, Order::from_kinds([ChipKind::Dark]), &mut emit);
        }
        if bottom != ChipKind::Light && l > 0 {
            mana_orders(d, l - 1, Order::from_kinds([ChipKind::Light]), &mut emit);
        }
    }
}

/// Calls `f` with `prefix` followed by every arrangement of `d` Dark and `l` Light chips.
fn mana_orders<F: FnMut(Order)>(d: usize, l: usize, prefix: Order, f: &mut F) {
    if d == 0 && l == 0 {
        f(prefix);
        return;
    }
    if d > 0 {
        let mut o = prefix;
        o.push(ChipKind::Dark);
        mana_orders(d - 1, l, o, f);
    }
    if l > 0 {
        let mut o = prefix;
        o.push(ChipKind::Light);
        mana_orders(d, l - 1, o, f);
    }
}

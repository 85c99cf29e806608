//! Applying actions: the effects of steps, shuffles and deploys, the end of a turn (Mana destruction,
//! win and draw checks), and the reasons given when an action is refused.

use tabula_core::{ActionError, Outcome, Seat};

use crate::board::{ChipKind, Dir, PawnKind, Sq};
use crate::movegen::{Landing, Sink, deploy_landing, pawn_landing};
use crate::{Action, Kyo, Phase, Turn};

/// Turns in a row without a capture or destroyed Mana that draw the game.
pub const QUIET_TURN_LIMIT: u32 = 100;

impl Kyo {
    /// Whether `action` is legal for the side to move now.
    pub(crate) fn is_legal(&self, action: &Action) -> bool {
        let mut out = Vec::new();
        let mut sink = Sink {
            out: &mut out,
            first_only: false,
        };
        match action {
            Action::EndTurn => return self.outcome.is_none() && self.turn.steps > 0,
            Action::Step { from, .. } | Action::Deploy { from, .. } => {
                self.generate_from(*from, &mut sink)
            }
            Action::Shuffle { at, .. } => self.generate_from(*at, &mut sink),
        }
        out.contains(action)
    }

    /// Whether the side to move has any legal action.
    pub(crate) fn has_any_action(&self) -> bool {
        let mut out = Vec::new();
        self.generate(&mut Sink {
            out: &mut out,
            first_only: true,
        });
        !out.is_empty()
    }

    /// Applies a legal action (no checks).
    pub(crate) fn apply_unchecked(&mut self, action: &Action) {
        let me = self.to_move.0;
        if self.steps_may_follow(action) {
            let h = self.board.hash();
            self.turn.positions.push(h);
        }
        match *action {
            Action::EndTurn => self.end_turn(),
            Action::Step {
                from,
                to,
                pawn: true,
                chips,
            } => {
                let k = chips as usize;
                let mana = self.mana_qualifies(from, to, k);
                let src = self.board.cell_mut(from);
                let Some(p) = src.pawn.take() else {
                    return;
                };
                let n = src.chips.len();
                let carried = src.chips.split_off(n - k.min(n));
                let dst = self.board.cell_mut(to);
                let capture = dst.pawn.is_some_and(|q| q.owner != me);
                if capture {
                    dst.pawn = None;
                    while dst.chips.last().is_some_and(|c| c.is_enemy_mana(me)) {
                        dst.chips.pop();
                    }
                }
                if p.kind == PawnKind::Tower {
                    while dst
                        .chips
                        .last()
                        .is_some_and(|c| c.owner != me && c.kind == ChipKind::Shield)
                    {
                        dst.chips.pop();
                    }
                }
                dst.chips.extend(carried);
                dst.pawn = Some(p);
                let t = &mut self.turn;
                t.active = Some(to);
                t.carried = Some(chips);
                t.lifted = Some(t.lifted.map_or(chips, |l| l.min(chips)));
                t.visited |= 1u128 << from.0 | 1u128 << to.0;
                t.steps += 1;
                t.last_shuffle = false;
                t.removed |= capture;
                match mana {
                    Some(dir) if !capture => {
                        t.phase = Phase::Chain;
                        t.mana = Some(dir);
                    }
                    _ => self.step_ends_turn(p.kind),
                }
            }
            Action::Step {
                from,
                to,
                pawn: false,
                chips,
            } => {
                let src = self.board.cell_mut(from);
                let n = src.chips.len();
                let moved = src.chips.split_off(n - (chips as usize).min(n));
                let kind = src.pawn.map(|p| p.kind);
                self.board.cell_mut(to).chips.extend(moved);
                self.turn.active = Some(from);
                self.turn.steps += 1;
                self.turn.last_shuffle = false;
                match kind {
                    Some(k) => self.step_ends_turn(k),
                    None => self.end_turn(),
                }
            }
            Action::Shuffle { at, order } => {
                let cell = self.board.cell_mut(at);
                let n = cell.chips.len();
                let k = order.len().min(n);
                for (i, kind) in order.kinds().take(k).enumerate() {
                    cell.chips[n - k + i].kind = kind;
                }
                let kind = cell.pawn.map(|p| p.kind);
                self.turn.active = Some(at);
                self.turn.steps += 1;
                match kind {
                    Some(PawnKind::Queen) => self.turn.last_shuffle = true,
                    Some(k) => {
                        self.turn.last_shuffle = false;
                        self.step_ends_turn(k)
                    }
                    None => self.end_turn(),
                }
            }
            Action::Deploy { from, to, count } => {
                let src = self.board.cell_mut(from);
                let n = src.chips.len();
                let moved = src.chips.split_off(n - (count as usize).min(n));
                let kind = src.pawn.map(|p| p.kind);
                self.board.cell_mut(to).chips.extend(moved);
                let t = &mut self.turn;
                t.active = Some(from);
                t.steps += 1;
                t.last_shuffle = false;
                t.carried = t.carried.map(|c| c.saturating_sub(count));
                t.lifted = t.lifted.map(|c| c.saturating_sub(count));
                match kind {
                    Some(PawnKind::Tower) => {
                        if t.phase == Phase::Locked {
                            self.end_if_no_deploy();
                        }
                    }
                    _ => self.end_turn(),
                }
            }
        }
    }

    /// Whether the pawn may still make a step in this turn after `action` (a Mana move that is not a
    /// capture, a Queen's shuffle, a Tower's deploy before its turn-ending step): only then is the
    /// position before it kept for the whole-position guard, since only a later step is checked.
    fn steps_may_follow(&self, action: &Action) -> bool {
        let kind = |sq: Sq| self.board.cell(sq).pawn.map(|p| p.kind);
        match *action {
            Action::EndTurn => false,
            Action::Step {
                from,
                to,
                pawn: true,
                chips,
            } => {
                self.board.cell(to).pawn.is_none()
                    && self.mana_qualifies(from, to, chips as usize).is_some()
            }
            Action::Step { pawn: false, .. } => false,
            Action::Shuffle { at, .. } => kind(at) == Some(PawnKind::Queen),
            Action::Deploy { from, .. } => {
                kind(from) == Some(PawnKind::Tower) && self.turn.phase != Phase::Locked
            }
        }
    }

    /// A turn-ending step by a pawn of `kind`: the turn ends, except that a Tower may still deploy.
    fn step_ends_turn(&mut self, kind: PawnKind) {
        if kind == PawnKind::Tower {
            self.turn.phase = Phase::Locked;
            self.turn.mana = None;
            self.end_if_no_deploy();
        } else {
            self.end_turn();
        }
    }

    /// In the Tower's after-step phase, ends the turn when no deploy is left.
    fn end_if_no_deploy(&mut self) {
        if !self.tower_can_deploy() {
            self.end_turn();
        }
    }

    fn tower_can_deploy(&self) -> bool {
        let me = self.to_move.0;
        let Some(a) = self.turn.active else {
            return false;
        };
        if self.deployable(a) == 0 {
            return false;
        }
        crate::board::DIRS.iter().any(|(dc, dr)| {
            a.offset(*dc, *dr)
                .is_some_and(|to| deploy_landing(self.board.cell(to), me))
        })
    }

    /// Ends the turn: Mana destruction on the moved pawn's final square, counters, win and draw checks,
    /// and the next side's turn.
    pub(crate) fn end_turn(&mut self) {
        let me = self.to_move.0;
        let mut destroyed = false;
        if let (Some(a), Some(c)) = (self.turn.active, self.turn.carried) {
            let cell = self.board.cell_mut(a);
            if cell.pawn.is_some_and(|p| p.owner == me) {
                let mut idx = cell.chips.len().saturating_sub(c as usize);
                while idx > 0 && cell.chips[idx - 1].is_enemy_mana(me) {
                    cell.chips.remove(idx - 1);
                    idx -= 1;
                    destroyed = true;
                }
            }
        }
        let removed = self.turn.removed || destroyed;
        self.quiet_turns = if removed { 0 } else { self.quiet_turns + 1 };
        if removed {
            self.history.clear();
        }
        self.turns += 1;
        self.turn = Turn::default();
        self.to_move = Seat(1 - me);
        let them = 1 - me;
        let mover = [Seat(me)];
        if !self.has_king(them) {
            self.outcome = Some(Outcome::winners(2, &mover, "King captured"));
            return;
        }
        if !self.has_mana(them) {
            self.outcome = Some(Outcome::winners(2, &mover, "no Mana left"));
            return;
        }
        let h = self.position_hash();
        self.history.push(h);
        if self.history.iter().filter(|x| **x == h).count() >= 3 {
            self.outcome = Some(Outcome::draw(2, "threefold repetition"));
            return;
        }
        if self.quiet_turns >= QUIET_TURN_LIMIT {
            self.outcome = Some(Outcome::draw(
                2,
                "100 turns without a capture or destroyed Mana",
            ));
            return;
        }
        if !self.has_any_action() {
            self.outcome = Some(Outcome::winners(2, &mover, "no legal step"));
        }
    }

    /// Whether `side` has its King on the board.
    pub fn has_king(&self, side: u8) -> bool {
        self.board.cells.iter().any(|c| {
            c.pawn
                .is_some_and(|p| p.owner == side && p.kind == PawnKind::King)
        })
    }

    /// Whether `side` has a Mana chip anywhere (buried ones count).
    pub fn has_mana(&self, side: u8) -> bool {
        self.board.cells.iter().any(|c| {
            c.chips
                .iter()
                .any(|ch| ch.owner == side && ch.kind.is_mana())
        })
    }

    /// A 53-bit hash of the position (stacks and side to move), stable across runs and platforms.
    pub fn position_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        eat(self.to_move.0);
        for (i, c) in self.board.cells.iter().enumerate() {
            if c.is_empty() {
                continue;
            }
            eat(i as u8);
            for ch in &c.chips {
                eat(ch.owner * 4 + ch.kind as u8);
            }
            eat(match c.pawn {
                Some(p) => 16 + p.owner * 8 + p.kind as u8,
                None => 15,
            });
        }
        h & ((1u64 << 53) - 1)
    }

    /// Why `action` is illegal now (called only for actions the generator does not list).
    pub(crate) fn explain(&self, action: &Action) -> ActionError {
        let me = self.to_move.0;
        let side = self.seat_label(me);
        let ill = |m: String| ActionError::Illegal(m);
        let src = match action {
            Action::EndTurn => {
                return ill(
                    "a turn must contain at least one step before it can be ended".to_string(),
                );
            }
            Action::Step { from, .. } | Action::Deploy { from, .. } => *from,
            Action::Shuffle { at, .. } => *at,
        };
        if self.turn.steps > 0 && self.turn.active != Some(src) {
            let a = self
                .turn
                .active
                .map_or_else(|| "?".to_string(), |s| s.to_string());
            return ill(format!(
                "this turn belongs to the piece on {a}; only it may act until the turn ends"
            ));
        }
        let cell = self.board.cell(src);
        if cell.pawn.is_some_and(|p| p.owner != me) {
            return ill(format!(
                "{src} holds an enemy pawn; nothing there can be lifted"
            ));
        }
        if cell.pawn.is_none() && cell.top_chip().is_none_or(|c| c.owner != me) {
            return ill(format!(
                "{src} has no {side} pawn and no {side} chip on top: nothing to lift there"
            ));
        }
        let run = cell.own_run(me);
        let kind = cell.pawn.map(|p| p.kind);
        let lim = kind.map_or(run, |k| run.min(k.carry_limit()));
        match *action {
            Action::Step {
                from,
                to,
                pawn,
                chips,
            } => {
                let k = chips as usize;
                if pawn && kind.is_none() {
                    return ill(format!("there is no pawn on {from}"));
                }
                if !pawn && k == 0 {
                    return ill("a chips-only move must carry at least one chip".into());
                }
                if k > run {
                    return ill(format!(
                        "only {run} of your chips lie in an unbroken run on top of {from}; enemy \
                         chips and what lies under them are never lifted"
                    ));
                }
                if k > lim {
                    return ill(match kind {
                        Some(PawnKind::LightPawn) => "a Light Pawn lifts no chips".to_string(),
                        _ => "a pawn lifts at most 5 chips".to_string(),
                    });
                }
                let adjacent = Dir::between(from, to).is_some();
                if !pawn {
                    if self.turn.phase != Phase::Open {
                        return ill("after a Mana move or a Tower's step only Mana moves, \
                                    deploys and free shuffles remain"
                            .into());
                    }
                    if !adjacent {
                        return ill("chips move one square".into());
                    }
                    if self.board.cell(to).pawn.is_some() {
                        return ill("chips never move under a pawn".into());
                    }
                    if kind.is_some() && cell.own_shield_run(me).min(lim) >= k {
                        return ill(
                            "moving only Shields from under a pawn is a deploy: write it \
                                    with `*`"
                                .into(),
                        );
                    }
                    return ill(format!("{} is not legal here", self.notation(action)));
                }
                let kind = kind.unwrap_or(PawnKind::Heavy);
                if self.turn.phase == Phase::Locked {
                    return ill("after a Tower's turn-ending step only deploys remain".into());
                }
                if !adjacent {
                    let leap = kind == PawnKind::Knight && {
                        let (dc, dr) = (to.col() - from.col(), to.row() - from.row());
                        dc.abs() * dr.abs() == 2
                    };
                    if kind == PawnKind::Cannon {
                        if !self.cannon_can_capture(from, to) {
                            return ill("a Cannon jumps only to capture an enemy pawn 2 or 3 \
                                        squares away in a straight line over exactly one stack"
                                .into());
                        }
                    } else if kind == PawnKind::LightPawn {
                        return ill(
                            "a Light Pawn steps one square: it cannot make Mana moves".into()
                        );
                    } else if !leap {
                        return ill("a pawn steps one square (a Mana move lets it step on)".into());
                    }
                    if self.turn.phase == Phase::Chain {
                        return ill("after a Mana move only Mana moves may follow".into());
                    }
                }
                if self.turn.visited >> to.0 & 1 == 1 && self.step_repeats(from, to, k, &mut None) {
                    return ill(format!(
                        "this step back to {to} would recreate a whole position that already stood \
                         earlier in this turn"
                    ));
                }
                let target = self.board.cell(to);
                match pawn_landing(target, me, kind) {
                    Landing::Blocked => {
                        return ill(if target.pawn.is_some() {
                            "a pawn never steps onto its own side's pawn".to_string()
                        } else {
                            "only a Tower may step onto a stack topped by a Shield".to_string()
                        });
                    }
                    Landing::Capture if kind == PawnKind::Cannon && adjacent => {
                        return ill("a Cannon cannot capture by an adjacent attack".into());
                    }
                    Landing::Capture if kind == PawnKind::LightPawn => {
                        let (a, b) = self.outnumbering(me, from, to);
                        if a <= b {
                            return ill(format!(
                                "Light Pawn outnumbering fails: {a} of the target's neighbours \
                                 are yours, {b} of the attacker's are the enemy's"
                            ));
                        }
                    }
                    _ => {}
                }
                if self.turn.phase == Phase::Chain {
                    match self.mana_qualifies(from, to, k) {
                        None => {
                            return ill("after a Mana move only Mana moves may follow: the top \
                                        chip left behind must be Dark Mana for an orthogonal step, \
                                        Light Mana for a diagonal one"
                                .into());
                        }
                        Some(dir) => {
                            if let Some(l) = self.turn.mana
                                && l.colour() == dir.colour()
                                && l != dir
                            {
                                return ill("consecutive Mana moves over the same colour keep \
                                            exactly the same direction"
                                    .into());
                            }
                        }
                    }
                }
                ill(format!("{} is not legal here", self.notation(action)))
            }
            Action::Deploy { from, to, count } => {
                let Some(kind) = kind else {
                    return ill("only a pawn deploys Shields".into());
                };
                if count == 0 {
                    return ill("a deploy puts at least one Shield".into());
                }
                let under = cell.own_shield_run(me).min(lim);
                let shields = self.deployable(from);
                if shields < count as usize {
                    return ill(if shields < under {
                        format!(
                            "only {shields} of the Shields under the pawn on {from} were carried \
                             since its turn began; Shields it stepped onto this turn are deployed \
                             on a later turn"
                        )
                    } else {
                        format!(
                            "only {under} of your Shields lie in an unbroken run directly under \
                             the pawn on {from} (within its carry limit)"
                        )
                    });
                }
                if Dir::between(from, to).is_none() {
                    return ill("a deploy goes to an adjacent square".into());
                }
                if !deploy_landing(self.board.cell(to), me) {
                    return ill(
                        "a deploy goes to a square with no pawn and no enemy Shield on top".into(),
                    );
                }
                if kind != PawnKind::Tower && self.turn.phase != Phase::Open {
                    return ill("only a Tower deploys after a Mana move".into());
                }
                ill(format!("{} is not legal here", self.notation(action)))
            }
            Action::Shuffle { order, .. } => {
                if kind == Some(PawnKind::Queen) && self.turn.last_shuffle {
                    return ill("consecutive shuffles count as one: the Queen just shuffled".into());
                }
                if kind.is_some_and(|k| k != PawnKind::Queen) && self.turn.phase != Phase::Open {
                    return ill("only the Queen may shuffle after a Mana move".into());
                }
                if order.len() > lim {
                    return ill(format!(
                        "the slice on {src} holds only {lim} of your chips (carry limit included)"
                    ));
                }
                let k = order.len();
                let old = &cell.chips[cell.chips.len() - k..];
                let mut a: Vec<ChipKind> = old.iter().map(|c| c.kind).collect();
                let mut b: Vec<ChipKind> = order.kinds().collect();
                if a == b {
                    return ill("a shuffle must change the order".into());
                }
                let shield_under_mana = b
                    .iter()
                    .enumerate()
                    .any(|(i, x)| *x == ChipKind::Shield && b[i + 1..].iter().any(|y| y.is_mana()));
                if shield_under_mana {
                    return ill(
                        "a shuffle may not leave one of your Shields under one of your \
                                Mana chips"
                            .into(),
                    );
                }
                a.sort();
                b.sort();
                if a != b {
                    return ill(format!(
                        "a shuffle reorders the top {k} chips of {src}; `{order}` is not an \
                         order of those chips"
                    ));
                }
                if old.first().map(|c| c.kind) == order.kinds().next() {
                    return ill(format!(
                        "write a shuffle from its lowest changed chip (the bottom letter of \
                         `{order}` is unchanged)"
                    ));
                }
                ill(format!("{} is not legal here", self.notation(action)))
            }
            Action::EndTurn => ill("the turn cannot be ended now".into()),
        }
    }

    /// Why the clicked `cells` (one square, or a square then another) lead to no legal action of the
    /// side to move: the refusal of the action those cells would mean ([`Kyo::explain`]), or what
    /// stands on a lone square. Kyo hides nothing, so every fact is public.
    pub(crate) fn explain_click(&self, cells: &[String]) -> Option<String> {
        let me = self.to_move.0;
        let side = self.seat_label(me);
        let sqs: Vec<Sq> = cells
            .iter()
            .map(|c| c.parse().ok())
            .collect::<Option<Vec<Sq>>>()?;
        match *sqs.as_slice() {
            [at] => {
                if self.turn.steps > 0 && self.turn.active != Some(at) {
                    let a = self.turn.active.map_or_else(String::new, |s| s.to_string());
                    return Some(format!(
                        "This turn belongs to the piece on {a}: only it may act until the turn ends"
                    ));
                }
                let cell = self.board.cell(at);
                match (cell.pawn, cell.top_chip()) {
                    (Some(p), _) if p.owner != me => Some(format!(
                        "That is {}'s {}",
                        self.seat_label(p.owner),
                        p.kind.name()
                    )),
                    (Some(p), _) => Some(format!(
                        "The {} on {at} has no legal action now",
                        p.kind.name()
                    )),
                    (None, None) => Some(format!("{at} is empty: pick one of {side}'s pieces")),
                    (None, Some(c)) if c.owner != me => Some(format!(
                        "The top chip on {at} is {}'s: nothing there can be lifted",
                        self.seat_label(c.owner)
                    )),
                    (None, Some(_)) => Some(format!("The chips on {at} have no legal action now")),
                }
            }
            [from, to] => {
                let cell = self.board.cell(from);
                let action = if cell.pawn.is_some_and(|p| p.owner == me) {
                    Action::Step {
                        from,
                        to,
                        pawn: true,
                        chips: 0,
                    }
                } else {
                    let run = u8::try_from(cell.own_run(me)).unwrap_or(u8::MAX);
                    Action::Step {
                        from,
                        to,
                        pawn: false,
                        chips: run,
                    }
                };
                match self.explain(&action) {
                    ActionError::Illegal(m) => Some(m),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    pub(crate) fn seat_label(&self, side: u8) -> &'static str {
        if side == 0 { "Gold" } else { "Red" }
    }

    /// Checks and applies an action of the side to move.
    pub(crate) fn apply_checked(&mut self, action: &Action) -> Result<(), ActionError> {
        if !self.is_legal(action) {
            return Err(self.explain(action));
        }
        self.apply_unchecked(action);
        Ok(())
    }
}

/// Whether two squares are neighbours (8 directions).
pub(crate) fn is_adjacent(a: Sq, b: Sq) -> bool {
    Dir::between(a, b).is_some()
}

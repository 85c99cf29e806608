//! The game state, its JSON form, move generation and the application of actions.

#![allow(clippy::needless_range_loop)]

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tabula_core::{ActionError, GameOptions, GameRng, Observer, OptionSpec, Outcome, Seat, ToAct};
use ts_rs::TS;

use super::board::{
    Cell, GRID, MAX_RANGE, NEIGHBOURS, NONE, VALID, cells_of, dilate, disk, shot_line,
};
use super::pieces::{EMPTY, Kind, MOUNTAIN, decode, unit_code};
use super::setup::{Army, check_setup, home_mask, random_setup, seat_label};

/// Turns in a row without a capture after which the game is drawn **\[decision\]**.
pub const QUIET_TURN_LIMIT: u32 = 150;

/// Movement of a horse's second leg.
pub const SECOND_LEG: u8 = 2;

/// The options of Strength & Trump Cyvasse.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(default, deny_unknown_fields)]
pub struct TrumpOptions {
    /// A horse must take its second leg whenever it has a legal one (default: it may decline).
    pub second_leg_mandatory: bool,
}

impl GameOptions for TrumpOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![OptionSpec::bool(
            "second_leg_mandatory",
            false,
            "a horse must take its second leg whenever it has a legal one",
        )]
    }
}

/// The phase of the game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/", rename = "TrumpPhase")]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Hidden simultaneous setup: each seat commits its whole army.
    Setup,
    /// Both Kings are equally near row `f`: a coin flip (chance) decides who moves first.
    FirstPlayer,
    /// Normal play.
    #[default]
    Play,
    /// The game has ended (`outcome` says how).
    Over,
}

/// A horse between its two legs: it stands on `horse` and may take its second leg (or end the turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(deny_unknown_fields)]
pub struct CavalryTurn {
    /// Where the horse stands after its first leg.
    pub horse: Cell,
    /// Whether the first leg captured (so the turn counts as a capturing turn).
    #[serde(default)]
    pub captured: bool,
}

/// What stands on a cell. JSON form: a one-letter string, `"M"` for a Mountain, the unit's letter in
/// upper case for the first seat (South) and lower case for the second (North):
/// `R` Rabble, `S` Spearman, `E` Elephant, `L` Light Horse, `H` Heavy Horse, `X` Crossbowman,
/// `C` Catapult, `T` Trebuchet, `D` Dragon, `K` King.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, TS)]
#[ts(
    export_to = "cyvasse/",
    type = r#""M" | "R" | "S" | "E" | "L" | "H" | "X" | "C" | "T" | "D" | "K" | "r" | "s" | "e" | "l" | "h" | "x" | "c" | "t" | "d" | "k""#
)]
pub enum Occupant {
    Mountain,
    Unit { seat: Seat, kind: Kind },
}

impl Occupant {
    /// The one-letter code.
    pub fn code(self) -> char {
        match self {
            Occupant::Mountain => 'M',
            Occupant::Unit { seat, kind } => {
                if seat.index() == 0 {
                    kind.letter()
                } else {
                    kind.letter().to_ascii_lowercase()
                }
            }
        }
    }
    /// Parses a one-letter code.
    pub fn parse(text: &str) -> Result<Occupant, String> {
        let mut chars = text.chars();
        let bad = || {
            format!(
                "`{text}` is not a piece code: use M for a Mountain, R S E L H X C T D K for the first \
                 seat's units and r s e l h x c t d k for the second seat's"
            )
        };
        let c = chars.next().ok_or_else(bad)?;
        if chars.next().is_some() {
            return Err(bad());
        }
        if c == 'M' {
            return Ok(Occupant::Mountain);
        }
        let kind = Kind::from_letter(c)
            .filter(|k| *k != Kind::Mountain)
            .ok_or_else(bad)?;
        let seat = if c.is_ascii_uppercase() {
            Seat(0)
        } else {
            Seat(1)
        };
        Ok(Occupant::Unit { seat, kind })
    }
    fn to_code(self) -> u8 {
        match self {
            Occupant::Mountain => MOUNTAIN,
            Occupant::Unit { seat, kind } => unit_code(seat.index(), kind),
        }
    }
}

impl Serialize for Occupant {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.code().to_string())
    }
}

impl<'de> Deserialize<'de> for Occupant {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Occupant, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Occupant;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a one-letter piece code such as \"K\", \"x\" or \"M\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Occupant, E> {
                Occupant::parse(v).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

fn seat0() -> Seat {
    Seat(0)
}

/// The JSON form of a state, also used as the view an observer gets (with the hidden army left out).
/// See the module documentation for the format and an example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(deny_unknown_fields)]
pub struct TrumpPosition {
    #[serde(default)]
    pub options: TrumpOptions,
    #[serde(default)]
    pub phase: Phase,
    /// During setup: which seats have committed their army.
    #[serde(default)]
    pub committed: [bool; 2],
    /// Every occupied cell.
    pub board: BTreeMap<Cell, Occupant>,
    /// The seat whose turn it is (play phase).
    #[serde(default = "seat0")]
    pub to_move: Seat,
    /// A horse between its two legs, if any.
    #[serde(default)]
    pub cavalry: Option<CavalryTurn>,
    /// Turns completed in a row without a capture.
    #[serde(default)]
    pub quiet_turns: u32,
    /// Turns completed since the first move.
    #[serde(default)]
    pub turn: u32,
    /// How the game ended (phase `over`).
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// The view an observer gets: the position without what it may not see.
pub type TrumpView = TrumpPosition;

/// One action.
///
/// JSON forms: `{"setup": {"k3": "king", ...}}`, `{"first_player": 1}`,
/// `{"move": {"from": "h3", "to": "g4"}}` (a move or a melee attack, also a Dragon flight or a horse
/// leg), `{"shoot": {"from": "i4", "to": "f5"}}`, `"end_turn"` (a horse declines its second leg),
/// `"pass"` (only when the side to move has no legal action).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(rename_all = "snake_case")]
pub enum TrumpAction {
    Setup(Army),
    FirstPlayer(Seat),
    Move { from: Cell, to: Cell },
    Shoot { from: Cell, to: Cell },
    EndTurn,
    Pass,
}

/// The full state of a Strength & Trump Cyvasse game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "TrumpPosition", try_from = "TrumpPosition")]
pub struct TrumpCyvasse {
    pub(crate) options: TrumpOptions,
    pub(crate) phase: Phase,
    pub(crate) committed: [bool; 2],
    pub(crate) board: [u8; GRID],
    pub(crate) units: [u128; 2],
    pub(crate) mountains: u128,
    pub(crate) to_move: u8,
    pub(crate) cavalry: Option<CavalryTurn>,
    pub(crate) quiet_turns: u32,
    pub(crate) turn: u32,
    pub(crate) outcome: Option<Outcome>,
}

impl From<TrumpCyvasse> for TrumpPosition {
    fn from(g: TrumpCyvasse) -> TrumpPosition {
        g.position_hiding(0)
    }
}

impl TryFrom<TrumpPosition> for TrumpCyvasse {
    type Error = String;
    fn try_from(p: TrumpPosition) -> Result<TrumpCyvasse, String> {
        TrumpCyvasse::from_position(p)
    }
}

/// Targets of one piece: cells it may move to, cells it may capture by moving onto them, cells it
/// may shoot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Targets {
    pub moves: u128,
    pub captures: u128,
    pub shots: u128,
}

impl Targets {
    fn any(&self) -> bool {
        self.moves | self.captures | self.shots != 0
    }
}

impl TrumpCyvasse {
    /// A game in its initial state (hidden setup, nobody committed).
    pub fn initial(options: &TrumpOptions) -> TrumpCyvasse {
        let mut board = [EMPTY; GRID];
        for (i, sq) in board.iter_mut().enumerate() {
            if VALID & (1u128 << i) == 0 {
                *sq = u8::MAX;
            }
        }
        TrumpCyvasse {
            options: options.clone(),
            phase: Phase::Setup,
            committed: [false; 2],
            board,
            units: [0; 2],
            mountains: 0,
            to_move: 0,
            cavalry: None,
            quiet_turns: 0,
            turn: 0,
            outcome: None,
        }
    }

    /// Builds a state from its JSON form, checking it (the same checks as `validate`).
    pub fn from_position(p: TrumpPosition) -> Result<TrumpCyvasse, String> {
        let mut g = TrumpCyvasse::initial(&p.options);
        g.phase = p.phase;
        g.committed = p.committed;
        if p.to_move.index() > 1 {
            return Err(format!(
                "to_move is seat {}, but Cyvasse has seats 0 and 1",
                p.to_move
            ));
        }
        g.to_move = p.to_move.0;
        g.cavalry = p.cavalry;
        g.quiet_turns = p.quiet_turns;
        g.turn = p.turn;
        g.outcome = p.outcome;
        for (cell, occ) in p.board {
            g.put(cell, occ.to_code());
        }
        g.check()?;
        Ok(g)
    }

    /// A position in play built from `(cell, code)` pairs (codes as in the JSON board: `"K"`, `"x"`,
    /// `"M"`…) with `to_move` to play. Convenient for tests and puzzles; checked like a loaded state.
    pub fn play_position(
        options: &TrumpOptions,
        pieces: &[(&str, &str)],
        to_move: Seat,
    ) -> Result<TrumpCyvasse, String> {
        let mut board = BTreeMap::new();
        for (cell, code) in pieces {
            let cell = Cell::parse(cell)?;
            if board.insert(cell, Occupant::parse(code)?).is_some() {
                return Err(format!("{cell} is given twice"));
            }
        }
        TrumpCyvasse::from_position(TrumpPosition {
            options: options.clone(),
            phase: Phase::Play,
            committed: [false; 2],
            board,
            to_move,
            cavalry: None,
            quiet_turns: 0,
            turn: 0,
            outcome: None,
        })
    }

    /// A board holding only `seat`'s army (for setup analysis).
    pub(crate) fn with_army(seat: Seat, army: &Army) -> TrumpCyvasse {
        let mut g = TrumpCyvasse::initial(&TrumpOptions::default());
        g.place_army(seat.index(), army);
        g.phase = Phase::Play;
        g
    }

    // --------------------------------------------------------------------------------------------
    // Accessors.

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat to move (meaningful in the play phase).
    pub fn side_to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    /// The horse between its two legs, if any.
    pub fn cavalry_turn(&self) -> Option<CavalryTurn> {
        self.cavalry
    }
    /// Turns completed in a row without a capture.
    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }
    /// Which seats have committed their setup.
    pub fn committed(&self) -> [bool; 2] {
        self.committed
    }
    /// What stands on `cell`.
    pub fn occupant(&self, cell: Cell) -> Option<Occupant> {
        let code = self.board[cell.index()];
        if code == MOUNTAIN {
            Some(Occupant::Mountain)
        } else {
            decode(code).map(|(side, kind)| Occupant::Unit {
                seat: Seat::new(side),
                kind,
            })
        }
    }
    /// The cells holding `seat`'s units.
    pub fn unit_cells(&self, seat: Seat) -> Vec<Cell> {
        cells_of(self.units[seat.index().min(1)]).collect()
    }
    /// The cell of `seat`'s King.
    pub fn king(&self, seat: Seat) -> Option<Cell> {
        let side = seat.index().min(1);
        cells_of(self.units[side]).find(|c| self.board[c.index()] == unit_code(side, Kind::King))
    }

    // --------------------------------------------------------------------------------------------
    // Board editing.

    fn put(&mut self, cell: Cell, code: u8) {
        self.clear(cell);
        self.board[cell.index()] = code;
        if code == MOUNTAIN {
            self.mountains |= cell.bit();
        } else if let Some((side, _)) = decode(code) {
            self.units[side] |= cell.bit();
        }
    }

    fn clear(&mut self, cell: Cell) {
        let bit = cell.bit();
        self.board[cell.index()] = EMPTY;
        self.units[0] &= !bit;
        self.units[1] &= !bit;
        self.mountains &= !bit;
    }

    fn place_army(&mut self, side: usize, army: &Army) {
        for (cell, kind) in &army.0 {
            let code = if *kind == Kind::Mountain {
                MOUNTAIN
            } else {
                unit_code(side, *kind)
            };
            self.put(*cell, code);
        }
    }

    #[inline]
    fn empty(&self) -> u128 {
        VALID & !(self.units[0] | self.units[1] | self.mountains)
    }

    // --------------------------------------------------------------------------------------------
    // Move generation.

    /// Path-walking: cells reachable within `movement` jumps through empty hexes (the start
    /// excluded), and enemy cells reachable by a last jump.
    #[inline]
    fn walk(&self, from: Cell, movement: u8, side: usize) -> (u128, u128) {
        let empty = self.empty();
        let mut reach = from.bit();
        let mut frontier = reach;
        let mut zone = 0;
        for _ in 0..movement {
            let next = dilate(frontier);
            zone |= next;
            frontier = next & empty & !reach;
            if frontier == 0 {
                break;
            }
            reach |= frontier;
        }
        (reach & !from.bit(), zone & self.units[1 - side])
    }

    fn beaten(&self, attacker: Kind, candidates: u128) -> u128 {
        let mut out = 0;
        for c in cells_of(candidates) {
            if let Some((_, d)) = decode(self.board[c.index()])
                && attacker.beats(d)
            {
                out |= c.bit();
            }
        }
        out
    }

    fn dragon_targets(&self, from: Cell, side: usize) -> Targets {
        let mut t = Targets::default();
        for dir in 0..6 {
            let mut at = NEIGHBOURS[from.index()][dir];
            while at != NONE {
                let code = self.board[at as usize];
                let bit = 1u128 << at;
                if code == EMPTY {
                    t.moves |= bit;
                } else if let Some((s, kind)) = decode(code)
                    && s != side
                {
                    if Kind::Dragon.beats(kind) {
                        t.captures |= bit;
                    }
                    if kind.is_ranged() {
                        break;
                    }
                }
                at = NEIGHBOURS[at as usize][dir];
            }
        }
        t
    }

    fn shot_targets(&self, from: Cell, kind: Kind, side: usize) -> u128 {
        let in_range = self.units[1 - side] & disk(from, kind.range());
        let mut out = 0;
        for to in cells_of(in_range) {
            let Some(line) = shot_line(from, to) else {
                continue;
            };
            let blocked = line
                .blockers
                .iter()
                .any(|(a, b)| self.mountains & a.bit() != 0 && self.mountains & b.bit() != 0);
            if !blocked
                && let Some((_, d)) = decode(self.board[to.index()])
                && kind.beats(d)
            {
                out |= to.bit();
            }
        }
        out
    }

    /// The targets of the `kind` unit of `side` standing on `from`, with `movement` jumps for
    /// path-walking units (its own Movement, or 2 for a horse's second leg).
    pub(crate) fn targets_with(
        &self,
        from: Cell,
        kind: Kind,
        side: usize,
        movement: u8,
    ) -> Targets {
        if kind == Kind::Dragon {
            return self.dragon_targets(from, side);
        }
        let (moves, enemies) = self.walk(from, movement, side);
        if kind.is_ranged() {
            Targets {
                moves,
                captures: 0,
                shots: self.shot_targets(from, kind, side),
            }
        } else {
            Targets {
                moves,
                captures: self.beaten(kind, enemies),
                shots: 0,
            }
        }
    }

    /// The targets of the unit on `from` as things stand (second-leg movement during a cavalry turn).
    pub fn targets(&self, from: Cell) -> Targets {
        match decode(self.board[from.index()]) {
            Some((side, kind)) => {
                let movement = match self.cavalry {
                    Some(c) if c.horse == from => SECOND_LEG,
                    _ => kind.movement(),
                };
                self.targets_with(from, kind, side, movement)
            }
            None => Targets::default(),
        }
    }

    fn push_targets(from: Cell, t: Targets, out: &mut Vec<TrumpAction>) {
        for to in cells_of(t.moves | t.captures) {
            out.push(TrumpAction::Move { from, to });
        }
        for to in cells_of(t.shots) {
            out.push(TrumpAction::Shoot { from, to });
        }
    }

    /// Whether `side` has any move, attack or shot (outside a cavalry turn).
    pub(crate) fn has_any_action(&self, side: usize) -> bool {
        let empty = self.empty();
        for c in cells_of(self.units[side]) {
            let Some((_, kind)) = decode(self.board[c.index()]) else {
                continue;
            };
            if kind.movement() > 0 && dilate(c.bit()) & empty != 0 {
                return true;
            }
            if self.targets_with(c, kind, side, kind.movement()).any() {
                return true;
            }
        }
        false
    }

    /// The play-phase actions of the side to move.
    pub(crate) fn play_actions(&self, out: &mut Vec<TrumpAction>) {
        let side = self.to_move as usize;
        if let Some(cav) = self.cavalry {
            if let Some((_, kind)) = decode(self.board[cav.horse.index()]) {
                let t = self.targets_with(cav.horse, kind, side, SECOND_LEG);
                Self::push_targets(cav.horse, t, out);
                if !(self.options.second_leg_mandatory && t.any()) {
                    out.push(TrumpAction::EndTurn);
                }
            }
            return;
        }
        let start = out.len();
        for c in cells_of(self.units[side]) {
            if let Some((_, kind)) = decode(self.board[c.index()]) {
                let t = self.targets_with(c, kind, side, kind.movement());
                Self::push_targets(c, t, out);
            }
        }
        if out.len() == start {
            out.push(TrumpAction::Pass);
        }
    }

    /// Whether `attacker` of `side`, standing on `from` with the rest of the board as it is, could
    /// capture the piece on `target` in one turn (both legs for a horse). Used to judge setups.
    pub(crate) fn can_capture_in_one_turn(
        &self,
        side: Seat,
        from: Cell,
        attacker: Kind,
        target: Cell,
    ) -> bool {
        if self.board[from.index()] != EMPTY {
            return false;
        }
        let s = side.index();
        let mut g = self.clone();
        g.put(from, unit_code(s, attacker));
        let t = g.targets_with(from, attacker, s, attacker.movement());
        if (t.captures | t.shots) & target.bit() != 0 {
            return true;
        }
        if !attacker.is_horse() {
            return false;
        }
        for to in cells_of(t.moves | t.captures) {
            let mut h = g.clone();
            h.clear(from);
            h.put(to, unit_code(s, attacker));
            let t2 = h.targets_with(to, attacker, s, SECOND_LEG);
            if t2.captures & target.bit() != 0 {
                return true;
            }
        }
        false
    }

    // --------------------------------------------------------------------------------------------
    // Applying actions.

    /// Checks a play-phase action of the side to move without changing anything.
    pub(crate) fn check_play_action(&self, action: &TrumpAction) -> Result<(), ActionError> {
        let side = self.to_move as usize;
        let illegal = |m: String| Err(ActionError::Illegal(m));
        match action {
            TrumpAction::Move { from, to } | TrumpAction::Shoot { from, to } => {
                let shoot = matches!(action, TrumpAction::Shoot { .. });
                let Some((s, kind)) = decode(self.board[from.index()]) else {
                    return illegal(format!("there is no unit on {from}"));
                };
                if s != side {
                    return illegal(format!(
                        "the {kind} on {from} belongs to {}",
                        seat_label(Seat::new(s))
                    ));
                }
                if let Some(cav) = self.cavalry
                    && cav.horse != *from
                {
                    return illegal(format!(
                        "the horse on {} is between its legs: only it may act (or end the turn)",
                        cav.horse
                    ));
                }
                let t = self.targets(*from);
                if shoot {
                    if !kind.is_ranged() {
                        return illegal(format!("a {kind} cannot shoot"));
                    }
                    if t.shots & to.bit() == 0 {
                        return illegal(self.why_not_shot(*from, *to, kind));
                    }
                } else if (t.moves | t.captures) & to.bit() == 0 {
                    return illegal(self.why_not_move(*from, *to, kind));
                }
                Ok(())
            }
            TrumpAction::EndTurn => match self.cavalry {
                None => illegal("end_turn is only for a horse between its two legs".into()),
                Some(cav) => {
                    if self.options.second_leg_mandatory && self.targets(cav.horse).any() {
                        illegal(format!(
                            "the second leg is mandatory (option second_leg_mandatory) and the horse on {} has one",
                            cav.horse
                        ))
                    } else {
                        Ok(())
                    }
                }
            },
            TrumpAction::Pass => {
                if self.cavalry.is_some() {
                    illegal(
                        "a horse is between its legs: take the second leg or end the turn".into(),
                    )
                } else if self.has_any_action(side) {
                    illegal("a side may pass only when it has no legal move".into())
                } else {
                    Ok(())
                }
            }
            TrumpAction::Setup(_) => illegal("the setup is over".into()),
            TrumpAction::FirstPlayer(_) => {
                illegal("the first player has already been decided".into())
            }
        }
    }

    fn why_not_move(&self, from: Cell, to: Cell, kind: Kind) -> String {
        if from == to {
            return format!("a move must end on another hex than its start ({from})");
        }
        let target = decode(self.board[to.index()]);
        if self.board[to.index()] == MOUNTAIN {
            return format!("{to} is a Mountain: Mountains are impassable and never captured");
        }
        if let Some((s, d)) = target {
            if s == self.to_move as usize {
                return format!("{to} holds your own {d}");
            }
            if kind.is_ranged() {
                return format!("a {kind} never captures by moving: it shoots instead");
            }
            if !kind.beats(d) {
                return format!("a {kind} cannot beat a {d} (only winning attacks are legal)");
            }
        }
        if kind == Kind::Dragon {
            return format!(
                "the Dragon cannot fly from {from} to {to}: it flies along the six hex axes and cannot fly over an enemy range unit"
            );
        }
        format!("the {kind} on {from} cannot reach {to} through empty hexes")
    }

    fn why_not_shot(&self, from: Cell, to: Cell, kind: Kind) -> String {
        let d = from.distance(to);
        match decode(self.board[to.index()]) {
            Some((s, dk)) if s != self.to_move as usize => {
                if d > kind.range() {
                    format!(
                        "{to} is {d} hexes away; a {kind} shoots up to {}",
                        kind.range()
                    )
                } else if !kind.beats(dk) {
                    format!("a {kind} cannot beat a {dk}")
                } else {
                    format!("a Mountain blocks the line from {from} to {to}")
                }
            }
            _ => format!("there is no enemy unit on {to} to shoot"),
        }
    }

    /// Applies a play-phase action that is known to be legal.
    pub(crate) fn exec_play_action(&mut self, action: &TrumpAction) {
        let side = self.to_move as usize;
        match action {
            TrumpAction::Move { from, to } => {
                let code = self.board[from.index()];
                let Some((_, kind)) = decode(code) else {
                    return;
                };
                let victim = decode(self.board[to.index()]);
                let captured = victim.is_some();
                self.clear(*from);
                self.put(*to, code);
                if matches!(victim, Some((_, Kind::King))) {
                    self.king_captured(side);
                    return;
                }
                match self.cavalry {
                    Some(cav) => self.end_turn(captured || cav.captured),
                    None if kind.is_horse() => {
                        if self.targets_with(*to, kind, side, SECOND_LEG).any() {
                            self.cavalry = Some(CavalryTurn {
                                horse: *to,
                                captured,
                            });
                        } else {
                            self.end_turn(captured);
                        }
                    }
                    None => self.end_turn(captured),
                }
            }
            TrumpAction::Shoot { to, .. } => {
                let victim = decode(self.board[to.index()]);
                self.clear(*to);
                if matches!(victim, Some((_, Kind::King))) {
                    self.king_captured(side);
                    return;
                }
                self.end_turn(true);
            }
            TrumpAction::EndTurn => {
                let captured = self.cavalry.is_some_and(|c| c.captured);
                self.end_turn(captured);
            }
            TrumpAction::Pass => self.end_turn(false),
            TrumpAction::Setup(_) | TrumpAction::FirstPlayer(_) => {}
        }
    }

    fn king_captured(&mut self, side: usize) {
        self.cavalry = None;
        self.turn = self.turn.saturating_add(1);
        self.quiet_turns = 0;
        self.phase = Phase::Over;
        self.outcome = Some(Outcome::winners(
            2,
            &[Seat::new(side)],
            format!("{} captured the King", seat_label(Seat::new(side))),
        ));
    }

    fn end_turn(&mut self, captured: bool) {
        let side = self.to_move as usize;
        self.cavalry = None;
        self.turn = self.turn.saturating_add(1);
        if captured {
            self.quiet_turns = 0;
        } else {
            self.quiet_turns = self.quiet_turns.saturating_add(1);
        }
        self.to_move = (1 - side) as u8;
        if self.quiet_turns >= QUIET_TURN_LIMIT {
            self.phase = Phase::Over;
            self.outcome = Some(Outcome::draw(
                2,
                format!("{QUIET_TURN_LIMIT} turns in a row without a capture"),
            ));
        } else if !self.has_any_action(1 - side) && !self.has_any_action(side) {
            self.phase = Phase::Over;
            self.outcome = Some(Outcome::draw(2, "neither side can move"));
        }
    }

    /// Commits `seat`'s setup (already checked).
    pub(crate) fn exec_setup(&mut self, seat: Seat, army: &Army) {
        self.place_army(seat.index(), army);
        self.committed[seat.index()] = true;
        if self.committed == [true, true] {
            self.decide_first_player();
        }
    }

    fn king_distance(&self, side: usize) -> Option<usize> {
        self.king(Seat::new(side)).map(|c| c.row().abs_diff(5))
    }

    fn decide_first_player(&mut self) {
        let (d0, d1) = (self.king_distance(0), self.king_distance(1));
        match (d0, d1) {
            (Some(a), Some(b)) if a < b => {
                self.to_move = 0;
                self.phase = Phase::Play;
            }
            (Some(a), Some(b)) if b < a => {
                self.to_move = 1;
                self.phase = Phase::Play;
            }
            _ => self.phase = Phase::FirstPlayer,
        }
    }

    /// Applies the coin flip.
    pub(crate) fn exec_first_player(&mut self, seat: Seat) {
        self.to_move = seat.0.min(1);
        self.phase = Phase::Play;
    }

    // --------------------------------------------------------------------------------------------
    // Whose turn.

    /// Whose decision it is.
    pub(crate) fn whose_turn(&self) -> ToAct {
        match self.phase {
            Phase::Setup => ToAct::Seats(
                (0..2)
                    .filter(|i| !self.committed[*i])
                    .map(Seat::new)
                    .collect(),
            ),
            Phase::FirstPlayer => ToAct::Chance,
            Phase::Play => ToAct::Seat(Seat(self.to_move)),
            Phase::Over => ToAct::Over(
                self.outcome
                    .clone()
                    .unwrap_or_else(|| Outcome::draw(2, "game over")),
            ),
        }
    }

    // --------------------------------------------------------------------------------------------
    // Views, JSON, checks.

    /// The position with the armies of the sides in `hidden` (bit 0 = South, bit 1 = North) left out
    /// while the setup is still hidden.
    pub(crate) fn position_hiding(&self, hidden: u8) -> TrumpPosition {
        let mut mask = VALID;
        if self.phase == Phase::Setup {
            for side in 0..2 {
                if hidden & (1 << side) != 0 {
                    mask &= !home_mask(Seat::new(side));
                }
            }
        }
        let board = cells_of(mask)
            .filter_map(|c| self.occupant(c).map(|o| (c, o)))
            .collect();
        TrumpPosition {
            options: self.options.clone(),
            phase: self.phase,
            committed: self.committed,
            board,
            to_move: Seat(self.to_move),
            cavalry: self.cavalry,
            quiet_turns: self.quiet_turns,
            turn: self.turn,
            outcome: self.outcome.clone(),
        }
    }

    /// What `observer` may see: during the setup, a seat sees only its own army and a spectator
    /// sees neither; afterwards everything is public.
    pub(crate) fn view_for(&self, observer: Observer) -> TrumpPosition {
        let hidden = match observer {
            Observer::Seat(s) if s.index() == 0 => 0b10,
            Observer::Seat(s) if s.index() == 1 => 0b01,
            _ => 0b11,
        };
        self.position_hiding(hidden)
    }

    /// A state consistent with `seat`'s view: during the setup, the other army (if committed) is
    /// replaced by a random legal setup.
    pub(crate) fn determinized(&self, seat: Seat, rng: &mut GameRng) -> TrumpCyvasse {
        let mut g = self.clone();
        let other = 1 - seat.index().min(1);
        if self.phase == Phase::Setup && self.committed[other] {
            for c in cells_of(home_mask(Seat::new(other))) {
                g.clear(c);
            }
            let army = random_setup(Seat::new(other), rng);
            g.place_army(other, &army);
        }
        g
    }

    /// The army `side` has on its home rows (setup phase).
    fn army_on_board(&self, side: usize) -> Army {
        Army(
            cells_of(home_mask(Seat::new(side)))
                .filter_map(|c| match self.occupant(c) {
                    Some(Occupant::Mountain) => Some((c, Kind::Mountain)),
                    Some(Occupant::Unit { kind, .. }) => Some((c, kind)),
                    None => None,
                })
                .collect(),
        )
    }

    /// Checks the state's consistency; the message names what is wrong.
    pub(crate) fn check(&self) -> Result<(), String> {
        // Internal bitboards agree with the board.
        let mut units = [0u128; 2];
        let mut mountains = 0u128;
        for (i, code) in self.board.iter().enumerate() {
            let on_board = VALID & (1u128 << i) != 0;
            if !on_board {
                if *code != u8::MAX {
                    return Err(format!("internal error: off-board square {i} is used"));
                }
                continue;
            }
            if *code == MOUNTAIN {
                mountains |= 1u128 << i;
            } else if let Some((s, _)) = decode(*code) {
                units[s] |= 1u128 << i;
            } else if *code != EMPTY {
                return Err(format!("internal error: bad square code {code}"));
            }
        }
        if units != self.units || mountains != self.mountains {
            return Err("internal error: bitboards disagree with the board".into());
        }
        // Piece counts.
        if mountains.count_ones() > 4 {
            return Err(format!(
                "{} Mountains on the board; each army has 2 (at most 4 in all)",
                mountains.count_ones()
            ));
        }
        for side in 0..2 {
            let mut counts = [0usize; 10];
            for c in cells_of(units[side]) {
                if let Some((_, k)) = decode(self.board[c.index()]) {
                    counts[k.index()] += 1;
                }
            }
            for k in Kind::UNITS {
                if counts[k.index()] > k.count() {
                    return Err(format!(
                        "{} has {} × {k}, but an army has {}",
                        seat_label(Seat::new(side)),
                        counts[k.index()],
                        k.count()
                    ));
                }
            }
        }
        if self.phase != Phase::Over && self.outcome.is_some() {
            return Err("an outcome is given but the phase is not “over”".into());
        }
        if self.phase != Phase::Play && self.cavalry.is_some() {
            return Err("a cavalry turn is given outside the play phase".into());
        }
        match self.phase {
            Phase::Setup => {
                if self.committed == [true, true] {
                    return Err("both seats have committed: the phase cannot be “setup”".into());
                }
                if self.turn != 0 || self.quiet_turns != 0 {
                    return Err("turn and quiet_turns must be 0 during the setup".into());
                }
                for side in 0..2 {
                    let seat = Seat::new(side);
                    let home = home_mask(seat);
                    if units[side] & !home != 0 {
                        return Err(format!(
                            "during the setup {}'s units must stand on its home rows",
                            seat_label(seat)
                        ));
                    }
                    let army = self.army_on_board(side);
                    if self.committed[side] {
                        check_setup(seat, &army).map_err(|e| {
                            format!("{}'s committed setup is invalid: {e}", seat_label(seat))
                        })?;
                    } else if !army.0.is_empty() {
                        return Err(format!(
                            "{} has not committed its setup, so its home rows must be empty",
                            seat_label(seat)
                        ));
                    }
                }
                if (units[0] | units[1] | mountains) & !(home_mask(Seat(0)) | home_mask(Seat(1)))
                    != 0
                {
                    return Err("during the setup row f must be empty".into());
                }
            }
            Phase::FirstPlayer => {
                for side in 0..2 {
                    let seat = Seat::new(side);
                    check_setup(seat, &self.army_on_board(side)).map_err(|e| {
                        format!(
                            "before the first move {}'s army must be its setup: {e}",
                            seat_label(seat)
                        )
                    })?;
                }
                if self.king_distance(0) != self.king_distance(1) {
                    return Err(
                        "the Kings are not equally near row f, so no coin flip is needed: \
                                the phase should be `play`"
                            .into(),
                    );
                }
            }
            Phase::Play => {
                for side in 0..2 {
                    if self.king(Seat::new(side)).is_none() {
                        return Err(format!(
                            "{} has no King: a game in play needs both Kings",
                            seat_label(Seat::new(side))
                        ));
                    }
                }
                if self.quiet_turns >= QUIET_TURN_LIMIT {
                    return Err(format!(
                        "quiet_turns is {}: the game is drawn at {QUIET_TURN_LIMIT}",
                        self.quiet_turns
                    ));
                }
                if let Some(cav) = self.cavalry {
                    match self.occupant(cav.horse) {
                        Some(Occupant::Unit { seat, kind })
                            if seat.0 == self.to_move && kind.is_horse() => {}
                        _ => {
                            return Err(format!(
                                "cavalry.horse is {}, which holds no horse of the side to move",
                                cav.horse
                            ));
                        }
                    }
                }
            }
            Phase::Over => match &self.outcome {
                None => return Err("phase “over” needs an outcome".into()),
                Some(o) if o.results.len() != 2 => {
                    return Err("the outcome must have one result per seat (2)".into());
                }
                Some(_) => {}
            },
        }
        Ok(())
    }

    /// Whether the shot `from` → `to` would be blocked by Mountains (ignoring units and range).
    pub fn line_blocked(&self, from: Cell, to: Cell) -> bool {
        if from.distance(to) > MAX_RANGE {
            return false;
        }
        super::board::line_blockers(from, to)
            .iter()
            .any(|(a, b)| self.mountains & a.bit() != 0 && self.mountains & b.bit() != 0)
    }
}

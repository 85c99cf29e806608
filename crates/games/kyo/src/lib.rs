//! # Kyo
//!
//! (Full documentation below is completed in `docs.md`-style sections.)

mod board;
mod movegen;
mod notation;
mod play;
mod render;

use serde::{Deserialize, Serialize};
use tabula_core::{
    ActionError, Actor, Game, GameOptions, Observer, OptionSpec, OptionsError, Outcome, Seat,
    ToAct, check_actor,
};

pub use board::{Board, Cell, Chip, ChipKind, DIR_NAMES, DIRS, Dir, Order, Pawn, PawnKind, Sq};
pub use play::QUIET_TURN_LIMIT;

/// Where the Light Pawns start (option `light_pawn_rows`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LightPawnRows {
    /// Rows 3 and 6 (the default).
    #[default]
    Trench,
    /// Rows 1 and 8.
    OpenField,
    /// Rows 4 and 5.
    Deadlock,
}

impl LightPawnRows {
    /// Gold's Light Pawn row (Red's is `9 - row`).
    pub fn gold_row(self) -> i8 {
        match self {
            LightPawnRows::Trench => 3,
            LightPawnRows::OpenField => 1,
            LightPawnRows::Deadlock => 4,
        }
    }
}

/// The options of Kyo, named as in the rules file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct KyoOptions {
    /// `trench` (rows 3/6), `open_field` (rows 1/8) or `deadlock` (rows 4/5).
    pub light_pawn_rows: LightPawnRows,
    /// Adds the Knights and Cannons.
    pub extra_pieces: bool,
}

impl GameOptions for KyoOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![
            OptionSpec::choice(
                "light_pawn_rows",
                &["trench", "open_field", "deadlock"],
                "trench",
                "Rows of the Light Pawns: trench 3/6, open_field 1/8, deadlock 4/5.",
            ),
            OptionSpec::bool(
                "extra_pieces",
                false,
                "Adds two Knights and two Cannons per side (this project's design).",
            ),
        ]
    }
}

/// One atomic action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Moves a lifted slice from `from` to `to`: the pawn with the top `chips` of the unbroken run of
    /// own chips under it (`pawn: true`), or `chips` own chips without any pawn (`pawn: false`: the
    /// chips alone from under a pawn, or from a pawnless stack). One square in 8 directions, or a
    /// Knight's leap, or a Cannon's capture 2–3 squares away. Whether it is a Mana move, a direct move
    /// or a capture follows from the position.
    Step {
        from: Sq,
        to: Sq,
        pawn: bool,
        chips: u8,
    },
    /// Reorders the top `order.len()` chips at `at` (under the pawn, or of a pawnless stack); `order`
    /// is bottom to top and its bottom chip differs from the current one (the lowest changed chip).
    Shuffle { at: Sq, order: Order },
    /// Puts the top `count` chips under the pawn at `from`, all own Shields, on the adjacent `to`.
    Deploy { from: Sq, to: Sq, count: u8 },
    /// Ends the turn (after Mana moves, Tower deploys or Queen shuffles).
    EndTurn,
}

/// Where a turn stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// No move of the pawn yet (only Queen shuffles or Tower deploys so far, or nothing at all).
    #[default]
    Open,
    /// After a Mana move: only further Mana moves of the same pawn (plus Queen shuffles, Tower deploys).
    Chain,
    /// After a Tower's turn-ending step: only its deploys remain.
    Locked,
}

/// The progress of the current turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Turn {
    /// The square of the piece acting this turn (`null` before the first action).
    pub active: Option<Sq>,
    /// Actions taken so far this turn.
    pub steps: u16,
    pub phase: Phase,
    /// Direction of the last Mana move (its colour follows: orthogonal Dark, diagonal Light).
    pub mana: Option<Dir>,
    /// Whether the last action was a (Queen's) shuffle.
    pub last_shuffle: bool,
    /// Chips the active pawn carried onto its square on its last step (`null` if it has not moved).
    pub carried: Option<u8>,
    /// Whether a capture happened this turn.
    pub removed: bool,
}

/// The full state of a game of Kyo (also its view: Kyo has no hidden information).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Kyo {
    pub options: KyoOptions,
    /// Stacks by square; absent squares are empty.
    pub board: Board,
    /// The seat to move: 0 Gold, 1 Red.
    pub to_move: Seat,
    #[serde(default)]
    pub turn: Turn,
    /// Completed turns.
    #[serde(default)]
    pub turns: u32,
    /// Completed turns in a row without a capture or destroyed Mana.
    #[serde(default)]
    pub quiet_turns: u32,
    /// 53-bit hashes of the positions at the start of each turn since the last capture or destroyed
    /// Mana (for threefold repetition).
    #[serde(default)]
    pub history: Vec<u64>,
    /// The result, once the game is over.
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// Starting number of chips of each kind per player: Dark, Light, Shield.
pub const CHIP_COUNTS: [usize; 3] = [13, 13, 8];

fn max_pawns(kind: PawnKind, extra: bool) -> usize {
    match kind {
        PawnKind::Heavy | PawnKind::LightPawn => 8,
        PawnKind::King | PawnKind::Queen => 1,
        PawnKind::Tower => 2,
        PawnKind::Knight | PawnKind::Cannon => {
            if extra {
                2
            } else {
                0
            }
        }
    }
}

impl Kyo {
    /// The start position for `options`.
    pub fn start(options: &KyoOptions) -> Kyo {
        let mut board = Board::default();
        let back: [(&str, PawnKind); 10] = [
            ("DDD", PawnKind::Heavy),
            ("DDL", PawnKind::Heavy),
            ("DLL", PawnKind::Heavy),
            ("LLL", PawnKind::Heavy),
            ("SSS", PawnKind::King),
            ("DLS", PawnKind::Queen),
            ("LLL", PawnKind::Heavy),
            ("DLL", PawnKind::Heavy),
            ("DDL", PawnKind::Heavy),
            ("DDD", PawnKind::Heavy),
        ];
        let lp = options.light_pawn_rows.gold_row();
        let extra_row = if lp == 1 { 2 } else { 1 };
        for side in 0..2u8 {
            let row = |r: i8| if side == 0 { r } else { 9 - r };
            let mut put = |col: i8, r: i8, chips: &str, kind: PawnKind| {
                if let Some(sq) = Sq::at(col, row(r)) {
                    let cell = board.cell_mut(sq);
                    cell.chips = chips
                        .chars()
                        .filter_map(ChipKind::from_letter)
                        .map(|k| Chip::new(side, k))
                        .collect();
                    cell.pawn = Some(Pawn { owner: side, kind });
                }
            };
            for (col, (chips, kind)) in back.iter().enumerate() {
                put(col as i8, 0, chips, *kind);
            }
            put(4, 1, "SS", PawnKind::Tower);
            put(5, 1, "SS", PawnKind::Tower);
            for col in [0, 1, 2, 3, 6, 7, 8, 9] {
                put(col, lp, "", PawnKind::LightPawn);
            }
            if options.extra_pieces {
                put(2, extra_row, "", PawnKind::Knight);
                put(7, extra_row, "", PawnKind::Knight);
                put(1, extra_row, "", PawnKind::Cannon);
                put(8, extra_row, "", PawnKind::Cannon);
            }
        }
        let mut k = Kyo {
            options: options.clone(),
            board,
            to_move: Seat(0),
            turn: Turn::default(),
            turns: 0,
            quiet_turns: 0,
            history: Vec::new(),
            outcome: None,
        };
        k.history.push(k.position_hash());
        k
    }

    /// A position built from stacks written as `(square, stack)` pairs (see [`Cell::code`]), with
    /// `to_move` to move and a fresh turn: for tests and hand-made positions.
    pub fn from_stacks(
        options: &KyoOptions,
        stacks: &[(&str, &str)],
        to_move: u8,
    ) -> Result<Kyo, String> {
        let mut board = Board::default();
        for (sq, code) in stacks {
            board.set(sq, code)?;
        }
        let mut k = Kyo {
            options: options.clone(),
            board,
            to_move: Seat(to_move),
            turn: Turn::default(),
            turns: 0,
            quiet_turns: 0,
            history: Vec::new(),
            outcome: None,
        };
        k.history.push(k.position_hash());
        k.validate_state()?;
        Ok(k)
    }

    /// The legal actions of the side to move, in a fresh vector.
    pub fn legal(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.generate(&mut movegen::Sink {
            out: &mut out,
            first_only: false,
        });
        out
    }

    fn validate_state(&self) -> Result<(), String> {
        if self.to_move.0 > 1 {
            return Err(format!(
                "to_move is {}; Kyo has seats 0 (Gold) and 1 (Red)",
                self.to_move.0
            ));
        }
        for side in 0..2u8 {
            let name = self.seat_label(side);
            let mut chips = [0usize; 3];
            for c in &self.board.cells {
                for ch in c.chips.iter().filter(|ch| ch.owner == side) {
                    chips[ch.kind as usize] += 1;
                }
            }
            for (i, kind) in ["Dark Mana", "Light Mana", "Shield"].iter().enumerate() {
                if chips[i] > CHIP_COUNTS[i] {
                    return Err(format!(
                        "{name} has {} {kind} chips; at most {} exist",
                        chips[i], CHIP_COUNTS[i]
                    ));
                }
            }
            for kind in PawnKind::ALL {
                let n = self
                    .board
                    .cells
                    .iter()
                    .filter(|c| c.pawn == Some(Pawn { owner: side, kind }))
                    .count();
                let max = max_pawns(kind, self.options.extra_pieces);
                if n > max {
                    return Err(format!(
                        "{name} has {n} {}s; at most {max} with these options{}",
                        kind.name(),
                        if max == 0 {
                            " (extra_pieces=false)"
                        } else {
                            ""
                        }
                    ));
                }
            }
            if self.outcome.is_none() {
                if !self.has_king(side) {
                    return Err(format!("{name} has no King but the game is not over"));
                }
                if chips[0] + chips[1] == 0 {
                    return Err(format!("{name} has no Mana but the game is not over"));
                }
            }
        }
        if let Some(o) = &self.outcome {
            if o.results.len() != 2 {
                return Err("outcome must have 2 results".into());
            }
            if self.turn != Turn::default() {
                return Err("the game is over but a turn is in progress".into());
            }
            return Ok(());
        }
        if self.quiet_turns >= QUIET_TURN_LIMIT {
            return Err(format!(
                "quiet_turns is {}: the game would already be drawn at {QUIET_TURN_LIMIT}",
                self.quiet_turns
            ));
        }
        let t = &self.turn;
        let me = self.to_move.0;
        if t.steps == 0 {
            if *t != Turn::default() {
                return Err(
                    "turn: with steps 0 the turn must be fresh (no active piece, phase \
                            open, no Mana move, no shuffle, nothing carried or removed)"
                        .into(),
                );
            }
            return Ok(());
        }
        let Some(a) = t.active else {
            return Err("turn: steps > 0 needs the active square".into());
        };
        let cell = self.board.cell(a);
        let Some(p) = cell.pawn.filter(|p| p.owner == me) else {
            return Err(format!(
                "turn: the active square {a} holds no pawn of the side to move"
            ));
        };
        match t.phase {
            Phase::Locked if p.kind != PawnKind::Tower => {
                return Err("turn: only a Tower is in the locked (deploy-only) phase".into());
            }
            Phase::Chain if t.mana.is_none() || p.kind == PawnKind::LightPawn => {
                return Err(
                    "turn: the chain phase needs a Mana move direction and a pawn that makes \
                     Mana moves"
                        .into(),
                );
            }
            Phase::Chain if t.carried.is_none() => {
                return Err("turn: after a Mana move the pawn has carried chips (carried)".into());
            }
            Phase::Open if !matches!(p.kind, PawnKind::Queen | PawnKind::Tower) => {
                return Err(
                    "turn: only a Queen (after a shuffle) or a Tower (after a deploy) \
                            continues a turn before moving"
                        .into(),
                );
            }
            _ => {}
        }
        if t.mana.is_some() && t.phase != Phase::Chain {
            return Err("turn: a Mana move direction is only kept in the chain phase".into());
        }
        if t.last_shuffle && p.kind != PawnKind::Queen {
            return Err("turn: only the Queen shuffles without ending the turn".into());
        }
        if let Some(c) = t.carried
            && (c as usize > cell.chips.len() || c > 5)
        {
            return Err(format!(
                "turn: carried {c} but the pawn on {a} has {} chips under it",
                cell.chips.len()
            ));
        }
        Ok(())
    }
}

impl Game for Kyo {
    type Options = KyoOptions;
    type Action = Action;
    type View = Kyo;

    const ID: &'static str = "kyo";
    const NAME: &'static str = "Kyo";
    const DESCRIPTION: &'static str = "Kyo: pawns on stacks of Mana and Shield chips on a 10x10 \
        board. Pawns chain Mana moves over Dark (orthogonal) and Light (diagonal) Mana, shuffle and \
        deploy chips, and win by capturing the enemy King or leaving the enemy without Mana. \
        Options: light_pawn_rows (trench|open_field|deadlock), extra_pieces (Knights and Cannons).";

    fn new(options: &KyoOptions) -> Result<Kyo, OptionsError> {
        options.validate()?;
        Ok(Kyo::start(options))
    }

    fn options(&self) -> &KyoOptions {
        &self.options
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat.0 {
            0 => "Gold".to_string(),
            1 => "Red".to_string(),
            n => format!("Seat {n}"),
        }
    }

    fn to_act(&self) -> ToAct {
        match &self.outcome {
            Some(o) => ToAct::Over(o.clone()),
            None => ToAct::Seat(self.to_move),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        if self.outcome.is_none() && seat == self.to_move {
            self.generate(&mut movegen::Sink {
                out,
                first_only: false,
            });
        }
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), ActionError> {
        check_actor(&self.to_act(), actor)?;
        self.apply_checked(action)
    }

    fn apply_trusted(&mut self, actor: Actor, action: &Action) {
        if self.outcome.is_none() && actor == Actor::Seat(self.to_move) {
            self.apply_unchecked(action);
        }
    }

    fn view(&self, _observer: Observer) -> Kyo {
        self.clone()
    }

    fn action_notation(&self, action: &Action) -> String {
        self.notation(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        self.parse_notation(text)
    }

    fn validate(&self) -> Result<(), String> {
        self.validate_state()
    }

    fn render_text(&self, _observer: Observer) -> String {
        self.draw()
    }

    fn turn_number(&self) -> u32 {
        self.turns
    }
}

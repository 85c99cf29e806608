//! # Kyo
//!
//! Game id `kyo`, type [`Kyo`]. Seat 0 is **Gold** (rows 0–1, moves first), seat 1 is **Red**
//! (rows 8–9). The canonical rules are `docs/rules/kyo.md`; this page states them as implemented,
//! with every **\[decision\]** of the rules file and every point the rules left open (marked
//! **\[crate decision\]**).
//!
//! ## Board and pieces
//! 10x10 squares `A0`..`J9` (column A–J, row 0–9). Every square holds a stack: chips bottom to top —
//! Dark Mana `D`, Light Mana `L`, Shield `S`, each owned (13 D, 13 L, 8 S per player; Shields are owned,
//! **\[decision\]**) — and at most one pawn on top: Heavy `H`, King `K`, Queen `Q`, Tower `T`, Light
//! Pawn `P`, and with `extra_pieces` Knight `N` and Cannon `C`.
//!
//! ## Options
//! * `light_pawn_rows`: `trench` (default; rows 3/6), `open_field` (rows 1/8), `deadlock` (rows 4/5).
//! * `extra_pieces` (default `false`): two Knights (C1/H1, C8/H8) and two Cannons (B1/I1, B8/I8) per
//!   side, one row further in (rows 2/7) with `open_field`.
//!
//! ## Start position
//! Gold row 0, A to J: `DDDH DDLH DLLH LLLH SSSK DLSQ LLLH DLLH DDLH DDDH`; Towers `SST` on E1 and F1;
//! eight Light Pawns on columns A–D and G–J of the Light Pawn row. Red mirrors it across the middle
//! line (row r ↔ row 9 − r; King faces King on E0/E9).
//!
//! ## Lifting
//! A move lifts a **slice** from the top of one of the mover's stacks: the mover's pawn (if any) plus an
//! unbroken run of the mover's own chips directly under it. Enemy chips and anything under them are
//! never lifted. A Light Pawn lifts no chips, any other pawn at most 5, a pawnless slice any number.
//! **\[crate decision\]** The "chips alone" of a pawn's slice obey the same limit (so nothing can be
//! lifted from under a Light Pawn), and every step of a Mana chain lifts afresh from the square the
//! pawn stands on (it may leave chips behind or pick up own chips found there).
//!
//! ## A turn is a sequence of atomic actions ([`Action`])
//! * [`Action::Step`] with `pawn: true` moves the pawn and the top `chips` chips of its run to an
//!   adjacent square (8 directions; Knight leaps and Cannon captures below).
//!   - It is a **Mana move** when the pawn is not a Light Pawn and the top chip left on the square it
//!     left is Dark Mana for an orthogonal step or Light Mana for a diagonal one (the mover's or the
//!     enemy's). A step that qualifies always *is* a Mana move **\[crate decision\]**: the turn goes on,
//!     and the player ends it with [`Action::EndTurn`] — which gives exactly the direct move's effect,
//!     so no separate "direct" variant of such a step is listed.
//!   - After a Mana move only further Mana moves **of the same pawn** follow (**\[crate decision\]**: the
//!     chain belongs to one pawn), never a direct move. Consecutive Mana moves over the same colour
//!     keep exactly the same direction (no turn, no reversal, **\[decision\]**); a colour change allows
//!     any direction of the new kind. Queen shuffles and Tower deploys in between do not reset the
//!     direction rule **\[crate decision\]**.
//!   - **\[decision\]** A Mana move may return the pawn to a square it already stood on this turn, but
//!     no step may recreate a **whole position** (every stack of the board) that already stood earlier
//!     in the same turn, its start included: that bounds every turn without forbidding a chain that
//!     changed the board on its way. The turn keeps the squares the pawn stood on (`visited`: only a
//!     step back to one of them can recreate a position) and [`Board::hash`] of every earlier
//!     position (`positions`); a step back is refused when its result's hash is among them.
//!   - Any other step is a **direct move** and ends the turn.
//! * [`Action::Step`] with `pawn: false` moves chips without a pawn: the chips alone from under the
//!   mover's pawn (leaving the pawn) or the top chips of a pawnless stack; a direct move that ends the
//!   turn. A chip-only slice lands on an empty square or any pawnless stack, never under a pawn
//!   (**\[decision\]**). When the chips from under a pawn are all Shields, the action is a
//!   [`Action::Deploy`] instead (see below), so it follows the deploy's landing rule (not onto an
//!   enemy Shield) **\[crate decision\]**.
//! * [`Action::Shuffle`] reorders the chips of the lifted slice. It must change the order, may never
//!   leave one of the mover's Shields under one of the mover's Mana chips within the slice, and ends the
//!   turn — except for the **Queen**, who shuffles freely before, between or after her steps, also after
//!   Mana moves (only she may). Consecutive shuffles count as one: no shuffle directly after a shuffle.
//!   Any slice, also a pawnless one, may shuffle as the whole turn. The action gives the new order of
//!   the top k chips from the **lowest changed chip** up, so every reachable order is listed once
//!   (`parse_action` accepts longer orders and cuts them down).
//! * [`Action::Deploy`] puts `count` Shields from directly under the pawn (the top of its slice,
//!   within the carry limit) on an adjacent square without a pawn and without an enemy Shield on top.
//!   **\[decision\]** Only Shields the pawn has carried since its turn began (its lifted slice, kept
//!   as the turn's `lifted`), never Shields it stepped onto this turn: a Tower that steps onto its own
//!   Shields deploys them on a later turn (relocation), so its direct move onto them carrying no
//!   Shield ends the turn.
//!   For every pawn but the Tower it is a direct move that ends the turn; the **Tower** deploys at any
//!   time of its turn without ending it — before, between, after its steps, also after its own
//!   turn-ending step (a direct move, a capture or a shuffle), after which only deploys and
//!   [`Action::EndTurn`] remain; when no deploy is possible then, the turn ends by itself.
//! * [`Action::EndTurn`] ends a turn that has at least one action (after Mana moves, Tower deploys,
//!   Queen shuffles). **\[crate decision\]** Once a piece has acted, the rest of the turn belongs to it
//!   (the turn's `active` square). A direct move of the Queen ends her turn (only the Tower is
//!   excepted by the rules).
//! * **\[decision\]** A player with no legal action at the start of a turn loses.
//!
//! ## Where a pawn may step
//! Onto an empty square; onto a pawnless stack topped by Mana (anyone's); onto an enemy pawn (a
//! capture); onto a stack topped by a Shield only if it is a **Tower** (**\[decision\]**). A Tower landing
//! on enemy Shields removes the unbroken run of enemy Shields on top from the game (**\[decision\]**;
//! **\[crate decision\]** also when it lands there after capturing); on its own Shields it simply stands
//! and may lift them on a later turn. Never onto an own pawn.
//!
//! ## Captures, Light Pawns, destroying Mana
//! * A capture removes the enemy pawn and the enemy Mana directly under it, down to the first chip
//!   that is the mover's or a Shield; the slice lands on what is left. It ends the turn (a Mana chain
//!   may end in a capture when the capturing step qualifies as a Mana move).
//! * A Light Pawn captures only if the number of the target's 8 neighbours topped by a mover's item
//!   (pawn, or Mana chip of a pawnless stack) is greater than the number of the attacker's neighbours
//!   topped by an enemy item. Shields count for nobody; off-board squares count for nobody. Moving
//!   onto enemy Mana needs no outnumbering.
//! * When a turn ends and the pawn that acted has moved, the enemy Mana directly under the chips it
//!   carried onto its final square is destroyed, down to the first chip that is the mover's or a
//!   Shield. Only the final square. **\[crate decision\]** "The chips carried" are the top `carried`
//!   chips under the pawn (a later Queen shuffle keeps their number, a later Tower deploy takes from
//!   them first).
//!
//! ## Optional pieces (`extra_pieces`)
//! * **Knight**: moves like a Heavy (steps, Mana moves, captures, carries up to 5 chips) and may instead
//!   make a chess knight's leap as a direct move, over anything, onto a square a pawn may step on
//!   (capturing an enemy pawn there).
//! * **Cannon**: moves like a Heavy but never captures by an adjacent attack; as a direct move it
//!   captures an enemy pawn 2 or 3 squares away in a straight line (**\[crate decision\]**: any of the 8
//!   directions) when exactly one non-empty square lies between, landing on the target (with up to 5
//!   chips).
//!
//! ## The end (checked after every turn)
//! * The mover wins when the enemy King is gone ("King captured") or the enemy has no Mana chip on the
//!   board, buried ones included ("no Mana left").
//! * Draw (**\[decision\]**) by threefold repetition of the position (stacks and side to move, at the
//!   start of a turn), or after [`QUIET_TURN_LIMIT`] = 100 turns in a row without a capture or
//!   destroyed Mana (Shields removed by a Tower do not reset that count).
//! * The side to move loses when it has no legal action ("no legal step").
//!
//! ## JSON state format
//! ```json
//! {
//!   "options": {"light_pawn_rows": "trench", "extra_pieces": false},
//!   "board": {"A0": "DDDH", "E0": "SSSK", "E1": "SST", "A3": "P", "E9": "sssk", "C4": "DdL"},
//!   "to_move": 0,
//!   "turn": {"active": null, "steps": 0, "phase": "open", "mana": null, "last_shuffle": false,
//!            "carried": null, "lifted": null, "removed": false, "visited": [], "positions": []},
//!   "turns": 0, "quiet_turns": 0, "history": [], "outcome": null
//! }
//! ```
//! * `board`: square → stack; absent squares are empty. A stack is its chip letters bottom to top
//!   followed by at most one pawn letter; upper case is Gold, lower case Red (`DdL` is Gold D, Red d,
//!   Gold L).
//! * `to_move`: 0 Gold, 1 Red. `turn` (optional, default a fresh turn): the piece acting this turn
//!   (`active`), actions so far (`steps`), `phase` (`open` before the pawn moved, `chain` after a Mana
//!   move, `locked` after a Tower's turn-ending step), the last Mana move's direction (`mana`: `N`, `NE`,
//!   `E`, `SE`, `S`, `SW`, `W`, `NW`; N is towards row 9), whether the last action was a Queen
//!   shuffle, the chips carried on the pawn's last step (`carried`), how many of the chips under the
//!   pawn it has carried since the turn began (`lifted`), whether a capture happened, the squares the
//!   pawn stood on (`visited`) and the [`Board::hash`] of the position before each action after
//!   which the pawn may still step (`positions`, 53-bit numbers; a hand-written state may leave it
//!   empty).
//! * `turns`: completed turns; `quiet_turns`: turns in a row without capture or destroyed Mana;
//!   `history`: 53-bit position hashes at the start of each turn since the last capture or destroyed
//!   Mana (may be left empty in a hand-written state); `outcome`: `null` or the result.
//! * `validate()` rejects: more chips of a kind or pawns of a kind than a player owns, Knights or
//!   Cannons without `extra_pieces`, a running game where a side lacks its King or all its Mana, a
//!   turn state that does not fit the board (the active square without the mover's pawn, a phase the
//!   pawn cannot be in…), `quiet_turns` ≥ 100, and a running game whose side to move has no action.
//!
//! ## Action JSON
//! `{"step": {"from": "D0", "to": "C1", "pawn": true, "chips": 2}}`,
//! `{"shuffle": {"at": "F0", "order": "LDS"}}` (bottom to top), `{"deploy": {"from": "E1", "to": "E2",
//! "count": 1}}`, `"end_turn"`.
//!
//! ## Notation (one atomic action; a turn reads as the sequence, e.g. `D0/1>C1`, `C1/1>B2`, `end`)
//! * Pawn step: `<from>[/N]<sep><to>` — `sep` is `x` for a capture, `>` for a Mana move, `-` otherwise;
//!   `/N` = N chips of the pawn's own run **left behind** (omitted when 0, i.e. the pawn carries its
//!   whole run). Example: a Heavy on `LLL` at D0: `D0/1>C1` carries two Light and leaves one.
//! * Chips without pawn: `<from>(<n>)-<to>` moves n chips.
//! * Deploy: `<from>*<to>` (one Shield) or `<from>(<n>)*<to>`.
//! * Shuffle: `<from>~<order>`, the new order bottom to top from the lowest changed chip (`F0~LDS`).
//! * End of turn: `end`.
//!
//! `parse_action` also accepts `<from>+<n><sep><to>` (a pawn carrying n chips) and any of `-`, `>`,
//! `x` as separator (the kind of step follows from the position); `action_notation` is its exact
//! inverse on every legal action.

mod board;
mod movegen;
mod notation;
mod play;
mod render;

use serde::{Deserialize, Serialize};
use tabula_core::wire::{Config, ExportError, TS};
use tabula_core::{
    ActionError, Actor, Game, GameOptions, Observer, OptionSpec, OptionsError, Outcome, Seat,
    ToAct, check_actor,
};

pub use board::{Board, Cell, Chip, ChipKind, DIR_NAMES, DIRS, Dir, Order, Pawn, PawnKind, Sq};
pub use play::QUIET_TURN_LIMIT;

/// Where the Light Pawns start (option `light_pawn_rows`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "kyo/")]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "kyo/")]
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
                "Where the Light Pawns start: trench (rows 3 and 6), open field (rows 1 and 8) or deadlock (rows 4 and 5).",
            ),
            OptionSpec::bool(
                "extra_pieces",
                false,
                "Adds two Knights and two Cannons per side: a variant made for Tabula, off by default.",
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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "kyo/")]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "kyo/")]
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
    /// How many of the chips directly under the active pawn it has carried since its turn began (its
    /// lifted slice, less what it deployed; `null` if it has not moved, when its whole slice is
    /// lifted, or in a hand-written state that leaves it out: then `carried` counts): a Tower deploys
    /// only Shields among them, never Shields it stepped onto this turn.
    pub lifted: Option<u8>,
    /// Whether a capture happened this turn.
    pub removed: bool,
    /// Squares the moving pawn has stood on this turn: a step back to one of them is checked against
    /// `positions`.
    #[serde(with = "sq_set")]
    #[ts(as = "Vec<Sq>")]
    pub visited: u128,
    /// [`Board::hash`] of every position that stood earlier in this turn and that a later step could
    /// recreate: the position before each action after which the pawn may still step (a Mana move, a
    /// Queen's shuffle, a Tower's deploy before its turn-ending step), so its start whenever the turn
    /// goes on (at most one per action; a hand-written state may leave it empty). No step may
    /// recreate one of them.
    pub positions: Vec<u64>,
}

/// Serde of a set of squares (a `u128` bit set) as a list of square names.
mod sq_set {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::board::Sq;

    pub fn serialize<S: Serializer>(set: &u128, s: S) -> Result<S::Ok, S::Error> {
        let v: Vec<Sq> = Sq::all().filter(|q| set >> q.0 & 1 == 1).collect();
        v.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u128, D::Error> {
        let v = Vec::<Sq>::deserialize(d)?;
        Ok(v.iter().fold(0u128, |acc, q| acc | 1u128 << q.0))
    }
}

/// The full state of a game of Kyo (also its view: Kyo has no hidden information).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "kyo/")]
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

/// Exports the TypeScript declarations of Kyo's view ([`Kyo`], and what it refers to) under `kyo/`
/// (see [`tabula_core::wire`]).
pub fn export_ts(cfg: &Config) -> Result<(), ExportError> {
    Kyo::export_all(cfg)?;
    Ok(())
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
                            open, no Mana move, no shuffle, nothing carried, lifted, removed or \
                            visited, no earlier positions)"
                        .into(),
                );
            }
            if !self.has_any_action() {
                return Err("the side to move has no legal action: the game should be over".into());
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
        if t.carried.is_some() && t.visited >> a.0 & 1 == 0 {
            return Err(format!(
                "turn: the pawn on {a} has moved this turn, so {a} must be in visited"
            ));
        }
        if t.carried.is_none() && t.visited != 0 {
            return Err(
                "turn: visited squares but the pawn has not moved (carried is null)".into(),
            );
        }
        if t.lifted.is_some() && (t.carried.is_none() || t.lifted > t.carried) {
            return Err(
                "turn: lifted needs carried and is at most carried (the chips carried since the \
                 turn began are among those carried on the last step)"
                    .into(),
            );
        }
        if t.positions.len() > t.steps as usize {
            return Err(format!(
                "turn: {} earlier positions for {} actions (at most one per action)",
                t.positions.len(),
                t.steps
            ));
        }
        if let Some(c) = t.carried
            && (c as usize > cell.chips.len() || c > 5)
        {
            return Err(format!(
                "turn: carried {c} but the pawn on {a} has {} chips under it",
                cell.chips.len()
            ));
        }
        if !self.has_any_action() {
            return Err("the side to move has no legal action: the game should be over".into());
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
    const DESCRIPTION: &'static str = "Your pawns ride on stacks of Mana chips: chain moves across \
        Dark and Light Mana, move chips and Shields, and win by taking the enemy King or \
        leaving your opponent without Mana.";

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

    fn action_cells(&self, action: &Action) -> Vec<String> {
        self.cells(action)
    }

    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        if seat != self.to_move {
            return None;
        }
        self.explain_click(cells)
    }

    fn action_notation(&self, action: &Action) -> String {
        self.notation(action)
    }

    fn action_words(&self, _actor: Actor, action: &Action, _observer: Observer) -> String {
        self.words(action)
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

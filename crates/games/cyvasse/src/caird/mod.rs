//! # Cyvasse, Caird's rules — game id `cyvasse-caird`
//!
//! Family 2 of `rules/cyvasse.md`: Version A (Basic, 8x8), Version C (Expert, terrain), the optional
//! rules a–f and Hex Cyvasse, in every combination the rules allow. The sections below give the rules
//! as implemented, every decision taken, the JSON state format and the notation.
//!
//! Public API: [`CairdCyvasse`] (the [`Game`]), [`CairdOptions`], [`CairdAction`], [`CairdView`];
//! setup helpers [`validate_setup`], [`random_setup`], [`guarded_setup`], [`preset`] / [`PRESETS`];
//! the rules engine in [`rules`] and board geometry in [`geo`]; the pieces' legend, from the rules
//! engine's tables, in [`legend`] (each piece's words in the standard game and under each option set
//! that changes it).
//!
//! ## Rules as implemented
//! * **Seats**: seat 0 is White (home on ranks 1.. / the lower hex rows), seat 1 is Black. White moves
//!   first once both hidden setups are in.
//! * **Setup** (`ToAct::Seats`): each seat commits its whole setup in one [`CairdAction::Setup`]:
//!   Version C terrain (Fortress 1, Hills 4, Water 4, Forest 7, the rest Grassland; 10x10: 1/5/5/9;
//!   hex: 1/4/4/7 with 21 Grassland) and the 26 pieces (King 1, Dragon 1, Elephant 2, Trebuchet 2,
//!   Crossbowman 2, Heavy Horse 2, Light Horse 2, Spear 4, Rabble 4, Mountain 6) on the home zone
//!   (the 4 nearest rows; 5 on 10x10; the 37 cells of a hex half). The King starts in the Fortress
//!   (Version C), Mountains never on Water, never on sea ports (`sea_movement`), and the **Mountain
//!   pass rule**: every non-Mountain home cell is orthogonally connected through non-Mountain home cells
//!   to the home's front row. [`validate_setup`] checks a setup on its own and names the failing rule.
//!   Views never show the other seat's setup before both are committed.
//! * **Capture table** ([`rules::class_beats`]): the King takes and is taken by anything; same category
//!   and level >= ; infantry→cavalry→ranged→infantry; special→every troop; elite troops take the
//!   Dragon-level special, basic troops the Elephant-level special; Mountains never.
//! * **Moves** are straight and continuous, up to the piece's number, never through pieces; a capture
//!   is a move onto the enemy. Basic: King 1 any, Dragon 4 any (flies over Mountains), Elephant 3
//!   ortho, Trebuchet 3 ortho, Crossbowman 2 diag, Heavy Horse 3 diag, Light Horse 2 diag, Spear 1 any,
//!   Rabble 1 ortho. Expert: Trebuchet moves 1 any and shoots 3 ortho; Crossbowman moves 2 diag and
//!   shoots 2 diag. Hex: Dragon 5 orthogonal only, Crossbowman 2 orthogonal, ranged attacks orthogonal
//!   only with range +1 in Version C (Trebuchet 4, Crossbowman 3).
//! * **Basic Trebuchet**: captures without moving an enemy on its 3-square ortho take line lying beyond
//!   at least one Mountain and/or friendly piece (no enemy in between).
//! * **Terrain** (Version C): entering costs Grassland 1, Hills 2, Forest 2, Water 3 (Elephant 1),
//!   Fortress 1; a step is allowed while movement is left, and a piece halts on a square whose cost is at
//!   least the movement left, and on any Fortress. Pieces on Water cannot attack (Dragon excepted).
//!   Dragons ignore terrain.
//! * **Fortress**: a piece standing in a Fortress attacks and defends as a special of its own level
//!   (basic → Elephant-level, elite → Dragon-level) until it leaves or captures outside; a Dragon that
//!   moves onto an empty Fortress or captures a piece in one ruins it (Forest).
//!   **\[decision\]** A capture outside that does not move the piece (a Crossbowman's or Trebuchet's
//!   shot) ends the effect for as long as the piece stays in that Fortress: it fights at its own
//!   class at once (already in the opponent's reply) and gains the effect again only by entering a
//!   Fortress anew (the state's `fortress_spent`).
//! * **Ranged attacks** (Version C): Trebuchets shoot over Mountains and friendly pieces, Crossbowmen
//!   over nothing; both may also capture by moving.
//! * **King's morale** (Version C): a piece adjacent to its own King, orthogonally or diagonally (8
//!   neighbours; on the hexagon **\[decision\]** all 12: the 6 edge neighbours and the 6 diagonals,
//!   same-colour cells across a vertex, as the rules define hex diagonals), fights as elite of its
//!   category, attacking and defending.
//! * **Check**: an action that leaves one's own King capturable is illegal. No legal action: checkmate
//!   (the other side wins) when in check, else stalemate (draw). Threefold repetition (same position,
//!   terrain, side to move, reserve, storm state and spent Fortresses) and 100 plies without a capture are draws.
//! * **Options**: `large_board` (10x10), `dragon_reserve` ([`CairdAction::Place`] on any empty cell of the
//!   own home zone; on the hexagon **\[decision\]** the own home area only, never no-man's-land nor the
//!   enemy's home), `super_trebuchets` (Trebuchet shots pass over every piece), `dragonfyre` (the Dragon
//!   shoots 2 squares ortho/diag — hex: orthogonal — over friendly pieces, not over Mountains),
//!   `castle_storming` ([`CairdAction::Ruin`]), `wildfyre` (a ranged capture of a piece on Water burns
//!   the square), `sea_movement` (hex: a piece on a corner port moves to the next port either way).
//!
//! ## Decisions (the rules file's **\[decision\]** items are followed; these settle what it leaves open)
//! * The Basic Trebuchet's stay-in-place capture requires at least one Mountain or friendly piece
//!   between it and the target (its other captures are ordinary move-captures); with
//!   `super_trebuchets` any piece may be in between.
//! * The Fortress class belongs to the piece while it stands in the Fortress: it attacks out of the
//!   Fortress (a move-capture that leaves it, or a shot) and is attacked there as a special of its
//!   level; once it has left, or has shot a piece outside (the rules' decision above), the effect
//!   has ended. The shot itself is still made as a special. The King is never changed by the Fortress or by
//!   morale.
//! * Morale is judged where the pieces stand before the action.
//! * The Fortress costs 1 to enter. Dragons ignore costs and the Fortress halt; they fly over
//!   burning squares like over Mountains but never stop on one. Shots pass over empty and burning
//!   squares; terrain never blocks a shot. A piece on Water can neither move-capture nor shoot.
//! * A dragonfyre shot that captures a piece in a Fortress also ruins it (it is a Dragon capture).
//! * `castle_storming`: a piece that moves or captures into the enemy Fortress may, from its owner's
//!   next turn on (the enemy having had one turn to recapture) and while it stays there, spend a whole
//!   move ruining it ([`CairdAction::Ruin`]).
//! * `wildfyre`: burning squares can never be entered or stopped on (the Dragon may fly over them).
//! * Dragon placement (`dragon_reserve`) is a move: it must not leave the own King capturable, it may use
//!   any empty non-burning cell of the own home, and it does not ruin a Fortress. On the hexagon the
//!   rules say "within five cells of a friendly edge"; **\[decision\]** that is any empty cell of the
//!   own home area (its 37 cells), never a no-man's-land cell nor an enemy home cell, as on the square
//!   board's "friendly side".
//! * `sea_movement`: the sea move ignores terrain costs, is not blocked, and captures only what the
//!   piece may capture; a piece on Water cannot capture by sea.
//! * The hidden setup can leave a King capturable on White's first move: capturing a King is then legal
//!   and wins at once ("King captured"). After the first move this cannot happen.
//! * Option combinations: `large_board` and `super_trebuchets`, `castle_storming`, `wildfyre` are square
//!   board rules (the rules list the hex options separately); `sea_movement` is hex only;
//!   `castle_storming` and `wildfyre` need terrain (Version C). Others are refused with a message.
//! * The 10x10 board keeps the 26 pieces per side; only the terrain counts and the home depth change.
//! * Hex: the front row of a home (for the pass rule) is its five cells with |r − s| = 2, next to
//!   no-man's-land; pieces may move through no-man's-land once play begins. "Adjacent" (morale) means
//!   the 12 cells of the hex directions (see King's morale above). The Basic Trebuchet's stay-in-place take line stays 3 (the +1 is for
//!   Version C ranged attacks); Version C Trebuchets move 1 cell in any of the 12 directions.
//! * Mountains are neutral once placed (their owner's case is kept only for display): any Trebuchet
//!   shoots over any Mountain, the Dragon flies over any Mountain, and nothing captures one.
//! * `determinize` (for AIs, during the setup) replaces the opponent's committed setup by a random
//!   legal one; after the setup nothing is hidden.
//! * During the setup `legal_actions` cannot list every legal setup (there are astronomically many): it
//!   lists the three presets and five random legal setups derived from the seat ([`listed_setups`],
//!   each labelled in the notation); `apply` accepts every setup [`validate_setup`] accepts.
//!
//! ## Cells and notation
//! * Squares: files `a`.. and ranks `1`.. with White on rank 1 (`a1`..`h8`, `a1`..`j10`). Cell index
//!   = (rank-1) * width + file.
//! * Hexagon: rows `a` (top, Black's far corner side) to `k` (bottom), 6,7,..,11,..,6 cells, numbered
//!   from 1 at the left: `a1`..`a6`, `f1`..`f11`, `k1`..`k6`. Cell index counts row by row from `a1`.
//!   In cube coordinates (q, r, s) row `a` is r = -5; White's home is r - s >= 2, Black's r - s <= -2.
//!   Ports (sea movement) are the six corners `a6`, `f11`, `k6`, `k1`, `f1`, `a1`.
//! * Actions: `e2-e4` (move), `e2xe5` (move-capture; `-` is also accepted), `e2*e5` (capture without
//!   moving: a shot, the Basic Trebuchet's capture, dragonfyre), `D@e3` (place the reserve Dragon),
//!   `ruin e8` (castle storming), `setup pieces=<…> terrain=<…>` (a whole setup, see [`setup`]).
//!   A setup of the list `legal_actions` offers ([`listed_setups`]) carries its label after `setup`:
//!   `setup preset=phalanx pieces=… terrain=…` or `setup random=2 pieces=…`, so a reader (the web
//!   client's setup buttons, a move list) can tell a preset from a random setup; read back next to a
//!   plan, the label must name that plan. A label alone, `setup preset=phalanx [seat=white|black]` or
//!   `setup random=2 [seat=…]`, stands for that setup's full plan (the seat defaults to the first seat
//!   still owing its setup).
//!   JSON actions: `{"move":{"from":12,"to":28}}`, `{"shot":…}`, `{"place":{"to":20}}`,
//!   `{"ruin":{"at":60}}`, `{"setup":{"terrain":"…","pieces":"…"}}` (cell indices as above).
//!
//! ## JSON state
//! ```json
//! { "options": {"version": "expert", "board": "square", "large_board": false, …},
//!   "phase": "play",
//!   "setups": [null, null],
//!   "board": "TEHKDHET/CLSSSSLC/…",
//!   "terrain": "...c..../ff....ff/…",
//!   "to_move": 0, "dragon_in_reserve": [false, false], "storm": [null, null],
//!   "fortress_spent": [false, false], "ply": 0, "quiet_plies": 0, "history": [1234], "outcome": null }
//! ```
//! `board` and `terrain` list one character per cell row by row (squares: rank 1 first, files a..;
//! hex: row a first), rows separated by `/` (ignored when read). Pieces: `K D E T C H L S R M`, upper
//! case White, lower case Black, `.` empty. Terrain: `.` Grassland, `h` Hills, `f` Forest, `w` Water,
//! `c` Fortress, `b` burning. `phase` is `setup` (then `setups` holds each committed plan, board
//! empty) or `play`. `storm[s]` is the ply at which seat `s`'s piece entered the enemy Fortress
//! (castle storming). `fortress_spent[h]` says that the piece in the Fortress of seat `h`'s half has
//! shot a piece outside since it entered, so that it no longer fights as a special there (omitted:
//! `false`). `quiet_plies` counts plies since the last capture; `history` holds the position
//! hashes since the last irreversible action (it may be omitted: it is then restarted).
//! `outcome` is set once the game is over.

pub mod geo;
pub mod legend;
pub mod rules;
pub mod setup;
mod why;

use serde::{Deserialize, Serialize};
use tabula_core::{
    ActionError, Actor, Game, GameOptions, GameRng, Observer, OptionSpec, OptionsError, Outcome,
    Seat, ToAct, check_actor,
};
use ts_rs::TS;

use geo::NONE;
use rules::*;
pub use setup::{
    ListedSetup, PRESETS, SetupPlan, guarded_setup, king_threats, listed_setups, preset,
    random_setup, validate_setup,
};

/// Version A (Basic) or Version C (Expert, terrain).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(rename_all = "lowercase")]
pub enum Version {
    #[default]
    Basic,
    Expert,
}

/// Square board (8x8 or 10x10) or the 91-cell hexagon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(rename_all = "lowercase")]
pub enum BoardKind {
    #[default]
    Square,
    Hex,
}

/// The options of `cyvasse-caird` (names as in the rules file).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(default, deny_unknown_fields)]
pub struct CairdOptions {
    pub version: Version,
    pub board: BoardKind,
    pub large_board: bool,
    pub dragon_reserve: bool,
    pub super_trebuchets: bool,
    pub dragonfyre: bool,
    pub castle_storming: bool,
    pub wildfyre: bool,
    pub sea_movement: bool,
}

impl GameOptions for CairdOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![
            OptionSpec::choice(
                "version",
                &["basic", "expert"],
                "basic",
                "basic = Version A (no terrain); expert = Version C (terrain, ranged attacks, morale)",
            ),
            OptionSpec::choice(
                "board",
                &["square", "hex"],
                "square",
                "square board (8x8, or 10x10 with large_board) or the 91-cell hexagon",
            ),
            OptionSpec::bool(
                "large_board",
                false,
                "a: 10x10 board, 5 home rows (square only)",
            ),
            OptionSpec::bool(
                "dragon_reserve",
                false,
                "b: the Dragon starts off-board and is placed on an empty home cell as a move",
            ),
            OptionSpec::bool(
                "super_trebuchets",
                false,
                "c: Trebuchet shots pass over friendly and enemy pieces (square only)",
            ),
            OptionSpec::bool(
                "dragonfyre",
                false,
                "d: the Dragon also shoots 2 cells (ortho/diag; hex: orthogonal) over friendly pieces",
            ),
            OptionSpec::bool(
                "castle_storming",
                false,
                "e: a piece holding the enemy Fortress for a turn may ruin it (expert, square only)",
            ),
            OptionSpec::bool(
                "wildfyre",
                false,
                "f: a ranged capture on Water sets it burning, impassable (expert, square only)",
            ),
            OptionSpec::bool(
                "sea_movement",
                false,
                "hex: pieces on corner ports move by sea to the next port (hex only)",
            ),
        ]
    }

    fn validate(&self) -> Result<(), OptionsError> {
        let hex = self.board == BoardKind::Hex;
        let conflict = |m: &str| Err(OptionsError::Conflict(m.to_string()));
        if hex && self.large_board {
            return conflict("large_board is a square-board rule (the hexagon has 91 cells)");
        }
        if hex && self.super_trebuchets {
            return conflict(
                "super_trebuchets is a square-board optional rule; hex options are sea_movement, dragon_reserve and dragonfyre",
            );
        }
        if hex && self.castle_storming {
            return conflict(
                "castle_storming is a square-board optional rule; hex options are sea_movement, dragon_reserve and dragonfyre",
            );
        }
        if hex && self.wildfyre {
            return conflict(
                "wildfyre is a square-board optional rule; hex options are sea_movement, dragon_reserve and dragonfyre",
            );
        }
        if !hex && self.sea_movement {
            return conflict("sea_movement needs board=hex (ports are the hexagon's corners)");
        }
        if self.version == Version::Basic && self.castle_storming {
            return conflict("castle_storming needs version=expert (Version A has no Fortress)");
        }
        if self.version == Version::Basic && self.wildfyre {
            return conflict("wildfyre needs version=expert (Version A has no Water)");
        }
        Ok(())
    }
}

/// One action of `cyvasse-caird`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(rename_all = "snake_case")]
pub enum CairdAction {
    /// A seat's whole hidden setup.
    Setup(SetupPlan),
    /// A move, or a capture by moving onto the enemy (also a sea move).
    Move { from: u8, to: u8 },
    /// A capture without moving: a ranged shot, the Basic Trebuchet's capture, dragonfyre.
    Shot { from: u8, to: u8 },
    /// Place the reserve Dragon (`dragon_reserve`).
    Place { to: u8 },
    /// Ruin the enemy Fortress held by one's piece (`castle_storming`).
    Ruin { at: u8 },
}

/// The game phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/", rename = "CairdPhase")]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Setup,
    Play,
}

/// The documented JSON form of a state (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
pub struct StateRepr {
    pub options: CairdOptions,
    pub phase: Phase,
    #[serde(default)]
    pub setups: [Option<SetupPlan>; 2],
    pub board: String,
    pub terrain: String,
    #[serde(default)]
    pub to_move: u8,
    #[serde(default)]
    pub dragon_in_reserve: [bool; 2],
    #[serde(default)]
    pub storm: [Option<u32>; 2],
    /// Per half (White's first): whether the piece in that half's Fortress has shot a piece outside
    /// since it entered, which ends its Fortress effect while it stays there (Version C).
    #[serde(default)]
    pub fortress_spent: [bool; 2],
    #[serde(default)]
    pub ply: u32,
    #[serde(default)]
    pub quiet_plies: u32,
    /// The 64-bit hashes of the positions since the last capture (for repetition). They may pass 2^53:
    /// a JavaScript reader gets them rounded, and no client needs them.
    #[serde(default)]
    pub history: Vec<u64>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
}

/// What one observer sees: the state with the setups it may not see removed.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export_to = "cyvasse/")]
pub struct CairdView {
    pub observer: Observer,
    /// Which seats have committed their setup.
    pub setup_committed: [bool; 2],
    pub in_check: bool,
    #[serde(flatten)]
    pub state: StateRepr,
}

/// The game state of `cyvasse-caird`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(try_from = "StateRepr", into = "StateRepr")]
pub struct CairdCyvasse {
    options: CairdOptions,
    rules: Rules,
    pos: Pos,
    phase: Phase,
    setups: [Option<SetupPlan>; 2],
    to_move: u8,
    reserve: [bool; 2],
    storm: [Option<u32>; 2],
    ply: u32,
    quiet: u32,
    history: Vec<u64>,
    outcome: Option<Outcome>,
}

/// Plies without a capture after which the game is drawn.
pub const QUIET_LIMIT: u32 = 100;

fn mix(h: u64, v: u64) -> u64 {
    (h ^ v).wrapping_mul(0x0100_0000_01b3).rotate_left(5)
}

impl CairdCyvasse {
    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The position (pieces, terrain).
    pub fn pos(&self) -> &Pos {
        &self.pos
    }
    /// The board geometry.
    pub fn geo(&self) -> &'static geo::Geo {
        self.rules.geo
    }
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The seat to move (play phase).
    pub fn to_move(&self) -> Seat {
        Seat(self.to_move)
    }
    /// Plies played since the setup.
    pub fn ply(&self) -> u32 {
        self.ply
    }
    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }
    /// Whether `seat`'s Dragon is still in reserve.
    pub fn dragon_in_reserve(&self, seat: Seat) -> bool {
        self.reserve.get(seat.index()).copied().unwrap_or(false)
    }
    /// The cell named `name`.
    pub fn cell(&self, name: &str) -> Option<u8> {
        self.rules.geo.cell(name)
    }
    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.phase == Phase::Play && self.rules.in_check(&self.pos, self.to_move)
    }

    /// A position in the play phase built directly from a board (for tests and analysis):
    /// `pieces` and `terrain` as in the JSON form. The result is validated.
    pub fn from_position(
        options: &CairdOptions,
        pieces: &str,
        terrain: Option<&str>,
        to_move: Seat,
    ) -> Result<CairdCyvasse, String> {
        let geo = Rules::new(options).geo;
        let terrain = match terrain {
            Some(t) => t.to_string(),
            None => ".".repeat(geo.n),
        };
        let repr = StateRepr {
            options: options.clone(),
            phase: Phase::Play,
            setups: [None, None],
            board: pieces.to_string(),
            terrain,
            to_move: to_move.0,
            dragon_in_reserve: [false; 2],
            storm: [None; 2],
            fortress_spent: [false; 2],
            ply: 0,
            quiet_plies: 0,
            history: Vec::new(),
            outcome: None,
        };
        let g = CairdCyvasse::try_from(repr)?;
        g.validate()?;
        Ok(g)
    }

    /// The position after both seats committed named presets ([`PRESETS`]): White `white`, Black
    /// `black`. Used for perft regressions and benchmarks.
    pub fn from_presets(
        options: &CairdOptions,
        white: &str,
        black: &str,
    ) -> Result<CairdCyvasse, String> {
        let mut g = CairdCyvasse::new(options).map_err(|e| e.to_string())?;
        for (seat, name) in [(0usize, white), (1, black)] {
            let plan = preset(options, seat, name)?;
            g.apply(Actor::Seat(Seat::new(seat)), &CairdAction::Setup(plan))
                .map_err(|e| e.to_string())?;
        }
        Ok(g)
    }

    /// A play-phase position from placements: `pieces` as `(cell, letter)` (upper case White, lower
    /// case Black) and `terrain` as `(cell, letter)` (`h f w c b`), everything else empty Grassland.
    pub fn from_placements(
        options: &CairdOptions,
        pieces: &[(&str, char)],
        terrain: &[(&str, char)],
        to_move: Seat,
    ) -> Result<CairdCyvasse, String> {
        let geo = Rules::new(options).geo;
        let mut b = vec!['.'; geo.n];
        let mut t = vec!['.'; geo.n];
        for (list, out) in [(pieces, &mut b), (terrain, &mut t)] {
            for &(name, ch) in list {
                let c = geo
                    .cell(name)
                    .ok_or_else(|| format!("“{name}” is not a cell of this board"))?;
                out[c as usize] = ch;
            }
        }
        let b: String = b.into_iter().collect();
        let t: String = t.into_iter().collect();
        CairdCyvasse::from_position(options, &b, Some(&t), to_move)
    }

    /// The same position with the given Dragon reserve flags (tests of `dragon_reserve`).
    pub fn with_reserve(mut self, reserve: [bool; 2]) -> Result<CairdCyvasse, String> {
        self.reserve = reserve;
        self.history = vec![self.hash()];
        self.validate()?;
        Ok(self)
    }

    fn ruin_ready(&self, side: u8) -> bool {
        if !self.rules.castle_storming {
            return false;
        }
        match self.storm[side as usize] {
            Some(e) => {
                let f = self.pos.forts[1 - side as usize];
                self.ply >= e + 2
                    && f != NONE
                    && self.pos.board[f as usize] != 0
                    && side_of(self.pos.board[f as usize]) == side
            }
            None => false,
        }
    }

    /// The position hash used for repetition (pieces, terrain, side to move, reserve, storm readiness).
    pub fn hash(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for c in 0..self.rules.geo.n {
            h = mix(
                h,
                self.pos.board[c] as u64 | (self.pos.terrain[c] as u64) << 8 | (c as u64) << 16,
            );
        }
        h = mix(h, self.to_move as u64 | 0x1_0000_0000);
        h = mix(
            h,
            u64::from(self.reserve[0])
                | u64::from(self.reserve[1]) << 1
                | u64::from(self.ruin_ready(0)) << 2
                | u64::from(self.ruin_ready(1)) << 3
                | u64::from(self.pos.fort_spent[0]) << 4
                | u64::from(self.pos.fort_spent[1]) << 5,
        );
        h
    }

    fn legal_play(&self, side: u8, out: &mut Vec<CairdAction>) {
        self.rules.legal(
            &self.pos,
            side,
            self.reserve[side as usize],
            self.ruin_ready(side),
            out,
        );
    }

    fn has_legal(&self, side: u8) -> bool {
        self.rules.has_legal(
            &self.pos,
            side,
            self.reserve[side as usize],
            self.ruin_ready(side),
        )
    }

    /// After an action or the setup: game-ending conditions for the side to move.
    fn settle(&mut self) {
        let side = self.to_move;
        if !self.has_legal(side) {
            let other = Seat(1 - side);
            self.outcome = Some(if self.rules.in_check(&self.pos, side) {
                Outcome::winners(2, &[other], "checkmate")
            } else {
                Outcome::draw(2, "stalemate")
            });
        } else if self.quiet >= QUIET_LIMIT {
            self.outcome = Some(Outcome::draw(2, "100 plies without a capture"));
        } else if let Some(&h) = self.history.last()
            && self.history.iter().filter(|&&x| x == h).count() >= 3
        {
            self.outcome = Some(Outcome::draw(2, "threefold repetition"));
        }
    }

    fn play(&mut self, action: &CairdAction) {
        let side = self.to_move;
        let info = self.rules.make(&mut self.pos, side, action);
        if matches!(action, CairdAction::Place { .. }) {
            self.reserve[side as usize] = false;
        }
        if self.rules.castle_storming {
            if let CairdAction::Move { to, .. } = *action
                && to == self.pos.forts[1 - side as usize]
            {
                self.storm[side as usize] = Some(self.ply);
            }
            for s in 0..2 {
                if self.storm[s].is_some() {
                    let f = self.pos.forts[1 - s];
                    if f == NONE
                        || self.pos.board[f as usize] == 0
                        || side_of(self.pos.board[f as usize]) as usize != s
                    {
                        self.storm[s] = None;
                    }
                }
            }
        }
        self.ply += 1;
        if info.captured.is_some() {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        self.to_move = 1 - side;
        if info.captured.is_some()
            || info.terrain_changed
            || matches!(action, CairdAction::Place { .. })
        {
            self.history.clear();
        }
        let h = self.hash();
        self.history.push(h);
        if info.captured == Some(KING) {
            self.outcome = Some(Outcome::winners(2, &[Seat(side)], "King captured"));
            return;
        }
        self.settle();
    }

    fn begin_play(&mut self) {
        let geo = self.rules.geo;
        let expert = self.options.version == Version::Expert;
        let mut pos = Pos::empty();
        for seat in 0..2 {
            let Some(plan) = &self.setups[seat] else {
                return;
            };
            let Ok(d) = validate_setup(&self.options, seat, plan) else {
                return;
            };
            for (i, &c) in geo.home[seat].iter().enumerate() {
                if expert {
                    pos.terrain[c as usize] = d.terrain[i];
                }
                if let Some(k) = d.pieces[i] {
                    pos.board[c as usize] = piece(k, seat as u8);
                }
            }
        }
        pos.refresh(geo);
        self.pos = pos;
        self.phase = Phase::Play;
        self.setups = [None, None];
        self.to_move = 0;
        self.reserve = [self.options.dragon_reserve; 2];
        self.history = vec![self.hash()];
        self.settle();
    }

    /// Explains why a play action is refused.
    fn refusal(&self, action: &CairdAction) -> ActionError {
        let geo = self.rules.geo;
        let side = self.to_move;
        let bad_cell = |c: u8| (c as usize) >= geo.n;
        let own = |c: u8| {
            let p = self.pos.board[c as usize];
            p != 0 && side_of(p) == side && kind_of(p) != MOUNTAIN
        };
        let mut pseudo = Vec::new();
        self.rules.pseudo(
            &self.pos,
            side,
            self.reserve[side as usize],
            self.ruin_ready(side),
            &mut pseudo,
        );
        let text = self.action_notation(action);
        let msg = match *action {
            CairdAction::Setup(_) => "the setup is over".to_string(),
            CairdAction::Move { from, to } | CairdAction::Shot { from, to }
                if bad_cell(from) || bad_cell(to) =>
            {
                format!("cell index out of range (the board has {} cells)", geo.n)
            }
            CairdAction::Place { to } | CairdAction::Ruin { at: to } if bad_cell(to) => {
                format!("cell index out of range (the board has {} cells)", geo.n)
            }
            CairdAction::Move { from, .. } | CairdAction::Shot { from, .. } if !own(from) => {
                format!("there is no movable piece of yours on {}", geo.name(from))
            }
            CairdAction::Place { .. } if !self.reserve[side as usize] => {
                "you have no Dragon in reserve".to_string()
            }
            CairdAction::Place { to } if geo.home_of[to as usize] != side as i8 => {
                format!(
                    "{} is not in your half: the reserve Dragon is placed in your home zone",
                    geo.name(to)
                )
            }
            CairdAction::Ruin { .. } if !self.rules.castle_storming => {
                "ruining a Fortress is not part of these rules (castle storming is off)".to_string()
            }
            CairdAction::Ruin { .. } if !self.ruin_ready(side) => {
                "you may ruin the enemy Fortress only with a piece that entered it and survived the enemy's next turn".to_string()
            }
            _ if pseudo.contains(action) => why::check_words(&self.rules, &self.pos, side, action),
            CairdAction::Move { from, to } => self.rules.why_not_move(&self.pos, from, to),
            CairdAction::Shot { from, to } => self.rules.why_not_shot(&self.pos, from, to),
            _ => "not a legal action here".to_string(),
        };
        ActionError::Illegal(format!("{text}: {msg}"))
    }

    fn setup_samples(&self, seat: usize, out: &mut Vec<CairdAction>) {
        for listed in listed_setups(&self.options, seat).iter() {
            let a = CairdAction::Setup(listed.plan.clone());
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }

    /// The label of a listed setup plan (`preset=phalanx`, `random=2`), looked up among the setups of
    /// the seats still owing theirs first.
    fn setup_label(&self, plan: &SetupPlan) -> Option<String> {
        let owing: Vec<usize> = self.to_act().seats().iter().map(|s| s.index()).collect();
        owing.iter().chain(&[0, 1]).find_map(|&seat| {
            listed_setups(&self.options, seat)
                .iter()
                .find(|l| l.plan == *plan)
                .map(|l| l.label.clone())
        })
    }

    fn repr(&self) -> StateRepr {
        let geo = self.rules.geo;
        let row_text = |f: &dyn Fn(usize) -> char| {
            geo.rows
                .iter()
                .map(|r| r.iter().map(|&c| f(c as usize)).collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        };
        let board = row_text(&|c| piece_char(self.pos.board[c]));
        let terrain = row_text(&|c| TERRAIN_LETTERS[self.pos.terrain[c] as usize]);
        StateRepr {
            options: self.options.clone(),
            phase: self.phase,
            setups: self.setups.clone(),
            board,
            terrain,
            to_move: self.to_move,
            dragon_in_reserve: self.reserve,
            storm: self.storm,
            fortress_spent: self.pos.fort_spent,
            ply: self.ply,
            quiet_plies: self.quiet,
            history: self.history.clone(),
            outcome: self.outcome.clone(),
        }
    }
}

/// The board character of a piece code.
pub fn piece_char(p: u8) -> char {
    if p == 0 {
        '.'
    } else {
        let l = LETTERS[kind_of(p) as usize];
        if side_of(p) == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }
}

impl From<CairdCyvasse> for StateRepr {
    fn from(g: CairdCyvasse) -> StateRepr {
        g.repr()
    }
}

impl TryFrom<StateRepr> for CairdCyvasse {
    type Error = String;
    fn try_from(r: StateRepr) -> Result<CairdCyvasse, String> {
        r.options.validate().map_err(|e| e.to_string())?;
        let rules = Rules::new(&r.options);
        let geo = rules.geo;
        let cells = |s: &str| -> Vec<char> {
            s.chars()
                .filter(|c| *c != '/' && !c.is_whitespace())
                .collect()
        };
        let b = cells(&r.board);
        let t = cells(&r.terrain);
        if b.len() != geo.n {
            return Err(format!(
                "board has {} cells; this board has {}",
                b.len(),
                geo.n
            ));
        }
        if t.len() != geo.n {
            return Err(format!(
                "terrain has {} cells; this board has {}",
                t.len(),
                geo.n
            ));
        }
        let mut pos = Pos::empty();
        for c in 0..geo.n {
            let ch = b[c];
            if ch != '.' {
                let up = ch.to_ascii_uppercase();
                let k = LETTERS.iter().position(|l| *l == up).ok_or_else(|| {
                    format!("unknown piece letter “{ch}” on {}", geo.name(c as u8))
                })?;
                let side = if ch.is_ascii_uppercase() { 0 } else { 1 };
                pos.board[c] = piece(k as u8, side);
            }
            let tc = if t[c] == 'g' { '.' } else { t[c] };
            pos.terrain[c] = TERRAIN_LETTERS
                .iter()
                .position(|l| *l == tc)
                .ok_or_else(|| {
                    format!("unknown terrain letter “{}” on {}", t[c], geo.name(c as u8))
                })? as u8;
        }
        pos.refresh(geo);
        pos.fort_spent = r.fortress_spent;
        if r.to_move > 1 {
            return Err(format!("to_move is {}; seats are 0 and 1", r.to_move));
        }
        let mut g = CairdCyvasse {
            options: r.options,
            rules,
            pos,
            phase: r.phase,
            setups: r.setups,
            to_move: r.to_move,
            reserve: r.dragon_in_reserve,
            storm: r.storm,
            ply: r.ply,
            quiet: r.quiet_plies,
            history: r.history,
            outcome: r.outcome,
        };
        if g.history.is_empty() && g.phase == Phase::Play {
            g.history.push(g.hash());
        }
        Ok(g)
    }
}

impl Game for CairdCyvasse {
    type Options = CairdOptions;
    type Action = CairdAction;
    type View = CairdView;

    const ID: &'static str = "cyvasse-caird";
    const NAME: &'static str = "Cyvasse (Caird's rules)";
    const DESCRIPTION: &'static str = "Set up your army in secret, then play it on a \
        chessboard among Mountains: each piece may take only certain others, and checkmate wins. The \
        Expert version adds hills, forests, water and a Fortress; a hex board is there too.";

    fn new(options: &CairdOptions) -> Result<Self, OptionsError> {
        options.validate()?;
        let rules = Rules::new(options);
        Ok(CairdCyvasse {
            options: options.clone(),
            rules,
            pos: Pos::empty(),
            phase: Phase::Setup,
            setups: [None, None],
            to_move: 0,
            reserve: [false; 2],
            storm: [None; 2],
            ply: 0,
            quiet: 0,
            history: Vec::new(),
            outcome: None,
        })
    }

    /// Each piece's words in the standard game (`"Trebuchet"`) and under each option set that changes
    /// it (`"Trebuchet|version=expert"`); see [`legend`].
    fn piece_legend() -> Vec<(String, String)> {
        legend::piece_legend()
    }

    fn options(&self) -> &CairdOptions {
        &self.options
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat.0 {
            0 => "White".to_string(),
            1 => "Black".to_string(),
            n => format!("Seat {n}"),
        }
    }

    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        match self.phase {
            Phase::Setup => ToAct::Seats(
                (0..2)
                    .filter(|&s| self.setups[s].is_none())
                    .map(Seat::new)
                    .collect(),
            ),
            Phase::Play => ToAct::Seat(Seat(self.to_move)),
        }
    }

    /// During the hidden setup the listed setups are a sample (the presets and random legal setups);
    /// `apply` accepts every setup that passes [`validate_setup`].
    fn actions_sampled(&self, seat: Seat) -> bool {
        self.outcome.is_none()
            && self.phase == Phase::Setup
            && seat.index() < 2
            && self.setups[seat.index()].is_none()
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<CairdAction>) {
        if self.outcome.is_some() || seat.index() > 1 {
            return;
        }
        match self.phase {
            Phase::Setup => {
                if self.setups[seat.index()].is_none() {
                    self.setup_samples(seat.index(), out);
                }
            }
            Phase::Play => {
                if seat.0 == self.to_move {
                    self.legal_play(seat.0, out);
                }
            }
        }
    }

    fn apply(&mut self, actor: Actor, action: &CairdAction) -> Result<(), ActionError> {
        check_actor(&self.to_act(), actor)?;
        let Actor::Seat(seat) = actor else {
            return Err(ActionError::not_your_turn(actor));
        };
        match (self.phase, action) {
            (Phase::Setup, CairdAction::Setup(plan)) => {
                let d = validate_setup(&self.options, seat.index(), plan)
                    .map_err(|e| ActionError::Illegal(format!("setup refused: {e}")))?;
                self.setups[seat.index()] = Some(d.plan(self.options.version == Version::Expert));
                if self.setups.iter().all(Option::is_some) {
                    self.begin_play();
                }
                Ok(())
            }
            (Phase::Setup, _) => Err(ActionError::Illegal(
                "during the setup each seat commits its whole setup (“setup pieces=… terrain=…”)"
                    .to_string(),
            )),
            (Phase::Play, _) => {
                let mut legal = Vec::new();
                self.legal_play(seat.0, &mut legal);
                if !legal.contains(action) {
                    return Err(self.refusal(action));
                }
                self.play(action);
                Ok(())
            }
        }
    }

    fn apply_trusted(&mut self, actor: Actor, action: &CairdAction) {
        match (self.phase, actor, action) {
            (
                Phase::Play,
                Actor::Seat(_),
                CairdAction::Move { .. }
                | CairdAction::Shot { .. }
                | CairdAction::Place { .. }
                | CairdAction::Ruin { .. },
            ) if self.outcome.is_none() => self.play(action),
            _ => {
                let r = self.apply(actor, action);
                debug_assert!(r.is_ok(), "apply_trusted got an illegal action: {r:?}");
            }
        }
    }

    fn view(&self, observer: Observer) -> CairdView {
        let mut state = self.repr();
        for s in 0..2 {
            if observer != Observer::Seat(Seat::new(s)) {
                state.setups[s] = None;
            }
        }
        CairdView {
            observer,
            setup_committed: [
                self.phase == Phase::Play || self.setups[0].is_some(),
                self.phase == Phase::Play || self.setups[1].is_some(),
            ],
            in_check: self.in_check(),
            state,
        }
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        if self.phase == Phase::Setup {
            let other = 1 - seat.index().min(1);
            if g.setups[other].is_some() {
                g.setups[other] = Some(random_setup(&self.options, other, rng));
            }
        }
        g
    }

    fn describe_action(
        &self,
        actor: Actor,
        action: &CairdAction,
        observer: Observer,
    ) -> Option<String> {
        if let CairdAction::Setup(_) = action {
            let Actor::Seat(s) = actor else { return None };
            if observer != Observer::Seat(s) {
                return None;
            }
        }
        Some(self.action_notation(action))
    }

    /// "Black sets up (hidden)" for everyone but Black, "White: Heavy Horse c2 → d3, captures
    /// Black's Spearman", "White: Crossbowman c2 shoots Black's Rabble on c5", "White places the
    /// reserve Dragon on d4", "White ruins the enemy Fortress on e9".
    fn action_words(&self, actor: Actor, action: &CairdAction, observer: Observer) -> String {
        let who = tabula_core::actor_name(self, actor);
        let geo = self.rules.geo;
        let piece = |c: u8| {
            let p = self.pos.board.get(c as usize).copied().unwrap_or(0);
            (p != 0).then(|| {
                (
                    self.seat_name(Seat(side_of(p))),
                    KIND_NAMES
                        .get(kind_of(p) as usize)
                        .copied()
                        .unwrap_or("piece"),
                )
            })
        };
        match action {
            CairdAction::Setup(plan) => {
                if self.describe_action(actor, action, observer).is_none() {
                    return format!("{who} sets up (hidden)");
                }
                match self.setup_label(plan) {
                    Some(label) => format!("{who} sets up ({label})"),
                    None => format!("{who} sets up"),
                }
            }
            CairdAction::Move { from, to } => {
                let name = piece(*from).map_or("piece", |(_, k)| k);
                let mut s = format!("{who}: {name} {} → {}", geo.name(*from), geo.name(*to));
                if let Some((side, kind)) = piece(*to) {
                    s.push_str(&format!(", captures {side}'s {kind}"));
                }
                s
            }
            CairdAction::Shot { from, to } => {
                let name = piece(*from).map_or("piece", |(_, k)| k);
                match piece(*to) {
                    Some((side, kind)) => format!(
                        "{who}: {name} {} captures {side}'s {kind} on {} without moving",
                        geo.name(*from),
                        geo.name(*to)
                    ),
                    None => format!(
                        "{who}: {name} {} strikes {}",
                        geo.name(*from),
                        geo.name(*to)
                    ),
                }
            }
            CairdAction::Place { to } => {
                format!("{who} places the reserve Dragon on {}", geo.name(*to))
            }
            CairdAction::Ruin { at } => {
                format!("{who} ruins the enemy Fortress on {}", geo.name(*at))
            }
        }
    }

    /// The cells a player clicks: the piece, then its target (a move, a capture, a shot); the cell
    /// for placing the reserve Dragon or ruining a Fortress; none for a whole setup (composed in the
    /// setup editor).
    fn action_cells(&self, action: &CairdAction) -> Vec<String> {
        let geo = self.rules.geo;
        match action {
            CairdAction::Setup(_) => Vec::new(),
            CairdAction::Move { from, to } | CairdAction::Shot { from, to } => {
                vec![geo.name(*from).to_string(), geo.name(*to).to_string()]
            }
            CairdAction::Place { to: at } | CairdAction::Ruin { at } => {
                vec![geo.name(*at).to_string()]
            }
        }
    }

    /// During play (nothing is hidden then): whose piece a lone cell holds, or the refusal of the
    /// move from the first cell to the second. Nothing during the hidden setup.
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        if self.phase != Phase::Play || seat.index() != self.to_move as usize {
            return None;
        }
        let geo = self.rules.geo;
        let parsed: Vec<u8> = cells
            .iter()
            .map(|c| geo.cell(c))
            .collect::<Option<Vec<u8>>>()?;
        match *parsed.as_slice() {
            [at] => {
                let p = self.pos.board[at as usize];
                let name = geo.name(at);
                Some(if p == 0 {
                    format!(
                        "{name} is empty: pick one of {}'s pieces",
                        self.seat_name(seat)
                    )
                } else if kind_of(p) == MOUNTAIN {
                    format!("{name} is a mountain: it never moves")
                } else if side_of(p) != self.to_move {
                    format!(
                        "That is {}'s {}",
                        self.seat_name(Seat::new(side_of(p) as usize)),
                        KIND_NAMES[kind_of(p) as usize]
                    )
                } else {
                    format!(
                        "The {} on {name} has no legal action now",
                        KIND_NAMES[kind_of(p) as usize]
                    )
                })
            }
            [from, to] => {
                let action = CairdAction::Move { from, to };
                match self.refusal(&action) {
                    // The refusal names the action's notation first; the player knows what they
                    // clicked.
                    ActionError::Illegal(m) => {
                        let text = self.action_notation(&action);
                        Some(
                            m.strip_prefix(&format!("{text}: "))
                                .unwrap_or(&m)
                                .to_string(),
                        )
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn action_notation(&self, action: &CairdAction) -> String {
        let geo = self.rules.geo;
        match action {
            CairdAction::Setup(p) => {
                // A listed setup says where it comes from (`preset=phalanx`, `random=2`).
                let label = self
                    .setup_label(p)
                    .map(|l| format!(" {l}"))
                    .unwrap_or_default();
                if p.terrain.is_empty() {
                    format!("setup{label} pieces={}", p.pieces)
                } else {
                    format!("setup{label} pieces={} terrain={}", p.pieces, p.terrain)
                }
            }
            CairdAction::Move { from, to } => {
                let capture = (*to as usize) < geo.n && self.pos.board[*to as usize] != 0;
                format!(
                    "{}{}{}",
                    geo.name(*from),
                    if capture { 'x' } else { '-' },
                    geo.name(*to)
                )
            }
            CairdAction::Shot { from, to } => format!("{}*{}", geo.name(*from), geo.name(*to)),
            CairdAction::Place { to } => format!("D@{}", geo.name(*to)),
            CairdAction::Ruin { at } => format!("ruin {}", geo.name(*at)),
        }
    }

    fn parse_action(&self, text: &str) -> Result<CairdAction, ActionError> {
        let geo = self.rules.geo;
        let text = text.trim();
        let cell = |s: &str| {
            geo.cell(&s.trim().to_ascii_lowercase())
                .ok_or_else(|| ActionError::Malformed(format!("“{s}” is not a cell of this board")))
        };
        if let Some(rest) = text.strip_prefix("setup") {
            let mut plan = SetupPlan {
                terrain: String::new(),
                pieces: String::new(),
            };
            let mut preset_name = None;
            let mut random = None;
            let mut seat = None;
            for tok in rest.split_whitespace() {
                match tok.split_once('=') {
                    Some(("pieces", v)) => plan.pieces = v.to_string(),
                    Some(("terrain", v)) => plan.terrain = v.to_string(),
                    Some(("preset", v)) => preset_name = Some(v.to_string()),
                    Some(("random", v)) => random = Some(v.to_string()),
                    Some(("seat", v)) => {
                        seat = Some(match v {
                            "0" | "white" | "White" => 0,
                            "1" | "black" | "Black" => 1,
                            _ => {
                                return Err(ActionError::Malformed(format!(
                                    "seat={v}: write seat=white or seat=black"
                                )));
                            }
                        })
                    }
                    _ => {
                        return Err(ActionError::Malformed(format!(
                            "setup takes pieces=… terrain=…, preset=<{}> or random=N [seat=white|black], not “{tok}”",
                            PRESETS.join("|")
                        )));
                    }
                }
            }
            let label = match (&preset_name, &random) {
                (Some(_), Some(_)) => {
                    return Err(ActionError::Malformed(
                        "a setup is either preset=… or random=…, not both".to_string(),
                    ));
                }
                (Some(name), None) => Some(format!("preset={name}")),
                (None, Some(n)) => Some(format!("random={n}")),
                (None, None) => None,
            };
            let Some(label) = label else {
                return Ok(CairdAction::Setup(plan));
            };
            if plan.pieces.is_empty() {
                // A label alone stands for that setup of the seat (by default the first seat that
                // still owes its setup).
                let seat = seat
                    .or_else(|| self.to_act().seats().first().map(|s| s.index()))
                    .unwrap_or(0);
                if let Some(name) = preset_name {
                    plan = preset(&self.options, seat, &name).map_err(ActionError::Malformed)?;
                } else {
                    plan = listed_setups(&self.options, seat)
                        .iter()
                        .find(|l| l.label == label)
                        .map(|l| l.plan.clone())
                        .ok_or_else(|| {
                            ActionError::Malformed(format!("“{label}” names no listed setup"))
                        })?;
                }
                return Ok(CairdAction::Setup(plan));
            }
            // Next to a plan, the label must say truly where it comes from.
            let seats: Vec<usize> = seat.map_or(vec![0, 1], |s| vec![s]);
            let listed = seats.iter().any(|&s| {
                listed_setups(&self.options, s)
                    .iter()
                    .any(|l| l.label == label && l.plan == plan)
            });
            if !listed {
                return Err(ActionError::Malformed(format!(
                    "this plan is not the listed setup “{label}”: leave the label out to commit a setup of your own"
                )));
            }
            return Ok(CairdAction::Setup(plan));
        }
        if let Some(rest) = text.strip_prefix("ruin") {
            return Ok(CairdAction::Ruin { at: cell(rest)? });
        }
        if let Some(rest) = text.strip_prefix("D@").or_else(|| text.strip_prefix("d@")) {
            return Ok(CairdAction::Place { to: cell(rest)? });
        }
        for (sep, shot) in [('*', true), ('x', false), ('-', false)] {
            if let Some((a, b)) = text.split_once(sep) {
                let (from, to) = (cell(a)?, cell(b)?);
                return Ok(if shot {
                    CairdAction::Shot { from, to }
                } else {
                    CairdAction::Move { from, to }
                });
            }
        }
        Err(ActionError::Malformed(format!(
            "“{text}”: write e2-e4, e2xe5, e2*e5, D@e3, ruin e8 or setup pieces=… terrain=…"
        )))
    }

    fn validate(&self) -> Result<(), String> {
        self.options.validate().map_err(|e| e.to_string())?;
        let geo = self.rules.geo;
        let expert = self.options.version == Version::Expert;
        if self.to_move > 1 {
            return Err("to_move must be 0 or 1".to_string());
        }
        match self.phase {
            Phase::Setup => {
                if (0..geo.n).any(|c| self.pos.board[c] != 0 || self.pos.terrain[c] != GRASS) {
                    return Err(
                        "during the setup the board must be empty (the plans are in “setups”)"
                            .to_string(),
                    );
                }
                if self.setups.iter().all(Option::is_some) {
                    return Err("both setups are committed: the phase must be “play”".to_string());
                }
                for s in 0..2 {
                    if let Some(p) = &self.setups[s] {
                        validate_setup(&self.options, s, p)
                            .map_err(|e| format!("setup of seat {s}: {e}"))?;
                    }
                }
                if self.outcome.is_some() || self.ply != 0 {
                    return Err("a game in the setup phase has no moves and no outcome".to_string());
                }
                return Ok(());
            }
            Phase::Play => {}
        }
        if self.setups.iter().any(Option::is_some) {
            return Err("“setups” must be empty once play has begun".to_string());
        }
        let mut counts = [[0u8; 10]; 2];
        for c in 0..geo.n {
            let p = self.pos.board[c];
            let t = self.pos.terrain[c];
            if p != 0 {
                if side_of(p) > 1 {
                    return Err(format!("bad piece code on {}", geo.name(c as u8)));
                }
                counts[side_of(p) as usize][kind_of(p) as usize] += 1;
                if t == BURNING {
                    return Err(format!(
                        "a piece stands on the burning square {}",
                        geo.name(c as u8)
                    ));
                }
                if kind_of(p) == MOUNTAIN && t == WATER {
                    return Err(format!(
                        "a Mountain stands on Water at {}",
                        geo.name(c as u8)
                    ));
                }
            }
            if !expert && t != GRASS {
                return Err(format!(
                    "Version A has no terrain, but {} is {}",
                    geo.name(c as u8),
                    TERRAIN_NAMES[t as usize]
                ));
            }
            if t == BURNING && !self.options.wildfyre {
                return Err(format!("{} burns but wildfyre is off", geo.name(c as u8)));
            }
            if geo.home_of[c] < 0 && t != GRASS {
                return Err(format!(
                    "no-man's-land cell {} carries terrain",
                    geo.name(c as u8)
                ));
            }
        }
        let [fortress_limit, ..] = setup::terrain_counts(&self.options);
        #[allow(clippy::needless_range_loop)]
        for s in 0..2 {
            let forts = geo.home[s]
                .iter()
                .filter(|&&c| self.pos.terrain[c as usize] == FORTRESS)
                .count();
            if forts > fortress_limit {
                return Err(format!(
                    "{} Fortresses in seat {s}'s half; at most 1",
                    forts
                ));
            }
            let name = if s == 0 { "White" } else { "Black" };
            // A King is missing only after it was captured (possible on the first move after the
            // hidden setup), which ends the game.
            let kings = counts[s][KING as usize];
            let captured = kings == 0
                && self
                    .outcome
                    .as_ref()
                    .is_some_and(|o| o.results.get(s) == Some(&tabula_core::SeatResult::Loss));
            if kings != 1 && !captured {
                return Err(format!("{name} has {kings} Kings; exactly 1 needed"));
            }
            for k in 1..10 {
                let mut n = counts[s][k];
                if k == DRAGON as usize && self.reserve[s] {
                    n += 1;
                }
                if n > COUNTS[k] {
                    return Err(format!(
                        "{name} has {n} {}s; at most {}",
                        KIND_NAMES[k], COUNTS[k]
                    ));
                }
            }
            if self.reserve[s] && !self.options.dragon_reserve {
                return Err("a Dragon is in reserve but dragon_reserve is off".to_string());
            }
            if let Some(e) = self.storm[s] {
                let f = self.pos.forts[1 - s];
                if !self.options.castle_storming {
                    return Err("storm is set but castle_storming is off".to_string());
                }
                if e >= self.ply.max(1)
                    || f == NONE
                    || self.pos.board[f as usize] == 0
                    || side_of(self.pos.board[f as usize]) as usize != s
                {
                    return Err(format!(
                        "storm[{s}] is set but no piece of {name} holds the enemy Fortress since an earlier ply"
                    ));
                }
            }
        }
        for h in 0..2 {
            let f = self.pos.forts[h];
            if self.pos.fort_spent[h] && (f == NONE || self.pos.board[f as usize] == 0) {
                return Err(format!(
                    "fortress_spent[{h}] is set but no piece stands in that half's Fortress"
                ));
            }
        }
        if self.quiet > self.ply {
            return Err("quiet_plies exceeds ply".to_string());
        }
        if self.history.is_empty() || self.history.len() as u32 > self.quiet + 1 {
            return Err("history must hold 1..=quiet_plies+1 position hashes".to_string());
        }
        if self.history.last() != Some(&self.hash()) {
            return Err("the last history hash is not the current position's".to_string());
        }
        if self.outcome.is_none() {
            if self.ply > 0 && self.rules.in_check(&self.pos, 1 - self.to_move) {
                return Err("the side that just moved left its King capturable".to_string());
            }
            if !self.has_legal(self.to_move) {
                return Err(
                    "the side to move has no legal action but no outcome is recorded".to_string(),
                );
            }
        }
        Ok(())
    }

    fn render_text(&self, observer: Observer) -> String {
        let geo = self.rules.geo;
        let mut pos = self.pos;
        if self.phase == Phase::Setup
            && let Observer::Seat(s) = observer
            && let Some(plan) = self.setups.get(s.index()).and_then(|p| p.as_ref())
            && let Ok(d) = validate_setup(&self.options, s.index(), plan)
        {
            for (i, &c) in geo.home[s.index()].iter().enumerate() {
                pos.terrain[c as usize] = d.terrain[i];
                if let Some(k) = d.pieces[i] {
                    pos.board[c as usize] = piece(k, s.0);
                }
            }
        }
        let mut out = String::new();
        let o = &self.options;
        out.push_str(&format!(
            "Cyvasse (Caird) — {} {}{}\n",
            if o.version == Version::Expert {
                "Expert"
            } else {
                "Basic"
            },
            match (o.board, o.large_board) {
                (BoardKind::Hex, _) => "hex",
                (_, true) => "10x10",
                _ => "8x8",
            },
            if o.dragon_reserve { " +reserve" } else { "" }
        ));
        let cell_text = |c: usize| {
            let t = match pos.terrain[c] {
                GRASS => ' ',
                FORTRESS => '+',
                BURNING => '#',
                t => TERRAIN_LETTERS[t as usize],
            };
            let p = if pos.board[c] == 0 {
                if geo.home_of[c] < 0 && self.rules.hex {
                    ':'
                } else {
                    '.'
                }
            } else {
                piece_char(pos.board[c])
            };
            format!("{p}{t}")
        };
        if self.rules.hex {
            for row in &geo.rows {
                let indent = (11 - row.len()) * 2;
                let label = geo.name(row[0]).chars().next().unwrap_or('?');
                out.push_str(&format!("{label} {}", " ".repeat(indent)));
                for &c in row {
                    out.push_str(&cell_text(c as usize));
                    out.push_str("  ");
                }
                out.push('\n');
            }
        } else {
            let w = geo.rows.len();
            for row in geo.rows.iter().rev() {
                let rank = geo.name(row[0])[1..].to_string();
                out.push_str(&format!("{rank:>2} "));
                for &c in row {
                    out.push_str(&cell_text(c as usize));
                    out.push(' ');
                }
                out.push('\n');
            }
            out.push_str("   ");
            for f in 0..w {
                out.push((b'a' + f as u8) as char);
                out.push_str("  ");
            }
            out.push('\n');
        }
        out.push_str("terrain: h Hills, f Forest, w Water, + Fortress, # burning; upper case White, lower case Black\n");
        match (&self.outcome, self.phase) {
            (Some(oc), _) => out.push_str(&format!("Game over: {}\n", oc.reason)),
            (None, Phase::Setup) => out.push_str(&format!(
                "Setup behind the screen: White {}, Black {}\n",
                if self.setups[0].is_some() {
                    "ready"
                } else {
                    "placing"
                },
                if self.setups[1].is_some() {
                    "ready"
                } else {
                    "placing"
                },
            )),
            (None, Phase::Play) => {
                out.push_str(&format!(
                    "{} to move (ply {}){}\n",
                    self.seat_name(Seat(self.to_move)),
                    self.ply,
                    if self.in_check() { " — check!" } else { "" }
                ));
                for s in 0..2 {
                    if self.reserve[s] {
                        out.push_str(&format!(
                            "{}'s Dragon is in reserve\n",
                            self.seat_name(Seat::new(s))
                        ));
                    }
                }
            }
        }
        out
    }

    fn turn_number(&self) -> u32 {
        self.ply / 2 + 1
    }
}

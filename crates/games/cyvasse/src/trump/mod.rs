//! # Cyvasse "Strength & Trump" (game id `cyvasse-trump`)
//!
//! Family 1 of `docs/rules/cyvasse.md`, implemented exactly. Type: [`TrumpCyvasse`], options
//! [`TrumpOptions`], actions [`TrumpAction`], view [`TrumpView`].
//!
//! ## Rules as implemented
//! * **Board**: a regular hexagon of 91 hexes, pointy-top, 11 rows of 6,7,8,9,10,11,10,9,8,7,6.
//!   Cells are named by row letter `a`..`k` from the far edge and position `1..n` from the left:
//!   `a1`..`a6`, `f1`..`f11`, `k1`..`k6`. The first seat (**South**, upper-case letters) homes on rows
//!   `g`–`k`, the second (**North**, lower case) on rows `a`–`e`; row `f` is no-man's-land.
//! * **Armies** (19 pieces each): Rabble ×3 (Movement 3, Strength 1), Spearman ×2 (2, 2, trumps Light
//!   Horse), Elephant ×2 (3, 4), Light Horse ×2 (3+2, 2), Heavy Horse ×2 (2+2, 3), Crossbowman ×2
//!   (1, 2, Range 2, trumps Elephant), Catapult (2, 3, Range 3, trumps Dragon), Trebuchet (0, 1,
//!   Range 3, trumps Dragon), Dragon (axis flight, 5), King (2, 2), Mountain ×2 (immovable,
//!   impassable, never captured).
//! * **Setup** (hidden, simultaneous): `to_act` is `Seats([...])` with the seats still owing their
//!   setup; each commits its whole army in one `setup` action: all 19 pieces on distinct cells of its
//!   own home rows, no other limit ([`check_setup`] gives every reason a setup is refused). A seat's
//!   view never shows the other army before both have committed; a spectator sees neither.
//! * **First move**: the side whose King is nearer row `f` (row distance) moves first; when both are
//!   equally near, `to_act` is `Chance` and a fair coin flip (`first_player`) decides.
//! * **Moving** (path-walking): a jump is a step to an adjacent hex; a unit with Movement N moves along
//!   any path of at most N jumps through **empty** hexes (own units, enemy units and Mountains stop the
//!   path) and stops on an empty hex other than its start.
//! * **Melee attack**: a non-range unit attacks by making its last jump (within its Movement) onto an
//!   enemy unit; the winner takes the defender's hex.
//! * **Combat**: attacker A beats defender D when D does not trump A and (A trumps D or A's Strength ≥
//!   D's Strength); range units defend at Strength 1. **\[decision\]** Only winning attacks are legal.
//!   So an Elephant never takes a Crossbowman (trumped), a Light Horse never attacks a Spearman, the
//!   Dragon never takes a Catapult or a Trebuchet, a Rabble (1) cannot take a King (2).
//! * **Range units** (Crossbowman, Catapult, Trebuchet) either move (never capturing by moving) or
//!   shoot: a shot takes an enemy unit at hex distance 1..Range that the shooter beats (same combat
//!   test, the shooter's own Strength), without moving. Units never block shots.
//!   **\[decision\]** A shot is blocked when a Mountain lies on the straight segment between the two hex
//!   centres, i.e. the segment passes through the interior of a Mountain hex; where the segment runs
//!   exactly along the edge between two hexes it is blocked only if both are Mountains. Touching a
//!   hex at a single corner does not block. The lines are computed exactly, in integer
//!   coordinates ([`board::line_blockers`]).
//! * **Cavalry**: a horse's turn has two legs: leg 1 of up to 3 (Light) or 2 (Heavy) jumps, then leg 2
//!   of up to 2 jumps from where leg 1 ended, each a move or an attack (two captures in a turn are
//!   possible). Each leg is one `move` action. **\[decision\]** Leg 2 may be declined with `end`; with the
//!   option `second_leg_mandatory` it is compulsory whenever the horse has a legal second leg. When the
//!   horse has no legal second leg the turn ends by itself.
//! * **Dragon**: flies any distance along one of the six hex axes, over Mountains, its own units and
//!   enemy units; it stops on any empty hex of the line or captures any enemy on the line it beats. An
//!   enemy range unit on the line cannot be flown over (it can still be captured, except a Catapult or
//!   Trebuchet, which trump the Dragon).
//! * **End**: capturing a King wins at once, also with a horse's first leg or with a shot. There is no
//!   check. A side with no legal action must `pass` (its only action). **\[decision\]** If neither side
//!   can move the game is drawn (detected when a turn ends); **\[decision\]** the game is drawn after 150
//!   turns in a row without a capture ([`QUIET_TURN_LIMIT`]).
//!
//! ## Decisions on points the rules file leaves open
//! * A "turn" for the 150-turn rule is one side's turn (a ply): a horse's two legs are one turn, a
//!   pass is a turn; a turn with a capture in either leg resets the count.
//! * A move must end on a hex different from its start (a path leaving and coming back is no move).
//! * The King's "closeness to row 6" is its row distance from row `f` (equal to the hex distance to
//!   the nearest cell of row `f`).
//! * `legal_actions` during the setup cannot list every one of the ~10^20 possible setups: it lists
//!   a fixed sample ([`listed_setups`]: the four presets, their mirror images, four random and four
//!   King-safe random setups). `apply` accepts **any** valid setup. This is the one place where the
//!   list is not exhaustive.
//! * The coin flip happens only when the Kings are equally near row `f`; its outcomes are
//!   `first_player` 0 and 1, each with probability ½.
//!
//! ## Setup helpers
//! [`random_setup`] (uniform), [`safe_random_setup`] (the King cannot be captured on the opponent's
//! first turn whatever the opponent's setup: see [`king_safe_on_move_one`]), the presets
//! [`PRESET_NAMES`] = `fortress`, `vanguard`, `phalanx`, `citadel` (functions [`fortress`],
//! [`vanguard`], [`phalanx`], [`citadel`], or [`preset`] by name; the second seat's copy is the first
//! seat's turned 180°), and the validator [`check_setup`]. [`TrumpCyvasse::determinize`] (via the
//! `Game` trait) replaces an unseen committed enemy setup by a random one.
//!
//! ## JSON state format
//! `tabula new cyvasse-trump` prints it; `tabula moves --state FILE` reads a hand-written one (every
//! field but `board` may be left out: defaults are phase `play`, South to move, no cavalry turn,
//! counters 0). Example, mid-game, North to move with a Light Horse between its legs on `f5`:
//! ```json
//! {
//!   "options": {"second_leg_mandatory": false},
//!   "phase": "play",
//!   "board": {"a3": "k", "b2": "t", "f5": "l", "e4": "M", "g6": "M",
//!             "h4": "X", "j3": "S", "k3": "K"},
//!   "to_move": 1,
//!   "cavalry": {"horse": "f5", "captured": false},
//!   "quiet_turns": 12,
//!   "turn": 40
//! }
//! ```
//! * `options`: the game options.
//! * `phase`: `setup` | `first_player` (coin flip pending) | `play` | `over`.
//! * `committed`: `[bool, bool]`, during the setup: which seats have committed (a committed army
//!   stands on its home rows; an uncommitted seat's home rows are empty).
//! * `board`: cell → piece code: `M` Mountain; `R S E L H X C T D K` (Rabble, Spearman, Elephant,
//!   Light Horse, Heavy Horse, Crossbowman, Catapult, Trebuchet, Dragon, King) upper case for South
//!   (seat 0), lower case for North (seat 1).
//! * `to_move`: seat (0 or 1) whose turn it is.
//! * `cavalry`: `null`, or the horse between its legs (`horse`: its cell; `captured`: whether leg 1
//!   captured).
//! * `quiet_turns`: turns in a row without a capture (< 150); `turn`: turns played.
//! * `outcome`: when the phase is `over`, `{"results": ["win","loss"], "reason": "..."}`.
//!
//! Loading checks the state and names what is wrong: counts per kind at most an army's, at most 4
//! Mountains, both Kings present in play, the cavalry horse a horse of the side to move, setups valid
//! and on the home rows during the setup, and so on.
//!
//! The view of an observer ([`TrumpView`]) has the same form, without the hidden army.
//!
//! ## Notation
//! * `h3-g4`: a move (also a Dragon flight or one horse leg); `h3xg4`: a melee capture (the `x` and
//!   `-` forms parse the same); `i4*f5`: a shot.
//! * `end`: a horse declines its second leg; `pass`: the side has no legal action.
//! * `first South` / `first North`: the coin flip.
//! * `setup Kk3 Xj2 Mg1 ...`: a whole army, one letter (`R S E L H X C T D K M`) and cell per piece.
//!   An army of [`listed_setups`] carries its label after `setup` (`setup preset=phalanx Kk3 …`,
//!   `mirrored-preset=…`, `random=N`, `king-safe-random=N`: [`listed_setup_labels`]), so a reader (the
//!   web client's setup buttons, a move list) can tell a preset from a random setup; read back, the
//!   label must name that army. A label alone (`setup preset=phalanx`) stands for that listed army of
//!   the first seat still owing its setup.
//!
//! JSON actions: `{"move":{"from":"h3","to":"g4"}}`, `{"shoot":{"from":"i4","to":"f5"}}`,
//! `"end_turn"`, `"pass"`, `{"first_player":1}`, `{"setup":{"k3":"king","j2":"crossbowman",...}}`.

pub mod board;
mod notation;
pub mod pieces;
pub mod setup;
mod state;

use tabula_core::{
    ActionError, Actor, Game, GameRng, Observer, OptionsError, Seat, ToAct, check_actor,
};

pub use board::Cell;
pub use pieces::Kind;
pub use setup::{
    Army, PRESET_NAMES, SetupError, check_setup, citadel, fortress, home_rows, is_home,
    king_safe_on_move_one, listed_label, listed_setup_labels, listed_setups, phalanx, preset,
    random_setup, safe_random_setup, vanguard,
};
pub use state::{
    CavalryTurn, Occupant, Phase, QUIET_TURN_LIMIT, SECOND_LEG, Targets, TrumpAction, TrumpCyvasse,
    TrumpOptions, TrumpPosition, TrumpView,
};

impl Game for TrumpCyvasse {
    type Options = TrumpOptions;
    type Action = TrumpAction;
    type View = TrumpView;

    const ID: &'static str = "cyvasse-trump";
    const NAME: &'static str = "Cyvasse (Strength & Trump)";
    const DESCRIPTION: &'static str = "Hide your army behind a screen while you set it up, then \
        march across a board of hexes: every attack is a test of strength, archers shoot past \
        Mountains, the Dragon flies, and taking the enemy King wins.";

    fn new(options: &TrumpOptions) -> Result<Self, OptionsError> {
        Ok(TrumpCyvasse::initial(options))
    }

    fn piece_legend() -> Vec<(String, String)> {
        Kind::ALL
            .into_iter()
            .map(|k| (k.name().to_string(), k.legend()))
            .collect()
    }

    fn options(&self) -> &TrumpOptions {
        &self.options
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        setup::seat_label(seat).to_string()
    }

    fn to_act(&self) -> ToAct {
        self.whose_turn()
    }

    /// During the hidden setup the listed armies are a sample (presets, their mirrors, random and
    /// King-safe random armies); `apply` accepts every army that passes [`check_setup`].
    fn actions_sampled(&self, seat: Seat) -> bool {
        self.phase == Phase::Setup && seat.index() < 2 && !self.committed[seat.index()]
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<TrumpAction>) {
        match self.phase {
            Phase::Setup => {
                if seat.index() < 2 && !self.committed[seat.index()] {
                    out.extend(
                        listed_setups(seat)
                            .iter()
                            .map(|a| TrumpAction::Setup(a.clone())),
                    );
                }
            }
            Phase::Play => {
                if seat.0 == self.to_move {
                    self.play_actions(out);
                }
            }
            Phase::FirstPlayer | Phase::Over => {}
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(TrumpAction, f64)>) {
        if self.phase == Phase::FirstPlayer {
            out.push((TrumpAction::FirstPlayer(Seat(0)), 0.5));
            out.push((TrumpAction::FirstPlayer(Seat(1)), 0.5));
        }
    }

    fn apply(&mut self, actor: Actor, action: &TrumpAction) -> Result<(), ActionError> {
        check_actor(&self.whose_turn(), actor)?;
        match (self.phase, actor, action) {
            (Phase::Setup, Actor::Seat(seat), TrumpAction::Setup(army)) => {
                check_setup(seat, army).map_err(|e| ActionError::Illegal(e.to_string()))?;
                self.exec_setup(seat, army);
                Ok(())
            }
            (Phase::Setup, _, _) => Err(ActionError::Illegal(
                "during the setup the only action is “setup” with the whole army".into(),
            )),
            (Phase::FirstPlayer, Actor::Chance, TrumpAction::FirstPlayer(seat)) => {
                if seat.index() > 1 {
                    return Err(ActionError::Illegal(format!(
                        "seat {seat} does not exist (seats are 0 and 1)"
                    )));
                }
                self.exec_first_player(*seat);
                Ok(())
            }
            (Phase::FirstPlayer, _, _) => Err(ActionError::Illegal(
                "the coin flip (first_player 0 or 1) is due".into(),
            )),
            (Phase::Play, _, _) => {
                self.check_play_action(action)?;
                self.exec_play_action(action);
                Ok(())
            }
            (Phase::Over, _, _) => Err(ActionError::GameOver),
        }
    }

    fn apply_trusted(&mut self, actor: Actor, action: &TrumpAction) {
        match (self.phase, actor, action) {
            (Phase::Play, Actor::Seat(_), _) => self.exec_play_action(action),
            (Phase::Setup, Actor::Seat(seat), TrumpAction::Setup(army)) => {
                self.exec_setup(seat, army)
            }
            (Phase::FirstPlayer, Actor::Chance, TrumpAction::FirstPlayer(seat)) => {
                self.exec_first_player(*seat)
            }
            _ => {
                let result = self.apply(actor, action);
                debug_assert!(
                    result.is_ok(),
                    "apply_trusted got an illegal action: {result:?}"
                );
            }
        }
    }

    fn view(&self, observer: Observer) -> TrumpView {
        self.view_for(observer)
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.determinized(seat, rng)
    }

    fn describe_action(
        &self,
        actor: Actor,
        action: &TrumpAction,
        observer: Observer,
    ) -> Option<String> {
        if let (TrumpAction::Setup(_), Actor::Seat(s)) = (action, actor)
            && observer != Observer::Seat(s)
        {
            return None;
        }
        Some(self.action_notation(action))
    }

    /// "South sets up (hidden)" for everyone but South, "South goes first (coin toss)", "North:
    /// Heavy Horse h3 → g4, captures South's Spearman", "South: Crossbowman i4 shoots North's
    /// Rabble on f5", "South ends the turn", "North passes".
    fn action_words(&self, actor: Actor, action: &TrumpAction, observer: Observer) -> String {
        let who = tabula_core::actor_name(self, actor);
        let unit = |cell: Cell| match self.occupant(cell) {
            Some(Occupant::Unit { seat, kind }) => Some((seat, kind)),
            _ => None,
        };
        match action {
            TrumpAction::Setup(army) => {
                if self.describe_action(actor, action, observer).is_none() {
                    return format!("{who} sets up (hidden)");
                }
                match listed_label(army) {
                    Some(label) => format!("{who} sets up ({label})"),
                    None => format!("{who} sets up"),
                }
            }
            TrumpAction::FirstPlayer(seat) => {
                format!("{} goes first (coin toss)", self.seat_name(*seat))
            }
            TrumpAction::Move { from, to } => {
                let piece = unit(*from).map_or("unit", |(_, k)| k.name());
                let mut s = format!("{who}: {piece} {from} → {to}");
                if let Some((seat, kind)) = unit(*to) {
                    s.push_str(&format!(", captures {}'s {kind}", self.seat_name(seat)));
                }
                s
            }
            TrumpAction::Shoot { from, to } => {
                let piece = unit(*from).map_or("unit", |(_, k)| k.name());
                match unit(*to) {
                    Some((seat, kind)) => format!(
                        "{who}: {piece} {from} shoots {}'s {kind} on {to}",
                        self.seat_name(seat)
                    ),
                    None => format!("{who}: {piece} {from} shoots at {to}"),
                }
            }
            TrumpAction::EndTurn => format!("{who} ends the turn"),
            TrumpAction::Pass => format!("{who} passes"),
        }
    }

    fn action_cells(&self, action: &TrumpAction) -> Vec<String> {
        notation::cells(action)
    }

    /// During play (nothing is hidden then): whose unit a lone cell holds, or the refusal of the move
    /// from the first cell to the second ("the Spearman on c3 cannot move to c6: …"). Nothing during
    /// the setup (the armies are hidden) or the coin toss.
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        if self.phase != Phase::Play || seat.index() != self.to_move as usize {
            return None;
        }
        let parsed: Vec<Cell> = cells
            .iter()
            .map(|c| Cell::parse(c).ok())
            .collect::<Option<Vec<Cell>>>()?;
        match *parsed.as_slice() {
            [at] => Some(match self.occupant(at) {
                None => format!(
                    "{at} is empty: pick one of {}'s units",
                    self.seat_name(seat)
                ),
                Some(Occupant::Mountain) => format!("{at} is a mountain: it never moves"),
                Some(Occupant::Unit { seat: s, kind }) if s != seat => {
                    format!("That is {}'s {}", self.seat_name(s), kind.name())
                }
                Some(Occupant::Unit { kind, .. }) => match self.cavalry {
                    Some(cav) if cav.horse != at => format!(
                        "The horse on {} is between its legs: only it may act (or end the turn)",
                        cav.horse
                    ),
                    _ => format!("The {} on {at} has no legal action now", kind.name()),
                },
            }),
            [from, to] => {
                // A ranged unit aimed at an enemy unit means a shot; anything else, a move.
                let shot = matches!(self.occupant(from), Some(Occupant::Unit { kind, .. }) if kind.is_ranged())
                    && matches!(self.occupant(to), Some(Occupant::Unit { seat: s, .. }) if s != seat);
                let action = if shot {
                    TrumpAction::Shoot { from, to }
                } else {
                    TrumpAction::Move { from, to }
                };
                match self.check_play_action(&action) {
                    Err(ActionError::Illegal(m)) => Some(m),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn action_notation(&self, action: &TrumpAction) -> String {
        notation::notation(self, action)
    }

    fn parse_action(&self, text: &str) -> Result<TrumpAction, ActionError> {
        notation::parse(text, self.whose_turn().seats().first().copied())
    }

    fn validate(&self) -> Result<(), String> {
        self.check()
    }

    fn render_text(&self, observer: Observer) -> String {
        notation::render(&self.view_for(observer), observer)
    }

    fn turn_number(&self) -> u32 {
        self.turn
    }
}

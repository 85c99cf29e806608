//! The state, options and actions of Syba Chess (their serde forms are the documented JSON formats).

use serde::{Deserialize, Serialize};
use tabula_core::{GameOptions, OptionSpec, OptionsError, Outcome};
use ts_rs::TS;

use crate::content::{ChipKind, Resource};

/// The game options (names as in the rules file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields, default)]
pub struct SybaOptions {
    /// Number of players, 2..=6 (default 4).
    pub players: u8,
    /// **\[decision\]** false (rules as written): units become Rested only by spending Food; true: all of
    /// a player's units are readied at the start of their turn.
    pub auto_rest: bool,
    /// **\[decision\]** 0 = no limit; otherwise the game ends when the last player of that round ends
    /// their turn, and the players owning the most cities win together.
    pub max_rounds: u16,
    /// **\[decision\]** Trade proposals a player may open per turn (the guide sets no limit; a limit keeps
    /// every turn finite).
    pub trades_per_turn: u8,
}

impl Default for SybaOptions {
    fn default() -> Self {
        SybaOptions {
            players: 4,
            auto_rest: false,
            max_rounds: 60,
            trades_per_turn: 3,
        }
    }
}

impl GameOptions for SybaOptions {
    fn schema() -> Vec<OptionSpec> {
        vec![
            OptionSpec::int("players", 2, 6, 4, "number of players"),
            OptionSpec::bool(
                "auto_rest",
                false,
                "ready all of a player's units at the start of their turn (rules as written: only Food rests units)",
            ),
            OptionSpec::int(
                "max_rounds",
                0,
                1000,
                60,
                "after this many rounds the players owning the most cities win together (0 = no limit)",
            ),
            OptionSpec::int(
                "trades_per_turn",
                0,
                20,
                3,
                "trade proposals a player may open per turn",
            ),
        ]
    }
    fn validate(&self) -> Result<(), OptionsError> {
        let bad = |option: &str, value: String, valid: &str| OptionsError::BadValue {
            option: option.into(),
            value,
            valid: valid.into(),
        };
        if !(2..=6).contains(&self.players) {
            return Err(bad("players", self.players.to_string(), "2..=6"));
        }
        if self.max_rounds > 1000 {
            return Err(bad("max_rounds", self.max_rounds.to_string(), "0..=1000"));
        }
        if self.trades_per_turn > 20 {
            return Err(bad(
                "trades_per_turn",
                self.trades_per_turn.to_string(),
                "0..=20",
            ));
        }
        Ok(())
    }
}

impl SybaOptions {
    /// Checks the options against an edition: every player needs a race of their own and a
    /// starting city of their own, so an edition with fewer races or cities than `players` cannot
    /// seat them (the setup would stall). The error is a bad value of `players` naming the limit.
    pub fn validate_for(&self, c: &crate::content::Content) -> Result<(), OptionsError> {
        self.validate()?;
        let max = c.max_players();
        if usize::from(self.players) > max {
            return Err(OptionsError::BadValue {
                option: "players".into(),
                value: self.players.to_string(),
                valid: format!(
                    "2..={max} (the edition `{}` has {} races and {} cities; each player needs a \
                     race and a starting city of their own)",
                    c.edition,
                    c.races.len(),
                    c.cities.len()
                ),
            });
        }
        Ok(())
    }
}

/// The longest note (in characters) a trade proposal may carry.
pub const TRADE_NOTE_MAX: usize = 200;

/// Checks a trade note: at most [`TRADE_NOTE_MAX`] characters, no control characters (line
/// breaks, tabs), no leading or trailing whitespace (so that its notation, `note <text>`, reads back
/// the same text).
pub fn check_trade_note(note: &str) -> Result<(), String> {
    let n = note.chars().count();
    if n > TRADE_NOTE_MAX {
        return Err(format!(
            "a trade note is at most {TRADE_NOTE_MAX} characters (this one has {n})"
        ));
    }
    if note.chars().any(char::is_control) {
        return Err("a trade note may not contain control characters (line breaks, tabs)".into());
    }
    if note.trim() != note {
        return Err("a trade note may not begin or end with whitespace".into());
    }
    Ok(())
}

/// What a unit is: a chip, or a hero card (index into the heroes file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    Soldier,
    Knight,
    Monster,
    Hero(u8),
}

impl UnitKind {
    pub fn chip(self) -> Option<ChipKind> {
        match self {
            UnitKind::Soldier => Some(ChipKind::Soldier),
            UnitKind::Knight => Some(ChipKind::Knight),
            UnitKind::Monster => Some(ChipKind::Monster),
            UnitKind::Hero(_) => None,
        }
    }
    pub fn from_chip(c: ChipKind) -> UnitKind {
        match c {
            ChipKind::Soldier => UnitKind::Soldier,
            ChipKind::Knight => UnitKind::Knight,
            ChipKind::Monster => UnitKind::Monster,
        }
    }
}

/// A unit on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub id: u32,
    pub owner: u8,
    pub kind: UnitKind,
    pub area: u8,
    pub exhausted: bool,
    /// Bought (or placed by an effect) this turn: cannot move or be exhausted.
    #[serde(default)]
    pub fresh: bool,
    /// Moves made this turn.
    #[serde(default)]
    pub moves_used: u8,
    /// Moves gained this turn by exhausting the unit.
    #[serde(default)]
    pub exhaust_moves: u8,
    /// Times exhausted this turn.
    #[serde(default)]
    pub exhausts_used: u8,
    /// Extra exhausts bought with Food this turn.
    #[serde(default)]
    pub extra_exhausts: u8,
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Player {
    pub race: Option<u8>,
    pub start_city: Option<u8>,
    /// `[production, food, research]`, each 0..=40.
    pub resources: [u8; 3],
    /// The starting city's Once per Game action is still usable.
    pub once_available: bool,
    /// Extra moves for every unit this turn (Food 6, spells).
    #[serde(default)]
    pub extra_moves: u8,
    /// Extra Power for every unit this turn (Food 10, spells).
    #[serde(default)]
    pub power_bonus: u8,
    /// Trade proposals opened this turn.
    #[serde(default)]
    pub trades: u8,
}

/// Where a research card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum CardState {
    Pile,
    /// A building on this city.
    Building(u8),
    /// An upgrade on this player's army card.
    Upgrade(u8),
    Destroyed,
}

/// Where a hero card is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum HeroState {
    Pile,
    /// On the board as a unit.
    InPlay,
    Destroyed,
}

/// The phase of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Chance picks the starting player.
    StartingPlayer,
    /// Setup step 1, in turn order.
    Race,
    /// Setup step 2, in turn order (step 3, Start With, is then executed at once).
    City,
    Play,
    Over,
}

/// What an attack is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// All units of `owner` in `area`.
    Army { owner: u8, area: u8 },
    /// A city (owned or not).
    City(u8),
}

/// What an effect is aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EffectTarget {
    None,
    City(u8),
    Unit(u32),
    Army { owner: u8, area: u8 },
    Player(u8),
}

/// A side in a battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Attack,
    Defence,
}

/// One thing that can be traded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeItem {
    /// One more of a resource.
    Resource(Resource),
    Unit(u32),
    City(u8),
}

/// One side of a trade.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    pub resources: [u8; 3],
    pub units: Vec<u32>,
    pub cities: Vec<u8>,
}

impl Bundle {
    pub fn is_empty(&self) -> bool {
        self.resources == [0; 3] && self.units.is_empty() && self.cities.is_empty()
    }
}

/// An attack waiting for helpers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Battle {
    pub attacker: u8,
    pub target: Target,
    /// Every unit attacking (the attacker's and the helpers'), exhausted.
    pub attackers: Vec<u32>,
    /// Armies `(owner, area)` committed to the defence by helpers.
    pub defenders: Vec<(u8, u8)>,
    /// Seats still to decide, in order; the first decides now.
    pub queue: Vec<u8>,
    /// For an interception: the entering army (the units that moved in together), the only units of
    /// the target army that are attacked; the target owner's other units in that area are another
    /// army, in the battle only when committed to the defence (`help-defend` of that area). Empty
    /// for an ordinary attack (the whole army).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entering: Vec<u32>,
    /// `defence` once the deciding seat has committed an army to the defence (it may add more armies,
    /// then passes); null otherwise. (`attack` is never set: a helper of the attack decides once, and
    /// `validate()` refuses it.)
    pub side: Option<Side>,
}

/// What a unit selection is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum Purpose {
    /// Starting an attack on this target (a main action of the selecting player's turn).
    Attack(Target),
    /// Intercepting the army of `mover` that entered `area` (the interception decision below it on
    /// the stack).
    Intercept { mover: u8, area: u8 },
    /// Helping the attacker of the battle below it on the stack.
    HelpAttack,
    /// Moving the chosen units of the selecting player in `from` together, as an army, to the
    /// adjacent area `to` (a main action of the selecting player's turn). Unlike the other purposes
    /// it Exhausts only the units that need it to move (a move beyond their allowance).
    Move { from: u8, to: u8 },
}

/// A player choosing which of their units to Exhaust for an attack, an interception or to help an
/// attack (every unit that may be chosen is the player's own, able to be Exhausted now, and in Reach
/// of the target; for help: not already attacking, and for the attacker only of their other armies),
/// or which of their units in one area move together as an army (every unit there that can move).
/// The selection starts with all of them chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Selection {
    pub seat: u8,
    pub purpose: Purpose,
    /// The units chosen so far, in increasing id order.
    pub chosen: Vec<u32>,
}

/// Something that interrupts the mover's turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(rename_all = "snake_case")]
pub enum Pending {
    /// An army of `mover` entered `area`: the seats in `queue` (first decides) may attack it. `units`
    /// are the units that moved in together (the entering army, the interception's target).
    Intercept {
        mover: u8,
        area: u8,
        queue: Vec<u8>,
        #[serde(default)]
        units: Vec<u32>,
    },
    Battle(Battle),
    /// The current player is building (not yet `proposed`) or has proposed a trade with `partner`.
    Trade {
        partner: u8,
        give: Bundle,
        get: Bundle,
        proposed: bool,
        /// The proposer's non-binding promises, free text shown to every player with the proposal
        /// (no engine effect); at most [`TRADE_NOTE_MAX`] characters, see [`check_trade_note`].
        #[serde(default)]
        note: String,
    },
    /// A player chooses which units to Exhaust (always the innermost pending decision).
    Select(Selection),
}

/// The result of the last battle (public).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct BattleReport {
    pub attacker: u8,
    pub target: Target,
    pub attack: u32,
    pub defence: u32,
    pub success: bool,
    pub destroyed: u32,
    pub captured: Option<u8>,
}

/// The full state of a game of Syba Chess. Its JSON is the documented position format (see the crate
/// docs); indexes refer to the shipped content files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "syba/")]
#[serde(deny_unknown_fields)]
pub struct Syba {
    pub(crate) options: SybaOptions,
    pub(crate) phase: Phase,
    /// The starting player (turn order runs from it through the seat numbers).
    pub(crate) start: u8,
    /// Whose turn it is in play.
    pub(crate) current: u8,
    /// Setup: how many players have decided in the current step.
    pub(crate) setup_done: u8,
    /// The round in play, from 1.
    pub(crate) round: u32,
    pub(crate) players: Vec<Player>,
    pub(crate) units: Vec<Unit>,
    pub(crate) next_unit: u32,
    pub(crate) city_owner: Vec<Option<u8>>,
    pub(crate) city_destroyed: Vec<bool>,
    pub(crate) cards: Vec<CardState>,
    pub(crate) heroes: Vec<HeroState>,
    pub(crate) stack: Vec<Pending>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) last_battle: Option<BattleReport>,
}

/// One atomic decision (its serde form is the JSON action format; see the crate docs for the notation).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Chance: the starting player.
    StartingPlayer(u8),
    ChooseRace(u8),
    ChooseCity(u8),
    BuyUnit {
        kind: ChipKind,
        city: u8,
    },
    BuyHero {
        hero: u8,
        city: u8,
    },
    /// Food 1: Rest one exhausted unit.
    Rest(u32),
    /// Food 2: the unit may be Exhausted once more this turn.
    ExtraExhaust(u32),
    /// Food 6: all your units may move once more this turn.
    MoveAgain,
    /// Food 10: +1 Power to each of your units this turn.
    PowerUp,
    Research {
        card: u8,
        target: EffectTarget,
    },
    /// Move one unit to an adjacent area.
    Move {
        unit: u32,
        to: u8,
    },
    /// Move units of yours in `from` together, as an army, to the adjacent `to`: listed when at least
    /// two units there can move; a selection of the units that go starts (all of them chosen),
    /// ended by `Confirm` (at least one unit) or `Withdraw`.
    MoveArmy {
        from: u8,
        to: u8,
    },
    /// Attack `target`: with the one unit able to, at once; otherwise a selection of the units to
    /// Exhaust starts (all units in Reach chosen), ended by `Confirm` or `Withdraw`.
    Attack {
        target: Target,
    },
    /// A hero card's Exhaust action.
    HeroAction {
        unit: u32,
        target: EffectTarget,
    },
    OncePerGame(EffectTarget),
    /// Interception: attack the entering army (with the one unit in Reach at once, otherwise after
    /// a selection of the units).
    Intercept,
    /// Help the attacker (with the one unit able to at once, otherwise after a selection).
    HelpAttack,
    /// Commit your whole army in this area to the defence.
    HelpDefend(u8),
    /// Decline (interception) or finish helping.
    Pass,
    /// Selection: add a unit in Reach to the units to Exhaust.
    Choose(u32),
    /// Selection: take a chosen unit out again (it stays Rested).
    HoldBack(u32),
    /// Selection: Exhaust the chosen units (at least one) and go on.
    Confirm,
    /// Selection: call it off; the game is exactly as before the attack / interception / help was
    /// started, and the player decides again.
    Withdraw,
    TradeOpen(u8),
    /// While composing a trade: set its note of non-binding promises (free text, at most
    /// [`TRADE_NOTE_MAX`] characters; empty clears it). Not enumerable: see `actions_sampled`.
    TradeNote(String),
    TradeOffer(TradeItem),
    TradeAsk(TradeItem),
    TradePropose,
    TradeCancel,
    TradeAccept,
    TradeDecline,
    EndTurn,
}

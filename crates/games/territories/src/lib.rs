//! # Territories — the two-deck dice game
//!
//! Game id `territories`, type [`Territories`]. This crate implements `docs/rules/territories.md`
//! exactly; every **\[decision\]** of the rules file is followed. This page documents the rules as
//! implemented, the points the rules file left open and how they were settled, the JSON state format
//! and the action notation.
//!
//! ## Rules as implemented
//! * **Components.** The territory deck is the 40 cards `2 3 4 5 6 8 9 10 J Q` × `H S C D`
//!   ([`Card`]; J = 11, Q = 12). The bank holds 13 resource cards of each suit ([`Res`]) and is finite:
//!   a payout it cannot cover is paid as far as it goes, the roller first, then the other player;
//!   everything paid (costs, discards, lost resources) returns to it. Each player owns
//!   8 Towns, 2 Forts, 2 Barracks, 2 Temples, 1 Palace, 1 Capital ([`Piece`]); a piece is in the supply
//!   when it is not on the grid, and a building can be built only from the supply.
//! * **Deal and first player** are chance actions: [`Action::Deal`] (a shuffle, sampled, not listed)
//!   lays the first 20 cards as the 5×4 grid (cells `(0,0)…(4,3)`, row by row) and the other 20 form
//!   the face-down draw pile; then [`Action::First`] (½ each) picks Player 1.
//! * **Setup.** Player 1 places a free Town, Player 2 two free Towns (taking 1 resource per card the
//!   second touches), then Player 1 a second Town (taking 1 per card it touches). Any empty
//!   intersection is allowed (no distance rule). Player 1 then takes the first turn.
//! * **The roll** ([`Action::Roll`], the 2D6 sum, listed with probabilities `(6-|s-7|)/36`).
//!   Production for both players, roller first: Town/Fort/Barracks 1 of the card's suit per matching
//!   touched card; Palace 2; Capital (once per roll if any touched card matches) 1 of each touched
//!   card's suit plus the top card of the draw pile; Temple 1 resource of any suit per matching touched
//!   card, chosen by its owner ([`Action::TempleTake`], one choice at a time, only suits the bank still
//!   has; the roller's Temple choices come before the other player's payout).
//! * **A 7**: nobody collects; each player with more than 7 cards (resources plus territory cards;
//!   option `hand_limit_counts_territories`) discards one card at a time down to 7, roller first
//!   ([`Action::Discard`]); then the roller draws a territory card.
//! * **Main phase** (the roller, any order, as often as they can pay): [`Action::Build`] a Town on an
//!   empty intersection; [`Action::Upgrade`] a Town to Fort/Barracks/Temple/Palace or one of those to the
//!   Capital (the replaced piece returns to the supply); trade with the opponent (below); trade 4
//!   resources of one suit with the bank for 1 resource of any suit or the top territory card
//!   ([`Action::Bank`]); use an ability ([`Action::Use`]); [`Action::EndTurn`].
//! * **Trades with the opponent** are composed one card at a time: [`Action::Give`] (a resource or a
//!   specific territory card of one's hand), [`Action::AskRes`] (a resource of a suit),
//!   [`Action::AskTerritory`] (one territory card of the opponent's choice), then [`Action::Propose`] or
//!   [`Action::Withdraw`]. The first card added opens an offer, which counts towards the limit of 3 per
//!   turn (option `max_offers`) whether it is proposed or withdrawn. The opponent answers
//!   [`Action::Accept`] or [`Action::Decline`]; after accepting an offer that asks for territory cards
//!   they choose them one at a time ([`Action::HandOver`]) and then everything changes hands.
//! * **Abilities**, each at most once per turn. Survey (Capital or Fort) and Expand (Capital or Palace)
//!   need a territory card in hand: chance rolls 1D6 ([`Action::Die`]); holding fewer resources than the
//!   roll loses them all (to the bank) and ends the ability; otherwise the player pays that many, one
//!   at a time and of their choice ([`Action::Pay`]), then Survey replaces any grid card with a card from
//!   hand, the removed card going under the draw pile ([`Action::Survey`]), and Expand adds a card from
//!   hand on an empty cell sharing a full edge with the grid ([`Action::Expand`]). Raid (Capital or
//!   Barracks) and Convert (Capital or Temple) cost S H D C paid at once; chance rolls both dice
//!   ([`Action::Duel`], 36 outcomes); if the user's die is strictly higher, Raid destroys an opponent
//!   Town of the user's choice ([`Action::Raze`]) and Convert replaces an opponent building touching a
//!   card that one of the user's Capital or Temples touches by the user's own piece of the same type or
//!   a lower tier (Capital > Fort/Barracks/Temple/Palace > Town), from the supply ([`Action::Convert`]).
//! * **End.** 15 points wins at once (checked after every action). A player who ends two of their own
//!   turns in a row with no building loses. After 200 turns (option `max_turns`; both players' turns
//!   counted together, setup excluded) more points wins and equal points draw.
//! * **Hidden information.** A seat sees its own hand and the counts of the other hand; nobody sees the
//!   draw pile's order or contents (only its size). Grid, buildings, bank, offers and dice are public.
//!   A seat's legal actions depend only on what it sees (decision 11 below).
//!
//! ## The rules file's \[decision\]s, all followed
//! 1. The bank is finite, paid as far as it goes, roller first ([`Territories`] `bank`; production).
//! 2. No distance or connection rule for Towns (setup and [`Action::Build`] list every empty
//!    intersection).
//! 3. A Capital collects its grant once per roll however many of its cards match.
//! 4. The hand limit after a 7 counts resource plus territory cards (option
//!    `hand_limit_counts_territories`, default `true`; `false` counts resource cards only).
//! 5. At most three trade offers per turn (option `max_offers`, default 3).
//! 6. Bank trades take four resources of one suit.
//! 7. Each ability at most once per turn.
//! 8. The card removed by Survey goes under the draw pile.
//! 9. Drawing from an empty draw pile gives nothing.
//! 10. After 200 turns (option `max_turns`, default 200) more points wins, equal points draw.
//! 11. A seat's legal actions depend only on what that seat can see: a trade offer may ask for a
//!     resource of any suit while fewer are asked than the opponent holds resource cards in all, and
//!     for territory cards (unnamed) while fewer are asked than the opponent holds; an offer the
//!     opponent cannot fulfil can only be declined ([`Action::Decline`]). Every other action is
//!     listed from the seat's own hand and supply and the public board, bank, pile size and dice.
//!
//! ## Options
//! The rules file names no options; the readings a player might want otherwise are behind these
//! ([`TerritoriesOptions`]): `max_turns` (2..=2000, default 200), `max_offers` (0..=10, default 3),
//! `hand_limit_counts_territories` (default true). Unknown names and out-of-range values are errors
//! that list the valid ones.
//!
//! ## Points the rules file left open, and how they were decided
//! * Trades are composed card by card (so the set of legal actions is finite and exact); asked-for
//!   territory cards are asked by number and chosen by the giver, since the asker cannot see them. An
//!   offer asks at most as many resource cards and as many territory cards as the opponent holds
//!   (public counts), of any suits (decision 11). Records written before decision 11, when an ask
//!   had to name a suit the opponent held, replay unchanged: every ask they hold is still listed.
//!   Offers with nothing on one side are allowed (gifts and requests). While an offer is open, only
//!   offer actions are legal.
//! * A bank trade for a territory card needs a non-empty pile (nothing cannot be bought); 4-for-1 for
//!   the same suit is allowed (pointless but harmless).
//! * Raid can be used only while the opponent has a Town on the grid (there is nothing to raid
//!   otherwise), as Convert can be used only with a target and a fitting piece in the supply.
//! * A discarded territory card goes face down under the draw pile, like the card removed by Survey; a
//!   discard of a territory card is hidden from the opponent and spectators (only "a territory card" is
//!   shown), a discarded resource is public (the bank's counts show it anyway).
//! * Temple choices are made one at a time, only among suits the bank still holds; when the bank runs
//!   dry the remaining choices lapse. The roller's Temple choices happen before the other player's
//!   payout, so "roller first" also holds for Temples.
//! * With two seats, the seat chance picks as Player 1 is also the first to roll; seat 0 is named
//!   White and seat 1 Black (the colours of their chess pieces).
//! * A roll of exactly as many resources as held for Survey/Expand is paid in full (the player then
//!   holds none) and the ability goes on.
//! * The opponent's resource counts by suit are deducible from public information, so `determinize`
//!   keeps them; it re-deals only the territory cards the seat cannot see (the opponent's hand, except
//!   cards shown in an open offer, and the pile). It forgets positional knowledge such as which card
//!   went under the pile (a sound simplification: the result still depends only on the view).
//!
//! ## JSON state format
//! The state serializes as an object with the fields of [`Territories`]:
//! `options` ([`TerritoriesOptions`]), `phase` (an object tagged by `"phase"`: `deal`, `choose_first`,
//! `setup {step}`, `roll`, `temple {seat, left, next}`, `discard {seat}`, `main`, `respond`,
//! `hand_over {left}`, `ability_die {ability}`, `pay {ability, left}`, `place {ability}`,
//! `duel {ability}`, `target {ability}`, `over {outcome}`), `first`, `current` (seat numbers), `turn`,
//! `roll`, `die`, `duel` (last dice of this turn or `null`), `grid` (a list of `{"at": [x, y], "card":
//! "QH"}`: the first 20 entries are the dealt cells `(0,0) (1,0) … (4,3)` in row order, cards added by
//! Expand follow in the order they were added), `buildings` (a list of `{"at": [x, y], "owner": 0, "piece": "town"}`; `at` is an
//! intersection: intersection `(x, y)` touches cells `(x-1,y-1) (x,y-1) (x-1,y) (x,y)`), `bank`
//! (`[H, S, C, D]`), `hands` (two `{"resources": [H, S, C, D], "territories": ["2H", …]}`: a
//! [`CardSet`], written in card order, read in any order, no card twice), `pile` (top card first),
//! `offer` (`null` or `{give_res, give_cards, ask_res, ask_territories}`, `give_cards` a set too), `offers_made`, `abilities_used` (bits: Survey 1, Raid 2, Convert 4, Expand 8),
//! `bare_turns` (`[n0, n1]`). [`Territories::validate`](tabula_core::Game::validate) checks that the
//! bank and hands hold 13 of each suit, that the 40 territory cards are each exactly once in grid, pile
//! and hands, that the grid is connected, buildings stand on distinct intersections within the piece
//! counts, and that the phase agrees with the rest.
//!
//!
//! The initial state (what `tabula new territories` prints):
//! ```json
//! {"options":{"max_turns":200,"max_offers":3,"hand_limit_counts_territories":true},
//!  "phase":{"phase":"deal"},"first":0,"current":0,"turn":0,"roll":null,"die":null,"duel":null,
//!  "grid":[],"buildings":[],"bank":[13,13,13,13],
//!  "hands":[{"resources":[0,0,0,0],"territories":[]},{"resources":[0,0,0,0],"territories":[]}],
//!  "pile":[],"offer":null,"offers_made":0,"abilities_used":0,"bare_turns":[0,0]}
//! ```
//! After the deal, during setup (grid abbreviated; `examples/print_state.rs` prints it in full):
//! `"phase":{"phase":"setup","step":1}`, `"grid":[{"at":[0,0],"card":"2H"},{"at":[1,0],"card":"3H"},
//! …,{"at":[4,3],"card":"QS"}]`, `"buildings":[{"at":[1,1],"owner":0,"piece":"town"}]`,
//! `"pile":["2C","3C",…,"QD"]`.
//!
//! ## Notation
//! Points are `x,y`; resources `H S C D`; territory cards `2H … 10S JC QD`; pieces `town fort barracks
//! temple palace capital`; abilities `survey raid convert expand`.
//!
//! | action | notation |
//! |---|---|
//! | deal (chance) | `deal 2H 3S …` (40 cards: grid row by row, then the pile top first) |
//! | first player (chance) | `first 0` |
//! | 2D6 roll / 1D6 cost / duel (chance) | `roll 8`, `die 3`, `duel 5-2` (user's die first) |
//! | setup Town | `place 2,3` |
//! | Temple choice | `temple H` |
//! | discard | `discard H`, `discard QH` |
//! | build / upgrade | `build 2,3`, `upgrade 2,3 fort` |
//! | offer | `give H`, `give QH`, `ask S`, `ask territory`, `propose`, `withdraw` |
//! | answer | `accept`, `decline`, `handover QH` |
//! | bank trade | `bank D>S`, `bank D>territory` |
//! | ability | `use survey`, `pay H`, `survey 1,2 QH`, `expand 5,0 QH`, `raze 2,3`, `convert 2,3 town` |
//! | end the turn | `end` |
//!
//! `parse_action` also accepts the JSON form of an action (as in records): serde's externally tagged
//! form of [`Action`], e.g. `{"build": [2, 3]}`, `{"upgrade": [[2, 3], "fort"]}`, `{"give": {"res":
//! "H"}}`, `{"give": {"territory": "QH"}}`, `{"bank": ["D", {"res": "S"}]}`, `{"bank": ["D",
//! "territory"]}`, `{"duel": [5, 2]}`, `{"first": 0}`, `"end_turn"`, `"propose"`.

pub mod model;
pub mod notation;
pub mod options;
pub mod state;
pub mod validate;
pub mod view;

use tabula_core::rand::RngExt;
use tabula_core::{
    ActionError, Actor, Game, GameRng, Observer, OptionsError, Seat, ToAct, check_actor,
};

pub use model::{Ability, Action, BankTake, Card, CardSet, Item, Piece, Point, Res};
pub use options::TerritoriesOptions;
pub use state::{Building, Cell, Hand, Offer, Phase, Territories};
pub use view::{HandView, TerritoriesView};

use state::{DECK_CARDS, other};

const SUM_WAYS: [u8; 11] = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1];

impl Territories {
    fn check_chance(&self, action: &Action) -> Result<(), ActionError> {
        let bad = |what: &str| {
            ActionError::Illegal(format!(
                "“{}” is not a possible chance outcome here: {what}",
                notation::notation(action)
            ))
        };
        match (&self.phase, action) {
            (Phase::Deal, Action::Deal(order)) => {
                if order.len() != DECK_CARDS {
                    return Err(bad("the deal must list all 40 territory cards"));
                }
                let mut sorted = order.clone();
                sorted.sort_unstable();
                let mut deck = Card::deck();
                deck.sort_unstable();
                if *sorted != *deck {
                    return Err(bad("the deal must list each territory card exactly once"));
                }
                Ok(())
            }
            (Phase::ChooseFirst, Action::First(s)) if s.0 < 2 => Ok(()),
            (Phase::Roll, Action::Roll(n)) if (2..=12).contains(n) => Ok(()),
            (Phase::AbilityDie { .. }, Action::Die(n)) if (1..=6).contains(n) => Ok(()),
            (Phase::Duel { .. }, Action::Duel(a, b))
                if (1..=6).contains(a) && (1..=6).contains(b) =>
            {
                Ok(())
            }
            _ => Err(bad("chance must roll what the phase asks for")),
        }
    }

    /// Why `action` is not legal for `seat` now (best effort, for error messages).
    fn explain(&self, seat: Seat, action: &Action) -> String {
        let n = notation::notation(action);
        let hand = &self.hands[seat.index()];
        let reason: String = match (&self.phase, action) {
            (Phase::Main, _)
                if self.offer.is_some()
                    && !matches!(
                        action,
                        Action::Give(_)
                            | Action::AskRes(_)
                            | Action::AskTerritory
                            | Action::Propose
                            | Action::Withdraw
                    ) =>
            {
                "an offer is open: propose or withdraw it first".into()
            }
            (Phase::Main, Action::Build(p)) => {
                if !self.is_intersection(*p) {
                    format!("{},{} is not an intersection of the grid", p.0, p.1)
                } else if self.building_at(*p).is_some() {
                    format!("{},{} already has a building", p.0, p.1)
                } else if self.supply(seat, Piece::Town) == 0 {
                    "no Town left in your supply".into()
                } else {
                    "a Town costs H S C D".into()
                }
            }
            (Phase::Main, Action::Upgrade(p, piece)) => match self.building_at(*p) {
                Some(b) if b.owner == seat => {
                    if !piece.upgrades_from(b.piece) {
                        format!("a {} cannot replace a {}", piece.word(), b.piece.word())
                    } else if self.supply(seat, *piece) == 0 {
                        format!("no {} left in your supply", piece.word())
                    } else {
                        format!("you cannot pay for a {}", piece.word())
                    }
                }
                _ => format!("you have no building on {},{}", p.0, p.1),
            },
            (Phase::Main, Action::Give(_) | Action::AskRes(_) | Action::AskTerritory)
                if self.offer.is_none() && self.offers_made >= self.options.max_offers =>
            {
                format!("at most {} offers per turn", self.options.max_offers)
            }
            (Phase::Main, Action::Give(_)) => {
                "you do not hold that card (beyond what the offer already gives)".into()
            }
            (Phase::Main, Action::AskRes(_) | Action::AskTerritory) => {
                "the opponent does not hold that many".into()
            }
            (Phase::Main, Action::Propose | Action::Withdraw) => "no offer is open".into(),
            (Phase::Main, Action::Bank(pay, take)) => {
                if hand.resources[pay.index()] < 4 {
                    format!("a bank trade needs four {pay}")
                } else if *take == BankTake::Territory {
                    "the territory draw pile is empty".into()
                } else {
                    "the bank has none of that resource".into()
                }
            }
            (Phase::Main, Action::Use(a)) => {
                if self.abilities_used & a.bit() != 0 {
                    format!("{} was already used this turn", a.word())
                } else if !(self.owns(seat, Piece::Capital) || self.owns(seat, a.building())) {
                    format!(
                        "{} needs your Capital or a {}",
                        a.word(),
                        a.building().word()
                    )
                } else {
                    match a {
                        Ability::Survey | Ability::Expand => {
                            format!("{} needs a territory card in hand", a.word())
                        }
                        Ability::Raid => {
                            "Raid costs S H D C and needs an opponent Town on the grid".into()
                        }
                        Ability::Convert => "Convert costs S H D C and needs an opponent building touching a card your Capital or Temple touches, and a fitting piece in your supply".into(),
                    }
                }
            }
            (Phase::Setup { .. }, Action::Place(p)) => {
                if self.building_at(*p).is_some() {
                    format!("{},{} already has a building", p.0, p.1)
                } else {
                    format!("{},{} is not an intersection of the grid", p.0, p.1)
                }
            }
            (Phase::Temple { .. }, Action::TempleTake(r)) => format!("the bank has no {r} left"),
            (Phase::Discard { .. }, Action::Discard(Item::Territory(_)))
                if !self.options.hand_limit_counts_territories =>
            {
                "territory cards do not count towards the hand limit (option \
                 hand_limit_counts_territories is false)"
                    .into()
            }
            (Phase::Discard { .. } | Phase::HandOver { .. }, _)
            | (Phase::Pay { .. }, Action::Pay(_)) => "you do not hold that card".into(),
            (Phase::Respond, Action::Accept) => {
                "you do not hold what the offer asks for".into()
            }
            (Phase::Place { .. }, Action::Survey(cell, card) | Action::Expand(cell, card))
                if !hand.territories.contains(card) =>
            {
                format!("you do not hold {card} (cell {},{})", cell.0, cell.1)
            }
            (Phase::Place { ability }, Action::Survey(cell, _) | Action::Expand(cell, _)) => {
                match ability {
                    Ability::Survey => format!(
                        "Survey replaces a card of the grid; {},{} has none (or this is Expand)",
                        cell.0, cell.1
                    ),
                    _ => format!(
                        "Expand needs an empty cell sharing a full edge with the grid; {},{} is not \
                         one (or this is Survey)",
                        cell.0, cell.1
                    ),
                }
            }
            (Phase::Target { .. }, Action::Raze(_) | Action::Convert(..)) => {
                "not a valid target (Raid destroys an opponent Town; Convert takes an opponent \
                 building touching a card your Capital or Temple touches, as a piece of the same or a \
                 lower tier from your supply)"
                    .into()
            }
            _ => format!(
                "it does not fit the current phase: {}",
                view::phase_text(&self.phase)
            ),
        };
        format!("“{n}”: {reason}")
    }
}

impl Game for Territories {
    type Options = TerritoriesOptions;
    type Action = Action;
    type View = TerritoriesView;

    const ID: &'static str = "territories";
    const NAME: &'static str = "Territories";
    const DESCRIPTION: &'static str = "Roll the dice to gather resources from a map of \
        territory cards, build Towns and upgrade them to Forts, Temples, Palaces and a Capital, trade and raid: \
        the first to 15 points wins.";

    fn new(options: &TerritoriesOptions) -> Result<Self, OptionsError> {
        use tabula_core::GameOptions;
        options.validate()?;
        Ok(Territories::initial(options.clone()))
    }

    fn piece_legend() -> Vec<(String, String)> {
        notation::piece_legend()
    }

    fn options(&self) -> &TerritoriesOptions {
        &self.options
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat.0 {
            0 => "White".into(),
            1 => "Black".into(),
            n => format!("Seat {n}"),
        }
    }

    fn to_act(&self) -> ToAct {
        // `seat_to_act` is `None` in chance phases and once the game is over.
        match (&self.phase, self.seat_to_act()) {
            (Phase::Over { outcome }, _) => ToAct::Over(outcome.clone()),
            (_, Some(seat)) => ToAct::Seat(seat),
            (_, None) => ToAct::Chance,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.legal(seat, out);
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        match self.phase {
            Phase::ChooseFirst => {
                out.push((Action::First(Seat(0)), 0.5));
                out.push((Action::First(Seat(1)), 0.5));
            }
            Phase::Roll => {
                for (i, &w) in SUM_WAYS.iter().enumerate() {
                    out.push((Action::Roll(i as u8 + 2), w as f64 / 36.0));
                }
            }
            Phase::AbilityDie { .. } => {
                for d in 1..=6 {
                    out.push((Action::Die(d), 1.0 / 6.0));
                }
            }
            Phase::Duel { .. } => {
                for a in 1..=6 {
                    for b in 1..=6 {
                        out.push((Action::Duel(a, b), 1.0 / 36.0));
                    }
                }
            }
            _ => {}
        }
    }

    fn sample_chance(&self, rng: &mut GameRng) -> Option<Action> {
        use tabula_core::rand::seq::SliceRandom;
        match self.phase {
            Phase::Deal => {
                let mut deck = Card::deck();
                deck.shuffle(rng);
                Some(Action::Deal(deck))
            }
            Phase::ChooseFirst => Some(Action::First(Seat(rng.random_range(0..2u8)))),
            Phase::Roll => {
                let a = rng.random_range(1..=6u8);
                let b = rng.random_range(1..=6u8);
                Some(Action::Roll(a + b))
            }
            Phase::AbilityDie { .. } => Some(Action::Die(rng.random_range(1..=6u8))),
            Phase::Duel { .. } => {
                let a = rng.random_range(1..=6u8);
                let b = rng.random_range(1..=6u8);
                Some(Action::Duel(a, b))
            }
            _ => None,
        }
    }

    fn apply(&mut self, actor: Actor, action: &Action) -> Result<(), ActionError> {
        check_actor(&self.to_act(), actor)?;
        match actor {
            Actor::Chance => self.check_chance(action)?,
            Actor::Seat(seat) => {
                let mut legal = Vec::new();
                self.legal(seat, &mut legal);
                if !legal.contains(action) {
                    return Err(ActionError::Illegal(self.explain(seat, action)));
                }
            }
        }
        self.exec(action);
        Ok(())
    }

    fn apply_trusted(&mut self, _actor: Actor, action: &Action) {
        self.exec(action);
    }

    fn view(&self, observer: Observer) -> TerritoriesView {
        self.make_view(observer)
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.determinized(seat, rng)
    }

    fn describe_action(&self, actor: Actor, action: &Action, observer: Observer) -> Option<String> {
        let sees = |s: Seat| observer == Observer::Seat(s);
        match action {
            Action::Deal(order) => {
                let grid: Vec<String> = order.iter().take(20).map(|c| c.to_string()).collect();
                Some(format!(
                    "deal: grid {} ; {} cards face down",
                    grid.join(" "),
                    order.len().saturating_sub(20)
                ))
            }
            Action::Discard(Item::Territory(_)) => match actor {
                Actor::Seat(s) if sees(s) => Some(notation::notation(action)),
                _ => Some("discard a territory card".into()),
            },
            Action::HandOver(_) => match actor {
                Actor::Seat(s) if sees(s) || sees(other(s)) => Some(notation::notation(action)),
                _ => Some("hand over a territory card".into()),
            },
            _ => Some(notation::notation(action)),
        }
    }

    /// "White trades 4♥ with the bank for 1♠", "Black goes first (coin toss)", "Production roll:
    /// 8"; a discarded or handed-over territory card is named only to those [`Game::describe_action`]
    /// shows it to.
    fn action_words(&self, actor: Actor, action: &Action, observer: Observer) -> String {
        let who = tabula_core::actor_name(self, actor);
        let sees_card = match actor {
            Actor::Seat(s) => match action {
                Action::HandOver(_) => {
                    observer == Observer::Seat(s) || observer == Observer::Seat(other(s))
                }
                _ => observer == Observer::Seat(s),
            },
            Actor::Chance => false,
        };
        notation::words(action, &who, sees_card, |s| self.seat_name(s))
    }

    fn action_cells(&self, action: &Action) -> Vec<String> {
        notation::cells(action)
    }

    /// A click on a point no legal action starts from: whose building stands there, or the refusal
    /// (`Territories::explain`, which reasons from the seat's own hand and supply and the public
    /// board) of the placement, Town or upgrade that click would mean. Never about another seat's
    /// hand.
    fn explain_cells(&self, seat: Seat, cells: &[String]) -> Option<String> {
        let [cell] = cells else {
            return None;
        };
        let (x, y) = cell.split_once(',')?;
        let p: Point = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        let action = match (&self.phase, self.building_at(p)) {
            (Phase::Setup { .. }, _) => Action::Place(p),
            (Phase::Main, Some(b)) if b.owner != seat => {
                return Some(format!(
                    "That is {}'s {}",
                    self.seat_name(b.owner),
                    b.piece.word()
                ));
            }
            (Phase::Main, Some(b)) => {
                let up = Piece::ALL.into_iter().find(|u| u.upgrades_from(b.piece));
                match up {
                    Some(up) => Action::Upgrade(p, up),
                    None => {
                        return Some(format!(
                            "Your {} on {cell} is as high as a building goes",
                            b.piece.word()
                        ));
                    }
                }
            }
            _ => Action::Build(p),
        };
        let n = notation::notation(&action);
        let why = self.explain(seat, &action);
        Some(
            why.strip_prefix(&format!("“{n}”: "))
                .unwrap_or(&why)
                .to_string(),
        )
    }

    fn action_notation(&self, action: &Action) -> String {
        notation::notation(action)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        notation::parse(text)
    }

    fn validate(&self) -> Result<(), String> {
        self.check()
    }

    fn render_text(&self, observer: Observer) -> String {
        self.draw_text(observer)
    }

    fn turn_number(&self) -> u32 {
        self.turn + 1
    }
}

/// Exports the TypeScript declarations of what a client reads of Territories (its view and what it
/// holds) under `territories/`; see `tabula_core::wire`.
pub fn export_ts(cfg: &tabula_core::wire::Config) -> Result<(), tabula_core::wire::ExportError> {
    use ts_rs::TS;
    TerritoriesView::export_all(cfg)
}

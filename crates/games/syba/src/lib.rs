//! # Syba Chess 2.0
//!
//! The full multiplayer game of `docs/rules/syba.md` for 2–6 players, with this project's edition of
//! the content (map, 36 cities, 14 heroes, 26 research cards, 6 races) as JSON data embedded in the
//! binary (`data/*.json`, [`content`]) and validated at load. The game type is [`Syba`] (id `syba`),
//! options [`SybaOptions`], actions [`Action`], views [`SybaView`] (the whole state, the observer's own
//! starting city texts and each city's current City Strength). Its piece legend
//! ([`tabula_core::Game::piece_legend`]) gives each chip unit's and hero's Power and each city type's
//! City Strength, from the engine's tables and the heroes file.
//!
//! ## Options
//! | option | values | default | meaning |
//! |---|---|---|---|
//! | `players` | 2..=6 | 4 | number of players (at most the edition's races and cities: each player needs a race and a starting city of their own; more is refused as a bad value of `players`) |
//! | `auto_rest` | bool | false | **\[decision\]** false = rules as written (only Food Rests a unit); true = all of a player's units are readied at the start of their turn |
//! | `max_rounds` | 0..=1000 | 60 | **\[decision\]** when the last player of that round ends their turn, the players owning the most cities win together; 0 = no limit |
//! | `trades_per_turn` | 0..=20 | 3 | **\[decision\]** trade proposals a player may open per turn (the guide sets no limit; a limit keeps every turn finite) |
//!
//! ## The rules as implemented
//! **Seats and turn order.** Seats are numbered 0..n (shown P1..Pn); turn order runs through the seat
//! numbers from the starting player, who is drawn by a chance action (`start P<n>`), uniformly.
//!
//! **Setup** (in turn order for each step): every player chooses a race (cosmetic; names the seat), then
//! a starting city from the pile (it is theirs, face down: the view of other seats shows which city it
//! is, never its texts **\[decision\]**). When the last player has chosen, each Start With is executed in
//! turn order: gained cities first (if still in the pile), then units (placed Rested in the starting
//! city's area; they may act on the first turn), the hero (if still in the hero pile), upgrades and
//! buildings (if still in the research pile), then resources. Anything no longer available is simply
//! not received (including chips beyond the chip limits). Resources start at 0 plus what Start With
//! gave. Then the starting player's first turn begins.
//!
//! **Turn.** At the start of a turn: every unit's per-turn counters reset (moves, exhausts, "bought this
//! turn"), every player's turn bonuses (Food 6/10, spells) end, then the player's **income** is added:
//! all their cities' resources, building and upgrade income, hero income; then Golden-Hand-style tolls
//! (each other player with units in the building's area Gives); every resource is capped at **40**
//! (excess lost). With `auto_rest` the player's units are then readied. The player then takes atomic
//! actions in any order and ends with `end`:
//! * **Production**: Soldier 2 / Knight 5 / Monster 8 (Power 1/2/3; chips 12/8/5 per player
//!   **\[decision\]**); a hero still in the hero pile for 10 (Power on its card, unique). A bought unit is
//!   placed Rested on a city you own and cannot move or be exhausted this turn. No free chip, no purchase.
//! * **Food** (any number of times, also on the same unit): 1 Rest an exhausted unit; 2 one unit may
//!   be Exhausted once more this turn; 6 all your units may move once more this turn; 10 +1 Power to
//!   each of your units this turn.
//! * **Research**: buy a card still in the pile for its cost. Buildings attach to a city you own (they
//!   follow the city on capture and are Destroyed with it); upgrades sit on your army card; spells
//!   resolve and are Discarded (so they can be bought again, any number of times); the **World Spell**
//!   (40 **\[decision\]**) wins at once.
//! * **Rested / Exhausted.** A unit can be moved once and exhausted once per turn (a "turn" is any
//!   player's turn: a unit may also be exhausted once during each other player's turn, to intercept or
//!   help). Exhausting a Rested unit lets it move one additional time, attack / help an attack, or use
//!   its hero card's Exhaust action. A move beyond the unit's allowance exhausts it automatically (when
//!   it can be exhausted); moves within the allowance never exhaust.
//! * **Moving**: one unit (`move u7 heran`) to an adjacent area, or units of yours in one area
//!   together, as an army, to the same adjacent area: `army kaul heran` (listed when at least two
//!   of your units there can move) starts a **selection** of the units that go, every unit there
//!   that can move chosen at first; `pick` / `hold` as below, `confirm` (at least one unit) moves
//!   the chosen units (each uses one of its moves; a unit beyond its allowance is Exhausted by the
//!   move, so the mover may hold it back instead) and the interception round follows once for the
//!   whole army; `withdraw` calls the move off.
//! * **Reach** of an army (your units in one area): 0 + upgrades + the Reach of the heroes in it
//!   (Shiara +1). It attacks or helps against targets at area distance <= Reach. A unit is *in Reach*
//!   of a target when its army's Reach covers the target's area.
//! * **Choosing the units** (attacking, intercepting, helping the attacker; the units of an army
//!   move work the same way, except that they are moved, not Exhausted): the player Exhausts
//!   the units they choose among their units that can be Exhausted now and are in Reach of the
//!   target, from any number of areas. When exactly one unit could be chosen it is committed at once.
//!   Otherwise a public **selection** starts with every such unit chosen: `pick u7` adds one,
//!   `hold u7` takes one out (it stays Rested), `confirm` (at least one unit chosen) Exhausts the
//!   chosen units and goes on, `withdraw` calls the attack / interception / help off — the game is
//!   exactly as before it was started and the player decides again. Nothing else can happen during
//!   a selection.
//! * **Interception** **\[decision\]**: when an army enters an area by movement, each other player in
//!   turn order starting after the mover who has a unit able to be Exhausted in Reach of that area
//!   decides: `intercept` (an attack with the units they choose, with its own helping round) or
//!   `pass`. The round stops when the entering army is gone. **\[decision\]** The target is the
//!   **entering army only** (the units that moved in together); the mover's units already standing
//!   in that area are another army: they take part only if the mover commits them to the defence in
//!   the helping round (`help-defend <that area>`).
//! * **Attacking**: `attack P2@heran` (an army: all of P2's units there) or `attack city:heran` (a
//!   city owned by another player or unowned), listed when at least one of your units can be
//!   Exhausted and is in Reach of it; then the units are chosen as above.
//! * **Helping**: then every player in turn order starting after the attacker, the attacker last,
//!   decides once: `help-attack` Exhausts the units they choose (in Reach, not already attacking;
//!   their Power adds; the attacker only with their *other* armies, see below), which is their
//!   whole decision; `help-defend <area>` commits a whole army in
//!   Reach (it need not be Rested), repeated for further armies, then `pass`; or `pass`. Players with
//!   nothing they could commit are skipped. Against an interception the mover's other units in the
//!   area the army entered are such an army (`help-defend` of that area). **\[decision\]** The attacker cannot help the defence
//!   and the defending player cannot help the attack.
//! * **Battle**: attack = Power of every attacking unit (+ hero attack bonuses). Defence = the
//!   defending army's Power (against an interception: the entering army's) (+ the City Strength of
//!   the area's city if the defending player owns it), or against a city its City Strength; + the
//!   Power of the helping armies; + hero defence bonuses.
//!   City Strength = the city's level (1–5) + walls. **Attack >= defence**: every defending unit and
//!   every unit of every helping army is Destroyed, and if the city took part (it was attacked, or its
//!   owner was the defending player) the attacker captures it. Otherwise nothing happens (attackers
//!   stay Exhausted).
//! * **Hero Exhaust actions** (`ability u7 [target]`) and the starting city's **Once per Game** action
//!   (`once [target]`, only while you own your starting city; lost if it is captured or given first).
//! * **Trade** (on your turn, with consent): `trade P2` opens a proposal; `offer`/`ask` add one item
//!   at a time (one resource, a unit, a city); `propose` passes the decision to the partner, who
//!   `accept`s (both sides Give) or `decline`s; `cancel` drops it before proposing. **Non-binding
//!   promises**: while composing, `note <free text>` sets the proposal's note (replacing any earlier
//!   one; `note` alone clears it): at most 200 characters, no line breaks or other control
//!   characters, no leading or trailing spaces. Every player sees it with the proposal (views, the
//!   terminal drawing); it has no effect in the engine, and nothing makes anyone keep it.
//! * **Give**: resources move as far as the giver has them, capped at 40 for the receiver; a given
//!   unit is discarded and the receiver places their own chip of that type Exhausted in the same area
//!   (taking the hero card), or it is lost without a free chip; **\[decision\]** like every unit
//!   placed on the board (the guide's rule, whose only exception is Start With), the received unit
//!   cannot move or be exhausted in the turn it was received; a given city is captured by the
//!   receiver (and may be recaptured the same turn).
//! * **Discard / Destroy**: Destroyed heroes, buildings and cities leave the game; chips return to
//!   their owner's supply; discarded spells return to the pile.
//!
//! **Winning**, checked after every action: a player owning **15 cities**; the **last player owning a
//! city**; buying the **World Spell**; `max_rounds` (most cities, together). Heroes with a **shared
//! victory** make their owner win too when their condition holds at that moment (Aldo the Kingmaker:
//! the next player in turn order wins; The Pale Oracle: anyone wins by the World Spell; Vexis: the game
//! ends while you own 8+ cities).
//!
//! ## Points the rules file left open, and how they are decided
//! * Start With **buildings** go on the starting city. No Start With may give both cities and
//!   buildings (the loader refuses such an edition), so the starting city is the only city its owner
//!   has at that point and this is exactly the rule ("buildings on any city you own"); an edition
//!   that gave both would need a choice the engine does not offer.
//! * Units placed by effects (Conscription, Once per Game) count as bought this turn.
//! * Deosiderium's move to Threeway is not "movement": it triggers no interception.
//! * **Choosing units is a sequence of atomic actions** (the engine needs exact, listable actions:
//!   a set of units as one action would make the list exponential). The selection starts with every
//!   unit in Reach chosen, so the commonest case, attacking with everything, is `attack …` then
//!   `confirm`; when a single unit is in Reach there is no selection at all. `withdraw` exists for the
//!   voluntary starts (attack, interception, help, army move) so that a player who opened one by
//!   mistake (or to look at the numbers) loses nothing. Moving an army is the same sub-phase (the
//!   rules: units of one area "may move together as an army": the mover chooses which go); moving
//!   everything is `army …` then `confirm`.
//! * **Reach belongs to the army** (the rules: "an army can attack … at distance <= its Reach";
//!   "Shiara gives her army +1"; an army is a player's units in one area): a hero's or an upgrade's
//!   Reach serves every unit of its owner in the hero's area, whether or not the hero is itself
//!   committed, and no unit elsewhere. Units of several areas attack together when each is in its
//!   own army's Reach of the target.
//! * **Hero battle abilities** (`attack_bonus`, `defence_bonus`) count only for heroes taking part:
//!   committed to the attack (by the attacker or a helper), or in a defending army.
//! * **The attacker helps only with their other armies** (the rules: "the attacker included for
//!   their other armies"). The attacking army may span several areas (units of several areas in
//!   Reach attack together), so the attacker's *other* armies are their units in areas from which
//!   none of their units attacks. Units held back in the selection from an area that attacks stay
//!   out of the battle (Rested); the same holds for an interceptor.
//! * Food, research, buying and trading only on your own turn; interception and helping off turn.
//! * **A trade note is free text**, so it cannot be listed: while a player composes a proposal,
//!   `actions_sampled` is true for them and the legal list holds every other action (and `note`,
//!   clearing, when a note is set); `apply` accepts any valid note and refuses others with the
//!   reason. The note belongs to the proposal and goes with it (accepted, declined or cancelled);
//!   the record keeps the `note` action.
//! * `Tribute` effects (Lagaron, Extortion, Once per Game) take as much as the target has.
//! * **Map conflict**: the rules ask both that City of the Trueborn be adjacent to Faer Alorn and that
//!   no two Capital Cities be adjacent. Both are Capitals, so the worked example's adjacency wins; no
//!   other capital pair is adjacent (Stavensport is far from both).
//!
//! ## The worked example (test `worked_example_faer_alorn_eight_against_eight`)
//! Seats: P1 Human Realm (owns Faer Alorn, its starting city, with a Knight and a Soldier there), P2
//! Shadow Empire (owns Andalar's Fist, a Dread Knight there), P3 Forces of the Fey (owns City of the
//! Trueborn with two Sprites = Soldiers, and Barren Hall with two more). Andalar's Fist, Barren Hall
//! and City of the Trueborn are each adjacent to Faer Alorn.
//! 1. Fey: `hire shiara city-of-the-trueborn` (10 Production): Shiara, Power 2, gives her army +1
//!    Reach (Reach 1 at City of the Trueborn); bought, she cannot act this turn. `end`.
//! 2. Human: income 2/2/1 from Faer Alorn. `end`.
//! 3. Shadow: `move u2 faer-alorn`; interception in turn order after Shadow: Fey (Shiara's army
//!    reaches) `pass`, Human `pass`. `end`.
//! 4. Fey: income 3/1/3. `army barren-hall faer-alorn` (both Sprites start chosen), `confirm`; Human `pass` (Knight + Soldier = 3 against 2
//!    would have destroyed them), Shadow `pass`.
//! 5. Fey: `attack P1@faer-alorn`: all five Fey units are in Reach (Shiara's army at City of the
//!    Trueborn with Reach 1, the two Sprites in Faer Alorn with Reach 0) and start chosen; the Fey
//!    `hold` the two Sprites in Faer Alorn and `confirm`: two Soldiers + Shiara = 4; defence = Knight +
//!    Soldier = 3, + Faer Alorn's City Strength 5 = 8.
//! 6. Helpers after Fey: Human (the defender, no other army) is skipped; Shadow `help-attack` (its
//!    only unit in Reach, the Dread Knight 2, is committed at once: 6); Fey `help-attack` with their
//!    other army, the two Soldiers in Faer Alorn (they start chosen), and `confirm`: 8. The Fey alone bring two Soldiers +
//!    Shiara + two Soldiers = 6.
//! 7. 8 against 8: attack >= defence captures. The Human Knight and Soldier are Destroyed, Faer Alorn
//!    goes to the Fey (3 cities), and the Humans lose their Once per Game with it.
//!
//! ## JSON state format
//! The serde form of [`Syba`] (what `tabula new` prints). Indexes refer to the content files: cities,
//! heroes, cards and races by their position in `data/cities.json`, `heroes.json`, `research.json`,
//! `races.json`; areas by position in `data/map.json`.
//! ```text
//! { "options": {"players":4,"auto_rest":false,"max_rounds":60,"trades_per_turn":3},
//!   "phase": "starting_player"|"race"|"city"|"play"|"over",
//!   "start": seat, "current": seat, "setup_done": n, "round": n,
//!   "players": [{"race": i|null, "start_city": i|null, "resources": [production, food, research],
//!                "once_available": bool, "extra_moves": n, "power_bonus": n, "trades": n}],
//!   "units": [{"id": n, "owner": seat, "kind": "soldier"|"knight"|"monster"|{"hero": i}, "area": i,
//!              "exhausted": bool, "fresh": bool, "moves_used": n, "exhaust_moves": n,
//!              "exhausts_used": n, "extra_exhausts": n}],
//!   "next_unit": n,                          // every unit id is below it
//!   "city_owner": [seat|null; 36], "city_destroyed": [bool; 36],
//!   "cards": ["pile" | {"building": city} | {"upgrade": seat} | "destroyed"; one per research card],
//!   "heroes": ["pile" | "in_play" | "destroyed"; one per hero],
//!   "stack": [pending decisions, innermost last; each one of
//!     {"intercept": {"mover": seat, "area": i, "queue": [seats still to decide, first decides],
//!                    "units": [ids of the entering army, increasing]}},
//!     {"battle": {"attacker": seat, "target": {"army": {"owner", "area"}} | {"city": i},
//!                 "attackers": [unit ids], "defenders": [[seat, area], ...], "queue": [seats],
//!                 "side": null | "defence",
//!                 "entering": [unit ids]}},   // an interception's target units (left out otherwise)
//!     {"trade": {"partner": seat, "give": bundle, "get": bundle, "proposed": bool,
//!                "note": "free text, at most 200 characters (may be left out: empty)"}},
//!       // bundle = {"resources": [p, f, r], "units": [ids], "cities": [i]}
//!     {"select": {"seat": seat, "chosen": [unit ids, increasing],
//!                 "purpose": {"attack": target} | {"intercept": {"mover", "area"}} | "help_attack"
//!                            | {"move": {"from": area, "to": area}}}}],
//!   "outcome": null | {"results": [...], "reason": "..."},
//!   "last_battle": null | {"attacker", "target", "attack", "defence", "success", "destroyed", "captured"} }
//! ```
//! `validate()` rejects inconsistent states (resources above 40, unknown indexes, chips above the
//! limits, a hero on the board twice or not marked in play, buildings on destroyed cities, a pending
//! decision naming no seat, a unit selection that is not the innermost decision, does not sit on
//! what it is for — nothing below an attack selection, the same interception or a battle with its
//! seat deciding below the others — or chooses a unit twice or a unit it may not choose, …) with a
//! message naming the fault.
//!
//! ## Notation
//! Seats `P1..P6`, units `u<id>`, areas and cities by slug (lower case, `-` for spaces, apostrophes
//! dropped: `andalars-fist`, `city-of-the-trueborn`; wild areas `greywood`, `ashen-vale`…). Targets:
//! `city:<slug>`, `u<id>`, `P<n>@<area>` (an army), `P<n>` (a player), or nothing.
//! ```text
//! start P2 | race forces-of-the-fey | choose faer-alorn
//! buy soldier|knight|monster <city> | hire <hero> <city>
//! rest u7 | again u7 | march | fury                       (Food 1 / 2 / 6 / 10)
//! research <card> [target] | move u7 <area> | army <from> <to>
//! attack city:<city> | attack P2@<area>
//! ability u7 [target] | once [target]
//! intercept | help-attack | help-defend <area> | pass
//! pick u7 | hold u7 | confirm | withdraw                  (choosing the units to Exhaust / to move)
//! trade P2 | offer|ask production|food|research|u7|city:<city> | propose | cancel | accept | decline
//! note <free text, the rest of the line> | note            (the proposal's note; `note` clears it)
//! end
//! ```
//! The JSON form of an action is also accepted by `parse_action`.
//!
//! ## Content guide: writing another edition
//! Five files in `data/`, each with an `edition` field:
//! * `map.json`: `areas` (`id` slug, `name`, 3-letter `code` for the drawing, `pos` [column, row] on an
//!   odd-r offset hex grid, optional `city` name) and `links` (pairs of area ids; the map must be
//!   connected). Every city of `cities.json` must sit on exactly one area.
//! * `cities.json`: `name`, `level` (settlement/village/town/major/capital = 1..5), `resources`
//!   (`production`/`food`/`research`, summing to the level), `start_with` (`resources`, `units`
//!   [{kind, count}], `hero`, `cities`, `upgrades`, `buildings`, all names of other entries) and
//!   `once_per_game` (an effect).
//! * `heroes.json`: `cost` (must be 10, the rules' hero cost) and `heroes` with `name`, `power`,
//!   optional `reach`, `moves`, `attack_bonus`, `defence_bonus`, `income`, `exhaust` (an effect),
//!   `shared_victory` (`{"condition": "next_player_wins" | "world_spell" | "cities_at_least",
//!   "cities": n}`), `text`; every hero needs at least one of the optional abilities.
//! * `research.json`: `cards` with `name`, `cost` (5/10/20/40), `kind` (building/upgrade/spell/world),
//!   `effect`, `text`. Buildings and upgrades take a lasting effect: `income` {resources},
//!   `strength` {amount} (building), `toll` {resource, amount} (building), `reach`, `moves`
//!   {amount} (upgrade), `unit_power` {unit, amount} (upgrade). Exactly one card is of kind
//!   `world`, at cost 40, without an effect: buying it wins.
//! * Effects (spells, Once per Game, hero Exhaust actions): `gain` {resources}, `units` {kind, count}
//!   (on a city you own), `rest_all`, `extra_moves` {amount}, `power` {amount}, `destroy_unit`
//!   {max_power}, `exhaust_army`, `tribute` {resource, amount, in_reach}, `all_give` {resource,
//!   amount}, `destroy_city`, `teleport` {city} (heroes only).
//! * `races.json`: 2 to 6 races with the names of their Soldier, Knight and Monster (a game seats at
//!   most as many players as there are races and cities).
//!
//! The loader ([`content::load`]) reads every entry on its own, so that any error (an unknown field
//! or effect type, a wrong type, an effect that does nothing, an unknown name, a wrong sum) names the
//! file and the entry (for example "data/heroes.json: hero \`Shiara\` (entry 1): unknown field
//! \`speed\`, …"; for a file that is not JSON: its line and column). It also refuses editions the
//! engine cannot play as the rules stand: a hero without an ability, not exactly one World Spell or
//! a World Spell not at 40, a hero cost other than 10, a Start With giving both cities and
//! buildings, fewer than 2 races or cities, disconnected maps. `tests/content.rs` runs it on the
//! shipped files and on broken ones.
pub mod content;
mod game;
pub mod notation;
mod render;
mod rules;
pub mod state;
#[cfg(test)]
mod tests;
mod words;

pub use content::{Content, Effect};
pub use game::SybaView;
pub use rules::{CITIES_TO_WIN, RESOURCE_CAP};
pub use state::{Action, Syba, SybaOptions};

/// Exports the TypeScript declarations of what a client reads of Syba (its view, and the state and
/// options it holds) under `syba/`; see `tabula_core::wire`.
pub fn export_ts(cfg: &tabula_core::wire::Config) -> Result<(), tabula_core::wire::ExportError> {
    use ts_rs::TS;
    SybaView::export_all(cfg)
}

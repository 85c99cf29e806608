//! Rule tests, one or more per clause of `docs/rules/syba.md`, each built from an explicit position,
//! and the guide's worked example replayed action by action.

use tabula_core::{Actor, Game, Observer, Seat, SeatResult, ToAct};

use crate::content::{ChipKind, content};
use crate::state::*;

fn scenario(n: u8) -> Syba {
    let mut g = Syba::new(&SybaOptions {
        players: n,
        ..SybaOptions::default()
    })
    .unwrap();
    g.phase = Phase::Play;
    g.round = 1;
    g.start = 0;
    g.current = 0;
    for (i, p) in g.players.iter_mut().enumerate() {
        p.race = Some(i as u8);
    }
    g
}

fn city(name: &str) -> u8 {
    content().city_by_name(name).unwrap()
}

fn area(id: &str) -> u8 {
    content().area_by_id(id).unwrap()
}

fn own(g: &mut Syba, seat: u8, name: &str) {
    g.city_owner[city(name) as usize] = Some(seat);
}

fn put(g: &mut Syba, seat: u8, kind: UnitKind, at: &str) -> u32 {
    let id = g.next_unit;
    g.next_unit += 1;
    if let UnitKind::Hero(h) = kind {
        g.heroes[h as usize] = HeroState::InPlay;
    }
    g.units.push(Unit {
        id,
        owner: seat,
        kind,
        area: area(at),
        exhausted: false,
        fresh: false,
        moves_used: 0,
        exhaust_moves: 0,
        exhausts_used: 0,
        extra_exhausts: 0,
    });
    id
}

fn hero(name: &str) -> UnitKind {
    UnitKind::Hero(content().hero_by_name(name).unwrap())
}

fn act(g: &mut Syba, seat: u8, text: &str) -> Result<(), tabula_core::ActionError> {
    let a = g.parse_action(text)?;
    let before = g.clone();
    let r = g.apply(Actor::Seat(Seat(seat)), &a);
    if r.is_err() {
        assert_eq!(*g, before, "a refused action changed the state");
    }
    r
}

#[track_caller]
fn ok(g: &mut Syba, seat: u8, text: &str) {
    if let Err(e) = act(g, seat, text) {
        panic!(
            "“{text}” by P{} refused: {e}\n{}",
            seat + 1,
            g.render_text(Observer::Spectator)
        );
    }
    g.validate().unwrap();
}

/// An action that may open a unit selection, then `confirm` with every unit in Reach chosen.
#[track_caller]
fn all_in(g: &mut Syba, seat: u8, text: &str) {
    ok(g, seat, text);
    if matches!(g.stack.last(), Some(Pending::Select(s)) if s.seat == seat) {
        ok(g, seat, "confirm");
    }
}

#[track_caller]
fn refused(g: &mut Syba, seat: u8, text: &str) {
    assert!(act(g, seat, text).is_err(), "“{text}” should be refused");
}

fn unit(g: &Syba, id: u32) -> &Unit {
    g.unit(id).unwrap()
}

fn to_act(g: &Syba) -> u8 {
    match g.to_act() {
        ToAct::Seat(s) => s.0,
        other => panic!("expected a seat to act, got {other:?}"),
    }
}

// ------------------------------------------------------------------ worked example

/// The guide's worked example (Human, Shadow, Fey around Faer Alorn, ending 8 against 8), as written out
/// in the crate docs, replayed action by action with every number checked.
#[test]
fn worked_example_faer_alorn_eight_against_eight() {
    let c = content();
    let mut g = scenario(3);
    // Seats in turn order: P1 Human Realm, P2 Shadow Empire, P3 Forces of the Fey.
    g.players[0].race = c.race_by_slug("human-realm");
    g.players[1].race = c.race_by_slug("shadow-empire");
    g.players[2].race = c.race_by_slug("forces-of-the-fey");
    g.players[0].start_city = Some(city("Faer Alorn"));
    g.players[0].once_available = true;
    own(&mut g, 0, "Faer Alorn");
    own(&mut g, 1, "Andalar's Fist");
    own(&mut g, 2, "City of the Trueborn");
    own(&mut g, 2, "Barren Hall");
    let h_knight = put(&mut g, 0, UnitKind::Knight, "faer-alorn");
    let h_soldier = put(&mut g, 0, UnitKind::Soldier, "faer-alorn");
    let s_knight = put(&mut g, 1, UnitKind::Knight, "andalars-fist");
    let f_tb1 = put(&mut g, 2, UnitKind::Soldier, "city-of-the-trueborn");
    let f_tb2 = put(&mut g, 2, UnitKind::Soldier, "city-of-the-trueborn");
    let f_bh1 = put(&mut g, 2, UnitKind::Soldier, "barren-hall");
    let f_bh2 = put(&mut g, 2, UnitKind::Soldier, "barren-hall");
    // The map facts the example needs.
    for n in ["andalars-fist", "barren-hall", "city-of-the-trueborn"] {
        assert_eq!(
            c.dist(area(n), area("faer-alorn")),
            1,
            "{n} is adjacent to Faer Alorn"
        );
    }
    // It is the Fey's turn, with 10 Production.
    g.current = 2;
    g.players[2].resources = [10, 0, 0];
    g.validate().unwrap();

    // Fey turn 1: buy Shiara (10 Production) in City of the Trueborn; she is Rested and cannot act yet.
    ok(&mut g, 2, "hire shiara city-of-the-trueborn");
    assert_eq!(g.players[2].resources[0], 0);
    let shiara = g
        .units
        .iter()
        .find(|u| u.kind == hero("Shiara"))
        .unwrap()
        .id;
    assert!(unit(&g, shiara).fresh && !unit(&g, shiara).exhausted);
    assert_eq!(g.power(c, unit(&g, shiara)), 2, "Shiara has Power 2");
    assert_eq!(
        g.reach(c, 2, area("city-of-the-trueborn")),
        1,
        "Shiara gives her army +1 Reach"
    );
    assert_eq!(g.reach(c, 2, area("barren-hall")), 0, "default Reach is 0");
    ok(&mut g, 2, "end");

    // Human turn: income from Faer Alorn (2/2/1), nothing else.
    assert_eq!(to_act(&g), 0);
    assert_eq!(g.players[0].resources, [2, 2, 1]);
    ok(&mut g, 0, "end");

    // Shadow turn: the Dread Knight moves from Andalar's Fist into Faer Alorn. Interception in turn order
    // after the mover: the Fey first (Shiara's army reaches Faer Alorn), then the Humans; both pass.
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, &format!("move u{s_knight} faer-alorn"));
    assert_eq!(to_act(&g), 2, "the Fey decide first on interception");
    assert!(g.legal_actions_vec(2).contains(&Action::Intercept));
    ok(&mut g, 2, "pass");
    assert_eq!(to_act(&g), 0, "then the Humans");
    ok(&mut g, 0, "pass");
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "end");

    // Fey turn 2 (income: Trueborn 2/1/2 + Barren Hall 1/0/1).
    assert_eq!(to_act(&g), 2);
    assert_eq!(g.players[2].resources, [3, 1, 3]);
    // Two Sprites (Soldiers) move from Barren Hall into Faer Alorn; Humans then Shadow may intercept:
    // both pass (a Human interception, Knight + Soldier = 3 against 2, would have destroyed them).
    ok(&mut g, 2, "army barren-hall faer-alorn");
    assert_eq!(selection(&g).chosen, sorted(vec![f_bh1, f_bh2]));
    ok(&mut g, 2, "confirm");
    assert_eq!(to_act(&g), 0);
    ok(&mut g, 0, "pass");
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "pass");
    assert_eq!(unit(&g, f_bh1).area, area("faer-alorn"));
    assert_eq!(unit(&g, f_bh2).area, area("faer-alorn"));

    // The attack: Shiara's army (two Soldiers + Shiara) from City of the Trueborn, Reach 1, on the
    // Human army in Faer Alorn. Defence = Knight + Soldier (3) + Faer Alorn's City Strength (5) = 8.
    // "The attacker Exhausts the units that attack": all five Fey units are in Reach, so the Fey
    // choose; they hold back the two Sprites in Faer Alorn (they help later, as in the guide).
    ok(&mut g, 2, "attack P1@faer-alorn");
    let Some(Pending::Select(sel)) = g.stack.last() else {
        panic!("the attack starts a selection of the units")
    };
    let mut all = vec![shiara, f_tb1, f_tb2, f_bh1, f_bh2];
    all.sort_unstable();
    assert_eq!(sel.chosen, all, "every unit in Reach is chosen at first");
    ok(&mut g, 2, &format!("hold u{f_bh1}"));
    ok(&mut g, 2, &format!("hold u{f_bh2}"));
    ok(&mut g, 2, "confirm");
    for id in [shiara, f_tb1, f_tb2] {
        assert!(unit(&g, id).exhausted, "the attackers are Exhausted");
    }
    for id in [f_bh1, f_bh2] {
        assert!(!unit(&g, id).exhausted, "held back: still Rested");
    }
    assert_eq!(g.pending_battle_numbers(), Some((4, 8)));
    // Helpers in turn order after the attacker: the Humans (no other army: skipped), Shadow, then the Fey.
    assert_eq!(to_act(&g), 1);
    // The Dread Knight is Shadow's only unit in Reach: helping commits it at once.
    ok(&mut g, 1, "help-attack");
    assert!(unit(&g, s_knight).exhausted);
    assert_eq!(
        g.pending_battle_numbers(),
        Some((6, 8)),
        "the Dread Knight adds 2"
    );
    assert_eq!(to_act(&g), 2);
    // The Fey help their own attack with the two Sprites that entered Faer Alorn.
    ok(&mut g, 2, "help-attack");
    let Some(Pending::Select(sel)) = g.stack.last() else {
        panic!("two units may help: a selection")
    };
    let mut held = vec![f_bh1, f_bh2];
    held.sort_unstable();
    assert_eq!(sel.chosen, held);
    ok(&mut g, 2, "confirm");
    // Fey alone: two Soldiers + Shiara + two Soldiers = 1 + 1 + 2 + 1 + 1 = 6.
    let fey: u32 = [f_tb1, f_tb2, shiara, f_bh1, f_bh2]
        .iter()
        .map(|&id| g.power(c, unit(&g, id)))
        .sum();
    assert_eq!(fey, 6);
    // Nobody is left to decide: the battle resolved 8 against 8, and attack >= defence captures.
    let report = g.last_battle.clone().unwrap();
    assert_eq!((report.attack, report.defence), (8, 8));
    assert!(report.success);
    assert_eq!(report.destroyed, 2);
    assert_eq!(report.captured, Some(city("Faer Alorn")));
    assert!(g.unit(h_knight).is_none() && g.unit(h_soldier).is_none());
    assert_eq!(g.city_owner[city("Faer Alorn") as usize], Some(2));
    assert!(
        !g.players[0].once_available,
        "Once per Game is lost with the starting city"
    );
    assert_eq!(g.cities_of(2), 3);
    assert_eq!(g.cities_of(0), 0);
    assert!(g.pending().is_empty());
    assert_eq!(to_act(&g), 2);
    g.validate().unwrap();
}

trait LegalVec {
    fn legal_actions_vec(&self, seat: u8) -> Vec<Action>;
}
impl LegalVec for Syba {
    fn legal_actions_vec(&self, seat: u8) -> Vec<Action> {
        tabula_core::legal_actions_vec(self, Seat(seat))
    }
}

/// Two players each with a city (so nobody wins at once as the last city owner).
fn duel() -> Syba {
    let mut g = scenario(2);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    g
}

// ------------------------------------------------------------------ resources and income

#[test]
fn income_adds_what_all_your_cities_provide() {
    // Rule: "Income: at the start of your turn add what all your cities provide."
    let mut g = duel();
    own(&mut g, 1, "Faer Alorn"); // 2/2/1
    own(&mut g, 1, "Sae"); // 0/0/1
    ok(&mut g, 0, "end");
    // Iras 2/1/0 + Faer Alorn 2/2/1 + Sae 0/0/1.
    assert_eq!(g.players[1].resources, [4, 3, 2]);
}

#[test]
fn resources_never_exceed_forty_excess_lost_at_income() {
    // Rule: "Nobody ever holds more than 40 of one resource; any excess is lost."
    let mut g = duel();
    g.players[1].resources = [39, 40, 0];
    ok(&mut g, 0, "end");
    assert_eq!(g.players[1].resources, [40, 40, 0]);
}

// ------------------------------------------------------------------ setup

#[test]
fn setup_in_turn_order_race_city_then_start_with() {
    // Rule: setup steps in turn order from the starting player (a chance action); Start With gives
    // cities first, then units (Rested, may act on the first turn), then upgrades and buildings.
    let c = content();
    let mut g = Syba::new(&SybaOptions {
        players: 2,
        ..SybaOptions::default()
    })
    .unwrap();
    assert_eq!(g.to_act(), ToAct::Chance);
    g.apply(Actor::Chance, &Action::StartingPlayer(1)).unwrap();
    assert_eq!(to_act(&g), 1, "the starting player chooses first");
    ok(&mut g, 1, "race draconic-might");
    refused(&mut g, 0, "race draconic-might");
    ok(&mut g, 0, "race human-realm");
    assert_eq!(to_act(&g), 1);
    // Sjochedal: Start With 4/2/2, four Soldiers and the upgrade Forced March.
    ok(&mut g, 1, "choose sjochedal");
    refused(&mut g, 0, "choose sjochedal");
    // Iras: Start With 3/1/0, two Soldiers and the city Sjochedal (no longer available: not received).
    ok(&mut g, 0, "choose iras");
    assert_eq!(g.phase, Phase::Play);
    assert_eq!(g.city_owner[city("Sjochedal") as usize], Some(1));
    assert_eq!(g.cities_of(0), 1);
    assert_eq!(g.chips_used(1, ChipKind::Soldier), 4);
    let forced = c.card_by_name("Forced March").unwrap();
    assert_eq!(g.cards[forced as usize], CardState::Upgrade(1));
    // Seat 1 starts: resources 4/2/2 plus income from Sjochedal 1/0/0.
    assert_eq!(to_act(&g), 1);
    assert_eq!(g.players[1].resources, [5, 2, 2]);
    // Start With units may act on the first turn.
    let u = g.units.iter().find(|u| u.owner == 1).unwrap().id;
    ok(&mut g, 1, &format!("move u{u} iras"));
}

#[test]
fn starting_city_texts_visible_only_to_its_owner() {
    // Rule [decision]: the starting city is face down; others see only which city it is.
    let mut g = duel();
    g.players[0].start_city = Some(city("Kaul"));
    g.players[0].once_available = true;
    let text = content().cities[city("Kaul") as usize]
        .once_per_game
        .describe();
    let mine = serde_json::to_string(&g.view(Observer::Seat(Seat(0)))).unwrap();
    let theirs = serde_json::to_string(&g.view(Observer::Seat(Seat(1)))).unwrap();
    let spectator = serde_json::to_string(&g.view(Observer::Spectator)).unwrap();
    assert!(mine.contains(&text));
    assert!(!theirs.contains(&text));
    assert!(!spectator.contains(&text));
}

// ------------------------------------------------------------------ units and production

#[test]
fn unit_powers_knight_plus_soldier_equals_monster() {
    // Rule: Soldier 1, Knight 2, Monster 3 (Knight + Soldier = 3 = a Monster).
    let c = content();
    let mut g = duel();
    let s = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let k = put(&mut g, 0, UnitKind::Knight, "kaul");
    let m = put(&mut g, 0, UnitKind::Monster, "kaul");
    assert_eq!(
        g.power(c, unit(&g, s)) + g.power(c, unit(&g, k)),
        g.power(c, unit(&g, m))
    );
    assert_eq!(g.power(c, unit(&g, m)), 3);
}

#[test]
fn buying_units_costs_production_and_places_rested_on_own_city() {
    // Rule: Soldier 2, Knight 5, Monster 8 Production, placed Rested on a city you own.
    let mut g = duel();
    g.players[0].resources = [15, 0, 0];
    ok(&mut g, 0, "buy soldier kaul");
    ok(&mut g, 0, "buy knight kaul");
    ok(&mut g, 0, "buy monster kaul");
    assert_eq!(g.players[0].resources[0], 0);
    assert!(
        g.units
            .iter()
            .all(|u| !u.exhausted && u.area == area("kaul"))
    );
    g.players[0].resources = [15, 0, 0];
    refused(&mut g, 0, "buy soldier iras");
}

#[test]
fn bought_unit_cannot_move_or_be_exhausted_this_turn() {
    // Rule: "A bought unit ... cannot move or be exhausted this turn."
    let mut g = duel();
    g.players[0].resources = [2, 10, 0];
    ok(&mut g, 0, "buy soldier kaul");
    let id = g.units[0].id;
    refused(&mut g, 0, &format!("move u{id} heran"));
    refused(&mut g, 0, &format!("again u{id}"));
    assert!(
        !g.legal_actions_vec(0)
            .iter()
            .any(|a| matches!(a, Action::Attack { .. }))
    );
}

#[test]
fn chip_limits_no_free_chip_no_purchase() {
    // Rule [decision]: 12 Soldiers, 8 Knights, 5 Monsters per player; no free chip, no purchase.
    let mut g = duel();
    for _ in 0..5 {
        put(&mut g, 0, UnitKind::Monster, "kaul");
    }
    g.players[0].resources = [40, 0, 0];
    refused(&mut g, 0, "buy monster kaul");
    ok(&mut g, 0, "buy knight kaul");
}

#[test]
fn hero_costs_ten_unique_card_from_pile() {
    // Rule: Hero 10 Production, any hero still in the hero pile; 1 each (unique cards).
    let mut g = duel();
    g.players[0].resources = [20, 0, 0];
    ok(&mut g, 0, "hire hedda-ironwall kaul");
    assert_eq!(g.players[0].resources[0], 10);
    refused(&mut g, 0, "hire hedda-ironwall kaul");
}

// ------------------------------------------------------------------ food

#[test]
fn food_one_rests_one_unit() {
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units[0].exhausted = true;
    g.players[0].resources = [0, 1, 0];
    ok(&mut g, 0, &format!("rest u{u}"));
    assert!(!unit(&g, u).exhausted);
    assert_eq!(g.players[0].resources[1], 0);
}

#[test]
fn food_two_lets_a_unit_be_exhausted_once_more() {
    // Rule: "A unit can normally be moved once and exhausted once per turn"; Food 2 = once more.
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    g.players[0].resources = [0, 3, 0];
    // Move to Heran (normal move), then a second move exhausts it.
    ok(&mut g, 0, &format!("move u{u} heran"));
    ok(&mut g, 1, "pass"); // seat 1 could intercept
    ok(&mut g, 0, &format!("move u{u} kaul"));
    assert!(unit(&g, u).exhausted);
    ok(&mut g, 0, &format!("rest u{u}"));
    // Rested again but already exhausted once this turn: no third move without Food 2.
    refused(&mut g, 0, &format!("move u{u} heran"));
    ok(&mut g, 0, &format!("again u{u}"));
    assert_eq!(g.players[0].resources[1], 0);
    ok(&mut g, 0, &format!("move u{u} altera"));
}

#[test]
fn food_six_all_units_move_once_more() {
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units[0].exhausted = true; // cannot buy a move by exhausting
    g.players[0].resources = [0, 6, 0];
    ok(&mut g, 0, &format!("move u{u} vastport"));
    refused(&mut g, 0, &format!("move u{u} kaul"));
    ok(&mut g, 0, "march");
    ok(&mut g, 0, &format!("move u{u} kaul"));
}

#[test]
fn food_ten_gives_plus_one_power_this_turn() {
    let c = content();
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.players[0].resources = [0, 10, 0];
    ok(&mut g, 0, "fury");
    assert_eq!(g.power(c, unit(&g, u)), 2);
    ok(&mut g, 0, "end");
    assert_eq!(g.power(c, unit(&g, u)), 1, "only this turn");
}

// ------------------------------------------------------------------ research

#[test]
fn building_attaches_to_own_city_and_follows_it_on_capture() {
    // Rule: buildings stay with the city when it changes owner.
    let c = content();
    let mut g = duel();
    g.players[0].resources = [0, 0, 10];
    ok(&mut g, 0, "research stone-walls city:kaul");
    let walls = c.card_by_name("Stone Walls").unwrap();
    assert_eq!(g.cards[walls as usize], CardState::Building(city("Kaul")));
    assert_eq!(g.city_strength(c, city("Kaul")), 3);
    refused(&mut g, 0, "research stone-walls city:kaul");
    // Capture Kaul: the walls go with it.
    g.current = 1;
    own(&mut g, 1, "Heran");
    for _ in 0..3 {
        put(&mut g, 1, UnitKind::Soldier, "kaul");
    }
    all_in(&mut g, 1, "attack city:kaul");
    assert_eq!(
        g.last_battle.as_ref().map(|b| (b.attack, b.defence)),
        Some((3, 3))
    );
    assert_eq!(g.city_owner[city("Kaul") as usize], Some(1));
    assert_eq!(g.cards[walls as usize], CardState::Building(city("Kaul")));
}

#[test]
fn upgrade_sits_on_army_card() {
    let c = content();
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "kaul");
    g.players[0].resources = [0, 0, 10];
    ok(&mut g, 0, "research veteran-knights");
    assert_eq!(g.power(c, unit(&g, k)), 3);
    let vk = c.card_by_name("Veteran Knights").unwrap();
    assert_eq!(g.cards[vk as usize], CardState::Upgrade(0));
}

#[test]
fn spell_resolves_then_is_discarded_and_can_be_bought_again() {
    let mut g = duel();
    g.players[0].resources = [0, 0, 10];
    ok(&mut g, 0, "research bountiful-harvest");
    assert_eq!(g.players[0].resources, [0, 6, 5]);
    ok(&mut g, 0, "research bountiful-harvest");
    assert_eq!(g.players[0].resources, [0, 12, 0]);
}

#[test]
fn world_spell_costs_forty_and_wins() {
    let mut g = duel();
    g.players[0].resources = [0, 0, 39];
    refused(&mut g, 0, "research world-spell");
    g.players[0].resources = [0, 0, 40];
    ok(&mut g, 0, "research world-spell");
    let o = g.to_act().outcome().cloned().unwrap();
    assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
}

// ------------------------------------------------------------------ rested / exhausted, auto_rest

#[test]
fn exhausting_a_rested_unit_lets_it_move_one_additional_time() {
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    ok(&mut g, 0, &format!("move u{u} vastport"));
    assert!(!unit(&g, u).exhausted);
    ok(&mut g, 0, &format!("move u{u} greywood"));
    assert!(unit(&g, u).exhausted);
    refused(&mut g, 0, &format!("move u{u} vastport"));
}

#[test]
fn rules_as_written_units_stay_exhausted_without_food() {
    // [decision] auto_rest = false: a unit becomes Rested only by spending Food.
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units[0].exhausted = true;
    ok(&mut g, 0, "end");
    ok(&mut g, 1, "end");
    assert!(unit(&g, u).exhausted);
}

#[test]
fn auto_rest_readies_all_units_at_turn_start() {
    let mut g = duel();
    g.options.auto_rest = true;
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let v = put(&mut g, 1, UnitKind::Soldier, "iras");
    g.units[0].exhausted = true;
    g.units[1].exhausted = true;
    ok(&mut g, 0, "end");
    assert!(
        !unit(&g, v).exhausted,
        "seat 1's units are readied at their turn"
    );
    assert!(unit(&g, u).exhausted, "seat 0's wait for their own turn");
}

// ------------------------------------------------------------------ movement and reach

#[test]
fn movement_is_to_an_adjacent_area_one_step_at_a_time() {
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    refused(&mut g, 0, &format!("move u{u} faer-alorn"));
    ok(&mut g, 0, &format!("move u{u} heran"));
}

#[test]
fn army_of_one_player_in_one_area_moves_together() {
    // Rule, Moving: "Units of one player in one area may move together as an army to the same area."
    let mut g = duel();
    let a = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let b = put(&mut g, 0, UnitKind::Knight, "kaul");
    all_in(&mut g, 0, "army kaul heran");
    assert_eq!(unit(&g, a).area, area("heran"));
    assert_eq!(unit(&g, b).area, area("heran"));
}

#[test]
fn reach_zero_attacks_only_own_area() {
    let mut g = duel();
    put(&mut g, 0, UnitKind::Knight, "heran");
    refused(&mut g, 0, "attack city:altera");
    refused(&mut g, 0, "attack city:bell");
    ok(&mut g, 0, "attack city:heran");
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn shiara_gives_her_army_plus_one_reach() {
    let mut g = duel();
    put(&mut g, 0, hero("Shiara"), "kaul");
    put(&mut g, 0, UnitKind::Soldier, "kaul");
    all_in(&mut g, 0, "attack city:heran");
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (3, 2, true));
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn upgrade_reach_extends_every_army() {
    let c = content();
    let mut g = duel();
    put(&mut g, 0, UnitKind::Monster, "kaul");
    g.cards[c.card_by_name("Scouting Parties").unwrap() as usize] = CardState::Upgrade(0);
    ok(&mut g, 0, "attack city:heran");
    assert!(g.last_battle.as_ref().unwrap().success);
}

#[test]
fn interception_by_players_with_army_in_reach_in_turn_order_after_mover() {
    // Rule [decision]: each other player with an army within Reach may attack the entering army, in
    // turn order starting after the mover.
    let mut g = scenario(4);
    for (s, n) in ["Kaul", "Iras", "Krysse", "Sae"].iter().enumerate() {
        own(&mut g, s as u8, n);
    }
    g.current = 2;
    let mover = put(&mut g, 2, UnitKind::Soldier, "kaul");
    put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    put(&mut g, 3, UnitKind::Knight, "heran");
    ok(&mut g, 2, &format!("move u{mover} heran"));
    // Order after seat 2: seat 3, seat 0, seat 1.
    assert_eq!(to_act(&g), 3);
    ok(&mut g, 3, "pass");
    assert_eq!(to_act(&g), 0);
    ok(&mut g, 0, "intercept");
    // Helpers after the interceptor (seat 0): seat 1, seat 2 (the defender may defend only), seat 3.
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "pass");
    assert_eq!(to_act(&g), 3);
    ok(&mut g, 3, "pass");
    // Soldier 1 against Soldier 1: the entering army is destroyed, and the interception round ends.
    assert!(g.unit(mover).is_none());
    assert!(g.pending().is_empty());
    assert_eq!(to_act(&g), 2);
}

/// Rule, Interception **[decision]**: the target is the entering army only (the units that moved in
/// together); the mover's units already standing in that area are another army and fight only if the
/// mover commits them to the defence as a helper (issue 19's example).
#[test]
fn interception_attacks_the_entering_army_only() {
    let c = content();
    let setup = || {
        let mut g = duel();
        g.players[0].race = c.race_by_slug("human-realm");
        g.players[1].race = c.race_by_slug("forces-of-the-fey");
        let knight = put(&mut g, 0, UnitKind::Knight, "greywood");
        let soldier = put(&mut g, 0, UnitKind::Soldier, "bell");
        let monster = put(&mut g, 1, UnitKind::Monster, "greywood");
        (g, knight, soldier, monster)
    };
    // Without help: 3 against the Soldier's 1; the Soldier is destroyed, the Knight survives.
    let (mut g, knight, soldier, _) = setup();
    ok(&mut g, 0, &format!("move u{soldier} greywood"));
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "intercept");
    // The helping round: the Human may commit the Knight (another army) to the defence.
    assert_eq!(to_act(&g), 0);
    let help = Action::HelpDefend(area("greywood"));
    assert!(
        g.legal_actions_vec(0).contains(&help),
        "help-defend is offered"
    );
    assert_eq!(g.action_notation(&help), "help-defend greywood");
    ok(&mut g, 0, "pass");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attacker, r.attack, r.defence, r.success, r.destroyed),
        (1, 3, 1, true, 1)
    );
    assert!(g.unit(soldier).is_none());
    assert_eq!(
        unit(&g, knight).area,
        area("greywood"),
        "the Knight survives"
    );
    assert!(g.pending().is_empty());
    assert_eq!(to_act(&g), 0);
    // Committing the Knight: 3 against 3, a tie, which goes to the attacker: both are destroyed.
    let (mut g, knight, soldier, _) = setup();
    ok(&mut g, 0, &format!("move u{soldier} greywood"));
    ok(&mut g, 1, "intercept");
    let (attack, defence) = match g.stack.last() {
        Some(Pending::Battle(b)) => g.battle_numbers(c, b),
        other => panic!("expected the battle, got {other:?}"),
    };
    assert_eq!(
        (attack, defence),
        (3, 1),
        "before help: the entering army only"
    );
    ok(&mut g, 0, "help-defend greywood");
    // Nothing more to commit: the battle is resolved.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (3, 3, true, 2)
    );
    assert!(g.unit(soldier).is_none() && g.unit(knight).is_none());
    // An ordinary attack on the army still meets every unit there (the whole army).
    let (mut g, knight, soldier, _) = setup();
    g.current = 1;
    ok(&mut g, 1, "attack P1@greywood");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (3, 2, true));
    assert!(g.unit(knight).is_none());
    assert_eq!(unit(&g, soldier).area, area("bell"));
}

// ------------------------------------------------------------------ attacking and helping

#[test]
fn helpers_decide_once_in_turn_order_after_attacker_attacker_last() {
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    let a1 = put(&mut g, 0, UnitKind::Soldier, "heran");
    let a2 = put(&mut g, 0, UnitKind::Soldier, "altera");
    put(&mut g, 1, UnitKind::Knight, "heran");
    put(&mut g, 2, UnitKind::Knight, "heran");
    put(&mut g, 2, UnitKind::Soldier, "heran");
    let _ = a1;
    ok(&mut g, 0, "attack P2@heran");
    // Seat 1 is the defender: may only defend with other armies (none) -> skipped. Seat 2 decides.
    assert_eq!(to_act(&g), 2);
    let legal = g.legal_actions_vec(2);
    assert!(legal.contains(&Action::HelpAttack));
    assert!(legal.contains(&Action::HelpDefend(area("heran"))));
    ok(&mut g, 2, "help-defend heran");
    // The attacker's other army at Altera is not in Reach: nothing more to decide; resolved.
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (1, 5, false));
    assert!(unit(&g, a2).area == area("altera"));
}

#[test]
fn attack_at_least_defence_destroys_defenders_and_defence_helpers() {
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    put(&mut g, 0, UnitKind::Monster, "heran");
    put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    put(&mut g, 2, UnitKind::Knight, "heran");
    all_in(&mut g, 0, "attack P2@heran");
    ok(&mut g, 2, "help-defend heran");
    let b = g.last_battle.clone().unwrap();
    assert_eq!(
        (b.attack, b.defence, b.success, b.destroyed),
        (4, 3, true, 2)
    );
    assert!(g.units.iter().all(|u| u.owner == 0));
}

#[test]
fn failed_attack_changes_nothing_attackers_stay_exhausted() {
    let mut g = duel();
    let s = put(&mut g, 0, UnitKind::Soldier, "iras");
    ok(&mut g, 0, "attack city:iras");
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (1, 3, false));
    assert!(unit(&g, s).exhausted);
    assert_eq!(g.city_owner[city("Iras") as usize], Some(1));
}

#[test]
fn defending_army_adds_city_strength_when_its_owner_owns_the_city() {
    let mut g = duel();
    put(&mut g, 0, UnitKind::Monster, "iras");
    put(&mut g, 0, UnitKind::Monster, "iras");
    put(&mut g, 1, UnitKind::Soldier, "iras");
    all_in(&mut g, 0, "attack P2@iras");
    let b = g.last_battle.clone().unwrap();
    // Soldier 1 + Iras (Town) 3 = 4 against 6: destroyed, and the city, which took part, is captured.
    assert_eq!((b.attack, b.defence, b.success), (6, 4, true));
    assert_eq!(b.captured, Some(city("Iras")));
}

#[test]
fn attack_on_unowned_city_is_city_strength_plus_helpers() {
    // Rule, Attacking 3: "Defence = ... against a city, City Strength + helpers"; attack = the
    // attacking units + the helpers of the attack. Heran (Village) is unowned: City Strength 2.
    let setup = || {
        let mut g = scenario(3);
        own(&mut g, 0, "Kaul");
        own(&mut g, 1, "Iras");
        own(&mut g, 2, "Sae");
        let k = put(&mut g, 0, UnitKind::Knight, "heran");
        let helper = put(&mut g, 1, UnitKind::Soldier, "heran");
        let guard = put(&mut g, 2, UnitKind::Knight, "heran");
        (g, k, helper, guard)
    };
    // Nobody defends an unowned city: every other player may help either side.
    let (mut g, k, helper, guard) = setup();
    ok(&mut g, 0, "attack city:heran");
    assert!(unit(&g, k).exhausted);
    assert_eq!(
        g.pending_battle_numbers(),
        Some((2, 2)),
        "Knight 2 against 2"
    );
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "help-attack");
    assert_eq!(
        g.pending_battle_numbers(),
        Some((3, 2)),
        "P2's Soldier adds 1"
    );
    assert_eq!(to_act(&g), 2);
    ok(&mut g, 2, "help-defend heran");
    // P3's Knight adds 2 to the City Strength: 3 against 4, the attack fails; nothing is destroyed.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed, r.captured),
        (3, 4, false, 0, None)
    );
    assert!(g.unit(guard).is_some() && g.unit(helper).is_some());
    assert_eq!(g.city_owner[city("Heran") as usize], None);
    // Without the defence helper: 3 against 2, the attacker captures Heran; the helper of the
    // attack gains nothing, and the bystander's units, which did not defend, survive.
    let (mut g, _, helper, guard) = setup();
    ok(&mut g, 0, "attack city:heran");
    ok(&mut g, 1, "help-attack");
    ok(&mut g, 2, "pass");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed, r.captured),
        (3, 2, true, 0, Some(city("Heran")))
    );
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
    assert!(g.unit(guard).is_some() && unit(&g, helper).exhausted);
}

#[test]
fn help_defend_of_a_city_target_adds_the_armies_and_destroys_them_on_capture() {
    // Rule, Attacking 2-4: against a city, defence = City Strength + the armies committed to its
    // defence (whole armies in Reach, the city's owner's included); attack >= defence destroys
    // every unit of every army that helped the defence and captures the city.
    let setup = || {
        let mut g = scenario(3);
        own(&mut g, 0, "Kaul");
        own(&mut g, 1, "Iras"); // Town: City Strength 3
        own(&mut g, 2, "Sae");
        put(&mut g, 0, UnitKind::Monster, "iras");
        put(&mut g, 0, UnitKind::Knight, "iras");
        let owner_soldier = put(&mut g, 1, UnitKind::Soldier, "iras");
        let ally = put(&mut g, 2, UnitKind::Knight, "iras");
        (g, owner_soldier, ally)
    };
    let (mut g, owner_soldier, ally) = setup();
    all_in(&mut g, 0, "attack city:iras");
    assert_eq!(
        g.pending_battle_numbers(),
        Some((5, 3)),
        "the owner's army in the city does not defend by itself"
    );
    assert_eq!(to_act(&g), 1);
    assert_eq!(
        g.legal_actions_vec(1),
        vec![Action::HelpDefend(area("iras")), Action::Pass],
        "the defender may not help the attack"
    );
    ok(&mut g, 1, "help-defend iras");
    assert_eq!(g.pending_battle_numbers(), Some((5, 4)));
    assert_eq!(to_act(&g), 2);
    ok(&mut g, 2, "help-defend iras");
    // 5 against 3 + 1 + 2 = 6: the city holds; nothing is destroyed.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed, r.captured),
        (5, 6, false, 0, None)
    );
    assert_eq!(g.city_owner[city("Iras") as usize], Some(1));
    assert!(g.unit(owner_soldier).is_some() && g.unit(ally).is_some());
    // With only the owner's army: 5 against 4, the helping army is Destroyed, the city captured, and
    // the other player's army in the area, which did not help, survives.
    let (mut g, owner_soldier2, ally2) = setup();
    all_in(&mut g, 0, "attack city:iras");
    ok(&mut g, 1, "help-defend iras");
    ok(&mut g, 2, "pass");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed, r.captured),
        (5, 4, true, 1, Some(city("Iras")))
    );
    assert!(g.unit(owner_soldier2).is_none());
    assert!(g.unit(ally2).is_some());
    assert_eq!(g.city_owner[city("Iras") as usize], Some(0));
}

#[test]
fn hero_battle_abilities_apply_in_battle() {
    let mut g = duel();
    put(&mut g, 0, hero("Brakka Stonehide"), "heran");
    put(&mut g, 1, hero("Hedda Ironwall"), "heran");
    ok(&mut g, 0, "attack P2@heran");
    let b = g.last_battle.clone().unwrap();
    // Brakka 3 + 1 against Hedda 2 + 2.
    assert_eq!((b.attack, b.defence, b.success), (4, 4, true));
    // A Destroyed hero card leaves the game.
    let h = content().hero_by_name("Hedda Ironwall").unwrap();
    assert_eq!(g.heroes[h as usize], HeroState::Destroyed);
}

// ------------------------------------------------------------------ cities

#[test]
fn once_per_game_usable_once_and_lost_when_start_city_captured() {
    let mut g = duel();
    g.players[0].start_city = Some(city("Kaul"));
    g.players[0].once_available = true;
    // Kaul: place 2 Soldiers Rested on a city you own.
    ok(&mut g, 0, "once city:kaul");
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 2);
    refused(&mut g, 0, "once city:kaul");
    let mut h = duel();
    h.players[0].start_city = Some(city("Kaul"));
    h.players[0].once_available = true;
    own(&mut h, 0, "Heran");
    h.current = 1;
    put(&mut h, 1, UnitKind::Knight, "kaul");
    ok(&mut h, 1, "attack city:kaul");
    assert!(!h.players[0].once_available);
}

#[test]
fn destroyed_city_leaves_area_without_city_and_destroys_buildings() {
    let c = content();
    let mut g = duel();
    g.cards[c.card_by_name("Granary").unwrap() as usize] = CardState::Building(city("Heran"));
    g.players[0].resources = [0, 0, 20];
    ok(&mut g, 0, "research earthquake city:heran");
    assert!(g.city_destroyed[city("Heran") as usize]);
    assert_eq!(
        g.cards[c.card_by_name("Granary").unwrap() as usize],
        CardState::Destroyed
    );
    g.players[0].resources = [0, 0, 20];
    refused(&mut g, 0, "research earthquake city:heran");
    // Destroyed cities cannot be attacked any more.
    put(&mut g, 0, UnitKind::Knight, "heran");
    assert!(!g.legal_actions_vec(0).iter().any(|a| *a
        == Action::Attack {
            target: Target::City(city("Heran"))
        }));
}

// ------------------------------------------------------------------ give and trade

#[test]
fn trade_needs_both_players_consent() {
    let mut g = duel();
    g.players[0].resources = [5, 0, 0];
    ok(&mut g, 0, "trade P2");
    ok(&mut g, 0, "offer production");
    ok(&mut g, 0, "offer production");
    ok(&mut g, 0, "propose");
    assert_eq!(to_act(&g), 1);
    let before = g.players.clone();
    ok(&mut g, 1, "decline");
    assert_eq!(g.players[0].resources, before[0].resources);
    ok(&mut g, 0, "trade P2");
    ok(&mut g, 0, "offer production");
    ok(&mut g, 0, "ask city:iras");
    ok(&mut g, 0, "propose");
    ok(&mut g, 1, "accept");
    assert_eq!(g.players[0].resources[0], 4);
    assert_eq!(g.players[1].resources[0], 1);
    assert_eq!(g.city_owner[city("Iras") as usize], Some(0));
}

#[test]
fn give_unit_receiver_places_own_chip_exhausted_or_it_is_lost() {
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let s = put(&mut g, 0, UnitKind::Soldier, "heran");
    for _ in 0..12 {
        put(&mut g, 1, UnitKind::Soldier, "iras");
    }
    ok(&mut g, 0, "trade P2");
    ok(&mut g, 0, &format!("offer u{k}"));
    ok(&mut g, 0, &format!("offer u{s}"));
    ok(&mut g, 0, "propose");
    ok(&mut g, 1, "accept");
    assert!(g.unit(k).is_none() && g.unit(s).is_none());
    let knight = g.units.iter().find(|u| u.kind == UnitKind::Knight).unwrap();
    assert_eq!(
        (knight.owner, knight.area, knight.exhausted),
        (1, area("heran"), true)
    );
    // Seat 1 had no free Soldier chip: that unit is lost.
    assert_eq!(g.chips_used(1, ChipKind::Soldier), 12);
}

#[test]
fn give_unit_received_unit_cannot_move_that_turn_decision() {
    // [decision] (Give a unit): like every unit placed on the board, a received unit cannot move or
    // be exhausted in the turn it was received. P1 asks for P2's Knight next to P1's city.
    let mut g = duel();
    g.players[0].resources = [0, 20, 0];
    let theirs = put(&mut g, 1, UnitKind::Knight, "heran");
    let mine = put(&mut g, 0, UnitKind::Soldier, "kaul");
    ok(&mut g, 0, "trade P2");
    ok(&mut g, 0, &format!("ask u{theirs}"));
    ok(&mut g, 0, "propose");
    ok(&mut g, 1, "accept");
    assert_eq!(to_act(&g), 0, "P1's turn goes on");
    let got = g
        .units
        .iter()
        .find(|u| u.owner == 0 && u.kind == UnitKind::Knight)
        .unwrap()
        .clone();
    assert_eq!(got.area, area("heran"));
    assert!(
        got.exhausted && got.fresh,
        "arrives Exhausted, placed this turn"
    );
    let legal = g.legal_actions_vec(0);
    assert!(
        !legal
            .iter()
            .any(|a| matches!(a, Action::Move { unit, .. } if *unit == got.id)),
        "the received Knight has no move this turn: {legal:?}"
    );
    assert!(
        legal
            .iter()
            .any(|a| matches!(a, Action::Move { unit, .. } if *unit == mine)),
        "P1's own Soldier still moves"
    );
    let to = content().adjacent[area("heran") as usize][0];
    let id = content().areas[to as usize].id.clone();
    refused(&mut g, 0, &format!("move u{} {id}", got.id));
    // From P1's next turn on it is an ordinary unit.
    ok(&mut g, 0, "end");
    ok(&mut g, 1, "end");
    assert!(!unit(&g, got.id).fresh);
    assert!(
        g.legal_actions_vec(0)
            .iter()
            .any(|a| matches!(a, Action::Move { unit, .. } if *unit == got.id))
    );
}

#[test]
fn give_resources_capped_at_forty() {
    let mut g = duel();
    g.players[0].resources = [0, 10, 0];
    g.players[1].resources = [0, 35, 0];
    ok(&mut g, 0, "trade P2");
    for _ in 0..10 {
        ok(&mut g, 0, "offer food");
    }
    refused(&mut g, 0, "offer food");
    ok(&mut g, 0, "propose");
    ok(&mut g, 1, "accept");
    assert_eq!(g.players[1].resources[1], 40);
    assert_eq!(g.players[0].resources[1], 0);
}

#[test]
fn golden_hand_school_makes_visitors_give() {
    let c = content();
    let mut g = duel();
    g.cards[c.card_by_name("Golden Hand School").unwrap() as usize] =
        CardState::Building(city("Iras"));
    put(&mut g, 0, UnitKind::Soldier, "iras");
    g.players[0].resources = [5, 0, 0];
    ok(&mut g, 0, "end");
    // Seat 1's income: Iras 2/1/0, plus 2 Production Given by seat 0.
    assert_eq!(g.players[1].resources, [4, 1, 0]);
    assert_eq!(g.players[0].resources[0], 3);
}

#[test]
fn lagaron_proudheart_makes_a_player_in_reach_give() {
    let mut g = duel();
    let l = put(&mut g, 0, hero("Lagaron Proudheart"), "heran");
    g.players[1].resources = [2, 0, 0];
    refused(&mut g, 0, &format!("ability u{l} P2"));
    put(&mut g, 1, UnitKind::Soldier, "heran");
    ok(&mut g, 0, &format!("ability u{l} P2"));
    assert_eq!(g.players[0].resources[0], 2, "as much as they have");
    assert!(unit(&g, l).exhausted);
}

#[test]
fn vastport_once_per_game_every_other_player_gives() {
    let mut g = scenario(3);
    own(&mut g, 0, "Vastport");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    g.players[0].start_city = Some(city("Vastport"));
    g.players[0].once_available = true;
    g.players[1].resources = [0, 5, 0];
    g.players[2].resources = [0, 1, 0];
    ok(&mut g, 0, "once");
    assert_eq!(g.players[0].resources[1], 4);
    assert_eq!(g.players[1].resources[1], 2);
    assert_eq!(g.players[2].resources[1], 0);
}

#[test]
fn deosiderium_goes_to_threeway() {
    let mut g = duel();
    let d = put(&mut g, 0, hero("Deosiderium"), "kaul");
    let s = put(&mut g, 0, UnitKind::Soldier, "kaul");
    ok(&mut g, 0, &format!("ability u{d}"));
    assert_eq!(unit(&g, d).area, area("threeway"));
    assert_eq!(unit(&g, s).area, area("threeway"));
}

// ------------------------------------------------------------------ winning

#[test]
fn fifteen_cities_win_at_once() {
    let mut g = duel();
    for name in content().cities.iter().map(|c| c.name.clone()) {
        if name != "Iras" && name != "Riverdale" && g.cities_of(0) < 14 {
            own(&mut g, 0, &name);
        }
    }
    assert_eq!(g.cities_of(0), 14);
    put(&mut g, 0, UnitKind::Knight, "riverdale");
    assert!(g.city_owner[city("Riverdale") as usize].is_none());
    ok(&mut g, 0, "attack city:riverdale");
    assert_eq!(g.to_act().outcome().unwrap().winning_seats(), vec![Seat(0)]);
}

#[test]
fn last_player_owning_a_city_wins() {
    let mut g = duel();
    put(&mut g, 0, UnitKind::Monster, "iras");
    ok(&mut g, 0, "attack city:iras");
    let o = g.to_act().outcome().cloned().unwrap();
    assert_eq!(o.winning_seats(), vec![Seat(0)]);
    assert!(g.legal_actions_vec(0).is_empty());
}

#[test]
fn max_rounds_most_cities_win_together() {
    let mut g = scenario(3);
    g.options.max_rounds = 1;
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 1, "Sae");
    own(&mut g, 2, "Heran");
    own(&mut g, 2, "Bell");
    ok(&mut g, 0, "end");
    ok(&mut g, 1, "end");
    assert!(g.to_act().outcome().is_none());
    ok(&mut g, 2, "end");
    assert_eq!(
        g.to_act().outcome().unwrap().winning_seats(),
        vec![Seat(1), Seat(2)]
    );
}

#[test]
fn shared_victory_heroes_win_together() {
    // Aldo the Kingmaker: you win too when the next player in turn order wins.
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    put(&mut g, 0, hero("Aldo the Kingmaker"), "kaul");
    put(&mut g, 2, hero("The Pale Oracle"), "sae");
    g.current = 1;
    g.players[1].resources = [0, 0, 40];
    ok(&mut g, 1, "research world-spell");
    // Seat 1 wins by the World Spell; Aldo's owner (seat 0, next is seat 1) and the Oracle's owner too.
    assert_eq!(
        g.to_act().outcome().unwrap().winning_seats(),
        vec![Seat(0), Seat(1), Seat(2)]
    );
}

#[test]
fn shared_victory_cities_at_least_wins_when_the_game_ends_with_enough_cities() {
    // Vexis the Hoarder: "you win too when the game ends while you own at least 8 cities".
    let end_with = |cities: usize| {
        let mut g = duel();
        let names: Vec<String> = content()
            .cities
            .iter()
            .map(|c| c.name.clone())
            .filter(|n| n != "Iras" && n != "Kaul")
            .collect();
        for name in names.iter().take(cities - 1) {
            own(&mut g, 0, name);
        }
        assert_eq!(g.cities_of(0), cities);
        put(&mut g, 0, hero("Vexis the Hoarder"), "kaul");
        g.current = 1;
        g.players[1].resources = [0, 0, 40];
        ok(&mut g, 1, "research world-spell");
        g.to_act().outcome().unwrap().winning_seats()
    };
    assert_eq!(
        end_with(8),
        vec![Seat(0), Seat(1)],
        "8 cities: Vexis's owner wins too"
    );
    assert_eq!(end_with(7), vec![Seat(1)], "7 cities: not enough");
    // It holds at the round limit too (the players with the most cities win; Vexis adds its owner).
    let mut g = scenario(3);
    g.options.max_rounds = 1;
    own(&mut g, 0, "Kaul");
    for name in [
        "Iras",
        "Sae",
        "Heran",
        "Bell",
        "Altera",
        "Varan",
        "Kotzenburg",
        "Avangrad",
    ] {
        own(&mut g, 1, name);
    }
    for name in [
        "Twin Axe",
        "Threeway",
        "Riverdale",
        "Fiskes",
        "Skogsneder",
        "Ilieth",
        "Litilien",
        "Krysse",
        "Beregen",
    ] {
        own(&mut g, 2, name);
    }
    put(&mut g, 1, hero("Vexis the Hoarder"), "sae");
    assert_eq!((g.cities_of(0), g.cities_of(1), g.cities_of(2)), (1, 8, 9));
    ok(&mut g, 0, "end");
    ok(&mut g, 1, "end");
    ok(&mut g, 2, "end");
    assert_eq!(
        g.to_act().outcome().unwrap().winning_seats(),
        vec![Seat(1), Seat(2)],
        "P3 has the most cities; P2 holds 8 with Vexis"
    );
}

#[test]
fn notation_round_trips_for_every_legal_action_in_the_worked_position() {
    let mut g = duel();
    put(&mut g, 0, hero("Lagaron Proudheart"), "heran");
    put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    g.players[0].resources = [40, 40, 40];
    g.players[0].start_city = Some(city("Kaul"));
    g.players[0].once_available = true;
    let legal = g.legal_actions_vec(0);
    assert!(legal.len() > 50);
    for a in legal {
        let text = g.action_notation(&a);
        assert_eq!(g.parse_action(&text).unwrap(), a, "{text}");
    }
}

#[test]
fn help_defend_commits_armies_that_need_not_be_rested() {
    // Rule: "help the defender by committing whole armies in Reach (they need not be Rested)".
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    put(&mut g, 0, UnitKind::Monster, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    let tired = put(&mut g, 2, UnitKind::Knight, "heran");
    g.units
        .iter_mut()
        .find(|u| u.id == tired)
        .unwrap()
        .exhausted = true;
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(to_act(&g), 2);
    assert!(
        !g.legal_actions_vec(2).contains(&Action::HelpAttack),
        "exhausted units cannot help the attack"
    );
    ok(&mut g, 2, "help-defend heran");
    let b = g.last_battle.clone().unwrap();
    // Monster 3 against Soldier 1 + Knight 2 = 3: both Destroyed.
    assert_eq!(
        (b.attack, b.defence, b.success, b.destroyed),
        (3, 3, true, 2)
    );
}

#[test]
fn attacker_cannot_help_the_defence_nor_the_defender_the_attack() {
    // [decision] documented in the crate docs.
    let mut g = duel();
    put(&mut g, 0, UnitKind::Soldier, "heran");
    let shiara = put(&mut g, 0, hero("Shiara"), "altera");
    let soldier = put(&mut g, 0, UnitKind::Soldier, "altera");
    put(&mut g, 1, UnitKind::Knight, "heran");
    put(&mut g, 1, UnitKind::Knight, "altera");
    put(&mut g, 1, UnitKind::Monster, "bell");
    // Shiara's army at Altera reaches Heran: the attacker holds it back for now.
    ok(&mut g, 0, "attack P2@heran");
    ok(&mut g, 0, &format!("hold u{shiara}"));
    ok(&mut g, 0, &format!("hold u{soldier}"));
    ok(&mut g, 0, "confirm");
    // Seat 1 (defender) may only commit armies in Reach (Reach 0: Bell and Altera are out).
    assert_eq!(
        to_act(&g),
        0,
        "seat 1 has nothing it may commit and is skipped"
    );
    let legal = g.legal_actions_vec(0);
    assert_eq!(legal, vec![Action::HelpAttack, Action::Pass]);
    all_in(&mut g, 0, "help-attack");
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (4, 2, true));
}

#[test]
fn give_city_receiver_captures_it_and_it_may_be_recaptured_same_turn() {
    let mut g = duel();
    own(&mut g, 0, "Heran");
    put(&mut g, 0, UnitKind::Knight, "heran");
    ok(&mut g, 0, "trade P2");
    ok(&mut g, 0, "offer city:heran");
    ok(&mut g, 0, "propose");
    ok(&mut g, 1, "accept");
    assert_eq!(g.city_owner[city("Heran") as usize], Some(1));
    ok(&mut g, 0, "attack city:heran");
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn trade_only_on_your_turn_and_limited_per_turn() {
    let mut g = duel();
    refused(&mut g, 1, "trade P1");
    for _ in 0..3 {
        ok(&mut g, 0, "trade P2");
        ok(&mut g, 0, "cancel");
    }
    refused(&mut g, 0, "trade P2");
    ok(&mut g, 0, "end");
    ok(&mut g, 1, "trade P1");
}

#[test]
fn inconsistent_pending_decisions_are_rejected_by_validate() {
    let mut g = duel();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let mut h = g.clone();
    h.stack.push(Pending::Intercept {
        mover: 0,
        area: 200,
        queue: vec![1],
        units: vec![u],
    });
    assert!(h.validate().unwrap_err().contains("unknown area"));
    let mut h = g.clone();
    h.stack.push(Pending::Intercept {
        mover: 0,
        area: area("kaul"),
        queue: vec![1],
        units: vec![],
    });
    assert!(h.validate().unwrap_err().contains("no entering unit"));
    let mut h = g.clone();
    h.stack.push(Pending::Intercept {
        mover: 0,
        area: area("kaul"),
        queue: vec![1],
        units: vec![u + 5],
    });
    assert!(h.validate().unwrap_err().contains("below next_unit"));
}

#[test]
fn every_spell_resolves_its_effect() {
    // Research: "Spells resolve, then are Discarded"; every spell of the edition does what it says.
    let c = content();
    let fresh = || {
        let mut g = duel();
        g.players[0].resources = [0, 0, 40];
        g
    };
    let mut g = fresh();
    ok(&mut g, 0, "research conscription city:kaul");
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 2);
    assert!(g.units.iter().all(|u| u.fresh));
    let mut g = fresh();
    ok(&mut g, 0, "research summon-beast city:kaul");
    assert_eq!(g.chips_used(0, ChipKind::Monster), 1);
    let mut g = fresh();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units[0].exhausted = true;
    ok(&mut g, 0, "research rally");
    assert!(!unit(&g, u).exhausted);
    let mut g = fresh();
    ok(&mut g, 0, "research haste");
    assert_eq!(g.players[0].extra_moves, 1);
    let mut g = fresh();
    let u = put(&mut g, 0, UnitKind::Soldier, "kaul");
    ok(&mut g, 0, "research battle-cry");
    assert_eq!(g.power(c, unit(&g, u)), 2);
    let mut g = fresh();
    let k = put(&mut g, 1, UnitKind::Knight, "iras");
    let m = put(&mut g, 1, UnitKind::Monster, "iras");
    refused(&mut g, 0, &format!("research fireball u{m}"));
    ok(&mut g, 0, &format!("research fireball u{k}"));
    assert!(g.unit(k).is_none() && g.unit(m).is_some());
    let mut g = fresh();
    put(&mut g, 1, UnitKind::Knight, "iras");
    ok(&mut g, 0, "research paralyse P2@iras");
    assert!(g.units.iter().all(|u| u.exhausted));
    let mut g = fresh();
    g.players[1].resources = [10, 0, 0];
    ok(&mut g, 0, "research extortion P2");
    assert_eq!(
        (g.players[0].resources[0], g.players[1].resources[0]),
        (6, 4)
    );
    let mut g = fresh();
    ok(&mut g, 0, "research treasure-hunt");
    assert_eq!(g.players[0].resources, [10, 0, 20]);
}

#[test]
fn upgrades_income_and_moves_apply() {
    let c = content();
    let mut g = duel();
    g.cards[c.card_by_name("Royal Mint").unwrap() as usize] = CardState::Upgrade(1);
    g.cards[c.card_by_name("Supply Lines").unwrap() as usize] = CardState::Upgrade(1);
    g.cards[c.card_by_name("Forced March").unwrap() as usize] = CardState::Upgrade(1);
    let u = put(&mut g, 1, UnitKind::Soldier, "iras");
    ok(&mut g, 0, "end");
    // Iras 2/1/0 + Royal Mint 3 Production + Supply Lines 2 Food.
    assert_eq!(g.players[1].resources, [5, 3, 0]);
    ok(&mut g, 1, &format!("move u{u} sjochedal"));
    ok(&mut g, 1, &format!("move u{u} iras"));
    assert!(
        !unit(&g, u).exhausted,
        "Forced March: two moves without exhausting"
    );
}

#[test]
fn hero_income_extra_moves_and_rest_abilities() {
    let mut g = duel();
    put(&mut g, 1, hero("Mara the Quartermaster"), "iras");
    put(&mut g, 1, hero("Seraphine of Litilien"), "iras");
    let ilan = put(&mut g, 1, hero("Quickfoot Ilan"), "iras");
    let morrow = put(&mut g, 1, hero("Old Morrow"), "iras");
    let s = put(&mut g, 1, UnitKind::Soldier, "iras");
    g.units.iter_mut().find(|u| u.id == s).unwrap().exhausted = true;
    let thessaly = put(&mut g, 1, hero("Thessaly Greenhand"), "iras");
    ok(&mut g, 0, "end");
    // Iras 2/1/0 + Mara 2 Production + Seraphine 2 Research.
    assert_eq!(g.players[1].resources, [4, 1, 2]);
    ok(&mut g, 1, &format!("move u{ilan} sjochedal"));
    ok(&mut g, 1, &format!("move u{ilan} iras"));
    assert!(
        !unit(&g, ilan).exhausted,
        "Quickfoot Ilan moves twice without exhausting"
    );
    ok(&mut g, 1, &format!("ability u{morrow}"));
    assert!(!unit(&g, s).exhausted && unit(&g, morrow).exhausted);
    ok(&mut g, 1, &format!("ability u{thessaly}"));
    assert_eq!(g.players[1].resources[1], 4);
}

#[test]
fn city_strength_buildings_and_income_buildings() {
    let c = content();
    let mut g = duel();
    g.cards[c.card_by_name("Great Walls").unwrap() as usize] = CardState::Building(city("Iras"));
    g.cards[c.card_by_name("Grand Academy").unwrap() as usize] = CardState::Building(city("Iras"));
    assert_eq!(g.city_strength(c, city("Iras")), 7);
    // Every observer's view carries each city's current strength, buildings included.
    for observer in [Observer::Spectator, Observer::Seat(Seat::new(0))] {
        let view = g.view(observer);
        assert_eq!(view.city_strength.len(), c.cities.len());
        assert_eq!(view.city_strength[city("Iras") as usize], 7);
        assert_eq!(
            view.city_strength[city("Kaul") as usize],
            u32::from(c.cities[city("Kaul") as usize].level.value())
        );
    }
    ok(&mut g, 0, "end");
    assert_eq!(g.players[1].resources, [2, 1, 4]);
}

// ------------------------------------------------------------------ choosing the units that attack

fn selection(g: &Syba) -> Selection {
    match g.stack.last() {
        Some(Pending::Select(s)) => s.clone(),
        other => panic!("expected a unit selection, got {other:?}"),
    }
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

#[test]
fn attacker_exhausts_only_the_units_that_attack_held_back_units_stay_rested() {
    // Rule, Attacking 1: "The attacker Exhausts the units that attack (all must be in Reach of the
    // target) and names the target."
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let s1 = put(&mut g, 0, UnitKind::Soldier, "heran");
    let s2 = put(&mut g, 0, UnitKind::Soldier, "heran");
    let enemy = put(&mut g, 1, UnitKind::Soldier, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(
        selection(&g).chosen,
        sorted(vec![k, s1, s2]),
        "all units in Reach start chosen"
    );
    ok(&mut g, 0, &format!("hold u{s1}"));
    ok(&mut g, 0, &format!("hold u{s2}"));
    assert_eq!(selection(&g).chosen, vec![k]);
    ok(&mut g, 0, "confirm");
    // Helpers: the defender has nothing else in Reach; the attacker may help only with their other
    // armies (Attacking 2), and the held-back Soldiers are of the attacking army: the battle resolves.
    assert!(g.pending().is_empty());
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (2, 1, true));
    assert!(g.unit(enemy).is_none());
    assert!(unit(&g, k).exhausted);
    for s in [s1, s2] {
        assert!(!unit(&g, s).exhausted, "held back: still Rested");
        assert_eq!(
            unit(&g, s).exhausts_used,
            0,
            "and still able to be Exhausted"
        );
    }
    // The held-back Soldiers attack again this turn: the unowned Heran (City Strength 2).
    ok(&mut g, 0, "attack city:heran");
    assert_eq!(
        selection(&g).chosen,
        sorted(vec![s1, s2]),
        "the Exhausted Knight cannot be chosen"
    );
    ok(&mut g, 0, "confirm");
    let b = g.last_battle.clone().unwrap();
    assert_eq!((b.attack, b.defence, b.success), (2, 2, true));
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn units_from_several_areas_in_reach_attack_together() {
    // Rule, Attacking 1: the attacking units need only all be in Reach of the target; Reach, Areas:
    // "an army can attack ... targets at area-distance <= its Reach" (Shiara's army at Altera has
    // Reach 1; the Knight in Heran Reach 0; the Knight in Stavensport, two steps away, is out).
    let c = content();
    let mut g = duel();
    let shiara = put(&mut g, 0, hero("Shiara"), "altera");
    let s = put(&mut g, 0, UnitKind::Soldier, "altera");
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let far = put(&mut g, 0, UnitKind::Knight, "stavensport");
    assert_eq!(c.dist(area("stavensport"), area("heran")), 2);
    put(&mut g, 1, UnitKind::Knight, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(selection(&g).chosen, sorted(vec![shiara, s, k]));
    ok(&mut g, 0, "confirm");
    let b = g.last_battle.clone().unwrap();
    // Shiara 2 + Soldier 1 + Knight 2 = 5 against the Knight 2 (Heran is unowned: no City Strength).
    assert_eq!((b.attack, b.defence, b.success), (5, 2, true));
    for id in [shiara, s, k] {
        assert!(unit(&g, id).exhausted);
    }
    assert!(!unit(&g, far).exhausted);
    // They stay where they were: attacking is not moving.
    assert_eq!(unit(&g, s).area, area("altera"));
}

#[test]
fn a_unit_out_of_reach_cannot_be_chosen() {
    // Rule, Attacking 1: "all must be in Reach of the target". Nor may a unit that cannot be
    // Exhausted now (Exhausted already, or bought this turn), nor another player's unit.
    let mut g = duel();
    let a = put(&mut g, 0, UnitKind::Knight, "heran");
    let b = put(&mut g, 0, UnitKind::Soldier, "heran");
    let far = put(&mut g, 0, UnitKind::Knight, "kaul");
    let tired = put(&mut g, 0, UnitKind::Knight, "heran");
    let fresh = put(&mut g, 0, UnitKind::Knight, "heran");
    g.units
        .iter_mut()
        .find(|u| u.id == tired)
        .unwrap()
        .exhausted = true;
    g.units.iter_mut().find(|u| u.id == fresh).unwrap().fresh = true;
    let enemy = put(&mut g, 1, UnitKind::Soldier, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(selection(&g).chosen, sorted(vec![a, b]));
    ok(&mut g, 0, &format!("hold u{a}"));
    for id in [far, tired, fresh, enemy] {
        refused(&mut g, 0, &format!("pick u{id}"));
        assert!(!g.legal_actions_vec(0).contains(&Action::Choose(id)));
    }
    ok(&mut g, 0, &format!("pick u{a}"));
    assert_eq!(selection(&g).chosen, sorted(vec![a, b]));
}

#[test]
fn confirm_needs_at_least_one_chosen_unit() {
    // Rule, Attacking 1: an attack is made by the units that attack: at least one.
    let mut g = duel();
    let a = put(&mut g, 0, UnitKind::Knight, "heran");
    let b = put(&mut g, 0, UnitKind::Soldier, "heran");
    ok(&mut g, 0, "attack city:heran");
    ok(&mut g, 0, &format!("hold u{a}"));
    ok(&mut g, 0, &format!("hold u{b}"));
    assert!(!g.legal_actions_vec(0).contains(&Action::Confirm));
    refused(&mut g, 0, "confirm");
    ok(&mut g, 0, &format!("pick u{b}"));
    ok(&mut g, 0, "confirm");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (1, 2, false));
    assert!(!unit(&g, a).exhausted);
}

#[test]
fn a_single_unit_in_reach_attacks_at_once_without_a_selection() {
    // [decision] When exactly one unit could be chosen there is nothing to choose.
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    ok(&mut g, 0, "attack city:heran");
    assert!(g.pending().is_empty());
    assert!(unit(&g, k).exhausted);
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn withdrawing_a_selection_changes_nothing() {
    // [decision] A started attack, interception or help may be called off before Confirm: the game
    // is exactly as before and the player decides again.
    let mut g = duel();
    put(&mut g, 0, UnitKind::Knight, "heran");
    let s = put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    let before = g.clone();
    ok(&mut g, 0, "attack P2@heran");
    ok(&mut g, 0, &format!("hold u{s}"));
    ok(&mut g, 0, "withdraw");
    assert_eq!(
        g, before,
        "withdrawing an attack restores the state exactly"
    );

    // Interception: back to the interception decision.
    let mut g = duel();
    put(&mut g, 0, UnitKind::Knight, "heran");
    put(&mut g, 0, UnitKind::Soldier, "heran");
    let mover = put(&mut g, 1, UnitKind::Soldier, "altera");
    g.current = 1;
    ok(&mut g, 1, &format!("move u{mover} heran"));
    assert_eq!(to_act(&g), 0);
    let before = g.clone();
    ok(&mut g, 0, "intercept");
    assert_eq!(to_act(&g), 0);
    ok(&mut g, 0, "withdraw");
    assert_eq!(
        g, before,
        "withdrawing an interception restores the state exactly"
    );
    ok(&mut g, 0, "pass");
    assert!(g.pending().is_empty());

    // Helping the attacker: back to the help decision.
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    put(&mut g, 0, UnitKind::Monster, "heran");
    put(&mut g, 1, UnitKind::Knight, "heran");
    put(&mut g, 2, UnitKind::Soldier, "heran");
    put(&mut g, 2, UnitKind::Soldier, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(to_act(&g), 2);
    let before = g.clone();
    ok(&mut g, 2, "help-attack");
    ok(&mut g, 2, "withdraw");
    assert_eq!(g, before, "withdrawing help restores the state exactly");
    ok(&mut g, 2, "pass");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (3, 2, true));
}

#[test]
fn interception_with_a_chosen_subset_of_units() {
    // Rule, Interception: "each other player with an army within Reach of that area may at once
    // attack the entering army" -- an attack, so the interceptor Exhausts the units it chooses.
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let s = put(&mut g, 0, UnitKind::Soldier, "heran");
    let mover = put(&mut g, 1, UnitKind::Soldier, "altera");
    g.current = 1;
    ok(&mut g, 1, &format!("move u{mover} heran"));
    assert_eq!(to_act(&g), 0);
    ok(&mut g, 0, "intercept");
    assert_eq!(
        selection(&g).purpose,
        Purpose::Intercept {
            mover: 1,
            area: area("heran")
        }
    );
    ok(&mut g, 0, &format!("hold u{s}"));
    ok(&mut g, 0, "confirm");
    // Helpers after the interceptor: the defender (nothing else in Reach) is skipped; the held-back
    // Soldier belongs to the intercepting army, not to another army: it cannot help. Resolved.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attacker, r.attack, r.defence, r.success),
        (0, 2, 1, true)
    );
    assert!(g.unit(mover).is_none());
    assert!(unit(&g, k).exhausted && !unit(&g, s).exhausted);
    assert!(g.pending().is_empty());
    assert_eq!(to_act(&g), 1, "back to the mover's turn");
}

#[test]
fn helping_the_attacker_with_a_chosen_subset_of_units() {
    // Rule, Attacking 2: "help the attacker by Exhausting units in Reach (their Power adds)"; a
    // player decides once.
    let mut g = scenario(3);
    own(&mut g, 0, "Kaul");
    own(&mut g, 1, "Iras");
    own(&mut g, 2, "Sae");
    let m = put(&mut g, 0, UnitKind::Monster, "heran");
    put(&mut g, 1, UnitKind::Knight, "heran");
    put(&mut g, 1, UnitKind::Knight, "heran");
    let hk = put(&mut g, 2, UnitKind::Knight, "heran");
    let hs = put(&mut g, 2, UnitKind::Soldier, "heran");
    let hf = put(&mut g, 2, hero("Shiara"), "kaul");
    ok(&mut g, 0, "attack P2@heran");
    assert!(
        unit(&g, m).exhausted,
        "the only unit in Reach attacks at once"
    );
    assert_eq!(g.pending_battle_numbers(), Some((3, 4)));
    // Seat 1 defends and has nothing else to commit: skipped. Seat 2 helps the attacker.
    assert_eq!(to_act(&g), 2);
    ok(&mut g, 2, "help-attack");
    assert_eq!(selection(&g).chosen, sorted(vec![hk, hs, hf]));
    ok(&mut g, 2, &format!("hold u{hs}"));
    ok(&mut g, 2, &format!("hold u{hf}"));
    ok(&mut g, 2, "confirm");
    // That was seat 2's one decision; seat 0 has nothing more: the battle resolves 5 against 4.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (5, 4, true, 2)
    );
    assert!(unit(&g, hk).exhausted);
    assert!(!unit(&g, hs).exhausted && !unit(&g, hf).exhausted);
}

#[test]
fn illegal_toggles_are_rejected_without_changing_the_state() {
    let mut g = duel();
    let a = put(&mut g, 0, UnitKind::Knight, "heran");
    let b = put(&mut g, 0, UnitKind::Soldier, "heran");
    let enemy = put(&mut g, 1, UnitKind::Soldier, "heran");
    refused(&mut g, 0, "confirm");
    refused(&mut g, 0, "withdraw");
    refused(&mut g, 0, &format!("pick u{a}"));
    ok(&mut g, 0, "attack P2@heran");
    refused(&mut g, 0, &format!("pick u{a}")); // already chosen
    refused(&mut g, 0, &format!("pick u{enemy}"));
    refused(&mut g, 0, "pick u999");
    refused(&mut g, 0, "hold u999");
    ok(&mut g, 0, &format!("hold u{b}"));
    refused(&mut g, 0, &format!("hold u{b}")); // not chosen
    refused(&mut g, 1, "confirm"); // not seat 1's selection
    refused(&mut g, 1, "withdraw");
    refused(&mut g, 0, "end"); // the selection must be finished first
    refused(&mut g, 0, "attack city:heran");
    refused(&mut g, 0, "pass");
    assert_eq!(selection(&g).chosen, vec![a]);
}

#[test]
fn hero_battle_bonus_counts_only_when_the_hero_is_committed() {
    // Rule, Attacking 3: "hero battle abilities apply now" -- for the heroes taking part.
    let mut g = duel();
    let brakka = put(&mut g, 0, hero("Brakka Stonehide"), "heran");
    put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Monster, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(g.pending_battle_numbers(), None, "no battle before Confirm");
    ok(&mut g, 0, &format!("hold u{brakka}"));
    ok(&mut g, 0, "confirm");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (1, 3, false));
    assert!(!unit(&g, brakka).exhausted);
    // Brakka now attacks alone: Power 3 + his attack bonus 1 = 4 against the Monster's 3.
    ok(&mut g, 0, "attack P2@heran");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (4, 3, true));
}

#[test]
fn hero_reach_belongs_to_her_whole_army_even_when_held_back() {
    // Rule, Reach: "Upgrades and heroes raise it; ... Shiara gives her army +1" -- an army being a
    // player's units in one area (Movement), Shiara's Reach serves every unit in her area whether or
    // not she attacks herself, and no unit in another area.
    let mut g = duel();
    let shiara = put(&mut g, 0, hero("Shiara"), "kaul");
    let s = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let other = put(&mut g, 0, UnitKind::Knight, "stavensport");
    ok(&mut g, 0, "attack city:heran");
    assert_eq!(selection(&g).chosen, sorted(vec![shiara, s]));
    assert!(!g.legal_actions_vec(0).contains(&Action::Choose(other)));
    ok(&mut g, 0, &format!("hold u{shiara}"));
    ok(&mut g, 0, "confirm");
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (1, 2, false));
    assert!(unit(&g, s).exhausted && !unit(&g, shiara).exhausted);
}

#[test]
fn the_selection_is_public_and_its_notation_round_trips() {
    let mut g = duel();
    put(&mut g, 0, UnitKind::Knight, "heran");
    let b = put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 0, UnitKind::Soldier, "kaul");
    ok(&mut g, 0, "attack city:heran");
    ok(&mut g, 0, &format!("hold u{b}"));
    let view = g.view(Observer::Seat(Seat(1)));
    assert_eq!(
        view.state.stack, g.stack,
        "the other player sees the selection"
    );
    let text = g.render_text(Observer::Spectator);
    assert!(text.contains("chooses the units to Exhaust"), "{text}");
    assert!(text.contains("u0:K+"), "chosen units are marked: {text}");
    let legal = g.legal_actions_vec(0);
    assert_eq!(legal.len(), 4, "pick, hold, confirm, withdraw: {legal:?}");
    for a in legal {
        let n = g.action_notation(&a);
        assert_eq!(g.parse_action(&n).unwrap(), a, "{n}");
    }
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains("\"select\""), "{json}");
    let back: Syba = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    back.validate().unwrap();
}

#[test]
fn inconsistent_selections_are_rejected_by_validate() {
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let s = put(&mut g, 0, UnitKind::Soldier, "heran");
    let enemy = put(&mut g, 1, UnitKind::Soldier, "heran");
    let far = put(&mut g, 0, UnitKind::Soldier, "stavensport");
    let sel = |chosen: Vec<u32>| {
        Pending::Select(Selection {
            seat: 0,
            purpose: Purpose::Attack(Target::Army {
                owner: 1,
                area: area("heran"),
            }),
            chosen,
        })
    };
    let mut h = g.clone();
    h.stack.push(sel(vec![k, s]));
    h.validate().unwrap();
    for (chosen, msg) in [
        (vec![k, k], "chosen twice"),
        (vec![enemy], "may not be"),
        (vec![far], "may not be"),
    ] {
        let mut h = g.clone();
        h.stack.push(sel(chosen));
        assert!(h.validate().unwrap_err().contains(msg));
    }
    let mut h = g.clone();
    h.stack.push(sel(vec![k]));
    h.stack.push(Pending::Trade {
        partner: 1,
        give: Bundle::default(),
        get: Bundle::default(),
        proposed: false,
        note: String::new(),
    });
    assert!(h.validate().unwrap_err().contains("innermost"));
    let mut h = g.clone();
    h.stack.push(Pending::Select(Selection {
        seat: 0,
        purpose: Purpose::Intercept {
            mover: 1,
            area: area("heran"),
        },
        chosen: vec![k],
    }));
    assert!(h.validate().unwrap_err().contains("interception"));
    let mut h = g.clone();
    h.stack.push(Pending::Select(Selection {
        seat: 1,
        purpose: Purpose::Attack(Target::City(city("Heran"))),
        chosen: vec![enemy],
    }));
    assert!(h.validate().unwrap_err().contains("whose turn"));
    let mut h = g.clone();
    h.stack.push(Pending::Select(Selection {
        seat: 0,
        purpose: Purpose::HelpAttack,
        chosen: vec![],
    }));
    assert!(h.validate().unwrap_err().contains("battle"));
    let mut h = g;
    h.stack.push(sel(vec![k]));
    h.stack.push(sel(vec![k]));
    assert!(h.validate().is_err());
}

#[test]
fn interception_with_units_from_several_areas_in_reach() {
    // Rule, Interception: the interceptor attacks the entering army, so (Attacking 1) with any of
    // its units in Reach of that area, from any number of areas: Shiara's army at Kaul (Reach 1) and
    // the Knight in Heran (Reach 0) intercept together; the Soldier in Stavensport is out of Reach.
    let mut g = duel();
    let shiara = put(&mut g, 0, hero("Shiara"), "kaul");
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let far = put(&mut g, 0, UnitKind::Soldier, "stavensport");
    let m1 = put(&mut g, 1, UnitKind::Monster, "altera");
    let m2 = put(&mut g, 1, UnitKind::Soldier, "altera");
    g.current = 1;
    all_in(&mut g, 1, "army altera heran");
    assert_eq!(to_act(&g), 0);
    ok(&mut g, 0, "intercept");
    assert_eq!(selection(&g).chosen, sorted(vec![shiara, k]));
    assert!(!g.legal_actions_vec(0).contains(&Action::Choose(far)));
    ok(&mut g, 0, "confirm");
    // Shiara 2 + Knight 2 = 4 against Monster 3 + Soldier 1 = 4: the entering army is Destroyed.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (4, 4, true, 2)
    );
    assert!(g.unit(m1).is_none() && g.unit(m2).is_none());
    assert!(unit(&g, shiara).exhausted && unit(&g, k).exhausted && !unit(&g, far).exhausted);
    assert!(g.pending().is_empty());
    assert_eq!(to_act(&g), 1);
}

#[test]
fn attacker_helps_only_with_their_other_armies() {
    // Rule, Attacking 2: "every player, the attacker included for their other armies, ... help the
    // attacker by Exhausting units in Reach". An army is a player's units in one area: units held
    // back from the attacking army (same area as an attacking unit) cannot help; the attacker's
    // army in another area in Reach can.
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "heran");
    let held = put(&mut g, 0, UnitKind::Soldier, "heran");
    let shiara = put(&mut g, 0, hero("Shiara"), "altera");
    let other = put(&mut g, 0, UnitKind::Soldier, "altera");
    put(&mut g, 1, UnitKind::Monster, "heran");
    put(&mut g, 1, UnitKind::Soldier, "heran");
    ok(&mut g, 0, "attack P2@heran");
    assert_eq!(selection(&g).chosen, sorted(vec![k, held, shiara, other]));
    for id in [held, shiara, other] {
        ok(&mut g, 0, &format!("hold u{id}"));
    }
    ok(&mut g, 0, "confirm");
    assert_eq!(g.pending_battle_numbers(), Some((2, 4)));
    // The defender has no other army in Reach (skipped); the attacker decides last.
    assert_eq!(to_act(&g), 0);
    assert_eq!(
        g.legal_actions_vec(0),
        vec![Action::HelpAttack, Action::Pass]
    );
    ok(&mut g, 0, "help-attack");
    // Only the army at Altera (Shiara's, Reach 1) may help: the held-back Soldier in Heran may not.
    assert_eq!(selection(&g).chosen, sorted(vec![shiara, other]));
    refused(&mut g, 0, &format!("pick u{held}"));
    assert!(!g.legal_actions_vec(0).contains(&Action::Choose(held)));
    ok(&mut g, 0, "confirm");
    // Knight 2 + Shiara 2 + Soldier 1 = 5 against Monster 3 + Soldier 1 = 4.
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (5, 4, true, 2)
    );
    assert!(
        !unit(&g, held).exhausted,
        "the held-back Soldier stays Rested"
    );

    // With only held-back units of the attacking army left, the attacker has nothing to help with.
    let mut g = duel();
    put(&mut g, 0, UnitKind::Knight, "heran");
    let held = put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Monster, "heran");
    ok(&mut g, 0, "attack P2@heran");
    ok(&mut g, 0, &format!("hold u{held}"));
    ok(&mut g, 0, "confirm");
    assert!(
        g.pending().is_empty(),
        "nobody could help: resolved at once"
    );
    let r = g.last_battle.clone().unwrap();
    assert_eq!((r.attack, r.defence, r.success), (2, 3, false));
}

// ------------------------------------------------------------------ choosing the units of an army move

#[test]
fn army_moves_as_a_chosen_group_held_back_units_stay() {
    // Rule, Moving: units of one area "may move together as an army": the mover chooses which go.
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "kaul");
    let s1 = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let s2 = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let fresh = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units.iter_mut().find(|u| u.id == fresh).unwrap().fresh = true;
    ok(&mut g, 0, "army kaul heran");
    let sel = selection(&g);
    assert_eq!(
        sel.purpose,
        Purpose::Move {
            from: area("kaul"),
            to: area("heran")
        }
    );
    assert_eq!(
        sel.chosen,
        sorted(vec![k, s1, s2]),
        "every unit that can move starts chosen (not the one bought this turn)"
    );
    // Nothing moved yet; the choice is exact: pick the held-back, hold the chosen, confirm, withdraw.
    assert!(g.units.iter().all(|u| u.area == area("kaul")));
    ok(&mut g, 0, &format!("hold u{s2}"));
    let mut legal = g.legal_actions_vec(0);
    legal.sort_by_key(|a| format!("{a:?}"));
    let mut want = vec![
        Action::Choose(s2),
        Action::HoldBack(k),
        Action::HoldBack(s1),
        Action::Confirm,
        Action::Withdraw,
    ];
    want.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(legal, want);
    refused(&mut g, 0, &format!("pick u{fresh}"));
    refused(&mut g, 0, "end");
    ok(&mut g, 0, "confirm");
    assert_eq!(unit(&g, k).area, area("heran"));
    assert_eq!(unit(&g, s1).area, area("heran"));
    assert_eq!(unit(&g, s2).area, area("kaul"), "held back: stays");
    assert_eq!(unit(&g, fresh).area, area("kaul"));
    for id in [k, s1] {
        assert_eq!(unit(&g, id).moves_used, 1);
        assert!(!unit(&g, id).exhausted, "a move within the allowance");
    }
    assert_eq!(unit(&g, s2).moves_used, 0, "and keeps its move");
    assert!(g.pending().is_empty(), "nobody could intercept");
    // The held-back Soldier moves on its own later.
    ok(&mut g, 0, &format!("move u{s2} heran"));
    assert_eq!(unit(&g, s2).area, area("heran"));
}

#[test]
fn army_move_may_leave_behind_a_unit_that_would_exhaust() {
    // Rule, Rested and Exhausted: "Exhausting a Rested unit lets it move one additional time" -- in an
    // army move the mover may leave behind a unit whose move would Exhaust it.
    let mut g = duel();
    let tired = put(&mut g, 0, UnitKind::Knight, "kaul");
    let s1 = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let s2 = put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units
        .iter_mut()
        .find(|u| u.id == tired)
        .unwrap()
        .moves_used = 1;
    let text = {
        ok(&mut g, 0, "army kaul heran");
        g.render_text(Observer::Spectator)
    };
    assert!(
        text.contains("chooses the units to move together from kaul to heran")
            && text.contains("(1 of them Exhaust to move)"),
        "{text}"
    );
    ok(&mut g, 0, &format!("hold u{tired}"));
    ok(&mut g, 0, "confirm");
    assert_eq!(unit(&g, tired).area, area("kaul"));
    assert!(!unit(&g, tired).exhausted, "left behind Rested");
    assert!(unit(&g, s1).area == area("heran") && unit(&g, s2).area == area("heran"));
    // Chosen, the same unit is Exhausted by the move (its one exhaust of the turn).
    let mut g = duel();
    let tired = put(&mut g, 0, UnitKind::Knight, "kaul");
    put(&mut g, 0, UnitKind::Soldier, "kaul");
    g.units
        .iter_mut()
        .find(|u| u.id == tired)
        .unwrap()
        .moves_used = 1;
    all_in(&mut g, 0, "army kaul heran");
    assert_eq!(unit(&g, tired).area, area("heran"));
    assert!(unit(&g, tired).exhausted && unit(&g, tired).exhausts_used == 1);
}

#[test]
fn army_move_selection_confirm_withdraw_and_interception_of_the_chosen_army() {
    // The move selection ends with confirm (at least one unit) or withdraw (nothing changed); the
    // interception round follows the move once, for the army that entered.
    let mut g = duel();
    let k = put(&mut g, 0, UnitKind::Knight, "kaul");
    let s = put(&mut g, 0, UnitKind::Soldier, "kaul");
    put(&mut g, 1, UnitKind::Monster, "heran");
    let before = g.clone();
    ok(&mut g, 0, "army kaul heran");
    ok(&mut g, 0, &format!("hold u{k}"));
    ok(&mut g, 0, "withdraw");
    assert_eq!(
        g, before,
        "withdrawing an army move restores the state exactly"
    );
    ok(&mut g, 0, "army kaul heran");
    ok(&mut g, 0, &format!("hold u{k}"));
    ok(&mut g, 0, &format!("hold u{s}"));
    assert!(!g.legal_actions_vec(0).contains(&Action::Confirm));
    refused(&mut g, 0, "confirm");
    ok(&mut g, 0, &format!("pick u{s}"));
    ok(&mut g, 0, "confirm");
    // P2's Monster in Heran (Reach 0) may intercept the Soldier that entered.
    assert_eq!(to_act(&g), 1);
    ok(&mut g, 1, "intercept");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attacker, r.attack, r.defence, r.success, r.destroyed),
        (1, 3, 1, true, 1)
    );
    assert!(g.unit(s).is_none());
    assert_eq!(unit(&g, k).area, area("kaul"), "the Knight stayed behind");
    assert_eq!(to_act(&g), 0);
}

#[test]
fn inconsistent_army_move_selections_are_rejected_by_validate() {
    let mut g = duel();
    let a = put(&mut g, 0, UnitKind::Knight, "kaul");
    let b = put(&mut g, 0, UnitKind::Soldier, "kaul");
    let far = put(&mut g, 0, UnitKind::Soldier, "heran");
    let mv = |seat: u8, from: &str, to: &str, chosen: Vec<u32>| {
        Pending::Select(Selection {
            seat,
            purpose: Purpose::Move {
                from: area(from),
                to: area(to),
            },
            chosen,
        })
    };
    let mut h = g.clone();
    h.stack.push(mv(0, "kaul", "heran", vec![a, b]));
    h.validate().unwrap();
    let json = serde_json::to_string(&h).unwrap();
    assert!(json.contains("\"move\":{\"from\""), "{json}");
    let back: Syba = serde_json::from_str(&json).unwrap();
    assert_eq!(back, h);
    for (p, msg) in [
        (mv(0, "kaul", "faer-alorn", vec![a]), "not adjacent"),
        (mv(1, "kaul", "heran", vec![]), "whose turn"),
        (mv(0, "kaul", "heran", vec![far]), "may not be"),
        (mv(0, "heran", "kaul", vec![far]), "at least two"),
    ] {
        let mut h = g.clone();
        h.stack.push(p);
        let e = h.validate().unwrap_err();
        assert!(e.contains(msg), "{e}");
    }
    let mut h = g.clone();
    h.stack.push(Pending::Intercept {
        mover: 1,
        area: area("kaul"),
        queue: vec![0],
        units: vec![a],
    });
    h.stack.push(mv(0, "kaul", "heran", vec![a]));
    assert!(h.validate().unwrap_err().contains("only pending decision"));
}

// ------------------------------------------------------------------ Start With, Once per Game, chips

/// A two-player game set up through the real setup: the starting player is seat 0, who chooses
/// `first`; seat 1 chooses `second`.
fn set_up(first: &str, second: &str) -> Syba {
    set_up_after(first, second, |_| {})
}

/// [`set_up`], with `prepare` applied to the state before the cities are chosen.
fn set_up_after(first: &str, second: &str, prepare: impl Fn(&mut Syba)) -> Syba {
    let mut g = Syba::new(&SybaOptions {
        players: 2,
        ..SybaOptions::default()
    })
    .unwrap();
    g.apply(Actor::Chance, &Action::StartingPlayer(0)).unwrap();
    ok(&mut g, 0, "race human-realm");
    ok(&mut g, 1, "race shadow-empire");
    prepare(&mut g);
    ok(&mut g, 0, &format!("choose {first}"));
    ok(&mut g, 1, &format!("choose {second}"));
    assert_eq!(g.phase, Phase::Play);
    g
}

#[test]
fn start_with_a_hero_places_the_hero_rested_in_the_starting_city() {
    // Setup 3: Start With units (here a hero: "cities, units, upgrades, buildings ... or a hero") are
    // placed Rested on the board and may act on the first turn. Heran: two Knights, the hero Mara
    // the Quartermaster (income 2 Production), 2/2/2.
    let c = content();
    let g = set_up("heran", "kaul");
    let mara = c.hero_by_name("Mara the Quartermaster").unwrap();
    assert_eq!(g.heroes[mara as usize], HeroState::InPlay);
    let u = g
        .units
        .iter()
        .find(|u| u.kind == UnitKind::Hero(mara))
        .unwrap()
        .clone();
    assert_eq!((u.owner, u.area), (0, area("heran")));
    assert!(
        !u.exhausted && !u.fresh,
        "Rested, and may act on the first turn"
    );
    assert_eq!(g.chips_used(0, ChipKind::Knight), 2);
    // First turn's income: Start With 2/2/2 + Heran 2/0/0 + Mara 2/0/0.
    assert_eq!(g.players[0].resources, [6, 2, 2]);
    let mut g = g;
    ok(&mut g, 0, &format!("move u{} kaul", u.id));
    assert_eq!(unit(&g, u.id).area, area("kaul"));
    // A hero no longer in the hero pile is not received ("anything no longer available is simply
    // not received"): Beregen gives Brakka Stonehide and three Soldiers.
    let brakka = c.hero_by_name("Brakka Stonehide").unwrap() as usize;
    let h = set_up_after("beregen", "kaul", |g| {
        g.heroes[brakka] = HeroState::Destroyed
    });
    assert!(
        !h.units.iter().any(|u| matches!(u.kind, UnitKind::Hero(_))),
        "a Destroyed hero is not received"
    );
    assert_eq!(h.chips_used(0, ChipKind::Soldier), 3);
    let h = set_up("beregen", "kaul");
    assert_eq!(h.heroes[brakka], HeroState::InPlay);
}

#[test]
fn start_with_buildings_attach_to_the_starting_city_in_turn_order() {
    // Setup 3: "then upgrades and buildings (buildings on any city you own)"; in turn order, so when
    // two Start With texts name the same building (Sae and Ilieth both give the Library), the first
    // player in turn order receives it and the second does not.
    let c = content();
    let library = c.card_by_name("Library").unwrap() as usize;
    let g = set_up("sae", "ilieth");
    assert_eq!(g.cards[library], CardState::Building(city("Sae")));
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 3);
    // Seat 0's first income: Start With 2/0/5 + Sae 0/0/1 + the Library +2 Research.
    assert_eq!(g.players[0].resources, [2, 0, 8]);
    let mut g = g;
    ok(&mut g, 0, "end");
    // Seat 1: Start With 1/1/3 + Ilieth 0/1/2, no Library.
    assert_eq!(g.players[1].resources, [1, 2, 5]);
    // The other way round, Ilieth's owner (first in turn order) has it.
    let g = set_up("ilieth", "sae");
    assert_eq!(g.cards[library], CardState::Building(city("Ilieth")));
}

#[test]
fn only_your_starting_city_gives_a_once_per_game_a_captured_city_gives_none() {
    // Cities: "Only your starting city has usable Start With / Once per Game texts; Once per Game is
    // lost if that city is captured before you use it."
    let mut g = duel();
    g.players[0].start_city = Some(city("Kaul")); // Once per Game: 2 Soldiers on a city you own
    g.players[0].once_available = true;
    g.players[1].start_city = Some(city("Iras")); // Once per Game: gain 5/2/0
    g.players[1].once_available = true;
    own(&mut g, 1, "Sae");
    // Seat 0 also owns Vastport, nobody's starting city (every other player Gives 3 Food), and
    // captures Iras, seat 1's starting city.
    own(&mut g, 0, "Vastport");
    put(&mut g, 0, UnitKind::Monster, "iras");
    put(&mut g, 0, UnitKind::Monster, "iras");
    all_in(&mut g, 0, "attack city:iras");
    assert_eq!(g.city_owner[city("Iras") as usize], Some(0));
    assert!(!g.players[1].once_available, "seat 1 lost theirs with Iras");
    // Seat 0's only Once per Game is Kaul's: one action per city they own, none without a target
    // (Vastport's and Iras's texts take none).
    let once = |g: &Syba, seat: u8| -> Vec<Action> {
        g.legal_actions_vec(seat)
            .into_iter()
            .filter(|a| matches!(a, Action::OncePerGame(_)))
            .collect()
    };
    let mut want: Vec<Action> = ["Kaul", "Vastport", "Iras"]
        .iter()
        .map(|n| Action::OncePerGame(EffectTarget::City(city(n))))
        .collect();
    want.sort_by_key(|a| format!("{a:?}"));
    let mut got = once(&g, 0);
    got.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(got, want);
    refused(&mut g, 0, "once");
    ok(&mut g, 0, "once city:vastport");
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 2);
    // Used: the other cities seat 0 owns give no further Once per Game.
    assert!(once(&g, 0).is_empty());
    // Seat 1 lost its starting city: it has none, though it still owns Sae.
    ok(&mut g, 0, "end");
    assert_eq!(to_act(&g), 1);
    assert!(once(&g, 1).is_empty());
    refused(&mut g, 1, "once");
}

#[test]
fn a_destroyed_chip_frees_a_chip_to_buy_again() {
    // Discard, Destroy: Soldiers, Knights and Monsters are chips, not cards: a Destroyed one returns
    // to its owner's supply (Units: "No free chip, no purchase").
    let mut g = duel();
    for _ in 0..11 {
        put(&mut g, 0, UnitKind::Soldier, "kaul");
    }
    let doomed = put(&mut g, 0, UnitKind::Soldier, "heran");
    put(&mut g, 1, UnitKind::Monster, "heran");
    g.players[0].resources = [10, 0, 0];
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 12);
    refused(&mut g, 0, "buy soldier kaul");
    ok(&mut g, 0, "end");
    // Seat 1's Monster destroys the Soldier in Heran.
    ok(&mut g, 1, "attack P1@heran");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (3, 1, true, 1)
    );
    assert!(g.unit(doomed).is_none());
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 11);
    ok(&mut g, 1, "end");
    ok(&mut g, 0, "buy soldier kaul");
    assert_eq!(g.chips_used(0, ChipKind::Soldier), 12);
    refused(&mut g, 0, "buy soldier kaul");
}

// ------------------------------------------------------------------ trade notes

#[test]
fn trade_proposal_carries_a_bounded_non_binding_note() {
    // Trade: "any resources, units and cities (and non-binding promises as free text) both ways".
    use crate::state::TRADE_NOTE_MAX;
    let mut g = duel();
    g.players[0].resources = [3, 0, 0];
    refused(&mut g, 0, "note hello"); // no trade being composed
    ok(&mut g, 0, "trade P2");
    assert!(g.actions_sampled(Seat(0)), "a note is free text");
    assert!(!g.actions_sampled(Seat(1)));
    assert!(
        !g.legal_actions_vec(0)
            .iter()
            .any(|a| matches!(a, Action::TradeNote(_))),
        "no note to clear yet"
    );
    refused(&mut g, 1, "note I am not the proposer");
    let promise = "I will not attack  Kaul next round";
    ok(&mut g, 0, &format!("note {promise}"));
    let note_of = |g: &Syba| match g.stack.last() {
        Some(Pending::Trade { note, .. }) => note.clone(),
        other => panic!("expected a trade, got {other:?}"),
    };
    assert_eq!(
        note_of(&g),
        promise,
        "the text as written, inner spaces kept"
    );
    assert!(
        g.legal_actions_vec(0)
            .contains(&Action::TradeNote(String::new())),
        "a set note may be cleared"
    );
    // The bound: 200 characters (counted as characters, not bytes) are accepted, 201 refused, and
    // so are line breaks and surrounding spaces; a refused note changes nothing.
    let longest: String = "é".repeat(TRADE_NOTE_MAX);
    let mut h = g.clone();
    h.apply(Actor::Seat(Seat(0)), &Action::TradeNote(longest.clone()))
        .unwrap();
    assert_eq!(note_of(&h), longest);
    for bad in [
        "é".repeat(TRADE_NOTE_MAX + 1),
        "two\nlines".to_string(),
        " padded".to_string(),
    ] {
        let before = g.clone();
        let e = g
            .apply(Actor::Seat(Seat(0)), &Action::TradeNote(bad.clone()))
            .unwrap_err();
        assert!(matches!(e, tabula_core::ActionError::Illegal(_)), "{e:?}");
        assert_eq!(g, before, "a refused note changes nothing");
    }
    // Notation and JSON forms round-trip.
    for a in [
        Action::TradeNote(promise.to_string()),
        Action::TradeNote(String::new()),
    ] {
        let text = g.action_notation(&a);
        assert_eq!(g.parse_action(&text).unwrap(), a, "{text}");
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(g.parse_action(&json).unwrap(), a, "{json}");
    }
    assert_eq!(
        serde_json::to_string(&Action::TradeNote("x".into())).unwrap(),
        r#"{"trade_note":"x"}"#
    );
    ok(&mut g, 0, "offer production");
    ok(&mut g, 0, "ask city:iras");
    ok(&mut g, 0, "propose");
    refused(&mut g, 0, "note too late");
    refused(&mut g, 1, "note not mine");
    assert!(!g.actions_sampled(Seat(0)) && !g.actions_sampled(Seat(1)));
    // Shown to the players: in every view, the terminal drawing and the state's JSON.
    for obs in [Observer::Seat(Seat(1)), Observer::Spectator] {
        let v = serde_json::to_string(&g.view(obs)).unwrap();
        assert!(v.contains(promise), "{v}");
    }
    let text = g.render_text(Observer::Seat(Seat(1)));
    assert!(
        text.contains(&format!("promises (not binding): \"{promise}\"")),
        "{text}"
    );
    let json = serde_json::to_string(&g).unwrap();
    assert!(json.contains(&format!("\"note\":\"{promise}\"")), "{json}");
    let back: Syba = serde_json::from_str(&json).unwrap();
    assert_eq!(back, g);
    back.validate().unwrap();
    // A state written without a note reads as an empty note.
    let plain = json.replace(&format!(",\"note\":\"{promise}\""), "");
    let back: Syba = serde_json::from_str(&plain).unwrap();
    assert_eq!(note_of(&back), "");
    // validate() enforces the bound on written states too.
    let long = json.replace(promise, &"x".repeat(TRADE_NOTE_MAX + 1));
    let bad: Syba = serde_json::from_str(&long).unwrap();
    assert!(bad.validate().unwrap_err().contains("at most 200"));
    // No engine effect: accepting Gives exactly the bundles.
    ok(&mut g, 1, "accept");
    assert_eq!(g.players[0].resources[0], 2);
    assert_eq!(g.players[1].resources[0], 1);
    assert_eq!(g.city_owner[city("Iras") as usize], Some(0));
    assert!(g.pending().is_empty());
}

// ------------------------------------------------------------------ plain words

/// The words of `text` (notation) taken by `seat`, the same for every observer.
fn said(g: &Syba, seat: u8, text: &str) -> String {
    let a = g.parse_action(text).unwrap();
    let w = g.action_words(Actor::Seat(Seat(seat)), &a, Observer::Spectator);
    for s in 0..g.players.len() {
        assert_eq!(
            g.action_words(Actor::Seat(Seat(seat)), &a, Observer::Seat(Seat(s as u8))),
            w
        );
    }
    w
}

#[test]
fn words_name_seats_by_race_and_units_by_their_race_names() {
    let c = content();
    let mut g = duel();
    g.players[0].race = c.race_by_slug("human-realm");
    g.players[1].race = c.race_by_slug("forces-of-the-fey");
    let human = c.races[g.players[0].race.unwrap() as usize].clone();
    let fey = c.races[g.players[1].race.unwrap() as usize].clone();
    let p1 = format!("P1 {}", human.name);
    let p2 = format!("P2 {}", fey.name);
    let greywood = c.areas[area("greywood") as usize].name.clone();
    let knight = put(&mut g, 0, UnitKind::Knight, "greywood");
    let soldier = put(&mut g, 0, UnitKind::Soldier, "bell");
    put(&mut g, 1, UnitKind::Monster, "greywood");
    let bell = c.areas[area("bell") as usize].name.clone();
    assert_eq!(
        said(&g, 0, &format!("move u{soldier} greywood")),
        format!("{p1}: {} in {bell} → {greywood}", human.soldier)
    );
    assert_eq!(
        said(&g, 0, &format!("rest u{knight}")),
        format!("{p1} rests {} in {greywood}", human.knight)
    );
    ok(&mut g, 0, &format!("move u{soldier} greywood"));
    assert_eq!(
        said(&g, 1, "intercept"),
        format!("{p2} intercepts {p1}'s army in {greywood}")
    );
    assert_eq!(said(&g, 1, "pass"), format!("{p2} passes"));
}

/// Issue 22: the action that ends a battle says its result, named by race, area and city, the
/// same for every observer (Syba hides nothing); the actions that do not end one say none.
#[test]
fn words_tell_the_result_of_the_battle_an_action_ends() {
    let c = content();
    let mut g = duel();
    g.players[0].race = c.race_by_slug("human-realm");
    g.players[1].race = c.race_by_slug("forces-of-the-fey");
    let p1 = g.seat_name(Seat(0));
    let p2 = g.seat_name(Seat(1));
    let greywood = c.areas[area("greywood") as usize].name.clone();
    put(&mut g, 0, UnitKind::Knight, "greywood");
    let soldier = put(&mut g, 0, UnitKind::Soldier, "bell");
    put(&mut g, 1, UnitKind::Monster, "greywood");
    ok(&mut g, 0, &format!("move u{soldier} greywood"));
    // The interception does not end the battle yet: the Human may still help the defence.
    assert_eq!(
        said(&g, 1, "intercept"),
        format!("{p2} intercepts {p1}'s army in {greywood}")
    );
    ok(&mut g, 1, "intercept");
    // Committing the Knight, the only army that may help, ends it: 3 against 3 goes to the
    // attacker, and both units are destroyed.
    assert_eq!(
        said(&g, 0, "help-defend greywood"),
        format!(
            "{p1} helps the defence from {greywood} — {p2} intercepts {p1}'s army in {greywood}: \
             3 against 3, wins, destroying 2 units"
        )
    );
    // So does the defender's pass: the Monster's 3 against the entering Soldier's 1.
    assert_eq!(
        said(&g, 0, "pass"),
        format!(
            "{p1} passes — {p2} intercepts {p1}'s army in {greywood}: 3 against 1, wins, \
             destroying 1 unit"
        )
    );
    // Describing changed nothing: the battle is still pending, and applying gives that result.
    assert!(g.last_battle.is_none());
    ok(&mut g, 0, "pass");
    let r = g.last_battle.clone().unwrap();
    assert_eq!(
        (r.attack, r.defence, r.success, r.destroyed),
        (3, 1, true, 1)
    );
}

/// Issue 22: an attack that is resolved at once (one unit, nobody to help) says its result in its own
/// words: repelled by a city's strength, or winning and taking the city.
#[test]
fn words_of_an_attack_resolved_at_once() {
    let mut g = duel();
    let p1 = g.seat_name(Seat(0));
    put(&mut g, 0, UnitKind::Soldier, "iras");
    // Iras is a Town (City Strength 3) of P2: a Soldier's 1 is repelled.
    assert_eq!(
        said(&g, 0, "attack city:iras"),
        format!("{p1} attacks Iras: 1 against 3, is repelled")
    );
    let mut g = duel();
    put(&mut g, 0, UnitKind::Monster, "heran");
    // Heran, an unowned Village (2), falls to a Monster's 3.
    assert_eq!(
        said(&g, 0, "attack city:heran"),
        format!("{p1} attacks Heran: 3 against 2, wins, taking Heran")
    );
    ok(&mut g, 0, "attack city:heran");
    assert_eq!(g.city_owner[city("Heran") as usize], Some(0));
}

#[test]
fn words_for_buying_trading_and_ending_the_turn() {
    let mut g = duel();
    g.players[0].resources = [15, 0, 0];
    let p1 = g.seat_name(Seat(0));
    let p2 = g.seat_name(Seat(1));
    assert_eq!(
        said(&g, 0, "buy knight kaul"),
        format!("{p1} buys a knight in Kaul")
    );
    assert_eq!(
        said(&g, 0, "attack city:iras"),
        format!("{p1} attacks Iras")
    );
    assert_eq!(
        said(&g, 0, "trade P2"),
        format!("{p1} opens a trade with {p2}")
    );
    ok(&mut g, 0, "trade P2");
    assert_eq!(
        said(&g, 0, "offer production"),
        format!("{p1} offers 1 production")
    );
    assert_eq!(said(&g, 0, "ask food"), format!("{p1} asks for 1 food"));
    assert_eq!(said(&g, 0, "cancel"), format!("{p1} cancels the trade"));
    assert_eq!(said(&g, 0, "end"), format!("{p1} ends the turn"));
}

#[test]
fn words_for_the_start_of_the_game() {
    let g = Syba::new(&SybaOptions::default()).unwrap();
    assert_eq!(
        g.action_words(
            Actor::Chance,
            &Action::StartingPlayer(1),
            Observer::Spectator
        ),
        "P2 goes first (drawn by lot)"
    );
    let c = content();
    assert_eq!(
        g.action_words(
            Actor::Seat(Seat(0)),
            &Action::ChooseRace(0),
            Observer::Spectator
        ),
        format!("P1 plays {}", c.races[0].name)
    );
}

#[test]
fn random_games_word_every_action_for_every_observer() {
    for seed in 0..4 {
        let g = Syba::new(&SybaOptions::default()).unwrap();
        tabula_core::tools::check_words(&g, &mut tabula_core::rng_from_seed(seed), 400)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

// ------------------------------------------------------------------ why a click does nothing

/// A click that leads to no legal action says why, from what every player sees: whose unit, city or
/// army it is; a unit bought this turn; an area that is not next to the unit's.
#[test]
fn explain_cells_says_whose_unit_city_or_army_and_why_a_unit_cannot_go() {
    let c = content();
    let mut g = duel();
    let p2 = g.seat_name(Seat(1));
    let name = |a: &str| c.areas[area(a) as usize].name.clone();
    let theirs = put(&mut g, 1, UnitKind::Monster, "greywood");
    let mine = put(&mut g, 0, UnitKind::Soldier, "bell");
    let ask = |g: &Syba, cells: &[&str]| {
        let cells: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
        g.explain_cells(Seat(0), &cells)
    };
    let said = ask(&g, &[&format!("u{theirs}")]).unwrap();
    assert!(said.starts_with(&format!("That is {p2}'s ")), "{said}");
    assert!(
        said.ends_with(&format!(" in {}", name("greywood"))),
        "{said}"
    );
    // Another player's city, and an area only another player's army holds.
    let iras = c.areas[c
        .area_city
        .iter()
        .position(|x| *x == Some(city("Iras")))
        .unwrap()]
    .id
    .clone();
    assert_eq!(ask(&g, &[&iras]).unwrap(), format!("Iras is {p2}'s city"));
    assert_eq!(
        ask(&g, &["greywood"]).unwrap(),
        format!("The army in {} is {p2}'s", name("greywood"))
    );
    // A move to an area that is not next to the unit's.
    let far = (0..c.areas.len() as u8)
        .find(|&a| a != area("bell") && !c.adjacent[area("bell") as usize].contains(&a))
        .unwrap();
    let far_id = c.areas[far as usize].id.clone();
    assert_eq!(
        ask(&g, &[&format!("u{mine}"), &far_id]).unwrap(),
        format!(
            "{} is not next to {}: a unit moves one area at a time",
            c.areas[far as usize].name,
            name("bell")
        )
    );
    // A unit bought this turn.
    g.units.iter_mut().find(|u| u.id == mine).unwrap().fresh = true;
    let said = ask(&g, &[&format!("u{mine}")]).unwrap();
    assert!(said.contains("was bought this turn"), "{said}");
    // Nothing sure to say about an own unit's legal first click or an empty area.
    g.units.iter_mut().find(|u| u.id == mine).unwrap().fresh = false;
    assert_eq!(ask(&g, &[&format!("u{mine}")]), None);
}

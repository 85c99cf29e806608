//! One or more tests per clause of `docs/rules/territories.md`, each named after its clause and built
//! from an explicit position. See `common/mod.rs` for the unshuffled grid the positions start from.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common::*;
use tabula_core::{Actor, Game, Observer, SeatResult, ToAct};
use territories::{
    Ability, Action, BankTake, Card, Cell, Item, Phase, Piece, Res, Territories, TerritoriesOptions,
};

// ---------- Components ----------

/// Rules, Components: "40 cards: ranks 2, 3, 4, 5, 6, 8, 9, 10, J (=11), Q (=12) in the four suits".
#[test]
fn components_territory_deck_is_forty_cards_without_sevens() {
    let deck = Card::deck();
    assert_eq!(deck.len(), 40);
    assert!(
        deck.iter()
            .all(|c| c.number != 7 && (2..=12).contains(&c.number))
    );
    for r in Res::ALL {
        assert_eq!(deck.iter().filter(|c| c.suit == r).count(), 10);
    }
    assert!("7H".parse::<Card>().is_err());
    assert!("KH".parse::<Card>().is_err());
    assert!("AH".parse::<Card>().is_err());
    assert_eq!("JC".parse::<Card>().unwrap().number, 11);
    assert_eq!("QD".parse::<Card>().unwrap().number, 12);
}

/// Rules, Components: "The bank is finite [decision]: a payout the bank cannot cover is paid as far as
/// it goes, roller first, then the other player".
#[test]
fn components_finite_bank_pays_as_far_as_it_goes_roller_first() {
    let mut g = before_roll(B);
    put(&mut g, B, Piece::Town, (1, 1)); // touches 9H
    put(&mut g, W, Piece::Town, (1, 2)); // touches 9H
    drain_bank(&mut g, W, Res::H, 1);
    let white_h = res(&g, W)[0];
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, B)[0], 1, "the roller is paid first");
    assert_eq!(
        res(&g, W)[0],
        white_h,
        "nothing is left for the other player"
    );
    assert_eq!(g.bank[0], 0);
}

/// Rules, Components: "resources paid to the bank return to it".
#[test]
fn components_resources_paid_return_to_the_bank() {
    let mut g = main_phase(8);
    give(&mut g, W, "HSCD");
    act(&mut g, W, Action::Build((0, 0)));
    assert_eq!(g.bank, [13, 13, 13, 13]);
    assert_eq!(res(&g, W), [0, 0, 0, 0]);
}

/// Rules, Components (table): Town costs H S C D and scores 1; Fort D D D D replaces a Town and scores 2;
/// Capital D D C C H H S S replaces a Fort/Barracks/Temple/Palace and scores 3.
#[test]
fn components_building_costs_and_points_follow_the_table() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Town, (1, 1));
    give(&mut g, W, "CCC");
    let l = legal(&g, W);
    assert!(
        !l.contains(&Action::Upgrade((1, 1), Piece::Barracks)),
        "CCC is short of CCCC"
    );
    give(&mut g, W, "DDDD");
    assert!(legal(&g, W).contains(&Action::Upgrade((1, 1), Piece::Fort)));
    assert!(
        !legal(&g, W).contains(&Action::Upgrade((1, 1), Piece::Capital)),
        "a Capital never replaces a Town"
    );
    act(&mut g, W, Action::Upgrade((1, 1), Piece::Fort));
    assert_eq!(g.points(W), 2);
    give(&mut g, W, "DDHHSS"); // with the three C: D D C C H H S S and one C over
    act(&mut g, W, Action::Upgrade((1, 1), Piece::Capital));
    assert_eq!(g.points(W), 3);
    assert_eq!(res(&g, W), [0, 0, 1, 0]);
}

/// Rules, Components: "A replaced piece goes back to its owner's supply and can be built again."
#[test]
fn components_replaced_piece_returns_to_supply() {
    let mut g = main_phase(8);
    for x in 0..5 {
        for y in 0..2 {
            if g.buildings.len() < 8 {
                put(&mut g, W, Piece::Town, (x, y));
            }
        }
    }
    give(&mut g, W, "HSCDDDDD");
    assert_eq!(g.supply(W, Piece::Town), 0);
    assert!(!legal(&g, W).iter().any(|a| matches!(a, Action::Build(_))));
    act(&mut g, W, Action::Upgrade((0, 0), Piece::Fort));
    assert_eq!(g.supply(W, Piece::Town), 1);
    assert!(legal(&g, W).contains(&Action::Build((5, 4))));
}

/// Rules, Components: "A building can be built only while its piece is in the owner's supply."
#[test]
fn components_building_only_while_piece_in_supply() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Palace, (1, 1));
    put(&mut g, W, Piece::Town, (3, 3));
    give(&mut g, W, "SSSS");
    refused(&g, W, Action::Upgrade((3, 3), Piece::Palace));
}

// ---------- The grid ----------

/// Rules, The grid: "deal 20 face up as a grid 5 wide by 4 tall; the other 20 face down are the
/// territory draw pile"; "a 5x4 grid has 6x5 = 30 intersections".
#[test]
fn grid_deal_is_5_by_4_with_30_intersections_and_20_card_pile() {
    let g = dealt();
    assert_eq!(g.grid.len(), 20);
    assert_eq!(g.pile.len(), 20);
    assert_eq!(g.intersections().len(), 30);
    assert_eq!(g.card_at((4, 3)), Some(card("QS")));
    assert_eq!(g.pile[0], card("2C"));
    assert_eq!(g.view(Observer::Seat(W)).pile_count, 20);
}

/// Rules, The grid: "A building on an intersection touches the 1 to 4 cards that share that corner."
#[test]
fn grid_building_touches_one_to_four_cards() {
    let g = dealt();
    assert_eq!(g.touched((0, 0)).count(), 1);
    assert_eq!(g.touched((1, 0)).count(), 2);
    assert_eq!(g.touched((1, 1)).count(), 4);
    assert_eq!(g.touched((5, 4)).count(), 1);
    let cards: Vec<Card> = g.touched((1, 1)).map(|c| c.card).collect();
    assert_eq!(cards, vec![card("2H"), card("3H"), card("8H"), card("9H")]);
}

/// Rules, The grid: "One building per intersection."
#[test]
fn grid_one_building_per_intersection() {
    let mut g = main_phase(8);
    put(&mut g, B, Piece::Town, (1, 1));
    give(&mut g, W, "HSCD");
    refused(&g, W, Action::Build((1, 1)));
    refused(&g, W, Action::Build((7, 7)));
    assert!(legal(&g, W).contains(&Action::Build((2, 1))));
}

/// Rules, The grid: "[decision] No distance or connection rule: any empty intersection may take a Town".
#[test]
fn grid_no_distance_rule_any_empty_intersection_takes_a_town() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Town, (1, 1));
    give(&mut g, W, "HSCD");
    let builds = legal(&g, W)
        .into_iter()
        .filter(|a| matches!(a, Action::Build(_)))
        .count();
    assert_eq!(builds, 29);
    act(&mut g, W, Action::Build((1, 2)));
}

// ---------- Setup ----------

/// Rules, Setup 1: "A random player is first": a chance action, one half each.
#[test]
fn setup_first_player_is_a_chance_action() {
    let mut g = Territories::new(&TerritoriesOptions::default()).unwrap();
    assert_eq!(g.to_act(), ToAct::Chance);
    let mut rng = tabula_core::rng_from_seed(7);
    let deal = g.sample_chance(&mut rng).unwrap();
    chance(&mut g, deal);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out, vec![(Action::First(W), 0.5), (Action::First(B), 0.5)]);
    chance(&mut g, Action::First(B));
    assert_eq!(g.to_act(), ToAct::Seat(B));
}

/// Rules, Setup 2: Player 1 places a Town free; Player 2 places a Town free, then a second Town free
/// and takes 1 resource for each card it touches; Player 1 then places a second Town with the same grant.
#[test]
fn setup_snake_order_with_grants_for_second_towns() {
    let mut g = dealt();
    assert_eq!(g.to_act(), ToAct::Seat(W));
    act(&mut g, W, Action::Place((0, 0)));
    assert_eq!(res(&g, W), [0, 0, 0, 0], "the first Town takes nothing");
    assert_eq!(g.to_act(), ToAct::Seat(B));
    act(&mut g, B, Action::Place((5, 4)));
    assert_eq!(res(&g, B), [0, 0, 0, 0]);
    assert_eq!(g.to_act(), ToAct::Seat(B));
    act(&mut g, B, Action::Place((1, 1))); // 2H 3H 8H 9H
    assert_eq!(res(&g, B), [4, 0, 0, 0]);
    assert_eq!(g.to_act(), ToAct::Seat(W));
    refused(&g, W, Action::Place((1, 1)));
    act(&mut g, W, Action::Place((1, 2))); // 8H 9H 2S 3S
    assert_eq!(res(&g, W), [2, 2, 0, 0]);
    assert_eq!(g.phase, Phase::Roll);
    assert_eq!(g.current, W, "Player 1 takes the first turn");
    assert_eq!(g.to_act(), ToAct::Chance);
}

// ---------- A turn: the roll ----------

/// Rules, A turn 1: "Roll 2D6 (a chance event)": the 11 sums with their probabilities.
#[test]
fn turn_roll_is_a_chance_event_with_eleven_sums() {
    let g = before_roll(W);
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 11);
    let total: f64 = out.iter().map(|(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert_eq!(out[5], (Action::Roll(7), 6.0 / 36.0));
    assert_eq!(out[0], (Action::Roll(2), 1.0 / 36.0));
}

/// Rules, A turn 1: "Every player, not only the roller, collects"; Town, Fort, Barracks: 1 resource.
#[test]
fn turn_production_for_every_player_not_only_the_roller() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Town, (1, 1)); // 9H
    put(&mut g, B, Piece::Fort, (2, 2)); // 9H 10H 3S 4S
    put(&mut g, B, Piece::Barracks, (1, 2)); // 8H 9H 2S 3S
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, W), [1, 0, 0, 0]);
    assert_eq!(res(&g, B), [2, 0, 0, 0]);
    assert_eq!(g.phase, Phase::Main);
}

/// Rules, A turn 1: "A building touching two cards with the rolled number collects for each".
#[test]
fn turn_building_touching_two_matching_cards_collects_for_each() {
    let mut g = before_roll(W);
    set_cell(&mut g, (1, 0), "9D");
    put(&mut g, W, Piece::Town, (1, 1)); // 2H 9D 8H 9H
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, W), [1, 0, 0, 1]);
}

/// Rules, A turn 1 with Rules, Expand: a card added by Expand produces like a dealt one, for the
/// buildings on its corners, off the dealt rectangle on either side.
#[test]
fn turn_production_from_cards_added_by_expand() {
    let mut g = before_roll(W);
    // Two 9s from the pile, added left of row 1 and right of row 3 as Expand would.
    for (at, c) in [((-1, 1), "9C"), ((5, 3), "9D")] {
        let c = card(c);
        g.pile.retain(|&x| x != c);
        g.grid.push(Cell { at, card: c });
    }
    put(&mut g, W, Piece::Town, (-1, 2)); // touches (-1, 1) 9C
    put(&mut g, W, Piece::Town, (0, 2)); // touches (-1, 1) 9C, 8H, 2S
    put(&mut g, B, Piece::Town, (6, 4)); // touches (5, 3) 9D
    put(&mut g, B, Piece::Fort, (1, 1)); // touches 9H
    put(&mut g, W, Piece::Town, (4, 0)); // touches 4H 5H only
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, W), [0, 0, 2, 0]);
    assert_eq!(res(&g, B), [1, 0, 0, 1]);
}

/// Rules, A turn 1: "Palace: 2 resources of that card's suit."
#[test]
fn turn_palace_collects_two() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Palace, (1, 1));
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, W), [2, 0, 0, 0]);
}

/// Rules, A turn 1: "Temple: 1 resource of any suit, chosen by the Temple's owner" — also off turn,
/// after the roller's own choices.
#[test]
fn turn_temple_owner_chooses_any_suit() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Temple, (1, 1)); // 9H
    put(&mut g, B, Piece::Temple, (2, 2)); // 9H
    chance(&mut g, Action::Roll(9));
    assert_eq!(g.to_act(), ToAct::Seat(W));
    let choices = legal(&g, W);
    assert_eq!(choices.len(), 4);
    act(&mut g, W, Action::TempleTake(Res::D));
    assert_eq!(
        g.to_act(),
        ToAct::Seat(B),
        "then the Temple's owner off turn"
    );
    act(&mut g, B, Action::TempleTake(Res::C));
    assert_eq!(res(&g, W), [0, 0, 0, 1]);
    assert_eq!(res(&g, B), [0, 0, 1, 0]);
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(g.to_act(), ToAct::Seat(W));
}

/// Rules, A turn 1: Temple choices are limited to what the finite bank still holds.
#[test]
fn turn_temple_choice_only_among_suits_the_bank_holds() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Temple, (1, 1));
    drain_bank(&mut g, B, Res::S, 0);
    chance(&mut g, Action::Roll(9));
    refused(&g, W, Action::TempleTake(Res::S));
    assert_eq!(legal(&g, W).len(), 3);
}

/// Rules, A turn 1: "Capital: 1 resource for every card it touches (each of that card's suit), plus the
/// top card of the territory draw pile"; "it collects its grant once per roll however many of its cards
/// match [decision]".
#[test]
fn turn_capital_collects_every_touched_card_once_plus_a_territory_card() {
    let mut g = before_roll(W);
    set_cell(&mut g, (1, 0), "9D");
    put(&mut g, W, Piece::Capital, (1, 1)); // 2H 9D 8H 9H: two match
    let top = g.pile[0];
    chance(&mut g, Action::Roll(9));
    assert_eq!(
        res(&g, W),
        [3, 0, 0, 1],
        "once per touched card, not per match"
    );
    assert_eq!(g.hands[0].territories, vec![top]);
    assert_eq!(g.pile.len(), 19);
}

/// Rules, A turn 1: a Capital none of whose cards match collects nothing.
#[test]
fn turn_capital_without_matching_card_collects_nothing() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Capital, (1, 1));
    chance(&mut g, Action::Roll(12));
    assert_eq!(res(&g, W), [0, 0, 0, 0]);
    assert!(g.hands[0].territories.is_empty());
}

// ---------- A turn: a roll of 7 ----------

/// Rules, A turn 2: "A roll of 7: nobody collects. Each player holding more than 7 cards (resource cards
/// plus territory cards [decision]) discards down to 7, choosing which; then the roller draws a
/// territory card."
#[test]
fn turn_seven_discards_down_to_seven_then_roller_draws() {
    let mut g = before_roll(W);
    put(&mut g, W, Piece::Capital, (1, 1));
    give(&mut g, W, "HHHHSSSSC"); // 9 cards
    give(&mut g, B, "HHSSCD"); // 6 resources
    hand_card(&mut g, B, "2C");
    hand_card(&mut g, B, "3C"); // + 2 territory cards = 8
    chance(&mut g, Action::Roll(7));
    assert_eq!(g.to_act(), ToAct::Seat(W), "the roller discards first");
    act(&mut g, W, Action::Discard(Item::Res(Res::H)));
    assert_eq!(g.to_act(), ToAct::Seat(W));
    act(&mut g, W, Action::Discard(Item::Res(Res::S)));
    assert_eq!(g.to_act(), ToAct::Seat(B));
    act(&mut g, B, Action::Discard(Item::Territory(card("3C"))));
    assert_eq!(
        *g.pile.last().unwrap(),
        card("3C"),
        "a discarded territory goes under the pile"
    );
    assert_eq!(g.phase, Phase::Main);
    assert_eq!(res(&g, W), [3, 3, 1, 0], "nobody collected");
    assert_eq!(
        g.hands[0].territories,
        vec![card("4C")],
        "the roller drew the top card"
    );
    assert_eq!(g.hand_size(B), 7);
}

/// Rules, A turn 2: a player with 7 cards or fewer keeps them; option `hand_limit_counts_territories`
/// false counts resource cards only.
#[test]
fn turn_seven_hand_limit_counts_territories_option() {
    let mut g = before_roll(W);
    give(&mut g, B, "HHSSCDD");
    hand_card(&mut g, B, "2C");
    let mut h = g.clone();
    chance(&mut g, Action::Roll(7));
    assert_eq!(
        g.to_act(),
        ToAct::Seat(B),
        "7 resources + 1 territory card = 8"
    );
    h.options.hand_limit_counts_territories = false;
    chance(&mut h, Action::Roll(7));
    assert_eq!(
        h.phase,
        Phase::Main,
        "7 resources alone are within the limit"
    );
}

// ---------- A turn: building ----------

/// Rules, A turn 3: "Build a Town, or upgrade as in the table", as often as they can pay.
#[test]
fn turn_build_town_and_upgrade_as_often_as_they_can_pay() {
    let mut g = main_phase(8);
    give(&mut g, W, "HSCDHSCDHHHH");
    act(&mut g, W, Action::Build((0, 0)));
    act(&mut g, W, Action::Build((5, 4)));
    act(&mut g, W, Action::Upgrade((0, 0), Piece::Temple));
    assert_eq!(g.points(W), 3);
    assert!(!legal(&g, W).iter().any(|a| matches!(a, Action::Build(_))));
}

// ---------- A turn: trades with the opponent ----------

/// Rules, A turn 3: "Trade with the opponent: offer any resources and/or territory cards for any
/// resources and/or territory cards; the opponent accepts or declines."
#[test]
fn trade_offer_accepted_moves_both_sides() {
    let mut g = main_phase(8);
    give(&mut g, W, "HH");
    give(&mut g, B, "S");
    hand_card(&mut g, W, "QD");
    hand_card(&mut g, B, "2C");
    act(&mut g, W, Action::Give(Item::Res(Res::H)));
    act(&mut g, W, Action::Give(Item::Territory(card("QD"))));
    act(&mut g, W, Action::AskRes(Res::S));
    act(&mut g, W, Action::AskTerritory);
    assert_eq!(g.offers_made, 1);
    act(&mut g, W, Action::Propose);
    assert_eq!(g.to_act(), ToAct::Seat(B));
    act(&mut g, B, Action::Accept);
    assert_eq!(legal(&g, B), vec![Action::HandOver(card("2C"))]);
    act(&mut g, B, Action::HandOver(card("2C")));
    assert_eq!(res(&g, W), [1, 1, 0, 0]);
    assert_eq!(res(&g, B), [1, 0, 0, 0]);
    assert_eq!(g.hands[0].territories, vec![card("2C")]);
    assert_eq!(g.hands[1].territories, vec![card("QD")]);
    assert_eq!(g.to_act(), ToAct::Seat(W));
    assert!(g.offer.is_none());
}

/// Rules, A turn 3: "Nothing moves without acceptance."
#[test]
fn trade_declined_moves_nothing() {
    let mut g = main_phase(8);
    give(&mut g, W, "HH");
    give(&mut g, B, "S");
    let before = (g.hands, g.bank);
    act(&mut g, W, Action::Give(Item::Res(Res::H)));
    act(&mut g, W, Action::AskRes(Res::S));
    act(&mut g, W, Action::Propose);
    act(&mut g, B, Action::Decline);
    assert_eq!((g.hands, g.bank), before);
    assert_eq!(g.to_act(), ToAct::Seat(W));
}

/// Rules, A turn 3: the opponent may accept only what they can pay; a proposed offer they can no
/// longer pay (a hand edited by code: play never reaches one) can only be declined.
#[test]
fn trade_answer_is_decline_only_when_the_opponent_cannot_pay() {
    let mut g = main_phase(8);
    give(&mut g, W, "H");
    give(&mut g, B, "S");
    act(&mut g, W, Action::AskRes(Res::S));
    act(&mut g, W, Action::Propose);
    assert_eq!(legal(&g, B), vec![Action::Accept, Action::Decline]);
    g.hands[1].resources = [0; 4];
    g.bank[Res::S.index()] += 1;
    assert_eq!(legal(&g, B), vec![Action::Decline]);
    refused(&g, B, Action::Accept);
    act(&mut g, B, Action::Decline);
    assert_eq!(g.to_act(), ToAct::Seat(W));
}

/// Rules, What each player may see: "**[decision]** A seat's legal actions depend only on what that
/// seat can see: two positions that look the same to it give it the same list. So a trade offer may
/// ask for any suit, up to as many resource cards in all as the opponent holds (and for territory
/// cards, unnamed, up to as many as the opponent holds); an offer the opponent cannot fulfil can only
/// be declined."
#[test]
fn visibility_legal_actions_depend_only_on_what_the_seat_sees_decision() {
    // Two positions that differ only in the suits of Black's hand: three Spades and a territory
    // card, or three Hearts and a territory card. White's hand and every count White sees agree
    // (the bank differs, as it must, by what Black took from it).
    let position = |suits: &str| {
        let mut g = main_phase(8);
        give(&mut g, W, "HS");
        give(&mut g, B, suits);
        hand_card(&mut g, B, "2C");
        g.validate().unwrap();
        g
    };
    let spades = position("SSS");
    let hearts = position("HHH");
    assert_eq!(legal(&spades, W), legal(&hearts, W), "the main phase");
    for suit in Res::ALL {
        assert!(
            legal(&spades, W).contains(&Action::AskRes(suit)),
            "ask {suit}"
        );
    }
    // While composing: any suit, until as many resource cards as Black holds are asked for.
    let mut a = spades.clone();
    let mut b = hearts.clone();
    for step in [
        Action::AskRes(Res::D),
        Action::AskRes(Res::C),
        Action::AskTerritory,
    ] {
        act(&mut a, W, step.clone());
        act(&mut b, W, step.clone());
        assert_eq!(legal(&a, W), legal(&b, W), "after {step:?}");
    }
    assert!(
        legal(&a, W).contains(&Action::AskRes(Res::D)),
        "a third card"
    );
    act(&mut a, W, Action::AskRes(Res::H));
    act(&mut b, W, Action::AskRes(Res::H));
    assert_eq!(legal(&a, W), legal(&b, W));
    for suit in Res::ALL {
        refused(&a, W, Action::AskRes(suit));
    }
    refused(&a, W, Action::AskTerritory);
    // An offer Black cannot fulfil can only be declined; one it can, accepted.
    act(&mut a, W, Action::Propose);
    assert_eq!(legal(&a, B), vec![Action::Decline]);
    refused(&a, B, Action::Accept);
    act(&mut a, B, Action::Decline);
    assert_eq!(res(&a, B), [0, 3, 0, 0], "nothing moved");
    let mut c = hearts.clone();
    act(&mut c, W, Action::AskRes(Res::H));
    act(&mut c, W, Action::Propose);
    assert_eq!(legal(&c, B), vec![Action::Accept, Action::Decline]);
    act(&mut c, B, Action::Accept);
    assert_eq!(res(&c, W), [2, 1, 0, 0]);
}

/// Decision 11 widened the list of asks (any suit, up to the opponent's count) and narrowed
/// nothing: a record written before it (random play under the old list, `tests/data/`, 1364
/// actions with 250 asks, 56 accepted offers and 19 territory cards handed over) replays to its
/// end, with the seed audit and its recorded result.
#[test]
fn visibility_records_written_before_the_decision_still_replay() {
    let text = include_str!("../data/record_before_any_suit_asks.json");
    let json: tabula_core::record::JsonRecord = serde_json::from_str(text).unwrap();
    let record = tabula_core::record::Record::<Territories>::from_json(&json).unwrap();
    assert!(
        record
            .actions
            .iter()
            .filter(|a| matches!(a.action, Action::AskRes(_)))
            .count()
            >= 100
    );
    let end = tabula_core::tools::replay(&record, true).unwrap();
    assert!(end.to_act().outcome().is_some(), "the game ended");
    assert_eq!(end.to_act().outcome(), record.result.as_ref());
}

/// Rules, A turn 3: an offer asks at most as many cards as the opponent holds (both counts are
/// public): nothing of a player with an empty hand.
#[test]
fn trade_offer_asks_at_most_what_the_opponent_holds() {
    let mut g = main_phase(8);
    give(&mut g, W, "H");
    for suit in Res::ALL {
        refused(&g, W, Action::AskRes(suit));
    }
    refused(&g, W, Action::AskTerritory);
    give(&mut g, B, "S");
    act(&mut g, W, Action::AskRes(Res::D));
    refused(&g, W, Action::AskRes(Res::S));
    refused(&g, W, Action::Build((0, 0)));
}

/// Rules, A turn 3: "At most three offers per turn [decision] (so a turn always ends)."
#[test]
fn trade_at_most_three_offers_per_turn() {
    let mut g = main_phase(8);
    give(&mut g, W, "H");
    for _ in 0..3 {
        act(&mut g, W, Action::Give(Item::Res(Res::H)));
        act(&mut g, W, Action::Withdraw);
    }
    assert_eq!(g.offers_made, 3);
    refused(&g, W, Action::Give(Item::Res(Res::H)));
    act(&mut g, W, Action::EndTurn);
    assert_eq!(g.offers_made, 0, "the count restarts each turn");
}

// ---------- A turn: bank trades ----------

/// Rules, A turn 3: "Trade with the bank, 4 for 1: four resources of one suit [decision] for one
/// resource of any suit or for the top territory card."
#[test]
fn bank_trade_four_of_one_suit_for_one_of_any() {
    let mut g = main_phase(8);
    give(&mut g, W, "HHHSCD");
    refused(&g, W, Action::Bank(Res::H, BankTake::Res(Res::S)));
    give(&mut g, W, "H");
    act(&mut g, W, Action::Bank(Res::H, BankTake::Res(Res::S)));
    assert_eq!(res(&g, W), [0, 2, 1, 1]);
    give(&mut g, W, "DDD");
    let top = g.pile[0];
    act(&mut g, W, Action::Bank(Res::D, BankTake::Territory));
    assert_eq!(g.hands[0].territories, vec![top]);
    assert_eq!(res(&g, W), [0, 2, 1, 0]);
}

/// Rules, Winning and losing: "[decision] If the territory draw pile is empty, drawing gives nothing";
/// a bank trade cannot buy a card from an empty pile, and a Capital's draw gives nothing.
#[test]
fn empty_pile_drawing_gives_nothing() {
    let mut g = before_roll(W);
    let pile: Vec<Card> = g.pile.clone();
    for c in pile {
        hand_card(&mut g, B, &c.to_string());
    }
    put(&mut g, W, Piece::Capital, (1, 1));
    chance(&mut g, Action::Roll(9));
    assert_eq!(res(&g, W), [4, 0, 0, 0]);
    assert!(g.hands[0].territories.is_empty());
    give(&mut g, W, "DDDD");
    refused(&g, W, Action::Bank(Res::D, BankTake::Territory));
}

// ---------- A turn: abilities ----------

/// Rules, A turn 3: "Use a building's ability, each ability at most once per turn [decision]".
#[test]
fn ability_each_at_most_once_per_turn() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Fort, (1, 1));
    hand_card(&mut g, W, "QC");
    hand_card(&mut g, W, "JC");
    give(&mut g, W, "HHHHHH");
    act(&mut g, W, Action::Use(Ability::Survey));
    chance(&mut g, Action::Die(1));
    act(&mut g, W, Action::Pay(Res::H));
    act(&mut g, W, Action::Survey((0, 0), card("QC")));
    assert_eq!(g.phase, Phase::Main);
    refused(&g, W, Action::Use(Ability::Survey));
    act(&mut g, W, Action::EndTurn);
    assert_eq!(g.abilities_used, 0);
}

/// Rules, Survey: "needs a Capital or a Fort" and a territory card in hand.
#[test]
fn survey_needs_capital_or_fort_and_a_territory_card() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Fort, (1, 1));
    refused(&g, W, Action::Use(Ability::Survey));
    hand_card(&mut g, W, "QC");
    assert!(legal(&g, W).contains(&Action::Use(Ability::Survey)));
    put(&mut g, W, Piece::Town, (1, 1));
    refused(&g, W, Action::Use(Ability::Survey));
    put(&mut g, W, Piece::Capital, (1, 1));
    assert!(legal(&g, W).contains(&Action::Use(Ability::Survey)));
}

/// Rules, Survey: "roll 1D6, pay that many resources of your choice ... replace any one grid card with a
/// territory card from your hand; the removed card goes under the draw pile [decision]".
#[test]
fn survey_pays_the_roll_and_replaces_a_grid_card_under_the_pile() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Fort, (1, 1));
    hand_card(&mut g, W, "QC");
    give(&mut g, W, "HHS");
    act(&mut g, W, Action::Use(Ability::Survey));
    assert_eq!(g.to_act(), ToAct::Chance, "the die is rolled first");
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 6);
    chance(&mut g, Action::Die(2));
    assert_eq!(legal(&g, W), vec![Action::Pay(Res::H), Action::Pay(Res::S)]);
    act(&mut g, W, Action::Pay(Res::H));
    act(&mut g, W, Action::Pay(Res::S));
    assert_eq!(
        legal(&g, W).len(),
        20,
        "any of the 20 grid cards with the one card in hand"
    );
    act(&mut g, W, Action::Survey((0, 0), card("QC")));
    assert_eq!(g.card_at((0, 0)), Some(card("QC")));
    assert_eq!(*g.pile.last().unwrap(), card("2H"));
    assert_eq!(res(&g, W), [1, 0, 0, 0]);
    assert!(g.hands[0].territories.is_empty());
}

/// Rules, Survey: "if you hold fewer, you lose all your resources and nothing else happens".
#[test]
fn survey_short_of_the_roll_loses_all_resources() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Fort, (1, 1));
    hand_card(&mut g, W, "QC");
    give(&mut g, W, "HS");
    let grid = g.grid.clone();
    act(&mut g, W, Action::Use(Ability::Survey));
    chance(&mut g, Action::Die(3));
    assert_eq!(res(&g, W), [0, 0, 0, 0]);
    assert_eq!(g.bank, [13, 13, 13, 13]);
    assert_eq!(g.grid, grid);
    assert_eq!(g.hands[0].territories, vec![card("QC")]);
    assert_eq!(g.phase, Phase::Main);
}

/// Rules, Raid: "pay S H D C; you and the opponent each roll 1D6; if yours is strictly higher, destroy
/// one opponent Town of your choice (the pawn returns to their supply)".
#[test]
fn raid_strictly_higher_destroys_an_opponent_town() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Barracks, (1, 1));
    put(&mut g, B, Piece::Town, (3, 3));
    put(&mut g, B, Piece::Fort, (4, 4));
    give(&mut g, W, "SHDC");
    act(&mut g, W, Action::Use(Ability::Raid));
    assert_eq!(res(&g, W), [0, 0, 0, 0], "paid up front");
    let mut out = Vec::new();
    g.chance_outcomes(&mut out);
    assert_eq!(out.len(), 36);
    chance(&mut g, Action::Duel(4, 3));
    assert_eq!(legal(&g, W), vec![Action::Raze((3, 3))], "only Towns");
    act(&mut g, W, Action::Raze((3, 3)));
    assert!(g.building_at((3, 3)).is_none());
    assert_eq!(g.supply(B, Piece::Town), 8);
}

/// Rules, Raid: a tie or a lower die destroys nothing (the cost stays paid).
#[test]
fn raid_tie_destroys_nothing() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Capital, (1, 1));
    put(&mut g, B, Piece::Town, (3, 3));
    give(&mut g, W, "SHDC");
    act(&mut g, W, Action::Use(Ability::Raid));
    chance(&mut g, Action::Duel(3, 3));
    assert_eq!(g.phase, Phase::Main);
    assert!(g.building_at((3, 3)).is_some());
    refused(&g, W, Action::Use(Ability::Raid));
}

/// Rules, Convert: "take one opponent building that touches a card that your Capital or Temple also
/// touches: it is replaced by your own piece of the same type or of a lower type".
#[test]
fn convert_takes_a_building_touching_a_card_your_temple_touches() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Temple, (1, 1)); // cells (0,0) (1,0) (0,1) (1,1)
    put(&mut g, B, Piece::Fort, (2, 2)); // cells (1,1) (2,1) (1,2) (2,2): shares (1,1)
    put(&mut g, B, Piece::Town, (4, 4)); // shares nothing
    give(&mut g, W, "SHDC");
    act(&mut g, W, Action::Use(Ability::Convert));
    chance(&mut g, Action::Duel(5, 1));
    let mut l = legal(&g, W);
    l.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(
        l,
        vec![
            Action::Convert((2, 2), Piece::Fort),
            Action::Convert((2, 2), Piece::Town)
        ]
    );
    act(&mut g, W, Action::Convert((2, 2), Piece::Town));
    let b = g.building_at((2, 2)).unwrap();
    assert_eq!((b.owner, b.piece), (W, Piece::Town));
    assert_eq!(g.supply(B, Piece::Fort), 2);
    assert_eq!(g.points(B), 1);
}

/// Rules, Convert: "With no such piece in your supply the ability cannot be used."
#[test]
fn convert_cannot_be_used_without_a_fitting_piece_in_supply() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Temple, (1, 1));
    put(&mut g, B, Piece::Town, (2, 2));
    for x in 0..5 {
        if g.on_grid(W, Piece::Town) < 8 {
            put(&mut g, W, Piece::Town, (x, 4));
        }
    }
    for x in 0..3 {
        put(&mut g, W, Piece::Town, (x, 0));
    }
    assert_eq!(g.supply(W, Piece::Town), 0);
    give(&mut g, W, "SHDC");
    refused(&g, W, Action::Use(Ability::Convert));
}

/// Rules, Expand: "roll 1D6, pay that many ... add a territory card from your hand to the grid": on an
/// empty cell sharing a full edge with the grid; its new corners become intersections.
#[test]
fn expand_adds_a_card_sharing_an_edge_and_new_corners_become_intersections() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Palace, (1, 1));
    hand_card(&mut g, W, "QC");
    give(&mut g, W, "H");
    act(&mut g, W, Action::Use(Ability::Expand));
    chance(&mut g, Action::Die(1));
    act(&mut g, W, Action::Pay(Res::H));
    let l = legal(&g, W);
    assert_eq!(l.len(), 18, "5+5+4+4 cells around a 5x4 grid");
    assert!(l.contains(&Action::Expand((5, 0), card("QC"))));
    assert!(l.contains(&Action::Expand((-1, 3), card("QC"))));
    refused(&g, W, Action::Expand((5, 4), card("QC")));
    refused(&g, W, Action::Expand((-1, -1), card("QC")));
    refused(&g, W, Action::Expand((2, 2), card("QC")));
    act(&mut g, W, Action::Expand((5, 0), card("QC")));
    assert_eq!(g.grid.len(), 21);
    assert_eq!(g.intersections().len(), 32);
    assert!(g.is_intersection((6, 1)));
}

/// Rules, Expand: "(all of them and nothing else happens if you hold fewer)".
#[test]
fn expand_short_of_the_roll_loses_all_resources() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Capital, (1, 1));
    hand_card(&mut g, W, "QC");
    give(&mut g, W, "HSCDD");
    act(&mut g, W, Action::Use(Ability::Expand));
    chance(&mut g, Action::Die(6));
    assert_eq!(res(&g, W), [0, 0, 0, 0]);
    assert_eq!(g.grid.len(), 20);
}

// ---------- Winning and losing ----------

/// Rules, Winning and losing: "A player who reaches 15 points wins at once."
#[test]
fn winning_fifteen_points_wins_at_once() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Capital, (0, 0));
    put(&mut g, W, Piece::Palace, (1, 0));
    put(&mut g, W, Piece::Fort, (2, 0));
    put(&mut g, W, Piece::Fort, (3, 0));
    for x in 0..5 {
        put(&mut g, W, Piece::Town, (x, 4));
    }
    assert_eq!(g.points(W), 14);
    give(&mut g, W, "HSCD");
    act(&mut g, W, Action::Build((2, 2)));
    match g.to_act() {
        ToAct::Over(o) => {
            assert_eq!(o.results, vec![SeatResult::Win, SeatResult::Loss]);
        }
        t => panic!("expected the game over, got {t:?}"),
    }
    assert!(legal(&g, W).is_empty());
}

/// Rules, Winning and losing: "A player who ends two of their own turns in a row with no buildings on
/// the grid loses."
#[test]
fn losing_two_own_turns_in_a_row_without_buildings() {
    let mut g = main_phase(8);
    put(&mut g, B, Piece::Town, (3, 3));
    act(&mut g, W, Action::EndTurn);
    assert_eq!(g.bare_turns, [1, 0]);
    chance(&mut g, Action::Roll(12));
    act(&mut g, B, Action::EndTurn);
    chance(&mut g, Action::Roll(12));
    act(&mut g, W, Action::EndTurn);
    match g.to_act() {
        ToAct::Over(o) => assert_eq!(o.results, vec![SeatResult::Loss, SeatResult::Win]),
        t => panic!("expected the game over, got {t:?}"),
    }
}

/// Rules, Winning and losing: the two turns must be in a row: a turn ended with a building resets it.
#[test]
fn losing_needs_two_turns_in_a_row() {
    let mut g = main_phase(8);
    put(&mut g, B, Piece::Town, (3, 3));
    act(&mut g, W, Action::EndTurn);
    chance(&mut g, Action::Roll(12));
    act(&mut g, B, Action::EndTurn);
    chance(&mut g, Action::Roll(12));
    give(&mut g, W, "HSCD");
    act(&mut g, W, Action::Build((0, 0)));
    act(&mut g, W, Action::EndTurn);
    assert_eq!(g.bare_turns, [0, 0]);
    assert_eq!(g.to_act(), ToAct::Chance);
}

/// Rules, Winning and losing: "[decision] After 200 turns (100 each) without a winner, the player with
/// more points wins; equal points is a draw."
#[test]
fn turn_limit_more_points_wins_equal_points_draw() {
    let mut g = main_phase(8);
    g.turn = 199;
    put(&mut g, W, Piece::Town, (0, 0));
    put(&mut g, B, Piece::Fort, (3, 3));
    let mut h = g.clone();
    act(&mut g, W, Action::EndTurn);
    assert_eq!(
        g.to_act().outcome().unwrap().results,
        vec![SeatResult::Loss, SeatResult::Win]
    );
    put(&mut h, W, Piece::Temple, (0, 0));
    act(&mut h, W, Action::EndTurn);
    assert_eq!(
        h.to_act().outcome().unwrap().results,
        vec![SeatResult::Draw, SeatResult::Draw]
    );
}

// ---------- What each player may see ----------

/// Rules, What each player may see: "the opponent sees only how many of each kind (resource cards,
/// territory cards) a player holds. The draw pile's order is hidden from everyone."
#[test]
fn visibility_own_hand_and_only_counts_of_the_other() {
    let mut g = main_phase(8);
    give(&mut g, W, "HHS");
    give(&mut g, B, "CD");
    hand_card(&mut g, B, "QD");
    let v = g.view(Observer::Seat(W));
    assert_eq!(v.hands[0].resources, Some([2, 1, 0, 0]));
    assert_eq!(v.hands[1].resources, None);
    assert_eq!(v.hands[1].territories, None);
    assert_eq!(
        (v.hands[1].resource_count, v.hands[1].territory_count),
        (2, 1)
    );
    let json = serde_json::to_string(&g.view(Observer::Spectator)).unwrap();
    assert!(
        !json.contains("QD"),
        "a spectator never sees a hand: {json}"
    );
    assert!(!json.contains("\"pile\""));
    assert!(json.contains("\"pile_count\":19"));
}

/// Rules, What each player may see: a discarded or handed-over territory card is hidden from those who
/// may not see it.
#[test]
fn visibility_describe_action_hides_hidden_cards() {
    let g = main_phase(8);
    let a = Action::Discard(Item::Territory(card("QD")));
    assert_eq!(
        g.describe_action(Actor::Seat(B), &a, Observer::Seat(B))
            .unwrap(),
        "discard QD"
    );
    for o in [Observer::Seat(W), Observer::Spectator] {
        let d = g.describe_action(Actor::Seat(B), &a, o).unwrap();
        assert!(!d.contains("QD"), "{d}");
    }
    let h = Action::HandOver(card("QD"));
    assert!(
        !g.describe_action(Actor::Seat(B), &h, Observer::Spectator)
            .unwrap()
            .contains("QD")
    );
    let deal = Action::Deal(Card::deck());
    let d = g
        .describe_action(Actor::Chance, &deal, Observer::Seat(W))
        .unwrap();
    assert!(!d.contains("QD"), "the pile's cards are not shown: {d}");
}

// ---------- Input handling ----------

/// Engine contract: bad input gets a clear error and changes nothing.
#[test]
fn bad_input_is_refused_with_a_clear_error() {
    let g = main_phase(8);
    for text in [
        "",
        "build",
        "build 1",
        "build x,2",
        "upgrade 1,1 king",
        "roll 13",
        "discard 7H",
        "fly",
    ] {
        let e = g.parse_action(text).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    let mut c = g.clone();
    let e = c.apply(Actor::Seat(W), &Action::Build((0, 0))).unwrap_err();
    assert!(e.to_string().contains("H S C D"), "{e}");
    assert_eq!(c, g);
    assert!(c.apply(Actor::Seat(B), &Action::EndTurn).is_err());
    assert!(c.apply(Actor::Chance, &Action::Roll(7)).is_err());
    assert_eq!(c, g);
    // A deal must be a permutation of the 40 cards.
    let mut fresh = Territories::new(&TerritoriesOptions::default()).unwrap();
    let mut bad = Card::deck();
    bad[0] = bad[1];
    assert!(fresh.apply(Actor::Chance, &Action::Deal(bad)).is_err());
    assert!(
        fresh
            .apply(Actor::Chance, &Action::Deal(Vec::new()))
            .is_err()
    );
}

/// The JSON state format: a hand-edited inconsistent state is rejected with a message.
#[test]
fn state_json_validation_rejects_inconsistent_states() {
    let g = main_phase(8);
    let json = serde_json::to_value(&g).unwrap();
    let back: Territories = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, g);
    let mut broken = json.clone();
    broken["bank"][0] = serde_json::json!(12);
    let s: Territories = serde_json::from_value(broken).unwrap();
    assert!(s.validate().unwrap_err().contains("resource H"));
    let mut dup = g.clone();
    dup.pile[0] = dup.pile[1];
    assert!(dup.validate().unwrap_err().contains("twice"));
    let mut stacked = g.clone();
    put(&mut stacked, W, Piece::Town, (9, 9));
    assert!(stacked.validate().unwrap_err().contains("intersection"));
    let mut bad_card = serde_json::to_value(&g).unwrap();
    bad_card["pile"][0] = serde_json::json!("7H");
    assert!(serde_json::from_value::<Territories>(bad_card).is_err());
}

/// Notation: documented forms parse back to the same action.
#[test]
fn notation_round_trips() {
    let g = main_phase(8);
    for text in [
        "deal",
        "first 1",
        "roll 8",
        "die 3",
        "duel 5-2",
        "place -1,3",
        "temple H",
        "discard S",
        "discard 10H",
        "build 2,3",
        "upgrade 2,3 capital",
        "give QH",
        "give D",
        "ask S",
        "ask territory",
        "propose",
        "withdraw",
        "accept",
        "decline",
        "handover JC",
        "bank D>S",
        "bank D>territory",
        "use convert",
        "pay C",
        "survey 1,2 QH",
        "expand 5,0 2D",
        "raze 2,3",
        "convert 2,3 town",
        "end",
    ] {
        let a = g.parse_action(text).unwrap();
        assert_eq!(g.action_notation(&a), text);
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(g.parse_action(&json).unwrap(), a);
    }
}

/// Rules, Convert: the target may become "your own piece of the same type or of a lower type
/// (Capital > Fort/Barracks/Temple/Palace > Town), your choice among those in your supply"; a Capital
/// also gives Convert its reach.
#[test]
fn convert_capital_target_may_become_any_piece_of_the_same_or_a_lower_tier() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Capital, (1, 1));
    put(&mut g, B, Piece::Capital, (1, 2)); // shares cells (0,1) and (1,1)
    give(&mut g, W, "SHDC");
    act(&mut g, W, Action::Use(Ability::Convert));
    chance(&mut g, Action::Duel(6, 5));
    let mut pieces: Vec<Piece> = legal(&g, W)
        .into_iter()
        .map(|a| match a {
            Action::Convert(at, p) => {
                assert_eq!(at, (1, 2));
                p
            }
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    pieces.sort();
    // White's own Capital is on the grid, so not in the supply.
    assert_eq!(
        pieces,
        vec![
            Piece::Town,
            Piece::Fort,
            Piece::Barracks,
            Piece::Temple,
            Piece::Palace
        ]
    );
    act(&mut g, W, Action::Convert((1, 2), Piece::Palace));
    assert_eq!(g.points(W), 5);
    assert_eq!(g.points(B), 0);
    assert_eq!(g.supply(B, Piece::Capital), 1);
}

/// Rules, Raid: "needs a Capital or Barracks" and costs S H D C; [decision] it needs an opponent Town.
#[test]
fn raid_needs_capital_or_barracks_the_cost_and_an_opponent_town() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Fort, (1, 1));
    put(&mut g, B, Piece::Fort, (3, 3));
    give(&mut g, W, "SHDC");
    refused(&g, W, Action::Use(Ability::Raid));
    put(&mut g, W, Piece::Barracks, (1, 1));
    refused(&g, W, Action::Use(Ability::Raid));
    put(&mut g, B, Piece::Town, (4, 4));
    assert!(legal(&g, W).contains(&Action::Use(Ability::Raid)));
    g.hands[0].resources[Res::C.index()] -= 1;
    g.bank[Res::C.index()] += 1;
    refused(&g, W, Action::Use(Ability::Raid));
}

/// Options: an unknown option or an out-of-range value is an error listing the valid ones.
#[test]
fn options_are_checked_against_the_schema() {
    use tabula_core::options::parse_pairs;
    let o: TerritoriesOptions = parse_pairs(&["max_turns=50", "max_offers=1"]).unwrap();
    assert_eq!((o.max_turns, o.max_offers), (50, 1));
    let e = parse_pairs::<TerritoriesOptions, _>(&["bank=infinite"]).unwrap_err();
    assert!(e.to_string().contains("max_turns"), "{e}");
    let e = parse_pairs::<TerritoriesOptions, _>(&["max_turns=1"]).unwrap_err();
    assert!(e.to_string().contains("2..=2000"), "{e}");
    let bad = TerritoriesOptions {
        max_turns: 0,
        ..TerritoriesOptions::default()
    };
    assert!(Territories::new(&bad).is_err());
}

/// The terminal drawing shows the grid, the buildings and only what the observer may see.
#[test]
fn render_text_draws_the_grid_for_the_observer() {
    let mut g = main_phase(8);
    put(&mut g, W, Piece::Town, (1, 1));
    put(&mut g, B, Piece::Capital, (2, 2));
    hand_card(&mut g, B, "QD");
    let white = g.render_text(Observer::Seat(W));
    assert!(white.contains("QS") && white.contains("10H"), "{white}");
    assert!(white.contains('T') && white.contains('c'), "{white}");
    assert!(!white.contains("QD"), "{white}");
    let black = g.render_text(Observer::Seat(B));
    assert!(black.contains("QD"), "{black}");
}

/// Rules, Components + A turn 1: with a finite bank, Temple choices lapse once the bank is empty.
#[test]
fn components_finite_bank_temple_choices_lapse_when_the_bank_is_empty() {
    let mut g = before_roll(W);
    set_cell(&mut g, (1, 0), "9D");
    put(&mut g, W, Piece::Temple, (1, 1)); // 9D and 9H: two choices
    drain_bank(&mut g, B, Res::H, 1);
    drain_bank(&mut g, B, Res::S, 0);
    drain_bank(&mut g, B, Res::C, 0);
    drain_bank(&mut g, B, Res::D, 0);
    chance(&mut g, Action::Roll(9));
    assert_eq!(
        g.phase,
        Phase::Temple {
            seat: W,
            left: 2,
            next: 2
        }
    );
    assert_eq!(legal(&g, W), vec![Action::TempleTake(Res::H)]);
    act(&mut g, W, Action::TempleTake(Res::H));
    assert_eq!(g.phase, Phase::Main, "the second choice lapses");
    assert_eq!(res(&g, W), [1, 0, 0, 0]);
}

/// Rules, Setup + The grid: every empty intersection may take a setup Town (perft over the
/// placements: 30, then 29, then 28).
#[test]
fn setup_places_on_any_empty_intersection_perft() {
    let g = dealt();
    assert_eq!(tabula_core::tools::perft(&g, 1), 30);
    assert_eq!(tabula_core::tools::perft(&g, 2), 30 * 29);
    assert_eq!(tabula_core::tools::perft(&g, 3), 30 * 29 * 28);
}

/// The documented JSON form of actions.
#[test]
fn notation_json_form_of_actions_is_as_documented() {
    let cases = [
        (r#"{"build":[2,3]}"#, Action::Build((2, 3))),
        (
            r#"{"upgrade":[[2,3],"fort"]}"#,
            Action::Upgrade((2, 3), Piece::Fort),
        ),
        (r#"{"give":{"res":"H"}}"#, Action::Give(Item::Res(Res::H))),
        (
            r#"{"give":{"territory":"QH"}}"#,
            Action::Give(Item::Territory(card("QH"))),
        ),
        (
            r#"{"bank":["D",{"res":"S"}]}"#,
            Action::Bank(Res::D, BankTake::Res(Res::S)),
        ),
        (
            r#"{"bank":["D","territory"]}"#,
            Action::Bank(Res::D, BankTake::Territory),
        ),
        (r#"{"duel":[5,2]}"#, Action::Duel(5, 2)),
        (r#"{"first":0}"#, Action::First(W)),
        (r#""end_turn""#, Action::EndTurn),
    ];
    for (json, action) in cases {
        assert_eq!(serde_json::to_string(&action).unwrap(), json);
        assert_eq!(serde_json::from_str::<Action>(json).unwrap(), action);
    }
}

/// Engine contract: refusals name the rule that forbids the action.
#[test]
fn refusals_explain_which_rule_forbids_the_action() {
    let mut g = dealt();
    act(&mut g, W, Action::Place((1, 1)));
    let e = g
        .clone()
        .apply(Actor::Seat(B), &Action::Place((1, 1)))
        .unwrap_err();
    assert!(e.to_string().contains("already has a building"), "{e}");
    let e = g
        .clone()
        .apply(Actor::Seat(B), &Action::Place((9, 9)))
        .unwrap_err();
    assert!(e.to_string().contains("not an intersection"), "{e}");
    let e = g
        .clone()
        .apply(Actor::Seat(B), &Action::EndTurn)
        .unwrap_err();
    assert!(e.to_string().contains("setup placement"), "{e}");
    let e = g
        .clone()
        .apply(Actor::Seat(W), &Action::Place((2, 2)))
        .unwrap_err();
    assert!(e.to_string().contains("not"), "{e}");
    let mut m = main_phase(8);
    put(&mut m, W, Piece::Fort, (1, 1));
    let e = m
        .clone()
        .apply(Actor::Seat(W), &Action::Use(Ability::Survey))
        .unwrap_err();
    assert!(e.to_string().contains("territory card"), "{e}");
    let e = m
        .clone()
        .apply(Actor::Seat(W), &Action::Use(Ability::Expand))
        .unwrap_err();
    assert!(e.to_string().contains("Capital or a palace"), "{e}");
}

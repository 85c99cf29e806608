//! The plain words of every kind of action (`Game::action_words`), and a property check over random
//! games: every action worded for every observer, and a hidden territory card never named to those
//! who may not know it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use tabula_core::{Actor, Game, Observer, Seat, rng_from_seed, tools};
use territories::{Ability, Action, BankTake, Card, Item, Piece, Res, Territories};

const W: Seat = Seat(0);
const B: Seat = Seat(1);

fn game() -> Territories {
    Territories::new(&Default::default()).unwrap()
}

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn white(a: Action) -> String {
    game().action_words(Actor::Seat(W), &a, Observer::Spectator)
}

#[test]
fn chance_actions_are_worded_without_a_seat_number() {
    let g = game();
    let said = |a: Action| g.action_words(Actor::Chance, &a, Observer::Spectator);
    assert_eq!(said(Action::First(B)), "Black goes first (coin toss)");
    assert_eq!(said(Action::Roll(8)), "Production roll: 8");
    assert_eq!(said(Action::Die(3)), "Cost roll: 3");
    assert_eq!(said(Action::Duel(5, 2)), "Duel: 5 against 2");
    assert_eq!(
        said(Action::Deal(Card::deck())),
        "The territory cards are shuffled: 20 dealt face up, 20 face down"
    );
}

#[test]
fn building_and_trading_are_worded_with_suits_and_piece_names() {
    assert_eq!(
        white(Action::Bank(Res::H, BankTake::Res(Res::S))),
        "White trades 4♥ with the bank for 1♠"
    );
    assert_eq!(
        white(Action::Bank(Res::D, BankTake::Territory)),
        "White trades 4♦ with the bank for a territory card"
    );
    assert_eq!(white(Action::Place((2, 3))), "White places a Town at 2,3");
    assert_eq!(white(Action::Build((1, 1))), "White builds a Town at 1,1");
    assert_eq!(
        white(Action::Upgrade((1, 1), Piece::Temple)),
        "White upgrades the building at 1,1 to a Temple"
    );
    assert_eq!(
        white(Action::TempleTake(Res::C)),
        "White takes 1♣ from a Temple"
    );
    assert_eq!(white(Action::Give(Item::Res(Res::S))), "White offers 1♠");
    assert_eq!(white(Action::AskRes(Res::H)), "White asks for 1♥");
    assert_eq!(
        white(Action::AskTerritory),
        "White asks for a territory card"
    );
    assert_eq!(white(Action::Propose), "White proposes the trade");
    assert_eq!(white(Action::Withdraw), "White withdraws the offer");
    assert_eq!(white(Action::Accept), "White accepts the trade");
    assert_eq!(white(Action::Decline), "White declines the trade");
    assert_eq!(white(Action::Use(Ability::Raid)), "White uses Raid");
    assert_eq!(white(Action::Pay(Res::D)), "White pays 1♦");
    assert_eq!(
        white(Action::Survey((2, 1), card("QH"))),
        "White surveys 2,1: puts Q♥ there"
    );
    assert_eq!(
        white(Action::Expand((0, 4), card("10S"))),
        "White expands to 0,4 with 10♠"
    );
    assert_eq!(white(Action::Raze((3, 3))), "White razes the Town at 3,3");
    assert_eq!(
        white(Action::Convert((3, 3), Piece::Fort)),
        "White converts the building at 3,3 into a Fort"
    );
    assert_eq!(white(Action::EndTurn), "White ends the turn");
    assert_eq!(
        white(Action::Discard(Item::Res(Res::C))),
        "White discards 1♣"
    );
}

#[test]
fn a_hidden_territory_card_is_named_only_to_those_who_may_know_it() {
    let g = game();
    let discard = Action::Discard(Item::Territory(card("QH")));
    assert_eq!(
        g.action_words(Actor::Seat(W), &discard, Observer::Seat(W)),
        "White discards the territory card Q♥"
    );
    for o in [Observer::Seat(B), Observer::Spectator] {
        assert_eq!(
            g.action_words(Actor::Seat(W), &discard, o),
            "White discards a territory card"
        );
    }
    let hand_over = Action::HandOver(card("5C"));
    for o in [Observer::Seat(W), Observer::Seat(B)] {
        assert_eq!(
            g.action_words(Actor::Seat(B), &hand_over, o),
            "Black hands over the territory card 5♣"
        );
    }
    assert_eq!(
        g.action_words(Actor::Seat(B), &hand_over, Observer::Spectator),
        "Black hands over a territory card"
    );
}

#[test]
fn random_games_word_every_action_for_every_observer() {
    for seed in 0..6 {
        tools::check_words(&game(), &mut rng_from_seed(seed), 400)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

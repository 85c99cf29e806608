//! Helpers to build explicit positions for the rule tests.
#![allow(clippy::unwrap_used, clippy::expect_used, dead_code)]

use tabula_core::{Actor, Game, Seat, legal_actions_vec};
use territories::{Action, Building, Card, Phase, Piece, Point, Res, Territories};

pub const W: Seat = Seat(0);
pub const B: Seat = Seat(1);

pub fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// Dealt with the unshuffled deck: rows y=0 `2H 3H 4H 5H 6H`, y=1 `8H 9H 10H JH QH`,
/// y=2 `2S 3S 4S 5S 6S`, y=3 `8S 9S 10S JS QS`; pile (top first) `2C … QC 2D … QD`.
/// Seat 0 (White) is Player 1; setup not done.
pub fn dealt() -> Territories {
    let mut g = Territories::new(&Default::default()).unwrap();
    g.apply(Actor::Chance, &Action::Deal(Card::deck())).unwrap();
    g.apply(Actor::Chance, &Action::First(W)).unwrap();
    g
}

/// A position in White's main phase (after a roll of `roll`) with no buildings.
pub fn main_phase(roll: u8) -> Territories {
    let mut g = dealt();
    g.phase = Phase::Main;
    g.current = W;
    g.roll = Some(roll);
    g
}

/// A position where `seat` is about to roll (chance to act).
pub fn before_roll(seat: Seat) -> Territories {
    let mut g = dealt();
    g.phase = Phase::Roll;
    g.current = seat;
    g
}

pub fn put(g: &mut Territories, seat: Seat, piece: Piece, at: Point) {
    g.buildings.retain(|b| b.at != at);
    g.buildings.push(Building {
        at,
        owner: seat,
        piece,
    });
}

/// Moves resources from the bank to `seat`'s hand, e.g. `give(&mut g, W, "HHSD")`.
pub fn give(g: &mut Territories, seat: Seat, res: &str) {
    for ch in res.chars() {
        let r = Res::from_letter(ch).unwrap();
        assert!(g.bank[r.index()] > 0, "bank out of {r}");
        g.bank[r.index()] -= 1;
        g.hands[seat.index()].resources[r.index()] += 1;
    }
}

/// Empties the bank of `r` into `seat`'s hand until only `left` remain.
pub fn drain_bank(g: &mut Territories, seat: Seat, r: Res, left: u8) {
    while g.bank[r.index()] > left {
        g.bank[r.index()] -= 1;
        g.hands[seat.index()].resources[r.index()] += 1;
    }
}

/// Moves the territory card `c` (from wherever it is) into `seat`'s hand.
pub fn hand_card(g: &mut Territories, seat: Seat, c: &str) {
    let c = card(c);
    take_card(g, c);
    g.hands[seat.index()].territories.insert(c);
}

/// Removes `c` from the pile or a hand (panics if it is on the grid).
fn take_card(g: &mut Territories, c: Card) {
    if let Some(i) = g.pile.iter().position(|&x| x == c) {
        g.pile.remove(i);
        return;
    }
    for h in g.hands.iter_mut() {
        if h.territories.remove(c) {
            return;
        }
    }
    panic!("{c} is not in the pile or a hand");
}

/// Puts card `c` on `cell` of the grid; the card it replaces takes `c`'s former place.
pub fn set_cell(g: &mut Territories, cell: Point, c: &str) {
    let c = card(c);
    let old = g.card_at(cell).unwrap();
    if old == c {
        return;
    }
    // `c` leaves its place (on the grid, in the pile or in a hand) to `old`.
    if let Some(x) = g.grid.iter_mut().find(|x| x.card == c) {
        x.card = old;
    } else {
        if let Some(p) = g.pile.iter_mut().find(|x| **x == c) {
            *p = old;
        } else {
            for h in g.hands.iter_mut() {
                if h.territories.remove(c) {
                    h.territories.insert(old);
                }
            }
        }
    }
    if let Some(x) = g.grid.iter_mut().find(|x| x.at == cell) {
        x.card = c;
    }
}

pub fn res(g: &Territories, seat: Seat) -> [u8; 4] {
    g.hands[seat.index()].resources
}

pub fn legal(g: &Territories, seat: Seat) -> Vec<Action> {
    legal_actions_vec(g, seat)
}

pub fn act(g: &mut Territories, seat: Seat, a: Action) {
    g.apply(Actor::Seat(seat), &a)
        .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
    g.validate().unwrap();
}

pub fn chance(g: &mut Territories, a: Action) {
    g.apply(Actor::Chance, &a)
        .unwrap_or_else(|e| panic!("{a:?} refused: {e}"));
    g.validate().unwrap();
}

/// Asserts that `a` is refused and changes nothing.
pub fn refused(g: &Territories, seat: Seat, a: Action) {
    let mut c = g.clone();
    assert!(
        c.apply(Actor::Seat(seat), &a).is_err(),
        "{a:?} should be refused"
    );
    assert_eq!(&c, g);
    assert!(!legal(g, seat).contains(&a));
}

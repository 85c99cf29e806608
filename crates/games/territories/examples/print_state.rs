//! Prints the JSON of the initial state and of the state after the deal and the first setup Town
//! (the format documented in the crate docs): `cargo run -p territories --example print_state`.
use tabula_core::{Actor, Game, Seat};
use territories::{Action, Card, Territories, TerritoriesOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut g = Territories::new(&TerritoriesOptions::default())?;
    println!("{}", serde_json::to_string(&g)?);
    g.apply(Actor::Chance, &Action::Deal(Card::deck()))?;
    g.apply(Actor::Chance, &Action::First(Seat(0)))?;
    g.apply(Actor::Seat(Seat(0)), &Action::Place((1, 1)))?;
    println!("{}", serde_json::to_string(&g)?);
    Ok(())
}

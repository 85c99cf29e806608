//! The terminal drawing: a hex map of area codes with city owners, the armies, the players and what is
//! pending.

use std::fmt::Write;

use tabula_core::{Game, Observer, ToAct};

use crate::content::{CardKind, content};
use crate::state::*;

pub(crate) fn render(g: &Syba, observer: Observer) -> String {
    let c = content();
    let mut s = String::new();
    let _ = writeln!(s, "Syba Chess 2.0 - round {} - {:?}", g.round, g.phase);
    // Map: each cell is [CODE o] where o is the city owner's seat (1-6), '.' unowned, 'x' destroyed,
    // ' ' no city; odd rows are shifted half a cell.
    let max_row = c.areas.iter().map(|a| a.pos[1]).max().unwrap_or(0);
    let max_col = c.areas.iter().map(|a| a.pos[0]).max().unwrap_or(0);
    for row in 0..=max_row {
        let mut line = String::new();
        if row % 2 == 1 {
            line.push_str("    ");
        }
        for col in 0..=max_col {
            match c.areas.iter().position(|a| a.pos == [col, row]) {
                Some(i) => {
                    let mark = match c.area_city[i] {
                        None => ' ',
                        Some(ci) if g.city_destroyed[ci as usize] => 'x',
                        Some(ci) => match g.city_owner[ci as usize] {
                            Some(o) => char::from_digit(u32::from(o) + 1, 10).unwrap_or('?'),
                            None => '.',
                        },
                    };
                    let _ = write!(line, "[{} {}] ", c.areas[i].code, mark);
                }
                None => line.push_str("        "),
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    let _ = writeln!(
        s,
        "\nArmies (S/K/M = soldier/knight/monster, * = exhausted, ' = bought this turn, + = chosen in the pending selection):"
    );
    let chosen: &[u32] = match g.stack.last() {
        Some(Pending::Select(sel)) => &sel.chosen,
        _ => &[],
    };
    for (i, a) in c.areas.iter().enumerate() {
        let here: Vec<&Unit> = g.units.iter().filter(|u| u.area as usize == i).collect();
        if here.is_empty() {
            continue;
        }
        let mut parts = Vec::new();
        for seat in 0..g.players.len() as u8 {
            let mine: Vec<String> = here
                .iter()
                .filter(|u| u.owner == seat)
                .map(|u| {
                    let k = match u.kind {
                        UnitKind::Soldier => "S".to_string(),
                        UnitKind::Knight => "K".to_string(),
                        UnitKind::Monster => "M".to_string(),
                        UnitKind::Hero(h) => c
                            .heroes
                            .get(h as usize)
                            .map_or("?".into(), |x| x.name.clone()),
                    };
                    format!(
                        "u{}:{}{}{}{}",
                        u.id,
                        k,
                        if u.exhausted { "*" } else { "" },
                        if u.fresh { "'" } else { "" },
                        if chosen.contains(&u.id) { "+" } else { "" }
                    )
                })
                .collect();
            if !mine.is_empty() {
                parts.push(format!("P{} {}", u32::from(seat) + 1, mine.join(" ")));
            }
        }
        let _ = writeln!(s, "  {} {:<22} {}", a.code, a.id, parts.join(" | "));
    }
    let _ = writeln!(s, "\nPlayers (production/food/research):");
    for (i, p) in g.players.iter().enumerate() {
        let ups: Vec<&str> = g
            .cards
            .iter()
            .enumerate()
            .filter(|(_, st)| **st == CardState::Upgrade(i as u8))
            .filter_map(|(k, _)| c.cards.get(k).map(|x| x.name.as_str()))
            .collect();
        let _ = writeln!(
            s,
            "  {}{}: {}/{}/{}  cities {}  start {}{}  upgrades [{}]",
            if g.phase == Phase::Play && g.current as usize == i {
                ">"
            } else {
                " "
            },
            g.seat_name(tabula_core::Seat(i as u8)),
            p.resources[0],
            p.resources[1],
            p.resources[2],
            g.cities_of(i as u8),
            p.start_city
                .and_then(|x| c.cities.get(x as usize))
                .map_or("-", |x| x.name.as_str()),
            if p.once_available {
                " (Once per Game ready)"
            } else {
                ""
            },
            ups.join(", ")
        );
    }
    let buildings: Vec<String> = g
        .cards
        .iter()
        .enumerate()
        .filter_map(|(k, st)| match st {
            CardState::Building(ci) => Some(format!(
                "{} @ {}",
                c.cards.get(k).map_or("?", |x| x.name.as_str()),
                c.cities.get(*ci as usize).map_or("?", |x| x.name.as_str())
            )),
            _ => None,
        })
        .collect();
    if !buildings.is_empty() {
        let _ = writeln!(s, "Buildings: {}", buildings.join("; "));
    }
    let pile: Vec<&str> = c
        .cards
        .iter()
        .enumerate()
        .filter(|(k, x)| x.kind == CardKind::Spell || g.cards[*k] == CardState::Pile)
        .map(|(_, x)| x.name.as_str())
        .collect();
    let _ = writeln!(s, "Research pile: {}", pile.join(", "));
    if let Observer::Seat(seat) = observer
        && let Some(sc) = g.players.get(seat.index()).and_then(|p| p.start_city)
        && let Some(city) = c.cities.get(sc as usize)
    {
        let _ = writeln!(
            s,
            "Your starting city {}: {} Once per Game: {}",
            city.name,
            city.start_with.describe(),
            city.once_per_game.describe()
        );
    }
    if let Some(b) = &g.last_battle {
        let _ = writeln!(
            s,
            "Last battle: P{} attacked, {} against {} - {}",
            u32::from(b.attacker) + 1,
            b.attack,
            b.defence,
            if b.success { "success" } else { "repelled" }
        );
    }
    for p in &g.stack {
        let _ = match p {
            Pending::Intercept {
                mover, area, units, ..
            } => writeln!(
                s,
                "Pending: interception of P{}'s army entering {} ({})",
                u32::from(*mover) + 1,
                c.areas.get(*area as usize).map_or("?", |a| a.id.as_str()),
                units
                    .iter()
                    .map(|id| format!("u{id}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Pending::Battle(b) => {
                let (att, def) = g.battle_numbers(c, b);
                writeln!(
                    s,
                    "Pending: battle by P{}: attack {att} against defence {def}",
                    u32::from(b.attacker) + 1
                )
            }
            Pending::Trade {
                partner,
                give,
                get,
                proposed,
                note,
            } => writeln!(
                s,
                "Pending: trade with P{} (give {:?}, get {:?}){}{}",
                u32::from(*partner) + 1,
                give,
                get,
                if *proposed { " proposed" } else { "" },
                if note.is_empty() {
                    String::new()
                } else {
                    format!(" - promises (not binding): \"{note}\"")
                }
            ),
            Pending::Select(sel) => {
                let what = match sel.purpose {
                    Purpose::Attack(Target::Army { owner, area }) => format!(
                        "to attack P{}'s army in {}",
                        u32::from(owner) + 1,
                        c.areas.get(area as usize).map_or("?", |a| a.id.as_str())
                    ),
                    Purpose::Attack(Target::City(city)) => format!(
                        "to attack the city {}",
                        c.cities.get(city as usize).map_or("?", |x| x.name.as_str())
                    ),
                    Purpose::Intercept { mover, area } => format!(
                        "to intercept P{}'s army entering {}",
                        u32::from(mover) + 1,
                        c.areas.get(area as usize).map_or("?", |a| a.id.as_str())
                    ),
                    Purpose::HelpAttack => "to help the attack".to_string(),
                    Purpose::Move { from, to } => format!(
                        "to move together from {} to {}",
                        c.areas.get(from as usize).map_or("?", |a| a.id.as_str()),
                        c.areas.get(to as usize).map_or("?", |a| a.id.as_str())
                    ),
                };
                let moving = matches!(sel.purpose, Purpose::Move { .. });
                let power: u32 = sel
                    .chosen
                    .iter()
                    .filter_map(|&id| g.unit(id))
                    .map(|u| g.power(c, u))
                    .sum();
                let chosen: Vec<String> = sel.chosen.iter().map(|id| format!("u{id}")).collect();
                let others: Vec<String> = g
                    .selectable(c, sel)
                    .into_iter()
                    .filter(|id| !sel.chosen.contains(id))
                    .map(|id| format!("u{id}"))
                    .collect();
                if moving {
                    let tiring = sel
                        .chosen
                        .iter()
                        .filter_map(|&id| g.unit(id))
                        .filter(|u| g.move_exhausts(c, u))
                        .count();
                    writeln!(
                        s,
                        "Pending: P{} chooses the units {what}: chosen [{}] ({tiring} of them \
                         Exhaust to move), held back [{}]; pick u<n> / hold u<n>, then confirm or \
                         withdraw",
                        u32::from(sel.seat) + 1,
                        chosen.join(" "),
                        others.join(" ")
                    )
                } else {
                    writeln!(
                        s,
                        "Pending: P{} chooses the units to Exhaust {what}: chosen [{}] (Power \
                         {power}), held back [{}]; pick u<n> / hold u<n>, then confirm or withdraw",
                        u32::from(sel.seat) + 1,
                        chosen.join(" "),
                        others.join(" ")
                    )
                }
            }
        };
    }
    match g.to_act() {
        ToAct::Over(o) => {
            let _ = writeln!(
                s,
                "Game over ({}): winners {:?}",
                o.reason,
                o.winning_seats()
            );
        }
        ToAct::Chance => {
            let _ = writeln!(s, "To act: chance (the starting player is drawn)");
        }
        t => {
            let names: Vec<String> = t.seats().into_iter().map(|x| g.seat_name(x)).collect();
            let _ = writeln!(s, "To act: {}", names.join(", "));
        }
    }
    s
}

//! The text notation of actions (see the crate docs for the grammar). Names are slugs of the content
//! files: lower case, spaces as `-`, apostrophes dropped (`andalars-fist`, `lagaron-proudheart`).

use tabula_core::ActionError;

use crate::content::{ChipKind, Resource, content};
use crate::state::*;

fn seat(s: u8) -> String {
    format!("P{}", u32::from(s) + 1)
}

fn area(a: u8) -> String {
    content()
        .areas
        .get(a as usize)
        .map_or_else(|| format!("area#{a}"), |x| x.id.clone())
}

fn city(c: u8) -> String {
    content()
        .city_slugs
        .get(c as usize)
        .map_or_else(|| format!("city#{c}"), |x| x.clone())
}

fn target(t: &EffectTarget) -> String {
    match t {
        EffectTarget::None => String::new(),
        EffectTarget::City(c) => format!(" city:{}", city(*c)),
        EffectTarget::Unit(u) => format!(" u{u}"),
        EffectTarget::Army { owner, area: a } => format!(" {}@{}", seat(*owner), area(*a)),
        EffectTarget::Player(p) => format!(" {}", seat(*p)),
    }
}

fn item(i: &TradeItem) -> String {
    match i {
        TradeItem::Resource(r) => r.name().to_string(),
        TradeItem::Unit(u) => format!("u{u}"),
        TradeItem::City(c) => format!("city:{}", city(*c)),
    }
}

/// The notation of an action.
pub fn notation(a: &Action) -> String {
    let c = content();
    match a {
        Action::StartingPlayer(s) => format!("start {}", seat(*s)),
        Action::ChooseRace(r) => format!(
            "race {}",
            c.race_slugs
                .get(*r as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{r}"))
        ),
        Action::ChooseCity(x) => format!("choose {}", city(*x)),
        Action::BuyUnit { kind, city: x } => format!("buy {} {}", kind.name(), city(*x)),
        Action::BuyHero { hero, city: x } => format!(
            "hire {} {}",
            c.hero_slugs
                .get(*hero as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{hero}")),
            city(*x)
        ),
        Action::Rest(u) => format!("rest u{u}"),
        Action::ExtraExhaust(u) => format!("again u{u}"),
        Action::MoveAgain => "march".into(),
        Action::PowerUp => "fury".into(),
        Action::Research { card, target: t } => format!(
            "research {}{}",
            c.card_slugs
                .get(*card as usize)
                .cloned()
                .unwrap_or_else(|| format!("#{card}")),
            target(t)
        ),
        Action::Move { unit, to } => format!("move u{unit} {}", area(*to)),
        Action::MoveArmy { from, to } => format!("army {} {}", area(*from), area(*to)),
        Action::Attack { target: t } => format!(
            "attack {}",
            match t {
                Target::Army { owner, area: a } => format!("{}@{}", seat(*owner), area(*a)),
                Target::City(x) => format!("city:{}", city(*x)),
            }
        ),
        Action::HeroAction { unit, target: t } => format!("ability u{unit}{}", target(t)),
        Action::OncePerGame(t) => format!("once{}", target(t)),
        Action::Intercept => "intercept".into(),
        Action::HelpAttack => "help-attack".into(),
        Action::HelpDefend(a) => format!("help-defend {}", area(*a)),
        Action::Pass => "pass".into(),
        Action::Choose(u) => format!("pick u{u}"),
        Action::HoldBack(u) => format!("hold u{u}"),
        Action::Confirm => "confirm".into(),
        Action::Withdraw => "withdraw".into(),
        Action::TradeOpen(p) => format!("trade {}", seat(*p)),
        Action::TradeNote(text) if text.is_empty() => "note".into(),
        Action::TradeNote(text) => format!("note {text}"),
        Action::TradeOffer(i) => format!("offer {}", item(i)),
        Action::TradeAsk(i) => format!("ask {}", item(i)),
        Action::TradePropose => "propose".into(),
        Action::TradeCancel => "cancel".into(),
        Action::TradeAccept => "accept".into(),
        Action::TradeDecline => "decline".into(),
        Action::EndTurn => "end".into(),
    }
}

/// The name a client clicks for unit `u` (`u12`, as the renderer names unit chips).
fn unit_cell(u: u32) -> String {
    format!("u{u}")
}

/// The area city `c` stands in (its id, as the map names areas); none for a city not on the map.
fn city_cell(c: u8) -> Option<String> {
    let content = content();
    let area = content.area_city.iter().position(|x| *x == Some(c))?;
    content.areas.get(area).map(|a| a.id.clone())
}

fn area_cell(a: u8) -> Option<String> {
    content().areas.get(a as usize).map(|x| x.id.clone())
}

fn target_cells(t: &EffectTarget, out: &mut Vec<String>) {
    match t {
        EffectTarget::None | EffectTarget::Player(_) => {}
        EffectTarget::City(c) => out.extend(city_cell(*c)),
        EffectTarget::Unit(u) => out.push(unit_cell(*u)),
        EffectTarget::Army { area, .. } => out.extend(area_cell(*area)),
    }
}

fn item_cells(i: &TradeItem, out: &mut Vec<String>) {
    match i {
        TradeItem::Resource(_) => {}
        TradeItem::Unit(u) => out.push(unit_cell(*u)),
        TradeItem::City(c) => out.extend(city_cell(*c)),
    }
}

/// The areas and units a player clicks, in order, to choose an action (named as the view's map and
/// unit chips are: an area's id, `u12`): the unit, then the area it moves to; the area an army leaves,
/// then the one it enters; the area attacked (an army's or a city's: both are then offered as a
/// choice); the city's area to buy or hire in; the unit or area a card, hero or once-per-game effect
/// aims at; the unit to Rest, pick or hold back; a unit or city put into a trade. Choices without a
/// place on the map (races, resources, answers, the end of the turn) are buttons: none.
pub fn cells(a: &Action) -> Vec<String> {
    let mut out = Vec::new();
    match a {
        Action::ChooseCity(c)
        | Action::BuyUnit { city: c, .. }
        | Action::BuyHero { city: c, .. } => out.extend(city_cell(*c)),
        Action::Rest(u) | Action::ExtraExhaust(u) | Action::Choose(u) | Action::HoldBack(u) => {
            out.push(unit_cell(*u))
        }
        Action::Research { target, .. } | Action::OncePerGame(target) => {
            target_cells(target, &mut out)
        }
        Action::Move { unit, to } => {
            out.push(unit_cell(*unit));
            out.extend(area_cell(*to));
        }
        Action::MoveArmy { from, to } => {
            out.extend(area_cell(*from));
            out.extend(area_cell(*to));
        }
        Action::Attack { target } => match target {
            Target::Army { area, .. } => out.extend(area_cell(*area)),
            Target::City(c) => out.extend(city_cell(*c)),
        },
        Action::HeroAction { unit, target } => {
            out.push(unit_cell(*unit));
            target_cells(target, &mut out);
        }
        Action::HelpDefend(area) => out.extend(area_cell(*area)),
        Action::TradeOffer(i) | Action::TradeAsk(i) => item_cells(i, &mut out),
        Action::StartingPlayer(_)
        | Action::ChooseRace(_)
        | Action::MoveAgain
        | Action::PowerUp
        | Action::Intercept
        | Action::HelpAttack
        | Action::Pass
        | Action::Confirm
        | Action::Withdraw
        | Action::TradeOpen(_)
        | Action::TradeNote(_)
        | Action::TradePropose
        | Action::TradeCancel
        | Action::TradeAccept
        | Action::TradeDecline
        | Action::EndTurn => {}
    }
    out
}

fn bad(msg: String) -> ActionError {
    ActionError::Malformed(msg)
}

fn p_seat(t: &str) -> Result<u8, ActionError> {
    t.strip_prefix('P')
        .or_else(|| t.strip_prefix('p'))
        .and_then(|n| n.parse::<u8>().ok())
        .filter(|n| (1..=6).contains(n))
        .map(|n| n - 1)
        .ok_or_else(|| bad(format!("“{t}” is not a player (P1..P6)")))
}

fn p_unit(t: &str) -> Result<u32, ActionError> {
    t.strip_prefix('u')
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(|| bad(format!("“{t}” is not a unit (u<number>)")))
}

fn p_area(t: &str) -> Result<u8, ActionError> {
    content()
        .area_by_id(t)
        .ok_or_else(|| bad(format!("“{t}” is not an area")))
}

fn p_city(t: &str) -> Result<u8, ActionError> {
    let t = t.strip_prefix("city:").unwrap_or(t);
    content()
        .city_by_slug(t)
        .ok_or_else(|| bad(format!("“{t}” is not a city")))
}

fn p_army(t: &str) -> Result<(u8, u8), ActionError> {
    let (s, a) = t
        .split_once('@')
        .ok_or_else(|| bad(format!("“{t}” is not an army (P<n>@<area>)")))?;
    Ok((p_seat(s)?, p_area(a)?))
}

fn p_target(t: Option<&&str>) -> Result<EffectTarget, ActionError> {
    let Some(t) = t else {
        return Ok(EffectTarget::None);
    };
    if t.starts_with("city:") {
        Ok(EffectTarget::City(p_city(t)?))
    } else if t.starts_with('u') {
        Ok(EffectTarget::Unit(p_unit(t)?))
    } else if t.contains('@') {
        let (owner, area) = p_army(t)?;
        Ok(EffectTarget::Army { owner, area })
    } else {
        Ok(EffectTarget::Player(p_seat(t)?))
    }
}

fn p_item(t: &str) -> Result<TradeItem, ActionError> {
    if let Some(r) = Resource::ALL.iter().find(|r| r.name() == t) {
        Ok(TradeItem::Resource(*r))
    } else if t.starts_with("city:") {
        Ok(TradeItem::City(p_city(t)?))
    } else {
        Ok(TradeItem::Unit(p_unit(t)?))
    }
}

/// Parses the notation (or the JSON form) of an action.
pub fn parse(text: &str) -> Result<Action, ActionError> {
    let text = text.trim();
    if text.starts_with('{') || text.starts_with('"') {
        return serde_json::from_str(text).map_err(|e| bad(e.to_string()));
    }
    // `note <free text>`: the rest of the line, as written (inner spaces kept).
    if let Some(rest) = text.strip_prefix("note")
        && (rest.is_empty() || rest.starts_with(char::is_whitespace))
    {
        return Ok(Action::TradeNote(rest.trim_start().to_string()));
    }
    let c = content();
    let w: Vec<&str> = text.split_whitespace().collect();
    let need = |n: usize| -> Result<(), ActionError> {
        if w.len() == n {
            Ok(())
        } else {
            Err(bad(format!("“{text}”: expected {} word(s)", n)))
        }
    };
    let first = w.first().copied().unwrap_or("");
    let arg = |i: usize| w.get(i).copied().unwrap_or("");
    let a = match first {
        "start" => {
            need(2)?;
            Action::StartingPlayer(p_seat(arg(1))?)
        }
        "race" => {
            need(2)?;
            Action::ChooseRace(
                c.race_by_slug(arg(1))
                    .ok_or_else(|| bad(format!("unknown race “{}”", arg(1))))?,
            )
        }
        "choose" => {
            need(2)?;
            Action::ChooseCity(p_city(arg(1))?)
        }
        "buy" => {
            need(3)?;
            let kind = ChipKind::ALL
                .into_iter()
                .find(|k| k.name() == arg(1))
                .ok_or_else(|| bad(format!("“{}” is not soldier, knight or monster", arg(1))))?;
            Action::BuyUnit {
                kind,
                city: p_city(arg(2))?,
            }
        }
        "hire" => {
            need(3)?;
            Action::BuyHero {
                hero: c
                    .hero_by_slug(arg(1))
                    .ok_or_else(|| bad(format!("unknown hero “{}”", arg(1))))?,
                city: p_city(arg(2))?,
            }
        }
        "rest" => {
            need(2)?;
            Action::Rest(p_unit(arg(1))?)
        }
        "again" => {
            need(2)?;
            Action::ExtraExhaust(p_unit(arg(1))?)
        }
        "march" => {
            need(1)?;
            Action::MoveAgain
        }
        "fury" => {
            need(1)?;
            Action::PowerUp
        }
        "research" => {
            if w.len() != 2 && w.len() != 3 {
                return Err(bad(format!("“{text}”: research <card> [target]")));
            }
            Action::Research {
                card: c
                    .card_by_slug(arg(1))
                    .ok_or_else(|| bad(format!("unknown card “{}”", arg(1))))?,
                target: p_target(w.get(2))?,
            }
        }
        "move" => {
            need(3)?;
            Action::Move {
                unit: p_unit(arg(1))?,
                to: p_area(arg(2))?,
            }
        }
        "army" => {
            need(3)?;
            Action::MoveArmy {
                from: p_area(arg(1))?,
                to: p_area(arg(2))?,
            }
        }
        "attack" => {
            if w.len() != 2 {
                return Err(bad(format!(
                    "“{text}”: attack P<n>@<area> | attack city:<city> (the units are chosen next)"
                )));
            }
            let t = arg(1);
            let target = if t.starts_with("city:") {
                Target::City(p_city(t)?)
            } else {
                let (owner, area) = p_army(t)?;
                Target::Army { owner, area }
            };
            Action::Attack { target }
        }
        "pick" => {
            need(2)?;
            Action::Choose(p_unit(arg(1))?)
        }
        "hold" => {
            need(2)?;
            Action::HoldBack(p_unit(arg(1))?)
        }
        "ability" => {
            if w.len() != 2 && w.len() != 3 {
                return Err(bad(format!("“{text}”: ability u<n> [target]")));
            }
            Action::HeroAction {
                unit: p_unit(arg(1))?,
                target: p_target(w.get(2))?,
            }
        }
        "once" => {
            if w.len() > 2 {
                return Err(bad(format!("“{text}”: once [target]")));
            }
            Action::OncePerGame(p_target(w.get(1))?)
        }

        "help-defend" => {
            need(2)?;
            Action::HelpDefend(p_area(arg(1))?)
        }
        "trade" => {
            need(2)?;
            Action::TradeOpen(p_seat(arg(1))?)
        }
        "offer" => {
            need(2)?;
            Action::TradeOffer(p_item(arg(1))?)
        }
        "ask" => {
            need(2)?;
            Action::TradeAsk(p_item(arg(1))?)
        }
        "pass" | "intercept" | "help-attack" | "confirm" | "withdraw" | "propose" | "cancel"
        | "accept" | "decline" | "end" => {
            need(1)?;
            match first {
                "pass" => Action::Pass,
                "intercept" => Action::Intercept,
                "help-attack" => Action::HelpAttack,
                "confirm" => Action::Confirm,
                "withdraw" => Action::Withdraw,
                "propose" => Action::TradePropose,
                "cancel" => Action::TradeCancel,
                "accept" => Action::TradeAccept,
                "decline" => Action::TradeDecline,
                _ => Action::EndTurn,
            }
        }
        _ => {
            return Err(bad(format!(
                "unknown action `{first}`; actions: start race choose buy hire rest again march fury \
                 research move army attack ability once intercept help-attack help-defend pass pick \
                 hold confirm withdraw trade offer ask note propose cancel accept decline end"
            )));
        }
    };
    Ok(a)
}

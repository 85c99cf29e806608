//! The text notation of actions (see the crate docs for the table).

use tabula_core::{ActionError, Seat};

use crate::model::{Ability, Action, BankTake, Card, Item, Piece, Point, Res};

fn point(p: Point) -> String {
    format!("{},{}", p.0, p.1)
}

fn item(i: Item) -> String {
    match i {
        Item::Res(r) => r.to_string(),
        Item::Territory(c) => c.to_string(),
    }
}

/// The notation of an action.
pub fn notation(action: &Action) -> String {
    match action {
        Action::Deal(cards) => {
            let mut s = String::from("deal");
            for c in cards {
                s.push(' ');
                s.push_str(&c.to_string());
            }
            s
        }
        Action::First(seat) => format!("first {}", seat.0),
        Action::Roll(n) => format!("roll {n}"),
        Action::Die(n) => format!("die {n}"),
        Action::Duel(a, b) => format!("duel {a}-{b}"),
        Action::Place(p) => format!("place {}", point(*p)),
        Action::TempleTake(r) => format!("temple {r}"),
        Action::Discard(i) => format!("discard {}", item(*i)),
        Action::Build(p) => format!("build {}", point(*p)),
        Action::Upgrade(p, piece) => format!("upgrade {} {}", point(*p), piece.word()),
        Action::Give(i) => format!("give {}", item(*i)),
        Action::AskRes(r) => format!("ask {r}"),
        Action::AskTerritory => "ask territory".into(),
        Action::Propose => "propose".into(),
        Action::Withdraw => "withdraw".into(),
        Action::Accept => "accept".into(),
        Action::Decline => "decline".into(),
        Action::HandOver(c) => format!("handover {c}"),
        Action::Bank(pay, BankTake::Res(r)) => format!("bank {pay}>{r}"),
        Action::Bank(pay, BankTake::Territory) => format!("bank {pay}>territory"),
        Action::Use(a) => format!("use {}", a.word()),
        Action::Pay(r) => format!("pay {r}"),
        Action::Survey(p, c) => format!("survey {} {c}", point(*p)),
        Action::Expand(p, c) => format!("expand {} {c}", point(*p)),
        Action::Raze(p) => format!("raze {}", point(*p)),
        Action::Convert(p, piece) => format!("convert {} {}", point(*p), piece.word()),
        Action::EndTurn => "end".into(),
    }
}

/// The point a player clicks to choose `action` (`x,y`, as the view names grid cells and
/// intersections): the intersection to place, build, upgrade, raze or convert at, or the grid cell to
/// survey or expand into (the territory card is then chosen among the actions sharing that cell).
/// Dice, cards, trades and the end of the turn are buttons: none.
pub fn cells(action: &Action) -> Vec<String> {
    match action {
        Action::Place(p)
        | Action::Build(p)
        | Action::Upgrade(p, _)
        | Action::Survey(p, _)
        | Action::Expand(p, _)
        | Action::Raze(p)
        | Action::Convert(p, _) => vec![point(*p)],
        Action::Deal(_)
        | Action::First(_)
        | Action::Roll(_)
        | Action::Die(_)
        | Action::Duel(..)
        | Action::TempleTake(_)
        | Action::Discard(_)
        | Action::Give(_)
        | Action::AskRes(_)
        | Action::AskTerritory
        | Action::Propose
        | Action::Withdraw
        | Action::Accept
        | Action::Decline
        | Action::HandOver(_)
        | Action::Bank(..)
        | Action::Use(_)
        | Action::Pay(_)
        | Action::EndTurn => Vec::new(),
    }
}

fn malformed(msg: impl Into<String>) -> ActionError {
    ActionError::Malformed(msg.into())
}

fn parse_point(s: Option<&str>) -> Result<Point, ActionError> {
    let s = s.ok_or_else(|| malformed("missing point (write x,y, e.g. 2,3)"))?;
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| malformed(format!("“{s}” is not a point (write x,y, e.g. 2,3)")))?;
    let x: i8 = x
        .trim()
        .parse()
        .map_err(|_| malformed(format!("bad x coordinate in “{s}”")))?;
    let y: i8 = y
        .trim()
        .parse()
        .map_err(|_| malformed(format!("bad y coordinate in “{s}”")))?;
    Ok((x, y))
}

fn parse_res(s: Option<&str>) -> Result<Res, ActionError> {
    let s = s.ok_or_else(|| malformed("missing resource (H, S, C or D)"))?;
    let mut chars = s.chars();
    match (chars.next().and_then(Res::from_letter), chars.next()) {
        (Some(r), None) => Ok(r),
        _ => Err(malformed(format!("“{s}” is not a resource (H, S, C or D)"))),
    }
}

fn parse_card(s: Option<&str>) -> Result<Card, ActionError> {
    let s = s.ok_or_else(|| malformed("missing territory card (e.g. QH)"))?;
    s.parse::<Card>().map_err(malformed)
}

fn parse_item(s: Option<&str>) -> Result<Item, ActionError> {
    let s = s.ok_or_else(|| malformed("missing card (a resource H/S/C/D or a territory card)"))?;
    if s.chars().count() == 1 {
        parse_res(Some(s)).map(Item::Res)
    } else {
        parse_card(Some(s)).map(Item::Territory)
    }
}

fn parse_piece(s: Option<&str>) -> Result<Piece, ActionError> {
    let s = s.ok_or_else(|| {
        malformed("missing piece (town, fort, barracks, temple, palace, capital)")
    })?;
    Piece::from_word(s).ok_or_else(|| {
        malformed(format!(
            "“{s}” is not a piece (town, fort, barracks, temple, palace, capital)"
        ))
    })
}

fn parse_die(s: Option<&str>, max: u8) -> Result<u8, ActionError> {
    let s = s.ok_or_else(|| malformed("missing number"))?;
    let n: u8 = s
        .parse()
        .map_err(|_| malformed(format!("“{s}” is not a number")))?;
    if n == 0 || n > max {
        return Err(malformed(format!("{n} is out of range 1..={max}")));
    }
    Ok(n)
}

/// Parses the notation (or the JSON form) of an action.
pub fn parse(text: &str) -> Result<Action, ActionError> {
    let text = text.trim();
    if text.starts_with('{') || text.starts_with('"') {
        return serde_json::from_str(text).map_err(|e| malformed(e.to_string()));
    }
    let mut words = text.split_whitespace();
    let head = words
        .next()
        .ok_or_else(|| malformed("empty action"))?
        .to_ascii_lowercase();
    let action = match head.as_str() {
        "deal" => {
            let cards = words
                .by_ref()
                .map(|w| w.parse::<Card>().map_err(malformed))
                .collect::<Result<Vec<_>, _>>()?;
            Action::Deal(cards)
        }
        "first" => {
            let n = words
                .next()
                .ok_or_else(|| malformed("missing seat (0 or 1)"))?;
            match n {
                "0" => Action::First(Seat(0)),
                "1" => Action::First(Seat(1)),
                _ => return Err(malformed(format!("“{n}” is not a seat (0 or 1)"))),
            }
        }
        "roll" => {
            let n = parse_die(words.next(), 12)?;
            if n < 2 {
                return Err(malformed("a 2D6 roll is 2..=12"));
            }
            Action::Roll(n)
        }
        "die" => Action::Die(parse_die(words.next(), 6)?),
        "duel" => {
            let s = words
                .next()
                .ok_or_else(|| malformed("missing duel dice (e.g. 5-2)"))?;
            let (a, b) = s
                .split_once('-')
                .ok_or_else(|| malformed(format!("“{s}” is not a duel (write e.g. 5-2)")))?;
            Action::Duel(parse_die(Some(a), 6)?, parse_die(Some(b), 6)?)
        }
        "place" => Action::Place(parse_point(words.next())?),
        "temple" => Action::TempleTake(parse_res(words.next())?),
        "discard" => Action::Discard(parse_item(words.next())?),
        "build" => Action::Build(parse_point(words.next())?),
        "upgrade" => {
            let p = parse_point(words.next())?;
            Action::Upgrade(p, parse_piece(words.next())?)
        }
        "give" => Action::Give(parse_item(words.next())?),
        "ask" => match words.next() {
            Some(w) if w.eq_ignore_ascii_case("territory") => Action::AskTerritory,
            w => Action::AskRes(parse_res(w)?),
        },
        "propose" => Action::Propose,
        "withdraw" => Action::Withdraw,
        "accept" => Action::Accept,
        "decline" => Action::Decline,
        "handover" => Action::HandOver(parse_card(words.next())?),
        "bank" => {
            let s = words.next().ok_or_else(|| {
                malformed("missing bank trade (e.g. bank H>S or bank H>territory)")
            })?;
            let (pay, take) = s
                .split_once('>')
                .ok_or_else(|| malformed(format!("“{s}” is not a bank trade (write e.g. H>S)")))?;
            let pay = parse_res(Some(pay))?;
            let take = if take.eq_ignore_ascii_case("territory") {
                BankTake::Territory
            } else {
                BankTake::Res(parse_res(Some(take))?)
            };
            Action::Bank(pay, take)
        }
        "use" => {
            let w = words
                .next()
                .ok_or_else(|| malformed("missing ability (survey, raid, convert, expand)"))?;
            Action::Use(Ability::from_word(w).ok_or_else(|| {
                malformed(format!(
                    "“{w}” is not an ability (survey, raid, convert, expand)"
                ))
            })?)
        }
        "pay" => Action::Pay(parse_res(words.next())?),
        "survey" => {
            let p = parse_point(words.next())?;
            Action::Survey(p, parse_card(words.next())?)
        }
        "expand" => {
            let p = parse_point(words.next())?;
            Action::Expand(p, parse_card(words.next())?)
        }
        "raze" => Action::Raze(parse_point(words.next())?),
        "convert" => {
            let p = parse_point(words.next())?;
            Action::Convert(p, parse_piece(words.next())?)
        }
        "end" => Action::EndTurn,
        other => {
            return Err(malformed(format!(
                "unknown action `{other}`; actions: deal, first, roll, die, duel, place, temple, \
                 discard, build, upgrade, give, ask, propose, withdraw, accept, decline, handover, \
                 bank, use, pay, survey, expand, raze, convert, end"
            )));
        }
    };
    if let Some(extra) = words.next() {
        return Err(malformed(format!("unexpected “{extra}” after the action")));
    }
    Ok(action)
}

/// A resource as a player writes it: its suit symbol.
fn suit(r: Res) -> &'static str {
    match r {
        Res::H => "♥",
        Res::S => "♠",
        Res::C => "♣",
        Res::D => "♦",
    }
}

/// A territory card in words: its rank and suit symbol (`Q♥`, `10♠`).
fn card_words(c: Card) -> String {
    let text = c.to_string();
    let rank = &text[..text.len().saturating_sub(1)];
    format!("{rank}{}", suit(c.suit))
}

fn item_words(i: Item) -> String {
    match i {
        Item::Res(r) => format!("1{}", suit(r)),
        Item::Territory(c) => format!("the territory card {}", card_words(c)),
    }
}

/// Each building (by its JSON name, as the view names it) in the rule book's words: the chess piece
/// that plays it, its points ([`Piece::points`]), what it collects, and the ability it allows
/// ([`Ability::building`]; the Capital allows every one). The web client's tooltips read it.
pub fn piece_legend() -> Vec<(String, String)> {
    Piece::ALL
        .into_iter()
        .map(|p| {
            let chess = match p {
                Piece::Town => "a pawn",
                Piece::Fort => "a rook",
                Piece::Barracks => "a knight",
                Piece::Temple => "a bishop",
                Piece::Palace => "a queen",
                Piece::Capital => "a king",
            };
            let points = match p.points() {
                1 => "1 point".to_string(),
                n => format!("{n} points"),
            };
            let collects = match p {
                Piece::Town => "collects 1 resource of a touched card's suit on its number",
                Piece::Temple => "collects 1 resource of any suit",
                Piece::Palace => "collects 2 resources",
                Piece::Capital => "collects for every card it touches",
                Piece::Fort | Piece::Barracks => "collects 1 resource",
            };
            let allows: Vec<&str> = Ability::ALL
                .into_iter()
                .filter(|a| a.building() == p)
                .map(ability_name)
                .collect();
            let mut words = format!("{chess}; {points}; {collects}");
            if p == Piece::Capital {
                words.push_str("; allows every ability");
            } else if !allows.is_empty() {
                words.push_str(&format!("; allows {}", allows.join(", ")));
            }
            (piece_name(p).to_lowercase(), words)
        })
        .collect()
}

fn piece_name(p: Piece) -> &'static str {
    match p {
        Piece::Town => "Town",
        Piece::Fort => "Fort",
        Piece::Barracks => "Barracks",
        Piece::Temple => "Temple",
        Piece::Palace => "Palace",
        Piece::Capital => "Capital",
    }
}

fn ability_name(a: Ability) -> &'static str {
    match a {
        Ability::Survey => "Survey",
        Ability::Raid => "Raid",
        Ability::Convert => "Convert",
        Ability::Expand => "Expand",
    }
}

/// `action` by `who` in plain words. `sees_card` says whether the observer may know the territory
/// card of a discard or a hand-over (otherwise it is worded without it); `name` names a seat.
pub fn words(action: &Action, who: &str, sees_card: bool, name: impl Fn(Seat) -> String) -> String {
    match action {
        Action::Deal(cards) => format!(
            "The territory cards are shuffled: 20 dealt face up, {} face down",
            cards.len().saturating_sub(20)
        ),
        Action::First(seat) => format!("{} goes first (coin toss)", name(*seat)),
        Action::Roll(n) => format!("Production roll: {n}"),
        Action::Die(n) => format!("Cost roll: {n}"),
        Action::Duel(a, b) => format!("Duel: {a} against {b}"),
        Action::Place(p) => format!("{who} places a Town at {}", point(*p)),
        Action::TempleTake(r) => format!("{who} takes 1{} from a Temple", suit(*r)),
        Action::Discard(Item::Territory(c)) if sees_card => {
            format!("{who} discards the territory card {}", card_words(*c))
        }
        Action::Discard(Item::Territory(_)) => format!("{who} discards a territory card"),
        Action::Discard(i) => format!("{who} discards {}", item_words(*i)),
        Action::Build(p) => format!("{who} builds a Town at {}", point(*p)),
        Action::Upgrade(p, piece) => format!(
            "{who} upgrades the building at {} to a {}",
            point(*p),
            piece_name(*piece)
        ),
        Action::Give(i) => format!("{who} offers {}", item_words(*i)),
        Action::AskRes(r) => format!("{who} asks for 1{}", suit(*r)),
        Action::AskTerritory => format!("{who} asks for a territory card"),
        Action::Propose => format!("{who} proposes the trade"),
        Action::Withdraw => format!("{who} withdraws the offer"),
        Action::Accept => format!("{who} accepts the trade"),
        Action::Decline => format!("{who} declines the trade"),
        Action::HandOver(c) if sees_card => {
            format!("{who} hands over the territory card {}", card_words(*c))
        }
        Action::HandOver(_) => format!("{who} hands over a territory card"),
        Action::Bank(pay, BankTake::Res(r)) => {
            format!(
                "{who} trades 4{} with the bank for 1{}",
                suit(*pay),
                suit(*r)
            )
        }
        Action::Bank(pay, BankTake::Territory) => format!(
            "{who} trades 4{} with the bank for a territory card",
            suit(*pay)
        ),
        Action::Use(a) => format!("{who} uses {}", ability_name(*a)),
        Action::Pay(r) => format!("{who} pays 1{}", suit(*r)),
        Action::Survey(p, c) => {
            format!("{who} surveys {}: puts {} there", point(*p), card_words(*c))
        }
        Action::Expand(p, c) => format!("{who} expands to {} with {}", point(*p), card_words(*c)),
        Action::Raze(p) => format!("{who} razes the Town at {}", point(*p)),
        Action::Convert(p, piece) => format!(
            "{who} converts the building at {} into a {}",
            point(*p),
            piece_name(*piece)
        ),
        Action::EndTurn => format!("{who} ends the turn"),
    }
}

#[cfg(test)]
mod legend_tests {
    use super::*;

    /// The legend says each building's own points and the ability its table grants, as the rule
    /// book reads.
    #[test]
    fn the_legend_is_the_tables_in_words() {
        let legend = piece_legend();
        assert_eq!(legend.len(), Piece::ALL.len());
        for (p, (name, words)) in Piece::ALL.into_iter().zip(&legend) {
            assert_eq!(name, &piece_name(p).to_lowercase());
            let points = if p.points() == 1 {
                "1 point".to_string()
            } else {
                format!("{} points", p.points())
            };
            assert!(words.contains(&format!("; {points};")), "{name}: {words}");
            for a in Ability::ALL {
                if a.building() == p {
                    assert!(
                        words.ends_with(&format!("allows {}", ability_name(a))),
                        "{name}: {words}"
                    );
                }
            }
        }
        assert_eq!(
            legend[0].1,
            "a pawn; 1 point; collects 1 resource of a touched card's suit on its number"
        );
        assert_eq!(
            legend[5].1,
            "a king; 3 points; collects for every card it touches; allows every ability"
        );
    }
}

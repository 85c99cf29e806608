//! The text notation of actions and the terminal drawing of the board.

#![allow(clippy::needless_range_loop)]

use std::fmt::Write as _;

use tabula_core::{ActionError, Observer, Seat};

use super::board::{Cell, ROW_LEN, ROWS};
use super::pieces::Kind;
use super::setup::{Army, listed_by_label, listed_label, seat_label};
use super::state::{Occupant, Phase, TrumpAction, TrumpCyvasse, TrumpPosition};

/// The notation of an action in state `g` (see the module documentation).
pub fn notation(g: &TrumpCyvasse, action: &TrumpAction) -> String {
    match action {
        TrumpAction::Setup(army) => {
            let mut s = String::from("setup");
            // A listed army says where it comes from (`preset=phalanx`, `random=2`, …).
            if let Some(label) = listed_label(army) {
                let _ = write!(s, " {label}");
            }
            for (cell, kind) in &army.0 {
                let _ = write!(s, " {}{cell}", kind.letter());
            }
            s
        }
        TrumpAction::FirstPlayer(seat) => format!("first {}", seat_label(*seat)),
        TrumpAction::Move { from, to } => {
            let capture = matches!(g.occupant(*to), Some(Occupant::Unit { .. }));
            format!("{from}{}{to}", if capture { 'x' } else { '-' })
        }
        TrumpAction::Shoot { from, to } => format!("{from}*{to}"),
        TrumpAction::EndTurn => "end".to_string(),
        TrumpAction::Pass => "pass".to_string(),
    }
}

/// The cells a player clicks to choose `action`: the unit, then its target (a move, a melee capture
/// or a shot). A whole army's setup is composed in the setup editor and the coin flip, `end` and
/// `pass` are buttons: none.
pub fn cells(action: &TrumpAction) -> Vec<String> {
    match action {
        TrumpAction::Move { from, to } | TrumpAction::Shoot { from, to } => {
            vec![from.to_string(), to.to_string()]
        }
        TrumpAction::Setup(_)
        | TrumpAction::FirstPlayer(_)
        | TrumpAction::EndTurn
        | TrumpAction::Pass => Vec::new(),
    }
}

fn malformed(text: &str) -> ActionError {
    ActionError::Malformed(format!(
        "`{text}` is not an action: write a move `h3-g4`, a melee capture `h3xg4`, a shot `i4*f5`, \
         `end` (decline a horse's second leg), `pass`, `first South`/`first North`, or \
         `setup Kk3 Xj2 ...` (a letter R S E L H X C T D K M and a cell per piece) or \
         `setup preset=phalanx` (a listed army by its label)"
    ))
}

/// The label kinds of listed armies (`preset=phalanx`, …; see [`super::listed_setup_labels`]).
const LABEL_KINDS: [&str; 4] = ["preset", "mirrored-preset", "random", "king-safe-random"];

/// Parses the notation (the inverse of [`notation`]). `owing` is the seat a label alone
/// (`setup preset=phalanx`) stands for: the first seat still owing its setup.
pub fn parse(text: &str, owing: Option<Seat>) -> Result<TrumpAction, ActionError> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    match lower.as_str() {
        "end" | "end_turn" => return Ok(TrumpAction::EndTurn),
        "pass" => return Ok(TrumpAction::Pass),
        _ => {}
    }
    if let Some(rest) = lower.strip_prefix("first") {
        let who = rest.trim();
        let seat = match who {
            "south" | "0" => Seat(0),
            "north" | "1" => Seat(1),
            _ => return Err(malformed(t)),
        };
        return Ok(TrumpAction::FirstPlayer(seat));
    }
    if lower.starts_with("setup") {
        let mut army = Army::default();
        let mut label: Option<&str> = None;
        for token in t["setup".len()..].split_whitespace() {
            if let Some((kind, _)) = token.split_once('=') {
                if !LABEL_KINDS.contains(&kind) || label.is_some() {
                    return Err(ActionError::Malformed(format!(
                        "“{token}”: a setup may carry one label, {}=…",
                        LABEL_KINDS.join("=… / ")
                    )));
                }
                label = Some(token);
                continue;
            }
            let mut chars = token.chars();
            let kind = chars
                .next()
                .and_then(Kind::from_letter)
                .ok_or_else(|| malformed(t))?;
            let cell = Cell::parse(chars.as_str()).map_err(ActionError::Malformed)?;
            if army.0.insert(cell, kind).is_some() {
                return Err(ActionError::Malformed(format!(
                    "{cell} is given twice in the setup"
                )));
            }
        }
        if let Some(label) = label {
            if army.0.is_empty() {
                // A label alone stands for that listed army of the seat owing its setup.
                let seat = owing.unwrap_or(Seat(0));
                let listed = listed_by_label(seat, label).ok_or_else(|| {
                    ActionError::Malformed(format!(
                        "“{label}” names no listed setup of {}",
                        seat_label(seat)
                    ))
                })?;
                return Ok(TrumpAction::Setup(listed.clone()));
            }
            // Next to the pieces, the label must say truly where the army comes from.
            if listed_label(&army) != Some(label) {
                return Err(ActionError::Malformed(format!(
                    "this army is not the listed setup “{label}”: leave the label out to commit an army of your own"
                )));
            }
        }
        return Ok(TrumpAction::Setup(army));
    }
    for (sep, shoot) in [('-', false), ('x', false), ('*', true)] {
        if let Some((a, b)) = lower.split_once(sep)
            && let (Ok(from), Ok(to)) = (Cell::parse(a), Cell::parse(b))
        {
            return Ok(if shoot {
                TrumpAction::Shoot { from, to }
            } else {
                TrumpAction::Move { from, to }
            });
        }
    }
    Err(malformed(t))
}

/// A text drawing of a position (as an observer sees it).
pub fn render(p: &TrumpPosition, observer: Observer) -> String {
    let mut s = String::new();
    let width = 11 * 4;
    let _ = writeln!(s, "{:^width$}", "North (second seat, lower case)");
    for row in 0..ROWS {
        let letter = (b'a' + row as u8) as char;
        let indent = (11 - ROW_LEN[row]) * 2;
        let _ = write!(s, "{letter} {}", " ".repeat(indent));
        for pos in 0..ROW_LEN[row] {
            let cell = Cell::from_row_pos(row, pos);
            let ch = match cell.and_then(|c| p.board.get(&c)) {
                Some(Occupant::Mountain) => '^',
                Some(o) => o.code(),
                None => '.',
            };
            let _ = write!(s, " {ch}  ");
        }
        let _ = writeln!(
            s,
            "{} {letter}1-{letter}{}",
            " ".repeat(indent),
            ROW_LEN[row]
        );
    }
    let _ = writeln!(s, "{:^width$}", "South (first seat, upper case)");
    let _ = writeln!(
        s,
        "R Rabble  S Spearman  E Elephant  L Light Horse  H Heavy Horse  X Crossbowman\n\
         C Catapult  T Trebuchet  D Dragon  K King  ^ Mountain; cells numbered from the left"
    );
    match p.phase {
        Phase::Setup => {
            for seat in 0..2 {
                let status = if p.committed[seat] {
                    "has committed its army"
                } else {
                    "is placing its army"
                };
                let _ = writeln!(s, "{} {status}", seat_label(Seat::new(seat)));
            }
            if let Observer::Seat(me) = observer
                && !p.committed[me.index().min(1)]
            {
                let _ = writeln!(
                    s,
                    "Place all 19 pieces on your home rows ({})",
                    if me.index() == 0 { "g-k" } else { "a-e" }
                );
            }
        }
        Phase::FirstPlayer => {
            let _ = writeln!(
                s,
                "Kings equally near row f: a coin flip decides who moves first"
            );
        }
        Phase::Play => {
            let _ = write!(
                s,
                "Turn {}: {} to move ({} turns without a capture)",
                p.turn + 1,
                seat_label(p.to_move),
                p.quiet_turns
            );
            if let Some(cav) = p.cavalry {
                let _ = write!(
                    s,
                    "; the horse on {} may take its second leg (up to 2 jumps) or “end”",
                    cav.horse
                );
            }
            s.push('\n');
        }
        Phase::Over => {
            if let Some(o) = &p.outcome {
                let _ = writeln!(s, "Game over: {}", o.reason);
            }
        }
    }
    s
}

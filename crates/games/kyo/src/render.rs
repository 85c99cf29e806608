//! The terminal drawing of a position.

use std::fmt::Write;

use crate::board::{DIR_NAMES, Sq};
use crate::{Kyo, Phase};

/// Width of a drawn cell.
const CELL: usize = 6;

impl Kyo {
    /// Draws the board (row 9, Red's side, on top), the stacks too tall for a cell, and the turn state.
    pub fn draw(&self) -> String {
        let mut s = String::new();
        let mut tall = Vec::new();
        let _ = write!(s, "    ");
        for c in 0..10u8 {
            let _ = write!(s, " {:^w$}", (b'A' + c) as char, w = CELL);
        }
        s.push('\n');
        for row in (0..10i8).rev() {
            let _ = write!(s, " {row}  ");
            for col in 0..10i8 {
                let Some(sq) = Sq::at(col, row) else {
                    continue;
                };
                let code = self.board.cell(sq).code();
                let shown = if code.is_empty() {
                    ".".to_string()
                } else if code.chars().count() > CELL {
                    tall.push((sq, code.clone()));
                    let tail: String = code
                        .chars()
                        .skip(code.chars().count() - (CELL - 1))
                        .collect();
                    format!("+{tail}")
                } else {
                    code
                };
                let _ = write!(s, " {shown:>w$}", w = CELL);
            }
            let _ = writeln!(s, "  {row}");
        }
        let _ = write!(s, "    ");
        for c in 0..10u8 {
            let _ = write!(s, " {:^w$}", (b'A' + c) as char, w = CELL);
        }
        s.push('\n');
        for (sq, code) in tall {
            let _ = writeln!(s, "  {sq}: {code}");
        }
        let _ = writeln!(
            s,
            "Stacks read bottom to top, pawn last. Upper case Gold, lower case Red. Chips: D Dark \
             Mana, L Light Mana, S Shield. Pawns: H Heavy, K King, Q Queen, T Tower, P Light Pawn, \
             N Knight, C Cannon."
        );
        match &self.outcome {
            Some(o) => {
                let who = match o.winning_seats().first() {
                    Some(w) => format!("{} wins", self.seat_label(w.0)),
                    None => "draw".to_string(),
                };
                let _ = writeln!(
                    s,
                    "Game over after {} turns: {who} ({}).",
                    self.turns, o.reason
                );
            }
            None => {
                let _ = write!(
                    s,
                    "Turn {}: {} to move; {} turns without capture or destroyed Mana.",
                    self.turns + 1,
                    self.seat_label(self.to_move.0),
                    self.quiet_turns
                );
                if let Some(a) = self.turn.active {
                    let what = match self.turn.phase {
                        Phase::Open => "may still step",
                        Phase::Chain => "is in a Mana chain",
                        Phase::Locked => "may only deploy",
                    };
                    let _ = write!(s, " The piece on {a} {what}");
                    if let Some(d) = self.turn.mana {
                        let _ = write!(s, " (last Mana move {})", DIR_NAMES[d.0 as usize % 8]);
                    }
                    let _ = write!(s, "; “end” ends the turn.");
                }
                s.push('\n');
            }
        }
        s
    }
}

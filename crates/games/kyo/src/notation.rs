//! The text notation of actions (see the crate documentation, "Notation").

use tabula_core::ActionError;

use crate::board::{Order, Sq};
use crate::play::is_adjacent;
use crate::{Action, Kyo};

impl Kyo {
    /// The notation of `action` in this state.
    pub fn notation(&self, action: &Action) -> String {
        let me = self.to_move.0;
        match *action {
            Action::EndTurn => "end".to_string(),
            Action::Step {
                from,
                to,
                pawn: true,
                chips,
            } => {
                let cell = self.board.cell(from);
                let run = cell.own_run(me);
                let left = run.saturating_sub(chips as usize);
                let capture = self.board.cell(to).pawn.is_some_and(|p| p.owner != me);
                let sep = if capture {
                    'x'
                } else if is_adjacent(from, to)
                    && self.mana_qualifies(from, to, chips as usize).is_some()
                {
                    '>'
                } else {
                    '-'
                };
                if left > 0 || (chips as usize) > run {
                    // `(chips as usize) > run` cannot be written with `/N`; show the carried count.
                    if (chips as usize) > run {
                        return format!("{from}+{chips}{sep}{to}");
                    }
                    format!("{from}/{left}{sep}{to}")
                } else {
                    format!("{from}{sep}{to}")
                }
            }
            Action::Step {
                from,
                to,
                pawn: false,
                chips,
            } => format!("{from}({chips})-{to}"),
            Action::Deploy { from, to, count } => {
                if count == 1 {
                    format!("{from}*{to}")
                } else {
                    format!("{from}({count})*{to}")
                }
            }
            Action::Shuffle { at, order } => format!("{at}~{order}"),
        }
    }

    /// The squares a player clicks to choose `action`: the stack, then the target square (a move or a
    /// deploy); the stack alone for a shuffle (its new orders are then offered as a choice, as are
    /// the slices of one move); none for ending the turn. Among the actions sharing their cells the
    /// generator lists the common one first (the pawn with its whole slice, then fewer chips, then the
    /// chips alone, then deploys): a client makes that one on a click of the cells and offers the others
    /// as variants.
    pub fn cells(&self, action: &Action) -> Vec<String> {
        match *action {
            Action::Step { from, to, .. } | Action::Deploy { from, to, .. } => {
                vec![from.to_string(), to.to_string()]
            }
            Action::Shuffle { at, .. } => vec![at.to_string()],
            Action::EndTurn => Vec::new(),
        }
    }

    /// Parses the notation of an action in this state.
    pub fn parse_notation(&self, text: &str) -> Result<Action, ActionError> {
        let bad = |m: String| ActionError::Malformed(m);
        let t = text.trim();
        if ["end", "end_turn", "endturn", "."]
            .iter()
            .any(|w| t.eq_ignore_ascii_case(w))
        {
            return Ok(Action::EndTurn);
        }
        let me = self.to_move.0;
        let from: Sq = t
            .get(..2)
            .ok_or_else(|| bad(format!("“{t}”: an action starts with a square such as D0")))?
            .parse()
            .map_err(bad)?;
        let rest = &t[2..];
        let cell = self.board.cell(from);
        let has_pawn = cell.pawn.is_some_and(|p| p.owner == me);
        let run = cell.own_run(me);
        let square = |s: &str| -> Result<Sq, ActionError> {
            s.trim()
                .parse()
                .map_err(|e: String| bad(format!("“{t}”: {e}")))
        };
        let number = |s: &str| -> Result<u8, ActionError> {
            s.parse()
                .map_err(|_| bad(format!("“{t}”: “{s}” is not a chip count")))
        };
        if let Some(order) = rest.strip_prefix('~') {
            let order = Order::parse(order.trim()).map_err(bad)?;
            return Ok(Action::Shuffle {
                at: from,
                order: self.normalize_order(from, order),
            });
        }
        if let Some(sq) = rest.strip_prefix('*') {
            return Ok(Action::Deploy {
                from,
                to: square(sq)?,
                count: 1,
            });
        }
        let (chips, pawn, tail) = if let Some(r) = rest.strip_prefix('(') {
            let (n, tail) = r
                .split_once(')')
                .ok_or_else(|| bad(format!("“{t}”: missing “)”")))?;
            let n = number(n.trim())?;
            if let Some(sq) = tail.strip_prefix('*') {
                return Ok(Action::Deploy {
                    from,
                    to: square(sq)?,
                    count: n,
                });
            }
            (n, false, tail)
        } else if let Some(r) = rest.strip_prefix('/') {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            let left = number(&r[..end])? as usize;
            if left > run {
                return Err(ActionError::Illegal(format!(
                    "“{t}”: only {run} of your chips lie in an unbroken run on top of {from}"
                )));
            }
            ((run - left) as u8, has_pawn, &r[end..])
        } else if let Some(r) = rest.strip_prefix('+') {
            let end = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            (number(&r[..end])?, true, &r[end..])
        } else {
            (run.min(u8::MAX as usize) as u8, has_pawn, rest)
        };
        let mut chars = tail.chars();
        match chars.next() {
            Some('-' | '>' | 'x' | 'X') => {}
            _ => {
                return Err(bad(format!(
                    "`{t}`: expected `-`, `>`, `x`, `~` or `*` after the square (see the notation \
                     in the Kyo rules)"
                )));
            }
        }
        let to = square(chars.as_str())?;
        Ok(Action::Step {
            from,
            to,
            pawn,
            chips,
        })
    }

    /// A shuffle order written over more chips than it changes, cut down to its lowest changed chip.
    fn normalize_order(&self, at: Sq, order: Order) -> Order {
        let chips = &self.board.cell(at).chips;
        let m = order.len();
        if m > chips.len() {
            return order;
        }
        let old = &chips[chips.len() - m..];
        match (0..m).find(|i| old[*i].kind != order.get(*i)) {
            Some(i) => Order::from_kinds(order.kinds().skip(i)),
            None => order,
        }
    }
}

/// "1 chip", "3 chips".
fn chips_word(n: usize) -> String {
    if n == 1 {
        "1 chip".to_string()
    } else {
        format!("{n} chips")
    }
}

/// A chip kind's rule-book name.
fn chip_name(k: crate::board::ChipKind) -> &'static str {
    match k {
        crate::board::ChipKind::Dark => "Dark Mana",
        crate::board::ChipKind::Light => "Light Mana",
        crate::board::ChipKind::Shield => "Shield",
    }
}

impl Kyo {
    /// `action` in plain words, as a player says it: "Gold: Heavy D0 → C1, Mana move, leaves 1
    /// chip", "Red: Light Pawn C6 → C5, captures Gold's Heavy", "Gold: Tower E1 deploys 2 Shields
    /// to E2", "Gold ends the turn". Kyo hides nothing, so every observer reads the same words.
    pub fn words(&self, action: &Action) -> String {
        let me = self.to_move.0;
        let side = self.seat_label(me);
        let pawn_at = |sq: Sq| self.board.cell(sq).pawn.map(|p| p.kind.name());
        match *action {
            Action::EndTurn => format!("{side} ends the turn"),
            Action::Step {
                from,
                to,
                pawn: true,
                chips,
            } => {
                let cell = self.board.cell(from);
                let run = cell.own_run(me);
                let left = run.saturating_sub(chips as usize);
                let piece = pawn_at(from).unwrap_or("pawn");
                let mut s = format!("{side}: {piece} {from} → {to}");
                let target = self.board.cell(to).pawn;
                if let Some(victim) = target.filter(|p| p.owner != me) {
                    s.push_str(&format!(
                        ", captures {}'s {}",
                        self.seat_label(victim.owner),
                        victim.kind.name()
                    ));
                } else if is_adjacent(from, to)
                    && self.mana_qualifies(from, to, chips as usize).is_some()
                {
                    s.push_str(", Mana move");
                }
                if chips > 0 {
                    s.push_str(&format!(", carries {}", chips_word(chips as usize)));
                }
                if left > 0 {
                    s.push_str(&format!(", leaves {}", chips_word(left)));
                }
                s
            }
            Action::Step {
                from,
                to,
                pawn: false,
                chips,
            } => format!("{side}: {} {from} → {to}", chips_word(chips as usize)),
            Action::Deploy { from, to, count } => {
                let piece = pawn_at(from).unwrap_or("pawn");
                let shields = if count == 1 {
                    "1 Shield".to_string()
                } else {
                    format!("{count} Shields")
                };
                format!("{side}: {piece} {from} deploys {shields} to {to}")
            }
            Action::Shuffle { at, order } => {
                let whose = match pawn_at(at) {
                    Some(p) => format!("{p} {at} reorders its"),
                    None => format!("reorders the stack {at}:"),
                };
                let kinds: Vec<&str> = order.kinds().map(chip_name).collect();
                format!(
                    "{side}: {whose} top {}: {} (bottom to top)",
                    chips_word(order.len()),
                    kinds.join(", ")
                )
            }
        }
    }
}

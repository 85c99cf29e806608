//! Why a move or a shot is refused, in a player's words: the rule that forbids it, found by tracing
//! the move the way [`Rules::walk_move`] and [`Rules::walk_shot`] do and stopping where they stop.
//!
//! The sentences name the cell and the piece ("blocked at c4 by Black's Rabble", "a Rabble moves at
//! most 1 square: c6 is 3 squares away", "the Forest on c4 halts a Heavy Horse", "a Rabble cannot
//! take an Elephant"). They are asked only during play, when both armies are on view, so they may
//! name any piece.

use super::geo::NONE;
use super::rules::*;

/// The seats' names, as the game names them.
const SIDES: [&str; 2] = ["White", "Black"];

/// "a Rabble", "an Elephant".
fn a(kind: u8) -> String {
    let name = KIND_NAMES[kind as usize];
    let article = if name.starts_with(['A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// A piece code as a player names it: "your Spear", "Black's Rabble", "a Mountain".
fn whose(p: u8, side: u8) -> String {
    let kind = kind_of(p);
    if kind == MOUNTAIN {
        "a Mountain".to_string()
    } else if side_of(p) == side {
        format!("your {}", KIND_NAMES[kind as usize])
    } else {
        format!(
            "{}'s {}",
            SIDES[side_of(p) as usize & 1],
            KIND_NAMES[kind as usize]
        )
    }
}

/// A class in the rule book's words: "elite cavalry", "a Dragon-level special".
fn class_name((cat, elite): (&'static str, bool)) -> String {
    match (cat, elite) {
        ("special", true) => "a Dragon-level special".to_string(),
        ("special", false) => "an Elephant-level special".to_string(),
        (cat, true) => format!("elite {cat}"),
        (cat, false) => format!("basic {cat}"),
    }
}

impl Rules {
    fn unit(&self, n: usize) -> &'static str {
        match (self.geo.ortho == 6, n == 1) {
            (true, true) => "hex",
            (true, false) => "hexes",
            (false, true) => "square",
            (false, false) => "squares",
        }
    }

    /// The directions `lo..hi` in words.
    fn directions(&self, lo: u8, hi: u8) -> &'static str {
        let k = self.geo.ortho as u8;
        if lo == 0 && hi == 2 * k {
            "in any direction"
        } else if lo == 0 {
            "only orthogonally"
        } else {
            "only diagonally"
        }
    }

    /// Why the piece on `from` (one of `side`'s) cannot move to `to`, when no move of it does. Names
    /// the first rule that stops it along the way: the destination, the direction, the range, a
    /// blocker, the terrain, standing in Water, the capture table.
    pub fn why_not_move(&self, pos: &Pos, from: u8, to: u8) -> String {
        let geo = self.geo;
        let p = pos.board[from as usize];
        let (kind, side) = (kind_of(p), side_of(p));
        let spec = &self.specs[kind as usize];
        let there = pos.board[to as usize];
        let (piece_name, to_name) = (KIND_NAMES[kind as usize], geo.name(to));
        // An enemy in the line of a ranged attack: the shot is what the player tried.
        if there != 0
            && side_of(there) != side
            && kind_of(there) != MOUNTAIN
            && let Some(s) = spec.shot
            && let Some((dir, dist)) = geo.line(from, to)
            && (s.dir_lo..s.dir_hi).contains(&(dir as u8))
            && dist <= s.range as usize
        {
            return self.why_not_shot(pos, from, to);
        }
        if there != 0 && kind_of(there) == MOUNTAIN {
            return format!("{to_name} is a Mountain: Mountains are never entered or captured");
        }
        if there != 0 && side_of(there) == side {
            return format!("{to_name} holds {}", whose(there, side));
        }
        if pos.terrain[to as usize] == BURNING {
            return format!("{to_name} is burning Water: no piece may enter it");
        }
        let ways = self.directions(spec.dir_lo, spec.dir_hi);
        let Some((dir, dist)) = geo.line(from, to) else {
            return format!(
                "{to_name} is not in line with {}: {} moves {ways}",
                geo.name(from),
                a(kind)
            );
        };
        if !(spec.dir_lo..spec.dir_hi).contains(&(dir as u8)) {
            return format!("{} moves {ways}", a(kind));
        }
        if dist > spec.range as usize {
            return format!(
                "{} moves at most {} {}: {to_name} is {dist} {} away",
                a(kind),
                spec.range,
                self.unit(spec.range as usize),
                self.unit(dist)
            );
        }
        // Along the line, step by step, as the move generator walks it.
        let mut remaining = spec.range as i32;
        // The first costly terrain passed (Hills, Forest, Water) and its cost: it is why a piece
        // halts short of its range.
        let mut slowed: Option<(u8, i32)> = None;
        let mut cur = from;
        while cur != to {
            let nxt = geo.step[cur as usize][dir];
            if nxt == NONE {
                break;
            }
            let q = pos.board[nxt as usize];
            let t = pos.terrain[nxt as usize];
            if nxt != to {
                if q != 0 && kind_of(q) == MOUNTAIN && !spec.flies {
                    return format!(
                        "blocked at {} by a Mountain: only the Dragon flies over Mountains",
                        geo.name(nxt)
                    );
                }
                if t == BURNING && !spec.flies {
                    return format!("blocked at {}: the Water there is burning", geo.name(nxt));
                }
                if q != 0 && kind_of(q) != MOUNTAIN {
                    return format!(
                        "blocked at {} by {}: a move never passes through pieces",
                        geo.name(nxt),
                        whose(q, side)
                    );
                }
                if self.expert && !spec.flies {
                    let c = Self::cost(t, kind);
                    let terrain = TERRAIN_NAMES[t as usize];
                    if t == FORTRESS {
                        return format!(
                            "entering the Fortress on {} halts every move",
                            geo.name(nxt)
                        );
                    }
                    if c >= remaining {
                        return match slowed {
                            _ if c > 1 => format!(
                                "entering the {terrain} on {} costs {c} of the {remaining} movement {} has left: it halts there",
                                geo.name(nxt),
                                a(kind)
                            ),
                            Some((cell, cost)) => format!(
                                "entering the {} on {} costs {} {cost} of its {} movement: it halts on {}",
                                TERRAIN_NAMES[pos.terrain[cell as usize] as usize],
                                geo.name(cell),
                                a(kind),
                                spec.range,
                                geo.name(nxt)
                            ),
                            None => format!("{} halts on {}", a(kind), geo.name(nxt)),
                        };
                    }
                    if c > 1 && slowed.is_none() {
                        slowed = Some((nxt, c));
                    }
                    remaining -= c;
                } else {
                    remaining -= 1;
                }
            }
            cur = nxt;
        }
        if there != 0 {
            if !self.may_attack(pos, from, kind) {
                return format!(
                    "the {piece_name} on {} stands in Water: pieces in Water cannot attack (the Dragon excepted)",
                    geo.name(from)
                );
            }
            if !self.beats(pos, from, to) {
                return self.capture_table(pos, from, to);
            }
        }
        format!(
            "the {piece_name} on {} cannot reach {to_name}",
            geo.name(from)
        )
    }

    /// Why the piece on `from` cannot shoot the piece on `to` (a capture without moving).
    pub fn why_not_shot(&self, pos: &Pos, from: u8, to: u8) -> String {
        let geo = self.geo;
        let p = pos.board[from as usize];
        let (kind, side) = (kind_of(p), side_of(p));
        let to_name = geo.name(to);
        let Some(s) = self.specs[kind as usize].shot else {
            return format!("{} has no ranged attack: it captures by moving", a(kind));
        };
        let there = pos.board[to as usize];
        if there == 0 || side_of(there) == side || kind_of(there) == MOUNTAIN {
            return format!("a shot captures an enemy piece, and {to_name} holds none");
        }
        if !self.may_attack(pos, from, kind) {
            return format!(
                "the {} on {} stands in Water: pieces in Water cannot attack (the Dragon excepted)",
                KIND_NAMES[kind as usize],
                geo.name(from)
            );
        }
        // The capture table forbids a capture by moving as well as a shot: it is the reason first.
        if !self.beats(pos, from, to) {
            return self.capture_table(pos, from, to);
        }
        let ways = self.directions(s.dir_lo, s.dir_hi);
        let Some((dir, dist)) = geo.line(from, to) else {
            return format!(
                "{to_name} is not in line with {}: {} shoots {ways}",
                geo.name(from),
                a(kind)
            );
        };
        if !(s.dir_lo..s.dir_hi).contains(&(dir as u8)) {
            return format!("{} shoots {ways}", a(kind));
        }
        if dist > s.range as usize {
            return format!(
                "{} shoots at most {} {}: {to_name} is {dist} {} away",
                a(kind),
                s.range,
                self.unit(s.range as usize),
                self.unit(dist)
            );
        }
        let mut over = false;
        let mut cur = geo.step[from as usize][dir];
        while cur != to && cur != NONE {
            let q = pos.board[cur as usize];
            if q != 0 {
                let allowed = if kind_of(q) == MOUNTAIN {
                    s.over_mountain
                } else if side_of(q) == side {
                    s.over_friend
                } else {
                    s.over_enemy
                };
                if !allowed {
                    return format!(
                        "the shot is blocked at {} by {}",
                        geo.name(cur),
                        whose(q, side)
                    );
                }
                over = true;
            }
            cur = geo.step[cur as usize][dir];
        }
        if s.need_blocker && !over {
            return format!(
                "{} shoots only over a Mountain or a piece of its own, and nothing stands between {} and {to_name}",
                a(kind),
                geo.name(from)
            );
        }
        format!(
            "the {} on {} cannot shoot {to_name}",
            KIND_NAMES[kind as usize],
            geo.name(from)
        )
    }

    /// The capture table's refusal: "a Rabble cannot take an Elephant", with the Fortress or the
    /// King's morale named when they change a piece's class where it stands.
    fn capture_table(&self, pos: &Pos, from: u8, to: u8) -> String {
        let (ak, dk) = (
            kind_of(pos.board[from as usize]),
            kind_of(pos.board[to as usize]),
        );
        let changed = |cell: u8, kind: u8| -> String {
            let side = side_of(pos.board[cell as usize]);
            let base = class_words(kind);
            let now = self.class_at(pos, cell, kind, side);
            match (base, now) {
                (Some(b), Some(n)) if b != n => {
                    let why = if pos.terrain[cell as usize] == FORTRESS && n.0 == "special" {
                        "in its Fortress"
                    } else {
                        "next to its King"
                    };
                    format!(" {why} (it counts as {} there)", class_name(n))
                }
                _ => String::new(),
            }
        };
        format!(
            "{}{} cannot take {}{}",
            a(ak),
            changed(from, ak),
            a(dk),
            changed(to, dk)
        )
    }

    /// The class (in the rule book's words) of the `kind` of `side` standing on `cell`: the Fortress
    /// and the King's morale applied.
    fn class_at(&self, pos: &Pos, cell: u8, kind: u8, side: u8) -> Option<(&'static str, bool)> {
        class_words(kind)?;
        let (cat, elite) = self.class(pos, cell, kind, side);
        Some((category_name(cat), elite))
    }
}

/// Whether `side`'s King is capturable after `side` plays the move, and by which piece: "your King on
/// e1 would be open to Black's Dragon on e5".
pub fn check_words(rules: &Rules, pos: &Pos, side: u8, action: &super::CairdAction) -> String {
    let geo = rules.geo;
    let mut after = *pos;
    rules.make(&mut after, side, action);
    let king = after.kings[side as usize];
    if king == NONE {
        return "it would leave your King capturable (check)".to_string();
    }
    let by = (0..geo.n as u8).find(|&c| {
        let q = after.board[c as usize];
        q != 0 && side_of(q) != side && kind_of(q) != MOUNTAIN && rules.hits(&after, c, king)
    });
    match by {
        Some(c) => format!(
            "your King on {} would be in check from {} on {}",
            geo.name(king),
            whose(after.board[c as usize], side),
            geo.name(c)
        ),
        None => format!("your King on {} would be in check", geo.name(king)),
    }
}

//! The pieces: Movement, Strength, Range, Trump, and the combat test.

use std::fmt;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A kind of piece. Its JSON form is the snake-case name (`"light_horse"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[ts(export_to = "cyvasse/")]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Rabble,
    Spearman,
    Elephant,
    LightHorse,
    HeavyHorse,
    Crossbowman,
    Catapult,
    Trebuchet,
    Dragon,
    King,
    Mountain,
}

impl Kind {
    /// Every kind, in army order.
    pub const ALL: [Kind; 11] = [
        Kind::Rabble,
        Kind::Spearman,
        Kind::Elephant,
        Kind::LightHorse,
        Kind::HeavyHorse,
        Kind::Crossbowman,
        Kind::Catapult,
        Kind::Trebuchet,
        Kind::Dragon,
        Kind::King,
        Kind::Mountain,
    ];

    /// The ten unit kinds (everything but the Mountain).
    pub const UNITS: [Kind; 10] = [
        Kind::Rabble,
        Kind::Spearman,
        Kind::Elephant,
        Kind::LightHorse,
        Kind::HeavyHorse,
        Kind::Crossbowman,
        Kind::Catapult,
        Kind::Trebuchet,
        Kind::Dragon,
        Kind::King,
    ];

    /// Index in [`Kind::ALL`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind each army has.
    pub fn count(self) -> usize {
        match self {
            Kind::Rabble => 3,
            Kind::Catapult | Kind::Trebuchet | Kind::Dragon | Kind::King => 1,
            _ => 2,
        }
    }

    /// Movement in jumps (the Dragon's flight is handled separately; it reports 0 here).
    /// For horses this is the first leg.
    pub fn movement(self) -> u8 {
        match self {
            Kind::Rabble | Kind::Elephant | Kind::LightHorse => 3,
            Kind::Spearman | Kind::HeavyHorse | Kind::Catapult | Kind::King => 2,
            Kind::Crossbowman => 1,
            Kind::Trebuchet | Kind::Dragon | Kind::Mountain => 0,
        }
    }

    /// Strength (0 for the Mountain, which never fights).
    pub fn strength(self) -> u8 {
        match self {
            Kind::Rabble | Kind::Trebuchet => 1,
            Kind::Spearman | Kind::LightHorse | Kind::Crossbowman | Kind::King => 2,
            Kind::HeavyHorse | Kind::Catapult => 3,
            Kind::Elephant => 4,
            Kind::Dragon => 5,
            Kind::Mountain => 0,
        }
    }

    /// Shooting range (0 for units that do not shoot).
    pub fn range(self) -> u8 {
        match self {
            Kind::Crossbowman => 2,
            Kind::Catapult | Kind::Trebuchet => 3,
            _ => 0,
        }
    }

    /// Whether this is a range unit (Crossbowman, Catapult, Trebuchet).
    pub fn is_ranged(self) -> bool {
        self.range() > 0
    }

    /// Whether this is a horse (two legs per turn).
    pub fn is_horse(self) -> bool {
        matches!(self, Kind::LightHorse | Kind::HeavyHorse)
    }

    /// The kind this one trumps, if any.
    pub fn trump(self) -> Option<Kind> {
        match self {
            Kind::Spearman => Some(Kind::LightHorse),
            Kind::Crossbowman => Some(Kind::Elephant),
            Kind::Catapult | Kind::Trebuchet => Some(Kind::Dragon),
            _ => None,
        }
    }

    /// Whether `self` trumps `other`.
    pub fn trumps(self, other: Kind) -> bool {
        self.trump() == Some(other)
    }

    /// Strength when defending: range units defend at 1.
    pub fn defence(self) -> u8 {
        if self.is_ranged() { 1 } else { self.strength() }
    }

    /// The combat test: attacker `self` beats defender `d` when `d` does not trump it and either it
    /// trumps `d` or its Strength is at least `d`'s (range units defending at 1). Mountains are never
    /// beaten and never attack.
    pub fn beats(self, d: Kind) -> bool {
        if self == Kind::Mountain || d == Kind::Mountain || d.trumps(self) {
            return false;
        }
        self.trumps(d) || self.strength() >= d.defence()
    }

    /// The one-letter code (`R S E L H X C T D K M`).
    pub fn letter(self) -> char {
        match self {
            Kind::Rabble => 'R',
            Kind::Spearman => 'S',
            Kind::Elephant => 'E',
            Kind::LightHorse => 'L',
            Kind::HeavyHorse => 'H',
            Kind::Crossbowman => 'X',
            Kind::Catapult => 'C',
            Kind::Trebuchet => 'T',
            Kind::Dragon => 'D',
            Kind::King => 'K',
            Kind::Mountain => 'M',
        }
    }

    /// The kind with this letter (either case).
    pub fn from_letter(c: char) -> Option<Kind> {
        let up = c.to_ascii_uppercase();
        Kind::ALL.into_iter().find(|k| k.letter() == up)
    }

    /// The display name ("Light Horse").
    pub fn name(self) -> &'static str {
        match self {
            Kind::Rabble => "Rabble",
            Kind::Spearman => "Spearman",
            Kind::Elephant => "Elephant",
            Kind::LightHorse => "Light Horse",
            Kind::HeavyHorse => "Heavy Horse",
            Kind::Crossbowman => "Crossbowman",
            Kind::Catapult => "Catapult",
            Kind::Trebuchet => "Trebuchet",
            Kind::Dragon => "Dragon",
            Kind::King => "King",
            Kind::Mountain => "Mountain",
        }
    }
}

impl Kind {
    /// What this kind does, in the rule book's words (the web client's tooltip), from the tables
    /// above: its Movement (a horse's two legs, the Dragon's flight), Strength, Range and Trump.
    pub fn legend(self) -> String {
        if self == Kind::Mountain {
            return "never moves, blocks the way, never captured".into();
        }
        let moves = match self {
            Kind::Dragon => "flies any distance along the six hex lines".to_string(),
            _ if self.movement() == 0 => "never moves".to_string(),
            _ if self.is_horse() => {
                format!("moves {} + {}", self.movement(), super::state::SECOND_LEG)
            }
            _ => format!("moves {}", self.movement()),
        };
        let mut words = format!("{moves}, strength {}", self.strength());
        if self.is_ranged() {
            words.push_str(&format!(", range {}", self.range()));
        }
        if let Some(t) = self.trump() {
            words.push_str(&format!(", trumps {}", t.name()));
        }
        if self == Kind::King {
            words.push_str("; lose it and the game is lost");
        }
        words
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

// ------------------------------------------------------------------------------------------------
// Square codes used on the internal board.

/// An empty square.
pub const EMPTY: u8 = 0;
/// A Mountain.
pub const MOUNTAIN: u8 = 1;

/// The square code of a unit of `side` (0 or 1).
#[inline]
pub fn unit_code(side: usize, kind: Kind) -> u8 {
    2 + (side as u8) * 10 + kind as u8
}

/// The side and kind of a unit code (`None` for empty, mountain and off-board codes).
#[inline]
pub fn decode(code: u8) -> Option<(usize, Kind)> {
    if (2..22).contains(&code) {
        let side = ((code - 2) / 10) as usize;
        let kind = Kind::UNITS[((code - 2) % 10) as usize];
        Some((side, kind))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for side in 0..2 {
            for k in Kind::UNITS {
                assert_eq!(decode(unit_code(side, k)), Some((side, k)));
            }
        }
        assert_eq!(decode(EMPTY), None);
        assert_eq!(decode(MOUNTAIN), None);
        for k in Kind::ALL {
            assert_eq!(Kind::from_letter(k.letter()), Some(k));
        }
        let total: usize = Kind::ALL.iter().map(|k| k.count()).sum();
        assert_eq!(total, 19);
    }

    /// The legend says each kind's own Movement, Strength, Range and Trump (the tables above), and
    /// reads as the rule book does.
    #[test]
    fn the_legend_is_the_tables_in_words() {
        for k in Kind::UNITS {
            let words = k.legend();
            assert!(
                words.contains(&format!("strength {}", k.strength())),
                "{k}: {words}"
            );
            assert_eq!(words.contains(", range "), k.is_ranged(), "{k}: {words}");
            if k.is_ranged() {
                assert!(
                    words.contains(&format!("range {}", k.range())),
                    "{k}: {words}"
                );
            }
            match k.trump() {
                Some(t) => assert!(
                    words.contains(&format!("trumps {}", t.name())),
                    "{k}: {words}"
                ),
                None => assert!(!words.contains("trumps"), "{k}: {words}"),
            }
            if k.movement() > 0 {
                assert!(
                    words.starts_with(&format!("moves {}", k.movement())),
                    "{k}: {words}"
                );
            }
        }
        assert_eq!(Kind::LightHorse.legend(), "moves 3 + 2, strength 2");
        assert_eq!(
            Kind::Crossbowman.legend(),
            "moves 1, strength 2, range 2, trumps Elephant"
        );
        assert_eq!(
            Kind::Trebuchet.legend(),
            "never moves, strength 1, range 3, trumps Dragon"
        );
        assert_eq!(
            Kind::Dragon.legend(),
            "flies any distance along the six hex lines, strength 5"
        );
        assert_eq!(
            Kind::King.legend(),
            "moves 2, strength 2; lose it and the game is lost"
        );
        assert_eq!(
            Kind::Mountain.legend(),
            "never moves, blocks the way, never captured"
        );
    }
}

//! The pieces' legend ([`piece_legend`]): each piece in the rule book's words, read from the rules
//! engine's own tables ([`Rules::new`]'s movement and shot specs, [`class_words`], [`Rules::cost`],
//! [`Rules::may_attack`]) so that no client restates them.
//!
//! The pieces move differently under some options (Version C, the hexagon, `super_trebuchets`,
//! `dragonfyre`), while a legend is one text per piece. Each piece is therefore named once: its class
//! and what it does in the standard game (Version A on the square board), followed by one part per
//! option set that changes it, saying only what changes (`Expert: moves 1 orthogonally or
//! diagonally, shoots …`). A part replaces the same clause (moving, taking without moving, terrain)
//! of the game it builds on: "Expert on the hexagon" builds on "Expert" and "on the hexagon".

use super::rules::{KIND_NAMES, KING, MOUNTAIN, Pos, Rules, ShotSpec, Spec, WATER, class_words};
use super::{BoardKind, CairdOptions, Version};

/// The Mountain's words: it has no movement spec and no class (the capture test refuses it).
const MOUNTAIN_WORDS: &str = "never moves, never captured";

/// The clauses of one piece's description under one rule set; `None` where it has no such clause.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Clauses {
    moves: Option<String>,
    takes: Option<String>,
    terrain: Option<String>,
}

impl Clauses {
    fn get(&self, slot: usize) -> &Option<String> {
        match slot {
            0 => &self.moves,
            1 => &self.takes,
            _ => &self.terrain,
        }
    }
}

/// An option set that changes pieces: its label, its options and the earlier sets it builds on.
struct Variant {
    label: &'static str,
    options: CairdOptions,
    builds_on: &'static [usize],
}

fn variants() -> Vec<Variant> {
    let expert = CairdOptions {
        version: Version::Expert,
        ..CairdOptions::default()
    };
    let hex = CairdOptions {
        board: BoardKind::Hex,
        ..CairdOptions::default()
    };
    let super_t = CairdOptions {
        super_trebuchets: true,
        ..CairdOptions::default()
    };
    let fyre = CairdOptions {
        dragonfyre: true,
        ..CairdOptions::default()
    };
    vec![
        Variant {
            label: "Expert",
            options: expert.clone(),
            builds_on: &[],
        },
        Variant {
            label: "on the hexagon",
            options: hex.clone(),
            builds_on: &[],
        },
        Variant {
            label: "Expert on the hexagon",
            options: CairdOptions {
                version: Version::Expert,
                ..hex.clone()
            },
            builds_on: &[0, 1],
        },
        Variant {
            label: "super_trebuchets",
            options: super_t.clone(),
            builds_on: &[],
        },
        Variant {
            label: "super_trebuchets, Expert",
            options: CairdOptions {
                version: Version::Expert,
                ..super_t
            },
            builds_on: &[0, 3],
        },
        Variant {
            label: "dragonfyre",
            options: fyre.clone(),
            builds_on: &[],
        },
        Variant {
            label: "dragonfyre on the hexagon",
            options: CairdOptions {
                board: BoardKind::Hex,
                ..fyre
            },
            builds_on: &[1, 5],
        },
    ]
}

/// The directions a spec covers, in words (the square board's and the hexagon's words are the same:
/// orthogonal and diagonal neighbours).
fn directions(rules: &Rules, lo: u8, hi: u8) -> &'static str {
    let k = rules.geo.ortho as u8;
    match (lo, hi) {
        (0, h) if h == k => "orthogonally",
        (l, h) if l == k && h == 2 * k => "diagonally",
        _ => "orthogonally or diagonally",
    }
}

fn distance(range: u8) -> String {
    if range == 1 {
        "1".to_string()
    } else {
        format!("up to {range}")
    }
}

fn move_words(rules: &Rules, spec: &Spec) -> String {
    let mut words = format!(
        "moves {} {}",
        distance(spec.range),
        directions(rules, spec.dir_lo, spec.dir_hi)
    );
    if spec.flies {
        words.push_str(", flying over Mountains");
    }
    words
}

fn shot_words(rules: &Rules, shot: &ShotSpec) -> String {
    let line = format!(
        "{} {}",
        distance(shot.range),
        directions(rules, shot.dir_lo, shot.dir_hi)
    );
    if shot.need_blocker {
        // The Basic Trebuchet: its capture without moving needs something in between.
        let between = if shot.over_enemy {
            "any piece"
        } else {
            "a Mountain or a friendly piece"
        };
        return format!("takes without moving {line}, beyond {between}");
    }
    let over = match (shot.over_mountain, shot.over_friend, shot.over_enemy) {
        (_, _, true) => " over every piece",
        (true, true, false) => " over Mountains and friendly pieces",
        (true, false, false) => " over Mountains",
        (false, true, false) => " over friendly pieces",
        (false, false, false) => ", never over a piece",
    };
    format!("shoots {line}{over}")
}

/// What terrain does to `kind` that it does to no other piece (Version C only): the Dragon ignores it,
/// a piece may cross Water at its own cost, a piece may attack from Water.
fn terrain_words(rules: &Rules, kind: u8, spec: &Spec) -> Option<String> {
    if !rules.expert {
        return None;
    }
    let mut on_water = Pos::empty();
    on_water.terrain[0] = WATER;
    let mut parts = Vec::new();
    if spec.flies {
        parts.push("ignores terrain".to_string());
    } else {
        let cost = Rules::cost(WATER, kind);
        if cost != Rules::cost(WATER, KING) {
            parts.push(format!("Water costs it {cost}"));
        }
    }
    if rules.may_attack(&on_water, 0, kind) && !rules.may_attack(&on_water, 0, KING) {
        parts.push("attacks from Water".to_string());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

fn clauses(rules: &Rules, kind: u8) -> Clauses {
    let spec = &rules.specs[kind as usize];
    Clauses {
        moves: Some(move_words(rules, spec)),
        takes: spec.shot.as_ref().map(|s| shot_words(rules, s)),
        terrain: terrain_words(rules, kind, spec),
    }
}

/// Each piece (by the name the view and the web client give it) in the rule book's words: its class,
/// how it moves and takes, what terrain does to it, then what each option set changes (see the module
/// docs).
pub fn piece_legend() -> Vec<(String, String)> {
    let base_rules = Rules::new(&CairdOptions::default());
    let variants = variants();
    let variant_rules: Vec<Rules> = variants.iter().map(|v| Rules::new(&v.options)).collect();
    (0..KIND_NAMES.len() as u8)
        .map(|kind| {
            let name = KIND_NAMES[kind as usize].to_string();
            let Some((category, elite)) = class_words(kind) else {
                debug_assert_eq!(kind, MOUNTAIN);
                return (name, MOUNTAIN_WORDS.to_string());
            };
            let base = clauses(&base_rules, kind);
            let mut parts = vec![if kind == KING {
                category.to_string()
            } else {
                format!("{category}, {}", if elite { "elite" } else { "basic" })
            }];
            parts.extend(
                [&base.moves, &base.takes, &base.terrain]
                    .into_iter()
                    .flatten()
                    .cloned(),
            );
            if kind == KING {
                parts.push("takes and is taken by any piece".to_string());
            }
            let all: Vec<Clauses> = variant_rules.iter().map(|r| clauses(r, kind)).collect();
            for (i, variant) in variants.iter().enumerate() {
                let changed: Vec<String> = (0..3)
                    .filter_map(|slot| {
                        // What a reader takes the clause to be: the latest set this one builds on
                        // that changed it, else the standard game's.
                        let inherited = variant
                            .builds_on
                            .iter()
                            .rev()
                            .map(|&j| all[j].get(slot))
                            .find(|c| *c != base.get(slot))
                            .unwrap_or(base.get(slot));
                        let own = all[i].get(slot);
                        (own != inherited).then(|| own.clone()).flatten()
                    })
                    .collect();
                if !changed.is_empty() {
                    parts.push(format!("{}: {}", variant.label, changed.join(", ")));
                }
            }
            (name, parts.join("; "))
        })
        .collect()
}

#[cfg(test)]
mod legend_tests {
    use super::*;
    use crate::caird::rules::{CROSSBOW, DRAGON, ELEPHANT, HEAVY, LIGHT, RABBLE, SPEAR, TREBUCHET};

    fn legend_of(kind: u8) -> String {
        piece_legend()
            .into_iter()
            .find(|(name, _)| name == KIND_NAMES[kind as usize])
            .map(|(_, words)| words)
            .unwrap_or_else(|| panic!("no legend for {}", KIND_NAMES[kind as usize]))
    }

    /// The legend names every piece once, in the engine's order, and each piece's words carry its own
    /// movement numbers from the spec tables of the standard game and of Version C on the hexagon: a
    /// change to a table without the words fails here.
    #[test]
    fn the_legend_is_the_tables_in_words() {
        let legend = piece_legend();
        let names: Vec<&str> = legend.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, KIND_NAMES);
        for (kind, (_, words)) in legend.iter().enumerate() {
            let kind = kind as u8;
            if kind == MOUNTAIN {
                assert_eq!(words, MOUNTAIN_WORDS);
                continue;
            }
            let (category, elite) = class_words(kind).unwrap_or_else(|| panic!("{words}"));
            assert!(words.starts_with(category), "{words}");
            if kind != KING {
                let level = if elite { "elite" } else { "basic" };
                assert!(
                    words.starts_with(&format!("{category}, {level};")),
                    "{words}"
                );
            }
            let basic = Rules::new(&CairdOptions::default()).specs[kind as usize];
            let moves = format!("moves {}", distance(basic.range));
            assert!(words.contains(&moves), "{words} lacks {moves}");
            for v in variants() {
                let rules = Rules::new(&v.options);
                let spec = rules.specs[kind as usize];
                if let Some(shot) = spec.shot {
                    let range = distance(shot.range);
                    assert!(words.contains(&range), "{words}: {} shot {range}", v.label);
                }
                assert!(
                    words.contains(&distance(spec.range)),
                    "{words}: {}",
                    v.label
                );
            }
        }
    }

    /// The words the rule book uses for the standard game, and each option's difference.
    #[test]
    fn the_legend_reads_as_the_rule_book() {
        assert_eq!(
            legend_of(KING),
            "king; moves 1 orthogonally or diagonally; takes and is taken by any piece"
        );
        assert_eq!(
            legend_of(DRAGON),
            "special, elite; moves up to 4 orthogonally or diagonally, flying over Mountains; \
             Expert: ignores terrain, attacks from Water; \
             on the hexagon: moves up to 5 orthogonally, flying over Mountains; \
             dragonfyre: shoots up to 2 orthogonally or diagonally over friendly pieces; \
             dragonfyre on the hexagon: shoots up to 2 orthogonally over friendly pieces"
        );
        assert_eq!(
            legend_of(ELEPHANT),
            "special, basic; moves up to 3 orthogonally; Expert: Water costs it 1"
        );
        assert_eq!(
            legend_of(TREBUCHET),
            "ranged, elite; moves up to 3 orthogonally; takes without moving up to 3 orthogonally, \
             beyond a Mountain or a friendly piece; \
             Expert: moves 1 orthogonally or diagonally, \
             shoots up to 3 orthogonally over Mountains and friendly pieces; \
             Expert on the hexagon: shoots up to 4 orthogonally over Mountains and friendly pieces; \
             super_trebuchets: takes without moving up to 3 orthogonally, beyond any piece; \
             super_trebuchets, Expert: shoots up to 3 orthogonally over every piece"
        );
        assert_eq!(
            legend_of(CROSSBOW),
            "ranged, basic; moves up to 2 diagonally; \
             Expert: shoots up to 2 diagonally, never over a piece; \
             on the hexagon: moves up to 2 orthogonally; \
             Expert on the hexagon: shoots up to 3 orthogonally, never over a piece"
        );
        assert_eq!(legend_of(HEAVY), "cavalry, elite; moves up to 3 diagonally");
        assert_eq!(legend_of(LIGHT), "cavalry, basic; moves up to 2 diagonally");
        assert_eq!(
            legend_of(SPEAR),
            "infantry, elite; moves 1 orthogonally or diagonally"
        );
        assert_eq!(legend_of(RABBLE), "infantry, basic; moves 1 orthogonally");
        assert_eq!(legend_of(MOUNTAIN), "never moves, never captured");
    }
}

//! The pieces' legend ([`piece_legend`]): each piece in the rule book's words, read from the rules
//! engine's own tables ([`Rules::new`]'s movement and shot specs, [`class_words`], [`Rules::cost`],
//! [`Rules::may_attack`]) so that no client restates them.
//!
//! The pieces move differently under some options (Version C, the hexagon, `super_trebuchets`,
//! `dragonfyre`), while [`tabula_core::Game::piece_legend`] takes no options (its legend is generated
//! once for the web client). So a piece has one entry for the standard game (Version A on the square
//! board), keyed by its name (`"Trebuchet"`), and one entry for each other valid combination of those
//! options whose words differ, keyed by the name and the combination's options that differ from the
//! default, `name=value` as the options' JSON writes them (`"Trebuchet|version=expert,board=hex"`).
//! Each entry holds the piece's whole description under its options. A reader takes, among the
//! entries of the piece whose options all hold in its game, the one naming the most options (the
//! first of those), else the standard game's: an entry is left out exactly when that choice would
//! give the same words without it.

use super::rules::{KIND_NAMES, KING, MOUNTAIN, Pos, Rules, ShotSpec, Spec, WATER, class_words};
use super::{BoardKind, CairdOptions, Version};
use tabula_core::GameOptions;

/// The Mountain's words: it has no movement spec and no class (the capture test refuses it).
const MOUNTAIN_WORDS: &str = "never moves, never captured";

/// Every valid combination of the options that change pieces, with the options that differ from
/// the default as `(name, value)`, fewest first (the standard game first).
fn option_sets() -> Vec<(Vec<(&'static str, &'static str)>, CairdOptions)> {
    let mut sets = Vec::new();
    for version in [Version::Basic, Version::Expert] {
        for board in [BoardKind::Square, BoardKind::Hex] {
            for super_trebuchets in [false, true] {
                for dragonfyre in [false, true] {
                    let options = CairdOptions {
                        version,
                        board,
                        super_trebuchets,
                        dragonfyre,
                        ..CairdOptions::default()
                    };
                    if options.validate().is_err() {
                        continue;
                    }
                    let mut conds = Vec::new();
                    if version == Version::Expert {
                        conds.push(("version", "expert"));
                    }
                    if board == BoardKind::Hex {
                        conds.push(("board", "hex"));
                    }
                    if super_trebuchets {
                        conds.push(("super_trebuchets", "true"));
                    }
                    if dragonfyre {
                        conds.push(("dragonfyre", "true"));
                    }
                    sets.push((conds, options));
                }
            }
        }
    }
    sets.sort_by_key(|(conds, _)| conds.len());
    sets
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

/// A piece's whole description under `rules`: class, moves, capture without moving, terrain.
fn words(rules: &Rules, kind: u8) -> String {
    let Some((category, elite)) = class_words(kind) else {
        debug_assert_eq!(kind, MOUNTAIN);
        return MOUNTAIN_WORDS.to_string();
    };
    let spec = &rules.specs[kind as usize];
    let mut parts = vec![if kind == KING {
        category.to_string()
    } else {
        format!("{category}, {}", if elite { "elite" } else { "basic" })
    }];
    parts.push(move_words(rules, spec));
    parts.extend(spec.shot.as_ref().map(|s| shot_words(rules, s)));
    parts.extend(terrain_words(rules, kind, spec));
    if kind == KING {
        parts.push("takes and is taken by any piece".to_string());
    }
    parts.join("; ")
}

/// The entry a reader takes for a game whose options differ from the default by `conds`: among
/// `entries` (options, words), the first naming the most options that all hold (see the module docs).
fn chosen<'a>(
    entries: &'a [(Vec<(&str, &str)>, String)],
    conds: &[(&str, &str)],
) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    for (needs, words) in entries {
        if needs.iter().all(|c| conds.contains(c)) && best.is_none_or(|(n, _)| needs.len() > n) {
            best = Some((needs.len(), words));
        }
    }
    best.map(|(_, w)| w)
}

/// Each piece (by the name the view and the web client give it) in the rule book's words, for the
/// standard game and, keyed `name|option=value,…`, for each option set that changes it (see the
/// module docs).
pub fn piece_legend() -> Vec<(String, String)> {
    let sets: Vec<(Vec<(&str, &str)>, Rules)> = option_sets()
        .into_iter()
        .map(|(conds, o)| (conds, Rules::new(&o)))
        .collect();
    let mut legend = Vec::new();
    for kind in 0..KIND_NAMES.len() as u8 {
        let name = KIND_NAMES[kind as usize];
        let mut entries: Vec<(Vec<(&str, &str)>, String)> = Vec::new();
        for (conds, rules) in &sets {
            let own = words(rules, kind);
            if chosen(&entries, conds) == Some(own.as_str()) {
                continue;
            }
            let key = if conds.is_empty() {
                name.to_string()
            } else {
                let c: Vec<String> = conds.iter().map(|(k, v)| format!("{k}={v}")).collect();
                format!("{name}|{}", c.join(","))
            };
            legend.push((key, own.clone()));
            entries.push((conds.clone(), own));
        }
    }
    legend
}

#[cfg(test)]
mod legend_tests {
    use super::*;

    /// What a reader of the legend takes for `name` in a game with `options` (the module docs' rule).
    fn read(name: &str, options: &CairdOptions) -> String {
        let json = serde_json::to_value(options).unwrap_or_default();
        let mut best: Option<(usize, String)> = None;
        for (key, words) in piece_legend() {
            let (piece, conds) = match key.split_once('|') {
                Some((p, c)) => (p.to_string(), c.split(',').map(str::to_string).collect()),
                None => (key.clone(), Vec::new()),
            };
            if piece != name {
                continue;
            }
            let holds = conds.iter().all(|c: &String| {
                let (k, v) = c.split_once('=').unwrap_or((c, ""));
                json.get(k).is_some_and(|x| match x {
                    serde_json::Value::String(s) => s == v,
                    serde_json::Value::Bool(b) => v.parse::<bool>() == Ok(*b),
                    _ => false,
                })
            });
            if holds && best.as_ref().is_none_or(|(n, _)| conds.len() > *n) {
                best = Some((conds.len(), words));
            }
        }
        best.map(|(_, w)| w).unwrap_or_default()
    }

    /// For every valid combination of the options that change pieces, and every piece, the entry a
    /// reader takes is the piece's description under exactly those options, built from that rule
    /// set's tables; every entry is one a reader takes in some game.
    #[test]
    fn the_legend_is_the_tables_in_words() {
        let legend = piece_legend();
        let mut used = std::collections::HashSet::new();
        for (_, options) in option_sets() {
            let rules = Rules::new(&options);
            for kind in 0..KIND_NAMES.len() as u8 {
                let name = KIND_NAMES[kind as usize];
                let got = read(name, &options);
                assert_eq!(got, words(&rules, kind), "{name} with {options:?}");
                used.insert((name, got.clone()));
                if kind == MOUNTAIN {
                    continue;
                }
                let spec = rules.specs[kind as usize];
                assert!(
                    got.contains(&format!("moves {} ", distance(spec.range))),
                    "{got}"
                );
                if let Some(shot) = spec.shot {
                    assert!(
                        got.contains(&format!(" {} ", distance(shot.range))),
                        "{got}"
                    );
                }
            }
        }
        for (key, words) in &legend {
            let name = key.split('|').next().unwrap_or_default();
            assert!(used.contains(&(name, words.clone())), "{key} is never read");
        }
        // Each option's own words, and none for the options that change no piece.
        assert!(legend.iter().all(|(k, _)| !k.contains("large_board")));
        assert_eq!(
            legend.iter().filter(|(k, _)| !k.contains('|')).count(),
            KIND_NAMES.len()
        );
    }

    /// The words the rule book uses, in the standard game and under the options that change pieces.
    #[test]
    fn the_legend_reads_as_the_rule_book() {
        let basic = CairdOptions::default();
        let expert = CairdOptions {
            version: Version::Expert,
            ..CairdOptions::default()
        };
        let hex_expert = CairdOptions {
            board: BoardKind::Hex,
            ..expert.clone()
        };
        let fyre_expert = CairdOptions {
            dragonfyre: true,
            ..expert.clone()
        };
        let super_basic = CairdOptions {
            super_trebuchets: true,
            large_board: true,
            ..CairdOptions::default()
        };
        assert_eq!(
            read("King", &basic),
            "king; moves 1 orthogonally or diagonally; takes and is taken by any piece"
        );
        assert_eq!(
            read("Dragon", &basic),
            "special, elite; moves up to 4 orthogonally or diagonally, flying over Mountains"
        );
        assert_eq!(
            read("Dragon", &fyre_expert),
            "special, elite; moves up to 4 orthogonally or diagonally, flying over Mountains; \
             shoots up to 2 orthogonally or diagonally over friendly pieces; \
             ignores terrain, attacks from Water"
        );
        assert_eq!(
            read("Dragon", &hex_expert),
            "special, elite; moves up to 5 orthogonally, flying over Mountains; \
             ignores terrain, attacks from Water"
        );
        assert_eq!(
            read("Elephant", &basic),
            "special, basic; moves up to 3 orthogonally"
        );
        assert_eq!(
            read("Elephant", &hex_expert),
            "special, basic; moves up to 3 orthogonally; Water costs it 1"
        );
        assert_eq!(
            read("Trebuchet", &basic),
            "ranged, elite; moves up to 3 orthogonally; takes without moving up to 3 \
             orthogonally, beyond a Mountain or a friendly piece"
        );
        assert_eq!(
            read("Trebuchet", &super_basic),
            "ranged, elite; moves up to 3 orthogonally; takes without moving up to 3 \
             orthogonally, beyond any piece"
        );
        assert_eq!(
            read("Trebuchet", &expert),
            "ranged, elite; moves 1 orthogonally or diagonally; shoots up to 3 orthogonally over \
             Mountains and friendly pieces"
        );
        assert_eq!(
            read("Trebuchet", &hex_expert),
            "ranged, elite; moves 1 orthogonally or diagonally; shoots up to 4 orthogonally over \
             Mountains and friendly pieces"
        );
        assert_eq!(
            read("Crossbowman", &basic),
            "ranged, basic; moves up to 2 diagonally"
        );
        assert_eq!(
            read("Crossbowman", &expert),
            "ranged, basic; moves up to 2 diagonally; shoots up to 2 diagonally, never over a piece"
        );
        assert_eq!(
            read("Crossbowman", &hex_expert),
            "ranged, basic; moves up to 2 orthogonally; shoots up to 3 orthogonally, never over a \
             piece"
        );
        assert_eq!(
            read("Heavy Horse", &expert),
            "cavalry, elite; moves up to 3 diagonally"
        );
        assert_eq!(
            read("Light Horse", &basic),
            "cavalry, basic; moves up to 2 diagonally"
        );
        assert_eq!(
            read("Spear", &hex_expert),
            "infantry, elite; moves 1 orthogonally or diagonally"
        );
        assert_eq!(
            read("Rabble", &basic),
            "infantry, basic; moves 1 orthogonally"
        );
        assert_eq!(read("Mountain", &expert), "never moves, never captured");
    }
}

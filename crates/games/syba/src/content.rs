//! The edition's content: map, cities, heroes, research cards and races, read from the JSON files in
//! `data/` (embedded in the binary) and validated at load. Every error names the file and the entry.

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The World Spell's cost (**\[decision\]** of the rules file: 40); an edition must use it.
pub const WORLD_SPELL_COST: u8 = 40;
/// A hero's cost in Production (rules: Units); an edition must use it.
pub const HERO_COST: u8 = 10;

/// The resource kinds, in the order used everywhere (`[production, food, research]`).
pub const RESOURCE_NAMES: [&str; 3] = ["production", "food", "research"];

/// An amount of each resource.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resources {
    #[serde(default)]
    pub production: u8,
    #[serde(default)]
    pub food: u8,
    #[serde(default)]
    pub research: u8,
}

impl Resources {
    pub fn as_array(self) -> [u8; 3] {
        [self.production, self.food, self.research]
    }
    pub fn total(self) -> u32 {
        self.as_array().iter().map(|&x| u32::from(x)).sum()
    }
}

/// A resource kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Production,
    Food,
    Research,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Production, Resource::Food, Resource::Research];
    pub fn index(self) -> usize {
        self as usize
    }
    pub fn name(self) -> &'static str {
        RESOURCE_NAMES[self.index()]
    }
}

/// The three chip unit types (heroes are cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChipKind {
    Soldier,
    Knight,
    Monster,
}

impl ChipKind {
    pub const ALL: [ChipKind; 3] = [ChipKind::Soldier, ChipKind::Knight, ChipKind::Monster];
    /// Production cost.
    pub fn cost(self) -> u8 {
        match self {
            ChipKind::Soldier => 2,
            ChipKind::Knight => 5,
            ChipKind::Monster => 8,
        }
    }
    /// Base Power.
    pub fn power(self) -> u8 {
        match self {
            ChipKind::Soldier => 1,
            ChipKind::Knight => 2,
            ChipKind::Monster => 3,
        }
    }
    /// Chips per player **\[decision\]** 12 / 8 / 5.
    pub fn chips(self) -> usize {
        match self {
            ChipKind::Soldier => 12,
            ChipKind::Knight => 8,
            ChipKind::Monster => 5,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ChipKind::Soldier => "soldier",
            ChipKind::Knight => "knight",
            ChipKind::Monster => "monster",
        }
    }
}

/// City types with their level (= total resources = City Strength).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CityLevel {
    Settlement,
    Village,
    Town,
    Major,
    Capital,
}

impl CityLevel {
    pub const ALL: [CityLevel; 5] = [
        CityLevel::Settlement,
        CityLevel::Village,
        CityLevel::Town,
        CityLevel::Major,
        CityLevel::Capital,
    ];
    /// The name in the content files and the view (`"major"`, as serde writes it).
    pub fn key(self) -> &'static str {
        match self {
            CityLevel::Settlement => "settlement",
            CityLevel::Village => "village",
            CityLevel::Town => "town",
            CityLevel::Major => "major",
            CityLevel::Capital => "capital",
        }
    }
    /// The city type's name in the rule book (`"Major City"`).
    pub fn name(self) -> &'static str {
        match self {
            CityLevel::Settlement => "Settlement",
            CityLevel::Village => "Village",
            CityLevel::Town => "Town",
            CityLevel::Major => "Major City",
            CityLevel::Capital => "Capital City",
        }
    }
    /// The level: the city's total resources and its City Strength before buildings.
    pub fn value(self) -> u8 {
        match self {
            CityLevel::Settlement => 1,
            CityLevel::Village => 2,
            CityLevel::Town => 3,
            CityLevel::Major => 4,
            CityLevel::Capital => 5,
        }
    }
}

/// A one-shot effect (spells, Once per Game actions, hero Exhaust actions). Some need a target, chosen
/// when the effect is used (see [`Effect::target_kind`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Gain resources (capped at 40).
    Gain { resources: Resources },
    /// Place `count` chips of `kind` Rested on a city you own (target), as far as free chips allow.
    Units { kind: ChipKind, count: u8 },
    /// Rest all your units.
    RestAll,
    /// All your units may move `amount` more times this turn.
    ExtraMoves { amount: u8 },
    /// +`amount` Power to each of your units this turn.
    Power { amount: u8 },
    /// Destroy one unit of another player (target) whose current Power is at most `max_power`.
    DestroyUnit { max_power: u8 },
    /// Exhaust every unit of one army of another player (target).
    ExhaustArmy,
    /// A player (target) Gives you `amount` of `resource` (as much as they have). With `in_reach`, the
    /// player must have an army within the Reach of the acting hero's army.
    Tribute {
        resource: Resource,
        amount: u8,
        #[serde(default)]
        in_reach: bool,
    },
    /// Every other player Gives you `amount` of `resource` (as much as each has).
    AllGive { resource: Resource, amount: u8 },
    /// Destroy a city nobody owns whose area holds no units (target).
    DestroyCity,
    /// Hero only: move the hero's army (its owner's units in its area) to the named city's area.
    Teleport { city: String },
}

/// What an effect must be aimed at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetKind {
    None,
    OwnCity,
    EnemyUnit,
    EnemyArmy,
    Player,
    FreeCity,
}

impl Effect {
    pub fn target_kind(&self) -> TargetKind {
        match self {
            Effect::Units { .. } => TargetKind::OwnCity,
            Effect::DestroyUnit { .. } => TargetKind::EnemyUnit,
            Effect::ExhaustArmy => TargetKind::EnemyArmy,
            Effect::Tribute { .. } => TargetKind::Player,
            Effect::DestroyCity => TargetKind::FreeCity,
            _ => TargetKind::None,
        }
    }

    /// The card text of the effect.
    pub fn describe(&self) -> String {
        match self {
            Effect::Gain { resources } => format!("Gain {}.", describe_resources(*resources)),
            Effect::Units { kind, count } => format!(
                "Place {count} {}{} Rested on a city you own.",
                kind.name(),
                if *count == 1 { "" } else { "s" }
            ),
            Effect::RestAll => "Rest all your units.".into(),
            Effect::ExtraMoves { amount } => {
                format!("All your units may move {amount} more time(s) this turn.")
            }
            Effect::Power { amount } => format!("+{amount} Power to each of your units this turn."),
            Effect::DestroyUnit { max_power } => {
                format!("Destroy one unit of another player with Power at most {max_power}.")
            }
            Effect::ExhaustArmy => "Exhaust every unit of one army of another player.".into(),
            Effect::Tribute {
                resource,
                amount,
                in_reach,
            } => format!(
                "A player{} Gives you {amount} {}.",
                if *in_reach {
                    " with an army within this army's Reach"
                } else {
                    ""
                },
                resource.name()
            ),
            Effect::AllGive { resource, amount } => {
                format!("Every other player Gives you {amount} {}.", resource.name())
            }
            Effect::DestroyCity => "Destroy a city nobody owns whose area holds no units.".into(),
            Effect::Teleport { city } => format!("Move this army to {city}."),
        }
    }
}

pub fn describe_resources(r: Resources) -> String {
    let parts: Vec<String> = r
        .as_array()
        .iter()
        .zip(RESOURCE_NAMES)
        .filter(|(n, _)| **n > 0)
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}

/// Units given by a Start With text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitGrant {
    pub kind: ChipKind,
    pub count: u8,
}

/// A city's *Start With* text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartWith {
    #[serde(default)]
    pub resources: Resources,
    #[serde(default)]
    pub units: Vec<UnitGrant>,
    #[serde(default)]
    pub hero: Option<String>,
    #[serde(default)]
    pub cities: Vec<String>,
    #[serde(default)]
    pub upgrades: Vec<String>,
    #[serde(default)]
    pub buildings: Vec<String>,
}

impl StartWith {
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.cities.is_empty() {
            parts.push(format!("the cit(ies) {}", self.cities.join(", ")));
        }
        for u in &self.units {
            parts.push(format!("{} {}(s)", u.count, u.kind.name()));
        }
        if let Some(h) = &self.hero {
            parts.push(format!("the hero {h}"));
        }
        for u in &self.upgrades {
            parts.push(format!("the upgrade {u}"));
        }
        for b in &self.buildings {
            parts.push(format!("the building {b}"));
        }
        if self.resources.total() > 0 {
            parts.push(describe_resources(self.resources));
        }
        format!("Start with {}.", parts.join("; "))
    }
}

/// One city card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct City {
    pub name: String,
    pub level: CityLevel,
    pub resources: Resources,
    pub start_with: StartWith,
    pub once_per_game: Effect,
    /// Filled at load: the area holding this city.
    #[serde(skip)]
    pub area: u8,
}

/// One area of the map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Area {
    pub id: String,
    pub name: String,
    pub code: String,
    pub pos: [i32; 2],
    #[serde(default)]
    pub city: Option<String>,
}

/// A hero's shared victory condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "condition", rename_all = "snake_case", deny_unknown_fields)]
pub enum SharedVictory {
    /// The owner wins too when the next player in turn order wins.
    NextPlayerWins,
    /// The owner wins too when anyone wins by buying the World Spell.
    WorldSpell,
    /// The owner wins too when the game ends while they own at least `cities` cities.
    CitiesAtLeast { cities: u8 },
}

/// One hero card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub name: String,
    pub power: u8,
    /// Reach added to the hero's army.
    #[serde(default)]
    pub reach: u8,
    /// Additional moves of the hero per turn.
    #[serde(default)]
    pub moves: u8,
    /// Added to the attack when the hero attacks or helps the attacker (battle ability).
    #[serde(default)]
    pub attack_bonus: u8,
    /// Added to the defence when the hero's army defends or helps the defender (battle ability).
    #[serde(default)]
    pub defence_bonus: u8,
    /// Gained at the start of the owner's turn.
    #[serde(default)]
    pub income: Resources,
    /// The hero card's Exhaust action.
    #[serde(default)]
    pub exhaust: Option<Effect>,
    #[serde(default)]
    pub shared_victory: Option<SharedVictory>,
    pub text: String,
}

impl Hero {
    /// Whether the hero has anything beyond its Power (every hero card has an ability).
    pub fn has_ability(&self) -> bool {
        self.reach > 0
            || self.moves > 0
            || self.attack_bonus > 0
            || self.defence_bonus > 0
            || self.income.total() > 0
            || self.exhaust.is_some()
            || self.shared_victory.is_some()
    }
}

/// A research card's kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    Building,
    Upgrade,
    Spell,
    World,
}

/// The lasting effect of a building or upgrade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Lasting {
    /// Building: the city produces more; upgrade: gained at the start of your turn.
    Income { resources: Resources },
    /// Building: + City Strength.
    Strength { amount: u8 },
    /// Building: at the start of the owner's turn each other player with units in the city's area
    /// Gives the owner `amount` of `resource`.
    Toll { resource: Resource, amount: u8 },
    /// Upgrade: + Reach for all your armies.
    Reach { amount: u8 },
    /// Upgrade: each unit may move `amount` more times per turn.
    Moves { amount: u8 },
    /// Upgrade: + Power for your units of one type.
    UnitPower { unit: ChipKind, amount: u8 },
}

/// A research card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub name: String,
    pub cost: u8,
    pub kind: CardKind,
    /// For buildings and upgrades: a [`Lasting`]; for spells: an [`Effect`] (kept as JSON, checked at
    /// load).
    #[serde(default)]
    pub effect: Option<serde_json::Value>,
    pub text: String,
    #[serde(skip)]
    pub lasting: Option<Lasting>,
    #[serde(skip)]
    pub spell: Option<Effect>,
}

/// A race (cosmetic).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Race {
    pub name: String,
    pub colour: String,
    pub soldier: String,
    pub knight: String,
    pub monster: String,
}

// The files' outer shapes. Their entries are read one by one (see [`entries`]) so that an error
// inside one names it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MapFile {
    edition: String,
    #[allow(dead_code)]
    layout: String,
    areas: Vec<serde_json::Value>,
    links: Vec<serde_json::Value>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CitiesFile {
    #[allow(dead_code)]
    edition: String,
    cities: Vec<serde_json::Value>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeroesFile {
    #[allow(dead_code)]
    edition: String,
    cost: u8,
    heroes: Vec<serde_json::Value>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResearchFile {
    #[allow(dead_code)]
    edition: String,
    cards: Vec<serde_json::Value>,
}
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RacesFile {
    #[allow(dead_code)]
    edition: String,
    races: Vec<serde_json::Value>,
}

/// The map's entries, read.
struct Map {
    areas: Vec<Area>,
    links: Vec<[String; 2]>,
}

/// The whole edition, validated, with derived tables (adjacency, distances, name indexes).
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub edition: String,
    pub areas: Vec<Area>,
    pub adjacent: Vec<Vec<u8>>,
    /// `distance[a][b]`: the number of steps between two areas.
    pub distance: Vec<Vec<u8>>,
    /// The city in each area (index into `cities`).
    pub area_city: Vec<Option<u8>>,
    pub cities: Vec<City>,
    pub heroes: Vec<Hero>,
    pub hero_cost: u8,
    pub cards: Vec<Card>,
    pub races: Vec<Race>,
    /// Slugs (lower-case, spaces as `-`, apostrophes dropped) of cities, heroes, cards, races.
    pub city_slugs: Vec<String>,
    pub hero_slugs: Vec<String>,
    pub card_slugs: Vec<String>,
    pub race_slugs: Vec<String>,
    /// Indexes of the upgrade cards (for fast per-player sums).
    pub upgrade_cards: Vec<u8>,
}

/// The file texts of an edition.
#[derive(Debug, Clone, Copy)]
pub struct Sources<'a> {
    pub map: &'a str,
    pub cities: &'a str,
    pub heroes: &'a str,
    pub research: &'a str,
    pub races: &'a str,
}

/// This project's edition, embedded in the binary.
pub const SHIPPED: Sources<'static> = Sources {
    map: include_str!("../data/map.json"),
    cities: include_str!("../data/cities.json"),
    heroes: include_str!("../data/heroes.json"),
    research: include_str!("../data/research.json"),
    races: include_str!("../data/races.json"),
};

/// Name → slug used by the notation.
pub fn slug(name: &str) -> String {
    name.to_lowercase()
        .replace('\'', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
}

static CONTENT: OnceLock<Result<Content, String>> = OnceLock::new();
static EMPTY: OnceLock<Content> = OnceLock::new();

/// The shipped content, loaded once; the error names the file and entry at fault.
pub fn shipped() -> Result<&'static Content, String> {
    match CONTENT.get_or_init(|| load(SHIPPED)) {
        Ok(c) => Ok(c),
        Err(e) => Err(e.clone()),
    }
}

/// The shipped content, or an empty edition when it failed to load (then `Syba::new` and
/// `validate` report the error, so no game state can exist with it).
pub fn content() -> &'static Content {
    match shipped() {
        Ok(c) => c,
        Err(_) => EMPTY.get_or_init(Content::default),
    }
}

/// Reads a file's outer shape (a syntax error or a wrong top-level field names the file, the line
/// and the column).
fn parse<'a, T: Deserialize<'a>>(file: &str, text: &'a str) -> Result<T, String> {
    serde_json::from_str(text).map_err(|e| format!("data/{file}: {e}"))
}

/// Reads a file's entries one by one: an error inside an entry (an unknown effect type, an unknown
/// field, a wrong type) names the file, the kind of entry, its name (the `key` field, when it is a
/// string) and its position.
fn entries<T: serde::de::DeserializeOwned>(
    file: &str,
    kind: &str,
    key: &str,
    values: Vec<serde_json::Value>,
) -> Result<Vec<T>, String> {
    values
        .into_iter()
        .enumerate()
        .map(|(i, v)| {
            let name = v
                .get(key)
                .and_then(|n| n.as_str())
                .map(|n| format!("{kind} `{n}`"));
            serde_json::from_value(v).map_err(|e| match name {
                Some(name) => format!("data/{file}: {name} (entry {}): {e}", i + 1),
                None => format!("data/{file}: {kind} entry {} (no {key}): {e}", i + 1),
            })
        })
        .collect()
}

/// Loads and validates an edition.
pub fn load(src: Sources<'_>) -> Result<Content, String> {
    let map_file: MapFile = parse("map.json", src.map)?;
    let map = Map {
        areas: entries("map.json", "area", "id", map_file.areas)?,
        links: map_file
            .links
            .into_iter()
            .enumerate()
            .map(|(i, v)| {
                let text = v.to_string();
                serde_json::from_value::<[String; 2]>(v).map_err(|e| {
                    format!(
                        "data/map.json: link {} ({text}): {e}; a link is a pair of area ids",
                        i + 1
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?,
    };
    let cities_file: CitiesFile = parse("cities.json", src.cities)?;
    let cities_list: Vec<City> = entries("cities.json", "city", "name", cities_file.cities)?;
    let heroes_file: HeroesFile = parse("heroes.json", src.heroes)?;
    let heroes_list: Vec<Hero> = entries("heroes.json", "hero", "name", heroes_file.heroes)?;
    let research: ResearchFile = parse("research.json", src.research)?;
    let cards_list: Vec<Card> = entries("research.json", "card", "name", research.cards)?;
    let races_file: RacesFile = parse("races.json", src.races)?;
    let races_list: Vec<Race> = entries("races.json", "race", "name", races_file.races)?;
    let mut c = Content {
        edition: map_file.edition,
        hero_cost: heroes_file.cost,
        ..Content::default()
    };

    // Map.
    if map.areas.is_empty() || map.areas.len() > 250 {
        return Err("data/map.json: the map needs 1..=250 areas".into());
    }
    let mut area_index: HashMap<String, usize> = HashMap::new();
    let mut seen_pos = HashMap::new();
    for (i, a) in map.areas.iter().enumerate() {
        if a.id.is_empty() || a.id != slug(&a.id) {
            return Err(format!(
                "data/map.json: area `{}`: the id must be a lower-case slug",
                a.id
            ));
        }
        if area_index.insert(a.id.clone(), i).is_some() {
            return Err(format!("data/map.json: area `{}` appears twice", a.id));
        }
        if let Some(other) = seen_pos.insert(a.pos, a.id.clone()) {
            return Err(format!(
                "data/map.json: area `{}` has the same position as `{other}`",
                a.id
            ));
        }
        if a.code.chars().count() != 3 {
            return Err(format!(
                "data/map.json: area `{}`: code `{}` must be 3 characters",
                a.id, a.code
            ));
        }
    }
    let n = map.areas.len();
    c.adjacent = vec![Vec::new(); n];
    for [a, b] in &map.links {
        let (Some(&ia), Some(&ib)) = (area_index.get(a), area_index.get(b)) else {
            return Err(format!(
                "data/map.json: link `{a}`-`{b}` names an unknown area"
            ));
        };
        if ia == ib {
            return Err(format!(
                "data/map.json: link `{a}`-`{b}` joins an area to itself"
            ));
        }
        if c.adjacent[ia].contains(&(ib as u8)) {
            return Err(format!("data/map.json: link `{a}`-`{b}` is listed twice"));
        }
        c.adjacent[ia].push(ib as u8);
        c.adjacent[ib].push(ia as u8);
    }
    for list in &mut c.adjacent {
        list.sort_unstable();
    }
    c.distance = vec![vec![u8::MAX; n]; n];
    for start in 0..n {
        let mut queue = VecDeque::from([start]);
        c.distance[start][start] = 0;
        while let Some(x) = queue.pop_front() {
            let d = c.distance[start][x];
            for &y in &c.adjacent[x] {
                let y = y as usize;
                if c.distance[start][y] == u8::MAX {
                    c.distance[start][y] = d.saturating_add(1);
                    queue.push_back(y);
                }
            }
        }
    }
    if let Some(i) = (0..n).find(|&i| c.distance[0][i] == u8::MAX) {
        return Err(format!(
            "data/map.json: area `{}` cannot be reached from `{}`: the map must be connected",
            map.areas[i].id, map.areas[0].id
        ));
    }

    // Cities.
    let mut city_index: HashMap<String, usize> = HashMap::new();
    for (i, city) in cities_list.iter().enumerate() {
        if city_index.insert(city.name.clone(), i).is_some() {
            return Err(format!(
                "data/cities.json: city `{}` appears twice",
                city.name
            ));
        }
        let r = city.resources.total();
        if r != u32::from(city.level.value()) {
            return Err(format!(
                "data/cities.json: city `{}`: its resources sum to {r}, its level needs {}",
                city.name,
                city.level.value()
            ));
        }
    }
    if cities_list.len() > 250 {
        return Err("data/cities.json: at most 250 cities".into());
    }
    c.area_city = vec![None; n];
    let mut cities = cities_list;
    for (ai, a) in map.areas.iter().enumerate() {
        if let Some(name) = &a.city {
            let Some(&ci) = city_index.get(name) else {
                return Err(format!(
                    "data/map.json: area `{}` holds city `{name}`, which data/cities.json lacks",
                    a.id
                ));
            };
            if c.area_city.contains(&Some(ci as u8)) {
                return Err(format!(
                    "data/map.json: city `{name}` is placed in two areas"
                ));
            }
            c.area_city[ai] = Some(ci as u8);
            cities[ci].area = ai as u8;
        }
    }
    for (ci, city) in cities.iter().enumerate() {
        if !c.area_city.contains(&Some(ci as u8)) {
            return Err(format!(
                "data/cities.json: city `{}` is on no area of data/map.json",
                city.name
            ));
        }
    }

    // Heroes.
    if heroes_list.len() > 250 {
        return Err("data/heroes.json: at most 250 heroes".into());
    }
    let mut hero_names = HashMap::new();
    for (i, h) in heroes_list.iter().enumerate() {
        if hero_names.insert(h.name.clone(), i).is_some() {
            return Err(format!("data/heroes.json: hero `{}` appears twice", h.name));
        }
        if h.power == 0 {
            return Err(format!("data/heroes.json: hero `{}` has no Power", h.name));
        }
        if !h.has_ability() {
            return Err(format!(
                "data/heroes.json: hero `{}` has no ability (a hero needs at least one of reach, \
                 moves, attack_bonus, defence_bonus, income, exhaust, shared_victory)",
                h.name
            ));
        }
        if let Some(e) = &h.exhaust {
            check_effect(e, "data/heroes.json", &h.name, &city_index)?;
        }
    }
    for city in &cities {
        let e = format!("city `{}`", city.name);
        if matches!(city.once_per_game, Effect::Teleport { .. }) {
            return Err(format!(
                "data/cities.json: {e}: teleport is a hero-only effect"
            ));
        }
        check_effect(
            &city.once_per_game,
            "data/cities.json",
            &city.name,
            &city_index,
        )?;
    }

    // Research.
    let mut card_names = HashMap::new();
    let mut cards = cards_list;
    if cards.len() > 250 {
        return Err("data/research.json: at most 250 cards".into());
    }
    for (i, card) in cards.iter_mut().enumerate() {
        let file = "data/research.json";
        if card_names.insert(card.name.clone(), i).is_some() {
            return Err(format!("{file}: card `{}` appears twice", card.name));
        }
        if ![5, 10, 20, 40].contains(&card.cost) {
            return Err(format!(
                "{file}: card `{}`: cost {} is not one of 5, 10, 20, 40",
                card.name, card.cost
            ));
        }
        match card.kind {
            CardKind::World => {
                if card.effect.is_some() {
                    return Err(format!(
                        "{file}: card `{}`: the World Spell takes no effect",
                        card.name
                    ));
                }
                if card.cost != WORLD_SPELL_COST {
                    return Err(format!(
                        "{file}: card `{}`: the World Spell costs {WORLD_SPELL_COST} (rules: \
                         Spending), not {}",
                        card.name, card.cost
                    ));
                }
            }
            CardKind::Spell => {
                let value = card.effect.clone().ok_or_else(|| {
                    format!("{file}: card `{}`: a spell needs an effect", card.name)
                })?;
                let e: Effect = serde_json::from_value(value)
                    .map_err(|e| format!("{file}: card `{}`: {e}", card.name))?;
                if matches!(e, Effect::Teleport { .. }) {
                    return Err(format!(
                        "{file}: card `{}`: teleport is a hero-only effect",
                        card.name
                    ));
                }
                check_effect(&e, file, &card.name, &city_index)?;
                card.spell = Some(e);
            }
            CardKind::Building | CardKind::Upgrade => {
                let value = card.effect.clone().ok_or_else(|| {
                    format!("{file}: card `{}`: this card needs an effect", card.name)
                })?;
                let l: Lasting = serde_json::from_value(value)
                    .map_err(|e| format!("{file}: card `{}`: {e}", card.name))?;
                let ok = match (&l, card.kind) {
                    (Lasting::Income { resources }, _) => resources.total() > 0,
                    (Lasting::Strength { amount }, CardKind::Building) => *amount > 0,
                    (Lasting::Toll { amount, .. }, CardKind::Building) => *amount > 0,
                    (Lasting::Reach { amount }, CardKind::Upgrade) => *amount > 0,
                    (Lasting::Moves { amount }, CardKind::Upgrade) => *amount > 0,
                    (Lasting::UnitPower { amount, .. }, CardKind::Upgrade) => *amount > 0,
                    _ => false,
                };
                if !ok {
                    return Err(format!(
                        "{file}: card `{}`: effect {l:?} does nothing or does not fit a {:?}",
                        card.name, card.kind
                    ));
                }
                card.lasting = Some(l);
            }
        }
    }
    let worlds: Vec<&str> = cards
        .iter()
        .filter(|c| c.kind == CardKind::World)
        .map(|c| c.name.as_str())
        .collect();
    match worlds.len() {
        0 => return Err("data/research.json: there is no World Spell (kind \"world\")".into()),
        1 => {}
        _ => {
            return Err(format!(
                "data/research.json: cards `{}` are all World Spells (kind \"world\"); an edition \
                 has exactly one",
                worlds.join("`, `")
            ));
        }
    }

    // Start With references.
    for city in &cities {
        let e = |msg: String| format!("data/cities.json: city `{}`: Start With {msg}", city.name);
        if !city.start_with.cities.is_empty() && !city.start_with.buildings.is_empty() {
            return Err(e(
                "gives both cities and buildings: the rules let its owner put the buildings on \
                 any city they own, a choice this engine does not offer (it places Start With \
                 buildings on the starting city); give one or the other"
                    .into(),
            ));
        }
        for name in &city.start_with.cities {
            if !city_index.contains_key(name) {
                return Err(e(format!("names unknown city `{name}`")));
            }
            if *name == city.name {
                return Err(e("names the city itself".into()));
            }
        }
        if let Some(h) = &city.start_with.hero
            && !hero_names.contains_key(h)
        {
            return Err(e(format!("names unknown hero `{h}`")));
        }
        for (names, kind) in [
            (&city.start_with.upgrades, CardKind::Upgrade),
            (&city.start_with.buildings, CardKind::Building),
        ] {
            for name in names {
                match card_names.get(name) {
                    Some(&i) if cards[i].kind == kind => {}
                    _ => return Err(e(format!("names `{name}`, which is not a {kind:?} card"))),
                }
            }
        }
        for u in &city.start_with.units {
            if u.count == 0 || usize::from(u.count) > u.kind.chips() {
                return Err(e(format!("gives {} {}s", u.count, u.kind.name())));
            }
        }
    }

    if races_list.len() < 2 || races_list.len() > 6 {
        return Err(format!(
            "data/races.json: {} race(s); there must be 2 to 6 (one per player, 2 to 6 players)",
            races_list.len()
        ));
    }
    if cities.len() < 2 {
        return Err(format!(
            "data/cities.json: {} city(ies); there must be at least 2 (one starting city per player)",
            cities.len()
        ));
    }
    if c.hero_cost != HERO_COST {
        return Err(format!(
            "data/heroes.json: cost {}: a hero costs {HERO_COST} Production (rules: Units)",
            c.hero_cost
        ));
    }
    c.city_slugs = cities.iter().map(|x| slug(&x.name)).collect();
    c.hero_slugs = heroes_list.iter().map(|x| slug(&x.name)).collect();
    c.card_slugs = cards.iter().map(|x| slug(&x.name)).collect();
    c.race_slugs = races_list.iter().map(|x| slug(&x.name)).collect();
    for (file, slugs) in [
        ("cities.json", &c.city_slugs),
        ("heroes.json", &c.hero_slugs),
        ("research.json", &c.card_slugs),
        ("races.json", &c.race_slugs),
    ] {
        let mut sorted = slugs.clone();
        sorted.sort();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!(
                "data/{file}: two entries share the notation name `{}`",
                w[0]
            ));
        }
    }
    c.upgrade_cards = (0..cards.len() as u8)
        .filter(|&i| cards[i as usize].kind == CardKind::Upgrade)
        .collect();
    c.areas = map.areas;
    c.cities = cities;
    c.heroes = heroes_list;
    c.cards = cards;
    c.races = races_list;
    Ok(c)
}

fn check_effect(
    e: &Effect,
    file: &str,
    entry: &str,
    cities: &HashMap<String, usize>,
) -> Result<(), String> {
    let bad = |m: &str| Err(format!("{file}: `{entry}`: {m}"));
    match e {
        Effect::Gain { resources } if resources.total() == 0 => bad("gains nothing"),
        Effect::Units { count, kind } if *count == 0 || usize::from(*count) > kind.chips() => {
            bad("places no units or more than the chips")
        }
        Effect::ExtraMoves { amount } | Effect::Power { amount } if *amount == 0 => {
            bad("amount 0 does nothing")
        }
        Effect::DestroyUnit { max_power } if *max_power == 0 => bad("max_power 0 does nothing"),
        Effect::Tribute { amount, .. } | Effect::AllGive { amount, .. } if *amount == 0 => {
            bad("amount 0 does nothing")
        }
        Effect::Teleport { city } if !cities.contains_key(city) => {
            bad(&format!("teleports to unknown city `{city}`"))
        }
        _ => Ok(()),
    }
}

impl Content {
    /// The most players this edition can seat: one race and one starting city each (and the
    /// rules' 6).
    pub fn max_players(&self) -> usize {
        self.races.len().min(self.cities.len()).min(6)
    }
    pub fn city_by_slug(&self, s: &str) -> Option<u8> {
        self.city_slugs.iter().position(|x| x == s).map(|i| i as u8)
    }
    pub fn area_by_id(&self, s: &str) -> Option<u8> {
        self.areas.iter().position(|a| a.id == s).map(|i| i as u8)
    }
    pub fn hero_by_slug(&self, s: &str) -> Option<u8> {
        self.hero_slugs.iter().position(|x| x == s).map(|i| i as u8)
    }
    pub fn card_by_slug(&self, s: &str) -> Option<u8> {
        self.card_slugs.iter().position(|x| x == s).map(|i| i as u8)
    }
    pub fn race_by_slug(&self, s: &str) -> Option<u8> {
        self.race_slugs.iter().position(|x| x == s).map(|i| i as u8)
    }
    pub fn city_by_name(&self, s: &str) -> Option<u8> {
        self.cities
            .iter()
            .position(|x| x.name == s)
            .map(|i| i as u8)
    }
    pub fn hero_by_name(&self, s: &str) -> Option<u8> {
        self.heroes
            .iter()
            .position(|x| x.name == s)
            .map(|i| i as u8)
    }
    pub fn card_by_name(&self, s: &str) -> Option<u8> {
        self.cards.iter().position(|x| x.name == s).map(|i| i as u8)
    }
    pub fn dist(&self, a: u8, b: u8) -> u8 {
        self.distance
            .get(a as usize)
            .and_then(|r| r.get(b as usize))
            .copied()
            .unwrap_or(u8::MAX)
    }
}

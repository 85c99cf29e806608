#![allow(clippy::unwrap_used, clippy::expect_used)]
//! The shipped edition is valid and has everything the rules file asks of it; broken content is
//! refused with errors naming the file and the entry.

use syba::content::{CardKind, CityLevel, Effect, SHIPPED, Sources, load, shipped};

#[test]
fn shipped_content_loads_and_validates() {
    let c = shipped().unwrap();
    assert_eq!(c.cities.len(), 36);
    assert!(c.areas.len() - 36 >= 10, "at least 10 areas without a city");
    assert!(c.heroes.len() >= 12);
    assert!(c.cards.len() >= 24);
    assert_eq!(c.races.len(), 6);
    for cost in [5, 10, 20, 40] {
        assert!(
            c.cards.iter().any(|k| k.cost == cost),
            "a card at cost {cost}"
        );
    }
    for kind in [CardKind::Building, CardKind::Upgrade, CardKind::Spell] {
        assert!(c.cards.iter().any(|k| k.kind == kind));
    }
    let world = c.cards.iter().find(|k| k.kind == CardKind::World).unwrap();
    assert_eq!((world.name.as_str(), world.cost), ("World Spell", 40));
}

#[test]
fn city_types_match_the_rules_table() {
    let c = shipped().unwrap();
    let table = [
        (
            CityLevel::Settlement,
            "En Diren, Kaul, Sae, Varan, Beregen, Waking Dam, Sjochedal, Bri Ville, Riverdrop",
        ),
        (
            CityLevel::Village,
            "Altera, Heran, Bell, Twin Axe, Threeway, Riverdale, Andalar's Fist, Barren Hall, Fiskes, Skogsneder",
        ),
        (
            CityLevel::Town,
            "Karon Arkas, Ilieth, Ravenclaw, Kotzenburg, Avangrad, Shadowdeep, Everspring, Iras",
        ),
        (
            CityLevel::Major,
            "Litilien, Gaer'Alleth, Vastport, City of Hope, Bri Edge, Krysse",
        ),
        (
            CityLevel::Capital,
            "Stavensport, City of the Trueborn, Faer Alorn",
        ),
    ];
    for (level, names) in table {
        for name in names.split(", ") {
            let city = &c.cities[c.city_by_name(name).unwrap() as usize];
            assert_eq!(city.level, level, "{name}");
            assert_eq!(city.resources.total(), u32::from(level.value()), "{name}");
        }
    }
}

#[test]
fn map_makes_the_worked_example_legal() {
    let c = shipped().unwrap();
    let area = |n: &str| c.cities[c.city_by_name(n).unwrap() as usize].area;
    for n in [
        "Andalar's Fist",
        "Barren Hall",
        "City of the Trueborn",
        "Threeway",
    ] {
        assert_eq!(
            c.dist(area(n), area("Faer Alorn")),
            1,
            "{n} adjacent to Faer Alorn"
        );
    }
    // No two Capital Cities adjacent, except the pair the worked example itself requires (City of the
    // Trueborn next to Faer Alorn): see the crate docs.
    assert!(c.dist(area("Stavensport"), area("Faer Alorn")) > 1);
    assert!(c.dist(area("Stavensport"), area("City of the Trueborn")) > 1);
}

#[test]
fn heroes_the_rules_name_exist_with_their_abilities() {
    let c = shipped().unwrap();
    let hero = |n: &str| &c.heroes[c.hero_by_name(n).unwrap() as usize];
    assert_eq!((hero("Shiara").power, hero("Shiara").reach), (2, 1));
    assert!(
        matches!(&hero("Deosiderium").exhaust, Some(Effect::Teleport { city }) if city == "Threeway")
    );
    assert!(matches!(
        hero("Lagaron Proudheart").exhaust,
        Some(Effect::Tribute { .. })
    ));
    assert!(
        c.heroes
            .iter()
            .filter(|h| h.shared_victory.is_some())
            .count()
            >= 2
    );
    let golden = &c.cards[c.card_by_name("Golden Hand School").unwrap() as usize];
    assert_eq!(golden.kind, CardKind::Building);
    assert!(matches!(
        golden.lasting,
        Some(syba::content::Lasting::Toll { .. })
    ));
    let vastport = &c.cities[c.city_by_name("Vastport").unwrap() as usize];
    assert!(matches!(
        vastport.once_per_game,
        Effect::AllGive { .. } | Effect::Tribute { .. }
    ));
}

#[test]
fn every_card_and_hero_does_something() {
    let c = shipped().unwrap();
    for h in &c.heroes {
        let does = h.reach + h.moves + h.attack_bonus + h.defence_bonus > 0
            || h.income.total() > 0
            || h.exhaust.is_some()
            || h.shared_victory.is_some();
        assert!(does, "hero {} has only Power", h.name);
    }
    for k in &c.cards {
        match k.kind {
            CardKind::Spell => assert!(k.spell.is_some(), "{}", k.name),
            CardKind::Building | CardKind::Upgrade => assert!(k.lasting.is_some(), "{}", k.name),
            CardKind::World => {}
        }
    }
    for city in &c.cities {
        assert!(
            !city.start_with.units.is_empty() || city.start_with.resources.total() > 0,
            "{} starts with something",
            city.name
        );
    }
}

fn broken(edit: impl Fn(&mut Sources<'static>)) -> String {
    let mut src = SHIPPED;
    edit(&mut src);
    load(src).unwrap_err()
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// The shipped file `text` as JSON, changed by `edit`, as the text of an edition file.
fn edited(text: &str, edit: impl Fn(&mut serde_json::Value)) -> &'static str {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    edit(&mut v);
    leak(serde_json::to_string_pretty(&v).unwrap())
}

/// The entry of `list` (an array of objects) whose `name` is `name`.
fn entry<'a>(v: &'a mut serde_json::Value, list: &str, name: &str) -> &'a mut serde_json::Value {
    v[list]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| e["name"] == name)
        .unwrap()
}

#[track_caller]
fn names(e: &str, parts: &[&str]) {
    for p in parts {
        assert!(e.contains(p), "the error should name `{p}`: {e}");
    }
}

#[test]
fn broken_content_errors_name_file_and_entry() {
    // A wrong resource sum (a check after reading).
    let e = broken(|s| {
        s.cities = leak(SHIPPED.cities.replacen(
            "\"production\": 2, \"food\": 2, \"research\": 1}, \"start_with\"",
            "\"production\": 3, \"food\": 2, \"research\": 1}, \"start_with\"",
            1,
        ))
    });
    names(&e, &["data/cities.json", "Stavensport"]);
    // An unknown city in a hero's effect.
    let e = broken(|s| {
        s.heroes = leak(
            SHIPPED
                .heroes
                .replace("\"city\":\"Threeway\"", "\"city\":\"Nowhere\"")
                .replace("\"city\": \"Threeway\"", "\"city\": \"Nowhere\""),
        )
    });
    names(&e, &["data/heroes.json", "Deosiderium", "Nowhere"]);
    // A cost that is not one of the four.
    let e =
        broken(|s| s.research = leak(SHIPPED.research.replacen("\"cost\": 5", "\"cost\": 7", 1)));
    names(&e, &["data/research.json", "Granary"]);
    // A link to an unknown area.
    let e = broken(|s| {
        s.map = leak(SHIPPED.map.replacen(
            "[\"altera\", \"heran\"]",
            "[\"altera\", \"atlantis\"]",
            1,
        ))
    });
    names(&e, &["data/map.json", "atlantis"]);
    // An unknown effect type in a city's Once per Game (Stavensport's is the first such effect).
    let e = broken(|s| {
        s.cities = leak(SHIPPED.cities.replacen(
            "\"type\": \"units\", \"kind\": \"knight\", \"count\": 2",
            "\"type\": \"fly\"",
            1,
        ))
    });
    names(&e, &["data/cities.json", "city `Stavensport`", "fly"]);
    // An unknown field in a hero.
    let e = broken(|s| {
        s.heroes = edited(SHIPPED.heroes, |v| {
            entry(v, "heroes", "Shiara")["speed"] = 3.into()
        })
    });
    names(&e, &["data/heroes.json", "hero `Shiara`", "speed"]);
    // An unknown effect type in a hero's Exhaust action.
    let e = broken(|s| {
        s.heroes = edited(SHIPPED.heroes, |v| {
            entry(v, "heroes", "Old Morrow")["exhaust"] = serde_json::json!({"type": "nap"})
        })
    });
    names(&e, &["data/heroes.json", "hero `Old Morrow`", "nap"]);
    // A wrong type inside a card.
    let e = broken(|s| {
        s.research = edited(SHIPPED.research, |v| {
            entry(v, "cards", "Library")["cost"] = "5".into()
        })
    });
    names(
        &e,
        &["data/research.json", "card `Library`", "invalid type"],
    );
    // An unknown effect type in a spell.
    let e = broken(|s| {
        s.research = edited(SHIPPED.research, |v| {
            entry(v, "cards", "Fireball")["effect"] = serde_json::json!({"type": "meteor"})
        })
    });
    names(&e, &["data/research.json", "card `Fireball`", "meteor"]);
    // A wrong type inside a city's Start With.
    let e = broken(|s| {
        s.cities = edited(SHIPPED.cities, |v| {
            entry(v, "cities", "Kaul")["start_with"]["units"] =
                serde_json::json!([{"kind": "soldier", "count": -1}])
        })
    });
    names(&e, &["data/cities.json", "city `Kaul`"]);
    // An unknown field in a race, a wrong type in an area.
    let e = broken(|s| {
        s.races = edited(SHIPPED.races, |v| {
            entry(v, "races", "Human Realm")["flag"] = "lion".into()
        })
    });
    names(&e, &["data/races.json", "race `Human Realm`", "flag"]);
    let e = broken(|s| {
        s.map = edited(SHIPPED.map, |v| {
            let a = v["areas"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|a| a["id"] == "kaul")
                .unwrap();
            a["pos"] = "north".into();
        })
    });
    names(&e, &["data/map.json", "area `kaul`", "invalid type"]);
    // An entry without a name is named by its position.
    let e = broken(|s| {
        s.heroes = edited(SHIPPED.heroes, |v| {
            v["heroes"]
                .as_array_mut()
                .unwrap()
                .insert(0, serde_json::json!({"power": 1}))
        })
    });
    names(&e, &["data/heroes.json", "hero entry 1", "name"]);
    // A file that is not JSON names the file, line and column.
    let e = broken(|s| s.races = "{ \"edition\": ");
    names(&e, &["data/races.json", "line 1"]);
}

#[test]
fn editions_the_engine_cannot_play_are_refused() {
    // A hero with no ability (only Power).
    let e = broken(|s| {
        s.heroes = edited(SHIPPED.heroes, |v| {
            let h = entry(v, "heroes", "Shiara");
            h.as_object_mut().unwrap().remove("reach");
        })
    });
    names(&e, &["data/heroes.json", "hero `Shiara`", "no ability"]);
    // Not exactly one World card: none, or two.
    let e = broken(|s| {
        s.research = edited(SHIPPED.research, |v| {
            v["cards"]
                .as_array_mut()
                .unwrap()
                .retain(|c| c["kind"] != "world")
        })
    });
    names(&e, &["data/research.json", "no World Spell"]);
    let e = broken(|s| {
        s.research = edited(SHIPPED.research, |v| {
            let cards = v["cards"].as_array_mut().unwrap();
            cards.push(serde_json::json!({"name": "Second World", "cost": 40, "kind": "world", "text": "Wins."}));
        })
    });
    names(
        &e,
        &[
            "data/research.json",
            "World Spell",
            "Second World",
            "exactly one",
        ],
    );
    // The World Spell costs 40 (rules file, Spending).
    let e = broken(|s| {
        s.research = edited(SHIPPED.research, |v| {
            entry(v, "cards", "World Spell")["cost"] = 20.into()
        })
    });
    names(
        &e,
        &[
            "data/research.json",
            "card `World Spell`",
            "costs 40",
            "not 20",
        ],
    );
    // A Start With giving both cities and buildings (the engine cannot offer where the buildings go).
    let e = broken(|s| {
        s.cities = edited(SHIPPED.cities, |v| {
            entry(v, "cities", "Kaul")["start_with"]["buildings"] = serde_json::json!(["Granary"])
        })
    });
    names(
        &e,
        &[
            "data/cities.json",
            "city `Kaul`",
            "both cities and buildings",
        ],
    );
    // A hero costs 10 (rules, Units).
    let e = broken(|s| s.heroes = edited(SHIPPED.heroes, |v| v["cost"] = 8.into()));
    names(&e, &["data/heroes.json", "cost 8", "10"]);
    // Fewer than two races: no game can be seated.
    let e = broken(|s| {
        s.races = edited(SHIPPED.races, |v| {
            v["races"].as_array_mut().unwrap().truncate(1)
        })
    });
    names(&e, &["data/races.json", "1 race(s)", "2 to 6"]);
}

#[test]
fn more_players_than_races_or_cities_is_a_bad_option() {
    // Each player needs a race and a starting city of their own: an edition with 3 races seats at
    // most 3 players; asking for 4 is refused as a bad value of `players`, not a setup that stalls.
    let mut src = SHIPPED;
    src.races = edited(SHIPPED.races, |v| {
        v["races"].as_array_mut().unwrap().truncate(3)
    });
    let three = load(src).unwrap();
    assert_eq!(three.max_players(), 3);
    let opts = |players| syba::SybaOptions {
        players,
        ..syba::SybaOptions::default()
    };
    opts(3).validate_for(&three).unwrap();
    let e = opts(4).validate_for(&three).unwrap_err();
    assert!(
        matches!(&e, tabula_core::OptionsError::BadValue { option, value, .. } if option == "players" && value == "4"),
        "{e:?}"
    );
    names(
        &e.to_string(),
        &["players", "2..=3", "3 races", "36 cities"],
    );

    // A small edition of two cities (and an area without one): at most two players.
    let small = Sources {
        map: r#"{"edition": "Tiny", "layout": "hex", "areas": [
            {"id": "a", "name": "A", "code": "AAA", "pos": [0, 0], "city": "Alpha"},
            {"id": "b", "name": "B", "code": "BBB", "pos": [1, 0], "city": "Beta"},
            {"id": "c", "name": "C", "code": "CCC", "pos": [2, 0]}],
            "links": [["a", "b"], ["b", "c"]]}"#,
        cities: r#"{"edition": "Tiny", "cities": [
            {"name": "Alpha", "level": "settlement", "resources": {"food": 1}, "start_with": {"units": [{"kind": "soldier", "count": 1}]}, "once_per_game": {"type": "rest_all"}},
            {"name": "Beta", "level": "village", "resources": {"food": 1, "production": 1}, "start_with": {"units": [{"kind": "soldier", "count": 1}]}, "once_per_game": {"type": "rest_all"}}]}"#,
        heroes: r#"{"edition": "Tiny", "cost": 10, "heroes": []}"#,
        research: r#"{"edition": "Tiny", "cards": [{"name": "World Spell", "cost": 40, "kind": "world", "text": "Wins."}]}"#,
        races: SHIPPED.races,
    };
    let tiny = load(small).unwrap();
    assert_eq!(tiny.max_players(), 2);
    opts(2).validate_for(&tiny).unwrap();
    let e = opts(3).validate_for(&tiny).unwrap_err().to_string();
    names(&e, &["players", "2..=2", "6 races", "2 cities"]);

    // The shipped edition seats 2 to 6, and the option range itself is still checked first.
    let shipped_content = shipped().unwrap();
    assert_eq!(shipped_content.max_players(), 6);
    for n in 2..=6 {
        <syba::Syba as tabula_core::Game>::new(&opts(n)).unwrap();
    }
    let e = opts(7)
        .validate_for(shipped_content)
        .unwrap_err()
        .to_string();
    assert!(e.contains("2..=6"), "{e}");
}

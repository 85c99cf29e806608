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

#[test]
fn broken_content_errors_name_file_and_entry() {
    let e = broken(|s| {
        s.cities = leak(SHIPPED.cities.replacen(
            "\"production\": 2, \"food\": 2, \"research\": 1}, \"start_with\"",
            "\"production\": 3, \"food\": 2, \"research\": 1}, \"start_with\"",
            1,
        ))
    });
    assert!(
        e.contains("data/cities.json") && e.contains("Stavensport"),
        "{e}"
    );
    let e = broken(|s| {
        s.heroes = leak(
            SHIPPED
                .heroes
                .replace("\"city\":\"Threeway\"", "\"city\":\"Nowhere\"")
                .replace("\"city\": \"Threeway\"", "\"city\": \"Nowhere\""),
        )
    });
    assert!(
        e.contains("data/heroes.json") && e.contains("Deosiderium") && e.contains("Nowhere"),
        "{e}"
    );
    let e =
        broken(|s| s.research = leak(SHIPPED.research.replacen("\"cost\": 5", "\"cost\": 7", 1)));
    assert!(
        e.contains("data/research.json") && e.contains("Granary"),
        "{e}"
    );
    let e = broken(|s| {
        s.map = leak(SHIPPED.map.replacen(
            "[\"altera\", \"heran\"]",
            "[\"altera\", \"atlantis\"]",
            1,
        ))
    });
    assert!(e.contains("data/map.json") && e.contains("atlantis"), "{e}");
    let e = broken(|s| {
        s.cities = leak(SHIPPED.cities.replacen(
            "\"type\": \"units\", \"kind\": \"knight\", \"count\": 2",
            "\"type\": \"fly\"",
            1,
        ))
    });
    assert!(e.contains("data/cities.json"), "{e}");
}

//! The lessons (`lessons/*.json`): every lesson of every file loads, its position is valid, the goal
//! is not met there nor before the last action of its listed solution, and the solution (every
//! action legal) meets it. Then the lesson endpoints over HTTP: the list, a lesson walked through its
//! solution, a refused move explained by the engine (nothing changes), the hint, and bad requests.
//!
//! `TABULA_LESSONS_DIR` (optional) checks the files of another folder instead of the embedded ones
//! (for writing lessons without rebuilding the server).

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_server::services::lessons::{FILES, LessonFile};
use tabula_server::wire::api::{GameLessons, LessonState, LessonsIndex};
use tabula_server::{Limits, Storage};

fn all_games() -> Registry {
    let mut r = Registry::new();
    r.register::<cyvasse::trump::TrumpCyvasse>()
        .register::<cyvasse::caird::CairdCyvasse>()
        .register::<kyo::Kyo>()
        .register::<territories::Territories>()
        .register::<syba::Syba>();
    r
}

fn files() -> Vec<(String, String)> {
    match std::env::var("TABULA_LESSONS_DIR") {
        Ok(dir) => FILES
            .iter()
            .map(|(name, _)| {
                let path = std::path::Path::new(&dir).join(name);
                (
                    name.to_string(),
                    std::fs::read_to_string(&path).unwrap_or_default(),
                )
            })
            .collect(),
        Err(_) => FILES
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect(),
    }
}

#[test]
fn every_lesson_is_valid_and_solved_by_its_listed_solution() {
    let registry = all_games();
    let mut failures = Vec::new();
    let mut counts = Vec::new();
    for (name, text) in files() {
        let file: LessonFile = match serde_json::from_str(&text) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        assert_eq!(
            format!("{}.json", file.game),
            name,
            "a file is named after its game"
        );
        let kind = registry.get(&file.game).unwrap();
        for (i, lesson) in file.lessons.iter().enumerate() {
            if let Err(e) = lesson.check(kind.as_ref()) {
                failures.push(format!("{name} lesson {} ({}): {e}", i + 1, lesson.title));
            }
        }
        counts.push((file.game.clone(), file.lessons.len()));
    }
    assert!(
        failures.is_empty(),
        "broken lessons:\n{}",
        failures.join("\n")
    );
    for (game, count) in counts {
        let min = if game == "syba" { 12 } else { 8 };
        assert!(count >= min, "{game} has {count} lessons, fewer than {min}");
    }
}

#[test]
fn caird_lessons_include_expert_terrain_and_hex() {
    let text = FILES
        .iter()
        .find(|(n, _)| *n == "cyvasse-caird.json")
        .unwrap()
        .1;
    let file: LessonFile = serde_json::from_str(text).unwrap();
    let option = |l: &tabula_server::services::lessons::Lesson, key: &str| -> Option<Value> {
        l.options
            .as_ref()
            .or(l.state.as_ref().and_then(|s| s.get("options")))
            .and_then(|o| o.get(key).cloned())
    };
    assert!(
        file.lessons
            .iter()
            .any(|l| option(l, "version") == Some(json!("expert")))
    );
    assert!(
        file.lessons
            .iter()
            .any(|l| option(l, "board") == Some(json!("hex")))
    );
}

#[test]
fn a_broken_lesson_fails_the_check() {
    let registry = all_games();
    let kind = registry.get("kyo").unwrap();
    let good: tabula_server::services::lessons::Lesson = serde_json::from_value(json!({
        "title": "t", "goal": "g",
        "state": {"options": {}, "board": {"E0": "K", "E9": "k", "A0": "D", "A9": "d", "D3": "SH", "D5": "p"}, "to_move": 0},
        "goal_check": {"played": "D3-D4"},
        "solution": ["D3-D4"]
    }))
    .unwrap();
    if let Err(e) = good.check(kind.as_ref()) {
        panic!("{e}");
    }
    // A solution that does not reach the goal.
    let mut l = good.clone();
    l.solution = vec![json!("D3-C4")];
    assert!(
        l.check(kind.as_ref())
            .unwrap_err()
            .contains("does not meet the goal")
    );
    // An illegal solution step.
    l.solution = vec![json!("D3-D6")];
    assert!(l.check(kind.as_ref()).is_err());
    // A goal already met before the last step.
    l.solution = vec![json!("D3-D4"), json!("D4-D5")];
    assert!(l.check(kind.as_ref()).unwrap_err().contains("met already"));
    // A goal met in the position itself.
    let mut l = good.clone();
    l.goal_check =
        serde_json::from_value(json!({"view": {"pointer": "/board/D3", "equals": "SH"}})).unwrap();
    assert!(l.check(kind.as_ref()).unwrap_err().contains("already met"));
    // An invalid position (no Gold King).
    let mut l = good;
    l.state = Some(
        json!({"options": {}, "board": {"E9": "k", "A0": "D", "A9": "d", "D3": "SH"}, "to_move": 0}),
    );
    assert!(l.check(kind.as_ref()).is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lesson_endpoints_walk_a_lesson_explain_refusals_and_hint() {
    let dir = temp_dir("lessons");
    let server = start_with(
        all_games(),
        Storage::SqliteDir(dir.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();

    let r = get_as::<LessonsIndex>(addr, "/api/lessons").await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let list = r.ok();
    assert_eq!(list.games.len(), 5, "{list:?}");
    for g in &list.games {
        assert_eq!(g.count, g.lessons.len());
    }

    let r = get_as::<GameLessons>(addr, "/api/lessons/kyo").await;
    assert_eq!(r.status, 200);
    let kyo = r.ok();
    let first = &kyo.lessons[0];
    assert_eq!(first.n, 1);

    // The first Kyo lesson walked through its listed solution, action by action, as the page does.
    let file: LessonFile =
        serde_json::from_str(FILES.iter().find(|(n, _)| *n == "kyo.json").unwrap().1).unwrap();
    let lesson = &file.lessons[0];
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": []})).await;
    assert_eq!(r.status, 200, "{}", r.raw);
    let start = r.ok();
    assert!(!start.progress.solved);
    assert_eq!(start.title, lesson.title);
    assert!(!start.progress.legal.is_empty());
    let mut actions: Vec<Value> = Vec::new();
    let mut last = start;
    for step in &lesson.solution {
        // The hint is the next step of the solution, and it is among the legal actions.
        let hint = last
            .progress
            .hint
            .clone()
            .unwrap_or_else(|| panic!("no hint: {last:?}"));
        // The solution's step is JSON (a notation string) in the lesson file.
        assert_eq!(json!(hint.notation), step.clone(), "{last:?}");
        // …said in a player's words too, as its legal action says it.
        let listed = last
            .progress
            .legal
            .iter()
            .find(|a| a.notation == hint.notation)
            .unwrap();
        assert_eq!(hint.words, listed.words, "{last:?}");
        assert!(last.progress.legal.iter().any(|a| a.action == hint.action));
        actions.push(json!({"action": hint.action}));
        let r =
            post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": actions})).await;
        assert_eq!(r.status, 200, "{}", r.raw);
        assert_wire::<LessonState>(&r.raw);
        let next = r.ok();
        // The move list says the player's move in the words its legal action had.
        assert!(
            next.progress
                .moves
                .iter()
                .any(|m| m.by == "you" && m.words == hint.words),
            "{next:?}"
        );
        last = next;
    }
    assert!(last.progress.solved, "{last:?}");
    assert!(last.progress.legal.is_empty());
    assert_eq!(last.next, Some(2));

    // A move the engine refuses: its own explanation, and nothing else changes (the client keeps
    // its actions; the same request without the move gives the same position as before).
    let refused = post_as::<LessonState>(
        addr,
        "/api/lessons/kyo/1",
        json!({"actions": [{"notation": "A0-A5"}]}),
    )
    .await;
    assert_eq!(refused.status, 422, "{}", refused.raw);
    assert_eq!(refused.err().code, "illegal", "{}", refused.raw);
    assert!(!refused.err().message.is_empty());
    let again = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": []}))
        .await
        .ok();
    let fresh = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({}))
        .await
        .ok();
    assert_eq!(again.progress.view, fresh.progress.view);

    // Bad requests.
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/0", json!({})).await;
    assert_eq!((r.status, r.code()), (404, Some("not_found")), "{}", r.raw);
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/999", json!({})).await;
    assert_eq!(r.status, 404, "{}", r.raw);
    let r = post_as::<LessonState>(addr, "/api/lessons/chess/1", json!({})).await;
    assert_eq!(r.status, 404, "{}", r.raw);
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": [{}]})).await;
    assert_eq!(
        (r.status, r.code()),
        (400, Some("bad_request")),
        "{}",
        r.raw
    );
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"moves": []})).await;
    assert_eq!(r.status, 400, "{}", r.raw);
    // Actions after the lesson is solved are refused.
    let mut extra = actions.clone();
    extra.push(actions[0].clone());
    let r = post_as::<LessonState>(addr, "/api/lessons/kyo/1", json!({"actions": extra})).await;
    assert_eq!(r.status, 400, "{}", r.raw);

    server.shutdown().await.unwrap();
    let _ = std::fs::remove_dir_all(dir);
}

/// Lesson `n` of `game` after the player's actions (in notation), judged as the endpoint judges it.
fn tried(game: &str, n: usize, tries: &[&str]) -> tabula_server::wire::api::LessonProgress {
    let registry = all_games();
    let kind = registry.get(game).unwrap();
    let file = tabula_server::services::lessons::lessons_of(game).unwrap();
    let actions: Vec<tabula_server::wire::api::PlayerAction> = tries
        .iter()
        .map(|t| serde_json::from_value(json!({"notation": t})).unwrap())
        .collect();
    file.lessons[n - 1]
        .play(n, kind.as_ref(), &actions)
        .unwrap_or_else(|e| panic!("{tries:?}: {e}"))
}

#[test]
fn a_wrong_try_in_a_kyo_lesson_says_why_it_failed() {
    // "Carry your chips": every legal try but the solution fails, each with a reason that follows
    // from the goal (the whole stack on C4) and the position after it.
    let start = tried("kyo", 3, &[]);
    let mut behind = 0;
    let mut elsewhere = 0;
    for a in &start.legal {
        let after = tried("kyo", 3, &[a.notation.as_str()]);
        if a.notation == "C3-C4" {
            assert!(after.solved && after.failure.is_none(), "{after:?}");
            continue;
        }
        let failure = after.failure.clone().unwrap_or_default();
        assert!(after.failed, "{}: {after:?}", a.notation);
        if a.cells.last().map(String::as_str) == Some("C4") {
            assert!(
                failure.starts_with("Part of your stack stayed behind on C3"),
                "{}: {failure}",
                a.notation
            );
            behind += 1;
        } else {
            let to = a.cells.last().unwrap();
            assert!(
                failure.starts_with(&format!("Your move ended on {to}, not on C4.")),
                "{}: {failure}",
                a.notation
            );
            elsewhere += 1;
        }
        assert!(
            failure.ends_with("That did not reach the goal in 1 move."),
            "{failure}"
        );
    }
    assert!(behind > 0 && elsewhere > 0, "{:?}", start.legal);

    // "Capture the King": a goal that is not about one cell says the lesson's own reason.
    let start = tried("kyo", 2, &[]);
    let other = start.legal.iter().find(|a| a.notation != "E7xE8").unwrap();
    let after = tried("kyo", 2, &[other.notation.as_str()]);
    assert!(
        after
            .failure
            .as_deref()
            .unwrap_or_default()
            .starts_with("That does not capture the King"),
        "{after:?}"
    );
    assert!(tried("kyo", 2, &["E7xE8"]).solved);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_a_player_may_read_quote_without_developer_backticks() {
    let dir = temp_dir("lesson-refusals");
    let server = start_with(
        all_games(),
        Storage::SqliteDir(dir.clone()),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let mut said = Vec::new();
    for path in [
        "/api/players/nobody-here",
        "/api/games/not-a-game",
        "/api/games/00000000-0000-0000-0000-000000000000",
        "/api/lessons/chess",
    ] {
        let r = get_as::<Value>(addr, path).await;
        assert_eq!(r.status, 404, "{path}: {}", r.raw);
        said.push((path, r.err().message.clone()));
    }
    for (path, body) in [
        ("/api/lessons/chess/1", json!({})),
        ("/api/lessons/kyo/999", json!({})),
        ("/api/lessons/kyo/one", json!({})),
        ("/api/lessons/kyo/1", json!({"actions": [{}]})),
    ] {
        let r = post_as::<Value>(addr, path, body).await;
        assert!(r.status >= 400, "{path}: {}", r.raw);
        said.push((path, r.err().message.clone()));
    }
    for (path, message) in &said {
        assert!(!message.is_empty(), "{path}");
        assert!(!message.contains('`'), "{path}: {message}");
    }
    // The name asked for is quoted as a reader quotes it.
    assert!(said[0].1.contains("“nobody-here”"), "{said:?}");
}

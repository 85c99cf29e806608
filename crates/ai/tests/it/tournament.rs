//! Tournaments for long runs: results files (one JSON line per finished game) that survive a killed
//! run, resuming from them, summarising them, progress lines, and equal-budget agents.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

use tabula_ai::tournament::{
    self, GameSummary, Progress, ResultsFile, TournamentConfig, parse_results, summarise,
};
use tabula_ai::{AgentSpec, AiError};
use tabula_core::SeatResult;

fn spec(name: &str) -> AgentSpec {
    name.parse().unwrap()
}

fn small_kyo() -> TournamentConfig {
    TournamentConfig {
        game: "kyo".into(),
        options: serde_json::Value::Null,
        agents: vec![spec("random"), spec("uct:2"), spec("mcts:3")],
        games_per_pair: 2,
        seed: 9,
        threads: 2,
        max_actions: 60,
    }
}

/// A fresh path in the system's temporary directory (removed first if a previous run left it).
fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("tabula-ai-{}-{name}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn run_recording(cfg: &TournamentConfig, done: &[GameSummary]) -> (Vec<GameSummary>, u32) {
    let seen = Mutex::new(Vec::new());
    let calls = AtomicU32::new(0);
    tournament::run_with(cfg, done, &|g| {
        calls.fetch_add(1, Ordering::Relaxed);
        seen.lock().unwrap().push(g.clone());
        Ok(())
    })
    .unwrap();
    (seen.into_inner().unwrap(), calls.into_inner())
}

#[test]
fn results_file_keeps_every_game_and_summarises_to_the_report() {
    let cfg = small_kyo();
    let path = temp_path("keeps");
    let file = ResultsFile::append(&path).unwrap();
    let report = tournament::run_with(&cfg, &[], &|g| file.record(g)).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 6, "one line per game");
    let parsed = parse_results(&text).unwrap();
    assert!(!parsed.truncated_last_line);
    assert_eq!(parsed.games.len(), 6);
    for g in &parsed.games {
        assert_eq!(g.game_id, "kyo");
        assert_eq!(g.tournament_seed, 9);
        assert_eq!(g.seats.len(), 2);
        assert_eq!(g.seats[usize::from(g.seat_a)], g.a);
        assert_eq!(g.seats[1 - usize::from(g.seat_a)], g.b);
        assert!(g.actions > 0 && g.actions <= 60);
    }
    let summaries = summarise(&parsed.games);
    assert_eq!(summaries.len(), 1);
    assert_eq!(summaries[0].game_id, "kyo");
    assert_eq!(summaries[0].max_games_per_pair, 2);
    let mut pairs = summaries[0].report.pairs.clone();
    let mut expected = report.pairs.clone();
    pairs.sort_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
    expected.sort_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
    assert_eq!(pairs, expected);
    // The same games appended twice (a repeated run) count once.
    let doubled = [parsed.games.clone(), parsed.games.clone()].concat();
    assert_eq!(summarise(&doubled), summaries);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_killed_run_resumes_without_replaying_its_games() {
    let cfg = small_kyo();
    let (all, calls) = run_recording(&cfg, &[]);
    assert_eq!(calls, 6);
    let full = tournament::run(&cfg, &|_| {}).unwrap();
    // A run killed after three games, in the middle of writing the fourth line.
    let mut text = String::new();
    for g in &all[..3] {
        text.push_str(&serde_json::to_string(g).unwrap());
        text.push('\n');
    }
    let fourth = serde_json::to_string(&all[3]).unwrap();
    text.push_str(&fourth[..fourth.len() / 2]);
    let parsed = parse_results(&text).unwrap();
    assert!(parsed.truncated_last_line);
    assert_eq!(parsed.games.len(), 3);
    assert_eq!(tournament::kept_games(&cfg, &parsed.games).len(), 3);
    let seen = Mutex::new(Vec::new());
    let resumed = tournament::run_with(&cfg, &parsed.games, &|g| {
        seen.lock().unwrap().push((g.pair, g.game));
        Ok(())
    })
    .unwrap();
    let seen = seen.into_inner().unwrap();
    assert_eq!(seen.len(), 3, "only the missing games are played");
    for g in &all[..3] {
        assert!(!seen.contains(&(g.pair, g.game)), "game replayed");
    }
    assert_eq!(resumed, full, "same results as an uninterrupted run");
    // Games of another tournament (another seed) are not taken for this one's.
    let other = TournamentConfig {
        seed: 10,
        ..cfg.clone()
    };
    assert!(tournament::kept_games(&other, &parsed.games).is_empty());
}

#[test]
fn unreadable_results_are_refused_with_the_line_number() {
    let cfg = small_kyo();
    let (all, _) = run_recording(&cfg, &[]);
    let good = serde_json::to_string(&all[0]).unwrap();
    let text = format!("{good}\n{{\"game_id\": 3}}\n{good}\n");
    match parse_results(&text) {
        Err(AiError::Results(msg)) => assert!(msg.contains("line 2"), "{msg}"),
        other => panic!("expected an error, got {other:?}"),
    }
    // Blank lines are fine; a complete file has no truncated line.
    let parsed = parse_results(&format!("\n{good}\n\n{good}\n")).unwrap();
    assert_eq!(parsed.games.len(), 2);
    assert!(!parsed.truncated_last_line);
    assert!(parse_results("").unwrap().games.is_empty());
}

#[test]
fn a_failing_results_writer_stops_the_run_with_its_error() {
    let cfg = TournamentConfig {
        threads: 1,
        ..small_kyo()
    };
    let calls = AtomicU32::new(0);
    let r = tournament::run_with(&cfg, &[], &|_| {
        calls.fetch_add(1, Ordering::Relaxed);
        Err(AiError::Results("disk full".into()))
    });
    assert_eq!(r, Err(AiError::Results("disk full".into())));
    assert_eq!(calls.into_inner(), 1, "no game starts after the failure");
    let missing = std::env::temp_dir()
        .join(format!("tabula-ai-{}-no-such-dir", std::process::id()))
        .join("results.jsonl");
    assert!(matches!(
        ResultsFile::append(&missing),
        Err(AiError::Results(_))
    ));
}

#[test]
fn progress_counts_games_and_scores_each_pair() {
    let cfg = small_kyo();
    let (all, _) = run_recording(&cfg, &[]);
    let mut p = Progress::new(6);
    for g in &all {
        p.record(g);
    }
    assert_eq!(p.done, 6);
    assert_eq!(p.pairs.len(), 3);
    for (_, _, w, d, l) in &p.pairs {
        assert_eq!(w + d + l, 2);
    }
    let g = &all[5];
    let line = p.line(g);
    assert!(line.starts_with("[6/6] "), "{line}");
    assert!(line.contains(&format!("{} vs {}", g.a, g.b)), "{line}");
    assert!(line.contains(&g.reason), "{line}");
    let mut q = Progress::new(3);
    let mut win = all[0].clone();
    win.result_a = SeatResult::Win;
    let mut draw = all[0].clone();
    draw.result_a = SeatResult::Draw;
    q.record(&win);
    q.record(&win);
    q.record(&draw);
    assert_eq!(
        q.scores(),
        format!("{}–{} +2 =1 -0 (83.3%)", all[0].a, all[0].b)
    );
}

#[test]
fn equal_budgets_go_to_searching_agents_without_their_own() {
    assert_eq!(spec("uct").with_budget(300), spec("uct:300"));
    assert_eq!(spec("level5").with_budget(300), spec("level5:300"));
    assert_eq!(spec("uct:50").with_budget(300), spec("uct:50"));
    assert_eq!(spec("random").with_budget(300), spec("random"));
    assert_eq!(spec("greedy").with_budget(300), spec("greedy"));
    assert_eq!(spec("level2").with_budget(300), spec("level2"));
    // An equal-budget tournament is reproducible for its seed.
    let cfg = TournamentConfig {
        agents: vec![
            spec("level5").with_budget(100),
            spec("uct").with_budget(100),
        ],
        games_per_pair: 2,
        max_actions: 16,
        ..small_kyo()
    };
    let (first, _) = run_recording(&cfg, &[]);
    let (second, _) = run_recording(&cfg, &[]);
    let key = |v: &[GameSummary]| {
        let mut v = v.to_vec();
        v.sort_by_key(|g| g.game);
        v
    };
    assert_eq!(key(&first), key(&second));
    assert_eq!(first[0].a, "level5:100");
    assert_eq!(first[0].b, "uct:100");
}

//! The `tabula` binary end to end: every subcommand's success path on real games, and bad input (unknown
//! game, bad option, malformed state, illegal action, missing file) giving a one-line error with exit
//! status 2 and never a panic.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const GAMES: [&str; 5] = [
    "cyvasse-trump",
    "cyvasse-caird",
    "kyo",
    "territories",
    "syba",
];

fn tabula(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .output()
        .expect("the tabula binary runs")
}

fn tabula_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A failed command: exit status 2, a single `tabula: error:` line naming the problem, no panic.
fn assert_clean_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "stderr: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(err.contains(needle), "expected `{needle}` in: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "expected one line, got: {err}");
    assert!(lines[0].starts_with("tabula: error:"), "{err}");
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabula-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

#[test]
fn games_lists_every_game_id_on_its_own_line() {
    let o = tabula(&["games"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let ids: Vec<&str> = out.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(ids, GAMES);
    let o = tabula(&["games", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), GAMES.len());
}

#[test]
fn every_game_creates_a_state_that_loads_and_lists_moves() {
    for game in GAMES {
        let o = tabula(&["new", game, "--seed", "3"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let state = stdout(&o);
        serde_json::from_str::<Value>(&state).unwrap();
        let o = tabula_stdin(&["moves", game, "--state", "-"], &state);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let moves: Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(
            !moves.as_array().unwrap().is_empty(),
            "{game} has no first action"
        );
    }
}

#[test]
fn apply_plays_a_listed_action_and_refuses_an_illegal_one() {
    let state = stdout(&tabula(&["new", "kyo"]));
    let path = temp_file("kyo-start.json", &state);
    let path = path.to_str().unwrap();
    let moves: Value =
        serde_json::from_str(&stdout(&tabula(&["moves", "kyo", "--state", path]))).unwrap();
    let first = serde_json::to_string(&moves[0]).unwrap();
    let o = tabula(&["apply", "kyo", "--state", path, "--action", &first]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_ne!(after, serde_json::from_str::<Value>(&state).unwrap());

    // Red may not move while it is Gold's decision.
    let o = tabula(&[
        "apply", "kyo", "--state", path, "--action", &first, "--seat", "1",
    ]);
    assert_clean_error(&o, "not");
    // Garbage is not an action.
    let o = tabula(&["apply", "kyo", "--state", path, "--action", "{\"fly\": 3}"]);
    assert_clean_error(&o, "");
    // A seat that does not exist.
    let o = tabula(&[
        "apply", "kyo", "--state", path, "--action", &first, "--seat", "7",
    ]);
    assert_clean_error(&o, "seat 7 does not exist");
}

#[test]
fn unknown_game_and_bad_options_are_one_line_errors() {
    assert_clean_error(&tabula(&["new", "chess"]), "unknown game “chess”");
    assert_clean_error(
        &tabula(&["new", "kyo", "-o", "light_pawn_rows=wide"]),
        "trench",
    );
    assert_clean_error(
        &tabula(&["new", "kyo", "-o", "colour=red"]),
        "unknown option “colour”",
    );
    assert_clean_error(
        &tabula(&["new", "kyo", "-o", "light_pawn_rows"]),
        "name=value",
    );
    assert_clean_error(&tabula(&["new", "syba", "-o", "players=9"]), "2..=6");
}

#[test]
fn malformed_and_missing_state_files_are_one_line_errors() {
    let bad = temp_file("bad.json", "{ this is not json");
    assert_clean_error(
        &tabula(&["moves", "kyo", "--state", bad.to_str().unwrap()]),
        "not valid JSON",
    );
    let wrong = temp_file("wrong.json", "{\"board\": 12}");
    assert_clean_error(
        &tabula(&["moves", "kyo", "--state", wrong.to_str().unwrap()]),
        "not a valid kyo state",
    );
    assert_clean_error(
        &tabula(&["moves", "kyo", "--state", "/nonexistent/x.json"]),
        "cannot read",
    );
    // A Kyo state given to another game.
    let kyo = stdout(&tabula(&["new", "kyo"]));
    let o = tabula_stdin(&["moves", "territories", "--state", "-"], &kyo);
    assert_clean_error(&o, "not a valid territories state");
}

#[test]
fn usage_errors_exit_with_status_2() {
    let o = tabula(&["perft", "kyo"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("panicked"));
    let o = tabula(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        "games",
        "new",
        "moves",
        "apply",
        "perft",
        "playout",
        "replay",
        "analyse",
        "play",
        "tournament",
        "bench",
        "serve",
        "loadtest",
    ] {
        let o = tabula(&[sub, "--help"]);
        assert!(o.status.success(), "{sub}: {}", stderr(&o));
        assert!(stdout(&o).contains("Usage: tabula"), "{sub}");
    }
}

#[test]
fn perft_prints_a_table_of_depths() {
    let o = tabula(&["perft", "kyo", "--depth", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("nodes/s"), "{out}");
}

#[test]
fn playout_ends_with_games_in_seconds_line() {
    for game in GAMES {
        let o = tabula(&["playout", game, "--count", "2", "--max-actions", "3000"]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let out = stdout(&o);
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("2 games in ") && last.ends_with(" s"),
            "{game}: {last}"
        );
    }
}

#[test]
fn a_played_record_replays_and_a_tampered_one_is_refused() {
    // Play a short hot-seat game through `tabula play`, always choosing action 1, and save its record.
    let record_path =
        std::env::temp_dir().join(format!("tabula-cli-{}-record.json", std::process::id()));
    let record_arg = record_path.to_str().unwrap();
    let input = "1\n".repeat(30);
    let o = tabula_stdin(
        &["play", "kyo", "--seed", "5", "--record", record_arg],
        &input,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // `play` prints each move in the game's words, then its notation.
    assert!(
        stdout(&o).contains("Gold: ") && stdout(&o).contains(" → "),
        "{}",
        stdout(&o)
    );
    let o = tabula(&["replay", record_arg, "--audit-seed"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Record verified"));
    // `replay --moves` lists them, one numbered line per turn.
    let o = tabula(&["replay", record_arg, "--moves"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("1. Gold: "), "{out}");
    assert!(out.contains("\n2. Red: "), "{out}");

    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    let actions = record["actions"].as_array_mut().unwrap();
    assert!(actions.len() >= 2);
    // The first action was Gold's; claim Red took it.
    actions[0]["actor"] = serde_json::json!({"seat": 1});
    let tampered = temp_file("tampered.json", &record.to_string());
    assert_clean_error(&tabula(&["replay", tampered.to_str().unwrap()]), "refused");
}

#[test]
fn a_record_ended_by_resignation_replays_with_its_result() {
    // The rules did not end this game: its result came from outside them (a resignation).
    let record_path =
        std::env::temp_dir().join(format!("tabula-cli-{}-resigned.json", std::process::id()));
    let record_arg = record_path.to_str().unwrap();
    let o = tabula_stdin(
        &["play", "kyo", "--seed", "9", "--record", record_arg],
        "1\n1\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mut record: Value =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    record["result"] = serde_json::json!({"results": ["loss", "win"], "reason": "Gold resigned"});
    let resigned = temp_file("resigned.json", &record.to_string());
    let o = tabula(&["replay", resigned.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Game over (Gold resigned)"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn tournament_results_file_resumes_and_summarises() {
    let path = temp_file("tournament.jsonl", "");
    let file = path.to_str().unwrap();
    let run = |games: &str| {
        tabula(&[
            "tournament",
            "--game",
            "kyo",
            "--agents",
            "random,uct:2",
            "--games",
            games,
            "--max-actions",
            "40",
            "--threads",
            "1",
            "--results",
            file,
        ])
    };
    let first = run("2");
    assert!(first.status.success(), "stderr: {}", stderr(&first));
    let lines = |p: &PathBuf| std::fs::read_to_string(p).unwrap().lines().count();
    assert_eq!(lines(&path), 2, "one JSON line per finished game");
    // Asked for three games, the rerun keeps the two it has and plays one more.
    let second = run("3");
    assert!(second.status.success(), "stderr: {}", stderr(&second));
    assert!(
        stderr(&second).contains("already in the results file"),
        "{}",
        stderr(&second)
    );
    assert_eq!(lines(&path), 3);
    let summary = tabula(&["tournament", "--summarise", file, "--json"]);
    assert!(summary.status.success(), "stderr: {}", stderr(&summary));
    let v: Value = serde_json::from_str(&stdout(&summary)).unwrap();
    let pair = &v["pairs"][0];
    let total = pair["wins_a"].as_u64().unwrap()
        + pair["draws"].as_u64().unwrap()
        + pair["wins_b"].as_u64().unwrap();
    assert_eq!(total, 3, "{v}");
    assert_clean_error(
        &tabula(&["tournament", "--summarise", "/nonexistent/results.jsonl"]),
        "results.jsonl",
    );
    let both = tabula(&[
        "tournament",
        "--game",
        "kyo",
        "--agents",
        "random,uct",
        "--games",
        "1",
        "--time-per-move",
        "5",
        "--iterations",
        "3",
    ]);
    assert_eq!(both.status.code(), Some(2), "stderr: {}", stderr(&both));
}

/// A reader that stops early (`tabula moves … | head`) is a broken pipe: the command ends quietly
/// (status 0, nothing on stderr), never with a panic. Deterministic: the state comes on stdin, so the
/// command cannot print before the test has closed the reading end of its stdout.
#[test]
fn output_into_a_closed_pipe_ends_quietly() {
    let state = tabula(&["new", "kyo"]);
    assert!(state.status.success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["moves", "kyo", "--state", "-", "--notation"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&state.stdout).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "panic: {err}");
    assert_eq!(out.status.code(), Some(0), "stderr: {err}");
    assert!(err.trim().is_empty(), "stderr: {err}");
}

#[test]
fn loadtest_refuses_other_hosts_and_out_of_bound_sizes_before_connecting() {
    // Nothing listens on these addresses: each refusal comes before any connection.
    assert_clean_error(&tabula(&["loadtest", "--addr", "192.0.2.1:80"]), "loopback");
    assert_clean_error(
        &tabula(&["loadtest", "--addr", "[2001:db8::1]:80"]),
        "loopback",
    );
    for games in ["0", "5001"] {
        assert_clean_error(
            &tabula(&["loadtest", "--addr", "127.0.0.1:9", "--games", games]),
            "games must be between 1 and 5000",
        );
    }
    for duration in ["0", "601"] {
        assert_clean_error(
            &tabula(&["loadtest", "--addr", "127.0.0.1:9", "--duration", duration]),
            "duration must be between 1 s and 600 s",
        );
    }
    assert_clean_error(
        &tabula(&["loadtest", "--addr", "127.0.0.1:9", "--timeout", "0"]),
        "timeout must be between",
    );
    // A loopback address where no server listens: a clean error, not a hang.
    assert_clean_error(
        &tabula(&["loadtest", "--addr", "127.0.0.1:9", "--duration", "1"]),
        "127.0.0.1:9",
    );
}

/// Waits for a child process, killing it (and failing) if it runs longer than `limit`.
fn wait_bounded(mut child: std::process::Child, limit: std::time::Duration) -> Output {
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}; stdout: {} stderr: {}",
                stdout(&out),
                stderr(&out)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn the_default_loadtest_completes_against_a_default_server() {
    // `tabula serve` and `tabula loadtest` with their defaults (100 Kyo games, 200 WebSocket clients,
    // the server's per-address request budget), only shorter.
    let server = crate::served::Served::start("cli-serve");
    let addr = server.addr.clone();
    let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["loadtest", "--addr", &addr, "--duration", "1", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabula binary runs");
    let o = wait_bounded(child, std::time::Duration::from_secs(300));
    drop(server);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let report: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(report["games"], 100, "{report}");
    assert_eq!(report["sockets"], 200, "{report}");
    assert_eq!(report["errors"], 0, "{report}");
    assert!(report["actions"].as_u64().unwrap() > 0, "{report}");
}

#[test]
fn audit_seed_checks_the_seed_commitment_and_every_chance_action() {
    // A Territories game (its deal is chance) with a seed past 2^53: the record writes it as a string.
    let seed: u64 = 18_446_744_073_709_551_557;
    let record_path =
        std::env::temp_dir().join(format!("tabula-cli-{}-audit.json", std::process::id()));
    let record_arg = record_path.to_str().unwrap();
    let o = tabula_stdin(
        &[
            "play",
            "territories",
            "--seed",
            &seed.to_string(),
            "--record",
            record_arg,
        ],
        &"1\n".repeat(6),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    assert_eq!(record["seed"], serde_json::json!(seed.to_string()));
    assert_eq!(
        record["seed_commitment"],
        serde_json::json!(tabula_core::record::seed_commitment(seed))
    );
    let o = tabula(&["replay", record_arg, "--audit-seed"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("matches its commitment"),
        "{}",
        stdout(&o)
    );

    // A seed that is not the committed one is refused before anything else.
    let mut other = record.clone();
    other["seed"] = serde_json::json!((seed ^ 1).to_string());
    let f = temp_file("audit-seed.json", &other.to_string());
    assert_clean_error(
        &tabula(&["replay", f.to_str().unwrap(), "--audit-seed"]),
        "does not match the record's seed commitment",
    );
    // A consistent commitment to another seed: the chance actions are not the ones it draws.
    other["seed_commitment"] = serde_json::json!(tabula_core::record::seed_commitment(seed ^ 1));
    let f = temp_file("audit-chance.json", &other.to_string());
    assert_clean_error(
        &tabula(&["replay", f.to_str().unwrap(), "--audit-seed"]),
        "is not the one the seed draws",
    );
    // Without --audit-seed the moves alone are checked.
    assert!(tabula(&["replay", f.to_str().unwrap()]).status.success());
}

/// `tabula analyse` prints one row per decision of a seat and each seat's totals; `--json` gives the
/// same analysis as data, the same for the same seed; a tampered record is a one-line error.
#[test]
fn analyse_reviews_a_record_as_a_table_and_as_json() {
    let record_path = temp_file("analyse-record.json", "");
    let record_arg = record_path.to_str().unwrap();
    let o = tabula_stdin(
        &["play", "kyo", "--seed", "9", "--record", record_arg],
        &"1\n".repeat(12),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let budget = [
        "--iterations",
        "150",
        "--estimate-iterations",
        "100",
        "--seed",
        "4",
    ];
    let mut args = vec!["analyse", record_arg];
    args.extend(budget);
    let o = tabula(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("preferred") && out.contains("blunders"),
        "{out}"
    );
    assert!(
        out.contains("inaccuracy ≥ 10, mistake ≥ 20, blunder ≥ 30"),
        "{out}"
    );

    args.push("--json");
    let a: Value = serde_json::from_slice(&tabula(&args).stdout).unwrap();
    let b: Value = serde_json::from_slice(&tabula(&args).stdout).unwrap();
    assert_eq!(a, b, "same record and seed, same analysis");
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&record_path).unwrap()).unwrap();
    let seat_actions = record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["actor"] != "chance")
        .count();
    assert_eq!(a["decisions"].as_array().unwrap().len(), seat_actions);
    assert_eq!(a["seats"].as_array().unwrap().len(), 2);
    for d in a["decisions"].as_array().unwrap() {
        if d["kind"] == "judged" {
            let before = d["before"].as_f64().unwrap();
            assert!((0.0..=1.0).contains(&before), "{d}");
            assert!(d["best"].is_object() || d["best"].is_string(), "{d}");
        }
    }

    let mut tampered = record.clone();
    tampered["actions"].as_array_mut().unwrap()[0]["actor"] = serde_json::json!({"seat": 1});
    let bad = temp_file("analyse-tampered.json", &tampered.to_string());
    assert_clean_error(&tabula(&["analyse", bad.to_str().unwrap()]), "refused");
    assert_clean_error(
        &tabula(&["analyse", "/nonexistent/record.json"]),
        "cannot read",
    );
}

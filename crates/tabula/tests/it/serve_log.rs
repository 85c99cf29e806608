//! `tabula serve`'s log: a subscriber is installed (messages reach stderr), `--log-format json` writes
//! one JSON object per line, `RUST_LOG` chooses the level, and a bad `RUST_LOG` is a clear error.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// Starts `tabula serve` on a free port and a fresh data directory with `args` and `RUST_LOG`.
fn serve(name: &str, args: &[&str], rust_log: Option<&str>) -> (Child, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("tabula-log-{}-{name}", std::process::id()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tabula"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(&dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    match rust_log {
        Some(v) => cmd.env("RUST_LOG", v),
        None => cmd.env_remove("RUST_LOG"),
    };
    (cmd.spawn().expect("the tabula binary runs"), dir)
}

/// The stderr lines of `child` until one satisfies `pred` (or the stream ends, or 120 s pass).
fn stderr_until(child: &mut Child, pred: impl Fn(&str) -> bool) -> (Vec<String>, bool) {
    let err = child.stderr.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(120)) {
        let done = pred(&line);
        lines.push(line);
        if done {
            return (lines, true);
        }
    }
    (lines, false)
}

fn stop(mut child: Child, dir: &std::path::Path) {
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn serve_with_log_format_json_writes_json_lines_to_stderr() {
    let (mut child, dir) = serve("json", &["--log-format", "json"], None);
    let (lines, found) = stderr_until(&mut child, |l| l.contains("resumed"));
    stop(child, &dir);
    assert!(found, "no start-up message in the log: {lines:?}");
    for line in &lines {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(v["level"].is_string() && v["timestamp"].is_string(), "{v}");
    }
    let last: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    assert_eq!(last["level"], "INFO", "{last}");
    assert!(
        last["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("resumed 0 unfinished games")),
        "{last}"
    );
}

#[test]
fn serve_logs_text_at_the_level_rust_log_gives() {
    // The default level (info) shows the start-up message, as a text line.
    let (mut child, dir) = serve("text", &[], None);
    let (lines, found) = stderr_until(&mut child, |l| l.contains("resumed"));
    stop(child, &dir);
    assert!(found, "no start-up message in the log: {lines:?}");
    let line = lines.last().unwrap();
    assert!(
        line.contains("INFO") && serde_json::from_str::<Value>(line).is_err(),
        "{line}"
    );

    // RUST_LOG=debug shows more than info: sqlx's and the server's debug messages come first.
    let (mut child, dir) = serve("debug", &[], Some("debug"));
    let (lines, found) = stderr_until(&mut child, |l| l.contains("resumed"));
    stop(child, &dir);
    assert!(found, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("DEBUG")), "{lines:?}");
}

#[test]
fn a_bad_rust_log_is_a_clear_error() {
    let (mut child, dir) = serve("bad", &[], Some("tabula_server=loudest"));
    let (lines, _) = stderr_until(&mut child, |_| false);
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status.code(), Some(2), "{lines:?}");
    let text = lines.join("\n");
    assert!(
        text.contains("RUST_LOG=`tabula_server=loudest` is not a valid log filter"),
        "{text}"
    );
}

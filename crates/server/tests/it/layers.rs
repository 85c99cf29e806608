//! The server's layers import in one direction (ARCHITECTURE.md, "Architecture invariants"): every
//! `crate::…` path in a module names a module of its own layer or of a layer below, and the crates a
//! layer must not know (the web framework below transport, SQL above storage) are not named in it.
//! The test reads the sources, as rust-analyzer's tidy tests do, so a wrong import fails here with the
//! file, the line and the rule it breaks.

use std::path::{Path, PathBuf};

/// The layers from the bottom up: a module may use its own layer's modules and those of any layer
/// before it. Within the services, the order is part of the design: rooms know only rooms; lessons,
/// accounts, chat, analyses and explanations may use rooms; the app (all of them together) comes last.
const LAYERS: &[(&str, &[&str])] = &[
    ("base", &["base"]),
    ("domain", &["domain"]),
    ("wire", &["wire"]),
    ("storage", &["storage"]),
    ("rooms", &["services::limits", "services::rooms"]),
    (
        "services",
        &[
            "services::accounts",
            "services::chat",
            "services::explain",
            "services::lessons",
        ],
    ),
    ("analysis", &["services::analysis"]),
    ("app", &["services::app", "services"]),
    ("transport", &["transport"]),
    ("wiring", &[""]),
];

/// Crates a layer must not name (in code: comments may mention them).
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "base",
        &["axum", "hyper", "tabula_http", "sqlx", "utoipa", "ts_rs"],
    ),
    (
        "domain",
        &["axum", "hyper", "tabula_http", "sqlx", "utoipa", "ts_rs"],
    ),
    ("wire", &["axum", "hyper", "tabula_http", "sqlx"]),
    ("storage", &["axum", "hyper", "tabula_http", "utoipa"]),
    (
        "rooms",
        &["axum", "hyper", "tabula_http", "utoipa", "sqlx", "argon2"],
    ),
    (
        "services",
        &["axum", "hyper", "tabula_http", "utoipa", "sqlx"],
    ),
    (
        "analysis",
        &["axum", "hyper", "tabula_http", "utoipa", "sqlx"],
    ),
    ("app", &["axum", "hyper", "tabula_http", "utoipa", "sqlx"]),
    ("transport", &["sqlx"]),
    ("wiring", &["sqlx"]),
];

/// The layer of a module path (`services::rooms::seats`), by its longest listed prefix.
fn layer_of(module: &str) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for (i, (_, prefixes)) in LAYERS.iter().enumerate() {
        for p in *prefixes {
            let matches = p.is_empty() || module == *p || module.starts_with(&format!("{p}::"));
            if matches && best.is_none_or(|(len, _)| p.len() > len) {
                best = Some((p.len(), i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The module path of a source file (`src/services/rooms/mod.rs` is `services::rooms`; `lib.rs` is
/// the crate root, the empty path).
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("cannot read {}", dir.display());
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A line without its comment (`//`, `///` and `//!` alike); string literals are kept, which is
/// harmless here (no string of the server names a module path).
fn code_of(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// The module paths a line names after `crate::`, two segments deep at most
/// (`crate::services::rooms::Room` → `services::rooms`), including those inside a `use crate::{…}`
/// group, which `uses` has joined into one line.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',').filter(|i| !i.trim().is_empty()) {
                let segs: Vec<&str> = item.trim().split("::").map(str::trim).collect();
                out.push(segs.iter().take(2).copied().collect::<Vec<_>>().join("::"));
            }
        } else {
            let path: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
            out.push(segs.iter().take(2).copied().collect::<Vec<_>>().join("::"));
        }
        rest = after;
    }
    out
}

/// Joins each `use crate::{` group spread over several lines into its first line, so that its items
/// are read with it; other lines are kept as they are. Line numbers stay those of the file.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let code = code_of(line);
        if let Some((start, acc)) = open.as_mut() {
            acc.push_str(code);
            if code.contains("};") {
                out.push((*start, std::mem::take(acc)));
                open = None;
            }
            continue;
        }
        if code.contains("crate::{") && !code.contains('}') {
            open = Some((n + 1, code.to_string()));
        } else {
            out.push((n + 1, code.to_string()));
        }
    }
    out
}

/// Whether `code` names crate `name` as a path (`name::…`), not as part of another word.
fn names_crate(code: &str, name: &str) -> bool {
    let pat = format!("{name}::");
    code.match_indices(&pat).any(|(i, _)| {
        i == 0
            || !code[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    })
}

/// Every violation of the layers in the sources under `src`, one line each.
fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut out = Vec::new();
    for file in &files {
        let module = module_of(src, file);
        let Some(layer) = layer_of(&module) else {
            out.push(format!(
                "{}: module `{module}` is in no layer",
                file.display()
            ));
            continue;
        };
        let Ok(text) = std::fs::read_to_string(file) else {
            panic!("cannot read {}", file.display());
        };
        let forbidden = FORBIDDEN
            .iter()
            .find(|(name, _)| *name == LAYERS[layer].0)
            .map_or(&[][..], |(_, crates)| *crates);
        for (n, code) in logical_lines(&text) {
            for target in crate_paths(&code) {
                let Some(to) = layer_of(&target) else {
                    out.push(format!(
                        "{}:{n}: `crate::{target}` is in no layer",
                        file.display()
                    ));
                    continue;
                };
                if to > layer {
                    out.push(format!(
                        "{}:{n}: `{module}` ({}) uses `crate::{target}` ({}), a layer above it",
                        file.display(),
                        LAYERS[layer].0,
                        LAYERS[to].0
                    ));
                }
            }
            for name in forbidden {
                if names_crate(&code, name) {
                    out.push(format!(
                        "{}:{n}: `{module}` ({}) names `{name}`, which its layer must not know",
                        file.display(),
                        LAYERS[layer].0
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn the_server_imports_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(
        found.is_empty(),
        "imports against the layers:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_wrong_import_is_found() {
    // A tree made for the test: rooms naming chat, the domain naming axum, storage naming a service
    // in a multi-line group. Each must be reported; the right-way imports must not.
    let dir = std::env::temp_dir().join(format!("tabula-layers-{}", std::process::id()));
    let src = dir.join("src");
    let write = |path: &str, text: &str| {
        let p = src.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("a temporary directory");
        }
        std::fs::write(p, text).expect("a temporary file");
    };
    write(
        "lib.rs",
        "pub mod services;\nuse crate::services::app::App;\n",
    );
    write(
        "services/rooms/mod.rs",
        "use crate::services::chat::Chat; // rooms know no chat\nuse crate::storage::db::Db;\n",
    );
    write(
        "domain/model.rs",
        "fn f(_: axum::http::StatusCode) {}\n// axum:: in a comment\n",
    );
    write(
        "storage/db.rs",
        "use crate::{\n    domain::model::Event,\n    services::rooms::Room,\n};\n",
    );
    write("services/chat.rs", "use crate::services::rooms::Room;\n");
    let found = violations(&src);
    let _ = std::fs::remove_dir_all(&dir);
    let has = |needle: &str| found.iter().any(|v| v.contains(needle));
    assert!(
        has("uses `crate::services::chat` (services), a layer above"),
        "{found:#?}"
    );
    assert!(has("names `axum`"), "{found:#?}");
    assert!(has("uses `crate::services::rooms` (rooms)"), "{found:#?}");
    assert_eq!(found.len(), 3, "only the three wrong imports: {found:#?}");
}

//! Builds the web UI (`web/`, TypeScript + Vite) into `web/dist`, which the server embeds.
//!
//! * The bundle is built from `web/`'s sources and configuration and from the files it imports from
//!   outside `web/`: the rules (`docs/rules/*.md`, bundled by `web/src/pages/rules.ts`) and Syba's
//!   content files (`crates/games/syba/data/*.json`, by `web/src/games/syba.ts`). [`INPUTS`] lists
//!   them all: cargo re-runs this script when any of them changes, and the script itself rebuilds only
//!   when one of them is newer than `web/dist/index.html` (so a new profile or target directory does
//!   not rebuild an up-to-date bundle).
//! * `npm ci` runs only when `web/node_modules` is missing.
//! * Without `web/package.json` (or with `TABULA_SKIP_WEB_BUILD=1`) it only makes sure `web/dist`
//!   exists, so the server builds and serves a placeholder page.
//! * If npm fails, the build fails with npm's exit status and what to do.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// Everything the web bundle is built from, relative to the repository root (files or directories,
/// scanned recursively). `web/tests/build-inputs.test.ts` checks that every directory outside `web/`
/// that the client imports from is listed here.
const INPUTS: &[&str] = &[
    "web/src",
    "web/index.html",
    "web/package.json",
    "web/package-lock.json",
    "web/vite.config.ts",
    "web/scripts/precompress.ts",
    "web/tsconfig.json",
    "web/public",
    "docs/rules",
    "crates/games/syba/data",
];

fn fail(msg: &str) -> ! {
    eprintln!("\nerror: building the web UI failed: {msg}\n");
    eprintln!(
        "Fix the web build (cd web && npm ci && npm run build), or set TABULA_SKIP_WEB_BUILD=1 to build the server without rebuilding the UI.\n"
    );
    std::process::exit(1);
}

fn run_npm(web: &Path, args: &[&str]) {
    let status = Command::new("npm").args(args).current_dir(web).status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&format!(
            "`npm {}` in {} exited with {s}",
            args.join(" "),
            web.display()
        )),
        Err(e) => fail(&format!(
            "cannot run `npm {}` in {}: {e} (is Node.js installed?)",
            args.join(" "),
            web.display()
        )),
    }
}

/// The newest modification time of a file, or of any file under a directory (None: nothing there
/// or unreadable).
fn newest(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    let mut best = meta.modified().ok();
    for entry in std::fs::read_dir(path).ok()?.flatten() {
        if let Some(t) = newest(&entry.path()) {
            best = Some(best.map_or(t, |b| b.max(t)));
        }
    }
    best
}

/// Whether `web/dist/index.html` is missing or older than any input (an unreadable time counts as
/// out of date).
fn stale(root: &Path, dist_index: &Path) -> bool {
    let Some(built) = std::fs::metadata(dist_index)
        .ok()
        .and_then(|m| m.modified().ok())
    else {
        return true;
    };
    INPUTS.iter().any(|p| {
        let path = root.join(p);
        path.exists() && newest(&path).is_none_or(|t| t > built)
    })
}

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let root = manifest.join("../..");
    let web = root.join("web");
    let dist = web.join("dist");
    println!("cargo:rerun-if-env-changed=TABULA_SKIP_WEB_BUILD");
    for p in INPUTS {
        let path = root.join(p);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    // Watched even while missing, so that adding it triggers a build.
    println!(
        "cargo:rerun-if-changed={}",
        web.join("package.json").display()
    );
    let skip = std::env::var("TABULA_SKIP_WEB_BUILD").is_ok_and(|v| !v.is_empty() && v != "0");
    if skip || !web.join("package.json").exists() {
        if let Err(e) = std::fs::create_dir_all(&dist) {
            fail(&format!("cannot create {}: {e}", dist.display()));
        }
        return;
    }
    if !web.join("node_modules").exists() {
        run_npm(&web, &["ci", "--no-audit", "--no-fund"]);
    }
    if !stale(&root, &dist.join("index.html")) {
        return;
    }
    run_npm(&web, &["run", "build"]);
    if !dist.join("index.html").exists() {
        fail(&format!(
            "`npm run build` did not produce {}",
            dist.join("index.html").display()
        ));
    }
}

//! Builds the web UI (`web/`, TypeScript + Vite) into `web/dist`, which the server embeds.
//!
//! * `npm ci` runs only when `web/node_modules` is missing; `npm run build` runs whenever the web
//!   sources change (cargo re-runs this script on changes under `web/src`, `web/index.html`,
//!   `web/package.json`, …).
//! * Without `web/package.json` (or with `TABULA_SKIP_WEB_BUILD=1`) it only makes sure `web/dist`
//!   exists, so the server builds and serves a placeholder page.
//! * If npm fails, the build fails with npm's exit status and what to do.

use std::path::{Path, PathBuf};
use std::process::Command;

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

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into()));
    let web = manifest.join("../../web");
    let dist = web.join("dist");
    println!("cargo:rerun-if-env-changed=TABULA_SKIP_WEB_BUILD");
    for p in [
        "src",
        "index.html",
        "package.json",
        "package-lock.json",
        "vite.config.ts",
        "tsconfig.json",
        "public",
    ] {
        let path = web.join(p);
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
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
    run_npm(&web, &["run", "build"]);
    if !dist.join("index.html").exists() {
        fail(&format!(
            "`npm run build` did not produce {}",
            dist.join("index.html").display()
        ));
    }
}

//! The OpenAPI document at `/api/openapi.json` is derived from the handlers: it lists exactly the
//! public routes the server answers, with their methods, every operation says its responses, and
//! every `$ref` names a component it holds.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;
use serde_json::{Value, json};
use tabula_tools::client::request_with_headers;

/// Every public route and its methods (lower case), as `docs/protocol.md` lists them. The WebSocket
/// upgrade (`/api/games/{id}/ws`) and the cluster's `/internal/…` route are left out on purpose.
const ROUTES: &[(&str, &[&str])] = &[
    ("/healthz", &["get"]),
    ("/api/openapi.json", &["get"]),
    ("/api/catalog", &["get"]),
    ("/api/catalog/{game}/preview", &["post"]),
    ("/api/games", &["post"]),
    ("/api/lobby", &["get"]),
    ("/api/games/{id}", &["get"]),
    ("/api/games/{id}/view/{n}", &["get"]),
    ("/api/games/{id}/join", &["post"]),
    ("/api/games/{id}/action", &["post"]),
    ("/api/games/{id}/resign", &["post"]),
    ("/api/games/{id}/draw", &["post"]),
    ("/api/games/{id}/takeback", &["post"]),
    ("/api/games/{id}/rematch", &["post"]),
    ("/api/games/{id}/record", &["get"]),
    ("/api/records", &["post"]),
    ("/api/games/{id}/analysis", &["get", "post"]),
    ("/api/games/{id}/hint", &["post"]),
    ("/api/games/{id}/chat", &["get", "post"]),
    ("/api/games/{id}/explain", &["post"]),
    ("/api/lessons", &["get"]),
    ("/api/lessons/{game}", &["get"]),
    ("/api/lessons/{game}/{n}", &["post"]),
    ("/api/lessons/{game}/{n}/hint", &["post"]),
    ("/api/account", &["delete", "post"]),
    ("/api/account/password", &["post"]),
    ("/api/session", &["delete", "get", "post"]),
    ("/api/players/{name}", &["get"]),
    ("/api/leaderboard/{game}", &["get"]),
    ("/api/me/games", &["get"]),
    ("/api/me/seats", &["post"]),
];

const METHODS: &[&str] = &["get", "post", "put", "delete", "patch"];

/// Every `$ref` in `v`.
fn refs(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        out.insert(r.clone());
                    }
                    _ => refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// The path with its parameters filled in (a game that does not exist, Duel, lesson 1).
fn concrete(path: &str) -> String {
    path.replace("{id}", "no-such-game")
        .replace("{game}", "duel")
        .replace("{n}", "1")
        .replace("{name}", "nobody")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_document_lists_every_route_the_server_answers_and_nothing_else() {
    let dir = temp_dir("openapi");
    // About 150 requests: more than the default burst of an address.
    let limits = tabula_server::Limits {
        http_burst: 10_000.0,
        ..tabula_server::Limits::default()
    };
    let server = start_with(
        registry(),
        tabula_server::Storage::SqliteDir(dir.clone()),
        limits,
    )
    .await;
    let addr = server.local_addr();
    // The OpenAPI document is not one of the server's wire types: it is read as raw JSON.
    let (s, doc) = get(addr, "/api/openapi.json").await;
    assert_eq!(s, 200);
    assert!(
        doc["openapi"].as_str().is_some_and(|v| v.starts_with("3.")),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["title"], "Tabula game server");

    // The paths and their methods are exactly the public routes.
    let paths = doc["paths"].as_object().expect("paths");
    let documented: BTreeMap<String, BTreeSet<String>> = paths
        .iter()
        .map(|(p, item)| {
            let methods = METHODS
                .iter()
                .filter(|m| item.get(**m).is_some())
                .map(|m| m.to_string())
                .collect();
            (p.clone(), methods)
        })
        .collect();
    let expected: BTreeMap<String, BTreeSet<String>> = ROUTES
        .iter()
        .map(|(p, ms)| (p.to_string(), ms.iter().map(|m| m.to_string()).collect()))
        .collect();
    assert_eq!(documented, expected);

    // Every operation says its responses, each with a description; every refusal is the error body.
    for (path, item) in paths {
        for method in METHODS {
            let Some(op) = item.get(*method) else {
                continue;
            };
            let responses = op["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {path} has no responses");
            // The API's middleware refusals: every request counts in the address's budget, and every
            // request but a GET must be JSON (the health check and this document are outside both).
            if path.starts_with("/api/") && path != "/api/openapi.json" {
                assert!(responses.contains_key("429"), "{method} {path} has no 429");
                assert_eq!(
                    responses.contains_key("415"),
                    *method != "get",
                    "{method} {path}: 415 for a body-carrying method only"
                );
            }
            assert!(
                responses.keys().any(|k| k.starts_with('2')),
                "{method} {path} has no success response"
            );
            for (status, r) in responses {
                assert!(
                    r["description"].as_str().is_some_and(|d| !d.is_empty()),
                    "{method} {path} {status} has no description"
                );
                if status.starts_with('4') || status.starts_with('5') {
                    assert_eq!(
                        r["content"]["application/json"]["schema"]["$ref"],
                        json!("#/components/schemas/ApiError"),
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }

    // Every `$ref` names a component the document holds.
    let mut named = BTreeSet::new();
    refs(&doc, &mut named);
    assert!(named.contains("#/components/schemas/Created"));
    for r in &named {
        let name = r
            .strip_prefix("#/components/schemas/")
            .unwrap_or_else(|| panic!("a $ref outside the schemas: {r}"));
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{r} is not in the components"
        );
    }

    // The server answers every documented operation (not the catch-all's 404 or a 405) and refuses
    // the methods a path does not document with 405.
    for (path, methods) in &expected {
        let url = concrete(path);
        for method in METHODS {
            let (status, body) = request_with_headers(
                addr,
                &method.to_uppercase(),
                &url,
                &[("Content-Type", "application/json")],
                b"{}",
            )
            .await
            .unwrap_or_else(|e| panic!("{method} {url}: {e}"));
            // Raw JSON on purpose: the body is whatever the operation answers to `{}` (its own
            // type, or a refusal), and only the catch-all's message is looked for.
            if methods.contains(*method) {
                assert_ne!(status, 405, "{method} {url}: {body}");
                assert!(
                    !body["error"]["message"]
                        .as_str()
                        .is_some_and(|m| m.starts_with("no such API endpoint")),
                    "{method} {url} is documented but not answered: {body}"
                );
            } else {
                assert_eq!(
                    status, 405,
                    "{method} {url} is answered but not documented: {body}"
                );
            }
        }
    }
    server.shutdown().await.unwrap();
}

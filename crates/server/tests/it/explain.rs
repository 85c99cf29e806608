//! `POST /api/games/{id}/explain`: why the cells a player clicked lead to no legal action, from the
//! engine (Kyo's refusals), only for a seat's token, counted in the request budget, changing nothing.

use crate::common::*;
use serde_json::{Value, json};
use tabula_core::dynamic::Registry;
use tabula_server::wire::api::Explanation;
use tabula_server::{Limits, Storage};

fn kyo_registry() -> Registry {
    let mut r = registry();
    r.register::<kyo::Kyo>();
    r
}

/// A Kyo game between two people, both seats taken by the host: its id and the seats' tokens.
async fn kyo_game(addr: std::net::SocketAddr) -> (String, Vec<String>) {
    let (id, tokens) = create(
        addr,
        json!({"game": "kyo", "options": {}, "seats": [{"kind": "human"}, {"kind": "human"}],
               "host_seats": [0, 1]}),
    )
    .await;
    (id, tokens.into_iter().map(Option::unwrap).collect())
}

async fn explain(addr: std::net::SocketAddr, id: &str, body: Value) -> Reply<Explanation> {
    post_as(addr, &format!("/api/games/{id}/explain"), body).await
}

/// The engine's reason in a successful answer.
fn reason(r: Reply<Explanation>) -> (u16, Option<String>) {
    (r.status, r.ok().reason)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_gets_the_engines_reason_and_nothing_changes() {
    let server = start_with(
        kyo_registry(),
        Storage::SqliteDir(temp_dir("explain")),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = kyo_game(addr).await;
    let (_, before) = get(addr, &format!("/api/games/{id}")).await;

    // Gold's Light Pawn on A3, two squares on.
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[0], "cells": ["A3", "A5"]}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.raw);
    assert_eq!(
        r.ok().reason.as_deref(),
        Some("A Light Pawn steps one square: it cannot make Mana moves")
    );
    // An opponent's piece.
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[0], "cells": ["E9"]}),
    )
    .await;
    assert_eq!(reason(r), (200, Some("That is Red's King".into())));
    // Cells that lead to a legal action: nothing to explain.
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[0], "cells": ["A3"]}),
    )
    .await;
    assert_eq!(reason(r), (200, None));
    // The seat not to move.
    let r = explain(
        addr,
        &id,
        json!({"seat": 1, "token": tokens[1], "cells": ["A6"]}),
    )
    .await;
    assert_eq!(
        reason(r),
        (200, Some("It is not your turn: Gold is to act".into()))
    );

    // The OpenAPI document is not a wire type: raw JSON.
    let (_, doc) = get(addr, "/api/openapi.json").await;
    assert!(doc["paths"]["/api/games/{id}/explain"]["post"].is_object());

    let (_, mut after) = get(addr, &format!("/api/games/{id}")).await;
    assert_eq!(
        decode::<Snap>(&before).common.seq,
        decode::<Snap>(&after).common.seq,
        "explaining changed the game"
    );
    // The same snapshot but for the server's clock: compared as raw JSON, every field at once.
    let mut before = before;
    before["now"] = Value::Null;
    after["now"] = Value::Null;
    assert_eq!(before, after);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_a_wrong_token_and_bad_cells_are_refused_clearly() {
    let server = start_with(
        kyo_registry(),
        Storage::SqliteDir(temp_dir("explain-refused")),
        Limits::default(),
    )
    .await;
    let addr = server.local_addr();
    let (id, tokens) = kyo_game(addr).await;

    let r = explain(addr, &id, json!({"cells": ["A3"]})).await;
    assert_eq!(r.status, 400, "{}", r.raw);
    assert!(
        r.err().message.contains("only a seat's token may ask"),
        "{}",
        r.raw
    );
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[1], "cells": ["A3"]}),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.raw);
    assert!(
        r.err().message.contains("wrong token for seat 0"),
        "{}",
        r.raw
    );
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[0], "cells": []}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.raw);
    assert!(
        r.err().message.contains("at least one clicked cell"),
        "{}",
        r.raw
    );
    let many: Vec<String> = (0..9).map(|i| format!("A{i}")).collect();
    let r = explain(
        addr,
        &id,
        json!({"seat": 0, "token": tokens[0], "cells": many}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.raw);
    assert!(r.err().message.contains("at most 8 cells"), "{}", r.raw);
    let r = explain(
        addr,
        "00000000-0000-4000-8000-000000000000",
        json!({"seat": 0, "token": tokens[0], "cells": ["A3"]}),
    )
    .await;
    assert_eq!(r.status, 404, "{}", r.raw);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_are_counted_in_the_addresss_request_budget() {
    let limits = Limits {
        http_rate_per_sec: 0.001,
        http_burst: 3.0,
        ..Limits::default()
    };
    let server = start_with(
        kyo_registry(),
        Storage::SqliteDir(temp_dir("explain-budget")),
        limits,
    )
    .await;
    let addr = server.local_addr();
    // The creation takes one request of the budget of 3.
    let (id, tokens) = kyo_game(addr).await;
    let body = json!({"seat": 0, "token": tokens[0], "cells": ["A3", "A5"]});
    for _ in 0..2 {
        assert_eq!(explain(addr, &id, body.clone()).await.status, 200);
    }
    let r = explain(addr, &id, body).await;
    assert_eq!(r.status, 429, "{}", r.raw);
}

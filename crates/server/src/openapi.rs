//! The OpenAPI 3.0 document of the HTTP API, served at `/api/openapi.json` (written by hand to match
//! `docs/protocol.md`; the WebSocket messages are documented there).

use serde_json::{Value, json};

fn op(summary: &str, params: Value, body: Option<Value>, responses: Value) -> Value {
    let mut o = json!({"summary": summary, "parameters": params, "responses": responses});
    if let (Some(b), Some(map)) = (body, o.as_object_mut()) {
        map.insert(
            "requestBody".into(),
            json!({"required": true, "content": {"application/json": {"schema": b}}}),
        );
    }
    o
}

fn ok(schema: Value) -> Value {
    json!({"description": "OK", "content": {"application/json": {"schema": schema}}})
}

fn r(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn errors(codes: &[&str]) -> Value {
    let mut m = serde_json::Map::new();
    for c in codes {
        m.insert(
            (*c).to_string(),
            json!({"description": "Refused (see the error's code and message)", "content": {"application/json": {"schema": r("Error")}}}),
        );
    }
    Value::Object(m)
}

fn with(mut base: Value, extra: Value) -> Value {
    if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
        b.extend(e);
    }
    base
}

/// The account endpoints (docs/protocol.md, "Accounts").
fn account_paths() -> Value {
    let name =
        json!({"name": "name", "in": "path", "required": true, "schema": {"type": "string"}});
    let game =
        json!({"name": "game", "in": "path", "required": true, "schema": {"type": "string"}});
    let csrf = json!({"name": "X-CSRF-Token", "in": "header", "required": true,
        "description": "the session's CSRF token (from signing in or GET /api/session)", "schema": {"type": "string"}});
    let credentials = json!({"type": "object", "required": ["name", "password"], "properties": {
        "name": {"type": "string", "pattern": "^[A-Za-z0-9_-]{3,20}$"}, "password": {"type": "string", "minLength": 8, "maxLength": 128}}});
    let signed_in = json!({"type": "object", "properties": {"name": {"type": "string"}, "csrf": {"type": "string"}}});
    let cookie = json!({"Set-Cookie": {"description": "tabula_session=…; Path=/; HttpOnly; SameSite=Lax (Secure behind TLS)", "schema": {"type": "string"}}});
    let obj = json!({"type": "object"});
    json!({
        "/api/account": {
            "post": op("Create an account and sign it in (sets the session cookie)", json!([]), Some(credentials.clone()),
                with(json!({"201": {"description": "Created", "headers": cookie.clone(), "content": {"application/json": {"schema": signed_in.clone()}}}}),
                    errors(&["400", "409", "429"]))),
            "delete": op("Delete the signed-in account (its password asked again); its sessions end", json!([csrf.clone()]),
                Some(json!({"type": "object", "required": ["password"], "properties": {"password": {"type": "string"}}})),
                with(json!({"200": ok(obj.clone())}), errors(&["401", "403", "429"])))},
        "/api/account/password": {"post": op("Change the password (the current one asked again); the account's other sessions end", json!([csrf.clone()]),
            Some(json!({"type": "object", "required": ["current", "new"], "properties": {"current": {"type": "string"}, "new": {"type": "string"}}})),
            with(json!({"200": ok(obj.clone())}), errors(&["400", "401", "403", "429"])))},
        "/api/session": {
            "get": op("Who is signed in, and the session's CSRF token", json!([]), None,
                with(json!({"200": ok(signed_in.clone())}), errors(&["401"]))),
            "post": op("Sign in (sets the session cookie); an unknown name and a wrong password get the same answer", json!([]), Some(credentials),
                with(json!({"200": {"description": "Signed in", "headers": cookie, "content": {"application/json": {"schema": signed_in}}}}),
                    errors(&["400", "401", "429"]))),
            "delete": op("Sign out (this session)", json!([csrf]), None,
                with(json!({"200": ok(obj.clone())}), errors(&["401", "403"])))},
        "/api/players/{name}": {"get": op("A player's profile: ratings per game (rating, rd, games, history), results, recent games, games in progress", json!([name]), None,
            with(json!({"200": ok(r("Profile"))}), errors(&["404"])))},
        "/api/leaderboard/{game}": {"get": op("The 50 best ratings of a game kind with RD under 110", json!([game]), None,
            with(json!({"200": ok(json!({"type": "object", "properties": {"game": {"type": "string"}, "max_rd": {"type": "number"},
                "players": {"type": "array", "items": {"type": "object", "properties": {"rank": {"type": "integer"}, "name": {"type": "string"},
                    "rating": {"type": "number"}, "rd": {"type": "number"}, "games": {"type": "integer"}}}}}}))}), errors(&["404"])))},
        "/api/me/games": {"get": op("The signed-in player's games on any device (with each seat's token), those awaiting a move first", json!([]), None,
            with(json!({"200": ok(json!({"type": "object", "properties": {"name": {"type": "string"}, "awaiting": {"type": "integer"},
                "games": {"type": "array", "items": r("MyGame")}, "finished": {"type": "array", "items": r("MyGame")}}}))}), errors(&["401"])))},
        "/api/me/seats": {"post": op("Bind a seat held on this device (its token) to the signed-in account", json!([]),
            Some(json!({"type": "object", "required": ["game", "seat", "token"], "properties": {"game": {"type": "string"}, "seat": {"type": "integer"}, "token": {"type": "string"}}})),
            with(json!({"200": ok(obj)}), errors(&["401", "403", "404", "409"])))}
    })
}

/// The account schemas (docs/protocol.md, "Accounts").
fn account_schemas() -> Value {
    let profile = json!({"type": "object", "properties": {
                "name": {"type": "string"}, "created_at": {"type": "integer"},
                "ratings": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                    "rating": {"type": "number"}, "rd": {"type": "number"}, "games": {"type": "integer"},
                    "history": {"type": "array", "items": {"type": "object", "properties": {"game_id": {"type": "string"}, "at": {"type": "integer"}, "rating": {"type": "number"}, "rd": {"type": "number"}}}}}}},
                "results": {"type": "object", "properties": {"win": {"type": "integer"}, "draw": {"type": "integer"}, "loss": {"type": "integer"}}},
                "recent_games": {"type": "array", "items": {"type": "object"}}, "playing": {"type": "array", "items": {"type": "object"}}}});
    let my_game = json!({"type": "object", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "seat": {"type": "integer"}, "seat_name": {"type": "string"},
                "token": {"type": "string"}, "status": {"type": "string"}, "your_turn": {"type": "boolean"},
                "result": {"type": "string", "nullable": true, "enum": ["win", "draw", "loss"]}, "updated_at": {"type": "integer"}}});
    let rating_range = json!({"type": "object", "required": ["min", "max"],
        "description": "a rated game only: the ratings (in its game kind) of the players who may join",
        "properties": {"min": {"type": "number"}, "max": {"type": "number"}}});
    let player = json!({"type": "object",
        "description": "the account holding the seat, with its rating and RD in this game kind (null before its first rated game of it)",
        "properties": {"name": {"type": "string"}, "rating": {"type": "number", "nullable": true}, "rd": {"type": "number", "nullable": true}}});
    let lobby_seat = json!({"type": "object", "properties": {
        "seat": {"type": "integer"}, "name": {"type": "string"}, "kind": {"type": "string"}, "level": {"type": "integer"},
        "joined": {"type": "boolean"}, "player": player}});
    json!({"Profile": profile, "MyGame": my_game, "RatingRange": rating_range, "LobbySeat": lobby_seat})
}

/// The document.
pub fn document() -> Value {
    let mut doc = base_document();
    if let (Some(paths), Value::Object(more)) = (doc["paths"].as_object_mut(), account_paths()) {
        paths.extend(more);
    }
    if let (Some(schemas), Value::Object(more)) = (
        doc["components"]["schemas"].as_object_mut(),
        account_schemas(),
    ) {
        schemas.extend(more);
    }
    // The account fields of the game schemas.
    let schemas = &mut doc["components"]["schemas"];
    schemas["CreateGame"]["properties"]["rating_range"] = r("RatingRange");
    schemas["Summary"]["properties"]["rating_range"] =
        json!({"allOf": [r("RatingRange")], "nullable": true});
    schemas["Summary"]["properties"]["seats"]["items"] = r("LobbySeat");
    // In-game chat (docs/protocol.md, Chat).
    schemas["ChatMessage"] = json!({"type": "object", "properties": {
        "n": {"type": "integer", "description": "the message's number in its channel, from 1"},
        "at": {"type": "integer", "description": "ms since the Unix epoch"},
        "seat": {"type": "integer", "nullable": true, "description": "the sender's seat (players' chat)"},
        "author": {"type": "string", "description": "the seat's side, or the account's name"},
        "text": {"type": "string"}}});
    doc
}

fn base_document() -> Value {
    let id = json!({"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}});
    let game =
        json!({"name": "game", "in": "path", "required": true, "schema": {"type": "string"}});
    let seat_q = json!({"name": "seat", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 0}});
    let token_q =
        json!({"name": "token", "in": "query", "required": false, "schema": {"type": "string"}});
    let since_q = json!({"name": "since", "in": "query", "required": false, "schema": {"type": "integer", "minimum": 0}});
    let n_p = json!({"name": "n", "in": "path", "required": true, "description": "the number of actions played (0 = the initial position)", "schema": {"type": "integer", "minimum": 0}});
    let seat_auth = json!({"type": "object", "required": ["seat", "token"], "properties": {
        "seat": {"type": "integer", "minimum": 0}, "token": {"type": "string"}}});
    let seq = json!({"type": "object", "properties": {"seq": {"type": "integer"}}});
    let event = json!({"type": "object", "description": "See docs/protocol.md, `Events`: an `action` event has `actor`, `notation` (null when hidden), `cells`, `words` (plain words, always) and `turn`.", "properties": {
        "seq": {"type": "integer"}, "at": {"type": "integer"}, "kind": {"type": "string"}, "actor": {},
        "notation": {"type": "string", "nullable": true}, "cells": {"type": "array", "items": {"type": "string"}},
        "words": {"type": "string", "description": "The action in plain words as this observer may see them"},
        "turn": {"type": "integer", "description": "The turn the action belongs to (actions of one turn share it)"}}});
    json!({
        "openapi": "3.0.3",
        "info": {"title": "Tabula game server", "version": env!("CARGO_PKG_VERSION"),
                 "description": "HTTP API of the Tabula game server. WebSocket messages (GET /api/games/{id}/ws) are documented in docs/protocol.md."},
        "paths": {
            "/healthz": {"get": op("Liveness check", json!([]), None, json!({"200": {"description": "ok"}}))},
            "/api/catalog": {"get": op("The games this server hosts, with their option schemas", json!([]), None,
                json!({"200": ok(r("Catalog"))}))},
            "/api/catalog/{game}/preview": {"post": op("Check options; tell the seats they give", json!([game]),
                Some(json!({"type": "object", "properties": {"options": {"type": "object"}}})),
                with(json!({"200": ok(json!({"type": "object", "properties": {"options": {"type": "object"}, "seats": {"type": "array", "items": {"type": "string"}}}}))}), errors(&["400", "404"])))},
            "/api/games": {"post": op("Create a game", json!([]), Some(r("CreateGame")),
                with(json!({"201": ok(r("Created"))}), errors(&["400", "404", "429"])))},
            "/api/lobby": {"get": op("Open games to join and live games to watch", json!([]), None,
                json!({"200": ok(json!({"type": "object", "properties": {"open": {"type": "array", "items": r("Summary")}, "live": {"type": "array", "items": r("Summary")}}}))}))},
            "/api/games/{id}": {"get": op("The game as a seat (with its token) or a spectator sees it", json!([id, seat_q, token_q, since_q]), None,
                with(json!({"200": ok(r("Snapshot"))}), errors(&["400", "403", "404"])))},
            "/api/games/{id}/view/{n}": {"get": op("Replay: what the seat (with its token) or a spectator saw right after the game's first n actions (chance included)", json!([id, n_p, seat_q, token_q]), None,
                with(json!({"200": ok(r("Position"))}), errors(&["400", "403", "404", "429"])))},
            "/api/games/{id}/join": {"post": op("Join a seat with its token, or claim an open seat of a public game", json!([id]),
                Some(json!({"type": "object", "required": ["seat"], "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}}})),
                with(json!({"200": ok(json!({"type": "object", "properties": {"seat": {"type": "integer"}, "name": {"type": "string"}, "token": {"type": "string"}}}))}), errors(&["400", "403", "404", "409"])))},
            "/api/games/{id}/action": {"post": op("Play an action (acknowledged once committed)", json!([id]),
                Some(json!({"type": "object", "required": ["seat", "token"], "properties": {
                    "seat": {"type": "integer"}, "token": {"type": "string"}, "action": {"description": "one of the `legal` actions (JSON)"}, "notation": {"type": "string"}}})),
                with(json!({"200": ok(seq.clone())}), errors(&["400", "403", "404", "409", "422"])))},
            "/api/games/{id}/resign": {"post": op("Resign", json!([id]), Some(seat_auth.clone()),
                with(json!({"200": ok(seq.clone())}), errors(&["400", "403", "404", "409"])))},
            "/api/games/{id}/draw": {"post": op("Offer, accept or decline a draw", json!([id]),
                Some(json!({"type": "object", "required": ["seat", "token", "op"], "properties": {
                    "seat": {"type": "integer"}, "token": {"type": "string"}, "op": {"type": "string", "enum": ["offer", "accept", "decline"]}}})),
                with(json!({"200": ok(seq.clone())}), errors(&["400", "403", "404", "409", "415", "429"])))},
            "/api/games/{id}/takeback": {"post": op("Ask to take back the seat's last turn (against the AI: done at once; casual games only, never across chance or hidden information), or accept or decline the opponent's request", json!([id]),
                Some(json!({"type": "object", "required": ["seat", "token", "op"], "properties": {
                    "seat": {"type": "integer"}, "token": {"type": "string"}, "op": {"type": "string", "enum": ["offer", "accept", "decline"]}}})),
                with(json!({"200": ok(seq)}), errors(&["400", "403", "404", "409", "415", "429"])))},
            "/api/games/{id}/rematch": {"post": op("Ask for a rematch of a finished game (seats rotate; tokens stay the same)", json!([id]), Some(seat_auth),
                with(json!({"200": ok(json!({"type": "object", "properties": {"id": {"type": "string"}, "seat": {"type": "integer"}, "token": {"type": "string"}}}))}), errors(&["400", "403", "404", "409"])))},
            "/api/games/{id}/record": {"get": op("The record of a finished or imported game", json!([id]), None,
                with(json!({"200": ok(r("Record"))}), errors(&["404", "409"])))},
            "/api/games/{id}/analysis": {
                "post": op("Start the engine's analysis of a finished or imported game, or get the stored one (computed once; progress on the game's WebSocket)", json!([id]), None,
                    with(json!({"200": ok(json!({"type": "object", "properties": {"status": {"type": "string", "enum": ["done"]}, "analysis": {"type": "object"}}})),
                                "202": ok(json!({"type": "object", "properties": {"status": {"type": "string", "enum": ["running"]}, "done": {"type": "integer"}, "total": {"type": "integer"}, "waiting": {"type": "boolean"}}}))}),
                         errors(&["404", "409", "503"]))),
                "get": op("The stored analysis, the progress of a running one, or status none when none was asked for", json!([id]), None,
                    with(json!({"200": ok(json!({"type": "object", "properties": {"status": {"type": "string", "enum": ["done", "running", "none"]}, "analysis": {"type": "object"}, "done": {"type": "integer"}, "total": {"type": "integer"}, "waiting": {"type": "boolean"}}}))}),
                         errors(&["404", "503"])))},
            "/api/games/{id}/chat": {
                "post": op("Send a chat message: the players' channel with a seat and its token, the spectators' channel as a signed-in account (with X-CSRF-Token) holding no seat of the running game (docs/protocol.md, Chat)", json!([id]),
                    Some(json!({"type": "object", "required": ["channel", "text"], "properties": {
                        "channel": {"type": "string", "enum": ["players", "spectators"]}, "text": {"type": "string", "description": "one line, at most 200 characters after trimming"},
                        "seat": {"type": "integer"}, "token": {"type": "string"}}})),
                    with(json!({"201": ok(json!({"type": "object", "properties": {"channel": {"type": "string"}, "message": r("ChatMessage")}}))}),
                         errors(&["400", "403", "404", "409", "415", "429", "503"]))),
                "get": op("The latest messages of the chat channels the caller may read (a seat with its token: players, and spectators once the game is over; anyone else: spectators)", json!([id, seat_q, token_q]), None,
                    with(json!({"200": ok(json!({"type": "object", "properties": {"channels": {"type": "object", "properties": {
                        "players": {"type": "array", "items": r("ChatMessage")}, "spectators": {"type": "array", "items": r("ChatMessage")}}},
                        "max_chars": {"type": "integer"}}}))}),
                         errors(&["400", "403", "404", "503"])))},
            "/api/games/{id}/hint": {"post": op("The engine's preferred action for a human seat's current decision in a running game against the AI, from that seat's view only", json!([id]),
                Some(json!({"type": "object", "required": ["seat", "token"], "properties": {"seat": {"type": "integer"}, "token": {"type": "string"}}})),
                with(json!({"200": ok(json!({"type": "object", "properties": {"seat": {"type": "integer"}, "action": {}, "notation": {"type": "string"}, "cells": {"type": "array", "items": {"type": "string"}}, "estimate": {"type": "number"}}}))}),
                     errors(&["400", "403", "404", "409", "503"])))},
            "/api/games/{id}/ws": {"get": op("WebSocket upgrade (see docs/protocol.md)", json!([id, seat_q, token_q, since_q]), None,
                with(json!({"101": {"description": "Switching protocols"}}), errors(&["403", "404"])))},
            "/api/lessons": {"get": op("Every game's lessons: count, titles and goals (docs/protocol.md, Lessons)", json!([]), None,
                json!({"200": ok(json!({"type": "object", "properties": {"games": {"type": "array", "items": {"type": "object"}}}}))}))},
            "/api/lessons/{game}": {"get": op("One game's lessons", json!([game]), None,
                with(json!({"200": ok(json!({"type": "object"}))}), errors(&["400", "404"])))},
            "/api/lessons/{game}/{n}": {"post": op("Lesson n (from 1) after the player's actions: the position, legal actions, solved / failed, hint; a refused action is the game's explanation", json!([game, {"name": "n", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}]),
                Some(json!({"type": "object", "properties": {"actions": {"type": "array", "items": {"type": "object", "properties": {"action": {}, "notation": {"type": "string"}}}}}})),
                with(json!({"200": ok(json!({"type": "object"}))}), errors(&["400", "404", "409", "422"])))},
            "/api/lessons/{game}/{n}/hint": {"post": op("The engine's preferred action for the lesson's player after the given actions", json!([game, {"name": "n", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}]),
                Some(json!({"type": "object", "properties": {"actions": {"type": "array", "items": {"type": "object", "properties": {"action": {}, "notation": {"type": "string"}}}}}})),
                with(json!({"200": ok(json!({"type": "object", "properties": {"seat": {"type": "integer"}, "action": {}, "notation": {"type": "string"}, "cells": {"type": "array", "items": {"type": "string"}}, "estimate": {"type": "number"}}}))}), errors(&["400", "404", "409", "422", "503"])))},
            "/api/records": {"post": op("Import a record as a read-only game", json!([]),
                Some(json!({"type": "object", "required": ["record"], "properties": {"record": r("Record"), "public": {"type": "boolean"}}})),
                with(json!({"201": ok(json!({"type": "object", "properties": {"id": {"type": "string"}}}))}), errors(&["400", "413"])))}
        },
        "components": {"schemas": {
            "Error": {"type": "object", "properties": {"error": {"type": "object", "properties": {
                "code": {"type": "string", "enum": ["bad_request", "method_not_allowed", "too_large", "bad_token", "not_found", "not_started", "game_over", "not_your_turn", "illegal", "malformed_action", "rate_limited", "unsupported_media_type", "conflict", "internal", "unavailable",
                    "invalid_name", "weak_password", "name_taken", "wrong_credentials", "too_many_attempts", "not_signed_in", "csrf"]},
                "message": {"type": "string"}}}}},
            "Catalog": {"type": "object", "properties": {"games": {"type": "array", "items": {"type": "object", "properties": {
                "id": {"type": "string"}, "name": {"type": "string"}, "description": {"type": "string"},
                "options": {"type": "array", "items": {"type": "object", "properties": {
                    "name": {"type": "string"}, "type": {"type": "string", "enum": ["bool", "int", "choice"]},
                    "min": {"type": "integer"}, "max": {"type": "integer"}, "values": {"type": "array", "items": {"type": "string"}},
                    "default": {}, "description": {"type": "string"}}}},
                "default_seats": {"type": "array", "items": {"type": "string"}}}}}}},
            "SeatSpec": {"type": "object", "required": ["kind"], "properties": {
                "kind": {"type": "string", "enum": ["human", "ai"]}, "level": {"type": "integer", "minimum": 1, "maximum": 10},
                "open": {"type": "boolean", "description": "A human seat anyone may take from the lobby (default false: the creator's or a friend's by link)"}}},
            "Clock": {"type": "object", "required": ["kind"], "properties": {
                "kind": {"type": "string", "enum": ["fischer", "correspondence"]},
                "initial_ms": {"type": "integer"}, "increment_ms": {"type": "integer"}, "days_per_move": {"type": "integer"}}},
            "CreateGame": {"type": "object", "required": ["game", "seats"], "properties": {
                "game": {"type": "string"}, "options": {"type": "object"},
                "seats": {"type": "array", "items": r("SeatSpec")},
                "host_seats": {"type": "array", "items": {"type": "integer"}},
                "clock": r("Clock"), "public": {"type": "boolean"},
                "rated": {"type": "boolean", "description": "a rated game: the creator signed in (with the X-CSRF-Token header), one host seat, no AI seat"}}},
            "Created": {"type": "object", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "status": {"type": "string"},
                "seats": {"type": "array", "items": {"type": "object", "properties": {
                    "seat": {"type": "integer"}, "name": {"type": "string"}, "kind": {"type": "string"}, "level": {"type": "integer"},
                    "token": {"type": "string"}, "join_url": {"type": "string"}}}},
                "watch_url": {"type": "string"},
                "seed_commitment": {"type": "string", "description": "SHA-256 (hex) of the seed's 8 little-endian bytes"}}},
            "Summary": {"type": "object", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "name": {"type": "string"},
                "status": {"type": "string", "enum": ["waiting", "running", "over", "imported"]},
                "created_at": {"type": "integer"}, "seats": {"type": "array", "items": {"type": "object"}},
                "clock": {"nullable": true}, "moves": {"type": "integer"}, "public": {"type": "boolean"},
                "rated": {"type": "boolean"}, "seed_commitment": {"type": "string"}}},
            "Snapshot": {"type": "object", "description": "See docs/protocol.md, `The snapshot object`.", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "name": {"type": "string"}, "status": {"type": "string"},
                "seq": {"type": "integer"}, "now": {"type": "integer"}, "you": {}, "seats": {"type": "array", "items": {"type": "object"}},
                "options": {"type": "object"}, "to_act": {}, "view": {},
                "legal": {"type": "array", "items": {"type": "object", "properties": {"action": {}, "notation": {"type": "string"}, "cells": {"type": "array", "items": {"type": "string"}}}}},
                "events": {"type": "array", "items": event}, "draw_offer": {"nullable": true}, "takeback_offer": {"nullable": true},
                "clock": {"nullable": true}, "result": {"nullable": true}, "rematch": {"nullable": true}, "text": {"type": "string"},
                "seed_commitment": {"type": "string"},
                "seed": {"type": "string", "nullable": true, "description": "The seed (decimal), once the game is over"}}},
            "Position": {"type": "object", "description": "See docs/protocol.md, `GET /api/games/{id}/view/{n}`.", "properties": {
                "id": {"type": "string"}, "game": {"type": "string"}, "n": {"type": "integer"}, "total": {"type": "integer"},
                "you": {}, "view": {}, "to_act": {},
                "last": {"nullable": true, "type": "object", "properties": {"seq": {"type": "integer"}, "actor": {}, "notation": {"type": "string", "nullable": true}, "cells": {"type": "array", "items": {"type": "string"}}, "words": {"type": "string"}, "turn": {"type": "integer"}}},
                "result": {"nullable": true}}},
            "Record": {"type": "object", "required": ["game", "actions"], "properties": {
                "game": {"type": "string"}, "options": {"type": "object"},
                "seed": {"type": "string", "description": "Decimal (a JSON integer is accepted too)"},
                "seed_commitment": {"type": "string"},
                "actions": {"type": "array", "items": {"type": "object", "properties": {"actor": {}, "action": {}}}},
                "result": {"nullable": true}}}
        }}
    })
}

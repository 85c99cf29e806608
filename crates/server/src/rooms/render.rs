//! What observers are sent: snapshot and update messages, written straight to JSON text.
//!
//! A message is the part every observer shares (rendered once per change) followed by each observer's
//! own (`you`, its view, its legal actions, the events as it may see them): an observer never gets
//! what is hidden from it. An update ([`Update`]) is rendered once per change for each observer some
//! socket watches as, each distinct view serialised once, and the texts are shared by all sockets of
//! that observer. The message formats are documented in `docs/protocol.md`.

use std::sync::atomic::Ordering;

use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::{Value, json};
use tabula_core::{Observer, Seat};

use super::{Room, RoomInner, now_ms, observer_index};
use crate::model::{Event, EventData, GameCore, Seen, Status, observers};

/// One committed change, rendered once for every observer (seats in order, then the spectator).
#[derive(Debug)]
pub struct Update {
    /// The first new event's seq.
    pub first: u64,
    /// The last seq after this change.
    pub seq: u64,
    /// The `update` message (JSON text) for each observer, shared by all of its sockets; `None` for
    /// an observer nobody was watching as (a socket that starts watching later renders its own).
    pub messages: Vec<Option<Utf8Bytes>>,
}

impl Room {
    /// The parts of a snapshot or update shared by every observer (`"type"` to `"result"`), as JSON
    /// object members without the braces, rendered once per change.
    fn common_json(&self, inner: &RoomInner, kind: &str, now: i64) -> Vec<u8> {
        let core = &inner.core;
        let mut out = Vec::with_capacity(1024);
        out.push(b'{');
        put(&mut out, "type", &kind);
        put(&mut out, "id", &self.id);
        put(&mut out, "game", &core.config.game);
        put(&mut out, "name", &self.kind.name());
        put(&mut out, "status", &core.status.as_str());
        put(&mut out, "seq", &core.seq);
        put(&mut out, "now", &now);
        put(&mut out, "seats", &seats_json(core));
        put(&mut out, "options", &core.config.options);
        put(&mut out, "rated", &core.config.rated);
        put(&mut out, "to_act", &core.to_act());
        put(&mut out, "draw_offer", &core.draw);
        put(&mut out, "takeback_offer", &core.takeback);
        put(
            &mut out,
            "clock",
            &core.clock.as_ref().map(|c| c.to_json(now)),
        );
        put(&mut out, "result", &core.result);
        // Provably fair chance: the commitment from the first message on; the seed (a string, exact
        // in every JSON reader) only once the game is over.
        put(&mut out, "seed_commitment", &*core.seed_commitment);
        put(
            &mut out,
            "seed",
            &core.revealed_seed().map(|s| s.to_string()),
        );
        out
    }

    /// One observer's message: the common part, then what is this observer's own (`you`, `view`,
    /// `legal`, the events after `since` as it may see them, …). `view` is the observer's view,
    /// already serialised. Written straight to JSON text (no intermediate `Value` tree).
    #[allow(clippy::too_many_arguments)]
    fn observer_json(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        common: &[u8],
        view: &[u8],
        snapshot: bool,
        request_id: Option<Option<i64>>,
    ) -> String {
        let core = &inner.core;
        let seats = core.seats();
        let oi = observer_index(obs, seats);
        let mut out = Vec::with_capacity(common.len() + view.len() + 512);
        out.extend_from_slice(common);
        match obs {
            Observer::Seat(s) => put(&mut out, "you", &json!({"seat": s.0})),
            Observer::Spectator => put(&mut out, "you", &"spectator"),
        }
        let rematch = match (&core.rematch, obs) {
            (Some(id), Observer::Seat(s)) => json!({"id": id, "seat": (s.index() + 1) % seats}),
            (Some(id), Observer::Spectator) => json!({"id": id}),
            (None, _) => Value::Null,
        };
        put(&mut out, "rematch", &rematch);
        out.extend_from_slice(b"\"view\":");
        out.extend_from_slice(view);
        out.push(b',');
        // Only a seat that owes a decision has legal actions.
        let legal = match obs {
            Observer::Seat(s) if core.status == Status::Running && core.result.is_none() => {
                core.state.legal_actions_listed(s)
            }
            _ => Vec::new(),
        };
        let sampled = match obs {
            Observer::Seat(s) if !legal.is_empty() => core.state.actions_sampled(s),
            _ => false,
        };
        out.extend_from_slice(b"\"legal\":[");
        for (i, listed) in legal.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // `{"action":…,"notation":…,"cells":[…]}`: what a client clicks to choose it.
            write_json(&mut out, listed);
        }
        out.extend_from_slice(b"],");
        put(&mut out, "legal_sampled", &sampled);
        // Events are numbered from 1 in order: those after `since` are a tail of the log.
        let from = inner.events.partition_point(|e| e.seq <= since);
        out.extend_from_slice(b"\"events\":[");
        for (i, (e, d)) in inner.events[from..]
            .iter()
            .zip(&inner.described[from..])
            .enumerate()
        {
            if i > 0 {
                out.push(b',');
            }
            let seen = d.as_ref().and_then(|d| d.get(oi));
            write_json(&mut out, &event_json(e, seen));
        }
        out.push(b']');
        if snapshot {
            out.push(b',');
            let text = core.state.render_text(obs);
            out.extend_from_slice(b"\"text\":");
            write_json(&mut out, &text);
        }
        if let Some(id) = request_id {
            out.extend_from_slice(b",\"request_id\":");
            write_json(&mut out, &id);
        }
        out.push(b'}');
        // serde_json writes UTF-8, and every literal above is ASCII.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The snapshot (`kind` "snapshot", with the terminal drawing `text`) or update message for `obs`
    /// as JSON text, with the events after `since`; `request_id` answers a `sync`.
    pub fn message_text(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        kind: &str,
        now: i64,
        request_id: Option<Option<i64>>,
    ) -> String {
        let common = self.common_json(inner, kind, now);
        let mut view = Vec::with_capacity(1024);
        write_json(&mut view, &inner.core.state.view(obs));
        self.observer_json(
            inner,
            obs,
            since,
            &common,
            &view,
            kind != "update",
            request_id,
        )
    }

    /// The `update` of one change, for every observer someone watches as: the shared part is
    /// rendered once, and each distinct view is serialised once (seats that see the same as another
    /// observer share its text, as every observer does in a perfect-information game).
    pub(super) fn render_update(&self, inner: &RoomInner, first: u64) -> Update {
        let now = now_ms();
        let common = self.common_json(inner, "update", now);
        let mut views: Vec<(Value, std::rc::Rc<Vec<u8>>)> = Vec::new();
        let messages = observers(inner.core.seats())
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                let watched = self
                    .watchers
                    .get(i)
                    .is_some_and(|w| w.load(Ordering::SeqCst) > 0);
                if !watched {
                    return None;
                }
                let v = inner.core.state.view(o);
                let text = match views.iter().find(|(seen, _)| *seen == v) {
                    Some((_, t)) => t.clone(),
                    None => {
                        let mut t = Vec::with_capacity(2048);
                        write_json(&mut t, &v);
                        let t = std::rc::Rc::new(t);
                        views.push((v, t.clone()));
                        t
                    }
                };
                let m = self.observer_json(inner, o, first - 1, &common, &text, false, None);
                Some(Utf8Bytes::from(m))
            })
            .collect();
        Update {
            first,
            seq: inner.core.seq,
            messages,
        }
    }
}

/// Appends `v` as JSON (`null` if it cannot be serialised, which the types used here never cause).
fn write_json<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let mark = out.len();
    if serde_json::to_writer(&mut *out, v).is_err() {
        out.truncate(mark);
        out.extend_from_slice(b"null");
    }
}

/// Appends `"key":value,` (the key is a plain ASCII name).
fn put<T: Serialize + ?Sized>(out: &mut Vec<u8>, key: &str, v: &T) {
    out.push(b'"');
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(b"\":");
    write_json(out, v);
    out.push(b',');
}

pub(super) fn seats_json(core: &GameCore) -> Vec<Value> {
    core.config
        .seats
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let mut v = json!({
                "seat": i,
                "name": core.state.seat_name(Seat::new(i)),
                "joined": core.joined[i],
            });
            if let (Some(o), Ok(Value::Object(k))) = (v.as_object_mut(), serde_json::to_value(k)) {
                o.extend(k);
            }
            v
        })
        .collect()
}

fn event_json(e: &Event, seen: Option<&Seen>) -> Value {
    let mut v = json!({"seq": e.seq, "at": e.at, "kind": e.data.kind()});
    let Some(o) = v.as_object_mut() else {
        return v;
    };
    match &e.data {
        EventData::Created { .. } | EventData::Start => {}
        EventData::Join { seat, .. }
        | EventData::DrawOffer { seat }
        | EventData::DrawAccept { seat }
        | EventData::DrawDecline { seat }
        | EventData::TakebackOffer { seat }
        | EventData::TakebackAccept { seat }
        | EventData::TakebackDecline { seat }
        | EventData::Resign { seat }
        | EventData::Timeout { seat } => {
            o.insert("seat".into(), json!(seat));
        }
        EventData::Action { actor, .. } => {
            o.insert("actor".into(), json!(actor));
            o.insert(
                "notation".into(),
                json!(seen.and_then(|s| s.notation.as_ref())),
            );
            o.insert("cells".into(), json!(seen.map_or(&[][..], |s| &s.cells)));
            o.insert("words".into(), json!(seen.map(|s| &s.words)));
            o.insert("turn".into(), json!(seen.map(|s| s.turn)));
        }
        EventData::Takeback { seat, to_seq } => {
            o.insert("seat".into(), json!(seat));
            o.insert("to_seq".into(), json!(to_seq));
        }
        EventData::End { result } => {
            o.insert("result".into(), json!(result));
        }
        EventData::Rematch { game } => {
            o.insert("game".into(), json!(game));
        }
    }
    v
}

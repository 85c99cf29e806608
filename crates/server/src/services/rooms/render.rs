//! What observers are sent: snapshot and update messages ([`GameMessage`], `crate::wire::game`).
//!
//! A message is the part every observer shares ([`GameCommon`], computed once per change) and each
//! observer's own (`you`, its view, its legal actions, the events as it may see them): an observer
//! never gets what is hidden from it. An update ([`Update`]) is rendered once per change for each
//! observer some socket watches as, each distinct view serialised once (and held as raw JSON), and
//! the texts are shared by all sockets of that observer. The message formats are documented in
//! `docs/protocol.md`.

use std::borrow::Cow;
use std::sync::atomic::Ordering;

use crate::base::text::SharedText;
use serde_json::Value;
use serde_json::value::RawValue;
use tabula_core::{Observer, Seat};

use super::{Room, RoomInner, observer_index};
use crate::domain::model::{Event, EventData, GameCore, Seen, Status, observers};
use crate::storage::accounts::SeatPlayer;
use crate::wire::game::{
    ClockState, EventBody, GameCommon, GameEvent, GameMessage, MessageKind, Offer, RematchLink,
    SeatInfo, SeatMay, SocketMsg,
};

/// One committed change, rendered once for every observer (seats in order, then the spectator).
#[derive(Debug)]
pub struct Update {
    /// The first new event's seq.
    pub first: u64,
    /// The last seq after this change.
    pub seq: u64,
    /// The `update` message (JSON text) for each observer, shared by all of its sockets; `None` for
    /// an observer nobody was watching as (a socket that starts watching later renders its own).
    pub messages: Vec<Option<SharedText>>,
}

impl Room {
    /// The parts of a snapshot or update shared by every observer, computed once per change.
    fn common(&self, inner: &RoomInner, kind: MessageKind, now: i64) -> GameCommon {
        let core = &inner.core;
        let offer = |by: u8, accepted: &[u8]| Offer {
            by,
            accepted: accepted.to_vec(),
        };
        GameCommon {
            kind,
            id: self.id.clone(),
            game: core.config.game.clone(),
            name: self.kind.name().to_string(),
            status: core.status.into(),
            seq: core.seq,
            now,
            seats: seat_infos(
                core,
                &self.players.lock().unwrap_or_else(|e| e.into_inner()),
            ),
            options: core.config.options.clone(),
            rated: core.config.rated,
            to_act: core.to_act(),
            draw_offer: core.draw.as_ref().map(|d| offer(d.by, &d.accepted)),
            takeback_offer: core.takeback.as_ref().map(|t| offer(t.by, &t.accepted)),
            clock: core.clock.as_ref().map(|c| ClockState::of(c, now)),
            result: core.result.clone(),
            // Provably fair chance: the commitment from the first message on; the seed (a string,
            // exact in every JSON reader) only once the game is over.
            seed_commitment: core.seed_commitment.to_string(),
            seed: core.revealed_seed().map(|s| s.to_string()),
        }
    }

    /// One observer's message: the common part, then what is this observer's own (`you`, `view`,
    /// `legal`, the events after `since` as it may see them, …). `view` is the observer's view,
    /// already serialised.
    #[allow(clippy::too_many_arguments)]
    fn observer_message<'a>(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        common: &'a GameCommon,
        view: &'a RawValue,
        snapshot: bool,
        request_id: Option<Option<i64>>,
    ) -> GameMessage<'a> {
        let core = &inner.core;
        let seats = core.seats();
        let oi = observer_index(obs, seats);
        let rematch = core.rematch.as_ref().map(|id| RematchLink {
            id: id.clone(),
            seat: match obs {
                Observer::Seat(s) => Some((s.index() + 1) % seats),
                Observer::Spectator => None,
            },
        });
        // Only a seat that owes a decision has legal actions.
        let legal = match obs {
            Observer::Seat(s) if core.status == Status::Running && core.result.is_none() => {
                core.state.legal_actions_listed(s)
            }
            _ => Vec::new(),
        };
        let legal_sampled = match obs {
            Observer::Seat(s) if !legal.is_empty() => core.state.actions_sampled(s),
            _ => false,
        };
        // Events are numbered from 1 in order: those after `since` are a tail of the log.
        let from = inner.events.partition_point(|e| e.seq <= since);
        let events = inner.events[from..]
            .iter()
            .zip(&inner.described[from..])
            .map(|(e, d)| game_event(e, d.as_ref().and_then(|d| d.get(oi))))
            .collect();
        let may = match obs {
            Observer::Seat(s) => Some(seat_may(core, s.0)),
            Observer::Spectator => None,
        };
        GameMessage {
            common: Cow::Borrowed(common),
            you: obs,
            rematch,
            view: Cow::Borrowed(view),
            legal,
            legal_sampled,
            events,
            may,
            text: snapshot.then(|| core.state.render_text(obs)),
            request_id,
        }
    }

    /// The snapshot (with the terminal drawing `text`) or update message for `obs` as JSON text,
    /// with the events after `since`; `request_id` answers a `sync`.
    pub fn message_text(
        &self,
        inner: &RoomInner,
        obs: Observer,
        since: u64,
        kind: MessageKind,
        now: i64,
        request_id: Option<Option<i64>>,
    ) -> String {
        let common = self.common(inner, kind, now);
        let view = view_json(&inner.core.state.view(obs));
        let m = self.observer_message(
            inner,
            obs,
            since,
            &common,
            &view,
            kind == MessageKind::Snapshot,
            request_id,
        );
        to_text(&m)
    }

    /// The `update` of one change, for every observer someone watches as: the shared part is
    /// computed once, and each distinct view is serialised once (seats that see the same as
    /// another observer share its text, as every observer does in a perfect-information game).
    pub(super) fn render_update(&self, inner: &RoomInner, first: u64, now: i64) -> Update {
        let common = self.common(inner, MessageKind::Update, now);
        let mut views: Vec<(Value, std::rc::Rc<RawValue>)> = Vec::new();
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
                        let t: std::rc::Rc<RawValue> = view_json(&v).into();
                        views.push((v, t.clone()));
                        t
                    }
                };
                let m = self.observer_message(inner, o, first - 1, &common, &text, false, None);
                Some(SharedText::from(to_text(&m)))
            })
            .collect();
        Update {
            first,
            seq: inner.core.seq,
            messages,
        }
    }
}

/// A view as raw JSON (`null` if it cannot be serialised, which a view's `Value` never causes).
fn view_json(v: &Value) -> Box<RawValue> {
    serde_json::value::to_raw_value(v).unwrap_or_else(|_| RawValue::NULL.to_owned())
}

/// A message as JSON text; serialising one does not fail (its maps have string keys), but if it
/// did the observer would get an `internal` error rather than nothing.
fn to_text(m: &GameMessage<'_>) -> String {
    serde_json::to_string(m).unwrap_or_else(|e| {
        tracing::error!("cannot serialise a game message: {e}");
        SocketMsg::Error {
            id: None,
            code: "internal".into(),
            message: format!("cannot serialise the game's message: {e}"),
        }
        .to_text()
    })
}

/// Each seat: its number, side's name, whether it joined, who plays it, and the account holding it
/// (`players`, per seat). Never a seat's token.
pub(crate) fn seat_infos(core: &GameCore, players: &[Option<SeatPlayer>]) -> Vec<SeatInfo> {
    core.config
        .seats
        .iter()
        .enumerate()
        .map(|(i, k)| SeatInfo {
            seat: i,
            name: core.state.seat_name(Seat::new(i)),
            joined: core.joined.get(i).copied().unwrap_or(false),
            kind: k.clone().into(),
            player: players
                .get(i)
                .and_then(|p| p.as_ref().map(SeatPlayer::shown)),
        })
        .collect()
}

/// An event as `seen` by one observer (`None`: not an action, or described to nobody).
fn game_event(e: &Event, seen: Option<&Seen>) -> GameEvent {
    let body = match &e.data {
        EventData::Created { .. } => EventBody::Created,
        EventData::Start => EventBody::Start,
        EventData::Join { seat, .. } => EventBody::Join { seat: *seat },
        EventData::TokenReplaced { seat, .. } => EventBody::TokenReplaced { seat: *seat },
        EventData::DrawOffer { seat } => EventBody::DrawOffer { seat: *seat },
        EventData::DrawAccept { seat } => EventBody::DrawAccept { seat: *seat },
        EventData::DrawDecline { seat } => EventBody::DrawDecline { seat: *seat },
        EventData::TakebackOffer { seat } => EventBody::TakebackOffer { seat: *seat },
        EventData::TakebackAccept { seat } => EventBody::TakebackAccept { seat: *seat },
        EventData::TakebackDecline { seat } => EventBody::TakebackDecline { seat: *seat },
        EventData::Resign { seat } => EventBody::Resign { seat: *seat },
        EventData::Timeout { seat } => EventBody::Timeout { seat: *seat },
        EventData::Action { actor, .. } => EventBody::Action {
            actor: *actor,
            notation: seen.and_then(|s| s.notation.as_deref().map(str::to_string)),
            cells: seen.map(Seen::cells).unwrap_or_default(),
            words: seen.map(|s| s.words.to_string()),
            turn: seen.map(|s| s.turn),
        },
        EventData::Takeback { seat, to_seq } => EventBody::Takeback {
            seat: *seat,
            to_seq: *to_seq,
        },
        EventData::End { result } => EventBody::End {
            result: result.clone(),
        },
        EventData::Rematch { game } => EventBody::Rematch { game: game.clone() },
    };
    GameEvent {
        seq: e.seq,
        at: e.at,
        body,
    }
}

/// What `seat` may do now: the checks the server applies to each request, asked in advance.
fn seat_may(core: &GameCore, seat: u8) -> SeatMay {
    let takeback = core.takeback_offer_check(seat);
    SeatMay {
        takeback: takeback.is_ok(),
        takeback_refusal: takeback.err().map(|r| r.to_string()),
        hint: core.hint_check(seat).is_ok(),
        draw_offer: core.draw_offer_check(seat).is_ok(),
    }
}

//! What a seat asks for: actions, resignation, draws and takebacks, joining, rematches.
//!
//! Each request runs `detached` (it is carried to its end even if the client goes away) and is
//! authorised under the room's lock, in the critical section that commits it: a token replaced by a
//! lobby claim a moment earlier can change nothing. A clock that ran out is enforced first, so a seat
//! whose time is up cannot act.

use std::sync::Arc;

use serde_json::Value;
use tabula_core::{Actor, Seat};

use super::{Room, Rooms, detached};
use crate::base::error::Refusal;
use crate::base::secret::hash_token;
use crate::base::secret::new_token;
use crate::domain::account::Account;
use crate::domain::model::{EventData, SeatKind, Status};
use crate::domain::ratings::SeatBinding;
use crate::wire::api::CreateGame;

/// What a seat may do (besides playing actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatOp {
    Resign,
    DrawOffer,
    DrawAccept,
    DrawDecline,
    TakebackOffer,
    TakebackAccept,
    TakebackDecline,
}

/// An action as JSON or as notation.
#[derive(Debug, Clone)]
pub enum ActionInput {
    Json(Value),
    Notation(String),
}

impl Rooms {
    /// A seat plays an action. The seat's token is checked under the room's lock, in the critical
    /// section that commits the action: a token replaced by a claim a moment earlier can act no more.
    pub async fn act(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        action: ActionInput,
    ) -> Result<u64, Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(&room.id.clone(), async move {
            shared.act_now(&room, seat, &token, action).await
        })
        .await
    }

    async fn act_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        action: ActionInput,
    ) -> Result<u64, Refusal> {
        let mut inner = room.inner.lock().await;
        self.refresh_for_change(room, &mut inner).await?;
        inner.core.check_seat(seat)?;
        if matches!(inner.core.config.seats[seat as usize], SeatKind::Ai { .. }) {
            return Err(Refusal::BadToken(format!(
                "seat {seat} is played by the AI"
            )));
        }
        inner.core.check_token(seat, token)?;
        if self.flag_if_due(room, &mut inner).await? {
            return Err(Refusal::Action(tabula_core::ActionError::GameOver));
        }
        let action = match action {
            ActionInput::Json(v) => v,
            ActionInput::Notation(text) => inner
                .core
                .state
                .parse_action(&text)
                .map_err(Refusal::Action)?,
        };
        let first = vec![EventData::Action {
            actor: Actor::Seat(Seat(seat)),
            action: action.into(),
        }];
        self.commit_inner(room, &mut inner, first, None).await
    }

    /// Resignation and draw offers (the token checked under the room's lock, as in [`Rooms::act`]).
    pub async fn seat_op(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        op: SeatOp,
    ) -> Result<u64, Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(&room.id.clone(), async move {
            shared.seat_op_now(&room, seat, &token, op).await
        })
        .await
    }

    async fn seat_op_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
        op: SeatOp,
    ) -> Result<u64, Refusal> {
        let mut inner = room.inner.lock().await;
        self.refresh_for_change(room, &mut inner).await?;
        inner.core.check_token(seat, token)?;
        // The budget is the seat holder's: counted only once the token is known to be theirs.
        if op != SeatOp::Resign
            && self
                .seat_events
                .check_key(&(room.id.clone(), seat))
                .is_err()
        {
            return Err(Refusal::RateLimited(format!(
                "seat {seat} sends draw or takeback offers and answers too often: at most {} at once, then one \
                 every {} s",
                self.limits.seat_events_burst,
                self.limits.seat_events_period.as_secs_f64()
            )));
        }
        if self.flag_if_due(room, &mut inner).await? {
            return Err(Refusal::Action(tabula_core::ActionError::GameOver));
        }
        let first = match op {
            SeatOp::Resign => {
                let result = inner.core.loss_for(seat, "resigned");
                vec![EventData::Resign { seat }, EventData::End { result }]
            }
            SeatOp::DrawOffer => vec![EventData::DrawOffer { seat }],
            SeatOp::DrawAccept => vec![EventData::DrawAccept { seat }],
            SeatOp::DrawDecline => vec![EventData::DrawDecline { seat }],
            SeatOp::TakebackOffer => vec![EventData::TakebackOffer { seat }],
            SeatOp::TakebackAccept => vec![EventData::TakebackAccept { seat }],
            SeatOp::TakebackDecline => vec![EventData::TakebackDecline { seat }],
        };
        self.commit_inner(room, &mut inner, first, None).await
    }

    /// Replaces the token of every seat `account_id` holds (a password change or the
    /// account's deletion) with a fresh one, each in a `token_replaced` event of its game's log:
    /// the old tokens play, chat and watch as those seats no more, and the sockets that authenticated
    /// with them are closed (`bad_token`), as after a lobby claim. With `rebind`, the account keeps
    /// its seats with the new tokens (`GET /api/me/games` lists them); without, nobody learns them.
    /// Imported records (no tokens) are skipped. Returns how many tokens were replaced.
    pub async fn replace_account_tokens(
        self: &Arc<Self>,
        account_id: &str,
        rebind: bool,
    ) -> Result<usize, Refusal> {
        let seats = self.db.seats_to_rekey(account_id).await?;
        let mut replaced = 0;
        for (game_id, seat) in seats {
            let room = self.room(&game_id).await?;
            let (shared, account) = (self.clone(), account_id.to_string());
            let done = detached(&game_id, async move {
                shared
                    .replace_token_now(&room, seat, &account, rebind)
                    .await
            })
            .await?;
            replaced += usize::from(done);
        }
        Ok(replaced)
    }

    async fn replace_token_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        account_id: &str,
        rebind: bool,
    ) -> Result<bool, Refusal> {
        let mut inner = room.inner.lock().await;
        self.refresh_for_change(room, &mut inner).await?;
        inner.core.check_seat(seat)?;
        if inner.core.status == Status::Imported
            || !inner.core.config.seats[seat as usize].is_human()
        {
            return Ok(false);
        }
        let token = new_token();
        let bindings = if rebind {
            vec![SeatBinding {
                seat,
                account_id: account_id.to_string(),
                token: token.clone(),
            }]
        } else {
            Vec::new()
        };
        let replace = EventData::TokenReplaced {
            seat,
            token_hash: hash_token(&token),
        };
        self.commit_bound(room, &mut inner, vec![replace], None, bindings)
            .await?;
        Ok(true)
    }

    /// Joins a seat: with its token, or (public games) claiming an open seat. Returns the token.
    pub async fn join(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<String>,
    ) -> Result<Option<String>, Refusal> {
        self.join_as(room, seat, token, None).await
    }

    /// [`Rooms::join`] by a signed-in player (`by`): the seat is bound to the account.
    pub async fn join_as(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<String>,
        by: Option<Account>,
    ) -> Result<Option<String>, Refusal> {
        let (shared, room) = (self.clone(), room.clone());
        detached(&room.id.clone(), async move {
            shared.join_now(&room, seat, token.as_deref(), by).await
        })
        .await
    }

    async fn join_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: Option<&str>,
        by: Option<Account>,
    ) -> Result<Option<String>, Refusal> {
        let mut inner = room.inner.lock().await;
        self.refresh_for_change(room, &mut inner).await?;
        inner.core.check_seat(seat)?;
        if inner.core.config.rated && !inner.core.joined[seat as usize] {
            crate::services::rooms::rated::check_rated_join(
                &self.db,
                &room.id,
                &inner.core.config,
                by.as_ref(),
            )
            .await?;
        }
        let bind = |token: &str| -> Vec<SeatBinding> {
            by.iter()
                .map(|a| SeatBinding {
                    seat,
                    account_id: a.id.clone(),
                    token: token.to_string(),
                })
                .collect()
        };
        match token {
            Some(t) => {
                inner.core.check_token(seat, t)?;
                if inner.core.joined[seat as usize] {
                    if let Some(a) = &by {
                        self.db.claim(&room.id, seat, &a.id, t).await?;
                    }
                    return Ok(Some(t.to_string()));
                }
                self.commit_bound(
                    room,
                    &mut inner,
                    vec![EventData::Join {
                        seat,
                        token_hash: None,
                    }],
                    None,
                    bind(t),
                )
                .await?;
                Ok(Some(t.to_string()))
            }
            None => {
                if !inner.core.config.public {
                    return Err(Refusal::BadToken(
                        "this game is private: join it with the link you were sent".into(),
                    ));
                }
                if inner.core.config.rematch_of.is_some() {
                    return Err(Refusal::BadToken(
                        "a rematch is joined with the token of the original game".into(),
                    ));
                }
                if inner.core.joined[seat as usize] {
                    return Err(Refusal::Conflict(format!("seat {seat} is not open")));
                }
                if !inner.core.config.seats[seat as usize].is_open() {
                    return Err(Refusal::BadToken(format!(
                        "seat {seat} is kept for a player invited by link: only that link joins it"
                    )));
                }
                let token = new_token();
                let join = EventData::Join {
                    seat,
                    token_hash: Some(hash_token(&token)),
                };
                self.commit_bound(room, &mut inner, vec![join], None, bind(&token))
                    .await?;
                Ok(Some(token))
            }
        }
    }

    /// Asks for a rematch (the token checked under the room's lock, as in [`Rooms::act`]). Returns
    /// the new game's id and the requester's new seat.
    pub async fn rematch(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
    ) -> Result<(String, u8), Refusal> {
        let (shared, room, token) = (self.clone(), room.clone(), token.to_string());
        detached(&room.id.clone(), async move {
            shared.rematch_now(&room, seat, &token).await
        })
        .await
    }

    async fn rematch_now(
        self: &Arc<Self>,
        room: &Arc<Room>,
        seat: u8,
        token: &str,
    ) -> Result<(String, u8), Refusal> {
        let mut inner = room.inner.lock().await;
        self.refresh_for_change(room, &mut inner).await?;
        inner.core.check_token(seat, token)?;
        let n = inner.core.seats();
        let new_seat = ((seat as usize + 1) % n) as u8;
        if let Some(id) = inner.core.rematch.clone() {
            drop(inner);
            // Asking again (the other players) joins the asker's seat of the rematch.
            let new_room = self.room(&id).await?;
            let mut new_inner = new_room.inner.lock().await;
            if new_inner.core.status == Status::Waiting && !new_inner.core.joined[new_seat as usize]
            {
                let join = EventData::Join {
                    seat: new_seat,
                    token_hash: None,
                };
                self.commit_inner(&new_room, &mut new_inner, vec![join], None)
                    .await?;
            }
            return Ok((id, new_seat));
        }
        if inner.core.status != Status::Over {
            return Err(Refusal::Conflict(
                "a rematch can be asked only once the game is over".into(),
            ));
        }
        let cfg = inner.core.config.clone();
        let rotate = |i: usize| (i + 1) % n;
        let mut seats = vec![SeatKind::HUMAN; n];
        let mut hashes = vec![None; n];
        for i in 0..n {
            seats[rotate(i)] = cfg.seats[i].clone();
            hashes[rotate(i)] = inner.core.token_hashes[i].clone();
        }
        let req = CreateGame {
            game: cfg.game.clone(),
            options: Some(cfg.options.clone()),
            seats: seats.into_iter().map(Into::into).collect(),
            host_seats: vec![new_seat],
            host_seat: None,
            clock: cfg.clock.map(Into::into),
            public: Some(cfg.public),
            seed: None,
            rated: None,
            rating_range: None,
        };
        let (new_room, _) = self
            .create_now(req, Some((room.id.clone(), hashes)), None)
            .await?;
        self.commit_inner(
            room,
            &mut inner,
            vec![EventData::Rematch {
                game: new_room.id.clone(),
            }],
            None,
        )
        .await?;
        Ok((new_room.id.clone(), new_seat))
    }
}

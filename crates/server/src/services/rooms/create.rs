//! New games: created from a request (or as a rematch), or imported from a record.
//!
//! A new game's seed is drawn from the operating system's randomness ([`draw_seed`]), never chosen by
//! a client. Its `created` event is committed together with its first events (the host seats'
//! joins), so a game is stored whole or not at all, and it is shared (put in the map of rooms) only
//! once committed. An imported record is replayed and checked by the game, and its result must be one
//! the replay gives.

use std::sync::Arc;

use serde_json::json;
use tabula_core::ToAct;

use super::{Room, Rooms, detached};
use crate::base::error::Refusal;
use crate::base::secret::hash_token;
use crate::base::secret::new_token;
use crate::domain::account::Account;
use crate::domain::model::{
    ActionJson, EventData, GameConfig, GameCore, SeatKind, results_outside_the_rules,
};
use crate::domain::ratings::SeatBinding;
use crate::wire::api::CreateGame;

/// A fresh game seed from the operating system's randomness. Nobody can know it before the game is
/// over (the players see only its commitment), so nobody can predict a deal or a die.
pub fn draw_seed() -> Result<u64, Refusal> {
    use tabula_core::rand::TryRng;
    tabula_core::rand::rngs::SysRng.try_next_u64().map_err(|e| {
        Refusal::Internal(format!("cannot draw a seed from the operating system: {e}"))
    })
}

impl Rooms {
    /// Creates a game; returns its room and the tokens of its human seats.
    pub async fn create(
        self: &Arc<Self>,
        req: CreateGame,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        self.create_as(req, None).await
    }

    /// [`Rooms::create`] by a signed-in player (`by`): the host seats are bound to the account.
    pub async fn create_as(
        self: &Arc<Self>,
        req: CreateGame,
        by: Option<Account>,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        let shared = self.clone();
        detached("a new game", async move {
            shared.create_now(req, None, by).await
        })
        .await
    }

    /// [`Rooms::create`] on the caller's task (which must not be cancelled); `rematch_of` is the old
    /// game and its seats' token hashes, already rotated.
    pub(super) async fn create_now(
        self: &Arc<Self>,
        req: CreateGame,
        rematch_of: Option<(String, Vec<Option<String>>)>,
        by: Option<Account>,
    ) -> Result<(Arc<Room>, Vec<Option<String>>), Refusal> {
        if req.seed.is_some() {
            return Err(Refusal::BadRequest(
                "`seed` cannot be chosen: the server draws every live game's seed from the operating \
                 system's randomness and shows its commitment (`seed_commitment`) until the game is \
                 over; a finished record keeps its seed when imported (POST /api/records)"
                    .into(),
            ));
        }
        let kind = self
            .registry
            .get(&req.game)
            .map_err(|e| Refusal::NotFound(e.to_string()))?
            .clone();
        let options = kind
            .check_options(req.options.as_ref().unwrap_or(&json!({})))
            .map_err(|e| Refusal::BadRequest(e.to_string()))?;
        // The request's seats and clock in the log's own types.
        let seats: Vec<SeatKind> = req.seats.iter().cloned().map(SeatKind::from).collect();
        let clock = req.clock.map(crate::domain::model::ClockSpec::from);
        if let Some(c) = &clock {
            c.check().map_err(Refusal::BadRequest)?;
        }
        if !self.limits.allow_ai_only_games
            && rematch_of.is_none()
            && !seats.iter().any(SeatKind::is_human)
        {
            return Err(Refusal::BadRequest(
                "games with no human seat (AI against AI) are not played on this server: \
                 make at least one seat human"
                    .into(),
            ));
        }
        for s in &seats {
            let max = self.limits.ai_max_level;
            if let SeatKind::Ai { level } = s
                && !(1..=max).contains(level)
            {
                return Err(Refusal::BadRequest(format!(
                    "AI level {level} is out of range 1..={max}"
                )));
            }
        }
        let (tokens, token_hashes, rematch_of) = match rematch_of {
            Some((old, hashes)) => (vec![None; seats.len()], hashes, Some(old)),
            None => {
                let tokens: Vec<Option<String>> =
                    seats.iter().map(|s| s.is_human().then(new_token)).collect();
                let hashes = tokens
                    .iter()
                    .map(|t| t.as_deref().map(hash_token))
                    .collect();
                (tokens, hashes, None)
            }
        };
        let config = GameConfig {
            game: kind.id().to_string(),
            options,
            seed: draw_seed()?,
            seats,
            token_hashes,
            clock,
            public: req.public.unwrap_or(true),
            rematch_of,
            imported: false,
            rated: req.rated.unwrap_or(false),
            rating_range: req.rating_range.map(Into::into),
        };
        let core = GameCore::new(kind.as_ref(), config)?;
        let mut hosts = req.host_seats.clone();
        hosts.extend(req.host_seat);
        hosts.sort_unstable();
        if let Some(twice) = hosts.windows(2).find(|w| w[0] == w[1]) {
            return Err(Refusal::BadRequest(format!(
                "host seat {} is given twice (in `host_seats` or `host_seat`)",
                twice[0]
            )));
        }
        for &h in &hosts {
            core.check_seat(h)?;
            match core.config.seats[h as usize] {
                SeatKind::Ai { .. } => {
                    return Err(Refusal::BadRequest(format!("host seat {h} is an AI seat")));
                }
                SeatKind::Human { open: true } => {
                    return Err(Refusal::BadRequest(format!(
                        "host seat {h} is an open seat: a seat is either the creator's or open to anyone"
                    )));
                }
                SeatKind::Human { open: false } => {}
            }
        }
        crate::domain::ratings::check_rated_creation(&core.config, &hosts, by.is_some())?;
        let bindings: Vec<SeatBinding> = match &by {
            Some(account) => hosts
                .iter()
                .filter_map(|&h| {
                    let token = tokens.get(h as usize).cloned().flatten()?;
                    Some(SeatBinding {
                        seat: h,
                        account_id: account.id.clone(),
                        token,
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let (room, created) = Room::fresh(kind, core, self.clock.now_ms());
        {
            let mut inner = room.inner.lock().await;
            let joins = hosts
                .iter()
                .map(|&seat| EventData::Join {
                    seat,
                    token_hash: None,
                })
                .collect();
            self.commit_bound(&room, &mut inner, joins, Some(created), bindings)
                .await?;
        }
        self.rooms().insert(room.id.clone(), room.clone());
        Ok((room, tokens))
    }

    /// Imports a finished (or unfinished) record as a read-only game.
    pub async fn import(
        self: &Arc<Self>,
        record: tabula_core::record::JsonRecord,
        public: bool,
    ) -> Result<Arc<Room>, Refusal> {
        let shared = self.clone();
        detached("an imported game", async move {
            shared.import_now(&record, public).await
        })
        .await
    }

    async fn import_now(
        self: &Arc<Self>,
        record: &tabula_core::record::JsonRecord,
        public: bool,
    ) -> Result<Arc<Room>, Refusal> {
        let kind = self
            .registry
            .get(&record.game)
            .map_err(|e| Refusal::BadRequest(e.to_string()))?
            .clone();
        let options = kind
            .check_options(&record.options)
            .map_err(|e| Refusal::BadRequest(format!("invalid record: {e}")))?;
        record
            .check_seed_commitment()
            .map_err(|e| Refusal::BadRequest(format!("invalid record: {e}")))?;
        // The game checks the moves; the result must be what the replay gives: the game's own outcome
        // when its rules ended it, else one the server ends a game with in that position (a
        // resignation, a loss on time, a draw by agreement), results and reason alike.
        let mut moves_only = record.clone();
        moves_only.result = None;
        let final_state = kind
            .replay(&moves_only, false)
            .map_err(|e| Refusal::BadRequest(e.to_string()))?;
        match (final_state.to_act(), &record.result) {
            (ToAct::Over(reached), Some(given)) if &reached != given => {
                return Err(Refusal::BadRequest(format!(
                    "invalid record: its result {given:?} differs from the game's outcome {reached:?}"
                )));
            }
            (ToAct::Over(_), _) | (_, None) => {}
            (_, Some(given)) => {
                if !results_outside_the_rules(final_state.as_ref()).contains(given) {
                    return Err(Refusal::BadRequest(format!(
                        "invalid record: its result {given:?} is not one this game can end with \
                         here: its rules have not ended it, so it must be a resignation, a loss on \
                         time or a draw by agreement, as the server records them"
                    )));
                }
            }
        }
        let seats = final_state.seats();
        let config = GameConfig {
            game: kind.id().to_string(),
            options,
            seed: record.seed,
            seats: vec![SeatKind::HUMAN; seats],
            token_hashes: vec![None; seats],
            clock: None,
            public,
            rematch_of: None,
            imported: true,
            rated: false,
            rating_range: None,
        };
        let core = GameCore::new(kind.as_ref(), config)?;
        let (room, created) = Room::fresh(kind, core, self.clock.now_ms());
        {
            let mut inner = room.inner.lock().await;
            let mut evs: Vec<EventData> = record
                .actions
                .iter()
                .map(|a| EventData::Action {
                    actor: a.actor,
                    action: ActionJson::new(&a.action),
                })
                .collect();
            let result = match final_state.to_act() {
                ToAct::Over(o) => Some(o),
                _ => record.result.clone(),
            };
            if let Some(result) = result {
                evs.push(EventData::End { result });
            }
            self.commit_inner(&room, &mut inner, evs, Some(created))
                .await?;
        }
        self.rooms().insert(room.id.clone(), room.clone());
        Ok(room)
    }
}

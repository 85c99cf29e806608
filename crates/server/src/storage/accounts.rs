//! The accounts' seat bindings and ratings as the other services need them (live games bind seats,
//! check rated joins and name players in the lobby).

use sqlx::Row;

use crate::base::error::{AccountError, Refusal};
use crate::storage::db::{Db, on_pool};
use crate::wire::api::LobbyPlayer;

/// The account at one seat of a game, with its rating in that game's kind.
#[derive(Debug, Clone)]
pub struct SeatPlayer {
    pub game_id: String,
    pub seat: u8,
    pub name: String,
    pub rating: Option<f64>,
    pub rd: Option<f64>,
}

/// A storage error in an account query, logged; the request is refused as `unavailable`.
fn storage(e: impl std::fmt::Display) -> AccountError {
    tracing::error!(error = %e, "storage error in an account request");
    AccountError::Refused(Refusal::Unavailable(
        "storage is unavailable; nothing was changed, try again later".into(),
    ))
}

impl Db {
    /// The seats of game `game_id` that `account_id` holds.
    pub async fn seats_held(&self, game_id: &str, account_id: &str) -> Result<Vec<u8>, Refusal> {
        let sql = "SELECT seat FROM game_seats WHERE game_id = $1 AND account_id = $2";
        let seats: Vec<i64> = on_pool!(self, p => {
            match sqlx::query(sql).bind(game_id).bind(account_id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| r.try_get(0)).collect(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| {
            tracing::error!(error = %e, "storage error reading seat bindings");
            Refusal::Unavailable("storage is unavailable; try again later".into())
        })?;
        Ok(seats.into_iter().map(|s| s as u8).collect())
    }

    /// The account's rating in game kind `game` (`None` before its first rated game of it).
    pub async fn rating(&self, account_id: &str, game: &str) -> Result<Option<f64>, Refusal> {
        let sql = "SELECT rating FROM ratings WHERE account_id = $1 AND game = $2";
        on_pool!(self, p => {
            sqlx::query_scalar::<_, f64>(sql).bind(account_id).bind(game).fetch_optional(p).await
        })
        .map_err(|e| {
            tracing::error!(error = %e, "storage error reading a rating");
            Refusal::Unavailable("storage is unavailable; try again later".into())
        })
    }

    /// The account that holds `seat` of `game_id`, if any.
    pub async fn seat_holder(&self, game_id: &str, seat: u8) -> Result<Option<String>, Refusal> {
        let sql = "SELECT account_id FROM game_seats WHERE game_id = $1 AND seat = $2";
        on_pool!(self, p => {
            match sqlx::query(sql).bind(game_id).bind(i64::from(seat)).fetch_optional(p).await {
                Ok(Some(r)) => r.try_get(0).map(Some),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| {
            tracing::error!(error = %e, "storage error reading seat bindings");
            Refusal::Unavailable("storage is unavailable; try again later".into())
        })
    }

    /// Binds an anonymous seat (its token already checked) to an account.
    pub async fn claim(
        &self,
        game_id: &str,
        seat: u8,
        account_id: &str,
        token: &str,
    ) -> Result<(), AccountError> {
        let sql = "INSERT INTO game_seats (game_id, seat, account_id, token) VALUES ($1, $2, $3, $4) \
                   ON CONFLICT (game_id, seat) DO UPDATE SET token = excluded.token \
                   WHERE game_seats.account_id = excluded.account_id";
        on_pool!(self, p => sqlx::query(sql).bind(game_id).bind(i64::from(seat))
            .bind(account_id).bind(token).execute(p).await.map(|_| ()))
        .map_err(storage)?;
        match self.seat_holder(game_id, seat).await? {
            Some(holder) if holder == account_id => Ok(()),
            _ => Err(AccountError::Refused(Refusal::Conflict(format!(
                "seat {seat} of game {game_id} is held by another account"
            )))),
        }
    }

    /// Every seat `account_id` holds in a game that is not an imported record: `(game id, seat)`.
    pub async fn seats_to_rekey(
        &self,
        account_id: &str,
    ) -> Result<Vec<(String, u8)>, AccountError> {
        let sql = "SELECT gs.game_id, gs.seat FROM game_seats gs JOIN games g ON g.id = gs.game_id \
                   WHERE gs.account_id = $1 AND g.status <> 'imported' ORDER BY gs.game_id, gs.seat";
        on_pool!(self, p => {
            match sqlx::query(sql).bind(account_id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get::<i64, _>(1)? as u8)))
                    .collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(storage)
    }

    /// What the lobby shows of each seat of game `game_id` (`seats` seats): the account holding it,
    /// `{"name", "rating", "rd"}` (rating and RD in the game's kind, `null` before the account's first
    /// rated game of it), or `None` for a seat no account holds.
    pub async fn lobby_players(
        &self,
        game_id: &str,
        seats: usize,
    ) -> Result<Vec<Option<LobbyPlayer>>, AccountError> {
        let mut out = vec![None; seats];
        for p in self.players(&[game_id.to_string()]).await? {
            if let Some(slot) = out.get_mut(p.seat as usize) {
                *slot = Some(LobbyPlayer {
                    name: p.name,
                    rating: p.rating,
                    rd: p.rd,
                });
            }
        }
        Ok(out)
    }

    /// The unfinished games (other than `game_id`) with a seat held by an account that holds a seat
    /// of `game_id`: those whose lobby lines show a rating that the end of `game_id` changed.
    pub async fn games_of_players(&self, game_id: &str) -> Result<Vec<String>, AccountError> {
        let sql = "SELECT DISTINCT other.game_id FROM game_seats mine \
                   JOIN game_seats other ON other.account_id = mine.account_id \
                   JOIN games g ON g.id = other.game_id \
                   WHERE mine.game_id = $1 AND other.game_id <> $1 AND g.status IN ('waiting', 'running')";
        on_pool!(self, p => sqlx::query_scalar::<_, String>(sql).bind(game_id).fetch_all(p).await)
            .map_err(storage)
    }

    /// The players of the given games' seats: `(game id, seat, name, rating and RD in that game's
    /// kind if rated)`.
    pub async fn players(&self, game_ids: &[String]) -> Result<Vec<SeatPlayer>, AccountError> {
        let mut out = Vec::new();
        for chunk in game_ids.chunks(200) {
            let head = "SELECT gs.game_id, gs.seat, a.name, r.rating, r.rd FROM game_seats gs \
                 JOIN accounts a ON a.id = gs.account_id JOIN games g ON g.id = gs.game_id \
                 LEFT JOIN ratings r ON r.account_id = gs.account_id AND r.game = g.game \
                 WHERE gs.game_id IN (";
            let rows: Vec<SeatPlayer> = on_pool!(self, p => {
                let mut q = sqlx::QueryBuilder::new(head);
                let mut sep = q.separated(", ");
                for id in chunk {
                    sep.push_bind(id.as_str());
                }
                q.push(")");
                match q.build().fetch_all(p).await {
                    Ok(rows) => rows.iter().map(|r| Ok(SeatPlayer {
                        game_id: r.try_get(0)?, seat: r.try_get::<i64, _>(1)? as u8, name: r.try_get(2)?,
                        rating: r.try_get(3)?, rd: r.try_get(4)?,
                    })).collect::<Result<Vec<_>, sqlx::Error>>(),
                    Err(e) => Err(e),
                }
            })
            .map_err(storage)?;
            out.extend(rows);
        }
        Ok(out)
    }
}

//! The accounts' seat bindings and ratings as the other services need them (live games bind seats,
//! check rated joins and name players in the lobby).

use std::collections::{BTreeMap, HashMap};

use sqlx::Row;

use crate::base::error::Refusal;
use crate::domain::account::Account;
use crate::domain::model::SeatKind;
use crate::domain::ratings::{PROVISIONAL_RD, provisional};
use crate::storage::db::{Db, on_pool};
use crate::wire::api::{
    LeaderboardRow, LobbyPlayer, Opponent, PlayingGame, Profile, ProfileRating, RatingPoint,
    RecentGame, Results,
};
use crate::wire::game::SeatPlayer as WireSeatPlayer;

/// The account at one seat of a game, with its rating in that game's kind and, for a game that
/// changed ratings, its rating before and after the game.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatPlayer {
    pub game_id: String,
    pub seat: u8,
    pub name: String,
    /// The account's rating and RD in the game's kind now (`None` before its first rated game of it).
    pub rating: Option<f64>,
    pub rd: Option<f64>,
    /// The rating and RD before this game, and the rating after it, when the game changed ratings.
    pub before: Option<(f64, f64)>,
    pub after: Option<f64>,
}

impl SeatPlayer {
    /// The player as a game's page, "my games" and profiles show it: the rating the game was played
    /// at, with the change a finished rated game made.
    pub fn shown(&self) -> WireSeatPlayer {
        match (self.before, self.after) {
            (Some((rating, rd)), Some(after)) => WireSeatPlayer {
                name: self.name.clone(),
                rating: Some(rating),
                provisional: provisional(Some(rd)),
                rating_after: Some(after),
                rating_change: Some(after - rating),
            },
            _ => WireSeatPlayer {
                name: self.name.clone(),
                rating: self.rating,
                provisional: provisional(self.rd),
                rating_after: None,
                rating_change: None,
            },
        }
    }

    /// The player as the lobby shows it (the rating now).
    pub fn lobby(&self) -> LobbyPlayer {
        LobbyPlayer {
            name: self.name.clone(),
            rating: self.rating,
            rd: self.rd,
        }
    }
}

/// A storage error in an account query, logged; the request is refused as `unavailable`.
/// A storage failure in an account request, logged with what was asked (`op`) and of what
/// (`subject`: an account id or name, a game id, an address; never a secret), answered as
/// "unavailable, nothing changed".
fn storage(e: impl std::fmt::Display, op: &str, subject: &str) -> Refusal {
    tracing::error!(error = %e, op, subject, "storage error in an account request");
    Refusal::Unavailable("storage is unavailable; nothing was changed, try again later".into())
}

/// One seat an account holds.
#[derive(Debug, Clone)]
pub struct SeatRow {
    pub game_id: String,
    pub game: String,
    pub status: String,
    pub seat: u8,
    pub token: String,
    pub result: Option<String>,
    pub updated_at: i64,
}

/// Players a leaderboard lists.
pub const LEADERBOARD_SIZE: i64 = 50;

/// A leaderboard lists the ratings with a deviation under this first (established), then the
/// provisional ones.
pub const LEADERBOARD_MAX_RD: f64 = PROVISIONAL_RD;

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
    ) -> Result<(), Refusal> {
        let sql = "INSERT INTO game_seats (game_id, seat, account_id, token) VALUES ($1, $2, $3, $4) \
                   ON CONFLICT (game_id, seat) DO UPDATE SET token = excluded.token \
                   WHERE game_seats.account_id = excluded.account_id";
        on_pool!(self, p => sqlx::query(sql).bind(game_id).bind(i64::from(seat))
            .bind(account_id).bind(token).execute(p).await.map(|_| ()))
        .map_err(|e| storage(e, "claim", account_id))?;
        match self.seat_holder(game_id, seat).await? {
            Some(holder) if holder == account_id => Ok(()),
            _ => Err(Refusal::Conflict(format!(
                "seat {seat} of game {game_id} is held by another account"
            ))),
        }
    }

    /// Every seat `account_id` holds in a game that is not an imported record: `(game id, seat)`.
    pub async fn seats_to_rekey(&self, account_id: &str) -> Result<Vec<(String, u8)>, Refusal> {
        let sql = "SELECT gs.game_id, gs.seat FROM game_seats gs JOIN games g ON g.id = gs.game_id \
                   WHERE gs.account_id = $1 AND g.status <> 'imported' ORDER BY gs.game_id, gs.seat";
        on_pool!(self, p => {
            match sqlx::query(sql).bind(account_id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get::<i64, _>(1)? as u8)))
                    .collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| storage(e, "seats_to_rekey", account_id))
    }

    /// The accounts holding the seats of game `game_id` (`seats` seats), with their ratings in the
    /// game's kind (and the game's change of them), `None` for a seat no account holds: what the
    /// lobby and the game's messages show of each seat.
    pub async fn seat_players(
        &self,
        game_id: &str,
        seats: usize,
    ) -> Result<Vec<Option<SeatPlayer>>, Refusal> {
        let mut out = vec![None; seats];
        for p in self.players(&[game_id.to_string()]).await? {
            if let Some(slot) = out.get_mut(p.seat as usize) {
                *slot = Some(p);
            }
        }
        Ok(out)
    }

    /// The unfinished games (other than `game_id`) with a seat held by an account that holds a seat
    /// of `game_id`: those whose lobby lines show a rating that the end of `game_id` changed.
    pub async fn games_of_players(&self, game_id: &str) -> Result<Vec<String>, Refusal> {
        let sql = "SELECT DISTINCT other.game_id FROM game_seats mine \
                   JOIN game_seats other ON other.account_id = mine.account_id \
                   JOIN games g ON g.id = other.game_id \
                   WHERE mine.game_id = $1 AND other.game_id <> $1 AND g.status IN ('waiting', 'running')";
        on_pool!(self, p => sqlx::query_scalar::<_, String>(sql).bind(game_id).fetch_all(p).await)
            .map_err(|e| storage(e, "games_of_players", game_id))
    }

    /// The players of the given games' seats: the accounts holding them, with their ratings in each
    /// game's kind, and (for a game that changed ratings) their ratings before and after it.
    pub async fn players(&self, game_ids: &[String]) -> Result<Vec<SeatPlayer>, Refusal> {
        let mut out = Vec::new();
        for chunk in game_ids.chunks(200) {
            let head = "SELECT gs.game_id, gs.seat, a.name, r.rating, r.rd, \
                 h.rating_before, h.rd_before, h.rating FROM game_seats gs \
                 JOIN accounts a ON a.id = gs.account_id JOIN games g ON g.id = gs.game_id \
                 LEFT JOIN ratings r ON r.account_id = gs.account_id AND r.game = g.game \
                 LEFT JOIN rating_history h ON h.account_id = gs.account_id AND h.game_id = gs.game_id \
                 WHERE gs.game_id IN (";
            let rows: Vec<SeatPlayer> = on_pool!(self, p => {
                let mut q = sqlx::QueryBuilder::new(head);
                let mut sep = q.separated(", ");
                for id in chunk {
                    sep.push_bind(id.as_str());
                }
                q.push(")");
                match q.build().fetch_all(p).await {
                    Ok(rows) => rows.iter().map(|r| {
                        let before: (Option<f64>, Option<f64>) = (r.try_get(5)?, r.try_get(6)?);
                        Ok(SeatPlayer {
                            game_id: r.try_get(0)?, seat: r.try_get::<i64, _>(1)? as u8, name: r.try_get(2)?,
                            rating: r.try_get(3)?, rd: r.try_get(4)?,
                            before: before.0.zip(before.1), after: r.try_get(7)?,
                        })
                    }).collect::<Result<Vec<_>, sqlx::Error>>(),
                    Err(e) => Err(e),
                }
            })
            .map_err(|e| storage(e, "players", &game_ids.join(",")))?;
            out.extend(rows);
        }
        Ok(out)
    }

    /// The account named `name` (any case) and its password hash.
    pub async fn find_account(&self, name: &str) -> Result<Option<(Account, String)>, Refusal> {
        let sql = "SELECT id, name, password_hash FROM accounts WHERE name_key = $1";
        let key = name.to_ascii_lowercase();
        let row = on_pool!(self, p => {
            sqlx::query(sql).bind(&key).fetch_optional(p).await.and_then(|o| o.map(|r| {
                Ok::<(String, String, String), sqlx::Error>((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?))
            }).transpose())
        })
        .map_err(|e| storage(e, "find_account", name))?;
        Ok(row.map(|(id, name, hash): (String, String, String)| (Account { id, name }, hash)))
    }

    /// An account's seats, newest games first (`(game id, game kind, status, seat, token, result)`).
    pub async fn my_seats(&self, account_id: &str) -> Result<Vec<SeatRow>, Refusal> {
        let sql = "SELECT gs.game_id, g.game, g.status, gs.seat, gs.token, gs.result, g.updated_at \
                   FROM game_seats gs JOIN games g ON g.id = gs.game_id \
                   WHERE gs.account_id = $1 ORDER BY g.updated_at DESC, gs.game_id, gs.seat LIMIT 500";
        on_pool!(self, p => {
            match sqlx::query(sql).bind(account_id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok(SeatRow {
                    game_id: r.try_get(0)?, game: r.try_get(1)?, status: r.try_get(2)?,
                    seat: r.try_get::<i64, _>(3)? as u8, token: r.try_get(4)?,
                    result: r.try_get(5)?, updated_at: r.try_get(6)?,
                })).collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| storage(e, "my_seats", account_id))
    }

    /// The public profile of `name` (any case): ratings per game, results, rating history, recent
    /// games and games in progress. `None` for no such account.
    pub async fn profile(&self, name: &str) -> Result<Option<Profile>, Refusal> {
        let Some((account, _)) = self.find_account(name).await? else {
            return Ok(None);
        };
        let created: i64 =
            on_pool!(self, p => sqlx::query_scalar("SELECT created_at FROM accounts WHERE id = $1")
            .bind(&account.id).fetch_one(p).await)
            .map_err(|e| storage(e, "profile", name))?;
        let ratings: Vec<(String, f64, f64, i64)> = on_pool!(self, p => {
            match sqlx::query("SELECT game, rating, rd, games FROM ratings WHERE account_id = $1 ORDER BY game")
                .bind(&account.id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| storage(e, "profile", name))?;
        let history: Vec<(String, String, i64, f64, f64)> = on_pool!(self, p => {
            match sqlx::query("SELECT game, game_id, at_ms, rating, rd FROM rating_history \
                               WHERE account_id = $1 ORDER BY at_ms, game_id")
                .bind(&account.id).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?, r.try_get(4)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| storage(e, "profile", name))?;
        // A profile is public: games created private (`public: false`) are not listed on it, by id
        // or otherwise (their results still count, as their ratings do).
        let seats = self.my_seats(&account.id).await?;
        let mut ids: Vec<String> = seats.iter().map(|s| s.game_id.clone()).collect();
        ids.extend(history.iter().map(|h| h.1.clone()));
        ids.sort();
        ids.dedup();
        let facts = self.created_facts(&ids).await?;
        let private: std::collections::HashSet<&String> = ids
            .iter()
            .filter(|id| facts.get(*id).is_none_or(|(public, _)| !public))
            .collect();
        let listed_ids: Vec<String> = ids
            .iter()
            .filter(|id| !private.contains(id))
            .cloned()
            .collect();
        let players = self.players(&listed_ids).await?;
        let listed: Vec<&SeatRow> = seats
            .iter()
            .filter(|s| !private.contains(&s.game_id))
            .collect();
        let mut ratings_by_game = BTreeMap::new();
        for (game, rating, rd, games) in ratings {
            let mine: Vec<_> = history
                .iter()
                .filter(|h| h.0 == game && !private.contains(&h.1))
                .collect();
            let history = mine[mine.len().saturating_sub(100)..]
                .iter()
                .map(|(_, id, at, r, d)| RatingPoint {
                    game_id: id.clone(),
                    at: *at,
                    rating: *r,
                    rd: *d,
                })
                .collect();
            ratings_by_game.insert(
                game,
                ProfileRating {
                    rating,
                    rd,
                    games,
                    history,
                },
            );
        }
        let count = |w: &str| {
            seats
                .iter()
                .filter(|s| s.result.as_deref() == Some(w))
                .count()
        };
        let recent_games = listed
            .iter()
            .filter(|s| s.status == "over")
            .take(50)
            .map(|s| RecentGame {
                id: s.game_id.clone(),
                game: s.game.clone(),
                seat: s.seat,
                result: s.result.clone(),
                at: s.updated_at,
                opponents: opponents_in(&facts, &players, &s.game_id, s.seat),
            })
            .collect();
        let playing = listed
            .iter()
            .filter(|s| s.status == "running" || s.status == "waiting")
            .map(|s| PlayingGame {
                id: s.game_id.clone(),
                game: s.game.clone(),
                seat: s.seat,
                status: s.status.clone(),
                opponents: opponents_in(&facts, &players, &s.game_id, s.seat),
            })
            .collect();
        Ok(Some(Profile {
            name: account.name,
            created_at: created,
            ratings: ratings_by_game,
            results: Results {
                win: count("win"),
                draw: count("draw"),
                loss: count("loss"),
            },
            recent_games,
            playing,
        }))
    }

    /// Of the games `game_ids`, what their `created` events say: whether each is public and who
    /// plays its seats (a game whose event cannot be read is missing: treated as private).
    async fn created_facts(
        &self,
        game_ids: &[String],
    ) -> Result<HashMap<String, (bool, Vec<SeatKind>)>, Refusal> {
        let mut facts = HashMap::new();
        for chunk in game_ids.chunks(200) {
            let rows: Vec<(String, String)> = on_pool!(self, p => {
                let mut q = sqlx::QueryBuilder::new(
                    "SELECT game_id, data FROM events WHERE kind = 'created' AND game_id IN (",
                );
                let mut sep = q.separated(", ");
                for id in chunk {
                    sep.push_bind(id.as_str());
                }
                q.push(")");
                match q.build().fetch_all(p).await {
                    Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
                        .collect::<Result<Vec<_>, sqlx::Error>>(),
                    Err(e) => Err(e),
                }
            })
            .map_err(|e| storage(e, "created_facts", &chunk.join(",")))?;
            for (id, data) in rows {
                // A `created` event the server wrote; one it cannot read is left out.
                let Ok(v) = serde_json::from_str::<serde_json::Value>(&data) else {
                    continue;
                };
                let config = &v["config"];
                let public = config["public"].as_bool().unwrap_or(true);
                let seats = serde_json::from_value::<Vec<SeatKind>>(config["seats"].clone())
                    .unwrap_or_default();
                facts.insert(id, (public, seats));
            }
        }
        Ok(facts)
    }

    /// For each of an account's seats (`(game id, seat)`), the game's other seats and who plays
    /// them: the account holding one (its name and its rating at the time), the AI, or an
    /// anonymous player.
    pub async fn opponents(&self, seats: &[(String, u8)]) -> Result<Vec<Vec<Opponent>>, Refusal> {
        let mut ids: Vec<String> = seats.iter().map(|s| s.0.clone()).collect();
        ids.sort();
        ids.dedup();
        let facts = self.created_facts(&ids).await?;
        let players = self.players(&ids).await?;
        Ok(seats
            .iter()
            .map(|(id, mine)| opponents_in(&facts, &players, id, *mine))
            .collect())
    }

    /// The leaderboard of game kind `game`: the best [`LEADERBOARD_SIZE`] ratings, those whose
    /// deviation is under [`LEADERBOARD_MAX_RD`] (established) first, then the provisional ones,
    /// each part best first (so that a new site's board is not empty while nobody is established).
    pub async fn leaderboard(&self, game: &str) -> Result<Vec<LeaderboardRow>, Refusal> {
        let sql = "SELECT a.name, r.rating, r.rd, r.games FROM ratings r JOIN accounts a ON a.id = r.account_id \
                   WHERE r.game = $1 ORDER BY CASE WHEN r.rd < $2 THEN 0 ELSE 1 END, r.rating DESC, a.name_key \
                   LIMIT $3";
        let rows: Vec<(String, f64, f64, i64)> = on_pool!(self, p => {
            match sqlx::query(sql).bind(game).bind(LEADERBOARD_MAX_RD).bind(LEADERBOARD_SIZE).fetch_all(p).await {
                Ok(rows) => rows.iter().map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
                    .collect::<Result<Vec<_>, sqlx::Error>>(),
                Err(e) => Err(e),
            }
        })
        .map_err(|e| storage(e, "leaderboard", game))?;
        Ok(rows
            .into_iter()
            .enumerate()
            .map(|(i, (name, rating, rd, games))| LeaderboardRow {
                rank: i + 1,
                name,
                rating,
                rd,
                games,
                provisional: provisional(Some(rd)),
            })
            .collect())
    }

    /// Stores a new account; `false` when its name (`key`, lower case) is taken.
    pub async fn insert_account(
        &self,
        id: &str,
        name: &str,
        key: &str,
        hash: &str,
        at: i64,
    ) -> Result<bool, Refusal> {
        let sql = "INSERT INTO accounts (id, name, name_key, password_hash, created_at) \
                   VALUES ($1, $2, $3, $4, $5)";
        let done = on_pool!(self, p => sqlx::query(sql).bind(id).bind(name).bind(key)
            .bind(hash).bind(at).execute(p).await.map(|_| ()));
        match done {
            Ok(()) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(storage(e, "insert_account", name)),
        }
    }

    /// On a cluster: the failed sign-ins since `since` (ms) stored by every node, as (failures of
    /// this name from `address`, failures of the name from anywhere, the oldest of the first); `None`
    /// on a single server, which counts in memory only.
    pub async fn shared_failures(
        &self,
        key: &str,
        address: &str,
        since: i64,
    ) -> Result<Option<(i64, i64, Option<i64>)>, Refusal> {
        let (Some(_), Some(pool)) = (self.node(), self.pg_pool()) else {
            return Ok(None);
        };
        let sql = "SELECT COUNT(*) FILTER (WHERE address = $2), COUNT(*), \
                   MIN(at_ms) FILTER (WHERE address = $2) \
                   FROM sign_in_failures WHERE name_key = $1 AND at_ms > $3";
        let row = sqlx::query(sql)
            .bind(key)
            .bind(address)
            .bind(since)
            .fetch_one(pool)
            .await
            .map_err(|e| storage(e, "shared_failures", address))?;
        Ok(Some((
            row.try_get(0)
                .map_err(|e| storage(e, "shared_failures", address))?,
            row.try_get(1)
                .map_err(|e| storage(e, "shared_failures", address))?,
            row.try_get(2)
                .map_err(|e| storage(e, "shared_failures", address))?,
        )))
    }

    /// On a cluster: stores a failed sign-in for every node to count, and forgets those from before
    /// `forget_before` (ms). Nothing on a single server.
    pub async fn record_sign_in_failure(
        &self,
        key: &str,
        address: &str,
        at: i64,
        forget_before: i64,
    ) -> Result<(), String> {
        let (Some(_), Some(pool)) = (self.node(), self.pg_pool()) else {
            return Ok(());
        };
        let stored = sqlx::query(
            "INSERT INTO sign_in_failures (name_key, address, at_ms) VALUES ($1, $2, $3)",
        )
        .bind(key)
        .bind(address)
        .bind(at)
        .execute(pool)
        .await;
        let pruned = sqlx::query("DELETE FROM sign_in_failures WHERE at_ms <= $1")
            .bind(forget_before)
            .execute(pool)
            .await;
        stored.and(pruned).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Stores a session (by its token's hash) with its CSRF token, valid until `expires` (ms).
    pub async fn insert_session(
        &self,
        token_hash: &str,
        account_id: &str,
        csrf: &str,
        now: i64,
        expires: i64,
    ) -> Result<(), Refusal> {
        let sql = "INSERT INTO sessions (token_hash, account_id, csrf, created_at, expires_at) \
                   VALUES ($1, $2, $3, $4, $5)";
        on_pool!(self, p => sqlx::query(sql).bind(token_hash).bind(account_id)
            .bind(csrf).bind(now).bind(expires).execute(p).await.map(|_| ()))
        .map_err(|e| storage(e, "insert_session", account_id))
    }

    /// The account and CSRF token of the unexpired session whose token hashes to `token_hash`.
    pub async fn session_of(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(Account, String)>, Refusal> {
        let sql = "SELECT a.id, a.name, s.csrf FROM sessions s JOIN accounts a ON a.id = s.account_id \
                   WHERE s.token_hash = $1 AND s.expires_at > $2";
        let row = on_pool!(self, p => {
            sqlx::query(sql).bind(token_hash).bind(now).fetch_optional(p).await.and_then(|o| o.map(|r| {
                Ok::<(String, String, String), sqlx::Error>((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?))
            }).transpose())
        })
        .map_err(|e| storage(e, "session_of", ""))?;
        Ok(row.map(|(id, name, csrf)| (Account { id, name }, csrf)))
    }

    /// Ends the session whose token hashes to `token_hash`.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), Refusal> {
        let sql = "DELETE FROM sessions WHERE token_hash = $1";
        on_pool!(self, p => sqlx::query(sql).bind(token_hash).execute(p).await.map(|_| ()))
            .map_err(|e| storage(e, "delete_session", ""))
    }

    /// Stores a new password hash for `account_id` and ends its sessions other than `keep` (a token
    /// hash).
    pub async fn store_password_hash(
        &self,
        id: &str,
        hash: &str,
        keep: &str,
    ) -> Result<(), Refusal> {
        on_pool!(self, p => {
            async {
                let mut tx = p.begin().await?;
                sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
                    .bind(hash).bind(id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
                    .bind(id).bind(keep).execute(&mut *tx).await?;
                tx.commit().await
            }.await
        })
        .map_err(|e| storage(e, "store_password_hash", id))
    }

    /// Deletes account `id` with its sessions, ratings, rating history and seat bindings.
    pub async fn delete_account(&self, id: &str) -> Result<(), Refusal> {
        on_pool!(self, p => {
            async {
                let mut tx = p.begin().await?;
                for sql in [
                    "DELETE FROM sessions WHERE account_id = $1",
                    "DELETE FROM ratings WHERE account_id = $1",
                    "DELETE FROM rating_history WHERE account_id = $1",
                    "DELETE FROM game_seats WHERE account_id = $1",
                    "DELETE FROM accounts WHERE id = $1",
                ] {
                    sqlx::query(sql).bind(id).execute(&mut *tx).await?;
                }
                tx.commit().await
            }.await
        })
        .map_err(|e| storage(e, "delete_account", id))
    }
}

/// The seats of game `id` other than `mine`, and who plays each (from the game's `created` event and
/// its seats' accounts).
fn opponents_in(
    facts: &HashMap<String, (bool, Vec<SeatKind>)>,
    players: &[SeatPlayer],
    id: &str,
    mine: u8,
) -> Vec<Opponent> {
    let kinds = facts.get(id).map(|(_, k)| k.as_slice()).unwrap_or(&[]);
    let held = |seat: u8| players.iter().find(|p| p.game_id == id && p.seat == seat);
    // The seats the event names, and any seat an account holds beyond them (an unreadable event).
    let count = players
        .iter()
        .filter(|p| p.game_id == id)
        .map(|p| usize::from(p.seat) + 1)
        .max()
        .unwrap_or(0)
        .max(kinds.len());
    (0..count)
        .filter_map(|i| u8::try_from(i).ok())
        .filter(|&seat| seat != mine)
        .map(|seat| Opponent {
            seat,
            player: held(seat).map(SeatPlayer::shown),
            ai_level: match kinds.get(usize::from(seat)) {
                Some(SeatKind::Ai { level }) => Some(*level),
                _ => None,
            },
        })
        .collect()
}

//! The ratings' SQL, run inside the writer's transaction that commits a game's `end` event (so the
//! end and the new ratings are stored together or not at all) or the events that bind seats.

use crate::domain::ratings::{
    GameEnd, RATED_GAMES_PER_PAIR_PER_DAY, RATED_PAIR_WINDOW_MS, Rating, SeatBinding, after_game,
    result_word,
};

macro_rules! writer_fns {
    ($bind:ident, $end:ident, $db:ty) => {
        /// Binds seats to accounts (inside the writer's transaction).
        pub async fn $bind(
            conn: &mut <$db as sqlx::Database>::Connection,
            game_id: &str,
            bindings: &[SeatBinding],
        ) -> Result<(), sqlx::Error> {
            for b in bindings {
                sqlx::query(
                    "INSERT INTO game_seats (game_id, seat, account_id, token) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (game_id, seat) DO UPDATE SET account_id = excluded.account_id, \
                     token = excluded.token",
                )
                .bind(game_id)
                .bind(i64::from(b.seat))
                .bind(&b.account_id)
                .bind(&b.token)
                .execute(&mut *conn)
                .await?;
            }
            Ok(())
        }

        /// Records a game's end for the accounts that hold its seats (inside the writer's
        /// transaction that commits the `end` event): each seat's result and, for a rated game whose
        /// every seat is a distinct existing account, the new ratings and their history.
        pub async fn $end(
            conn: &mut <$db as sqlx::Database>::Connection,
            game_id: &str,
            at: i64,
            end: &GameEnd,
        ) -> Result<(), sqlx::Error> {
            use sqlx::Row;
            let rows = sqlx::query(
                "SELECT gs.seat, gs.account_id, r.rating, r.rd, r.volatility FROM game_seats gs \
                 JOIN accounts a ON a.id = gs.account_id \
                 LEFT JOIN ratings r ON r.account_id = gs.account_id AND r.game = $2 \
                 WHERE gs.game_id = $1 ORDER BY gs.seat",
            )
            .bind(game_id)
            .bind(&end.game)
            .fetch_all(&mut *conn)
            .await?;
            let mut held: Vec<(usize, String, Rating)> = Vec::with_capacity(rows.len());
            for row in &rows {
                let seat: i64 = row.try_get(0)?;
                let account: String = row.try_get(1)?;
                let rating = match (
                    row.try_get::<Option<f64>, _>(2)?,
                    row.try_get::<Option<f64>, _>(3)?,
                    row.try_get::<Option<f64>, _>(4)?,
                ) {
                    (Some(rating), Some(rd), Some(volatility)) => Rating {
                        rating,
                        rd,
                        volatility,
                    },
                    _ => Rating::default(),
                };
                held.push((seat as usize, account, rating));
            }
            for (seat, _, _) in &held {
                let score = end.scores.get(*seat).copied().unwrap_or(0.0);
                sqlx::query("UPDATE game_seats SET result = $1 WHERE game_id = $2 AND seat = $3")
                    .bind(result_word(score))
                    .bind(game_id)
                    .bind(*seat as i64)
                    .execute(&mut *conn)
                    .await?;
            }
            let n = end.scores.len();
            let mut accounts: Vec<&str> = held.iter().map(|(_, a, _)| a.as_str()).collect();
            accounts.sort_unstable();
            accounts.dedup();
            let every_seat = n >= 2
                && held.len() == n
                && accounts.len() == n
                && held.iter().enumerate().all(|(i, (seat, _, _))| *seat == i);
            if !end.rated || !every_seat {
                return Ok(());
            }
            // Rating farming: a pair of accounts that already had its rated games of the last 24
            // hours changes no rating with this one.
            for (i, (_, a, _)) in held.iter().enumerate() {
                for (_, b, _) in &held[i + 1..] {
                    let together: i64 = sqlx::query_scalar(
                        "SELECT COUNT(*) FROM rating_history x JOIN rating_history y \
                         ON y.game_id = x.game_id AND y.account_id = $2 \
                         WHERE x.account_id = $1 AND x.at_ms > $3",
                    )
                    .bind(a)
                    .bind(b)
                    .bind(at - RATED_PAIR_WINDOW_MS)
                    .fetch_one(&mut *conn)
                    .await?;
                    if together >= RATED_GAMES_PER_PAIR_PER_DAY {
                        return Ok(());
                    }
                }
            }
            let before: Vec<Rating> = held.iter().map(|(_, _, r)| *r).collect();
            let after = after_game(&before, &end.scores);
            for ((_, account, _), new) in held.iter().zip(&after) {
                sqlx::query(
                    "INSERT INTO ratings (account_id, game, rating, rd, volatility, games, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (account_id, game) DO UPDATE SET \
                     rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, \
                     games = ratings.games + 1, updated_at = excluded.updated_at",
                )
                .bind(account)
                .bind(&end.game)
                .bind(new.rating)
                .bind(new.rd)
                .bind(new.volatility)
                .bind(at)
                .execute(&mut *conn)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_history (account_id, game, game_id, at_ms, rating, rd) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(account)
                .bind(&end.game)
                .bind(game_id)
                .bind(at)
                .bind(new.rating)
                .bind(new.rd)
                .execute(&mut *conn)
                .await?;
            }
            Ok(())
        }
    };
}

writer_fns!(bind_seats_sqlite, record_end_sqlite, sqlx::Sqlite);
writer_fns!(bind_seats_pg, record_end_pg, sqlx::Postgres);

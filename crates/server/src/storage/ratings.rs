//! The ratings' SQL, run inside the writer's transaction that commits a game's `end` event (so the
//! end and the new ratings are stored together or not at all) or the events that bind seats.

use crate::domain::ratings::{
    GameEnd, RATED_GAMES_PER_PAIR_PER_DAY, RATED_PAIR_WINDOW_MS, Rating, SeatBinding, after_game,
    result_word,
};

macro_rules! writer_fns {
    ($bind:ident, $end:ident, $db:ty, $read_rating:literal) => {
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
        /// every seat is a distinct existing account, the new ratings and their history (each
        /// player's rating before and after the game).
        pub async fn $end(
            conn: &mut <$db as sqlx::Database>::Connection,
            game_id: &str,
            at: i64,
            end: &GameEnd,
        ) -> Result<(), sqlx::Error> {
            use sqlx::Row;
            let rows = sqlx::query(
                "SELECT gs.seat, gs.account_id FROM game_seats gs \
                 JOIN accounts a ON a.id = gs.account_id \
                 WHERE gs.game_id = $1 ORDER BY gs.seat",
            )
            .bind(game_id)
            .fetch_all(&mut *conn)
            .await?;
            let mut held: Vec<(usize, String)> = Vec::with_capacity(rows.len());
            for row in &rows {
                let seat: i64 = row.try_get(0)?;
                held.push((seat as usize, row.try_get(1)?));
            }
            for (seat, _) in &held {
                let score = end.scores.get(*seat).copied().unwrap_or(0.0);
                sqlx::query("UPDATE game_seats SET result = $1 WHERE game_id = $2 AND seat = $3")
                    .bind(result_word(score))
                    .bind(game_id)
                    .bind(*seat as i64)
                    .execute(&mut *conn)
                    .await?;
            }
            let n = end.scores.len();
            let mut accounts: Vec<&str> = held.iter().map(|(_, a)| a.as_str()).collect();
            accounts.sort_unstable();
            accounts.dedup();
            let every_seat = n >= 2
                && held.len() == n
                && accounts.len() == n
                && held.iter().enumerate().all(|(i, (seat, _))| *seat == i);
            if !end.rated || !every_seat {
                return Ok(());
            }
            // Rating farming: a pair of accounts that already had its rated games of the last 24
            // hours changes no rating with this one.
            for (i, (_, a)) in held.iter().enumerate() {
                for (_, b) in &held[i + 1..] {
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
            // The players' rating rows, read and written in the order of their account ids (never
            // in seat order: two games of the same players, seated the other way round, ending at
            // once on two cluster nodes locked them crosswise — PostgreSQL's "deadlock detected"),
            // and locked while read (PostgreSQL: `FOR UPDATE`; SQLite has one writer): a rating is
            // computed from the one the other game just wrote, never from a stale copy of it.
            let mut order: Vec<usize> = (0..held.len()).collect();
            order.sort_by(|&x, &y| held[x].1.cmp(&held[y].1));
            let fresh = Rating::default();
            let mut before = vec![fresh; held.len()];
            for &i in &order {
                let account = &held[i].1;
                sqlx::query(
                    "INSERT INTO ratings (account_id, game, rating, rd, volatility, games, updated_at) \
                     VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, game) DO NOTHING",
                )
                .bind(account)
                .bind(&end.game)
                .bind(fresh.rating)
                .bind(fresh.rd)
                .bind(fresh.volatility)
                .bind(at)
                .execute(&mut *conn)
                .await?;
                let row = sqlx::query($read_rating)
                .bind(account)
                .bind(&end.game)
                .fetch_one(&mut *conn)
                .await?;
                before[i] = Rating {
                    rating: row.try_get(0)?,
                    rd: row.try_get(1)?,
                    volatility: row.try_get(2)?,
                };
            }
            let after = after_game(&before, &end.scores);
            for &i in &order {
                let (account, new) = (&held[i].1, &after[i]);
                sqlx::query(
                    "UPDATE ratings SET rating = $3, rd = $4, volatility = $5, games = games + 1, \
                     updated_at = $6 WHERE account_id = $1 AND game = $2",
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
                    "INSERT INTO rating_history (account_id, game, game_id, at_ms, rating, rd, \
                     rating_before, rd_before) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(account)
                .bind(&end.game)
                .bind(game_id)
                .bind(at)
                .bind(new.rating)
                .bind(new.rd)
                .bind(before[i].rating)
                .bind(before[i].rd)
                .execute(&mut *conn)
                .await?;
            }
            Ok(())
        }
    };
}

writer_fns!(
    bind_seats_sqlite,
    record_end_sqlite,
    sqlx::Sqlite,
    "SELECT rating, rd, volatility FROM ratings WHERE account_id = $1 AND game = $2"
);
writer_fns!(
    bind_seats_pg,
    record_end_pg,
    sqlx::Postgres,
    "SELECT rating, rd, volatility FROM ratings WHERE account_id = $1 AND game = $2 FOR UPDATE"
);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use std::time::Duration;

    /// A fresh database on the test cluster (`TABULA_TEST_POSTGRES_URL`, set by
    /// `scripts/with-postgres.sh`), migrated; `None` where there is none and none is required (CI
    /// and `TABULA_TEST_REQUIRE_POSTGRES` require it).
    async fn fresh_postgres() -> Option<sqlx::PgPool> {
        let required = ["CI", "TABULA_TEST_REQUIRE_POSTGRES"]
            .iter()
            .any(|k| std::env::var(k).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false"));
        let Some(base) = std::env::var("TABULA_TEST_POSTGRES_URL")
            .ok()
            .filter(|u| !u.is_empty())
        else {
            assert!(
                !required,
                "TABULA_TEST_POSTGRES_URL is unset: run with-postgres.sh"
            );
            eprintln!("PostgreSQL test NOT RUN: TABULA_TEST_POSTGRES_URL is unset");
            return None;
        };
        let name = format!("tabula_test_{}", uuid::Uuid::new_v4().simple());
        let admin = sqlx::PgPool::connect(&base).await.unwrap();
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&admin)
            .await
            .unwrap();
        admin.close().await;
        let (head, tail) = base.rsplit_once('/').unwrap();
        let query = tail
            .split_once('?')
            .map_or(String::new(), |(_, q)| format!("?{q}"));
        let pool = sqlx::PgPool::connect(&format!("{head}/{name}{query}"))
            .await
            .unwrap();
        sqlx::migrate!().run(&pool).await.unwrap();
        Some(pool)
    }

    async fn seat(pool: &sqlx::PgPool, game: &str, seat: i64, account: &str) {
        sqlx::query(
            "INSERT INTO game_seats (game_id, seat, account_id, token) VALUES ($1, $2, $3, 't')",
        )
        .bind(game)
        .bind(seat)
        .bind(account)
        .execute(pool)
        .await
        .unwrap();
    }

    /// Two rated games of the same two players, seated the other way round, end at once (as on two
    /// cluster nodes): the second waits for the first's rating rows — taken in account order, so the
    /// two never hold one each and wait for the other — and computes from the ratings the first
    /// wrote. Before, the second read the ratings before the first committed (a lost update) and the
    /// two upserts, in seat order, could deadlock.
    #[tokio::test]
    async fn ratings_of_games_ending_at_once_are_locked_in_account_order_and_never_read_stale() {
        let Some(pool) = fresh_postgres().await else {
            return;
        };
        for (id, name) in [("acc-a", "Ada"), ("acc-b", "Bob")] {
            sqlx::query("INSERT INTO accounts (id, name, name_key, password_hash, created_at) VALUES ($1, $2, $3, 'x', 0)")
                .bind(id)
                .bind(name)
                .bind(name.to_lowercase())
                .execute(&pool)
                .await
                .unwrap();
        }
        seat(&pool, "g1", 0, "acc-a").await;
        seat(&pool, "g1", 1, "acc-b").await;
        seat(&pool, "g2", 0, "acc-b").await;
        seat(&pool, "g2", 1, "acc-a").await;
        let end = |scores: Vec<f64>| GameEnd {
            game: "kyo".into(),
            rated: true,
            scores,
        };
        // g1: Ada wins, still uncommitted while g2 (Bob, seat 0, wins) ends.
        let mut first = pool.begin().await.unwrap();
        record_end_pg(&mut first, "g1", 1_000, &end(vec![1.0, 0.0]))
            .await
            .unwrap();
        let second_pool = pool.clone();
        let second = tokio::spawn(async move {
            let mut tx = second_pool.begin().await.unwrap();
            record_end_pg(&mut tx, "g2", 2_000, &end(vec![1.0, 0.0])).await?;
            tx.commit().await
        });
        // The second waits for the first's rows (it has not finished on its own).
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(
            !second.is_finished(),
            "the second game's end did not wait for the first's"
        );
        first.commit().await.unwrap();
        tokio::time::timeout(Duration::from_secs(30), second)
            .await
            .expect("the second game's end finished")
            .unwrap()
            .expect("no deadlock, no error");
        // The ratings are those of the two games one after the other.
        let r1 = after_game(&[Rating::default(), Rating::default()], &[1.0, 0.0]);
        let r2 = after_game(&[r1[1], r1[0]], &[1.0, 0.0]);
        for (account, expected, games) in [("acc-a", r2[1], 2), ("acc-b", r2[0], 2)] {
            let (rating, n): (f64, i64) = sqlx::query_as(
                "SELECT rating, games FROM ratings WHERE account_id = $1 AND game = 'kyo'",
            )
            .bind(account)
            .fetch_one(&pool)
            .await
            .unwrap();
            assert_eq!(n, games, "{account}");
            assert!(
                (rating - expected.rating).abs() < 1e-9,
                "{account}: {rating} is not {}",
                expected.rating
            );
        }
        pool.close().await;
    }
}

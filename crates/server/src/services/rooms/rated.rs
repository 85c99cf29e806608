//! The checks of rated games that need storage (a join by a player who holds no other seat, within
//! the seek's rating range). The pure ones are in [`crate::domain::ratings`].

use crate::base::error::Refusal;
use crate::domain::account::Account;
use crate::domain::ratings::Rating;
use crate::storage::db::Db;

/// Checks a join of a rated game's open seat: by a signed-in player who holds no other seat of it.
pub async fn check_rated_join(
    db: &Db,
    game_id: &str,
    config: &crate::domain::model::GameConfig,
    by: Option<&Account>,
) -> Result<(), Refusal> {
    let Some(account) = by else {
        return Err(Refusal::Forbidden(
            "this game is rated: only signed-in players join it (sign in first)".into(),
        ));
    };
    if let Some(seat) = db.seats_held(game_id, &account.id).await?.first() {
        return Err(Refusal::Conflict(format!(
            "you already hold seat {seat} of this rated game: each seat of a rated game is another \
             player's"
        )));
    }
    if let Some(range) = config.rating_range {
        let rating = db
            .rating(&account.id, &config.game)
            .await?
            .unwrap_or(Rating::default().rating);
        if rating < range.min || rating > range.max {
            return Err(Refusal::Forbidden(format!(
                "this rated game is for players rated {:.0}–{:.0} in {}; your rating is {rating:.0}",
                range.min, range.max, config.game
            )));
        }
    }
    Ok(())
}

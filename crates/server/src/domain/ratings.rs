//! Glicko-2 ratings per game kind, with the `skillratings` crate's formula.
//!
//! * A rating belongs to an account and a game id (`cyvasse-trump` and `cyvasse-caird` are separate
//!   kinds); it starts at 1500, RD 350, volatility 0.06 (τ = 0.5).
//! * A game is **rated** when its creator chose so (`rated` in its `created` event) and, when it ends,
//!   every seat is held by a distinct existing account (AI seats never are: a rated game cannot have
//!   one). Each game is a rating period of its own. With more than two seats (Syba) the results are
//!   rated pairwise: every seat met every other seat once, a win against a seat that scored less, a
//!   draw against one that scored the same, a loss against one that scored more, all against the
//!   ratings from before the game.
//! * Ratings change once, in the writer's transaction that commits the game's `end` event
//!   ([`crate::storage::ratings::record_end_sqlite`] / [`crate::storage::ratings::record_end_pg`]): the end and the new ratings are stored together or
//!   not at all. The same transaction records each account seat's result (`game_seats.result`) for
//!   the win/draw/loss counts, in rated and casual games alike.
//! * **Farming**: only [`RATED_GAMES_PER_PAIR_PER_DAY`] rated games between the same two accounts in
//!   any 24 hours (over all game kinds) change ratings; a later one ends like a casual game (results
//!   recorded, ratings unchanged). One account always resigning to another moves ratings no further
//!   than that a day.

use skillratings::Outcomes;

use crate::base::error::Refusal;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A rating: value, deviation and volatility.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// 1500, RD 350, volatility 0.06.
    fn default() -> Rating {
        let r = Glicko2Rating::new();
        Rating {
            rating: r.rating,
            rd: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.rd,
            volatility: r.volatility,
        }
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            rd: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// The players' ratings after one game in which seat `i` had rating `before[i]` and scored
/// `scores[i]` (1 win, ½ draw, 0 loss): each seat against every other seat, pairwise, in one rating
/// period.
pub fn after_game(before: &[Rating], scores: &[f64]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    (0..before.len())
        .map(|i| {
            let results: Vec<(Glicko2Rating, Outcomes)> = (0..before.len())
                .filter(|&j| j != i)
                .map(|j| {
                    let s = scores.get(i).copied().unwrap_or(0.0);
                    let t = scores.get(j).copied().unwrap_or(0.0);
                    let outcome = if s > t {
                        Outcomes::WIN
                    } else if s < t {
                        Outcomes::LOSS
                    } else {
                        Outcomes::DRAW
                    };
                    (before[j].into(), outcome)
                })
                .collect();
            glicko2_rating_period(&before[i].into(), &results, &config).into()
        })
        .collect()
}

/// A rating whose deviation is this or more is provisional: shown with a "?" ("1500?"), listed after
/// the established ones on a leaderboard (lichess's threshold).
pub const PROVISIONAL_RD: f64 = 110.0;

/// Whether a rating (`None`: none yet, the starting 1500) is provisional.
pub fn provisional(rd: Option<f64>) -> bool {
    rd.is_none_or(|rd| rd >= PROVISIONAL_RD)
}

/// Rated games between the same two accounts that change ratings in any 24 hours (all game kinds
/// together); later ones leave the ratings as they are.
pub const RATED_GAMES_PER_PAIR_PER_DAY: i64 = 3;

/// The window of [`RATED_GAMES_PER_PAIR_PER_DAY`], in milliseconds.
pub const RATED_PAIR_WINDOW_MS: i64 = 86_400_000;

/// What the writer needs to know when it commits a game's end.
#[derive(Debug, Clone)]
pub struct GameEnd {
    /// The game kind (its id), the key of the ratings.
    pub game: String,
    /// Whether the creator chose a rated game.
    pub rated: bool,
    /// Each seat's score (1 win, ½ draw, 0 loss).
    pub scores: Vec<f64>,
}

/// The word stored in `game_seats.result` for a score.
pub fn result_word(score: f64) -> &'static str {
    if score >= 1.0 {
        "win"
    } else if score <= 0.0 {
        "loss"
    } else {
        "draw"
    }
}

/// A seat bound to an account in the same transaction as the event that gives it (a creation's
/// host seats, a join).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct SeatBinding {
    pub seat: u8,
    pub account_id: String,
    pub token: String,
}

/// A rated seek's range of ratings (inclusive), as the log stores it (in `created`'s configuration;
/// the wire's is [`crate::wire::api::RatingRange`]).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    pub min: f64,
    pub max: f64,
}

/// Checks a game's creation as to ratings: a `rating_range` only for a rated game, and a rated game
/// only for a signed-in creator holding exactly one seat, at least two seats, no AI seat (AI seats
/// are never rated).
pub fn check_rated_creation(
    config: &crate::domain::model::GameConfig,
    hosts: &[u8],
    signed_in: bool,
) -> Result<(), Refusal> {
    if let Some(range) = config.rating_range {
        if !config.rated {
            return Err(Refusal::BadRequest(
                "`rating_range` is for rated games (`\"rated\": true`)".into(),
            ));
        }
        if !(range.min.is_finite() && range.max.is_finite() && range.min <= range.max) {
            return Err(Refusal::BadRequest(
                "`rating_range` needs finite `min` <= `max`".into(),
            ));
        }
    }
    if !config.rated {
        return Ok(());
    }
    if !signed_in {
        return Err(Refusal::Forbidden(
            "only a signed-in player can create a rated game: sign in (POST /api/session) first"
                .into(),
        ));
    }
    if config.seats.iter().any(|s| !s.is_human()) {
        return Err(Refusal::BadRequest(
            "a rated game has no AI seat (games against the AI are never rated)".into(),
        ));
    }
    if config.seats.len() < 2 || hosts.len() != 1 {
        return Err(Refusal::BadRequest(
            "in a rated game the creator holds exactly one seat (`host_seat`); each other seat is \
             joined by another signed-in player"
                .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013): a 1500 / RD 200 /
    /// σ 0.06 player beats a 1400 / 30 player and loses to 1550 / 100 and 1700 / 300 players in one
    /// period (τ 0.5): 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glicko2_matches_glickmans_worked_example() {
        let config = Glicko2Config::new();
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let results = [
            (opp(1400.0, 30.0), Outcomes::WIN),
            (opp(1550.0, 100.0), Outcomes::LOSS),
            (opp(1700.0, 300.0), Outcomes::LOSS),
        ];
        let after = glicko2_rating_period(&player, &results, &config);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// A two-seat game is one rating period of one result for each player; a three-seat game rates
    /// each seat against both others (Syba's results rated pairwise).
    #[test]
    fn multi_seat_results_are_rated_pairwise() {
        let start = Rating::default();
        let two = after_game(&[start, start], &[1.0, 0.0]);
        assert!(two[0].rating > 1500.0 && two[1].rating < 1500.0);
        assert!(((two[0].rating - 1500.0) + (two[1].rating - 1500.0)).abs() < 1e-9);
        let three = after_game(&[start, start, start], &[1.0, 0.0, 0.0]);
        let config = Glicko2Config::new();
        let g = Glicko2Rating::from(start);
        let winner = glicko2_rating_period(&g, &[(g, Outcomes::WIN), (g, Outcomes::WIN)], &config);
        let loser = glicko2_rating_period(&g, &[(g, Outcomes::LOSS), (g, Outcomes::DRAW)], &config);
        assert_eq!(three[0], Rating::from(winner));
        assert_eq!(three[1], Rating::from(loser));
        assert_eq!(three[2], Rating::from(loser));
        let draw = after_game(&[start, start], &[0.5, 0.5]);
        assert!((draw[0].rating - 1500.0).abs() < 1e-9 && draw[0].rd < 350.0);
    }
}

//! Ratings (migration 9): a rated game's change for both players, in the transaction of the
//! event that ends it; a player's ratings and history.

use sqlx::Row;

use super::{Backend, RatedEnd, Store, StoreError};
use crate::domain::rating::{Glicko, rate_game};

/// A player's rating on one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Board size.
    pub size: usize,
    /// The rating.
    pub glicko: Glicko,
    /// Rated games, won and lost.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
}

/// The fewest moves of a game that is rated: a shorter one is aborted.
pub const RATED_MOVES: i64 = 10;

async fn current(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    account: &str,
    size: i64,
) -> Result<(Glicko, i64, i64, i64), StoreError> {
    let row = if backend == Backend::Postgres {
        sqlx::query(
            "SELECT rating, deviation, volatility, games, wins, losses FROM ratings \
             WHERE account_id = $1 AND size = $2 FOR UPDATE",
        )
        .bind(account)
        .bind(size)
        .fetch_optional(&mut **tx)
        .await?
    } else {
        // SQLite: the transaction holds the database's write lock since its first write.
        sqlx::query(
            "SELECT rating, deviation, volatility, games, wins, losses FROM ratings WHERE account_id = $1 AND size = $2",
        )
        .bind(account)
        .bind(size)
        .fetch_optional(&mut **tx)
        .await?
    };
    Ok(match row {
        Some(r) => (
            Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            },
            r.try_get("games")?,
            r.try_get("wins")?,
            r.try_get("losses")?,
        ),
        None => (Glicko::default(), 0, 0, 0),
    })
}

/// Rates a finished game for both players (nothing for an aborted game, a draw of a size
/// without a scale, or a handicap worth more than nine ranks).
pub(super) async fn rate(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    game_id: &str,
    end: &RatedEnd,
    at_ms: i64,
) -> Result<(), StoreError> {
    if end.moves < RATED_MOVES || end.accounts[0] == end.accounts[1] {
        return Ok(());
    }
    let size = end.size as i64;
    let black = current(tx, backend, &end.accounts[0], size).await?;
    let white = current(tx, backend, &end.accounts[1], size).await?;
    let Some((b_new, w_new)) = rate_game(black.0, white.0, end.handicap, end.size, end.komi, end.black_score) else {
        return Ok(());
    };
    for (account, before, after, score) in
        [(&end.accounts[0], black, b_new, end.black_score), (&end.accounts[1], white, w_new, 1.0 - end.black_score)]
    {
        let (games, wins, losses) =
            (before.1 + 1, before.2 + i64::from(score > 0.5), before.3 + i64::from(score < 0.5));
        sqlx::query(
            "INSERT INTO rating_changes (game_id, account_id, size, rating_before, deviation_before, \
             volatility_before, rating_after, deviation_after, volatility_after, score, at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        )
        .bind(game_id)
        .bind(account)
        .bind(size)
        .bind(before.0.rating)
        .bind(before.0.deviation)
        .bind(before.0.volatility)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(score)
        .bind(at_ms)
        .execute(&mut **tx)
        .await?;
        sqlx::query("DELETE FROM ratings WHERE account_id = $1 AND size = $2")
            .bind(account)
            .bind(size)
            .execute(&mut **tx)
            .await?;
        sqlx::query(
            "INSERT INTO ratings (account_id, size, rating, deviation, volatility, games, wins, losses, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(account)
        .bind(size)
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(games)
        .bind(wins)
        .bind(losses)
        .bind(at_ms)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

impl Store {
    /// An account's ratings, by board size.
    ///
    /// # Errors
    /// A database error.
    pub async fn ratings(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT size, rating, deviation, volatility, games, wins, losses FROM ratings \
             WHERE account_id = $1 ORDER BY size",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RatingRow {
                    size: usize::try_from(r.try_get::<i64, _>("size")?).unwrap_or(0),
                    glicko: Glicko {
                        rating: r.try_get("rating")?,
                        deviation: r.try_get("deviation")?,
                        volatility: r.try_get("volatility")?,
                    },
                    games: r.try_get("games")?,
                    wins: r.try_get("wins")?,
                    losses: r.try_get("losses")?,
                })
            })
            .collect()
    }

    /// Rated games recorded for a game (0 or 2 rows: its rating happened once or not).
    ///
    /// # Errors
    /// A database error.
    pub async fn rating_changes_of(&self, game_id: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM rating_changes WHERE game_id = $1")
            .bind(game_id)
            .fetch_one(&self.pool)
            .await?)
    }
}

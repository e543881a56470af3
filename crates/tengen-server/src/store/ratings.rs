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

/// When a rated game is rated (the server's `--rated-min-moves` and `--rated-per-pair`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The fewest moves on 9×9, 13×13 and 19×19.
    pub min_moves: [u32; 3],
    /// The most rated games between two accounts in 24 hours (the computer's levels exempt).
    pub per_pair: u32,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy { min_moves: [20, 30, 50], per_pair: 3 }
    }
}

impl Policy {
    fn min_moves(&self, size: usize) -> i64 {
        i64::from(match size {
            9 => self.min_moves[0],
            13 => self.min_moves[1],
            _ => self.min_moves[2],
        })
    }
}

/// A day, for [`Policy::per_pair`].
const DAY_MS: i64 = 24 * 3600 * 1000;

/// A player's rating on `size` as the transaction sees it, or the start of a new player's.
/// The caller holds the player's lock ([`super::lock_accounts`]).
async fn current(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: &str,
    size: i64,
) -> Result<(Glicko, i64, i64, i64), StoreError> {
    let row = sqlx::query(
        "SELECT rating, deviation, volatility, games, wins, losses FROM ratings WHERE account_id = $1 AND size = $2",
    )
    .bind(account)
    .bind(size)
    .fetch_optional(&mut **tx)
    .await?;
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

/// Rates a finished game for both players (nothing for a game shorter than the `policy`'s
/// moves or past its games between the two a day, a draw of a size without a scale, or a
/// handicap worth more than nine ranks). Without a policy (a replay of the games rated
/// before), every game is rated.
pub(super) async fn rate(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    policy: Option<&Policy>,
    game_id: &str,
    end: &RatedEnd,
    at_ms: i64,
) -> Result<(), StoreError> {
    if end.accounts[0] == end.accounts[1] || policy.is_some_and(|p| end.moves < p.min_moves(end.size)) {
        return Ok(());
    }
    let size = end.size as i64;
    // The players' locks, which always exist (a new player's rating row does not).
    let players: Vec<&str> = end.accounts.iter().flatten().map(String::as_str).collect();
    super::lock_accounts(tx, backend, &players).await?;
    // After the players' latest changes: the order of `at_ms` is the order the games were
    // rated in, which `tengen ratings --recompute` replays (two games ending at once took
    // their times before one waited for the other's lock).
    // Counted under the players' locks: two games of the pair ending at once are counted one
    // after the other.
    if let (Some(policy), [Some(black), Some(white)]) = (policy, &end.accounts) {
        let between: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rating_changes a JOIN rating_changes b ON b.game_id = a.game_id \
             WHERE a.account_id = $1 AND b.account_id = $2 AND a.at_ms > $3",
        )
        .bind(black)
        .bind(white)
        .bind(at_ms - DAY_MS)
        .fetch_one(&mut **tx)
        .await?;
        if between >= i64::from(policy.per_pair) {
            return Ok(());
        }
    }
    let mut at_ms = at_ms;
    for account in end.accounts.iter().flatten() {
        let latest: Option<i64> = sqlx::query_scalar("SELECT MAX(at_ms) FROM rating_changes WHERE account_id = $1")
            .bind(account)
            .fetch_one(&mut **tx)
            .await?;
        if let Some(latest) = latest {
            at_ms = at_ms.max(latest + 1);
        }
    }
    // A player's current rating, or the computer's fixed one (never changed).
    let mut seats = Vec::new();
    for account in &end.accounts {
        seats.push(match account {
            Some(a) => current(tx, a, size).await?,
            None => match end.computer {
                Some(fixed) => (fixed, 0, 0, 0),
                None => return Ok(()),
            },
        });
    }
    let (black, white) = (seats[0], seats[1]);
    let Some((b_new, w_new)) = rate_game(black.0, white.0, end.handicap, end.size, end.komi, end.black_score) else {
        return Ok(());
    };
    for (account, before, after, score) in
        [(&end.accounts[0], black, b_new, end.black_score), (&end.accounts[1], white, w_new, 1.0 - end.black_score)]
    {
        let Some(account) = account else { continue };
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
        // In place: a row deleted and inserted again was, for a transaction waiting on it,
        // no row at all (it rated the player from the start).
        sqlx::query(
            "INSERT INTO ratings (account_id, size, rating, deviation, volatility, games, wins, losses, updated_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             ON CONFLICT (account_id, size) DO UPDATE SET rating = excluded.rating, \
             deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, \
             wins = excluded.wins, losses = excluded.losses, updated_ms = excluded.updated_ms",
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
    /// The store, rating games by `policy` from now on.
    #[must_use]
    pub fn with_rating_policy(mut self, policy: Policy) -> Store {
        self.policy = policy;
        self
    }

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

    /// An account's rating on one board size, if it has played a rated game there.
    ///
    /// # Errors
    /// A database error.
    pub async fn rating_on(&self, account_id: &str, size: usize) -> Result<Option<Glicko>, StoreError> {
        let row = sqlx::query("SELECT rating, deviation, volatility FROM ratings WHERE account_id = $1 AND size = $2")
            .bind(account_id)
            .bind(size as i64)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(Glicko {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            }),
            None => None,
        })
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

/// A rated game's change for one player (a point of the rating graph).
#[derive(Clone, Debug, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct RatingChange {
    /// The game.
    pub game_id: String,
    /// Board size.
    pub size: usize,
    /// When the game ended (ms since the epoch).
    pub at_ms: i64,
    /// 1 won, 0 lost, 0.5 drawn.
    pub score: f64,
    /// The rating before the game.
    pub before: Glicko,
    /// The rating after it.
    pub after: Glicko,
}

fn glicko_of(r: &sqlx::any::AnyRow, when: &str) -> Result<Glicko, sqlx::Error> {
    Ok(Glicko {
        rating: r.try_get(format!("rating_{when}").as_str())?,
        deviation: r.try_get(format!("deviation_{when}").as_str())?,
        volatility: r.try_get(format!("volatility_{when}").as_str())?,
    })
}

impl Store {
    /// An account's rating changes, oldest first (at most `limit`, the latest ones).
    ///
    /// # Errors
    /// A database error.
    pub async fn rating_history(&self, account_id: &str, limit: i64) -> Result<Vec<RatingChange>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, size, at_ms, score, rating_before, deviation_before, volatility_before, rating_after, \
             deviation_after, volatility_after FROM rating_changes WHERE account_id = $1 \
             ORDER BY at_ms DESC, game_id LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let mut out = rows
            .iter()
            .map(|r| {
                Ok(RatingChange {
                    game_id: r.try_get("game_id")?,
                    size: usize::try_from(r.try_get::<i64, _>("size")?).unwrap_or(0),
                    at_ms: r.try_get("at_ms")?,
                    score: r.try_get("score")?,
                    before: glicko_of(r, "before")?,
                    after: glicko_of(r, "after")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        out.reverse();
        Ok(out)
    }

    /// Replays every rated game in the order it was rated, from the starting rating, with
    /// today's rating math; rewrites the changes and the table. Returns the games replayed and
    /// the ratings (account and size) whose value moved by more than 0.005.
    ///
    /// # Errors
    /// A database error, or a game's configuration that does not read back.
    pub async fn recompute_ratings(&self) -> Result<(usize, usize), StoreError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(
            "SELECT c.game_id, c.account_id, c.size, c.score, c.at_ms, g.config, g.black_account, g.white_account, g.moves \
             FROM rating_changes c JOIN games g ON g.id = c.game_id ORDER BY c.at_ms, c.game_id, c.account_id",
        )
        .fetch_all(&mut *tx)
        .await?;
        // Each game once, in the order it was rated; Black's score from any of its rows.
        let mut games: Vec<(String, RatedEnd, i64)> = Vec::new();
        for r in &rows {
            let id: String = r.try_get("game_id")?;
            if games.iter().any(|g| g.0 == id) {
                continue;
            }
            let config: String = r.try_get("config")?;
            let config: crate::domain::Config =
                serde_json::from_str(&config).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            let accounts: [Option<String>; 2] = [r.try_get("black_account")?, r.try_get("white_account")?];
            let account: String = r.try_get("account_id")?;
            let score: f64 = r.try_get("score")?;
            let black_score = if accounts[0].as_deref() == Some(account.as_str()) { score } else { 1.0 - score };
            let end = RatedEnd::of(&config, &accounts, black_score, r.try_get("moves")?)
                .ok_or_else(|| StoreError::Corrupt(format!("rated game {id} is no longer ratable")))?;
            games.push((id, end, r.try_get("at_ms")?));
        }
        let old: Vec<(String, i64, f64)> = sqlx::query("SELECT account_id, size, rating FROM ratings")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| Ok((r.try_get("account_id")?, r.try_get("size")?, r.try_get("rating")?)))
            .collect::<Result<_, sqlx::Error>>()?;
        sqlx::query("DELETE FROM rating_changes").execute(&mut *tx).await?;
        sqlx::query("DELETE FROM ratings").execute(&mut *tx).await?;
        for (id, end, at_ms) in &games {
            rate(&mut tx, self.backend, None, id, end, *at_ms).await?;
        }
        let new: Vec<(String, i64, f64)> = sqlx::query("SELECT account_id, size, rating FROM ratings")
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|r| Ok((r.try_get("account_id")?, r.try_get("size")?, r.try_get("rating")?)))
            .collect::<Result<_, sqlx::Error>>()?;
        let moved = new
            .iter()
            .filter(|(a, s, r)| !old.iter().any(|(a0, s0, r0)| a0 == a && s0 == s && (r0 - r).abs() <= 0.005))
            .count()
            + old.iter().filter(|(a0, s0, _)| !new.iter().any(|(a, s, _)| a == a0 && s == s0)).count();
        tx.commit().await?;
        Ok((games.len(), moved))
    }
}

//! Challenges and blocks (migration 10). A challenge's state leaves `open` once, by a
//! conditional UPDATE: two players who accept at once, or an acceptance racing a withdrawal,
//! cannot both win; an accepted challenge and its game are written in one transaction.

use sqlx::Row;

use super::{Backend, Derived, Store, StoreError, StoredGame, insert_game};
use crate::domain::challenge::Terms;
use crate::domain::rating::Glicko;

/// The PostgreSQL channel that carries `INSTANCE CHALLENGE-ID` after each change of a
/// challenge.
pub const LOBBY_CHANNEL: &str = "tengen_lobby";

/// A challenge as stored, with the names of its players and the challenger's rating on its
/// board size.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeRow {
    /// The id.
    pub id: String,
    /// The challenger's account.
    pub owner_id: String,
    /// The challenger's name.
    pub owner_name: String,
    /// The challenger's rating on the board's size (`None`: no rated game there yet).
    pub owner_rating: Option<Glicko>,
    /// The player challenged, for a direct challenge: account and name.
    pub to: Option<(String, String)>,
    /// What it offers.
    pub terms: Terms,
    /// A live challenge (not correspondence).
    pub live: bool,
    /// `open`, `accepted`, `cancelled`, `declined` or `expired`.
    pub state: String,
    /// When it was posted.
    pub created_ms: i64,
    /// When it expires if nobody takes it.
    pub expires_ms: i64,
    /// Who accepted it.
    pub acceptor_id: Option<String>,
    /// The game it became.
    pub game_id: Option<String>,
}

/// A new challenge.
pub struct NewChallenge<'a> {
    /// The id.
    pub id: &'a str,
    /// The challenger.
    pub owner_id: &'a str,
    /// The player challenged (direct).
    pub to_id: Option<&'a str>,
    /// The terms.
    pub terms: &'a Terms,
    /// Live or correspondence.
    pub live: bool,
    /// Now.
    pub now_ms: i64,
    /// Its deadline.
    pub expires_ms: i64,
}

/// A challenge's row with its names and the challenger's rating (a literal, for `concat!`).
macro_rules! select {
    () => {
        "SELECT c.id, c.owner_id, o.name AS owner_name, c.to_id, t.name AS to_name, c.terms, c.live, \
     c.state, c.created_ms, c.expires_ms, c.acceptor_id, c.game_id, r.rating, r.deviation, r.volatility \
     FROM challenges c JOIN accounts o ON o.id = c.owner_id LEFT JOIN accounts t ON t.id = c.to_id \
     LEFT JOIN ratings r ON r.account_id = c.owner_id AND r.size = c.size"
    };
}

fn challenge(row: &sqlx::any::AnyRow) -> Result<ChallengeRow, StoreError> {
    let terms: String = row.try_get("terms")?;
    let to_id: Option<String> = row.try_get("to_id")?;
    let to_name: Option<String> = row.try_get("to_name")?;
    let rating: Option<f64> = row.try_get("rating")?;
    Ok(ChallengeRow {
        id: row.try_get("id")?,
        owner_id: row.try_get("owner_id")?,
        owner_name: row.try_get("owner_name")?,
        owner_rating: match rating {
            Some(rating) => {
                Some(Glicko { rating, deviation: row.try_get("deviation")?, volatility: row.try_get("volatility")? })
            }
            None => None,
        },
        to: to_id.zip(to_name),
        terms: serde_json::from_str(&terms).map_err(|e| StoreError::Corrupt(e.to_string()))?,
        live: row.try_get::<i64, _>("live")? != 0,
        state: row.try_get("state")?,
        created_ms: row.try_get("created_ms")?,
        expires_ms: row.try_get("expires_ms")?,
        acceptor_id: row.try_get("acceptor_id")?,
        game_id: row.try_get("game_id")?,
    })
}

/// An account's open challenges (`$1`): the quick check and the count under its lock.
const OPEN_OF: &str = "SELECT COUNT(*) FROM challenges WHERE owner_id = $1 AND state = 'open'";

/// An account's games between players in play (`$1`).
const IN_PLAY_OF: &str = "SELECT COUNT(*) FROM games WHERE phase <> 'ended' AND black_account IS NOT NULL \
    AND white_account IS NOT NULL AND (black_account = $1 OR white_account = $1)";

/// How a note on the lobby's channel about blocks begins (`blocks:A:B`; a challenge's note
/// is its id, which has no colon).
pub const BLOCKS_NOTE: &str = "blocks:";

/// What [`Store::accept_challenge`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acceptance {
    /// The game is made.
    Made,
    /// The challenge was no longer open (taken, withdrawn, expired).
    Closed,
    /// The acceptor has the most games in play already.
    AcceptorFull,
    /// The challenger has the most games in play already.
    OwnerFull,
}

impl Store {
    /// Stores a new open challenge, unless its owner would then have more than `most` open:
    /// `false` (and nothing stored). Counted in the transaction that writes it, under the
    /// owner's lock, so that challenges posted at once cannot all pass the count.
    ///
    /// # Errors
    /// A database error.
    pub async fn insert_challenge(&self, new: &NewChallenge<'_>, most: usize) -> Result<bool, StoreError> {
        let terms = serde_json::to_string(new.terms).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        super::lock_accounts(&mut tx, self.backend, &[new.owner_id]).await?;
        sqlx::query(
            "INSERT INTO challenges (id, owner_id, to_id, size, terms, live, state, created_ms, expires_ms, seen_ms, \
             acceptor_id, game_id, changed_ms) VALUES ($1, $2, $3, $4, $5, $6, 'open', $7, $8, $7, NULL, NULL, $7)",
        )
        .bind(new.id)
        .bind(new.owner_id)
        .bind(new.to_id)
        .bind(new.terms.size as i64)
        .bind(terms)
        .bind(i64::from(new.live))
        .bind(new.now_ms)
        .bind(new.expires_ms)
        .execute(&mut *tx)
        .await?;
        let open: i64 = sqlx::query_scalar(OPEN_OF).bind(new.owner_id).fetch_one(&mut *tx).await?;
        if open > most as i64 {
            return Ok(false);
        }
        tx.commit().await?;
        self.notify_lobby(new.id).await?;
        Ok(true)
    }

    /// A challenge, or `None`.
    ///
    /// # Errors
    /// A database error.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let row = sqlx::query(concat!(select!(), " WHERE c.id = $1")).bind(id).fetch_optional(&self.pool).await?;
        row.as_ref().map(challenge).transpose()
    }

    /// The open challenges not yet expired, oldest first (at most 1,000).
    ///
    /// # Errors
    /// A database error.
    pub async fn open_challenges(&self, now_ms: i64) -> Result<Vec<ChallengeRow>, StoreError> {
        let open =
            concat!(select!(), " WHERE c.state = 'open' AND c.expires_ms > $1 ORDER BY c.created_ms, c.id LIMIT 1000");
        let rows = sqlx::query(open).bind(now_ms).fetch_all(&self.pool).await?;
        rows.iter().map(challenge).collect()
    }

    /// Open challenges an account has posted.
    ///
    /// # Errors
    /// A database error.
    pub async fn open_challenges_of(&self, owner_id: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar(OPEN_OF).bind(owner_id).fetch_one(&self.pool).await?)
    }

    /// Moves an open challenge to `state` (`cancelled`, `declined`): `false` when it was no
    /// longer open.
    ///
    /// # Errors
    /// A database error.
    pub async fn close_challenge(&self, id: &str, state: &str, now_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE challenges SET state = $2, changed_ms = $3 WHERE id = $1 AND state = 'open'")
            .bind(id)
            .bind(state)
            .bind(now_ms)
            .execute(&self.pool)
            .await?
            .rows_affected()
            == 1;
        if done {
            self.notify_lobby(id).await?;
        }
        Ok(done)
    }

    /// Accepts an open challenge for `acceptor_id` and stores its game, in one transaction,
    /// unless either player has `most_games` games between players in play already (counted
    /// under both players' locks, so that challenges accepted at once cannot all pass):
    /// what happened (nothing stored unless [`Acceptance::Made`]).
    ///
    /// # Errors
    /// A database error.
    pub async fn accept_challenge(
        &self,
        id: &str,
        acceptor_id: &str,
        game: &StoredGame,
        derived: &Derived,
        most_games: usize,
    ) -> Result<Acceptance, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The write first: on SQLite it takes the database's write lock.
        let owner: Option<String> = sqlx::query_scalar(
            "UPDATE challenges SET state = 'accepted', acceptor_id = $2, game_id = $3, changed_ms = $4 \
             WHERE id = $1 AND state = 'open' AND expires_ms > $4 RETURNING owner_id",
        )
        .bind(id)
        .bind(acceptor_id)
        .bind(&game.id)
        .bind(game.created_ms)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(owner) = owner else { return Ok(Acceptance::Closed) };
        super::lock_accounts(&mut tx, self.backend, &[&owner, acceptor_id]).await?;
        for (account, full) in [(acceptor_id, Acceptance::AcceptorFull), (owner.as_str(), Acceptance::OwnerFull)] {
            let in_play: i64 = sqlx::query_scalar(IN_PLAY_OF).bind(account).fetch_one(&mut *tx).await?;
            if in_play >= most_games as i64 {
                return Ok(full);
            }
        }
        insert_game(&mut tx, game, derived).await?;
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(LOBBY_CHANNEL)
                .bind(format!("{} {id}", self.instance))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(Acceptance::Made)
    }

    /// Expires the open challenges past their deadline and the live ones whose owner was
    /// last seen in the lobby before `seen_before_ms`; their ids (each expired once, whichever
    /// server runs this).
    ///
    /// # Errors
    /// A database error.
    pub async fn expire_challenges(&self, now_ms: i64, seen_before_ms: i64) -> Result<Vec<String>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar(
            "UPDATE challenges SET state = 'expired', changed_ms = $1 WHERE state = 'open' \
             AND (expires_ms <= $1 OR (live = 1 AND seen_ms < $2)) RETURNING id",
        )
        .bind(now_ms)
        .bind(seen_before_ms)
        .fetch_all(&self.pool)
        .await?;
        for id in &ids {
            self.notify_lobby(id).await?;
        }
        Ok(ids)
    }

    /// Withdraws every open challenge of `owner_id` (`cancelled`); their ids.
    ///
    /// # Errors
    /// A database error.
    pub async fn withdraw_challenges_of(&self, owner_id: &str, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let ids: Vec<String> = sqlx::query_scalar(
            "UPDATE challenges SET state = 'cancelled', changed_ms = $2 WHERE owner_id = $1 AND state = 'open' \
             RETURNING id",
        )
        .bind(owner_id)
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        for id in &ids {
            self.notify_lobby(id).await?;
        }
        Ok(ids)
    }

    /// The owners of open live challenges.
    ///
    /// # Errors
    /// A database error.
    pub async fn live_challengers(&self) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT DISTINCT owner_id FROM challenges WHERE state = 'open' AND live = 1")
            .fetch_all(&self.pool)
            .await?)
    }

    /// Notes that a challenger is in the lobby now: their live challenges stay.
    ///
    /// # Errors
    /// A database error.
    pub async fn challenger_seen(&self, owner_id: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE challenges SET seen_ms = $2 WHERE owner_id = $1 AND state = 'open' AND live = 1")
            .bind(owner_id)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Games in play between two accounts that `account_id` takes part in.
    ///
    /// # Errors
    /// A database error.
    pub async fn games_in_play_of(&self, account_id: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar(IN_PLAY_OF).bind(account_id).fetch_one(&self.pool).await?)
    }

    /// `account_id` blocks `blocked_id` (again: no change).
    ///
    /// # Errors
    /// A database error.
    pub async fn block(&self, account_id: &str, blocked_id: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO blocks (account_id, blocked_id, created_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (account_id, blocked_id) DO NOTHING",
        )
        .bind(account_id)
        .bind(blocked_id)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// `account_id` no longer blocks `blocked_id`.
    ///
    /// # Errors
    /// A database error.
    pub async fn unblock(&self, account_id: &str, blocked_id: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM blocks WHERE account_id = $1 AND blocked_id = $2")
            .bind(account_id)
            .bind(blocked_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The players `account_id` blocks: (id, name), by name.
    ///
    /// # Errors
    /// A database error.
    pub async fn blocks_of(&self, account_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.id, a.name FROM blocks b JOIN accounts a ON a.id = b.blocked_id WHERE b.account_id = $1 \
             ORDER BY a.name_key",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|r| Ok((r.try_get("id")?, r.try_get("name")?))).collect()
    }

    /// The accounts that block `account_id` or that it blocks.
    ///
    /// # Errors
    /// A database error.
    pub async fn blocked_either_way(&self, account_id: &str) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT blocked_id FROM blocks WHERE account_id = $1 UNION SELECT account_id FROM blocks WHERE blocked_id = $1",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?)
    }

    /// Whether either of two accounts blocks the other.
    ///
    /// # Errors
    /// A database error.
    pub async fn blocked_between(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query(
            "SELECT 1 FROM blocks WHERE (account_id = $1 AND blocked_id = $2) OR (account_id = $2 AND blocked_id = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.pool)
        .await?
        .is_some())
    }

    /// Tells the servers listening on PostgreSQL that challenge `id` changed.
    /// Tells the other nodes that a block between `a` and `b` was made or lifted.
    ///
    /// # Errors
    /// A database error.
    pub async fn notify_blocks(&self, a: &str, b: &str) -> Result<(), StoreError> {
        self.notify_lobby(&format!("{BLOCKS_NOTE}{a}:{b}")).await
    }

    async fn notify_lobby(&self, id: &str) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(LOBBY_CHANNEL)
                .bind(format!("{} {id}", self.instance))
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}

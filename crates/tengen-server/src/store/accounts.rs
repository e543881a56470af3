//! Accounts, sessions and the counted attempts of the login limits (migration 8).

use sqlx::Row;

use super::{Store, StoreError};

/// An account's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRow {
    /// The id.
    pub id: String,
    /// The name as the player wrote it.
    pub name: String,
    /// The Argon2id hash (PHC string); `None` once deleted.
    pub password_hash: Option<String>,
    /// The password is the operator's one-time password.
    pub must_change: bool,
    /// When it was created (ms since the epoch).
    pub created_ms: i64,
    /// When it was deleted.
    pub deleted_ms: Option<i64>,
}

fn account(row: &sqlx::any::AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        must_change: row.try_get::<i64, _>("must_change")? != 0,
        created_ms: row.try_get("created_ms")?,
        deleted_ms: row.try_get("deleted_ms")?,
    })
}

impl Store {
    /// Stores a new account; `Ok(false)` when the name (by its key) is taken.
    ///
    /// # Errors
    /// A database error.
    pub async fn create_account(&self, row: &AccountRow, name_key: &str, skeleton: &str) -> Result<bool, StoreError> {
        let taken = sqlx::query("SELECT 1 FROM accounts WHERE name_key = $1 OR name_skeleton = $2")
            .bind(name_key)
            .bind(skeleton)
            .fetch_optional(&self.pool)
            .await?
            .is_some();
        if taken {
            return Ok(false);
        }
        let inserted = sqlx::query(
            "INSERT INTO accounts (id, name, name_key, name_skeleton, password_hash, must_change, created_ms, deleted_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, NULL)",
        )
        .bind(&row.id)
        .bind(&row.name)
        .bind(name_key)
        .bind(skeleton)
        .bind(&row.password_hash)
        .bind(i64::from(row.must_change))
        .bind(row.created_ms)
        .execute(&self.pool)
        .await;
        match inserted {
            Ok(_) => Ok(true),
            // Two sign-ups of one name (or two that look alike) at once: the unique keys refuse
            // the second.
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// Fills the name skeletons of the accounts made before they were kept (at opening):
    /// `skeleton` of each name; two older names that look alike keep none. How many were
    /// filled.
    ///
    /// # Errors
    /// A database error.
    pub(crate) async fn fill_name_skeletons(&self, skeleton: impl Fn(&str) -> String) -> Result<usize, StoreError> {
        let rows =
            sqlx::query("SELECT id, name FROM accounts WHERE name_skeleton IS NULL").fetch_all(&self.pool).await?;
        let mut filled = 0;
        for row in &rows {
            let (id, name): (String, String) = (row.try_get("id")?, row.try_get("name")?);
            let done = sqlx::query("UPDATE accounts SET name_skeleton = $1 WHERE id = $2")
                .bind(skeleton(&name))
                .bind(&id)
                .execute(&self.pool)
                .await;
            match done {
                Ok(_) => filled += 1,
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(filled)
    }

    /// The account of a name key, deleted or not.
    ///
    /// # Errors
    /// A database error.
    pub async fn account_by_key(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, name, password_hash, must_change, created_ms, deleted_ms FROM accounts WHERE name_key = $1",
        )
        .bind(name_key)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| account(&r)).transpose()?)
    }

    /// The live account of a session token's hash, while the session lasts.
    ///
    /// # Errors
    /// A database error.
    pub async fn session_account(&self, token_hash: &str, now_ms: i64) -> Result<Option<AccountRow>, StoreError> {
        let row = sqlx::query(
            "SELECT a.id, a.name, a.password_hash, a.must_change, a.created_ms, a.deleted_ms \
             FROM sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_hash = $1 AND s.expires_ms > $2 AND a.deleted_ms IS NULL",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| account(&r)).transpose()?)
    }

    /// Starts a session; expired sessions of the account go, and its oldest past `most`.
    ///
    /// # Errors
    /// A database error.
    pub async fn create_session(
        &self,
        token_hash: &str,
        account_id: &str,
        now_ms: i64,
        expires_ms: i64,
        most: usize,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND expires_ms <= $2")
            .bind(account_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)")
            .bind(token_hash)
            .bind(account_id)
            .bind(now_ms)
            .bind(expires_ms)
            .execute(&mut *tx)
            .await?;
        // The oldest sessions past `most` end: every login adds one, and logins must not grow
        // the table without bound.
        sqlx::query(
            "DELETE FROM sessions WHERE account_id = $1 AND token_hash NOT IN \
             (SELECT token_hash FROM sessions WHERE account_id = $1 ORDER BY created_ms DESC, token_hash LIMIT $2)",
        )
        .bind(account_id)
        .bind(most as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends one session.
    ///
    /// # Errors
    /// A database error.
    pub async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(token_hash).execute(&self.pool).await?;
        Ok(())
    }

    /// Sets an account's password hash and ends all its sessions, in one transaction.
    ///
    /// # Errors
    /// A database error.
    pub async fn set_password(&self, account_id: &str, hash: &str, must_change: bool) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1, must_change = $2 WHERE id = $3")
            .bind(hash)
            .bind(i64::from(must_change))
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1").bind(account_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The sessions an account has (expired ones included until its next login).
    ///
    /// # Errors
    /// A database error.
    pub async fn sessions_of(&self, account_id: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE account_id = $1")
            .bind(account_id)
            .fetch_one(&self.pool)
            .await?)
    }

    /// Spends an account's one-time password (the operator's reset) on the login that uses
    /// it: `false` when it was spent already (by a login before, or one at the same time). The
    /// account stays bound to change it (`must_change` 2: spent).
    ///
    /// # Errors
    /// A database error.
    pub async fn spend_one_time_password(&self, account_id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query("UPDATE accounts SET must_change = 2 WHERE id = $1 AND must_change = 1")
            .bind(account_id)
            .execute(&self.pool)
            .await?
            .rows_affected()
            == 1)
    }

    /// Marks an account deleted: its password goes, its sessions end, its row and name stay.
    ///
    /// # Errors
    /// A database error.
    pub async fn delete_account(&self, account_id: &str, now_ms: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = NULL, must_change = 0, deleted_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(account_id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1").bind(account_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Counts the attempts under each of `keys` since `since_ms` and, unless one has reached
    /// its most, records attempt `id` under every key (dropping attempts older than
    /// `forget_before_ms` under every key): the counts with this one, or the first key
    /// refused (its index, and the time of its oldest attempt). Count and record are one
    /// transaction under the keys' locks (on SQLite the database's write lock, taken by its
    /// first statement; on PostgreSQL an advisory lock per key, in order), so that of
    /// attempts made at once, on every node alike, no more pass than the most.
    ///
    /// # Errors
    /// A database error.
    pub async fn record_attempt(
        &self,
        id: &str,
        keys: &[(&str, Option<i64>)],
        now_ms: i64,
        since_ms: i64,
        forget_before_ms: i64,
    ) -> Result<Result<Vec<i64>, (usize, Option<i64>)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM auth_attempts WHERE at_ms < $1").bind(forget_before_ms).execute(&mut *tx).await?;
        if self.backend == super::Backend::Postgres {
            let mut sorted: Vec<&str> = keys.iter().map(|(k, _)| *k).collect();
            sorted.sort_unstable();
            sorted.dedup();
            for key in sorted {
                sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))").bind(key).execute(&mut *tx).await?;
            }
        }
        let mut counts = Vec::with_capacity(keys.len());
        for (i, (key, most)) in keys.iter().enumerate() {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM auth_attempts WHERE attempt_key = $1 AND at_ms >= $2",
            )
            .bind(*key)
            .bind(since_ms)
            .fetch_one(&mut *tx)
            .await?;
            let n: i64 = row.try_get("n")?;
            if most.is_some_and(|most| n >= most) {
                return Ok(Err((i, row.try_get("oldest")?)));
            }
            counts.push(n + 1);
        }
        for (key, _) in keys {
            sqlx::query("INSERT INTO auth_attempts (attempt_key, at_ms, attempt_id) VALUES ($1, $2, $3)")
                .bind(*key)
                .bind(now_ms)
                .bind(id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(Ok(counts))
    }

    /// Forgets attempt `id` under `keys` (a login that succeeded is no failure; one refused
    /// after its record was never tried).
    ///
    /// # Errors
    /// A database error.
    pub async fn forget_attempt(&self, id: &str, keys: &[&str]) -> Result<(), StoreError> {
        for key in keys {
            sqlx::query("DELETE FROM auth_attempts WHERE attempt_id = $1 AND attempt_key = $2")
                .bind(id)
                .bind(*key)
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }

    /// The attempts under `key` since `since_ms`: how many, and the time of the oldest.
    ///
    /// # Errors
    /// A database error.
    pub async fn attempts_since(&self, key: &str, since_ms: i64) -> Result<(i64, Option<i64>), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, MIN(at_ms) AS oldest FROM auth_attempts WHERE attempt_key = $1 AND at_ms >= $2",
        )
        .bind(key)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get("n")?, row.try_get("oldest")?))
    }
}

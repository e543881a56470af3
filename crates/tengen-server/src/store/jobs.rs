//! One queue for the work servers and `tengen worker` processes share (`jobs`): the
//! computer's move of a game ([`JobKind::Move`]) and a game's review ([`JobKind::Review`]).
//! One lease implementation for both: a worker claims the next job — the oldest of the client
//! served least — under a lease it renews while it works; a job whose lease ran out is claimed
//! again by another worker; a job is finished once, by the worker holding it. PostgreSQL's
//! claims take `FOR UPDATE SKIP LOCKED`, so that workers on other machines take other jobs;
//! SQLite has one writer at a time.

use sqlx::{AnyConnection, Row};

use super::{Backend, Store, StoreError};

/// How far back a client's finished jobs count against its turn ([`Store::claim_job`]): with
/// running jobs alone, always none with one worker, the first come would be served first.
pub const TURNS_MS: i64 = 10 * 60 * 1000;

/// What a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The computer's move, or its proposal of dead stones, for a game's state after
    /// [`Job::events`] events.
    Move,
    /// A game's review (its progress and result are in `reviews`).
    Review,
}

impl JobKind {
    /// The name stored in `jobs.kind`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Move => "move",
            JobKind::Review => "review",
        }
    }
}

/// A job as claimed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// What it is.
    pub kind: JobKind,
    /// The game it is for.
    pub game_id: String,
    /// A move's: the state of the game it is for (a review's 0).
    pub events: i64,
    /// Whose work it is.
    pub client: String,
    /// Claims so far, this one included.
    pub attempts: i64,
}

/// A count that fits in `usize`.
fn count(row: &sqlx::any::AnyRow, name: &str) -> Result<usize, StoreError> {
    Ok(usize::try_from(row.try_get::<i64, _>(name)?).unwrap_or(usize::MAX))
}

impl Store {
    /// Queues `kind`'s job of game `game_id` for its state after `events` events, as
    /// `client`'s, for a worker with `needs` (empty: any). A job of the same kind for the game
    /// that is finished, or for an older state, is replaced (its claim dropped); one waiting
    /// or held for the same or a newer state is kept. Whether it was queued.
    ///
    /// # Errors
    /// A database error.
    pub async fn queue_job_on(
        conn: &mut AnyConnection,
        kind: JobKind,
        game_id: &str,
        events: i64,
        needs: &str,
        client: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO jobs (kind, game_id, events, needs, client, queued_ms, lease_owner, lease_until_ms, attempts, \
             finished_ms) VALUES ($1, $2, $3, $4, $5, $6, NULL, 0, 0, NULL) ON CONFLICT (kind, game_id) DO UPDATE \
             SET events = excluded.events, needs = excluded.needs, client = excluded.client, \
             queued_ms = excluded.queued_ms, lease_owner = NULL, lease_until_ms = 0, attempts = 0, finished_ms = NULL \
             WHERE jobs.finished_ms IS NOT NULL OR jobs.events < excluded.events",
        )
        .bind(kind.name())
        .bind(game_id)
        .bind(events)
        .bind(needs)
        .bind(client)
        .bind(now_ms)
        .execute(&mut *conn)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Queues the computer's job of game `game_id` for its state after `events` events, as
    /// `client`'s ([`Store::queue_job_on`] with [`JobKind::Move`], for any worker).
    ///
    /// # Errors
    /// A database error.
    pub async fn queue_move(&self, game_id: &str, events: i64, client: &str, now_ms: i64) -> Result<bool, StoreError> {
        Store::queue_job_on(&mut *self.pool.acquire().await?, JobKind::Move, game_id, events, "", client, now_ms).await
    }

    /// Worker `owner` claims the next job of `kind` until `lease_until_ms`: one waiting, or
    /// held under a lease that ran out (its worker died or lost touch), that needs nothing or
    /// `network` — the oldest of the client served least, with the fewest jobs of the kind
    /// held now or finished in the last [`TURNS_MS`]. Jobs already claimed `max_attempts`
    /// times whose lease ran out again are finished instead, and their games returned.
    ///
    /// # Errors
    /// A database error.
    pub async fn claim_job(
        &self,
        kind: JobKind,
        owner: &str,
        now_ms: i64,
        lease_until_ms: i64,
        network: &str,
        max_attempts: Option<i64>,
    ) -> Result<(Option<Job>, Vec<String>), StoreError> {
        let mut gave_up = Vec::new();
        if let Some(max) = max_attempts {
            let rows = sqlx::query(
                "UPDATE jobs SET finished_ms = $2, lease_owner = NULL, lease_until_ms = 0 WHERE kind = $1 \
                 AND finished_ms IS NULL AND lease_until_ms > 0 AND lease_until_ms < $2 AND attempts >= $3 \
                 RETURNING game_id",
            )
            .bind(kind.name())
            .bind(now_ms)
            .bind(max)
            .fetch_all(&self.pool)
            .await?;
            for row in &rows {
                gave_up.push(row.try_get::<String, _>("game_id")?);
            }
        }
        // Finished jobs count for the turns only so long.
        sqlx::query("DELETE FROM jobs WHERE kind = $1 AND finished_ms < $2")
            .bind(kind.name())
            .bind(now_ms - TURNS_MS)
            .execute(&self.pool)
            .await?;
        let lock = if self.backend == Backend::Postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE jobs SET lease_owner = $2, lease_until_ms = $4, attempts = attempts + 1 \
             WHERE kind = $1 AND game_id = (SELECT game_id FROM jobs AS j WHERE j.kind = $1 AND j.finished_ms IS NULL \
             AND j.lease_until_ms < $3 AND (j.needs = '' OR j.needs = $5) \
             ORDER BY (SELECT COUNT(*) FROM jobs AS o WHERE o.kind = j.kind AND o.client = j.client \
             AND ((o.finished_ms IS NULL AND o.lease_until_ms >= $3) OR o.finished_ms >= $3 - {TURNS_MS})), \
             j.queued_ms, j.game_id LIMIT 1{lock}) \
             AND finished_ms IS NULL AND lease_until_ms < $3 RETURNING game_id, events, client, attempts"
        )))
        .bind(kind.name())
        .bind(owner)
        .bind(now_ms)
        .bind(lease_until_ms)
        .bind(network)
        .fetch_optional(&self.pool)
        .await?;
        let job = row
            .map(|r| -> Result<Job, StoreError> {
                Ok(Job {
                    kind,
                    game_id: r.try_get("game_id")?,
                    events: r.try_get("events")?,
                    client: r.try_get("client")?,
                    attempts: r.try_get("attempts")?,
                })
            })
            .transpose()?;
        Ok((job, gave_up))
    }

    /// Worker `owner` still holds `kind`'s job of game `game_id`: its lease runs to
    /// `lease_until_ms`. `false` when the job is finished or another's: the worker must stop.
    ///
    /// # Errors
    /// A database error.
    pub async fn renew_job_on(
        conn: &mut AnyConnection,
        kind: JobKind,
        game_id: &str,
        owner: &str,
        lease_until_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET lease_until_ms = $4 WHERE kind = $1 AND game_id = $2 AND lease_owner = $3 \
             AND finished_ms IS NULL",
        )
        .bind(kind.name())
        .bind(game_id)
        .bind(owner)
        .bind(lease_until_ms)
        .execute(&mut *conn)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Worker `owner` still holds the computer's job of game `game_id` ([`Store::renew_job_on`]
    /// with [`JobKind::Move`]).
    ///
    /// # Errors
    /// A database error.
    pub async fn renew_move(&self, game_id: &str, owner: &str, lease_until_ms: i64) -> Result<bool, StoreError> {
        Store::renew_job_on(&mut *self.pool.acquire().await?, JobKind::Move, game_id, owner, lease_until_ms).await
    }

    /// Finishes `kind`'s job of game `game_id`: only `owner`'s, if given (a job is finished
    /// once, by the worker holding it), and only for the state after `events` events, if given
    /// (a job queued since for a newer state stays). Whether it was finished now.
    ///
    /// # Errors
    /// A database error.
    pub async fn finish_job_on(
        conn: &mut AnyConnection,
        kind: JobKind,
        game_id: &str,
        owner: Option<&str>,
        events: Option<i64>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE jobs SET finished_ms = $5, lease_owner = NULL, lease_until_ms = 0 WHERE kind = $1 \
             AND game_id = $2 AND finished_ms IS NULL AND ($3 IS NULL OR lease_owner = $3) \
             AND ($4 IS NULL OR events = $4)",
        )
        .bind(kind.name())
        .bind(game_id)
        .bind(owner)
        .bind(events)
        .bind(now_ms)
        .execute(&mut *conn)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The computer's job of game `game_id` for its state after `events` events is over (done,
    /// or made pointless by a change of the game).
    ///
    /// # Errors
    /// A database error.
    pub async fn finish_move(&self, game_id: &str, events: i64, now_ms: i64) -> Result<(), StoreError> {
        Store::finish_job_on(&mut *self.pool.acquire().await?, JobKind::Move, game_id, None, Some(events), now_ms)
            .await?;
        Ok(())
    }

    /// `client`'s jobs of `kind` not finished — waiting, held, or whose lease ran out and that
    /// wait to be claimed again — besides that of game `except`; a move's only while it is for
    /// its game's state now (one whose result is already in the log, about to be finished, is
    /// not).
    ///
    /// # Errors
    /// A database error.
    pub async fn jobs_of(&self, kind: JobKind, client: &str, except: &str) -> Result<usize, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM jobs AS j JOIN games AS g ON g.id = j.game_id WHERE j.kind = $1 \
             AND j.client = $2 AND j.game_id <> $3 AND j.finished_ms IS NULL AND (j.kind <> 'move' OR g.events = j.events)",
        )
        .bind(kind.name())
        .bind(client)
        .bind(except)
        .fetch_one(&self.pool)
        .await?;
        count(&row, "n")
    }

    /// The jobs of `kind` not finished: (waiting, held under a lease).
    ///
    /// # Errors
    /// A database error.
    pub async fn job_counts(&self, kind: JobKind, now_ms: i64) -> Result<(usize, usize), StoreError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(CASE WHEN lease_until_ms < $2 THEN 1 ELSE 0 END), 0) AS waiting, \
             COALESCE(SUM(CASE WHEN lease_until_ms >= $2 THEN 1 ELSE 0 END), 0) AS running FROM jobs \
             WHERE kind = $1 AND finished_ms IS NULL",
        )
        .bind(kind.name())
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok((count(&row, "waiting")?, count(&row, "running")?))
    }
}

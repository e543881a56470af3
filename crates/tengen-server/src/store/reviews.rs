//! Reviews: a game's review (`reviews`: its state, progress and result) and its job in the
//! one queue ([`JobKind::Review`]). A request, a renewal, an end and a cancel change both in
//! one transaction; a claim takes the job, then marks the review running (a worker lost in
//! between leaves it `queued` until its lease runs out and another claims it).

use sqlx::Row;

use super::jobs::JobKind;
use super::{Backend, Store, StoreError};

/// The PostgreSQL channel that carries `INSTANCE GAME-ID` after each change of a review.
pub const REVIEW_CHANNEL: &str = "tengen_reviews";

/// Claims of a review job before it is given up as failing (each claim after the first
/// follows a worker that died or lost its lease).
pub const REVIEW_ATTEMPTS: i64 = 3;

/// A review as stored, with its job's lease while one is held.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRow {
    /// The game reviewed.
    pub game_id: String,
    /// queued, running, done, failed or cancelled.
    pub state: String,
    /// `playouts`, or `network:NAME`.
    pub engine: String,
    /// Simulations (a network's visits) a position.
    pub strength: i64,
    /// Who asked.
    pub client: String,
    /// When it was asked for (ms since the epoch).
    pub requested_ms: i64,
    /// Its last change.
    pub updated_ms: i64,
    /// 0 to 1.
    pub progress: f64,
    /// The worker holding it, while running.
    pub lease_owner: Option<String>,
    /// Until when the worker holds it.
    pub lease_until_ms: Option<i64>,
    /// Claims of its job so far (0 once the job is long finished).
    pub attempts: i64,
    /// JSON: the moves shown so far (the quick pass's, replaced as they are judged).
    pub partial: Option<String>,
    /// JSON of the review, when done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

/// The columns of a [`ReviewRow`]: the review's, and its job's lease while held.
const REVIEW_SELECT: &str = "SELECT r.game_id, r.state, r.engine, r.strength, r.client, r.requested_ms, \
     r.updated_ms, r.progress, r.partial, r.result, r.error, \
     CASE WHEN j.finished_ms IS NULL AND j.lease_until_ms > 0 THEN j.lease_owner END AS lease_owner, \
     CASE WHEN j.finished_ms IS NULL AND j.lease_until_ms > 0 THEN j.lease_until_ms END AS lease_until_ms, \
     COALESCE(j.attempts, 0) AS attempts \
     FROM reviews AS r LEFT JOIN jobs AS j ON j.kind = 'review' AND j.game_id = r.game_id";

fn review_row(row: &sqlx::any::AnyRow) -> Result<ReviewRow, StoreError> {
    Ok(ReviewRow {
        game_id: row.try_get("game_id")?,
        state: row.try_get("state")?,
        engine: row.try_get("engine")?,
        strength: row.try_get("strength")?,
        client: row.try_get("client")?,
        requested_ms: row.try_get("requested_ms")?,
        updated_ms: row.try_get("updated_ms")?,
        progress: row.try_get("progress")?,
        lease_owner: row.try_get("lease_owner")?,
        lease_until_ms: row.try_get("lease_until_ms")?,
        attempts: row.try_get("attempts")?,
        partial: row.try_get("partial")?,
        result: row.try_get("result")?,
        error: row.try_get("error")?,
    })
}

/// What a review's job needs of a worker: a network's engine needs that network.
fn needs(engine: &str) -> &str {
    if engine.starts_with("network:") { engine } else { "" }
}

impl Store {
    /// Asks for a review of game `game_id` by `engine` at `strength`: a new one is queued; an
    /// existing one is kept as it is (queued, running, or done by the same engine and strength:
    /// a second request costs nothing) unless it failed, was cancelled or was done otherwise,
    /// when it is queued again. The review as it is now.
    ///
    /// # Errors
    /// A database error.
    pub async fn request_review(
        &self,
        game_id: &str,
        engine: &str,
        strength: i64,
        client: &str,
        now_ms: i64,
    ) -> Result<ReviewRow, StoreError> {
        let mut tx = self.pool.begin().await?;
        let queued = sqlx::query(
            "INSERT INTO reviews (game_id, state, engine, strength, client, requested_ms, updated_ms, progress) \
             VALUES ($1, 'queued', $2, $3, $4, $5, $5, 0) \
             ON CONFLICT (game_id) DO UPDATE SET state = 'queued', engine = excluded.engine, \
             strength = excluded.strength, client = excluded.client, requested_ms = excluded.requested_ms, \
             updated_ms = excluded.updated_ms, progress = 0, partial = NULL, result = NULL, error = NULL \
             WHERE reviews.state IN ('failed', 'cancelled') OR (reviews.state = 'done' AND \
             (reviews.engine <> excluded.engine OR reviews.strength <> excluded.strength))",
        )
        .bind(game_id)
        .bind(engine)
        .bind(strength)
        .bind(client)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?;
        if queued.rows_affected() == 1 {
            Store::queue_job_on(&mut tx, JobKind::Review, game_id, 0, needs(engine), client, now_ms).await?;
        }
        tx.commit().await?;
        self.notify_review(game_id).await?;
        self.review(game_id).await?.ok_or_else(|| StoreError::Corrupt(format!("review of {game_id} vanished")))
    }

    /// Reviews `client` has queued or running, besides that of `except`.
    ///
    /// # Errors
    /// A database error.
    pub async fn reviews_waiting_of(&self, client: &str, except: &str) -> Result<usize, StoreError> {
        self.jobs_of(JobKind::Review, client, except).await
    }

    /// The review of a game, if one was asked for.
    ///
    /// # Errors
    /// A database error.
    pub async fn review(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!("{REVIEW_SELECT} WHERE r.game_id = $1")))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(review_row).transpose()
    }

    /// Claims the next review for worker `owner` until `lease_until_ms` ([`Store::claim_job`]:
    /// clients take turns, even with one worker): only reviews by the playout search, or by
    /// `network`'s engine (`network:NAME`; empty for a worker without one). Reviews claimed
    /// [`REVIEW_ATTEMPTS`] times whose lease ran out again are marked failed instead.
    ///
    /// # Errors
    /// A database error.
    pub async fn claim_review(
        &self,
        owner: &str,
        now_ms: i64,
        lease_until_ms: i64,
        network: &str,
    ) -> Result<Option<ReviewRow>, StoreError> {
        let (job, gave_up) =
            self.claim_job(JobKind::Review, owner, now_ms, lease_until_ms, network, Some(REVIEW_ATTEMPTS)).await?;
        for game_id in &gave_up {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE reviews SET state = 'failed', updated_ms = $2, \
                 error = 'its workers stopped {REVIEW_ATTEMPTS} times before the end' \
                 WHERE game_id = $1 AND state IN ('queued', 'running')"
            )))
            .bind(game_id)
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
            self.notify_review(game_id).await?;
        }
        let Some(job) = job else { return Ok(None) };
        sqlx::query(
            "UPDATE reviews SET state = 'running', progress = 0, partial = NULL, updated_ms = $2 WHERE game_id = $1",
        )
        .bind(&job.game_id)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        self.notify_review(&job.game_id).await?;
        self.review(&job.game_id).await
    }

    /// Worker `owner` still holds the review of `game_id`: its lease runs to
    /// `lease_until_ms`, with its progress and the moves judged so far. `false` when the job is
    /// no longer this worker's (its lease ran out and another took it, or it was cancelled):
    /// it must stop.
    ///
    /// # Errors
    /// A database error.
    pub async fn renew_review(
        &self,
        game_id: &str,
        owner: &str,
        lease_until_ms: i64,
        progress: f64,
        partial: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let held = Store::renew_job_on(&mut tx, JobKind::Review, game_id, owner, lease_until_ms).await?;
        if held {
            sqlx::query("UPDATE reviews SET progress = $2, partial = $3, updated_ms = $4 WHERE game_id = $1")
                .bind(game_id)
                .bind(progress)
                .bind(partial)
                .bind(now_ms)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        if held {
            self.notify_review(game_id).await?;
        }
        Ok(held)
    }

    /// Worker `owner` ends the review of `game_id`: done with `result` (JSON), or failed with
    /// `error`. `false`, and nothing changed, when the job is no longer this worker's: a
    /// review is finished once, by the worker holding it.
    ///
    /// # Errors
    /// A database error.
    pub async fn finish_review(
        &self,
        game_id: &str,
        owner: &str,
        outcome: Result<&str, &str>,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let (state, result, error) = match outcome {
            Ok(result) => ("done", Some(result), None),
            Err(error) => ("failed", None, Some(error)),
        };
        let mut tx = self.pool.begin().await?;
        let finished = Store::finish_job_on(&mut tx, JobKind::Review, game_id, Some(owner), None, now_ms).await?;
        if finished {
            sqlx::query(
                "UPDATE reviews SET state = $2, result = $3, error = $4, progress = CASE WHEN $2 = 'done' THEN 1 \
                 ELSE progress END, partial = NULL, updated_ms = $5 WHERE game_id = $1",
            )
            .bind(game_id)
            .bind(state)
            .bind(result)
            .bind(error)
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        if finished {
            self.notify_review(game_id).await?;
        }
        Ok(finished)
    }

    /// Cancels the review of `game_id`, queued or running, for `client`, the one who asked: its
    /// job is finished (a worker on it loses its lease at its next renewal and stops) and the
    /// review is `cancelled`. The review as it is now, and whether it was cancelled now; `None`
    /// when none was asked for.
    ///
    /// # Errors
    /// A database error.
    pub async fn cancel_review(
        &self,
        game_id: &str,
        client: &str,
        now_ms: i64,
    ) -> Result<Option<(ReviewRow, bool)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let cancelled = sqlx::query(
            "UPDATE reviews SET state = 'cancelled', partial = NULL, updated_ms = $3 WHERE game_id = $1 \
             AND client = $2 AND state IN ('queued', 'running')",
        )
        .bind(game_id)
        .bind(client)
        .bind(now_ms)
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        if cancelled {
            Store::finish_job_on(&mut tx, JobKind::Review, game_id, None, None, now_ms).await?;
        }
        tx.commit().await?;
        if cancelled {
            self.notify_review(game_id).await?;
        }
        Ok(self.review(game_id).await?.map(|row| (row, cancelled)))
    }

    /// Tells the servers listening on PostgreSQL that the review of `game_id` changed.
    async fn notify_review(&self, game_id: &str) -> Result<(), StoreError> {
        if self.backend == Backend::Postgres {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(REVIEW_CHANNEL)
                .bind(format!("{} {game_id}", self.instance))
                .execute(&self.pool)
                .await?;
        }
        Ok(())
    }
}

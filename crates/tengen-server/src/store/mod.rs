//! The data layer: one set of queries over SQLite (embedded, the default) or PostgreSQL,
//! through sqlx's `Any` driver; versioned migrations for each in `migrations/`.
//!
//! A game is a row of `games` (its configuration and derived fields) and its log in `events`.
//! An event is appended in one transaction with the update of the derived fields; the log's
//! primary key `(game_id, seq)` refuses a second event with the same number, so two servers
//! (or two requests) acting on the same old state cannot both succeed.

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
use tengen_core::Color;

use crate::domain::{Action, Config, Event};

/// Which database.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file (WAL).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The migrations failed.
    #[error("database migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// Another event took this place in the log first.
    #[error("the game changed meanwhile")]
    Conflict,
    /// A stored value does not read back.
    #[error("stored data is unreadable: {0}")]
    Corrupt(String),
    /// The address is not one of SQLite's or PostgreSQL's.
    #[error("unsupported database address {0:?}: use sqlite://FILE or postgres://…")]
    Url(String),
}

/// A game's row.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The id.
    pub id: String,
    /// When it was created (ms since the epoch).
    pub created_ms: i64,
    /// Its configuration.
    pub config: Config,
    /// SHA-256 of the seat tokens (hex).
    pub tokens: [Option<String>; 2],
    /// The imported record, for review games.
    pub sgf: Option<String>,
}

/// Derived fields written with each event.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// Events in the log.
    pub events: i64,
    /// Moves played.
    pub moves: i64,
    /// placing, playing, counting or ended.
    pub phase: &'static str,
    /// The result, when over.
    pub result: Option<String>,
    /// When the running clock's flag falls.
    pub deadline_ms: Option<i64>,
    /// Black's name as it is now.
    pub black_name: String,
    /// White's name as it is now.
    pub white_name: String,
}

/// A line of the list of recent games.
#[derive(Clone, Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Summary {
    /// The game's id.
    pub id: String,
    /// Board size.
    pub size: usize,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// placing, playing, counting or ended.
    pub phase: String,
    /// The result, when over.
    pub result: Option<String>,
    /// Moves played.
    pub moves: i64,
    /// Last change, ms since the epoch.
    pub updated_ms: i64,
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The address (PostgreSQL's listener opens its own connection).
    url: String,
    /// This process's name in change notifications, so that it skips its own.
    instance: String,
}

/// The PostgreSQL channel that carries `INSTANCE GAME-ID` after each committed event.
pub const CHANNEL: &str = "tengen_games";

/// The PostgreSQL channel that carries `INSTANCE GAME-ID` after each change of a review job.
pub const REVIEW_CHANNEL: &str = "tengen_reviews";

/// Claims of a review job before it is given up as failing (each claim after the first
/// follows a worker that died or lost its lease).
pub const REVIEW_ATTEMPTS: i64 = 3;

/// How far back a client's finished reviews count against its turn ([`Store::claim_review`]).
pub const REVIEW_TURNS_MS: i64 = 10 * 60 * 1000;

/// A review job's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRow {
    /// The game reviewed.
    pub game_id: String,
    /// queued, running, done or failed.
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
    /// Claims so far.
    pub attempts: i64,
    /// JSON: the moves judged so far.
    pub partial: Option<String>,
    /// JSON of the review, when done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

const REVIEW_COLUMNS: &str = "game_id, state, engine, strength, client, requested_ms, updated_ms, progress, \
     lease_owner, lease_until_ms, attempts, partial, result, error";

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

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

impl Store {
    /// Opens the database at `url` (`sqlite://FILE`, `sqlite::memory:`, `postgres://…`),
    /// creating an SQLite file if needed, and runs the migrations.
    ///
    /// # Errors
    /// An unknown address, a database that cannot be opened, a failed migration.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Backend::Postgres
        } else {
            return Err(StoreError::Url(url.to_owned()));
        };
        let mut options = AnyPoolOptions::new();
        let mut url = url.to_owned();
        if backend == Backend::Sqlite {
            if url.contains(":memory:") {
                // One connection: each in-memory connection would be its own database.
                options = options.max_connections(1);
            } else if !url.contains('?') {
                url.push_str("?mode=rwc");
            }
            // A small page cache per connection (SQLite's default is 2 MiB, times the pool's
            // connections): the operating system caches the file anyway.
            options = options.after_connect(|conn, _| {
                Box::pin(async move {
                    sqlx::Executor::execute(conn, "PRAGMA cache_size = -512").await?;
                    Ok(())
                })
            });
        }
        let pool = options.connect(&url).await?;
        if backend == Backend::Sqlite {
            // WAL: readers do not wait for the writer; `synchronous = FULL` keeps each commit
            // on disk before it returns.
            if !url.contains(":memory:") {
                sqlx::query("PRAGMA journal_mode = WAL").execute(&pool).await?;
            }
            sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        } else {
            sqlx::migrate!("migrations/postgres").run(&pool).await?;
        }
        let instance = format!("{:016x}", rand::random::<u64>());
        Ok(Store { pool, backend, url, instance })
    }

    /// The database's address.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// This process's name in change notifications.
    #[must_use]
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Which database this is.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Stores a new game.
    ///
    /// # Errors
    /// A database error.
    pub async fn create(&self, game: &StoredGame, derived: &Derived) -> Result<(), StoreError> {
        let config = serde_json::to_string(&game.config).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO games (id, created_ms, updated_ms, config, black_token, white_token, sgf, events, moves, \
             phase, result, deadline_ms, black_name, white_name) \
             VALUES ($1, $2, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, $11, $12)",
        )
        .bind(&game.id)
        .bind(game.created_ms)
        .bind(config)
        .bind(game.tokens[0].clone())
        .bind(game.tokens[1].clone())
        .bind(derived.events)
        .bind(derived.moves)
        .bind(derived.phase)
        .bind(derived.result.clone())
        .bind(derived.deadline_ms)
        .bind(&derived.black_name)
        .bind(&derived.white_name)
        .execute(&mut *tx)
        .await?;
        if let Some(sgf) = &game.sgf {
            sqlx::query("INSERT INTO records (game_id, sgf) VALUES ($1, $2)")
                .bind(&game.id)
                .bind(sgf)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// A game and its log, or `None`.
    ///
    /// # Errors
    /// A database error, or stored data that does not read back.
    pub async fn load(&self, id: &str) -> Result<Option<(StoredGame, Vec<Event>)>, StoreError> {
        let Some(game) = self.stored(id).await? else { return Ok(None) };
        let events = self.events_after(id, 0).await?;
        Ok(Some((game, events)))
    }

    /// A game as created (its configuration, seats and imported record: none of them changes
    /// afterwards), or `None`.
    ///
    /// # Errors
    /// A database error, or stored data that does not read back.
    pub async fn stored(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT id, created_ms, config, black_token, white_token, \
                 (SELECT sgf FROM records WHERE game_id = games.id) AS sgf FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let config: String = row.try_get("config")?;
        Ok(Some(StoredGame {
            id: row.try_get("id")?,
            created_ms: row.try_get("created_ms")?,
            config: serde_json::from_str(&config).map_err(|e| StoreError::Corrupt(e.to_string()))?,
            tokens: [row.try_get("black_token")?, row.try_get("white_token")?],
            sgf: row.try_get("sgf")?,
        }))
    }

    /// The events of a game's log after its first `after`, in order.
    ///
    /// # Errors
    /// A database error, or stored data that does not read back (a gap in the numbers).
    pub async fn events_after(&self, id: &str, after: usize) -> Result<Vec<Event>, StoreError> {
        let rows =
            sqlx::query("SELECT seq, color, action, at_ms FROM events WHERE game_id = $1 AND seq > $2 ORDER BY seq")
                .bind(id)
                .bind(after as i64)
                .fetch_all(&self.pool)
                .await?;
        let mut events = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let seq: i64 = row.try_get("seq")?;
            let expected = (after + i + 1) as i64;
            if seq != expected {
                return Err(StoreError::Corrupt(format!("game {id}: event {seq} where {expected} was expected")));
            }
            let color: Option<String> = row.try_get("color")?;
            let action: String = row.try_get("action")?;
            events.push(Event {
                action: serde_json::from_str::<Action>(&action).map_err(|e| StoreError::Corrupt(e.to_string()))?,
                color: color.map(|c| c.parse::<Color>().map_err(|e| StoreError::Corrupt(e.to_string()))).transpose()?,
                at_ms: row.try_get("at_ms")?,
            });
        }
        Ok(events)
    }

    /// Appends event number `seq` to a game's log and updates its derived fields, in one
    /// transaction, committed before this returns.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when the log already has an event `seq`; a database error.
    pub async fn append(&self, id: &str, seq: i64, event: &Event, derived: &Derived) -> Result<(), StoreError> {
        let action = serde_json::to_string(&event.action).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let mut tx = self.pool.begin().await?;
        let inserted =
            sqlx::query("INSERT INTO events (game_id, seq, color, action, at_ms) VALUES ($1, $2, $3, $4, $5)")
                .bind(id)
                .bind(seq)
                .bind(event.color.map(color_name))
                .bind(action)
                .bind(event.at_ms)
                .execute(&mut *tx)
                .await;
        if let Err(e) = inserted {
            return Err(match &e {
                sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Conflict,
                _ => StoreError::Db(e),
            });
        }
        sqlx::query(
            "UPDATE games SET updated_ms = $2, events = $3, moves = $4, phase = $5, result = $6, deadline_ms = $7, \
             black_name = $8, white_name = $9 WHERE id = $1",
        )
        .bind(id)
        .bind(event.at_ms)
        .bind(derived.events)
        .bind(derived.moves)
        .bind(derived.phase)
        .bind(derived.result.clone())
        .bind(derived.deadline_ms)
        .bind(&derived.black_name)
        .bind(&derived.white_name)
        .execute(&mut *tx)
        .await?;
        if self.backend == Backend::Postgres {
            // Delivered at commit, to every server listening on this database.
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(CHANNEL)
                .bind(format!("{} {id}", self.instance))
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The most recently changed games, newest first.
    ///
    /// # Errors
    /// A database error.
    pub async fn recent(&self, limit: i64) -> Result<Vec<Summary>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, config, phase, result, moves, updated_ms, black_name, white_name FROM games \
             ORDER BY updated_ms DESC, id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let config: String = row.try_get("config")?;
                let config: Config = serde_json::from_str(&config).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                Ok(Summary {
                    id: row.try_get("id")?,
                    size: config.size,
                    // Games stored before the names were derived have none here.
                    black: row.try_get::<Option<String>, _>("black_name")?.unwrap_or(config.black_name),
                    white: row.try_get::<Option<String>, _>("white_name")?.unwrap_or(config.white_name),
                    phase: row.try_get("phase")?,
                    result: row.try_get("result")?,
                    moves: row.try_get("moves")?,
                    updated_ms: row.try_get("updated_ms")?,
                })
            })
            .collect()
    }

    /// Notes that this server is alive now.
    ///
    /// # Errors
    /// A database error.
    pub async fn heartbeat(&self, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO servers (instance, seen_ms) VALUES ($1, $2) \
             ON CONFLICT (instance) DO UPDATE SET seen_ms = excluded.seen_ms",
        )
        .bind(&self.instance)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The last moment any server (this one excepted) was alive on this database.
    ///
    /// # Errors
    /// A database error.
    pub async fn last_seen(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query("SELECT MAX(seen_ms) AS seen FROM servers WHERE instance <> $1")
            .bind(&self.instance)
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get("seen")?)
    }

    /// The ids of the games not over (placing, playing or counting), for the work a restart
    /// resumes: computer moves, clocks, dead-stone proposals.
    ///
    /// # Errors
    /// A database error.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE phase <> 'ended'").fetch_all(&self.pool).await?;
        rows.iter().map(|row| row.try_get("id").map_err(StoreError::from)).collect()
    }

    /// How many games are not finished (for the metrics).
    ///
    /// # Errors
    /// A database failure.
    pub async fn unfinished_count(&self) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM games WHERE phase <> 'ended'").fetch_one(&self.pool).await?;
        Ok(row.try_get("n")?)
    }

    /// Asks for a review of game `game_id` by `engine` at `strength`: a new job is queued; an
    /// existing one is kept as it is (queued, running, or done by the same engine and strength:
    /// a second request costs nothing) unless it failed or was done otherwise, when it is
    /// queued again. The job as it is now.
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
        sqlx::query(
            "INSERT INTO reviews (game_id, state, engine, strength, client, requested_ms, updated_ms, progress, \
             attempts) VALUES ($1, 'queued', $2, $3, $4, $5, $5, 0, 0) \
             ON CONFLICT (game_id) DO UPDATE SET state = 'queued', engine = excluded.engine, \
             strength = excluded.strength, client = excluded.client, requested_ms = excluded.requested_ms, \
             updated_ms = excluded.updated_ms, progress = 0, lease_owner = NULL, lease_until_ms = NULL, \
             attempts = 0, partial = NULL, result = NULL, error = NULL \
             WHERE reviews.state = 'failed' OR (reviews.state = 'done' AND \
             (reviews.engine <> excluded.engine OR reviews.strength <> excluded.strength))",
        )
        .bind(game_id)
        .bind(engine)
        .bind(strength)
        .bind(client)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        self.notify_review(game_id).await?;
        self.review(game_id).await?.ok_or_else(|| StoreError::Corrupt(format!("review of {game_id} vanished")))
    }

    /// Reviews `client` has queued or running (a lease not run out), besides that of
    /// `except`.
    ///
    /// # Errors
    /// A database error.
    pub async fn reviews_waiting_of(&self, client: &str, except: &str, now_ms: i64) -> Result<usize, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM reviews WHERE client = $1 AND game_id <> $2 \
             AND (state = 'queued' OR (state = 'running' AND lease_until_ms >= $3))",
        )
        .bind(client)
        .bind(except)
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")? as usize)
    }

    /// The review job of a game, if one was asked for.
    ///
    /// # Errors
    /// A database error.
    pub async fn review(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {REVIEW_COLUMNS} FROM reviews WHERE game_id = $1")))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(review_row).transpose()
    }

    /// Claims the next review job for worker `owner` until `lease_until_ms`: a queued job, or a
    /// running one whose lease ran out (its worker died or lost touch) — the oldest of the
    /// client served least: with the fewest jobs running or finished in the last
    /// [`REVIEW_TURNS_MS`], so that clients take turns even with one worker (counting the
    /// running jobs alone, always none with one worker, served the first come first). Each job is claimed by one worker at a time
    /// (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so that workers on other machines take other
    /// jobs; SQLite: one writer at a time). Only jobs of the playout search, or of `network`'s
    /// engine (`network:NAME`; empty for a worker without one). Jobs claimed
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
        let gave_up = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE reviews SET state = 'failed', lease_owner = NULL, updated_ms = $1, \
             error = 'its workers stopped {REVIEW_ATTEMPTS} times before the end' \
             WHERE state = 'running' AND lease_until_ms < $1 AND attempts >= {REVIEW_ATTEMPTS} RETURNING game_id"
        )))
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?;
        for row in &gave_up {
            self.notify_review(&row.try_get::<String, _>("game_id")?).await?;
        }
        let lock = if self.backend == Backend::Postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE reviews SET state = 'running', lease_owner = $1, lease_until_ms = $3, \
             attempts = attempts + 1, updated_ms = $2 WHERE game_id = (SELECT game_id FROM reviews AS r \
             WHERE (r.state = 'queued' OR (r.state = 'running' AND r.lease_until_ms < $2)) \
             AND (r.engine = 'playouts' OR r.engine = $4) ORDER BY (SELECT COUNT(*) FROM reviews AS o WHERE o.client = r.client \
             AND ((o.state = 'running' AND o.lease_until_ms >= $2) OR (o.state IN ('done', 'failed') AND o.updated_ms >= $2 - {REVIEW_TURNS_MS}))), \
             r.requested_ms, r.game_id LIMIT 1{lock}) \
             AND (state = 'queued' OR (state = 'running' AND lease_until_ms < $2)) RETURNING {REVIEW_COLUMNS}"
        )))
        .bind(owner)
        .bind(now_ms)
        .bind(lease_until_ms)
        .bind(network)
        .fetch_optional(&self.pool)
        .await?;
        let claimed = row.as_ref().map(review_row).transpose()?;
        if let Some(job) = &claimed {
            self.notify_review(&job.game_id).await?;
        }
        Ok(claimed)
    }

    /// Worker `owner` still holds the review of `game_id`: its lease runs to
    /// `lease_until_ms`, with its progress and the moves judged so far. `false` when the job is
    /// no longer this worker's (its lease ran out and another took it): it must stop.
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
        let done = sqlx::query(
            "UPDATE reviews SET lease_until_ms = $3, progress = $4, partial = $5, updated_ms = $6 \
             WHERE game_id = $1 AND lease_owner = $2 AND state = 'running'",
        )
        .bind(game_id)
        .bind(owner)
        .bind(lease_until_ms)
        .bind(progress)
        .bind(partial)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        let held = done.rows_affected() == 1;
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
        let done = sqlx::query(
            "UPDATE reviews SET state = $3, result = $4, error = $5, progress = CASE WHEN $3 = 'done' THEN 1 \
             ELSE progress END, partial = NULL, lease_owner = NULL, lease_until_ms = NULL, updated_ms = $6 \
             WHERE game_id = $1 AND lease_owner = $2 AND state = 'running'",
        )
        .bind(game_id)
        .bind(owner)
        .bind(state)
        .bind(result)
        .bind(error)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        let finished = done.rows_affected() == 1;
        if finished {
            self.notify_review(game_id).await?;
        }
        Ok(finished)
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

    /// Queues the computer's work on game `id` for its state after `events` events, as
    /// `client`'s: a job for an older state of the game is replaced (and its claim dropped),
    /// one for the same or a newer state is kept.
    ///
    /// # Errors
    /// A database error.
    pub async fn queue_computer(&self, id: &str, events: i64, client: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO computer_jobs (game_id, events, client, queued_ms, lease_owner, lease_until_ms) \
             VALUES ($1, $2, $3, $4, NULL, 0) ON CONFLICT (game_id) DO UPDATE SET events = excluded.events, \
             client = excluded.client, queued_ms = excluded.queued_ms, lease_owner = NULL, lease_until_ms = 0 \
             WHERE computer_jobs.events < excluded.events",
        )
        .bind(id)
        .bind(events)
        .bind(client)
        .bind(now_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Worker `owner` claims the computer's next job until `lease_until_ms`: one nobody holds
    /// (or whose lease ran out), of the client with the fewest jobs being worked on, oldest
    /// first. `(game id, events, client)`.
    ///
    /// # Errors
    /// A database error.
    pub async fn claim_computer(
        &self,
        owner: &str,
        now_ms: i64,
        lease_until_ms: i64,
    ) -> Result<Option<(String, i64, String)>, StoreError> {
        let lock = if self.backend == Backend::Postgres { " FOR UPDATE SKIP LOCKED" } else { "" };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE computer_jobs SET lease_owner = $1, lease_until_ms = $3 WHERE game_id = (SELECT game_id \
             FROM computer_jobs AS j WHERE j.lease_until_ms < $2 ORDER BY (SELECT COUNT(*) FROM computer_jobs AS o \
             WHERE o.client = j.client AND o.lease_until_ms >= $2), j.queued_ms, j.game_id LIMIT 1{lock}) \
             AND lease_until_ms < $2 RETURNING game_id, events, client"
        )))
        .bind(owner)
        .bind(now_ms)
        .bind(lease_until_ms)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((r.try_get("game_id")?, r.try_get("events")?, r.try_get("client")?))).transpose()
    }

    /// Worker `owner` still works on the computer's job of game `id`: its lease runs to
    /// `lease_until_ms`. `false` when the job is gone or another's.
    ///
    /// # Errors
    /// A database error.
    pub async fn renew_computer(&self, id: &str, owner: &str, lease_until_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE computer_jobs SET lease_until_ms = $3 WHERE game_id = $1 AND lease_owner = $2")
            .bind(id)
            .bind(owner)
            .bind(lease_until_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The computer's job of game `id` for its state after `events` events is over (done, or
    /// made pointless by a change of the game); a job queued since for a newer state stays.
    ///
    /// # Errors
    /// A database error.
    pub async fn finish_computer(&self, id: &str, events: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM computer_jobs WHERE game_id = $1 AND events = $2")
            .bind(id)
            .bind(events)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The computer's jobs of `client`, waiting or being worked on: those for their game's
    /// state now (one whose result is already in the log, about to be removed, is not).
    ///
    /// # Errors
    /// A database error.
    pub async fn computer_jobs_of(&self, client: &str) -> Result<usize, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM computer_jobs AS j JOIN games AS g ON g.id = j.game_id \
             WHERE j.client = $1 AND g.events = j.events",
        )
        .bind(client)
        .fetch_one(&self.pool)
        .await?;
        Ok(usize::try_from(row.try_get::<i64, _>("n")?).unwrap_or(usize::MAX))
    }

    /// The computer's jobs in the database: (waiting, being worked on under a lease).
    ///
    /// # Errors
    /// A database error.
    pub async fn computer_job_counts(&self, now_ms: i64) -> Result<(usize, usize), StoreError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(CASE WHEN lease_until_ms < $1 THEN 1 ELSE 0 END), 0) AS waiting, \
             COALESCE(SUM(CASE WHEN lease_until_ms >= $1 THEN 1 ELSE 0 END), 0) AS running FROM computer_jobs",
        )
        .bind(now_ms)
        .fetch_one(&self.pool)
        .await?;
        let count = |name: &str| -> Result<usize, StoreError> {
            Ok(usize::try_from(row.try_get::<i64, _>(name)?).unwrap_or(usize::MAX))
        };
        Ok((count("waiting")?, count("running")?))
    }

    /// Whether the database answers a trivial query.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

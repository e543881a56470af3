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

mod accounts;
mod challenges;
mod chat;
mod clocks;
mod jobs;
mod ratings;
mod reviews;

pub use accounts::AccountRow;
pub use challenges::{Acceptance, BLOCKS_NOTE, ChallengeRow, LOBBY_CHANNEL, NewChallenge};
pub use chat::{CHAT_CHANNEL, ChatRow};
pub use jobs::{Job, JobKind, TURNS_MS};
pub use ratings::Policy as RatingPolicy;
pub use ratings::{RatingChange, RatingRow};
pub use reviews::{REVIEW_ATTEMPTS, REVIEW_CHANNEL, ReviewRow};

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
    /// The accounts holding the seats (ids), Black's and White's.
    pub accounts: [Option<String>; 2],
    /// Whether the game is rated.
    pub rated: bool,
    /// Whose move it is while play goes on (`black`, `white`); none in counting or after.
    pub to_move: Option<&'static str>,
    /// A rated game's end, to be rated with the event that ends it.
    pub rated_end: Option<RatedEnd>,
}

/// What rating a finished rated game needs.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedEnd {
    /// Black's and White's accounts (`None`: the computer's seat).
    pub accounts: [Option<String>; 2],
    /// The computer's fixed rating, in a game against it.
    pub computer: Option<crate::domain::rating::Glicko>,
    /// Board size.
    pub size: usize,
    /// Handicap stones.
    pub handicap: u32,
    /// Komi in points.
    pub komi: f64,
    /// Black's score: 1 won, 0 lost, 0.5 drawn.
    pub black_score: f64,
    /// Moves played (a game shorter than the rating policy's is not rated).
    pub moves: i64,
}

impl RatedEnd {
    /// The rating question of a rated game that ended with Black's score `black_score`, its
    /// seats held by `accounts` (the computer's seat by none); `None` when it is not rated or a
    /// player's seat has no account.
    #[must_use]
    pub fn of(config: &Config, accounts: &[Option<String>; 2], black_score: f64, moves: i64) -> Option<RatedEnd> {
        if !config.rated {
            return None;
        }
        let computer = match config.computer {
            Some(c) if accounts[c.index()].is_none() => Some(config.computer_rating?),
            Some(_) => return None,
            None => None,
        };
        let humans = usize::from(computer.is_none()) + 1;
        if accounts.iter().filter(|a| a.is_some()).count() != humans {
            return None;
        }
        Some(RatedEnd {
            accounts: accounts.clone(),
            computer,
            size: config.size,
            handicap: u32::try_from(config.handicap).unwrap_or(u32::MAX),
            komi: f64::from(config.komi_half_points) / 2.0,
            black_score,
            moves,
        })
    }
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
    /// Black's rank on the size, when an account holds the seat (in the list of games in
    /// play only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_rank: Option<String>,
    /// White's rank, as Black's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white_rank: Option<String>,
}

/// A line of a list of an account's games, and the colour it plays (`black_account` in the
/// row besides [`summary_of`]'s columns).
fn summary_for(row: &sqlx::any::AnyRow, account_id: &str) -> Result<(Summary, Color), StoreError> {
    let black: Option<String> = row.try_get("black_account")?;
    let color = if black.as_deref() == Some(account_id) { Color::Black } else { Color::White };
    Ok((summary_of(row)?, color))
}

/// A line of a list of games from its row (`id, config, phase, result, moves, updated_ms,
/// black_name, white_name`).
fn summary_of(row: &sqlx::any::AnyRow) -> Result<Summary, StoreError> {
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
        black_rank: None,
        white_rank: None,
    })
}

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// When a rated game is rated ([`Store::with_rating_policy`]).
    policy: ratings::Policy,
    /// The address (PostgreSQL's listener opens its own connection).
    url: String,
    /// This process's name in change notifications, so that it skips its own.
    instance: String,
}

/// The PostgreSQL channel that carries `INSTANCE GAME-ID` after each committed event.
pub const CHANNEL: &str = "tengen_games";

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
        let store = Store { pool, backend, url, instance, policy: ratings::Policy::default() };
        store.fill_name_skeletons(crate::domain::name_skeleton).await?;
        Ok(store)
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
        let mut tx = self.pool.begin().await?;
        insert_game(&mut tx, game, derived).await?;
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
        let ends = derived.phase == "ended" && {
            let before: Option<String> =
                sqlx::query_scalar("SELECT phase FROM games WHERE id = $1").bind(id).fetch_optional(&mut *tx).await?;
            before.as_deref() != Some("ended")
        };
        let update = sqlx::query(
            "UPDATE games SET updated_ms = $2, events = $3, moves = $4, phase = $5, result = $6, deadline_ms = $7, \
             black_name = $8, white_name = $9, black_account = $10, white_account = $11, rated = $12, to_move = $13 \
             WHERE id = $1",
        )
        .bind(id)
        .bind(event.at_ms);
        bind_derived(update, derived).execute(&mut *tx).await?;
        // A rated game is rated in the transaction of the event that ends it: once.
        if ends && let Some(end) = &derived.rated_end {
            ratings::rate(&mut tx, self.backend, Some(&self.policy), id, end, event.at_ms).await?;
        }
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
        rows.iter().map(summary_of).collect()
    }

    /// The games whose seats `account_id` holds, most recently changed first (at most
    /// `limit`), with the colour it plays.
    ///
    /// # Errors
    /// A database error.
    pub async fn games_of(&self, account_id: &str, limit: i64) -> Result<Vec<(Summary, Color)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, config, phase, result, moves, updated_ms, black_name, white_name, black_account FROM games \
             WHERE black_account = $1 OR white_account = $1 ORDER BY updated_ms DESC, id LIMIT $2",
        )
        .bind(account_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(|row| summary_for(row, account_id)).collect()
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

    /// Whether the database answers a trivial query.
    ///
    /// # Errors
    /// A database failure.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }
}

/// Binds the derived columns, in the order both the insert and the update of a game name
/// them: events, moves, phase, result, deadline, names, accounts, rated, whose move.
fn bind_derived<'q>(
    query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
    derived: &'q Derived,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    query
        .bind(derived.events)
        .bind(derived.moves)
        .bind(derived.phase)
        .bind(derived.result.clone())
        .bind(derived.deadline_ms)
        .bind(&derived.black_name)
        .bind(&derived.white_name)
        .bind(&derived.accounts[0])
        .bind(&derived.accounts[1])
        .bind(i64::from(derived.rated))
        .bind(derived.to_move)
}

/// Inserts a new game (and an imported record) in a transaction.
/// Takes the accounts' locks until the transaction ends, so that what is counted of them and
/// written in it cannot race another transaction doing the same (the limits on open
/// challenges and games in play, the ratings). On PostgreSQL: their rows, a row that always
/// exists, `FOR NO KEY UPDATE` (foreign keys to them do not wait), in the order of their ids
/// so that two transactions over the same accounts cannot wait on each other. A statement
/// after this sees every change committed before it (READ COMMITTED reads anew each
/// statement). On SQLite the caller writes first: the transaction then holds the database's
/// write lock, and reads after its first write see every commit.
pub(crate) async fn lock_accounts(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    backend: Backend,
    ids: &[&str],
) -> Result<(), StoreError> {
    if backend != Backend::Postgres {
        return Ok(());
    }
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.dedup();
    for id in ids {
        sqlx::query("SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE")
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
    }
    Ok(())
}

pub(crate) async fn insert_game(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    game: &StoredGame,
    derived: &Derived,
) -> Result<(), StoreError> {
    let config = serde_json::to_string(&game.config).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let insert = sqlx::query(
        "INSERT INTO games (id, created_ms, updated_ms, config, black_token, white_token, sgf, size, events, moves, \
         phase, result, deadline_ms, black_name, white_name, black_account, white_account, rated, to_move) \
         VALUES ($1, $2, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
    )
    .bind(&game.id)
    .bind(game.created_ms)
    .bind(config)
    .bind(game.tokens[0].clone())
    .bind(game.tokens[1].clone())
    .bind(game.config.size as i64);
    bind_derived(insert, derived).execute(&mut **tx).await?;
    if let Some(sgf) = &game.sgf {
        sqlx::query("INSERT INTO records (game_id, sgf) VALUES ($1, $2)")
            .bind(&game.id)
            .bind(sgf)
            .execute(&mut **tx)
            .await?;
    }
    Ok(())
}

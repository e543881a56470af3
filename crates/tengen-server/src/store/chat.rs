//! A game's chat, and the list of games in play with the players' ranks (migration 11).

use sqlx::Row;

use super::{Backend, Store, StoreError, Summary, summary_of};
use crate::domain::rating::{Glicko, rank_label};

/// The PostgreSQL channel that carries `INSTANCE GAME-ID SEQ` after each chat message.
pub const CHAT_CHANNEL: &str = "tengen_chat";

/// A chat message as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRow {
    /// Its number in the game's chat, from 1.
    pub seq: i64,
    /// The author's account (none: a guest's seat).
    pub account_id: Option<String>,
    /// The author's name as shown.
    pub name: String,
    /// `black`, `white` or `watcher`.
    pub role: String,
    /// The text.
    pub body: String,
    /// Moves played when it was written.
    pub moves: i64,
    /// When (ms since the epoch).
    pub at_ms: i64,
}

fn chat_row(row: &sqlx::any::AnyRow) -> Result<ChatRow, sqlx::Error> {
    Ok(ChatRow {
        seq: row.try_get("seq")?,
        account_id: row.try_get("account_id")?,
        name: row.try_get("name")?,
        role: row.try_get("role")?,
        body: row.try_get("body")?,
        moves: row.try_get("moves")?,
        at_ms: row.try_get("at_ms")?,
    })
}

/// The rank shown for a seat: an account's on the size (a newcomer's when it has no rating
/// there), none for a guest or the computer.
fn seat_rank(row: &sqlx::any::AnyRow, side: &str) -> Result<Option<String>, sqlx::Error> {
    let (account, rating, deviation, volatility) = match side {
        "black" => ("black_account", "b_rating", "b_deviation", "b_volatility"),
        _ => ("white_account", "w_rating", "w_deviation", "w_volatility"),
    };
    if row.try_get::<Option<String>, _>(account)?.is_none() {
        return Ok(None);
    }
    let glicko = match row.try_get::<Option<f64>, _>(rating)? {
        Some(rating) => Glicko { rating, deviation: row.try_get(deviation)?, volatility: row.try_get(volatility)? },
        None => Glicko::default(),
    };
    Ok(Some(rank_label(&glicko)))
}

impl Store {
    /// Adds a message to a game's chat unless its author's share is full (the players' messages
    /// or the watchers', `most` each): its number, or `None`.
    ///
    /// The number is taken, and the share counted, in the statement that inserts the message: a
    /// transaction that read first and wrote after would, on SQLite, fail at once ("database is
    /// locked") when another message was written between its read and its write; and two
    /// messages written at once take the same number, so one of them is written again after
    /// the other, counting it.
    ///
    /// # Errors
    /// A database error (after a few tries when other messages keep taking the number or the
    /// database stays busy).
    pub async fn add_chat(&self, game_id: &str, message: &ChatRow, most: i64) -> Result<Option<i64>, StoreError> {
        let share = if message.role == "watcher" { "watcher" } else { "player" };
        let mut tries = 0;
        loop {
            let mut tx = self.pool.begin().await?;
            let inserted: Result<Option<i64>, sqlx::Error> = sqlx::query_scalar(
                "INSERT INTO chat (game_id, seq, account_id, name, role, body, moves, at_ms) \
                 SELECT $1, COALESCE(MAX(seq), 0) + 1, $2, $3, $4, $5, $6, $7 FROM chat WHERE game_id = $1 \
                 HAVING COALESCE(SUM(CASE WHEN (CASE WHEN role = 'watcher' THEN 'watcher' ELSE 'player' END) = $8 \
                 THEN 1 ELSE 0 END), 0) < $9 \
                 RETURNING seq",
            )
            .bind(game_id)
            .bind(&message.account_id)
            .bind(&message.name)
            .bind(&message.role)
            .bind(&message.body)
            .bind(message.moves)
            .bind(message.at_ms)
            .bind(share)
            .bind(most)
            .fetch_optional(&mut *tx)
            .await;
            let seq = match inserted {
                Err(sqlx::Error::Database(d)) if (d.is_unique_violation() || busy(d.as_ref())) && tries < 5 => {
                    tries += 1;
                    drop(tx);
                    tokio::time::sleep(std::time::Duration::from_millis(5 << tries)).await;
                    continue;
                }
                Err(e) => return Err(e.into()),
                Ok(None) => return Ok(None),
                Ok(Some(seq)) => seq,
            };
            if self.backend == Backend::Postgres {
                sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHAT_CHANNEL)
                    .bind(format!("{} {game_id} {seq}", self.instance))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            return Ok(Some(seq));
        }
    }

    /// A game's chat in order: the messages after number `after` (the first `limit`), or
    /// without `after` the latest `limit`.
    ///
    /// # Errors
    /// A database error.
    pub async fn chat_of(&self, game_id: &str, after: Option<i64>, limit: i64) -> Result<Vec<ChatRow>, StoreError> {
        let rows =
            match after {
                Some(after) => sqlx::query(
                    "SELECT seq, account_id, name, role, body, moves, at_ms FROM chat WHERE game_id = $1 AND seq > $2 \
                     ORDER BY seq LIMIT $3",
                )
                .bind(game_id)
                .bind(after)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?,
                None => {
                    let mut rows = sqlx::query(
                        "SELECT seq, account_id, name, role, body, moves, at_ms FROM chat WHERE game_id = $1 \
                     ORDER BY seq DESC LIMIT $2",
                    )
                    .bind(game_id)
                    .bind(limit)
                    .fetch_all(&self.pool)
                    .await?;
                    rows.reverse();
                    rows
                }
            };
        Ok(rows.iter().map(chat_row).collect::<Result<_, _>>()?)
    }

    /// One message of a game's chat.
    ///
    /// # Errors
    /// A database error.
    pub async fn chat_message(&self, game_id: &str, seq: i64) -> Result<Option<ChatRow>, StoreError> {
        let row = sqlx::query(
            "SELECT seq, account_id, name, role, body, moves, at_ms FROM chat WHERE game_id = $1 AND seq = $2",
        )
        .bind(game_id)
        .bind(seq)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(chat_row).transpose()?)
    }

    /// The games in play between players (both seats held by accounts) and the rated ones,
    /// most recently changed first, with both players' ranks.
    ///
    /// # Errors
    /// A database error.
    pub async fn playing(&self, limit: i64) -> Result<Vec<Summary>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.config, g.phase, g.result, g.moves, g.updated_ms, g.black_name, g.white_name, \
             g.black_account, g.white_account, \
             rb.rating AS b_rating, rb.deviation AS b_deviation, rb.volatility AS b_volatility, \
             rw.rating AS w_rating, rw.deviation AS w_deviation, rw.volatility AS w_volatility \
             FROM games g \
             LEFT JOIN ratings rb ON rb.account_id = g.black_account AND rb.size = g.size \
             LEFT JOIN ratings rw ON rw.account_id = g.white_account AND rw.size = g.size \
             WHERE g.phase <> 'ended' AND ((g.black_account IS NOT NULL AND g.white_account IS NOT NULL) OR g.rated = 1) \
             ORDER BY g.updated_ms DESC, g.id LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let mut summary = summary_of(row)?;
                summary.black_rank = seat_rank(row, "black")?;
                summary.white_rank = seat_rank(row, "white")?;
                Ok(summary)
            })
            .collect()
    }
}

/// SQLite's "database is locked" (`SQLITE_BUSY` and its extended codes): worth another try.
fn busy(e: &dyn sqlx::error::DatabaseError) -> bool {
    matches!(e.code().as_deref(), Some("5" | "261" | "517"))
}

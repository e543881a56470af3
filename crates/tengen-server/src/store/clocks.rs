//! What the clocks of several servers and a player's list of games to move in read from the
//! games table: the deadlines due, the clock keeper, whose move it is (migration 12), and when
//! each seat's player was last at the board (migration 13).

use sqlx::Row;
use tengen_core::Color;

use super::{Store, StoreError, Summary, summary_for};

impl Store {
    /// Unfinished games whose running clock's flag has fallen by `now_ms` (at most 100).
    ///
    /// # Errors
    /// A database error.
    pub async fn due_games(&self, now_ms: i64) -> Result<Vec<String>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM games WHERE phase <> 'ended' AND deadline_ms IS NOT NULL AND deadline_ms <= $1 \
             ORDER BY deadline_ms LIMIT 100",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await?)
    }

    /// The server that keeps the clocks of the database: the first by name of those alive
    /// since `alive_since_ms` (none: nobody else is).
    ///
    /// # Errors
    /// A database error.
    pub async fn clock_keeper(&self, alive_since_ms: i64) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query_scalar("SELECT instance FROM servers WHERE seen_ms >= $1 ORDER BY instance LIMIT 1")
            .bind(alive_since_ms)
            .fetch_optional(&self.pool)
            .await?)
    }

    /// The games in play whose move is `account_id`'s, the nearest deadline first, with the
    /// colour played and the deadline.
    ///
    /// # Errors
    /// A database error.
    pub async fn turns_of(&self, account_id: &str) -> Result<Vec<(Summary, Color, Option<i64>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, config, phase, result, moves, updated_ms, black_name, white_name, black_account, deadline_ms \
             FROM games WHERE phase <> 'ended' AND ((black_account = $1 AND to_move = 'black') \
             OR (white_account = $1 AND to_move = 'white')) \
             ORDER BY COALESCE(deadline_ms, 9223372036854775807), updated_ms LIMIT 200",
        )
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let (summary, color) = summary_for(row, account_id)?;
                Ok((summary, color, row.try_get("deadline_ms")?))
            })
            .collect()
    }

    /// Notes that `color`'s player of game `id` was at the board at `now_ms` (migration 13).
    ///
    /// # Errors
    /// A database error.
    pub async fn seat_seen(&self, id: &str, color: Color, now_ms: i64) -> Result<(), StoreError> {
        let sql = match color {
            Color::Black => "UPDATE games SET black_seen_ms = $2 WHERE id = $1",
            Color::White => "UPDATE games SET white_seen_ms = $2 WHERE id = $1",
        };
        sqlx::query(sql).bind(id).bind(now_ms).execute(&self.pool).await?;
        Ok(())
    }

    /// When each seat's player of game `id` was last seen at the board: Black's, White's.
    ///
    /// # Errors
    /// A database error.
    pub async fn seats_seen(&self, id: &str) -> Result<[Option<i64>; 2], StoreError> {
        let row = sqlx::query("SELECT black_seen_ms, white_seen_ms FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => [r.try_get("black_seen_ms")?, r.try_get("white_seen_ms")?],
            None => [None, None],
        })
    }
}

//! A game's chat: players and watchers write (limited in length and rate, each side to its
//! share); each message is kept with the game and sent to its watchers (`{"chat": …}` on the game's WebSocket, on
//! every node); a reader does not see the accounts they block.

use std::sync::Arc;

use serde::Serialize;
use tengen_core::Color;
use utoipa::ToSchema;

use super::AppState;
use super::accounts::Account;
use crate::domain::{CHAT_CHARS, NameError, check_chat};
use crate::error::ApiError;
use crate::store::ChatRow;
use crate::util::{lock, now_ms};

/// The most messages a game's chat keeps from its players, and as many from its watchers:
/// watchers cannot fill the players' share.
pub const CHAT_SHARE: i64 = 1_000;
/// The most messages a read of the chat gives.
pub const CHAT_PAGE: i64 = 500;

/// A chat message as shown.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ChatMessage {
    /// Its number in the game's chat, from 1.
    pub seq: i64,
    /// The author's name.
    pub name: String,
    /// `black` or `white` (a player), or `watcher`.
    pub role: String,
    /// The author plays without an account (a seat's link).
    pub guest: bool,
    /// The text, to be shown as text.
    pub text: String,
    /// Moves played when it was written.
    pub moves: i64,
    /// When (ms since the epoch).
    pub at_ms: i64,
}

impl ChatMessage {
    fn of(row: &ChatRow) -> ChatMessage {
        ChatMessage {
            seq: row.seq,
            name: row.name.clone(),
            role: row.role.clone(),
            guest: row.account_id.is_none(),
            text: row.body.clone(),
            moves: row.moves,
            at_ms: row.at_ms,
        }
    }
}

/// Who writes: a player's seat (by an account or a guest's token), or a logged-in watcher.
pub enum Author {
    /// The seat of `color`, held by `account` (none: a guest with the seat's link).
    Seat {
        /// The seat's colour.
        color: Color,
        /// The account that holds it.
        account: Option<Account>,
    },
    /// A logged-in watcher.
    Watcher(Account),
}

impl AppState {
    /// Writes `text` in game `id`'s chat as `author`; the message.
    ///
    /// # Errors
    /// 404 for an unknown game; 422 for a text that is empty, too long or unprintable; 429
    /// past the author's rate (a message a second, five at once) or the share of the author's
    /// side ([`CHAT_SHARE`]: the players', or the watchers').
    pub async fn say(&self, id: &str, author: Author, text: &str) -> Result<ChatMessage, ApiError> {
        let text = check_chat(text).map_err(|e| {
            let why = match e {
                NameError::Empty => "a message cannot be empty".to_owned(),
                NameError::Long => format!("a message is at most {CHAT_CHARS} characters"),
                NameError::Unprintable => {
                    "a message is one line of printable characters (no control, bidirectional or zero-width characters)"
                        .to_owned()
                }
            };
            ApiError::refused(why).because("chat_text")
        })?;
        let (_, state) = self.load(id).await?;
        if state.config.imported {
            return Err(ApiError::refused("an imported record has no chat").because("imported"));
        }
        let (key, account_id, name, role) = match author {
            Author::Seat { color, account } => {
                let seat_name = match color {
                    Color::Black => state.config.black_name.clone(),
                    Color::White => state.config.white_name.clone(),
                };
                let role = match color {
                    Color::Black => "black",
                    Color::White => "white",
                };
                let name = account.as_ref().map_or(seat_name, |a| a.name.clone());
                let key = account.as_ref().map_or_else(|| format!("{id}/{role}"), |a| a.id.clone());
                (key, account.map(|a| a.id), name, role)
            }
            Author::Watcher(a) => (a.id.clone(), Some(a.id), a.name, "watcher"),
        };
        self.quotas().chat(&key)?;
        let mut row = ChatRow {
            seq: 0,
            account_id,
            name,
            role: role.to_owned(),
            body: text,
            moves: state.game.moves().len() as i64,
            at_ms: now_ms(),
        };
        row.seq = self.store().add_chat(id, &row, CHAT_SHARE).await?.ok_or_else(|| {
            let whose = if role == "watcher" { "watchers'" } else { "players'" };
            ApiError::too_many(format!("this game's chat is full ({CHAT_SHARE} {whose} messages)"), 3600)
                .because("chat_full")
        })?;
        let message = ChatMessage::of(&row);
        self.tell_chat(id, &message);
        Ok(message)
    }

    /// Game `id`'s chat as `reader` sees it: without the messages of accounts the reader
    /// blocks; the messages after number `after` (at most `limit`, up to [`CHAT_PAGE`]), or
    /// without `after` the latest `limit`.
    ///
    /// # Errors
    /// 404 for an unknown game; a database error.
    pub async fn chat(
        &self,
        id: &str,
        reader: Option<&Account>,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<ChatMessage>, ApiError> {
        self.chat_rows(id, reader, after, limit.clamp(1, CHAT_PAGE)).await
    }

    /// Game `id`'s whole chat as `reader` sees it (both shares: a record's comments).
    ///
    /// # Errors
    /// 404 for an unknown game; a database error.
    pub async fn whole_chat(&self, id: &str, reader: Option<&Account>) -> Result<Vec<ChatMessage>, ApiError> {
        self.chat_rows(id, reader, Some(0), 2 * CHAT_SHARE).await
    }

    async fn chat_rows(
        &self,
        id: &str,
        reader: Option<&Account>,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Vec<ChatMessage>, ApiError> {
        self.load(id).await?;
        let blocked: Vec<String> = match reader {
            Some(r) => self.store().blocks_of(&r.id).await?.into_iter().map(|(id, _)| id).collect(),
            None => Vec::new(),
        };
        let rows = self.store().chat_of(id, after, limit).await?;
        Ok(rows
            .iter()
            .filter(|r| r.account_id.as_ref().is_none_or(|a| !blocked.contains(a)))
            .map(ChatMessage::of)
            .collect())
    }

    /// A message written on another node: to this node's watchers of the game.
    pub async fn chat_changed(&self, id: &str, seq: i64) {
        match self.store().chat_message(id, seq).await {
            Ok(Some(row)) => self.tell_chat(id, &ChatMessage::of(&row)),
            Ok(None) => {}
            Err(e) => tracing::warn!("chat of {id}: {e}"),
        }
    }

    fn tell_chat(&self, id: &str, message: &ChatMessage) {
        let Ok(json) = serde_json::to_string(&serde_json::json!({ "chat": message })) else { return };
        let hub = lock(&self.0.hub);
        if let Some(sender) = hub.get(id) {
            let _ = sender.send(Arc::from(json));
        }
    }
}

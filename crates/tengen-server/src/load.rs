//! A game's state from what the store holds: its event log replayed, or its imported record
//! read. Below the application and the handlers, above the domain and the store.

use crate::domain::{Event, State};
use crate::error::ApiError;
use crate::store::StoredGame;

/// A stored game's state: its log replayed, or its imported record.
///
/// # Errors
/// 500 when the log or the record does not replay.
pub fn state_of(stored: &StoredGame, events: &[Event]) -> Result<State, ApiError> {
    if stored.config.imported {
        let text = stored.sgf.as_deref().unwrap_or("");
        let record = tengen_sgf::Record::read(text).map_err(|e| ApiError::internal(&e))?;
        // As the import replayed it (records imported before it refused a move that cannot be
        // replayed leave such moves out).
        let replay = record
            .replay_under(tengen_core::Rules::chinese(), tengen_sgf::IllegalMoves::Skip)
            .map_err(|e| ApiError::internal(&e))?;
        Ok(State::imported(stored.config.clone(), replay.game, stored.created_ms))
    } else {
        Ok(State::replay(stored.config.clone(), stored.created_ms, events)?)
    }
}

//! The study endpoints: live analysis of any position (`/api/analysis`), a game's record
//! information and comments (`/api/games/{id}/info`), and its SGF with the variations a
//! viewer played (`POST /api/games/{id}/sgf`).

use tengen_core::{Game, Move};

use crate::domain::{GameError, MAX_MOVES, State};
use crate::error::ApiError;
use crate::store::StoredGame;

/// Plays `line` (vertices or `pass`, colours alternating from the side to move) on `game`,
/// as the rules core judges them; play resumes where two passes had stopped it.
///
/// # Errors
/// 400 for a line longer than a game; 422 for a move that does not read (`move`) and, with
/// the rules' sentence (`occupied`, `suicide`, `ko`, `superko` …), for an illegal move.
pub(crate) fn play_line(game: &mut Game, line: &[String], what: &str) -> Result<(), ApiError> {
    if line.len() > MAX_MOVES {
        return Err(ApiError::bad_request(format!("{what}: at most {MAX_MOVES} moves")));
    }
    for (i, text) in line.iter().enumerate() {
        let mv: Move = text.trim().parse().map_err(|_| {
            ApiError::refused(format!("{what}: move {} is not a vertex or pass: {text:?}", i + 1)).because("move")
        })?;
        let color = game.to_move();
        if let Err(e) = game.play_on(color, mv) {
            let mut refusal = ApiError::from(GameError::Play(e));
            refusal.detail = format!("{what}: move {} ({color} {mv}): {}", i + 1, refusal.detail);
            return Err(refusal);
        }
    }
    Ok(())
}

/// Whether viewers may study a game (review, variations, analysis): imported, or ended.
pub(crate) fn studied(stored: &StoredGame, state: &State) -> bool {
    stored.config.imported || crate::domain::view::phase_of(state) == "ended"
}

/// The position of `game` after `at` moves (all when absent), in play again (a finished
/// game's end undone).
///
/// # Errors
/// 422 (`at`) when the game has fewer moves.
pub(crate) fn position_at(game: &Game, at: Option<usize>) -> Result<Game, ApiError> {
    let moves = game.moves().len();
    match at {
        Some(at) if at > moves => Err(ApiError::refused(format!("at: the game has {moves} moves")).because("at")),
        at => Ok(game.truncated(at.unwrap_or(moves))),
    }
}

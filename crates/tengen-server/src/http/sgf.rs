//! SGF in and out of the API: an upload replayed under the server's limits, a game's record,
//! the download's headers.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use tengen_core::Rules;

use crate::error::ApiError;

/// The first game of an SGF file, replayed under `rules` (their komi unless the record gives
/// one), whatever the record's `RU` says: a move that cannot be replayed refuses the record
/// rather than give a different game. `suffix` ends the sentences of the refusals.
///
/// # Errors
/// 413 past the limits, 400 without a game tree, 422 for a record that does not read
/// (`sgf_unreadable`) or replay (`sgf_replay`).
pub(crate) fn replay_sgf(
    bytes: &[u8],
    limits: &tengen_sgf::Limits,
    rules: Rules,
    suffix: &str,
) -> Result<(tengen_sgf::Record, tengen_sgf::Replay), ApiError> {
    let (records, _) = tengen_sgf::Record::read_bytes_within(bytes, limits).map_err(|e| match e {
        tengen_sgf::ReadError::TooLarge(e) => ApiError::too_large(format!("{e}{suffix}")),
        e @ tengen_sgf::ReadError::Empty => ApiError::bad_request(e.to_string()).because("sgf_none"),
        e => ApiError::refused(format!("not an SGF game: {e}")).because("sgf_unreadable"),
    })?;
    let record = records.into_iter().next().ok_or_else(|| ApiError::bad_request("the file holds no game"))?;
    let replay = record
        .replay_under(rules, tengen_sgf::IllegalMoves::Stop)
        .map_err(|e| ApiError::refused(format!("the record cannot be replayed: {e}")).because("sgf_replay"))?;
    if let Some(problem) = replay.problems.first() {
        let (cause, color) = match problem.refused {
            Some((color, _, play)) => (Some(crate::domain::GameError::Play(play).reason()), Some(color)),
            None => (None, None),
        };
        return Err(ApiError::refused(format!(
            "move {} cannot be replayed under the Chinese rules ({}){suffix}",
            problem.move_number, problem.message
        ))
        .because("sgf_replay")
        .at_move(problem.move_number, cause, color));
    }
    Ok((record, replay))
}

pub(crate) use crate::service::load::game_record;

/// An SGF download of game `id`.
pub(crate) fn sgf_response(id: &str, text: String) -> Response {
    let disposition = format!("attachment; filename=\"tengen-{id}.sgf\"");
    (
        [
            (header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response()
}

//! Studying a game: its record information and its SGF with variations.

use crate::guard::Limits;
use crate::http::extract::BodyLimit;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::State as AxumState;
use axum::response::Response;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};
use tengen_core::{Color, Move};
use utoipa::ToSchema;

use crate::domain::printable_line;
use crate::error::ApiError;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::service::AppState;
use crate::service::study::{play_line, position_at, studied};

/// A game's record information and its SGF with variations (SGF in JSON: the larger limit).
pub(super) fn routes(limits: &Limits) -> Router<AppState> {
    let sgf_json = super::sgf_json_limit(limits);
    Router::new()
        .route(
            "/api/games/{id}/sgf",
            post(sgf_with_lines).layer((DefaultBodyLimit::max(sgf_json), Extension(BodyLimit(sgf_json)))),
        )
        .route("/api/games/{id}/info", get(info))
}

/// A comment of a record, by the moves played when it is read.
#[derive(Serialize, ToSchema)]
pub(crate) struct CommentView {
    /// 0 for the record's own comment, `n` for move `n`'s.
    number: usize,
    /// The comment.
    text: String,
}

/// A game's record information: for an imported game as its record gives it (its own rules
/// and result as written, even where the server replays it under the Chinese rules).
#[derive(Serialize, ToSchema)]
pub(crate) struct GameInfoView {
    /// Whether the game was imported from an SGF record.
    imported: bool,
    /// Black's name (`PB`).
    black: Option<String>,
    /// Black's rank (`BR`).
    black_rank: Option<String>,
    /// White's name (`PW`).
    white: Option<String>,
    /// White's rank (`WR`).
    white_rank: Option<String>,
    /// Date (`DT`).
    date: Option<String>,
    /// Event (`EV`).
    event: Option<String>,
    /// Round (`RO`).
    round: Option<String>,
    /// Result as the record writes it (`RE`): `B+R`, `W+3.5` …; a played game's own.
    result: Option<String>,
    /// Rules as the record writes them (`RU`), e.g. `Japanese`; `Chinese` for a played game.
    rules: Option<String>,
    /// Komi in points.
    komi: f64,
    /// Board size.
    size: usize,
    /// Handicap stones.
    handicap: usize,
    /// The record's comments (`C`) along its main line.
    comments: Vec<CommentView>,
    /// Variations in the record besides its main line (branch points).
    variations: usize,
    /// The record's variations as lines from its main line, each to a leaf of its tree (for a
    /// record of at most 5,000 nodes; at most 200 lines).
    lines: Vec<VariationView>,
}

/// A variation of a record: its moves after the main line's first `at` moves.
#[derive(Serialize, ToSchema)]
pub(crate) struct VariationView {
    /// The moves of the main line before it.
    at: usize,
    /// Its moves (`D4`, `pass`), colours alternating from the side to move there.
    moves: Vec<String>,
}

/// The record information of a game: players and ranks, date, event, round, result, rules,
/// komi, and the comments of its main line. Each line of information is served as printable
/// text: an imported record's control, bidirectional and zero-width characters are taken out.
#[utoipa::path(get, tag = "study", path = "/api/games/{id}/info", params(("id" = String, Path)),
    responses((status = 200, body = GameInfoView), (status = 404, body = ErrorBody)))]
pub(crate) async fn info(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<GameInfoView>, ApiError> {
    let (stored, state) = app.load(&id).await?;
    // A played game's record is written from its moves: its players, result and rules, no
    // comments and no variations.
    let summary = app.record_summary(&stored, &state).await?;
    let info = &summary.info;
    let comments =
        summary.comments.iter().map(|(number, text)| CommentView { number: *number, text: text.clone() }).collect();
    Ok(Json(GameInfoView {
        imported: stored.config.imported,
        black: info.black.as_deref().and_then(printable_line),
        black_rank: info.black_rank.as_deref().and_then(printable_line),
        white: info.white.as_deref().and_then(printable_line),
        white_rank: info.white_rank.as_deref().and_then(printable_line),
        date: info.date.as_deref().and_then(printable_line),
        event: info.event.as_deref().and_then(printable_line),
        round: info.round.as_deref().and_then(printable_line),
        result: info.result.as_deref().and_then(printable_line),
        rules: info.rules.as_deref().and_then(printable_line),
        komi: state.game.rules().komi.points(),
        size: state.config.size,
        handicap: state.game.handicap(),
        comments,
        variations: summary.branch_points,
        lines: summary
            .lines
            .iter()
            .map(|l| VariationView { at: l.at, moves: l.moves.iter().map(|(_, m)| m.to_string()).collect() })
            .collect(),
    }))
}

/// A variation: moves after the main line's first `at` moves.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct LineRequest {
    /// The moves of the main line before it.
    #[schema(minimum = 0, maximum = 2000)]
    at: usize,
    /// Its moves (`D4`, `pass`), colours alternating from the side to move there.
    #[schema(max_items = 1200)]
    moves: Vec<String>,
}

/// Variations to write into a game's SGF.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SgfRequest {
    /// The variations, each checked by the rules; lines that start alike share their nodes.
    #[serde(default)]
    #[schema(max_items = 200)]
    variations: Vec<LineRequest>,
}

/// The most variations one SGF request may add.
const MAX_LINES: usize = 200;

/// The game as SGF with variations: the record (an imported game's own, with its comments
/// and variations) and the lines given, each after its move of the main line, so that an
/// SGF editor shows them as branches. Variations only of a game studied (ended or imported),
/// as everywhere else; without them, any game's record.
#[utoipa::path(post, tag = "study", path = "/api/games/{id}/sgf", params(("id" = String, Path)), request_body = Option<SgfRequest>,
    responses((status = 200, content_type = "application/x-go-sgf", body = String),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "variations of a game still in play (`in_play`)"),
        (status = 422, body = ErrorBody, description = "an unreadable or illegal move in a variation, or one after a move the game does not have")))]
pub(crate) async fn sgf_with_lines(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    Body(req): Body<SgfRequest>,
) -> Result<Response, ApiError> {
    if req.variations.len() > MAX_LINES {
        return Err(ApiError::bad_request(format!("variations: at most {MAX_LINES}")));
    }
    let (stored, state) = app.load(&id).await?;
    if !req.variations.is_empty() && !studied(&stored, &state) {
        return Err(ApiError::in_conflict(
            "the game is still in play: variations are written into its record when it has ended",
        )
        .because("in_play"));
    }
    let mut record = app.record_of(&stored, &state).await?;
    let size = state.config.size;
    for (i, line) in req.variations.iter().enumerate() {
        let what = format!("variations[{i}]");
        let mut game = position_at(&state.game, Some(line.at))?;
        let start = game.moves().len();
        play_line(&mut game, &line.moves, &what)?;
        let moves: Vec<(Color, Move)> = game.moves()[start..].to_vec();
        record.add_line(line.at, &moves, size).map_err(|e| ApiError::refused(format!("{what}: {e}")).because("at"))?;
    }
    Ok(crate::http::sgf::sgf_response(&id, record.to_sgf()))
}

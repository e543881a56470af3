//! Reviews: asking for a game's review, reading it, and cancelling it.

use axum::Json;
use axum::Router;
use axum::extract::State as AxumState;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::guard::Client;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::service::study::studied;
use crate::service::{AppState, now_ms};

/// A game's review: asked, read and cancelled.
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/review", get(review_read).post(review_request).delete(review_cancel))
}

/// The strength of a review: simulations of the playout search, or visits of the network
/// (when the server has one), a position. Neither: the network at the server's default visits
/// (`--review-default-visits`) when it has one, else the playout search at 1,000.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewRequest {
    /// Visits a position of the network's search (1 to the server's limit, 400 by default).
    #[schema(minimum = 1)]
    visits: Option<u32>,
    /// Simulations a position of the playout search (1 to the server's limit, 10,000 by default).
    #[schema(minimum = 1)]
    playouts: Option<u32>,
}

/// Simulations a position of a review that asks no strength (`tengen review`'s level 5).
const REVIEW_PLAYOUTS: u32 = 1_000;

/// Asks for the review of a finished or imported game: every move judged by the search (win
/// rate and lead before and after, points lost, the best move and its line, 恶手 / 疑问手 /
/// 妙手 …), the biggest mistakes. Queued for a worker; its progress and the moves judged so
/// far come with `GET` and on the game's WebSocket. Asking again for the same strength costs
/// nothing: the job (or its result) is the one there.
#[utoipa::path(post, tag = "reviews", path = "/api/games/{id}/review", params(("id" = String, Path)), request_body = Option<ReviewRequest>,
    responses((status = 202, body = crate::service::reviews::ReviewView, description = "the job as it is now"),
        (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "the game is still in play (`in_play`)"),
        (status = 422, body = ErrorBody, description = "a strength past the server's limits (`strength`; or more work in all, moves times strength, than a review may ask), visits without a network (`no_network`), both asked"),
        (status = 429, body = ErrorBody, description = "this address has as many reviews queued or running as it may")))]
async fn review_request(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    Body(req): Body<ReviewRequest>,
) -> Result<Response, ApiError> {
    let limits = app.limits();
    let (engine, strength) = match (req.visits, req.playouts, app.network()) {
        (Some(_), Some(_), _) => {
            return Err(ApiError::refused("ask visits (the network) or playouts, not both").because("strength"));
        }
        (Some(_), None, None) => {
            return Err(ApiError::refused("this server has no network: ask playouts").because("no_network"));
        }
        (Some(visits), None, Some(network)) => {
            if visits == 0 || visits > limits.review_visits {
                return Err(ApiError::refused(format!("visits: 1 to {}", limits.review_visits)).because("strength"));
            }
            (crate::service::reviews::network_engine(network), visits)
        }
        (None, None, Some(network)) => (
            crate::service::reviews::network_engine(network),
            limits.review_default_visits.clamp(1, limits.review_visits),
        ),
        (None, playouts, _) => {
            let playouts = playouts.unwrap_or(REVIEW_PLAYOUTS);
            if playouts == 0 || playouts > limits.review_playouts {
                return Err(ApiError::refused(format!("playouts: 1 to {}", limits.review_playouts)).because("strength"));
            }
            (crate::service::reviews::PLAYOUTS.to_owned(), playouts)
        }
    };
    let (stored, state) = app.load(&id).await?;
    if !studied(&stored, &state) {
        return Err(
            ApiError::in_conflict("the game is still in play: it is reviewed when it has ended").because("in_play")
        );
    }
    if state.game.moves().is_empty() {
        return Err(ApiError::refused("the game has no moves to review").because("no_moves"));
    }
    let network = engine != crate::service::reviews::PLAYOUTS;
    let moves = state.game.moves().len();
    let work = crate::service::reviews::review_work(network, state.config.size, moves, strength);
    if work > limits.review_work {
        let unit = crate::service::reviews::review_work(network, state.config.size, moves, 1);
        let most = limits.review_work / unit.max(1);
        return Err(ApiError::refused(format!(
            "a review of {} moves at {strength} a position is more work than a review may ask ({} in all): ask {most} or fewer",
            state.game.moves().len(),
            limits.review_work
        ))
        .because("strength"));
    }
    let waiting = app.store().reviews_waiting_of(&client.0.to_string(), &id).await?;
    if waiting >= limits.reviews_per_client {
        return Err(ApiError::too_many(
            format!(
                "{waiting} reviews of this address are queued or running (at most {}): ask again when one is done",
                limits.reviews_per_client
            ),
            10,
        ));
    }
    let row = app.store().request_review(&id, &engine, i64::from(strength), &client.0.to_string(), now_ms()).await?;
    app.review_changed(&id).await;
    let view = crate::service::reviews::ReviewView::of(&row)?;
    Ok((StatusCode::ACCEPTED, Json(view)).into_response())
}

/// The review of a game: its state (`none` until one is asked, then `queued`, `running`,
/// `done`, `failed` or `cancelled`), progress, and the moves judged so far (all of them when done), with
/// the biggest mistakes.
#[utoipa::path(get, tag = "reviews", path = "/api/games/{id}/review", params(("id" = String, Path)),
    responses((status = 200, body = crate::service::reviews::ReviewView), (status = 404, body = ErrorBody)))]
async fn review_read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<crate::service::reviews::ReviewView>, ApiError> {
    app.load(&id).await?;
    Ok(Json(match app.store().review(&id).await? {
        Some(row) => crate::service::reviews::ReviewView::of(&row)?,
        None => crate::service::reviews::ReviewView::none(&id),
    }))
}

/// Cancels the review of a game, queued or running, for the address that asked for it: a
/// worker on it stops at its next renewal (within a second), and the review is `cancelled`
/// (asked again, it starts afresh).
#[utoipa::path(delete, tag = "reviews", path = "/api/games/{id}/review", params(("id" = String, Path)),
    responses((status = 200, body = crate::service::reviews::ReviewView, description = "cancelled"),
        (status = 403, body = ErrorBody, description = "another address asked for it"),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody, description = "no review queued or running")))]
async fn review_cancel(
    AxumState(app): AxumState<AppState>,
    client: Client,
    GameId(id): GameId,
) -> Result<Json<crate::service::reviews::ReviewView>, ApiError> {
    app.load(&id).await?;
    let Some((row, cancelled)) = app.store().cancel_review(&id, &client.0.to_string(), now_ms()).await? else {
        return Err(ApiError::in_conflict("no review of this game was asked for").because("no_review"));
    };
    if !cancelled {
        if matches!(row.state.as_str(), "queued" | "running") {
            return Err(ApiError::not_yours("another address asked for this review: only it may cancel it"));
        }
        return Err(ApiError::in_conflict(format!("the review is {}: there is nothing to cancel", row.state))
            .because("no_review"));
    }
    app.review_changed(&id).await;
    Ok(Json(crate::service::reviews::ReviewView::of(&row)?))
}

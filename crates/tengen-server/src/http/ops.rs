//! Operations: health, readiness, metrics, the computer's levels and the OpenAPI document.

use axum::Json;
use axum::Router;
use axum::extract::State as AxumState;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::doc::document;
use crate::error::ApiError;
use crate::http::extract::ErrorBody;
use crate::service::AppState;

/// Health, readiness, metrics, the levels and the OpenAPI document.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/openapi.json", get(openapi))
        .route("/api/levels", get(levels))
}

/// Liveness: the process answers.
#[utoipa::path(get, tag = "ops", path = "/healthz", responses((status = 200, body = String, description = "ok")))]
async fn healthz() -> &'static str {
    "ok"
}

/// What each level of the computer means on this server: its search, how much it searches,
/// its approximate strength, and on which sizes a game against it may be rated.
#[utoipa::path(get, tag = "ops", path = "/api/levels", responses((status = 200, body = Vec<crate::levels::Level>)))]
async fn levels(AxumState(app): AxumState<AppState>) -> Json<Vec<crate::levels::Level>> {
    let mut levels = crate::levels::levels(app.has_network());
    if !app.limits().rated_computer {
        levels.iter_mut().flat_map(|l| &mut l.strengths).for_each(|s| s.rated = false);
    }
    Json(levels)
}

/// Readiness: the database answers.
#[utoipa::path(get, tag = "ops", path = "/readyz", responses((status = 200, body = String, description = "ready"),
    (status = 503, body = ErrorBody, description = "the database does not answer")))]
async fn readyz(AxumState(app): AxumState<AppState>) -> Result<&'static str, ApiError> {
    match tokio::time::timeout(std::time::Duration::from_secs(2), app.store().ping()).await {
        Ok(Ok(())) => Ok("ready"),
        Ok(Err(e)) => {
            tracing::warn!("readiness: the database does not answer: {e}");
            Err(ApiError::unavailable("the database does not answer", 5))
        }
        Err(_) => Err(ApiError::unavailable("the database does not answer within 2 s", 5)),
    }
}

/// Metrics in the Prometheus text format: answers by route and status, latencies, games in
/// play, the computer's queue, connections and WebSocket watchers.
#[utoipa::path(get, tag = "ops", path = "/metrics", responses((status = 200, body = String, content_type = "text/plain")))]
async fn metrics(AxumState(app): AxumState<AppState>) -> Result<Response, ApiError> {
    let in_play = app.store().unfinished_count().await?;
    let (waiting, running) = app.computer_queue().await?;
    let gauges = [
        ("tengen_games_in_play", "Games not finished.", in_play as u64),
        ("tengen_computer_moves_waiting", "The computer's moves and proposals waiting.", waiting as u64),
        ("tengen_computer_moves_running", "The computer's searches running.", running as u64),
    ];
    let text = app.metrics().render(&gauges);
    Ok(([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], text).into_response())
}

async fn openapi() -> Json<&'static serde_json::Value> {
    Json(document())
}

//! One error type for the API: an HTTP status and a JSON body `{"error": …, "detail": …}`.
//! Database and internal failures are logged; the client gets a generic message.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::store::StoreError;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// A short code: `not_found`, `refused`, …
    pub error: &'static str,
    /// What went wrong, for people.
    pub detail: String,
}

impl ApiError {
    fn new(status: StatusCode, error: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError { status, error, detail: detail.into() }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", detail)
    }

    /// 401: a seat token is needed.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "this needs a seat token: Authorization: Bearer TOKEN (from the game's creation)",
        )
    }

    /// 403: the token is not a seat of this game.
    pub fn forbidden() -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", "this token is not a seat of this game")
    }

    /// 404: no such game.
    pub fn not_found(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no game {shown}"))
    }

    /// 404: no such route.
    pub fn no_route(path: &str) -> ApiError {
        let shown: String = path.chars().take(80).collect();
        ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no such address: {shown}"))
    }

    /// 405: the route exists with other methods.
    pub fn wrong_method(method: &str, path: &str) -> ApiError {
        let shown: String = path.chars().take(80).collect();
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{method} is not served at {shown}"),
        )
    }

    /// 409: the request was based on an older state of the game.
    pub fn stale(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "stale", detail)
    }

    /// 422: the rules or the game's state refuse the action.
    pub fn refused(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "refused", detail)
    }

    /// 500, logged with its cause; the client sees no internals.
    pub fn internal(cause: &dyn std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {cause}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the server failed; the game is unchanged")
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict => ApiError::stale("the game changed meanwhile: reload it and try again"),
            other => ApiError::internal(&other),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(serde_json::json!({ "error": self.error, "detail": self.detail }))).into_response()
    }
}

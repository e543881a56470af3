//! The HTTP layer: one router per feature (games, seats, records, study, reviews, analysis,
//! ops), merged here with the fallbacks and the default body limit; the OpenAPI document
//! (`doc`); the shared extractors, WebSocket upgrades, SGF in and out, and the middleware.
//! `accounts::same_site` refuses requests under a login from other sites' pages.
//! Handlers read a request, call the application ([`crate::service`]) and shape its answer.

pub mod accounts;
pub mod analysis;
mod challenges;
mod chat;
pub(crate) mod connections;
mod doc;
pub mod extract;
pub mod games;
pub mod middleware;
mod ops;
mod rated;
pub mod records;
pub mod reviews;
pub mod seats;
pub mod sgf;
pub mod study;
pub mod ws;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, header};

use crate::error::ApiError;
use crate::guard::Limits;
use crate::service::AppState;

/// The API's routes, all under `/api`, and the health and metrics endpoints.
pub fn routes(state: AppState) -> Router {
    let limits = state.limits().clone();
    Router::new()
        .merge(ops::routes())
        .merge(accounts::routes())
        .merge(challenges::routes())
        .merge(chat::routes())
        .merge(games::routes())
        .merge(seats::routes())
        .merge(records::routes(&limits))
        .merge(study::routes(&limits))
        .merge(reviews::routes())
        .merge(analysis::routes(&limits))
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .layer(axum::middleware::from_fn_with_state(state.clone(), accounts::same_site))
        .with_state(state)
}

/// The body limit of the routes that take SGF in a JSON body: the larger of the two limits.
fn sgf_json_limit(limits: &Limits) -> usize {
    limits.sgf.bytes.max(limits.body_bytes)
}

async fn no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::no_route(uri.path())
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::wrong_method(method.as_str(), uri.path())
}

/// A game's view already written as JSON (`domain::view::View`, built once for a change and
/// sent to the watchers too).
pub(crate) struct ViewJson(pub std::sync::Arc<str>);

impl axum::response::IntoResponse for ViewJson {
    fn into_response(self) -> axum::response::Response {
        ([(header::CONTENT_TYPE, "application/json")], self.0.to_string()).into_response()
    }
}

/// The seat token of a request's `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

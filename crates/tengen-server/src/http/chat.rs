//! A game's chat: read it, write in it (a player by the seat's token or login, a watcher by
//! login).

use axum::extract::{Query, State as AxumState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use utoipa::ToSchema;

use super::bearer;
use crate::error::ApiError;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::service::AppState;
use crate::service::chat::{Author, ChatMessage};

pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api/games/{id}/chat", get(read).post(write))
}

/// A message to write.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ChatRequest {
    /// One line of 1 to 500 printable characters.
    #[schema(min_length = 1, max_length = 500)]
    text: String,
}

/// Which messages of the chat to read.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct Page {
    /// The messages after this number (none: the latest).
    #[param(minimum = 0)]
    after: Option<u32>,
    /// How many, at most (default 200, at most 500).
    #[param(minimum = 1, maximum = 500)]
    limit: Option<u16>,
}

/// The game's chat, in order, a page at a time (without the messages of accounts the
/// logged-in reader blocks): the latest 200, or with `after` the next ones.
#[utoipa::path(get, tag = "chat", path = "/api/games/{id}/chat", params(("id" = String, Path), Page),
    responses((status = 200, body = Vec<ChatMessage>), (status = 400, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    headers: HeaderMap,
    page: Result<Query<Page>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Vec<ChatMessage>>, ApiError> {
    let Query(page) = page.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let limit = i64::from(page.limit.unwrap_or(200));
    if !(1..=crate::service::chat::CHAT_PAGE).contains(&limit) {
        return Err(ApiError::bad_request(format!("limit is 1 to {}", crate::service::chat::CHAT_PAGE)));
    }
    let reader = super::accounts::logged_in(&app, &headers).await?;
    Ok(Json(app.chat(&id, reader.as_ref(), page.after.map(i64::from), limit).await?))
}

/// Writes in the game's chat: as a player with the seat's token (or the login that holds the
/// seat), else as a logged-in watcher. Every watcher of the game gets it live
/// (`{"chat": ChatMessage}` on `/api/games/{id}/live`).
#[utoipa::path(post, tag = "chat", path = "/api/games/{id}/chat", params(("id" = String, Path)), request_body = ChatRequest,
    security((), ("seat" = [])),
    responses((status = 201, body = ChatMessage),
        (status = 401, body = ErrorBody, description = "neither a seat's token nor a login"),
        (status = 403, body = ErrorBody, description = "a token of another game"),
        (status = 404, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "an empty, long or unprintable text (chat_text); an imported record"),
        (status = 429, body = ErrorBody, description = "more than a message a second (chat_rate), or the chat is full (chat_full)")))]
async fn write(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    headers: HeaderMap,
    Body(req): Body<ChatRequest>,
) -> Result<Response, ApiError> {
    let account = super::accounts::logged_in(&app, &headers).await?;
    let author = match (bearer(&headers), account) {
        (Some(token), account) => {
            let (stored, state) = app.load(&id).await?;
            let color = AppState::seat(&stored, Some(token))?;
            // The seat's account writes under its name; a guest's seat under the seat's.
            let account = account.filter(|a| state.config.accounts[color.index()].as_deref() == Some(a.id.as_str()));
            Author::Seat { color, account }
        }
        (None, Some(account)) => {
            let (_, state) = app.load(&id).await?;
            match AppState::seat_of_account(&state, &account.id) {
                Ok(color) => Author::Seat { color, account: Some(account) },
                Err(_) => Author::Watcher(account),
            }
        }
        (None, None) => return Err(ApiError::not_logged_in()),
    };
    let message = app.say(&id, author, &req.text).await?;
    Ok((StatusCode::CREATED, Json(message)).into_response())
}

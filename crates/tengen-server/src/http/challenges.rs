//! The lobby: challenges (open ones and direct ones to a named player), accepting and
//! declining them, the lobby's live updates, and a player's blocks.

use std::collections::HashSet;
use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State as AxumState};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Extension, Json, Router};
use serde::{Deserialize, Serialize};
use tengen_core::Color;
use tokio::sync::broadcast::error::RecvError;
use utoipa::ToSchema;

use super::accounts::LoggedIn;
use crate::domain::TimeControl;
use crate::domain::challenge::{ColorRule, Handicap, StoneCount, Terms, parse_rank};
use crate::error::ApiError;
use crate::guard::Client;
use crate::http::connections::ConnectionSlot;
use crate::http::extract::{Body, ErrorBody, could_be_id};
use crate::http::ws::{Heartbeat, WATCHER_MESSAGE, Watching, websocket};
use crate::service::AppState;
use crate::service::lobby::{ChallengeView, LobbyChange};

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenges", get(list).post(post_challenge))
        .route("/api/challenges/{id}", axum::routing::delete(withdraw))
        .route("/api/challenges/{id}/accept", post(accept))
        .route("/api/challenges/{id}/decline", post(decline))
        .route("/api/lobby/live", get(lobby_live))
        .route("/api/me/blocks", get(blocks))
        .route("/api/me/blocks/{name}", put(block).delete(unblock))
}

/// A challenge to post.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct NewChallenge {
    /// Board size, 2 to 25 (19); rated games and automatic handicaps on 9, 13 or 19.
    #[schema(minimum = 2, maximum = 25)]
    size: Option<usize>,
    /// The time control (none by default), as for a new game.
    time: Option<TimeControl>,
    /// Rated (false).
    rated: Option<bool>,
    /// Handicap stones (0: an even game, the default; or 2 to 9 as the board takes), or
    /// `"auto"`: from the two players' ranks on the size (the weaker takes Black; 让先 for one
    /// rank, then a stone a rank on 19×19).
    handicap: Option<Handicap>,
    /// Colours: `auto` (the default: the weaker takes Black, equal ranks draw by nigiri),
    /// `nigiri` (the stronger holds the stones), or the challenger's `black` or `white`.
    color: Option<ColorRule>,
    /// The weakest rank that may accept, such as `15k`.
    rank_min: Option<String>,
    /// The strongest rank that may accept, such as `1d`.
    rank_max: Option<String>,
    /// A direct challenge to this player (by name); none: open to all in the lobby.
    #[schema(min_length = 1, max_length = 40)]
    to: Option<String>,
}

/// An accepted challenge: the game, and the colour of the player who accepted.
#[derive(Serialize, ToSchema)]
pub(crate) struct ChallengeAccepted {
    /// The game's id: both seats are held by the two accounts.
    game: String,
    /// The colour of the player who accepted.
    #[schema(value_type = String)]
    color: Color,
}

/// A player blocked.
#[derive(Serialize, ToSchema)]
pub(crate) struct Blocked {
    /// The name.
    name: String,
}

fn challenge_id(id: &str) -> Result<&str, ApiError> {
    if could_be_id(id) { Ok(id) } else { Err(crate::service::lobby::no_challenge(id)) }
}

/// The open challenges the caller sees: every open one but those of players blocked either
/// way, and the direct challenges to and from the caller; oldest first.
#[utoipa::path(get, tag = "lobby", path = "/api/challenges", responses((status = 200, body = Vec<ChallengeView>)))]
async fn list(AxumState(app): AxumState<AppState>, headers: HeaderMap) -> Result<Json<Vec<ChallengeView>>, ApiError> {
    let account = super::accounts::logged_in(&app, &headers).await?;
    Ok(Json(app.visible_challenges(account.as_ref().map(|a| a.id.as_str())).await?))
}

/// Posts a challenge: open to all in the lobby, or to one player (`to`). A live challenge is
/// withdrawn when its challenger has been away from the lobby (`/api/lobby/live`) for a few
/// seconds; an open one expires after 2 hours, a direct one after 10 minutes.
#[utoipa::path(post, tag = "lobby", path = "/api/challenges", request_body = NewChallenge,
    responses((status = 201, body = ChallengeView),
        (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 400, body = ErrorBody, description = "a board size or clock the server does not play (size, time)"),
        (status = 422, body = ErrorBody, description = "terms that cannot be (the reason says which: rated_size, auto_handicap_given, handicap_stones, rank_range, rank), a player challenged who does not exist (no_player), oneself (own_challenge), or a block between the two (blocked)"),
        (status = 429, body = ErrorBody, description = "too many open challenges")))]
async fn post_challenge(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Body(new): Body<NewChallenge>,
) -> Result<Response, ApiError> {
    let rank = |r: Option<String>| {
        r.map(|r| parse_rank(&r).map_err(|e| ApiError::refused(e.detail).because(e.reason))).transpose()
    };
    let terms = Terms {
        size: new.size.unwrap_or(19),
        time: new.time.unwrap_or_default(),
        rated: new.rated.unwrap_or(false),
        handicap: new.handicap.unwrap_or(Handicap::Stones(StoneCount(0))),
        color: new.color.unwrap_or(ColorRule::Auto),
        rank_min: rank(new.rank_min)?,
        rank_max: rank(new.rank_max)?,
    };
    let view = app.post_challenge(&account, terms, new.to.as_deref()).await?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// Withdraws the caller's challenge.
#[utoipa::path(delete, tag = "lobby", path = "/api/challenges/{id}", params(("id" = String, Path)),
    responses((status = 204, description = "withdrawn"), (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 403, body = ErrorBody, description = "another player's challenge"), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "no longer open: accepted, withdrawn, declined or expired")))]
async fn withdraw(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.close_challenge(&account, challenge_id(&id)?, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Declines a direct challenge to the caller.
#[utoipa::path(post, tag = "lobby", path = "/api/challenges/{id}/decline", params(("id" = String, Path)),
    responses((status = 204, description = "declined"), (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 403, body = ErrorBody, description = "not a challenge to the caller"), (status = 404, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "no longer open")))]
async fn decline(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    app.close_challenge(&account, challenge_id(&id)?, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Accepts a challenge: the game starts at once, both seats held by the two accounts (play
/// with the session cookie: `POST /api/games/{game}/move` without a token).
#[utoipa::path(post, tag = "lobby", path = "/api/challenges/{id}/accept", params(("id" = String, Path)),
    responses((status = 201, body = ChallengeAccepted), (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 404, body = ErrorBody, description = "no such challenge for the caller"),
        (status = 409, body = ErrorBody, description = "no longer open: taken by another player, withdrawn or expired"),
        (status = 422, body = ErrorBody, description = "the caller's own challenge, or a rank outside its range"),
        (status = 429, body = ErrorBody, description = "too many games in play")))]
async fn accept(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (game, color) = app.accept_challenge(&account, challenge_id(&id)?).await?;
    Ok((StatusCode::CREATED, Json(ChallengeAccepted { game, color })).into_response())
}

/// The players the caller blocks.
#[utoipa::path(get, tag = "lobby", path = "/api/me/blocks",
    responses((status = 200, body = Vec<Blocked>), (status = 401, body = ErrorBody, description = "not logged in")))]
async fn blocks(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<Vec<Blocked>>, ApiError> {
    let rows = app.store().blocks_of(&account.id).await?;
    Ok(Json(rows.into_iter().map(|(_, name)| Blocked { name }).collect()))
}

/// Blocks a player: they cannot challenge the caller or accept the caller's challenges,
/// neither sees the other's open challenges (at once, on open lobby sockets too), and the
/// caller is not shown their chat (on open game sockets too).
#[utoipa::path(put, tag = "lobby", path = "/api/me/blocks/{name}", params(("name" = String, Path)),
    responses((status = 204, description = "blocked (again: no change)"), (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 404, body = ErrorBody, description = "no such player"), (status = 422, body = ErrorBody, description = "oneself")))]
async fn block(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let row = super::accounts::account_named(&app, &name).await?;
    app.set_block(&account, &row, true).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Lifts a block.
#[utoipa::path(delete, tag = "lobby", path = "/api/me/blocks/{name}", params(("name" = String, Path)),
    responses((status = 204, description = "no longer blocked"), (status = 401, body = ErrorBody, description = "not logged in"),
        (status = 404, body = ErrorBody, description = "no such player")))]
async fn unblock(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
    Path(name): Path<String>,
) -> Result<StatusCode, ApiError> {
    let row = super::accounts::account_named(&app, &name).await?;
    app.set_block(&account, &row, false).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The lobby live: a WebSocket that receives `{"challenges": [ChallengeView]}` (what the
/// caller sees now, again after a gap), then `{"challenge": ChallengeView}` at each change —
/// a challenge posted, accepted (with its `game`: the two players go there), withdrawn,
/// declined or expired. Guests see the open challenges; a logged-in player also the direct
/// ones to and from them, and keeps their live challenges open while connected.
#[utoipa::path(get, tag = "lobby", path = "/api/lobby/live",
    responses((status = 101, description = "WebSocket: the challenges, then each change"),
        (status = 400, body = ErrorBody, description = "not a WebSocket request"),
        (status = 403, body = ErrorBody, description = "a page of another site"),
        (status = 429, body = ErrorBody, description = "too many watchers from this address")))]
async fn lobby_live(
    AxumState(app): AxumState<AppState>,
    client: Client,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = websocket(&app, &headers, ws)?;
    let account = super::accounts::logged_in(&app, &headers).await?;
    let slot = super::ws::hold(slot)?;
    app.watcher_opens(client)?;
    // Subscribe, then read: a change between the two is sent twice (harmless), never lost.
    let changes = app.lobby_changes();
    let presence = app.enter_lobby(account.as_ref());
    let watching = Watching { held: Some((changes, presence)), app: app.clone(), client, id: String::new(), slot };
    Ok(ws
        .max_message_size(WATCHER_MESSAGE)
        .max_frame_size(WATCHER_MESSAGE)
        .read_buffer_size(WATCHER_MESSAGE)
        .on_upgrade(move |socket| async move {
            let mut watching = watching;
            if let Some((changes, _)) = watching.held.as_mut() {
                let account = account.map(|a| a.id);
                lobby(socket, &app, account.as_deref(), changes).await;
            }
        }))
}

/// The caller's view of the lobby now: `{"challenges": [...]}`, and who they do not see.
async fn snapshot(app: &AppState, account: Option<&str>) -> Result<(String, HashSet<String>), ApiError> {
    let hidden = app.hidden_from(account).await?;
    let list = app.visible_challenges(account).await?;
    let json = serde_json::to_string(&serde_json::json!({ "challenges": list })).map_err(|e| ApiError::internal(&e))?;
    Ok((json, hidden))
}

async fn lobby(
    mut socket: WebSocket,
    app: &AppState,
    account: Option<&str>,
    changes: &mut tokio::sync::broadcast::Receiver<Arc<LobbyChange>>,
) {
    let Ok((first, mut hidden)) = snapshot(app, account).await else { return };
    let mut heart = Heartbeat::new(app);
    if !heart.send(&mut socket, Message::Text(first.into())).await {
        return;
    }
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                // A block of the reader's made or lifted: who they see changed.
                Ok(change) if change.blocks.as_ref().is_some_and(|ab| account.is_some_and(|a| ab.iter().any(|x| x == a))) => {
                    let Ok((list, now_hidden)) = snapshot(app, account).await else { return };
                    hidden = now_hidden;
                    if !heart.send(&mut socket, Message::Text(list.into())).await {
                        return;
                    }
                }
                Ok(change) if change.blocks.is_some() => {}
                Ok(change) => {
                    if change.audience.sees(account, &hidden)
                        && !heart.send(&mut socket, Message::Text((&*change.json).into())).await
                    {
                        return;
                    }
                }
                // A slow socket missed some: the whole list again.
                Err(RecvError::Lagged(_)) => {
                    let Ok((list, now_hidden)) = snapshot(app, account).await else { return };
                    hidden = now_hidden;
                    if !heart.send(&mut socket, Message::Text(list.into())).await {
                        return;
                    }
                }
                Err(RecvError::Closed) => return,
            },
            () = heart.due() => if !heart.ping(&mut socket).await { return },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => heart.heard(),
            },
        }
    }
}

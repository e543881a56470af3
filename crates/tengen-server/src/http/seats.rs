//! A seat's actions: moves, handicap stones, resignation, undo, the counting phase's
//! marks and acceptance, names and resumption — each with the seat's token, or by the account
//! that holds the seat (its session cookie); taking a seat by its link for an account.

use axum::Router;
use axum::extract::State as AxumState;
use axum::http::HeaderMap;
use axum::routing::post;
use serde::Deserialize;
use tengen_core::{Color, Move, Point};
use utoipa::ToSchema;

use super::ViewJson;
use super::accounts::{LoggedIn, session_token};
use super::bearer;
use crate::domain::view::View;
use crate::domain::{Action, State};
use crate::error::ApiError;
use crate::guard::Client;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::service::AppState;

/// Every action of a seat.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/handicap", post(place))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/abort", post(abort))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/undo/accept", post(undo_accept))
        .route("/api/games/{id}/undo/reject", post(undo_reject))
        .route("/api/games/{id}/toggle", post(toggle))
        .route("/api/games/{id}/sit", post(sit))
        .route("/api/games/{id}/accept", post(accept))
        .route("/api/games/{id}/name", post(set_name))
        .route("/api/games/{id}/resume", post(resume))
}

/// A move: a vertex or `pass`, and its number (moves so far + 1) so that a move based on an
/// older position is refused.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    /// `D4` or `pass`.
    #[serde(rename = "move")]
    #[schema(value_type = MoveText)]
    mv: Move,
    /// The move's number: the game's `moves` + 1 (409 otherwise).
    #[schema(minimum = 1, maximum = 100_000)]
    number: usize,
}

/// A chain to mark, and how.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ToggleRequest {
    /// A stone of the chain, such as `D4`.
    #[schema(value_type = Vertex)]
    point: Point,
    /// `true` to mark the chain dead, `false` alive: a request sent twice changes nothing
    /// the second time.
    dead: bool,
}

/// A vertex such as `D4`: a column letter (A–Z without I, either case) and a row 1–25; a
/// vertex off the game's board is refused with 422.
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^[A-HJ-Za-hj-z]([1-9]|1[0-9]|2[0-5])$")]
#[allow(dead_code)]
pub(crate) struct Vertex(String);

/// A move: a vertex or `pass` (either case).
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^([A-HJ-Za-hj-z]([1-9]|1[0-9]|2[0-5])|[Pp][Aa][Ss][Ss])$")]
#[allow(dead_code)]
pub(crate) struct MoveText(String);

/// Free handicap stones.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct HandicapRequest {
    /// The vertices.
    #[schema(value_type = Vec<Vertex>)]
    points: Vec<Point>,
}

/// Plays a move for the token's seat.
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/move", params(("id" = String, Path)), request_body = MoveRequest,
    security(("seat" = [])),
    responses((status = 200, body = View), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 409, body = ErrorBody, description = "stale: the number is not the next move's"),
        (status = 422, body = ErrorBody, description = "refused: illegal, out of turn, game over")))]
async fn play(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<MoveRequest>,
) -> Result<ViewJson, ApiError> {
    let number = req.number;
    by_seat(&app, &id, client, &headers, Action::Move { mv: req.mv }, move |state, _| {
        let next = state.game.moves().len() + 1;
        if number != next {
            return Err(ApiError::stale(format!("move {number} is stale: the next move is number {next}"))
                .because("stale_move"));
        }
        Ok(())
    })
    .await
}

/// Black places free handicap stones.
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/handicap", params(("id" = String, Path)), request_body = HandicapRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody)))]
async fn place(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<HandicapRequest>,
) -> Result<ViewJson, ApiError> {
    by_seat(&app, &id, client, &headers, Action::Handicap { points: req.points }, |_, _| Ok(())).await
}

macro_rules! seat_action {
    ($name:ident, $path:literal, $action:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, tag = "seats", path = $path, params(("id" = String, Path)), security(("seat" = [])),
            responses((status = 200, body = View), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
                (status = 422, body = ErrorBody)))]
        async fn $name(
            AxumState(app): AxumState<AppState>,
            GameId(id): GameId,
            client: Client,
            headers: HeaderMap,
        ) -> Result<ViewJson, ApiError> {
            by_seat(&app, &id, client, &headers, $action, |_, _| Ok(())).await
        }
    };
}

seat_action!(resign, "/api/games/{id}/resign", Action::Resign, "Resigns for the token's seat.");
seat_action!(
    abort,
    "/api/games/{id}/abort",
    Action::Abort,
    "Calls the game off before its 10th move: no result (Void), not rated (422 `too_late_to_abort` after)."
);
seat_action!(
    undo,
    "/api/games/{id}/undo",
    Action::UndoRequest,
    "Takes back the seat's last move: at once against the computer (its reply too), else a request."
);
seat_action!(undo_accept, "/api/games/{id}/undo/accept", Action::UndoAccept, "Accepts the other seat's undo request.");
seat_action!(undo_reject, "/api/games/{id}/undo/reject", Action::UndoReject, "Refuses the other seat's undo request.");

/// Claims the game: the opponent is to move and has been away from the board (no game socket
/// of theirs open on any server, no action of their seat) for longer than the grace (30 s by
/// default, `--claim-grace`), and forfeits (`B+F`/`W+F`). Never in the counting phase. The
/// clock runs meanwhile either way.
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/claim", params(("id" = String, Path)), security(("seat" = [])),
    responses((status = 200, body = View), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "the opponent is at the board or away for less than the grace (`opponent_here`), the claimer to move (`your_move`), the counting phase (`counting`), a game against the computer (`computer_game`) or by correspondence (`correspondence_game`), or over")))]
async fn claim(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
) -> Result<ViewJson, ApiError> {
    let presence = app.presence(&id).await?;
    let check =
        move |state: &State, color| crate::service::presence::claimable(state, color, &presence, crate::util::now_ms());
    by_seat(&app, &id, client, &headers, Action::Claim, check).await
}

/// The marking a player accepts: the dead stones as the player saw them (the view's `dead`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct AcceptRequest {
    /// Every stone marked dead, as the view lists them (`[]` for none). Refused with 409 when
    /// the marking changed since.
    #[schema(value_type = Vec<Vertex>)]
    dead: Vec<Point>,
}

/// Accepts the dead stones as marked, if they are still the ones the player saw.
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/accept", params(("id" = String, Path)), request_body = AcceptRequest,
    security(("seat" = [])),
    responses((status = 200, body = View), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody,
        description = "the marking changed since the player saw it"), (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn accept(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<AcceptRequest>,
) -> Result<ViewJson, ApiError> {
    let action = Action::Accept { dead: Some(req.dead), judged: true, exact: true };
    by_seat(&app, &id, client, &headers, action, |_, _| Ok(())).await
}

/// The name a seat gives itself.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct NameRequest {
    /// 1 to 40 printable characters (refused with 422 otherwise).
    #[schema(min_length = 1, max_length = 40)]
    name: String,
}

/// Sets the name shown for the token's seat, and written to the game's record (PB, PW).
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/name", params(("id" = String, Path)), request_body = NameRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody,
        description = "a name that breaks the rule for names")))]
async fn set_name(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<NameRequest>,
) -> Result<ViewJson, ApiError> {
    by_seat(&app, &id, client, &headers, Action::Name { name: req.name }, |_, _| Ok(())).await
}
seat_action!(resume, "/api/games/{id}/resume", Action::Resume, "Disagrees with the marking: play resumes.");

/// The logged-in player takes the seat of the link's token for the account: the seat is then
/// held by the account (on any device, without the link) and named after it.
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/sit", params(("id" = String, Path)),
    security(("seat" = [])), responses((status = 200, body = View),
        (status = 401, body = ErrorBody, description = "no seat token, or not logged in"),
        (status = 422, body = ErrorBody, description = "the seat is another account's, or a rated game's other seat is this account's")))]
async fn sit(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    LoggedIn(account): LoggedIn,
    headers: HeaderMap,
) -> Result<ViewJson, ApiError> {
    let token = bearer(&headers).ok_or_else(ApiError::unauthorized)?;
    let action = Action::Sit { account: account.id, name: account.name };
    let (_, view) = app.act_as(&id, client, Some(token), None, action, |_, _| Ok(())).await?;
    Ok(ViewJson(view))
}

/// Marks the chain through a point dead, or alive again (counting phase).
#[utoipa::path(post, tag = "seats", path = "/api/games/{id}/toggle", params(("id" = String, Path)), request_body = ToggleRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody)))]
async fn toggle(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<ToggleRequest>,
) -> Result<ViewJson, ApiError> {
    by_seat(&app, &id, client, &headers, Action::Toggle { point: req.point, dead: Some(req.dead) }, |_, _| Ok(())).await
}

/// Applies `action` as the seat that `headers`' token holds, once `check` accepts; an action
/// that gives the computer a move to make needs room in `client`'s share of its work.
async fn by_seat(
    app: &AppState,
    id: &str,
    client: Client,
    headers: &HeaderMap,
    action: Action,
    check: impl FnOnce(&State, Color) -> Result<(), ApiError>,
) -> Result<ViewJson, ApiError> {
    let token = bearer(headers).map(str::to_owned);
    // Without a token, the account of the session cookie acts for the seat it holds.
    let account = match (&token, session_token(headers)) {
        (None, Some(session)) => app.acting_account(session).await?.map(|a| a.id),
        _ => None,
    };
    let wakes_computer = matches!(action, Action::Move { .. } | Action::Handicap { .. } | Action::Resume);
    // A place in the client's share of the computer's work, taken before the game's lock
    // (with shared moves it is a query) and held until the action has queued the job; a
    // refusal matters only in a game against the computer.
    let (_room, no_room) = if wakes_computer {
        match app.computer_room(client).await {
            Ok(room) => (Some(room), None),
            Err(refusal) => (None, Some(refusal)),
        }
    } else {
        (None, None)
    };
    let (_, view) = app
        .act_as(id, client, token.as_deref(), account.as_deref(), action, |state, color| {
            if state.config.computer.is_some()
                && let Some(refusal) = no_room
            {
                return Err(refusal);
            }
            check(state, color)
        })
        .await?;
    Ok(ViewJson(view))
}

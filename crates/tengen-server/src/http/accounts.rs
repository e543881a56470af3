//! Accounts and sessions: sign-up, login, logout, the player's own account; the session
//! cookie, and the check that refuses a request from another site's page.

use axum::Json;
use axum::Router;
use axum::extract::{FromRequestParts, Request, State as AxumState};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use serde::Deserialize;

use crate::error::ApiError;
use crate::guard::Client;
use crate::http::extract::{Body, ErrorBody};
use crate::service::AppState;
use crate::service::accounts::{Account, SESSION_MS, Session};

/// The session cookie's name.
pub const COOKIE: &str = "tengen_session";

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/accounts", post(sign_up))
        .route("/api/session", post(log_in).delete(log_out))
        .route("/api/me", get(me).delete(delete_me))
        .route("/api/me/password", put(change_password))
        .route("/api/me/games", get(my_games))
        .route("/api/me/turns", get(my_turns))
        .route("/api/players/{name}", get(player))
        .route("/api/players/{name}/ratings", get(player_ratings))
        .route("/api/players/{name}/games", get(player_games))
}

/// A name and a password.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// The player's name: printable, at most 40 characters, unique without regard to case.
    pub name: String,
    /// At least 8 characters.
    pub password: String,
}

/// A password change.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The current password.
    pub old: String,
    /// The new one: at least 8 characters.
    pub new: String,
}

/// The password that confirms a deletion.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Confirmation {
    /// The current password.
    pub password: String,
}

/// The logged-in player.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Me {
    /// The name.
    pub name: String,
    /// When the account was made (ms since the epoch).
    pub created_ms: i64,
    /// The password is a one-time password from the server's operator: change it.
    pub must_change_password: bool,
}

impl From<&Account> for Me {
    fn from(a: &Account) -> Me {
        Me { name: a.name.clone(), created_ms: a.created_ms, must_change_password: a.must_change }
    }
}

/// The session token of a request's cookie.
pub(crate) fn session_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
        .find(|t| !t.is_empty())
}

/// The logged-in player of a request's session cookie, if any (none: a guest).
///
/// # Errors
/// A database error.
pub(crate) async fn logged_in(app: &AppState, headers: &HeaderMap) -> Result<Option<Account>, ApiError> {
    match session_token(headers) {
        Some(session) => app.acting_account(session).await,
        None => Ok(None),
    }
}

/// A request of a logged-in player: the account.
pub(crate) struct LoggedIn(pub(crate) Account);

impl FromRequestParts<AppState> for LoggedIn {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut axum::http::request::Parts, app: &AppState) -> Result<Self, ApiError> {
        let Someone(account) = Someone::from_request_parts(parts, app).await?;
        if account.must_change {
            return Err(crate::service::accounts::must_change_password());
        }
        Ok(LoggedIn(account))
    }
}

/// A request of a logged-in player, who may be bound to change the operator's one-time
/// password first (what they may still do: see who they are, change it).
pub(crate) struct Someone(pub(crate) Account);

impl FromRequestParts<AppState> for Someone {
    type Rejection = ApiError;
    async fn from_request_parts(parts: &mut axum::http::request::Parts, app: &AppState) -> Result<Self, ApiError> {
        let token = session_token(&parts.headers).ok_or_else(ApiError::not_logged_in)?;
        let account = app.session_account(token).await?.ok_or_else(ApiError::not_logged_in)?;
        Ok(Someone(account))
    }
}

/// The cookie that holds a session: `HttpOnly` (no script reads it), `SameSite=Lax` (no other
/// site's request carries it but a top-level link), `Secure` when the server's public origin
/// (`--origin`) is https.
fn session_cookie(app: &AppState, token: &str, max_age_s: i64) -> HeaderValue {
    let secure = if app.limits().origins.iter().any(|o| o.starts_with("https://")) { "; Secure" } else { "" };
    HeaderValue::from_str(&format!("{COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_s}{secure}"))
        .expect("a token of hex digits")
}

fn with_session(app: &AppState, status: StatusCode, session: &Session, body: Option<Me>) -> Response {
    let cookie = session_cookie(app, &session.token, SESSION_MS / 1000);
    let mut response = match body {
        Some(me) => (status, Json(me)).into_response(),
        None => status.into_response(),
    };
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn ended(app: &AppState) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, session_cookie(app, "", 0));
    response
}

/// Makes an account and logs it in.
#[utoipa::path(post, tag = "accounts", path = "/api/accounts", request_body = Credentials,
    responses((status = 201, body = Me, description = "made; the session cookie is set"),
        (status = 409, body = ErrorBody, description = "the name is taken (without regard to case)"),
        (status = 422, body = ErrorBody, description = "a name or password that breaks the rules"),
        (status = 429, body = ErrorBody, description = "too many sign-ups from this address")))]
async fn sign_up(AxumState(app): AxumState<AppState>, client: Client, Body(c): Body<Credentials>) -> Response {
    match app.sign_up(client, &c.name, &c.password).await {
        Ok(session) => {
            let me = Me::from(&session.account);
            with_session(&app, StatusCode::CREATED, &session, Some(me))
        }
        Err(e) => e.into_response(),
    }
}

/// Logs in.
#[utoipa::path(post, tag = "accounts", path = "/api/session", request_body = Credentials,
    responses((status = 204, description = "logged in; the session cookie is set"),
        (status = 401, body = ErrorBody, description = "wrong name or password"),
        (status = 429, body = ErrorBody, description = "too many failed logins from this address or on this account")))]
async fn log_in(AxumState(app): AxumState<AppState>, client: Client, Body(c): Body<Credentials>) -> Response {
    match app.log_in(client, &c.name, &c.password).await {
        Ok(session) => with_session(&app, StatusCode::NO_CONTENT, &session, None),
        Err(e) => e.into_response(),
    }
}

/// Logs out: the session ends on the server, the cookie is cleared.
#[utoipa::path(delete, tag = "accounts", path = "/api/session", responses((status = 204, description = "logged out")))]
async fn log_out(AxumState(app): AxumState<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        app.log_out(token).await?;
    }
    Ok(ended(&app))
}

/// The logged-in player.
#[utoipa::path(get, tag = "accounts", path = "/api/me",
    responses((status = 200, body = Me), (status = 401, body = ErrorBody, description = "not logged in")))]
async fn me(Someone(account): Someone) -> Response {
    let mut response = Json(Me::from(&account)).into_response();
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A game whose seat the player's account holds.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct MyGame {
    /// The game.
    #[serde(flatten)]
    pub game: crate::store::Summary,
    /// The colour the player plays.
    #[schema(value_type = String)]
    pub color: tengen_core::Color,
}

/// The games whose seats the logged-in player holds (in play and finished, 200 most recently
/// changed), on any device.
#[utoipa::path(get, tag = "accounts", path = "/api/me/games",
    responses((status = 200, body = Vec<MyGame>), (status = 401, body = ErrorBody, description = "not logged in")))]
pub(super) async fn my_games(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<Vec<MyGame>>, ApiError> {
    let games = app.store().games_of(&account.id, 200).await?;
    Ok(Json(games.into_iter().map(|(game, color)| MyGame { game, color }).collect()))
}

/// A game in play whose move is the player's.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Turn {
    /// The game.
    #[serde(flatten)]
    pub game: crate::store::Summary,
    /// The colour the player plays.
    #[schema(value_type = String)]
    pub color: tengen_core::Color,
    /// When the player's clock runs out (ms since the epoch), if it runs.
    pub deadline_ms: Option<i64>,
}

/// The games in play whose move is the logged-in player's (correspondence games first among
/// them by their deadline), at most 200.
#[utoipa::path(get, tag = "accounts", path = "/api/me/turns",
    responses((status = 200, body = Vec<Turn>), (status = 401, body = ErrorBody, description = "not logged in")))]
pub(super) async fn my_turns(
    AxumState(app): AxumState<AppState>,
    LoggedIn(account): LoggedIn,
) -> Result<Json<Vec<Turn>>, ApiError> {
    let turns = app.store().turns_of(&account.id).await?;
    Ok(Json(turns.into_iter().map(|(game, color, deadline_ms)| Turn { game, color, deadline_ms }).collect()))
}

/// A player's rating on one board size.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct SizeRating {
    /// Board size.
    pub size: usize,
    /// Glicko-2 rating, deviation and volatility.
    pub rating: f64,
    /// The rating's deviation.
    pub deviation: f64,
    /// The rating's volatility.
    pub volatility: f64,
    /// The rank on OGS's scale (`6k`, `1d`), with `?` while provisional.
    pub rank: String,
    /// Provisional: the deviation is 160 or more.
    pub provisional: bool,
    /// Rated games.
    pub games: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
}

/// A player's profile.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Profile {
    /// The name.
    pub name: String,
    /// The account was deleted (its games keep the name).
    pub deleted: bool,
    /// Ratings by board size (a size without rated games: not listed; a newcomer is
    /// 1500 ± 350, `6k?`).
    pub ratings: Vec<SizeRating>,
    /// Games, most recently changed first (at most 50).
    pub games: Vec<MyGame>,
}

/// The account of a player's name (deleted ones too), or 404.
pub(super) async fn account_named(app: &AppState, name: &str) -> Result<crate::store::AccountRow, ApiError> {
    let key = crate::service::accounts::name_key(name.trim_matches(' '));
    let shown: String = name.chars().take(40).collect();
    app.store().account_by_key(&key).await?.ok_or_else(|| {
        ApiError::refused(format!("no player {shown:?}")).because("no_player").with_status(StatusCode::NOT_FOUND)
    })
}

/// A player's rating history: each rated game's change, oldest first (the latest 500).
#[utoipa::path(get, tag = "accounts", path = "/api/players/{name}/ratings", params(("name" = String, Path)),
    responses((status = 200, body = Vec<crate::store::RatingChange>), (status = 404, body = ErrorBody, description = "no such player")))]
pub(super) async fn player_ratings(
    AxumState(app): AxumState<AppState>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<Json<Vec<crate::store::RatingChange>>, ApiError> {
    let row = account_named(&app, &name).await?;
    Ok(Json(app.store().rating_history(&row.id, 500).await?))
}

/// A player's games, most recently changed first (the latest 200), with the colour played.
#[utoipa::path(get, tag = "accounts", path = "/api/players/{name}/games", params(("name" = String, Path)),
    responses((status = 200, body = Vec<MyGame>), (status = 404, body = ErrorBody, description = "no such player")))]
pub(super) async fn player_games(
    AxumState(app): AxumState<AppState>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<Json<Vec<MyGame>>, ApiError> {
    let row = account_named(&app, &name).await?;
    let games = app.store().games_of(&row.id, 200).await?;
    Ok(Json(games.into_iter().map(|(game, color)| MyGame { game, color }).collect()))
}

/// A player's profile: ratings by board size, ranks, games.
#[utoipa::path(get, tag = "accounts", path = "/api/players/{name}", params(("name" = String, Path)),
    responses((status = 200, body = Profile), (status = 404, body = ErrorBody, description = "no such player")))]
pub(super) async fn player(
    AxumState(app): AxumState<AppState>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Result<Json<Profile>, ApiError> {
    let row = account_named(&app, &name).await?;
    let ratings = app
        .store()
        .ratings(&row.id)
        .await?
        .into_iter()
        .map(|r| SizeRating {
            size: r.size,
            rating: r.glicko.rating,
            deviation: r.glicko.deviation,
            volatility: r.glicko.volatility,
            rank: crate::domain::rating::rank_label(&r.glicko),
            provisional: r.glicko.provisional(),
            games: r.games,
            wins: r.wins,
            losses: r.losses,
        })
        .collect();
    let games =
        app.store().games_of(&row.id, 50).await?.into_iter().map(|(game, color)| MyGame { game, color }).collect();
    Ok(Json(Profile { name: row.name, deleted: row.deleted_ms.is_some(), ratings, games }))
}

/// Changes the password: every other session of the account ends.
#[utoipa::path(put, tag = "accounts", path = "/api/me/password", request_body = PasswordChange,
    responses((status = 204, description = "changed; a new session cookie is set"),
        (status = 401, body = ErrorBody, description = "not logged in, or a wrong current password"),
        (status = 422, body = ErrorBody, description = "a new password that breaks the rule")))]
async fn change_password(
    AxumState(app): AxumState<AppState>,
    client: Client,
    Someone(account): Someone,
    Body(c): Body<PasswordChange>,
) -> Response {
    match app.change_password(client, &account, &c.old, &c.new).await {
        Ok(session) => with_session(&app, StatusCode::NO_CONTENT, &session, None),
        Err(e) => e.into_response(),
    }
}

/// Deletes the account: its sessions end; its name stays taken, and its finished games keep
/// it, marked deleted.
#[utoipa::path(delete, tag = "accounts", path = "/api/me", request_body = Confirmation,
    responses((status = 204, description = "deleted; logged out"),
        (status = 401, body = ErrorBody, description = "not logged in, or a wrong password")))]
async fn delete_me(
    AxumState(app): AxumState<AppState>,
    client: Client,
    LoggedIn(account): LoggedIn,
    Body(c): Body<Confirmation>,
) -> Result<Response, ApiError> {
    app.delete_account(client, &account, &c.password).await?;
    Ok(ended(&app))
}

/// The origin a browser says a request comes from: `Origin`, else the scheme, host and port
/// of `Referer`.
fn claimed_origin(headers: &HeaderMap) -> Option<String> {
    if let Some(o) = headers.get(header::ORIGIN) {
        return o.to_str().ok().map(str::to_owned);
    }
    let referer = headers.get(header::REFERER)?.to_str().ok()?;
    let (scheme, rest) = referer.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    Some(format!("{scheme}://{host}"))
}

/// Refuses cross-site forgery: a request that changes state under a session cookie must say
/// (by `Origin` or `Referer`) that it comes from the server's own page or an allowed origin;
/// a login or sign-up from another site's page is refused too (no login forgery). Clients
/// that are no browser send no cookie (or, with one, an `Origin`).
pub(crate) async fn same_site(AxumState(app): AxumState<AppState>, request: Request, next: Next) -> Response {
    let method = request.method();
    let reads = matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
    if !reads {
        let headers = request.headers();
        let path = request.uri().path();
        let logs_in = path == "/api/session" || path == "/api/accounts";
        let origin = claimed_origin(headers);
        let allowed = |o: &str| super::ws::origin_allowed_value(headers, o, &app.limits().origins);
        let refused = if session_token(headers).is_some() {
            !origin.as_deref().is_some_and(allowed)
        } else {
            logs_in && origin.as_deref().is_some_and(|o| !allowed(o))
        };
        if refused {
            return ApiError::cross_site().into_response();
        }
    }
    next.run(request).await
}

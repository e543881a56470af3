//! Live analysis of any position: start, read, stop and follow over a WebSocket.

use crate::guard::Limits;
use crate::http::extract::BodyLimit;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::State as AxumState;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tengen_core::{Game, Rules};
use utoipa::ToSchema;

use crate::domain::GameError;
use crate::error::ApiError;
use crate::guard::Client;
use crate::http::extract::{Body, ErrorBody, GameId};
use crate::service::AppState;
use crate::service::analysis::{Position, Running, Snapshot};
use crate::service::study::{play_line, position_at, studied};

/// Live analysis (a position may come as SGF in JSON: the larger limit).
pub(super) fn routes(limits: &Limits) -> Router<AppState> {
    let sgf_json = super::sgf_json_limit(limits);
    Router::new()
        .route(
            "/api/analysis",
            post(analysis_start).layer((DefaultBodyLimit::max(sgf_json), Extension(BodyLimit(sgf_json)))),
        )
        .route("/api/analysis/{id}", get(analysis_read))
        .route("/api/analysis/{id}/stop", post(analysis_stop))
        .route("/api/analysis/{id}/live", get(analysis_live))
}

/// What to analyse: a game of the server (`game`, with `at` and `then`), an SGF record
/// (`sgf`, with `at`), or moves on an empty board (`size`, `moves`, `komi`); then for how long.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct AnalysisRequest {
    /// A game's id: an imported game, or one that has ended (409 while it is in play).
    game: Option<String>,
    /// The position after this many moves of the game or the record (all by default).
    #[schema(minimum = 0, maximum = 2000)]
    at: Option<usize>,
    /// Moves played after that position (a variation), colours alternating.
    #[schema(max_items = 1200)]
    then: Option<Vec<String>>,
    /// An SGF record, read as an import reads it (a game tree starts with `(;`).
    #[schema(pattern = "\\(\\s*;")]
    sgf: Option<String>,
    /// Board size of an empty board, 2 to 25 (19).
    #[schema(minimum = 2, maximum = 25)]
    size: Option<usize>,
    /// Moves on the empty board, Black first, colours alternating (`D4`, `pass`).
    #[schema(max_items = 1200)]
    moves: Option<Vec<String>>,
    /// Komi in points, a multiple of ½, for an empty board (7.5) or over an SGF record's
    /// (a game of the server keeps its own).
    #[schema(minimum = -361, maximum = 361, multiple_of = 0.5)]
    komi: Option<f64>,
    /// `chinese`, the only rules the analysis counts by.
    rules: Option<String>,
    /// Seconds to search, 1 to the server's limit (60 by default; 30 when not given).
    #[schema(minimum = 1, maximum = 3600)]
    seconds: Option<u32>,
    /// Visits (simulations) after which the search stops, if before its seconds: to compare
    /// with a review at the same strength. Checked at each snapshot, so a few more may run.
    #[schema(minimum = 1, maximum = 100000)]
    visits: Option<u32>,
}

/// The most visits an analysis may stop at (its seconds bound it anyway).
const MAX_VISITS: u32 = 100_000;

/// Seconds of an analysis that asks none.
const ANALYSIS_SECONDS: u32 = 30;

/// The position a request names.
async fn requested_position(app: &AppState, req: &AnalysisRequest) -> Result<Game, ApiError> {
    let sources = usize::from(req.game.is_some())
        + usize::from(req.sgf.is_some())
        + usize::from(req.size.is_some() || req.moves.is_some());
    if sources > 1 {
        return Err(ApiError::refused("name one position: game, sgf, or size and moves").because("position"));
    }
    if let Some(rules) = &req.rules
        && !rules.eq_ignore_ascii_case("chinese")
    {
        return Err(
            ApiError::refused(format!("the analysis counts by the Chinese rules only, not {rules:?}")).because("rules")
        );
    }
    let komi = req.komi.map(crate::domain::komi_points).transpose()?;
    // An empty board's rules, and an SGF record's when it gives no komi.
    let rules = Rules { komi: komi.unwrap_or(Rules::chinese().komi), ..Rules::chinese() };
    let mut game = if let Some(id) = &req.game {
        if !crate::http::extract::could_be_id(id) {
            return Err(ApiError::not_found(id));
        }
        let (stored, state) = app.load(id).await?;
        if !studied(&stored, &state) {
            return Err(ApiError::in_conflict(
                "the game is still in play: its positions are analysed when it has ended",
            )
            .because("in_play"));
        }
        position_at(&state.game, req.at)?
    } else if let Some(sgf) = &req.sgf {
        let (_, mut replay) = crate::http::sgf::replay_sgf(sgf.as_bytes(), &app.limits().sgf, rules, "")?;
        if let Some(komi) = komi {
            // The request's komi over the record's.
            let rules = Rules { komi, ..*replay.game.rules() };
            replay.game.set_rules(rules);
        }
        position_at(&replay.game, req.at)?
    } else {
        let size = req.size.unwrap_or(19);
        if !(2..=25).contains(&size) {
            return Err(ApiError::from(GameError::Size(size)));
        }
        let mut game = Game::new(size, rules).map_err(|e| ApiError::bad_request(e.to_string()))?;
        play_line(&mut game, req.moves.as_deref().unwrap_or_default(), "moves")?;
        position_at(&game, req.at)?
    };
    play_line(&mut game, req.then.as_deref().unwrap_or_default(), "then")?;
    Ok(game)
}

/// Starts a live analysis of a position: the search runs on the server for `seconds` (or
/// until stopped, or until nobody has watched or read it for 10 s) and publishes a snapshot
/// about every quarter second — the candidate moves with win rate, lead, visits and line, and
/// the ownership of every point. Watch it on `/api/analysis/{id}/live` or read it with `GET`.
/// Each address runs at most a few at once (429), the server a few more (503).
#[utoipa::path(post, tag = "analysis", path = "/api/analysis", request_body = Option<AnalysisRequest>,
    responses((status = 201, body = Snapshot, description = "started: the first (empty) snapshot, with the id"),
        (status = 400, body = ErrorBody), (status = 404, body = ErrorBody, description = "no such game"),
        (status = 409, body = ErrorBody, description = "the game is still in play (`in_play`)"),
        (status = 413, body = ErrorBody),
        (status = 422, body = ErrorBody, description = "an illegal move, a record that does not replay, other rules, a time past the limit, no visits"),
        (status = 429, body = ErrorBody, description = "this address runs as many analyses as it may"),
        (status = 503, body = ErrorBody, description = "the server runs as many analyses as it may")))]
pub(crate) async fn analysis_start(
    AxumState(app): AxumState<AppState>,
    client: Client,
    Body(req): Body<AnalysisRequest>,
) -> Result<Response, ApiError> {
    let max = app.limits().analysis_seconds;
    let seconds = req.seconds.unwrap_or(ANALYSIS_SECONDS.min(max));
    if seconds == 0 || seconds > max {
        return Err(ApiError::refused(format!("seconds: 1 to {max}")).because("seconds"));
    }
    if req.visits.is_some_and(|v| v == 0 || v > MAX_VISITS) {
        return Err(ApiError::refused(format!("visits: 1 to {MAX_VISITS}")).because("visits"));
    }
    let game = requested_position(&app, &req).await?;
    let (id, running) = app.analyses().start(
        client,
        Position { game, seconds, visits: req.visits },
        app.network().cloned(),
        app.limits(),
    )?;
    let location = format!("/api/analysis/{id}");
    Ok((StatusCode::CREATED, [(header::LOCATION, location)], snapshot(&running)?).into_response())
}

fn snapshot(running: &Running) -> Result<Json<serde_json::Value>, ApiError> {
    serde_json::from_str(&running.latest()).map(Json).map_err(|e| ApiError::internal(&e))
}

/// The latest snapshot of an analysis (running, or finished less than a minute ago).
#[utoipa::path(get, tag = "analysis", path = "/api/analysis/{id}", params(("id" = String, Path)),
    responses((status = 200, body = Snapshot), (status = 404, body = ErrorBody)))]
pub(crate) async fn analysis_read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<serde_json::Value>, ApiError> {
    let running = app.analyses().get(&id).ok_or_else(|| ApiError::no_analysis(&id))?;
    snapshot(&running)
}

/// Stops an analysis; its last snapshot (`done`) follows on the WebSocket and with `GET`.
#[utoipa::path(post, tag = "analysis", path = "/api/analysis/{id}/stop", params(("id" = String, Path)),
    responses((status = 200, body = Snapshot, description = "the latest snapshot"), (status = 404, body = ErrorBody)))]
pub(crate) async fn analysis_stop(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<serde_json::Value>, ApiError> {
    let running = app.analyses().get(&id).ok_or_else(|| ApiError::no_analysis(&id))?;
    running.stop();
    snapshot(&running)
}

/// The analysis live: a WebSocket that receives the latest snapshot now and each new one
/// (about four a second), and closes after the last (`done`).
#[utoipa::path(get, tag = "analysis", path = "/api/analysis/{id}/live", params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket: one Snapshot (JSON text) per update, the last with `done`"),
        (status = 400, body = ErrorBody, description = "not a WebSocket request"),
        (status = 403, body = ErrorBody, description = "a page of another site"), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "too many watchers from this address")))]
pub(crate) async fn analysis_live(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    slot: Option<axum::Extension<crate::http::connections::ConnectionSlot>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = crate::http::ws::websocket(&app, &headers, ws)?;
    let running = app.analyses().get(&id).ok_or_else(|| ApiError::no_analysis(&id))?;
    let slot = crate::http::ws::hold(slot)?;
    app.watcher_opens(client)?;
    let watcher = crate::http::ws::Watching { app: app.clone(), client, id, held: Some(running.watched()), slot };
    Ok(ws.max_message_size(1024).max_frame_size(1024).on_upgrade(move |socket| async move {
        let heart = crate::http::ws::Heartbeat::new(&watcher.app);
        follow(socket, &running, heart).await;
        drop(watcher);
    }))
}

async fn follow(mut socket: WebSocket, running: &Running, mut heart: crate::http::ws::Heartbeat) {
    // The last snapshot says `done`; none follows it.
    let mut updates = running.subscribe();
    let mut fresh = true;
    loop {
        if fresh {
            let (json, done) = {
                let latest = updates.borrow_and_update();
                (std::sync::Arc::clone(&latest.0), latest.1)
            };
            if !heart.send(&mut socket, Message::Text((&*json).into())).await {
                return;
            }
            if done {
                let _ = heart.send(&mut socket, Message::Close(None)).await;
                return;
            }
        }
        fresh = false;
        tokio::select! {
            changed = updates.changed() => if changed.is_err() { return } else { fresh = true },
            () = heart.due() => if !heart.ping(&mut socket).await { return },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                Some(Ok(_)) => heart.heard(),
            },
        }
    }
}

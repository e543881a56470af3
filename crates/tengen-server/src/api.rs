//! The HTTP + JSON API and its OpenAPI document. Seat tokens travel as
//! `Authorization: Bearer TOKEN`; the game id alone reads and watches.

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Query, State as AxumState};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use tengen_core::{Color, Komi, Move, Nigiri, Parity, Point, Rules};
use utoipa::{OpenApi, ToSchema};

use crate::app::{AppState, now_ms, token_hash};
use crate::domain::{Action, Config, GameError, MAX_MOVES, Opponent, Placement, State, TimeControl, check_name};
use crate::error::ApiError;
use crate::guard::{Client, ConnectionSlot};
use crate::http::extract::{Body, BodyLimit, ErrorBody, GameId, body_error};
use crate::http::sgf::{game_record, replay_sgf, sgf_response};
use crate::http::ws::{WATCHER_MESSAGE, Watching, websocket};
use crate::store::{StoredGame, Summary};
use crate::view::View;

/// The API's routes, all under `/api`, and the health and metrics endpoints.
pub fn routes(state: AppState) -> Router {
    let limits = state.limits().clone();
    // The routes that take SGF in a JSON body take the larger of the two limits, and say so.
    let sgf_json = limits.sgf.bytes.max(limits.body_bytes);
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
        .route("/api/openapi.json", get(openapi))
        .route("/api/games", get(recent).post(create))
        .route("/api/levels", get(levels))
        .route("/api/games/import", post(import).layer(DefaultBodyLimit::max(limits.sgf.bytes)))
        .route("/api/games/{id}", get(read))
        .route(
            "/api/games/{id}/sgf",
            get(sgf)
                .post(crate::study::sgf_with_lines)
                .layer((DefaultBodyLimit::max(sgf_json), Extension(BodyLimit(sgf_json)))),
        )
        .route("/api/games/{id}/info", get(crate::study::info))
        .route(
            "/api/analysis",
            post(crate::study::analysis_start).layer((DefaultBodyLimit::max(sgf_json), Extension(BodyLimit(sgf_json)))),
        )
        .route("/api/analysis/{id}", get(crate::study::analysis_read))
        .route("/api/analysis/{id}/stop", post(crate::study::analysis_stop))
        .route("/api/analysis/{id}/live", get(crate::study::analysis_live))
        .route("/api/games/{id}/terms", get(terms))
        .route("/api/games/{id}/review", get(review_read).post(review_request))
        .route("/api/games/{id}/live", get(live))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/handicap", post(place))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/undo/accept", post(undo_accept))
        .route("/api/games/{id}/undo/reject", post(undo_reject))
        .route("/api/games/{id}/toggle", post(toggle))
        .route("/api/games/{id}/accept", post(accept))
        .route("/api/games/{id}/name", post(set_name))
        .route("/api/games/{id}/resume", post(resume))
        .fallback(no_route)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limits.body_bytes))
        .with_state(state)
}

/// Liveness: the process answers.
#[utoipa::path(get, path = "/healthz", responses((status = 200, body = String, description = "ok")))]
async fn healthz() -> &'static str {
    "ok"
}

/// What each level of the computer means on this server: its search, how much it searches,
/// its approximate strength.
#[utoipa::path(get, path = "/api/levels", responses((status = 200, body = Vec<crate::levels::Level>)))]
async fn levels(AxumState(app): AxumState<AppState>) -> Json<Vec<crate::levels::Level>> {
    Json(crate::levels::levels(app.has_network()))
}

/// Readiness: the database answers.
#[utoipa::path(get, path = "/readyz", responses((status = 200, body = String, description = "ready"),
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
#[utoipa::path(get, path = "/metrics", responses((status = 200, body = String, content_type = "text/plain")))]
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

#[derive(OpenApi)]
#[openapi(
    info(title = "tengen", description = "Play Go under the Chinese rules: games against the computer or a friend."),
    paths(
        recent,
        create,
        import,
        read,
        sgf,
        terms,
        live,
        play,
        place,
        resign,
        undo,
        undo_accept,
        undo_reject,
        toggle,
        accept,
        set_name,
        resume,
        levels,
        review_request,
        review_read,
        crate::study::info,
        crate::study::sgf_with_lines,
        crate::study::analysis_start,
        crate::study::analysis_read,
        crate::study::analysis_stop,
        crate::study::analysis_live
    ),
    components(schemas(
        NewGame,
        Created,
        MoveRequest,
        ToggleRequest,
        AcceptRequest,
        NameRequest,
        crate::domain::Dispute,
        crate::levels::Level,
        ReviewRequest,
        crate::reviews::ReviewView,
        crate::reviews::ReviewedMove,
        crate::study::AnalysisRequest,
        crate::study::GameInfoView,
        crate::study::CommentView,
        crate::study::SgfRequest,
        crate::study::LineRequest,
        crate::analysis::Snapshot,
        crate::analysis::Candidate,
        HandicapRequest,
        View,
        Summary,
        ErrorBody,
        Commentary,
        MoveTerms,
        TermView,
        Vertex,
        MoveText,
        SgfText,
        RulesName,
        ColorChoice,
        Guess
    )),
    modifiers(&Common)
)]
struct ApiDoc;

/// What every operation may answer besides its own results, added to each in one place: the
/// `seat` security scheme, 400 (a request that does not read), 401/403 (a seat's operations),
/// 404 (a game's), 413 (a body past the limit), 429 (past the client's rate) and 503 (past the
/// request time, or the database away).
struct Common;

impl utoipa::Modify for Common {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let components = doc.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "seat",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("A seat's token, given once when the game is created"))
                    .build(),
            ),
        );
        let error = |description: &str| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/json",
                    ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build(),
                )
                .build()
        };
        for (path, item) in doc.paths.paths.iter_mut() {
            let operations = [&mut item.get, &mut item.post, &mut item.put, &mut item.delete, &mut item.patch];
            for operation in operations.into_iter().flatten() {
                let seat = operation.security.as_ref().is_some_and(|s| !s.is_empty());
                let body = operation.request_body.is_some();
                let mut common = vec![
                    ("400", "the request does not read: a parameter or body that does not match this document"),
                    ("429", "too many requests from this address: retry after the Retry-After seconds"),
                    ("503", "the server cannot answer now (the request took too long, or the database is away)"),
                ];
                if path.contains("{id}") {
                    common.push(("404", "no such game"));
                }
                if body {
                    common.push(("413", "the body is larger than the server takes"));
                }
                if seat {
                    common.push(("401", "no seat token"));
                    common.push(("403", "the token is not a seat of this game"));
                }
                for (status, description) in common {
                    operation.responses.responses.entry(status.to_owned()).or_insert_with(|| error(description).into());
                }
            }
        }
    }
}

/// The OpenAPI document, made once.
fn document() -> &'static serde_json::Value {
    static DOCUMENT: std::sync::OnceLock<serde_json::Value> = std::sync::OnceLock::new();
    DOCUMENT.get_or_init(|| {
        let mut doc = serde_json::to_value(ApiDoc::openapi()).unwrap_or_default();
        // The request types refuse unknown fields everywhere, in their enums' variants too
        // (utoipa marks only structs).
        for name in ["Opponent", "TimeControl"] {
            if let Some(schema) = doc.pointer_mut(&format!("/components/schemas/{name}")) {
                closed_objects(schema);
            }
        }
        game_links(&mut doc);
        doc
    })
}

/// Links from a created or imported game (both answers carry its `id`) to every operation on
/// it. Written into the JSON: utoipa's `Link` serialises `operation_id` in snake case, which
/// OpenAPI readers do not know.
fn game_links(doc: &mut serde_json::Value) {
    let Some(paths) = doc.get_mut("paths").and_then(|p| p.as_object_mut()) else { return };
    let operations: Vec<String> = paths
        .iter()
        .filter(|(path, _)| path.contains("{id}"))
        .flat_map(|(_, item)| item.as_object().into_iter().flat_map(|ops| ops.values()))
        .filter_map(|op| op.get("operationId")?.as_str().map(str::to_owned))
        .collect();
    let links: serde_json::Map<String, serde_json::Value> = operations
        .into_iter()
        .map(|id| {
            let link = serde_json::json!({ "operationId": id, "parameters": { "id": "$response.body#/id" } });
            (id, link)
        })
        .collect();
    for path in ["/api/games", "/api/games/import"] {
        if let Some(created) = paths.get_mut(path).and_then(|item| item.pointer_mut("/post/responses/201")) {
            created["links"] = serde_json::Value::Object(links.clone());
        }
    }
}

async fn openapi() -> Json<&'static serde_json::Value> {
    Json(document())
}

/// Marks every object schema with properties in `schema` as taking no others.
fn closed_objects(schema: &mut serde_json::Value) {
    let mut stack = vec![schema];
    while let Some(value) = stack.pop() {
        match value {
            serde_json::Value::Object(fields) => {
                if fields.contains_key("properties") && !fields.contains_key("additionalProperties") {
                    fields.insert("additionalProperties".into(), serde_json::Value::Bool(false));
                }
                stack.extend(fields.values_mut());
            }
            serde_json::Value::Array(items) => stack.extend(items.iter_mut()),
            _ => {}
        }
    }
}

async fn no_route(uri: axum::http::Uri) -> ApiError {
    ApiError::no_route(uri.path())
}

async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::wrong_method(method.as_str(), uri.path())
}

pub(crate) use crate::util::random_token;

fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

/// A new game.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields, default)]
struct NewGame {
    /// Board size, 2 to 25 (19).
    #[schema(minimum = 2, maximum = 25)]
    size: Option<usize>,
    /// `{"computer": {"level": 5}}` (the default) or `"friend"`.
    opponent: Option<Opponent>,
    /// The rules: `chinese` (the default), `chinese-simple-ko` or `tromp-taylor`.
    rules: Option<RulesName>,
    /// Komi in points, a multiple of ½ (7.5 = 贴 3¾ 子 by default; 0 with handicap or 让先).
    #[schema(minimum = -361, maximum = 361, multiple_of = 0.5)]
    komi: Option<f64>,
    /// Handicap stones: 0 (the default) or 2 to 9, as many as the board takes (refused with
    /// 422 beyond).
    #[schema(minimum = 0, maximum = 9)]
    handicap: Option<usize>,
    /// `fixed` (star points, the default) or `free`.
    placement: Option<Placement>,
    /// 让先: Black plays first without komi (no handicap stones then).
    rang_xian: Option<bool>,
    /// The creator's colour: `black`, `white` or `nigiri` (the default).
    color: Option<ColorChoice>,
    /// For nigiri: the creator guesses `odd` (the default) or `even`.
    guess: Option<Guess>,
    /// Time control: `{"kind": "none"}` (default), `absolute`, `byoyomi`, `canadian`, `fischer`.
    time: Option<TimeControl>,
    /// The creator's name, whichever colour the creator gets: 1 to 40 printable characters
    /// (refused with 422 otherwise). Each seat may set or change its own later (`POST
    /// /api/games/{id}/name`).
    #[schema(min_length = 1, max_length = 40)]
    name: Option<String>,
    /// Black's name, as `name` (a friend's seat left unnamed until the friend names it).
    #[schema(min_length = 1, max_length = 40)]
    black_name: Option<String>,
    /// White's name, as Black's.
    #[schema(min_length = 1, max_length = 40)]
    white_name: Option<String>,
}

/// The rules a game may be played under: area scoring only.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "kebab-case")]
enum RulesName {
    /// The Chinese rules: positional superko, no suicide, komi 3¾ stones.
    Chinese,
    /// The Chinese rules with the simple ko rule.
    ChineseSimpleKo,
    /// Tromp–Taylor: positional superko, suicide allowed.
    TrompTaylor,
}

impl RulesName {
    fn as_str(self) -> &'static str {
        match self {
            RulesName::Chinese => "chinese",
            RulesName::ChineseSimpleKo => "chinese-simple-ko",
            RulesName::TrompTaylor => "tromp-taylor",
        }
    }
}

/// The creator's colour.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum ColorChoice {
    /// Black.
    Black,
    /// White.
    White,
    /// Drawn by nigiri (猜先).
    Nigiri,
}

/// The nigiri guess.
#[derive(Clone, Copy, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
enum Guess {
    /// An odd number of stones in the hand.
    Odd,
    /// An even number.
    Even,
}

/// A created game: its view and the seat tokens (shown once; keep them).
#[derive(Serialize, ToSchema)]
struct Created {
    /// The game's id (read and watch with it).
    id: String,
    /// The creator's colour.
    #[schema(value_type = String)]
    color: Color,
    /// The creator's seat token.
    token: String,
    /// The other seat's token, for the friend (none against the computer).
    friend_token: Option<String>,
    /// The game.
    game: View,
}

/// Recent games, newest first.
#[utoipa::path(get, path = "/api/games", params(("limit" = Option<i64>, Query, minimum = 1, maximum = 500, description = "at most this many (50)")),
    responses((status = 200, body = Vec<Summary>)))]
async fn recent(
    AxumState(app): AxumState<AppState>,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Json<Vec<Summary>>, ApiError> {
    let limit = match q.get("limit") {
        Some(l) => l
            .parse::<i64>()
            .ok()
            .filter(|l| (1..=500).contains(l))
            .ok_or_else(|| ApiError::bad_request("limit must be 1 to 500"))?,
        None => 50,
    };
    Ok(Json(app.store().recent(limit).await?))
}

/// Creates a game.
#[utoipa::path(post, path = "/api/games", request_body = Option<NewGame>,
    responses((status = 201, body = Created),
        (status = 422, body = ErrorBody, description = "refused: handicap stones the board cannot take, a name that breaks the rule for names"),
        (status = 429, body = ErrorBody, description = "too many games created from this address, or the computer already busy with its games")))]
async fn create(
    AxumState(app): AxumState<AppState>,
    client: Client,
    Body(new): Body<NewGame>,
) -> Result<Response, ApiError> {
    let size = new.size.unwrap_or(19);
    let opponent = new.opponent.unwrap_or(Opponent::Computer { level: 5 });
    let rules_name = new.rules.unwrap_or(RulesName::Chinese).as_str().to_owned();
    let handicap = new.handicap.unwrap_or(0);
    let rang_xian = new.rang_xian.unwrap_or(false);
    if rang_xian && handicap > 0 {
        return Err(
            ApiError::refused("让先 (rang_xian) is a game without handicap stones").because("rang_xian_handicap")
        );
    }
    let rules = Rules::preset(&rules_name).map_err(|_| GameError::Rules(rules_name.clone()))?;
    let komi = match new.komi {
        Some(k) => crate::domain::komi_points(k)?,
        None if handicap > 0 || rang_xian => Komi::ZERO,
        None => rules.komi,
    };
    let (color, nigiri) = match new.color.unwrap_or(ColorChoice::Nigiri) {
        ColorChoice::Nigiri => {
            let guess = match new.guess.unwrap_or(Guess::Odd) {
                Guess::Odd => Parity::Odd,
                Guess::Even => Parity::Even,
            };
            let n = Nigiri::draw(&mut rand::rng(), guess);
            (n.guesser_color(), Some((guess == Parity::Odd, n.handful)))
        }
        ColorChoice::Black => (Color::Black, None),
        ColorChoice::White => (Color::White, None),
    };
    let computer = matches!(opponent, Opponent::Computer { .. }).then_some(!color);
    // Every name given is checked (and trimmed) here; a seat nobody named stays empty (the
    // page shows the colour), the computer's seat is named after its level.
    let checked = |what: &str, given: Option<String>| {
        given.map(|n| check_name(&n).map_err(|why| GameError::Name { what: what.into(), why })).transpose()
    };
    let creator = checked("name", new.name)?;
    let given = [checked("black_name", new.black_name)?, checked("white_name", new.white_name)?];
    let name = |c: Color| {
        given[c.index()].clone().or_else(|| creator.clone().filter(|_| c == color)).unwrap_or_else(|| {
            match (computer, opponent) {
                (Some(cc), Opponent::Computer { level }) if cc == c => format!("tengen (level {level})"),
                _ => String::new(),
            }
        })
    };
    let config = Config {
        size,
        rules: rules_name,
        komi_half_points: komi.half_points(),
        handicap,
        placement: new.placement.unwrap_or_default(),
        opponent,
        computer,
        time: new.time.unwrap_or_default(),
        black_name: name(Color::Black),
        white_name: name(Color::White),
        nigiri,
        imported: false,
    };
    let created = now_ms();
    let state = State::new(config, created)?;
    app.quotas().new_game(client)?;
    // The computer moves (or places its stones) first: a place in the client's share, held
    // until the game is stored and its job queued.
    let _room = if computer == Some(Color::Black) { Some(app.computer_room(client).await?) } else { None };
    let id = random_token(8);
    let token = random_token(16);
    let friend_token = computer.is_none().then(|| random_token(16));
    let mut tokens = [None, None];
    tokens[color.index()] = Some(token_hash(&token));
    tokens[(!color).index()] = friend_token.as_deref().map(token_hash);
    let stored = StoredGame { id: id.clone(), created_ms: created, config: state.config.clone(), tokens, sgf: None };
    app.create(&stored, &state, client).await?;
    let game = View::of(&id, &state, now_ms());
    Ok((StatusCode::CREATED, Json(Created { id, color, token, friend_token, game })).into_response())
}

/// Imports an SGF record (the body) as a game to review: the first game of the file, replayed
/// under the Chinese rules. Refused: a file past the size, node or depth limits (413), one
/// that is not SGF or has a board size outside 2 to 25 (400), a record with a move that cannot
/// be replayed, with more than the server's moves, with a player name that breaks the rule for
/// names, or with nothing in it (422).
#[utoipa::path(post, path = "/api/games/import",
    request_body(description = "An SGF file (any encoding the reader knows); the content type is not checked.",
        content((SgfText = "application/x-go-sgf"), (SgfText = "text/plain"))),
    responses((status = 201, body = View), (status = 400, body = ErrorBody, description = "the body holds no SGF game tree"),
        (status = 413, body = ErrorBody, description = "past the byte, node or depth limit"),
        (status = 422, body = ErrorBody, description = "a game tree that cannot be read or replayed, or that holds nothing"),
        (status = 429, body = ErrorBody, description = "too many imports from this address")))]
async fn import(
    AxumState(app): AxumState<AppState>,
    client: Client,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, ApiError> {
    let limits = app.limits().sgf;
    let body = body.map_err(|e| body_error(&e, limits.bytes))?;
    app.quotas().new_game(client)?;
    // Read off the async threads (a large record takes long and much memory, given back).
    let (sgf, replay) = crate::load::parse_off_thread(move || {
        let (record, replay) = replay_sgf(&body, &limits, Rules::chinese(), ": the record was not imported")?;
        Ok((record.to_sgf(), replay))
    })
    .await?;
    let info = &replay.info;
    let moves = replay.game.moves().len();
    if moves > MAX_MOVES {
        return Err(ApiError::refused(format!(
            "the record has {moves} moves, more than the {MAX_MOVES} a game may have on this server"
        )));
    }
    let start = replay.game.start();
    let game_info = [&info.black, &info.white, &info.result, &info.date, &info.event, &info.rules];
    let stones = start.stone_count(Color::Black) + start.stone_count(Color::White);
    if moves == 0 && stones == 0 && game_info.iter().all(|v| v.is_none()) {
        return Err(ApiError::refused(
            "the record holds no move, no stone and no game information: there is nothing to import",
        )
        .because("sgf_empty"));
    }
    let name = |given: &Option<String>, what: &str, default: &str| match given.as_deref() {
        None | Some("") => Ok(default.to_owned()),
        Some(n) => {
            check_name(n).map_err(|why| ApiError::refused(format!("{what}: {why}: the record was not imported")))
        }
    };
    let black_name = name(&info.black, "the black player's name (PB)", "")?;
    let white_name = name(&info.white, "the white player's name (PW)", "")?;
    let config = Config {
        size: info.size,
        rules: "chinese".into(),
        komi_half_points: replay.game.rules().komi.half_points(),
        handicap: replay.game.handicap(),
        placement: Placement::Free,
        opponent: Opponent::Friend,
        computer: None,
        time: TimeControl::None {},
        black_name,
        white_name,
        nigiri: None,
        imported: true,
    };
    let created = now_ms();
    let id = random_token(8);
    // Stored as tengen writes it: one encoding, escaped, re-readable.
    let stored = StoredGame {
        id: id.clone(),
        created_ms: created,
        config: config.clone(),
        tokens: [None, None],
        sgf: Some(sgf),
    };
    let state = State::imported(config, replay.game, created);
    app.create(&stored, &state, client).await?;
    Ok((StatusCode::CREATED, Json(View::of(&id, &state, now_ms()))).into_response())
}

/// An SGF file: a game tree starts with `(;`.
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "\\(\\s*;")]
#[allow(dead_code)]
struct SgfText(String);

/// A game as it stands, or as it was after `at` moves (for review).
#[utoipa::path(get, path = "/api/games/{id}", params(("id" = String, Path),
        ("at" = Option<usize>, Query, minimum = 0, description = "the position after this many moves"),
        ("then" = Option<String>, Query, description = "a variation from that position (the last without `at`): moves separated by commas (`D4,E5,pass`), colours alternating")),
    responses((status = 200, body = View),
        (status = 409, body = ErrorBody, description = "a variation of a game still in play (`in_play`)"),
        (status = 422, body = ErrorBody, description = "the game has fewer moves; a move of the variation is unreadable or illegal (the rules' sentence and `reason`)")))]
async fn read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    Query(q): Query<std::collections::HashMap<String, String>>,
) -> Result<Json<View>, ApiError> {
    let (stored, mut state) = app.load(&id).await?;
    let at = match q.get("at") {
        None => None,
        // A number of any length is a move number: past the game's moves, whatever its size.
        Some(at) => Some(match at.parse() {
            Ok(at) => at,
            Err(_) if !at.is_empty() && at.bytes().all(|b| b.is_ascii_digit()) => usize::MAX,
            Err(_) => return Err(ApiError::bad_request(format!("at: a move number, not {at:?}"))),
        }),
    };
    let then = q.get("then").filter(|t| !t.trim().is_empty());
    if then.is_some() && !crate::study::studied(&stored, &state) {
        return Err(ApiError::in_conflict("the game is still in play: variations are played once it has ended")
            .because("in_play"));
    }
    if at.is_some() || then.is_some() {
        // The position after `at` moves (the last without it), without the counting phase's
        // marks; a variation plays on from there.
        state.game = crate::study::position_at(&state.game, at)?;
        state.dead.clear();
        state.undo_request = None;
    }
    if let Some(then) = then {
        let line: Vec<String> = then.split(',').map(str::to_owned).collect();
        crate::study::play_line(&mut state.game, &line, "then")?;
    }
    Ok(Json(View::of(&id, &state, now_ms())))
}

/// The commentator's names of every move of a game.
#[derive(Serialize, ToSchema)]
struct Commentary {
    /// One entry per move, in order (passes too, with no names).
    moves: Vec<MoveTerms>,
}

/// The names of one move.
#[derive(Serialize, ToSchema)]
struct MoveTerms {
    /// The move number, from 1.
    number: usize,
    /// `black` or `white`.
    #[schema(value_type = String)]
    color: Color,
    /// The vertex, or `pass`.
    #[serde(rename = "move")]
    #[schema(value_type = String)]
    mv: Move,
    /// The names, most specific first (docs/terms.md of the shared material).
    terms: Vec<TermView>,
}

/// One Go term (术语).
#[derive(Serialize, ToSchema)]
struct TermView {
    /// Canonical simplified Chinese.
    zh: String,
    /// Pinyin with tone marks.
    pinyin: String,
    /// English.
    en: String,
    /// Japanese (romanised), empty when there is none.
    ja: String,
    /// tactic, contact, cut, shape, move, opening, reduction, ko, position or region.
    kind: String,
}

/// The Go terms of every move of a game: 星, 小目, 小飞挂, 扳, 打吃, 征, 打劫 … (what the page
/// shows as commentary).
#[utoipa::path(get, path = "/api/games/{id}/terms", params(("id" = String, Path)),
    responses((status = 200, body = Commentary), (status = 404, body = ErrorBody)))]
async fn terms(AxumState(app): AxumState<AppState>, GameId(id): GameId) -> Result<Json<Commentary>, ApiError> {
    let (_, state) = app.load(&id).await?;
    let game = state.game;
    let moves = tokio::task::spawn_blocking(move || {
        let mut commentary = tengen_terms::Commentary::new(&game.truncated(0));
        let mut out = Vec::with_capacity(game.moves().len());
        for (i, &(color, mv)) in game.moves().iter().enumerate() {
            let names = match mv {
                Move::Play(p) => commentary.name(color, p).map(|n| n.terms).unwrap_or_default(),
                Move::Pass => Vec::new(),
            };
            let terms = names
                .into_iter()
                .map(|t| TermView {
                    kind: serde_json::to_value(t.kind)
                        .ok()
                        .and_then(|k| k.as_str().map(str::to_owned))
                        .unwrap_or_default(),
                    zh: t.zh,
                    pinyin: t.pinyin,
                    en: t.en,
                    ja: t.ja,
                })
                .collect();
            out.push(MoveTerms { number: i + 1, color, mv, terms });
            if commentary.play(color, mv).is_err() {
                break;
            }
        }
        out
    })
    .await
    .map_err(|e| ApiError::internal(&e))?;
    Ok(Json(Commentary { moves }))
}

/// The strength of a review: simulations of the playout search, or visits of the network
/// (when the server has one), a position. Neither: the playout search at 1,000.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct ReviewRequest {
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
#[utoipa::path(post, path = "/api/games/{id}/review", params(("id" = String, Path)), request_body = Option<ReviewRequest>,
    responses((status = 202, body = crate::reviews::ReviewView, description = "the job as it is now"),
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
    let (engine, strength) = match (req.visits, req.playouts) {
        (Some(_), Some(_)) => {
            return Err(ApiError::refused("ask visits (the network) or playouts, not both").because("strength"));
        }
        (Some(visits), None) => {
            let Some(network) = app.network() else {
                return Err(ApiError::refused("this server has no network: ask playouts").because("no_network"));
            };
            if visits == 0 || visits > limits.review_visits {
                return Err(ApiError::refused(format!("visits: 1 to {}", limits.review_visits)).because("strength"));
            }
            (crate::reviews::network_engine(network), visits)
        }
        (None, playouts) => {
            let playouts = playouts.unwrap_or(REVIEW_PLAYOUTS);
            if playouts == 0 || playouts > limits.review_playouts {
                return Err(ApiError::refused(format!("playouts: 1 to {}", limits.review_playouts)).because("strength"));
            }
            (crate::reviews::PLAYOUTS.to_owned(), playouts)
        }
    };
    let (stored, state) = app.load(&id).await?;
    if !crate::study::studied(&stored, &state) {
        return Err(
            ApiError::in_conflict("the game is still in play: it is reviewed when it has ended").because("in_play")
        );
    }
    if state.game.moves().is_empty() {
        return Err(ApiError::refused("the game has no moves to review").because("no_moves"));
    }
    let work = state.game.moves().len() as u64 * u64::from(strength);
    if work > limits.review_work {
        let most = limits.review_work / state.game.moves().len() as u64;
        return Err(ApiError::refused(format!(
            "a review of {} moves at {strength} a position is more work than a review may ask ({} in all): ask {most} or fewer",
            state.game.moves().len(),
            limits.review_work
        ))
        .because("strength"));
    }
    let waiting = app.store().reviews_waiting_of(&client.0.to_string(), &id, now_ms()).await?;
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
    let view = crate::reviews::ReviewView::of(&row)?;
    Ok((StatusCode::ACCEPTED, Json(view)).into_response())
}

/// The review of a game: its state (`none` until one is asked, then `queued`, `running`,
/// `done` or `failed`), progress, and the moves judged so far (all of them when done), with
/// the biggest mistakes.
#[utoipa::path(get, path = "/api/games/{id}/review", params(("id" = String, Path)),
    responses((status = 200, body = crate::reviews::ReviewView), (status = 404, body = ErrorBody)))]
async fn review_read(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
) -> Result<Json<crate::reviews::ReviewView>, ApiError> {
    app.load(&id).await?;
    Ok(Json(match app.store().review(&id).await? {
        Some(row) => crate::reviews::ReviewView::of(&row)?,
        None => crate::reviews::ReviewView::none(&id),
    }))
}

/// The game as SGF.
#[utoipa::path(get, path = "/api/games/{id}/sgf", params(("id" = String, Path)),
    responses((status = 200, content_type = "application/x-go-sgf", body = String), (status = 404, body = ErrorBody)))]
async fn sgf(AxumState(app): AxumState<AppState>, GameId(id): GameId) -> Result<Response, ApiError> {
    let (stored, state) = app.load(&id).await?;
    let text = match (&stored.sgf, stored.config.imported) {
        (Some(sgf), true) => sgf.clone(),
        _ => game_record(&stored, &state)?.to_sgf(),
    };
    Ok(sgf_response(&id, text))
}

/// Live updates: a WebSocket that receives the game's view now and after every change.
#[utoipa::path(get, path = "/api/games/{id}/live", params(("id" = String, Path)),
    responses((status = 101, description = "WebSocket: one View (JSON text) per change of the game, and `{\"review\": ReviewView}` per change of its review"),
        (status = 400, body = ErrorBody, description = "not a WebSocket request"),
        (status = 403, body = ErrorBody, description = "a page of another site"), (status = 404, body = ErrorBody),
        (status = 429, body = ErrorBody, description = "too many watchers from this address")))]
async fn live(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let ws = websocket(&app, &headers, ws)?;
    // The game first: an unknown id leaves nothing behind.
    app.load(&id).await?;
    app.watcher_opens(client)?;
    // Subscribe, then read: a change between the two reaches the watcher twice (the second
    // view is whole anyway), never zero times.
    let slot = slot.map(|Extension(slot)| slot);
    let mut watching = Watching { held: Some(app.subscribe(&id)), app: app.clone(), client, id: id.clone(), slot };
    let (_, state) = app.load(&id).await?;
    let first = serde_json::to_string(&View::of(&id, &state, now_ms())).map_err(|e| ApiError::internal(&e))?;
    Ok(ws
        .max_message_size(WATCHER_MESSAGE)
        .max_frame_size(WATCHER_MESSAGE)
        .read_buffer_size(WATCHER_MESSAGE)
        .on_upgrade(move |socket| async move {
            if let Some(changes) = watching.held.as_mut() {
                watch(socket, first, changes).await;
            }
        }))
}

async fn watch(
    mut socket: WebSocket,
    first: String,
    changes: &mut tokio::sync::broadcast::Receiver<std::sync::Arc<str>>,
) {
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            change = changes.recv() => match change {
                Ok(json) => {
                    if socket.send(Message::Text((&*json).into())).await.is_err() {
                        return;
                    }
                }
                // A slow watcher missed some: the next view carries the whole state anyway.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return,
                // Anything else a watcher sends is not part of the protocol: dropped.
                Some(Ok(_)) => {}
            },
        }
    }
}

/// A move: a vertex or `pass`, and its number (moves so far + 1) so that a move based on an
/// older position is refused.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
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
struct ToggleRequest {
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
struct Vertex(String);

/// A move: a vertex or `pass` (either case).
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^([A-HJ-Za-hj-z]([1-9]|1[0-9]|2[0-5])|[Pp][Aa][Ss][Ss])$")]
#[allow(dead_code)]
struct MoveText(String);

/// Free handicap stones.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct HandicapRequest {
    /// The vertices.
    #[schema(value_type = Vec<Vertex>)]
    points: Vec<Point>,
}

/// Plays a move for the token's seat.
#[utoipa::path(post, path = "/api/games/{id}/move", params(("id" = String, Path)), request_body = MoveRequest,
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
) -> Result<Json<View>, ApiError> {
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
#[utoipa::path(post, path = "/api/games/{id}/handicap", params(("id" = String, Path)), request_body = HandicapRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody)))]
async fn place(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<HandicapRequest>,
) -> Result<Json<View>, ApiError> {
    by_seat(&app, &id, client, &headers, Action::Handicap { points: req.points }, |_, _| Ok(())).await
}

macro_rules! seat_action {
    ($name:ident, $path:literal, $action:expr, $doc:literal) => {
        #[doc = $doc]
        #[utoipa::path(post, path = $path, params(("id" = String, Path)), security(("seat" = [])),
            responses((status = 200, body = View), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
                (status = 422, body = ErrorBody)))]
        async fn $name(
            AxumState(app): AxumState<AppState>,
            GameId(id): GameId,
            client: Client,
            headers: HeaderMap,
        ) -> Result<Json<View>, ApiError> {
            by_seat(&app, &id, client, &headers, $action, |_, _| Ok(())).await
        }
    };
}

seat_action!(resign, "/api/games/{id}/resign", Action::Resign, "Resigns for the token's seat.");
seat_action!(
    undo,
    "/api/games/{id}/undo",
    Action::UndoRequest,
    "Takes back the seat's last move: at once against the computer (its reply too), else a request."
);
seat_action!(undo_accept, "/api/games/{id}/undo/accept", Action::UndoAccept, "Accepts the other seat's undo request.");
seat_action!(undo_reject, "/api/games/{id}/undo/reject", Action::UndoReject, "Refuses the other seat's undo request.");

/// The marking a player accepts: the dead stones as the player saw them (the view's `dead`).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct AcceptRequest {
    /// Every stone marked dead, as the view lists them (`[]` for none). Refused with 409 when
    /// the marking changed since.
    #[schema(value_type = Vec<Vertex>)]
    dead: Vec<Point>,
}

/// Accepts the dead stones as marked, if they are still the ones the player saw.
#[utoipa::path(post, path = "/api/games/{id}/accept", params(("id" = String, Path)), request_body = AcceptRequest,
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
) -> Result<Json<View>, ApiError> {
    let action = Action::Accept { dead: Some(req.dead), judged: true, exact: true };
    by_seat(&app, &id, client, &headers, action, |_, _| Ok(())).await
}

/// The name a seat gives itself.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct NameRequest {
    /// 1 to 40 printable characters (refused with 422 otherwise).
    #[schema(min_length = 1, max_length = 40)]
    name: String,
}

/// Sets the name shown for the token's seat, and written to the game's record (PB, PW).
#[utoipa::path(post, path = "/api/games/{id}/name", params(("id" = String, Path)), request_body = NameRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody,
        description = "a name that breaks the rule for names")))]
async fn set_name(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<NameRequest>,
) -> Result<Json<View>, ApiError> {
    by_seat(&app, &id, client, &headers, Action::Name { name: req.name }, |_, _| Ok(())).await
}
seat_action!(resume, "/api/games/{id}/resume", Action::Resume, "Disagrees with the marking: play resumes.");

/// Marks the chain through a point dead, or alive again (counting phase).
#[utoipa::path(post, path = "/api/games/{id}/toggle", params(("id" = String, Path)), request_body = ToggleRequest,
    security(("seat" = [])), responses((status = 200, body = View), (status = 422, body = ErrorBody)))]
async fn toggle(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    client: Client,
    headers: HeaderMap,
    Body(req): Body<ToggleRequest>,
) -> Result<Json<View>, ApiError> {
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
) -> Result<Json<View>, ApiError> {
    let token = bearer(headers).map(str::to_owned);
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
    let state = app
        .act_as(id, client, token.as_deref(), action, |state, color| {
            if state.config.computer.is_some()
                && let Some(refusal) = no_room
            {
                return Err(refusal);
            }
            check(state, color)
        })
        .await?;
    Ok(Json(View::of(id, &state, now_ms())))
}

//! Records: an SGF import, a game as SGF, and the commentator's terms of its moves.

use crate::guard::Limits;
use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, State as AxumState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;
use tengen_core::{Color, Move, Rules};
use utoipa::ToSchema;

use crate::domain::view::View;
use crate::domain::{Config, MAX_MOVES, Opponent, Placement, State, TimeControl, check_name};
use crate::error::ApiError;
use crate::guard::Client;
use crate::http::extract::{ErrorBody, GameId, body_error};
use crate::http::sgf::{game_record, replay_sgf, sgf_response};
use crate::service::{AppState, now_ms};
use crate::store::StoredGame;
use crate::util::random_token;

/// The import (with the SGF limit), a game's SGF and its terms.
pub(super) fn routes(limits: &Limits) -> Router<AppState> {
    Router::new()
        .route("/api/games/import", post(import).layer(DefaultBodyLimit::max(limits.sgf.bytes)))
        .route("/api/games/{id}/sgf", get(sgf))
        .route("/api/games/{id}/terms", get(terms))
}

/// Imports an SGF record (the body) as a game to review: the first game of the file, replayed
/// under the Chinese rules. Refused: a file past the size, node or depth limits (413), one
/// that is not SGF or has a board size outside 2 to 25 (400), a record with a move that cannot
/// be replayed, with more than the server's moves, with a player name that breaks the rule for
/// names, or with nothing in it (422).
#[utoipa::path(post, tag = "records", path = "/api/games/import",
    request_body(description = "An SGF file (any encoding the reader knows); the content type is not checked.",
        content((SgfText = "application/x-go-sgf"), (SgfText = "text/plain"))),
    responses((status = 201, body = Imported, description = "the game, and what the reader recovered or dropped"), (status = 400, body = ErrorBody, description = "the body holds no SGF game tree"),
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
    let (sgf, replay, warnings) = crate::service::load::parse_off_thread(move || {
        let (record, replay) = replay_sgf(&body, &limits, Rules::chinese(), ": the record was not imported")?;
        Ok((record.to_sgf(), replay, import_warnings(&body)))
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
        rated: false,
        accounts: [None, None],
        computer_rating: None,
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
    Ok((StatusCode::CREATED, Json(Imported { game: View::of(&id, &state, now_ms()), warnings })).into_response())
}

/// The most warnings an import's answer lists (the last one says how many more there were).
const MAX_WARNINGS: usize = 20;

/// What the lenient reader recovered or dropped in an uploaded file: the strict reader's
/// findings, each with its line and column (a file cut short, a value closed early, a move that
/// cannot be played …), at most [`MAX_WARNINGS`].
fn import_warnings(bytes: &[u8]) -> Vec<String> {
    let text = tengen_sgf::decode(bytes).text;
    let found = tengen_sgf::check_strict(&text);
    let mut warnings: Vec<String> = found.iter().take(MAX_WARNINGS).map(ToString::to_string).collect();
    if found.len() > MAX_WARNINGS {
        warnings.pop();
        warnings.push(format!("… and {} more", found.len() - (MAX_WARNINGS - 1)));
    }
    warnings
}

/// An imported game: its view, and what the reader recovered or dropped.
#[derive(Serialize, ToSchema)]
pub(crate) struct Imported {
    /// The game as it stands.
    #[serde(flatten)]
    game: View,
    /// What the lenient reader recovered or dropped, as the strict reader finds it (empty for
    /// a clean file): the game may have fewer moves than the file meant.
    warnings: Vec<String>,
}

/// An SGF file: a game tree starts with `(;`.
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "\\(\\s*;")]
#[allow(dead_code)]
pub(crate) struct SgfText(String);

/// The commentator's names of every move of a game.
#[derive(Serialize, ToSchema)]
pub(crate) struct Commentary {
    /// One entry per move, in order (passes too, with no names).
    moves: Vec<MoveTerms>,
}

/// The names of one move.
#[derive(Serialize, ToSchema)]
pub(crate) struct MoveTerms {
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
    /// How many of `terms`, from the first, say what the move does (tactic, contact, shape,
    /// opening; its point's name only for the first stone of an empty area): a page that shows
    /// a few shows these, the rest (where it stands) on demand.
    main: usize,
}

/// One Go term (术语).
#[derive(Serialize, ToSchema)]
pub(crate) struct TermView {
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
#[utoipa::path(get, tag = "records", path = "/api/games/{id}/terms", params(("id" = String, Path)),
    responses((status = 200, body = Commentary), (status = 404, body = ErrorBody)))]
async fn terms(AxumState(app): AxumState<AppState>, GameId(id): GameId) -> Result<Json<Commentary>, ApiError> {
    let (_, state) = app.load(&id).await?;
    let game = state.game;
    let moves = tokio::task::spawn_blocking(move || {
        let mut commentary = tengen_terms::Commentary::new(&game.truncated(0));
        let mut out = Vec::with_capacity(game.moves().len());
        for (i, &(color, mv)) in game.moves().iter().enumerate() {
            let (names, main) = match mv {
                Move::Play(p) => commentary.name(color, p).map(|n| (n.terms, n.main)).unwrap_or_default(),
                Move::Pass => (Vec::new(), 0),
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
            out.push(MoveTerms { number: i + 1, color, mv, terms, main });
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

/// The game as SGF; with `chat=1`, its chat as comments (each message on the node of the
/// last move before it, as `NAME (ROLE): TEXT`; the messages of accounts the logged-in reader
/// blocks left out).
#[utoipa::path(get, tag = "records", path = "/api/games/{id}/sgf", params(("id" = String, Path),
        ("chat" = Option<u8>, Query, minimum = 0, maximum = 1, description = "1: the chat as comments")),
    responses((status = 200, content_type = "application/x-go-sgf", body = String), (status = 400, body = ErrorBody, description = "a chat parameter that is not 0 or 1"),
        (status = 404, body = ErrorBody)))]
async fn sgf(
    AxumState(app): AxumState<AppState>,
    GameId(id): GameId,
    headers: axum::http::HeaderMap,
    axum::extract::Query(q): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let with_chat = match q.get("chat").map(String::as_str) {
        None | Some("0") => false,
        Some("1") => true,
        Some(_) => return Err(ApiError::bad_request("chat: 0 or 1")),
    };
    let (stored, state) = app.load(&id).await?;
    let text = match (&stored.sgf, stored.config.imported) {
        (Some(sgf), true) => sgf.clone(),
        _ if with_chat => {
            let reader = super::accounts::logged_in(&app, &headers).await?;
            let chat = app.whole_chat(&id, reader.as_ref()).await?;
            crate::service::load::record_with_chat(&state, &chat).to_sgf()
        }
        _ => game_record(&stored, &state)?.to_sgf(),
    };
    Ok(sgf_response(&id, text))
}

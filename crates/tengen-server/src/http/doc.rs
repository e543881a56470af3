//! The OpenAPI document: every feature's operations and schemas, the answers every
//! operation may give, and the links from a created game to its operations.

use utoipa::OpenApi;

#[derive(OpenApi)]
#[openapi(
    info(title = "tengen", description = "Play Go under the Chinese rules: games against the computer or a friend."),
    paths(
        super::games::recent,
        super::games::create,
        super::records::import,
        super::games::read,
        super::records::sgf,
        super::records::terms,
        super::games::live,
        super::seats::play,
        super::seats::place,
        super::seats::resign,
        super::seats::abort,
        super::seats::claim,
        super::games::presence,
        super::seats::undo,
        super::seats::undo_accept,
        super::seats::undo_reject,
        super::seats::toggle,
        super::seats::accept,
        super::seats::set_name,
        super::seats::resume,
        super::seats::sit,
        super::accounts::my_games,
        super::accounts::my_turns,
        super::accounts::player,
        super::accounts::player_ratings,
        super::accounts::player_games,
        super::ops::levels,
        super::challenges::list,
        super::challenges::post_challenge,
        super::challenges::withdraw,
        super::challenges::accept,
        super::challenges::decline,
        super::challenges::lobby_live,
        super::challenges::blocks,
        super::challenges::block,
        super::challenges::unblock,
        super::chat::read,
        super::chat::write,
        super::accounts::sign_up,
        super::accounts::log_in,
        super::accounts::log_out,
        super::accounts::me,
        super::accounts::change_password,
        super::accounts::delete_me,
        super::reviews::review_request,
        super::reviews::review_read,
        super::reviews::review_cancel,
        super::study::info,
        super::study::sgf_with_lines,
        super::analysis::analysis_start,
        super::analysis::analysis_read,
        super::analysis::analysis_stop,
        super::analysis::analysis_live
    ),
    components(schemas(
        super::games::NewGame,
        super::challenges::NewChallenge,
        super::challenges::ChallengeAccepted,
        super::challenges::Blocked,
        super::chat::ChatRequest,
        crate::service::presence::Presence,
        crate::service::presence::SeatPresence,
        crate::service::chat::ChatMessage,
        crate::service::lobby::ChallengeView,
        crate::domain::challenge::Handicap,
        crate::domain::challenge::AutoWord,
        crate::domain::challenge::ColorRule,
        super::accounts::Credentials,
        super::accounts::PasswordChange,
        super::accounts::Confirmation,
        super::accounts::Me,
        super::accounts::MyGame,
        super::accounts::Turn,
        super::accounts::SizeRating,
        super::accounts::Profile,
        crate::store::RatingChange,
        crate::domain::rating::Glicko,
        super::games::Created,
        super::seats::MoveRequest,
        super::seats::ToggleRequest,
        super::seats::AcceptRequest,
        super::seats::NameRequest,
        crate::domain::Dispute,
        crate::levels::Level,
        crate::levels::SizeStrength,
        super::reviews::ReviewRequest,
        crate::service::reviews::ReviewView,
        crate::service::reviews::ReviewedMove,
        super::analysis::AnalysisRequest,
        super::study::GameInfoView,
        super::study::CommentView,
        super::study::VariationView,
        super::study::SgfRequest,
        super::study::LineRequest,
        crate::service::analysis::Snapshot,
        crate::service::analysis::Candidate,
        super::seats::HandicapRequest,
        crate::domain::view::View,
        crate::store::Summary,
        crate::http::extract::ErrorBody,
        super::records::Commentary,
        super::records::MoveTerms,
        super::records::TermView,
        super::seats::Vertex,
        super::seats::MoveText,
        super::records::SgfText,
        super::records::Imported,
        super::games::RulesName,
        super::games::ColorChoice,
        super::games::Guess,
        super::games::ListState
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
pub(super) fn document() -> &'static serde_json::Value {
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

//! The page: one HTML file, its script modules and its style sheet, built into the binary and
//! served from one table. The page routes on the client (`/`, `/games`, `/games/ID`, `/lobby`,
//! `/login`, `/players/NAME`) and uses only the API.

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

const INDEX: &str = include_str!("../web/index.html");
const JS: &str = "text/javascript; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";

/// The files under `/static/`: their path, type and text. A module of `web/js` missing here
/// fails the page's test.
const FILES: &[(&str, &str, &str)] = &[
    ("style.css", CSS, include_str!("../web/style.css")),
    ("js/main.js", JS, include_str!("../web/js/main.js")),
    ("js/store.js", JS, include_str!("../web/js/store.js")),
    ("js/dom.js", JS, include_str!("../web/js/dom.js")),
    ("js/i18n.js", JS, include_str!("../web/js/i18n.js")),
    ("js/api.js", JS, include_str!("../web/js/api.js")),
    ("js/settings.js", JS, include_str!("../web/js/settings.js")),
    ("js/sound.js", JS, include_str!("../web/js/sound.js")),
    ("js/board.js", JS, include_str!("../web/js/board.js")),
    ("js/clock.js", JS, include_str!("../web/js/clock.js")),
    ("js/game.js", JS, include_str!("../web/js/game.js")),
    ("js/seats.js", JS, include_str!("../web/js/seats.js")),
    ("js/panel.js", JS, include_str!("../web/js/panel.js")),
    ("js/counting.js", JS, include_str!("../web/js/counting.js")),
    ("js/commentary.js", JS, include_str!("../web/js/commentary.js")),
    ("js/review.js", JS, include_str!("../web/js/review.js")),
    ("js/analysis.js", JS, include_str!("../web/js/analysis.js")),
    ("js/variations.js", JS, include_str!("../web/js/variations.js")),
    ("js/record.js", JS, include_str!("../web/js/record.js")),
    ("js/newgame.js", JS, include_str!("../web/js/newgame.js")),
    ("js/recent.js", JS, include_str!("../web/js/recent.js")),
    ("js/account.js", JS, include_str!("../web/js/account.js")),
    ("js/profile.js", JS, include_str!("../web/js/profile.js")),
    ("js/lobby.js", JS, include_str!("../web/js/lobby.js")),
    ("js/chat.js", JS, include_str!("../web/js/chat.js")),
    ("js/presence.js", JS, include_str!("../web/js/presence.js")),
];

async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], INDEX)
}

async fn file(Path(path): Path<String>) -> Response {
    match FILES.iter().find(|(name, _, _)| *name == path) {
        Some((_, kind, text)) => {
            ([(header::CONTENT_TYPE, *kind), (header::CACHE_CONTROL, "no-cache")], *text).into_response()
        }
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// The page's routes.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(index))
        .route("/games", get(index))
        .route("/games/{id}", get(index))
        .route("/login", get(index))
        .route("/lobby", get(index))
        .route("/players/{name}", get(index))
        .route("/static/{*path}", get(file))
}

#[cfg(test)]
mod tests;

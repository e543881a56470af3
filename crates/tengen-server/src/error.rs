//! One error type for the API: an HTTP status and a JSON body `{"error": …, "detail": …}`.
//! Database and internal failures are logged; the client gets a generic message.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::domain::{GameError, Reason};
use crate::store::StoreError;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// A short code: `not_found`, `refused`, …
    pub error: &'static str,
    /// What went wrong, for people.
    pub detail: String,
    /// Seconds after which a retry may succeed (429, 503).
    pub retry_after: Option<u64>,
    /// A refusal of the game's: its code and the point or colour it names, for clients that
    /// word it themselves.
    pub reason: Option<Reason>,
    /// The move a record's replay stopped at, and the rules' reason (`occupied` …).
    pub refused_move: Option<(usize, Option<&'static str>)>,
}

impl ApiError {
    fn new(status: StatusCode, error: &'static str, detail: impl Into<String>) -> ApiError {
        ApiError { status, error, detail: detail.into(), retry_after: None, reason: None, refused_move: None }
    }

    /// 400: the request cannot be read.
    pub fn bad_request(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", detail)
    }

    /// 401: a seat token is needed.
    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "this needs a seat token: Authorization: Bearer TOKEN (from the game's creation)",
        )
    }

    /// 403: the token is not a seat of this game.
    pub fn forbidden() -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", "this token is not a seat of this game")
    }

    /// 403: someone else's: `detail` says whose.
    pub fn not_yours(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, "forbidden", detail)
    }

    /// 403: a WebSocket opened by a page of another site.
    pub fn forbidden_origin() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "live updates are for this server's own page (or the origins allowed with --origin)",
        )
    }

    /// The same error with another status.
    #[must_use]
    pub fn with_status(mut self, status: StatusCode) -> ApiError {
        self.status = status;
        self
    }

    /// 401: the request needs a logged-in player (a session cookie).
    pub fn not_logged_in() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "not_logged_in", "log in first (POST /api/session)")
            .because("not_logged_in")
    }

    /// 401: a name and password that do not match an account (which of the two is not said).
    pub fn wrong_credentials() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "wrong_credentials", "wrong name or password")
            .because("wrong_credentials")
    }

    /// 403: a request that would act under a session cookie, sent by a page of another site
    /// (or with no `Origin` or `Referer` to tell).
    pub fn cross_site() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "cross_site",
            "a request under a login must come from this server's own page (or an origin allowed with --origin)",
        )
        .because("cross_site")
    }

    /// 404: no such game.
    pub fn not_found(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no game {shown}"))
    }

    /// 404: no such analysis (never started, or finished over a minute ago).
    pub fn no_analysis(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            "not_found",
            format!("no analysis {shown} (finished ones are kept a minute)"),
        )
    }

    /// 404: no such route.
    pub fn no_route(path: &str) -> ApiError {
        let shown: String = path.chars().take(80).collect();
        ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("no such address: {shown}"))
    }

    /// 405: the route exists with other methods.
    pub fn wrong_method(method: &str, path: &str) -> ApiError {
        let shown: String = path.chars().take(80).collect();
        ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            format!("{method} is not served at {shown}"),
        )
    }

    /// 409: the request was based on an older state of the game.
    pub fn stale(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "stale", detail)
    }

    /// 409: the game's state does not allow the request now.
    pub fn in_conflict(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, "conflict", detail)
    }

    /// 422: the rules or the game's state refuse the action.
    pub fn refused(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "refused", detail)
    }

    /// The same error with the code of its refusal ([`Reason`]), for a refusal that is not
    /// a [`GameError`].
    #[must_use]
    pub fn because(mut self, code: &'static str) -> ApiError {
        self.reason = Some(Reason { code, point: None, color: None });
        self
    }

    /// The same error naming move `number` of a record, refused by the rules for `cause` (its
    /// code and point), played by `color`.
    #[must_use]
    pub fn at_move(mut self, number: usize, cause: Option<Reason>, color: Option<tengen_core::Color>) -> ApiError {
        if let Some(reason) = &mut self.reason {
            reason.point = cause.as_ref().and_then(|c| c.point);
            reason.color = color;
        }
        self.refused_move = Some((number, cause.map(|c| c.code)));
        self
    }

    /// 413: the body is larger than the server takes.
    pub fn too_large(detail: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", detail)
    }

    /// 429: a client past its share; `retry_after` seconds go in the `Retry-After` header.
    pub fn too_many(detail: impl Into<String>, retry_after: u64) -> ApiError {
        let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", detail);
        e.retry_after = Some(retry_after.max(1));
        e
    }

    /// 503: the server cannot serve this now (its database is unreachable, its queue full).
    pub fn unavailable(detail: impl Into<String>, retry_after: u64) -> ApiError {
        let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", detail);
        e.retry_after = Some(retry_after.max(1));
        e
    }

    /// 500, logged with its cause; the client sees no internals.
    pub fn internal(cause: &dyn std::fmt::Display) -> ApiError {
        tracing::error!("internal error: {cause}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", "the server failed; the game is unchanged")
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict => ApiError::stale("the game changed meanwhile: reload it and try again"),
            other => ApiError::internal(&other),
        }
    }
}

impl From<GameError> for ApiError {
    /// The one mapping of the game's refusals: a value outside the range the API document
    /// gives is a bad request (400), a marking changed meanwhile is stale, a log that does not
    /// replay is the server's fault, anything else — a request the document allows that the
    /// rules or the game's state refuse, such as a handicap the board cannot take — is 422.
    fn from(e: GameError) -> ApiError {
        let reason = Some(e.reason());
        let mut api = match e {
            GameError::Size(_)
            | GameError::Komi(_)
            | GameError::Level(_)
            | GameError::Time(_)
            | GameError::Rules(_) => ApiError::bad_request(e.to_string()),
            GameError::MarkingChanged { .. } => ApiError::stale(e.to_string()),
            GameError::Log { .. } => return ApiError::internal(&e),
            _ => ApiError::refused(e.to_string()),
        };
        api.reason = reason;
        api
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.error, "detail": self.detail });
        if let Some(r) = self.reason {
            body["reason"] = r.code.into();
            if let Some(p) = r.point {
                body["point"] = p.to_string().into();
            }
            if let Some(c) = r.color {
                body["color"] = c.to_string().into();
            }
        }
        if let Some((number, cause)) = self.refused_move {
            body["number"] = number.into();
            if let Some(cause) = cause {
                body["cause"] = cause.into();
            }
        }
        let body = Json(body);
        let mut response = (self.status, body).into_response();
        if let Some(seconds) = self.retry_after {
            response.headers_mut().insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

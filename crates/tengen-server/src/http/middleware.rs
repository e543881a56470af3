//! The layer around every request: the client's rate limit, the request timeout, the
//! security headers, the request log and the metrics; and the answer to a handler's panic.

use std::sync::atomic::Ordering;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::guard::{Client, Quotas};
use crate::service::AppState;

/// The Content-Security-Policy of every answer: the page's own script, style and
/// connections (its WebSocket included) only; no frames, no plugins, no inline code.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The layer around every request: the client's rate limit (429 with `Retry-After`), the
/// security headers, the log line (method, route, status, latency: never a header, so never
/// a token) and the metrics.
pub async fn guard(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let started = Instant::now();
    let client = Client::of(request.extensions());
    let method = method_label(request.method());
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str).to_owned();
    // The page's files are constant text in memory: they do not count against the client's
    // requests (a page load asks for a score of modules at once).
    let quota = if route.starts_with("/static/") { Ok(()) } else { Quotas::check(&app.quotas().requests, client) };
    let mut response = match quota {
        Ok(()) => match tokio::time::timeout(app.limits().request_timeout, next.run(request)).await {
            Ok(response) => response,
            Err(_) => {
                let limit = app.limits().request_timeout.as_secs_f64();
                tracing::warn!(%method, %route, "request timed out after {limit} s");
                ApiError::unavailable(format!("the answer took longer than {limit} s: try again"), 1).into_response()
            }
        },
        Err(wait) => {
            // Counted once, in `tengen_rate_limited_total`: no series, no log line per refusal
            // (a flood must not grow the metrics or the log).
            app.metrics().limited.fetch_add(1, Ordering::Relaxed);
            let mut response =
                ApiError::too_many(format!("too many requests from this address: slow down ({wait} s)"), wait)
                    .into_response();
            security_headers(response.headers_mut());
            return response;
        }
    };
    security_headers(response.headers_mut());
    if response.extensions().get::<Panicked>().is_some() {
        app.metrics().panics.fetch_add(1, Ordering::Relaxed);
    }
    let status = response.status().as_u16();
    let elapsed = started.elapsed();
    app.metrics().record(method, &route, status, elapsed);
    let ms = (elapsed.as_secs_f64() * 1e4).round() / 10.0;
    if status >= 500 {
        tracing::warn!(%method, %route, status, latency_ms = ms, client = %client.0, "request");
    } else {
        tracing::info!(%method, %route, status, latency_ms = ms, client = %client.0, "request");
    }
    response
}

/// The security headers of every answer.
fn security_headers(headers: &mut axum::http::HeaderMap) {
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::HeaderName::from_static("cross-origin-opener-policy"), "same-origin"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

/// The method as the metrics and the log name it: one of HTTP's own, or `other` — a client
/// chooses the method's text (any token, 100,000 characters long), and each new one was a
/// new series of `/metrics` for good and a log line as long.
fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::OPTIONS,
        Method::PATCH,
        Method::CONNECT,
        Method::TRACE,
    ]
    .into_iter()
    .zip(["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "CONNECT", "TRACE"])
    .find_map(|(m, label)| (m == method).then_some(label))
    .unwrap_or("other")
}

/// Marks the answer to a handler's panic, so that [`guard`] counts it in
/// `tengen_panics_total` (the answer itself is logged and counted like any other).
#[derive(Clone, Copy)]
struct Panicked;

/// A handler that panicked: 500 in the API's own form, and the panic logged (the server
/// goes on: each request is its own task). The layer that calls it sits inside [`guard`], so
/// the answer is in the request log and the metrics.
pub fn panicked(cause: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let text = cause
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| cause.downcast_ref::<&str>().copied())
        .unwrap_or("a panic without a message");
    let mut response = ApiError::internal(&format_args!("a request handler panicked: {text}")).into_response();
    response.extensions_mut().insert(Panicked);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_are_labelled_from_a_bounded_set() {
        let long = axum::http::Method::from_bytes("X".repeat(100_000).as_bytes()).unwrap();
        assert_eq!(method_label(&long), "other");
        assert_eq!(method_label(&axum::http::Method::from_bytes(b"PROPFIND").unwrap()), "other");
        assert_eq!(method_label(&axum::http::Method::GET), "GET");
        assert_eq!(method_label(&axum::http::Method::PATCH), "PATCH");
    }
}

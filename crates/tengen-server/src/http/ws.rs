//! WebSocket upgrades: the Origin check, the message limit, and a watcher counted while it
//! stays.

use axum::extract::ws::WebSocketUpgrade;
use axum::http::{HeaderMap, header};

use crate::app::AppState;
use crate::error::ApiError;
use crate::guard::Client;

/// The largest message a watcher may send (the protocol reads none but Close; what it sends
/// is dropped).
pub(crate) const WATCHER_MESSAGE: usize = 1024;

/// Whether a WebSocket's `Origin` (sent by every browser) is the server's own page or one
/// of the origins allowed with `--origin`; clients that send none (not a browser) may watch.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    ["http://", "https://"].iter().any(|scheme| {
        origin.len() == scheme.len() + host.len()
            && origin[..scheme.len()].eq_ignore_ascii_case(scheme)
            && origin[scheme.len()..].eq_ignore_ascii_case(host)
    })
}

/// A WebSocket upgrade from the server's own page (or an allowed origin, or a client that is
/// no browser).
///
/// # Errors
/// 403 for a page of another site, 400 for a request that is not a WebSocket.
pub(crate) fn websocket(
    app: &AppState,
    headers: &HeaderMap,
    ws: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<WebSocketUpgrade, ApiError> {
    if !origin_allowed(headers, &app.limits().origins) {
        return Err(ApiError::forbidden_origin());
    }
    ws.map_err(|e| ApiError::bad_request(format!("this address takes a WebSocket: {}", e.body_text())))
}

/// A watcher's place: what it holds (a game's channel, an analysis's count) and its count
/// of the client's watchers, given back however the socket ends (or when the upgrade never
/// happens).
pub(crate) struct Watching<T> {
    pub(crate) app: AppState,
    pub(crate) client: Client,
    pub(crate) id: String,
    pub(crate) held: Option<T>,
}

impl<T> Drop for Watching<T> {
    fn drop(&mut self) {
        // What it holds first, so that a game's channel is seen unwatched.
        drop(self.held.take());
        self.app.watcher_closes(self.client, &self.id);
    }
}

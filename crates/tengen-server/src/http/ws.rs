//! WebSocket upgrades: the Origin check, the message limit, a place among the long-lived
//! sockets, a watcher counted while it stays; and the sockets' heartbeat: a ping every
//! `Limits::ping_every`, the socket closed when it answers none of two or a send stalls.

use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{HeaderMap, header};

use crate::error::ApiError;
use crate::guard::Client;
use crate::http::connections::ConnectionSlot;
use crate::service::AppState;

/// The largest message a watcher may send (the protocol reads none but Close; what it sends
/// is dropped).
pub(crate) const WATCHER_MESSAGE: usize = 1024;

/// Whether a WebSocket's `Origin` (sent by every browser) is one of the origins allowed with
/// `--origin`, or the server's own page reached by an address no DNS answer can stand for: an
/// IP address or `localhost`, the `Host` the request came to. A page's host name is never
/// trusted by the `Host` header alone: under DNS rebinding an attacker's name resolves to the
/// server, and the browser sends that name as both `Origin` and `Host`. A server reached by a
/// name is given it with `--origin`. Clients that send no `Origin` (no browser) may watch.
fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    origin_allowed_value(headers, origin, allowed)
}

/// Whether `origin` is one of `allowed`, or the server's own page reached by an IP address or
/// `localhost` (the request's `Host`): see [`origin_allowed`].
pub(crate) fn origin_allowed_value(headers: &HeaderMap, origin: &str, allowed: &[String]) -> bool {
    if allowed.iter().any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin)) {
        return true;
    }
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else { return false };
    if !unrebindable(host) {
        return false;
    }
    ["http://", "https://"].iter().any(|scheme| {
        origin.len() == scheme.len() + host.len()
            && origin[..scheme.len()].eq_ignore_ascii_case(scheme)
            && origin[scheme.len()..].eq_ignore_ascii_case(host)
    })
}

/// Whether a `Host` (a name or address, and an optional port) is an IP address or
/// `localhost`: what a browser reaches without asking DNS.
fn unrebindable(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        // [IPv6]:port
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':')
            .map_or(host, |(name, port)| if port.bytes().all(|b| b.is_ascii_digit()) { name } else { host })
    };
    name.parse::<std::net::IpAddr>().is_ok() || name.eq_ignore_ascii_case("localhost")
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

/// The connection's place among the long-lived sockets (none where requests come without a
/// socket).
///
/// # Errors
/// 429 past the address's or network's share of sockets, 503 when every socket's place is
/// taken.
pub(crate) fn hold(slot: Option<axum::Extension<ConnectionSlot>>) -> Result<Option<ConnectionSlot>, ApiError> {
    let slot = slot.map(|axum::Extension(slot)| slot);
    if let Some(slot) = &slot {
        slot.long_lived()?;
    }
    Ok(slot)
}

/// Pings a socket and notices when it stops answering, and bounds its sends: a client that
/// never reads (its pongs never come, its buffers fill) is closed, its place given back.
pub(crate) struct Heartbeat {
    tick: tokio::time::Interval,
    every: Duration,
    unanswered: u32,
}

/// Pings a socket may leave unanswered.
const MISSED_PINGS: u32 = 2;

impl Heartbeat {
    pub(crate) fn new(app: &AppState) -> Heartbeat {
        let every = app.limits().ping_every.max(Duration::from_millis(10));
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Heartbeat { tick, every, unanswered: 0 }
    }

    /// The next ping's time (cancel-safe, for `select!`).
    pub(crate) async fn due(&mut self) {
        self.tick.tick().await;
    }

    /// At a ping's time: pings, or `false` when the socket should close (it answered none of
    /// the last pings, or the ping stalled).
    pub(crate) async fn ping(&mut self, socket: &mut WebSocket) -> bool {
        self.unanswered += 1;
        self.unanswered <= MISSED_PINGS && self.send(socket, Message::Ping(Default::default())).await
    }

    /// The client sent something (a pong or any message): it is there.
    pub(crate) fn heard(&mut self) {
        self.unanswered = 0;
    }

    /// Sends `message`: `false` when the socket failed or the send stalled for a ping's
    /// interval (the socket should then close).
    pub(crate) async fn send(&self, socket: &mut WebSocket, message: Message) -> bool {
        matches!(tokio::time::timeout(self.every, socket.send(message)).await, Ok(Ok(())))
    }
}

/// A watcher's place: what it holds (a game's channel, an analysis's count) and its count
/// of the client's watchers, given back however the socket ends (or when the upgrade never
/// happens).
pub(crate) struct Watching<T> {
    pub(crate) app: AppState,
    pub(crate) client: Client,
    pub(crate) id: String,
    pub(crate) held: Option<T>,
    /// The connection's places, kept while the socket is open (a WebSocket counts toward
    /// the connection limits as its connection did).
    pub(crate) slot: Option<ConnectionSlot>,
}

impl<T> Drop for Watching<T> {
    fn drop(&mut self) {
        // What it holds first, so that a game's channel is seen unwatched.
        drop(self.held.take());
        self.app.watcher_closes(self.client, &self.id);
        drop(self.slot.take());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: &str, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ORIGIN, origin.parse().unwrap());
        h.insert(header::HOST, host.parse().unwrap());
        h
    }

    #[test]
    fn an_origin_is_checked_against_addresses_and_the_allowed_list_only() {
        let none: &[String] = &[];
        for (origin, host) in [
            ("http://127.0.0.1:8080", "127.0.0.1:8080"),
            ("http://localhost:8080", "localhost:8080"),
            ("http://[::1]:8080", "[::1]:8080"),
            ("https://192.168.1.5", "192.168.1.5"),
        ] {
            assert!(origin_allowed(&headers(origin, host), none), "{origin}");
        }
        // DNS rebinding: the attacker's name, resolved to the server, as Origin and Host.
        assert!(!origin_allowed(&headers("http://rebind.example.com:8080", "rebind.example.com:8080"), none));
        assert!(!origin_allowed(&headers("http://127.0.0.1:9090", "127.0.0.1:8080"), none));
        assert!(!origin_allowed(&headers("http://localhost.example.com", "localhost.example.com"), none));
        let allowed = ["https://go.example.org/".to_owned()];
        assert!(origin_allowed(&headers("https://go.example.org", "go.example.org"), &allowed));
        assert!(!origin_allowed(&headers("https://evil.example.com", "go.example.org"), &allowed));
        assert!(origin_allowed(&HeaderMap::new(), none), "no Origin: no browser");
    }
}

//! `tengen serve`: the game server — an HTTP + JSON API (documented at `/api/openapi.json`),
//! live updates over WebSocket, and durable storage in SQLite or PostgreSQL.
//!
//! [`app()`] builds the router without a socket, so tests call it directly; [`serve()`] binds it.

pub mod domain;
pub mod error;
pub mod guard;
pub mod http;
pub mod levels;
pub mod page;
pub mod service;
pub mod store;
pub(crate) mod util;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

pub use error::ApiError;
pub use service::{AppState, Settings};
pub use store::Store;
pub use util::{set_memory_trim, test_clock};

/// The whole application: the page and the API, behind the per-client rate limit, the
/// request timeout, the security headers, the request log and the metrics ([`http::middleware::guard`]).
pub fn app(state: AppState) -> axum::Router {
    page::routes()
        .merge(http::routes(state.clone()))
        .layer(axum::middleware::from_fn_with_state(state, http::middleware::guard))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(http::middleware::panicked))
}

/// Opens the database, resumes unfinished games, checks clocks, and serves on `addr` until
/// Ctrl-C.
///
/// # Errors
/// A database that cannot be opened, an address that cannot be bound.
pub async fn serve(addr: SocketAddr, db: &str, settings: Settings) -> Result<(), Box<dyn std::error::Error>> {
    let store = Store::open(db).await?;
    let state = AppState::new(store, settings);
    let resumed = state.resume_all().await.map_err(|e| e.detail)?;
    state.listen_for_other_servers().await?;
    state.start_review_workers();
    state.start_computer_workers(crate::service::reviews::LEASE, true);
    let clocks = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        let mut ticks = 0u64;
        loop {
            tick.tick().await;
            clocks.check_clocks().await;
            ticks += 1;
            if ticks.is_multiple_of(10)
                && let Err(e) = clocks.heartbeat().await
            {
                tracing::warn!("heartbeat: {}", e.detail);
            }
            if ticks % 10 == 5 {
                clocks.lobby_tick().await;
                clocks.sweep_deadlines().await;
            }
            if ticks.is_multiple_of((clocks.presence_every_ms() / 100).max(1) as u64) {
                clocks.still_at_the_boards().await;
            }
            if ticks.is_multiple_of(50) {
                clocks.quotas().forget_idle();
            }
        }
    });
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    println!("tengen serves http://{bound}/ (database {db}; {resumed} unfinished games resumed)");
    tracing::info!(%bound, db, resumed, limits = ?state.limits(), "serving");
    let shutdown = tokio::signal::ctrl_c();
    tokio::pin!(shutdown);
    let router = app(state.clone());
    let connections = Arc::new(tokio::sync::Semaphore::new(state.limits().connections.max(1)));
    let by_address = guard::AddressConnections::default();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, most likely: wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let place = by_address.open(peer.ip(), state.limits().connections_per_address.max(1));
        let (Ok(permit), Some(place)) = (Arc::clone(&connections).try_acquire_owned(), place) else {
            state.metrics().connections_refused.fetch_add(1, Ordering::Relaxed);
            drop(stream);
            continue;
        };
        state.metrics().connections.fetch_add(1, Ordering::Relaxed);
        let slot = guard::ConnectionSlot(Arc::new(Places { state: state.clone(), _permit: permit, _place: place }));
        tokio::spawn(connection(state.clone(), router.clone(), stream, peer, slot));
    }
    Ok(())
}

/// A connection's places: among all connections, and among its address's; counted in the
/// open-connections gauge until the connection and its WebSocket, if any, are closed.
struct Places {
    state: AppState,
    _permit: tokio::sync::OwnedSemaphorePermit,
    _place: guard::AddressPlace,
}

impl Drop for Places {
    fn drop(&mut self) {
        self.state.metrics().connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One connection: HTTP/1.1 with the header timeout, upgrades (WebSockets) allowed, closed
/// gracefully when it reaches the connection age. Its places (`slot`) go with each request,
/// so that a WebSocket keeps them while it is open.
async fn connection(
    state: AppState,
    router: axum::Router,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    slot: guard::ConnectionSlot,
) {
    let limits = state.limits().clone();
    let service = tower::ServiceExt::map_request(router, move |mut request: axum::http::Request<_>| {
        request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
        request.extensions_mut().insert(slot.clone());
        request
    });
    let service = hyper_util::service::TowerToHyperService::new(service);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(limits.header_timeout).keep_alive(true);
    let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(conn);
    let result = tokio::select! {
        result = conn.as_mut() => result,
        () = tokio::time::sleep(limits.connection_age) => {
            conn.as_mut().graceful_shutdown();
            match tokio::time::timeout(limits.request_timeout, conn.as_mut()).await {
                Ok(result) => result,
                Err(_) => Ok(()),
            }
        }
    };
    if let Err(e) = result {
        tracing::debug!(%peer, "connection ended: {e}");
    }
}

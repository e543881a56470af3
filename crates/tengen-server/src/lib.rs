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
use std::time::Duration;

pub use error::ApiError;
pub use service::{AppState, Settings};
pub use store::Store;
pub use util::{set_memory_trim, test_clock};

/// The whole application: the page and the API, behind the per-client rate limit, the
/// request timeout, the security headers, the request log and the metrics ([`http::middleware::guard`]).
/// A handler's panic becomes a 500 inside that layer, so it is logged and counted.
pub fn app(state: AppState) -> axum::Router {
    guarded(page::routes().merge(http::routes(state.clone())), state)
}

/// `routes` behind the guard, a panic answered inside it.
fn guarded(routes: axum::Router, state: AppState) -> axum::Router {
    routes
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(http::middleware::panicked))
        .layer(axum::middleware::from_fn_with_state(state, http::middleware::guard))
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
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    serve_on(state, listener, shutdown).await;
    Ok(())
}

/// Serves `state` on `listener` with the server's accept loop (its connection bounds) until
/// `shutdown`: for tests of those bounds and for embedding; [`serve()`] does this after
/// opening the database and starting the clocks.
pub async fn serve_on(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let router = app(state.clone());
    http::connections::serve_connections(state, router, listener, shutdown).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    /// A handler's panic is answered with a 500 in the API's form, logged with the request
    /// and counted in `tengen_panics_total` (the layer once sat outside the guard, and
    /// panics were missing from both).
    #[tokio::test]
    async fn a_panic_is_answered_logged_and_counted() {
        let state = AppState::new(Store::open("sqlite::memory:").await.unwrap(), Settings::default());
        let routes = axum::Router::new().route(
            "/boom",
            axum::routing::get(|| async {
                let text = String::from("€");
                text.split_at(1).0.to_owned()
            }),
        );
        let app = guarded(routes, state.clone());
        let response =
            app.oneshot(axum::http::Request::get("/boom").body(axum::body::Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), axum::http::StatusCode::INTERNAL_SERVER_ERROR);
        let metrics = state.metrics().render(&[]);
        assert!(metrics.contains("tengen_panics_total 1"), "{metrics}");
        assert!(
            metrics.contains("tengen_http_requests_total{method=\"GET\",route=\"/boom\",status=\"500\"} 1"),
            "{metrics}"
        );
    }
}

//! `tengen serve`: the game server — an HTTP + JSON API (documented at `/api/openapi.json`),
//! live updates over WebSocket, and durable storage in SQLite or PostgreSQL.
//!
//! [`app()`] builds the router without a socket, so tests call it directly; [`serve()`] binds it.

pub mod api;
pub mod app;
pub mod error;
pub mod page;
pub mod record;
pub mod store;
pub mod view;

use std::net::SocketAddr;
use std::time::Duration;

pub use app::{AppState, Settings};
pub use error::ApiError;
pub use store::Store;

/// The whole application: the page and the API.
pub fn app(state: AppState) -> axum::Router {
    page::routes().merge(api::routes(state))
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
    let clocks = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        let mut ticks = 0u64;
        loop {
            tick.tick().await;
            clocks.check_clocks().await;
            ticks += 1;
            if ticks % 10 == 0
                && let Err(e) = clocks.heartbeat().await
            {
                tracing::warn!("heartbeat: {}", e.detail);
            }
        }
    });
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    println!("tengen serves http://{bound}/ (database {db}; {resumed} unfinished games resumed)");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

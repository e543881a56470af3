//! What the API tests share: one request through the router (no socket). Each test binary
//! uses some of it.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tengen_server::AppState;
use tower::ServiceExt;

/// Sends one request (with the bearer `token` and the JSON `body`, if any) and returns the
/// status and the body as JSON (or as a JSON string when it is not JSON).
pub async fn call(
    app: &AppState,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    call_from(app, None, method, uri, token, body).await
}

/// [`call`] from the client address `from` (as the socket gives it; none: the server's
/// default for requests without one).
pub async fn call_from(
    app: &AppState,
    from: Option<std::net::SocketAddr>,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if let Some(addr) = from {
        req = req.extension(axum::extract::ConnectInfo(addr));
    }
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let response = tengen_server::app(app.clone()).oneshot(req.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value =
        serde_json::from_slice(&bytes).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
    (status, value)
}

/// Waits until the game's view satisfies `done` (the computer thinks on other threads), at
/// most 30 s.
pub async fn wait_for(app: &AppState, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let (_, view) = call(app, "GET", &format!("/api/games/{id}"), None, None).await;
        if done(&view) {
            return view;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "waited too long: {view}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Limits for tests that drive many requests from one address: the rate limits and quotas
/// far away (the tests of the limits set their own), and rated games of 10 moves rated as
/// often as played (the tests of those set theirs).
pub fn roomy() -> tengen_server::guard::Limits {
    tengen_server::guard::Limits {
        requests_per_second: 100_000,
        request_burst: 100_000,
        games_per_hour: 1_000_000,
        computer_moves: 1_000,
        rated_min_moves: [10; 3],
        rated_per_pair: 1_000,
        ..tengen_server::guard::Limits::default()
    }
}

/// A server over an in-memory SQLite database with `limits`: `searches` of the computer at
/// once, each at most `max_think`; no network, no review workers.
pub async fn memory_server(limits: tengen_server::guard::Limits, searches: usize, max_think: Duration) -> AppState {
    let settings =
        tengen_server::Settings { searches, max_think, network: None, limits, review_workers: 0, shared_moves: false };
    AppState::new(tengen_server::Store::open("sqlite::memory:").await.unwrap(), settings)
}

/// A fresh PostgreSQL database for one test, on the server `TENGEN_TEST_POSTGRES` names
/// (`scripts/test` starts one and sets it). Without it the test fails: it never skips.
pub async fn postgres() -> String {
    use sqlx::Connection;
    let base = std::env::var("TENGEN_TEST_POSTGRES").expect(
        "TENGEN_TEST_POSTGRES is not set: run scripts/test (it starts PostgreSQL), or set it to \
         postgres://USER:PASSWORD@HOST/DATABASE of a role that may create databases",
    );
    let name = format!("tengen_t_{}_{:08x}", std::process::id(), rand::random::<u32>());
    let mut admin = sqlx::PgConnection::connect(&base).await.expect("TENGEN_TEST_POSTGRES does not connect");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}"))).execute(&mut admin).await.unwrap();
    let (server, _) = base.rsplit_once('/').expect("postgres://…/DATABASE");
    format!("{server}/{name}")
}

/// Drops a database of [`postgres`].
pub async fn drop_postgres(url: &str) {
    use sqlx::Connection;
    let base = std::env::var("TENGEN_TEST_POSTGRES").unwrap();
    let name = url.rsplit('/').next().unwrap();
    let mut admin = sqlx::PgConnection::connect(&base).await.unwrap();
    // A process of another role on the database, which the test role may not end ("must be
    // a member of the role whose process is being terminated" — seen once; an autovacuum
    // worker, a superuser's, is the likely one), fails the forced drop; try again for 5 s.
    let mut tries = 0;
    loop {
        let dropped = sqlx::query(sqlx::AssertSqlSafe(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)")))
            .execute(&mut admin)
            .await;
        match dropped {
            Ok(_) => return,
            Err(e) if tries < 20 => {
                tries += 1;
                eprintln!("drop_postgres: {name}: {e}; trying again");
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            Err(e) => panic!("drop_postgres: {name}: {e}"),
        }
    }
}

// Requests as a browser's page sends them: a session cookie, Origin, Referer, an address.

/// What a request sends besides its method, path and body.
#[derive(Default, Clone)]
pub struct Send<'a> {
    pub cookie: Option<&'a str>,
    pub origin: Option<&'a str>,
    pub referer: Option<&'a str>,
    pub from: Option<&'a str>,
    pub token: Option<&'a str>,
}

/// The answer: status, `Set-Cookie`, `Retry-After`, body.
pub struct Answer {
    pub status: StatusCode,
    pub cookie: Option<String>,
    pub retry_after: Option<u64>,
    pub body: Value,
}

impl Answer {
    /// The session token the answer's cookie sets.
    pub fn token(&self) -> String {
        let c = self.cookie.as_deref().unwrap_or_else(|| panic!("no cookie set: {}", self.body));
        c.strip_prefix("tengen_session=").unwrap().split(';').next().unwrap().to_owned()
    }
}

pub async fn ask(app: &AppState, method: &str, uri: &str, send: Send<'_>, body: Option<Value>) -> Answer {
    let mut req = Request::builder().method(method).uri(uri).header("host", "127.0.0.1:8080");
    if let Some(token) = send.cookie {
        req = req.header("cookie", format!("theme=dark; tengen_session={token}"));
    }
    if let Some(o) = send.origin {
        req = req.header("origin", o);
    }
    if let Some(r) = send.referer {
        req = req.header("referer", r);
    }
    if let Some(t) = send.token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let from: std::net::SocketAddr = format!("{}:5000", send.from.unwrap_or("10.0.0.1")).parse().unwrap();
    req = req.extension(axum::extract::ConnectInfo(from));
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let response = tengen_server::app(app.clone()).oneshot(req.body(body).unwrap()).await.unwrap();
    let status = response.status();
    let (cookie, retry_after) = {
        let header = |name: &str| response.headers().get(name).map(|v| v.to_str().unwrap().to_owned());
        (header("set-cookie"), header("retry-after").map(|s| s.parse().unwrap()))
    };
    // The body alone across the await: the answer (not `Sync`) must not be held, so that
    // requests can run on tasks of their own.
    let body = response.into_body();
    let bytes = body.collect().await.unwrap().to_bytes();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Answer { status, cookie, retry_after, body }
}

/// The page's own requests: from the server's origin.
pub const OWN: &str = "http://127.0.0.1:8080";

pub fn own(cookie: &str) -> Send<'_> {
    Send { cookie: Some(cookie), origin: Some(OWN), ..Send::default() }
}

//! `tengen bench abuse`: a hostile client against a running `tengen serve`, with a real game
//! played alongside.
//!
//! Each phase sends one kind of abuse from `127.0.0.2` (so that the server sees it as a client
//! of its own), or, for the floods of many clients, from many addresses `127.1.N.1` (each in a
//! network of its own, none in the measured player's `127.0.0.0/24`), and counts its attempts,
//! the answers that accepted what must be refused, and the server errors (5xx); after each
//! phase the server must still answer (else a crash is counted) and its memory is read from
//! `/proc` (with `--pid`). Meanwhile a game against the computer is played from `127.0.0.1`:
//! every answer's latency is kept (the 99th percentile said per phase on standard error), and
//! how long the computer took for each reply. Prints one line:
//! `abuse attempts=… wrongly_accepted=0 server_errors=0 crashes=0 rss_idle_mb=… rss_max_growth_mb=… game_requests=… game_p99_ms=… phase_p99_max_ms=… computer_max_ms=…`.
//!
//! The server is best started with the limits the floods expect: `tengen serve
//! --ping-every 2` (the socket flood waits three pings) and the defaults otherwise.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Options of `tengen bench abuse`.
#[derive(Args)]
pub struct AbuseArgs {
    /// The server's address.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The server's process id, to read its memory (resident set) after each phase.
    #[arg(long)]
    pid: Option<u32>,
    /// The server's header timeout (`tengen serve --header-timeout`), in seconds: the
    /// slow-header phase waits this long and a second more.
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// The server's ping interval (`tengen serve --ping-every`), in seconds: the socket flood
    /// waits three of them for its sockets, never read, to be closed.
    #[arg(long, default_value_t = 20.0)]
    ping_every: f64,
    /// Phases to run (by name, comma-separated; all by default).
    #[arg(long, value_delimiter = ',')]
    phases: Vec<String>,
}

pub(crate) type Http = Client<HttpConnector, Full<Bytes>>;

/// The counts of the run.
#[derive(Default)]
struct Counts {
    attempts: AtomicU64,
    wrongly_accepted: AtomicU64,
    server_errors: AtomicU64,
    crashes: AtomicU64,
}

impl Counts {
    /// One attempt answered `status`, which may be taken or refused but is never a server
    /// error; `false` for a server error.
    fn answered(&self, what: &str, status: u16) -> bool {
        self.attempts.fetch_add(1, Ordering::Relaxed);
        if status >= 500 {
            self.server_errors.fetch_add(1, Ordering::Relaxed);
            eprintln!("abuse: {what}: server error {status}");
            return false;
        }
        true
    }

    /// One attempt answered `status`, which must be a refusal (4xx); `ok` says which
    /// refusals are right.
    fn refused(&self, what: &str, status: u16, ok: impl Fn(u16) -> bool) {
        if self.answered(what, status) && !ok(status) {
            self.wrongly_accepted.fetch_add(1, Ordering::Relaxed);
            eprintln!("abuse: {what}: answered {status}");
        }
    }

    /// A flood of which at least one attempt must have been refused with 429.
    fn limited(&self, what: &str, limited: u64) {
        if limited == 0 {
            self.wrongly_accepted.fetch_add(1, Ordering::Relaxed);
            eprintln!("abuse: {what}: none of the flood was limited");
        }
    }
}

pub(crate) fn client(from: Ipv4Addr) -> Http {
    let mut connector = HttpConnector::new();
    connector.set_local_address(Some(IpAddr::V4(from)));
    Client::builder(TokioExecutor::new()).build(connector)
}

pub(crate) async fn send(
    http: &Http,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Bytes,
) -> Result<(u16, Value)> {
    let mut req = hyper::Request::builder().method(method).uri(url);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let response = http.request(req.body(Full::new(body))?).await?;
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)))
}

/// The moves of a 19 × 19 game of 306 moves that never capture, as SGF nodes: Black fills the
/// left half row by row, White the right.
pub(crate) fn filling_moves() -> String {
    let letters = b"abcdefghijklmnopqrs";
    let at = |col: usize, row: usize| format!("{}{}", letters[col] as char, letters[row] as char);
    (0..153).map(|k| format!(";B[{}];W[{}]", at(k % 9, k / 9), at(10 + k % 9, k / 9))).collect()
}

fn json_body(v: &Value) -> Bytes {
    Bytes::from(v.to_string())
}

/// The server's resident memory in MB, from `/proc`.
pub(crate) fn rss_mb(pid: Option<u32>) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kb: f64 = status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs the abuse and prints its line.
pub fn run(args: &AbuseArgs) -> Result<()> {
    if !(args.header_timeout.is_finite() && args.header_timeout > 0.0 && args.header_timeout <= 60.0) {
        bail!("--header-timeout must be more than 0 and at most 60 seconds");
    }
    if !(args.ping_every.is_finite() && args.ping_every > 0.0 && args.ping_every <= 60.0) {
        bail!("--ping-every must be more than 0 and at most 60 seconds");
    }
    if let Some(unknown) = args.phases.iter().find(|p| !PHASES.contains(&p.as_str())) {
        bail!("no abuse phase {unknown:?}: the phases are {}", PHASES.join(", "));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(drive(args))
}

/// The real game: 9×9 against the computer at level 1, from 127.0.0.1, until `stop`. Each
/// answer's latency (µs) with when it was asked.
async fn real_game(base: String, stop: Arc<AtomicBool>) -> Result<(Vec<(Instant, u64)>, u64)> {
    let http = client(Ipv4Addr::LOCALHOST);
    let mut latencies = Vec::new();
    let mut computer_max_ms = 0;
    let timed =
        async |latencies: &mut Vec<(Instant, u64)>, method: &str, url: &str, token: Option<&str>, body: Bytes| {
            let started = Instant::now();
            let answer = send(&http, method, url, token, body).await;
            latencies.push((started, started.elapsed().as_micros() as u64));
            answer
        };
    while !stop.load(Ordering::Relaxed) {
        let new = json!({"size": 9, "opponent": {"computer": {"level": 1}}, "color": "black"});
        let (status, created) =
            timed(&mut latencies, "POST", &format!("{base}/api/games"), None, json_body(&new)).await?;
        if status != 201 {
            bail!("the real game could not be created: {status} {created}");
        }
        let (id, token) = (created["id"].as_str().unwrap_or_default(), created["token"].as_str().unwrap_or_default());
        let mut game = tengen_core::Game::new(9, tengen_core::Rules::chinese())?;
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(latencies.len() as u64);
        while !stop.load(Ordering::Relaxed) && game.phase() == tengen_core::Phase::Playing {
            let points = game.legal_points(tengen_core::Color::Black);
            let mv = match rand::seq::IndexedRandom::choose(&points[..], &mut rng) {
                Some(&p) if game.moves().len() < 60 => tengen_core::Move::Play(p),
                _ => tengen_core::Move::Pass,
            };
            let body = json!({"move": mv.to_string(), "number": game.moves().len() + 1});
            let (status, _) =
                timed(&mut latencies, "POST", &format!("{base}/api/games/{id}/move"), Some(token), json_body(&body))
                    .await?;
            if status != 200 {
                break;
            }
            // The computer's reply.
            let asked = Instant::now();
            let view = loop {
                let (_, view) =
                    timed(&mut latencies, "GET", &format!("{base}/api/games/{id}"), None, Bytes::new()).await?;
                let moves = view["moves"].as_u64().unwrap_or(0) as usize;
                if moves > game.moves().len() + 1 || view["phase"] != "playing" {
                    break view;
                }
                if asked.elapsed() > Duration::from_secs(30) {
                    bail!("the computer did not answer in 30 s");
                }
                // Ten looks a second, within the server's rate for a client (the page itself
                // is told by its WebSocket).
                tokio::time::sleep(Duration::from_millis(100)).await;
            };
            computer_max_ms = computer_max_ms.max(asked.elapsed().as_millis() as u64);
            // Follow the server's record of the game.
            game = tengen_core::Game::new(9, tengen_core::Rules::chinese())?;
            for played in view["history"].as_array().into_iter().flatten() {
                let color: tengen_core::Color = played["color"].as_str().unwrap_or("black").parse()?;
                let mv: tengen_core::Move = played["move"].as_str().unwrap_or("pass").parse()?;
                game.play_as(color, mv)?;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = send(&http, "POST", &format!("{base}/api/games/{id}/resign"), Some(token), Bytes::new()).await;
    }
    Ok((latencies, computer_max_ms))
}

async fn drive(args: &AbuseArgs) -> Result<()> {
    let base = args.url.trim_end_matches('/').to_owned();
    let addr: SocketAddr = base
        .trim_start_matches("http://")
        .parse()
        .with_context(|| format!("--url must be http://IP:PORT, not {base}"))?;
    let hostile = client(Ipv4Addr::new(127, 0, 0, 2));
    send(&hostile, "GET", &format!("{base}/healthz"), None, Bytes::new())
        .await
        .with_context(|| format!("no tengen server at {base}"))?;
    let idle = rss_mb(args.pid);
    let counts = Arc::new(Counts::default());
    let stop = Arc::new(AtomicBool::new(false));
    let game = tokio::spawn(real_game(base.clone(), Arc::clone(&stop)));
    let mut max_growth = 0f64;
    let mut windows = Vec::new();
    for phase in PHASES.iter().copied().filter(|p| args.phases.is_empty() || args.phases.iter().any(|a| a == p)) {
        let c = &counts;
        let started = Instant::now();
        match phase {
            "deep SGF" => {
                for sgf in [
                    format!("(;GM[1]SZ[19]{})", ";".repeat(20_000)),
                    format!("(;GM[1]SZ[19]{}{})", "(;".repeat(20_000), ")".repeat(20_000)),
                    format!("(;GM[1]SZ[19]{})", ";B[aa];W[bb]".repeat(50_000)),
                ] {
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                    c.refused(phase, status, |s| s == 413);
                }
            }
            "unknown ids" => {
                let long = "x".repeat(60_000);
                for _ in 0..1_000 {
                    let body = json_body(&json!({"move": "D4", "number": 1}));
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games/{long}/move"), None, body).await?;
                    c.refused(phase, status, |s| s == 404 || s == 429 || s == 414 || s == 431);
                }
            }
            "big bodies" => {
                let pad = "x".repeat(2 * 1024 * 1024);
                for url in [format!("{base}/api/games"), format!("{base}/api/games/import")] {
                    // The server may answer 413 and close before the body is all sent.
                    let status = match send(&hostile, "POST", &url, None, json_body(&json!({ "pad": pad }))).await {
                        Ok((status, _)) => status,
                        Err(_) => 413,
                    };
                    c.refused(phase, status, |s| s == 413 || s == 429);
                }
            }
            "bad games" => {
                for body in [
                    json!({"size": 2, "handicap": 9, "placement": "free", "opponent": "friend"}),
                    json!({"black_name": "a\u{202e}b", "opponent": "friend"}),
                    json!({"white_name": "\u{200b}".repeat(40), "opponent": "friend"}),
                    json!({"time": {"kind": "absolute", "main": 60, "extra": 1}}),
                    json!({"rules": "japanese"}),
                ] {
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games"), None, json_body(&body)).await?;
                    c.refused(phase, status, |s| s == 400 || s == 422 || s == 429);
                }
                for sgf in ["(;GM[1]SZ[1000];B[aa])", "(;GM[1]SZ[9]PB[a\u{0}b\u{1b}[31mRED\u{7}];B[ee])", "(;GM[1])"] {
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                    c.refused(phase, status, |s| s == 400 || s == 422 || s == 429);
                }
            }
            "slow headers" => {
                // 100 connections that never finish their headers: all closed by the server
                // once the header timeout passes.
                let mut open = Vec::new();
                for _ in 0..100 {
                    let socket = tokio::net::TcpSocket::new_v4()?;
                    socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), 0))?;
                    let mut stream = socket.connect(addr).await?;
                    stream.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ").await?;
                    open.push(stream);
                }
                tokio::time::sleep(Duration::from_secs_f64(args.header_timeout + 1.0)).await;
                for mut stream in open {
                    let mut buf = [0u8; 512];
                    let closed = matches!(
                        tokio::time::timeout(Duration::from_millis(200), stream.read(&mut buf)).await,
                        Ok(Ok(_) | Err(_))
                    );
                    c.refused(phase, if closed { 408 } else { 200 }, |s| s == 408);
                }
            }
            "one address" => {
                // 1,100 idle connections from one address, more than the server's connections
                // in all (1,024): past the address's share (64) each is closed at once, and the
                // real game, from another address, goes on (its latency is measured throughout).
                let mut open = Vec::new();
                for _ in 0..1_100 {
                    let socket = tokio::net::TcpSocket::new_v4()?;
                    socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), 0))?;
                    open.push(socket.connect(addr).await?);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
                let mut held = 0;
                for mut stream in open {
                    let mut buf = [0u8; 64];
                    let closed = matches!(
                        tokio::time::timeout(Duration::from_millis(5), stream.read(&mut buf)).await,
                        Ok(Ok(0) | Err(_))
                    );
                    held += usize::from(!closed);
                }
                // At most the address's share still open (which ones depends on when the
                // header timeout closed the first); every other one closed.
                for i in 0..1_100 {
                    c.refused(phase, if i < held.saturating_sub(64) { 200 } else { 429 }, |s| s == 429);
                }
            }
            "methods" => {
                // 2,000 requests with methods of 4,000 characters, each new: refused, and
                // neither `/metrics` nor the log grows with them (one label, `other`).
                let metrics = |http: Http| {
                    let url = format!("{base}/metrics");
                    async move {
                        let req = hyper::Request::get(url).body(Full::new(Bytes::new()))?;
                        let response = http.request(req).await?;
                        Ok::<usize, anyhow::Error>(response.into_body().collect().await?.to_bytes().len())
                    }
                };
                let before = metrics(client(Ipv4Addr::LOCALHOST)).await?;
                for i in 0..2_000 {
                    let method = format!("X{i}{}", "M".repeat(4_000));
                    let status = match send(&hostile, &method, &format!("{base}/api/games"), None, Bytes::new()).await {
                        Ok((status, _)) => status,
                        // The server may close a connection whose request line it will not read.
                        Err(_) => 400,
                    };
                    c.refused(phase, status, |s| s == 405 || s == 400 || s == 429 || s == 414 || s == 431);
                }
                let after = metrics(client(Ipv4Addr::LOCALHOST)).await?;
                // A few new series (counts of 405 and 429 answers) at most, never one per method.
                c.refused(phase, if after > before + 4_096 { 200 } else { 400 }, |s| s == 400);
            }
            "big records" => {
                // A 19 × 19 record with 98,000 nodes of variations (688 KB), read 300 times
                // and its information 300 times: each read from memory, not parsed again.
                let main = filling_moves();
                let sgf =
                    format!("(;GM[1]FF[4]SZ[19]{}({}){})", &main[..6], &main[6..], "(;W[ss];B[sr])".repeat(49_000));
                let (status, created) =
                    send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                c.answered(phase, status);
                if let Some(id) = created["id"].as_str() {
                    for i in 0..600 {
                        let path = if i % 2 == 0 {
                            format!("{base}/api/games/{id}")
                        } else {
                            format!("{base}/api/games/{id}/info")
                        };
                        let (status, _) = send(&hostile, "GET", &path, None, Bytes::new()).await?;
                        c.answered(phase, status);
                    }
                }
            }
            "reviews" => {
                // 40 reviews asked of ten imported games (four strengths each): past the
                // address's share, 429; one review's work past the bound, 422.
                let mut refused = 0;
                for i in 0..10 {
                    let sgf = format!(
                        "(;GM[1]FF[4]SZ[9];B[{}e];W[ee])",
                        ["a", "b", "c", "d", "f", "g", "h", "i", "c", "g"][i]
                    );
                    let (status, created) =
                        send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                    c.answered(phase, status);
                    let Some(id) = created["id"].as_str() else { continue };
                    for playouts in [100, 99, 98, 97] {
                        let body = json_body(&json!({ "playouts": playouts }));
                        let (status, _) =
                            send(&hostile, "POST", &format!("{base}/api/games/{id}/review"), None, body).await?;
                        c.answered(phase, status);
                        refused += u64::from(status == 429);
                    }
                }
                c.limited(phase, refused);
                // 306 moves at 10,000 playouts: more work than one review may ask.
                let sgf = format!("(;GM[1]FF[4]SZ[19]{})", filling_moves());
                let (status, created) =
                    send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                c.answered(phase, status);
                if let Some(id) = created["id"].as_str() {
                    let body = json_body(&json!({ "playouts": 10_000 }));
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games/{id}/review"), None, body).await?;
                    c.refused(phase, status, |s| s == 422 || s == 429);
                }
            }
            "WebSockets" => {
                let (_, created) = send(
                    &hostile,
                    "POST",
                    &format!("{base}/api/games"),
                    None,
                    json_body(&json!({"size": 9, "opponent": "friend"})),
                )
                .await?;
                let id = created["id"].as_str().unwrap_or("none").to_owned();
                // Another site's page.
                let (status, _) = websocket(addr, &id, Some("https://evil.example.com"), 0).await?;
                c.refused(phase, status, |s| s == 403);
                // Ten watchers each sending a 16 MB message: the server closes them.
                for _ in 0..10 {
                    let (_, closed) = websocket(addr, &id, None, 16 * 1024 * 1024).await?;
                    c.refused(phase, if closed { 400 } else { 200 }, |s| s == 400);
                }
            }
            "imports" => {
                let comment = "x".repeat(900 * 1024);
                for _ in 0..30 {
                    let sgf = format!("(;GM[1]SZ[19]C[{comment}];B[pd])");
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
                    // A few are taken (an import is allowed); beyond the quota, 429.
                    c.answered(phase, status);
                }
            }
            "computer" => {
                // 20 computer-first games at once: beyond the client's share, 429.
                let mut refused = 0;
                for _ in 0..20 {
                    let body = json!({"size": 19, "opponent": {"computer": {"level": 5}}, "color": "white"});
                    let (status, _) =
                        send(&hostile, "POST", &format!("{base}/api/games"), None, json_body(&body)).await?;
                    c.answered(phase, status);
                    refused += u64::from(status == 429);
                }
                c.limited(phase, refused);
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            "flood" => {
                // 2,000 requests as fast as they go: the rate limit answers 429.
                let mut tasks = Vec::new();
                for _ in 0..20 {
                    let (http, url) = (hostile.clone(), format!("{base}/api/games?limit=500"));
                    tasks.push(tokio::spawn(async move {
                        let mut statuses = Vec::new();
                        for _ in 0..100 {
                            if let Ok((s, _)) = send(&http, "GET", &url, None, Bytes::new()).await {
                                statuses.push(s);
                            }
                        }
                        statuses
                    }));
                }
                tally(c, phase, tasks, |s| s == 429).await?;
            }
            "lobby sockets" => {
                // 33 addresses × 32 lobby sockets never read: past the sockets' places and
                // shares, refused; the rest closed once they answer no ping.
                let mut open = Vec::new();
                let mut refused = 0;
                for n in 0..33u8 {
                    for _ in 0..32 {
                        match lobby_socket(addr, Ipv4Addr::new(127, 1, n, 1)).await {
                            Some(stream) => open.push(stream),
                            None => refused += 1,
                        }
                    }
                }
                c.limited(phase, refused);
                tokio::time::sleep(Duration::from_secs_f64(args.ping_every * 3.0 + 1.0)).await;
                for mut stream in open {
                    let closed = closed_within(&mut stream, Duration::from_millis(20)).await;
                    c.refused(phase, if closed { 408 } else { 200 }, |s| s == 408);
                }
            }
            "idle connections" => {
                // 17 addresses × 64 idle connections, more than every place: the player's
                // requests are answered all along (an idle one is closed to make room).
                let mut open = Vec::new();
                for n in 0..17u8 {
                    for _ in 0..64 {
                        let socket = tokio::net::TcpSocket::new_v4()?;
                        socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 1, 100 + n, 1)), 0))?;
                        if let Ok(stream) = socket.connect(addr).await {
                            open.push(stream);
                        }
                    }
                }
                for _ in 0..20 {
                    let status =
                        send(&client(Ipv4Addr::LOCALHOST), "GET", &format!("{base}/healthz"), None, Bytes::new())
                            .await
                            .map_or(503, |(s, _)| s);
                    c.refused(phase, if status == 200 { 400 } else { 200 }, |s| s == 400);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                drop(open);
            }
            "logins" => {
                // 20 addresses log in to one account with its right password as fast as they
                // go: each past its logins is refused, and the hashes run on a bounded pool.
                let name = format!("abuse{:08x}", rand::random::<u32>());
                let who = json!({"name": name, "password": "the right password"});
                let from = client(Ipv4Addr::new(127, 1, 200, 1));
                let (status, _) = send(&from, "POST", &format!("{base}/api/accounts"), None, json_body(&who)).await?;
                c.answered(phase, status);
                let mut tasks = Vec::new();
                for n in 0..20u8 {
                    let (http, url, body) = (
                        client(Ipv4Addr::new(127, 1, 201 + n % 50, 1)),
                        format!("{base}/api/session"),
                        json_body(&who),
                    );
                    tasks.push(tokio::spawn(async move {
                        let mut statuses = Vec::new();
                        for _ in 0..80 {
                            if let Ok((s, _)) = send(&http, "POST", &url, None, body.clone()).await {
                                statuses.push(s);
                            }
                        }
                        statuses
                    }));
                }
                tally(c, phase, tasks, |s| s == 429 || s == 503).await?;
            }
            "chat" => {
                // 60 watchers' accounts (each from a network of its own) write in one game's
                // chat as fast as they may: the watchers' share fills, the players still speak.
                let (status, made) = send(
                    &client(Ipv4Addr::new(127, 1, 99, 1)),
                    "POST",
                    &format!("{base}/api/games"),
                    None,
                    json_body(&json!({"size": 9, "opponent": "friend"})),
                )
                .await?;
                c.answered(phase, status);
                let (Some(id), Some(token)) = (made["id"].as_str(), made["token"].as_str()) else {
                    bail!("the chat's game could not be made: {made}");
                };
                let mut tasks = Vec::new();
                for n in 0..60u8 {
                    let (base, id) = (base.clone(), id.to_owned());
                    tasks.push(tokio::spawn(async move {
                        let http = client(Ipv4Addr::new(127, 2, n, 1));
                        let who = json!({"name": format!("w{n}-{:06x}", rand::random::<u32>() & 0xff_ffff), "password": "a watcher's password"});
                        let mut statuses = Vec::new();
                        let Ok(session) = sign_up(&http, &base, &who).await else { return statuses };
                        for i in 0..60 {
                            let body = json!({"text": format!("flood {i}")});
                            let path = format!("/api/games/{id}/chat");
                            if let Ok(s) = send_cookie(&http, &base, "POST", &path, &session, Some(body)).await {
                                statuses.push(s);
                            }
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                        statuses
                    }));
                }
                tally(c, phase, tasks, |s| s == 429).await?;
                // The player's own message still lands.
                let http = client(Ipv4Addr::new(127, 1, 99, 1));
                let body = json_body(&json!({"text": "still here"}));
                let (status, _) =
                    send(&http, "POST", &format!("{base}/api/games/{id}/chat"), Some(token), body).await?;
                c.refused(phase, if status == 201 { 400 } else { 200 }, |s| s == 400);
            }
            "rated ends" => {
                // Eight rated 9×9 games of one player, each against a new opponent, ended at
                // once: every end answered, the player's eight games all rated, each change
                // starting where the one before ended.
                let stamp = rand::random::<u32>() & 0xff_ffff;
                let me = client(Ipv4Addr::new(127, 3, 0, 1));
                let mine = json!({"name": format!("rated-{stamp:06x}"), "password": "the player's password"});
                let session = sign_up(&me, &base, &mine).await?;
                let mut games = Vec::new();
                for n in 0..8u8 {
                    let them = client(Ipv4Addr::new(127, 3, 1 + n, 1));
                    let theirs = json!({"name": format!("opp{n}-{stamp:06x}"), "password": "an opponent's password"});
                    let other = sign_up(&them, &base, &theirs).await?;
                    let id = rated_game([&me, &them], [&session, &other], &base).await?;
                    games.push((them, other, id));
                }
                let ends = games.into_iter().map(|(them, other, id)| {
                    let base = base.clone();
                    let path = format!("/api/games/{id}/resign");
                    tokio::spawn(async move { send_cookie(&them, &base, "POST", &path, &other, None).await })
                });
                for end in futures_util::future::join_all(ends).await {
                    let status = end?.unwrap_or(0);
                    c.refused(phase, if status == 200 { 400 } else { 200 }, |s| s == 400);
                }
                let url = format!("{base}/api/players/rated-{stamp:06x}/ratings");
                let (_, history) = send(&me, "GET", &url, None, Bytes::new()).await?;
                let changes = history.as_array().cloned().unwrap_or_default();
                let chained = changes.windows(2).all(|w| w[0]["after"] == w[1]["before"]);
                c.refused(phase, if changes.len() == 8 && chained { 400 } else { 200 }, |s| s == 400);
            }
            other => unreachable!("no abuse phase {other}"),
        }
        windows.push((phase, started, Instant::now()));
        // Still there? (Its memory read after the work of the phase has settled.)
        tokio::time::sleep(Duration::from_secs(2)).await;
        if send(&client(Ipv4Addr::LOCALHOST), "GET", &format!("{base}/healthz"), None, Bytes::new()).await.is_err() {
            counts.crashes.fetch_add(1, Ordering::Relaxed);
            eprintln!("abuse: {phase}: the server does not answer");
            break;
        }
        if let (Some(idle), Some(now)) = (idle, rss_mb(args.pid)) {
            max_growth = max_growth.max(now - idle);
            eprintln!("abuse: {phase}: done, server RSS {now:.1} MB ({:+.1} MB)", now - idle);
        }
    }
    stop.store(true, Ordering::Relaxed);
    let (timed, computer_max_ms) = game.await??;
    let p99_of = |mut l: Vec<u64>| {
        l.sort_unstable();
        l.get(l.len() * 99 / 100).copied().unwrap_or(0) as f64 / 1000.0
    };
    let mut phase_max = 0f64;
    for (phase, from, to) in &windows {
        let inside: Vec<u64> = timed.iter().filter(|(at, _)| at >= from && at < to).map(|&(_, us)| us).collect();
        let n = inside.len();
        let p99 = p99_of(inside);
        phase_max = phase_max.max(p99);
        eprintln!("abuse: {phase}: the player's p99 {p99:.1} ms over {n} requests");
    }
    let latencies: Vec<u64> = timed.iter().map(|&(_, us)| us).collect();
    let p99 = p99_of(latencies.clone());
    let load = |a: &AtomicU64| a.load(Ordering::Relaxed);
    println!(
        "abuse attempts={} wrongly_accepted={} server_errors={} crashes={} rss_idle_mb={:.1} rss_max_growth_mb={:.1} game_requests={} game_p99_ms={p99:.1} phase_p99_max_ms={phase_max:.1} computer_max_ms={computer_max_ms}",
        load(&counts.attempts),
        load(&counts.wrongly_accepted),
        load(&counts.server_errors),
        load(&counts.crashes),
        idle.unwrap_or(f64::NAN),
        max_growth,
        latencies.len(),
    );
    Ok(())
}

/// The phases, in order.
const PHASES: [&str; 18] = [
    "deep SGF",
    "unknown ids",
    "big bodies",
    "bad games",
    "slow headers",
    "one address",
    "methods",
    "big records",
    "reviews",
    "WebSockets",
    "imports",
    "computer",
    "flood",
    "lobby sockets",
    "idle connections",
    "logins",
    "chat",
    "rated ends",
];

/// A lobby WebSocket opened by hand from `from`, never read after its upgrade: the stream,
/// or `None` when the server refused it.
async fn lobby_socket(addr: SocketAddr, from: Ipv4Addr) -> Option<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(IpAddr::V4(from), 0)).ok()?;
    let mut stream = socket.connect(addr).await.ok()?;
    let request = format!(
        "GET /api/lobby/live HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut head = [0u8; 12];
    tokio::time::timeout(Duration::from_secs(2), stream.read_exact(&mut head)).await.ok()?.ok()?;
    (&head[9..12] == b"101").then_some(stream)
}

/// Whether the server closed `stream` (reading what it sent meanwhile, for at most `wait`).
async fn closed_within(stream: &mut tokio::net::TcpStream, wait: Duration) -> bool {
    let deadline = Instant::now() + wait;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match tokio::time::timeout_at(deadline.into(), stream.read(&mut buf)).await {
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
            Err(_) => return false,
        }
    }
}

/// Signs up `who` (`{"name", "password"}`) from `http`: the session token of its cookie.
async fn sign_up(http: &Http, base: &str, who: &Value) -> Result<String> {
    let (status, _, cookie) =
        crate::lobby::request(http, base, "POST", "/api/accounts", None, Some(who.clone())).await?;
    cookie.with_context(|| format!("signing up {}: {status}", who["name"]))
}

/// A request under a session's cookie, as the server's own page sends it: its status.
async fn send_cookie(
    http: &Http,
    base: &str,
    method: &str,
    path: &str,
    session: &str,
    body: Option<Value>,
) -> Result<u16> {
    Ok(crate::lobby::request(http, base, method, path, Some(session), body).await?.0)
}

/// Requests from many tasks: each status counted as an attempt; the flood must have been
/// refused at least once (`refused` says which statuses are a refusal).
async fn tally(
    c: &Counts,
    phase: &str,
    tasks: Vec<tokio::task::JoinHandle<Vec<u16>>>,
    refused: impl Fn(u16) -> bool,
) -> Result<()> {
    let mut limited = 0;
    for t in tasks {
        for s in t.await? {
            c.answered(phase, s);
            limited += u64::from(refused(s));
        }
    }
    c.limited(phase, limited);
    Ok(())
}

/// A rated 9×9 game of `sessions[0]` (Black, from `clients[0]`) against `sessions[1]`,
/// played to its 24th move, a move every 60 ms (within a client's rate): its id.
async fn rated_game(clients: [&Http; 2], sessions: [&str; 2], base: &str) -> Result<String> {
    let ([me, them], [session, other]) = (clients, sessions);
    let setup = json!({"size": 9, "opponent": "friend", "color": "black", "rated": true});
    let (_, made, _) = crate::lobby::request(me, base, "POST", "/api/games", Some(session), Some(setup)).await?;
    let (Some(id), Some(friend)) = (made["id"].as_str(), made["friend_token"].as_str()) else {
        bail!("a rated game could not be made: {made}");
    };
    let req = hyper::Request::post(format!("{base}/api/games/{id}/sit"))
        .header("cookie", format!("tengen_session={other}"))
        .header("origin", base)
        .header("authorization", format!("Bearer {friend}"))
        .body(Full::new(Bytes::new()))?;
    let sat = them.request(req).await?.status().as_u16();
    if sat != 200 {
        bail!("the opponent could not sit: {sat}");
    }
    // 24 moves that capture nothing: Black on the odd columns' low rows, White on the high.
    let letters = "ABCDEFGHJ";
    for i in 0..24usize {
        let (http, who, col, row) = if i % 2 == 0 {
            (me, session, (i / 2) % 9, 1 + (i / 2) / 9)
        } else {
            (them, other, (i / 2) % 9, 9 - (i / 2) / 9)
        };
        let mv = format!("{}{row}", &letters[col..=col]);
        let body = json!({"move": mv, "number": i + 1});
        let status = send_cookie(http, base, "POST", &format!("/api/games/{id}/move"), who, Some(body)).await?;
        tokio::time::sleep(Duration::from_millis(60)).await;
        if status != 200 {
            bail!("move {} {mv} of a rated game: {status}", i + 1);
        }
    }
    Ok(id.to_owned())
}

/// Opens a WebSocket to game `id` by hand (from 127.0.0.2) with `origin`, and sends a text
/// frame announcing `message` bytes (then as many as the server reads, up to 64 KiB): the
/// status of the upgrade and whether the server then closed the connection.
async fn websocket(addr: SocketAddr, id: &str, origin: Option<&str>, message: u64) -> Result<(u16, bool)> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2)), 0))?;
    let mut stream = socket.connect(addr).await?;
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let request = format!(
        "GET /api/games/{id}/live HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n{origin}\r\n"
    );
    stream.write_all(request.as_bytes()).await?;
    let mut head = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut head)).await??;
    let text = String::from_utf8_lossy(&head[..n]);
    let status: u16 = text.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    if status != 101 || message == 0 {
        return Ok((status, true));
    }
    // A masked text frame of `message` bytes: FIN + text, then the 64-bit length.
    let mut frame = vec![0x81u8, 0x80 | 127];
    frame.extend_from_slice(&message.to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    let _ = stream.write_all(&frame).await;
    let chunk = vec![b'x'; 16 * 1024];
    for _ in 0..4 {
        if stream.write_all(&chunk).await.is_err() {
            return Ok((status, true));
        }
    }
    // Read until the server closes (its Close frame, then the end), at most 3 s.
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut buf = vec![0u8; 8192];
    while Instant::now() < deadline {
        if let Ok(Ok(0) | Err(_)) = tokio::time::timeout(Duration::from_millis(500), stream.read(&mut buf)).await {
            return Ok((status, true));
        }
    }
    Ok((status, false))
}

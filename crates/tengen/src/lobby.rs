//! `tengen bench lobby`: many players in the lobby of a running `tengen serve`, each from an
//! address of its own (127.1.x.y, so that the per-address limits stay as they are), each with
//! the lobby's WebSocket open; challenges posted and accepted at a steady rate. Every socket
//! must see every challenge appear and be taken; the delay from the request to each socket's
//! message is measured. Prints one line:
//! `lobby players=… challenges=… events=… missed=… p50_ms=… p99_ms=… max_ms=… refused=… rss_start_mb=… rss_peak_mb=… rss_after_mb=…`.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::abuse::{Http, client, rss_mb};

/// Options of `tengen bench lobby`.
#[derive(Args)]
pub struct LobbyArgs {
    /// The server's address.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// The server's process id, to read its memory (resident set).
    #[arg(long)]
    pid: Option<u32>,
    /// Players in the lobby, each with an account and a socket.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(2..=2000))]
    players: u32,
    /// Challenges posted (and accepted) a second.
    #[arg(long, default_value_t = 50.0)]
    rate: f64,
    /// How long challenges are posted, in seconds.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
}

/// The address player `i` connects from.
fn address(i: u32) -> Ipv4Addr {
    Ipv4Addr::new(127, 1, (i / 250) as u8, (i % 250 + 1) as u8)
}

/// A request under a login (with the page's own `Origin`, as a browser sends it); the status,
/// the JSON body and the session cookie it sets, if any.
pub(crate) async fn request(
    http: &Http,
    base: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value, Option<String>)> {
    let mut req = hyper::Request::builder().method(method).uri(format!("{base}{path}")).header("origin", base);
    if let Some(c) = cookie {
        req = req.header("cookie", format!("tengen_session={c}"));
    }
    let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
    let response = http.request(req.body(Full::new(body))?).await?;
    let status = response.status().as_u16();
    let cookie = response
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("tengen_session="))
        .and_then(|v| v.split(';').next())
        .map(str::to_owned);
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null), cookie))
}

/// What one socket saw: each challenge's id and state with the moment it arrived.
type Seen = Vec<(String, String, Instant)>;

/// Runs the benchmark and prints its line.
pub fn run(args: &LobbyArgs) -> Result<()> {
    if !(args.rate.is_finite() && args.rate > 0.0 && args.rate <= 1000.0) {
        bail!("--rate must be more than 0 and at most 1000 challenges a second");
    }
    if !(args.seconds.is_finite() && args.seconds > 0.0 && args.seconds <= 3600.0) {
        bail!("--seconds must be more than 0 and at most 3600");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(drive(args))
}

async fn drive(args: &LobbyArgs) -> Result<()> {
    let base = args.url.trim_end_matches('/').to_owned();
    let authority = base.strip_prefix("http://").context("--url: http://HOST:PORT")?;
    let server: SocketAddr = authority.parse().context("--url: an IP address and a port")?;
    // Accounts, eight sign-ups at a time (each is an Argon2id hash on the server).
    let run = format!("{:06x}", rand::random::<u32>() & 0xff_ffff);
    let https: Vec<Http> = (0..args.players).map(|i| client(address(i))).collect();
    let mut cookies = vec![String::new(); args.players as usize];
    for chunk in (0..args.players).collect::<Vec<_>>().chunks(8) {
        let signups = chunk.iter().map(|&i| {
            let (http, base) = (&https[i as usize], &base);
            let body = json!({"name": format!("bench-{run}-{i}"), "password": "a bench password"});
            async move { request(http, base, "POST", "/api/accounts", None, Some(body)).await }
        });
        for (&i, answer) in chunk.iter().zip(futures_util::future::join_all(signups).await) {
            let (status, body, cookie) = answer?;
            cookies[i as usize] = cookie.with_context(|| format!("sign-up {i}: {status} {body}"))?;
        }
    }
    let rss_start = rss_mb(args.pid);

    // Every player's lobby socket, each counting what it sees until told to stop.
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut readers = Vec::new();
    for (i, cookie) in cookies.iter().enumerate() {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(IpAddr::V4(address(i as u32)), 0))?;
        let stream = socket.connect(server).await?;
        let mut req = format!("ws://{authority}/api/lobby/live").into_client_request()?;
        req.headers_mut().insert("cookie", format!("tengen_session={cookie}").parse()?);
        let (mut ws, _) = tokio_tungstenite::client_async(req, stream).await.context("the lobby's socket")?;
        let mut stop = stop_rx.clone();
        readers.push(tokio::spawn(async move {
            let mut seen: Seen = Vec::new();
            loop {
                tokio::select! {
                    msg = ws.next() => match msg {
                        Some(Ok(Message::Text(text))) => {
                            let Ok(v) = serde_json::from_str::<Value>(&text) else { continue };
                            let challenge = &v["challenge"];
                            if let (Some(id), Some(state)) = (challenge["id"].as_str(), challenge["state"].as_str()) {
                                seen.push((id.to_owned(), state.to_owned(), Instant::now()));
                            }
                        }
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => break,
                    },
                    _ = stop.changed() => {
                        let _ = ws.close(None).await;
                        break;
                    }
                }
            }
            seen
        }));
    }

    // Challenges at the rate: player k posts, player k + 1 accepts at once.
    let sent: Arc<Mutex<HashMap<(String, String), Instant>>> = Arc::default();
    let refused = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let count = (args.rate * args.seconds).round() as u64;
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / args.rate));
    let rss_peak = Arc::new(Mutex::new(rss_start.unwrap_or(0.0)));
    let mut tasks = Vec::new();
    for n in 0..count {
        tick.tick().await;
        let poster = (n % u64::from(args.players)) as usize;
        let taker = (poster + 1) % args.players as usize;
        let (http_p, http_t) = (https[poster].clone(), https[taker].clone());
        let (cookie_p, cookie_t) = (cookies[poster].clone(), cookies[taker].clone());
        let (base, sent, refused) = (base.clone(), Arc::clone(&sent), Arc::clone(&refused));
        tasks.push(tokio::spawn(async move {
            let posted_at = Instant::now();
            let body = json!({"size": 9, "color": "black"});
            let (status, v, _) =
                request(&http_p, &base, "POST", "/api/challenges", Some(&cookie_p), Some(body)).await?;
            let Some(id) = v["id"].as_str().map(str::to_owned).filter(|_| status == 201) else {
                refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                eprintln!("lobby: a post answered {status}: {v}");
                return Ok::<_, anyhow::Error>(());
            };
            sent.lock().unwrap().insert((id.clone(), "open".into()), posted_at);
            let accepted_at = Instant::now();
            let path = format!("/api/challenges/{id}/accept");
            let (status, v, _) = request(&http_t, &base, "POST", &path, Some(&cookie_t), None).await?;
            if status == 201 {
                sent.lock().unwrap().insert((id, "accepted".into()), accepted_at);
            } else {
                refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                eprintln!("lobby: an acceptance answered {status}: {v}");
            }
            Ok(())
        }));
        if n % 50 == 0
            && let Some(now) = rss_mb(args.pid)
        {
            let mut peak = rss_peak.lock().unwrap();
            *peak = peak.max(now);
        }
    }
    for task in tasks {
        task.await??;
    }
    // The last messages on their way, then every socket closes.
    tokio::time::sleep(Duration::from_secs(2)).await;
    stop_tx.send(true)?;
    let sent = sent.lock().unwrap().clone();
    let (mut latencies, mut missed) = (Vec::new(), 0u64);
    for reader in readers {
        let seen = reader.await?;
        let first: HashMap<(String, String), Instant> =
            seen.into_iter().rev().map(|(id, state, at)| ((id, state), at)).collect();
        for (key, at) in &sent {
            match first.get(key) {
                Some(got) => latencies.push(got.saturating_duration_since(*at).as_secs_f64() * 1000.0),
                None => missed += 1,
            }
        }
    }
    // The clients have left: what the server still holds.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let rss_after = rss_mb(args.pid);
    latencies.sort_by(f64::total_cmp);
    let pct =
        |p: f64| latencies.get(((latencies.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
    let mb = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
    println!(
        "lobby players={} challenges={} events={} missed={missed} p50_ms={:.1} p99_ms={:.1} max_ms={:.1} refused={} rss_start_mb={} rss_peak_mb={} rss_after_mb={}",
        args.players,
        sent.keys().filter(|(_, s)| s == "open").count(),
        latencies.len(),
        pct(0.5),
        pct(0.99),
        latencies.last().copied().unwrap_or(f64::NAN),
        refused.load(std::sync::atomic::Ordering::Relaxed),
        mb(rss_start),
        mb(Some(*rss_peak.lock().unwrap()).filter(|_| args.pid.is_some())),
        mb(rss_after),
    );
    Ok(())
}

//! `tengen bench server`: drives games between two human seats over HTTP against a running
//! `tengen serve`, and checks afterwards that every acknowledged move is stored.
//!
//! Each game is a task that creates a friend game, then plays random legal moves (chosen on
//! its own copy of the game) for both seats, one request at a time, numbering each move; when
//! a game ends it starts another. With `--patient`, a refused connection or a lost answer is
//! retried until the server is back (the crash test kills and restarts it): a move whose
//! answer was lost is looked up on the server before it is sent again.

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
use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde_json::{Value, json};
use tengen_core::{Game, Move, Rules};
use tengen_engine::{Decision, Engine, RandomEngine};

/// Options of `tengen bench server`.
#[derive(Args)]
pub struct ServerArgs {
    /// The server's address.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Games played at once.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// How long to play.
    #[arg(long, default_value_t = 10.0)]
    seconds: f64,
    /// Board size of the games.
    #[arg(long, default_value_t = 19)]
    size: usize,
    /// Moves per second for all games together (each game paced to its share, as people
    /// play); 0 plays every move as soon as the last is answered.
    #[arg(long, default_value_t = 0.0)]
    rate: f64,
    /// Wait for the server when it is away (for restarts) instead of counting errors.
    #[arg(long)]
    patient: bool,
    /// Seed of the moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

type Http = Client<HttpConnector, Full<Bytes>>;

/// What the games measured.
#[derive(Default)]
struct Tally {
    accepted: AtomicU64,
    errors: AtomicU64,
    latencies_us: std::sync::Mutex<Vec<u64>>,
    games: AtomicU64,
}

/// One game as the driver knows it: the moves acknowledged (or, after a lost answer, seen
/// stored), which the server must still have, in order.
struct Played {
    id: String,
    acknowledged: Vec<Move>,
}

async fn request(
    http: &Http,
    method: &str,
    url: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Result<(u16, Value)> {
    let mut req = hyper::Request::builder().method(method).uri(url).header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let body = body.map_or_else(Bytes::new, |b| Bytes::from(b.to_string()));
    let response = http.request(req.body(Full::new(body))?).await?;
    let status = response.status().as_u16();
    let bytes = response.into_body().collect().await?.to_bytes();
    Ok((status, serde_json::from_slice(&bytes).unwrap_or(Value::Null)))
}

/// Runs the benchmark and prints its line.
pub fn run(args: &ServerArgs) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) || args.games == 0 {
        bail!("--seconds must be positive and --games at least 1");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(drive(args))
}

async fn drive(args: &ServerArgs) -> Result<()> {
    let http: Http = Client::builder(TokioExecutor::new()).pool_max_idle_per_host(args.games).build_http();
    let base = args.url.trim_end_matches('/').to_owned();
    // The server must answer before the clock starts.
    request(&http, "GET", &format!("{base}/api/games?limit=1"), None, None)
        .await
        .with_context(|| format!("no tengen server at {base}"))?;
    let tally = Arc::new(Tally::default());
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..args.games {
        let (http, base, tally, stop) = (http.clone(), base.clone(), Arc::clone(&tally), Arc::clone(&stop));
        let pace = (args.rate > 0.0).then(|| Duration::from_secs_f64(args.games as f64 / args.rate));
        let options = Options { size: args.size, patient: args.patient, seed: args.seed.wrapping_add(g as u64), pace };
        tasks.push(tokio::spawn(async move { play_games(&http, &base, options, &tally, &stop).await }));
    }
    tokio::time::sleep(Duration::from_secs_f64(args.seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut played = Vec::new();
    for t in tasks {
        played.extend(t.await??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    // Every acknowledged move must be in the server's record of its game.
    let mut lost = 0usize;
    for game in &played {
        let (status, view) = loop {
            match request(&http, "GET", &format!("{base}/api/games/{}", game.id), None, None).await {
                Ok(r) => break r,
                Err(_) if args.patient => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(e) => return Err(e),
            }
        };
        let stored: Vec<String> = if status == 200 {
            view["history"].as_array().map_or_else(Vec::new, |h| h.iter().map(|m| m["move"].to_string()).collect())
        } else {
            Vec::new()
        };
        let acknowledged: Vec<String> = game.acknowledged.iter().map(|m| format!("\"{m}\"")).collect();
        if stored.len() < acknowledged.len() || stored[..acknowledged.len()] != acknowledged[..] {
            lost += 1;
            eprintln!("game {}: {} moves acknowledged, the server has {}", game.id, acknowledged.len(), stored.len());
        }
    }
    let mut latencies = tally.latencies_us.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.clone();
    latencies.sort_unstable();
    let pct = |p: f64| latencies.get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)));
    let ms = |v: Option<&u64>| v.map_or(0.0, |&us| us as f64 / 1000.0);
    let accepted = tally.accepted.load(Ordering::Relaxed);
    println!(
        "server games={} rate={} seconds={elapsed:.1} games_played={} moves={accepted} per_second={:.0} \
         p50_ms={:.1} p99_ms={:.1} max_ms={:.1} errors={} lost_games={lost}",
        args.games,
        args.rate,
        tally.games.load(Ordering::Relaxed),
        accepted as f64 / elapsed,
        ms(pct(0.5)),
        ms(pct(0.99)),
        ms(latencies.last()),
        tally.errors.load(Ordering::Relaxed),
    );
    if lost > 0 {
        bail!("{lost} games lost acknowledged moves");
    }
    Ok(())
}

/// How one task plays.
#[derive(Clone, Copy)]
struct Options {
    size: usize,
    patient: bool,
    seed: u64,
    /// Time between two moves of the game, if paced.
    pace: Option<Duration>,
}

/// Plays games until `stop`; returns each game's acknowledged moves.
async fn play_games(
    http: &Http,
    base: &str,
    options: Options,
    tally: &Tally,
    stop: &AtomicBool,
) -> Result<Vec<Played>> {
    let Options { size, patient, seed, pace } = options;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut mover = RandomEngine::new(seed);
    // Paced games start spread over one interval, not all at once.
    let mut next =
        tokio::time::Instant::now() + pace.map_or(Duration::ZERO, |p| p.mul_f64(rand::Rng::random::<f64>(&mut rng)));
    let mut played = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let body = json!({"size": size, "opponent": "friend", "color": "black"});
        let created = match request(http, "POST", &format!("{base}/api/games"), None, Some(&body)).await {
            Ok((201, v)) => v,
            Ok(_) | Err(_) if patient => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
            Ok((status, v)) => bail!("creating a game: {status} {v}"),
            Err(e) => return Err(e),
        };
        tally.games.fetch_add(1, Ordering::Relaxed);
        let id = created["id"].as_str().context("game id")?.to_owned();
        let tokens = [
            created["token"].as_str().context("token")?.to_owned(),
            created["friend_token"].as_str().context("friend token")?.to_owned(),
        ];
        let mut game = Game::new(size, Rules::chinese())?;
        let mut record = Played { id: id.clone(), acknowledged: Vec::new() };
        let url = format!("{base}/api/games/{id}/move");
        // A move whose answer was lost and which the server did not show stored: sent again as
        // it was, never replaced by another choice for the same number — the server may have
        // stored it after all, and the lookup below can only tell that it holds *a* move of
        // that number.
        let mut unanswered: Option<Move> = None;
        while !stop.load(Ordering::Relaxed) && game.phase() == tengen_core::Phase::Playing {
            if let Some(p) = pace {
                tokio::time::sleep_until(next).await;
                next += p;
            }
            let color = game.to_move();
            // The random engine's move: legal (superko included), filling no own eye, else a pass.
            let mv = unanswered.take().unwrap_or_else(|| match mover.decide(&game, color, None) {
                Decision::Play(mv) => mv,
                Decision::Resign => Move::Pass,
            });
            let number = game.moves().len() + 1;
            let body = json!({"move": mv.to_string(), "number": number});
            let token = &tokens[color.index()];
            let sent = Instant::now();
            match request(http, "POST", &url, Some(token), Some(&body)).await {
                Ok((200, _)) => {
                    let us = sent.elapsed().as_micros() as u64;
                    tally.latencies_us.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.push(us);
                    tally.accepted.fetch_add(1, Ordering::Relaxed);
                    game.play(mv)?;
                    record.acknowledged.push(mv);
                }
                Ok((status, v)) if !patient => {
                    tally.errors.fetch_add(1, Ordering::Relaxed);
                    eprintln!("game {id} move {number} {mv}: {status} {v}");
                    break;
                }
                _ => {
                    // The server is away, or answered a retry with "stale": look the game up.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    if let Ok((200, view)) = request(http, "GET", &format!("{base}/api/games/{id}"), None, None).await
                        && view["moves"].as_u64() == Some(number as u64)
                    {
                        // Stored before the answer was lost: seen on the server, so checked too.
                        game.play(mv)?;
                        record.acknowledged.push(mv);
                    } else {
                        unanswered = Some(mv);
                    }
                }
            }
        }
        played.push(record);
    }
    Ok(played)
}

//! `tengen bench latency`: what a move and a read cost on a running `tengen serve`, against a
//! game's length and a record's size.
//!
//! Each run plays a 19 × 19 friend game of 300 moves that never capture (Black fills the left
//! half row by row, White the right) and keeps the latency of every move; and imports the same
//! game's record twice, plain and with 98,000 nodes of variations after its first move
//! (688 KB), reading each 15 times (`GET /api/games/ID`) and the big one's `/info` 15 times.
//! Prints one line, medians over the runs of each run's medians:
//! `latency runs=5 moves_1_20_ms=… moves_281_300_ms=… move_ratio=… plain_read_ms=… big_read_ms=… big_info_ms=… big_over_plain=…`.
//! A move's cost that grows with the game shows as `move_ratio` above 1; a record parsed
//! again at each read as `big_over_plain` far above 1.

use std::net::Ipv4Addr;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::Args;
use hyper::body::Bytes;
use serde_json::{Value, json};

use crate::abuse::{Http, client, filling_moves, send};

/// Options of `tengen bench latency`.
#[derive(Args)]
pub struct LatencyArgs {
    /// The server's address. Its rate limit must let one address send some 400 requests in a
    /// few seconds (`tengen serve --rate 100000 --burst 100000 --games-per-hour 100000`).
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// Runs (each a new game and two new imports).
    #[arg(long, default_value_t = 5)]
    runs: usize,
}

/// The median of `xs` (not empty).
fn median(xs: &mut [f64]) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 { xs[n / 2] } else { 0.5 * (xs[n / 2 - 1] + xs[n / 2]) }
}

/// Sends one request, which must succeed; its latency in milliseconds and its answer.
async fn timed(http: &Http, method: &str, url: &str, token: Option<&str>, body: Bytes) -> Result<(f64, Value)> {
    let start = Instant::now();
    let (status, answer) = send(http, method, url, token, body).await?;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    if !(200..300).contains(&status) {
        bail!("{method} {url}: {status} {answer}");
    }
    Ok((ms, answer))
}

/// One run's medians: moves 1–20, moves 281–300, plain read, big read, big `/info`.
async fn run_once(http: &Http, base: &str) -> Result<[f64; 5]> {
    let main = filling_moves();
    let plain = format!("(;GM[1]FF[4]SZ[19]{main})");
    let big = format!("(;GM[1]FF[4]SZ[19]{}({}){})", &main[..6], &main[6..], "(;W[ss];B[sr])".repeat(49_000));
    let mut reads = Vec::new();
    for (sgf, info) in [(plain, false), (big, true)] {
        let (_, created) = timed(http, "POST", &format!("{base}/api/games/import"), None, Bytes::from(sgf)).await?;
        let id = created["id"].as_str().context("an import without an id")?.to_owned();
        let paths: &[&str] = if info { &["", "/info"] } else { &[""] };
        for path in paths {
            let mut ms = Vec::new();
            for _ in 0..15 {
                ms.push(timed(http, "GET", &format!("{base}/api/games/{id}{path}"), None, Bytes::new()).await?.0);
            }
            reads.push(median(&mut ms));
        }
    }

    let new = json!({"size": 19, "opponent": "friend", "color": "black"});
    let (_, game) = timed(http, "POST", &format!("{base}/api/games"), None, Bytes::from(new.to_string())).await?;
    let id = game["id"].as_str().context("a game without an id")?;
    let tokens = [game["token"].as_str(), game["friend_token"].as_str()];
    let [Some(black), Some(white)] = tokens else { bail!("a friend game without both tokens: {game}") };
    let letters = "abcdefghijklmnopqrs";
    let columns = "ABCDEFGHJKLMNOPQRST";
    let mut latencies = Vec::new();
    for (n, node) in main.split(';').skip(1).take(300).enumerate() {
        // `B[ab]`: column a, row b from the top.
        let (col, row) = (letters.find(&node[2..3]).unwrap_or(0), letters.find(&node[3..4]).unwrap_or(0));
        let vertex = format!("{}{}", &columns[col..=col], 19 - row);
        let body = json!({"move": vertex, "number": n + 1}).to_string();
        let token = if n % 2 == 0 { black } else { white };
        let url = format!("{base}/api/games/{id}/move");
        latencies.push(timed(http, "POST", &url, Some(token), Bytes::from(body)).await?.0);
    }
    let early = median(&mut latencies[..20].to_vec());
    let late = median(&mut latencies[280..300].to_vec());
    Ok([early, late, reads[0], reads[1], reads[2]])
}

/// Runs the benchmark and prints its line.
///
/// # Errors
/// A server that does not answer, or refuses a request.
pub fn run(args: &LatencyArgs) -> Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    runtime.block_on(async {
        let http = client(Ipv4Addr::LOCALHOST);
        let base = args.url.trim_end_matches('/');
        let mut per_run: Vec<[f64; 5]> = Vec::new();
        for _ in 0..args.runs {
            per_run.push(run_once(&http, base).await?);
        }
        let of = |i: usize| median(&mut per_run.iter().map(|r| r[i]).collect::<Vec<_>>());
        let [early, late, plain, big, info] = [of(0), of(1), of(2), of(3), of(4)];
        println!(
            "latency runs={} moves_1_20_ms={early:.2} moves_281_300_ms={late:.2} move_ratio={:.2} plain_read_ms={plain:.2} \
             big_read_ms={big:.2} big_info_ms={info:.2} big_over_plain={:.2}",
            args.runs,
            late / early,
            big / plain
        );
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::median;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}

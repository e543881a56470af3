//! `tengen serve`: the game server.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

/// The stack of each of the server's threads (virtual memory: pages are taken as used).
pub(crate) const WORKER_STACK: usize = 16 << 20;

/// Options of `tengen serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Database: an SQLite file (`sqlite://tengen.db`, the default, created in the working
    /// directory) or `postgres://USER:PASSWORD@HOST/DATABASE`.
    #[arg(long, default_value = "sqlite://tengen.db")]
    db: String,
    /// Computer searches running at once; more games wait their turn. By default one fewer
    /// than the machine's cores (at least one): a core stays free to answer requests. With
    /// `--shared-moves`, 0 leaves the computer's moves to the other servers and workers.
    #[arg(long, value_parser = clap::value_parser!(u16).range(0..=256))]
    searches: Option<u16>,
    /// The computer's moves (and proposals of dead stones) go through the database, shared
    /// with the other servers and the `tengen worker` processes on it, instead of this
    /// server's own queue (for PostgreSQL shared by several machines).
    #[arg(long)]
    shared_moves: bool,
    /// The longest the computer thinks about one move, in seconds.
    #[arg(long, default_value_t = 5.0)]
    max_think: f64,
    /// A KataGo network (`.bin.gz`, model versions 8 to 15): the computer of levels 6 to 10
    /// searches with it, and it proposes the dead stones. Without it, the network `tengen model
    /// install` installed, if any.
    #[arg(long, conflicts_with = "no_model")]
    model: Option<std::path::PathBuf>,
    /// Without a network, even where one is installed.
    #[arg(long)]
    no_model: bool,
    /// The log on standard error: `text` lines or `json` objects, one per request (method,
    /// route, status, latency; never a token) and per fault. `RUST_LOG` filters it
    /// (`info` by default; `warn` for faults only).
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// The largest JSON body a request may carry, in bytes (413 beyond).
    #[arg(long, default_value_t = 64 * 1024, value_parser = clap::value_parser!(u64).range(1024..=16 * 1024 * 1024))]
    body_limit: u64,
    /// The largest SGF file an import may carry, in bytes (413 beyond).
    #[arg(long, default_value_t = 1024 * 1024, value_parser = clap::value_parser!(u64).range(1024..=64 * 1024 * 1024))]
    sgf_limit: u64,
    /// The most nodes an imported game tree may have (413 beyond).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(10..=1_000_000))]
    sgf_nodes: u64,
    /// The most nodes deep an imported game tree may be: its longest line of moves (413 beyond).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(10..=20_000))]
    sgf_depth: u64,
    /// Requests a second each client (IP address) may send on average (429 beyond).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    rate: u32,
    /// Requests a client may send at once before the average applies.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    burst: u32,
    /// Games a client may create or import an hour, a tenth of them at once (429 beyond).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(1..))]
    games_per_hour: u32,
    /// The computer's moves a client may have waiting or being thought at once, over all its
    /// games (429 beyond).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..))]
    computer_moves: u16,
    /// Open connections, over all clients (a WebSocket keeps its connection's place); more
    /// are closed at once.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Open connections from one address, WebSockets included; more are closed at once. A
    /// network (IPv4 /24, IPv6 /64) holds four times as many. When every place is taken, an
    /// idle connection (of the network that holds the most) is closed to make room.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    connections_per_address: u32,
    /// WebSockets open at once, over all clients, at most `--max-connections`: the other
    /// places are kept for plain requests (a WebSocket beyond is answered 503).
    #[arg(long, default_value_t = 768, value_parser = clap::value_parser!(u32).range(1..))]
    websockets: u32,
    /// Seconds between a WebSocket's pings: a socket that answers none of two, or whose send
    /// stalls this long (a client that does not read), is closed.
    #[arg(long, default_value_t = 20.0)]
    ping_every: f64,
    /// WebSocket watchers a client may hold open (a network, four times as many).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..))]
    watchers: u16,
    /// Seconds a client may take to send a request's headers.
    #[arg(long, default_value_t = 10.0)]
    header_timeout: f64,
    /// Seconds within which a request is answered (503 beyond; WebSockets apart).
    #[arg(long, default_value_t = 30.0)]
    request_timeout: f64,
    /// An origin whose pages may open WebSockets, e.g. `https://go.example.org`: the server's
    /// own name when players reach it by one (its pages reached by an IP address or
    /// `localhost` always may; a name is never trusted from the `Host` header alone, which DNS
    /// rebinding forges); repeat for more.
    #[arg(long)]
    origin: Vec<String>,
    /// Rate no game against the computer (players then get ranks from each other only).
    #[arg(long)]
    no_rated_computer: bool,
    /// The fewest moves of a rated game for it to be rated: one number for every size, or
    /// `9=N,13=N,19=N` (a shorter game ends unrated).
    #[arg(long, default_value = "9=20,13=30,19=50", value_parser = parse_min_moves)]
    rated_min_moves: MinMoves,
    /// The most rated games between two accounts in 24 hours (past them a game ends unrated;
    /// the computer's levels are exempt).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    rated_per_pair: u32,
    /// Review jobs this server works on at once; 0 leaves them to other servers and to
    /// `tengen worker` processes on the same database.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(0..=64))]
    review_workers: u16,
    /// The most simulations a position a review may ask of the playout search (422 beyond).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    review_playouts: u32,
    /// The most visits a position a review may ask of the network (422 beyond).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    review_visits: u32,
    /// Visits a position of a review that asks no strength (the page's "Review the game") on a
    /// server with `--model`; at most `--review-visits`. Without a network such a review is the
    /// playout search's, 1,000 simulations a position.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    review_default_visits: u32,
    /// Search threads of each review this server works on (a network review's quick pass
    /// shares out its positions among them too).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    review_threads: u16,
    /// The most work one review may ask: its moves times its playouts or visits (422 beyond;
    /// the default takes 200 moves at the most playouts, 2,000 at the default 1,000).
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    review_work: u64,
    /// Reviews one address may have queued or running at once (429 beyond).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..))]
    reviews_per_client: u16,
    /// Live analyses one address may run at once (429 beyond).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    analyses_per_client: u16,
    /// Live analyses the server runs at once (503 beyond); each takes a thread.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=256))]
    analyses: u16,
    /// The longest a live analysis may search, in seconds (422 beyond).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=3600))]
    analysis_seconds: u32,
    /// Open challenges a player may have posted at once (429 beyond).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=1000))]
    challenges_per_player: u16,
    /// Games between players a player may have in play at once (a challenge is not accepted
    /// beyond).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=10_000))]
    games_per_player: u16,
    /// Seconds a live challenge stays after its owner's last lobby connection closed.
    #[arg(long, default_value_t = 10.0)]
    lobby_grace: f64,
    /// Seconds a player may be away from a game's board before the opponent may claim it.
    #[arg(long, default_value_t = 30.0)]
    claim_grace: f64,
}

/// The log's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// Lines for people.
    Text,
    /// One JSON object a line, for log collectors.
    Json,
}

/// Installs the log: `RUST_LOG` (default `info`) on standard error.
pub(crate) fn install_log(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    let _ = match format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().try_init(),
    };
}

/// `--flag`'s seconds, more than 0 and at most `max`.
/// `--rated-min-moves`: the fewest moves on 9×9, 13×13 and 19×19.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MinMoves(pub(crate) [u32; 3]);

/// One number for every size, or `9=N,13=N,19=N` (sizes left out keep their default).
fn parse_min_moves(text: &str) -> std::result::Result<MinMoves, String> {
    let bad = || format!("{text:?}: give one number of moves, or 9=N,13=N,19=N");
    if let Ok(n) = text.trim().parse::<u32>() {
        return Ok(MinMoves([n; 3]));
    }
    let mut moves = [20, 30, 50];
    for part in text.split(',') {
        let (size, n) = part.split_once('=').ok_or_else(bad)?;
        let i = match size.trim() {
            "9" => 0,
            "13" => 1,
            "19" => 2,
            _ => return Err(format!("{text:?}: rated sizes are 9, 13 and 19")),
        };
        moves[i] = n.trim().parse().map_err(|_| bad())?;
    }
    Ok(MinMoves(moves))
}

pub(crate) fn seconds(flag: &str, value: f64, max: f64) -> Result<Duration> {
    if !(value.is_finite() && value > 0.0 && value <= max) {
        anyhow::bail!("--{flag} must be more than 0 and at most {max} seconds");
    }
    Ok(Duration::from_secs_f64(value))
}

/// Serves until Ctrl-C.
pub fn run(args: &ServeArgs) -> Result<()> {
    tengen_server::set_memory_trim(crate::malloc::trim);
    if !crate::malloc::return_large_buffers() {
        eprintln!("tengen serve: the allocator refused a fixed mmap threshold; large buffers may stay in the heap");
    }
    let max_think = seconds("max-think", args.max_think, 600.0)?;
    let settings = tengen_server::Settings {
        searches: args.searches.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            usize::from,
        ),
        max_think,
        network: crate::network::choose(args.model.as_deref(), args.no_model)?,
        limits: tengen_server::guard::Limits {
            body_bytes: args.body_limit as usize,
            sgf: tengen_sgf::Limits {
                bytes: args.sgf_limit as usize,
                nodes: args.sgf_nodes as usize,
                depth: args.sgf_depth as usize,
            },
            requests_per_second: args.rate,
            request_burst: args.burst,
            games_per_hour: args.games_per_hour,
            computer_moves: usize::from(args.computer_moves),
            connections: args.max_connections as usize,
            connections_per_address: args.connections_per_address as usize,
            websockets: (args.websockets as usize).min(args.max_connections as usize),
            ping_every: seconds("ping-every", args.ping_every, 3600.0)?,
            watchers_per_client: usize::from(args.watchers),
            header_timeout: seconds("header-timeout", args.header_timeout, 3600.0)?,
            request_timeout: seconds("request-timeout", args.request_timeout, 3600.0)?,
            connection_age: Duration::from_secs(600),
            origins: args.origin.clone(),
            rated_computer: !args.no_rated_computer,
            rated_min_moves: args.rated_min_moves.0,
            rated_per_pair: args.rated_per_pair,
            review_playouts: args.review_playouts,
            review_visits: args.review_visits,
            review_default_visits: args.review_default_visits,
            review_threads: usize::from(args.review_threads),
            review_work: args.review_work,
            reviews_per_client: usize::from(args.reviews_per_client),
            analyses_per_client: usize::from(args.analyses_per_client),
            analyses: usize::from(args.analyses),
            analysis_seconds: args.analysis_seconds,
            challenges_per_player: usize::from(args.challenges_per_player),
            games_per_player: usize::from(args.games_per_player),
            lobby_grace: seconds("lobby-grace", args.lobby_grace, 3600.0)?,
            claim_grace: seconds("claim-grace", args.claim_grace, 86_400.0)?,
        },
        review_workers: usize::from(args.review_workers),
        shared_moves: args.shared_moves,
    };
    if args.review_default_visits > args.review_visits {
        anyhow::bail!(
            "--review-default-visits {} is more than --review-visits {}: a review may not ask that many",
            args.review_default_visits,
            args.review_visits
        );
    }
    if settings.searches == 0 && !settings.shared_moves {
        anyhow::bail!("--searches 0 needs --shared-moves: else nobody would search the computer's moves");
    }
    install_log(args.log_format);
    // Few blocking threads (the computer's searches, the reviews, the analyses, the
    // commentary): each thread that allocates gets an allocator arena of its own, which keeps
    // its memory after a burst.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // A request's future holds a game's state (a board and its history) by value; an
        // unoptimised build keeps several copies of it on the stack: 2 MiB, tokio's default,
        // overflowed on the first move of a debug build.
        .thread_stack_size(WORKER_STACK)
        .max_blocking_threads(settings.searches + settings.review_workers + settings.limits.analyses + 2)
        .build()
        .context("starting the async runtime")?;
    runtime
        .block_on(tengen_server::serve(args.addr, &args.db, settings))
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("serving on {} with {}", args.addr, args.db))
}

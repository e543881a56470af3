//! What stands between the open internet and the game: per-client rate limits and quotas, the
//! server's limits and the metrics (the layer that applies them to every request is
//! [`crate::http::middleware`]).
//!
//! A client is its IP address as the socket gives it (no proxy header is trusted).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use governor::clock::{Clock as _, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::error::ApiError;
use crate::util::lock;

/// The server's bounds on what clients can make it hold or do. Every one is a flag of
/// `tengen serve`.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest JSON body, in bytes.
    pub body_bytes: usize,
    /// The largest SGF import and the most nodes and depth of its game tree.
    pub sgf: tengen_sgf::Limits,
    /// Requests a second per client, on average.
    pub requests_per_second: u32,
    /// Requests a client may send at once before the average applies.
    pub request_burst: u32,
    /// Games a client may create or import an hour, on average (a tenth of them at once).
    pub games_per_hour: u32,
    /// Computer moves (and proposals of dead stones) a client may have waiting or being
    /// thought at once, over all its games: beyond, a request that would add one is refused
    /// with 429.
    pub computer_moves: usize,
    /// Open connections, over all clients: beyond, new connections are closed at once. A
    /// WebSocket keeps its connection's place while it stays open.
    pub connections: usize,
    /// Open connections from one address (WebSockets included): beyond, its new connections
    /// are closed at once, so that one address cannot hold every place.
    pub connections_per_address: usize,
    /// WebSocket watchers a client may hold open.
    pub watchers_per_client: usize,
    /// The longest a client may take to send a request's headers.
    pub header_timeout: Duration,
    /// The longest a request may take to be answered (WebSockets apart).
    pub request_timeout: Duration,
    /// A connection is closed (after its request in flight) when it is this old; browsers
    /// open another.
    pub connection_age: Duration,
    /// Origins a WebSocket may come from, besides the server's own reached by an IP address
    /// or `localhost`: e.g. `https://go.example.org`.
    pub origins: Vec<String>,
    /// Whether games against the computer may be rated (its levels with a measured rank).
    pub rated_computer: bool,
    /// The most simulations a position a review may ask of the playout search.
    pub review_playouts: u32,
    /// The most visits a position a review may ask of the network.
    pub review_visits: u32,
    /// Visits a position of a review that asks no strength, on a server with a network (the
    /// page's "Review the game"); at most `review_visits`.
    pub review_default_visits: u32,
    /// Search threads of each review (a network review's quick pass shares out its positions
    /// among them too).
    pub review_threads: usize,
    /// The most work one review may ask: its moves times its playouts or visits (422 beyond),
    /// so that no request holds a worker for long.
    pub review_work: u64,
    /// Reviews a client may have queued or running at once (429 beyond).
    pub reviews_per_client: usize,
    /// Live analyses a client may run at once (429 beyond).
    pub analyses_per_client: usize,
    /// Live analyses the server runs at once, over all clients (503 beyond).
    pub analyses: usize,
    /// The longest a live analysis may search, in seconds.
    pub analysis_seconds: u32,
    /// Open challenges a player may have posted at once (429 beyond).
    pub challenges_per_player: usize,
    /// Games between players a player may have in play at once: beyond, their challenges
    /// cannot be accepted (429).
    pub games_per_player: usize,
    /// How long a live challenge stays after its owner's last lobby connection closed.
    pub lobby_grace: Duration,
    /// How long a player may be away from a game's board before the opponent may claim it.
    pub claim_grace: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 64 * 1024,
            sgf: tengen_sgf::Limits { bytes: 1024 * 1024, ..tengen_sgf::Limits::default() },
            requests_per_second: 20,
            request_burst: 60,
            games_per_hour: 120,
            computer_moves: 4,
            connections: 1024,
            connections_per_address: 64,
            watchers_per_client: 32,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            connection_age: Duration::from_secs(600),
            origins: Vec::new(),
            rated_computer: true,
            review_playouts: 10_000,
            review_visits: 400,
            review_default_visits: 32,
            review_threads: 1,
            review_work: 2_000_000,
            reviews_per_client: 4,
            analyses_per_client: 2,
            analyses: 4,
            analysis_seconds: 60,
            challenges_per_player: 5,
            games_per_player: 20,
            lobby_grace: Duration::from_secs(10),
            claim_grace: Duration::from_secs(30),
        }
    }
}

/// The client of a request: its IP address (loopback when the server runs without a socket,
/// as in tests that call the router directly).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Client(pub IpAddr);

impl Client {
    /// The server itself (clocks, restarts).
    pub const SERVER: Client = Client(IpAddr::V4(Ipv4Addr::UNSPECIFIED));

    pub(crate) fn of(parts: &axum::http::Extensions) -> Client {
        parts
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(Client(IpAddr::V4(Ipv4Addr::LOCALHOST)), |ConnectInfo(addr)| Client(addr.ip()))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut axum::http::request::Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Client::of(&parts.extensions))
    }
}

/// Per-client rate limiters.
pub struct Quotas {
    pub(crate) requests: DefaultKeyedRateLimiter<IpAddr>,
    games: DefaultKeyedRateLimiter<IpAddr>,
    /// Chat messages, by author (an account, or a guest's seat of a game).
    chat: DefaultKeyedRateLimiter<String>,
}

fn nonzero(n: u32) -> NonZeroU32 {
    NonZeroU32::new(n.max(1)).expect("at least 1")
}

impl Quotas {
    /// The limiters for `limits`.
    #[must_use]
    pub fn new(limits: &Limits) -> Quotas {
        let requests =
            Quota::per_second(nonzero(limits.requests_per_second)).allow_burst(nonzero(limits.request_burst));
        let per_game = Duration::from_secs(3600) / limits.games_per_hour.max(1);
        let games = Quota::with_period(per_game)
            .expect("a positive period")
            .allow_burst(nonzero(limits.games_per_hour.div_ceil(10)));
        // A message a second on average, five at once.
        let chat = Quota::per_second(nonzero(1)).allow_burst(nonzero(5));
        Quotas {
            requests: RateLimiter::keyed(requests),
            games: RateLimiter::keyed(games),
            chat: RateLimiter::keyed(chat),
        }
    }

    pub(crate) fn check(limiter: &DefaultKeyedRateLimiter<IpAddr>, client: Client) -> Result<(), u64> {
        limiter
            .check_key(&client.0)
            .map_err(|not_until| not_until.wait_time_from(DefaultClock::default().now()).as_secs_f64().ceil() as u64)
    }

    /// One more game created or imported by `client`.
    ///
    /// # Errors
    /// 429 past the quota.
    pub fn new_game(&self, client: Client) -> Result<(), ApiError> {
        Quotas::check(&self.games, client).map_err(|wait| {
            ApiError::too_many(format!("too many new games from this address: try again in {wait} s"), wait)
        })
    }

    /// Counts a chat message of `author`.
    ///
    /// # Errors
    /// 429 past a message a second (five at once).
    pub fn chat(&self, author: &str) -> Result<(), ApiError> {
        self.chat.check_key(&author.to_owned()).map_err(|not_until| {
            let wait = not_until.wait_time_from(DefaultClock::default().now()).as_secs_f64().ceil() as u64;
            ApiError::too_many(format!("too many messages: wait {wait} s"), wait.max(1)).because("chat_rate")
        })
    }

    /// Forgets the clients whose limits are back to full (every few seconds), so that the
    /// tables hold only the clients of the last moments.
    pub fn forget_idle(&self) {
        self.requests.retain_recent();
        self.requests.shrink_to_fit();
        self.games.retain_recent();
        self.games.shrink_to_fit();
        self.chat.retain_recent();
        self.chat.shrink_to_fit();
    }

    /// Clients in the tables.
    #[must_use]
    pub fn clients(&self) -> usize {
        self.requests.len() + self.games.len() + self.chat.len()
    }
}

/// Answer counts and latencies, for `/metrics`.
#[derive(Default)]
pub struct Metrics {
    /// (method, route, status) → answers.
    answers: Mutex<HashMap<(String, String, u16), u64>>,
    /// route → latency histogram (counts per bucket of [`BUCKETS`], then the sum in µs).
    latency: Mutex<HashMap<String, ([u64; BUCKETS.len() + 1], u64)>>,
    /// Requests refused by the rate limit.
    pub limited: AtomicU64,
    /// Connections closed at once because the cap was reached.
    pub connections_refused: AtomicU64,
    /// Connections open now.
    pub connections: AtomicU64,
    /// WebSocket watchers now.
    pub watchers: AtomicU64,
}

/// Latency buckets, in seconds.
const BUCKETS: [f64; 10] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0];

impl Metrics {
    pub(crate) fn record(&self, method: &str, route: &str, status: u16, elapsed: Duration) {
        *lock(&self.answers).entry((method.to_owned(), route.to_owned(), status)).or_default() += 1;
        let mut latency = lock(&self.latency);
        let (counts, sum) = latency.entry(route.to_owned()).or_default();
        let seconds = elapsed.as_secs_f64();
        let bucket = BUCKETS.iter().position(|&b| seconds <= b).unwrap_or(BUCKETS.len());
        counts[bucket] += 1;
        *sum += elapsed.as_micros() as u64;
    }

    /// The Prometheus text format of the counts, with the gauges given.
    #[must_use]
    pub fn render(&self, gauges: &[(&str, &str, u64)]) -> String {
        let mut out = String::new();
        let answers = lock(&self.answers);
        let mut rows: Vec<_> = answers.iter().collect();
        rows.sort();
        out.push_str("# HELP tengen_http_requests_total HTTP answers by method, route and status.\n");
        out.push_str("# TYPE tengen_http_requests_total counter\n");
        for ((method, route, status), n) in rows {
            let _ = writeln!(
                out,
                "tengen_http_requests_total{{method=\"{method}\",route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        drop(answers);
        let latency = lock(&self.latency);
        let mut routes: Vec<_> = latency.iter().collect();
        routes.sort_by(|a, b| a.0.cmp(b.0));
        out.push_str("# HELP tengen_http_request_duration_seconds Time to answer, by route.\n");
        out.push_str("# TYPE tengen_http_request_duration_seconds histogram\n");
        for (route, (counts, sum)) in routes {
            let mut cumulative = 0;
            for (i, bound) in BUCKETS.iter().enumerate() {
                cumulative += counts[i];
                let _ = writeln!(
                    out,
                    "tengen_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {cumulative}"
                );
            }
            cumulative += counts[BUCKETS.len()];
            let _ = writeln!(
                out,
                "tengen_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {cumulative}"
            );
            let _ =
                writeln!(out, "tengen_http_request_duration_seconds_sum{{route=\"{route}\"}} {}", *sum as f64 / 1e6);
            let _ = writeln!(out, "tengen_http_request_duration_seconds_count{{route=\"{route}\"}} {cumulative}");
        }
        drop(latency);
        let counters = [
            ("tengen_rate_limited_total", "Requests refused by the per-client rate limit.", &self.limited),
            (
                "tengen_connections_refused_total",
                "Connections closed at once at the connection cap.",
                &self.connections_refused,
            ),
        ];
        for (name, help, value) in counters {
            let _ =
                writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}", value.load(Ordering::Relaxed));
        }
        let open = [
            ("tengen_connections", "Open connections.", self.connections.load(Ordering::Relaxed)),
            ("tengen_websocket_watchers", "Open WebSocket watchers.", self.watchers.load(Ordering::Relaxed)),
        ];
        for (name, help, value) in open.iter().copied().chain(gauges.iter().copied()) {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}");
        }
        out
    }
}

/// A connection's places in the server's bounds ([`Limits::connections`] and
/// [`Limits::connections_per_address`]), given back when the last holder drops it: the
/// connection itself and, after an upgrade, its WebSocket. Set in each request's extensions
/// by the server's accept loop; absent where requests come without a socket (tests).
#[derive(Clone)]
pub struct ConnectionSlot(pub std::sync::Arc<dyn std::any::Any + Send + Sync>);

/// The connections open by each address, against [`Limits::connections_per_address`].
#[derive(Clone, Default)]
pub struct AddressConnections(std::sync::Arc<Mutex<HashMap<IpAddr, usize>>>);

impl AddressConnections {
    /// A place for one more connection of `ip`, or `None` when it holds `max` already.
    #[must_use]
    pub fn open(&self, ip: IpAddr, max: usize) -> Option<AddressPlace> {
        let mut open = lock(&self.0);
        let n = open.entry(ip).or_default();
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(AddressPlace { connections: self.clone(), ip })
    }

    /// Addresses with connections open.
    #[must_use]
    pub fn addresses(&self) -> usize {
        lock(&self.0).len()
    }
}

/// One connection's place among its address's ([`AddressConnections::open`]).
pub struct AddressPlace {
    connections: AddressConnections,
    ip: IpAddr,
}

impl Drop for AddressPlace {
    fn drop(&mut self) {
        let mut open = lock(&self.connections.0);
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_refuse_past_the_burst_and_say_when_to_retry() {
        let limits = Limits { games_per_hour: 20, ..Limits::default() };
        let quotas = Quotas::new(&limits);
        let a = Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)));
        let b = Client(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)));
        assert!(quotas.new_game(a).is_ok() && quotas.new_game(a).is_ok());
        let refused = quotas.new_game(a).unwrap_err();
        assert_eq!(refused.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
        // 20 an hour: one every 180 s.
        assert!((170..=180).contains(&refused.retry_after.unwrap()), "{:?}", refused.retry_after);
        assert!(quotas.new_game(b).is_ok(), "another client has its own quota");
    }

    #[test]
    fn metrics_render_in_the_prometheus_text_format() {
        let m = Metrics::default();
        m.record("GET", "/api/games/{id}", 200, Duration::from_millis(3));
        m.record("GET", "/api/games/{id}", 404, Duration::from_millis(30));
        let text = m.render(&[("tengen_games_in_play", "Unfinished games.", 7)]);
        assert!(text.contains("tengen_http_requests_total{method=\"GET\",route=\"/api/games/{id}\",status=\"404\"} 1"));
        assert!(text.contains("tengen_http_request_duration_seconds_bucket{route=\"/api/games/{id}\",le=\"0.005\"} 1"));
        assert!(text.contains("tengen_http_request_duration_seconds_count{route=\"/api/games/{id}\"} 2"));
        assert!(text.contains("# TYPE tengen_games_in_play gauge\ntengen_games_in_play 7"));
    }

    #[test]
    fn one_address_holds_at_most_its_share_of_connections() {
        let connections = AddressConnections::default();
        let (a, b) = (IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)));
        let held: Vec<AddressPlace> = (0..3).map_while(|_| connections.open(a, 3)).collect();
        assert_eq!(held.len(), 3);
        assert!(connections.open(a, 3).is_none(), "a fourth from the same address");
        let other = connections.open(b, 3);
        assert!(other.is_some(), "another address has its own share");
        drop(held);
        drop(other);
        assert_eq!(connections.addresses(), 0, "nothing is left once all are closed");
        assert!(connections.open(a, 3).is_some());
    }
}

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
    /// are closed at once, so that one address cannot hold every place; from one network
    /// (IPv4 /24, IPv6 /64), [`NETWORK_SHARES`] times as many. When every place is taken, an
    /// idle connection is closed to make room.
    pub connections_per_address: usize,
    /// Long-lived sockets (WebSockets) over all clients, at most `connections`: the rest of
    /// the places are kept for plain requests (503 to a WebSocket beyond).
    pub websockets: usize,
    /// A WebSocket is sent a ping this often and closed when it has answered none of the
    /// last two, or when a send to it stalls this long (a client that never reads).
    pub ping_every: Duration,
    /// WebSocket watchers a client may hold open (its network, [`NETWORK_SHARES`] times as
    /// many).
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
    /// The fewest moves of a rated game for it to be rated, on 9×9, 13×13 and 19×19 (a
    /// shorter one ends unrated: ratings are not farmed by quick resignations).
    pub rated_min_moves: [u32; 3],
    /// The most rated games between two accounts a day (24 hours); past them a game ends
    /// unrated. Games against the computer's levels are exempt (a lone player is ranked by
    /// them).
    pub rated_per_pair: u32,
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
            websockets: 768,
            ping_every: Duration::from_secs(20),
            watchers_per_client: 32,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            connection_age: Duration::from_secs(600),
            origins: Vec::new(),
            rated_computer: true,
            rated_min_moves: [20, 30, 50],
            rated_per_pair: 3,
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

impl Client {
    /// The client's network: its IPv4 /24 or IPv6 /64 (an IPv4 address mapped into IPv6 is
    /// taken as IPv4), as text (`10.1.2.0/24`). Per-address limits are also counted by
    /// network, at four times the address's, so that one host with many addresses of one
    /// network does not get many shares.
    #[must_use]
    pub fn network(self) -> String {
        network_of(self.0)
    }
}

/// An address's network: see [`Client::network`].
#[must_use]
pub fn network_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            format!("{a}.{b}.{c}.0/24")
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => network_of(IpAddr::V4(v4)),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Per-network shares are this many times the per-address ones.
pub const NETWORK_SHARES: usize = 4;

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
    /// Idle connections closed to make room for new ones.
    pub connections_evicted: AtomicU64,
    /// Requests whose handler panicked (each answered with a 500).
    pub panics: AtomicU64,
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
            (
                "tengen_connections_evicted_total",
                "Idle connections closed to make room at the connection cap.",
                &self.connections_evicted,
            ),
            ("tengen_panics_total", "Requests whose handler panicked (answered with a 500).", &self.panics),
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
    fn networks_are_ipv4_24s_and_ipv6_64s() {
        let net = |s: &str| network_of(s.parse().unwrap());
        assert_eq!(net("10.1.2.3"), "10.1.2.0/24");
        assert_eq!(net("10.1.2.250"), net("10.1.2.3"));
        assert_ne!(net("10.1.3.3"), net("10.1.2.3"));
        assert_eq!(net("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
        assert_eq!(net("::ffff:10.1.2.3"), "10.1.2.0/24", "an IPv4 address mapped into IPv6");
    }
}

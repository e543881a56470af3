//! The server's connections and what bounds them: a cap over all clients, a share per address
//! and per network (IPv4 /24, IPv6 /64: [`crate::guard::NETWORK_SHARES`] times the
//! address's), a cap on long-lived sockets (WebSockets) that keeps room for plain requests,
//! and, when every place is taken, an idle connection closed to make room (one of the network
//! that holds the most). A connection is idle while no request of it is being answered: waiting
//! for its first request or its next one, or still sending headers.
//!
//! [`serve_connections`] is the accept loop of [`crate::serve()`].

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;
use crate::guard::{Limits, NETWORK_SHARES, network_of};
use crate::service::AppState;
use crate::util::lock;

/// Connections waiting for a place freed by an eviction, at most: past them, a new connection
/// is closed at once.
const WAITING: usize = 64;
/// How long a new connection waits for the place an eviction frees.
const WAIT_FOR_PLACE: Duration = Duration::from_secs(1);

/// Open connections and long-lived sockets, by address and network.
#[derive(Default)]
struct Count {
    connections: usize,
    sockets: usize,
}

#[derive(Default)]
struct Table {
    next: u64,
    by_address: HashMap<IpAddr, Count>,
    by_network: HashMap<String, Count>,
    open: HashMap<u64, Open>,
}

struct Open {
    network: String,
    opened: Instant,
    serving: Arc<Serving>,
}

/// A connection's state as eviction sees it.
#[derive(Default)]
pub(crate) struct Serving {
    /// Requests being answered.
    in_flight: AtomicUsize,
    /// HTTP is over on it: closed, or handed to a WebSocket.
    done: AtomicBool,
    /// Told to close.
    evict: Notify,
}

impl Serving {
    fn idle(&self) -> bool {
        self.in_flight.load(Ordering::Acquire) == 0 && !self.done.load(Ordering::Acquire)
    }
}

/// Every connection of one server.
#[derive(Clone)]
pub(crate) struct Connections {
    table: Arc<Mutex<Table>>,
    all: Arc<Semaphore>,
    sockets: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    per_address: usize,
    sockets_per_address: usize,
}

/// Why a connection gets no place.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Refused {
    /// Its address or network holds its share.
    Share,
    /// Every place is taken and none is idle.
    Full,
}

impl Connections {
    pub(crate) fn new(limits: &Limits) -> Connections {
        Connections {
            table: Arc::default(),
            all: Arc::new(Semaphore::new(limits.connections.max(1))),
            sockets: Arc::new(Semaphore::new(limits.websockets.clamp(1, limits.connections.max(1)))),
            waiting: Arc::default(),
            per_address: limits.connections_per_address.max(1),
            sockets_per_address: limits.watchers_per_client.max(1),
        }
    }

    /// A place for a new connection from `ip`, closing an idle one when every place is taken
    /// (then `true`).
    pub(crate) async fn admit(&self, ip: IpAddr) -> Result<(Place, bool), Refused> {
        let network = network_of(ip);
        if self.share_taken(&lock(&self.table), ip, &network) {
            return Err(Refused::Share);
        }
        let mut evicted = false;
        let permit = match Arc::clone(&self.all).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if self.waiting.fetch_add(1, Ordering::AcqRel) >= WAITING || !self.evict_one() {
                    self.waiting.fetch_sub(1, Ordering::AcqRel);
                    return Err(Refused::Full);
                }
                evicted = true;
                let permit = tokio::time::timeout(WAIT_FOR_PLACE, Arc::clone(&self.all).acquire_owned()).await;
                self.waiting.fetch_sub(1, Ordering::AcqRel);
                match permit {
                    Ok(Ok(permit)) => permit,
                    _ => return Err(Refused::Full),
                }
            }
        };
        let mut table = lock(&self.table);
        // Checked again: others of its address may have come meanwhile.
        if self.share_taken(&table, ip, &network) {
            return Err(Refused::Share);
        }
        table.by_address.entry(ip).or_default().connections += 1;
        table.by_network.entry(network.clone()).or_default().connections += 1;
        table.next += 1;
        let id = table.next;
        let serving = Arc::new(Serving::default());
        table.open.insert(id, Open { network: network.clone(), opened: Instant::now(), serving: Arc::clone(&serving) });
        let place =
            Place { connections: self.clone(), id, ip, network, serving, _permit: permit, socket: Mutex::new(None) };
        Ok((place, evicted))
    }

    /// Whether `ip` or its `network` holds its share of connections already.
    fn share_taken(&self, table: &Table, ip: IpAddr, network: &str) -> bool {
        let address = table.by_address.get(&ip).map_or(0, |c| c.connections);
        let net = table.by_network.get(network).map_or(0, |c| c.connections);
        address >= self.per_address || net >= self.per_address * NETWORK_SHARES
    }

    /// Tells an idle connection to close: of those of the network that holds the most
    /// connections, the oldest. Whether there was one.
    fn evict_one(&self) -> bool {
        let table = lock(&self.table);
        let victim = table.open.values().filter(|o| o.serving.idle()).max_by_key(|o| {
            (table.by_network.get(&o.network).map_or(0, |c| c.connections), std::cmp::Reverse(o.opened))
        });
        match victim {
            Some(open) => {
                // Marked so that a second eviction picks another.
                open.serving.done.store(true, Ordering::Release);
                open.serving.evict.notify_one();
                true
            }
            None => false,
        }
    }

    /// Long-lived sockets open now.
    #[cfg(test)]
    fn sockets(&self) -> usize {
        lock(&self.table).by_address.values().map(|c| c.sockets).sum()
    }
}

/// One connection's place, given back when the connection and its WebSocket, if any, are
/// closed.
pub(crate) struct Place {
    connections: Connections,
    id: u64,
    ip: IpAddr,
    network: String,
    serving: Arc<Serving>,
    _permit: OwnedSemaphorePermit,
    socket: Mutex<Option<OwnedSemaphorePermit>>,
}

impl Place {
    /// Makes the connection a long-lived socket: a place among the sockets, within its
    /// address's and network's shares of them (once; again is no change).
    ///
    /// # Errors
    /// 429 past the address's or network's share, 503 when every socket's place is taken
    /// (the rest are kept for plain requests).
    pub(crate) fn long_lived(&self) -> Result<(), ApiError> {
        let mut socket = lock(&self.socket);
        if socket.is_some() {
            return Ok(());
        }
        let mut table = lock(&self.connections.table);
        let most = self.connections.sockets_per_address;
        let address = table.by_address.get(&self.ip).map_or(0, |c| c.sockets);
        let network = table.by_network.get(&self.network).map_or(0, |c| c.sockets);
        if address >= most || network >= most * NETWORK_SHARES {
            let whose = if address >= most { "this address" } else { "this network" };
            return Err(ApiError::too_many(format!("too many live connections from {whose}"), 5));
        }
        let permit = Arc::clone(&self.connections.sockets).try_acquire_owned().map_err(|_| {
            ApiError::unavailable("the server has no room for another live connection: try again in a moment", 5)
        })?;
        table.by_address.entry(self.ip).or_default().sockets += 1;
        table.by_network.entry(self.network.clone()).or_default().sockets += 1;
        *socket = Some(permit);
        Ok(())
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let socket = lock(&self.socket).take().is_some();
        let mut table = lock(&self.connections.table);
        table.open.remove(&self.id);
        if let Some(c) = table.by_address.get_mut(&self.ip) {
            c.connections -= 1;
            c.sockets -= usize::from(socket);
            if c.connections == 0 {
                table.by_address.remove(&self.ip);
            }
        }
        if let Some(c) = table.by_network.get_mut(&self.network) {
            c.connections -= 1;
            c.sockets -= usize::from(socket);
            if c.connections == 0 {
                table.by_network.remove(&self.network);
            }
        }
    }
}

/// Accepts connections on `listener` until `shutdown`, each served by [`connection`].
pub(crate) async fn serve_connections(
    state: AppState,
    router: axum::Router,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()>,
) {
    tokio::pin!(shutdown);
    let connections = Connections::new(state.limits());
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, most likely: wait a moment rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let (state, router, connections) = (state.clone(), router.clone(), connections.clone());
        // Admitted on its own task: waiting for a place an eviction frees must not hold up
        // the accept loop.
        tokio::spawn(async move {
            match connections.admit(peer.ip()).await {
                Ok((place, evicted)) => {
                    if evicted {
                        state.metrics().connections_evicted.fetch_add(1, Ordering::Relaxed);
                    }
                    state.metrics().connections.fetch_add(1, Ordering::Relaxed);
                    connection(state.clone(), router, stream, peer, place).await;
                }
                Err(_) => {
                    state.metrics().connections_refused.fetch_add(1, Ordering::Relaxed);
                    drop(stream);
                }
            }
        });
    }
}

/// A connection's place and its count in the open-connections gauge, given back when the
/// last holder drops it: the connection itself and, after an upgrade, its WebSocket. Set in
/// each request's extensions by the accept loop; absent where requests come without a
/// socket (tests that call the router).
#[derive(Clone)]
pub struct ConnectionSlot(Arc<Counted>);

impl ConnectionSlot {
    /// Makes the connection a long-lived socket ([`Place::long_lived`]).
    ///
    /// # Errors
    /// 429 past the address's or network's share of sockets, 503 when every socket's place
    /// is taken.
    pub(crate) fn long_lived(&self) -> Result<(), ApiError> {
        self.0.place.long_lived()
    }
}

struct Counted {
    state: AppState,
    place: Place,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.state.metrics().connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One connection: HTTP/1.1 with the header timeout, upgrades (WebSockets) allowed, closed
/// gracefully when it reaches the connection age, at once when evicted while idle. Its place
/// goes with each request, so that a WebSocket keeps it while it is open.
async fn connection(
    state: AppState,
    router: axum::Router,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    place: Place,
) {
    let limits = state.limits().clone();
    let serving = Arc::clone(&place.serving);
    let slot = ConnectionSlot(Arc::new(Counted { state: state.clone(), place }));
    let counting = Arc::clone(&serving);
    let service = tower::ServiceExt::map_request(router, move |mut request: axum::http::Request<_>| {
        request.extensions_mut().insert(axum::extract::ConnectInfo(peer));
        request.extensions_mut().insert(slot.clone());
        request
    });
    let service = tower::ServiceExt::map_future(service, move |answer| {
        let in_flight = InFlight::new(Arc::clone(&counting));
        async move {
            let answer = answer.await;
            drop(in_flight);
            answer
        }
    });
    let service = hyper_util::service::TowerToHyperService::new(service);
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder.timer(hyper_util::rt::TokioTimer::new()).header_read_timeout(limits.header_timeout).keep_alive(true);
    let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service).with_upgrades();
    tokio::pin!(conn);
    let result = tokio::select! {
        result = conn.as_mut() => result,
        () = serving.evict.notified() => Ok(()),
        () = tokio::time::sleep(limits.connection_age) => {
            conn.as_mut().graceful_shutdown();
            match tokio::time::timeout(limits.request_timeout, conn.as_mut()).await {
                Ok(result) => result,
                Err(_) => Ok(()),
            }
        }
    };
    serving.done.store(true, Ordering::Release);
    if let Err(e) = result {
        tracing::debug!(%peer, "connection ended: {e}");
    }
}

/// A request being answered, counted until its answer is ready.
struct InFlight(Arc<Serving>);

impl InFlight {
    fn new(serving: Arc<Serving>) -> InFlight {
        serving.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(serving)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(connections: usize, per_address: usize) -> Limits {
        Limits {
            connections,
            connections_per_address: per_address,
            websockets: 3,
            watchers_per_client: 2,
            ..Limits::default()
        }
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[tokio::test]
    async fn an_address_and_its_network_hold_their_shares() {
        let c = Connections::new(&limits(100, 2));
        let a = [c.admit(ip("10.0.0.1")).await.unwrap().0, c.admit(ip("10.0.0.1")).await.unwrap().0];
        assert_eq!(c.admit(ip("10.0.0.1")).await.err(), Some(Refused::Share));
        // The network's share is four times the address's: 8 over its addresses.
        let mut more = Vec::new();
        for host in 2..=4 {
            for _ in 0..2 {
                more.push(c.admit(ip(&format!("10.0.0.{host}"))).await.unwrap().0);
            }
        }
        assert_eq!(c.admit(ip("10.0.0.5")).await.err(), Some(Refused::Share), "the /24 holds 8");
        assert!(c.admit(ip("10.0.1.5")).await.is_ok(), "another /24");
        assert!(c.admit(ip("2001:db8:0:1::1")).await.is_ok());
        drop(a);
        assert!(c.admit(ip("10.0.0.5")).await.is_ok(), "places given back");
    }

    #[tokio::test]
    async fn when_full_an_idle_connection_of_the_fullest_network_makes_room() {
        let c = Connections::new(&limits(4, 4));
        let mut held = Vec::new();
        for host in 1..=3 {
            held.push(c.admit(ip(&format!("10.9.0.{host}"))).await.unwrap().0);
        }
        let busy = c.admit(ip("10.1.0.1")).await.unwrap().0;
        busy.serving.in_flight.store(1, Ordering::Release);
        // Full: a newcomer's arrival tells one of 10.9.0.0/24's idle ones to close; it waits
        // for the place.
        let c2 = c.clone();
        let newcomer = tokio::spawn(async move { c2.admit(ip("10.2.0.1")).await.map(|(_, evicted)| evicted) });
        tokio::time::sleep(Duration::from_millis(50)).await;
        let told: Vec<usize> =
            held.iter().enumerate().filter(|(_, p)| p.serving.done.load(Ordering::Acquire)).map(|(i, _)| i).collect();
        assert_eq!(told, [0], "the oldest of the fullest network");
        held.remove(0);
        assert_eq!(newcomer.await.unwrap(), Ok(true));
        // Nothing idle: refused.
        for p in &held {
            p.serving.in_flight.store(1, Ordering::Release);
        }
        let extra = c.admit(ip("10.3.0.1")).await.unwrap().0;
        extra.serving.in_flight.store(1, Ordering::Release);
        assert_eq!(c.admit(ip("10.4.0.1")).await.err(), Some(Refused::Full));
    }

    #[tokio::test]
    async fn long_lived_sockets_leave_room_for_plain_requests() {
        let c = Connections::new(&limits(100, 100));
        let places: Vec<Place> = futures_util::future::join_all((1..=4).map(|i| {
            let c = c.clone();
            async move { c.admit(ip(&format!("10.{i}.0.1"))).await.unwrap().0 }
        }))
        .await;
        for p in &places[..3] {
            p.long_lived().unwrap();
        }
        assert_eq!(places[3].long_lived().unwrap_err().status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(c.sockets(), 3);
        let same = c.admit(ip("10.1.0.1")).await.unwrap().0;
        drop(places);
        // Per address: two sockets (the watchers' share).
        let again = c.admit(ip("10.1.0.1")).await.unwrap().0;
        same.long_lived().unwrap();
        again.long_lived().unwrap();
        let third = c.admit(ip("10.1.0.1")).await.unwrap().0;
        assert_eq!(third.long_lived().unwrap_err().status, axum::http::StatusCode::TOO_MANY_REQUESTS);
    }
}

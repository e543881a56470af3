//! Live analysis: a search of one position that runs for a bounded time on a blocking thread
//! and publishes what it has found about every quarter second — the candidate moves (win rate,
//! lead, visits, line) and the ownership of every point — for the page's marks on the board
//! and its territory overlay. Started by `POST /api/analysis`, watched on
//! `/api/analysis/{id}/live`, stopped by `POST /api/analysis/{id}/stop`, by its time, or when
//! nobody has looked at it for a while. Each client may run a few at once, the server a few
//! more; finished ones are kept a minute so that a late reader still gets the last snapshot.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tengen_core::{Color, Game, Move, Point};
use tengen_engine::{Analysis, Engine, Mcts, NetSearch, SearchParams};
use tengen_nn::CachedModel;
use tokio::sync::watch;
use utoipa::ToSchema;

use crate::error::ApiError;
use crate::guard::{Client, Limits};
use crate::util::lock;

/// How often a running analysis publishes a snapshot.
pub const INTERVAL: Duration = Duration::from_millis(250);
/// An analysis nobody watches or reads for this long stops.
const UNWATCHED: Duration = Duration::from_secs(10);
/// How long a finished analysis stays readable.
const KEPT: Duration = Duration::from_secs(60);
/// The most finished analyses kept at once (the oldest go first).
const KEPT_MAX: usize = 256;
/// Candidates in a snapshot, most visited first.
const CANDIDATES: usize = 10;
/// Moves of each candidate's line.
const LINE: usize = 10;
/// The tree of one analysis of the playout search is bounded (its simulations go on).
const MAX_NODES: usize = 500_000;

/// One candidate move of a snapshot, from the point of view of the player to move.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Candidate {
    /// The vertex, or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// The win rate of the player to move after it, 0 to 1.
    pub winrate: f32,
    /// The lead of the player to move after it, in points (area counting, komi included).
    pub score_lead: f32,
    /// Simulations (playout search) or visits (network) through it.
    pub visits: u32,
    /// Its share of the prior (the network's policy; uniform without one).
    pub prior: f32,
    /// The principal variation, starting with the move.
    pub pv: Vec<String>,
}

/// What an analysis has found so far.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Snapshot {
    /// The analysis.
    pub id: String,
    /// `playouts` or `network:NAME`.
    pub engine: String,
    /// Board size.
    pub size: usize,
    /// `black` or `white`: the player the candidates are for.
    pub to_move: String,
    /// Whether the search has ended (stopped, out of time, or unwatched); no snapshot follows.
    pub done: bool,
    /// Milliseconds searched.
    pub elapsed_ms: u64,
    /// The search's time limit, in seconds.
    pub seconds: u32,
    /// Simulations or visits so far.
    pub visits: u32,
    /// Black's win rate by the best candidate (0.5 before the first).
    pub winrate_black: f32,
    /// Black's lead in points by the best candidate: the score estimate.
    pub score_lead_black: f32,
    /// The most visited moves, best first.
    pub candidates: Vec<Candidate>,
    /// Per point, rows from the top (row `size` first), columns from A: −1 White's … +1
    /// Black's; empty before the first playouts.
    pub ownership: Vec<Vec<f32>>,
}

impl Snapshot {
    fn of(
        id: &str,
        engine: &str,
        game: &Game,
        color: Color,
        a: &Analysis,
        elapsed: Duration,
        seconds: u32,
    ) -> Snapshot {
        let size = game.board().size();
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        let candidates: Vec<Candidate> = a
            .moves
            .iter()
            .filter(|m| m.visits > 0)
            .take(CANDIDATES)
            .map(|m| Candidate {
                mv: m.mv.to_string(),
                winrate: round(m.win_rate, 1000.0),
                score_lead: round(m.score_lead, 100.0),
                visits: m.visits,
                prior: round(m.prior, 1000.0),
                pv: m.pv.iter().take(LINE).map(Move::to_string).collect(),
            })
            .collect();
        let (winrate_black, score_lead_black) = candidates.first().map_or((0.5, 0.0), |c| {
            (if color == Color::Black { c.winrate } else { 1.0 - c.winrate }, sign * c.score_lead)
        });
        let ownership = if a.ownership.iter().all(|&o| o == 0.0) {
            Vec::new()
        } else {
            (0..size)
                .rev()
                .map(|row| {
                    (0..size)
                        .map(|col| {
                            let o = Point::new(col as u8, row as u8)
                                .map_or(0.0, |p| a.ownership.get(p.index()).copied().unwrap_or(0.0));
                            round(o.clamp(-1.0, 1.0), 100.0)
                        })
                        .collect()
                })
                .collect()
        };
        Snapshot {
            id: id.to_owned(),
            engine: engine.to_owned(),
            size,
            to_move: color.to_string(),
            done: false,
            elapsed_ms: elapsed.as_millis() as u64,
            seconds,
            visits: a.playouts,
            winrate_black,
            score_lead_black,
            candidates,
            ownership,
        }
    }

    fn empty(id: &str, engine: &str, game: &Game, seconds: u32) -> Snapshot {
        Snapshot::of(id, engine, game, game.to_move(), &Analysis::default(), Duration::ZERO, seconds)
    }
}

fn round(x: f32, scale: f32) -> f32 {
    if x.is_finite() { (x * scale).round() / scale } else { 0.0 }
}

/// One analysis, running or finished.
pub struct Running {
    client: Client,
    stop: AtomicBool,
    /// The latest snapshot, as JSON, and whether it is the last.
    latest: watch::Sender<(Arc<str>, bool)>,
    finished: Mutex<Option<Instant>>,
    /// Watchers connected now.
    watchers: AtomicUsize,
    /// When a watcher or a reader last looked.
    seen: Mutex<Instant>,
}

impl Running {
    /// The latest snapshot, as JSON with whether it is the last, and its updates.
    #[must_use]
    pub fn subscribe(&self) -> watch::Receiver<(Arc<str>, bool)> {
        self.latest.subscribe()
    }

    /// The latest snapshot, as JSON.
    #[must_use]
    pub fn latest(&self) -> Arc<str> {
        *lock(&self.seen) = Instant::now();
        Arc::clone(&self.latest.borrow().0)
    }

    /// Asks the search to stop; the last snapshot follows with `done`.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the search still runs.
    #[must_use]
    pub fn is_running(&self) -> bool {
        lock(&self.finished).is_none()
    }

    /// Whether it counts against the limits: running and not asked to stop (a search asked
    /// to stop ends within one interval).
    fn counts(&self) -> bool {
        self.is_running() && !self.stop.load(Ordering::Relaxed)
    }

    /// A watcher has connected; its guard counts it until dropped.
    #[must_use]
    pub fn watched(self: &Arc<Self>) -> WatchGuard {
        self.watchers.fetch_add(1, Ordering::Relaxed);
        WatchGuard(Arc::clone(self))
    }
}

/// Counts a watcher of an analysis while it lives.
pub struct WatchGuard(Arc<Running>);

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.0.watchers.fetch_sub(1, Ordering::Relaxed);
        *lock(&self.0.seen) = Instant::now();
    }
}

/// The analyses of a server.
#[derive(Default)]
pub struct Analyses {
    table: Mutex<HashMap<String, Arc<Running>>>,
}

/// What an analysis searches.
pub struct Position {
    /// The game, cut at the position (its last move is the last one played).
    pub game: Game,
    /// Seconds to search.
    pub seconds: u32,
    /// Visits after which the search stops, if before its seconds.
    pub visits: Option<u32>,
}

impl Analyses {
    /// The analysis `id`, running or finished a short while ago.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Arc<Running>> {
        lock(&self.table).get(id).cloned()
    }

    /// Running analyses not asked to stop: (of `client`, in all).
    fn running(table: &HashMap<String, Arc<Running>>, client: Client) -> (usize, usize) {
        table
            .values()
            .filter(|r| r.counts())
            .fold((0, 0), |(mine, all), r| (mine + usize::from(r.client == client), all + 1))
    }

    /// Forgets analyses finished long enough ago, and the oldest past [`KEPT_MAX`].
    fn sweep(table: &mut HashMap<String, Arc<Running>>) {
        let now = Instant::now();
        table.retain(|_, r| lock(&r.finished).is_none_or(|t| now.duration_since(t) < KEPT));
        let mut finished: Vec<(Instant, String)> =
            table.iter().filter_map(|(id, r)| lock(&r.finished).map(|t| (t, id.clone()))).collect();
        if finished.len() > KEPT_MAX {
            finished.sort();
            for (_, id) in &finished[..finished.len() - KEPT_MAX] {
                table.remove(id);
            }
        }
    }

    /// Entries held (running and finished), for the abuse test.
    #[must_use]
    pub fn len(&self) -> usize {
        let mut table = lock(&self.table);
        Analyses::sweep(&mut table);
        table.len()
    }

    /// Whether none is held.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Starts analysing `position` for `client` on a blocking thread: with `network`'s search
    /// when there is one, else with the playout search.
    ///
    /// # Errors
    /// 429 when `client` runs as many as it may, 503 when the server does.
    pub fn start(
        self: &Arc<Self>,
        client: Client,
        position: Position,
        network: Option<Arc<CachedModel>>,
        limits: &Limits,
    ) -> Result<(String, Arc<Running>), ApiError> {
        let id = crate::util::random_token(8);
        let engine = network.as_ref().map_or_else(
            || crate::service::reviews::PLAYOUTS.to_owned(),
            |n| crate::service::reviews::network_engine(n),
        );
        let first = serde_json::to_string(&Snapshot::empty(&id, &engine, &position.game, position.seconds))
            .map_err(|e| ApiError::internal(&e))?;
        let running = {
            let mut table = lock(&self.table);
            Analyses::sweep(&mut table);
            let (mine, all) = Analyses::running(&table, client);
            if mine >= limits.analyses_per_client {
                return Err(ApiError::too_many(
                    format!(
                        "this address runs {mine} analyses already (at most {}): stop one",
                        limits.analyses_per_client
                    ),
                    5,
                ));
            }
            if all >= limits.analyses {
                return Err(ApiError::unavailable(
                    format!("the server runs {all} analyses already (at most {}): try again shortly", limits.analyses),
                    10,
                ));
            }
            // A client that runs one already never takes the last place: a newcomer always finds
            // one (two addresses once held them all).
            if mine >= 1 && all + 1 >= limits.analyses {
                return Err(ApiError::too_many(
                    format!("this address runs {mine} analyses and the last place is kept for others: stop one"),
                    5,
                ));
            }
            let running = Arc::new(Running {
                client,
                stop: AtomicBool::new(false),
                latest: watch::Sender::new((Arc::from(first), false)),
                finished: Mutex::new(None),
                watchers: AtomicUsize::new(0),
                seen: Mutex::new(Instant::now()),
            });
            table.insert(id.clone(), Arc::clone(&running));
            running
        };
        let (task_id, task) = (id.clone(), Arc::clone(&running));
        tokio::task::spawn_blocking(move || search(&task_id, &engine, &task, position, network));
        Ok((id, running))
    }
}

/// Runs one analysis to its end, publishing snapshots.
fn search(id: &str, engine_name: &str, running: &Running, position: Position, network: Option<Arc<CachedModel>>) {
    let Position { mut game, seconds, visits } = position;
    if game.phase() == tengen_core::Phase::Counting {
        let _ = game.resume();
    }
    let color = game.to_move();
    let mut engine: Box<dyn Engine> = match network {
        Some(network) => Box::new(NetSearch::new(
            network,
            SearchParams { threads: 1, temperature: 0.0, seed: 1, time: None, ..SearchParams::network() },
        )),
        None => {
            let mut params =
                SearchParams { threads: 1, temperature: 0.0, seed: 1, time: None, ..SearchParams::level(10) };
            params.playout.max_nodes = MAX_NODES;
            Box::new(Mcts::new(params))
        }
    };
    let started = Instant::now();
    let limit = Duration::from_secs(u64::from(seconds));
    let publish = |snapshot: &Snapshot| {
        if let Ok(json) = serde_json::to_string(snapshot) {
            running.latest.send_replace((Arc::from(json), snapshot.done));
        }
    };
    let mut last = Snapshot::empty(id, engine_name, &game, seconds);
    let analysed = engine.analyze(&game, color, INTERVAL, &running.stop, &mut |a| {
        last = Snapshot::of(id, engine_name, &game, color, a, started.elapsed(), seconds);
        publish(&last);
        let unwatched = running.watchers.load(Ordering::Relaxed) == 0 && lock(&running.seen).elapsed() >= UNWATCHED;
        let enough = visits.is_some_and(|v| a.playouts >= v);
        if started.elapsed() >= limit || unwatched || enough {
            running.stop.store(true, Ordering::Relaxed);
        }
    });
    if !analysed {
        tracing::warn!("analysis {id}: the engine cannot analyse this position");
    }
    // The last snapshot again, as the last.
    last.done = true;
    last.elapsed_ms = started.elapsed().as_millis() as u64;
    publish(&last);
    *lock(&running.finished) = Some(Instant::now());
}

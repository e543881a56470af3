//! The server's state and work: loading games, committing actions, telling watchers, and the
//! work that follows a change (the computer's move, the proposal of dead stones, clocks).
//! Below the HTTP layer ([`crate::http`]), above the domain ([`crate::domain`]) and the store.

pub mod accounts;
pub mod analysis;
pub mod chat;
mod cluster;
mod computer;
pub mod load;
pub mod lobby;
pub mod presence;
pub mod queue;
pub mod reviews;
pub mod study;

pub use computer::{ComputerRoom, think_time};

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tengen_core::Color;
use tengen_nn::CachedModel;
use tokio::sync::{Semaphore, broadcast};

use crate::domain::view::{View, phase_of};
use crate::domain::{Action, Event, State};
use crate::error::ApiError;
use crate::guard::{Client, Limits, Metrics, Quotas};
use crate::service::queue::Queue;
use crate::store::{Derived, Store, StoredGame};
pub(crate) use crate::util::lock;
use crate::util::{count_down, same};
pub use crate::util::{now_ms, token_hash};

/// No sign of life from any server for this long means the clocks stopped being kept.
pub const DOWN_AFTER_MS: i64 = 3_000;

/// The longest a server waits to write that the players at its boards are still there.
pub const PRESENCE_EVERY_MS: i64 = 5_000;

/// Settings of a server.
#[derive(Clone)]
pub struct Settings {
    /// Searches of the computer running at once; more wait their turn.
    pub searches: usize,
    /// The longest the computer thinks about a move.
    pub max_think: Duration,
    /// A KataGo network: with it the computer of levels 6 to 10 searches with the network
    /// ([`tengen_engine::SearchParams::network_level`]) and the proposal of dead stones comes from its
    /// ownership; without it, or below level 6, the playout search.
    pub network: Option<Arc<CachedModel>>,
    /// What clients may make the server hold or do.
    pub limits: Limits,
    /// Review workers this server runs ([`crate::service::reviews::Worker`]); 0 leaves the reviews to
    /// other servers and `tengen worker` processes on the database.
    pub review_workers: usize,
    /// The computer's work goes through the database (the `jobs` queue), shared with the other
    /// servers and `tengen worker` processes on it, instead of this process's queue; this
    /// server then works on `searches` jobs at once itself (0: none).
    pub shared_moves: bool,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("searches", &self.searches)
            .field("max_think", &self.max_think)
            .field("network", &self.network.as_ref().map(|n| &n.model().name))
            .field("limits", &self.limits)
            .field("review_workers", &self.review_workers)
            .field("shared_moves", &self.shared_moves)
            .finish()
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            searches: 2,
            max_think: Duration::from_secs(5),
            network: None,
            limits: Limits::default(),
            review_workers: 1,
            shared_moves: false,
        }
    }
}

struct Inner {
    store: Store,
    settings: Settings,
    /// Watchers of each game: every change is sent as the game's view (JSON).
    hub: Mutex<HashMap<String, broadcast::Sender<Arc<str>>>>,
    /// One lock per game: its actions are applied one at a time in this process.
    locks: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
    /// Bounds the computer's searches running at once.
    searches: Arc<Semaphore>,
    /// The computer's work waiting, by client.
    queue: Mutex<Queue>,
    /// Places held in each client's share of the computer's work that its queue does not
    /// show yet: an action between the check and the job's queueing
    /// ([`AppState::computer_room`]).
    reserved: Mutex<HashMap<Client, usize>>,
    /// Games held in memory, brought up to their logs at each use.
    games: Mutex<crate::service::load::Games>,
    /// Games with a computer search or a proposal waiting or in flight.
    busy: Mutex<HashSet<String>>,
    /// Per-client rate limits.
    quotas: Quotas,
    /// Answers, latencies, connections, watchers.
    metrics: Metrics,
    /// WebSocket watchers open, by client.
    watchers: Mutex<HashMap<Client, usize>>,
    /// When the running clock's flag falls, per game.
    deadlines: Mutex<HashMap<String, i64>>,
    /// Live analyses, running and recently finished.
    analyses: Arc<crate::service::analysis::Analyses>,
    /// The lobby's sockets and players present.
    lobby: crate::service::lobby::Lobby,
    /// Seats whose players have a game socket open here: (game, colour) to sockets.
    present: Mutex<HashMap<(String, Color), usize>>,
}

/// The server's shared state (cheap to clone).
#[derive(Clone)]
pub struct AppState(Arc<Inner>);
pub use crate::service::load::state_of;
use crate::service::load::{RecordSummary, game_record, parse_off_thread};

/// The derived fields of a state, for the games table.
#[must_use]
pub fn derived(state: &State) -> Derived {
    Derived {
        events: state.events as i64,
        moves: state.game.moves().len() as i64,
        phase: phase_of(state),
        result: state.game.outcome().map(|o| o.result_points()),
        deadline_ms: state.deadline_ms(),
        black_name: state.config.black_name.clone(),
        white_name: state.config.white_name.clone(),
        accounts: state.config.accounts.clone(),
        rated: state.config.rated,
        to_move: turn(state).map(|c| match c {
            Color::Black => "black",
            Color::White => "white",
        }),
        rated_end: rated_end(state),
    }
}

/// Whose move it is while play goes on: Black while placing stones, else the side to move.
fn turn(state: &State) -> Option<Color> {
    if state.config.imported || state.game.phase() != tengen_core::game::Phase::Playing {
        return None;
    }
    Some(if state.placing { Color::Black } else { state.game.to_move() })
}

/// A finished rated game's rating question: both seats held by accounts, and an outcome.
fn rated_end(state: &State) -> Option<crate::store::RatedEnd> {
    let outcome = state.game.outcome()?;
    if matches!(outcome, tengen_core::game::Outcome::NoResult) {
        return None;
    }
    let black_score = match outcome.winner() {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    crate::store::RatedEnd::of(&state.config, &state.config.accounts, black_score, state.game.moves().len() as i64)
}

impl AppState {
    /// A server over `store`.
    #[must_use]
    pub fn new(store: Store, settings: Settings) -> AppState {
        let policy = crate::store::RatingPolicy {
            min_moves: settings.limits.rated_min_moves,
            per_pair: settings.limits.rated_per_pair,
        };
        let store = store.with_rating_policy(policy);
        let searches = Arc::new(Semaphore::new(settings.searches.max(1)));
        let quotas = Quotas::new(&settings.limits);
        AppState(Arc::new(Inner {
            store,
            settings,
            hub: Mutex::default(),
            locks: Mutex::default(),
            searches,
            queue: Mutex::default(),
            reserved: Mutex::default(),
            games: Mutex::default(),
            busy: Mutex::default(),
            quotas,
            metrics: Metrics::default(),
            watchers: Mutex::default(),
            deadlines: Mutex::default(),
            analyses: Arc::default(),
            lobby: crate::service::lobby::Lobby::default(),
            present: Mutex::default(),
        }))
    }

    /// The server's limits.
    #[must_use]
    pub fn limits(&self) -> &Limits {
        &self.0.settings.limits
    }

    /// Whether the computer's levels 6 to 10 search with a network.
    #[must_use]
    pub fn has_network(&self) -> bool {
        self.0.settings.network.is_some()
    }

    /// The per-client rate limits.
    #[must_use]
    pub fn quotas(&self) -> &Quotas {
        &self.0.quotas
    }

    /// The metrics.
    #[must_use]
    pub fn metrics(&self) -> &Metrics {
        &self.0.metrics
    }
    /// Entries in the server's tables that clients can make grow (per-game locks, watcher
    /// channels, clock deadlines, rate-limit entries): for the abuse test, which checks that
    /// they go back down.
    #[must_use]
    pub fn table_sizes(&self) -> [usize; 4] {
        [lock(&self.0.locks).len(), lock(&self.0.hub).len(), lock(&self.0.deadlines).len(), self.0.quotas.clients()]
    }
    /// Counts a WebSocket watcher of `client`.
    ///
    /// # Errors
    /// 429 past [`Limits::watchers_per_client`].
    pub fn watcher_opens(&self, client: Client) -> Result<(), ApiError> {
        let mut watchers = lock(&self.0.watchers);
        let n = watchers.entry(client).or_default();
        if *n >= self.limits().watchers_per_client {
            return Err(ApiError::too_many(
                format!(
                    "this address watches {n} games already (at most {}): close some",
                    self.limits().watchers_per_client
                ),
                5,
            ));
        }
        *n += 1;
        self.0.metrics.watchers.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// A watcher of `client` of game `id` has gone: its counts, and the game's channel when
    /// nobody watches it any more.
    pub fn watcher_closes(&self, client: Client, id: &str) {
        count_down(&mut lock(&self.0.watchers), &client);
        self.0.metrics.watchers.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        let mut hub = lock(&self.0.hub);
        if hub.get(id).is_some_and(|sender| sender.receiver_count() == 0) {
            hub.remove(id);
        }
    }

    /// The live analyses.
    #[must_use]
    pub fn analyses(&self) -> &Arc<crate::service::analysis::Analyses> {
        &self.0.analyses
    }

    /// The database.
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.0.store
    }

    /// The lock of game `id`, held for `work`; its entry goes when its last holder does (ids
    /// of games that do not exist leave nothing behind).
    async fn locked<T>(&self, id: &str, work: impl std::future::Future<Output = T>) -> T {
        let game_lock = Arc::clone(lock(&self.0.locks).entry(id.to_owned()).or_default());
        let out = {
            let _guard = game_lock.lock().await;
            work.await
        };
        // Clones are made under the table's lock only: two references (the table's and this
        // one) mean nobody else holds or waits for it.
        let mut locks = lock(&self.0.locks);
        if Arc::strong_count(&game_lock) == 2 {
            locks.remove(id);
        }
        out
    }

    /// A game's row and its state now.
    ///
    /// # Errors
    /// 404 for an unknown game; 500 when its log does not replay.
    pub async fn load(&self, id: &str) -> Result<(Arc<StoredGame>, State), ApiError> {
        let (stored, state) = self.fetch(id).await?;
        lock(&self.0.games).put(Arc::clone(&stored), state.clone());
        Ok((stored, state))
    }

    /// [`AppState::load`] without holding the state it reads: for an action, which holds the
    /// state it commits.
    pub(super) async fn fetch(&self, id: &str) -> Result<(Arc<StoredGame>, State), ApiError> {
        let held = lock(&self.0.games).get(id);
        let (stored, mut state) = match held {
            Some(held) => held,
            None => {
                let stored = Arc::new(self.0.store.stored(id).await?.ok_or_else(|| ApiError::not_found(id))?);
                // Off the async threads (whose stacks the state is large for), an imported
                // record read once and the memory its parse freed given back.
                let record = Arc::clone(&stored);
                let state = tokio::task::spawn_blocking(move || {
                    let state = state_of(&record, &[]);
                    if record.config.imported {
                        crate::util::trim_memory();
                    }
                    state
                })
                .await
                .map_err(|e| ApiError::internal(&e))??;
                (stored, state)
            }
        };
        // The log is the truth: the events since (another server's too) are applied.
        if !stored.config.imported {
            let since = self.0.store.events_after(id, state.events).await?;
            state.advance(&since)?;
        }
        Ok((stored, state))
    }

    /// A game's record ([`crate::service::load::game_record`]), an imported game's read off the async
    /// threads.
    ///
    /// # Errors
    /// 500 when the record does not read.
    pub async fn record_of(&self, stored: &Arc<StoredGame>, state: &State) -> Result<tengen_sgf::Record, ApiError> {
        if !stored.config.imported {
            return game_record(stored, state);
        }
        let (text, game) = (Arc::clone(stored), state.clone());
        parse_off_thread(move || game_record(&text, &game)).await
    }

    /// A game's record information: an imported record's read once (off the async threads)
    /// and held with the game, as a summary ([`crate::service::load::RecordSummary`]).
    ///
    /// # Errors
    /// 500 when the record does not read.
    pub async fn record_summary(
        &self,
        stored: &Arc<StoredGame>,
        state: &State,
    ) -> Result<Arc<RecordSummary>, ApiError> {
        if !stored.config.imported {
            return Ok(Arc::new(RecordSummary::of(&game_record(stored, state)?)?));
        }
        if let Some(summary) = lock(&self.0.games).summary(&stored.id) {
            return Ok(summary);
        }
        let record = Arc::clone(stored);
        let summary =
            Arc::new(parse_off_thread(move || RecordSummary::of_import(record.sgf.as_deref().unwrap_or(""))).await?);
        lock(&self.0.games).keep_summary(&stored.id, Arc::clone(&summary));
        Ok(summary)
    }

    /// The seat a bearer token holds in `stored`.
    ///
    /// # Errors
    /// 401 without a token, 403 when it is no seat of this game.
    pub fn seat(stored: &StoredGame, token: Option<&str>) -> Result<Color, ApiError> {
        let token = token.ok_or_else(ApiError::unauthorized)?;
        let hash = token_hash(token);
        let mut seat = None;
        for c in [Color::Black, Color::White] {
            if let Some(stored) = &stored.tokens[c.index()]
                && same(stored, &hash)
            {
                seat = Some(c);
            }
        }
        seat.ok_or_else(ApiError::forbidden)
    }

    /// Applies `action` by `color` to game `id` after `check` accepts the current state;
    /// commits it, then tells the watchers and starts what follows.
    ///
    /// # Errors
    /// What `check` says; 422 when the game refuses the action; 409 when another change came
    /// first; 404, 500.
    pub async fn act(
        &self,
        id: &str,
        color: Option<Color>,
        action: Action,
        check: impl FnOnce(&StoredGame, &State) -> Result<(), ApiError>,
    ) -> Result<State, ApiError> {
        let acted = self.act_with(id, Client::SERVER, action, |stored, state| check(stored, state).map(|()| color));
        Ok(acted.await?.0)
    }

    /// Applies `action` for the seat whose token is `token`, after `check` accepts the
    /// current state and that colour. The state after it, and its view as JSON (the one view
    /// built for the change: the watchers get the same).
    ///
    /// # Errors
    /// 401 or 403 for a missing or foreign token; otherwise as [`AppState::act`].
    /// The computer's work this action asks for is `client`'s (see [`AppState::computer_room`]).
    pub async fn act_as(
        &self,
        id: &str,
        client: Client,
        token: Option<&str>,
        account: Option<&str>,
        action: Action,
        check: impl FnOnce(&State, Color) -> Result<(), ApiError>,
    ) -> Result<(State, Arc<str>), ApiError> {
        let mut who = None;
        let done = self
            .act_with(id, client, action, |stored, state| {
                let color = match (token, account) {
                    (None, Some(account)) => AppState::seat_of_account(state, account)?,
                    _ => AppState::seat(stored, token)?,
                };
                who = Some(color);
                check(state, color).map(|()| Some(color))
            })
            .await;
        // Every action of a seat shows its player at the board, socket or not.
        if let Some(color) = who
            && let Err(e) = self.0.store.seat_seen(id, color, now_ms()).await
        {
            tracing::warn!("game {id}: presence: {e}");
        }
        done
    }

    /// The seat an account holds in a game (by [`Action::Sit`] or at its creation).
    ///
    /// # Errors
    /// 403 when it holds none.
    pub fn seat_of_account(state: &State, account: &str) -> Result<Color, ApiError> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| state.config.accounts[c.index()].as_deref() == Some(account))
            .ok_or_else(|| ApiError::not_yours("this account holds no seat of this game (use the seat's link)"))
    }

    /// `check` gives who acts, or refuses.
    async fn act_with(
        &self,
        id: &str,
        client: Client,
        action: Action,
        check: impl FnOnce(&StoredGame, &State) -> Result<Option<Color>, ApiError>,
    ) -> Result<(State, Arc<str>), ApiError> {
        let (state, appended) = self
            .locked(id, async {
                let (stored, mut state) = self.fetch(id).await?;
                let color = check(&stored, &state)?;
                let event = Event { action, color, at_ms: now_ms() };
                // An action that changes nothing is checked like any other, and not logged.
                let unchanged = state.unchanged_by(&event.action).then(|| state.clone());
                state.apply(&event)?;
                if let Some(unchanged) = unchanged {
                    return Ok::<_, ApiError>((unchanged, false));
                }
                self.0.store.append(id, state.events as i64, &event, &derived(&state)).await?;
                // The held state is advanced by the committed event.
                lock(&self.0.games).put(stored, state.clone());
                Ok::<_, ApiError>((state, true))
            })
            .await?;
        let view = if appended { self.changed(id, &state, client) } else { view_json(id, &state) };
        Ok((state, view))
    }

    /// Stores a new game and starts what follows (the computer's first move).
    ///
    /// # Errors
    /// 500 on a database failure.
    pub async fn create(&self, stored: &StoredGame, state: &State, client: Client) -> Result<(), ApiError> {
        self.0.store.create(stored, &derived(state)).await?;
        self.changed(&stored.id, state, client);
        Ok(())
    }

    /// Watchers of game `id`, which must exist (the caller looked it up): the channel is
    /// removed when its last watcher goes ([`AppState::watcher_closes`]).
    pub fn subscribe(&self, id: &str) -> broadcast::Receiver<Arc<str>> {
        lock(&self.0.hub).entry(id.to_owned()).or_insert_with(|| broadcast::channel(64).0).subscribe()
    }

    /// The network this server's computer and reviews use.
    #[must_use]
    pub fn network(&self) -> Option<&Arc<CachedModel>> {
        self.0.settings.network.as_ref()
    }

    /// Sends the review of game `id` as it is in the database to the game's watchers in this
    /// process, as `{"review": …}` ([`crate::service::reviews::ReviewView`]).
    pub async fn review_changed(&self, id: &str) {
        let view = match self.0.store.review(id).await {
            Ok(Some(row)) => crate::service::reviews::ReviewView::of(&row),
            Ok(None) => return,
            Err(e) => Err(e),
        };
        match view {
            Ok(view) => {
                if let Ok(json) = serde_json::to_string(&serde_json::json!({ "review": view })) {
                    let hub = lock(&self.0.hub);
                    if let Some(sender) = hub.get(id) {
                        let _ = sender.send(Arc::from(json));
                    }
                }
            }
            Err(e) => tracing::warn!("review of {id}: {e}"),
        }
    }

    /// Starts this server's review workers ([`Settings::review_workers`]).
    pub fn start_review_workers(&self) {
        for _ in 0..self.0.settings.review_workers {
            let app = self.clone();
            let handle = tokio::runtime::Handle::current();
            let worker = crate::service::reviews::Worker::new(self.0.store.clone(), self.0.settings.network.clone())
                .with_threads(self.0.settings.limits.review_threads)
                .on_change(Arc::new(move |id: &str| {
                    let (app, id) = (app.clone(), id.to_owned());
                    handle.spawn(async move { app.review_changed(&id).await });
                }));
            tokio::spawn(worker.run());
        }
    }

    /// A change of game `id` (made here, or seen in the database): tell the watchers, note
    /// the clock's deadline, and queue the computer's move or the proposal of dead stones as
    /// `client`'s work.
    pub fn changed(&self, id: &str, state: &State, client: Client) -> Arc<str> {
        let view = self.tell_watchers(id, state);
        self.schedule(id, state, client);
        view
    }

    /// Sends the view to the game's watchers in this process and notes its clock's deadline;
    /// the view, as JSON.
    fn tell_watchers(&self, id: &str, state: &State) -> Arc<str> {
        let view = view_json(id, state);
        {
            let mut hub = lock(&self.0.hub);
            if let Some(sender) = hub.get(id)
                && sender.send(Arc::clone(&view)).is_err()
            {
                // Nobody watches any more.
                hub.remove(id);
            }
        }
        {
            let mut deadlines = lock(&self.0.deadlines);
            match state.deadline_ms() {
                Some(d) => deadlines.insert(id.to_owned(), d),
                None => deadlines.remove(id),
            };
        }
        view
    }
}

/// The view of game `id` in `state` now, as JSON.
fn view_json(id: &str, state: &State) -> Arc<str> {
    // A view is plain data: it always serialises.
    Arc::from(serde_json::to_string(&View::of(id, state, now_ms())).unwrap_or_default())
}

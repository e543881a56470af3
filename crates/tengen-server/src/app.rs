//! The server's state and work: loading games, committing actions, telling watchers, and the
//! work that follows a change (the computer's move, the proposal of dead stones, clocks).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tengen_core::{Color, Phase};
use tengen_engine::{Decision, engine_at_level};
use tengen_nn::CachedModel;
use tokio::sync::{Semaphore, broadcast};

use crate::domain::{Action, Event, Opponent, State, TimeControl};
use crate::error::ApiError;
use crate::guard::{Client, Limits, Metrics, Quotas};
use crate::queue::{Job, Queue};
use crate::store::{Derived, Store, StoredGame};
pub(crate) use crate::util::lock;
use crate::util::same;
pub use crate::util::{now_ms, token_hash};
use crate::view::{View, phase_of};

/// No sign of life from any server for this long means the clocks stopped being kept.
pub const DOWN_AFTER_MS: i64 = 3_000;

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
    /// Review workers this server runs ([`crate::reviews::Worker`]); 0 leaves the reviews to
    /// other servers and `tengen worker` processes on the database.
    pub review_workers: usize,
    /// The computer's work goes through the database (`computer_jobs`), shared with the other
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
    games: Mutex<crate::load::Games>,
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
    analyses: Arc<crate::analysis::Analyses>,
}

/// The server's shared state (cheap to clone).
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

/// A place held in a client's share of the computer's work ([`AppState::computer_room`]),
/// given back when dropped.
pub struct ComputerRoom {
    app: AppState,
    client: Client,
}

impl Drop for ComputerRoom {
    fn drop(&mut self) {
        self.app.release(self.client);
    }
}

pub use crate::load::state_of;
use crate::load::{RecordSummary, game_record, parse_off_thread};

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
    }
}

impl AppState {
    /// A server over `store`.
    #[must_use]
    pub fn new(store: Store, settings: Settings) -> AppState {
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

    /// The computer's work: (waiting, running).
    ///
    /// # Errors
    /// With shared moves ([`Settings::shared_moves`]), a database error.
    pub async fn computer_queue(&self) -> Result<(usize, usize), ApiError> {
        if self.0.settings.shared_moves {
            return Ok(self.0.store.computer_job_counts(now_ms()).await?);
        }
        let queue = lock(&self.0.queue);
        Ok((queue.waiting(), queue.running()))
    }

    /// Entries in the server's tables that clients can make grow (per-game locks, watcher
    /// channels, clock deadlines, rate-limit entries): for the abuse test, which checks that
    /// they go back down.
    #[must_use]
    pub fn table_sizes(&self) -> [usize; 4] {
        [lock(&self.0.locks).len(), lock(&self.0.hub).len(), lock(&self.0.deadlines).len(), self.0.quotas.clients()]
    }

    /// A place in `client`'s share of the computer's work ([`Limits::computer_moves`]), held
    /// until the returned guard drops — after the action that wakes the computer has queued
    /// its job. The place is taken before the client's work is counted, so that requests sent
    /// at once cannot all pass the check: each sees the places the others hold.
    ///
    /// # Errors
    /// 429 with `Retry-After` when the client's work waiting, running and on its way fills
    /// its share.
    pub async fn computer_room(&self, client: Client) -> Result<ComputerRoom, ApiError> {
        let before = self.reserve(client);
        let room = ComputerRoom { app: self.clone(), client };
        let queued = if self.0.settings.shared_moves {
            self.0.store.computer_jobs_of(&client.0.to_string()).await?
        } else {
            lock(&self.0.queue).held_by(client)
        };
        let (held, max) = (queued + before, self.limits().computer_moves);
        if held >= max {
            let wait = self.0.settings.max_think.as_secs().max(1);
            return Err(ApiError::too_many(
                format!("the computer is already thinking in {held} of your games (at most {max}): try again shortly"),
                wait,
            ));
        }
        Ok(room)
    }

    /// Holds one more place of `client`'s: the places it held before.
    fn reserve(&self, client: Client) -> usize {
        let mut reserved = lock(&self.0.reserved);
        let n = reserved.entry(client).or_default();
        *n += 1;
        *n - 1
    }

    /// Gives back one place of `client`'s.
    fn release(&self, client: Client) {
        let mut reserved = lock(&self.0.reserved);
        if let Some(n) = reserved.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                reserved.remove(&client);
            }
        }
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
        {
            let mut watchers = lock(&self.0.watchers);
            if let Some(n) = watchers.get_mut(&client) {
                *n -= 1;
                if *n == 0 {
                    watchers.remove(&client);
                }
            }
        }
        self.0.metrics.watchers.fetch_sub(1, std::sync::atomic::Ordering::Relaxed);
        let mut hub = lock(&self.0.hub);
        if hub.get(id).is_some_and(|sender| sender.receiver_count() == 0) {
            hub.remove(id);
        }
    }

    /// The live analyses.
    #[must_use]
    pub fn analyses(&self) -> &Arc<crate::analysis::Analyses> {
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
    pub async fn load(&self, id: &str) -> Result<(StoredGame, State), ApiError> {
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
        lock(&self.0.games).put(Arc::clone(&stored), state.clone());
        Ok(((*stored).clone(), state))
    }

    /// A game's record ([`crate::load::game_record`]), an imported game's read off the async
    /// threads.
    ///
    /// # Errors
    /// 500 when the record does not read.
    pub async fn record_of(&self, stored: &StoredGame, state: &State) -> Result<tengen_sgf::Record, ApiError> {
        if !stored.config.imported {
            return game_record(stored, state);
        }
        let (text, game) = (stored.clone(), state.clone());
        parse_off_thread(move || game_record(&text, &game)).await
    }

    /// A game's record information: an imported record's read once (off the async threads)
    /// and held with the game, as a summary ([`crate::load::RecordSummary`]).
    ///
    /// # Errors
    /// 500 when the record does not read.
    pub async fn record_summary(&self, stored: &StoredGame, state: &State) -> Result<Arc<RecordSummary>, ApiError> {
        if !stored.config.imported {
            return Ok(Arc::new(RecordSummary::of(&game_record(stored, state)?)?));
        }
        if let Some(summary) = lock(&self.0.games).summary(&stored.id) {
            return Ok(summary);
        }
        let (text, game) = (stored.clone(), state.clone());
        let summary = Arc::new(parse_off_thread(move || RecordSummary::of(&game_record(&text, &game)?)).await?);
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
        self.act_with(id, Client::SERVER, action, |stored, state| check(stored, state).map(|()| color)).await
    }

    /// Applies `action` for the seat whose token is `token`, after `check` accepts the
    /// current state and that colour.
    ///
    /// # Errors
    /// 401 or 403 for a missing or foreign token; otherwise as [`AppState::act`].
    /// The computer's work this action asks for is `client`'s (see [`AppState::computer_room`]).
    pub async fn act_as(
        &self,
        id: &str,
        client: Client,
        token: Option<&str>,
        action: Action,
        check: impl FnOnce(&State, Color) -> Result<(), ApiError>,
    ) -> Result<State, ApiError> {
        self.act_with(id, client, action, |stored, state| {
            let color = AppState::seat(stored, token)?;
            check(state, color).map(|()| Some(color))
        })
        .await
    }

    /// `check` gives who acts, or refuses.
    async fn act_with(
        &self,
        id: &str,
        client: Client,
        action: Action,
        check: impl FnOnce(&StoredGame, &State) -> Result<Option<Color>, ApiError>,
    ) -> Result<State, ApiError> {
        let (state, appended) = self
            .locked(id, async {
                let (stored, mut state) = self.load(id).await?;
                let color = check(&stored, &state)?;
                let event = Event { action, color, at_ms: now_ms() };
                // An action that changes nothing is checked like any other, and not logged.
                let unchanged = state.unchanged_by(&event.action).then(|| state.clone());
                state.apply(&event)?;
                if let Some(unchanged) = unchanged {
                    return Ok::<_, ApiError>((unchanged, false));
                }
                self.0.store.append(id, state.events as i64, &event, &derived(&state)).await?;
                Ok::<_, ApiError>((state, true))
            })
            .await?;
        if appended {
            self.changed(id, &state, client);
        }
        Ok(state)
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
    /// process, as `{"review": …}` ([`crate::reviews::ReviewView`]).
    pub async fn review_changed(&self, id: &str) {
        let view = match self.0.store.review(id).await {
            Ok(Some(row)) => crate::reviews::ReviewView::of(&row),
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
            let worker = crate::reviews::Worker::new(self.0.store.clone(), self.0.settings.network.clone()).on_change(
                Arc::new(move |id: &str| {
                    let (app, id) = (app.clone(), id.to_owned());
                    handle.spawn(async move { app.review_changed(&id).await });
                }),
            );
            tokio::spawn(worker.run());
        }
    }

    /// A change of game `id` (made here, or seen in the database): tell the watchers, note
    /// the clock's deadline, and queue the computer's move or the proposal of dead stones as
    /// `client`'s work.
    pub fn changed(&self, id: &str, state: &State, client: Client) {
        self.tell_watchers(id, state);
        self.schedule(id, state, client);
    }

    /// Sends the view to the game's watchers in this process and notes its clock's deadline.
    fn tell_watchers(&self, id: &str, state: &State) {
        let view = View::of(id, state, now_ms());
        if let Ok(json) = serde_json::to_string(&view) {
            let mut hub = lock(&self.0.hub);
            if let Some(sender) = hub.get(id) {
                if sender.send(Arc::from(json)).is_err() {
                    // Nobody watches any more.
                    hub.remove(id);
                }
            }
        }
        {
            let mut deadlines = lock(&self.0.deadlines);
            match state.deadline_ms() {
                Some(d) => deadlines.insert(id.to_owned(), d),
                None => deadlines.remove(id),
            };
        }
    }

    /// Starts the server's own work on the game: the computer's move, or the proposal of
    /// dead stones.
    fn schedule(&self, id: &str, state: &State, client: Client) {
        let computer_turn = state.config.computer.is_some_and(|c| {
            state.game.phase() == Phase::Playing
                && state.undo_request.is_none()
                && (if state.placing { c == Color::Black } else { state.game.to_move() == c })
        });
        let propose = state.game.phase() == Phase::Counting && !state.proposed;
        if (computer_turn || propose) && self.0.settings.shared_moves {
            let (app, id, events) = (self.clone(), id.to_owned(), state.events as i64);
            // Not held in the client's share on its way: once the row is written and before the
            // place was given back, both would count (a player's next request refused under load).
            tokio::spawn(async move {
                if let Err(e) = app.0.store.queue_computer(&id, events, &client.0.to_string(), now_ms()).await {
                    tracing::warn!("game {id}: queueing the computer's work: {e}");
                }
            });
            return;
        }
        if (computer_turn || propose) && lock(&self.0.busy).insert(id.to_owned()) {
            lock(&self.0.queue).push(Job { id: id.to_owned(), events: state.events, client });
            self.pump();
        }
    }

    /// Starts the waiting work while searches are free: the next job of the client whose
    /// turn it is ([`Queue::pop`]); each job, when done, starts the next.
    fn pump(&self) {
        loop {
            let Ok(permit) = Arc::clone(&self.0.searches).try_acquire_owned() else { return };
            let Some(job) = lock(&self.0.queue).pop() else { return };
            let app = self.clone();
            tokio::spawn(async move {
                let outcome = app.follow_up(&job.id, job.events).await;
                lock(&app.0.busy).remove(&job.id);
                lock(&app.0.queue).done(job.client);
                drop(permit);
                match outcome {
                    Ok(Some(state)) => app.changed(&job.id, &state, job.client),
                    Ok(None) => {}
                    Err(e) => tracing::warn!("game {}: the server's move failed: {}", job.id, e.detail),
                }
                app.pump();
            });
        }
    }

    /// Works on the computer's jobs of the database ([`Settings::shared_moves`]) one at a
    /// time, for ever: claims one under a lease of `lease` (renewed while the search runs),
    /// searches, appends the result if the game has not changed meanwhile, and takes the next.
    /// A worker that dies stops renewing; once its lease has run out another takes the job,
    /// and the game's log refuses a second result for one state.
    /// `serving`: this process serves the games' watchers and clocks (a server), which it
    /// then tells of the result; a `tengen worker` leaves that to the servers, told by the
    /// database.
    pub async fn work_computer_jobs(self, lease: Duration, serving: bool) {
        let owner = format!("{}/{:016x}", self.0.store.instance(), rand::random::<u64>());
        loop {
            match self.computer_job(&owner, lease, serving).await {
                Ok(true) => {}
                Ok(false) => tokio::time::sleep(Duration::from_millis(100)).await,
                Err(e) => {
                    tracing::warn!("the computer's jobs: {}", e.detail);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// One job of [`AppState::work_computer_jobs`]; `false` when none waits.
    async fn computer_job(&self, owner: &str, lease: Duration, serving: bool) -> Result<bool, ApiError> {
        let lease_ms = lease.as_millis() as i64;
        let now = now_ms();
        let Some((id, events, client)) = self.0.store.claim_computer(owner, now, now + lease_ms).await? else {
            return Ok(false);
        };
        tracing::info!(game = %id, events, owner, "computer job claimed");
        let renewing = {
            let (store, id, owner) = (self.0.store.clone(), id.clone(), owner.to_owned());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(lease / 3).await;
                    match store.renew_computer(&id, &owner, now_ms() + lease_ms).await {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(e) => tracing::warn!("game {id}: renewing the computer's job: {e}"),
                    }
                }
            })
        };
        let outcome = self.follow_up(&id, usize::try_from(events).unwrap_or(usize::MAX)).await;
        renewing.abort();
        self.0.store.finish_computer(&id, events).await?;
        let client = client.parse().map_or(Client::SERVER, Client);
        match outcome {
            Ok(Some(state)) => {
                tracing::info!(game = %id, events, owner, "computer job finished");
                if serving {
                    self.changed(&id, &state, client);
                } else {
                    self.schedule(&id, &state, client);
                }
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("game {id}: the server's move failed: {}", e.detail),
        }
        Ok(true)
    }

    /// Starts this process's workers on the computer's shared jobs
    /// ([`Settings::shared_moves`]): `searches` of them ([`AppState::work_computer_jobs`]).
    pub fn start_computer_workers(&self, lease: Duration, serving: bool) {
        if self.0.settings.shared_moves {
            for _ in 0..self.0.settings.searches {
                tokio::spawn(self.clone().work_computer_jobs(lease, serving));
            }
        }
    }

    /// The computer's move, or the proposal of dead stones, for game `id` as it was after
    /// `events` events; `None` when the game changed meanwhile (the change starts its own).
    async fn follow_up(&self, id: &str, events: usize) -> Result<Option<State>, ApiError> {
        let (_, state) = self.load(id).await?;
        if state.events != events {
            return Ok(None);
        }
        let level = match state.config.opponent {
            Opponent::Computer { level } => level,
            Opponent::Friend => 10,
        };
        let (color, action) = if state.game.phase() == Phase::Counting {
            let game = state.game.clone();
            let network = self.0.settings.network.clone();
            let dead = tokio::task::spawn_blocking(move || {
                engine_at_level(10, network, rand::random()).dead_stones(&game).unwrap_or_default()
            })
            .await
            .map_err(|e| ApiError::internal(&e))?;
            (None, Action::Propose { dead })
        } else if state.placing {
            let points = tengen_core::handicap::fixed_points(state.config.size, state.config.handicap)
                .map_err(|e| ApiError::internal(&e))?;
            (Some(Color::Black), Action::Handicap { points })
        } else {
            let color = state.game.to_move();
            let budget = think_time(&state, color, self.0.settings.max_think, now_ms());
            let game = state.game.clone();
            let network = self.0.settings.network.clone();
            let decision = tokio::task::spawn_blocking(move || {
                engine_at_level(level, network, rand::random()).decide(
                    &game,
                    color,
                    Some(tengen_engine::Budget::fixed(budget)),
                )
            })
            .await
            .map_err(|e| ApiError::internal(&e))?;
            let action = match decision {
                Decision::Play(mv) => Action::Move { mv },
                Decision::Resign => Action::Resign,
            };
            (Some(color), action)
        };
        self.locked(id, async {
            let (_, mut state) = self.load(id).await?;
            if state.events != events {
                return Ok(None);
            }
            let event = Event { action, color, at_ms: now_ms() };
            state.apply(&event)?;
            self.0.store.append(id, state.events as i64, &event, &derived(&state)).await?;
            Ok(Some(state))
        })
        .await
    }

    /// Ends the games whose clock has run out (called every fraction of a second).
    pub async fn check_clocks(&self) {
        let now = now_ms();
        let due: Vec<String> =
            lock(&self.0.deadlines).iter().filter(|&(_, &d)| d <= now).map(|(id, _)| id.clone()).collect();
        for id in due {
            lock(&self.0.deadlines).remove(&id);
            let result = async {
                let (_, state) = self.load(&id).await?;
                let (_, fallen) = state.clocks_at(now_ms());
                match fallen {
                    Some(c) => self.act(&id, Some(c), Action::Timeout, |_, _| Ok(())).await.map(Some),
                    None => {
                        // Not yet (a move came meanwhile): note the new deadline.
                        self.changed(&id, &state, Client::SERVER);
                        Ok(None)
                    }
                }
            }
            .await;
            if let Err(e) = result {
                tracing::warn!("game {id}: clock check failed: {}", e.detail);
            }
        }
    }

    /// With PostgreSQL: listens for the changes other servers commit on the same database and
    /// tells this server's watchers; returns once listening (a lost connection is opened
    /// again). Nothing to do with SQLite.
    ///
    /// # Errors
    /// The first connection fails.
    pub async fn listen_for_other_servers(&self) -> Result<(), sqlx::Error> {
        if self.0.store.backend() != crate::store::Backend::Postgres {
            return Ok(());
        }
        let mut listener = self.listener().await?;
        let app = self.clone();
        tokio::spawn(async move {
            loop {
                if let Err(e) = app.relay(&mut listener).await {
                    tracing::warn!("listening for other servers' changes: {e}");
                }
                loop {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    match app.listener().await {
                        Ok(l) => {
                            listener = l;
                            break;
                        }
                        Err(e) => tracing::warn!("listening for other servers' changes: {e}"),
                    }
                }
            }
        });
        Ok(())
    }

    async fn listener(&self) -> Result<sqlx::postgres::PgListener, sqlx::Error> {
        let mut listener = sqlx::postgres::PgListener::connect(self.0.store.url()).await?;
        listener.listen_all([crate::store::CHANNEL, crate::store::REVIEW_CHANNEL]).await?;
        Ok(listener)
    }

    async fn relay(&self, listener: &mut sqlx::postgres::PgListener) -> Result<(), sqlx::Error> {
        loop {
            let note = listener.recv().await?;
            let Some((instance, id)) = note.payload().split_once(' ') else { continue };
            if instance == self.0.store.instance() {
                continue;
            }
            if note.channel() == crate::store::REVIEW_CHANNEL {
                self.review_changed(id).await;
                continue;
            }
            match self.load(id).await {
                Ok((_, state)) => self.tell_watchers(id, &state),
                Err(e) => tracing::warn!("game {id} changed elsewhere but does not load: {}", e.detail),
            }
        }
    }

    /// After a restart: clocks and the server's pending moves for every unfinished game.
    ///
    /// # Errors
    /// A database failure.
    ///
    /// When no server was alive on this database for more than [`DOWN_AFTER_MS`], the
    /// running clocks are not charged for the downtime: each such game gets a
    /// [`Action::Restart`] event that charges its clock up to the last sign of life only.
    pub async fn resume_all(&self) -> Result<usize, ApiError> {
        let now = now_ms();
        let down_since = self.0.store.last_seen().await?.filter(|&seen| now - seen > DOWN_AFTER_MS);
        self.0.store.heartbeat(now).await?;
        let ids = self.0.store.unfinished().await?;
        for id in &ids {
            let state = match self.load(id).await {
                Ok((_, state)) => state,
                Err(e) => {
                    tracing::error!("game {id} does not load: {}", e.detail);
                    continue;
                }
            };
            let state = match down_since {
                Some(down_since_ms) if state.clock_runs().is_some() => {
                    match self.act(id, None, Action::Restart { down_since_ms }, |_, _| Ok(())).await {
                        Ok(state) => state,
                        // The flag fell before the downtime: the clock check ends the game.
                        Err(_) => state,
                    }
                }
                _ => state,
            };
            self.changed(id, &state, Client::SERVER);
        }
        Ok(ids.len())
    }

    /// Notes that this server is alive (every second while it serves).
    ///
    /// # Errors
    /// A database failure.
    pub async fn heartbeat(&self) -> Result<(), ApiError> {
        Ok(self.0.store.heartbeat(now_ms()).await?)
    }
}

/// How long the computer may think for `color` at `now_ms`: its clock's share (main time
/// spread over the moves likely left, a byo-yomi period or a Canadian period's share, with a
/// margin), at most `cap`, at least 50 ms.
#[must_use]
pub fn think_time(state: &State, color: Color, cap: Duration, now_ms: i64) -> Duration {
    let (clocks, _) = state.clocks_at(now_ms);
    let clock = clocks[color.index()];
    let moves_left = (state.game.board().empty_count() / 3).max(15) as f64;
    let seconds = match state.config.time {
        TimeControl::None {} => return cap,
        TimeControl::Absolute { .. } => clock.main_ms as f64 / 1000.0 / moves_left,
        TimeControl::Fischer { increment, .. } => clock.main_ms as f64 / 1000.0 / moves_left + increment * 0.8,
        TimeControl::Byoyomi { period, .. } => {
            if clock.overtime {
                clock.period_ms.min((period * 1000.0) as i64) as f64 / 1000.0 * 0.6
            } else {
                (clock.main_ms as f64 / 1000.0 / moves_left).max(period * 0.5)
            }
        }
        TimeControl::Canadian { .. } => {
            if clock.overtime {
                clock.period_ms as f64 / 1000.0 / f64::from(clock.stones.max(1)) * 0.7
            } else {
                clock.main_ms as f64 / 1000.0 / moves_left
            }
        }
    };
    Duration::from_secs_f64(seconds.clamp(0.05, cap.as_secs_f64()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Config, Placement};

    fn state(time: TimeControl) -> State {
        let config = Config {
            size: 19,
            rules: "chinese".into(),
            komi_half_points: 15,
            handicap: 0,
            placement: Placement::Fixed,
            opponent: Opponent::Computer { level: 10 },
            computer: Some(Color::Black),
            time,
            black_name: "tengen".into(),
            white_name: "you".into(),
            nigiri: None,
            imported: false,
        };
        State::new(config, 0).unwrap()
    }

    #[test]
    fn the_computer_thinks_within_its_clock() {
        let cap = Duration::from_secs(5);
        let secs = |time: TimeControl, now: i64| think_time(&state(time), Color::Black, cap, now).as_secs_f64();
        assert_eq!(secs(TimeControl::None {}, 0), 5.0, "no clock: the server's cap");
        // 10 minutes over the 120 moves likely left on an empty 19×19: 5 s, the cap.
        assert!((secs(TimeControl::Absolute { main: 600.0 }, 0) - 5.0).abs() < 1e-9);
        assert!((secs(TimeControl::Absolute { main: 60.0 }, 0) - 0.5).abs() < 1e-9);
        // 40 s of it already gone: 20 s left over 120 moves.
        assert!((secs(TimeControl::Absolute { main: 60.0 }, 40_000) - 20.0 / 120.0).abs() < 1e-6);
        // Byo-yomi from the start: 60% of the 3 s period.
        let byoyomi = TimeControl::Byoyomi { main: 0.0, period: 3.0, periods: 3 };
        assert!((secs(byoyomi, 0) - 1.8).abs() < 1e-6);
        // Canadian: 10 s for 5 stones, 70% of 2 s.
        let canadian = TimeControl::Canadian { main: 0.0, period: 10.0, stones: 5 };
        assert!((secs(canadian, 0) - 1.4).abs() < 1e-6);
        // Fischer: the share of main time plus most of the increment; never under 50 ms.
        assert!((secs(TimeControl::Fischer { main: 12.0, increment: 1.0 }, 0) - 0.9).abs() < 1e-6);
        assert!((secs(TimeControl::Absolute { main: 1.0 }, 999) - 0.05).abs() < 1e-9);
    }
}

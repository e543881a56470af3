//! The computer's work: a client's share of it, the queue of this process's searches, the
//! shared jobs of the database (`--shared-moves`), and the move or proposal each search makes.

use std::sync::Arc;
use std::time::Duration;

use tengen_core::{Color, Phase};
use tengen_engine::{Decision, engine_at_level};

use super::{AppState, derived};
use crate::domain::{Action, Event, Opponent, State, TimeControl};
use crate::error::ApiError;
use crate::guard::Client;
use crate::service::queue;
use crate::store::{Job, JobKind};
use crate::util::{lock, now_ms};

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

impl AppState {
    /// The computer's work: (waiting, running).
    ///
    /// # Errors
    /// With shared moves ([`crate::Settings::shared_moves`]), a database error.
    pub async fn computer_queue(&self) -> Result<(usize, usize), ApiError> {
        if self.0.settings.shared_moves {
            return Ok(self.0.store.job_counts(JobKind::Move, now_ms()).await?);
        }
        let queue = lock(&self.0.queue);
        Ok((queue.waiting(), queue.running()))
    }

    /// A place in `client`'s share of the computer's work ([`crate::guard::Limits::computer_moves`]), held
    /// until the returned guard drops — after the action that wakes the computer has queued
    /// its job. The place is taken before the client's work is counted, so that requests sent
    /// at once cannot all pass the check: each sees the places the others hold.
    ///
    /// # Errors
    /// 429 with `Retry-After` when the client's work waiting, running and on its way fills
    /// its share; 503 when the whole queue holds sixteen clients' shares.
    pub async fn computer_room(&self, client: Client) -> Result<ComputerRoom, ApiError> {
        let before = self.reserve(client);
        let room = ComputerRoom { app: self.clone(), client };
        let queued = if self.0.settings.shared_moves {
            self.0.store.jobs_of(JobKind::Move, &client.0.to_string(), "").await?
        } else {
            lock(&self.0.queue).held_by(client)
        };
        let (held, max) = (queued + before, self.limits().computer_moves);
        // The whole queue: sixteen clients' shares at most, so that a move asked for waits
        // behind a bounded amount of work (503 beyond).
        let (waiting, _) = self.computer_queue().await?;
        if waiting >= COMPUTER_QUEUE_SHARES * max {
            return Err(ApiError::unavailable(
                format!("the computer has {waiting} moves waiting: try again in a moment"),
                self.0.settings.max_think.as_secs().max(1),
            ));
        }
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
        crate::util::count_down(&mut lock(&self.0.reserved), &client);
    }

    /// Starts the server's own work on the game: the computer's move, or the proposal of
    /// dead stones.
    pub(super) fn schedule(&self, id: &str, state: &State, client: Client) {
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
                if let Err(e) = app.0.store.queue_move(&id, events, &client.0.to_string(), now_ms()).await {
                    tracing::warn!("game {id}: queueing the computer's work: {e}");
                }
            });
            return;
        }
        if (computer_turn || propose) && lock(&self.0.busy).insert(id.to_owned()) {
            lock(&self.0.queue).push(queue::Job { id: id.to_owned(), events: state.events, client });
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
                let started = std::time::Instant::now();
                let outcome = app.follow_up(&job.id, job.events).await;
                lock(&app.0.busy).remove(&job.id);
                lock(&app.0.queue).done(job.client, started.elapsed());
                drop(permit);
                match outcome {
                    Ok(Some(state)) => {
                        app.changed(&job.id, &state, job.client);
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!("game {}: the server's move failed: {}", job.id, e.detail),
                }
                app.pump();
            });
        }
    }

    /// Works on the computer's jobs of the database ([`crate::Settings::shared_moves`]) one at a
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
        let (job, _) = self.0.store.claim_job(JobKind::Move, owner, now, now + lease_ms, "", None).await?;
        let Some(Job { game_id: id, events, client, .. }) = job else {
            return Ok(false);
        };
        tracing::info!(game = %id, events, owner, "computer job claimed");
        let renewing = {
            let (store, id, owner) = (self.0.store.clone(), id.clone(), owner.to_owned());
            tokio::spawn(async move {
                loop {
                    tokio::time::sleep(lease / 3).await;
                    match store.renew_move(&id, &owner, now_ms() + lease_ms).await {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(e) => tracing::warn!("game {id}: renewing the computer's job: {e}"),
                    }
                }
            })
        };
        let outcome = self.follow_up(&id, usize::try_from(events).unwrap_or(usize::MAX)).await;
        renewing.abort();
        self.0.store.finish_move(&id, events, now_ms()).await?;
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
    /// ([`crate::Settings::shared_moves`]): `searches` of them ([`AppState::work_computer_jobs`]).
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
                let dead = engine_at_level(10, network, rand::random()).dead_stones(&game).unwrap_or_default();
                // The search's tree, freed, goes back to the system.
                crate::util::trim_memory();
                dead
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
            // A rated game's level searches all its simulations whatever the load (its rating
            // rests on them): only its own clock bounds it there.
            let cap = if state.config.rated { RATED_THINK_CAP } else { self.0.settings.max_think };
            let budget = think_time(&state, color, cap, now_ms());
            let game = state.game.clone();
            let network = self.0.settings.network.clone();
            let decision = tokio::task::spawn_blocking(move || {
                let budget = Some(tengen_engine::Budget::fixed(budget));
                let decision = engine_at_level(level, network, rand::random()).decide(&game, color, budget);
                // The search's tree, freed, goes back to the system.
                crate::util::trim_memory();
                decision
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
            let (stored, mut state) = self.fetch(id).await?;
            if state.events != events {
                return Ok(None);
            }
            let event = Event { action, color, at_ms: now_ms() };
            state.apply(&event)?;
            self.0.store.append(id, state.events as i64, &event, &derived(&state)).await?;
            lock(&self.0.games).put(stored, state.clone());
            Ok(Some(state))
        })
        .await
    }
}

/// The computer's queue holds at most this many clients' shares of moves.
pub const COMPUTER_QUEUE_SHARES: usize = 16;

/// The most a level thinks a move in a rated game (its simulations end it long before).
const RATED_THINK_CAP: Duration = Duration::from_secs(600);

/// How long the computer may think for `color` at `now_ms`: its clock's share (main time
/// spread over the moves likely left, a byo-yomi period or a Canadian period's share, with a
/// margin), at most `cap`, at least 50 ms.
#[must_use]
pub fn think_time(state: &State, color: Color, cap: Duration, now_ms: i64) -> Duration {
    let (clocks, _) = state.clocks_at(now_ms);
    let clock = clocks[color.index()];
    let moves_left = (state.game.board().empty_count() / 3).max(15) as f64;
    let seconds = match state.config.time {
        // Days a move: the computer takes no longer than it would without a clock.
        TimeControl::None {} | TimeControl::Correspondence { .. } => return cap,
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
            rated: false,
            accounts: [None, None],
            computer_rating: None,
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
        // The clocks start with the first stone: 40 s after the creation nothing is gone.
        assert!((secs(TimeControl::Absolute { main: 60.0 }, 40_000) - 0.5).abs() < 1e-9);
        // After a move each, 40 s of Black's gone: 20 s left over 119 moves.
        let mut started = state(TimeControl::Absolute { main: 60.0 });
        for (color, at) in [(Color::Black, "D4"), (Color::White, "Q16")] {
            let mv = tengen_core::Move::Play(at.parse().unwrap());
            started.apply(&Event { action: Action::Move { mv }, color: Some(color), at_ms: 0 }).unwrap();
        }
        let share = think_time(&started, Color::Black, cap, 40_000).as_secs_f64();
        assert!((share - 20.0 / 119.0).abs() < 1e-6, "{share}");
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

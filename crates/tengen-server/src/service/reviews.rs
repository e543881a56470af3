//! Review jobs and the workers that do them. A viewer of a finished or imported game asks for
//! its review (`POST /api/games/{id}/review`); the job waits in the database's `reviews`
//! table until a worker claims it — a thread of any `tengen serve` on the database, or a
//! `tengen worker` process on another machine ([`Store::claim_review`]). The worker holds a
//! lease that it renews while it searches, writing its progress and the moves judged so far;
//! a worker that dies stops renewing, and once its lease has run out another worker takes the
//! job from the start. A worker that finds its lease gone stops, and a late result is refused,
//! so each job is finished once.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Serialize;
use tengen_engine::{Limit, Mcts, SearchParams};
use tengen_nn::CachedModel;
use tengen_review::{Progress, Review, ReviewError, Searcher};
use utoipa::ToSchema;

use crate::service::load::state_of;
use crate::store::{ReviewRow, Store, StoreError};
use crate::util::now_ms;

/// How long a claim holds without renewal.
pub const LEASE: Duration = Duration::from_secs(15);
/// How often a working worker renews its lease and writes its progress (well within the
/// shortest lease, 2 s).
const RENEW_EVERY: Duration = Duration::from_millis(500);
/// How long an idle worker waits before it looks for work again.
const IDLE: Duration = Duration::from_millis(500);

/// The engine name of the playout search in `reviews.engine`.
pub const PLAYOUTS: &str = "playouts";

/// A network visit of a 19×19 position counted as this many playouts in a review's work
/// (`--review-work`): a 190-move review at 400 visits held a worker for about 75 minutes on the
/// hostile client's machine (some 60 ms a visit on one core). Smaller boards in proportion to
/// their points. At the default work, a 19×19 review asks at most 10,000 visits.
pub const VISIT_WORK_19: u64 = 200;

/// The work of a review (playouts, or visits weighted by [`VISIT_WORK_19`]) of `moves` moves
/// at `strength` a position on a board of `size`: what `--review-work` bounds, so that one
/// review holds a worker for minutes, not an hour.
#[must_use]
pub fn review_work(network: bool, size: usize, moves: usize, strength: u32) -> u64 {
    let per = if network { (VISIT_WORK_19 * (size * size) as u64).div_ceil(361).max(1) } else { 1 };
    moves as u64 * u64::from(strength) * per
}

/// The engine name of a network's search in `reviews.engine`.
#[must_use]
pub fn network_engine(model: &CachedModel) -> String {
    format!("network:{}", model.model().name)
}

/// One move of a review as the API shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReviewedMove {
    /// From 1.
    pub number: usize,
    /// `B` or `W`.
    pub color: String,
    /// The vertex or `pass`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Black's win rate after the move, 0 to 1.
    pub winrate_black: f64,
    /// Black's lead in points after the move (area counting, komi included).
    pub score_lead_black: f64,
    /// Black's win rate before the move.
    pub winrate_black_before: f64,
    /// Black's lead before the move.
    pub score_lead_black_before: f64,
    /// Points the mover lost against the best move.
    pub loss: f64,
    /// Win rate the mover lost against the best move.
    pub winrate_loss: f64,
    /// `tengen_review::NOISE_ERRORS` standard errors of `loss`: a loss under it is within the search's noise (and not
    /// judged as a loss).
    pub loss_noise: f64,
    /// The best move in the position before.
    pub best: String,
    /// The best move's principal variation, starting with it.
    pub pv: Vec<String>,
    /// The judgements (恶手, 疑问手, 妙手 …), in Chinese.
    pub judgement: Vec<String>,
    /// The judgements in English, in the same order.
    pub judgement_en: Vec<String>,
    /// The move's names, most specific first, in Chinese.
    pub names: Vec<String>,
    /// The names in English, in the same order.
    pub names_en: Vec<String>,
    /// A move of the quick pass: the network's first look (win rates, leads and its most
    /// likely move as `best`), not searched nor judged yet.
    pub provisional: bool,
}

impl From<&tengen_review::MoveReview> for ReviewedMove {
    fn from(m: &tengen_review::MoveReview) -> ReviewedMove {
        ReviewedMove {
            number: m.number,
            color: m.color.clone(),
            mv: m.mv.clone(),
            winrate_black: m.winrate_black,
            score_lead_black: m.score_lead_black,
            winrate_black_before: m.winrate_black_before,
            score_lead_black_before: m.score_lead_black_before,
            loss: m.eval.loss,
            winrate_loss: m.winrate_loss,
            loss_noise: m.loss_noise,
            best: m.best.clone(),
            pv: m.pv.clone(),
            judgement: m.judgement.iter().map(|t| t.zh.clone()).collect(),
            judgement_en: m.judgement.iter().map(|t| t.en.clone()).collect(),
            names: m.terms.iter().map(|t| t.zh.clone()).collect(),
            names_en: m.terms.iter().map(|t| t.en.clone()).collect(),
            provisional: m.provisional,
        }
    }
}

/// A review job as the API shows it (`GET /api/games/{id}/review`, and `{"review": …}` on the
/// game's WebSocket while it changes).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReviewView {
    /// The game.
    pub game: String,
    /// `none` (no review asked yet), `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    /// 0 to 1.
    pub progress: f64,
    /// While it runs: `quick` (a network's review evaluating every position once, before any
    /// search), then `deep` (the positions searched and the moves judged in order, each
    /// replacing its provisional move); empty otherwise.
    pub pass: String,
    /// Moves judged so far (all of them when done).
    pub judged: usize,
    /// `playouts`, or `network:NAME`.
    pub engine: String,
    /// Simulations (a network's visits) a position.
    pub strength: i64,
    /// The moves judged so far (all of them when done), in order.
    pub moves: Vec<ReviewedMove>,
    /// Move numbers of the biggest mistakes, biggest first (when done).
    pub mistakes: Vec<usize>,
    /// Black's win rate before the first move (when done).
    pub start_winrate_black: Option<f64>,
    /// Why it failed.
    pub error: Option<String>,
}

impl ReviewView {
    /// The view of a game whose review nobody asked for yet.
    #[must_use]
    pub fn none(game_id: &str) -> ReviewView {
        ReviewView {
            game: game_id.to_owned(),
            state: "none".into(),
            progress: 0.0,
            pass: String::new(),
            judged: 0,
            engine: String::new(),
            strength: 0,
            moves: Vec::new(),
            mistakes: Vec::new(),
            start_winrate_black: None,
            error: None,
        }
    }

    /// The view of a stored job.
    ///
    /// # Errors
    /// Stored results that do not read back.
    pub fn of(row: &ReviewRow) -> Result<ReviewView, StoreError> {
        let corrupt = |e: serde_json::Error| StoreError::Corrupt(format!("review of {}: {e}", row.game_id));
        let (moves, mistakes, start) = match (&row.result, &row.partial) {
            (Some(result), _) => {
                let review: Review = serde_json::from_str(result).map_err(corrupt)?;
                (
                    review.moves.iter().map(ReviewedMove::from).collect(),
                    review.mistakes,
                    Some(review.start_winrate_black),
                )
            }
            (None, Some(partial)) => {
                let moves: Vec<tengen_review::MoveReview> = serde_json::from_str(partial).map_err(corrupt)?;
                (moves.iter().map(ReviewedMove::from).collect(), Vec::new(), None)
            }
            (None, None) => (Vec::new(), Vec::new(), None),
        };
        let judged = moves.iter().filter(|m| !m.provisional).count();
        let pass = match row.state.as_str() {
            "running" if moves.is_empty() && row.engine.starts_with("network:") => "quick",
            "running" => "deep",
            _ => "",
        };
        Ok(ReviewView {
            game: row.game_id.clone(),
            state: row.state.clone(),
            progress: row.progress,
            pass: pass.into(),
            judged,
            engine: row.engine.clone(),
            strength: row.strength,
            moves,
            mistakes,
            start_winrate_black: start,
            error: row.error.clone(),
        })
    }
}

/// What a worker tells of the jobs it works on (a server: the game's watchers).
pub type OnChange = Arc<dyn Fn(&str) + Send + Sync>;

/// A worker of review jobs on one database.
pub struct Worker {
    store: Store,
    network: Option<Arc<CachedModel>>,
    owner: String,
    on_change: Option<OnChange>,
    lease: Duration,
    threads: usize,
}

/// What the search thread tells the worker.
enum Step {
    Quick(Vec<tengen_review::MoveReview>),
    Searched(usize, usize),
    Judged(Box<tengen_review::MoveReview>),
    Finished(Result<Review, ReviewError>),
}

impl Worker {
    /// A worker on `store`, with `network` for the jobs that ask it.
    #[must_use]
    pub fn new(store: Store, network: Option<Arc<CachedModel>>) -> Worker {
        let owner = format!("{}-{:08x}", store.instance(), rand::random::<u32>());
        Worker { store, network, owner, on_change: None, lease: LEASE, threads: 1 }
    }

    /// The search threads of each review (1 by default).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Worker {
        self.threads = threads.max(1);
        self
    }

    /// The length of this worker's claims ([`LEASE`] by default; at least 2 s): a job whose
    /// worker died waits this long for another.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Worker {
        self.lease = lease.max(Duration::from_secs(2));
        self
    }

    /// Calls `f` with the game's id after each change the worker makes to a job.
    #[must_use]
    pub fn on_change(mut self, f: OnChange) -> Worker {
        self.on_change = Some(f);
        self
    }

    /// This worker's name in the `lease_owner` column.
    #[must_use]
    pub fn owner(&self) -> &str {
        &self.owner
    }

    fn changed(&self, game_id: &str) {
        if let Some(f) = &self.on_change {
            f(game_id);
        }
    }

    /// Works on jobs for ever, waiting a moment when there is none.
    pub async fn run(self) {
        loop {
            match self.work_once().await {
                Ok(true) => {}
                Ok(false) => tokio::time::sleep(IDLE).await,
                Err(e) => {
                    tracing::warn!("review worker {}: {e}", self.owner);
                    tokio::time::sleep(IDLE * 2).await;
                }
            }
        }
    }

    /// Claims one job and works on it to its end (or until its lease is lost): `false` when
    /// there was none.
    ///
    /// # Errors
    /// A database failure.
    pub async fn work_once(&self) -> Result<bool, StoreError> {
        let network = self.network.as_deref().map(network_engine).unwrap_or_default();
        let now = now_ms();
        let lease = self.lease.as_millis() as i64;
        let Some(job) = self.store.claim_review(&self.owner, now, now + lease, &network).await? else {
            return Ok(false);
        };
        tracing::info!(game = %job.game_id, worker = %self.owner, attempt = job.attempts, "review claimed");
        self.changed(&job.game_id);
        let outcome = self.review(&job).await;
        // The searches' trees, freed, go back to the system.
        crate::util::trim_memory();
        let finished = match outcome {
            Ok(Some(review)) => {
                let json = serde_json::to_string(&review).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                self.store.finish_review(&job.game_id, &self.owner, Ok(&json), now_ms()).await?
            }
            // The lease was lost: the job is another worker's now.
            Ok(None) => false,
            Err(error) => self.store.finish_review(&job.game_id, &self.owner, Err(&error), now_ms()).await?,
        };
        if finished {
            tracing::info!(game = %job.game_id, worker = %self.owner, "review finished");
            self.changed(&job.game_id);
        }
        Ok(true)
    }

    /// The review of `job`'s game, renewing the lease as it goes; `Ok(None)` when the lease
    /// was lost, `Err` with the reason when the review cannot be made.
    async fn review(&self, job: &ReviewRow) -> Result<Option<Review>, String> {
        let (stored, events) = match self.store.load(&job.game_id).await {
            Ok(Some(found)) => found,
            Ok(None) => return Err("the game is gone".into()),
            Err(e) => return Err(e.to_string()),
        };
        let state = state_of(&stored, &events).map_err(|e| e.detail)?;
        let mut searcher = if job.engine == PLAYOUTS {
            let params = SearchParams {
                playouts: Limit::Simulations(u32::try_from(job.strength).unwrap_or(1).max(1)),
                time: None,
                temperature: 0.0,
                threads: self.threads,
                seed: 1,
                ..SearchParams::level(10)
            };
            Searcher::Playouts(Box::new(Mcts::new(params)))
        } else {
            let Some(network) = self.network.clone() else {
                return Err(format!("this worker has no network for {}", job.engine));
            };
            let params = SearchParams {
                playouts: Limit::Simulations(u32::try_from(job.strength).unwrap_or(1).max(1)),
                time: None,
                temperature: 0.0,
                threads: self.threads,
                seed: 1,
                ..SearchParams::network()
            };
            Searcher::network(network, params)
        };
        let info = tengen_sgf::GameInfo {
            black: Some(state.config.black_name.clone()),
            white: Some(state.config.white_name.clone()),
            result: state.game.outcome().map(|o| o.result_points()),
            ..tengen_sgf::GameInfo::default()
        };
        let game = state.game.clone();
        let strength = u32::try_from(job.strength).unwrap_or(u32::MAX);
        let file = job.game_id.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let search_stop = Arc::clone(&stop);
        // A thread of its own, at the lowest priority (the threads it starts inherit it): live
        // games' requests and the computer's moves come first.
        let spawned = std::thread::Builder::new().name("review".into()).stack_size(16 << 20).spawn(move || {
            yield_to_live_games();
            let progress_tx = tx.clone();
            let outcome = tengen_review::review(&game, &mut searcher, strength, &file, &info, &mut |p| {
                let step = match p {
                    Progress::Quick(moves) => Step::Quick(moves.to_vec()),
                    Progress::Searched { done, total } => Step::Searched(done, total),
                    Progress::Judged(m) => Step::Judged(Box::new(m.clone())),
                };
                let _ = progress_tx.send(step);
                if search_stop.load(Ordering::Relaxed) { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
            });
            let _ = tx.send(Step::Finished(outcome));
        });
        if let Err(e) = spawned {
            return Err(format!("cannot start the review's thread: {e}"));
        }
        // The moves shown: the quick pass's, each replaced when judged.
        let (mut judged, mut shown, mut progress): (usize, Vec<tengen_review::MoveReview>, f64) = (0, Vec::new(), 0.0);
        let mut renew = tokio::time::interval(RENEW_EVERY);
        renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let moves = state.game.moves().len().max(1) as f64;
        let outcome = loop {
            tokio::select! {
                step = rx.recv() => match step {
                    // The quick pass is a moment; searching the positions about half the work,
                    // judging the moves the rest.
                    Some(Step::Quick(quick)) => {
                        shown = quick;
                        progress = 0.01;
                    }
                    Some(Step::Searched(done, total)) => progress = 0.01 + 0.49 * done as f64 / total.max(1) as f64,
                    Some(Step::Judged(m)) => {
                        match shown.get_mut(judged) {
                            Some(slot) => *slot = *m,
                            None => shown.push(*m),
                        }
                        judged += 1;
                        progress = 0.5 + 0.5 * judged as f64 / moves;
                    }
                    Some(Step::Finished(outcome)) => break outcome,
                    None => break Err(ReviewError::Stopped),
                },
                _ = renew.tick() => {
                    let partial = serde_json::to_string(&shown).unwrap_or_else(|_| "[]".into());
                    let now = now_ms();
                    let until = now + self.lease.as_millis() as i64;
                    match self.store.renew_review(&job.game_id, &self.owner, until, progress.min(0.99), &partial, now).await {
                        Ok(true) => self.changed(&job.game_id),
                        Ok(false) => stop.store(true, Ordering::Relaxed),
                        Err(e) => tracing::warn!("review of {}: renewing the lease: {e}", job.game_id),
                    }
                }
            }
        };
        match outcome {
            Ok(review) => Ok(Some(review)),
            Err(ReviewError::Stopped) => Ok(None),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Lowers the calling thread's scheduling priority to the lowest there is (Linux's nice 19, a
/// per-thread value that the threads it starts inherit): the review takes the CPU that live
/// games leave. False where the system refused or has no such setting.
pub(crate) fn yield_to_live_games() -> bool {
    #[cfg(target_os = "linux")]
    {
        rustix::process::setpriority_process(None, 19).is_ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use rustix::process::getpriority_process;

    #[test]
    fn a_review_thread_and_its_threads_run_at_the_lowest_priority_alone() {
        let before = getpriority_process(None).unwrap();
        let (own, started) = std::thread::spawn(|| {
            assert!(super::yield_to_live_games());
            let started = std::thread::spawn(|| getpriority_process(None).unwrap()).join().unwrap();
            (getpriority_process(None).unwrap(), started)
        })
        .join()
        .unwrap();
        assert_eq!((own, started), (19, 19));
        assert_eq!(getpriority_process(None).unwrap(), before, "the calling thread keeps its own");
    }
}

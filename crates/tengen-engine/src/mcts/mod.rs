//! Monte-Carlo tree search with RAVE (rapid action value estimation).
//!
//! The tree is an arena of nodes with `u32` ids; a node's children are contiguous. A
//! simulation descends by UCT on a blend of the node's own win rate and its AMAF (all moves as
//! first) win rate — weighted toward AMAF while a node has few visits —, expands a node on its
//! second visit, finishes with a playout of `PlayoutParams::policy` (by default the heavy one:
//! answers to the last move — captures, escapes, learned shapes, the last good replies — before
//! moves that fill no own eye), scores the final board by area and komi, and backs the result
//! up the path. Two passes in a row inside the tree end the game there: that node is counted
//! by regions (`terminal_owners`) with the searcher's own stones judged dead taken off, so a
//! pass is chosen only when that count wins.
//!
//! Superko is checked for the root's moves only (with the game, while it is in play); below, the
//! board's simple ko.
//!
//! By concern: `tree` (the nodes, their children, the tree kept between moves, the principal
//! variation), `select` (the descent's choice), `priors` (what new nodes start with), `worker`
//! (a thread's simulations: descent, playout, score, back-up), `replies` (the playouts' last
//! good replies), `status` (dead stones), `decide` (the move played); the parameters are
//! [`SearchParams`].

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Board, Color, Game, Move, Point};

use crate::arena::best_line;
use crate::budget::{Budget, within};
use crate::decide::{Candidate, recent_stones};
use crate::engine::{Analysis, Decision, Engine, SearchReport};
use crate::params::{Limit, SearchParams};
use priors::{candidate_moves, expansion_priors};
use status::TERMINAL_STATUS_PLAYOUTS;
use tree::{Node, add_children, point, snapshot, to_move};
use worker::{Shared, Worker};

mod decide;
mod priors;
mod replies;
mod select;
mod status;
#[cfg(test)]
mod tests;
mod tree;
mod worker;

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The most visited move.
    pub best: Move,
    /// Its win rate for the player to move.
    pub win_rate: f32,
    /// Simulations run.
    pub playouts: u32,
    /// Simulations kept from the last search's tree (see [`SearchParams::reuse_tree`]).
    pub reused: u32,
    /// The root's moves, most visited first.
    pub moves: Vec<Candidate>,
    /// Per point (indexed by `Point::index`), from −1 (White's) to +1 (Black's): who owned it
    /// at the end of the playouts.
    pub ownership: Vec<f32>,
}

/// When a search stops: after `limit` simulations or when `budget` is spent, whichever comes
/// first — or, with `early`, as soon as the simulations left to `limit` could not make another
/// move the most visited.
#[derive(Clone, Copy, Debug)]
struct Stop {
    limit: Limit,
    /// With a simulations limit: go on past it while the choice is unsettled
    /// ([`PlayoutParams::close_extension`](crate::PlayoutParams::close_extension)).
    extend: bool,
    budget: Option<Budget>,
    early: bool,
}

/// The analysis hook of a search: `report` every `interval`, stop when it says so.
struct Monitor<'r> {
    interval: Duration,
    last: Instant,
    stop: &'r AtomicBool,
    report: &'r mut dyn FnMut(&Analysis),
}

/// The search. Keeps its workers (random generators and scratch) between moves.
pub struct Mcts {
    params: SearchParams,
    /// For the choices outside the simulations (weak levels' move draw, dead stones).
    rng: SmallRng,
    nodes: Vec<Node>,
    /// The position the tree in `nodes` was grown from, for reusing it on the next search.
    root: Option<Root>,
    workers: Vec<Worker>,
    /// Per colour, its searches in a row that found the game lost (see
    /// [`PlayoutParams::resign_moves`](crate::PlayoutParams::resign_moves)).
    lost_searches: [u32; 2],
    /// What the search behind the last decision found.
    report: Option<SearchReport>,
}

/// The root position of the last search.
struct Root {
    board: Board,
    /// Moves of the game up to it.
    moves: usize,
    color: Color,
}

/// How a search counts a game that two passes end inside its tree.
enum Ending {
    /// With the searcher's stones that [`TERMINAL_STATUS_PLAYOUTS`] status playouts from the
    /// root call dead taken off.
    Judged,
    /// With these stones of the searcher's taken off (judged by the caller).
    Without(Vec<Point>),
    /// Never: two passes in the tree hand the move on, the opponent's last pass before the
    /// search is not pending and a playout runs to two passes of its own, so that every
    /// simulation's final board is played out (a status search, [`Mcts::status_ownership`]).
    PlayedOut,
    /// As [`Ending::PlayedOut`], and a simulation is won by whoever owns these stones' points
    /// on its final board (Black's share of them): a reading of one group's life
    /// ([`Mcts::survival`]), not of the game.
    Reading(Vec<Point>),
}

impl Mcts {
    /// A search with these parameters.
    #[must_use]
    pub fn new(params: SearchParams) -> Mcts {
        let rng = SmallRng::seed_from_u64(params.seed ^ 0x9e37_79b9_7f4a_7c15);
        let workers = (0..params.threads.max(1)).map(|k| Worker::new(params.seed.wrapping_add(k as u64))).collect();
        Mcts { params, rng, nodes: Vec::new(), root: None, workers, lost_searches: [0; 2], report: None }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// The most visited line of the last search's tree, up to `length` moves.
    fn principal_variation(&self, length: usize) -> Vec<Move> {
        if self.nodes.is_empty() { Vec::new() } else { best_line(&self.nodes, 0, length) }
    }

    /// Runs the search for `color` to move in `game` (any colour may be asked, as GTP allows),
    /// on `params.threads` threads sharing one tree.
    pub fn search(&mut self, game: &Game, color: Color) -> SearchResult {
        self.search_monitored(game, color, self.configured_stop(), None, Instant::now(), Ending::Judged)
    }

    /// The stop of a search by its parameters alone: `playouts` simulations or `time`.
    fn configured_stop(&self) -> Stop {
        Stop { limit: self.params.playouts, extend: false, budget: within(None, self.params.time), early: false }
    }

    /// Searches like [`Mcts::search`] (within the configured simulations or time) and returns
    /// the root's moves as [`Engine::analyze`] reports them: most visited first, with win
    /// rates, score leads and principal variations (for reviewing a game).
    pub fn search_analysis(&mut self, game: &Game, color: Color) -> Analysis {
        let result = self.search(game, color);
        snapshot(&self.nodes, result.playouts, &result.ownership, 1)
    }

    /// The search until `stop`, reporting to `monitor` if given.
    fn search_monitored(
        &mut self,
        game: &Game,
        color: Color,
        stop: Stop,
        monitor: Option<&mut Monitor<'_>>,
        started: Instant,
        ending: Ending,
    ) -> SearchResult {
        let root_board = game.board();
        let (own_dead, goal) = match ending {
            Ending::Judged => (Some(self.own_dead_stones(game, color, TERMINAL_STATUS_PLAYOUTS)), None),
            Ending::Without(dead) => (Some(dead), None),
            Ending::PlayedOut => (None, None),
            Ending::Reading(stones) => (None, Some(stones)),
        };
        // Superko at the root needs the game in play; after two passes (counting dead stones)
        // the board's own legality serves.
        let in_play = game.phase() == tengen_core::Phase::Playing;
        let nodes = match self.reused_tree(game, color, in_play) {
            Some(nodes) => nodes,
            None => {
                let mut nodes = std::mem::take(&mut self.nodes);
                nodes.clear();
                nodes.push(Node { player: color.opponent().index() as u8, ..Node::default() });
                let mut moves = Vec::new();
                candidate_moves(root_board, color, in_play.then_some(game), &mut moves);
                if let Some(opening) = self.corners_first(root_board) {
                    moves.retain(|&mv| !opening.holds_back(point(mv)));
                }
                let (mut tactics, mut priors) = (Vec::new(), Vec::new());
                let recent = recent_stones(game, color);
                expansion_priors(root_board, color, &moves, recent, &self.params, &mut tactics, &mut priors);
                add_children(&mut nodes, 0, color, (&moves, &priors), self.params.playout.priors_in_value);
                nodes
            }
        };
        let reused = nodes[0].visits;
        self.root = Some(Root { board: root_board.clone(), moves: game.moves().len(), color });
        let mut shared = Shared::new(&self.params, game, color, nodes, stop, own_dead, started);
        if goal.is_some() {
            shared.mercy = None;
        }
        shared.goal = goal;
        let (first, rest) = self.workers.split_first_mut().expect("at least one worker");
        std::thread::scope(|scope| {
            for worker in rest.iter_mut() {
                let shared = &shared;
                // Ladder reading keeps a few boards per step on the stack.
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(scope, move || worker.run(shared, None))
                    .expect("a search thread");
            }
            first.run(&shared, monitor);
        });
        self.nodes = shared.tree.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);

        let playouts: u32 = self.workers.iter().map(|w| w.playouts).sum();
        let root = self.nodes[0];
        let mut moves: Vec<Candidate> = (root.first_child..root.first_child + root.children)
            .map(|c| {
                let n = &self.nodes[c as usize];
                let win_rate = if n.visits > 0 { n.wins / n.visits as f32 } else { 0.0 };
                Candidate { mv: to_move(n.mv), visits: n.visits, win_rate }
            })
            .collect();
        moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
        let (best, win_rate) = moves.first().map_or((Move::Pass, 0.0), |c| (c.mv, c.win_rate));
        let sampled: u32 = self.workers.iter().map(|w| w.playouts.div_ceil(4)).sum();
        let scale = 1.0 / sampled.max(1) as f32;
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        for w in &self.workers {
            for (o, x) in ownership.iter_mut().zip(&w.ownership) {
                *o += x * scale;
            }
        }
        SearchResult { best, win_rate, playouts, reused, moves, ownership }
    }
}

impl Engine for Mcts {
    fn clear(&mut self) {
        self.root = None;
        self.lost_searches = [0; 2];
    }

    fn dead_stones(&mut self, game: &Game) -> Option<Vec<Point>> {
        Some(self.dead_stones_of(game))
    }

    fn analyze(
        &mut self,
        game: &Game,
        color: Color,
        interval: Duration,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Analysis),
    ) -> bool {
        // Until the caller stops it.
        let until_stopped = Stop { limit: Limit::Unlimited, extend: false, budget: None, early: false };
        let mut monitor = Monitor { interval, last: Instant::now(), stop, report };
        self.search_monitored(game, color, until_stopped, Some(&mut monitor), Instant::now(), Ending::Judged);
        true
    }

    fn decide(&mut self, game: &Game, color: Color, budget: Option<Budget>) -> Decision {
        let decision = self.decide_freely(game, color, budget);
        crate::etiquette::observed(self.params.etiquette, game, color, decision)
    }

    fn last_search(&self) -> Option<&SearchReport> {
        self.report.as_ref()
    }
}

//! PUCT search with a KataGo network ([`NetSearch`]): AlphaZero's tree search as KataGo runs
//! it, on the evaluations of `tengen-nn`.
//!
//! A simulation descends from the root by PUCT — a child's mean utility plus
//! `cpuct × prior × √(visits of the parent's children) / (1 + its visits)`, the exploration
//! constant growing slowly with the visits as in KataGo —, evaluates the leaf it reaches with
//! the network (under one of the eight symmetries, drawn at random) and expands it with the
//! policy as the children's priors, then backs the leaf's utility up the path. Children not yet
//! visited are valued at the parent's utility less a first-play-urgency reduction that grows
//! with the prior already explored. The utility mixes the win probability and the expected
//! score lead as [`SearchParams::score_weight`] says.
//!
//! Every node's position is replayed on a copy of the real [`Game`], so superko, passes and
//! the end of play are the game's own: two passes in a row end the game inside the tree, and
//! that leaf is counted instead of evaluated — as it stands, but for the searching player's
//! stones that the network judged dead before a search after the opponent's pass (a referee
//! takes them off; counted alive, they made a pass into a lost count look won).

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_core::{Color, Game, Move, Phase, Point, Rules, Scoring};
use tengen_nn::{CachedModel, input_features, katago_index};

use crate::arena::{ArenaNode, best_line, top_two};
use crate::budget::{Budget, out_of_reach, time_is_up, within};
use crate::decide::{Candidate, Manner, Position, choose, needs_dead};
use crate::engine::{Analysis, Decision, Engine, MoveStats, SearchReport};
use crate::net_eval::evaluate_games;
use crate::params::{Limit, SearchParams};

/// A node's state (a leaf where two passes ended play stays a leaf: it is counted at each
/// visit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    /// Not evaluated yet.
    #[default]
    Leaf,
    /// Evaluated; its children follow.
    Expanded,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The move into this node.
    mv: Move,
    /// Who made it.
    player: Color,
    /// The network's probability for `mv` in the parent's position.
    prior: f32,
    /// Visits, the running ones included (virtual loss: a running simulation counts as a
    /// visit with no utility until it is backed up).
    visits: u32,
    /// Simulations through this node still running.
    running: u32,
    /// Utility for `player`, summed.
    utility: f64,
    /// Win probability for `player`, summed.
    wins: f64,
    /// Score lead for `player` (points), summed, and its squares.
    lead: f64,
    lead_sq: f64,
    first_child: u32,
    children: u32,
    state: State,
}

impl ArenaNode for Node {
    fn mv(&self) -> Move {
        self.mv
    }

    fn visits(&self) -> u32 {
        self.visits
    }

    fn wins(&self) -> f64 {
        self.wins
    }

    fn children(&self) -> std::ops::Range<usize> {
        match self.state {
            State::Expanded => self.first_child as usize..(self.first_child + self.children) as usize,
            State::Leaf => 0..0,
        }
    }
}

impl Node {
    fn new(mv: Move, player: Color, prior: f32) -> Node {
        Node {
            mv,
            player,
            prior,
            visits: 0,
            running: 0,
            utility: 0.0,
            wins: 0.0,
            lead: 0.0,
            lead_sq: 0.0,
            first_child: 0,
            children: 0,
            state: State::Leaf,
        }
    }

    /// Finished visits.
    fn done(&self) -> u32 {
        self.visits - self.running
    }
}

/// What a leaf is worth to the player to move there.
#[derive(Clone, Copy, Debug)]
struct Value {
    win: f64,
    lead: f64,
}

/// The position the last tree was grown from.
struct Root {
    start_hash: u64,
    moves: Vec<(Color, Move)>,
}

/// Tree search on a KataGo network. Keeps its tree between moves.
pub struct NetSearch {
    model: Arc<CachedModel>,
    params: SearchParams,
    rng: SmallRng,
    nodes: Vec<Node>,
    root: Option<Root>,
    /// Ownership (Black's, +1, to White's, −1; by `Point::index`) summed over the last
    /// search's evaluations, and how many.
    ownership: Vec<f64>,
    evaluations: u32,
    /// Visits the last search found in the kept tree.
    kept: u32,
    /// What the last search found.
    report: Option<SearchReport>,
}

/// The computer at `level` (1–10) with this seed: with a network, levels 6 to 10 search with
/// it ([`SearchParams::network_level`]); without one, or below 6, the playout search
/// ([`SearchParams::level`]).
#[must_use]
pub fn engine_at_level(level: u8, network: Option<Arc<CachedModel>>, seed: u64) -> Box<dyn Engine + Send> {
    match network.zip(SearchParams::network_level(level)) {
        Some((network, params)) => Box::new(NetSearch::new(network, SearchParams { seed, ..params })),
        None => Box::new(crate::Mcts::new(SearchParams { seed, ..SearchParams::level(level) })),
    }
}

/// Where an analysis reports.
type Report<'r> = &'r mut dyn FnMut(&Analysis);

/// What the threads of one search share.
struct Shared<'a> {
    params: &'a SearchParams,
    model: &'a CachedModel,
    game: &'a Game,
    tree: Mutex<(Vec<Node>, Vec<f64>, u32)>,
    /// Visits claimed so far.
    claimed: AtomicU32,
    limit: u32,
    /// When the search stops for time (none while analysing).
    budget: Option<Budget>,
    started: Instant,
    stop: &'a AtomicBool,
    /// The searching player's stones judged dead, taken off when play ends in the tree.
    own_dead: &'a [Point],
    /// Stop once the visits left could not change the most visited move (see [`settled`]).
    early: bool,
}

impl NetSearch {
    /// A search on `model` with these parameters (`playouts` counts the network's visits).
    #[must_use]
    pub fn new(model: Arc<CachedModel>, params: SearchParams) -> NetSearch {
        let rng = SmallRng::seed_from_u64(params.seed);
        NetSearch {
            model,
            params,
            rng,
            nodes: Vec::new(),
            root: None,
            ownership: Vec::new(),
            evaluations: 0,
            kept: 0,
            report: None,
        }
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Visits the last search started with, kept from the search before it under the moves
    /// played since (see [`SearchParams::reuse_tree`]).
    #[must_use]
    pub fn reused(&self) -> u32 {
        self.kept
    }

    /// The tree kept from the last search, re-rooted at `game`'s position, if `game` continues
    /// the game that search was in.
    fn reused_tree(&mut self, game: &Game) -> Option<Vec<Node>> {
        if !self.params.reuse_tree {
            return None;
        }
        let root = self.root.as_ref()?;
        let moves = game.moves();
        if root.start_hash != game.start().hash() || !moves.starts_with(&root.moves) || self.nodes.is_empty() {
            return None;
        }
        let mut id = 0usize;
        for &(c, mv) in &moves[root.moves.len()..] {
            let n = self.nodes[id];
            if n.state != State::Expanded {
                return None;
            }
            let range = n.first_child as usize..(n.first_child + n.children) as usize;
            id = range.into_iter().find(|&k| self.nodes[k].mv == mv && self.nodes[k].player == c)?;
        }
        if self.nodes[id].state != State::Expanded || self.nodes[id].player == game.to_move() {
            return None;
        }
        // Copy the subtree under `id`, root first, children contiguous.
        let mut out = vec![self.nodes[id]];
        let mut queue = std::collections::VecDeque::from([(id, 0usize)]);
        while let Some((from, to)) = queue.pop_front() {
            let n = self.nodes[from];
            if n.state != State::Expanded {
                continue;
            }
            let first = out.len();
            out[to].first_child = first as u32;
            for k in n.first_child as usize..(n.first_child + n.children) as usize {
                queue.push_back((k, out.len()));
                out.push(self.nodes[k]);
            }
        }
        Some(out)
    }

    /// Searches `game` (in play) for the player to move until the visits, the time or `stop`
    /// end it, calling `report` about every `interval` if given.
    fn run(
        &mut self,
        game: &Game,
        budget: Option<Budget>,
        stop: &AtomicBool,
        mut monitor: Option<(Duration, Report<'_>)>,
        own_dead: &[Point],
        early: bool,
    ) {
        let color = game.to_move();
        let nodes = self.reused_tree(game).unwrap_or_else(|| vec![Node::new(Move::Pass, !color, 1.0)]);
        let kept = nodes[0].visits;
        self.kept = kept;
        let started = Instant::now();
        let time = within(budget, self.params.time);
        let unlimited = monitor.is_some() || (budget.is_some() && self.params.time_first);
        let limit = if unlimited { Limit::Unlimited } else { self.params.playouts }.cap().max(1);
        let shared = Shared {
            params: &self.params,
            model: &self.model,
            game,
            tree: Mutex::new((nodes, vec![0.0; Point::TABLE_SIZE], 0)),
            claimed: AtomicU32::new(if self.params.network.kept_count { kept } else { 0 }),
            limit,
            budget: if monitor.is_some() { None } else { time },
            started,
            stop,
            own_dead,
            early: early && !unlimited,
        };
        let threads = self.params.threads.max(1);
        let seeds: Vec<u64> = (0..threads).map(|_| self.rng.random()).collect();
        std::thread::scope(|scope| {
            let workers: Vec<_> = seeds
                .iter()
                .map(|&seed| {
                    let shared = &shared;
                    // KataGo's ladder search in the inputs recurses: room for it.
                    std::thread::Builder::new()
                        .stack_size(16 << 20)
                        .spawn_scoped(scope, move || worker(shared, seed))
                        .expect("a search thread")
                })
                .collect();
            if let Some((interval, report)) = monitor.as_mut() {
                let mut next = started + *interval;
                while !workers.iter().all(std::thread::ScopedJoinHandle::is_finished) {
                    std::thread::sleep(Duration::from_millis(5));
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if Instant::now() >= next {
                        let analysis = {
                            let tree = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                            snapshot(&tree.0, &tree.1, tree.2)
                        };
                        report(&analysis);
                        next = Instant::now() + *interval;
                    }
                }
            }
        });
        let (nodes, ownership, evaluations) =
            shared.tree.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.nodes = nodes;
        self.ownership = ownership;
        self.evaluations = evaluations;
        self.root = Some(Root { start_hash: game.start().hash(), moves: game.moves().to_vec() });
        let analysis = self.analysis();
        let best = analysis.moves.first();
        self.report = Some(SearchReport {
            network: true,
            color,
            best: best.map_or(Move::Pass, |m| m.mv),
            win_rate: best.map_or(0.0, |m| m.win_rate),
            lead: Some(best.map_or(0.0, |m| m.score_lead)),
            simulations: self.nodes[0].visits - kept,
            kept,
            seconds: started.elapsed().as_secs_f64(),
            pv: best.map(|m| m.pv.clone()).unwrap_or_default(),
        });
    }

    /// What the last search found.
    fn analysis(&self) -> Analysis {
        snapshot(&self.nodes, &self.ownership, self.evaluations)
    }

    /// Searches `game` for the player to move (within `budget` if given) and reports what the
    /// search found, most visited move first.
    ///
    /// # Panics
    /// When `game` is not in play or is counted by territory (see [`Engine::decide`], which
    /// takes care of both).
    pub fn search(&mut self, game: &Game, budget: Option<Budget>) -> Analysis {
        assert_eq!(game.phase(), Phase::Playing, "a search needs a game in play");
        assert_eq!(game.rules().scoring, Scoring::Area, "the network's inputs encode area counting only");
        self.search_counting(game, budget, &[], false)
    }

    /// [`NetSearch::search`] with the player's stones in `own_dead` taken off when play ends
    /// in the tree, stopped `early` once settled (the move to play).
    fn search_counting(&mut self, game: &Game, budget: Option<Budget>, own_dead: &[Point], early: bool) -> Analysis {
        let stop = AtomicBool::new(false);
        self.run(game, budget, &stop, None, own_dead, early);
        self.analysis()
    }

    /// Searches `game` for `color` like [`Engine::analyze`] does for one search's visits: any
    /// colour (the other side taken to have passed), territory counting searched as area, a
    /// game stopped by two passes searched as if play resumed. No moves when there is nothing
    /// to search.
    pub fn search_for(&mut self, game: &Game, color: Color) -> Analysis {
        let resumed;
        let game = if game.phase() == Phase::Counting {
            let mut g = game.clone();
            if g.resume().is_err() {
                return Analysis::default();
            }
            resumed = g;
            &resumed
        } else {
            game
        };
        match searchable(game, color) {
            Some(g) => self.search(&g, None),
            None => Analysis::default(),
        }
    }

    /// The network's prior for every move of the last search's root (the position searched),
    /// most likely first; empty before the first search.
    #[must_use]
    pub fn root_priors(&self) -> Vec<(Move, f32)> {
        match self.nodes.first() {
            Some(root) if root.state == State::Expanded => {
                let f = root.first_child as usize;
                self.nodes[f..f + root.children as usize].iter().map(|c| (c.mv, c.prior)).collect()
            }
            _ => Vec::new(),
        }
    }

    /// The network's view of `game`'s position, averaged over `symmetries` of the eight (1 to
    /// 8): ownership per point (by `Point::index`, Black's +1 to White's −1).
    fn ownership_of(&self, game: &Game, symmetries: u8) -> Vec<f32> {
        let size = game.board().size();
        let mut own = vec![0f32; Point::TABLE_SIZE];
        // After passes the network reads the position as counted at once, dead stones and all
        // (its inputs carry the passes): the same stones without the history, to be played out.
        let after_pass = matches!(game.moves().last(), Some((_, tengen_core::Move::Pass)));
        let fresh = (after_pass || game.phase() != Phase::Playing).then(|| game.position_only(game.to_move()));
        let game = fresh.as_ref().unwrap_or(game);
        let Ok(input) = input_features(&area_counted(game)) else { return own };
        let n = symmetries.clamp(1, 8);
        let sign = if game.to_move() == Color::Black { 1.0 } else { -1.0 };
        for s in 0..n {
            let raw = self.model.evaluate(&input, s);
            let eval = self.model.model().post_process(&raw, None, 0.0);
            for p in game.board().points() {
                own[p.index()] += sign * eval.ownership[katago_index(p, size)] / f32::from(n);
            }
        }
        own
    }

    /// The network's ownership of each stone of `game` with the stone's owner to move — what
    /// the owner can make of its stones by moving first —, averaged over `symmetries`; an empty
    /// point's as the mean of the two.
    fn ownership_by_owner(&self, game: &Game, symmetries: u8) -> Vec<f32> {
        // The two colours' evaluations on two threads.
        let (black, white) = std::thread::scope(|scope| {
            let white = scope.spawn(|| self.ownership_of(&game.position_only(Color::White), symmetries));
            let black = self.ownership_of(&game.position_only(Color::Black), symmetries);
            (black, white.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        });
        let board = game.board();
        let mut own = vec![0f32; Point::TABLE_SIZE];
        for p in board.points() {
            own[p.index()] = match board.get(p) {
                Some(Color::Black) => black[p.index()],
                Some(Color::White) => white[p.index()],
                None => 0.5 * (black[p.index()] + white[p.index()]),
            };
        }
        own
    }

    /// The stones dead in `game` by the one judgement of life and death (`dead::judge`
    /// on `dead::NETWORK_SCALE`): the network's ownership with each chain's owner to
    /// move, over the eight symmetries, names the chains to suspect, and the playout search's
    /// reading of each (`Mcts::survival`) decides — a network's ownership is an
    /// estimate of who ends up with a point, not a reading of life.
    #[must_use]
    pub fn dead_stones_of(&self, game: &Game) -> Vec<Point> {
        let ownership = self.ownership_by_owner(game, 8);
        let reading = SearchParams { seed: self.params.seed, ..SearchParams::default() };
        let mut read = crate::dead::playout_reader(&reading, game, None);
        crate::dead::judge(game, &ownership, &crate::dead::NETWORK_SCALE, &mut read)
    }

    /// The quick judgement of the search's own decisions (passing, the count of a pass): the
    /// chains the network's ownership for the player to move, over `symmetries`, gives the
    /// opponent beyond 0.4 (never a Benson-alive one), and the stones inside the opponent's
    /// unconditional area. No reading: a search's move has no time for one, and a living group
    /// of the opponent's judged dead here is captured, not counted off.
    fn dead_stones_with(&self, game: &Game, symmetries: u8) -> Vec<Point> {
        let board = game.board();
        let ownership = self.ownership_of(game, symmetries);
        crate::dead::with_unconditional(board, crate::dead::dead_by_ownership(board, &ownership, 0.4))
    }
}

/// `game`, counted by area if it is not already (the only counting the network's inputs
/// encode).
fn area_counted(game: &Game) -> Cow<'_, Game> {
    let mut game = Cow::Borrowed(game);
    if game.rules().scoring != Scoring::Area {
        let rules = Rules { scoring: Scoring::Area, ..*game.rules() };
        game.to_mut().set_rules(rules);
    }
    game
}

/// The game as the network search sees it, `color` to move: GTP lets either colour move and
/// the network needs the player to move, so the other side is taken to have passed; and under
/// territory counting, which the network's inputs do not encode, the same game counted by
/// area (the moves worth playing are the same but for the last dame). `None` when play is
/// over.
fn searchable(game: &Game, color: Color) -> Option<Cow<'_, Game>> {
    if game.phase() != Phase::Playing {
        return None;
    }
    let mut game = area_counted(game);
    if game.to_move() != color {
        game.to_mut().play_as(!color, Move::Pass).ok()?;
    }
    (game.phase() == Phase::Playing).then_some(game)
}

/// A leaf reached by a descent, waiting for its evaluation.
struct Pending {
    /// The nodes from the root to the leaf.
    path: Vec<usize>,
    /// The leaf's position.
    game: Game,
    /// Further descents of this batch that reached the same leaf: they back up its value too.
    again: u32,
}

/// One thread of a search: simulations until the shared limits are reached, their leaves
/// gathered `batch` at a time (each under virtual loss) and evaluated in one forward pass.
fn worker(shared: &Shared<'_>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let batch = shared.params.network.batch_for(shared.game.board().size()).max(1);
    let mut pending: Vec<Pending> = Vec::with_capacity(batch);
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        if let Some(budget) = shared.budget
            && time_is_up(budget, shared.started.elapsed(), shared.claimed.load(Ordering::Relaxed), || {
                top_two(&shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner).0)
            })
        {
            break;
        }
        if shared.early && settled(shared) {
            break;
        }
        let exhausted = gather(shared, batch, &mut pending);
        if !pending.is_empty() {
            evaluate_pending(shared, &mut pending, &mut rng);
        }
        if exhausted {
            break;
        }
    }
}

/// Whether the visits left to the limit are out of reach of the choice ([`out_of_reach`]),
/// while the leader is no move to resign over (a resignation needs the search's full count:
/// `resign_after`).
fn settled(shared: &Shared<'_>) -> bool {
    let left = f64::from(shared.limit.saturating_sub(shared.claimed.load(Ordering::Relaxed)));
    let (first, second) = top_two(&shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner).0);
    out_of_reach(first, second, left) && first.1 >= shared.params.resign_below
}

/// Descends `batch` times, or until the visits run out (then true): each leaf to evaluate is
/// pending once (a second descent to it waits for the same evaluation, as KataGo's threads
/// do); a game that ended in the tree is counted and backed up at once.
fn gather(shared: &Shared<'_>, batch: usize, pending: &mut Vec<Pending>) -> bool {
    let mut moves: Vec<Move> = Vec::with_capacity(64);
    for _ in 0..batch {
        if shared.claimed.fetch_add(1, Ordering::Relaxed) >= shared.limit {
            return true;
        }
        let mut path = Vec::with_capacity(64);
        moves.clear();
        {
            let mut tree = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            descend(&mut tree.0, shared.params, &mut path, &mut moves);
            if let Some(p) = pending.iter_mut().find(|p| p.path.last() == path.last()) {
                p.again += 1;
                continue;
            }
        }
        // Replay the path on the game (outside the lock).
        let mut game = shared.game.clone();
        for &mv in &moves {
            game.play(mv).expect("the tree holds legal moves only");
        }
        if game.phase() == Phase::Playing {
            pending.push(Pending { path, game, again: 0 });
        } else {
            let value = counted(&game, shared.game.to_move(), shared.own_dead);
            let mut tree = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            back_up(shared, &mut tree.0, &path, game.to_move(), value);
        }
    }
    false
}

/// Walks from the root to a leaf by [`select`], counting the visit as running on every node of
/// the path.
fn descend(nodes: &mut [Node], params: &SearchParams, path: &mut Vec<usize>, moves: &mut Vec<Move>) {
    let mut id = 0;
    loop {
        path.push(id);
        nodes[id].visits += 1;
        nodes[id].running += 1;
        if nodes[id].state != State::Expanded {
            return;
        }
        id = select(nodes, params, id);
        moves.push(nodes[id].mv);
    }
}

/// Evaluates the pending leaves in one forward pass (each under a random symmetry), expands
/// them and backs their values up.
fn evaluate_pending(shared: &Shared<'_>, pending: &mut Vec<Pending>, rng: &mut SmallRng) {
    let games: Vec<(&Game, u8)> = pending.iter().map(|p| (&p.game, rng.random_range(0..8))).collect();
    let evals = evaluate_games(shared.model, &games).expect("area scoring (checked before the search)");
    let mut tree = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let (nodes, own_sum, evaluations) = &mut *tree;
    for (p, e) in pending.drain(..).zip(evals) {
        let leaf = *p.path.last().expect("a path");
        let to_move = p.game.to_move();
        // Another thread may have expanded it meanwhile.
        if nodes[leaf].state == State::Leaf {
            nodes[leaf].first_child = nodes.len() as u32;
            nodes[leaf].children = e.moves.len() as u32;
            nodes[leaf].state = State::Expanded;
            nodes.extend(e.moves.iter().map(|&(mv, prior)| Node::new(mv, to_move, prior)));
        }
        own_sum.iter_mut().zip(&e.ownership).for_each(|(s, o)| *s += f64::from(*o));
        *evaluations += 1;
        for _ in 0..=p.again {
            back_up(shared, nodes, &p.path, to_move, Value { win: e.win, lead: e.lead });
        }
    }
}

/// Ends the running visit on every node of `path` with `value`, the leaf's worth to
/// `to_move`.
fn back_up(shared: &Shared<'_>, nodes: &mut [Node], path: &[usize], to_move: Color, value: Value) {
    let utility = utility(shared, value);
    for &k in path {
        let n = &mut nodes[k];
        n.running -= 1;
        let mine = n.player == to_move;
        let (u, w, l) =
            if mine { (utility, value.win, value.lead) } else { (1.0 - utility, 1.0 - value.win, -value.lead) };
        n.utility += u;
        n.wins += w;
        n.lead += l;
        n.lead_sq += l * l;
    }
}

/// The utility of `value` for the player it is for: (1 − w) × win + w × (½ + ½ tanh(lead /
/// board size)).
fn utility(shared: &Shared<'_>, value: Value) -> f64 {
    let w = f64::from(shared.params.score_weight);
    let scale = shared.game.board().size() as f64;
    (1.0 - w) * value.win + w * (0.5 + 0.5 * (value.lead / scale).tanh())
}

/// A game that ended in the tree, counted for the player to move: as it stands but for the
/// stones of `searcher` (the player the search is for) in `own_dead` still on the board.
fn counted(game: &Game, searcher: Color, own_dead: &[Point]) -> Value {
    let score = game.score(&crate::dead::stones_of(game.board(), searcher, own_dead));
    let black_margin = f64::from(score.margin()) / 2.0;
    let me = game.to_move();
    let lead = if me == Color::Black { black_margin } else { -black_margin };
    let win = match score.winner() {
        Some(c) if c == me => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    };
    Value { win, lead }
}

/// The child of `id` to descend into, by PUCT with first-play urgency.
fn select(nodes: &[Node], params: &SearchParams, id: usize) -> usize {
    let parent = &nodes[id];
    let first = parent.first_child as usize;
    let children = &nodes[first..first + parent.children as usize];
    let total: u32 = children.iter().map(|c| c.visits).sum();
    let total = f64::from(total);
    // KataGo's exploration: cpuct (1 + 0.45 ln((N + 500) / 500)) on its −1…1 scale, halved here.
    let cpuct = f64::from(params.network.cpuct) * (1.0 + 0.45 * ((total + 500.0) / 500.0).ln());
    let explore = cpuct * (total + 0.01).sqrt();
    // The parent's utility for the player to move there.
    let parent_utility = if parent.done() > 0 { 1.0 - parent.utility / f64::from(parent.done()) } else { 0.5 };
    let explored: f64 = children.iter().filter(|c| c.visits > 0).map(|c| f64::from(c.prior)).sum();
    let reduction = f64::from(params.network.fpu_reduction) * if id == 0 { 0.5 } else { 1.0 };
    let fpu = parent_utility - reduction * explored.sqrt();
    let mut best = first;
    let mut best_value = f64::NEG_INFINITY;
    for (k, c) in children.iter().enumerate() {
        let q = if c.visits > 0 { c.utility / f64::from(c.visits) } else { fpu };
        let value = q + explore * f64::from(c.prior) / (1.0 + f64::from(c.visits));
        if value > best_value {
            best_value = value;
            best = first + k;
        }
    }
    best
}

/// What the tree says: the root's visited moves, most visited first (then by win rate).
fn snapshot(nodes: &[Node], ownership: &[f64], evaluations: u32) -> Analysis {
    let root = nodes[0];
    if root.state != State::Expanded {
        return Analysis::default();
    }
    let first = root.first_child as usize;
    let mut moves: Vec<MoveStats> = nodes[first..first + root.children as usize]
        .iter()
        .enumerate()
        .filter(|(_, c)| c.done() > 0)
        .map(|(k, c)| {
            let n = f64::from(c.done());
            let mean = c.lead / n;
            let mut pv = vec![c.mv];
            pv.extend(best_line(nodes, first + k, 11));
            MoveStats {
                mv: c.mv,
                visits: c.done(),
                win_rate: (c.wins / n) as f32,
                score_lead: mean as f32,
                score_stdev: (c.lead_sq / n - mean * mean).max(0.0).sqrt() as f32,
                prior: c.prior,
                pv,
            }
        })
        .collect();
    moves.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.win_rate.total_cmp(&a.win_rate)));
    let scale = 1.0 / f64::from(evaluations.max(1));
    Analysis { playouts: root.done(), moves, ownership: ownership.iter().map(|o| (o * scale) as f32).collect() }
}

impl Engine for NetSearch {
    fn clear(&mut self) {
        self.root = None;
        self.nodes.clear();
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
        let Some(game) = searchable(game, color) else { return false };
        self.run(&game, None, stop, Some((interval, report)), &[], false);
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

impl NetSearch {
    /// The move the search chooses, before the etiquette of the first move.
    fn decide_freely(&mut self, game: &Game, color: Color, budget: Option<Budget>) -> Decision {
        // Whether the opponent passed really, not in the pass `searchable` may add.
        let opponent_passed = matches!(game.moves().last(), Some(&(c, Move::Pass)) if c != color);
        let Some(game) = searchable(game, color) else { return Decision::Play(Move::Pass) };
        // The opponent passed: pass too when the count, with the stones the network judges
        // dead taken off, wins and none of the opponent's dead stones is left to take.
        // Judged once: the same list decides a pass the search prefers below.
        // Never while the game is open (`dead::undecided`).
        let mut dead = None;
        if opponent_passed {
            let judged = self.dead_stones_with(&game, 2);
            if crate::dead::passes_back(&game, color, &judged) {
                return Decision::Play(Move::Pass);
            }
            dead = Some(judged);
        }
        // The pass that would end the game is counted with the player's dead stones off — in a
        // fresh tree, whose ended games were all counted so.
        let own_dead = dead.as_deref().map_or_else(Vec::new, |d| crate::dead::stones_of(game.board(), color, d));
        if !own_dead.is_empty() {
            self.clear();
        }
        let early = self.params.stop_early && self.params.temperature == 0.0;
        let analysis = self.search_counting(&game, budget, &own_dead, early);
        if analysis.moves.is_empty() {
            return Decision::Play(Move::Pass);
        }
        let moves: Vec<Candidate> =
            analysis.moves.iter().map(|m| Candidate { mv: m.mv, visits: m.visits, win_rate: m.win_rate }).collect();
        // The searchable game is in play.
        let at = Position { board: game.board(), color, in_play: true, opponent_passed };
        let resign_after = self.params.resign_after.min(self.params.playouts.cap());
        let manner = Manner { resign_streak: 1, resign_after, clean_up: false };
        // Judged only when the choice needs it: a pass to replace.
        let dead = match dead {
            Some(dead) => dead,
            None if needs_dead(&at, &moves, &manner) => self.dead_stones_with(&game, 2),
            None => Vec::new(),
        };
        choose(&at, &moves, analysis.playouts, &dead, &self.params, &manner, &mut 0, &mut self.rng)
    }
}

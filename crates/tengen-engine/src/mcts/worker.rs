//! A thread's share of a search: simulations, each a descent, a playout, a score and a
//! back-up.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Board, Color, Game, Move, Point};

use super::priors::{candidate_moves, expansion_priors};
use super::replies::remembered_reply;
use super::select::select;
use super::tree::{Node, PASS, add_children, point, position_key, snapshot};
use super::{Monitor, Stop};
use crate::arena::top_two;
use crate::budget::{Budget, Leader, out_of_reach, time_is_up, unsettled};
use crate::params::Limit;
use crate::params::SearchParams;
use crate::predictor::Tactics;
use crate::shapes::ShapeTable;

/// One thread's share of a search: its random generator and scratch space, kept between
/// searches so that a move allocates nothing once warm.
pub(super) struct Worker {
    pub(super) rng: SmallRng,
    pub(super) board: Board,
    /// The simulation's moves (point index or PASS, player).
    pub(super) sequence: Vec<(u16, u8)>,
    /// First player (1 + colour) to play each point after a node.
    pub(super) first: Vec<u8>,
    /// Where in `sequence` each point was first played (read only where `first` is set, and
    /// only with [`PlayoutParams::rave_distance`](crate::PlayoutParams::rave_distance)).
    pub(super) first_at: Vec<u16>,
    /// The nodes of the descent, root first.
    pub(super) path: Vec<usize>,
    /// Children found for the leaf while the tree was unlocked, added when it is locked again.
    pub(super) children: Vec<u16>,
    /// Their priors, (simulations, wins).
    pub(super) priors: Vec<(f32, f32)>,
    /// Their tactics, read once for the priors and the predictor.
    pub(super) tactics: Vec<Tactics>,
    /// Ownership summed over this worker's sampled playouts.
    pub(super) ownership: Vec<f32>,
    /// Simulations finished in the current search (one in four gave `ownership` its board).
    pub(super) playouts: u32,
    /// Last good replies: per player to move (0 Black, 1 White) and opponent's move (a point
    /// index), the reply that last won (0: none). Kept between searches.
    pub(super) replies: Vec<u16>,
    /// The same per player, own move before the opponent's, and opponent's move (LGRF-2);
    /// empty until [`PlayoutParams::last_good_reply_2`](crate::PlayoutParams::last_good_reply_2) asks for it.
    pub(super) replies_2: Vec<u16>,
}

impl Worker {
    pub(super) fn new(seed: u64) -> Worker {
        Worker {
            rng: SmallRng::seed_from_u64(seed),
            board: Board::new(2).expect("a 2×2 board"),
            sequence: Vec::new(),
            first: vec![0; Point::TABLE_SIZE],
            first_at: vec![0; Point::TABLE_SIZE],
            path: Vec::with_capacity(64),
            children: Vec::new(),
            priors: Vec::new(),
            tactics: Vec::new(),
            ownership: vec![0.0; Point::TABLE_SIZE],
            playouts: 0,
            replies: vec![0; 2 * Point::TABLE_SIZE],
            replies_2: Vec::new(),
        }
    }
}

/// Where a simulation's descent stopped.
pub(super) struct Leaf {
    /// The player to move there.
    pub(super) to_play: Color,
    /// Passes in a row before it (the opponent's pass before the search counted).
    pub(super) passes: u32,
    /// Two passes ended the game in the tree.
    pub(super) ended: bool,
    /// Its children are to be added.
    pub(super) expand: bool,
}

/// A simulation's result.
pub(super) struct Scored {
    /// Black's score on the final board.
    score: f32,
    /// Black's win: 1, 0, ½ for a draw (in a reading, the share of the goal's points Black owns).
    black_wins: f32,
    /// What selection maximises for Black (see [`SearchParams::score_weight`]).
    black_utility: f32,
    /// The referee's count, when two passes ended the game in the tree.
    terminal: Option<tengen_core::OwnerMap>,
    /// The final board goes into the ownership.
    sampled: bool,
}

/// What every worker of one search reads.
pub(super) struct Shared<'a> {
    pub(super) params: &'a SearchParams,
    pub(super) tree: Mutex<Vec<Node>>,
    pub(super) root_board: &'a Board,
    pub(super) color: Color,
    pub(super) komi_and_bonus: f32,
    /// The margin (in points) at which the score term of the utility is at tanh(1).
    pub(super) score_scale: f32,
    pub(super) opponent_passed: bool,
    pub(super) max_moves: u32,
    /// Stones captured by Black and by White on the root board.
    pub(super) root_captures: [u32; 2],
    /// The searching player's stones that the status playouts call dead on the root board:
    /// taken off when two passes end the game inside the tree (see [`terminal_owners`]).
    /// `None` in a status search ([`Ending::PlayedOut`]), where two passes do not end it.
    pub(super) own_dead: Option<Vec<Point>>,
    /// The capture lead that ends a playout ([`PlayoutParams::mercy`](crate::PlayoutParams::mercy)), if on.
    pub(super) mercy: Option<u32>,
    pub(super) started: Instant,
    /// Simulations claimed so far, by all workers.
    pub(super) claimed: AtomicU32,
    /// Expanded nodes by position key (see [`position_key`]), when transpositions are on.
    /// Locked only while the tree is locked.
    pub(super) table: Mutex<std::collections::HashMap<u64, u32>>,
    /// Simulations after which the search stops ([`Limit::cap`]), unless the choice is
    /// unsettled then and `most` is higher.
    pub(super) limit: u32,
    /// Simulations after which the search stops however unsettled the choice
    /// ([`PlayoutParams::close_extension`](crate::PlayoutParams::close_extension)).
    pub(super) most: u32,
    /// When the search stops for time: the move's budget, or a fixed `params.time`.
    pub(super) budget: Option<Budget>,
    /// Stop once the simulations left to `limit` could not change the most visited move.
    pub(super) early: bool,
    /// The last move of the game before the search, if a stone: the player's own previous
    /// move at the root's children.
    pub(super) last_move: Option<Point>,
    /// Set when the time is up.
    pub(super) stop: AtomicBool,
    /// In a reading ([`Ending::Reading`]): the stones whose owner at the end wins.
    pub(super) goal: Option<Vec<Point>>,
}

impl<'a> Shared<'a> {
    /// A search of `game` for `color` from the tree `nodes` (the root at 0), `own_dead` as
    /// [`Shared::own_dead`].
    pub(super) fn new(
        params: &'a SearchParams,
        game: &'a Game,
        color: Color,
        nodes: Vec<Node>,
        stop: Stop,
        own_dead: Option<Vec<Point>>,
        started: Instant,
    ) -> Self {
        let root_board = game.board();
        let rules = game.rules();
        let bonus = rules.handicap_bonus.points(game.handicap()) as f32;
        let points = (root_board.size() * root_board.size()) as u32;
        Shared {
            params,
            tree: Mutex::new(nodes),
            root_board,
            color,
            komi_and_bonus: rules.komi.points() as f32 + bonus,
            score_scale: root_board.size() as f32,
            opponent_passed: own_dead.is_some() && matches!(game.moves().last(), Some(&(c, Move::Pass)) if c != color),
            max_moves: 3 * points,
            root_captures: [root_board.captures(Color::Black), root_board.captures(Color::White)],
            own_dead,
            mercy: (params.playout.mercy > 0.0).then_some((params.playout.mercy * points as f32) as u32),
            started,
            claimed: AtomicU32::new(0),
            table: Mutex::new(std::collections::HashMap::new()),
            limit: stop.limit.cap(),
            most: match stop.limit {
                Limit::Simulations(n) if stop.extend => (f64::from(n)
                    * f64::from(params.playout.close_extension.max(1.0)))
                .min(f64::from(Limit::Unlimited.cap())) as u32,
                _ => stop.limit.cap(),
            },
            budget: stop.budget,
            early: stop.early,
            last_move: crate::decide::recent_stones(game, color).0,
            stop: AtomicBool::new(false),
            goal: None,
        }
    }
}

/// Who owns each point of `board` when two passes end the game inside the tree: a
/// referee's count (empty regions bordered by one colour are that colour's — the board is not
/// filled in, so the playouts' count of stones and one-point eyes would hand the game to the
/// side with more stones on the board), with the searching player `color`'s chains through
/// `dead` (its stones that the status playouts call dead) taken off. Its own dead stones, not
/// the opponent's: its count can only be too low. Counting the board as it stood, dead stones
/// alive, the engine passed won games away.
pub(super) fn terminal_owners(board: &mut Board, color: Color, dead: &[Point]) -> tengen_core::OwnerMap {
    for &p in dead {
        if board.get(p) == Some(color) {
            board.remove_chain_at(p);
        }
    }
    tengen_core::count::area_owners(board, &[])
}

/// +1 for Black's point, −1 for White's, 0 for a shared one.
pub(super) fn owner_value(owner: tengen_core::Owner) -> f32 {
    match owner {
        tengen_core::Owner::Black => 1.0,
        tengen_core::Owner::White => -1.0,
        _ => 0.0,
    }
}

/// +1 for Black's stone or point, −1 for White's, 0 otherwise (the playout's final board).
pub(super) fn owner(board: &Board, p: Point) -> f32 {
    match board.area_owner(p) {
        Some(Color::Black) => 1.0,
        Some(Color::White) => -1.0,
        None => 0.0,
    }
}

/// The root's two most visited moves, the tree locked for the look.
fn leaders(shared: &Shared<'_>) -> (Leader, Leader) {
    top_two(&shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
}

/// Whether the simulations left to the search's limit are out of reach of the choice
/// ([`out_of_reach`]) — and, when the search may go on past its limit, the choice is settled
/// ([`unsettled`]); never before `resign_after` simulations, which a search needs to resign.
fn settled(shared: &Shared<'_>) -> bool {
    let claimed = shared.claimed.load(Ordering::Relaxed);
    let left = f64::from(shared.limit.saturating_sub(claimed));
    claimed >= shared.params.resign_after && {
        let (first, second) = leaders(shared);
        out_of_reach(first, second, left) && (shared.most <= shared.limit || !unsettled(first, second))
    }
}

/// Whether a search at or past its limit stops at simulation `claimed`: at `most`, or at the
/// limit and every 64 simulations after it once the choice is settled ([`unsettled`]).
pub(super) fn past_limit(shared: &Shared<'_>, claimed: u32) -> bool {
    claimed >= shared.most
        || ((claimed - shared.limit).is_multiple_of(64) && {
            let (first, second) = leaders(shared);
            !unsettled(first, second)
        })
}

impl Worker {
    /// Runs simulations until the shared budget of simulations or time is spent.
    pub(super) fn run(&mut self, shared: &Shared<'_>, mut monitor: Option<&mut Monitor<'_>>) {
        self.playouts = 0;
        self.ownership.iter_mut().for_each(|o| *o = 0.0);
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(m) = monitor.as_deref_mut() {
                if m.stop.load(Ordering::Relaxed) {
                    shared.stop.store(true, Ordering::Relaxed);
                    break;
                }
                if self.playouts.is_multiple_of(16) && m.last.elapsed() >= m.interval {
                    let analysis = {
                        let nodes = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        let sampled = self.playouts.div_ceil(4);
                        snapshot(&nodes, shared.claimed.load(Ordering::Relaxed), &self.ownership, sampled)
                    };
                    m.last = Instant::now();
                    (m.report)(&analysis);
                }
            }
            if self.playouts.is_multiple_of(64)
                && let Some(budget) = shared.budget
                && time_is_up(budget, shared.started.elapsed(), shared.claimed.load(Ordering::Relaxed), || {
                    leaders(shared)
                })
            {
                shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            if self.playouts.is_multiple_of(64) && shared.early && settled(shared) {
                shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            let claimed = shared.claimed.fetch_add(1, Ordering::Relaxed);
            if claimed >= shared.limit && past_limit(shared, claimed) {
                shared.stop.store(true, Ordering::Relaxed);
                break;
            }
            self.simulate(shared);
            self.playouts += 1;
        }
    }

    /// One simulation: descend (tree locked), expand and play out (unlocked), score, back up
    /// (locked).
    pub(super) fn simulate(&mut self, shared: &Shared<'_>) {
        let leaf = self.descend(shared);
        if leaf.expand {
            self.expand(shared, leaf.to_play);
        }
        let tree_moves = self.sequence.len();
        let scored = self.score(shared, &leaf);
        self.first_players(tree_moves);
        if shared.params.playout.last_good_reply {
            self.learn_replies(scored.black_wins);
        }
        {
            let mut nodes = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let id = *self.path.last().expect("the root at least");
            if leaf.expand && !nodes[id].expanded {
                let in_value = shared.params.playout.priors_in_value;
                add_children(&mut nodes, id, leaf.to_play, (&self.children, &self.priors), in_value);
            }
            self.back_up(
                &mut nodes,
                (tree_moves, shared.params.playout.rave_distance),
                scored.black_wins,
                scored.score,
                scored.black_utility,
            );
        }
        // Ownership from every fourth playout: the same expectation for a quarter of the
        // scans (measured: see the commit).
        if scored.sampled {
            match &scored.terminal {
                Some(owners) => {
                    for (q, o) in owners.iter() {
                        self.ownership[q.index()] += owner_value(o);
                    }
                }
                None => {
                    for q in self.board.points() {
                        self.ownership[q.index()] += owner(&self.board, q);
                    }
                }
            }
        }
    }

    /// The descent from the root by [`select`], the tree locked, playing the path's moves on
    /// the worker's board: where it stopped, and whether the leaf is to be expanded (its
    /// second visit, unless the tree is full or a transposition already holds its children).
    fn descend(&mut self, shared: &Shared<'_>) -> Leaf {
        let params = shared.params;
        self.board.copy_from(shared.root_board);
        self.path.clear();
        self.sequence.clear();
        self.children.clear();
        let mut leaf =
            Leaf { to_play: shared.color, passes: u32::from(shared.opponent_passed), ended: false, expand: false };
        let mut nodes = shared.tree.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut id = 0usize;
        nodes[0].visits += 1;
        self.path.push(0);
        // Shared children (transpositions) could lead round a cycle of positions: the
        // descent stops at the game's move cap.
        while nodes[id].expanded && self.sequence.len() < shared.max_moves as usize {
            id = select(&nodes, params, id);
            nodes[id].visits += 1;
            self.path.push(id);
            let mv = nodes[id].mv;
            if mv == PASS {
                self.board.pass();
                leaf.passes += 1;
            } else {
                self.board.play_unchecked(point(mv), leaf.to_play);
                leaf.passes = 0;
            }
            self.sequence.push((mv, leaf.to_play.index() as u8));
            leaf.to_play = !leaf.to_play;
            if leaf.passes >= 2 && shared.own_dead.is_some() {
                leaf.ended = true;
                return leaf;
            }
        }
        if !nodes[id].expanded
            && nodes[id].visits >= params.playout.expand_after
            && nodes.len() < params.playout.max_nodes
        {
            leaf.expand = true;
            if params.playout.transpositions {
                let key = position_key(&self.board, leaf.to_play, leaf.passes > 0);
                let mut table = shared.table.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                match table.get(&key).map(|&t| t as usize) {
                    Some(other) if other != id && nodes[other].expanded => {
                        let (first, children) = (nodes[other].first_child, nodes[other].children);
                        let node = &mut nodes[id];
                        node.first_child = first;
                        node.children = children;
                        node.expanded = true;
                        leaf.expand = false;
                    }
                    _ => {
                        table.insert(key, id as u32);
                    }
                }
            }
        }
        leaf
    }

    /// The leaf's children for `to_play` and their priors, found unlocked and added at the
    /// back-up unless another thread did.
    fn expand(&mut self, shared: &Shared<'_>, to_play: Color) {
        candidate_moves(&self.board, to_play, None, &mut self.children);
        let last = self.sequence.last().filter(|m| m.0 != PASS).map(|m| point(m.0));
        // The player's own move before the last: in the tree, or the game's last move at the
        // root's children.
        let previous = match self.sequence.len() {
            0 => None,
            1 => shared.last_move,
            n => Some(self.sequence[n - 2].0).filter(|&m| m != PASS).map(point),
        };
        let (board, moves) = (&self.board, &self.children);
        expansion_priors(board, to_play, moves, (last, previous), shared.params, &mut self.tactics, &mut self.priors);
    }

    /// The playout from the leaf and the count of its final board: Black's score (area minus
    /// komi and handicap bonus — counted by [`terminal_owners`] when two passes ended the game
    /// in the tree —, or two points a stone of the capture lead less the same when the mercy
    /// rule ended the playout), Black's win and utility.
    fn score(&mut self, shared: &Shared<'_>, leaf: &Leaf) -> Scored {
        let params = shared.params;
        // Every fourth playout gives its final board to the ownership, so it is played to the
        // end: the mercy rule would leave it unfinished (and skipping those it ends would
        // bias the ownership towards the playouts without a rout).
        let sampled = self.playouts.is_multiple_of(4);
        // A status search's playout ends only on two passes of its own (the tree's do not
        // end the game), so that its final board is played out.
        let pending = if shared.own_dead.is_some() { leaf.passes } else { 0 };
        let mercy = if leaf.ended { None } else { self.play_out(shared, leaf.to_play, pending, !sampled) };
        let terminal = leaf
            .ended
            .then(|| terminal_owners(&mut self.board, shared.color, shared.own_dead.as_deref().unwrap_or_default()));
        let score = match (mercy, &terminal) {
            // Against the komi as well: a komi no board can make up stays lost (±361).
            (Some(lead), _) => 2.0 * lead as f32 - shared.komi_and_bonus,
            (None, Some(owners)) => owners.iter().map(|(_, o)| owner_value(o)).sum::<f32>() - shared.komi_and_bonus,
            (None, None) => self.board.area_score() as f32 - shared.komi_and_bonus,
        };
        let black_wins = if let Some(goal) = &shared.goal {
            let black = goal.iter().filter(|&&q| self.board.area_owner(q) == Some(Color::Black)).count();
            black as f32 / goal.len().max(1) as f32
        } else if score > 0.0 {
            1.0
        } else if score < 0.0 {
            0.0
        } else {
            0.5
        };
        let w = if shared.goal.is_some() { 0.0 } else { params.score_weight };
        let black_utility = if w > 0.0 {
            (1.0 - w) * black_wins + w * (0.5 + 0.5 * (score / shared.score_scale).tanh())
        } else {
            black_wins
        };
        Scored { score, black_wins, black_utility, terminal, sampled }
    }

    /// Plays playout moves until two passes in a row, the move cap, or (with `mercy`) the
    /// mercy rule; in the last case returns Black's capture lead since the simulation began
    /// (negative: White's).
    pub(super) fn play_out(
        &mut self,
        shared: &Shared<'_>,
        mut to_play: Color,
        passes: u32,
        mercy: bool,
    ) -> Option<i32> {
        let params = shared.params;
        let mut turns = 0;
        let mut p = if passes > 0 { 1 } else { 0 };
        let mut last = self.sequence.last().filter(|m| m.0 != PASS).map(|m| point(m.0));
        let mut own = match self.sequence.len() {
            n if n >= 2 && self.sequence[n - 2].0 != PASS => Some(point(self.sequence[n - 2].0)),
            _ => None,
        };
        let shapes = (params.playout.playout_shapes > 0.0)
            .then(|| (ShapeTable::playout_weights(), params.playout.playout_shapes));
        if params.playout.last_good_reply_2 && self.replies_2.is_empty() {
            self.replies_2 = vec![0; 2 * Point::TABLE_SIZE * Point::TABLE_SIZE];
        }
        while p < 2 && turns < shared.max_moves {
            let (board, tables) = (&self.board, (&self.replies[..], &self.replies_2[..]));
            let reply = || {
                let l = last.filter(|_| params.playout.last_good_reply)?;
                let tables = if params.playout.last_good_reply_2 { tables } else { (tables.0, &[][..]) };
                remembered_reply(board, tables, own, l, to_play)
            };
            let policy = &params.playout.policy;
            let choice = if params.playout.urgent_first {
                board.policy_move_replying(to_play, last, policy, shapes, reply, &mut self.rng)
            } else {
                reply().or_else(|| board.policy_move_shaped(to_play, last, policy, shapes, &mut self.rng))
            };
            own = last;
            last = choice;
            match choice {
                Some(q) => {
                    let played = self.board.play_unhashed(q, to_play);
                    self.sequence.push((q.index() as u16, to_play.index() as u8));
                    p = 0;
                    if played.captured > 0
                        && mercy
                        && let Some(threshold) = shared.mercy
                    {
                        let lead = self.capture_lead(shared);
                        if lead.unsigned_abs() > threshold {
                            return Some(lead);
                        }
                    }
                }
                None => {
                    self.board.pass();
                    p += 1;
                }
            }
            to_play = !to_play;
            turns += 1;
        }
        None
    }

    /// Black's captures less White's since the root position.
    pub(super) fn capture_lead(&self, shared: &Shared<'_>) -> i32 {
        let [black, white] = shared.root_captures;
        (self.board.captures(Color::Black) - black) as i32 - (self.board.captures(Color::White) - white) as i32
    }

    /// The first player of each point in the playout part of the simulation (unlocked: the
    /// back-up's tree moves overwrite it as they go up).
    pub(super) fn first_players(&mut self, tree_moves: usize) {
        self.first.fill(0);
        for (i, &(mv, player)) in self.sequence.iter().enumerate().skip(tree_moves).rev() {
            self.first[mv as usize] = player + 1;
            self.first_at[mv as usize] = i as u16;
        }
    }

    /// Backs a result up the path, with AMAF updates of every path node's children (weighed
    /// by how soon each move was played, with [`PlayoutParams::rave_distance`](crate::PlayoutParams::rave_distance)). The
    /// visits were counted on the way down.
    pub(super) fn back_up(
        &mut self,
        nodes: &mut [Node],
        (tree_moves, distance): (usize, f32),
        black_wins: f32,
        black_score: f32,
        black_utility: f32,
    ) {
        let length = self.sequence.len();
        for depth in (0..self.path.len()).rev() {
            let id = self.path[depth];
            let node = &mut nodes[id];
            node.wins += if node.player == 0 { black_wins } else { 1.0 - black_wins };
            node.utility += if node.player == 0 { black_utility } else { 1.0 - black_utility };
            node.score += if node.player == 0 { black_score } else { -black_score };
            node.score_sq += black_score * black_score;
            if depth < tree_moves {
                // The move made from this node is `sequence[depth]`.
                let (mv, player) = self.sequence[depth];
                if mv != PASS {
                    self.first[mv as usize] = player + 1;
                    self.first_at[mv as usize] = depth as u16;
                }
            }
            let node = nodes[id];
            if !node.expanded {
                continue;
            }
            let children = &mut nodes[node.first_child as usize..(node.first_child + node.children) as usize];
            if distance > 0.0 && length > depth {
                // A hit at sequence index f weighs 1 + distance × (length − f) / (length − depth).
                let scale = distance / (length - depth) as f32;
                for child in children {
                    if self.first[child.mv as usize] == child.player + 1 {
                        let weight = 1.0 + scale * (length - self.first_at[child.mv as usize] as usize) as f32;
                        child.rave_visits += weight;
                        child.rave_wins += weight * if child.player == 0 { black_wins } else { 1.0 - black_wins };
                    }
                }
            } else {
                // Without a branch (which move the playout played first is a coin toss for
                // the branch predictor): a miss adds 0. `first[PASS]` is never set, so a pass never
                // hits.
                for child in children {
                    let hit = f32::from(u8::from(self.first[child.mv as usize] == child.player + 1));
                    child.rave_visits += hit;
                    child.rave_wins += hit * if child.player == 0 { black_wins } else { 1.0 - black_wins };
                }
            }
        }
    }
}

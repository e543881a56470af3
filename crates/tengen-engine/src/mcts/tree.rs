//! The tree: nodes in an arena, their children, the principal variation, the tree kept
//! between moves.

use tengen_core::{Board, Color, Game, Move, Point};

use super::Mcts;
use super::priors::Opening;
use crate::arena::{ArenaNode, best_line};
use crate::engine::{Analysis, MoveStats};

pub(super) const PASS: u16 = 0;

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Node {
    /// The move into this node (a point index, or `PASS`).
    pub(super) mv: u16,
    /// Who made it: 0 Black, 1 White.
    pub(super) player: u8,
    /// Simulations through this node, the running ones included (virtual loss: a running
    /// simulation counts as a visit without a win until it is backed up).
    pub(super) visits: u32,
    /// Wins for `player`.
    pub(super) wins: f32,
    /// What selection maximises, summed for `player`: wins blended with the score margin
    /// (see [`SearchParams::score_weight`]).
    pub(super) utility: f32,
    /// Final scores (area minus komi) summed from `player`'s side.
    pub(super) score: f32,
    /// Their squares.
    pub(super) score_sq: f32,
    pub(super) rave_visits: f32,
    pub(super) rave_wins: f32,
    /// Prior knowledge counted in the node's own statistics (with
    /// [`PlayoutParams::priors_in_value`](crate::PlayoutParams::priors_in_value); otherwise it is in the AMAF ones).
    pub(super) prior_visits: f32,
    pub(super) prior_wins: f32,
    pub(super) first_child: u32,
    pub(super) children: u32,
    pub(super) expanded: bool,
}

impl ArenaNode for Node {
    fn mv(&self) -> Move {
        to_move(self.mv)
    }

    fn visits(&self) -> u32 {
        self.visits
    }

    fn wins(&self) -> f64 {
        f64::from(self.wins)
    }

    fn children(&self) -> std::ops::Range<usize> {
        if self.expanded { self.first_child as usize..(self.first_child + self.children) as usize } else { 0..0 }
    }
}

/// Longest principal variation reported.
pub(super) const PV_LENGTH: usize = 12;

/// What the tree says so far; `ownership` is one worker's sum over `sampled` playouts.
pub(super) fn snapshot(nodes: &[Node], playouts: u32, ownership: &[f32], sampled: u32) -> Analysis {
    let root = nodes[0];
    let first = root.first_child as usize;
    let children = &nodes[first..first + root.children as usize];
    let prior = 1.0 / children.len().max(1) as f32;
    let mut moves: Vec<(usize, &Node)> = children.iter().enumerate().filter(|(_, c)| c.visits > 0).collect();
    moves.sort_by(|a, b| b.1.visits.cmp(&a.1.visits).then(b.1.wins.total_cmp(&a.1.wins)));
    let moves = moves
        .into_iter()
        .map(|(i, child)| {
            let mut pv = vec![to_move(child.mv)];
            pv.extend(best_line(nodes, first + i, PV_LENGTH - 1));
            let n = child.visits as f32;
            let mean = child.score / n;
            MoveStats {
                mv: to_move(child.mv),
                visits: child.visits,
                win_rate: child.wins / n,
                score_lead: mean,
                score_stdev: (child.score_sq / n - mean * mean).max(0.0).sqrt(),
                prior,
                pv,
            }
        })
        .collect();
    let scale = 1.0 / sampled.max(1) as f32;
    Analysis { playouts, moves, ownership: ownership.iter().map(|o| o * scale).collect() }
}

/// Copies the subtree under `id` of `old` into a fresh arena, root first, each node's children
/// still contiguous; at the root only the children `keep` accepts.
pub(super) fn compact(old: &[Node], id: usize, keep: impl Fn(&Node) -> bool) -> Vec<Node> {
    let mut nodes = Vec::with_capacity(old.len() / 4 + 1);
    nodes.push(old[id]);
    // (old id, new id) of the nodes whose children are still to be copied.
    let mut queue = std::collections::VecDeque::from([(id, 0usize)]);
    // Children shared by transposed nodes are copied once: old first child → new.
    let mut copied: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut at_root = true;
    while let Some((from, to)) = queue.pop_front() {
        let node = old[from];
        if !node.expanded {
            continue;
        }
        if !at_root && let Some(&first) = copied.get(&node.first_child) {
            nodes[to].first_child = first;
            continue;
        }
        let first = nodes.len();
        if !at_root {
            copied.insert(node.first_child, first as u32);
        }
        let range = node.first_child as usize..(node.first_child + node.children) as usize;
        for (c, child) in range.clone().zip(&old[range]) {
            if at_root && !keep(child) {
                continue;
            }
            queue.push_back((c, nodes.len()));
            nodes.push(*child);
        }
        at_root = false;
        nodes[to].first_child = first as u32;
        nodes[to].children = (nodes.len() - first) as u32;
    }
    nodes
}

pub(super) fn to_move(mv: u16) -> Move {
    if mv == PASS { Move::Pass } else { Move::Play(point(mv)) }
}

pub(super) fn point(index: u16) -> Point {
    // Every index stored in the tree came from a point of the board.
    Point::from_index(usize::from(index))
}

/// The key of a position in the tree: the stones' hash, the player to move, the simple-ko
/// point and whether the last move was a pass (a second one ends the game).
pub(super) fn position_key(board: &Board, to_play: Color, passed: bool) -> u64 {
    let ko = board.ko().map_or(0, |(p, _)| p.index() as u64 + 1);
    board.hash()
        ^ (to_play.index() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ ko.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
        ^ u64::from(passed).wrapping_mul(0x1656_67b1_9e37_79f9)
}

/// Adds `moves` and a pass as the children of `id`, made by `player`; with `priors` (one per
/// move), their AMAF statistics start from those — or, `in_value`, their own
/// ([`Node::prior_visits`]).
pub(super) fn add_children(
    nodes: &mut Vec<Node>,
    id: usize,
    player: Color,
    (moves, priors): (&[u16], &[(f32, f32)]),
    in_value: bool,
) {
    let first = nodes.len() as u32;
    let p = player.index() as u8;
    nodes.extend(moves.iter().enumerate().map(|(i, &mv)| {
        let (n, w) = priors.get(i).copied().unwrap_or((0.0, 0.0));
        if in_value {
            Node { mv, player: p, prior_visits: n, prior_wins: w, ..Node::default() }
        } else {
            Node { mv, player: p, rave_visits: n, rave_wins: w, ..Node::default() }
        }
    }));
    nodes.push(Node { mv: PASS, player: p, ..Node::default() });
    let node = &mut nodes[id];
    node.first_child = first;
    node.children = moves.len() as u32 + 1;
    node.expanded = true;
}

impl Mcts {
    /// The opening whose quiet moves off the empty corners the root leaves out, with
    /// [`PlayoutParams::corners_first`](crate::PlayoutParams::corners_first) on a large board in its opening.
    pub(super) fn corners_first(&self, board: &Board) -> Option<Opening> {
        self.params.playout.corners_first.then(|| Opening::of(board)).flatten()
    }

    /// The subtree of the last search's tree for the position of `game`, when it was reached
    /// from the last root by moves the tree holds (and the root's children, if the game is in
    /// play, filtered by superko). `None`: start afresh.
    pub(super) fn reused_tree(&mut self, game: &Game, color: Color, in_play: bool) -> Option<Vec<Node>> {
        let root = self.root.take()?;
        if !self.params.reuse_tree || self.nodes.is_empty() || root.board.size() != game.board().size() {
            return None;
        }
        let since = game.moves().get(root.moves..)?;
        if since.is_empty() && root.color != color {
            return None;
        }
        let mut board = root.board;
        let mut id = 0usize;
        let mut to_play = root.color;
        for &(c, mv) in since {
            if c != to_play || !self.nodes[id].expanded {
                return None;
            }
            let node = self.nodes[id];
            let code = match mv {
                Move::Play(p) => p.index() as u16,
                Move::Pass => PASS,
            };
            let first = node.first_child as usize;
            id = first + self.nodes[first..first + node.children as usize].iter().position(|n| n.mv == code)?;
            match mv {
                Move::Play(p) => {
                    board.play_unchecked(p, c);
                }
                Move::Pass => board.pass(),
            }
            to_play = !to_play;
        }
        // The same position (an undo and other moves would not match the hash) with `color`
        // to move, and a tree under it.
        if to_play != color || board.hash() != game.board().hash() || !self.nodes[id].expanded {
            return None;
        }
        let opening = self.corners_first(game.board());
        let nodes = compact(&self.nodes, id, |child| {
            child.mv == PASS
                || ((!in_play || game.check(color, Move::Play(point(child.mv))).is_ok())
                    && opening.as_ref().is_none_or(|o| !o.holds_back(point(child.mv))))
        });
        (nodes[0].children > 0).then_some(nodes)
    }
}

//! What both searches' trees share: nodes in an arena (a `Vec`, the root at 0), each node's
//! children contiguous.

use std::ops::Range;

use tengen_core::Move;

use crate::budget::{Leader, leaders};

/// A node of a search tree in an arena.
pub(crate) trait ArenaNode {
    /// The move into it.
    fn mv(&self) -> Move;
    /// Simulations through it, the running ones included.
    fn visits(&self) -> u32;
    /// Wins for the player who made its move, summed.
    fn wins(&self) -> f64;
    /// Its children's ids: empty until it is expanded.
    fn children(&self) -> Range<usize>;
}

/// The most visited line below node `id`, up to `length` moves (capped: shared children of
/// transpositions could lead round a cycle).
pub(crate) fn best_line<N: ArenaNode>(nodes: &[N], mut id: usize, length: usize) -> Vec<Move> {
    let mut line = Vec::new();
    while line.len() < length {
        let range = nodes[id].children();
        let first = range.start;
        match nodes[range].iter().enumerate().max_by_key(|(_, c)| c.visits()) {
            Some((j, best)) if best.visits() > 0 => {
                line.push(best.mv());
                id = first + j;
            }
            _ => break,
        }
    }
    line
}

/// The two most visited children of the root: visits and win rate.
pub(crate) fn top_two<N: ArenaNode>(nodes: &[N]) -> (Leader, Leader) {
    leaders(nodes[nodes[0].children()].iter().map(|c| (c.visits(), c.wins())))
}

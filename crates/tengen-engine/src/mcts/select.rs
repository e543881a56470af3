//! Selection: which child a simulation descends to.

use super::tree::Node;
use crate::params::{RaveSchedule, SearchParams};

/// The child of `id` to descend into: UCT on the RAVE blend.
pub(super) fn select(nodes: &[Node], params: &SearchParams, id: usize) -> usize {
    let node = &nodes[id];
    let log_n = (node.visits as f32).max(1.0).ln();
    let (k, schedule) = (params.playout.rave_equivalence, params.playout.rave_schedule);
    let exploration = if id == 0 { params.playout.root_exploration } else { params.playout.exploration };
    let first = node.first_child as usize;
    let mut best = first;
    let mut best_value = f32::NEG_INFINITY;
    for (c, child) in nodes[first..first + node.children as usize].iter().enumerate() {
        let c = first + c;
        // Prior knowledge counts as simulations of the child's own where it is kept there
        // (`priors_in_value`; 0 otherwise).
        let n = child.visits as f32 + child.prior_visits;
        let q = if n > 0.0 { (child.utility + child.prior_wins) / n } else { 0.5 };
        // A child without AMAF statistics (a pass never has any) is judged by its own win
        // rate alone: a neutral AMAF default would make passing look good to the side behind.
        let (amaf, beta) = if child.rave_visits > 0.0 {
            let r = child.rave_visits;
            let beta = match schedule {
                RaveSchedule::Equivalence => (k / (3.0 * n + k)).sqrt(),
                RaveSchedule::LeastError => r / (r + n + n * r / k),
            };
            (child.rave_wins / r, beta)
        } else {
            (0.0, 0.0)
        };
        let mut value = (1.0 - beta) * q + beta * amaf;
        if exploration != 0.0 {
            // Off by default: no square root and division per child then.
            value += exploration * (log_n / (n + 1.0)).sqrt();
        }
        if value > best_value {
            best_value = value;
            best = c;
        }
    }
    best
}

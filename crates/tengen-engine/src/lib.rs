//! tengen's opponent: the [`Engine`] trait that GTP and the other faces ask for moves, a
//! random engine for tests, and [`Mcts`], a Monte-Carlo tree search with RAVE.

mod mcts;
mod random;

pub use mcts::{Mcts, SearchParams, SearchResult};
pub use random::{Analysis, Decision, Engine, MoveStats, RandomEngine};

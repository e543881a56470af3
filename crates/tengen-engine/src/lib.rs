//! tengen's opponent: the [`Engine`] trait that GTP and the other faces ask for moves, a
//! random engine for tests, [`Mcts`], a Monte-Carlo tree search with RAVE, and [`NetSearch`],
//! a PUCT search on a KataGo network.

mod arena;
mod budget;
mod dead;
mod decide;
mod engine;
pub mod etiquette;
mod mcts;
mod net;
mod net_eval;
mod params;
pub mod predictor;
mod random;
pub mod shapes;

pub use budget::Budget;
pub use decide::Candidate;
pub use engine::{Analysis, Decision, Engine, MoveStats, SearchReport};
pub use mcts::{Mcts, SearchResult};
pub use net::{NetSearch, engine_at_level};
pub use net_eval::{NetEval, evaluate_games, evaluate_once};
pub use params::{Limit, NetworkParams, PlayoutParams, RaveSchedule, SearchParams};
pub use random::RandomEngine;

//! The engine behind `genmove`: a trait, so that the search plugs in, and a random engine.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Color, Game, Move};

/// What an engine decides to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (a stone or a pass).
    Play(Move),
    /// Resign the game.
    Resign,
}

/// Something that chooses moves. The GTP session owns the game; the engine is asked.
pub trait Engine {
    /// The move `color` should play in `game` (`game.to_move()` may differ: GTP allows any
    /// colour to move), within `budget` if one is given (the clock's share for this move). It
    /// must be legal in `game` or a pass.
    fn decide(&mut self, game: &Game, color: Color, budget: Option<std::time::Duration>) -> Decision;

    /// Forget anything kept between moves (a new game started).
    fn clear(&mut self) {}

    /// The stones this engine judges dead in `game`, for counting; `None` when it cannot tell
    /// (the caller then falls back on what is certain).
    fn dead_stones(&mut self, game: &Game) -> Option<Vec<tengen_core::Point>> {
        let _ = game;
        None
    }
}

/// Uniformly random legal moves that fill none of its own eyes; passes when there is none.
/// A stand-in until the search exists, and a weak opponent for tests.
#[derive(Clone, Debug)]
pub struct RandomEngine {
    rng: SmallRng,
}

impl RandomEngine {
    /// A random engine with a fixed seed (repeatable games).
    #[must_use]
    pub fn new(seed: u64) -> RandomEngine {
        RandomEngine { rng: SmallRng::seed_from_u64(seed) }
    }
}

impl Engine for RandomEngine {
    fn decide(&mut self, game: &Game, color: Color, _budget: Option<std::time::Duration>) -> Decision {
        let mut board = game.board().clone();
        // The board knows simple ko only: skip candidates the game refuses (superko).
        for _ in 0..board.empty_count() {
            let Some(p) = board.random_playout_move(color, &mut self.rng) else { break };
            if game.check(color, Move::Play(p)).is_ok() {
                return Decision::Play(Move::Play(p));
            }
            // Take the point out of the candidates by putting a stone there on a scratch board.
            board.play_unchecked(p, color.opponent());
        }
        Decision::Play(Move::Pass)
    }
}

//! A random engine: a weak opponent for tests.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use tengen_core::{Color, Game, Move};

use crate::{Decision, Engine};

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
    fn decide(&mut self, game: &Game, color: Color, _budget: Option<crate::Budget>) -> Decision {
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

//! Helpers shared by the integration tests.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_core::{Game, Komi, Move, Rules};

/// A random game: `moves` random playout moves (a pass now and then, and when superko
/// refuses a move), handicap stones first when `handicap` ≥ 2; play resumes after two passes.
pub fn random_game(size: usize, seed: u64, moves: usize, handicap: usize, komi_half: i32) -> Game {
    let mut rng = SmallRng::seed_from_u64(seed);
    let rules = Rules { komi: Komi::from_half_points(komi_half), ..Rules::chinese() };
    let mut game = if handicap >= 2 {
        Game::with_fixed_handicap(size, rules, handicap).unwrap()
    } else {
        Game::new(size, rules).unwrap()
    };
    for _ in 0..moves {
        let mv = if rng.random_ratio(1, 30) {
            Move::Pass
        } else {
            game.board().random_playout_move(game.to_move(), &mut rng).map_or(Move::Pass, Move::Play)
        };
        if game.play(mv).is_err() {
            game.play(Move::Pass).unwrap();
        }
        if game.phase() != tengen_core::Phase::Playing {
            game.resume().unwrap();
        }
    }
    game
}

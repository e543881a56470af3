//! Light random playouts: uniform random moves that neither fill one's own eye nor commit
//! suicide, until both sides pass. The engine's playout policies build on these.

use rand::RngCore;

use crate::board::Board;
use crate::color::Color;
use crate::point::{NEIGHBOURS, Point};

/// What a playout did and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    /// Stones placed (passes not counted).
    pub moves: u32,
    /// Black's area minus White's on the final board, in points, before komi.
    pub score: i32,
}

impl Board {
    /// A uniformly random point where `color` may play that is not one of its own eyes (by
    /// [`Board::is_eye`]), or `None` when there is none. Never allocates.
    #[inline]
    pub fn random_playout_move<R: RngCore + ?Sized>(
        &self,
        color: Color,
        rng: &mut R,
    ) -> Option<Point> {
        let n = self.empty_count();
        if n == 0 {
            return None;
        }
        // Lemire's multiply-shift: a uniform start index without a division.
        let start = ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize;
        let ok = |p: Point| {
            !self.is_eye(p, color) && !self.is_ko(p, color) && !self.is_suicide(p, color)
        };
        let empties = self.empty_slice();
        empties[start..]
            .iter()
            .chain(&empties[..start])
            .map(|&i| Point::from_index(i as usize))
            .find(|&p| ok(p))
    }

    /// Plays random moves (by [`Board::random_playout_move`]) from `to_move` until two passes
    /// in a row or `max_moves` moves, then scores the board by area (see
    /// [`Board::area_score`]). Never allocates.
    pub fn playout<R: RngCore + ?Sized>(
        &mut self,
        mut to_move: Color,
        rng: &mut R,
        max_moves: u32,
    ) -> Playout {
        let mut moves = 0;
        let mut passes = 0;
        let mut turns = 0;
        while passes < 2 && turns < max_moves {
            match self.random_playout_move(to_move, rng) {
                Some(p) => {
                    self.play_unchecked(p, to_move);
                    moves += 1;
                    passes = 0;
                }
                None => {
                    self.pass();
                    passes += 1;
                }
            }
            turns += 1;
            to_move = !to_move;
        }
        Playout {
            moves,
            score: self.area_score(),
        }
    }

    /// Black's area minus White's, in points, counting every stone as alive and every empty
    /// point by its neighbours: an empty point whose neighbours are all of one colour is that
    /// colour's, any other is nobody's. Exact on the final board of a playout, where every
    /// empty point is a one-point eye or a shared liberty; not a referee's count (see
    /// [`crate::count`]).
    #[must_use]
    pub fn area_score(&self) -> i32 {
        let mut score = 0i32;
        for p in self.points() {
            match self.get(p) {
                Some(Color::Black) => score += 1,
                Some(Color::White) => score -= 1,
                None => {
                    let mut seen = [false; 2];
                    for d in NEIGHBOURS {
                        if let Some(c) =
                            self.get(Point::from_index((p.index() as isize + d) as usize))
                        {
                            seen[c.index()] = true;
                        }
                    }
                    score += i32::from(seen[0]) - i32::from(seen[1]);
                }
            }
        }
        score
    }
}

//! Light random playouts: uniform random moves that neither fill one's own eye nor commit
//! suicide, until both sides pass. The engine's playout policies build on these.

use rand::RngCore;

use crate::board::Board;
use crate::color::Color;
use crate::point::Point;

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
    pub fn random_playout_move<R: RngCore + ?Sized>(&self, color: Color, rng: &mut R) -> Option<Point> {
        self.random_move_where(color as u8, rng, |_| true)
    }

    /// A uniformly random point where colour `c` may play, that is not one of its own eyes
    /// and that `accept` takes (a padded index), or `None`: a scan of the empty points from a
    /// random start. Never allocates.
    #[inline(always)]
    pub(crate) fn random_move_where<R: RngCore + ?Sized>(
        &self,
        c: u8,
        rng: &mut R,
        accept: impl Fn(usize) -> bool,
    ) -> Option<Point> {
        let empties = self.empty_slice();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        // Lemire's multiply-shift: a uniform start index without a division.
        let start = ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize;
        let ko = self.ko_point_for(c);
        let mut i = start;
        loop {
            let p = empties[i] as usize;
            // A point next to an empty one is legal and no eye: the usual case, one load.
            if (self.has_empty_neighbour(p) || (!self.is_eye_at(p, c) && p != ko && !self.is_suicide_at(p, c)))
                && accept(p)
            {
                return Some(Point::from_index(p));
            }
            i += 1;
            if i == n {
                i = 0;
            }
            if i == start {
                return None;
            }
        }
    }

    /// Plays random moves (by [`Board::random_playout_move`]) from `to_move` until two passes
    /// in a row or `max_moves` moves, then scores the board by area (see
    /// [`Board::area_score`]). Never allocates.
    pub fn playout<R: RngCore + ?Sized>(&mut self, to_move: Color, rng: &mut R, max_moves: u32) -> Playout {
        self.playout_by(to_move, max_moves, |board, color, _| board.random_playout_move(color, rng))
    }

    /// [`Board::playout`] with the moves of `policy` ([`Board::policy_move`], each answering
    /// the move before it); `Policy::LIGHT` plays the same moves as [`Board::playout`].
    pub fn policy_playout<R: RngCore + ?Sized>(
        &mut self,
        to_move: Color,
        policy: &crate::Policy,
        rng: &mut R,
        max_moves: u32,
    ) -> Playout {
        self.playout_by(to_move, max_moves, |board, color, last| board.policy_move(color, last, policy, rng))
    }

    /// The playout loop: `next(board, colour, last move)` chooses each move (`None`: a pass).
    #[inline(always)]
    fn playout_by(
        &mut self,
        mut to_move: Color,
        max_moves: u32,
        mut next: impl FnMut(&Board, Color, Option<Point>) -> Option<Point>,
    ) -> Playout {
        let mut moves = 0;
        let mut passes = 0;
        let mut turns = 0;
        let mut last = None;
        while passes < 2 && turns < max_moves {
            last = next(self, to_move, last);
            match last {
                Some(p) => {
                    self.play_unhashed(p, to_move);
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
        Playout { moves, score: self.area_score() }
    }

    /// Black's area minus White's, in points, counting every stone as alive and every empty
    /// point by its neighbours: an empty point whose neighbours are all of one colour is that
    /// colour's, any other is nobody's. Exact on the final board of a playout, where every
    /// empty point is a one-point eye or a shared liberty; not a referee's count (see
    /// [`crate::count`]).
    #[must_use]
    pub fn area_score(&self) -> i32 {
        let mut score = self.stone_count(Color::Black) as i32 - self.stone_count(Color::White) as i32;
        for &p in self.empty_slice() {
            score += self.empty_owner(p as usize);
        }
        score
    }

    /// Who a point counts for by the rule of [`Board::area_score`]: its stone's colour, or for
    /// an empty point the one colour among its neighbours; `None` when both or neither.
    #[must_use]
    pub fn area_owner(&self, p: Point) -> Option<Color> {
        self.get(p).or_else(|| match self.empty_owner(p.index()) {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => None,
        })
    }

    /// +1 when the empty point `p` touches only Black, −1 only White, 0 otherwise. The edge
    /// counts for both colours in the neighbour counts: a side owns the point when the other
    /// side's count is only the edge's.
    #[inline]
    fn empty_owner(&self, p: usize) -> i32 {
        let (black, white) = self.neighbour_colours(p);
        let edge = black.min(white);
        i32::from(white == edge && black > edge) - i32::from(black == edge && white > edge)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Policy;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn a_light_policy_playout_is_the_light_playout() {
        for seed in 0..20 {
            let (mut a, mut b) = (Board::new(9).unwrap(), Board::new(9).unwrap());
            let la = a.playout(Color::Black, &mut SmallRng::seed_from_u64(seed), 243);
            let lb = b.policy_playout(Color::Black, &Policy::LIGHT, &mut SmallRng::seed_from_u64(seed), 243);
            assert_eq!((la, a.hash()), (lb, b.hash()), "seed {seed}");
        }
        // The heavy policy plays other moves from the same seed.
        let (mut a, mut b) = (Board::new(9).unwrap(), Board::new(9).unwrap());
        a.playout(Color::Black, &mut SmallRng::seed_from_u64(1), 243);
        b.policy_playout(Color::Black, &Policy::HEAVY, &mut SmallRng::seed_from_u64(1), 243);
        assert_ne!(a.hash(), b.hash());
    }
}

//! The consistency check: every incremental structure against one recomputed from the cells.

use super::{BORDER, Board, ChainInfo, EMPTY, PointSet};
use crate::color::Color;
use crate::point::{NEIGHBOURS, Point, STRIDE};

impl Board {
    /// Checks every incremental structure against one recomputed from the cells alone: the
    /// chains, their pseudo-liberty counters, the empty list and the hash (where it is kept: see
    /// [`Board::play_unhashed`]) — and that no empty or border cell names a chain head (the
    /// board's updates rely on head 0 there).
    ///
    /// # Errors
    /// A description of the first difference.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut empties = 0;
        for i in 0..crate::point::AREA {
            let p = Point::from_index(i);
            let (row, col) = (i / STRIDE, i % STRIDE);
            let on = (1..=self.size as usize).contains(&row) && (1..=self.size as usize).contains(&col);
            let cell = self.cells[i];
            if on != (cell != BORDER) {
                return Err(format!("cell {i} is {cell}, on board: {on}"));
            }
            if on && self.nbr[i] != self.expected_nbr(i) {
                return Err(format!(
                    "neighbour counts of {p} are {:#x}, recomputed {:#x}",
                    self.nbr[i],
                    self.expected_nbr(i)
                ));
            }
            if cell >= EMPTY && self.head[i] != 0 {
                return Err(format!("cell {i} holds no stone but has head {}", self.head[i]));
            }
            if cell == EMPTY {
                empties += 1;
                let at = self.empty_at[i] as usize;
                if at >= self.n_empty as usize || self.empties[at] as usize != i {
                    return Err(format!("{p} is missing from the empty list"));
                }
            }
        }
        for c in Color::ALL {
            let counted = self.points().filter(|&p| self.get(p) == Some(c)).count();
            if counted != self.stone_count(c) {
                return Err(format!("{counted} {c} stones, counter says {}", self.stone_count(c)));
            }
        }
        if empties != self.n_empty as usize {
            return Err(format!("{empties} empty points, list says {}", self.n_empty));
        }
        if !self.hash_stale && self.computed_hash() != self.hash {
            return Err("incremental hash differs from the recomputed one".into());
        }
        // Chains: flood fill from each stone, compare membership and counters.
        let mut done = PointSet::new();
        for p in self.points() {
            let i = p.index();
            let c = self.cells[i];
            if c >= EMPTY || done.contains(i) {
                continue;
            }
            let mut stack = vec![i];
            done.insert(i);
            let mut expect = ChainInfo::default();
            let h = self.head[i];
            while let Some(s) = stack.pop() {
                if self.head[s] != h {
                    return Err(format!("{} and {} are connected but have different heads", p, Point::from_index(s)));
                }
                expect.add_stone();
                for d in NEIGHBOURS {
                    let n = (s as isize + d) as usize;
                    if self.cells[n] == EMPTY {
                        expect.add_lib(n);
                    } else if self.cells[n] == c && done.insert(n) {
                        stack.push(n);
                    }
                }
            }
            let got = self.chains[h as usize];
            if got != expect {
                return Err(format!("chain at {p}: counters {got:?}, recomputed {expect:?}"));
            }
            let walked = self.chain(p).count();
            if walked != expect.size() as usize {
                return Err(format!("chain at {p}: list has {walked} stones, flood fill {}", expect.size()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board played without the hash marks it stale; a copy of one with its hash kept keeps
    /// it again, incrementally.
    #[test]
    fn a_copy_keeps_the_hash_again() {
        let fresh = Board::new(9).unwrap();
        let (mut board, mut kept) = (fresh.clone(), fresh.clone());
        let e5 = "E5".parse().unwrap();
        board.play_unhashed(e5, Color::Black);
        kept.play_unchecked(e5, Color::Black);
        assert!(board.hash_stale);
        assert_eq!(board.hash(), kept.hash);
        board.check_consistency().unwrap();
        board.copy_from(&fresh);
        assert!(!board.hash_stale);
        board.play_unchecked(e5, Color::Black);
        assert_eq!(board.hash, board.computed_hash());
        board.check_consistency().unwrap();
    }
}

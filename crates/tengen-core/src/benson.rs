//! Benson's unconditional life: chains that no sequence of opponent moves can capture even if
//! their owner always passes (pass-alive), and the regions they make safe territory.
//!
//! For a colour `c`, a *region* is a maximal connected set of points without `c` stones (empty
//! points and opponent stones). A region is *vital* to a `c` chain when every empty point of
//! the region is a liberty of that chain. Benson's algorithm starts from every `c` chain and
//! every region, then repeats until nothing changes: drop each chain with fewer than two vital
//! regions left; drop each region that touches a dropped chain. The chains left are
//! pass-alive.
//!
//! A region left at the end touches only pass-alive chains; it is **pass-alive territory**
//! when, moreover, every empty point in it touches a pass-alive chain: then the opponent can
//! never own an empty point there (each one is next to a stone that cannot be captured), so
//! opponent stones inside can never make an eye and are dead. Larger enclosed areas are left
//! undecided, since the opponent might live in them.

use crate::board::{Board, PointSet};
use crate::color::Color;
use crate::point::Point;

/// One colour's pass-alive chains and territory.
#[derive(Clone)]
pub struct PassAlive {
    alive: PointSet,
    territory: PointSet,
}

impl PassAlive {
    /// Whether `p` holds a stone of a pass-alive chain.
    #[must_use]
    pub fn is_alive(&self, p: Point) -> bool {
        self.alive.contains(p.index())
    }

    /// Whether `p` (empty or an opponent stone) lies in pass-alive territory.
    #[must_use]
    pub fn is_territory(&self, p: Point) -> bool {
        self.territory.contains(p.index())
    }
}

struct Region {
    points: Vec<Point>,
    /// Chain indices touching the region.
    borders: Vec<usize>,
    /// Chain indices the region is vital to.
    vital_to: Vec<usize>,
    alive: bool,
}

/// Runs Benson's algorithm for `color`.
#[must_use]
pub fn pass_alive(board: &Board, color: Color) -> PassAlive {
    // Number the chains of `color`.
    let mut chain_of = vec![usize::MAX; Point::TABLE_SIZE];
    let mut chains: Vec<Point> = Vec::new();
    for p in board.points() {
        if board.get(p) == Some(color) && chain_of[p.index()] == usize::MAX {
            for s in board.chain(p) {
                chain_of[s.index()] = chains.len();
            }
            chains.push(p);
        }
    }

    // Flood the regions: connected sets of points without `color` stones.
    let mut seen = PointSet::new();
    let mut regions: Vec<Region> = Vec::new();
    for start in board.points() {
        if board.get(start) == Some(color) || !seen.insert(start.index()) {
            continue;
        }
        let mut points = vec![start];
        let mut borders = Vec::new();
        let mut i = 0;
        while i < points.len() {
            let p = points[i];
            i += 1;
            for n in board.neighbours(p) {
                if board.get(n) == Some(color) {
                    let c = chain_of[n.index()];
                    if !borders.contains(&c) {
                        borders.push(c);
                    }
                } else if seen.insert(n.index()) {
                    points.push(n);
                }
            }
        }
        let vital_to = borders
            .iter()
            .copied()
            .filter(|&c| {
                points
                    .iter()
                    .filter(|&&p| board.is_empty(p))
                    .all(|&p| board.neighbours(p).any(|n| board.get(n) == Some(color) && chain_of[n.index()] == c))
            })
            .collect();
        regions.push(Region { points, borders, vital_to, alive: true });
    }

    let mut chain_alive = vec![true; chains.len()];
    loop {
        let mut changed = false;
        for (c, alive) in chain_alive.iter_mut().enumerate() {
            if *alive && regions.iter().filter(|r| r.alive && r.vital_to.contains(&c)).count() < 2 {
                *alive = false;
                changed = true;
            }
        }
        for r in regions.iter_mut().filter(|r| r.alive) {
            if r.borders.iter().any(|&c| !chain_alive[c]) {
                r.alive = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut result = PassAlive { alive: PointSet::new(), territory: PointSet::new() };
    for (c, &head) in chains.iter().enumerate() {
        if chain_alive[c] {
            for s in board.chain(head) {
                result.alive.insert(s.index());
            }
        }
    }
    for r in regions.iter().filter(|r| r.alive && !r.borders.is_empty()) {
        let sealed = r
            .points
            .iter()
            .filter(|&&p| board.is_empty(p))
            .all(|&p| board.neighbours(p).any(|n| board.get(n) == Some(color) && chain_alive[chain_of[n.index()]]));
        if sealed {
            for &p in &r.points {
                result.territory.insert(p.index());
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{at, board};

    #[test]
    fn two_eyes_live_one_eye_does_not() {
        let b = board(
            "
            . X . X O .
            X X X X O .
            O O O O O .
            . . . . . .
            . . . . . .
            . . . . . .",
        );
        let black = pass_alive(&b, Color::Black);
        assert!(black.is_alive(at("B6")));
        assert!(black.is_territory(at("A6")));
        assert!(!pass_alive(&b, Color::White).is_alive(at("E6")));
        let b = board(
            "
            . X X X O .
            X X X X O .
            O O O O O .
            . . . . . .
            . . . . . .
            . . . . . .",
        );
        assert!(!pass_alive(&b, Color::Black).is_alive(at("B6")));
    }

    #[test]
    fn stones_inside_pass_alive_territory() {
        let b = board(
            "
            . X O . . X
            X X X X X X
            . . . . . .
            . . . . . .
            . . . . . .
            . . . . . .",
        );
        let black = pass_alive(&b, Color::Black);
        assert!(black.is_alive(at("A5")));
        assert!(black.is_territory(at("C6")));
        assert!(black.is_territory(at("E6")));
        assert!(!black.is_territory(at("A3")));
    }
}

//! Empty points: eye spaces and their shapes (terms.md §13.1), eyes (§14.2), point
//! properties (§13.3 虎口, §14.4 禁着点), and the static seki rule (§14.3).

use tengen_core::{Board, Color, Point};

use crate::geometry::{Geo, V, add, v};
use crate::reader::neighbours;

/// An eye space: a maximal connected set of empty points touched by stones of one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EyeSpace {
    /// Its points, sorted.
    pub points: Vec<Point>,
    /// The colour of every stone touching it.
    pub owner: Color,
    /// Its shape name (直三, 刀把五 …), if it has one.
    pub shape: Option<&'static str>,
    /// The vital point (要点) for the shapes that have one.
    pub vital: Option<Point>,
}

/// The named shapes with one representative each and whether they have a vital point.
const SHAPES: &[(&str, &[V], bool)] = &[
    ("直三", &[(0, 0), (1, 0), (2, 0)], true),
    ("曲三", &[(0, 0), (1, 0), (0, 1)], true),
    ("直四", &[(0, 0), (1, 0), (2, 0), (3, 0)], false),
    ("曲四", &[(0, 0), (1, 0), (2, 0), (0, 1)], false),
    ("曲四", &[(0, 0), (1, 0), (1, 1), (2, 1)], false),
    ("方四", &[(0, 0), (1, 0), (0, 1), (1, 1)], false),
    ("丁四", &[(0, 0), (1, 0), (2, 0), (1, 1)], true),
    ("刀把五", &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], true),
    ("梅花五", &[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], true),
    ("花六", &[(0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], true),
    ("板六", &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)], false),
];

/// The canonical form of a point set under the 8 symmetries: translated to 0, the
/// lexicographically smallest sorted list.
pub(crate) fn canonical(cells: &[V]) -> Vec<V> {
    let mut best: Option<Vec<V>> = None;
    for t in 0..8 {
        let mut m: Vec<V> = cells
            .iter()
            .map(|&(x, y)| {
                let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
                let x = if t & 1 != 0 { -x } else { x };
                let y = if t & 2 != 0 { -y } else { y };
                (x, y)
            })
            .collect();
        let (mx, my) = (m.iter().map(|q| q.0).min().unwrap_or(0), m.iter().map(|q| q.1).min().unwrap_or(0));
        for q in &mut m {
            *q = (q.0 - mx, q.1 - my);
        }
        m.sort_unstable();
        if best.as_ref().is_none_or(|b| m < *b) {
            best = Some(m);
        }
    }
    best.unwrap_or_default()
}

/// The shape name of a connected set of points, if any.
pub(crate) fn shape_name(cells: &[V]) -> Option<(&'static str, bool)> {
    let c = canonical(cells);
    for &(name, rep, vital) in SHAPES {
        if canonical(rep) == c {
            return Some((name, vital));
        }
    }
    // 聚七: 7 points of a 3×3 box, the centre included.
    if c.len() == 7 && c.iter().all(|&(x, y)| x <= 2 && y <= 2) && c.contains(&(1, 1)) {
        return Some(("聚七", false));
    }
    None
}

/// The eye space containing the empty point `r` (§13.1), or `None` when `r` is not empty or
/// the space touches stones of both colours (or none).
#[must_use]
pub fn eye_space(board: &Board, r: Point) -> Option<EyeSpace> {
    if !board.is_empty(r) {
        return None;
    }
    let mut points = vec![r];
    let mut owner: Option<Color> = None;
    let mut i = 0;
    while i < points.len() {
        let q = points[i];
        i += 1;
        for n in neighbours(board, q) {
            match board.get(n) {
                None => {
                    if !points.contains(&n) {
                        points.push(n);
                    }
                }
                Some(c) => match owner {
                    None => owner = Some(c),
                    Some(o) if o != c => return None,
                    Some(_) => {}
                },
            }
        }
    }
    let owner = owner?;
    points.sort_unstable();
    let cells: Vec<V> = points.iter().map(|&p| v(p)).collect();
    let named = shape_name(&cells);
    let vital = match named {
        Some((_, true)) => {
            let degree =
                |q: V| [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().filter(|&&d| cells.contains(&add(q, d))).count();
            let max = cells.iter().map(|&q| degree(q)).max().unwrap_or(0);
            let top: Vec<usize> = (0..cells.len()).filter(|&i| degree(cells[i]) == max).collect();
            (top.len() == 1).then(|| points[top[0]])
        }
        _ => None,
    };
    Some(EyeSpace { points, owner, shape: named.map(|n| n.0), vital })
}

/// The eye at `e` (§14.2): its owner and whether it is a true eye (真眼), or `None` when
/// `e` is not an eye.
#[must_use]
pub fn eye(board: &Board, e: Point) -> Option<(Color, bool)> {
    if !board.is_empty(e) {
        return None;
    }
    let nbrs: Vec<Point> = neighbours(board, e).collect();
    let owner = board.get(nbrs[0])?;
    if !nbrs.iter().all(|&n| board.get(n) == Some(owner)) {
        return None;
    }
    if nbrs.iter().all(|&n| board.same_chain(n, nbrs[0])) {
        return Some((owner, true));
    }
    let g = Geo::of(board);
    let diagonals: Vec<V> = g.d4(v(e)).collect();
    let k = diagonals.iter().filter(|&&q| g.is(board, q, !owner)).count();
    let false_eye = if diagonals.len() == 4 { k >= 2 } else { k >= 1 };
    Some((owner, !false_eye))
}

/// The names of the empty point `p` for `color` (§13.3, §14.4): 禁着点 and 虎口.
#[must_use]
pub fn point_names(board: &Board, p: Point, color: Color) -> Vec<&'static str> {
    let mut out = Vec::new();
    if !board.is_empty(p) {
        return out;
    }
    if board.is_suicide(p, color) {
        out.push("禁着点");
    }
    let nbrs: Vec<Point> = neighbours(board, p).collect();
    if nbrs.len() == 4
        && nbrs.iter().filter(|&&n| board.get(n) == Some(!color)).count() == 3
        && nbrs.iter().filter(|&&n| board.is_empty(n)).count() == 1
    {
        out.push("虎口");
    }
    out
}

/// The chains (lowest stones) in seki with the chain at `a` by the static rule of §14.3: the
/// rules core's, which counting and the dead-stone judgements use too.
pub use tengen_core::seki_partners;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_is_found_in_every_orientation() {
        for &(name, rep, _) in SHAPES {
            for t in 0..8 {
                let m: Vec<V> = rep
                    .iter()
                    .map(|&(x, y)| {
                        let (x, y) = if t & 4 != 0 { (y, x) } else { (x, y) };
                        (if t & 1 != 0 { 5 - x } else { x + 2 }, if t & 2 != 0 { 7 - y } else { y + 1 })
                    })
                    .collect();
                assert_eq!(shape_name(&m).map(|s| s.0), Some(name), "{name} orientation {t}");
            }
        }
        let seven = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (1, 2)];
        assert_eq!(shape_name(&seven).map(|s| s.0), Some("聚七"));
        // Near misses: five in a row, a 3×3 box without its centre, nine points.
        assert_eq!(shape_name(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]), None);
        let ring = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)];
        assert_eq!(shape_name(&ring), None);
    }
}

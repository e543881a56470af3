//! Lines, regions, named points, corner frames and direction classes (terms.md §1.3, §2).

use tengen_core::{Board, Color, Point};

/// A point or a vector as (column, row), both from 0 at the lower left.
pub(crate) type V = (i32, i32);

/// The four orthogonal unit vectors.
pub(crate) const N4: [V; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four diagonal unit vectors.
pub(crate) const D4: [V; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

pub(crate) fn add(a: V, b: V) -> V {
    (a.0 + b.0, a.1 + b.1)
}
pub(crate) fn sub(a: V, b: V) -> V {
    (a.0 - b.0, a.1 - b.1)
}
pub(crate) fn mul(a: V, k: i32) -> V {
    (a.0 * k, a.1 * k)
}
pub(crate) fn neg(a: V) -> V {
    (-a.0, -a.1)
}
/// The two unit vectors perpendicular to `a` (a unit orthogonal vector).
pub(crate) fn perps(a: V) -> [V; 2] {
    [(a.1, a.0), (-a.1, -a.0)]
}
/// Chebyshev distance.
pub(crate) fn cheb(a: V, b: V) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}
/// Squared Euclidean distance.
pub(crate) fn d2(a: V, b: V) -> i32 {
    (a.0 - b.0).pow(2) + (a.1 - b.1).pow(2)
}

pub(crate) fn v(p: Point) -> V {
    (i32::from(p.col()), i32::from(p.row()))
}

/// The board size class of terms.md: 9, 13 or 19 (the nearest listed size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    Nine,
    Thirteen,
    Nineteen,
}

/// A board of `n` lines seen as geometry, with cell access.
#[derive(Clone, Copy)]
pub(crate) struct Geo {
    pub n: i32,
}

impl Geo {
    pub fn of(board: &Board) -> Geo {
        Geo { n: board.size() as i32 }
    }

    pub fn class(self) -> Class {
        match self.n {
            ..=10 => Class::Nine,
            11..=16 => Class::Thirteen,
            _ => Class::Nineteen,
        }
    }

    /// At least 13 × 13 (the opening terms that need room).
    pub fn big(self) -> bool {
        self.class() != Class::Nine
    }

    pub fn on(self, q: V) -> bool {
        q.0 >= 0 && q.1 >= 0 && q.0 < self.n && q.1 < self.n
    }

    pub fn point(self, q: V) -> Point {
        Point::new(q.0 as u8, q.1 as u8).expect("on-board vector")
    }

    /// The stone at `q`, `None` for an empty or off-board point.
    pub fn get(self, b: &Board, q: V) -> Option<Color> {
        if self.on(q) { b.get(self.point(q)) } else { None }
    }

    pub fn empty(self, b: &Board, q: V) -> bool {
        self.on(q) && b.is_empty(self.point(q))
    }

    pub fn is(self, b: &Board, q: V, c: Color) -> bool {
        self.get(b, q) == Some(c)
    }

    /// On-board orthogonal neighbours.
    pub fn n4(self, q: V) -> impl Iterator<Item = V> {
        N4.into_iter().map(move |d| add(q, d)).filter(move |&r| self.on(r))
    }

    /// On-board diagonal neighbours.
    pub fn d4(self, q: V) -> impl Iterator<Item = V> {
        D4.into_iter().map(move |d| add(q, d)).filter(move |&r| self.on(r))
    }

    /// On-board points within Chebyshev distance `k` of `q`, `q` excluded.
    pub fn within(self, q: V, k: i32) -> impl Iterator<Item = V> {
        (-k..=k).flat_map(move |dy| (-k..=k).map(move |dx| (q.0 + dx, q.1 + dy))).filter(move |&r| r != q && self.on(r))
    }

    /// Line number from the nearer vertical edge.
    pub fn lx(self, q: V) -> i32 {
        (q.0 + 1).min(self.n - q.0)
    }
    /// Line number from the nearer horizontal edge.
    pub fn ly(self, q: V) -> i32 {
        (q.1 + 1).min(self.n - q.1)
    }
    /// 第 k 路: the line number from the nearest edge.
    pub fn line(self, q: V) -> i32 {
        self.lx(q).min(self.ly(q))
    }
    /// Line number on axis 0 (x) or 1 (y).
    pub fn axis_line(self, q: V, axis: usize) -> i32 {
        if axis == 0 { self.lx(q) } else { self.ly(q) }
    }

    /// (corner limit, side limit) of §2.1.
    fn limits(self) -> (i32, i32) {
        match self.class() {
            Class::Nineteen => (5, 4),
            Class::Thirteen => (4, 4),
            Class::Nine => (3, 3),
        }
    }

    /// 角, 边 or 中腹.
    pub fn region(self, q: V) -> &'static str {
        let (cl, sl) = self.limits();
        if self.lx(q) <= cl && self.ly(q) <= cl {
            "角"
        } else if self.line(q) <= sl {
            "边"
        } else {
            "中腹"
        }
    }

    /// Whether `q` is the centre of an odd board.
    pub fn is_centre(self, q: V) -> bool {
        self.n % 2 == 1 && q.0 == self.n / 2 && q.1 == self.n / 2
    }

    /// The star points of §2.2 (sizes other than 9, 13 and 19 by their class).
    pub fn is_star(self, q: V) -> bool {
        if self.is_centre(q) {
            return true;
        }
        let (lx, ly) = (self.lx(q), self.ly(q));
        match self.class() {
            Class::Nine => lx == 3 && ly == 3,
            Class::Thirteen => lx == 4 && ly == 4,
            Class::Nineteen => {
                let mid = |c: i32| self.n % 2 == 1 && c == self.n / 2;
                (lx == 4 || mid(q.0)) && (ly == 4 || mid(q.1))
            }
        }
    }

    /// The corner-point name of §2.3, if any.
    pub fn corner_point(self, q: V) -> Option<&'static str> {
        let (lx, ly) = (self.lx(q), self.ly(q));
        // Both below the centre line.
        if 2 * lx > self.n || 2 * ly > self.n {
            return None;
        }
        match (lx.min(ly), lx.max(ly)) {
            (3, 3) => Some("三三"),
            (3, 4) => Some("小目"),
            (4, 5) => Some("高目"),
            (3, 5) => Some("目外"),
            (5, 5) => Some("五五"),
            _ => None,
        }
    }

    /// The corner of a stone with both axis lines ≤ 5 (§2.4), as the coordinates of the
    /// corner point.
    pub fn corner_of(self, s: V) -> Option<V> {
        if self.lx(s) > 5 || self.ly(s) > 5 {
            return None;
        }
        let c = |x: i32| if x <= self.n - 1 - x { 0 } else { self.n - 1 };
        Some((c(s.0), c(s.1)))
    }

    /// Frame coordinates of `q` relative to corner `c`.
    pub fn frame(self, c: V, q: V) -> V {
        ((q.0 - c.0).abs() + 1, (q.1 - c.1).abs() + 1)
    }

    /// Whether the corner box of `c` holds no stone other than those `except`.
    pub fn box_empty_but(self, b: &Board, c: V, except: &[V]) -> bool {
        for y in 0..self.n {
            for x in 0..self.n {
                let q = (x, y);
                let f = self.frame(c, q);
                if f.0 <= 7 && f.1 <= 7 && self.get(b, q).is_some() && !except.contains(&q) {
                    return false;
                }
            }
        }
        true
    }

    /// The nearest-edge frame of `q`: (normal axis, the edge's side is low), if `lx ≠ ly`.
    pub fn edge_frame(self, q: V) -> Option<(usize, bool)> {
        let (lx, ly) = (self.lx(q), self.ly(q));
        if lx == ly {
            return None;
        }
        let axis = if lx < ly { 0 } else { 1 };
        let c = if axis == 0 { q.0 } else { q.1 };
        Some((axis, c < self.n - c))
    }

    /// The direction class of a step from `s` to `p` on one row or column (§1.3), with the
    /// normal line `ln` and the centre normal `cn` (for `along` steps).
    pub fn step(self, s: V, p: V) -> Step {
        let d_axis = if s.0 != p.0 { 0 } else { 1 };
        let other = 1 - d_axis;
        let ln = self.axis_line(s, other);
        let (ls, lp) = (self.axis_line(s, d_axis), self.axis_line(p, d_axis));
        let class = if ln < ls.min(lp) {
            Dir::Along
        } else if lp < ls {
            Dir::Down
        } else {
            Dir::Up
        };
        let coord = if other == 0 { s.0 } else { s.1 };
        let sign = if coord < self.n - coord { 1 } else { -1 };
        let cn = if other == 0 { (sign, 0) } else { (0, sign) };
        Step { class, ln, cn, d_line_p: lp }
    }
}

/// Direction class of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Along,
    Up,
    Down,
}

/// A step's class and the lines around it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub class: Dir,
    /// The common line number on the other axis.
    pub ln: i32,
    /// Unit vector away from the nearer edge on the normal axis.
    pub cn: V,
    /// The d-line of the destination.
    pub d_line_p: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(n: i32) -> Geo {
        Geo { n }
    }
    fn at(s: &str) -> V {
        v(s.parse().unwrap())
    }

    #[test]
    fn regions_and_points() {
        let g19 = g(19);
        assert_eq!(g19.region(at("E5")), "角");
        assert_eq!(g19.region(at("F3")), "边");
        assert_eq!(g19.region(at("F5")), "中腹");
        assert!(g19.is_star(at("K10")) && g19.is_star(at("D10")) && g19.is_star(at("Q16")));
        assert!(!g19.is_star(at("C3")));
        assert_eq!(g19.corner_point(at("P3")), Some("目外"));
        assert_eq!(g(13).corner_point(at("L3")), Some("三三"));
        assert!(g(13).is_star(at("G7")) && g(13).is_star(at("K4")) && !g(13).is_star(at("D7")));
        assert!(g(9).is_star(at("C3")) && g(9).is_star(at("E5")));
        assert_eq!(g(9).corner_point(at("D5")), None);
        assert_eq!(g(9).corner_point(at("C4")), Some("小目"));
    }

    #[test]
    fn steps() {
        let g19 = g(19);
        let s = g19.step(at("C10"), at("C13"));
        assert_eq!(s.class, Dir::Along);
        assert_eq!(s.ln, 3);
        assert_eq!(s.cn, (1, 0));
        assert_eq!(g19.step(at("Q4"), at("Q3")).class, Dir::Down);
        assert_eq!(g19.step(at("C10"), at("D10")).class, Dir::Up);
        // Across the centre line.
        assert_eq!(g19.step(at("K9"), at("K11")).class, Dir::Up);
        assert_eq!(g19.step(at("F11"), at("F12")).cn, (1, 0));
    }
}

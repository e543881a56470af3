//! Star points (星) and the fixed handicap placements of GTP (让子).

use crate::point::Point;

/// The handicap cannot be placed as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// Fixed handicaps need a board of 7 × 7 or more.
    #[error("no fixed handicap on a {0}×{0} board (7×7 or larger)")]
    BoardTooSmall(usize),
    /// More stones than this size has handicap points for, or fewer than two.
    #[error("a fixed handicap on {size}×{size} is 2 to {max} stones, not {asked}")]
    BadCount {
        /// The board size.
        size: usize,
        /// The number asked for.
        asked: usize,
        /// The most this size allows.
        max: usize,
    },
    /// A free handicap point is off the board or given twice.
    #[error("handicap point {0} is off the board or given twice")]
    BadPoint(Point),
    /// A free handicap of fewer than 2 stones, or one that fills the board.
    #[error("a free handicap is 2 stones or more and leaves the board some empty point, not {0}")]
    BadFreeCount(usize),
    /// Handicap stones go on an empty board before the first move.
    #[error("handicap stones can only be placed on an empty board before the first move")]
    NotAtStart,
}

/// The line (from 0) of the corner handicap points: the 3-3 points up to 12 × 12, 4-4 above.
fn edge(size: usize) -> u8 {
    if size <= 12 { 2 } else { 3 }
}

/// The largest fixed handicap on this size: 9 on odd sizes from 9 × 9, otherwise 4.
#[must_use]
pub fn max_fixed(size: usize) -> usize {
    if size < 7 {
        0
    } else if size % 2 == 1 && size >= 9 {
        9
    } else {
        4
    }
}

/// The fixed handicap points for `n` stones in GTP's order (GTP v2 §4.1.1): for 19 × 19,
/// D4 Q16 D16 Q4, then K10 for odd counts, D10 Q10 for six and more, K4 K16 for eight and more.
///
/// # Errors
/// [`HandicapError`] when the size or the count does not allow a fixed handicap.
pub fn fixed_points(size: usize, n: usize) -> Result<Vec<Point>, HandicapError> {
    if size < 7 {
        return Err(HandicapError::BoardTooSmall(size));
    }
    let max = max_fixed(size);
    if !(2..=max).contains(&n) {
        return Err(HandicapError::BadCount { size, asked: n, max });
    }
    let lo = edge(size);
    let hi = size as u8 - 1 - lo;
    let mid = (size / 2) as u8;
    let at = |c, r| Point::new(c, r).expect("handicap points lie on the board");
    let mut points = vec![at(lo, lo), at(hi, hi)];
    if n >= 3 {
        points.push(at(lo, hi));
    }
    if n >= 4 {
        points.push(at(hi, lo));
    }
    if n >= 6 {
        points.push(at(lo, mid));
        points.push(at(hi, mid));
    }
    if n >= 8 {
        points.push(at(mid, lo));
        points.push(at(mid, hi));
    }
    if n % 2 == 1 && n >= 5 {
        points.push(at(mid, mid));
    }
    Ok(points)
}

/// The star points (星) of a board, 天元 included: on 19 × 19 the nine 4-4/4-10/4-16 points, on
/// 13 × 13 the 4-4 points and the centre, on 9 × 9 the 3-3 points and the centre. Other sizes
/// from 7 × 7: the corner points of the fixed handicap, the centre on odd sizes, and the side
/// points on odd sizes from 15 × 15. None below 7 × 7.
#[must_use]
pub fn star_points(size: usize) -> Vec<Point> {
    if size < 7 {
        return Vec::new();
    }
    let lo = edge(size);
    let hi = size as u8 - 1 - lo;
    let mid = (size / 2) as u8;
    let odd = size % 2 == 1;
    let mut lines = vec![lo, hi];
    if odd && size >= 15 {
        lines.push(mid);
    }
    let mut points: Vec<Point> =
        lines.iter().flat_map(|&c| lines.iter().filter_map(move |&r| Point::new(c, r))).collect();
    if odd && !points.contains(&Point::new(mid, mid).expect("on board")) {
        points.push(Point::new(mid, mid).expect("on board"));
    }
    points.sort();
    points
}

/// Whether `p` is a star point of a board of `size` lines.
#[must_use]
pub fn is_star_point(size: usize, p: Point) -> bool {
    size >= 7 && star_points(size).contains(&p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(points: &[Point]) -> Vec<String> {
        points.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn gtp_fixed_handicap_order() {
        assert_eq!(names(&fixed_points(19, 2).unwrap()), ["D4", "Q16"]);
        assert_eq!(names(&fixed_points(19, 4).unwrap()), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(names(&fixed_points(19, 5).unwrap()), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(&fixed_points(19, 6).unwrap()), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(names(&fixed_points(19, 9).unwrap()), ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]);
        assert_eq!(names(&fixed_points(13, 3).unwrap()), ["D4", "K10", "D10"]);
        assert_eq!(names(&fixed_points(9, 5).unwrap()), ["C3", "G7", "C7", "G3", "E5"]);
        assert!(fixed_points(19, 10).is_err());
        assert!(fixed_points(19, 1).is_err());
        assert!(fixed_points(10, 5).is_err());
        assert!(fixed_points(6, 2).is_err());
    }

    #[test]
    fn star_points_of_common_sizes() {
        assert_eq!(star_points(19).len(), 9);
        assert!(is_star_point(19, "K10".parse().unwrap()));
        assert!(is_star_point(19, "D16".parse().unwrap()));
        assert_eq!(names(&star_points(13)), ["D4", "K4", "G7", "D10", "K10"]);
        assert_eq!(names(&star_points(9)), ["C3", "G3", "E5", "C7", "G7"]);
        assert!(star_points(5).is_empty());
    }
}

//! Points of the board and moves.
//!
//! A [`Point`] does not depend on the board size: it is stored as an index into a padded
//! 27 × 27 array (the largest board, 25 × 25, plus a border on each side), so that the four
//! neighbours of any point are at the constant offsets ±1 and ±27. Columns and rows count from
//! 0 at the lower-left corner, as GTP does (`A1` is column 0, row 0).

use std::fmt;
use std::str::FromStr;

/// The largest supported board: 25 × 25 (GTP's letters stop at Z, skipping I).
pub const MAX_SIZE: u8 = 25;
/// The smallest supported board.
pub const MIN_SIZE: u8 = 2;
/// Width of the padded array: one border column on each side of the largest board.
pub(crate) const STRIDE: usize = MAX_SIZE as usize + 2;
/// Number of cells of the padded array.
pub(crate) const AREA: usize = STRIDE * STRIDE;
/// Offsets of the four orthogonal neighbours in the padded array.
pub(crate) const NEIGHBOURS: [isize; 4] = [-(STRIDE as isize), -1, 1, STRIDE as isize];
/// Offsets of the four diagonal neighbours in the padded array.
pub(crate) const DIAGONALS: [isize; 4] =
    [-(STRIDE as isize) - 1, -(STRIDE as isize) + 1, STRIDE as isize - 1, STRIDE as isize + 1];

/// The GTP column letters: A to Z without I.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point (intersection) of the board, from `A1` (lower left) up to `Z25`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point at `col`, `row` (both from 0, row 0 at the bottom), or `None` when either is
    /// 25 or more.
    #[must_use]
    pub const fn new(col: u8, row: u8) -> Option<Point> {
        if col < MAX_SIZE && row < MAX_SIZE {
            Some(Point(((row as usize + 1) * STRIDE + col as usize + 1) as u16))
        } else {
            None
        }
    }

    /// The column, from 0 at the left.
    #[must_use]
    pub const fn col(self) -> u8 {
        (self.0 as usize % STRIDE - 1) as u8
    }

    /// The row, from 0 at the bottom.
    #[must_use]
    pub const fn row(self) -> u8 {
        (self.0 as usize / STRIDE - 1) as u8
    }

    /// Whether the point lies on a board of `size` lines.
    #[inline]
    #[must_use]
    pub const fn is_on(self, size: u8) -> bool {
        self.col() < size && self.row() < size
    }

    /// The index into the padded array (for per-point tables of size [`Point::TABLE_SIZE`]).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The length a table indexed by [`Point::index`] needs.
    pub const TABLE_SIZE: usize = AREA;

    /// The point whose [`Point::index`] is `index`: its inverse, for per-point tables and
    /// compact move lists (the search's tree) that store the index. Not checked beyond a debug
    /// assertion: an index that no point has gives a point on no board
    /// ([`crate::Board::contains`] is false).
    ///
    /// ```
    /// use tengen_core::Point;
    /// let d4: Point = "D4".parse().unwrap();
    /// assert_eq!(Point::from_index(d4.index()), d4);
    /// ```
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Point {
        debug_assert!(index < AREA);
        Point(index as u16)
    }

    /// The GTP column letter of this point (`A`…`Z`, no `I`).
    #[must_use]
    pub fn column_letter(self) -> char {
        COLUMN_LETTERS[self.col() as usize] as char
    }

    /// Parses a GTP vertex such as `D4`, `q16` or `Z25` (case-insensitive, no `I` column).
    /// `pass` is not a point: use [`Move`]'s parser for that.
    ///
    /// # Errors
    /// [`ParsePointError`] when the text is not a vertex.
    pub fn parse_gtp(s: &str) -> Result<Point, ParsePointError> {
        let err = || ParsePointError(s.to_owned());
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(err)?;
        let letter = letter.to_ascii_uppercase();
        let col = COLUMN_LETTERS.iter().position(|&c| c == letter).ok_or_else(err)?;
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(err());
        }
        let row: usize = std::str::from_utf8(digits).map_err(|_| err())?.parse().map_err(|_| err())?;
        if row == 0 || digits[0] == b'0' {
            return Err(err());
        }
        Point::new(col as u8, (row - 1).try_into().map_err(|_| err())?).ok_or_else(err)
    }
}

impl fmt::Display for Point {
    /// GTP notation: `D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row() + 1)
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The text is not a GTP vertex.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a vertex: {0:?} (expected a letter A-Z without I and a row number, e.g. D4)")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        Point::parse_gtp(s)
    }
}

/// A move: a stone on a point, or a pass (虚着). Resignation is an outcome, not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a stone on the point.
    Play(Point),
    /// Pass.
    Pass,
}

impl fmt::Display for Move {
    /// GTP notation: `D4` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(p) => fmt::Display::fmt(p, f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParsePointError;
    /// Parses `pass` (any case) or a GTP vertex.
    fn from_str(s: &str) -> Result<Move, ParsePointError> {
        if s.eq_ignore_ascii_case("pass") { Ok(Move::Pass) } else { Point::parse_gtp(s).map(Move::Play) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for col in 0..MAX_SIZE {
            for row in 0..MAX_SIZE {
                let p = Point::new(col, row).unwrap();
                assert_eq!((p.col(), p.row()), (col, row));
                assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            }
        }
        assert_eq!(Point::new(25, 0), None);
    }

    #[test]
    fn gtp_vertices() {
        assert_eq!(Point::parse_gtp("A1").unwrap(), Point::new(0, 0).unwrap());
        assert_eq!(Point::parse_gtp("j10").unwrap(), Point::new(8, 9).unwrap());
        assert_eq!(Point::parse_gtp("T19").unwrap().to_string(), "T19");
        assert_eq!(Point::parse_gtp("Z25").unwrap().to_string(), "Z25");
        for bad in ["", "I5", "A0", "A26", "A", "5", "AA1", "A01", "A1x", "é1"] {
            assert!(Point::parse_gtp(bad).is_err(), "{bad} should not parse");
        }
        assert_eq!("PASS".parse::<Move>(), Ok(Move::Pass));
        assert!(Point::new(8, 8).unwrap().is_on(9));
        assert!(!Point::new(9, 0).unwrap().is_on(9));
    }
}

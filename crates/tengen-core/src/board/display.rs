//! Comparing and printing boards.

use std::fmt;

use super::Board;
use crate::color::Color;
use crate::point::Point;

impl PartialEq for Board {
    /// Two boards are equal when they have the same size, stones, ko ban and capture counts.
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size
            && self.hash() == other.hash()
            && self.ko() == other.ko()
            && self.captures == other.captures
            && self.points().all(|p| self.get(p) == other.get(p))
    }
}

impl Eq for Board {}

impl fmt::Display for Board {
    /// The board as text, top row first, with GTP coordinates: `X` Black, `O` White, `+` star
    /// points, `.` other empty points.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        let letters = || (0..size).map(|c| Point::new(c, 0).map_or('?', Point::column_letter));
        write!(f, "   ")?;
        for l in letters() {
            write!(f, " {l}")?;
        }
        writeln!(f)?;
        for row in (0..size).rev() {
            write!(f, "{:>3}", row + 1)?;
            for col in 0..size {
                let p = Point::new(col, row).expect("on board");
                let ch = match self.get(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None if crate::handicap::is_star_point(size as usize, p) => '+',
                    None => '.',
                };
                write!(f, " {ch}")?;
            }
            writeln!(f, " {}", row + 1)?;
        }
        write!(f, "   ")?;
        for l in letters() {
            write!(f, " {l}")?;
        }
        writeln!(f)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

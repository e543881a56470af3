//! `Setup`: a position that is not necessarily legal, with public fields, turned into a
//! [`Game`](crate::Game) only through validation.

use crate::board::Board;
use crate::color::Color;
use crate::point::{MAX_SIZE, Point};
use crate::rules::Rules;

/// A starting position, not yet checked: build one freely, then `Game::try_from(setup)`.
///
/// ```
/// use tengen_core::{Color, Game, Setup};
///
/// let setup = Setup::from_ascii("
///     . O X .
///     O . O X
///     . O X .
///     . . . .
/// ").unwrap();
/// assert_eq!(setup.size, 4);
/// let game = Game::try_from(setup).unwrap();
/// assert_eq!(game.to_move(), Color::Black);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board size (2 to 25).
    pub size: usize,
    /// The rules.
    pub rules: Rules,
    /// Black stones.
    pub black: Vec<Point>,
    /// White stones.
    pub white: Vec<Point>,
    /// Who moves first.
    pub to_move: Color,
    /// How many of the black stones are handicap stones (for White's compensation).
    pub handicap: usize,
}

/// Why a [`Setup`] is not a valid starting position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The size is outside 2…25.
    #[error(transparent)]
    Size(#[from] crate::board::BoardSizeError),
    /// A stone lies off the board.
    #[error("stone at {0} is off the {1}×{1} board")]
    OffBoard(Point, usize),
    /// Two stones on one point.
    #[error("two stones at {0}")]
    Duplicate(Point),
    /// A chain without liberties: that position cannot occur in a game.
    #[error("the chain at {0} has no liberty")]
    NoLiberty(Point),
    /// More handicap stones than black stones.
    #[error("handicap of {0} but only {1} black stones")]
    Handicap(usize, usize),
    /// The ASCII diagram could not be read.
    #[error("diagram line {line}: {message}")]
    Diagram {
        /// 1-based line of the diagram text.
        line: usize,
        /// What is wrong there.
        message: String,
    },
}

impl Setup {
    /// An empty board of `size` with the Chinese rules, Black to move.
    #[must_use]
    pub fn new(size: usize) -> Setup {
        Setup {
            size,
            rules: Rules::chinese(),
            black: Vec::new(),
            white: Vec::new(),
            to_move: Color::Black,
            handicap: 0,
        }
    }

    /// Reads a square diagram, top row first: `X` (or `B`, `#`) for Black, `O` (or `W`) for
    /// White, `.`, `+` or `,` for an empty point; spaces are ignored, as are blank lines and
    /// a trailing `|` frame. Chinese rules, Black to move.
    ///
    /// # Errors
    /// [`SetupError::Diagram`] for an unknown character or a diagram that is not square.
    pub fn from_ascii(text: &str) -> Result<Setup, SetupError> {
        let rows: Vec<(usize, Vec<char>)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.chars().filter(|c| !c.is_whitespace() && *c != '|').collect::<Vec<_>>()))
            .filter(|(_, r)| !r.is_empty())
            .collect();
        let size = rows.len();
        if !(2..=usize::from(MAX_SIZE)).contains(&size) {
            return Err(SetupError::Diagram { line: 1, message: format!("{size} rows; a board has 2 to 25") });
        }
        let mut setup = Setup::new(size);
        for (k, (line, row)) in rows.iter().enumerate() {
            if row.len() != size {
                return Err(SetupError::Diagram {
                    line: *line,
                    message: format!("{} points in this row, {size} expected", row.len()),
                });
            }
            for (col, &ch) in row.iter().enumerate() {
                let p = Point::new(col as u8, (size - 1 - k) as u8).expect("size checked");
                match ch {
                    'X' | 'x' | 'B' | '#' => setup.black.push(p),
                    'O' | 'o' | 'W' => setup.white.push(p),
                    '.' | '+' | ',' => {}
                    other => {
                        return Err(SetupError::Diagram {
                            line: *line,
                            message: format!("unknown character {other:?} (use X, O or .)"),
                        });
                    }
                }
            }
        }
        Ok(setup)
    }

    /// The board of this setup after validation: on the board, no point twice, every chain
    /// with a liberty.
    ///
    /// # Errors
    /// The first [`SetupError`] found.
    pub fn board(&self) -> Result<Board, SetupError> {
        let mut board = Board::new(self.size)?;
        for (color, stones) in [(Color::Black, &self.black), (Color::White, &self.white)] {
            for &p in stones {
                if !board.contains(p) {
                    return Err(SetupError::OffBoard(p, self.size));
                }
                if !board.is_empty(p) {
                    return Err(SetupError::Duplicate(p));
                }
                board.put_stone(p, color);
            }
        }
        if let Some(p) = self.black.iter().chain(&self.white).find(|&&p| board.liberties(p) == 0) {
            return Err(SetupError::NoLiberty(*p));
        }
        if self.handicap > self.black.len() {
            return Err(SetupError::Handicap(self.handicap, self.black.len()));
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    fn at(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn every_invalid_setup_is_refused_with_its_reason() {
        assert!(matches!(Game::try_from(Setup::new(1)), Err(SetupError::Size(_))));
        assert!(matches!(Game::try_from(Setup::new(26)), Err(SetupError::Size(_))));
        let off = Setup { black: vec![at("J9")], ..Setup::new(5) };
        assert_eq!(Game::try_from(off).unwrap_err(), SetupError::OffBoard(at("J9"), 5));
        let twice = Setup { black: vec![at("A1")], white: vec![at("A1")], ..Setup::new(5) };
        assert_eq!(Game::try_from(twice).unwrap_err(), SetupError::Duplicate(at("A1")));
        let dead = Setup { black: vec![at("A1")], white: vec![at("A2"), at("B1")], ..Setup::new(5) };
        assert_eq!(Game::try_from(dead).unwrap_err(), SetupError::NoLiberty(at("A1")));
        let handicap = Setup { black: vec![at("C3")], handicap: 2, ..Setup::new(5) };
        assert_eq!(Game::try_from(handicap).unwrap_err(), SetupError::Handicap(2, 1));
    }

    #[test]
    fn diagrams_report_the_line() {
        let err = Setup::from_ascii(". .\n. . .\n").unwrap_err();
        assert!(matches!(err, SetupError::Diagram { line: 2, .. }), "{err:?}");
        let err = Setup::from_ascii(". .\n. Z\n").unwrap_err();
        assert!(matches!(err, SetupError::Diagram { line: 2, .. }), "{err:?}");
        assert!(Setup::from_ascii(".\n").is_err());
        let s = Setup::from_ascii("|X .|\n|. O|\n").unwrap();
        assert_eq!((s.black, s.white), (vec![at("A2")], vec![at("B1")]));
    }
}

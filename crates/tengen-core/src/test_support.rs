//! Helpers of the unit tests: positions from diagrams, points from vertices.

use crate::{Board, Game, Point, Setup};

/// The board of a diagram (see [`Setup::from_ascii`]), checked as a game would be.
pub(crate) fn board(text: &str) -> Board {
    Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
}

/// The point of a GTP vertex such as `C3`.
pub(crate) fn at(s: &str) -> Point {
    s.parse().unwrap()
}

//! Seki (双活) by a static rule: two touching chains of opposite colours are in seki when both
//! have two or more liberties and neither side can take a liberty of the other's chain — every
//! such point is illegal for it, or leaves its own chain there with one liberty without
//! capturing. This covers the textbook forms (two shared liberties; an eye each and one shared
//! liberty); a life-and-death reader would find more. Counting and dead-stone judgements use it
//! so that a seki is never called dead.

use crate::board::Board;
use crate::point::Point;

/// The chains (each by its lowest stone) in seki with the chain at `a` by the static rule;
/// empty when `a` is empty or in no seki.
///
/// ```
/// use tengen_core::{Game, Point, Setup, seki_partners};
/// // White's A3-C3-C1 chain and Black's B2 share the liberties A2 and B1: whoever plays
/// // there puts its own chain in atari. (Black's A1 shares them too but touches no White
/// // stone.)
/// let game = Game::try_from(Setup::from_ascii("
///     . . . . .
///     X X X X .
///     O O O X .
///     . X O X .
///     X . O X .").unwrap()).unwrap();
/// let at = |s: &str| -> Point { s.parse().unwrap() };
/// assert_eq!(seki_partners(game.board(), at("C1")), [at("B2")]);
/// let white = game.board().chain(at("C1")).min().unwrap();
/// assert_eq!(seki_partners(game.board(), at("B2")), [white]);
/// // The wall around them is in no seki.
/// assert!(seki_partners(game.board(), at("D4")).is_empty());
/// ```
#[must_use]
pub fn seki_partners(board: &Board, a: Point) -> Vec<Point> {
    let Some(ca) = board.get(a) else { return Vec::new() };
    let mut partners: Vec<Point> = Vec::new();
    if board.liberties(a) < 2 {
        return partners;
    }
    for s in board.chain(a).collect::<Vec<_>>() {
        for q in board.neighbours(s) {
            if board.get(q) != Some(!ca) || partners.iter().any(|&p| board.same_chain(p, q)) {
                continue;
            }
            if board.liberties(q) >= 2 && stuck(board, a, q) && stuck(board, q, a) {
                partners.push(board.chain(q).min().expect("a stone"));
            }
        }
    }
    partners.sort_unstable();
    partners
}

/// For the owner of chain `x`: every liberty of chain `y` is illegal for it or leaves its
/// own chain there with one liberty without capturing.
fn stuck(board: &Board, x: Point, y: Point) -> bool {
    let cx = board.get(x).expect("a stone");
    board.liberty_points(y).into_iter().all(|l| {
        if !board.is_legal(l, cx) {
            return true;
        }
        let mut t = board.clone();
        let played = t.play_unchecked(l, cx);
        played.captured == 0 && t.liberties(l) == 1
    })
}

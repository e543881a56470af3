//! The seeds' etiquette (对局礼仪) for the first move: Black opens in its own upper-right
//! corner — the top-right of the usual diagram, Black sitting at the bottom — and leaves the
//! upper-left, nearest the opponent's right hand, to the opponent.

use tengen_core::{Color, Game, Move, Point};

use crate::Decision;

/// `decision` with the etiquette of the first move applied when `on` (a search's
/// `SearchParams::etiquette`).
pub(crate) fn observed(on: bool, game: &Game, color: Color, decision: Decision) -> Decision {
    match decision {
        Decision::Play(mv) if on => Decision::Play(first_move(game, color, mv)),
        other => other,
    }
}

/// `chosen`, Black's first stone on an empty board, moved to the upper-right corner: by the
/// board's symmetry when it is a corner move (the same shape, so the same value on an empty
/// board), else to the corner's star point (4-4 from 13×13 up, 3-3 below). Any other move,
/// and boards under 7×7, unchanged.
#[must_use]
pub fn first_move(game: &Game, color: Color, chosen: Move) -> Move {
    let board = game.board();
    let n = board.size();
    let Move::Play(p) = chosen else { return chosen };
    let first = color == Color::Black
        && n >= 7
        && board.stone_count(Color::Black) + board.stone_count(Color::White) == 0
        && !game.moves().iter().any(|&(c, m)| c == Color::Black && m != Move::Pass);
    if !first {
        return chosen;
    }
    let (col, row) = (usize::from(p.col()), usize::from(p.row()));
    let upper_right = |c: usize, r: usize| 2 * c > n - 1 && 2 * r > n - 1;
    if upper_right(col, row) {
        return chosen;
    }
    // A corner move: within the outer quarter of the board (plus a line, at least the 4th
    // line) from two edges.
    let line = |c: usize| c.min(n - 1 - c) + 1;
    let reach = ((n - 1) / 4 + 1).max(4);
    let at = |c: usize, r: usize| Move::Play(Point::new(c as u8, r as u8).expect("on the board"));
    if line(col) <= reach && line(row) <= reach && 2 * col != n - 1 && 2 * row != n - 1 {
        return at(col.max(n - 1 - col), row.max(n - 1 - row));
    }
    let star = if n >= 13 { 4 } else { 3 };
    at(n - star, n - star)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Rules;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn black_opens_in_its_upper_right_corner() {
        let empty = Game::new(19, Rules::chinese()).unwrap();
        for (chosen, played) in [
            ("D17", "Q17"),
            ("D4", "Q16"),
            ("C16", "R16"),
            ("R4", "R16"),
            ("Q16", "Q16"),
            ("N10", "Q16"),
            ("F9", "Q16"),
            ("K10", "Q16"),
            ("pass", "pass"),
        ] {
            assert_eq!(first_move(&empty, Color::Black, mv(chosen)), mv(played), "{chosen}");
        }
        let nine = Game::new(9, Rules::chinese()).unwrap();
        assert_eq!(first_move(&nine, Color::Black, mv("E5")), mv("G7"));
        assert_eq!(first_move(&nine, Color::Black, mv("C3")), mv("G7"));
        assert_eq!(first_move(&nine, Color::Black, mv("C4")), mv("G6"));
        assert_eq!(first_move(&nine, Color::Black, mv("E3")), mv("G7"));
        // White, a later move, a handicap game, a tiny board: as chosen.
        assert_eq!(first_move(&empty, Color::White, mv("D4")), mv("D4"));
        let mut later = empty.clone();
        later.play(mv("Q16")).unwrap();
        later.play(mv("D4")).unwrap();
        assert_eq!(first_move(&later, Color::Black, mv("D16")), mv("D16"));
        let handicap = Game::with_fixed_handicap(19, Rules::chinese(), 2).unwrap();
        assert_eq!(first_move(&handicap, Color::White, mv("C3")), mv("C3"));
        assert_eq!(first_move(&Game::new(5, Rules::chinese()).unwrap(), Color::Black, mv("B2")), mv("B2"));
        // Black passed first: its first stone still goes to the corner.
        let mut passed = empty.clone();
        passed.play(Move::Pass).unwrap();
        passed.play(Move::Pass).unwrap();
        passed.resume().unwrap();
        assert_eq!(first_move(&passed, Color::Black, mv("D4")), mv("Q16"));
    }
}

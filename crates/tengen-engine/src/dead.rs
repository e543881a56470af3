//! Dead stones from an ownership estimate, shared by both searches.

use tengen_core::{Board, Color, Game, Point, Status, Unconditional, pass_alive, seki_partners};

/// Whether `color` passes back after the opponent's pass, given the stones its judgement calls
/// `dead`: the count with them taken off wins and none of them is the opponent's. Counting its
/// own dead stones alive would pass won games away; an opponent's dead stone is taken off the
/// board first (under area counting that costs nothing), so that no disagreement about it can
/// turn the result.
pub(crate) fn passes_back(game: &Game, color: Color, dead: &[Point]) -> bool {
    !opponent_dead_stands(game.board(), color, dead) && game.score(dead).winner() == Some(color)
}

/// The most points an empty region bordered by both colours has when a game is over: dame
/// are single points or short lines between the borders.
const DAME_AT_MOST: usize = 4;

/// Whether the game is still open, with the chains through `dead` taken off: an empty region
/// touches no stone, or is bordered by both colours and larger than dame. No level passes
/// then (not even back): the borders are not closed, and under area counting a move there
/// costs nothing. (A seki with five shared liberties or more would read as open; none was
/// met in the project's records.)
pub(crate) fn undecided(board: &Board, dead: &[Point]) -> bool {
    tengen_core::count::empty_regions_without(board, dead)
        .iter()
        .any(|(points, borders)| *borders == [false; 2] || (*borders == [true; 2] && points.len() > DAME_AT_MOST))
}

/// The points of `dead` that hold a stone of `color` on `board` (a searcher's own dead stones,
/// or those of them still standing at the end of a line of play).
pub(crate) fn stones_of(board: &Board, color: Color, dead: &[Point]) -> Vec<Point> {
    dead.iter().copied().filter(|&p| board.get(p) == Some(color)).collect()
}

/// Whether one of `dead` is a stone of `color`'s opponent on `board`: then `color` does not
/// pass (it plays another move of its search's).
pub(crate) fn opponent_dead_stands(board: &Board, color: Color, dead: &[Point]) -> bool {
    dead.iter().any(|&p| board.get(p) == Some(color.opponent()))
}

/// The chains of `board` whose points `ownership` (by `Point::index`, Black's +1 to White's
/// −1) gives, on average, to the opponent by more than `threshold` — never a chain Benson's
/// algorithm proves alive, nor one in seki by the static rule (`tengen_core::seki_partners`:
/// playouts, which fill shared liberties at random, would call both sides of a seki dead).
/// Sorted.
pub(crate) fn dead_by_ownership(board: &Board, ownership: &[f32], threshold: f32) -> Vec<Point> {
    let alive = [pass_alive(board, Color::Black), pass_alive(board, Color::White)];
    let mut dead = Vec::new();
    let mut seen = vec![false; Point::TABLE_SIZE];
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        if seen[p.index()] {
            continue;
        }
        let stones: Vec<Point> = board.chain(p).collect();
        for s in &stones {
            seen[s.index()] = true;
        }
        let sign = if c == Color::Black { 1.0 } else { -1.0 };
        let own = stones.iter().map(|s| sign * ownership[s.index()]).sum::<f32>() / stones.len() as f32;
        // The static seki rule tries moves on copies of the board: only for chains the
        // ownership would call dead.
        if own < -threshold && !alive[c.index()].is_alive(p) && seki_partners(board, p).is_empty() {
            dead.extend(stones);
        }
    }
    dead.sort();
    dead
}

/// `dead` and the stones inside the opponent's unconditional area (dead whatever is played, as
/// GNU Go's `unconditional_status` reports them), sorted: a dead group whose capture the
/// ownership half misses (nicklas19 of GNU Go's regression games) is named all the same.
pub(crate) fn with_unconditional(board: &Board, mut dead: Vec<Point>) -> Vec<Point> {
    let status = Unconditional::new(board);
    dead.extend(board.points().filter(|&p| status.status(p) == Status::Dead));
    dead.sort();
    dead.dedup();
    dead
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::Setup;

    fn board(text: &str) -> Board {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
    }

    #[test]
    fn a_game_is_open_until_its_borders_close() {
        // An empty board, and one whose only region touches both colours widely: open.
        assert!(undecided(&board(&". . . . .\n".repeat(5)), &[]));
        assert!(undecided(&board(". . . . .\n. X . O .\n. . . . .\n. . . . .\n. . . . ."), &[]));
        // Walls with a dame line of up to four points between them: closed.
        let closed = ". . X O .\n. . X O .\n. . X O .\n. . X O .\n. . X O .";
        assert!(!undecided(&board(closed), &[]));
        let dame = ". X . O .\n. X . O .\n. X . O .\n. X . O .\n. X X O .";
        assert!(!undecided(&board(dame), &[]));
        // Five dame points in a row are not dame yet.
        let wide = ". X . O .\n. X . O .\n. X . O .\n. X . O .\n. X . O .";
        assert!(undecided(&board(wide), &[]));
        // A dead stone inside the other's area does not open the game; alive it would.
        let invaded = ". . X O .\n. O X O .\n. . X O .\n. . X O .\n. . X O .";
        assert!(undecided(&board(invaded), &[]));
        let b = board(invaded);
        let stone = b
            .points()
            .find(|&p| b.get(p) == Some(Color::White) && b.neighbours(p).all(|n| b.get(n) != Some(Color::White)))
            .unwrap();
        assert!(!undecided(&b, &[stone]));
    }
}

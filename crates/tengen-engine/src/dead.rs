//! Dead stones from an ownership estimate, shared by both searches.

use tengen_core::{Board, Color, Game, Point, Status, Unconditional, pass_alive, seki_partners};

/// Whether `color` passes back after the opponent's pass, given the stones its judgement calls
/// `dead`: the game is not open ([`undecided`]), the count with them taken off wins and none of
/// them is the opponent's. At every level — weak levels err in play, not by refusing to stop.
/// Counting its own dead stones alive would pass won games away (3 of 11 lost in a match); an
/// opponent's dead stone is taken off the board first (under area counting that costs nothing),
/// so that no disagreement about it can turn the result.
pub(crate) fn passes_back(game: &Game, color: Color, dead: &[Point]) -> bool {
    let board = game.board();
    !undecided(board, dead) && !opponent_dead_stands(board, color, dead) && game.score(dead).winner() == Some(color)
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
    by_ownership(board, ownership, threshold).0
}

/// [`dead_by_ownership`], and apart the chains it spares only for the static seki rule: the
/// rule looks one or two moves ahead, and a reading decides (shi-gnu of GNU Go's regression
/// games: Black's chain shares B1 and D2 with White's A2 and B3, and White's B1 starts a ko
/// that Black cannot win).
pub(crate) fn by_ownership(board: &Board, ownership: &[f32], threshold: f32) -> (Vec<Point>, Vec<Vec<Point>>) {
    let alive = [pass_alive(board, Color::Black), pass_alive(board, Color::White)];
    let (mut dead, mut seki) = (Vec::new(), Vec::new());
    for (stones, own) in chains_owned(board, ownership) {
        let (p, c) = (stones[0], board.get(stones[0]).expect("a stone"));
        // The static seki rule tries moves on copies of the board: only for chains the
        // ownership would call dead.
        if own >= -threshold || alive[c.index()].is_alive(p) {
            continue;
        }
        if seki_partners(board, p).is_empty() {
            dead.extend(stones);
        } else {
            seki.push(stones);
        }
    }
    dead.sort();
    (dead, seki)
}

/// Every chain of `board` with the mean `ownership` of its stones for their owner (+1 theirs,
/// −1 the opponent's).
fn chains_owned(board: &Board, ownership: &[f32]) -> Vec<(Vec<Point>, f32)> {
    let mut seen = vec![false; Point::TABLE_SIZE];
    let mut chains = Vec::new();
    for p in board.points() {
        let Some(c) = board.get(p) else { continue };
        if seen[p.index()] {
            continue;
        }
        let stones: Vec<Point> = board.chain(p).collect();
        for s in &stones {
            seen[s.index()] = true;
        }
        let own = mean_for(c, &stones, ownership);
        chains.push((stones, own));
    }
    chains
}

/// The mean of `ownership` (Black's +1 to White's −1) over `points`, for `color` (+1 its own);
/// 0 for no points.
fn mean_for(color: Color, points: &[Point], ownership: &[f32]) -> f32 {
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    if points.is_empty() {
        0.0
    } else {
        points.iter().map(|p| sign * ownership[p.index()]).sum::<f32>() / points.len() as f32
    }
}

/// `dead` with the chains a nakade kills (`tengen_core::nakade_sacrifice`: two liberties
/// shared with stones whose sacrifice leaves them an eye space of three points or fewer) and
/// without those stones, which live once the chain is taken: playouts, which seldom play the
/// sacrifice, read such a corner as a seki or the other way round. Only where the attacker's
/// other chains round it are alive by `ownership` (their mean leans the attacker's way by more
/// than [`NAKADE_WALL`]): a sacrifice inside a wall that is itself short of liberties starts a
/// capturing race instead. Sorted.
pub(crate) fn with_nakade(board: &Board, ownership: &[f32], mut dead: Vec<Point>) -> Vec<Point> {
    for (stones, _) in chains_owned(board, ownership) {
        let p = stones[0];
        let Some(sacrifice) = tengen_core::nakade_sacrifice(board, p) else { continue };
        let attacker = !board.get(p).expect("a stone");
        let wall_alive = stones
            .iter()
            .flat_map(|&s| board.neighbours(s))
            .filter(|&n| board.get(n) == Some(attacker) && !sacrifice.iter().any(|&s| board.same_chain(s, n)))
            .all(|n| mean_for(attacker, &board.chain(n).collect::<Vec<_>>(), ownership) > NAKADE_WALL);
        if wall_alive {
            dead.retain(|d| !sacrifice.iter().any(|&s| board.same_chain(s, *d)));
            dead.extend(stones);
        }
    }
    dead.sort();
    dead.dedup();
    dead
}

/// How far the attacker's wall must lean its way for a nakade to kill ([`with_nakade`]).
const NAKADE_WALL: f32 = 0.5;

/// The weak groups of `board` by `ownership` (Black's +1 to White's −1), each by its stones:
/// chains whose mean ownership for their owner lies within `WEAK_OWNERSHIP` — neither clearly
/// alive nor already clearly dead —, not proved alive by Benson's algorithm nor in seki by the
/// static rule, joined into groups where they share a liberty.
pub(crate) fn weak_groups(board: &Board, ownership: &[f32]) -> Vec<Vec<Point>> {
    let alive = [pass_alive(board, Color::Black), pass_alive(board, Color::White)];
    let mut groups: Vec<(Vec<Point>, Vec<Point>)> = Vec::new();
    for (stones, own) in chains_owned(board, ownership) {
        let (p, c) = (stones[0], board.get(stones[0]).expect("a stone"));
        if !WEAK_OWNERSHIP.contains(&own) || alive[c.index()].is_alive(p) || !seki_partners(board, p).is_empty() {
            continue;
        }
        // Join every group of this colour it shares a liberty with (stones, liberties).
        let mut group = (stones, board.liberty_points(p));
        groups.retain_mut(|(s, l)| {
            let joins = board.get(s[0]) == Some(c) && l.iter().any(|x| group.1.contains(x));
            if joins {
                group.0.append(s);
                group.1.append(l);
            }
            !joins
        });
        groups.push(group);
    }
    groups.into_iter().map(|(stones, _)| stones).collect()
}

/// The mean ownership (for the owner) of the chains whose life a reading decides.
const WEAK_OWNERSHIP: std::ops::RangeInclusive<f32> = -0.1..=0.6;

/// `dead` without the stones that, once every stone of `dead` is off the board, stand in an
/// empty region the opponent does not border — their own side's area, or no one's: a dead
/// stone stands in the opponent's area (and either way it counts the same under area
/// counting). Where a reading kills a weak group, the ownership may still have given the
/// stones inside it to the group's owner (gargoyle of GNU Go's regression games: a stone inside
/// a group read dead); on an open board a reading may kill a lone stone that nothing surrounds.
pub(crate) fn in_opponent_area(board: &Board, mut dead: Vec<Point>) -> Vec<Point> {
    let mut spared = Vec::new();
    for (points, borders) in tengen_core::count::empty_regions_without(board, &dead) {
        for color in [Color::Black, Color::White] {
            if !borders[color.opponent().index()] {
                spared.extend(points.iter().copied().filter(|&p| board.get(p) == Some(color)));
            }
        }
    }
    dead.retain(|p| !spared.contains(p));
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
    fn a_nakade_kills_inside_a_living_wall_only() {
        // White's A3-C3-C1 shares A2 and B1 with Black's A1 and B2: Black A2 gives three
        // stones and leaves White the bent three. With Black's wall alive White is dead and
        // Black's inside stones live; with the wall leaning White's way nothing changes.
        let b = board(". . . . .\nX X X X .\nO O O X .\n. X O X .\nX . O X .");
        let at = |v: &str| -> Point { v.parse().unwrap() };
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        for p in b.points() {
            ownership[p.index()] = match b.get(p) {
                Some(Color::Black) => 0.9,
                Some(Color::White) => -0.2,
                None => 0.0,
            };
        }
        let white: Vec<Point> = ["A3", "B3", "C3", "C2", "C1"].iter().map(|v| at(v)).collect();
        let mut expected = white.clone();
        expected.sort();
        assert_eq!(with_nakade(&b, &ownership, vec![at("A1"), at("B2")]), expected);
        let wall: Vec<Point> = b.chain(at("D4")).collect();
        wall.iter().for_each(|s| ownership[s.index()] = -0.3);
        assert_eq!(with_nakade(&b, &ownership, vec![]), Vec::<Point>::new());
    }

    #[test]
    fn a_stone_in_its_own_sides_area_is_not_dead() {
        // White's B4-B5 dies inside Black's wall; Black's A5 inside it, which the ownership
        // gave White, is then in Black's own area. Black's C1 stands in a region both colours
        // border and stays dead.
        let b = board("X O X . .\n. O X . .\nX X X . .\n. . . . O\n. . X O .");
        let at = |v: &str| -> Point { v.parse().unwrap() };
        let dead = vec![at("A5"), at("B4"), at("B5"), at("C1")];
        assert_eq!(in_opponent_area(&b, dead), vec![at("B4"), at("B5"), at("C1")]);
        assert_eq!(in_opponent_area(&b, vec![at("A5")]), vec![at("A5")]);
        // A lone stone that no opposing stone surrounds is no one's to take.
        let lone = board(". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .");
        assert_eq!(in_opponent_area(&lone, vec![at("C3")]), Vec::<Point>::new());
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

//! Counting a finished game: area counting in stones (数子法) and territory counting with
//! prisoners (填空比目法), both giving one [`Score`] from which every way of saying the result
//! is derived.
//!
//! Units: counts and margins are kept in **half points**. Under area counting one point of area
//! is one stone, so a half point is a half stone of count and — since the margin in stones is
//! half the margin in points — a **quarter stone** of margin. Komi 7.5 points is 15 half points,
//! 3¾ stones; a 19 × 19 count of 185 stones for Black is 370 half points and wins by ¾ stone.

use std::fmt;

use crate::board::{Board, PointSet};
use crate::color::Color;
use crate::point::{NEIGHBOURS, Point};
use crate::rules::{Komi, Rules, Scoring};

/// Who a point counts for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    /// Black's stone or Black's point.
    Black,
    /// White's stone or White's point.
    White,
    /// Split half–half (area counting: dame and shared seki liberties).
    Shared,
    /// Nobody's (territory counting: dame and seki points).
    Neutral,
}

impl Owner {
    fn of(color: Color) -> Owner {
        match color {
            Color::Black => Owner::Black,
            Color::White => Owner::White,
        }
    }
}

/// Every point's owner after the dead stones are removed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerMap {
    size: usize,
    owners: Vec<(Point, Owner)>,
}

impl OwnerMap {
    /// The owner of `p`.
    ///
    /// # Panics
    /// When `p` is off the board.
    #[must_use]
    pub fn owner(&self, p: Point) -> Owner {
        assert!(p.is_on(self.size as u8), "{p} is off the board");
        self.owners[usize::from(p.row()) * self.size + usize::from(p.col())].1
    }

    /// All points with their owners, row by row from `A1`.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Owner)> + '_ {
        self.owners.iter().copied()
    }

    fn count_half_points(&self, color: Color) -> i32 {
        let own = Owner::of(color);
        self.owners
            .iter()
            .map(|&(_, o)| match o {
                o if o == own => 2,
                Owner::Shared => 1,
                _ => 0,
            })
            .sum()
    }
}

/// The outcome of counting, in half points (see the module notes for units).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Area or territory counting.
    pub scoring: Scoring,
    /// The board size.
    pub size: usize,
    /// Black's count in half points: area (stones plus points, shared ones halved), or
    /// territory plus prisoners.
    pub black: i32,
    /// White's count, likewise.
    pub white: i32,
    /// Komi.
    pub komi: Komi,
    /// White's handicap compensation in half points.
    pub handicap_bonus: i32,
}

impl Score {
    /// Black's margin in half points (negative when White leads): in quarter stones under
    /// area counting.
    #[must_use]
    pub fn margin(&self) -> i32 {
        self.black - self.white - self.komi.half_points() - self.handicap_bonus
    }

    /// The winner, or `None` for a draw (和棋).
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match self.margin() {
            0 => None,
            m if m > 0 => Some(Color::Black),
            _ => Some(Color::White),
        }
    }

    /// The result in points as SGF's `RE` and GTP's `final_score` write it: `B+1.5`, `W+0.5`,
    /// or `0` for a draw.
    #[must_use]
    pub fn result_points(&self) -> String {
        match self.winner() {
            None => "0".to_owned(),
            Some(c) => format!("{}+{}", c.letter(), half_points_text(self.margin().abs())),
        }
    }

    /// The result as Chinese players say it: `黑胜 3/4 子` under area counting, `白胜 1.5 目`
    /// under territory counting, `和棋` for a draw.
    #[must_use]
    pub fn result_zh(&self) -> String {
        match (self.winner(), self.scoring) {
            (None, _) => "和棋".to_owned(),
            (Some(c), Scoring::Area) => format!("{}胜 {} 子", c.zh(), quarters_text(self.margin().abs(), true)),
            (Some(c), Scoring::Territory) => {
                format!("{}胜 {} 目", c.zh(), half_points_text(self.margin().abs()))
            }
        }
    }

    /// A side's count as text: stones under area counting (`185`, `184½`), points under
    /// territory counting (`61`, `60.5`).
    #[must_use]
    pub fn count_text(&self, color: Color) -> String {
        let half = if color == Color::Black { self.black } else { self.white };
        match self.scoring {
            Scoring::Area => quarters_text(2 * half, false),
            Scoring::Territory => half_points_text(half),
        }
    }

    /// Under area counting, the count Black must exceed to win, in **quarter stones**: the
    /// par (归本数, half the board) plus half of komi and of the handicap bonus — 184¼ stones
    /// (737 quarters) on 19 × 19 with komi 3¾, 182½ with four handicap stones and no komi.
    #[must_use]
    pub fn black_threshold(&self) -> i32 {
        // Black wins when black − white − komi − bonus > 0 in half points, with
        // white = 2·N² − black; a count of `black` half points is 2·black quarter stones.
        (self.size * self.size) as i32 * 2 + self.komi.half_points() + self.handicap_bonus
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result_points(), self.result_zh())
    }
}

/// Half points as a decimal: `7.5`, `0`, `-3`.
#[must_use]
pub fn half_points_text(half: i32) -> String {
    let sign = if half < 0 { "-" } else { "" };
    let a = half.unsigned_abs();
    if a.is_multiple_of(2) { format!("{sign}{}", a / 2) } else { format!("{sign}{}.5", a / 2) }
}

/// Quarters as a mixed number: `3¾`, `184½`, `2` (or, with `phrase`, `3/4`, `184 又 1/2`).
#[must_use]
pub fn quarters_text(quarters: i32, phrase: bool) -> String {
    let sign = if quarters < 0 { "-" } else { "" };
    let a = quarters.unsigned_abs();
    let (whole, frac) = (a / 4, a % 4);
    let frac_text = match (frac, phrase) {
        (0, _) => "",
        (1, false) => "¼",
        (2, false) => "½",
        (3, false) => "¾",
        (1, true) => "1/4",
        (2, true) => "1/2",
        _ => "3/4",
    };
    match (whole, frac) {
        (_, 0) => format!("{sign}{whole}"),
        (0, _) => format!("{sign}{frac_text}"),
        _ if phrase => format!("{sign}{whole} 又 {frac_text}"),
        _ => format!("{sign}{whole}{frac_text}"),
    }
}

/// The board with the chains through the `dead` points removed (points off the board or
/// empty are ignored), and the number of dead stones of each colour.
fn without_dead(board: &Board, dead: &[Point]) -> (Board, [u32; 2]) {
    let mut b = board.clone();
    let mut removed = [0u32; 2];
    for &p in dead {
        if b.contains(p)
            && let Some(c) = b.get(p)
        {
            removed[c.index()] += u32::from(b.remove_chain_at(p));
        }
    }
    (b, removed)
}

/// The empty regions of `board` with the chains through `dead` removed: each with its points
/// and which colours (Black, White) border it.
#[must_use]
pub fn empty_regions_without(board: &Board, dead: &[Point]) -> Vec<(Vec<Point>, [bool; 2])> {
    empty_regions(&without_dead(board, dead).0)
}

/// The empty regions of a board: each with its points and which colours border it.
fn empty_regions(board: &Board) -> Vec<(Vec<Point>, [bool; 2])> {
    let mut seen = PointSet::new();
    let mut regions = Vec::new();
    for start in board.points() {
        if !board.is_empty(start) || !seen.insert(start.index()) {
            continue;
        }
        let mut points = vec![start];
        let mut borders = [false; 2];
        let mut i = 0;
        while i < points.len() {
            let p = points[i];
            i += 1;
            for d in NEIGHBOURS {
                let n = Point::from_index((p.index() as isize + d) as usize);
                match board.get(n) {
                    Some(c) => borders[c.index()] = true,
                    None if board.is_empty(n) && seen.insert(n.index()) => points.push(n),
                    None => {}
                }
            }
        }
        regions.push((points, borders));
    }
    regions
}

/// Area ownership (数子法) after removing the chains through `dead`: stones count for their
/// colour; an empty region bordered by one colour only is that colour's; in a region bordered
/// by both (dame, seki) every point is split half–half, except the one-sided points of a seki
/// — points that only one side can ever occupy, the other side's stone there being taken at
/// once however the dame are filled, in a region whose chains no fill can capture or put in
/// atari — which are that side's (the seki exception of the Chinese rules, defined exactly at
/// [`crate::seki`]). An empty board is split too.
#[must_use]
pub fn area_owners(board: &Board, dead: &[Point]) -> OwnerMap {
    let (b, _) = without_dead(board, dead);
    let regions = empty_regions(&b);
    let mut dame = PointSet::new();
    for (points, _) in regions.iter().filter(|(_, borders)| borders == &[true, true]) {
        for p in points {
            dame.insert(p.index());
        }
    }
    let mut table = vec![Owner::Shared; Point::TABLE_SIZE];
    for (points, borders) in &regions {
        match borders {
            [true, false] => points.iter().for_each(|p| table[p.index()] = Owner::Black),
            [false, true] => points.iter().for_each(|p| table[p.index()] = Owner::White),
            [false, false] => {}
            [true, true] => {
                for (p, owner) in points.iter().zip(crate::seki::one_sided_points(&b, points, &dame)) {
                    table[p.index()] = owner.map_or(Owner::Shared, Owner::of);
                }
            }
        }
    }
    let owners = b.points().map(|p| (p, b.get(p).map_or(table[p.index()], Owner::of))).collect();
    OwnerMap { size: b.size(), owners }
}

/// Territory ownership (填空比目法) after removing the chains through `dead`: an empty point
/// belongs to a side when its region is bordered by that side only; stones and every other
/// point are neutral.
#[must_use]
pub fn territory_owners(board: &Board, dead: &[Point]) -> OwnerMap {
    territory_of(&without_dead(board, dead).0)
}

/// Territory ownership of a board whose dead stones are already removed.
fn territory_of(b: &Board) -> OwnerMap {
    let mut table = vec![Owner::Neutral; Point::TABLE_SIZE];
    for (points, borders) in empty_regions(b) {
        let owner = match borders {
            [true, false] => Owner::Black,
            [false, true] => Owner::White,
            _ => Owner::Neutral,
        };
        for p in points {
            table[p.index()] = owner;
        }
    }
    OwnerMap { size: b.size(), owners: b.points().map(|p| (p, table[p.index()])).collect() }
}

/// Counts the position under `rules`, after removing the chains through `dead`.
///
/// Area counting: each side's stones plus its points, shared points halved (see
/// [`area_owners`]); White also receives the handicap bonus of `rules` for `handicap` stones.
/// Territory counting: each side's territory plus its prisoners — the stones it captured
/// during the game (from the board's counters) and the opponent's dead stones.
///
/// ```
/// use tengen_core::{Color, Rules, Setup, count};
///
/// // 5×5, Black owns the two lower rows and the middle row is dame.
/// let setup = Setup::from_ascii("
///     . . . . .
///     O O O O O
///     . . . . .
///     X X X X X
///     . . . . .
/// ").unwrap();
/// let game = tengen_core::Game::try_from(setup).unwrap();
/// let score = count::score(game.board(), &[], &Rules::chinese(), 0);
/// assert_eq!(score.count_text(Color::Black), "12½");
/// assert_eq!(score.result_points(), "W+7.5");
/// assert_eq!(score.result_zh(), "白胜 3 又 3/4 子");
/// ```
#[must_use]
pub fn score(board: &Board, dead: &[Point], rules: &Rules, handicap: usize) -> Score {
    match rules.scoring {
        Scoring::Area => {
            let owners = area_owners(board, dead);
            Score {
                scoring: Scoring::Area,
                size: board.size(),
                black: owners.count_half_points(Color::Black),
                white: owners.count_half_points(Color::White),
                komi: rules.komi,
                handicap_bonus: 2 * rules.handicap_bonus.points(handicap) as i32,
            }
        }
        Scoring::Territory => {
            let (cleared, dead_stones) = without_dead(board, dead);
            let owners = territory_of(&cleared);
            let prisoners = |c: Color| (board.captures(c) + dead_stones[c.opponent().index()]) as i32;
            Score {
                scoring: Scoring::Territory,
                size: board.size(),
                black: owners.count_half_points(Color::Black) + 2 * prisoners(Color::Black),
                white: owners.count_half_points(Color::White) + 2 * prisoners(Color::White),
                komi: rules.komi,
                handicap_bonus: 0,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(half_points_text(15), "7.5");
        assert_eq!(half_points_text(-4), "-2");
        assert_eq!(quarters_text(15, false), "3¾");
        assert_eq!(quarters_text(15, true), "3 又 3/4");
        assert_eq!(quarters_text(3, true), "3/4");
        assert_eq!(quarters_text(1, true), "1/4");
        assert_eq!(quarters_text(738, false), "184½");
        assert_eq!(quarters_text(8, true), "2");
    }
}

//! Unconditional status of every point, as GNU Go's `unconditional_status` reports it: stones
//! that stay whatever the opponent plays, stones that are lost whatever their owner plays, and
//! the territory between.
//!
//! Pure Benson ([`crate::benson::pass_alive`]) lets the owner only pass. Players, referees and
//! GNU Go's regression suite also call unconditional what the owner keeps by nothing more than
//! taking stones left in atari. This module computes that, for each colour `c` in turn, on a
//! scratch board, by letting the opponent `o` do its worst:
//!
//! 1. `o` tries to capture each `c` chain by filling all its liberties it legally can; the try
//!    stands if the chain is captured or left in atari (then `o` takes it), and is taken back
//!    otherwise. This repeats until no chain falls. Two-stone `c` chains standing alone (no
//!    other `c` stone among their eight neighbours) are spared here: they may be the eye of a
//!    seki and are dealt with below.
//! 2. The `c` chains left cannot be captured. `o` now fills all their liberties it legally can,
//!    extends its own chains that are in atari for as long as that is legal, then fills the
//!    liberties of the spared two-stone chains, and plays one of the two liberties of each `o`
//!    chain whose two liberties touch (the one that leaves more room).
//! 3. What remains decides: `c` stones left, their liberties, and `o` chains in atari (with
//!    their last liberty) are `c`'s unconditional area. On the original board, a point in that
//!    area is `alive` if it holds a `c` stone, `c`'s territory if empty, and `dead` if it
//!    holds an `o` stone. White is computed first, then Black, whose answers prevail.

use crate::board::{Board, PointSet};
use crate::color::Color;
use crate::point::{DIAGONALS, NEIGHBOURS, Point};

/// The unconditional status of a point, named as GNU Go's `unconditional_status` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A stone its owner keeps whatever happens.
    Alive,
    /// A stone inside the opponent's unconditional area.
    Dead,
    /// An empty point of that colour's unconditional territory.
    Territory(Color),
    /// Nothing certain.
    Undecided,
}

impl Status {
    /// GNU Go's word for it: `alive`, `dead`, `black_territory`, `white_territory`, `undecided`.
    #[must_use]
    pub fn gtp_name(self) -> &'static str {
        match self {
            Status::Alive => "alive",
            Status::Dead => "dead",
            Status::Territory(Color::Black) => "black_territory",
            Status::Territory(Color::White) => "white_territory",
            Status::Undecided => "undecided",
        }
    }
}

/// The unconditional status of every point of one board.
///
/// ```
/// use tengen_core::{Game, Setup, Status, Unconditional};
///
/// let game = Game::try_from(Setup::from_ascii("
///     . X O . . X
///     X X X X X X
///     . . . . . .
///     . . . . . .
///     . . . . . .
///     . . . . . .
/// ").unwrap()).unwrap();
/// let status = Unconditional::new(game.board());
/// assert_eq!(status.status("B6".parse().unwrap()), Status::Alive);
/// assert_eq!(status.status("C6".parse().unwrap()), Status::Dead);
/// assert_eq!(status.status("A3".parse().unwrap()), Status::Undecided);
/// ```
#[derive(Clone)]
pub struct Unconditional {
    size: usize,
    status: Vec<Status>,
}

impl Unconditional {
    /// Computes the status of every point of `board`.
    #[must_use]
    pub fn new(board: &Board) -> Unconditional {
        let mut status = vec![Status::Undecided; Point::TABLE_SIZE];
        for color in [Color::White, Color::Black] {
            let area = unconditional_area(board, color);
            for p in board.points() {
                if area.contains(p.index()) {
                    status[p.index()] = match board.get(p) {
                        Some(c) if c == color => Status::Alive,
                        Some(_) => Status::Dead,
                        None => Status::Territory(color),
                    };
                }
            }
        }
        Unconditional { size: board.size(), status }
    }

    /// The status of `p` (undecided for a point off the board).
    #[must_use]
    pub fn status(&self, p: Point) -> Status {
        if p.is_on(self.size as u8) { self.status[p.index()] } else { Status::Undecided }
    }
}

/// The points in GNU Go's row order: top row first, each from the left.
fn scan_order(board: &Board) -> Vec<Point> {
    let n = board.size() as u8;
    (0..n).rev().flat_map(|row| (0..n).filter_map(move |col| Point::new(col, row))).collect()
}

/// Plays `color` at `p` if that is legal on the board (no suicide, no ko retake).
fn try_play(board: &mut Board, p: Point, color: Color) -> bool {
    board.is_legal(p, color) && {
        board.play_unchecked(p, color);
        true
    }
}

/// Calls `f` once per chain of `color`, at its first stone in scan order; `f` may change the
/// board.
fn for_each_chain(board: &mut Board, order: &[Point], color: Color, mut f: impl FnMut(&mut Board, Point)) {
    let mut visited = PointSet::new();
    for &p in order {
        if board.get(p) == Some(color) && !visited.contains(p.index()) {
            for s in board.chain(p) {
                visited.insert(s.index());
            }
            f(board, p);
        }
    }
}

/// Two-stone chains of `color` with no other `color` stone among the eight neighbours of
/// either stone, and not on the edge: possible eyes of a seki.
fn lone_pairs(board: &Board, order: &[Point], color: Color) -> PointSet {
    let mut pairs = PointSet::new();
    for &p in order {
        if board.get(p) != Some(color) || board.chain_size(p) != 2 {
            continue;
        }
        let stones: Vec<Point> = board.chain(p).collect();
        let alone = stones.iter().all(|s| {
            NEIGHBOURS.iter().chain(&DIAGONALS).all(|&d| {
                let n = Point::from_index((s.index() as isize + d) as usize);
                let (r, c) = (n.index() / crate::point::STRIDE, n.index() % crate::point::STRIDE);
                let on = (1..=board.size()).contains(&r) && (1..=board.size()).contains(&c);
                on && (board.get(n) != Some(color) || board.same_chain(n, p))
            })
        });
        if alone {
            for s in stones {
                pairs.insert(s.index());
            }
        }
    }
    pairs
}

/// The four directions, each followed by the one a quarter turn from it.
const TURN: [isize; 4] = [-(crate::point::STRIDE as isize), -1, crate::point::STRIDE as isize, 1];

/// A lone pair of `color` lying in the opponent's eye space as below (`a` and `b` the pair,
/// `.` empty, `x` and `y` points where the opponent would play):
///
/// ```text
///   .
/// . a y
/// x b .
///   .
/// ```
///
/// If the opponent's stones on `x` and `y` would form one chain, capturing the pair would leave
/// the opponent a seki at best, never an unconditionally safe area: `color` adds a third stone
/// below `b`, so that taking the chain gives the opponent room and the area counts as unsettled.
fn break_critical_seki(board: &mut Board, b: Point, color: Color) {
    let other = color.opponent();
    let at = |p: Point, d: isize| Point::from_index((p.index() as isize + d) as usize);
    for k in 0..4 {
        let up = TURN[k];
        let a = at(b, up);
        if board.get(a) != Some(color) || !board.is_empty(at(a, up)) || !board.is_empty(at(b, -up)) {
            continue;
        }
        for right in [TURN[(k + 1) % 4], -TURN[(k + 1) % 4]] {
            if !board.is_empty(at(b, right)) || !board.is_empty(at(a, -right)) {
                continue;
            }
            let (x, y) = (at(b, -right), at(a, right));
            let mut probe = board.clone();
            if probe.is_empty(x) {
                try_play(&mut probe, x, other);
            }
            if probe.is_empty(y) {
                try_play(&mut probe, y, other);
            }
            if probe.get(x) == Some(other) && probe.get(y) == Some(other) && probe.same_chain(x, y) {
                try_play(board, at(b, -up), color);
                return;
            }
        }
    }
}

/// How many liberties (at most 4) a stone of `color` at the empty point `p` would have,
/// captures aside.
fn liberties_if_played(board: &Board, p: Point, color: Color) -> usize {
    let mut libs = PointSet::new();
    let mut count = 0;
    for n in board.neighbours(p) {
        let new: Vec<Point> = match board.get(n) {
            None => vec![n],
            Some(c) if c == color => board.liberty_points(n),
            Some(_) => Vec::new(),
        };
        for l in new {
            if l != p && libs.insert(l.index()) {
                count += 1;
            }
        }
    }
    count.min(4)
}

/// The points `color` keeps whatever the opponent plays (see the module notes).
fn unconditional_area(original: &Board, color: Color) -> PointSet {
    let other = color.opponent();
    let order = scan_order(original);
    let pairs = lone_pairs(original, &order, color);
    let mut board = original.clone();

    // 1. The opponent captures every chain it can.
    loop {
        let mut fell = false;
        let mut found = false;
        for_each_chain(&mut board, &order, color, |b, p| {
            if pairs.contains(p.index()) {
                return;
            }
            found = true;
            let before = b.clone();
            for lib in b.liberty_points(p) {
                try_play(b, lib, other);
            }
            if b.get(p) != Some(color) {
                fell = true;
            } else if let Some(last) = b.atari_liberty(p) {
                if b.is_suicide(last, other) {
                    *b = before;
                } else {
                    b.play_unchecked(last, other);
                    fell = true;
                }
            } else {
                *b = before;
            }
        });
        if !found {
            return PointSet::new();
        }
        if !fell {
            break;
        }
    }

    // 2. The opponent fills what it can around the chains that stand.
    for_each_chain(&mut board, &order, color, |b, p| {
        if !pairs.contains(p.index()) {
            for lib in b.liberty_points(p) {
                try_play(b, lib, other);
            }
        }
    });
    loop {
        let mut extended = false;
        for &p in &order {
            if board.get(p) == Some(other)
                && let Some(last) = board.atari_liberty(p)
            {
                extended |= try_play(&mut board, last, other);
            }
        }
        if !extended {
            break;
        }
    }
    for &p in &order {
        if pairs.contains(p.index()) && board.get(p) == Some(color) {
            break_critical_seki(&mut board, p, color);
        }
    }
    for &p in &order {
        if pairs.contains(p.index()) && board.get(p).is_some() {
            for lib in board.liberty_points(p) {
                try_play(&mut board, lib, other);
            }
        }
    }
    for &p in &order {
        if board.get(p) != Some(other) {
            continue;
        }
        let libs = board.liberty_points(p);
        if libs.len() != 2 {
            continue;
        }
        let (a, b) = (libs[0], libs[1]);
        if a.col().abs_diff(b.col()) + a.row().abs_diff(b.row()) != 1 {
            continue;
        }
        let key = |q: Point| (liberties_if_played(&board, q, color), liberties_if_played(&board, q, other));
        let pick = if key(a) >= key(b) { a } else { b };
        try_play(&mut board, pick, other);
    }

    // 3. What remains is the unconditional area.
    let mut area = PointSet::new();
    for &p in &order {
        match board.get(p) {
            Some(c) if c == color && !pairs.contains(p.index()) => {
                area.insert(p.index());
                for l in board.liberty_points(p) {
                    area.insert(l.index());
                }
            }
            Some(c) if c == other => {
                if let Some(last) = board.atari_liberty(p) {
                    area.insert(p.index());
                    area.insert(last.index());
                }
            }
            _ => {}
        }
    }
    area
}

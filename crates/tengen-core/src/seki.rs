//! Seki (双活) by a static rule: two touching chains of opposite colours are in seki when both
//! have two or more liberties and neither side can take a liberty of the other's chain — every
//! such point is illegal for it, or leaves its own chain there with one liberty without
//! capturing. This covers the textbook forms (two shared liberties; an eye each and one shared
//! liberty); a life-and-death reader would find more. Counting and dead-stone judgements use it
//! so that a seki is never called dead.

use crate::board::{Board, PointSet};
use crate::color::Color;
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

/// The one-sided points of seki (the seki exception of the Chinese rules, figure 10 of the
/// seed text): in a seki, a point that only one side can ever occupy — the other side's stone
/// there would be taken at once, however the dame are filled — is that side's.
///
/// The rule as implemented, for an empty region `R` bordered by both colours, on the board
/// with the dead stones removed:
///
/// - A **fill** by one side is its stone on an empty point of the *reach* of `R` (`R` and
///   every liberty, lying in a region bordered by both colours, of a chain next to `R`) that
///   is not **taken at once** (the move is suicide, or it captures nothing and leaves its
///   chain with one liberty).
/// - A fill that captures, or leaves an opposing chain with one liberty, **breaks** the
///   position: the chains around `R` are not in seki, and every point of `R` is shared.
/// - Each side's fills are followed in every order from the position as it stands (its own
///   fills only: the other side's fills only take liberties away from it). A point of `R` is
///   *occupiable* by a side when its stone there is a fill in one of the positions reached.
/// - A point of `R` belongs to a side when that side can occupy it and the other never can,
///   and no sequence of fills by either side breaks the position. Every other point of `R`
///   is shared half–half: ordinary dame, the shared liberties of a seki, and points that only
///   become safe for a side once it has filled a neighbouring dame.
/// - The fills followed are bounded ([`FILL_POSITIONS`] positions a side): a region whose
///   fills run past the bound is open play, not a seki, and shared.
///
/// Returns the owner of each point of `region` (in its order): `Some(colour)` for a
/// one-sided point, `None` for a shared one. `dame` holds every point of a region bordered
/// by both colours.
pub(crate) fn one_sided_points(board: &Board, region: &[Point], dame: &PointSet) -> Vec<Option<Color>> {
    let shared = vec![None; region.len()];
    // Fast path: every point fillable by both sides now is ordinary dame.
    if region.iter().all(|&p| [Color::Black, Color::White].iter().all(|&c| fill(board, p, c) == Fill::Safe)) {
        return shared;
    }
    let reach = reach(board, region, dame);
    let explore = |color: Color, early: bool| Closure::explore(board, region, &reach, color, early);
    let (Some(mut black), Some(mut white)) = (explore(Color::Black, true), explore(Color::White, true)) else {
        return shared;
    };
    // A side's one-sided points need the other side's closure complete (to say "never") and
    // its own (to say "never breaks"); an early stop means every point was occupiable.
    if white.complete && white.ever.iter().any(|&e| !e) && !black.complete {
        let Some(full) = explore(Color::Black, false) else { return shared };
        black = full;
    }
    if black.complete && black.ever.iter().any(|&e| !e) && !white.complete {
        let Some(full) = explore(Color::White, false) else { return shared };
        white = full;
    }
    black
        .ever
        .iter()
        .zip(&white.ever)
        .map(|(&b, &w)| match (b, w) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        })
        .collect()
}

/// The most positions one side's fills are followed through for one region.
pub const FILL_POSITIONS: usize = 512;

/// A stone of one side on an empty point, as a fill of a region bordered by both colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    /// Taken at once: suicide, or no capture and one liberty left.
    Unsafe,
    /// A fill: its chain keeps two liberties or more, nothing is captured or put in atari.
    Safe,
    /// It captures, or leaves an opposing chain with one liberty: no seki here.
    Breaks,
}

fn fill(board: &Board, p: Point, color: Color) -> Fill {
    let mut libs = [0u16; 5];
    let mut atari = false;
    for n in board.neighbours(p) {
        if board.get(n) == Some(!color) {
            match board.libs_upto(n.index(), 1, p.index(), &mut libs) {
                0 => return Fill::Breaks,
                1 => atari = true,
                _ => {}
            }
        }
    }
    // A suicide counts as a self-atari with no liberty.
    if board.self_atari(p, color).is_some() {
        Fill::Unsafe
    } else if atari {
        Fill::Breaks
    } else {
        Fill::Safe
    }
}

/// `region` and the liberties, in regions bordered by both colours, of its bordering chains.
fn reach(board: &Board, region: &[Point], dame: &PointSet) -> Vec<Point> {
    let mut seen = PointSet::new();
    let mut out: Vec<Point> = region.to_vec();
    for &p in region {
        seen.insert(p.index());
    }
    let mut heads = PointSet::new();
    for &p in region {
        for n in board.neighbours(p) {
            if board.get(n).is_none() || !heads.insert(board.chain(n).min().expect("a stone").index()) {
                continue;
            }
            for l in board.liberty_points(n) {
                if dame.contains(l.index()) && seen.insert(l.index()) {
                    out.push(l);
                }
            }
        }
    }
    out
}

/// What one side's fills can reach.
struct Closure {
    /// Per point of the region: occupiable by the side in some position reached.
    ever: Vec<bool>,
    /// Every position was followed (no early stop).
    complete: bool,
}

impl Closure {
    /// Follows `color`'s fills of `reach` from `board`; with `early`, stops once every point
    /// of `region` is occupiable. `None` when a fill breaks the position or the positions run
    /// past [`FILL_POSITIONS`].
    fn explore(board: &Board, region: &[Point], reach: &[Point], color: Color, early: bool) -> Option<Closure> {
        let mut ever = vec![false; region.len()];
        let mut seen = std::collections::HashSet::new();
        seen.insert(board.hash());
        let mut stack = vec![board.clone()];
        while let Some(pos) = stack.pop() {
            for (i, &q) in reach.iter().enumerate() {
                if !pos.is_empty(q) {
                    continue;
                }
                match fill(&pos, q, color) {
                    Fill::Breaks => return None,
                    Fill::Unsafe => continue,
                    Fill::Safe => {}
                }
                if i < region.len() {
                    ever[i] = true;
                }
                if seen.insert(pos.hash_after(q, color)) {
                    if seen.len() > FILL_POSITIONS {
                        return None;
                    }
                    let mut next = pos.clone();
                    next.play_unchecked(q, color);
                    stack.push(next);
                }
            }
            if early && ever.iter().all(|&e| e) {
                return Some(Closure { ever, complete: false });
            }
        }
        Some(Closure { ever, complete: true })
    }
}

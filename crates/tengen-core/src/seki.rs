//! Seki (双活) by a static rule: two chains of opposite colours that touch or share a
//! liberty are in seki when both have two or more liberties and neither side can take a
//! liberty of the other's chain — every such point is illegal for it, or leaves its own chain
//! there with one liberty without capturing — and neither can change that: a point illegal
//! only because the other side's stones round it have liberties elsewhere counts only if those
//! stones' liberties are closed to it as well, and a point self-atari only because its own
//! chain is short of liberties counts only if that chain cannot gain liberties by connecting or
//! capturing first. This covers the textbook forms (two shared liberties; an eye each and one
//! shared liberty; one eye against none; stones without eyes that share liberties with groups
//! of one eye) and refuses the false seki of a finished game (one eye and a point the attacker
//! fills after connecting; an eye kept by a stone the attacker can put in atari). It is the
//! static rule of terms.md §14.3, which the commentary names: shared liberties whose filling
//! kills by nakade pass it, and [`nakade_sacrifice`] finds them for the judgement of dead
//! stones; a life-and-death reader would find more. Counting and dead-stone judgements use it so that a
//! seki is never called dead.

use crate::board::{Board, PointSet};
use crate::color::Color;
use crate::point::Point;

/// The chains (each by its lowest stone) in seki with the chain at `a` by the static rule;
/// empty when `a` is empty or in no seki.
///
/// ```
/// use tengen_core::{Game, Point, Setup, seki_partners};
/// let at = |s: &str| -> Point { s.parse().unwrap() };
/// // An eye each (A5, E5) and the shared liberty C5: whoever plays there puts its own chain
/// // in atari.
/// let game = Game::try_from(Setup::from_ascii("
///     . O . X .
///     O O O X X
///     O O O X X
///     O O O X X
///     O O O X X").unwrap()).unwrap();
/// let (white, black) = (game.board().chain(at("B5")).min().unwrap(), game.board().chain(at("D5")).min().unwrap());
/// assert_eq!(seki_partners(game.board(), at("B5")), [black]);
/// assert_eq!(seki_partners(game.board(), at("D5")), [white]);
/// // White's A3-C3-C1 and Black's B2 and A1 share A2 and B1: whoever fills one is captured,
/// // a seki by the static rule (A1 touches no White stone and takes part by its liberties).
/// // Black can kill all the same by nakade (`nakade_sacrifice`): A2 gives three stones and
/// // leaves White the bent three.
/// let game = Game::try_from(Setup::from_ascii("
///     . . . . .
///     X X X X .
///     O O O X .
///     . X O X .
///     X . O X .").unwrap()).unwrap();
/// assert_eq!(seki_partners(game.board(), at("C1")), [at("A1"), at("B2")]);
/// // The wall around them is in no seki either.
/// assert!(seki_partners(game.board(), at("D4")).is_empty());
/// ```
#[must_use]
pub fn seki_partners(board: &Board, a: Point) -> Vec<Point> {
    let Some(ca) = board.get(a) else { return Vec::new() };
    let mut partners: Vec<Point> = Vec::new();
    if board.liberties(a) < 2 {
        return partners;
    }
    // The opposing chains that touch the chain or share a liberty with it: a stone without
    // eyes may live in seki by liberties alone (KataGo's rules vector `GroupTaxSekiScoring`:
    // Black's J9 touches no White stone, and shares H9 and J8 with two White chains of one
    // eye each).
    let stones: Vec<Point> = board.chain(a).collect();
    let liberties = board.liberty_points(a);
    let candidates = stones.iter().chain(&liberties).flat_map(|&s| board.neighbours(s));
    let mut tried: Vec<Point> = Vec::new();
    for q in candidates {
        if board.get(q) != Some(!ca) || tried.iter().any(|&p| board.same_chain(p, q)) {
            continue;
        }
        tried.push(q);
        if board.liberties(q) >= 2 && stuck(board, a, q) && stuck(board, q, a) {
            partners.push(board.chain(q).min().expect("a stone"));
        }
    }
    partners.sort_unstable();
    partners
}

/// For the owner of chain `x`: every liberty of chain `y` is illegal for it or leaves its
/// own chain there with one liberty without capturing, for good:
///
/// - a point is illegal (suicide) only while the stones of `y`'s colour round it have
///   liberties elsewhere, so the liberties of those chains (they share an eye with `y`) must
///   be stuck as well;
/// - a point is self-atari only while the chains it would join are short of liberties, so none
///   of them may be able to gain liberties by joining another of its owner's chains or by a
///   capture ([`can_gain`]).
fn stuck(board: &Board, x: Point, y: Point) -> bool {
    let cx = board.get(x).expect("a stone");
    let cy = board.get(y).expect("a stone");
    let mut chains = vec![y];
    let mut next = 0;
    while let Some(&chain) = chains.get(next) {
        next += 1;
        for l in board.liberty_points(chain) {
            if !board.is_legal(l, cx) {
                for n in board.neighbours(l) {
                    if board.get(n) == Some(cy) && !chains.iter().any(|&c| board.same_chain(c, n)) {
                        chains.push(n);
                    }
                }
                continue;
            }
            let mut t = board.clone();
            let played = t.play_unchecked(l, cx);
            if played.captured > 0 || t.liberties(l) > 1 {
                return false;
            }
            if board.neighbours(l).any(|n| board.get(n) == Some(cx) && can_gain(board, n)) {
                return false;
            }
        }
    }
    true
}

/// The stones whose sacrifice kills the chain at `y` by nakade, if there are any: `y` has two
/// liberties, the opponent plays one of them into self-atari (captures nothing), and taking
/// those stones with the other leaves `y` no liberties but the points taken — at most three,
/// touching no other chain of `y`'s colour —, whose vital point the opponent plays again,
/// leaving `y` one eye. Returns the stones of the
/// sacrifice that stand on the board now (the opponent's chain that the move joins; empty
/// when the move stands alone). The false seki of handtalk1 of GNU Go's regression games:
/// White's corner shares R19 and T18 with Black's S19-T19, Black R19 gives three stones and
/// White, taking them, has the bent three R19-S19-T19 only.
///
/// ```
/// use tengen_core::{Game, Point, Setup, nakade_sacrifice};
/// let game = Game::try_from(Setup::from_ascii("
///     . . . . .
///     X X X X .
///     O O O X .
///     . X O X .
///     X . O X .").unwrap()).unwrap();
/// let at = |s: &str| -> Point { s.parse().unwrap() };
/// // Black A2 joins A1 and B2: three stones, and White's chain is left the bent three.
/// assert_eq!(nakade_sacrifice(game.board(), at("C1")), Some(vec![at("A1"), at("B2")]));
/// // Black's wall has more liberties than two.
/// assert_eq!(nakade_sacrifice(game.board(), at("D4")), None);
/// ```
#[must_use]
pub fn nakade_sacrifice(board: &Board, y: Point) -> Option<Vec<Point>> {
    let defender = board.get(y)?;
    let attacker = !defender;
    let liberties = board.liberty_points(y);
    if liberties.len() != 2 {
        return None;
    }
    liberties.into_iter().find_map(|l| {
        if !board.is_legal(l, attacker) {
            return None;
        }
        let mut t = board.clone();
        if t.play_unchecked(l, attacker).captured > 0 || t.liberties(l) != 1 || !sacrifice_kills(&t, l, y) {
            return None;
        }
        let mut stones: Vec<Point> = t.chain(l).filter(|&p| p != l).collect();
        stones.sort_unstable();
        Some(stones)
    })
}

/// Stones a sacrifice may lose and still kill: the defender who takes them gets an eye space
/// of at most this many points, which the attacker reduces to one eye by playing its vital
/// point (三目中手 and smaller).
const NAKADE_AT_MOST: usize = 3;

/// On `t`, where the attacker has just played `l` into self-atari on a liberty of the
/// defender's chain at `y`: whether the defender's capture leaves that chain with no
/// liberties but the points of the stones it took, at most [`NAKADE_AT_MOST`] of them — a
/// nakade: the attacker plays the vital point again and the chain has one eye.
fn sacrifice_kills(t: &Board, l: Point, y: Point) -> bool {
    let Some(defender) = t.get(y) else { return false };
    let taken: Vec<Point> = t.chain(l).collect();
    if taken.len() > NAKADE_AT_MOST {
        return false;
    }
    let [m] = t.liberty_points(l)[..] else { return false };
    if !t.is_legal(m, defender) {
        return false;
    }
    let mut after = t.clone();
    if after.play_unchecked(m, defender).captured == 0 || after.get(l).is_some() || after.get(y) != Some(defender) {
        return false;
    }
    // The space taken is the chain's only room, and it touches none of the defender's other
    // chains: through those the chain would connect out instead.
    after.liberty_points(y).iter().all(|p| taken.contains(p))
        && taken
            .iter()
            .flat_map(|&p| after.neighbours(p))
            .all(|n| after.get(n) != Some(defender) || after.same_chain(n, y))
}

/// Whether the owner of the chain at `c` can give it more liberties than it has by a move on
/// one of them that joins another of its chains or captures, or by joining moves in a row, up
/// to [`GAIN_MOVES`], none leaving it in atari: then its shortage of liberties is not for good.
/// (shi-gnu of GNU Go's regression games: White's F1–J1 joins F4, H4 and G5 at G4 and has two
/// liberties still, but F5 then joins the living E5 and F6.) A capture counts only as the
/// first move: before a later one the opponent answers.
fn can_gain(board: &Board, c: Point) -> bool {
    gains(board, c, board.liberties(c), GAIN_MOVES, true)
}

/// How many moves in a row [`can_gain`] tries.
const GAIN_MOVES: u32 = 2;

/// Whether the chain at `c` reaches more than `now` liberties within `moves` moves of its
/// owner on its liberties, each joining another chain of its (or, when `first`, capturing).
fn gains(board: &Board, c: Point, now: usize, moves: u32, first: bool) -> bool {
    let color = board.get(c).expect("a stone");
    board.liberty_points(c).into_iter().any(|m| {
        if !board.is_legal(m, color) {
            return false;
        }
        let joins = board.neighbours(m).any(|n| board.get(n) == Some(color) && !board.same_chain(n, c));
        let mut t = board.clone();
        let captured = t.play_unchecked(m, color).captured > 0;
        let after = t.liberties(m);
        (joins || (first && captured))
            && (after > now || (moves > 1 && after > 1 && gains(&t, m, now, moves - 1, false)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Setup};

    fn board(text: &str) -> Board {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
    }

    fn at(vertex: &str) -> Point {
        vertex.parse().unwrap()
    }

    #[test]
    fn one_eye_and_a_point_the_attacker_fills_after_connecting_is_no_seki() {
        // A finished game of the project's (data/records/9x9-gnugo-level10/r1-a-game-018):
        // White's A2-B2-C2-B1-B3 has the eye A1 and the point A3. Black A3 now would leave
        // A3-A4-A5-B4 with the one liberty C4, but Black connects at C4 first and then A3 takes
        // the group's last outside liberty: dead, not seki.
        let b = board(
            "O . O O O X X X .
             O . O . O O X O O
             O . O O X X X . O
             O O O O X . X X X
             X O X X X X X O X
             X X . X O O O O X
             . O X X X X O . O
             O O O X . X O O O
             . O X X O X O . O",
        );
        assert!(seki_partners(&b, at("B2")).is_empty());
        assert!(seki_partners(&b, at("A4")).is_empty());
    }

    #[test]
    fn an_eye_kept_by_a_stone_the_attacker_can_take_is_no_seki() {
        // The final position of a KGS game (GNU Go's regression games, kgs/sade-GNU; the
        // players agreed White's S6, T5 and T7 dead). S6 and T5 share S5 and T6: Black S5
        // leaves Black's R5 chain with the one liberty R7, and T6 is suicide — but only while
        // White's T7 has its liberty T8. Black T8 takes it, and then T6 or S5 kills all three.
        let b = board(
            ". . . . . . X O . . O O O X X O . . .
             . . . X X X X O X . O X O O X O O O .
             . X X O O X O O X . O X O O X X O . O
             X X O O X X X O O O O X X O X X O O X
             X O O . O O O O X X X . X O O X X O X
             O O . . . . . O O O X X X X O X O O X
             . . . . . . O X X O O O O X X X X X X
             . . . . O . X O X O O X X O O O X . X
             O O . O . . O O X X X . . X X O O X X
             X O O X O O O X . . . X X X O O O O X
             X X O X O X X X . . X . X O . O O O X
             . X X X X O . X O O X X O O . O X X .
             . . X X X X X . X O X O O O O X . X O
             . . X O O X X . X O O X X X O X X O .
             . X O O . O X . X X X . . X O O X . O
             . X X O O O X X O O X X X X X O X X X
             . X O O . . O O O . O O X X O . O X X
             . X O X O . O X X O . O X X O O . O O
             X X X X O . . O . X O O X X X O . . .",
        );
        assert!(seki_partners(&b, at("S6")).is_empty());
        assert!(seki_partners(&b, at("T5")).is_empty());
    }

    #[test]
    fn the_seki_of_the_counting_data_stay_seki() {
        // The seki of tests/data/rules/counting.txt: an eye each and a shared liberty; one
        // eye against none (Black's two chains share the eye D5); the seed text's figure 10;
        // the one-sided points inside a larger seki.
        for (text, white, black) in [
            (". O . X .\nO O O X X\nO O O X X\nO O O X X\nO O O X X", "B5", "D5"),
            ("X X X . X\nX . O X X\nO O . X X\nX X X X X\nX X X X X", "C4", "D4"),
            ("X X X X\nO . X X\nO O X X\nO . . X", "A3", "C3"),
            ("O O O O O\nO O O O X\nO O . X X\nO O X X .\nO . O O .", "C1", "D3"),
        ] {
            let b = board(text);
            let partners = |p: &str| -> Vec<Point> { seki_partners(&b, at(p)) };
            let lowest = |p: &str| b.chain(at(p)).min().unwrap();
            assert!(partners(white).contains(&lowest(black)), "{text}: {white} is in seki with {black}");
            assert!(partners(black).contains(&lowest(white)), "{text}: {black} is in seki with {white}");
        }
    }
}

//! Prior knowledge of new nodes' moves.

use tengen_core::{Board, Color, Game, Move, Point};

use super::tree::point;
use crate::params::SearchParams;
use crate::predictor::{Features, Predictor, Tactics};
use crate::shapes::ShapeTable;

/// The children of a node for `player` on `board`: legal points that are not its own eyes
/// (and pass, added by the caller). At the root, `root_game` filters by superko.
pub(super) fn candidate_moves(board: &Board, player: Color, root_game: Option<&Game>, out: &mut Vec<u16>) {
    out.clear();
    for q in board.empty_points() {
        if board.is_legal(q, player)
            && !board.is_eye(q, player)
            && root_game.is_none_or(|g| g.check(player, Move::Play(q)).is_ok())
        {
            out.push(q.index() as u16);
        }
    }
}

/// The priors of a new node's children, the root's and a leaf's alike: `moves` for `player`
/// on `board`, with `recent` the opponent's last stone and the player's own before it. Fills
/// `tactics` (each move's, read once for the priors and the predictor) and `priors`
/// ((simulations, wins) per move: hand-written knowledge, then shapes, then the predictor); both
/// left empty when [`PlayoutParams::priors`](crate::PlayoutParams::priors) is off.
pub(super) fn expansion_priors(
    board: &Board,
    player: Color,
    moves: &[u16],
    recent: (Option<Point>, Option<Point>),
    params: &SearchParams,
    tactics: &mut Vec<Tactics>,
    priors: &mut Vec<(f32, f32)>,
) {
    tactics.clear();
    priors.clear();
    if !params.playout.priors {
        return;
    }
    let opening = Opening::of(board);
    let cfg = recent.0.filter(|_| params.playout.cfg_prior > 0.0).map(|last| cfg_distances(board, last, 3));
    let near = |p: Point| match &cfg {
        Some(distances) => Near::Graph(distances[p.index()], params.playout.cfg_prior),
        None => Near::Lines(recent.0),
    };
    for &mv in moves {
        let t = Tactics::of(board, point(mv), player);
        tactics.push(t);
        priors.push(prior(board, player, mv, near(point(mv)), t, opening.as_ref()));
    }
    add_shape_priors(board, player, moves, priors, params.playout.shape_prior);
    add_predictor_priors(board, player, (moves, tactics), priors, params.playout.predictor_prior, recent);
}

/// How near a move is to the opponent's last stone, for [`prior`].
#[derive(Clone, Copy, Debug)]
pub(super) enum Near {
    /// The last stone, if any: a bonus within two lines (Manhattan distance).
    Lines(Option<Point>),
    /// The move's common-fate-graph distance ([`cfg_distances`]) and the simulations of the
    /// bonus at distance 1 ([`PlayoutParams::cfg_prior`](crate::PlayoutParams::cfg_prior)).
    Graph(u8, f32),
}

/// Distances from the stone at `from` on the common-fate graph, up to `max` (farther points
/// and unreachable ones: `u8::MAX`): a chain is one node, so every stone of a chain has the
/// distance of the first reached, and a step to a neighbouring point or chain adds 1.
pub(super) fn cfg_distances(board: &Board, from: Point, max: u8) -> Vec<u8> {
    let mut distance = vec![u8::MAX; Point::TABLE_SIZE];
    let mut queue = std::collections::VecDeque::new();
    for s in board.chain(from) {
        distance[s.index()] = 0;
        queue.push_back(s);
    }
    while let Some(p) = queue.pop_front() {
        let d = distance[p.index()];
        if d >= max {
            continue;
        }
        for q in board.neighbours(p) {
            if distance[q.index()] != u8::MAX {
                continue;
            }
            if board.get(q).is_some() {
                for s in board.chain(q) {
                    distance[s.index()] = d + 1;
                    queue.push_back(s);
                }
            } else {
                distance[q.index()] = d + 1;
                queue.push_back(q);
            }
        }
    }
    distance
}

/// Prior knowledge of a move, as (simulations, wins) added to its statistics (its own, or its
/// AMAF ones: [`PlayoutParams::priors_in_value`](crate::PlayoutParams::priors_in_value)): what a strong player sees at a glance,
/// worth a few simulations until real ones outweigh it.
/// `near` says how near it is to the opponent's last stone, `tactics` are the move's,
/// `opening` a large board's opening ([`Opening`]).
pub(super) fn prior(
    board: &Board,
    player: Color,
    mv: u16,
    near: Near,
    tactics: Tactics,
    opening: Option<&Opening>,
) -> (f32, f32) {
    let p = point(mv);
    // Every move starts from an even judgement, so that the others are bonuses and maluses.
    let (mut n, mut w) = (10.0f32, 5.0f32);
    let mut add = |sims: f32, rate: f32| {
        n += sims;
        w += sims * rate;
    };
    let Tactics { captured, saved, self_atari, ladder } = tactics;
    if captured > 0 {
        add(10.0 + 5.0 * captured.min(4) as f32, 1.0);
    }
    match self_atari {
        Some(size) if size >= 2 || captured == 0 => add(20.0, 0.0),
        // Running from atari: good unless the chain runs into a ladder.
        None if saved > 0 => add(20.0, if ladder { 0.05 } else { 1.0 }),
        _ => {}
    }
    let code = board.neighbourhood(p);
    if tengen_core::policy::matches_pattern(code, player) {
        add(10.0, 0.9);
    }
    match near {
        Near::Lines(Some(l)) => {
            let d = (i32::from(l.col()) - i32::from(p.col())).abs() + (i32::from(l.row()) - i32::from(p.row())).abs();
            if d <= 2 {
                add(10.0, 0.8);
            }
        }
        Near::Lines(None) => {}
        Near::Graph(d, sims) => match d {
            1 => add(sims, 1.0),
            2 => add(0.9 * sims, 1.0),
            3 => add(sims / 3.0, 1.0),
            _ => {}
        },
    }
    // A move on the first line with nothing around it: almost never right.
    let size = board.size() as u8;
    let edge = p.col() == 0 || p.row() == 0 || p.col() + 1 == size || p.row() + 1 == size;
    let empty_around = (0..8).all(|k| (code >> (2 * k)) & 3 >= 2);
    if edge && empty_around {
        add(20.0, 0.1);
    }
    if let Some(opening) = opening {
        opening.add_prior(p, &mut add);
    }
    (n, w)
}

/// The smallest board whose edges and corners get priors of their own ([`Opening`]): on 9 × 9
/// every point is near an edge and a corner.
const LARGE_BOARD: usize = 13;

/// The lines from the edges that make a corner's box: its first seven both ways.
const CORNER_BOX: u8 = 7;

/// What a large board's opening looks like to the priors: which points have a stone within
/// two lines (a 5 × 5 box round them), and which corners are still empty. With it, a quiet
/// move (no stone within two lines) on the second line starts low and one on the third line
/// high, as Pachi's edge priors and Gelly and Silver's (2007) have it; the 3-3, 3-4 and 4-4
/// points of an empty corner start higher still — corners first. (A quiet move on the first
/// line starts low on every board, in [`prior`].) Read once per expansion, and only while
/// stones stand on at most a quarter of the points.
pub(super) struct Opening {
    size: u8,
    /// By `Point::index`: a stone stands within two lines.
    near: [bool; Point::TABLE_SIZE],
    /// By [`Opening::corner`]: no stone in the corner's box.
    empty_corner: [bool; 4],
}

impl Opening {
    /// `None` on small boards and once stones stand on more than a quarter of the points.
    pub(super) fn of(board: &Board) -> Option<Opening> {
        let size = board.size();
        let stones = board.stone_count(Color::Black) + board.stone_count(Color::White);
        if size < LARGE_BOARD || 4 * stones > size * size {
            return None;
        }
        let size = size as u8;
        let mut near = [false; Point::TABLE_SIZE];
        let mut empty_corner = [true; 4];
        for p in board.points().filter(|&p| board.get(p).is_some()) {
            let (c, r) = (p.col(), p.row());
            for col in c.saturating_sub(2)..=(c + 2).min(size - 1) {
                for row in r.saturating_sub(2)..=(r + 2).min(size - 1) {
                    near[Point::new(col, row).expect("a point of the board").index()] = true;
                }
            }
            if let Some(k) = Opening::corner(size, p) {
                empty_corner[k] = false;
            }
        }
        Some(Opening { size, near, empty_corner })
    }

    /// The corner whose box holds `p` (0 lower left, 1 lower right, 2 upper left, 3 upper
    /// right), if any.
    fn corner(size: u8, p: Point) -> Option<usize> {
        let side = |x: u8| {
            if x < CORNER_BOX {
                Some(0)
            } else if x + CORNER_BOX >= size {
                Some(1)
            } else {
                None
            }
        };
        Some(side(p.col())? + 2 * side(p.row())?)
    }

    /// Whether the root leaves `p` out ([`PlayoutParams::corners_first`](crate::PlayoutParams::corners_first)): a quiet move (no stone
    /// within two lines) on the first or second line, and while a corner is empty a quiet
    /// move on any point but the 3-3, 3-4 and 4-4 points of the empty corners. A move near a
    /// stone — an approach, an answer, a fight — stays whatever the corners and the line.
    pub(super) fn holds_back(&self, p: Point) -> bool {
        if self.near[p.index()] {
            return false;
        }
        let edge = |x: u8| x.min(self.size - 1 - x);
        edge(p.col()).min(edge(p.row())) <= 1
            || (self.empty_corner.iter().any(|&empty| empty) && !self.empty_corner_point(p))
    }

    /// Whether `p` is the 3-3, 3-4 or 4-4 point of an empty corner.
    fn empty_corner_point(&self, p: Point) -> bool {
        let edge = |x: u8| x.min(self.size - 1 - x);
        matches!((edge(p.col()), edge(p.row())), (2..=3, 2..=3))
            && Opening::corner(self.size, p).is_some_and(|k| self.empty_corner[k])
    }

    /// Adds the opening's knowledge of `p` through `add(simulations, rate)`.
    fn add_prior(&self, p: Point, add: &mut impl FnMut(f32, f32)) {
        let edge = |x: u8| x.min(self.size - 1 - x);
        let (across, up) = (edge(p.col()), edge(p.row()));
        let quiet = !self.near[p.index()];
        match across.min(up) {
            1 if quiet => add(20.0, 0.1),
            2 if quiet => add(20.0, 1.0),
            _ => {}
        }
        if self.empty_corner_point(p) {
            add(30.0, 1.0);
        }
    }
}

/// Adds `weight` simulations of shape knowledge to the `priors` of `moves`: a move whose
/// learned shape is r times as likely to be played as a move at random, where the geometric
/// mean of the siblings' is g, at the rate r / (r + g). Relative to the siblings, so that where
/// every move has a rare shape (filling one's own area when all is settled) they stay even,
/// rather than all looking bad next to a pass, which has no prior.
pub(super) fn add_shape_priors(board: &Board, player: Color, moves: &[u16], priors: &mut [(f32, f32)], weight: f32) {
    if weight <= 0.0 || moves.is_empty() {
        return;
    }
    // The playouts' byte table: the same odds (to e^±1/32) as `ShapeTable::odds` of the
    // canonical shape, without the hashing.
    let weights = ShapeTable::playout_weights();
    let odds: Vec<f64> = moves.iter().map(|&mv| f64::from(weights.weight(board, point(mv), player))).collect();
    add_relative_priors(&odds, priors, weight);
}

/// Adds `weight` simulations of the move predictor's knowledge to the `priors` of `moves`
/// (see [`PlayoutParams::predictor_prior`](crate::PlayoutParams::predictor_prior)); `tactics` are the moves', `recent` the last two
/// moves, the opponent's and the player's.
pub(super) fn add_predictor_priors(
    board: &Board,
    player: Color,
    (moves, tactics): (&[u16], &[Tactics]),
    priors: &mut [(f32, f32)],
    weight: f32,
    recent: (Option<Point>, Option<Point>),
) {
    if weight <= 0.0 || moves.is_empty() {
        return;
    }
    let (predictor, shapes) = (Predictor::shipped(), Predictor::shape_table());
    let gammas: Vec<f64> = moves
        .iter()
        .zip(tactics)
        .map(|(&mv, &tactics)| {
            let p = point(mv);
            let shape = shapes.weight(board, p, player).ln();
            f64::from(predictor.log_gamma(shape, Features::with(board, p, player, tactics, recent))).exp()
        })
        .collect();
    add_relative_priors(&gammas, priors, weight);
}

/// Adds `weight` simulations to each prior, at the rate r / (r + g) for a move of odds `r`
/// among siblings whose geometric mean is g.
pub(super) fn add_relative_priors(odds: &[f64], priors: &mut [(f32, f32)], weight: f32) {
    let g = (odds.iter().map(|r| r.ln()).sum::<f64>() / odds.len() as f64).exp();
    for (prior, &r) in priors.iter_mut().zip(odds) {
        prior.0 += weight;
        prior.1 += weight * (r / (r + g)) as f32;
    }
}

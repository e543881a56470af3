//! The move choice of both searches, once a search has run: a pass replaced while dead stones
//! stand or the game is open, resigning, and the weak levels' draw. What each search does
//! differently is a named field of [`Manner`]; what it judges (its dead stones) and how it
//! searches stay its own.

use rand::rngs::SmallRng;
use tengen_core::{Board, Color, Game, Move, Point};

use crate::engine::Decision;
use crate::params::SearchParams;

/// One of the root's moves after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The move.
    pub mv: Move,
    /// Simulations (or visits) through it.
    pub visits: u32,
    /// Its win rate for the player to move (0 unvisited).
    pub win_rate: f32,
}

/// Where the two searches choose differently.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Manner {
    /// Searches in a row that must find the game lost before resigning: the playout search's
    /// [`PlayoutParams::resign_moves`](crate::PlayoutParams::resign_moves), so that one pessimistic search does not throw away a
    /// game; 1 for the network search, which trusts its network's judgement at once.
    pub(crate) resign_streak: u32,
    /// Simulations a search needs for its judgement to count towards resigning.
    pub(crate) resign_after: u32,
    /// Dead stones are taken first: a pass is replaced by the most visited move next to an
    /// opponent's dead stone before any other stone move, and after the opponent's pass such a
    /// move replaces the search's choice when it wins about as often ([`about_as_good`]) — the
    /// playout search, whose search (no exploration term) spends its visits on whichever move
    /// won first, often one inside its own area. Off (the network search): a pass is replaced
    /// by the most visited stone move.
    pub(crate) clean_up: bool,
}

/// The position a move is chosen in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Position<'a> {
    pub(crate) board: &'a Board,
    /// The player to move.
    pub(crate) color: Color,
    /// The game is in play (not counting): only then do dead stones and open borders matter.
    pub(crate) in_play: bool,
    /// The opponent's last move was a pass.
    pub(crate) opponent_passed: bool,
}

/// After the opponent's pass, a move next to an opponent's dead stone is played instead of the
/// search's choice when its win rate is at most this much lower, give or take two standard
/// errors of its own estimate ([`about_as_good`]).
const CLEAN_UP_MARGIN: f32 = 0.05;

/// Whether a move of `visits` simulations at win rate `rate` wins about as often as `best`:
/// within [`CLEAN_UP_MARGIN`] plus two standard errors of its rate. With no exploration term
/// the search gives such a move a few dozen simulations, whose rate alone strays by more than
/// the margin: on a won board whose only task left is a capture (the test
/// `takes_the_opponents_dead_stones_off_before_it_passes`) the capture's bare rate was more than
/// 0.05 below the search's choice for 7 of 12 seeds.
fn about_as_good(visits: u32, rate: f32, best: f32) -> bool {
    let error = (rate * (1.0 - rate) / visits.max(1) as f32).sqrt();
    rate + 2.0 * error >= best - CLEAN_UP_MARGIN
}

/// Whether [`choose`] needs the dead stones for the search's `moves` (most visited first): the
/// best is a pass, or (cleaning up) the opponent passed. A search whose judgement is costly
/// judges only then.
pub(crate) fn needs_dead(at: &Position<'_>, moves: &[Candidate], manner: &Manner) -> bool {
    moves.first().is_none_or(|m| m.mv == Move::Pass) || (manner.clean_up && at.opponent_passed)
}

/// The decision after a search whose root moves are `moves` (most visited first) after
/// `simulations`, with `dead` the stones judged dead (needed only where [`needs_dead`] says
/// so) and `lost` the player's searches in a row that found the game lost.
///
/// Never a pass while an opponent's dead stone stands in play (under area counting taking it
/// costs nothing) or while the game is open ([`crate::dead::undecided`]): a stone move
/// instead (see [`Manner::clean_up`]). Then resigning, when the choice wins less often than
/// [`SearchParams::resign_below`] after [`Manner::resign_after`] simulations in
/// [`Manner::resign_streak`] searches in a row. Then, at a temperature above 0, the weak levels'
/// draw among the visited stone moves ([`draw_by_visits`]); a pass is played when it is the
/// choice, never drawn by chance.
#[allow(clippy::too_many_arguments)]
pub(crate) fn choose(
    at: &Position<'_>,
    moves: &[Candidate],
    simulations: u32,
    dead: &[Point],
    params: &SearchParams,
    manner: &Manner,
    lost: &mut u32,
    rng: &mut SmallRng,
) -> Decision {
    let mut choice = moves.first().copied().unwrap_or(Candidate { mv: Move::Pass, visits: 0, win_rate: 0.0 });
    let passing = choice.mv == Move::Pass;
    let (board, color) = (at.board, at.color);
    let dead_stands = at.in_play && crate::dead::opponent_dead_stands(board, color, dead);
    let open = || at.in_play && crate::dead::undecided(board, dead);
    if (passing && (dead_stands || open())) || (manner.clean_up && at.opponent_passed && dead_stands) {
        let touches = |mv: Move| matches!(mv, Move::Play(p) if board.neighbours(p).any(|n| dead.contains(&n) && board.get(n) == Some(!color)));
        let visited = || moves.iter().filter(|m| m.mv != Move::Pass && m.visits > 0);
        let taking = if manner.clean_up { visited().find(|m| touches(m.mv)).copied() } else { None };
        let replacement = if passing {
            taking.or_else(|| visited().next().copied())
        } else {
            taking.filter(|m| about_as_good(m.visits, m.win_rate, choice.win_rate))
        };
        if let Some(replacement) = replacement {
            choice = replacement;
        }
    }
    if simulations >= manner.resign_after && choice.win_rate < params.resign_below {
        *lost += 1;
        if *lost >= manner.resign_streak {
            return Decision::Resign;
        }
    } else {
        *lost = 0;
    }
    if params.temperature <= 0.0 || choice.mv == Move::Pass {
        return Decision::Play(choice.mv);
    }
    let visits: Vec<(Move, u32)> = moves.iter().map(|m| (m.mv, m.visits)).collect();
    Decision::Play(draw_by_visits(&visits, params.temperature, rng).unwrap_or(choice.mv))
}

/// The game's last two moves as `color`'s search sees them: the opponent's last stone and
/// `color`'s own stone before it (`None` for a pass or a move out of turn).
pub(crate) fn recent_stones(game: &Game, color: Color) -> (Option<Point>, Option<Point>) {
    let stone = |k: usize, by: Color| match game.moves().iter().rev().nth(k) {
        Some(&(c, Move::Play(p))) if c == by => Some(p),
        _ => None,
    };
    (stone(0, !color), stone(1, color))
}

/// The weak levels' choice: a stone move drawn with probability proportional to
/// visits^(1/temperature) — never a pass. `None` when no stone move was visited (or
/// rounding left the draw past the last weight).
pub(crate) fn draw_by_visits(moves: &[(Move, u32)], temperature: f32, rng: &mut SmallRng) -> Option<Move> {
    let weights: Vec<f64> = moves
        .iter()
        .map(|&(mv, n)| if mv == Move::Pass { 0.0 } else { f64::from(n).powf(1.0 / f64::from(temperature)) })
        .collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut x = rand::Rng::random::<f64>(rng) * total;
    for (&(mv, _), w) in moves.iter().zip(&weights) {
        if x < *w {
            return Some(mv);
        }
        x -= w;
    }
    None
}

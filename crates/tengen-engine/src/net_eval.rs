//! The network's judgement of positions without a search ([`evaluate_once`],
//! [`evaluate_games`]): its outputs post-processed as the searches and the review use them.

use tengen_core::{Color, Game, Move, Point};
use tengen_nn::{CachedModel, Evaluation, input_features, katago_index};

/// The network's own judgement of a position, without a search ([`evaluate_once`]).
#[derive(Clone, Debug)]
pub struct NetEval {
    /// The player to move's win rate (a no-result counted half).
    pub win: f64,
    /// Their lead in points.
    pub lead: f64,
    /// The legal moves and the pass with their priors, most likely first.
    pub moves: Vec<(Move, f32)>,
    /// The ownership, Black's view, by `Point::index`.
    pub ownership: Vec<f32>,
}

/// One evaluation of `game` (its player to move) by `model` through `symmetry` (0–7).
///
/// # Errors
/// The network's inputs cannot be made for the game's rules (`tengen_nn::input_features`).
pub fn evaluate_once(model: &CachedModel, game: &Game, symmetry: u8) -> Result<NetEval, String> {
    Ok(evaluate_games(model, &[(game, symmetry)])?.pop().expect("one evaluation for one game"))
}

/// [`evaluate_once`] of several games of one board size, each through its symmetry, in one
/// forward pass (the network's batch).
///
/// # Errors
/// As [`evaluate_once`], for the first game whose inputs cannot be made.
///
/// # Panics
/// When the games' board sizes differ.
pub fn evaluate_games(model: &CachedModel, games: &[(&Game, u8)]) -> Result<Vec<NetEval>, String> {
    let inputs = games
        .iter()
        .map(|&(game, symmetry)| Ok((input_features(game).map_err(|e| e.to_string())?, symmetry)))
        .collect::<Result<Vec<_>, String>>()?;
    let batch: Vec<_> = inputs.iter().map(|(input, symmetry)| (input, *symmetry)).collect();
    let raws = model.evaluate_batch(&batch);
    Ok(games.iter().zip(&raws).map(|(&(game, _), raw)| net_eval(model, game, raw)).collect())
}

/// The network's outputs `raw` for `game` post-processed for the search: priors of the legal
/// moves, value and ownership.
fn net_eval(model: &CachedModel, game: &Game, raw: &tengen_nn::RawOutput) -> NetEval {
    let board = game.board();
    let size = board.size();
    let me = game.to_move();
    let mut legal = vec![false; size * size];
    let mut points = Vec::new();
    for p in board.points() {
        if game.check(me, Move::Play(p)).is_ok() {
            legal[katago_index(p, size)] = true;
            points.push(p);
        }
    }
    let eval: Evaluation = model.model().post_process(raw, Some(&legal), 0.0);
    let mut children: Vec<(Move, f32)> =
        points.iter().map(|&p| (Move::Play(p), eval.policy[katago_index(p, size)])).collect();
    children.push((Move::Pass, eval.pass));
    // Most likely first: the order in which unvisited children tie.
    children.sort_by(|a, b| b.1.total_cmp(&a.1));
    let sign = if me == Color::Black { 1.0 } else { -1.0 };
    let mut ownership = vec![0f32; Point::TABLE_SIZE];
    for p in board.points() {
        ownership[p.index()] = sign * eval.ownership[katago_index(p, size)];
    }
    NetEval { win: f64::from(eval.win + 0.5 * eval.no_result), lead: f64::from(eval.lead), moves: children, ownership }
}

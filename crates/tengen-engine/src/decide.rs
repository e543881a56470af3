//! The move choice shared by both searches.

use rand::rngs::SmallRng;
use tengen_core::Move;

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

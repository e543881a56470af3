//! Ratings: Glicko-2 updated one game at a time with the parameters of OGS's `goratings` (τ
//! 0.5, rating 100–6000, deviation 30–500, volatility 0.01–0.15), ranks by OGS's formula
//! (rank = ln(rating / 525) × 23.15; 30 is 1 dan), and a handicap and komi turned into a
//! shift of the opponent's rating, as `goratings`' rating math does for area counting.
//!
//! Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf) is the source
//! of the steps; the numbers of its example are a test below.

use serde::{Deserialize, Serialize};
use tengen_core::Color;

/// The Glicko-2 scale: rating points per unit of μ.
pub const SCALE: f64 = 173.7178;
/// The system constant τ (how much the volatility may change).
pub const TAU: f64 = 0.5;
/// A deviation at or above this makes a rating provisional (shown as "?").
pub const PROVISIONAL_DEVIATION: f64 = 160.0;
/// Games whose handicap and komi are worth more than this many ranks are not rated.
pub const MAX_RANK_DIFFERENCE: f64 = 9.0;
const RATING_BOUNDS: (f64, f64) = (100.0, 6000.0);
const DEVIATION_BOUNDS: (f64, f64) = (30.0, 500.0);
const VOLATILITY_BOUNDS: (f64, f64) = (0.01, 0.15);
const EPSILON: f64 = 0.000_001;

/// A player's rating, its deviation and volatility.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Glicko {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// Its deviation (350 at the start).
    pub deviation: f64,
    /// Its volatility (0.06 at the start).
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko { rating: 1500.0, deviation: 350.0, volatility: 0.06 }
    }
}

impl Glicko {
    fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// Whether the rating is still provisional.
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rating after `games` (each an opponent and the score: 1 a win, 0 a loss, 0.5 a
    /// draw) of one rating period; no games: unchanged.
    #[must_use]
    pub fn update(&self, games: &[(Glicko, f64)]) -> Glicko {
        if games.is_empty() {
            return *self;
        }
        let (mu, phi) = (self.mu(), self.phi());
        // Steps 3 and 4: the estimated variance and the improvement.
        let (mut v_inv, mut sum) = (0.0, 0.0);
        for (opponent, score) in games {
            let g = 1.0 / (1.0 + 3.0 * opponent.phi().powi(2) / std::f64::consts::PI.powi(2)).sqrt();
            let e = 1.0 / (1.0 + (-g * (mu - opponent.mu())).exp());
            v_inv += g * g * e * (1.0 - e);
            sum += g * (score - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (self.volatility * self.volatility).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2)) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 100.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let volatility = (big_a / 2.0).exp();
        // Steps 6 to 8.
        let phi_star = (phi * phi + volatility * volatility).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Glicko {
            rating: (SCALE * mu_new + 1500.0).clamp(RATING_BOUNDS.0, RATING_BOUNDS.1),
            deviation: (SCALE * phi_new).clamp(DEVIATION_BOUNDS.0, DEVIATION_BOUNDS.1),
            volatility: volatility.clamp(VOLATILITY_BOUNDS.0, VOLATILITY_BOUNDS.1),
        }
    }
}

/// The rank of a rating on OGS's scale: 0 is 30 kyu, 29 is 1 kyu, 30 is 1 dan.
#[must_use]
pub fn rank_of(rating: f64) -> f64 {
    (rating / 525.0).ln() * 23.15
}

/// The rating of a rank ([`rank_of`] inverted).
#[must_use]
pub fn rating_of(rank: f64) -> f64 {
    525.0 * (rank / 23.15).exp()
}

/// A rank as players write it: `6k`, `1d` (30 kyu to 9 dan), with `?` while provisional.
#[must_use]
pub fn rank_label(glicko: &Glicko) -> String {
    let rank = rank_of(glicko.rating).floor().clamp(0.0, 38.0) as i32;
    let label = if rank < 30 { format!("{}k", 30 - rank) } else { format!("{}d", rank - 29) };
    if glicko.provisional() { format!("{label}?") } else { label }
}

/// What a handicap and komi give Black at the start, in ranks (one rank: the territorial value
/// of a free move on 19×19, 12 points; on 13×13 and 9×9 the head start scaled by 3 and 6), as
/// `goratings` reckons it for area counting with the Chinese compensation of a point per
/// handicap stone; `None` for a size without a scale.
#[must_use]
pub fn handicap_rank_difference(handicap: u32, size: usize, komi: f64) -> Option<f64> {
    let extra_moves = f64::from(handicap.saturating_sub(1));
    // Komi plus the compensation: what White gets in points.
    let white_gets = komi + f64::from(handicap);
    // The fair komi of area counting, and a free stone's area value.
    let (fair_komi, stone) = (7.0, 13.0);
    let head_start = fair_komi - white_gets + stone * extra_moves;
    let scale = match size {
        19 => 1.0,
        13 => 3.0,
        9 => 6.0,
        _ => return None,
    };
    Some(head_start * scale / 12.0)
}

/// The shift of `color`'s rating that stands for the handicap and komi: Black's rank goes
/// up by [`handicap_rank_difference`], White's down, on the rank scale where a rank is a rank.
#[must_use]
pub fn handicap_adjustment(color: Color, rating: f64, difference: f64) -> f64 {
    let rank = rank_of(rating) + if color == Color::Black { difference } else { -difference };
    rating_of(rank) - rating
}

/// A handicap chosen from a rank difference: stones, komi in points, and whether it is 让先.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoHandicap {
    /// Handicap stones (0, or 2 to 9).
    pub stones: u32,
    /// Komi in points.
    pub komi: f64,
    /// 让先: Black first without komi.
    pub rang_xian: bool,
}

/// The handicap for a weaker player `ranks` below the stronger on a board of `size` (at most
/// `max_stones`): of an even game (komi 7.5), 让先 (komi 0) and 2 to `max_stones` stones with
/// komi ½, the largest whose worth in ranks ([`handicap_rank_difference`]) is not more than the
/// difference — the weaker is never given more than the ranks between them. On 19×19 that is
/// 让先 for one rank and N stones for N ranks (up to 9); on 13×13 and 9×9 a stone is worth 3
/// and 6 times as much (the table in docs/usage.md).
#[must_use]
pub fn auto_handicap(ranks: f64, size: usize, max_stones: u32) -> AutoHandicap {
    let even = AutoHandicap { stones: 0, komi: 7.5, rang_xian: false };
    let mut options = vec![even, AutoHandicap { stones: 0, komi: 0.0, rang_xian: true }];
    options.extend((2..=max_stones).map(|stones| AutoHandicap { stones, komi: 0.5, rang_xian: false }));
    let worth = |o: &AutoHandicap| handicap_rank_difference(o.stones, size, o.komi).unwrap_or(f64::INFINITY);
    options
        .into_iter()
        .filter(|o| worth(o) <= ranks.max(0.0))
        .max_by(|a, b| worth(a).total_cmp(&worth(b)))
        .unwrap_or(even)
}

/// A rated game's result for both players (`black_score`: 1 Black won, 0 lost, 0.5 a draw), or `None` when it is not rated (a size without a
/// scale, or a handicap and komi worth more than [`MAX_RANK_DIFFERENCE`] ranks).
#[must_use]
pub fn rate_game(
    black: Glicko,
    white: Glicko,
    handicap: u32,
    size: usize,
    komi: f64,
    black_score: f64,
) -> Option<(Glicko, Glicko)> {
    let difference = handicap_rank_difference(handicap, size, komi)?;
    if difference.abs() > MAX_RANK_DIFFERENCE {
        return None;
    }
    let white_seen =
        Glicko { rating: white.rating + handicap_adjustment(Color::White, white.rating, difference), ..white };
    let black_seen =
        Glicko { rating: black.rating + handicap_adjustment(Color::Black, black.rating, difference), ..black };
    Some((black.update(&[(white_seen, black_score)]), white.update(&[(black_seen, 1.0 - black_score)])))
}

/// Black's expected score in a game (the handicap and komi counted), without the deviations.
#[must_use]
pub fn expected_black(black: &Glicko, white: &Glicko, difference: f64) -> f64 {
    let adjusted = black.rating + handicap_adjustment(Color::Black, black.rating, difference);
    1.0 / (1.0 + (-(adjusted - white.rating) / SCALE).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    #[test]
    fn glickmans_example() {
        // glicko2.pdf: a 1500/200/0.06 player beats 1400/30, loses to 1550/100 and 1700/300.
        let player = Glicko { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Glicko { rating, deviation, volatility: 0.06 };
        let after = player.update(&[
            (opponent(1400.0, 30.0), 1.0),
            (opponent(1550.0, 100.0), 0.0),
            (opponent(1700.0, 300.0), 0.0),
        ]);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn one_even_game_between_newcomers_worked_by_hand() {
        // Both 1500/350/0.06: φ = 350/173.7178 = 2.014761, g(φ) = 1/√(1 + 3φ²/π²) = 0.669069,
        // E = 0.5 (μ equal), v = 1/(g² E (1−E)) = 8.935475, Δ = v g (1 − E) = 2.989226. The
        // volatility stays 0.0599997, φ* = √(φ² + σ'²) = 2.015655, φ' = 1/√(1/φ*² + 1/v) =
        // 1.671210, μ' = φ'² g (1 − E) = 0.934337: 1500 + 173.7178 μ' = 1662.31, deviation
        // 173.7178 φ' = 290.32. The loser mirrors it. With komi 7 nobody starts ahead.
        let (b, w) = rate_game(Glicko::default(), Glicko::default(), 0, 19, 7.0, 1.0).unwrap();
        assert!(close(b.rating, 1662.31, 0.01) && close(b.deviation, 290.32, 0.01), "{b:?}");
        assert!(close(w.rating, 1337.69, 0.01) && close(w.deviation, 290.32, 0.01), "{w:?}");
        assert!(close(b.volatility, 0.0599997, 0.0000001), "{b:?}");
    }

    #[test]
    fn ranks_by_ogs_formula() {
        let at = |rating| rank_label(&Glicko { rating, deviation: 60.0, volatility: 0.06 });
        assert_eq!(at(1500.0), "6k");
        assert_eq!(at(rating_of(30.0) + 0.01), "1d");
        assert_eq!(at(rating_of(30.0) - 0.01), "1k");
        assert_eq!(at(rating_of(38.5)), "9d");
        assert_eq!(at(100.0), "30k");
        assert_eq!(rank_label(&Glicko::default()), "6k?");
        assert!(close(rank_of(rating_of(17.25)), 17.25, 1e-9));
    }

    #[test]
    fn handicap_and_komi_in_ranks() {
        // Even with 7.5: Black is half a point short of the fair 7 (of 12 a rank).
        assert!(close(handicap_rank_difference(0, 19, 7.5).unwrap(), -0.5 / 12.0, 1e-12));
        // Two stones, komi ½: 7 − (0.5 + 2) + 13 = 17.5 points, 1.458 ranks.
        assert!(close(handicap_rank_difference(2, 19, 0.5).unwrap(), 17.5 / 12.0, 1e-12));
        // Nine stones on 19×19: 7 − 9.5 + 104 = 101.5 points, 8.46 ranks: rated.
        assert!(handicap_rank_difference(9, 19, 0.5).unwrap() < MAX_RANK_DIFFERENCE);
        // Five stones on 9×9 are worth (7 − 5.5 + 52) × 6/12 = 26.75 ranks: not rated.
        assert!(rate_game(Glicko::default(), Glicko::default(), 5, 9, 0.5, 1.0).is_none());
        assert!(rate_game(Glicko::default(), Glicko::default(), 0, 11, 7.5, 1.0).is_none());
        // Black's rating goes up and White's down by the same number of ranks.
        let up = handicap_adjustment(Color::Black, 1500.0, 1.0);
        let down = handicap_adjustment(Color::White, 1500.0, 1.0);
        assert!(close(rank_of(1500.0 + up) - rank_of(1500.0), 1.0, 1e-9));
        assert!(close(rank_of(1500.0) - rank_of(1500.0 + down), 1.0, 1e-9));
        // A handicap makes the weaker player's win less of a surprise.
        let (weak, strong) =
            (Glicko { rating: 1300.0, ..Glicko::default() }, Glicko { rating: 1700.0, ..Glicko::default() });
        let even = expected_black(&weak, &strong, handicap_rank_difference(0, 19, 7.5).unwrap());
        let four = expected_black(&weak, &strong, handicap_rank_difference(4, 19, 0.5).unwrap());
        // 400 rating points are 6.2 ranks here; four stones and komi ½ are worth 3.46.
        assert!(even < 0.1 && (0.2..0.3).contains(&four), "{even} {four}");
        let (b_even, _) = rate_game(weak, strong, 0, 19, 7.5, 1.0).unwrap();
        let (b_four, _) = rate_game(weak, strong, 4, 19, 0.5, 1.0).unwrap();
        assert!(b_four.rating - weak.rating < b_even.rating - weak.rating);
    }

    #[test]
    fn the_automatic_handicap_follows_the_rank_difference() {
        let on = |ranks, size, max| {
            let a = auto_handicap(ranks, size, max);
            (a.stones, a.komi, a.rang_xian)
        };
        // 19×19: even, 让先 for one rank, N stones for N ranks, at most 9.
        assert_eq!(on(0.2, 19, 9), (0, 7.5, false));
        assert_eq!(on(1.0, 19, 9), (0, 0.0, true));
        assert_eq!(on(1.4, 19, 9), (0, 0.0, true), "two stones are worth 1.46 ranks");
        for n in 2..=9 {
            assert_eq!(on(f64::from(n), 19, 9), (n, 0.5, false), "{n} ranks");
        }
        assert_eq!(on(14.0, 19, 9), (9, 0.5, false));
        // 9×9: a stone is worth some six ranks; 13×13 some three.
        assert_eq!(on(1.0, 9, 9), (0, 7.5, false));
        assert_eq!(on(3.0, 9, 9), (0, 7.5, false), "让先 on 9×9 is worth 3.5 ranks");
        assert_eq!(on(4.0, 9, 9), (0, 0.0, true));
        assert_eq!(on(9.0, 9, 9), (2, 0.5, false));
        assert_eq!(on(2.0, 13, 9), (0, 0.0, true));
        assert_eq!(on(4.5, 13, 9), (2, 0.5, false));
        assert_eq!(on(5.0, 9, 0), (0, 0.0, true), "a board that takes no stones");
    }

    #[test]
    fn bounds_hold_against_absurd_opponents() {
        let p = Glicko { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let q = p.update(&[
            (Glicko { rating: 100.0, deviation: 100.0, volatility: 0.06 }, 0.0),
            (Glicko { rating: 30000.0, deviation: 10000.0, volatility: 0.06 }, 1.0),
        ]);
        assert!(q.rating.is_finite() && (100.0..=6000.0).contains(&q.rating), "{q:?}");
        assert!((30.0..=500.0).contains(&q.deviation) && (0.01..=0.15).contains(&q.volatility), "{q:?}");
        assert_eq!(p.update(&[]), p);
    }
}

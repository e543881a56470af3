//! A move predictor learned from a network's policy: how likely each legal move is, from a
//! few features of the move — its 3 × 3 [`Shape`], its distance to the last two moves, its
//! line from the edge, and what it does to the chains around it (captures, escapes, ataris,
//! self-ataris). Each value of each feature has a weight θ; a move's strength is
//! γ = e^(Σ θ), and the predicted probability of a move is its γ over the sum of the legal
//! moves' (Coulom's generalised Bradley–Terry model, *Computing Elo Ratings of Move Patterns
//! in the Game of Go*, 2007). The weights are fitted by [`Predictor::train`] to the policy of a
//! KataGo network over positions of game records (`tengen learn predictor`); the shipped
//! weights are `data/predictor.txt`. The playout search turns γ into prior knowledge of
//! each new node's children ([`crate::PlayoutParams::predictor_prior`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use tengen_core::{Board, Color, Point, ShapeWeights};

use crate::shapes::Shape;

/// Buckets of the distance to a recent move: 2 (next to it) up to [`FAR`], 0 when there is
/// none (the start of the game, a pass).
const FAR: usize = 17;

/// The groups of small features: name and number of values.
const GROUPS: [(&str, usize); 7] = [
    ("last", FAR + 1),
    ("previous", FAR + 1),
    ("line", 5),
    ("capture", 4),
    ("escape", 3),
    ("self-atari", 3),
    ("atari", 3),
];

/// Where each group's values start in [`Predictor::small`].
const fn offsets() -> [usize; 8] {
    let mut out = [0; 8];
    let mut k = 0;
    while k < GROUPS.len() {
        out[k + 1] = out[k] + GROUPS[k].1;
        k += 1;
    }
    out
}
const OFFSETS: [usize; 8] = offsets();

/// A move's features other than its shape, one value per group: distance to the last move,
/// to the previous move, line, capture, escape, self-atari, atari (see [`Features::of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features([u8; 7]);

/// The distance of Coulom's patterns: Δx + Δy + max(Δx, Δy) — 2 next to `q`, 3 diagonal,
/// 4 a one-point jump — capped at [`FAR`]; 0 without `q`.
fn distance(p: Point, q: Option<Point>) -> u8 {
    let Some(q) = q else { return 0 };
    let dx = (i32::from(p.col()) - i32::from(q.col())).unsigned_abs() as usize;
    let dy = (i32::from(p.row()) - i32::from(q.row())).unsigned_abs() as usize;
    (dx + dy + dx.max(dy)).min(FAR) as u8
}

impl Features {
    /// The features of `player`'s move at the legal empty point `p`; `last` is the
    /// opponent's last move, `previous` the player's own move before it (`None` for a pass
    /// or none). A move that captures does not count as a self-atari; a self-atari does not
    /// count as an escape or an atari.
    #[must_use]
    pub fn of(board: &Board, p: Point, player: Color, last: Option<Point>, previous: Option<Point>) -> Features {
        Features::with(board, p, player, Tactics::of(board, p, player), (last, previous))
    }

    /// [`Features::of`] with the move's [`Tactics`] already read.
    pub(crate) fn with(
        board: &Board,
        p: Point,
        player: Color,
        tactics: Tactics,
        (last, previous): (Option<Point>, Option<Point>),
    ) -> Features {
        let size = board.size() as u8;
        let line = p.col().min(p.row()).min(size - 1 - p.col()).min(size - 1 - p.row()).min(4);
        let Tactics { captured, saved, self_atari, ladder } = tactics;
        let capture = match captured {
            0 => 0,
            1 => 1,
            2..=4 => 2,
            _ => 3,
        };
        let self_atari = match self_atari {
            Some(_) if captured > 0 => 0,
            Some(1) => 1,
            Some(_) => 2,
            None => 0,
        };
        let escape = if saved == 0 || self_atari > 0 {
            0
        } else if ladder {
            2
        } else {
            1
        };
        // Ataris: an opponent's chain next to `p` with two liberties (one of them `p`), if
        // the move itself is not a self-atari; 2 when the chain has more than one stone.
        let mut atari = 0u8;
        if self_atari == 0 {
            let mut libs = [p; 3];
            for n in board.neighbours(p) {
                if board.get(n) == Some(!player) && board.first_liberties(n, &mut libs) == 2 {
                    atari = atari.max(if board.chain_size(n) > 1 { 2 } else { 1 });
                }
            }
        }
        Features([distance(p, last), distance(p, previous), line, capture, escape, self_atari, atari])
    }

    /// The index of each group's value in [`Predictor::small`].
    fn indices(self) -> [usize; 7] {
        std::array::from_fn(|k| OFFSETS[k] + usize::from(self.0[k]))
    }
}

/// What a move does to the chains around it, read once for the search's hand-made priors
/// and the predictor's features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tactics {
    /// The opponent's stones it captures.
    pub(crate) captured: usize,
    /// Own stones in atari that it joins (a move there is their only escape).
    pub(crate) saved: usize,
    /// The size of the chain it leaves in atari, if it does.
    pub(crate) self_atari: Option<usize>,
    /// The stones it saves still die in a ladder — read only where it saves stones and is no
    /// self-atari or captures too (where the priors and the features ask), else `false`.
    pub(crate) ladder: bool,
}

impl Tactics {
    /// The tactics of `player`'s move at the legal empty point `p`.
    pub(crate) fn of(board: &Board, p: Point, player: Color) -> Tactics {
        let (captured, saved) = board.atari_contacts(p, player);
        let self_atari = board.self_atari(p, player);
        let ladder = saved > 0
            && (self_atari.is_none() || captured > 0)
            && board.ladder_captures(stone_saved_at(board, p, player));
        Tactics { captured, saved, self_atari, ladder }
    }
}

/// A stone of `player`'s chain next to `p` whose last liberty is `p` (there is one when the
/// move saves a chain).
fn stone_saved_at(board: &Board, p: Point, player: Color) -> Point {
    board.neighbours(p).find(|&n| board.get(n) == Some(player) && board.atari_liberty(n) == Some(p)).unwrap_or(p)
}

/// One legal move of a training position: its shape, its other features, and the share of
/// the network's policy it had.
#[derive(Clone, Copy, Debug)]
pub struct Candidate {
    /// The move's 3 × 3 shape.
    pub shape: Shape,
    /// Its other features.
    pub features: Features,
    /// The network's probability of the move, renormalised over the legal points.
    pub target: f32,
}

/// A candidate as the fit sees it: the indices of its small features' weights, its shape's
/// (if the shape has one), and its target.
type Coded = ([usize; 7], Option<usize>, f64);

/// The learned weights: θ per shape (shapes not listed weigh 0) and per value of each small
/// feature.
#[derive(Clone, Debug, Default)]
pub struct Predictor {
    shapes: HashMap<Shape, f32>,
    small: Vec<f32>,
}

/// How the fit went: the mean cross-entropy of the network's policy against the predictor's
/// (in nats a position) and the share of positions whose likeliest move by the predictor is
/// the network's likeliest.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    /// Mean cross-entropy, nats a position.
    pub cross_entropy: f64,
    /// Share of positions whose likeliest moves agree.
    pub top_one: f64,
}

impl Predictor {
    /// The predictor of every move alike (all weights 0).
    #[must_use]
    pub fn even() -> Predictor {
        Predictor { shapes: HashMap::new(), small: vec![0.0; OFFSETS[GROUPS.len()]] }
    }

    /// ln γ of a move from its shape's weight `shape` and its other features.
    #[must_use]
    pub fn log_gamma(&self, shape: f32, features: Features) -> f32 {
        shape + features.indices().iter().map(|&i| self.small[i]).sum::<f32>()
    }

    /// The weight of a shape (0 for a shape not learned).
    #[must_use]
    pub fn shape_weight(&self, shape: Shape) -> f32 {
        self.shapes.get(&shape).copied().unwrap_or(0.0)
    }

    /// How well the predictor matches the targets of `positions`.
    #[must_use]
    pub fn fit(&self, positions: &[Vec<Candidate>]) -> Fit {
        let (mut loss, mut top, mut n) = (0.0, 0usize, 0usize);
        for moves in positions.iter().filter(|m| !m.is_empty()) {
            let logs: Vec<f64> =
                moves.iter().map(|c| f64::from(self.log_gamma(self.shape_weight(c.shape), c.features))).collect();
            let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let z = logs.iter().map(|l| (l - max).exp()).sum::<f64>().ln() + max;
            loss -= moves.iter().zip(&logs).map(|(c, l)| f64::from(c.target) * (l - z)).sum::<f64>();
            let best = |f: &dyn Fn(usize) -> f64| (0..moves.len()).max_by(|&a, &b| f(a).total_cmp(&f(b)));
            if best(&|i| logs[i]) == best(&|i| f64::from(moves[i].target)) {
                top += 1;
            }
            n += 1;
        }
        let n = n.max(1) as f64;
        Fit { cross_entropy: loss / n, top_one: top as f64 / n }
    }

    /// Fits the weights to the targets of `positions` (each position's candidates, their
    /// targets summing to 1): `rounds` rounds of Adam on the mean cross-entropy plus an L2
    /// penalty of `l2` / 2 × θ² a weight (per position), over shapes available at least
    /// `min_seen` times (the rest weigh 0).
    #[must_use]
    pub fn train(positions: &[Vec<Candidate>], rounds: usize, l2: f64, min_seen: u32) -> Predictor {
        let mut seen: HashMap<Shape, u32> = HashMap::new();
        for c in positions.iter().flatten() {
            *seen.entry(c.shape).or_default() += 1;
        }
        let mut shapes: Vec<Shape> = seen.iter().filter(|&(_, &n)| n >= min_seen).map(|(&s, _)| s).collect();
        shapes.sort();
        let index: HashMap<Shape, usize> = shapes.iter().enumerate().map(|(i, &s)| (s, i)).collect();
        let small = OFFSETS[GROUPS.len()];
        let n_params = small + shapes.len();
        // Each candidate as parameter indices: the small features', then its shape's (if kept).
        let coded: Vec<Vec<Coded>> = positions
            .iter()
            .map(|moves| {
                moves
                    .iter()
                    .map(|c| (c.features.indices(), index.get(&c.shape).map(|&i| small + i), f64::from(c.target)))
                    .collect()
            })
            .collect();
        let count = positions.iter().filter(|m| !m.is_empty()).count().max(1) as f64;
        let mut theta = vec![0.0f64; n_params];
        let (mut m1, mut m2) = (vec![0.0f64; n_params], vec![0.0f64; n_params]);
        let (rate, beta1, beta2) = (0.05, 0.9, 0.999);
        let mut grad = vec![0.0f64; n_params];
        let mut logs = Vec::new();
        for round in 1..=rounds {
            grad.iter_mut().zip(&theta).for_each(|(g, t)| *g = l2 * t / count);
            for moves in &coded {
                logs.clear();
                logs.extend(
                    moves.iter().map(|(ix, shape, _)| {
                        ix.iter().map(|&i| theta[i]).sum::<f64>() + shape.map_or(0.0, |s| theta[s])
                    }),
                );
                let max = logs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let z: f64 = logs.iter().map(|l| (l - max).exp()).sum();
                for ((ix, shape, target), l) in moves.iter().zip(&logs) {
                    let q = (l - max).exp() / z;
                    let g = (q - target) / count;
                    for &i in ix {
                        grad[i] += g;
                    }
                    if let Some(s) = shape {
                        grad[*s] += g;
                    }
                }
            }
            let (c1, c2) = (1.0 - power(beta1, round), 1.0 - power(beta2, round));
            for i in 0..n_params {
                m1[i] = beta1 * m1[i] + (1.0 - beta1) * grad[i];
                m2[i] = beta2 * m2[i] + (1.0 - beta2) * grad[i] * grad[i];
                theta[i] -= rate * (m1[i] / c1) / ((m2[i] / c2).sqrt() + 1e-8);
            }
        }
        Predictor {
            shapes: shapes.iter().enumerate().map(|(i, &s)| (s, theta[small + i] as f32)).collect(),
            small: theta[..small].iter().map(|&t| t as f32).collect(),
        }
    }

    /// The text form: a header, then one line per weight — `group value θ` for the small
    /// features, `shape code θ` (the shape's code in hexadecimal) for the shapes.
    #[must_use]
    pub fn to_text(&self, header: &str) -> String {
        let mut out = format!("# tengen move predictor: group value weight; {header}\n");
        for (k, (name, values)) in GROUPS.iter().enumerate() {
            for v in 0..*values {
                let _ = writeln!(out, "{name} {v} {:.4}", self.small[OFFSETS[k] + v]);
            }
        }
        let mut shapes: Vec<(&Shape, &f32)> = self.shapes.iter().collect();
        shapes.sort_by_key(|(s, _)| **s);
        for (shape, theta) in shapes {
            let _ = writeln!(out, "shape {:06x} {theta:.4}", shape.code());
        }
        out
    }

    /// Reads the text form.
    ///
    /// # Errors
    /// A line that is not `group value weight` for a known group and value, a weight that is
    /// not a finite number, or a small feature left out.
    pub fn from_text(text: &str) -> Result<Predictor, String> {
        let mut predictor = Predictor::even();
        let mut set = vec![false; predictor.small.len()];
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty()) {
            let bad = || format!("predictor line {}: {line}", i + 1);
            let words: Vec<&str> = line.split_whitespace().collect();
            let [group, value, theta] = words[..] else { return Err(bad()) };
            let theta: f32 = theta.parse().ok().filter(|t: &f32| t.is_finite()).ok_or_else(bad)?;
            if group == "shape" {
                let code = u32::from_str_radix(value, 16).map_err(|_| bad())?;
                predictor.shapes.insert(Shape::from_code(code).ok_or_else(bad)?, theta);
                continue;
            }
            let k = GROUPS.iter().position(|(name, _)| *name == group).ok_or_else(bad)?;
            let v: usize = value.parse().ok().filter(|&v| v < GROUPS[k].1).ok_or_else(bad)?;
            predictor.small[OFFSETS[k] + v] = theta;
            set[OFFSETS[k] + v] = true;
        }
        if let Some(missing) = set.iter().position(|s| !s) {
            let k = OFFSETS.iter().rposition(|&o| o <= missing).expect("offsets start at 0");
            return Err(format!("the predictor has no weight for {} {}", GROUPS[k].0, missing - OFFSETS[k]));
        }
        Ok(predictor)
    }

    /// The predictor shipped with tengen (`data/predictor.txt`).
    ///
    /// # Panics
    /// Never: the file is checked by the tests.
    #[must_use]
    pub fn shipped() -> &'static Predictor {
        static PREDICTOR: OnceLock<Predictor> = OnceLock::new();
        PREDICTOR.get_or_init(|| {
            Predictor::from_text(include_str!("../data/predictor.txt")).expect("the shipped predictor reads")
        })
    }

    /// The shipped predictor's shape weights as e^θ in the playouts' byte table (the same
    /// to e^±1/32, without hashing the canonical shape).
    #[must_use]
    pub fn shape_table() -> &'static ShapeWeights {
        static WEIGHTS: OnceLock<ShapeWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            let predictor = Predictor::shipped();
            ShapeWeights::new(|cells| f64::from(predictor.shape_weight(Shape::from_cells(cells))).exp())
        })
    }
}

/// `beta` to the power `round`.
fn power(beta: f64, round: usize) -> f64 {
    beta.powi(i32::try_from(round).unwrap_or(i32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use tengen_core::{Game, Setup};

    fn board_from_ascii(text: &str) -> Board {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
    }

    fn at(name: &str) -> Point {
        name.parse().unwrap()
    }

    #[test]
    fn features_name_distances_lines_and_tactics() {
        let board = board_from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . O . . .
            . O X . O X O . .
            . . O . . . . . .
            ",
        );
        let features = |p: &str, c: Color, last: Option<&str>, previous: Option<&str>| {
            Features::of(&board, at(p), c, last.map(at), previous.map(at)).0
        };
        // Next to the last move (2), a knight's move from the previous (5), on the fifth line.
        assert_eq!(features("E5", Color::Black, Some("E4"), Some("G6")), [2, 5, 4, 0, 0, 0, 0]);
        assert_eq!(features("A1", Color::Black, Some("C3"), None), [6, 0, 0, 0, 0, 0, 0]);
        assert_eq!(features("A1", Color::Black, Some("J9"), None)[0], FAR as u8, "far away");
        // White F1 takes F2; White D2 puts C2 into atari; Black B1 is a self-atari of one stone.
        assert_eq!(features("F1", Color::White, None, None), [0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(features("D2", Color::White, None, None), [0, 0, 1, 0, 0, 0, 1]);
        assert_eq!(features("B1", Color::Black, None, None), [0, 0, 0, 0, 0, 1, 0]);
        // Black F1 runs from atari.
        assert_ne!(features("F1", Color::Black, None, None)[4], 0);
    }

    #[test]
    fn an_escape_into_a_ladder_is_told_from_a_run_to_freedom() {
        let board = board_from_ascii(
            "
            . . . . . . .
            . . . . . . .
            . . . O . . .
            . . O X O . .
            . . . . O . .
            . . . . . . .
            . . . . . . .
            ",
        );
        let free = board_from_ascii(
            "
            . . . . . . .
            . . . . . . .
            . . . O . . .
            . . O X O . .
            . . . . O . .
            . . X . . . .
            . . . . . . .
            ",
        );
        assert_eq!(Features::of(&board, at("D3"), Color::Black, None, None).0[4], 2);
        assert_eq!(Features::of(&free, at("D3"), Color::Black, None, None).0[4], 1);
    }

    #[test]
    fn training_recovers_planted_weights() {
        // Targets drawn from a known predictor over random positions: the fit finds its
        // weights again, and its cross-entropy falls well below the even predictor's.
        let mut planted = Predictor::even();
        planted.small[OFFSETS[0] + 2] = 2.0; // next to the last move
        planted.small[OFFSETS[2]] = -1.5; // the first line
        planted.small[OFFSETS[3] + 1] = 1.0; // taking one stone
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        let mut positions = Vec::new();
        for _ in 0..150 {
            let mut board = Board::new(9).unwrap();
            let mut color = Color::Black;
            let mut last = None;
            for _ in 0..rng.random_range(10..50) {
                if let Some(p) = board.policy_move(color, None, &tengen_core::Policy::LIGHT, &mut rng) {
                    board.play_unchecked(p, color);
                    last = Some(p);
                }
                color = !color;
            }
            let moves: Vec<(Shape, Features)> = board
                .empty_points()
                .filter(|&p| board.is_legal(p, color))
                .map(|p| (Shape::of(&board, p, color), Features::of(&board, p, color, last, None)))
                .collect();
            let gammas: Vec<f64> = moves.iter().map(|&(_, f)| f64::from(planted.log_gamma(0.0, f)).exp()).collect();
            let total: f64 = gammas.iter().sum();
            positions.push(
                moves
                    .iter()
                    .zip(&gammas)
                    .map(|(&(shape, features), g)| Candidate { shape, features, target: (g / total) as f32 })
                    .collect::<Vec<_>>(),
            );
        }
        let trained = Predictor::train(&positions, 300, 0.0, u32::MAX);
        let relative = |p: &Predictor, group: usize, value: usize, base: usize| {
            p.small[OFFSETS[group] + value] - p.small[OFFSETS[group] + base]
        };
        for (group, value, base, want) in [(0, 2, 10, 2.0), (2, 0, 3, -1.5), (3, 1, 0, 1.0)] {
            let got = relative(&trained, group, value, base);
            assert!((got - want).abs() < 0.15, "{} {value}: {got} against {want}", GROUPS[group].0);
        }
        // A penalty of one position's worth a weight barely pulls 150 positions' fit.
        let penalised = Predictor::train(&positions, 300, 1.0, u32::MAX);
        let got = relative(&penalised, 0, 2, 10);
        assert!((got - 2.0).abs() < 0.3, "with l2 = 1: {got} against 2");
        let (fitted, even) = (trained.fit(&positions), Predictor::even().fit(&positions));
        assert!(fitted.cross_entropy < even.cross_entropy - 0.2, "{fitted:?} against {even:?}");
        // The text form reads back to the same predictions.
        let back = Predictor::from_text(&trained.to_text("test")).unwrap();
        assert!((back.fit(&positions).cross_entropy - fitted.cross_entropy).abs() < 1e-3);
    }

    #[test]
    fn bad_weights_are_named() {
        let even = Predictor::even().to_text("even");
        assert!(Predictor::from_text(&even).is_ok());
        let missing = even.replace("line 2 0.0000\n", "");
        assert_eq!(Predictor::from_text(&missing).unwrap_err(), "the predictor has no weight for line 2");
        for bad in ["line 5 0.1", "lines 0 0.1", "line 0 NaN", "shape zz 0.1", "shape 1000000 0.1", "line 0"] {
            let err = Predictor::from_text(&format!("{even}{bad}\n")).unwrap_err();
            assert!(err.contains(bad), "{bad}: {err}");
        }
    }

    #[test]
    fn the_shipped_predictor_reads_and_its_byte_table_agrees() {
        let predictor = Predictor::shipped();
        let table = Predictor::shape_table();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        let mut board = Board::new(9).unwrap();
        let mut color = Color::Black;
        for _ in 0..50 {
            if let Some(p) = board.policy_move(color, None, &tengen_core::Policy::LIGHT, &mut rng) {
                board.play_unchecked(p, color);
            }
            color = !color;
            for p in board.empty_points().collect::<Vec<_>>() {
                let want = predictor.shape_weight(Shape::of(&board, p, color));
                let got = table.weight(&board, p, color).ln();
                assert!((got - want.clamp(-8.0, 8.0)).abs() <= 1.0 / 32.0 + 1e-4, "{p}: {got} {want}");
            }
        }
    }

    #[test]
    fn codes_read_back_only_when_canonical() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut board = Board::new(9).unwrap();
        let mut color = Color::Black;
        let mut checked = 0;
        for _ in 0..60 {
            if let Some(p) = board.policy_move(color, None, &tengen_core::Policy::LIGHT, &mut rng) {
                board.play_unchecked(p, color);
            }
            color = !color;
            for p in board.empty_points().collect::<Vec<_>>() {
                let shape = Shape::of(&board, p, color);
                assert_eq!(Shape::from_code(shape.code()), Some(shape));
                checked += 1;
            }
        }
        assert!(checked > 1000);
        // A diagonal stone in the three other corners (not canonical), an atari mark on a
        // corner, out of range.
        let empty = Shape::from_cells([2; 8]).code();
        assert_eq!(Shape::from_code(empty), Some(Shape::from_cells([2; 8])));
        let mut cells = [2u8; 8];
        cells[1] = 0;
        let canonical = Shape::from_cells(cells).code();
        let other: Vec<u32> = (1..8)
            .step_by(2)
            .map(|k| {
                let mut c = [2u8; 8];
                c[k] = 0;
                c.iter().fold(0u32, |acc, &x| (acc << 3) | u32::from(x))
            })
            .filter(|&code| code != canonical)
            .collect();
        assert!(other.iter().all(|&code| Shape::from_code(code).is_none()), "{other:x?}");
        cells[1] = 4;
        assert_eq!(Shape::from_code(cells.iter().fold(0u32, |acc, &x| (acc << 3) | u32::from(x))), None);
        assert_eq!(Shape::from_code(1 << 24), None);
    }
}

//! Learned 3 × 3 shapes: how often a move with a given neighbourhood is the one played.
//!
//! A move's [`Shape`] is its eight neighbours, each own stone, opponent stone, empty or off
//! the board — stones next to the move (north, east, south, west) also saying whether their
//! chain is in atari —, seen from the player to move and reduced over the eight symmetries of
//! the square. [`ShapeTable::record`] counts, over the positions of game records, how often each
//! shape was available (a legal empty point) and how often it was the move played; the table
//! shipped in `data/shapes.txt` is learned from the game records in `../shared/testdata/` by
//! `tengen learn shapes` (see docs/measurements.md). The search turns a shape's rate into prior
//! knowledge ([`ShapeTable::odds`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use tengen_core::{Board, Color, Point, ShapeWeights};

/// A canonical 3 × 3 shape: three bits per neighbour (0 own, 1 opponent, 2 empty, 3 off the
/// board, 4 own in atari, 5 opponent in atari), the smallest code over the eight symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape(u32);

/// Ring order of [`Board::neighbourhood`]: N, NE, E, SE, S, SW, W, NW (even indices touch).
const RING: usize = 8;

impl Shape {
    /// The shape of a move by `player` at the empty point `p`.
    #[must_use]
    pub fn of(board: &Board, p: Point, player: Color) -> Shape {
        let code = board.neighbourhood(p);
        let mut cells = [0u8; RING];
        let size = board.size() as i16;
        let step = |dc: i16, dr: i16| {
            let (c, r) = (i16::from(p.col()) + dc, i16::from(p.row()) + dr);
            ((0..size).contains(&c) && (0..size).contains(&r)).then(|| Point::new(c as u8, r as u8)).flatten()
        };
        let orthogonal = [step(0, 1), step(1, 0), step(0, -1), step(-1, 0)];
        for (k, cell) in cells.iter_mut().enumerate() {
            let raw = ((code >> (2 * k)) & 3) as u8;
            *cell = match raw {
                0 | 1 => {
                    let own = raw as usize == player.index();
                    let in_atari = k % 2 == 0 && orthogonal[k / 2].is_some_and(|n| board.atari_liberty(n).is_some());
                    u8::from(!own) + if in_atari { 4 } else { 0 }
                }
                other => other,
            };
        }
        Shape::from_cells(cells)
    }

    /// The shape of the neighbourhood `cells`, in the order of [`Board::neighbourhood`], each
    /// coded as in [`Shape`] (the player's view): the smallest code over the symmetries.
    #[must_use]
    pub fn from_cells(cells: [u8; RING]) -> Shape {
        let encode = |f: &dyn Fn(usize) -> usize| (0..RING).fold(0u32, |acc, k| (acc << 3) | u32::from(cells[f(k)]));
        let mut best = u32::MAX;
        for turn in (0..RING).step_by(2) {
            best = best.min(encode(&|k| (k + turn) % RING));
            best = best.min(encode(&|k| (RING - k + turn) % RING));
        }
        Shape(best)
    }

    /// The code, for the table's text form.
    #[must_use]
    pub fn code(self) -> u32 {
        self.0
    }

    /// The shape of a code read back from a table: `None` when it is not the canonical code
    /// of a neighbourhood (a cell out of range, an atari mark on a corner or an empty point,
    /// or not the smallest of its symmetries).
    #[must_use]
    pub fn from_code(code: u32) -> Option<Shape> {
        if code >> (3 * RING) != 0 {
            return None;
        }
        let cells: [u8; RING] = std::array::from_fn(|k| ((code >> (3 * (RING - 1 - k))) & 7) as u8);
        let valid = cells.iter().enumerate().all(|(k, &c)| c < 4 || (k % 2 == 0 && c < 6));
        (valid && Shape::from_cells(cells) == Shape(code)).then_some(Shape(code))
    }
}

/// `x` to three decimals, without trailing zeros (whole counts print as integers).
fn thousandths(x: f64) -> String {
    let text = format!("{x:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Per shape: how many times it was played (a sum of probabilities when learned from a
/// network's policy), and how many times it was available.
#[derive(Clone, Debug, Default)]
pub struct ShapeTable {
    counts: HashMap<Shape, (f64, u64)>,
    played: f64,
    seen: u64,
}

/// A shape's rate is pulled towards the mean rate as if it had been seen this many more times
/// at the mean: rare shapes stay near even.
const SMOOTHING: f64 = 200.0;

impl ShapeTable {
    /// Counts one position: `played` the move made, `available` every legal point (with it).
    pub fn record(&mut self, board: &Board, player: Color, played: Point, available: impl Iterator<Item = Point>) {
        self.record_weighted(board, player, available.map(|p| (p, if p == played { 1.0 } else { 0.0 })));
    }

    /// Counts one position where each available point `p` was played with probability `w`
    /// (the pairs `(p, w)`, every legal point; the weights sum to 1 — a network's policy over
    /// the points, the pass left out).
    pub fn record_weighted(&mut self, board: &Board, player: Color, available: impl Iterator<Item = (Point, f64)>) {
        for (p, w) in available {
            let entry = self.counts.entry(Shape::of(board, p, player)).or_default();
            entry.1 += 1;
            self.seen += 1;
            entry.0 += w;
            self.played += w;
        }
    }

    /// Positions counted (moves played).
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.played.round() as u64
    }

    /// Distinct shapes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.counts.len()
    }

    /// Whether nothing was counted.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }

    /// How much likelier a move of this shape is to be the one played than a move at random:
    /// its smoothed rate over the mean rate (1 for shapes never seen).
    #[must_use]
    pub fn odds(&self, shape: Shape) -> f64 {
        if self.seen == 0 {
            return 1.0;
        }
        let mean = self.played / self.seen as f64;
        let (played, seen) = self.counts.get(&shape).copied().unwrap_or((0.0, 0));
        (played + SMOOTHING * mean) / (seen as f64 + SMOOTHING) / mean
    }

    /// The text form: a comment, then one line per shape seen at least `min_seen` times — its
    /// code in hexadecimal, times played, times available.
    #[must_use]
    pub fn to_text(&self, min_seen: u64) -> String {
        let mut rows: Vec<(&Shape, &(f64, u64))> = self.counts.iter().filter(|(_, c)| c.1 >= min_seen).collect();
        rows.sort_by_key(|(shape, _)| **shape);
        let mut out = format!(
            "# tengen 3x3 shapes: code played available; totals {} {} (tengen learn shapes)\n",
            thousandths(self.played),
            self.seen
        );
        for (shape, (played, seen)) in rows {
            let _ = writeln!(out, "{:06x} {} {seen}", shape.0, thousandths(*played));
        }
        out
    }

    /// Reads the text form (the totals from its first line).
    ///
    /// # Errors
    /// A line that is not `hex count count`, or no totals.
    pub fn from_text(text: &str) -> Result<ShapeTable, String> {
        let mut table = ShapeTable::default();
        let mut lines = text.lines();
        let header = lines.next().ok_or("an empty shape table")?;
        let totals: Vec<&str> = header
            .split("totals ")
            .nth(1)
            .and_then(|t| t.split(" (").next())
            .map(|t| t.split_whitespace().collect())
            .unwrap_or_default();
        let no_totals = || format!("the shape table's first line has no totals: {header}");
        let [played, seen] = totals[..] else {
            return Err(no_totals());
        };
        let played: f64 = played.parse().ok().filter(|p: &f64| p.is_finite() && *p >= 0.0).ok_or_else(no_totals)?;
        (table.played, table.seen) = (played, seen.parse().map_err(|_| no_totals())?);
        for (i, line) in lines.enumerate() {
            let bad = || format!("shape table line {}: {line}", i + 2);
            let mut words = line.split_whitespace();
            let code = words.next().and_then(|w| u32::from_str_radix(w, 16).ok()).ok_or_else(bad)?;
            let played: f64 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            let seen: u64 = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
            if words.next().is_some() || !(0.0..=seen as f64).contains(&played) {
                return Err(bad());
            }
            table.counts.insert(Shape(code), (played, seen));
        }
        Ok(table)
    }

    /// The table shipped with tengen (`data/shapes.txt`).
    ///
    /// # Panics
    /// Never: the file is checked by the tests.
    #[must_use]
    pub fn shipped() -> &'static ShapeTable {
        static TABLE: OnceLock<ShapeTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            ShapeTable::from_text(include_str!("../data/shapes.txt")).expect("the shipped shape table reads")
        })
    }

    /// The shipped table as the playout policy's weights ([`ShapeWeights`]), each shape at its
    /// odds; built once, on first use (about a million neighbourhoods).
    #[must_use]
    pub fn playout_weights() -> &'static ShapeWeights {
        static WEIGHTS: OnceLock<ShapeWeights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            let table = ShapeTable::shipped();
            ShapeWeights::new(|cells| table.odds(Shape::from_cells(cells)))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::{Game, Setup};

    fn board_from_ascii(text: &str) -> Board {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap().board().clone()
    }

    fn at(_board: &Board, name: &str) -> Point {
        name.parse().unwrap()
    }

    #[test]
    fn playout_weights_are_the_table_odds_of_each_shape() {
        // Random positions with chains in atari: every empty point's weight, for either
        // player, is its shape's odds (to the byte's rounding, e^±1/32).
        use rand::{RngCore, SeedableRng};
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        let (table, weights) = (ShapeTable::shipped(), ShapeTable::playout_weights());
        let mut checked = 0;
        for _ in 0..20 {
            let mut board = Board::new(9).unwrap();
            let mut color = Color::Black;
            for _ in 0..30 + rng.next_u32() % 40 {
                if let Some(p) = board.policy_move(color, None, &tengen_core::Policy::LIGHT, &mut rng) {
                    board.play_unchecked(p, color);
                }
                color = !color;
            }
            for p in board.empty_points().collect::<Vec<_>>() {
                for c in [Color::Black, Color::White] {
                    let (w, odds) = (weights.weight(&board, p, c), table.odds(Shape::of(&board, p, c)));
                    assert!((f64::from(w).ln() - odds.ln()).abs() <= 1.0 / 32.0 + 1e-6, "{p} {c}: {w} {odds}\n{board}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn symmetric_and_colour_blind() {
        // The same hane in four orientations, and with the colours swapped.
        let board = board_from_ascii(
            "
            . . . . . . . . .
            . X O . . . O X .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . O X . . . X O .
            . . . . . . . . .
            ",
        );
        let shape = Shape::of(&board, at(&board, "B7"), Color::White);
        for (p, c) in [("H7", Color::White), ("B3", Color::Black), ("H3", Color::Black)] {
            assert_eq!(Shape::of(&board, at(&board, p), c), shape, "{p}");
        }
        assert_ne!(Shape::of(&board, at(&board, "B7"), Color::Black), shape, "the other player's view differs");
    }

    #[test]
    fn atari_and_edges_count() {
        let board = board_from_ascii(
            "
            . . . . .
            . . . . .
            . . O . .
            . O X . .
            . . O . .
            ",
        );
        // D2 next to the black stone in atari, and B3-like points without one.
        let next_to_atari = Shape::of(&board, at(&board, "D2"), Color::White);
        let plain = board_from_ascii(
            "
            . . . . .
            . . . . .
            . . . . .
            . O X . .
            . . O . .
            ",
        );
        assert_ne!(next_to_atari, Shape::of(&plain, at(&plain, "D2"), Color::White));
        assert_ne!(
            Shape::of(&board, at(&board, "A1"), Color::White),
            Shape::of(&board, at(&board, "B3"), Color::White)
        );
    }

    #[test]
    fn counts_round_trip_and_odds_lean_to_what_is_played() {
        let board = board_from_ascii(
            "
            . . . . .
            . . . . .
            . . X . .
            . . . . .
            . . . . .
            ",
        );
        let mut table = ShapeTable::default();
        let all: Vec<Point> = board.empty_points().collect();
        for _ in 0..500 {
            table.record(&board, Color::White, at(&board, "C4"), all.iter().copied());
        }
        assert_eq!(table.positions(), 500);
        let played = Shape::of(&board, at(&board, "C4"), Color::White);
        let far = Shape::of(&board, at(&board, "A1"), Color::White);
        assert!(table.odds(played) > 3.0, "{}", table.odds(played));
        assert!(table.odds(far) < 0.5, "{}", table.odds(far));
        let back = ShapeTable::from_text(&table.to_text(1)).unwrap();
        assert_eq!(back.len(), table.len());
        assert!((back.odds(played) - table.odds(played)).abs() < 1e-12);
        assert!(ShapeTable::from_text("# no totals\n").is_err());
        assert!(ShapeTable::from_text("# totals 1 2 (x)\nzz 1 2\n").is_err());
        assert!(ShapeTable::from_text("# totals 1 2 (x)\n10 3 2\n").is_err(), "played more than seen");
        assert!(ShapeTable::from_text("# totals 1 2 (x)\n10 -0.5 2\n").is_err(), "played less than nothing");
        // Weighted positions (a network's policy): fractional counts, kept to three decimals.
        let mut soft = ShapeTable::default();
        let c4 = at(&board, "C4");
        let weights = all.iter().map(|&p| (p, if p == c4 { 0.75 } else { 0.25 / (all.len() - 1) as f64 }));
        soft.record_weighted(&board, Color::White, weights);
        assert_eq!(soft.positions(), 1);
        let text = soft.to_text(1);
        assert!(text.starts_with("# tengen 3x3 shapes") && text.contains("totals 1 24 "), "{text}");
        assert!(text.lines().skip(1).any(|l| l.split_whitespace().nth(1).unwrap().contains('.')), "{text}");
        let back = ShapeTable::from_text(&text).unwrap();
        assert!((back.odds(played) - soft.odds(played)).abs() < 1e-3, "{} {}", back.odds(played), soft.odds(played));
    }

    #[test]
    fn the_shipped_table_knows_good_shape_from_bad() {
        let table = ShapeTable::shipped();
        assert!(table.len() > 500, "{}", table.len());
        // Filling one's own eye against taking a stone in atari.
        let board = board_from_ascii(
            "
            . X . . . . . . .
            X . X . . . . . .
            . X . . . . . . .
            . . . . . O X . .
            . . . . . . O . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            ",
        );
        let own_eye = table.odds(Shape::of(&board, at(&board, "B8"), Color::Black));
        let empty = table.odds(Shape::of(&board, at(&board, "E5"), Color::Black));
        assert!(own_eye < 0.5 && own_eye < empty, "own eye {own_eye}, open space {empty}");
    }
}

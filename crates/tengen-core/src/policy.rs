//! The playout policy of the tree search: moves that answer the last one before random ones
//! (the "heavy" playouts of MoGo, after Gelly, Wang, Munos and Teytaud, *Modification of UCT
//! with Patterns in Monte-Carlo Go*, 2006), and the same knowledge for the search's priors.
//!
//! In order, for the player to move after the opponent's stone at `last`:
//! 1. **capture** the chain of `last` when it is in atari;
//! 2. **escape**: an own chain next to `last` in atari takes an opposing chain in atari next
//!    to it, or extends to its last liberty when that gives it two or more (and, with
//!    `ladders`, does not run into a ladder: [`Board::ladder_captures`]);
//! 3. **two liberties**: after a move that leaves a chain next to it with
//!    two liberties, its owner's opponent ataris the last move's chain when the atari is safe
//!    and an extension would not give it three liberties, and the player lengthens an own
//!    chain of two liberties to three or more — and, with `races`, ataris an opposing chain of
//!    two liberties that touches such an own chain (the counter-atari of a capturing race,
//!    攻め合い: the side to move in a race of two against two wins it);
//! 4. **nakade** (off by default): the middle of a three-point eye space next to `last`;
//! 5. **patterns**: an empty point next to `last` whose 3 × 3 neighbourhood matches one of
//!    MoGo's shapes (hane, cut, edge moves; [`PATTERNS`]) for the player — or, with learned
//!    weights ([`Board::policy_move_shaped`], [`ShapeWeights`]), a point next to `last` drawn
//!    by its shape's weight against the rest of the board;
//! 6. **anywhere** (off by default): a chain in atari anywhere on the board — the
//!    opponent's taken, the player's saved by extending to two or more liberties (not a
//!    one-stone ko);
//! 7. else a uniformly random legal move that fills no own eye and — with `avoid_self_atari`
//!    — puts no chain of two or more stones into atari (a single stone may: throw-ins, nakade;
//!    with `lone_atari` only next to an opposing chain of two liberties or fewer).
//!
//! Each step can be switched off ([`Policy`]) so that matches can measure it.

use std::sync::OnceLock;

use rand::RngCore;

use crate::board::Board;
use crate::color::Color;
use crate::point::{NEIGHBOURS, Point};

/// Which steps of the playout policy are on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Take the last move's chain when it is in atari.
    pub capture: bool,
    /// Save own chains the last move put in atari.
    pub escape: bool,
    /// Play MoGo's 3 × 3 shapes next to the last move.
    pub patterns: bool,
    /// Random moves never put two or more stones into atari.
    pub avoid_self_atari: bool,
    /// Escapes that run into a ladder are not played (the ladder is read on copies of the
    /// board).
    pub ladders: bool,
    /// Play the vital point of a three-point eye space next to the last move.
    pub nakade: bool,
    /// Atari the last move's chain of two liberties, lengthen own chains it left with two.
    pub two_liberties: bool,
    /// Take or save chains in atari anywhere on the board, before random moves.
    pub anywhere: bool,
    /// With `two_liberties`: an own chain the last move left with two liberties ataris an
    /// opposing chain of two liberties touching it (capturing races).
    pub races: bool,
    /// With `avoid_self_atari`: a random move puts a lone stone into atari only next to an
    /// opposing chain of two liberties or fewer (a throw-in, nakade, ko or snapback), not
    /// anywhere (a stone given away).
    pub lone_atari: bool,
}

impl Policy {
    /// Uniform random moves only (the light playouts).
    pub const LIGHT: Policy = Policy {
        capture: false,
        escape: false,
        patterns: false,
        avoid_self_atari: false,
        ladders: false,
        nakade: false,
        two_liberties: false,
        anywhere: false,
        races: false,
        lone_atari: false,
    };
    /// The engine's default: capture, escape, two liberties, patterns and no big self-atari;
    /// ladder reading, nakade and the anywhere step scored lower in matches (docs/measurements.md).
    pub const HEAVY: Policy = Policy {
        capture: true,
        escape: true,
        patterns: true,
        avoid_self_atari: true,
        ladders: false,
        nakade: false,
        two_liberties: true,
        anywhere: false,
        races: false,
        lone_atari: false,
    };
}

impl Policy {
    /// The steps on in `self` or in `other`.
    #[must_use]
    pub fn with(self, other: Policy) -> Policy {
        // Every field named, so that a new step cannot be left out.
        let Policy {
            capture,
            escape,
            patterns,
            avoid_self_atari,
            ladders,
            nakade,
            two_liberties,
            anywhere,
            races,
            lone_atari,
        } = other;
        Policy {
            capture: self.capture | capture,
            escape: self.escape | escape,
            patterns: self.patterns | patterns,
            avoid_self_atari: self.avoid_self_atari | avoid_self_atari,
            ladders: self.ladders | ladders,
            nakade: self.nakade | nakade,
            two_liberties: self.two_liberties | two_liberties,
            anywhere: self.anywhere | anywhere,
            races: self.races | races,
            lone_atari: self.lone_atari | lone_atari,
        }
    }
}

impl std::fmt::Display for Policy {
    /// The form [`Policy::from_str`](std::str::FromStr) reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if *self == Policy::LIGHT {
            return f.write_str("light");
        }
        if *self == Policy::HEAVY {
            return f.write_str("heavy");
        }
        let steps = [
            (self.capture, "capture"),
            (self.escape, "escape"),
            (self.patterns, "patterns"),
            (self.avoid_self_atari, "self-atari"),
            (self.ladders, "ladders"),
            (self.nakade, "nakade"),
            (self.two_liberties, "two-liberties"),
            (self.anywhere, "anywhere"),
            (self.races, "races"),
            (self.lone_atari, "lone-atari"),
        ];
        let on: Vec<&str> = steps.iter().filter(|s| s.0).map(|s| s.1).collect();
        f.write_str(&on.join(","))
    }
}

impl std::str::FromStr for Policy {
    type Err = String;

    /// `light`, `heavy`, or a comma-separated list of the steps `capture`, `escape`,
    /// `patterns`, `self-atari`, `ladders`, `nakade`, `two-liberties`, `anywhere`, `races`,
    /// `lone-atari` (those on), or `heavy,` followed by such steps (added to the heavy policy).
    fn from_str(s: &str) -> Result<Policy, String> {
        match s {
            "light" => return Ok(Policy::LIGHT),
            "heavy" => return Ok(Policy::HEAVY),
            _ => {}
        }
        let mut policy = Policy::LIGHT;
        for step in s.split(',').map(str::trim) {
            match step {
                "heavy" => policy = policy.with(Policy::HEAVY),
                "capture" => policy.capture = true,
                "escape" => policy.escape = true,
                "patterns" => policy.patterns = true,
                "self-atari" => policy.avoid_self_atari = true,
                "ladders" => policy.ladders = true,
                "nakade" => policy.nakade = true,
                "two-liberties" => policy.two_liberties = true,
                "anywhere" => policy.anywhere = true,
                "races" => policy.races = true,
                "lone-atari" => policy.lone_atari = true,
                other => {
                    return Err(format!(
                        "unknown playout policy step {other:?}: use light, heavy, or a list of capture, escape, \
                         patterns, self-atari, ladders, nakade, two-liberties, anywhere, races, lone-atari (or heavy among them)"
                    ));
                }
            }
        }
        Ok(policy)
    }
}

/// MoGo's 3 × 3 shapes, rows from the top, the centre being the move: `X` the player's stone,
/// `O` the opponent's, `.` empty, `?` anything, `x` not the player's (the opponent's or
/// empty), `o` not the opponent's, `#` off the board. Each holds in its eight orientations.
pub const PATTERNS: [&str; 13] = [
    // Hane: enclosing, non-cutting, magari (bending round), thin.
    "XOX...???",
    "XO....?.?",
    "XO?X..x.?",
    "XOO...?.?",
    // Cut 1 (kiri): unprotected, and peeped.
    "XO?O.o?o?",
    "XO?O.X???",
    // Cut 2 (de): pushing between two opposing stones.
    "?X?O.Oooo",
    // The edge (bottom row off the board): chase, block a cut, block a connection, sagari, cut.
    "X.?O.?###",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
    // Attaching diagonally next to an opposing stone (katatsuke).
    ".O.X.....",
];

/// One bit per 3 × 3 code, per colour to move.
struct PatternTable {
    bits: [Vec<u64>; 2],
}

fn table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

/// Ring position (see [`Board::neighbourhood`]) of the offset (dx, dy), dy = +1 north.
fn ring_index(dx: i32, dy: i32) -> usize {
    match (dx, dy) {
        (0, 1) => 0,
        (1, 1) => 1,
        (1, 0) => 2,
        (1, -1) => 3,
        (0, -1) => 4,
        (-1, -1) => 5,
        (-1, 0) => 6,
        (-1, 1) => 7,
        _ => unreachable!("a neighbour offset"),
    }
}

fn build_table() -> PatternTable {
    let mut bits = [vec![0u64; 1024], vec![0u64; 1024]];
    for (colour, bits) in bits.iter_mut().enumerate() {
        let (x, o) = (colour as u8, 1 - colour as u8);
        for pattern in PATTERNS {
            let cells: Vec<char> = pattern.chars().collect();
            for symmetry in 0..8 {
                // Allowed cell values at each ring position.
                let mut allowed = [0u8; 8];
                for (i, &ch) in cells.iter().enumerate() {
                    let (r, c) = (i / 3, i % 3);
                    if r == 1 && c == 1 {
                        continue;
                    }
                    let (mut dx, mut dy) = (c as i32 - 1, 1 - r as i32);
                    if symmetry & 1 != 0 {
                        dx = -dx;
                    }
                    if symmetry & 2 != 0 {
                        dy = -dy;
                    }
                    if symmetry & 4 != 0 {
                        std::mem::swap(&mut dx, &mut dy);
                    }
                    let set: u8 = match ch {
                        'X' => 1 << x,
                        'O' => 1 << o,
                        '.' => 1 << 2,
                        '?' => 0b1111,
                        'x' => (1 << o) | (1 << 2),
                        'o' => (1 << x) | (1 << 2),
                        '#' => 1 << 3,
                        _ => unreachable!("pattern character {ch}"),
                    };
                    allowed[ring_index(dx, dy)] = set;
                }
                let mut code = [0u8; 8];
                mark(&allowed, 0, &mut code, bits);
            }
        }
    }
    PatternTable { bits }
}

/// Sets the bit of every code whose ring positions from `k` on take allowed values.
fn mark(allowed: &[u8; 8], k: usize, code: &mut [u8; 8], bits: &mut [u64]) {
    if k == 8 {
        let c = code.iter().enumerate().fold(0usize, |acc, (i, &v)| acc | (usize::from(v) << (2 * i)));
        bits[c >> 6] |= 1 << (c & 63);
        return;
    }
    for v in 0..4u8 {
        if allowed[k] & (1 << v) != 0 {
            code[k] = v;
            mark(allowed, k + 1, code, bits);
        }
    }
}

/// Whether the 3 × 3 code (from [`Board::neighbourhood`]) matches one of [`PATTERNS`] for
/// `color` playing in the centre.
#[inline]
#[must_use]
pub fn matches_pattern(code: u16, color: Color) -> bool {
    let c = usize::from(code);
    table().bits[color.index()][c >> 6] & (1 << (c & 63)) != 0
}

/// Learned weights of 3 × 3 shapes for the playout policy's shape step
/// ([`Board::policy_move_shaped`]): for each neighbourhood of an empty point — the eight
/// neighbours as Black to play sees them, and whether each stone north, east, south and west
/// is in atari — a weight, how much likelier a move there is than one at random. Kept in a
/// byte per neighbourhood (the weight's logarithm, to a sixteenth), 1 MiB in all.
pub struct ShapeWeights {
    logs: Box<[u8]>,
    /// Weight per byte value.
    values: [f32; 256],
}

impl std::fmt::Debug for ShapeWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShapeWeights").finish_non_exhaustive()
    }
}

impl ShapeWeights {
    /// Weights from `weight(cells)`: `cells` the eight neighbours in the order of
    /// [`Board::neighbourhood`] (north, north-east, east, …), each 0 the player's stone, 1 the
    /// opponent's, 2 empty, 3 off the board, a stone north, east, south or west 4 higher when
    /// its chain is in atari. Weights are kept between e^−8 and e^8.
    #[must_use]
    pub fn new(weight: impl Fn([u8; 8]) -> f64) -> ShapeWeights {
        let mut logs = vec![0u8; 1 << 20].into_boxed_slice();
        for (index, log) in logs.iter_mut().enumerate() {
            let mut cells = [0u8; 8];
            let mut valid = true;
            for (k, cell) in cells.iter_mut().enumerate() {
                *cell = ((index >> (2 * k)) & 3) as u8;
                if k % 2 == 0 && index & (1 << (16 + k / 2)) != 0 {
                    valid &= *cell < 2;
                    *cell += 4;
                }
            }
            if valid {
                *log = (128.0 + 16.0 * weight(cells).ln()).round().clamp(0.0, 255.0) as u8;
            }
        }
        let values = std::array::from_fn(|v| ((v as f32 - 128.0) / 16.0).exp());
        ShapeWeights { logs, values }
    }

    /// The weight of a move by `color` at the empty point `p`.
    #[must_use]
    pub fn weight(&self, board: &Board, p: Point, color: Color) -> f32 {
        self.weight_at(board, p.index(), color as u8)
    }

    #[inline]
    fn weight_at(&self, board: &Board, q: usize, c: u8) -> f32 {
        let mut code = usize::from(board.neighbourhood_at(q));
        if c == 1 {
            // White to play: swap the colours of the stones (cells 0 and 1; 2 and 3 stay).
            code ^= !(code >> 1) & 0x5555;
        }
        let mut index = code;
        for (bit, &d) in NEIGHBOURS_RING.iter().enumerate() {
            let n = (q as isize + d) as usize;
            if board.cell(n) < 2 && board.atari_at(n).is_some() {
                index |= 1 << (16 + bit);
            }
        }
        self.values[usize::from(self.logs[index])]
    }
}

/// The orthogonal neighbours in ring order: north, east, south, west.
const NEIGHBOURS_RING: [isize; 4] =
    [crate::board::RING[0], crate::board::RING[2], crate::board::RING[4], crate::board::RING[6]];

/// Candidate moves gathered by one step of the policy.
struct Candidates {
    points: [u16; 24],
    n: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates { points: [0; 24], n: 0 }
    }

    fn push(&mut self, p: usize) {
        if self.n < self.points.len() && !self.points[..self.n].contains(&(p as u16)) {
            self.points[self.n] = p as u16;
            self.n += 1;
        }
    }

    fn pick<R: RngCore + ?Sized>(&self, rng: &mut R) -> Option<Point> {
        (self.n > 0).then(|| {
            let i = ((u64::from(rng.next_u32()) * self.n as u64) >> 32) as usize;
            Point::from_index(self.points[i] as usize)
        })
    }
}

impl Board {
    /// Whether `color` may play at `p` as the heavy policy's random step does: a legal move
    /// (superko aside) that fills no own eye and puts no two stones into atari. For moves
    /// proposed from elsewhere into the playouts (the engine's last good replies).
    #[inline]
    #[must_use]
    pub fn is_playout_move(&self, p: Point, color: Color) -> bool {
        // Every cell of the padded table off the board is a border cell, never empty: only
        // the index's range needs checking (no division into column and row).
        let (q, c) = (p.index(), color as u8);
        q < Point::TABLE_SIZE && self.playable_at(q, c) && !self.is_eye_at(q, c) && !self.big_self_atari_at(q, c)
    }

    /// The playout policy's move for `color` after the opponent's move `last` (`None` after a
    /// pass or at the start), or `None` when it has none (the player passes). See the module.
    #[inline]
    pub fn policy_move<R: RngCore + ?Sized>(
        &self,
        color: Color,
        last: Option<Point>,
        policy: &Policy,
        rng: &mut R,
    ) -> Option<Point> {
        self.policy_move_shaped(color, last, policy, None, rng)
    }

    /// [`Board::policy_move`] with the shape step drawn by learned weights when `shapes` is
    /// given (with `policy.patterns`): the weights and how much likelier than elsewhere a move
    /// next to the last one is before its shape (see [`ShapeWeights`]), rather than MoGo's
    /// shapes.
    #[inline]
    pub fn policy_move_shaped<R: RngCore + ?Sized>(
        &self,
        color: Color,
        last: Option<Point>,
        policy: &Policy,
        shapes: Option<(&ShapeWeights, f32)>,
        rng: &mut R,
    ) -> Option<Point> {
        self.policy_move_replying(color, last, policy, shapes, || None, rng)
    }

    /// [`Board::policy_move_shaped`] with `reply` (a move proposed from elsewhere: the
    /// engine's last good replies) tried after the capture and escape steps and before the
    /// others.
    #[inline]
    pub fn policy_move_replying<R: RngCore + ?Sized>(
        &self,
        color: Color,
        last: Option<Point>,
        policy: &Policy,
        shapes: Option<(&ShapeWeights, f32)>,
        reply: impl FnOnce() -> Option<Point>,
        rng: &mut R,
    ) -> Option<Point> {
        let c = color as u8;
        let last = last.map(Point::index).filter(|&l| self.cell(l) == c ^ 1);
        if let Some(l) = last {
            let mut urgent = Candidates::new();
            if policy.capture
                && let Some(lib) = self.atari_at(l)
                && self.playable_at(lib, c)
            {
                urgent.push(lib);
            }
            if policy.escape {
                self.escapes(l, c, policy.ladders, &mut urgent);
            }
            if let Some(p) = urgent.pick(rng) {
                return Some(p);
            }
        }
        if let Some(p) = reply() {
            return Some(p);
        }
        if let Some(l) = last {
            let mut urgent = Candidates::new();
            if policy.two_liberties {
                self.two_liberty_moves(l, c, policy.races, &mut urgent);
                if let Some(p) = urgent.pick(rng) {
                    return Some(p);
                }
            }
            if policy.nakade
                && let Some(p) = self.nakade_point(l, c)
            {
                return Some(p);
            }
            if policy.patterns
                && let Some((weights, bonus)) = shapes
            {
                if let Some(p) = self.learned_shape_move(l, c, policy, weights, bonus, rng) {
                    return Some(p);
                }
            } else if policy.patterns {
                let mut shapes = Candidates::new();
                for d in crate::board::RING {
                    let q = (l as isize + d) as usize;
                    if self.cell(q) == 2
                        && matches_pattern(self.neighbourhood_at(q), color)
                        && self.playable_at(q, c)
                        && self.self_atari_at(q, c).is_none_or(|size| size == 1 && !policy.avoid_self_atari)
                    {
                        shapes.push(q);
                    }
                }
                if let Some(p) = shapes.pick(rng) {
                    return Some(p);
                }
            }
        }
        if policy.anywhere {
            let mut ataris = Candidates::new();
            self.ataris_anywhere(c, &mut ataris);
            if let Some(p) = ataris.pick(rng) {
                return Some(p);
            }
        }
        if policy.avoid_self_atari && policy.lone_atari {
            self.random_move_where(c, rng, |p| !self.bad_self_atari_at(p, c))
        } else if policy.avoid_self_atari {
            // A single stone may go into atari (throw-ins, nakade); two or more may not.
            self.random_move_where(c, rng, |p| !self.big_self_atari_at(p, c))
        } else {
            self.random_playout_move(color, rng)
        }
    }

    /// The learned shape step: each empty point next to `l` that `c` may play without a
    /// self-atari (of a single stone allowed when `policy.avoid_self_atari` is off, as in the
    /// MoGo step) is drawn with weight `bonus × w`, w its shape's weight, against a weight of 1
    /// for each empty point of the board (the random step's moves); `None` when the draw falls
    /// there.
    fn learned_shape_move<R: RngCore + ?Sized>(
        &self,
        l: usize,
        c: u8,
        policy: &Policy,
        weights: &ShapeWeights,
        bonus: f32,
        rng: &mut R,
    ) -> Option<Point> {
        let mut points = [0u16; 8];
        let mut weight = [0f32; 8];
        let mut n = 0;
        let mut total = 0f32;
        for d in crate::board::RING {
            let q = (l as isize + d) as usize;
            if self.cell(q) == 2 && self.playable_at(q, c) {
                points[n] = q as u16;
                weight[n] = bonus * weights.weight_at(self, q, c);
                total += weight[n];
                n += 1;
            }
        }
        // Drawn before the (costly) self-atari test, and drawn again without a point that
        // fails it: the same distribution as drawing among the points that pass.
        let random_step = self.empty_count() as f32;
        while n > 0 {
            let mut draw = (rng.next_u32() as f32 / 4_294_967_296.0) * (total + random_step);
            let i = weight[..n].iter().position(|&w| {
                draw -= w;
                draw < 0.0
            })?;
            let q = points[i] as usize;
            if self.self_atari_at(q, c).is_none_or(|size| size == 1 && !policy.avoid_self_atari) {
                return Some(Point::from_index(q));
            }
            total -= weight[i];
            n -= 1;
            points[i] = points[n];
            weight[i] = weight[n];
        }
        None
    }

    /// The vital point of a three-point eye space next to `l` (straight or bent three, 直三 /
    /// 曲三), enclosed by one colour: the middle point, which makes two eyes for its owner
    /// and kills (点眼) for the other side. `None` when there is none or `c` may not play it.
    fn nakade_point(&self, l: usize, c: u8) -> Option<Point> {
        for d in NEIGHBOURS {
            let q = (l as isize + d) as usize;
            if self.cell(q) != 2 {
                continue;
            }
            // The empty region through `q`, given up past three points.
            let mut region = [0usize; 4];
            let mut n = 1;
            region[0] = q;
            let mut i = 0;
            let mut owner = 4u8; // not yet known
            let mut enclosed = true;
            while i < n && enclosed {
                let r = region[i];
                i += 1;
                for d2 in NEIGHBOURS {
                    let e = (r as isize + d2) as usize;
                    match self.cell(e) {
                        2 => {
                            if !region[..n].contains(&e) {
                                if n == 4 {
                                    enclosed = false;
                                    break;
                                }
                                region[n] = e;
                                n += 1;
                            }
                        }
                        3 => {}
                        stone => {
                            if owner == 4 {
                                owner = stone;
                            } else if owner != stone {
                                enclosed = false;
                                break;
                            }
                        }
                    }
                }
            }
            if !enclosed || n != 3 || owner == 4 {
                continue;
            }
            // The middle point touches both others.
            let touches = |a: usize, b: usize| NEIGHBOURS.iter().any(|&d| (a as isize + d) as usize == b);
            let middle = region[..3]
                .iter()
                .copied()
                .find(|&m| region[..3].iter().filter(|&&o| o != m && touches(m, o)).count() == 2)?;
            if self.playable_at(middle, c) && (owner == c || self.self_atari_at(middle, c).is_none_or(|size| size == 1))
            {
                return Some(Point::from_index(middle));
            }
        }
        None
    }

    /// Moves on the last liberty of every chain in atari: the opponent's taken (unless the
    /// capture is a self-atari of two or more stones), the player's extended when that gives
    /// it two liberties or more. A one-stone chain whose liberty is surrounded by its own
    /// colour (a ko: taking it leaves the taker one liberty) is left alone.
    fn ataris_anywhere(&self, c: u8, out: &mut Candidates) {
        let size = self.size();
        for row in 1..=size {
            for col in 1..=size {
                let s = row * crate::point::STRIDE + col;
                let cell = self.cell(s);
                if cell > 1 || self.head_at(s) as usize != s {
                    continue;
                }
                let Some(lib) = self.atari_at(s) else { continue };
                if !self.playable_at(lib, c) {
                    continue;
                }
                if self.next_stone(s) == s
                    && NEIGHBOURS.iter().all(|&d| {
                        let e = self.cell((lib as isize + d) as usize);
                        e == cell || e == 3
                    })
                {
                    continue;
                }
                let good =
                    if cell == c { self.liberties_after(lib, c, 1).0 >= 2 } else { !self.big_self_atari_at(lib, c) };
                if good {
                    out.push(lib);
                }
            }
        }
    }

    /// The two-liberty answers to the opponent's stone at `l`: the [safe ataris](Board::safe_ataris)
    /// on its chain; the liberties of own chains next to `l` with two liberties that give them
    /// three or more — and, with `races`, the safe ataris on the opposing chains touching such
    /// an own chain.
    fn two_liberty_moves(&self, l: usize, c: u8, races: bool, out: &mut Candidates) {
        self.safe_ataris(l, c, out);
        for e in self.chains_beside(l, c) {
            let mut own = [0u16; 5];
            if self.libs_upto(e, 2, 0, &mut own) != 2 {
                continue;
            }
            for &x in &own[..2] {
                let x = x as usize;
                if self.playable_at(x, c) && self.liberties_after(x, c, 2).0 >= 3 {
                    out.push(x);
                }
            }
            if races {
                self.for_each_opposing_chain(e, c, |n| self.safe_ataris(n, c, out));
            }
        }
    }

    /// The ataris `c` has on the opposing chain through `s` when it has two liberties: on
    /// either one, when the stone played keeps two liberties or more and the chain's extension
    /// to the other would not reach three.
    fn safe_ataris(&self, s: usize, c: u8, out: &mut Candidates) {
        let mut libs = [0u16; 5];
        if self.libs_upto(s, 2, 0, &mut libs) != 2 {
            return;
        }
        let (a, b) = (libs[0] as usize, libs[1] as usize);
        for (x, y) in [(a, b), (b, a)] {
            // After our stone at x the chain has y alone; extending there gives it the
            // extension's liberties but x.
            if self.playable_at(x, c)
                && self.liberties_after(x, c, 1).0 >= 2
                && self.liberties_after(y, c ^ 1, 3).0 <= 3
            {
                out.push(x);
            }
        }
    }

    /// Calls `visit` with a stone of each opposing chain touching `c`'s chain through `e`
    /// (walking its stones), each chain once among the first eight (more is rare; a chain seen
    /// again past them is visited again).
    #[inline]
    fn for_each_opposing_chain(&self, e: usize, c: u8, mut visit: impl FnMut(usize)) {
        let h = self.head_at(e) as usize;
        let mut looked = [0u16; 8];
        let mut k = 0;
        let mut s = h;
        loop {
            for d in NEIGHBOURS {
                let n = (s as isize + d) as usize;
                if self.cell(n) != c ^ 1 {
                    continue;
                }
                let o = self.head_at(n);
                if looked[..k].contains(&o) {
                    continue;
                }
                if k < looked.len() {
                    looked[k] = o;
                    k += 1;
                }
                visit(n);
            }
            s = self.next_stone(s);
            if s == h {
                break;
            }
        }
    }

    /// A stone of each of `c`'s chains next to the point `l`, each chain once.
    #[inline]
    fn chains_beside(&self, l: usize, c: u8) -> impl Iterator<Item = usize> + '_ {
        let mut seen = [0u16; 4];
        NEIGHBOURS.into_iter().enumerate().filter_map(move |(k, d)| {
            let e = (l as isize + d) as usize;
            if self.cell(e) != c {
                return None;
            }
            let h = self.head_at(e);
            if seen.contains(&h) {
                return None;
            }
            seen[k] = h;
            Some(e)
        })
    }

    /// The escapes of own chains next to `l` that are in atari: captures of opposing chains
    /// in atari that touch them, and extensions that leave two or more liberties.
    fn escapes(&self, l: usize, c: u8, ladders: bool, out: &mut Candidates) {
        for e in self.chains_beside(l, c) {
            let Some(lib) = self.atari_at(e) else { continue };
            // Opposing chains in atari touching this one (big chains are rarely in atari, and
            // the walk stops at the chain's end).
            self.for_each_opposing_chain(e, c, |n| {
                if let Some(take) = self.atari_at(n)
                    && self.playable_at(take, c)
                {
                    out.push(take);
                }
            });
            if self.playable_at(lib, c)
                && self.self_atari_at(lib, c).is_none()
                && !(ladders && self.ladder_captures(Point::from_index(e)))
            {
                out.push(lib);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Setup};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    fn game(text: &str) -> Game {
        Game::try_from(Setup::from_ascii(text).unwrap()).unwrap()
    }

    fn at(s: &str) -> Point {
        s.parse().unwrap()
    }

    /// The policy's answers over many draws.
    fn answers(g: &Game, color: Color, last: &str, policy: Policy) -> std::collections::BTreeSet<String> {
        let mut rng = SmallRng::seed_from_u64(7);
        (0..200)
            .filter_map(|_| g.board().policy_move(color, Some(at(last)), &policy, &mut rng))
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn policies_read_and_write_their_names() {
        for text in [
            "light",
            "heavy",
            "capture",
            "escape,ladders",
            "capture,escape,patterns,self-atari,ladders",
            "two-liberties,races",
        ] {
            let policy: Policy = text.parse().unwrap();
            assert_eq!(policy.to_string(), text);
        }
        assert_eq!("capture,escape,patterns,self-atari,two-liberties".parse::<Policy>().unwrap(), Policy::HEAVY);
        // `heavy` among the steps adds them to the heavy policy.
        let more: Policy = "heavy,races".parse().unwrap();
        assert_eq!(more, Policy { races: true, ..Policy::HEAVY });
        assert_eq!(more.to_string(), "capture,escape,patterns,self-atari,two-liberties,races");
        assert_eq!("races,heavy".parse::<Policy>().unwrap(), more);
        let err = "capture,tesuji".parse::<Policy>().unwrap_err();
        assert!(err.contains("\"tesuji\"") && err.contains("nakade"), "{err}");
    }

    #[test]
    fn captures_the_last_stone_in_atari() {
        let g = game(
            "
            . . . . .
            . . X . .
            . X O X .
            . . . . .
            . . . . .",
        );
        // White's C3 has one liberty, C2.
        let policy = Policy { escape: false, patterns: false, ..Policy::HEAVY };
        assert_eq!(answers(&g, Color::Black, "C3", policy), ["C2".to_string()].into());
    }

    #[test]
    fn escapes_by_extending_or_by_capturing() {
        // White's D3 put Black's C3 in atari (liberty C2); White's B3 is in atari too (B2).
        let g = game(
            "
            . . . . .
            . X O . .
            X O X O .
            . . . . .
            . . . . .",
        );
        let policy = Policy { capture: false, patterns: false, ..Policy::HEAVY };
        assert_eq!(answers(&g, Color::Black, "D3", policy), ["B2".to_string(), "C2".to_string()].into());
    }

    #[test]
    fn with_ladders_read_a_run_into_a_ladder_is_no_escape() {
        // White's F4 put Black's E4 in atari; running to E3 dies in a ladder.
        let g = game(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . O . . . .
            . . . O X O . . .
            . . . . . O . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let plain = Policy { capture: false, patterns: false, ..Policy::HEAVY };
        assert_eq!(answers(&g, Color::Black, "F4", plain), ["E3".to_string()].into());
        let reading = Policy { ladders: true, ..plain };
        // No urgent answer left: random moves all over the board.
        assert!(answers(&g, Color::Black, "F4", reading).len() > 20);
    }

    #[test]
    fn nakade_takes_the_middle_of_three() {
        // White's eye space A1-B1-C1 (straight three) after White's D1: Black kills at B1.
        let g = game(
            "
            . . . . .
            . . . . .
            . . . . .
            O O O O .
            . . . O .",
        );
        let policy = Policy { nakade: true, patterns: false, ..Policy::HEAVY };
        assert_eq!(answers(&g, Color::Black, "D1", policy), ["B1".to_string()].into());
        // Bent three A2-A1-B1 after White's C1: A1, touching both others, is the point.
        let g = game(
            "
            . . . . .
            . . . . .
            O O . . .
            . O . . .
            . . O . .",
        );
        assert_eq!(answers(&g, Color::Black, "C1", policy), ["A1".to_string()].into());
        // Four points: not a three-point space; the policy plays elsewhere.
        let g = game(
            "
            . . . . .
            O O O O O
            . . . . O
            O O O O O
            . . . . .",
        );
        assert!(answers(&g, Color::Black, "E3", policy).len() > 1);
    }

    #[test]
    fn a_reply_comes_after_captures_and_escapes_and_before_the_rest() {
        let policy = Policy { patterns: false, ..Policy::HEAVY };
        let replying = |g: &Game, last: &str, reply: &str| {
            let mut rng = SmallRng::seed_from_u64(7);
            (0..50)
                .filter_map(|_| {
                    g.board().policy_move_replying(
                        Color::Black,
                        Some(at(last)),
                        &policy,
                        None,
                        || Some(at(reply)),
                        &mut rng,
                    )
                })
                .map(|p| p.to_string())
                .collect::<std::collections::BTreeSet<_>>()
        };
        // White's D3 ataris Black's C3: the escapes (B2 takes B3, C2 extends) come first.
        let g = game(
            "
            . . . . .
            . X O . .
            X O X O .
            . . . . .
            . . . . .",
        );
        assert_eq!(replying(&g, "D3", "E5"), ["B2".to_string(), "C2".to_string()].into());
        // Nothing urgent after White's E5: the reply, every time, over the two-liberty step.
        let g = game(
            "
            . . . . O
            . X O . .
            . . X . .
            . . . . .
            . . . . .",
        );
        assert_eq!(replying(&g, "E5", "A1"), ["A1".to_string()].into());
        // Without one, the two-liberty step's ataris of E5.
        assert_eq!(answers(&g, Color::Black, "E5", policy), ["D5".to_string(), "E4".to_string()].into());
    }

    #[test]
    fn an_extension_into_atari_is_no_escape() {
        let g = game(
            "
            . . . . .
            . . O . .
            . O X O .
            . . . O .
            . . O . .",
        );
        // Extending C3 to C2 leaves the two stones one liberty (B2): a ladder's end.
        let policy = Policy { capture: false, patterns: false, ..Policy::HEAVY };
        let got = answers(&g, Color::Black, "D3", policy);
        assert!(!got.is_empty() && !got.contains("C2"), "{got:?}");
        // Light playouts play it now and then.
        let got = answers(&g, Color::Black, "D3", Policy::LIGHT);
        assert!(got.contains("C2"), "{got:?}");
    }

    #[test]
    fn two_liberties_atari_the_last_chain_and_lengthen_own_chains() {
        let policy = Policy { two_liberties: true, patterns: false, ..Policy::HEAVY };
        let g = game(
            "
            . . . . .
            . X O X .
            . X O X .
            . . . . .
            . . . . .",
        );
        // White's C3-C4 has two liberties, C5 and C2. Black at C2: extending to C5 gives
        // White C5's liberties B5, D5 — two: the atari holds. Black at C5: extending to C2
        // gives B2, D2, C1 — three: no atari there.
        assert_eq!(answers(&g, Color::Black, "C3", policy), ["C2".to_string()].into());
        // Off, the same position gets random answers.
        let off = Policy { two_liberties: false, ..policy };
        assert!(answers(&g, Color::Black, "C3", off).len() > 5);
        let g = game(
            "
            . . . . .
            . . . . .
            O X O . .
            O X O . .
            . . . . .",
        );
        // White just played A3. Black's B2-B3 has two liberties, B4 and B1: B4 gives it A4,
        // C4, B5 and B1 gives A1, C1 — three each. White's A2-A3 has two liberties too, A4
        // and A1: Black's A4 ataris it, and White's extension to A1 has only B1 besides.
        let got = answers(&g, Color::Black, "A3", Policy { escape: false, capture: false, ..policy });
        assert_eq!(got, ["A4".to_string(), "B1".to_string(), "B4".to_string()].into());
    }

    #[test]
    fn races_atari_an_opposing_chain_of_two_liberties_touching_an_own_one() {
        let g = game(
            "
            . . . . . . .
            . . . . . . .
            O O O O . . .
            X X X O . . .
            O O X O . . .
            . O X O . . .
            . . X . . . .",
        );
        // White just played D2. Black's wall A4-C1 has two liberties, B1 and D1, and cannot
        // lengthen to three; White's A3-B3-B2 inside it has two, A2 and B1. Black to move
        // wins the race with B1 (atari; the wall keeps D1 and A1), not A2 (a stone of one
        // liberty).
        let policy = Policy { capture: false, escape: false, patterns: false, races: true, ..Policy::HEAVY };
        assert_eq!(answers(&g, Color::Black, "D2", policy), ["B1".to_string()].into());
        // Without the step the two-liberty rule has nothing here: random answers.
        let off = Policy { races: false, ..policy };
        assert!(answers(&g, Color::Black, "D2", off).len() > 5);
    }

    #[test]
    fn anywhere_takes_and_saves_chains_in_atari_far_from_the_last_move() {
        let policy = Policy { anywhere: true, patterns: false, two_liberties: false, ..Policy::HEAVY };
        // White's A5-B5 is in atari (liberty C5): Black takes it. Black's E1 is in atari
        // (liberty D1): Black saves it there (two liberties after, C1 and D2). White's last
        // stone E5 touches neither.
        let g = game(
            "
            O O . . O
            X X . . .
            . . . . .
            . . . . O
            . . . . X",
        );
        assert_eq!(answers(&g, Color::Black, "E5", policy), ["C5".to_string(), "D1".to_string()].into());
        // Off, other moves come up too.
        let off = Policy { anywhere: false, ..policy };
        assert!(answers(&g, Color::Black, "E5", off).len() > 2);
        // A ko is left alone: White's B2 is in atari at C2, but C2 is surrounded by White —
        // taking there would leave Black's stone one liberty. No move is forced.
        let g = game(
            "
            . . . . .
            . . . . .
            . X O . .
            X O . O .
            . X O . .",
        );
        assert!(answers(&g, Color::Black, "C3", policy).len() > 2);
    }

    #[test]
    fn learned_shapes_draw_by_weight_next_to_the_last_move() {
        // Weights that like only a point with the player's stone to its north.
        let weights = ShapeWeights::new(|cells| if cells[0] == 0 { 1e3 } else { 1e-3 });
        let g = game(
            "
            . . . . .
            . . . . .
            . X O . .
            . . . . .
            . . . . .",
        );
        let board = g.board();
        assert!(weights.weight(board, at("B2"), Color::Black) > 500.0);
        assert!(weights.weight(board, at("B2"), Color::White) < 0.01, "White sees Black's B3 as the opponent's");
        assert!(weights.weight(board, at("C2"), Color::White) > 500.0);
        let policy = Policy { capture: false, escape: false, two_liberties: false, ..Policy::HEAVY };
        let mut rng = SmallRng::seed_from_u64(3);
        let mut seen = std::collections::BTreeMap::new();
        for _ in 0..400 {
            let p = board.policy_move_shaped(Color::Black, Some(at("C3")), &policy, Some((&weights, 1.0)), &mut rng);
            *seen.entry(p.map_or("pass".to_string(), |p| p.to_string())).or_insert(0) += 1;
        }
        // B2 is the one point next to C3 under a black stone: nearly every draw (1000 against
        // the 22 empty points' 22 and the others' thousandths).
        assert!(seen.get("B2").copied().unwrap_or(0) > 360, "{seen:?}");
        // A bonus of 0 leaves every move to the random step; no weights, MoGo's shapes.
        let mut rng = SmallRng::seed_from_u64(3);
        let spread = (0..200)
            .filter_map(|_| {
                board.policy_move_shaped(Color::Black, Some(at("C3")), &policy, Some((&weights, 0.0)), &mut rng)
            })
            .filter(|&p| p == at("B2"))
            .count();
        assert!(spread < 40, "{spread}");
        assert_eq!(
            board.policy_move_shaped(Color::Black, Some(at("C3")), &policy, None, &mut SmallRng::seed_from_u64(3)),
            board.policy_move(Color::Black, Some(at("C3")), &policy, &mut SmallRng::seed_from_u64(3))
        );
    }

    #[test]
    fn patterns_hold_in_every_orientation_and_for_both_colours() {
        // Enclosing hane "XOX / ... / ???": the player's stones on both sides of the
        // opponent's, the move below it.
        let g = game(
            "
            . . . . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .",
        );
        assert!(matches_pattern(g.board().neighbourhood(at("C3")), Color::Black));
        assert!(!matches_pattern(g.board().neighbourhood(at("C3")), Color::White));
        // Turned a quarter and colours swapped.
        let g = game(
            "
            . . . . .
            . O . . .
            . X . . .
            . O . . .
            . . . . .",
        );
        assert!(matches_pattern(g.board().neighbourhood(at("C3")), Color::White));
        assert!(!matches_pattern(g.board().neighbourhood(at("D3")), Color::White));
        // An empty neighbourhood matches nothing.
        let g = game(
            "
            . . . . .
            . . . . .
            . . . . .
            . . . . .
            . . . . .",
        );
        assert!(!matches_pattern(g.board().neighbourhood(at("C3")), Color::Black));
        assert!(!matches_pattern(g.board().neighbourhood(at("C3")), Color::White));
    }

    #[test]
    fn random_moves_never_put_two_stones_into_atari() {
        let mut rng = SmallRng::seed_from_u64(3);
        let mut checked = 0;
        for _ in 0..40 {
            let mut board = Board::new(9).unwrap();
            let mut color = Color::Black;
            let mut passes = 0;
            for _ in 0..300 {
                // The public filter is the random step's, point by point, for both colours.
                for q in board.points() {
                    for c in [Color::Black, Color::White] {
                        let filter = board.is_legal(q, c)
                            && !board.is_eye(q, c)
                            && board.self_atari(q, c).is_none_or(|size| size == 1);
                        assert_eq!(board.is_playout_move(q, c), filter, "{q} {c} in\n{board}");
                    }
                }
                // Without a last move only the random step plays.
                match board.policy_move(color, None, &Policy::HEAVY, &mut rng) {
                    Some(p) => {
                        assert!(board.is_legal(p, color) && !board.is_eye(p, color));
                        assert!(board.self_atari(p, color).is_none_or(|size| size == 1), "{p} in\n{board}");
                        board.play_unchecked(p, color);
                        checked += 1;
                        passes = 0;
                    }
                    None => {
                        // Nothing sensible left: every legal move is an eye or a big self-atari.
                        for q in board.empty_points() {
                            assert!(
                                !board.is_legal(q, color)
                                    || board.is_eye(q, color)
                                    || board.self_atari(q, color).is_some_and(|size| size > 1)
                            );
                        }
                        board.pass();
                        passes += 1;
                        if passes == 2 {
                            break;
                        }
                    }
                }
                color = !color;
            }
        }
        assert!(checked > 2_000);
    }

    #[test]
    fn with_lone_atari_random_moves_give_no_stone_away() {
        let policy = Policy { lone_atari: true, ..Policy::HEAVY };
        // A self-atari of a lone stone that `lone_atari` allows: next to an opposing chain of
        // two liberties or fewer.
        let allowed = |board: &Board, q: Point, c: Color| match board.self_atari(q, c) {
            None => true,
            Some(1) => board.neighbours(q).any(|n| board.get(n) == Some(!c) && board.liberties(n) <= 2),
            Some(_) => false,
        };
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut checked, mut lone) = (0, 0);
        for _ in 0..40 {
            let mut board = Board::new(9).unwrap();
            let mut color = Color::Black;
            let mut passes = 0;
            for _ in 0..300 {
                match board.policy_move(color, None, &policy, &mut rng) {
                    Some(p) => {
                        assert!(board.is_legal(p, color) && !board.is_eye(p, color));
                        assert!(allowed(&board, p, color), "{p} in\n{board}");
                        lone += usize::from(board.self_atari(p, color).is_some());
                        board.play_unchecked(p, color);
                        checked += 1;
                        passes = 0;
                    }
                    None => {
                        for q in board.empty_points() {
                            assert!(!board.is_legal(q, color) || board.is_eye(q, color) || !allowed(&board, q, color));
                        }
                        board.pass();
                        passes += 1;
                        if passes == 2 {
                            break;
                        }
                    }
                }
                color = !color;
            }
        }
        // Throw-ins, kos and the like still happen.
        assert!(checked > 2_000 && lone > 0, "{checked} {lone}");
    }

    #[test]
    fn passes_when_only_its_eye_and_suicides_remain() {
        let g = game(
            "
            . O O O .
            O X X X O
            O X . X O
            O X X X O
            . O O O .",
        );
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..50 {
            assert_eq!(g.board().policy_move(Color::Black, None, &Policy::HEAVY, &mut rng), None);
        }
    }
}

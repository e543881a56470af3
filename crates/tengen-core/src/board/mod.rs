//! The board: stones, chains, liberties, captures, the Zobrist hash and the simple-ko point.
//!
//! This is the hot path of the whole system. It knows only *simple* ko and no history; the
//! [`Game`](crate::Game) that owns it adds superko, passes, turns and the end of the game.
//!
//! Representation (measured with `tengen bench playouts` and callgrind; see docs/measurements.md):
//! - a padded array of 27 × 27 cells, so that neighbours are at constant offsets whatever the
//!   board size and border cells stop every walk; per-point tables are 1024 long and indexed
//!   with `& 1023`, so the compiler drops bounds tests without `unsafe`;
//! - chains as circular linked lists of stones (`next`), each stone naming its chain's head
//!   (`head`); merging relabels the smaller chain; empty and border cells have head 0, a cell
//!   no chain uses, so that counter updates need no test of what a neighbour holds;
//! - per chain, one word with the number of *pseudo-liberties*, (stone, adjacent empty point)
//!   pairs — zero exactly when the chain has no liberty; whether an empty point is a chain's
//!   last liberty is exact from the count too (see `Board::touching`) —, their points' sum and
//!   the stones (see `ChainInfo`);
//! - per point, packed counts of the neighbouring Black stones, White stones and empty points;
//! - a list of empty points with each point's position in it, for O(1) updates and uniform
//!   random choice.

use crate::color::Color;
use crate::point::{DIAGONALS, MAX_SIZE, MIN_SIZE, NEIGHBOURS, Point, STRIDE};
use crate::zobrist::key;

mod check;
mod display;
mod ladder;
mod table;
mod tactics;

pub(crate) use table::PointSet;
use table::Table;
pub(crate) use tactics::RING;

/// Cell contents in the padded array: 0 and 1 are the colours' indices.
const EMPTY: u8 = 2;
const BORDER: u8 = 3;
/// The most points a board can have.
const MAX_POINTS: usize = MAX_SIZE as usize * MAX_SIZE as usize;

/// Neighbour counts of a point, packed in a `u16`: four bits each for Black stones, White
/// stones and empty points next to it, at these shifts. The edge counts as both colours, so
/// that "all four neighbours are mine or the edge" is one comparison with 4.
const NBR_SHIFT: [u32; 3] = [0, 4, 8];
/// What placing a stone of colour 0 or 1 adds to each neighbour's counts (one more of that
/// colour, one fewer empty point), in wrapping arithmetic.
const NBR_PLACE: [u16; 2] = [(1u16 << 0).wrapping_sub(1 << 8), (1u16 << 4).wrapping_sub(1 << 8)];

#[inline]
fn nbr_count(packed: u16, what: usize) -> u16 {
    (packed >> NBR_SHIFT[what]) & 15
}

/// Per-chain counters, kept at the chain's head: one 64-bit word.
///
/// The pseudo-liberties — (stone, adjacent empty point) pairs — are counted and their points'
/// indices summed, but not listed. Two atari questions have exact answers from these. "Is `p`
/// the last liberty of this chain next to `p`?": the pairs naming `p` are the chain's stones
/// touching `p`, so the chain has another liberty exactly when its count exceeds that number
/// (see [`Board::touching`]). "Is the chain in atari, and where?": if all n pairs name one
/// point, it is x = Σ / n, and they do exactly when n of the chain's stones touch x (each
/// stone touching x names it once) — n is at most 4 then. The heavy playouts ask the second
/// question of nearly every chain next to a candidate move; without the sum it walked the
/// chain. (A sum of squares, n · Σx² = (Σx)², answers it too, but its 4 more bytes cost the
/// light playouts 7%: 149k against 161k playouts/s on 9×9.)
///
/// The three counters share one word — the pairs in bits 0–15, the sum in bits 16–47, the
/// stones in bits 48–63 — so that a pair added or removed is one addition and a merge
/// another. No field carries into the next for a real chain: at most 625 stones, 2,500 pairs,
/// and a sum below 2,500 × 729 < 2³². The counters of head 0, which no chain has, absorb
/// updates meant for nobody and may hold anything.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct ChainInfo(u64);

impl std::fmt::Debug for ChainInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChainInfo")
            .field("libs", &self.libs())
            .field("size", &self.size())
            .field("sum", &self.sum())
            .finish()
    }
}

impl ChainInfo {
    const ONE_STONE: u64 = 1 << 48;
    const SUM_SHIFT: u32 = 16;

    /// The counters of a chain of `size` stones with `libs` pairs summing to `sum`.
    #[inline]
    fn new(libs: u32, size: u32, sum: u32) -> ChainInfo {
        ChainInfo(u64::from(libs) | (u64::from(sum) << Self::SUM_SHIFT) | (u64::from(size) << 48))
    }

    /// The word a pair at padded index `at` adds.
    #[inline]
    fn pair(at: usize) -> u64 {
        1 | ((at as u64) << Self::SUM_SHIFT)
    }

    /// One more pseudo-liberty, at padded index `at`.
    #[inline]
    fn add_lib(&mut self, at: usize) {
        self.0 = self.0.wrapping_add(Self::pair(at));
    }

    /// One pseudo-liberty fewer, at padded index `at`.
    #[inline]
    fn remove_lib(&mut self, at: usize) {
        self.0 = self.0.wrapping_sub(Self::pair(at));
    }

    /// One more stone (for the flood fill that checks the counters).
    fn add_stone(&mut self) {
        self.0 += Self::ONE_STONE;
    }

    /// The number of pseudo-liberties.
    #[inline]
    fn libs(self) -> u32 {
        (self.0 & 0xffff) as u32
    }

    /// The sum of the pseudo-liberties' padded indices.
    #[inline]
    fn sum(self) -> u32 {
        (self.0 >> Self::SUM_SHIFT) as u32
    }

    /// The number of stones.
    #[inline]
    fn size(self) -> u32 {
        (self.0 >> 48) as u32
    }

    /// Adds another chain's counters (a merge).
    #[inline]
    fn absorb(&mut self, other: ChainInfo) {
        self.0 = self.0.wrapping_add(other.0);
    }
}

impl Board {
    /// The only liberty of the chain with head `h`, if it has exactly one: from its count
    /// and sum of pseudo-liberties (see [`ChainInfo`]).
    #[inline]
    pub(crate) fn chain_atari(&self, h: usize) -> Option<usize> {
        self.lone_liberty(h, self.chains[h].libs(), self.chains[h].sum())
    }

    /// The point all `n` pairs summing to `sum` of the chain with head `h` name, if they name
    /// one.
    #[inline]
    fn lone_liberty(&self, h: usize, n: u32, sum: u32) -> Option<usize> {
        // Four pairs at most can name one point (its four neighbours).
        if n == 0 || n > 4 || !sum.is_multiple_of(n) {
            return None;
        }
        let x = (sum / n) as usize;
        (x < Point::TABLE_SIZE && self.cells[x] == EMPTY && self.touching(x, h as u16) == n).then_some(x)
    }

    /// The liberties of the chain with head `h` other than the empty point `p`, which
    /// `touching` of its stones touch: none, one (where), or more. From the count and sum,
    /// without walking the chain.
    #[inline]
    pub(crate) fn libs_besides(&self, h: usize, p: usize, touching: u32) -> Besides {
        let info = self.chains[h];
        let n = info.libs() - touching;
        if n == 0 {
            return Besides::None;
        }
        // The pairs left name other points than `p`: a mean of `p` means two or more.
        match self.lone_liberty(h, n, info.sum() - touching * p as u32) {
            Some(x) if x != p => Besides::One(x),
            _ => Besides::More,
        }
    }
}

/// A chain's liberties besides a given point ([`Board::libs_besides`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Besides {
    None,
    One(usize),
    More,
}

/// Why a move may not be played on this board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The point lies outside the board.
    #[error("{0} is not on the board")]
    OffBoard(Point),
    /// A stone is already there.
    #[error("{0} is occupied")]
    Occupied(Point),
    /// The stone would have no liberty and capture nothing (禁着点).
    #[error("{0} is suicide (禁着点): the stone would have no liberty and capture nothing")]
    Suicide(Point),
    /// Immediate recapture of a single-stone ko.
    #[error("{0} retakes the ko at once (打劫: find a ko threat first)")]
    Ko(Point),
    /// The move would repeat an earlier whole-board position (全局同形再现).
    #[error("{0} repeats an earlier whole-board position (superko)")]
    Superko(Point),
}

/// The board size is outside 2…25.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is not supported (2 to 25)")]
pub struct BoardSizeError(pub usize);

/// What a played move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Opposing stones removed (提子).
    pub captured: u16,
    /// Own stones removed by a suicide (only where the rules allow it).
    pub suicided: u16,
}

/// A Go board of 2 × 2 to 25 × 25 lines with its stones, chains and simple-ko point.
///
/// ```
/// use tengen_core::{Board, Color, Point};
///
/// let mut board = Board::new(9).unwrap();
/// let e5 = "E5".parse::<Point>().unwrap();
/// board.play(e5, Color::Black).unwrap();
/// assert_eq!(board.get(e5), Some(Color::Black));
/// assert_eq!(board.liberties(e5), 4);
/// assert!(board.play(e5, Color::White).is_err());
/// ```
#[derive(Clone)]
pub struct Board {
    size: u8,
    n_empty: u16,
    /// The point that `ko_color` may not play on the next move, or 0.
    ko_point: u16,
    ko_color: u8,
    /// Whether `hash` is out of date: set by [`Board::play_unhashed`], cleared by
    /// [`Board::copy_from`] a board whose hash is kept.
    hash_stale: bool,
    hash: u64,
    /// Stones captured by Black and by White.
    captures: [u32; 2],
    /// Stones of each colour on the board.
    stones: [u16; 2],
    cells: Table<u8>,
    /// Per point, packed neighbour counts: see [`NBR_SHIFT`].
    nbr: Table<u16>,
    head: Table<u16>,
    next: Table<u16>,
    chains: Table<ChainInfo>,
    empty_at: Table<u16>,
    empties: [u16; MAX_POINTS],
}

impl Board {
    /// An empty board of `size` × `size` lines.
    ///
    /// # Errors
    /// [`BoardSizeError`] unless 2 ≤ `size` ≤ 25.
    pub fn new(size: usize) -> Result<Board, BoardSizeError> {
        if !(MIN_SIZE as usize..=MAX_SIZE as usize).contains(&size) {
            return Err(BoardSizeError(size));
        }
        let mut board = Board {
            size: size as u8,
            n_empty: 0,
            ko_point: 0,
            ko_color: 0,
            hash_stale: false,
            hash: 0,
            captures: [0; 2],
            stones: [0; 2],
            cells: Table::filled(BORDER),
            nbr: Table::filled(0),
            head: Table::filled(0),
            next: Table::filled(0),
            chains: Table::filled(ChainInfo(0)),
            empty_at: Table::filled(0),
            empties: [0; MAX_POINTS],
        };
        for row in 0..size as u8 {
            for col in 0..size as u8 {
                let p = Point::new(col, row).expect("size checked above").index();
                board.cells[p] = EMPTY;
                board.empty_at[p] = board.n_empty;
                board.empties[board.n_empty as usize] = p as u16;
                board.n_empty += 1;
            }
        }
        for row in 0..size as u8 {
            for col in 0..size as u8 {
                let p = Point::new(col, row).expect("size checked above").index();
                board.nbr[p] = board.expected_nbr(p);
            }
        }
        Ok(board)
    }

    /// Makes `self` a copy of `other` without touching the unused tail of the arrays: the
    /// playout loop calls this once per playout instead of `clone`.
    pub fn copy_from(&mut self, other: &Board) {
        let used = (other.size as usize + 2) * STRIDE;
        if self.size != other.size {
            // Cells past the rows in use must read as border for any size.
            self.cells.tail_mut(used).fill(BORDER);
        }
        self.size = other.size;
        self.n_empty = other.n_empty;
        self.ko_point = other.ko_point;
        self.ko_color = other.ko_color;
        self.hash = other.hash;
        self.hash_stale = other.hash_stale;
        self.captures = other.captures;
        self.stones = other.stones;
        self.cells.first_mut(used).copy_from_slice(other.cells.first(used));
        self.nbr.first_mut(used).copy_from_slice(other.nbr.first(used));
        self.head.first_mut(used).copy_from_slice(other.head.first(used));
        self.next.first_mut(used).copy_from_slice(other.next.first(used));
        self.chains.first_mut(used).copy_from_slice(other.chains.first(used));
        self.empty_at.first_mut(used).copy_from_slice(other.empty_at.first(used));
        let n = other.n_empty as usize;
        self.empties[..n].copy_from_slice(&other.empties[..n]);
    }

    /// The number of lines.
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// Whether `p` lies on this board.
    #[inline]
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        p.is_on(self.size)
    }

    /// All points of the board, row by row from `A1`.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let size = self.size;
        (0..size).flat_map(move |row| (0..size).filter_map(move |col| Point::new(col, row)))
    }

    /// The stone on `p`, or `None` for an empty point (or a point off the board).
    #[inline]
    #[must_use]
    pub fn get(&self, p: Point) -> Option<Color> {
        match self.cells[p.index()] {
            0 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty point of the board.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()] == EMPTY
    }

    /// The empty points, in no particular order.
    pub fn empty_points(&self) -> impl ExactSizeIterator<Item = Point> + '_ {
        self.empties[..self.n_empty as usize].iter().map(|&i| Point::from_index(i as usize))
    }

    /// The empty points as padded indices.
    #[inline]
    pub(crate) fn empty_slice(&self) -> &[u16] {
        &self.empties[..self.n_empty as usize]
    }

    /// The number of empty points.
    #[must_use]
    pub fn empty_count(&self) -> usize {
        self.n_empty as usize
    }

    /// The number of stones of `color` on the board.
    #[must_use]
    pub fn stone_count(&self, color: Color) -> usize {
        usize::from(self.stones[color.index()])
    }

    /// The packed neighbour counts of padded index `p`, computed from the cells.
    fn expected_nbr(&self, p: usize) -> u16 {
        let mut packed = 0u16;
        for d in NEIGHBOURS {
            packed += match self.cells[(p as isize + d) as usize] {
                EMPTY => 1 << NBR_SHIFT[2],
                BORDER => (1 << NBR_SHIFT[0]) | (1 << NBR_SHIFT[1]),
                c => 1 << NBR_SHIFT[c as usize],
            };
        }
        packed
    }

    /// Whether padded index `p` has an empty neighbour.
    #[inline]
    pub(crate) fn has_empty_neighbour(&self, p: usize) -> bool {
        nbr_count(self.nbr[p], 2) != 0
    }

    /// Black's and White's stones next to `p`, the edge counting for both.
    #[inline]
    pub(crate) fn neighbour_colours(&self, p: usize) -> (u16, u16) {
        let packed = self.nbr[p];
        (nbr_count(packed, 0), nbr_count(packed, 1))
    }

    /// The Zobrist hash of the stones (not of the side to move nor of the ko point).
    #[inline]
    #[must_use]
    pub fn hash(&self) -> u64 {
        if self.hash_stale { self.computed_hash() } else { self.hash }
    }

    /// The hash computed from the stones alone.
    fn computed_hash(&self) -> u64 {
        let mut hash = 0;
        for p in self.points() {
            if let Some(c) = self.get(p) {
                hash ^= key(c.index(), p.index());
            }
        }
        hash
    }

    /// The point where `color` may not play next because it would retake a ko at once.
    #[must_use]
    pub fn ko(&self) -> Option<(Point, Color)> {
        (self.ko_point != 0).then(|| {
            let color = if self.ko_color == 0 { Color::Black } else { Color::White };
            (Point::from_index(self.ko_point as usize), color)
        })
    }

    /// The padded index `color` may not play on because of ko, or 0.
    #[inline]
    pub(crate) fn ko_point_for(&self, color: u8) -> usize {
        if self.ko_color == color { self.ko_point as usize } else { 0 }
    }

    /// Stones captured so far by `color` (suicided stones count for the opponent).
    #[must_use]
    pub fn captures(&self, color: Color) -> u32 {
        self.captures[color.index()]
    }

    /// The stones of the chain through `p` (empty when `p` has no stone).
    pub fn chain(&self, p: Point) -> ChainStones<'_> {
        let start = p.index();
        let has_stone = self.cells[start] < EMPTY;
        ChainStones { board: self, start, current: if has_stone { start } else { 0 } }
    }

    /// The number of stones in the chain through `p` (0 for an empty point).
    #[must_use]
    pub fn chain_size(&self, p: Point) -> usize {
        if self.cells[p.index()] < EMPTY { self.chains[self.head[p.index()] as usize].size() as usize } else { 0 }
    }

    /// Whether two points hold stones of one chain.
    #[must_use]
    pub fn same_chain(&self, a: Point, b: Point) -> bool {
        self.cells[a.index()] < EMPTY && self.cells[b.index()] < EMPTY && self.head[a.index()] == self.head[b.index()]
    }

    /// The liberties (气) of the chain through `p`, each once; empty for an empty point.
    #[must_use]
    pub fn liberty_points(&self, p: Point) -> Vec<Point> {
        let mut seen = PointSet::new();
        let mut libs = Vec::new();
        for s in self.chain(p) {
            for d in NEIGHBOURS {
                let n = (s.index() as isize + d) as usize;
                if self.cells[n] == EMPTY && seen.insert(n) {
                    libs.push(Point::from_index(n));
                }
            }
        }
        libs
    }

    /// The number of liberties of the chain through `p` (0 for an empty point).
    #[must_use]
    pub fn liberties(&self, p: Point) -> usize {
        if self.cells[p.index()] >= EMPTY {
            return 0;
        }
        if self.chains[self.head[p.index()] as usize].libs() == 0 { 0 } else { self.liberty_points(p).len() }
    }

    /// Whether the chain through `p` has exactly one liberty (is in atari, 打吃).
    #[inline]
    #[must_use]
    pub fn in_atari(&self, p: Point) -> bool {
        self.atari_liberty(p).is_some()
    }

    /// The last liberty of the chain through `p` when it is in atari.
    #[must_use]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        if self.cells[p.index()] >= EMPTY {
            return None;
        }
        self.atari_at(p.index()).map(Point::from_index)
    }

    /// The orthogonal neighbours of `p` that are on this board (`p` one of its points): below,
    /// left, right, above.
    pub fn neighbours(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        NEIGHBOURS
            .into_iter()
            .map(move |d| (p.index() as isize + d) as usize)
            .filter(|&n| self.cells[n] != BORDER)
            .map(Point::from_index)
    }

    /// How many stones of the chain with head `h` touch the point `p`.
    #[inline]
    fn touching(&self, p: usize, h: u16) -> u32 {
        NEIGHBOURS
            .iter()
            .map(|&d| (p as isize + d) as usize)
            .filter(|&n| self.cells[n] < EMPTY && self.head[n] == h)
            .count() as u32
    }

    /// Whether the chain with head `h`, which touches the empty point `p`, has a liberty other
    /// than `p`.
    #[inline]
    fn has_liberty_besides(&self, p: usize, h: u16) -> bool {
        // At most four stones touch `p`.
        let libs = self.chains[h as usize].libs();
        libs > 4 || libs > self.touching(p, h)
    }

    /// Whether `color` playing on the empty point `p` would leave its chain without liberties
    /// while capturing nothing (禁着点).
    #[inline]
    #[must_use]
    pub fn is_suicide(&self, p: Point, color: Color) -> bool {
        self.is_suicide_at(p.index(), color as u8)
    }

    #[inline]
    pub(crate) fn is_suicide_at(&self, p: usize, c: u8) -> bool {
        if self.has_empty_neighbour(p) {
            return false;
        }
        // Every neighbour is a stone or the edge; border cells keep head 0, which no chain
        // has, so the heads alone tell which neighbours belong to one chain.
        let h = NEIGHBOURS.map(|d| *self.head.near(p, d));
        // All four neighbours evaluated without an early exit: the branches of an early
        // exit on random positions cost more than the work they save.
        let mut saved = false;
        for k in 0..4 {
            let cell = *self.cells.near(p, NEIGHBOURS[k]);
            // At most four stones touch `p`, so the count of pairs against those naming `p`
            // tells whether the chain has another liberty. (A border cell's head 0 reads
            // counters nobody keeps; its answer is masked.)
            let touching =
                u32::from(h[0] == h[k]) + u32::from(h[1] == h[k]) + u32::from(h[2] == h[k]) + u32::from(h[3] == h[k]);
            let elsewhere = self.chains[h[k] as usize].libs() > touching;
            // Own chain with another liberty, or an opposing chain captured by the move.
            saved |= (cell != BORDER) & ((cell == c) == elsewhere);
        }
        !saved
    }

    /// Whether `color` playing at `p` would retake a ko at once.
    #[inline]
    #[must_use]
    pub fn is_ko(&self, p: Point, color: Color) -> bool {
        self.ko_point as usize == p.index() && self.ko_color == color as u8
    }

    /// Whether `color` may play at `p` under the board's rules: on the board, empty, not an
    /// immediate ko recapture, not suicide. (Superko is the [`Game`](crate::Game)'s business.)
    #[inline]
    #[must_use]
    pub fn is_legal(&self, p: Point, color: Color) -> bool {
        self.check(p, color).is_ok()
    }

    /// Like [`Board::is_legal`], saying why not.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason.
    pub fn check(&self, p: Point, color: Color) -> Result<(), IllegalMove> {
        if !self.contains(p) {
            Err(IllegalMove::OffBoard(p))
        } else if !self.is_empty(p) {
            Err(IllegalMove::Occupied(p))
        } else if self.is_ko(p, color) {
            Err(IllegalMove::Ko(p))
        } else if self.is_suicide(p, color) {
            Err(IllegalMove::Suicide(p))
        } else {
            Ok(())
        }
    }

    /// Plays a stone of `color` at `p` if it is legal (suicide forbidden), capturing what it
    /// takes; on error the board is unchanged.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason.
    pub fn play(&mut self, p: Point, color: Color) -> Result<Played, IllegalMove> {
        self.check(p, color)?;
        Ok(self.play_unchecked(p, color))
    }

    /// Plays without the legality test.
    ///
    /// Precondition: `p` is an empty point of this board (checked by `debug_assert!`). A ko
    /// recapture is carried out; a suicide removes the player's own chain (as in Tromp-Taylor).
    /// Breaking the precondition leaves a meaningless board, never undefined behaviour.
    #[inline]
    pub fn play_unchecked(&mut self, p: Point, color: Color) -> Played {
        self.play_as::<true>(p, color)
    }

    /// [`Board::play_unchecked`] without keeping the Zobrist hash up to date, for playouts,
    /// whose boards are thrown away: one table look-up fewer a move. [`Board::hash`] then
    /// computes the hash from the stones, one pass over the board, until the board is made a
    /// copy of one whose hash is kept ([`Board::copy_from`]).
    #[inline]
    pub fn play_unhashed(&mut self, p: Point, color: Color) -> Played {
        self.hash_stale = true;
        self.play_as::<false>(p, color)
    }

    /// [`Board::play_unchecked`], keeping the hash when `HASH`.
    #[inline(always)]
    fn play_as<const HASH: bool>(&mut self, p: Point, color: Color) -> Played {
        debug_assert!(self.contains(p) && self.is_empty(p), "play_unchecked on {p}, which is not an empty point");
        let p = p.index();
        let c = color as u8;
        let o = c ^ 1;
        let (captured, last_captured) = self.place::<true, HASH>(p, c);
        self.captures[c as usize] += u32::from(captured);

        let own = self.chains[self.head[p] as usize];
        let mut suicided = 0;
        if own.libs() == 0 {
            suicided = self.remove_chain(self.head[p] as usize);
            self.captures[o as usize] += u32::from(suicided);
        }
        if captured == 1 && own.size() == 1 && own.libs() == 1 {
            self.ko_point = last_captured as u16;
            self.ko_color = o;
        } else {
            self.ko_point = 0;
        }
        Played { captured, suicided }
    }

    /// A pass: only lifts the ko ban.
    pub fn pass(&mut self) {
        self.ko_point = 0;
    }

    /// The hash the board would have after `color` plays at `p` (an empty point), captures
    /// and a suicide included, without playing. The game uses it to test superko.
    #[must_use]
    pub fn hash_after(&self, p: Point, color: Color) -> u64 {
        let pi = p.index();
        let c = color as u8;
        let mut hash = self.hash() ^ key(c as usize, pi);
        let mut seen = [0u16; 4];
        let mut own_heads = [0u16; 4];
        let mut libs_elsewhere = false;
        for (k, d) in NEIGHBOURS.into_iter().enumerate() {
            let n = (pi as isize + d) as usize;
            let cell = self.cells[n];
            if cell == EMPTY {
                libs_elsewhere = true;
            } else if cell < EMPTY {
                let h = self.head[n];
                let atari = !self.has_liberty_besides(pi, h);
                if cell == c {
                    own_heads[k] = h;
                    libs_elsewhere |= !atari;
                } else if atari && !seen.contains(&h) {
                    seen[k] = h;
                    libs_elsewhere = true; // the capture frees `p`'s neighbour
                    for s in self.chain(Point::from_index(n)) {
                        hash ^= key((c ^ 1) as usize, s.index());
                    }
                }
            }
        }
        if !libs_elsewhere {
            // Suicide: the stone and every chain it joins disappear.
            hash ^= key(c as usize, pi);
            let mut done = [0u16; 4];
            for (k, &h) in own_heads.iter().enumerate() {
                if h != 0 && !done.contains(&h) {
                    done[k] = h;
                    for s in self.chain(Point::from_index(h as usize)) {
                        hash ^= key(c as usize, s.index());
                    }
                }
            }
        }
        hash
    }

    /// The cheap eye test of playouts: `p` is empty, every neighbour is `color` or the edge, and the opponent
    /// holds at most one diagonal (none on the edge). Such a point is never filled in a
    /// playout. It does not tell true eyes from some false ones; the commentary has its own.
    #[inline]
    #[must_use]
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        self.contains(p) && self.is_empty(p) && self.is_eye_at(p.index(), color as u8)
    }

    #[inline]
    pub(crate) fn is_eye_at(&self, p: usize, c: u8) -> bool {
        let packed = self.nbr[p];
        if nbr_count(packed, c as usize) != 4 {
            return false;
        }
        let o = c ^ 1;
        // All four neighbours are `c` or the edge, so the opponent's count is the number of
        // edge neighbours: a point on the edge allows no opposing diagonal, others one.
        let on_edge = u32::from(nbr_count(packed, o as usize) != 0);
        let bad = DIAGONALS.iter().map(|&d| u32::from(*self.cells.near(p, d) == o)).sum::<u32>();
        bad + on_edge < 2
    }

    /// Puts a stone on an empty point and joins it to its neighbours' chains, without
    /// capturing anything and without the ko rule: for setting up positions.
    pub(crate) fn put_stone(&mut self, p: Point, color: Color) {
        debug_assert!(self.is_empty(p));
        self.place::<false, true>(p.index(), color as u8);
        self.ko_point = 0;
    }

    /// Removes the chain through `p` (for setting up positions and removing dead stones),
    /// crediting nobody with captures; returns the stones removed (0 when `p` is empty).
    pub fn remove_chain_at(&mut self, p: Point) -> u16 {
        if self.cells[p.index()] >= EMPTY {
            return 0;
        }
        self.ko_point = 0;
        self.remove_chain(self.head[p.index()] as usize)
    }

    /// Puts a stone of colour `c` on the empty point `p` and does all the bookkeeping:
    /// neighbour counts, the pseudo-liberties the stone brings and takes, merges with its own
    /// chains, and — when `CAPTURE` — the removal of opposing chains left without liberties.
    /// Returns the stones captured and the last one's point.
    ///
    /// The counters are updated without branching on the neighbours' contents: empty and
    /// border cells have head 0, a cell no chain uses, whose counters absorb the updates
    /// meant for nobody; the stone's own pseudo-liberties come from its neighbour counts.
    /// Only merges and captures branch. (Measured with `tengen bench playouts`: see the commit
    /// that introduced it.) The hash is kept when `HASH` (see [`Board::play_unhashed`]).
    #[inline(always)]
    fn place<const CAPTURE: bool, const HASH: bool>(&mut self, p: usize, c: u8) -> (u16, usize) {
        let n = NEIGHBOURS.map(|d| (p as isize + d) as usize);
        let around = NEIGHBOURS.map(|d| *self.cells.near(p, d));
        let empty_sum: u32 = (0..4).map(|k| u32::from(around[k] == EMPTY) * n[k] as u32).sum();
        let libs = nbr_count(self.nbr[p], 2);
        self.cells[p] = c;
        if HASH {
            self.hash ^= key(c as usize, p);
        }
        // Swap-remove `p` from the empty list.
        self.n_empty -= 1;
        let last = self.empties[self.n_empty as usize];
        let at = self.empty_at[p];
        self.empties[at as usize] = last;
        self.empty_at[last as usize] = at;
        self.stones[c as usize] += 1;
        self.head[p] = p as u16;
        self.next[p] = p as u16;
        self.chains[p] = ChainInfo::new(u32::from(libs), 1, empty_sum);
        // Whether an opposing chain lost its last pair: read from the decrement itself (a
        // chain touching `p` twice reaches zero at the second contact).
        let mut takes = false;
        for k in 0..4 {
            let d = NEIGHBOURS[k];
            let nbr = self.nbr.near_mut(p, d);
            *nbr = nbr.wrapping_add(NBR_PLACE[c as usize]);
            let h = *self.head.near(p, d) as usize;
            self.chains[h].remove_lib(p);
            takes |= (around[k] == c ^ 1) & (self.chains[h].libs() == 0);
        }
        // The own neighbours as bits, visited in order: one branch for "any", then one a
        // further chain, instead of one unpredictable branch per neighbour.
        let own = (0..4).fold(0u32, |m, k| m | (u32::from(around[k] == c) << k));
        if own != 0 {
            // The first chain joined: the lone stone goes into it.
            self.join(p, *self.head.near(p, NEIGHBOURS[own.trailing_zeros() as usize & 3]) as usize);
            let mut rest = own & (own - 1);
            while rest != 0 {
                let k = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let (hp, h) = (self.head[p] as usize, *self.head.near(p, NEIGHBOURS[k & 3]) as usize);
                if hp != h {
                    self.merge(hp, h);
                }
            }
        }
        let mut captured = (0u16, 0usize);
        // Captures are rare: one test for the four neighbours, then the work.
        if CAPTURE && takes {
            for k in 0..4 {
                // A chain touching `p` twice is removed at the first contact; its cells are
                // empty at the second.
                if around[k] == c ^ 1 && self.cells[n[k]] == c ^ 1 && self.chains[self.head[n[k]] as usize].libs() == 0
                {
                    captured.0 += self.remove_chain(self.head[n[k]] as usize);
                    captured.1 = n[k];
                }
            }
        }
        captured
    }

    /// Puts the lone stone `p` (its own chain's head) into the chain with head `h`.
    #[inline]
    fn join(&mut self, p: usize, h: usize) {
        self.head[p] = h as u16;
        self.next.swap_at(h, p);
        let add = self.chains[p];
        self.chains[h].absorb(add);
    }

    /// Merges two chains given by their heads, relabelling the smaller one.
    #[inline]
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chains[a].size() >= self.chains[b].size() { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            self.head[s] = big as u16;
            s = self.next[s] as usize;
            if s == small {
                break;
            }
        }
        self.next.swap_at(big, small);
        let add = self.chains[small];
        let info = &mut self.chains[big];
        info.absorb(add);
    }

    /// Removes the chain with head `h`, giving each freed point back as a pseudo-liberty to the
    /// neighbouring chains. Returns the number of stones removed.
    fn remove_chain(&mut self, h: usize) -> u16 {
        let c = self.cells[h] as usize;
        let mut s = h;
        let mut removed = 0;
        loop {
            self.cells[s] = EMPTY;
            self.head[s] = 0;
            self.hash ^= key(c, s);
            self.empty_at[s] = self.n_empty;
            self.empties[self.n_empty as usize] = s as u16;
            self.n_empty += 1;
            removed += 1;
            self.free_beside(s, NEIGHBOURS[0], c);
            self.free_beside(s, NEIGHBOURS[1], c);
            self.free_beside(s, NEIGHBOURS[2], c);
            self.free_beside(s, NEIGHBOURS[3], c);
            s = self.next[s] as usize;
            if s == h {
                break;
            }
        }
        self.stones[c] -= removed;
        removed
    }

    /// The part of [`Board::remove_chain`] for the neighbour at offset `d` of the freed point
    /// `s`: its neighbour counts, and a pseudo-liberty for the chain there — without a branch:
    /// an empty or border cell's head is 0, whose counters nobody reads, and the counters of
    /// the chain being removed are dropped with it.
    #[inline(always)]
    fn free_beside(&mut self, s: usize, d: isize, c: usize) {
        let nbr = self.nbr.near_mut(s, d);
        *nbr = nbr.wrapping_sub(NBR_PLACE[c]);
        self.chains[*self.head.near(s, d) as usize].add_lib(s);
    }
}

/// The stones of one chain, from [`Board::chain`].
pub struct ChainStones<'a> {
    board: &'a Board,
    start: usize,
    current: usize,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;
    fn next(&mut self) -> Option<Point> {
        if self.current == 0 {
            return None;
        }
        let p = self.current;
        self.current = self.board.next[p] as usize;
        if self.current == self.start {
            self.current = 0;
        }
        Some(Point::from_index(p))
    }
}

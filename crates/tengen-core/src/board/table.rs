//! Fixed tables over the padded array.

use crate::point::AREA;

/// Cells before and after the 1024 a table's index reaches: room for a neighbour's offset.
const PAD: usize = 64;

/// A per-point table of the padded array (729 cells), indexed without `unsafe` and without a
/// bounds test the compiler cannot drop: an index is masked with `& 1023`, and a neighbour
/// is read at a constant offset of at most [`PAD`] from a masked point
/// ([`Table::near`]), so that the compiler sees both in range; the masked point is shared by
/// all of its neighbours' reads and the offset goes into the address. Measured with
/// `tengen bench playouts`: see the commits that introduced it.
#[derive(Clone, Copy)]
pub(crate) struct Table<T>([T; 1024 + 2 * PAD]);

impl<T: Copy> Table<T> {
    pub(crate) const fn filled(value: T) -> Table<T> {
        Table([value; 1024 + 2 * PAD])
    }

    /// Swaps two entries, masked like indexing: no bounds test.
    #[inline(always)]
    pub(crate) fn swap_at(&mut self, a: usize, b: usize) {
        let (x, y) = (self[a], self[b]);
        self[a] = y;
        self[b] = x;
    }

    /// The entries of the first `n` indices (for copying the rows in use).
    #[inline]
    pub(crate) fn first(&self, n: usize) -> &[T] {
        &self.0[PAD..PAD + n]
    }

    /// [`Table::first`], to write.
    #[inline]
    pub(crate) fn first_mut(&mut self, n: usize) -> &mut [T] {
        &mut self.0[PAD..PAD + n]
    }

    /// The entries from index `n` to 1023 (the unused rows).
    #[inline]
    pub(crate) fn tail_mut(&mut self, n: usize) -> &mut [T] {
        &mut self.0[PAD + n..PAD + 1024]
    }
}

impl<T> Table<T> {
    /// The entry at offset `d` (|d| ≤ 64, a constant for the bounds test to go) from index
    /// `p`: the entry of index `p + d` for any point of the board.
    #[inline(always)]
    pub(crate) fn near(&self, p: usize, d: isize) -> &T {
        &self.0[((p & 1023) + PAD).wrapping_add_signed(d)]
    }

    /// [`Table::near`], to write.
    #[inline(always)]
    pub(crate) fn near_mut(&mut self, p: usize, d: isize) -> &mut T {
        &mut self.0[((p & 1023) + PAD).wrapping_add_signed(d)]
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[(i & 1023) + PAD]
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[(i & 1023) + PAD]
    }
}

/// A set of points as a fixed bit array: for walks that must not allocate.
#[derive(Clone)]
pub(crate) struct PointSet([u64; AREA.div_ceil(64)]);

impl PointSet {
    pub(crate) const fn new() -> PointSet {
        PointSet([0; AREA.div_ceil(64)])
    }

    /// Adds `i`; true when it was not there.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        let new = self.0[w] & b == 0;
        self.0[w] |= b;
        new
    }

    #[inline]
    pub(crate) fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }
}

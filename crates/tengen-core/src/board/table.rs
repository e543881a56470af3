//! Fixed tables over the padded array.

use crate::point::AREA;

/// A per-point table of the padded array, 1024 long so that indexing masks with `& 1023` and
/// the compiler drops the bounds test (the padded array has 729 cells). Measured with
/// `tengen bench playouts`: see the commit that introduced it.
#[derive(Clone, Copy)]
pub(crate) struct Table<T>(pub(crate) [T; 1024]);

impl<T: Copy> Table<T> {
    pub(crate) const fn filled(value: T) -> Table<T> {
        Table([value; 1024])
    }
}

impl<T: Copy> Table<T> {
    /// Swaps two entries, masked like indexing: no bounds test.
    #[inline(always)]
    pub(crate) fn swap_at(&mut self, a: usize, b: usize) {
        let (x, y) = (self[a], self[b]);
        self[a] = y;
        self[b] = x;
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & 1023]
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & 1023]
    }
}

impl<T> std::ops::Deref for Table<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> std::ops::DerefMut for Table<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
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

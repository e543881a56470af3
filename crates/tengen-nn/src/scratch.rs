//! The forward pass's buffers, kept per thread and reused from one layer and one evaluation to
//! the next: a 19×19 layer's buffers are megabytes, and allocating them anew each time cost page
//! faults (the allocator maps and unmaps them: 10% of a batched 9×9 search's time, measured with
//! `perf`; all of them in the server, which maps every allocation from 256 KiB up).

use std::cell::RefCell;

/// Buffers a thread keeps (a forward pass holds about six at once).
const KEPT: usize = 16;

thread_local! {
    static FREE: RefCell<Vec<Vec<f32>>> = const { RefCell::new(Vec::new()) };
}

/// An empty buffer with room for `len` values, if possible one this thread gave back: the
/// smallest that fits, else the largest (it grows).
fn take(len: usize) -> Vec<f32> {
    let reused = FREE.with_borrow_mut(|free| {
        let fit = (0..free.len()).filter(|&i| free[i].capacity() >= len).min_by_key(|&i| free[i].capacity());
        let pick = fit.or_else(|| (0..free.len()).max_by_key(|&i| free[i].capacity()));
        pick.map(|i| free.swap_remove(i))
    });
    let mut v = reused.unwrap_or_default();
    v.clear();
    v.reserve(len);
    v
}

/// `len` zeros.
pub(crate) fn zeros(len: usize) -> Vec<f32> {
    let mut v = take(len);
    v.resize(len, 0.0);
    v
}

/// A copy of `x`.
pub(crate) fn copy(x: &[f32]) -> Vec<f32> {
    let mut v = take(x.len());
    v.extend_from_slice(x);
    v
}

/// Gives `v` back for reuse by this thread (dropped when the thread keeps enough).
pub(crate) fn give(v: Vec<f32>) {
    FREE.with_borrow_mut(|free| {
        if free.len() < KEPT {
            free.push(v);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_come_back_zeroed_and_reused() {
        let mut a = zeros(1000);
        a.iter_mut().for_each(|v| *v = 7.0);
        let at = a.as_ptr();
        give(a);
        let b = zeros(500);
        assert_eq!(b.as_ptr(), at, "the buffer given back is reused");
        assert!(b.len() == 500 && b.iter().all(|&v| v == 0.0));
        let c = copy(&[1.0, 2.0]);
        assert_eq!(c, [1.0, 2.0]);
        give(b);
        give(c);
        // No more than KEPT are kept.
        for _ in 0..3 * KEPT {
            give(vec![0.0; 4]);
        }
        assert_eq!(FREE.with_borrow(Vec::len), KEPT);
    }
}

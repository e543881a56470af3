//! Where the forward pass spends its time: a profile by kind of layer, kept per thread and only
//! while [`profile`] runs (one flag read per layer otherwise).

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

/// The time and arithmetic of one kind of layer over the profiled evaluations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerTime {
    /// The kind of layer, e.g. `conv 3x3 192>192`.
    pub kind: String,
    /// How many times it ran.
    pub calls: u64,
    /// Its time in all.
    pub time: Duration,
    /// Its floating-point operations in all (a multiply-add counts two), 0 where not counted.
    pub flops: f64,
}

impl LayerTime {
    /// The rate achieved, in GFLOP/s (0 where the operations are not counted).
    #[must_use]
    pub fn gflops(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 { self.flops / secs / 1e9 } else { 0.0 }
    }
}

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static TIMES: RefCell<Vec<LayerTime>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` and adds its time under `kind` when profiling; `flops` is what it computes.
#[inline]
pub(crate) fn timed<T>(kind: impl FnOnce() -> String, flops: f64, f: impl FnOnce() -> T) -> T {
    if !ON.with(Cell::get) {
        return f();
    }
    let started = Instant::now();
    let out = f();
    let time = started.elapsed();
    let kind = kind();
    TIMES.with(|t| {
        let mut t = t.borrow_mut();
        match t.iter_mut().find(|l| l.kind == kind) {
            Some(l) => {
                l.calls += 1;
                l.time += time;
                l.flops += flops;
            }
            None => t.push(LayerTime { kind, calls: 1, time, flops }),
        }
    });
    out
}

/// Runs `f` (evaluations of the network on this thread) and returns what it returned and the
/// time by kind of layer, the slowest first. Layers inside others (a block's convolutions)
/// are counted on their own, not in the block.
pub fn profile<T>(f: impl FnOnce() -> T) -> (T, Vec<LayerTime>) {
    TIMES.with(|t| t.borrow_mut().clear());
    ON.with(|on| on.set(true));
    let out = f();
    ON.with(|on| on.set(false));
    let mut times = TIMES.with(|t| std::mem::take(&mut *t.borrow_mut()));
    times.sort_by_key(|l| std::cmp::Reverse(l.time));
    (out, times)
}

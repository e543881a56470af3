//! Small helpers every layer uses: time, tokens, locks. A leaf: it imports nothing of the
//! crate.

use std::sync::{Mutex, MutexGuard};

use rand::Rng;
use sha2::{Digest, Sha256};

/// Milliseconds since the Unix epoch, as the server counts them ([`test_clock`]: ahead of the
/// system's clock in tests of days-long clocks).
#[must_use]
pub fn now_ms() -> i64 {
    let system = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64);
    system + test_clock::AHEAD_MS.load(std::sync::atomic::Ordering::Relaxed)
}

/// The server's clock moved forward, for tests of correspondence games (days a move): a
/// process-wide shift of [`now_ms`], never set by the server itself.
pub mod test_clock {
    use std::sync::atomic::{AtomicI64, Ordering};

    pub(super) static AHEAD_MS: AtomicI64 = AtomicI64::new(0);

    /// Moves the server's clock `ms` forward (for every server of the process).
    pub fn advance(ms: i64) {
        AHEAD_MS.fetch_add(ms, Ordering::Relaxed);
    }
}

/// SHA-256 of a seat token, in hex: what the database keeps.
#[must_use]
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// Equality that takes the same time wherever the strings differ.
pub(crate) fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A lock that a panic elsewhere does not poison for good.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One fewer of `key` in a table of counts; the entry goes at 0 (`true` then), so that the
/// table holds only what is counted.
pub(crate) fn count_down<K: std::hash::Hash + Eq>(counts: &mut std::collections::HashMap<K, usize>, key: &K) -> bool {
    let Some(n) = counts.get_mut(key) else { return false };
    *n -= 1;
    if *n > 0 {
        return false;
    }
    counts.remove(key);
    true
}

/// `bytes` random bytes, in hex: ids (8) and seat tokens (16).
pub(crate) fn random_token(bytes: usize) -> String {
    let mut rng = rand::rng();
    (0..bytes).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

/// What gives freed memory back to the system after a large parse, if the program set it
/// ([`set_memory_trim`]): the server's library does no unsafe call itself.
static MEMORY_TRIM: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Sets what the server calls after parsing a large record (`tengen serve` gives glibc's
/// `malloc_trim`): a parsed record of 98,000 nodes takes some 160 MB in many small blocks,
/// which the allocator keeps once freed.
pub fn set_memory_trim(trim: fn()) {
    let _ = MEMORY_TRIM.set(trim);
}

/// Gives freed memory back to the system, after the parse of a large record or a search.
pub(crate) fn trim_memory() {
    if let Some(trim) = MEMORY_TRIM.get() {
        trim();
    }
}

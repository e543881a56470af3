//! The C allocator's settings for the long-running server (the crate's only `unsafe`).
//!
//! glibc serves an allocation of 128 KiB or more with its own mapping and gives it back when
//! freed, but after such a free it raises that threshold to the freed size: from then on a
//! request's megabyte buffers (an SGF import, a large body) come from the heap and its
//! per-thread arenas, which keep them. A fixed threshold keeps large buffers mapped and
//! returned. Measured with `tengen bench abuse` (docs/measurements.md, 2026-12-03): the
//! server's RSS after the abuse phases grew 36.6 MB over idle with glibc's default, 10.6 MB
//! (median of three runs) with this.

/// Large allocations (256 KiB and more) are always mapped and given back when freed; false
/// when the allocator refused the setting.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn return_large_buffers() -> bool {
    // Safety: `mallopt` only changes the allocator's parameters; it is called once, at
    // start-up, before the server's threads exist, with a parameter and a value glibc
    // documents (mallopt(3)). A refusal (0) leaves glibc's default, which is only slower to
    // give memory back.
    unsafe { libc::mallopt(libc::M_MMAP_THRESHOLD, 256 * 1024) != 0 }
}

/// Other allocators need nothing.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_large_buffers() -> bool {
    true
}

/// Gives the allocator's free memory back to the system (glibc's `malloc_trim`): after the
/// parse of a large SGF record, whose many small blocks the heap keeps once freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn trim() {
    // Safety: `malloc_trim` only releases free memory of the allocator's own heaps; it takes
    // the allocator's locks itself and may be called from any thread (malloc_trim(3)).
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators: nothing to do.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() {}

//! The matrix products' kernels, chosen at run time: our own on 512-bit registers where the CPU
//! has AVX-512F, on 256-bit ones where it has AVX2 and FMA, else `matrixmultiply`'s. The one module of the workspace allowed `unsafe`: the intrinsics. Measured gain
//! of the AVX-512 kernel in docs/measurements.md ("the AVX-512 kernel").
#![allow(unsafe_code)]

use std::fmt;

/// Which kernel the matrix products of a model run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `matrixmultiply`'s kernels (for CPUs without AVX2 and FMA).
    Generic,
    /// The AVX2/FMA kernel of this module.
    Avx2,
    /// The AVX-512F kernel of this module.
    Avx512,
    /// The AVX-512 kernel with the weights and the products' left-hand rows in bfloat16
    /// (AVX512_BF16's `vdpbf16ps`: pairs of bf16 products summed into `f32`), the attention's
    /// own products in `f32`: reduced precision, only when asked for.
    Avx512Bf16,
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kernel::Generic => "generic",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Avx512Bf16 => "avx512bf16",
        })
    }
}

impl std::str::FromStr for Kernel {
    type Err = String;
    fn from_str(s: &str) -> Result<Kernel, String> {
        match s {
            "generic" => Ok(Kernel::Generic),
            "avx2" => Ok(Kernel::Avx2),
            "avx512" => Ok(Kernel::Avx512),
            "avx512bf16" => Ok(Kernel::Avx512Bf16),
            other => Err(format!("unknown kernel {other:?}: generic, avx2, avx512 or avx512bf16")),
        }
    }
}

impl Kernel {
    /// Whether this CPU can run the kernel.
    #[must_use]
    pub fn available(self) -> bool {
        match self {
            Kernel::Generic => true,
            Kernel::Avx2 => avx2_detected(),
            Kernel::Avx512 => avx512_detected(),
            Kernel::Avx512Bf16 => avx512_detected() && bf16_detected(),
        }
    }

    /// The kernel of the products computed at run time (the attention's): this one, but
    /// [`Kernel::Avx512`] for [`Kernel::Avx512Bf16`].
    #[must_use]
    pub fn for_f32(self) -> Kernel {
        if self == Kernel::Avx512Bf16 { Kernel::Avx512 } else { self }
    }

    /// The kernel models load with: `TENGEN_NN_KERNEL` (`generic`, `avx2`, `avx512` or
    /// `avx512bf16`) where set, else the fastest `f32` kernel this CPU has.
    ///
    /// # Errors
    /// When `TENGEN_NN_KERNEL` names an unknown kernel or one this CPU lacks.
    pub fn from_env() -> Result<Kernel, String> {
        match std::env::var("TENGEN_NN_KERNEL") {
            Ok(name) if !name.is_empty() => {
                let k: Kernel = name.parse().map_err(|e| format!("TENGEN_NN_KERNEL: {e}"))?;
                if k.available() { Ok(k) } else { Err(format!("TENGEN_NN_KERNEL={k}: this CPU has no {k}")) }
            }
            _ => Ok(Kernel::best()),
        }
    }

    /// The fastest kernel this CPU has.
    #[must_use]
    pub fn best() -> Kernel {
        if avx512_detected() {
            Kernel::Avx512
        } else if avx2_detected() {
            Kernel::Avx2
        } else {
            Kernel::Generic
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn avx512_detected() -> bool {
    std::is_x86_feature_detected!("avx512f")
}

#[cfg(not(target_arch = "x86_64"))]
fn avx512_detected() -> bool {
    false
}

#[cfg(target_arch = "x86_64")]
fn bf16_detected() -> bool {
    std::is_x86_feature_detected!("avx512bf16")
}

#[cfg(not(target_arch = "x86_64"))]
fn bf16_detected() -> bool {
    false
}

/// `x` rounded to bfloat16 (to nearest, ties to even), its 16 bits.
fn bf16(x: f32) -> u32 {
    let b = x.to_bits();
    if x.is_nan() { (b >> 16) | 0x40 } else { b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16 }
}

/// Two values as a pair of bfloat16 (`lo` in the low half), stored in an `f32`'s bits.
fn bf16_pair(lo: f32, hi: f32) -> f32 {
    f32::from_bits(bf16(lo) | (bf16(hi) << 16))
}

/// Columns of a panel: two 512-bit registers.
const NR: usize = 32;
/// Rows of the register block.
const MR: usize = 12;

/// A `k × n` right-hand matrix laid out for the AVX-512 kernel: panels of 32 columns, each
/// `k` rows of 32 (the last panel padded with zeros).
#[derive(Clone, PartialEq)]
pub struct Packed {
    kernel: Kernel,
    k: usize,
    n: usize,
    data: Vec<f32>,
}

impl fmt::Debug for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Packed({}×{} for {})", self.k, self.n, self.kernel)
    }
}

impl Packed {
    /// The kernel it is laid out for.
    #[must_use]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Packs `b`, whose element (row `r`, column `c`) is `b[r * rs + c * cs]`, for `kernel`.
    #[must_use]
    pub(crate) fn new(kernel: Kernel, b: &[f32], k: usize, n: usize, rs: usize, cs: usize) -> Packed {
        let panels = n.div_ceil(NR);
        if kernel == Kernel::Avx512Bf16 {
            // Each panel: ⌈k/2⌉ rows of 32 pairs (rows 2i and 2i + 1 of a column; a zero after
            // an odd k's last row).
            let k2 = k.div_ceil(2);
            let mut data = vec![0.0f32; panels * k2 * NR];
            let at = |r: usize, c: usize| if r < k { b[r * rs + c * cs] } else { 0.0 };
            for p in 0..panels {
                for kk in 0..k2 {
                    for c in 0..NR.min(n - p * NR) {
                        data[(p * k2 + kk) * NR + c] = bf16_pair(at(2 * kk, p * NR + c), at(2 * kk + 1, p * NR + c));
                    }
                }
            }
            return Packed { kernel, k, n, data };
        }
        let mut data = vec![0.0f32; panels * k * NR];
        for p in 0..panels {
            let cols = NR.min(n - p * NR);
            let panel = &mut data[p * k * NR..][..k * NR];
            for r in 0..k {
                let row = &mut panel[r * NR..][..cols];
                if cs == 1 {
                    row.copy_from_slice(&b[r * rs + p * NR..][..cols]);
                } else {
                    for (c, v) in row.iter_mut().enumerate() {
                        *v = b[r * rs + (p * NR + c) * cs];
                    }
                }
            }
        }
        Packed { kernel, k, n, data }
    }
}

/// `c = alpha · a · b` on the kernel `b` was packed for: `a` is `m × k` with rows `a_rs` apart, `c` is `m × n` with
/// rows `c_rs` apart (only its first `n` columns of each row are written).
///
/// # Panics
/// When the CPU lacks the kernel's instructions (AVX-512F; AVX2 and FMA), or a slice is too
/// short for the shapes.
pub(crate) fn gemm_packed(a: &[f32], a_rs: usize, m: usize, b: &Packed, c: &mut [f32], c_rs: usize, alpha: f32) {
    let (kernel, k, n) = (b.kernel, b.k, b.n);
    if m == 0 || n == 0 {
        return;
    }
    assert!(kernel != Kernel::Generic, "weights packed for the generic kernel");
    assert!(kernel.available(), "the {kernel} kernel on a CPU without it");
    if k == 0 {
        for row in c.chunks_mut(c_rs).take(m) {
            row[..n].fill(0.0);
        }
        return;
    }
    assert!(a.len() >= (m - 1) * a_rs + k, "a is too short");
    assert!(c.len() >= (m - 1) * c_rs + n, "c is too short");
    assert!(a_rs >= k && c_rs >= n, "rows overlap");
    #[cfg(target_arch = "x86_64")]
    // Safety: the kernel's instructions are present (asserted above); every pointer the kernel
    // forms lies inside `a`, `b.data` and `c` by the length checks above (rows of `a` up to
    // `k`, of `c` up to `n` — the last panel's stores are masked to the columns that exist).
    unsafe {
        match kernel {
            Kernel::Avx512 => avx512::gemm(a, a_rs, m, b, c, c_rs, alpha),
            Kernel::Avx512Bf16 => {
                // The rows of `a` as pairs of bf16, once for all the panels.
                let k2 = k.div_ceil(2);
                let mut pairs = crate::scratch::zeros(m * k2);
                for (i, row) in pairs.chunks_exact_mut(k2).enumerate() {
                    let a = &a[i * a_rs..][..k];
                    for (kk, v) in row.iter_mut().enumerate() {
                        *v = bf16_pair(a[2 * kk], a.get(2 * kk + 1).copied().unwrap_or(0.0));
                    }
                }
                avx512::gemm_bf16(&pairs, m, b, c, c_rs, alpha);
                crate::scratch::give(pairs);
            }
            Kernel::Avx2 => avx2::gemm(a, a_rs, m, b, c, c_rs, alpha),
            Kernel::Generic => {}
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) fn avx2_detected() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn avx2_detected() -> bool {
    false
}

/// A softmax over each row of `s` columns on the vector registers of `kernel` — 512-bit ones
/// for [`Kernel::Avx512`], 256-bit ones for [`Kernel::Avx2`] — with `e^x` by the same range
/// reduction and polynomial as `forward.rs`'s `exp_approx` (within 3e-7 of `exp`). Returns
/// false, having done nothing, for [`Kernel::Generic`].
///
/// # Panics
/// When the CPU lacks `kernel`.
pub(crate) fn softmax_rows(scores: &mut [f32], s: usize, kernel: Kernel) -> bool {
    #[cfg(target_arch = "x86_64")]
    match kernel {
        Kernel::Avx512 | Kernel::Avx512Bf16 => {
            assert!(avx512_detected(), "the AVX-512 kernel on a CPU without AVX-512F");
            for row in scores.chunks_exact_mut(s) {
                // Safety: AVX-512F is present (asserted above); the function reads and writes
                // the row within its length (the tail by masks).
                unsafe { avx512::softmax(row) }
            }
            return true;
        }
        Kernel::Avx2 => {
            assert!(avx2_detected(), "the AVX2 kernel on a CPU without AVX2 and FMA");
            for row in scores.chunks_exact_mut(s) {
                // Safety: AVX2 and FMA are present (tested above); the function reads and
                // writes the row within its length (whole groups of 8, the tail one by one).
                unsafe { avx2::softmax(row) }
            }
            return true;
        }
        Kernel::Generic => {}
    }
    let _ = (scores, s, kernel);
    false
}

/// The polynomial of `e^r` for |r| ≤ ln 2 / 2, highest degree first (then 1 and 1).
const EXP_POLY: [f32; 7] = [1.0 / 720.0, 1.0 / 120.0, 1.0 / 24.0, 1.0 / 6.0, 0.5, 1.0, 1.0];
/// ln 2 in two parts, for an exact `x − n·ln 2`.
const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{EXP_POLY, LN2_HI, LN2_LO, NR, Packed};
    use std::arch::x86_64::*;

    /// Rows of the register block: 6 rows × 16 columns in 12 registers.
    const MR2: usize = 6;

    /// # Safety
    /// AVX2 and FMA must be present and the slices long enough (see `gemm_packed`).
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn gemm(a: &[f32], a_rs: usize, m: usize, b: &Packed, c: &mut [f32], c_rs: usize, alpha: f32) {
        let (k, n) = (b.k, b.n);
        let mut i = 0;
        while i < m {
            let rows = MR2.min(m - i);
            // Each panel of 32 columns in two halves of 16.
            for half in 0..n.div_ceil(16) {
                let (p, h) = (half / 2, half % 2);
                let cols = 16.min(n - half * 16);
                // Safety: rows ≤ 6 rows of `a` from `ap`, `k` each; the half-panel's k rows
                // of 16 floats (32 apart) from `bp` are inside `b.data`; `c` has `rows` rows
                // of `cols` columns from `cp` (the caller checked the lengths).
                unsafe {
                    let bp = b.data.as_ptr().add(p * k * NR + h * 16);
                    let ap = a.as_ptr().add(i * a_rs);
                    let cp = c.as_mut_ptr().add(i * c_rs + half * 16);
                    match rows {
                        6 => block::<6>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                        5 => block::<5>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                        4 => block::<4>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                        3 => block::<3>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                        2 => block::<2>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                        _ => block::<1>(ap, a_rs, bp, k, cp, c_rs, cols, alpha),
                    }
                }
            }
            i += rows;
        }
    }

    /// `R` rows of `a` times 16 columns of a panel: `R × 16` accumulators in registers.
    ///
    /// # Safety
    /// AVX2 and FMA present; `a` readable for `R` rows of `k`, `b` for `k` rows of 16 (32
    /// apart), `c` writable for `R` rows of `cols ≤ 16`.
    #[target_feature(enable = "avx2,fma")]
    #[allow(clippy::too_many_arguments)]
    #[inline]
    unsafe fn block<const R: usize>(
        a: *const f32,
        a_rs: usize,
        b: *const f32,
        k: usize,
        c: *mut f32,
        c_rs: usize,
        cols: usize,
        alpha: f32,
    ) {
        // Safety: the reads and writes stay within the extents the caller guarantees.
        unsafe {
            let mut lo = [_mm256_setzero_ps(); R];
            let mut hi = [_mm256_setzero_ps(); R];
            for kk in 0..k {
                let b0 = _mm256_loadu_ps(b.add(kk * NR));
                let b1 = _mm256_loadu_ps(b.add(kk * NR + 8));
                for r in 0..R {
                    let x = _mm256_broadcast_ss(&*a.add(r * a_rs + kk));
                    lo[r] = _mm256_fmadd_ps(x, b0, lo[r]);
                    hi[r] = _mm256_fmadd_ps(x, b1, hi[r]);
                }
            }
            let scale = _mm256_set1_ps(alpha);
            if cols == 16 {
                for r in 0..R {
                    let row = c.add(r * c_rs);
                    _mm256_storeu_ps(row, _mm256_mul_ps(lo[r], scale));
                    _mm256_storeu_ps(row.add(8), _mm256_mul_ps(hi[r], scale));
                }
            } else {
                let mut tmp = [0.0f32; 16];
                for r in 0..R {
                    _mm256_storeu_ps(tmp.as_mut_ptr(), _mm256_mul_ps(lo[r], scale));
                    _mm256_storeu_ps(tmp.as_mut_ptr().add(8), _mm256_mul_ps(hi[r], scale));
                    std::ptr::copy_nonoverlapping(tmp.as_ptr(), c.add(r * c_rs), cols);
                }
            }
        }
    }

    /// `e^x` for every lane (x clamped to −87…88).
    #[target_feature(enable = "avx2,fma")]
    fn exp(x: __m256) -> __m256 {
        let x = _mm256_min_ps(_mm256_max_ps(x, _mm256_set1_ps(-87.0)), _mm256_set1_ps(88.0));
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm256_mul_ps(
            x,
            _mm256_set1_ps(std::f32::consts::LOG2_E),
        ));
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_HI), x);
        let r = _mm256_fnmadd_ps(n, _mm256_set1_ps(LN2_LO), r);
        let mut p = _mm256_set1_ps(EXP_POLY[0]);
        for c in &EXP_POLY[1..] {
            p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(*c));
        }
        let two_n = _mm256_castsi256_ps(_mm256_slli_epi32::<23>(_mm256_add_epi32(
            _mm256_cvtps_epi32(n),
            _mm256_set1_epi32(127),
        )));
        _mm256_mul_ps(p, two_n)
    }

    /// The scalar `e^x` of the same polynomial, for the tail.
    fn exp1(x: f32) -> f32 {
        let x = x.clamp(-87.0, 88.0);
        let n = (x * std::f32::consts::LOG2_E).round();
        let r = x - n * LN2_HI - n * LN2_LO;
        let p = EXP_POLY[1..].iter().fold(EXP_POLY[0], |p, c| p * r + c);
        p * f32::from_bits(((n as i32 + 127) as u32) << 23)
    }

    fn hmax(v: __m256) -> f32 {
        let mut lanes = [0.0f32; 8];
        // Safety: `lanes` holds 8 floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) };
        lanes.into_iter().fold(f32::NEG_INFINITY, f32::max)
    }

    fn hsum(v: __m256) -> f32 {
        let mut lanes = [0.0f32; 8];
        // Safety: `lanes` holds 8 floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), v) };
        lanes.iter().sum()
    }

    /// A softmax over `row`.
    ///
    /// # Safety
    /// AVX2 and FMA present.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn softmax(row: &mut [f32]) {
        let n = row.len();
        let full = n / 8 * 8;
        let p = row.as_mut_ptr();
        // Safety: every load and store is of 8 floats at `i < full` (inside the row).
        unsafe {
            let mut m = _mm256_set1_ps(f32::NEG_INFINITY);
            for i in (0..full).step_by(8) {
                m = _mm256_max_ps(m, _mm256_loadu_ps(p.add(i)));
            }
            let max = row[full..].iter().copied().fold(hmax(m), f32::max);
            let vmax = _mm256_set1_ps(max);
            let mut sum = _mm256_setzero_ps();
            for i in (0..full).step_by(8) {
                let e = exp(_mm256_sub_ps(_mm256_loadu_ps(p.add(i)), vmax));
                _mm256_storeu_ps(p.add(i), e);
                sum = _mm256_add_ps(sum, e);
            }
            let mut total = hsum(sum);
            for v in &mut row[full..] {
                *v = exp1(*v - max);
                total += *v;
            }
            let inv = 1.0 / total;
            let vinv = _mm256_set1_ps(inv);
            for i in (0..full).step_by(8) {
                _mm256_storeu_ps(p.add(i), _mm256_mul_ps(_mm256_loadu_ps(p.add(i)), vinv));
            }
            row[full..].iter_mut().for_each(|v| *v *= inv);
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::{EXP_POLY, LN2_HI, LN2_LO, MR, NR, Packed};
    use std::arch::x86_64::*;

    /// Calls `$block::<R>(…)` with the register block's rows `$rows` (1 to `MR`) as a constant.
    macro_rules! by_rows {
        ($rows:expr, $block:ident($($arg:expr),*)) => {
            match $rows {
                12 => $block::<12>($($arg),*),
                11 => $block::<11>($($arg),*),
                10 => $block::<10>($($arg),*),
                9 => $block::<9>($($arg),*),
                8 => $block::<8>($($arg),*),
                7 => $block::<7>($($arg),*),
                6 => $block::<6>($($arg),*),
                5 => $block::<5>($($arg),*),
                4 => $block::<4>($($arg),*),
                3 => $block::<3>($($arg),*),
                2 => $block::<2>($($arg),*),
                _ => $block::<1>($($arg),*),
            }
        };
    }

    /// The register blocks of an `m × n` product, in order: `f(i, rows, p, cols)` for rows
    /// `i..i + rows` (at most `MR`) and panel `p`'s `cols` columns.
    fn tiles(m: usize, n: usize, mut f: impl FnMut(usize, usize, usize, usize)) {
        let mut i = 0;
        while i < m {
            let rows = MR.min(m - i);
            for p in 0..n.div_ceil(NR) {
                f(i, rows, p, NR.min(n - p * NR));
            }
            i += rows;
        }
    }

    /// # Safety
    /// AVX-512F must be present and the slices long enough (see `gemm_packed`).
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn gemm(a: &[f32], a_rs: usize, m: usize, b: &Packed, c: &mut [f32], c_rs: usize, alpha: f32) {
        let k = b.k;
        tiles(m, b.n, |i, rows, p, cols| {
            // Safety: rows ≤ MR rows of `a` from `ap`, `k` each, and the panel's k·NR floats
            // from `bp` are inside `a` and `b.data`; `c` has `rows` rows of `cols` columns from
            // `cp` (the caller checked the lengths).
            unsafe {
                let bp = b.data.as_ptr().add(p * k * NR);
                let ap = a.as_ptr().add(i * a_rs);
                let cp = c.as_mut_ptr().add(i * c_rs + p * NR);
                by_rows!(rows, block(ap, a_rs, bp, k, cp, c_rs, cols, alpha));
            }
        });
    }

    /// `c = alpha · a · b` with `a` as pairs of bf16 (`m` rows of ⌈k/2⌉, from
    /// `gemm_packed`) and `b` packed for [`super::Kernel::Avx512Bf16`].
    ///
    /// # Safety
    /// AVX-512F and AVX512_BF16 present, `pairs` `m` rows of ⌈k/2⌉ and `c` long enough (see
    /// `gemm_packed`).
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub(super) unsafe fn gemm_bf16(pairs: &[f32], m: usize, b: &Packed, c: &mut [f32], c_rs: usize, alpha: f32) {
        let k2 = b.k.div_ceil(2);
        assert!(pairs.len() >= m * k2 && b.data.len() >= b.n.div_ceil(NR) * k2 * NR, "bf16 operands too short");
        tiles(m, b.n, |i, rows, p, cols| {
            // Safety: `rows` rows of ⌈k/2⌉ pairs from `ap` and the panel's ⌈k/2⌉·NR pairs from
            // `bp` are inside `pairs` and `b.data` (asserted above); `c` has `rows` rows of
            // `cols` columns from `cp` (the caller checked its length).
            unsafe {
                let bp = b.data.as_ptr().add(p * k2 * NR);
                let ap = pairs.as_ptr().add(i * k2);
                let cp = c.as_mut_ptr().add(i * c_rs + p * NR);
                by_rows!(rows, block_bf16(ap, bp, k2, cp, c_rs, cols, alpha));
            }
        });
    }

    /// `R` rows of bf16 pairs times one panel of pairs: `R × 32` `f32` accumulators, `k2` steps
    /// of two loads of the panel, `R` broadcasts of a pair and `2R` `vdpbf16ps`.
    ///
    /// # Safety
    /// AVX-512F and AVX512_BF16 present; `a` readable for `R` rows of `k2` pairs (rows `k2`
    /// apart), `b` for `k2 · 32` pairs, `c` writable for `R` rows of `cols ≤ 32`.
    #[target_feature(enable = "avx512f,avx512bf16")]
    #[inline]
    unsafe fn block_bf16<const R: usize>(
        a: *const f32,
        b: *const f32,
        k2: usize,
        c: *mut f32,
        c_rs: usize,
        cols: usize,
        alpha: f32,
    ) {
        // Safety: the reads and writes stay within the extents the caller guarantees; a
        // 512-bit vector of 32-bit lanes and one of 32 bf16 have the same size and bits
        // (`transmute`).
        unsafe {
            let mut lo = [_mm512_setzero_ps(); R];
            let mut hi = [_mm512_setzero_ps(); R];
            for kk in 0..k2 {
                let b0: __m512bh = std::mem::transmute(_mm512_loadu_ps(b.add(kk * NR)));
                let b1: __m512bh = std::mem::transmute(_mm512_loadu_ps(b.add(kk * NR + 16)));
                for r in 0..R {
                    let x: __m512bh = std::mem::transmute(_mm512_set1_ps(*a.add(r * k2 + kk)));
                    lo[r] = _mm512_dpbf16_ps(lo[r], x, b0);
                    hi[r] = _mm512_dpbf16_ps(hi[r], x, b1);
                }
            }
            store(&lo, &hi, c, c_rs, cols, alpha);
        }
    }

    /// `alpha` times `R` rows of 32 accumulators (`lo` the first 16 columns, `hi` the next)
    /// stored into `c`'s rows, `c_rs` apart: only their first `cols` columns.
    ///
    /// # Safety
    /// AVX-512F present; `c` writable for `R` rows of `cols ≤ 32`.
    #[target_feature(enable = "avx512f")]
    #[inline]
    unsafe fn store<const R: usize>(
        lo: &[__m512; R],
        hi: &[__m512; R],
        c: *mut f32,
        c_rs: usize,
        cols: usize,
        alpha: f32,
    ) {
        let scale = _mm512_set1_ps(alpha);
        let m0: __mmask16 = if cols >= 16 { 0xffff } else { (1u16 << cols) - 1 };
        let m1: __mmask16 = if cols >= 32 {
            0xffff
        } else if cols > 16 {
            (1u16 << (cols - 16)) - 1
        } else {
            0
        };
        for r in 0..R {
            // Safety: row `r < R` of `c`, its first `cols` columns (masked), as the caller
            // guarantees.
            unsafe {
                let row = c.add(r * c_rs);
                _mm512_mask_storeu_ps(row, m0, _mm512_mul_ps(lo[r], scale));
                _mm512_mask_storeu_ps(row.add(16), m1, _mm512_mul_ps(hi[r], scale));
            }
        }
    }

    /// `e^x` for every lane (x clamped to −87…88).
    #[target_feature(enable = "avx512f")]
    fn exp(x: __m512) -> __m512 {
        let x = _mm512_min_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.0)), _mm512_set1_ps(88.0));
        let n = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(_mm512_mul_ps(
            x,
            _mm512_set1_ps(std::f32::consts::LOG2_E),
        ));
        let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_HI), x);
        let r = _mm512_fnmadd_ps(n, _mm512_set1_ps(LN2_LO), r);
        let mut p = _mm512_set1_ps(EXP_POLY[0]);
        for c in &EXP_POLY[1..] {
            p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(*c));
        }
        _mm512_scalef_ps(p, n)
    }

    /// A softmax over `row`.
    ///
    /// # Safety
    /// AVX-512F present.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn softmax(row: &mut [f32]) {
        let n = row.len();
        let full = n / 16 * 16;
        let tail: __mmask16 = ((1u32 << (n - full)) - 1) as u16;
        let p = row.as_mut_ptr();
        // Safety: every load and store is of 16 floats at `i < full` (inside the row) or the
        // masked tail at `full` (only its `n - full` lanes touched).
        unsafe {
            let mut m = _mm512_set1_ps(f32::NEG_INFINITY);
            for i in (0..full).step_by(16) {
                m = _mm512_max_ps(m, _mm512_loadu_ps(p.add(i)));
            }
            m = _mm512_max_ps(m, _mm512_mask_loadu_ps(_mm512_set1_ps(f32::NEG_INFINITY), tail, p.add(full)));
            let max = _mm512_set1_ps(_mm512_reduce_max_ps(m));
            let mut sum = _mm512_setzero_ps();
            for i in (0..full).step_by(16) {
                let e = exp(_mm512_sub_ps(_mm512_loadu_ps(p.add(i)), max));
                _mm512_storeu_ps(p.add(i), e);
                sum = _mm512_add_ps(sum, e);
            }
            let e = _mm512_maskz_mov_ps(tail, exp(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, p.add(full)), max)));
            _mm512_mask_storeu_ps(p.add(full), tail, e);
            sum = _mm512_add_ps(sum, e);
            let inv = _mm512_set1_ps(1.0 / _mm512_reduce_add_ps(sum));
            for i in (0..full).step_by(16) {
                _mm512_storeu_ps(p.add(i), _mm512_mul_ps(_mm512_loadu_ps(p.add(i)), inv));
            }
            _mm512_mask_storeu_ps(p.add(full), tail, _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, p.add(full)), inv));
        }
    }

    /// `R` rows of `a` times one panel: `R × 32` accumulators in registers, `k` steps of two
    /// loads of the panel and `R` broadcasts of `a`.
    ///
    /// # Safety
    /// AVX-512F present; `a` readable for `R` rows of `k` (rows `a_rs` apart), `b` for `k · 32`,
    /// `c` writable for `R` rows of `cols ≤ 32` (rows `c_rs` apart).
    #[target_feature(enable = "avx512f")]
    #[allow(clippy::too_many_arguments)]
    #[inline]
    unsafe fn block<const R: usize>(
        a: *const f32,
        a_rs: usize,
        b: *const f32,
        k: usize,
        c: *mut f32,
        c_rs: usize,
        cols: usize,
        alpha: f32,
    ) {
        // Safety: the reads and writes stay within the extents the caller guarantees.
        unsafe {
            let mut lo = [_mm512_setzero_ps(); R];
            let mut hi = [_mm512_setzero_ps(); R];
            for kk in 0..k {
                let b0 = _mm512_loadu_ps(b.add(kk * NR));
                let b1 = _mm512_loadu_ps(b.add(kk * NR + 16));
                for r in 0..R {
                    let x = _mm512_set1_ps(*a.add(r * a_rs + kk));
                    lo[r] = _mm512_fmadd_ps(x, b0, lo[r]);
                    hi[r] = _mm512_fmadd_ps(x, b1, hi[r]);
                }
            }
            store(&lo, &hi, c, c_rs, cols, alpha);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(a: &[f32], a_rs: usize, m: usize, b: &[f32], k: usize, n: usize, alpha: f32) -> Vec<f32> {
        let mut c = vec![0.0f32; m * n];
        for i in 0..m {
            for j in 0..n {
                let s: f64 = (0..k).map(|p| f64::from(a[i * a_rs + p]) * f64::from(b[p * n + j])).sum();
                c[i * n + j] = (s * f64::from(alpha)) as f32;
            }
        }
        c
    }

    #[test]
    fn the_vector_softmaxes_are_the_softmax() {
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            if !kernel.available() {
                eprintln!("SKIPPED the_vector_softmaxes_are_the_softmax on {kernel}: this CPU lacks it");
                continue;
            }
            softmax_against_f64(kernel);
        }
    }

    fn softmax_against_f64(kernel: Kernel) {
        for s in [1, 5, 16, 17, 81, 361] {
            let mut rows: Vec<f32> = (0..3 * s).map(|i| ((i * 7919) % 1000) as f32 / 20.0 - 25.0).collect();
            rows[s.min(2)] = -1e30;
            let want: Vec<f64> = rows
                .chunks(s)
                .flat_map(|r| {
                    let max = r.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                    let e: Vec<f64> = r.iter().map(|&v| f64::from(v - max).exp()).collect();
                    let sum: f64 = e.iter().sum();
                    e.into_iter().map(move |v| v / sum)
                })
                .collect();
            assert!(softmax_rows(&mut rows, s, kernel));
            for (i, (got, w)) in rows.iter().zip(&want).enumerate() {
                assert!((f64::from(*got) - w).abs() <= 1e-6 * w.max(1e-3), "{kernel} s {s} lane {i}: {got} {w}");
            }
        }
    }

    #[test]
    fn bf16_rounds_to_nearest_even() {
        assert_eq!(bf16(1.0), 0x3f80);
        assert_eq!(bf16(-2.0), 0xc000);
        // 1 + 2⁻⁸ lies halfway between two bf16: to the even one (1.0); a hair above, up.
        assert_eq!(bf16(1.0 + 1.0 / 256.0), 0x3f80);
        assert_eq!(bf16(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert_eq!(bf16(f32::from_bits(0x3f81_8000)), 0x3f82, "the tie from an odd one goes up");
        assert_eq!(bf16(f32::INFINITY), 0x7f80);
        assert!(bf16(f32::NAN) & 0x7f80 == 0x7f80 && bf16(f32::NAN) & 0x7f != 0, "NaN stays NaN");
    }

    /// The bf16 kernel against the product of the inputs rounded to bf16, summed in `f64`:
    /// the products of bf16 are exact in `f32`, so only the order of the sums differs.
    #[test]
    fn the_bf16_kernel_computes_the_product_of_the_rounded_inputs() {
        if !Kernel::Avx512Bf16.available() {
            eprintln!("SKIPPED the_bf16_kernel_computes_the_product_of_the_rounded_inputs: this CPU lacks avx512bf16");
            return;
        }
        let round = |v: f32| f32::from_bits(bf16(v) << 16);
        let mut seed = 777u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for (m, k, n) in [(1, 1, 1), (13, 7, 33), (81, 192, 512), (361, 33, 361), (25, 0, 5), (12, 5, 16), (11, 64, 17)]
        {
            let a_rs = k + 3;
            let a: Vec<f32> = (0..m * a_rs).map(|_| rnd()).collect();
            let b: Vec<f32> = (0..k * n).map(|_| rnd()).collect();
            let (ar, br): (Vec<f32>, Vec<f32>) =
                (a.iter().map(|&v| round(v)).collect(), b.iter().map(|&v| round(v)).collect());
            let want = naive(&ar, a_rs, m, &br, k, n, 0.5);
            let exact = naive(&a, a_rs, m, &b, k, n, 0.5);
            let c_rs = n + 2;
            let mut c = vec![7.0f32; m * c_rs];
            gemm_packed(&a, a_rs, m, &Packed::new(Kernel::Avx512Bf16, &b, k, n, n, 1), &mut c, c_rs, 0.5);
            for i in 0..m {
                for j in 0..n {
                    let (got, w) = (c[i * c_rs + j], want[i * n + j]);
                    assert!(
                        (got - w).abs() <= 1e-5 * (1.0 + w.abs()) * (k as f32).sqrt(),
                        "{m}×{k}×{n} at {i},{j}: {got} {w}"
                    );
                    // And within bf16's precision of the exact product.
                    let e = exact[i * n + j];
                    assert!((got - e).abs() <= 0.01 * (k as f32).sqrt() + 1e-6, "{m}×{k}×{n} at {i},{j}: {got} {e}");
                }
                assert_eq!(&c[i * c_rs + n..][..2], &[7.0, 7.0], "{m}×{k}×{n}: row {i} beyond n");
            }
        }
    }

    #[test]
    fn packing_keeps_every_element_and_pads_with_zeros() {
        let (k, n) = (3, 35);
        let b: Vec<f32> = (0..k * n).map(|v| v as f32 + 1.0).collect();
        let p = Packed::new(Kernel::Avx512, &b, k, n, n, 1);
        assert_eq!(p.data.len(), 2 * k * NR);
        assert_eq!(p.data[NR], b[n], "row 1 of panel 0");
        assert_eq!(p.data[k * NR + 2], b[34], "column 34 is panel 1's column 2");
        assert_eq!(p.data[k * NR + 3], 0.0, "padding");
        // The transpose, read with strides, packs the same.
        let t: Vec<f32> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        assert_eq!(Packed::new(Kernel::Avx512, &t, k, n, 1, k), p);
    }

    #[test]
    fn the_kernels_compute_the_product() {
        for kernel in [Kernel::Avx2, Kernel::Avx512] {
            if !kernel.available() {
                eprintln!("SKIPPED the_kernels_compute_the_product on {kernel}: this CPU lacks it");
                continue;
            }
            product_against_naive(kernel);
        }
    }

    fn product_against_naive(kernel: Kernel) {
        let mut seed = 12345u32;
        let mut rnd = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for (m, k, n) in [(1, 1, 1), (13, 7, 33), (81, 192, 512), (361, 32, 361), (25, 0, 5), (12, 5, 16), (11, 64, 17)]
        {
            let a_rs = k + 3;
            let a: Vec<f32> = (0..m * a_rs).map(|_| rnd()).collect();
            let b: Vec<f32> = (0..k * n).map(|_| rnd()).collect();
            let want = naive(&a, a_rs, m, &b, k, n, 0.5);
            // Written into a wider matrix: the columns beyond `n` stay as they were.
            let c_rs = n + 2;
            let mut c = vec![7.0f32; m * c_rs];
            gemm_packed(&a, a_rs, m, &Packed::new(kernel, &b, k, n, n, 1), &mut c, c_rs, 0.5);
            for i in 0..m {
                for j in 0..n {
                    let (got, w) = (c[i * c_rs + j], want[i * n + j]);
                    assert!(
                        (got - w).abs() <= 1e-5 * (1.0 + w.abs()) * (k as f32).sqrt(),
                        "{kernel} {m}×{k}×{n} at {i},{j}: {got} {w}"
                    );
                }
                assert_eq!(&c[i * c_rs + n..][..2], &[7.0, 7.0], "{m}×{k}×{n}: row {i} beyond n");
            }
        }
    }
}

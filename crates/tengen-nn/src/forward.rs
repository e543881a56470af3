//! The forward pass on the CPU in `f32`, layer by layer as KataGo's model defines it (NHWC:
//! positions in rows, channels contiguous; positions in KataGo's order, row 0 at the top).
//! Matrix products go through the kernels of `kernel.rs` (or ndarray's `matrixmultiply`).
//! Several positions of one board size go through together ([`Model::forward_batch`]): their
//! rows one after the other, so that every product by the network's weights is one product.

use crate::kernel::{Packed, gemm_packed};
use crate::model::*;
use crate::profile::timed;
use crate::scratch::{copy, give, zeros};

/// The network's inputs for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// Board size (the network runs on exactly this many points a side).
    pub size: usize,
    /// `size²` rows of the spatial features, in KataGo's order (row 0 at the top).
    pub spatial: Vec<f32>,
    /// The global features.
    pub global: Vec<f32>,
}

/// The raw outputs of the network, for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct RawOutput {
    /// Policy logits per point (channel 0).
    pub policy: Vec<f32>,
    /// Logits of the pass (channel 0).
    pub pass: f32,
    /// Optimistic policy logits per point (channel 1, version 12 on; else a copy of channel 0).
    pub policy_optimistic: Vec<f32>,
    /// Optimistic pass logit.
    pub pass_optimistic: f32,
    /// Win, loss, no-result logits.
    pub value: [f32; 3],
    /// Score mean, score stdev, lead, variance time, short-term value and score errors
    /// (before their post-processing).
    pub misc: [f32; 6],
    /// Ownership logits per point (before tanh).
    pub ownership: Vec<f32>,
}

/// `out = a · b`: `a` is `m × k`, `b` is `k × n`, all row-major (ndarray's product, which
/// runs on `matrixmultiply`).
fn gemm(a: &[f32], m: usize, k: usize, b: &[f32], n: usize, out: &mut [f32]) {
    use ndarray::{ArrayView2, ArrayViewMut2};
    let a = ArrayView2::from_shape((m, k), &a[..m * k]).expect("a fits m × k");
    let b = ArrayView2::from_shape((k, n), &b[..k * n]).expect("b fits k × n");
    let mut c = ArrayViewMut2::from_shape((m, n), &mut out[..m * n]).expect("out fits m × n");
    ndarray::linalg::general_mat_mul(1.0, &a, &b, 0.0, &mut c);
}

/// `e^x` (for `x` up to 88), branch-free so that loops over it vectorise: range reduction by
/// powers of two and a degree-6 polynomial, within about 3e-7 of `f32::exp`.
#[inline]
fn exp_approx(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // Rounding to nearest by adding and subtracting 1.5·2²³ (no libm call, so it vectorises).
    const ROUND: f32 = 12_582_912.0;
    let x = x.clamp(-87.0, 88.0);
    let n = (x * LOG2E + ROUND) - ROUND;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = 1.0 + r * (1.0 + r * (0.5 + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

/// The largest value, over 8 lanes so that the loop vectorises.
fn max8(v: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 8];
    let chunks = v.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for i in 0..8 {
            lanes[i] = if c[i] > lanes[i] { c[i] } else { lanes[i] };
        }
    }
    lanes.into_iter().chain(rest.iter().copied()).fold(f32::NEG_INFINITY, f32::max)
}

/// The sum, over 8 lanes so that the loop vectorises.
fn sum8(v: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let chunks = v.chunks_exact(8);
    let rest = chunks.remainder();
    for c in chunks {
        for i in 0..8 {
            lanes[i] += c[i];
        }
    }
    lanes.iter().sum::<f32>() + rest.iter().sum::<f32>()
}

/// `n` positions of a `size × size` board, their rows one after the other.
#[derive(Clone, Copy, Debug)]
struct Batch {
    n: usize,
    size: usize,
}

impl Batch {
    /// Points of one position.
    fn s(self) -> usize {
        self.size * self.size
    }

    /// Rows of the batch.
    fn rows(self) -> usize {
        self.n * self.s()
    }
}

/// `x · m` for `rows` rows; `pooled` when each row is one position's pooled values (the
/// profile's name tells them from the board's rows).
fn matmul(x: &[f32], rows: usize, m: &MatMul, pooled: bool) -> Vec<f32> {
    let flops = 2.0 * (rows * m.inputs * m.outputs) as f64;
    timed(
        || format!("matmul {}x{}>{}", if pooled { "1" } else { "board" }, m.inputs, m.outputs),
        flops,
        || {
            let mut out = zeros(rows * m.outputs);
            match &m.packed {
                Some(p) => gemm_packed(x, m.inputs, rows, p, &mut out, m.outputs, 1.0),
                None => gemm(x, rows, m.inputs, &m.weights, m.outputs, &mut out),
            }
            out
        },
    )
}

fn activate(x: &mut [f32], a: Activation) {
    match a {
        Activation::Identity => {}
        Activation::Relu => x.iter_mut().for_each(|v| *v = v.max(0.0)),
        Activation::Silu => x.iter_mut().for_each(|v| *v /= 1.0 + exp_approx(-*v)),
        Activation::Mish => x.iter_mut().for_each(|v| {
            let sp = if *v > 20.0 { *v } else { v.exp().ln_1p() };
            *v *= sp.tanh();
        }),
    }
}

/// Batch normalisation (merged into a scale and a bias per channel) and activation.
fn norm_act(x: &mut [f32], channels: usize, n: &BatchNorm, act: Activation) {
    timed(|| "norm+activation".to_string(), 0.0, || norm_act_untimed(x, channels, n, act));
}

fn norm_act_untimed(x: &mut [f32], channels: usize, n: &BatchNorm, act: Activation) {
    let scale: Vec<f32> = (0..channels).map(|c| n.scale[c] / (n.variance[c] + n.epsilon).sqrt()).collect();
    let bias: Vec<f32> = (0..channels).map(|c| n.bias[c] - n.mean[c] * scale[c]).collect();
    for row in x.chunks_exact_mut(channels) {
        for c in 0..channels {
            row[c] = row[c] * scale[c] + bias[c];
        }
    }
    activate(x, act);
}

/// A convolution with zero padding on each position of the batch.
fn conv(x: &[f32], b: Batch, c: &Conv) -> Vec<f32> {
    let flops = 2.0 * (b.rows() * c.ky * c.kx * c.inputs * c.outputs) as f64;
    timed(|| format!("conv {}x{} {}>{}", c.ky, c.kx, c.inputs, c.outputs), flops, || conv_untimed(x, b, c))
}

fn conv_untimed(x: &[f32], b: Batch, c: &Conv) -> Vec<f32> {
    let (s, size) = (b.rows(), b.size);
    if c.ky == 1 && c.kx == 1 {
        let mut out = zeros(s * c.outputs);
        match &c.packed {
            Some(p) => gemm_packed(x, c.inputs, s, p, &mut out, c.outputs, 1.0),
            None => gemm(x, s, c.inputs, &c.weights, c.outputs, &mut out),
        }
        return out;
    }
    let k = c.ky * c.kx * c.inputs;
    let mut cols = zeros(s * k);
    let (ry, rx) = (c.ky / 2, c.kx / 2);
    // Row `r` of the batch: point (y, x0) of the position whose rows start at `base`.
    for (r, row) in cols.chunks_exact_mut(k).enumerate() {
        let (base, y, x0) = (r - r % b.s(), r % b.s() / size, r % size);
        for dy in 0..c.ky {
            for dx in 0..c.kx {
                let (yy, xx) = (
                    (y + dy * c.dilation.0) as isize - (ry * c.dilation.0) as isize,
                    (x0 + dx * c.dilation.1) as isize - (rx * c.dilation.1) as isize,
                );
                if yy < 0 || xx < 0 || yy >= size as isize || xx >= size as isize {
                    continue;
                }
                let src = &x[(base + yy as usize * size + xx as usize) * c.inputs..][..c.inputs];
                row[(dy * c.kx + dx) * c.inputs..][..c.inputs].copy_from_slice(src);
            }
        }
    }
    let mut out = zeros(s * c.outputs);
    match &c.packed {
        Some(p) => gemm_packed(&cols, k, s, p, &mut out, c.outputs, 1.0),
        None => gemm(&cols, s, k, &c.weights, c.outputs, &mut out),
    }
    give(cols);
    out
}

/// RMS normalisation over the channels of each position.
fn rms_norm(x: &[f32], channels: usize, n: &RmsNorm) -> Vec<f32> {
    timed(|| "rms norm".to_string(), 0.0, || rms_norm_untimed(x, channels, n))
}

fn rms_norm_untimed(x: &[f32], channels: usize, n: &RmsNorm) -> Vec<f32> {
    let mut out = copy(x);
    for row in out.chunks_exact_mut(channels) {
        let mean_sq = row.iter().map(|v| v * v).sum::<f32>() / channels as f32;
        let inv = 1.0 / (mean_sq + n.epsilon).sqrt();
        for (v, w) in row.iter_mut().zip(&n.weight) {
            *v = *v * inv * w;
        }
    }
    out
}

fn attention(x: &mut [f32], b: Batch, a: &Attention) {
    let (s, size, rows) = (b.s(), b.size, b.rows());
    let c = a.norm.channels;
    let xn = rms_norm(x, c, &a.norm);
    let mut q = matmul(&xn, rows, &a.q, false);
    let mut k = matmul(&xn, rows, &a.k, false);
    let v = matmul(&xn, rows, &a.v, false);
    let (hq, hk, d, dv) = (a.heads, a.kv_heads, a.q_head_dim, a.v_head_dim);
    timed(
        || "attention rotary positions".to_string(),
        0.0,
        || {
            if let Rope::Learned { freqs, pairs, .. } = &a.rope {
                // The rotation of every (position, key/value head, pair), the same for Q and K
                // and for every evaluation on this board size.
                let table = a.rotations.get_or_init(size, || {
                    let mut table = vec![(0.0f32, 0.0f32); s * hk * pairs];
                    for pos in 0..s {
                        let (py, px) = ((pos / size) as f32, (pos % size) as f32);
                        for kh in 0..hk {
                            for p in 0..*pairs {
                                let f = &freqs[(kh * pairs + p) * 2..][..2];
                                table[(pos * hk + kh) * pairs + p] = (px * f[0] + py * f[1]).sin_cos();
                            }
                        }
                    }
                    table
                });
                let rotate = |t: &mut [f32], heads: usize, kv_of: &dyn Fn(usize) -> usize| {
                    for row in 0..rows {
                        let pos = row % s;
                        for h in 0..heads {
                            let kh = kv_of(h);
                            for p in 0..*pairs {
                                let (sin, cos) = table[(pos * hk + kh) * pairs + p];
                                let i = row * heads * d + h * d + 2 * p;
                                let (x0, x1) = (t[i], t[i + 1]);
                                t[i] = x0 * cos - x1 * sin;
                                t[i + 1] = x0 * sin + x1 * cos;
                            }
                        }
                    }
                };
                let rep = hq / hk;
                rotate(&mut q, hq, &|h| h / rep);
                rotate(&mut k, hk, &|h| h);
            }
        },
    );
    let scale = 1.0 / (d as f32).sqrt();
    give(xn);
    let mut out = zeros(rows * hq * dv);
    // Each position attends to its own points only.
    for (i, out) in out.chunks_exact_mut(s * hq * dv).enumerate() {
        let (q, k, v) = (
            &q[i * s * hq * d..][..s * hq * d],
            &k[i * s * hk * d..][..s * hk * d],
            &v[i * s * hk * dv..][..s * hk * dv],
        );
        if let Some(p) = &a.q.packed {
            attention_heads_packed(p.kernel().for_f32(), q, k, v, s, (hq, hk, d, dv), scale, out);
        } else {
            attention_heads(q, k, v, s, (hq, hk, d, dv), scale, out);
        }
    }
    give(q);
    give(k);
    give(v);
    let proj = matmul(&out, rows, &a.out, false);
    give(out);
    for (xv, p) in x.iter_mut().zip(&proj) {
        *xv += p;
    }
    give(proj);
}

/// A softmax over each row of `s` columns, on `kernel`'s vector registers where the CPU has them.
fn softmax_rows(scores: &mut [f32], s: usize, kernel: crate::Kernel) {
    if crate::kernel::softmax_rows(scores, s, kernel) {
        return;
    }
    for row in scores.chunks_exact_mut(s) {
        let max = max8(row);
        row.iter_mut().for_each(|l| *l = exp_approx(*l - max));
        let inv = 1.0 / sum8(row);
        row.iter_mut().for_each(|l| *l *= inv);
    }
}

/// Per head: scores = Q·Kᵀ · `scale`, a softmax over each row, then scores·V — as matrix
/// products over strided views of the projections (`matrixmultiply`).
fn attention_heads(
    q: &[f32],
    k: &[f32],
    v: &[f32],
    s: usize,
    dims: (usize, usize, usize, usize),
    scale: f32,
    out: &mut [f32],
) {
    use ndarray::{Array2, ArrayView2, ArrayViewMut2, ShapeBuilder};
    let (hq, hk, d, dv) = dims;
    let rep = hq / hk;
    let mut scores = Array2::<f32>::zeros((s, s));
    for h in 0..hq {
        let kh = h / rep;
        let qh = ArrayView2::from_shape((s, d).strides((hq * d, 1)), &q[h * d..]).expect("query view");
        let kt = ArrayView2::from_shape((d, s).strides((1, hk * d)), &k[kh * d..]).expect("key view");
        timed(scores_kind, 2.0 * (s * s * d) as f64, || {
            ndarray::linalg::general_mat_mul(scale, &qh, &kt, 0.0, &mut scores);
        });
        timed(softmax_kind, 0.0, || {
            softmax_rows(scores.as_slice_mut().expect("a standard-layout matrix"), s, crate::Kernel::Generic);
        });
        let vh = ArrayView2::from_shape((s, dv).strides((hk * dv, 1)), &v[kh * dv..]).expect("value view");
        let mut oh = ArrayViewMut2::from_shape((s, dv).strides((hq * dv, 1)), &mut out[h * dv..]).expect("output view");
        timed(values_kind, 2.0 * (s * s * dv) as f64, || {
            ndarray::linalg::general_mat_mul(1.0, &scores, &vh, 0.0, &mut oh);
        });
    }
}

fn scores_kind() -> String {
    "attention scores Q·Kᵀ".to_string()
}

fn softmax_kind() -> String {
    "attention softmax".to_string()
}

fn values_kind() -> String {
    "attention values P·V".to_string()
}

/// [`attention_heads`] on `kernel`: each key/value head's Kᵀ and V packed once.
#[allow(clippy::too_many_arguments)]
fn attention_heads_packed(
    kernel: crate::Kernel,
    q: &[f32],
    k: &[f32],
    v: &[f32],
    s: usize,
    dims: (usize, usize, usize, usize),
    scale: f32,
    out: &mut [f32],
) {
    let (hq, hk, d, dv) = dims;
    let rep = hq / hk;
    let mut scores = zeros(s * s);
    for kh in 0..hk {
        let kt = Packed::new(kernel, &k[kh * d..], d, s, 1, hk * d);
        let vh = Packed::new(kernel, &v[kh * dv..], s, dv, hk * dv, 1);
        for h in kh * rep..(kh + 1) * rep {
            timed(scores_kind, 2.0 * (s * s * d) as f64, || {
                gemm_packed(&q[h * d..], hq * d, s, &kt, &mut scores, s, scale);
            });
            timed(softmax_kind, 0.0, || softmax_rows(&mut scores, s, kernel));
            timed(values_kind, 2.0 * (s * s * dv) as f64, || {
                gemm_packed(&scores, s, s, &vh, &mut out[h * dv..], hq * dv, 1.0);
            });
        }
    }
    give(scores);
}

fn ffn(x: &mut [f32], b: Batch, f: &Ffn) {
    let s = b.rows();
    let xn = rms_norm(x, f.channels, &f.norm);
    let mut h = matmul(&xn, s, &f.linear1, false);
    match &f.gate {
        Some(g) => {
            activate(&mut h, Activation::Silu);
            let gate = matmul(&xn, s, g, false);
            for (a, b) in h.iter_mut().zip(&gate) {
                *a *= b;
            }
            give(gate);
        }
        None => activate(&mut h, Activation::Relu),
    }
    give(xn);
    let out = matmul(&h, s, &f.linear2, false);
    give(h);
    for (xv, o) in x.iter_mut().zip(&out) {
        *xv += o;
    }
    give(out);
}

fn nac(x: &[f32], b: Batch, n: &NormActConv) -> Vec<f32> {
    let mut h = copy(x);
    norm_act(&mut h, n.norm.channels, &n.norm, n.act.kind);
    let out = conv(&h, b, &n.conv);
    give(h);
    out
}

/// `pool` of each position of the batch, one row each.
fn pooled_rows(x: &[f32], channels: usize, batch: Batch, pool: fn(&[f32], usize, usize) -> Vec<f32>) -> Vec<f32> {
    let s = batch.s();
    x.chunks_exact(s * channels).flat_map(|position| pool(position, channels, s)).collect()
}

/// Adds `bias` to every row of `x` (rows as wide as `bias`).
fn add_bias(x: &mut [f32], bias: &[f32]) {
    for row in x.chunks_exact_mut(bias.len()) {
        row.iter_mut().zip(bias).for_each(|(a, b)| *a += b);
    }
}

/// Adds row `i` of `bias` (`width` wide) to every row of position `i`.
fn add_bias_rows(x: &mut [f32], bias: &[f32], width: usize, batch: Batch) {
    for (position, bias) in x.chunks_exact_mut(batch.s() * width).zip(bias.chunks_exact(width)) {
        add_bias(position, bias);
    }
}

/// Mean, size-scaled mean and max of each channel over the board (KataGo's global pooling).
fn gpool(x: &[f32], channels: usize, s: usize) -> Vec<f32> {
    let mut out = vec![0.0; 3 * channels];
    let b = (s as f32).sqrt();
    for c in 0..channels {
        let mut sum = 0.0;
        let mut max = f32::NEG_INFINITY;
        for pos in 0..s {
            let v = x[pos * channels + c];
            sum += v;
            max = max.max(v);
        }
        let mean = sum / s as f32;
        out[c] = mean;
        out[channels + c] = mean * (b - 14.0) * 0.1;
        out[2 * channels + c] = max;
    }
    out
}

/// The value head's pooling: mean, size-scaled mean, and a quadratic in the size.
fn value_pool(x: &[f32], channels: usize, s: usize) -> Vec<f32> {
    let mut out = vec![0.0; 3 * channels];
    let b = (s as f32).sqrt();
    for c in 0..channels {
        let mean = (0..s).map(|pos| x[pos * channels + c]).sum::<f32>() / s as f32;
        out[c] = mean;
        out[channels + c] = mean * (b - 14.0) * 0.1;
        out[2 * channels + c] = mean * ((b - 14.0) * (b - 14.0) * 0.01 - 0.1);
    }
    out
}

fn block(x: &mut [f32], batch: Batch, b: &Block) {
    match b {
        Block::Ordinary { first, second, .. } => {
            let h = nac(x, batch, first);
            let r = nac(&h, batch, second);
            give(h);
            x.iter_mut().zip(&r).for_each(|(a, b)| *a += b);
            give(r);
        }
        Block::GlobalPooling {
            pre_norm,
            pre_act,
            regular,
            gpool: gconv,
            gpool_norm,
            gpool_act,
            gpool_to_bias,
            second,
            ..
        } => {
            let mut h = copy(x);
            norm_act(&mut h, pre_norm.channels, pre_norm, pre_act.kind);
            let mut r = conv(&h, batch, regular);
            let mut g = conv(&h, batch, gconv);
            give(h);
            norm_act(&mut g, gpool_norm.channels, gpool_norm, gpool_act.kind);
            let pooled = pooled_rows(&g, gpool_norm.channels, batch, gpool);
            give(g);
            let bias = matmul(&pooled, batch.n, gpool_to_bias, true);
            add_bias_rows(&mut r, &bias, regular.outputs, batch);
            give(bias);
            let out = nac(&r, batch, second);
            give(r);
            x.iter_mut().zip(&out).for_each(|(a, b)| *a += b);
            give(out);
        }
        Block::NestedBottleneck { pre, blocks, post, .. } => {
            let mut h = nac(x, batch, pre);
            for inner in blocks {
                block(&mut h, batch, inner);
            }
            let out = nac(&h, batch, post);
            give(h);
            x.iter_mut().zip(&out).for_each(|(a, b)| *a += b);
            give(out);
        }
        Block::Attention(a) => attention(x, batch, a),
        Block::Ffn(f) => ffn(x, batch, f),
    }
}

/// Where symmetry `symmetry` (0–7, KataGo's numbering: bit 0 flips the rows, bit 1 the
/// columns, bit 2 transposes after the flips) sends position `pos` of a `size` board.
fn symmetric(pos: usize, size: usize, symmetry: u8) -> usize {
    let (mut y, mut x) = (pos / size, pos % size);
    if symmetry & 1 != 0 {
        y = size - 1 - y;
    }
    if symmetry & 2 != 0 {
        x = size - 1 - x;
    }
    if symmetry & 4 != 0 {
        std::mem::swap(&mut x, &mut y);
    }
    y * size + x
}

impl Model {
    /// Evaluates the network on the position seen through `symmetry` (0–7, KataGo's
    /// numbering), the outputs mapped back to the position's own points: `symmetry` 0 is
    /// [`Model::forward`].
    ///
    /// # Panics
    /// When the input's sizes do not fit the model, or `symmetry` exceeds 7.
    #[must_use]
    pub fn forward_symmetric(&self, input: &Input, symmetry: u8) -> RawOutput {
        self.forward_batch(&[(input, symmetry)]).pop().expect("one output for one input")
    }

    /// Evaluates the network on one position.
    ///
    /// # Panics
    /// When the input's sizes do not fit the model.
    #[must_use]
    pub fn forward(&self, input: &Input) -> RawOutput {
        self.forward_batch(&[(input, 0)]).pop().expect("one output for one input")
    }

    /// Evaluates the network on several positions of one board size at once, each seen
    /// through its symmetry as in [`Model::forward_symmetric`]: the same outputs (up to the
    /// order of floating-point sums), in the inputs' order, with one matrix product a layer
    /// for all of them.
    ///
    /// # Panics
    /// When an input's sizes do not fit the model, the inputs' board sizes differ, or a
    /// symmetry exceeds 7.
    #[must_use]
    pub fn forward_batch(&self, inputs: &[(&Input, u8)]) -> Vec<RawOutput> {
        let Some(&(first, _)) = inputs.first() else { return Vec::new() };
        let (size, c) = (first.size, self.spatial_inputs);
        let s = size * size;
        let batch = Batch { n: inputs.len(), size };
        let mut spatial = Vec::with_capacity(batch.rows() * c);
        let mut global = Vec::with_capacity(batch.n * self.global_inputs);
        for &(input, symmetry) in inputs {
            assert!(symmetry < 8, "symmetries are 0 to 7");
            assert_eq!(input.size, size, "one board size in a batch");
            assert_eq!(input.spatial.len(), s * c, "spatial inputs");
            assert_eq!(input.global.len(), self.global_inputs, "global inputs");
            let start = spatial.len();
            spatial.resize(start + s * c, 0.0);
            for pos in 0..s {
                let to = symmetric(pos, size, symmetry);
                spatial[start + to * c..][..c].copy_from_slice(&input.spatial[pos * c..][..c]);
            }
            global.extend_from_slice(&input.global);
        }
        let mut out = self.forward_rows(&spatial, &global, batch);
        for (raw, &(_, symmetry)) in out.iter_mut().zip(inputs) {
            if symmetry != 0 {
                let back = |v: &[f32]| (0..s).map(|pos| v[symmetric(pos, size, symmetry)]).collect::<Vec<f32>>();
                raw.policy = back(&raw.policy);
                raw.policy_optimistic = back(&raw.policy_optimistic);
                raw.ownership = back(&raw.ownership);
            }
        }
        out
    }

    /// The forward pass of `batch`'s positions, their spatial inputs' rows one after the
    /// other and their global inputs one row each.
    fn forward_rows(&self, spatial: &[f32], global: &[f32], batch: Batch) -> Vec<RawOutput> {
        let (s, n) = (batch.s(), batch.n);
        let t = &self.trunk;
        let c = t.channels;
        let mut x = conv(spatial, batch, &t.initial_conv);
        let g = matmul(global, n, &t.initial_matmul, true);
        add_bias_rows(&mut x, &g, c, batch);
        give(g);
        for b in &t.blocks {
            block(&mut x, batch, b);
        }
        match &t.tip {
            TrunkTip::Batch(norm) => norm_act(&mut x, c, norm, t.tip_act.kind),
            TrunkTip::Rms(r) => {
                let scale = |row: &mut [f32], inv: f32| {
                    for ((v, g), b) in row.iter_mut().zip(&r.gamma).zip(&r.beta) {
                        *v = *v * inv * g + b;
                    }
                };
                // Over each position's whole board, or over each point's channels.
                let (span, count) = if r.spatial { (s * c, c as f32 * s as f32 + r.epsilon) } else { (c, c as f32) };
                for part in x.chunks_exact_mut(span) {
                    let mean_sq = part.iter().map(|v| v * v).sum::<f32>() / count;
                    let inv = 1.0 / (mean_sq + r.epsilon).sqrt();
                    part.chunks_exact_mut(c).for_each(|row| scale(row, inv));
                }
                activate(&mut x, t.tip_act.kind);
            }
        }
        // Policy head.
        let p = &self.policy;
        let mut p1 = conv(&x, batch, &p.p1_conv);
        let mut g1 = conv(&x, batch, &p.g1_conv);
        norm_act(&mut g1, p.g1_norm.channels, &p.g1_norm, p.g1_act.kind);
        let pooled = pooled_rows(&g1, p.g1_norm.channels, batch, gpool);
        let bias = matmul(&pooled, n, &p.gpool_to_bias, true);
        add_bias_rows(&mut p1, &bias, p.p1_conv.outputs, batch);
        norm_act(&mut p1, p.p1_norm.channels, &p.p1_norm, p.p1_act.kind);
        let logits = conv(&p1, batch, &p.p2_conv);
        let channels = p.p2_conv.outputs;
        let mut pass = matmul(&pooled, n, &p.gpool_to_pass, true);
        if let Some((b, act, second)) = &p.pass_mlp {
            add_bias(&mut pass, &b.weights);
            activate(&mut pass, act.kind);
            pass = matmul(&pass, n, second, true);
        }
        let pass_width = pass.len() / n;
        // Value head.
        let v = &self.value;
        let mut v1 = conv(&x, batch, &v.v1_conv);
        norm_act(&mut v1, v.v1_norm.channels, &v.v1_norm, v.v1_act.kind);
        let pooled = pooled_rows(&v1, v.v1_norm.channels, batch, value_pool);
        let mut h = matmul(&pooled, n, &v.v2_mul, true);
        add_bias(&mut h, &v.v2_bias.weights);
        activate(&mut h, v.v2_act.kind);
        let mut value = matmul(&h, n, &v.v3_mul, true);
        add_bias(&mut value, &v.v3_bias.weights);
        let mut misc = matmul(&h, n, &v.sv3_mul, true);
        add_bias(&mut misc, &v.sv3_bias.weights);
        let ownership = conv(&v1, batch, &v.ownership_conv);
        give(x);
        give(p1);
        give(g1);
        give(v1);
        let (value_width, misc_width, own_width) = (value.len() / n, misc.len() / n, ownership.len() / n);
        let outputs = (0..n)
            .map(|i| {
                let logits = &logits[i * s * channels..][..s * channels];
                let pass = &pass[i * pass_width..][..pass_width];
                let value = &value[i * value_width..][..value_width];
                let mut m6 = [0.0; 6];
                for (m, v) in m6.iter_mut().zip(&misc[i * misc_width..][..misc_width]) {
                    *m = *v;
                }
                RawOutput {
                    policy: (0..s).map(|pos| logits[pos * channels]).collect(),
                    pass: pass[0],
                    policy_optimistic: (0..s).map(|pos| logits[pos * channels + channels - 1]).collect(),
                    pass_optimistic: pass[pass_width - 1],
                    value: [value[0], value[1], value[2]],
                    misc: m6,
                    ownership: ownership[i * own_width..][..own_width].to_vec(),
                }
            })
            .collect::<Vec<RawOutput>>();
        give(logits);
        give(ownership);
        outputs
    }
}

/// The network's outputs post-processed as KataGo does, for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Probability that the player to move wins.
    pub win: f32,
    /// Probability that they lose.
    pub loss: f32,
    /// Probability of no result.
    pub no_result: f32,
    /// Expected score difference (their points minus the opponent's, komi included).
    pub score_mean: f32,
    /// Expected square of it.
    pub score_mean_sq: f32,
    /// Expected lead.
    pub lead: f32,
    /// Variance-time estimate.
    pub var_time_left: f32,
    /// Expected error of the short-term win/loss value.
    pub shortterm_winloss_error: f32,
    /// Expected error of the short-term score.
    pub shortterm_score_error: f32,
    /// Move probabilities per point (0 where the move is illegal).
    pub policy: Vec<f32>,
    /// Probability of passing.
    pub pass: f32,
    /// Ownership per point, −1 (the opponent's) to +1 (the player's).
    pub ownership: Vec<f32>,
}

fn softplus(x: f64) -> f64 {
    if x > 20.0 { x } else { x.exp().ln_1p() }
}

impl Model {
    /// Turns raw outputs into probabilities and points (KataGo's post-processing for model
    /// versions 8 to 15). `legal` masks the policy (all points legal when `None`);
    /// `optimism` mixes in the optimistic policy channel (KataGo's `policyOptimism`, 0.2 in
    /// its GTP engine and `kata-raw-nn`).
    #[must_use]
    pub fn post_process(&self, raw: &RawOutput, legal: Option<&[bool]>, optimism: f32) -> Evaluation {
        let p = self.post_process;
        let max = raw.value.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let e: Vec<f64> = raw.value.iter().map(|&v| f64::from(v - max).exp()).collect();
        let sum: f64 = e.iter().sum();
        let (win, loss, no_result) = (e[0] / sum, e[1] / sum, e[2] / sum);
        let m: Vec<f64> = raw.misc.iter().map(|&v| f64::from(v)).collect();
        let score_mean = m[0] * f64::from(p.score_mean);
        let score_stdev = softplus(m[1]) * f64::from(p.score_stdev);
        let lead = m[2] * f64::from(p.lead);
        let var_time_left = softplus(m[3]) * f64::from(p.variance_time);
        let (st_wl, st_score) = if self.version >= 14 {
            let a = softplus(m[4] * 0.5);
            let b = softplus(m[5] * 0.5);
            ((a * a * f64::from(p.shortterm_value_error)).sqrt(), (b * b * f64::from(p.shortterm_score_error)).sqrt())
        } else if self.version >= 10 {
            (
                (softplus(m[4]) * f64::from(p.shortterm_value_error)).sqrt(),
                (softplus(m[5]) * f64::from(p.shortterm_score_error)).sqrt(),
            )
        } else {
            (softplus(m[4]), softplus(m[5]) * 10.0)
        };
        let result = 1.0 - no_result;
        // The policy: a softmax over the legal points and the pass.
        let mix = |a: f32, b: f32| (1.0 - optimism) * a + optimism * b;
        let logits: Vec<f32> = raw.policy.iter().zip(&raw.policy_optimistic).map(|(&a, &b)| mix(a, b)).collect();
        let pass_logit = mix(raw.pass, raw.pass_optimistic);
        let raw_pass = pass_logit;
        let n = logits.len();
        let is_legal = |i: usize| legal.is_none_or(|l| l[i]);
        let max = (0..n).filter(|&i| is_legal(i)).map(|i| logits[i]).fold(raw_pass, f32::max);
        let mut policy = vec![0.0f32; n];
        let mut total = f64::from(raw_pass - max).exp();
        for i in (0..n).filter(|&i| is_legal(i)) {
            let e = f64::from(logits[i] - max).exp();
            policy[i] = e as f32;
            total += e;
        }
        policy.iter_mut().for_each(|v| *v = (f64::from(*v) / total) as f32);
        let pass = (f64::from(raw_pass - max).exp() / total) as f32;
        Evaluation {
            win: win as f32,
            loss: loss as f32,
            no_result: no_result as f32,
            score_mean: (score_mean * result) as f32,
            score_mean_sq: ((score_mean * score_mean + score_stdev * score_stdev) * result) as f32,
            lead: (lead * result) as f32,
            var_time_left: var_time_left as f32,
            shortterm_winloss_error: st_wl as f32,
            shortterm_score_error: st_score as f32,
            policy,
            pass,
            ownership: raw.ownership.iter().map(|v| v.tanh()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::exp_approx;

    #[test]
    fn the_fast_exponential_is_within_3e_7_of_exp() {
        let mut worst = 0.0f64;
        for i in 0..=870_000 {
            let x = -(i as f32) * 1e-4;
            let want = f64::from(x).exp();
            if want < 1e-30 {
                continue;
            }
            worst = worst.max((f64::from(exp_approx(x)) - want).abs() / want);
        }
        assert!(worst < 3e-7, "relative error {worst}");
        for i in 0..=880 {
            let x = i as f32 * 0.1;
            let want = f64::from(x).exp();
            assert!((f64::from(exp_approx(x)) - want).abs() / want < 3e-7, "e^{x}");
        }
        assert_eq!(exp_approx(0.0), 1.0);
        assert!(exp_approx(-200.0) < 1e-37);
    }
}

//! What a model file describes: layers with their weights, blocks, the trunk and the heads.
//! Weights keep the file's order — convolutions `[y][x][in][out]`, matrix products
//! `[in][out]` — which is the order the forward pass multiplies in.

/// An activation function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `x`.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// `x · tanh(softplus(x))`.
    Mish,
    /// `x · sigmoid(x)`.
    Silu,
}

/// A named activation layer.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivationLayer {
    /// The layer's name in the file.
    pub name: String,
    /// Its function.
    pub kind: Activation,
}

/// A convolution without bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Conv {
    /// The layer's name in the file.
    pub name: String,
    /// Kernel height.
    pub ky: usize,
    /// Kernel width.
    pub kx: usize,
    /// Input channels.
    pub inputs: usize,
    /// Output channels.
    pub outputs: usize,
    /// Dilation in y and x.
    pub dilation: (usize, usize),
    /// `ky · kx · inputs · outputs` weights, in `[y][x][in][out]` order.
    pub weights: Vec<f32>,
    /// The weights laid out for the AVX-512 kernel (a `ky · kx · inputs` by `outputs`
    /// matrix), when the model runs on it.
    pub packed: Option<crate::Packed>,
}

/// A batch normalisation (or KataGo's fixed "bias mask"): `(x − mean) / sqrt(var + eps) ·
/// scale + bias`.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchNorm {
    /// The layer's name in the file.
    pub name: String,
    /// Channels.
    pub channels: usize,
    /// Epsilon.
    pub epsilon: f32,
    /// Whether the file holds a scale (else all 1).
    pub has_scale: bool,
    /// Whether the file holds a bias.
    pub has_bias: bool,
    /// Running means.
    pub mean: Vec<f32>,
    /// Running variances.
    pub variance: Vec<f32>,
    /// Scales.
    pub scale: Vec<f32>,
    /// Biases.
    pub bias: Vec<f32>,
}

/// The trunk's final RMS normalisation (trunk norm kind 1).
#[derive(Clone, Debug, PartialEq)]
pub struct RmsNormMask {
    /// The layer's name in the file.
    pub name: String,
    /// Channels.
    pub channels: usize,
    /// Epsilon.
    pub epsilon: f32,
    /// Normalise over the board as well as the channels (else per position).
    pub spatial: bool,
    /// Channel group size (0: one group).
    pub group_size: usize,
    /// Scales.
    pub gamma: Vec<f32>,
    /// Biases.
    pub beta: Vec<f32>,
}

/// An RMS normalisation over the channels at each position, as transformer blocks use it.
#[derive(Clone, Debug, PartialEq)]
pub struct RmsNorm {
    /// The layer's name in the file.
    pub name: String,
    /// Channels.
    pub channels: usize,
    /// Epsilon.
    pub epsilon: f32,
    /// Scales.
    pub weight: Vec<f32>,
}

/// A matrix product `x · W`.
#[derive(Clone, Debug, PartialEq)]
pub struct MatMul {
    /// The layer's name in the file.
    pub name: String,
    /// Input size.
    pub inputs: usize,
    /// Output size.
    pub outputs: usize,
    /// `inputs · outputs` weights, `[in][out]`.
    pub weights: Vec<f32>,
    /// The weights laid out for the AVX-512 kernel, when the model runs on it.
    pub packed: Option<crate::Packed>,
}

/// A bias vector added after a matrix product.
#[derive(Clone, Debug, PartialEq)]
pub struct MatBias {
    /// The layer's name in the file.
    pub name: String,
    /// The biases.
    pub weights: Vec<f32>,
}

/// Rotary position embedding of an attention block.
#[derive(Clone, Debug, PartialEq)]
pub enum Rope {
    /// None.
    None,
    /// Learned frequencies: `[kv head][pair][2]` (x and y frequency of each pair).
    Learned {
        /// The layer's name in the file.
        name: String,
        /// Heads.
        heads: usize,
        /// Pairs of dimensions per head.
        pairs: usize,
        /// The frequencies.
        freqs: Vec<f32>,
    },
    /// Fixed frequencies from a base.
    Theta {
        /// The layer's name in the file.
        name: String,
        /// The base.
        theta: f32,
    },
}

/// Multi-head self-attention over the board's points, with a pre-norm and a residual.
#[derive(Clone, Debug, PartialEq)]
pub struct Attention {
    /// The block's name.
    pub name: String,
    /// Query heads.
    pub heads: usize,
    /// Key/value heads.
    pub kv_heads: usize,
    /// Dimension of a query (and key) head.
    pub q_head_dim: usize,
    /// Dimension of a value head.
    pub v_head_dim: usize,
    /// The pre-norm.
    pub norm: RmsNorm,
    /// Query projection.
    pub q: MatMul,
    /// Key projection.
    pub k: MatMul,
    /// Value projection.
    pub v: MatMul,
    /// Output projection.
    pub out: MatMul,
    /// Rotary positions.
    pub rope: Rope,
    /// The rotations of every (position, key/value head, pair) as `(sin, cos)`, per board
    /// size, computed at the first evaluation on that size.
    pub rotations: PerSize<Vec<(f32, f32)>>,
}

/// A value per board size (0 to 25), computed once when first asked: a cache of what the
/// model's weights determine, so it takes no part in comparisons.
#[derive(Clone, Default)]
pub struct PerSize<T>([std::sync::OnceLock<T>; 26]);

impl<T> PerSize<T> {
    /// The value for `size`, computed by `f` the first time.
    ///
    /// # Panics
    /// When `size` exceeds 25.
    pub fn get_or_init(&self, size: usize, f: impl FnOnce() -> T) -> &T {
        self.0[size].get_or_init(f)
    }
}

impl<T> std::fmt::Debug for PerSize<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<usize> = (0..self.0.len()).filter(|&i| self.0[i].get().is_some()).collect();
        write!(f, "PerSize(computed for {sizes:?})")
    }
}

impl<T> PartialEq for PerSize<T> {
    fn eq(&self, _: &PerSize<T>) -> bool {
        true
    }
}

/// A feed-forward block (SwiGLU or plain), with a pre-norm and a residual.
#[derive(Clone, Debug, PartialEq)]
pub struct Ffn {
    /// The block's name.
    pub name: String,
    /// Channels in and out.
    pub channels: usize,
    /// Hidden channels.
    pub hidden: usize,
    /// The pre-norm.
    pub norm: RmsNorm,
    /// First projection.
    pub linear1: MatMul,
    /// The gate projection (SwiGLU), if any.
    pub gate: Option<MatMul>,
    /// Second projection.
    pub linear2: MatMul,
}

/// Normalisation, activation and convolution in a row, as blocks use them.
#[derive(Clone, Debug, PartialEq)]
pub struct NormActConv {
    /// The normalisation.
    pub norm: BatchNorm,
    /// The activation.
    pub act: ActivationLayer,
    /// The convolution.
    pub conv: Conv,
}

/// A residual block of the trunk.
// A model holds a few dozen blocks, built once: their size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Two normalised convolutions.
    Ordinary {
        /// The block's name.
        name: String,
        /// First step.
        first: NormActConv,
        /// Second step.
        second: NormActConv,
    },
    /// A normalised convolution whose output is biased by global pooling of a second one.
    GlobalPooling {
        /// The block's name.
        name: String,
        /// Pre-normalisation.
        pre_norm: BatchNorm,
        /// Its activation.
        pre_act: ActivationLayer,
        /// The regular convolution.
        regular: Conv,
        /// The pooled convolution.
        gpool: Conv,
        /// Its normalisation.
        gpool_norm: BatchNorm,
        /// Its activation.
        gpool_act: ActivationLayer,
        /// Pooled values (mean, scaled mean, max) to channel biases.
        gpool_to_bias: MatMul,
        /// The second step.
        second: NormActConv,
    },
    /// A bottleneck: a 1×1 convolution down, inner blocks, a 1×1 convolution up.
    NestedBottleneck {
        /// The block's name.
        name: String,
        /// Down.
        pre: NormActConv,
        /// The inner blocks.
        blocks: Vec<Block>,
        /// Up.
        post: NormActConv,
    },
    /// Self-attention.
    Attention(Box<Attention>),
    /// Feed-forward.
    Ffn(Box<Ffn>),
}

/// The trunk's final normalisation.
#[derive(Clone, Debug, PartialEq)]
pub enum TrunkTip {
    /// A batch normalisation.
    Batch(BatchNorm),
    /// An RMS normalisation.
    Rms(RmsNormMask),
}

/// The trunk.
#[derive(Clone, Debug, PartialEq)]
pub struct Trunk {
    /// Channels of the trunk.
    pub channels: usize,
    /// Channels inside blocks.
    pub mid_channels: usize,
    /// Regular channels of global-pooling blocks.
    pub regular_channels: usize,
    /// Pooled channels of global-pooling blocks.
    pub gpool_channels: usize,
    /// The input convolution over the spatial features.
    pub initial_conv: Conv,
    /// The global features to channel biases.
    pub initial_matmul: MatMul,
    /// The blocks.
    pub blocks: Vec<Block>,
    /// The final normalisation.
    pub tip: TrunkTip,
    /// Its activation.
    pub tip_act: ActivationLayer,
}

/// The policy head.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyHead {
    /// The head's name.
    pub name: String,
    /// Spatial convolution.
    pub p1_conv: Conv,
    /// Pooled convolution.
    pub g1_conv: Conv,
    /// Its normalisation.
    pub g1_norm: BatchNorm,
    /// Its activation.
    pub g1_act: ActivationLayer,
    /// Pooled values to channel biases.
    pub gpool_to_bias: MatMul,
    /// Normalisation of the biased spatial channels.
    pub p1_norm: BatchNorm,
    /// Their activation.
    pub p1_act: ActivationLayer,
    /// To the policy logits (1 or 2 channels: the move, the optimistic move).
    pub p2_conv: Conv,
    /// Pooled values to the pass logits (directly, or the first layer of an MLP).
    pub gpool_to_pass: MatMul,
    /// The pass MLP's bias, activation and second layer (version 15 on).
    pub pass_mlp: Option<(MatBias, ActivationLayer, MatMul)>,
}

/// The value head.
#[derive(Clone, Debug, PartialEq)]
pub struct ValueHead {
    /// The head's name.
    pub name: String,
    /// Spatial convolution.
    pub v1_conv: Conv,
    /// Its normalisation.
    pub v1_norm: BatchNorm,
    /// Its activation.
    pub v1_act: ActivationLayer,
    /// Pooled values to the hidden layer.
    pub v2_mul: MatMul,
    /// Hidden bias.
    pub v2_bias: MatBias,
    /// Hidden activation.
    pub v2_act: ActivationLayer,
    /// Hidden to win / loss / no result.
    pub v3_mul: MatMul,
    /// Their bias.
    pub v3_bias: MatBias,
    /// Hidden to the score values (score mean, stdev, lead, variance time, short-term errors).
    pub sv3_mul: MatMul,
    /// Their bias.
    pub sv3_bias: MatBias,
    /// Spatial features to ownership.
    pub ownership_conv: Conv,
}

/// Multipliers that turn the value head's raw score outputs into points (version 13 on;
/// fixed before).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PostProcess {
    /// TD score.
    pub td_score: f32,
    /// Score mean.
    pub score_mean: f32,
    /// Score standard deviation.
    pub score_stdev: f32,
    /// Score lead.
    pub lead: f32,
    /// Variance time.
    pub variance_time: f32,
    /// Short-term value error.
    pub shortterm_value_error: f32,
    /// Short-term score error.
    pub shortterm_score_error: f32,
}

/// A whole network.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The name the file gives.
    pub name: String,
    /// The model version (8 to 15).
    pub version: u32,
    /// Spatial input planes.
    pub spatial_inputs: usize,
    /// Global inputs.
    pub global_inputs: usize,
    /// Score multipliers.
    pub post_process: PostProcess,
    /// The trunk.
    pub trunk: Trunk,
    /// The policy head.
    pub policy: PolicyHead,
    /// The value head.
    pub value: ValueHead,
    /// The kernel its matrix products run on.
    pub kernel: crate::Kernel,
}

impl Model {
    /// The number of parameters as KataGo counts them: every weight, but of a batch
    /// normalisation only the scale and bias the file stores (not its running statistics).
    #[must_use]
    pub fn parameters(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |l| n += l.parameters);
        n
    }

    /// The number of floats the file holds.
    #[must_use]
    pub fn file_floats(&self) -> usize {
        let mut n = 0;
        self.visit(&mut |l| n += l.floats);
        n
    }

    /// The block kinds of the trunk, nested blocks inside brackets: e.g.
    /// `nested[attention ffn attention ffn]`.
    #[must_use]
    pub fn block_kinds(&self) -> Vec<String> {
        fn kind(b: &Block) -> String {
            match b {
                Block::Ordinary { .. } => "ordinary".into(),
                Block::GlobalPooling { .. } => "gpool".into(),
                Block::NestedBottleneck { blocks, .. } => {
                    format!("nested[{}]", blocks.iter().map(kind).collect::<Vec<_>>().join(" "))
                }
                Block::Attention(_) => "attention".into(),
                Block::Ffn(_) => "ffn".into(),
            }
        }
        self.trunk.blocks.iter().map(kind).collect()
    }

    fn visit(&self, f: &mut dyn FnMut(Count)) {
        let t = &self.trunk;
        conv(&t.initial_conv, f);
        mm(&t.initial_matmul, f);
        for b in &t.blocks {
            block(b, f);
        }
        match &t.tip {
            TrunkTip::Batch(n) => bn(n, f),
            TrunkTip::Rms(r) => f(Count { floats: 2 * r.channels, parameters: 2 * r.channels }),
        }
        let p = &self.policy;
        conv(&p.p1_conv, f);
        conv(&p.g1_conv, f);
        bn(&p.g1_norm, f);
        mm(&p.gpool_to_bias, f);
        bn(&p.p1_norm, f);
        conv(&p.p2_conv, f);
        mm(&p.gpool_to_pass, f);
        if let Some((b, _, m)) = &p.pass_mlp {
            f(Count { floats: b.weights.len(), parameters: b.weights.len() });
            mm(m, f);
        }
        let v = &self.value;
        conv(&v.v1_conv, f);
        bn(&v.v1_norm, f);
        mm(&v.v2_mul, f);
        f(Count { floats: v.v2_bias.weights.len(), parameters: v.v2_bias.weights.len() });
        mm(&v.v3_mul, f);
        f(Count { floats: v.v3_bias.weights.len(), parameters: v.v3_bias.weights.len() });
        mm(&v.sv3_mul, f);
        f(Count { floats: v.sv3_bias.weights.len(), parameters: v.sv3_bias.weights.len() });
        conv(&v.ownership_conv, f);
    }
}

/// Floats in the file and parameters as KataGo counts them, of one layer.
struct Count {
    floats: usize,
    parameters: usize,
}

fn conv(c: &Conv, f: &mut dyn FnMut(Count)) {
    f(Count { floats: c.weights.len(), parameters: c.weights.len() });
}
fn mm(m: &MatMul, f: &mut dyn FnMut(Count)) {
    f(Count { floats: m.weights.len(), parameters: m.weights.len() });
}
fn bn(n: &BatchNorm, f: &mut dyn FnMut(Count)) {
    let stored = usize::from(n.has_scale) + usize::from(n.has_bias);
    f(Count { floats: (2 + stored) * n.channels, parameters: stored * n.channels });
}
fn rms(n: &RmsNorm, f: &mut dyn FnMut(Count)) {
    f(Count { floats: n.channels, parameters: n.channels });
}
fn nac(n: &NormActConv, f: &mut dyn FnMut(Count)) {
    bn(&n.norm, f);
    conv(&n.conv, f);
}
fn block(b: &Block, f: &mut dyn FnMut(Count)) {
    match b {
        Block::Ordinary { first, second, .. } => {
            nac(first, f);
            nac(second, f);
        }
        Block::GlobalPooling { pre_norm, regular, gpool, gpool_norm, gpool_to_bias, second, .. } => {
            bn(pre_norm, f);
            conv(regular, f);
            conv(gpool, f);
            bn(gpool_norm, f);
            mm(gpool_to_bias, f);
            nac(second, f);
        }
        Block::NestedBottleneck { pre, blocks, post, .. } => {
            nac(pre, f);
            for b in blocks {
                block(b, f);
            }
            nac(post, f);
        }
        Block::Attention(a) => {
            rms(&a.norm, f);
            for m in [&a.q, &a.k, &a.v, &a.out] {
                mm(m, f);
            }
            if let Rope::Learned { freqs, .. } = &a.rope {
                f(Count { floats: freqs.len(), parameters: freqs.len() });
            }
        }
        Block::Ffn(x) => {
            rms(&x.norm, f);
            mm(&x.linear1, f);
            if let Some(g) = &x.gate {
                mm(g, f);
            }
            mm(&x.linear2, f);
        }
    }
}

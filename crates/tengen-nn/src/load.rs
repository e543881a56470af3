//! Reading a model file: gzip (or plain), then KataGo's grammar — whitespace-separated tokens
//! and `@BIN@` blocks of little-endian `f32` — layer by layer, as the exporter wrote it.

use std::io::Read;
use std::path::Path;

use crate::kernel::{Kernel, Packed};
use crate::model::*;

/// Why a model file could not be read. Nothing is half-loaded: the caller gets a model or
/// this.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened or decompressed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The contents do not follow the format.
    #[error("{layer}: {message} (at byte {offset} of the decompressed model)")]
    Format {
        /// The layer being read (or `header`).
        layer: String,
        /// What is wrong.
        message: String,
        /// Where, in the decompressed bytes.
        offset: usize,
    },
    /// The kernel asked for (`TENGEN_NN_KERNEL`) is unknown or not on this CPU.
    #[error("{0}")]
    Kernel(String),
}

/// The oldest and newest model versions read.
const VERSIONS: std::ops::RangeInclusive<u32> = 8..=15;

impl Model {
    /// Loads a `.bin.gz` (or uncompressed `.bin`) KataGo model, to run on the kernel
    /// [`Kernel::from_env`] chooses.
    ///
    /// # Errors
    /// [`LoadError`] naming the layer and the place where reading stopped.
    pub fn load(path: impl AsRef<Path>) -> Result<Model, LoadError> {
        Model::load_with(path, Kernel::from_env().map_err(LoadError::Kernel)?)
    }

    /// Loads a model to run on `kernel`.
    ///
    /// # Errors
    /// [`LoadError`] naming the layer and the place where reading stopped, or
    /// [`LoadError::Kernel`] when this CPU lacks `kernel`.
    pub fn load_with(path: impl AsRef<Path>, kernel: Kernel) -> Result<Model, LoadError> {
        let path = path.as_ref();
        let io = |source| LoadError::Io { path: path.display().to_string(), source };
        let raw = std::fs::read(path).map_err(io)?;
        let bytes = if raw.starts_with(&[0x1f, 0x8b]) {
            let mut out = Vec::with_capacity(raw.len() * 2);
            flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out).map_err(io)?;
            out
        } else {
            raw
        };
        Model::parse_with(&bytes, kernel)
    }

    /// Reads a model from its decompressed bytes, to run on the kernel [`Kernel::from_env`]
    /// chooses.
    ///
    /// # Errors
    /// [`LoadError::Format`].
    pub fn parse(bytes: &[u8]) -> Result<Model, LoadError> {
        Model::parse_with(bytes, Kernel::from_env().map_err(LoadError::Kernel)?)
    }

    /// Reads a model from its decompressed bytes, to run on `kernel`.
    ///
    /// # Errors
    /// [`LoadError::Format`], or [`LoadError::Kernel`] when this CPU lacks `kernel`.
    pub fn parse_with(bytes: &[u8], kernel: Kernel) -> Result<Model, LoadError> {
        if !kernel.available() {
            return Err(LoadError::Kernel(format!("this CPU has no {kernel}")));
        }
        let mut r = Reader { bytes, pos: 0, layer: "header".into(), kernel };
        let model = r.model()?;
        r.skip_space();
        if r.pos < bytes.len() {
            return Err(r.error("unexpected data after the value head"));
        }
        Ok(model)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    layer: String,
    kernel: Kernel,
}

impl Reader<'_> {
    fn error(&self, message: impl Into<String>) -> LoadError {
        LoadError::Format { layer: self.layer.clone(), message: message.into(), offset: self.pos }
    }

    /// A `k × n` weight matrix laid out for the kernel, where it wants that.
    fn pack(&self, weights: &[f32], k: usize, n: usize) -> Option<Packed> {
        (self.kernel != Kernel::Generic).then(|| Packed::new(self.kernel, weights, k, n, n, 1))
    }

    fn skip_space(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn token(&mut self, what: &str) -> Result<String, LoadError> {
        self.skip_space();
        let start = self.pos;
        while self.pos < self.bytes.len() && !self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(format!("the file ends where {what} should be")));
        }
        let t = &self.bytes[start..self.pos];
        if t.starts_with(b"@BIN@") {
            self.pos = start;
            return Err(self.error(format!("weights found where {what} should be")));
        }
        std::str::from_utf8(t).map(str::to_owned).map_err(|_| {
            self.pos = start;
            self.error(format!("{what} is not text"))
        })
    }

    fn int(&mut self, what: &str) -> Result<i64, LoadError> {
        let t = self.token(what)?;
        t.parse().map_err(|_| self.error(format!("{what}: an integer expected, not {t:?}")))
    }

    fn count(&mut self, what: &str) -> Result<usize, LoadError> {
        let n = self.int(what)?;
        if !(1..=1 << 20).contains(&n) {
            return Err(self.error(format!("{what} must be between 1 and 1048576, not {n}")));
        }
        Ok(n as usize)
    }

    fn flag(&mut self, what: &str) -> Result<bool, LoadError> {
        match self.int(what)? {
            0 => Ok(false),
            1 => Ok(true),
            n => Err(self.error(format!("{what} must be 0 or 1, not {n}"))),
        }
    }

    fn float(&mut self, what: &str) -> Result<f32, LoadError> {
        let t = self.token(what)?;
        t.parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| self.error(format!("{what}: a number expected, not {t:?}")))
    }

    /// `@BIN@` and `n` little-endian floats. Subnormal weights become 0, as KataGo reads them.
    fn floats(&mut self, n: usize) -> Result<Vec<f32>, LoadError> {
        let mut skipped = 0;
        while self.pos < self.bytes.len() && self.bytes[self.pos] != b'@' {
            if !self.bytes[self.pos].is_ascii_whitespace() || skipped > 100 {
                return Err(self.error(
                    "weights expected as a binary block (@BIN@); text-format models (.txt.gz) are not supported",
                ));
            }
            self.pos += 1;
            skipped += 1;
        }
        if !self.bytes[self.pos..].starts_with(b"@BIN@") {
            return Err(self.error("a binary block (@BIN@) expected"));
        }
        self.pos += 5;
        let end = n.checked_mul(4).and_then(|b| b.checked_add(self.pos)).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(self.error(format!("the file ends inside a block of {n} weights")));
        };
        let mut out = Vec::with_capacity(n);
        for chunk in self.bytes[self.pos..end].chunks_exact(4) {
            let x = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            if !x.is_finite() {
                return Err(self.error("a weight is not finite"));
            }
            out.push(if x.is_subnormal() { 0.0 } else { x });
        }
        self.pos = end;
        Ok(out)
    }

    /// Reads a layer's name and makes it the layer errors mention.
    fn name(&mut self, what: &str) -> Result<String, LoadError> {
        let n = self.token(what)?;
        self.layer.clone_from(&n);
        Ok(n)
    }

    fn conv(&mut self) -> Result<Conv, LoadError> {
        let name = self.name("a convolution's name")?;
        let ky = self.count("kernel height")?;
        let kx = self.count("kernel width")?;
        let inputs = self.count("input channels")?;
        let outputs = self.count("output channels")?;
        let dy = self.count("y dilation")?;
        let dx = self.count("x dilation")?;
        if ky % 2 == 0 || kx % 2 == 0 {
            return Err(self.error(format!("kernel {ky}×{kx}: sizes must be odd")));
        }
        let weights = self.floats(ky * kx * inputs * outputs)?;
        let packed = self.pack(&weights, ky * kx * inputs, outputs);
        Ok(Conv { name, ky, kx, inputs, outputs, dilation: (dy, dx), weights, packed })
    }

    fn batch_norm(&mut self) -> Result<BatchNorm, LoadError> {
        let name = self.name("a normalisation's name")?;
        let channels = self.count("channels")?;
        let epsilon = self.float("epsilon")?;
        if epsilon <= 0.0 {
            return Err(self.error(format!("epsilon {epsilon} must be positive")));
        }
        let has_scale = self.flag("has scale")?;
        let has_bias = self.flag("has bias")?;
        let mean = self.floats(channels)?;
        let variance = self.floats(channels)?;
        let scale = if has_scale { self.floats(channels)? } else { vec![1.0; channels] };
        // KataGo fills a missing bias with 1.0 (desc.cpp); exported models always have one.
        let bias = if has_bias { self.floats(channels)? } else { vec![1.0; channels] };
        Ok(BatchNorm { name, channels, epsilon, has_scale, has_bias, mean, variance, scale, bias })
    }

    fn activation(&mut self, version: u32) -> Result<ActivationLayer, LoadError> {
        let name = self.name("an activation's name")?;
        if version < 11 {
            return Ok(ActivationLayer { name, kind: Activation::Relu });
        }
        let kind = match self.token("the activation function")?.as_str() {
            "ACTIVATION_IDENTITY" => Activation::Identity,
            "ACTIVATION_RELU" => Activation::Relu,
            "ACTIVATION_MISH" => Activation::Mish,
            "ACTIVATION_SILU" => Activation::Silu,
            other => return Err(self.error(format!("unknown activation {other:?}"))),
        };
        Ok(ActivationLayer { name, kind })
    }

    fn matmul(&mut self) -> Result<MatMul, LoadError> {
        let name = self.name("a matrix product's name")?;
        let inputs = self.count("inputs")?;
        let outputs = self.count("outputs")?;
        let weights = self.floats(inputs * outputs)?;
        let packed = self.pack(&weights, inputs, outputs);
        Ok(MatMul { name, inputs, outputs, weights, packed })
    }

    fn matbias(&mut self) -> Result<MatBias, LoadError> {
        let name = self.name("a bias's name")?;
        let n = self.count("channels")?;
        let weights = self.floats(n)?;
        Ok(MatBias { name, weights })
    }

    fn rms_norm(&mut self) -> Result<RmsNorm, LoadError> {
        let name = self.name("an RMS normalisation's name")?;
        let channels = self.count("channels")?;
        let epsilon = self.float("epsilon")?;
        let weight = self.floats(channels)?;
        Ok(RmsNorm { name, channels, epsilon, weight })
    }

    fn rms_norm_mask(&mut self) -> Result<RmsNormMask, LoadError> {
        let name = self.name("the trunk's RMS normalisation")?;
        let channels = self.count("channels")?;
        let epsilon = self.float("epsilon")?;
        let spatial = self.flag("spatial")?;
        let group_size =
            usize::try_from(self.int("channel group size")?).map_err(|_| self.error("negative group size"))?;
        if group_size != 0 {
            return Err(self.error("grouped RMS normalisation is not supported"));
        }
        let gamma = self.floats(channels)?;
        let beta = self.floats(channels)?;
        Ok(RmsNormMask { name, channels, epsilon, spatial, group_size, gamma, beta })
    }

    fn norm_act_conv(&mut self, version: u32) -> Result<NormActConv, LoadError> {
        let norm = self.batch_norm()?;
        let act = self.activation(version)?;
        let conv = self.conv()?;
        if norm.channels != conv.inputs {
            return Err(self.error(format!("{} channels feed a convolution of {} inputs", norm.channels, conv.inputs)));
        }
        Ok(NormActConv { norm, act, conv })
    }

    fn blocks(&mut self, version: u32, n: usize, channels: usize) -> Result<Vec<Block>, LoadError> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let kind = self.token("a block kind")?;
            let block = match kind.as_str() {
                "ordinary_block" => {
                    let name = self.name("a block's name")?;
                    let first = self.norm_act_conv(version)?;
                    let second = self.norm_act_conv(version)?;
                    if first.norm.channels != channels || second.conv.outputs != channels {
                        return Err(self.error(format!("block {name} does not keep {channels} channels")));
                    }
                    Block::Ordinary { name, first, second }
                }
                "gpool_block" => {
                    let name = self.name("a block's name")?;
                    let pre_norm = self.batch_norm()?;
                    let pre_act = self.activation(version)?;
                    let regular = self.conv()?;
                    let gpool = self.conv()?;
                    let gpool_norm = self.batch_norm()?;
                    let gpool_act = self.activation(version)?;
                    let gpool_to_bias = self.matmul()?;
                    let second = self.norm_act_conv(version)?;
                    if gpool_to_bias.inputs != 3 * gpool_norm.channels || gpool_to_bias.outputs != regular.outputs {
                        return Err(self.error("the pooled bias does not fit the block's channels"));
                    }
                    if pre_norm.channels != channels || second.conv.outputs != channels {
                        return Err(self.error(format!("block {name} does not keep {channels} channels")));
                    }
                    Block::GlobalPooling {
                        name,
                        pre_norm,
                        pre_act,
                        regular,
                        gpool,
                        gpool_norm,
                        gpool_act,
                        gpool_to_bias,
                        second,
                    }
                }
                "nested_bottleneck_block" => {
                    let name = self.name("a block's name")?;
                    let inner = self.count("inner blocks")?;
                    let pre = self.norm_act_conv(version)?;
                    let blocks = self.blocks(version, inner, pre.conv.outputs)?;
                    let post = self.norm_act_conv(version)?;
                    if pre.norm.channels != channels || post.conv.outputs != channels {
                        return Err(self.error(format!("block {name} does not keep {channels} channels")));
                    }
                    Block::NestedBottleneck { name, pre, blocks, post }
                }
                "transformer_attention_block" => Block::Attention(Box::new(self.attention(channels)?)),
                "transformer_ffn_block" => Block::Ffn(Box::new(self.ffn(channels)?)),
                other => return Err(self.error(format!("unknown block kind {other:?}"))),
            };
            out.push(block);
        }
        Ok(out)
    }

    fn attention(&mut self, channels: usize) -> Result<Attention, LoadError> {
        let name = self.name("an attention block's name")?;
        let heads = self.count("heads")?;
        let kv_heads = self.count("key/value heads")?;
        let q_head_dim = self.count("query head size")?;
        let v_head_dim = self.count("value head size")?;
        let use_rope = self.flag("rotary positions")?;
        let learnable = self.flag("learned rotary positions")?;
        if heads % kv_heads != 0 {
            return Err(self.error(format!("{heads} heads cannot share {kv_heads} key/value heads")));
        }
        let norm = self.rms_norm()?;
        let q = self.matmul()?;
        let k = self.matmul()?;
        let v = self.matmul()?;
        let out = self.matmul()?;
        let sizes_ok = norm.channels == channels
            && q.inputs == channels
            && q.outputs == heads * q_head_dim
            && k.outputs == kv_heads * q_head_dim
            && v.outputs == kv_heads * v_head_dim
            && out.inputs == heads * v_head_dim
            && out.outputs == channels;
        if !sizes_ok {
            return Err(
                self.error(format!("the projections of {name} do not fit {heads}×{q_head_dim} on {channels} channels"))
            );
        }
        let rope = match (use_rope, learnable) {
            (false, _) => Rope::None,
            (true, true) => {
                let rname = self.name("the rotary frequencies' name")?;
                let h = self.count("rotary heads")?;
                let pairs = self.count("rotary pairs")?;
                let two = self.count("rotary axes")?;
                if h != kv_heads || two != 2 || 2 * pairs > q_head_dim {
                    return Err(self.error(format!("rotary frequencies {h}×{pairs}×{two} do not fit the heads")));
                }
                Rope::Learned { name: rname, heads: h, pairs, freqs: self.floats(h * pairs * 2)? }
            }
            (true, false) => {
                let rname = self.name("the rotary base's name")?;
                Rope::Theta { name: rname, theta: self.float("rotary base")? }
            }
        };
        Ok(Attention {
            name,
            heads,
            kv_heads,
            q_head_dim,
            v_head_dim,
            norm,
            q,
            k,
            v,
            out,
            rope,
            rotations: PerSize::default(),
        })
    }

    fn ffn(&mut self, channels: usize) -> Result<Ffn, LoadError> {
        let name = self.name("a feed-forward block's name")?;
        let c = self.count("channels")?;
        let hidden = self.count("hidden channels")?;
        let swiglu = self.flag("SwiGLU")?;
        let norm = self.rms_norm()?;
        let linear1 = self.matmul()?;
        let gate = if swiglu { Some(self.matmul()?) } else { None };
        let linear2 = self.matmul()?;
        let fits = |m: &MatMul, i: usize, o: usize| m.inputs == i && m.outputs == o;
        if c != channels
            || norm.channels != c
            || !fits(&linear1, c, hidden)
            || !gate.as_ref().is_none_or(|g| fits(g, c, hidden))
            || !fits(&linear2, hidden, c)
        {
            return Err(self.error(format!("the layers of {name} do not fit {c} → {hidden} → {c}")));
        }
        Ok(Ffn { name, channels: c, hidden, norm, linear1, gate, linear2 })
    }

    fn model(&mut self) -> Result<Model, LoadError> {
        let name = self.token("the model's name")?;
        let version = self.int("the model version")?;
        let version = u32::try_from(version).ok().filter(|v| VERSIONS.contains(v)).ok_or_else(|| {
            self.error(format!(
                "model version {version} is not supported (tengen reads versions {} to {})",
                VERSIONS.start(),
                VERSIONS.end()
            ))
        })?;
        let spatial_inputs = self.count("spatial inputs")?;
        let global_inputs = self.count("global inputs")?;
        let post_process = if version >= 13 {
            PostProcess {
                td_score: self.float("TD score multiplier")?,
                score_mean: self.float("score mean multiplier")?,
                score_stdev: self.float("score stdev multiplier")?,
                lead: self.float("lead multiplier")?,
                variance_time: self.float("variance time multiplier")?,
                shortterm_value_error: self.float("short-term value error multiplier")?,
                shortterm_score_error: self.float("short-term score error multiplier")?,
            }
        } else {
            PostProcess {
                td_score: 20.0,
                score_mean: 20.0,
                score_stdev: 20.0,
                lead: 20.0,
                variance_time: 40.0,
                shortterm_value_error: 0.25,
                shortterm_score_error: 30.0,
            }
        };
        if version >= 15 {
            let meta = self.int("the metadata encoder version")?;
            if meta != 0 {
                return Err(self.error("models with an SGF metadata encoder (human-style models) are not supported"));
            }
            for what in
                ["pass-alive flag", "territory flag", "reserved", "reserved", "reserved", "reserved", "reserved"]
            {
                if self.int(what)? != 0 {
                    return Err(self.error(format!("{what}: options this version of tengen does not know")));
                }
            }
        }
        self.layer = "trunk".into();
        if self.token("the trunk")? != "trunk" {
            return Err(self.error("\"trunk\" expected"));
        }
        let n_blocks = self.count("trunk blocks")?;
        let channels = self.count("trunk channels")?;
        let mid_channels = self.count("mid channels")?;
        let regular_channels = self.count("regular channels")?;
        let _dilated = self.int("dilated channels")?;
        let gpool_channels = self.count("pooled channels")?;
        let mut norm_kind = 0;
        if version >= 15 {
            norm_kind = self.int("trunk normalisation kind")?;
            for _ in 0..5 {
                if self.int("reserved")? != 0 {
                    return Err(self.error("trunk options this version of tengen does not know"));
                }
            }
        }
        let initial_conv = self.conv()?;
        let initial_matmul = self.matmul()?;
        if initial_conv.inputs != spatial_inputs || initial_conv.outputs != channels {
            return Err(self.error("the input convolution does not fit the inputs and the trunk"));
        }
        if initial_matmul.inputs != global_inputs || initial_matmul.outputs != channels {
            return Err(self.error("the global input layer does not fit the inputs and the trunk"));
        }
        let blocks = self.blocks(version, n_blocks, channels)?;
        let tip = match norm_kind {
            0 => TrunkTip::Batch(self.batch_norm()?),
            1 => TrunkTip::Rms(self.rms_norm_mask()?),
            k => return Err(self.error(format!("trunk normalisation kind {k} is not supported"))),
        };
        let tip_act = self.activation(version)?;
        let trunk = Trunk {
            channels,
            mid_channels,
            regular_channels,
            gpool_channels,
            initial_conv,
            initial_matmul,
            blocks,
            tip,
            tip_act,
        };
        let policy = self.policy(version)?;
        let value = self.value(version)?;
        Ok(Model {
            name,
            version,
            spatial_inputs,
            global_inputs,
            post_process,
            trunk,
            policy,
            value,
            kernel: self.kernel,
        })
    }

    fn policy(&mut self, version: u32) -> Result<PolicyHead, LoadError> {
        let name = self.name("the policy head")?;
        let p1_conv = self.conv()?;
        let g1_conv = self.conv()?;
        let g1_norm = self.batch_norm()?;
        let g1_act = self.activation(version)?;
        let gpool_to_bias = self.matmul()?;
        let p1_norm = self.batch_norm()?;
        let p1_act = self.activation(version)?;
        let p2_conv = self.conv()?;
        let gpool_to_pass = self.matmul()?;
        let pass_mlp = if version >= 15 {
            let bias = self.matbias()?;
            let act = self.activation(version)?;
            let second = self.matmul()?;
            Some((bias, act, second))
        } else {
            None
        };
        let policy_channels = if version >= 12 { 2 } else { 1 };
        if p2_conv.outputs != policy_channels {
            return Err(self.error(format!("{} policy channels, {policy_channels} expected", p2_conv.outputs)));
        }
        if gpool_to_bias.inputs != 3 * g1_norm.channels || gpool_to_pass.inputs != 3 * g1_norm.channels {
            return Err(self.error("the pooled layers do not fit the pooled channels"));
        }
        Ok(PolicyHead {
            name,
            p1_conv,
            g1_conv,
            g1_norm,
            g1_act,
            gpool_to_bias,
            p1_norm,
            p1_act,
            p2_conv,
            gpool_to_pass,
            pass_mlp,
        })
    }

    fn value(&mut self, version: u32) -> Result<ValueHead, LoadError> {
        let name = self.name("the value head")?;
        let v1_conv = self.conv()?;
        let v1_norm = self.batch_norm()?;
        let v1_act = self.activation(version)?;
        let v2_mul = self.matmul()?;
        let v2_bias = self.matbias()?;
        let v2_act = self.activation(version)?;
        let v3_mul = self.matmul()?;
        let v3_bias = self.matbias()?;
        let sv3_mul = self.matmul()?;
        let sv3_bias = self.matbias()?;
        let ownership_conv = self.conv()?;
        if v3_mul.outputs != 3 || ownership_conv.outputs != 1 {
            return Err(self.error("the value head must give 3 values and 1 ownership channel"));
        }
        Ok(ValueHead {
            name,
            v1_conv,
            v1_norm,
            v1_act,
            v2_mul,
            v2_bias,
            v2_act,
            v3_mul,
            v3_bias,
            sv3_mul,
            sv3_bias,
            ownership_conv,
        })
    }
}

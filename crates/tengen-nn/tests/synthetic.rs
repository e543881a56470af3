//! Small models written here in KataGo's format — every block kind, versions 8, 14 and 15 —
//! read back with their sizes and weights; and broken files refused with the layer named,
//! whatever the place they break (truncated at every byte, wrong tokens, bad weights).

use tengen_nn::{Activation, Block, LoadError, Model, Rope, TrunkTip};

/// Writes a model file token by token; weights count up so that each can be checked.
struct Writer {
    out: Vec<u8>,
    next: f32,
    version: u32,
}

impl Writer {
    fn line(&mut self, s: impl ToString) {
        self.out.extend_from_slice(s.to_string().as_bytes());
        self.out.push(b'\n');
    }
    fn floats(&mut self, n: usize) {
        self.out.extend_from_slice(b"@BIN@");
        for _ in 0..n {
            self.next += 0.25;
            self.out.extend_from_slice(&self.next.to_le_bytes());
        }
        self.out.push(b'\n');
    }
    fn conv(&mut self, name: &str, k: usize, i: usize, o: usize) {
        for t in [name.to_owned(), k.to_string(), k.to_string(), i.to_string(), o.to_string(), "1".into(), "1".into()] {
            self.line(t);
        }
        self.floats(k * k * i * o);
    }
    fn bn(&mut self, name: &str, c: usize, scale: bool) {
        self.line(name);
        self.line(c);
        self.line("1e-20");
        self.line(u8::from(scale));
        self.line(1);
        for _ in 0..3 + usize::from(scale) {
            self.floats(c);
        }
    }
    fn act(&mut self, name: &str) {
        self.line(name);
        if self.version >= 11 {
            self.line("ACTIVATION_SILU");
        }
    }
    fn mm(&mut self, name: &str, i: usize, o: usize) {
        self.line(name);
        self.line(i);
        self.line(o);
        self.floats(i * o);
    }
    fn mb(&mut self, name: &str, c: usize) {
        self.line(name);
        self.line(c);
        self.floats(c);
    }
    fn rms(&mut self, name: &str, c: usize) {
        self.line(name);
        self.line(c);
        self.line("1e-06");
        self.floats(c);
    }
    fn nac(&mut self, name: &str, i: usize, o: usize, k: usize) {
        self.bn(&format!("{name}.norm"), i, true);
        self.act(&format!("{name}.act"));
        self.conv(&format!("{name}.conv"), k, i, o);
    }
}

const C: usize = 8;
const MID: usize = 4;
const G: usize = 2;

/// A model of `version`: with `transformer`, one nested bottleneck of attention and FFN and
/// an RMS trunk tip; otherwise an ordinary block and a global-pooling block.
fn model(version: u32, transformer: bool) -> Vec<u8> {
    let mut w = Writer { out: Vec::new(), next: 0.0, version };
    w.line("tiny");
    w.line(version);
    w.line(22);
    w.line(19);
    if version >= 13 {
        for x in ["20.0", "20.0", "20.0", "20.0", "40.0", "0.25", "150.0"] {
            w.line(x);
        }
    }
    if version >= 15 {
        for _ in 0..8 {
            w.line(0);
        }
    }
    w.line("trunk");
    for x in [2, C, MID, MID - G, G, G] {
        w.line(x);
    }
    if version >= 15 {
        w.line(u8::from(transformer));
        for _ in 0..5 {
            w.line(0);
        }
    }
    w.conv("model.conv_spatial", 3, 22, C);
    w.mm("model.linear_global", 19, C);
    if transformer {
        for b in 0..2 {
            w.line("nested_bottleneck_block");
            w.line(format!("model.blocks.{b}"));
            w.line(2);
            w.nac(&format!("model.blocks.{b}.normactconvp"), C, MID, 1);
            w.line("transformer_attention_block");
            w.line(format!("model.blocks.{b}.blockstack.0"));
            for x in [2, 2, 2, 2, 1, 1] {
                w.line(x);
            }
            w.rms("norm1", MID);
            for p in ["q_proj", "k_proj", "v_proj", "out_proj"] {
                w.mm(p, MID, MID);
            }
            w.line("rope_freqs");
            for x in [2, 1, 2] {
                w.line(x);
            }
            w.floats(4);
            w.line("transformer_ffn_block");
            w.line(format!("model.blocks.{b}.blockstack.1"));
            for x in [MID, 6, 1] {
                w.line(x);
            }
            w.rms("norm", MID);
            w.mm("ffn_linear1", MID, 6);
            w.mm("ffn_linear_gate", MID, 6);
            w.mm("ffn_linear2", 6, MID);
            w.nac(&format!("model.blocks.{b}.normactconvq"), MID, C, 1);
        }
        w.line("model.norm_trunkfinal");
        w.line(C);
        w.line("1e-06");
        w.line(1);
        w.line(0);
        w.floats(C);
        w.floats(C);
    } else {
        w.line("ordinary_block");
        w.line("model.blocks.0");
        w.nac("model.blocks.0.normactconv1", C, MID, 3);
        w.nac("model.blocks.0.normactconv2", MID, C, 3);
        w.line("gpool_block");
        w.line("model.blocks.1");
        w.bn("pre", C, true);
        w.act("pre.act");
        w.conv("regular", 3, C, MID - G);
        w.conv("gpool", 3, C, G);
        w.bn("gpool.norm", G, true);
        w.act("gpool.act");
        w.mm("gpool.linear", 3 * G, MID - G);
        w.nac("second", MID - G, C, 3);
        w.bn("model.norm_trunkfinal", C, true);
    }
    w.act("model.act_trunkfinal");
    let pc = if version >= 12 { 2 } else { 1 };
    w.line("model.policy_head");
    w.conv("conv1p", 1, C, G);
    w.conv("conv1g", 1, C, G);
    w.bn("biasg", G, false);
    w.act("actg");
    w.mm("linear_g", 3 * G, G);
    w.bn("bias2", G, false);
    w.act("act2");
    w.conv("conv2p", 1, G, pc);
    if version >= 15 {
        w.mm("linear_pass", 3 * G, G);
        w.mb("linear_pass_bias", G);
        w.act("act_pass");
        w.mm("linear_pass2", G, pc);
    } else {
        w.mm("linear_pass", 3 * G, pc);
    }
    w.line("model.value_head");
    w.conv("conv1", 1, C, G);
    w.bn("bias1", G, false);
    w.act("act1");
    w.mm("linear2", 3 * G, 4);
    w.mb("bias2", 4);
    w.act("act2");
    w.mm("linear_valuehead", 4, 3);
    w.mb("bias_valuehead", 3);
    w.mm("linear_miscvaluehead", 4, 6);
    w.mb("bias_miscvaluehead", 6);
    w.conv("conv_ownership", 1, G, 1);
    w.out
}

#[test]
fn convolutional_models_of_versions_8_and_14() {
    for version in [8, 14] {
        let m = Model::parse(&model(version, false)).unwrap();
        assert_eq!((m.name.as_str(), m.version, m.spatial_inputs, m.global_inputs), ("tiny", version, 22, 19));
        assert_eq!(m.block_kinds(), ["ordinary", "gpool"]);
        let first = &m.trunk.initial_conv;
        assert_eq!((first.ky, first.kx, first.inputs, first.outputs), (3, 3, 22, C));
        // The first weights of the file, in order.
        assert_eq!(&first.weights[..3], &[0.25, 0.5, 0.75]);
        let Block::GlobalPooling { gpool_to_bias, .. } = &m.trunk.blocks[1] else { panic!("gpool block") };
        assert_eq!((gpool_to_bias.inputs, gpool_to_bias.outputs), (3 * G, MID - G));
        assert!(matches!(m.trunk.tip, TrunkTip::Batch(_)));
        let expected_act = if version >= 11 { Activation::Silu } else { Activation::Relu };
        assert_eq!(m.trunk.tip_act.kind, expected_act);
        assert_eq!(m.policy.p2_conv.outputs, if version >= 12 { 2 } else { 1 });
        assert!(m.policy.pass_mlp.is_none());
        // A missing scale is all ones.
        assert!(m.policy.g1_norm.scale.iter().all(|&s| s == 1.0) && !m.policy.g1_norm.has_scale);
        assert_eq!(m.post_process.shortterm_score_error, if version >= 13 { 150.0 } else { 30.0 });
    }
}

#[test]
fn a_transformer_model_of_version_15() {
    let bytes = model(15, true);
    let m = Model::parse(&bytes).unwrap();
    assert_eq!(m.block_kinds(), ["nested[attention ffn]", "nested[attention ffn]"]);
    let Block::NestedBottleneck { blocks, pre, post, .. } = &m.trunk.blocks[0] else { panic!("nested") };
    assert_eq!((pre.conv.inputs, pre.conv.outputs, post.conv.outputs), (C, MID, C));
    let Block::Attention(a) = &blocks[0] else { panic!("attention") };
    assert_eq!((a.heads, a.kv_heads, a.q_head_dim, a.v_head_dim), (2, 2, 2, 2));
    assert!(matches!(&a.rope, Rope::Learned { heads: 2, pairs: 1, freqs, .. } if freqs.len() == 4));
    let Block::Ffn(f) = &blocks[1] else { panic!("ffn") };
    assert_eq!((f.channels, f.hidden), (MID, 6));
    assert!(f.gate.is_some());
    let TrunkTip::Rms(r) = &m.trunk.tip else { panic!("rms tip") };
    assert!(r.spatial && r.gamma.len() == C && r.beta.len() == C);
    assert!(m.policy.pass_mlp.is_some());
    // Every float of the file is accounted for.
    assert_eq!(m.file_floats(), count_floats(&bytes));
}

/// Floats in a file written by [`Writer`]: its weights count up by 0.25.
fn count_floats(bytes: &[u8]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while let Some(at) = bytes[i..].windows(5).position(|w| w == b"@BIN@") {
        i += at + 5;
        while i + 4 <= bytes.len()
            && f32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) == 0.25 * (n + 1) as f32
        {
            n += 1;
            i += 4;
        }
    }
    n
}

fn format_error(bytes: &[u8]) -> (String, String) {
    match Model::parse(bytes) {
        Err(LoadError::Format { layer, message, .. }) => (layer, message),
        Err(e) => panic!("not a format error: {e}"),
        Ok(_) => panic!("a broken model was accepted"),
    }
}

#[test]
fn truncated_anywhere_is_refused_without_panic() {
    let bytes = model(15, true);
    // Every cut inside the file (a stride keeps the test short; every tenth byte).
    for cut in (0..bytes.len() - 1).step_by(10) {
        let r = std::panic::catch_unwind(|| Model::parse(&bytes[..cut]));
        let r = r.unwrap_or_else(|_| panic!("panic at cut {cut}"));
        assert!(r.is_err(), "a model cut at byte {cut} of {} was accepted", bytes.len());
    }
}

#[test]
fn bad_files_name_the_layer() {
    let good = model(15, true);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let replace = |from: &str, to: &str| -> Vec<u8> {
        let at = good.windows(from.len()).position(|w| w == from.as_bytes()).expect("token present");
        let mut b = good[..at].to_vec();
        b.extend_from_slice(to.as_bytes());
        b.extend_from_slice(&good[at + from.len()..]);
        b
    };
    let (_, msg) = format_error(&replace("tiny\n15\n", "tiny\n16\n"));
    assert!(msg.contains("version 16 is not supported"), "{msg}");
    let (layer, msg) = format_error(&replace("transformer_ffn_block", "transformer_moe_block"));
    assert!(msg.contains("unknown block kind \"transformer_moe_block\""), "{layer}: {msg}");
    let (layer, msg) = format_error(&replace("ACTIVATION_SILU", "ACTIVATION_GELU"));
    assert!(msg.contains("unknown activation") && layer.ends_with(".act"), "{layer}: {msg}");
    // A NaN weight.
    let mut nan = good.clone();
    let at = nan.windows(5).position(|w| w == b"@BIN@").unwrap() + 5;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let (layer, msg) = format_error(&nan);
    assert_eq!((layer.as_str(), msg.as_str()), ("model.conv_spatial", "a weight is not finite"));
    // Text-format weights.
    let mut t = text(&good);
    let first_bin = t.find("@BIN@").unwrap();
    t.replace_range(first_bin..first_bin + 5, "0.5 ");
    let (_, msg) = format_error(t.as_bytes());
    assert!(msg.contains("text-format"), "{msg}");
    // Trailing garbage.
    let mut extra = good.clone();
    extra.extend_from_slice(b"surprise\n");
    let (_, msg) = format_error(&extra);
    assert!(msg.contains("after the value head"), "{msg}");
    // Sizes that do not fit.
    let (_, msg) = format_error(&replace("model.linear_global\n19\n", "model.linear_global\n18\n"));
    assert!(msg.contains("does not fit") || msg.contains("global input"), "{msg}");
}

#[test]
fn a_missing_file_says_so() {
    let e = Model::load("/nonexistent/model.bin.gz").unwrap_err();
    assert!(e.to_string().starts_with("/nonexistent/model.bin.gz: "), "{e}");
}

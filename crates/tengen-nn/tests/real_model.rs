//! KataGo's real 10-block network (`b10c384h6nbttflrs`, model version 15, from KaTrain 1.20.0's
//! wheel on PyPI): every layer read, the architecture as published, and every float of the
//! file accounted for. `scripts/test` fetches the file into `target/models/`;
//! `TENGEN_KATAGO_MODEL` names another copy. Without it this test fails: it never skips.

use std::path::PathBuf;

use tengen_nn::{Activation, Block, Model, Rope, TrunkTip};

fn model_path() -> PathBuf {
    std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
        PathBuf::from,
    )
}

#[test]
fn the_b10c384_transformer_network_loads() {
    let path = model_path();
    assert!(
        path.exists(),
        "{} is missing: run scripts/test (which fetches it from KaTrain's wheel on PyPI) or set TENGEN_KATAGO_MODEL",
        path.display()
    );
    let started = std::time::Instant::now();
    let m = Model::load(&path).unwrap();
    eprintln!("loaded in {:.2} s", started.elapsed().as_secs_f64());
    assert_eq!((m.name.as_str(), m.version, m.spatial_inputs, m.global_inputs), ("b10c384h6nbttflrs", 15, 22, 19));
    let p = m.post_process;
    assert_eq!(
        (p.td_score, p.variance_time, p.shortterm_value_error, p.shortterm_score_error),
        (20.0, 40.0, 0.25, 150.0)
    );
    assert_eq!(
        (m.trunk.channels, m.trunk.mid_channels, m.trunk.regular_channels, m.trunk.gpool_channels),
        (384, 192, 144, 48)
    );
    assert_eq!(m.block_kinds(), vec!["nested[attention ffn attention ffn]".to_owned(); 10]);
    for b in &m.trunk.blocks {
        let Block::NestedBottleneck { pre, blocks, post, .. } = b else { panic!("nested bottleneck blocks") };
        assert_eq!((pre.conv.inputs, pre.conv.outputs, post.conv.inputs, post.conv.outputs), (384, 192, 192, 384));
        assert_eq!(pre.act.kind, Activation::Silu);
        for inner in blocks {
            match inner {
                Block::Attention(a) => {
                    assert_eq!((a.heads, a.kv_heads, a.q_head_dim, a.v_head_dim), (6, 6, 32, 32));
                    assert!(matches!(&a.rope, Rope::Learned { heads: 6, pairs: 16, .. }));
                }
                Block::Ffn(f) => assert_eq!((f.channels, f.hidden, f.gate.is_some()), (192, 512, true)),
                other => panic!("unexpected inner block {other:?}"),
            }
        }
    }
    let TrunkTip::Rms(tip) = &m.trunk.tip else { panic!("an RMS trunk tip") };
    assert!(tip.spatial && tip.channels == 384);
    assert_eq!(m.policy.p2_conv.outputs, 2);
    assert!(m.policy.pass_mlp.is_some());
    assert_eq!((m.value.v3_mul.outputs, m.value.sv3_mul.outputs), (3, 6));
    // Every float of the file (counted independently by walking its @BIN@ blocks) is read.
    assert_eq!(m.file_floats(), 10_557_657);
    // KataGo's own count, from its log when it loads this file: "10545753 params".
    assert_eq!(m.parameters(), 10_545_753);
}

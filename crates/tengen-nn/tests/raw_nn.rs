//! The forward pass against KataGo's own outputs (`kata-raw-nn 0`, recorded by
//! `scripts/katago-oracle` in `tests/data/raw-nn/`): win, loss and policy within 1e-4, score
//! lead and ownership within 1e-3.

use std::path::PathBuf;

use tengen_nn::{Input, Model};

fn model() -> Model {
    let path = std::env::var_os("TENGEN_KATAGO_MODEL").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/models/b10c384h6nbttflrs.bin.gz"),
        PathBuf::from,
    );
    assert!(path.exists(), "{} is missing: run scripts/test or set TENGEN_KATAGO_MODEL", path.display());
    Model::load(&path).unwrap()
}

/// One recorded `kata-raw-nn 0` answer.
struct Oracle {
    values: std::collections::HashMap<String, f32>,
    policy: Vec<f32>,
    ownership: Vec<f32>,
}

fn oracle(name: &str) -> Oracle {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/raw-nn").join(name))
        .unwrap();
    let body = text.split("# output\n").nth(1).unwrap();
    let mut values = std::collections::HashMap::new();
    let (mut policy, mut ownership) = (Vec::new(), Vec::new());
    let mut section = "";
    for line in body.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["policy"] => section = "policy",
            ["whiteOwnership"] => section = "ownership",
            [key, v] if key.chars().all(char::is_alphabetic) => {
                values.insert((*key).to_owned(), v.parse().unwrap());
            }
            nums if !nums.is_empty() && nums.iter().all(|w| w.parse::<f32>().is_ok()) => {
                let row = nums.iter().map(|w| w.parse::<f32>().unwrap());
                if section == "policy" { policy.extend(row) } else { ownership.extend(row) }
            }
            _ => {}
        }
    }
    Oracle { values, policy, ownership }
}

#[test]
fn the_empty_9x9_board_with_komi_7_5() {
    let m = model();
    let size = 9;
    let s = size * size;
    // Black to move on an empty board: only the on-board plane is set; globals: komi from
    // Black's side (−7.5/20), positional superko, area scoring, and the komi parity wave.
    let mut spatial = vec![0.0; s * m.spatial_inputs];
    for pos in 0..s {
        spatial[pos * m.spatial_inputs] = 1.0;
    }
    let mut global = vec![0.0; m.global_inputs];
    global[5] = -7.5 / 20.0;
    global[6] = 1.0;
    global[7] = 0.5;
    global[18] = -0.5;
    let raw = m.forward(&Input { size, spatial, global });
    // kata-raw-nn mixes the optimistic policy in with weight 0.2, as KataGo's GTP engine does.
    let e = m.post_process(&raw, None, 0.2);
    let o = oracle("empty-9x9-komi7.5.txt");
    // Black is to move: White's view is the opposite.
    let worst = std::cell::RefCell::new(std::collections::BTreeMap::<&str, f32>::new());
    let close = |what: &str, ours: f32, theirs: f32, tol: f32| {
        assert!((ours - theirs).abs() <= tol, "{what}: tengen {ours}, KataGo {theirs}");
        let kind = what.split(' ').next().unwrap_or(what);
        let kind: &str = Box::leak(kind.to_owned().into_boxed_str());
        let mut w = worst.borrow_mut();
        let e = w.entry(kind).or_insert(0.0);
        *e = e.max((ours - theirs).abs());
    };
    close("whiteWin", e.loss, o.values["whiteWin"], 1e-4);
    close("whiteLoss", e.win, o.values["whiteLoss"], 1e-4);
    close("whiteLead", -e.lead, o.values["whiteLead"], 1e-3);
    close("whiteScoreSelfplay", -e.score_mean, o.values["whiteScoreSelfplay"], 1e-3);
    close("policyPass", e.pass, o.values["policyPass"], 1e-4);
    close("whiteScoreSelfplaySq", e.score_mean_sq, o.values["whiteScoreSelfplaySq"], 1e-2);
    close("varTimeLeft", e.var_time_left, o.values["varTimeLeft"], 1e-3);
    close("shorttermWinlossError", e.shortterm_winloss_error, o.values["shorttermWinlossError"], 1e-3);
    close("shorttermScoreError", e.shortterm_score_error, o.values["shorttermScoreError"], 1e-3);
    for (i, (ours, theirs)) in e.policy.iter().zip(&o.policy).enumerate() {
        close(&format!("policy {i}"), *ours, *theirs, 1e-4);
    }
    for (i, (ours, theirs)) in e.ownership.iter().zip(&o.ownership).enumerate() {
        close(&format!("ownership {i}"), -*ours, *theirs, 1e-3);
    }
    assert_eq!((e.policy.len(), o.policy.len(), o.ownership.len()), (s, s, s));
    eprintln!("largest differences: {:?}", worst.borrow());
}

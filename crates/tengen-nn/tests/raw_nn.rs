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

/// The commands of a fixture (before its output).
fn commands(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/raw-nn").join(name))
        .unwrap();
    let head = text.split("# output\n").next().unwrap();
    head.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()).map(str::to_owned).collect()
}

/// KataGo's komi parity wave (global input 18) for `self_komi` on a board of `area` points.
fn wave(self_komi: f32, area: usize) -> f32 {
    let floor =
        if area % 2 == 0 { (self_komi / 2.0).floor() * 2.0 } else { ((self_komi - 1.0) / 2.0).floor() * 2.0 + 1.0 };
    let delta = (self_komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}

/// Compares tengen with a fixture of an empty board (possibly after a pass), which needs no
/// stone features: the inputs are the on-board plane, the pass history and the globals.
fn check_empty_board(name: &str) {
    let m = model();
    let (mut size, mut komi, mut white_to_move) = (19, 7.5f32, false);
    for c in commands(name) {
        let w: Vec<&str> = c.split_whitespace().collect();
        match w.as_slice() {
            ["boardsize", n] => size = n.parse().unwrap(),
            ["komi", k] => komi = k.parse().unwrap(),
            ["play", "B", "pass"] => white_to_move = true,
            other => panic!("{name}: command {other:?} not supported by this test"),
        }
    }
    let s = size * size;
    let mut spatial = vec![0.0; s * m.spatial_inputs];
    for pos in 0..s {
        spatial[pos * m.spatial_inputs] = 1.0;
    }
    let self_komi = if white_to_move { komi } else { -komi };
    let mut global = vec![0.0; m.global_inputs];
    if white_to_move {
        global[0] = 1.0; // the opponent's last move was a pass
        global[14] = 1.0; // so a pass would end the game
    }
    global[5] = self_komi / 20.0;
    global[6] = 1.0;
    global[7] = 0.5;
    global[18] = wave(self_komi, s);
    let raw = m.forward(&Input { size, spatial, global });
    // kata-raw-nn mixes the optimistic policy in with weight 0.2, as KataGo's GTP engine does.
    let e = m.post_process(&raw, None, 0.2);
    let o = oracle(name);
    // The network speaks for the player to move; KataGo prints White's view.
    let (white_win, white_loss, sign) = if white_to_move { (e.win, e.loss, 1.0) } else { (e.loss, e.win, -1.0) };
    let worst = std::cell::RefCell::new(std::collections::BTreeMap::<String, f32>::new());
    let close = |what: &str, ours: f32, theirs: f32, tol: f32| {
        assert!((ours - theirs).abs() <= tol, "{name}: {what}: tengen {ours}, KataGo {theirs}");
        let kind = what.split(' ').next().unwrap_or(what).to_owned();
        let mut w = worst.borrow_mut();
        let e = w.entry(kind).or_insert(0.0);
        *e = e.max((ours - theirs).abs());
    };
    close("whiteWin", white_win, o.values["whiteWin"], 1e-4);
    close("whiteLoss", white_loss, o.values["whiteLoss"], 1e-4);
    close("whiteLead", sign * e.lead, o.values["whiteLead"], 1e-3);
    close("whiteScoreSelfplay", sign * e.score_mean, o.values["whiteScoreSelfplay"], 1e-3);
    close("whiteScoreSelfplaySq", e.score_mean_sq, o.values["whiteScoreSelfplaySq"], 1e-2);
    close("varTimeLeft", e.var_time_left, o.values["varTimeLeft"], 2e-3);
    close("shorttermWinlossError", e.shortterm_winloss_error, o.values["shorttermWinlossError"], 1e-3);
    close("shorttermScoreError", e.shortterm_score_error, o.values["shorttermScoreError"], 1e-3);
    close("policyPass", e.pass, o.values["policyPass"], 1e-4);
    assert_eq!((e.policy.len(), o.policy.len(), o.ownership.len()), (s, s, s));
    for (i, (ours, theirs)) in e.policy.iter().zip(&o.policy).enumerate() {
        close(&format!("policy {i}"), *ours, *theirs, 1e-4);
    }
    for (i, (ours, theirs)) in e.ownership.iter().zip(&o.ownership).enumerate() {
        close(&format!("ownership {i}"), sign * ours, *theirs, 1e-3);
    }
    eprintln!("{name}: largest differences {:?}", worst.borrow());
}

#[test]
fn empty_boards_of_three_sizes_and_a_pass() {
    for name in ["empty-9x9-komi7.5.txt", "empty-13x13-komi7.5.txt", "empty-19x19-komi7.5.txt", "pass-9x9-komi5.5.txt"]
    {
        check_empty_board(name);
    }
}

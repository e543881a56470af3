//! The history-dependent names (class H: 滚打, 找劫, 应劫): the three examples of terms.md
//! with their preludes written out, and near misses without the history they need.

use serde_json::{Value, json};

mod common;

fn names(req: &Value) -> String {
    common::names(req).join(" ")
}

#[test]
fn squeeze_after_a_throw_in_and_its_capture() {
    // terms.md §11.9: Black threw in at G1, White took at F1; Black H3 ataris again.
    let black = ["E3", "F3", "G3", "D2", "J2", "D1", "J1"];
    let white = ["E2", "F2", "G2", "H2", "E1", "H1"];
    let req = json!({"size": 13, "black": black, "white": white,
        "prelude": [["B", "G1"], ["W", "F1"]], "move": "H3"});
    assert_eq!(names(&req), "滚打 打吃 挡 边");
    // The same position without the history: no 滚打.
    let mut white_now = white.to_vec();
    white_now.push("F1");
    let req = json!({"size": 13, "black": black, "white": white_now, "to_play": "B", "move": "H3"});
    assert_eq!(names(&req), "打吃 挡 边");
}

#[test]
fn ko_threat_after_the_opponent_took_a_ko() {
    // §12.2: White took the ko at Q3 (capturing P3); Black's atari elsewhere is a ko threat.
    let req = json!({"size": 19, "black": ["R3", "Q4", "Q2", "P3", "D17", "C16"], "white": ["P4", "P2", "O3", "D16"],
        "prelude": [["W", "Q3"]], "move": "E16"});
    assert_eq!(names(&req), "打吃 找劫 劫材 扳 夹 高目 角");
    // After an ordinary last move it is only an atari.
    let req = json!({"size": 19, "black": ["R3", "Q4", "Q2", "P3", "D17", "C16"], "white": ["P4", "P2", "O3", "D16"],
        "prelude": [["W", "K10"]], "move": "E16"});
    assert_eq!(names(&req), "打吃 扳 夹 高目 角");
}

#[test]
fn answering_a_ko_threat() {
    // §12.3: Black retook the ko at P3 (capturing Q3), White threatened at E16, Black answers.
    let black = ["R3", "Q4", "Q2", "D16"];
    let white = ["P4", "P2", "O3", "Q3", "D17", "C16"];
    let req = json!({"size": 19, "black": black, "white": white,
        "prelude": [["B", "P3"], ["W", "E16"]], "move": "D15"});
    assert_eq!(names(&req), "应劫 挺 高目 角");
    // An answer far from the threat is not 应劫.
    let req = json!({"size": 19, "black": black, "white": white,
        "prelude": [["B", "P3"], ["W", "E16"]], "move": "K10"});
    assert!(!names(&req).contains("应劫"));
}

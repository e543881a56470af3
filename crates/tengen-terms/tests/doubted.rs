//! Names a teacher doubted, each a position with the name the seeds' words give (terms.md and
//! its seed definitions decide).

use serde_json::{Value, json};
use tengen_terms::answer;

fn names(req: &Value) -> Vec<String> {
    let a: Value = serde_json::from_str(&answer(&req.to_string())).unwrap();
    a["terms"]
        .as_array()
        .unwrap_or_else(|| panic!("no terms in {a}"))
        .iter()
        .map(|t| t["zh"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_shoulder_hit_is_on_the_centre_side_with_both_shoulders_empty() {
    // White's 3-5 stone C15 in the upper-left corner: E14 hits its shoulder from the centre's
    // side; D16, on the diagonal towards the corner's edge, does not.
    let stone = |mv: &str| json!({"size": 19, "black": ["Q4"], "white": ["C15"], "to_play": "B", "move": mv});
    assert!(names(&stone("D14")).contains(&"肩冲".to_owned()), "{:?}", names(&stone("D14")));
    assert!(!names(&stone("D16")).contains(&"肩冲".to_owned()), "{:?}", names(&stone("D16")));
    // A shoulder already taken by a stone: no shoulder hit (terms.md §10.1).
    let req = json!({"size": 19, "black": ["D4", "Q11"], "white": ["Q10"], "to_play": "B", "move": "P11"});
    assert!(!names(&req).contains(&"肩冲".to_owned()), "{:?}", names(&req));
    let req = json!({"size": 19, "black": ["D4"], "white": ["Q10"], "to_play": "B", "move": "P11"});
    assert!(names(&req).contains(&"肩冲".to_owned()), "{:?}", names(&req));
}

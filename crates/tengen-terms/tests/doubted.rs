//! Names a teacher doubted, each a position with the name the seeds' words give (terms.md and
//! its seed definitions decide).

use serde_json::json;

mod common;
use common::names;

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

#[test]
fn a_bridge_links_along_the_edge_a_plain_connection_does_not() {
    // K2 joins Black's K3 above it to L2 beside it, under White's J3: a plain connection.
    let req = json!({"size": 19, "black": ["K3", "L2", "D16"], "white": ["J3", "Q16"], "to_play": "B", "move": "K2"});
    assert!(!names(&req).contains(&"渡".to_owned()), "{:?}", names(&req));
    // N2 links L2 and O2 along the edge under White's M3 and N3 (terms.md §7.3).
    let req = json!({"size": 19, "black": ["L2", "O2"], "white": ["M3", "N3"], "to_play": "B", "move": "N2"});
    assert!(names(&req).contains(&"渡".to_owned()), "{:?}", names(&req));
    // F1 links E2 and G2 (diagonal on either side) under White's F2.
    let req =
        json!({"size": 9, "black": ["E2", "E3", "G2", "H2"], "white": ["F2", "F3"], "to_play": "B", "move": "F1"});
    assert!(names(&req).contains(&"渡".to_owned()), "{:?}", names(&req));
}

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

#[test]
fn a_stone_out_of_atari_extends_and_a_step_to_the_edge_descends() {
    // Black D5 is hemmed in by White D6, C5 and E5: D4 leads it out of atari (长), no retreat.
    let req = json!({"size": 9, "black": ["D5"], "white": ["D6", "C5", "E5"], "to_play": "B", "move": "D4"});
    let n = names(&req);
    assert!(n.contains(&"长".to_owned()) && !n.contains(&"退".to_owned()), "{n:?}");
    // With two liberties the same step draws back (terms.md §7.4.3).
    let req = json!({"size": 9, "black": ["D5"], "white": ["D6", "C5"], "to_play": "B", "move": "D4"});
    assert!(names(&req).contains(&"退".to_owned()), "{:?}", names(&req));
    // Q2 under White's Q3 steps to the first line: 立 (seed: "竖着向边线方向下一子"), not 退.
    let req = json!({"size": 19, "black": ["Q2", "D4"], "white": ["Q3", "D16"], "to_play": "B", "move": "Q1"});
    let n = names(&req);
    assert!(n.contains(&"立".to_owned()) && !n.contains(&"退".to_owned()), "{n:?}");
}

#[test]
fn a_hane_in_front_of_a_crawl_is_also_a_block() {
    // White crawls along the second line (C2, D2); Black D3 above; E2 stops the crawl.
    let req = json!({"size": 19, "black": ["D3", "Q16"], "white": ["C2", "D2", "Q4"], "to_play": "B", "move": "E2"});
    let n = names(&req);
    assert!(n.contains(&"扳".to_owned()) && n.contains(&"挡".to_owned()), "{n:?}");
    // A hane at the head of two stones towards the centre is 扳 only.
    let req = json!({"size": 19, "black": ["L10", "D4"], "white": ["K10", "K9", "Q16"], "to_play": "B", "move": "K11"});
    let n = names(&req);
    assert!(n.contains(&"扳".to_owned()) && !n.contains(&"挡".to_owned()), "{n:?}");
}

#[test]
fn a_tiger_that_touches_a_stone_is_also_an_attachment() {
    // Black D4 and E3 make a tiger's mouth at E4 with E5, which touches White E6: 虎 and 靠
    // (seed: contact "在有己方棋子作策应的情况下"); an own diagonal no longer rules it out.
    let req = json!({"size": 19, "black": ["D4", "E3", "Q4"], "white": ["E6", "Q16"], "to_play": "B", "move": "E5"});
    let n = names(&req);
    assert!(n.contains(&"虎".to_owned()) && n.contains(&"靠".to_owned()), "{n:?}");
    // A diagonal step that touches a stone in front is 尖顶 (terms.md §7.2), no attachment.
    let req = json!({"size": 19, "black": ["D4", "Q4"], "white": ["F5", "Q16"], "to_play": "B", "move": "E5"});
    let n = names(&req);
    assert!(n.contains(&"尖顶".to_owned()) && !n.contains(&"靠".to_owned()), "{n:?}");
    // A hane stays a hane: no attachment name beside 扳.
    let req = json!({"size": 19, "black": ["D4", "Q4"], "white": ["E4", "Q16"], "to_play": "B", "move": "E5"});
    let n = names(&req);
    assert!(n.contains(&"扳".to_owned()) && !n.iter().any(|x| ["靠", "碰", "搭", "托"].contains(&x.as_str())), "{n:?}");
}

#[test]
fn a_one_space_jump_along_the_side_in_a_fight_is_a_jump() {
    // Black C10 jumps to C12 beside White's D13: 跳, not the opening's 拆一.
    let req = json!({"size": 19, "black": ["C10", "Q4"], "white": ["D13", "Q16"], "to_play": "B", "move": "C12"});
    let n = names(&req);
    assert!(n.contains(&"跳".to_owned()) && !n.contains(&"拆一".to_owned()), "{n:?}");
    // With no opponent near, the same move extends (拆一).
    let req = json!({"size": 19, "black": ["C10", "Q4"], "white": ["Q16"], "to_play": "B", "move": "C12"});
    assert!(names(&req).contains(&"拆一".to_owned()), "{:?}", names(&req));
}

#[test]
fn a_cap_covers_a_stone_that_could_head_for_the_centre() {
    // White K3 on the third line: K5 caps it.
    let req = json!({"size": 19, "black": ["D4", "Q16"], "white": ["K3", "Q4"], "to_play": "B", "move": "K5"});
    assert!(names(&req).contains(&"镇".to_owned()), "{:?}", names(&req));
    // A second-line stone is not capped by a move two lines above it.
    let req = json!({"size": 19, "black": ["D4", "Q16"], "white": ["K2", "Q4"], "to_play": "B", "move": "K4"});
    assert!(!names(&req).contains(&"镇".to_owned()), "{:?}", names(&req));
    // Nor a long wall.
    let req = json!({"size": 19, "black": ["D4", "Q16"], "white": ["H3", "J3", "K3", "L3", "M3", "Q4"], "to_play": "B", "move": "K5"});
    assert!(!names(&req).contains(&"镇".to_owned()), "{:?}", names(&req));
}

#[test]
fn a_placement_at_the_vital_point_of_an_open_shape() {
    // White E6, D4 and F4 around E5, no Black stone near: every side of E5 is closed, so 点,
    // not an attachment.
    let req =
        json!({"size": 19, "black": ["Q4", "Q16"], "white": ["E6", "D4", "F4", "D16"], "to_play": "B", "move": "E5"});
    let n = names(&req);
    assert!(n.contains(&"点".to_owned()) && !n.contains(&"碰".to_owned()), "{n:?}");
    // Open on the left (no D4): an attachment.
    let req = json!({"size": 19, "black": ["Q4", "Q16"], "white": ["E6", "F4", "D16"], "to_play": "B", "move": "E5"});
    assert!(!names(&req).contains(&"点".to_owned()), "{:?}", names(&req));
}

#[test]
fn an_atari_after_a_capture_that_makes_no_clump_is_no_squeeze() {
    // Black ataried K10 (K9); White captured F5 at F6; Black F7 ataris F6, but White F5
    // joins the surrounding stones into a chain with many liberties: 打吃, not 滚打.
    let req = json!({"size": 13,
        "black": ["J10", "K11", "F5", "E6", "G6"], "white": ["K10", "E5", "F4", "G5"],
        "prelude": [["B", "K9"], ["W", "F6"]], "move": "F7"});
    let n = names(&req);
    assert!(n.contains(&"打吃".to_owned()) && !n.contains(&"滚打".to_owned()), "{n:?}");
}

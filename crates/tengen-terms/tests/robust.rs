//! Any request line gets one JSON answer and never a panic: random text, random JSON, and
//! well-formed requests on random positions reached by random legal play (every point asked
//! as a move, an eye space, an eye, a point and a chain).

use proptest::prelude::*;
use rand::{Rng, SeedableRng, rngs::SmallRng};
use serde_json::{Value, json};
use tengen_core::{Color, Game, Move, Rules};
use tengen_terms::answer;

fn is_one_json_value(s: &str) -> bool {
    !s.contains('\n') && serde_json::from_str::<Value>(s).is_ok()
}

proptest! {
    #[test]
    fn random_text_gets_an_error(line in ".{0,200}") {
        let a = answer(&line);
        prop_assert!(is_one_json_value(&a), "{a}");
    }

    #[test]
    fn random_fields_get_an_answer(
        size in 0usize..30,
        black in proptest::collection::vec("[A-Za-z]{1,2}[0-9]{0,3}", 0..8),
        white in proptest::collection::vec("[A-Z][0-9]{1,2}", 0..8),
        mv in "[A-Z][0-9]{1,2}|pass|",
        to_play in "B|W|b|white|x",
        kind in 0u8..6,
    ) {
        let mut req = json!({"size": size, "black": black, "white": white});
        match kind {
            0 => { req["move"] = json!(mv); req["to_play"] = json!(to_play); }
            1 => req["region"] = json!(mv),
            2 => req["eye_point"] = json!(mv),
            3 => { req["point"] = json!(mv); req["color"] = json!(to_play); }
            4 => req["chain_point"] = json!(mv),
            _ => { req["prelude"] = json!([[to_play, mv]]); req["move"] = json!(mv); }
        }
        let a = answer(&req.to_string());
        prop_assert!(is_one_json_value(&a), "{a}");
    }
}

#[test]
fn every_point_of_random_positions_is_answered() {
    let mut rng = SmallRng::seed_from_u64(7);
    for (game_no, size) in [9usize, 13, 19, 9, 7, 5].into_iter().enumerate() {
        let mut game = Game::new(size, Rules::chinese()).unwrap();
        let moves = rng.random_range(10..size * size);
        for _ in 0..moves {
            let legal = game.legal_points(game.to_move());
            if legal.is_empty() {
                break;
            }
            let p = legal[rng.random_range(0..legal.len())];
            game.play(Move::Play(p)).unwrap();
        }
        let stones = |c: Color| -> Vec<String> {
            game.board().points().filter(|&p| game.board().get(p) == Some(c)).map(|p| p.to_string()).collect()
        };
        let (black, white) = (stones(Color::Black), stones(Color::White));
        let to_play = if game.to_move() == Color::Black { "B" } else { "W" };
        for p in game.board().points() {
            let v = p.to_string();
            for req in [
                json!({"size": size, "black": black, "white": white, "to_play": to_play, "move": v}),
                json!({"size": size, "black": black, "white": white, "region": v}),
                json!({"size": size, "black": black, "white": white, "eye_point": v}),
                json!({"size": size, "black": black, "white": white, "point": v, "color": to_play}),
                json!({"size": size, "black": black, "white": white, "chain_point": v}),
            ] {
                let a = answer(&req.to_string());
                assert!(is_one_json_value(&a), "game {game_no}, {req}: {a}");
                // A legal move's names end with exactly one region name.
                if req.get("move").is_some() && a.contains("\"legal\":true") {
                    let parsed: Value = serde_json::from_str(&a).unwrap();
                    let kinds: Vec<&str> =
                        parsed["terms"].as_array().unwrap().iter().map(|t| t["kind"].as_str().unwrap()).collect();
                    assert_eq!(kinds.iter().filter(|k| **k == "region").count(), 1, "{a}");
                    assert_eq!(kinds.last(), Some(&"region"), "{a}");
                }
            }
        }
    }
}

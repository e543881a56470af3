//! The whole-board judgement of dead stones (`Mcts::dead_stones_of` and
//! `NetSearch::dead_stones_of`, behind `final_status_list dead`, the server's proposal and the
//! review) on the cases of tengen-core's `tests/data/seki.txt` that name their dead stones: a
//! seki is never called dead, and either judge names exactly the stones given, with the colours
//! as given and swapped.

mod common;

use std::path::Path;

use tengen_core::{Game, Point, Setup};
use tengen_engine::{Limit, Mcts, NetSearch, SearchParams};

/// `(title, board text, dead vertices)` of each case with a `dead` line.
fn cases() -> Vec<(String, String, Vec<String>)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tengen-core/tests/data/seki.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    let (mut title, mut board, mut in_board) = (String::new(), Vec::new(), false);
    for line in text.lines().map(str::trim) {
        if let Some(t) = line.strip_prefix("=== ") {
            (title, board, in_board) = (t.to_owned(), Vec::new(), false);
        } else if line == "board" {
            in_board = true;
        } else if let Some(dead) = line.strip_prefix("dead") {
            let dead = dead.split_whitespace().filter(|w| *w != "-").map(str::to_owned).collect();
            cases.push((title.clone(), board.join("\n"), dead));
        } else if line.is_empty()
            || line.starts_with('#')
            || line.split_whitespace().next().is_some_and(|w| w.len() > 1)
        {
            in_board = false;
        } else if in_board {
            board.push(line.to_owned());
        }
    }
    cases
}

#[test]
fn the_judgement_never_calls_a_seki_dead() {
    let cases = cases();
    assert!(cases.len() >= 4, "{} cases with dead stones named", cases.len());
    for (title, board, dead) in cases {
        for swap in [false, true] {
            let text = if swap { board.replace('X', "x").replace('O', "X").replace('x', "O") } else { board.clone() };
            let game = Game::try_from(Setup::from_ascii(&text).unwrap()).unwrap();
            let mut expected: Vec<Point> = dead.iter().map(|v| v.parse().unwrap()).collect();
            expected.sort();
            let judged = Mcts::new(SearchParams { playouts: Limit::Simulations(4_000), ..SearchParams::default() })
                .dead_stones_of(&game);
            assert_eq!(judged, expected, "{title} (colours swapped: {swap})\n{text}");
            let judged = NetSearch::new(common::model(), SearchParams::network()).dead_stones_of(&game);
            assert_eq!(judged, expected, "the network's judgement: {title} (colours swapped: {swap})\n{text}");
        }
    }
}

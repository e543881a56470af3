//! The one judgement of life and death with either evaluator: the playout search's
//! (`Mcts::dead_stones_of`) and the network's (`NetSearch::dead_stones_of`, on KataGo's
//! `target/models/b10c384h6nbttflrs.bin.gz`, fetched by `scripts/test`; `TENGEN_KATAGO_MODEL`
//! names another), on finished positions built to the shapes that make judges err.

mod common;

use common::model;
use tengen_core::{Color, Game, Komi, Point, Rules, Setup};
use tengen_engine::{Mcts, NetSearch, SearchParams};

fn position(text: &str, to_move: Color) -> Game {
    let setup = Setup::from_ascii(text).unwrap();
    let rules = Rules { komi: Komi::from_points(7.5).unwrap(), ..Rules::chinese() };
    Game::try_from(Setup { rules, to_move, ..setup }).unwrap()
}

/// The vertices of `points`, sorted by name (as GTP lists them).
fn names(points: &[Point]) -> Vec<String> {
    let mut names: Vec<String> = points.iter().map(ToString::to_string).collect();
    names.sort();
    names
}

/// Both judges' dead stones in `game`, by name: the playout search's, the network's.
fn judged(game: &Game) -> [Vec<String>; 2] {
    let playouts = Mcts::new(SearchParams::default()).dead_stones_of(game);
    let network = NetSearch::new(model(), SearchParams::network()).dead_stones_of(game);
    [names(&playouts), names(&network)]
}

fn expect(game: &Game, dead: &[&str]) {
    for color in [Color::Black, Color::White] {
        let game = game.position_only(color);
        let [playouts, network] = judged(&game);
        assert_eq!(playouts, dead, "the playout search's judgement, {color:?} to move");
        assert_eq!(network, dead, "the network's judgement, {color:?} to move");
    }
}

#[test]
fn a_group_whose_eyes_come_from_space_shared_along_the_edge_lives() {
    // Black's F7-J7 on the top edge has no eye of its own: White's wall F6-J6 shuts it in,
    // and its eye space is the first and second lines it shares with Black's living A7-E4 (E7
    // joins them). Together they have the whole top; White's B8 and H8 in it are dead.
    let game = position(
        "
        . . . . . . . . .
        . O . . . . . O .
        X X X X . X X X X
        . . . X X O O O O
        . . . . X O . . .
        X X X X X O . . .
        O O O O O O . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
    );
    expect(&game, &["B8", "H8"]);
}

#[test]
fn a_seki_beside_a_dead_stone_lives() {
    // KataGo's rules vector GroupTaxSekiScoring (tengen-core's tests/data/seki.txt): in the top
    // right Black's J9 and H8 live in seki with White's G9, G8 and H7-J7 (liberties that
    // neither side may fill). White's B8, thrown into Black's top left beside them, is dead.
    let game = position(
        "
        . X . X O . O . X
        . O . X O O O X .
        . X X X X X X O O
        X O O O O O X O .
        X O . O . O X O O
        X O O O O O X X X
        X X X O . . . O O
        . X X X O O O O .
        . X . X O . O . O",
        Color::White,
    );
    expect(&game, &["B8"]);
}

#[test]
fn a_big_group_with_one_real_eye_and_one_false_eye_is_dead() {
    // White's A8-E8-D9 has the real eye A9; E9 is false: F9-G9 touch it alone, and Black's E9
    // takes them whoever moves first. Ten stones, dead.
    let game = position(
        "
        . O O O . O O X .
        O O O O O X X X .
        X X X X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        O O O O O O O O O
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
    );
    expect(&game, &["A8", "B8", "B9", "C8", "C9", "D8", "D9", "E8", "F9", "G9"]);
}

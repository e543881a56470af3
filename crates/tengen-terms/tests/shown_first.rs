//! The names a reader shows first (`MoveNames::main`): what the move does, and its point's name
//! (小目, 星 …) only for the first stone of an empty area — never an opening's name on a fight
//! late in a game. Checked on cases and over the records of `data/records/19x19-gnugo-level10`.

use std::path::Path;

use tengen_core::{Game, Move, Point, Rules};
use tengen_terms::{Commentary, MoveNames};

/// The names of the opening's points (terms.md §2.4 and §2.3).
const OPENING_POINTS: [&str; 7] = ["天元", "星", "三三", "小目", "高目", "目外", "五五"];

fn at(v: &str) -> Point {
    v.parse().unwrap()
}

/// The names of `moves` played on an empty 19 × 19 board, Black first, for the last of them.
fn last_named(moves: &[&str]) -> MoveNames {
    let mut game = Game::new(19, Rules::default()).unwrap();
    let mut commentary = Commentary::new(&game);
    let (last, before) = moves.split_last().unwrap();
    for v in before {
        let color = game.to_move();
        game.play(Move::Play(at(v))).unwrap();
        commentary.play(color, Move::Play(at(v))).unwrap();
    }
    commentary.name(game.to_move(), at(last)).unwrap()
}

/// The board of `game` before its move `i` (from 0).
fn commentary_board(game: &Game, i: usize) -> tengen_core::Board {
    game.truncated(i).board().clone()
}

/// Whether the corner of `p` (lines 1 to 6 from both of its edges) holds no stone.
fn empty_corner(board: &tengen_core::Board, p: Point) -> bool {
    let n = board.size() as i32;
    let line = |c: i32| (c + 1).min(n - c);
    let near = |a: i32, b: i32| (2 * a < n) == (2 * b < n);
    let (px, py) = (i32::from(p.col()), i32::from(p.row()));
    board.points().all(|q| {
        let (qx, qy) = (i32::from(q.col()), i32::from(q.row()));
        board.get(q).is_none() || !(near(px, qx) && near(py, qy) && line(qx) <= 6 && line(qy) <= 6)
    })
}

fn first(names: &MoveNames) -> Vec<&str> {
    names.terms[..names.main.min(3)].iter().map(|t| t.zh.as_str()).collect()
}

#[test]
fn a_corners_first_stone_is_named_by_its_point() {
    let names = last_named(&["C16"]);
    assert_eq!(first(&names), ["小目"], "{:?}", names.terms);
    let names = last_named(&["Q16", "D4"]);
    assert_eq!(first(&names), ["星"], "{:?}", names.terms);
}

#[test]
fn a_point_in_a_fight_is_named_by_what_the_move_does() {
    // White's lone stone at D17 in atari; Black captures it from C16, a 3-4 point.
    let names = last_named(&["D18", "D17", "E17", "K10", "D16", "K12", "C17", "K14", "C16"]);
    let all: Vec<&str> = names.terms.iter().map(|t| t.zh.as_str()).collect();
    assert!(all.contains(&"小目"), "the API keeps the point's name: {all:?}");
    assert!(!first(&names).iter().any(|n| OPENING_POINTS.contains(n)), "{all:?} shows {:?}", first(&names));
}

#[test]
fn no_opening_name_is_shown_first_after_move_30_of_real_games() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/records/19x19-gnugo-level10");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert!(files.len() >= 20, "the records of {}", dir.display());
    let (mut moves, mut in_first_three_before, mut late) = (0, 0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let record = tengen_sgf::Record::read(&text).unwrap();
        let game = record.replay(tengen_sgf::IllegalMoves::Stop).unwrap().game;
        let mut commentary = Commentary::new(&game.truncated(0));
        for (i, &(color, mv)) in game.moves().iter().enumerate() {
            if let Move::Play(p) = mv
                && i >= 30
            {
                let names = commentary.name(color, p).unwrap();
                moves += 1;
                // What the page showed before `main`: the first three names.
                if names.terms.iter().take(3).any(|t| OPENING_POINTS.contains(&t.zh.as_str())) {
                    in_first_three_before += 1;
                }
                if first(&names).iter().any(|n| OPENING_POINTS.contains(n)) {
                    let board = commentary_board(&game, i);
                    late.push((
                        format!("{} move {}: {:?}", file.display(), i + 1, first(&names)),
                        empty_corner(&board, p),
                    ));
                }
            }
            commentary.play(color, mv).unwrap();
        }
    }
    println!(
        "{} records, {moves} moves after move 30: an opening point's name among the first three shown in {} \
         (by the first three names: {in_first_three_before}), each the first stone of an empty corner",
        files.len(),
        late.len()
    );
    // Late in a game only a stone into a corner still empty (lines 1 to 6 both ways) is named
    // by its point: r4-game-005's move 45, C4, is the first stone of its corner.
    for (case, empty) in &late {
        assert!(empty, "an opening's name shown first on a move in a taken corner: {case}");
    }
    assert!(late.len() <= 2, "{late:?}");
}

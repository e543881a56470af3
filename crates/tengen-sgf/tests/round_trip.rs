//! Game → SGF → game is identical; unknown properties and variations survive a round trip.

mod common;

use common::random_game;
use proptest::prelude::*;
use tengen_core::{Color, Game, Move, Rules};
use tengen_sgf::{GameInfo, IllegalMoves, Record, write_game};

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn games_survive_a_round_trip(
        size in prop::sample::select(vec![7usize, 9, 13, 19]),
        seed: u64,
        moves in 0usize..200,
        handicap in prop::sample::select(vec![0usize, 2, 4]),
        komi_half in -20i32..20,
    ) {
        let game = random_game(size, seed, moves, handicap, komi_half);
        let info = GameInfo { black: Some("黑 player".into()), white: Some("White [x]\\y".into()), ..GameInfo::default() };
        let text = write_game(&game, &info).to_sgf();
        let record = Record::read(&text).unwrap();
        let back = record.replay(IllegalMoves::Stop).unwrap();
        prop_assert!(back.problems.is_empty(), "{:?}\n{text}", back.problems);
        prop_assert_eq!(back.game.moves(), game.moves());
        prop_assert_eq!(back.game.board(), game.board());
        prop_assert_eq!(back.game.start(), game.start());
        prop_assert_eq!(back.game.rules().komi, game.rules().komi);
        prop_assert_eq!(back.game.handicap(), game.handicap());
        prop_assert_eq!(back.info.black.as_deref(), Some("黑 player"));
        prop_assert_eq!(back.info.white.as_deref(), Some("White [x]\\y"));
        // And the text is stable: writing the replayed game gives the same SGF.
        prop_assert_eq!(write_game(&back.game, &back.info).to_sgf(), text);
    }
}

#[test]
fn unknown_properties_and_variations_survive() {
    let text = "(;GM[1]FF[4]SZ[9]XY[kept][twice]KM[7.5];B[ee]ZZ[x\\]y](;W[cc];B[gg])(;W[gc]C[a \\] comment]))";
    let record = Record::read(text).unwrap();
    let again = Record::read(&record.to_sgf()).unwrap();
    assert_eq!(again, record);
    let out = record.to_sgf();
    for kept in ["XY[kept][twice]", "ZZ[x\\]y]", "(;W[cc];B[gg])", "C[a \\] comment]"] {
        assert!(out.contains(kept), "{kept} lost in {out}");
    }
}

#[test]
fn results_are_written_in_points() {
    let mut game = Game::new(9, Rules::chinese()).unwrap();
    game.play("E5".parse().unwrap()).unwrap();
    game.resign(Color::White);
    let text = write_game(&game, &GameInfo::default()).to_sgf();
    assert!(text.contains("RE[B+R]"), "{text}");
    let mut game = Game::new(9, Rules::chinese()).unwrap();
    game.play(Move::Pass).unwrap();
    game.play(Move::Pass).unwrap();
    game.finish(&[]).unwrap();
    assert!(write_game(&game, &GameInfo::default()).to_sgf().contains("RE[W+7.5]"));
}

//! Property tests of the rules core: random games on every size, garbage moves included,
//! checked after every move against slow reference computations.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tengen_core::{Board, Color, Game, KoRule, Move, Phase, Point, Rules};

/// Whether `color` may play `p` by a slow reference: play it on a copy and look at the result.
/// `history` holds the superko keys of every earlier position, `before_last` the hash before
/// the opponent's last move (when that move was a stone), for simple ko.
fn reference_legal(
    game: &Game,
    color: Color,
    p: Point,
    history: &HashSet<(u64, Option<Color>)>,
    before_last: Option<u64>,
) -> bool {
    let board = game.board();
    if board.get(p).is_some() {
        return false;
    }
    let mut after = board.clone();
    let played = after.play_unchecked(p, color);
    if played.suicided > 0 && !game.rules().suicide {
        return false;
    }
    assert_eq!(board.hash_after(p, color), after.hash(), "hash_after({p}) differs from the hash after playing");
    let ko = played.captured == 1 && before_last == Some(after.hash());
    match game.rules().ko {
        KoRule::Simple => !ko,
        KoRule::Positional => !ko && !history.contains(&(after.hash(), None)),
        KoRule::Situational => !ko && !history.contains(&(after.hash(), Some(!color))),
    }
}

/// The playout eye by its definition: an empty point whose neighbours are all `color` (or
/// off the board), with at most one opposing diagonal — none on the edge.
fn reference_eye(board: &Board, p: Point, color: Color) -> bool {
    let size = board.size() as i32;
    let at = |dc: i32, dr: i32| {
        let (c, r) = (i32::from(p.col()) + dc, i32::from(p.row()) + dr);
        (c >= 0 && r >= 0 && c < size && r < size).then(|| board.get(Point::new(c as u8, r as u8).unwrap()))
    };
    if board.get(p).is_some() {
        return false;
    }
    let orthogonal = [(0, 1), (0, -1), (1, 0), (-1, 0)].map(|(c, r)| at(c, r));
    if orthogonal.iter().any(|n| matches!(n, Some(x) if *x != Some(color))) {
        return false;
    }
    let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)].map(|(c, r)| at(c, r));
    let opposing = diagonal.iter().filter(|d| **d == Some(Some(!color))).count();
    let on_edge = orthogonal.iter().any(Option::is_none);
    opposing + usize::from(on_edge) < 2
}

/// `Board::self_atari` by playing the move on a copy: the chain's stones when it is left
/// with fewer than two liberties, where a capture of two or more stones counts as enough
/// liberties (as the playouts read it) and a suicide as none.
fn reference_self_atari(board: &Board, p: Point, color: Color) -> Option<usize> {
    let captures_big = neighbours(p, board.size())
        .iter()
        .any(|&n| board.get(n) == Some(!color) && board.liberty_points(n) == [p] && board.chain_size(n) >= 2);
    if captures_big {
        return None;
    }
    let mut after = board.clone();
    let size = neighbours(p, board.size())
        .iter()
        .filter(|&&n| board.get(n) == Some(color))
        .map(|&n| board.chain(n).min().unwrap())
        .collect::<HashSet<_>>()
        .iter()
        .map(|&s| board.chain_size(s))
        .sum::<usize>()
        + 1;
    if board.is_suicide(p, color) {
        return Some(size);
    }
    after.play_unchecked(p, color);
    (after.liberty_points(p).len() < 2).then_some(size)
}

fn superko_key(rules: &Rules, hash: u64, to_move: Color) -> (u64, Option<Color>) {
    match rules.ko {
        KoRule::Situational => (hash, Some(to_move)),
        _ => (hash, None),
    }
}

/// The superko keys of the positions so far.
type History = HashSet<(u64, Option<Color>)>;
/// The state before an accepted move: board, side to move, history, hash before the last move.
type Snapshot = (Board, Color, History, Option<u64>);

/// Plays a random game of `moves` attempts, checking every invariant after each one.
fn random_game(size: usize, rules: Rules, seed: u64, moves: usize, check_legality_every: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(size, rules).unwrap();
    let mut history: History = HashSet::new();
    history.insert(superko_key(&rules, game.board().hash(), Color::Black));
    // Snapshots before each accepted move: (board, to move, history, hash before the last move).
    let mut snapshots: Vec<Snapshot> = Vec::new();
    let mut before_last: Option<u64> = None;
    let mut placed = 0i64;
    let all: Vec<Point> = game.board().points().collect();

    for step in 0..moves {
        let color = game.to_move();
        if step % check_legality_every == 0 {
            let candidates: Vec<Point> = all
                .iter()
                .copied()
                .filter(|&p| game.board().is_legal(p, color) && !reference_eye(game.board(), p, color))
                .collect();
            match game.board().random_playout_move(color, &mut SmallRng::seed_from_u64(step as u64)) {
                Some(p) => assert!(candidates.contains(&p), "playout move {p} is illegal or an eye at step {step}"),
                None => assert!(candidates.is_empty(), "no playout move though {candidates:?} qualify"),
            }
            for &p in &all {
                for c in Color::ALL {
                    assert_eq!(
                        game.board().is_eye(p, c),
                        reference_eye(game.board(), p, c),
                        "is_eye({p}, {c}) at step {step}\n{}",
                        game.board()
                    );
                }
            }
            // The tactics the playouts read from the chains' counters, against the lists.
            let board = game.board();
            for &p in &all {
                if board.is_empty(p) {
                    for c in Color::ALL {
                        assert_eq!(
                            board.self_atari(p, c),
                            reference_self_atari(board, p, c),
                            "self_atari({p}, {c}) at step {step}\n{board}"
                        );
                    }
                } else {
                    let libs = board.liberty_points(p);
                    assert_eq!(
                        board.atari_liberty(p),
                        (libs.len() == 1).then(|| libs[0]),
                        "atari_liberty({p}) at step {step}\n{board}"
                    );
                }
            }
            let legal: Vec<Point> = game.legal_points(color);
            let reference: Vec<Point> =
                all.iter().copied().filter(|&p| reference_legal(&game, color, p, &history, before_last)).collect();
            assert_eq!(legal, reference, "legal points differ at step {step}\n{}", game.board());
        }
        // Undo now and then, and compare with the snapshot.
        if !snapshots.is_empty() && rng.random_ratio(1, 25) {
            let (board, to_move, h, bl) = snapshots.pop().unwrap();
            game.undo().unwrap();
            assert_eq!(game.board(), &board, "undo did not restore the board");
            assert_eq!(game.to_move(), to_move);
            assert_eq!(game.phase(), Phase::Playing);
            game.board().check_consistency().unwrap();
            placed = game.moves().iter().filter(|(_, m)| matches!(m, Move::Play(_))).count() as i64;
            history = h;
            before_last = bl;
            continue;
        }
        let mv = match rng.random_range(0..100) {
            0..3 => Move::Pass,
            // Garbage: any point of the padded range, on the board or not.
            3..30 => Move::Play(Point::new(rng.random_range(0..25), rng.random_range(0..25)).unwrap()),
            // Prefer captures and ataris to reach kos and snapbacks often.
            30..60 => {
                let pick = all.iter().copied().filter(|&p| {
                    game.board().is_empty(p)
                        && neighbours(p, size)
                            .iter()
                            .any(|&n| game.board().get(n) == Some(!color) && game.board().liberties(n) <= 2)
                });
                let v: Vec<Point> = pick.collect();
                if v.is_empty() { Move::Pass } else { Move::Play(v[rng.random_range(0..v.len())]) }
            }
            _ => game.board().random_playout_move(color, &mut rng).map_or(Move::Pass, Move::Play),
        };
        let snapshot = (game.board().clone(), game.to_move(), history.clone(), before_last);
        let moves_before = game.moves().len();
        match game.play(mv) {
            Ok(()) => {
                if let Move::Play(_) = mv {
                    placed += 1;
                    before_last = Some(snapshot.0.hash());
                    history.insert(superko_key(&rules, game.board().hash(), game.to_move()));
                } else {
                    before_last = None;
                }
                snapshots.push(snapshot);
            }
            Err(_) => {
                assert_eq!(game.board(), &snapshot.0, "a refused move {mv} changed the board");
                assert_eq!(game.moves().len(), moves_before);
                assert_eq!(game.to_move(), color);
            }
        }
        game.board().check_consistency().unwrap_or_else(|e| panic!("step {step}, after {mv}: {e}\n{}", game.board()));
        let on_board = (game.board().stone_count(Color::Black) + game.board().stone_count(Color::White)) as i64;
        let removed = i64::from(game.board().captures(Color::Black) + game.board().captures(Color::White));
        assert_eq!(placed - removed, on_board, "stones placed − captured ≠ stones on the board");
        match game.phase() {
            Phase::Playing => {}
            Phase::Counting => game.resume().unwrap(),
            Phase::Ended(_) => {
                // A triple repetition under simple ko: start again from this position.
                let (board, to_move, h, bl) = snapshots.pop().unwrap();
                game.undo().unwrap();
                assert_eq!(game.board(), &board);
                assert_eq!(game.to_move(), to_move);
                history = h;
                before_last = bl;
                placed = game.moves().iter().filter(|(_, m)| matches!(m, Move::Play(_))).count() as i64;
            }
        }
    }
}

fn neighbours(p: Point, size: usize) -> Vec<Point> {
    let (c, r) = (i32::from(p.col()), i32::from(p.row()));
    [(c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)]
        .into_iter()
        .filter(|&(c, r)| c >= 0 && r >= 0 && (c as usize) < size && (r as usize) < size)
        .map(|(c, r)| Point::new(c as u8, r as u8).unwrap())
        .collect()
}

fn rules_strategy() -> impl Strategy<Value = Rules> {
    prop_oneof![
        Just(Rules::chinese()),
        Just(Rules::chinese_simple_ko()),
        Just(Rules::tromp_taylor()),
        Just(Rules { ko: KoRule::Situational, ..Rules::chinese() }),
        Just(Rules { ko: KoRule::Situational, ..Rules::tromp_taylor() }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// After every move on sizes 2–25: the incremental board equals one recomputed from the
    /// stones, the legal points equal the reference, undo restores the previous state, and
    /// stones placed − captured = stones on the board.
    #[test]
    fn random_games_keep_every_invariant(size in 2usize..=25, rules in rules_strategy(), seed: u64) {
        let moves = (size * size * 2).min(600);
        random_game(size, rules, seed, moves, 5);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Playouts' moves without the hash kept (`play_unhashed`) leave the board that
    /// `play_unchecked` leaves, whose hash `hash()` computes; a copy of a board with its hash
    /// kept keeps it again.
    #[test]
    fn unhashed_moves_leave_the_same_board(size in 2usize..=25, seed: u64) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut kept = Board::new(size).unwrap();
        let mut unhashed = kept.clone();
        let mut color = Color::Black;
        for _ in 0..size * size * 2 {
            match kept.random_playout_move(color, &mut rng) {
                Some(p) => {
                    prop_assert_eq!(kept.play_unchecked(p, color), unhashed.play_unhashed(p, color));
                }
                None => {
                    kept.pass();
                    unhashed.pass();
                }
            }
            prop_assert_eq!(unhashed.hash(), kept.hash());
            prop_assert!(unhashed == kept);
            unhashed.check_consistency().unwrap();
            color = !color;
        }
        unhashed.copy_from(&kept);
        if let Some(p) = kept.random_playout_move(color, &mut rng) {
            kept.play_unchecked(p, color);
            unhashed.play_unchecked(p, color);
        }
        prop_assert_eq!(unhashed.hash(), kept.hash());
        unhashed.check_consistency().unwrap();
    }
}

/// KataGo's stress test in spirit: 20,000 moves, garbage included, on odd sizes, with a fixed
/// seed so that a failure repeats.
#[test]
fn twenty_thousand_seeded_moves_on_odd_sizes() {
    let sizes = [3usize, 5, 7, 9, 11, 13, 19, 25];
    for (k, &size) in sizes.iter().enumerate() {
        random_game(size, Rules::chinese(), 1000 + k as u64, 2500, 50);
    }
}

/// The small boards reach full-board positions, kos and suicides quickly: many seeds.
#[test]
fn tiny_boards_many_seeds() {
    for seed in 0..300 {
        let rules = if seed % 3 == 0 { Rules::tromp_taylor() } else { Rules::chinese() };
        random_game(2 + (seed as usize % 3), rules, seed, 120, 1);
    }
}

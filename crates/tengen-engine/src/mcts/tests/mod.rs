//! The search's tests: the tree, threads, analysis, limits, priors, replies and playouts.

use std::sync::atomic::{AtomicBool, Ordering};

use super::*;

use super::priors::{Opening, add_predictor_priors, add_shape_priors, expansion_priors};
use super::replies::{playable, remembered_reply, reply_slot_2};
use super::select::select;
use super::tree::{Node, PASS, PV_LENGTH, point, to_move};
use super::worker::{Shared, Worker, owner_value, past_limit, terminal_owners};
use super::{Candidate, Mcts, SearchResult, Stop};
use crate::arena::top_two;
use crate::params::{Limit, PlayoutParams, RaveSchedule};
use crate::predictor::Tactics;
use tengen_core::{Rules, Setup};

mod ending;
mod statistics;

fn at(s: &str) -> Point {
    s.parse().unwrap()
}

fn search(text: &str, color: Color, playouts: u32) -> SearchResult {
    let setup = Setup {
        rules: Rules { komi: tengen_core::Komi::ZERO, ..Rules::chinese() },
        ..Setup::from_ascii(text).unwrap()
    };
    let game = Game::try_from(setup).unwrap();
    Mcts::new(SearchParams { playouts: Limit::Simulations(playouts), ..SearchParams::default() }).search(&game, color)
}

#[test]
fn takes_the_capture_that_decides_the_game() {
    // White's three stones in atari; taking them at C3 wins everything.
    let r = search(
        "
        . X . . .
        X O X . .
        X O . . .
        X O X . .
        . X . . .",
        Color::Black,
        3_000,
    );
    assert_eq!(r.best, Move::Play(at("C3")), "{:?}", &r.moves[..3]);
    assert!(r.win_rate > 0.8, "{}", r.win_rate);
}

#[test]
fn the_tree_is_kept_under_the_moves_played() {
    let mut game = Game::new(7, Rules::chinese()).unwrap();
    let mut mcts = Mcts::new(SearchParams { playouts: Limit::Simulations(20_000), ..SearchParams::default() });
    let first = mcts.search(&game, Color::Black);
    assert_eq!(first.reused, 0);
    let Move::Play(p) = first.best else { panic!("a stone") };
    game.play(Move::Play(p)).unwrap();
    // White's reply the tree looked at most.
    let reply = {
        let root = mcts.nodes[0];
        let f = root.first_child as usize;
        let child = mcts.nodes[f..f + root.children as usize].iter().find(|n| n.mv == p.index() as u16).copied();
        let child = child.unwrap();
        let g = child.first_child as usize;
        let best = mcts.nodes[g..g + child.children as usize].iter().max_by_key(|n| n.visits).unwrap();
        to_move(best.mv)
    };
    game.play(reply).unwrap();
    let second = mcts.search(&game, Color::Black);
    assert!(second.reused > 100, "kept {} simulations", second.reused);
    let visits: u32 = second.moves.iter().map(|m| m.visits).sum();
    // The kept visits count, less the few that reached the node before it had children.
    assert!(
        visits > second.playouts && visits <= second.playouts + second.reused,
        "{visits} {} {}",
        second.playouts,
        second.reused
    );
    // Asked for the other colour, or after an undo to another position: afresh.
    assert_eq!(mcts.search(&game, Color::White).reused, 0);
    let mut other = Game::new(7, Rules::chinese()).unwrap();
    other.play(Move::Play("A1".parse().unwrap())).unwrap();
    other.play(Move::Play("G7".parse().unwrap())).unwrap();
    assert_eq!(mcts.search(&other, Color::Black).reused, 0);
    // A new game: afresh.
    mcts.clear();
    assert_eq!(mcts.search(&game, Color::Black).reused, 0);
}

/// Expanded nodes that share their children with another one.
fn shared_children(nodes: &[Node]) -> usize {
    let mut seen = std::collections::HashMap::new();
    for n in nodes.iter().filter(|n| n.expanded) {
        *seen.entry(n.first_child).or_insert(0) += 1;
    }
    seen.values().filter(|&&k| k > 1).count()
}

#[test]
fn transposed_positions_share_their_children() {
    let mut game = Game::new(7, Rules::chinese()).unwrap();
    let transposing = PlayoutParams { transpositions: true, ..PlayoutParams::default() };
    let params = SearchParams { playouts: Limit::Simulations(20_000), playout: transposing, ..SearchParams::default() };
    let mut mcts = Mcts::new(params.clone());
    let first = mcts.search(&game, Color::Black);
    assert!(shared_children(&mcts.nodes) > 10, "{} shared", shared_children(&mcts.nodes));
    // Every visit is still backed up through the root's children.
    assert_eq!(first.moves.iter().map(|m| m.visits).sum::<u32>(), 20_000);
    // Without them, nothing is shared.
    let mut plain = Mcts::new(SearchParams { playout: PlayoutParams::default(), ..params });
    plain.search(&game, Color::Black);
    assert_eq!(shared_children(&plain.nodes), 0);
    // The kept tree keeps the sharing (children copied once).
    game.play(first.best).unwrap();
    let Move::Play(p) = first.best else { panic!("a stone") };
    let reply = {
        let root = mcts.nodes[0];
        let f = root.first_child as usize;
        let child = *mcts.nodes[f..f + root.children as usize].iter().find(|n| n.mv == p.index() as u16).unwrap();
        let g = child.first_child as usize;
        to_move(mcts.nodes[g..g + child.children as usize].iter().max_by_key(|n| n.visits).unwrap().mv)
    };
    game.play(reply).unwrap();
    let second = mcts.search(&game, Color::Black);
    assert!(second.reused > 100);
    assert!(shared_children(&mcts.nodes) > 0);
    for &Candidate { mv, .. } in &second.moves {
        assert!(game.check(Color::Black, mv).is_ok());
    }
}

#[test]
fn a_kept_tree_offers_only_legal_moves() {
    // Self-play with a kept tree: every root move the search reports is legal, superko
    // included, and the game never needs a move the game refuses.
    let mut game = Game::new(5, Rules::chinese()).unwrap();
    let mut mcts = Mcts::new(SearchParams {
        playouts: Limit::Simulations(400),
        playout: PlayoutParams { transpositions: true, ..PlayoutParams::default() },
        ..SearchParams::default()
    });
    let mut kept = 0;
    for _ in 0..60 {
        if game.phase() != tengen_core::Phase::Playing {
            break;
        }
        let color = game.to_move();
        let result = mcts.search(&game, color);
        kept += u32::from(result.reused > 0);
        for &Candidate { mv, .. } in &result.moves {
            assert!(game.check(color, mv).is_ok(), "{mv} offered but illegal");
        }
        game.play(result.best).unwrap();
    }
    assert!(kept > 10, "the tree was kept {kept} times");
}

#[test]
fn the_root_moves_account_for_every_simulation() {
    let game = Game::new(9, Rules::chinese()).unwrap();
    let r = Mcts::new(SearchParams { playouts: Limit::Simulations(2_000), ..SearchParams::default() })
        .search(&game, Color::Black);
    assert_eq!(r.playouts, 2_000);
    assert_eq!(r.moves.len(), 82, "81 points and a pass");
    assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u32>(), 2_000);
    assert!(r.moves.windows(2).all(|w| w[0].visits >= w[1].visits), "most visited first");
    assert_eq!(r.best, r.moves[0].mv);
}

/// White's three stones in atari on 5×5, komi 0: taking them at C3 wins everything.
fn decisive_capture() -> Game {
    let setup = Setup::from_ascii(
        "
        . X . . .
        X O X . .
        X O . . .
        X O X . .
        . X . . .",
    )
    .unwrap();
    Game::try_from(Setup { rules: Rules { komi: tengen_core::Komi::ZERO, ..Rules::chinese() }, ..setup }).unwrap()
}

#[test]
fn threads_share_one_tree() {
    let game = Game::new(9, Rules::chinese()).unwrap();
    // The same position twice: without keeping the tree, each search starts afresh.
    let params =
        SearchParams { playouts: Limit::Simulations(4_000), threads: 3, reuse_tree: false, ..SearchParams::default() };
    let mut engine = Mcts::new(params);
    for _ in 0..2 {
        let r = engine.search(&game, Color::Black);
        assert_eq!(r.playouts, 4_000, "the budget is shared, not per thread");
        assert_eq!(r.moves.iter().map(|m| m.visits).sum::<u32>(), 4_000, "every visit backed up");
        assert!(engine.workers.iter().all(|w| w.playouts > 0), "every thread took part");
        assert!(r.ownership.iter().all(|o| o.abs() <= 1.0));
    }
    // The root's wins agree with the children's: no simulation lost or counted twice.
    let root = engine.nodes[0];
    assert_eq!(root.visits, 4_000);
    // And the threaded search still reads the decisive capture.
    let game = decisive_capture();
    let r = Mcts::new(SearchParams { playouts: Limit::Simulations(10_000), threads: 2, ..SearchParams::default() })
        .search(&game, Color::Black);
    assert_eq!(r.best, Move::Play(at("C3")), "{:?}", &r.moves[..3]);
    // Ownership summed over the threads: the captured stones' points end up Black's.
    assert!(r.ownership[at("B3").index()] > 0.5, "{}", r.ownership[at("B3").index()]);
    assert!(r.ownership[at("E5").index()] > 0.5, "{}", r.ownership[at("E5").index()]);
    let timed = Mcts::new(SearchParams {
        playouts: Limit::Unlimited,
        time: Some(Duration::from_millis(50)),
        threads: 2,
        ..SearchParams::default()
    })
    .search(&Game::new(9, Rules::chinese()).unwrap(), Color::Black);
    assert!(timed.playouts > 10 && timed.playouts < u32::MAX);
}

#[test]
fn analysis_reports_until_told_to_stop() {
    let game = decisive_capture();
    for threads in [1, 2] {
        let mut engine = Mcts::new(SearchParams { threads, ..SearchParams::default() });
        let mut reports = Vec::new();
        let stop = AtomicBool::new(false);
        // Five reports at least, and enough simulations for the ownership to settle (on a
        // loaded machine 100 ms may hold few, most of them early visits to the pass, which
        // ends the game with White's stones on the board).
        let mut told = None;
        let analysed = engine.analyze(&game, Color::Black, Duration::from_millis(20), &stop, &mut |a| {
            reports.push(a.clone());
            if told.is_none() && reports.len() >= 5 && a.playouts >= 5_000 {
                told = Some(reports.len());
                stop.store(true, Ordering::Relaxed);
            }
        });
        assert!(analysed);
        assert_eq!(Some(reports.len()), told, "stops when the report says so");
        assert!(reports.windows(2).all(|w| w[0].playouts < w[1].playouts), "the search goes on between reports");
        let last = reports.last().unwrap();
        assert!(last.moves.windows(2).all(|w| w[0].visits >= w[1].visits), "most visited first");
        let best = &last.moves[0];
        assert_eq!(best.mv, Move::Play(at("C3")));
        assert_eq!(best.pv[0], best.mv);
        assert!(best.pv.len() > 1 && best.pv.len() <= PV_LENGTH, "{:?}", best.pv);
        // Taking three stones on a 5×5 board with komi 0: well ahead, and the score says so.
        assert!(best.win_rate > 0.8 && best.score_lead > 5.0, "{best:?}");
        assert!(best.lcb() < best.win_rate);
        assert!(best.score_stdev > 0.0 && best.score_stdev < 25.0, "{best:?}");
        assert!(last.ownership[at("E5").index()] > 0.5);
        // The engine's own limits are back for the next move.
        assert_eq!(engine.params().playouts, SearchParams::default().playouts);
    }
}

#[test]
fn ownership_and_limits() {
    let r = search(
        "
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . X O .",
        Color::Black,
        2_000,
    );
    assert!(r.ownership[at("A3").index()] > 0.5, "{}", r.ownership[at("A3").index()]);
    assert!(r.ownership[at("E3").index()] < -0.5, "{}", r.ownership[at("E3").index()]);
    // Black owns 15 points, White 10, komi 0: Black wins most random continuations.
    assert!(r.win_rate > 0.6, "{}", r.win_rate);
    let timed = Mcts::new(SearchParams {
        playouts: Limit::Unlimited,
        time: Some(Duration::from_millis(50)),
        ..SearchParams::default()
    })
    .search(&Game::new(9, Rules::chinese()).unwrap(), Color::Black);
    assert!(timed.playouts > 10 && timed.playouts < u32::MAX);
}

#[test]
fn levels_grow_in_simulations_and_weak_ones_vary() {
    let budgets: Vec<u32> = (1..=10).map(|l| SearchParams::level(l).playouts.simulations().unwrap()).collect();
    assert!(budgets.windows(2).all(|w| w[0] < w[1]), "{budgets:?}");
    assert!(SearchParams::level(1).temperature > 0.0 && SearchParams::level(5).temperature == 0.0);
    let game = Game::new(9, Rules::chinese()).unwrap();
    let mut weak = Mcts::new(SearchParams::level(1));
    let moves: std::collections::HashSet<String> = (0..12)
        .map(|_| match weak.decide(&game, Color::Black, None) {
            Decision::Play(m) => m.to_string(),
            Decision::Resign => "resign".into(),
        })
        .collect();
    assert!(moves.len() > 3, "level 1 should not always play the same move: {moves:?}");
}

#[test]
fn a_time_budget_stops_the_search() {
    let game = Game::new(19, Rules::chinese()).unwrap();
    // With `time_first` the move searches until its budget is spent, the parameters unchanged.
    let params = SearchParams { playouts: Limit::Simulations(1_000_000), time_first: true, ..SearchParams::default() };
    let mut engine = Mcts::new(params.clone());
    let started = Instant::now();
    let decision = engine.decide(&game, Color::Black, Some(Budget::fixed(Duration::from_millis(150))));
    assert!(matches!(decision, Decision::Play(_)));
    // It stops at the first look after 150 ms (every 64 simulations), not after its million
    // simulations; the margin is for a slow machine.
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(engine.params(), &params, "the budget is for one move only");
}

#[test]
fn shape_priors_rank_siblings() {
    let setup = Setup::from_ascii(
        "
        . . . . .
        . . X . .
        . X O . .
        . . . . .
        . . . . .",
    )
    .unwrap();
    let board = Game::try_from(setup).unwrap().board().clone();
    let idx = |s: &str| at(s).index() as u16;
    // The hane-like contact at D4 against the far corner A1.
    let moves = [idx("D4"), idx("A1")];
    let mut priors = vec![(10.0, 5.0); 2];
    add_shape_priors(&board, Color::White, &moves, &mut priors, 20.0);
    let rate = |p: (f32, f32)| (p.1 - 5.0) / (p.0 - 10.0);
    assert!(priors.iter().all(|p| p.0 == 30.0), "{priors:?}");
    assert!(rate(priors[0]) > 0.5 && rate(priors[1]) < 0.5, "{priors:?}");
    assert!((rate(priors[0]) + rate(priors[1]) - 1.0).abs() < 1e-5, "two siblings: r/(r+g) and g/(r+g)");
    // Moves of one shape stay even, however rare the shape; no weight, no change.
    let corners = [idx("A1"), idx("E1"), idx("E5"), idx("A5")];
    let mut priors = vec![(10.0, 5.0); 4];
    add_shape_priors(&board, Color::White, &corners[..2], &mut priors[..2], 20.0);
    assert!(priors[..2].iter().all(|&p| (rate(p) - 0.5).abs() < 1e-5), "{priors:?}");
    add_shape_priors(&board, Color::White, &corners[2..], &mut priors[2..], 0.0);
    assert_eq!(priors[2], (10.0, 5.0));
}

#[test]
fn predictor_priors_favour_the_capture_and_the_centre() {
    // White's last stone, C2, is in atari: Black's capture at D2 starts far above the
    // rest, and the open centre (G5) above the far corners (J9, A9).
    let setup = Setup::from_ascii(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X O . . . . . .
        . . X . . . . . .",
    )
    .unwrap();
    let board = Game::try_from(setup).unwrap().board().clone();
    let idx = |s: &str| at(s).index() as u16;
    let moves = [idx("D2"), idx("J9"), idx("G5"), idx("A9")];
    let tactics: Vec<Tactics> = moves.iter().map(|&mv| Tactics::of(&board, point(mv), Color::Black)).collect();
    let mut priors = vec![(10.0, 5.0); moves.len()];
    add_predictor_priors(&board, Color::Black, (&moves, &tactics), &mut priors, 20.0, (Some(at("C2")), None));
    let rate = |p: (f32, f32)| (p.1 - 5.0) / (p.0 - 10.0);
    assert!(priors.iter().all(|p| p.0 == 30.0), "{priors:?}");
    let rates: Vec<f32> = priors.iter().map(|&p| rate(p)).collect();
    assert!(rates[0] > 0.9, "the capture: {rates:?}");
    assert!(rates[2] > rates[1] && rates[2] > rates[3], "the open centre above the corners: {rates:?}");
    // No weight, no change.
    let mut unchanged = vec![(10.0, 5.0); moves.len()];
    add_predictor_priors(&board, Color::Black, (&moves, &tactics), &mut unchanged, 0.0, (None, None));
    assert!(unchanged.iter().all(|&p| p == (10.0, 5.0)));
}

/// The worker's remembered reply of `player` to `last` alone (LGRF-1), if it can be played.
fn good_reply(worker: &Worker, last: Point, player: Color) -> Option<Point> {
    remembered_reply(&worker.board, (&worker.replies, &[]), None, last, player)
}

/// The worker's remembered reply of `player` to its own `own` then `last` (LGRF-2 alone).
fn good_reply_2(worker: &Worker, own: Point, last: Point, player: Color) -> Option<Point> {
    let slot = reply_slot_2(player.index() as u8, own.index() as u16, last.index() as u16);
    playable(&worker.board, worker.replies_2[slot], player)
}

#[test]
fn good_replies_are_remembered_by_the_winner_and_forgotten_by_the_loser() {
    let mut worker = Worker::new(1);
    worker.board = Game::new(9, Rules::chinese()).unwrap().board().clone();
    let idx = |s: &str| at(s).index() as u16;
    // Black E5, White C3 (reply to E5), Black D3 (reply to C3), White pass, Black C4.
    worker.sequence = vec![(idx("E5"), 0), (idx("C3"), 1), (idx("D3"), 0), (PASS, 1), (idx("C4"), 0)];
    worker.learn_replies(0.0);
    assert_eq!(good_reply(&worker, at("E5"), Color::White), Some(at("C3")), "White won: its reply stays");
    assert_eq!(good_reply(&worker, at("C3"), Color::Black), None, "Black lost: nothing learned");
    assert_eq!(worker.replies.iter().filter(|&&r| r != 0).count(), 1, "nothing through a pass");
    worker.sequence = vec![(idx("C3"), 1), (idx("D3"), 0)];
    worker.learn_replies(1.0);
    assert_eq!(good_reply(&worker, at("C3"), Color::Black), Some(at("D3")));
    // A reply that cannot be played now is not offered; the remembered one stays.
    worker.board.play(at("D3"), Color::White).unwrap();
    assert_eq!(good_reply(&worker, at("C3"), Color::Black), None);
    worker.board = Game::new(9, Rules::chinese()).unwrap().board().clone();
    assert_eq!(good_reply(&worker, at("C3"), Color::Black), Some(at("D3")));
    // A loss with the same reply forgets it; a loss with another leaves it.
    worker.sequence = vec![(idx("E5"), 0), (idx("D5"), 1)];
    worker.learn_replies(1.0);
    assert_eq!(good_reply(&worker, at("E5"), Color::White), Some(at("C3")));
    worker.sequence = vec![(idx("E5"), 0), (idx("C3"), 1)];
    worker.learn_replies(1.0);
    assert_eq!(good_reply(&worker, at("E5"), Color::White), None);
    // A drawn simulation changes nothing.
    worker.sequence = vec![(idx("G7"), 0), (idx("G6"), 1)];
    worker.learn_replies(0.5);
    assert_eq!(good_reply(&worker, at("G7"), Color::White), None);
}

#[test]
fn replies_to_two_moves_are_learned_like_replies_to_one() {
    let mut worker = Worker::new(1);
    worker.board = Game::new(9, Rules::chinese()).unwrap().board().clone();
    let idx = |s: &str| at(s).index() as u16;
    // Without the LGRF-2 table, only replies to one move are learned.
    worker.sequence = vec![(idx("E5"), 0), (idx("C3"), 1), (idx("D3"), 0)];
    worker.learn_replies(1.0);
    assert!(worker.replies_2.is_empty());
    worker.replies_2 = vec![0; 2 * Point::TABLE_SIZE * Point::TABLE_SIZE];
    // Black won: D3 is Black's reply to its own E5 then White's C3; White's C3 after E5
    // alone is no reply to two moves.
    worker.learn_replies(1.0);
    assert_eq!(good_reply_2(&worker, at("E5"), at("C3"), Color::Black), Some(at("D3")));
    assert_eq!(good_reply_2(&worker, at("G7"), at("C3"), Color::Black), None, "another first move");
    assert_eq!(worker.replies_2.iter().filter(|&&r| r != 0).count(), 1);
    // Through a pass, nothing; a loss with the same reply forgets it.
    worker.sequence = vec![(PASS, 0), (idx("C3"), 1), (idx("D4"), 0)];
    worker.learn_replies(1.0);
    assert_eq!(worker.replies_2.iter().filter(|&&r| r != 0).count(), 1);
    worker.sequence = vec![(idx("E5"), 0), (idx("C3"), 1), (idx("D3"), 0)];
    worker.learn_replies(0.0);
    assert_eq!(good_reply_2(&worker, at("E5"), at("C3"), Color::Black), None);
}

#[test]
fn the_mercy_rule_ends_a_playout_once_the_capture_lead_is_large() {
    // White's seven stones in atari after White's G7: the playout's capture step takes them
    // at H7.
    let game = Game::try_from(
        Setup::from_ascii(
            "
            . . . . . . . . .
            X X X X X X X . .
            O O O O O O O . .
            X X X X X X X . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        )
        .unwrap(),
    )
    .unwrap();
    let play_out_with = |mercy: f32, seed: u64, allowed: bool| {
        let params =
            SearchParams { playout: PlayoutParams { mercy, ..PlayoutParams::default() }, ..SearchParams::default() };
        let stop = Stop { limit: params.playouts, extend: false, budget: None, early: false };
        let shared =
            Shared::new(&params, &game, Color::Black, vec![Node::default()], stop, Some(Vec::new()), Instant::now());
        let mut worker = Worker::new(seed);
        worker.board = game.board().clone();
        worker.sequence = vec![(at("G7").index() as u16, 1)];
        let ending = worker.play_out(&shared, Color::Black, 0, allowed);
        assert_eq!(worker.sequence[1], (at("H7").index() as u16, 0), "the capture comes first");
        (ending, worker.sequence.len(), worker.capture_lead(&shared))
    };
    let play_out = |mercy: f32, seed: u64| play_out_with(mercy, seed, true);
    for seed in 1..=5 {
        // A threshold of 4 stones (5% of 81): seven taken end the playout, Black ahead by 7.
        assert_eq!(play_out(0.05, seed), (Some(7), 2, 7));
        // 8 stones (10%): the playout goes on; off: it always ends by two passes.
        let (_, moves, _) = play_out(0.1, seed);
        assert!(moves > 2, "{moves}");
        let (ending, moves, _) = play_out(0.0, seed);
        assert_eq!(ending, None);
        assert!(moves > 20, "{moves}");
        // A playout whose board goes to the ownership is played to the end.
        let (ending, moves, _) = play_out_with(0.05, seed, false);
        assert_eq!(ending, None);
        assert!(moves > 20, "{moves}");
    }
}

#[test]
fn hard_choices_take_longer_and_settled_ones_less() {
    let ms = Duration::from_millis;
    let unlimited = SearchParams {
        playouts: Limit::Simulations(1_000),
        time_first: true,
        reuse_tree: false,
        ..SearchParams::default()
    };
    // The capture at C3 decides the game: settled long before the target.
    let mut engine = Mcts::new(unlimited.clone());
    let started = Instant::now();
    let decision = engine.decide(&decisive_capture(), Color::Black, Some(Budget::new(ms(3_000), ms(6_000))));
    assert_eq!(decision, Decision::Play(Move::Play(at("C3"))));
    // Settled when the leader's lead exceeds what the rest of the target could add, so by
    // a share of the target that does not depend on the machine's speed.
    assert!(started.elapsed() < ms(2_000), "{:?}", started.elapsed());
    let (first, second) = top_two(&engine.nodes);
    assert!(first.0 > 4 * second.0, "{first:?} against {second:?}");
    // Two captures that mirror each other (B3 and F3): neither leads clearly for a while,
    // so the search goes on past a 1 ms target — by its simulations, which do not depend
    // on the machine's speed (the choice is looked at every 64 of them). After 64
    // simulations one of two equal moves may still lead by chance (23 visits winning 87%
    // against 9 winning 44%, with one seed): of five seeds, one at least must go on.
    let mirrored = Game::try_from(
        Setup::from_ascii(
            "
            . . . . . . .
            . . . . . . .
            . X . . . X .
            X O X . X O X
            . . . . . . .
            . . . . . . .
            . . . . . . .",
        )
        .unwrap(),
    )
    .unwrap();
    let mut extended = Vec::new();
    for seed in 1..=5 {
        let mut engine = Mcts::new(SearchParams { seed, ..unlimited.clone() });
        let started = Instant::now();
        engine.decide(&mirrored, Color::Black, Some(Budget::new(ms(1), ms(1_000))));
        let spent = started.elapsed();
        let (first, second) = top_two(&engine.nodes);
        // It stopped at the maximum or when the choice was no longer close.
        assert!(spent > ms(990) || !crate::budget::close(first, second), "{spent:?}: {first:?} against {second:?}");
        extended.push(engine.nodes[0].visits);
    }
    // More than two looks past the target (a slow machine still runs 128 simulations of a
    // 7×7 board within the 1 s maximum).
    assert!(extended.iter().any(|&n| n > 128), "simulations: {extended:?}");
    // A fixed budget ends at its time, close or not: at the first look after it, the 64th
    // simulation.
    let mut engine = Mcts::new(unlimited);
    engine.decide(&mirrored, Color::Black, Some(Budget::fixed(ms(1))));
    assert!(engine.nodes[0].visits <= 65, "{}", engine.nodes[0].visits);
}

#[test]
fn a_clock_budget_outlasts_the_default_simulations_when_time_comes_first() {
    // The counts are small enough for any machine to pass them within the budgets (a
    // debug build on a loaded two-core machine runs a few hundred simulations in 300 ms):
    // the test is about which limit stops the search, not about speed.
    let game = Game::new(9, Rules::chinese()).unwrap();
    let long = Some(Budget::fixed(Duration::from_secs(60)));
    let exact = PlayoutParams { close_extension: 1.0, ..PlayoutParams::default() };
    let mut capped = Mcts::new(SearchParams {
        playouts: Limit::Simulations(100),
        playout: exact.clone(),
        ..SearchParams::default()
    });
    let started = Instant::now();
    capped.decide(&game, Color::Black, long);
    assert_eq!(capped.nodes[0].visits, 100);
    assert!(started.elapsed() < Duration::from_secs(30), "{:?}", started.elapsed());
    // With the default extension, at most twice the simulations.
    let mut extended = Mcts::new(SearchParams { playouts: Limit::Simulations(100), ..SearchParams::default() });
    extended.decide(&game, Color::Black, long);
    assert!((100..=200).contains(&extended.nodes[0].visits), "{}", extended.nodes[0].visits);
    let mut timed = Mcts::new(SearchParams {
        playouts: Limit::Simulations(10),
        time_first: true,
        playout: exact,
        ..SearchParams::default()
    });
    let started = Instant::now();
    timed.decide(&game, Color::Black, Some(Budget::fixed(Duration::from_millis(300))));
    assert!(timed.nodes[0].visits > 10, "{}", timed.nodes[0].visits);
    assert!(started.elapsed() >= Duration::from_millis(250));
    // Without a budget the simulations still cap it (exactly, without the extension).
    timed.clear();
    timed.decide(&game, Color::Black, None);
    assert_eq!(timed.nodes[0].visits, 10);
}

#[test]
fn a_large_boards_opening_starts_in_the_corners() {
    // On an empty 19 × 19 board: the 4-4 and 3-4 points of the empty corners first, then the
    // third line, the centre, and last the second and first lines.
    let game = Game::new(19, Rules::chinese()).unwrap();
    let names = ["D4", "C16", "C10", "K10", "B10", "A10"];
    let moves: Vec<u16> = names.iter().map(|v| at(v).index() as u16).collect();
    let (mut tactics, mut priors) = (Vec::new(), Vec::new());
    let params = SearchParams::default();
    expansion_priors(game.board(), Color::Black, &moves, (None, None), &params, &mut tactics, &mut priors);
    let rates: Vec<f32> = priors.iter().map(|&(n, w)| w / n).collect();
    assert!(rates[0] > rates[2] && rates[1] > rates[2], "{names:?} {rates:?}");
    assert!(rates[2] > rates[3] && rates[3] > rates[4] && rates[4] > rates[5], "{names:?} {rates:?}");
    // A corner with a stone in it is no longer an empty corner; a stone nearby makes the
    // second line a move like any other; 9 × 9 has no such priors.
    let mut game = game;
    game.play(Move::Play(at("Q16"))).unwrap();
    game.play(Move::Play(at("B9"))).unwrap();
    let moves: Vec<u16> = ["R16", "D16", "B10"].iter().map(|v| at(v).index() as u16).collect();
    expansion_priors(game.board(), Color::Black, &moves, (None, None), &params, &mut tactics, &mut priors);
    let rates: Vec<f32> = priors.iter().map(|&(n, w)| w / n).collect();
    assert!(rates[1] > rates[0], "D16 in an empty corner before R16 next to Q16: {rates:?}");
    assert!(Opening::of(&Board::new(9).unwrap()).is_none());
}

#[test]
fn a_large_boards_root_takes_the_empty_corners_first() {
    let mut game = Game::new(19, Rules::chinese()).unwrap();
    game.play(Move::Play(at("Q16"))).unwrap();
    game.play(Move::Play(at("Q4"))).unwrap();
    let root_moves = |engine: &Mcts| {
        let root = engine.nodes[0];
        engine.nodes[root.first_child as usize..][..root.children as usize].iter().map(|n| n.mv).collect::<Vec<u16>>()
    };
    let has = |moves: &[u16], v: &str| moves.contains(&(at(v).index() as u16));
    let params = |corners_first: bool| {
        let mut params = SearchParams { playouts: Limit::Simulations(300), seed: 1, ..SearchParams::default() };
        params.playout.corners_first = corners_first;
        params
    };
    let mut engine = Mcts::new(params(false));
    engine.decide(&game, Color::Black, None);
    let all = root_moves(&engine);
    assert!(["K10", "C10", "G13", "F5", "D4", "R17"].iter().all(|v| has(&all, v)));
    // A fresh root: the empty corners' points, moves near Q16 and Q4 and the pass stay; quiet
    // moves elsewhere do not.
    let mut fresh = Mcts::new(params(true));
    fresh.decide(&game, Color::Black, None);
    // The same tree kept from a search without the rule: its root is filtered as it is reused.
    engine.params.playout.corners_first = true;
    engine.decide(&game, Color::Black, None);
    assert!(engine.report.as_ref().is_some_and(|r| r.kept > 0));
    for kept in [root_moves(&fresh), root_moves(&engine)] {
        assert!(["D4", "C16", "D17", "R3", "R17", "O3"].iter().all(|v| has(&kept, v)), "{kept:?}");
        assert!(["K10", "C10", "G13", "F5", "K3"].iter().all(|v| !has(&kept, v)), "{kept:?}");
        assert!(kept.contains(&PASS) && kept.len() + 250 < all.len(), "{} of {}", kept.len(), all.len());
    }
    // Once every corner holds a stone, the rest is open again but for quiet moves on the
    // first and second lines; a second-line move near a stone stays.
    game.play(Move::Play(at("D4"))).unwrap();
    game.play(Move::Play(at("D16"))).unwrap();
    fresh.clear();
    fresh.decide(&game, Color::Black, None);
    let open = root_moves(&fresh);
    assert!(["K10", "K3", "C10"].iter().all(|v| has(&open, v)), "{open:?}");
    assert!(["K2", "B10", "K1", "S10"].iter().all(|v| !has(&open, v)), "{open:?}");
    assert!(has(&open, "D2") && has(&open, "R2"), "near D4 and Q4: {open:?}");
}

#[test]
fn a_large_boards_opening_keeps_off_the_edges() {
    // Twelve moves of self-play on 19 × 19 at 1,500 simulations: no quiet move (no stone
    // within two lines) on the first or second line.
    let mut game = Game::new(19, Rules::chinese()).unwrap();
    let mut engine =
        Mcts::new(SearchParams { playouts: Limit::Simulations(1_500), seed: 3, ..SearchParams::default() });
    for _ in 0..12 {
        let color = game.to_move();
        let Decision::Play(mv) = engine.decide(&game, color, None) else { panic!("resigned") };
        if let Move::Play(p) = mv {
            let line = p.col().min(p.row()).min(18 - p.col()).min(18 - p.row());
            let quiet = game.board().points().filter(|&q| game.board().get(q).is_some()).all(|q| {
                (i32::from(q.col()) - i32::from(p.col())).abs() > 2
                    || (i32::from(q.row()) - i32::from(p.row())).abs() > 2
            });
            assert!(line >= 2 || !quiet, "{p} after {:?}", game.moves());
        }
        game.play(mv).unwrap();
    }
}

#[test]
fn the_least_error_schedule_trusts_few_amaf_simulations_less() {
    // Under a root of 200 visits: A won 30 of its 100 simulations and 9 of its 10 AMAF ones,
    // B 60 of 100 and 500 of 1,000. The hand-picked schedule weighs AMAF alike whatever its
    // count and descends to A; the least-error one trusts A's ten AMAF simulations little.
    let child = |wins: f32, rave_wins: f32, rave_visits: f32| Node {
        visits: 100,
        wins,
        utility: wins,
        rave_visits,
        rave_wins,
        ..Node::default()
    };
    let root = Node { visits: 200, first_child: 1, children: 2, expanded: true, ..Node::default() };
    let nodes = [root, child(30.0, 9.0, 10.0), child(60.0, 500.0, 1_000.0)];
    let mut params = SearchParams::default();
    params.playout.rave_equivalence = 1_000.0;
    params.playout.rave_schedule = RaveSchedule::Equivalence;
    assert_eq!(select(&nodes, &params, 0), 1);
    params.playout.rave_schedule = RaveSchedule::LeastError;
    assert_eq!(select(&nodes, &params, 0), 2);
}

#[test]
fn root_exploration_tries_a_move_whose_amaf_rate_is_poor_at_the_root_alone() {
    // A has won its 2 visits but has a poor AMAF rate (50 of 1,000), B 1,000 visits at 40%: the RAVE
    // blend alone never descends to A again; the root's exploration term does, there only.
    let child = |visits: u32, wins: f32, rave_wins: f32| Node {
        visits,
        wins,
        utility: wins,
        rave_visits: 1_000.0,
        rave_wins,
        ..Node::default()
    };
    let parent = Node { visits: 1_002, first_child: 1, children: 2, expanded: true, ..Node::default() };
    let nodes = [parent, child(2, 2.0, 50.0), child(1_000, 400.0, 400.0), Node { first_child: 1, ..parent }];
    let mut params = SearchParams::default();
    params.playout.root_exploration = 0.0;
    assert_eq!(select(&nodes, &params, 0), 2);
    params.playout.root_exploration = 0.3;
    assert_eq!(select(&nodes, &params, 0), 1);
    // Below the root, `exploration` (0 by default) rules.
    assert_eq!(select(&nodes, &params, 3), 2);
}

#[test]
fn an_unsettled_choice_goes_on_past_the_simulations_limit() {
    // A root with two children of the given (visits, wins), at a limit of 1,000 simulations.
    let game = Game::new(9, Rules::chinese()).unwrap();
    let tree = |a: (u32, f32), b: (u32, f32)| {
        let child = |(visits, wins): (u32, f32)| Node { visits, wins, player: 0, ..Node::default() };
        vec![
            Node { visits: a.0 + b.0, first_child: 1, children: 2, expanded: true, ..Node::default() },
            child(a),
            child(b),
        ]
    };
    let stops_at = |extension: f32, extend: bool, a, b, claimed| {
        let params = SearchParams {
            playouts: Limit::Simulations(1_000),
            playout: PlayoutParams { close_extension: extension, ..PlayoutParams::default() },
            ..SearchParams::default()
        };
        let stop = Stop { limit: params.playouts, extend, budget: None, early: false };
        let shared = Shared::new(&params, &game, Color::Black, tree(a, b), stop, None, Instant::now());
        past_limit(&shared, claimed)
    };
    // Close in visits, or the second winning more often: on, every 64 simulations, up to 3 ×.
    assert!(!stops_at(3.0, true, (600, 300.0), (450, 200.0), 1_000));
    assert!(!stops_at(3.0, true, (900, 450.0), (150, 90.0), 1_064));
    assert!(stops_at(3.0, true, (600, 300.0), (450, 200.0), 3_000));
    // Between two checks the search goes on; a settled choice stops at the next.
    assert!(!stops_at(3.0, true, (900, 450.0), (150, 60.0), 1_001));
    assert!(stops_at(3.0, true, (900, 450.0), (150, 60.0), 1_064));
    // Off (1), or where the move is drawn or analysed (`extend` false): at the limit.
    assert!(stops_at(1.0, true, (600, 300.0), (450, 200.0), 1_000));
    assert!(stops_at(3.0, false, (600, 300.0), (450, 200.0), 1_000));
}

#[test]
fn a_settled_move_stops_before_its_simulations_limit() {
    // Taking the three stones at C3 wins everything: soon no simulations left could make
    // another move the most visited. Without `stop_early`, every simulation runs.
    let game = decisive_capture();
    let run = |stop_early: bool| {
        let params = SearchParams {
            playouts: Limit::Simulations(20_000),
            stop_early,
            etiquette: false,
            ..SearchParams::default()
        };
        let mut mcts = Mcts::new(params);
        let decision = mcts.decide(&game, Color::Black, None);
        (decision, mcts.last_search().unwrap().simulations)
    };
    let (early, simulations) = run(true);
    assert_eq!(early, Decision::Play(Move::Play(at("C3"))));
    assert!(simulations < 15_000, "{simulations}");
    let (full, simulations) = run(false);
    assert_eq!(full, early);
    assert_eq!(simulations, 20_000);
}

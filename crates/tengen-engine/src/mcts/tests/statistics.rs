//! How simulations and priors enter a node's statistics: AMAF weights by distance, priors
//! in the node's own statistics, nearness on the common-fate graph.

use super::*;
use crate::mcts::priors::cfg_distances;
use crate::mcts::tree::add_children;

/// A root (White's move before it) with Black's children `moves`, expanded.
fn root_with(moves: &[&str], priors: &[(f32, f32)], in_value: bool) -> Vec<Node> {
    let mut nodes = vec![Node { player: 1, visits: 1, ..Node::default() }];
    let moves: Vec<u16> = moves.iter().map(|m| at(m).index() as u16).collect();
    add_children(&mut nodes, 0, Color::Black, (&moves, priors), in_value);
    nodes
}

#[test]
fn amaf_hits_weigh_more_the_sooner_they_were_played() {
    let idx = |s: &str| at(s).index() as u16;
    let back_up = |distance: f32| {
        let mut nodes = root_with(&["E5", "C3", "G7"], &[], false);
        let mut worker = Worker::new(1);
        worker.path = vec![0];
        // A playout of four moves from the root, Black winning: E5 first, C3 third; White's G7
        // is not Black's.
        worker.sequence = vec![(idx("E5"), 0), (idx("D4"), 1), (idx("C3"), 0), (idx("G7"), 1)];
        worker.first_players(0);
        worker.back_up(&mut nodes, (0, distance), 1.0, 10.0, 1.0);
        (nodes[1], nodes[2], nodes[3])
    };
    let (e5, c3, g7) = back_up(0.0);
    assert_eq!((e5.rave_visits, c3.rave_visits, g7.rave_visits), (1.0, 1.0, 0.0));
    // 1 + 3 × (4 − 0) / 4 and 1 + 3 × (4 − 2) / 4.
    let (e5, c3, g7) = back_up(3.0);
    assert_eq!((e5.rave_visits, c3.rave_visits, g7.rave_visits), (4.0, 2.5, 0.0));
    assert_eq!((e5.rave_wins, c3.rave_wins), (4.0, 2.5), "Black won: every weight a win");
    assert_eq!(e5.visits, 0, "AMAF weights are no visits");
}

#[test]
fn priors_in_the_value_weigh_against_the_node_s_own_simulations() {
    let priors = [(30.0, 27.0), (30.0, 18.0)];
    // In the AMAF statistics (the default) or the node's own: either way the move with the
    // better prior is tried first, and no prior counts as a visit.
    for in_value in [false, true] {
        let nodes = root_with(&["E5", "C3"], &priors, in_value);
        assert_eq!(select(&nodes, &SearchParams::default(), 0), 1, "in value: {in_value}");
        assert_eq!(nodes[1].visits, 0);
        assert_eq!((nodes[1].prior_visits > 0.0, nodes[1].rave_visits > 0.0), (in_value, !in_value));
    }
    // In the value, E5's prior (90%) outweighs two lost simulations of its own: it is
    // still chosen over C3 (60%, unvisited).
    let mut nodes = root_with(&["E5", "C3"], &priors, true);
    nodes[1].visits = 2;
    assert_eq!(select(&nodes, &SearchParams::default(), 0), 1);
    // Without it, two lost simulations leave E5 at 0 and the unvisited C3 at its prior, above
    // the unvisited pass's even 0.5.
    nodes[1].prior_visits = 0.0;
    nodes[1].prior_wins = 0.0;
    assert_eq!(select(&nodes, &SearchParams::default(), 0), 2);
}

#[test]
fn common_fate_graph_distances_count_a_chain_as_one_point() {
    // Black's last stone C3 joins D3: the chain is at 0, its liberties at 1, White's E3 chain
    // touching it at 1 too and its liberties at 2.
    let setup = Setup::from_ascii(
        "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . X X O O .
        . . . . . . .
        . . . . . . .",
    )
    .unwrap();
    let game = Game::try_from(setup).unwrap();
    let d = cfg_distances(game.board(), at("C3"), 3);
    let of = |s: &str| d[at(s).index()];
    assert_eq!((of("C3"), of("D3")), (0, 0));
    assert_eq!((of("B3"), of("C2"), of("D4"), of("E3"), of("F3")), (1, 1, 1, 1, 1));
    assert_eq!((of("G3"), of("E4"), of("F2"), of("A3"), of("C5")), (2, 2, 2, 2, 2));
    assert_eq!((of("G4"), of("C6")), (3, 3));
    assert_eq!((of("C7"), of("G7")), (u8::MAX, u8::MAX), "beyond the limit");
}

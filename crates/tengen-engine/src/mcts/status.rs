//! Dead stones: the status search, status playouts and readings of weak groups.

use std::time::{Duration, Instant};

use tengen_core::{Board, Color, Game, Point};

use super::worker::owner;
use super::{Ending, Mcts};
use crate::params::{Limit, SearchParams};

/// How far the mean ownership of a chain must lean the opponent's way for the final judgement
/// ([`Mcts::dead_stones_of`], `final_status_list dead`) to call it dead: 0.1, in more than 55%
/// of the final boards. Measured on real finished games with agreed dead stones and on the
/// project's records (docs/measurements.md, 2026-12-03): 0.2 missed dead groups whose owner's
/// fight the playouts half win; 0.1 and 0.05 called no more living stones dead.
pub(super) const FINAL_DEAD_THRESHOLD: f32 = 0.1;

/// A weak group ([`crate::dead::weak_groups`]) is dead unless its owner, moving first, saves
/// it in at least this share of a reading ([`Mcts::survival`]). Measured on GNU Go's
/// regression games and OGS's (docs/measurements.md, 2026-12-05).
pub(super) const READ_ALIVE_FROM: f32 = 0.8;

/// A chain in seki by the static rule that the ownership calls dead
/// ([`crate::dead::by_ownership`]) is dead only when a reading saves it less often than
/// this: the seki of tengen-core's `tests/data/seki.txt` read 0.63 and more (their playouts
/// fill shared liberties), the false seki of shi-gnu in GNU Go's regression games 0.15.
pub(super) const SEKI_READ_ALIVE_FROM: f32 = 0.3;

/// Simulations of each reading of a group's life ([`Mcts::survival`]).
pub(super) const READING_SIMULATIONS: u32 = 3_000;

/// Status playouts that find the searching player's dead stones for the counts of games
/// ended inside the tree (a few milliseconds on 9 × 9, some 30 on 19 × 19).
pub(super) const TERMINAL_STATUS_PLAYOUTS: u32 = 1_000;

impl Mcts {
    /// Ownership from `playouts` playouts (by `status_policy`) straight from `board`, no tree: the search's
    /// ownership would follow its best line, and after two passes that line is another pass
    /// that counts the board as it stands, dead stones and all.
    pub(super) fn playout_ownership(&mut self, board: &Board, to_move: Color, playouts: u32) -> Vec<f32> {
        let mut scratch = board.clone();
        let mut ownership = vec![0f32; Point::TABLE_SIZE];
        let max_moves = 3 * (board.size() * board.size()) as u32;
        let policy = self.params.playout.status_policy;
        for _ in 0..playouts {
            scratch.copy_from(board);
            scratch.policy_playout(to_move, &policy, &mut self.rng, max_moves);
            for q in scratch.points() {
                ownership[q.index()] += owner(&scratch, q);
            }
        }
        let scale = 1.0 / playouts.max(1) as f32;
        ownership.iter_mut().for_each(|o| *o *= scale);
        ownership
    }

    /// Ownership from a status search of `simulations` simulations: a search from `game`'s
    /// position for the player to move, in a tree of its own (the engine's tree is left as
    /// it was), in which passes do not end the game — the opponent's last pass is not
    /// pending and two passes in the tree hand the move on — so that every simulation plays
    /// the board out and its final board counts exactly. Status playouts alone let the
    /// attacker of a thin wall capture its stones while the defender plays elsewhere, and
    /// so call the stones it surrounds alive; in the tree the defender answers.
    /// Within `time`, if given.
    pub(super) fn status_ownership(&self, game: &Game, simulations: u32, time: Option<Duration>) -> Vec<f32> {
        let mut status =
            Mcts::new(SearchParams { playouts: Limit::Simulations(simulations), time, ..self.params.clone() });
        let stop = status.configured_stop();
        status.search_monitored(game, game.to_move(), stop, None, Instant::now(), Ending::PlayedOut).ownership
    }

    /// The stones dead in `game`: the chains whose stones end up, on average, the opponent's
    /// (net ownership beyond 0.1 the other way, in more than 55% of the final boards) by
    /// the mean of two ownerships — the status search's ([`PlayoutParams::status_simulations`](crate::PlayoutParams::status_simulations))
    /// and that of status playouts straight from the position ([`PlayoutParams::status_policy`](crate::PlayoutParams::status_policy),
    /// as many as the search's simulations within 1,000 to 20,000) — unless Benson's algorithm
    /// proves the chain alive or it is in seki by the static rule; with them the stones inside
    /// the opponent's unconditional area ([`tengen_core::Unconditional`]). Each errs where the other
    /// does not: the playouts where a thin wall needs answers, the search where the game is
    /// decided and a fight no longer changes its result (docs/measurements.md). With no status
    /// search, the playouts alone.
    pub fn dead_stones_of(&mut self, game: &Game) -> Vec<Point> {
        self.dead_stones_within(game, None)
    }

    /// [`Mcts::dead_stones_of`], its status search stopped after `time` if given (a move's
    /// share of the clock).
    pub(super) fn dead_stones_within(&mut self, game: &Game, time: Option<Duration>) -> Vec<Point> {
        let board = game.board();
        let playouts = self.params.playouts.cap().clamp(1_000, 20_000);
        let mut ownership = self.playout_ownership(board, game.to_move(), playouts);
        if self.params.playout.status_simulations > 0 {
            let searched = self.status_ownership(game, self.params.playout.status_simulations, time);
            for (o, s) in ownership.iter_mut().zip(&searched) {
                *o = 0.5 * (*o + s);
            }
        }
        let (mut dead, seki) = crate::dead::by_ownership(board, &ownership, FINAL_DEAD_THRESHOLD);
        // Weak groups, and the chains only the static seki rule spares, read one by one (within
        // as much time again).
        let deadline = time.map(|t| Instant::now() + t);
        let weak = crate::dead::weak_groups(board, &ownership).into_iter().map(|g| (g, READ_ALIVE_FROM));
        for (stones, alive_from) in weak.chain(seki.into_iter().map(|c| (c, SEKI_READ_ALIVE_FROM))) {
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            if left.is_some_and(|l| l.is_zero()) {
                break;
            }
            let color = board.get(stones[0]).expect("a stone");
            if self.survival(game, &stones, color, left) < alive_from {
                dead.extend(&stones);
            }
        }
        let dead = crate::dead::in_opponent_area(board, crate::dead::with_nakade(board, &ownership, dead));
        crate::dead::with_unconditional(board, dead)
    }

    /// How often `defender`'s `stones` live when `defender` moves first and both sides read
    /// for them alone: the win rate of a reading ([`Ending::Reading`]) of
    /// [`READING_SIMULATIONS`] simulations from `game`'s board, in which a simulation is won
    /// by the share of the stones' points the defender owns on its played-out board.
    pub(super) fn survival(&self, game: &Game, stones: &[Point], defender: Color, time: Option<Duration>) -> f32 {
        let position = game.position_only(defender);
        let playouts = Limit::Simulations(READING_SIMULATIONS);
        let params = SearchParams { playouts, time, reuse_tree: false, ..self.params.clone() };
        let mut reader = Mcts::new(params);
        let ending = Ending::Reading(stones.to_vec());
        let stop = reader.configured_stop();
        reader.search_monitored(&position, defender, stop, None, Instant::now(), ending).win_rate
    }

    /// The stones dead in `game` by the ownership of `playouts` status playouts
    /// ([`PlayoutParams::status_policy`](crate::PlayoutParams::status_policy)), without a tree: the quick judgement behind the
    /// counts of games ended inside the search's tree.
    pub(super) fn dead_stones_of_by(&mut self, game: &Game, playouts: u32) -> Vec<Point> {
        let board = game.board();
        let ownership = self.playout_ownership(board, game.to_move(), playouts);
        crate::dead::dead_by_ownership(board, &ownership, 0.2)
    }

    /// `color`'s stones in `game` that `playouts` status playouts call dead (as
    /// [`Mcts::dead_stones_of_by`] judges).
    pub(super) fn own_dead_stones(&mut self, game: &Game, color: Color, playouts: u32) -> Vec<Point> {
        let board = game.board();
        if board.stone_count(color) == 0 {
            return Vec::new();
        }
        crate::dead::stones_of(board, color, &self.dead_stones_of_by(game, playouts))
    }
}
